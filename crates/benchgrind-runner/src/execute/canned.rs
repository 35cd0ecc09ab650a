//! The canned executor: runs nothing and copies profiles committed with the tests (files real
//! Valgrind runs produced) into a job's `*.new` files, or returns a scripted failure. It stands
//! in for Valgrind behind the hidden `BENCHGRIND_CANNED=DIR` (as hyperfine's mock executor behind
//! `--debug-mode`), so the whole pipeline (plan, parallel workers, baselines, regressions,
//! reports, exit codes) is tested in milliseconds. It does not replace the end-to-end tests.
//!
//! For a job whose directory is `<function>` or `<function>.<id>` (its leaf), the directory
//! `DIR` holds, looked up as `<leaf>.<file>`, else `default.<file>`:
//! - `callgrind.out` (required) and `callgrind.log`: the profile and log of the run;
//! - `fail`: the run fails with the file's text as the reason;
//! - `stdout`, `stderr`: what the benchmark printed;
//! - `seconds`: how long a run takes (as a real one would, so that workers overlap);
//! - the other tools' files (`dhat.out`, `memcheck.log`, ...) and `<tool>.fail`.

use crate::error::FileResult;
use crate::error::Problem;
use crate::problem;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::executor::{Captured, Executor, RunOutput, Status};
use crate::config::Tool;
use crate::plan::Job;
use crate::store::Which;

/// Copies canned files instead of running Valgrind.
#[derive(Debug, Clone)]
pub struct CannedExecutor {
    /// Where the canned files are.
    pub dir: PathBuf,
}

impl CannedExecutor {
    /// An executor serving the files of `dir`.
    pub fn new(dir: &Path) -> CannedExecutor {
        CannedExecutor {
            dir: dir.to_owned(),
        }
    }

    /// The canned `file` for `job`: its own, else the default.
    fn source(&self, job: &Job, file: &str) -> Option<PathBuf> {
        let leaf = job.paths.dir.file_name()?.to_string_lossy().into_owned();
        [format!("{leaf}.{file}"), format!("default.{file}")]
            .map(|name| self.dir.join(name))
            .into_iter()
            .find(|p| p.exists())
    }

    /// One run: the `files` copied (the first one required), each a `*.new` file of the job
    /// (logs not canned are written empty), then the scripted failure `fail` if there is one.
    fn run_files(&self, job: &Job, fail: &str, files: &[String]) -> Result<(), Problem> {
        std::fs::create_dir_all(&job.paths.dir).file_op("create", &job.paths.dir)?;
        let seconds = self.source(job, "seconds").and_then(|p| {
            let text = std::fs::read_to_string(p).ok()?;
            Duration::try_from_secs_f64(text.trim().parse().ok()?).ok()
        });
        if let Some(duration) = seconds {
            std::thread::sleep(duration);
        }
        let failure = self.source(job, fail).map(|reason| {
            let reason = std::fs::read_to_string(&reason).unwrap_or_default();
            reason.trim().to_owned()
        });
        for (i, file) in files.iter().enumerate() {
            let to = job.paths.file(file, Which::New);
            match self.source(job, file) {
                Some(from) => {
                    std::fs::copy(&from, &to).file_op_to("copy", &from, &to)?;
                }
                None if file.ends_with(".log") => std::fs::write(&to, "").file_op("write", &to)?,
                None if i == 0 && failure.is_none() => {
                    return Err(problem!(
                        "no canned {file} for {} in {}",
                        job.id.full(),
                        self.dir.display()
                    ))
                }
                None => {}
            }
        }
        failure.map_or(Ok(()), |f| Err(Problem::new(f)))
    }

    /// What the benchmark printed: the canned `stdout` and `stderr`.
    fn output(&self, job: &Job) -> Captured {
        let [stdout, stderr] = ["stdout", "stderr"].map(|stream| {
            self.source(job, stream)
                .and_then(|p| std::fs::read(p).ok())
                .unwrap_or_default()
        });
        let mut captured = Captured::default();
        captured.append(&stdout, &stderr);
        captured
    }

    fn finish(&self, job: &Job, start: Instant, ran: Result<(), Problem>) -> RunOutput {
        RunOutput {
            status: ran.map_or_else(|p| Status::Failed(p.into()), |()| Status::Ok),
            duration: start.elapsed(),
            output: self.output(job),
            reuse: Default::default(),
        }
    }
}

impl Executor for CannedExecutor {
    fn run(&mut self, job: &Job) -> RunOutput {
        let start = Instant::now();
        let files = ["callgrind.out", "callgrind.log"].map(String::from);
        let ran = self.run_files(job, "fail", &files);
        self.finish(job, start, ran)
    }

    fn run_tool(&mut self, job: &Job, tool: &Tool) -> RunOutput {
        let start = Instant::now();
        let kind = tool.kind();
        let metrics = kind.metrics_file();
        let mut files = vec![metrics.clone()];
        files.extend(kind.files().into_iter().filter(|f| *f != metrics));
        let ran = self.run_files(job, &format!("{}.fail", kind.id()), &files);
        self.finish(job, start, ran)
    }
}
