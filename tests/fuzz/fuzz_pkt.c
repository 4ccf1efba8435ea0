/* fuzz_pkt.c -- the data plane's frame parsers (dataplane/pkt.c), the trust
 * boundary of rocc-switch and rocc-host: any bytes as a frame through
 * pkt_parse, and what the programs do next with a frame it accepts
 * (rocc_cnp_decode on an ICMP payload, TTL decrement and ECN marking in
 * place, which must keep a valid IPv4 header checksum valid); pkt_parse_arp;
 * and the input as text through the address and number parsers of the
 * command lines (pkt_parse_ip, whose printed form must read back;
 * pkt_parse_prefix, whose network has no host bits; pkt_parse_mac;
 * pkt_parse_u64 and pkt_parse_dbl, see fuzz_numbers).  No DPDK needed.
 * PFC (802.1Qbb MAC control): any bytes through pkt_parse_pfc, which must
 * name a reason for every refusal and accept only 60-byte frames with a
 * class enabled; an accepted frame must survive a rebuild unchanged and is
 * applied to the receiving side of src/cc/pfc.c (pauses only of enabled
 * classes, ending no earlier than they began); the input's bytes also drive
 * the sending side as add/sub events (counters never wrap, XOFF only for
 * lossless classes at the threshold).
 * Escape: any bytes through pkt_parse_etf (a reason for every refusal, an
 * accepted ETF is 60..64 bytes with hops >= 1 and re-encodes to the same
 * token) and into src/cc/escape.c's RECEIVE as rocc-switch calls it (a
 * token on a host port or an egress that is not paused does nothing; an
 * accepted token on each port of a 3-port switch: never crashes, T never
 * above the pool); pkt_parse_esc on the frame (hops rewritten in place
 * stays inside the frame).
 * OpenQueue classification (rocc-switch --openqueue, dataplane/sw_oqclass.c):
 * every accepted frame (pkt_parse and pkt_parse_esc) through dpoq_classify
 * under each value and processing mode (a finite value, 1 <= processing <=
 * DPOQ_MAX_PROCESSING, size = the frame's length, queue left to queueSelect);
 * pkt_ip4_set_dscp keeps a valid checksum valid and the ECN field; the input
 * as text through the four option parsers (a refusal always says why).
 * RoCC CNPs, all three forms (RATE, and §3.6's HOST_FULL / HOST_REG): the
 * input as an ICMP message, and the ICMP payload of an accepted IPv4 frame,
 * through rocc_cnp_check under four policies (none, host forms, host forms
 * + binding, host forms + key): an accepted CNP has the length of its
 * code, a known form, HOST_FULL parameters within the documented bounds;
 * it re-encodes (tagged when the policy has a key) into a CNP that passes
 * again with the same fields; the host's rate (rocc_hostcp_rate, a
 * two-CP registry) is within [Fmin, Fmax] of the parameters used, and
 * equals what rocc_cp_compute gives for them.
 * RCC (rocc-host --cc rcc|rcc_sender): every frame pkt_parse or
 * pkt_parse_esc accepts through pkt_parse_rcc_data and pkt_parse_rcc_ack:
 * a reason for every refusal; an accepted ACK has its exact length, a
 * known type and a window >= 1, and rebuilds byte for byte (pkt_build_rcc_ack
 * from the parsed fields and the frame's own addresses); an accepted data
 * extension reads back its fields after pkt_rcc_set_ts rewrote the time.
 * LSCC (rocc-switch --lscc): any bytes through lscc_fb_parse (src/cc/
 * lscc_fb.c) without a key and with one, which must name a reason for every
 * refusal (only OK..TAG: the rest are the receiver's) and accept only
 * 60-byte frames to 01:80:C2:00:00:0E of EtherType 0x88B6 with units within
 * 24 bits; with the key, only a tagged frame whose tag is the key's; an
 * accepted frame rebuilds byte for byte (untagged without a key, tagged
 * with it); its (epoch, seq) through lscc_fb_rx_accept after a reference
 * pair taken from the input moves the reference only forward (or, with the
 * resync rule, after LSCC_FB_RESYNC increasing refusals); its rate fed to
 * src/cc/lscc_rl.c's pseudo-queue stays within LSCC_RATE_LIMIT_BPS.  A RoCEv2 frame with BTH opcode 0x81 through
 * pkt_roce_cnp_ok: an accepted CNP is 74 bytes and rebuilds (same
 * addresses, port and QP) byte for byte but for the IPv4 header (ToS, id,
 * flags, TTL, checksum: not checked). */
