#!/bin/sh
# Side-by-side MPI-3 RMA synchronization at p = 2: `handoff bench rma-sync --modes
# fence,lock-exclusive,flush` and `handoff bench atomics --modes fetch-add,cas --pes 2`
# (with each wait of WAITS, default "adaptive spin": the default wait, then spinning, to tell
# the wait policy from the protocol) against rma_sync_mpi.c (the same steps in MPI) on Open
# MPI's osc/sm component, alternating, ROUNDS times. Prints one line per run and mode with
# the median µs per synchronization over the run's repetitions; with ROUNDS > 1 a summary
# per implementation and mode follows: the median of the runs' medians, their range, and
# the ratio to Open MPI's (same statistic), lower is better.
#
#   crates/handoff-shmem/bench/rma_sync_run.sh [ROUNDS=5] [OUT_DIR=/tmp/handoff-rma-sync-bench]
#
# HANDOFF: the build to measure (default target/release/handoff); HANDOFF_B: a second build
# (e.g. the main branch's) run in the same rounds, labelled handoffB, for before/after ratios
# that share the machine's load. Needs: cargo build --release -p handoff-cli, and Open MPI's
# compiler and launcher by their full names (Debian's openmpi-bin and libopenmpi-dev:
# /usr/bin/mpicc.openmpi, /usr/bin/mpirun.openmpi), so MPICH can stay the system's
# mpicc/mpirun.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
rounds=${1:-5}
out=${2:-/tmp/handoff-rma-sync-bench}
handoff=${HANDOFF:-$root/target/release/handoff}
handoff_b=${HANDOFF_B:-}
mpicc=${MPICC:-/usr/bin/mpicc.openmpi}
mpirun=${MPIRUN:-/usr/bin/mpirun.openmpi}
iters=${ITERS:-2000}
reps=${REPS:-7}
waits=${WAITS:-adaptive spin}
for h in "$handoff" $handoff_b; do
  if [ ! -x "$h" ]; then
    echo "rma_sync_run.sh: no handoff binary at $h (cargo build --release -p handoff-cli)" >&2
    exit 2
  fi
done
mkdir -p "$out"
peer=""
if [ -x "$mpicc" ] && [ -x "$mpirun" ]; then
  peer=1
  "$mpicc" -O2 -o "$out/rma_sync_mpi" "$here/rma_sync_mpi.c"
else
  echo "SKIP: rma_sync_run.sh: Open MPI: no $mpicc or $mpirun (handoff's figures only)" >&2
fi
log="$out/runs.txt"
: >"$log"
# One handoff build, one wait: rma-sync's three modes and the two atomics, as result lines.
run_handoff() { # LABEL BINARY WAIT ROUND
  {
    "$2" bench rma-sync --pes 2 --modes fence,lock-exclusive,flush --iters "$iters" \
      --reps "$reps" --runs 1 --wait "$3" -q --format csv 2>/dev/null
    "$2" bench atomics --pes 2 --modes fetch-add,cas --iters "$iters" \
      --reps "$reps" --runs 1 --wait "$3" -q --format csv 2>/dev/null
  } | awk -F, -v r="$4" -v impl="$1-$3" '/^experiment,/ { delete col; for (i = 1; i <= NF; i++) col[$i] = i; next }
      { m = col["sync_us_median"] ? "sync_us" : "op_us"
        printf "round=%s impl=%s rma_sync mode=%s pes=%s median_us=%.4f min_us=%.4f max_us=%.4f ok=%s\n",
          r, impl, $col["mode"], $col["pes"], $col[m "_median"], $col[m "_min"],
          $col[m "_max"], ($col["verified"] == "true") }' | tee -a "$log"
}
echo "# $(date -u '+%Y-%m-%dT%H:%M:%SZ') $(uptime)"
for r in $(seq 1 "$rounds"); do
  for w in $waits; do
    run_handoff handoff "$handoff" "$w" "$r"
    if [ -n "$handoff_b" ]; then
      run_handoff handoffB "$handoff_b" "$w" "$r"
    fi
  done
  if [ -n "$peer" ]; then
    # osc/sm: Open MPI's shared-memory one-sided component; `memory ^patcher` as in run.sh.
    # Its waits spin: on a crowded machine a run can crawl, so it gets MPI_TIMEOUT seconds.
    timeout "${MPI_TIMEOUT:-300}" "$mpirun" --allow-run-as-root --mca osc sm --mca memory ^patcher -np 2 \
      "$out/rma_sync_mpi" "$iters" "$reps" 2>/dev/null |
      sed "s/^/round=$r impl=openmpi-osc-sm /" | tee -a "$log" ||
      echo "round=$r impl=openmpi-osc-sm: no result"
  fi
done
echo "# $(date -u '+%Y-%m-%dT%H:%M:%SZ') $(uptime)"
[ "$rounds" -gt 1 ] || exit 0
# Summary: per implementation and mode, the median over rounds of the runs' medians, the
# range, and the ratio to Open MPI's median (a ratio of medians of alternating runs).
awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
       if (f["ok"] != 1) next
       k = f["impl"] SUBSEP f["mode"]; n[k]++; v[k, n[k]] = f["median_us"]
       if (!(f["impl"] in seen)) { seen[f["impl"]] = 1; impls[++ni] = f["impl"] }
       if (!(f["mode"] in seenm)) { seenm[f["mode"]] = 1; modes[++nm] = f["mode"] } }
     function med(k,   i, j, t, a) {
       for (i = 1; i <= n[k]; i++) a[i] = v[k, i]
       for (i = 2; i <= n[k]; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
       lo[k] = a[1]; hi[k] = a[n[k]]
       return n[k] % 2 ? a[(n[k] + 1) / 2] : (a[n[k] / 2] + a[n[k] / 2 + 1]) / 2 }
     END { printf "# summary: median of %s-round medians (range) µs; ratio to openmpi-osc-sm\n", "'"$rounds"'"
       for (m = 1; m <= nm; m++) {
         peer = (("openmpi-osc-sm" SUBSEP modes[m]) in n) ? med("openmpi-osc-sm" SUBSEP modes[m]) : 0
         for (i = 1; i <= ni; i++) { k = impls[i] SUBSEP modes[m]; if (!(k in n)) continue
           x = med(k); ratio = "-"
           if (peer > 0) ratio = sprintf("%.2f", x / peer)
           printf "summary mode=%s impl=%s median_us=%.4f range=%.4f-%.4f runs=%d ratio=%s\n",
             modes[m], impls[i], x, lo[k], hi[k], n[k], ratio } } }' "$log"
