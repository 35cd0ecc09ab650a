//! iai-callgrind's first binary-benchmark form, all in `main!` (`options`, hooks, `sandbox`,
//! `fixtures`, `run = cmd = ...`), as 0.3 to 0.12 accepted it.

fn before_all() {
    println!("main run before ran");
}

fn write_file() {
    std::fs::write("setup.txt", "from setup").unwrap();
}

benchgrind::main!(
    setup = write_file;
    options = "--branch-sim=yes";
    before = before_all, bench = false;
    sandbox = true;
    fixtures = "benches/fixtures", follow_symlinks = true;
    run = cmd = "echo", envs = ["KEY=VALUE"], id = "hello", args = ["hello", "world"], id = "empty", args = [];
    run = cmd = env!("CARGO_BIN_EXE_read-file"),
        id = "setup_file", args = ["setup.txt", "from setup"],
        id = "fixture", args = ["fixtures/file_content.inputs", "a.txt;a\naa.txt;aa\naaa.txt;aaa\n"];
);
