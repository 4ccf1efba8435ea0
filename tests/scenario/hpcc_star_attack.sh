#!/usr/bin/env bash
# Forged direct INTs against HPCC* (experiments/crossdc/
# hpccstar-dint-attack.ini; docs/crossdc.md "Forged direct INTs"): h1 sends
# direct INTs claiming egress0's LSCC module (Q* = 100 MB, B = 1 Mb/s) to
# the four HPCC* sources from 15 to 30 ms.
#   - defence on (default [network] cnp_filter = true): every frame the
#     attacker sent is dropped at its edge switch (cnp_filtered_switch),
#     the sources take none, and flows.csv and flow_rate.csv are
#     byte-identical to a run where the attack only starts at 39 ms;
#   - defence off: the forged direct INTs are believed and the flows fall
#     under 5 Gb/s (so the run above shows the defence, not a harmless
#     attack);
#   - malformed direct INTs (kind = dint_malformed: B = 0 or nhop = 0),
#     defence off: every one reaches a source and is refused there
#     (cnp_filtered_host = sent; the B = 0 half also in hpcc_star's
#     direct_ints_refused), and the flows keep >= 9 Gb/s;
#   - bad [attack.*] input for the new kinds exits 2 naming the key.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
INI=experiments/crossdc/hpccstar-dint-attack.ini
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

"$ROCCSIM" run "$INI" -q -o "$tmp/on" >"$tmp/on.log" 2>&1
ok defence_on_no_effect '[ $? -eq 0 ]' "$tmp/on.log"
"$ROCCSIM" run "$INI" -q -o "$tmp/late" --set attack.dint.start=39ms --set attack.dint.stop=40ms >"$tmp/late.log" 2>&1
ok defence_on_byte_identical 'cmp -s "$tmp/on/flows.csv" "$tmp/late/flows.csv" && cmp -s "$tmp/on/flow_rate.csv" "$tmp/late/flow_rate.csv"' "$tmp/late.log"
ok defence_on_all_dropped_at_switch '[ "$(jget "$tmp/on/summary.json" "d[\"attacks\"][0][\"sent\"] > 10000 and d[\"attacks\"][0][\"sent\"] == d[\"packets\"][\"cnp_filtered_switch\"] and d[\"packets\"][\"cnp_filtered_host\"] == 0")" = True ]' "$tmp/on.log"

"$ROCCSIM" run "$INI" -q -o "$tmp/off" --set network.cnp_filter=false \
    --set 'expect.rate_mean bulk=<= 5Gbps' >"$tmp/off.log" 2>&1
ok defence_off_attack_works '[ $? -eq 0 ] && [ "$(jget "$tmp/off/summary.json" "d[\"packets\"][\"cnp_filtered_switch\"]")" = 0 ]' "$tmp/off.log"

"$ROCCSIM" run "$INI" -q -o "$tmp/bad" --set network.cnp_filter=false --set attack.dint.kind=dint_malformed >"$tmp/bad.log" 2>&1
ok malformed_no_effect '[ $? -eq 0 ]' "$tmp/bad.log"
ok malformed_refused_at_source '[ "$(jget "$tmp/bad/summary.json" "d[\"attacks\"][0][\"sent\"] > 10000 and d[\"attacks\"][0][\"sent\"] == d[\"packets\"][\"cnp_filtered_host\"] and d[\"hpcc_star\"][\"direct_ints_refused\"] == d[\"attacks\"][0][\"sent\"] // 2")" = True ]' "$tmp/bad.log"

bad() { bad_input "$INI" "$@"; }   # bad NAME EXPECTED_TEXT --set... (common.bash)
bad no_port "no switch port named 'egress9->egress1'" --set 'attack.dint.cp=egress9->egress1'
bad b_range "16777215 (B, Mb/s)" --set attack.dint.rate_units=16777216
bad size "only kind = junk has a size" --set attack.dint.size=100
