"""In-situ analysis of examples/c/simulation.c: receives the 2-D field of every time step
from the channel (a read-only numpy array viewing the simulation's shared memory, no copy),
reduces it and prints a statistic. Run the pair as the README shows:

    ./simulation 200 256 256 field &
    python examples/python/analysis.py --nx 256 --ny 256 --name field

Needs only numpy and `pip install ./python`.
"""

import argparse
import sys

import numpy as np

import handoff


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--name", default="field", help="the simulation's channel name")
    ap.add_argument("--nx", type=int, default=256)
    ap.add_argument("--ny", type=int, default=256)
    ap.add_argument("--blocks", type=int, default=4, help="the simulation's ring size")
    ap.add_argument("--every", type=int, default=20, help="print every N-th step")
    args = ap.parse_args()

    # Waits up to 30 s for the simulation to create the channel.
    chan = handoff.Channel.open(args.name, args.nx * args.ny * 8, args.blocks, timeout=30)
    rx = chan.consumer()
    steps = 0
    while True:
        try:
            blk = rx.recv_timeout(60)
        except handoff.ClosedError:
            break  # the simulation finished (or was stopped) and every step was read
        except handoff.PeerGoneError as e:
            sys.exit(f"analysis: simulation died after {steps} steps: {e}")
        with blk:
            field = blk.array(np.float64, (args.ny, args.nx))
            heat = field.sum()  # reduced in place, in shared memory
            hottest = field.max()
            if blk.seq % args.every == 0:
                print(f"step {blk.seq:5d}: total heat {heat:12.2f}, hottest {hottest:8.3f}")
            del field  # no view outlives the block: it goes back to the simulation at once
        steps += 1
    print(f"analysis: {steps} steps received")


if __name__ == "__main__":
    main()