#include <math.h>

#include "pkt.h"
#include "sw_oqclass.h"
#include "pfc.h"
#include "lscc.h"
#include "lscc_fb.h"
#include "fuzz.h"
#include "rocc_cnpauth.h"
#include "rocc_hostcp.h"

/* What every accepted CNP must satisfy (see the header comment). */
static void fuzz_cnp_one(const struct rocc_cnp_policy *pol, uint32_t src, uint32_t dst,
                         const uint8_t *icmp, size_t len, const struct rocc_hostreg *reg)
{
    struct rocc_cnp c, again;
    uint8_t b[ROCC_CNP_MAX_ICMP_BYTES];
    uint32_t rate = 0;
    struct rocc_cp_params p;

    if (rocc_cnp_check(pol, src, dst, icmp, len, &c) != ROCC_CNP_OK) return;
    if (c.form >= ROCC_CNP_N_FORMS || c.form != icmp[1] >> 1) abort();
    if (len != rocc_cnp_form_bytes(c.form, icmp[1] & 1)) abort();
    if (c.form != ROCC_CNP_FORM_RATE && !(pol->forms & (1u << c.form))) abort();
    if (c.form == ROCC_CNP_FORM_HOST_FULL) {
        if (!(c.q_ref > 0 && c.q_ref < c.q_mid && c.q_mid < c.q_max)) abort();
        if (!(c.f_min > 0 && c.f_min <= c.rate_units && c.rate_units <= c.f_max && c.f_max <= INT32_MAX)) abort();
        if (c.alpha_q16 > ROCC_CP_MAX_GAIN_Q16 || c.beta_q16 > ROCC_CP_MAX_GAIN_Q16) abort();
    }
    size_t n = rocc_cnp_encode_form(&c, pol->key, src, dst, b, sizeof b);
    if (n == 0 || rocc_cnp_check(pol, src, dst, b, n, &again) != ROCC_CNP_OK) abort();
    if (again.form != c.form || again.rate_units != c.rate_units || again.cp_id != c.cp_id ||
        again.q_cur != c.q_cur || again.q_old != c.q_old || again.q_max != c.q_max ||
        again.beta_q16 != c.beta_q16 || again.hflags != c.hflags || again.dest_qpn != c.dest_qpn) abort();
    if (rocc_hostcp_rate(reg, &c, &rate, NULL) != 0) return;
    if (c.form == ROCC_CNP_FORM_RATE) {
        if (rate != c.rate_units) abort();
        return;
    }
    if (c.form == ROCC_CNP_FORM_HOST_FULL) rocc_hostcp_get_params(&c, &p);
    else p = *rocc_hostreg_find(reg, c.cp_id);
    if (rate < p.f_min || rate > p.f_max) abort();
    if (rate != rocc_cp_compute(&p, (int32_t)c.rate_units, c.q_cur, c.q_old, NULL)) abort();
}

static void fuzz_cnp(const uint8_t *icmp, size_t len, uint32_t src, uint32_t dst)
{
    static const uint8_t key[ROCC_CNP_KEY_BYTES] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    static const struct rocc_cp_bind bind[1] = {{.node = 1, .addr = 0x0a630001u}};
    const struct rocc_cnp_policy pols[4] = {
        {0}, {.forms = ROCC_CNP_FORMS_HOST},
        {.forms = ROCC_CNP_FORMS_HOST, .bind = bind, .nbind = 1},
        {.forms = ROCC_CNP_FORMS_HOST, .key = key},
    };
    struct rocc_hostreg_entry ent[2];
    struct rocc_cp_params prof[2], p40, p100;
    struct rocc_hostreg reg;

    rocc_cp_params_default(&p40, 40000000000ull);
    rocc_cp_params_default(&p100, 100000000000ull);
    rocc_hostreg_init(&reg, ent, 2, prof, 2);
    if (rocc_hostreg_add(&reg, 0x103, &p40, NULL, 0) || rocc_hostreg_add(&reg, 0x101, &p100, NULL, 0)) abort();
    rocc_hostreg_seal(&reg);
    for (int i = 0; i < 4; i++)
        fuzz_cnp_one(&pols[i], src, dst, icmp, len, &reg);
}

