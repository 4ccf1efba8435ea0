#!/usr/bin/env bash
# bench/run.sh [ROCCSIM] -- simulator speed benchmarks (not tests).
# Runs each bench/*.ini once, prints simulated time (ms), wall time of the
# event loop, set-up time (start of main to the first event), whole-process
# wall time (exec to exit: set-up, loop, outputs), events, packet-hops,
# M events/s, M hops/s, ns/event, events/hop and peak RSS, and appends one
# line per benchmark to bench/results.tsv (simulated time in s, no M events/s:
# it is 1000 / ns_per_event) with the commit and the machine; whole_s and
# setup_s are the last two columns (rows before 2026-11-27 lack them).
# Rates come from roccsim's own hops/s, which uses the unrounded wall time
# of the event loop (the printed wall time has two decimals).
set -eu
. "$(dirname "$0")/../scripts/lib/help.bash"
script_help "$@"
cd "$(dirname "$0")/.."
SIM=${1:-build/roccsim}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
machine="$(uname -m) $(nproc)cpu $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' | tr -s ' ')"
[ -f bench/results.tsv ] || printf 'date\tcommit\tbenchmark\tsim_s\twall_s\tevents\thops\tMhops_per_s\tns_per_event\tevents_per_hop\tpeak_rss_mb\tmachine\twhole_s\tsetup_s\n' > bench/results.tsv  # M events/s = 1000 / ns_per_event
echo "machine: $machine; load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-26s %8s %8s %8s %8s %12s %12s %9s %9s %9s %9s %8s\n' benchmark sim_ms wall_s setup_s whole_s events hops Mevents/s Mhops/s ns/event ev/hop RSS_MB
for ini in bench/*.ini; do
    name=$(basename "$ini" .ini)
    t0=$(date +%s.%N)
    "$SIM" run "$ini" -o "$out/$name" > "$out/$name.txt"
    whole=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
    line=$(grep -m1 '^  simulated' "$out/$name.txt")
    wall=$(echo "$line" | sed -n 's/.* in \([0-9.]*\) s wall.*/\1/p')
    mhops=$(echo "$line" | sed -n 's/.*(\([0-9.]*\) M hops\/s.*/\1/p')
    rss=$(echo "$line" | sed -n 's/.*peak RSS \([0-9.]*\) MB.*/\1/p')
    setup=$(echo "$line" | sed -n 's/.*set-up \([0-9.]*\) s.*/\1/p')
    events=$(grep -m1 '"events":' "$out/$name/summary.json" | tr -dc 0-9)
    hops=$(grep -m1 '"hops":' "$out/$name/summary.json" | tr -dc 0-9)
    dur=$(grep -m1 '"duration_s":' "$out/$name/summary.json" | sed 's/.*: *\([0-9.e-]*\).*/\1/')
    read -r sim_ms mev nsev evhop < <(awk -v d="$dur" -v m="$mhops" -v e="$events" -v h="$hops" \
        'BEGIN { printf "%.3f %.2f %.1f %.2f\n", d*1000, m*e/h, 1000*h/(m*e), e/h }')
    printf '%-26s %8s %8s %8s %8s %12s %12s %9s %9s %9s %9s %8s\n' "$name" "$sim_ms" "$wall" "$setup" "$whole" "$events" "$hops" "$mev" "$mhops" "$nsev" "$evhop" "$rss"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$commit" "$name" "$dur" "$wall" \
        "$events" "$hops" "$mhops" "$nsev" "$evhop" "$rss" "$machine" "$whole" "$setup" >> bench/results.tsv
done
