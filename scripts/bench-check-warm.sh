#!/usr/bin/env bash
# Times `citeproof check --format sarif` end to end on a synthetic 600-reference
# manuscript with a warm cache: every cited work is first resolved through the mock
# scholarly world (examples/mockworld.rs), then the check is timed with the mock still
# up, so that any request a warm run made would show in the mock's request count.
#
#   scripts/bench-check-warm.sh [N_REFS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-600}"
runs="${2:-30}"
work="$(mktemp -d)"
trap 'kill "${mock_pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT

cargo build --release -q --bin citeproof --example gen_manuscript --example mockworld
target/release/examples/gen_manuscript "$work/doc" "$n" >/dev/null
target/release/examples/mockworld --world "$work/doc/works.jsonl" >"$work/env" &
mock_pid=$!
deadline=$((SECONDS + 30))
until grep -q MOCKWORLD_ORIGIN "$work/env" 2>/dev/null; do
  ((SECONDS < deadline)) || { echo "mock world did not start" >&2; exit 2; }
  sleep 0.1
done
set -a; . "$work/env"; set +a
export CITEPROOF_CACHE_DIR="$work/cache" CITEPROOF_MAILTO=bench@example.org
origin="$MOCKWORLD_ORIGIN"

check() { target/release/citeproof check --format sarif --exit-zero "$work/doc/paper.md" >"$work/out.sarif" 2>/dev/null; }
start=$(date +%s%N); check; cold=$(( ($(date +%s%N) - start) / 1000000 ))
cold_requests=$(curl -s "$origin/_mock/requests" | head -c 300)
curl -s -X POST "$origin/_mock/reset" >/dev/null
times=()
for _ in $(seq "$runs"); do
  start=$(date +%s%N); check; times+=("$(( ($(date +%s%N) - start) / 1000 ))")
done
warm_requests=$(curl -s "$origin/_mock/requests" | head -c 300)
results=$(grep -o '"ruleId"' "$work/out.sarif" | wc -l)
printf '%s\n' "${times[@]}" | sort -n | awk -v n="$n" -v runs="$runs" -v cold="$cold" -v r="$results" '
  { t[NR] = $1 } END {
    printf "check --format sarif, %d references, %d SARIF results\n", n, r
    printf "cold (resolving through the mock): %.2f s\n", cold / 1000
    printf "warm, %d runs: median %.1f ms, min %.1f ms, max %.1f ms\n", runs, t[int((NR + 1) / 2)] / 1000, t[1] / 1000, t[NR] / 1000
  }'
echo "mock requests, cold run: $cold_requests"
echo "mock requests, warm runs: $warm_requests"
