//! The measured process: the bench binary started by Valgrind with `--benchgrind-run G F B`
//! runs that one bench (setup, measured body, teardown) and exits.

use std::ffi::OsString;

use crate::spec::Main;

/// The flag that puts a bench binary in measured-process mode.
pub const FLAG: &str = "--benchgrind-run";

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

/// The bench to run, if the arguments ask for measured-process mode.
pub fn requested(args: &[OsString]) -> Option<Result<[usize; 3], String>> {
    if args.first()?.to_str()? != FLAG {
        return None;
    }
    let parse = || -> Option<[usize; 3]> {
        let mut it = args[1..].iter().map(|a| a.to_str()?.parse::<usize>().ok());
        Some([it.next()??, it.next()??, it.next()??])
    };
    Some(parse().ok_or_else(|| format!("{FLAG} needs three indices, got {:?}", &args[1..])))
}

/// Runs one bench of `main`. Panics propagate: the process then exits non-zero and the harness
/// reports the panic message from the captured stderr.
pub fn run(main: &Main, [g, f, b]: [usize; 3]) -> Result<(), String> {
    let bench = main
        .groups
        .get(g)
        .and_then(|group| group.functions.get(f))
        .and_then(|function| function.benches.get(b))
        .ok_or_else(|| format!("no benchmark at {g}/{f}/{b}: the binary changed since the plan"))?;
    (bench.run)();
    Ok(())
}
