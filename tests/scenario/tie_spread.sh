#!/usr/bin/env bash
# tests/scenario/tie_spread.sh -- scripts/tie-spread.sh runs a scenario under
# several tie orders ([sim] tie_seed) and tabulates its [expect] checks: a
# check that always holds passes n/n, an impossible one 0/n with exit 1, the
# lock-step 4:1 incast measures different per-flow rates under different
# orders (so the seed reaches the runs), and bad usage exits 2.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
cat > "$tmp/incast.ini" <<'INI'
[sim]
duration = 3ms
measure_start = 1ms
[topology]
type = star
senders = 4
rate = 40Gbps
[network]
mode = lossy
[flows.incast]
src = h0..h3
dst = r0
rate = line
[expect]
drops = 0
pfc_pauses = 7
rate all = >= 1Mbps
INI
ROCCSIM="$ROCCSIM" bash scripts/tie-spread.sh -n 3 -j 2 "$tmp/incast.ini" >"$tmp/out" 2>&1
rc=$?
row() { grep "^$1" "$tmp/out"; }
ok exit_1_when_a_check_fails '[ $rc = 1 ]' "$tmp/out"
ok holds_everywhere 'row "drops = 0 " | grep -q " 3/3 "' "$tmp/out"
ok fails_everywhere 'row "pfc_pauses = 7 " | grep -q " 0/3 "' "$tmp/out"
# the three measured values of the rate check, one per tie seed, not all equal
ok orders_differ '[ "$(row "rate all" | sed "s/.* 3\/3 *//" | tr "|" "\n" | sed "s/^ *//; s/ *$//" | sort -u | wc -l)" -ge 2 ]' "$tmp/out"
sed -i '/^pfc_pauses/d' "$tmp/incast.ini"
ROCCSIM="$ROCCSIM" bash scripts/tie-spread.sh -n 2 "$tmp/incast.ini" >"$tmp/out2" 2>&1
ok exit_0_when_all_pass '[ $? = 0 ] && grep -q " 2/2 " "$tmp/out2"' "$tmp/out2"
ROCCSIM="$ROCCSIM" bash scripts/tie-spread.sh -n x "$tmp/incast.ini" >"$tmp/out3" 2>&1
ok bad_count '[ $? = 2 ] && grep -q "\-n: expected a positive integer, got .x." "$tmp/out3"' "$tmp/out3"
printf '[sim]\nduration = 1ms\nbogus = 1\n' > "$tmp/bad.ini"
ROCCSIM="$ROCCSIM" bash scripts/tie-spread.sh -n 2 "$tmp/bad.ini" >"$tmp/out4" 2>&1
ok run_error_reported '[ $? = 2 ] && grep -q "tie_seed = 0 failed" "$tmp/out4" && grep -q "bad.ini.*no flows" "$tmp/out4"' "$tmp/out4"
