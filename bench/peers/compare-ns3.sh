#!/usr/bin/env bash
# bench/peers/compare-ns3.sh [SIM_TIME] -- roccsim vs ns-3 on benchmark 1
# (16 x 100 Gb/s senders -> 1 switch -> 1 receiver).  A benchmark, not a test.
#
#   1. installs Debian's libns3-dev (ns-3.37) if missing (apt-get, as root
#      or through sudo);
#   2. builds roccsim (top-level make) and the ns-3 peer (bench/peers/ns3);
#   3. runs bench/dumbbell-16x100g.ini with --set sim.duration=SIM_TIME and
#      the ns-3 peer with --duration=SIM_TIME (default 20ms);
#   4. prints both simulators' packet-hops per wall second and the ratio
#      roccsim / ns-3.
#
# Environment:
#   ROUNDS=3        rounds; each pairs roccsim and ns-3 runs back to back
#                   and gives one ratio; the median ratio is reported
#   REPEAT=3        roccsim runs per round (short); their median is used
#   NS3_REPEAT=1    ns-3 runs per round (wall per simulated ms here: about
#                   0.25 s with DCTCP, 0.2 s at the fair share, 1.2 s for
#                   UDP at line rate)
#   NS3_ARGS=...    extra arguments for the peer, e.g. "--load=0.0625" (fair
#                   share, no loss) or "--transport=dctcp"; see README.md
#   MATCH=1         (default) with --transport=dctcp, roccsim runs the same
#                   transport: window-based DCTCP (cc.algorithm=dctcp_window)
#                   with step ECN marking at the peer's --ecnK packets (65
#                   unless given) of 1062-byte frames, so both simulators do
#                   the same work; MATCH=0 keeps roccsim on RoCC.  ns-3 has no
#                   RoCE, so the UDP variants always face roccsim's RoCC run.
#   ROCCSIM=path    roccsim binary to measure (default build/roccsim, which
#                   the script (re)builds with make; another path is used as
#                   it is and must exist)
set -eu
. "$(dirname "$0")/../../scripts/lib/help.bash"
script_help "$@"
cd "$(dirname "$0")/../.."
SIM_TIME=${1:-20ms}
ROUNDS=${ROUNDS:-3}
REPEAT=${REPEAT:-3}
NS3_REPEAT=${NS3_REPEAT:-1}
NS3_ARGS=${NS3_ARGS:-}
ROCCSIM=${ROCCSIM:-build/roccsim}
MATCH=${MATCH:-1}
PEER=build/peers/ns3/dumbbell
INI=bench/dumbbell-16x100g.ini

# 1. ns-3 from Debian (idempotent).
. scripts/lib/deps.bash
install_missing libns3-dev g++ make || { echo "compare-ns3.sh: could not install libns3-dev g++ make" >&2; exit 2; }

# 2. Builds.
if [ "$ROCCSIM" = build/roccsim ]; then
    make -s all
elif [ ! -x "$ROCCSIM" ]; then
    echo "compare-ns3.sh: ROCCSIM=$ROCCSIM is not an executable file" >&2
    exit 2
fi
make -s -C bench/peers/ns3 BUILD="$PWD/build/peers/ns3"

. bench/peers/lib.bash       # median, peer_machine

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
machine=$(peer_machine)
echo "machine: $machine"
echo "simulated time: $SIM_TIME"
echo

R_SET=()
R_TRAFFIC="RoCC"
case " $NS3_ARGS " in
*" --transport=dctcp "*)
    if [ "$MATCH" = 1 ]; then
        k=$(echo " $NS3_ARGS " | sed -n 's/.* --ecnK=\([0-9]*\) .*/\1/p')
        k=${k:-65}
        kb=$((k * 1062))        # the peer marks at k packets; roccsim's data frame is 1062 B
        R_SET=(--set cc.algorithm=dctcp_window --set ecn.kmin=$kb --set ecn.kmax=$kb)
        R_TRAFFIC="DCTCP (window), ECN step at $k x 1062 B"
    fi
    ;;
