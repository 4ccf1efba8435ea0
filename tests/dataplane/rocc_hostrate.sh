#!/usr/bin/env bash
# tests/dataplane/rocc_hostrate.sh -- RoCC §3.6, rate computation at the
# host, in the data plane (docs/dataplane.md, "rocc_hostrate.sh").  Needs
# root, netns, libdpdk; build/dp/cnpforge sends the forged CNPs.
#
#   hrh1 eth0 --- s1 \                    port 0: host port (sender h1)
#   hrh2 eth0 --- s2  hrsw (rocc-switch)  port 1: host port (sender h2)
#   hrr  eth0 --- s3 /                    port 2: host port, 300 Mb/s, CP 0x102
#   hrx  eth0 --- s4                      port 3: fabric port (a forger beyond the edge)
#
# Three rounds, DURATION s each after WARMUP s, h1 and h2 each sending one
# unlimited flow to r through the CP (rocc_dp.sh's parameters: T = 1 ms,
# Qref 18750 B, ΔQ 300 B, ΔF 1 Mb/s):
#   switch         rocc-switch --rate-at switch; hosts as ever
#   host_full      --rate-at host_full on the switch and the hosts
#   host_registry  --rate-at host_registry; the hosts' --cp-reg is the
#                  reg= entry the switch printed for its CP
# Judged in every round (when the CP ran DP_MIN_CP_PERIODS% of its periods
# after the warm-up, else SKIP, netns.bash): port 2 forwarded >= 150 of 300
# Mb/s and h1, h2 each got half of it ±15% (the switch round's criterion,
# so a host-computed run converges like the switch-computed one).  Counters
# (every run): in the host rounds both senders computed rates from the
# CNPs of their form (hostcalc full / reg > 0), refused none of the real
# ones, and their RPs accepted CNPs; in the switch round none.
# Forged host-form CNPs (cnpforge, FORGE_MBPS for FORGE_S each, aimed at
# h1's flow), after the measurement, judged on counters: each rule must
# stop at least ON_STOP of what cnpforge sent, so none reaches h1's RP:
#   switch round:        hfull from 10.99.0.7 (CP 0x701) via port 3: the
#                        switch does not accept host forms (cnp_invalid)
#   host_full round:     hfull from 10.99.0.9 (CP 0x901, unbound at the
#                        hosts): h1 unbound; hfull from h2's host port
#                        claiming the CP (10.99.0.1, 0x102): switch
#                        cnp_host_port
#   host_registry round: hreg from 10.99.0.7 with CP id 0x701 (bound at the
#                        hosts, not in the registry): h1 hostcalc
#                        unregistered; hreg claiming the CP's own address
#                        via port 3: switch cnp_own_addr
# The forgers use parameters/inputs that would set h1 to 1 Mb/s if accepted.
set -u
cd "$(dirname "$0")/../.." || exit 1
DP=${DP:-build/dp}
DURATION=${DURATION:-5}
WARMUP=${WARMUP:-2.0}
FORGE_MBPS=${FORGE_MBPS:-1}        # ~1,000 forged CNPs/s
FORGE_S=${FORGE_S:-1}
ON_STOP=${ON_STOP:-0.99}
ROUNDS=${ROUNDS:-"switch host_full host_registry"}
. tests/dataplane/netns.bash
dp_setup rocc_hostrate rocchr "hrsw hrh1 hrh2 hrr hrx" "rocc-switch rocc-host cnpforge"

mac_sw() { printf '02:9b:00:00:%02x:01' "$1"; }
mac_h()  { printf '02:9b:00:00:%02x:02' "$1"; }
NS=(hrh1 hrh2 hrr hrx)
for i in 1 2 3 4; do veth_link hrsw "s$i" "$(mac_sw $i)" "${NS[$((i - 1))]}" eth0 "$(mac_h $i)"; done
H1=10.99.1.2; H2=10.99.2.2; R=10.99.3.2; CP=10.99.0.1
num() { awk -v x="$1" 'BEGIN { printf "%d", x + 0 }'; }
# stopped NAME RULE_COUNT SENT: PASS when RULE_COUNT >= ON_STOP * SENT > 0
stopped() {
    if awk -v n="$2" -v s="$3" -v f="$ON_STOP" 'BEGIN { exit !(s > 0 && n >= f * s) }'; then
        pass "rocc_hostrate: $1: $2 of $3 forged CNPs stopped"
    else fail "rocc_hostrate: $1: only ${2:-0} of ${3:-0} forged CNPs stopped"; fi
}

