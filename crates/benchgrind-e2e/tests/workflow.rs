//! The workflow template (`templates/github/benchmarks.yml`) run here step by step as GitHub Actions
//! would run it (issue 35): its jobs and steps read from the YAML, their `if`s and `${{ }}`
//! expressions evaluated, its `run` steps run by bash, the actions it uses (checkout, cache,
//! artifacts) done on the file system with GitHub's semantics, and `gh`, `sudo`, `apt-get` and
//! `cargo install` faked (the `gh` records the comments it is asked to post).
//!
//! The story: main's pushes save the shares' baselines keyed by commit; main then moves on with
//! a commit that makes a benchmark slower; a pull request branched before it changes nothing
//! measured. Compared with its merge base the report is unchanged (the tip of main would not
//! be); with the merge base's baselines gone it fails closed (exit 4, every benchmark
//! uncompared); the `ab` way, chosen by the repository variable, does the same in one job.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{cli, target_dir};
use yaml_rust2::{Yaml, YamlLoader};

#[path = "workflow/expressions.rs"]
mod expressions;
use expressions::{substitute, truthy, Expr};

// ---- a runner of one job ----

/// What stays between jobs: the caches, the artifacts of the current workflow run, the
/// comments posted, and the fake programs.
struct World {
    repo: PathBuf,
    caches: PathBuf,
    artifacts: PathBuf,
    fakes: PathBuf,
    gh_log: PathBuf,
    workflow: Yaml,
}

/// How a job ended: each step's name and exit status (`None`: skipped).
#[derive(Debug)]
struct JobEnd {
    ran: bool,
    steps: Vec<(String, Option<i32>)>,
}

impl JobEnd {
    fn passed(&self) -> bool {
        self.steps.iter().all(|(_, s)| matches!(s, None | Some(0)))
    }

    fn status_of(&self, step: &str) -> Option<i32> {
        self.steps.iter().find(|(n, _)| n == step).and_then(|s| s.1)
    }
}

