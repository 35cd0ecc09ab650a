#!/usr/bin/env python3
"""Prints benchgrind's whole-run wall-clock figures for two revisions, measured in turn.

Wall times on a shared machine move by 10-40 % between runs, so a single figure of each side says
little; this script runs the base revision and the working tree one after the other, run after
run (A B A B ...), and prints for every figure the median of each side and the median of the
ratios of the pairs (new / base): a ratio above 1 is a slowdown.

Figures (all bench binaries built in the bench profile, as `cargo bench` builds them):

- suite: the anchor suite (examples/benches/anchor.rs and anchor_bin.rs, 14 library and 2 binary
  benchmarks) with default settings, after a first run;
- marginal: the cost of one more trivial benchmark, (41 benchmarks - 1 benchmark) / 40, with
  --jobs=1 (one worker: the cost on one core) and with default settings (every core; a single
  benchmark runs on one worker either way) (examples/benches/trivial.rs);
- empty filter: the harness alone, a filter that matches nothing;
- thousand: 1,000 trivial benchmarks in one file (crates/benchgrind-e2e/src/bin/e2e_many.rs),
  default settings (every core).

The base is built once in a git worktree under target/speed/base (its own target directory);
the working tree's binaries come from target/speed/new-target. Nothing here is a test: it prints.

Usage: python3 scripts/speed_pairs.py [--base=REV] [--repeat=N]   (default: HEAD, 5)
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEED = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "speed"


def must(cmd, **kw):
    done = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, cmd))}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
    return done


def build(tree, target):
    """Builds the figures' bench binaries of the checkout `tree`; returns {name: executable}."""
    env = {**os.environ, "CARGO_TARGET_DIR": str(target)}
    found = {}
    for cmd in (
        ["cargo", "bench", "--no-run", "-p", "benchgrind-examples", "--bench", "anchor",
         "--bench", "anchor_bin", "--bench", "trivial"],
        ["cargo", "build", "--release", "-p", "benchgrind-e2e", "--bin", "e2e_many"],
    ):
        done = must(cmd + ["--message-format=json"], cwd=tree, env=env)
        for line in done.stdout.splitlines():
            msg = json.loads(line)
            if msg.get("reason") == "compiler-artifact" and msg.get("executable"):
                kind = msg["target"]["kind"]
                if "bench" in kind or msg["target"]["name"] == "e2e_many":
                    found[msg["target"]["name"]] = msg["executable"]
    return found


def seconds(cmd, cwd):
    start = time.monotonic()
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "BENCHGRIND_COLOR": "never"})
    took = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, cmd))}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return took


def knows_fresh(bins, tree):
    """Whether this side's bench binaries take --fresh (reuse came after the oldest bases):
    without it every benchmark is measured anyway."""
    done = subprocess.run([bins["trivial"], "--bench", "--fresh", "nothing-matches-this"],
                          cwd=tree / "examples", capture_output=True, text=True)
    return done.returncode == 0


def figures(side, bins, tree, home):
    """One measurement of every figure for one side; {figure: seconds}. Each is of measured
    runs (--fresh, where the side has reuse), and the suite also of reused ones (a second run
    with nothing changed), labelled."""
    examples = tree / "examples"
    home_arg = f"--home={home}"
    fresh = ["--fresh"] if knows_fresh(bins, tree) else []
    suite = lambda *extra: sum(seconds([bins[n], "--bench", home_arg, *extra], examples)
                               for n in ("anchor", "anchor_bin"))
    measured_suite = suite(*fresh)
    reused_suite = suite()
    trivial = lambda *extra: seconds([bins["trivial"], "--bench", home_arg, *fresh, *extra],
                                     examples)
    one = trivial("--jobs=1", "--exact", "trivial::trivial::add_one::n_0")
    all41 = trivial("--jobs=1")
    all41_default = trivial()
    empty = trivial("nothing-matches-this")
    thousand = seconds([bins["e2e_many"], "--bench", home_arg, *fresh],
                       tree / "crates" / "benchgrind-e2e")
    return {
        "suite, measured (--fresh)": measured_suite,
        "suite, second run (reused where it can)": reused_suite,
        "marginal measured trivial bench, -j1": (all41 - one) / 40,
        "marginal measured, default settings": (all41_default - one) / 40,
        "empty filter": empty,
        "1,000 benchmarks measured, one file": thousand,
    }


def main():
    base, repeat = "HEAD", 5
    for arg in sys.argv[1:]:
        if arg.startswith("--base="):
            base = arg.split("=", 1)[1]
        elif arg.startswith("--repeat="):
            repeat = max(1, int(arg.split("=", 1)[1]))
        else:
            sys.exit(__doc__)
    rev = must(["git", "rev-parse", base], cwd=ROOT).stdout.strip()
    worktree = SPEED / "base"
    if worktree.exists():
        must(["git", "worktree", "remove", "--force", str(worktree)], cwd=ROOT)
    SPEED.mkdir(parents=True, exist_ok=True)
    must(["git", "worktree", "add", "--detach", str(worktree), rev], cwd=ROOT)
    try:
        print(f"building the base ({rev[:10]}) and the working tree ...", flush=True)
        sides = {
            "base": (build(worktree, SPEED / "base-target"), worktree),
            "new": (build(ROOT, SPEED / "new-target"), ROOT),
        }
        tmp = Path(tempfile.mkdtemp(prefix="benchgrind-speed-pairs-"))
        try:
            # A first run of each side fills its home (the suite figure is of a second run).
            for name, (bins, tree) in sides.items():
                figures(name, bins, tree, tmp / name)
            runs = {"base": [], "new": []}
            for _ in range(repeat):
                for name, (bins, tree) in sides.items():
                    runs[name].append(figures(name, bins, tree, tmp / name))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    finally:
        must(["git", "worktree", "remove", "--force", str(worktree)], cwd=ROOT)
    print(f"\n{repeat} pairs, base {rev[:10]} and the working tree, run in turn "
          f"(medians; ratio: median of new/base per pair)")
    print(f"{'figure':<38} {'base':>9} {'new':>9} {'ratio':>7}")
    for figure in runs["base"][0]:
        b = [r[figure] for r in runs["base"]]
        n = [r[figure] for r in runs["new"]]
        ratios = [y / x for x, y in zip(b, n) if x > 0]
        # Figures under a second in milliseconds, with a decimal.
        scale, unit, digits = (1000, "ms", 1) if statistics.median(b) < 1 else (1, "s", 3)
        print(f"{figure:<38} {statistics.median(b) * scale:>8.{digits}f}{unit:<2}"
              f"{statistics.median(n) * scale:>8.{digits}f}{unit:<2} "
              f"{statistics.median(ratios):>7.3f}")


if __name__ == "__main__":
    main()
