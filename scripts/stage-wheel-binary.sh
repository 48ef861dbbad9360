#!/usr/bin/env bash
# Stages a built `citeproof` binary for the Python wheel: maturin ships everything in
# bindings/python/wheel-data/scripts/ as the wheel's scripts, which pip installs into
# the environment's bin/ (Scripts\ on Windows), and wheel-data/data/ into its prefix.
# So `pip install citeproof` gives both `import citeproof` and the `citeproof` command,
# from one abi3 wheel per platform.
#
#   scripts/stage-wheel-binary.sh BINARY      (then: maturin build in bindings/python)
#   scripts/stage-wheel-binary.sh --clear
# Used by .github/workflows/release.yml and scripts/test-python-bindings.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
data="$root/bindings/python/wheel-data"
scripts="$data/scripts"
doc="$data/data/share/doc/citeproof"  # its README.md is committed: maturin needs the folder
[ $# -eq 1 ] || { echo "usage: $0 BINARY | --clear" >&2; exit 2; }
rm -rf "$scripts"
rm -f "$doc/LICENSE-MIT" "$doc/LICENSE-APACHE" "$doc/THIRD-PARTY-NOTICES.md"
[ "$1" = --clear ] && exit 0
[ -f "$1" ] || { echo "stage-wheel-binary: no binary at $1" >&2; exit 2; }
mkdir -p "$scripts"
case "$1" in
  *.exe) name=citeproof.exe ;;
  *) name=citeproof ;;
esac
cp "$1" "$scripts/$name"
chmod 755 "$scripts/$name"
# The licences and third-party notices go with the binary, into PREFIX/share/doc/citeproof.
cp "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$root/THIRD-PARTY-NOTICES.md" "$doc/"
echo "$scripts/$name"
