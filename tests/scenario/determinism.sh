#!/usr/bin/env bash
# tests/scenario/determinism.sh -- a run is a function of its scenario and
# seed: the same seed twice gives byte-identical output files, and another
# seed gives other results once something draws from the generator
# (start_jitter).  One PASS/FAIL line per case.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
ROCCSIM=${ROCCSIM:-$BUILD/roccsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

pass() { echo "PASS determinism.$1"; }
fail() { echo "FAIL determinism.$1"; shift; printf '  %s\n' "$@"; status=1; }

# run DIR ARGS... -- roccsim run ARGS -q -o DIR; 0 if it exited 0.
run() {
    local dir=$1; shift
    if ! "$ROCCSIM" run "$@" -q -o "$dir" >"$dir.log" 2>&1; then
        sed 's/^/  /' "$dir.log"
        return 1
    fi
}

# same_outputs DIR1 DIR2 -- same file names, every file byte-identical.
same_outputs() {
    local a=$1 b=$2 f problems=""
    [ "$(cd "$a" && ls)" = "$(cd "$b" && ls)" ] || problems="different file sets: $(cd "$a" && ls | tr '\n' ' ')/ $(cd "$b" && ls | tr '\n' ' ')"
    for f in "$a"/*; do
        [ -f "$f" ] || continue
        cmp -s "$f" "$b/$(basename "$f")" || problems="$problems $(basename "$f") differs;"
    done
    [ -z "$problems" ] && [ -n "$(ls "$a")" ] && return 0
    echo "${problems:-no output files}"
    return 1
}

# 1. Same scenario, same (default) seed, twice: RoCC CP/RP, sampling.
case_same_seed() {
    local name=$1 ini=$2 why
    if run "$tmp/$name.1" "$ini" && run "$tmp/$name.2" "$ini"; then
        if why=$(same_outputs "$tmp/$name.1" "$tmp/$name.2"); then pass "$name"; else fail "$name" "$why"; fi
    else
        fail "$name" "roccsim failed"
    fi
}
case_same_seed same_seed_rocc experiments/rocc/fairness-n2-40g.ini
case_same_seed same_seed_lossy experiments/rocc/lossy-gbn.ini

# 2. With start jitter the seed decides the start times: seed 1 twice is
#    identical, seed 2 differs -- in the results, not only in the recorded
#    seed (summary.json names the seed, so look at the CSV files).
ini=experiments/rocc/fairness-n2-40g.ini
j=(--set flows.bulk.start_jitter=200us)
if run "$tmp/j1a" "$ini" --set sim.seed=1 "${j[@]}" && run "$tmp/j1b" "$ini" --set sim.seed=1 "${j[@]}" &&
   run "$tmp/j2" "$ini" --set sim.seed=2 "${j[@]}"; then
    if why=$(same_outputs "$tmp/j1a" "$tmp/j1b"); then pass jitter_same_seed_identical; else fail jitter_same_seed_identical "$why"; fi
    differ=""
    for f in "$tmp"/j1a/*.csv; do
        cmp -s "$f" "$tmp/j2/$(basename "$f")" || differ="$differ $(basename "$f")"
    done
    if [ -n "$differ" ]; then
        pass seed_changes_results
    else
        fail seed_changes_results "seed 1 and seed 2 with start_jitter = 200us gave identical CSV outputs"
    fi
else
    fail jitter_same_seed_identical "roccsim failed"
    fail seed_changes_results "roccsim failed"
fi
# 3. The event loop's look-ahead ([sim] prefetch; by default on when the
#    fabric's ports pass 1 MB) fetches lines early and changes nothing
#    else: every scenario of bench/same-outputs.sh (every transport and
#    flow-control scheme) gives byte-identical files and report with it
#    forced on and forced off.  And the setting takes: the run line says
#    "look-ahead on" exactly when it is on (auto: on for the k = 16
#    fat-tree's 3,072 ports, off for a dumbbell).
if out=$(bench/same-outputs.sh --old-set sim.prefetch=off --new-set sim.prefetch=on "$ROCCSIM" "$ROCCSIM" 2>&1) &&
   [ "$(printf '%s\n' "$out" | grep -c '^same ')" -ge 40 ]; then
    pass prefetch_changes_no_output
else
    fail prefetch_changes_no_output "$(printf '%s\n' "$out" | grep -v '^same ' | head -5)"
fi
lookahead() {  # lookahead INI ARGS... -- "on"/"off" from the run line, or "failed" (no run line)
    local ini=$1; shift
    "$ROCCSIM" run "$ini" -o "$tmp/la" "$@" >"$tmp/la.log" 2>&1     # a shortened run may miss its [expect]s
    grep -q '^  simulated ' "$tmp/la.log" || { echo failed; return; }
    if grep -q '^  simulated .*, look-ahead on$' "$tmp/la.log"; then echo on; else echo off; fi
}
k16=(bench/fattree-k16-permutation.ini --set sim.duration=2us --set sim.measure_start=1us)
db=(bench/dumbbell-16x100g.ini --set sim.duration=20us --set sim.measure_start=10us)
got="$(lookahead "${k16[@]}") $(lookahead "${k16[@]}" --set sim.prefetch=off) $(lookahead "${db[@]}") $(lookahead "${db[@]}" --set sim.prefetch=on)"
if [ "$got" = "on off off on" ]; then
    pass prefetch_setting_takes
else
    fail prefetch_setting_takes "k16 auto, k16 off, dumbbell auto, dumbbell on: expected 'on off off on', got '$got'"
fi
exit $status
