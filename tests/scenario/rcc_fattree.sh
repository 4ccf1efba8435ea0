#!/usr/bin/env bash
# tests/scenario/rcc_fattree.sh -- scripts/rcc-fattree.sh --quick with RCC
# and HPCC (RCC Fig. 9-11, docs/rcc.md): it runs, the table has an average
# FCT for both with the unfinished flows beside it, RCC's reduction against
# HPCC is printed with the paper's 9% beside it, the FCT-by-size table has
# all five bins, and the figure's data file has one row.  An unknown
# algorithm is reported and skipped, not run.  Uses $ROCCSIM (about 30 s).
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
repo=$PWD
ROCCSIM_PREBUILT=1 ROCCSIM="$repo/$ROCCSIM" bash scripts/rcc-fattree.sh --quick --algos "rcc hpcc nosuchcc" \
    -o "$tmp/x" >"$tmp/x.log" 2>&1
rc=$?
t="$tmp/x/tables.txt"
ok runs '[ $rc -eq 0 ] && [ -s "$t" ]' "$tmp/x.log"
ok unknown_skipped 'grep -q "skipping .nosuchcc." "$tmp/x.log" && ! grep -q nosuchcc "$t"' "$tmp/x.log"
ok avg_both 'awk "\$1 == \"50%\" && \$2 ~ /^[0-9.]+/ && \$3 ~ /^\\[[0-9]+\\]/ && \$4 ~ /^[0-9.]+/ && \$5 ~ /^\\[[0-9]+\\]/ { n++ } END { exit n != 1 }" "$t"' "$t"
ok reduction 'grep -Eq "vs hpcc +ours [-+][0-9.]+% \(at 50%\) +paper 9%" "$t"' "$t"
ok size_bins '[ "$(grep -cE "^(<=10KB|<=100KB|<=1MB|<=10MB|>10MB) " "$t")" -eq 5 ]' "$t"
ok dat_row '[ "$(wc -l < "$tmp/x/fct_avg.dat")" -eq 1 ] && grep -q "^websearch 50% " "$tmp/x/fct_avg.dat"' "$tmp/x/fct_avg.dat"
