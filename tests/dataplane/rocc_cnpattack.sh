#!/usr/bin/env bash
# tests/dataplane/rocc_cnpattack.sh -- forged and abused CNPs against a RoCC
# flow, with the defence on and off (issue 11 part 5).  Needs root, netns,
# libdpdk; build/dp/cnpforge sends the attack (tests/dataplane/cnpforge.c).
#
#   ah1 eth0 --- s1 \                    port 0: host port (victim sender h1)
#   ar  eth0 --- s2  asw (rocc-switch)   port 1: host port, 300 Mb/s, CP 0x101
#   ax  eth0 --- s3 /                    port 2: host port (an attacking host)
#   ay  eth0 --- s4                      port 3: fabric port (an attacker beyond
#                                         the edge, where filtering by port fails)
#
# h1 sends one unlimited RoCC flow to r.  Each round runs, one after the
# other, PHASE seconds each, a control phase (no attack) before each of
#   spoof     CNPs from ay claiming the switch's CP address 10.99.0.1 and
#             its real CP id 0x101, fair rate 5 Mb/s, for h1's flow
#   madeup    CNPs from ay from 10.99.0.7 (inside h1's --cp-allow) with a
#             made-up CP id 0x999
#   hostport  the spoofed CNPs of `spoof`, sent from the host port (ax)
#   junk      ~JUNK_MBPS of 1000..1400-byte ICMP type 253 junk (random
#             code, checksum, body) from ay to r, through the shaped port
# and a last control phase.  It measures the victim's rate at the sink over
# each phase (after a SETTLE-second lead-in), and judges each attack by its
# share of the mean of the control phases just before and after it, so a
# busy machine that slows everything alike (or drifts slowly) does not
# decide the result.  The counters of the rule that stopped each attack are
# checked too: they say why, the rates say that it mattered.
#   Round "on":  switch --host-port 0,1,2 (filtering + validation), hosts
#                --cp-bind 1=10.99.0.1.  PASS when every attack keeps the
#                share >= ON_MIN and the counter of the rule that stopped
#                it moved (switch cnp_own_addr, h1 unbound, switch
#                cnp_host_port, switch cnp_invalid).
#   Round "off": switch --no-cnp-filter, hosts without --cp-bind (the
#                behaviour before issue 11).  PASS when each CNP attack
#                cuts the share below OFF_CNP_MAX and the junk below
#                OFF_JUNK_MAX: the attacks are real, so round "on" shows
#                the defence, not a harmless attack.
# Set-up checks and teardown: tests/dataplane/netns.bash.
set -u
cd "$(dirname "$0")/../.." || exit 1
DP=${DP:-build/dp}
PHASE=${PHASE:-3}
SETTLE=${SETTLE:-1}
WARMUP=${WARMUP:-2}
JUNK_MBPS=${JUNK_MBPS:-150}
CNP_MBPS=${CNP_MBPS:-2}            # ~2,270 forged CNPs/s (110 wire bytes each)
ON_MIN=${ON_MIN:-0.8}
CONTROL_MIN=${CONTROL_MIN:-30}     # Mb/s: below it the switch is starved, not attacked
OFF_CNP_MAX=${OFF_CNP_MAX:-0.5}
OFF_JUNK_MAX=${OFF_JUNK_MAX:-0.8}
ROUNDS=${ROUNDS:-"on off"}
. tests/dataplane/netns.bash
dp_setup rocc_cnpattack roccca "asw ah1 ar ax ay" "rocc-switch rocc-host cnpforge"

mac_sw() { printf '02:98:00:00:%02x:01' "$1"; }
mac_h()  { printf '02:98:00:00:%02x:02' "$1"; }
NS=(ah1 ar ax ay)
for i in 1 2 3 4; do veth_link asw "s$i" "$(mac_sw $i)" "${NS[$((i - 1))]}" eth0 "$(mac_h $i)"; done
H1=10.99.1.2; R=10.99.2.2; CP=10.99.0.1

