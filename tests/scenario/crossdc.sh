#!/usr/bin/env bash
# tests/scenario/crossdc.sh -- the cross-datacenter fabric and long-haul
# links (docs/crossdc.md):
#   - [topology] type = crossdc: 4 senders of DC 0 into one 40G host of DC 1
#     without CC; PFC pauses the 1 ms long-haul link and its one-BDP headroom
#     absorbs the round trip: XOFF received at egress0->egress1, no drop; the
#     same run with longhaul_headroom = 1MB drops (so the check can fail);
#   - a topology file's 'longhaul' link builds where the same link without it
#     does not fit the buffer (exit 2, the message says so); an unknown link
#     option and longhaul_xoff = 0 exit 2 naming the file, line or key;
#   - [lscc]: see the section at the end.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash

jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
lh='[p for p in d["ports"] if p["name"]=="egress0->egress1"][0]'

xdc "$tmp/x.ini"
"$ROCCSIM" run "$tmp/x.ini" -o "$tmp/x" >"$tmp/x.log" 2>&1
rc=$?
ok run '[ $rc = 0 ] && grep -q "conservation ok" "$tmp/x.log"' "$tmp/x.log"
ok longhaul_paused_no_drop '[ "$(jget "$tmp/x/summary.json" "$lh[\"pfc_xoff_received\"] > 0 and d[\"packets\"][\"dropped\"] == 0")" = True ]' "$tmp/x.log"

xdc "$tmp/s.ini" $'[network]\nlonghaul_headroom = 1MB'
"$ROCCSIM" run "$tmp/s.ini" -o "$tmp/s" >"$tmp/s.log" 2>&1
ok small_headroom_drops '[ "$(jget "$tmp/s/summary.json" "d[\"packets\"][\"dropped\"] > 0")" = True ]' "$tmp/s.log"

xdc "$tmp/z.ini" $'[network]\nlonghaul_xoff = 0'
"$ROCCSIM" run "$tmp/z.ini" -o "$tmp/z" >"$tmp/z.log" 2>&1
rc=$?
ok xoff_zero_refused '[ $rc = 2 ] && grep -q "longhaul_xoff must be > 0" "$tmp/z.log"' "$tmp/z.log"

topo() {   # topo FILE LINK-OPTION
    cat >"$1" <<EOF2
host h0 h1
switch a b
link h0 a 40Gbps 1us
link h1 b 40Gbps 1us
link a b 200Gbps 1ms $2
EOF2
}
tini() {
    cat >"$1" <<EOF2
[sim]
duration = 3ms
measure_start = 0ms
[topology]
type = file
file = $2
[cc]
algorithm = none
[flows.a]
src = h0
dst = h1
size = 1MB
EOF2
}
topo "$tmp/lh.topo" longhaul
tini "$tmp/lh.ini" "$tmp/lh.topo"
"$ROCCSIM" run "$tmp/lh.ini" -o "$tmp/lh" >"$tmp/lh.log" 2>&1
rc=$?
ok file_longhaul '[ $rc = 0 ] && grep -q "conservation ok" "$tmp/lh.log"' "$tmp/lh.log"
topo "$tmp/nl.topo" ""
tini "$tmp/nl.ini" "$tmp/nl.topo"
"$ROCCSIM" run "$tmp/nl.ini" -o "$tmp/nl" >"$tmp/nl.log" 2>&1
rc=$?
ok file_plain_long_link_too_big '[ $rc = 2 ] && grep -q "smaller than its reserves and PFC headroom" "$tmp/nl.log"' "$tmp/nl.log"
topo "$tmp/bad.topo" longhual
tini "$tmp/bad.ini" "$tmp/bad.topo"
"$ROCCSIM" run "$tmp/bad.ini" -o "$tmp/bad" >"$tmp/bad.log" 2>&1
rc=$?
ok file_bad_option '[ $rc = 2 ] && grep -q "bad.topo:5: link: unknown option .longhual." "$tmp/bad.log"' "$tmp/bad.log"

