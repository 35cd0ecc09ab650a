#!/usr/bin/env python3
"""Measures how often perf's significance test calls two runs of the same code different.

The e2e bench program `e2e_perf` (five library benchmarks with perf: bodies of 0.65 ms and
6.5 ms, a setup ten times the body, the counters bracketed by perf_enable!/perf_disable!, one
without Valgrind) runs RUNS times in one home, unchanged; after each run every benchmark's
perf.samples (five rounds, each a process of its own) is kept. Each pair of consecutive runs of
a benchmark is then tested the way benchgrind tests it (Welch's t-test over the rounds' means,
a known spread between runs of FLOOR percent of each mean added), for several floors, and the
script prints per floor how many of the pairs are significant at 0.05 and at 0.0001, the
largest change of task-clock between runs, and the three lowest p-values.

benchgrind's default floor (--perf-noise, 1.5) is the lowest at which none of the pairs of this
project's virtual machine was significant at 0.05; a quieter machine may take a lower one.

Usage: python3 scripts/perf_noise.py [--runs N]   (default 10; about 6 s a run)
"""

import argparse
import glob
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def incomplete_beta(a, b, x):
    """The regularized incomplete beta function (continued fraction, modified Lentz)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0

    def fraction(a, b, x):
        tiny = 1e-300
        c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
        d = 1.0 / (d if abs(d) > tiny else tiny)
        h = d
        for m in range(1, 500):
            m2 = 2 * m
            for num in (m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                        -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))):
                d = 1.0 + num * d
                d = d if abs(d) > tiny else tiny
                c = 1.0 + num / c
                c = c if abs(c) > tiny else tiny
                d = 1.0 / d
                h *= d * c
            if abs(d * c - 1.0) < 1e-15:
                break
        return h

    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return front * fraction(a, b, x) / a
    return 1 - front * fraction(b, a, 1 - x) / b


def p_value(new, old, floor):
    """benchgrind's test: Welch over the rounds' means, `floor` (a fraction) between runs."""
    a = [statistics.mean(r) for r in new]
    b = [statistics.mean(r) for r in old]
    ma, mb = statistics.mean(a), statistics.mean(b)
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    known = (floor * ma) ** 2 + (floor * mb) ** 2
    se2 = va + vb + known
    if se2 == 0:
        return 1.0 if ma == mb else 0.0
    t = (ma - mb) / math.sqrt(se2)
    den = va * va / (len(a) - 1) + vb * vb / (len(b) - 1)
    df = min(se2 * se2 / den, 1e6) if den > 0 else 1e6
    return incomplete_beta(df / 2, 0.5, df / (df + t * t))


def rounds(path):
    """The task-clock samples of each round of a perf.samples file."""
    out, idx = [], None
    for line in open(path):
        cells = line.rstrip("\n").split("\t")
        if cells[0] == "benchgrind-perf 1":
            out.append([])
            idx = None
        elif cells[0] == "events":
            names = cells[1:]
            idx = next((i for i, n in enumerate(names) if n.startswith("task-clock")), None)
        elif cells[0] == "sample" and idx is not None:
            out[-1].append(float(cells[1 + idx]))
    return [r for r in out if len(r) > 0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    subprocess.run(["cargo", "build", "-q", "-p", "benchgrind-e2e", "--bin", "e2e_perf"],
                   cwd=ROOT, check=True)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    exe = os.path.join(target, "debug", "e2e_perf")
    work = tempfile.mkdtemp(prefix="perf-noise-")
    home = os.path.join(work, "home")
    kept = {}
    try:
        for run in range(args.runs):
            env = dict(os.environ, BENCHGRIND_COLOR="never")
            subprocess.run([exe, "--bench", f"--home={home}"], cwd=work, env=env, check=False,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for path in glob.glob(os.path.join(home, "**", "perf.samples"), recursive=True):
                bench = os.path.basename(os.path.dirname(path))
                copy = os.path.join(work, f"{bench}.{run}")
                shutil.copy(path, copy)
                kept.setdefault(bench, []).append(rounds(copy))
        pairs = [(bench, new, old) for bench, runs in sorted(kept.items())
                 for old, new in zip(runs, runs[1:]) if len(new) > 1 and len(old) > 1]
        if not pairs:
            sys.exit("no pairs of runs with rounds: did e2e_perf run?")
        changes = [abs(statistics.mean(map(statistics.mean, n))
                       / statistics.mean(map(statistics.mean, o)) - 1) * 100
                   for _, n, o in pairs]
        print(f"{len(pairs)} pairs of runs of the same code ({len(kept)} benchmarks, "
              f"{args.runs} runs); largest change of task-clock: {max(changes):.2f} %")
        for floor in (0.0, 0.5, 1.0, 1.5, 2.0):
            ps = sorted((p_value(n, o, floor / 100), b) for b, n, o in pairs)
            at05 = sum(1 for p, _ in ps if p < 0.05)
            at0001 = sum(1 for p, _ in ps if p < 0.0001)
            lowest = ", ".join(f"{p:.4f} ({b})" for p, b in ps[:3])
            print(f"floor {floor:.1f} %: {at05} of {len(ps)} significant at 0.05, "
                  f"{at0001} at 0.0001; lowest p {lowest}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
