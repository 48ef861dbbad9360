#!/usr/bin/env bash
# Packs one built citeproof binary as a release asset, the way scripts/install.sh,
# the GitHub Action and cargo-binstall expect it:
#   OUT/citeproof-TARGET.tar.gz (.zip for Windows) holding citeproof-TARGET/{citeproof,
#   LICENSE-MIT, LICENSE-APACHE, README.md, THIRD-PARTY-NOTICES.md}
#   OUT/citeproof-TARGET.tar.gz.sha256 ("HASH  NAME", as sha256sum writes it)
#
#   scripts/package-release.sh BINARY TARGET OUT
# Used by .github/workflows/release.yml and by tests/install_release.rs.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 BINARY TARGET OUT" >&2; exit 2; }
binary="$1" target="$2" out="$3"
root="$(cd "$(dirname "$0")/.." && pwd)"
[ -f "$binary" ] || { echo "package-release: no binary at $binary" >&2; exit 2; }

case "$target" in
  *windows*) ext=zip exe=.exe ;;
  *) ext=tar.gz exe= ;;
esac
name="citeproof-$target"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/$name"
cp "$binary" "$stage/$name/citeproof$exe"
chmod 755 "$stage/$name/citeproof$exe"
cp "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$root/README.md" "$root/THIRD-PARTY-NOTICES.md" "$stage/$name/"

archive="$name.$ext"
rm -f "$out/$archive"
if [ "$ext" = zip ]; then
  # Python's zipfile: on every runner (Windows has no zip command), and it keeps the layout.
  (cd "$stage" && "$(command -v python3 || command -v python)" -m zipfile -c "$out/$archive" "$name/")
else
  # Owner and group of the files as 0: the archive does not carry the build machine's
  # users (GNU tar; macOS's bsdtar takes the fallback). COPYFILE_DISABLE: no ._ files.
  export COPYFILE_DISABLE=1
  tar -C "$stage" --owner=0 --group=0 -czf "$out/$archive" "$name" 2>/dev/null \
    || tar -C "$stage" -czf "$out/$archive" "$name"
fi

if command -v sha256sum >/dev/null 2>&1; then
  hash="$(sha256sum "$out/$archive" | cut -d ' ' -f 1)"
else
  hash="$(shasum -a 256 "$out/$archive" | cut -d ' ' -f 1)"
fi
printf '%s  %s\n' "$hash" "$archive" >"$out/$archive.sha256"
echo "$out/$archive"
