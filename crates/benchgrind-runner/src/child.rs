//! Child processes of the harness: the flags that start them (the measured process itself is in
//! [`crate::measured`]), and the hooks of binary benchmarks, which run setup and teardown in a
//! process of their own (in the sandbox).

use std::ffi::OsString;

use crate::spec::Main;

/// The flag that puts a bench binary in measured-process mode.
pub const FLAG: &str = "--benchgrind-run";

/// The flag, after the indices, that carries the seed of the fixed random stream. Passed on the
/// command line, not in the environment, which the measured process usually runs without.
pub const SEED_FLAG: &str = "--benchgrind-seed";

/// The flag that makes a bench binary run a binary benchmark's setup or teardown:
/// `--benchgrind-hook setup|teardown G F B`.
pub const HOOK_FLAG: &str = "--benchgrind-hook";

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
