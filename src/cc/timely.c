/*
 * timely.c -- TIMELY (SIGCOMM 2015, Algorithm 1), patched TIMELY (ECN or
 * Delay, CoNEXT 2016, §4.3, Algorithm 2) and the HPCC simulator's TIMELY
 * (reference-implementations.md §2).  See timely.h for the model.
 *
 *   ACK --ack_seq <= lastUpdateSeq--> gated (ignored)
 *       --echoed ts after now------> rejected
 *       --completion event---------> rtt = now - ts, rate update,
 *                                    lastUpdateSeq = snd_nxt
 *
 * Arithmetic in double; the rate is stored rounded down to whole bit/s.
 */
#include "timely.h"
#include "cc_util.h"

#include <string.h>

#define PS_PER_US       1000000ull
#define BPS_PER_MBPS    1000000ull
/* alpha = 0.875, beta = 0.8, T_low = 50 µs, T_high = 500 µs, minRTT = 20 µs:
 * the TIMELY recommended values as listed by ECN-or-Delay §4.1 (footnote
 * to the model validation); identical to the HPCC simulator's RdmaHw
 * TimelyAlpha/Beta/TLow/THigh/MinRtt defaults (reference doc §2).  (The
 * TIMELY authors' public code snippet suggests alpha = 0.02.) */
#define ALPHA_DEFAULT   0.875
#define BETA_DEFAULT    0.8
#define T_LOW_PS        (50 * PS_PER_US)
#define T_HIGH_PS       (500 * PS_PER_US)
#define MIN_RTT_PS      (20 * PS_PER_US)
/* delta = 10 Mb/s (TIMELY; ECN-or-Delay §4.2 "delta = 10Mbps"). */
#define DELTA_PAPER_BPS (10 * BPS_PER_MBPS)
/* HAI: N = 5 after 5 consecutive g <= 0 completions (TIMELY Alg. 1); the
 * HPCC simulator hard-codes the same 5 (reference doc §2). */
#define HAI_N           5u
#define HAI_THRESH      5u
/* Patched: beta = 0.008 (ECN-or-Delay §4.3: "we set beta = 0.008"). */
#define BETA_PATCHED    0.008
/* HPCC simulator (run.py "timely"): AI = bw Mb/s, HAI = 5·bw Mb/s with bw
 * the NIC rate in Gb/s, i.e. line/1000 and 5·line/1000; MIN_RATE 1000 Mb/s
 * (run.py, common to all CCs). */
#define SIM_AI_DIV      1000u
#define SIM_MIN_BPS     (1000 * BPS_PER_MBPS)
/* Patched weight w(g) breakpoints: +-1/4 (ECN-or-Delay §4.3). */
#define W_G_EDGE        0.25


void timely_params_default(struct timely_params *p, uint64_t line_bps, enum timely_profile profile)
{
    memset(p, 0, sizeof *p);
    p->mode = TIMELY_ORIGINAL;
    p->profile = (uint32_t)profile;
    p->alpha = ALPHA_DEFAULT;
    p->beta = BETA_DEFAULT;
    p->t_low_ps = T_LOW_PS;
    p->t_high_ps = T_HIGH_PS;
    p->min_rtt_ps = MIN_RTT_PS;
    p->rtt_ref_ps = T_LOW_PS;
    p->delta_bps = DELTA_PAPER_BPS;
    p->hai_bps = HAI_N * DELTA_PAPER_BPS;
    p->hai_thresh = HAI_THRESH;
    p->min_rate_bps = DELTA_PAPER_BPS;
    p->max_rate_bps = line_bps;
    if (profile == TIMELY_PROFILE_HPCC_SIM) {
        p->delta_bps = line_bps / SIM_AI_DIV;
        p->hai_bps = HAI_N * (line_bps / SIM_AI_DIV);
        p->min_rate_bps = SIM_MIN_BPS;
    } else if (profile == TIMELY_PROFILE_PATCHED) {
        p->mode = TIMELY_PATCHED;
        p->beta = BETA_PATCHED;
    }
    if (p->min_rate_bps > line_bps)
        p->min_rate_bps = line_bps;
}

int timely_params_check(const struct timely_params *p, char *why, size_t why_len)
{
    if (!p) return cc_fail(why, why_len, "params is NULL");
    if (p->mode != TIMELY_ORIGINAL && p->mode != TIMELY_PATCHED)
        return cc_fail(why, why_len, "mode must be ORIGINAL or PATCHED");
    if (p->profile > TIMELY_PROFILE_PATCHED) return cc_fail(why, why_len, "unknown profile");
    if (!(p->alpha > 0.0 && p->alpha <= 1.0)) return cc_fail(why, why_len, "alpha must be in (0, 1]");
    if (!(p->beta > 0.0 && p->beta <= 1.0)) return cc_fail(why, why_len, "beta must be in (0, 1]");
    if (p->min_rtt_ps == 0) return cc_fail(why, why_len, "min_rtt_ps must be > 0");
    if (p->t_high_ps == 0) return cc_fail(why, why_len, "t_high_ps must be > 0");
    if (p->t_low_ps > p->t_high_ps) return cc_fail(why, why_len, "t_low_ps must be <= t_high_ps");
    if (p->mode == TIMELY_PATCHED && p->rtt_ref_ps == 0) return cc_fail(why, why_len, "rtt_ref_ps must be > 0");
    if (p->max_rate_bps == 0) return cc_fail(why, why_len, "max_rate_bps must be > 0");
    if (p->min_rate_bps == 0) return cc_fail(why, why_len, "min_rate_bps must be > 0");
    if (p->min_rate_bps > p->max_rate_bps) return cc_fail(why, why_len, "min_rate_bps must be <= max_rate_bps");
    if (p->delta_bps > p->max_rate_bps || p->hai_bps > p->max_rate_bps)
        return cc_fail(why, why_len, "delta_bps and hai_bps must be <= max_rate_bps");
    return 0;
}

