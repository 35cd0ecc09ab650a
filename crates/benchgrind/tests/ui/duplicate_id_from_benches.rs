use benchgrind::library_benchmark;

#[library_benchmark]
#[bench::many_1(1)]
#[benches::many(2, 3)]
fn bench(value: u64) -> u64 {
    value
}

fn main() {}
