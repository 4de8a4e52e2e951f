#!/bin/sh
# Builds put_lat and barrier_lat with handoff's oshcc (and with the system's OpenSHMEM oshcc
# when one is installed, e.g. Open MPI's), then runs them on 2 PEs, alternating, ROUNDS
# times: handoff with the default wait, handoff with --wait spin, and the system's oshrun.
# Prints one line per run, then per case and implementation the median of the rounds'
# medians and their range, and the ratio to the peer's (and to base's, with BASE_LIB).
#
#   crates/handoff-shmem/bench/run.sh [ROUNDS=5] [OUT_DIR=/tmp/handoff-shmem-bench]
#
# CASES (default below) lists PROG[:ARGS separated by ':'], e.g. CASES="put_lat:2048:mr:500
# put_lat:131072:mr:50" for osu_oshm_put_mr's shape at two sizes; WAITS (default "default
# spin") the handoff waits to run; BASE_LIB=dir with another build's libhandoff_shmem.so adds
# "base" (the same programs through LD_LIBRARY_PATH: oshcc links with a RUNPATH), for
# before/after in the same rounds.
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
cases=${CASES:-put_lat:8:barrier put_lat:4096:barrier put_lat:8:wait put_lat:4096:wait barrier_lat}
waits=${WAITS:-default spin}
base_lib=${BASE_LIB:-}
log="$out/runs.txt"
: >"$log"
for r in $(seq 1 "$rounds"); do
  for c in $cases; do
    prog=${c%%:*}
    args=""
    if [ "$prog" = put_lat ]; then args=$(echo "$c" | cut -d: -f2- | tr ':' ' '); fi
    for w in $waits; do
      wflag=""
      if [ "$w" != default ]; then wflag="--wait $w"; fi
      # shellcheck disable=SC2086
      printf 'round=%s impl=handoff-%s ' "$r" "$w" | tee -a "$log"
      # shellcheck disable=SC2086
      "$handoff" run -n 2 $wflag -- "$out/$prog.handoff" $args | tee -a "$log"
      if [ -n "$base_lib" ]; then
        printf 'round=%s impl=base-%s ' "$r" "$w" | tee -a "$log"
        # shellcheck disable=SC2086
        LD_LIBRARY_PATH="$base_lib" "$handoff" run -n 2 $wflag -- "$out/$prog.handoff" $args | tee -a "$log"
      fi
    done
    if [ -n "$peer" ]; then
      printf 'round=%s impl=peer ' "$r" | tee -a "$log"
      # Debian's Open MPI 4 OpenSHMEM may crash in shmem_finalize after printing its
      # result here (UCX); keep the result line.
      # shellcheck disable=SC2086
      { /usr/bin/oshrun $oshrun_flags -np 2 "$out/$prog.peer" $args 2>/dev/null \
        | grep -E '^(put|barrier)_lat' || echo "peer: no result"; } | tee -a "$log"
    fi
  done
done
echo "# per case and implementation: median of the rounds' medians (min max), µs; / peer; / base"
awk '{ c = $3; for (i = 4; i <= NF; i++) if ($i ~ /^(size|mode)=/) c = c " " $i
       split($2, a, "="); impl = a[2]; v = ""
       for (i = 3; i <= NF; i++) if ($i ~ /^median_us=/) { split($i, b, "="); v = b[2] }
       if (v == "") next
       k = c SUBSEP impl; x[k, ++n[k]] = v; if (!(c in seen)) { seen[c] = 1; cs[++m] = c }
       if (!(impl in si)) { si[impl] = 1; is[++q] = impl } }
  function med(k,   j, t, y, cnt) { cnt = n[k]; for (j = 1; j <= cnt; j++) s[j] = x[k, j]
       for (j = 2; j <= cnt; j++) { t = s[j]; y = j - 1; while (y > 0 && s[y] > t) { s[y+1] = s[y]; y-- } s[y+1] = t }
       lo = s[1]; hi = s[cnt]; return (cnt % 2) ? s[(cnt+1)/2] : (s[cnt/2] + s[cnt/2+1]) / 2 }
  END { for (j = 1; j <= m; j++) { c = cs[j]; p = n[c SUBSEP "peer"] ? med(c SUBSEP "peer") : 0
      for (i = 1; i <= q; i++) { k = c SUBSEP is[i]; if (!n[k]) continue; v = med(k)
        line = sprintf("%-34s %-16s %.4f (%.4f %.4f)", c, is[i], v, lo, hi)
        if (p > 0 && is[i] != "peer") line = line sprintf("  /peer %.2f", v / p)
        if (is[i] ~ /^handoff-/) { bk = c SUBSEP "base-" substr(is[i], 9)
          if (n[bk]) line = line sprintf("  /base %.2f", v / med(bk)) }
        print line } } }' "$log"
