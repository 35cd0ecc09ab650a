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

pub mod digest;
pub mod trace;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::cli::Reuse;
use crate::config::Stdin;
use crate::plan::{Job, JobKind};
use crate::store::Which;

/// The record's file in the benchmark's directory; the one of a run not yet confirmed (its
/// other tools may still fail) is `inputs.new`.
pub const RECORD: &str = "inputs";

/// The file, in a benchmark's directory, of its fork server's system calls before the fork
/// (`.new` while the run is settled).
pub const SERVER_TRACE: &str = "server.trace";

/// The record's first line.
const HEADER: &str = "benchgrind inputs 1";

/// The states of each benchmark's recorded files as its check found them, before its run: the
/// record of a run that reads a file it also writes holds the state the file had before.
type States = std::collections::HashMap<String, String>;
static BEFORE: std::sync::Mutex<Option<std::collections::HashMap<PathBuf, States>>> =
    std::sync::Mutex::new(None);

/// The most a record keeps of the files a run wrote, to put them back when it is reused.
const OUTPUTS_LIMIT: u64 = 64 << 20;

/// The directory, in the benchmark's, of the files its last run wrote.
const OUTPUTS: &str = "outputs";

/// The machine as the fingerprint describes it, set once for the run.
static MACHINE: OnceLock<String> = OnceLock::new();

/// The package's directory, where library benchmarks run (as under `cargo bench`).
static PACKAGE_DIR: OnceLock<PathBuf> = OnceLock::new();

/// How library benchmarks run (`--isolation`): a fork server's child and a process of its own
/// count the same instructions but not the same cache hits.
static ISOLATION: OnceLock<String> = OnceLock::new();

/// Sets the machine of this run's records (the fingerprint's values but the revision), the
/// package's directory and how library benchmarks run; without them nothing is reused.
pub fn set_run(machine: String, package_dir: PathBuf, isolation: String) {
    let _ = MACHINE.set(machine);
    let _ = PACKAGE_DIR.set(package_dir);
    let _ = ISOLATION.set(isolation);
}

/// Where a library benchmark's measured process runs: the package's directory, or its
/// configured one below it.
pub fn library_cwd(job: &Job) -> PathBuf {
    let package = PACKAGE_DIR.get().cloned().unwrap_or_default();
    match &job.config.current_dir {
        Some(dir) => package.join(dir),
        None => package,
    }
}

/// Whether a job's runs of Callgrind are traced and recorded.
pub fn records(job: &Job) -> bool {
    job.reuse != Reuse::Off
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
    fn write_path(&self, path: &Path) -> String {
        match self
            .sandbox
            .as_deref()
            .and_then(|s| path.strip_prefix(s).ok())
        {
            Some(inner) => format!("{{sandbox}}/{}", inner.display()),
            None => path.display().to_string(),
        }
    }

    fn read_path(&self, text: &str) -> PathBuf {
        match (text.strip_prefix("{sandbox}/"), &self.sandbox) {
            (Some(inner), Some(sandbox)) => sandbox.join(inner),
            _ => PathBuf::from(text),
        }
    }
}

/// What the check of a record found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Every input is as recorded: the results measured then (`YYYY-MM-DDTHH:MM:SSZ`) stand.
    Reuse(String),
    /// The benchmark runs; why.
    Run(String),
}

/// How a run of Callgrind went with respect to reuse (in [`super::RunOutput`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Outcome {
    /// It was measured.
    #[default]
    Measured,
    /// It was not run: its last results, measured then, were put in place of a run's.
    Reused(String),
    /// It was measured under `--verify-reuse`, and its record matched: its counts must be
    /// those measured then.
    Verified(String),
}

