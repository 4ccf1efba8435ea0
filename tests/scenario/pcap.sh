#!/usr/bin/env bash
# [output] pcap (docs/pcap.md): small runs write captures that tshark
# decodes with no malformed packet, whose frame counts per type equal the
# simulator's own counters (summary.json), and whose RoCC CNPs the
# project's Lua dissector decodes; bad keys and unwritable files are clear
# errors naming the key.
#   pcap-rocc.ini   RoCC CNPs, PFC XOFF/XON, data/ACK, opcodes and PSNs
#   pcap-dcqcn.ini  RoCEv2 CNPs (DCQCN NP)
#   pcap-lossy.ini  NAKs, go-back-N
#   pcap-hpcc.ini   INT records in data and ACKs
#   pcap-escape.ini Escape token frames and the Escape header (Lua dissector
#                   with its preference rocc_esc.header)
#   pcap-hpccstar.ini HPCC* direct INTs (Lua dissector hpcc_dint), and
#                   malformed ones from an attack flagged as such; captured
#                   at egress0, LSCC's feedback frames in rocc-switch's layout
#                   (lscc_fb: layout, counts, the Lua decoder and its warnings)
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
D=tests/scenario/data
LUA=tools/wireshark/rocc_cnp.lua
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
# dump PCAP: one tshark pass (tshark starts slowly) with the Lua dissector,
# every frame as a line of tab-separated fields into PCAP.tsv:
#   1 number  2 time  3 len  4 cap_len  5 eth.src  6 ip.src  7 ip.dst
#   8 BTH opcode  9 dest QP  10 PSN  11 AETH syndrome  12 MAC control opcode
#   13 PFC class-enable vector  14 PFC quanta of class 3  15 malformed
#   16 expert severities  17-21 RoCC CNP: cp_id, flow src, flow dst, dest QP,
#   rate (Mb/s)  22 Escape header hops  23 ETF hops
# (further arguments go to tshark, e.g. -o rocc_esc.header:TRUE)
dump() {
    local f=$1
    shift
    tshark -X lua_script:$LUA "$@" -r "$f" -T fields -e frame.number -e frame.time_epoch -e frame.len -e frame.cap_len \
        -e eth.src -e ip.src -e ip.dst -e infiniband.bth.opcode -e infiniband.bth.destqp -e infiniband.bth.psn \
        -e infiniband.aeth.syndrome -e macc.opcode -e macc.cbfc.enbv -e macc.cbfc.pause_time.c3 -e _ws.malformed \
        -e _ws.expert.severity -e rocc_cnp.cp_id -e rocc_cnp.flow_src -e rocc_cnp.flow_dst -e rocc_cnp.dest_qpn \
        -e rocc_cnp.rate_mbps -e rocc_esc.hops -e rocc_etf.hops >"$f.tsv" 2>>"$tmp/tshark.err"
}
# count PCAP AWK-CONDITION: the frames of PCAP.tsv that match
count() { awk -F'\t' "$2 { n++ } END { print n + 0 }" "$1.tsv"; }
# bad PCAP: frames tshark calls malformed or marks with a warning or an
# error (expert severity 0x600000 or 0x800000)
bad() { count "$1" '$15 != "" || $16 ~ /6291456|8388608/'; }

