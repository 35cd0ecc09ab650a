#!/usr/bin/env python3
"""How often `benchgrind ab` gives each perf verdict, in turns and one side after the other.

Builds a small cargo project (a git repository below --dir) whose bench `work::spin` does
ROUNDS rounds of dependent arithmetic times PERMILLE / 1000, and whose bench `branches::sum`
sums the elements of a vector above a threshold, a branch per element, over data its setup
leaves shuffled or sorts (the same instructions; sorted, the branch is predicted). Then, for
every mode and scenario, --reps times: writes the working tree's bench file for the scenario,
runs `benchgrind ab --base=HEAD` over it and reads the JSON summaries it prints: the verdict of
task-clock per benchmark, and Callgrind's change of Ir.

Scenarios: `aa` (the working tree is HEAD: the same code on both sides), `+10` and `+2` (the
body of `work::spin` 10 % and 2 % longer), `sorted` (the setup of `branches::sum` sorts).
Modes: `turns` (ab's default: perf's rounds of base and head in turns, paired) and `sequential`
(`--perf-rounds=0 --fresh`: each side's perf sampled in its own run, the base just before the
head, compared as with a baseline).

Prints a table of verdict counts per mode and scenario (and the exit statuses), and with
--json the raw results.

Usage: python3 scripts/perf_ab.py --benchgrind PATH [--reps 20] [--modes turns,sequential]
         [--scenarios aa,+10,+2,sorted] [--rounds 10] [--sampling-ms 500] [--dir DIR]
         [--benchgrind-src DIR] [--json FILE]
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BENCH = r"""use std::hint::black_box;
use std::time::Duration;

use benchgrind::{library_benchmark, library_benchmark_group, main, LibraryBenchmarkConfig, Perf};

/// The body's work in thousandths of ROUNDS: the scenario's change.
const PERMILLE: u64 = @PERMILLE@;
/// Whether the setup of `branches::sum` sorts its data.
const SORTED: bool = @SORTED@;
const ROUNDS: u64 = 400_000;

#[inline(never)]
fn spin(rounds: u64) -> u64 {
    let mut x = black_box(1u64);
    for i in 0..black_box(rounds) {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(i) ^ (x >> 29);
    }
    x
}

fn perf() -> LibraryBenchmarkConfig {
    let mut config = LibraryBenchmarkConfig::default();
    config.tool(
        Perf::default()
            .event_set("task-clock")
            .sample_duration(Duration::from_millis(@SAMPLING@)),
    );
    config
}

#[library_benchmark(config = perf())]
#[bench::body(ROUNDS * PERMILLE / 1000)]
fn spin_body(rounds: u64) -> u64 {
    spin(rounds)
}

/// 200,000 bytes from a fixed linear congruential sequence, sorted where the scenario says.
fn data(_: ()) -> Vec<u8> {
    let mut x = 12345u32;
    let mut data: Vec<u8> = (0..200_000)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 16) as u8
        })
        .collect();
    if SORTED {
        data.sort_unstable();
    }
    data
}

#[inline(never)]
fn add(sum: u64, x: u8) -> u64 {
    sum.wrapping_add(u64::from(x))
}

#[library_benchmark(config = perf())]
#[bench::data(args = (()), setup = data)]
fn sum(data: Vec<u8>) -> u64 {
    let mut total = 0u64;
    for &x in black_box(&data) {
        // A call in the branch keeps it a branch (no conditional move): taken or not is
        // predictable over sorted data, a coin toss over shuffled data.
        if x >= 128 {
            total = add(total, x);
        }
    }
    total
}

library_benchmark_group!(name = work; benchmarks = spin_body);
library_benchmark_group!(name = branches; benchmarks = sum);
main!(library_benchmark_groups = work, branches);
"""

SCENARIOS = {
    "aa": (1000, False),
    "+10": (1100, False),
    "+2": (1020, False),
    "sorted": (1000, True),
}


def bench_file(scenario, sampling_ms):
    permille, sorted_ = SCENARIOS[scenario]
    return (
        BENCH.replace("@PERMILLE@", str(permille))
        .replace("@SORTED@", "true" if sorted_ else "false")
        .replace("@SAMPLING@", str(sampling_ms))
    )


def git(repo, *args):
    subprocess.run(
        ["git", "-c", "user.name=perf_ab", "-c", "user.email=perf_ab@example.invalid", *args],
        cwd=repo,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def repository(dir_, sampling_ms, benchgrind_src):
    """The project at its base commit (every scenario's base is `aa`)."""
    repo = os.path.join(dir_, "app")
    if os.path.isdir(os.path.join(repo, ".git")):
        return repo
    os.makedirs(os.path.join(repo, "benches"), exist_ok=True)
    benchgrind = os.path.join(benchgrind_src, "crates", "benchgrind")
    with open(os.path.join(repo, "Cargo.toml"), "w") as f:
        f.write(
            '[package]\nname = "perf-ab"\nversion = "0.1.0"\nedition = "2021"\n\n'
            f"[dev-dependencies]\nbenchgrind = {{ path = {json.dumps(benchgrind)} }}\n\n"
            '[[bench]]\nname = "perf_ab"\nharness = false\n\n'
            "[profile.bench]\ndebug = true\n\n[workspace]\n"
        )
    with open(os.path.join(repo, ".gitignore"), "w") as f:
        f.write("/target\n")
    with open(os.path.join(repo, "benches", "perf_ab.rs"), "w") as f:
        f.write(bench_file("aa", sampling_ms))
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "base")
    return repo


