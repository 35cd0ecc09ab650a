#!/usr/bin/env python3
"""Prints benchgrind's speed figures, each beside what it is compared with, measured in one run.

The anchor suite (examples/benches/anchor.rs and anchor_bin.rs): fibonacci 10 and 30, bubble
sorts of 100-2000 elements, substring counts in a 1 MiB haystack and two small binary runs, 16
benchmarks. Figures:

- wall time of the suite with default settings (after the build): the first run, a second
  (every result reused, nothing having changed) and a measured one (--fresh), labelled; the
  other timings are of measured runs;
- the floor: one `valgrind --tool=callgrind` start of the same bench binary;
- gungraun 0.20 on the same suite, serial and with --parallel=auto (skip with --no-gungraun;
  the first run installs gungraun-runner 0.20 and builds the suite under target/speed, which
  takes a few minutes and needs crates.io);
- instruction counts of the fork server against --isolation=process;
- the marginal cost of one more trivial benchmark (41 against 1, examples/benches/trivial.rs),
  on one worker (--jobs=1) and with default settings (every core);
- the harness time of a filter that matches nothing.

Wall times on a shared machine move by 10-20% between runs, so every timing is repeated
(--repeat, default 3) and reported as the median with the range; targets are judged on the
median.

Usage: python3 scripts/speed.py [--no-gungraun] [--repeat=N]
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
SPEED = TARGET / "speed"


def run(cmd, **kw):
    """Runs a command; returns (seconds, CompletedProcess)."""
    start = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return time.monotonic() - start, done


def must(cmd, **kw):
    seconds, done = run(cmd, **kw)
    if done.returncode not in (0,):
        sys.exit(f"failed: {' '.join(map(str, cmd))}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
    return seconds, done


def bench_binaries(manifest_dir, package, benches, env=None):
    """Builds bench targets with cargo and returns {name: executable}."""
    cmd = ["cargo", "bench", "--no-run", "--message-format=json", "-p", package]
    for b in benches:
        cmd += ["--bench", b]
    _, done = must(cmd, cwd=manifest_dir, env=env)
    found = {}
    for line in done.stdout.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable"):
            if "bench" in msg["target"]["kind"]:
                found[msg["target"]["name"]] = msg["executable"]
    return found


def instructions(report):
    """{header: instructions} of a terminal report (benchgrind's or gungraun's)."""
    counts, header = {}, None
    for line in report.splitlines():
        if line and not line.startswith(" ") and "::" in line:
            header = line.strip()
        m = re.match(r"\s+Instructions:\s+(\d+)\|", line)
        if m and header:
            counts[header] = int(m.group(1))
    return counts


def benchgrind_suite(bins, home, extra=()):
    """Runs the two anchor bench binaries as `cargo bench` would; returns (seconds, reports)."""
    total, reports = 0.0, []
    for name in ("anchor", "anchor_bin"):
        seconds, done = must([bins[name], "--bench", f"--home={home}", *extra],
                             cwd=ROOT / "examples", env={**os.environ, "BENCHGRIND_COLOR": "never"})
        total += seconds
        reports.append(done.stdout)
    return total, "\n".join(reports)


def gungraun_suite():
    """Builds the gungraun copy of the suite; returns (bins, env) or None when it cannot."""
    runner_root = SPEED / "gungraun-runner"
    runner = runner_root / "bin" / "gungraun-runner"
    if not runner.exists():
        print("installing gungraun-runner 0.20.0 (once) ...", flush=True)
        must(["cargo", "install", "--locked", "gungraun-runner", "--version", "0.20.0",
              "--root", str(runner_root)])
    suite = SPEED / "gungraun-suite"
    shutil.copytree(ROOT / "scripts" / "speed" / "gungraun", suite, dirs_exist_ok=True)
    shutil.copy(ROOT / "examples" / "src" / "lib.rs", suite / "src" / "lib.rs")
    shutil.copy(ROOT / "examples" / "src" / "bin" / "my-foo.rs", suite / "src" / "my-foo.rs")
    env = {**os.environ, "PATH": f"{runner.parent}:{os.environ['PATH']}",
           "CARGO_TARGET_DIR": str(SPEED / "gungraun-target")}
    print("building the gungraun suite ...", flush=True)
    bins = bench_binaries(suite, "anchor-gungraun", ["anchor", "anchor_bin"], env=env)
    return bins, env, suite


def gungraun_time(bins, env, suite, home, extra=()):
    total, reports = 0.0, []
    for name in ("anchor", "anchor_bin"):
        seconds, done = must([bins[name], "--bench", f"--home={home}", *extra], cwd=suite,
                             env={**env, "GUNGRAUN_COLOR": "never"})
        total += seconds
        reports.append(done.stdout + done.stderr)
    return total, "\n".join(reports)


REPEAT = 3


def repeated(measure):
    """Runs `measure` (returning (seconds, extra)) REPEAT times: (median, min, max, last extra)."""
    results = [measure() for _ in range(REPEAT)]
    times = sorted(r[0] for r in results)
    return times[len(times) // 2], times[0], times[-1], results[-1][1]


def main():
    global REPEAT
    with_gungraun = "--no-gungraun" not in sys.argv[1:]
    for arg in sys.argv[1:]:
        if arg.startswith("--repeat="):
            REPEAT = max(1, int(arg.split("=", 1)[1]))
    print("building the benchgrind suite ...", flush=True)
    bins = bench_binaries(ROOT, "benchgrind-examples", ["anchor", "anchor_bin", "trivial"])
    rows = []
    tmp = Path(tempfile.mkdtemp(prefix="benchgrind-speed-"))
    try:
        floor = repeated(lambda: must(["valgrind", "--tool=callgrind", "--instr-atstart=no",
                                       "--callgrind-out-file=/dev/null", "--log-file=/dev/null",
                                       bins["anchor"], "--benchgrind-server"],
                                      stdin=subprocess.DEVNULL))
        # Homes of one length: a binary benchmark's command counts its start-up, which the
        # length of the paths it is given moves (docs/guide.md, "What is measured").
        first = benchgrind_suite(bins, tmp / "hfork")[0]
        second = repeated(lambda: benchgrind_suite(bins, tmp / "hfork"))
        report = second[3]
        fork_counts = instructions(report)
        process = repeated(lambda: benchgrind_suite(bins, tmp / "hproc",
                                                    ["--isolation=process", "--fresh"]))
        process_counts = instructions(process[3])
        serial = repeated(lambda: benchgrind_suite(bins, tmp / "home-serial",
                                                   ["--jobs=1", "--fresh"]))
        if len(fork_counts) != 16:
            sys.exit(f"expected 16 benchmarks, got {len(fork_counts)}:\n{report}")
        diff = max(abs(fork_counts[k] - process_counts[k]) for k in fork_counts)

        # Measured runs: a second run with nothing changed reuses every result (the suite
        # figure above is of such a run; this one measures again).
        measured = repeated(lambda: benchgrind_suite(bins, tmp / "hfork", ["--fresh"]))
        trivial = lambda *extra: must([bins["trivial"], "--bench", f"--home={tmp / 't'}",
                                       "--fresh", *extra], cwd=ROOT / "examples")
        one = repeated(lambda: trivial("--jobs=1", "--exact", "trivial::trivial::add_one::n_0"))
        all41 = repeated(lambda: trivial("--jobs=1"))
        all41_default = repeated(lambda: trivial())
        nothing = repeated(lambda: trivial("nothing-matches-this"))

        rows.append(("suite, default settings, reused (a second run)", second, "", None))
        rows.append(("suite, default settings, measured (--fresh)", measured, "", None))
        rows.append(("suite, default settings, first run", (first, first, first), "", None))
        rows.append(("suite, --jobs=1, measured", serial, "", None))
        rows.append(("suite, --isolation=process, measured", process, "", None))
        rows.append(("floor: one callgrind start of the bench binary", floor, "", None))
        marginal = tuple((a - o) / 40 for a, o in zip(all41[:3], one[:3]))
        rows.append(("marginal measured trivial benchmark (--jobs=1)", marginal,
                     "<= 0.005 s", marginal[0] <= 0.005))
        marginal_default = tuple((a - o) / 40 for a, o in zip(all41_default[:3], one[:3]))
        rows.append(("marginal measured trivial benchmark (default)", marginal_default,
                     "<= 0.005 s", marginal_default[0] <= 0.005))
        rows.append(("41 trivial benchmarks measured, default settings", all41_default, "", None))
        rows.append(("filter matching nothing", nothing, "<= 0.005 s", nothing[0] <= 0.005))

        if with_gungraun:
            gbins, genv, suite = gungraun_suite()
            g_serial = repeated(lambda: gungraun_time(gbins, genv, suite, tmp / "g1"))
            g_parallel = repeated(lambda: gungraun_time(gbins, genv, suite, tmp / "g2",
                                                        ["--parallel=auto"]))
            g_report = g_parallel[3]
            rows.append(("gungraun 0.20, serial", g_serial, "", None))
            rows.append(("gungraun 0.20, --parallel=auto", g_parallel, "", None))
            # Both measuring: gungraun has no reuse.
            ratio = measured[0] / g_parallel[0]
            rows.append(("benchgrind measured / gungraun --parallel", (ratio, ratio, ratio),
                         "<= 0.25", ratio <= 0.25))
            g_counts = instructions(g_report)
            if g_counts:
                print("\ninstructions, benchgrind vs gungraun 0.20 (gungraun counts its wrapper):")
                def key(header):
                    path, _, rest = header.partition(" ")
                    return path.split("::")[-1], rest.split(":")[0]
                by_key = {key(h): v for h, v in g_counts.items()}
                for k, n in sorted(fork_counts.items()):
                    other = by_key.get(key(k), "-")
                    print(f"  {k.split('::', 1)[1]:<60} {n:>12} {other:>12}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print(f"\nfork server vs --isolation=process: largest instruction difference {diff} "
          f"over 16 benchmarks (target: <= 2) {'ok' if diff <= 2 else 'MISSED'}")
    print(f"\nmedian of {REPEAT} runs (range)")
    print(f"{'figure':<52} {'median':>8}  {'range':<15}  target")
    for name, value, target, ok in rows:
        unit = "" if name.startswith("benchgrind /") else " s"
        mark = "" if ok is None else ("ok" if ok else "MISSED")
        spread = f"{value[1]:.3f}-{value[2]:.3f}" if value[1] != value[2] else ""
        print(f"{name:<52} {value[0]:>6.3f}{unit:<2}  {spread:<15}  {target} {mark}")


if __name__ == "__main__":
    main()
