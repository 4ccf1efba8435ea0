#!/usr/bin/env bash
# scripts/rcc-fattree.sh [--quick] [--algos LIST] [--workloads LIST] [--loads LIST]
#     [--seeds LIST] [--duration MS] [-j JOBS] [--launch CMD] [--prepare|--report] [-o DIR]
#
# RCC §V-D (Figs. 9-11): average FCT of RCC against HPCC, Homa, ExpressPass,
# DCQCN and TIMELY on the paper's 320-host fat-tree
# (experiments/rcc/fattree.ini) per workload and load, RCC's reduction
# beside the paper's, and the FCT by flow size (average and p99; Figs.
# 10-11).  One `roccsim sweep` per workload (docs/sweeps.md).  §V-E's
# Fig. 13 (RCC against its ablations RCC-PID and RCC-EWA, web search) is
# the same table with --algos "rcc rcc_pid rcc_ewa".
#
#   --quick          CI length: 2 ms runs, seed 1, load 50%, web search
#   --algos LIST     default: rcc hpcc homa expresspass dcqcn timely (a name
#                    roccsim does not know is reported and skipped); Fig. 13
#                    (§V-E's ablations): --algos "rcc rcc_pid rcc_ewa"
#   --workloads LIST CDF names in data/cdf (default: websearch
#                    vl2_datamining webserver cachefollower; the last two
#                    drawn with sampling = step, docs/homa.md "Workloads")
#   --loads LIST     offered load of the host links (default 30% 50% 70%:
#                    the paper's text does not give Fig. 9's axis)
#   --seeds LIST     seeds, e.g. "1 2" or 1..3 (default 1..3; --quick: 1)
#   --duration MS    simulated ms per run (default 50; --quick: 2); FCT
#                    statistics over the flows posted in [MS/5, 4*MS/5]
#   -j JOBS          runs at a time (per rank under MPI/Slurm; default 2)
#   --launch CMD     run each sweep as `CMD roccsim sweep ...`, e.g.
#                    --launch "mpirun -np 8" or "srun --mpi=pmi2 -n 8"
#                    (DIR must be on a file system every rank sees)
#   --prepare        only write DIR/WORKLOAD.sweep.ini and DIR/roccsim and
#                    print the mpirun / Slurm job-array command per workload
#   --report         only make the tables and plot from DIR's finished sweeps
#   -o DIR           output directory (default runs/rcc-fattree[-quick])
#
# ROCCSIM (default build/roccsim) is the simulator; ROCCSIM_PREBUILT=1
# skips the build.  Writes DIR/WORKLOAD/ (the sweep: sweep.tsv, one run
# per point), DIR/WORKLOAD/runs.tsv (per point: exit status, packet
# conservation, drops, finished and unfinished flows), DIR/tables.txt,
# DIR/fct_avg.dat, DIR/fct_bins.dat and, with gnuplot, DIR/fct.png.
# Every average is printed with its unfinished flows; a cell with more
# than 1% of its window's flows unfinished is marked "n/c" (not comparable:
# the FCT statistics cover finished flows only).  Exit status: 0 when every
# run ran with packet conservation ok, 1 when some did not, 2 on bad
# arguments.
set -u
. "$(dirname "$0")/lib/help.bash"
script_help "$@"
. "$(dirname "$0")/lib/gnuplot.bash"
cd "$(dirname "$0")/.."
. scripts/lib/expargs.bash
jobs=2 seeds="" algos="rcc hpcc homa expresspass dcqcn timely" workloads="" loads="" dur="" launch="" mode=run
exp_opt() {
    exp_shift=2
    case $1 in
        --algos) algos=$2 ;;
        --workloads) workloads=$2 ;;
        --loads) loads=$2 ;;
        --seeds) seeds=$2 ;;
        --duration) dur=$2 ;;
        -j) jobs=$2 ;;
        --launch) launch=$2 ;;
        --prepare) mode=prepare; exp_shift=1 ;;
        --report) mode=report; exp_shift=1; ROCCSIM_PREBUILT=1 ;;
        *) return 1 ;;
    esac
}
default_out=runs/rcc-fattree
for a in "$@"; do [ "$a" = --quick ] && default_out=runs/rcc-fattree-quick; done
exp_args rcc-fattree.sh "$default_out" "$@"
case "$jobs" in ''|*[!0-9]*|0) echo "rcc-fattree.sh: -j needs a positive number" >&2; exit 2 ;; esac
case "$dur" in ''|[1-9]|[1-9][0-9]|[1-9][0-9][0-9]) ;;
    *) echo "rcc-fattree.sh: --duration needs whole milliseconds, 1..999" >&2; exit 2 ;; esac
