/*
 * hpcc_star.c -- HPCC* (LSCC paper §III-D): HPCC's normal loop on ACKs plus
 * a near-source loop on direct INTs from the local egress switch; see
 * hpcc_star.h.  Both loops are hpcc.c's code (one implementation of HPCC's
 * W): the near loop is a second struct hpcc whose reference updates are
 * timed by the snd_una bookkeeping below instead of by sequence numbers.
 */
#include "hpcc_star.h"
#include "cc_util.h"

#include <string.h>

#define PS_PER_S 1e12

uint32_t hpcc_star_n_for(uint64_t base_rtt_ps)
{
    uint64_t n = (base_rtt_ps + HPCC_STAR_NEAR_PS / 2) / HPCC_STAR_NEAR_PS;
    if (n < 1)
        n = 1;
    if (n > HPCC_STAR_MAX_N)
        n = HPCC_STAR_MAX_N;
    return (uint32_t)n;
}

void hpcc_star_params_default(struct hpcc_star_params *p, uint64_t line_bps, uint64_t base_rtt_ps,
                              enum hpcc_profile profile, uint32_t n)
{
    memset(p, 0, sizeof *p);
    p->n = n ? n : hpcc_star_n_for(base_rtt_ps);
    hpcc_params_default(&p->loop, line_bps, base_rtt_ps, profile);
    hpcc_params_default(&p->near, line_bps, base_rtt_ps / p->n, profile);
    p->near_rtt = HPCC_STAR_NEAR_RTT_T_OVER_N;
}

void hpcc_star_params_near_rtt(struct hpcc_star_params *p, enum hpcc_star_near_rtt mode)
{
    uint64_t t = p->loop.base_rtt_ps;
    p->near_rtt = (uint32_t)mode;
    hpcc_params_default(&p->near, p->loop.line_bps, mode == HPCC_STAR_NEAR_RTT_T ? t : t / p->n,
                        (enum hpcc_profile)p->loop.profile);
}

int hpcc_star_params_check(const struct hpcc_star_params *p, char *why, size_t why_len)
{
    if (!p) return cc_fail(why, why_len, "params is NULL");
    if (p->n < 1 || p->n > HPCC_STAR_MAX_N) return cc_fail(why, why_len, "N must be 1..4096");
    if (hpcc_params_check(&p->loop, why, why_len)) return -1;
    if (hpcc_params_check(&p->near, why, why_len)) return -1;
    if (p->near.profile != p->loop.profile || p->near.line_bps != p->loop.line_bps)
        return cc_fail(why, why_len, "both loops need the same profile and line rate");
    if (p->near_rtt > HPCC_STAR_NEAR_RTT_T)
        return cc_fail(why, why_len, "near_rtt must be T_OVER_N or T");
    if (p->near_rtt == HPCC_STAR_NEAR_RTT_T_OVER_N && p->near.base_rtt_ps != p->loop.base_rtt_ps / p->n)
        return cc_fail(why, why_len, "the near loop's T must be the base RTT / N");
    if (p->near_rtt == HPCC_STAR_NEAR_RTT_T && p->near.base_rtt_ps != p->loop.base_rtt_ps)
        return cc_fail(why, why_len, "the near loop's T must be the base RTT (near_rtt = T)");
    return 0;
}

void hpcc_star_init(struct hpcc_star *s, const struct hpcc_star_params *p, uint64_t line_bps, uint64_t now_ps)
{
    memset(s, 0, sizeof *s);
    hpcc_init(&s->loop, &p->loop, line_bps, now_ps);
    hpcc_init(&s->near, &p->near, line_bps, now_ps);
}

/* Which loop sets the window after an update (diagnostics, summary.json). */
static void count_bind(struct hpcc_star *s, const struct hpcc_star_params *p)
{
    s->n_updates++;
    if (hpcc_star_w_star_bytes(s, p) < s->loop.w_bytes) {
        s->n_star_binds++;
        if (s->loop.w_bytes >= p->loop.w_init_bytes)
            s->n_wound++;
    }
}