run_round() {
    local mode=$1 hopt=() reg
    mkdir -p "$LOG/$mode"
    # shellcheck disable=SC2046
    dp_start "$mode/sw" hrsw "$DP/rocc-switch" $(eal 1 "sw$mode" s1 s2 s3 s4) -- \
        --route $H1/32=0,"$(mac_h 1)" --route $H2/32=1,"$(mac_h 2)" --route $R/32=2,"$(mac_h 3)" \
        --route 10.99.4.2/32=3,"$(mac_h 4)" --host-port 0 --host-port 1 --host-port 2 --report-ms 250 \
        --egress-rate 2=0.3 --cp 2 --cp-ip $CP --switch-id 1 --period 1000 --rate-at "$mode" \
        --qref 18750 --qmid 37500 --qmax 45000 --q-unit 300 --f-unit-mbps 1 --qcap 150000 || return 1
    grep '^cp port' "$LOG/$mode/sw.log"
    reg=$(sed -n 's/^cp port=2 .* reg=\([^ ]*\).*/\1/p' "$LOG/$mode/sw.log")
    case $mode in
    host_full)     hopt=(--rate-at host_full) ;;
    host_registry) hopt=(--rate-at host_registry --cp-reg "$reg") ;;
    esac
    # shellcheck disable=SC2046
    dp_start "$mode/r" hrr "$DP/rocc-host" $(eal 0 "r$mode" eth0) -- --local-ip $R --gw-mac "$(mac_sw 3)" \
        --report-ms 250 || return 1
    for i in 1 2; do
        # shellcheck disable=SC2046
        dp_start "$mode/h$i" "hrh$i" "$DP/rocc-host" $(eal 0 "h$i$mode" eth0) -- --local-ip "10.99.$i.2" \
            --gw-mac "$(mac_sw $i)" --flow dst=$R,rate=line,size=inf,qpn=$i --cp-allow 10.99.0.0/24 \
            --cp-bind "1=$CP" --cp-bind 7=10.99.0.7 "${hopt[@]}" --f-unit-mbps 1 --recovery-us 1375 \
            --report-ms 250 || return 1
    done
    local rl=$LOG/$mode/r.log sl=$LOG/$mode/sw.log from sw_from
    from=$(awk -v t="$(log_now "$rl")" -v w="$WARMUP" 'BEGIN { print t + w }')
    sw_from=$(awk -v t="$(log_now "$sl")" -v w="$WARMUP" 'BEGIN { print t + w }')
    sleep "$(awk -v d="$DURATION" -v w="$WARMUP" 'BEGIN { print d + w }')"
    local to m1 m2 health sw_cpu
    to=$(log_now "$rl")
    m1=$(rx_mean "$rl" $H1 "$from"); m2=$(rx_mean "$rl" $H2 "$from")
    health=$(cp_health "$sl" 2 1000 "$sw_from")
    sw_cpu=$(cpu_share "$(eval echo "\$PID_${mode}_sw")")
    # Forgers (after the measured window; they are judged on counters).
    forge() { ( dp_exec "$@" ); }
    case $mode in
    switch)
        forge hrx "$DP/cnpforge" eth0 "$(mac_sw 4)" hfull "$FORGE_MBPS" "$FORGE_S" 10.99.0.7 $H1 $H1 $R 1 0x701 300 1000 \
            >"$LOG/$mode/forge_a.log" 2>&1 ;;
    host_full)
        forge hrx "$DP/cnpforge" eth0 "$(mac_sw 4)" hfull "$FORGE_MBPS" "$FORGE_S" 10.99.0.9 $H1 $H1 $R 1 0x901 300 1000 \
            >"$LOG/$mode/forge_a.log" 2>&1
        forge hrh2 "$DP/cnpforge" eth0 "$(mac_sw 2)" hfull "$FORGE_MBPS" "$FORGE_S" $CP $H1 $H1 $R 1 0x102 300 1000 \
            >"$LOG/$mode/forge_b.log" 2>&1 ;;
    host_registry)
        forge hrx "$DP/cnpforge" eth0 "$(mac_sw 4)" hreg "$FORGE_MBPS" "$FORGE_S" 10.99.0.7 $H1 $H1 $R 1 0x701 300 1000 \
            >"$LOG/$mode/forge_a.log" 2>&1
        forge hrx "$DP/cnpforge" eth0 "$(mac_sw 4)" hreg "$FORGE_MBPS" "$FORGE_S" $CP $H1 $H1 $R 1 0x102 300 1000 \
            >"$LOG/$mode/forge_b.log" 2>&1 ;;
    esac
    sleep 0.5
    local p
    for p in "${PIDS[@]}"; do kill -INT "$p" 2>/dev/null; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
    PIDS=()
    for p in sw r h1 h2; do echo "--- $mode $p"; grep '^final' "$LOG/$mode/$p.log" | grep -v '^final neigh'; done
    cat "$LOG/$mode"/forge_*.log 2>/dev/null
    echo "round $mode: h1=$m1 h2=$m2 Mb/s after ${WARMUP}s to ${to}s; CP ran ${health}% of its periods; switch CPU ${sw_cpu}%"

    # Convergence: the same criterion in every round.
    if [ "$health" -lt "$DP_MIN_CP_PERIODS" ]; then
        skip "rocc_hostrate: $mode: rates not judged: the CP ran ${health}% of its periods (${DP_MIN_CP_PERIODS}% needed; switch CPU ${sw_cpu}%; h1=$m1 h2=$m2 Mb/s)"
    else
        local sum half
        sum=$(awk -v a="$m1" -v b="$m2" 'BEGIN { printf "%.1f", a + b }')
        half=$(awk -v t="$sum" 'BEGIN { printf "%.1f", t / 2 }')
        if awk -v t="$sum" 'BEGIN { exit !(t >= 150) }'; then pass "rocc_hostrate: $mode: port 2 forwarded $sum of 300 Mb/s"
        else fail "rocc_hostrate: $mode: port 2 forwarded only $sum of 300 Mb/s"; fi
        for pair in "h1 $m1" "h2 $m2"; do
            set -- $pair
            if awk -v x="$2" -v h="$half" 'BEGIN { exit !(x >= 0.85 * h && x <= 1.15 * h) }'; then
                pass "rocc_hostrate: $mode: $1 $2 Mb/s within ±15% of half of $sum"
            else fail "rocc_hostrate: $mode: $1 $2 Mb/s not within ±15% of half of $sum"; fi
        done
    fi
    # Counters: who computed the rates.
    local i hl full regn unreg oor acc
    for i in 1 2; do
        hl=$LOG/$mode/h$i.log
        full=$(num "$(field "$hl" '^final host' full)"); regn=$(num "$(field "$hl" '^final host' reg)")
        unreg=$(num "$(field "$hl" '^final host' unregistered)"); oor=$(num "$(field "$hl" '^final host' out_of_range)")
        acc=$(num "$(field "$hl" '^final tx' accepted)")
        case $mode in
        switch)        [ "$full$regn" = 00 ] && [ "$acc" -gt 0 ] ;;
        host_full)     [ "$full" -gt 0 ] && [ "$regn" = 0 ] && [ "$acc" -gt 0 ] ;;
        host_registry) [ "$regn" -gt 0 ] && [ "$full" = 0 ] && [ "$acc" -gt 0 ] && [ "$oor" = 0 ] \
                           && { [ "$i" = 1 ] || [ "$unreg" = 0 ]; } ;;
        esac && pass "rocc_hostrate: $mode: h$i computed full=$full reg=$regn rates, its RP accepted $acc CNPs" \
             || fail "rocc_hostrate: $mode: h$i computed full=$full reg=$regn (unregistered=$unreg out_of_range=$oor), accepted $acc"
    done
    # Forged CNPs: each stopped by its rule.
    local sa sb
    sa=$(sed -n 's/.* sent=\([0-9]*\) .*/\1/p' "$LOG/$mode/forge_a.log" | head -n 1)
    sb=$(sed -n 's/.* sent=\([0-9]*\) .*/\1/p' "$LOG/$mode/forge_b.log" 2>/dev/null | head -n 1)
    hl=$LOG/$mode/h1.log
    case $mode in
    switch)
        stopped "switch round, hfull through a switch without host forms (cnp_invalid)" \
            "$(num "$(field "$sl" '^final control' cnp_invalid)")" "${sa:-0}" ;;
    host_full)
        stopped "host_full round, hfull from an unbound address (h1 unbound)" \
            "$(num "$(field "$hl" '^final host' unbound)")" "${sa:-0}"
        stopped "host_full round, hfull from a host port (switch cnp_host_port)" \
            "$(num "$(field "$sl" '^final control' cnp_host_port)")" "${sb:-0}" ;;
    host_registry)
        stopped "host_registry round, hreg with an unregistered CP id (h1 unregistered)" \
            "$(num "$(field "$hl" '^final host' unregistered)")" "${sa:-0}"
        stopped "host_registry round, hreg claiming the CP's address (switch cnp_own_addr)" \
            "$(num "$(field "$sl" '^final control' cnp_own_addr)")" "${sb:-0}" ;;
    esac
}

