//! A library-benchmark program for the end-to-end tests of deterministic random bytes: the
//! benchmarks of `random_benches.rs`, each once with the default (a fixed stream) and once with
//! `deterministic_random(false)`.

#[path = "../random_benches.rs"]
mod random_benches;

use benchgrind::{library_benchmark_group, main};

library_benchmark_group!(
    name = random_group;
    benchmarks = random_benches::hashmap_fill, random_benches::regex_find_iter
);

main!(library_benchmark_groups = random_group);
