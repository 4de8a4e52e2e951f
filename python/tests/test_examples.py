"""The README's example pair: examples/c/simulation.c feeding examples/python/analysis.py."""

import subprocess
import sys

from conftest import REPO


def test_simulation_and_analysis_pair(c_simulation, unique):
    steps, n = 30, 64
    sim = subprocess.Popen(
        [str(c_simulation), str(steps), str(n), str(n), unique], stdout=subprocess.PIPE, text=True
    )
    try:
        out = subprocess.run(
            [sys.executable, str(REPO / "examples/python/analysis.py"), "--name", unique,
             "--nx", str(n), "--ny", str(n), "--every", "1"],
            capture_output=True, text=True, timeout=120, check=True,
        ).stdout.splitlines()
        assert sim.wait(timeout=60) == 0
    finally:
        sim.kill()
    heat = [line for line in out if line.startswith("step")]
    assert [int(line.split()[1].rstrip(":")) for line in heat] == list(range(steps))
    # A 16 x 16 square at 100 diffuses without reaching the cold edges in 30 steps (it
    # spreads ~ sqrt(2 * 0.2 * 30) ~ 3.5 cells): the total heat stays 16 * 16 * 100.
    assert all(" 25600.00," in line for line in heat), heat
    hottest = [float(line.rsplit(" ", 1)[1]) for line in heat]
    assert hottest[0] == 100.0 and hottest[-1] < 100.0
    assert out[-1] == f"analysis: {steps} steps received"
