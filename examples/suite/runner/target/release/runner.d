/work/main/examples/suite/runner/target/release/runner: /work/main/examples/suite/runner/main.rs
