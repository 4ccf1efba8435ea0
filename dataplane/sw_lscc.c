/*
 * sw_lscc.c -- rocc-switch's glue to LSCC's two modules (src/cc/lscc.h,
 * lscc_rc.c Alg. 1 and lscc_rl.c Alg. 2, called unchanged): --lscc PORT
 * makes PORT a long-haul port (issue 15; docs/crossdc.md "Data plane").
 * The simulator's glue is src/net/agent_lscc.c; this file does the same on
 * real frames:
 *
 *   rate calculation (Alg. 1), every T: Qcur is the bytes that came in on
 *     PORT and wait in any egress FIFO of this switch (the "remote ingress
 *     queue"); BR is the bytes of those that left during T, × 8/T.  R goes
 *     to the other end in a 60-byte link-local feedback frame (src/cc/
 *     lscc_fb.h: R in ΔF units, a sequence number and an epoch, the switch's
 *     start time; with --lscc-key a SipHash-2-4 tag) in PORT's control FIFO:
 *     strict priority, through PORT's --delay line like every frame.
 *   rate limiting (Alg. 2) on PORT's egress FIFO: every data frame admitted
 *     feeds the pseudo-queue Q*; at dequeue a RoCEv2 data frame updates its
 *     flow's entry (Table I key: source IP, destination IP, UDP source port,
 *     4791) and a CE mark is rewritten to ECT(0) (lines 16-18); a received
 *     feedback frame sets Q*'s drain rate; a well-formed RoCEv2 CNP that
 *     comes in on PORT for a flow this switch sends sets its CNP bit
 *     (line 13; a CNP for a flow not seen here has no effect, counted);
 *     every direct-CNP interval the flows lscc_rl_tick picks get a RoCEv2
 *     CNP (BTH opcode 0x81) from --cp-ip, in the control class.
 *
 * A flow-info table (source IP, QP) -> (addresses, UDP source port) gives a
 * direct CNP what it quotes; its slot index is the flow's ref in the
 * module's table (refs must stay put while the module holds them: slots
 * are freed with tombstones, only after 2 × the module's idle time, by
 * which the module has evicted the flow).
 *
 * Feedback frames are a trust boundary: parsed strictly (lscc_fb_parse; with
 * --lscc-key the tag must verify, before anything else is believed), then
 * accepted only on an --lscc port, from the port's neighbour (a --route MAC
 * or an ARP-learned one there), at most the port's Rmax, with an (epoch,
 * seq) pair newer than the last accepted (lscc_fb_rx_accept: a restarted
 * peer has a later epoch and is accepted at once); anything else is counted
 * by reason (final lscc_bad) and has no effect.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sw.h"
#include "lscc.h"
#include "lscc_fb.h"

/* One flow-info slot (ref = index). */
struct lsccinfo {
    uint32_t sip, dip, qpn;
    uint16_t sport;
    bool used, tomb;
    uint64_t seen_tsc;
};

struct lsccport {
    uint16_t port;
    struct lscc_rc_params rcp;
    struct lscc_rc rc;
    struct lscc_rl_params rlp;
    struct lscc_rl rl;
    struct lscc_rl_entry *slots;
    uint32_t *refs;
    struct lsccinfo *fi;
    uint32_t fi_cap, fi_used;
    uint64_t fi_full, fi_freed, fi_gc_cyc;
    uint64_t in_bytes;            /* remote ingress queue: from PORT, in some egress FIFO now */
    uint64_t br_bytes;            /* of those, bytes that left this period */
    uint64_t rc_cyc, rc_next, rl_cyc, rl_next;
    struct lscc_fb_tx fbtx;       /* (epoch, seq) of the frames sent */
    struct lscc_fb_rx fbrx;       /* the last accepted frame's pair */
    uint64_t fb_min_bps;          /* smallest R of an accepted frame (UINT64_MAX: none yet) */
    uint64_t fb_sent, fb_alloc_fail, fb_rx, direct_cnps, cnp_noroute, cnp_alloc_fail, remote_cnps,
        remote_cnp_unknown, ce_cleared, last_r;
    /* Samples: Qcur at each rate update, Q* at each direct-CNP round; over
     * the report window (w_*) and the whole run (t_*). */
    uint64_t w_qin_sum, w_qin_n, w_qin_max, w_qs_sum, w_qs_n, w_qs_max;
    uint64_t t_qin_sum, t_qin_n, t_qin_max, t_qs_sum, t_qs_n, t_qs_max, t_above;
};