# ---- errors need no tshark ------------------------------------------------
"$ROCCSIM" run $D/pcap-rocc.ini -q -o "$tmp/e1" --set output.pcap='h0 nosuch' >"$tmp/e1.log" 2>&1
ok unknown_node '[ $? -eq 2 ] && grep -q "\[output\] pcap: .nosuch. is not a node" "$tmp/e1.log"' "$tmp/e1.log"
"$ROCCSIM" run $D/pcap-rocc.ini -q -o "$tmp/e2" --set output.pcap='sw sw->r0' >"$tmp/e2.log" 2>&1
ok overlap '[ $? -eq 2 ] && grep -q "overlaps .sw." "$tmp/e2.log"' "$tmp/e2.log"
"$ROCCSIM" run $D/pcap-rocc.ini -q -o "$tmp/e3" --set output.pcap_snaplen=10 >"$tmp/e3.log" 2>&1
ok bad_snaplen '[ $? -eq 2 ] && grep -q "pcap_snaplen: must be 14..65535" "$tmp/e3.log"' "$tmp/e3.log"
"$ROCCSIM" run $D/pcap-rocc.ini -q -o "$tmp/e4" --set output.pcap_start=1ms --set output.pcap_stop=1ms >"$tmp/e4.log" 2>&1
ok empty_window '[ $? -eq 2 ] && grep -q "pcap_stop: the window is empty" "$tmp/e4.log"' "$tmp/e4.log"
"$ROCCSIM" run $D/pcap-rocc.ini -q -o "$tmp/e5" --set output.pcap=none --set output.pcap_snaplen=100 >"$tmp/e5.log" 2>&1
ok key_without_pcap '[ $? -eq 2 ] && grep -q "pcap_snaplen: has no effect without" "$tmp/e5.log"' "$tmp/e5.log"
"$ROCCSIM" run $D/pcap-rocc.ini -q -o "$tmp/e6" --set output.pcap='sw->h0#2' >"$tmp/e6.log" 2>&1
ok no_such_port '[ $? -eq 2 ] && grep -q "is not a port" "$tmp/e6.log"' "$tmp/e6.log"
# the error names the scenario file and the line of the key
ok names_file_line 'grep -q "^roccsim: --set:[0-9]*: \[output\] pcap" "$tmp/e1.log" && '\
'"$ROCCSIM" run $D/pcap-rocc.ini -q -o "$tmp/e7" --set output.pcap_limit=10B >"$tmp/e7.log" 2>&1; '\
'grep -q "pcap_limit: must be 0" "$tmp/e7.log"' "$tmp/e1.log" "$tmp/e7.log"
sed 's/^pcap = .*/pcap = h0 h9/' $D/pcap-rocc.ini >"$tmp/bad.ini"
line=$(grep -n '^pcap = ' "$tmp/bad.ini" | cut -d: -f1)
"$ROCCSIM" run "$tmp/bad.ini" -q -o "$tmp/e8" >"$tmp/e8.log" 2>&1
ok names_ini_line '[ $? -eq 2 ] && grep -q "bad.ini:$line: \[output\] pcap: .h9. is not a node" "$tmp/e8.log"' "$tmp/e8.log"
# a directory where DIR/pcap should be is a file: exit 2 before the run
mkdir -p "$tmp/e9" && : >"$tmp/e9/pcap"
"$ROCCSIM" run $D/pcap-rocc.ini -q -o "$tmp/e9" >"$tmp/e9.log" 2>&1
ok unwritable_dir '[ $? -eq 2 ] && grep -q "\[output\] pcap: .*e9/pcap: cannot create directory" "$tmp/e9.log" && [ ! -e "$tmp/e9/summary.json" ]' "$tmp/e9.log"
# capturing changes nothing in the run: the same outputs with and without pcap
"$ROCCSIM" run $D/pcap-rocc.ini -q -o "$tmp/off" --set output.pcap=none >/dev/null 2>&1
"$ROCCSIM" run $D/pcap-rocc.ini -q -o "$tmp/rocc" >"$tmp/rocc.log" 2>&1
ok rocc_runs '[ $? -eq 0 ] && [ -s "$tmp/rocc/pcap/h0.pcap" ]' "$tmp/rocc.log"
ok run_unchanged 'for f in flows.csv queue.csv summary.tsv; do cmp -s "$tmp/off/$f" "$tmp/rocc/$f" || exit 1; done' "$tmp/rocc.log"
# nanosecond pcap magic in the file's first 4 bytes (little-endian host)
ok ns_magic '[ "$(od -An -tx4 -N4 "$tmp/rocc/pcap/h0.pcap" | tr -d " ")" = a1b23c4d ]'
# a write that fails mid-run (file size limit): exit 3 naming the key and
# the file; the file keeps whole records only and says how many
( trap '' XFSZ; ulimit -f 200; exec "$ROCCSIM" run $D/pcap-rocc.ini -q -o "$tmp/full" --set output.pcap=sw ) >"$tmp/full.log" 2>&1
st=$?
ok write_error_exit3 '[ $st -eq 3 ] && grep -q "\[output\] pcap: .*full/pcap/sw.pcap: write failed: File too large (the file holds the first [0-9]* frames" "$tmp/full.log"' "$tmp/full.log"


