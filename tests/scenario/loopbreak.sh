#!/usr/bin/env bash
# tests/scenario/loopbreak.sh -- the flow-control schemes loop_breaker and
# deadlock_breaker (docs/escape.md "Loop Breaker and Deadlock Breaker") on
# the three-switch deadlock ring (experiments/escape/ring3-{lb,dlb}.ini):
#   - PFC alone on the same ring deadlocks: the deadlock detector reports
#     it and no flow finishes (so the checks below can fail);
#   - Loop Breaker: loops confirmed, the deadlock detector finds none (the
#     files' [expect]), every flow finishes, its drops are all
#     accounted as scheme drops (summary.json packets.fc_drops ==
#     loop_breaker.drops == data frames dropped), resent, and no lossless-
#     drop warning; one master per loop (only s3, the largest id, drops);
#   - Deadlock Breaker: every flow finishes without a single drop;
#   - a chain of pauses that is no cycle (incast through two switches with
#     a short suspect_time): tokens go out and die at the chain's end, no
#     loop is confirmed and nothing is dropped;
#   - bad [loop_breaker]/[deadlock_breaker] values exit 2 naming the key.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
E=experiments/escape
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
done3() { jget "$1/summary.json" 'sum(f["delivered_bytes"] == f["size_bytes"] > 0 for f in d["flows"])'; }

"$ROCCSIM" run $E/ring3-lb.ini --set flowcontrol.scheme=pfc -o "$tmp/pfc" >"$tmp/pfc.log" 2>&1
ok pfc_alone_deadlocks '[ "$(done3 "$tmp/pfc")" = 0 ] && ! grep -q loop_breaker "$tmp/pfc/summary.json" && grep -q "deadlock: DETECTED" "$tmp/pfc.log"' "$tmp/pfc.log"

"$ROCCSIM" run $E/ring3-lb.ini -o "$tmp/lb" >"$tmp/lb.log" 2>&1; rc=$?
ok lb_resolves '[ $rc = 0 ] && [ "$(done3 "$tmp/lb")" = 3 ] && [ "$(jget "$tmp/lb/summary.json" "d[\"loop_breaker\"][\"loops\"]")" -ge 1 ]' "$tmp/lb.log"
ok lb_drops_accounted '[ "$(jget "$tmp/lb/summary.json" "(d[\"packets\"][\"fc_drops\"], d[\"loop_breaker\"][\"drops\"]) == (d[\"packets\"][\"by_type\"][\"data\"][\"dropped\"],) * 2 and d[\"loop_breaker\"][\"drops\"] > 0")" = True ] && ! grep -q "dropped in lossless mode" "$tmp/lb.log" && grep -q "conservation ok" "$tmp/lb.log"' "$tmp/lb.log"
ok lb_one_master '[ "$(jget "$tmp/lb/summary.json" "\" \".join(p[\"name\"] for p in d[\"ports\"] if p[\"drops\"])")" = "s3->s1" ]' "$tmp/lb.log"

"$ROCCSIM" run $E/ring3-dlb.ini -o "$tmp/dlb" >"$tmp/dlb.log" 2>&1; rc=$?
ok dlb_resolves_lossless '[ $rc = 0 ] && [ "$(done3 "$tmp/dlb")" = 3 ] && [ "$(jget "$tmp/dlb/summary.json" "(d[\"loop_breaker\"][\"loops\"] >= 1, d[\"loop_breaker\"][\"grants\"] >= 3, d[\"packets\"][\"dropped\"])")" = "(True, True, 0)" ]' "$tmp/dlb.log"

# A paused chain without a cycle: h1, h2 -> s1 -> s2 -> h3 at 40 Gb/s with a
# 10 Gb/s last link: s1->s2 is paused for tens of microseconds at a time.
cat >"$tmp/chain.topo" <<'EOF2'
host h1 h2 h3
switch s1 s2
link h1 s1 40Gbps 1us
link h2 s1 40Gbps 1us
link s1 s2 40Gbps 1us
link s2 h3 10Gbps 1us
EOF2
cat >"$tmp/chain.ini" <<EOF2
[sim]
duration = 5ms
[topology]
type = file
file = $tmp/chain.topo
[cc]
algorithm = none
[flowcontrol]
scheme = loop_breaker
[loop_breaker]
suspect_time = 10us
tick = 2us
[flows.a]
src = h1 h2
dst = h3 h3
pairing = zip
EOF2
"$ROCCSIM" run "$tmp/chain.ini" -o "$tmp/chain" >"$tmp/chain.log" 2>&1
ok chain_no_false_loop '[ "$(jget "$tmp/chain/summary.json" "(d[\"loop_breaker\"][\"tokens\"][\"originated\"] > 0, d[\"loop_breaker\"][\"tokens\"][\"dead_end\"] > 0, d[\"loop_breaker\"][\"loops\"], d[\"packets\"][\"dropped\"])")" = "(True, True, 0, 0)" ]' "$tmp/chain.log"

bad() {   # bad NAME PATTERN ARGS...: exit 2 with PATTERN in the message
    local name=$1 pat=$2; shift 2
    "$ROCCSIM" run "$@" --check >"$tmp/$name.log" 2>&1; local rc=$?
    ok "$name" '[ $rc = 2 ] && grep -q -- "$pat" "$tmp/$name.log"' "$tmp/$name.log"
}
bad bad_max_hops 'max_hops must be 2..255' $E/ring3-lb.ini --set loop_breaker.max_hops=1
bad bad_extra_buffer 'extra_buffer must be' $E/ring3-dlb.ini --set deadlock_breaker.extra_buffer=0B
bad bad_suspect 'suspect_time' $E/ring3-lb.ini --set loop_breaker.suspect_time=0us
bad bad_lossy 'needs a lossless fabric' $E/ring3-lb.ini --set network.mode=lossy
bad bad_key_typo 'suspect_tme' $E/ring3-lb.ini --set loop_breaker.suspect_tme=1ms
