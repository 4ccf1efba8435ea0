#!/usr/bin/env bash
# Memory check: short runs of four scenarios under valgrind (normal build
# only; the ASan build has its own checker).  Skipped when valgrind is absent.
set -u
cd "$(dirname "$0")/../.."
ROCCSIM=${ROCCSIM:-build/roccsim}
case "${BUILD:-build}" in *asan*) exit 0 ;; esac
command -v valgrind >/dev/null || { echo "valgrind not installed: memory check skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() {
    local name=$1; shift
    # Exit 0 or 1 (an [expect] check of the shortened run may fail); valgrind
    # reports an error as 9.
    valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 \
        "$ROCCSIM" run "$@" -q -o "$tmp/$name" >"$tmp/$name.log" 2>&1
    local rc=$?
    if [ $rc -le 1 ] && ! grep -q '^==[0-9]*==' "$tmp/$name.log"; then
        echo "PASS valgrind.$name"
    else
        echo "FAIL valgrind.$name"; cat "$tmp/$name.log"
    fi
}
check multi_bottleneck experiments/rocc/multi-bottleneck.ini --set sim.duration=4ms --set sim.measure_start=3ms
check lossy experiments/rocc/lossy-gbn.ini --set sim.duration=2ms
check traffic_hpcc tests/scenario/data/traffic-rocc-fattree.ini --set sim.duration=1ms --set sim.measure_start=0.5ms \
    --set fct.warmup=0.2ms --set fct.cooldown=0.2ms --set cc.algorithm=hpcc
check link_failure experiments/datacenter/link-failure.ini --set sim.duration=2ms --set sim.measure_start=1ms
