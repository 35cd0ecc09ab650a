// The bodies of the `toggles_*` benchmarks, included by each (one file, so that every form
// compiles the same code): the work every benchmark counts, and the helper a toggle names.

fn work() -> u64 {
    (0..black_box(100u64)).map(|x| x * x).sum()
}

#[inline(never)]
fn helper_square_sum(n: u64) -> u64 {
    (0..black_box(n)).map(|x| x * x + 1).sum()
}
