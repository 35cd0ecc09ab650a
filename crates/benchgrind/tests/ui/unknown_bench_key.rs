use benchgrind::library_benchmark;

#[library_benchmark]
#[bench::first(args = (1), setpu = String::new)]
fn bench(value: u64) -> u64 {
    value
}

fn main() {}
