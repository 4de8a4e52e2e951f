#!/bin/sh
# handoff-shmem against the system's OpenSHMEM (Debian's Open MPI 4.1) at 2 PEs, alternating
# the two in every round, on three things (issue #44):
#
#   1. the default shmem_barrier_all's spread: RUNS separate `handoff run -n 2` runs of
#      barrier_lat (this folder) and of OSU's osu_oshm_barrier, each run's median, then the
#      median, min and max over the runs, max/min and max/median, and handoff / Open MPI;
#      then the same in units of the host's c2c floor measured around each run (`handoff
#      bench c2c`), which tells a spread of the host's state from one of the wait policy;
#   2. OSU's point-to-point benchmarks: put, get, put_nb, get_nb (latency, µs), put_mr,
#      put_mr_nb, get_mr_nb (messages/s) at every size, and atomics (per operation), the
#      median over ROUNDS rounds per size and the ratio handoff / Open MPI (latency: at or
#      below 1 is at or below Open MPI's; rate: at or above 1 is at or above);
#   3. with PRK_DIR, the ParRes Kernels' SHMEM Stencil and Synch_p2p (time per iteration,
#      median over ROUNDS, ratio).
#
#   crates/handoff-shmem/bench/osu_p2p.sh [OSU_DIR] [ROUNDS=3] [RUNS=10]
#
# OSU_DIR holds OSU Micro-Benchmarks 6.x's c/openshmem and c/util (not part of this
# repository: fetch them, e.g. github.com/paklui/osu-micro-benchmarks at v6.1); without it
# only barrier_lat runs. PRK_DIR (optional) holds ParRes Kernels' SHMEM/ and common/.
# OUT (default /tmp/handoff-osu-p2p) keeps the binaries and every raw line. ONLY=barrier or
# ONLY=p2p or ONLY=prk runs one part; P2P="put_mr" (default "put get put_nb get_nb put_mr
# put_mr_nb get_mr_nb atomics": every OSU OpenSHMEM point-to-point program but put_overlap)
# picks part 2's benchmarks; atomics gives two rows per operation, atomics_rate (Mops/s) and
# atomics_lat (µs). BASE_LIB=dir with another build's libhandoff_shmem.so
# adds "base" (the same programs run with that library through LD_LIBRARY_PATH: oshcc links
# with a RUNPATH), alternating with the others, for before/after. Needs `cargo build --release -p handoff-shmem -p
# handoff-cli`, and /usr/bin/oshcc + /usr/bin/oshrun for the comparison (without them,
# handoff's figures alone). The machine's other work moves every figure: run it quiet, and
# read the ratios of one run side by side, not figures of different runs.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
osu=${1:-}
rounds=${2:-3}
runs=${3:-10}
out=${OUT:-/tmp/handoff-osu-p2p}
only=${ONLY:-}
prk=${PRK_DIR:-}
handoff=${HANDOFF:-$root/target/release/handoff}
base_lib=${BASE_LIB:-}
oshrun_flags=${OSHRUN_FLAGS:---allow-run-as-root --mca memory ^patcher}
mkdir -p "$out"
raw="$out/raw.txt"
: >"$raw"

peer=""
if [ -x /usr/bin/oshcc ] && [ -x /usr/bin/oshrun ]; then peer=1; fi

# build NAME SOURCES...: NAME.handoff (and NAME.base, the same program) and NAME.peer in $out.
build() {
  name=$1
  shift
  "$here/../bin/oshcc" -O2 -w -o "$out/$name.handoff" "$@" -lm
  if [ -n "$base_lib" ]; then cp "$out/$name.handoff" "$out/$name.base"; fi
  if [ -n "$peer" ]; then /usr/bin/oshcc -O2 -w -o "$out/$name.peer" "$@" -lm; fi
}

# run IMPL PROG ARGS...: one 2-PE run, its stdout.
run2() {
  impl=$1
  shift
  if [ "$impl" = handoff ]; then
    "$handoff" run -n 2 -- "$@"
  elif [ "$impl" = base ]; then
    LD_LIBRARY_PATH="$base_lib" "$handoff" run -n 2 -- "$@"
  else
    # Debian's Open MPI 4 OpenSHMEM may crash in shmem_finalize after printing (UCX).
    # shellcheck disable=SC2086
    /usr/bin/oshrun $oshrun_flags -np 2 "$@" 2>/dev/null || true
  fi
}

