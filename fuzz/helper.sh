#!/usr/bin/env bash
# One more libFuzzer process on a target that fuzz/deep.sh is already running, for a
# spare core. It fuzzes the kept corpus itself (fuzz/corpus/<target>): libFuzzer
# reloads that folder every second (-reload=1, its default), so the two processes
# share what each finds, as libFuzzer's own -jobs workers do. Its executions count
# towards the target's total: one line in fuzz/runs.tsv, status `ok (helper)`.
#
#   MAX_SECONDS=3600 fuzz/helper.sh docx
#
# It must end before deep.sh's own run does: deep.sh then minimises the corpus and
# replaces the folder, which a process still writing into it would race. So give it a
# MAX_SECONDS that ends at least a few minutes before deep.sh's. Nothing is built here.
set -euo pipefail

cd "$(dirname "$0")/.."
target=${1:?usage: MAX_SECONDS=N fuzz/helper.sh TARGET}
RUNS=${RUNS:-10000000}
MAX_SECONDS=${MAX_SECONDS:?set MAX_SECONDS so the helper ends before deep.sh does}
TARGET_DIR=${FUZZ_TARGET_DIR:-$HOME/.cache/citeproof-fuzz/target}
BIN=$TARGET_DIR/x86_64-unknown-linux-gnu/release
LOGS=fuzz/logs
corpus=fuzz/corpus/$target
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 2; }
mkdir -p "$LOGS"

case "$target" in
pdf | docx | archive) max_len=16384 ;;
*) max_len=8192 ;;
esac

log=$LOGS/$target.helper.log
start=$(date +%s)
# The same limits as deep.sh: a hang over 10 s or 2 GiB of memory is a finding.
"$BIN/$target" "$corpus" -artifact_prefix="$LOGS/$target-helper-" \
    -runs="$RUNS" -max_total_time="$MAX_SECONDS" -max_len="$max_len" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    >"$log" 2>&1 && status="ok (helper)" || status="failed ($?, helper)"
seconds=$(($(date +%s) - start))
executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
last=$(grep -E '^#[0-9]+' "$log" | tail -1)
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
files=$(find "$corpus" -type f | wc -l)
bytes=$(find "$corpus" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "${executions:-?}" \
    "$seconds" "${cov:-?}" "${ft:-?}" "$files" "$bytes" "$status" | tee -a fuzz/runs.tsv
