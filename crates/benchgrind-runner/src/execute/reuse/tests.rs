//! The check and the record of [`Records`], on a benchmark directory of their own, with the
//! system calls as Valgrind 3.19 traced `cat input.txt` (the path changed) and a stand-in for
//! Valgrind's launcher (only its bytes are recorded).

use std::path::{Path, PathBuf};

use super::record::Entry;
use super::*;
use crate::execute::valgrind::Valgrind;

/// One benchmark of a package that reads `input.txt`, measured once: its results in place.
struct Bench {
    dir: tempfile::TempDir,
    records: Records,
    job: Job,
}

impl Bench {
    fn new(reuse: Reuse) -> Bench {
        let dir = tempfile::tempdir().unwrap();
        let (home, package) = (dir.path().join("home"), dir.path().join("package"));
        std::fs::create_dir_all(&package).unwrap();
        std::fs::write(package.join("input.txt"), "one").unwrap();
        let launcher = dir.path().join("valgrind");
        std::fs::write(&launcher, "launcher").unwrap();
        let valgrind = Valgrind {
            path: launcher,
            version: (3, 19, 0),
            runner: Vec::new(),
        };
        let run = Run::new("machine A".into(), crate::cli::Isolation::Fork, valgrind);
        let records = Records::new(Some(run), package, home.clone());
        let job = crate::plan::test_job(&home, "bench", reuse);
        Bench { dir, records, job }
    }

    /// The records of the next run of the bench binary, on the same machine.
    fn next_run(&self) -> Records {
        let valgrind = Valgrind {
            path: self.dir.path().join("valgrind"),
            version: (3, 19, 0),
            runner: Vec::new(),
        };
        let run = Run::new("machine A".into(), crate::cli::Isolation::Fork, valgrind);
        Records::new(Some(run), self.package(), self.dir.path().join("home"))
    }

    fn package(&self) -> PathBuf {
        self.dir.path().join("package")
    }

    /// A measured run as the harness settles it: its profile and log (with the calls) new,
    /// then recorded, confirmed and made current.
    fn measure(&self) {
        let place = self.records.library_place(&self.job);
        assert_eq!(self.records.decide(&self.job, &place), Verdict::Measure);
        self.records.begin(&self.job);
        let paths = &self.job.paths;
        std::fs::write(paths.file("callgrind.out", Which::New), "events: Ir\n").unwrap();
        let log = "==1== Command: prog\n\
SYSCALL[1,1](257) sys_openat ( 4294967196, 0x1fff000a30(input.txt), 0 ) --> [async] ... \n\
SYSCALL[1,1](257) ... [async] --> Success(0x3) \n\
==1== Events : Ir\n";
        std::fs::write(paths.file("callgrind.log", Which::New), log).unwrap();
        self.records
            .write(&self.job, Logs::Settled { processes: 1 });
        self.records.confirm(&self.job);
        for name in ["callgrind.out", "callgrind.log"] {
            paths.promote(name).unwrap();
        }
    }

    fn verdict(&self) -> Verdict {
        let place = self.records.library_place(&self.job);
        self.records.decide(&self.job, &place)
    }

    fn record(&self) -> String {
        std::fs::read_to_string(self.job.paths.dir.join("inputs")).unwrap()
    }
}

/// The check's answer itself: when the results were measured, or why it runs.
fn check_of(records: &Records, job: &Job, place: &Place) -> Result<UtcDate, String> {
    check::check(records.run.as_ref(), &records.before, job, place).map_err(|e| e.to_string())
}

