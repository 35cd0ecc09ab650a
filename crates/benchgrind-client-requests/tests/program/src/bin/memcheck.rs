//! Memcheck: definedness, addressability, error counts and an on-demand leak check.

use std::hint::black_box;

use benchgrind::client_requests::{memcheck, valgrind};
use creq_program::report;

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
    let buffer = black_box(vec![1u8; 16]);
    let errors_before = valgrind::count_errors();
    report(
        "defined_before",
        memcheck::check_mem_is_defined(buffer.as_ptr(), 16),
    );

    report(
        "make_undefined_answer",
        memcheck::make_mem_undefined(buffer.as_ptr(), 16),
    );
    let first_bad = memcheck::check_mem_is_defined(buffer.as_ptr(), 16);
    report(
        "undefined_offset",
        first_bad.wrapping_sub(buffer.as_ptr() as usize),
    );
    let errors_after = valgrind::count_errors();
    report("errors_before", errors_before);
    report("errors_after", errors_after);

    let mut vbits = [0u8; 16];
    report(
        "get_vbits",
        memcheck::get_vbits(buffer.as_ptr(), &mut vbits),
    );
    report("vbits_first", vbits[0]);
    memcheck::make_mem_defined(buffer.as_ptr(), 16);
    report(
        "defined_again",
        memcheck::check_mem_is_defined(buffer.as_ptr(), 16),
    );

    memcheck::make_mem_noaccess(buffer.as_ptr().wrapping_add(8), 8);
    let bad = memcheck::check_mem_is_addressable(buffer.as_ptr(), 16);
    report(
        "noaccess_offset",
        bad.wrapping_sub(buffer.as_ptr() as usize),
    );
    memcheck::make_mem_defined(buffer.as_ptr(), 16);

    let quiet = black_box(vec![0u8; 8]);
    report(
        "disable_reporting_answer",
        memcheck::disable_addr_error_reporting_in_range(quiet.as_ptr(), 8),
    );
    report(
        "enable_reporting_answer",
        memcheck::enable_addr_error_reporting_in_range(quiet.as_ptr(), 8),
    );
    report(
        "enable_again_answer",
        memcheck::enable_addr_error_reporting_in_range(quiet.as_ptr(), 8),
    );

    leak(1000);
    scrub_stack();
    memcheck::do_leak_check();
    let bytes = memcheck::count_leaks();
    let blocks = memcheck::count_leak_blocks();
    report("leaked_bytes", bytes.leaked);
    report("leaked_blocks", blocks.leaked);
    report("errors_end", valgrind::count_errors());
}
