//! Stage 3 with a fork server: one Valgrind process per class of benchmarks (same Valgrind
//! arguments and environment) runs the bench binary as [`crate::measured`]'s server, which forks
//! a child per benchmark. Valgrind's start-up (about 0.2-0.3 s) is paid once per server instead
//! of once per benchmark, and every child starts from the same parent state.
//!
//! Binary benchmarks and `--isolation=process` go to the [`ProcessExecutor`].

use crate::error::FileResult;
use crate::error::Problem;
use crate::problem;
use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::time::Instant;

use super::ended::{describe_end, valgrind_error};
use super::executor::{Captured, Executor, RunOutput, Status};
use super::process::ProcessExecutor;
use crate::config::Tool;
use crate::plan::{Job, JobKind};
use crate::protocol::{self, End, CAPTURE_FILES, SERVER_FLAG};
use crate::store::Which;

/// What makes two benchmarks able to share a server.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Class {
    args: Vec<String>,
    envs: Vec<(OsString, Option<OsString>)>,
    env_clear: bool,
}

/// A running server.
struct Server {
    child: Child,
    requests: ChildStdin,
    answers: BufReader<ChildStdout>,
    /// Where Valgrind writes the children's profiles and logs (`%p` in the names).
    dir: PathBuf,
    /// The number of the last request.
    sequence: u64,
    /// Which server of the run this is (a stopped server's requests are not another's).
    id: usize,
    /// When the last answer came: a request sent before it started running then.
    last_answer: Instant,
    /// Its system calls before its first child, once read ([`server_calls`]).
    start_up: Option<String>,
}

/// A request sent to a server and not answered yet: the server runs it when those before it are
/// done ([`ForkExecutor::send`]).
struct Sent {
    /// The benchmark's directory, which names the job.
    dir: PathBuf,
    class: Class,
    server: usize,
    seq: u64,
    at: Instant,
}

/// Runs library benchmarks in fork servers, everything else in its own process.
pub struct ForkExecutor {
    /// Starts Valgrind and runs binary benchmarks.
    pub process: ProcessExecutor,
    /// Where server directories are made.
    pub home: PathBuf,
    servers: HashMap<Class, Server>,
    /// Requests sent and not answered yet, oldest first.
    sent: Vec<Sent>,
    /// Answers read while waiting for another request's, by server and sequence number, with
    /// when each started and came: a benchmark measured again (its processes' turns moved, a rerun) is
    /// sent behind the requests sent ahead of it, whose answers come first.
    early: HashMap<(usize, u64), (protocol::Answer, Instant, Instant)>,
}

impl ForkExecutor {
    /// An executor that starts servers lazily, one per class.
    pub fn new(process: ProcessExecutor, home: PathBuf) -> ForkExecutor {
        ForkExecutor {
            process,
            home,
            servers: HashMap::new(),
            sent: Vec::new(),
            early: HashMap::new(),
        }
    }

    fn class(&self, job: &Job) -> Class {
        Class {
            args: self.process.valgrind_args(job),
            envs: job.config.envs.clone(),
            env_clear: job.config.env_clear,
        }
    }

    fn start_server(&self, job: &Job) -> Result<Server, Problem> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = (self.home.join(super::leftovers::SERVERS))
            .join(format!("{}-{id}", std::process::id()));
        // Twice: another run may remove the empty parent between its creation and the server's.
        std::fs::create_dir_all(&dir)
            .or_else(|_| std::fs::create_dir_all(&dir))
            .file_op("create", &dir)?;
        let files = super::args::raw_file_args(&dir);
        let mut cmd = self
            .process
            .valgrind_command(job, &files, &self.process.exe);
        self.process.bind_now(job, &mut cmd);
        cmd.arg(SERVER_FLAG)
            .current_dir(&self.process.cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        crate::messages::debug!("server for {}: {:?}", job.id.full(), cmd);
        let mut child = cmd.spawn().map_err(|e| {
            super::ended::cannot_start(self.process.launcher.valgrind_path(), &self.process.cwd, &e)
        })?;
        let requests = child.stdin.take().expect("stdin is piped");
        let answers = BufReader::new(child.stdout.take().expect("stdout is piped"));
        Ok(Server {
            child,
            requests,
            answers,
            dir,
            sequence: 0,
            id,
            last_answer: Instant::now(),
            start_up: None,
        })
    }

