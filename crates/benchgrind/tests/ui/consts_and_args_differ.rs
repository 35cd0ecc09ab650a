use benchgrind::library_benchmark;

#[library_benchmark]
#[benches::many(args = [1, 2], consts = [4, 8, 16])]
fn bench<const N: usize>(x: usize) -> usize {
    N * x
}

fn main() {}