#define PS_PER_US UINT64_C(1000000)
/* The paper's setting (LSCC §IV-B, §III-C) that the defaults scale: a
 * 200 Gb/s long-haul link of 1 ms one-way delay, T = 200 µs, Qref = Q*ref
 * = 2 MB, ΔR = 1 Gb/s; Rmin 100 Mb/s and ΔF 1 Mb/s are lscc_rc.c's (ours). */
#define PAPER_LINK_BPS  200000000000.0
#define PAPER_D_PS      1000000000.0
#define PAPER_T_US      200.0
#define PAPER_QREF_B    2000000.0
#define PAPER_DR_BPS    1e9
#define PAPER_RMIN_BPS  1e8
#define PAPER_DF_BPS    1e6
/* Floors of the scaled values (ours): a period the switch's loop (20 µs
 * idle sleeps, descheduling on a shared core) can keep; a reference of at
 * least three 1 KB frames. */
#define MIN_T_US        100u
#define MIN_QREF_B      3000u

static uint64_t round_to(double v, uint64_t unit)
{
    uint64_t u = (uint64_t)(v / (double)unit + 0.5);
    return (u ? u : 1) * unit;
}

/* The epoch of this run's feedback frames: the start time, ns since 1970
 * (a restarted switch's frames then have a later one; lscc_fb.h). */