#[test]
fn a_record_holds_the_run_inputs_and_its_calls_leave_the_log() {
    let bench = Bench::new(Reuse::Reuse);
    bench.measure();
    let record = Record::parse(&bench.record()).unwrap();
    assert_eq!(record.unfit, None);
    let names: Vec<&str> = (record.entries.iter())
        .filter_map(|e| match e {
            Entry::Input(name, _) => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        names,
        [
            "machine",
            "bench-binary",
            "valgrind",
            "job",
            "callgrind-args",
            "config",
            "environment",
            "cwd"
        ]
    );
    let input = bench.package().join("input.txt");
    let files: Vec<&Entry> = (record.entries.iter())
        .filter(|e| matches!(e, Entry::File(..)))
        .collect();
    assert_eq!(
        files,
        [&Entry::File(
            input.display().to_string(),
            format!("file {}", digest::of_file(&input).unwrap())
        )]
    );
    let log = bench.job.paths.file("callgrind.log", Which::Current);
    assert_eq!(
        std::fs::read_to_string(log).unwrap(),
        "==1== Command: prog\n==1== Events : Ir\n"
    );
}

#[test]
fn the_check_reuses_what_nothing_changed_and_measures_what_did() {
    let bench = Bench::new(Reuse::Reuse);
    bench.measure();
    let at = Record::parse(&bench.record()).unwrap().measured;
    assert_eq!(bench.verdict(), Verdict::Reuse(at));
    // The file it read changes: measured, and the check says which.
    std::fs::write(bench.package().join("input.txt"), "two").unwrap();
    let place = bench.records.library_place(&bench.job);
    let input = bench.package().join("input.txt");
    assert_eq!(
        check_of(&bench.records, &bench.job, &place),
        Err(format!("{} changed", input.display()))
    );
    assert_eq!(bench.verdict(), Verdict::Measure);
    // Back as it was: reused again; under --verify-reuse, verified; under --fresh, measured.
    std::fs::write(&input, "one").unwrap();
    assert_eq!(bench.verdict(), Verdict::Reuse(at));
    let mut job = bench.job.clone();
    job.reuse = Reuse::Verify;
    assert_eq!(bench.records.decide(&job, &place), Verdict::Verify(at));
    job.reuse = Reuse::Fresh;
    assert_eq!(bench.records.decide(&job, &place), Verdict::Measure);
}

#[test]
fn the_check_measures_when_valgrind_or_a_result_changed() {
    let bench = Bench::new(Reuse::Reuse);
    bench.measure();
    let place = bench.records.library_place(&bench.job);
    // Valgrind is taken once per run: the next run's records see the other launcher.
    std::fs::write(bench.dir.path().join("valgrind"), "another launcher").unwrap();
    let next = bench.next_run();
    assert_eq!(
        check_of(&next, &bench.job, &place),
        Err("its valgrind changed".into())
    );
    std::fs::write(bench.dir.path().join("valgrind"), "launcher").unwrap();
    assert!(check_of(&bench.next_run(), &bench.job, &place).is_ok());
    let profile = bench.job.paths.file("callgrind.out", Which::Current);
    std::fs::remove_file(&profile).unwrap();
    assert_eq!(
        check_of(&bench.records, &bench.job, &place),
        Err(format!("its last result {} is gone", profile.display()))
    );
}

#[test]
fn runs_that_cannot_be_proved_are_recorded_unfit() {
    let bench = Bench::new(Reuse::Reuse);
    let paths = &bench.job.paths;
    let log = "SYSCALL[1,1](87) sys_unlink ( 0x1fff000a30(input.txt) )[sync] --> Success(0x0) \n";
    std::fs::write(paths.file("callgrind.log", Which::New), log).unwrap();
    bench
        .records
        .write(&bench.job, Logs::Settled { processes: 1 });
    let pending = std::fs::read_to_string(paths.file("inputs", Which::New)).unwrap();
    let input = bench.package().join("input.txt");
    assert_eq!(
        Record::parse(&pending).unwrap().unfit,
        Some(format!(
            "it changes {}, which the next run would see",
            input.display()
        ))
    );
    bench
        .records
        .write(&bench.job, Logs::Settled { processes: 2 });
    let pending = std::fs::read_to_string(paths.file("inputs", Which::New)).unwrap();
    assert!(pending.contains("unfit\tit started other processes"));
}

#[test]
fn nothing_is_recorded_or_reused_without_a_run_or_with_reuse_off() {
    let bench = Bench::new(Reuse::Off);
    bench.measure();
    assert!(!bench.job.paths.dir.join("inputs").exists());
    let none = Records::new(None, bench.package(), PathBuf::from("/nonexistent"));
    let place = none.library_place(&bench.job);
    let mut job = bench.job.clone();
    job.reuse = Reuse::Reuse;
    assert!(check_of(&none, &job, &place).is_err());
    assert_eq!(none.decide(&job, &place), Verdict::Measure);
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
    let files = digest::Files::default();
    assert_eq!(inputs::state(&files, &file, false), "absent");
    assert_eq!(inputs::state(&files, &file.join("below"), false), "absent");
    std::fs::write(&file, "a").unwrap();
    let one = inputs::state(&files, &file, false);
    std::fs::write(&file, "b").unwrap();
    assert_ne!(inputs::state(&files, &file, false), one);
    assert_eq!(inputs::state(&files, dir.path(), false), "dir");
    let listed = inputs::state(&files, dir.path(), true);
    std::fs::write(dir.path().join("g"), "").unwrap();
    assert_ne!(inputs::state(&files, dir.path(), true), listed);
}

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
    let calls = trace::take(&log);
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "==1== Command: prog\n==1== \n==1== Events : Ir\n"
    );
    assert_eq!(calls.lines().count(), 2);
}
