#!/usr/bin/env bash
# scripts/rcc-exp.sh [--quick] [-o DIR] -- the RCC paper's simulation
# experiments (issue 14, docs/rcc.md "Experiments"), one command, each
# with HPCC beside it where the paper compares them:
#   Fig. 5  experiments/rcc/fig5-{rcc,hpcc}.ini: 4 flows into one 100G
#           receiver starting one phase apart; per phase, every flow's
#           receive rate, its goodput and Jain's index of the active flows.
#           Full length by default (the paper's 4.4/2.2/1.1/0.27 GB flows
#           100 ms apart, 700 ms simulated); --quick: the files' 1/100
#           scale (1 ms apart).
#   Figs. 6-7  experiments/rcc/incast-{rcc,hpcc}.ini: 1000 x 200 KB incast
#           + a long flow: link utilization, goodput, queue (max; mean
#           after the start-up burst), incast FCT median and p99, and RCC's
#           FCT gain over HPCC (the paper: 5.2% median, 4.1% p99).
#   Fig. 8  experiments/rcc/fig8-{lasthop,innetwork}.ini (rcc and
#           rcc_sender): per-flow rate, Jain, queue.
#   §V-E (Fig. 12's variants) on fig8-innetwork: RCC, RCC-async (1 us
#           jitter; 500 ns offsets), RCC-sender, RCC(n=1) with jitter.
#   Fig. 14 experiments/rcc/fig14-{rcc,rcc_pid,rcc_ewa}.ini: §V-E's
#           ablations on the multi-bottleneck topology; per phase, every
#           flow's rate and the queues.  Full length by default (flows 2
#           and 3 at 200 and 300 ms, 500 ms simulated); --quick: the
#           files' 1/10 scale.
# Writes DIR/table.tsv (experiment, case, metric, paper, ours), DIR/table.txt
# (the same aligned) and every run under DIR/<run>/.  Default DIR:
# runs/rcc-exp.  Exit status 2 if a run failed; a run whose [expect] fails
# at full length is reported in the table, not an error.
set -u
. "$(dirname "$0")/lib/help.bash"
script_help "$@"
cd "$(dirname "$0")/.."
. scripts/lib/expargs.bash
exp_args rcc-exp.sh runs/rcc-exp "$@"
dir=experiments/rcc
status=0
table="$out/table.tsv"
printf 'experiment\tcase\tmetric\tpaper\tours\n' > "$table"
row() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >> "$table"; }

# run NAME INI ARGS...: one run into $out/NAME (an [expect] miss is fine)
run() {
    local name=$1 ini=$2; shift 2
    if ! "$ROCCSIM" run "$ini" -q -o "$out/$name" "$@" >"$out/$name.log" 2>&1; then
        grep -q '^FAIL' "$out/$name.log" || { echo "rcc-exp.sh: $name failed:" >&2; cat "$out/$name.log" >&2; status=2; return 1; }
    fi
}
# mean of flow_rate.csv column COL (1-based) over [T0, T1] seconds
colmean() { awk -F, -v c="$2" -v a="$3" -v b="$4" 'NR > 1 && $1 >= a && $1 <= b { s += $c; n++ } END { printf "%.2f", n ? s / n : 0 }' "$1"; }
# queue.csv column 2 over [T0, T1]: mean and max in KB
qstat() { awk -F, -v a="$2" -v b="$3" 'NR > 1 && $1 >= a && $1 <= b { s += $2; n++; if ($2 > m) m = $2 } END { printf "mean %.1f KB, max %.1f KB", n ? s / n / 1000 : 0, m / 1000 }' "$1"; }
# FCTs of group G from flows.csv: "median p99" in ms
fcts() { awk -F, -v g="$2" 'NR > 1 && $3 == g && $8 != "" { print $8 }' "$1" | sort -g |
         awk '{ a[NR] = $1 } END { if (!NR) { print "- -"; exit } i = int(NR * 0.99 + 0.999); printf "%.3f %.3f", a[int((NR + 1) / 2)] * 1e3, a[i] * 1e3 }'; }
