"""Channels across processes: Python <-> Python, C -> Python, a dead peer; zero-copy views."""

import signal
import subprocess
import threading

import numpy as np
import pytest

import handoff
from conftest import expect_line, spawn_python

PRODUCER = r"""
import sys, numpy as np, handoff
name, n, words = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
chan = handoff.Channel.create(name, words * 8, 2)
print("name=" + chan.name)
tx = chan.producer()
for i in range(n):
    with tx.loan_timeout(30) as blk:
        # block i holds i*1000 + j, j = 0..words-1 (float64)
        a = blk.array(np.float64)
        a[:] = np.arange(words) + i * 1000.0
        del a
tx.close()
print("done")
"""


def closed_form_block_sum(i, words):
    # sum_j (i*1000 + j) = words*i*1000 + words*(words-1)/2
    return words * i * 1000.0 + words * (words - 1) / 2


def test_two_python_processes_round_trip(unique):
    n, words = 50, 512
    child = spawn_python(PRODUCER, unique, str(n), str(words))
    try:
        name = expect_line(child, "name=")
        chan = handoff.Channel.open(name, words * 8, 2, timeout=10)
        rx = chan.consumer()
        for i in range(n):
            with rx.recv_timeout(30) as blk:
                assert blk.seq == i
                assert blk.array(np.float64).sum() == closed_form_block_sum(i, words)
        with pytest.raises(handoff.ClosedError, match="producer closed"):
            rx.recv_timeout(30)
        assert expect_line(child, "done") == ""
        assert child.wait(timeout=30) == 0
    finally:
        child.kill()


def test_c_producer_python_consumer(c_roundtrip, unique):
    n, nbytes = 100, 4096
    words = nbytes // 4
    prod = subprocess.Popen(
        [str(c_roundtrip), "produce", unique, str(n), str(nbytes)], stdout=subprocess.PIPE, text=True
    )
    try:
        name = expect_line(prod, "name=")
        rx = handoff.Channel.open(name, nbytes, 2, timeout=10).consumer()
        total = 0
        for i in range(n):
            with rx.recv_timeout(30) as blk:
                w = blk.array(np.uint32)
                # the C producer writes word j of block i as i*1000003 + j
                assert w[0] == i * 1000003 and w[-1] == i * 1000003 + words - 1
                total += int(w.sum(dtype=np.uint64))
                del w
        # closed form of the whole stream's sum (as the C test checks it)
        assert total == words * 1000003 * (n * (n - 1) // 2) + n * (words * (words - 1) // 2)
        assert int(expect_line(prod, "sum=")) == total
        with pytest.raises(handoff.ClosedError):
            rx.recv_timeout(30)
        assert prod.wait(timeout=30) == 0
    finally:
        prod.kill()


def test_dead_producer_raises_peer_gone(c_roundtrip, unique):
    prod = subprocess.Popen([str(c_roundtrip), "hang", unique], stdout=subprocess.PIPE, text=True)
    try:
        name = expect_line(prod, "name=")
        rx = handoff.Channel.open(name, 4096, 2, timeout=10).consumer()
        killer = threading.Timer(0.2, prod.send_signal, (signal.SIGKILL,))
        killer.start()
        with pytest.raises(handoff.PeerGoneError, match="died"):
            rx.recv_timeout(30)
        killer.join()
    finally:
        prod.kill()
        prod.wait()


def test_views_are_zero_copy_and_typed(unique):
    chan = handoff.Channel.create(unique, 4096, 2)
    tx, rx = chan.producer(), chan.consumer()
    with tx.loan() as loan:
        w = loan.array(np.float64, (16, 32))
        assert w.flags.writeable and w.shape == (16, 32)
        w[3, 4] = 42.0
        address = w.__array_interface__["data"][0]
        del w
    with rx.recv_timeout(5) as blk:
        r = blk.array(np.float64, (16, 32))
        assert not r.flags.writeable
        with pytest.raises(ValueError):
            r[0, 0] = 1.0
        assert r[3, 4] == 42.0 and r.sum() == 42.0
        # the same bytes, not a copy: with one-slot rotation the consumer's view of block 0
        # lies where the producer wrote it
        assert r.__array_interface__["data"][0] == address
        assert np.shares_memory(r, blk.array(np.float64, (16, 32)))
        assert bytes(memoryview(blk)[:8]) == b"\0" * 8
        del r


def test_waits_release_the_gil(unique):
    chan = handoff.Channel.create(unique, 64, 1)
    tx, rx = chan.producer(), chan.consumer()
    got = []
    t = threading.Thread(target=lambda: got.append(rx.recv_timeout(30).seq))
    t.start()
    # This thread runs Python while the other waits in recv: impossible if it held the GIL.
    spins = sum(1 for _ in range(200_000))
    tx.loan_timeout(5).publish()
    t.join(timeout=30)
    assert spins == 200_000 and got == [0]
