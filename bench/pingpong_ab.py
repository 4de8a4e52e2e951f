#!/usr/bin/env python3
"""Team 8 B one-way against the c2c floor, alternating binaries and waits in one loop.

    bench/pingpong_ab.py ROUNDS BIN[=LABEL] [BIN[=LABEL] ...]

Each round runs, for every binary and for the default wait and `--wait spin`,
`BIN bench pingpong --method put-signal,line --sizes 8 --placement shared-l3 --runs 3`
and reads its JSON: each record's median and its own c2c floor (probed before and after it;
a record whose host changed state in between has none and is left out, counted).
The VM's host flips between a fast state (floor ~31-40 ns) and a slow one (~160-220 ns)
that lasts seconds to minutes, so every figure is a ratio within one invocation (latency /
its own floor) or between two adjacent invocations in the same state, grouped by state.
"""
import json, os, statistics, subprocess, sys, tempfile

rounds = int(sys.argv[1])
bins = [(a.split("=", 1) + [os.path.basename(a)])[:2] for a in sys.argv[2:]]
rows = []  # (round, label, wait, method, latency_ns, floor_ns)
drifted = []  # (round, label, wait, method) of records whose floor drifted
tmp = tempfile.mkdtemp()
for r in range(rounds):
    for path, label in bins:
        for wait in ("adaptive", "spin"):
            out = os.path.join(tmp, "pp.json")
            subprocess.run([path, "bench", "pingpong", "--method", "put-signal,line",
                            "--sizes", "8", "--placement", "shared-l3", "--runs", "3",
                            "--wait", wait, "-q", "--format", "json", "-o", out],
                           check=True, stdout=subprocess.DEVNULL)
            d = json.load(open(out))
            for rec in d["records"]:
                assert rec["verified"], rec
                m = rec["metrics"]["latency_us"]["summary"]["median"] * 1000
                # The record's own floor, probed before and after it; none when the host
                # changed state in between (then the run's note says so): such a record
                # has no ratio and is left out. Files from before the probe-after use the
                # run's floor.
                floor = rec.get("c2c_one_way_ns") if "c2c_after_ns" in rec.get("info", {}) \
                    else d["c2c"][0]["one_way_ns"]
                if floor is None:
                    drifted.append((r, label, wait, rec["params"]["method"]))
                    print(f"round {r} {label:>10} {wait:>8} {rec['params']['method']:>10} "
                          f"{m:7.1f} ns  host changed state during the record: left out", flush=True)
                    continue
                rows.append((r, label, wait, rec["params"]["method"], m, floor))
                print(f"round {r} {label:>10} {wait:>8} {rec['params']['method']:>10} "
                      f"{m:7.1f} ns  floor {floor:6.1f} ns  ratio {m / floor:5.2f}", flush=True)

def state(f):
    return "fast" if f < 90 else "slow"

print(f"\n{len(drifted)} records left out: the host changed state during them")
print("summary: median (min-max) over invocations of latency / floor, by host state")
for st in ("fast", "slow"):
    for _, label in bins:
        for wait in ("adaptive", "spin"):
            for method in ("put-signal", "line"):
                xs = [m / f for (_, l, w, me, m, f) in rows
                      if l == label and w == wait and me == method and state(f) == st]
                ls = [m for (_, l, w, me, m, f) in rows
                      if l == label and w == wait and me == method and state(f) == st]
                if xs:
                    print(f"{st} {label:>10} {wait:>8} {method:>10}: latency {statistics.median(ls):6.1f} ns,"
                          f" /floor {statistics.median(xs):.2f} ({min(xs):.2f}-{max(xs):.2f}), n={len(xs)}")
print("\ndefault / spin, adjacent invocations in the same state (median, range)")
for _, label in bins:
    for method in ("put-signal", "line"):
        rs = []
        for r in range(rounds):
            a = [(m, f) for (rr, l, w, me, m, f) in rows if rr == r and l == label and w == "adaptive" and me == method]
            s = [(m, f) for (rr, l, w, me, m, f) in rows if rr == r and l == label and w == "spin" and me == method]
            if a and s and state(a[0][1]) == state(s[0][1]):
                rs.append((a[0][0] / s[0][0], state(a[0][1])))
        for st in ("fast", "slow"):
            xs = [x for x, s2 in rs if s2 == st]
            if xs:
                print(f"{st} {label:>10} {method:>10}: {statistics.median(xs):.2f} ({min(xs):.2f}-{max(xs):.2f}), n={len(xs)}")
