//! Exact reuse of results. Counts under Valgrind are a function of the program and its inputs
//! (that they are the same on every run is what benchgrind makes sure of), so a benchmark whose
//! every input is as it was when it was last measured has the counts it had. After each run of
//! Callgrind the benchmark's directory gets a record of its inputs (`inputs`):
//!
//! - the bench binary, Valgrind (its version, launcher and tool binaries) and the machine's
//!   fingerprint (the CPU as Valgrind shows it, glibc, rustc, caches), by digest;
//! - the job: its id, command line, Valgrind arguments, tools and their settings, and the
//!   environment the measured process inherits;
//! - every file its process opened, looked at, listed or ran, with its state then (absent, a
//!   directory and its entries where listed, a file's digest), from Valgrind's own trace of the
//!   process's system calls ([`trace`]);
//! - what the harness gave it directly: a binary benchmark's program, a stdin file, the bytes
//!   its setup fed it.
//!
//! Before the next run the record is checked, where the benchmark would start (after a binary
//! benchmark's setup, in its new sandbox): if every entry is as recorded, the last results are
//! reported again, marked reused, and nothing runs. Anything the record cannot prove means a
//! run: a benchmark of several processes (Valgrind's trace does not show what a child does
//! between fork and exec), one that changes a file it also reads, one whose calls cannot all be
//! placed, one fed from the terminal or running beside its setup. `--fresh` measures everything;
//! `--verify-reuse` measures what would have been reused and fails where a count differs.

//!
//! All of it is one value, [`Records`], made once by the harness for the run and shared by its
//! executors: [`Records::decide`] checks a record and gives the [`Verdict`] (measure, reuse or
//! verify) that both kinds of benchmark follow and their result carries; [`Records::reuse`] puts
//! the last results in place of a run's, [`Records::begin`] sets a run up, [`Records::write`]
//! records it and [`Records::confirm`] keeps the record once the benchmark's other tools ended
//! well. The record's format is [`record::Record`]'s.

mod check;
pub mod digest;
mod inputs;
mod kept;
mod of_run;
mod place;
mod reason;
pub mod record;
#[cfg(test)]
mod tests;
pub mod trace;

use std::path::{Path, PathBuf};

use crate::cli::Reuse;
use crate::dates::UtcDate;
use crate::plan::{Job, JobKind};
use crate::store::Which;
use record::Record;

pub use place::{Place, Run};
pub use reason::Reason;

pub use of_run::SERVER_TRACE;

/// How a benchmark's run stands with respect to reuse: decided before it runs (a binary
/// benchmark's after its setup), followed by the executor and the harness alike, and carried
/// on its result.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Verdict {
    /// It is measured: its record did not match, or there is none, or `--fresh`.
    #[default]
    Measure,
    /// Every input is as recorded: the results measured then stand, and nothing runs.
    Reuse(UtcDate),
    /// `--verify-reuse`: its record matched the results measured then; it is measured, and its
    /// counts must be those.
    Verify(UtcDate),
}

impl Verdict {
    /// When the results reused were measured, if they are reused.
    pub fn reused(&self) -> Option<UtcDate> {
        match self {
            Verdict::Reuse(at) => Some(*at),
            _ => None,
        }
    }

    /// When the results its run must count again were measured, under `--verify-reuse`.
    pub fn verified(&self) -> Option<UtcDate> {
        match self {
            Verdict::Verify(at) => Some(*at),
            _ => None,
        }
    }
}

/// Where a run's record is written from.
#[derive(Debug, Clone, Copy)]
pub enum Logs<'a> {
    /// From the harness, after a run of Callgrind of this many processes: a library
    /// benchmark's record is written from Valgrind's logs in its directory (its process's, its
    /// children's and its fork server's calls before the fork); a binary benchmark's, which its
    /// executor wrote, is only made unfit by a second process.
    Settled {
        /// How many processes its profile came from.
        processes: usize,
    },
    /// From a binary benchmark's executor, before its teardown: Valgrind's log of its command,
    /// run at `place`.
    Command {
        /// The log.
        log: &'a Path,
        /// Where it ran.
        place: &'a Place,
    },
}

/// Reuse of results for one run of a bench binary, made once by the harness and shared by its
/// executors (see the module's documentation).
#[derive(Debug)]
pub struct Records {
    /// The run's shared facts; `None` records and reuses nothing.
    run: Option<Run>,
    /// The package's directory, where library benchmarks run (as under `cargo bench`).
    package_dir: PathBuf,
    /// benchgrind's home: its own files there are no inputs.
    home: PathBuf,
    /// The states each benchmark's check found, by its directory, until its record is written.
    before: check::Before,
}

