//! Why a benchmark runs instead of being reused: its record does not prove that its inputs are
//! as they were, or its run cannot be recorded. Said once, in the run's debug output and in the
//! record of a run that cannot be reused (`unfit WHY`).

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use super::record::Damaged;
use crate::error::FileError;

/// Why a benchmark is measured, or why its run's record cannot serve.
#[derive(Debug, Clone)]
pub enum Reason {
    /// No Valgrind runs in this run, so nothing is recorded.
    NotRecorded,
    /// It cannot be reused whatever its inputs hold (it reads the terminal, it runs in a sandbox
    /// of its own, its calls could not all be placed): the words of whoever found it so.
    Unfit(String),
    /// Its record is missing or cannot be used.
    Record(Damaged),
    /// An input of its record other than a file changed: its name.
    InputChanged(String),
    /// Its record lists other inputs than it has now.
    OtherInputs,
    /// A file it read changed: the path as its record writes it.
    FileChanged(String),
    /// A result it would report again is gone.
    ResultGone(PathBuf),
    /// `deterministic_random` is off.
    RandomNotFixed,
    /// The bench binary cannot be found to be digested.
    NoBenchBinary(Arc<std::io::Error>),
    /// A file to digest or to keep could not be.
    File(Arc<FileError>),
    /// It started other processes.
    Processes,
    /// It changes a file that another run would see.
    Changes(PathBuf),
    /// A path it reads holds a newline or a tab, which a record cannot.
    PathNotWritable,
    /// It writes a file too large to keep (or not a plain file).
    TooLarge(PathBuf),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::NotRecorded => f.write_str("nothing is recorded in this run"),
            Reason::Unfit(why) => f.write_str(why),
            Reason::Record(damaged) => damaged.fmt(f),
            Reason::InputChanged(name) => write!(f, "its {name} changed"),
            Reason::OtherInputs => f.write_str("its record lists other inputs"),
            Reason::FileChanged(name) => write!(f, "{name} changed"),
            Reason::ResultGone(path) => write!(f, "its last result {} is gone", path.display()),
            Reason::RandomNotFixed => f.write_str(
                "its random numbers are not fixed (deterministic_random is off), so its counts \
                 can move on every run",
            ),
            Reason::NoBenchBinary(e) => write!(f, "cannot find the bench binary: {e}"),
            Reason::File(e) => e.fmt(f),
            Reason::Processes => f.write_str(
                "it started other processes, and what a process does between fork and exec is \
                 not in Valgrind's trace",
            ),
            Reason::Changes(path) => write!(
                f,
                "it changes {}, which the next run would see",
                path.display()
            ),
            Reason::PathNotWritable => f.write_str("a path it reads holds a newline or a tab"),
            Reason::TooLarge(path) => {
                write!(
                    f,
                    "it writes {}, which is too large to keep",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for Reason {}

impl From<Damaged> for Reason {
    fn from(damaged: Damaged) -> Reason {
        Reason::Record(damaged)
    }
}

impl From<FileError> for Reason {
    fn from(e: FileError) -> Reason {
        Reason::File(Arc::new(e))
    }
}
