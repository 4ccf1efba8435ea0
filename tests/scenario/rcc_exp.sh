#!/usr/bin/env bash
# tests/scenario/rcc_exp.sh -- scripts/rcc-exp.sh --quick (the RCC paper's
# experiments, docs/rcc.md "Experiments"):
#   - it runs (exit 0) and writes a table with every section's rows;
#   - Fig. 5: RCC's Jain index is 1.0000 for N = 2, 3, 4, HPCC's below 0.99
#     for N = 2 and 3 (the paper's contrast);
#   - Figs. 6-7: RCC's incast FCT median and p99 beat HPCC's (gain > 0);
#   - Fig. 8a: both flows at 12.5 Gb/s for rcc and rcc_sender;
#   - Fig. 14 (§V-E ablations): 27 rows; RCC-EWA splits sw1->sw2 1:2 when
#     flow 3 joins (33.6 / 66.4 / 50.0) with a standing in-network queue
#     (> 40 KB) where RCC's is below 5 KB.
# The files' own [expect] sections run in tests/scenario/experiments.sh.
# It builds nothing: it uses $ROCCSIM (about 25 s).
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
repo=$PWD
ROCCSIM_PREBUILT=1 ROCCSIM="$repo/$ROCCSIM" bash scripts/rcc-exp.sh --quick -o "$tmp/x" >"$tmp/x.log" 2>&1
rc=$?
t="$tmp/x/table.tsv"
ok runs '[ $rc -eq 0 ] && [ -s "$t" ]' "$tmp/x.log"
ok rows '[ "$(awk -F"\t" "\$1 == \"fig5\"" "$t" | wc -l)" -eq 24 ] && [ "$(awk -F"\t" "\$1 == \"incast\"" "$t" | wc -l)" -eq 12 ] &&
         [ "$(awk -F"\t" "\$1 == \"fig8\"" "$t" | wc -l)" -eq 21 ]' "$t"
ok fig5_rcc_fair '[ "$(awk -F"\t" "\$2 ~ /^rcc N=/ && \$3 == \"Jain\" && \$5 == \"1.0000\"" "$t" | wc -l)" -eq 3 ]' "$t"
ok fig5_hpcc_unfair 'awk -F"\t" "\$2 ~ /^hpcc N=[23]/ && \$3 == \"Jain\" { n++; if (\$5 >= 0.99) bad = 1 } END { exit bad || n != 2 }" "$t"' "$t"
ok incast_gain 'awk -F"\t" "\$2 == \"rcc vs hpcc\" { n++; if (\$5 + 0 <= 0) bad = 1 } END { exit bad || n != 2 }" "$t"' "$t"
ok fig14_rows '[ "$(awk -F"\t" "\$1 == \"fig14\"" "$t" | wc -l)" -eq 27 ]' "$t"
ok fig14_ewa_split 'awk -F"\t" "\$2 == \"rcc_ewa all\" && \$3 ~ /^rates/ { split(\$5, r, \" \"); n++
    if (r[1] < 33 || r[1] > 34.2 || r[2] < 65.8 || r[2] > 67 || r[3] < 49.5 || r[3] > 50.5) bad = 1 } END { exit bad || n != 1 }" "$t"' "$t"
ok fig14_queues 'awk -F"\t" "\$3 == \"queue sw1->sw2\" && \$2 ~ / all\$/ { split(\$5, q, \" \"); v[\$2] = q[2] }
    END { exit !(v[\"rcc_ewa all\"] > 40 && v[\"rcc all\"] < 5 && v[\"rcc_pid all\"] < 5) }" "$t"' "$t"
ok fig8a_rates '[ "$(awk -F"\t" "\$2 ~ /^fig8a-/ && \$3 ~ /^rates/ && \$5 == \"12.50 12.50\"" "$t" | wc -l)" -eq 2 ]' "$t"
