#!/usr/bin/env bash
# [expect] fairness checks (issue 11, part 7): a mixed-algorithm run where
# one sender gets 37.9 Gb/s and the other 27 Mb/s passes rate_mean all, but
# rate_ratio all (slowest / fastest flow) and jain all fail it; over one
# group and in a window the ratio is 1.  Exit status 1 (a check failed).
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
"$ROCCSIM" run tests/scenario/data/unfair-mixed.ini -o "$tmp/run" >"$tmp/out.txt" 2>&1; rc=$?
ok exit_1 "[ $rc -eq 1 ]" "$tmp/out.txt"
ok mean_hides_it "grep -Eq '^  PASS  rate_mean all ' $tmp/out.txt" "$tmp/out.txt"
ok ratio_catches_it "grep -Eq '^  FAIL  rate_ratio all .*measured 0\.000[0-9]+ \(min 2[0-9.]+Mbps, max 37\.9Gbps\)' $tmp/out.txt" "$tmp/out.txt"
ok jain_catches_it "grep -Eq '^  FAIL  jain all .*measured 0\.50' $tmp/out.txt" "$tmp/out.txt"
ok ratio_per_group "grep -Eq '^  PASS  rate_ratio fast ' $tmp/out.txt && grep -Eq '^  PASS  rate_ratio slow @ 1ms\.\.2ms .*measured 1 ' $tmp/out.txt" "$tmp/out.txt"
ok two_failures "[ \$(grep -c '^  FAIL' $tmp/out.txt) -eq 2 ]" "$tmp/out.txt"
# Malformed: no selector, an unknown group (exit 2, file, line, key).
"$ROCCSIM" run tests/scenario/data/unfair-mixed.ini --check --set 'expect.rate_ratio=>= 0.5' >"$tmp/e1.txt" 2>&1; rc=$?
ok needs_selector "[ $rc -eq 2 ] && grep -q 'rate_ratio needs a flow group' $tmp/e1.txt" "$tmp/e1.txt"
"$ROCCSIM" run tests/scenario/data/unfair-mixed.ini --check --set 'expect.rate_ratio ghost=>= 0.5' >"$tmp/e2.txt" 2>&1; rc=$?
ok unknown_group "[ $rc -eq 2 ] && grep -q \"no flow group 'ghost'\" $tmp/e2.txt" "$tmp/e2.txt"
