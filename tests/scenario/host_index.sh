#!/usr/bin/env bash
# HPCC flow files (read by [traffic.NAME] pattern = hpcc_file, written as
# flows.txt) and fct.txt's IPs number hosts by host index, 0..hosts-1, as
# docs/config.md and docs/outputs.md say -- not by node index, which differs
# whenever a switch is added before a host (the star's switch is node 0, so
# h1 is node 2 but host 1; r0 is host `senders`).
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
star='[sim]\nduration = 1ms\n[topology]\ntype = star\nsenders = 2\n'
printf "$star"'[flows.a]\nsrc = h1\ndst = r0\nsize = 10KB\n[output]\nhpcc_flows = true\nhpcc_fct = true\n' > "$tmp/w.ini"
"$ROCCSIM" run "$tmp/w.ini" -q -o "$tmp/w" >"$tmp/w.log" 2>&1
ok flows_txt_host_indices "[ \"\$(sed -n 2p $tmp/w/flows.txt)\" = '1 2 3 100 10000 0.000000000' ]" "$tmp/w.log" "$tmp/w/flows.txt"
# h1 -> 0b000101, r0 (host 2) -> 0b000201
ok fct_txt_host_indices "grep -q '^0b000101 0b000201 ' $tmp/w/fct.txt" "$tmp/w/fct.txt"
# Read back: the same flow, h1 -> r0.
printf "$star"'[traffic.x]\npattern = hpcc_file\nfile = %s\n' "$tmp/w/flows.txt" > "$tmp/r.ini"
"$ROCCSIM" run "$tmp/r.ini" -q -o "$tmp/r" >"$tmp/r.log" 2>&1
ok flow_file_read_as_host_indices "grep -q '^0,x,x,h1,r0,10000,' $tmp/r/flows.csv" "$tmp/r.log" "$tmp/r/flows.csv"
# Host indices stop at hosts-1 = 2 (there are 4 nodes, so node ids would not).
printf '1\n0 3 3 100 1000 0\n' > "$tmp/bad.txt"
printf "$star"'[traffic.x]\npattern = hpcc_file\nfile = %s\n' "$tmp/bad.txt" > "$tmp/bad.ini"
"$ROCCSIM" run "$tmp/bad.ini" -q -o "$tmp/bad" >"$tmp/bad.log" 2>&1; rc=$?
ok flow_file_host_range "[ $rc -eq 2 ] && grep -qF 'bad.txt:2: dst 3 is not a host (hosts are 0..2)' $tmp/bad.log" "$tmp/bad.log"
# A topology file declaring its switch first: hosts a, b are 0, 1.
printf 'switch s\nhost a b\nlink a s 40Gbps 1us\nlink b s 40Gbps 1us\n' > "$tmp/t.topo"
printf '1\n1 0 3 100 1000 0\n' > "$tmp/t.txt"
printf '[sim]\nduration = 1ms\n[topology]\ntype = file\nfile = %s\n[traffic.x]\npattern = hpcc_file\nfile = %s\n' "$tmp/t.topo" "$tmp/t.txt" > "$tmp/t.ini"
"$ROCCSIM" run "$tmp/t.ini" -q -o "$tmp/t" >"$tmp/t.log" 2>&1
ok topology_file_host_indices "grep -q '^0,x,x,b,a,1000,' $tmp/t/flows.csv" "$tmp/t.log" "$tmp/t/flows.csv"
