#!/usr/bin/env bash
# scripts/escape-compare.sh [--quick] [-o DIR] -- Escape against PFC alone,
# Loop Breaker, Deadlock Breaker and GFC (dissertation §4.6.4-4.6.5,
# docs/escape.md "Experiments"), one command:
#   experiment 4 (Fig. 4.15): experiments/escape/loop4-{ws,fb}.ini, schemes
#     pfc escape loop_breaker deadlock_breaker gfc: 99th-percentile FCT per
#     flow-size bin, all flows;
#   experiment 5 (Fig. 4.17): experiments/escape/innocent-{ws,fb}.ini,
#     schemes pfc escape gfc: average FCT of the innocent flows per bin.
# Each run is the scenario file with `--set flowcontrol.scheme=S`; full
# length by default (websearch 500 ms, fb_hadoop 200 ms of simulated time),
# the files' own CI length with --quick.  A scheme this build does not have
# (roccsim --check refuses it) is listed as "not available" with roccsim's
# message, never dropped.  Writes
#   DIR/table.tsv, DIR/table.txt   one row per (experiment, workload, scheme,
#                                  size bin): status, the deadlock detector's
#                                  first cycle ("at 24.8ms", "none"), flows,
#                                  unfinished, the FCT statistic (us) and its
#                                  ratio to Escape
#   DIR/compare.png, DIR/compare.svg  that statistic per bin, one panel per
#                                  experiment and workload, one line per scheme
#   DIR/<exp>-<workload>-<scheme>/ each run's outputs (and .log)
# Default DIR: runs/escape-compare.  Status "stuck": some loop port sent
# nothing in the last 5 ms (experiment 4: the deadlock was never cleared).
# A statistic is "inf" when more than 1% of its bin's flows did not finish
# (the p99 of such a bin is not a finished flow's FCT).  Exit status 2 if a
# run failed for another reason than its [expect] checks (which are written
# for the PFC-only run and are not judged here), else 0.
# DIR may hold any character: gnuplot reads the data through links of our
# own naming (scripts/lib/gnuplot.bash).
set -u
. "$(dirname "$0")/lib/help.bash"
script_help "$@"
. "$(dirname "$0")/lib/gnuplot.bash"
cd "$(dirname "$0")/.."
. scripts/lib/expargs.bash
exp_args escape-compare.sh runs/escape-compare "$@"
gp_workdir || exit 2
status=0
tab=$(printf '\t')
table="$out/table.tsv"
printf 'experiment\tworkload\tscheme\tstatus\tdeadlock\tsize_le\tflows\tunfinished\tstatistic\tfct_us\tratio_to_escape\n' > "$table.tmp"

