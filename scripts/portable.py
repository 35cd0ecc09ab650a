#!/usr/bin/env python3
"""Measures one bench source on three Linux userlands and prints what each counts.

The package benchmark-tests/portable (memchr, serde_json, regex, threads, a seeded HashMap,
DHAT, a binary benchmark of its own program) is built once for x86_64-unknown-linux-musl (the
portable way: static, with the musl that Rust ships) and once for the host's glibc target; the
bundled examples' bench files once for musl (their library benchmarks are compared: their binary
benchmarks read files that other benchmarks write). The musl builds are not position-independent
(`-C relocation-model=static`, as the guide advises for the portable way): Valgrind 3.27 loads a
static position-independent program at another address than 3.19 and 3.24, which moves the
seed of a hasher that mixes in code addresses (foldhash). Each bench binary is then run with
`--fresh`, copied to paths of other lengths on each userland (10, 40 and 100 bytes here, 23 and
77 in Debian 13, 31 and 64 in unstable: two machines never have the checkout at the same path),
from the package's directory (the checkout is bound into each root) and with the same
environment:

- on this machine's userland, under its Valgrind;
- inside a Debian 13 (trixie: glibc 2.41, Valgrind 3.24) root file system;
- inside a Debian unstable (sid) root file system, under its Valgrind.

The root file systems are made with debootstrap from the Debian archive apt uses here, and kept
in $BENCHGRIND_CI_CACHE (default ~/.cache/benchgrind-ci). Needs root (chroot, mounts).

Then the library benchmarks are compared, on each other userland, with a baseline saved on
the first, as a CI gate would after a runner image update (--uncompared=fail): the musl build
must compare (its fingerprint leaves out glibc and Valgrind), the glibc build is uncompared.

It prints, per benchmark and metric, the counts of each userland for both builds, and exits 1
when the musl build's counts differ between userlands or paths in any metric, or the glibc
build's between the paths of this machine (the glibc build's may differ between userlands: they
are printed to show what the portable way removes), but for a benchmark whose report says it
cannot count portably (a static program that drew the kernel's random numbers).

Usage: python3 scripts/portable.py [--userland NAME ...] [--musl-only]
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("BENCHGRIND_CI_CACHE", Path.home() / ".cache/benchgrind-ci"))
MUSL = "x86_64-unknown-linux-musl"
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")).resolve()
# The bench binaries run from where cargo built them, and keep their results in RUN, on every
# userland (both are bound into each root at the same paths), so that their arguments,
# environment and with them the stack are the same everywhere.
RUN = Path("/tmp/benchgrind-portable")
ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": str(RUN),
    "LANG": "C",
    "BENCHGRIND_COLOR": "never",
}
SUITES = {"trixie": "Debian 13", "sid": "Debian unstable"}
# The lengths of the paths each userland runs the bench binaries from: all different.
PATH_LENGTHS = {"host": [10, 40, 100], "trixie": [23, 77], "sid": [31, 64]}
# The musl builds' flags: not position-independent (see above).
MUSL_RUSTFLAGS = "-C relocation-model=static"


def log(text):
    print(text, file=sys.stderr, flush=True)


def run(cmd, **kw):
    log("$ " + " ".join(str(c) for c in cmd))
    return subprocess.run(cmd, check=True, **kw)


def archive():
    """The Debian archive apt uses here."""
    for source in Path("/etc/apt/sources.list.d").glob("*.sources"):
        for line in source.read_text().splitlines():
            if line.startswith("URIs:"):
                return line.split()[1]
    sources = Path("/etc/apt/sources.list")
    if sources.exists():
        for line in sources.read_text().splitlines():
            parts = line.split()
            if parts and parts[0] == "deb":
                return next(p for p in parts[1:] if "://" in p)
    return "http://deb.debian.org/debian"


def root_of(suite):
    """A root file system of `suite` with Valgrind, made once and kept in the cache."""
    root = CACHE / f"root-{suite}"
    if (root / "usr/bin/valgrind").exists():
        return root
    if shutil.which("debootstrap") is None:
        # The package lists first: a fresh machine may have none, or old ones.
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        run(["apt-get", "update", "-qq"], stdout=subprocess.DEVNULL, env=env)
        run(["apt-get", "install", "-y", "-qq", "debootstrap"], stdout=subprocess.DEVNULL, env=env)
    partial = CACHE / f"root-{suite}.tmp"
    shutil.rmtree(partial, ignore_errors=True)
    CACHE.mkdir(parents=True, exist_ok=True)
    run(
        ["debootstrap", "--variant=minbase", "--include=valgrind", suite, partial, archive()],
        stdout=subprocess.DEVNULL,
    )
    partial.rename(root)
    return root


def build(target, package="benchgrind-portable"):
    """The bench binaries of `package` for `target`, by bench name."""
    cmd = ["cargo", "bench", "-p", package, "--no-run", "--message-format=json"]
    env = dict(os.environ)
    if target:
        cmd += ["--target", target]
    if target == MUSL:
        env["CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_RUSTFLAGS"] = MUSL_RUSTFLAGS
    out = run(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True, env=env).stdout
    binaries = {}
    for line in out.splitlines():
        message = json.loads(line)
        if message.get("reason") == "compiler-artifact" and message.get("executable"):
            if "bench" in message["target"]["kind"]:
                binaries[message["target"]["name"]] = Path(message["executable"])
    return binaries


# The mark of a binary benchmark's block (its header names the command: `id:(args) -> cmd`).
BINARY = "binary benchmark"

# What a benchmark's report says when its counts cannot be portable: a static program that drew
# the kernel's random numbers (benchmark-tests/portable's `seeded`).
NOT_PORTABLE = "is static and drew random numbers"


def blocks(report):
    """{benchmark header: {metric: count}} from a terminal report; a benchmark whose warning
    says it cannot count portably gets the metric NOT_PORTABLE."""
    result, current = {}, None
    for line in report.splitlines():
        if not line.strip() or line.startswith("benchgrind:"):
            continue
        if not line.startswith(" "):
            current = result.setdefault(line.split(" -> ")[0], {})
            if " -> " in line:
                current[BINARY] = 1
            continue
        if current is None:
            continue
        if NOT_PORTABLE in line:
            current[NOT_PORTABLE] = 1
        m = re.match(r"\s+([A-Za-z][A-Za-z0-9 +./()-]*):\s+(\d+)\|", line)
        if m:
            current[m.group(1)] = int(m.group(2))
    return result


def placed(root, program, length):
    """`program` copied to a path of `length` bytes in /tmp (of `root`, if given), a file of
    the same name in a directory of `x`s; returns the path as the program sees it."""
    name = program.name
    pad = length - len("/tmp/") - 1 - len(name)
    if pad < 1:
        # Shorter than its name allows: a shorter name.
        name = "b"
        pad = length - len("/tmp/") - 2
    path = Path("/tmp") / ("x" * pad) / name
    host = Path(root or "/") / str(path).lstrip("/")
    host.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(program, host)
    return path


def bench(root, program, home, flags=(), length=None):
    """A run of the bench binary `program` measured afresh in `home`, inside `root` if given,
    from a copy at a path of `length` bytes if given, in the package's directory."""
    if length is not None:
        program = placed(root, program, length)
    package = ROOT / "benchmark-tests" / "portable"
    cmd = [
        "env", "-i", *[f"{k}={v}" for k, v in ENV.items()],
        "sh", "-c", 'cd "$0" && exec "$@"', str(package),
        str(program), "--bench", "--fresh", f"--home={home}", *flags,
    ]
    if root is not None:
        cmd = ["chroot", root, *cmd]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if length is not None:
        shutil.rmtree(Path(root or "/") / str(program.parent).lstrip("/"), ignore_errors=True)
    return out


