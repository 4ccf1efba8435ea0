#!/usr/bin/env bash
# Every algorithm under a 2:1 and a 10:1 incast with PFC (issue 3): no drop,
# the bottleneck used, the flows near the fair share (Jain index over the
# last 20 ms of 50), and every algorithm behaving differently from the
# others.  Thresholds are per algorithm, from its own behaviour (measured
# values in docs/baselines.md):
#   - DCQCN-p/-d keep utilization lower (their conservative increase),
#   - QCN, DCTCP (window) and HPCC converge to fairness slowly or not at 10:1
#     (HPCC measured Jain 0.72 -- an open discrepancy, docs/baselines.md);
#     QCN's 10:1 Jain index spreads 0.82-0.92 over seeds 1-6 (the order of
#     simultaneous events moves it: 0.885 under the old insertion-order
#     ties, docs/architecture.md "Event order and ownership"), so its bound
#     is 0.80;
#   - the Jain index of DCQCN at 2:1 and TIMELY at 10:1 depends on the start
#     draws (start_jitter): over seeds 1-8 DCQCN's 2:1 spreads 0.9885-1.0
#     (bound 0.98), over seeds 1-10 TIMELY's 10:1 is either fair (0.96-1.00)
#     or stuck unfair (0.52-0.72), about half and half, as before the flow
#     generators got their own streams (src/core/rng.h), which moved seed
#     1's starts: TIMELY's gradient rule has no unique fixed point
#     (CoNEXT'16), so its 10:1 bound is 0.50 (docs/baselines.md).
set -u
cd "$(dirname "$0")/../.."
ROCCSIM=${ROCCSIM:-build/roccsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
#            algo            util2 jain2  util10 jain10
cases="rocc            0.99  0.999  0.99   0.999
dcqcn           0.98  0.98   0.98   0.98
dcqcn_pi        0.98  0.99   0.97   0.98
dcqcn_p         0.90  0.99   0.83   0.99
dcqcn_d         0.90  0.99   0.83   0.99
qcn             0.97  0.90   0.97   0.80
timely          0.95  0.99   0.93   0.50
timely_patched  0.99  0.99   0.99   0.99
hpcc            0.94  0.99   0.93   0.65
dctcp           0.97  0.99   0.98   0.99
dctcp_window    0.99  0.90   0.99   0.90"
get() { awk -F'\t' -v k="$2" '$1 == k { print $2 }' "$1"; }
check() {   # name file key op bound
    local v; v=$(get "$2" "$3")
    if [ -n "$v" ] && awk -v v="$v" -v b="$5" -v op="$4" 'BEGIN { exit !(op == ">=" ? v >= b : v == b) }'; then
        echo "PASS incast.$1"
    else
        echo "FAIL incast.$1 ($3 = ${v:-missing}, wanted $4 $5)"
    fi
}
while read -r algo u2 j2 u10 j10; do
    for n in 2 10; do
        if [ $n = 2 ]; then u=$u2; j=$j2; else u=$u10; j=$j10; fi
        d="$tmp/$algo-$n"
        "$ROCCSIM" run tests/scenario/data/incast-$n.ini -q -o "$d" --set cc.algorithm="$algo" >"$d.log" 2>&1
        if [ ! -f "$d/summary.tsv" ]; then echo "FAIL incast.$algo.$n (no output)"; cat "$d.log"; continue; fi
        check "$algo.$n.no_drop" "$d/summary.tsv" drops == 0
        check "$algo.$n.utilization" "$d/summary.tsv" 'port.sw->r0.utilization' '>=' "$u"
        check "$algo.$n.fairness" "$d/summary.tsv" group.incast.jain '>=' "$j"
    done
done <<<"$cases"
# Changing the algorithm changes the behaviour: no two algorithms give the
# same receive-rate and queue numbers (the CC_MODE bug users reported).
dups=$(for f in "$tmp"/*-10/summary.tsv; do grep -E '^(group|port)\.' "$f" | md5sum | cut -d' ' -f1; done | sort | uniq -d | wc -l)
if [ "$dups" -eq 0 ]; then echo "PASS incast.algorithms_differ"; else echo "FAIL incast.algorithms_differ ($dups identical results)"; fi