jain() { awk 'BEGIN { s = 0; q = 0; for (i = 1; i < ARGC; i++) { s += ARGV[i]; q += ARGV[i] * ARGV[i] } printf "%.4f", s * s / ((ARGC - 1) * q) }' "$@"; }

# ---- Fig. 5 ----
scale=1; f5=()
if [ $quick -eq 0 ]; then
    scale=100
    f5=(--set sim.duration=700ms --set sim.sample_interval=100us --set sim.measure_start=110ms --set sim.measure_end=200ms
        --set flows.f1.size=4.4GB --set flows.f2.size=2.2GB --set flows.f3.size=1.1GB --set flows.f4.size=0.27GB
        --set flows.f2.start=100ms --set flows.f3.start=200ms --set flows.f4.start=300ms)
fi
for alg in rcc hpcc; do
    run "fig5-$alg" "$dir/fig5-$alg.ini" "${f5[@]}" || continue
    fr="$out/fig5-$alg/flow_rate.csv"
    for ph in 1 2 3 4; do
        a=$(awk -v p=$ph -v s=$scale 'BEGIN { printf "%.6f", ((p - 1) + 0.1) * s / 1000 }')
        b=$(awk -v p=$ph -v s=$scale 'BEGIN { printf "%.6f", (p == 4 ? 3.8 : p) * s / 1000 }')
        rates=()
        for k in $(seq 1 $ph); do rates+=("$(colmean "$fr" $((k + 1)) "$a" "$b")"); done
        gp=$(awk -v r="${rates[0]}" 'BEGIN { printf "%.2f", r * 1000 / 1082 }')
        row fig5 "$alg N=$ph" "rate per flow, Gb/s (wire)" "-" "${rates[*]}"
        row fig5 "$alg N=$ph" "goodput of f1, Gb/s" "$(awk -v n=$ph 'BEGIN { printf "~%.2f", 95 / n }')" "$gp"
        [ $ph -gt 1 ] && row fig5 "$alg N=$ph" "Jain" "0.998-0.999 (rcc)" "$(jain "${rates[@]}")"
    done
    row fig5 "$alg" "queue sw->r0" "near zero (rcc)" "$(qstat "$out/fig5-$alg/queue.csv" 0 1)"
done

# ---- Figs. 6-7 ----
declare -A med=() p99=()
for alg in rcc hpcc; do
    run "incast-$alg" "$dir/incast-$alg.ini" --set sim.duration=22ms || continue
    d="$out/incast-$alg"
    util=$(grep '"name": "sw->r0"' "$d/summary.json" | grep -o '"utilization": [0-9.e+-]*' | awk '{ printf "%.1f", $2 * 100 }')
    row incast "$alg" "r0 link busy, %" "-" "$util"
    row incast "$alg" "goodput, Gb/s" "94.98 (rcc)" "$(awk -v u="$util" 'BEGIN { printf "%.1f", u * 1000 / 1082 }')"
    row incast "$alg" "queue 1-20 ms" "-" "$(qstat "$d/queue.csv" 0.001 0.020)"
    row incast "$alg" "queue 6-15 ms" "near zero (rcc), 900 KB (hpcc)" "$(qstat "$d/queue.csv" 0.006 0.015)"
    read -r m p <<<"$(fcts "$d/flows.csv" incast)"
    med[$alg]=$m; p99[$alg]=$p
    row incast "$alg" "incast FCT median / p99, ms" "-" "$m / $p"
done
if [ -n "${med[rcc]:-}" ] && [ -n "${med[hpcc]:-}" ]; then
    row incast "rcc vs hpcc" "FCT median gain" "5.2%" "$(awk -v a="${med[rcc]}" -v b="${med[hpcc]}" 'BEGIN { printf "%.1f%%", (b - a) / b * 100 }')"
    row incast "rcc vs hpcc" "FCT p99 gain" "4.1%" "$(awk -v a="${p99[rcc]}" -v b="${p99[hpcc]}" 'BEGIN { printf "%.1f%%", (b - a) / b * 100 }')"
fi

