//! Helgrind and DRD: a handoff through an atomic flag, which neither tool understands.
//!
//! Arguments: `helgrind` or `drd` (which annotations), then the mode. `plain`: the tool reports
//! races on `DATA` and on the flag. `annotated` (happens-before/after on the flag, and the
//! flag's own races declared benign): it must report none. `iai`: the same with the
//! valgrind-requests names, plus their queries and tracing. `sem`: the flag described as a
//! semaphore posted by the producer and waited for by the consumer. `barrier` (Helgrind): as a
//! two-thread barrier both pass, the producer before setting the flag, the consumer after.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use benchgrind::client_requests::{drd, helgrind};
use creq_program::report;

static DATA: AtomicU64 = AtomicU64::new(0);
static READY: AtomicBool = AtomicBool::new(false);

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let helgrind = args.first().map(String::as_str) != Some("drd");
    // `'static`: the closures go to the consumer thread.
    let mode: &'static str = match args.get(1).map(String::as_str) {
        Some("annotated") => "annotated",
        Some("iai") => "iai",
        Some("sem") => "sem",
        Some("barrier") => "barrier",
        _ => "plain",
    };
    let (iai, sem) = (mode == "iai", mode == "sem");
    let barrier = mode == "barrier";
    let annotated = iai || sem || barrier || mode == "annotated";
    // The flag as a semaphore: posted once by the producer, waited for by the consumer.
    let before = move |object: &AtomicBool| match (mode, helgrind) {
        ("annotated", true) => helgrind::happens_before(object),
        ("iai", true) => helgrind::annotate_happens_before(object),
        ("sem", true) => helgrind::sem_post_pre(object),
        ("barrier", true) => helgrind::barrier_wait_pre(object),
        ("annotated", false) => drd::happens_before(object),
        ("iai", false) => drd::annotate_happens_before(object),
        ("sem", false) => drd::annotate_sem_post_pre(object),
        _ => {}
    };
    let after = move |object: &AtomicBool| match (mode, helgrind) {
        ("annotated", true) => helgrind::happens_after(object),
        ("iai", true) => helgrind::annotate_happens_after(object),
        ("sem", true) => helgrind::sem_wait_post(object),
        ("barrier", true) => helgrind::barrier_wait_pre(object),
        ("annotated", false) => drd::happens_after(object),
        ("iai", false) => drd::annotate_happens_after(object),
        ("sem", false) => {
            drd::annotate_sem_wait_pre(object);
            drd::annotate_sem_wait_post(object);
        }
        _ => {}
    };

    match (annotated, helgrind, iai) {
        (true, true, _) => helgrind::disable_checking(&READY, 1),
        (true, false, false) => drd::ignore_range(&READY, 1),
        (true, false, true) => drd::annotate_benign_race(&READY),
        _ => {}
    }
    if barrier && helgrind {
        helgrind::barrier_init_pre(&READY, 2, false);
    }
    if sem && helgrind {
        helgrind::sem_init_post(&READY, 0);
    } else if sem {
        drd::annotate_sem_init_pre(&READY, 0);
    }
    if iai {
        queries(helgrind);
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
    if barrier && helgrind {
        helgrind::barrier_destroy_pre(&READY);
    }
    if sem && helgrind {
        helgrind::sem_destroy_pre(&READY);
    } else if sem {
        drd::annotate_sem_destroy_post(&READY);
    }
}

/// The valgrind-requests queries and tracing, single-threaded.
fn queries(helgrind: bool) {
    if helgrind {
        let block = std::hint::black_box(vec![5u8; 48]);
        report(
            "clean_memory_heapblock",
            helgrind::clean_memory_heapblock(block.as_ptr()),
        );
        let mut abits = [0u8; 8];
        report("abits", helgrind::abits(block.as_ptr(), &mut abits));
        report("abits_first", abits[0]);
    } else {
        let mut traced = std::hint::black_box(Box::new(0u64));
        drd::trace_var(&*traced);
        // SAFETY: a store through a valid pointer to the box's value, owned here; volatile so
        // that the traced store happens.
        unsafe { std::ptr::write_volatile(&mut *traced as *mut u64, 77) };
        drd::stop_tracing_var(&*traced);
        report("traced_addr", format!("{:#x}", &*traced as *const u64 as usize));
        report("drd_thread_id", drd::get_drd_threadid());
        report("valgrind_thread_id", drd::get_valgrind_threadid());
        drd::annotate_thread_name(c"creq-main");
    }
}
