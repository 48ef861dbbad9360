#!/bin/sh
# Packages the extension for one VS Code platform with the citeproof server inside:
#   sh scripts/package-target.sh VSCE_TARGET BINARY [OUT.vsix]
# VSCE_TARGET is one of vsce's targets (linux-x64, linux-arm64, alpine-x64,
# alpine-arm64, darwin-x64, darwin-arm64, win32-x64); BINARY is the citeproof built for
# it. The binary lands in server/ (server/citeproof.exe on Windows), where the extension
# looks before PATH (src/settings.ts, bundledServerPath). Run from editors/vscode after
# `npm ci`; the release workflow runs it once per platform.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 VSCE_TARGET BINARY [OUT.vsix]" >&2; exit 2; }
target="$1" binary="$2"
out="${3:-citeproof-$target.vsix}"
here="$(cd "$(dirname "$0")/.." && pwd)"
[ -f "$binary" ] || { echo "package-target: no binary at $binary" >&2; exit 2; }
case "$target" in
  win32-*) name=citeproof.exe ;;
  *) name=citeproof ;;
esac
cd "$here"
rm -rf server
mkdir server
cp "$binary" "server/$name"
chmod 755 "server/$name"
# citeproof's licences and the third-party notices travel with the binary.
cp ../../LICENSE-MIT ../../LICENSE-APACHE ../../THIRD-PARTY-NOTICES.md server/
npx vsce package --target "$target" --skip-license --out "$out"
rm -rf server