# phase_rate LOG FROM TO: mean sink rate of h1's flow over report lines FROM+1..TO
# of LOG, skipping the first SETTLE seconds of the phase.
phase_rate() {
    awk -v from="$2" -v to="$3" -v src="$H1" -v settle="$SETTLE" '
        NR > from && NR <= to && $1 == "rx" && $3 == "src=" src {
            split($2, t, "="); split($5, m, "=")
            if (t0 == "") t0 = t[2]
            if (t[2] - t0 >= settle) { s += m[2]; n++ } }
        END { if (n) printf "%.1f", s / n; else print "" }' "$1"
}
lines() { wc -l <"$1"; }
mean2() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b != "") printf "%.1f", (a + b) / 2 }'; }
share() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a != "") printf "%.2f", a / b; else print "" }'; }

run_round() {
    local mode=$1 swopt hopt
    if [ "$mode" = on ]; then swopt=(--host-port 0 --host-port 1 --host-port 2); hopt=(--cp-bind "1=$CP")
    else swopt=(--no-cnp-filter); hopt=(); fi
    mkdir -p "$LOG/$mode"
    # shellcheck disable=SC2046
    dp_start "$mode/sw" asw "$DP/rocc-switch" $(eal 1 "sw$mode" s1 s2 s3 s4) -- \
        --route $H1/32=0,"$(mac_h 1)" --route $R/32=1,"$(mac_h 2)" \
        --route 10.99.3.2/32=2,"$(mac_h 3)" --route 10.99.4.2/32=3,"$(mac_h 4)" \
        --egress-rate 1=0.3 --cp 1 --cp-ip $CP --switch-id 1 --period 1000 \
        --qref 18750 --qmid 37500 --qmax 45000 --q-unit 300 --f-unit-mbps 1 --qcap 150000 "${swopt[@]}" || return 1
    # shellcheck disable=SC2046
    dp_start "$mode/r" ar "$DP/rocc-host" $(eal 0 "r$mode" eth0) -- --local-ip $R --gw-mac "$(mac_sw 2)" \
        --report-ms 250 || return 1
    # shellcheck disable=SC2046
    dp_start "$mode/h1" ah1 "$DP/rocc-host" $(eal 0 "h1$mode" eth0) -- --local-ip $H1 --gw-mac "$(mac_sw 1)" \
        --flow dst=$R,rate=line,size=inf,qpn=1 --cp-allow 10.99.0.0/24 "${hopt[@]}" --f-unit-mbps 1 \
        --recovery-us 1375 --report-ms 500 || return 1
    sleep "$WARMUP"
    local rl=$LOG/$mode/r.log a b ph
    for ph in c0 spoof c1 madeup c2 hostport c3 junk c4; do
        a=$(lines "$rl")
        case $ph in
        c?)       sleep "$PHASE" ;;
        spoof)    ip netns exec ay "$DP/cnpforge" eth0 "$(mac_sw 4)" cnp "$CNP_MBPS" "$PHASE" $CP $H1 $H1 $R 1 0x101 5 ;;
        madeup)   ip netns exec ay "$DP/cnpforge" eth0 "$(mac_sw 4)" cnp "$CNP_MBPS" "$PHASE" 10.99.0.7 $H1 $H1 $R 1 0x999 5 ;;
        hostport) ip netns exec ax "$DP/cnpforge" eth0 "$(mac_sw 3)" cnp "$CNP_MBPS" "$PHASE" $CP $H1 $H1 $R 1 0x101 5 ;;
        junk)     ip netns exec ay "$DP/cnpforge" eth0 "$(mac_sw 4)" junk "$JUNK_MBPS" "$PHASE" 10.99.9.9 $R ;;
        esac >"$LOG/$mode/forge_$ph.log" 2>&1
        b=$(lines "$rl")
        eval "RATE_${mode}_$ph=\$(phase_rate \"\$rl\" $a $b)"
        echo "round $mode phase $ph: victim $(eval echo "\$RATE_${mode}_$ph") Mb/s; $(cat "$LOG/$mode/forge_$ph.log" 2>/dev/null)"
        sleep 0.5   # the RP recovers (Alg. 2 doubling) before the next phase
    done
    for n in sw r h1; do eval "kill -INT \$PID_${mode}_$n" 2>/dev/null; done
    for n in sw r h1; do eval "wait \$PID_${mode}_$n" 2>/dev/null; done
    for n in sw h1; do echo "--- $mode $n"; grep -E '^final (control|host|port 1 )' "$LOG/$mode/$n.log"; done
}