if [ "$quick" = 1 ]; then
    [ -n "$dur" ] || dur=2
    [ -n "$seeds" ] || seeds=1
    [ -n "$loads" ] || loads="50%"
    [ -n "$workloads" ] || workloads=websearch
else
    [ -n "$dur" ] || dur=50
    [ -n "$seeds" ] || seeds=1..3
    [ -n "$loads" ] || loads="30% 50% 70%"
    [ -n "$workloads" ] || workloads="websearch vl2_datamining webserver cachefollower"
fi
for w in $workloads; do
    [ -f "data/cdf/$w.cdf" ] || { echo "rcc-fattree.sh: no workload data/cdf/$w.cdf" >&2; exit 2; }
done
win_us=$((dur * 200))    # warm-up and cool-down: a fifth of the run each
scen=$(pwd)/experiments/rcc/fattree.ini

if [ $mode != report ]; then
    # a private copy: a rebuild during the runs must not change the binary
    cp "$ROCCSIM" "$out/roccsim.tmp" && mv -f "$out/roccsim.tmp" "$out/roccsim" || exit 2
    known=""
    for a in $algos; do
        if "$out/roccsim" run "$scen" --check --set cc.algorithm="$a" >/dev/null 2>"$out/check-$a.err"; then
            known="$known $a"
        else
            echo "rcc-fattree.sh: skipping '$a': $(head -1 "$out/check-$a.err")" >&2
        fi
    done
    [ -n "$known" ] || { echo "rcc-fattree.sh: no algorithm to run" >&2; exit 2; }
    for w in $workloads; do
        case $w in webserver|cachefollower) samp=step ;; *) samp=interpolate ;; esac
        # Homa and ExpressPass need no keys here: Homa's strict-priority
        # ports, unlimited buffers and rto = 0 (lossless, the default) and
        # ExpressPass's credit limiters are their defaults (docs/homa.md,
        # docs/expresspass.md).  DCQCN's ECN thresholds scale with the link
        # rate as in HPCC's simulator (RCC §V-A, after [3]): hpcc_sim.
        { printf '[sweep]\nscenario = %s\nseeds = %s\n\n[set]\n' "$scen" "$seeds"
          printf 'sim.duration = %dms\nsim.measure_start = %dus\nfct.warmup = %dus\nfct.cooldown = %dus\n' \
                 "$dur" $win_us $win_us $win_us
          printf 'traffic.bg.cdf = %s\ntraffic.bg.sampling = %s\ndcqcn.profile = hpcc_sim\n\n[vary]\n' "$w" "$samp"
          printf 'cc.algorithm =%s\ntraffic.bg.load = %s\n' "$known" "$loads"; } > "$out/$w.sweep.ini"
    done
