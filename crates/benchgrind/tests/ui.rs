//! Misused macros are compile errors pointing at the user's token; the messages are pinned in
//! `tests/ui/*.stderr` (regenerate with `TRYBUILD=overwrite cargo test -p benchgrind --test ui`
//! and review the diff).

#[test]
fn macro_misuse_is_a_compile_error_at_the_token() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
