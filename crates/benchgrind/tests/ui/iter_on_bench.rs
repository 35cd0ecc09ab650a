use benchgrind::library_benchmark;

#[library_benchmark]
#[bench::one(iter = 0..2u64)]
fn bench(n: u64) -> u64 {
    n
}

fn main() {}
