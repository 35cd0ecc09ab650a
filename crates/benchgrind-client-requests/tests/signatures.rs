//! Calls written the way code for iai-callgrind 0.15/0.16 and gungraun 0.17-0.20
//! (valgrind-requests) writes them: `*const ()` addresses, `CString`s, `fn` items, the
//! `unsafe` that the unchecked macros and `non_simd_call*` ask for. That this file compiles is
//! most of the test; natively every call answers its default.

use std::ffi::CString;

use benchgrind_client_requests::valgrind::MempoolFlags;
use benchgrind_client_requests::{
    cachegrind, callgrind, dhat, drd, helgrind, memcheck, valgrind, RawFd, StackId, ThreadId,
    VALGRIND_VERSION,
};

fn add(tid: ThreadId, a: usize) -> usize {
    tid + a
}

#[test]
fn valgrind_requests_style_calls_compile_and_answer_defaults_natively() {
    let data = [1u8; 64];
    let addr = data.as_ptr() as *const ();

    cachegrind::start_instrumentation();
    cachegrind::stop_instrumentation();
    callgrind::dump_stats_at(CString::new("owned reason").expect("no NUL"));
    dhat::histogram_memory(addr);
    memcheck::do_new_leak_check();
    assert_eq!(memcheck::count_leaks(), memcheck::LeakCounts::default());

    valgrind::create_mempool_ext(
        addr,
        0,
        false,
        MempoolFlags::AUTOFREE | MempoolFlags::METAPOOL,
    );
    let fd: RawFd = -1;
    valgrind::load_pdb_debuginfo(fd, addr, 64, 0);
    let mut buf64 = [0u8; 64];
    // SAFETY: the buffer has 64 bytes.
    assert_eq!(
        unsafe { valgrind::map_ip_to_srcloc(addr, buf64.as_mut_ptr() as *const ()) },
        0
    );
    assert_eq!(buf64, [0u8; 64], "natively nothing is written");
    assert!(!valgrind::replaces_malloc());
    assert_eq!(valgrind::get_toolname(buf64.as_mut_ptr(), 64), 0);
    // SAFETY: `add` only adds; natively it is not even called.
    assert_eq!(unsafe { valgrind::non_simd_call1(add, 1) }, 0);
    assert!(!valgrind::monitor_command(
        CString::new("v.info n_errs_found").expect("no NUL")
    ));
    let stack: StackId = valgrind::stack_register(addr, addr);
    assert_eq!(stack, 0);
    // valgrind-requests passes the bounds as numbers.
    let (start, end) = (addr as usize, addr as usize + 64);
    assert_eq!(valgrind::stack_register(start, end), 0);
    valgrind::stack_change(stack, start, end);
    let mut owned = [0u8; 16];
    valgrind::stack_change(stack, owned.as_mut_ptr(), owned.as_ptr());

    assert_eq!(drd::get_valgrind_threadid(), 0);
    assert_eq!(drd::get_drd_threadid(), 0);
    let var = 5u64;
    drd::ignore_var(&var);
    drd::stop_ignoring_var(&var);
    drd::trace_var(&var);
    drd::stop_tracing_var(&var);
    drd::annotate_benign_race_sized(&var, 8);
    drd::annotate_sem_init_pre(addr, 1);
    drd::annotate_sem_wait_post(addr);
    drd::annotate_rwlock_released(addr, true);
    drd::annotate_ignore_reads_and_writes_begin();
    drd::annotate_ignore_reads_and_writes_end();
    drd::annotate_trace_memory(addr);
    drd::annotate_thread_name(CString::new("worker").expect("no NUL"));

    helgrind::annotate_happens_before(addr);
    helgrind::annotate_happens_after(addr);
    helgrind::annotate_rwlock_released(addr, false);
    helgrind::sem_init_post(addr, 0);
    helgrind::barrier_init_pre(addr, 2, false);
    helgrind::barrier_resize_pre(addr, 3);
    assert_eq!(helgrind::clean_memory_heapblock(addr), -2);
    // SAFETY: a null `abits` asks for the count only.
    assert_eq!(
        unsafe { helgrind::get_abits(addr, std::ptr::null_mut(), 64) },
        -2
    );
    helgrind::gnat_dependent_master_join(addr, addr);

    // SAFETY: nothing to uphold; the macros ask for `unsafe` for compatibility only.
    unsafe {
        benchgrind_client_requests::valgrind_printf_unchecked!("a{}", 1);
        benchgrind_client_requests::valgrind_println_unchecked!();
        benchgrind_client_requests::valgrind_println_backtrace_unchecked!("b{}", 2);
    }
    assert_eq!(VALGRIND_VERSION, Some((3, 22)));
}

#[test]
fn client_request_error_names_the_nul_and_the_way_out() {
    use benchgrind_client_requests::error::ClientRequestError;

    let error = ClientRequestError::from(CString::new("a\0b").expect_err("interior NUL"));
    let text = error.to_string();
    assert!(text.contains("position 1"), "{text}");
    assert!(text.contains("_unchecked"), "{text}");
    assert!(std::error::Error::source(&error).is_some());
}
