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
trap 'rm -f "$log"' EXIT
status=0
# run_one NAME CMD... -- a test that exits non-zero fails the run; if it
# printed no FAIL line of its own (a crash the harness missed, a script
# error), one naming it is added.
run_one() {
    local name=$1 before rc
    shift
    before=$(grep -c '^FAIL ' "$log")
    "$@" >>"$log" 2>&1 && return 0
    rc=$?
    status=1
    [ "$(grep -c '^FAIL ' "$log")" -gt "$before" ] || echo "FAIL $name exited with status $rc and no FAIL line" >>"$log"
}
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    case "$t" in *.o|*.d) continue ;; esac
    run_one "$(basename "$t")" "$t"
done
for s in tests/scenario/*.sh; do
    [ -f "$s" ] || continue
    run_one "$s" bash "$s"
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
