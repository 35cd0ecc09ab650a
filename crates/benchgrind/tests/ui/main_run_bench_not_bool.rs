fn before() {}

benchgrind::main!(
    before = before, bench = 1;
    run = cmd = "/bin/true", id = "t", args = [];
);
