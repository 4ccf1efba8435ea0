#!/usr/bin/env bash
# tests/run.sh -- run every test against the build in $BUILD (default build/):
#   1. unit test binaries build/tests/test_*  (each prints PASS/FAIL lines);
#   2. scenario tests tests/scenario/*.sh      (each prints PASS/FAIL lines);
# and end with one line "N passed, N failed".  Exit status 1 if anything failed.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export BUILD ROCCSIM="$BUILD/roccsim"
log=$(mktemp)
status=0
# Tests run $TEST_JOBS at a time (default 1; scripts/test.sh uses one per
# CPU): each writes its own log, and the logs are joined in the fixed order
# below, so the combined log does not depend on which finished first.  The
# tests are independent: each works in its own mktemp directory.
jobs=${TEST_JOBS:-1}
case $jobs in '' | *[!0-9]* | 0) echo "tests/run.sh: TEST_JOBS must be a positive integer, not '$jobs'" >&2; exit 2 ;; esac
parts=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$parts"' EXIT
# run_one N NAME CMD... -- run CMD with its output in $parts/N.log; a test
# that exits non-zero fails the run: if it printed no FAIL line of its own (a
# crash the harness missed, a script error), one naming it is added, and
# $parts/N.failed records the failure for the parent shell.
run_one() {
    local n=$1 name=$2 rc
    shift 2
    "$@" >"$parts/$n.log" 2>&1 && return 0
    rc=$?
    : >"$parts/$n.failed"
    grep -q '^FAIL ' "$parts/$n.log" || echo "FAIL $name exited with status $rc and no FAIL line" >>"$parts/$n.log"
}
n=0
start_one() {  # start_one NAME CMD... -- run_one in the background, at most $jobs at once
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    n=$((n + 1))
    run_one "$n" "$@" &
}
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    case "$t" in *.o|*.d) continue ;; esac
    start_one "$(basename "$t")" "$t"
done
for s in tests/scenario/*.sh; do
    [ -f "$s" ] || continue
    start_one "$s" bash "$s"
done
wait
for i in $(seq "$n"); do
    cat "$parts/$i.log" >>"$log"
    [ -e "$parts/$i.failed" ] && status=1
done
grep -E '^(FAIL|SKIP|  )' "$log" || true
passed=$(grep -c '^PASS ' "$log")
failed=$(grep -c '^FAIL ' "$log")
skipped=$(grep -c '^SKIP ' "$log")
if [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then status=1; fi
# Skips (a missing gnuplot, mpirun, valgrind...) are counted on the closing
# line, their reasons listed above it: a test that did not run is never
# silent.  With ROCC_SKIP=fail (scripts/test.sh) they are failures instead.
if [ "$skipped" -gt 0 ]; then
    echo "$(basename "$BUILD"): $passed passed, $failed failed, $skipped skipped" >&2
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$(basename "$BUILD"): $passed passed, $failed failed" >&2
    echo "$passed passed, $failed failed"
fi
exit $status
