use benchgrind::binary_benchmark;

#[binary_benchmark]
#[bench::four(consts = (4))]
fn bench() -> benchgrind::Command {
    benchgrind::Command::new("/bin/true").build()
}

fn main() {}