def gate(first, root, binaries):
    """The exit status, per build, of the library benchmarks compared with the baseline that
    the first userland saved (`first`: save it), under --uncompared=fail: 4 when a benchmark's
    baseline is from another machine, as a CI gate after an image update would see it."""
    statuses = {}
    for build_name, by_bench in binaries.items():
        if "portable" not in by_bench:
            continue
        home = RUN / f"gate-{build_name}"
        if first:
            shutil.rmtree(home, ignore_errors=True)
            flags = ["--save-baseline=image"]
        else:
            flags = ["--baseline=image", "--uncompared=fail"]
        out = bench(root, by_bench["portable"], home, flags)
        statuses[build_name] = out.returncode
        if out.returncode not in (0, 4):
            log(out.stdout + out.stderr)
    return statuses


def measure(userland, root, binaries):
    """{(userland, path length): {build: {benchmark: {metric: count}}}} of each bench binary
    run on `userland` from each of its paths' lengths."""
    counts = {}
    for length in PATH_LENGTHS[userland]:
        column = counts.setdefault((userland, length), {})
        for build_name, by_bench in binaries.items():
            if build_name == "glibc" and userland != "host":
                # Another userland's glibc build differs anyway: one path.
                if length != PATH_LENGTHS[userland][0]:
                    continue
            for bench_name, program in sorted(by_bench.items()):
                shutil.rmtree(RUN / "home", ignore_errors=True)
                out = bench(root, program, RUN / "home", length=length)
                if out.returncode != 0:
                    log(out.stdout + out.stderr)
                    raise SystemExit(
                        f"{bench_name} ({build_name}) failed on {userland} from a path of "
                        f"{length} bytes"
                    )
                for header, metrics in blocks(out.stdout).items():
                    # Of the examples, the library benchmarks: their binary benchmarks run the
                    # system's programs (the machine's own code) or read files that other
                    # benchmarks of the examples write (`bar.json`), whichever ran before.
                    if build_name == "examples, musl" and BINARY in metrics:
                        continue
                    column.setdefault(build_name, {})[header] = metrics
    return counts


