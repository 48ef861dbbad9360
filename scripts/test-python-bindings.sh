#!/usr/bin/env bash
# Build the Python bindings' wheel with maturin, install it into a FRESH virtual
# environment and run their pytest suite there (bindings/python/tests). Tools and
# builds are cached in DIR (default: ~/.cache/citeproof-ci/python), outside the repo:
#   DIR/tools/        a virtual environment with maturin (from PyPI)
#   DIR/wheelhouse/   pytest, dask and distributed with their dependencies, so the fresh
#                     environment installs offline
#   DIR/target/       cargo's build folder for the extension module, reused on reruns
#                     (CARGO_TARGET_DIR, when set, is used instead)
# Environment: CITEPROOF_BIN, when set, is the citeproof binary the suite compares the
# bindings' JSON with, and the wheel carries it as its `citeproof` command (as the
# release wheels do, scripts/stage-wheel-binary.sh): the fresh environment must then
# run it from its bin/, and on Linux `auditwheel show` must find the wheel manylinux;
# PYTHON (default python3) makes the environments.
# Each step's time goes to stderr.
set -euo pipefail
MATURIN_VERSION=1.16.0
AUDITWHEEL_VERSION=6.8.2
PYTEST_VERSION=9.2.0
# The distributed recipe's test runs on a local multi-process Dask cluster.
DASK_VERSION=2026.8.0

root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/citeproof-ci/python}"
python="${PYTHON:-python3}"
pip_quiet=(--quiet --disable-pip-version-check)
step_start=$SECONDS
step() { echo "test-python-bindings: $1 in $((SECONDS - step_start)) s" >&2; step_start=$SECONDS; }
mkdir -p "$dir/wheelhouse"

if ! "$dir/tools/bin/maturin" --version 2>/dev/null | grep -q " $MATURIN_VERSION\$"; then
  rm -rf "$dir/tools"
  "$python" -m venv "$dir/tools"
  "$dir/tools/bin/python" -m pip install "${pip_quiet[@]}" "maturin==$MATURIN_VERSION"
  step "maturin $MATURIN_VERSION installed"
fi
if ! "$dir/tools/bin/auditwheel" --version 2>/dev/null | grep -q "auditwheel $AUDITWHEEL_VERSION "; then
  "$dir/tools/bin/python" -m pip install "${pip_quiet[@]}" "auditwheel==$AUDITWHEEL_VERSION"
  step "auditwheel $AUDITWHEEL_VERSION installed"
fi
if ! ls "$dir/wheelhouse/pytest-$PYTEST_VERSION"-*.whl >/dev/null 2>&1; then
  "$dir/tools/bin/python" -m pip download "${pip_quiet[@]}" --dest "$dir/wheelhouse" \
    "pytest==$PYTEST_VERSION"
  step "pytest $PYTEST_VERSION downloaded"
fi
if ! ls "$dir/wheelhouse/distributed-$DASK_VERSION"-*.whl >/dev/null 2>&1; then
  "$dir/tools/bin/python" -m pip download "${pip_quiet[@]}" --dest "$dir/wheelhouse" \
    "dask==$DASK_VERSION" "distributed==$DASK_VERSION"
  step "dask $DASK_VERSION downloaded"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"; bash "$root/scripts/stage-wheel-binary.sh" --clear' EXIT
if [ -n "${CITEPROOF_BIN:-}" ]; then
  bash "$root/scripts/stage-wheel-binary.sh" "$CITEPROOF_BIN" >/dev/null
fi
# The dev profile: the test suite needs no optimised build, and it compiles in half the
# time (the numeric crates are optimised in it anyway, see Cargo.toml).
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$dir/target}" "$dir/tools/bin/maturin" build --locked --profile dev \
  --manifest-path "$root/bindings/python/Cargo.toml" --interpreter "$python" \
  --out "$work/dist" >&2
step "wheel built"

"$python" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install "${pip_quiet[@]}" --no-index \
  --find-links "$dir/wheelhouse" "pytest==$PYTEST_VERSION" \
  "dask==$DASK_VERSION" "distributed==$DASK_VERSION"
"$work/venv/bin/python" -m pip install "${pip_quiet[@]}" --no-index "$work/dist"/citeproof-*.whl
# The suite must test the installed wheel, not the source folder.
installed="$("$work/venv/bin/python" -c 'import citeproof; print(citeproof.__file__)')"
case "$installed" in
  "$work/venv/"*) ;;
  *) echo "test-python-bindings: citeproof was imported from $installed, not the wheel" >&2; exit 1 ;;
esac
step "wheel installed into a fresh virtual environment"

if [ -n "${CITEPROOF_BIN:-}" ]; then
  # The command on the environment's PATH is the wheel's, and it is the binary given.
  found="$(PATH="$work/venv/bin:$PATH" command -v citeproof)"
  [ "$found" = "$work/venv/bin/citeproof" ] || { echo "test-python-bindings: citeproof on PATH is $found" >&2; exit 1; }
  [ "$("$found" --version)" = "$("$CITEPROOF_BIN" --version)" ] \
    || { echo "test-python-bindings: $found --version differs from $CITEPROOF_BIN" >&2; exit 1; }
  echo "test-python-bindings: the wheel's command: $("$found" --version)" >&2
fi
if [ "$(uname -s)" = Linux ]; then
  "$dir/tools/bin/auditwheel" show "$work/dist"/citeproof-*.whl | tee "$work/auditwheel.txt" >&2
  grep -q 'manylinux_' "$work/auditwheel.txt" \
    || { echo "test-python-bindings: auditwheel found no manylinux tag for the wheel" >&2; exit 1; }
  step "auditwheel show"
fi

cd "$root/bindings/python/tests"
"$work/venv/bin/python" -m pytest -p no:cacheprovider -q -rs
step "pytest passed"
