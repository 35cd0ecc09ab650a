//! Records the target triple for `--separate-targets`.

fn main() {
    let target = std::env::var("TARGET").unwrap_or_else(|_| "unknown".into());
    println!("cargo:rustc-env=BENCHGRIND_TARGET_TRIPLE={target}");
    println!("cargo:rerun-if-changed=build.rs");
}
