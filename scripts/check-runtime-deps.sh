#!/usr/bin/env bash
# Would the programs built here run on a fresh Debian 12 machine that installed only scripts/debian-packages.txt?
#
# For each program: the shared libraries it links (ldd -> dpkg -S) and the plugins it loads at run time (Qt's SQL
# driver, platform and image-format plugins; Graphviz's layout plugin), plus the libraries those plugins link,
# must come from packages in the dependency closure of the list (apt-cache depends --recurse, Depends and
# Pre-Depends only: Recommends are not installed by scripts/setup-deps.sh). A library in no package (outside the
# build tree) fails too. Exit 0 when all is covered, 1 naming each package a fresh machine would lack and who
# needs it, 2 for bad usage or when apt knows nothing of the list (run apt-get update).
#
# usage: check-runtime-deps.sh [--list FILE] [--qt-plugins DIR] PROGRAM...
#   PROGRAM  an installed program (faultline, faultline-cli, ...); default: those in build/dev
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
list="$root/scripts/debian-packages.txt"
qtplugins=""
programs=()
while (($#)); do
  case "$1" in
    --list) list="$2"; shift 2 ;;
    --qt-plugins) qtplugins="$2"; shift 2 ;;
    -h|--help) sed -n '2,13s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "check-runtime-deps: unknown option '$1'" >&2; exit 2 ;;
    *) programs+=("$1"); shift ;;
  esac
