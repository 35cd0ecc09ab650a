use benchgrind::library_benchmark;

#[library_benchmark]
#[benches::many((1, 2), (3, 4, 5))]
fn bench(a: u64, b: u64) -> u64 {
    a + b
}

fn main() {}
