#!/usr/bin/env bash
# bench/crossdc.sh -- does a long-haul link slow the simulator down or blow
# up its memory?  Runs bench/crossdc-longhaul.ini (16 flows across a
# saturated 200 Gb/s long-haul link, PFC only) with one-way delays
# DELAYS (default "1us 1ms 10ms") and prints one line per run: events,
# packet-hops, CPU seconds (user + sys, from /usr/bin/time: the machine's
# load does not inflate them as it does wall time), events and hops per CPU
# second, peak RSS, and the packets still in flight at the end.  Numbers in
# docs/crossdc.md.  Not a test: timings depend on the machine.
set -eu
cd "$(dirname "$0")/.."
[ "${1:-}" = --help ] && { sed -n '2,9p' "$0"; exit 0; }
[ -x /usr/bin/time ] || { echo "bench/crossdc.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
make -s build/roccsim
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-8s %10s %10s %8s %12s %12s %9s %10s\n' delay events hops cpu_s events/cpu_s hops/cpu_s rss_MB in_flight
for d in ${DELAYS:-1us 1ms 10ms}; do
    /usr/bin/time -f '%U %S %M' -o "$out/time" build/roccsim run bench/crossdc-longhaul.ini \
        --set topology.longhaul_delay="$d" -o "$out/r" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
    read -r u s m <"$out/time"
    python3 - "$out/r/summary.json" "$d" "$u" "$s" "$m" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cpu = float(sys.argv[3]) + float(sys.argv[4])
ev, hops = d["events"], d["hops"]
fl = d["packets"]["in_flight"]
print("%-8s %10d %10d %8.2f %12.3g %12.3g %9.1f %10d" % (sys.argv[2], ev, hops, cpu, ev / cpu, hops / cpu, int(sys.argv[5]) / 1024, fl))
PY
done
