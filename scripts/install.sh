#!/bin/sh
# Installs a prebuilt citeproof from a release: picks this platform's archive,
# verifies its SHA-256 checksum, and puts the `citeproof` binary into a directory.
#
#   curl -fsSL https://github.com/citeproof/citeproof/releases/latest/download/install.sh | sh
#   sh install.sh [--version X.Y.Z|latest] [--to DIR] [--base-url URL] [--target TRIPLE]
#   sh install.sh --print-target      (the release target this machine takes)
#
# Environment (flags win): CITEPROOF_VERSION (default latest), CITEPROOF_INSTALL_DIR
# (default ~/.local/bin), CITEPROOF_BASE_URL (default the GitHub releases of
# citeproof; a mirror, a file:// URL or a local directory laid out the same way:
# BASE/download/vX.Y.Z/ASSET and BASE/latest/download/ASSET).
# Exit status: 0 installed, 1 download or checksum failure, 2 usage or unsupported
# platform. POSIX sh: runs under dash, busybox ash, bash and macOS's sh.
set -eu

default_base_url="https://github.com/citeproof/citeproof/releases"
version="${CITEPROOF_VERSION:-latest}"
install_dir="${CITEPROOF_INSTALL_DIR:-${HOME:-}/.local/bin}"
base_url="${CITEPROOF_BASE_URL:-$default_base_url}"
target=""
print_target=false

say() { printf 'citeproof install: %s\n' "$*" >&2; }
fail() { say "error: $2"; exit "$1"; }

usage() {
  sed -n '2,14p' "$0" 2>/dev/null | sed 's/^# \{0,1\}//' >&2 || true
  exit 2
}

while [ $# -gt 0 ]; do
  case "$1" in
    --version) [ $# -ge 2 ] || usage; version="$2"; shift 2 ;;
    --to) [ $# -ge 2 ] || usage; install_dir="$2"; shift 2 ;;
    --base-url) [ $# -ge 2 ] || usage; base_url="$2"; shift 2 ;;
    --target) [ $# -ge 2 ] || usage; target="$2"; shift 2 ;;
    --print-target) print_target=true; shift ;;
    -h | --help) usage ;;
    *) say "unknown argument: $1"; usage ;;
  esac
done
version="${version#v}"
[ -n "$install_dir" ] || fail 2 "no install directory: give --to DIR or set HOME"

# The release's target triple for this machine.
detect_target() {
  os="$(uname -s)"
  arch="$(uname -m)"
  case "$arch" in
    x86_64 | amd64) arch=x86_64 ;;
    aarch64 | arm64) arch=aarch64 ;;
    *) fail 2 "no prebuilt citeproof for the processor '$arch' (build it: cargo install --locked citeproof)" ;;
  esac
  case "$os" in
    Linux) echo "$arch-unknown-linux-musl" ;;
    Darwin)
      # A shell translated by Rosetta reports x86_64 on Apple silicon: take the native build.
      if [ "$arch" = x86_64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
        arch=aarch64
      fi
      echo "$arch-apple-darwin" ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT)
      [ "$arch" = x86_64 ] || fail 2 "no prebuilt citeproof for Windows on '$arch'"
      echo "x86_64-pc-windows-msvc" ;;
    *) fail 2 "no prebuilt citeproof for the system '$os' (build it: cargo install --locked citeproof)" ;;
  esac
}

# fetch URL FILE: a local path or file:// URL is copied; anything else downloaded.
fetch() {
  case "$1" in
    file://*) cp "${1#file://}" "$2" ;;
    /* | ./* | ../*) cp "$1" "$2" ;;
    *)
      if command -v curl >/dev/null 2>&1; then
        curl --proto '=https,http' -fsSL --retry 3 -o "$2" "$1"
      elif command -v wget >/dev/null 2>&1; then
        wget -q -O "$2" "$1"
      else
        fail 1 "neither curl nor wget is installed"
      fi ;;
  esac
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  elif command -v openssl >/dev/null 2>&1; then
    openssl dgst -sha256 -r "$1" | cut -d ' ' -f 1
  else
    fail 1 "no SHA-256 tool (sha256sum, shasum or openssl) to verify the download"
  fi
}

[ -n "$target" ] || target="$(detect_target)"
if [ "$print_target" = true ]; then
  echo "$target"
  exit 0
fi
case "$target" in
  *windows*) ext=zip; exe=.exe ;;
  *) ext=tar.gz; exe= ;;
esac
archive="citeproof-$target.$ext"
base_url="${base_url%/}"
if [ "$version" = latest ]; then
  release_url="$base_url/latest/download"
else
  release_url="$base_url/download/v$version"
fi

work="$(mktemp -d 2>/dev/null || mktemp -d -t citeproof)"
trap 'rm -rf "$work"' EXIT INT TERM

say "downloading $release_url/$archive"
fetch "$release_url/$archive" "$work/$archive" || fail 1 "could not download $release_url/$archive"
fetch "$release_url/$archive.sha256" "$work/$archive.sha256" \
  || fail 1 "could not download the checksum $release_url/$archive.sha256"

expected="$(cut -d ' ' -f 1 <"$work/$archive.sha256" | tr -d '\r\n' | tr 'A-F' 'a-f')"
actual="$(sha256_of "$work/$archive")"
case "$expected" in
  *[!0-9a-f]* | "") fail 1 "$archive.sha256 holds no SHA-256 checksum" ;;
esac
[ ${#expected} -eq 64 ] || fail 1 "$archive.sha256 holds no SHA-256 checksum"
if [ "$expected" != "$actual" ]; then
  fail 1 "checksum mismatch for $archive: expected $expected, got $actual; nothing was installed"
fi

mkdir "$work/unpacked"
case "$ext" in
  zip)
    if command -v unzip >/dev/null 2>&1; then
      unzip -q "$work/$archive" -d "$work/unpacked"
    else
      tar -xf "$work/$archive" -C "$work/unpacked"
    fi ;;
  *) tar -xzf "$work/$archive" -C "$work/unpacked" ;;
esac
binary="$work/unpacked/citeproof-$target/citeproof$exe"
[ -f "$binary" ] || fail 1 "$archive has no citeproof-$target/citeproof$exe"

mkdir -p "$install_dir"
# Copy next to the destination, then rename: a running citeproof is never half-overwritten.
cp "$binary" "$install_dir/.citeproof$exe.new"
chmod 755 "$install_dir/.citeproof$exe.new"
mv -f "$install_dir/.citeproof$exe.new" "$install_dir/citeproof$exe"
installed="$("$install_dir/citeproof$exe" --version)" \
  || fail 1 "$install_dir/citeproof$exe was installed but does not run on this machine"
say "installed $installed into $install_dir"
case ":${PATH:-}:" in
  *":$install_dir:"*) ;;
  *) say "note: $install_dir is not on your PATH" ;;
esac
