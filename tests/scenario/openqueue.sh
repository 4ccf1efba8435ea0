#!/usr/bin/env bash
# tests/scenario/openqueue.sh -- `roccsim oq check` (docs/openqueue.md): every
# shipped policy compiles (exit 0, its structure printed), a bad policy exits
# 2 with FILE:LINE:COL on stderr and nothing on stdout, and usage errors
# exit 2.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash

n=0 bad_files=""
for f in policies/*.oq; do
    n=$((n + 1))
    "$ROCCSIM" oq check "$f" >"$tmp/out" 2>"$tmp/err" || bad_files="$bad_files $f"
    grep -q "^policy $f: " "$tmp/out" || bad_files="$bad_files $f(no structure)"
done
ok shipped_policies_check '[ "$n" -ge 18 ] && [ -z "$bad_files" ] || { echo "  failed:$bad_files"; false; }'

printf 'q1 = Queue(8p); out = Port(100%%, q1);\nq1.procPrio = fifo;\nq1.admPrio = fiffo;\n' >"$tmp/bad.oq"
"$ROCCSIM" oq check "$tmp/bad.oq" >"$tmp/out" 2>"$tmp/err"
rc=$?
ok bad_policy_exit_2 '[ "$rc" -eq 2 ] && grep -q "^$tmp/bad.oq:3:14: unknown routine '"'"'fiffo'"'"'" "$tmp/err" && [ ! -s "$tmp/out" ]' "$tmp/err"

# one bad file among good ones still fails the command; -q prints nothing for good ones
"$ROCCSIM" oq check -q policies/alg_a.oq "$tmp/bad.oq" policies/alg_c.oq >"$tmp/out" 2>"$tmp/err"
rc=$?
ok mixed_files '[ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]' "$tmp/err"

"$ROCCSIM" oq check "$tmp/missing.oq" >/dev/null 2>"$tmp/err"
rc=$?
ok missing_file '[ "$rc" -eq 2 ] && grep -q "missing.oq: No such file" "$tmp/err"' "$tmp/err"

"$ROCCSIM" oq frobnicate >/dev/null 2>"$tmp/err"; rc1=$?
"$ROCCSIM" oq check >/dev/null 2>&1; rc2=$?
"$ROCCSIM" oq --help >"$tmp/help" 2>&1; rc3=$?
ok usage '[ "$rc1" -eq 2 ] && [ "$rc2" -eq 2 ] && [ "$rc3" -eq 0 ] && grep -q "usage: roccsim oq check" "$tmp/help"' "$tmp/err"