    /// The bench a fork server runs for `job`, if one does: a library benchmark, on a target
    /// with client requests, without a sandbox or working directory of its own (which need a
    /// process of their own).
    fn served(job: &Job) -> Option<[usize; 3]> {
        match &job.kind {
            JobKind::Library(index)
                if crate::client_request::SUPPORTED
                    && job.config.sandbox.as_ref().map_or(true, |s| !s.enabled)
                    && job.config.current_dir.is_none() =>
            {
                Some(*index)
            }
            _ => None,
        }
    }

    /// Starts the class's server unless it runs.
    fn ensure_server(&mut self, class: &Class, job: &Job) -> Result<(), Problem> {
        if !self.servers.contains_key(class) {
            let server = self.start_server(job)?;
            self.servers.insert(class.clone(), server);
        }
        Ok(())
    }

    /// Sends the request to run the bench at `index` to the class's server (started if need
    /// be), which runs it when the requests before it are done; the server's start-up is not
    /// the benchmark's time.
    fn send(&mut self, job: &Job, index: [usize; 3]) -> Result<(), Problem> {
        let class = self.class(job);
        self.ensure_server(&class, job)?;
        let paths = &job.paths;
        std::fs::create_dir_all(&paths.dir).file_op("create", &paths.dir)?;
        // Files of an earlier run must not pass for this run's output.
        for name in CAPTURE_FILES {
            let _ = std::fs::remove_file(paths.dir.join(name));
        }
        let server = self.servers.get_mut(&class).expect("just started");
        let seed = (job.config.deterministic_random).then_some(job.config.random_seed);
        server.sequence += 1;
        let request = protocol::request(
            server.sequence,
            index,
            seed,
            paths.dir.as_os_str().as_bytes(),
        );
        let written = (server.requests.write_all(&request)).and_then(|()| server.requests.flush());
        let (id, seq) = (server.id, server.sequence);
        if let Err(e) = written {
            self.stop(&class);
            return Err(problem!("cannot send the fork server a request: {e}"));
        }
        self.sent.push(Sent {
            dir: paths.dir.clone(),
            class,
            server: id,
            seq,
            at: Instant::now(),
        });
        Ok(())
    }

    /// Runs the bench at `index`: waits for the answer to the request sent for it (sending one
    /// first if none was, or if the server it went to has stopped since), then settles its files.
    fn receive(&mut self, job: &Job, index: [usize; 3]) -> RunOutput {
        let failed = |reason: String| RunOutput {
            status: Status::Failed(reason),
            duration: std::time::Duration::ZERO,
            output: Captured::default(),
            reuse: Default::default(),
        };
        // A request that went to a server stopped since (killed at another's time limit) is
        // lost: sent again.
        let position = self.sent.iter().position(|s| s.dir == job.paths.dir);
        let queued = position.map(|i| self.sent.remove(i)).filter(|sent| {
            (self.servers.get(&sent.class)).is_some_and(|server| server.id == sent.server)
        });
        let sent = match queued {
            Some(sent) => sent,
            None => {
                if let Err(e) = self.send(job, index) {
                    return failed(e.into());
                }
                self.sent.pop().expect("just sent")
            }
        };
        let (status, duration) = self.answer(job, &sent);
        RunOutput {
            status,
            duration,
            output: read_capture(job),
            reuse: Default::default(),
        }
    }

