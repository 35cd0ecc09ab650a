//! The event sets behind the Callgrind and Cachegrind groups, and how a group or a metric is
//! read from its name.

use super::super::metric::EventKind;
use crate::error::Problem;
use crate::problem;

pub(super) const CACHE_MISSES: [EventKind; 6] = [
    EventKind::I1mr,
    EventKind::D1mr,
    EventKind::D1mw,
    EventKind::ILmr,
    EventKind::DLmr,
    EventKind::DLmw,
];
pub(super) const CACHE_MISS_RATES: [EventKind; 5] = [
    EventKind::I1MissRate,
    EventKind::LLiMissRate,
    EventKind::D1MissRate,
    EventKind::LLdMissRate,
    EventKind::LLMissRate,
];
pub(super) const CACHE_HITS: [EventKind; 3] =
    [EventKind::L1hits, EventKind::LLhits, EventKind::RamHits];
pub(super) const CACHE_HIT_RATES: [EventKind; 3] = [
    EventKind::L1HitRate,
    EventKind::LLHitRate,
    EventKind::RamHitRate,
];
pub(super) const CACHE_USE: [EventKind; 4] = [
    EventKind::AcCost1,
    EventKind::AcCost2,
    EventKind::SpLoss1,
    EventKind::SpLoss2,
];
pub(super) const SYSTEM_CALLS: [EventKind; 3] = [
    EventKind::SysCount,
    EventKind::SysTime,
    EventKind::SysCpuTime,
];
pub(super) const BRANCH_SIM: [EventKind; 4] =
    [EventKind::Bc, EventKind::Bcm, EventKind::Bi, EventKind::Bim];
pub(super) const WRITE_BACK: [EventKind; 3] =
    [EventKind::ILdmr, EventKind::DLdmr, EventKind::DLdmw];

/// Reads, writes and every figure of the cache simulation, in report order.
pub(super) fn cache_sim() -> Vec<EventKind> {
    let mut all = vec![EventKind::Dr, EventKind::Dw];
    all.extend(CACHE_MISSES);
    all.extend(CACHE_MISS_RATES);
    all.extend(CACHE_HITS);
    all.extend(CACHE_HIT_RATES);
    all.extend([EventKind::TotalRW, EventKind::EstimatedCycles]);
    all
}

/// `@group` or a metric's name, without regard to case (`@hits`, `ir`, `Instructions`).
pub(super) fn group_or_metric<G: Copy>(
    text: &str,
    groups: &[(&str, G)],
    single: impl Fn(&str) -> Option<G>,
    what: &str,
) -> Result<G, Problem> {
    let text = text.trim();
    match text.strip_prefix('@') {
        Some(name) => groups
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, g)| *g)
            .ok_or_else(|| {
                let names: Vec<String> = groups.iter().map(|(n, _)| format!("@{n}")).collect();
                problem!(
                    "unknown {what} group `{text}`; use one of {}",
                    names.join(", ")
                )
            }),
        None => single(text).ok_or_else(|| problem!("unknown {what} metric `{text}`")),
    }
}
