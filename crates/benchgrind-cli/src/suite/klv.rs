//! The KLV ("key:length:value\n") input of runner programs, byte for byte as rebar writes it,
//! and the `suite klv` command that prints it for one benchmark.
//!
//! Order of items: name, model, case-insensitive, unicode, max-iters, max-warmup-iters,
//! max-time, max-warmup-time (times in nanoseconds), one `pattern` per pattern, haystack.

use std::{io::Write, path::PathBuf, time::Duration};

use anyhow::Context;

use super::{
    args::{self, HumanDuration},
    format::definitions::{self, Definition},
};

/// How long and how often a runner should repeat the benchmark.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Maximum number of measured iterations.
    pub max_iters: u64,
    /// Maximum number of warm-up iterations.
    pub max_warmup_iters: u64,
    /// Approximate time budget for measured iterations.
    pub max_time: Duration,
    /// Approximate time budget for warm-up.
    pub max_warmup_time: Duration,
}

fn item(out: &mut Vec<u8>, key: &str, value: &[u8]) {
    out.extend_from_slice(key.as_bytes());
    out.push(b':');
    out.extend_from_slice(value.len().to_string().as_bytes());
    out.push(b':');
    out.extend_from_slice(value);
    out.push(b'\n');
}

/// Encodes one benchmark execution as KLV.
pub fn encode(def: &Definition, limits: &Limits) -> Vec<u8> {
    let mut out = Vec::with_capacity(def.haystack.len() + 256);
    item(&mut out, "name", def.name.as_bytes());
    item(&mut out, "model", def.model.as_bytes());
    item(
        &mut out,
        "case-insensitive",
        def.case_insensitive.to_string().as_bytes(),
    );
    item(&mut out, "unicode", def.unicode.to_string().as_bytes());
    item(
        &mut out,
        "max-iters",
        limits.max_iters.to_string().as_bytes(),
    );
    item(
        &mut out,
        "max-warmup-iters",
        limits.max_warmup_iters.to_string().as_bytes(),
    );
    item(
        &mut out,
        "max-time",
        limits.max_time.as_nanos().to_string().as_bytes(),
    );
    item(
        &mut out,
        "max-warmup-time",
        limits.max_warmup_time.as_nanos().to_string().as_bytes(),
    );
    for p in &def.patterns {
        item(&mut out, "pattern", p.as_bytes());
    }
    item(&mut out, "haystack", &def.haystack);
    out
}

const USAGE: &str = "\
Print one benchmark in the KLV format that runner programs read on stdin.

USAGE:
    benchgrind suite klv [OPTIONS] <benchmark-name>

    Pipe it into a runner to test the runner by hand, e.g.
    benchgrind suite klv memmem/sherlock-holmes --max-iters 10 --max-time 3s | ./runner rust/memmem
    All limits default to 0, so set --max-iters and --max-time to get samples.

OPTIONS:
    -d, --dir <dir>                 the suite directory (default: ./benchmarks)
    --max-iters <n>                 maximum measured iterations (default: 0)
    --max-warmup-iters <n>          maximum warm-up iterations (default: 0)
    --max-time <duration>           time budget, e.g. 3s, 500ms (default: 0s)
    --max-warmup-time <duration>    warm-up time budget (default: 0s)
    -h, --help                      print this help
";

/// Runs `suite klv`.
pub fn run(p: &mut lexopt::Parser) -> anyhow::Result<u8> {
    use lexopt::Arg::{Long, Short, Value};
    let mut dir = PathBuf::from("benchmarks");
    let mut name = None;
    let mut limits = Limits::default();
    while let Some(arg) = p.next().map_err(args::lex_err)? {
        match arg {
            Short('h') | Long("help") => {
                print!("{USAGE}");
                return Ok(0);
            }
            Short('d') | Long("dir") => dir = PathBuf::from(args::string(p, "-d/--dir")?),
            Long("max-iters") => limits.max_iters = args::parse(p, "--max-iters")?,
            Long("max-warmup-iters") => {
                limits.max_warmup_iters = args::parse(p, "--max-warmup-iters")?
            }
            Long("max-time") => limits.max_time = args::parse::<HumanDuration>(p, "--max-time")?.0,
            Long("max-warmup-time") => {
                limits.max_warmup_time = args::parse::<HumanDuration>(p, "--max-warmup-time")?.0
            }
            Value(v) if name.is_none() => {
                name = Some(
                    v.into_string()
                        .map_err(|_| args::usage("the benchmark name is not valid UTF-8"))?,
                )
            }
            Value(_) => return Err(args::usage("only one benchmark name is accepted")),
            other => return Err(args::lex_err(other.unexpected())),
        }
    }
    let name = name.ok_or_else(|| {
        args::usage("missing the benchmark name, e.g. `benchgrind suite klv group/name`")
    })?;
    let defs = definitions::load(&dir);
    let Some(def) = defs.defs.iter().find(|d| d.name == name) else {
        let mut msg = format!(
            "no benchmark named '{name}' in {}",
            dir.join("definitions").display()
        );
        if !defs.problems.is_empty() {
            msg.push_str("; these problems may hide it:");
            for pr in &defs.problems {
                msg.push_str(&format!("\n  {pr}"));
            }
        } else {
            let names: Vec<_> = defs.defs.iter().map(|d| d.name.as_str()).collect();
            msg.push_str(&format!(
                " (known: {})",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ));
        }
        anyhow::bail!(msg);
    };
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(&encode(def, &limits))
        .and_then(|_| stdout.flush())
    {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(0),
        r => r.context("cannot write to stdout").map(|_| 0),
    }
}
