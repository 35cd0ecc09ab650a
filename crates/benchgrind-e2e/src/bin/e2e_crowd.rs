//! More threads alive at once than Valgrind's thread slots that benchgrind asks for by default
//! (`--max-threads=64`), for the end-to-end test in `tests/threads.rs`: the benchmark is run
//! again with Valgrind's own number of slots and counts like any other.

use std::hint::black_box;
use std::sync::{Arc, Barrier};

use benchgrind::{library_benchmark, library_benchmark_group, main};

/// How many threads the benchmark keeps alive at once, beside its own.
const CROWD: usize = 100;

#[library_benchmark]
fn crowd() -> usize {
    let all_started = Arc::new(Barrier::new(CROWD + 1));
    let threads: Vec<_> = (0..CROWD)
        .map(|i| {
            let all_started = Arc::clone(&all_started);
            std::thread::spawn(move || {
                all_started.wait();
                black_box(i)
            })
        })
        .collect();
    all_started.wait();
    threads.into_iter().map(|t| t.join().unwrap()).sum()
}

library_benchmark_group!(name = crowd_group; benchmarks = crowd);

main!(library_benchmark_groups = crowd_group);
