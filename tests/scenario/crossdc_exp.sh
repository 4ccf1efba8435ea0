#!/usr/bin/env bash
# tests/scenario/crossdc_exp.sh -- the LSCC experiments of issue 15
# (experiments/crossdc, docs/crossdc.md "Results"), at CI length: every
# file but the full-length fig9a-convergence.ini (scripts/reproduce.sh
# experiments/crossdc runs that one) must exit 0 -- its [expect] checks
# pin the numbers we verified, so a change in LSCC's or a baseline's
# dynamics fails here -- and print nothing on stderr but the §III-C
# guideline warning.  Also: the LSCC outputs (summary.json "lscc",
# lscc.csv) and the lscc_* metrics' refusal of a port without LSCC.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash

for ini in experiments/crossdc/*.ini; do
    name=$(basename "$ini" .ini)
    [ "$name" = fig9a-convergence ] && continue
    "$ROCCSIM" run "$ini" -q -o "$tmp/$name" >"$tmp/$name.out" 2>"$tmp/$name.err"
    rc=$?
    grep -v 'section III-C guideline' "$tmp/$name.err" >"$tmp/$name.err2"
    ok "$name" "[ $rc -eq 0 ] && [ ! -s $tmp/$name.err2 ] && [ -s $tmp/$name/summary.json ]" "$tmp/$name.out" "$tmp/$name.err"
done

# The LSCC outputs of the Fig. 8 run: both long-haul ports in summary.json
# with their window statistics, and the time series with one row per sample.
d=$tmp/fig8-stability
ok lscc_json "python3 -c \"
import json; d=json.load(open('$d/summary.json')); p={x['port']: x for x in d['lscc']['ports']}
w=p['egress1->egress0']['window']
assert w['samples'] == 751 and w['queue_max_bytes'] > w['queue_p99_bytes'] >= w['queue_p50_bytes']
assert p['egress0->egress1']['direct_cnps'] > 0 and p['egress0->egress1']['feedback_rcvd'] > 0
\"" "$d/summary.json"
ok lscc_csv "head -1 $d/lscc.csv | grep -q '^time_s,egress0->egress1/q,egress0->egress1/qstar,' && [ \$(wc -l <$d/lscc.csv) -eq 1502 ]"
ok lscc_guide_warning "grep -q 'dR 1000000000 b/s >= M\*T\*R_ai/T_i' $tmp/fig8-stability.err" "$tmp/fig8-stability.err"
"$ROCCSIM" run experiments/crossdc/fig8-stability.ini --check --set 'expect.lscc_rate dc0_core1->egress0=1Gbps' >"$tmp/bad.out" 2>&1
rc=$?
ok lscc_metric_port "[ $rc -eq 2 ] && grep -q 'is not a long-haul port running LSCC' $tmp/bad.out" "$tmp/bad.out"
# A value LSCC's check refuses is blamed on its [lscc] key (lscc_rc_params_blame).
"$ROCCSIM" run experiments/crossdc/fig8-stability.ini --check --set lscc.dr=900Gbps >"$tmp/bad2.out" 2>&1
rc=$?
ok lscc_key_blamed "[ $rc -eq 2 ] && grep -q '\[lscc\] dr: long-haul port egress0->egress1: dR must be <= rmax' $tmp/bad2.out" "$tmp/bad2.out"

# Two long-haul links (multilink.ini): a pair of modules per long-haul
# port, all four exchanging feedback, both local ones sending direct CNPs
# and taking the remote side's CNPs (which may return over the other link).
d=$tmp/multilink
ok multilink_modules "python3 -c \"
import json; d=json.load(open('$d/summary.json')); p={x['port']: x for x in d['lscc']['ports']}
assert sorted(p) == ['egress0->egress1', 'egress0->egress1#2', 'egress1->egress0', 'egress1->egress0#2'], sorted(p)
assert all(x['feedback_sent'] > 400 and x['feedback_rcvd'] > 400 for x in p.values())
assert all(p[k]['direct_cnps'] > 0 and p[k]['remote_cnps'] > 0 for k in ('egress0->egress1', 'egress0->egress1#2'))
\"" "$d/summary.json"

# scripts/crossdc-fct.sh --quick (experiment 5 at CI length): a table row
# per algorithm it knows, the unknown one reported and skipped, PFC only
# as the reference, LSCC beside the paper's numbers, unfinished flows
# counted, the buffer CDF written; a bad load exits 2.
q=$tmp/fct
ROCCSIM_PREBUILT=1 ROCCSIM=$ROCCSIM bash scripts/crossdc-fct.sh --quick -o "$q" --algos "pfc lscc nosuchalgo" -j 1 >"$q.out" 2>&1
rc=$?
ok fct_runs "[ $rc -eq 0 ] && grep -q \"skipping 'nosuchalgo'\" $q.out" "$q.out"
ok fct_table "awk -F'\t' 'NR == 1 { ok = \$5 == \"unfinished\" } \$3 == \"pfc\" && \$8 == \"+0.0%\" && \$13 == \"+0.0%\" && \$16 == \"1.000\" { p = 1 }
    \$3 == \"lscc\" && \$10 == \"-30..-65%\" && \$4 > 0 && \$5 ~ /^[0-9]+\$/ { l = 1 } END { exit !(ok && p && l) }' $q/table.tsv" "$q/table.tsv"
ok fct_buffer_cdf "[ \$(grep -c '^websearch 50 lscc ' $q/buffer_cdf.dat) -eq 101 ]"
# --seeds: SWING (two more switches, the relays) runs the same flows as PFC
# only in each seed (src/core/rng.h), the seeds differ, and summary.tsv has
# one row per algorithm over both seeds; --keep re-runs nothing that exists.
s=$tmp/fct-seeds
ROCCSIM_PREBUILT=1 ROCCSIM=$ROCCSIM bash scripts/crossdc-fct.sh --quick -o "$s" --algos "pfc swing" --seeds "1 2" -j 1 >"$s.out" 2>&1
rc=$?
ok fct_seeds_same_flows "[ $rc -eq 0 ] && ( for k in 1 2; do cmp -s <(cut -d, -f1-7 $s/websearch-50-pfc-s\$k/flows.csv) <(cut -d, -f1-7 $s/websearch-50-swing-s\$k/flows.csv) || exit 1; done ) && ! cmp -s $s/websearch-50-pfc-s1/flows.csv $s/websearch-50-pfc-s2/flows.csv" "$s.out"
ok fct_seeds_summary "awk -F'\t' '\$3 == \"swing\" && \$4 == 2 { n++ } \$3 == \"pfc\" && \$4 == 2 && \$7 == \"+0.0%\" { n++ } END { exit n != 2 }' $s/summary.tsv" "$s/summary.tsv"
touch -d '2000-01-01' "$s/websearch-50-swing-s2/summary.json"
ROCCSIM_PREBUILT=1 ROCCSIM=$ROCCSIM bash scripts/crossdc-fct.sh --quick -o "$s" --algos "pfc swing" --seeds "1 2" --keep -j 1 >"$s.keep.out" 2>&1
ok fct_keep "[ \$(date -r $s/websearch-50-swing-s2/summary.json +%Y) = 2000 ]" "$s.keep.out"
ROCCSIM_PREBUILT=1 ROCCSIM=$ROCCSIM bash scripts/crossdc-fct.sh --quick -o "$q-bad" --loads "fifty" >"$q-bad.out" 2>&1
rc=$?
ok fct_bad_load "[ $rc -eq 2 ] && grep -q 'a load is a number of percent' $q-bad.out" "$q-bad.out"
ROCCSIM_PREBUILT=1 ROCCSIM=$ROCCSIM bash scripts/crossdc-fct.sh --quick -o "$q-badw" --workloads "nope" >"$q-badw.out" 2>&1
rc=$?
ok fct_bad_workload "[ $rc -eq 2 ] && grep -q \"workload 'nope': no data/cdf/nope.cdf\" $q-badw.out && [ ! -e $q-badw/table.tsv ]" "$q-badw.out"