# run EXP WORKLOAD SCHEME: one run, rows appended to $table.tmp
run() {
    local exp=$1 wl=$2 scheme=$3 ini name dir log rc msg stat dur
    case $exp in loop4) stat=p99 ;; innocent) stat=avg_innocent ;; esac
    ini=experiments/escape/$exp-$wl.ini
    name=$exp-$wl-$scheme; dir=$out/$name; log=$out/$name.log
    local -a args=(--set "flowcontrol.scheme=$scheme")
    if ! msg=$("$ROCCSIM" run "$ini" "${args[@]}" --check 2>&1); then
        if [ "$scheme" = pfc ]; then
            args=()                                  # a build without [flowcontrol]: PFC is all it has
        else
            msg=$(printf '%s' "$msg" | head -1 | tr '\t' ' ' | sed 's/^roccsim: //')
            printf '%s\t%s\t%s\tnot available: %s\t-\t-\t-\t-\t%s\t-\t-\n' "$exp" "$wl" "$scheme" "$msg" "$stat" >> "$table.tmp"
            echo "  $name: not available ($msg)"
            return
        fi
    fi
    if [ $quick -eq 0 ]; then
        case $wl in ws) dur=500ms ;; fb) dur=200ms ;; esac
        args+=(--set "sim.duration=$dur" --set sim.flow_series_max=0)   # per-flow rate series: GBs at this length, unused here
    fi
    # measurement window = the last 5 ms: loop-port utilization there says "stuck"
    local end
    end=$(grep -m1 '^duration' "$ini" | sed 's/.*= *//')
    [ $quick -eq 0 ] && end=$dur
    args+=(--set "sim.measure_start=$(awk -v d="${end%ms}" 'BEGIN { print d - 5 }')ms" --set "sim.measure_end=$end")
    echo "  $name ..."
    "$ROCCSIM" run "$ini" "${args[@]}" -q -o "$dir" > "$log" 2>&1; rc=$?
    if [ $rc -ge 2 ] || [ ! -s "$dir/flows.csv" ]; then
        echo "escape-compare.sh: $name failed (exit $rc, see $log)" >&2
        printf '%s\t%s\t%s\terror (exit %s)\t-\t-\t-\t-\t%s\t-\t-\n' "$exp" "$wl" "$scheme" "$rc" "$stat" >> "$table.tmp"
        status=2
        return
    fi
    local st=ok
    if [ "$exp" = loop4 ]; then
        st=$(awk -F'\t' '$1 ~ /^port\.(n1->n5|n5->n2|n2->n4|n4->n1)\.utilization$/ && $2 + 0 < 0.001 { s = "stuck" }
                         END { print s ? s : "ok" }' "$dir/summary.tsv")
    fi
    # The deadlock detector's finding ([flowcontrol] deadlock_check): the
    # first cycle, if any (a scheme may resolve it later: see the status).
    local dl
    dl=$(sed -n 's/.*"deadlock": {"detected": true,.*"first_s": \([0-9.e+-]*\).*/\1/p' "$dir/summary.json" | head -1)
    if [ -n "$dl" ]; then dl=$(awk -v t="$dl" 'BEGIN { printf "at %gms", t * 1000 }')
    elif grep -q '"deadlock": {"detected": false' "$dir/summary.json"; then dl=none
    else dl=unchecked; fi
    # Bins and window from the run's own summary: [fct] bins, warmup, cooldown.
    local bins warm cool durs
    bins=$(grep -m1 '^bins' "$ini" | sed 's/.*= *//')
    warm=$(grep -m1 '^warmup' "$ini" | sed 's/.*= *//')
    cool=$(grep -m1 '^cooldown' "$ini" | sed 's/.*= *//')
    durs=${end%ms}
    awk -F, -v ex="$exp" -v wl="$wl" -v sch="$scheme" -v st="$st" -v dl="$dl" -v stat="$stat" \
        -v bins="$bins" -v warm="${warm%ms}" -v cool="${cool%ms}" -v dur="$durs" '
        function bytes(s,   v) { v = s + 0; if (s ~ /KB$/) v *= 1e3; else if (s ~ /MB$/) v *= 1e6; else if (s ~ /GB$/) v *= 1e9; return v }
        BEGIN { nb = split(bins, b, /[ ,]+/); for (i = 1; i <= nb; i++) edge[i] = bytes(b[i]); edge[nb + 1] = -1
                lo = warm / 1000; hi = (dur - cool) / 1000 }
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        {
            if (stat == "avg_innocent" && $col["group"] != "innocent") next
            s = $col["start_s"] + 0; if (s < lo || s > hi) next
            sz = $col["size_bytes"] + 0
            for (k = 1; k <= nb && sz > edge[k]; k++) ;
            if ($col["fct_s"] == "") { unf[k]++; next }
            n[k]++; sum[k] += $col["fct_s"]; v[k, n[k]] = $col["fct_s"] + 0
        }
        END {
            for (k = 1; k <= nb + 1; k++) {
                if (n[k] + unf[k] == 0) continue
                le = k <= nb ? b[k] : "inf"
                if (unf[k] > 0.01 * (n[k] + unf[k])) x = "inf"
                else if (stat == "avg_innocent") x = sprintf("%.3f", sum[k] / n[k] * 1e6)
                else {
                    m = n[k]; for (i = 1; i <= m; i++) a[i] = v[k, i]
                    # insertion sort (bins hold at most a few thousand flows)
                    for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
                    r = int(0.99 * m); if (r < 0.99 * m) r++; if (r < 1) r = 1      # nearest rank
                    x = sprintf("%.3f", a[r] * 1e6)
                }
                printf "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t-\n", ex, wl, sch, st, dl, le, n[k], unf[k] + 0, stat, x
            }
        }' "$dir/flows.csv" >> "$table.tmp"
}

for wl in ws fb; do
    for s in pfc escape loop_breaker deadlock_breaker gfc; do run loop4 "$wl" "$s"; done
done
for wl in ws fb; do
    for s in pfc escape gfc; do run innocent "$wl" "$s"; done
done

# Ratio to Escape's value in the same (experiment, workload, bin).
awk -F'\t' -v OFS='\t' 'NR == FNR { if ($3 == "escape" && $10 ~ /^[0-9.]+$/) e[$1, $2, $6] = $10; next }
    FNR == 1 { print; next }
    { k = e[$1, $2, $6]; if (k != "" && k > 0 && $10 ~ /^[0-9.]+$/) $11 = sprintf("%.2f", $10 / k); print }' \
    "$table.tmp" "$table.tmp" > "$table" && rm -f "$table.tmp"
