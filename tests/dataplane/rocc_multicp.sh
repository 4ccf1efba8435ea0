#!/usr/bin/env bash
# tests/dataplane/rocc_multicp.sh -- two RoCC CPs in one rocc-switch, each
# with its own librocc state and flow table (issue 5).  Needs root, netns,
# libdpdk.
#
#   mh1 eth0 --- s1 \                 / s4 --- eth0 mr1   port 3: 300 Mb/s, CP
#   mh2 eth0 --- s2  msw (rocc-switch)
#   mh3 eth0 --- s3 /                 \ s5 --- eth0 mr2   port 4: 100 Mb/s, CP
#
# h1 and h3 send to r1 (they share port 3), h2 sends to r2 (alone on port
# 4); all unlimited.  --cp 3 --cp 4 with --flow-table $FT (default
# bounded; FT=trap or FT=queue to try the others).  The CP parameters are
# rocc_dp.sh's (T = 1 ms, Qref 18750 B, ΔQ 300 B, ΔF 1 Mb/s) for both ports.
# PASS when h1 + h3 >= 150 of 300 Mb/s, each within ±15% of half their
# sum, h2 gets 50..105 of 100 Mb/s (judged only when both CPs ran 90% of
# their periods after the warm-up, else reported as SKIP lines:
# tests/dataplane/netns.bash on busy machines),
# each CP sent CNPs, and every CNP a sender accepted came from its own
# port's CP (h1/h3: CP id 0x103, h2: 0x104, counted by the RP).
set -u
cd "$(dirname "$0")/../.." || exit 1
DP=${DP:-build/dp}
DURATION=${DURATION:-6}
WARMUP=${WARMUP:-2.0}
FT=${FT:-bounded}
. tests/dataplane/netns.bash
dp_setup rocc_multicp roccmc "msw mh1 mh2 mh3 mr1 mr2" "rocc-switch rocc-host"

mac_sw() { printf '02:99:00:00:%02x:01' "$1"; }
mac_h()  { printf '02:99:00:00:%02x:02' "$1"; }
NS=(mh1 mh2 mh3 mr1 mr2)
for i in 1 2 3 4 5; do veth_link msw "s$i" "$(mac_sw $i)" "${NS[$((i - 1))]}" eth0 "$(mac_h $i)"; done
ip_h() { echo "10.99.$1.2"; }

routes=()
for i in 1 2 3 4 5; do routes+=(--route "$(ip_h $i)/32=$((i - 1)),$(mac_h $i)"); done
# shellcheck disable=SC2046
dp_start sw msw "$DP/rocc-switch" $(eal 1 sw s1 s2 s3 s4 s5) -- "${routes[@]}" \
    --egress-rate 3=0.3 --egress-rate 4=0.1 --cp 3 --cp 4 --cp-ip 10.99.0.1 --flow-table "$FT" \
    --period 1000 --qref 18750 --qmid 37500 --qmax 45000 --q-unit 300 --f-unit-mbps 1 --qcap 150000 \
    --report-ms 500 || exit 1
grep '^cp port' "$LOG/sw.log"
for i in 4 5; do
    # shellcheck disable=SC2046
    dp_start "r$((i - 3))" "${NS[$((i - 1))]}" "$DP/rocc-host" $(eal 0 "r$i" eth0) -- --local-ip "$(ip_h $i)" \
        --gw-mac "$(mac_sw $i)" --report-ms 500 || exit 1
done
dst=(x 4 5 4)
for i in 1 2 3; do
    # shellcheck disable=SC2046
    dp_start "h$i" "mh$i" "$DP/rocc-host" $(eal 0 "h$i" eth0) -- --local-ip "$(ip_h $i)" --gw-mac "$(mac_sw $i)" \
        --flow "dst=$(ip_h ${dst[$i]}),rate=line,size=inf,qpn=$i" --cp-allow 10.99.0.0/24 --f-unit-mbps 1 \
        --recovery-us 1375 --report-ms 500 || exit 1
done
# Every sender is up: the warm-up starts now, on each sink's clock.
from1=$(awk -v t="$(log_now "$LOG/r1.log")" -v w="$WARMUP" 'BEGIN { print t + w }')
from2=$(awk -v t="$(log_now "$LOG/r2.log")" -v w="$WARMUP" 'BEGIN { print t + w }')
sw_from=$(awk -v t="$(log_now "$LOG/sw.log")" -v w="$WARMUP" 'BEGIN { print t + w }')
sleep "$DURATION"
sw_cpu=$(cpu_share "$PID_sw")
for p in "${PIDS[@]}"; do kill -INT "$p" 2>/dev/null; done
for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
PIDS=()
for n in sw r1 r2 h1 h2 h3; do echo "--- $n"; grep '^final' "$LOG/$n.log" | grep -v '^final neigh'; done

