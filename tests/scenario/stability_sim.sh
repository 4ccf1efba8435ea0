#!/usr/bin/env bash
# Closing the loop (docs/stability.md): `roccsim stability` predictions
# against short simulations of the fairness benchmark with [rocc]
# autotune = false and fixed gains (experiments/rocc/stability-closure.sh,
# eight 12 ms runs).  Fails if a clear-cut prediction (PM >= +20 deg stable,
# PM <= -45 deg unstable) disagrees with the simulated queue.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
export ROCCSIM
bash experiments/rocc/stability-closure.sh -o "$tmp/runs" >"$tmp/t.tsv" 2>&1; rc=$?
ok agree_exit_0 "[ $rc -eq 0 ] && ! grep -q 'NO\$' $tmp/t.tsv" "$tmp/t.tsv"
ok seven_clear_cut "[ \$(grep -c 'yes\$' $tmp/t.tsv) -eq 7 ]" "$tmp/t.tsv"
row() { grep -E "^$1	" "$tmp/t.tsv" | grep -q -- "$2"; }
ok stable_converges "row '2	0.3	1.5	false' 'stable	.*converges	yes'" "$tmp/t.tsv"
ok fig6_n10_oscillates "row '10	0.3	3	false' '-62.577	unstable	.*oscillates	yes'" "$tmp/t.tsv"
ok autotune_fixes_n16 "row '16	0.3	1.5	true' 'stable	.*converges	yes' && row '16	0.3	1.5	false' 'oscillates'" "$tmp/t.tsv"
# The check can fail: the paper's conservative pair is predicted stable
# (21 deg) but after the start-up MD to Fmin it climbs 2 dF per T and has
# not reached Qref in 12 ms ("unsettled"), which the script reports as a
# disagreement.
bash experiments/rocc/stability-closure.sh 2:0.0093:0.0937 >"$tmp/d.tsv" 2>&1; rc=$?
ok detects_disagreement "[ $rc -eq 1 ] && grep -q 'stable	.*unsettled	NO\$' $tmp/d.tsv" "$tmp/d.tsv"
# The key: a bad value is an error naming the key.
"$ROCCSIM" run experiments/rocc/stability-closure.ini --check --set rocc.autotune=maybe >"$tmp/b.txt" 2>&1; rc=$?
ok bad_autotune "[ $rc -eq 2 ] && grep -q '\[rocc\] autotune: expected true/false' $tmp/b.txt" "$tmp/b.txt"
