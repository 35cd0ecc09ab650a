"""A test runner that misbehaves on purpose, one way per engine name (first argument):

ok           counts matches correctly
wrong-count  reports one match too many
hang         never finishes (for --timeout)
bad-klv      parses KLV with an off-by-one length, so it rejects valid input and exits 1
crash        aborts (killed by SIGABRT)
"""

import os
import sys
import time


def read_klv(raw, slack=0):
    items, i = {}, 0
    while i < len(raw):
        k = raw.index(b":", i)
        key = raw[i:k].decode()
        l = raw.index(b":", k + 1)
        n = int(raw[k + 1:l]) + slack
        if raw[l + 1 + n:l + 2 + n] != b"\n":
            raise SystemExit(f"bad KLV length for key {key!r}: no newline after {n} bytes")
        items.setdefault(key, []).append(raw[l + 1:l + 1 + n])
        i = l + 2 + n
    return items


def main():
    mode = sys.argv[1]
    if mode == "--version":
        print("1.2.3")
        return
    raw = sys.stdin.buffer.read()
    if mode == "hang":
        while True:
            time.sleep(60)
    if mode == "crash":
        os.abort()
    klv = read_klv(raw, slack=1 if mode == "bad-klv" else 0)
    needle, hay = klv["pattern"][0], klv["haystack"][0]
    count = hay.count(needle) + (1 if mode == "wrong-count" else 0)
    iters = max(1, min(int(klv["max-iters"][0]), 5))
    for _ in range(iters):
        t = time.perf_counter_ns()
        hay.count(needle)
        print(f"{time.perf_counter_ns() - t},{count}")


main()
