#!/bin/sh
# Side-by-side OpenSHMEM collectives: the OSU OpenSHMEM benchmarks osu_oshm_broadcast,
# collect, fcollect and reduce (OSU 6.x sources, unmodified, not part of this repository),
# built with handoff's oshcc and with the system's OpenSHMEM oshcc (Debian's Open MPI 4.1),
# run at each PE count of PES, alternating handoff and the peer, ROUNDS times. Prints, per
# benchmark, PE count and size, the median latency of each and the ratio handoff / peer
# (lower is better), then the raw lines under OUT_DIR.
#
#   OSU_DIR=/path/to/osu-micro-benchmarks crates/handoff-shmem/bench/coll_run.sh \
#       [ROUNDS=3] [OUT_DIR=/tmp/handoff-coll-bench]
#
# OSU_DIR holds c/openshmem/osu_oshm_*.c and c/util/osu_util*.c (a release tarball or a
# clone of the OSU micro-benchmarks). PES (default "2 4") are the PE counts; BENCHES (default
# "broadcast collect fcollect reduce") the benchmarks; OSU_ARGS extra benchmark flags (e.g.
# "-i 200"); RUN_FLAGS extra `handoff run` flags (e.g. "--wait spin"). BASE_LIB=dir with
# another build's libhandoff_shmem.so adds a third column, "base" (the same programs run with
# that library, through LD_LIBRARY_PATH: oshcc links with a RUNPATH), for before/after.
#
# Needs: cargo build --release -p handoff-shmem -p handoff-cli (HANDOFF, default
# target/release/handoff). The peer is skipped when /usr/bin/oshcc or oshrun is missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
rounds=${1:-3}
out=${2:-/tmp/handoff-coll-bench}
handoff=${HANDOFF:-$root/target/release/handoff}
pes=${PES:-2 4}
benches=${BENCHES:-broadcast collect fcollect reduce}
osu_args=${OSU_ARGS:-}
run_flags=${RUN_FLAGS:-}
base_lib=${BASE_LIB:-}
# Debian's Open MPI 4.1 oshrun: its memory patcher makes programs crash in shmem_init
# (SIGSEGV) unless disabled; see run.sh.
oshrun_flags=${OSHRUN_FLAGS:---allow-run-as-root --mca memory ^patcher}
osu=${OSU_DIR:?set OSU_DIR to the OSU micro-benchmarks sources (c/openshmem, c/util)}
if [ ! -f "$osu/c/openshmem/osu_oshm_broadcast.c" ]; then
  echo "coll_run.sh: $osu/c/openshmem/osu_oshm_broadcast.c not found; OSU_DIR must hold the OSU sources" >&2
  exit 2
fi
mkdir -p "$out"
# osu_util.c (OSU 6.x/7.0) calls omb_ddt_process_options (its -D option, MPI benchmarks
# only), defined in osu_util_mpi.c: an OpenSHMEM build needs a stand-in to link.
printf 'void omb_ddt_process_options(char *optarg) { (void)optarg; }\n' >"$out/omb_ddt_stub.c"
util="$osu/c/util/osu_util.c $osu/c/util/osu_util_pgas.c $out/omb_ddt_stub.c"
flags="-O2 -DOSHM_1_3 -DPACKAGE_VERSION=\"6\" -I$osu/c/util"
peer=""
[ -x /usr/bin/oshcc ] && [ -x /usr/bin/oshrun ] && peer=1
for b in $benches; do
  # shellcheck disable=SC2086
  "$here/../bin/oshcc" $flags -o "$out/$b.handoff" "$osu/c/openshmem/osu_oshm_$b.c" $util -lm
  if [ -n "$peer" ]; then
    # shellcheck disable=SC2086
    /usr/bin/oshcc $flags -o "$out/$b.peer" "$osu/c/openshmem/osu_oshm_$b.c" $util -lm
  fi
done
raw="$out/raw.txt"
: >"$raw"
echo "# $(date -u '+%Y-%m-%dT%H:%M:%SZ') $(uptime)" | tee -a "$raw"
# One run: prefixes each "size latency" line of the benchmark with its labels.
label() { awk -v l="$1" '/^[0-9]/ { print l, $1, $2 }'; }
for r in $(seq 1 "$rounds"); do
  for p in $pes; do
    for b in $benches; do
      # shellcheck disable=SC2086
      "$handoff" run -n "$p" $run_flags -- "$out/$b.handoff" $osu_args 2>/dev/null |
        label "round=$r impl=handoff pes=$p bench=$b" >>"$raw" || true
      if [ -n "$peer" ]; then
        # Open MPI's OpenSHMEM may crash in shmem_finalize after printing (UCX): keep the lines.
        # More PEs than CPUs: Open MPI refuses to start them without --oversubscribe.
        over=""
        [ "$p" -gt "$(nproc)" ] && over=--oversubscribe
        # shellcheck disable=SC2086
        /usr/bin/oshrun $oshrun_flags $over -np "$p" "$out/$b.peer" $osu_args 2>/dev/null |
          label "round=$r impl=peer pes=$p bench=$b" >>"$raw" || true
      fi
      if [ -n "$base_lib" ]; then
        # shellcheck disable=SC2086
        LD_LIBRARY_PATH="$base_lib" "$handoff" run -n "$p" $run_flags -- "$out/$b.handoff" $osu_args \
          2>/dev/null | label "round=$r impl=base pes=$p bench=$b" >>"$raw" || true
      fi
    done
  done
done
echo "# $(date -u '+%Y-%m-%dT%H:%M:%SZ') $(uptime)" | tee -a "$raw"
# Medians per (bench, pes, size, impl); ratios handoff / peer (and base / peer).
summarize() {
  sed 's/[a-z]*=//g' "$1" | grep -v '^#' | sort -k4,4 -k3,3n -k5,5n -k2,2 -k6,6g |
    awk '
    function flush(   i, k) {
      if (key == "") return
      for (i in n) {
        k = int((n[i] + 1) / 2)
        med[i] = (n[i] % 2) ? v[i, k] : (v[i, k] + v[i, k + 1]) / 2
      }
      printf "%-10s %3s %8s  handoff %9.2f", b, pe, sz, med["handoff"]
      if ("peer" in med) printf "  peer %9.2f  ratio %6.2f", med["peer"], med["handoff"] / med["peer"]
      if ("base" in med) {
        printf "  base %9.2f", med["base"]
        if ("peer" in med) printf "  base_ratio %6.2f", med["base"] / med["peer"]
      }
      printf "  (rounds %d)\n", n["handoff"]
      delete n; delete v; delete med
    }
    BEGIN { print "# bench    pes     size  medians (us) and ratios handoff/peer" }
    { k = $4 " " $3 " " $5
      if (k != key) { flush(); key = k; b = $4; pe = $3; sz = $5 }
      n[$2]++; v[$2, n[$2]] = $6 }
    END { flush() }'
}
summarize "$raw"
