/*
 * dctcp.c -- DCTCP sender, window form (SIGCOMM 2010 §3) and the HPCC
 * simulator's rate form (reference-implementations.md §2).  Model, per-ACK
 * order of operations and the paper-vs-simulator differences: dctcp.h.
 *
 * Both forms update α before reacting to the ECE of the same ACK (Linux
 * tcp_dctcp: the α update runs in the ACK event, before the ECE -> CWR
 * reaction; HPCC simulator: same order in HandleAckDctcp).
 */
#include "dctcp.h"
#include "cc_util.h"

#include <string.h>

/* g = 1/16 (paper §3.4/§4 experiments; Linux dctcp_shift_g = 4; HPCC
 * simulator run.py "dctcp: g = 1/16", reference §2). */
#define G_DEFAULT           (1.0 / 16.0)
/* α before the first window = 1: the paper does not say; Linux starts at
 * DCTCP_MAX_ALPHA (1024/1024) and the HPCC simulator at m_alpha = 1 (as
 * its public code and forks construct the QP). */
#define ALPHA_INIT          1.0
/* Segment / payload size 1000 B: the fabric's mtu_payload default
 * (net.h) and the HPCC simulator's PACKET_PAYLOAD_SIZE 1000 (reference §2). */
#define MSS_DEFAULT         1000u
/* PAPER K: 65 packets at 10 Gb/s (paper §4 testbed; 20 packets at 1 Gb/s),
 * 1500 B frames, scaled linearly with the link rate (our choice):
 * 97 500 B per 10G = 9.75 B per Mb/s. */
#define K_PAPER_B_PER_10G   97500ull
/* HPCC K = 30·bw/10 KB with bw in Gb/s and KB = 1000 B (run.py,
 * reference §2) = 3 B per Mb/s. */
#define K_HPCC_B_PER_MBPS   3ull
/* Initial window 10 MSS (RFC 6928; the paper leaves it to TCP). */
#define IW_SEGMENTS         10u
/* Smallest window after a cut: 2 MSS (Linux dctcp_ssthresh floor; the
 * paper does not say). */
#define MIN_CWND_SEGMENTS   2u
/* DCTCP_RATE_AI: 1000 Mb/s (RdmaHw DctcpRateAI default and config.txt
 * DCTCP_RATE_AI), 615 Mb/s in run.py (reference §2). */
#define RATE_AI_HPCC        1000000000ull
#define RATE_AI_RUNPY       615000000ull
/* Minimum rate: RdmaHw MinRate 100 Mb/s; run.py MIN_RATE 1000 Mb/s
 * (reference §2). */
#define MIN_RATE_HPCC       100000000ull
#define MIN_RATE_RUNPY      1000000000ull

#define BPS_10G             10000000000ull
#define PS_PER_S            1e12


static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

void dctcp_params_default(struct dctcp_params *p, uint64_t line_bps, int profile)
{
    uint64_t mbps = line_bps / 1000000ull;

    memset(p, 0, sizeof *p);
    p->g = G_DEFAULT;
    p->alpha_init = ALPHA_INIT;
    p->mss_bytes = MSS_DEFAULT;
    if (profile == DCTCP_PROFILE_HPCC || profile == DCTCP_PROFILE_HPCC_RUNPY) {
        p->mode = DCTCP_RATE;
        p->k_bytes = mbps * K_HPCC_B_PER_MBPS;
        p->rate_ai_bps = profile == DCTCP_PROFILE_HPCC ? RATE_AI_HPCC : RATE_AI_RUNPY;
        p->min_rate_bps = profile == DCTCP_PROFILE_HPCC ? MIN_RATE_HPCC : MIN_RATE_RUNPY;
        if (line_bps > 0 && p->min_rate_bps > line_bps) p->min_rate_bps = line_bps;
    } else {
        p->mode = DCTCP_WINDOW;
        /* mbps·97500/10000 without overflow for any uint64 line rate */
        p->k_bytes = (mbps / 10000ull) * K_PAPER_B_PER_10G
                   + (mbps % 10000ull) * K_PAPER_B_PER_10G / 10000ull;
    }
    if (p->k_bytes == 0) p->k_bytes = 1;
    p->init_cwnd_bytes = (uint64_t)IW_SEGMENTS * p->mss_bytes;
    p->min_cwnd_bytes = (uint64_t)MIN_CWND_SEGMENTS * p->mss_bytes;
    p->max_cwnd_bytes = 0;
    p->base_rtt_ps = 0;
}

