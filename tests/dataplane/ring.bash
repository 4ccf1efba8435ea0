# tests/dataplane/ring.bash -- the three-switch ring (Menikkumbura 2022
# Fig. 4.6) that rocc_ring.sh (PFC only: it deadlocks) and rocc_escape.sh
# (Escape: it does not) both run; rocc_ring.sh's header draws it.  Sourced
# after netns.bash and dp_setup (not run: scripts/test.sh runs only
# tests/dataplane/*.sh).
#
#   ring_setup SW H NET    the veth links between the namespaces SW1..SW3
#                          (switches) and H1..H3 (hosts), which dp_setup
#                          made; switch i's ports: 0 "host" (MAC
#                          02:NET:00:00:0i:00), 1 "cw" (:01, to the next
#                          switch), 2 "ccw" (:02); host i: MAC
#                          02:NET:00:00:0i:10, IP 10.NET.i.2
#   mac_sw I P, mac_h I, ip_h I, nxt I    those addresses; the next switch
#   ring_run NAME [ARG...] one run, logs in $LOG/NAME/: the three switches
#                          (static routes clockwise, port 1 shaped to
#                          RING_GBPS), the three hosts (one endless flow
#                          each, two hops clockwise, START_MS after the
#                          host), DURATION s of traffic, hosts then
#                          switches stopped, their final lines printed.
#                          1 (after a FAIL line) if an app did not start.
#
# The test defines ring_switch_opts and ring_host_opts, called as
# "FN I NAME [ARG...]" for switch or host I: the options it adds, printed
# and split into words; and may set RING_FINALS (the switches' final lines
# to print, grep -E; default '^final (port|pfc )') and RING_SETTLE
# (seconds between stopping the hosts and the switches; default none).
# Uses DP, QCAP, RING_GBPS, LINE_GBPS, START_MS, DURATION.

ring_setup() {
    RING_SW=$1; RING_H=$2; RING_NET=$3
    local i
    for i in 1 2 3; do veth_link "$RING_SW$i" host "$(mac_sw "$i" 0)" "$RING_H$i" eth0 "$(mac_h "$i")"; done
    for i in 1 2 3; do veth_link "$RING_SW$i" cw "$(mac_sw "$i" 1)" "$RING_SW$(nxt "$i")" ccw "$(mac_sw "$(nxt "$i")" 2)"; done
}

mac_sw() { printf '02:%s:00:00:%02x:%02x' "$RING_NET" "$1" "$2"; }   # switch $1, port $2
mac_h()  { printf '02:%s:00:00:%02x:10' "$RING_NET" "$1"; }
ip_h() { echo "10.$RING_NET.$1.2"; }
nxt() { echo $(($1 % 3 + 1)); }

ring_run() {
    local name=$1 L="$LOG/$1" i j routes
    mkdir -p "$L"
    for i in 1 2 3; do
        routes=()
        for j in 1 2 3; do
            if [ "$j" = "$i" ]; then routes+=(--route "$(ip_h "$j")/32=0,$(mac_h "$j")")
            else routes+=(--route "$(ip_h "$j")/32=1,$(mac_sw "$(nxt "$i")" 2)"); fi
        done
        # shellcheck disable=SC2046
        dp_start "$name/s$i" "$RING_SW$i" "$DP/rocc-switch" $(eal 1 "s$i$name" host cw ccw) -- "${routes[@]}" \
            --egress-rate "1=$RING_GBPS" --qcap "$QCAP" --report-ms 500 --switch-id "$i" \
            $(ring_switch_opts "$i" "$@") || return 1
    done
    # The hosts start together (their EAL set-up at once, before any
    # traffic), and each flow START_MS after its host: about together.
    for i in 1 2 3; do
        # two hops clockwise: h1 -> h3, h2 -> h1, h3 -> h2
        # shellcheck disable=SC2046
        dp_exec "$RING_H$i" "$DP/rocc-host" $(eal 0 "h$i$name" eth0) -- --local-ip "$(ip_h "$i")" \
            --gw-mac "$(mac_sw "$i" 0)" --flow "dst=$(ip_h "$(nxt "$(nxt "$i")")"),rate=line,size=inf,qpn=$i,start=$START_MS" \
            --line-gbps "$LINE_GBPS" --report-ms 100 $(ring_host_opts "$i" "$@") >"$L/h$i.log" 2>&1 &
        PIDS+=($!)
        eval "PID_${name}_h$i=$!"
    done
    for i in 1 2 3; do
        local v=PID_${name}_h$i
        wait_ready "$L/h$i.log" "${!v}" || { fail "$DP_TEST.$name: h$i did not start"; cat "$L/h$i.log"; return 1; }
    done
    sleep "$(awk -v s="$START_MS" -v d="$DURATION" 'BEGIN { print s / 1000 + d }')"
    for i in 1 2 3; do local v=PID_${name}_h$i; kill -INT "${!v}"; done
    for i in 1 2 3; do local v=PID_${name}_h$i; wait "${!v}" 2>/dev/null; done
    [ -n "${RING_SETTLE:-}" ] && sleep "$RING_SETTLE"
    for i in 1 2 3; do local v=PID_${name}_s$i; kill -INT "${!v}"; done
    for i in 1 2 3; do local v=PID_${name}_s$i; wait "${!v}" 2>/dev/null; done
    for i in 1 2 3; do
        echo "--- [$name] s$i"; grep -E "${RING_FINALS:-^final (port|pfc )}" "$L/s$i.log"
        echo "--- [$name] h$i"; grep -E '^final (tx|rx|pfc)' "$L/h$i.log"
    done
}
