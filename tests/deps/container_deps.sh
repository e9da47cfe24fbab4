#!/bin/bash
# Would deploy/Containerfile's image start? No container engine runs here, so the image is checked the way
# scripts/check-runtime-deps.sh checks a fresh machine: every library the program links (ldd -> dpkg -S) must come
# from the dependency closure of the packages the Containerfile's `apt-get install` names (debian:12-slim adds
# only its essential set, which that closure covers for what we link).
# Usage: container_deps.sh CHECK_RUNTIME_DEPS CONTAINERFILE PROGRAM...   (exit 1 naming a missing package)
set -uo pipefail
check=${1:?usage: container_deps.sh check-runtime-deps.sh Containerfile PROGRAM...}
containerfile=${2:?}
shift 2
(($#)) || { echo "container_deps: no program to check" >&2; exit 2; }
list=$(mktemp)
trap 'rm -f "$list"' EXIT
# The words after `apt-get install` up to the next && (continuation lines joined), options dropped.
sed ':a; /\\$/ { N; s/\\\n/ /; ba }' "$containerfile" |
    grep -o 'apt-get install[^&]*' | sed 's/apt-get install//' | tr ' ' '\n' | grep -v '^-' | sed '/^$/d' > "$list"
[ -s "$list" ] || { echo "container_deps: no apt-get install in $containerfile" >&2; exit 2; }
echo "container_deps: $containerfile installs: $(tr '\n' ' ' < "$list")"
bash "$check" --list "$list" "$@" || exit $?
# And nothing the programs do not link (ca-certificates aside: TLS reads it, no linker sees it): a package left
# over from an old link line only makes the image bigger (libqt6core6 brought ICU for a Qt-free service).
owners=$(for p in "$@"; do ldd "$p"; done | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
         while read -r lib; do real=$(readlink -f "$lib"); printf '%s\n' "$lib" "$real" "${real#/usr}"; done |
         xargs -r dpkg-query -S 2>/dev/null | cut -d: -f1 | sort -u)
extra=0
while read -r pkg; do
    [ "$pkg" = ca-certificates ] && continue
    grep -qx "$pkg" <<<"$owners" || { echo "container_deps: $pkg is installed but no library of the program comes from it"; extra=1; }
done < "$list"
exit "$extra"
