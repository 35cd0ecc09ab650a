//! Helgrind and DRD: a handoff through an atomic flag, which neither tool understands.
//!
//! Arguments: `helgrind` or `drd` (which annotations), then `annotated` or `plain`. Plain, the
//! tool reports races on `DATA` and on the flag; annotated (happens-before/after on the flag,
//! and the flag's own races declared benign) it must report none.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use benchgrind::client_requests::{drd, helgrind};
use creq_program::report;

static DATA: AtomicU64 = AtomicU64::new(0);
static READY: AtomicBool = AtomicBool::new(false);

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let helgrind = args.first().map(String::as_str) != Some("drd");
    let annotated = args.get(1).map(String::as_str) == Some("annotated");
    let before = move |object: &AtomicBool| match (annotated, helgrind) {
        (true, true) => helgrind::happens_before(object),
        (true, false) => drd::happens_before(object),
        _ => {}
    };
    let after = move |object: &AtomicBool| match (annotated, helgrind) {
        (true, true) => helgrind::happens_after(object),
        (true, false) => drd::happens_after(object),
        _ => {}
    };

    if annotated && helgrind {
        helgrind::disable_checking(&READY, 1);
    } else if annotated {
        drd::ignore_range(&READY, 1);
    }
    let consumer = std::thread::spawn(move || {
        drd::set_thread_name(c"creq-consumer");
        while !READY.load(Ordering::Acquire) {
            std::hint::spin_loop();
        }
        after(&READY);
        (DATA.load(Ordering::Relaxed), drd::drd_thread_id())
    });
    DATA.store(42, Ordering::Relaxed);
    before(&READY);
    READY.store(true, Ordering::Release);
    let (seen, consumer_drd_id) = consumer.join().expect("the consumer finishes");
    report("seen", seen);
    report("consumer_drd_thread_id", consumer_drd_id);
    report("main_valgrind_thread_id", drd::valgrind_thread_id());
}