# ---- Fig. 8 and §V-E ----
f8() {   # NAME INI QPORT ARGS...
    local name=$1 ini=$2 q=$3; shift 3
    run "$name" "$ini" --set sim.duration=30ms --set sim.measure_start=10ms "$@" || return
    local fr="$out/$name/flow_rate.csv" r1 r2
    r1=$(colmean "$fr" 2 0.010 0.030); r2=$(colmean "$fr" 3 0.010 0.030)
    row fig8 "$name" "rates, Gb/s (wire), 10-30 ms" "12 each" "$r1 $r2"
    row fig8 "$name" "Jain" "-" "$(jain "$r1" "$r2")"
    local col
    col=$(head -1 "$out/$name/queue.csv" | tr , '\n' | grep -n -x -- "$q" | cut -d: -f1)
    row fig8 "$name" "queue $q, 10-30 ms" "near zero" "$(awk -F, -v c="$col" 'NR > 1 && $1 >= 0.01 { s += $c; n++; if ($c > m) m = $c } END { printf "mean %.1f KB, max %.1f KB", s / n / 1000, m / 1000 }' "$out/$name/queue.csv")"
}
f8 fig8a-rcc "$dir/fig8-lasthop.ini" 'leaf0->spine'
f8 fig8a-rcc_sender "$dir/fig8-lasthop.ini" 'leaf0->spine' --set cc.algorithm=rcc_sender
f8 fig8b-rcc "$dir/fig8-innetwork.ini" 'leaf0->spine'
f8 fig8b-rcc_sender "$dir/fig8-innetwork.ini" 'leaf0->spine' --set cc.algorithm=rcc_sender
f8 fig8b-rcc-async-jitter1us "$dir/fig8-innetwork.ini" 'leaf0->spine' --set rcc.clock_jitter=1us
f8 fig8b-rcc-async-offset500ns "$dir/fig8-innetwork.ini" 'leaf0->spine' --set rcc.clock_offset=500ns
f8 fig8b-rcc-n1-jitter1us "$dir/fig8-innetwork.ini" 'leaf0->spine' --set rcc.clock_jitter=1us --set rcc.n=1

# ---- Fig. 14 (§V-E 3: RCC-PID, RCC-EWA, RCC) ----
s14=1; f14=()
if [ $quick -eq 0 ]; then
    s14=10
    f14=(--set sim.duration=500ms --set sim.sample_interval=1ms --set sim.measure_start=320ms
         --set flows.f2.start=200ms --set flows.f3.start=300ms)
fi
declare -A p14=([rcc]="fair shares, near-zero queue" [rcc_pid]="several iterations per change of N"
                [rcc_ewa]="f1, f2 unfair, large in-network queue")
for alg in rcc rcc_pid rcc_ewa; do
    run "fig14-$alg" "$dir/fig14-$alg.ini" "${f14[@]}" || continue
    d="$out/fig14-$alg"
    for ph in "1 20 f1-alone 1" "22 30 f1+f2 2" "32 50 all 3"; do
        set -- $ph
        a=$(awk -v t="$1" -v s=$s14 'BEGIN { printf "%.6f", t * s / 1000 }')
        b=$(awk -v t="$2" -v s=$s14 'BEGIN { printf "%.6f", t * s / 1000 }')
        rates=()
        for k in $(seq 1 "$4"); do rates+=("$(colmean "$d/flow_rate.csv" $((k + 1)) "$a" "$b")"); done
        row fig14 "$alg $3" "rates, Gb/s (wire)" "$(case $4 in 1) echo 100 ;; *) echo "50 each (max-min)" ;; esac)" "${rates[*]}"
        for q in 'sw1->sw2' 'sw2->r1'; do
            col=$(head -1 "$d/queue.csv" | tr , '\n' | grep -n -x -- "$q" | cut -d: -f1)
            row fig14 "$alg $3" "queue $q" "${p14[$alg]}" "$(awk -F, -v c="$col" -v a="$a" -v b="$b" 'NR > 1 && $1 >= a && $1 <= b { s += $c; n++; if ($c > m) m = $c } END { printf "mean %.1f KB, max %.1f KB", n ? s / n / 1000 : 0, m / 1000 }' "$d/queue.csv")"
        done
    done
done

column -t -s "$(printf '\t')" "$table" > "$out/table.txt"
cat "$out/table.txt"
exit $status