    /// The answer to `sent`, and how long the server ran it.
    fn answer(&mut self, job: &Job, sent: &Sent) -> (Status, std::time::Duration) {
        let paths = &job.paths;
        let class = sent.class.clone();
        let Some(server) = self.servers.get_mut(&class) else {
            return (
                Status::Failed("the fork server stopped".into()),
                Default::default(),
            );
        };
        // It started when both it was sent and the request before it was answered.
        let mut started = sent.at.max(server.last_answer);
        let (answered, now) = match self.early.remove(&(sent.server, sent.seq)) {
            Some((answered, began, came)) => {
                started = began;
                (answered, came)
            }
            None => match self.next_answer(job, sent, started) {
                Ok(answered) => answered,
                Err(lost) => return (Status::Failed(lost.to_string()), started.elapsed()),
            },
        };
        let duration = now.saturating_duration_since(started);
        let Some(server) = self.servers.get_mut(&class) else {
            return (Status::Failed("the fork server stopped".into()), duration);
        };
        let server_dir = server.dir.clone();
        if super::reuse::Records::recording(job) {
            // Read from the server's log once: every child inherits the same start-up.
            if let Some(server) = self.servers.get_mut(&class) {
                let calls = (server.start_up)
                    .get_or_insert_with(|| server_calls(&server_dir, answered.pid));
                let trace = paths.file(super::reuse::SERVER_TRACE, Which::New);
                let _ = std::fs::write(trace, calls.as_bytes());
            }
        }
        // The child's profiles and those of the processes it started; a child that crashed
        // before writing its profile still has a log.
        let profile = super::parts::settle(&server_dir, answered.pid, paths);
        let status = match answered.end {
            End::Exit(0) => match profile {
                Ok(()) => Status::Ok,
                Err(e) => Status::Failed(e.into()),
            },
            end => {
                let stderr =
                    std::fs::read_to_string(paths.dir.join(CAPTURE_FILES[1])).unwrap_or_default();
                // The server's answer as the wait status it reports.
                use std::os::unix::process::ExitStatusExt;
                let status = match end {
                    End::Signal(signal) => std::process::ExitStatus::from_raw(signal & 0x7f),
                    End::Exit(code) => std::process::ExitStatus::from_raw((code & 0xff) << 8),
                };
                Status::Failed(describe_end(&status, &stderr))
            }
        };
        (status, duration)
    }

    /// Reads the server's answers until the one to `sent` (keeping those to requests sent ahead
    /// of it for their turn), watching the limits of the run that began at `started`; says why
    /// it gave up (the server stopped, at a limit or out of step: it is stopped).
    fn next_answer(
        &mut self,
        job: &Job,
        sent: &Sent,
        started: Instant,
    ) -> Result<(protocol::Answer, Instant), Lost> {
        let class = &sent.class;
        let limits = super::watch::Limits::of(&job.config);
        loop {
            let Some(server) = self.servers.get_mut(class) else {
                return Err(Lost::Stopped(None));
            };
            let group = server.child.id();
            if let Some(stopped) = await_answer(&server.answers, group, limits, started) {
                // The child runs in the server's process group, with what it started: `stop`
                // kills them all (and with them the requests sent after it, which are sent
                // again).
                self.stop(class);
                return Err(Lost::Limit(stopped));
            }
            let mut answer = String::new();
            let exchanged = server.answers.read_line(&mut answer);
            let now = Instant::now();
            let before = server.last_answer;
            server.last_answer = now;
            if !matches!(exchanged, Ok(n) if n > 0) {
                let log = newest_log(&server.dir).unwrap_or_default();
                self.stop(class);
                return Err(Lost::Stopped(valgrind_error(&log)));
            }
            let Some(answered) = protocol::parse_answer(&answer) else {
                self.stop(class);
                return Err(Lost::Garbled(answer.trim().to_owned()));
            };
            if answered.seq == sent.seq {
                return Ok((answered, now));
            }
            let ahead = (self.sent.iter())
                .find(|other| other.server == sent.server && other.seq == answered.seq);
            let Some(ahead) = ahead else {
                // Out of step: nothing it says can be trusted any more.
                self.stop(class);
                return Err(Lost::OutOfStep {
                    answered: answered.seq,
                    awaited: sent.seq,
                });
            };
            let began = ahead.at.max(before);
            (self.early).insert((sent.server, answered.seq), (answered, began, now));
        }
    }

    fn stop(&mut self, class: &Class) {
        if let Some(server) = self.servers.get(class) {
            let id = server.id;
            self.early.retain(|&(server, _), _| server != id);
        }
        if let Some(mut server) = self.servers.remove(class) {
            drop(server.requests);
            // Its process group goes with it: a server stopped at a limit or out of step may still
            // run a child (one that sleeps, say), and the wait must not hang on it.
            // SAFETY: a signal to the process group of a server this executor started.
            unsafe { libc::killpg(server.child.id() as libc::pid_t, libc::SIGKILL) };
            let _ = server.child.wait();
            let _ = std::fs::remove_dir_all(&server.dir);
        }
    }
}

/// The system calls the server made before it forked the child `pid` (its start-up, which
/// every child inherits: the libraries it loaded, the files it read), from its log, for the
/// children's records of inputs ([`super::reuse`]), which get them in `server.trace.new`.
fn server_calls(server_dir: &Path, pid: u32) -> String {
    let log = |pid: u32| server_dir.join(super::parts::LOG_PATTERN.replace("%p", &pid.to_string()));
    super::parts::parent_pid(&log(pid))
        .and_then(|server| std::fs::read_to_string(log(server)).ok())
        .map(|text| {
            let calls = text.lines().filter(|l| l.starts_with("SYSCALL["));
            calls.flat_map(|l| [l, "\n"]).collect::<String>()
        })
        .unwrap_or_default()
}

