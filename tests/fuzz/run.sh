#!/usr/bin/env bash
# tests/fuzz/run.sh -- run the libFuzzer harnesses for a bounded time each
# (make fuzz builds them into build-fuzz/fuzz/ and calls this; scripts/test.sh
# runs it in CI).  docs/testing.md says how to fuzz for longer.
#
#   tests/fuzz/run.sh [NAME...]     default: every harness in $FUZZ_BUILD/fuzz/
#
# Environment: FUZZ_BUILD (build-fuzz), FUZZ_TIME seconds per harness (20),
# FUZZ_JOBS harnesses at once (one per CPU), FUZZ_ARGS extra libFuzzer flags
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
# fuzz_one NAME -- run one harness; its PASS/FAIL line (and the report of a
# failure) in $scratch/NAME.out.
fuzz_one() {
    local n=$1 art="$B/fuzz-artifacts/$1" before log rc runs new
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
    else
        echo "FAIL fuzz.$n: exit status $rc${new:+, input kept as $art/$new}"
        grep -E 'ERROR|runtime error|SUMMARY|==[0-9]+==|#[0-9]+ 0x' "$log" | head -n 30 | sed 's/^/  /'
    fi >"$scratch/$n.out"
}
# FUZZ_JOBS harnesses at once (default: one per CPU); the lines are printed
# in the harnesses' order whatever finishes first.
J=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $J in '' | *[!0-9]* | 0) echo "tests/fuzz/run.sh: FUZZ_JOBS must be a positive integer, not '$J'" >&2; exit 2 ;; esac
for n in "${names[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$J" ]; do wait -n; done
    fuzz_one "$n" &
done
wait
for n in "${names[@]}"; do
    if [ -s "$scratch/$n.out" ]; then cat "$scratch/$n.out"; else echo "FAIL fuzz.$n: no result (the runner died)"; fi
    if grep -q '^PASS' "$scratch/$n.out" 2>/dev/null; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
