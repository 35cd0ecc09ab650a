//! `benchgrind compare` arguments, first stage: raw values as typed, checked for shape only.
//! `config` turns them into a resolved [`super::config::Resolved`].

use std::ffi::OsString;
use std::path::PathBuf;

use crate::usage::UsageError;

/// The arguments as given.
#[derive(Debug, Default)]
pub struct RawArgs {
    /// Positional arguments: an optional mode word, inputs and filters.
    pub positional: Vec<OsString>,
    /// `--format`.
    pub format: Option<String>,
    /// Every `--fail-above`, in order.
    pub fail_above: Vec<String>,
    /// `--alpha`.
    pub alpha: Option<String>,
    /// `--no-utest`.
    pub no_utest: bool,
    /// `--aggregates-only`.
    pub aggregates_only: bool,
    /// `--color`.
    pub color: Option<String>,
    /// `--keep-results`.
    pub keep_results: Option<PathBuf>,
    /// `--home`.
    pub home: Option<PathBuf>,
    /// Everything after `--`, for the binaries.
    pub passthrough: Vec<OsString>,
    /// `-h` / `--help`.
    pub help: bool,
}

/// Parses the arguments after `compare`.
pub fn parse(mut args: Vec<OsString>) -> Result<RawArgs, UsageError> {
    use lexopt::prelude::*;

    let mut raw = RawArgs::default();
    // Split at `--` ourselves: what follows belongs to the binaries, never to positionals.
    if let Some(i) = args.iter().position(|a| a == "--") {
        raw.passthrough = args.split_off(i + 1);
        args.pop();
    }
    let mut parser = lexopt::Parser::from_args(args);
    while let Some(arg) = parser.next()? {
        match arg {
            Short('h') | Long("help") => raw.help = true,
            Long("format") => raw.format = Some(parser.value()?.string()?),
            Long("fail-above") => raw.fail_above.push(parser.value()?.string()?),
            Long("alpha") => raw.alpha = Some(parser.value()?.string()?),
            Long("no-utest") => raw.no_utest = true,
            Long("aggregates-only") => raw.aggregates_only = true,
            Long("color") => raw.color = Some(parser.value()?.string()?),
            Long("keep-results") => raw.keep_results = Some(parser.value()?.into()),
            Long("home") => raw.home = Some(parser.value()?.into()),
            Value(v) => raw.positional.push(v),
            other => return Err(other.unexpected().into()),
        }
    }
    Ok(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn options_positionals_and_passthrough() {
        let raw = parse(args(&[
            "a.json",
            "--fail-above",
            "5",
            "b",
            "--fail-above=cpu=2",
            "--format=json",
            "--",
            "--benchmark_repetitions=9",
            "--format",
        ]))
        .unwrap();
        assert_eq!(raw.positional, args(&["a.json", "b"]));
        assert_eq!(raw.fail_above, ["5", "cpu=2"]);
        assert_eq!(raw.format.as_deref(), Some("json"));
        assert_eq!(
            raw.passthrough,
            args(&["--benchmark_repetitions=9", "--format"])
        );
    }

    #[test]
    fn unknown_options_are_usage_errors() {
        let err = parse(args(&["a", "b", "--frobnicate"])).unwrap_err();
        assert!(err.to_string().contains("--frobnicate"), "{err}");
        assert!(parse(args(&["a", "b", "--format"])).is_err());
    }
}
