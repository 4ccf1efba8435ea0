#!/usr/bin/env bash
# scripts/test.sh -- the project's test command (README, .ci/run).
# Installs the build and test dependencies if missing (Debian 12, idempotent:
# gcc, make, valgrind, clang, Open MPI for the sweep test, gnuplot for the plot
# test, tshark and python3 for the scenario tests that decode captures
# (tests/scenario/pcap.sh, cnp_dissector.sh), DPDK for the data plane),
# builds with warnings as errors,
# runs every test three times -- normal build, gcc AddressSanitizer +
# UndefinedBehaviorSanitizer build, clang UndefinedBehaviorSanitizer build --
# runs the fuzz harnesses for a bounded time (make fuzz), then builds and
# tests the DPDK data plane, and ends with one line
# "N passed, N failed" summing everything.
#
# A test that cannot run because something it needs is missing is a
# failure here (this script installs everything it needs, so a missing
# dependency means the install failed).  ROCC_ALLOW_SKIP=1 turns those into
# skips instead, listed with their reasons and counted on the closing line
# ("N passed, N failed, N skipped") -- for a machine without root or sudo.
#
#   scripts/test.sh --deps-only   install the dependencies and stop.
set -u
cd "$(dirname "$0")/.."
. scripts/lib/help.bash
script_help "$@"
. scripts/lib/deps.bash
if [ "${ROCC_ALLOW_SKIP:-0}" = 1 ]; then export ROCC_SKIP=allow; else export ROCC_SKIP=fail; fi
DEPS="gcc make libc6-dev valgrind clang openmpi-bin libopenmpi-dev gnuplot-nox tshark python3"
DP_DEPS="libdpdk-dev pkg-config iproute2 ethtool tshark iputils-arping iputils-ping"
if [ "${1:-}" = --deps-only ]; then
    install_missing $DEPS $DP_DEPS; exit
fi
install_missing $DEPS ||
    echo "installing the build and test dependencies failed: tests that need them will say so"
jobs=$(nproc 2>/dev/null || echo 2)
total_p=0; total_f=0; total_s=0; rc=0
# add_counts LABEL LOG: adds LOG's closing "N passed, N failed[, N skipped]"
# line to the totals; a log without one counts as one failure.
add_counts() {
    local out p f s
    out=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$2" | tail -n 1)
    p=$(echo "$out" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
    f=$(echo "$out" | sed -n 's/^[0-9]* passed, \([0-9]*\) failed.*/\1/p')
    s=$(echo "$out" | sed -n 's/.*, \([0-9]*\) skipped$/\1/p')
    if [ -z "$p" ]; then p=0; f=1; echo "$1: no closing line: counted as one failure"; fi
    s=${s:-0}
    echo "$1: $p passed, $f failed, $s skipped (summed below)"
    total_p=$((total_p + p)); total_f=$((total_f + f)); total_s=$((total_s + s))
    [ "$f" -eq 0 ] || rc=1
}
for mode in normal asan ubsan-clang; do
    case $mode in
        normal) args="BUILD=build" ;;
        asan)   args="BUILD=build-asan SAN=1 OPT=-O1" ;;
        # clang's UBSan finds what gcc's misses (e.g. pointer arithmetic on
        # NULL); -O1 without LTO keeps the build quick.
        ubsan-clang) args="BUILD=build-ubsan CC=clang SAN=ubsan OPT=-O1" ;;
    esac
    echo "== build ($mode)"
    if ! make -s -j"$jobs" $args all; then
        echo "build ($mode) failed"; total_f=$((total_f + 1)); rc=1; continue
    fi
    echo "== tests ($mode)"
    log=$(mktemp)
    t0=$SECONDS
    make -s $args TEST_JOBS="$jobs" test > "$log" 2>/dev/null
    cat "$log"
    add_counts "$mode" "$log"
    echo "tests ($mode): $((SECONDS - t0)) s with $jobs at a time"
    rm -f "$log"
done
# Fuzzing (tests/fuzz, docs/testing.md): the libFuzzer harnesses built by
# clang, each run for FUZZ_TIME seconds (default 20), one per CPU at once;
# a crash, leak, sanitizer report or timeout is a FAIL naming the input.
echo "== fuzz (libFuzzer, ${FUZZ_TIME:-20} s per harness)"
t0=$SECONDS
flog=$(mktemp)
make -s -j"$jobs" fuzz >"$flog" 2>&1
grep -E '^(PASS|FAIL|  )' "$flog" || cat "$flog"
add_counts fuzz "$flog"
rm -f "$flog"
echo "fuzz: $((SECONDS - t0)) s"
# The DPDK data plane (issue 5): build, the frame parser test, and the
# network-namespace tests (root only: they create namespaces and veths of
# their own and remove them).  tshark decodes the tests' captures; arping
# and ping are the kernel side of rocc_arp.sh.
echo "== data plane (DPDK)"
t0=$SECONDS
install_missing $DP_DEPS ||
    echo "installing the data-plane dependencies failed: the build below will say what is missing"
dlog=$(mktemp)
if make -s -C dataplane >"$dlog" 2>&1; then
    echo "PASS dataplane.build" >>"$dlog"
    make -s -C dataplane test >>"$dlog" 2>&1
    if [ "$(id -u)" -eq 0 ]; then
        for t in tests/dataplane/*.sh; do
            before=$(grep -c '^FAIL ' "$dlog")
            bash "$t" >>"$dlog" 2>&1 ||
                [ "$(grep -c '^FAIL ' "$dlog")" -gt "$before" ] || echo "FAIL $t exited non-zero" >>"$dlog"
        done
    elif [ "$ROCC_SKIP" = allow ]; then
        echo "SKIP dataplane.netns: not root (the network-namespace tests create namespaces and veths)" >>"$dlog"
    else
        echo "FAIL dataplane.netns: not root (the network-namespace tests create namespaces and veths; ROCC_ALLOW_SKIP=1 to skip)" >>"$dlog"
    fi
else
    echo "FAIL dataplane.build" >>"$dlog"
fi
grep -E '^(PASS|FAIL|SKIP)' "$dlog"
dp=$(grep -c '^PASS ' "$dlog"); df=$(grep -c '^FAIL ' "$dlog"); ds=$(grep -c '^SKIP ' "$dlog")
[ "$df" -eq 0 ] || { cat "$dlog"; rc=1; }
rm -f "$dlog"
echo "data plane: $dp passed, $df failed, $ds skipped (summed below); $((SECONDS - t0)) s"
echo "scripts/test.sh: $SECONDS s in all"
total_p=$((total_p + dp)); total_f=$((total_f + df)); total_s=$((total_s + ds))
if [ "$total_s" -gt 0 ]; then
    echo "$total_p passed, $total_f failed, $total_s skipped"
else
    echo "$total_p passed, $total_f failed"
fi
exit $rc
