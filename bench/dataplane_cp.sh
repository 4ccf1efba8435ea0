#!/usr/bin/env bash
# bench/dataplane_cp.sh -- what the RoCC CP costs rocc-switch (issue 5):
# forwarding rate with the CP off and on, same vdevs, same offered load, and
# the CP's own cost per packet and per period measured inside rocc-switch
# (rte_rdtsc around the flow-table work on enqueue/dequeue and around each
# cp_tick: PI update, flow selection, CNP building).  The timing is
# instrumentation in the hot path, so it runs apart: the rate runs (modes
# below) have no --cp-timing, i.e. they run the production path, and each
# round adds one run per CP mode with --cp-timing (mode "on:timed" etc.,
# COST_MODES="on on-worst"; COST_MODES= skips them) that only gives the CP
# ns/packet and ns/period.  Not a test: it prints
# numbers (and a TSV line per run); needs root, netns, libdpdk, a built
# build/dp.
#
# TRANSPORT=memif (default): the generator's port is a memif server, the
# switch's port 0 its client (shared memory, no syscalls per burst), and
# the switch's port 1 is net_null with no-rx=1 (it takes every frame and
# frees it): the switch does all the work it does on veths except the
# kernel's, so it, not the I/O, is the bottleneck.
#
#   rocc-host (lcore 0) =memif=> rocc-switch (lcore 1) port 0 -> port 1 net_null
#
# TRANSPORT=veth: the netns shape of the tests, af_packet on veths:
#
#   bg eth0 --- s0  bsw (rocc-switch, lcore 1)  s1 --- eth0 bk
#
# bg runs rocc-host (lcore 0) with FLOWS unlimited flows of PAYLOAD-byte
# frames at a 100 Gb/s "line rate", i.e. as fast as it can build and send;
# it has no --cp-allow, so it ignores every CNP and the offered load is the
# same in every run.  bk has no IP address and nothing reading: its kernel
# drops what arrives.  Port 1's egress is "shaped" to 1 Tb/s with a 1 MB
# bucket in every run (the CP needs a link rate), i.e. not at all, so the
# only difference between runs is the CP.  (Not 100 Gb/s: on a shared core
# the switch is descheduled for milliseconds, the bucket caps what it saves
# meanwhile at 1 MB = 80 µs of 100G, and a "100G" port measured 33-39 Gb/s
# of 1062 B frames while unshaped it forwarded 45 Gb/s.)  Modes:
#   off       no --cp
#   on        --cp 1, QUEUE flow table (the paper's), librocc defaults for
#             the port's rate (100G profile: T = 40 µs)
#   on-worst  --cp 1 --flow-table bounded --cnp-at-fmax: every flow seen in
#             the last 2T gets a CNP every period (the most CP work per
#             period this switch can do for FLOWS flows)
# The switch runs with --busy-poll: its default is to sleep ~20 µs (60-80 µs
# here) whenever a poll round finds nothing, and at 14+ Mpps one empty round
# let the 1024-slot memif ring overflow, so runs were bimodal (12-14 or
# 25-28 Mpps) with the switch 1/3 idle.
# Each mode runs ROUNDS times, interleaved (off, on, on-worst, off, ...),
# DURATION s each; the forwarding rate is port 1's tx_pkts over the 500 ms
# stat reports after a 1 s warm-up.  On a 2-core machine one generator core
# cannot saturate the switch (af_packet sendto costs the sender about what
# it costs the switch), so the forwarding rates of the modes are equal to
# the offered load; the switch's capacity is then read from its busy time
# per forwarded frame ("final loop busy_ns_per_tx_pkt": loop rounds that
# received or sent anything, over frames sent), and capacity = 1 / that.
#
#   sudo bash bench/dataplane_cp.sh            # FLOWS=8 PAYLOAD=64 DURATION=6 ROUNDS=2
set -u
cd "$(dirname "$0")/.." || exit 1
DP=${DP:-build/dp}
FLOWS=${FLOWS:-8}
PAYLOAD=${PAYLOAD:-64}
DURATION=${DURATION:-6}
ROUNDS=${ROUNDS:-2}
MODES=${MODES:-off on on-worst}
COST_MODES=${COST_MODES-on on-worst}
TRANSPORT=${TRANSPORT:-memif}
. tests/dataplane/netns.bash
if [ "$TRANSPORT" = veth ]; then
    dp_setup dataplane_cp bcp "bsw bg bk" "rocc-switch rocc-host"
    veth_link bsw s0 02:98:00:00:00:01 bg eth0 02:98:00:00:00:02
    veth_link bsw s1 02:98:00:00:01:01 bk eth0 02:98:00:00:01:02
    NS_SW=(ip netns exec bsw); NS_G=(ip netns exec bg)
    sw_eal() { eal 1 "$1" s0 s1; }
    g_eal() { eal 0 "$1" eth0; }
    GW_MAC=02:98:00:00:00:01
else
    dp_setup dataplane_cp bcp "" "rocc-switch rocc-host"
    SOCK="$LOG/memif.sock"
    NS_SW=(); NS_G=()
    base() { echo -l "$1" --no-huge -m 256 --no-pci --no-telemetry --file-prefix "${PFX}_$2" '--log-level=*:notice'; }
    sw_eal() { base 1 "$1"; echo --vdev "net_memif0,role=client,socket=$SOCK,socket-abstract=no" --vdev net_null0,no-rx=1; }
    g_eal() { base 0 "$1"; echo --vdev "net_memif0,role=server,socket=$SOCK,socket-abstract=no"; }
    GW_MAC=02:98:00:00:00:01    # the switch's memif MAC is random; it forwards by IP anyway