/* Clamp to [min, max], rounding down; counts clamps. */
static uint64_t clamp_rate(struct timely *s, const struct timely_params *p, double r)
{
    if (!(r >= (double)p->min_rate_bps)) {          /* also NaN */
        s->n_clamp_min++;
        return p->min_rate_bps;
    }
    if (r > (double)p->max_rate_bps) {
        s->n_clamp_max++;
        return p->max_rate_bps;
    }
    return (uint64_t)r;
}

void timely_init(struct timely *s, const struct timely_params *p, uint64_t line_bps, uint64_t now_ps)
{
    (void)now_ps;
    memset(s, 0, sizeof *s);
    s->rate_bps = line_bps < p->min_rate_bps ? p->min_rate_bps
                : line_bps > p->max_rate_bps ? p->max_rate_bps : line_bps;
}

double timely_patched_weight(double g)
{
    if (g <= -W_G_EDGE) return 0.0;
    if (g >= W_G_EDGE) return 1.0;
    return 2.0 * g + 0.5;
}

/* Additive increase: HAI once the previous hai_thresh increases counted in
 * inc_stage were in a row; the counter then advances. */
static double increase(struct timely *s, const struct timely_params *p, double r)
{
    int hai = s->inc_stage >= p->hai_thresh;
    if (hai) s->n_hai++; else s->n_ai++;
    if (s->inc_stage != UINT32_MAX)
        s->inc_stage++;
    return r + (double)(hai ? p->hai_bps : p->delta_bps);
}

void timely_on_rtt(struct timely *s, const struct timely_params *p, uint64_t rtt_ps)
{
    double r = (double)s->rate_bps, rtt = (double)rtt_ps, new_diff;
    int sim = p->profile == TIMELY_PROFILE_HPCC_SIM;

    s->last_rtt_ps = rtt_ps;
    if (!s->have_prev) {
        s->have_prev = 1;
        s->prev_rtt_ps = rtt_ps;
        if (sim) {
            /* Simulator: the first RTT only records lastRtt. */
            s->n_first++;
            return;
        }
        /* Paper: prev_rtt starts at the first sample (new_rtt_diff = 0), as
         * in the TIMELY authors' code snippet. */
    }
    /* Alg. 1: new_rtt_diff, prev_rtt, rtt_diff (EWMA), normalized gradient. */
    new_diff = rtt - (double)s->prev_rtt_ps;
    s->prev_rtt_ps = rtt_ps;
    s->rtt_diff_ps = (1.0 - p->alpha) * s->rtt_diff_ps + p->alpha * new_diff;
    s->gradient = s->rtt_diff_ps / (double)p->min_rtt_ps;
    s->n_updates++;

    if (rtt_ps < p->t_low_ps) {
        s->n_tlow++;
        if (sim)
            r = increase(s, p, r);                   /* simulator: counts toward HAI */
        else
            r += (double)p->delta_bps;               /* paper: plain delta, HAI counter untouched */
    } else if (rtt_ps > p->t_high_ps) {
        s->n_thigh++;
        r *= 1.0 - p->beta * (1.0 - (double)p->t_high_ps / rtt);
        s->inc_stage = 0;
    } else if (p->mode == TIMELY_PATCHED) {
        /* ECN-or-Delay Alg. 2: weight, error against RTT_ref, blend. */
        double w = timely_patched_weight(s->gradient);
        double err = (rtt - (double)p->rtt_ref_ps) / (double)p->rtt_ref_ps;
        r = (double)p->delta_bps * (1.0 - w) + r * (1.0 - p->beta * w * err);
        s->n_patched++;
    } else if (s->gradient <= 0.0) {
        r = increase(s, p, r);
    } else {
        double c = 1.0 - p->beta * s->gradient;
        r *= c > 0.0 ? c : 0.0;                      /* simulator: max(0, c) */
        s->inc_stage = 0;
        s->n_md++;
    }
    s->rate_bps = clamp_rate(s, p, r);
}

void timely_on_ack(struct timely *s, const struct timely_params *p, uint64_t ack_seq, uint64_t snd_nxt,
                   uint64_t tx_ts_ps, uint64_t now_ps)
{
    s->n_acks++;
    if (ack_seq <= s->last_update_seq) {
        s->n_gated++;
        return;
    }
    if (tx_ts_ps > now_ps) {
        /* An echo from another clock would wrap the unsigned RTT to ~2^64 ps
         * and force the T_high branch: reject it. */
        s->n_bad_rtt++;
        return;
    }
    s->last_update_seq = snd_nxt > ack_seq ? snd_nxt : ack_seq;
    timely_on_rtt(s, p, now_ps - tx_ts_ps);
}

void timely_on_timer(struct timely *s, const struct timely_params *p, uint64_t now_ps)
{
    (void)s; (void)p; (void)now_ps;
}

uint64_t timely_deadline(const struct timely *s)
{
    (void)s;
    return UINT64_MAX;
}

uint64_t timely_rate_bps(const struct timely *s)
{
    return s->rate_bps;
}

uint64_t timely_window_bytes(const struct timely *s)
{
    (void)s;
    return 0;
}
