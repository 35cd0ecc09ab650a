//! The package's program, which the binary benchmark runs: it does the library's workloads
//! once and prints what it found. With `--hash` it also runs the regular expression and fills
//! a `HashMap`: both hash with keys the operating system seeds (regex caches its lazy DFA's
//! states in a `HashMap`), which in a static program no preload library can make the same on
//! every run.

use benchgrind_portable::*;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let size: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(200);
    let log = log_text(size);
    println!(
        "errors={} ids={} sum={}",
        count_matches(&log, "ERROR"),
        sum_ids(&json_text(size)),
        threaded_sum(size as u64 * 100, 2),
    );
    if args.iter().any(|a| a == "--hash") {
        let re = regex::Regex::new(ADDRESS).expect("a valid pattern");
        println!(
            "addresses={} order={}",
            sum_addresses(&re, &log),
            hash_order(size)
        );
    }
}
