//! The metrics of iai-callgrind 0.15+ and gungraun by tool, and their groups: which metrics a
//! tool's report shows and in which order (`Callgrind::format`, `--callgrind-metrics`), and what
//! a limit names (`soft_limits`, `--callgrind-limits`). A group (`@default`, `@all`, `@hits`,
//! ...) stands for its members in order; a single metric converts into a group of one.
//!
//! Each maps onto benchgrind's own [`EventKind`](super::metric::EventKind) (Callgrind and Cachegrind count the same events)
//! and [`ToolMetric`](super::metric::ToolMetric) (DHAT, Memcheck, Helgrind, DRD).

mod cachegrind;
mod callgrind;
mod dhat;
mod errors;
mod sets;
pub mod text;

pub use super::regression::Limit;
pub use cachegrind::{CachegrindMetric, CachegrindMetrics};
pub use callgrind::CallgrindMetrics;
pub use dhat::{DhatMetric, DhatMetrics};
pub use errors::ErrorMetric;

#[cfg(test)]
mod tests {
    use super::super::metric::EventKind;
    use super::*;

    #[test]
    fn groups_expand_in_report_order() {
        let default = CallgrindMetrics::Default.expand();
        assert_eq!(
            default[..6],
            [
                EventKind::Ir,
                EventKind::L1hits,
                EventKind::LLhits,
                EventKind::RamHits,
                EventKind::TotalRW,
                EventKind::EstimatedCycles
            ]
        );
        let all = CallgrindMetrics::All.expand();
        assert_eq!(all.len(), EventKind::ALL.len());
        let mut unique = all.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), all.len());
        assert_eq!(
            CallgrindMetrics::CacheSim.expand().len(),
            2 + 6 + 5 + 3 + 3 + 2
        );
        assert_eq!(CachegrindMetrics::All.expand().len(), 26);
        assert_eq!(DhatMetrics::Default.expand().len(), 10);
        assert_eq!(DhatMetrics::All.expand().len(), 13);
    }

    #[test]
    fn names_and_groups_parse_without_case() {
        assert_eq!("@Hits".parse(), Ok(CallgrindMetrics::CacheHits));
        assert_eq!("@wb".parse(), Ok(CallgrindMetrics::WriteBackBehaviour));
        assert_eq!("@all".parse(), Ok(CallgrindMetrics::All));
        assert_eq!(
            "instructions".parse(),
            Ok(CallgrindMetrics::SingleEvent(EventKind::Ir))
        );
        assert_eq!(
            "i1missrate".parse(),
            Ok(CallgrindMetrics::SingleEvent(EventKind::I1MissRate))
        );
        assert!("@nope"
            .parse::<CallgrindMetrics>()
            .unwrap_err()
            .contains("@default"));
        assert_eq!("@ms".parse(), Ok(CachegrindMetrics::CacheMisses));
        assert_eq!(
            "gb".parse(),
            Ok(DhatMetrics::SingleMetric(DhatMetric::AtTGmaxBytes))
        );
        assert_eq!("SCTX".parse(), Ok(ErrorMetric::SuppressedContexts));
        assert_eq!(DhatMetric::AtTGmaxBytes.to_string(), "At t-gmax bytes");
        assert_eq!(EventKind::LLHitRate.to_string(), "LL Hit Rate");
    }

    #[test]
    fn limits_convert_from_counts_and_rates() {
        assert_eq!(Limit::from(10_000u64), Limit::Int(10_000));
        assert_eq!(Limit::from(1.5), Limit::Float(1.5));
        assert_eq!(Limit::Int(3).as_f64(), 3.0);
    }
}
