//! Records the target triple (for `--separate-targets` and the fingerprint) and the version of
//! the rustc that builds the bench binary (the fingerprint).

use std::process::Command;

fn main() {
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
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC");
}
