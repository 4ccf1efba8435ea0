/*
 * escape.c -- Escape's per-switch decisions (dissertation ch. 4, Alg. 3);
 * model and choices in escape.h and docs/escape.md.
 */
#include "escape.h"

#include <string.h>

/* Limits on the parameters (ours): port numbers fit the 16-bit fields with
 * room to spare; a pool above 65535 would overflow T. */
#define ESC_MAX_PORTS 4096u

void esc_params_default(struct esc_params *p, uint16_t n_ports, uint16_t pool, uint64_t link_delay_ps)
{
    memset(p, 0, sizeof *p);
    p->n_ports = n_ports;
    p->pool = pool;
    p->max_hops = ESC_MAX_HOPS_DEFAULT;
    /* §4.3.2: "A good choice for Δesc is 2 x link delay". */
    p->period_ps = 2 * link_delay_ps;
    p->reclaim_ps = 0;
}

static int params_ok(const struct esc_params *p)
{
    return p && p->n_ports >= 1 && p->n_ports <= ESC_MAX_PORTS && p->pool >= 1 &&
           p->max_hops >= 1 && p->max_hops < UINT16_MAX && p->period_ps > 0 &&
           (p->ft_mode == ESC_FT_FRAMES || p->ft_mode == ESC_FT_FLOWS);
}

size_t esc_storage_bytes(const struct esc_params *p)
{
    if (!params_ok(p))
        return 0;
    size_t ports = (size_t)p->n_ports * sizeof(struct esc_port);
    ports = (ports + 7) & ~(size_t)7;
    return ports + (size_t)p->n_ports * p->pool * sizeof(struct esc_flow);
}

int esc_init(struct escape *e, const struct esc_params *p, void *storage, uint64_t now_ps)
{
    if (!e || !storage || !params_ok(p))
        return -1;
    size_t bytes = esc_storage_bytes(p);
    size_t ports = ((size_t)p->n_ports * sizeof(struct esc_port) + 7) & ~(size_t)7;
    memset(e, 0, sizeof *e);
    memset(storage, 0, bytes);
    e->p = *p;
    e->port = storage;
    e->ft = (struct esc_flow *)((char *)storage + ports);
    for (uint16_t i = 0; i < p->n_ports; i++)
        e->port[i].T = e->port[i].T_saved = p->pool;
    e->next_trigger = now_ps + p->period_ps;
    e->next_reclaim = p->reclaim_ps ? now_ps + p->reclaim_ps : UINT64_MAX;
    return 0;
}

static struct esc_port *port_of(struct escape *e, uint16_t port)
{
    return port < e->p.n_ports ? &e->port[port] : NULL;
}

void esc_set_ingress_requested(struct escape *e, uint16_t port, int on)
{
    struct esc_port *p = port_of(e, port);
    if (p)
        p->ingress_req = on != 0;
}

void esc_set_egress_paused(struct escape *e, uint16_t port, int on)
{
    struct esc_port *p = port_of(e, port);
    if (p)
        p->egress_paused = on != 0;
}

void esc_set_peer_escape(struct escape *e, uint16_t port, int on)
{
    struct esc_port *p = port_of(e, port);
    if (p)
        p->peer_escape = on != 0;
}

int esc_fid_eq(const struct esc_fid *a, const struct esc_fid *b)
{
    return a->src_ip == b->src_ip && a->dst_ip == b->dst_ip && a->src_port == b->src_port &&
           a->dst_port == b->dst_port && a->proto == b->proto;
}

/* The table of egress `port`: pool slots. */
static struct esc_flow *table(struct escape *e, uint16_t port)
{
    return e->ft + (size_t)port * e->p.pool;
}

/* Slot of fid in the table of port, or -1: the most recently written one
 * (newest first from the write pointer, so consecutive frames of one flow
 * cost one compare and the newest ingress port wins). */
static int ft_find(struct escape *e, uint16_t port, const struct esc_fid *fid)
{
    struct esc_port *p = &e->port[port];
    struct esc_flow *t = table(e, port);
    uint16_t n = e->p.pool;
    for (uint16_t k = 1; k <= n; k++) {
        uint16_t i = (uint16_t)((p->ft_head + n - k) % n);
        if (t[i].used && esc_fid_eq(&t[i].fid, fid))
            return i;
    }
    return -1;
}

void esc_on_frame(struct escape *e, uint16_t egress, uint16_t ingress, const struct esc_fid *fid)
{
    if (egress >= e->p.n_ports || !fid)
        return;
    struct esc_port *p = &e->port[egress];
    struct esc_flow *t = table(e, egress);
    if (e->p.ft_mode == ESC_FT_FLOWS) {
        int i = ft_find(e, egress, fid);
        if (i >= 0) {         /* C3: a known flow refreshes its ingress */
            t[i].ingress = ingress;
            return;
        }
    }
    /* The next slot of the circular array; when the table is full that is
     * the oldest entry (§4.5.2). */
    t[p->ft_head].fid = *fid;
    t[p->ft_head].ingress = ingress;
    t[p->ft_head].used = 1;
    p->ft_head = (uint16_t)((p->ft_head + 1) % e->p.pool);
    if (p->ft_len < e->p.pool)
        p->ft_len++;
}

