//! `ab`'s use of git: the working tree as a commit of its own, the one build checkout moved
//! between the base and that commit, and git run with its errors said.

use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};
use benchgrind_runner::error::FileResult;

/// The working tree as a commit (not on any branch): HEAD with every change and every file git
/// would add (`git add -A` into an index of its own), so that it can be checked out in the
/// build checkout. The repository's index and branches are left alone.
pub(super) fn working_tree(root: &Path, ab: &Path) -> Result<String> {
    std::fs::create_dir_all(ab).file_op("create", ab)?;
    let index = ab.join("working-tree.index");
    let _ = std::fs::remove_file(&index);
    let with_index = |args: &[&str]| git_with(root, args, &[("GIT_INDEX_FILE", index.as_os_str())]);
    let head = git(root, &["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]).ok();
    if let Some(head) = &head {
        with_index(&["read-tree", head])?;
    }
    with_index(&["add", "-A", "."])?;
    let tree = with_index(&["write-tree"])?;
    let _ = std::fs::remove_file(&index);
    let mut commit = vec!["commit-tree", tree.as_str()];
    if let Some(head) = &head {
        commit.extend(["-p", head.as_str()]);
    }
    commit.extend(["-m", "benchgrind ab: the working tree"]);
    // commit-tree needs a name even where git has none configured.
    let name = std::ffi::OsStr::new("benchgrind ab");
    let email = std::ffi::OsStr::new("ab@benchgrind.invalid");
    let who = [
        ("GIT_AUTHOR_NAME", name),
        ("GIT_AUTHOR_EMAIL", email),
        ("GIT_COMMITTER_NAME", name),
        ("GIT_COMMITTER_EMAIL", email),
    ];
    git_with(root, &commit, &who)
}

/// The build checkout: a detached worktree of the repository, made once and moved to `sha`
/// (the base, or the working tree's commit) with `git checkout`, which rewrites only the files
/// that differ (cargo then rebuilds only what they change); files git does not track are
/// removed, so that the checkout holds exactly that commit.
pub(super) fn checkout(repo: &Path, dir: &Path, sha: &str) -> Result<()> {
    if dir.join(".git").exists() {
        let moved = git(dir, &["checkout", "--detach", "--force", "--quiet", sha])
            .and_then(|_| git(dir, &["clean", "-d", "--force", "--quiet"]));
        if moved.is_ok() {
            return Ok(());
        }
        let _ = std::fs::remove_dir_all(dir);
    }
    // A worktree removed by hand is still registered until pruned.
    let _ = git(repo, &["worktree", "prune"]);
    if let Some(parent) = dir.parent() {
        std::fs::create_dir_all(parent).file_op("create", parent)?;
    }
    let dir_text = dir.to_string_lossy();
    git(
        repo,
        &["worktree", "add", "--detach", "--force", &dir_text, sha],
    )
    .with_context(|| format!("cannot check out {sha} in {}", dir.display()))?;
    Ok(())
}

/// The commit's subject line, for messages.
pub(super) fn subject(repo: &Path, sha: &str) -> String {
    git(repo, &["log", "-1", "--format=%s", sha]).unwrap_or_default()
}

/// Runs git in `dir`; its trimmed output, or an error with its message.
pub(super) fn git(dir: &Path, args: &[&str]) -> Result<String> {
    git_with(dir, args, &[])
}

/// [`git`] with variables set (an index of its own, a committer's name).
pub(super) fn git_with(
    dir: &Path,
    args: &[&str],
    envs: &[(&str, &std::ffi::OsStr)],
) -> Result<String> {
    let output = Command::new("git")
        .args(args)
        .current_dir(dir)
        .envs(envs.iter().copied())
        .output()
        .context("cannot run git; ab needs git on PATH")?;
    if !output.status.success() {
        bail!(
            "git {} failed in {}: {}",
            args.join(" "),
            dir.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
}