need_cmd tshark "the pcap test decodes the captures with it" || exit 0
need_cmd python3 "the pcap test reads summary.json with it" || exit 0
held=$(sed -n 's/.*holds the first \([0-9]*\) frames.*/\1/p' "$tmp/full.log")
got=$(tshark -r "$tmp/full/pcap/sw.pcap" 2>"$tmp/full.err" | wc -l)
ok write_error_file_valid '[ -n "$held" ] && [ "$held" -gt 0 ] && [ "$got" = "$held" ] && ! grep -qi "cut short\|damaged\|corrupt" "$tmp/full.err"' "$tmp/full.log" "$tmp/full.err"

# ---- RoCC: data, ACK, CNP, PFC, at the switch (every port, both ways) -------
"$ROCCSIM" run $D/pcap-rocc.ini -q -o "$tmp/sw" --set output.pcap=sw >"$tmp/sw.log" 2>&1
S=$tmp/sw/summary.json
F=$tmp/sw/pcap/sw.pcap
dump "$F"
ok rocc_decoded '[ "$(count "$F" 1)" -gt 1000 ] && [ "$(count "$F" 1)" = "$(jget $S "d['"'pcap'"']['"'files'"'][0]['"'frames'"']")" ]' "$tmp/sw.log" "$tmp/tshark.err"
ok rocc_no_malformed '[ "$(bad "$F")" = 0 ]' "$tmp/tshark.err"
# frames the switch sends carry its MACs 02:00:00:01:..; it receives the others
swm=$(jget $S "d['pcap']['files'][0]['mac'][:11]")
fromsw="index(\$5, \"$swm\") == 1"
data=$(count "$F" "!($fromsw) && \$8 != \"\" && \$8 <= 4")
ok rocc_data_count '[ "$data" -gt 0 ] && [ "$data" = "$(jget $S "d['"'packets'"']['"'by_type'"']['"'data'"']['"'created'"']")" ]'
ack=$(count "$F" "!($fromsw) && \$8 == 17 && \$11 == 31")
ok rocc_ack_count '[ "$ack" -gt 0 ] && [ "$ack" = "$(jget $S "d['"'packets'"']['"'by_type'"']['"'ack'"']['"'created'"']")" ]'
# the Lua dissector decodes every CNP the CP sent ...
cnp=$(count "$F" "$fromsw && \$17 != \"\"")
ok rocc_cnp_count '[ "$cnp" -gt 0 ] && [ "$cnp" = "$(jget $S "sum(p['"'cp'"']['"'cnps_sent'"'] for p in d['"'ports'"'] if p['"'cp'"'])")" ]' "$tmp/tshark.err"
# ... and the flow it quotes: source = the CNP's destination, the QP of that
# source's data frames to that destination, a positive rate
awk -F'\t' -v sw="$swm" 'function hex(s,  v, i) { v = 0; for (i = 3; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1; return v }
    $8 != "" && $8 <= 4 && index($5, sw) != 1 { qp[$6 " " $7] = hex($9) }
    $17 != "" { n++; split($7, d, ","); if ($18 != d[1] || !(($18 " " $19) in qp) || qp[$18 " " $19] != $20 || $21 <= 0) bad++ }
    END { print n + 0, bad + 0 }' "$F.tsv" >"$tmp/cnpq.txt"
