#!/usr/bin/env bash
# Builds Faultline and runs the whole test suite (CTest, Qt offscreen).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/build.sh" dev
cd "$root"
# Several tests write temporary files and start servers that preallocate: a full disk fails them far from
# the cause, so the free space is printed where a failed run's log shows it.
df -Ph "$root" /tmp | sed 's/^/disk: /'
QT_QPA_PLATFORM=offscreen ctest --preset dev -j "$(nproc)"
