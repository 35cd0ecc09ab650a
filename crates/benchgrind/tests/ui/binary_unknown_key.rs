use benchgrind::binary_benchmark;

#[binary_benchmark]
#[bench::first(args = ("a"), sandbox = true)]
fn bench(path: &str) -> benchgrind::Command {
    benchgrind::Command::new("/bin/cat").arg(path).build()
}

fn main() {}
