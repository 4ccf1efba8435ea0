#!/usr/bin/env bash
# tests/scenario/flowctl.sh -- [flowcontrol] (docs/config.md, docs/escape.md):
#   - scheme = pfc is the default: the same run with and without it writes
#     byte-identical outputs (summary.json, flows.csv);
#   - an unknown scheme exits 2 naming file, line, key and the known schemes.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
I=experiments/rocc/pfc-incast.ini
"$ROCCSIM" run "$I" -o "$tmp/a" >"$tmp/a.log" 2>&1
"$ROCCSIM" run "$I" --set flowcontrol.scheme=pfc -o "$tmp/b" >"$tmp/b.log" 2>&1
ok pfc_default_identical 'cmp -s "$tmp/a/summary.json" "$tmp/b/summary.json" && cmp -s "$tmp/a/flows.csv" "$tmp/b/flows.csv" && grep -q "\"pfc\": {\"created\": [1-9]" "$tmp/a/summary.json"' "$tmp/b.log"
ok no_fctl_keys 'grep -q "\"fctl\"\|fctl_refused\|fctl_timer" "$tmp/a/summary.json"; [ $? = 1 ]'
{ cat "$I"; printf '[flowcontrol]\nscheme = escpae\n'; } >"$tmp/bad.ini"
"$ROCCSIM" run "$tmp/bad.ini" -o "$tmp/c" >"$tmp/c.log" 2>&1
rc=$?
line=$(grep -n 'scheme = escpae' "$tmp/bad.ini" | cut -d: -f1)
ok unknown_scheme '[ $rc = 2 ] && grep -qF "bad.ini:$line: [flowcontrol] scheme: unknown scheme '"'"'escpae'"'"' (known: pfc" "$tmp/c.log" && [ ! -e "$tmp/c" ]' "$tmp/c.log"