/* CLEARHOLBLOCK(p^I), Alg. 3 lines 5-14, for every egress table (C4). */
static size_t clear_hol_block(struct escape *e, uint16_t pi, struct esc_out *out, size_t k, size_t max)
{
    uint16_t n = e->p.pool;
    for (uint16_t pe = 0; pe < e->p.n_ports; pe++) {
        struct esc_port *E = &e->port[pe];
        struct esc_flow *t = table(e, pe);
        if (E->egress_paused || E->T == 0 || E->ft_len == 0)
            continue;
        for (uint16_t j = 0; j < n && E->T != 0; j++) {
            struct esc_flow *f = &t[(E->ft_rr + j) % n];
            if (!f->used || f->ingress != pi)            /* line 9: p^I' = p^I */
                continue;
            if (k >= max) {
                e->st.tok_truncated++;
                continue;
            }
            out[k].port = pi;                              /* line 13 */
            out[k].tok.fid = f->fid;                       /* line 11 */
            out[k].tok.hops = 1;                           /* line 12 */
            k++;
            E->T--;                                        /* line 14 */
            e->st.tok_sent++;
        }
    }
    return k;
}

static void reclaim_tick(struct escape *e)
{
    /* §4.3.3(5): save T each interval; if it has not changed by the next,
     * give one token back (C6). */
    for (uint16_t i = 0; i < e->p.n_ports; i++) {
        struct esc_port *p = &e->port[i];
        if (p->T == p->T_saved && p->T < e->p.pool) {
            p->T++;
            e->st.reclaim_timer++;
        }
        p->T_saved = p->T;
    }
}

size_t esc_poll(struct escape *e, uint64_t now_ps, struct esc_out *out, size_t max)
{
    size_t k = 0;
    if (!out)
        max = 0;
    if (now_ps >= e->next_reclaim) {
        reclaim_tick(e);
        while (e->next_reclaim <= now_ps)
            e->next_reclaim += e->p.reclaim_ps;
    }
    if (now_ps >= e->next_trigger) {
        e->st.triggers++;
        /* TRIGGERESCAPE, lines 1-4: every PFC-requested ingress port whose
         * peer is an Escape switch (C2). */
        for (uint16_t pi = 0; pi < e->p.n_ports; pi++)
            if (e->port[pi].ingress_req && e->port[pi].peer_escape)
                k = clear_hol_block(e, pi, out, k, max);
        for (uint16_t i = 0; i < e->p.n_ports; i++)
            e->port[i].ft_rr = (uint16_t)((e->port[i].ft_rr + 1) % e->p.pool);
        while (e->next_trigger <= now_ps)
            e->next_trigger += e->p.period_ps;
    }
    return k;
}

uint64_t esc_next_due(const struct escape *e)
{
    return e->next_trigger < e->next_reclaim ? e->next_trigger : e->next_reclaim;
}

void esc_receive(struct escape *e, uint16_t port, const struct esc_token *tok, struct esc_action *act)
{
    memset(act, 0, sizeof *act);
    struct esc_port *p = port_of(e, port);
    /* C2, C7: only from an Escape peer, hops in [1, max_hops]. */
    if (!p || !tok || !p->peer_escape || tok->hops == 0 || tok->hops > e->p.max_hops) {
        e->st.tok_drop_bad++;
        return;
    }
    if (!p->egress_paused) {                               /* C11 */
        e->st.tok_drop_open++;
        return;
    }
    if (p->T == 0) {                                       /* lines 16-17 */
        e->st.tok_drop_pool++;
        return;
    }
    if (ft_find(e, port, &tok->fid) < 0) {                 /* line 18, C3 */
        e->st.tok_drop_unknown++;
        return;
    }
    e->st.tok_extract++;
    act->kind = ESC_ACT_EXTRACT;                           /* line 19 */
    act->port = port;
    act->hops = tok->hops;                                 /* line 21 */
    act->fid = tok->fid;
}

void esc_extracted(struct escape *e, uint16_t port)
{
    (void)port;
    e->st.frames_escaped++;                                /* lines 20-23 */
}

void esc_receive_missed(struct escape *e, uint16_t port, const struct esc_token *tok, struct esc_action *act)
{
    memset(act, 0, sizeof *act);
    struct esc_port *p = port_of(e, port);
    if (!p || !tok || tok->hops == 0 || tok->hops > e->p.max_hops) {
        e->st.tok_drop_bad++;
        return;
    }
    int i = ft_find(e, port, &tok->fid);
    if (i < 0) {
        e->st.tok_drop_unknown++;
        return;
    }
    uint16_t pi = table(e, port)[i].ingress;               /* line 24 */
    struct esc_port *I = port_of(e, pi);
    if (!I || !I->ingress_req || !I->peer_escape || p->T == 0) {   /* line 25, C2 */
        e->st.tok_end++;
        return;
    }
    if (tok->hops >= e->p.max_hops) {                      /* C7 */
        e->st.tok_drop_bad++;
        return;
    }
    act->kind = ESC_ACT_FORWARD;
    act->port = pi;                                        /* line 27 */
    act->hops = (uint16_t)(tok->hops + 1);                 /* line 26 */
    act->fid = tok->fid;
    p->T--;                                                /* line 28 */
    e->st.tok_forwarded++;
}