/// The entries that do not come from the trace: binaries, Valgrind, machine, job, environment.
fn context(job: &Job, place: &Place) -> Result<Vec<(String, String)>, String> {
    if !job.config.deterministic_random {
        return Err(
            "its random numbers are not fixed (deterministic_random is off), so its \
                    counts can move on every run"
                .into(),
        );
    }
    let machine = MACHINE
        .get()
        .ok_or("the machine's fingerprint is not known")?;
    let mut entries = vec![("machine".to_owned(), machine.clone())];
    entries.push(("bench-binary".into(), bench_binary()?));
    entries.push(("valgrind".into(), valgrind(job)?));
    let mut described = String::new();
    let _ = write!(described, "{}", job.id.full());
    match &job.kind {
        JobKind::Library(index) => {
            let isolation = ISOLATION.get().map_or("", String::as_str);
            let _ = write!(described, " library {index:?} isolation {isolation}");
        }
        JobKind::Binary(binary) => {
            // Not the hooks themselves (addresses): their code is in the bench binary.
            let _ = write!(
                described,
                " binary {:?} setup {} teardown {} sandbox {:?} shared {} exit {:?} entry {:?} hook {:?}",
                binary.command,
                binary.setup.is_some(),
                binary.teardown.is_some(),
                binary.sandbox,
                binary.shared_sandbox,
                binary.exit_with,
                binary.entry_point,
                binary.hook,
            );
        }
    }
    entries.push(("job".into(), described));
    entries.push((
        "callgrind-args".into(),
        super::args::callgrind_args(job).join(" "),
    ));
    let config = &job.config;
    entries.push((
        "config".into(),
        format!(
            "envs {:?} clear {} random {} {} entry {:?} threads {} enable {:?} default {:?} \
             valgrind {:?} sandbox {:?} dir {:?} tools {:?}",
            config.envs,
            config.env_clear,
            config.deterministic_random,
            config.random_seed,
            config.entry_point,
            config.separate_threads,
            config.callgrind_enable,
            config.default_tool,
            config.valgrind_args,
            config.sandbox,
            config.current_dir,
            config.tools,
        ),
    ));
    entries.push(("environment".into(), environment(job)));
    entries.push(("cwd".into(), place.write_path(&place.cwd)));
    entries.extend(place.given.iter().cloned());
    Ok(entries
        .into_iter()
        .map(|(name, value)| (name, value.replace(['\n', '\t'], " ")))
        .collect())
}

/// The bench binary's digest, once per run.
fn bench_binary() -> Result<String, String> {
    static DIGEST: OnceLock<Result<String, String>> = OnceLock::new();
    DIGEST
        .get_or_init(|| {
            let exe = std::env::current_exe().map_err(|e| format!("the bench binary: {e}"))?;
            digest::of_file(&exe).map_err(|e| format!("{}: {e}", exe.display()))
        })
        .clone()
}

/// Valgrind: its version, and the digests of its launcher and of the tools the job runs (in
/// `VALGRIND_LIB`, else `libexec/valgrind` beside the launcher's `bin`).
fn valgrind(job: &Job) -> Result<String, String> {
    let valgrind = super::valgrind::locate().map_err(|e| e.to_string())?;
    let mut text = format!("{:?} {}", valgrind.version, valgrind.path.display());
    let launcher = digest::of_file(&valgrind.path).map_err(|e| e.to_string())?;
    let _ = write!(text, " {launcher}");
    let lib = std::env::var_os("VALGRIND_LIB")
        .map(PathBuf::from)
        .or_else(|| {
            let prefix = valgrind.path.parent()?.parent()?;
            Some(prefix.join("libexec").join("valgrind"))
        });
    let mut tools = vec!["callgrind"];
    tools.extend(job.config.tools.iter().map(|t| match t.kind() {
        crate::config::ValgrindTool::BBV => "exp-bbv",
        kind => kind.id(),
    }));
    let Some(lib) = lib else {
        return Ok(text);
    };
    let Ok(entries) = std::fs::read_dir(&lib) else {
        return Ok(text);
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            tools
                .iter()
                .any(|t| name.starts_with(&format!("{t}-")) && name.ends_with("-linux"))
        })
        .collect();
    files.sort();
    for file in files {
        let digest = digest::of_file(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let _ = write!(text, " {} {digest}", file.display());
    }
    Ok(text)
}

/// Variables that say where values come from, not what is measured: `BENCHGRIND_REVISION`
/// names the commit in summaries (`ab` sets it for the working tree's run).
const PROVENANCE: [&str; 1] = ["BENCHGRIND_REVISION"];