# [lscc] (docs/crossdc.md): LSCC on both ends of the long-haul link, 20 ms
# of experiments/crossdc/fig8-stability.ini: one feedback frame per period
# T = 200 us from each end (2 x 100), every one taken by the other end's
# agent (fctl_refused 0); runs with normal_cnp_multiple = inf; refused on a
# fabric without a long-haul link and for a multiple of 0.
# Fig. 8's scenario without its [expect] section (those checks are for its
# full length; tests/scenario/crossdc_exp.sh runs them).
F8=$tmp/fig8.ini
sed '/^\[expect\]/,$d' experiments/crossdc/fig8-stability.ini >"$F8"
"$ROCCSIM" run "$F8" --set sim.duration=20ms --set sim.measure_start=10ms -o "$tmp/l" >"$tmp/l.log" 2>&1
rc=$?
ok lscc_run '[ $rc = 0 ] && grep -q "conservation ok" "$tmp/l.log"' "$tmp/l.log"
ok lscc_feedback '[ "$(jget "$tmp/l/summary.json" "(d[\"packets\"][\"by_type\"][\"fctl\"][\"created\"], d[\"packets\"][\"fctl_refused\"])")" = "(200, 0)" ]' "$tmp/l.log"
"$ROCCSIM" run "$F8" --set sim.duration=5ms --set sim.measure_start=1ms --set lscc.normal_cnp_multiple=inf -o "$tmp/li" >"$tmp/li.log" 2>&1
rc=$?
ok lscc_inf '[ $rc = 0 ]' "$tmp/li.log"
"$ROCCSIM" run "$F8" --set sim.duration=5ms --set sim.measure_start=1ms --set lscc.normal_cnp_multiple=0 -o "$tmp/l0" >"$tmp/l0.log" 2>&1
rc=$?
ok lscc_multiple_zero_refused '[ $rc = 2 ] && grep -q "normal_cnp_multiple.*1..1000000 or .inf." "$tmp/l0.log"' "$tmp/l0.log"
"$ROCCSIM" run "$tmp/lh.ini" --set lscc.enable=longhaul -o "$tmp/lf" >"$tmp/lf.log" 2>&1
rc=$?
ok lscc_file_longhaul '[ $rc = 0 ]' "$tmp/lf.log"
"$ROCCSIM" run tests/scenario/data/good.ini --set lscc.enable=longhaul -o "$tmp/ln" >"$tmp/ln.log" 2>&1
rc=$?
ok lscc_needs_longhaul '[ $rc = 2 ] && grep -q "no long-haul link" "$tmp/ln.log"' "$tmp/ln.log"

# experiments/crossdc/dp-scaled.ini (the data plane's LSCC test in roccsim,
# docs/crossdc.md "Data plane"), first 7.5 s: with two flows (3.8-5 s) and
# three (6.3-7.5 s) each within 25% of its fair share (30, 20 Mb/s; one run
# gave 27.5 x 2 and 20.3, 20.3, 19.5); the [dcqcn] overrides it uses are
# applied (with the paper's R_AI of 40 Mb/s on 60 Mb/s hosts the shares
# fail), and a bad one is refused naming the key.
DPS=experiments/crossdc/dp-scaled.ini
"$ROCCSIM" run "$DPS" --set sim.duration=7.5s -o "$tmp/dps" >"$tmp/dps.log" 2>&1
rc=$?
dps_shares() {  # DIR -> "ok" if every active flow is within 25% of its share in both windows
    awk -F, 'NR > 1 { t = $1 + 0
            if (t > 3.8 && t <= 5) { a1 += $2; a2 += $3; na++ }
            if (t > 6.3 && t <= 7.5) { b1 += $2; b2 += $3; b3 += $4; nb++ } }
        function near(x, f) { return x >= 0.75 * f && x <= 1.25 * f }
        END { if (!na || !nb) exit
              if (near(1000 * a1 / na, 30) && near(1000 * a2 / na, 30) && near(1000 * b1 / nb, 20) &&
                  near(1000 * b2 / nb, 20) && near(1000 * b3 / nb, 20)) print "ok"
              else printf "%.1f %.1f / %.1f %.1f %.1f\n", 1000*a1/na, 1000*a2/na, 1000*b1/nb, 1000*b2/nb, 1000*b3/nb }' "$1/flow_rate.csv"
}
ok dp_scaled_shares '[ $rc = 0 ] && [ "$(dps_shares "$tmp/dps")" = ok ]' "$tmp/dps.log"
"$ROCCSIM" run "$DPS" --set sim.duration=7.5s --set dcqcn.r_ai=40Mbps -o "$tmp/dpa" >"$tmp/dpa.log" 2>&1
ok dp_scaled_dcqcn_override_matters '[ "$(dps_shares "$tmp/dpa")" != ok ]' "$tmp/dpa.log"
"$ROCCSIM" run "$DPS" --set dcqcn.timer=fast -o "$tmp/dpb" >"$tmp/dpb.log" 2>&1
rc=$?
ok dp_scaled_bad_dcqcn_key '[ $rc = 2 ] && grep -q "timer" "$tmp/dpb.log"' "$tmp/dpb.log"
