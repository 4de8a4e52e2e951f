"""Flag, Signal, Semaphore and Barrier in a segment, between threads and processes."""

import threading

import pytest

import handoff
from conftest import expect_line, spawn_python


def test_flag_signal_semaphore_between_threads():
    seg = handoff.Segment.anonymous(4 * handoff.PRIMITIVE_SIZE)
    flag, sig, sem = seg.flag(0), seg.signal(128), seg.semaphore(256)
    seen = []

    def worker():
        flag.wait_for_timeout(1, 30)
        seen.append(sig.wait_until_timeout(10, 30))
        sem.wait_timeout(30)
        seen.append("sem")

    t = threading.Thread(target=worker)
    t.start()
    flag.store(1)
    for _ in range(10):
        sig.add()
    sem.post()
    t.join(timeout=30)
    assert seen == [10, "sem"]
    assert sem.value == 0
    with pytest.raises(handoff.TimeoutError):
        sem.try_wait()
    with pytest.raises(handoff.TimeoutError):
        flag.wait_for_timeout(2, 0.01)
    with pytest.raises(handoff.HandoffError, match="aligned"):
        seg.flag(8)
    with pytest.raises(handoff.HandoffError):
        seg.flag(4 * handoff.PRIMITIVE_SIZE)


CHILD = r"""
import sys, handoff
seg = handoff.Segment.open(sys.argv[1], timeout=10)
b = seg.barrier(0)
print("leader=%d" % b.wait_timeout(30))
seg.signal(128).add(5)
"""


def test_barrier_and_signal_between_processes(unique):
    seg = handoff.Segment.create(unique, 2 * handoff.PRIMITIVE_SIZE)
    b = seg.barrier(0)
    b.init(2)
    seg.publish_ready()
    child = spawn_python(CHILD, seg.name)
    try:
        me = b.wait_timeout(30)
        other = int(expect_line(child, "leader="))
        assert me + other == 1  # exactly one leader
        assert seg.signal(128).wait_until_timeout(5, 30) == 5
        assert child.wait(timeout=30) == 0
    finally:
        child.kill()
    with pytest.raises(ValueError, match="parties"):
        b.init(0)