fi
if [ $mode = prepare ]; then
    for w in $workloads; do
        n=$(( $(wc -w <<<"$known") * $(wc -w <<<"$loads") * $(awk -v s="$seeds" 'BEGIN { k = split(s, a, " ")
              for (i = 1; i <= k; i++) n += split(a[i], r, /\.\./) == 2 ? r[2] - r[1] + 1 : 1; print n }') ))
        echo "$w: $n points; from $(pwd):"
        echo "  mpirun -np N $out/roccsim sweep $out/$w.sweep.ini -o $out/$w -j 1"
        echo "  sbatch --array=0-$((n - 1)) --wrap '$out/roccsim sweep $out/$w.sweep.ini -o $out/$w -j 1'"
    done
    echo "then: scripts/rcc-fattree.sh --report -o $out $([ "$quick" = 1 ] && echo --quick) --workloads '$workloads' --duration $dur --seeds '$seeds'"
    exit 0
fi
fail=0
t0=$(date +%s)
if [ $mode = run ]; then
    for w in $workloads; do
        echo "== $w:$known at $loads, seeds $seeds, ${dur} ms runs" >&2
        # shellcheck disable=SC2086  # $launch is a command line
        nice -n 10 $launch "$out/roccsim" sweep "$out/$w.sweep.ini" -o "$out/$w" -j "$jobs" >"$out/$w.log" 2>&1 || fail=1
    done
fi
t1=$(date +%s)
# Per point: exit status, conservation, drops, flows (docs/sweeps.md, docs/outputs.md).
args=()
for w in $workloads; do
    d=$out/$w
    [ -f "$d/sweep.tsv" ] && [ -f "$d/points.tsv" ] || { echo "rcc-fattree.sh: $w: no sweep.tsv: see $out/$w.log" >&2; fail=1; continue; }
    awk -F'\t' -v d="$d" 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "cc.algorithm") a = i; if ($i == "traffic.bg.load") l = i }
                                    print "point\tseed\talgo\tload\tstatus\tconservation\tdrops\tflows\tunfinished"; next }
        { p = $1; st = "missing"; if ((getline s < (d "/" p ".status")) > 0) st = s; close(d "/" p ".status")
          cons = "missing"; f = d "/" p "/summary.json"
          while ((getline x < f) > 0) if (match(x, /"conservation": "[^"]*"/)) cons = substr(x, RSTART + 17, RLENGTH - 18)
          close(f)
          dr = "-"; fl = "-"; un = "-"; f = d "/" p "/summary.tsv"
          while ((getline x < f) > 0) { split(x, kv, "\t")
              if (kv[1] == "drops") dr = kv[2]; if (kv[1] == "fct.all.flows") fl = kv[2]; if (kv[1] == "fct.all.unfinished") un = kv[2] }
          close(f)
          printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p, $2, $a, $l, st, cons, dr, fl, un }' "$d/points.tsv" > "$d/runs.tsv"
    awk -F'\t' 'NR > 1 && (($5 != "0" && $5 != "1") || $6 != "ok") { bad = 1 } END { exit bad }' "$d/runs.tsv" || fail=1
    args+=("$d/sweep.tsv")
done
[ ${#args[@]} -gt 0 ] || { echo "rcc-fattree.sh: no sweep produced results: see $out/*.log" >&2; exit 1; }
scripts/lib/rcc-fattree-table.awk -v dur="${dur} ms" -v win="$(awk -v d="$dur" 'BEGIN { printf "%g..%g ms", d / 5, d * 4 / 5 }')" \
    -v seeds="$seeds" -v secs=$((t1 - t0)) -v dat="$out/fct_avg.dat" -v bdat="$out/fct_bins.dat" \
    "${args[@]}" > "$out/tables.txt" || { echo "rcc-fattree.sh: the tables failed" >&2; exit 1; }
cat "$out/tables.txt"
if command -v gnuplot >/dev/null 2>&1 && [ -s "$out/fct_avg.dat" ] && gp_workdir; then
    gp_link "$out/fct_avg.dat" avg.dat && gp_link "$out/fct_bins.dat" bins.dat &&
    { printf 'cols = %s\nwls = %s\n' "$(gp_quote "$(cat "$out/fct_avg.dat.cols")")" \
             "$(gp_quote "$(cut -d' ' -f1 "$out/fct_avg.dat" | uniq | tr '\n' ' ')")"
      cat scripts/lib/rcc-fattree.gp; } | gp_run 2>"$out/gnuplot.err" && gp_install fct.png "$out/fct.png" ||
        echo "rcc-fattree.sh: gnuplot failed: $(head -1 "$out/gnuplot.err")" >&2
fi
[ $fail = 0 ] || echo "rcc-fattree.sh: some runs failed or lost packets: see $out/*/runs.tsv and $out/*.log" >&2
exit $fail
