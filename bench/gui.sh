#!/usr/bin/env bash
# Workbench benchmark: builds gui_bench in its own build dir and runs it
# offscreen. Figures go to stdout; docs/performance.md ("Workbench") records them.
#   bash bench/gui.sh [gui_bench options: --nodes N --lanes N --frames N --log-mb N]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FAULTLINE_GUI_BENCH_BUILD:-$root/build/gui-bench}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$build" gui_bench
echo "machine: $(nproc) cores, $(uname -sr)"
QT_QPA_PLATFORM=offscreen "$build/bench/gui_bench" "$@"
