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
TARGET_DIR=${FUZZ_TARGET_DIR:-$HOME/.cache/citeproof-fuzz/target}
LOGS=fuzz/logs
mkdir -p "$LOGS"

BIN=$TARGET_DIR/x86_64-unknown-linux-gnu/release
if [ "${BUILD:-1}" = 1 ]; then
    cargo +nightly fuzz build -O --target-dir "$TARGET_DIR"
fi

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v citeproof-fuzz)
fi
[ -d fuzz/seeds ] || python3 fuzz/seed.py
[ -f fuzz/runs.tsv ] ||
    printf 'finished\ttarget\texecutions\tseconds\tcov\tft\tcorpus_files\tcorpus_bytes\tstatus\n' >fuzz/runs.tsv

# Binary inputs are larger than text; a larger input only slows each execution.
max_len() {
    case "$1" in
    pdf | docx | archive) echo 16384 ;;
    *) echo 8192 ;;
    esac
}

for target in "${targets[@]}"; do
    corpus=fuzz/corpus/$target
    mkdir -p "$corpus" "fuzz/seeds/$target"
    log=$LOGS/$target.log
    start=$(date +%s)
    # -timeout: one input over 10 s is a hang and a finding, as is 2 GiB of memory.
    "$BIN/$target" "$corpus" "fuzz/seeds/$target" -artifact_prefix="$LOGS/$target-" \
        -runs="$RUNS" -max_total_time="$MAX_SECONDS" -max_len="$(max_len "$target")" \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        >"$log" 2>&1 && status=ok || status="failed ($?)"
    seconds=$(($(date +%s) - start))
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
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
    files=$(find "$corpus" -type f | wc -l)
    # The inputs' own bytes, not `du`: a folder's entry size depends on the file system
    # and its history, and would make the figure differ between checkouts.
    bytes=$(find "$corpus" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "${executions:-?}" \
        "$seconds" "${cov:-?}" "${ft:-?}" "$files" "$bytes" "$status" | tee -a fuzz/runs.tsv
done
