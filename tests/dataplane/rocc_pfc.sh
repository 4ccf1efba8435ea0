#!/usr/bin/env bash
# tests/dataplane/rocc_pfc.sh -- 802.1Qbb PFC in the DPDK data plane (issue 12,
# "Data plane").  Needs root, netns, libdpdk and tshark.
#
#   dpfh1 eth0 --- s1 \
#                      dpfsw (rocc-switch, lcore 1): port 2 shaped to 300 Mb/s,
#   dpfh2 eth0 --- s2 /        --qcap 1 MB, no congestion control
#   dpfr  eth0 --- s3           the rocc-host sink
#
# Two rocc-host senders (lcore 0) push one unlimited flow each (paced at
# their 500 Mb/s line rate: 1 Gb/s into a 300 Mb/s port) to the sink.
# Run "on": switch --pfc (XOFF 20 KB / XON 10 KB per ingress port and class,
# quanta 65535), hosts --pfc.  Run "off": the same without PFC.
#
# Checks of the "on" run:
#   lossless    no frame dropped at the switch (drops_qfull, drops_tx on
#               every port) and every frame a sender handed to its NIC
#               reached the sink (per flow: sent - tx_fail = received);
#   sent        each sender-facing port sent XOFF and XON;
#   honoured    each sender counted as many XOFFs as its port sent (XOFF +
#               refresh) and was paused for some time;
#   throughput  the shaped port forwarded >= 150 of 300 Mb/s after a 1 s
#               warm-up and each flow got >= 20% of it (PFC paces the
#               senders, it does not stall them);
#   tshark      decodes every PFC frame in the switch's --pcap (sent
#               frames): dst 01:80:c2:00:00:01, opcode 0x0101, class-enable
#               vector 0x0001, class-0 quanta 65535 (XOFF) or 0 (XON), from
#               the MACs of ports 0 and 1, as many of each as the switch
#               counted, none malformed;
#   forged      pfcforge sends 20 frames of each malformed kind (length,
#               destination, opcode incl. 802.3x PAUSE, reserved bits, empty
#               vector, source MAC, well-formed from a non-neighbour) at
#               the switch's port 2 and at h1: each is counted under its
#               reason and none pauses anything (port 2 accepts no PFC frame
#               and is never paused).
# Checks of the "off" run (the same traffic must lose frames without PFC,
# or the "on" checks prove nothing): the switch drops at port 2 and the sink
# receives fewer frames than were sent; no PFC frame is sent.
#
# On a busy machine: the apps run at real-time priority (netns.bash dp_exec)
# and the headroom above XOFF (980 KB of --qcap: 7.8 ms of both senders at
# line rate) covers a switch descheduled for that long; every count check is
# exact, the throughput check is a share of the shaped rate.  (With
# --qcap 300000 -- 280 KB of headroom -- a run beside a fuzzer and other
# agents' tests dropped 15 frames: h1's ingress count reached 274 KB, frames
# that waited in the switch's receive ring while it was descheduled.)
set -u
cd "$(dirname "$0")/../.." || exit 1
DP=${DP:-build/dp}
DURATION=${DURATION:-4}
QCAP=${QCAP:-1000000}; XOFF=${XOFF:-20000}; XON=${XON:-10000}
LINE_GBPS=0.5
N_FORGE=${N_FORGE:-20}
# Flows start 3 s after their sender: a process starting up at real-time
# priority (EAL init touches its 256 MB) can hold the switch's CPU for
# 100 ms (SCHED_RR's time slice) before it pins itself to its lcore, and a
# sender already running would then fill the switch's receive ring with
# 6 MB that no XOFF can hold back (measured: 1200 drops at h2's start).
START_MS=${START_MS:-3000}
. tests/dataplane/netns.bash
dp_setup rocc_pfc dppfc "dpfsw dpfh1 dpfh2 dpfr" "rocc-switch rocc-host pfcforge"
command -v tshark >/dev/null || { fail "rocc_pfc: tshark missing (apt-get install -y tshark)"; exit 1; }

mac_sw() { printf '02:98:00:00:%02x:01' "$1"; }   # switch side of link i
mac_h()  { printf '02:98:00:00:%02x:02' "$1"; }   # host side of link i
ip_h() { echo "10.98.$1.2"; }
HOSTNS=(dpfh1 dpfh2 dpfr)
for i in 1 2 3; do veth_link dpfsw "s$i" "$(mac_sw $i)" "${HOSTNS[$((i - 1))]}" eth0 "$(mac_h $i)"; done

