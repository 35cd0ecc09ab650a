//! Text shared by the steps that run a Google Benchmark binary: the exact filter of one
//! benchmark and the tail of a program's stderr under an error.

/// The last lines of a program's stderr, indented under an error, or nothing.
pub fn indent_tail(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return String::new();
    }
    let tail = &lines[lines.len().saturating_sub(8)..];
    let mut text = String::from("; it printed:");
    for line in tail {
        text.push_str("\n    ");
        text.push_str(line);
    }
    text
}

/// A `--benchmark_filter` that selects exactly the benchmark `name`: anchored, with the special
/// characters of POSIX extended regexes escaped (Google Benchmark compiles filters with
/// `std::regex::extended`, or `regcomp(REG_EXTENDED)`). Only those: `]` and `}` are ordinary
/// outside a bracket and libstdc++ refuses `\]` as an invalid escape; GNU reads `\<` and `\>` as
/// word boundaries, while `<`, `>`, `/` and `:` of template and argument names are plain.
pub fn exact_filter(name: &str) -> String {
    let mut re = String::with_capacity(name.len() + 8);
    re.push('^');
    for c in name.chars() {
        if matches!(
            c,
            '.' | '[' | '(' | ')' | '*' | '+' | '?' | '{' | '|' | '^' | '$' | '\\'
        ) {
            re.push('\\');
        }
        re.push(c);
    }
    re.push('$');
    re
}
