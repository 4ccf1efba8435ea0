#!/usr/bin/env bash
# tests/dataplane/rocc_rcc.sh -- RCC (ICNP 2021) Fig. 8 in the data plane,
# scaled from 25 Gb/s to 300 Mb/s (docs/rcc.md "Data plane").  Needs root,
# netns, libdpdk, build/roccsim.
#
#   rhh1 --\                                  /-- rhr1   (leaf1 port 1, 300 Mb/s)
#           rhl0 ==(port 2: 300 Mb/s, DELAY_US)== rhl1
#   rhh2 --/          one rocc-switch each       \-- rhr2   (leaf1 port 2, 300 Mb/s)
#
# Every rocc-host runs --cc $CC (rcc) with --line-gbps 0.3 (Fig. 8: every
# link the same speed).  The inter-switch link has a DELAY_US delay line each
# way (the scaled propagation delay, our choice: 10 ms, so that the ~0.2-0.3
# ms the software path adds to a one-way delay is a few % of the base, below
# RCC's delta/2 = 10%; with 2 ms it was +8-18%, docs/rcc.md).  T
# (--rcc-base-rtt-us) is the path's RTT, and Kp, Kd the paper's scaled by
# 12 us / T (host_rcc.c).  --qcap QCAP holds more than the BDP c*T (765 KB):
# the paper's switches are lossless and deep next to its 37.5 KB BDP, and a
# drop-tail queue below one BDP lost 12% of the frames at the line-rate start.
#   lasthop    h1, h2 -> r1 (Fig. 8a): r1's B_R says its last hop is full.
#   innetwork  h1 -> r1, h2 -> r2 (Fig. 8b): the shared leaf0 uplink.
# Both flows start at one instant (--start-at-ns, START_S s after the
# receivers are up), as in Fig. 8: started one after another, the first
# flow ran alone for seconds and wound its PID state far from the second's.
# Judged after WARMUP s: each flow's receive rate within [SHARE_LO,
# SHARE_HI] of the two flows' total (in network [NET_SHARE_LO, NET_SHARE_HI]); total > MIN_UTIL of 300 Mb/s (these
# two only on a run without poll-loop stalls, else SKIP: STALL_MS below);
# the bottleneck queue small: the mean of leaf0 port 2's per-report maxima
# (q_max, 200 ms reports) <= QSMALL bytes and its drops <= 1% of its frames.
# roccsim runs the same scaled Fig. 8 (topology, T, gains, delays) and its
# shares are printed beside the data plane's; a share outside
# [SHARE_LO, SHARE_HI] there fails too.
# Negative control: CC=none (no congestion control at the hosts).  Tried:
# see the NEGATIVE CONTROL note at the end of this file.
set -u
cd "$(dirname "$0")/../.." || exit 1
DP=${DP:-build/dp}
ROCCSIM=${ROCCSIM:-build/roccsim}
CC=${CC:-rcc}
# 12 s: ~600 RTTs of T, the first 4 s (~200) not judged -- roccsim needs
# ~1.8 s after the start for both windows to grow back from w_min.
DURATION=${DURATION:-12}
WARMUP=${WARMUP:-4}
DELAY_US=${DELAY_US:-10000}
# T (--rcc-base-rtt-us) on every host: the scaled base RTT, two delay lines
# plus ~400 us of polling in four processes (measured: the senders' min RTT
# 20.10-20.12 ms at DELAY_US 10000).
RCC_T_US=${RCC_T_US:-$((2 * DELAY_US + 400))}
SHARE_LO=${SHARE_LO:-0.3}; SHARE_HI=${SHARE_HI:-0.7}
# In network the data plane's shares are judged in [NET_SHARE_LO,
# NET_SHARE_HI]: RCC's PID does not split a shared bottleneck evenly (its
# u keeps the flows' start-up difference: docs/rcc.md "Why Fig. 8b's rates
# are not 12 Gb/s each"; roccsim 0.44 / 0.56 here), and the judged runs
# split 0.53-0.60 five times and 0.33 / 0.67 once (the fresh-clone CI of
# 2026-11-27), so [0.3, 0.7] would fail a correct RCC now and then.  What
# the check guards against is a flow shut out (the unscaled gains in
# roccsim: 8 / 285 Mb/s, a share of 0.03).
NET_SHARE_LO=${NET_SHARE_LO:-0.2}; NET_SHARE_HI=${NET_SHARE_HI:-0.8}
MIN_UTIL=${MIN_UTIL:-0.6}
QCAP=${QCAP:-1000000}
# The queue bound sits between what RCC leaves and what no control leaves:
# with CC=none the mean of maxima is the full --qcap, 999,810 B, and 48% of
# the frames are dropped (NEGATIVE CONTROL below); with RCC, eight runs
# (two with a `yes` process on one core) gave 18-40 KB in the last-hop case
# and 61-143 KB in the in-network case, none dropped.  30% of --qcap keeps
# a 2.1x margin above the largest and 3.3x below the uncontrolled queue.
QSMALL=${QSMALL:-$((QCAP * 3 / 10))}
CASES=${CASES:-"lasthop innetwork"}
START_S=${START_S:-5}
. tests/dataplane/netns.bash
dp_setup rocc_rcc rhrcc "rhl0 rhl1 rhh1 rhh2 rhr1 rhr2" "rocc-switch rocc-host"

