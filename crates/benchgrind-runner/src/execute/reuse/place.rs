//! What a record is made of besides the benchmark's job: the run's shared facts ([`Run`]) and
//! where the harness placed the benchmark ([`Place`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use super::{digest, Reason};
use crate::cli::Isolation;
use crate::error::FileResult;
use crate::execute::valgrind::Valgrind;

/// What every record of a run shares: the machine (the fingerprint's values but the revision),
/// how library benchmarks run (`--isolation`: a fork server's child and a process of its own
/// count the same instructions but not the same cache hits) and the Valgrind found.
#[derive(Debug)]
pub struct Run {
    pub(super) machine: String,
    pub(super) isolation: Isolation,
    pub(super) valgrind: Valgrind,
    /// The digests of the files its records name, each taken once while it stays.
    pub(super) files: digest::Files,
    /// The bench binary's digest, taken once.
    bench_binary: OnceLock<Result<String, Reason>>,
    /// Valgrind's entry of each set of tools (its launcher's and tools' digests), made once:
    /// nothing a run does moves Valgrind.
    pub(super) valgrind_entries: Mutex<HashMap<Vec<String>, Result<String, Reason>>>,
}

impl Run {
    /// The run's shared facts.
    pub fn new(machine: String, isolation: Isolation, valgrind: Valgrind) -> Run {
        Run {
            machine,
            isolation,
            valgrind,
            files: digest::Files::default(),
            bench_binary: OnceLock::new(),
            valgrind_entries: Mutex::default(),
        }
    }

    pub(super) fn bench_binary(&self) -> Result<String, Reason> {
        (self.bench_binary.get_or_init(|| {
            let exe = std::env::current_exe().map_err(|e| Reason::NoBenchBinary(e.into()))?;
            Ok(self.files.of(&exe).file_op("digest", &exe)?)
        }))
        .clone()
    }
}

/// What the harness gave a benchmark besides its job: where its sandbox is (written `{sandbox}`
/// in the record, so that the next run's new sandbox is compared path for path) and inputs it
/// handed over directly (the bytes a setup fed its stdin).
#[derive(Debug, Default, Clone)]
pub struct Place {
    /// The sandbox the benchmark runs in, if it has one.
    pub sandbox: Option<PathBuf>,
    /// The working directory of the measured process.
    pub cwd: PathBuf,
    /// `(name, value)` of inputs handed over directly.
    pub given: Vec<(String, String)>,
    /// Why the benchmark cannot be reused whatever its record says (it reads the terminal, it
    /// runs beside its setup).
    pub unfit: Option<String>,
}

impl Place {
    pub(super) fn write_path(&self, path: &Path) -> String {
        match self
            .sandbox
            .as_deref()
            .and_then(|s| path.strip_prefix(s).ok())
        {
            Some(inner) => format!("{{sandbox}}/{}", inner.display()),
            None => path.display().to_string(),
        }
    }

    pub(super) fn read_path(&self, text: &str) -> PathBuf {
        match (text.strip_prefix("{sandbox}/"), &self.sandbox) {
            (Some(inner), Some(sandbox)) => sandbox.join(inner),
            _ => PathBuf::from(text),
        }
    }

    pub(super) fn in_sandbox(&self, path: &Path) -> bool {
        self.sandbox.as_deref().is_some_and(|s| path.starts_with(s))
    }
}