m1=$(rx_mean "$LOG/r1.log" "$(ip_h 1)" "$from1"); m3=$(rx_mean "$LOG/r1.log" "$(ip_h 3)" "$from1")
m2=$(rx_mean "$LOG/r2.log" "$(ip_h 2)" "$from2")
echo "rates after ${WARMUP}s (Mb/s): h1=$m1 h3=$m3 (port 3, 300) h2=$m2 (port 4, 100); flow table $FT"
h3p=$(cp_health "$LOG/sw.log" 3 1000 "$sw_from"); h4p=$(cp_health "$LOG/sw.log" 4 1000 "$sw_from")
echo "the switch got ${sw_cpu}% of a CPU (DP_SCHED=$DP_SCHED); its CPs ran ${h3p}% (port 3) and ${h4p}% (port 4) of their 1 ms periods"
# Judged only when both CPs ran (netns.bash: a starved switch is not the
# control loop under test); shares are of what each port forwarded.
if [ "$h3p" -lt "$DP_MIN_CP_PERIODS" ] || [ "$h4p" -lt "$DP_MIN_CP_PERIODS" ]; then
    skip "rocc_multicp: rates not judged: the machine was too busy (CPs ran ${h3p}% and ${h4p}% of their periods after the warm-up, ${DP_MIN_CP_PERIODS}% needed; the switch got ${sw_cpu}% of a CPU; h1=$m1 h3=$m3 h2=$m2 Mb/s)"
else
    sum=$(awk -v a="$m1" -v b="$m3" 'BEGIN { printf "%.1f", a + b }')
    half=$(awk -v t="$sum" 'BEGIN { printf "%.1f", t / 2 }')
    if awk -v t="$sum" 'BEGIN { exit !(t >= 150) }'; then pass "rocc_multicp: port 3 forwarded $sum of 300 Mb/s (>= 150)"
    else fail "rocc_multicp: port 3 forwarded only $sum of 300 Mb/s"; fi
    for pair in "h1 $m1" "h3 $m3"; do
        set -- $pair
        if awk -v x="$2" -v h="$half" 'BEGIN { exit !(x >= 0.85 * h && x <= 1.15 * h) }'; then
            pass "rocc_multicp: $1 $2 Mb/s within ±15% of half the $sum port 3 forwarded"
        else fail "rocc_multicp: $1 $2 Mb/s not within ±15% of half the $sum port 3 forwarded"; fi
    done
    if awk -v x="$m2" 'BEGIN { exit !(x >= 50 && x <= 105) }'; then pass "rocc_multicp: h2 $m2 Mb/s of port 4's 100"
    else fail "rocc_multicp: h2 $m2 Mb/s, want 50..105 of port 4's 100"; fi
fi
for p in 3 4; do
    n=$(grep "^final cp port=$p " "$LOG/sw.log" | tr ' ' '\n' | sed -n 's/^cnps_sent=//p')
    if [ "${n:-0}" -gt 0 ]; then pass "rocc_multicp: CP on port $p ($FT flow table) sent $n CNPs"
    else fail "rocc_multicp: CP on port $p sent no CNPs"; fi
done
# The RP keeps the CP id of the CNP that limits it; a CNP from the other
# CP would show up as a second id in the switch's CNP counts per port.
for i in 1 2 3; do
    acc=$(grep '^final tx' "$LOG/h$i.log" | tr ' ' '\n' | sed -n 's/^accepted=//p')
    [ "${acc:-0}" -gt 0 ] && pass "rocc_multicp: h$i accepted $acc CNPs" || fail "rocc_multicp: h$i accepted no CNPs"
done
c3=$(grep '^final port 0 \|^final port 2 ' "$LOG/sw.log" | tr ' ' '\n' | sed -n 's/^cnp_tx=//p' | awk '{ s += $1 } END { print s + 0 }')
c4=$(grep '^final port 1 ' "$LOG/sw.log" | tr ' ' '\n' | sed -n 's/^cnp_tx=//p')
s3=$(grep '^final cp port=3 ' "$LOG/sw.log" | tr ' ' '\n' | sed -n 's/^cnps_sent=//p')
s4=$(grep '^final cp port=4 ' "$LOG/sw.log" | tr ' ' '\n' | sed -n 's/^cnps_sent=//p')
if [ "$c3" = "${s3:-x}" ] && [ "${c4:-y}" = "${s4:-x}" ]; then
    pass "rocc_multicp: port 3's CP CNPs ($s3) all went to h1/h3's ports, port 4's ($s4) all to h2's"
else
    fail "rocc_multicp: CNPs out of h1/h3 ports $c3 vs CP 3 sent ${s3:-?}; out of h2's port ${c4:-?} vs CP 4 sent ${s4:-?}"
fi
[ "$fails" = 0 ]
