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
-- rocc_cnp.flow_dport, rocc_cnp.dest_qpn, rocc_cnp.psn, rocc_cnp.tag.
--
-- The CNP's length is what the outer IPv4 header says (total length minus
-- header length), never what is left of the frame: Ethernet pads short
-- frames to 60 bytes and a capture may hold trailing bytes, so the frame
-- length would let padding pass for CNP fields.  A CNP shorter than 52 bytes
-- gets an expert error (rocc_cnp.short) instead of fields; one of another
-- length than 52 (code 0) or 60 (code 1, with the SipHash tag of
-- src/cc/rocc_cnpauth.h) gets rocc_cnp.badlen, as the data plane drops it.

local CNP_TYPE = 253     -- RFC 4727 experimental type used by §6.2's prototype
local CNP_BYTES = 52     -- 8 ICMP header + 4 CP id + 20 IPv4 + 8 UDP + 12 BTH
local AUTH_CODE = 1      -- authenticated CNP: the 52 bytes + 8-byte SipHash-2-4 tag
local AUTH_BYTES = 60

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
}
cnp.fields = { pf.rate_units, pf.rate_mbps, pf.cp_id, pf.flow_src, pf.flow_dst,
               pf.flow_sport, pf.flow_dport, pf.dest_qpn, pf.psn, pf.tag }

local ef_short = ProtoExpert.new("rocc_cnp.short", "RoCC CNP shorter than 52 bytes",
                                 expert.group.MALFORMED, expert.severity.ERROR)
local ef_badlen = ProtoExpert.new("rocc_cnp.badlen", "RoCC CNP of the wrong length (not 52, or 60 with a tag)",
                                  expert.group.MALFORMED, expert.severity.ERROR)
cnp.experts = { ef_short, ef_badlen }

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
    local want = (code and code.value == AUTH_CODE) and AUTH_BYTES or CNP_BYTES
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
    t:add(pf.rate_units, tvb(off + 4, 4))
    t:add(pf.rate_mbps, tvb(off + 4, 4), mbps):set_generated()
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
    if want == AUTH_BYTES then t:add_le(pf.tag, tvb(off + CNP_BYTES, 8)) end

    pinfo.cols.protocol = "RoCC CNP"
    pinfo.cols.info = string.format("RoCC CNP: F = %s Mb/s to %s:%d QP %d (CP 0x%08x)",
        tostring(mbps), tostring(tvb(off + 24, 4):ipv4()), tvb(off + 32, 2):uint(),
        tvb(off + 45, 3):uint(), tvb(off + 8, 4):uint())
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
