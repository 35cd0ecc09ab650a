//! The library a user benchmarks: it names its phases in Valgrind's log with client requests,
//! which do nothing outside Valgrind.

/// The `n`-th Fibonacci number; under Valgrind, says in its log when it starts a long one.
pub fn fibonacci(n: u64) -> u64 {
    if n > 25 && benchgrind::client_requests::valgrind::running_on_valgrind() > 0 {
        let _ = benchgrind::client_requests::valgrind_println!("fibonacci({n})");
    }
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..n {
        (a, b) = (b, a.wrapping_add(b));
    }
    a
}
