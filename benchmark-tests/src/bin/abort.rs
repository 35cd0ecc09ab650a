//! `abort`: ends by SIGABRT, for benchmarks that expect a signal (`ExitWith::Signal(6)`).

fn main() {
    std::process::abort();
}
