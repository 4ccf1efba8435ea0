#!/usr/bin/env bash
# tests/scenario/deadlock.sh -- the deadlock detector ([flowcontrol]
# deadlock_check / deadlock_timeout, [expect] deadlock; docs/escape.md):
#   - ring3 with PFC and the three two-hop flows (tests/scenario/data/
#     deadlock-ring3.ini): detected, the cycle's three ports named in
#     summary.json and on the console, throughput zero, exit 0;
#   - the same ring with an unlimited buffer (no PFC), with shortest-path
#     routes, or with only two of the three flows (heavy PFC, no cycle):
#     none -- and [expect] deadlock = detected then fails (exit 1);
#   - a PFC incast (pauses, but progress) is not a deadlock;
#   - without deadlock_check summary.json has no "deadlock" member, and
#     [expect] deadlock is refused (exit 2).
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
D=tests/scenario/data/deadlock-ring3.ini
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

"$ROCCSIM" run "$D" -o "$tmp/ring" >"$tmp/ring.log" 2>&1
rc=$?
dl=$(jget "$tmp/ring/summary.json" '" ".join(d["deadlock"]["ports"]) + " %d %d" % (d["deadlock"]["detected"], d["deadlock"]["first_s"] <= 0.02)' 2>&1)
ok ring_detected '[ $rc = 0 ] && [ "$dl" = "s1->s2 s2->s3 s3->s1 1 1" ] && grep -q "deadlock: DETECTED at .*: s1->s2 s2->s3 s3->s1" "$tmp/ring.log"' "$tmp/ring.log"

none() {   # none NAME ARGS... -- no deadlock, and the "detected" expectation fails
    local name=$1
    shift
    "$ROCCSIM" run "$D" "$@" -o "$tmp/${name}x" >"$tmp/$name.log" 2>&1
    local rc=$?
    set -- "$name"
    ok "$1" "[ $rc = 1 ] && grep -q 'FAIL  deadlock .*measured none' '$tmp/$1.log' && [ \"\$(jget '$tmp/$1x/summary.json' 'd[\"deadlock\"][\"detected\"]')\" = False ]" "$tmp/$1.log"
}
none unlimited_buffer --set network.buffer=unlimited
grep -v '^route' experiments/escape/ring3.topo >"$tmp/sp.topo"
none shortest_paths --set "topology.file=$tmp/sp.topo"
none two_flows_no_cycle --set 'flows.ring.src=h1 h2' --set 'flows.ring.dst=h3 h1'
ok two_flows_paused 'grep -q "PFC: [1-9][0-9]* XOFF" "$tmp/two_flows_no_cycle.log"' "$tmp/two_flows_no_cycle.log"

"$ROCCSIM" run experiments/rocc/pfc-incast.ini --set flowcontrol.deadlock_check=50us -o "$tmp/inc" >"$tmp/inc.log" 2>&1
ok incast_not_deadlock 'grep -q "deadlock: none" "$tmp/inc.log" && grep -q "PFC: [1-9]" "$tmp/inc.log"' "$tmp/inc.log"
"$ROCCSIM" run experiments/rocc/pfc-incast.ini -o "$tmp/inc2" >"$tmp/inc2.log" 2>&1
ok off_by_default '! grep -q deadlock "$tmp/inc2/summary.json" "$tmp/inc2.log"' "$tmp/inc2.log"
"$ROCCSIM" run "$D" --set flowcontrol.deadlock_check=off -o "$tmp/off" >"$tmp/off.log" 2>&1
rc=$?
ok expect_needs_detector '[ $rc = 2 ] && grep -qF "deadlock-ring3.ini:31: [expect] deadlock: needs the deadlock detector" "$tmp/off.log"' "$tmp/off.log"
"$ROCCSIM" run "$D" --set flowcontrol.deadlock_check=2ms -o "$tmp/big" >"$tmp/big.log" 2>&1
rc=$?
ok period_above_timeout '[ $rc = 2 ] && grep -qF "deadlock_check: the check period must not exceed deadlock_timeout" "$tmp/big.log"' "$tmp/big.log"