static uint64_t start_epoch(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts)) return 1;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int lscc_setup(struct sw *s)
{
    uint64_t epoch = start_epoch();
    for (uint16_t p = 0; p < s->nports; p++) {
        struct egress *e = &s->eg[p];
        struct lsccport *L;
        char why[160];
        if (!s->lscc_on[p]) continue;
        if (!e->rate_bps) { fprintf(stderr, "--lscc %u: the port needs an --egress-rate (Rmax)\n", p); return -2; }
        if (s->cp_on[p]) { fprintf(stderr, "--lscc %u: the port also has --cp; a port runs one of them\n", p); return -2; }
        if (s->any_oq || s->escape) {
            fprintf(stderr, "--lscc with --openqueue or --escape is not supported (the remote ingress queue is "
                    "counted on the built-in FIFOs)\n");
            return -2;
        }
        if (!s->have_cp_ip) { fprintf(stderr, "--lscc needs --cp-ip (the source address of direct CNPs)\n"); return -2; }
        L = calloc(1, sizeof *L);
        if (!L) return -1;
        e->lscc = L;
        s->any_lscc = true;
        L->port = p;
        /* 2D: --lscc-rtt-us, else twice the port's --delay line. */
        uint64_t rtt_us = s->o_lscc_rtt_us ? s->o_lscc_rtt_us
                        : e->dl ? 2 * (uint64_t)((double)delay_cycles(e) * 1e6 / (double)s->hz + 0.5) : 0;
        uint64_t one_way_ps = rtt_us * PS_PER_US / 2;
        double sr = (double)e->rate_bps / PAPER_LINK_BPS, st = (double)one_way_ps / PAPER_D_PS;
        uint64_t t_us = s->o_lscc_period_us ? s->o_lscc_period_us : (uint64_t)(PAPER_T_US * st + 0.5);
        if (!s->o_lscc_period_us && t_us < MIN_T_US) t_us = MIN_T_US;
        uint64_t df = s->o_lscc_funit_bps ? s->o_lscc_funit_bps : (uint64_t)(PAPER_DF_BPS * sr + 0.5);
        if (!df) df = 1;
        lscc_rc_params_default(&L->rcp, e->rate_bps, one_way_ps);
        L->rcp.period_ps = t_us * PS_PER_US;
        L->rcp.n = s->o_lscc_n ? (uint32_t)s->o_lscc_n : lscc_n_for(one_way_ps, L->rcp.period_ps);
        L->rcp.f_unit_bps = df;
        L->rcp.r_max_bps = e->rate_bps / df * df;
        L->rcp.dr_bps = s->o_lscc_dr_bps ? s->o_lscc_dr_bps : round_to(PAPER_DR_BPS * sr, df);
        L->rcp.r_min_bps = s->o_lscc_rmin_bps ? s->o_lscc_rmin_bps : round_to(PAPER_RMIN_BPS * sr, df);
        L->rcp.r_init_bps = L->rcp.r_max_bps;
        uint64_t qref = (uint64_t)(PAPER_QREF_B * sr * st + 0.5);
        if (qref < MIN_QREF_B) qref = MIN_QREF_B;
        L->rcp.q_ref_bytes = s->o_lscc_qref ? s->o_lscc_qref : qref;
        if (lscc_rc_params_check(&L->rcp, why, sizeof why)) {
            fprintf(stderr, "--lscc %u: rate calculation: %s (T %" PRIu64 " us, N %u, dF %" PRIu64 " b/s, "
                    "Rmin %" PRIu64 ", Rmax %" PRIu64 ", dR %" PRIu64 " b/s)\n", p, why, t_us, L->rcp.n, df,
                    L->rcp.r_min_bps, L->rcp.r_max_bps, L->rcp.dr_bps);
            return -2;
        }
        lscc_rl_params_default(&L->rlp, e->rate_bps, one_way_ps, L->rcp.period_ps);
        L->rlp.q_ref_bytes = s->o_lscc_qsref ? s->o_lscc_qsref : L->rcp.q_ref_bytes;
        if (s->o_lscc_cnp_us) L->rlp.cnp_interval_ps = s->o_lscc_cnp_us * PS_PER_US;
        if (s->o_lscc_long_bytes) L->rlp.long_flow_bytes = (uint32_t)s->o_lscc_long_bytes;
        L->rlp.idle_ps = 10 * L->rlp.cnp_interval_ps;   /* lscc_rl.c: 10 periods */
        L->rlp.normal_cnp_multiple = 0;                 /* hosts' NP: not the switch's (docs/crossdc.md) */
        L->rlp.capacity = s->ft_cap;
        L->rlp.r_init_bps = L->rcp.r_max_bps;
        if (lscc_rl_params_check(&L->rlp, why, sizeof why)) {
            fprintf(stderr, "--lscc %u: rate limiting: %s\n", p, why);
            return -2;
        }
        L->slots = calloc(1, lscc_rl_storage_bytes(&L->rlp));
        L->refs = calloc(L->rlp.capacity, sizeof *L->refs);
        L->fi_cap = 2 * L->rlp.capacity;
        L->fi = calloc(L->fi_cap, sizeof *L->fi);
        if (!L->slots || !L->refs || !L->fi) return -1;
        lscc_rc_init(&L->rc, &L->rcp);
        lscc_rl_init(&L->rl, &L->rlp, L->slots, 0);
        L->rc_cyc = dp_us_to_cycles(L->rcp.period_ps / PS_PER_US, s->hz);
        L->rl_cyc = dp_us_to_cycles(L->rlp.cnp_interval_ps / PS_PER_US, s->hz);
        if (!L->rc_cyc) L->rc_cyc = 1;
        if (!L->rl_cyc) L->rl_cyc = 1;
        L->fi_gc_cyc = dp_us_to_cycles(2 * L->rlp.idle_ps / PS_PER_US, s->hz);
        L->last_r = L->rcp.r_init_bps;
        lscc_fb_tx_init(&L->fbtx, epoch);
        L->fb_min_bps = UINT64_MAX;
        lscc_fb_rx_init(&L->fbrx, s->lscc_keyp == NULL);   /* resync only without a key (lscc_fb.h) */
        printf("lscc port=%u link_mbps=%.3f rtt_us=%" PRIu64 " T_us=%" PRIu64 " N=%u qref=%" PRIu64 " qsref=%" PRIu64
               " dr_bps=%" PRIu64 " rmin_bps=%" PRIu64 " rmax_bps=%" PRIu64 " f_unit_bps=%" PRIu64
               " cnp_us=%" PRIu64 " long_bytes=%u ft_cap=%u key=%s epoch=%" PRIu64 "\n",
               p, (double)e->rate_bps / 1e6, rtt_us, t_us, L->rcp.n, L->rcp.q_ref_bytes, L->rlp.q_ref_bytes,
               L->rcp.dr_bps, L->rcp.r_min_bps, L->rcp.r_max_bps, df, L->rlp.cnp_interval_ps / PS_PER_US,
               L->rlp.long_flow_bytes, L->rlp.capacity, s->lscc_keyp ? "yes" : "no", epoch);
    }
    return 0;
}

