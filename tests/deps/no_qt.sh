#!/bin/bash
# core/ is Qt-free (issue #10): programs built from core alone must load no Qt library.
# usage: no_qt.sh PROGRAM...
set -u
status=0
for program in "$@"; do
  qt=$(ldd "$program" | grep -o 'libQt[^ ]*' | sort -u)
  if [ -n "$qt" ]; then
    echo "FAIL: $program loads Qt: $qt"
    status=1
  else
    echo "ok: $program loads no Qt"
  fi
done
exit $status
