#!/usr/bin/env bash
# tests/dataplane/rocc_lsccauth.sh -- LSCC's feedback frame under attack and
# across a restart (issue 15; src/cc/lscc_fb.h, docs/crossdc.md "The
# feedback frame").  Two rocc-switch instances joined by a long-haul link,
# no hosts: each end's rate calculation sends R every T and the other end's
# rate limiting takes it.  Needs root, netns, libdpdk.
#
#   lsA (--lscc 0) ==== 300 Mb/s, 1 ms one way ==== lsB (--lscc 0)
#
# With no traffic the remote rate calculation's R stays within [Rmin, Rmax]
# (Alg. 1 lines 8-11): Rmin = 150 kb/s here, so an R below it at lsA
# (final lscc R_rx_min_mbps) can only come from a forged frame.
#
# Run 1, --lscc-key K on both ends.  From lsB's side of the link
# (tests/dataplane/lsccforge.c, beside the switch) arrive at lsA:
#   ahead (tagged under another key) and ahead (untagged): R = 1 unit, an
#     (epoch, seq) pair far ahead of lsB's, from lsB's MAC;
#   tamper: a genuine frame of lsB's with R = 1 unit and seq + 1;
#   seq: a genuine frame of lsB's replayed 20 ms later, unchanged.
# Then lsB restarts (a new epoch, seq from 1; lsA is not restarted).
# Checks: lsA refused tag=3 seq=1 and nothing else; no R below Rmin was
# accepted; lsA kept taking lsB's frames through the forgery and after the
# restart (accepted >= sent by both lsB runs - 10: a frame or so in each
# delay line when lsB stops, and what the veths drop; one run lost 5 of
# 1,850), its reference is the restarted lsB's epoch;
# the restarted lsB took lsA's frames, refusing none.
# Run 2, no key (the control: what is left without one).  The same
# far-ahead frame is believed (R below Rmin at lsA); the genuine frames
# are then refused (epoch: the forged one's is later) until 8 in a row
# resync lsA to them (LSCC_FB_RESYNC): fb_resync=1, epoch=7, and lsA keeps
# taking them after.
# Broken once (lscc_fb.c's tag comparison skipped): run 1's refusal and
# R_rx_min checks FAIL (the forged frames are believed).
set -u
cd "$(dirname "$0")/../.." || exit 1
DP=${DP:-build/dp}
. tests/dataplane/netns.bash
dp_setup rocc_lsccauth lsau "lauA lauB" "rocc-switch lsccforge"

MA=02:97:00:00:05:01 MB=02:97:00:00:05:02
veth_link lauA a0 $MA lauB b0 $MB
KEY=000102030405060708090a0b0c0d0e0f
BADKEY=000102030405060708090a0b0c0d0eff
RMIN_MBPS=0.15
SW=(--egress-rate "0=0.3" --delay "0=1000" --lscc 0 --lscc-period-us 2000 --lscc-rmin-bps 150000 --report-ms 100)

start_A() {  # start_A NAME KEYARGS...
    local name=$1; shift
    # shellcheck disable=SC2046
    dp_start "$name" lauA "$DP/rocc-switch" $(eal 1 "$name" a0) -- --cp-ip 10.97.0.1 --port-ip 0=10.97.3.1 \
        --route 10.97.2.0/24=0,$MB "${SW[@]}" "$@"
}
start_B() {
    local name=$1; shift
    # shellcheck disable=SC2046
    dp_start "$name" lauB "$DP/rocc-switch" $(eal 0 "$name" b0) -- --cp-ip 10.97.0.2 --port-ip 0=10.97.3.2 \
        --route 10.97.1.0/24=0,$MA "${SW[@]}" "$@"
}
stop() {  # stop PID...: SIGINT, wait (final lines written)
    local p
    for p in "$@"; do kill -INT "$p" 2>/dev/null; done
    for p in "$@"; do wait "$p" 2>/dev/null; done
}
bad_of() { grep '^final lscc_bad' "$1" | cut -d' ' -f3-; }
bad_sum() { grep '^final lscc_bad' "$1" | tr ' ' '\n' | awk -F= 'NF == 2 { s += $2 } END { print s + 0 }'; }
fin() { field "$1" '^final lscc port=0 ' "$2"; }

