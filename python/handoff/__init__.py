"""handoff: zero-copy shared-memory channels and synchronization between processes.

A producer loans a block, writes it in place (a writable numpy array) and publishes it; a
consumer receives it as a read-only numpy array viewing the same shared memory (no copy)
and releases it::

    import numpy as np, handoff

    # process A
    chan = handoff.Channel.create("field", block_size=8 * 1024, blocks=2)
    tx = chan.producer()
    with tx.loan() as blk:                    # publishes on leaving the block
        blk.array(np.float64)[:] = 1.5

    # process B
    chan = handoff.Channel.open("field", block_size=8 * 1024, blocks=2)
    rx = chan.consumer()
    with rx.recv_timeout(5) as blk:           # releases on leaving the block
        print(blk.array(np.float64).sum())

A block is held until its views are gone: ``release()`` (or leaving the ``with``) hands it
back to the producer at once when no array of it is alive, else when the last one is
dropped; the block object itself refuses any use after ``release()`` (UsageError). Keep a
copy (``arr.copy()``) of what must outlive the block.

Waiting is the library's one convention: each producer, consumer and primitive holds a
*patience*, a strategy ``wait`` ("adaptive", the default, "spin", "spin-yield", "block" or
"adaptive:20us") and a default ``timeout`` in seconds (None: none, the default; 0: look once),
given as keyword arguments to the method that makes it (``chan.consumer(timeout=60)``,
``seg.flag(0, wait="spin")``) or later to ``set_patience(wait=..., timeout=...)``, and read
back as the ``patience`` property, ``(wait, timeout)``. Each blocking method has three forms:
``recv()`` waits with the object's patience, ``recv_timeout(seconds)`` at most that long (the
object's strategy), ``try_recv()`` not at all (TimeoutError when it would); likewise
``loan``, ``wait_for``, ``wait_change``, ``wait_until`` and ``wait``. Waits release the GIL
and can be interrupted with Ctrl-C. Errors are HandoffError subclasses carrying the library's
messages.
"""

from ._native import (
    PRIMITIVE_SIZE,
    Barrier,
    Block,
    Channel,
    ClosedError,
    Consumer,
    CorruptError,
    Flag,
    HandoffError,
    Loan,
    PeerGoneError,
    Producer,
    Segment,
    Semaphore,
    Signal,
    TimeoutError,
    UsageError,
)

__all__ = [
    "PRIMITIVE_SIZE",
    "Barrier",
    "Block",
    "Channel",
    "ClosedError",
    "Consumer",
    "CorruptError",
    "Flag",
    "HandoffError",
    "Loan",
    "PeerGoneError",
    "Producer",
    "Segment",
    "Semaphore",
    "Signal",
    "TimeoutError",
    "UsageError",
]
