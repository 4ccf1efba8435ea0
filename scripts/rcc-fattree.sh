#!/usr/bin/env bash
# scripts/rcc-fattree.sh [--quick] [--algos LIST] [--workloads LIST] [--loads LIST]
#                        [--seeds LIST] [-j JOBS] [-o DIR]
#
# RCC §V-D (Fig. 9-11): average FCT of RCC against HPCC, Homa, ExpressPass,
# DCQCN and TIMELY on the paper's 320-host fat-tree
# (experiments/rcc/fattree.ini) for each workload and load, with the
# paper's reductions beside ours, and the FCT breakdown by flow size
# (average and p99).  One `roccsim sweep` per workload (docs/sweeps.md), so
# the same sweep files run under mpirun or a Slurm array.
#
#   --quick          CI length: 2 ms runs, one seed, load 50%, web search
#   --algos LIST     algorithms (default: rcc homa expresspass hpcc dcqcn
#                    timely; names roccsim does not know are reported and
#                    skipped)
#   --workloads LIST CDF names in data/cdf (default: websearch
#                    vl2_datamining, plus webserver and cachefollower when
#                    data/cdf has them)
#   --loads LIST     offered load of the host links (default 30% 50% 70%;
#                    the paper's text does not give Fig. 9's axis)
#   --seeds LIST     seeds (default 1..3; --quick: 1)
#   -j JOBS          parallel runs (default 2)
#   -o DIR           output directory (default runs/rcc-fattree[-quick])
#
# Full length: 20 ms runs, FCT over the flows that arrived in 5..15 ms.
# Writes DIR/WORKLOAD/sweep.tsv, DIR/tables.txt, DIR/fct_avg.dat and,
# with gnuplot, DIR/fct_avg.png.  Exit status: 0 when every run ran, 1 when
# some run failed, 2 on bad arguments.
set -u
. "$(dirname "$0")/lib/help.bash"
script_help "$@"
cd "$(dirname "$0")/.."
quick=0 jobs=2 out="" seeds="" algos="rcc homa expresspass hpcc dcqcn timely" workloads="" loads=""
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=1 ;;
        --algos) algos=${2:-}; shift ;;
        --workloads) workloads=${2:-}; shift ;;
        --loads) loads=${2:-}; shift ;;
        --seeds) seeds=${2:-}; shift ;;
        -j) jobs=${2:-}; shift ;;
        -o) out=${2:-}; shift ;;
        *) echo "rcc-fattree.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
case "$jobs" in ''|*[!0-9]*|0) echo "rcc-fattree.sh: -j needs a positive number" >&2; exit 2 ;; esac
if [ $quick = 1 ]; then
    dur=2ms meas=0.5ms warm=0.5ms cool=0.5ms
    [ -n "$seeds" ] || seeds=1
    [ -n "$loads" ] || loads="50%"
    [ -n "$workloads" ] || workloads=websearch
else
    dur=20ms meas=5ms warm=5ms cool=5ms
    [ -n "$seeds" ] || seeds=1..3
    [ -n "$loads" ] || loads="30% 50% 70%"
fi
if [ -z "$workloads" ]; then
    workloads="websearch vl2_datamining"
    for w in webserver cachefollower; do [ -f data/cdf/$w.cdf ] && workloads="$workloads $w"; done
fi
[ -n "$out" ] || out=runs/rcc-fattree$([ $quick = 1 ] && echo -quick)
make -s -j2 build/roccsim || exit 2
mkdir -p "$out" || exit 2
cp build/roccsim "$out/roccsim" || exit 2     # a rebuild during the runs must not change it
scen=$(pwd)/experiments/rcc/fattree.ini
known=""
for a in $algos; do
    if "$out/roccsim" run "$scen" --check --set cc.algorithm="$a" >/dev/null 2>"$out/check-$a.err"; then
        known="$known $a"
    else
        echo "rcc-fattree.sh: skipping '$a': $(head -1 "$out/check-$a.err")" >&2
    fi
done
[ -n "$known" ] || { echo "rcc-fattree.sh: no algorithm to run" >&2; exit 2; }
fail=0
t0=$(date +%s)
for w in $workloads; do
    # DCQCN's ECN thresholds scale with the link rate as HPCC's simulator
    # does (RCC §V-A, after [3]): the hpcc_sim profile.
    { printf '[sweep]\nscenario = %s\nseeds = %s\n\n[set]\n' "$scen" "$seeds"
      printf 'sim.duration = %s\nsim.measure_start = %s\nfct.warmup = %s\nfct.cooldown = %s\n' \
             "$dur" "$meas" "$warm" "$cool"
      printf 'traffic.bg.cdf = %s\ndcqcn.profile = hpcc_sim\n\n[vary]\n' "$w"
      printf 'cc.algorithm =%s\ntraffic.bg.load = %s\n' "$known" "$loads"; } > "$out/$w.sweep.ini"
    echo "== $w:$known at $loads, seeds $seeds, $dur runs" >&2
    nice -n 10 "$out/roccsim" sweep "$out/$w.sweep.ini" -o "$out/$w" -j "$jobs" >"$out/$w.log" 2>&1 || fail=1
done
t1=$(date +%s)
args=()
for w in $workloads; do [ -f "$out/$w/sweep.tsv" ] && args+=("$out/$w/sweep.tsv"); done
[ ${#args[@]} -gt 0 ] || { echo "rcc-fattree.sh: no sweep produced results: see $out/*.log" >&2; exit 1; }
scripts/lib/rcc-fattree-table.awk -v dur="$dur" -v seeds="$seeds" -v secs=$((t1 - t0)) -v dat="$out/fct_avg.dat" \
    "${args[@]}" | tee "$out/tables.txt"
if command -v gnuplot >/dev/null 2>&1 && [ -s "$out/fct_avg.dat" ]; then
    gnuplot -e "dat='$out/fct_avg.dat'; png='$out/fct_avg.png'" scripts/lib/rcc-fattree.gp 2>"$out/gnuplot.err" ||
        echo "rcc-fattree.sh: gnuplot failed: $(head -1 "$out/gnuplot.err")" >&2
fi
[ $fail = 0 ] || echo "rcc-fattree.sh: some runs failed: see $out/*.log" >&2
exit $fail
