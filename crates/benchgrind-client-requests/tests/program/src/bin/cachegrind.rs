//! Cachegrind: only the work between `start_instrumentation` and `stop_instrumentation` is
//! counted under `--instr-at-start=no` (Valgrind 3.22 and later).

use std::hint::black_box;

use benchgrind::client_requests::cachegrind;
use creq_program::{creq_work, report, OUTSIDE, REGION};

fn main() {
    let before = creq_work(black_box(OUTSIDE));
    cachegrind::start_instrumentation();
    let inside = creq_work(black_box(REGION));
    cachegrind::stop_instrumentation();
    let after = creq_work(black_box(OUTSIDE));
    report("result", before ^ inside ^ after);
}
