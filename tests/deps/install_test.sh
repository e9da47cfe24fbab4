#!/usr/bin/env bash
# cmake --install into a temporary prefix, then use the installed programs as a user would, from another
# working folder: the CLI finds its shipped rules under <prefix>/share/faultline and diagnoses a sample; the
# data, desktop entry, metainfo, icon, man pages and completion scripts are where desktops and tools look.
# usage: install_test.sh BUILD_DIR SAMPLE_BUNDLE
set -uo pipefail
build=$1 sample=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
has() { [ -s "$prefix/$1" ] || fail "not installed: $1"; }

has bin/faultline-cli
has share/faultline/result.schema.json
has share/man/man1/faultline-cli.1
has share/bash-completion/completions/faultline-cli
ls "$prefix"/share/faultline/rules/*.jsonc >/dev/null 2>&1 || fail "no rules under share/faultline/rules"
if [ -e "$build/app/workbench/faultline" ]; then
  for f in bin/faultline share/applications/org.faultline.Faultline.desktop \
           share/metainfo/org.faultline.Faultline.metainfo.xml \
           share/icons/hicolor/scalable/apps/org.faultline.Faultline.svg share/man/man1/faultline.1 \
           share/bash-completion/completions/faultline; do has "$f"; done
  if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$prefix/share/applications/org.faultline.Faultline.desktop" || fail "desktop entry"
  fi
  if command -v appstreamcli >/dev/null; then
    appstreamcli validate --no-net "$prefix/share/metainfo/org.faultline.Faultline.metainfo.xml" || fail "metainfo"
  fi
fi
[ -e "$build/app/service/faultline-service" ] && has bin/faultline-service
for page in "$prefix"/share/man/man1/*.1; do
  out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null) && [ -z "$out" ] || fail "man page $page: $out"
  grep -q '@' "$page" && fail "man page $page has an unreplaced @VARIABLE@"
done

# From another working folder, without the source tree's help: the installed rules are the ones loaded.
cd "$tmp"
unset FAULTLINE_RULES_DIR
export XDG_CONFIG_HOME="$tmp/config"
out=$("$prefix/bin/faultline-cli" analyze "$sample" --text 2>&1) || fail "installed analyze: $out"
grep -q "ATTRIBUTED" <<<"$out" || fail "installed analyze did not attribute $sample: $out"
"$prefix/bin/faultline-cli" validate-rules "$prefix/share/faultline/rules" >/dev/null || fail "installed rules invalid"
# Proof that the installed copy is what it loads: break it, and the error names the installed file.
echo '{ broken' >"$prefix/share/faultline/rules/zz-broken.jsonc"
out=$("$prefix/bin/faultline-cli" analyze "$sample" 2>&1)
{ [ $? -eq 2 ] && grep -q "$prefix/share/faultline/rules/zz-broken.jsonc" <<<"$out"; } ||
  fail "installed analyze did not load $prefix/share/faultline/rules: $out"
[ $failures -eq 0 ] && echo "ok: installed into $prefix and diagnosed $(basename "$sample") from $tmp"
exit $((failures > 0))
