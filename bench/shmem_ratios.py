#!/usr/bin/env python3
"""Reads the output of crates/handoff-shmem/bench/run.sh or rma_sync_run.sh (stdin) and
prints, per case, each implementation's median over rounds and handoff-default / peer per
round (same round: adjacent invocations), so a slow round shows instead of being averaged
away. rma_sync_run.sh's names are read as the same roles: handoff-adaptive is the default
wait, openmpi-osc-sm the peer."""
import re, statistics, sys
from collections import defaultdict

vals = defaultdict(dict)  # (case) -> {(round, impl): median}
for line in sys.stdin:
    m = re.match(r"round=(\d+) impl=(\S+) (\S+) (.*?) median_us=([\d.]+)", line)
    if m:
        r, impl, prog, args, med = m.groups()
        impl = {"handoff-adaptive": "handoff-default", "openmpi-osc-sm": "peer"}.get(impl, impl)
        vals[f"{prog} {args}"][(int(r), impl)] = float(med)
for case, d in vals.items():
    rounds = sorted({r for r, _ in d})
    line = [case]
    for impl in ("handoff-default", "handoff-spin", "peer"):
        xs = [d[(r, impl)] for r in rounds if (r, impl) in d]
        if xs:
            line.append(f"{impl} {statistics.median(xs):.4f}")
    for ref in ("peer", "handoff-spin"):
        rs = [d[(r, "handoff-default")] / d[(r, ref)] for r in rounds
              if (r, "handoff-default") in d and (r, ref) in d]
        if rs:
            line.append(f"default/{ref} " + " ".join(f"{x:.2f}" for x in rs)
                        + f" (median {statistics.median(rs):.2f})")
    print(" | ".join(line))
