#!/usr/bin/env bash
# bench/parallel.sh [-r ROUNDS] [-d DURATION] [-n RANKS] [SCENARIO.ini] -- speed of
# one run over MPI ranks (docs/parallel.md), a benchmark, not a test.
# For each round: the plain sequential run, then `mpirun -np RANKS` of the
# same scenario (default bench/fattree-k16-permutation.ini, RANKS 2), both
# with --set sim.duration=DURATION (default 300us); whole-process wall time
# of each (mpirun's start-up included) and the speedup sequential / parallel
# of that round; the outputs must be byte-identical (else it says so).
# The ratio is measured within one round (the two runs back to back), so a
# shared machine's load moves both; the rounds show how much it moved.
# CPU seconds and peak RSS are printed too (sequential process; per rank in
# its windows and in synchronisation, and its peak memory): on a loaded machine they say what a quiet one
# would do better than wall time (a rank waiting for a descheduled peer
# shows as synchronisation).
set -u
. "$(dirname "$0")/../scripts/lib/help.bash"
script_help "$@"
cd "$(dirname "$0")/.."
SIM=${ROCCSIM:-build/roccsim}
rounds=3 dur=300us ranks=2
while getopts r:d:n: o; do
    case $o in
        r) rounds=$OPTARG ;;
        d) dur=$OPTARG ;;
        n) ranks=$OPTARG ;;
        *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
ini=${1:-bench/fattree-k16-permutation.ini}
MPIRUN=(mpirun --oversubscribe)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
now() { date +%s.%N; }
echo "# $ini, sim.duration=$dur, $ranks ranks, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'round\tseq_wall_s\tpar_wall_s\tspeedup\tidentical\n'
for r in $(seq 1 "$rounds"); do
    t0=$(now)
    /usr/bin/time -f "%U %S %M" -o "$out/seq.cpu" "$SIM" run "$ini" --set sim.duration="$dur" -q -o "$out/seq" >/dev/null 2>&1 ||
        { echo "sequential run failed"; exit 1; }
    t1=$(now)
    "${MPIRUN[@]}" -np "$ranks" "$SIM" run "$ini" --set sim.duration="$dur" -o "$out/par" >/dev/null 2>"$out/par.err" ||
        { echo "parallel run failed"; cat "$out/par.err"; exit 1; }
    t2=$(now)
    # CPU seconds: the sequential process (user + sys), and each rank's in
    # its windows and in synchronisation (parallel.c, on stderr)
    awk '{ printf "#   sequential: %.2f s CPU, %.1f MB peak RSS\n", $1 + $2, $3 / 1024 }' "$out/seq.cpu"
    sed -n 's/^parallel: \(rank .*\)/#   \1/p' "$out/par.err"
    same=yes
    for f in "$out"/seq/*; do cmp -s "$f" "$out/par/$(basename "$f")" || same=no; done
    awk -v r="$r" -v a="$t0" -v b="$t1" -v c="$t2" -v s="$same" \
        'BEGIN { printf "%d\t%.2f\t%.2f\t%.3f\t%s\n", r, b - a, c - b, (b - a) / (c - b), s }'
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
