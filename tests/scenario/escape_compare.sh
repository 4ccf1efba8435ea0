#!/usr/bin/env bash
# tests/scenario/escape_compare.sh -- scripts/escape-compare.sh --quick (the
# Escape comparison of experiments 4 and 5, docs/escape.md "Experiments"):
#   - every (experiment, workload, scheme) of the comparison has a row: 2 x 5
#     for experiment 4 and 2 x 3 for experiment 5, a scheme this build lacks
#     as "not available" (never dropped);
#   - PFC alone is "stuck" on the loop of experiment 4 (every bin "inf") and
#     gives finite innocent-flow FCTs in experiment 5;
#   - the output directory has a hostile name: the figure is drawn and no
#     command runs (scripts/lib/gnuplot.bash).
# It builds nothing: it uses $ROCCSIM.  Normal build only (about 10 s).
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
case "${BUILD:-build}" in build) ;; *) exit 0 ;; esac
repo=$PWD
out="$tmp/q'\`touch PWNED\`';touch PWNED;"
ROCCSIM_PREBUILT=1 ROCCSIM="$repo/$ROCCSIM" bash scripts/escape-compare.sh --quick -o "$out" >"$tmp/ec.log" 2>&1
rc=$?
t="$out/table.tsv"
ok runs '[ $rc -eq 0 ] && [ -s "$t" ]' "$tmp/ec.log"
ok every_scheme_listed '[ "$(awk -F"\t" "NR > 1 { print \$1, \$2, \$3 }" "$t" | sort -u | wc -l)" -eq 16 ] &&
    [ "$(awk -F"\t" "NR > 1 && \$1 == \"loop4\" { print \$3 }" "$t" | sort -u | tr "\n" " ")" = "deadlock_breaker escape gfc loop_breaker pfc " ]' "$t"
ok pfc_stuck_on_loop '[ "$(awk -F"\t" "\$1 == \"loop4\" && \$3 == \"pfc\" && (\$4 != \"stuck\" || \$9 != \"inf\")" "$t" | wc -l)" -eq 0 ] &&
    [ "$(awk -F"\t" "\$1 == \"loop4\" && \$3 == \"pfc\"" "$t" | wc -l)" -ge 4 ]' "$t"
ok pfc_innocent_finite '[ "$(awk -F"\t" "\$1 == \"innocent\" && \$3 == \"pfc\" && \$4 == \"ok\" && \$9 ~ /^[0-9.]+\$/" "$t" | wc -l)" -ge 4 ]' "$t"
if command -v gnuplot >/dev/null; then
    ok plot '[ -s "$out/compare.png" ] && [ -s "$out/compare.svg" ]' "$tmp/ec.log"
fi
ok no_command_ran '[ -z "$(find "$tmp" "$repo" -maxdepth 2 -name PWNED 2>/dev/null)" ]'
