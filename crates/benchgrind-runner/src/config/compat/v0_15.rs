//! iai-callgrind 0.15/0.16 and gungraun 0.17 to 0.20's conversions of binary benchmarks' types:
//! a path as [`Stdin`]/[`Stdio`] (`.stdout("out.txt")` is a file), [`ExitWith`] by reference, and
//! [`Bench::file`]. How an end meets an [`ExitWith`] is the core's ([`crate::config::binary`]).

use std::path::{Path, PathBuf};

use crate::config::binary::{Bench, Command, ExitWith, Stdin, Stdio};
use crate::error::FileResult;

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

impl Bench {
    /// One command per line of the file at `path` (relative to the bench binary's working
    /// directory, the package's under `cargo bench`), each made by `generator` from the line;
    /// more than one makes benches `id_0`, `id_1`, ... An unreadable file or a line the
    /// generator rejects is the error, naming the file and the line. The error is a `String` as
    /// in iai-callgrind 0.15's `Bench::file`, whose callers and generators this compiles.
    pub fn file<T: AsRef<Path>>(
        &mut self,
        path: T,
        generator: fn(String) -> Result<Command, String>,
    ) -> Result<&mut Self, String> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .file_op("read", path)
            .map_err(|e| format!("Bench::file: {e}"))?;
        for (n, line) in text.lines().enumerate() {
            let command = generator(line.to_owned())
                .map_err(|e| format!("Bench::file: {} line {}: {e}", path.display(), n + 1))?;
            self.commands.push(command);
        }
        Ok(self)
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

    #[test]
    fn a_file_makes_a_command_per_line_or_names_its_bad_line() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("args.txt");
        std::fs::write(&file, "1\n22\nx\n").unwrap();
        let numbers = |line: String| match line.parse::<u32>() {
            Ok(_) => Ok(Command::new("/bin/echo").arg(line).build()),
            Err(e) => Err(format!("`{line}` is not a number: {e}")),
        };
        let mut bench = Bench::new("lines");
        let err = bench.file(&file, numbers).unwrap_err();
        assert!(
            err.ends_with("args.txt line 3: `x` is not a number: invalid digit found in string"),
            "{err}"
        );
        std::fs::write(&file, "1\n22\n").unwrap();
        let mut bench = Bench::new("lines");
        bench.file(&file, numbers).unwrap();
        assert_eq!(bench.commands.len(), 2);
        assert_eq!(bench.commands[1].args, ["22"]);
        let err = Bench::new("x")
            .file(dir.path().join("none"), numbers)
            .unwrap_err();
        assert!(err.starts_with("Bench::file: cannot read "), "{err}");
    }
}
