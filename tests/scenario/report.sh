#!/usr/bin/env bash
# The stdout report's flow-group table (docs/outputs.md): a group idle in the
# measurement window shows "-" and "(idle in the window)", not 0bps and nan;
# summary.json keeps 0 and null for it; an active group shows its rates.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
"$ROCCSIM" run tests/scenario/data/idle-group.ini -o "$tmp/run" >"$tmp/out.txt" 2>"$tmp/err.txt"; rc=$?
ok runs "[ $rc -eq 0 ]" "$tmp/out.txt" "$tmp/err.txt"
ok idle_group_dashes "grep -Eq '^  late +1 +- +- +- +- +\(idle in the window\)$' $tmp/out.txt" "$tmp/out.txt"
ok active_group_rates "grep -Eq '^  bulk +2 +[0-9.]+Gbps .* [01]\.[0-9]{4}$' $tmp/out.txt" "$tmp/out.txt"
ok no_nan_on_stdout "! grep -qw nan $tmp/out.txt" "$tmp/out.txt"
ok json_null_jain "grep -q '\"name\": \"late\".*\"rate_mean_bps\": 0,.*\"jain\": null' $tmp/run/summary.json" "$tmp/run/summary.json"
# fct.tsv: the last bin (above the last edge) has size_le "inf", not "inf0".
"$ROCCSIM" run tests/scenario/data/plot-small.ini -q -o "$tmp/bins" --set fct.bins=10KB >"$tmp/bins.log" 2>&1
ok fct_last_bin_inf "grep -qP '^all\t10000\tinf\t2\t' $tmp/bins/fct.tsv && ! grep -q inf0 $tmp/bins/fct.tsv" "$tmp/bins/fct.tsv" "$tmp/bins.log"
