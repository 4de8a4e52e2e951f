"""Ctrl-C interrupts every blocking call: a child blocked in one gets SIGINT and must end
with KeyboardInterrupt soon (the calls poll for signals every 0.1 s), long before the call's
own timeout of 60 s."""

import signal
import subprocess
import sys

import pytest

# Each case: the code a child runs before it blocks (it prints "blocking" just before the
# blocking call), with `NAME` replaced by a name no other test uses.
CASES = {
    # Waits for a channel nobody creates.
    "channel_open_missing": "handoff.Channel.open('NAME-none', 64, timeout=60)",
    # Waits for a created channel's segment that never becomes ready (this process is its
    # creator and never publishes it).
    "segment_open_not_ready": (
        "seg = handoff.Segment.create('NAME', 4096)\n"
        "print('blocking', flush=True)\n"
        "handoff.Segment.open(seg.name, timeout=60)"
    ),
    "recv": (
        "c = handoff.Channel.create('NAME', 64)\n"
        "cons = c.consumer()\n"
        "print('blocking', flush=True)\n"
        "cons.recv_timeout(60)"
    ),
    "loan": (
        "c = handoff.Channel.create('NAME', 64, blocks=2)\n"
        "p = c.producer()\n"
        "for _ in range(2):\n"
        "    p.loan_timeout(5).publish()\n"
        "print('blocking', flush=True)\n"
        "p.loan_timeout(60)"
    ),
    "flag_wait": (
        "seg = handoff.Segment.create('NAME', 4096)\n"
        "seg.publish_ready()\n"
        "print('blocking', flush=True)\n"
        "seg.flag(0).wait_for_timeout(1, 60)"
    ),
    "semaphore_wait": (
        "seg = handoff.Segment.create('NAME', 4096)\n"
        "seg.publish_ready()\n"
        "print('blocking', flush=True)\n"
        "seg.semaphore(0).wait_timeout(60)"
    ),
    "barrier_wait": (
        "seg = handoff.Segment.create('NAME', 4096)\n"
        "b = seg.barrier(0)\n"
        "b.init(2)\n"
        "seg.publish_ready()\n"
        "print('blocking', flush=True)\n"
        "b.wait_timeout(60)"
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_ctrl_c_interrupts_a_blocking_call(case, unique):
    body = CASES[case].replace("NAME", unique[:30])
    if "print('blocking'" not in body:
        body = "print('blocking', flush=True)\n" + body
    code = "import handoff\n" + body + "\nprint('returned', flush=True)\n"
    child = subprocess.Popen(
        [sys.executable, "-u", "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "blocking", child.stderr.read()
        # Let it get into the wait (a signal before the call would be handled anyway).
        try:
            child.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            pass
        assert child.poll() is None, "the child ended before its wait: " + child.stderr.read()
        child.send_signal(signal.SIGINT)
        # Generous: the call polls every 0.1 s; without polling it would block for 60 s.
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{case}: SIGINT did not interrupt the blocking call within 10 s")
        err = child.stderr.read()
        assert "KeyboardInterrupt" in err, err
        assert "Fatal Python error" not in err, err
        assert child.stdout.read() == ""
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stdout.close()
        child.stderr.close()
