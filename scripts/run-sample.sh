#!/usr/bin/env bash
# Builds what it runs and diagnoses a bundled sample (default: samples/xid149-nccl).
# With a display (DISPLAY or WAYLAND_DISPLAY) it builds the workbench and opens it on the sample; otherwise
# (or with FAULTLINE_CLI_ONLY set) it builds only faultline-cli and prints its diagnosis. Tests are not
# built here: scripts/test.sh builds everything.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sample="${1:-$root/samples/xid149-nccl}"
cli="$root/build/dev/app/cli/faultline-cli"
gui="$root/build/dev/app/workbench/faultline"
if { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; } && [ -z "${FAULTLINE_CLI_ONLY:-}" ]; then
  bash "$root/scripts/build.sh" dev faultline
  exec "$gui" "$sample"
fi
bash "$root/scripts/build.sh" dev faultline-cli
exec "$cli" analyze "$sample" --text
