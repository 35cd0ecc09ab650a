//! The flags of changes of layout alone ([`crate::compare::layout`]): whether limits fire on
//! them (`--limit-layout`) and measuring how far layout moves each benchmark
//! (`--layout-spread`).

use super::flag::{yes_no, Category, Flag, Takes};

/// How many shifted layouts `--layout-spread` measures when it names no number (the flag's
/// `Takes::Optional("4")`, which takes text).
#[cfg(test)]
const DEFAULT_SPREAD: usize = 4;

/// The most shifted layouts one run measures: each is another run of every benchmark.
const MOST_SPREAD: usize = 32;

/// The flags of this topic, in the order of the help.
pub(super) const FLAGS: &[Flag] = &[
    Flag {
        name: "--limit-layout",
        env: "BENCHGRIND_LIMIT_LAYOUT",
        takes: Takes::Optional("yes"),
        value: "[=yes|no]",
        help: "let limits on cache metrics and EstimatedCycles fail a benchmark whose change is \
               layout only (the same executed code, other addresses) [default: no]",
        repeats: false,
        category: Category::Run,
        set: |cli, g| {
            cli.limit_layout = Some(yes_no(g)?);
            Ok(())
        },
    },
    Flag {
        name: "--layout-spread",
        env: "BENCHGRIND_LAYOUT_SPREAD",
        takes: Takes::Optional("4"),
        value: "[=N]",
        help: "measure each benchmark again with N layouts shifted (stack and heap start) and \
               show how far its cache metrics move [default N: 4; 0: off]",
        repeats: false,
        category: Category::Run,
        set: |cli, g| match g.value.parse::<usize>() {
            Ok(0) => {
                cli.layout_spread = None;
                Ok(())
            }
            Ok(n) if n <= MOST_SPREAD => {
                cli.layout_spread = Some(n);
                Ok(())
            }
            _ => Err(g.invalid(&format!(
                "use a whole number of shifted layouts from 1 to {MOST_SPREAD} (0 turns it off)"
            ))),
        },
    },
];

#[cfg(test)]
mod tests {
    use crate::cli::parse;

    fn cli(args: &[&str]) -> Result<crate::cli::Cli, String> {
        let args: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
        parse(&args, &|_| None).map_err(|e| e.to_string())
    }

    #[test]
    fn the_spread_takes_a_number_of_layouts_and_limits_take_yes_or_no() {
        assert_eq!(cli(&[]).unwrap().layout_spread, None);
        let default = Some(super::DEFAULT_SPREAD);
        assert_eq!(cli(&["--layout-spread"]).unwrap().layout_spread, default);
        assert_eq!(cli(&["--layout-spread=7"]).unwrap().layout_spread, Some(7));
        assert_eq!(cli(&["--layout-spread=0"]).unwrap().layout_spread, None);
        for bad in [
            "--layout-spread=many",
            "--layout-spread=33",
            "--layout-spread=-1",
        ] {
            let e = cli(&[bad]).unwrap_err();
            assert!(
                e.contains("--layout-spread") && e.contains("1 to 32"),
                "{e}"
            );
        }
        assert_eq!(cli(&["--limit-layout"]).unwrap().limit_layout, Some(true));
        assert_eq!(
            cli(&["--limit-layout=no"]).unwrap().limit_layout,
            Some(false)
        );
        assert!(cli(&["--limit-layout=maybe"]).is_err());
    }
}
