//! Benchmarks whose arguments are passed every way the calling convention has (registers, the
//! stack, a hidden pointer, heap-owning `String` and `Vec`, a 4 KiB array) and their twins
//! without arguments: the measured window holds the function's own work only, so each pair
//! counts the same (issue 13).

use benchgrind::{library_benchmark, library_benchmark_group, main};

static NUMBERS: [f32; 16] = [
    0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5,
];

#[library_benchmark]
#[bench::two(NUMBERS, NUMBERS)]
fn arrays(a: [f32; 16], _b: [f32; 16]) -> f32 {
    a[3]
}

#[library_benchmark]
fn arrays_none() -> f32 {
    3.5
}

#[library_benchmark]
#[bench::two(3, 4)]
fn registers(a: u64, b: u64) -> u64 {
    a ^ b
}

#[library_benchmark]
fn registers_none() -> u64 {
    7
}

#[library_benchmark]
#[bench::eight(1, 2, 3, 4, 5, 6, 7, 8)]
#[allow(clippy::too_many_arguments)]
fn stack(_a: u64, _b: u64, _c: u64, _d: u64, _e: u64, _f: u64, _g: u64, h: u64) -> u64 {
    h
}

#[library_benchmark]
#[bench::string(String::from("a string argument"))]
fn string(s: String) -> usize {
    s.len()
}

#[library_benchmark]
#[bench::vec(vec![7u8; 1000])]
fn vec(v: Vec<u8>) -> usize {
    v.len()
}

/// `string` with the drop written out: an argument the body does not move is dropped at the
/// end of the body, inside the window, so the two count the same.
#[library_benchmark]
#[bench::string(String::from("a string argument"))]
fn string_dropped(s: String) -> usize {
    let n = s.len();
    drop(s);
    n
}

#[library_benchmark]
#[bench::vec(vec![7u8; 1000])]
fn vec_dropped(v: Vec<u8>) -> usize {
    let n = v.len();
    drop(v);
    n
}

#[library_benchmark]
#[bench::page([3u8; 4096])]
fn page(p: [u8; 4096]) -> u8 {
    p[100]
}

#[library_benchmark]
fn len_none() -> usize {
    17
}

#[library_benchmark]
#[bench::page(9)]
fn returns_page(x: u8) -> [u8; 4096] {
    [x; 4096]
}

/// Work on registers only, which the optimizer could move across the window's edges if nothing
/// kept it inside: 111 steps for 27.
#[library_benchmark]
#[bench::n27(27)]
fn collatz(mut n: u64) -> u32 {
    let mut steps = 0;
    while n != 1 {
        n = if n % 2 == 0 { n / 2 } else { 3 * n + 1 };
        steps += 1;
    }
    steps
}

/// Two 64-byte matrices in, one out (by hidden pointers both ways), as `glam::Mat4 * Mat4`.
#[library_benchmark]
#[bench::identity([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]], [[2.0; 4]; 4])]
fn mat4_mul(a: [[f32; 4]; 4], b: [[f32; 4]; 4]) -> [[f32; 4]; 4] {
    let mut out = [[0.0; 4]; 4];
    for (row, a_row) in out.iter_mut().zip(&a) {
        for (j, cell) in row.iter_mut().enumerate() {
            *cell = (0..4).map(|k| a_row[k] * b[k][j]).sum();
        }
    }
    out
}

library_benchmark_group!(
    name = args_group;
    benchmarks = arrays, arrays_none, registers, registers_none, stack, string, vec, string_dropped,
        vec_dropped, page,
        len_none, returns_page, collatz, mat4_mul
);

main!(library_benchmark_groups = args_group);