column -t -s "$tab" "$table" > "$out/table.txt" 2>/dev/null || cp "$table" "$out/table.txt"
cat "$out/table.txt"

if command -v gnuplot >/dev/null; then
    # One data file per (panel, scheme), named by us: x = bin index, label, value.
    plots=(); p=0
    for exp in loop4 innocent; do
        for wl in ws fb; do
            line=""; si=0; notes=""; nn=0
            for s in pfc escape loop_breaker deadlock_breaker gfc; do
                f="p${p}_$si.dat"
                awk -F'\t' -v e="$exp" -v w="$wl" -v s="$s" '$1 == e && $2 == w && $3 == s && $6 != "-" {
                        i++; printf "%d\t%s\t%s\n", i, $6, ($10 ~ /^[0-9.]+$/ ? $10 : "NaN") }' "$table" > "$GP_WORK/$f"
                # a scheme with no finite value (stuck, not available) has no
                # line: a note in the panel's corner says so
                if grep -q $'\t[0-9.]*$' "$GP_WORK/$f"; then
                    line="$line${line:+, }'$f' using 1:3:xtic(2) with linespoints lw 2 title $(gp_quote "$s")"
                elif awk -F'\t' -v e="$exp" -v w="$wl" -v s="$s" '$1 == e && $2 == w && $3 == s { f = 1 } END { exit !f }' "$table"; then
                    st=$(awk -F'\t' -v e="$exp" -v w="$wl" -v s="$s" '$1 == e && $2 == w && $3 == s { st = $4; sub(/:.*/, "", st); print st; exit }' "$table")
                    notes="${notes}set label $((20 + si)) $(gp_quote "$s: $st, no finite value") at graph 0.98, graph $(awk -v i=$nn 'BEGIN { print 0.06 + 0.07 * i }') right
"
                    nn=$((nn + 1))
                fi
                si=$((si + 1))
            done
            case $exp in loop4) t="Exp. 4 (Fig. 4.15): p99 FCT, all flows" ;; innocent) t="Exp. 5 (Fig. 4.17): mean FCT, innocent flows" ;; esac
            case $wl in ws) t="$t, WebSearch" ;; fb) t="$t, FB_Hadoop" ;; esac
            if [ -n "$line" ]; then
                plots+=("set title $(gp_quote "$t")
${notes}plot $line
unset label")
            else
                # one label per scheme: "pfc: stuck", "gfc: not available"
                labels=""; li=1
                while IFS= read -r l; do
                    labels="${labels}set label $li $(gp_quote "$l") at graph 0.5, graph $(awk -v i=$li 'BEGIN { print 0.85 - 0.12 * i }') center
"
                    li=$((li + 1))
                done < <(awk -F'\t' -v e="$exp" -v w="$wl" '$1 == e && $2 == w && !seen[$3]++ {
                             st = $4; sub(/:.*/, "", st); print $3 ": " st }' "$table")
                plots+=("set title $(gp_quote "$t (no finite FCT)")
${labels}unset logscale y
unset xtics
unset ytics
plot [0:1] [0:1] -1 notitle
unset label
set xtics
set ytics
set logscale y")
            fi
            p=$((p + 1))
        done
    done
    for term in "pngcairo size 1200,900 font 'sans,10' noenhanced" "svg size 1200,900 dynamic noenhanced"; do
        ext=png; case $term in svg*) ext=svg ;; esac
        {
            echo "set terminal $term"
            echo "set output 'compare.$ext'"
            echo "set datafile separator tab"
            echo "set datafile missing 'NaN'"
            echo "set multiplot layout 2,2"
            echo "set grid"
            echo "set logscale y"
            echo "set key top left"
            echo "set xlabel 'flow size bin (upper edge)'"
            echo "set ylabel 'FCT (us)'"
            echo "set offsets 0.3, 0.3, 0, 0"
            echo "set lmargin 10"
            echo "set rmargin 3"
            for pl in "${plots[@]}"; do echo "$pl"; done
            echo "unset multiplot"
        } | gp_run 2>/dev/null || true
        gp_install "compare.$ext" "$out/compare.$ext" || { echo "escape-compare.sh: gnuplot drew no $ext figure" >&2; status=2; }
    done
    echo "plots: $out/compare.png $out/compare.svg"
fi
exit $status
