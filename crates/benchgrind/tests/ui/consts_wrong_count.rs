use benchgrind::library_benchmark;

#[library_benchmark]
#[bench::two(consts = (4, 8))]
fn bench<const N: usize>() -> usize {
    N
}

fn main() {}
