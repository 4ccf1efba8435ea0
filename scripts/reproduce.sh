#!/usr/bin/env bash
# scripts/reproduce.sh [EXPERIMENT_DIR...] -- run every experiment (default:
# experiments/rocc and the full-length Escape runs experiments/escape/full;
# the Escape scheme comparison is scripts/escape-compare.sh, the OpenQueue
# experiments scripts/openqueue-exp.sh) with its
# [expect] checks, write each run to
# runs/<name>/ with a plot, and end with a table of checks passed/failed.
# Exit status 1 if any check failed.
set -u
. "$(dirname "$0")/lib/help.bash"
script_help "$@"
cd "$(dirname "$0")/.."
make -s -j"$(nproc 2>/dev/null || echo 2)" build/roccsim || exit 2
dirs=("$@"); [ ${#dirs[@]} -gt 0 ] || dirs=(experiments/rocc experiments/escape/full)
fail=0; summary=""
for d in "${dirs[@]}"; do
    for ini in "$d"/*.ini; do
        name=$(basename "$ini" .ini)
        echo "== $ini"
        out=$(./build/roccsim run "$ini" -q -o "runs/$name" 2>&1); rc=$?
        echo "$out"
        command -v gnuplot >/dev/null && scripts/plot.sh "runs/$name" >/dev/null 2>&1
        p=$(grep -c '^PASS' <<<"$out"); f=$(grep -c '^FAIL' <<<"$out")
        [ $rc -eq 0 ] || fail=1
        summary="$summary$(printf '%-28s %3d passed %3d failed  exit %d' "$name" "$p" "$f" "$rc")\n"
    done
done
printf '\n%b' "$summary"
exit $fail