m() { printf '02:9c:00:00:%02x:%02x' "$1" "$2"; }
veth_link rhl0 a0 "$(m 1 1)" rhh1 eth0 "$(m 1 2)"
veth_link rhl0 a1 "$(m 2 1)" rhh2 eth0 "$(m 2 2)"
veth_link rhl0 u0 "$(m 9 1)" rhl1 u1 "$(m 9 2)"
veth_link rhl1 b1 "$(m 3 1)" rhr1 eth0 "$(m 3 2)"
veth_link rhl1 b2 "$(m 4 1)" rhr2 eth0 "$(m 4 2)"
H1=10.98.1.2; H2=10.98.2.2; R1=10.98.3.2; R2=10.98.4.2

# Poll-loop stalls (docs/rcc.md "Fig. 8 at 300 Mb/s"): every app reports
# its loop's longest gap per 200 ms report (gap_max_us) and its count of
# gaps over 1 ms (stalls) on its stat/tx/rx lines, and its t=0 in
# CLOCK_REALTIME on its ready line (t0_ns), so the six logs share one time
# axis.  A process that does not run for STALL_MS holds the frames in its
# receive ring (switch) or stamps their arrival late (receiver); RCC reads
# either as queueing delay.  Measured (docs/rcc.md "Stalls": nine runs
# under SCHED_RR, three under nice -10, load 3-11): under SCHED_RR every
# window collapse after the start-up followed a stall >= 10 ms (~50 ms:
# the kernel's RT throttling, gone with it lifted), and the link carried 239-296 Mb/s over the
# reports with no such stall in the REGROW_S before them, 10-144 with one,
# while gaps of 1-9 ms (up to 8 per second per process) left the windows
# at the cap; under nice -10 the apps had no gap >= 10 ms but 9-23 gaps
# over 1 ms per second each (up to 9 ms long), and the link carried 23-59
# Mb/s.  So the share and utilisation checks are judged only on a run
# whose six processes had, from REGROW_S before the judged window to its
# end, no gap >= STALL_MS and at most STALL_PER_S gaps over 1 ms per second
# each (REGROW_S: a window grew back from < 10 KB to 90% of its cap in
# 0.8-2.6 s in the last-hop case, 1.8-7.2 s, median 2.4, in network;
# STALL_PER_S lies between the measured regimes, not derived from RCC);
# otherwise they SKIP, naming the stalls.  REPRO=1 judges them anyway.
STALL_MS=${STALL_MS:-10}
STALL_PER_S=${STALL_PER_S:-5}
REGROW_S=${REGROW_S:-2.5}
# stall_scan LOG FROM_UNIX_S -> "STALLS MAX_MS": gaps over 1 ms, and the
# longest gap, in the LOG's reports that end after FROM_UNIX_S (the switch's
# port 0 lines, the host's tx and rx lines: each report once); "- -" when
# the app printed no report then (a host with no flow and nothing received,
# as r2 in the last-hop case: idle, so nothing of its can stall the flows).
stall_scan() {
    awk -v from="$2" '$1 == "ready" { for (i = 2; i <= NF; i++) if ($i ~ /^t0_ns=/) t0 = substr($i, 7) / 1e9 }
        ($1 == "stat" && $3 == "port=0") || $1 == "tx" || $1 == "rx" {
            t = -1; g = -1
            for (i = 2; i <= NF; i++) { split($i, kv, "=")
                if (kv[1] == "t") t = kv[2] + 0; else if (kv[1] == "gap_max_us") g = kv[2] + 0; else if (kv[1] == "stalls") n = kv[2] + 0 }
            if (g < 0 || (t in seen)) next
            seen[t] = 1
            if (t0 + t <= from) { base = n; next }
            got = 1; last = n; if (g > mx) mx = g }
        END { if (got) printf "%d %.1f\n", last - base, mx / 1000; else print "- -" }' "$1"
}

