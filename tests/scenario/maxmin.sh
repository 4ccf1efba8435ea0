#!/usr/bin/env bash
# roccsim maxmin and the [expect] check maxmin_error (docs/maxmin.md):
#   - ECMP: the oracle follows the simulator's own hash (a seed where three
#     flows share one spine and one has the other to itself), and the run
#     agrees with it to within 1%;
#   - ACK overhead: two line-rate flows in opposite directions get the
#     hand-computed 40 * 1082 / 1168 Gb/s, in the oracle and in the run;
#   - maxmin.tsv has a header and one row per flow;
#   - the check can fail: a too tight tolerance, and a sized flow sending in
#     the window, both exit 1;
#   - a window in which flows start, a group without long-lived flows, a bad
#     --window and an unknown option are bad input (exit 2).
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
D=tests/scenario/data

"$ROCCSIM" maxmin $D/maxmin-ecmp.ini --set sim.seed=4 --run --paths -o "$tmp/ecmp4" >"$tmp/ecmp4.log" 2>&1
ok ecmp_exit '[ $? -eq 0 ]' "$tmp/ecmp4.log"
# oracle_bps is column 9: three flows at 10/3 Gb/s, one at 10 Gb/s
ok ecmp_collision '[ "$(cut -f9 "$tmp/ecmp4/maxmin.tsv" | tail -n +2 | sort | uniq -c | tr -s " " | sed "s/^ //" | tr "\n" ,)" = "1 10000000000,3 3333333333," ]' \
    "$tmp/ecmp4/maxmin.tsv"
ok ecmp_rows '[ "$(wc -l <"$tmp/ecmp4/maxmin.tsv")" -eq 5 ] && head -1 "$tmp/ecmp4/maxmin.tsv" | grep -q "^flow	name	group	src	dst	hops	cap_bps	bottleneck	oracle_bps	goodput_bps	measured_bps	error	path$"' \
    "$tmp/ecmp4/maxmin.tsv"
ok ecmp_measured 'awk -F"\t" "NR > 1 && !(\$12 < 0.01) { bad = 1 } END { exit bad }" "$tmp/ecmp4/maxmin.tsv"' \
    "$tmp/ecmp4/maxmin.tsv"
ok ecmp_paths 'grep -q "^x\[0\] *h0 leaf0 spine[01] leaf1 h4$" "$tmp/ecmp4.log"' "$tmp/ecmp4.log"
# the same through [expect], on another seed (two flows per spine)
"$ROCCSIM" run $D/maxmin-ecmp.ini --set sim.seed=1 -q -o "$tmp/ecmp1" >"$tmp/ecmp1.log" 2>&1
ok expect_pass '[ $? -eq 0 ] && grep -q "^PASS  maxmin_error all = <= 1%  measured max 0\.[0-9]*% over 4 flows" "$tmp/ecmp1.log"' \
    "$tmp/ecmp1.log"
"$ROCCSIM" run $D/maxmin-ecmp.ini --set sim.seed=1 --set 'expect.maxmin_error all=<= 0.0001%' -q -o "$tmp/tight" \
    >"$tmp/tight.log" 2>&1
ok expect_can_fail '[ $? -eq 1 ] && grep -q "^FAIL  maxmin_error all" "$tmp/tight.log"' "$tmp/tight.log"

"$ROCCSIM" maxmin $D/maxmin-ack.ini --run -o "$tmp/ack" >"$tmp/ack.log" 2>&1
ok ack_exit '[ $? -eq 0 ]' "$tmp/ack.log"
ok ack_oracle '[ "$(cut -f9 "$tmp/ack/maxmin.tsv" | tail -n +2 | sort -u)" = 37054794521 ]' "$tmp/ack/maxmin.tsv"
ok ack_goodput '[ "$(cut -f10 "$tmp/ack/maxmin.tsv" | tail -n +2 | sort -u)" = 34246575342 ]' "$tmp/ack/maxmin.tsv"
ok ack_measured 'awk -F"\t" "NR > 1 && !(\$12 < 0.005) { bad = 1 } END { exit bad }" "$tmp/ack/maxmin.tsv"' \
    "$tmp/ack/maxmin.tsv"

"$ROCCSIM" run $D/maxmin-mixed.ini -q -o "$tmp/mixed" >"$tmp/mixed.log" 2>&1
ok sized_flow_fails '[ $? -eq 1 ] && grep -q "FAIL  maxmin_error long .*1 sized flow sent in the window" "$tmp/mixed.log"' \
    "$tmp/mixed.log"
"$ROCCSIM" maxmin $D/maxmin-mixed.ini >"$tmp/mixed2.log" 2>&1
ok sized_flow_noted '[ $? -eq 0 ] && grep -q "note: 1 sized flow start" "$tmp/mixed2.log"' "$tmp/mixed2.log"

"$ROCCSIM" run experiments/rocc/convergence.ini --check --set 'expect.maxmin_error all @ 5ms..15ms=<= 1%' \
    >"$tmp/inside.log" 2>&1
ok window_inside_change '[ $? -eq 2 ] && grep -q "\[expect\] maxmin_error all @ 5ms..15ms: flow group .g2. starts at 10ms, inside the window" "$tmp/inside.log"' \
    "$tmp/inside.log"
"$ROCCSIM" run experiments/rocc/pfc-incast.ini --check --set 'expect.maxmin_error all=<= 1%' >"$tmp/none.log" 2>&1
ok no_long_lived '[ $? -eq 2 ] && grep -q "no long-lived flow in the window" "$tmp/none.log"' "$tmp/none.log"
"$ROCCSIM" maxmin $D/maxmin-ack.ini --window 2ms..1ms >"$tmp/badwin.log" 2>&1
ok bad_window '[ $? -eq 2 ] && grep -q "^roccsim: --window .2ms..1ms.: need T0..T1" "$tmp/badwin.log"' "$tmp/badwin.log"
"$ROCCSIM" maxmin $D/maxmin-ack.ini --bogus >"$tmp/badopt.log" 2>&1
ok bad_option '[ $? -eq 2 ] && grep -q "unknown option" "$tmp/badopt.log"' "$tmp/badopt.log"
"$ROCCSIM" maxmin --help >"$tmp/help.log" 2>&1
ok help '[ $? -eq 0 ] && grep -q "^usage: roccsim maxmin" "$tmp/help.log"' "$tmp/help.log"

# ACKs are a priority load: r0's flow to h0 is not frozen by sw->r0, where
# only its ACKs go (20/(1+a) and 40 - 2a * 20/(1+a) Gb/s, a = 86/1082)
"$ROCCSIM" maxmin $D/maxmin-coupled.ini --run -o "$tmp/coupled" >"$tmp/coupled.log" 2>&1
ok coupled_oracle '[ "$(cut -f9 "$tmp/coupled/maxmin.tsv" | tail -n +2 | tr "\n" ,)" = 18527397260,18527397260,37054794521, ]' \
    "$tmp/coupled/maxmin.tsv"
ok coupled_measured 'awk -F"\t" "NR > 1 && !(\$12 < 0.005) { bad = 1 } END { exit bad }" "$tmp/coupled/maxmin.tsv"' \
    "$tmp/coupled/maxmin.tsv"
