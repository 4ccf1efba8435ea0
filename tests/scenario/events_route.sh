#!/usr/bin/env bash
# tests/scenario/events_route.sh -- [events] route entries (docs/config.md
# "[events]"): a static route installed during the run, as the "bouncy"
# routes of the Escape fat-tree experiment (experiments/escape/
# fattree-failure-pfc.ini) need.
#   - on the ring experiments/escape/ring3.topo, h1 -> h3 goes s1 -> s2 -> s3
#     by its static route; `0.5ms route s1 h3 s3` moves it to the direct link
#     at 0.5 ms (utilization of both s1 ports before and after); the same run
#     without the event fails those checks (so they can fail);
#   - a route naming several next hops spreads flows over them (ECMP);
#   - bad entries exit 2 naming file:line and the fault.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
R=$PWD/experiments/escape/ring3.topo

scen() {   # scen FILE EVENTS-LINES EXPECT-LINES
    cat >"$1" <<EOF2
[sim]
duration = 1ms
measure_start = 0ms
[topology]
type = file
file = $R
[cc]
algorithm = none
[flows.a]
src = h1
dst = h3
count = 4
[events]
$2
[expect]
$3
EOF2
}
checks='util s1->s2 @ 0.1ms..0.5ms = >= 90%
util s1->s3 @ 0.1ms..0.5ms = <= 5%
util s1->s3 @ 0.6ms..1ms = >= 90%
util s1->s2 @ 0.6ms..1ms = <= 5%
drops = 0'
scen "$tmp/move.ini" "move = 0.5ms route s1 h3 s3" "$checks"
"$ROCCSIM" run "$tmp/move.ini" -o "$tmp/move" >"$tmp/move.log" 2>&1
ok route_moves_traffic '[ $? -eq 0 ]' "$tmp/move.log"
# Without the event (an event that changes nothing instead) the same checks fail.
scen "$tmp/stay.ini" "same = 0.5ms route s1 h3 s2" "$checks"
"$ROCCSIM" run "$tmp/stay.ini" -o "$tmp/stay" >"$tmp/stay.log" 2>&1
ok checks_can_fail '[ $? -eq 1 ] && [ "$(grep -c "^  FAIL" "$tmp/stay.log")" = 2 ]' "$tmp/stay.log"

# Two next hops: the four flows spread over both s1 ports after the event.
scen "$tmp/ecmp.ini" "both = 0.5ms route s1 h3 s2,s3" 'util s1->s2 @ 0.6ms..1ms = >= 10%
util s1->s3 @ 0.6ms..1ms = >= 10%'
"$ROCCSIM" run "$tmp/ecmp.ini" -o "$tmp/ecmp" >"$tmp/ecmp.log" 2>&1
ok route_ecmp '[ $? -eq 0 ]' "$tmp/ecmp.log"

# Bad entries: exit 2, the scenario's file:line and the fault.
bad() {   # bad NAME 'ENTRY' 'EXPECTED MESSAGE PART'
    local name=$1 msg=$3 rc
    scen "$tmp/$name.ini" "x = $2" "drops = 0"
    "$ROCCSIM" run "$tmp/$name.ini" --check >"$tmp/$name.log" 2>&1
    rc=$?
    ok "bad_$name" '[ $rc -eq 2 ] && grep -qF -- "$msg" "$tmp/$name.log" && grep -qF "$name.ini:14: [events] x:" "$tmp/$name.log"' "$tmp/$name.log"
}
bad arity '0.5ms route s1 h3' "expected 'TIME route SWITCH DST NEXT[,NEXT...]'"
bad star '0.5ms route s1 * s3' "an [events] route names one destination host"
bad unknown '0.5ms route s1 h9 s3' "no node named 'h9'"
bad unknown_hop '0.5ms route s1 h3 s2,s9' "no node named 's9'"
bad not_switch '0.5ms route h1 h3 s1' "'h1' is not a switch"
bad not_host '0.5ms route s1 s3 s2' "'s3' is not a host"
bad not_neighbour '0.5ms route s1 h3 h2' "next hop 'h2' is not a neighbour of 's1'"
bad twice '0.5ms route s1 h3 s2,s2' "next hop 's2' is listed twice"
bad late '2ms route s1 h3 s3' "bad time '2ms'"
bad verb '0.5ms reroute s1 h3 s3' "expected 'TIME down|up NODE NODE' or 'TIME route"
