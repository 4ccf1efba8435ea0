#!/usr/bin/env bash
# tests/scenario/crossbar.sh -- a switch run whole as the OpenQueue buffered
# crossbar ([crossbar], docs/openqueue.md "The buffered crossbar"):
#   - a permutation at line rate gets exactly the built-in switch's rates, no
#     drop ([expect] in data/xbar-uniform.ini); at speedup 0.5 the fabric is
#     the bottleneck (20 Gb/s per flow);
#   - a hotspot output (data/xbar-hotspot.ini): lqf_rr shares it among the
#     three inputs; Fig. 2.13's plain lqf serves two of them and starves the
#     third while they are backlogged; port order serves one after the other
#     -- three checked, different outcomes, so a fabric that ignores its
#     policy's scheduler fails here;
#   - the same run twice is byte-identical; a policy file written by
#     `roccsim oq crossbar 4` runs exactly as the generated default;
#   - bad input exits 2 with a message naming the key.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
D=tests/scenario/data

# ---- uniform permutation at line rate
"$ROCCSIM" run $D/xbar-uniform.ini -o "$tmp/u" >"$tmp/u.log" 2>&1
rc=$?
ok uniform_expect '[ "$rc" -eq 0 ] && grep -q "conservation ok" "$tmp/u.log"' "$tmp/u.log"
sed -e '/^\[crossbar\]/,/^$/d' -e '/^xbar_/d' $D/xbar-uniform.ini >"$tmp/builtin.ini"
"$ROCCSIM" run "$tmp/builtin.ini" -o "$tmp/b" >"$tmp/b.log" 2>&1
rates() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rate_gbps") c = i; next } { print $c }' "$1"; }
ok uniform_equals_builtin '[ -n "$(rates "$tmp/u/flows.csv")" ] && paste <(rates "$tmp/u/flows.csv") <(rates "$tmp/b/flows.csv") |
    awk "{ d = \$1 - \$2; if (d < 0) d = -d; if (d > 0.001 * \$2 || \$2 < 36) bad = 1 } END { exit bad }"' "$tmp/u.log" "$tmp/b.log"
ok uniform_summary 'grep -q "\"crossbar\": {" "$tmp/u/summary.json" && grep -q "\"dropped_voq\": 0" "$tmp/u/summary.json"' "$tmp/u/summary.json"

"$ROCCSIM" run $D/xbar-uniform.ini --set crossbar.speedup=0.5 --set crossbar.voq=4000p -o "$tmp/s" >"$tmp/s.log" 2>&1
rc=$?
ok half_speedup '[ "$rc" -eq 1 ] && [ "$(rates "$tmp/s/flows.csv" | awk "\$1 < 19.5 || \$1 > 20.5" | wc -l)" -eq 0 ] &&
    [ "$(rates "$tmp/s/flows.csv" | wc -l)" -eq 4 ]' "$tmp/s.log"

# ---- hotspot output
"$ROCCSIM" run $D/xbar-hotspot.ini -o "$tmp/h" >"$tmp/h.log" 2>&1
rc=$?
ok hotspot_lqf_rr '[ "$rc" -eq 0 ]' "$tmp/h.log"
"$ROCCSIM" run $D/xbar-hotspot.ini -o "$tmp/h2" >/dev/null 2>&1
ok deterministic 'cmp -s "$tmp/h/summary.json" "$tmp/h2/summary.json" && cmp -s "$tmp/h/flows.csv" "$tmp/h2/flows.csv"'

"$ROCCSIM" run $D/xbar-hotspot.ini --set crossbar.output=lqf -o "$tmp/l" >"$tmp/l.log" 2>&1
rc=$?
# flow_rate.csv at 40 us: h0 and h1 ~20 Gb/s each, h2 nothing
row=$(awk -F, '$1 == "0.000040000"' "$tmp/l/flow_rate.csv")
ok hotspot_plain_lqf_starves_third '[ "$rc" -eq 1 ] && [ "$(grep -c "^  FAIL" "$tmp/l.log")" -eq 1 ] &&
    grep -q "FAIL  rate_ratio" "$tmp/l.log" &&
    echo "$row" | awk -F, "{ exit !(\$2 > 19 && \$2 < 21 && \$3 > 19 && \$3 < 21 && \$4 == 0) }"' "$tmp/l.log"