within_share() {  # within_share RATE TOTAL [LO HI]
    awk -v x="$1" -v t="$2" -v lo="${3:-$SHARE_LO}" -v hi="${4:-$SHARE_HI}" 'BEGIN { exit !(t > 0 && x / t >= lo && x / t <= hi) }'
}

run_case() {  # run_case NAME DST1 DST2
    local name=$1 d1=$2 d2=$3 L="$LOG/$1" i
    mkdir -p "$L"
    # shellcheck disable=SC2046
    dp_exec rhl0 "$DP/rocc-switch" $(eal 1 "l0$name" a0 a1 u0) -- \
        --route $H1/32=0,"$(m 1 2)" --route $H2/32=1,"$(m 2 2)" \
        --route $R1/32=2,"$(m 9 2)" --route $R2/32=2,"$(m 9 2)" \
        --egress-rate 2=0.3 --delay 2=$DELAY_US --qcap $QCAP --report-ms 200 >"$L/l0.log" 2>&1 &
    PIDS+=($!)
    # shellcheck disable=SC2046
    dp_exec rhl1 "$DP/rocc-switch" $(eal 1 "l1$name" u1 b1 b2) -- \
        --route $H1/32=0,"$(m 9 1)" --route $H2/32=0,"$(m 9 1)" \
        --route $R1/32=1,"$(m 3 2)" --route $R2/32=2,"$(m 4 2)" \
        --egress-rate 1=0.3 --egress-rate 2=0.3 --delay 0=$DELAY_US --qcap $QCAP --report-ms 200 >"$L/l1.log" 2>&1 &
    PIDS+=($!)
    for i in l0 l1; do wait_ready "$L/$i.log" "${PIDS[$([ $i = l0 ] && echo -2 || echo -1)]}" || { fail "rocc_rcc.$name: switch $i did not start"; cat "$L/$i.log"; return 1; }; done
    # Fig. 8's two flows start together: both senders' flows begin at one
    # CLOCK_REALTIME instant (--start-at-ns), START_S after the receivers
    # are up (a host takes 0.5-3 s to start here; a sender that comes up
    # after the instant refuses to run: a FAIL naming it).
    local start_ns
    # shellcheck disable=SC2046
    dp_start "$name/r1" rhr1 "$DP/rocc-host" $(eal 0 "r1$name" eth0) -- --local-ip $R1 --gw-mac "$(m 3 1)" \
        --cc "$CC" --rcc-base-rtt-us "$RCC_T_US" --line-gbps 0.3 --report-ms 200 || return 1
    # shellcheck disable=SC2046
    dp_start "$name/r2" rhr2 "$DP/rocc-host" $(eal 0 "r2$name" eth0) -- --local-ip $R2 --gw-mac "$(m 4 1)" \
        --cc "$CC" --rcc-base-rtt-us "$RCC_T_US" --line-gbps 0.3 --report-ms 200 || return 1
    start_ns=$(($(date +%s%N) + START_S * 1000000000))
    # shellcheck disable=SC2046
    dp_start "$name/h1" rhh1 "$DP/rocc-host" $(eal 0 "h1$name" eth0) -- --local-ip $H1 --gw-mac "$(m 1 1)" \
        --cc "$CC" --rcc-base-rtt-us "$RCC_T_US" --line-gbps 0.3 --flow "dst=$d1,rate=line,size=inf,qpn=1" --start-at-ns "$start_ns" --report-ms 200 || return 1
    # shellcheck disable=SC2046
    dp_start "$name/h2" rhh2 "$DP/rocc-host" $(eal 0 "h2$name" eth0) -- --local-ip $H2 --gw-mac "$(m 2 1)" \
        --cc "$CC" --rcc-base-rtt-us "$RCC_T_US" --line-gbps 0.3 --flow "dst=$d2,rate=line,size=inf,qpn=2" --start-at-ns "$start_ns" --report-ms 200 || return 1
    local from sw_from wait_ns
    echo "[$name] senders ready $(( (start_ns - $(date +%s%N)) / 1000000 )) ms before the flows' start"
    wait_ns=$((start_ns - $(date +%s%N)))
    [ "$wait_ns" -gt 0 ] && sleep "$(awk -v n="$wait_ns" 'BEGIN { printf "%.3f", n / 1e9 + 0.3 }')"
    from=$(awk -v t="$(log_now "$L/r1.log")" -v w="$WARMUP" 'BEGIN { print t + w }')
    from2=$(awk -v t="$(log_now "$L/r2.log")" -v w="$WARMUP" 'BEGIN { print t + w }')
    sw_from=$(awk -v t="$(log_now "$L/l0.log")" -v w="$WARMUP" 'BEGIN { print t + w }')
    sleep "$DURATION"
    for p in "${PIDS[@]}"; do kill -INT "$p" 2>/dev/null; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
    PIDS=()
    rm -rf /var/run/dpdk/"$PFX"_* 2>/dev/null
    for i in h1 h2 r1 r2; do echo "--- [$name] $i"; grep -E '^final (tx|rx|rcc)' "$L/$i.log"; done
    grep -E '^final port 2' "$L/l0.log"
    if [ "$d2" = "$R1" ]; then
        rate1=$(rx_mean "$L/r1.log" $H1 "$from"); rate2=$(rx_mean "$L/r1.log" $H2 "$from")
    else
        rate1=$(rx_mean "$L/r1.log" $H1 "$from"); rate2=$(rx_mean "$L/r2.log" $H2 "$from2")
    fi
    total=$(awk -v a="$rate1" -v b="$rate2" 'BEGIN { printf "%.1f", a + b }')
    # leaf0 port 2 (the shared uplink, the first 300 Mb/s hop): q_max per report and drops after the warm-up.
    read -r qmean qmaxall dropfrac < <(awk -v w="$sw_from" '$1 == "stat" && $3 == "port=2" {
            split($2, t, "="); if (t[2] + 0 < w) next
            for (i = 4; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
            if (!seen) { tx0 = v["tx_pkts"]; d0 = v["drops_qfull"]; seen = 1 }
            tx1 = v["tx_pkts"]; d1 = v["drops_qfull"]; s += v["q_max"]; n++; if (v["q_max"] > mx) mx = v["q_max"] }
        END { tot = (tx1 - tx0) + (d1 - d0); printf "%.0f %d %.2f\n", (n ? s / n : 1e9), mx + 0, (tot > 0 ? 100 * (d1 - d0) / tot : 100) }' "$L/l0.log")
    echo "[$name] after ${WARMUP}s (Mb/s, wire): h1=$rate1 h2=$rate2 total=$total of 300; uplink queue: mean of 200 ms maxima ${qmean} B, max ${qmaxall} B, drops ${dropfrac}%"
    local t0 abs_from span i n mx line=""
    t0=$(sed -n 's/^ready.* t0_ns=\([0-9]*\).*/\1/p' "$L/l0.log")
    abs_from=$(awk -v t0="${t0:-0}" -v f="$sw_from" -v r="$REGROW_S" 'BEGIN { printf "%.3f", t0 / 1e9 + f - r }')
    span=$(awk -v t="$(log_now "$L/l0.log")" -v f="$sw_from" -v r="$REGROW_S" 'BEGIN { printf "%.1f", t - f + r }')
    stalled=""
    for i in h1 h2 r1 r2 l0 l1; do
        read -r n mx < <(stall_scan "$L/$i.log" "$abs_from")
        if [ "$n" = - ]; then line="$line $i=- (no reports)"; continue; fi
        line="$line $i=$n (max $mx ms)"
        if awk -v m="$mx" -v s="$STALL_MS" 'BEGIN { exit !(m >= s) }'; then stalled="$stalled $i ${mx} ms,"
        elif awk -v n="$n" -v d="$span" -v r="$STALL_PER_S" 'BEGIN { exit !(d > 0 && n / d > r) }'; then
            stalled="$stalled $i $n gaps over 1 ms in ${span}s,"
        fi
    done
    [ -n "$t0" ] || stalled=" (no t0_ns on leaf0's ready line)"
    echo "[$name] loop gaps over 1 ms in the ${span}s from ${REGROW_S}s before the judged window to its end:$line"
}

run_sim() {  # run_sim NAME PAIRING(dst list)
    local name=$1 dsts=$2 L="$LOG/$1"
    [ -x "$ROCCSIM" ] || { fail "rocc_rcc.$name: roccsim not built ($ROCCSIM)"; return 1; }
    local T_US; T_US=$(grep -h '^final rcc ' "$L/h1.log" | tr ' ' '\n' | sed -n 's/^base_rtt_us=//p')
    local KP KD; KP=$(grep -h '^final rcc ' "$L/h1.log" | tr ' ' '\n' | sed -n 's/^kp=//p'); KD=$(grep -h '^final rcc ' "$L/h1.log" | tr ' ' '\n' | sed -n 's/^kd=//p')
    {
        echo "host s0 s1 r0 r1"; echo "switch leaf0 leaf1"
        echo "link s0 leaf0 300Mbps 1us"; echo "link s1 leaf0 300Mbps 1us"
        echo "link leaf0 leaf1 300Mbps ${DELAY_US}us"
        echo "link r0 leaf1 300Mbps 1us"; echo "link r1 leaf1 300Mbps 1us"
    } >"$L/fig8s.topo"
    printf '[sim]\nduration = %ss\nmeasure_start = %ss\n\n[topology]\ntype = file\nfile = fig8s.topo\n\n[cc]\nalgorithm = %s\n\n[rcc]\nbase_rtt = %sus\nkp = %s\nkd = %s\n\n[flows.f]\nsrc = s0, s1\ndst = %s\npairing = zip\n' \
        "$(awk -v d="$DURATION" 'BEGIN { print (d < 3 ? 3 : d) }')" "$WARMUP" "$CC" "${T_US:-1000}" "${KP:-120}" "${KD:-1200}" "$dsts" >"$L/sim.ini"
    "$ROCCSIM" run "$L/sim.ini" -o "$L/sim" -q >"$L/sim.log" 2>&1 || { fail "rocc_rcc.$name: roccsim failed"; cat "$L/sim.log"; return 1; }
    sim1=$(awk -F, '$2 == "f[0]" { printf "%.1f", $12 * 1000 }' "$L/sim/flows.csv")
    sim2=$(awk -F, '$2 == "f[1]" { printf "%.1f", $12 * 1000 }' "$L/sim/flows.csv")
    simq=$(grep -o '"queue_max[^,]*' "$L/sim/summary.json" | head -1)
    simtot=$(awk -v a="$sim1" -v b="$sim2" 'BEGIN { printf "%.1f", a + b }')
    echo "[$name] share of the total        data plane      roccsim"
    awk -v a="$rate1" -v b="$rate2" -v c="$sim1" -v d="$sim2" -v n="$name" 'BEGIN { t = a + b; u = c + d;
        printf "[%s]   h1 / s0            %5.1f (%.2f)   %5.1f (%.2f)\n", n, a, t ? a / t : 0, c, u ? c / u : 0
        printf "[%s]   h2 / s1            %5.1f (%.2f)   %5.1f (%.2f)\n", n, b, t ? b / t : 0, d, u ? d / u : 0 }'
    if within_share "$sim1" "$simtot" && within_share "$sim2" "$simtot"; then
        pass "rocc_rcc.$name: roccsim shares $sim1 / $sim2 Mb/s within [$SHARE_LO, $SHARE_HI] of $simtot"
    else
        fail "rocc_rcc.$name: roccsim shares $sim1 / $sim2 Mb/s not within [$SHARE_LO, $SHARE_HI] of $simtot"
    fi
}

