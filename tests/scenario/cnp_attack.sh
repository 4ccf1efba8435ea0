#!/usr/bin/env bash
# Forged CNPs in the simulator (issue 11 part 5): experiments/security/
# cnp-attack.ini runs a host that injects CNPs claiming the real CP
# (spoof_cp), CNPs with a made-up CP id (fake_cp_id) and 20 Gb/s of junk
# ICMP-253 frames against one 40 Gb/s RoCC flow.
#   - defence on (the default [network] cnp_filter = true): the victim keeps
#     >= 38 Gb/s through every attack (the file's [expect]), and the switch
#     dropped every frame the attacker sent;
#   - defence off: each attack really works -- the two CNP attacks hold the
#     victim under 1 Gb/s, the junk under 30 Gb/s -- so the run above shows
#     the defence, not a harmless attack;
#   - bad [attack.*] input exits 2 naming the key.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
INI=experiments/security/cnp-attack.ini
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

"$ROCCSIM" run "$INI" -q -o "$tmp/on" >"$tmp/on.log" 2>&1
ok defence_on_no_effect '[ $? -eq 0 ]' "$tmp/on.log"
if [ -f "$tmp/on/summary.json" ]; then
    sent=$(jget "$tmp/on/summary.json" "sum(a['sent'] for a in d['attacks'])")
    filt=$(jget "$tmp/on/summary.json" "d['packets']['cnp_filtered_switch']")
    ok defence_on_all_dropped_at_switch '[ "$sent" -gt 0 ] && [ "$sent" = "$filt" ]' "$tmp/on.log"
fi

"$ROCCSIM" run "$INI" -q -o "$tmp/off" --set network.cnp_filter=false \
    --set 'expect.rate_mean victim @ 1.5ms..2ms=>= 38Gbps' \
    --set 'expect.rate_mean victim @ 2.5ms..4ms=<= 1Gbps' \
    --set 'expect.rate_mean victim @ 4.5ms..6ms=<= 1Gbps' \
    --set 'expect.rate_mean victim @ 6.5ms..8ms=<= 30Gbps' >"$tmp/off.log" 2>&1
ok defence_off_attacks_work '[ $? -eq 0 ]' "$tmp/off.log"
if [ -f "$tmp/off/summary.json" ]; then
    filt=$(jget "$tmp/off/summary.json" "d['packets']['cnp_filtered_switch']")
    ok defence_off_nothing_dropped '[ "$filt" = 0 ]' "$tmp/off.log"
fi

bad() { bad_input "$INI" "$@"; }   # bad NAME EXPECTED_TEXT --set... (common.bash)
bad no_cp "no RoCC CP on a port named 'nowhere'" --set 'attack.spoof.cp=nowhere'
bad rate_above_link "at most the host's link rate" --set 'attack.junk.rate=50Gbps'
bad not_a_host "no host named 'sw'" --set 'attack.spoof.from=sw'
bad real_id "is a real CP id" --set 'attack.fakeid.cp_id=0'
bad unknown_kind "kind" --set 'attack.spoof.kind=flood'
bad no_group "no flow group named 'nope'" --set 'attack.junk.target=nope'
