//! Records the target triple (for `--separate-targets` and the fingerprint) and the version of
//! the rustc that builds the bench binary (the fingerprint), and builds the preload library
//! (`preload/preload.rs`, see `execute::preload`) with the same rustc for the same target.

use std::path::PathBuf;
use std::process::Command;

/// Builds `preload/preload.rs` into `$OUT_DIR/libbenchgrind_preload.so` and sets the cfg
/// `benchgrind_preload` when it could (a cdylib of glibc targets; a musl target or a failed
/// build leaves it off, and programs measured without linking benchgrind keep their randomness).
fn preload(rustc: &str, target: &str) {
    println!("cargo::rustc-check-cfg=cfg(benchgrind_preload)");
    println!("cargo:rerun-if-changed=preload/preload.rs");
    if !target.contains("linux-gnu") {
        return;
    }
    // A cross build without a linker for its target (`cargo check --target`, say) could not
    // link the bench binary either: nothing to warn about.
    let host = std::env::var("HOST").unwrap_or_default();
    if host != target && std::env::var_os("RUSTC_LINKER").is_none() {
        return;
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut cmd = Command::new(rustc);
    cmd.args(["--edition", "2021", "--crate-type", "cdylib"])
        .args(["--crate-name", "benchgrind_preload", "--target", target])
        .args([
            "-C",
            "panic=abort",
            "-C",
            "opt-level=2",
            "-C",
            "debuginfo=0",
        ])
        .arg("-o")
        .arg(out.join("libbenchgrind_preload.so"))
        .arg("preload/preload.rs");
    if let Ok(linker) = std::env::var("RUSTC_LINKER") {
        cmd.arg("-C").arg(format!("linker={linker}"));
    }
    match cmd.output() {
        Ok(o) if o.status.success() => println!("cargo:rustc-cfg=benchgrind_preload"),
        Ok(o) => println!(
            "cargo:warning=the preload library did not build, so programs measured without \
             linking benchgrind keep their random seeds: {}",
            String::from_utf8_lossy(&o.stderr)
                .lines()
                .next()
                .unwrap_or("")
        ),
        Err(e) => println!("cargo:warning=cannot run {rustc} to build the preload library: {e}"),
    }
}

fn main() {
    // perf's counters (`crate::perf`): the bindings of perf_event_open exist for these Linux
    // targets (the dependency in Cargo.toml names the same).
    println!("cargo::rustc-check-cfg=cfg(perf_counters)");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    if os == "linux" && ["x86_64", "aarch64", "riscv64"].contains(&arch.as_str()) {
        println!("cargo:rustc-cfg=perf_counters");
    }
    let target = std::env::var("TARGET").unwrap_or_else(|_| "unknown".into());
    println!("cargo:rustc-env=BENCHGRIND_TARGET_TRIPLE={target}");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    // `rustc 1.95.0 (59807616e 2026-04-14)`: the version and the commit.
    let version = version
        .strip_prefix("rustc ")
        .unwrap_or(&version)
        .to_owned();
    println!("cargo:rustc-env=BENCHGRIND_RUSTC_VERSION={version}");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    preload(&rustc, &target);
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC");
}
