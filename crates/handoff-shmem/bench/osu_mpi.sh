#!/bin/sh
# OSU's OpenSHMEM put, get and barrier latency on the MPI build (issue #42): the same binary
# under `handoff run -n 2` and under the MPI launcher with 2 ranks (the MPI shared window),
# alternating in every round, per MPI library. Prints per library, benchmark and size the
# median over rounds of each path and shared window / `handoff run`. OSU prints 2 decimals:
# under 0.1 µs a ratio of two printed values is its rounding, so compare those in µs.
#
#   crates/handoff-shmem/bench/osu_mpi.sh OSU_DIR [ROUNDS=3] [LIBS="mpich openmpi"] [OUT=/tmp/handoff-osu-mpi]
#
# OSU_DIR holds OSU Micro-Benchmarks 6.x's c/openshmem and c/util (fetch them outside the
# repository; see osu_p2p.sh). Needs `cargo build --release -p handoff-cli` and per library
# `scripts/mpi-test LIB cargo build --release -p handoff-shmem --features mpi`.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
osu=$1
rounds=${2:-3}
libs=${3:-mpich openmpi}
out=${4:-/tmp/handoff-osu-mpi}
handoff=${HANDOFF:-$root/target/release/handoff}
# oshcc --mpi picks the MPI build; a library folder from the environment would override it.
unset HANDOFF_SHMEM_LIBDIR
mkdir -p "$out"
raw=$out/raw.txt
: >"$raw"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# OSU's utilities call omb_ddt_process_options (an MPI-only option): a do-nothing definition.
printf 'void omb_ddt_process_options(char *optarg) { (void)optarg; }\n' >"$out/ddt_stub.c"
for lib in $libs; do
  for b in put get barrier; do
    "$here/../bin/oshcc" --mpi="$lib" -O2 -w -I"$osu/c/util" -o "$out/osu_oshm_$b.$lib" \
      "$osu/c/openshmem/osu_oshm_$b.c" "$osu/c/util/osu_util.c" "$osu/c/util/osu_util_pgas.c" \
      "$out/ddt_stub.c" -lm
  done
done
# one LIB PATH BENCH COMMAND...: one run, its "size µs" lines tagged (barrier: size 0).
one() {
  tag="$1 $2 $3"
  shift 3
  "$@" 2>/dev/null | awk -v t="$tag" '/^ *[0-9]/ { if (NF == 1) print t, 0, $1; else print t, $1, $2 }' >>"$raw" || true
}
echo "# $(date -u '+%Y-%m-%dT%H:%M:%SZ') $(uptime)"
for r in $(seq 1 "$rounds"); do
  for lib in $libs; do
    if [ "$lib" = mpich ]; then mpx=mpiexec.mpich; else mpx=mpirun.openmpi; fi
    for b in put get barrier; do
      p=$out/osu_oshm_$b.$lib
      arg=heap
      [ "$b" = barrier ] && arg=
      # shellcheck disable=SC2086
      one "$lib" shm "$b" "$handoff" run -n 2 -- "$p" $arg
      # shellcheck disable=SC2086
      one "$lib" mpi-shared "$b" env -u HANDOFF_MPI_WINDOW "$mpx" -n 2 "$p" $arg
    done
  done
done
echo "# $(date -u '+%Y-%m-%dT%H:%M:%SZ') $(uptime)"
python3 - "$raw" <<'PY'
import collections, statistics, sys
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    lib, path, b, size, v = line.split()
    d[(lib, b, int(size), path)].append(float(v))
worst = {}
for lib, b, size in sorted({k[:3] for k in d}):
    s, m = d.get((lib, b, size, "shm")), d.get((lib, b, size, "mpi-shared"))
    if not s or not m:
        continue
    a, c = statistics.median(s), statistics.median(m)
    r = c / a if a else float("nan")
    if a >= 0.1:
        worst[(lib, b)] = max(worst.get((lib, b), 0), r)
    print(f"{lib:8} {b:8} {size:>8} handoff-run {a:9.3f} [{min(s):.3f}-{max(s):.3f}]"
          f" shared-window {c:9.3f} [{min(m):.3f}-{max(m):.3f}] ratio {r:5.2f} (n={len(s)},{len(m)})")
for (lib, b), v in sorted(worst.items()):
    print(f"worst ratio where handoff run prints >= 0.1 us: {lib} {b} {v:.2f}")
PY
