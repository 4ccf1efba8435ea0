#!/usr/bin/env bash
# tests/dataplane/rocc_delay.sh -- rocc-switch's --delay PORT=US: a delay
# line after a port's shaper, the long-haul link of a cross-datacenter
# setup (issue 15) in software.  Needs root, netns, libdpdk, iputils ping.
#
#   dk1 eth0 --- d1 \
#                    dsw (rocc-switch: port 1 shaped to 100 Mb/s, --delay 1=20000)
#   dr  eth0 --- d2 /    dr: rocc-host sink 10.99.2.2
#   dk1: the kernel's stack, 10.99.1.2/24 (ping); dh: rocc-host sender on d3
#   dh  eth0 --- d3 /
#
# Checks (each fails when the line is bypassed or loses frames):
#   - ping dk1 -> dr through the delayed port, before the bulk flow starts: every echo answered, and the
#     smallest RTT is at least the 20 ms one-way delay (the reply takes the
#     undelayed port 0) and below 20 ms + 30 ms of slack;
#   - a 200 Mb/s offer from dh into the 100 Mb/s delayed port: the sink
#     receives >= 80 Mb/s (the shaper's rate survives the line: its
#     bandwidth-delay product, ~170 frames, is held, not dropped);
#   - the line's own counters: full_drops = 0, every frame that entered it
#     left (in = out once the senders stop), and the most frames in the line
#     at once is at least half the BDP in frames (frames really waited).
set -u
cd "$(dirname "$0")/../.." || exit 1
DP=${DP:-build/dp}
DURATION=${DURATION:-4}
. tests/dataplane/netns.bash
dp_setup rocc_delay roccdly "dsw dk1 dr dh" "rocc-switch rocc-host"
command -v ping >/dev/null 2>&1 || { fail "rocc_delay: ping not installed (scripts/test.sh installs it)"; exit 1; }

veth_link dsw d1 02:98:00:00:01:01 dk1 eth0 02:98:00:00:01:02
veth_link dsw d2 02:98:00:00:02:01 dr eth0 02:98:00:00:02:02
veth_link dsw d3 02:98:00:00:03:01 dh eth0 02:98:00:00:03:02
ip -n dk1 addr add 10.99.1.2/24 dev eth0
ip -n dk1 route add default via 10.99.1.1

DELAY_US=20000
# shellcheck disable=SC2046
dp_start sw dsw "$DP/rocc-switch" $(eal 1 sw d1 d2 d3) -- \
    --port-ip 0=10.99.1.1 --port-ip 1=10.99.2.1 --port-ip 2=10.99.3.1 \
    --route 10.99.1.0/24=0 --route 10.99.2.0/24=1 --route 10.99.3.0/24=2 \
    --egress-rate 1=0.1 --qcap 600000 --delay 1=$DELAY_US || exit 1
# shellcheck disable=SC2046
dp_start r dr "$DP/rocc-host" $(eal 0 r eth0) -- --local-ip 10.99.2.2 --gw-ip 10.99.2.1 --report-ms 500 || exit 1
sleep 1
ip netns exec dk1 ping -c 10 -i 0.2 -W 2 10.99.2.2 >"$LOG/ping.log" 2>&1
# The bulk sender only after the ping: its queue would add up to 48 ms.
# shellcheck disable=SC2046
dp_start h dh "$DP/rocc-host" $(eal 0 h eth0) -- --local-ip 10.99.3.2 --gw-ip 10.99.3.1 \
    --flow dst=10.99.2.2,rate=0.2,size=inf,qpn=1 --report-ms 500 || exit 1

sleep "$DURATION"
kill -INT "$PID_h"; wait "$PID_h" 2>/dev/null
sleep 0.5     # what is still in the line (20 ms) drains
for p in "${PIDS[@]}"; do kill -INT "$p" 2>/dev/null; done
for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
PIDS=()
echo "--- switch"; grep -E '^(final port|delay)' "$LOG/sw.log"
echo "--- ping"; grep -E 'received|rtt' "$LOG/ping.log"

got=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' "$LOG/ping.log")
rtt_min=$(sed -n 's|^rtt min/avg/max/mdev = \([0-9.]*\)/.*|\1|p' "$LOG/ping.log")
lo=$((DELAY_US / 1000)) hi=$((DELAY_US / 1000 + 30))
if [ "${got:-0}" = 10 ] && awk -v r="${rtt_min:-0}" -v lo=$lo -v hi=$hi 'BEGIN { exit !(r >= lo && r < hi) }'; then
    pass "rocc_delay: ping through the delayed port: 10 of 10 answered, min RTT ${rtt_min} ms in [$lo, $hi)"
else
    fail "rocc_delay: ping through the delayed port: ${got:-0} of 10 answered, min RTT ${rtt_min:-?} ms (want [$lo, $hi))"
fi
rate=$(rx_mean "$LOG/r.log" 10.99.3.2 1.5)
if awk -v r="${rate:-0}" 'BEGIN { exit !(r >= 80) }'; then
    pass "rocc_delay: the sink received ${rate} Mb/s through the 100 Mb/s delayed port (>= 80)"
else
    fail "rocc_delay: the sink received ${rate:-?} Mb/s through the 100 Mb/s delayed port (want >= 80)"
fi
dline=$(grep '^delay port=1 ' "$LOG/sw.log")
din=$(echo "$dline" | tr ' ' '\n' | sed -n 's/^in=//p'); dout=$(echo "$dline" | tr ' ' '\n' | sed -n 's/^out=//p')
dmax=$(echo "$dline" | tr ' ' '\n' | sed -n 's/^max_in_line=//p'); dfull=$(echo "$dline" | tr ' ' '\n' | sed -n 's/^full_drops=//p')
# BDP in frames: 100 Mb/s x 20 ms / (1078 B frames of rocc-host's default size + wire overhead) ~ 230
half_bdp=$(awk -v us=$DELAY_US 'BEGIN { printf "%d", 0.1e9 * us / 1e6 / 8 / 1100 / 2 }')
if [ -n "$din" ] && [ "${din:-0}" -gt 0 ] && [ "$din" = "$dout" ] && [ "${dfull:-1}" = 0 ] && [ "${dmax:-0}" -ge "$half_bdp" ]; then
    pass "rocc_delay: line counters: in=$din out=$dout full_drops=$dfull max_in_line=$dmax (>= $half_bdp)"
else
    fail "rocc_delay: line counters: in=${din:-?} out=${dout:-?} full_drops=${dfull:-?} max_in_line=${dmax:-?} (want in = out > 0, 0 drops, max >= $half_bdp)"
fi
[ "${fails:-0}" = 0 ]
