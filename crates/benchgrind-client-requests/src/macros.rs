//! `printf`-style macros writing to the Valgrind log, with Rust's formatting syntax.

/// Writes formatted text to the Valgrind log (no newline added). The answer is a
/// `Result<(), ClientRequestError>`, as in iai-callgrind and gungraun: an error under Valgrind
/// when the text holds a NUL byte; natively nothing is formatted and the answer is `Ok(())`.
/// [`valgrind::printf_args`](crate::valgrind::printf_args) answers the number of characters
/// written instead.
///
/// ```rust
/// benchgrind_client_requests::valgrind_printf!("step {} of {}; ", 1, 3).unwrap();
/// ```
#[macro_export]
macro_rules! valgrind_printf {
    ($($arg:tt)*) => {
        $crate::valgrind::__print_checked(false, ::core::format_args!($($arg)*))
    };
}

/// Writes formatted text and a newline to the Valgrind log; see [`valgrind_printf!`].
///
/// ```rust
/// benchgrind_client_requests::valgrind_println!("100% done: {:?}", [1, 2]).unwrap();
/// ```
#[macro_export]
macro_rules! valgrind_println {
    () => {
        $crate::valgrind::__print_checked(false, ::core::format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::valgrind::__print_checked(
            false,
            ::core::format_args!("{}\n", ::core::format_args!($($arg)*)),
        )
    };
}

/// Like [`valgrind_printf!`], followed by a backtrace of the calling thread.
///
/// ```rust
/// benchgrind_client_requests::valgrind_printf_backtrace!("here: {}\n", line!()).unwrap();
/// ```
#[macro_export]
macro_rules! valgrind_printf_backtrace {
    ($($arg:tt)*) => {
        $crate::valgrind::__print_checked(true, ::core::format_args!($($arg)*))
    };
}

/// Like [`valgrind_println!`], followed by a backtrace of the calling thread.
///
/// ```rust
/// benchgrind_client_requests::valgrind_println_backtrace!("here: {}", line!()).unwrap();
/// ```
#[macro_export]
macro_rules! valgrind_println_backtrace {
    ($($arg:tt)*) => {
        $crate::valgrind::__print_checked(
            true,
            ::core::format_args!("{}\n", ::core::format_args!($($arg)*)),
        )
    };
}

/// Like [`valgrind_printf!`] without an answer. Used inside `unsafe`, as in the
/// valgrind-requests API it mirrors, although nothing here can be unsound: a NUL byte in the
/// text is dropped.
///
/// ```rust
/// // SAFETY: nothing to uphold; the macro asks for `unsafe` for compatibility only.
/// unsafe { benchgrind_client_requests::valgrind_printf_unchecked!("step {}; ", 2) };
/// ```
#[macro_export]
macro_rules! valgrind_printf_unchecked {
    ($($arg:tt)*) => {
        $crate::valgrind::__print_unchecked(false, ::core::format_args!($($arg)*))
    };
}

/// Like [`valgrind_println!`] without an answer; see [`valgrind_printf_unchecked!`].
///
/// ```rust
/// // SAFETY: nothing to uphold; the macro asks for `unsafe` for compatibility only.
/// unsafe { benchgrind_client_requests::valgrind_println_unchecked!("done: {}", 3) };
/// ```
#[macro_export]
macro_rules! valgrind_println_unchecked {
    () => {
        $crate::valgrind::__print_unchecked(false, ::core::format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::valgrind::__print_unchecked(
            false,
            ::core::format_args!("{}\n", ::core::format_args!($($arg)*)),
        )
    };
}

/// Like [`valgrind_printf_backtrace!`] without an answer; see [`valgrind_printf_unchecked!`].
///
/// ```rust
/// // SAFETY: nothing to uphold; the macro asks for `unsafe` for compatibility only.
/// unsafe { benchgrind_client_requests::valgrind_printf_backtrace_unchecked!("at {}\n", 4) };
/// ```
#[macro_export]
macro_rules! valgrind_printf_backtrace_unchecked {
    ($($arg:tt)*) => {
        $crate::valgrind::__print_unchecked(true, ::core::format_args!($($arg)*))
    };
}

/// Like [`valgrind_println_backtrace!`] without an answer; see [`valgrind_printf_unchecked!`].
///
/// ```rust
/// // SAFETY: nothing to uphold; the macro asks for `unsafe` for compatibility only.
/// unsafe { benchgrind_client_requests::valgrind_println_backtrace_unchecked!("at {}", 5) };
/// ```
#[macro_export]
macro_rules! valgrind_println_backtrace_unchecked {
    ($($arg:tt)*) => {
        $crate::valgrind::__print_unchecked(
            true,
            ::core::format_args!("{}\n", ::core::format_args!($($arg)*)),
        )
    };
}
