#!/usr/bin/env bash
# Behaviour-unchanged check for refactors: runs one faultline-cli over the real incidents, the samples and a
# few synthetic bundles in every output form (JSON, JSON --detail, JSON --explain, text --explain, report md
# and html) and, given a base folder, compares each output byte for byte with the one made there before.
#
#   bash scripts/compare-results.sh CLI OUT_DIR [BASE_DIR]
#
#   CLI        the faultline-cli to run (e.g. build/dev/app/cli/faultline-cli)
#   OUT_DIR    where the outputs go (one file per bundle and form)
#   BASE_DIR   an OUT_DIR made earlier (by the code before the change): exit 1 when any output differs
#
# INCIDENTS (default /work/shared/incidents) holds case* folders; they are skipped when absent. The synthetic
# bundles are written once into SYNTH_DIR (default /tmp/faultline-compare-synth) by the CLI and reused, so the
# base and the change read the same input.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli=${1:?usage: compare-results.sh CLI OUT_DIR [BASE_DIR]}
out=${2:?usage: compare-results.sh CLI OUT_DIR [BASE_DIR]}
base=${3:-}
incidents=${INCIDENTS:-/work/shared/incidents}
synth=${SYNTH_DIR:-/tmp/faultline-compare-synth}
mkdir -p "$out" "$synth"

# name fault extra-options...: small bundles, each a different decision path (root, straggler, tie, none, hang).
synths=(
  "xid79 xid79 --nodes 4 --gpus 4 --seed 3"
  "straggler straggler --nodes 4 --gpus 4 --seed 5"
  "ambiguous ambiguous --nodes 4 --gpus 4 --seed 2"
  "none none --nodes 4 --gpus 2 --seed 1"
  "nfs nfs_hang --nodes 3 --gpus 2 --seed 4 --skew 2"
  "ibpeer ib_err12 --nodes 4 --gpus 2 --seed 6 --peer-reports"
  "rotated xid79 --nodes 3 --gpus 2 --seed 8 --rotated --layout per-node"
  "oom oom --nodes 2 --gpus 2 --seed 9 --noise 2"
)
for s in "${synths[@]}"; do
  read -r name fault opts <<<"$s"
  [ -f "$synth/$name/truth.json" ] || "$cli" synth "$synth/$name" --fault "$fault" $opts >/dev/null \
    || { echo "compare-results: synth $name failed" >&2; exit 2; }
done

bundles=()
for d in "$incidents"/case* "$root"/samples/*/ "$synth"/*/; do [ -d "$d" ] && bundles+=("${d%/}"); done

run() { # name form args...: one output file (stdout + exit code; stderr apart, it may hold timings)
  local name=$1 form=$2; shift 2
  "$@" >"$out/$name.$form" 2>"$out/$name.$form.err"
  echo "exit $?" >>"$out/$name.$form"
}
for b in "${bundles[@]}"; do
  n=$(basename "$b")
  run "$n" json "$cli" analyze "$b" --json --no-user-rules
  run "$n" detail.json "$cli" analyze "$b" --json --detail --no-user-rules
  run "$n" explain.json "$cli" analyze "$b" --json --explain --no-user-rules
  run "$n" txt "$cli" analyze "$b" --text --explain --no-user-rules
  run "$n" md "$cli" report "$b" --format md --no-notes --no-user-rules
  run "$n" html "$cli" report "$b" --format html --no-notes --no-user-rules
done
# A result document read back (the reader, not the engine, makes these). The report names its input, so the
# document is read from the same path in every run.
mkdir -p "$synth-readback"
for n in case04 xid79 straggler nfs; do
  f="$out/$n.json"; [ -f "$f" ] || continue
  head -n -1 "$f" >"$synth-readback/$n.json"
  run "$n" readback.md "$cli" report "$synth-readback/$n.json" --format md --no-notes
  run "$n" readback.html "$cli" report "$synth-readback/$n.json" --format html --no-notes
done

# The scores against the synthetic bundles' truth.json, as text and JSON.
run synth eval.txt "$cli" eval "$synth"
run synth eval.json "$cli" eval "$synth" --json

[ -n "$base" ] || { echo "compare-results: $(ls "$out" | grep -vc '\.err$') outputs in $out"; exit 0; }
same=0 differ=0
for f in "$base"/*; do
  n=$(basename "$f"); case "$n" in *.err) continue ;; esac
  if cmp -s "$f" "$out/$n"; then same=$((same + 1)); else differ=$((differ + 1)); echo "differs: $n"; fi
done
echo "compare-results: $same byte-identical, $differ differ"
[ "$differ" -eq 0 ]
