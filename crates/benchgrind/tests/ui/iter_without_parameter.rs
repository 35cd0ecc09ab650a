use benchgrind::library_benchmark;

#[library_benchmark]
#[benches::many(iter = 0..2u64)]
fn bench() -> u64 {
    1
}

fn main() {}
