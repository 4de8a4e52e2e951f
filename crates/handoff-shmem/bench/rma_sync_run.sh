#!/bin/sh
# Side-by-side MPI-3 RMA synchronization at p = 2: `handoff bench rma-sync --modes
# fence,lock-exclusive` (with each wait of WAITS, default "adaptive spin": the default wait,
# then spinning, to tell the wait policy from the protocol) against rma_sync_mpi.c (the same
# steps in MPI) on Open MPI's osc/sm component, alternating, ROUNDS times. Prints one line
# per run and mode with the median µs per synchronization over the run's repetitions.
#
#   crates/handoff-shmem/bench/rma_sync_run.sh [ROUNDS=5] [OUT_DIR=/tmp/handoff-rma-sync-bench]
#
# Needs: cargo build --release -p handoff-cli (HANDOFF, default target/release/handoff), and
# Open MPI's compiler and launcher by their full names (Debian's openmpi-bin and
# libopenmpi-dev: /usr/bin/mpicc.openmpi, /usr/bin/mpirun.openmpi), so MPICH can stay the
# system's mpicc/mpirun.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
rounds=${1:-5}
out=${2:-/tmp/handoff-rma-sync-bench}
handoff=${HANDOFF:-$root/target/release/handoff}
mpicc=${MPICC:-/usr/bin/mpicc.openmpi}
mpirun=${MPIRUN:-/usr/bin/mpirun.openmpi}
iters=${ITERS:-2000}
reps=${REPS:-7}
waits=${WAITS:-adaptive spin}
mkdir -p "$out"
peer=""
if [ -x "$mpicc" ] && [ -x "$mpirun" ]; then
  peer=1
  "$mpicc" -O2 -o "$out/rma_sync_mpi" "$here/rma_sync_mpi.c"
fi
echo "# $(date -u '+%Y-%m-%dT%H:%M:%SZ') $(uptime)"
for r in $(seq 1 "$rounds"); do
  for w in $waits; do
    "$handoff" bench rma-sync --pes 2 --modes fence,lock-exclusive --iters "$iters" \
      --reps "$reps" --runs 1 --wait "$w" -q --format csv 2>/dev/null |
      awk -F, -v r="$r" -v w="$w" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { printf "round=%s impl=handoff-%s rma_sync mode=%s pes=%s median_us=%.4f min_us=%.4f max_us=%.4f ok=%s\n",
            r, w, $col["mode"], $col["pes"], $col["sync_us_median"], $col["sync_us_min"],
            $col["sync_us_max"], ($col["verified"] == "true") }'
  done
  if [ -n "$peer" ]; then
    # osc/sm: Open MPI's shared-memory one-sided component; `memory ^patcher` as in run.sh.
    "$mpirun" --allow-run-as-root --mca osc sm --mca memory ^patcher -np 2 \
      "$out/rma_sync_mpi" "$iters" "$reps" 2>/dev/null | sed "s/^/round=$r impl=openmpi-osc-sm /" ||
      echo "round=$r impl=openmpi-osc-sm: no result"
  fi
done
