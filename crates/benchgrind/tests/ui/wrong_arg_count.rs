use benchgrind::library_benchmark;

#[library_benchmark]
#[bench::first(1, 2)]
fn bench(value: u64) -> u64 {
    value
}

fn main() {}
