#!/usr/bin/env bash
# handoff's kernels beside a `cc -O3 -march=native` build of the same loops (fillsum.c), on the
# same machine in the same minutes. A benchmark, not a test: run it on a quiet machine.
#
#   bench/c-baseline/run.sh [ROUNDS]      (default 5; needs cc, jq, CPUs 0 and 1)
#
# Each round runs, back to back: the C build, handoff (default `cargo build --release`, i.e.
# generic x86-64 code with run-time kernel dispatch) and handoff --kernel sse2 (what a plain
# loop in a default build gave before dispatch). Cases: single-thread read 64 KiB and 1 MiB,
# processes-spin read 1 MiB with the consumer on the other CPU (C: two threads spinning on
# flags in the same lock-step), producer fill 1 MiB on one CPU. Each figure is the median
# over the rounds of each round's median (1000 repetitions after 100 of warm-up).
set -euo pipefail
ROUNDS=${1:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
P=0 C=1 REPS=1000 WARMUP=100

cc -O3 -march=native -pthread -Wall -o "$WORK/fillsum" "$HERE/fillsum.c"
(cd "$ROOT" && cargo build --release -q -p handoff-cli)
H="$ROOT/target/release/handoff"

# Appends "case value" lines to $WORK/<impl>.
c_run() { # mode size_bytes -> read_us write_us
    taskset -c $P,$C "$WORK/fillsum" "$1" "$2" $REPS $WARMUP $P $C split |
        sed -E 's/read_us=([0-9.]+) write_us=([0-9.]+)/\1 \2/'
}
h_run() { # kernel mode size consumer -> read_us write_us (medians)
    "$H" bench exchange --kernel "$1" --mode "$2" --size "$3" --consumer-core "$4" \
        --producer-core $P --reps $REPS --warmup $WARMUP --runs 1 -q --format json |
        jq -r '.records[0] | "\(.read_us.median) \(.write_us.median)"'
}
record() { # impl read64k read1m spinread1m fill1m
    printf '%s\n' "read64k $2" "read1m $3" "spin1m $4" "fill1m $5" >>"$WORK/$1"
}
for r in $(seq "$ROUNDS"); do
    read -r c64 _ < <(c_run single 65536)
    read -r c1m cf1m < <(c_run single 1048576)
    read -r cs1m _ < <(c_run spin 1048576)
    record c "$c64" "$c1m" "$cs1m" "$cf1m"
    for k in auto sse2; do
        read -r h64 _ < <(h_run $k single-thread 64KiB $P)
        read -r h1m hf1m < <(h_run $k single-thread 1MiB $P)
        read -r hs1m _ < <(h_run $k processes-spin 1MiB $C)
        record "h_$k" "$h64" "$h1m" "$hs1m" "$hf1m"
    done
    echo "round $r/$ROUNDS done (load: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
done

med() { # impl case
    awk -v c="$2" '$1 == c { print $2 }' "$WORK/$1" | sort -g |
        awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
kernel=$("$H" bench exchange --mode single-thread --size 4KiB --reps 2 --runs 1 -q --format json |
    jq -r '.records[0].kernel')
echo
echo "medians in us over $ROUNDS rounds; handoff kernel: $kernel; C: cc -O3 -march=native ($(cc --version | head -1))"
printf '| %-50s | %9s | %9s | %10s | %12s |\n' case handoff C handoff/C "handoff sse2"
printf '|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..52})" ----------: ----------: -----------: -------------:
for c in "read64k:single-thread read, 64 KiB" "read1m:single-thread read, 1 MiB" \
    "spin1m:processes-spin read, 1 MiB, consumer on CPU $C" "fill1m:producer fill, 1 MiB, same CPU"; do
    key=${c%%:*} label=${c#*:}
    h=$(med h_auto "$key") cv=$(med c "$key") s=$(med h_sse2 "$key")
    printf '| %-50s | %9.2f | %9.2f | %10.2f | %12.2f |\n' "$label" "$h" "$cv" \
        "$(awk -v a="$h" -v b="$cv" 'BEGIN { print a / b }')" "$s"
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