static void fuzz_pfc(const uint8_t *data, size_t size)
{
    struct pkt_pfc pf, again;
    uint8_t b[PKT_PFC_FRAME_LEN];
    int r = pkt_parse_pfc(data, size, &pf);

    if (r < 0 || r >= PKT_PFC_NRESULTS || r == PKT_PFC_ENEIGH) abort();
    if (!strcmp(pkt_pfc_strerror(r), "unknown")) abort();
    if (r == PKT_PFC_OK) {
        struct pfc_egress e;
        uint64_t qps = 1 + (data[18] | (uint64_t)data[19] << 8), now = data[20];
        unsigned ev;
        if (size != PKT_PFC_FRAME_LEN || pf.vec == 0) abort();
        if (pkt_build_pfc(b, sizeof b, pf.src, pf.vec, pf.quanta) != PKT_PFC_FRAME_LEN) abort();
        if (pkt_parse_pfc(b, sizeof b, &again) != PKT_PFC_OK || again.vec != pf.vec ||
            memcmp(again.src, pf.src, 6)) abort();
        for (unsigned c = 0; c < 8; c++)
            if ((pf.vec & (1u << c)) && again.quanta[c] != pf.quanta[c]) abort();
        pfc_egress_init(&e);
        ev = pfc_egress_frame(&e, pf.vec, pf.quanta, qps, now);
        if ((ev & 0xff) & ~(unsigned)pf.vec) abort();
        if (e.paused & ~pf.vec) abort();
        if (pfc_egress_next(&e) != UINT64_MAX && pfc_egress_next(&e) < now) abort();
        (void)pfc_egress_paused(&e, UINT64_MAX);
        if (e.paused) abort();
    }
    /* Sending side: each input byte is an event (class, add or sub, size). */
    {
        struct pfc_params p;
        struct pfc_ingress g;
        uint64_t now = 0;
        pfc_params_default(&p, 1000000000ull);
        p.xoff_bytes = 3000;
        p.xon_bytes = 1000;
        p.quanta = 100;
        p.lossless_mask = size ? data[0] : 0xff;
        pfc_ingress_init(&g);
        for (size_t i = 1; i < size; i++) {
            unsigned cls = data[i] & 7, bit = 1u << cls;
            uint32_t len = 64u * ((data[i] >> 4) + 1);
            uint8_t before = g.xoff;
            if (data[i] & 8) {
                if (pfc_ingress_add(&g, &p, cls, len)) {
                    if (!(p.lossless_mask & bit) || g.bytes[cls] < p.xoff_bytes || (before & bit)) abort();
                    pfc_ingress_sent(&g, &p, (uint8_t)bit, now);
                }
            } else if (pfc_ingress_sub(&g, &p, cls, len)) {
                if (g.bytes[cls] >= p.xon_bytes || !(before & bit)) abort();
            }
            if (g.bytes[cls] > 16u * 1024 * size) abort();   /* a wrapped counter */
            if (g.xoff & ~p.lossless_mask) abort();
            now += 10000000;
            (void)pfc_ingress_due(&g, now);
        }
    }
}

