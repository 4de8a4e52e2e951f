"""The README's example pair: examples/c/simulation.c feeding examples/python/analysis.py."""

import os
import signal
import subprocess
import sys

import pytest

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


def _start_pair(c_simulation, unique, n=64):
    """A long run of the pair (100000 steps); returns (sim, analysis, the channel's full
    name) once the analysis has received a block."""
    sim = subprocess.Popen(
        [str(c_simulation), "100000", str(n), str(n), unique],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    first = sim.stdout.readline()
    assert first.startswith("simulation: channel /"), first + sim.stderr.read()
    full = first.split()[2].rstrip(",")
    ana = subprocess.Popen(
        [sys.executable, "-u", str(REPO / "examples/python/analysis.py"), "--name", unique,
         "--nx", str(n), "--ny", str(n), "--every", "1000000"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert ana.stdout.readline().startswith("step     0:")
    return sim, ana, full


def _segment_exists(full):
    return os.path.exists("/dev/shm" + full)


def _remove_leftover(full):
    """After the test: a segment the run left (the test failed, or SIGKILL) is this test's."""
    if _segment_exists(full):
        os.unlink("/dev/shm" + full)


def test_a_killed_analysis_is_reported_and_the_segment_removed(c_simulation, unique):
    sim, ana, full = _start_pair(c_simulation, unique)
    try:
        assert _segment_exists(full)
        ana.kill()
        ana.wait(timeout=60)
        assert sim.wait(timeout=60) == 1
        err = sim.stderr.read()
        assert "simulation: analysis died: HANDOFF_E_PEER_GONE" in err, err
        assert not _segment_exists(full), f"{full} was left behind"
    finally:
        for p in (sim, ana):
            p.kill()
            p.wait()
        _remove_leftover(full)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_simulation_removes_its_segment(c_simulation, unique, sig):
    sim, ana, full = _start_pair(c_simulation, unique)
    try:
        sim.send_signal(sig)
        assert sim.wait(timeout=60) == 128 + sig
        err = sim.stderr.read()
        assert f"simulation: stopped by signal {int(sig)}" in err, err
        assert not _segment_exists(full), f"{full} was left behind"
        # The analysis drains what was published and ends normally.
        assert ana.wait(timeout=60) == 0
        assert ana.stdout.read().splitlines()[-1].startswith("analysis: ")
    finally:
        for p in (sim, ana):
            p.kill()
            p.wait()
        _remove_leftover(full)


def test_a_stopped_simulation_with_nobody_reading_removes_its_segment(c_simulation, unique):
    # Every block in flight: the simulation waits for a free one when SIGTERM comes.
    sim = subprocess.Popen(
        [str(c_simulation), "100", "16", "16", unique],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    full = sim.stdout.readline().split()[2].rstrip(",")
    try:
        assert _segment_exists(full)
        sim.send_signal(signal.SIGTERM)
        assert sim.wait(timeout=60) == 128 + signal.SIGTERM, sim.stderr.read()
        assert not _segment_exists(full), f"{full} was left behind"
    finally:
        sim.kill()
        sim.wait()
        _remove_leftover(full)


def test_a_killed_simulation_is_reported_by_the_analysis(c_simulation, unique):
    sim, ana, full = _start_pair(c_simulation, unique)
    try:
        sim.kill()
        sim.wait(timeout=60)
        assert ana.wait(timeout=60) == 1
        err = ana.stderr.read()
        assert "analysis: simulation died after" in err, err
    finally:
        for p in (sim, ana):
            p.kill()
            p.wait()
        # SIGKILL left the creator's segment (nobody alive can tell it is stale).
        _remove_leftover(full)
