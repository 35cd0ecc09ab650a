//! `my-exe`: the program of seed 002's short examples (`examples/benches/seed002_*.rs`).
//!
//! Prints `KEY` when that variable is set, and exits with the code in `MY_EXE_EXIT` (0 when it
//! is not set), so that an example can expect another exit code.

fn main() {
    if let Ok(value) = std::env::var("KEY") {
        println!("KEY={value}");
    }
    let code = std::env::var("MY_EXE_EXIT")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    std::process::exit(code);
}
