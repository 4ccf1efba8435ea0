#!/usr/bin/env bash
# bench/same-outputs.sh [-j JOBS] [-k] [--old-set K=V] [--new-set K=V] OLD_ROCCSIM NEW_ROCCSIM [NAME...]
# Are two builds' simulations the same?  Runs a fixed list of scenarios
# (the bench/ dumbbells, the k = 8 permutation and FB_Hadoop runs, and
# experiments/ files covering every transport and flow-control scheme, each
# shortened) with both binaries and compares every output file byte for
# byte, and the printed report with its wall time, rates, peak RSS and
# set-up time masked (the only parts a machine may change), plus the exit
# status.  Prints one line per scenario:
#
#   same    hpcc-dumbbell         (10 files, 1 report)
#   DIFFER  rocc-pfc-incast       flows.csv report
#
# and exits 0 when every scenario is the same, 1 when any differs, 2 on bad
# usage.  Meant for changes that must not change results (speed work):
# build the base commit's binary to a copy first, e.g.
#   git stash; make -j2; cp build/roccsim /tmp/roccsim-old; git stash pop; make -j2
#   bench/same-outputs.sh /tmp/roccsim-old build/roccsim
# NAME... runs only those scenarios (names as printed).  JOBS scenarios run
# at once (default 2: old and new of one scenario side by side).  -k keeps
# the runs' directory (printed) instead of deleting it.  --old-set and
# --new-set (repeatable) add a --set override to every run of one side:
# the same binary twice with a setting that must not change results, e.g.
#   bench/same-outputs.sh --old-set sim.prefetch=off --new-set sim.prefetch=on build/roccsim build/roccsim
# (the report's ", look-ahead on" is masked with the machine's numbers).
# ~2-3 minutes on an idle 2-core machine.
set -u
. "$(dirname "$0")/../scripts/lib/help.bash"
script_help "$@"
jobs=2; keep=0; old_sets=""; new_sets=""
while [ $# -gt 0 ]; do
    case $1 in
        -j) jobs=${2:?-j needs a count}; shift 2 ;;
        -k) keep=1; shift ;;
        --old-set) old_sets="$old_sets ${2:?--old-set needs KEY=VALUE}"; shift 2 ;;
        --new-set) new_sets="$new_sets ${2:?--new-set needs KEY=VALUE}"; shift 2 ;;
        *) break ;;
    esac
done
usage="usage: bench/same-outputs.sh [-j JOBS] [-k] [--old-set K=V] [--new-set K=V] OLD_ROCCSIM NEW_ROCCSIM [NAME...]"
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
case $jobs in ''|*[!0-9]*|0) echo "same-outputs.sh: -j: expected a positive integer, got '$jobs'" >&2; exit 2 ;; esac
old=$(realpath "$1" 2>/dev/null) && [ -x "$old" ] || { echo "same-outputs.sh: $1: not an executable" >&2; exit 2; }
new=$(realpath "$2" 2>/dev/null) && [ -x "$new" ] || { echo "same-outputs.sh: $2: not an executable" >&2; exit 2; }
shift 2
cd "$(dirname "$0")/.."
# The workload CDFs (data/cdf) are found from the repository whichever
# binary runs: an old binary copied elsewhere would not find them.
export ROCC_DATA=$PWD/data

