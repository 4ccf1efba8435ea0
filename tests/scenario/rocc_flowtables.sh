#!/usr/bin/env bash
# tests/scenario/rocc_flowtables.sh -- scripts/rocc-flowtables.sh --quick
# (RoCC's five flow tables on the leaf-spine with WebSearch mice and four
# elephants, docs/rocc.md "Flow tables compared"):
#   - every table has its row and passes the file's [expect]: no drops and
#     every elephant got at least one CNP (cnp_reached elephants = 100%);
#   - every table sent CNPs to the elephants (a share above 0%) and AFD and
#     BubbleCache report a fixed memory (7168 B and 768 B per CP);
#   - the check can fail: a BubbleCache whose threshold no flow reaches
#     (elephant_count = 1000000) sends no CNP and fails cnp_reached.
# It builds nothing: it uses $ROCCSIM.  Normal build only (about 10 s).
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
case "${BUILD:-build}" in build) ;; *) exit 0 ;; esac
out="$tmp/ft"
ROCCSIM_PREBUILT=1 ROCCSIM="$ROCCSIM" bash scripts/rocc-flowtables.sh --quick -o "$out" >"$tmp/ft.log" 2>&1
rc=$?
t="$out/table.tsv"
ok runs '[ $rc -eq 0 ] && [ -s "$t" ]' "$tmp/ft.log"
ok five_rows '[ "$(awk -F"\t" "NR > 1 { print \$1 }" "$t" | tr "\n" " ")" = "queue bounded afd elephant bubble " ]' "$t"
ok every_elephant_reached '[ "$(awk -F"\t" "NR > 1 && \$3 == \"4/4\" && \$14 == \"pass\"" "$t" | wc -l)" -eq 5 ]' "$t"
ok elephants_get_cnps '[ "$(awk -F"\t" "NR > 1 && \$4 + 0 > 0" "$t" | wc -l)" -eq 5 ]' "$t"
ok fixed_memory '[ "$(awk -F"\t" "\$1 == \"afd\" { print \$8 } \$1 == \"bubble\" { print \$8 }" "$t" | tr "\n" " ")" = "7168 768 " ]' "$t"
"$ROCCSIM" run experiments/rocc-flowtables/leafspine-ws.ini --set sim.duration=8ms --set rocc.flow_table=bubble \
    --set rocc.elephant_count=1000000 -q -o "$tmp/blind" >"$tmp/blind.log" 2>&1
rc=$?
ok blind_table_fails '[ $rc -eq 1 ] && grep -q "FAIL  cnp_reached elephants = 100%  measured 0.00%" "$tmp/blind.log"' "$tmp/blind.log"