int dctcp_params_check(const struct dctcp_params *p, char *why, size_t why_len)
{
    if (!p) return cc_fail(why, why_len, "params is NULL");
    if (p->mode != DCTCP_WINDOW && p->mode != DCTCP_RATE)
        return cc_fail(why, why_len, "mode must be DCTCP_WINDOW or DCTCP_RATE");
    if (!(p->g > 0.0 && p->g <= 1.0)) return cc_fail(why, why_len, "g must be in (0, 1]");
    if (!(p->alpha_init >= 0.0 && p->alpha_init <= 1.0))
        return cc_fail(why, why_len, "alpha_init must be in [0, 1]");
    if (p->mss_bytes == 0) return cc_fail(why, why_len, "mss_bytes must be > 0");
    if (p->k_bytes == 0) return cc_fail(why, why_len, "k_bytes must be > 0");
    if (p->mode == DCTCP_WINDOW) {
        if (p->min_cwnd_bytes == 0) return cc_fail(why, why_len, "min_cwnd_bytes must be > 0");
        if (p->init_cwnd_bytes < p->min_cwnd_bytes)
            return cc_fail(why, why_len, "init_cwnd_bytes must be >= min_cwnd_bytes");
        if (p->max_cwnd_bytes != 0 && p->max_cwnd_bytes < p->init_cwnd_bytes)
            return cc_fail(why, why_len, "max_cwnd_bytes must be 0 or >= init_cwnd_bytes");
    } else {
        if (p->min_rate_bps == 0) return cc_fail(why, why_len, "min_rate_bps must be > 0");
    }
    return 0;
}

void dctcp_init(struct dctcp *s, const struct dctcp_params *p, uint64_t line_bps, uint64_t now_ps)
{
    (void)now_ps;
    memset(s, 0, sizeof *s);
    s->mode = (uint8_t)p->mode;
    s->base_rtt_ps = p->base_rtt_ps;
    s->line_bps = line_bps;
    s->alpha = p->alpha_init;
    s->cwnd = p->init_cwnd_bytes;
    if (p->max_cwnd_bytes && s->cwnd > p->max_cwnd_bytes) s->cwnd = p->max_cwnd_bytes;
    s->ssthresh = UINT64_MAX;
    s->rate_bps = line_bps;
}

static void alpha_update(struct dctcp *s, const struct dctcp_params *p, double frac)
{
    if (frac > 1.0) frac = 1.0;
    s->alpha = (1.0 - p->g) * s->alpha + p->g * frac;
    if (s->alpha > 1.0) s->alpha = 1.0;         /* rounding guard */
    if (s->alpha < 0.0) s->alpha = 0.0;
    s->last_frac = frac;
    s->n_windows++;
}