# name | scenario | --set overrides.  Durations are as short as each
# scenario's mechanism needs to act (an attack's start, a failure's time, a
# deadlock's onset); measure_start moves in with them where the file's
# window would lie past the shortened end.  Scenarios whose [expect] windows
# or [events] lie late run whole (each is under ~2 s).
list=$(cat <<'EOF'
rocc-dumbbell|bench/dumbbell-16x100g.ini|sim.duration=5ms
hpcc-dumbbell|bench/dumbbell-16x100g-hpcc.ini|sim.duration=5ms
dcqcn-dumbbell|bench/dumbbell-16x100g-dcqcn.ini|sim.duration=5ms
rocc-dumbbell-64|bench/dumbbell-64x100g.ini|sim.duration=2ms
crossdc-longhaul|bench/crossdc-longhaul.ini|sim.duration=1ms sim.measure_start=500us
fattree-k8|bench/fattree-k8-permutation.ini|sim.duration=150us
rocc-fb70|bench/rocc-fb70.ini|sim.duration=3ms
hpcc-fig11|experiments/compare/fig11-hpcc.ini|sim.duration=400us sim.measure_start=200us
dcqcn-fig11|experiments/compare/fig11-dcqcn.ini|sim.duration=400us sim.measure_start=200us
dcqcn-pi-fig11|experiments/compare/fig11-dcqcn-pi.ini|sim.duration=400us sim.measure_start=200us
qcn-fig11|experiments/compare/fig11-qcn.ini|sim.duration=400us sim.measure_start=200us
timely-fig11|experiments/compare/fig11-timely.ini|sim.duration=400us sim.measure_start=200us
rocc-fig11|experiments/compare/fig11-rocc.ini|sim.duration=400us sim.measure_start=200us
dcqcn-bcm-d-n10|experiments/compare/bcm-n10-d.ini|sim.duration=400us sim.measure_start=200us
dcqcn-bcm-p-incast|experiments/compare/bcm-incast100-p.ini|sim.duration=400us sim.measure_start=200us
rocc-dcqcn-mixed|experiments/compare/mixed-rocc-dcqcn.ini|sim.duration=400us sim.measure_start=200us
hpcc-star-attack|experiments/crossdc/hpccstar-dint-attack.ini|
expresspass-incast|experiments/compare/xpass-incast.ini|sim.duration=400us sim.measure_start=200us
expresspass-parkinglot|experiments/compare/xpass-parkinglot-scaled.ini|sim.duration=400us sim.measure_start=200us
rcc-innetwork|experiments/rcc/fig8-innetwork.ini|sim.duration=400us sim.measure_start=200us
rcc-lasthop|experiments/rcc/fig8-lasthop.ini|sim.duration=400us sim.measure_start=200us
homa-incast|experiments/homa/incast-priorities.ini|
homa-websearch|experiments/homa/websearch-leafspine.ini|sim.duration=2ms
rocc-pfc-incast|experiments/rocc/pfc-incast.ini|sim.duration=400us
rocc-pfc-incast-dynamic|experiments/rocc/pfc-incast-dynamic.ini|sim.duration=400us
rocc-fairness-n10|experiments/rocc/fairness-n10-100g.ini|
rocc-multicp-chain3|experiments/multicp/chain3-100g.ini|sim.duration=400us sim.measure_start=200us
rocc-flowtables|experiments/rocc-flowtables/leafspine-ws.ini|sim.duration=3ms sim.measure_start=2ms fct.cooldown=1ms
lossy-gbn|experiments/rocc/lossy-gbn.ini|sim.duration=400us
rocc-fb70-lossy|experiments/datacenter/s63-fb70-lossy-rocc.ini|sim.duration=3ms sim.measure_start=2ms fct.warmup=1ms fct.cooldown=1ms
escape-ring|experiments/escape/ring-escape.ini|sim.duration=2ms sim.measure_start=1ms
escape-fattree-failure|experiments/escape/fattree-failure-escape.ini|
gfc-ring3|experiments/escape/ring3-gfc-ci.ini|sim.duration=2ms sim.measure_start=1ms
gfc-incast2|experiments/escape/incast2-gfc.ini|sim.duration=400us sim.measure_start=200us
loop-breaker-ring3|experiments/escape/ring3-lb.ini|sim.duration=2ms sim.measure_end=2ms
deadlock-breaker-ring3|experiments/escape/ring3-dlb.ini|sim.duration=2ms sim.measure_end=2ms
swing-incast|experiments/crossdc/swing-incast.ini|sim.duration=1ms sim.measure_start=500us
openqueue-alg-a|experiments/openqueue/exp1-alg-a.ini|sim.duration=400us sim.measure_start=200us
openqueue-rocc|experiments/openqueue/exp5-rocc-openqueue.ini|sim.duration=400us sim.measure_start=200us
openqueue-ecn-dcqcn|experiments/openqueue/ecn-dcqcn-mark.ini|sim.duration=400us sim.measure_start=200us
link-failure|experiments/datacenter/link-failure.ini|
cnp-attack|experiments/security/cnp-attack.ini|
EOF
)
if [ $# -gt 0 ]; then
    want=" $* "
    list=$(printf '%s\n' "$list" | while IFS='|' read -r name rest; do
        case $want in *" $name "*) printf '%s|%s\n' "$name" "$rest" ;; esac
    done)
    [ -n "$list" ] || { echo "same-outputs.sh: no scenario named: $*" >&2; exit 2; }
fi

dir=$(mktemp -d /tmp/same-outputs.XXXXXX)
if [ $keep = 0 ]; then trap 'rm -rf "$dir"' EXIT; fi

# One run: DIR/SIDE/NAME/out (the outputs) and NAME.txt (the report, with
# the machine-dependent numbers masked) and NAME.rc.  Each run has its own
# working directory so the printed output path is the same for both sides.
run_one() {  # side binary name ini sets
    local side=$1 bin=$2 name=$3 ini=$4 sets=$5 args=() s rc
    for s in $sets; do args+=(--set "$s"); done
    mkdir -p "$dir/$side/$name"
    ( cd "$dir/$side/$name" && "$bin" run "$OLDPWD/$ini" -o out "${args[@]}" > report.raw 2>&1 )
    rc=$?
    echo "$rc" > "$dir/$side/$name/rc"
    sed -e 's/ in [0-9.]* s wall/ in X s wall/' -e 's/([0-9.]* M hops\/s/(X M hops\/s/' \
        -e 's/peak RSS [0-9.]* [KMG]B/peak RSS X/' -e 's/set-up [0-9.]* s/set-up X s/' -e 's/, look-ahead on$//' \
        "$dir/$side/$name/report.raw" > "$dir/$side/$name/report"
}

# Run every scenario on both sides, JOBS runs at a time.
n=0
while IFS='|' read -r name ini sets; do
    for side in old new; do
        if [ $side = old ]; then bin=$old extra=$old_sets; else bin=$new extra=$new_sets; fi
        run_one "$side" "$bin" "$name" "$ini" "$sets$extra" &
        n=$((n + 1))
        if [ $n -ge "$jobs" ]; then wait -n; n=$((n - 1)); fi
    done
done <<< "$list"
wait

status=0
while IFS='|' read -r name ini sets; do
    a=$dir/old/$name b=$dir/new/$name bad=""
    oldrc=$(cat "$a/rc") newrc=$(cat "$b/rc")
    [ "$oldrc" = "$newrc" ] || bad="$bad exit($oldrc/$newrc)"
    case $oldrc in 0|1) ;; *) bad="$bad did-not-run($oldrc)" ;; esac
    cmp -s "$a/report" "$b/report" || bad="$bad report"
    files=0
    for f in $( (cd "$a/out" 2>/dev/null && ls; cd "$b/out" 2>/dev/null && ls) | sort -u); do
        files=$((files + 1))
        cmp -s "$a/out/$f" "$b/out/$f" || bad="$bad $f"
    done
    if [ -z "$bad" ]; then
        printf 'same    %-24s (%d files, 1 report)\n' "$name" "$files"
    else
        printf 'DIFFER  %-24s%s\n' "$name" "$bad"
        status=1
    fi
done <<< "$list"
[ $keep = 1 ] && echo "runs kept in $dir"
exit $status
