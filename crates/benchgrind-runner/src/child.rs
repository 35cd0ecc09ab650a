//! The measured process: the bench binary started by Valgrind with `--benchgrind-run G F B`
//! (and `--benchgrind-seed=N` when its random bytes are to be deterministic) runs that one bench
//! (setup, measured body, teardown) and exits.

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

/// What the harness asks of the measured process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    /// Indices of group, function and bench.
    pub index: [usize; 3],
    /// The seed of the random stream, or `None` when random bytes stay random.
    pub seed: Option<u64>,
}

/// The bench to run, if the arguments ask for measured-process mode.
pub fn requested(args: &[OsString]) -> Option<Result<Request, String>> {
    if args.first()?.to_str()? != FLAG {
        return None;
    }
    let parse = || -> Option<Request> {
        let mut it = args[1..].iter().map(|a| a.to_str());
        let mut index = || it.next()??.parse::<usize>().ok();
        let index = [index()?, index()?, index()?];
        let seed = match args.get(4) {
            None => None,
            Some(arg) => Some(
                arg.to_str()?
                    .strip_prefix(SEED_FLAG)?
                    .strip_prefix('=')?
                    .parse()
                    .ok()?,
            ),
        };
        Some(Request { index, seed })
    };
    Some(parse().ok_or_else(|| {
        format!(
            "{FLAG} needs three indices and an optional {SEED_FLAG}=N, got {:?}",
            &args[1..]
        )
    }))
}

/// Runs one bench of `main`. Panics propagate: the process then exits non-zero and the harness
/// reports the panic message from the captured stderr.
pub fn run(main: &Main, request: Request) -> Result<(), String> {
    // Before the bench's setup: std keeps the first `HashMap` keys a thread draws.
    if let Some(seed) = request.seed {
        crate::random::enable(seed);
    }
    let [g, f, b] = request.index;
    let bench = main
        .groups
        .get(g)
        .and_then(|group| group.functions.get(f))
        .and_then(|function| function.benches.get(b))
        .ok_or_else(|| format!("no benchmark at {g}/{f}/{b}: the binary changed since the plan"))?;
    (bench.run)();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn indices_and_an_optional_seed() {
        assert_eq!(requested(&args(&["--bench"])), None);
        assert_eq!(
            requested(&args(&[FLAG, "1", "2", "3"])),
            Some(Ok(Request {
                index: [1, 2, 3],
                seed: None
            }))
        );
        assert_eq!(
            requested(&args(&[FLAG, "1", "2", "3", "--benchgrind-seed=42"])),
            Some(Ok(Request {
                index: [1, 2, 3],
                seed: Some(42)
            }))
        );
        for bad in [
            &[FLAG, "1", "2"][..],
            &[FLAG, "1", "2", "3", "--benchgrind-seed=x"],
        ] {
            assert!(matches!(requested(&args(bad)), Some(Err(_))), "{bad:?}");
        }
    }
}
