#!/usr/bin/env bash
# tests/scenario/parallel.sh -- one run over several MPI ranks is the same
# run (docs/parallel.md): for 1, 2, 3, 4 and 8 ranks (mpirun
# --oversubscribe: more ranks than cores) every output file is
# byte-identical to the plain sequential run's, on
#   fattree   a k = 4 fat-tree, a permutation across pods, half the flows
#             RoCC, half HPCC (INT records cross the cuts with the frames),
#             and a short run of it that ends with frames in flight;
#   leafspine a leaf-spine whose link leaf0-spine0 fails at 60 us and comes
#             back at 150 us (the failure must change the outcome);
#   incast    14 senders to h0 with no congestion control and a small
#             buffer: PFC pauses leaf-spine links, which the partition cuts;
#   dcqcn     the same incast under DCQCN (the receivers' NPs send CNPs);
#   stops     the fat-tree plus flows that stop, their receivers on other
#             ranks;
#   pcap      the fat-tree with [output] pcap on hosts, switches and a cut
#             port of both halves (the pcap/ files too; tshark reads the
#             2-rank h15.pcap, which rank 1 captured, when installed);
#   trace     a RoCC incast with [output] rocc_trace, its sources on both
#             ranks (the merged trace keeps the run's order of ties);
#   attack    forged CNPs ([attack.NAME]) from a host on another rank than
#             the CP it spoofs, and junk from a host on rank 1;
#   host_full, host_registry  the incast under RoCC, its rates computed at
#             the hosts ([rocc] rate_at, §3.6);
#   deadlock  the deadlock detector on a ring of 8 switches that PFC
#             deadlocks: the cycle's wait-for edges cross every cut;
#   nodeadlock  the same ring with a slow link to h4 and an incast to it:
#             stuck ports wait for each other in chains (over cuts), no cycle;
#   gfc       GFC's rate feedback across cut ring links (2 ranks);
#   swing     SWING's relayed PAUSE frames across the cut long-haul link;
#   escape, loop_breaker, deadlock_breaker  their tokens across cut ring
#             links, their per-switch counters merged (2 and 3 ranks);
#   openqueue a policy on every leaf-spine port under a DCQCN incast (2-4 ranks);
#   crossbar  [crossbar] on every leaf-spine switch, the same incast (2, 3 ranks);
#   rcc, rcc_sender, homa  RCC's Fig. 8 in-network case, Homa on a
#             leaf-spine (2 and 3 ranks);
#   xpass_fattree, xpass_incast  ExpressPass on the fat-tree (flows both
#             ways across the pods) and an incast into h0 while h0 sends to
#             every sender: each receiver's credit pacer runs on its own
#             rank (EV_FLOW_RX_TIMER), its credits cross the cuts;
#   xpass_stops  the ExpressPass fat-tree plus flows that stop (endless
#             ones, messages cut short, messages finishing before their
#             stop): the credit stop crosses the cuts;
# and the fat-tree and the deadlocking ring under a non-default [sim]
# tie_seed on 3 ranks.
# Also: the partition report, refused features (pcap with flows that stop), --ranks against the rank
# count, and scripts/parallel-identity.sh on two shipped experiments.
# Without mpirun, or with a plain build made without MPI, it says SKIP (FAIL
# in CI, ROCC_SKIP=fail); the sanitizer builds leave MPI out by design, and
# there it checks that a run over 2 ranks is refused.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash

cat > "$tmp/fattree.ini" <<'EOF'
[sim]
duration = 200us
sample_interval = 10us

[topology]
type = fattree
k = 4
rate = 100Gbps
delay = 1us

[flows.perm]
src = h0..h7
dst = h8..h15
pairing = zip
size = 200KB

[flows.hpcc]
src = h8..h15
dst = h0..h7
pairing = zip
size = 200KB
cc = hpcc
EOF
{ leafspine_topo 300us; cat <<'EOF'; } > "$tmp/leafspine.ini"

[flows.perm]
src = h0..h15
dst = h8..h15 h0..h7
pairing = zip
size = 400KB

[events]
cut = 60us down leaf0 spine0
fix = 150us up leaf0 spine0
EOF
{ leafspine_topo 200us; cat <<'EOF'; } > "$tmp/incast.ini"

[network]
buffer = 400KB

[cc]
algorithm = none

[flows.incast]
src = h2..h15
dst = h0
size = 100KB
EOF

