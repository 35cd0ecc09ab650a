// The plain functions of `toggles_v01` and `toggles_v01_none`, included by both.

#[inline(never)]
fn plain() -> u64 {
    work()
}

#[inline(never)]
fn calls_helper() -> u64 {
    work() + helper_square_sum(black_box(50))
}
