#!/usr/bin/env bash
# run_shapes.sh [SIZE | --from-rows]: the peers' table for each shape of list alone.
#
# Generates SIZE (default 20MB) of each shape with `chipify-bench corpus
# --shape S --seed 1` into build/shapes/, then runs run_peers.sh on each (so
# each shape is timed against the same peers, in alternation), and prints a
# Markdown table and a chart: per shape, chipify's MB/s on one core with
# --summary and with JSON Lines written to a file, how many times faster each
# is than GMime, the same for JSON Lines thrown away (/dev/null: the writing
# without the kernel's cost of storing 2-3 times the input in a file), what
# both cores give over one, the byte-scan floor's MB/s and how
# many times faster chipify is than Go's net/mail; then one bar per shape of
# chipify's one-core --summary speed over GMime's, the 5x bar marked.
# Environment: as run_peers.sh (RUNS, PEERS, CHIPIFY, CHIPIFY_BENCH); PEERS
# defaults to "gmime netmail" here. Each shape's full table is kept in
# build/shapes/SHAPE.md, this table in build/shapes/table.md, and its chart,
# drawn by `chipify-bench shapes-chart`, in build/shapes/shapes.svg.
set -euo pipefail
export LC_ALL=C
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export PEERS="${PEERS:-gmime netmail}"
# shellcheck source=lib.sh
. "$here/lib.sh"
SIZE="${1:-20MB}"
shapes="plain utf8-names quoted comments idn punycode encoded groups outlook"
mkdir -p "$BUILD_DIR/shapes"
rows="$BUILD_DIR/shapes/rows.tsv"
# --from-rows: only draw the table and the chart again from the last run.
[ "$SIZE" = --from-rows ] && shapes="" || : >"$rows"
for shape in $shapes; do
    file="$BUILD_DIR/shapes/$shape.txt"
    "$CHIPIFY_BENCH" corpus --size "$SIZE" --seed 1 --shape "$shape" >"$file"
    bash "$here/run_peers.sh" "$file" >"$BUILD_DIR/shapes/$shape.md" 2>>"$BUILD_DIR/shapes/run.log" ||
        die "run_peers.sh failed on $shape: see $BUILD_DIR/shapes/run.log"
    # MB/s (column 6) of each row the table has.
    awk -F'|' -v shape="$shape" '
        function mbps(cell) { gsub(/ /, "", cell); return cell }
        /chipify -j 1 --summary/ { s = mbps($6) }
        /--format jsonl \(one core, every chip written\)/ { j = mbps($6) }
        /--format jsonl >\/dev\/null/ { z = mbps($6) }
        /chipify --summary \(all cores\)/ { a = mbps($6) }
        /floor_scan/ { f = mbps($6) }
        /GMime/ { g = mbps($6) }
        /net\/mail/ { n = mbps($6) }
        END { printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", shape, s, j, a, f, g, n, z }' \
        "$BUILD_DIR/shapes/$shape.md" >>"$rows"
done
table="$BUILD_DIR/shapes/table.md"
awk -F'\t' '
    function ratio(a, b) { return (a > 0 && b > 0) ? sprintf("%.2f×", a / b) : "—" }
    BEGIN {
        print "| shape | --summary MB/s | × GMime | JSON Lines MB/s | × GMime | JSON Lines to /dev/null, × GMime | all cores ÷ one | floor MB/s | × Go net/mail |"
        print "|---|--:|--:|--:|--:|--:|--:|--:|--:|"
    }
    {
        printf "| %s | %.1f | %s | %.1f | %s | %s | %s | %.0f | %s |\n", $1, $2, ratio($2, $6), $3, ratio($3, $6),
            ratio($8, $6), ratio($4, $2), $5, ratio($2, $7)
        shape[NR] = $1; times[NR] = ($6 > 0) ? $2 / $6 : 0; if (times[NR] > top) top = times[NR]
    }
    END {
        print ""
        print "```"
        print "chipify -j 1 --summary, times GMime (each █ is 0.25×; | marks 5×)"
        width = int(top * 4 + 0.5); if (width < 21) width = 21
        for (k = 1; k <= NR; k++) {
            n = int(times[k] * 4 + 0.5)
            bar = ""
            for (c = 1; c <= width; c++) bar = bar ((c <= n) ? "█" : (c == 20 ? "|" : " "))
            printf "%-11s %s %5.2f×\n", shape[k], bar, times[k]
        }
        print "```"
    }' "$rows" | tee "$table"
"$CHIPIFY_BENCH" shapes-chart "$table" "$BUILD_DIR/shapes/shapes.svg" >&2