/// The environment the measured process inherits (none if cleared) and the job's variables; not
/// benchgrind's own flags, which the harness reads and the job's other entries reflect.
fn environment(job: &Job) -> String {
    let flags: std::collections::HashSet<&str> = crate::cli::flag_variables().collect();
    // The values of the variables the configuration passes through (`pass_through_envs`), which
    // the configuration itself names without them.
    let passed: Vec<String> = (job.config.envs.iter())
        .filter(|(_, value)| value.is_none())
        .map(|(key, _)| {
            let value = std::env::var_os(key).map(|v| v.to_string_lossy().into_owned());
            format!("{}={value:?}", key.to_string_lossy())
        })
        .collect();
    let mut vars: Vec<(String, String)> = if job.config.env_clear {
        Vec::new()
    } else {
        std::env::vars_os()
            .map(|(k, v)| {
                (
                    k.to_string_lossy().into_owned(),
                    v.to_string_lossy().into_owned(),
                )
            })
            .filter(|(k, _)| !flags.contains(k.as_str()) && !PROVENANCE.contains(&k.as_str()))
            .collect()
    };
    vars.sort();
    let mut digest = digest::Digest::default();
    for (key, value) in &vars {
        digest.field(key.as_bytes());
        digest.field(value.as_bytes());
    }
    for pass in &passed {
        digest.field(pass.as_bytes());
    }
    digest.finish()
}

/// What a path holds now, as the record writes it: `absent`, `dir`, `dir <digest of its
/// entries>` for a directory listed, `file <digest>`, `other`; a symbolic link adds `-> target`.
fn state(path: &Path, listed: bool) -> String {
    let link = std::fs::read_link(path)
        .map(|t| format!(" -> {}", t.display()))
        .unwrap_or_default();
    let held = match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => "absent".to_owned(),
        Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) => "absent".to_owned(),
        Err(e) => format!("unreadable {:?}", e.kind()),
        Ok(meta) if meta.is_dir() && listed => {
            let mut names: Vec<_> = std::fs::read_dir(path)
                .map(|d| d.filter_map(|e| e.ok().map(|e| e.file_name())).collect())
                .unwrap_or_default();
            names.sort();
            let mut digest = digest::Digest::default();
            for name in &names {
                digest.field(name.as_encoded_bytes());
            }
            format!("dir {}", digest.finish())
        }
        Ok(meta) if meta.is_dir() => "dir".to_owned(),
        Ok(meta) if meta.is_file() => match digest::of_file(path) {
            Ok(digest) => format!("file {digest}"),
            Err(e) => format!("unreadable {:?}", e.kind()),
        },
        Ok(_) => "other".to_owned(),
    };
    held + &link
}

/// A file the harness handed to a binary benchmark directly: its program (Valgrind loads it,
/// so the trace does not show it) and its stdin file.
fn handed(job: &Job, place: &Place) -> Vec<PathBuf> {
    let JobKind::Binary(binary) = &job.kind else {
        return Vec::new();
    };
    let mut paths = Vec::new();
    let program = &binary.command.program;
    if program.is_absolute() {
        paths.push(program.clone());
    } else if program.components().count() > 1 {
        paths.push(place.cwd.join(program));
    } else if let Some(found) = super::valgrind::find_in_path(&program.to_string_lossy()) {
        paths.push(found);
    }
    if let Some(Stdin::File(file)) = &binary.command.stdin {
        paths.push(place.cwd.join(file));
    }
    paths
}

/// The files the harness opened for a binary benchmark's output streams (`Stdio::File`).
fn streams(job: &Job, place: &Place) -> Vec<PathBuf> {
    let JobKind::Binary(binary) = &job.kind else {
        return Vec::new();
    };
    [&binary.command.stdout, &binary.command.stderr]
        .into_iter()
        .filter_map(|stream| match stream {
            Some(crate::config::Stdio::File(path)) => Some(place.cwd.join(path)),
            _ => None,
        })
        .collect()
}

