# shellcheck shell=bash
# What fuzz/deep.sh and fuzz/helper.sh share (sourced, from the crate root): where the
# instrumented targets are, the limits of every run, how a corpus is measured, and the
# line each run appends to fuzz/runs.tsv. Both read RUNS and MAX_SECONDS.
TARGET_DIR=${FUZZ_TARGET_DIR:-$HOME/.cache/citeproof-fuzz/target}
BIN=$TARGET_DIR/x86_64-unknown-linux-gnu/release
# shellcheck disable=SC2034 # used by the scripts that source this file
LOGS=fuzz/logs

# Binary inputs are larger than text; a larger input only slows each execution.
max_len() {
    case "$1" in
    pdf | docx | archive) echo 16384 ;;
    *) echo 8192 ;;
    esac
}

# fuzz_run TARGET LOG ARTIFACT_PREFIX CORPUS_DIR...: one libFuzzer run, its output in LOG;
# returns libFuzzer's exit status (non-zero on a finding).
fuzz_run() {
    local target=$1 log=$2 prefix=$3
    shift 3
    # -timeout: one input over 10 s is a hang and a finding, as is 2 GiB of memory.
    "$BIN/$target" "$@" -artifact_prefix="$prefix" \
        -runs="$RUNS" -max_total_time="$MAX_SECONDS" -max_len="$(max_len "$target")" \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1
}

# The inputs' own bytes, not `du`: a folder's entry size depends on the file system
# and its history, and would make the figure differ between checkouts.
corpus_bytes() {
    find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'
}

# record_run TARGET LOG SECONDS STATUS: append the run's figures (from libFuzzer's log,
# and the corpus as it is now) to fuzz/runs.tsv, and print them.
record_run() {
    local target=$1 log=$2 seconds=$3 status=$4 corpus=fuzz/corpus/$1
    local executions last cov ft
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    # No `#N` line when libFuzzer stopped before its first status (a crash on a seed, a
    # missing binary): the run is still recorded, with `?` for what it did not print.
    last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    [ -f fuzz/runs.tsv ] ||
        printf 'finished\ttarget\texecutions\tseconds\tcov\tft\tcorpus_files\tcorpus_bytes\tstatus\n' >fuzz/runs.tsv
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "${executions:-?}" \
        "$seconds" "${cov:-?}" "${ft:-?}" "$(find "$corpus" -type f | wc -l)" \
        "$(corpus_bytes "$corpus")" "$status" | tee -a fuzz/runs.tsv
}