# The share and utilisation checks are judged on a run without the stalls
# above (REPRO=1: on every run); a stalled run SKIPs them with the stalls
# named -- it never passes unjudged.  The queue check and roccsim's shares
# are judged on every run.
REPRO=${REPRO:-}
judge() {
    local name=$1
    if [ -n "$stalled" ] && [ -z "$REPRO" ]; then
        skip "rocc_rcc.$name: shares and utilisation not judged (h1 $rate1, h2 $rate2, total $total Mb/s): poll loops stalled in or ${REGROW_S}s before the judged window (a gap >= $STALL_MS ms, or over $STALL_PER_S gaps over 1 ms per second):${stalled%,} (RCC reads a stall as queueing delay; DP_SCHED=$DP_SCHED; docs/rcc.md \"What to do about a SKIP\"; REPRO=1 judges anyway)"
    else
        local lo=$SHARE_LO hi=$SHARE_HI
        [ "$name" = innetwork ] && { lo=$NET_SHARE_LO; hi=$NET_SHARE_HI; }
        for i in 1 2; do
            local r; [ $i = 1 ] && r=$rate1 || r=$rate2
            if within_share "$r" "$total" "$lo" "$hi"; then pass "rocc_rcc.$name: h$i $r Mb/s within [$lo, $hi] of the $total total"
            else fail "rocc_rcc.$name: h$i $r Mb/s not within [$lo, $hi] of the $total total"; fi
        done
        if awk -v t="$total" -v u="$MIN_UTIL" 'BEGIN { exit !(t > 300 * u) }'; then pass "rocc_rcc.$name: total $total > $(awk -v u="$MIN_UTIL" 'BEGIN{print 300*u}') Mb/s"
        else fail "rocc_rcc.$name: total $total <= $(awk -v u="$MIN_UTIL" 'BEGIN{print 300*u}') Mb/s"; fi
    fi
    if [ "$qmean" -le "$QSMALL" ] && awk -v d="$dropfrac" 'BEGIN { exit !(d <= 1) }'; then
        pass "rocc_rcc.$name: uplink queue small (mean of 200 ms maxima $qmean <= $QSMALL B, drops $dropfrac% <= 1%)"
    else
        fail "rocc_rcc.$name: uplink queue not small (mean of 200 ms maxima $qmean B, want <= $QSMALL; drops $dropfrac%, want <= 1%)"
    fi
}