ok lua_decodes_cnp 'read n b <"$tmp/cnpq.txt" && [ "$n" = "$cnp" ] && [ "$b" = 0 ]' "$tmp/cnpq.txt"
# PFC: XOFF = class 3 with quanta 0xffff, XON = class 3 with quanta 0
xoff=$(count "$F" "$fromsw && \$12 == \"0x0101\" && \$13 == \"0x0008\" && \$14 == 65535")
ok pfc_xoff_count '[ "$xoff" -gt 0 ] && [ "$xoff" = "$(jget $S "sum(p['"'pfc_xoff_sent'"'] for p in d['"'ports'"'])")" ]'
ok pfc_xon_quanta_0 '[ "$(count "$F" "$fromsw && \$12 == \"0x0101\" && \$13 == \"0x0008\" && \$14 == 0")" = "$xoff" ]'
# every frame port sw->r0 sent (its MAC: the source of the data frames to r0)
r0mac=$(awk -F'\t' -v sw="$swm" 'index($5, sw) == 1 && $8 == 0 { print $5; exit }' "$F.tsv")
swr0=$(jget $S "[p['tx_packets'] for p in d['ports'] if p['name'] == 'sw->r0'][0]")
ok port_tx_count '[ -n "$r0mac" ] && [ "$(count "$F" "\$5 == \"$r0mac\"")" = "$swr0" ]'
# opcodes and PSNs toward r0: each endless flow sends SEND First with PSN 0,
# then SEND Middle, PSN +1 per frame (lossless: no retransmission)
ok opcodes_psns 'awk -F"\t" -v m="$r0mac" "\$5 == m && \$8 != \"\" { q = \$9; if (!(q in last)) { if (\$8 != 0 || \$10 != 0) bad = 1 } else if (\$8 != 1 || \$10 != last[q] + 1) bad = 1; last[q] = \$10; n++ } END { exit bad || n < 100 || length(last) != 4 }" "$F.tsv"'
# ns timestamps from simulation time: a 1058-byte frame (+ 4 FCS + 20
# preamble and gap) takes 216.4 ns at 40 Gb/s, the link 1 us: h0's first
# frame reaches the switch at 1.216 us, its second back to back 216 ns later
ok ns_timestamps 'awk -F"\t" -v sw="$swm" "index(\$5, sw) != 1 && \$6 == \"10.0.0.2\" && \$8 != \"\" { t[n++] = \$2 } END { exit !(t[0] == \"0.000001216\" && t[1] == \"0.000001432\") }" "$F.tsv"'

# ---- a host, a window and a snap length ---------------------------------------
"$ROCCSIM" run $D/pcap-rocc.ini -q -o "$tmp/win" --set output.pcap=h0 --set output.pcap_start=0.5ms \
    --set output.pcap_stop=1ms --set output.pcap_snaplen=128 >"$tmp/win.log" 2>&1
F=$tmp/win/pcap/h0.pcap
dump "$F"
ok window 'awk -F"\t" "\$2 < 0.0005 || \$2 >= 0.001 { bad = 1 } END { exit bad || NR < 100 }" "$F.tsv"' "$tmp/win.log"
ok snaplen 'awk -F"\t" "\$4 > 128 || (\$3 > 128 && \$4 != 128) { bad = 1 } \$3 == 1058 { big = 1 } END { exit bad || !big }" "$F.tsv"' "$tmp/win.log"
ok host_both_ways '[ "$(count "$F" "\$6 == \"10.0.0.2\" && \$8 == 1")" -gt 0 ] && [ "$(count "$F" "\$7 == \"10.0.0.2\" && \$8 == 17")" -gt 0 ]'

# ---- DCQCN: RoCEv2 CNPs ---------------------------------------------------------
"$ROCCSIM" run $D/pcap-dcqcn.ini -q -o "$tmp/dcqcn" >"$tmp/dcqcn.log" 2>&1
F=$tmp/dcqcn/pcap/r0.pcap
dump "$F"
ok dcqcn_no_malformed '[ -s "$F" ] && [ "$(bad "$F")" = 0 ]' "$tmp/dcqcn.log"
r0=$(jget $tmp/dcqcn/summary.json "d['pcap']['files'][0]['ip']")
c=$(count "$F" "\$8 == 129 && \$6 == \"$r0\" && \$3 == 74")
ok rocev2_cnp_count '[ "$c" -gt 0 ] && [ "$c" = "$(jget $tmp/dcqcn/summary.json "d['"'packets'"']['"'by_type'"']['"'cnp'"']['"'created'"']")" ]'

# ---- lossy: NAKs ----------------------------------------------------------------
"$ROCCSIM" run $D/pcap-lossy.ini -q -o "$tmp/lossy" >"$tmp/lossy.log" 2>&1
F=$tmp/lossy/pcap/r0.pcap
dump "$F"
ok lossy_no_malformed '[ -s "$F" ] && [ "$(bad "$F")" = 0 ]' "$tmp/lossy.log"
r0=$(jget $tmp/lossy/summary.json "d['pcap']['files'][0]['ip']")
c=$(count "$F" "\$11 == 96 && \$6 == \"$r0\"")
ok nak_count '[ "$c" -gt 0 ] && [ "$c" = "$(jget $tmp/lossy/summary.json "d['"'packets'"']['"'by_type'"']['"'nack'"']['"'created'"']")" ]'
# r0 receives every data frame that was not dropped
c=$(count "$F" "\$8 != \"\" && \$8 <= 4 && \$7 == \"$r0\"")
ok lossy_data_received '[ "$c" = "$(jget $tmp/lossy/summary.json "d['"'packets'"']['"'by_type'"']['"'data'"']['"'consumed'"']")" ]'

