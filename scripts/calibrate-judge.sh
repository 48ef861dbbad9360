#!/usr/bin/env bash
# The judge's one calibration procedure (docs/judge.md, "Calibration"), on development
# data only (../shared/data: Citation-Integrity and Check-COVID train, the world's
# development half). Each step rewrites compiled-in tables; the next step's build
# picks them up.
#
#   scripts/calibrate-judge.sh [MODEL_DIR]
#
# MODEL_DIR: all-MiniLM-L6-v2 (fits the `hybrid` and `embeddings` backends as well as
# `lexical`). Review the diff of src/verify/calibration.rs and src/verify/judge/fitted.rs, and
# set RIVAL_MARGIN in src/verify/judge/mod.rs to the margin step 3 prints, before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
model="${1:-}"
with_model=()
if [ -n "$model" ]; then
    with_model=(--embedding-model "$model")
fi
run() { cargo run --locked --release --example "$@"; }

echo "== 1. the scorer's calibration: one claim and its work (verify_tables)"
run verify_tables -- "${with_model[@]}"

echo "== 2. the decision model over rivals, per backend (clean_bench --calibrate)"
run clean_bench -- --calibrate --write-fitted
if [ -n "$model" ]; then
    run clean_bench -- --calibrate --write-fitted "${with_model[@]}"
    run clean_bench -- --calibrate --write-fitted "${with_model[@]}" --scoring embeddings
fi

echo "== 3. the rival margin of a document's cited works (verify_eval --split train)"
run verify_eval -- --split train --documents-only "${with_model[@]}" | sed -n '/swap test in documents/,/^$/p'
