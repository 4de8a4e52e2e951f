"""The three forms of every blocking method (issue #43): `x()` waits with the object's
patience (`set_patience(wait=..., timeout=...)`, or the keyword arguments of the method that
made the object), `x_timeout(seconds)` waits at most that long, `try_x()` does not wait.

A form that waited where it must not (or ignored its own limit for the patience's "no limit")
would hang: each such call runs under a watchdog thread and fails the test if it is still
waiting after WATCHDOG seconds. The plain form is also checked where it must wait: for a block
or a permit another process hands over later."""

import threading

import pytest

import handoff
from conftest import spawn_python

WATCHDOG = 20


def returns(fn, *args):
    """fn(*args) in a daemon thread: its result, or its exception raised here; fails when it
    is still waiting after WATCHDOG seconds."""
    out = {}

    def run():
        try:
            out["value"] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            out["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(WATCHDOG)
    assert not t.is_alive(), f"{fn.__name__} still waiting after {WATCHDOG} s"
    if "error" in out:
        raise out["error"]
    return out["value"]


def test_patience_is_set_at_creation_and_by_set_patience(unique):
    chan = handoff.Channel.create(unique, 64, 2)
    tx = chan.producer(wait="spin", timeout=0.5)
    rx = chan.consumer()
    assert tx.patience == ("spin", 0.5)
    assert rx.patience == ("adaptive", None)
    rx.set_patience(wait="block", timeout=0)
    assert rx.patience == ("block", 0.0)
    seg = handoff.Segment.anonymous(handoff.PRIMITIVE_SIZE)
    flag = seg.flag(0, wait="spin-yield", timeout=2)
    assert flag.patience == ("spin-yield", 2.0)
    flag.set_patience()
    assert flag.patience == ("adaptive", None)


def test_receive_forms(unique):
    chan = handoff.Channel.create(unique, 64, 2)
    tx, rx = chan.producer(), chan.consumer(wait="block")  # no time limit
    # Nothing published: the try_ and _timeout forms end by their own rule.
    with pytest.raises(handoff.TimeoutError):
        returns(rx.try_recv)
    with pytest.raises(handoff.TimeoutError):
        returns(rx.recv_timeout, 0.001)
    # The plain form ends by the patience's limit.
    rx.set_patience(timeout=0.001)
    with pytest.raises(handoff.TimeoutError):
        returns(rx.recv)
    # Each form takes what is there, in order.
    rx.set_patience(wait="block")
    for i in range(2):
        with tx.loan() as blk:
            blk.array("u1")[:] = i + 1
    with returns(rx.recv) as blk:
        assert blk.seq == 0 and blk.array("u1")[63] == 1
    with returns(rx.recv_timeout, 0.001) as blk:
        assert blk.seq == 1 and blk.array("u1")[63] == 2
    with tx.loan() as blk:
        blk.array("u1")[:] = 3
    with returns(rx.try_recv) as blk:
        assert blk.seq == 2 and blk.array("u1")[63] == 3


def test_loan_forms(unique):
    chan = handoff.Channel.create(unique, 64, 2)
    tx, rx = chan.producer(wait="block"), chan.consumer()  # no time limit
    returns(tx.loan).publish()
    returns(tx.loan_timeout, 0.001).publish()
    # Both blocks in flight: each form ends by its own rule.
    with pytest.raises(handoff.TimeoutError):
        returns(tx.try_loan)
    with pytest.raises(handoff.TimeoutError):
        returns(tx.loan_timeout, 0.001)
    tx.set_patience(timeout=0.001)
    with pytest.raises(handoff.TimeoutError):
        returns(tx.loan)
    rx.recv().release()
    returns(tx.try_loan).publish()


LATE_PUBLISH = r"""
import sys, time, handoff
tx = handoff.Channel.open(sys.argv[1], 64, 2, timeout=10).producer()
time.sleep(0.1)
with tx.loan() as blk:
    blk.array("u1")[:] = 9
"""

LATE_POST = r"""
import sys, time, handoff
sem = handoff.Segment.open(sys.argv[1], timeout=10).semaphore(0)
time.sleep(0.1)
sem.post()
"""


def test_the_plain_form_waits_for_another_process(unique):
    chan = handoff.Channel.create(unique, 64, 2)
    rx = chan.consumer(timeout=WATCHDOG)
    child = spawn_python(LATE_PUBLISH, chan.name)
    try:
        with rx.recv() as blk:
            assert blk.seq == 0 and blk.array("u1")[0] == 9
        assert child.wait(timeout=30) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    seg = handoff.Segment.create(unique + "-seg", handoff.PRIMITIVE_SIZE)
    sem = seg.semaphore(0, timeout=WATCHDOG)
    seg.publish_ready()
    child = spawn_python(LATE_POST, seg.name)
    try:
        sem.wait()
        assert sem.value == 0
        assert child.wait(timeout=30) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_primitive_forms():
    seg = handoff.Segment.anonymous(4 * handoff.PRIMITIVE_SIZE)
    sem = seg.semaphore(0, wait="block")  # no time limit
    flag, sig, bar = seg.flag(128), seg.signal(256), seg.barrier(384)
    # No permit: each form ends by its own rule.
    with pytest.raises(handoff.TimeoutError):
        returns(sem.try_wait)
    with pytest.raises(handoff.TimeoutError):
        returns(sem.wait_timeout, 0.001)
    sem.set_patience(timeout=0.001)
    with pytest.raises(handoff.TimeoutError):
        returns(sem.wait)
    for _ in range(3):
        sem.post()
    returns(sem.wait)
    returns(sem.wait_timeout, 0.001)
    returns(sem.try_wait)
    assert sem.value == 0
    # Flag and signal: the same three forms.
    with pytest.raises(handoff.TimeoutError):
        returns(flag.try_wait_for, 1)
    with pytest.raises(handoff.TimeoutError):
        returns(flag.wait_change_timeout, 0, 0.001)
    flag.set_patience(timeout=0.001)
    with pytest.raises(handoff.TimeoutError):
        returns(flag.wait_for, 1)
    flag.store(1)
    returns(flag.wait_for, 1)
    assert returns(flag.try_wait_change, 0) == 1
    sig.add(5)
    assert returns(sig.try_wait_until, 5) == 5
    assert returns(sig.wait_until_timeout, 5, 0.001) == 5
    with pytest.raises(handoff.TimeoutError):
        returns(sig.try_wait_until, 6)
    # A barrier of one party passes in every form.
    bar.init(1)
    assert returns(bar.wait) and returns(bar.wait_timeout, 0.001) and returns(bar.try_wait)
