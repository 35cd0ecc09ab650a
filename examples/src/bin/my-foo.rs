//! `my-foo [FILE]`: the small program the seed README's binary-benchmark examples run.
//!
//! With FILE it counts the file's lines, words and bytes (a missing file counts as empty),
//! prints them and writes them to `bar.json` in the working directory. Without FILE it counts
//! standard input and exits with code 2 when there is nothing to read.

use std::io::Read;
use std::process::ExitCode;

fn counts(text: &str) -> (usize, usize, usize) {
    (
        text.lines().count(),
        text.split_whitespace().count(),
        text.len(),
    )
}

fn main() -> ExitCode {
    match std::env::args().nth(1) {
        Some(path) => {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let (lines, words, bytes) = counts(&text);
            println!("{path}: {lines} lines, {words} words, {bytes} bytes");
            let json = format!("{{\"lines\":{lines},\"words\":{words},\"bytes\":{bytes}}}\n");
            if let Err(e) = std::fs::write("bar.json", json) {
                eprintln!("my-foo: cannot write bar.json: {e}");
                return ExitCode::from(1);
            }
            ExitCode::SUCCESS
        }
        None => {
            let mut text = String::new();
            if let Err(e) = std::io::stdin().read_to_string(&mut text) {
                eprintln!("my-foo: cannot read stdin: {e}");
                return ExitCode::from(1);
            }
            if text.is_empty() {
                eprintln!("my-foo: nothing to read");
                return ExitCode::from(2);
            }
            let (lines, words, bytes) = counts(&text);
            println!(
                "stdin: {lines} lines, {words} words, {bytes} bytes: {}",
                text.trim()
            );
            ExitCode::SUCCESS
        }
    }
}
