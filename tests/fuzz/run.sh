#!/usr/bin/env bash
# tests/fuzz/run.sh -- run the libFuzzer harnesses for a bounded time each
# (make fuzz builds them into build-fuzz/fuzz/ and calls this; scripts/test.sh
# runs it in CI).  docs/testing.md says how to fuzz for longer.
#
#   tests/fuzz/run.sh [NAME...]     default: every harness in $FUZZ_BUILD/fuzz/
#
# Environment: FUZZ_BUILD (build-fuzz), FUZZ_TIME seconds per harness (20;
# 7 harnesses stay under 3 minutes), FUZZ_ARGS extra libFuzzer flags
# (e.g. "-jobs=2 -workers=2").  Each harness starts from its seed corpus
# tests/fuzz/corpus/NAME/ (read, never written: new inputs go to a scratch
# directory) and runs niced.  Any crash, leak, sanitizer report (ASan,
# UBSan: the build makes every report fatal), timeout (> 30 s on one input:
# generous, as the machine may be loaded)
# or out-of-memory (> 2 GB) is a FAIL; the input that caused it is kept as
# $FUZZ_BUILD/fuzz-artifacts/NAME/crash-... (or leak-, timeout-, oom-) and
# named on the FAIL line.  Prints one PASS/FAIL line per harness and
# "N passed, N failed"; exit status 1 if any failed.
set -u
cd "$(dirname "$0")/../.."
. scripts/lib/help.bash 2>/dev/null && script_help "$@"
B=${FUZZ_BUILD:-build-fuzz}
T=${FUZZ_TIME:-20}
if [ $# -gt 0 ]; then
    names=("$@")
else
    names=()
    for f in "$B"/fuzz/*; do
        [ -x "$f" ] && [ -f "$f" ] && case "$f" in *.d) ;; *) names+=("$(basename "$f")") ;; esac
    done
fi
passed=0
failed=0
if [ ${#names[@]} -eq 0 ]; then
    echo "FAIL fuzz: no harnesses in $B/fuzz (run make fuzz)"
    echo "0 passed, 1 failed"
    exit 1
fi
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for n in "${names[@]}"; do
    art="$B/fuzz-artifacts/$n"
    mkdir -p "$art" "$scratch/$n"
    before=$(ls "$art" | wc -l)
    log="$scratch/$n.log"
    # shellcheck disable=SC2086
    nice -n 10 "$B/fuzz/$n" -max_total_time="$T" -timeout=30 -rss_limit_mb=2048 -max_len=8192 \
        -print_final_stats=1 -artifact_prefix="$art/" ${FUZZ_ARGS:-} \
        "$scratch/$n" "tests/fuzz/corpus/$n" >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    new=$(ls -t "$art" | head -n $(( $(ls "$art" | wc -l) - before )) 2>/dev/null | head -n 1)
    if [ "$rc" -eq 0 ] && [ -z "$new" ] && [ -n "$runs" ]; then
        echo "PASS fuzz.$n (${runs} inputs in ${T} s)"
        passed=$((passed + 1))
    else
        echo "FAIL fuzz.$n: exit status $rc${new:+, input kept as $art/$new}"
        grep -E 'ERROR|runtime error|SUMMARY|==[0-9]+==|#[0-9]+ 0x' "$log" | head -n 30 | sed 's/^/  /'
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