/// Why no answer came from a fork server (it is stopped then).
#[derive(Debug)]
enum Lost {
    /// It had stopped, or stopped now; what Valgrind said, if it said something.
    Stopped(Option<String>),
    /// The run went past a limit.
    Limit(super::watch::Stopped),
    /// It wrote something that is not an answer.
    Garbled(String),
    /// It answered another request than the one awaited: nothing it says can be trusted.
    OutOfStep {
        /// The request it answered.
        answered: u64,
        /// The request awaited.
        awaited: u64,
    },
}

impl std::fmt::Display for Lost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Lost::Stopped(None) => f.write_str("the fork server stopped"),
            Lost::Stopped(Some(e)) => write!(f, "the fork server stopped; Valgrind said: {e}"),
            Lost::Limit(stopped) => f.write_str(&stopped.reason()),
            Lost::Garbled(answer) => write!(f, "the fork server answered `{answer}`"),
            Lost::OutOfStep { answered, awaited } => write!(
                f,
                "the fork server answered request {answered} to request {awaited}"
            ),
        }
    }
}

/// Waits until the server answers (or closes its answers); says why it gave up instead when the
/// run that began at `started` goes past one of `limits`: its wall time past the configured
/// timeout, or the server's process `group` (the child runs in it) all asleep for the stall
/// limit ([`super::watch::Progress`]).
fn await_answer(
    answers: &BufReader<ChildStdout>,
    group: u32,
    limits: super::watch::Limits,
    started: Instant,
) -> Option<super::watch::Stopped> {
    use std::os::unix::io::AsRawFd;
    if !answers.buffer().is_empty() {
        return None;
    }
    let mut watching = super::watch::Watching::new(group, limits, started);
    loop {
        let mut fd = libc::pollfd {
            fd: answers.get_ref().as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = watching.wait().as_millis().clamp(1, i32::MAX as u128) as i32;
        // SAFETY: one valid pollfd on the stack.
        let n = unsafe { libc::poll(&mut fd, 1, ms) };
        if n > 0 {
            // Readable, or closed (a dead server): the read says which.
            return None;
        }
        let interrupted =
            n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted;
        if n < 0 && !interrupted {
            return None;
        }
        if n == 0 {
            if let Some(stopped) = watching.step() {
                return Some(stopped);
            }
        }
    }
}

/// What the server's child wrote to its capture files; they stay for the user to read.
fn read_capture(job: &Job) -> Captured {
    Captured::from_files(CAPTURE_FILES.map(|name| job.paths.dir.join(name)))
}

/// The newest log in a server directory, for a server that died.
fn newest_log(dir: &Path) -> Option<String> {
    let newest = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".log"))
        .max_by_key(|e| e.metadata().and_then(|m| m.modified()).ok())?;
    std::fs::read_to_string(newest.path()).ok()
}

impl Executor for ForkExecutor {
    fn start(&mut self, job: &Job) -> bool {
        match Self::served(job) {
            Some(index) => self.send(job, index).is_ok(),
            None => false,
        }
    }

    fn run(&mut self, job: &Job) -> RunOutput {
        match Self::served(job) {
            Some(index) => self.receive(job, index),
            None => self.process.run(job),
        }
    }

    fn run_tool(&mut self, job: &Job, tool: &Tool) -> RunOutput {
        self.process.run_tool(job, tool)
    }

    fn run_perf(
        &mut self,
        job: &Job,
        spec: &crate::perf::samples::Spec,
        out: &std::path::Path,
    ) -> RunOutput {
        self.process.run_perf(job, spec, out)
    }

    fn exact_threads(&self) -> bool {
        self.process.exact_threads()
    }

    fn exact_pids(&self) -> bool {
        self.process.exact_pids()
    }
}

impl Drop for ForkExecutor {
    fn drop(&mut self) {
        let classes: Vec<Class> = self.servers.keys().cloned().collect();
        for class in classes {
            self.stop(&class);
        }
        // Gone once empty (another run's servers keep it).
        let _ = std::fs::remove_dir(self.home.join(super::leftovers::SERVERS));
    }
}
