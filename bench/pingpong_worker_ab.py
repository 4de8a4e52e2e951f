#!/usr/bin/env python3
"""The lab's 8 B line hop three ways, alternating in one loop: its worker under `handoff run`
(with the bench's 1 MiB heap and with the run's 256 MiB), `handoff bench pingpong`, and
`examples/line_hop`'s lab-shaped loop.

    cargo build --release -p handoff-cli && cargo build --release -p handoff --example line_hop
    chrt -f 10 bench/pingpong_worker_ab.py ROUNDS

Each figure is the median hop (ns), the floor measured beside it and their ratio; the summary
keeps the ~38 ns host state (floor 25-90 ns). The worker and the bench divide by the floors the
PEs measure in the hop's own line (`experiments/team_floor.rs`); `line_hop` by its own "c2c
floor in the team" variant, which runs in its dispatching loop and reads higher (issue #23,
docs/results.md session 9).
"""
import json, os, statistics, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HANDOFF = os.path.join(ROOT, "target/release/handoff")
LINE_HOP = os.path.join(ROOT, "target/release/examples/line_hop")
SPEC = json.dumps({"method": "line", "size": 8, "round_trips": 2000, "samples": 10,
                   "warmup": 100, "fault": None, "wait_timeout_s": 20.0, "floors": True})
RUN = [HANDOFF, "run", "-n", "2", "--cores", "0,1", "--wait", "spin"]


def worker(heap):
    out = subprocess.run(RUN + ["--heap", heap, "--", HANDOFF, "__worker", "pingpong", SPEC],
                         capture_output=True, text=True, check=True).stdout
    o = next(json.loads(l) for l in out.splitlines() if l.startswith("{"))
    o = o.get("output", o)
    ns = [us * 1000 for us in o["samples"]]
    c2c = [f[0] for f in o["floors"]]
    return (statistics.median(ns), statistics.median(c2c),
            statistics.median(x / f for x, f in zip(ns, c2c)))


def bench(path):
    subprocess.run([HANDOFF, "bench", "pingpong", "--method", "line", "--sizes", "8",
                    "--placement", "shared-l3", "--runs", "1", "--wait", "spin",
                    "--format", "json", "-q", "-o", path], check=True, capture_output=True)
    r = json.load(open(path))["records"][0]
    assert r["verified"], r
    return (r["metrics"]["latency_us"]["summary"]["median"] * 1000,
            r["info"]["c2c_in_team_ns"], r["metrics"]["over_c2c_floor"]["summary"]["median"])


def line_hop():
    out = subprocess.run(RUN + ["--", LINE_HOP, "2000", "10"],
                         capture_output=True, text=True, check=True).stdout
    med = {l[:30].strip(): float(l.split()[-1]) for l in out.splitlines() if "median" in l}
    hop, floor = med["lab-style line loop"], med["the c2c floor in the team"]
    return hop, floor, hop / floor


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 25
    path = os.path.join(tempfile.mkdtemp(), "pp.json")
    ways = [("worker 1 MiB heap", lambda: worker(str((1 << 20) + 8))),
            ("worker 256 MiB heap", lambda: worker("256M")),
            ("bench pingpong", lambda: bench(path)),
            ("line_hop lab loop", line_hop)]
    got = {name: [] for name, _ in ways}
    for r in range(rounds):
        for name, way in ways:
            v = way()
            got[name].append(v)
            print(f"round {r} {name:>20}: {v[0]:6.1f} ns, floor {v[1]:6.1f}, ratio {v[2]:.2f}",
                  flush=True)
    print("\n~38 ns state (floor 25-90 ns): median hop, floor, ratio (n)")
    for name, vs in got.items():
        sel = [v for v in vs if 25 <= v[1] < 90]
        if sel:
            m = [statistics.median(v[i] for v in sel) for i in range(3)]
            print(f"{name:>20}: {m[0]:6.1f} ns, floor {m[1]:6.1f}, ratio {m[2]:.2f} "
                  f"(n={len(sel)})")


if __name__ == "__main__":
    main()
