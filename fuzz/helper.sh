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
# shellcheck source=SCRIPTDIR/common.sh
source fuzz/common.sh
corpus=fuzz/corpus/$target
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 2; }
mkdir -p "$LOGS"

log=$LOGS/$target.helper.log
start=$(date +%s)
# The kept corpus alone: its new inputs go there, where deep.sh's process finds them.
fuzz_run "$target" "$log" "$LOGS/$target-helper-" "$corpus" &&
    status="ok (helper)" || status="failed ($?, helper)"
record_run "$target" "$log" "$(($(date +%s) - start))" "$status"
