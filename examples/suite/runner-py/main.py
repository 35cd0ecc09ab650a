"""A runner program in Python for the memmem suite.

Reads KLV ("key:len:value\\n") from stdin, runs the `iter` model and prints one
"nanoseconds,count" line per iteration. Usage: main.py (python/find | --version)
"""

import sys
import time

VERSION = "0.1.0"


def read_klv(raw):
    """Parses KLV bytes into a list of (key, value bytes)."""
    items, i = [], 0
    while i < len(raw):
        k = raw.index(b":", i)
        key = raw[i:k].decode()
        l = raw.index(b":", k + 1)
        n = int(raw[k + 1:l])
        value = raw[l + 1:l + 1 + n]
        if len(value) != n or raw[l + 1 + n:l + 2 + n] != b"\n":
            raise ValueError(f"KLV: value of {key!r} is not {n} bytes followed by a newline")
        items.append((key, value))
        i = l + 2 + n
    return items


def count_all(needle, hay):
    count, at = 0, 0
    while True:
        i = hay.find(needle, at)
        if i < 0:
            return count
        count += 1
        at = i + max(1, len(needle))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: main.py (<engine> | --version)")
    engine = sys.argv[1]
    if engine == "--version":
        print(VERSION)
        return
    cfg = {"pattern": [], "max-iters": b"0", "max-warmup-iters": b"0", "max-time": b"0", "max-warmup-time": b"0"}
    for key, value in read_klv(sys.stdin.buffer.read()):
        if key == "pattern":
            cfg["pattern"].append(value)
        else:
            cfg[key] = value
    model = cfg.get("model", b"").decode()
    if (engine, model) != ("python/find", "iter"):
        sys.exit(f"unrecognized engine {engine!r} and model {model!r}")
    if len(cfg["pattern"]) != 1:
        sys.exit("python/find needs exactly one pattern")
    needle, hay = cfg["pattern"][0], cfg["haystack"]
    max_iters, max_warmup = int(cfg["max-iters"]), int(cfg["max-warmup-iters"])
    max_time, max_warmup_time = int(cfg["max-time"]), int(cfg["max-warmup-time"])

    start = time.perf_counter_ns()
    for _ in range(max_warmup):
        count_all(needle, hay)
        if time.perf_counter_ns() - start >= max_warmup_time:
            break
    out = []
    start = time.perf_counter_ns()
    for _ in range(max_iters):
        t = time.perf_counter_ns()
        count = count_all(needle, hay)
        # Zero-padded to a fixed width: formatting costs the same instructions whatever the time.
        out.append(f"{time.perf_counter_ns() - t:020d},{count}\n")
        if time.perf_counter_ns() - start >= max_time:
            break
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
