#!/usr/bin/env bash
# Times what a warm GitHub Action run costs, as far as it can be measured off GitHub:
# the action's install step (scripts/action-install.sh) from a local directory laid out
# as a GitHub release, then the action's check (`citeproof check --format github`) on a
# synthetic N-reference manuscript whose works are already in the resolution cache (as
# actions/cache restores it). The cache is filled by one cold run against the mock
# scholarly world (examples/mockworld.rs), which stays up so that any request of the
# warm run would show in its request count. Not measured: the runner's start, the
# checkout, actions/cache's download, and a real release download (one ~10-20 MB file).
#
#   scripts/bench-action-warm.sh BINARY [N_REFS]      (default 50 references)
# BINARY: the citeproof to pack as the release (e.g. target/dist/citeproof).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: $0 BINARY [N_REFS]" >&2; exit 2; }
binary="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
n="${2:-50}"
target_dir="${CARGO_TARGET_DIR:-target}"
work="$(mktemp -d)"
trap 'kill "${mock_pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

cargo build --locked -q --example gen_manuscript --example mockworld
"$target_dir/debug/examples/gen_manuscript" "$work/doc" "$n" >/dev/null
"$target_dir/debug/examples/mockworld" --world "$work/doc/works.jsonl" >"$work/env" &
mock_pid=$!
deadline=$((SECONDS + 30))
until grep -q MOCKWORLD_ORIGIN "$work/env" 2>/dev/null; do
  ((SECONDS < deadline)) || { echo "mock world did not start" >&2; exit 2; }
  sleep 0.1
done

version="$(sed -n 's/^version = "\([^"]*\)".*/\1/p' Cargo.toml | head -n 1)"
target="$(sh scripts/install.sh --print-target)"
bash scripts/package-release.sh "$binary" "$target" "$work/releases/download/v$version" >/dev/null
archive_mb=$(( $(wc -c <"$work/releases/download/v$version/citeproof-$target.tar.gz") / 1048576 ))

mkdir -p "$work/runner"
start=$(now_ms)
GITHUB_ACTION_PATH="$PWD" RUNNER_TEMP="$work/runner" GITHUB_PATH="$work/github-path" \
  INPUT_RELEASE_URL="file://$work/releases" INPUT_BUILD_FROM_SOURCE=false \
  bash scripts/action-install.sh >/dev/null
install_ms=$(( $(now_ms) - start ))
installed="$(cat "$work/github-path")/citeproof"

# shellcheck source=/dev/null
set -a; . "$work/env"; set +a
export CITEPROOF_CACHE_DIR="$work/cache" CITEPROOF_MAILTO=bench@example.org
origin="$MOCKWORLD_ORIGIN"
check() { (cd "$work/doc" && "$installed" check --format github --exit-zero paper.md >"$work/out.txt" 2>&1); }
start=$(now_ms); check; cold_ms=$(( $(now_ms) - start ))
curl -s -X POST "$origin/_mock/reset" >/dev/null
start=$(now_ms); check; warm_ms=$(( $(now_ms) - start ))
warm_requests=$(curl -s "$origin/_mock/requests" | head -c 300)
annotations=$(grep -c '^::' "$work/out.txt" || true)

echo "release archive: citeproof-$target.tar.gz, $archive_mb MiB"
echo "action install step (local release, checksum verified): $install_ms ms"
echo "check --format github, $n references, cold through the mock world: $cold_ms ms"
echo "check --format github, $n references, warm cache: $warm_ms ms ($annotations annotations)"
echo "install + warm check: $(( install_ms + warm_ms )) ms"
echo "mock requests during the warm run: $warm_requests"
