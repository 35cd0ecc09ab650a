#!/usr/bin/env python3
"""Counts of one bench package under two Valgrinds, side by side.

    python3 scripts/valgrind_versions.py VALGRIND_A VALGRIND_B [-p PACKAGE] [-- BENCH ARGS]

Runs `cargo bench -p PACKAGE` (default benchgrind-examples) once with each launcher as
BENCHGRIND_VALGRIND, each in a fresh home, reads every benchmark's metrics from the terminal
report and prints, per metric, how many benchmarks count the same under both and the ones that
differ. Exit status 0 whatever the differences: it reports, it does not judge.
"""

import os
import re
import subprocess
import sys
import tempfile

HEADER = re.compile(r"^(\S+::\S+)(?: (.*))?$")
METRIC = re.compile(r"^\s+([A-Za-z][A-Za-z0-9 +/.()-]*?):\s+([0-9]+)\|")


def run(valgrind, package, extra):
    """Metrics per benchmark (header line) of one cargo bench run."""
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, BENCHGRIND_VALGRIND=valgrind, BENCHGRIND_COLOR="never")
        out = subprocess.run(
            ["cargo", "bench", "-q", "-p", package, "--", f"--home={home}", *extra],
            env=env, capture_output=True, text=True, check=False)
    counts, current = {}, None
    for line in out.stdout.splitlines():
        if HEADER.match(line) and not line.startswith(" "):
            current = line.strip()
            counts.setdefault(current, {})
        elif current and (m := METRIC.match(line)):
            counts[current].setdefault(m.group(1), int(m.group(2)))
    return counts


def version(valgrind):
    return subprocess.run([valgrind, "--version"], capture_output=True, text=True).stdout.strip()


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    package = "benchgrind-examples"
    if "-p" in args:
        package = args[args.index("-p") + 1]
        del args[args.index("-p"):args.index("-p") + 2]
    a, b = args
    va, vb = version(a), version(b)
    ca, cb = run(a, package, extra), run(b, package, extra)
    both = [k for k in ca if k in cb]
    print(f"{package}: {len(both)} benchmarks under {va} and {vb}")
    metrics = []
    for k in both:
        for m in ca[k]:
            if m not in metrics:
                metrics.append(m)
    for metric in metrics:
        pairs = [(k, ca[k][metric], cb[k][metric]) for k in both
                 if metric in ca[k] and metric in cb[k]]
        differ = [p for p in pairs if p[1] != p[2]]
        print(f"  {metric}: {len(pairs) - len(differ)} of {len(pairs)} the same")
        for k, x, y in differ:
            print(f"    {k}: {x} vs {y} ({y - x:+d})")
    missing = sorted(set(ca) ^ set(cb))
    if missing:
        print(f"  only under one of them: {', '.join(missing)}")


if __name__ == "__main__":
    main()