/* snd_una + (snd_nxt − snd_una)·k/N: the ACK that closes the k-th RTT/N. */
static uint64_t mark_of(const struct hpcc_star *s, const struct hpcc_star_params *p, uint32_t k)
{
    __extension__ unsigned __int128 d = (unsigned __int128)(s->nxt - s->una) * k;
    return s->una + (uint64_t)(d / p->n);
}

void hpcc_star_on_ack(struct hpcc_star *s, const struct hpcc_star_params *p, uint64_t ack_seq, uint64_t snd_nxt,
                      const struct hpcc_int_hop *hops, unsigned nhop, uint64_t now_ps)
{
    uint64_t old = s->loop.last_update_seq;

    hpcc_on_ack(&s->loop, &p->loop, ack_seq, snd_nxt, hops, nhop, now_ps);
    if (s->loop.last_update_seq != old) {
        /* An RTT elapsed (§III-D): the normal loop moved lastUpdateSeq from
         * its old value, which HPCC* keeps as snd_una, to snd_nxt.  The end
         * of an RTT also ends its last RTT/N interval if no ACK hit it. */
        if (s->k < p->n) {
            s->near_due = 1;
            s->n_intervals++;
        }
        s->una = old;
        s->nxt = s->loop.last_update_seq;
        s->k = 0;
    }
    /* The ACK of snd_una + k·(snd_nxt − snd_una)/N: k·RTT/N have elapsed. */
    while (s->k < p->n && s->nxt > s->una && ack_seq >= mark_of(s, p, s->k + 1)) {
        s->k++;
        s->near_due = 1;
        s->n_intervals++;
    }
    s->mark = s->k < p->n && s->nxt > s->una ? mark_of(s, p, s->k + 1) : UINT64_MAX;
    count_bind(s, p);
}

int hpcc_star_on_dint(struct hpcc_star *s, const struct hpcc_star_params *p, const struct hpcc_int_hop *hops,
                      unsigned nhop, uint32_t b_units, uint64_t now_ps)
{
    struct hpcc_int_hop h[HPCC_MAX_HOPS];

    (void)now_ps;
    if (!hops || nhop == 0 || nhop > HPCC_MAX_HOPS || b_units == 0 || b_units > HPCC_STAR_B_MAX) {
        s->n_dint_bad++;
        return -1;
    }
    memcpy(h, hops, nhop * sizeof *h);
    h[nhop - 1].rate_bps = (uint64_t)b_units * HPCC_STAR_B_UNIT_BPS;   /* the 24-bit B field */
    s->n_dint++;
    if (hpcc_on_int(&s->near, &p->near, s->near_due, h, nhop) == 1 && s->near_due) {
        s->near_due = 0;
        s->n_near_ref++;
    }
    count_bind(s, p);
    return 0;
}

uint64_t hpcc_star_w_star_bytes(const struct hpcc_star *s, const struct hpcc_star_params *p)
{
    double w = (double)s->near.w_bytes * (double)p->loop.base_rtt_ps / (double)p->near.base_rtt_ps;
    if (w >= (double)p->loop.w_init_bytes)
        return p->loop.w_init_bytes;
    return w < 1.0 ? 1 : (uint64_t)w;
}

uint64_t hpcc_star_window_bytes(const struct hpcc_star *s, const struct hpcc_star_params *p)
{
    uint64_t ws = hpcc_star_w_star_bytes(s, p);
    return ws < s->loop.w_bytes ? ws : s->loop.w_bytes;
}

uint64_t hpcc_star_rate_bps(const struct hpcc_star *s, const struct hpcc_star_params *p)
{
    (void)p;
    return s->near.rate_bps < s->loop.rate_bps ? s->near.rate_bps : s->loop.rate_bps;
}
