#!/usr/bin/env bash
# run_peers.sh [CORPUS_FILE]: times chipify against peer address-list parsers.
#
# Builds the C and Go tools into build/, generates the 20 MB corpus with seed
# 1 (chipify-bench corpus --size 20MB --seed 1) unless CORPUS_FILE is given,
# then times every tool on the same file, in alternation: each round runs
# every tool once (rotating which goes first), round 0 is a warm-up that is
# thrown away, and the median of the RUNS timed rounds is reported. Timing is
# wall-clock around the process (bash's EPOCHREALTIME, no extra fork), with
# output sent to a file under build/out/.
#
# Python's parsers are slow, so:
#   - py-getaddresses runs on the full file like the others;
#   - py-headerregistry (~0.5 MB/s) runs on a slice: the first PY_SLICE_BYTES
#     bytes (default 2000000) cut back to a line boundary; chipify is timed on
#     the same slice, and that row is the reference for its ratio.
#
# Prints a Markdown table (also saved as build/peers-table.md): tool, input,
# median seconds, fastest and slowest run, MB/s (10^6 bytes/s, from the
# median), addresses found, valid, and chipify's MB/s divided by the tool's. See README.md for what each count means.
#
# Environment: RUNS (default 5), PY_SLICE_BYTES (default 2000000), and those
# of lib.sh (CHIPIFY, CHIPIFY_BENCH, PEERS, CC, BUILD_DIR).
set -euo pipefail
export LC_ALL=C

