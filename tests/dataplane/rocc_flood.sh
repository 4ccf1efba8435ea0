#!/usr/bin/env bash
# tests/dataplane/rocc_flood.sh -- hostile traffic against running data-plane
# apps (issue 5, check 5).  Needs root, netns, libdpdk; build/dp/flood is the
# raw-socket sender (tests/dataplane/flood.c, built by `make -C dataplane`).
#
#   fh1 eth0 --- s1 \
#   fr  eth0 --- s2  fsw (rocc-switch; port 1 shaped to 300 Mb/s, CP on it)
#   fx  f0   --- s3 /
#   fx  f1   --- eth0 fv  (rocc-host "victim", not behind the switch)
#
# fh1 sends one unlimited RoCC flow to the sink in fr (real CNPs flow).
# From fx, flood sends N of each class (random non-IPv4, truncated, bad
# IPv4 header, CNPs forged from outside --cp-allow, CNPs with a bad ICMP
# checksum, malformed ARP, CNPs addressed to the switch's own CP address)
# at the switch (the CNPs aimed at fh1: the well-formed ones forwarded in
# its strict-priority control FIFO, the bad-checksum ones, which claim its
# own CP address, dropped: issue 11) and at fv directly.  PASS when every app is still running afterwards and
# its counters equal what flood says it sent; the RoCC flow keeps going.
# Set-up checks and teardown: tests/dataplane/netns.bash.
set -u
cd "$(dirname "$0")/../.." || exit 1
DP=${DP:-build/dp}
N_EACH=${N_EACH:-400}       # frames of each class, per target
GAP_US=${GAP_US:-100}       # pacing: af_packet rings overflow silently under bursts
. tests/dataplane/netns.bash
dp_setup rocc_flood roccfl "fsw fh1 fr fx fv" "rocc-switch rocc-host flood"

MAC_S1=02:99:00:00:01:01; MAC_H1=02:99:00:00:01:02
MAC_S2=02:99:00:00:02:01; MAC_R=02:99:00:00:02:02
MAC_S3=02:99:00:00:03:01; MAC_F0=02:99:00:00:03:02
MAC_F1=02:99:00:00:05:01; MAC_V=02:99:00:00:05:02
veth_link fsw s1 $MAC_S1 fh1 eth0 $MAC_H1
veth_link fsw s2 $MAC_S2 fr eth0 $MAC_R
veth_link fsw s3 $MAC_S3 fx f0 $MAC_F0
veth_link fx f1 $MAC_F1 fv eth0 $MAC_V


# shellcheck disable=SC2046
dp_start sw fsw "$DP/rocc-switch" $(eal 1 sw s1 s2 s3) -- \
    --route 10.99.1.2/32=0,$MAC_H1 --route 10.99.2.2/32=1,$MAC_R \
    --egress-rate 1=0.3 --cp 1 --cp-ip 10.99.0.1 --period 1000 \
    --qref 18750 --qmid 37500 --qmax 45000 --q-unit 300 --f-unit-mbps 1 --qcap 150000 || exit 1
# shellcheck disable=SC2046
dp_start r fr "$DP/rocc-host" $(eal 0 r eth0) -- --local-ip 10.99.2.2 --gw-mac $MAC_S2 --report-ms 500 || exit 1
# shellcheck disable=SC2046
dp_start h1 fh1 "$DP/rocc-host" $(eal 0 h1 eth0) -- --local-ip 10.99.1.2 --gw-mac $MAC_S1 \
    --flow dst=10.99.2.2,rate=line,size=inf,qpn=1 --cp-allow 10.99.0.0/24 --f-unit-mbps 1 \
    --recovery-us 1375 --report-ms 500 || exit 1
# The victim's own flow goes to fx, where nothing answers (no IP there).
# shellcheck disable=SC2046
dp_start v fv "$DP/rocc-host" $(eal 0 v eth0) -- --local-ip 10.99.5.2 --gw-mac $MAC_F1 \
    --flow dst=10.99.9.9,rate=0.01,size=inf,qpn=7 --cp-allow 10.99.0.0/24 --f-unit-mbps 1 \
    --recovery-us 1375 --report-ms 500 || exit 1

sleep 1
# Both floods at once: at the switch (CNPs for h1) and at the victim.
ip netns exec fx "$DP/flood" f0 $MAC_S3 "$N_EACH" "$GAP_US" 1 10.99.1.2 1 10.99.0.1 10.66.0.1 >"$LOG/flood_sw.log" 2>&1 &
fl1=$!
ip netns exec fx "$DP/flood" f1 $MAC_V "$N_EACH" "$GAP_US" 2 10.99.5.2 7 10.99.0.1 10.66.0.1 >"$LOG/flood_v.log" 2>&1 &
fl2=$!
wait $fl1 || fail "rocc_flood: flood at the switch: $(cat "$LOG/flood_sw.log")"
wait $fl2 || fail "rocc_flood: flood at the victim: $(cat "$LOG/flood_v.log")"
cat "$LOG/flood_sw.log" "$LOG/flood_v.log"
sleep 1.5   # the RoCC flow runs on after the flood

alive=""
for n in sw r h1 v; do
    eval "p=\$PID_$n"
    kill -0 "$p" 2>/dev/null || alive="$alive $n"
done
if [ -z "$alive" ]; then pass "rocc_flood: switch, sink, sender and victim all still running after the floods"
else fail "rocc_flood: exited during the flood:$alive"; fi

for p in "${PIDS[@]}"; do kill -INT "$p" 2>/dev/null; done
for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
PIDS=()
for n in sw h1 v r; do echo "--- $n"; grep '^final' "$LOG/$n.log"; done

