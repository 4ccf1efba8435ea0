#!/usr/bin/env bash
# tests/dataplane/rocc_flowinfo.sh -- a CP sees many more flows over its life
# than its flow table holds at once (issue 5).  Needs root, netns, libdpdk.
#
#   fih1 eth0 --- s1  fisw (rocc-switch, port 1 shaped to 300 Mb/s, CP on it,
#   fir  eth0 --- s2        --ft-cap 16: 12 flow-info slots)
#
# h1 runs 30 flows one after the other (qpn 1..30, 300 kB each at line rate,
# one every 60 ms, so at most one at a time): each congests the port alone.
# The CP keeps, per flow it tracks, what a CNP quotes; those slots are
# freed when the flow table drops the flow.  PASS, for the QUEUE, BOUNDED,
# AFD and BubbleCache tables (FTS="..." picks some), when no flow was
# refused a slot (flowinfo_full = 0), at least 18 slots were freed and
# reused, and every one of the 30 flows accepted CNPs (without freeing,
# flows 13..30 would get none).  AFD runs with a 16-sample shadow buffer
# (--ft-cap 16 caps it) and BubbleCache with 16 entries.
set -u
cd "$(dirname "$0")/../.." || exit 1
DP=${DP:-build/dp}
NFLOWS=30
. tests/dataplane/netns.bash
dp_setup rocc_flowinfo roccfi "fisw fih1 fir" "rocc-switch rocc-host"
veth_link fisw s1 02:99:00:00:01:01 fih1 eth0 02:99:00:00:01:02
veth_link fisw s2 02:99:00:00:02:01 fir eth0 02:99:00:00:02:02

flows=()
for q in $(seq $NFLOWS); do flows+=(--flow "dst=10.99.2.2,rate=line,size=300000,qpn=$q,start=$((q * 60))"); done

for ft in ${FTS:-queue bounded afd bubble}; do
    L="$LOG/$ft"
    mkdir -p "$L"
    # shellcheck disable=SC2046
    dp_start "$ft/sw" fisw "$DP/rocc-switch" $(eal 1 "sw$ft" s1 s2) -- \
        --route 10.99.1.2/32=0,02:99:00:00:01:02 --route 10.99.2.2/32=1,02:99:00:00:02:02 \
        --egress-rate 1=0.3 --cp 1 --cp-ip 10.99.0.1 --flow-table $ft --ft-cap 16 --period 1000 \
        --qref 18750 --qmid 37500 --qmax 45000 --q-unit 300 --f-unit-mbps 1 --qcap 150000 || continue
    # shellcheck disable=SC2046
    dp_start "$ft/r" fir "$DP/rocc-host" $(eal 0 "r$ft" eth0) -- --local-ip 10.99.2.2 --gw-mac 02:99:00:00:02:01 \
        --report-ms 0 || continue
    # shellcheck disable=SC2046
    dp_start "$ft/h1" fih1 "$DP/rocc-host" $(eal 0 "h$ft" eth0) -- --local-ip 10.99.1.2 --gw-mac 02:99:00:00:01:01 \
        "${flows[@]}" --cp-allow 10.99.0.0/24 --f-unit-mbps 1 --recovery-us 1375 --report-ms 0 || continue
    sleep "$(awk -v n=$NFLOWS 'BEGIN { print n * 0.06 + 0.6 }')"
    for p in "${PIDS[@]}"; do kill -INT "$p" 2>/dev/null; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
    PIDS=()
    grep '^final cp' "$L/sw.log"
    full=$(field "$L/sw.log" '^final cp ' flowinfo_full)
    freed=$(field "$L/sw.log" '^final cp ' flowinfo_freed)
    done_flows=$(grep -c "^final tx .* pkts=[1-9]" "$L/h1.log")
    with_cnps=$(grep '^final tx' "$L/h1.log" | tr ' ' '\n' | sed -n 's/^accepted=//p' | awk '$1 > 0 { n++ } END { print n + 0 }')
    if [ "$done_flows" = $NFLOWS ] && [ "${full:-x}" = 0 ] && [ "${freed:-0}" -ge $((NFLOWS - 12)) ] \
        && [ "$with_cnps" = $NFLOWS ]; then
        pass "rocc_flowinfo: $ft table, 12 slots: $NFLOWS flows in turn all got CNPs ($with_cnps), $freed slots freed, none refused"
    else
        fail "rocc_flowinfo: $ft table, 12 slots: $done_flows flows sent, $with_cnps got CNPs (want $NFLOWS), freed=${freed:-?}, refused=${full:-?}"
    fi
done
[ "$fails" = 0 ]
