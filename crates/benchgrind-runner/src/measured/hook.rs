//! The hooks of binary benchmarks: setup and teardown run in a process of their own (the bench
//! binary started with [`HOOK_FLAG`], in the sandbox), so that they can work in the sandbox and
//! feed the command's stdin without the harness changing its own working directory.

use std::ffi::OsString;

use crate::protocol::HOOK_FLAG;
use crate::spec::Main;

/// Runs the hook a hook process was started for, if the arguments ask for one.
pub fn hook(main: &Main, args: &[OsString]) -> Option<Result<(), String>> {
    if args.first()?.to_str()? != HOOK_FLAG {
        return None;
    }
    let run = || -> Result<(), String> {
        let bad = || format!("{HOOK_FLAG} needs setup|teardown and three indices, got {args:?}");
        let kind = args.get(1).and_then(|a| a.to_str()).ok_or_else(bad)?;
        let mut it = args[2..].iter().map(|a| a.to_str()?.parse::<usize>().ok());
        let [g, f, b] = [it.next(), it.next(), it.next()].map(|i| i.flatten());
        let (Some(g), Some(f), Some(b)) = (g, f, b) else {
            return Err(bad());
        };
        let benchmark = main
            .binary_groups
            .get(g)
            .and_then(|group| group.benchmarks.get(f))
            .ok_or_else(|| format!("no binary benchmark at {g}/{f}"))?;
        let bench = benchmark
            .benches
            .get(b)
            .ok_or_else(|| format!("no bench at {g}/{f}/{b}"))?;
        let hook = match kind {
            "setup" => bench.setup.or(benchmark.setup),
            "teardown" => bench.teardown.or(benchmark.teardown),
            _ => return Err(bad()),
        };
        if let Some(hook) = hook {
            hook();
        }
        Ok(())
    };
    Some(run())
}
