use benchgrind::library_benchmark;

#[library_benchmark]
fn bench(value: u64) -> u64 {
    value
}

fn main() {}
