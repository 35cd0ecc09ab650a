//! libtest's flags, which cargo, nextest or habit pass, and which iai-callgrind and gungraun
//! accept: accepted here too, and ignored but for what `--list` needs (`--format terse` and
//! `--ignored`, for nextest). benchgrind runs every selected benchmark in its own order, has no
//! `should_panic` benchmarks and no time limits of libtest's kind.

/// libtest's switches.
pub(crate) const LIBTEST_SWITCHES: &[&str] = &[
    "--bench",
    "--test",
    "--quiet",
    "-q",
    "--show-output",
    "--ignored",
    "--include-ignored",
    "--force-run-in-process",
    "--report-time",
    "--fail-fast",
    "--shuffle",
    "--exclude-should-panic",
    "--ensure-time",
];

/// libtest's flags that take a value (`--flag VALUE` or `--flag=VALUE`).
pub(crate) const LIBTEST_VALUES: &[&str] = &[
    "--test-threads",
    "--format",
    "--color",
    "-Z",
    "--logfile",
    "--shuffle-seed",
];
