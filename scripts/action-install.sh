#!/usr/bin/env bash
# The GitHub Action's install step (action.yml): puts the citeproof of the action's own
# version on the job's PATH, trying in turn
#   1. the prebuilt binary of that version from the release (scripts/install.sh: this
#      platform's archive, its SHA-256 checksum verified),
#   2. `pip install citeproof==VERSION` (the PyPI wheel carries the same binary),
#   3. only with build-from-source: "true", `cargo install` from the action's checkout.
# Environment, as GitHub sets it: GITHUB_ACTION_PATH (the action's checkout),
# RUNNER_TEMP, GITHUB_PATH; inputs INPUT_RELEASE_URL and INPUT_BUILD_FROM_SOURCE.
set -euo pipefail

action_dir="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}"
root="${RUNNER_TEMP:?RUNNER_TEMP is not set}/citeproof"
bin_dir="$root/bin"
# The version this action is: the one in its own Cargo.toml ([package] comes first).
version="$(sed -n 's/^version = "\([^"]*\)".*/\1/p' "$action_dir/Cargo.toml" | head -n 1)"
if [ -z "$version" ]; then
  echo "::error title=citeproof::no version in $action_dir/Cargo.toml"
  exit 1
fi
mkdir -p "$bin_dir"
exe=
case "$(uname -s)" in MINGW* | MSYS* | CYGWIN*) exe=.exe ;; esac

install_binary() {
  sh "$action_dir/scripts/install.sh" --version "$version" --to "$bin_dir" \
    --base-url "${INPUT_RELEASE_URL:-https://github.com/citeproof/citeproof/releases}"
}

# The wheel's `citeproof` is the native binary itself (a script of the wheel's data),
# so it is copied out: the job's PATH gets citeproof, not the virtual environment's python.
install_wheel() {
  local python venv scripts
  python="$(command -v python3 || command -v python)" || return 1
  venv="$root/venv"
  "$python" -m venv "$venv" || return 1
  scripts="$venv/bin"
  [ -d "$scripts" ] || scripts="$venv/Scripts"
  "$scripts/python" -m pip install --quiet --disable-pip-version-check "citeproof==$version" || return 1
  cp "$scripts/citeproof$exe" "$bin_dir/citeproof$exe"
}

install_from_source() {
  command -v cargo >/dev/null 2>&1 || { echo "cargo is not installed (add a Rust toolchain step)"; return 1; }
  cargo install --locked --quiet --path "$action_dir" --root "$root"
}

if install_binary; then
  how="the prebuilt binary"
else
  echo "::warning title=citeproof::no prebuilt citeproof $version for this runner; trying pip install citeproof==$version"
  if install_wheel; then
    how="the PyPI wheel"
  elif [ "${INPUT_BUILD_FROM_SOURCE:-false}" = true ]; then
    echo "::warning title=citeproof::no citeproof $version wheel either; building it from source"
    install_from_source || { echo "::error title=citeproof::citeproof $version could not be built from source"; exit 1; }
    how="a build from source"
  else
    echo "::error title=citeproof::citeproof $version could be installed neither from the release nor from PyPI (set build-from-source: \"true\" to build it with cargo)"
    exit 1
  fi
fi
"$bin_dir/citeproof$exe" --version
echo "citeproof $version installed from $how into $bin_dir"
echo "$bin_dir" >>"${GITHUB_PATH:?GITHUB_PATH is not set}"
