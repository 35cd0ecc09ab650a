use benchgrind::library_benchmark;

fn make(a: u64) -> (u64, u64) {
    (a, a)
}

#[library_benchmark]
#[bench::first(args = (1), setup = make)]
fn bench(a: u64, b: u64) -> u64 {
    a + b
}

fn main() {}
