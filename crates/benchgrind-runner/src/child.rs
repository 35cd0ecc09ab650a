//! The measured process: the bench binary started by Valgrind with `--benchgrind-run G F B`
//! runs that one bench (setup, measured body, teardown) and exits.

use std::ffi::OsString;

use crate::spec::Main;

/// The flag that puts a bench binary in measured-process mode.
pub const FLAG: &str = "--benchgrind-run";

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