static void fuzz_lscc(const uint8_t *data, size_t size)
{
    static const uint8_t key[LSCC_FB_KEY_BYTES] = {0x6c, 0x73, 0x63, 0x63, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    uint8_t b[PKT_LSCC_FB_LEN];
    struct lscc_fb fb, fk;
    int r = lscc_fb_parse(NULL, data, size, &fb);
    int rk = lscc_fb_parse(key, data, size, &fk);
    struct pkt_info pi;

    if (r < 0 || r > LSCC_FB_ESRC || rk < 0 || rk > LSCC_FB_ETAG) abort();
    if (!strcmp(lscc_fb_strerror(r), "unknown") || !strcmp(pkt_lscc_strerror(rk), "unknown")) abort();
    if (rk == LSCC_FB_OK && (r != LSCC_FB_OK || !fk.tagged)) abort();     /* the key only adds a check */
    if (r != LSCC_FB_OK && rk != r) abort();                              /* the same first reason */
    if (r == LSCC_FB_OK) {
        struct lscc_rl_params p;
        struct lscc_rl rl;
        struct lscc_fb_rx rx;
        static struct lscc_rl_entry slots[64];
        if (size != PKT_LSCC_FB_LEN || fb.units > LSCC_FB_MAX || (fb.src[0] & 1)) abort();
        if (lscc_fb_encode(&fb, fb.tagged ? key : NULL, b, sizeof b) != PKT_LSCC_FB_LEN) abort();
        /* Untagged frames rebuild exactly; tagged ones do when the tag is the key's. */
        if ((!fb.tagged || rk == LSCC_FB_OK) && memcmp(b, data, size)) abort();
        if (fb.tagged && rk != LSCC_FB_OK && !memcmp(b, data, size)) abort();
        /* Freshness: a reference from the frame's padding-free bytes 2..13. */
        for (int resync = 0; resync <= 1; resync++) {
            uint64_t e0 = (uint64_t)data[2] << 24 | (uint64_t)data[3] << 16 | data[4] << 8 | data[5];
            uint32_t s0 = (uint32_t)data[8] << 8 | data[9];
            int a, newer;
            lscc_fb_rx_init(&rx, resync);
            if (lscc_fb_rx_accept(&rx, e0, s0) != LSCC_FB_OK) abort();    /* the first is taken */
            newer = fb.epoch > e0 || (fb.epoch == e0 && fb.seq > s0);
            a = lscc_fb_rx_accept(&rx, fb.epoch, fb.seq);
            if ((a == LSCC_FB_OK) != newer) abort();                     /* one refusal: no resync yet */
            if (a != LSCC_FB_OK && (rx.epoch != e0 || rx.seq != s0)) abort();
            if (a == LSCC_FB_EEPOCH && fb.epoch >= e0) abort();
            if (a == LSCC_FB_ESEQ && (fb.epoch != e0 || fb.seq > s0)) abort();
        }
        lscc_rl_params_default(&p, 300000000ull, 10000000000ull, 2000000000ull);
        p.capacity = 64;
        lscc_rl_init(&rl, &p, slots, 0);
        lscc_rl_input(&rl, 1, 60000);
        lscc_rl_on_feedback(&rl, 2, lscc_units_to_rate(fb.units, (uint64_t)(data[20] | 1) << 20));
        if (rl.rate_bps > LSCC_RATE_LIMIT_BPS || lscc_rl_qlen(&rl, 3000000000ull) > 60000) abort();
    }
    if (pkt_parse(data, size, &pi) == PKT_OK && pi.is_roce && pi.bth_opcode == 0x81 && pkt_roce_cnp_ok(data, size, &pi) == 0) {
        uint8_t c[PKT_ROCE_CNP_LEN];
        if (size != PKT_ROCE_CNP_LEN) abort();
        if (pkt_build_roce_cnp(c, sizeof c, data + 6, data, pi.src_ip, pi.dst_ip, pi.sport, pi.dest_qpn) !=
            PKT_ROCE_CNP_LEN) abort();
        /* Ethernet; IPv4 addresses; UDP ports and length; BTH opcode and
         * destination QP; the 16 reserved bytes (the fields a CNP is
         * checked and matched on) are the same in the rebuilt frame. */
        if (memcmp(c, data, PKT_ETH_LEN) || memcmp(c + 26, data + 26, 8) || memcmp(c + 34, data + 34, 6) ||
            c[42] != data[42] || memcmp(c + 47, data + 47, 3) || memcmp(c + 54, data + 54, 16)) abort();
    }
}

static void fuzz_etf(const uint8_t *data, size_t size)
{
    struct esc_token t, again;
    uint8_t src[6], b[ESC_ETF_BYTES_NOFCS];
    int r = pkt_parse_etf(data, size, src, &t);
    struct pkt_info pi;

    if (r < 0 || r >= PKT_ETF_NRESULTS || r > PKT_ETF_ESRC) abort();
    if (!strcmp(pkt_etf_strerror(r), "unknown-reason")) abort();
    if (r == PKT_ETF_OK) {
        struct esc_params p;
        static uint64_t mem[4096];
        struct escape e;
        struct esc_action a;
        if (size < ESC_ETF_BYTES_NOFCS || size > ESC_ETF_BYTES_NOFCS + 4 || t.hops == 0) abort();
        if (esc_etf_encode(&t, src, b, sizeof b) != ESC_ETF_BYTES_NOFCS) abort();
        if (esc_etf_decode(b, sizeof b, &again) != ESC_ETF_OK || !esc_fid_eq(&t.fid, &again.fid) ||
            again.hops != t.hops) abort();
        esc_params_default(&p, 3, 4, 1000000);
        p.max_hops = 3;
        if (esc_storage_bytes(&p) > sizeof mem || esc_init(&e, &p, mem, 0)) abort();
        esc_set_peer_escape(&e, 1, 1);
        esc_set_peer_escape(&e, 2, 1);
        esc_set_ingress_requested(&e, 2, 1);
        esc_on_frame(&e, 1, 2, &t.fid);
        int paused1 = (data[size - 1] & 2) != 0;      /* C11: tokens only on a paused egress */
        esc_set_egress_paused(&e, 1, paused1);
        esc_set_egress_paused(&e, 2, 1);
        for (uint16_t port = 0; port < 4; port++) {
            uint64_t extract = e.st.tok_extract;
            esc_receive(&e, port, &t, &a);
            if ((port == 0 || (port == 1 && !paused1)) && (a.kind != ESC_ACT_NONE || e.st.tok_extract != extract))
                abort();                              /* a host port (C2) or an open port (C11) */
            if (a.kind == ESC_ACT_EXTRACT) {
                if (a.port != port || a.hops != t.hops) abort();
                if (data[size - 1] & 1) esc_extracted(&e, port);
                else esc_receive_missed(&e, port, &t, &a);
                if (a.kind == ESC_ACT_FORWARD && (a.hops != t.hops + 1 || a.hops > p.max_hops)) abort();
            } else if (a.kind != ESC_ACT_NONE) abort();
        }
        for (uint16_t port = 0; port < 3; port++)
            if (esc_pool(&e, port) > p.pool) abort();
    }
    if (pkt_parse_esc(data, size, &pi) == PKT_OK && pi.has_esc) {
        uint8_t *f = malloc(size);
        if (!pi.is_roce || (size_t)pi.l4_off + PKT_UDP_LEN + PKT_ESC_LEN + PKT_BTH_LEN > size) abort();
        if (f) {
            memcpy(f, data, size);
            pkt_esc_set_hops(f, &pi, 0);
            if (pkt_parse_esc(f, size, &pi) != PKT_OK || pi.esc_hops != 0) abort();
            free(f);
        }
    }
}

static void fuzz_oqclass(const uint8_t *data, size_t size, const struct pkt_info *pi)
{
    static const char *const vspec[] = {"dscp", "tos", "const:2.5"};
    static const char *const pspec[] = {"3", "uniform:1-4", "psn:7", "uniform:65535-65535"};
    struct dpoq_class c;
    struct oq_pkt o;
    char err[256];
    uint8_t k = size > 20 ? data[size - 1] : 0;

    dpoq_init(&c, size);
    if (dpoq_parse_value(&c, vspec[k % 3], err, sizeof err) ||
        dpoq_parse_processing(&c, pspec[(k / 3) % 4], err, sizeof err)) abort();
    if ((k & 0x40) && dpoq_parse_value_map(&c, "63=100,1=0.5", err, sizeof err)) abort();
    if ((k & 0x80) && dpoq_parse_processing_map(&c, "63=2,0=9", err, sizeof err)) abort();
    for (int i = 0; i < 3; i++) {
        dpoq_classify(&c, data, (uint32_t)size, pi, &o);
        if (!isfinite(o.value) || o.processing < 1 || o.processing > DPOQ_MAX_PROCESSING || o.size != size ||
            o.queue != UINT32_MAX || o.arrival || o.slack || o.marked) abort();
    }
    {
        uint8_t *f = malloc(size);
        if (f) {
            memcpy(f, data, size);
            int csum_ok = rocc_inet_checksum(f + pi->l3_off, (size_t)(pi->l4_off - pi->l3_off)) == 0;
            int ecn = pkt_ip4_ecn(f, pi);
            pkt_ip4_set_dscp(f, pi, k);
            if ((f[pi->l3_off + 1] >> 2) != (k & 63u) || pkt_ip4_ecn(f, pi) != ecn) abort();
            if (csum_ok && rocc_inet_checksum(f + pi->l3_off, (size_t)(pi->l4_off - pi->l3_off)) != 0) abort();
            free(f);
        }
    }
}

static void fuzz_oqclass_opts(const char *s)
{
    struct dpoq_class c;
    char err[256], desc[512];
    int (*const parse[])(struct dpoq_class *, const char *, char *, size_t) = {
        dpoq_parse_value, dpoq_parse_value_map, dpoq_parse_processing, dpoq_parse_processing_map};
    dpoq_init(&c, 1);
    for (unsigned i = 0; i < 4; i++) {
        err[0] = 0;
        if (parse[i](&c, s, err, sizeof err) && !err[0]) abort();
    }
    if (c.pkind == DPOQ_P_UNIFORM && (c.pa < 1 || c.pb < c.pa || c.pb > DPOQ_MAX_PROCESSING)) abort();
    dpoq_describe(&c, desc, sizeof desc);
    if (strlen(desc) >= sizeof desc) abort();
}

/* RCC data extension and ACK of an accepted frame (see the header). */
static void fuzz_rcc(const uint8_t *data, size_t size, const struct pkt_info *pi)
{
    struct pkt_rcc_data d;
    struct pkt_rcc_ack a;
    int esc = pi->has_esc;
    int r = pkt_parse_rcc_data(data, pi, &d);
    if (r < 0 || r >= PKT_RCC_NRESULTS || !strcmp(pkt_rcc_strerror(r), "unknown")) abort();
    if (r == PKT_RCC_OK) {
        uint8_t *f = malloc(size);
        struct pkt_rcc_data e;
        if (d.last > 1) abort();
        if (f) {
            memcpy(f, data, size);
            pkt_rcc_set_ts(f, esc, d.ts_ns ^ 0x5a5a5a5a5a5aull);
            if (pkt_parse_rcc_data(f, pi, &e) != PKT_RCC_OK || e.ts_ns != (d.ts_ns ^ 0x5a5a5a5a5a5aull) ||
                e.last != d.last)
                abort();
            free(f);
        }
    }
    r = pkt_parse_rcc_ack(data, pi, &a);
    if (r < 0 || r >= PKT_RCC_NRESULTS || !strcmp(pkt_rcc_strerror(r), "unknown")) abort();
    if (r == PKT_RCC_OK) {
        uint8_t g[PKT_RCC_ACK_FRAME_LEN + PKT_ESC_LEN];
        size_t n;
        if (a.type != PKT_RCC_T_WIN && a.type != PKT_RCC_T_BR) abort();
        if (a.type == PKT_RCC_T_WIN && a.value == 0) abort();
        if (pi->l4_len != PKT_RCC_ACK_UDP + (esc ? PKT_ESC_LEN : 0)) abort();
        n = pkt_build_rcc_ack(g, sizeof g, data + 6, data, pi->src_ip, pi->dst_ip, pi->sport, esc, &a);
        if (n != (size_t)pi->l4_off + pi->l4_len) abort();
        /* Same bytes from the UDP header on (the IPv4 header's id, flags,
         * TTL and ToS may differ from what we build); the Escape hops is
         * built as 0, and the ICRC (the last 4 bytes) as 0: the software
         * data plane neither computes nor checks it. */
        for (size_t i = pi->l4_off; i + PKT_ICRC_LEN < n; i++)
            if (g[i] != data[i] && !(esc && i >= (size_t)pi->l4_off + PKT_UDP_LEN && i < (size_t)pi->l4_off + PKT_UDP_LEN + PKT_ESC_LEN)
                && !(i == (size_t)pi->l4_off + 6 || i == (size_t)pi->l4_off + 7))   /* UDP checksum: built as 0 */
                abort();
    }
}

/* The command lines' number parsers: an accepted value is within the
 * bounds asked for and is all digits (so a value that strtoull would have
 * bent -- a sign, space, 2^64 or more -- is never accepted); a stop pointer
 * lands on the first non-digit; an accepted double is finite. */
static void fuzz_numbers(const char *s)
{
    uint64_t v, lo = 3, hi = 1000000;
    const char *end;
    double g;
    if (pkt_parse_u64(s, 0, lo, hi, NULL, &v) == 0) {
        if (v < lo || v > hi) abort();
        for (const char *p = s; *p; p++)
            if (*p < '0' || *p > '9') abort();
    }
    if (pkt_parse_u64(s, 0, 0, UINT64_MAX, &end, &v) == 0) {
        if (end == s || (*end >= '0' && *end <= '9')) abort();
    }
    (void)pkt_parse_u64(s, 1, 0, UINT64_MAX, NULL, &v);
    (void)pkt_parse_u64(s, 16, 0, 255, NULL, &v);
    if (pkt_parse_dbl(s, -1e9, 1e9, &g) == 0 && !(isfinite(g) && g >= -1e9 && g <= 1e9)) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct pkt_info pi;
    struct pkt_arp arp;
    struct rocc_cnp cnp;
    (void)pkt_ethertype(data, size);
    (void)pkt_parse_arp(data, size, &arp);
    fuzz_pfc(data, size);
    fuzz_cnp(data, size, 0x0a630001u, 0x0a630102u);     /* the input as an ICMP message */
    fuzz_etf(data, size);
    fuzz_lscc(data, size);
    if (pkt_parse_esc(data, size, &pi) == PKT_OK) {
        fuzz_oqclass(data, size, &pi);
        fuzz_rcc(data, size, &pi);
    }
    if (pkt_parse(data, size, &pi) == PKT_OK) {
        fuzz_oqclass(data, size, &pi);
        fuzz_rcc(data, size, &pi);
        if ((size_t)pi.l3_off + PKT_IP4_LEN > size || pi.l4_off > size || pi.l4_off + (size_t)pi.l4_len > size) abort();
        if (pi.proto == 1) {
            (void)rocc_cnp_decode(data + pi.l4_off, pi.l4_len, &cnp);
            fuzz_cnp(data + pi.l4_off, pi.l4_len, pi.src_ip, pi.dst_ip);
        }
        uint8_t *f = malloc(size);
        if (f) {
            memcpy(f, data, size);
            int csum_ok = rocc_inet_checksum(f + pi.l3_off, (size_t)(pi.l4_off - pi.l3_off)) == 0;
            int ecn = pkt_ip4_ecn(f, &pi);
            if (ecn < 0 || ecn > 3) abort();
            pkt_ip4_set_ecn(f, &pi, PKT_ECN_CE);
            (void)pkt_ip4_dec_ttl(f, &pi);
            if (csum_ok && rocc_inet_checksum(f + pi.l3_off, (size_t)(pi.l4_off - pi.l3_off)) != 0) abort();
            free(f);
        }
    }
    char *s = fuzz_str(data, size), buf[32];
    if (s) {
        uint32_t ip, net, mask;
        uint8_t mac[6];
        if (pkt_parse_ip(s, &ip) == 0) {
            uint32_t back;
            pkt_ip_str(ip, buf, sizeof buf);
            if (pkt_parse_ip(buf, &back) || back != ip) abort();     /* the printed form reads back */
        }
        if (pkt_parse_prefix(s, &net, &mask) == 0 && (net & ~mask)) abort();
        (void)pkt_parse_mac(s, mac);
        fuzz_numbers(s);
        fuzz_oqclass_opts(s);
        free(s);
    }
    return 0;
}
