//! Reads summaries, one per line on stdin, each with `gungraun_summary::v7::parse_slice`, and
//! prints each as gungraun's reader understood it (serialized again), one per line. A line it
//! cannot read ends the program with the reader's error and the line's number.

use std::io::{BufRead, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for (number, line) in stdin.lock().lines().enumerate() {
        let line = line.expect("stdin is text");
        if line.trim().is_empty() {
            continue;
        }
        match gungraun_summary::v7::parse_slice(line.as_bytes()) {
            Ok(summary) => {
                let text = serde_json::to_string(&summary).expect("a summary serializes");
                writeln!(out, "{text}").expect("stdout is writable");
            }
            Err(error) => {
                eprintln!("line {}: gungraun cannot read it: {error}", number + 1);
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