void lscc_free(struct sw *s)
{
    for (uint16_t p = 0; p < s->nports; p++) {
        struct lsccport *L = s->eg[p].lscc;
        if (!L) continue;
        free(L->slots);
        free(L->refs);
        free(L->fi);
        free(L);
        s->eg[p].lscc = NULL;
    }
}

/* ---- flow info ------------------------------------------------------------ */

static uint32_t fi_home(const struct lsccport *L, uint32_t sip, uint32_t qpn)
{
    uint64_t k = ((uint64_t)sip << 24 | qpn) * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(k >> 40) & (L->fi_cap - 1);
}

/* The slot of (sip, qpn); insert (fields from pi) when absent and pi is given.
 * UINT32_MAX: absent (or no room: fi_full). */
static uint32_t fi_find(struct lsccport *L, uint32_t sip, uint32_t qpn, const struct pkt_info *pi, uint64_t tsc)
{
    uint32_t mask = L->fi_cap - 1, h = fi_home(L, sip, qpn), slot = UINT32_MAX;
    for (uint32_t n = 0; n < L->fi_cap; n++, h = (h + 1) & mask) {
        struct lsccinfo *f = &L->fi[h];
        if (f->used) {
            if (f->sip != sip || f->qpn != qpn) continue;
            f->seen_tsc = tsc;
            return h;
        }
        if (slot == UINT32_MAX) slot = h;
        if (!f->tomb) break;          /* never used: the key is not further on */
    }
    if (!pi) return UINT32_MAX;
    if (slot == UINT32_MAX || L->fi_used >= L->fi_cap * 3 / 4) { L->fi_full++; return UINT32_MAX; }
    L->fi[slot] = (struct lsccinfo){.sip = sip, .dip = pi->dst_ip, .qpn = qpn, .sport = pi->sport, .used = true,
                                    .seen_tsc = tsc};
    L->fi_used++;
    return slot;
}

static void fi_gc(struct lsccport *L, uint64_t tsc)
{
    for (uint32_t i = 0; i < L->fi_cap; i++) {
        struct lsccinfo *f = &L->fi[i];
        if (!f->used || tsc - f->seen_tsc < L->fi_gc_cyc) continue;
        f->used = false;
        f->tomb = true;
        L->fi_used--;
        L->fi_freed++;
    }
    if (L->fi_used == 0)
        for (uint32_t i = 0; i < L->fi_cap; i++) L->fi[i].tomb = false;
}

static struct lscc_key fi_key(const struct lsccinfo *f)
{
    struct lscc_key k = {f->sip, f->dip, f->sport, ROCC_ROCEV2_UDP_PORT};
    return k;
}

/* ---- per frame ------------------------------------------------------------ */