fn text(yaml: &Yaml) -> Option<String> {
    match yaml {
        Yaml::String(s) => Some(s.clone()),
        Yaml::Integer(n) => Some(n.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

fn git(repo: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .args(["-c", "user.name=wf", "-c", "user.email=wf@example.invalid"])
        .args(args)
        .current_dir(repo)
        .output()
        .expect("git runs");
    assert!(output.status.success(), "git {args:?}");
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    let status = Command::new("cp")
        .arg("-a")
        .arg(format!("{}/.", from.display()))
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
}

impl World {
    /// Runs job `name` on a fresh machine (the repository's untracked outputs removed) with the
    /// context given (`github.*`, `vars.*`, `matrix.*`).
    fn job(&self, name: &str, context: &BTreeMap<String, String>) -> JobEnd {
        let job = &self.workflow["jobs"][name];
        assert!(!job.is_badvalue(), "no job `{name}`");
        let mut context = context.clone();
        let mut env = BTreeMap::new();
        if let Yaml::Hash(vars) = &self.workflow["env"] {
            for (k, v) in vars {
                let value = substitute(&text(v).unwrap(), &context);
                context.insert(format!("env.{}", text(k).unwrap()), value.clone());
                env.insert(text(k).unwrap(), value);
            }
        }
        if let Some(condition) = text(&job["if"]) {
            if !truthy(&Expr::eval(&condition, &context)) {
                return JobEnd {
                    ran: false,
                    steps: Vec::new(),
                };
            }
        }
        // A fresh machine: only what the checkout brings.
        for dir in ["target", "benchgrind-ci"] {
            let _ = std::fs::remove_dir_all(self.repo.join(dir));
        }
        let mut steps = Vec::new();
        let mut failed = false;
        for step in job["steps"].as_vec().unwrap() {
            let label = text(&step["name"])
                .or_else(|| text(&step["uses"]))
                .or_else(|| text(&step["run"]))
                .unwrap();
            let label = substitute(&label, &context);
            let wanted = match text(&step["if"]) {
                Some(condition) => truthy(&Expr::eval(&condition, &context)),
                None => true,
            };
            if failed || !wanted {
                steps.push((label, None));
                continue;
            }
            let with = |key: &str| text(&step["with"][key]).map(|v| substitute(&v, &context));
            let status = if let Some(action) = text(&step["uses"]) {
                self.action(&action, &with)
            } else {
                let mut step_env = env.clone();
                if let Yaml::Hash(vars) = &step["env"] {
                    for (k, v) in vars {
                        step_env.insert(text(k).unwrap(), substitute(&text(v).unwrap(), &context));
                    }
                }
                let script = substitute(&text(&step["run"]).unwrap(), &context);
                let (status, outputs) = self.run(&script, &step_env);
                if let Some(id) = text(&step["id"]) {
                    for (k, v) in outputs {
                        context.insert(format!("steps.{id}.outputs.{k}"), v);
                    }
                }
                status
            };
            failed = status != 0;
            steps.push((label, Some(status)));
        }
        JobEnd { ran: true, steps }
    }

    /// An action the template uses, as GitHub's does it, on the file system.
    fn action(&self, action: &str, with: &dyn Fn(&str) -> Option<String>) -> i32 {
        match action {
            "actions/checkout@v4" => {
                if let Some(rev) = with("ref").filter(|r| !r.is_empty()) {
                    git(&self.repo, &["checkout", "-q", &rev]);
                }
            }
            "actions/cache/restore@v4" => {
                assert!(
                    with("restore-keys").is_none(),
                    "a prefix restores another commit's baselines"
                );
                let key = with("key").unwrap();
                let cache = self.caches.join(&key);
                if cache.exists() {
                    copy_dir(&cache, &self.repo.join(with("path").unwrap()));
                } else {
                    eprintln!("cache not found for input keys: {key}");
                }
            }
            "actions/cache/save@v4" => {
                let key = with("key").unwrap();
                let cache = self.caches.join(&key);
                let path = self.repo.join(with("path").unwrap());
                // As GitHub's: a path that does not exist is a warning, and nothing is saved.
                if !path.exists() {
                    eprintln!("path does not exist, hence no cache is being saved");
                } else if !cache.exists() {
                    copy_dir(&path, &cache);
                }
            }
            "actions/upload-artifact@v4" => {
                let path = self.repo.join(with("path").unwrap());
                std::fs::create_dir_all(&self.artifacts).unwrap();
                if path.exists() {
                    std::fs::copy(&path, self.artifacts.join(path.file_name().unwrap())).unwrap();
                } else {
                    eprintln!("no files were found with the provided path");
                }
            }
            "actions/download-artifact@v4" => {
                if !self.artifacts.exists() {
                    eprintln!("no artifact to download");
                    return 1;
                }
                copy_dir(&self.artifacts, &self.repo.join(with("path").unwrap()));
            }
            other => panic!("the test does not know the action {other}"),
        }
        0
    }

    /// A `run` step: bash as GitHub runs it, with the fakes first on PATH; its exit status and
    /// the outputs it wrote.
    fn run(&self, script: &str, env: &BTreeMap<String, String>) -> (i32, Vec<(String, String)>) {
        let scratch = tempfile::tempdir().unwrap();
        let output_file = scratch.path().join("output");
        std::fs::write(&output_file, "").unwrap();
        let path = format!(
            "{}:{}",
            self.fakes.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let out = Command::new("bash")
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
            .current_dir(&self.repo)
            .envs(env)
            .env("PATH", path)
            .env("GITHUB_OUTPUT", &output_file)
            .env("GITHUB_STEP_SUMMARY", scratch.path().join("summary"))
            .env("CARGO_TARGET_DIR", target_dir().join("workflow-test"))
            .env("BENCHGRIND_COLOR", "never")
            .output()
            .unwrap();
        eprintln!(
            "$ {script}\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let outputs = std::fs::read_to_string(&output_file)
            .unwrap()
            .lines()
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        (out.status.code().unwrap_or(-1), outputs)
    }

    /// The comments `gh` was asked to post, in order.
    fn comments(&self) -> Vec<String> {
        std::fs::read_to_string(&self.gh_log)
            .unwrap_or_default()
            .split("\u{1e}")
            .filter(|c| !c.trim().is_empty())
            .map(str::to_owned)
            .collect()
    }
}

/// The bench file: `steady` sums 1,000 numbers, `grows` sums `n`.
fn bench_file(grows: u32) -> String {
    format!(
        "use std::hint::black_box;\nuse benchgrind::{{library_benchmark, library_benchmark_group, \
         main}};\n\nfn mix(n: u64) -> u64 {{\n    (0..n).fold(7, |acc, x| acc.rotate_left(5) ^ \
         x.wrapping_mul(0x9e37_79b9))\n}}\n\n#[library_benchmark]\nfn steady() -> u64 {{\n    \
         mix(black_box(1000))\n}}\n\n#[library_benchmark]\nfn grows() -> u64 {{\n    \
         mix(black_box({grows}))\n}}\n\nlibrary_benchmark_group!(name = work; benchmarks = \
         steady, grows);\nmain!(library_benchmark_groups = work);\n"
    )
}

/// The fake programs: `gh` records each comment's body, `sudo` runs the command (as root) or
/// says what it would run, `apt-get` and `cargo install` do nothing (Valgrind and the CLI are
/// here), `benchgrind` is the CLI built by this workspace.
fn fakes(dir: &Path, cli: &Path, gh_log: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let scripts = [
        (
            "gh",
            format!(
                "#!/bin/bash\n# gh pr comment N [--edit-last] --body-file F\n\
                 [[ \"$1 $2\" == 'pr comment' ]] || exit 1\n\
                 if [[ $* == *--edit-last* && ! -s {log} ]]; then\n  \
                 echo 'no comment to edit' >&2; exit 1\nfi\n\
                 file=${{@: -1}}\n{{ echo \"PR $3\"; cat \"$file\"; printf '\\036'; }} >> {log}\n",
                log = gh_log.display()
            ),
        ),
        (
            "sudo",
            // Root here may lack CAP_SYS_RESOURCE, which raising a hard limit needs (GitHub's
            // runners' sudo has it): then the limit is not raised and the step goes on.
            "#!/bin/bash\nif [[ $(id -u) != 0 ]]; then echo \"sudo: would run $*\"; exit 0; fi\n\
             if [[ $1 == prlimit ]]; then \"$@\" || echo \"sudo: $* failed here\" >&2; exit 0; fi\n\
             exec \"$@\"\n"
                .to_owned(),
        ),
        ("apt-get", "#!/bin/bash\nexit 0\n".to_owned()),
        (
            "cargo",
            format!("#!/bin/bash\n[[ $1 == install ]] && exit 0\nexec {cargo} \"$@\"\n"),
        ),
    ];
    for (name, body) in scripts {
        let path = dir.join(name);
        std::fs::write(&path, body).unwrap();
        Command::new("chmod").arg("+x").arg(&path).status().unwrap();
    }
    let _ = std::fs::remove_file(dir.join("benchgrind"));
    std::os::unix::fs::symlink(cli, dir.join("benchgrind")).unwrap();
}

#[test]
fn the_workflow_compares_a_pull_request_with_its_merge_base_and_fails_closed() {
    let Some(cli) = cli() else { return };
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let template = std::fs::read_to_string(root.join("templates/github/benchmarks.yml")).unwrap();
    let repo = dir.path().join("app");
    std::fs::create_dir_all(repo.join("benches")).unwrap();
    std::fs::create_dir_all(repo.join(".github")).unwrap();
    std::fs::copy(
        root.join("templates/benchgrind-ci.sh"),
        repo.join(".github/benchgrind-ci.sh"),
    )
    .unwrap();
    let benchgrind = root.join("crates/benchgrind").canonicalize().unwrap();
    std::fs::write(
        repo.join("Cargo.toml"),
        format!(
            "[package]\nname = \"wf-app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [dev-dependencies]\nbenchgrind = {{ path = {benchgrind:?} }}\n\n\
             [[bench]]\nname = \"work\"\nharness = false\n\n[workspace]\n"
        ),
    )
    .unwrap();
    std::fs::write(
        repo.join(".gitignore"),
        "/target\n/benchgrind-ci\nCargo.lock\n",
    )
    .unwrap();
    std::fs::write(repo.join("benches/work.rs"), bench_file(1000)).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-qm", "main: the branch point"]);
    let branch_point = git(&repo, &["rev-parse", "HEAD"]);

    let world = World {
        repo: repo.clone(),
        caches: dir.path().join("caches"),
        artifacts: dir.path().join("artifacts"),
        fakes: dir.path().join("fakes"),
        gh_log: dir.path().join("gh.log"),
        workflow: YamlLoader::load_from_str(&template).unwrap().remove(0),
    };
    fakes(&world.fakes, &cli, &world.gh_log);
    let shares: usize = text(&world.workflow["env"]["SHARES"])
        .unwrap()
        .parse()
        .unwrap();
    let event = |name: &str, sha: &str, way: &str| {
        let mut c = BTreeMap::new();
        c.insert("github.event_name".to_owned(), name.to_owned());
        c.insert("github.sha".to_owned(), sha.to_owned());
        c.insert("github.token".to_owned(), "token".to_owned());
        if !way.is_empty() {
            c.insert("vars.BENCHGRIND_WAY".to_owned(), way.to_owned());
        }
        c
    };
    // One workflow run: every share, then the report (or the ab job); each job's end.
    let workflow_run = |context: &BTreeMap<String, String>| {
        let _ = std::fs::remove_dir_all(&world.artifacts);
        let mut ends = BTreeMap::new();
        for k in 1..=shares {
            let mut c = context.clone();
            c.insert("matrix.share".to_owned(), k.to_string());
            ends.insert(format!("share-{k}"), world.job("share", &c));
        }
        ends.insert("report".to_owned(), world.job("report", context));
        ends.insert("ab".to_owned(), world.job("ab", context));
        ends
    };

    // Main's pushes: the branch point, then a commit that makes `grows` three times slower.
    let push = workflow_run(&event("push", &branch_point, ""));
    assert!(push.values().all(|j| j.passed()), "{push:?}");
    assert!(!push["ab"].ran);
    std::fs::write(repo.join("benches/work.rs"), bench_file(3000)).unwrap();
    git(&repo, &["commit", "-qam", "main: grows does more"]);
    let tip = git(&repo, &["rev-parse", "HEAD"]);
    let push = workflow_run(&event("push", &tip, ""));
    assert!(push.values().all(|j| j.passed()), "{push:?}");
    git(&repo, &["update-ref", "refs/remotes/origin/main", &tip]);

    // A pull request that left main at the branch point and changes nothing measured.
    git(&repo, &["checkout", "-q", "-b", "feature", &branch_point]);
    std::fs::write(repo.join("NOTES.md"), "nothing measured\n").unwrap();
    git(&repo, &["add", "NOTES.md"]);
    git(&repo, &["commit", "-qm", "notes"]);
    let head = git(&repo, &["rev-parse", "HEAD"]);
    let pull_request = |way: &str| {
        let mut c = event("pull_request", "merge-commit", way);
        c.insert("github.base_ref".to_owned(), "main".to_owned());
        c.insert(
            "github.event.pull_request.head.sha".to_owned(),
            head.clone(),
        );
        c.insert(
            "github.event.pull_request.number".to_owned(),
            "7".to_owned(),
        );
        c
    };
    let short = |sha: &str| sha[..12].to_owned();
    let unchanged = |report: &str| {
        report
            .lines()
            .filter(|l| l.starts_with("| `") && l.ends_with("| unchanged |"))
            .count()
    };

    let pr = workflow_run(&pull_request(""));
    assert!(pr.values().all(|j| j.passed()), "{pr:?}");
    let comments = world.comments();
    assert_eq!(comments.len(), 1, "{comments:?}");
    let report = &comments[0];
    assert!(report.starts_with("PR 7\n"), "{report}");
    assert_eq!(unchanged(report), 2, "{report}");
    assert!(
        report.contains(&format!("| baseline main | `{}` |", short(&branch_point))),
        "{report}"
    );
    assert!(
        report.contains(&format!("| this run | `{}` |", short(&head))),
        "{report}"
    );
    assert!(!report.contains(&short(&tip)), "{report}");

    // The merge base's baselines expired: no other commit's are used, and the job fails.
    // (Shares that measured nothing saved nothing.)
    let removed = (1..=shares)
        .filter(|k| {
            let cache = format!("benchgrind-main-{k}-{branch_point}");
            std::fs::remove_dir_all(world.caches.join(cache)).is_ok()
        })
        .count();
    assert!(removed > 0);
    let pr = workflow_run(&pull_request(""));
    assert!(pr["share-1"].passed(), "{pr:?}");
    let report_job = &pr["report"];
    assert_eq!(
        report_job.status_of("Regression limits and baselines"),
        Some(4),
        "{report_job:?}"
    );
    let comments = world.comments();
    let report = comments.last().unwrap();
    assert!(report.contains("### 2 uncompared"), "{report}");
    assert_eq!(unchanged(report), 0, "{report}");

    // The `ab` way: one job, no shares, the same comparison with the merge base.
    let pr = workflow_run(&pull_request("ab"));
    assert!(!pr["share-1"].ran && !pr["report"].ran, "{pr:?}");
    assert!(pr["ab"].passed(), "{pr:?}");
    let comments = world.comments();
    assert_eq!(comments.len(), 3, "{comments:?}");
    let report = comments.last().unwrap();
    assert_eq!(unchanged(report), 2, "{report}");
    assert!(report.contains(&short(&branch_point)), "{report}");
    assert!(!report.contains(&short(&tip)), "{report}");
}