/// Checks the job's record against what its inputs hold now.
pub fn check(job: &Job, place: &Place) -> Decision {
    if let Some(why) = &place.unfit {
        return Decision::Run(why.clone());
    }
    let path = job.paths.dir.join(RECORD);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Decision::Run("no record of its inputs yet".into());
    };
    let mut lines = text.lines();
    if lines.next() != Some(HEADER) {
        return Decision::Run("its record was written by another version".into());
    }
    let Some(measured) = lines.next().and_then(|l| l.strip_prefix("measured\t")) else {
        return Decision::Run("its record has no date".into());
    };
    let context = match context(job, place) {
        Ok(context) => context,
        Err(why) => return Decision::Run(why),
    };
    let mut expected = context.iter();
    // Every file's state is taken, also after a first difference: they are the states before
    // the run, which the next record needs for the files the run both reads and writes.
    let mut before = std::collections::HashMap::new();
    let mut changed = None;
    for line in lines {
        let mut fields = line.splitn(3, '\t');
        let (kind, name, value) = (fields.next(), fields.next(), fields.next().unwrap_or(""));
        match (kind, name) {
            (Some("unfit"), Some(why)) => return Decision::Run(why.to_owned()),
            (Some("input"), Some(name)) => match expected.next() {
                Some((n, v)) if n == name && v == value => {}
                Some((n, _)) if n == name => return Decision::Run(format!("its {name} changed")),
                _ => return Decision::Run("its record lists other inputs".into()),
            },
            (Some("file"), Some(name)) => {
                let listed = value.starts_with("dir ");
                let now = state(&place.read_path(name), listed);
                if now != value && changed.is_none() {
                    changed = Some(format!("{name} changed"));
                }
                before.insert(name.to_owned(), now);
            }
            (Some("output"), Some(_)) => {}
            _ => return Decision::Run("its record cannot be read".into()),
        }
    }
    BEFORE
        .lock()
        .expect("not poisoned")
        .get_or_insert_with(Default::default)
        .insert(job.paths.dir.clone(), before);
    if let Some(changed) = changed {
        return Decision::Run(changed);
    }
    if expected.next().is_some() {
        return Decision::Run("its record lists other inputs".into());
    }
    // The results it would report must all be there.
    let mut files = vec![
        job.paths.file("callgrind.out", Which::Current),
        job.paths.file("callgrind.log", Which::Current),
    ];
    for tool in &job.config.tools {
        for name in tool.kind().files() {
            files.push(job.paths.file(&name, Which::Current));
        }
    }
    if let Some(missing) = files.iter().find(|f| !f.exists()) {
        return Decision::Run(format!("its last result {} is gone", missing.display()));
    }
    Decision::Reuse(measured.to_owned())
}

/// The record of a run that ended well, from Valgrind's logs of its measured process (in
/// order: a fork server's before its child's), written as `inputs.new` until the run is
/// confirmed ([`confirm`]).
pub fn write_pending(job: &Job, place: &Place, logs: &[String]) {
    let text = record(job, place, logs);
    pending(job, &text);
}

/// A pending record that says why the run cannot be reused.
pub fn write_unfit(job: &Job, why: &str) {
    let text = format!("{}unfit\t{}\n", head(), why.replace(['\n', '\t'], " "));
    pending(job, &text);
}

fn pending(job: &Job, text: &str) {
    let path = job.paths.file(RECORD, Which::New);
    if let Err(e) = crate::store::write_atomic(&path, text.as_bytes()) {
        crate::messages::debug!("{}: no record of inputs: {e}", job.id.full());
    }
}

/// The record's first two lines: what it is and when its results were measured (now).
fn head() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format!("{HEADER}\nmeasured\t{}\n", crate::dates::utc_date(now))
}

/// Under `--verify-reuse`, after the run: the entries of the new record (pending) that the last
/// one (`inputs.old` since the run began) lacks or holds otherwise, said as ` (this run's record differs in ...)`, or
/// nothing.
pub fn record_difference(job: &Job) -> String {
    let read = |path: PathBuf| std::fs::read_to_string(path).unwrap_or_default();
    let old = read(job.paths.file(RECORD, Which::Old));
    let new = read(job.paths.file(RECORD, Which::New));
    let old: std::collections::HashSet<&str> = old.lines().skip(2).collect();
    let differing: Vec<&str> = new
        .lines()
        .skip(2)
        .filter(|l| !old.contains(l))
        .map(|l| l.split('\t').nth(1).unwrap_or(l))
        .take(5)
        .collect();
    if differing.is_empty() {
        String::new()
    } else {
        format!(" (this run's record differs in: {})", differing.join(", "))
    }
}

