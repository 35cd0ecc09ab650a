//! The hooks of binary benchmarks: setup and teardown run in a process of their own (the bench
//! binary started with [`HOOK_FLAG`], in the sandbox), so that they can work in the sandbox and
//! feed the command's stdin without the harness changing its own working directory.
//!
//! A hook of an iai-callgrind 0.10 group given `bench = true` is measured the same way: the
//! hook process, started under Valgrind with [`MEASURED_HOOK`], calls the hook inside the
//! measured window, as a library benchmark's body.

use crate::error::Problem;
use crate::problem;
use std::ffi::OsString;

use crate::protocol::{HOOK_FLAG, MEASURED_HOOK};
use crate::spec::{HookKind, Main};

/// Runs the hook a hook process was started for, if the arguments ask for one.
pub fn hook(main: &Main, args: &[OsString]) -> Option<Result<(), Problem>> {
    if args.first()?.to_str()? != HOOK_FLAG {
        return None;
    }
    Some(run(main, &args[1..]))
}

/// `[measured] KIND G F B`: finds the hook and runs it, measured or not.
fn run(main: &Main, args: &[OsString]) -> Result<(), Problem> {
    let bad = || {
        problem!("{HOOK_FLAG} needs [{MEASURED_HOOK}] setup|teardown|before|after and three indices, got {args:?}")
    };
    let words: Vec<&str> = args
        .iter()
        .map(|a| a.to_str())
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    let (measured, words) = match words.split_first() {
        Some((&MEASURED_HOOK, rest)) => (true, rest),
        _ => (false, words.as_slice()),
    };
    let [kind, g, f, b] = words else {
        return Err(bad());
    };
    let kind = HookKind::from_name(kind).ok_or_else(bad)?;
    let index: Vec<usize> = [g, f, b]
        .iter()
        .map(|i| i.parse().ok())
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    let Some(hook) = find(main, kind, [index[0], index[1], index[2]])? else {
        return Ok(());
    };
    if measured {
        super::prepare_window();
        super::window::measure(hook);
    } else {
        hook();
    }
    Ok(())
}

/// The hook of `kind` at `[g, f, b]` in [`Main::binary_groups`] (a group's own for `before` and
/// `after`), if there is one.
fn find(main: &Main, kind: HookKind, [g, f, b]: [usize; 3]) -> Result<Option<fn()>, Problem> {
    let group = main
        .binary_groups
        .get(g)
        .ok_or_else(|| problem!("no binary benchmark group {g}"))?;
    let (benchmark, bench) = match kind {
        HookKind::Before => return Ok(group.setup),
        HookKind::After => return Ok(group.teardown),
        HookKind::Setup | HookKind::Teardown => {
            let benchmark = group
                .benchmarks
                .get(f)
                .ok_or_else(|| problem!("no binary benchmark at {g}/{f}"))?;
            let bench = benchmark
                .benches
                .get(b)
                .ok_or_else(|| problem!("no bench at {g}/{f}/{b}"))?;
            (benchmark, bench)
        }
    };
    Ok(match kind {
        HookKind::Setup => bench.setup.or(benchmark.setup),
        _ => bench.teardown.or(benchmark.teardown),
    })
}
