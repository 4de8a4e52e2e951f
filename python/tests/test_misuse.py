"""Misuse raises (never crashes): blocks after their release, views that outlive them, bad
arguments, roles, shapes."""

import numpy as np
import pytest

import handoff


@pytest.fixture
def pair(unique):
    chan = handoff.Channel.create(unique, 1024, 1)
    return chan, chan.producer(), chan.consumer()


def test_block_after_release_raises(pair):
    _, tx, rx = pair
    tx.loan().publish()
    blk = rx.recv_timeout(5)
    blk.release()
    with pytest.raises(handoff.UsageError, match="released already"):
        blk.array()
    with pytest.raises(handoff.UsageError, match="released already"):
        memoryview(blk)
    with pytest.raises(handoff.UsageError, match="released already"):
        blk.release()
    with blk:  # leaving a with after an explicit release is fine
        pass


def test_loan_after_publish_raises(pair):
    _, tx, _ = pair
    loan = tx.loan()
    loan.publish()
    with pytest.raises(handoff.UsageError, match="published already"):
        loan.array()
    with pytest.raises(handoff.UsageError, match="published already"):
        loan.publish()


def test_block_is_held_until_its_views_are_dropped(pair):
    _, tx, rx = pair
    with tx.loan() as loan:
        loan.array()[:] = 7
    blk = rx.recv_timeout(5)
    view = blk.array()
    blk.release()
    # Released, but the view keeps the block: the producer (one slot) cannot get it back,
    # and the view still reads the block as it was.
    with pytest.raises(handoff.TimeoutError):
        tx.try_loan()
    assert view.sum() == 7 * 1024
    with pytest.raises(handoff.UsageError, match="still alive"):
        rx.try_recv()
    with pytest.raises(handoff.UsageError, match="view"):
        rx.close()
    del view  # the last view goes: the block goes back to the producer
    with tx.try_loan() as loan:
        assert loan.seq == 1


def test_second_block_while_one_is_out_raises(pair):
    _, tx, rx = pair
    loan = tx.loan()
    with pytest.raises(handoff.UsageError, match="still out"):
        tx.try_loan()
    loan.publish()
    blk = rx.recv_timeout(5)
    with pytest.raises(handoff.UsageError, match="still out"):
        rx.try_recv()
    blk.release()


def test_received_block_is_read_only(pair):
    _, tx, rx = pair
    tx.loan().publish()
    with rx.recv_timeout(5) as blk:
        mv = memoryview(blk)
        assert mv.readonly
        with pytest.raises(TypeError):
            mv[0] = 1
        with pytest.raises(ValueError):
            blk.array().setflags(write=True)
        del mv


def test_exception_in_loan_block_does_not_publish(pair):
    _, tx, rx = pair
    with pytest.raises(RuntimeError):
        with tx.loan():
            raise RuntimeError("simulated failure while writing")
    with pytest.raises(handoff.TimeoutError):
        rx.try_recv()
    with tx.try_loan() as loan:  # the same slot, still block #0
        assert loan.seq == 0


def test_closed_sides_and_bad_arguments(pair, unique):
    chan, tx, rx = pair
    with pytest.raises(handoff.HandoffError, match="already taken"):
        chan.producer()
    with pytest.raises(ValueError, match="unknown wait strategy"):
        rx.set_patience(wait="sometimes")
    with pytest.raises(ValueError, match="unknown wait strategy"):
        chan.consumer(wait="sometimes")
    with pytest.raises(ValueError, match="timeout"):
        rx.recv_timeout(-1)
    with pytest.raises(ValueError, match="timeout"):
        rx.set_patience(timeout=-1)
    # The advice names Python's arguments, never the Rust-only ChannelConfig.
    with pytest.raises(handoff.HandoffError, match="block_size= and blocks=") as e:
        handoff.Channel.open(chan.name, 2048, 1, timeout=1)
    assert "ChannelConfig" not in str(e.value)
    with pytest.raises(ValueError):
        handoff.Channel.create(unique + "-zero", 0, 1)
    with pytest.raises(handoff.HandoffError, match="no segment named"):
        handoff.Channel.open(unique + "-missing", 1024, 1, timeout=0.05)
    rx.close()
    with pytest.raises(handoff.UsageError, match="closed"):
        rx.try_recv()
    with pytest.raises(handoff.ClosedError, match="consumer closed"):
        tx.loan_timeout(1)
