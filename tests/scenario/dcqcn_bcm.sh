#!/usr/bin/env bash
# tests/scenario/dcqcn_bcm.sh -- the Broadcom note's qualitative claims and
# the cause of the DCQCN-p/-d cycle (docs/baselines.md), on shortened runs of
# experiments/compare/bcm-*.ini (30 ms measured over 20-30 ms; the incast
# 12 ms over 4-12 ms).  Only conditions our model shows are asserted; the
# claims it does not show are stated in docs/baselines.md.
#   - many flows (N = 100): DCQCN-p's queue settles higher than DCQCN-d's;
#   - few flows (N = 10): DCQCN-d sends more CNPs than DCQCN-p (> 2x) and
#     DCQCN-p's queue is the higher one;
#   - the cause: the same RP with DCQCN's per-CNP reaction, 50 us CNP
#     spacing, no doubling and DCQCN's marking holds the link (>= 99%)
#     where the note's periodic RP does not (<= 92%);
#   - the 100:1 PFC incast is lossless for dcqcn, dcqcn_p, dcqcn_d, and
#     silent_period = hold sends fewer XOFF frames than the default.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
E=experiments/compare
S="--set sim.duration=30ms --set sim.measure_start=20ms"
I="--set sim.duration=12ms --set sim.measure_start=4ms"
run() {   # name ini overrides...
    local name=$1 ini=$2; shift 2
    "$ROCCSIM" run "$ini" -q -o "$tmp/$name" "$@" >"$tmp/$name.log" 2>&1
    [ -s "$tmp/$name/summary.tsv" ] || echo "  $name: no output" >>"$tmp/$name.log"
}
get() { awk -F'\t' -v k="$2" '$1 == k { print $2 }' "$tmp/$1/summary.tsv" 2>/dev/null; }
cnps() { grep -o '"cnp": {"created": [0-9]*' "$tmp/$1/summary.json" 2>/dev/null | grep -o '[0-9]*$'; }
# cmp A OP B: numeric comparison that fails on empty values
cmp() { [ -n "$1" ] && [ -n "$3" ] && awk -v a="$1" -v b="$3" -v op="$2" \
        'BEGIN { exit !(op == ">" ? a > b : op == ">=" ? a >= b : op == "<" ? a < b : a <= b) }'; }
Q='port.sw->r0.queue_mean_bytes'
U='port.sw->r0.utilization'

run n100p $E/bcm-n100-p.ini $S
run n100d $E/bcm-n100-d.ini $S
ok n100.p_queue_above_d 'cmp "$(get n100p $Q)" ">" "$(get n100d $Q)"' "$tmp/n100p.log" "$tmp/n100d.log"

run n10p $E/bcm-n10-p.ini $S
run n10d $E/bcm-n10-d.ini $S
ok n10.d_sends_more_cnps 'cmp "$(cnps n10d)" ">" "$(( $(cnps n10p || echo 0) * 2 ))"' "$tmp/n10p.log" "$tmp/n10d.log"
ok n10.p_queue_above_d 'cmp "$(get n10p $Q)" ">" "$(get n10d $Q)"'

run percnp $E/bcm-n100-p-percnp.ini $S
ok cause.per_cnp_reaction_holds_link 'cmp "$(get percnp $U)" ">=" 0.99' "$tmp/percnp.log"
ok cause.periodic_rp_cycles 'cmp "$(get n100p $U)" "<=" 0.92'
run percnp_period $E/bcm-n100-p-percnp.ini $S --set dcqcn_bcm.decrease=period
ok cause.period_end_alone_cycles 'cmp "$(get percnp_period $U)" "<=" 0.95' "$tmp/percnp_period.log"

for a in dcqcn p d; do
    run inc-$a $E/bcm-incast100-$a.ini $I
    ok incast.$a.lossless '[ "$(get inc-$a drops)" = 0 ] && cmp "$(get inc-$a $U)" ">=" 0.97' "$tmp/inc-$a.log"
done
run inc-p-hold $E/bcm-incast100-p.ini $I --set dcqcn_bcm.silent_period=hold
ok incast.hold_fewer_xoff 'cmp "$(get inc-p-hold pfc_pauses)" "<" "$(get inc-p pfc_pauses)"' "$tmp/inc-p-hold.log"
