#!/usr/bin/env bash
# tests/scenario/openqueue_exp.sh -- scripts/openqueue-exp.sh --quick (the
# OpenQueue experiments of issue 13, docs/openqueue.md "Experiments"):
#   - experiment 1: a row per (algorithm, load), 3 x 6, and weighted
#     throughput (value sent) A < B < C at every load;
#   - experiment 2: C above A for k = 2, 4, 8;
#   - experiment 5: the built-in and the OpenQueue restatement give
#     byte-identical flow outputs, lossless (RoCC fairness) and lossy (tail
#     drops);
#   - the script's own verdict (exit 0, no FAIL line) agrees.
# The individual files' [expect] sections run in tests/scenario/experiments.sh.
# It builds nothing: it uses $ROCCSIM (about 10 s).
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
repo=$PWD
ROCCSIM_PREBUILT=1 ROCCSIM="$repo/$ROCCSIM" bash scripts/openqueue-exp.sh --quick -o "$tmp/x" >"$tmp/x.log" 2>&1
rc=$?
t="$tmp/x/table.tsv"
ok runs '[ $rc -eq 0 ] && [ -s "$t" ] && ! grep -q "^FAIL" "$tmp/x.log"' "$tmp/x.log"
ok exp1_rows '[ "$(awk -F"\t" "\$1 == \"exp1\"" "$t" | wc -l)" -eq 18 ]' "$t"
# A < B < C on value_sent (column 6) at each load (column 3), from the table itself
ok exp1_a_lt_b_lt_c 'awk -F"\t" "\$1 == \"exp1\" { v[\$3, \$2] = \$6; l[\$3] = 1 }
    END { n = 0; for (x in l) { n++; if (!(v[x, \"a\"] < v[x, \"b\"] && v[x, \"b\"] < v[x, \"c\"])) exit 1 } exit n != 6 }" "$t"' "$t"
ok exp2_c_above_a 'awk -F"\t" "\$1 == \"exp2\" { v[\$4, \$2] = \$6; k[\$4] = 1 }
    END { n = 0; for (x in k) { n++; if (!(v[x, \"a\"] < v[x, \"c\"])) exit 1 } exit n != 3 }" "$t"' "$t"
# the port is saturated in every run of experiment 1: the algorithms send
# about as many frames (the model has no per-algorithm processing cost)
ok exp1_frames_equal 'awk -F"\t" "\$1 == \"exp1\" { if (lo == \"\" || \$5 < lo) lo = \$5; if (\$5 > hi) hi = \$5 } END { exit !(hi - lo < hi / 50) }" "$t"' "$t"
for pair in rocc lossy; do
    ok "exp5_${pair}_identical" 'grep -q "^PASS  exp5 '$pair': built-in and OpenQueue runs byte-identical" "$tmp/x.log" &&
        cmp -s "$tmp/x/exp5-'$pair'-builtin/flows.csv" "$tmp/x/exp5-'$pair'-openqueue/flows.csv" &&
        grep -q "\"openqueue\"" "$tmp/x/exp5-'$pair'-openqueue/summary.json"' "$tmp/x.log"
done
# the lossy pair really drops (the equivalence covers tail drop, not only an empty queue)
ok exp5_lossy_drops 'grep -o "\"dropped\": [0-9]*" "$tmp/x/exp5-lossy-openqueue/summary.json" | awk "\$2 >= 1000 { f = 1 } END { exit !f }"'
