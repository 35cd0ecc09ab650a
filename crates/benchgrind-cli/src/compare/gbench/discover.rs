//! Stage 1 of `benchgrind gbench`: what a Google Benchmark binary holds, found without Valgrind.
//!
//! The binary lists its benchmarks (`--benchmark_list_tests=true`, with the user's filter), and
//! says, by accepting or refusing `--benchmark_min_time=1x` on the same listing, whether its
//! Google Benchmark can run a fixed number of iterations (1.8 and newer parse `<N>x`; 1.7 and
//! older take seconds only and exit with "unrecognized command-line flag"). Both runs are
//! native and cheap: listing runs no benchmark.

use super::text::indent_tail;
use std::path::Path;

use anyhow::{bail, Context, Result};

/// What [`discover`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discovery {
    /// The benchmark names, in the binary's order.
    pub names: Vec<String>,
    /// Whether `--benchmark_min_time=<N>x` is understood (Google Benchmark 1.8+).
    pub fixed_iterations: bool,
}

/// Lists the benchmarks of `binary` matching `filter` (Google Benchmark's own regex dialect) and
/// probes fixed-iteration support. Errors name the binary and, for an empty list, the filter.
pub fn discover(binary: &Path, filter: Option<&str>) -> Result<Discovery> {
    let listed = list(binary, filter, &[])?;
    if !listed.ok {
        bail!(
            "`{}` failed when asked to list its benchmarks ({}): is it a Google Benchmark \
             binary?{}",
            binary.display(),
            listed.status,
            indent_tail(&listed.stderr)
        );
    }
    let names: Vec<String> = listed
        .stdout
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    if names.is_empty() {
        match filter {
            Some(f) => bail!(
                "`--benchmark_filter={f}` matches no benchmark of `{}`: run it with \
                 `--benchmark_list_tests=true` to see their names{}",
                binary.display(),
                indent_tail(&listed.stderr)
            ),
            None => bail!(
                "`{}` lists no benchmark (`--benchmark_list_tests=true` printed nothing): is it a \
                 Google Benchmark binary with registered benchmarks?{}",
                binary.display(),
                indent_tail(&listed.stderr)
            ),
        }
    }
    let probe = list(binary, filter, &["--benchmark_min_time=1x"])?;
    Ok(Discovery {
        names,
        fixed_iterations: probe.ok && probe.stdout == listed.stdout,
    })
}

struct Listed {
    ok: bool,
    status: String,
    stdout: String,
    stderr: String,
}

fn list(binary: &Path, filter: Option<&str>, extra: &[&str]) -> Result<Listed> {
    let mut cmd = benchgrind_runner::execute::Launcher::native().command([""; 0], binary);
    cmd.arg("--benchmark_list_tests=true");
    if let Some(f) = filter {
        cmd.arg(format!("--benchmark_filter={f}"));
    }
    cmd.args(extra);
    super::callgrind::configure(&mut cmd);
    let out = cmd
        .output()
        .with_context(|| format!("cannot run `{}`", binary.display()))?;
    Ok(Listed {
        ok: out.status.success(),
        status: out.status.to_string(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::gbench::text::exact_filter;

    #[test]
    fn exact_filters_escape_only_extended_regex_metacharacters() {
        for (name, want) in [
            ("BM_a", "^BM_a$"),
            ("BM_a/8/threads:1", "^BM_a/8/threads:1$"),
            ("BM_t<std::vector<int>>/2", "^BM_t<std::vector<int>>/2$"),
            ("BM_x/min_time:0.500", "^BM_x/min_time:0\\.500$"),
            (
                "f(a|b)*[c]{2}+?^$\\",
                "^f\\(a\\|b\\)\\*\\[c]\\{2}\\+\\?\\^\\$\\\\$",
            ),
        ] {
            assert_eq!(exact_filter(name), want, "{name}");
        }
    }

    #[test]
    fn stderr_tails_are_indented_and_short() {
        assert_eq!(indent_tail(" \n"), "");
        let many: String = (0..20).map(|i| format!("line {i}\n")).collect();
        let tail = indent_tail(&many);
        assert!(tail.starts_with("; it printed:\n    line 12"), "{tail}");
        assert!(tail.ends_with("    line 19"), "{tail}");
    }
}
