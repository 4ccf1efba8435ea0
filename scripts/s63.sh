#!/usr/bin/env bash
# scripts/s63.sh [--quick] [--model qp|independent] [--seeds LIST] [-j JOBS] [-o DIR]
#
# Re-runs every RoCC §6.3 experiment and prints paper versus measured:
#   main     WebSearch and FB_Hadoop at 50% and 70% load, RoCC / DCQCN /
#            HPCC, PFC on (experiments/datacenter/s63-fb70-rocc.ini):
#            average, p90, p99 FCT per size bin (Figs. 14-16), queue per CP
#            tier and PFC per tier and per segment (Fig. 17), flows per link
#            (the steady-state check), Table 3's per-flow rate
#   unlimited  FB_Hadoop 70%, PFC off, unlimited buffer (Fig. 18): FCT fold
#            increase over the PFC runs, switch buffer use and its ratio to
#            RoCC's
#   lossy    FB_Hadoop 70%, PFC off, 1.5 MB buffer, go-back-N (Fig. 20):
#            retransmitted fraction, FCT fold increase
# Every number is the mean over the seeds with its 95% confidence interval
# (roccsim sweep; docs/sweeps.md).
#
#   --quick          CI length: 10 ms runs, 2 seeds, main runs at 70% only
#                    (tests/scenario/s63.sh uses it)
#   --model M        qp (default): one queue pair per sender-receiver pair,
#                    one message outstanding (traffic.bg.qp = pair);
#                    independent: every flow on its own (qp = none), the
#                    model before issue 11
#   --seeds LIST     seeds (default 1..5; --quick: 1..2), e.g. "1 2" or 1..3
#   -j JOBS          parallel runs (default 2)
#   -o DIR           output directory (default runs/s63-MODEL[-quick])
#
# Full length: 100 ms runs, measured over 50..100 ms and FCT statistics
# over the messages whose first byte left in 50..95 ms (docs/datacenter.md
# explains the choice), 5 seeds: 90 runs.  The tables are also written to
# DIR/tables.txt.  Exit status: 0 when every run ran,
# 1 when some run failed, 2 on bad arguments.
set -u
. "$(dirname "$0")/lib/help.bash"
script_help "$@"
cd "$(dirname "$0")/.."
quick=0 model=qp jobs=2 out="" seeds=""
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=1 ;;
        --model) model=${2:-}; shift ;;
        --seeds) seeds=${2:-}; shift ;;
        -j) jobs=${2:-}; shift ;;
        -o) out=${2:-}; shift ;;
        *) echo "s63.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
case "$model" in qp) qp=pair ;; independent) qp=none ;;
    *) echo "s63.sh: --model must be qp or independent" >&2; exit 2 ;; esac
case "$jobs" in ''|*[!0-9]*|0) echo "s63.sh: -j needs a positive number" >&2; exit 2 ;; esac
if [ $quick = 1 ]; then
    dur=10ms warm=3ms cool=2ms meas=3ms loads="70%"
    [ -n "$seeds" ] || seeds=1..2
else
    dur=100ms warm=50ms cool=5ms meas=50ms loads="50% 70%"
    [ -n "$seeds" ] || seeds=1..5
fi
[ -n "$out" ] || out=runs/s63-$model$([ $quick = 1 ] && echo -quick)
make -s -j2 build/roccsim || exit 2
mkdir -p "$out" || exit 2
# A private copy: a rebuild during the runs must not change (or remove) the binary.
cp build/roccsim "$out/roccsim" || exit 2
here=$(pwd)/experiments/datacenter
common="sim.duration = $dur
sim.measure_start = $meas
sim.sample_interval = 100us
fct.warmup = $warm
fct.cooldown = $cool
fct.bins = 1KB 10KB 100KB 1MB 10MB 30MB
traffic.bg.qp = $qp"
sweep() {   # NAME SCENARIO VARY...
    local name=$1 scen=$2; shift 2
    { printf '[sweep]\nscenario = %s\nseeds = %s\n\n[set]\n%s\n\n[vary]\n' "$here/$scen" "$seeds" "$common"
      printf '%s\n' "$@"; } > "$out/$name.sweep.ini"
    echo "== $name: $(grep -c . <<<"$(printf '%s\n' "$@")") varied keys, seeds $seeds, $dur runs" >&2
    nice -n 10 "$out/roccsim" sweep "$out/$name.sweep.ini" -o "$out/$name" -j "$jobs" >"$out/$name.log" 2>&1
}
t0=$(date +%s)
fail=0
sweep main s63-fb70-rocc.ini "cc.algorithm = rocc dcqcn hpcc" "traffic.bg.cdf = fb_hadoop websearch" \
    "traffic.bg.load = $loads" || fail=1
sweep unlimited s63-fb70-unlimited-rocc.ini "cc.algorithm = rocc dcqcn hpcc" || fail=1
sweep lossy s63-fb70-lossy-rocc.ini "cc.algorithm = rocc dcqcn hpcc" || fail=1
t1=$(date +%s)
scripts/lib/s63-table.awk -v model="$model" -v dur="$dur" -v seeds="$seeds" -v secs=$((t1 - t0)) \
    "$out/main/sweep.tsv" "$out/unlimited/sweep.tsv" "$out/lossy/sweep.tsv" | tee "$out/tables.txt"
[ $fail = 0 ] || echo "s63.sh: some runs failed: see $out/*.log" >&2
exit $fail
