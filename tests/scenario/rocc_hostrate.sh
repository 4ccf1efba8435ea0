#!/usr/bin/env bash
# RoCC §3.6, rate computation at the host ([rocc] rate_at, docs/rocc.md
# "Rate computation at the host").  The hosts run the CP's own Alg. 1 code
# (rocc_cp_compute) on the inputs a host-form CNP carries, so with the
# CNPs modelled at the RATE form's size (cnp_size = rate_form) every output
# file must be byte-identical to switch-side computation:
#   - the fairness benchmark (N = 10, 40G), both host forms;
#   - the multi-CP chain (three saturated CPs in series, md_qmax = half:
#     the flags byte of HOST_FULL), both host forms;
#   - the mixed-speed chain (10/40/100G CPs: several registry profiles).
# Each host run must say it computed the rates (so a CP that silently kept
# sending the RATE form fails), and refuse none.  With the forms' real
# sizes (cnp_size = actual, the default) the longer CNPs shift the reverse
# links' timing: outputs differ, the [expect] checks still pass.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
run() {   # name ini rate_at [args...]: outputs in $tmp/name, log in $tmp/name.log, rc in $tmp/name.rc
    local name=$1 ini=$2 at=$3; shift 3
    "$ROCCSIM" run "$ini" -o "$tmp/$name" --set rocc.rate_at="$at" "$@" >"$tmp/$name.log" 2>&1
    echo $? >"$tmp/$name.rc"
}
# The outputs directories hold the same files, byte for byte.
same() { diff -r -q "$tmp/$1" "$tmp/$2" >"$tmp/$1-$2.diff" 2>&1 && [ -s "$tmp/$1/summary.json" ] && [ -s "$tmp/$1/flows.csv" ]; }
# "N from HOST_FULL" / "N from HOST_REG" with N > 0 and 0 refused.
computed() {
    local n
    n=$(sed -n "s/.*computed at hosts.* \([0-9][0-9]*\) from $2 CNPs.*, 0 refused.*/\1/p" "$tmp/$1.log")
    [ -n "$n" ] && [ "$n" -gt 0 ]
}
sized=(--set rocc.cnp_size=rate_form)

fair=experiments/rocc/fairness-n10-40g.ini
run fair_sw "$fair" switch "${sized[@]}"
run fair_full "$fair" host_full "${sized[@]}"
run fair_reg "$fair" host_registry "${sized[@]}"
ok fair_switch_passes '[ "$(cat $tmp/fair_sw.rc)" = 0 ]' "$tmp/fair_sw.log"
ok fair_full_identical 'same fair_sw fair_full' "$tmp/fair_sw-fair_full.diff"
ok fair_reg_identical 'same fair_sw fair_reg' "$tmp/fair_sw-fair_reg.diff"
ok fair_full_computed 'computed fair_full HOST_FULL' "$tmp/fair_full.log"
ok fair_reg_computed 'computed fair_reg HOST_REG' "$tmp/fair_reg.log"
ok fair_switch_says_nothing '! grep -q "computed at hosts" "$tmp/fair_sw.log"' "$tmp/fair_sw.log"

chain=(--set sim.duration=30ms --set sim.measure_start=15ms --set rocc.md_qmax=half "${sized[@]}")
run chain_sw experiments/multicp/chain3-40g.ini switch "${chain[@]}"
run chain_full experiments/multicp/chain3-40g.ini host_full "${chain[@]}"
run chain_reg experiments/multicp/chain3-40g.ini host_registry "${chain[@]}"
ok chain_full_identical 'same chain_sw chain_full' "$tmp/chain_sw-chain_full.diff"
ok chain_reg_identical 'same chain_sw chain_reg' "$tmp/chain_sw-chain_reg.diff"
ok chain_full_computed 'computed chain_full HOST_FULL' "$tmp/chain_full.log"
ok chain_reg_computed 'computed chain_reg HOST_REG' "$tmp/chain_reg.log"

mixed=(--set sim.duration=20ms --set sim.measure_start=10ms "${sized[@]}")
run mixed_sw experiments/multicp/chain4-mixed.ini switch "${mixed[@]}"
run mixed_reg experiments/multicp/chain4-mixed.ini host_registry "${mixed[@]}"
ok mixed_reg_identical 'same mixed_sw mixed_reg' "$tmp/mixed_sw-mixed_reg.diff"
ok mixed_reg_computed 'computed mixed_reg HOST_REG' "$tmp/mixed_reg.log"

# Real sizes: 130-byte HOST_FULL frames instead of 90 on the reverse links.
run fair_full_actual "$fair" host_full
ok actual_expect_pass '[ "$(cat $tmp/fair_full_actual.rc)" = 0 ]' "$tmp/fair_full_actual.log"
ok actual_differs '! cmp -s "$tmp/fair_sw/summary.json" "$tmp/fair_full_actual/summary.json"'

# Bad input: exit 2 with the key named.
bad() {   # name expected-message args...
    local name=$1 msg=$2; shift 2
    "$ROCCSIM" run "$fair" --check "$@" >"$tmp/$name.log" 2>&1
    local rc=$?
    ok "$name" '[ $rc = 2 ] && grep -qF -- "$msg" "$tmp/$name.log"' "$tmp/$name.log"
}
bad bad_rate_at "rate_at" --set rocc.rate_at=nic
bad bad_cnp_size "cnp_size" --set rocc.cnp_size=small
