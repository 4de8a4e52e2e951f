#!/usr/bin/env python3
"""Team 8 B one-way against its floors, alternating binaries and waits in one loop.

    bench/pingpong_ab.py ROUNDS BIN[=LABEL] [BIN[=LABEL] ...]
    bench/pingpong_ab.py --from DIR      # summarize pingpong JSON files already written

Each round runs, for every binary and for the default wait and `--wait spin`,
`BIN bench pingpong --method put-signal,line --sizes 8 --placement shared-l3 --runs 3`
and reads its JSON. The VM's host flips between states within seconds (its c2c floor reads
~15, ~35-40 or ~200 ns), so every figure is a ratio to a floor of the same moment:
- `/c2c` and `/store`: each sample over the floors the two PEs measured themselves just
  before it, in the line the receiver waits on (`over_c2c_floor`, `over_store_floor`: one
  word both ways, the probe's pattern; a store into the word the peer spins on, the best a
  put can do); records are grouped by that in-team c2c floor;
- `/probe`: the median over the probe's floor (before and after the record; none, and
  counted, when the host changed state in between).
"""
import json, os, statistics, subprocess, sys, tempfile


def state(c2c_ns):
    if c2c_ns < 25:
        return "c2c<25ns"
    return "c2c 25-90ns" if c2c_ns < 90 else "slow"


def rows_of(path, r, label, wait):
    """(round, label, wait, method, latency ns, probe floor|None, in-team c2c, in-team
    store, over c2c, over store) per record of one pingpong JSON file."""
    d = json.load(open(path))
    out = []
    for rec in d["records"]:
        assert rec["verified"], rec
        m = rec["metrics"]["latency_us"]["summary"]["median"] * 1000
        info, mets = rec.get("info", {}), rec["metrics"]
        if "over_c2c_floor" not in mets:
            continue  # a build from before the in-team floors, or a same-CPU pair
        out.append((r, label, wait, rec["params"]["method"], m, rec.get("c2c_one_way_ns"),
                    info["c2c_in_team_ns"], info["store_floor_ns"],
                    mets["over_c2c_floor"]["summary"]["median"],
                    mets["over_store_floor"]["summary"]["median"]))
    return out


def show(row):
    r, label, wait, method, m, probe, c2c, store, oc, os_ = row
    p = f"{m / probe:5.2f}" if probe else "  -  "
    print(f"round {r} {label:>10} {wait:>8} {method:>10} {m:7.1f} ns  floors c2c {c2c:6.1f} "
          f"store {store:6.1f}  /c2c {oc:5.2f}  /store {os_:5.2f}  /probe {p}", flush=True)


rows = []
if sys.argv[1] == "--from":
    for name in sorted(os.listdir(sys.argv[2])):
        if name.endswith(".json"):
            wait = "spin" if "spin" in name else "adaptive"
            rows += rows_of(os.path.join(sys.argv[2], name), name, "file", wait)
    bins, rounds = [("", "file")], 0
else:
    rounds = int(sys.argv[1])
    bins = [(a.split("=", 1) + [os.path.basename(a)])[:2] for a in sys.argv[2:]]
    tmp = tempfile.mkdtemp()
    for r in range(rounds):
        for path, label in bins:
            for wait in ("adaptive", "spin"):
                out = os.path.join(tmp, "pp.json")
                subprocess.run([path, "bench", "pingpong", "--method", "put-signal,line",
                                "--sizes", "8", "--placement", "shared-l3", "--runs", "3",
                                "--wait", wait, "-q", "--format", "json", "-o", out],
                               check=True, stdout=subprocess.DEVNULL)
                new = rows_of(out, r, label, wait)
                for row in new:
                    show(row)
                rows += new

drifted = sum(1 for row in rows if row[5] is None)
print(f"\n{len(rows)} records; {drifted} without a probe floor (the host changed state "
      "between the probes before and after): their /c2c and /store stand, sample by sample")
print("summary by the in-team c2c floor's state: median (min-max) over records")
for st in ("c2c<25ns", "c2c 25-90ns", "slow"):
    for _, label in bins:
        for wait in ("adaptive", "spin"):
            for method in ("put-signal", "line"):
                sel = [row for row in rows if row[1] == label and row[2] == wait
                       and row[3] == method and state(row[6]) == st]
                if not sel:
                    continue
                med = lambda k: statistics.median(row[k] for row in sel)
                rng = lambda k: f"{min(row[k] for row in sel):.2f}-{max(row[k] for row in sel):.2f}"
                print(f"{st:>11} {label:>10} {wait:>8} {method:>10}: {med(4):6.1f} ns, floors "
                      f"c2c {med(6):5.1f} store {med(7):5.1f}; /c2c {med(8):.2f} ({rng(8)}), "
                      f"/store {med(9):.2f} ({rng(9)}), n={len(sel)}")
if rounds:
    print("\ndefault / spin, adjacent invocations in the same state (median, range)")
    for _, label in bins:
        for method in ("put-signal", "line"):
            rs = []
            for r in range(rounds):
                a = [row for row in rows if row[0] == r and row[1] == label
                     and row[2] == "adaptive" and row[3] == method]
                s = [row for row in rows if row[0] == r and row[1] == label
                     and row[2] == "spin" and row[3] == method]
                if a and s and state(a[0][6]) == state(s[0][6]):
                    rs.append((a[0][4] / s[0][4], state(a[0][6])))
            for st in ("c2c<25ns", "c2c 25-90ns", "slow"):
                xs = [x for x, s2 in rs if s2 == st]
                if xs:
                    print(f"{st:>11} {label:>10} {method:>10}: {statistics.median(xs):.2f} "
                          f"({min(xs):.2f}-{max(xs):.2f}), n={len(xs)}")
