#!/usr/bin/env python3
"""The team's hand-off calls in tight loops against the c2c floor, alternating, by host state.

    bench/line_hop_floor.py [ROUNDS=40] [CPUS=0,1]

Each round runs `handoff bench c2c --cores CPUS` (the probe's floor: one cache line bounced
between two threads, median one-way) and then `handoff run -n 2 --cores CPUS --wait spin --
examples/line_hop 2000 5` (PE 0 prints the median one-way of each variant), both under
`chrt -f 10` when allowed. Needs `cargo build --release -p handoff-cli` and
`cargo build --release -p handoff --example line_hop`.

The VM's host flips between a fast state (floor ~30-45 ns) and a slow one (~160-230 ns) within
seconds; a round is "fast" when the floor and every variant read fast, "slow" when all read
slow, and is dropped as "mixed" otherwise. Printed per state: each variant's median latency and
its ratio to the floor of the same round, median (min-max).
"""
import os, shutil, statistics, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
handoff = os.path.join(root, "target/release/handoff")
hop = os.path.join(root, "target/release/examples/line_hop")
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 40
cpus = sys.argv[2] if len(sys.argv) > 2 else "0,1"
fifo = ["chrt", "-f", "10"] if shutil.which("chrt") and os.geteuid() == 0 else []


def run(args):
    return subprocess.run(fifo + args, check=True, capture_output=True, text=True).stdout


rows = []  # (floor, {variant: ns})
names = []
for r in range(rounds):
    out = run([handoff, "bench", "c2c", "--cores", cpus, "-q"])
    floor = float([l for l in out.splitlines() if "c2c floor" in l][0].split()[-2])
    lines = run([handoff, "run", "-n", "2", "--cores", cpus, "--wait", "spin", "--", hop,
                 "2000", "5"]).splitlines()[1:]
    v = {l.rsplit("min", 1)[0].strip(): float(l.split()[-1]) for l in lines}
    names = names or list(v)
    rows.append((floor, v))
    print(f"round {r:3d} floor {floor:6.1f} ns | " +
          " | ".join(f"{k} {x:6.1f}" for k, x in v.items()), flush=True)

fast = [(f, v) for f, v in rows if f < 90 and max(v.values()) < 120]
slow = [(f, v) for f, v in rows if f >= 90 and min(v.values()) >= 90]
print(f"\n{len(rows)} rounds: fast {len(fast)}, slow {len(slow)}, "
      f"mixed {len(rows) - len(fast) - len(slow)} (dropped)")
for state, rs in (("fast", fast), ("slow", slow)):
    if not rs:
        continue
    fl = [f for f, _ in rs]
    print(f"{state}: floor {statistics.median(fl):.1f} ns ({min(fl):.1f}-{max(fl):.1f})")
    for n in names:
        xs = [v[n] / f for f, v in rs]
        ls = [v[n] for _, v in rs]
        print(f"  {n:28s} {statistics.median(ls):6.1f} ns   / floor "
              f"{statistics.median(xs):.2f} ({min(xs):.2f}-{max(xs):.2f})")