# run_once NAME on|off -- switch, sink, two senders for DURATION s; then the
# senders stop first and the switch has 1 s to drain before it and the sink
# stop (so every frame still queued reaches the sink).
run_once() {
    local name=$1 pfc=$2 L="$LOG/$1" i routes=()
    mkdir -p "$L"
    for i in 1 2 3; do routes+=(--route "$(ip_h $i)/32=$((i - 1)),$(mac_h $i)"); done
    # shellcheck disable=SC2046
    dp_start "$name/sw" dpfsw "$DP/rocc-switch" $(eal 1 "sw$name" s1 s2 s3) -- "${routes[@]}" \
        --egress-rate 2=0.3 --qcap "$QCAP" --report-ms 500 --pcap "$L/sw.pcap" --pcap-dir tx --pcap-snaplen 64 \
        $([ "$pfc" = on ] && echo --pfc --pfc-xoff "$XOFF" --pfc-xon "$XON" --pfc-link-gbps "$LINE_GBPS") || return 1
    # shellcheck disable=SC2046
    dp_start "$name/r" dpfr "$DP/rocc-host" $(eal 0 "r$name" eth0) -- --local-ip "$(ip_h 3)" \
        --gw-mac "$(mac_sw 3)" --report-ms 500 || return 1
    for i in 1 2; do
        # shellcheck disable=SC2046
        dp_start "$name/h$i" "dpfh$i" "$DP/rocc-host" $(eal 0 "h$i$name" eth0) -- --local-ip "$(ip_h $i)" \
            --gw-mac "$(mac_sw $i)" --flow "dst=$(ip_h 3),rate=line,size=inf,qpn=$i,start=$START_MS" --line-gbps "$LINE_GBPS" \
            --report-ms 500 $([ "$pfc" = on ] && echo --pfc) || return 1
    done
    # Traffic starts START_MS after each sender started; h2 is ready last.
    from=$(awk -v t="$(log_now "$L/r.log")" -v s="$START_MS" 'BEGIN { print t + s / 1000 + 1 }')
    sleep "$((START_MS / 1000))"
    if [ "$pfc" = on ]; then
        sleep 1
        ip netns exec dpfr "$DP/pfcforge" eth0 "$N_FORGE" 500 1 >"$L/forge_sw.log" 2>&1 ||
            fail "rocc_pfc: pfcforge at the switch: $(cat "$L/forge_sw.log")"
        ip netns exec dpfsw "$DP/pfcforge" s1 "$N_FORGE" 500 2 >"$L/forge_h1.log" 2>&1 ||
            fail "rocc_pfc: pfcforge at h1: $(cat "$L/forge_h1.log")"
        sleep "$((DURATION - 1))"
    else
        sleep "$DURATION"
    fi
    local swpid=PID_${name}_sw
    sw_cpu=$(cpu_share "${!swpid}")
    for i in 1 2; do local v=PID_${name}_h$i; kill -INT "${!v}"; wait "${!v}" 2>/dev/null; done
    sleep 1
    for v in PID_${name}_sw PID_${name}_r; do kill -INT "${!v}"; wait "${!v}" 2>/dev/null; done
    echo "--- [$name] switch"; grep -E '^(final (port|pfc|malformed|pcap)|pfc )' "$L/sw.log" | grep -v '^pfc t=' ; grep '^pfc t=' "$L/sw.log" | tail -n 3
    for i in 1 2; do echo "--- [$name] h$i"; grep -E '^final (tx|pfc|host)' "$L/h$i.log"; done
    echo "--- [$name] sink"; grep -E '^final rx' "$L/r.log"
    echo "[$name] the switch got ${sw_cpu}% of a CPU (DP_SCHED=$DP_SCHED)"
}

# kv FILE LINE_REGEX KEY -> KEY's value on the first line matching
kv() { field "$1" "$2" "$3"; }
# e2e NAME I -> "sent received" for flow I (sent = frames handed to the NIC)
e2e() {
    local L="$LOG/$1" s f r
    s=$(kv "$L/h$2.log" '^final tx' pkts); f=$(kv "$L/h$2.log" '^final host' tx_fail)
    r=$(kv "$L/r.log" "^final rx src=$(ip_h "$2") " pkts)
    echo "$(( ${s:-0} - ${f:-0} )) ${r:-0}"
}

