#!/usr/bin/env bash
# The literal pre-filter alone: the RE2 alternation the engine used before
# against Hyperscan's multi-literal matcher, same literals, same files, one
# thread, pages faulted in first. Prints both times and the candidate lines
# each found (they must be equal).
#
#   bash bench/prefilter.sh [BUNDLE_DIR] [RUNS]     (default: the --deep bundle of bench/run.sh)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bundle="${1:-$root/bench/out/bundle-64n-1700i}"
runs="${2:-3}"
[ -d "$bundle" ] || { echo "bench/prefilter.sh: no bundle at $bundle (bash bench/run.sh --deep makes it)" >&2; exit 2; }
cmake --preset release -S "$root" -DFAULTLINE_BUILD_GUI=OFF >/dev/null
nice -n 10 cmake --build --preset release --target prefilter_bench | grep -v "^\[" || true
exe="$root/build/release/bench/prefilter_bench"
[ -x "$exe" ] || { echo "bench/prefilter.sh: prefilter_bench was not built (needs libhs: libvectorscan-dev)" >&2; exit 1; }
printf 'load %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
nice -n 10 "$exe" "$root/rules" "$bundle" "$runs"
