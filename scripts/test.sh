#!/usr/bin/env bash
# scripts/test.sh -- the project's test command (README, .ci/run).
# Installs the build and test dependencies if missing (Debian 12, idempotent:
# gcc, make, valgrind, Open MPI for the sweep test, gnuplot for the plot test),
# builds with warnings as errors, runs every test twice -- normal build and
# AddressSanitizer+UndefinedBehaviorSanitizer build -- then builds and tests
# the DPDK data plane (installing libdpdk-dev), and ends with one line
# "N passed, N failed" summing everything.
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
# The DPDK data plane (issue 5): build, the frame parser test, and the
# network-namespace test (root only: it creates namespaces and veths of its
# own and removes them).
echo "== data plane (DPDK)"
dneed=""
# tshark decodes the test's captures (check 4 of rocc_dp.sh, the pcap
# checks of rocc_arp.sh); arping and ping are the kernel side of rocc_arp.sh.  Its debconf question is answered first so the
# install never prompts.
for p in libdpdk-dev pkg-config iproute2 ethtool tshark iputils-arping iputils-ping; do
    dpkg -s "$p" >/dev/null 2>&1 || dneed="$dneed $p"
done
if [ -n "$dneed" ]; then
    echo "installing:$dneed"
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections 2>/dev/null
    $SUDO apt-get update -qq && $SUDO DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $dneed >/dev/null
fi
dlog=$(mktemp)
if make -s -C dataplane >"$dlog" 2>&1; then
    echo "PASS dataplane.build" >>"$dlog"
    make -s -C dataplane test >>"$dlog" 2>&1
    if [ "$(id -u)" -eq 0 ]; then
        # Every network-namespace test (rocc_dp.sh: equal and max-min shares,
        # roccsim comparison, tshark capture; rocc_flood.sh: hostile frames).
        for t in tests/dataplane/*.sh; do
            bash "$t" >>"$dlog" 2>&1 || grep -q '^FAIL' "$dlog" || echo "FAIL $t exited non-zero" >>"$dlog"
        done
    else
        echo "not root: the network-namespace data-plane test is skipped" >>"$dlog"
    fi
else
    echo "FAIL dataplane.build" >>"$dlog"
fi
grep -E '^(PASS|FAIL|not root)' "$dlog"
dp=$(grep -c '^PASS ' "$dlog"); df=$(grep -c '^FAIL ' "$dlog")
[ "$df" -eq 0 ] || { cat "$dlog"; rc=1; }
rm -f "$dlog"
echo "data plane: $dp passed, $df failed (summed below)"
total_p=$((total_p + dp)); total_f=$((total_f + df))
echo "$total_p passed, $total_f failed"
exit $rc
