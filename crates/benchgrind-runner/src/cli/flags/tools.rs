//! The flags of Valgrind and its tools: which tools run (`--tools`, `--default-tool`), their
//! arguments (`--callgrind-args`, `--valgrind-args`, each tool's `--*-args`), and which Valgrind
//! runs them and how (`--valgrind-bin`, `--tool-runner`).

use std::path::PathBuf;

use super::flag::{shell_words, Category, Flag, Given, Takes, UsageError};
use crate::cli::values::Cli;
use crate::config::{normalize_valgrind_arg, ToolList, ValgrindTool};

/// Puts a tool's `--*-args` into the [`Cli`], replacing an earlier value of the same tool.
fn tool_args(cli: &mut Cli, tool: ValgrindTool, given: &Given) -> Result<(), UsageError> {
    let args: Vec<String> = shell_words(given)?
        .iter()
        .map(|a| normalize_valgrind_arg(a))
        .collect();
    cli.tool_args.retain(|(t, _)| *t != tool);
    cli.tool_args.push((tool, args));
    Ok(())
}

/// A `--*-args` flag of one tool.
macro_rules! tool_args_flag {
    ($name:literal, $env:literal, $tool:ident, $help:literal) => {
        Flag {
            name: $name,
            env: $env,
            takes: Takes::Value,
            value: "=ARGS",
            help: $help,
            repeats: false,
            category: Category::Tools,
            set: |cli, g| tool_args(cli, ValgrindTool::$tool, g),
        }
    };
}

/// The flags of this topic, in the order of the help.
pub(super) const FLAGS: &[Flag] = &[
    Flag {
        name: "--tools",
        env: "BENCHGRIND_TOOLS",
        takes: Takes::Value,
        value: "=TOOLS",
        help: "also run these Valgrind tools on every benchmark, comma-separated: dhat, massif, \
               memcheck, helgrind, drd, bbv, cachegrind; callgrind where another is the default \
               tool",
        repeats: false,
        category: Category::Tools,
        set: |cli, g| {
            cli.tools = g.parse::<ToolList>()?.0;
            Ok(())
        },
    },
    Flag {
        name: "--callgrind-args",
        env: "BENCHGRIND_CALLGRIND_ARGS",
        takes: Takes::Value,
        value: "=ARGS",
        help: "extra Callgrind arguments, split as a shell would",
        repeats: false,
        category: Category::Tools,
        set: |cli, g| {
            let args = shell_words(g)?;
            cli.callgrind_args = args.iter().map(|a| normalize_valgrind_arg(a)).collect();
            Ok(())
        },
    },
    Flag {
        name: "--valgrind-args",
        env: "BENCHGRIND_VALGRIND_ARGS",
        takes: Takes::Value,
        value: "=ARGS",
        help: "extra Valgrind core arguments for every tool, split as a shell would",
        repeats: false,
        category: Category::Tools,
        set: |cli, g| {
            let args = shell_words(g)?;
            cli.valgrind_args = args.iter().map(|a| normalize_valgrind_arg(a)).collect();
            Ok(())
        },
    },
    tool_args_flag!(
        "--cachegrind-args",
        "BENCHGRIND_CACHEGRIND_ARGS",
        Cachegrind,
        "extra Cachegrind arguments, split as a shell would"
    ),
    tool_args_flag!(
        "--dhat-args",
        "BENCHGRIND_DHAT_ARGS",
        DHAT,
        "extra DHAT arguments, split as a shell would"
    ),
    tool_args_flag!(
        "--memcheck-args",
        "BENCHGRIND_MEMCHECK_ARGS",
        Memcheck,
        "extra Memcheck arguments, split as a shell would"
    ),
    tool_args_flag!(
        "--helgrind-args",
        "BENCHGRIND_HELGRIND_ARGS",
        Helgrind,
        "extra Helgrind arguments, split as a shell would"
    ),
    tool_args_flag!(
        "--drd-args",
        "BENCHGRIND_DRD_ARGS",
        DRD,
        "extra DRD arguments, split as a shell would"
    ),
    tool_args_flag!(
        "--massif-args",
        "BENCHGRIND_MASSIF_ARGS",
        Massif,
        "extra Massif arguments, split as a shell would"
    ),
    tool_args_flag!(
        "--bbv-args",
        "BENCHGRIND_BBV_ARGS",
        BBV,
        "extra BBV (exp-bbv) arguments, split as a shell would"
    ),
    Flag {
        name: "--default-tool",
        env: "BENCHGRIND_DEFAULT_TOOL",
        takes: Takes::Value,
        value: "=TOOL",
        help: "benchmark with this tool instead of Callgrind (which then runs only if the code \
               enables it or --tools names it): callgrind, cachegrind, dhat, memcheck, helgrind, \
               drd, massif or exp-bbv; overrides the code's `default_tool`",
        repeats: false,
        category: Category::Tools,
        set: |cli, g| {
            if g.lowercase().trim() == "perf" {
                return Err(g.invalid(
                    "perf is not a default tool: it samples beside Valgrind's; add --perf (or \
                     `.tool(Perf::default())` in the code)",
                ));
            }
            cli.default_tool = Some(g.parse::<ValgrindTool>()?);
            Ok(())
        },
    },
    Flag {
        name: "--tool-runner",
        env: "BENCHGRIND_TOOL_RUNNER",
        takes: Takes::Value,
        value: "=CMD",
        help: "start Valgrind through CMD and its arguments (split as a shell would): a container \
               runner (templates/container/valgrind-in-docker.sh), sudo, a wrapper",
        repeats: false,
        category: Category::Tools,
        set: |cli, g| {
            cli.tool_runner = shell_words(g)?;
            Ok(())
        },
    },
    Flag {
        name: "--tool-runner-args",
        env: "BENCHGRIND_TOOL_RUNNER_ARGS",
        takes: Takes::Value,
        value: "=ARGS",
        help: "arguments of the --tool-runner command (gungraun's spelling), after those in CMD",
        repeats: false,
        category: Category::Tools,
        set: |cli, g| {
            cli.tool_runner_args = shell_words(g)?;
            Ok(())
        },
    },
    Flag {
        name: "--valgrind-bin",
        env: "BENCHGRIND_VALGRIND",
        takes: Takes::Value,
        value: "=PATH",
        help: "the valgrind launcher to run [default: valgrind on PATH]; the variable's older \
               name BENCHGRIND_VALGRIND_BIN works too",
        repeats: false,
        category: Category::Tools,
        set: |cli, g| {
            if g.value.trim().is_empty() {
                return Err(g.invalid("give the path of a valgrind binary"));
            }
            cli.valgrind_bin = Some(PathBuf::from(&g.value));
            Ok(())
        },
    },
];
