use benchgrind::binary_benchmark;

fn prepare(_word: &str) {}

#[binary_benchmark]
#[benches::words(iter = ["a", "b"], setup = prepare)]
fn bench(word: &str) -> benchgrind::Command {
    benchgrind::Command::new("/bin/echo").arg(word).build()
}

fn main() {}
