#!/usr/bin/env bash
# tests/scenario/escape_scheme.sh -- Escape as `[flowcontrol] scheme =
# escape` (docs/escape.md) on the three-switch ring:
#   - experiments/escape/ring-escape.ini meets its [expect] (no drop, no
#     retransmission, frames escaped, ring links >= 85% busy, every flow
#     >= 15 Gb/s); the same file with scheme = pfc deadlocks and fails them;
#   - in-order delivery: no NAK, no retransmission, order_risk 0;
#   - termination: sized flows complete and no token is outstanding after
#     the drain with the reclaim timer; without it (reclaim_interval = 0s)
#     leaked tokens exhaust the pools and the ring deadlocks again;
#   - the HPCC stress variant: Escape meets its checks, PFC alone deadlocks;
#   - the same run twice gives byte-identical outputs;
#   - bad [escape] keys exit 2 naming file, line and key.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
E=experiments/escape
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

"$ROCCSIM" run $E/ring-escape.ini -q -o "$tmp/esc" >"$tmp/esc.log" 2>"$tmp/esc.err"
rc=$?
ok ring_escape_expect '[ $rc -eq 0 ] && [ ! -s "$tmp/esc.err" ]' "$tmp/esc.log" "$tmp/esc.err"
"$ROCCSIM" run $E/ring-escape.ini -q -o "$tmp/esc2" >/dev/null 2>&1
same=yes
for f in "$tmp"/esc/*; do cmp -s "$f" "$tmp/esc2/$(basename "$f")" || same="no: $(basename "$f") differs"; done
ok ring_deterministic '[ "$same" = yes ]' "$tmp/esc.log"
"$ROCCSIM" run $E/ring-escape.ini -q -o "$tmp/pfc" --set flowcontrol.scheme=pfc >"$tmp/pfc.log" 2>&1
rc=$?
ok ring_pfc_deadlocks '[ $rc -eq 1 ] && grep -q "FAIL  rate ring" "$tmp/pfc.log" && [ "$(jget "$tmp/pfc/summary.json" "sum(f[\"delivered_bytes\"] for f in d[\"flows\"]) < 10**7")" = True ]' "$tmp/pfc.log"
ok ring_in_order '[ "$(jget "$tmp/esc/summary.json" "(d[\"packets\"][\"by_type\"][\"nack\"][\"created\"], d[\"escape\"][\"order_risk\"], d[\"escape\"][\"frames_escaped\"] > 1000)")" = "(0, 0, True)" ]' "$tmp/esc.log"

term() {   # term NAME RECLAIM
    cat >"$tmp/$1.ini" <<EOF2
[sim]
duration = 10ms
measure_start = 0ms
[topology]
type = file
file = $PWD/$E/ring3.topo
[cc]
algorithm = none
[flowcontrol]
scheme = escape
[escape]
reclaim_interval = $2
[flows.ring]
src = h1 h2 h3
dst = h3 h1 h2
pairing = zip
size = 4MB
[expect]
completed ring = 100%
escape_outstanding = 0
EOF2
    "$ROCCSIM" run "$tmp/$1.ini" -q -o "$tmp/$1" >"$tmp/$1.log" 2>&1
    rc=$?
}
# Sized flows on the ring: every token finds its frame at the first switch
# upstream (no token is lost), so the flows complete and nothing is
# outstanding, with or without the reclaim timer.
term drain 100us
ok termination_drain '[ $rc -eq 0 ] && [ "$(jget "$tmp/drain/summary.json" "(d[\"escape\"][\"tokens_dropped_pool\"], d[\"escape\"][\"tokens_ended\"], d[\"escape\"][\"tokens_unknown_flow\"], d[\"escape\"][\"frames_escaped\"] > 1000)")" = "(0, 0, 0, True)" ]' "$tmp/drain.log"
# Where tokens are lost (experiment 4's loop, thousands of short flows: a
# token whose flow has left the switch ends, case 3, leaving its origin's
# pool charged), the timer is what gives them back (§4.3.3(5)): without it
# the exit ports' pools run dry and the loop deadlocks.
L4="$E/loop4-ws.ini --set flowcontrol.scheme=escape"
"$ROCCSIM" run $L4 -q -o "$tmp/l4" >"$tmp/l4.log" 2>&1
ok termination_loop4_reclaims '[ "$(jget "$tmp/l4/summary.json" "(d[\"deadlock\"][\"detected\"], d[\"escape\"][\"reclaimed_timer\"] > 0, d[\"packets\"][\"dropped\"], d[\"in_order\"][\"out_of_order\"])")" = "(False, True, 0, 0)" ]' "$tmp/l4.log"
"$ROCCSIM" run $L4 --set escape.reclaim_interval=0s -q -o "$tmp/l4n" >"$tmp/l4n.log" 2>&1
ok termination_needs_reclaim '[ "$(jget "$tmp/l4n/summary.json" "(d[\"deadlock\"][\"detected\"], d[\"escape\"][\"tokens_outstanding_end\"] > 0)")" = "(True, True)" ]' "$tmp/l4n.log"
# C6: with FB_Hadoop's thousands of small flows tokens are lost all the
# time; giving back one token per interval (reclaim = one) leaves the exit
# ports' pools nearly dry and small flows unfinished at the end of the run,
# giving back all of a quiet port's charged tokens (reclaim = all, the
# default) finishes every flow of 10 KB or less.
L4F="$E/loop4-fb.ini --set flowcontrol.scheme=escape"
unfinished() { awk -F'\t' '$1 == "all" && $3 == 10000 { print $15 }' "$1/fct.tsv"; }
"$ROCCSIM" run $L4F -q -o "$tmp/f4" >"$tmp/f4.log" 2>&1
"$ROCCSIM" run $L4F --set escape.reclaim=one -q -o "$tmp/f4o" >"$tmp/f4o.log" 2>&1
ok reclaim_all_finishes_small '[ "$(unfinished "$tmp/f4")" = 0 ] && [ "$(unfinished "$tmp/f4o")" -gt 10 ] && [ "$(jget "$tmp/f4/summary.json" "(d[\"escape\"][\"reclaim\"] == \"all\", d[\"packets\"][\"dropped\"], d[\"in_order\"][\"out_of_order\"])")" = "(True, 0, 0)" ]' "$tmp/f4.log" "$tmp/f4o.log"

"$ROCCSIM" run $E/ring-hpcc-escape-xoff30k.ini -q -o "$tmp/h" >"$tmp/h.log" 2>&1
rc=$?
ok hpcc_stress_escape '[ $rc -eq 0 ]' "$tmp/h.log"
"$ROCCSIM" run $E/ring-hpcc-escape-xoff30k.ini -q -o "$tmp/hp" --set flowcontrol.scheme=pfc >"$tmp/hp.log" 2>&1
rc=$?
ok hpcc_stress_pfc_deadlocks '[ $rc -eq 1 ] && grep -q "FAIL  rate_mean first" "$tmp/hp.log"' "$tmp/hp.log"

bad() {   # bad NAME KEY=VALUE NEEDLE
    "$ROCCSIM" run $E/ring-escape.ini -q -o "$tmp/bad" --set "$2" >"$tmp/bad.log" 2>&1
    rc=$? needle=$3
    ok "$1" '[ $rc -eq 2 ] && grep -q -- "$needle" "$tmp/bad.log"' "$tmp/bad.log"
}
bad bad_pool escape.pool=0 "^roccsim: --set:[0-9]*: \[escape\] pool: must be 1..65535 frames, got 0"
bad bad_table escape.flow_table=lifo "\[escape\] flow_table: expected frames or flows"
bad bad_period escape.period=3 "\[escape\] period: expected a time"
bad bad_key escape.pools=3 "\[escape\] pools: unknown key"
bad bad_reclaim escape.reclaim=some "\[escape\] reclaim: expected one or all"