for mode in $ROUNDS; do
    run_round "$mode" || { fail "rocc_cnpattack: round $mode did not start"; continue; }
    k=0
    for ph in spoof madeup hostport junk; do
        c=$(mean2 "$(eval echo "\${RATE_${mode}_c$k:-}")" "$(eval echo "\${RATE_${mode}_c$((k + 1)):-}")")
        k=$((k + 1))
        if ! awk -v c="${c:-0}" -v m="$CONTROL_MIN" 'BEGIN { exit !(c >= m) }'; then
            fail "rocc_cnpattack: round $mode $ph: the control phases around it averaged ${c:-?} Mb/s" \
                 "(of 300, < $CONTROL_MIN): the machine is too busy to judge"
            continue
        fi
        r=$(eval echo "\$RATE_${mode}_$ph"); sh=$(share "$r" "$c")
        if [ "$mode" = on ]; then
            lim=$ON_MIN; ok=$(awk -v s="${sh:-0}" -v l="$lim" 'BEGIN { print (s >= l) }')
            what=">= $lim (no effect)"
        else
            lim=$OFF_CNP_MAX; [ $ph = junk ] && lim=$OFF_JUNK_MAX
            ok=$(awk -v s="${sh:-9}" -v l="$lim" 'BEGIN { print (s != "" && s < l) }')
            what="< $lim (the attack works without the defence)"
        fi
        if [ "$ok" = 1 ]; then pass "rocc_cnpattack: round $mode $ph: victim $r Mb/s = ${sh} of control ($c), $what"
        else fail "rocc_cnpattack: round $mode $ph: victim ${r:-?} Mb/s = ${sh:-?} of control (${c}), wanted $what"; fi
    done
    if [ "$mode" = on ]; then
        sw=$LOG/on/sw.log; h1=$LOG/on/h1.log
        chk() {  # chk WHAT VALUE
            if [ "${2:-0}" -gt 0 ]; then pass "rocc_cnpattack: round on: $1 = $2"
            else fail "rocc_cnpattack: round on: $1 = ${2:-?}, expected > 0"; fi
        }
        chk "switch dropped CNPs claiming its own CP address from the fabric port (spoof)" \
            "$(field "$sw" '^final control' cnp_own_addr)"
        chk "h1 refused CNPs whose CP id is not bound to their source (madeup)" "$(field "$h1" '^final host' unbound)"
        chk "switch dropped CNPs from host ports (hostport)" "$(field "$sw" '^final control' cnp_host_port)"
        chk "switch dropped invalid ICMP 253 (junk)" "$(field "$sw" '^final control' cnp_invalid)"
        chk "h1 accepted real CNPs from the CP" "$(field "$h1" '^final host' ok)"
        ctl=$(field "$sw" '^final port 1 ' ctl_fwd)
        if [ "${ctl:-1}" = 0 ]; then pass "rocc_cnpattack: round on: nothing entered port 1's control FIFO (ctl_fwd 0)"
        else fail "rocc_cnpattack: round on: port 1 ctl_fwd = ${ctl:-?}, expected 0 (junk in the control class)"; fi
    else
        ctl=$(field "$LOG/off/sw.log" '^final port 1 ' ctl_fwd)
        echo "round off: junk frames the switch sent in port 1's control FIFO: ${ctl:-?}"
    fi
done
[ "$fails" = 0 ]
