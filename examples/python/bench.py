"""Benchmark (not a test): a Python consumer beside the Rust consumer, in one run.

For each block size, one Rust producer (bench_peer) feeds a one-block channel; the consumer
is first the Rust bench_peer, then this Python process. Per block, each consumer measures
  latency: publish (the producer's CLOCK_MONOTONIC stamp in the block) -> recv returned,
  read:    summing the block's float64s in place (numpy's arr.sum() / an 8-lane Rust loop),
and reports medians (the first 10% dropped as warm-up). Run from the repository root:

    cargo build --release -p handoff-capi --example bench_peer
    python examples/python/bench.py [--reps 500] [--wait adaptive|spin]
"""

import argparse
import json
import os
import pathlib
import subprocess
import time

import numpy as np

import handoff

REPO = pathlib.Path(__file__).resolve().parents[2]


def producer(peer, name, size, reps, wait):
    p = subprocess.Popen(
        [str(peer), "produce", name, str(size), str(reps), wait], stdout=subprocess.PIPE, text=True
    )
    line = p.stdout.readline()
    assert line.startswith("name="), f"bench_peer printed {line!r}"
    return p, line[5:].strip()


def python_consumer(name, size, reps, wait):
    rx = handoff.Channel.open(name, size, 1, timeout=10).consumer(wait=wait, timeout=60)
    words = size // 8
    expected_tail = 0.5 * (words * (words - 1) / 2 - 1)  # closed form of words 2..
    lat, read, private = [], [], []
    own = np.empty(words)
    for rep in range(reps):
        blk = rx.recv()
        now = time.monotonic_ns()
        a = blk.array(np.float64)
        lat.append(now - int(a[:1].view(np.uint64)[0]))
        t = time.perf_counter_ns()
        s = a.sum()
        read.append(time.perf_counter_ns() - t)
        tail = s - a[0] - a[1]
        assert a[1] == rep and abs(tail - expected_tail) <= 1e-6 * max(abs(tail), 1.0), (rep, tail)
        # The same sum over a private, cache-warm copy: numpy's kernel alone, without the
        # shared memory (if the two match, the view costs nothing and any gap to Rust is
        # numpy's summation kernel).
        own[:] = a
        t = time.perf_counter_ns()
        own.sum()
        private.append(time.perf_counter_ns() - t)
        del a
        blk.release()
    k = reps // 10
    return {
        "consumer": "python",
        "bytes": size,
        "latency_ns": int(np.median(lat[k:])),
        "read_ns": int(np.median(read[k:])),
        "private_read_ns": int(np.median(private[k:])),
    }


def main():
    ap = argparse.ArgumentParser(description="Python vs Rust consumer of a handoff channel")
    ap.add_argument("--reps", type=int, default=500)
    ap.add_argument(
        "--wait", default="adaptive", help="wait strategy of both sides (spin only with idle CPUs)"
    )
    ap.add_argument("--peer", default=str(REPO / "target/release/examples/bench_peer"))
    args = ap.parse_args()
    rows = []
    for size in (4096, 1 << 20):
        for who in ("rust", "python"):
            name = f"bench-{who}-{size}-{os.getpid()}"
            prod, full = producer(args.peer, name, size, args.reps, args.wait)
            if who == "rust":
                out = subprocess.run(
                    [args.peer, "consume", full, str(size), str(args.reps), args.wait],
                    capture_output=True, text=True, check=True,
                )
                rows.append(json.loads(out.stdout))
            else:
                rows.append(python_consumer(full, size, args.reps, args.wait))
            prod.wait(timeout=120)
    by = {(r["consumer"], r["bytes"]): r for r in rows}
    print(f"{'block':>8} {'consumer':>8} {'latency (median)':>17} {'read, sum (median)':>19}")
    for r in rows:
        extra = ""
        if "private_read_ns" in r:
            extra = f"   (numpy on a private warm copy: {r['private_read_ns'] / 1e3:.2f} us)"
        print(
            f"{r['bytes']:>8} {r['consumer']:>8} {r['latency_ns'] / 1e3:>14.2f} us "
            f"{r['read_ns'] / 1e3:>16.2f} us{extra}"
        )
    for size in (4096, 1 << 20):
        py, rs = by[("python", size)], by[("rust", size)]
        print(
            f"{size:>8} python/rust: latency {py['latency_ns'] / rs['latency_ns']:.2f}x (aim <= 1.5x), "
            f"read {py['read_ns'] / rs['read_ns']:.2f}x" + (" (aim <= 1.2x)" if size > 4096 else "")
        )


if __name__ == "__main__":
    main()
