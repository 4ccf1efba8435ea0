#!/usr/bin/env bash
# Generated traffic on a datacenter fabric ([traffic.*] sections, issue 4):
# the run completes, conserves packets, reports FCTs with no slowdown below
# 1 (the ideal FCT is a lower bound by construction), is deterministic, and
# its flows survive a round trip through an HPCC flow file.
set -u
cd "$(dirname "$0")/../.."
ini=tests/scenario/data/traffic-rocc-fattree.ini
. tests/scenario/common.bash
"$ROCCSIM" run "$ini" -q -o "$tmp/a" >"$tmp/a.log" 2>&1; rc=$?
ok runs "[ $rc -eq 0 ] && [ -s $tmp/a/summary.json ] && grep -q '^PASS  slowdown_avg' $tmp/a.log" "$tmp/a.log"
ok conservation "grep -q '\"conservation\": \"ok\"' $tmp/a/summary.json"
ok no_slowdown_below_1 "grep -q '\"slowdown_below_1\": 0,' $tmp/a/summary.json"
ok has_incast_bins "grep -q '\"traffic\": \"incast\"' $tmp/a/summary.json"
ok flows_generated "[ \$(wc -l < $tmp/a/flows.csv) -gt 1000 ]"
"$ROCCSIM" run "$ini" -q -o "$tmp/b" >/dev/null 2>&1
ok deterministic "cmp -s $tmp/a/flows.csv $tmp/b/flows.csv && cmp -s $tmp/a/summary.json $tmp/b/summary.json"
"$ROCCSIM" run "$ini" -q -o "$tmp/c" --set sim.seed=7 >/dev/null 2>&1
ok seed_changes_traffic "! cmp -s $tmp/a/flows.csv $tmp/c/flows.csv"
# HPCC flow-file round trip: export the generated flows, import them.
"$ROCCSIM" run "$ini" -q -o "$tmp/e" --set output.hpcc_flows=true >/dev/null 2>&1
printf '[sim]\nduration = 5ms\nmeasure_start = 1ms\n[topology]\ntype = rocc_fattree\n[traffic.imported]\npattern = hpcc_file\nfile = %s\n' "$tmp/e/flows.txt" > "$tmp/imp.ini"
"$ROCCSIM" run "$tmp/imp.ini" -q -o "$tmp/i" >"$tmp/i.log" 2>&1; rc=$?
ok hpcc_flow_file_round_trip "[ $rc -eq 0 ] && [ \$(head -1 $tmp/e/flows.txt) -eq \$((\$(wc -l < $tmp/i/flows.csv) - 1)) ]" "$tmp/i.log"
# Every algorithm runs the same generated traffic.
for a in dcqcn hpcc; do
    "$ROCCSIM" run "$ini" -q -o "$tmp/$a" --set cc.algorithm=$a >"$tmp/$a.log" 2>&1; rc=$?
    ok "runs_$a" "[ $rc -eq 0 ] && grep -q '\"slowdown_below_1\": 0,' $tmp/$a/summary.json" "$tmp/$a.log"
done
# Bad traffic sections: exit 2 with file, line and key.
printf '[sim]\nduration = 1ms\n[topology]\ntype = fattree\nk = 4\n[traffic.x]\ncdf = nosuch\nload = 50%%\n' > "$tmp/bad1.ini"
"$ROCCSIM" run "$tmp/bad1.ini" -o "$tmp/bad1" >"$tmp/bad1.log" 2>&1; rc=$?
ok bad_cdf_name "[ $rc -eq 2 ] && grep -q 'bad1.ini:7: \[traffic.x\] cdf' $tmp/bad1.log && [ ! -d $tmp/bad1 ]" "$tmp/bad1.log"
printf '[sim]\nduration = 1ms\n[topology]\ntype = fattree\nk = 4\n[traffic.x]\ncdf = websearch\nload = 150%%\n' > "$tmp/bad2.ini"
"$ROCCSIM" run "$tmp/bad2.ini" -o "$tmp/bad2" >"$tmp/bad2.log" 2>&1; rc=$?
ok bad_load "[ $rc -eq 2 ] && grep -q 'bad2.ini:8: \[traffic.x\] load' $tmp/bad2.log" "$tmp/bad2.log"
printf '[sim]\nduration = 1ms\n[topology]\ntype = fattree\nk = 5\n[traffic.x]\ncdf = websearch\nload = 50%%\n' > "$tmp/bad3.ini"
"$ROCCSIM" run "$tmp/bad3.ini" -o "$tmp/bad3" >"$tmp/bad3.log" 2>&1; rc=$?
ok bad_fattree_k "[ $rc -eq 2 ] && grep -qi 'even' $tmp/bad3.log" "$tmp/bad3.log"