# [parallel] and --ranks: bad values name the file, line and key (no MPI needed).
printf '\n[parallel]\npartition = pods\n' | cat "$tmp/fattree.ini" - > "$tmp/bad1.ini"
"$ROCCSIM" run "$tmp/bad1.ini" --check >"$tmp/bad1.log" 2>&1
ok bad_partition_key 'grep -q "bad1.ini:[0-9]*: \[parallel\] partition: expected auto, pod, rack or graph, got .pods." "$tmp/bad1.log"' "$tmp/bad1.log"
printf '\n[parallel]\nranks = 99999\n' | cat "$tmp/fattree.ini" - > "$tmp/bad2.ini"
"$ROCCSIM" run "$tmp/bad2.ini" --check >"$tmp/bad2.log" 2>&1
ok bad_ranks_key 'grep -q "bad2.ini:[0-9]*: \[parallel\] ranks: must be 0 (any) or 1..4096" "$tmp/bad2.log"' "$tmp/bad2.log"
printf '\n[parallel]\npartition = pod\n' | cat "$tmp/fattree.ini" - > "$tmp/bad3.ini"
"$ROCCSIM" run "$tmp/bad3.ini" --check --ranks 8 >"$tmp/bad3.log" 2>&1
ok pod_needs_pods 'grep -q "bad3.ini:[0-9]*: \[parallel\] partition: partition = pod needs a fat-tree with at least 8 pods (this topology has 4)" "$tmp/bad3.log"' "$tmp/bad3.log"
"$ROCCSIM" run "$tmp/fattree.ini" --check --ranks 0 >"$tmp/bad4.log" 2>&1
ok bad_ranks_option 'grep -q -- "--ranks .0.: must be 1..4096" "$tmp/bad4.log"' "$tmp/bad4.log"

need_cmd mpirun "one run over several ranks needs Open MPI (openmpi-bin)" || exit 0
MPIRUN=(mpirun --oversubscribe)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)

# Is this roccsim built with MPI?  (Without, a run over 2 ranks is refused.)
"${MPIRUN[@]}" -np 2 "$ROCCSIM" run "$tmp/fattree.ini" -q -o "$tmp/probe" >"$tmp/probe.log" 2>&1
if grep -q "built without MPI" "$tmp/probe.log"; then
    # The sanitizer builds leave MPI out on purpose (Makefile): there the
    # check is that a run over 2 ranks is refused, with exit status 2 and
    # the reason (the plain build runs the cases below); a plain build
    # without MPI fails in CI.
    if grep -q -- "-fsanitize" "${BUILD:-build}/.cflags" 2>/dev/null; then
        ok refused_without_mpi 'grep -q "this roccsim was built without MPI" "$tmp/probe.log" && [ ! -d "$tmp/probe" ]' "$tmp/probe.log"
    elif [ "${ROCC_SKIP:-allow}" = fail ]; then
        echo "FAIL parallel.mpi: roccsim was built without MPI (install libopenmpi-dev and rebuild)"
    else
        echo "SKIP parallel.mpi: roccsim was built without MPI (install libopenmpi-dev and rebuild)"
    fi
    exit 0
fi