fn record(job: &Job, place: &Place, logs: &[String]) -> String {
    // benchgrind's own files: its output directory, four levels above the benchmark's.
    let home = job
        .paths
        .dir
        .ancestors()
        .nth(4)
        .unwrap_or(&job.paths.dir)
        .to_owned();
    let home = home.as_path();
    let mut text = head();
    let unfit = |text: &mut String, why: &str| {
        let _ = writeln!(text, "unfit\t{}", why.replace(['\n', '\t'], " "));
    };
    if let Some(why) = &place.unfit {
        unfit(&mut text, why);
        return text;
    }
    let context = match context(job, place) {
        Ok(context) => context,
        Err(why) => {
            unfit(&mut text, &why);
            return text;
        }
    };
    for (name, value) in &context {
        let _ = writeln!(text, "input\t{name}\t{value}");
    }
    let mut tracer = trace::Tracer::new(&place.cwd);
    for log in logs {
        tracer.log(log);
    }
    let traced = tracer.finish();
    if let Some(why) = &traced.unplaced {
        unfit(&mut text, why);
        return text;
    }
    // benchgrind's own: the benchmark's files, the preload library (its bytes are in the bench
    // binary) and the fork servers' files. Not the rest of the home, which may hold anything.
    let own = |path: &Path| {
        path.starts_with(&job.paths.dir)
            || path.starts_with(home.join(super::preload::DIR))
            || path.starts_with(home.join(super::leftovers::SERVERS))
    };
    let in_sandbox = |path: &Path| {
        place
            .sandbox
            .as_deref()
            .is_some_and(|s| path.starts_with(s))
    };
    if let Some(changed) = traced.changed.iter().find(|p| !own(p) && !in_sandbox(p)) {
        unfit(
            &mut text,
            &format!(
                "it changes {}, which the next run would see",
                changed.display()
            ),
        );
        return text;
    }
    let mut files: std::collections::BTreeMap<PathBuf, bool> = traced.inputs;
    for path in handed(job, place) {
        files.entry(path).or_insert(false);
    }
    let before = BEFORE
        .lock()
        .expect("not poisoned")
        .as_mut()
        .and_then(|b| b.remove(&job.paths.dir))
        .unwrap_or_default();
    for (path, listed) in &files {
        if own(path) {
            continue;
        }
        let name = place.write_path(path);
        if name.contains(['\n', '\t']) {
            unfit(&mut text, "a path it reads holds a newline or a tab");
            return text;
        }
        let held = if traced.written.contains(path) {
            // What it read is what the file held before the run, which the check saw if the
            // last record listed it; otherwise the next run finds out.
            before
                .get(&name)
                .cloned()
                .unwrap_or_else(|| "unknown before its run".to_owned())
        } else {
            state(path, *listed)
        };
        let _ = writeln!(text, "file\t{name}\t{held}");
    }
    // What it wrote, kept to be put back when it is reused (a teardown may read it): the files
    // it created and the files the harness opened for its output streams.
    let outputs = job.paths.file(OUTPUTS, Which::New);
    let _ = std::fs::remove_dir_all(&outputs);
    let mut kept = 0u64;
    let streams = streams(job, place);
    let mut written = traced.written;
    written.extend(streams.iter().cloned());
    for (i, path) in written.iter().filter(|p| !own(p)).enumerate() {
        let Ok(meta) = std::fs::metadata(path) else {
            continue;
        };
        kept += meta.len();
        if !meta.is_file() || kept > OUTPUTS_LIMIT {
            unfit(
                &mut text,
                &format!("it writes {}, which is too large to keep", path.display()),
            );
            return text;
        }
        let copied = std::fs::create_dir_all(&outputs)
            .and_then(|()| std::fs::copy(path, outputs.join(i.to_string())));
        if let Err(e) = copied {
            unfit(
                &mut text,
                &format!("{} could not be kept: {e}", path.display()),
            );
            return text;
        }
        // Put back always where only this benchmark sees it (its sandbox, a stream the harness
        // opened afresh for it); elsewhere only when it is gone: another benchmark may write
        // the same file, and putting its old contents back would change that one's input.
        let when = if in_sandbox(path) || streams.contains(path) {
            "always"
        } else {
            "if-absent"
        };
        let _ = writeln!(text, "output\t{}\t{i} {when}", place.write_path(path));
    }
    text
}

/// When a benchmark is reused: the files its last run wrote are put back, as a run would have
/// written them (before its teardown, which may read them): always in its sandbox and for the
/// streams the harness opened for it, elsewhere when they are gone.
pub fn restore_outputs(job: &Job, place: &Place) -> std::io::Result<()> {
    let text = std::fs::read_to_string(job.paths.dir.join(RECORD))?;
    let outputs = job.paths.dir.join(OUTPUTS);
    for line in text.lines() {
        let mut fields = line.splitn(3, '\t');
        if let (Some("output"), Some(name), Some(kept)) =
            (fields.next(), fields.next(), fields.next())
        {
            let (kept, when) = kept.split_once(' ').unwrap_or((kept, "always"));
            let path = place.read_path(name);
            if when == "if-absent" && path.symlink_metadata().is_ok() {
                continue;
            }
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::copy(outputs.join(kept), &path)?;
        }
    }
    Ok(())
}

