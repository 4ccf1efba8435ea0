#!/usr/bin/env bash
# scripts/openqueue-exp.sh [--quick] [-o DIR] -- the OpenQueue experiments of
# issue 13 in the simulator (docs/openqueue.md "Experiments"), one command:
#   experiment 1 (dissertation §2.5.4, Fig. 2.19a-b):
#     experiments/openqueue/exp1-alg-{a,b,c}.ini at offered loads of 6, 8,
#     10, 12, 16 and 20 Gb/s (both sources together; 30% of the bytes high
#     value): frames sent and weighted throughput (value sent) per
#     algorithm; checks A < B < C on value sent at every load;
#   experiment 2 (Fig. 2.19c-d): experiments/openqueue/exp2-alg-{a,c}-k{2,4,8}.ini
#     at 8 Gb/s: checks C above A for every k;
#   experiment 5 (equivalence): experiments/openqueue/exp5-{rocc,lossy}-
#     {builtin,openqueue}.ini: checks that each pair's flows.csv, queue.csv,
#     fair_rate.csv, flow_rate.csv and fct.tsv are byte-identical.
# Full length by default (experiments 1 and 2: 200 ms of simulated time,
# measured from 20 ms; experiment 5: 50 ms), the files' own CI length
# (20 ms) with --quick.  Writes DIR/table.tsv (experiment, algorithm,
# load_gbps, k, frames_sent, value_sent, value_offered, drops, pushed_out),
# DIR/table.txt (the same aligned, then one line per check) and every run
# under DIR/<run>/.  Default DIR: runs/openqueue-exp.  Exit status 1 if a
# check failed, 2 if a run failed.
set -u
. "$(dirname "$0")/lib/help.bash"
script_help "$@"
cd "$(dirname "$0")/.."
. scripts/lib/expargs.bash
exp_args openqueue-exp.sh runs/openqueue-exp "$@"
dir=experiments/openqueue
len=(); len5=()
if [ $quick -eq 0 ]; then
    len=(--set sim.duration=200ms --set sim.measure_start=20ms)
    len5=(--set sim.duration=50ms)
fi
status=0
table="$out/table.tsv"
printf 'experiment\talgorithm\tload_gbps\tk\tframes_sent\tvalue_sent\tvalue_offered\tdrops\tpushed_out\n' > "$table"
checks=""

# oq FILE: summary.json's "openqueue" member (its lines up to the next member)
oq() { sed -n '/^  "openqueue"/,/^  "groups"/p' "$1"; }
# num FILE KEY: the first number after "KEY": in it
num() { oq "$1" | grep -o "\"$2\": [0-9.e+-]*" | head -1 | awk '{ print $2 }'; }
# sum FILE KEY: the sum over every "KEY": in it (per-queue counters)
sum() { oq "$1" | grep -o "\"$2\": [0-9]*" | awk '{ s += $2 } END { print s + 0 }'; }

# run NAME INI ARGS...: one run into $out/NAME; its table row fields on stdout
run() {
    local name=$1 ini=$2; shift 2
    if ! "$ROCCSIM" run "$ini" -q -o "$out/$name" "$@" >"$out/$name.log" 2>&1; then
        # an [expect] miss (exit 1) is the file's own business at this length
        grep -q '^FAIL' "$out/$name.log" || { echo "openqueue-exp.sh: $name failed:" >&2; cat "$out/$name.log" >&2; return 2; }
    fi
    local j="$out/$name/summary.json"
    printf '%s\t%s\t%s\t%s\t%s' "$(sum "$j" dequeued)" "$(num "$j" value_sent)" "$(num "$j" value_in)" \
        "$(sum "$j" dropped)" "$(sum "$j" pushed_out)"
}

# experiment 1: loads in Gb/s over both sources; each source sends 15% of
# the load as high value and 35% as low value
for load in 6 8 10 12 16 20; do
    hi=$(awk -v l=$load 'BEGIN { printf "%.0fMbps", l * 150 }')
    lo=$(awk -v l=$load 'BEGIN { printf "%.0fMbps", l * 350 }')
    declare -A v=()
    for alg in a b c; do
        row=$(run "exp1-$alg-${load}g" "$dir/exp1-alg-$alg.ini" "${len[@]}" --set "flows.high.rate=$hi" \
              --set "flows.low.rate=$lo") || { status=2; continue; }
        printf 'exp1\t%s\t%s\t-\t%s\n' "$alg" "$load" "$row" >> "$table"
        v[$alg]=$(cut -f2 <<<"$row")
    done
    ok=$(awk -v a="${v[a]:-0}" -v b="${v[b]:-0}" -v c="${v[c]:-0}" 'BEGIN { print (a < b && b < c) ? "PASS" : "FAIL" }')
    checks="${checks}$ok  exp1 load ${load} Gb/s: value sent A ${v[a]:-?} < B ${v[b]:-?} < C ${v[c]:-?}\n"
    [ "$ok" = PASS ] || { [ $status -eq 0 ] && status=1; }
done

# experiment 2
for k in 2 4 8; do
    declare -A v=()
    for alg in a c; do
        row=$(run "exp2-$alg-k$k" "$dir/exp2-alg-$alg-k$k.ini" "${len[@]}") || { status=2; continue; }
        printf 'exp2\t%s\t8\t%s\t%s\n' "$alg" "$k" "$row" >> "$table"
        v[$alg]=$(cut -f2 <<<"$row")
    done
    ok=$(awk -v a="${v[a]:-0}" -v c="${v[c]:-0}" 'BEGIN { print (a < c) ? "PASS" : "FAIL" }')
    checks="${checks}$ok  exp2 k = $k: value sent A ${v[a]:-?} < C ${v[c]:-?}\n"
    [ "$ok" = PASS ] || { [ $status -eq 0 ] && status=1; }
done

# experiment 5
for pair in rocc lossy; do
    run "exp5-$pair-builtin" "$dir/exp5-$pair-builtin.ini" "${len5[@]}" >/dev/null || { status=2; continue; }
    run "exp5-$pair-openqueue" "$dir/exp5-$pair-openqueue.ini" "${len5[@]}" >/dev/null || { status=2; continue; }
    differ=""
    for f in flows.csv queue.csv fair_rate.csv flow_rate.csv fct.tsv; do
        cmp -s "$out/exp5-$pair-builtin/$f" "$out/exp5-$pair-openqueue/$f" || differ="$differ $f"
    done
    if [ -z "$differ" ]; then
        checks="${checks}PASS  exp5 $pair: built-in and OpenQueue runs byte-identical (flows, queue, fair rate, flow rate, FCT)\n"
    else
        checks="${checks}FAIL  exp5 $pair: outputs differ:$differ\n"
        [ $status -eq 0 ] && status=1
    fi
done

{ column -t -s "$(printf '\t')" "$table" 2>/dev/null || cat "$table"; printf '\n%b' "$checks"; } > "$out/table.txt"
cat "$out/table.txt"
exit $status
