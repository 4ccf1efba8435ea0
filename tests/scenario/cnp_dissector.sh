#!/usr/bin/env bash
# tools/wireshark/rocc_cnp.lua measures a CNP by the IPv4 total length, not
# by the frame (issue 11 part 5).  A pcap written here holds:
#   1 a valid CNP                                   -> decoded (cp_id 0x101)
#   2 a 30-byte "CNP" padded to a 100-byte frame     -> rocc_cnp.short, no fields
#     (by the frame length the padding would pass for the 52 bytes)
#   3 a valid CNP followed by 20 trailing bytes      -> decoded (trailer ignored)
#   4 a CNP whose IPv4 total length says 56 bytes    -> rocc_cnp.badlen
#   5 an authenticated CNP (code 1, 60 B with tag)   -> decoded, rocc_cnp.tag shown
# and the host forms of RoCC §3.6 (src/cc/rocc_cnp.h):
#   6 HOST_FULL (code 2, 92 B)                       -> form 1, F_in, Qcur/Qold, Qmax, beta~, flags
#   7 HOST_REG with tag (code 5, 68 B)               -> form 2, Qcur/Qold, tag; no parameters
#   8 HOST_FULL cut to 60 B by its IPv4 length, 40 trailing bytes -> rocc_cnp.badlen (want 92)
#   9 code 7                                         -> rocc_cnp.badcode
set -u
cd "$(dirname "$0")/../.."
. tests/scenario/common.bash
need_cmd tshark "the Wireshark dissector test needs it" || exit 0
python3 - "$tmp/cnp.pcap" <<'PY'
import struct, sys
def csum(b):
    if len(b) % 2: b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16: s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff
def ip4(tot, proto, src, dst):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, tot, 0, 0x4000, 64, proto, 0, bytes(src), bytes(dst))
    return h[:10] + struct.pack("!H", csum(h)) + h[12:]
def cnp_body(code, tag=b"", ext=b""):
    q = ip4(40, 17, [10, 99, 1, 2], [10, 99, 2, 2]) + struct.pack("!HHHH", 49152, 4791, 20, 0) \
        + bytes([0x0A, 0]) + struct.pack("!H", 0xffff) + bytes([0, 0, 0, 7, 0, 0, 0, 99])
    b = bytes([253, code, 0, 0]) + struct.pack("!II", 40, 0x101) + q + ext + tag
    c = csum(b)
    return b[:2] + struct.pack("!H", c) + b[4:]
eth = bytes.fromhex("020000000002" "020000000001" "0800")
src, dst = [10, 99, 0, 1], [10, 99, 1, 2]
def frame(icmp, tot=None, trailer=b""):
    return eth + ip4(20 + len(icmp) if tot is None else tot, 1, src, dst) + icmp + trailer
short = bytes([253, 0, 0, 0]) + bytes(26)
frames = [frame(cnp_body(0)),
          frame(short, trailer=bytes(range(1, 100 - 14 - 20 - 30 + 1))),
          frame(cnp_body(0), trailer=bytes(20)),
          frame(cnp_body(0) + bytes(4)),
          frame(cnp_body(1, bytes(range(8)))),
          # Qcur 260, Qold 240; Qref/Qmid/Qmax 250/500/600, Fmin/Fmax 10/4000, a~ 19661, b~ 98304, flags 2
          frame(cnp_body(2, ext=struct.pack("!9I", 260, 240, 250, 500, 600, 10, 4000, 19661, 98304) + bytes([2, 0, 0, 0]))),
          frame(cnp_body(5, bytes(range(8)), ext=struct.pack("!2I", 260, 240))),
          frame(cnp_body(2, ext=struct.pack("!2I", 260, 240)), trailer=bytes(40)),
          frame(cnp_body(7))]
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    for i, fr in enumerate(frames):
        f.write(struct.pack("<IIII", i + 1, 0, len(fr), len(fr)) + fr)
PY
LUA=tools/wireshark/rocc_cnp.lua
tshark -X lua_script:$LUA -r "$tmp/cnp.pcap" -T fields -e frame.number -e rocc_cnp.cp_id -e rocc_cnp.tag \
    -e _ws.expert.message -e rocc_cnp.form -e rocc_cnp.f_in -e rocc_cnp.q_cur -e rocc_cnp.q_old \
    -e rocc_cnp.q_max -e rocc_cnp.beta_q16 -e rocc_cnp.flags -e rocc_cnp.rate_units >"$tmp/fields.txt" 2>"$tmp/tshark.err"
cat "$tmp/fields.txt" "$tmp/tshark.err" >"$tmp/all.txt"
row() { awk -F'\t' -v n="$1" '$1 == n' "$tmp/fields.txt"; }
ok valid_decoded '[ "$(row 1 | cut -f2)" = 0x00000101 ] && [ -z "$(row 1 | cut -f4)" ]' "$tmp/all.txt"
ok short_by_ip_length '[ -z "$(row 2 | cut -f2)" ] && row 2 | grep -q "by the IPv4 total length"' "$tmp/all.txt"
ok trailer_ignored '[ "$(row 3 | cut -f2)" = 0x00000101 ]' "$tmp/all.txt"
ok wrong_length '[ -z "$(row 4 | cut -f2)" ] && row 4 | grep -q "56 bytes by the IPv4 total length, want 52"' "$tmp/all.txt"
ok auth_tag '[ "$(row 5 | cut -f2)" = 0x00000101 ] && [ "$(row 5 | cut -f3)" = 0x0706050403020100 ]' "$tmp/all.txt"
ok rate_form '[ "$(row 1 | cut -f5)" = 0 ] && [ "$(row 1 | cut -f12)" = 40 ] && [ -z "$(row 1 | cut -f6)" ]' "$tmp/all.txt"
ok host_full '[ "$(row 6 | cut -f2,5-11)" = "$(printf "0x00000101\t1\t40\t260\t240\t600\t98304\t0x02")" ] && [ -z "$(row 6 | cut -f12)" ]' "$tmp/all.txt"
ok host_reg_tagged '[ "$(row 7 | cut -f2,3,5-9)" = "$(printf "0x00000101\t0x0706050403020100\t2\t40\t260\t240\t")" ]' "$tmp/all.txt"
ok host_full_badlen '[ -z "$(row 8 | cut -f2)" ] && row 8 | grep -q "60 bytes by the IPv4 total length, want 92"' "$tmp/all.txt"
ok bad_code '[ -z "$(row 9 | cut -f2)" ] && row 9 | grep -q "code 7"' "$tmp/all.txt"
