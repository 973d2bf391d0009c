#!/usr/bin/env bash
# Builds the fuzz target with libFuzzer and AddressSanitizer and runs it on
# a seed corpus made from Corpus/samples, Fuzz/seeds and Fuzz/regressions:
#   Fuzz/run.sh 300        for 300 seconds, with a random seed (exploring)
#   Fuzz/run.sh --runs N   N inputs with seed 1: the same run every time (CI)
# A crash input is copied to Fuzz/regressions/, where a test replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
LIMIT=(-max_total_time="${1:-60}")
if [ "${1:-}" = "--runs" ]; then
    LIMIT=(-runs="${2:?--runs needs a count}" -seed=1)
fi
WORK="${FUZZ_WORK:-/tmp/chipify-fuzz}"
rm -rf "$WORK/corpus" "$WORK/artifacts"
mkdir -p "$WORK/corpus" "$WORK/artifacts"
# Each layer is compiled as its own module, in the package's order, with
# the fuzzer's coverage and AddressSanitizer; then the target links them.
FLAGS=(-sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -j"$(nproc)" -package-name chipify -I "$WORK" -L "$WORK")
LIBS=()
for module in ChipSyntax ChipRecognition ChipDirectory ChipOutput ChipEditing ChipGroups ChipPresentation ChipKit ChipTestSupport ChipDirectoryTestSupport ChipOutputTestSupport ChipKitTestSupport; do
    swiftc "${FLAGS[@]}" -module-name "$module" -emit-module -emit-module-path "$WORK/$module.swiftmodule" \
        -emit-library -static -o "$WORK/lib$module.a" "${LIBS[@]}" $(find "Sources/$module" -name '*.swift')
    LIBS+=(-l"$module")
done
swiftc "${FLAGS[@]}" -module-name ChipKitFuzz Fuzz/FuzzTarget.swift $(printf -- '-l%s ' ChipKitTestSupport ChipOutputTestSupport ChipDirectoryTestSupport ChipTestSupport ChipKit ChipPresentation ChipGroups ChipEditing ChipOutput ChipDirectory ChipRecognition ChipSyntax) \
    -o "$WORK/fuzz-chipkit"
# Seeds: each sample line, and each regression input.
n=0
while IFS= read -r line; do
    printf '%s' "$line" > "$WORK/corpus/sample-$n"
    n=$((n + 1))
done < Corpus/samples/compose.txt
# And each line of Fuzz/seeds: the shapes of list the lane reads by rules
# of its own (Outlook lists, comments anywhere, A-labels, IDN).
for seeds in Fuzz/seeds/*.txt; do
    while IFS= read -r line; do
        printf '%s' "$line" > "$WORK/corpus/seed-$n"
        n=$((n + 1))
    done < "$seeds"
done
cp Fuzz/regressions/* "$WORK/corpus/" 2>/dev/null || true
export SWIFT_BACKTRACE=enable=no
status=0
"$WORK/fuzz-chipkit" "$WORK/corpus" "${LIMIT[@]}" -max_len=512 \
    -artifact_prefix="$WORK/artifacts/" -print_final_stats=1 || status=$?
if ls "$WORK"/artifacts/crash-* >/dev/null 2>&1; then
    cp "$WORK"/artifacts/crash-* Fuzz/regressions/
    echo "fuzz: crash inputs copied to Fuzz/regressions/" >&2
fi
exit "$status"
