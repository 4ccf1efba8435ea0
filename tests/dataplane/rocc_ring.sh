#!/usr/bin/env bash
# tests/dataplane/rocc_ring.sh -- the three-switch ring of the dissertation's
# Fig. 4.6 (Menikkumbura 2022 §4.6.1-4.6.2) from three rocc-switch
# processes, PFC only: the ring deadlocks.  Needs root, netns, libdpdk.
# The base of the Escape data-plane test (issue 12, "Data plane").
#
#          h1                h2                h3
#          | port 0          | port 0          | port 0
#   +----> s1 port 1 ---> port 2 s2 port 1 ---> port 2 s3 port 1 --+
#   |                                                            |
#   +------------------------------------------------ port 2 <---+
#
# Static routes send every frame clockwise (port 1) unless it is for the
# switch's own host (port 0), so each flow goes two hops round the ring:
# h1 -> h3 (s1, s2, s3), h2 -> h1 (s2, s3, s1), h3 -> h2 (s3, s1, s2).  Each
# ring link (port 1, shaped to 300 Mb/s) carries two flows, offered at the
# hosts' 500 Mb/s line rate each.  PFC on every port (XOFF 20 KB, XON 10 KB
# per ingress port and class, quanta 65535), hosts honour it.
#
# Run "pfc": each switch's ring ingress (port 2) fills with frames waiting
# for its ring egress (port 1), which the next switch pauses because its own
# ring ingress is full: a cycle of paused ports.  Checks:
#   deadlock  every flow's receive rate is 0 over the last 1 s of traffic,
#             and at the end every switch's ring ingress still holds
#             >= XON bytes (XOFF asserted) and its ring egress is paused;
#   stuck     those ring ingress counts are the same in the switches' last
#             two reports (500 ms apart): nothing moves; and each ring ingress
#             refreshed its XOFF (the pause would otherwise run out after
#             65535 quanta, 112 ms at 300 Mb/s, and let a few frames move);
#   lossless  no switch dropped a frame.
# Run "nopfc" (the negative control: the checks above must be able to fail):
# the same ring without PFC drops frames and keeps delivering.
# Printed: when the ring stopped (the first sink report at 0 after traffic
# began, on the sinks' clocks) and each ring ingress count.
set -u
cd "$(dirname "$0")/../.." || exit 1
DP=${DP:-build/dp}
DURATION=${DURATION:-4}     # seconds of traffic
START_MS=${START_MS:-3000}  # flows start this long after their host (rocc_pfc.sh: why)
QCAP=${QCAP:-1000000}; XOFF=${XOFF:-20000}; XON=${XON:-10000}
LINE_GBPS=0.5
RING_GBPS=0.3
. tests/dataplane/netns.bash
. tests/dataplane/ring.bash
dp_setup rocc_ring dpring "dprs1 dprs2 dprs3 dprh1 dprh2 dprh3" "rocc-switch rocc-host"

# ring_switch_opts / ring_host_opts I NAME on|off: PFC on every port, or none
ring_switch_opts() { [ "$3" = on ] && echo --pfc --pfc-xoff "$XOFF" --pfc-xon "$XON" --pfc-link-gbps "$LINE_GBPS"; }
ring_host_opts() { [ "$3" = on ] && echo --pfc; }
ring_setup dprs dprh 97

# last_rx LOG SRC N -> mean receive rate (Mb/s) of SRC over the last N reports
last_rx() { grep "^rx .*src=$2 " "$1" | tail -n "$3" | sed 's/.*mbps=//' | awk '{ s += $1; n++ } END { printf "%.1f", n ? s / n : 0 }'; }
# stop_t LOG -> on a sender's own clock, seconds from its flow's start
# (START_MS) to its last report with frames sent ("-" if it never sent)
stop_t() {
    grep '^tx t=' "$1" | awk -v s="$START_MS" '{ split($2, t, "="); split($5, m, "="); if (m[2] > 0) last = t[2] }
        END { if (last == "") print "-"; else printf "%.1f", last - s / 1000 }'
}

# --- PFC: the ring deadlocks -------------------------------------------------------
ring_run pfc on || exit 1
L=$LOG/pfc
dead=1; msg=""
for i in 1 2 3; do
    src=$(ip_h "$i"); dst=$(nxt "$(nxt "$i")")
    r=$(last_rx "$L/h$dst.log" "$src" 10)
    st=$(stop_t "$L/h$i.log")
    msg="$msg h$i->h$dst: ${r} Mb/s over the last 1 s, h$i sent its last frame ${st} s after its flow began;"
    # deadlocked = it moved, then stopped
    awk -v r="$r" 'BEGIN { exit !(r == 0) }' && [ "$st" != - ] || dead=0
done
stuck=1; drops=0; ring=""
for i in 1 2 3; do
    a=$(grep '^pfc t=.* port=2 ' "$L/s$i.log" | tail -n 2 | head -n 1 | tr ' ' '\n' | sed -n 's/^in_bytes=//p')
    b=$(grep '^pfc t=.* port=2 ' "$L/s$i.log" | tail -n 1 | tr ' ' '\n' | sed -n 's/^in_bytes=//p')
    xo=$(field "$L/s$i.log" '^final pfc port=2 ' xoff_now); pn=$(field "$L/s$i.log" '^final pfc port=1 ' paused_now)
    rf=$(field "$L/s$i.log" '^final pfc port=2 ' refresh_tx)
    ring="$ring s$i: ring ingress $a -> $b B, XOFF $xo ($rf refreshes), ring egress paused $pn;"
    if [ "${a:-x}" != "${b:-y}" ] || [ "${b:-0}" -lt "$XON" ] || [ "$xo" != 0x01 ] || [ "$pn" != 0x01 ] ||
        [ "${rf:-0}" -lt 1 ]; then stuck=0; fi
    for p in 0 1 2; do drops=$((drops + $(field "$L/s$i.log" "^final port $p " drops_qfull))); done
done
if [ $dead = 1 ]; then pass "rocc_ring.pfc: deadlock: every flow stopped;$msg"
else fail "rocc_ring.pfc: no deadlock:$msg"; fi
if [ $stuck = 1 ]; then pass "rocc_ring.pfc: stuck above XON ($XON B) in the last two reports, every ring egress paused:$ring"
else fail "rocc_ring.pfc: ring ingress counts moved or fell below XON, or a ring port was not paused:$ring"; fi
if [ "$drops" = 0 ]; then pass "rocc_ring.pfc: no switch dropped a frame (lossless into the deadlock)"
else fail "rocc_ring.pfc: the switches dropped $drops frames with PFC on"; fi

# --- no PFC: the same ring drops and keeps going --------------------------------------
ring_run nopfc off || exit 1
L=$LOG/nopfc
moving=1; msg=""; drops=0
for i in 1 2 3; do
    src=$(ip_h "$i"); dst=$(nxt "$(nxt "$i")")
    r=$(last_rx "$L/h$dst.log" "$src" 10)
    msg="$msg h$i->h$dst: $r Mb/s;"
    awk -v r="$r" 'BEGIN { exit !(r > 0) }' || moving=0
    for p in 0 1 2; do drops=$((drops + $(field "$L/s$i.log" "^final port $p " drops_qfull))); done
done
if [ $moving = 1 ] && [ "$drops" -gt 0 ]; then pass "rocc_ring.nopfc: without PFC no deadlock (mean over the last 1 s:$msg) and $drops drops"
else fail "rocc_ring.nopfc: without PFC:$msg $drops drops (want every flow moving and drops)"; fi
[ "$fails" = 0 ]
