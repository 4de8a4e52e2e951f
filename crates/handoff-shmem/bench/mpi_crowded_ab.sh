#!/bin/sh
# Before/after on a crowded node (issue #42): one OpenSHMEM program of the MPI build (linked
# once, e.g. tests-sos `spam` or tests/c/crowded.c) on N ranks of one MPI library's mixed path
# (HANDOFF_MPI_NODES=2; 4 ranks on a 2-CPU machine is more ranks than CPUs), with two builds
# of libhandoff_shmem.so swapped in by LD_LIBRARY_PATH (A = before, B = after), alternating
# A B A B ... per round so that a loaded machine weighs on both alike. Prints, per run, the
# load, the wall seconds and the program's lines that end in "secs" (spam's phases).
#
#   crates/handoff-shmem/bench/mpi_crowded_ab.sh LIBDIR_A LIBDIR_B ROUNDS PROGRAM [ARGS...]
#
# Environment: LIB=mpich|openmpi (default mpich), N (default 4), LIMIT seconds per run
# (default 300), PATH_ENV (default HANDOFF_MPI_NODES=2; HANDOFF_MPI_WINDOW=rma for the RMA
# path), HOGS (default 0): that many busy loops (`yes > /dev/null`) run beside every round,
# as other jobs or builds on the node would (#42: two of them took tests-sos `spam` on
# MPICH's mixed path past 200 s while its waits only yielded). Compare builds of one profile (cargo test builds the library with the test profile,
# opt-level 1; cargo build with the dev profile, opt-level 0). E.g. spam's collectives:
#   mpi_crowded_ab.sh A/target/mpich/debug B/target/mpich/debug 2 ./spam -b -c -l 300
set -eu
a=$1 b=$2 rounds=$3
shift 3
lib=${LIB:-mpich}
n=${N:-4}
limit=${LIMIT:-300}
path_env=${PATH_ENV:-HANDOFF_MPI_NODES=2}
if [ "$lib" = mpich ]; then
  launch="mpiexec.mpich"
else
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_rmaps_base_oversubscribe=1
  launch="mpirun.openmpi"
fi
hogs=""
for _ in $(seq 1 "${HOGS:-0}"); do
  yes >/dev/null &
  hogs="$hogs $!"
done
trap 'for h in $hogs; do kill "$h" 2>/dev/null; done' EXIT
for r in $(seq 1 "$rounds"); do
  for v in A B; do
    if [ "$v" = A ]; then dir=$a; else dir=$b; fi
    load=$(uptime | sed 's/.*average: //')
    s=$(date +%s.%N)
    out=$(timeout -k 5 "$limit" env LD_LIBRARY_PATH="$dir" SHMEM_SYMMETRIC_SIZE=16M \
      "$path_env" $launch -n "$n" "$@" 2>&1 | grep -E 'secs$|^OK ' | tr -s ' ' | tr '\n' ';' ||
      true)
    e=$(date +%s.%N)
    echo "round $r $v load $load wall $(echo "$e - $s" | bc) s: $out"
  done
done