void lscc_on_enqueue(struct sw *s, struct egress *out, struct qent *q, const struct pkt_info *pi)
{
    if (q->in_port < s->nports && s->eg[q->in_port].lscc) s->eg[q->in_port].lscc->in_bytes += q->len;
    if (!out->lscc) return;
    struct lsccport *L = out->lscc;
    lscc_rl_input(&L->rl, now_ps(s), q->len);
    q->key = 0;
    if (pi->is_roce && pi->bth_opcode != 0x81) {
        uint32_t ref = fi_find(L, pi->src_ip, pi->dest_qpn, pi, s->now_tsc);
        if (ref != UINT32_MAX) q->key = (uint64_t)ref + 1;
    }
}

void lscc_on_dequeue(struct sw *s, struct egress *e, const struct qent *q)
{
    if (q->in_port < s->nports && s->eg[q->in_port].lscc) {
        struct lsccport *I = s->eg[q->in_port].lscc;
        I->in_bytes -= q->len;
        I->br_bytes += q->len;
    }
    if (!e->lscc || !q->key) return;
    struct lsccport *L = e->lscc;
    struct lsccinfo *f = &L->fi[(q->key - 1) & (L->fi_cap - 1)];
    if (!f->used) return;
    uint8_t *fr = rte_pktmbuf_mtod(q->m, uint8_t *);
    struct pkt_info ip4 = {.l3_off = PKT_ETH_LEN};
    struct lscc_key k = fi_key(f);
    int ce = pkt_ip4_ecn(fr, &ip4) == PKT_ECN_CE;
    if (lscc_rl_on_data(&L->rl, &L->rlp, now_ps(s), &k, (uint32_t)(q->key - 1), q->len, ce) & LSCC_RL_CLEAR_CE) {
        pkt_ip4_set_ecn(fr, &ip4, PKT_ECN_ECT0);   /* Alg. 2 line 18: "10" */
        L->ce_cleared++;
    }
}

void lscc_remote_cnp(struct sw *s, uint16_t port, const uint8_t *f, uint32_t len, const struct pkt_info *pi)
{
    struct lsccport *L = s->eg[port].lscc;
    if (pkt_roce_cnp_ok(f, len, pi)) return;        /* not a well-formed CNP: forwarded, nothing else */
    /* The CNP goes to the data flow's source (its destination) for its QP. */
    uint32_t ref = fi_find(L, pi->dst_ip, pi->dest_qpn, NULL, s->now_tsc);
    if (ref == UINT32_MAX) { L->remote_cnp_unknown++; return; }
    struct lscc_key k = fi_key(&L->fi[ref]);
    lscc_rl_on_cnp(&L->rl, &L->rlp, now_ps(s), &k, ref);
    L->remote_cnps++;
}

void lscc_rx(struct sw *s, uint16_t port, const uint8_t *f, uint32_t len)
{
    struct lsccport *L = s->eg[port].lscc;
    struct lscc_fb fb;
    int r = lscc_fb_parse(s->lscc_keyp, f, len, &fb);   /* with a key: the tag first */
    uint64_t bps = 0;

    if (r == PKT_LSCC_OK && !L) r = PKT_LSCC_EPORT;
    if (r == PKT_LSCC_OK && !sw_neighbour(s, port, fb.src)) r = PKT_LSCC_ENEIGH;
    if (r == PKT_LSCC_OK && (bps = lscc_units_to_rate(fb.units, L->rcp.f_unit_bps)) > L->rcp.r_max_bps) r = PKT_LSCC_ERATE;
    if (r == PKT_LSCC_OK) {
        /* Last: only a frame that passed everything else may move the reference. */
        int a = lscc_fb_rx_accept(&L->fbrx, fb.epoch, fb.seq);
        r = a == LSCC_FB_EEPOCH ? PKT_LSCC_EEPOCH : a == LSCC_FB_ESEQ ? PKT_LSCC_ESEQ : PKT_LSCC_OK;
    }
    if (r != PKT_LSCC_OK) { s->lscc_bad[r]++; return; }
    L->fb_rx++;
    if (bps < L->fb_min_bps) L->fb_min_bps = bps;
    lscc_rl_on_feedback(&L->rl, now_ps(s), bps);
}

