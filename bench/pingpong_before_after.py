#!/usr/bin/env python3
"""Two builds of `handoff` side by side on the team's shared-memory hand-offs, alternating.

    bench/pingpong_before_after.py ROUNDS BEFORE AFTER [SIZES]

Each round runs BEFORE then AFTER (then AFTER then BEFORE in the next round, so neither
always goes first):
`BIN bench pingpong --method fence-flag,put-signal,line --sizes SIZES --placement shared-l3
--runs 3` (SIZES default 8,4K) and reads the median one-way latency of every method and size
from its JSON. `fence-flag` is a plain put + fence + a flag (the put path), `put-signal` the
put-with-signal, `line` the one-line hand-off. Prints each round's AFTER/BEFORE ratio per
figure (the two runs are seconds apart, so they share the machine's state), then the median
ratio and its range over rounds. A ratio above 1 is AFTER slower. Run `uptime` beside it:
on a loaded machine only the ratios mean anything.
"""
import json, os, statistics, subprocess, sys, tempfile

rounds, before, after = int(sys.argv[1]), sys.argv[2], sys.argv[3]
sizes = sys.argv[4] if len(sys.argv) > 4 else "8,4K"
tmp = tempfile.mkdtemp()


def run(binary):
    out = os.path.join(tmp, "pp.json")
    subprocess.run([binary, "bench", "pingpong", "--method", "fence-flag,put-signal,line",
                    "--sizes", sizes, "--placement", "shared-l3", "--runs", "3", "-q",
                    "--format", "json", "-o", out], check=True, stdout=subprocess.DEVNULL)
    figures = {}
    for rec in json.load(open(out))["records"]:
        assert rec["verified"], rec
        key = (rec["params"]["method"], rec["params"]["size_bytes"])
        figures[key] = rec["metrics"]["latency_us"]["summary"]["median"] * 1000
    return figures


ratios = {}
for r in range(rounds):
    order = [("before", before), ("after", after)]
    if r % 2:
        order.reverse()
    got = {label: run(b) for label, b in order}
    for key in sorted(got["before"]):
        if key not in got["after"]:
            continue
        a, b = got["before"][key], got["after"][key]
        ratios.setdefault(key, []).append(b / a)
        print(f"round {r} {key[0]:>10} {key[1]:>8} B: before {a:8.1f} ns  after {b:8.1f} ns  "
              f"after/before {b / a:5.2f}", flush=True)

print("\nafter/before, median (min-max) over rounds")
for key, xs in sorted(ratios.items()):
    print(f"{key[0]:>10} {key[1]:>8} B: {statistics.median(xs):.3f} ({min(xs):.2f}-{max(xs):.2f}),"
          f" n={len(xs)}")