# ---- HPCC: INT records ----------------------------------------------------------
"$ROCCSIM" run $D/pcap-hpcc.ini -q -o "$tmp/hpcc" >"$tmp/hpcc.log" 2>&1
F=$tmp/hpcc/pcap/h0.pcap
dump "$F"
ok hpcc_no_malformed '[ -s "$F" ] && [ "$(bad "$F")" = 0 ] && [ "$(count "$F" "\$3 == 1100 && \$8 == 1")" -gt 100 ]' "$tmp/hpcc.log"
# ACKs (62 + 42 INT bytes) echo one hop (the switch) at 100 Gb/s (rate index 4)
python3 - "$F" >"$tmp/int.txt" 2>&1 <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
off, acks, bad = 24, 0, 0
while off + 16 <= len(b):
    _, _, incl, orig = struct.unpack("<IIII", b[off:off + 16]); fr = b[off + 16:off + 16 + incl]; off += 16 + incl
    if orig == 104 and fr[42] == 0x11:           # BTH opcode: Acknowledge
        acks += 1
        nhop = struct.unpack("!H", fr[98:100])[0]
        if nhop != 1 or fr[58] >> 5 != 4: bad += 1
print(acks, bad)
PY
ok hpcc_int_in_acks 'read a b <"$tmp/int.txt" && [ "$a" -gt 100 ] && [ "$b" = 0 ]' "$tmp/int.txt"

# ---- Escape: the header before the BTH and token frames (Lua dissector) -------
"$ROCCSIM" run $D/pcap-escape.ini -q -o "$tmp/esc" >"$tmp/esc.log" 2>&1
S=$tmp/esc/summary.json
for sw in s1 s2 s3; do dump "$tmp/esc/pcap/$sw.pcap" -o rocc_esc.header:TRUE; done
F=$tmp/esc/pcap/s1.pcap
# with the preference on, nothing is malformed and no error (ETFs keep a
# warning: MAC control opcode 0x0102 is ours), every RoCEv2 frame has hops
ok escape_no_malformed '[ -s "$F" ] && [ "$(count "$F" "\$15 != \"\" || \$16 ~ /8388608/")" = 0 ] && [ "$(count "$F" "\$8 != \"\" && \$22 == \"\"")" = 0 ]' "$tmp/esc.log"
ok escape_hops_seen '[ "$(count "$F" "\$22 > 0 && \$8 == 1")" -gt 0 ]'
# every token a switch sent (created or forwarded), decoded as an ETF
e=0; for sw in s1 s2 s3; do
    m=$(jget $S "[x['mac'][:11] for x in d['pcap']['files'] if x['point'] == '$sw'][0]")
    e=$((e + $(count "$tmp/esc/pcap/$sw.pcap" "index(\$5, \"$m\") == 1 && \$23 > 0")))
done
ok escape_etf_count '[ "$e" -gt 0 ] && [ "$e" = "$(jget $S "d['"'escape'"']['"'tokens_sent'"'] + d['"'escape'"']['"'tokens_forwarded'"']")" ]' "$tmp/esc.log"
# without the preference the same frames are mis-read: the check can fail
dump "$F"
ok escape_needs_pref '[ "$(bad "$F")" -gt 0 ]'

# ---- HPCC* direct INTs (docs/pcap.md): one per data frame h0 sends, each a
# 123-byte RoCEv2 CNP (opcode 0x81, UDP 85) from egress0 that the Lua
# dissector decodes: 1..5 hops, B > 0, Q* = the last hop's queue; and a
# malformed one (attack kind dint_malformed, defence off: B = 0 or no hop)
# gets the dissector's malformed warning; a plain CNP is not taken for one.
"$ROCCSIM" run $D/pcap-hpccstar.ini -q -o "$tmp/hs" >"$tmp/hs.log" 2>&1
F=$tmp/hs/pcap/h0.pcap
tshark -X lua_script:$LUA -r "$F" -Y hpcc_dint -T fields -e frame.len -e infiniband.bth.opcode -e hpcc_dint.nhop \
    -e hpcc_dint.b_mbps -e hpcc_dint.qstar -e hpcc_dint.hop_qlen >"$tmp/hs.tsv" 2>/dev/null
