#!/usr/bin/env bash
# disagreements.sh [CORPUS_FILE]: where do the peers and chipify disagree?
#
# Builds the tools (as run_peers.sh does), generates the 20 MB seed-1 corpus
# unless CORPUS_FILE is given, runs every selected peer with --per-record
# (one valid-address count per line) and chipify with --format tsv, and
# prints, per peer, how many records have a different count, and the first
# EXAMPLES (default 10) of them: the line, chipify's count and the peer's.
# Outputs stay in build/per-record/. Every peer runs on the whole file, so
# py-headerregistry takes about a minute on the 20 MB corpus.
#
# Environment: EXAMPLES (default 10), and those of lib.sh (CHIPIFY,
# CHIPIFY_BENCH, PEERS, CC, BUILD_DIR).
set -euo pipefail
export LC_ALL=C

usage() {
    echo "usage: disagreements.sh [CORPUS_FILE]   (env: EXAMPLES, PEERS, CHIPIFY)" >&2
    exit 64
}
case "${1:-}" in -h | --help) usage ;; -*) usage ;; esac
[ $# -le 1 ] || usage

# shellcheck source=lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

EXAMPLES="${EXAMPLES:-10}"
[[ "$EXAMPLES" =~ ^[0-9]+$ ]] || die "EXAMPLES must be a number, not '$EXAMPLES'"

check_prerequisites
snapshot_chipify
build_tools
CORPUS="$(corpus_path "${1:-}")"
DIR="$BUILD_DIR/per-record"
mkdir -p "$DIR"
rm -f "$DIR"/*.counts "$DIR"/*.err "$DIR/chipify.tsv"

# per_record NAME: writes DIR/NAME.counts.
per_record() {
    local name="$1"
    note "running $name --per-record"
    if ! case "$name" in
        gmime) "$BUILD_DIR/gmime_count" --per-record "$CORPUS" ;;
        netmail) "$BUILD_DIR/netmail" --per-record "$CORPUS" ;;
        perl-xs) perl "$PEERS_DIR/email_address_xs.pl" --per-record "$CORPUS" ;;
        py-getaddresses) "$PYTHON" "$PEERS_DIR/python_getaddresses.py" --getaddresses --per-record "$CORPUS" ;;
        py-headerregistry) "$PYTHON" "$PEERS_DIR/python_getaddresses.py" --headerregistry --per-record "$CORPUS" ;;
        *) die "internal: unknown peer $name" ;;
    esac >"$DIR/$name.counts" 2>"$DIR/$name.err"; then
        tail -n 5 "$DIR/$name.err" >&2 || true
        die "$name failed (see $DIR/$name.err)"
    fi
}

note "running chipify --format tsv"
"$CHIPIFY" --format tsv "$CORPUS" >"$DIR/chipify.tsv" || die "chipify --format tsv failed"
ARGS=()
for peer in $PEERS; do
    per_record "$peer"
    ARGS+=("$peer=$DIR/$peer.counts")
done
note "Python peers use $(python_description)"
"$PYTHON" "$PEERS_DIR/compare_per_record.py" --examples "$EXAMPLES" "$CORPUS" "$DIR/chipify.tsv" "${ARGS[@]}"
