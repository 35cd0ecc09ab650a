//! What a benchmark's inputs are now, as its record writes them: the entries that do not come
//! from Valgrind's trace ([`context`]: the machine, the bench binary, Valgrind, the job and the
//! environment), the state of a path ([`state`]) and the files the harness handed the benchmark
//! itself ([`handed`], [`streams`]).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::digest;
use super::place::{Place, Run};
use super::record::clean;
use super::Reason;
use crate::config::Stdin;
use crate::error::FileResult;
use crate::plan::{Job, JobKind};

/// The entries that do not come from the trace: machine, binaries, Valgrind, job, environment.
pub(super) fn context(
    run: &Run,
    job: &Job,
    place: &Place,
) -> Result<Vec<(String, String)>, Reason> {
    if !job.config.deterministic_random {
        return Err(Reason::RandomNotFixed);
    }
    let mut entries = vec![("machine".to_owned(), run.machine.clone())];
    entries.push(("bench-binary".into(), run.bench_binary()?));
    entries.push(("valgrind".into(), valgrind_entry(run, job)?));
    let mut described = String::new();
    let _ = write!(described, "{}", job.id.full());
    match &job.kind {
        JobKind::Library(index) => {
            let isolation = &run.isolation;
            let _ = write!(described, " library {index:?} isolation {isolation:?}");
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
        crate::execute::args::callgrind_args(job).join(" "),
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
        .map(|(name, value)| (name, clean(&value)))
        .collect())
}

/// [`valgrind`]'s entry, made once per run for each set of tools.
fn valgrind_entry(run: &Run, job: &Job) -> Result<String, Reason> {
    let tools: Vec<String> = (job.config.tools.iter())
        .map(|t| t.kind().id().to_owned())
        .collect();
    let mut made = (run.valgrind_entries.lock()).unwrap_or_else(std::sync::PoisonError::into_inner);
    (made.entry(tools))
        .or_insert_with(|| valgrind(run, job))
        .clone()
}

/// Valgrind: its version, and the digests of its launcher and of the tools the job runs (in
/// `VALGRIND_LIB`, else `libexec/valgrind` beside the launcher's `bin`).
fn valgrind(run: &Run, job: &Job) -> Result<String, Reason> {
    let valgrind = &run.valgrind;
    let mut text = format!("{:?} {}", valgrind.version, valgrind.path.display());
    let launcher = (run.files.of(&valgrind.path)).file_op("digest", &valgrind.path)?;
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
        let digest = run.files.of(&file).file_op("digest", &file)?;
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
pub(super) fn state(files: &digest::Files, path: &Path, listed: bool) -> String {
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
        Ok(meta) if meta.is_file() => match files.of(path) {
            Ok(digest) => format!("file {digest}"),
            Err(e) => format!("unreadable {:?}", e.kind()),
        },
        Ok(_) => "other".to_owned(),
    };
    held + &link
}

/// A file the harness handed to a binary benchmark directly: its program (Valgrind loads it,
/// so the trace does not show it) and its stdin file.
pub(super) fn handed(job: &Job, place: &Place) -> Vec<PathBuf> {
    let JobKind::Binary(binary) = &job.kind else {
        return Vec::new();
    };
    let mut paths = Vec::new();
    let program = &binary.command.program;
    if program.is_absolute() {
        paths.push(program.clone());
    } else if program.components().count() > 1 {
        paths.push(place.cwd.join(program));
    } else if let Some(found) = crate::execute::valgrind::find_in_path(&program.to_string_lossy()) {
        paths.push(found);
    }
    if let Some(Stdin::File(file)) = &binary.command.stdin {
        paths.push(place.cwd.join(file));
    }
    paths
}

/// The files the harness opened for a binary benchmark's output streams (`Stdio::File`).
pub(super) fn streams(job: &Job, place: &Place) -> Vec<PathBuf> {
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
