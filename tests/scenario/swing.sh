#!/usr/bin/env bash
# tests/scenario/swing.sh -- the PFC-only baseline and SWING's PFC relay
# (docs/crossdc.md "PFC only", "SWING") on the cross-datacenter fabric,
# 4 senders of DC 0 into one 40G host of DC 1, no end-host CC, 14 ms:
#   - PFC only (longhaul_xoff = Qref = 5 MB): lossless, conservation ok;
#   - relays = yes, scheme = swing vs scheme = pfc on the same fabric: with
#     SWING the h16 link stays >= 99% busy, the far relay sends hundreds of
#     PAUSE frames over the long link (all relayed, none for its own
#     buffer), nothing is dropped; with pfc the link is < 99% busy and the
#     long link sees a handful of PAUSEs (so each check fails without SWING);
#   - relay_buffer too small (1 MB): the safety net pauses the long link
#     itself (own_xoff > 0), still lossless;
#   - bad input exits 2 naming the file, line and key.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
need_cmd python3 "reads summary.json"

jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
XDC_DURATION=14ms XDC_MEASURE=6ms   # xdc (common.bash): the 4 -> h16 scaffold
port() { echo "[p for p in d[\"ports\"] if p[\"name\"]==\"$1\"][0]"; }

xdc "$tmp/po.ini" $'[network]\nlonghaul_xoff = 5MB'
"$ROCCSIM" run "$tmp/po.ini" -o "$tmp/po" >"$tmp/po.log" 2>&1
rc=$?
ok pfc_only_lossless '[ $rc = 0 ] && grep -q "conservation ok" "$tmp/po.log" && [ "$(jget "$tmp/po/summary.json" "d[\"packets\"][\"dropped\"] == 0 and $(port "egress0->egress1")[\"pfc_xoff_received\"] > 0")" = True ]' "$tmp/po.log"

relays=$'relays = yes'
for s in swing pfc; do
    xdc "$tmp/$s.ini" "[flowcontrol]
scheme = $s"
    sed -i "s/^type = crossdc$/type = crossdc\n$relays/" "$tmp/$s.ini"
    "$ROCCSIM" run "$tmp/$s.ini" -o "$tmp/$s" >"$tmp/$s.log" 2>&1
    echo "$?" >"$tmp/$s.rc"
done
h16="$(port "dc1_edge0_0->h16")"
lh="$(port "relay1->relay0")"
ok swing_runs '[ "$(cat "$tmp/swing.rc")" = 0 ] && grep -q "conservation ok" "$tmp/swing.log"' "$tmp/swing.log"
ok swing_full_link '[ "$(jget "$tmp/swing/summary.json" "$h16[\"utilization\"] >= 0.99")" = True ]' "$tmp/swing.log"
ok pfc_not_full '[ "$(jget "$tmp/pfc/summary.json" "$h16[\"utilization\"] < 0.99")" = True ]' "$tmp/pfc.log"
ok swing_relays_pauses '[ "$(jget "$tmp/swing/summary.json" "$lh[\"pfc_xoff_sent\"] > 100 and $lh[\"pfc_xoff_sent\"] == d[\"swing\"][\"relayed_pause\"] and d[\"swing\"][\"own_xoff\"] == 0 and d[\"packets\"][\"dropped\"] == 0")" = True ]' "$tmp/swing.log"
ok pfc_few_pauses '[ "$(jget "$tmp/pfc/summary.json" "$lh[\"pfc_xoff_sent\"] < 100 and \"swing\" not in d")" = True ]' "$tmp/pfc.log"

xdc "$tmp/sm.ini" "[flowcontrol]
scheme = swing
[swing]
relay_buffer = 1MB"
sed -i "s/^type = crossdc$/type = crossdc\n$relays/" "$tmp/sm.ini"
"$ROCCSIM" run "$tmp/sm.ini" -o "$tmp/sm" >"$tmp/sm.log" 2>&1
ok small_relay_buffer_safety_net '[ "$(jget "$tmp/sm/summary.json" "d[\"swing\"][\"own_xoff\"] > 0 and d[\"packets\"][\"dropped\"] == 0")" = True ]' "$tmp/sm.log"

bad() {   # bad NAME MESSAGE EXTRA-INI [RELAYS]
    xdc "$tmp/$1.ini" "$3"
    [ -n "${4:-}" ] && sed -i "s/^type = crossdc$/type = crossdc\n$4/" "$tmp/$1.ini"
    "$ROCCSIM" run "$tmp/$1.ini" -o "$tmp/$1" >"$tmp/$1.log" 2>&1
    local rc=$?
    ok "$1" "[ $rc = 2 ] && grep -q \"$1.ini:[0-9]*: .*$2\" \"$tmp/$1.log\"" "$tmp/$1.log"
}
bad bad_no_relays "not a relay" $'[flowcontrol]\nscheme = swing'
bad bad_relay_buffer "relay_buffer must be > 0" $'[flowcontrol]\nscheme = swing\n[swing]\nrelay_buffer = 0' "$relays"
bad bad_relays_value "relays" "" "relays = maybe"
bad bad_relays_links "relays = yes needs longhaul_links = 1" "" 'relays = yes\nlonghaul_links = 2'
