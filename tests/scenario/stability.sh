#!/usr/bin/env bash
# roccsim stability (docs/stability.md): the papers' claims (RoCC §5, RCC §IV)
# as `stability check` PASS lines, values of single points, the tables'
# shape, bad arguments (exit 2), and plots when gnuplot is installed.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
S="$ROCCSIM stability"
$S check >"$tmp/check.txt" 2>&1; rc=$?
ok check_exit_0 "[ $rc -eq 0 ]" "$tmp/check.txt"
ok check_six_pass "[ \$(grep -c '^PASS' $tmp/check.txt) -eq 6 ] && ! grep -q '^FAIL' $tmp/check.txt" "$tmp/check.txt"
ok conservative_21deg "grep -q '^PASS  RoCC 5.2.*min 21.14 deg at N = 2' $tmp/check.txt" "$tmp/check.txt"
ok fig6_pair "grep -q '^PASS  RoCC Fig. 6.*N = 2: 49.32 deg, N = 10: -62.58 deg' $tmp/check.txt" "$tmp/check.txt"
ok autotune_band_40g "grep -q '^PASS  RoCC 5.3, 40G.*auto-tune 35.76 .. 42.66 deg' $tmp/check.txt" "$tmp/check.txt"
ok rcc_chosen_point "grep -q '^PASS  RCC.*39.80 deg' $tmp/check.txt" "$tmp/check.txt"
ok rcc_region_diff "grep -q '^DIFF  RCC Fig. 4 text: .*min -7.55 deg at Kp 10000, Kd 1000' $tmp/check.txt" "$tmp/check.txt"
# One point, by hand in tests/unit/test_stability.c: 0.3:3 at N = 2 and 10.
$S point --alpha 0.3 --beta 3 --n 2,10 >"$tmp/pt.txt" 2>&1
ok point_n2 "grep -Eq '^2	1	0.3	3	3.125e\+07	2380.95	13332.6	2121.96	49.319	[0-9.]+	stable$' $tmp/pt.txt" "$tmp/pt.txt"
ok point_n10 "grep -Eq '^10	1	.*	-62.577	[0-9.]+	unstable$' $tmp/pt.txt" "$tmp/pt.txt"
# Auto-tune in point mode divides by the level's ratio: N = 10 -> ratio 8.
$S point --alpha 0.3 --beta 1.5 --n 10 --auto-tune >"$tmp/pa.txt" 2>&1
ok point_autotune "grep -Eq '^10	8	0.0375	0.1875	' $tmp/pa.txt" "$tmp/pa.txt"
# Fig. 7 table: header with the six pairs and auto; 2 tables of the same rows.
$S n >"$tmp/n.txt" 2>&1
ok fig7_pairs "grep -q '^N	0.3:3	0.15:1.5	0.075:0.75	0.0375:0.375	0.01875:0.1875	0.009375:0.09375	auto$' $tmp/n.txt" "$tmp/n.txt"
ok fig7_rows "[ \$(grep -c '^128	' $tmp/n.txt) -eq 2 ]" "$tmp/n.txt"
# Suggest: the paper's ratio 5 at 30 deg gives 0.4434:2.217 whatever the link.
$S suggest --ratio 5 --pm 30 >"$tmp/sg.txt" 2>&1; rc=$?
ok suggest_ok "[ $rc -eq 0 ] && grep -q '^alpha~ = 0.4434, beta~ = 2.217' $tmp/sg.txt" "$tmp/sg.txt"
ok suggest_six_levels "[ \$(grep -Ec '^[1-6]	(1|2|4|8|16|32)	' $tmp/sg.txt) -eq 6 ]" "$tmp/sg.txt"
$S suggest --ratio 5 --pm 89 >"$tmp/sg2.txt" 2>&1; rc=$?
ok suggest_impossible "[ $rc -eq 1 ] && grep -q 'no alpha~' $tmp/sg2.txt" "$tmp/sg2.txt"
# Bad arguments: exit 2 and the option named.
$S point --alpha -1 >"$tmp/b1.txt" 2>&1; rc=$?
ok bad_alpha "[ $rc -eq 2 ] && grep -q -- '--alpha -1: must be > 0' $tmp/b1.txt" "$tmp/b1.txt"
$S warp >"$tmp/b2.txt" 2>&1; rc=$?
ok bad_mode "[ $rc -eq 2 ] && grep -q \"unknown rocc mode 'warp'\" $tmp/b2.txt" "$tmp/b2.txt"
$S sweep --alpha-range 1:0.1:5 >"$tmp/b3.txt" 2>&1; rc=$?
ok bad_range "[ $rc -eq 2 ] && grep -q 'want 0 < LO < HI' $tmp/b3.txt" "$tmp/b3.txt"
$S n --n 0:5 >"$tmp/b4.txt" 2>&1; rc=$?
ok bad_n "[ $rc -eq 2 ] && grep -q -- '--n 0:5' $tmp/b4.txt" "$tmp/b4.txt"
# LSCC's loop as a fluid model (src/cc/lscc_fluid.h): two rows, ideal
# sources hold Qcur at Qref (2 MB) and fill the link, DCQCN sources with
# every flow short (long flows from 4 GB) swing from empty to > 4 Qref.
$S lscc --long-flow inf >"$tmp/l.txt" 2>&1; rc=$?
ok lscc_exit_0 "[ $rc -eq 0 ] && [ \$(grep -Ec '^(dcqcn|ideal)	' $tmp/l.txt) -eq 2 ]" "$tmp/l.txt"
ok lscc_ideal_qref "awk -F'\t' '\$1==\"ideal\" && \$2>9.95 && \$2<10.05 && \$6>0.995 && \$7>1.98 && \$7<2.02 && \$11==1 {f=1} END {exit !f}' $tmp/l.txt" "$tmp/l.txt"
ok lscc_dcqcn_swings "awk -F'\t' '\$1==\"dcqcn\" && \$8<0.5 && \$9>8 && \$11<0.2 {f=1} END {exit !f}' $tmp/l.txt" "$tmp/l.txt"
$S lscc --sources ideal --series --duration 2ms >"$tmp/ls.txt" 2>&1; rc=$?
ok lscc_series "[ $rc -eq 0 ] && [ \$(grep -c '^ideal	' $tmp/ls.txt) -eq 10 ] && grep -q '^ideal	0.200	0	0	199.000	' $tmp/ls.txt" "$tmp/ls.txt"
$S lscc --dr 1500bps >"$tmp/lb1.txt" 2>&1; rc=$?
ok lscc_bad_dr "[ $rc -eq 2 ] && grep -q -- '--dr 1.5Kbps: rmin, rmax, dR and the initial rate must be multiples of the feedback unit' $tmp/lb1.txt" "$tmp/lb1.txt"
$S lscc --sources best >"$tmp/lb2.txt" 2>&1; rc=$?
ok lscc_bad_sources "[ $rc -eq 2 ] && grep -q -- '--sources best: want dcqcn, ideal or both' $tmp/lb2.txt" "$tmp/lb2.txt"
$S lscc --step 3us >"$tmp/lb3.txt" 2>&1; rc=$?
ok lscc_bad_step "[ $rc -eq 2 ] && grep -q -- '--delay 1ms, --step 3us: the one-way delay must be a multiple of the step' $tmp/lb3.txt" "$tmp/lb3.txt"
$S lscc --delay 100ms >"$tmp/lb7.txt" 2>&1; rc=$?
ok lscc_bad_delay "[ $rc -eq 2 ] && grep -q -- '--delay 100ms, --period 200us: N = round(2D/T) must be in 1..256' $tmp/lb7.txt" "$tmp/lb7.txt"
$S lscc --flows 1024 --duration 60s >"$tmp/lb8.txt" 2>&1; rc=$?
ok lscc_bad_work "[ $rc -eq 2 ] && grep -q -- '--flows 1024, --duration 60s, --step 1us: (flows + 1) x duration / step must be at most 2e9' $tmp/lb8.txt" "$tmp/lb8.txt"
$S lscc --duration 2ms >"$tmp/lw.txt" 2>&1; rc=$?
ok lscc_warns_long_flows "[ $rc -eq 0 ] && grep -q 'warning: the model has no ECN' $tmp/lw.txt" "$tmp/lw.txt"
$S lscc --flows 2 --stagger 300ms >"$tmp/lb6.txt" 2>&1; rc=$?
ok lscc_bad_stagger "[ $rc -eq 2 ] && grep -q -- '--start 0s, --stagger 300ms, --duration 300ms: every source must start before the end of the run' $tmp/lb6.txt" "$tmp/lb6.txt"
# The model's own checks name the options that set what they refuse
# (lscc_fluid_params_blame), with the values used.
$S lscc --long-haul 200Gbps --dr 300Gbps >"$tmp/lb9.txt" 2>&1; rc=$?
ok lscc_bad_dr_range "[ $rc -eq 2 ] && grep -q -- '--long-haul 200Gbps, --dr 300Gbps: dR must be <= rmax' $tmp/lb9.txt" "$tmp/lb9.txt"
$S lscc --long-haul 20Tbps >"$tmp/lb10.txt" 2>&1; rc=$?
ok lscc_bad_long_haul "[ $rc -eq 2 ] && grep -q -- '--long-haul 20Tbps: rmax / dF must fit the 24-bit feedback field' $tmp/lb10.txt" "$tmp/lb10.txt"
$S lscc --flows 0 >"$tmp/lb11.txt" 2>&1; rc=$?
ok lscc_bad_flows "[ $rc -eq 2 ] && grep -q -- '--flows 0: flows must be in 1..1024' $tmp/lb11.txt" "$tmp/lb11.txt"
$S lscc --duration 61s >"$tmp/lb12.txt" 2>&1; rc=$?
ok lscc_bad_duration "[ $rc -eq 2 ] && grep -q -- '--duration 61s: duration must be in (0, 60s]' $tmp/lb12.txt" "$tmp/lb12.txt"
$S lscc --flows >"$tmp/lb4.txt" 2>&1; rc=$?
ok lscc_missing_arg "[ $rc -eq 2 ] && grep -q -- '--flows needs an argument' $tmp/lb4.txt" "$tmp/lb4.txt"
$S lscc --delay 1ms --warp 1 >"$tmp/lb5.txt" 2>&1; rc=$?
ok lscc_unknown_opt "[ $rc -eq 2 ] && grep -q \"unknown option '--warp'\" $tmp/lb5.txt" "$tmp/lb5.txt"
if need_cmd gnuplot "stability --plot draws with gnuplot"; then
    $S n --plot "$tmp/fig/f7" >"$tmp/p.txt" 2>&1; rc=$?
    ok plot_files "[ $rc -eq 0 ] && [ -s $tmp/fig/f7.png ] && [ -s $tmp/fig/f7.svg ]" "$tmp/p.txt"
    $S rcc sweep --plot "$tmp/fig/f4" >"$tmp/p4.txt" 2>&1; rc=$?
    ok plot_rcc "[ $rc -eq 0 ] && [ -s $tmp/fig/f4.png ]" "$tmp/p4.txt"
fi