/* ---- timers ---------------------------------------------------------------- */

static void rc_tick(struct sw *s, struct lsccport *L)
{
    uint64_t q = L->in_bytes;
    uint64_t r = lscc_rc_update(&L->rc, &L->rcp, q, L->br_bytes);
    struct rte_mbuf *m;
    uint8_t *p;
    struct lscc_fb fb = {.units = lscc_rate_to_units(r, L->rcp.f_unit_bps)};

    memcpy(fb.src, s->eg[L->port].mac, 6);
    lscc_fb_tx_next(&L->fbtx, &fb.epoch, &fb.seq);
    L->br_bytes = 0;
    L->last_r = r;
    L->w_qin_sum += q; L->w_qin_n++; if (q > L->w_qin_max) L->w_qin_max = q;
    L->t_qin_sum += q; L->t_qin_n++; if (q > L->t_qin_max) L->t_qin_max = q;
    m = rte_pktmbuf_alloc(s->pool);
    p = m ? (uint8_t *)rte_pktmbuf_append(m, PKT_LSCC_FB_LEN) : NULL;
    if (!p || !lscc_fb_encode(&fb, s->lscc_keyp, p, PKT_LSCC_FB_LEN)) {
        if (m) rte_pktmbuf_free(m);
        L->fb_alloc_fail++;
        return;
    }
    if (enqueue_ctl(s, L->port, m, K_LSCC) == 0) L->fb_sent++;
}

static void rl_tick(struct sw *s, struct lsccport *L, uint64_t tsc)
{
    uint32_t cap = L->rlp.capacity, k = lscc_rl_tick(&L->rl, &L->rlp, now_ps(s), L->refs, cap);
    uint64_t qs = L->rl.q_bytes;
    static const uint8_t zero[6];

    L->w_qs_sum += qs; L->w_qs_n++; if (qs > L->w_qs_max) L->w_qs_max = qs;
    L->t_qs_sum += qs; L->t_qs_n++; if (qs > L->t_qs_max) L->t_qs_max = qs;
    if (qs >= L->rlp.q_ref_bytes) L->t_above++;
    if (k > cap) k = cap;
    for (uint32_t i = 0; i < k; i++) {
        const struct lsccinfo *f = &L->fi[L->refs[i] & (L->fi_cap - 1)];
        const struct route *rt;
        struct rte_mbuf *m;
        uint8_t *p;
        if (!f->used) continue;
        rt = route_lookup(s, f->sip);
        if (!rt) { L->cnp_noroute++; continue; }
        m = rte_pktmbuf_alloc(s->pool);
        p = m ? (uint8_t *)rte_pktmbuf_append(m, PKT_ROCE_CNP_LEN) : NULL;
        /* MACs are filled in by deliver() once the next hop is known. */
        if (!p || !pkt_build_roce_cnp(p, PKT_ROCE_CNP_LEN, zero, zero, s->cp_ip, f->sip, f->sport, f->qpn)) {
            if (m) rte_pktmbuf_free(m);
            L->cnp_alloc_fail++;
            continue;
        }
        L->direct_cnps++;
        forward(s, rt, f->sip, m, K_OWN_CNP, NULL, tsc);
    }
    fi_gc(L, tsc);
}

void lscc_tick(struct sw *s, uint64_t tsc)
{
    for (uint16_t p = 0; p < s->nports; p++) {
        struct lsccport *L = s->eg[p].lscc;
        if (!L) continue;
        if (!L->rc_next) { L->rc_next = tsc + L->rc_cyc; L->rl_next = tsc + L->rl_cyc; }
        if (tsc >= L->rc_next) {
            rc_tick(s, L);
            L->rc_next += L->rc_cyc;
            if (L->rc_next < tsc) L->rc_next = tsc + L->rc_cyc;   /* after a stall: no replay */
        }
        if (tsc >= L->rl_next) {
            rl_tick(s, L, tsc);
            L->rl_next += L->rl_cyc;
            if (L->rl_next < tsc) L->rl_next = tsc + L->rl_cyc;
        }
    }
}

