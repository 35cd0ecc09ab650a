use benchgrind::library_benchmark;

#[library_benchmark]
#[bench::same(1)]
#[bench::other(2)]
#[bench::same(3)]
fn bench(value: u64) -> u64 {
    value
}

fn main() {}
