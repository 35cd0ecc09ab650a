//! `pipe`: copies standard input to standard output.

use std::io::{Read, Write};

fn main() {
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("pipe: cannot read stdin: {e}");
        std::process::exit(1);
    }
    if let Err(e) = std::io::stdout().write_all(&input) {
        eprintln!("pipe: cannot write stdout: {e}");
        std::process::exit(1);
    }
}
