#!/usr/bin/env bash
# tests/scenario/routes.sh -- static routes in topology files (docs/escape.md
# "Static routes", docs/config.md "Topology file format") on the three-switch
# ring experiments/escape/ring3.topo (dissertation Fig. 4.6):
#   - the three flows h1->h3, h2->h1, h3->h2 go two hops clockwise: every
#     clockwise ring port sends 200 data frames + 100 ACKs, every
#     counter-clockwise one nothing; the same file without its routes sends
#     over the direct links (so the check can fail);
#   - a static route whose link fails drops (failure drops) instead of
#     falling back to the shortest path;
#   - bad route statements exit 2 naming file:line and the fault.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
R=experiments/escape/ring3.topo

scen() {   # scen FILE TOPO [EXTRA INI TEXT]
    cat >"$1" <<EOF2
[sim]
duration = 1ms
measure_start = 0ms
[network]
buffer = unlimited
[topology]
type = file
file = $2
[cc]
algorithm = none
[flows.a]
src = h1 h2 h3
dst = h3 h1 h2
pairing = zip
size = 100KB
${3:-}
EOF2
}
port() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print([p['tx_packets'] for p in d['ports'] if p['name']==sys.argv[2]][0])" "$@"; }
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

scen "$tmp/ring.ini" "$PWD/$R"
"$ROCCSIM" run "$tmp/ring.ini" -o "$tmp/ring" >"$tmp/ring.log" 2>&1
cw=$(for p in s1-\>s2 s2-\>s3 s3-\>s1; do port "$tmp/ring/summary.json" "$p"; done | tr '\n' ' ')
ccw=$(for p in s2-\>s1 s3-\>s2 s1-\>s3; do port "$tmp/ring/summary.json" "$p"; done | tr '\n' ' ')
ok clockwise_two_hops '[ "$cw" = "300 300 300 " ] && [ "$ccw" = "0 0 0 " ]' "$tmp/ring.log"
ok ring_completes '[ "$(jget "$tmp/ring/summary.json" "sum(f[\"delivered_bytes\"] == f[\"size_bytes\"] > 0 for f in d[\"flows\"])")" = 3 ]' "$tmp/ring.log"

grep -v '^route' "$R" >"$tmp/noroute.topo"
scen "$tmp/noroute.ini" "$tmp/noroute.topo"
"$ROCCSIM" run "$tmp/noroute.ini" -o "$tmp/noroute" >"$tmp/noroute.log" 2>&1
ok shortest_without_routes '[ "$(port "$tmp/noroute/summary.json" "s1->s3")" -gt 0 ] && [ "$(port "$tmp/noroute/summary.json" "s1->s2")" -lt 300 ]' "$tmp/noroute.log"

# s1 -> s2 fails at 0.2 ms while h1 sends to h3 without end: no fallback to
# s1 -> s3; every frame s1 receives for h3 afterwards is a failure drop.
cat >"$tmp/fail.ini" <<EOF2
[sim]
duration = 1ms
measure_start = 0ms
[network]
buffer = unlimited
[topology]
type = file
file = $PWD/$R
[cc]
algorithm = none
[flows.a]
src = h1
dst = h3
[events]
cut = 0.2ms down s1 s2
EOF2
"$ROCCSIM" run "$tmp/fail.ini" -o "$tmp/fail" >"$tmp/fail.log" 2>&1
fd=$(jget "$tmp/fail/summary.json" 'd["packets"]["failure_drops"]' 2>/dev/null || echo -1)
ok link_down_drops '[ "$(port "$tmp/fail/summary.json" "s1->s3")" = 0 ] && [ "$fd" -gt 500 ] && grep -q "conservation ok" "$tmp/fail.log"' "$tmp/fail.log"

# bad NAME 'ROUTE LINE' 'NEEDLE' -- ring3.topo plus the line (line 24) must
# fail with status 2 and "PATH:24: NEEDLE" on stderr.
bad() {
    { cat "$R"; echo "$2"; } >"$tmp/bad.topo"
    scen "$tmp/bad.ini" "$tmp/bad.topo"
    "$ROCCSIM" run "$tmp/bad.ini" -o "$tmp/bad_out" >"$tmp/bad.log" 2>&1
    local rc=$?
    ok "bad_$1" "[ $rc = 2 ] && grep -qF -- \"bad.topo:24: $3\" \"$tmp/bad.log\" && [ ! -e \"$tmp/bad_out\" ]" "$tmp/bad.log"
}
[ "$(wc -l <"$R")" = 23 ] || echo "FAIL routes.fixture: $R is no longer 23 lines (fix the line numbers)"
bad unknown_switch 'route s9 h3 s2' "route: unknown node 's9'"
bad not_switch 'route h1 h3 s1' "route: 'h1' is not a switch"
bad unknown_dst 'route s1 h9 s2' "route: unknown node 'h9'"
bad dst_not_host 'route s1 s3 s2' "route: destination 's3' is not a host"
bad unknown_next 'route s2 h3 s1,s7' "route: unknown next hop 's7'"
bad not_neighbour 'route s1 h2 h2' "route: next hop 'h2' is not a neighbour of 's1'"
bad host_next 'route s1 h2 h1' "route: next hop 'h1' is a host other than the destination 'h2'"
bad duplicate 'route s1 h3 s3' "route: a second route at 's1' for h3 (the first is on line 21)"
bad repeated_next 'route s2 h3 s1,s1' "route: next hop 's1' is listed twice"
bad syntax 'route s1 h3' "expected 'route SWITCH DST NEXT[,NEXT...]'"
bad star_host 'route s1 * h1' "route: next hop 'h1' is a host other than the destination"

# route s1 * s2 on the ring without its routes: every host but s1's own
# leaves s1 toward s2, so h1->h3 goes s1 -> s2 -> s3 and s1 -> s3 carries
# nothing; s1 -> s2 has h1->h3's 100 data frames and the 100 ACKs to h2.
{ cat "$tmp/noroute.topo"; echo 'route s1 * s2'; } >"$tmp/star.topo"
scen "$tmp/star.ini" "$tmp/star.topo"
"$ROCCSIM" run "$tmp/star.ini" -o "$tmp/star" >"$tmp/star.log" 2>&1
ok star_route '[ "$(port "$tmp/star/summary.json" "s1->s3")" = 0 ] && [ "$(port "$tmp/star/summary.json" "s1->s2")" = 200 ]' "$tmp/star.log"
