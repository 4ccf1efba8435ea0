#!/usr/bin/env bash
# scripts/plot.sh RUN_DIR -- plot a roccsim run with gnuplot:
#   RUN_DIR/plot.png and RUN_DIR/plot.svg: the RoCC fair rate (top) and the
#   data-queue length (bottom) over time for every switch port that queued
#   anything, plus the per-flow receive rates (middle) when there are at
#   most 16 flows.
# RUN_DIR may be named anything: gnuplot reads the data through links of
# our own naming (scripts/lib/gnuplot.bash) and never runs a command.
set -eu
. "$(dirname "$0")/lib/help.bash"
script_help "$@"
. "$(dirname "$0")/lib/gnuplot.bash"
dir=${1:?usage: scripts/plot.sh RUN_DIR}
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot is not installed (apt-get install gnuplot-nox)" >&2; exit 2; }
[ -f "$dir/queue.csv" ] || { echo "plot.sh: $dir/queue.csv not found (is $dir a roccsim run directory?)" >&2; exit 2; }
gp_workdir
gp_link "$dir/queue.csv" queue.csv
[ -f "$dir/fair_rate.csv" ] && gp_link "$dir/fair_rate.csv" fair_rate.csv
# Ports whose queue was ever non-empty (column numbers in queue.csv).
qcols=$(awk -F, 'NR==1 { n = NF; next } { for (i = 2; i <= n; i++) if ($i > 0) seen[i] = 1 }
                 END { for (i = 2; i <= n; i++) if (seen[i]) printf "%d ", i }' "$dir/queue.csv")
[ -n "$qcols" ] || qcols=2
names() { [ -f "$1" ] && head -1 "$1" | tr ',' '\n'; }
qplot=""; fplot=""
for c in $qcols; do
    name=$(names "$dir/queue.csv" | sed -n "${c}p")
    qplot="$qplot${qplot:+, }'queue.csv' using (\$1*1000):(\$$c/1000) with lines lw 2 title $(gp_quote "$name")"
    fc=$(names "$dir/fair_rate.csv" | grep -nxF -- "$name" | cut -d: -f1 || true)
    [ -n "$fc" ] && fplot="$fplot${fplot:+, }'fair_rate.csv' using (\$1*1000):$fc with lines lw 2 title $(gp_quote "$name")"
done
rplot=""
if [ -f "$dir/flow_rate.csv" ]; then
    gp_link "$dir/flow_rate.csv" flow_rate.csv
    nf=$(head -1 "$dir/flow_rate.csv" | awk -F, '{ print NF - 1 }')
    if [ "$nf" -le 16 ]; then
        for i in $(seq 2 $((nf + 1))); do
            name=$(names "$dir/flow_rate.csv" | sed -n "${i}p")
            rplot="$rplot${rplot:+, }'flow_rate.csv' using (\$1*1000):$i with lines title $(gp_quote "$name")"
        done
    fi
fi
panels=1; [ -n "$fplot" ] && panels=$((panels + 1)); [ -n "$rplot" ] && panels=$((panels + 1))
rc=0
for term in "pngcairo size 1100,$((300 * panels + 60)) font 'sans,10' noenhanced" "svg size 1100,$((300 * panels + 60)) dynamic noenhanced"; do
    ext=png; case $term in svg*) ext=svg ;; esac
    gp_run 2>/dev/null <<GP || true
set terminal $term
set output 'plot.$ext'
set datafile separator ','
set key outside right
set autoscale xfix
set grid
set multiplot layout $panels,1 title $(gp_quote "$(basename -- "$dir")")
$( [ -n "$fplot" ] && printf "set ylabel 'fair rate (Gb/s)'\nset xlabel ''\nset logscale y\nset yrange [0.05:*]\nplot %s\nunset logscale y\nset autoscale y\n" "$fplot" )
$( [ -n "$rplot" ] && printf "set ylabel 'flow rate (Gb/s)'\nplot %s\n" "$rplot" )
set ylabel 'queue (KB)'
set xlabel 'time (ms)'
plot $qplot
unset multiplot
GP
    gp_install "plot.$ext" "$dir/plot.$ext" || { echo "plot.sh: gnuplot drew no $ext figure for $dir" >&2; rc=3; }
done
[ $rc -eq 0 ] && echo "plots: $dir/plot.png $dir/plot.svg"
exit $rc