sent() { field "$1" '^flood sent' "$2"; }
eq() {  # eq WHAT GOT WANT
    if [ -n "$2" ] && [ "$2" = "$3" ]; then pass "rocc_flood: $1 = $2 (sent $3)"
    else fail "rocc_flood: $1 = ${2:-?}, sent ${3:-?}"; fi
}
S=$LOG/flood_sw.log; V=$LOG/flood_v.log
total_sw=$(( $(sent "$S" notip) + $(sent "$S" trunc) + $(sent "$S" badhdr) + $(sent "$S" forged) + $(sent "$S" badcsum) \
           + $(sent "$S" badarp) + $(sent "$S" toself) ))
eq "switch port 2 rx_pkts" "$(field "$LOG/sw.log" '^final port 2 ' rx_pkts)" "$total_sw"
eq "switch not_ipv4" "$(field "$LOG/sw.log" '^final malformed' not_ipv4)" "$(sent "$S" notip)"
eq "switch truncated" "$(field "$LOG/sw.log" '^final malformed' truncated)" "$(sent "$S" trunc)"
eq "switch bad_ip_hdr" "$(field "$LOG/sw.log" '^final malformed' bad_ip_hdr)" "$(sent "$S" badhdr)"
eq "switch malformed ARP" "$(field "$LOG/sw.log" '^final arp' bad)" "$(sent "$S" badarp)"
eq "switch CNPs to its own address (counted, dropped)" "$(field "$LOG/sw.log" '^final control' self_cnp)" "$(sent "$S" toself)"
fwd=$(sent "$S" forged)
# flood sends its bad-checksum CNPs from the CP address: the switch drops them
# as claiming its own address before it looks at the checksum.
eq "switch CNPs from outside claiming its CP address (bad checksum ones)" \
    "$(field "$LOG/sw.log" '^final control' cnp_own_addr)" "$(sent "$S" badcsum)"
eq "switch transit CNPs" "$(field "$LOG/sw.log" '^final control' transit_cnp)" "$fwd"
eq "switch port 0 ctl_fwd (transit CNPs sent in the control FIFO)" "$(field "$LOG/sw.log" '^final port 0 ' ctl_fwd)" "$fwd"
eq "switch port 0 tx_pkts (nothing of it in the data queue)" "$(field "$LOG/sw.log" '^final port 0 ' tx_pkts)" 0
eq "h1 CNPs denied (forged, via the switch)" "$(field "$LOG/h1.log" '^final host' denied)" "$(sent "$S" forged)"
eq "h1 CNPs bad (none get past the switch)" "$(field "$LOG/h1.log" '^final host' bad)" 0
eq "victim not_ipv4" "$(field "$LOG/v.log" '^final host' not_ipv4)" "$(sent "$V" notip)"
eq "victim truncated" "$(field "$LOG/v.log" '^final host' truncated)" "$(sent "$V" trunc)"
eq "victim bad_ip_hdr" "$(field "$LOG/v.log" '^final host' bad_ip_hdr)" "$(sent "$V" badhdr)"
eq "victim CNPs denied (forged)" "$(field "$LOG/v.log" '^final host' denied)" "$(sent "$V" forged)"
eq "victim CNPs bad (checksum)" "$(field "$LOG/v.log" '^final host' bad)" "$(sent "$V" badcsum)"
eq "victim CNPs accepted" "$(field "$LOG/v.log" '^final host' ok)" 0
eq "victim malformed ARP" "$(field "$LOG/v.log" '^final arp' bad)" "$(sent "$V" badarp)"
eq "victim frames for other addresses (CNPs to the switch's address)" "$(field "$LOG/v.log" '^final host' not_mine)" "$(sent "$V" toself)"
acc=$(field "$LOG/h1.log" '^final host' ok)
if [ "${acc:-0}" -gt 0 ]; then pass "rocc_flood: h1 still accepted $acc real CNPs from the CP"
else fail "rocc_flood: h1 accepted no real CNPs"; fi
# The flow kept its rate through the flood: sink reports after t=1 s.
rate=$(awk '$1 == "rx" { split($2, t, "="); split($5, m, "="); if (t[2] + 0 >= 1.0) { s += m[2]; n++ } }
            END { if (n) printf "%.1f", s / n; else print 0 }' "$LOG/r.log")
# >= half the link: a forged CNP that reached h1's RP would cut it to a
# few Mb/s (the counters above also see it); how close a lone flow comes to
# 300 depends on how much CPU the switch gets, which a busy CI machine
# decides (214 was seen once in rocc_arp with the same setup).
# The rate is judged only when the CP ran at least DP_MIN_CP_PERIODS% of
# its periods (netns.bash): with the flood generator, the switch and three
# hosts on 2 cores, one CI run starved the CP to 59% and the flow to 144.
# A starved run says so on a SKIP line (counted as skipped, never as a
# pass); the counter checks above, the test's purpose, are judged every run.
health=$(cp_health "$LOG/sw.log" 1 1000)
if [ "${health:-0}" -lt "$DP_MIN_CP_PERIODS" ]; then
    skip "rocc_flood: rate not judged: the machine was too busy (the CP ran ${health:-0}% of its periods, $DP_MIN_CP_PERIODS% needed; the flow got $rate Mb/s)"
elif awk -v r="$rate" 'BEGIN { exit !(r >= 150) }'; then pass "rocc_flood: RoCC flow at $rate Mb/s (>= 150 of 300; CP ran ${health:-?}% of its periods) during and after the flood"
else fail "rocc_flood: RoCC flow only $rate Mb/s (of 300; CP ran ${health:-?}% of its periods) during/after the flood"; fi
[ "$fails" = 0 ]