def summaries(stdout):
    out = []
    for line in stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    return out


def one(benchgrind, repo, mode, scenario, rounds, sampling_ms):
    """One `ab` run: per benchmark the task-clock verdict and change, Callgrind's Ir change."""
    with open(os.path.join(repo, "benches", "perf_ab.rs"), "w") as f:
        f.write(bench_file(scenario, sampling_ms))
    args = [benchgrind, "ab", "--base=HEAD"]
    if mode == "turns":
        args.append(f"--perf-rounds={rounds}")
    else:
        args += ["--perf-rounds=0", "--fresh"]
    args += ["--", "--output-format=json"]
    start = time.time()
    run = subprocess.run(args, cwd=repo, capture_output=True, text=True)
    result = {
        "mode": mode,
        "scenario": scenario,
        "status": run.returncode,
        "seconds": round(time.time() - start, 1),
        "benches": {},
    }
    for s in summaries(run.stdout):
        perf = (s.get("perf") or {}).get("metrics") or []
        clock = next((m for m in perf if m["name"].startswith("task-clock")), None)
        ir = (s.get("metrics") or {}).get("Ir") or {}
        result["benches"][s["id"].split("::", 1)[-1]] = {
            "verdict": (clock or {}).get("verdict") or "none",
            "change_pct": (clock or {}).get("change_pct"),
            "interval_pct": (clock or {}).get("interval_pct"),
            "ir_diff_pct": ir.get("diff_pct"),
        }
    if not result["benches"]:
        sys.stderr.write(run.stderr[-3000:])
    return result


def table(results):
    verdicts = ["faster", "slower", "unchanged", "inconclusive", "none"]
    rows = collections.OrderedDict()
    for r in results:
        for name, b in r["benches"].items():
            # `work::spin_body::body` -> `spin_body`: the benchmark the scenario changes, or the
            # other one, unchanged by it (an A/A pair of its own).
            bench = name.split("::")[1] if "::" in name else name
            key = (r["mode"], r["scenario"], bench)
            row = rows.setdefault(key, collections.Counter())
            row[b["verdict"]] += 1
            row["runs"] += 1
            row[f"exit {r['status']}"] += 1
            if b["ir_diff_pct"] is not None:
                row["ir_max_abs"] = max(row["ir_max_abs"], abs(b["ir_diff_pct"]))
    header = ["mode", "scenario", "benchmark", "runs", *verdicts, "exit 0", "exit 3", "max |Ir %|"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for (mode, scenario, bench), c in rows.items():
        cells = [mode, scenario, bench, str(c["runs"])]
        cells += [str(c[v]) for v in verdicts]
        cells += [str(c["exit 0"]), str(c["exit 3"]), f"{c['ir_max_abs']:.3f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--benchgrind", required=True, help="the benchgrind program to run")
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--modes", default="turns,sequential")
    p.add_argument("--scenarios", default="aa,+10,+2,sorted")
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--sampling-ms", type=int, default=500)
    p.add_argument("--dir", help="where the project is built (default: a temporary directory)")
    p.add_argument("--json", help="write every run's results to this file")
    p.add_argument(
        "--benchgrind-src",
        default=REPO,
        help="the benchgrind sources the project depends on (default: this repository; give a "
        "copy, e.g. `git archive HEAD | tar -x -C DIR`, to edit this one while it runs)",
    )
    a = p.parse_args()
    for s in a.scenarios.split(","):
        if s not in SCENARIOS:
            p.error(f"--scenarios: unknown scenario {s!r}; choose from {', '.join(SCENARIOS)}")
    for m in a.modes.split(","):
        if m not in ("turns", "sequential"):
            p.error(f"--modes: unknown mode {m!r}; choose turns or sequential")
    dir_ = a.dir or tempfile.mkdtemp(prefix="perf_ab.")
    repo = repository(dir_, a.sampling_ms, os.path.abspath(a.benchgrind_src))
    results = []
    for mode in a.modes.split(","):
        for scenario in a.scenarios.split(","):
            for rep in range(a.reps):
                r = one(a.benchgrind, repo, mode, scenario, a.rounds, a.sampling_ms)
                results.append(r)
                brief = {k: v["verdict"] for k, v in r["benches"].items()}
                print(
                    f"{mode} {scenario} {rep + 1}/{a.reps}: exit {r['status']} "
                    f"{r['seconds']}s {brief}",
                    file=sys.stderr,
                    flush=True,
                )
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    print(table(results))


if __name__ == "__main__":
    main()
