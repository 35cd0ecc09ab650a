//! A bench program for `--explain`, whose code changes come from variables read in setup, so a
//! test can change them without rebuilding: `E2E_EXTRA` adds work to `leaf_helper`, two calls
//! below the benchmark (`two_deep` -> `middle` -> `leaf_helper`); `E2E_INLINE=1` makes
//! `checksum_caller` run an inlined copy of `checksum_helper`'s body instead of calling it, as if
//! the compiler had inlined it away. Differential flamegraphs are drawn, for the Markdown
//! report's links.

use benchgrind::{
    library_benchmark, library_benchmark_group, main, FlamegraphConfig, FlamegraphKind,
    LibraryBenchmarkConfig,
};
use std::hint::black_box;

fn from_env(n: u64) -> (u64, u64, bool) {
    let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    (
        n,
        var("E2E_EXTRA").unwrap_or(100),
        var("E2E_INLINE") == Some(1),
    )
}

#[inline(never)]
fn leaf_helper(n: u64) -> u64 {
    let mut x = 0u64;
    for i in 0..n {
        x = black_box(x.wrapping_mul(31) ^ i);
    }
    x
}

#[inline(never)]
fn middle(n: u64, extra: u64) -> u64 {
    black_box(n).wrapping_add(leaf_helper(n + extra))
}

#[library_benchmark(setup = from_env)]
#[bench::helper(200)]
fn two_deep(input: (u64, u64, bool)) -> u64 {
    middle(input.0, input.1)
}

#[inline(never)]
fn checksum_helper(n: u64) -> u64 {
    let mut x = 7u64;
    for i in 0..n {
        x = black_box(x.rotate_left(5) ^ i);
    }
    x
}

#[inline(never)]
fn checksum_caller(n: u64, inline: bool) -> u64 {
    if black_box(inline) {
        let mut x = 7u64;
        for i in 0..n {
            x = black_box(x.rotate_left(5) ^ i);
        }
        x
    } else {
        checksum_helper(n)
    }
}

#[library_benchmark(setup = from_env)]
#[bench::checksum(300)]
fn inlining(input: (u64, u64, bool)) -> u64 {
    checksum_caller(input.0, input.2)
}

library_benchmark_group!(
    name = explain;
    config = LibraryBenchmarkConfig::default()
        .flamegraph(FlamegraphConfig::default().kind(FlamegraphKind::All));
    benchmarks = two_deep, inlining
);

main!(
    config = LibraryBenchmarkConfig::default().pass_through_envs(["E2E_EXTRA", "E2E_INLINE"]);
    library_benchmark_groups = explain
);
