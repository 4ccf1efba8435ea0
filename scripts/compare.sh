#!/usr/bin/env bash
# scripts/compare.sh [-o DIR] [SCENARIO.ini...] -- run several scenarios (by
# default the six RoCC Fig. 11 runs, experiments/compare/fig11-*.ini) and
# write one comparison:
#   DIR/table.tsv, DIR/table.txt   per run: receive rates (mean/min/max),
#                                  Jain index, bottleneck queue mean/p99,
#                                  utilization, expectations passed/failed
#   DIR/compare.png, DIR/compare.svg  bottleneck queue over time (all runs)
#                                  and per-flow rate spread per run
# Each run's own outputs are in DIR/<name>/.  Default DIR: runs/compare.
# Exit status 1 if any run's [expect] checks failed.
# DIR and the scenario names may hold any character: gnuplot reads the data
# through links of our own naming (scripts/lib/gnuplot.bash).
set -u
. "$(dirname "$0")/lib/help.bash"
script_help "$@"
. "$(dirname "$0")/lib/gnuplot.bash"
cd "$(dirname "$0")/.."
out=runs/compare
if [ "${1:-}" = "-o" ]; then out=${2:?-o needs a directory}; shift 2; fi
files=("$@"); [ ${#files[@]} -gt 0 ] || files=(experiments/compare/fig11-*.ini)
make -s -j"$(nproc 2>/dev/null || echo 2)" build/roccsim || exit 2
mkdir -p "$out"
gp_workdir || exit 2
fail=0
printf 'run\tgroup\trate_mean_gbps\trate_min_gbps\trate_max_gbps\tjain\tbottleneck\tqueue_mean_kb\tqueue_p99_kb\tutilization\tchecks_passed\tchecks_failed\n' > "$out/table.tsv"
plotq=""; i=0
for ini in "${files[@]}"; do
    name=$(basename "$ini" .ini)
    log="$out/$name.log"
    ./build/roccsim run "$ini" -q -o "$out/$name" > "$log" 2>&1 || fail=1
    tsv="$out/$name/summary.tsv"
    [ -f "$tsv" ] || { echo "compare.sh: $ini produced no summary (see $log)" >&2; fail=1; continue; }
    pass=$(grep -c '^PASS' "$log"); bad=$(grep -c '^FAIL' "$log")
    # The bottleneck: the port with the highest utilization.
    port=$(awk -F'\t' '$1 ~ /^port\..*\.utilization$/ { sub(/^port\./, "", $1); sub(/\.utilization$/, "", $1);
                       if ($2 > best) { best = $2; name = $1 } } END { print name }' "$tsv")
    get() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$tsv"; }
    group=$(awk -F'\t' '$1 ~ /^group\..*\.flows$/ { sub(/^group\./, "", $1); sub(/\.flows$/, "", $1); print $1; exit }' "$tsv")
    awk -v run="$name" -v g="$group" -v port="$port" -v p="$pass" -v f="$bad" \
        -v rm="$(get "group.$group.rate_mean_bps")" -v rl="$(get "group.$group.rate_min_bps")" \
        -v rh="$(get "group.$group.rate_max_bps")" -v j="$(get "group.$group.jain")" \
        -v qm="$(get "port.$port.queue_mean_bytes")" -v q9="$(get "port.$port.queue_p99_bytes")" \
        -v u="$(get "port.$port.utilization")" \
        'BEGIN { printf "%s\t%s\t%.3f\t%.3f\t%.3f\t%.4f\t%s\t%.1f\t%.1f\t%.4f\t%d\t%d\n",
                 run, g, rm/1e9, rl/1e9, rh/1e9, j, port, qm/1e3, q9/1e3, u, p, f }' >> "$out/table.tsv"
    col=$(head -1 "$out/$name/queue.csv" | tr ',' '\n' | grep -nxF -- "$port" | cut -d: -f1)
    if [ -n "$col" ]; then
        gp_link "$out/$name/queue.csv" "q$i.csv"
        plotq="$plotq${plotq:+, }'q$i.csv' using (\$1*1000):(\$$col/1000) with lines lw 1.5 title $(gp_quote "$name")"
    fi
    i=$((i + 1))
done
column -t -s "$(printf '\t')" "$out/table.tsv" > "$out/table.txt" 2>/dev/null || cp "$out/table.tsv" "$out/table.txt"
cat "$out/table.txt"
if command -v gnuplot >/dev/null && [ -n "$plotq" ]; then
    gp_link "$out/table.tsv" table.tsv
    for term in "pngcairo size 1100,800 font 'sans,10' noenhanced" "svg size 1100,800 dynamic noenhanced"; do
        ext=png; case $term in svg*) ext=svg ;; esac
        gp_run 2>/dev/null <<GP || true
set terminal $term
set output 'compare.$ext'
set datafile separator tab
set multiplot layout 2,1
set grid
set key outside right
set title 'bottleneck queue'
set ylabel 'queue (KB)'
set xlabel 'time (ms)'
set datafile separator ','
plot $plotq
set datafile separator tab
set title 'per-flow receive rate in the measurement window (min, mean, max)'
set ylabel 'Gb/s'
set xlabel ''
set xtics rotate by -30
set yrange [0:*]
set offsets 0.5, 0.5, 0, 0
plot 'table.tsv' every ::1 using 0:3:4:5:xtic(1) with yerrorbars pt 7 lw 2 title 'rate'
unset multiplot
GP
        gp_install "compare.$ext" "$out/compare.$ext" || { echo "compare.sh: gnuplot drew no $ext figure" >&2; fail=1; }
    done
    echo "plots: $out/compare.png $out/compare.svg"
fi
exit $fail