"$ROCCSIM" run $D/xbar-hotspot.ini --set crossbar.output=none -o "$tmp/n" >"$tmp/n.log" 2>&1
rc=$?
fct() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "fct_s") c = i; next } { printf "%s ", $c }' "$1"; }
ok hotspot_port_order_serial '[ "$rc" -eq 1 ] && grep -q "FAIL  rate_ratio" "$tmp/n.log" &&
    echo $(fct "$tmp/n/flows.csv") | awk "{ exit !(\$1 < 0.00008 && \$1 < \$2 && \$2 < \$3 && \$2 < 0.00015) }"' "$tmp/n.log"
ok lqf_rr_finish_together 'echo $(fct "$tmp/h/flows.csv") | awk "{ exit !(\$1 > 0.00018 && \$2 > 0.00018 && \$3 > 0.00018) }"' "$tmp/h/flows.csv"

# ---- a policy file instead of the generated default
"$ROCCSIM" oq crossbar 4 >"$tmp/x4.oq" 2>"$tmp/x4.err"
{ sed -e '/^\[crossbar\]/,$d' $D/xbar-uniform.ini; printf '[crossbar]\nswitches = sw\npolicy = %s\n' "$tmp/x4.oq"; } >"$tmp/pf.ini"
"$ROCCSIM" run "$tmp/pf.ini" -o "$tmp/pf" >"$tmp/pf.log" 2>&1
rc=$?
ok policy_file_same_as_generated '[ "$rc" -eq 0 ] && cmp -s "$tmp/pf/flows.csv" "$tmp/u/flows.csv"' "$tmp/pf.log" "$tmp/x4.err"

# ---- bad input
bad() {   # NAME EXTRA-SET... -- expects exit 2 and PATTERN in stderr (last argument)
    local name=$1 pat=${@: -1}
    set -- "${@:2:$#-2}"
    "$ROCCSIM" run $D/xbar-uniform.ini "$@" -o "$tmp/bad" >"$tmp/bad.out" 2>"$tmp/bad.err"
    local rc=$?
    ok "$name" '[ "$rc" -eq 2 ] && grep -q -- "$pat" "$tmp/bad.err"' "$tmp/bad.err"
}
bad bad_not_switch --set crossbar.switches=h0 "'h0' is not a switch"
bad bad_policy_ports --set crossbar.policy=$PWD/policies/crossbar.oq "policies/crossbar.oq: a 4-port buffered crossbar needs a queue 'voq14'"
bad bad_size_with_policy --set crossbar.policy=$PWD/policies/crossbar.oq --set crossbar.xp=8p "\[crossbar\] xp: only for the generated policy"
bad bad_speedup --set crossbar.speedup=0 "\[crossbar\] speedup: expected a speedup in (0, 1000\]"
bad bad_scheduler --set crossbar.output=nosuch "unknown routine 'nosuch'"
bad bad_size --set crossbar.voq=lots "voq, xp, oq must be sizes like 32p"
bad bad_key --set crossbar.sped=2 "sped"
bad bad_openqueue_port --set openqueue.policy=$PWD/policies/fifo_taildrop.oq --set openqueue.ports=sw:r0 \
    "switch 'sw': port 3 already runs a queueing discipline (\[openqueue\])"
sed -e '/^\[crossbar\]/,/^$/d' $D/xbar-uniform.ini >"$tmp/nox.ini"
"$ROCCSIM" run "$tmp/nox.ini" -o "$tmp/bad" >/dev/null 2>"$tmp/bad.err"
rc=$?
ok bad_metric_without_crossbar '[ "$rc" -eq 2 ] && grep -q "xbar_drops: needs a \[crossbar\] section" "$tmp/bad.err"' "$tmp/bad.err"
