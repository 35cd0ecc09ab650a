//! Conversions and checks of binary benchmarks' I/O and exit types that gungraun code relies on:
//! a path as [`Stdin`]/[`Stdio`] (`.stdout("out.txt")` is a file), [`ExitWith`] by reference and
//! how an end meets it (an exit code, or gungraun 0.20's expected signals).

use std::path::{Path, PathBuf};

use super::binary::{ExitWith, Stdin, Stdio};

/// A path as standard input or output: that file.
macro_rules! from_paths {
    ($ty:ident) => {
        impl From<PathBuf> for $ty {
            fn from(path: PathBuf) -> $ty {
                $ty::File(path)
            }
        }

        impl From<&PathBuf> for $ty {
            fn from(path: &PathBuf) -> $ty {
                $ty::File(path.clone())
            }
        }

        impl From<&Path> for $ty {
            fn from(path: &Path) -> $ty {
                $ty::File(path.to_path_buf())
            }
        }
    };
}

from_paths!(Stdin);
from_paths!(Stdio);

impl From<&ExitWith> for ExitWith {
    fn from(value: &ExitWith) -> ExitWith {
        value.clone()
    }
}

impl From<&mut ExitWith> for ExitWith {
    fn from(value: &mut ExitWith) -> ExitWith {
        value.clone()
    }
}

impl ExitWith {
    /// Whether an exit code meets the expectation (an expected signal is never an exit code).
    pub fn accepts(&self, code: i32) -> bool {
        match self {
            ExitWith::Success => code == 0,
            ExitWith::Failure => code != 0,
            ExitWith::Code(c) => code == *c,
            ExitWith::Signal(_) | ExitWith::Signals(_) => false,
        }
    }

    /// Whether an end by this signal meets the expectation.
    pub fn accepts_signal(&self, signal: i32) -> bool {
        match self {
            ExitWith::Signal(s) => *s == signal,
            ExitWith::Signals(signals) => signals.contains(&signal),
            _ => false,
        }
    }

    /// The expectation in a message: `success (0)`, `signal 6`, ...
    pub(crate) fn describe(&self) -> String {
        match self {
            ExitWith::Success => "success (0)".to_owned(),
            ExitWith::Failure => "a failure (not 0)".to_owned(),
            ExitWith::Code(c) => format!("code {c}"),
            ExitWith::Signal(s) => format!("signal {s}"),
            ExitWith::Signals(signals) => {
                let list: Vec<String> = signals.iter().map(i32::to_string).collect();
                format!("one of the signals {}", list.join(", "))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_files_and_exits_check_codes_or_signals() {
        assert_eq!(
            Stdio::from(Path::new("out.txt")),
            Stdio::File("out.txt".into())
        );
        assert_eq!(
            Stdin::from(&PathBuf::from("in.txt")),
            Stdin::File("in.txt".into())
        );
        assert!(ExitWith::Code(2).accepts(2) && !ExitWith::Code(2).accepts_signal(2));
        assert!(ExitWith::Signal(6).accepts_signal(6) && !ExitWith::Signal(6).accepts(6));
        let signals = ExitWith::Signals(vec![6, 9]);
        assert!(signals.accepts_signal(9) && !signals.accepts_signal(15));
        assert_eq!(signals.describe(), "one of the signals 6, 9");
        assert_eq!(ExitWith::from(&ExitWith::Failure), ExitWith::Failure);
    }
}
