//! `printf`-style macros writing to the Valgrind log, with Rust's formatting syntax.

/// Writes formatted text to the Valgrind log (no newline added) and returns the number of
/// characters written; natively nothing is formatted and the answer is 0.
///
/// ```rust
/// benchgrind_client_requests::valgrind_printf!("step {} of {}; ", 1, 3);
/// ```
#[macro_export]
macro_rules! valgrind_printf {
    ($($arg:tt)*) => {
        $crate::valgrind::printf_args(::core::format_args!($($arg)*))
    };
}

/// Writes formatted text and a newline to the Valgrind log; see [`valgrind_printf!`].
///
/// ```rust
/// benchgrind_client_requests::valgrind_println!("100% done: {:?}", [1, 2]);
/// ```
#[macro_export]
macro_rules! valgrind_println {
    () => {
        $crate::valgrind::printf("\n")
    };
    ($($arg:tt)*) => {
        $crate::valgrind::printf_args(::core::format_args!("{}\n", ::core::format_args!($($arg)*)))
    };
}

/// Like [`valgrind_printf!`], followed by a backtrace of the calling thread.
///
/// ```rust
/// benchgrind_client_requests::valgrind_printf_backtrace!("here: {}\n", line!());
/// ```
#[macro_export]
macro_rules! valgrind_printf_backtrace {
    ($($arg:tt)*) => {
        $crate::valgrind::printf_backtrace_args(::core::format_args!($($arg)*))
    };
}

/// Like [`valgrind_println!`], followed by a backtrace of the calling thread.
///
/// ```rust
/// benchgrind_client_requests::valgrind_println_backtrace!("here: {}", line!());
/// ```
#[macro_export]
macro_rules! valgrind_println_backtrace {
    ($($arg:tt)*) => {
        $crate::valgrind::printf_backtrace_args(
            ::core::format_args!("{}\n", ::core::format_args!($($arg)*))
        )
    };
}
