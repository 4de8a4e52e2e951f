#!/usr/bin/env bash
# The lab's line count (handoff-lab + handoff-cli, every .rs file) and where its change since
# a base commit came from, one row per step of main's first-parent history:
#
#   bench/lab_lines.sh [BASE]     BASE defaults to 59bfc1d (main when #25 was filed)
#
# A merge's row is what the merged branch added to the lab (its diff against main before
# the merge); a commit made on main is its own row. Rows: "delta  commit  subject". The
# subject names the branch (and its issue, where the merge message says it) so the rows can
# be summed by issue; docs/results.md has that sum. Line counts, so load does not matter.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-59bfc1d}
paths=(crates/handoff-lab crates/handoff-cli)
count() { git ls-tree -r --name-only "$1" -- "${paths[@]}" | grep '\.rs$' |
    while read -r f; do git cat-file -p "$1:$f"; done | wc -l; }
delta() { git diff --numstat "$1" "$2" -- "${paths[@]}" |
    awk '$3 ~ /\.rs$/ { d += $1 - $2 } END { print d + 0 }'; }
total=0
while read -r h; do
    d=$(delta "$h^1" "$h")
    [ "$d" = 0 ] && continue
    total=$((total + d))
    printf '%6d  %s  %s\n' "$d" "$h" "$(git log -1 --format=%s "$h" | cut -c1-100)"
done < <(git log --first-parent --reverse --format=%h "$base..HEAD")
before=$(count "$base")
after=$(count HEAD)
echo "lab lines: $before at $base, $after at HEAD ($((after - before)); rows sum to $total)"
