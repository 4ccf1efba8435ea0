#!/usr/bin/env bash
# The NIC pacer keeps each flow's schedule (issue 11 part 3): three capped
# flows on one NIC meet their caps within 0.5%; network.pacer_burst = 0
# (the old pacer, which lost every delay behind another flow's frame) does
# not, and an out-of-range pacer_burst is a clear error.  The unit test
# tests/unit/test_pacer.c covers harder sets, rate changes and the bound.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
ini=tests/scenario/data/pacing-3caps.ini
rate() { awk -F, -v n="$2" '$2 == n { print $12 }' "$1/flows.csv"; }

"$ROCCSIM" run "$ini" -q -o "$tmp/new" >"$tmp/new.log" 2>&1; rc=$?
ok caps_met '[ $rc -eq 0 ] && [ "$(grep -c "^PASS" "$tmp/new.log")" = 3 ]' "$tmp/new.log"
ok rate_b_exact 'awk -v r="$(rate "$tmp/new" b)" "BEGIN { exit !(r > 4.415 && r < 4.425) }"' "$tmp/new/flows.csv"

"$ROCCSIM" run "$ini" -q -o "$tmp/old" --set network.pacer_burst=0 >"$tmp/old.log" 2>&1; rc=$?
ok burst0_loses_time '[ $rc -eq 1 ] && grep -q "^FAIL  rate c" "$tmp/old.log"' "$tmp/old.log"
ok burst0_locks 'awk -v b="$(rate "$tmp/old" b)" -v c="$(rate "$tmp/old" c)" "BEGIN { exit !(b == c && c < 4.3) }"' "$tmp/old/flows.csv"

"$ROCCSIM" run "$ini" -q -o "$tmp/bad" --set network.pacer_burst=65 >"$tmp/bad.log" 2>&1; rc=$?
ok bad_value '[ $rc -eq 2 ] && grep -q "pacer_burst" "$tmp/bad.log" && grep -q "0..64" "$tmp/bad.log"' "$tmp/bad.log"