impl Records {
    /// The records of a run whose library benchmarks run in `package_dir`, with benchgrind's
    /// files in `home`; `run` is `None` where nothing is recorded (no Valgrind runs).
    pub fn new(run: Option<Run>, package_dir: PathBuf, home: PathBuf) -> Records {
        Records {
            run,
            package_dir,
            home,
            before: check::Before::default(),
        }
    }

    /// Where a library benchmark's measured process runs: the package's directory, or its
    /// configured one below it; a sandbox is a new directory on every run, which its record
    /// does not follow.
    pub fn library_place(&self, job: &Job) -> Place {
        let sandboxed = job.config.sandbox.as_ref().is_some_and(|s| s.enabled);
        let cwd = match &job.config.current_dir {
            Some(dir) => self.package_dir.join(dir),
            None => self.package_dir.clone(),
        };
        Place {
            cwd,
            unfit: sandboxed.then(|| "it runs in a sandbox of its own".to_owned()),
            ..Place::default()
        }
    }

    /// Whether a job's runs of Callgrind are traced and recorded.
    pub fn recording(job: &Job) -> bool {
        job.reuse != Reuse::Off
    }

    /// Checks the job's record where it would start (`place`) and decides. Under `--fresh` the
    /// record is checked too: the check takes the states of the files before the run, which
    /// the record of a benchmark that writes a file it reads needs.
    pub fn decide(&self, job: &Job, place: &Place) -> Verdict {
        if !Records::recording(job) {
            return Verdict::Measure;
        }
        match (
            check::check(self.run.as_ref(), &self.before, job, place),
            job.reuse,
        ) {
            (Ok(at), Reuse::Reuse) => Verdict::Reuse(at),
            (Ok(at), Reuse::Verify) => Verdict::Verify(at),
            (Ok(_), _) => Verdict::Measure,
            (Err(why), _) => {
                crate::messages::debug!("{}: measured: {why}", job.id.full());
                Verdict::Measure
            }
        }
    }

    /// Puts the last results (`names`, and the files the last run wrote) in place of a run's;
    /// `false` when they cannot all be put back, and the benchmark is then set up to run.
    pub fn reuse(&self, job: &Job, place: &Place, names: &[String]) -> bool {
        let record = Record::read(&kept::path(job, Which::Current));
        let put_back = record.map_err(std::io::Error::other).and_then(|record| {
            job.paths.current_as_new(names)?;
            kept::restore_outputs(job, place, &record)
        });
        if put_back.is_err() {
            self.begin(job);
        }
        put_back.is_ok()
    }

    /// Before a run that measures: the record no longer describes the results it will leave.
    pub fn begin(&self, job: &Job) {
        if Records::recording(job) {
            kept::forget(job);
        }
    }

    /// After a run of Callgrind that ended well: its record, pending until its other tools end
    /// well ([`Records::confirm`]). Its system calls leave Valgrind's logs.
    pub fn write(&self, job: &Job, logs: Logs) {
        if !Records::recording(job) {
            return;
        }
        let record = match logs {
            Logs::Command { log, place } => self.record(job, place, &[trace::take(log)]),
            Logs::Settled { processes } => {
                let calls = of_run::library_calls(job);
                if processes > 1 {
                    Record::now().unfit(Reason::Processes)
                } else if matches!(job.kind, JobKind::Library(_)) {
                    self.record(job, &self.library_place(job), &calls)
                } else {
                    return;
                }
            }
        };
        kept::write_pending(job, &record);
    }

    /// After a run whose every tool ended well: its pending record becomes the record.
    pub fn confirm(&self, job: &Job) {
        if Records::recording(job) {
            kept::confirm(job);
        }
    }

    /// The record of a run that ended well, from the system calls of its measured process.
    fn record(&self, job: &Job, place: &Place, calls: &[String]) -> Record {
        let mine = of_run::Mine {
            run: self.run.as_ref(),
            home: &self.home,
            before: &self.before,
        };
        of_run::record(&mine, job, place, calls)
    }

    /// Under `--verify-reuse`, when a benchmark whose record matched the one of `at` counted
    /// otherwise (`differences`): what to say, with what the new record holds that the old
    /// did not.
    pub fn condemned(&self, job: &Job, at: UtcDate, differences: &str) -> String {
        let read = |which| Record::read(&kept::path(job, which)).ok();
        let added = match (read(Which::New), read(Which::Old)) {
            (Some(new), Some(old)) => new.differences(&old),
            _ => Vec::new(),
        };
        let added = match added.is_empty() {
            true => String::new(),
            false => format!(" (this run's record differs in: {})", added.join(", ")),
        };
        format!(
            "--verify-reuse: its record of inputs matched the one of {at}, but its counts differ \
             ({differences}): an input the record does not hold changed{added}; please report \
             it, with the record ({})",
            kept::path(job, Which::Current).display()
        )
    }
}
