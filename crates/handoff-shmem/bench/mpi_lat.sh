#!/bin/sh
# OSU-style put/get/barrier latency of the MPI build (issue #42), side by side, alternating
# A B A B ... for ROUNDS rounds, per MPI library:
#   - on one node: the same put_lat/barrier_lat binary under `handoff run -n 2` (shm) and
#     under `mpiexec -n 2` (the MPI shared window);
#   - on MPI RMA: that binary with HANDOFF_MPI_WINDOW=rma against mpi_lat.c, a plain MPI
#     program (MPI_Put + MPI_Win_flush, and + MPI_Win_flush_local; MPI_Get + flush;
#     flush_all + MPI_Barrier) over the same MPI library.
# Prints every run, then per library and row the median over rounds of the runs' medians
# (µs per operation) and the ratio to its baseline (shared window / shm, rma / plain MPI).
#
#   crates/handoff-shmem/bench/mpi_lat.sh [ROUNDS=5] [LIBS="mpich openmpi"] [OUT_DIR=/tmp/handoff-shmem-mpi-bench]
#
# Needs: cargo build --release -p handoff-cli, and per library
#   scripts/mpi-test LIB cargo build --release -p handoff-shmem --features mpi
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
rounds=${1:-5}
libs=${2:-mpich openmpi}
out=${3:-/tmp/handoff-shmem-mpi-bench}
handoff=${HANDOFF:-$root/target/release/handoff}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
for lib in $libs; do
  for p in put_lat barrier_lat; do
    "$here/../bin/oshcc" --mpi="$lib" -O2 -o "$out/$p.$lib" "$here/$p.c"
  done
  "mpicc.$lib" -O2 -o "$out/mpi_lat.$lib" "$here/mpi_lat.c"
done
log=$out/runs.txt
: >"$log"
# row LIB PATH NAME COMMAND...: one run, its result line tagged.
row() {
  lib=$1 path=$2 name=$3
  shift 3
  line=$("$@" 2>/dev/null | grep -E '^(put_lat|barrier_lat|mpi_lat) ' || echo "no result")
  echo "lib=$lib path=$path row=$name $line" | tee -a "$log"
}
echo "# $(date -u '+%Y-%m-%dT%H:%M:%SZ') $(uptime)"
for r in $(seq 1 "$rounds"); do
  for lib in $libs; do
    if [ "$lib" = mpich ]; then mpx=mpiexec.mpich; else mpx=mpirun.openmpi; fi
    pl=$out/put_lat.$lib bl=$out/barrier_lat.$lib ml=$out/mpi_lat.$lib
    for args in "8 barrier" "4096 barrier" "8 get" "4096 get"; do
      name=$(echo "put_lat $args" | tr ' ' _)
      # shellcheck disable=SC2086
      row "$lib" shm "$name" "$handoff" run -n 2 -- "$pl" $args
      # shellcheck disable=SC2086
      row "$lib" mpi-shared "$name" env -u HANDOFF_MPI_WINDOW "$mpx" -n 2 "$pl" $args
    done
    row "$lib" shm barrier_lat "$handoff" run -n 2 -- "$bl"
    row "$lib" mpi-shared barrier_lat env -u HANDOFF_MPI_WINDOW "$mpx" -n 2 "$bl"
    for size in 8 4096; do
      row "$lib" mpi-rma "put_$size" env HANDOFF_MPI_WINDOW=rma "$mpx" -n 2 "$pl" "$size" barrier
      row "$lib" plain-mpi "put_$size" "$mpx" -n 2 "$ml" put "$size"
      row "$lib" plain-mpi-local "put_$size" "$mpx" -n 2 "$ml" put-local "$size"
      row "$lib" mpi-rma "get_$size" env HANDOFF_MPI_WINDOW=rma "$mpx" -n 2 "$pl" "$size" get
      row "$lib" plain-mpi "get_$size" "$mpx" -n 2 "$ml" get "$size"
    done
    row "$lib" mpi-rma barrier env HANDOFF_MPI_WINDOW=rma "$mpx" -n 2 "$bl" 2000
    row "$lib" plain-mpi barrier "$mpx" -n 2 "$ml" barrier 8 2000
  done
done
echo "# $(date -u '+%Y-%m-%dT%H:%M:%SZ') $(uptime)"
# The medians over rounds, and the ratios.
python3 - "$log" <<'EOF'
import collections, re, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.match(r"lib=(\S+) path=(\S+) row=(\S+) .*median_us=([0-9.]+)", line)
    if m:
        runs[(m[1], m[3], m[2])].append(float(m[4]))
def med(k):
    v = runs.get(k)
    return (statistics.median(v), min(v), max(v), len(v)) if v else None
pairs = [("mpi-shared", "shm"), ("mpi-rma", "plain-mpi"), ("mpi-rma", "plain-mpi-local")]
print(f"{'lib':8} {'row':22} {'path':16} {'median us':>10} {'[min-max]':>20}  vs {'base':16} {'median us':>10} ratio")
for (lib, row, path) in sorted(set(runs)):
    for a, b in pairs:
        if path != a or (lib, row, b) not in runs:
            continue
        x, y = med((lib, row, a)), med((lib, row, b))
        print(f"{lib:8} {row:22} {a:16} {x[0]:10.3f} [{x[1]:.3f}-{x[2]:.3f}]  vs {b:16} {y[0]:10.3f} [{y[1]:.3f}-{y[2]:.3f}] {x[0]/y[0]:.2f}x (n={x[3]})")
EOF
