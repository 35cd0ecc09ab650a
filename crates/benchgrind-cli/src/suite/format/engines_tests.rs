//! `engines.toml`'s reading: names, commands, directories, versions and the problems it reports.

use super::*;

#[test]
fn engine_names() {
    for ok in ["rust/memmem", "a", "libc-x/memmem/restricted"] {
        assert!(valid_engine_name(ok), "{ok}");
    }
    for bad in ["", "/a", "a/", "a//b", "a b", "a_b"] {
        assert!(!valid_engine_name(bad), "{bad}");
    }
}

#[test]
fn display_like_rebar() {
    let c = Command {
        cwd: Some("runner".into()),
        bin: "cargo".into(),
        args: vec!["build".into(), "--release".into()],
        envs: vec![],
    };
    assert_eq!(c.display(), r#"cd "runner" && "cargo" "build" "--release""#);
    assert_eq!(c.program(), PathBuf::from("cargo"));
    let r = Command {
        bin: "./target/release/runner".into(),
        ..c
    };
    assert!(r.program().ends_with("runner/./target/release/runner"));
}

const ENGINE: &str = "[[engine]]\nname = \"e\"\nENGINE_CWD\n[engine.version]\nbin = \"./v\"\n\
                      [engine.run]\nbin = \"./r\"\ncwd = \"RUN_DIR\"\n\
                      [[engine.build]]\nbin = \"make\"\n";

fn parse(dir: &Path, cwd: &str) -> Engines {
    let text = ENGINE
        .replace("ENGINE_CWD", cwd)
        .replace("RUN_DIR", "../engines/run");
    Engines::parse(&dir.join("engines.toml"), &text).unwrap()
}

#[test]
fn cwd_is_relative_to_the_suite_directory_as_in_rebar() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("benchmarks");
    for d in ["benchmarks", "engines/x", "engines/run"] {
        std::fs::create_dir_all(tmp.path().join(d)).unwrap();
    }
    let e = parse(&suite, "cwd = \"../engines/x\"");
    let x = &e.by_name["e"];
    let want = suite.join("../engines/x").to_string_lossy().into_owned();
    assert_eq!(x.build[0].cwd.as_deref(), Some(want.as_str()));
    assert_eq!(x.build[0].display(), format!("cd {want:?} && \"make\""));
    // A command's own `cwd` is relative to the suite directory too.
    let run = suite.join("../engines/run").to_string_lossy().into_owned();
    assert_eq!(x.run.cwd.as_deref(), Some(run.as_str()));
    assert!(e.notes.is_empty(), "{:?}", e.notes);
    // Without a `cwd`, commands run in the suite directory, as in rebar.
    let e = parse(&suite, "");
    let s = suite.to_string_lossy().into_owned();
    assert_eq!(e.by_name["e"].build[0].cwd.as_deref(), Some(s.as_str()));
    // An absolute `cwd` is kept.
    let abs = tmp.path().join("engines/x").to_string_lossy().into_owned();
    let e = parse(&suite, &format!("cwd = {abs:?}"));
    assert_eq!(e.by_name["e"].build[0].cwd.as_deref(), Some(abs.as_str()));
}

#[test]
fn cwd_found_only_from_the_current_directory_is_taken_with_a_note() {
    // Tests run in the crate's directory, which has `src`; the suite directory does not.
    let tmp = tempfile::tempdir().unwrap();
    let e = parse(tmp.path(), "cwd = \"src\"");
    assert_eq!(e.by_name["e"].build[0].cwd.as_deref(), Some("src"));
    assert_eq!(e.notes.len(), 1, "{:?}", e.notes);
    assert!(
        e.notes[0]
            .starts_with("cwd \"src\" (engine e): using src, relative to the current directory"),
        "{}",
        e.notes[0]
    );
    // Neither exists: rebar's path, so that the error names where it was looked for.
    let e = parse(tmp.path(), "cwd = \"no-such-dir\"");
    let want = tmp
        .path()
        .join("no-such-dir")
        .to_string_lossy()
        .into_owned();
    let build = &e.by_name["e"].build[0];
    assert_eq!(build.cwd.as_deref(), Some(want.as_str()));
    let err = build.output().unwrap_err().to_string();
    assert!(err.contains("does not exist"), "{err}");
}

#[test]
fn the_cwd_to_write_for_rebar() {
    let p = Path::new("runner");
    assert_eq!(relative_to_suite(Path::new("benchmarks"), p), "../runner");
    assert_eq!(relative_to_suite(Path::new("./a/b"), p), "../../runner");
    assert_eq!(relative_to_suite(Path::new("."), p), "runner");
    assert!(Path::new(&relative_to_suite(Path::new("../x"), p)).is_absolute());
}