uint16_t esc_frame_hops(struct escape *e, uint16_t hops)
{
    if (hops > e->p.max_hops) {
        e->st.frames_bad_hops++;
        return 0;
    }
    return hops;
}

uint16_t esc_transmit(struct escape *e, uint16_t port, uint16_t hops)
{
    if (hops == 0)                                         /* line 30 */
        return 0;
    struct esc_port *p = port_of(e, port);
    if (p) {
        if (p->T < e->p.pool) {                            /* line 31, C5 */
            p->T++;
            e->st.reclaim_tx++;
        } else {
            e->st.over_reclaim++;
        }
    }
    return (uint16_t)(hops - 1);                           /* line 32 */
}

uint64_t esc_outstanding(const struct escape *e)
{
    uint64_t s = 0;
    for (uint16_t i = 0; i < e->p.n_ports; i++)
        s += (uint64_t)(e->p.pool - e->port[i].T);
    return s;
}

uint16_t esc_pool(const struct escape *e, uint16_t port)
{
    return port < e->p.n_ports ? e->port[port].T : 0;
}

/* ---- ETF wire format (escape.h) ---- */

static void put16(uint8_t *b, uint32_t v) { b[0] = (uint8_t)(v >> 8); b[1] = (uint8_t)v; }
static void put32(uint8_t *b, uint32_t v) { put16(b, v >> 16); put16(b + 2, v); }
static uint16_t get16(const uint8_t *b) { return (uint16_t)((uint32_t)b[0] << 8 | b[1]); }
static uint32_t get32(const uint8_t *b) { return (uint32_t)get16(b) << 16 | get16(b + 2); }

/* IEEE 802.3 Annex 31B MAC control multicast address (as PAUSE). */
static const uint8_t etf_dst[6] = { 0x01, 0x80, 0xC2, 0x00, 0x00, 0x01 };

size_t esc_etf_encode(const struct esc_token *t, const uint8_t src_mac[6], uint8_t *buf, size_t len)
{
    if (!t || !src_mac || !buf || len < ESC_ETF_BYTES_NOFCS)
        return 0;
    memset(buf, 0, ESC_ETF_BYTES_NOFCS);
    memcpy(buf, etf_dst, 6);
    memcpy(buf + 6, src_mac, 6);
    put16(buf + 12, ESC_MAC_CONTROL_ETH);
    put16(buf + 14, ESC_ETF_OPCODE);
    put32(buf + 16, t->fid.src_ip);
    put32(buf + 20, t->fid.dst_ip);
    put16(buf + 24, t->fid.src_port);
    put16(buf + 26, t->fid.dst_port);
    buf[28] = t->fid.proto;
    put16(buf + 29, t->hops);
    return ESC_ETF_BYTES_NOFCS;
}

int esc_etf_decode(const uint8_t *buf, size_t len, struct esc_token *out)
{
    if (!buf)
        return ESC_ETF_EARG;
    if (len < ESC_ETF_PAYLOAD_END)
        return ESC_ETF_ESHORT;
    if (memcmp(buf, etf_dst, 6) != 0 || get16(buf + 12) != ESC_MAC_CONTROL_ETH)
        return ESC_ETF_ENOTCTL;
    if (get16(buf + 14) != ESC_ETF_OPCODE)
        return ESC_ETF_EOPCODE;
    uint16_t hops = get16(buf + 29);
    if (hops == 0)
        return ESC_ETF_EHOPS;
    if (out) {
        memset(out, 0, sizeof *out);
        out->fid.src_ip = get32(buf + 16);
        out->fid.dst_ip = get32(buf + 20);
        out->fid.src_port = get16(buf + 24);
        out->fid.dst_port = get16(buf + 26);
        out->fid.proto = buf[28];
        out->hops = hops;
    }
    return ESC_ETF_OK;
}

const char *esc_etf_strerror(int err)
{
    switch (err) {
    case ESC_ETF_OK: return "ok";
    case ESC_ETF_ESHORT: return "ETF shorter than 31 bytes";
    case ESC_ETF_ENOTCTL: return "not a MAC control frame (destination 01-80-C2-00-00-01, EtherType 0x8808)";
    case ESC_ETF_EOPCODE: return "MAC control opcode is not 0x0102 (ETF)";
    case ESC_ETF_EHOPS: return "ETF hops is 0";
    case ESC_ETF_EARG: return "NULL buffer";
    default: return "unknown ETF error";
    }
}