done
if ((${#programs[@]} == 0)); then
  for p in "$root/build/dev/app/cli/faultline-cli" "$root/build/dev/app/workbench/faultline" \
           "$root/build/dev/app/service/faultline-service"; do
    [ -x "$p" ] && programs+=("$p")
  done
fi
((${#programs[@]})) || { echo "check-runtime-deps: no program to check (build first, or name them)" >&2; exit 2; }
[ -f "$list" ] || { echo "check-runtime-deps: no package list at $list" >&2; exit 2; }
for p in "${programs[@]}"; do
  [ -x "$p" ] || { echo "check-runtime-deps: $p: not an executable" >&2; exit 2; }
done
[ -n "$qtplugins" ] || qtplugins=$(qtpaths6 --query QT_INSTALL_PLUGINS 2>/dev/null) ||
  qtplugins=/usr/lib/x86_64-linux-gnu/qt6/plugins
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)

# Plugins are loaded with dlopen, so ldd never shows them. When a program links TRIGGER it loads PLUGIN; PACKAGE
# is the Debian 12 package that ships PLUGIN, named here because a missing plugin cannot be asked of dpkg -S.
# TRIGGER          PLUGIN (under Qt's plugin folder, or absolute)                  PACKAGE
plugin_table="
libQt6Sql.so     sqldrivers/libqsqlite.so                                        libqt6sql6-sqlite
libQt6Gui.so     platforms/libqxcb.so                                            libqt6gui6
libQt6Gui.so     platforms/libqoffscreen.so                                      libqt6gui6
libQt6Gui.so     xcbglintegrations/libqxcb-glx-integration.so                   libqt6gui6
libQt6Gui.so     imageformats/libqjpeg.so                                        libqt6gui6
libQt6Gui.so     imageformats/libqgif.so                                         libqt6gui6
libQt6Gui.so     imageformats/libqico.so                                         libqt6gui6
libgvc.so        /usr/lib/$multiarch/graphviz/libgvplugin_dot_layout.so.6      libgvc6
libgvc.so        /usr/lib/$multiarch/graphviz/libgvplugin_core.so.6            libgvc6
"

mapfile -t wanted < <(grep -v '^\s*#' "$list" | awk 'NF {print $1}' | sort -u)
closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
            --no-enhances "${wanted[@]}" 2>/dev/null | grep -v '^ ' | tr -d '<>' | sed 's/:.*$//' | sort -u)
for p in "${wanted[@]}"; do
  grep -qx "$p" <<<"$closure" || {
    echo "check-runtime-deps: apt does not know '$p' from $list (run apt-get update, or fix the name)" >&2; exit 2; }
done

# needs: lines "package<TAB>why"; files: lines "file<TAB>why" still to be mapped to their package.
needs=$(mktemp); files=$(mktemp); trap 'rm -f "$needs" "$files"' EXIT
builddirs=()
for prog in "${programs[@]}"; do
  name=$(basename "$prog")
  builddirs+=("$(cd "$(dirname "$prog")/../.." && pwd)")
  linked=$(ldd "$prog" 2>&1) || { echo "check-runtime-deps: ldd $prog failed: $linked" >&2; exit 2; }
  if grep -q 'not found' <<<"$linked"; then
    echo "check-runtime-deps: $name links libraries not installed here:" >&2
    grep 'not found' <<<"$linked" >&2
    exit 1
  fi
  awk -v n="$name" '$2 == "=>" && $3 ~ /^\// {print $3 "\t" n} $1 ~ /^\// {print $1 "\t" n}' <<<"$linked" >>"$files"
  while read -r trigger plugin package; do
    [ -n "$trigger" ] || continue
    grep -q "/$trigger" <<<"$linked" || continue
    [[ $plugin == /* ]] || plugin="$qtplugins/$plugin"
    why="$name loads plugin $(basename "$plugin")"
    if [ -e "$plugin" ]; then
      echo -e "$plugin\t$why" >>"$files"
      ldd "$plugin" 2>/dev/null | awk -v n="$why" '$2 == "=>" && $3 ~ /^\// {print $3 "\t" n}' >>"$files"
    else
      echo -e "$package\t$why (not installed here)" >>"$needs"
    fi
  done <<<"$plugin_table"
done

# dpkg knows each file under the path its package ships it at: with merged /usr that may be /lib/... while ldd
# says /usr/lib/... or the other way round, and a symlink's target may be listed instead of the link.
declare -A owner cands
mapfile -t paths < <(cut -f1 "$files" | sort -u)
for path in "${paths[@]}"; do
  real=$(readlink -f "$path")
  cands[$path]="$path ${path#/usr} /usr$path $real ${real#/usr} /usr$real"
done
# one dpkg-query for every candidate path: "pkg[:arch][, pkg2]: /path"
declare -A pkgof
while IFS= read -r line; do
  pkgof[${line#*: }]=$(cut -d: -f1 <<<"${line%%: /*}" | cut -d, -f1)
done < <(printf '%s\n' ${cands[@]+"${cands[@]}"} | tr ' ' '\n' | sort -u | xargs -r dpkg-query -S 2>/dev/null |
         grep -v '^diversion')
for path in "${paths[@]}"; do
  owner[$path]=""
  for cand in ${cands[$path]}; do
    [ -n "${pkgof[$cand]:-}" ] && { owner[$path]=${pkgof[$cand]}; break; }
  done
done

unowned=""
while IFS=$'\t' read -r path why; do
  if [ -n "${owner[$path]}" ]; then
    echo -e "${owner[$path]}\t$why" >>"$needs"
  else
    inbuild=0
    for b in "${builddirs[@]}"; do [[ $(readlink -f "$path") == "$b"/* ]] && inbuild=1; done
    ((inbuild)) || unowned+="  $path (needed by $why) is in no Debian package\n"
  fi
done <"$files"

missing=""
while IFS=$'\t' read -r pkg why; do
  if ! grep -qx "$pkg" <<<"$closure"; then
    missing+="  $pkg  (needed: $why)\n"
  elif [[ $why == *"(not installed here)" ]]; then
    echo "check-runtime-deps: note: $pkg is listed but not installed on this machine (bash scripts/setup-deps.sh)" >&2
  fi
done < <(sort -u -t$'\t' -k1,1 "$needs")

checked=$(sort -u -t$'\t' -k1,1 "$needs" | wc -l)
if [ -n "$missing$unowned" ]; then
  [ -z "$missing" ] || echo -e "check-runtime-deps: packages a fresh Debian 12 machine would lack: they are not" \
    "in the dependency closure of $list; add them there:\n$missing" | sed '/^$/d'
  [ -z "$unowned" ] || echo -e "check-runtime-deps: libraries no package installs:\n$unowned" | sed '/^$/d'
  exit 1
fi
echo "check-runtime-deps: ok: the $checked run-time packages of ${programs[*]##*/} are all in the dependency" \
  "closure of $list (${#wanted[@]} listed, $(wc -l <<<"$closure") with dependencies)"
