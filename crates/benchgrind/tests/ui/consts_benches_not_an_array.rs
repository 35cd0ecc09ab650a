use benchgrind::library_benchmark;

#[library_benchmark]
#[benches::many(consts = 4)]
fn bench<const N: usize>() -> usize {
    N
}

fn main() {}
