#!/bin/sh
# Before/after of the MPI build's latencies (issue #42): the rows of mpi_lat.sh that a change
# to the MPI transport's waits and barriers moves, for two source trees side by side
# (A = before, B = after), alternating A B A B ... per round so that a loaded machine
# weighs on both alike. Per tree and library: shmem_barrier_all under `handoff run -n 2`
# (shm) and on the MPI shared window; the RMA path's barrier against a plain MPI program
# (MPI_Win_flush_all + MPI_Barrier); 8 B and 4 KiB put and get on both MPI paths (the target
# waits in shmem_barrier_all meanwhile, so a target that does not drive MPI's progress
# shows up in the RMA rows). Prints every run, then per tree, library and row the median
# over rounds of the runs' medians (µs) and B / A.
#
#   crates/handoff-shmem/bench/mpi_lat_ab.sh TREE_A TREE_B [ROUNDS=3] [LIBS="mpich openmpi"] [OUT_DIR]
#
# Each tree needs `cargo build --release -p handoff-cli` and per library
#   scripts/mpi-test LIB cargo build --release -p handoff-shmem --features mpi
# (the trees' own target/LIB/release). A tree at another commit: `git archive COMMIT | tar -x
# -C DIR`, then build it there (copying target/ first saves rebuilding the dependencies).
# Or, instead of a tree, a folder of saved builds, LIB/libhandoff_shmem.so per library (e.g.
# `cp target/mpich/release/libhandoff_shmem.so SAVED/mpich/` before a change): the programs
# link it (HANDOFF_SHMEM_LIBDIR), and its shm rows, which need the tree's `handoff`, are left
# out.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
a=$(cd "$1" && pwd)
b=$(cd "$2" && pwd)
rounds=${3:-3}
libs=${4:-mpich openmpi}
out=${5:-/tmp/handoff-shmem-mpi-ab}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
for tree in a b; do
  eval "root=\$$tree"
  for lib in $libs; do
    for p in put_lat barrier_lat; do
      if [ -e "$root/$lib/libhandoff_shmem.so" ]; then
        HANDOFF_SHMEM_LIBDIR="$root/$lib" "$here/../bin/oshcc" --mpi="$lib" -O2 \
          -o "$out/$p.$tree.$lib" "$here/$p.c"
      else
        "$root/crates/handoff-shmem/bin/oshcc" --mpi="$lib" -O2 -o "$out/$p.$tree.$lib" \
          "$root/crates/handoff-shmem/bench/$p.c"
      fi
    done
  done
done
for lib in $libs; do "mpicc.$lib" -O2 -o "$out/mpi_lat.$lib" "$here/mpi_lat.c"; done
log=$out/runs.txt
: >"$log"
row() {
  tree=$1 lib=$2 path=$3 name=$4
  shift 4
  line=$("$@" 2>/dev/null | grep -E '^(put_lat|barrier_lat|mpi_lat) ' || echo "no result")
  echo "tree=$tree lib=$lib path=$path row=$name $line" | tee -a "$log"
}
echo "# $(date -u '+%Y-%m-%dT%H:%M:%SZ') $(uptime)"
for r in $(seq 1 "$rounds"); do
  for lib in $libs; do
    if [ "$lib" = mpich ]; then mpx=mpiexec.mpich; else mpx=mpirun.openmpi; fi
    ml=$out/mpi_lat.$lib
    row plain "$lib" plain-mpi barrier "$mpx" -n 2 "$ml" barrier 8 2000
    row plain "$lib" plain-mpi get_8 "$mpx" -n 2 "$ml" get 8
    row plain "$lib" plain-mpi put_8 "$mpx" -n 2 "$ml" put 8
    for tree in a b; do
      eval "root=\$$tree"
      pl=$out/put_lat.$tree.$lib bl=$out/barrier_lat.$tree.$lib
      if [ -x "$root/target/release/handoff" ]; then
        row "$tree" "$lib" shm barrier "$root/target/release/handoff" run -n 2 -- "$bl" 20000
      fi
      row "$tree" "$lib" mpi-shared barrier env -u HANDOFF_MPI_WINDOW "$mpx" -n 2 "$bl" 20000
      row "$tree" "$lib" mpi-rma barrier env HANDOFF_MPI_WINDOW=rma "$mpx" -n 2 "$bl" 2000
      for args in "8 barrier" "4096 barrier" "8 get" "4096 get"; do
        name=$(echo "$args" | tr ' ' _)
        # shellcheck disable=SC2086
        row "$tree" "$lib" mpi-shared "$name" env -u HANDOFF_MPI_WINDOW "$mpx" -n 2 "$pl" $args
        # shellcheck disable=SC2086
        row "$tree" "$lib" mpi-rma "$name" env HANDOFF_MPI_WINDOW=rma "$mpx" -n 2 "$pl" $args 2000
      done
    done
  done
done
echo "# $(date -u '+%Y-%m-%dT%H:%M:%SZ') $(uptime)"
python3 - "$log" <<'EOF'
import collections, re, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.match(r"tree=(\S+) lib=(\S+) path=(\S+) row=(\S+) .*median_us=([0-9.]+)", line)
    if m:
        runs[(m[2], m[3], m[4], m[1])].append(float(m[5]))
med = lambda k: statistics.median(runs[k])
print(f"{'lib':8} {'path':11} {'row':14} {'A med us':>10} {'B med us':>10} {'B/A':>6}  A runs / B runs")
for (lib, path, row) in sorted({k[:3] for k in runs if k[3] in 'ab'}):
    ka, kb = (lib, path, row, "a"), (lib, path, row, "b")
    if ka in runs and kb in runs:
        print(f"{lib:8} {path:11} {row:14} {med(ka):10.3f} {med(kb):10.3f} {med(kb)/med(ka):6.2f}  "
              f"{[round(x, 3) for x in runs[ka]]} / {[round(x, 3) for x in runs[kb]]}")
print()
print("ratios to the baselines (median over rounds): shared window / shm barrier; rma / plain MPI")
for lib in sorted({k[0] for k in runs}):
    for tree in "ab":
        def r(p, row, q, qrow, qtree):
            x, y = (lib, p, row, tree), (lib, q, qrow, qtree)
            return f"{med(x)/med(y):.2f}" if x in runs and y in runs else "-"
        print(f"{lib:8} tree {tree}: barrier shared/shm {r('mpi-shared', 'barrier', 'shm', 'barrier', tree)}, "
              f"rma/plain {r('mpi-rma', 'barrier', 'plain-mpi', 'barrier', 'plain')}; "
              f"rma get 8 B / plain {r('mpi-rma', '8_get', 'plain-mpi', 'get_8', 'plain')}, "
              f"rma put 8 B / plain {r('mpi-rma', '8_barrier', 'plain-mpi', 'put_8', 'plain')}")
EOF
