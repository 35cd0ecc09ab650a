//! iai-callgrind's first binary-benchmark form, all in `main!` (`options`, hooks, `sandbox`,
//! `fixtures`, `run = cmd = ...`), as 0.3 to 0.12 accepted it, with a hook measured (`bench =
//! true`).

fn before_all() {
    println!("main run before ran");
}

fn write_file() {
    std::fs::write("setup.txt", "from setup").unwrap();
}

#[inline(never)]
fn check_setup_file() {
    assert_eq!(std::fs::read_to_string("setup.txt").unwrap(), "from setup");
}

benchgrind::main!(
    setup = write_file;
    teardown = check_setup_file, bench = true;
    options = "--branch-sim=yes";
    before = before_all, bench = false;
    sandbox = true;
    fixtures = "benches/fixtures", follow_symlinks = true;
    run = cmd = "echo", envs = ["KEY=VALUE"], id = "hello", args = ["hello", "world"], id = "empty", args = [];
    run = cmd = env!("CARGO_BIN_EXE_read-file"),
        id = "setup_file", args = ["setup.txt", "from setup"],
        id = "fixture", args = ["fixtures/orchard.inputs", "plum.txt;purple\nfig.txt;green and soft\nquince.txt;yellow, hard, fragrant\n"];
    // The first versions of this form had no ids.
    run = cmd = "echo", args = ["no", "id"], args = [];
);
