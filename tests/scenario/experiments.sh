#!/usr/bin/env bash
# tests/scenario/experiments.sh -- every experiment in experiments/{rocc,compare,datacenter,escape,openqueue,rcc}/*.ini (sweep files aside)
# must run to completion and meet its own [expect] section.
#
# One line per experiment: "PASS scenario.<name>" when roccsim exits 0 with
# nothing on stderr (a lossless run that drops data exits 0 but warns), else
# "FAIL scenario.<name>" followed by roccsim's output, indented.
# ROCCSIM and BUILD come from the environment (tests/run.sh exports them).
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
ROCCSIM=${ROCCSIM:-$BUILD/roccsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for ini in experiments/rocc/*.ini experiments/compare/*.ini experiments/datacenter/*.ini experiments/escape/*.ini experiments/openqueue/*.ini experiments/rcc/*.ini; do
    case "$ini" in *.sweep.ini) continue ;; esac
    [ -f "$ini" ] || continue
    name=$(basename "$ini" .ini)
    "$ROCCSIM" run "$ini" -q -o "$tmp/$name" >"$tmp/$name.out" 2>"$tmp/$name.err"
    rc=$?
    if [ "$rc" -eq 0 ] && [ ! -s "$tmp/$name.err" ] && [ -s "$tmp/$name/summary.json" ]; then
        echo "PASS scenario.$name"
    else
        echo "FAIL scenario.$name (exit status $rc)"
        cat "$tmp/$name.out" "$tmp/$name.err" | sed 's/^/  /'
        status=1
    fi
done
exit $status
