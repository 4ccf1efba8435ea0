#!/usr/bin/env bash
# tests/scenario/gfc.sh -- the flow-control scheme gfc (docs/escape.md "GFC"):
#   - experiments/escape/incast2-gfc.ini passes its expectations (2:1
#     incast paced to 20 Gb/s each, no PAUSE frame); the same run under pfc
#     sends PAUSE frames and no GFC frame (so the checks can tell them apart);
#   - experiments/escape/ring3-gfc-ci.ini passes its expectations (the ring
#     stops, lossless, no PAUSE frame) with zero-rate feedback at the top
#     level; with [gfc] at_bm = last_stage it does not stop but loses frames;
#   - two runs give byte-identical outputs;
#   - a leaf-spine incast whose shared buffer is smaller than the static
#     XOFF thresholds stays lossless (zero-rate feedback, no drop);
#   - bad [gfc] values and a gfc run without a lossless buffer
#     exit 2 naming the file, line and key.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
I=experiments/escape/incast2-gfc.ini

"$ROCCSIM" run "$I" -o "$tmp/g" >"$tmp/g.log" 2>&1
rc=$?
ok incast_expectations '[ $rc = 0 ] && grep -q "conservation ok" "$tmp/g.log"' "$tmp/g.log"
ok incast_gfc_frames '[ "$(jget "$tmp/g/summary.json" "d[\"packets\"][\"by_type\"][\"fctl\"][\"created\"]")" -gt 0 ] && [ "$(jget "$tmp/g/summary.json" "d[\"packets\"][\"by_type\"][\"pfc\"][\"created\"]")" = 0 ]' "$tmp/g.log"
"$ROCCSIM" run "$I" -o "$tmp/p" --set flowcontrol.scheme=pfc >"$tmp/p.log" 2>&1
ok incast_pfc_differs '[ "$(jget "$tmp/p/summary.json" "d[\"packets\"][\"by_type\"][\"pfc\"][\"created\"]")" -gt 100 ] && ! grep -q "\"fctl\"" "$tmp/p/summary.json"' "$tmp/p.log"
"$ROCCSIM" run "$I" -o "$tmp/g2" >"$tmp/g2.log" 2>&1
ok deterministic 'cmp -s "$tmp/g/summary.json" "$tmp/g2/summary.json" && cmp -s "$tmp/g/flows.csv" "$tmp/g2/flows.csv" && cmp -s "$tmp/g/queue.csv" "$tmp/g2/queue.csv"'

"$ROCCSIM" run experiments/escape/ring3-gfc-ci.ini -o "$tmp/r" >"$tmp/r.log" 2>&1
rc=$?
ok ring_expectations '[ $rc = 0 ] && grep -q "conservation ok" "$tmp/r.log"' "$tmp/r.log"
# The verified cause (docs/escape.md "Why the ring stops"): the stop comes
# with zero-rate feedback, every counter's top level N+1 reached.
ok ring_stops_at_rate_0 '[ "$(jget "$tmp/r/summary.json" "d[\"gfc\"][\"zero_rate_sent\"]")" -gt 0 ] && [ "$(jget "$tmp/r/summary.json" "d[\"gfc\"][\"max_level\"] == d[\"gfc\"][\"top_level\"]")" = True ]' "$tmp/r.log"
# at_bm = last_stage (rate never 0, C/(N+1) at Bm): no zero-rate frame, no
# deadlock, but frames are lost -- the what-if trades the deadlock for loss.
"$ROCCSIM" run experiments/escape/ring3-gfc-ci.ini -o "$tmp/rl" --set gfc.at_bm=last_stage >"$tmp/rl.log" 2>&1
ok ring_last_stage_loses '[ "$(jget "$tmp/rl/summary.json" "d[\"gfc\"][\"zero_rate_sent\"]")" = 0 ] && [ "$(jget "$tmp/rl/summary.json" "d[\"deadlock\"][\"detected\"]")" = False ] && [ "$(jget "$tmp/rl/summary.json" "d[\"packets\"][\"dropped\"]")" -gt 0 ] && grep -q "conservation ok" "$tmp/rl.log"' "$tmp/rl.log"

# bad NAME 'SET' 'NEEDLE': incast2-gfc.ini with --set SET exits 2 and
# names the key.
# A shared buffer smaller than the static XOFF thresholds (400 KB against
# 800 KB per 100G port): the MMU's pause point is the pool running out.
# GFC's Bm follows it and holds rate 0 while a counter uses headroom
# (docs/escape.md, "GFC"): lossless, as PFC is on the same fabric.  Before,
# GFC sent no feedback here and dropped 985 frames.
{ leafspine_topo 200us; cat <<'EOF'; } > "$tmp/pool.ini"

[network]
buffer = 400KB

[cc]
algorithm = none

[flowcontrol]
scheme = gfc

[flows.incast]
src = h2..h15
dst = h0
size = 100KB
EOF
"$ROCCSIM" run "$tmp/pool.ini" -o "$tmp/pool" >"$tmp/pool.log" 2>&1
ok pool_smaller_than_xoff_lossless '[ "$(jget "$tmp/pool/summary.json" "d[\"packets\"][\"dropped\"]")" = 0 ] &&
    [ "$(jget "$tmp/pool/summary.json" "d[\"gfc\"][\"zero_rate_sent\"] > 0")" = True ] &&
    [ "$(jget "$tmp/pool/summary.json" "d[\"packets\"][\"by_type\"][\"pfc\"][\"created\"]")" = 0 ] &&
    grep -q "conservation ok" "$tmp/pool.log"' "$tmp/pool.log"

bad() {
    "$ROCCSIM" run "$I" -o "$tmp/bad_out" --set "$2" >"$tmp/bad.log" 2>&1
    local rc=$?
    ok "bad_$1" "[ $rc = 2 ] && grep -qF -- \"$3\" \"$tmp/bad.log\" && [ ! -e \"$tmp/bad_out\" ]" "$tmp/bad.log"
}
bad start_100 'gfc.start=100%' '[gfc] start: start must be a whole percentage'
bad start_frac 'gfc.start=50.5%' '[gfc] start: start must be a whole percentage'
bad start_above_xoff 'gfc.start=600KB' 'does not fit under the XOFF threshold 500000 B of switch sw port 0'
bad start_junk 'gfc.start=lots' '[gfc] start: expected a size'
bad stages_0 'gfc.stages=0' '[gfc] stages: stages must be 1..250'
bad stages_251 'gfc.stages=251' '[gfc] stages: stages must be 1..250'
bad hyst_junk 'gfc.hysteresis=x' '[gfc] hysteresis: expected a size'
bad at_bm_junk 'gfc.at_bm=zero' '[gfc] at_bm: expected stop or last_stage'
bad lossy 'network.mode=lossy' '[flowcontrol] scheme: gfc needs [network] mode = lossless'
bad unlimited 'network.buffer=unlimited' '[flowcontrol] scheme: gfc needs [network] mode = lossless'
