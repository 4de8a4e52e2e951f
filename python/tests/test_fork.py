"""A forked child's handles are copies (issue #40, item 2): its normal exit must leave the
parent's channel and segment alone. It used to unlink both names (the drop saw the creator
flag and unlinked without asking whether this process is the creator), so every later open
failed (and its exit closed the parent's channel)."""

import os

import handoff

from conftest import expect_line

# Creates a channel (claiming its producer) and a segment, forks a child that exits
# normally (sys.exit: the interpreter's finalization drops every inherited handle), then
# uses both by name.
FORK_THEN_USE = """
import os, sys, handoff
chan = handoff.Channel.create(sys.argv[1], 64, 2)
tx = chan.producer()
seg = handoff.Segment.create(sys.argv[1] + "-seg", 4096)
seg.publish_ready()
pid = os.fork()
if pid == 0:
    sys.exit(0)
_, status = os.waitpid(pid, 0)
print("child=" + str(os.waitstatus_to_exitcode(status)), flush=True)
print("names=" + chan.name + " " + seg.name, flush=True)
sys.stdin.readline()  # the test looked at /dev/shm
rx = handoff.Channel.open(chan.name, 64, 2, timeout=5).consumer()
with tx.loan_timeout(5) as blk:
    memoryview(blk)[0] = 7
with rx.recv_timeout(5) as blk:
    got = memoryview(blk)[0]
handoff.Segment.open(seg.name, timeout=5)
print("received=" + str(got), flush=True)
# The child's exit did not close the producer's side either: nothing more, but no close.
try:
    rx.recv_timeout(0.05)
    print("next=a block", flush=True)
except handoff.TimeoutError:
    print("next=timeout", flush=True)
except handoff.ClosedError:
    print("next=closed", flush=True)
"""


def test_forked_childs_exit_keeps_the_parents_names(unique):
    import subprocess
    import sys

    child = subprocess.Popen(
        [sys.executable, "-u", "-c", FORK_THEN_USE, unique],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert expect_line(child, "child=") == "0"
        chan_name, seg_name = expect_line(child, "names=").split()
        for name in (chan_name, seg_name):
            assert os.path.exists("/dev/shm" + name), f"{name} was unlinked by the child's exit"
        child.stdin.write("go\n")
        child.stdin.flush()
        assert expect_line(child, "received=") == "7"
        assert expect_line(child, "next=") == "timeout"
        assert child.wait(timeout=30) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
