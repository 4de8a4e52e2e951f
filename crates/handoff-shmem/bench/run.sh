#!/bin/sh
# Builds put_lat and barrier_lat with handoff's oshcc (and with the system's OpenSHMEM oshcc
# when one is installed, e.g. Open MPI's), then runs them on 2 PEs, alternating, ROUNDS
# times: handoff with the default wait, handoff with --wait spin, and the system's oshrun.
# Prints one line per run; compare medians of the same row side by side.
#
#   crates/handoff-shmem/bench/run.sh [ROUNDS=5] [OUT_DIR=/tmp/handoff-shmem-bench]
#
# Needs: cargo build --release -p handoff-shmem -p handoff-cli (HANDOFF, default
# target/release/handoff, and oshcc's library lookup use it).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
rounds=${1:-5}
out=${2:-/tmp/handoff-shmem-bench}
handoff=${HANDOFF:-$root/target/release/handoff}
# Debian's Open MPI 4.1 oshrun: its memory patcher makes put_lat crash in shmem_init
# (SIGSEGV) unless disabled.
oshrun_flags=${OSHRUN_FLAGS:---allow-run-as-root --mca memory ^patcher}
mkdir -p "$out"
for p in put_lat barrier_lat; do
  "$here/../bin/oshcc" -O2 -o "$out/$p.handoff" "$here/$p.c"
done
peer=""
if [ -x /usr/bin/oshcc ] && [ -x /usr/bin/oshrun ]; then
  peer=1
  for p in put_lat barrier_lat; do
    /usr/bin/oshcc -O2 -o "$out/$p.peer" "$here/$p.c"
  done
fi
echo "# $(date -u '+%Y-%m-%dT%H:%M:%SZ') $(uptime)"
cases="put_lat:8:barrier put_lat:4096:barrier put_lat:8:wait put_lat:4096:wait barrier_lat"
for r in $(seq 1 "$rounds"); do
  for c in $cases; do
    prog=${c%%:*}
    args=""
    if [ "$prog" = put_lat ]; then args=$(echo "$c" | cut -d: -f2- | tr ':' ' '); fi
    # shellcheck disable=SC2086
    printf 'round=%s impl=handoff-default ' "$r"; "$handoff" run -n 2 -- "$out/$prog.handoff" $args
    # shellcheck disable=SC2086
    printf 'round=%s impl=handoff-spin ' "$r"; "$handoff" run -n 2 --wait spin -- "$out/$prog.handoff" $args
    if [ -n "$peer" ]; then
      printf 'round=%s impl=peer ' "$r"
      # Debian's Open MPI 4 OpenSHMEM may crash in shmem_finalize after printing its
      # result here (UCX); keep the result line.
      # shellcheck disable=SC2086
      /usr/bin/oshrun $oshrun_flags -np 2 "$out/$prog.peer" $args 2>/dev/null \
        | grep -E '^(put|barrier)_lat' || echo "peer: no result"
    fi
  done
done
