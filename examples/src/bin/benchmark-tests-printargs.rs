//! `benchmark-tests-printargs [ARGS...]`: prints its arguments, one per line; with
//! `--foo=FILE` it also prints the file's size. The program of seed 002's binary-benchmark
//! example (`examples/benches/seed002_printargs.rs`).

fn main() {
    for arg in std::env::args().skip(1) {
        match arg.strip_prefix("--foo=") {
            Some(path) => match std::fs::metadata(path) {
                Ok(meta) => println!("{arg}: {} bytes", meta.len()),
                Err(e) => {
                    eprintln!("benchmark-tests-printargs: cannot read {path}: {e}");
                    std::process::exit(1);
                }
            },
            None => println!("{arg}"),
        }
    }
}