# ---- run 1: keyed -------------------------------------------------------------
start_A A1 --lscc-key $KEY || exit 1
start_B B1 --lscc-key $KEY || exit 1
sleep 1
ip netns exec lauB "$DP/lsccforge" b0 $MB --key $BADKEY ahead || fail "rocc_lsccauth: lsccforge (bad key) failed"
# A genuine frame of lsB's, taken where it arrives (lsA's side), sent again
# from lsB's side.
F=$(ip netns exec lauA "$DP/lsccforge" a0 $MB capture) || fail "rocc_lsccauth: no frame of lsB's captured at lsA"
ip netns exec lauB "$DP/lsccforge" b0 $MB --frame "$F" ahead tamper seq || fail "rocc_lsccauth: lsccforge failed"
sleep 1
stop "$PID_B1"
sleep 0.3
start_B B2 --lscc-key $KEY || exit 1
sleep 1.5
stop "$PID_A1" "$PID_B2"
PIDS=()
grep -E '^(lscc port|final lscc)' "$LOG/A1.log" "$LOG/B1.log" "$LOG/B2.log"

want="len=0 dst=0 magic=0 units=0 pad=0 src=0 tag=3 port=0 neigh=0 rate=0 epoch=0 seq=1"
got=$(bad_of "$LOG/A1.log")
if [ "$got" = "$want" ]; then pass "rocc_lsccauth: keyed: forged, tampered and replayed frames refused by reason: $got"
else fail "rocc_lsccauth: keyed: lsA lscc_bad $got (want $want)"; fi
rmin=$(fin "$LOG/A1.log" R_rx_min_mbps)
if awk -v r="$rmin" -v m=$RMIN_MBPS 'BEGIN { exit !(r >= m) }'; then
    pass "rocc_lsccauth: keyed: smallest R accepted at lsA $rmin Mb/s >= Rmin $RMIN_MBPS: no forged rate believed"
else fail "rocc_lsccauth: keyed: lsA accepted an R of $rmin Mb/s, below Rmin $RMIN_MBPS: a forged frame was believed"; fi
rx=$(fin "$LOG/A1.log" fb_rx) s1=$(fin "$LOG/B1.log" fb_sent) s2=$(fin "$LOG/B2.log" fb_sent)
ep2=$(field "$LOG/B2.log" '^lscc port=0 ' epoch) epA=$(fin "$LOG/A1.log" fb_epoch)
if [ -n "$rx" ] && [ -n "$s1" ] && [ -n "$s2" ] && [ "$s2" -gt 100 ] && [ "$rx" -ge $((s1 + s2 - 10)) ] &&
   [ -n "$ep2" ] && [ "$epA" = "$ep2" ]; then
    pass "rocc_lsccauth: keyed: lsA accepted $rx of the $s1 + $s2 frames lsB sent before and after its restart; its reference is the new epoch $ep2"
else
    fail "rocc_lsccauth: keyed: lsA accepted ${rx:-?} of ${s1:-?} + ${s2:-?} (want >= sum - 10), reference epoch ${epA:-?} (want lsB's new ${ep2:-?})"
fi
rxB=$(fin "$LOG/B2.log" fb_rx) badB=$(bad_sum "$LOG/B2.log")
if [ "${rxB:-0}" -gt 100 ] && [ "$badB" = 0 ]; then pass "rocc_lsccauth: keyed: the restarted lsB accepted $rxB of lsA's frames, refused none"
else fail "rocc_lsccauth: keyed: the restarted lsB accepted ${rxB:-?} of lsA's frames, refused $badB"; fi

# ---- run 2: no key -------------------------------------------------------------
start_A A3 || exit 1
start_B B3 || exit 1
sleep 1
ip netns exec lauB "$DP/lsccforge" b0 $MB ahead || fail "rocc_lsccauth: lsccforge failed"
sleep 1
stop "$PID_A3" "$PID_B3"
PIDS=()
grep -E '^final lscc' "$LOG/A3.log"
got=$(bad_of "$LOG/A3.log") rmin=$(fin "$LOG/A3.log" R_rx_min_mbps) rs=$(fin "$LOG/A3.log" fb_resync)
rx=$(fin "$LOG/A3.log" fb_rx) s3=$(fin "$LOG/B3.log" fb_sent)
want="len=0 dst=0 magic=0 units=0 pad=0 src=0 tag=0 port=0 neigh=0 rate=0 epoch=7 seq=0"
if [ "$got" = "$want" ] && [ "$rs" = 1 ] && awk -v r="$rmin" -v m=$RMIN_MBPS 'BEGIN { exit !(r < m) }' &&
   [ -n "$rx" ] && [ -n "$s3" ] && [ "$rx" -ge $((s3 - 7 - 2)) ]; then
    pass "rocc_lsccauth: no key: the forged far-ahead frame is believed (R $rmin Mb/s < Rmin) and 7 genuine frames refused (epoch), then a resync: lsA accepted $rx of $s3"
else
    fail "rocc_lsccauth: no key: lscc_bad $got (want $want), fb_resync ${rs:-?} (want 1), R_rx_min ${rmin:-?} (want < $RMIN_MBPS), accepted ${rx:-?} of ${s3:-?}"
fi
[ "${fails:-0}" = 0 ]
