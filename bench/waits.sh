#!/bin/sh
# Issue #23's figures in one pass, alternating where it matters, on a quiet machine:
#   1. the team's 8 B one-way (put-signal and one-line put) against the c2c floor measured in
#      the same run, default wait and --wait spin alternating, ROUNDS rounds
#      (bench/pingpong_ab.py; pass it two binaries to compare builds);
#   1b. the hand-off calls in tight loops (examples/line_hop) against the probe's c2c floor,
#      alternating (bench/line_hop_floor.py);
#   2. threads: default vs spin for a flag, a channel and a queue (examples/wait_bench);
#   3. SPSC 8 B against rtrb and crossbeam (examples/queue_bench);
#   4. OpenSHMEM put and barrier latency against the system's OpenSHMEM when installed
#      (crates/handoff-shmem/bench/run.sh), and `bench rma-sync` against Open MPI's osc/sm
#      when installed (rma_sync_run.sh).
#
#   bench/waits.sh [ROUNDS=3] [OUT_DIR=/tmp/handoff-waits]
#
# Prints the load before each part; quote figures only from a run whose load stayed low.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3}
out=${2:-/tmp/handoff-waits}
mkdir -p "$out"
cd "$root"
cargo build -q --release -p handoff-cli -p handoff-shmem
cargo build -q --release -p handoff --example wait_bench --example queue_bench --example line_hop
h=target/release/handoff
load() { echo "# $(date -u '+%H:%M:%S') load $(cut -d' ' -f1-3 /proc/loadavg)"; }

load
python3 bench/pingpong_ab.py "$rounds" "$h=this"
load
python3 bench/line_hop_floor.py $((rounds * 10))
load
target/release/examples/wait_bench 20000 7 0
load
target/release/examples/queue_bench 5000000 5
target/release/examples/queue_bench 5000000 5 "one thread"
load
crates/handoff-shmem/bench/run.sh 5 "$out/shmem" | tee "$out/shmem.txt"
python3 bench/shmem_ratios.py < "$out/shmem.txt"
load
crates/handoff-shmem/bench/rma_sync_run.sh 5 "$out/rma-sync" | tee "$out/rma-sync.txt"
python3 bench/shmem_ratios.py < "$out/rma-sync.txt"
load