impls="handoff"
if [ -n "$base_lib" ]; then impls="$impls base"; fi
if [ -n "$peer" ]; then impls="$impls peer"; fi
# rotated R: $impls starting at the (R mod count)-th, so that each implementation runs
# first, and after each other one, in turn: the run after another program's exit (its
# shared memory given back) was the slow one at the memory-bound sizes (issue #44: the
# same library as "handoff" and "base", 7 rounds, put_mr 32 KiB – 4 MiB, 0.57–1.17 with
# handoff always first).
rotated() {
  # shellcheck disable=SC2086
  set -- $impls
  rot_s=$(( ${r:-0} % $# ))
  rot_i=0
  rot_head=""
  rot_tail=""
  for rot_x in "$@"; do
    if [ "$rot_i" -ge "$rot_s" ]; then rot_head="$rot_head $rot_x"; else rot_tail="$rot_tail $rot_x"; fi
    rot_i=$((rot_i + 1))
  done
  echo "$rot_head$rot_tail"
}
echo "# $(date -u '+%Y-%m-%dT%H:%M:%SZ') $(uptime)"
echo "# $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs; peer: ${peer:+$(/usr/bin/oshrun --version 2>/dev/null | head -1)}"

# OSU's utilities call omb_ddt_process_options (in its MPI utilities, not built here) for
# an MPI-only option: a do-nothing definition of our own links them.
if [ -n "$osu" ]; then
  printf 'void omb_ddt_process_options(char *optarg) { (void)optarg; }\n' >"$out/ddt_stub.c"
  util="$osu/c/util/osu_util.c $osu/c/util/osu_util_pgas.c $out/ddt_stub.c"
fi

# ---- 1. the barrier's spread ----------------------------------------------------------
if [ -z "$only" ] || [ "$only" = barrier ]; then
  build barrier_lat "$here/barrier_lat.c"
  if [ -n "$osu" ]; then
    # shellcheck disable=SC2086
    build osu_oshm_barrier -I"$osu/c/util" -DPACKAGE_VERSION='"6.x"' \
      "$osu/c/openshmem/osu_oshm_barrier.c" $util
  fi
  # One run of each, not counted: the first run after the builds above was the slow one of
  # ten in two of four scripts (6-87 µs per barrier), whichever library ran first.
  for impl in $impls; do
    run2 "$impl" "$out/barrier_lat.$impl" 1000 1 >/dev/null
    if [ -n "$osu" ]; then run2 "$impl" "$out/osu_oshm_barrier.$impl" >/dev/null; fi
  done
  # The host's c2c floor (one cache line bounced between CPUs 0 and 1, 0.05 s; ns): a VM's
  # floor moves with where the host puts its vCPUs, and every barrier with it. Measured just
  # before and just after each run; the run's floor is their mean. CPUs 0 and 1 are where
  # the two PEs run on a 2-CPU VM; on a larger machine the floor is one pair's, and "nan"
  # (the normalized lines left out) where CPU 0 or 1 is not allowed.
  floor() {
    "$handoff" bench c2c --cores 0,1 --samples 20 -q --format json 2>/dev/null |
      sed -n 's/.*"one_way_ns": *\([0-9.]*\).*/\1/p' | head -n 1
  }
  # record NAME IMPL V F0: the run's line "NAME IMPL R median_us" and its floor's, "c2c NAME
  # IMPL R before after" (R from the loop).
  record() {
    f1=$(floor)
    echo "$1 $2 $r ${3:-nan}" | tee -a "$raw"
    echo "c2c $1 $2 $r ${4:-nan} ${f1:-nan}" >>"$raw"
  }
  for r in $(seq 1 "$runs"); do
    for impl in $(rotated); do
      f0=$(floor)
      v=$(run2 "$impl" "$out/barrier_lat.$impl" 10000 7 | sed -n 's/.*median_us=\([0-9.]*\).*/\1/p')
      record barrier_lat "$impl" "$v" "$f0"
      if [ -n "$osu" ]; then
        f0=$(floor)
        v=$(run2 "$impl" "$out/osu_oshm_barrier.$impl" | awk '/^[0-9 ]*[0-9.]+ *$/ {v=$NF} /^[^#]/ && NF>=1 && $1+0==$1 {v=$1} END {print v}')
        record osu_oshm_barrier "$impl" "$v" "$f0"
      fi
    done
  done
  echo "# barrier spread over $runs runs (µs; each run's median): median min max max/min max/median [handoff/peer of medians]"
  for b in barrier_lat osu_oshm_barrier; do
    for impl in $impls; do
      awk -v b="$b" -v i="$impl" '$1==b && $2==i && $4!="nan" {print $4}' "$raw" | sort -g >"$out/s.txt"
      [ -s "$out/s.txt" ] || continue
      awk -v b="$b" -v i="$impl" '{v[NR]=$1} END {
        m = (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2;
        printf "%-18s %-8s median %.3f min %.3f max %.3f max/min %.2f max/median %.2f\n",
          b, i, m, v[1], v[NR], v[NR]/v[1], v[NR]/m }' "$out/s.txt" | tee "$out/med.$b.$impl"
    done
    if [ -s "$out/med.$b.handoff" ] && [ -s "$out/med.$b.peer" ]; then
      awk -v b="$b" 'NR==FNR {h=$4; next} {printf "%-18s handoff/peer %.2f\n", b, h/$4}' \
        "$out/med.$b.handoff" "$out/med.$b.peer"
    fi
  done
  # The same runs in units of the c2c floor measured around each: a spread that the
  # floor explains (the host's state) shrinks here; one of the wait policy's does not.
  echo "# the same over each run's c2c floor (barrier µs / one-way c2c µs, the floor measured before and after the run): median min max max/median; then every floor measured (ns)"
  for b in barrier_lat osu_oshm_barrier; do
    for impl in $impls; do
      # Two passes: a run's floor line follows its result.
      awk -v b="$b" -v i="$impl" 'NR==FNR {if ($1=="c2c" && $2==b && $3==i && $5!="nan" && $6!="nan") f[$4]=($5+$6)/2; next}
        $1==b && $2==i && $4!="nan" && f[$3] > 0 {print $4 * 1000 / f[$3]}' \
        "$raw" "$raw" | sort -g >"$out/n.txt"
      [ -s "$out/n.txt" ] || continue
      awk -v b="$b" -v i="$impl" '{v[NR]=$1} END {
        m = (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2;
        printf "%-18s %-8s median %.2f min %.2f max %.2f max/median %.2f\n", b, i, m, v[1], v[NR], v[NR]/m }' "$out/n.txt"
    done
  done
  awk '$1=="c2c" {for (k = 5; k <= 6; k++) if ($k!="nan") print $k}' "$raw" | sort -g | awk '{v[NR]=$1} END {
    if (NR) printf "c2c floor (ns) median %.1f min %.1f max %.1f\n", (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2, v[1], v[NR] }'
fi

# ---- 2. OSU point-to-point -------------------------------------------------------------
if [ -n "$osu" ] && { [ -z "$only" ] || [ "$only" = p2p ]; }; then
  p2p=${P2P:-put get put_nb get_nb put_mr put_mr_nb get_mr_nb atomics}
  for b in $p2p; do
    # shellcheck disable=SC2086
    build "osu_oshm_$b" -I"$osu/c/util" -DPACKAGE_VERSION='"6.x"' \
      "$osu/c/openshmem/osu_oshm_$b.c" $util
  done
  for r in $(seq 1 "$rounds"); do
    for b in $p2p; do
      for impl in $(rotated); do
        run2 "$impl" "$out/osu_oshm_$b.$impl" heap |
          awk -v b="$b" -v i="$impl" -v r="$r" '
            $1 ~ /^[0-9]+$/ && NF == 2 {print "p2p", b, i, r, $1, $2}
            # osu_oshm_atomics: one line per operation, "shmem_int_fadd  Mops/s  latency_us".
            $1 ~ /^shmem_/ && NF == 3 {print "p2p", "atomics_rate", i, r, $1, $2; print "p2p", "atomics_lat", i, r, $1, $3}' |
          tee -a "$raw" >/dev/null
      done
    done
    echo "# round $r of $rounds done"
  done
  echo "# OSU p2p, 2 PEs, median of $rounds rounds: size handoff peer handoff/peer (latency µs: <= 1 is good; rates, *_mr* in messages/s and atomics_rate in Mops/s: >= 1 is good)"
  awk '$1=="p2p" {k=$2" "$5; v[k, $3, ++n[k, $3]] = $6; if (!(k in seen)) {seen[k]=1; order[++m]=k}}
    function med(k, i,   c, j, a, t, x) {
      c = n[k, i]; if (!c) return "nan";
      for (j = 1; j <= c; j++) a[j] = v[k, i, j];
      for (j = 2; j <= c; j++) { t = a[j]; x = j - 1; while (x > 0 && a[x] > t) { a[x+1] = a[x]; x-- } a[x+1] = t }
      return (c % 2) ? a[(c+1)/2] : (a[c/2] + a[c/2+1]) / 2 }
    END { for (j = 1; j <= m; j++) { k = order[j]; h = med(k, "handoff"); p = med(k, "peer");
      printf "%-8s %8s %12s %12s %s\n", substr(k, 1, index(k, " ")-1), substr(k, index(k, " ")+1), h, p,
        (p == "nan" || h == "nan" || p == 0) ? "-" : sprintf("%.2f", h / p) } }' "$raw"
  # Each implementation's spread over the rounds, and with BASE_LIB handoff / base (old build).
  echo "# spread over $rounds rounds: size, per implementation ($impls) min median max; [handoff/base of medians]"
  awk -v impls="$impls" '$1=="p2p" {k=$2" "$5; v[k, $3, ++n[k, $3]] = $6; if (!(k in seen)) {seen[k]=1; order[++m]=k}}
    function srt(k, i,   c, j, t, x) {
      c = n[k, i]; for (j = 1; j <= c; j++) a[j] = v[k, i, j];
      for (j = 2; j <= c; j++) { t = a[j]; x = j - 1; while (x > 0 && a[x] > t) { a[x+1] = a[x]; x-- } a[x+1] = t }
      return c }
    END { ni = split(impls, im, " ");
      for (j = 1; j <= m; j++) { k = order[j]; line = sprintf("%-8s %8s", substr(k, 1, index(k, " ")-1), substr(k, index(k, " ")+1));
        for (q = 1; q <= ni; q++) { c = srt(k, im[q]); if (!c) { line = line "  -"; continue }
          md[im[q]] = (c % 2) ? a[(c+1)/2] : (a[c/2] + a[c/2+1]) / 2;
          line = line sprintf("  %s %g %g %g", im[q], a[1], md[im[q]], a[c]) }
        if (n[k, "base"] && md["base"] > 0) line = line sprintf("  handoff/base %.2f", md["handoff"] / md["base"]);
        print line } }' "$raw"
fi

# ---- 3. PRK SHMEM kernels --------------------------------------------------------------
if [ -n "$prk" ] && { [ -z "$only" ] || [ "$only" = prk ]; }; then
  common="-I$prk/include -DSHMEM -DPRKVERSION=\"2020\" -DRESTRICT_KEYWORD=0 -DVERBOSE=0"
  # shellcheck disable=SC2086
  build prk_stencil $common -DDOUBLE=1 -DSTAR=1 -DRADIUS=2 -DLOOPGEN=0 -DSPLITFENCE=0 \
    "$prk/SHMEM/Stencil/stencil.c" \
    "$prk/common/SHMEM_bail_out.c" "$prk/common/wtime.c"
  # shellcheck disable=SC2086
  build prk_p2p $common "$prk/SHMEM/Synch_p2p/p2p.c" "$prk/common/SHMEM_bail_out.c" \
    "$prk/common/wtime.c"
  for r in $(seq 1 "$rounds"); do
    for impl in $(rotated); do
      v=$(run2 "$impl" "$out/prk_stencil.$impl" 100 1000 | sed -n 's/.*Avg time (s): *\([0-9.e+-]*\).*/\1/p')
      echo "prk stencil $impl $r ${v:-nan}" | tee -a "$raw"
      v=$(run2 "$impl" "$out/prk_p2p.$impl" 100 1000 1000 | sed -n 's/.*Avg time (s): *\([0-9.e+-]*\).*/\1/p')
      echo "prk p2p $impl $r ${v:-nan}" | tee -a "$raw"
    done
  done
  echo "# PRK SHMEM, 2 PEs, time per iteration (s), median of $rounds: kernel handoff peer handoff/peer"
  for k in stencil p2p; do
    h=$(awk -v k="$k" '$1=="prk" && $2==k && $3=="handoff" {print $5}' "$raw" | sort -g | awk '{v[NR]=$1} END {print (NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2}')
    p=$(awk -v k="$k" '$1=="prk" && $2==k && $3=="peer" {print $5}' "$raw" | sort -g | awk '{v[NR]=$1} END {if (NR) print (NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2; else print "nan"}')
    awk -v k="$k" -v h="$h" -v p="$p" 'BEGIN {printf "%-8s %s %s %s\n", k, h, p, (p == "nan" || p == 0) ? "-" : sprintf("%.2f", h / p)}'
  done
fi
