# shellcheck shell=bash
# Shared helpers for run_peers.sh and disagreements.sh; source it, don't run it.
#
# Environment (all optional):
#   CHIPIFY         the chipify binary      (default: REPO/.build/release/chipify)
#   CHIPIFY_BENCH   the corpus generator    (default: REPO/.build/release/chipify-bench)
#   PEERS           peers to use, space-separated, from:
#                   gmime netmail perl-xs py-getaddresses py-headerregistry
#                   (default: all of them)
#   PYTHON          the Python that runs the Python peers and the helpers
#                   (default: Debian's /usr/bin/python3 when present, else
#                   python3 on PATH; see README.md on why the choice matters)
#   CC              C compiler (default: gcc)
#   BUILD_DIR       where tools and generated corpora go (default: peers/build)

PEERS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$PEERS_DIR/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$PEERS_DIR/build}"
CHIPIFY="${CHIPIFY:-$REPO_DIR/.build/release/chipify}"
CHIPIFY_BENCH="${CHIPIFY_BENCH:-$REPO_DIR/.build/release/chipify-bench}"
if [ -z "${PYTHON:-}" ]; then
    if [ -x /usr/bin/python3 ]; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
fi
ALL_PEERS="gmime netmail perl-xs py-getaddresses py-headerregistry"
PEERS="${PEERS:-$ALL_PEERS}"

die() {
    printf '%s: error: %s\n' "$(basename "$0")" "$*" >&2
    exit 1
}

note() {
    printf '%s: %s\n' "$(basename "$0")" "$*" >&2
}

# need_cmd COMMAND HINT: dies unless COMMAND is on PATH.
need_cmd() {
    command -v "$1" >/dev/null 2>&1 || die "'$1' not found; $2"
}

peer_selected() {
    case " $PEERS " in *" $1 "*) return 0 ;; *) return 1 ;; esac
}

check_peers_list() {
    local peer
    for peer in $PEERS; do
        case " $ALL_PEERS " in
            *" $peer "*) ;;
            *) die "unknown peer '$peer' in PEERS; known: $ALL_PEERS" ;;
        esac
    done
}

need_chipify() {
    [ -x "$CHIPIFY" ] || die "chipify not found at $CHIPIFY; build it with 'swift build -c release' or set CHIPIFY=/path/to/chipify"
}

# Copies chipify into BUILD_DIR and points CHIPIFY at the copy, so that a
# rebuild of .build/release/chipify during a run cannot swap the binary
# between two timed runs (or remove it during a link).
snapshot_chipify() {
    mkdir -p "$BUILD_DIR"
    cp "$CHIPIFY" "$BUILD_DIR/chipify.snapshot.tmp" || die "cannot copy $CHIPIFY"
    mv "$BUILD_DIR/chipify.snapshot.tmp" "$BUILD_DIR/chipify.snapshot"
    CHIPIFY_ORIGINAL="$CHIPIFY"
    CHIPIFY="$BUILD_DIR/chipify.snapshot"
    "$CHIPIFY" --version >/dev/null 2>&1 || die "the copy of $CHIPIFY_ORIGINAL does not run"
}

# Checks every prerequisite of the selected peers up front, so a missing one
# is reported before any timing starts.
check_prerequisites() {
    check_peers_list
    need_chipify
    need_cmd "${CC:-gcc}" "install a C compiler (apt-get install gcc) or set CC"
    need_cmd "$PYTHON" "install python3 (apt-get install python3) or set PYTHON"
    if peer_selected gmime; then
        need_cmd pkg-config "install pkg-config (apt-get install pkg-config)"
        pkg-config --exists gmime-3.0 ||
            die "pkg-config cannot find gmime-3.0; apt-get install libgmime-3.0-dev, or leave gmime out: PEERS='netmail perl-xs py-getaddresses py-headerregistry'"
    fi
    if peer_selected netmail; then
        need_cmd go "apt-get install golang-go, or leave netmail out: PEERS='gmime perl-xs py-getaddresses py-headerregistry'"
    fi
    if peer_selected perl-xs; then
        need_cmd perl "apt-get install perl"
        perl -MEmail::Address::XS -e 1 2>/dev/null ||
            die "Perl module Email::Address::XS missing; apt-get install libemail-address-xs-perl, or leave perl-xs out: PEERS='gmime netmail py-getaddresses py-headerregistry'"
    fi
}

# Builds floor_scan always, gmime_count and netmail when selected, into BUILD_DIR.
build_tools() {
    mkdir -p "$BUILD_DIR"
    local cc="${CC:-gcc}"
    "$cc" -O2 -Wall -Wextra -o "$BUILD_DIR/floor_scan" "$PEERS_DIR/floor_scan.c" ||
        die "building floor_scan failed"
    if peer_selected gmime; then
        # shellcheck disable=SC2046  # pkg-config output is meant to split
        "$cc" -O2 -Wall -Wextra -o "$BUILD_DIR/gmime_count" "$PEERS_DIR/gmime_count.c" \
            $(pkg-config --cflags --libs gmime-3.0) || die "building gmime_count failed"
    fi
    if peer_selected netmail; then
        # Standard library only: no module download, caches kept out of the repo.
        local go_tmp="${TMPDIR:-/tmp}/chipify-peers-go"
        (cd "$PEERS_DIR" &&
            GOCACHE="$go_tmp/cache" GOPATH="$go_tmp/path" GOPROXY=off GOFLAGS='' \
                go build -trimpath -o "$BUILD_DIR/netmail" netmail.go) ||
            die "building netmail failed"
    fi
}

# corpus_path [FILE]: prints FILE (checked) or generates the default 20 MB
# corpus (seed 1) into BUILD_DIR and prints its path.
corpus_path() {
    if [ $# -gt 0 ] && [ -n "$1" ]; then
        if [ ! -f "$1" ] || [ ! -r "$1" ]; then die "cannot read corpus file '$1'"; fi
        printf '%s\n' "$1"
        return
    fi
    [ -x "$CHIPIFY_BENCH" ] ||
        die "no corpus given and chipify-bench not found at $CHIPIFY_BENCH; build it with 'swift build -c release' or pass a CORPUS_FILE"
    mkdir -p "$BUILD_DIR"
    local file="$BUILD_DIR/corpus-20MB-seed1.txt"
    "$CHIPIFY_BENCH" corpus --size 20MB --seed 1 >"$file.tmp" || die "chipify-bench corpus failed"
    mv "$file.tmp" "$file"
    printf '%s\n' "$file"
}

# make_slice FILE BYTES OUT: writes to OUT the first BYTES bytes of FILE, cut
# back to the last line boundary (the whole file if it is smaller).
make_slice() {
    local file="$1" bytes="$2" out="$3"
    "$PYTHON" - "$file" "$bytes" "$out" <<'EOF'
import sys
path, limit, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, "rb") as f:
    data = f.read(limit + 1)
if len(data) > limit:
    cut = data.rfind(b"\n", 0, limit)
    data = data[: cut + 1] if cut >= 0 else b""
with open(out, "wb") as f:
    f.write(data)
EOF
    [ -s "$out" ] || die "slice of $file is empty (no line ends within $bytes bytes)"
}

# python_description: e.g. "Python 3.11.2, getaddresses strict=True".
python_description() {
    "$PYTHON" -c '
import inspect, platform, email.utils
strict = "strict" in inspect.signature(email.utils.getaddresses).parameters
print(f"Python {platform.python_version()}, getaddresses " + ("strict=True" if strict else "without strict mode"))'
}
