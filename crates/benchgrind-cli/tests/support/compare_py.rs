//! Google Benchmark's compare.py as Debian's `libbenchmark-tools` installs it, for the tests that
//! check that it reads what benchgrind writes (this crate's `gbench` tests and benchgrind-e2e's
//! `gbench_out`, which includes this file by path).

use std::path::PathBuf;
use std::process::Command;

/// Where Debian's `libbenchmark-tools` puts compare.py.
pub const SCRIPT: &str = "/usr/share/benchmark/compare.py";

/// A python3 with the numpy and scipy that compare.py imports (the one on PATH, else the
/// system's) and the script; a failure that names the package to install where either is
/// missing.
pub fn compare_py() -> (&'static str, PathBuf) {
    let script = PathBuf::from(SCRIPT);
    assert!(
        script.is_file(),
        "{SCRIPT} is missing: install Debian's libbenchmark-tools (`apt-get install \
         libbenchmark-tools`, which `.ci/deps --tests` does)"
    );
    let python = ["python3", "/usr/bin/python3"]
        .into_iter()
        .find(|python| {
            Command::new(python)
                .args(["-c", "import numpy, scipy"])
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .expect(
            "no python3 with numpy and scipy for compare.py: install Debian's python3-scipy \
             (`apt-get install python3-scipy`, which `.ci/deps --tests` does)",
        );
    (python, script)
}