# --- PFC on -----------------------------------------------------------------
run_once on on || exit 1
L=$LOG/on
drops=0
for p in 0 1 2; do
    d=$(kv "$L/sw.log" "^final port $p " drops_qfull); t=$(kv "$L/sw.log" "^final port $p " drops_tx)
    drops=$((drops + ${d:-1} + ${t:-1}))
done
qmax=$(kv "$L/sw.log" '^final port 2 ' queue_max_bytes)
if [ "$drops" = 0 ]; then pass "rocc_pfc.on: no frame dropped at the switch (port 2 queue peaked at $qmax of $QCAP B)"
else fail "rocc_pfc.on: the switch dropped $drops frames with PFC on (queue peak $qmax of $QCAP B; the switch had ${sw_cpu}% of a CPU)"; fi
for i in 1 2; do
    read -r s r <<<"$(e2e on $i)"
    if [ "$s" -gt 0 ] && [ "$s" = "$r" ]; then pass "rocc_pfc.on: flow h$i lossless end to end: $r of $s frames received"
    else fail "rocc_pfc.on: flow h$i: $r of $s frames received"; fi
done
for i in 1 2; do
    p=$((i - 1))
    xo=$(kv "$L/sw.log" "^final pfc port=$p " xoff_tx); xn=$(kv "$L/sw.log" "^final pfc port=$p " xon_tx)
    rf=$(kv "$L/sw.log" "^final pfc port=$p " refresh_tx); im=$(kv "$L/sw.log" "^final pfc port=$p " in_bytes_max)
    hx=$(kv "$L/h$i.log" '^final pfc' rx_xoff); hn=$(kv "$L/h$i.log" '^final pfc' rx_xon)
    hp=$(kv "$L/h$i.log" '^final pfc' paused_us)
    if [ "${xo:-0}" -gt 0 ] && [ "${xn:-0}" -gt 0 ]; then
        pass "rocc_pfc.on: port $p sent $xo XOFF, $rf refreshes, $xn XON (ingress count peaked at $im B, XOFF at $XOFF)"
    else fail "rocc_pfc.on: port $p sent ${xo:-?} XOFF and ${xn:-?} XON (want both > 0)"; fi
    # The senders stop first: the XON the switch sends when their queue
    # drains (and at most one XOFF in flight) arrives after they stopped.
    dx=$(( ${xo:-0} + ${rf:-0} - ${hx:-0} )); dn=$(( ${xn:-0} - ${hn:-0} ))
    if [ "${hx:-0}" -gt 0 ] && [ "$dx" -ge 0 ] && [ "$dx" -le 1 ] && [ "$dn" -ge 0 ] && [ "$dn" -le 1 ] && [ "${hp:-0}" -gt 0 ]; then
        pass "rocc_pfc.on: h$i honoured $hx XOFF and $hn XON (sent $(( ${xo:-0} + ${rf:-0} )) and $xn: the last may come after it stopped), paused ${hp} us in all"
    else fail "rocc_pfc.on: h$i counted ${hx:-?} XOFF / ${hn:-?} XON (sent $(( ${xo:-0} + ${rf:-0} )) / ${xn:-?}), paused ${hp:-?} us"; fi
done
m1=$(rx_mean "$L/r.log" "$(ip_h 1)" "$from"); m2=$(rx_mean "$L/r.log" "$(ip_h 2)" "$from")
tot=$(awk -v a="$m1" -v b="$m2" 'BEGIN { printf "%.1f", a + b }')
if awk -v t="$tot" -v a="$m1" -v b="$m2" 'BEGIN { exit !(t >= 150 && a >= 0.2 * t && b >= 0.2 * t) }'; then
    pass "rocc_pfc.on: port 2 forwarded $tot of 300 Mb/s after 1 s (h1 $m1, h2 $m2; >= 150 and each >= 20%)"
else fail "rocc_pfc.on: port 2 forwarded $tot of 300 Mb/s (h1 $m1, h2 $m2; want >= 150, each >= 20%; the switch had ${sw_cpu}% of a CPU)"; fi

# tshark on the switch's capture of what it sent.
tshark -r "$L/sw.pcap" -Y macc -T fields -E separator=' ' -e eth.src -e eth.dst -e macc.opcode -e macc.cbfc.enbv \
    -e macc.cbfc.pause_time.c0 -e _ws.malformed >"$L/pfc.txt" 2>"$L/tshark.err"
