#!/usr/bin/env bash
# tests/dataplane/rocc_dp_control.sh -- the negative control of rocc_dp.sh
# (issue 11, part 6): its maxmin scenario with no CP on the shaped port
# (CP=off) must fail its checks.  A test that judges rocc_dp.sh's shares
# on a busy machine must still tell RoCC from no RoCC: PASS here when the
# control run fails on drops (drop-tail loses what the senders offer beyond
# 300 Mb/s) and on CNPs (none sent), FAIL if it passed them.
set -u
cd "$(dirname "$0")/../.." || exit 1
log=$(mktemp)
trap 'rm -f "$log"' EXIT
CP=off SCENARIOS=maxmin CAPTURE='' bash tests/dataplane/rocc_dp.sh >"$log" 2>&1
grep -E '^(PASS|FAIL)|CPU' "$log" | sed 's/^/  control: /'
if grep -q "^FAIL rocc_dp.maxmin: the CP's port dropped" "$log" && grep -q '^FAIL rocc_dp.maxmin: CP sent no CNPs' "$log"; then
    echo "PASS rocc_dp_control: with the CP off, rocc_dp.sh's maxmin fails its drop and CNP checks"
else
    echo "FAIL rocc_dp_control: with the CP off, rocc_dp.sh's maxmin did not fail its drop and CNP checks"
    cat "$log"
    exit 1
fi
