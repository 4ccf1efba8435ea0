#!/usr/bin/env bash
# HPCC's fairness (docs/baselines.md): with the default W_AI (N = 100 in
# W_init (1 - eta)/N) the RoCC Fig. 11 run stays unfair -- INT's queue term
# makes flows below line rate see a slightly higher U than the largest flow,
# and a 16 B/RTT additive step cannot undo it -- while a larger step
# (w_ai_flows = 30) converges.  Both are checked so the cause stays known.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
jain() { awk -F'\t' '$1 == "group.bulk.jain" { print $2 }' "$1/summary.tsv"; }
"$ROCCSIM" run experiments/compare/fig11-hpcc.ini -q -o "$tmp/n100" >/dev/null 2>&1
"$ROCCSIM" run experiments/compare/fig11-hpcc.ini -q -o "$tmp/n30" --set hpcc.w_ai_flows=30 >/dev/null 2>&1
ok default_w_ai_unfair "awk -v j=\$(jain $tmp/n100) 'BEGIN { exit !(j < 0.9) }'"
ok larger_w_ai_fair "awk -v j=\$(jain $tmp/n30) 'BEGIN { exit !(j >= 0.99) }'"