fi

flows=()
for q in $(seq "$FLOWS"); do flows+=(--flow "dst=10.98.1.2,rate=line,size=inf,qpn=$q"); done
echo "# $(date -u +%FT%TZ) $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg); $TRANSPORT; $FLOWS flows, ${PAYLOAD} B payload ($((PAYLOAD + 62)) B frames)"
TSV="$LOG/runs.tsv"
printf 'mode\tround\tfwd_mpps\trx_mpps\tbusy_ns_per_pkt\tcp_ns_per_pkt\tcp_ns_per_period\tperiods\tcnps\n' | tee "$TSV"
runmodes=$MODES
for m in $COST_MODES; do runmodes="$runmodes $m:timed"; done
for r in $(seq "$ROUNDS"); do
    for mode in $runmodes; do
        L="$LOG/$mode.$r"
        timing=()
        case $mode in *:timed) timing=(--cp-timing) ;; esac
        case ${mode%:timed} in
        off) cp=() ;;
        on) cp=(--cp 1 --cp-ip 10.98.0.1) ;;
        on-worst) cp=(--cp 1 --cp-ip 10.98.0.1 --flow-table bounded --cnp-at-fmax) ;;
        *) echo "unknown mode $mode"; exit 1 ;;
        esac
        # shellcheck disable=SC2046
        "${NS_G[@]}" "$DP/rocc-host" $(g_eal "g$mode$r") -- --local-ip 10.98.0.2 \
            --gw-mac $GW_MAC --line-gbps 100 --payload "$PAYLOAD" "${flows[@]}" --report-ms 0 >"$L.g.log" 2>&1 &
        PIDS+=($!); g=$!
        wait_ready "$L.g.log" $g || { echo "generator did not start"; cat "$L.g.log"; exit 1; }
        # shellcheck disable=SC2046
        "${NS_SW[@]}" "$DP/rocc-switch" $(sw_eal "sw$mode$r") -- \
            --route 10.98.0.2/32=0,02:98:00:00:00:02 --route 10.98.1.2/32=1,02:98:00:00:01:02 \
            ${SHAPE---egress-rate 1=1000 --burst 1000000} --qcap 1000000 --busy-poll "${cp[@]}" "${timing[@]}" --report-ms 500 >"$L.sw.log" 2>&1 &
        PIDS+=($!); sw=$!
        wait_ready "$L.sw.log" $sw || { echo "switch did not start"; cat "$L.sw.log"; exit 1; }
        sleep "$DURATION"
        kill -INT $sw $g; wait $sw $g 2>/dev/null
        PIDS=()
        rm -rf /var/run/dpdk/"$PFX"_* 2>/dev/null
        # rate of a counter on port P over the stat lines after t = 1 s
        rate() {
            awk -v p="port=$1" -v k="$2" '$1 == "stat" && $3 == p {
                split($2, t, "="); for (i = 4; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) v = kv[2] }
                if (t[2] + 0 >= 1.0) { if (!n++) { t0 = t[2]; v0 = v } t1 = t[2]; v1 = v } }
                END { if (n > 1 && t1 > t0) printf "%.3f", (v1 - v0) / (t1 - t0) / 1e6; else print "0" }' "$3"
        }
        fwd=$(rate 1 tx_pkts "$L.sw.log")
        rx=$(rate 0 rx_pkts "$L.sw.log")
        cpl=$(grep '^final cp ' "$L.sw.log")
        get() { echo "$cpl" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
        busy=$(grep '^final loop ' "$L.sw.log" | tr ' ' '\n' | sed -n 's/^busy_ns_per_tx_pkt=//p')
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mode" "$r" "$fwd" "$rx" "${busy:--}" "$(get ns_per_pkt)" \
            "$(get ns_per_period)" "$(get samples)" "$(get cnps_sent)" | tee -a "$TSV"
    done
done
# Medians per mode (the machine is shared: single runs vary by +-20%).
median() {  # median MODE COLUMN
    awk -F'\t' -v m="$1" -v c="$2" 'NR > 1 && $1 == m && $c != "-" && $c != "" { print $c }' "$TSV" | sort -g |
        awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
for mode in $MODES; do
    printf '# median %s: %s Mpps forwarded, %s ns busy per forwarded frame\n' \
        "$mode" "$(median "$mode" 3)" "$(median "$mode" 5)"
done
for mode in $COST_MODES; do
    printf '# median %s with --cp-timing: CP %s ns/packet, %s ns/period (%s Mpps, %s ns busy per frame while timed)\n' \
        "$mode" "$(median "$mode:timed" 6)" "$(median "$mode:timed" 7)" "$(median "$mode:timed" 3)" "$(median "$mode:timed" 5)"
done
for mode in on on-worst; do
    case " $MODES " in *" off "*) ;; *) continue ;; esac
    case " $MODES " in *" $mode "*) ;; *) continue ;; esac
    awk -v a="$(median off 3)" -v b="$(median "$mode" 3)" -v x="$(median off 5)" -v y="$(median "$mode" 5)" \
        -v m="$mode" 'BEGIN { printf "# %s vs off: forwarding rate ratio %.3f (%+.1f%%); busy ns per frame %.1f vs %.1f (capacity ratio %.3f)\n",
                             m, b / a, (b / a - 1) * 100, y, x, x / y }'
done
