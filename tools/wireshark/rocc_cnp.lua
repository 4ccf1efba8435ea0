-- rocc_cnp.lua -- Wireshark / tshark decoder for RoCC congestion
-- notifications (CNPs): ICMP type 253, code 0, 52 bytes, laid out as in
-- src/cc/rocc_cnp.h (CoNEXT 2020 §3.3 and §6.2).
--
--   tshark -X lua_script:tools/wireshark/rocc_cnp.lua -r cnp.pcapng -V
--   tshark -X lua_script:tools/wireshark/rocc_cnp.lua -r cnp.pcapng \
--          -T fields -e rocc_cnp.rate_mbps -e rocc_cnp.dest_qpn
--   wireshark: copy the file into ~/.local/lib/wireshark/plugins/
--
-- Wireshark's ICMP dissector has no per-type table to hook into, so this is
-- a post-dissector: after a frame is dissected it looks for ICMP type 253
-- and decodes the ICMP body (fair rate, CP identity and the quoted
-- IPv4/UDP/BTH headers that name the flow).  The fair rate travels in ΔF
-- units; the preference "Rate unit" converts it (10 Mb/s, §6, as our CP and
-- the DPDK switch's --f-unit-mbps default).
--
-- Filters: rocc_cnp, rocc_cnp.rate_units, rocc_cnp.rate_mbps, rocc_cnp.cp_id,
-- rocc_cnp.flow_src, rocc_cnp.flow_dst, rocc_cnp.flow_sport,
-- rocc_cnp.flow_dport, rocc_cnp.dest_qpn, rocc_cnp.psn, rocc_cnp.tag,
-- and for the host forms (RoCC §3.6): rocc_cnp.form, rocc_cnp.f_in,
-- rocc_cnp.q_cur, rocc_cnp.q_old, rocc_cnp.q_ref, rocc_cnp.q_mid,
-- rocc_cnp.q_max, rocc_cnp.f_min, rocc_cnp.f_max, rocc_cnp.alpha_q16,
-- rocc_cnp.beta_q16, rocc_cnp.flags.
--
-- Forms (ICMP code = form << 1 | tagged; src/cc/rocc_cnp.h): 0 RATE (52
-- bytes: the fair rate F), 1 HOST_FULL (92: F before the CP's update, Qcur,
-- Qold and the CP's parameters, for the host to compute F), 2 HOST_REG
-- (60: F before the update, Qcur, Qold; the parameters are in the host's
-- registry); each 8 bytes longer with the tag.
--
-- The CNP's length is what the outer IPv4 header says (total length minus
-- header length), never what is left of the frame: Ethernet pads short
-- frames to 60 bytes and a capture may hold trailing bytes, so the frame
-- length would let padding pass for CNP fields.  A CNP shorter than its
-- code's length gets an expert error (rocc_cnp.short) instead of fields;
-- one of another length than its code's (52/60, 92/100, 60/68; the tag is
-- src/cc/rocc_cnpauth.h's SipHash) gets rocc_cnp.badlen, and a code above
-- 5 rocc_cnp.badcode, as the data plane drops them.

local CNP_TYPE = 253     -- RFC 4727 experimental type used by §6.2's prototype
local CNP_BYTES = 52     -- 8 ICMP header + 4 CP id + 20 IPv4 + 8 UDP + 12 BTH
local TAG_BYTES = 8      -- authenticated CNP (odd code): + 8-byte SipHash-2-4 tag
-- ICMP bytes of each form without the tag (form = code >> 1, rocc_cnp.h)
local FORM_BYTES = { [0] = 52, [1] = 92, [2] = 60 }
local FORM_NAMES = { [0] = "RATE", [1] = "HOST_FULL", [2] = "HOST_REG" }

local cnp = Proto("rocc_cnp", "RoCC Congestion Notification")

cnp.prefs.f_unit_mbps = Pref.uint("Rate unit (Mb/s)", 10,
    "Mb/s per unit of the fair-rate field (ΔF; CoNEXT 2020 §6 uses 10 Mb/s)")

local pf = {
    rate_units = ProtoField.uint32("rocc_cnp.rate_units", "Fair rate (ΔF units)", base.DEC),
    rate_mbps  = ProtoField.uint64("rocc_cnp.rate_mbps", "Fair rate (Mb/s)", base.DEC),
    cp_id      = ProtoField.uint32("rocc_cnp.cp_id", "CP identity", base.HEX),
    flow_src   = ProtoField.ipv4("rocc_cnp.flow_src", "Flow source (the rate-limited sender)"),
    flow_dst   = ProtoField.ipv4("rocc_cnp.flow_dst", "Flow destination"),
    flow_sport = ProtoField.uint16("rocc_cnp.flow_sport", "Flow UDP source port", base.DEC),
    flow_dport = ProtoField.uint16("rocc_cnp.flow_dport", "Flow UDP destination port", base.DEC),
    dest_qpn   = ProtoField.uint24("rocc_cnp.dest_qpn", "Flow destination QP", base.DEC),
    psn        = ProtoField.uint24("rocc_cnp.psn", "Quoted PSN", base.DEC),
    tag        = ProtoField.uint64("rocc_cnp.tag", "SipHash-2-4 tag (little-endian)", base.HEX),
    form       = ProtoField.uint8("rocc_cnp.form", "Form (code >> 1)", base.DEC, FORM_NAMES),
    f_in       = ProtoField.uint32("rocc_cnp.f_in", "F before the CP's update (ΔF units)", base.DEC),
    q_cur      = ProtoField.uint32("rocc_cnp.q_cur", "Qcur (ΔQ units)", base.DEC),
    q_old      = ProtoField.uint32("rocc_cnp.q_old", "Qold (ΔQ units)", base.DEC),
    q_ref      = ProtoField.uint32("rocc_cnp.q_ref", "Qref (ΔQ units)", base.DEC),
    q_mid      = ProtoField.uint32("rocc_cnp.q_mid", "Qmid (ΔQ units)", base.DEC),
    q_max      = ProtoField.uint32("rocc_cnp.q_max", "Qmax (ΔQ units)", base.DEC),
    f_min      = ProtoField.uint32("rocc_cnp.f_min", "Fmin (ΔF units)", base.DEC),
    f_max      = ProtoField.uint32("rocc_cnp.f_max", "Fmax (ΔF units)", base.DEC),
    alpha_q16  = ProtoField.uint32("rocc_cnp.alpha_q16", "alpha~ (Q16.16)", base.DEC),
    beta_q16   = ProtoField.uint32("rocc_cnp.beta_q16", "beta~ (Q16.16)", base.DEC),
    flags      = ProtoField.uint8("rocc_cnp.flags", "Flags (1 pi_round authors, 2 md_qmax half)", base.HEX),
}
cnp.fields = { pf.rate_units, pf.rate_mbps, pf.cp_id, pf.flow_src, pf.flow_dst,
               pf.flow_sport, pf.flow_dport, pf.dest_qpn, pf.psn, pf.tag, pf.form, pf.f_in,
               pf.q_cur, pf.q_old, pf.q_ref, pf.q_mid, pf.q_max, pf.f_min, pf.f_max,
               pf.alpha_q16, pf.beta_q16, pf.flags }

local ef_short = ProtoExpert.new("rocc_cnp.short", "RoCC CNP shorter than 52 bytes",
                                 expert.group.MALFORMED, expert.severity.ERROR)
local ef_badlen = ProtoExpert.new("rocc_cnp.badlen", "RoCC CNP of the wrong length for its code",
                                  expert.group.MALFORMED, expert.severity.ERROR)
local ef_badcode = ProtoExpert.new("rocc_cnp.badcode", "RoCC CNP with an unknown code (not 0..5)",
                                   expert.group.MALFORMED, expert.severity.ERROR)
cnp.experts = { ef_short, ef_badlen, ef_badcode }

local f_icmp = Field.new("icmp")
local f_icmp_type = Field.new("icmp.type")
local f_icmp_code = Field.new("icmp.code")
local f_ip_len = Field.new("ip.len")
local f_ip_hdr_len = Field.new("ip.hdr_len")

function cnp.dissector(tvb, pinfo, tree)
    local ty = f_icmp_type()
    if not ty or ty.value ~= CNP_TYPE then return end
    local off = f_icmp().offset
    -- The outer IPv4 header comes first (quoted headers inside ICMP come later).
    local ip_len, ip_hdr = f_ip_len(), f_ip_hdr_len()
    if not ip_len or not ip_hdr then return end
    local icmp_len = ip_len.value - ip_hdr.value
    local captured = tvb:len() - off
    local shown = math.max(0, math.min(icmp_len, captured))
    local code = f_icmp_code()
    local cv = code and code.value or 0
    local form, tagged = math.floor(cv / 2), cv % 2 == 1
    if not FORM_BYTES[form] then
        local t = shown > 0 and tree:add(cnp, tvb(off, shown)) or tree:add(cnp)
        t:add_proto_expert_info(ef_badcode, string.format("code %d", cv))
        return
    end
    local plain = FORM_BYTES[form]
    local want = plain + (tagged and TAG_BYTES or 0)
    if icmp_len < CNP_BYTES or captured < want then
        local t = shown > 0 and tree:add(cnp, tvb(off, shown)) or tree:add(cnp)
        t:add_proto_expert_info(ef_short, string.format("%d bytes by the IPv4 total length (%d captured), want %d",
            icmp_len, captured, want))
        return
    end
    if icmp_len ~= want then
        local t = shown > 0 and tree:add(cnp, tvb(off, shown)) or tree:add(cnp)
        t:add_proto_expert_info(ef_badlen, string.format("%d bytes by the IPv4 total length, want %d",
            icmp_len, want))
        return
    end

    local units = tvb(off + 4, 4):uint()
    local mbps = UInt64(units) * cnp.prefs.f_unit_mbps
    local t = tree:add(cnp, tvb(off, want))
    t:add(pf.form, tvb(off + 1, 1), form):set_generated()
    if form == 0 then
        t:add(pf.rate_units, tvb(off + 4, 4))
        t:add(pf.rate_mbps, tvb(off + 4, 4), mbps):set_generated()
    else
        t:add(pf.f_in, tvb(off + 4, 4))
    end
    t:add(pf.cp_id, tvb(off + 8, 4))
    -- quoted IPv4 header at off+12 (src at +12, dst at +16 within it)
    t:add(pf.flow_src, tvb(off + 24, 4))
    t:add(pf.flow_dst, tvb(off + 28, 4))
    -- quoted UDP header at off+32
    t:add(pf.flow_sport, tvb(off + 32, 2))
    t:add(pf.flow_dport, tvb(off + 34, 2))
    -- quoted BTH at off+40: dest QP in bytes 5..7, PSN in bytes 9..11
    t:add(pf.dest_qpn, tvb(off + 45, 3))
    t:add(pf.psn, tvb(off + 49, 3))
    -- host forms (§3.6): Alg. 1's inputs from offset 52, HOST_FULL's parameters after them
    if form ~= 0 then
        t:add(pf.q_cur, tvb(off + 52, 4))
        t:add(pf.q_old, tvb(off + 56, 4))
    end
    if form == 1 then
        t:add(pf.q_ref, tvb(off + 60, 4))
        t:add(pf.q_mid, tvb(off + 64, 4))
        t:add(pf.q_max, tvb(off + 68, 4))
        t:add(pf.f_min, tvb(off + 72, 4))
        t:add(pf.f_max, tvb(off + 76, 4))
        t:add(pf.alpha_q16, tvb(off + 80, 4))
        t:add(pf.beta_q16, tvb(off + 84, 4))
        t:add(pf.flags, tvb(off + 88, 1))
    end
    if tagged then t:add_le(pf.tag, tvb(off + plain, TAG_BYTES)) end

    pinfo.cols.protocol = "RoCC CNP"
    if form == 0 then
        pinfo.cols.info = string.format("RoCC CNP: F = %s Mb/s to %s:%d QP %d (CP 0x%08x)",
            tostring(mbps), tostring(tvb(off + 24, 4):ipv4()), tvb(off + 32, 2):uint(),
            tvb(off + 45, 3):uint(), tvb(off + 8, 4):uint())
    else
        pinfo.cols.info = string.format("RoCC CNP %s: F_in = %d, Qcur = %d, Qold = %d to %s:%d QP %d (CP 0x%08x)",
            FORM_NAMES[form], units, tvb(off + 52, 4):uint(), tvb(off + 56, 4):uint(),
            tostring(tvb(off + 24, 4):ipv4()), tvb(off + 32, 2):uint(), tvb(off + 45, 3):uint(),
            tvb(off + 8, 4):uint())
    end
end

register_postdissector(cnp)

-- ---------------------------------------------------------------------------
-- Escape (dissertation ch. 4; src/cc/escape.h, docs/escape.md): in an Escape
-- run every RoCEv2 frame carries a 2-byte header (hops, big endian) between
-- the UDP header and the BTH, and tokens travel as MAC control frames with
-- opcode 0x0102 (ETF: the flow's 5-tuple and hops).  Nothing in a frame says
-- whether the header is there, so it is a preference, off by default:
--
--   tshark -X lua_script:tools/wireshark/rocc_cnp.lua -o rocc_esc.header:TRUE -r run.pcap
--
-- With it on, UDP port 4791 goes through this dissector, which shows the
-- hops and hands the rest to Wireshark's InfiniBand (RoCEv2) dissector; off,
-- it hands over the whole payload unchanged.  ETFs are decoded either way.

local esc = Proto("rocc_esc", "Escape header")
esc.prefs.header = Pref.bool("Escape header present", false,
    "RoCEv2 frames carry Escape's 2-byte hops header before the BTH (an Escape run)")
local pf_esc_hops = ProtoField.uint16("rocc_esc.hops", "Escape hops", base.DEC)
esc.fields = { pf_esc_hops }
-- the RoCEv2 handle UDP 4791 had (Wireshark's InfiniBand dissector in its
-- RoCEv2 role: BTH first, no LRH/GRH)
local ib = DissectorTable.get("udp.port"):get_dissector(4791)

function esc.dissector(tvb, pinfo, tree)
    if not esc.prefs.header then
        return ib:call(tvb, pinfo, tree)
    end
    if tvb:len() < 2 then return 0 end
    local t = tree:add(esc, tvb(0, 2))
    t:add(pf_esc_hops, tvb(0, 2))
    ib:call(tvb(2):tvb(), pinfo, tree)
    return tvb:len()
end
DissectorTable.get("udp.port"):add(4791, esc)

local etf = Proto("rocc_etf", "Escape token frame (ETF)")
local pf_etf = {
    src  = ProtoField.ipv4("rocc_etf.flow_src", "Flow source"),
    dst  = ProtoField.ipv4("rocc_etf.flow_dst", "Flow destination"),
    sport = ProtoField.uint16("rocc_etf.flow_sport", "Flow UDP source port", base.DEC),
    dport = ProtoField.uint16("rocc_etf.flow_dport", "Flow UDP destination port", base.DEC),
    proto = ProtoField.uint8("rocc_etf.flow_proto", "Flow protocol", base.DEC),
    hops = ProtoField.uint16("rocc_etf.hops", "Hops", base.DEC),
}
etf.fields = { pf_etf.src, pf_etf.dst, pf_etf.sport, pf_etf.dport, pf_etf.proto, pf_etf.hops }
local f_eth_type = Field.new("eth.type")

function etf.dissector(tvb, pinfo, tree)
    local ty = f_eth_type()
    if not ty or ty.value ~= 0x8808 or tvb:len() < 31 or tvb(14, 2):uint() ~= 0x0102 then return end
    local t = tree:add(etf, tvb(14, 17))
    t:add(pf_etf.src, tvb(16, 4))
    t:add(pf_etf.dst, tvb(20, 4))
    t:add(pf_etf.sport, tvb(24, 2))
    t:add(pf_etf.dport, tvb(26, 2))
    t:add(pf_etf.proto, tvb(28, 1))
    t:add(pf_etf.hops, tvb(29, 2))
    pinfo.cols.protocol = "Escape ETF"
    pinfo.cols.info = string.format("Escape token: flow %s:%d -> %s, hops %d", tostring(tvb(16, 4):ipv4()),
        tvb(24, 2):uint(), tostring(tvb(20, 4):ipv4()), tvb(29, 2):uint())
end
register_postdissector(etf)


-- HPCC*'s direct INT (LSCC paper §III-D; src/engine/pcapout.c, docs/pcap.md):
-- a RoCEv2 CNP (BTH opcode 0x81, UDP 4791) from the local egress switch to
-- the flow's source, 16 reserved bytes, HPCC's 42-byte INT record (5 hop
-- slots of 8 bytes: line-rate index 3 bits, time in ns 24 bits, tx bytes /
-- 128 20 bits, queue / 80 17 bits; then the hop count, 16 bits) whose last
-- hop is the long-haul one (its queue is Q*), then B, the feedback rate, in
-- 24 bits (Mb/s).  UDP length 85 tells it from a plain CNP (40).  A direct
-- INT with no hop, more than 5, or B = 0 is one a source refuses: it gets
-- the expert warning hpcc_dint.malformed.
-- Filters: hpcc_dint, hpcc_dint.nhop, hpcc_dint.b_mbps, hpcc_dint.qstar,
-- hpcc_dint.hop_rate_gbps, hpcc_dint.hop_ts_ns, hpcc_dint.hop_tx_bytes,
-- hpcc_dint.hop_qlen.
local dint = Proto("hpcc_dint", "HPCC* direct INT")
local DINT_UDP_LEN = 8 + 12 + 16 + 42 + 3 + 4      -- UDP, BTH, reserved, INT, B, ICRC
local DINT_BODY = 12 + 16 + 42 + 3                 -- BTH .. B
local DINT_RATES = { [0] = 10, 25, 40, 50, 100, 200, 400 }
local dpf = {
    nhop  = ProtoField.uint16("hpcc_dint.nhop", "INT hops", base.DEC),
    b     = ProtoField.uint24("hpcc_dint.b_mbps", "B, the feedback rate (Mb/s)", base.DEC),
    qstar = ProtoField.uint32("hpcc_dint.qstar", "Q*, the pseudo-queue (bytes, 80 B units)", base.DEC),
    rate  = ProtoField.uint16("hpcc_dint.hop_rate_gbps", "Line rate (Gb/s, 0 = other)", base.DEC),
    ts    = ProtoField.uint32("hpcc_dint.hop_ts_ns", "Time (ns, 24 bits)", base.DEC),
    tx    = ProtoField.uint32("hpcc_dint.hop_tx_bytes", "Tx bytes (128 B units, 20 bits)", base.DEC),
    q     = ProtoField.uint32("hpcc_dint.hop_qlen", "Queue (bytes, 80 B units, 17 bits)", base.DEC),
}
dint.fields = { dpf.nhop, dpf.b, dpf.qstar, dpf.rate, dpf.ts, dpf.tx, dpf.q }
local ef_dint_bad = ProtoExpert.new("hpcc_dint.malformed", "Malformed direct INT (a source refuses it)",
    expert.group.MALFORMED, expert.severity.WARN)
dint.experts = { ef_dint_bad }
local f_udp, f_udp_dport, f_udp_len = Field.new("udp"), Field.new("udp.dstport"), Field.new("udp.length")

function dint.dissector(tvb, pinfo, tree)
    local dp, ul, u = f_udp_dport(), f_udp_len(), f_udp()
    if not dp or dp.value ~= 4791 or not ul or ul.value ~= DINT_UDP_LEN or not u then return end
    local off = u.offset + 8
    if tvb:len() < off + DINT_BODY or tvb(off, 1):uint() ~= 0x81 then return end
    local io = off + 12 + 16
    local nh, b = tvb(io + 40, 2):uint(), tvb(io + 42, 3):uint()
    local t = tree:add(dint, tvb(off, DINT_BODY))
    t:add(dpf.nhop, tvb(io + 40, 2))
    t:add(dpf.b, tvb(io + 42, 3))
    local qstar = nil
    for h = 0, math.min(nh, 5) - 1 do
        local hi, lo = tvb(io + h * 8, 4):uint(), tvb(io + h * 8 + 4, 4):uint()
        local idx = math.floor(hi / 2^29)
        local ts = math.floor((hi % 2^29) / 2^5)
        local tx = ((hi % 32) * 2^15 + math.floor(lo / 2^17)) * 128
        local q = (lo % 2^17) * 80
        local last = h == nh - 1
        local ht = t:add(tvb(io + h * 8, 8), string.format("Hop %d%s: %s, t = %d ns, tx = %d B, queue = %d B",
            h, last and " (long-haul: Q*)" or "", DINT_RATES[idx] and (DINT_RATES[idx] .. " Gb/s") or "other rate",
            ts, tx, q))
        ht:add(dpf.rate, tvb(io + h * 8, 1), DINT_RATES[idx] or 0)
        ht:add(dpf.ts, tvb(io + h * 8, 4), ts)
        ht:add(dpf.tx, tvb(io + h * 8 + 3, 3), tx)
        ht:add(dpf.q, tvb(io + h * 8 + 5, 3), q)
        if last then
            qstar = q
            t:add(dpf.qstar, tvb(io + h * 8 + 5, 3), q):set_generated()
        end
    end
    if nh == 0 or nh > 5 or b == 0 then
        t:add_proto_expert_info(ef_dint_bad, string.format("nhop %d, B %d", nh, b))
    end
    pinfo.cols.protocol = "HPCC* DINT"
    pinfo.cols.info = string.format("HPCC* direct INT: B = %d Mb/s, Q* = %s B, %d hops, QP %d", b,
        qstar and tostring(qstar) or "-", nh, tvb(off + 5, 3):uint())
end

register_postdissector(dint)


-- LSCC's feedback frame (src/cc/lscc_fb.h; rocc-switch --lscc and roccsim's
-- pcap output): 60 bytes to 01:80:C2:00:00:0E, EtherType 0x88B6, 'L' 'S',
-- version 2, type 1 (untagged) or 2 (SipHash-2-4 tag at 36), 2 reserved
-- bytes, R in ΔF units (32 bits), the sequence number (32), the epoch (64).
-- The preference "Rate unit (b/s)" is ΔF (1 Mb/s: roccsim's default and
-- rocc-switch's at 200 Gb/s; rocc-switch prints its f_unit_bps, and
-- --lscc-f-unit-bps sets it; docs/crossdc.md).  A frame rocc-switch refuses at parsing (not
-- 60 bytes, wrong magic, version, type or reserved bytes, R above 2^24 - 1
-- units, padding or an untagged frame's tag field not zero) gets the expert
-- warning lscc_fb.malformed; the tag itself needs the key, so it is shown,
-- not checked.
-- Filters: lscc_fb, lscc_fb.version, lscc_fb.type, lscc_fb.units,
-- lscc_fb.rate_mbps, lscc_fb.seq, lscc_fb.epoch, lscc_fb.tag.
local lfb = Proto("lscc_fb", "LSCC feedback")
lfb.prefs.f_unit_bps = Pref.uint("Rate unit (b/s)", 1000000, "LSCC's feedback unit, ΔF (rocc-switch --lscc-f-unit-bps)")
local lpf = {
    version = ProtoField.uint8("lscc_fb.version", "Version", base.DEC),
    type    = ProtoField.uint8("lscc_fb.type", "Type (1 untagged, 2 tagged)", base.DEC),
    units   = ProtoField.uint32("lscc_fb.units", "R (ΔF units)", base.DEC),
    rate    = ProtoField.double("lscc_fb.rate_mbps", "R (Mb/s)"),
    seq     = ProtoField.uint32("lscc_fb.seq", "Sequence number", base.DEC),
    epoch   = ProtoField.uint64("lscc_fb.epoch", "Epoch", base.DEC),
    tag     = ProtoField.bytes("lscc_fb.tag", "Tag (SipHash-2-4)"),
}
lfb.fields = { lpf.version, lpf.type, lpf.units, lpf.rate, lpf.seq, lpf.epoch, lpf.tag }
local ef_lfb_bad = ProtoExpert.new("lscc_fb.malformed", "Malformed LSCC feedback (rocc-switch refuses it)",
    expert.group.MALFORMED, expert.severity.WARN)
lfb.experts = { ef_lfb_bad }

local function lfb_zero(tvb, from, to)
    for i = from, to - 1 do
        if tvb(i, 1):uint() ~= 0 then return false end
    end
    return true
end

function lfb.dissector(tvb, pinfo, tree)
    local ty = f_eth_type()
    if not ty or ty.value ~= 0x88b6 or tvb:len() < 44 then return end
    local t = tree:add(lfb, tvb(14, math.min(tvb:len(), 60) - 14))
    local ver, typ, units = tvb(16, 1):uint(), tvb(17, 1):uint(), tvb(20, 4):uint()
    t:add(lpf.version, tvb(16, 1))
    t:add(lpf.type, tvb(17, 1))
    t:add(lpf.units, tvb(20, 4))
    local mbps = units * lfb.prefs.f_unit_bps / 1e6
    t:add(lpf.rate, tvb(20, 4), mbps):set_generated()
    t:add(lpf.seq, tvb(24, 4))
    t:add(lpf.epoch, tvb(28, 8))
    if typ == 2 then t:add(lpf.tag, tvb(36, 8)) end
    local why = nil
    if tvb:len() ~= 60 then why = "length " .. tvb:len()
    elseif tvb(14, 2):string() ~= "LS" or ver ~= 2 or (typ ~= 1 and typ ~= 2) or tvb(18, 2):uint() ~= 0 then
        why = "magic, version, type or reserved"
    elseif units >= 2^24 then why = "R above 2^24 - 1 units"
    elseif not lfb_zero(tvb, typ == 2 and 44 or 36, 60) then why = "padding not zero"
    end
    if why then t:add_proto_expert_info(ef_lfb_bad, why) end
    pinfo.cols.protocol = "LSCC"
    pinfo.cols.info = string.format("LSCC feedback: R = %.3f Mb/s, seq %d, epoch %s%s",
        mbps, tvb(24, 4):uint(), tostring(tvb(28, 8):uint64()),
        typ == 2 and ", tagged" or "")
end
register_postdissector(lfb)
