//! Threads and processes a benchmark starts, for the end-to-end tests (`tests/threads.rs`): the
//! same work (two `fib(24)`) done inline, on two spawned threads, on scoped threads, on a rayon
//! pool built in setup, on rayon's global pool, on a tokio multi-thread runtime built in setup,
//! and in a child process; counted whole, the same on every run.

use std::hint::black_box;
use std::process::Command;

use benchgrind::{library_benchmark, library_benchmark_group, main, LibraryBenchmarkConfig};

fn fib(n: u64) -> u64 {
    if n < 2 {
        1
    } else {
        fib(n - 1) + fib(n - 2)
    }
}

#[library_benchmark]
fn inline() -> u64 {
    fib(black_box(24)) + fib(black_box(24))
}

#[library_benchmark]
fn spawned() -> u64 {
    let a = std::thread::spawn(|| fib(black_box(24)));
    let b = std::thread::spawn(|| fib(black_box(24)));
    a.join().unwrap() + b.join().unwrap()
}

#[library_benchmark]
fn scoped() -> u64 {
    std::thread::scope(|s| {
        let a = s.spawn(|| fib(black_box(24)));
        let b = s.spawn(|| fib(black_box(24)));
        a.join().unwrap() + b.join().unwrap()
    })
}

fn pool() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
}

#[library_benchmark(setup = pool)]
#[bench::two()]
fn rayon_pool(pool: rayon::ThreadPool) -> u64 {
    pool.install(|| {
        let (a, b) = rayon::join(|| fib(black_box(24)), || fib(black_box(24)));
        a + b
    })
}

/// The global pool is built on first use, inside the window: its threads' start-up counts.
#[library_benchmark(config = LibraryBenchmarkConfig::default().env("RAYON_NUM_THREADS", "2"))]
fn rayon_global() -> u64 {
    let (a, b) = rayon::join(|| fib(black_box(24)), || fib(black_box(24)));
    a + b
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap()
}

#[library_benchmark(setup = runtime)]
#[bench::two()]
fn tokio_tasks(runtime: tokio::runtime::Runtime) -> u64 {
    runtime.block_on(async {
        let a = tokio::spawn(async { fib(black_box(24)) });
        let b = tokio::spawn(async { fib(black_box(24)) });
        a.await.unwrap() + b.await.unwrap()
    })
}

/// `seq 1 20000` in a child process, its output discarded.
#[library_benchmark]
fn child_process() -> bool {
    Command::new("seq")
        .args(["1", "20000"])
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap()
        .success()
}

library_benchmark_group!(
    name = threads;
    config = LibraryBenchmarkConfig::default().pass_through_env("PATH");
    benchmarks = inline, spawned, scoped, rayon_pool, rayon_global, tokio_tasks, child_process
);

main!(library_benchmark_groups = threads);