want_xoff=0; want_xon=0
for p in 0 1; do
    want_xoff=$((want_xoff + $(kv "$L/sw.log" "^final pfc port=$p " xoff_tx) + $(kv "$L/sw.log" "^final pfc port=$p " refresh_tx)))
    want_xon=$((want_xon + $(kv "$L/sw.log" "^final pfc port=$p " xon_tx)))
done
read -r t_xoff t_xon t_bad <<<"$(awk -v m0="$(mac_sw 1)" -v m1="$(mac_sw 2)" '
    { ok = ($1 == m0 || $1 == m1) && $2 == "01:80:c2:00:00:01" && ($3 == "0x0101" || $3 == "257") &&
           ($4 == "0x0001" || $4 == "1") && NF == 5
      if (ok && $5 == 65535) x++; else if (ok && $5 == 0) n++; else bad++ }
    END { print x + 0, n + 0, bad + 0 }' "$L/pfc.txt")"
if [ "$want_xoff" -gt 0 ] && [ "$t_xoff" = "$want_xoff" ] && [ "$t_xon" = "$want_xon" ] && [ "$t_bad" = 0 ]; then
    pass "rocc_pfc.on: tshark decodes $t_xoff XOFF (class 0, quanta 65535) and $t_xon XON (quanta 0) PFC frames = the switch's counts, none malformed"
else
    fail "rocc_pfc.on: tshark: $t_xoff XOFF / $t_xon XON decoded (switch counted $want_xoff / $want_xon), $t_bad other or malformed; $(head -c 300 "$L/tshark.err")"
    head -n 5 "$L/pfc.txt"
fi

# Forged and malformed frames: counted by reason, no effect.  The switch
# counts both forges: the one at its port 2, and the one sent out of its
# port 0's interface towards h1 -- DPDK 22.11's af_packet PMD receives what
# other sockets send on its interface (no PACKET_IGNORE_OUTGOING).
for side in sw h1; do
    sent=$(cat "$L/forge_$side.log")
    for k in len dst opcode reserved empty src not_neighbour; do
        want=$(echo "$sent" | tr ' ' '\n' | sed -n "s/^$k=//p")
        if [ $side = sw ]; then got=$(kv "$L/sw.log" '^final pfc_bad' "$k"); want=$(( ${want:-0} * 2 ))
        else got=$(kv "$L/h1.log" '^final pfc' "bad_$k"); fi
        if [ "${want:-0}" -gt 0 ] && [ "$got" = "$want" ]; then :; else
            fail "rocc_pfc.on: forged PFC at $side, kind $k: counted ${got:-?}, want ${want:-?}"; bad_forge=1; fi
    done
done
acc=0
for p in 0 1 2; do
    acc=$((acc + $(kv "$L/sw.log" "^final pfc port=$p " rx) + $(kv "$L/sw.log" "^final pfc port=$p " paused_us)))
done
if [ -z "${bad_forge:-}" ] && [ "$acc" = 0 ]; then
    pass "rocc_pfc.on: $N_FORGE forged/malformed PFC frames of each of 7 kinds counted by reason at the switch (x2) and at h1; no switch port accepted one or was ever paused"
else fail "rocc_pfc.on: forged PFC: counts above, or a switch port accepted/was paused by one (rx + paused_us = $acc, want 0)"; fi

# --- PFC off: the same traffic must lose frames ------------------------------------
run_once off off || exit 1
L=$LOG/off
d=$(kv "$L/sw.log" '^final port 2 ' drops_qfull)
read -r s1 r1 <<<"$(e2e off 1)"; read -r s2 r2 <<<"$(e2e off 2)"
npfc=$(tshark -r "$L/sw.pcap" -Y macc 2>/dev/null | wc -l)
if [ "${d:-0}" -gt 0 ] && [ $((r1 + r2)) -lt $((s1 + s2)) ] && [ "$npfc" = 0 ]; then
    pass "rocc_pfc.off: without PFC port 2 dropped $d frames; the sink got $((r1 + r2)) of $((s1 + s2)); no PFC frame sent"
else fail "rocc_pfc.off: without PFC port 2 dropped ${d:-?}, sink got $((r1 + r2)) of $((s1 + s2)), $npfc PFC frames (want drops, loss, none)"; fi

[ "$fails" = 0 ]