esac
# 3. Rounds: each runs roccsim REPEAT times (median) and then ns-3
# NS3_REPEAT times (median), back to back, and gives one ratio.  The VM's
# speed drifts by tens of percent over minutes, so pairing the two within a
# round and taking the median over rounds is steadier than one long pair.
: > "$out/ratios"
: > "$out/all_roccsim.hps"
: > "$out/all_ns3.hps"
for round in $(seq "$ROUNDS"); do
    # 3a. roccsim: its own report line gives hops/s over its own wall clock
    # (the run, not reading the scenario); events and hops come from summary.json.
    : > "$out/roccsim.hps"
    for i in $(seq "$REPEAT"); do
        # Exit 1 is a failed [expect] check (the rate check needs the flows to
        # have converged, which a very short SIM_TIME may not give): speed is
        # still measured.  Anything else is an error.
        rc=0
        "$ROCCSIM" run "$INI" --set "sim.duration=$SIM_TIME" "${R_SET[@]}" -o "$out/roccsim" > "$out/roccsim.txt" 2> "$out/roccsim.err" || rc=$?
        if [ "$rc" -gt 1 ]; then cat "$out/roccsim.txt" "$out/roccsim.err"; exit "$rc"; fi
        sed -n 's/.*(\([0-9.]*\) M hops\/s.*/\1/p' "$out/roccsim.txt" | head -n 1 >> "$out/roccsim.hps"
    done
    r_round=$(median < "$out/roccsim.hps")
    cat "$out/roccsim.hps" >> "$out/all_roccsim.hps"

    # 3b. ns-3 peer: hops/s over Simulator::Run() only (setup excluded, in
    # ns-3's favour).
    : > "$out/ns3.hps"
    for i in $(seq "$NS3_REPEAT"); do
        # shellcheck disable=SC2086
        "$PEER" --duration="$SIM_TIME" $NS3_ARGS > "$out/ns3.txt"
        sed -n 's/^RESULT.* hops_per_s=\([0-9.]*\).*/\1/p' "$out/ns3.txt" | awk '{ print $1 / 1e6 }' >> "$out/ns3.hps"
    done
    n_round=$(median < "$out/ns3.hps")
    cat "$out/ns3.hps" >> "$out/all_ns3.hps"
    awk -v a="$r_round" -v b="$n_round" -v r="$round" 'BEGIN {
        printf "round %d: roccsim %.3f M hops/s, ns-3 %.3f M hops/s, ratio %.1fx\n", r, a, b, a / b }'
    awk -v a="$r_round" -v b="$n_round" 'BEGIN { printf "%.3f\n", a / b }' >> "$out/ratios"
done
echo
r_line=$(grep -m1 '^  simulated' "$out/roccsim.txt")
r_events=$(grep -m1 '"events":' "$out/roccsim/summary.json" | tr -dc 0-9)
r_hops=$(grep -m1 '"hops":' "$out/roccsim/summary.json" | tr -dc 0-9)
r_rss=$(echo "$r_line" | sed -n 's/.*peak RSS \([0-9.]*\) MB.*/\1/p')
r_mhps=$(median < "$out/all_roccsim.hps")
res=$(grep -m1 '^RESULT' "$out/ns3.txt")
field() { echo "$res" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
n_events=$(field events); n_hops=$(field hops); n_rss=$(field rss_mb); n_nsev=$(field ns_per_event)
n_mhps=$(median < "$out/all_ns3.hps")

echo "roccsim ($INI, $R_TRAFFIC; last of $ROUNDS x $REPEAT run(s), the table has the median hops/s):"
echo "$r_line" | sed 's/^ */  /'
echo "$(head -n 1 "$out/ns3.txt") (last of $ROUNDS x $NS3_REPEAT run(s)):"
sed -n '2,10p' "$out/ns3.txt"
echo
printf '%-8s %12s %12s %10s %10s %9s %8s\n' sim events hops Mhops/s ns/event ev/hop RSS_MB
awk -v e="$r_events" -v h="$r_hops" -v m="$r_mhps" -v rss="$r_rss" 'BEGIN {
    printf "%-8s %12d %12d %10.3f %10.1f %9.2f %8s\n", "roccsim", e, h, m, 1000 * h / (m * e), e / h, rss }'
awk -v e="$n_events" -v h="$n_hops" -v m="$n_mhps" -v ns="$n_nsev" -v rss="$n_rss" 'BEGIN {
    printf "%-8s %12d %12d %10.3f %10s %9.2f %8s\n", "ns-3", e, h, m, ns, e / h, rss }'
echo
echo "ratio roccsim/ns-3 (packet-hops per wall second), median of $ROUNDS round(s): $(median < "$out/ratios" | awk '{ printf "%.1f", $1 }')x"
echo "  per round: $(awk '{ printf "%.1fx ", $1 }' "$out/ratios")"