/* ---- reports --------------------------------------------------------------- */

static double mean(uint64_t sum, uint64_t n) { return n ? (double)sum / (double)n : 0.0; }

void lscc_print_stat(struct sw *s, double t)
{
    for (uint16_t p = 0; p < s->nports; p++) {
        struct lsccport *L = s->eg[p].lscc;
        if (!L) continue;
        printf("lscc t=%.3f port=%u R_mbps=%.3f br_mbps=%.3f qin_mean=%.0f qin_max=%" PRIu64 " R_rx_mbps=%.3f"
               " qstar_mean=%.0f qstar_max=%" PRIu64 " direct_cnps=%" PRIu64 " fb_sent=%" PRIu64 " fb_rx=%" PRIu64 "\n",
               t, p, (double)L->last_r / 1e6, (double)L->rc.br_bps / 1e6, mean(L->w_qin_sum, L->w_qin_n), L->w_qin_max,
               (double)L->rl.rate_bps / 1e6, mean(L->w_qs_sum, L->w_qs_n), L->w_qs_max, L->direct_cnps, L->fb_sent,
               L->fb_rx);
        L->w_qin_sum = L->w_qin_n = L->w_qin_max = L->w_qs_sum = L->w_qs_n = L->w_qs_max = 0;
    }
}

void lscc_print_final(const struct sw *s)
{
    if (!s->any_lscc) return;
    for (uint16_t p = 0; p < s->nports; p++) {
        const struct lsccport *L = s->eg[p].lscc;
        if (!L) continue;
        printf("final lscc port=%u updates=%" PRIu64 " fb_sent=%" PRIu64 " fb_alloc_fail=%" PRIu64 " fb_rx=%" PRIu64
               " R_last_mbps=%.3f qin_mean=%.0f qin_max=%" PRIu64 " qstar_mean=%.0f qstar_max=%" PRIu64
               " rounds=%" PRIu64 " rounds_above=%" PRIu64 " direct_cnps=%" PRIu64 " cnp_noroute=%" PRIu64
               " cnp_alloc_fail=%" PRIu64 " remote_cnps=%" PRIu64 " remote_cnp_unknown=%" PRIu64 " ce_cleared=%" PRIu64
               " clamp_up=%" PRIu64 " clamp_down=%" PRIu64 " clamp_min=%" PRIu64 " clamp_max=%" PRIu64
               " ft_inserted=%" PRIu64 " ft_evicted=%" PRIu64 " ft_full=%" PRIu64 " fi_full=%" PRIu64 " fi_freed=%" PRIu64
               " fb_resync=%" PRIu64 " fb_epoch=%" PRIu64 " fb_seq=%" PRIu32 " R_rx_min_mbps=%.4f\n",
               p, L->rc.n_updates, L->fb_sent, L->fb_alloc_fail, L->fb_rx, (double)L->last_r / 1e6,
               mean(L->t_qin_sum, L->t_qin_n), L->t_qin_max, mean(L->t_qs_sum, L->t_qs_n), L->t_qs_max, L->rl.n_ticks,
               L->t_above, L->direct_cnps, L->cnp_noroute, L->cnp_alloc_fail, L->remote_cnps, L->remote_cnp_unknown,
               L->ce_cleared, L->rc.n_clamp_up, L->rc.n_clamp_down, L->rc.n_clamp_min, L->rc.n_clamp_max,
               L->rl.n_inserted, L->rl.n_evicted, L->rl.n_full, L->fi_full, L->fi_freed, L->fbrx.n_resync,
               L->fbrx.epoch, L->fbrx.seq, L->fb_min_bps == UINT64_MAX ? -1.0 : (double)L->fb_min_bps / 1e6);
    }
    printf("final lscc_bad");
    for (int r = 1; r < PKT_LSCC_NRESULTS; r++) printf(" %s=%" PRIu64, pkt_lscc_strerror(r), s->lscc_bad[r]);
    printf("\n");
}
