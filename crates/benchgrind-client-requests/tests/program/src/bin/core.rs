//! The core requests: under any tool (the test uses `--tool=none` and Memcheck).

use benchgrind::client_requests::{valgrind, valgrind_println};
use creq_program::report;

fn main() {
    report("running_on_valgrind", valgrind::running_on_valgrind());
    let printed = valgrind::printf_args(format_args!(
        "creq-core: hello {} at 100% (%s %d stay text)\n",
        42
    ));
    report("printf_returned", printed);
    valgrind_println!("creq-core: from the macro {}", 7).unwrap();
    report("nul_rejected", valgrind_println!("a\0b").is_err());
    valgrind::printf_backtrace("creq-core: backtrace follows\n");
    report(
        "monitor_recognised",
        valgrind::monitor_command(c"v.info n_errs_found"),
    );
    // The code of `main` gets translated afresh; nothing visible, but it must not crash.
    valgrind::discard_translations(main as fn() as *const (), 64);

    let stack = vec![0u8; 4096];
    let range = stack.as_ptr_range();
    let id = valgrind::stack_register(range.start, range.end);
    valgrind::stack_change(id, range.start, range.end);
    valgrind::stack_deregister(id);
    report("stack_id", id);

    valgrind::disable_error_reporting();
    valgrind::enable_error_reporting();
    report("errors", valgrind::count_errors());
}
