#!/usr/bin/env bash
# scripts/test.sh -- the project's test command (README, .ci/run).
# Installs the build and test dependencies if missing (Debian 12, idempotent:
# gcc, make, valgrind, Open MPI for the sweep test, gnuplot for the plot test),
# builds with warnings as errors, runs every test twice -- normal build and
# AddressSanitizer+UndefinedBehaviorSanitizer build -- and ends with one line
# "N passed, N failed" summing both passes.
set -u
cd "$(dirname "$0")/.."
need=""
for p in gcc make libc6-dev valgrind openmpi-bin gnuplot-nox; do
    dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -n "$need" ]; then
    echo "installing:$need"
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq && $SUDO DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
fi
jobs=$(nproc 2>/dev/null || echo 2)
total_p=0; total_f=0; rc=0
for mode in normal asan; do
    if [ "$mode" = normal ]; then args="BUILD=build"; else args="BUILD=build-asan SAN=1 OPT=-O1"; fi
    echo "== build ($mode)"
    if ! make -s -j"$jobs" $args all; then
        echo "build ($mode) failed"; total_f=$((total_f + 1)); rc=1; continue
    fi
    echo "== tests ($mode)"
    log=$(mktemp)
    make -s $args test > "$log" 2>/dev/null
    cat "$log"
    out=$(tail -n 1 "$log")
    rm -f "$log"
    p=$(echo "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    f=$(echo "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    if [ -z "$p" ]; then p=0; f=$((f + 1)); fi
    echo "$mode pass: $p passed, ${f:-1} failed (summed below)"
    total_p=$((total_p + p)); total_f=$((total_f + ${f:-1}))
    [ "${f:-1}" -eq 0 ] || rc=1
done
echo "$total_p passed, $total_f failed"
exit $rc
