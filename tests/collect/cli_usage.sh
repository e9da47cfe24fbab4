#!/bin/bash
# Usage errors of faultline-cli and collect's refusals, as a user meets them (issue #40):
# - every subcommand (taken from the program's own --help, so a new one is covered) names an unknown option,
#   even when a required option is missing too (CLI11 checks required options first), and exits 2;
# - collect with no usable node name exits 2 naming them, having written nothing;
# - validate-rules on a missing folder exits 2 (unusable input), a bad rule file still 1.
# Usage: cli_usage.sh FAULTLINE_CLI
set -uo pipefail
CLI=${1:?usage: cli_usage.sh path/to/faultline-cli}
T=$(mktemp -d /tmp/faultline-cli-usage-XXXXXX)
trap 'rm -rf "$T"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

commands=$("$CLI" --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on = 0}')
[ "$(wc -w <<<"$commands")" -ge 5 ] || fail "subcommands from --help: '$commands'"
for c in $commands; do
    "$CLI" "$c" --no-such-option > "$T/out" 2> "$T/err"
    rc=$?
    [ "$rc" = 2 ] || fail "$c --no-such-option: exit $rc, not 2"
    grep -q -- "not expected: --no-such-option" "$T/err" || fail "$c --no-such-option does not name it: $(head -1 "$T/err")"
    [ ! -s "$T/out" ] || fail "$c --no-such-option wrote to stdout"
done
echo "checked --no-such-option on: $(echo $commands)"

# Every node name refused: nothing to collect is an error, not a result.
"$CLI" collect --nodes 'bad node,-oProxyCommand=x' --from 2026-03-01T10:00:00Z --to 2026-03-01T11:00:00Z \
    --out "$T/bundle" --no-journal --no-user-rules > "$T/out" 2> "$T/err"
rc=$?
[ "$rc" = 2 ] || fail "collect with only refused node names: exit $rc, not 2"
grep -q "'bad node'" "$T/err" && grep -q "'-oProxyCommand=x'" "$T/err" || fail "collect names the refused nodes: $(cat "$T/err")"
[ ! -e "$T/bundle" ] || fail "collect wrote a bundle with no usable node"
# One usable name among refused ones still collects (and reports the others).
"$CLI" collect --nodes 'bad node,good-node' --from 2026-03-01T10:00:00Z --to 2026-03-01T11:00:00Z \
    --out "$T/bundle2" --no-journal --no-user-rules --quiet > "$T/out" 2> "$T/err"
rc=$?
[ "$rc" = 0 ] || fail "collect with one usable node: exit $rc: $(cat "$T/err")"

"$CLI" validate-rules "$T/no-such-folder" > "$T/out" 2> "$T/err"
rc=$?
[ "$rc" = 2 ] || fail "validate-rules on a missing folder: exit $rc, not 2"
grep -q "no-such-folder" "$T/err" || fail "validate-rules names the missing folder: $(cat "$T/err")"
mkdir "$T/rules" && echo '{"rules": [' > "$T/rules/bad.jsonc"
"$CLI" validate-rules "$T/rules" > "$T/out" 2> "$T/err"
rc=$?
[ "$rc" = 1 ] || fail "validate-rules on a folder with a broken file: exit $rc, not 1"

[ "$failures" = 0 ] && echo PASS || { echo "$failures failure(s)"; exit 1; }
