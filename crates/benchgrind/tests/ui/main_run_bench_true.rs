fn before() {}

benchgrind::main!(
    before = before, bench = true;
    run = cmd = "/bin/true", id = "t", args = [];
);