/// After a run whose every tool ended well: its pending record becomes the record.
pub fn confirm(job: &Job) {
    let pending = job.paths.file(RECORD, Which::New);
    if pending.exists() {
        let outputs = job.paths.dir.join(OUTPUTS);
        let _ = std::fs::remove_dir_all(&outputs);
        let _ = std::fs::rename(job.paths.file(OUTPUTS, Which::New), &outputs);
        let _ = std::fs::rename(&pending, job.paths.dir.join(RECORD));
    }
}

/// Before a run that measures: the record no longer describes the results it will leave (a run
/// that fails leaves the last results but not their record).
pub fn forget(job: &Job) {
    // Kept as `inputs.old` for `--verify-reuse` to say how the new record differs.
    let _ = std::fs::rename(
        job.paths.dir.join(RECORD),
        job.paths.file(RECORD, Which::Old),
    );
    let _ = std::fs::remove_file(job.paths.file(RECORD, Which::New));
    let _ = std::fs::remove_dir_all(job.paths.file(OUTPUTS, Which::New));
}

/// Puts the last results in place of a run's: each current file is copied to its `.new`, which
/// the harness then reads and rotates as a run's.
pub fn restore(job: &Job, names: &[String]) -> std::io::Result<()> {
    for name in names {
        std::fs::copy(
            job.paths.file(name, Which::Current),
            job.paths.file(name, Which::New),
        )?;
    }
    Ok(())
}

/// Takes the system calls out of a log Valgrind wrote with [`super::args::TRACE_SYSCALLS`]: the log is rewritten
/// as it would have been without them; the calls are returned.
pub fn take_trace(log: &Path) -> String {
    let Ok(text) = std::fs::read_to_string(log) else {
        return String::new();
    };
    if !text.contains("SYSCALL[") {
        return String::new();
    }
    let (mut calls, mut rest) = (String::new(), String::new());
    for line in text.split_inclusive('\n') {
        // A result printed on a line of its own (` --> [pre-success] ...`) is part of a call.
        if line.starts_with("SYSCALL[") || line.starts_with(" --> ") {
            calls.push_str(line);
        } else {
            rest.push_str(line);
        }
    }
    let _ = crate::store::write_atomic(log, rest.as_bytes());
    calls
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_leaves_the_log_as_valgrind_writes_it_without_one() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("callgrind.log");
        std::fs::write(
            &log,
            "==1== Command: prog\n==1== \n --> [pre-success] Success(0x0) \n\
             SYSCALL[1,1](3) sys_close ( 100 )[sync] --> Success(0x0) \n==1== Events : Ir\n",
        )
        .unwrap();
        let calls = take_trace(&log);
        assert_eq!(
            std::fs::read_to_string(&log).unwrap(),
            "==1== Command: prog\n==1== \n==1== Events : Ir\n"
        );
        assert_eq!(calls.lines().count(), 2);
    }

    #[test]
    fn paths_in_the_sandbox_are_written_relative_to_it() {
        let place = Place {
            sandbox: Some(PathBuf::from("/tmp/sandbox-1")),
            ..Place::default()
        };
        assert_eq!(
            place.write_path(Path::new("/tmp/sandbox-1/a/b")),
            "{sandbox}/a/b"
        );
        assert_eq!(place.write_path(Path::new("/etc/x")), "/etc/x");
        let next = Place {
            sandbox: Some(PathBuf::from("/tmp/sandbox-2")),
            ..Place::default()
        };
        assert_eq!(
            next.read_path("{sandbox}/a/b"),
            Path::new("/tmp/sandbox-2/a/b")
        );
    }

    #[test]
    fn states_tell_absent_files_directories_and_contents_apart() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        assert_eq!(state(&file, false), "absent");
        assert_eq!(state(&file.join("below"), false), "absent");
        std::fs::write(&file, "a").unwrap();
        let one = state(&file, false);
        std::fs::write(&file, "b").unwrap();
        assert_ne!(state(&file, false), one);
        assert_eq!(state(dir.path(), false), "dir");
        let listed = state(dir.path(), true);
        std::fs::write(dir.path().join("g"), "").unwrap();
        assert_ne!(state(dir.path(), true), listed);
    }
}
