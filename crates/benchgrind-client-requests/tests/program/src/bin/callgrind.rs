//! Callgrind: the same workload counted four ways, chosen by the first argument.
//!
//! - `toggle`: `creq_work(OUTSIDE)`, then `creq_work(REGION)` between two `toggle_collect`;
//!   run with `--collect-atstart=no`.
//! - `reference`: only `creq_work(REGION)`; run with `--collect-atstart=no
//!   --toggle-collect=creq_work` for the region's cost by symbol.
//! - `whole`: both calls, no requests; the whole program's cost.
//! - `instr`: the region between `start_instrumentation` and `stop_instrumentation`; run with
//!   `--instr-atstart=no`.
//! - `dump`: `zero_stats` before the region, `dump_stats_at` after it.

use benchgrind::client_requests::callgrind;
use creq_program::{creq_work, report, OUTSIDE, REGION};

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let result = match mode.as_str() {
        "toggle" => {
            let outside = creq_work(OUTSIDE);
            callgrind::toggle_collect();
            let region = creq_work(REGION);
            callgrind::toggle_collect();
            outside ^ region
        }
        "reference" => creq_work(REGION),
        "whole" => creq_work(OUTSIDE) ^ creq_work(REGION),
        "instr" => {
            let outside = creq_work(OUTSIDE);
            callgrind::start_instrumentation();
            let region = creq_work(REGION);
            callgrind::stop_instrumentation();
            outside ^ creq_work(OUTSIDE) ^ region
        }
        "dump" => {
            let outside = creq_work(OUTSIDE);
            callgrind::zero_stats();
            let region = creq_work(REGION);
            callgrind::dump_stats_at(c"creq region");
            outside ^ region
        }
        other => panic!("unknown mode {other:?}: toggle, reference, whole, instr or dump"),
    };
    report("result", result);
}
