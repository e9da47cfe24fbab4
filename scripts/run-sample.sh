#!/usr/bin/env bash
# Builds Faultline and diagnoses a bundled sample (default: samples/xid149-nccl).
# With a display (or QT_QPA_PLATFORM set) it opens the workbench on the sample
# when the workbench is built; otherwise it prints the CLI diagnosis.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sample="${1:-$root/samples/xid149-nccl}"
bash "$root/scripts/build.sh" dev
cli="$root/build/dev/app/cli/faultline-cli"
gui="$root/build/dev/app/workbench/faultline"
if [ -x "$gui" ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; } && [ -z "${FAULTLINE_CLI_ONLY:-}" ]; then
  exec "$gui" "$sample"
fi
exec "$cli" analyze "$sample" --text
