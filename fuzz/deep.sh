#!/usr/bin/env bash
# Run fuzz targets deep: each to RUNS executions (or MAX_SECONDS, whichever comes
# first), growing the corpus kept in the repository (fuzz/corpus/<target>) from it
# and the fixture seeds (fuzz/seeds/<target>, written by fuzz/seed.py), then
# minimise the corpus. One line of figures per run is appended to fuzz/runs.tsv
# (kept in the repository: the executions add up over runs, as the corpus does).
#
#   fuzz/deep.sh [TARGET...]            # all targets when none is named
#   RUNS=10000000 MAX_SECONDS=7200 fuzz/deep.sh refstring
#   BUILD=0 fuzz/deep.sh markdown      # use the targets as last built
#
# Needs a nightly toolchain and cargo-fuzz. Run from the crate root. The
# instrumented build is large; keep its target folder outside the repository
# (FUZZ_TARGET_DIR, default ~/.cache/citeproof-fuzz/target) so reruns are fast.
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS=${RUNS:-10000000}
MAX_SECONDS=${MAX_SECONDS:-7200}
# shellcheck source=SCRIPTDIR/common.sh
source fuzz/common.sh
mkdir -p "$LOGS"

if [ "${BUILD:-1}" = 1 ]; then
    cargo +nightly fuzz build -O --target-dir "$TARGET_DIR"
fi

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v citeproof-fuzz)
fi
[ -d fuzz/seeds ] || python3 fuzz/seed.py

for target in "${targets[@]}"; do
    corpus=fuzz/corpus/$target
    mkdir -p "$corpus" "fuzz/seeds/$target"
    log=$LOGS/$target.log
    start=$(date +%s)
    fuzz_run "$target" "$log" "$LOGS/$target-" "$corpus" "fuzz/seeds/$target" &&
        status=ok || status="failed ($?)"
    seconds=$(($(date +%s) - start))
    # Minimise: keep a set of inputs that covers every feature the corpus covers.
    # -merge=1, not -set_cover_merge=1: the set cover's greedy pass grows with the
    # square of the corpus and ran over 40 minutes on a 24,000-file corpus here.
    minimal=$(mktemp -d)
    if "$BIN/$target" -merge=1 -max_len="$(max_len "$target")" "$minimal" "$corpus" \
        >"$LOGS/$target.merge.log" 2>&1; then
        rm -rf "$corpus" && mv "$minimal" "$corpus"
    else
        rm -rf "$minimal"
    fi
    record_run "$target" "$log" "$seconds" "$status"
done
