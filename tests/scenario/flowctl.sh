#!/usr/bin/env bash
# tests/scenario/flowctl.sh -- [flowcontrol] (docs/config.md, docs/escape.md):
#   - scheme = pfc is the default: the same run with and without it writes
#     byte-identical outputs (flows.csv; summary.json but for the in_order
#     member a [flowcontrol] section adds);
#   - an unknown scheme exits 2 naming file, line, key and the known schemes.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
I=experiments/rocc/pfc-incast.ini
"$ROCCSIM" run "$I" -o "$tmp/a" >"$tmp/a.log" 2>&1
"$ROCCSIM" run "$I" --set flowcontrol.scheme=pfc -o "$tmp/b" >"$tmp/b.log" 2>&1
ok pfc_default_identical 'grep -v "\"in_order\"" "$tmp/b/summary.json" | cmp -s "$tmp/a/summary.json" - && cmp -s "$tmp/a/flows.csv" "$tmp/b/flows.csv" && grep -q "\"pfc\": {\"created\": [1-9]" "$tmp/a/summary.json"' "$tmp/b.log"
ok no_fctl_keys 'grep -q "\"fctl\"\|fctl_refused\|fctl_timer" "$tmp/a/summary.json"; [ $? = 1 ]'
{ cat "$I"; printf '[flowcontrol]\nscheme = escpae\n'; } >"$tmp/bad.ini"
"$ROCCSIM" run "$tmp/bad.ini" -o "$tmp/c" >"$tmp/c.log" 2>&1
rc=$?
line=$(grep -n 'scheme = escpae' "$tmp/bad.ini" | cut -d: -f1)
ok unknown_scheme '[ $rc = 2 ] && grep -qF "bad.ini:$line: [flowcontrol] scheme: unknown scheme '"'"'escpae'"'"' (known: pfc" "$tmp/c.log" && [ ! -e "$tmp/c" ]' "$tmp/c.log"

# In-order check (docs/escape.md): a run with [flowcontrol] reports it; a
# lossless incast keeps order (out_of_order = 0 passes) ...
"$ROCCSIM" run "$I" --set flowcontrol.scheme=pfc --set 'expect.out_of_order=0' -o "$tmp/io" >"$tmp/io.log" 2>&1
rc=$?
ok in_order_zero '[ $rc = 0 ] && grep -q "PASS  out_of_order .*measured 0" "$tmp/io.log" && grep -q "\"in_order\": {\"out_of_order\": 0, \"flows_out_of_order\": 0}" "$tmp/io/summary.json" && grep -q "in-order: 0 data frames" "$tmp/io.log"' "$tmp/io.log"
# ... and the link failure of experiments/datacenter/link-failure.ini
# reroutes flows mid-run: first copies still queued on the old path arrive
# after later frames took the new one, so the check fails (exit 1).
"$ROCCSIM" run experiments/datacenter/link-failure.ini --set sim.duration=6ms --set flowcontrol.scheme=pfc \
    --set 'expect.out_of_order=0' -o "$tmp/lf" >"$tmp/lf.log" 2>&1
rc=$?
n_ooo=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['in_order']['out_of_order'], sum(f.get('out_of_order', 0) for f in d['flows']))" "$tmp/lf/summary.json" 2>/dev/null)
ok reroute_reorders '[ $rc = 1 ] && grep -q "FAIL  out_of_order" "$tmp/lf.log" && [ "${n_ooo% *}" -gt 0 ] && [ "${n_ooo% *}" = "${n_ooo#* }" ]' "$tmp/lf.log"
# Loss is not reordering: experiments/rocc/lossy-gbn.ini drops and resends
# hundreds of MB (go-back-N); the resent frames are marked, nothing counts.
"$ROCCSIM" run experiments/rocc/lossy-gbn.ini --set flowcontrol.scheme=pfc --set 'expect.out_of_order=0' -o "$tmp/lg" >"$tmp/lg.log" 2>&1
rc=$?
ok loss_not_reordering '[ $rc = 0 ] && grep -q "PASS  out_of_order" "$tmp/lg.log" && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if sum(f[\"retx_bytes\"] for f in d[\"flows\"]) > 0 else 1)" "$tmp/lg/summary.json"' "$tmp/lg.log"
