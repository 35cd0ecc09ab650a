/work/main/examples/suite/runner/target/release/deps/runner-dd7225a57fcae62d.d: main.rs

/work/main/examples/suite/runner/target/release/deps/runner-dd7225a57fcae62d: main.rs

main.rs:

# env-dep:CARGO_PKG_VERSION=0.1.0
