//! When `ab` may reuse the base's counts: what it measured them with must be what it would
//! measure them with now. The key holds the revision and the arguments, the Rust toolchain and
//! the variables that reach the build and the bench binaries, and the machine as the bench
//! binaries' own records describe it (the runner's fingerprint, and the Valgrind launcher by
//! digest).

use std::ffi::OsString;
use std::path::Path;

use anyhow::Result;
use benchgrind_runner::cli::{self, Reuse};
use benchgrind_runner::execute::args::CACHE_GEOMETRY;
use benchgrind_runner::execute::reuse::digest;
use benchgrind_runner::execute::valgrind;
use benchgrind_runner::fingerprint::{self, Fingerprint};

/// What must be the same for the base's counts to be reused: its revision, the cargo and bench
/// arguments, the toolchain, the variables that reach the build and the bench binaries
/// ([`build_and_run_variables`]), the Valgrind and the machine.
pub(super) fn reuse_key(
    sha: &str,
    (cargo_args, bench_args): (&[OsString], &[OsString]),
    dir: &Path,
) -> Result<String> {
    // The bench binaries take their Valgrind from BENCHGRIND_VALGRIND, else PATH; its launcher
    // by digest, as their records hold it.
    let found = valgrind::locate();
    let (name, launcher) = match &found {
        Ok(v) => {
            let bytes = digest::of_file(&v.path).unwrap_or_default();
            (v.name(), format!("{} {bytes}", v.path.display()))
        }
        Err(e) => (String::new(), e.to_string()),
    };
    // The machine as the runner's fingerprint has it, with the CPU the machine shows (what
    // Valgrind shows the bench binaries follows from it and Valgrind's version).
    let machine = Fingerprint::local(&name, &CACHE_GEOMETRY.join(" "), fingerprint::cpu_seen());
    let join = |args: &[OsString]| {
        args.iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("\u{1f}")
    };
    Ok(format!(
        "revision {sha}\ncargo {}\nbench {}\nvalgrind {launcher}\nmachine {}\ntoolchain {}\n{}\n",
        join(cargo_args),
        join(bench_args),
        machine.key(),
        toolchain(dir),
        build_and_run_variables().join("\n")
    ))
}

/// Whether the bench arguments, as the bench binaries read them (with their variables), ask to
/// measure everything again (`--fresh`).
pub(super) fn fresh(bench_args: &[OsString]) -> Result<bool> {
    let env = |name: &str| std::env::var(name).ok();
    let parsed = cli::parse(bench_args, &env).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(parsed.reuse == Reuse::Fresh)
}

/// The variables that decide what the bench binaries are and what they do: the Rust
/// toolchain's (`RUSTUP_TOOLCHAIN`, `RUSTFLAGS`, ...), cargo's build and profile settings, and
/// the `BENCHGRIND_*` variables the bench binaries read (every flag has one), but for those
/// that only say where output goes or how it looks, and the CI script's own.
fn build_and_run_variables() -> Vec<String> {
    const NAMED: [&str; 8] = [
        "RUSTUP_TOOLCHAIN",
        "RUSTC",
        "RUSTC_WRAPPER",
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_INCREMENTAL",
        "VALGRIND_OPTS",
        "VALGRIND_LIB",
    ];
    const OUTPUT_ONLY: [&str; 3] = ["BENCHGRIND_COLOR", "BENCHGRIND_LOG", "BENCHGRIND_CI_"];
    let mut vars: Vec<String> = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v)))
        .filter(|(k, _)| {
            NAMED.contains(&k.as_str())
                || k.starts_with("CARGO_PROFILE_")
                || (k.starts_with("CARGO_BUILD_") && k != "CARGO_BUILD_TARGET_DIR")
                || (k.starts_with("BENCHGRIND_") && !OUTPUT_ONLY.iter().any(|o| k.starts_with(o)))
        })
        .map(|(k, v)| format!("{k}={}", v.to_string_lossy()))
        .collect();
    vars.sort();
    vars
}

/// The Rust toolchain that builds in `dir` (`rustc -vV`, through rustup's choice there), or
/// empty when it cannot be asked.
fn toolchain(dir: &Path) -> String {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    std::process::Command::new(rustc)
        .arg("-vV")
        .current_dir(dir)
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
        .unwrap_or_default()
}
