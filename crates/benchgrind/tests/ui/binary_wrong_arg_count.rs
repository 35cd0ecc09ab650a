use benchgrind::binary_benchmark;

#[binary_benchmark]
#[bench::first("a", "b")]
fn bench(path: &str) -> benchgrind::Command {
    benchgrind::Command::new("/bin/cat").arg(path).build()
}

fn main() {}
