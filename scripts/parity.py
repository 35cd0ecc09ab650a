#!/usr/bin/env python3
"""Prints the instruction counts of real crates' hot paths under benchgrind and gungraun 0.20,
side by side, measured in one run.

scripts/parity/benches/parity.rs holds the benchmarks (a memchr memmem count, a serde_json parse
taking its document as `String`, a regex search taking `(Regex, String)`, a regex compile) in the
iai-callgrind/gungraun API. The script builds it twice under target/parity: against this
checkout's benchgrind, and with only the crate path changed against gungraun 0.20 (the first run
installs gungraun-runner 0.20 there, which needs crates.io and takes a few minutes). Each suite
runs once (counts do not depend on load) and the table shows both counts and their difference;
the target is within 1 % on every benchmark.

`--no-gungraun` builds and runs benchgrind's side alone and prints its counts (what CI runs, so
that the package keeps building without the few minutes of gungraun's installation and build).

Usage: python3 scripts/parity.py [--no-gungraun]
"""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
PARITY = TARGET / "parity"
RUNNER = PARITY / "gungraun-runner" / "bin" / "gungraun-runner"


def must(cmd, **kw):
    done = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, cmd))}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
    return done


def suite(tool, dependency):
    """Writes the benchmark crate for `tool` and builds it; returns (manifest dir, executable)."""
    crate = PARITY / tool
    (crate / "benches").mkdir(parents=True, exist_ok=True)
    manifest = (ROOT / "scripts" / "parity" / "Cargo.toml").read_text()
    (crate / "Cargo.toml").write_text(manifest.replace("TOOL_DEPENDENCY", dependency))
    source = (ROOT / "scripts" / "parity" / "benches" / "parity.rs").read_text()
    (crate / "benches" / "parity.rs").write_text(source.replace("benchgrind", tool))
    (crate / "src").mkdir(exist_ok=True)
    (crate / "src" / "lib.rs").write_text("")
    print(f"building the {tool} suite ...", flush=True)
    env = {**os.environ, "CARGO_TARGET_DIR": str(PARITY / f"{tool}-target")}
    done = must(["cargo", "bench", "--no-run", "--message-format=json"], cwd=crate, env=env)
    for line in done.stdout.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable"):
            if msg["target"]["name"] == "parity" and "bench" in msg["target"]["kind"]:
                return crate, msg["executable"]
    sys.exit(f"cargo built no parity bench for {tool}")


def counts(report):
    """{function: instructions} of a terminal report (benchgrind's or gungraun's)."""
    found, function = {}, None
    for line in report.splitlines():
        if line and not line.startswith(" ") and "::" in line:
            function = line.split()[0].split("::")[-1]
        m = re.match(r"\s+Instructions:\s+(\d+)\|", line)
        if m and function:
            found[function] = int(m.group(1))
    return found


def ours():
    """Builds and runs benchgrind's side; returns its counts."""
    path = (ROOT / "crates" / "benchgrind").as_posix()
    crate, exe = suite("benchgrind", f'benchgrind = {{ path = "{path}" }}')
    home = PARITY / "homes"
    shutil.rmtree(home, ignore_errors=True)
    report = must([exe, "--bench", f"--home={home / 'benchgrind'}"], cwd=crate,
                  env={**os.environ, "BENCHGRIND_COLOR": "never"}).stdout
    found = counts(report)
    if not found:
        sys.exit(f"no counts in benchgrind's report:\n{report}")
    return found


def main():
    PARITY.mkdir(parents=True, exist_ok=True)
    if sys.argv[1:] == ["--no-gungraun"]:
        a = ours()
        print(f"\n{'benchmark':<16} {'benchgrind':>12}")
        for name in sorted(a):
            print(f"{name:<16} {a[name]:>12}")
        return
    if sys.argv[1:]:
        sys.exit("usage: python3 scripts/parity.py [--no-gungraun]")
    if not RUNNER.exists():
        print("installing gungraun-runner 0.20.0 (once) ...", flush=True)
        must(["cargo", "install", "--locked", "gungraun-runner", "--version", "0.20.0",
              "--root", str(RUNNER.parent.parent)])
    a = ours()
    theirs, theirs_exe = suite("gungraun", 'gungraun = "=0.20.0"')
    env = {**os.environ, "PATH": f"{RUNNER.parent}:{os.environ['PATH']}",
           "GUNGRAUN_COLOR": "never"}
    done = must([theirs_exe, "--bench"], cwd=theirs, env=env)
    b = counts(done.stdout + done.stderr)
    print(f"\n{'benchmark':<16} {'benchgrind':>12} {'gungraun 0.20':>14} {'difference':>11}")
    worst = 0.0
    for name in sorted(a):
        if name not in b:
            print(f"{name:<16} {a[name]:>12} {'-':>14}")
            continue
        diff = (a[name] - b[name]) / b[name] * 100
        worst = max(worst, abs(diff))
        print(f"{name:<16} {a[name]:>12} {b[name]:>14} {diff:>+10.3f}%")
    print(f"\nlargest difference {worst:.3f}% (target: within 1%) "
          f"{'ok' if worst <= 1 and a.keys() == b.keys() else 'MISSED'}")


if __name__ == "__main__":
    main()
