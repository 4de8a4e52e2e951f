"""What another process can do to a Python user's channel (issue #24, items 6 and 7): error
messages that name Python's arguments (never a Rust-only option), and ring counters moved by
a stranger, which raise CorruptError instead of handing out blocks never published."""

import handoff
import pytest

from conftest import expect_line, spawn_python

# Creates a 64-byte x 4 channel, publishes 3 blocks, prints its name, then waits to be killed.
PRODUCER = """
import sys, time, handoff
chan = handoff.Channel.create(sys.argv[1], 64, 4)
tx = chan.producer()
for seq in range(3):
    with tx.loan_timeout(10) as blk:
        memoryview(blk)[0] = seq
print("name=" + chan.name, flush=True)
time.sleep(60)
"""

# The published counter's offset in the channel's segment (the header's Ring, after 128
# bytes of magic and geometry; the test checks the value found there first).
PUBLISHED_AT = 128


def remove_killed_creators_segments(unique):
    """The SIGKILLed child cannot remove its channel: the test does (its unique tag only)."""
    import glob
    import os

    for path in glob.glob(f"/dev/shm/handoff-*-{unique}~*"):
        os.remove(path)


def test_errors_name_python_arguments(unique):
    child = spawn_python(PRODUCER, unique)
    try:
        name = expect_line(child, "name=")
        with pytest.raises(handoff.HandoffError) as e:
            handoff.Channel.open(name, 1024, 4, timeout=5)
        msg = str(e.value)
        assert "block_size= and blocks=" in msg and "ChannelConfig" not in msg, msg
        with pytest.raises(handoff.HandoffError) as e:
            handoff.Channel.open(unique + "-missing", 64, 4, timeout=0.05)
        msg = str(e.value)
        assert ".name" in msg and "Segment::name()" not in msg, msg
    finally:
        child.kill()
        child.wait()
        remove_killed_creators_segments(unique)


def test_moved_counter_raises_corrupt_error(unique):
    child = spawn_python(PRODUCER, unique)
    try:
        name = expect_line(child, "name=")
        chan = handoff.Channel.open(name, 64, 4, timeout=5)
        rx = chan.consumer()
        with rx.recv_timeout(5) as blk:
            assert memoryview(blk)[0] == 0
        # A stranger (here: another mapping of the segment) adds 17,154 to `published`.
        seg = handoff.Segment.open(name, timeout=5)
        published = seg.signal(PUBLISHED_AT)
        assert published.load() == 3, "counter layout moved"
        published.add(17154)
        for _ in range(3):
            with pytest.raises(handoff.CorruptError, match=name):
                rx.recv_timeout(1)
        assert rx.received == 1
    finally:
        child.kill()
        child.wait()
