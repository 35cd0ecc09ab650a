//! What a call costs in the window. A draw of random bytes: 32 bytes from the bench binary's
//! deterministic `getrandom` (the stream benchgrind serves), and the same from glibc's own
//! `getrandom` (the system call's wrapper, found past the executable's definition), for
//! `tests/random.rs` to compare. A first call of the C library's functions that nothing called
//! before (a thread's start: glibc asks the dynamic loader for its storage), as benchgrind
//! runs it and with the dynamic loader's lazy binding the benchmark asks for, for
//! `tests/library.rs`. A short string's allocation with nothing freed before the window and
//! after a setup that freed a block of its size, for `tests/library.rs`.

use std::hint::black_box;

use benchgrind::{library_benchmark, library_benchmark_group, main, LibraryBenchmarkConfig};

extern "C" {
    /// The executable's definition: benchgrind's stand-in.
    fn getrandom(buf: *mut u8, len: usize, flags: u32) -> isize;
}

/// A `getrandom` with glibc's prototype.
type Draw = unsafe extern "C" fn(*mut u8, usize, u32) -> isize;

/// glibc's `getrandom`, past the executable's definition.
fn glibcs() -> Draw {
    // SAFETY: a NUL-terminated name; the symbol found has glibc's prototype.
    unsafe {
        let found = libc::dlsym(libc::RTLD_NEXT, c"getrandom".as_ptr());
        assert!(!found.is_null(), "glibc has getrandom");
        std::mem::transmute::<*mut libc::c_void, Draw>(found)
    }
}

#[library_benchmark]
fn stand_in() -> [u8; 32] {
    let mut bytes = [0u8; 32];
    // SAFETY: the buffer holds 32 bytes.
    let n = unsafe { getrandom(black_box(bytes.as_mut_ptr()), black_box(32), 0) };
    assert_eq!(n, 32);
    bytes
}

#[library_benchmark]
#[bench::call(setup = glibcs)]
fn glibc(draw: Draw) -> [u8; 32] {
    let mut bytes = [0u8; 32];
    // SAFETY: the buffer holds 32 bytes; `draw` is glibc's getrandom.
    let n = unsafe { draw(black_box(bytes.as_mut_ptr()), black_box(32), 0) };
    assert_eq!(n, 32);
    bytes
}

/// Starts and joins a thread: the first thread of the process, so glibc's first calls of the
/// dynamic loader's thread storage functions. Fails if the benchmark sees `LD_BIND_NOW`
/// without having asked for it.
#[library_benchmark]
fn first_thread() -> u32 {
    if let Some(value) = std::env::var_os("LD_BIND_NOW") {
        assert!(
            value.is_empty(),
            "the harness's LD_BIND_NOW={value:?} reached the benchmark"
        );
    }
    std::thread::spawn(|| black_box(7u32)).join().unwrap()
}

/// Allocates and frees a block of the size a short string takes, and passes nothing on.
fn free_a_block() {
    drop(black_box(String::from("a block to free")));
}

/// A short string, after the setup given (none, or one that freed a block of its size).
#[library_benchmark]
#[bench::nothing_freed(())]
#[bench::one_freed(args = (), setup = free_a_block)]
fn short_string(_setup: ()) -> String {
    String::from(black_box("hello, world"))
}

library_benchmark_group!(name = draw; benchmarks = stand_in, glibc);

library_benchmark_group!(name = heap; benchmarks = short_string);

library_benchmark_group!(name = first_call; benchmarks = first_thread);

// The same benchmark with the dynamic loader's lazy binding, as a benchmark asks for it by
// setting `LD_BIND_NOW` empty.
library_benchmark_group!(
    name = first_call_lazy;
    config = LibraryBenchmarkConfig::default().env("LD_BIND_NOW", "");
    benchmarks = first_thread
);

main!(
    library_benchmark_groups = draw,
    heap,
    first_call,
    first_call_lazy
);