nd=$(jget "$tmp/hs/summary.json" "d['pcap']['files'][0]['by_kind'].get('direct_int', 0)")
ok dint_decoded '[ "$nd" -gt 1000 ] && [ "$(wc -l <"$tmp/hs.tsv")" = "$nd" ] && [ "$(awk -F"\t" "\$1 != 119 || \$3 < 1 || \$3 > 5 || \$4 < 1 || \$4 > 200000 || \$5 == \"\"" "$tmp/hs.tsv" | wc -l)" = 0 ]' "$tmp/hs.tsv"
ok dint_qstar_is_last_hop '[ "$(awk -F"\t" "{n = split(\$6, q, \",\"); if (q[n] != \$5) print}" "$tmp/hs.tsv" | wc -l)" = 0 ]' "$tmp/hs.tsv"
cat >"$tmp/hsa.ini" <<'EOF2'
[attack.bad]
from = h1
kind = dint_malformed
target = bulk
cp = egress0->egress1
rate = 1Gbps
start = 1ms
stop = 2ms
EOF2
cat $D/pcap-hpccstar.ini "$tmp/hsa.ini" >"$tmp/hsb.ini"
"$ROCCSIM" run "$tmp/hsb.ini" -q -o "$tmp/hsb" --set network.cnp_filter=false >"$tmp/hsb.log" 2>&1
sent=$(jget "$tmp/hsb/summary.json" "d['attacks'][0]['sent']")
tshark -X lua_script:$LUA -r "$tmp/hsb/pcap/h0.pcap" -Y hpcc_dint -T fields -e hpcc_dint.nhop -e hpcc_dint.b_mbps \
    -e _ws.expert.message >"$tmp/hsb.tsv" 2>/dev/null
# the attack quotes h0's and h2's flows in turn, B = 0 and nhop = 0 in
# alternate rounds: h0 gets half of the frames, half of those of each kind
n0=$(((sent + 1) / 2))
ok dint_malformed_flagged '[ "$sent" -gt 100 ] && [ "$(grep -c "^1	0	nhop 1, B 0$" "$tmp/hsb.tsv")" = $(((n0 + 1) / 2)) ] && [ "$(grep -c "^0	1	nhop 0, B 1$" "$tmp/hsb.tsv")" = $((n0 / 2)) ] && [ "$(grep -c "nhop" "$tmp/hsb.tsv")" = "$n0" ]' "$tmp/hsb.tsv"

# ---- LSCC feedback frames (docs/pcap.md): captured at egress0 (both ends
# of the long-haul link run LSCC's rate calculation) they are rocc-switch's
# 60-byte frame (src/cc/lscc_fb.h): group destination 01:80:C2:00:00:0E,
# EtherType 0x88B6, 'L' 'S' version 2 type 1 (no key in the simulator),
# reserved and padding zero, R in 1 Mb/s units; per sender the sequence
# numbers run 1, 2, ... in one epoch.  egress0 sends one per period T
# (200 us) but the one at the run's last instant (3 ms, the window's open
# end); it receives what egress1 sent 1 ms before; R falls by dR = 1 Gb/s
# (1000 units) per period from Rmax 200 Gb/s on this uncongested start
# (every update clamped down: summary's clamp_dr_down).
"$ROCCSIM" run $D/pcap-hpccstar.ini -q -o "$tmp/lf" --set output.pcap=egress0 --set output.pcap_snaplen=65535 \
    >"$tmp/lf.log" 2>&1
python3 - "$tmp/lf" >"$tmp/lf.txt" 2>&1 <<'PY'
import json, struct, sys
d = json.load(open(sys.argv[1] + "/summary.json"))
pc = d["pcap"]["files"][0]
port = [p for p in d["lscc"]["ports"] if p["port"] == "egress0->egress1"][0]
mine = bytes(int(x, 16) for x in pc["mac"].split(":"))[:4]     # egress0's ports: 02:00:00:49:...
f = open(sys.argv[1] + "/" + pc["file"], "rb"); f.read(24)
frames, bad = [], []
while True:
    h = f.read(16)
    if len(h) < 16: break
    cl = struct.unpack("<IIII", h)[2]; b = f.read(cl)
    if b[12:14] != b"\x88\xb6": continue
    ok = (len(b) == 60 and b[0:6] == bytes.fromhex("0180c200000e") and b[14:18] == b"LS\x02\x01"
          and b[18:20] == b"\0\0" and b[36:60] == bytes(24))
    units, seq = struct.unpack(">II", b[20:28]); epoch = struct.unpack(">Q", b[28:36])[0]
    if not ok or units >= 1 << 24: bad.append(b.hex())
    frames.append((b[6:12], units, seq, epoch))