# same_outputs DIR1 DIR2 -- same file names, every file byte-identical;
# else prints what differs and returns 1.
same_outputs() {
    local a=$1 b=$2 f problems=""
    [ -d "$b" ] || { echo "no output directory $b"; return 1; }
    [ "$(cd "$a" && ls)" = "$(cd "$b" && ls)" ] || problems="different file sets;"
    for f in "$a"/*; do
        if [ -d "$f" ]; then            # pcap/
            same_outputs "$f" "$b/$(basename "$f")" >/dev/null || problems="$problems $(basename "$f")/ differs;"
        else
            cmp -s "$f" "$b/$(basename "$f")" || problems="$problems $(basename "$f") differs;"
        fi
    done
    [ -z "$problems" ] && [ -n "$(ls "$a")" ] && return 0
    echo "$problems"
    return 1
}

# ranks_same NAME "RANKS" [ARGS...] -- runs $tmp/NAME.ini plainly (into
# $tmp/NAME.seq) and over each rank count in RANKS (into $tmp/NAME.pK),
# roccsim run given ARGS each time, and checks NAME.ranksK: the partitioned
# run exits 0 and writes every file of the plain run's, byte for byte.
ranks_same() {
    local s=$1 ranks=$2 k
    shift 2
    "$ROCCSIM" run "$tmp/$s.ini" -o "$tmp/$s.seq" "$@" >"$tmp/$s.seq.log" 2>&1
    for k in $ranks; do
        "${MPIRUN[@]}" -np "$k" "$ROCCSIM" run "$tmp/$s.ini" -o "$tmp/$s.p$k" "$@" >"$tmp/$s.p$k.log" 2>&1
        echo "exit status $?" >>"$tmp/$s.p$k.log"
        same_outputs "$tmp/$s.seq" "$tmp/$s.p$k" >>"$tmp/$s.p$k.log"
        ok "$s.ranks$k" 'same_outputs "$tmp/$s.seq" "$tmp/$s.p$k" >/dev/null && grep -q "exit status 0" "$tmp/$s.p$k.log"' \
            "$tmp/$s.p$k.log"
    done
}

# get FILE KEY: a tab-separated value; jtrue FILE EXPR: a Python test on
# summary.json (d, and P its ports by name).
get() { awk -F'\t' -v k="$2" '$1 == k { print $2 }' "$1"; }
jtrue() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); P={p['name']: p for p in d['ports']}; sys.exit(0 if ($2) else 1)" "$1"; }

sed 's/^duration = 200us/duration = 20us/; s/^sample_interval = 10us/sample_interval = 2us/' "$tmp/fattree.ini" > "$tmp/inflight.ini"
# Flows that stop (the source lowers their size at `stop`): line-rate ones
# finish when their last byte arrives, paced ones at the stop itself; their
# receivers are in other pods, so on other ranks from 2 ranks on.
cat "$tmp/fattree.ini" - > "$tmp/stops.ini" <<'EOF'

[flows.stopped]
src = h0..h3
dst = h12..h15
pairing = zip
rate = line
stop = 80us

[flows.slow]
src = h4..h7
dst = h8..h11
pairing = zip
rate = 1Gbps
stop = 60us
EOF
# RoCC's rate computed at the hosts (§3.6): with host_full the CNP carries
# the CP's parameters, with host_registry the hosts look them up in a
# registry every rank builds whole at set-up (read-only afterwards).
for at in host_full host_registry; do
    sed 's/^algorithm = none/algorithm = rocc/' "$tmp/incast.ini" > "$tmp/$at.ini"
    printf '\n[rocc]\nrate_at = %s\n' "$at" >> "$tmp/$at.ini"
done
# DCQCN: the receiver's NP spaces its CNPs by the flow's CNP interval,
# which must be known where the receiver runs, not only at the source.
sed 's/^algorithm = none/algorithm = dcqcn/' "$tmp/incast.ini" > "$tmp/dcqcn.ini"
# [output] pcap: points on both ranks' nodes (pods 0-1 / 2-3 at 2 ranks),
# switches whose links are cut, and a cut port; HPCC frames carry INT.
# The files other ranks capture are moved to rank 0 and written there.
printf '\n[output]\npcap = h0 h15 core2 agg0_0 agg2_0->core0\npcap_snaplen = 128\n' |
    cat "$tmp/fattree.ini" - > "$tmp/pcap.ini"
# The RoCC RP trace: an incast of RoCC flows from hosts of both ranks (the
# rack partition puts even leaves on rank 0, odd ones on rank 1), whose
# records often share a picosecond: the merge must keep the run's order.
{ leafspine_topo 2ms; cat <<'EOF'; } > "$tmp/trace.ini"

[cc]
algorithm = rocc

[flows.incast]
src = h2..h13
dst = h15
rate = 90%

[output]
rocc_trace = incast
EOF
# Forged CNPs (no defence): h0 (rank 0) spoofs the CP of leaf7->h15 (rank
# 1), then h3 (rank 1) sends junk across the victims' bottleneck.
{ leafspine_topo 2ms; cat <<'EOF'; } > "$tmp/attack.ini"

[network]
cnp_filter = 0

[cc]
algorithm = rocc

[flows.victim]
src = h4..h11
dst = h15
rate = 90%

[attack.spoof]
from = h0
kind = spoof_cp
target = victim
cp = leaf7->h15
rate = 100Mbps
start = 0.5ms
stop = 1ms

[attack.junk]
from = h3
kind = junk
target = victim
rate = 5Gbps
size = 1000
start = 1ms
stop = 1.5ms
EOF
# The deadlock detector ([flowcontrol] deadlock_check): a ring of 8
# switches (enough for 8 ranks; partition = graph cuts ring links from 2
# ranks on, every one at 8), each flow two hops clockwise, so PFC closes
# the buffer cycle s0->s1 -> ... -> s7->s0 (as ring3.topo does with 3):
# detected, and its wait-for edges cross every cut.  And one where no
# deadlock forms: the same ring with h4's link at 10 Gb/s and an incast
# to h4 from both sides; with a 10 us timeout, ports paused behind the
# slow link are stuck and wait for each other along the two chains (over
# cut links too), but the chains meet at s4->h4 and close no cycle.
{ echo "host h0 h1 h2 h3 h4 h5 h6 h7"; echo "switch s0 s1 s2 s3 s4 s5 s6 s7"
  for i in 0 1 2 3 4 5 6 7; do echo "link h$i s$i 40Gbps 1us"; done
  for i in 0 1 2 3 4 5 6 7; do echo "link s$i s$(( (i + 1) % 8 )) 40Gbps 1us"; done; } > "$tmp/ring8.topo"
sed 's/^link h4 s4 40Gbps 1us$/link h4 s4 10Gbps 1us/' "$tmp/ring8.topo" > "$tmp/ring8slow.topo"
cat > "$tmp/deadlock.ini" <<'EOF'
[sim]
duration = 3ms

[topology]
type = file
file = ring8.topo

[cc]
algorithm = none

[flowcontrol]
scheme = pfc
deadlock_check = 50us
deadlock_timeout = 200us

[flows.ring]
src = h0..h7
dst = h2 h3 h4 h5 h6 h7 h0 h1
pairing = zip

[parallel]
partition = graph
EOF
cat > "$tmp/nodeadlock.ini" <<'EOF'
[sim]
duration = 3ms

[topology]
type = file
file = ring8slow.topo

[cc]
algorithm = none

[flowcontrol]
scheme = pfc
deadlock_check = 10us
deadlock_timeout = 10us

[flows.incast]
src = h1 h2 h3 h5 h6 h7
dst = h4

[parallel]
partition = graph
EOF
for s in fattree inflight leafspine incast stops dcqcn host_full host_registry pcap trace attack deadlock nodeadlock; do
    ranks_same "$s" "1 2 3 4 8"      # console output kept: the host_* checks read it
    ok "$s.sequential" '[ -s "$tmp/$s.seq/summary.json" ]' "$tmp/$s.seq.log"
done

# Another tie order ([sim] tie_seed) is as partition-independent as the
# default one, and it is another order: the run's outputs change.
"$ROCCSIM" run "$tmp/fattree.ini" -q -o "$tmp/tie.seq" --set sim.tie_seed=7 >"$tmp/tie.seq.log" 2>&1
"${MPIRUN[@]}" -np 3 "$ROCCSIM" run "$tmp/fattree.ini" -q -o "$tmp/tie.p3" --set sim.tie_seed=7 >"$tmp/tie.p3.log" 2>&1
same_outputs "$tmp/tie.seq" "$tmp/tie.p3" >>"$tmp/tie.p3.log"
ok tie_seed.ranks3 'same_outputs "$tmp/tie.seq" "$tmp/tie.p3" >/dev/null' "$tmp/tie.p3.log"
ok tie_seed.other_order '[ -s "$tmp/tie.seq/flows.csv" ] && ! cmp -s "$tmp/tie.seq/flows.csv" "$tmp/fattree.seq/flows.csv"'

# The deadlock case detects the ring's cycle of 8 ports, cut from 2 ranks
# on, the other none (and checks to the end); the deadlock case is the
# same under another tie order on 3 ranks.
ok deadlock.detected_across_cuts 'jtrue "$tmp/deadlock.seq/summary.json" "d[\"deadlock\"][\"detected\"] and d[\"deadlock\"][\"cycle_length\"] == 8" &&
    "$ROCCSIM" run "$tmp/deadlock.ini" --check --ranks 2 >"$tmp/deadlock.part" 2>&1 && [ "$(get "$tmp/deadlock.part" cut_links)" -ge 2 ]' \
    "$tmp/deadlock.seq/summary.json" "$tmp/deadlock.part"
ok nodeadlock.none 'jtrue "$tmp/nodeadlock.seq/summary.json" "not d[\"deadlock\"][\"detected\"] and d[\"deadlock\"][\"checks\"] == 300" &&
    jtrue "$tmp/nodeadlock.seq/summary.json" "P[\"s3->s4\"][\"pfc_xoff_received\"] > 0 and P[\"s5->s4\"][\"pfc_xoff_received\"] > 0"' \
    "$tmp/nodeadlock.seq/summary.json"
"$ROCCSIM" run "$tmp/deadlock.ini" -q -o "$tmp/dltie.seq" --set sim.tie_seed=7 >"$tmp/dltie.seq.log" 2>&1
"${MPIRUN[@]}" -np 3 "$ROCCSIM" run "$tmp/deadlock.ini" -q -o "$tmp/dltie.p3" --set sim.tie_seed=7 >"$tmp/dltie.p3.log" 2>&1
same_outputs "$tmp/dltie.seq" "$tmp/dltie.p3" >>"$tmp/dltie.p3.log"
ok deadlock.tie_seed.ranks3 'same_outputs "$tmp/dltie.seq" "$tmp/dltie.p3" >/dev/null && [ -s "$tmp/dltie.seq/flows.csv" ]' "$tmp/dltie.p3.log"

# The pcap case captures on both ranks, and the merged files are captures.
ok pcap.both_ranks 'python3 -c "
import json, sys
f = {x[\"file\"]: x[\"frames\"] for x in json.load(open(sys.argv[1]))[\"pcap\"][\"files\"]}
sys.exit(0 if len(f) == 5 and min(f.values()) > 0 else 1)" "$tmp/pcap.seq/summary.json"' "$tmp/pcap.seq/summary.json"
if command -v tshark >/dev/null 2>&1; then
    tshark -r "$tmp/pcap.p2/pcap/h15.pcap" -T fields -e frame.number -e udp.dstport >"$tmp/pcap.tshark" 2>"$tmp/pcap.tshark.err"
    echo "tshark exit status $?" >>"$tmp/pcap.tshark.err"
    ok pcap.tshark_reads_merged 'grep -q "exit status 0" "$tmp/pcap.tshark.err" && [ "$(grep -c "	4791$" "$tmp/pcap.tshark")" = 800 ] &&
        [ "$(wc -l < "$tmp/pcap.tshark")" = 800 ]' "$tmp/pcap.tshark.err"
fi
# The hosts computed the rates, as many on every rank count as in the plain run.
for at in host_full host_registry; do
    hr=$(grep 'RoCC rates computed at hosts' "$tmp/$at.seq.log")
    ok "$at.hosts_computed" '[ -n "$hr" ] && ! echo "$hr" | grep -q "(§3.6): 0 from HOST_FULL CNPs, 0 from HOST_REG" &&
        [ "$(grep "RoCC rates computed at hosts" "$tmp/$at.p2.log")" = "$hr" ] &&
        [ "$(grep "RoCC rates computed at hosts" "$tmp/$at.p4.log")" = "$hr" ]' "$tmp/$at.seq.log"
done
ok dcqcn.cnps_sent 'python3 -c "import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))[\"packets\"][\"by_type\"][\"cnp\"][\"created\"] > 0 else 1)" "$tmp/dcqcn.seq/summary.json"' "$tmp/dcqcn.seq/summary.json"
ok stops.flows_finish 'awk -F, "\$3 == \"stopped\" && \$8 > 0.00008 { a++ } \$3 == \"slow\" && \$8 == \"0.000060000\" { b++ } END { exit !(a == 4 && b == 4) }" "$tmp/stops.seq/flows.csv"' "$tmp/stops.seq/flows.csv"
# Records of hosts on rank 1 come before ones of rank 0 at one time (a
# merge by time alone, ties by rank, would differ); the attacks change the run.
ok trace.ties_across_ranks 'awk -F, "NR > 1 { split(\$2, a, /[][]/); r = int((a[2] + 2) / 2) % 2;
    if (\$1 == t && pr == 1 && r == 0) x++; t = \$1; pr = r } END { exit !(x > 0) }" "$tmp/trace.seq/rocc_trace.csv" &&
    grep -q ",timer," "$tmp/trace.seq/rocc_trace.csv"' "$tmp/trace.seq/rocc_trace.csv"
sed '/^\[attack.spoof\]/,$d' "$tmp/attack.ini" > "$tmp/noattack.ini"
"$ROCCSIM" run "$tmp/noattack.ini" -q -o "$tmp/noattack" >/dev/null 2>&1
ok attack.changes_run '[ -s "$tmp/noattack/flow_rate.csv" ] && ! cmp -s "$tmp/noattack/flow_rate.csv" "$tmp/attack.seq/flow_rate.csv" &&
    grep -q "\"name\": \"junk\", \"sent\": [1-9]" "$tmp/attack.seq/summary.json"' "$tmp/attack.seq/summary.json"
printf '\n[network]\nack_interval = 2\n' | cat "$tmp/stops.ini" - > "$tmp/bad5.ini"
"$ROCCSIM" run "$tmp/bad5.ini" --check --ranks 2 >"$tmp/bad5.log" 2>&1
ok stops_coarse_acks_refused 'grep -q "bad5.ini:[0-9]*: \[network\] ack_interval: .*ack_interval > 1 with flows that stop" "$tmp/bad5.log"' "$tmp/bad5.log"

# The cases test what they claim: the failure changes the run, the incast
# pauses links between leaves and spines, and those links are cut.
sed '/^\[events\]/,$d' "$tmp/leafspine.ini" > "$tmp/nofail.ini"
"$ROCCSIM" run "$tmp/nofail.ini" -q -o "$tmp/nofail" >/dev/null 2>&1
ok leafspine.failure_matters '! cmp -s "$tmp/nofail/flows.csv" "$tmp/leafspine.seq/flows.csv"'
ok inflight.frames_in_flight '! grep -q "\"in_flight\": 0," "$tmp/inflight.seq/summary.json"' "$tmp/inflight.seq/summary.json"
ok incast.pauses_fabric_links '[ "$(get "$tmp/incast.seq/summary.tsv" tier.edge_up.pfc_xoff_sent)" -gt 0 ] &&
    [ "$(get "$tmp/incast.seq/summary.tsv" tier.core.pfc_xoff_sent)" -gt 0 ]' "$tmp/incast.seq/summary.tsv"
"$ROCCSIM" run "$tmp/incast.ini" --check --ranks 2 >"$tmp/part.txt" 2>&1
ok partition_report 'grep -q "^partition: rack, 2 ranks" "$tmp/part.txt" && [ "$(get "$tmp/part.txt" cut_links)" -eq 8 ] &&
    [ "$(get "$tmp/part.txt" lookahead_ns)" = 1000.000 ]' "$tmp/part.txt"

# What cannot run over ranks yet is refused with the key, not run wrong:
# a capture with flows that stop (an ACK's MSN needs the stopped size,
# known on the source's rank only).
printf '\n[output]\npcap = h0\n' | cat "$tmp/stops.ini" - > "$tmp/pcapstop.ini"
"${MPIRUN[@]}" -np 2 "$ROCCSIM" run "$tmp/pcapstop.ini" -q -o "$tmp/pcapstop" >"$tmp/pcapstop.log" 2>&1
rc=$?
ok refused_pcap_stops '[ $rc -eq 2 ] && grep -q "pcapstop.ini:[0-9]*: \[output\] pcap: packet capture with flows that stop cannot run over several MPI ranks" "$tmp/pcapstop.log" && [ ! -d "$tmp/pcapstop" ]' \
    "$tmp/pcapstop.log"
"${MPIRUN[@]}" -np 2 "$ROCCSIM" run "$tmp/fattree.ini" --ranks 3 -q -o "$tmp/r3" >"$tmp/r3.log" 2>&1
ok ranks_mismatch 'grep -q -- "--ranks 3 but the run has 2 ranks" "$tmp/r3.log" && [ ! -d "$tmp/r3" ]' "$tmp/r3.log"

# Flow-control schemes other than PFC (docs/parallel.md): their feedback
# crosses the cut as frames.  GFC on the dissertation's 3-switch ring
# (partition = graph cuts 2 of its 3 switch links; GFC deadlocks it, every
# ring ingress reaches the top level and sends rate 0 upstream), SWING on
# the cross-DC topology (graph cuts only the long-haul link, which carries
# the relayed PAUSE frames).  1 and 2 ranks, byte for byte.
cp experiments/escape/ring3.topo "$tmp/ring3.topo"
cat > "$tmp/gfc.ini" <<'EOF'
[sim]
duration = 3ms

[network]
mode = lossless

[topology]
type = file
file = ring3.topo

[flowcontrol]
scheme = gfc

[cc]
algorithm = none

[flows.ring]
src = h1, h2, h3
dst = h3, h1, h2
pairing = zip

[parallel]
partition = graph
EOF
cat > "$tmp/swing.ini" <<'EOF'
[sim]
duration = 3ms

[topology]
type = crossdc
relays = yes

[cc]
algorithm = none

[flowcontrol]
scheme = swing

[flows.bulk]
src = h0 h2 h4 h6
dst = h16

[parallel]
partition = graph
EOF
for s in gfc swing; do
    "$ROCCSIM" run "$tmp/$s.ini" --check --ranks 2 >"$tmp/$s.part" 2>&1
    ranks_same "$s" 2 -q
done
ok gfc.feedback_crosses_cut '[ "$(get "$tmp/gfc.part" cut_links)" -eq 2 ] &&
    jtrue "$tmp/gfc.seq/summary.json" "d[\"gfc\"][\"zero_rate_sent\"] > 0 and d[\"gfc\"][\"max_level\"] == d[\"gfc\"][\"top_level\"]"' \
    "$tmp/gfc.seq/summary.json"
ok swing.pauses_cross_cut '[ "$(get "$tmp/swing.part" cut_links)" -eq 1 ] && [ "$(get "$tmp/swing.part" lookahead_ns)" = 1000000.000 ] &&
    jtrue "$tmp/swing.seq/summary.json" "P[\"relay1->relay0\"][\"pfc_xoff_sent\"] > 0 and d[\"swing\"][\"relayed_pause\"] == P[\"relay1->relay0\"][\"pfc_xoff_sent\"]"' \
    "$tmp/swing.seq/summary.json"
# Escape, loop_breaker and deadlock_breaker on the same ring: their tokens
# cross the cut as frames, and each switch's counters (token pools, loop
# times) are merged to rank 0 (fc_escape_merge, fc_lb_merge).  Each run
# must have done the work the merge carries: frames escaped, loops found.
for s in escape loop_breaker deadlock_breaker; do
    sed "s/^scheme = gfc/scheme = $s/" "$tmp/gfc.ini" > "$tmp/$s.ini"
    ranks_same "$s" "2 3" -q
done
ok escape.tokens_cross_cut 'jtrue "$tmp/escape.seq/summary.json" "d[\"escape\"][\"frames_escaped\"] > 0 and d[\"escape\"][\"tokens_outstanding_end\"] > 0"' \
    "$tmp/escape.seq/summary.json"
for s in loop_breaker deadlock_breaker; do
    ok "$s.loops_found" 'jtrue "$tmp/$s.seq/summary.json" "d[\"loop_breaker\"][\"loops\"] > 0 and d[\"loop_breaker\"][\"tokens\"][\"forwarded\"] > 0"' \
        "$tmp/$s.seq/summary.json"
done

# OpenQueue on every switch port of the leaf-spine under a DCQCN incast:
# each port's runtime runs on its switch's rank, and the counters
# (summary.json "openqueue") and the queue series (openqueue.csv) are
# merged to rank 0 (oqsel_merge).  2, 3 and 4 ranks; marks must happen.
cp policies/fifo_ecn.oq "$tmp/"
printf '\n[openqueue]\npolicy = fifo_ecn.oq\nswitches = leaf0..leaf7 spine0 spine1\n' | cat "$tmp/dcqcn.ini" - > "$tmp/openqueue.ini"
ranks_same openqueue "2 3 4" -q
ok openqueue.marks 'jtrue "$tmp/openqueue.seq/summary.json" "len(d[\"openqueue\"][\"ports\"]) == 48 and sum(q[\"marked\"] for p in d[\"openqueue\"][\"ports\"] for q in p[\"queues\"]) > 0" &&
    [ -s "$tmp/openqueue.seq/openqueue.csv" ]' "$tmp/openqueue.seq/summary.json"

# [crossbar] on every switch of the leaf-spine under the same incast: each
# crossbar runs on its switch's rank and its figures (summary.json
# "crossbar") are merged to rank 0 (xbarsel_merge).  2 and 3 ranks.
printf '\n[crossbar]\nswitches = leaf0..leaf7 spine0 spine1\n' | cat "$tmp/dcqcn.ini" - > "$tmp/crossbar.ini"
ranks_same crossbar "2 3" -q
ok crossbar.traffic 'jtrue "$tmp/crossbar.seq/summary.json" "len(d[\"crossbar\"]) == 10 and all(v[\"sent\"] > 0 for v in d[\"crossbar\"].values())"' \
    "$tmp/crossbar.seq/summary.json"

# Transports whose receivers act (docs/parallel.md "Transports"): Homa's
# grants, RCC's windows computed at the receiver
# and RCC-sender's N and B_R cross the cut, and each receiver's per-host
# table is its own rank's.  2 and 3 ranks, 2 ms, byte for byte; each run
# must have delivered data and sent ACKs or grants back.
cp experiments/rcc/fig8.topo "$tmp/"
cp experiments/rcc/fig8-innetwork.ini experiments/homa/websearch-leafspine.ini "$tmp/"
sed 's/^algorithm = rcc$/algorithm = rcc_sender/' "$tmp/fig8-innetwork.ini" > "$tmp/rccs-innetwork.ini"
# ExpressPass: each receiver paces its credits on its own timer
# (EV_FLOW_RX_TIMER, the destination's event, keyed from its counter), the
# sender's timer only repeats the request.  On the fat-tree every host both
# sends and receives across the pods; in the incast h0 paces 14 flows'
# credits while its own data to those senders takes credits from them (its
# NIC carries both).  With the pacer on the source's flow timer (the old
# way, refusal lifted) the incast differs on 2, 3, 4 and 8 ranks and the
# fat-tree on 3, 4 and 8.
sed '/^\[flows.hpcc\]/,$d' "$tmp/fattree.ini" > "$tmp/xpass_fattree.ini"
cat >> "$tmp/xpass_fattree.ini" <<'EOF'
[flows.back]
src = h8..h15
dst = h0..h7
pairing = zip
size = 100KB

[cc]
algorithm = expresspass
EOF
{ leafspine_topo 200us; cat <<'EOF'; } > "$tmp/xpass_incast.ini"

[cc]
algorithm = expresspass

[flows.incast]
src = h2..h15
dst = h0
size = 100KB

[flows.out]
src = h0
dst = h2..h15
size = 50KB
EOF
for s in xpass_fattree xpass_incast; do
    ranks_same "$s" "1 2 3 4 8" -q
    # Credits were paced and crossed the cuts (data needs them), flows finished.
    ok "$s.credits" 'jtrue "$tmp/$s.seq/summary.json" "d[\"packets\"][\"by_type\"][\"credit\"][\"created\"] > 1000 and
        d[\"packets\"][\"by_type\"][\"data\"][\"consumed\"] > 1000 and sum(f[\"fct_s\"] is not None for f in d[\"flows\"]) >= 14"' \
        "$tmp/$s.seq/summary.json"
done
# ExpressPass with flows that stop: the source's stop lowers the flow's
# size on its own rank only, so the sender tells the receiver with a credit
# stop (a frame carrying the bytes it sent) and the receiver stops pacing
# once those are in, from its own state alone.  The fat-tree case plus
# endless flows stopped at 80 us (h0..h3 -> h12..h15, across the pods),
# 2 MB messages cut at 50 us (h9 h11 h13 h15 -> h2 h6 h4 h0) and 20 KB ones
# that finish before their stop (no stop frame), beside the finishing
# flows; 1, 2, 3, 4 and 8 ranks.  With the receiver's old rule (stop at
# FL_RX_DONE, which flow_stop sets at the source) it differs from 2 ranks
# on: the stopped flows' receivers on other ranks pace credits to the end.
cat "$tmp/xpass_fattree.ini" - > "$tmp/xpass_stops.ini" <<'EOF'

[flows.stopped]
src = h0..h3
dst = h12..h15
pairing = zip
stop = 80us

[flows.cut]
src = h9 h11 h13 h15
dst = h2 h6 h4 h0
pairing = zip
size = 2MB
stop = 50us

[flows.early]
src = h4..h7
dst = h1 h3 h10 h14
pairing = zip
size = 20KB
stop = 150us
EOF
ranks_same xpass_stops "1 2 3 4 8" -q
# Every flow finished (the stopped ones once the bytes sent before the
# stop were in), the cut ones short of their 2 MB.
# The same in lossy mode (rto 20 us: requests repeated while no credit
# came, stops repeated when credits still reach a stopped sender), 2 and 3
# ranks.
printf '\n[network]\nmode = lossy\nrto = 20us\n' | cat "$tmp/xpass_stops.ini" - > "$tmp/xpass_stops_lossy.ini"
ranks_same xpass_stops_lossy "2 3" -q
ok xpass_stops.flows 'jtrue "$tmp/xpass_stops.seq/summary.json" "all(f[\"fct_s\"] is not None for f in d[\"flows\"]) and
    sum(f[\"name\"].startswith(\"cut[\") and f[\"size_bytes\"] < 2000000 for f in d[\"flows\"]) == 4"' \
    "$tmp/xpass_stops.seq/summary.json"
for t in fig8-innetwork rccs-innetwork websearch-leafspine; do
    sed -i '/^\[expect\]/,$d' "$tmp/$t.ini"
    ranks_same "$t" "2 3" -q --set sim.duration=2ms --set sim.measure_start=0s --set sim.measure_end=2ms
    ok "$t.traffic" 'jtrue "$tmp/$t.seq/summary.json" "d[\"packets\"][\"by_type\"][\"data\"][\"consumed\"] > 0 and d[\"packets\"][\"by_type\"][\"ack\"][\"created\"] > 0"' \
        "$tmp/$t.seq/summary.json"
done

# LSCC ([lscc], docs/crossdc.md) and HPCC* over ranks (docs/parallel.md
# "LSCC and HPCC*"): the local egress's data frames name its module and the
# receiver's NP takes the normal-CNP interval on arrival (a receiver on
# another rank than that switch), the feedback frames cross the long-haul
# cut, each port's modules and samples (summary.json "lscc", lscc.csv) are
# merged from its switch's rank (lsccsel_merge), HPCC*'s per-flow states
# from the sources' ranks (its cc_algo.merge), and the direct INTs travel
# as frames.  Fig. 8's setting under DCQCN (4 sources of DC 0 -> h16),
# Fig. 9b's two remote destinations, the three datacenters (six long-haul
# ports) and HPCC* with direct INTs (Fig. 8's flows mirrored, DC 1 -> h0,
# so that its sources are not on rank 0); 2 and 3 ranks, byte for byte.
# The 2-rank runs use partition = graph, which cuts only the long-haul
# link(s): every receiver is on another rank than its sources' egress.
cp experiments/crossdc/three-dc.topo "$tmp/"
for t in fig8-stability fig9b-multibottleneck three-dc hpccstar-fig8; do
    sed '/^\[expect\]/,$d' "experiments/crossdc/$t.ini" > "$tmp/$t.ini"
    [ $t = hpccstar-fig8 ] && sed -i 's/^src = h0 h2 h4 h6$/src = h16 h18 h20 h22/; s/^dst = h16$/dst = h0/' "$tmp/$t.ini"
    d=6ms; [ $t = three-dc ] && d=8ms
    set_d=(--set sim.duration=$d --set sim.measure_start=0s --set sim.measure_end=$d)
    ranks_same "$t" 2 -q "${set_d[@]}" --set parallel.partition=graph
    ranks_same "$t" 3 -q "${set_d[@]}"
done
# Each run did what the merges carry: LSCC's feedback crossed, and the
# receivers' NPs sent CNPs that the local egress took (remote_cnps);
# HPCC*'s sources took direct INTs.
for t in fig8-stability fig9b-multibottleneck three-dc; do
    ok "$t.lscc_works" 'jtrue "$tmp/$t.seq/summary.json" "sum(x[\"feedback_rcvd\"] for x in d[\"lscc\"][\"ports\"]) > 0 and
        sum(x[\"remote_cnps\"] for x in d[\"lscc\"][\"ports\"]) > 0"'
done
ok hpccstar-fig8.direct_ints 'jtrue "$tmp/hpccstar-fig8.seq/summary.json" "d[\"hpcc_star\"][\"flows\"] == 4 and d[\"hpcc_star\"][\"direct_ints\"] > 0"' \
    "$tmp/hpccstar-fig8.seq/summary.json"

# HPCC*'s merge sends its flows' states in batches of 64 (star_merge):
# Poisson WebSearch flows on the cross-datacenter fabric for 10 ms, 89
# HPCC* flows, so two batches, the second partial; 3 ranks put sources on
# ranks other than 0.
sed '/^\[expect\]/,$d' experiments/crossdc/fct.ini > "$tmp/hpccstar-fct.ini"
ranks_same hpccstar-fct 3 -q --set cc.algorithm=hpcc_star --set lscc.enable=longhaul --set lscc.local=int \
    --set sim.duration=10ms --set traffic.bg.load=21.875% --set sim.measure_start=0s --set fct.warmup=0s --set fct.cooldown=0s
ok hpccstar-fct.batches 'jtrue "$tmp/hpccstar-fct.seq/summary.json" "d[\"hpcc_star\"][\"flows\"] > 64"' \
    "$tmp/hpccstar-fct.seq/summary.json"

# scripts/parallel-identity.sh: a shipped experiment is the same on 1 and 2
# ranks, one that a partitioned run refuses is reported as such, and one
# whose attack starts after the shortened run has its window moved into it
# (a start past the run's end is an error of the file: FAILED otherwise).
ROCCSIM="$ROCCSIM" bash scripts/parallel-identity.sh -d 1ms experiments/compare/asymmetric-hpcc.ini \
    experiments/rocc/convergence.ini experiments/crossdc/hpccstar-dint-attack.ini >"$tmp/identity.log" 2>&1
ok identity_script '[ $? = 0 ] && grep -q "^SAME .*asymmetric-hpcc.ini" "$tmp/identity.log" &&
    grep -q "^REFUSED .*convergence.ini" "$tmp/identity.log" && grep -q "^SAME .*hpccstar-dint-attack.ini" "$tmp/identity.log" &&
    grep -q "2 same, 0 differ, 1 refused, 0 failed" "$tmp/identity.log"' "$tmp/identity.log"

# bench/scaling-model.py (docs/performance.md "Scaling model"): --k and
# --ranks pick the rows, so the model can stand beside a measured point; a
# 2-rank k = 8 fat-tree cuts pods, so some hops cross (cut% > 0) and the
# speedup is below 2; a bad value is refused.
python3 bench/scaling-model.py --k 8 --ranks 2,4 --paths 2000 >"$tmp/model.txt" 2>&1
ok model_rows '[ $? = 0 ] && awk '\''$2 == 8 && ($3 == 2 || $3 == 4) { n++; if ($7 <= 0 || $9 >= $3) bad = 1 } END { exit !(n == 2 && !bad) }'\'' "$tmp/model.txt"' "$tmp/model.txt"
python3 bench/scaling-model.py --k 7 >"$tmp/model-bad.txt" 2>&1
ok model_bad_k '[ $? = 2 ] && grep -q -- "--k needs even values" "$tmp/model-bad.txt"' "$tmp/model-bad.txt"
