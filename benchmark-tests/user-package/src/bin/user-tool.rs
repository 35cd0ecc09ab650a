//! The command-line program of the package, which the binary benchmark runs.

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    println!("{}", benchgrind_user_package::fibonacci(n));
}
