#!/usr/bin/env bash
# Error messages quote the input they reject, but never pass its control
# bytes to the terminal (core/text.h): each input file below carries an ESC
# sequence (ESC [ 2 J clears the screen, ESC ] 0 ; ... BEL sets the window
# title), a C1 CSI (U+009B) or a stray non-UTF-8 byte in the token the
# message quotes.  roccsim must exit 2, name the file, and print the bytes
# as \xNN, with no raw control byte (0x00-0x08, 0x0b-0x1f, 0x7f), C1 control
# or invalid UTF-8 on stderr.
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
# raw_free FILE: no control byte but LF, and valid UTF-8 without C1 controls.
raw_free() {
    ! LC_ALL=C grep -qP '[\x00-\x09\x0b-\x1f\x7f]' "$1" &&
        iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1 &&
        ! grep -qP '[\x{80}-\x{9f}]' "$1"
}
esc=$'\033'
# check NAME INI WANT: run, expect exit 2, WANT (fixed string) on stderr.
check() {
    local name=$1 ini=$2 want=$3 rc
    "$ROCCSIM" run "$ini" -q -o "$tmp/out_$name" 2>"$tmp/$name.err" >/dev/null; rc=$?
    printf '%s\n' "$want" > "$tmp/$name.want"
    ok "$name" "[ $rc -eq 2 ] && raw_free $tmp/$name.err && grep -qF -f $tmp/$name.want $tmp/$name.err" "$tmp/$name.err"
}
# Topology file: an unknown node name in a link.
printf 'switch sw\nhost h0 h1\nlink h0 sw 40Gbps 1us\nlink h1 x%s[2J%s]0;owned\a 40Gbps 1us\n' "$esc" "$esc" > "$tmp/t.topo"
printf '[sim]\nduration = 1ms\n[topology]\ntype = file\nfile = %s\n[flows.a]\nsrc = h0\ndst = h1\n' "$tmp/t.topo" > "$tmp/topo.ini"
check topology_file "$tmp/topo.ini" "t.topo:4: link: unknown node 'x\x1b[2J\x1b]0;owned\x07'"
# CDF file: a size that is not a number.
printf '0 0\n1000%s[31m 1\n' "$esc" > "$tmp/c.cdf"
printf '[sim]\nduration = 1ms\n[topology]\ntype = fattree\nk = 4\n[traffic.x]\ncdf = %s\nload = 50%%\n' "$tmp/c.cdf" > "$tmp/cdf.ini"
check cdf_file "$tmp/cdf.ini" "c.cdf:2: size '1000\x1b[31m' is not a number"
# HPCC flow file: C1 CSI (UTF-8 c2 9b) and a lone 0xff byte in the size.
printf '1\n0 1 3 100 10\xc2\x9b2J\xff 0\n' > "$tmp/f.txt"
printf '[sim]\nduration = 1ms\n[topology]\ntype = fattree\nk = 4\n[traffic.x]\npattern = hpcc_file\nfile = %s\n' "$tmp/f.txt" > "$tmp/flows.ini"
check hpcc_flow_file "$tmp/flows.ini" "f.txt:2: size '10\xc2\x9b2J\xff' is not a non-negative integer"
# HPCC topology file: a bad node id.
printf '3 1 2\n2\n0 2 100Gbps 1us 0\n1%s[5m 2 100Gbps 1us 0\n' "$esc" > "$tmp/h.topo"
printf '[sim]\nduration = 1ms\n[topology]\ntype = hpcc\nfile = %s\n[flows.a]\nsrc = h0\ndst = h1\n' "$tmp/h.topo" > "$tmp/hpcc.ini"
check hpcc_topology_file "$tmp/hpcc.ini" "h.topo:4: bad"
ok hpcc_topology_file_escaped "grep -qF -- '1\x1b[5m' $tmp/hpcc_topology_file.err" "$tmp/hpcc_topology_file.err"
# Scenario file: a non-UTF-8 byte and a C1 control in a value.
printf '[sim]\nduration = 1ms\xff\xc2\x9b\n[topology]\ntype = star\n[flows.a]\nsrc = h0\ndst = r0\n' > "$tmp/bad.ini"
check scenario_file "$tmp/bad.ini" "bad.ini:2: [sim] duration"
ok scenario_file_escaped "grep -qF -- '1ms\xff\xc2\x9b' $tmp/scenario_file.err" "$tmp/scenario_file.err"
# A scenario path (from the command line) with ESC in it.
cp tests/scenario/data/good.ini "$tmp/x${esc}[2Jy.ini"
printf 'bogus = 1\n' >> "$tmp/x${esc}[2Jy.ini"
check scenario_path "$tmp/x${esc}[2Jy.ini" 'x\x1b[2Jy.ini'
# Command-line text in the roccsim command's own messages (cli_errorf):
# an unknown option, a bad -j value, a plot option, a maxmin option.
for args in "run --x${esc}[2J" "sweep -j a${esc}[2J" "plot --x${esc}[2J" "maxmin --x${esc}[2J"; do
    n=$(echo "$args" | cut -d' ' -f1)
    # shellcheck disable=SC2086
    "$ROCCSIM" $args >"$tmp/cli_$n.out" 2>"$tmp/cli_$n.err"; rc=$?
    ok "cli_${n}_escaped" "[ $rc -eq 2 ] && ! grep -q \"\$(printf '\\033')\" $tmp/cli_$n.err && grep -qF '\\x1b[2J' $tmp/cli_$n.err" "$tmp/cli_$n.err"
done
