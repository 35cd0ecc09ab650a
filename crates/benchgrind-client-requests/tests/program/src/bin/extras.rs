//! The valgrind-requests names: core extras, Memcheck's "new" leak check, the unchecked print
//! macros. Argument: `core` (any tool) or `leaks` (Memcheck).

use std::hint::black_box;

use benchgrind::client_requests::valgrind::{self, MempoolFlags};
use benchgrind::client_requests::{memcheck, valgrind_println_unchecked, ThreadId};
use creq_program::{creq_work, report};

/// Runs on the real CPU: arithmetic only.
fn add_thread_id(tid: ThreadId, a: usize) -> usize {
    tid * 1000 + a
}

fn sum3(tid: ThreadId, a: usize, b: usize, c: usize) -> usize {
    tid * 1000 + a + b + c
}

/// Allocates and forgets a block, keeping no pointer to it anywhere: definitely lost.
#[inline(never)]
fn leak(len: usize) {
    let block = black_box(vec![7u8; len]).into_boxed_slice();
    std::mem::forget(block);
}

/// Overwrites the stack below the caller, where a copy of the leaked pointer may remain.
#[inline(never)]
fn scrub_stack() {
    black_box([0u8; 4096]);
}

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("leaks") => leaks(),
        _ => core(),
    }
}

fn core() {
    // SAFETY: the functions only do arithmetic on their arguments.
    let (one, three) = unsafe {
        (
            valgrind::non_simd_call1(add_thread_id, 41),
            valgrind::non_simd_call3(sum3, 1, 2, 3),
        )
    };
    report("non_simd_call1", one);
    report("non_simd_call3", three);
    let location = valgrind::srcloc(creq_work as *const ());
    report("srcloc", location.unwrap_or_default());
    report("replaces_malloc", valgrind::replaces_malloc());

    let pool = black_box(vec![0u8; 256]);
    valgrind::create_mempool_ext(pool.as_ptr(), 0, false, MempoolFlags::METAPOOL);
    report("mempool_exists", valgrind::mempool_exists(pool.as_ptr()));
    valgrind::destroy_mempool(pool.as_ptr());
    report("mempool_gone", !valgrind::mempool_exists(pool.as_ptr()));

    // SAFETY: nothing to uphold; the macro asks for `unsafe` for compatibility only.
    unsafe { valgrind_println_unchecked!("creq-extras: unchecked {} with a \0 NUL", 7) };
}

fn leaks() {
    leak(1000);
    scrub_stack();
    memcheck::do_leak_check();
    leak(2345);
    scrub_stack();
    memcheck::do_new_leak_check();
    report("leaked_bytes", memcheck::count_leaks().leaked);
}