for c in $CASES; do
    case $c in
    lasthop) run_case lasthop $R1 $R1 && { judge lasthop; [ "$CC" = none ] || run_sim lasthop "r0, r0"; } ;;
    innetwork) run_case innetwork $R1 $R2 && { judge innetwork; [ "$CC" = none ] || run_sim innetwork "r0, r1"; } ;;
    *) fail "rocc_rcc: unknown case $c" ;;
    esac
done
[ "$fails" = 0 ]
# NEGATIVE CONTROL (CC=none, both cases, 2026-11-27, these defaults): the
# queue check FAILED in both (uplink q_max mean 999,810 B = the full --qcap,
# 48.3% of its frames dropped) while the share/utilisation checks were met
# (two runs: 183 / 111, 183 / 110 and 188 / 106, 179 / 117 Mb/s, totals
# 293-296: drop-tail between two equal
# line-rate senders already splits the port about evenly, so [0.3, 0.7]
# cannot tell RCC from no control here, and no control uses the link more).
# The roccsim checks were seen to fail with the unscaled gains (Kp 1e4, Kd
# 1e5 at T = 1 ms: one flow starved, 8 / 285 Mb/s in the in-network case).
# Again with the stall gate (2026-11-27, load 10-12.6): the queue checks
# FAILED in both cases (999,810 B, 48.2% / 49.1% dropped); shares and
# utilisation SKIPped (stalls of 54-58 ms: no control costs more CPU).
# Broken RCC judged: RCC_T_US=2000 (T a tenth of the path's RTT, windows a
# tenth of the BDP), in-network, no stall over the limit: the utilisation
# check FAILED (133.6 <= 180 Mb/s).
# Measured with CC=rcc: docs/rcc.md "Fig. 8 at 300 Mb/s".
