//! The other Valgrind tools (DHAT, Massif, BBV, Memcheck, Helgrind, DRD, Cachegrind): their
//! configuration, their command lines and what the runner reads from their files.
//!
//! Each tool runs the benchmark in a Valgrind process of its own after Callgrind's, through the
//! same [`Executor`](crate::execute::Executor), and keeps its files next to Callgrind's
//! (`dhat.out`, `massif.out`, `memcheck.log`, ...), with the same `*.new`/`*.old` rotation.
//! None of these tools understands Callgrind's instrumentation requests, so each runs over the
//! whole measured process; what it reports is restricted to the benchmark afterwards where the
//! output allows it (DHAT: only allocation sites whose stack contains the benchmark function).

pub mod run;

use crate::config::{Tool, ValgrindTool};
use crate::store::{BenchPaths, Which};

/// The arguments benchgrind gives a tool, before the user's.
fn default_args(tool: ValgrindTool) -> Vec<String> {
    let mut args = Vec::new();
    if tool.reports_errors() {
        // Errors fail the benchmark; users restore Valgrind's 0 with their own argument.
        args.push("--error-exitcode=201".to_owned());
    }
    match tool {
        // Stacks long enough to reach the benchmark function from inside the allocator (inlined
        // frames count): the restriction to the benchmark looks for it in every stack.
        ValgrindTool::DHAT => args.push("--num-callers=500".into()),
        ValgrindTool::Cachegrind => {
            args.extend(crate::execute::CACHE_GEOMETRY.map(String::from));
        }
        _ => {}
    }
    args
}

/// The complete Valgrind arguments of one tool run (without the program).
pub fn valgrind_args(tool: &Tool, paths: &BenchPaths) -> Vec<String> {
    let kind = tool.kind;
    let mut args = vec![format!("--tool={}", kind.valgrind_name())];
    args.extend(default_args(kind));
    args.extend(tool.args.iter().cloned());
    // Last, so that no user argument can move the files the runner reads.
    let file = |name: &str| paths.file(name, Which::New).display().to_string();
    match kind {
        ValgrindTool::DHAT => args.push(format!("--dhat-out-file={}", file("dhat.out"))),
        ValgrindTool::Massif => args.push(format!("--massif-out-file={}", file("massif.out"))),
        ValgrindTool::Cachegrind => {
            args.push(format!("--cachegrind-out-file={}", file("cachegrind.out")));
        }
        ValgrindTool::BBV => {
            args.push(format!("--bb-out-file={}", file("bbv.out")));
            args.push(format!("--pc-out-file={}", file("bbv.pc.out")));
        }
        _ => {}
    }
    args.push(format!("--log-file={}", file(&kind.log_file())));
    args
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn error_tools_fail_by_default_and_users_override_it() {
        let paths = BenchPaths {
            dir: PathBuf::from("/b"),
        };
        let args = valgrind_args(&Tool::new(ValgrindTool::Memcheck), &paths);
        assert_eq!(
            args,
            [
                "--tool=memcheck",
                "--error-exitcode=201",
                "--log-file=/b/memcheck.log.new"
            ]
        );
        let tool = Tool::new(ValgrindTool::Memcheck).args(["error-exitcode=0"]);
        let args = valgrind_args(&tool, &paths);
        let last = args.iter().rposition(|a| a.starts_with("--error-exitcode"));
        assert_eq!(args[last.unwrap()], "--error-exitcode=0");
        let args = valgrind_args(&Tool::new(ValgrindTool::BBV), &paths);
        assert_eq!(args[0], "--tool=exp-bbv");
        assert!(args.contains(&"--pc-out-file=/b/bbv.pc.out.new".to_owned()));
    }
}
