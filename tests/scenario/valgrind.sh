#!/usr/bin/env bash
# Memory check: short runs of five scenarios (one with an OpenQueue port), and `roccsim plot` on a run
# with finished flows and on one without, under valgrind (normal build only;
# the sanitizer builds have their own checkers).
set -u
cd "$(dirname "$0")/../.."
ROCCSIM=${ROCCSIM:-build/roccsim}
case "${BUILD:-build}" in *asan*|*ubsan*) exit 0 ;; esac
. tests/scenario/common.bash
need_cmd valgrind "the memory check did not run" || exit 0
# vg NAME ARGS...: roccsim ARGS under valgrind, judged by check_log.
vg() {
    local name=$1; shift
    valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 \
        "$ROCCSIM" "$@" >"$tmp/$name.log" 2>&1
    check_log "$name" $?
}
check_log() {
    local name=$1 rc=$2
    if [ $rc -le 1 ] && ! grep -q '^==[0-9]*==' "$tmp/$name.log"; then
        echo "PASS valgrind.$name"
    else
        echo "FAIL valgrind.$name"; cat "$tmp/$name.log"
    fi
}
# Exit 0 or 1 (an [expect] check of the shortened run may fail); valgrind
# reports an error as 9.
check() {
    local name=$1; shift
    vg "$name" run "$@" -q -o "$tmp/$name"
}
check multi_bottleneck experiments/rocc/multi-bottleneck.ini --set sim.duration=4ms --set sim.measure_start=3ms
check lossy experiments/rocc/lossy-gbn.ini --set sim.duration=2ms
check traffic_hpcc tests/scenario/data/traffic-rocc-fattree.ini --set sim.duration=1ms --set sim.measure_start=0.5ms \
    --set fct.warmup=0.2ms --set fct.cooldown=0.2ms --set cc.algorithm=hpcc
check link_failure experiments/datacenter/link-failure.ini --set sim.duration=2ms --set sim.measure_start=1ms
check openqueue experiments/openqueue/exp1-alg-c.ini --set sim.duration=2ms --set sim.measure_start=1ms
# plot reads the run directories (summary, fct.tsv, CSV headers) in C; it
# once read a flag uninitialised, which failed ~1 run in 8 on a run whose
# flows never finish.  gnuplot itself is not traced.
if need_cmd gnuplot "the memory check of roccsim plot did not run"; then
    check endless tests/scenario/data/good.ini --set sim.duration=1ms
    vg plot_no_finished_flows plot -o "$tmp/endless-fig" "$tmp/endless"
    vg plot_fct plot -o "$tmp/fct-fig" "$tmp/traffic_hpcc"
fi
