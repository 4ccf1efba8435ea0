#!/usr/bin/env bash
# tests/scenario/rcc_fattree.sh -- scripts/rcc-fattree.sh (RCC Figs. 9-11,
# docs/rcc.md) at 1 ms with rcc, homa and expresspass: every run ends with
# packet conservation ok; the table has each algorithm's average FCT with
# its finished and unfinished flows, marks exactly the cells with more than
# 1% unfinished "n/c", prints RCC's reduction against Homa and ExpressPass
# beside the paper's 11%, and the three by-size tables have all five bins;
# the plot's data files have their rows.  An unknown algorithm is reported
# and skipped; a failed run and a conservation failure (edited into a copy
# of the results, then --report) make the script exit 1 and are named in
# the table; §V-E's ablations (Fig. 13) get the paper's 28% / 19% beside
# RCC's reduction (the homa/expresspass points renamed rcc_pid/rcc_ewa in a
# copy, then --report); --prepare writes the sweep files and prints the mpirun and
# Slurm-array commands without running; --launch is the sweep's launcher;
# bad options exit 2.  Uses $ROCCSIM (about 15 s of CPU).
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
repo=$PWD
fat() { ROCCSIM_PREBUILT=1 ROCCSIM="$repo/$ROCCSIM" bash scripts/rcc-fattree.sh "$@"; }
fat --quick --duration 1 --algos "rcc homa expresspass nosuchcc" -o "$tmp/x" >"$tmp/x.log" 2>&1
rc=$?
t="$tmp/x/tables.txt"
ok runs '[ $rc -eq 0 ] && [ -s "$t" ]' "$tmp/x.log"
ok unknown_skipped 'grep -q "skipping .nosuchcc." "$tmp/x.log" && ! grep -q nosuchcc "$t"' "$tmp/x.log"
ok conservation '[ "$(awk -F"\t" "NR > 1 && \$5 == 0 && \$6 == \"ok\"" "$tmp/x/websearch/runs.tsv" | wc -l)" -eq 3 ]' \
    "$tmp/x/websearch/runs.tsv"
# a row per algorithm: load, algo, avg FCT, finished flows, "unf (share%)", ..., "1 ok"
rows='$1 == "50%" && $3 ~ /^[0-9.]+$/ && $4 ~ /^[0-9]+$/ && $5 ~ /^[0-9]+$/ && $6 ~ /^\([0-9.]+%\)$/ && / 1 ok$/'
for a in rcc homa expresspass; do
    ok "row_$a" 'awk -v a=$a "\$2 == a && $rows { n++ } END { exit n != 1 }" "$t"' "$t"
done
# n/c exactly where more than 1% of the window's flows did not finish
ok nc_marks 'awk "$rows { s = \$6; gsub(/[()%]/, \"\", s); n++; if ((s > 1) != (\$7 == \"n/c\")) bad++ } END { exit n != 3 || bad }" "$t"' "$t"
ok reduction '[ "$(grep -Ec "vs (homa|expresspass) +ours [-+][0-9.]+% \(at 50%\)( n/c)? +paper 11%" "$t")" -eq 2 ]' "$t"
ok size_bins '[ "$(grep -cE "^(<=10KB|<=100KB|<=1MB|<=10MB|>10MB) " "$t")" -eq 15 ] && grep -Eq "^>10MB( +[0-9]+){3}$" "$t"' "$t"
ok dat_rows '[ "$(wc -l < "$tmp/x/fct_avg.dat")" -eq 1 ] && grep -Eq "^websearch 50%( [0-9.]+){3}$" "$tmp/x/fct_avg.dat" &&
             [ "$(grep -c "^websearch " "$tmp/x/fct_bins.dat")" -eq 5 ] && [ "$(cat "$tmp/x/fct_avg.dat.cols")" = "rcc homa expresspass" ]' \
    "$tmp/x/fct_avg.dat" "$tmp/x/fct_bins.dat"
# a failed point and a conservation failure, edited into copies, then --report
cp -r "$tmp/x" "$tmp/f" && echo 3 > "$tmp/f/websearch/p00001.status"
fat --quick --duration 1 --report -o "$tmp/f" >"$tmp/f.log" 2>&1; rc=$?
ok failed_run '[ $rc -eq 1 ] && grep -Eq "^50% +homa .* 1 1 FAILED$" "$tmp/f/tables.txt"' "$tmp/f.log"
cp -r "$tmp/x" "$tmp/c" && sed -i 's/"conservation": "ok"/"conservation": "lost 3 packets"/' "$tmp/c/websearch/p00002/summary.json"
fat --quick --duration 1 --report -o "$tmp/c" >"$tmp/c.log" 2>&1; rc=$?
ok conservation_failure '[ $rc -eq 1 ] && grep -Eq "^50% +expresspass .* 1 1 CONSERVATION$" "$tmp/c/tables.txt"' "$tmp/c.log"
cp -r "$tmp/x" "$tmp/a" && sed -i 's/\thoma\t/\trcc_pid\t/; s/\texpresspass\t/\trcc_ewa\t/' "$tmp/a/websearch/points.tsv" "$tmp/a/websearch/sweep.tsv"
fat --quick --duration 1 --report -o "$tmp/a" >"$tmp/a.log" 2>&1; rc=$?
ok ablations_paper '[ $rc -eq 0 ] && grep -Eq "vs rcc_pid +ours [-+][0-9.]+% \(at 50%\)( n/c)? +paper 28% \(Fig. 13\)" "$tmp/a/tables.txt" &&
                    grep -Eq "vs rcc_ewa +ours [-+][0-9.]+% \(at 50%\)( n/c)? +paper 19% \(Fig. 13\)" "$tmp/a/tables.txt"' "$tmp/a/tables.txt"
fat --prepare --seeds "1 2" --loads "30% 50%" --workloads "websearch webserver" --algos "rcc homa" -o "$tmp/p" >"$tmp/p.log" 2>&1; rc=$?
ok prepare '[ $rc -eq 0 ] && [ ! -d "$tmp/p/websearch" ] && grep -q "sbatch --array=0-7 " "$tmp/p.log" &&
            grep -q "mpirun -np N .*webserver.sweep.ini" "$tmp/p.log" && grep -q "sampling = step" "$tmp/p/webserver.sweep.ini" &&
            grep -q "sim.duration = 50ms" "$tmp/p/websearch.sweep.ini"' "$tmp/p.log"
fat --quick --duration 1 --algos rcc --launch false -o "$tmp/l" >"$tmp/l.log" 2>&1; rc=$?
ok launch '[ $rc -eq 1 ] && [ ! -e "$tmp/l/websearch/sweep.tsv" ]' "$tmp/l.log"
fat --quick --bogus -o "$tmp/b" >"$tmp/b.log" 2>&1; rc1=$?
fat --quick -j 0 -o "$tmp/b" >>"$tmp/b.log" 2>&1; rc2=$?
fat --quick --workloads nosuch -o "$tmp/b" >>"$tmp/b.log" 2>&1; rc3=$?
ok bad_args '[ $rc1 -eq 2 ] && [ $rc2 -eq 2 ] && [ $rc3 -eq 2 ] && grep -q "unknown argument .--bogus." "$tmp/b.log"' "$tmp/b.log"
