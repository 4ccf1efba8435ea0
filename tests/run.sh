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
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    case "$t" in *.o|*.d) continue ;; esac
    if ! "$t" >>"$log" 2>&1; then status=1; fi
done
for s in tests/scenario/*.sh; do
    [ -f "$s" ] || continue
    if ! bash "$s" >>"$log" 2>&1; then status=1; fi
done
grep -E '^(FAIL|  )' "$log" || true
passed=$(grep -c '^PASS ' "$log")
failed=$(grep -c '^FAIL ' "$log")
echo "$(basename "$BUILD"): $passed passed, $failed failed" >&2
if [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then status=1; fi
echo "$passed passed, $failed failed"
exit $status
