#!/usr/bin/env bash
# Configures and builds with the given CMake preset (default: dev): every target, or only the TARGETs named.
# usage: build.sh [PRESET [TARGET...]]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
preset="${1:-dev}"
shift $(($# > 0 ? 1 : 0))
targets=()
(($# == 0)) || targets=(--target "$@")
bash "$root/scripts/setup-deps.sh"
cmake --preset "$preset" -S "$root" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)" ${targets[@]+"${targets[@]}"}
