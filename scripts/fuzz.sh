#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (clang, ASan + UBSan, build/fuzz) and
# runs each for SECONDS (default 60), one at a time and niced: the machine is
# shared. Exits non-zero when any target finds a crash, a sanitizer report, a
# leak, a timeout or an out-of-memory; the input is kept in
# build/fuzz/findings/<target>/ — copy it to tests/fuzz/<target>/ so that the
# replay test (ctest -R fuzz_replay) keeps it as a regression.
#
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Corpus: build/fuzz/corpus/<target>/ (grows across runs), seeded from
# tests/fuzz/<target>/ and from samples/ and rules/.
set -euo pipefail

seconds=${1:-60}
shift || true
here=$(cd "$(dirname "$0")/.." && pwd)
build="$here/build/fuzz"
all=(lineparse extent sacct k8s_events metrics manifest rules archive)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

case "$seconds" in ''|*[!0-9]*) echo "usage: $0 [SECONDS] [TARGET...]  (targets: ${all[*]})" >&2; exit 2;; esac
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 2; }

san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S "$here" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link $san" \
    -DCMAKE_EXE_LINKER_FLAGS="$san" \
    -DFAULTLINE_FUZZ=ON -DFAULTLINE_BUILD_GUI=OFF -DFAULTLINE_WERROR=OFF >/dev/null
nice -n 10 cmake --build "$build" -j"${FUZZ_JOBS:-2}" --target "${targets[@]/#/fuzz_}"

seed() { # target -> extra seed files from the repository
    case "$1" in
        lineparse|extent) ls "$here"/samples/*/*.log ;;
        manifest) ls "$here"/samples/*/workload.json ;;
        rules) ls "$here"/rules/*.jsonc ;;
        archive)
            local d="$build/seed-archives"
            mkdir -p "$d"
            for s in "$here"/samples/*/; do
                n=$(basename "$s")
                [ -f "$d/$n.tar.gz" ] || tar -czf "$d/$n.tar.gz" -C "$here/samples" "$n"
                [ -f "$d/$n.zip" ] || (cd "$here/samples" && python3 -m zipfile -c "$d/$n.zip" "$n") >/dev/null 2>&1 || true
            done
            ls "$d"/* ;;
    esac
}

failed=()
summary=()
for t in "${targets[@]}"; do
    corpus="$build/corpus/$t"
    findings="$build/findings/$t"
    mkdir -p "$corpus" "$findings"
    cp -n "$here/tests/fuzz/$t"/* "$corpus/" 2>/dev/null || true
    for f in $(seed "$t"); do cp -n "$f" "$corpus/$(basename "$(dirname "$f")")-$(basename "$f")"; done
    maxlen=65536
    [ "$t" = archive ] && maxlen=262144
    log="$build/$t.log"
    echo "== fuzz_$t for ${seconds}s (log: $log)"
    set +e
    nice -n 10 "$build/fuzz/fuzz_$t" "$corpus" -max_total_time="$seconds" -max_len=$maxlen \
        -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1
    rc=$?
    set -e
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
    summary+=("fuzz_$t: ${execs:-?} executions, $cov, corpus $(ls "$corpus" | wc -l), exit $rc")
    if [ $rc -ne 0 ]; then
        failed+=("$t")
        grep -E "ERROR: |runtime error|invariant broken|SUMMARY" "$log" | head -5 >&2 || true
        echo "   finding kept in $findings/" >&2
    fi
done
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz.sh: findings in: ${failed[*]}" >&2
    exit 1
fi