/* The paper's window-based sender. */
static void on_ack_window(struct dctcp *s, const struct dctcp_params *p, uint64_t acked,
                          int ece, uint64_t snd_una, uint64_t snd_nxt)
{
    int cut = 0;

    /* observation window */
    if (!s->win_open) {
        s->win_open = 1;
        s->win_end = snd_nxt;
    }
    s->win_acked = sat_add(s->win_acked, acked);
    if (ece) s->win_marked = sat_add(s->win_marked, acked);
    if (snd_una >= s->win_end) {
        alpha_update(s, p, s->win_acked ? (double)s->win_marked / (double)s->win_acked : 0.0);
        s->win_acked = s->win_marked = 0;
        s->win_end = snd_nxt;
    }

    /* once-per-window reaction to ECE */
    if (s->in_cwr && snd_una > s->cwr_end)
        s->in_cwr = 0;
    if (ece && !s->in_cwr) {
        uint64_t dec = (uint64_t)((double)s->cwnd * s->alpha / 2.0);
        s->cwnd = dec < s->cwnd ? s->cwnd - dec : 0;
        if (s->cwnd < p->min_cwnd_bytes) s->cwnd = p->min_cwnd_bytes;
        s->ssthresh = s->cwnd;
        s->ca_acc = 0;
        s->in_cwr = 1;
        s->cwr_end = snd_nxt;
        s->n_cuts++;
        cut = 1;
    }

    /* TCP increase outside CWR */
    if (!cut && !s->in_cwr && acked > 0) {
        if (s->cwnd < s->ssthresh) {
            s->cwnd = sat_add(s->cwnd, acked);             /* slow start */
        } else {
            s->ca_acc = sat_add(s->ca_acc, acked);         /* +1 MSS per cwnd acked */
            while (s->ca_acc >= s->cwnd) {
                s->ca_acc -= s->cwnd;
                s->cwnd = sat_add(s->cwnd, p->mss_bytes);
                s->n_ai++;
            }
        }
        if (p->max_cwnd_bytes && s->cwnd > p->max_cwnd_bytes) s->cwnd = p->max_cwnd_bytes;
    }
}

/* The HPCC simulator's rate-based DCTCP (RdmaHw::HandleAckDctcp). */
static void on_ack_rate(struct dctcp *s, const struct dctcp_params *p,
                        int ece, uint64_t snd_una, uint64_t snd_nxt)
{
    int new_batch = 0;

    if (ece) s->win_marked++;
    if (!s->win_open || snd_una > s->win_end) {
        new_batch = 1;
        if (!s->win_open) {                     /* first RTT: open only */
            s->win_open = 1;
            s->win_end = snd_nxt;
            s->batch = snd_nxt / p->mss_bytes + 1;
        } else {
            alpha_update(s, p, (double)s->win_marked / (double)s->batch);
            s->win_end = snd_nxt;
            s->win_marked = 0;
            s->batch = (snd_nxt >= snd_una ? snd_nxt - snd_una : 0) / p->mss_bytes + 1;
        }
    }
    if (s->in_cwr && snd_una > s->cwr_end)
        s->in_cwr = 0;
    if (ece && !s->in_cwr) {
        uint64_t r = (uint64_t)((double)s->rate_bps * (1.0 - s->alpha / 2.0));
        s->rate_bps = r < p->min_rate_bps ? p->min_rate_bps : r;
        s->in_cwr = 1;
        s->cwr_end = snd_nxt;
        s->n_cuts++;
    }
    if (!s->in_cwr && new_batch) {
        s->rate_bps = sat_add(s->rate_bps, p->rate_ai_bps);
        if (s->rate_bps > s->line_bps) s->rate_bps = s->line_bps;
        s->n_ai++;
    }
}

void dctcp_on_ack(struct dctcp *s, const struct dctcp_params *p, uint64_t acked_bytes,
                  int ece, uint64_t snd_una, uint64_t snd_nxt, uint64_t now_ps)
{
    (void)now_ps;
    s->n_acks++;
    if (ece) s->n_ece++;
    if (p->mode == DCTCP_RATE)
        on_ack_rate(s, p, ece, snd_una, snd_nxt);
    else
        on_ack_window(s, p, acked_bytes, ece, snd_una, snd_nxt);
}

void dctcp_on_timer(struct dctcp *s, const struct dctcp_params *p, uint64_t now_ps)
{
    (void)s; (void)p; (void)now_ps;
}

uint64_t dctcp_deadline(const struct dctcp *s)
{
    (void)s;
    return UINT64_MAX;
}

uint64_t dctcp_window_bytes(const struct dctcp *s)
{
    return s->mode == DCTCP_RATE ? 0 : s->cwnd;
}

uint64_t dctcp_rate_bps(const struct dctcp *s)
{
    double r;

    if (s->mode == DCTCP_RATE) return s->rate_bps;
    if (s->base_rtt_ps == 0) return s->line_bps;
    r = (double)s->cwnd * 8.0 * PS_PER_S / (double)s->base_rtt_ps;
    if (r >= (double)s->line_bps) return s->line_bps;
    return (uint64_t)r;
}