usage() {
    echo "usage: run_peers.sh [CORPUS_FILE]   (env: RUNS, PY_SLICE_BYTES, PEERS, CHIPIFY)" >&2
    exit 64
}
case "${1:-}" in -h | --help) usage ;; -*) usage ;; esac
[ $# -le 1 ] || usage

# shellcheck source=lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

RUNS="${RUNS:-5}"
PY_SLICE_BYTES="${PY_SLICE_BYTES:-2000000}"
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, not '$RUNS'"
[[ "$PY_SLICE_BYTES" =~ ^[1-9][0-9]*$ ]] || die "PY_SLICE_BYTES must be a positive integer"
[ -n "${EPOCHREALTIME:-}" ] || die "bash 5 or later is needed (EPOCHREALTIME)"

check_prerequisites
snapshot_chipify
build_tools
CORPUS="$(corpus_path "${1:-}")"
OUT_DIR="$BUILD_DIR/out"
mkdir -p "$OUT_DIR"
rm -f "$OUT_DIR"/*.out "$OUT_DIR"/*.err

# The tools, in table order: NAME|INPUT (full or slice)
TOOLS=("chipify|full" "chipify-jsonl|full" "chipify-jsonl-null|full" "chipify-all-cores|full" "floor_scan|full")
peer_selected gmime && TOOLS+=("gmime|full")
peer_selected netmail && TOOLS+=("netmail|full")
peer_selected perl-xs && TOOLS+=("perl-xs|full")
peer_selected py-getaddresses && TOOLS+=("py-getaddresses|full")
SLICE=""
if peer_selected py-headerregistry; then
    SLICE="$BUILD_DIR/slice.txt"
    make_slice "$CORPUS" "$PY_SLICE_BYTES" "$SLICE"
    TOOLS+=("chipify-slice|slice" "py-headerregistry|slice")
fi

# run_tool NAME FILE: runs one tool once, stdout to OUT_DIR/NAME.out.
run_tool() {
    local name="$1" file="$2"
    case "$name" in
        chipify | chipify-slice) "$CHIPIFY" -j 1 --summary --format jsonl "$file" ;;
        chipify-jsonl) "$CHIPIFY" -j 1 --format jsonl "$file" ;;
        # The same, its lines thrown away: what writing them costs without
        # what storing them in a file costs the kernel.
        chipify-jsonl-null) "$CHIPIFY" -j 1 --format jsonl "$file" >/dev/null ;;
        chipify-all-cores) "$CHIPIFY" --summary --format jsonl "$file" ;;
        floor_scan) "$BUILD_DIR/floor_scan" "$file" ;;
        gmime) "$BUILD_DIR/gmime_count" "$file" ;;
        netmail) "$BUILD_DIR/netmail" "$file" ;;
        perl-xs) perl "$PEERS_DIR/email_address_xs.pl" "$file" ;;
        py-getaddresses) "$PYTHON" "$PEERS_DIR/python_getaddresses.py" --getaddresses "$file" ;;
        py-headerregistry) "$PYTHON" "$PEERS_DIR/python_getaddresses.py" --headerregistry "$file" ;;
        *) die "internal: unknown tool $name" ;;
    esac >"$OUT_DIR/$name.out" 2>"$OUT_DIR/$name.err"
}

now_us() {
    local t="$EPOCHREALTIME"
    printf '%s\n' "${t/./}"
}

LOAD_START="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
TIMINGS="$BUILD_DIR/timings.tsv"
: >"$TIMINGS"
n=${#TOOLS[@]}
note "corpus $CORPUS ($(wc -c <"$CORPUS") bytes); ${RUNS} timed rounds + 1 warm-up of $n tools"
for ((round = 0; round <= RUNS; round++)); do
    for ((k = 0; k < n; k++)); do
        entry="${TOOLS[$(((k + round) % n))]}"
        name="${entry%%|*}" input="${entry#*|}"
        file="$CORPUS"
        [ "$input" = slice ] && file="$SLICE"
        # Untimed: each run starts with no old output of its own to
        # truncate and no dirty pages of another's to write back (the
        # JSON Lines row stores 2-6 times its input; the shell's `>` of
        # its last output, and the kernel's writeback of it during the
        # next row, were timed before).
        rm -f "$OUT_DIR/$name.out"
        sync
        start=$(now_us)
        if ! run_tool "$name" "$file"; then
            tail -n 5 "$OUT_DIR/$name.err" >&2 || true
            die "$name failed on $file (see $OUT_DIR/$name.err)"
        fi
        end=$(now_us)
        [ "$round" -eq 0 ] || printf '%s\t%s\t%s\n' "$name" "$round" "$((end - start))" >>"$TIMINGS"
    done
    if [ "$round" -eq 0 ]; then note "warm-up done"; else note "round $round/$RUNS done"; fi
done

# chipify's counts, untimed, from its TSV: the table counts mailbox and error
# chips as addresses found (not empty-group chips, which no peer reports) and
# valid mailbox chips as valid.
chipify_counts() {
    "$CHIPIFY" --format tsv "$1" |
        awk -F'\t' '$3 != "group" { a++ } $3 == "mailbox" && $4 == "valid" { v++ }
                    END { printf "addresses=%d valid=%d\n", a, v }'
}
chipify_counts "$CORPUS" >"$OUT_DIR/chipify.counts"
cp "$OUT_DIR/chipify.counts" "$OUT_DIR/chipify-all-cores.counts"
cp "$OUT_DIR/chipify.counts" "$OUT_DIR/chipify-jsonl.counts"
cp "$OUT_DIR/chipify.counts" "$OUT_DIR/chipify-jsonl-null.counts"
[ -n "$SLICE" ] && chipify_counts "$SLICE" >"$OUT_DIR/chipify-slice.counts"

LOAD_END="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
CPU="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)"
# Versions and machine facts for the table's labels; '?' where unknown.
MACHINE="$(nproc) cores${CPU:+ ($CPU)}; load average ${LOAD_START} before, ${LOAD_END} after"
CHIPIFY_VERSION="$("$CHIPIFY" --version 2>&1 | head -n 1) (copy of $CHIPIFY_ORIGINAL)"
PY_DESC="$(python_description)"
GMIME_VERSION="$(pkg-config --modversion gmime-3.0 2>/dev/null || echo '?')"
GO_VERSION="$(go env GOVERSION 2>/dev/null | sed 's/^go//')" || GO_VERSION='?'
PERL_XS_VERSION="$(perl -MEmail::Address::XS -e 'print $Email::Address::XS::VERSION' 2>/dev/null)" || PERL_XS_VERSION='?'
export MACHINE CHIPIFY_VERSION PY_DESC GMIME_VERSION GO_VERSION PERL_XS_VERSION

TABLE="$BUILD_DIR/peers-table.md"
"$PYTHON" - "$TIMINGS" "$OUT_DIR" "$CORPUS" "${SLICE:-}" "${TOOLS[@]}" <<'EOF' | tee "$TABLE"
import json, os, statistics, sys

timings_path, out_dir, corpus, slice_path, *tools = sys.argv[1:]
times = {}
with open(timings_path) as f:
    for line in f:
        name, _round, us = line.split("\t")
        times.setdefault(name, []).append(int(us) / 1e6)

def kv(text):
    return dict(part.split("=", 1) for part in text.split())

def counts(name):
    text = open(os.path.join(out_dir, name + ".out")).read().strip()
    if name in ("chipify-jsonl", "chipify-jsonl-null"):
        # Its output is the chips themselves: the counts are the summary's.
        tsv = kv(open(os.path.join(out_dir, name + ".counts")).read())
        return tsv["addresses"], tsv["valid"], {}
    if name.startswith("chipify"):
        summary = json.loads(text)
        tsv = kv(open(os.path.join(out_dir, name + ".counts")).read())
        return tsv["addresses"], tsv["valid"], summary
    return kv(text).get("addresses", "—"), kv(text).get("valid", "—"), kv(text)

size = {"full": os.path.getsize(corpus)}
if slice_path:
    size["slice"] = os.path.getsize(slice_path)

env = os.environ.get
labels = {
    "chipify": "chipify -j 1 --summary (one core)",
    "chipify-jsonl": "chipify -j 1 --format jsonl (one core, every chip written)",
    "chipify-jsonl-null": "chipify -j 1 --format jsonl >/dev/null (one core, every chip written, none stored)",
    "chipify-all-cores": "chipify --summary (all cores)",
    "floor_scan": "floor_scan (C, read + count `\\n` `,`)",
    "gmime": f"GMime {env('GMIME_VERSION', '3')} `internet_address_list_parse`",
    "netmail": f"Go {env('GO_VERSION', '')} `net/mail.ParseAddressList`",
    "perl-xs": f"Perl Email::Address::XS {env('PERL_XS_VERSION', '')} `parse_email_groups`",
    "py-getaddresses": f"`email.utils.getaddresses` ({env('PY_DESC', 'Python')})",
    "chipify-slice": "chipify -j 1 --summary",
    "py-headerregistry": f"`email.headerregistry`, To: ({env('PY_DESC', 'Python').split(',')[0]})",
}

rows = []
mbps = {}
for entry in tools:
    name, inp = entry.split("|")
    median = statistics.median(times[name])
    mbps[name] = size[inp] / 1e6 / median
for entry in tools:
    name, inp = entry.split("|")
    median = statistics.median(times[name])
    addresses, valid, extra = counts(name)
    if name == "floor_scan":
        addresses = f"— ({extra['separators']} commas)"
        valid = "—"
    elif "failed" in extra:
        addresses = f"{addresses} ({extra['failed']} lines failed)"
    reference = "chipify-slice" if inp == "slice" else "chipify"
    ratio = mbps[reference] / mbps[name]
    input_label = "full" if inp == "full" else f"slice, {size['slice'] / 1e6:.1f} MB"
    spread = f"{min(times[name]):.3f}–{max(times[name]):.3f}"
    rows.append((labels[name], input_label, f"{median:.3f}", spread, f"{mbps[name]:.1f}",
                 addresses, valid, f"{ratio:.2f}×"))

print(f"Corpus: {corpus} ({size['full']} bytes); " +
      (f"slice: first {size['slice']} bytes, cut at a line end; " if slice_path else "") +
      f"median of {len(next(iter(times.values())))} alternating runs after 1 warm-up.")
print(f"Machine: {os.environ.get('MACHINE', '?')}; {os.environ.get('CHIPIFY_VERSION', 'chipify')}.")
print()
print("| tool | input | median s | min–max s | MB/s | addresses found | valid | chipify MB/s ÷ tool MB/s |")
print("|---|---|--:|--:|--:|--:|--:|--:|")
for row in rows:
    print("| " + " | ".join(str(cell) for cell in row) + " |")
chip = counts("chipify")[2]
print()
print(f"chipify's addresses found = mailbox + error chips (its --summary says chips={chip['chips']} "
      f"valid={chip['valid']}, which include empty-group chips); valid = valid mailbox chips. "
      "A peer's valid = addresses whose last '@' has text on both sides.")
EOF
note "table saved in $TABLE"
