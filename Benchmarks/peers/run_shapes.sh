#!/usr/bin/env bash
# run_shapes.sh [SIZE]: the peers' table for each shape of list alone.
#
# Generates SIZE (default 20MB) of each shape with `chipify-bench corpus
# --shape S --seed 1` into build/shapes/, then runs run_peers.sh on each (so
# each shape is timed against the same peers, in alternation), and prints one
# Markdown table: per shape, chipify's MB/s on one core and how many times
# faster it is than each peer. Environment: as run_peers.sh (RUNS, PEERS,
# CHIPIFY, CHIPIFY_BENCH); PEERS defaults to "gmime netmail" here.
set -euo pipefail
export LC_ALL=C
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export PEERS="${PEERS:-gmime netmail}"
# shellcheck source=lib.sh
. "$here/lib.sh"
SIZE="${1:-20MB}"
shapes="plain utf8-names quoted comments idn punycode encoded groups outlook"
mkdir -p "$BUILD_DIR/shapes"
echo "| shape | chipify -j 1 --summary MB/s | × GMime | × Go net/mail |"
echo "|---|--:|--:|--:|"
for shape in $shapes; do
    file="$BUILD_DIR/shapes/$shape.txt"
    "$CHIPIFY_BENCH" corpus --size "$SIZE" --seed 1 --shape "$shape" > "$file"
    table="$(bash "$here/run_peers.sh" "$file" 2>>"$BUILD_DIR/shapes/run.log")" ||
        die "run_peers.sh failed on $shape: see $BUILD_DIR/shapes/run.log"
    chipify="$(printf '%s\n' "$table" | awk -F'|' '/chipify -j 1/ {gsub(/ /, "", $6); print $6; exit}')"
    gmime="$(printf '%s\n' "$table" | awk -F'|' '/GMime/ {gsub(/ /, "", $9); print $9; exit}')"
    go="$(printf '%s\n' "$table" | awk -F'|' '/net\/mail/ {gsub(/ /, "", $9); print $9; exit}')"
    echo "| $shape | $chipify | ${gmime:-—} | ${go:-—} |"
done