def mounted(root):
    """Mounts /proc, /dev and the run directory into `root`; returns what to unmount."""
    points = []
    for source, where, args in [
        ("proc", root / "proc", ["-t", "proc"]),
        ("/dev", root / "dev", ["--bind"]),
        (str(RUN), root / str(RUN).lstrip("/"), ["--bind"]),
        # The checkout (the package's directory is where its benchmarks run) and the target
        # directory where it is elsewhere.
        (str(ROOT), root / str(ROOT).lstrip("/"), ["--bind"]),
        *([] if TARGET.is_relative_to(ROOT) else [(str(TARGET), root / str(TARGET).lstrip("/"), ["--bind"])]),
    ]:
        where.mkdir(parents=True, exist_ok=True)
        run(["mount", *args, source, where])
        points.append(where)
    return points


def unmount(points):
    """Unmounts what `mounted` bound, and checks it: the checkout is bound into the root, so a
    root left with it mounted would take the checkout along if the cache were deleted."""
    for where in reversed(points):
        subprocess.run(["umount", "-l", where], check=False)
    mounts = Path("/proc/self/mounts").read_text()
    left = [str(w) for w in points if f" {w} " in mounts]
    if left:
        raise SystemExit(f"still mounted, unmount before deleting {CACHE}: {' '.join(left)}")


def version(root):
    cmd = ["valgrind", "--version"]
    if root is not None:
        cmd = ["chroot", root, *cmd]
    glibc = ["ldd", "--version"] if root is None else ["chroot", root, "ldd", "--version"]
    v = subprocess.run(cmd, stdout=subprocess.PIPE, text=True).stdout.strip()
    g = subprocess.run(glibc, stdout=subprocess.PIPE, text=True).stdout.splitlines()[0]
    return f"{g.split()[-1]}, {v}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--userland", action="append", choices=["host", *SUITES])
    parser.add_argument("--musl-only", action="store_true",
                        help="leave out the glibc build (its table shows what musl removes)")
    args = parser.parse_args()
    userlands = args.userland or ["host", *SUITES]
    if os.geteuid() != 0:
        raise SystemExit("scripts/portable.py needs root (chroot and mounts); run it with sudo")
    binaries = {
        "musl": build(MUSL),
        "examples, musl": build(MUSL, "benchgrind-examples"),
    }
    if not args.musl_only:
        binaries["glibc"] = build(None)
    seen, names, gates = {}, {}, {}
    for userland in userlands:
        root = None if userland == "host" else root_of(userland)
        RUN.mkdir(parents=True, exist_ok=True)
        points = mounted(root) if root is not None else []
        try:
            names[userland] = f"{SUITES.get(userland, 'this machine')} ({version(root)})"
            seen.update(measure(userland, root, binaries))
            gates[userland] = gate(userland == userlands[0], root, binaries)
        finally:
            unmount(points)
    shutil.rmtree(RUN, ignore_errors=True)

    differ = []
    for build_name in binaries:
        columns = [c for c in seen if build_name in seen[c]]
        print(f"\n## {build_name} build\n")
        print(
            "| benchmark | metric | "
            + " | ".join(f"{names[u]}, path of {n} bytes" for u, n in columns)
            + " |"
        )
        print("|---|---|" + "---|" * len(columns))
        first = seen[columns[0]][build_name]
        for bench, metrics in first.items():
            portable = NOT_PORTABLE not in metrics
            for metric, value in metrics.items():
                if metric in (NOT_PORTABLE, BINARY):
                    continue
                row = [seen[c][build_name].get(bench, {}).get(metric) for c in columns]
                same = all(v == value for v in row)
                # The glibc build must be the same across this machine's paths.
                host_row = [v for c, v in zip(columns, row) if c[0] == "host"]
                if build_name == "glibc":
                    if portable and any(v != host_row[0] for v in host_row):
                        differ.append(f"glibc {bench} {metric} across paths: {host_row}")
                elif not same and portable:
                    differ.append(f"{bench} {metric}: {row}")
                cells = [f"{v:,}" if v is not None else "missing" for v in row]
                if not same:
                    cells = [f"**{c}**" for c in cells]
                short = bench.split("::")[-1] + ("" if portable else " (says it is not portable)")
                print(f"| {short} | {metric} | " + " | ".join(cells) + " |")
    print(f"\n## compared with a baseline saved on {names[userlands[0]]}\n")
    for userland in userlands[1:]:
        for build_name, status in gates[userland].items():
            said = {0: "compared (exit 0)", 4: "uncompared: another machine (exit 4)"}
            print(f"- {names[userland]}, {build_name} build: {said.get(status, f'exit {status}')}")
            if build_name != "glibc" and status != 0:
                differ.append(f"{userland}: the musl build's baseline did not compare ({status})")
    if differ:
        print("\ncounted differently between userlands or paths:", file=sys.stderr)
        for line in differ:
            print("  " + line, file=sys.stderr)
        return 1
    print(
        f"\nthe musl builds counted the same on {len(userlands)} userlands and "
        f"{len(seen)} paths, every metric"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