sent = [x for x in frames if x[0][:4] == mine]
rcvd = [x for x in frames if x[0][:4] != mine]
def run(v): return [x[2] for x in v] == list(range(1, len(v) + 1)) and len({x[3] for x in v}) == 1
steps = all(a[1] - b[1] == 1000 for a, b in zip(sent, sent[1:]))
print("frames", len(frames), "by_kind", pc["by_kind"].get("lscc_fb", 0), "bad", len(bad), "sent", len(sent),
      "feedback_sent", port["feedback_sent"], "rcvd", len(rcvd), "feedback_rcvd", port["feedback_rcvd"],
      "first_units", sent[0][1] if sent else None, "steps_of_1000", steps, "clamp_dr_down", port["clamp_dr_down"],
      "seq_runs", run(sent), run(rcvd))
good = (frames and len(frames) == pc["by_kind"].get("lscc_fb", 0) and not bad and run(sent) and run(rcvd)
        and len(sent) == port["feedback_sent"] - 1 and len(rcvd) == port["feedback_rcvd"]
        and sent[0][1] == 199000 and steps and port["clamp_dr_down"] == port["updates"])
sys.exit(0 if good else 1)
PY
lf_rc=$?
ok lscc_fb_frames '[ "$lf_rc" = 0 ]' "$tmp/lf.txt" "$tmp/lf.log"
# The Lua dissector decodes every one (R in Mb/s with the default 1 Mb/s
# unit, no warning); a crafted capture of a good frame and three that
# rocc-switch refuses (R above 2^24 - 1 units, nonzero padding, version 1)
# flags exactly the three.
tshark -X lua_script:$LUA -r "$tmp/lf/pcap/egress0.pcap" -Y lscc_fb -T fields -e lscc_fb.rate_mbps -e lscc_fb.seq \
    -e _ws.expert.message >"$tmp/lf.tsv" 2>/dev/null
nlf=$(jget "$tmp/lf/summary.json" "d['pcap']['files'][0]['by_kind'].get('lscc_fb', 0)")
ok lscc_fb_lua '[ "$nlf" -gt 0 ] && [ "$(wc -l <"$tmp/lf.tsv")" = "$nlf" ] && [ "$(awk -F"\t" "\$3 != \"\" || \$1 < 1000 || \$1 > 200000" "$tmp/lf.tsv" | wc -l)" = 0 ] && grep -q "^199000	1	$" "$tmp/lf.tsv"' "$tmp/lf.tsv"
python3 - "$tmp/lfx.pcap" <<'PY'
import struct, sys
def frame(units, ver=2, pad=0):
    b = bytes.fromhex("0180c200000e") + bytes.fromhex("020000490004") + b"\x88\xb6" + b"LS" + bytes([ver, 1]) + b"\0\0"
    b += struct.pack(">IIQ", units, 7, 1) + bytes(24)
    return b[:50] + bytes([pad]) + b[51:]
out = open(sys.argv[1], "wb")
out.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
for i, f in enumerate([frame(5000), frame(1 << 24), frame(5000, pad=1), frame(5000, ver=1)]):
    out.write(struct.pack("<IIII", 1, i, len(f), len(f)) + f)
PY
tshark -X lua_script:$LUA -r "$tmp/lfx.pcap" -Y lscc_fb -T fields -e lscc_fb.rate_mbps -e _ws.expert.message \
    >"$tmp/lfx.tsv" 2>/dev/null
ok lscc_fb_lua_malformed '[ "$(sed -n 1p "$tmp/lfx.tsv")" = "5000	" ] && [ "$(awk -F"\t" "\$2 != \"\"" "$tmp/lfx.tsv" | wc -l)" = 3 ] && grep -q "R above" "$tmp/lfx.tsv" && grep -q "padding" "$tmp/lfx.tsv" && grep -q "version" "$tmp/lfx.tsv"' "$tmp/lfx.tsv"