# A bad --cp-reg entry (Qmid <= Qref) and an unknown --rate-at: exit 2, saying why.
# shellcheck disable=SC2046
( dp_exec hrr "$DP/rocc-host" $(eal 0 badreg eth0) -- --local-ip $R --cp-reg 0x102=500:250:600:1:300:1:1:0 ) \
    >"$LOG/badreg.log" 2>&1; rc=$?
if [ $rc = 2 ] && grep -q "q_mid must be > q_ref" "$LOG/badreg.log"; then pass "rocc_hostrate: bad --cp-reg refused (exit 2, why)"
else fail "rocc_hostrate: bad --cp-reg: exit $rc"; cat "$LOG/badreg.log"; fi
# shellcheck disable=SC2046
( dp_exec hrr "$DP/rocc-host" $(eal 0 badat eth0) -- --local-ip $R --rate-at nic ) >"$LOG/badat.log" 2>&1; rc=$?
if [ $rc = 2 ] && grep -q "bad value for --rate-at: 'nic'" "$LOG/badat.log"; then pass "rocc_hostrate: bad --rate-at refused (exit 2)"
else fail "rocc_hostrate: bad --rate-at: exit $rc"; cat "$LOG/badat.log"; fi

# Numbers strtoull/strtod would have bent (past 2^64, a sign that wraps, NaN,
# a port past 65535) and a payload of 0 (a sized flow would never end): exit
# 2 naming the option and the value as given.
k=0
for bad in "--start-at-ns 18446744073709551616" "--report-ms -1" "--line-gbps nan" "--port 65536" \
           "--recovery-us 99999999999999999999" "--payload 0"; do
    k=$((k + 1))
    # shellcheck disable=SC2046,SC2086
    ( dp_exec hrr timeout 30 "$DP/rocc-host" $(eal 0 badnum$k eth0) -- --local-ip $R $bad ) >"$LOG/badnum$k.log" 2>&1; rc=$?
    if [ $rc = 2 ] && grep -q "bad value for ${bad%% *}: '${bad#* }'" "$LOG/badnum$k.log"; then
        pass "rocc_hostrate: $bad refused (exit 2)"
    else fail "rocc_hostrate: $bad: exit $rc"; cat "$LOG/badnum$k.log"; fi
done
# shellcheck disable=SC2046
( dp_exec hrr timeout 30 "$DP/rocc-host" $(eal 0 badsize eth0) -- --local-ip $R --flow "dst=$R,qpn=1,size=-5" ) \
    >"$LOG/badsize.log" 2>&1; rc=$?
if [ $rc = 2 ] && grep -q "size must be payload bytes" "$LOG/badsize.log"; then pass "rocc_hostrate: --flow size=-5 refused (exit 2)"
else fail "rocc_hostrate: --flow size=-5: exit $rc"; cat "$LOG/badsize.log"; fi

for mode in $ROUNDS; do run_round "$mode" || fail "rocc_hostrate: round $mode did not run"; done
[ "$fails" = 0 ]
