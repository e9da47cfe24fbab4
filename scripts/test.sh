#!/usr/bin/env bash
# Builds Faultline and runs the whole test suite (CTest, Qt offscreen).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/build.sh" dev
cd "$root"
QT_QPA_PLATFORM=offscreen ctest --preset dev -j "$(nproc)"
