#!/usr/bin/env bash
# Configures and builds with the given CMake preset (default: dev).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
preset="${1:-dev}"
bash "$root/scripts/setup-deps.sh"
cmake --preset "$preset" -S "$root" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
