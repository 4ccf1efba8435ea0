/*
 * hpcc.c -- HPCC sender state machine (SIGCOMM 2019, Algorithm 1) and the
 * HPCC ns-3 simulator's rate-based variant (reference-implementations.md
 * §2).  See hpcc.h for the model; the per-ACK flow is
 *
 *   ACK --bad INT--> ignored
 *       --not RTT-closing, fast_react = 0--> ignored
 *       --first record / nhop changed--> store records, no sample
 *       --sample--> U (EWMA) -> W (paper) or R (simulator);
 *                   reference W^c / R^c and incStage only on RTT-closing ACKs
 *
 * Arithmetic is in double: U is a real number by definition and windows
 * and rates are rounded down to whole bytes and bit/s when stored.
 */
#include "hpcc.h"
#include "cc_util.h"

#include <string.h>

/* ps per second. */
#define PS_PER_S        1e12
/* eta = 0.95 (the HPCC paper's target utilization; simulator U_TARGET 0.95,
 * config.txt, and RdmaHw TargetUtil default). */
#define ETA_DEFAULT     0.95
/* maxStage = 5: the paper's stated setting; MI_THRESH = 0 in the
 * simulator's config.txt (reference doc §2 table), which the authors say
 * the paper's simulations used (alibaba-edu/HPCC issue #24). */
#define MAX_STAGE_PAPER 5u
#define MAX_STAGE_SIM   0u
/* W_AI = W_init·(1 - eta)/N (HPCC §3, W_AI choice): N = 100 is our choice (the paper leaves
 * N to the operator); at 100 Gb/s, T = 10 µs it gives 62 B, next to the
 * simulator's R_AI·T = 40 Mb/s·10 µs = 50 B. */
#define W_AI_FLOWS      100u
/* Simulator R_AI = 10·bw/25 Mb/s with bw the NIC rate in Gb/s (run.py
 * "hp"): R_AI = line_bps·10/25/1000 = line_bps/2500. */
#define R_AI_DIV_SIM    2500u
/* Simulator MIN_RATE = 1000 Mb/s (run.py, common to all CCs). */
#define MIN_RATE_SIM    1000000000ull
/* u_ewma starts at 1 (simulator, reference doc §2); Algorithm 1 gives no
 * initial U: 0 is our choice (an idle path keeps W at W_init). */
#define U_INIT_SIM      1.0
#define U_INIT_PAPER    0.0


/* line·T/8 in bytes, rounded down. */
static uint64_t bdp_bytes(uint64_t line_bps, uint64_t t_ps)
{
    return (uint64_t)((double)line_bps * (double)t_ps / (8.0 * PS_PER_S));
}

/* v rounded down and clamped to [lo, hi] (v may be huge). */
static uint64_t clamp_u64(double v, uint64_t lo, uint64_t hi)
{
    if (!(v >= (double)lo)) return lo;       /* also catches NaN */
    if (v >= (double)hi) return hi;
    return (uint64_t)v;
}

void hpcc_params_default(struct hpcc_params *p, uint64_t line_bps, uint64_t base_rtt_ps,
                         enum hpcc_profile profile)
{
    memset(p, 0, sizeof *p);
    p->profile = (uint32_t)profile;
    p->line_bps = line_bps;
    p->base_rtt_ps = base_rtt_ps;
    p->eta = ETA_DEFAULT;
    p->fast_react = 1;       /* Alg. 1 reacts to every ACK; simulator FAST_REACT 1 */
    p->qlen_min = 1;         /* Alg. 1 line 5; simulator too */
    p->w_init_bytes = bdp_bytes(line_bps, base_rtt_ps);   /* W_init = B_NIC·T (HPCC §3); simulator maxBdp */
    if (profile == HPCC_PROFILE_SIM) {
        p->max_stage = MAX_STAGE_SIM;
        p->u_init = U_INIT_SIM;
        p->r_ai_bps = line_bps / R_AI_DIV_SIM;
        p->min_rate_bps = MIN_RATE_SIM < line_bps ? MIN_RATE_SIM : line_bps;
        p->var_win = 1;      /* simulator VAR_WIN 1 (config.txt) */
    } else {
        p->max_stage = MAX_STAGE_PAPER;
        p->u_init = U_INIT_PAPER;
        p->w_ai_bytes = (uint64_t)((double)p->w_init_bytes * (1.0 - p->eta) / W_AI_FLOWS);
        if (p->w_ai_bytes == 0)
            p->w_ai_bytes = 1;
    }
}

int hpcc_params_check(const struct hpcc_params *p, char *why, size_t why_len)
{
    if (!p) return cc_fail(why, why_len, "params is NULL");
    if (p->profile != HPCC_PROFILE_PAPER && p->profile != HPCC_PROFILE_SIM)
        return cc_fail(why, why_len, "profile must be PAPER or SIM");
    if (p->line_bps == 0) return cc_fail(why, why_len, "line_bps must be > 0");
    if (p->base_rtt_ps == 0) return cc_fail(why, why_len, "base_rtt_ps must be > 0");
    if (!(p->eta > 0.0 && p->eta <= 1.0)) return cc_fail(why, why_len, "eta must be in (0, 1]");
    if (!(p->u_init >= 0.0 && p->u_init <= 1e6)) return cc_fail(why, why_len, "u_init must be in [0, 1e6]");
    if (p->w_init_bytes == 0) return cc_fail(why, why_len, "w_init_bytes must be > 0");
    if (p->fast_react > 1 || p->qlen_min > 1 || p->var_win > 1)
        return cc_fail(why, why_len, "fast_react, qlen_min and var_win must be 0 or 1");
    if (p->profile == HPCC_PROFILE_PAPER) {
        if (p->w_ai_bytes == 0) return cc_fail(why, why_len, "w_ai_bytes must be > 0");
        if (p->w_ai_bytes > p->w_init_bytes) return cc_fail(why, why_len, "w_ai_bytes must be <= w_init_bytes");
    } else {
        if (p->min_rate_bps == 0) return cc_fail(why, why_len, "min_rate_bps must be > 0");
        if (p->min_rate_bps > p->line_bps) return cc_fail(why, why_len, "min_rate_bps must be <= line_bps");
        if (p->r_ai_bps > p->line_bps) return cc_fail(why, why_len, "r_ai_bps must be <= line_bps");
    }
    return 0;
}

/* Paper: R = W/T (Alg. 1 line 27), at most line rate (rounding). */
static uint64_t window_rate(const struct hpcc_params *p, uint64_t w)
{
    return clamp_u64((double)w * 8.0 * PS_PER_S / (double)p->base_rtt_ps, 0, p->line_bps);
}

/* Simulator: win, or win·R/maxRate with VAR_WIN (at least 1 byte). */
static uint64_t sim_window(const struct hpcc_params *p, uint64_t r)
{
    if (!p->var_win)
        return p->w_init_bytes;
    return clamp_u64((double)p->w_init_bytes * (double)r / (double)p->line_bps, 1, p->w_init_bytes);
}

void hpcc_init(struct hpcc *s, const struct hpcc_params *p, uint64_t line_bps, uint64_t now_ps)
{
    uint64_t l = (line_bps && line_bps < p->line_bps) ? line_bps : p->line_bps;

    (void)now_ps;
    memset(s, 0, sizeof *s);
    s->u = p->u_init;
    if (p->profile == HPCC_PROFILE_SIM) {
        s->rc_bps = s->rate_bps = l < p->min_rate_bps ? p->min_rate_bps : l;
        s->w_bytes = sim_window(p, s->rate_bps);
    } else {
        uint64_t w = bdp_bytes(l, p->base_rtt_ps);
        if (w > p->w_init_bytes) w = p->w_init_bytes;
        if (w == 0) w = 1;
        s->wc_bytes = s->w_bytes = w;
        s->rate_bps = window_rate(p, w);
    }
}

int hpcc_hop_sample(const struct hpcc_params *p, const struct hpcc_hop_rec *prev,
                    const struct hpcc_int_hop *cur, double *tx_rate_bps, double *u)
{
    double dt, txr, b, q, qterm;

    if (cur->rate_bps == 0 || cur->ts_ps <= prev->ts_ps || cur->tx_bytes < prev->tx_bytes)
        return 0;
    if (p->base_rtt_ps == 0 || p->w_init_bytes == 0)
        return 0;
    dt = (double)(cur->ts_ps - prev->ts_ps);
    b = (double)cur->rate_bps;
    /* Alg. 1 line 4: txRate = Δbytes/Δts (bytes -> bits, ps -> s). */
    txr = (double)(cur->tx_bytes - prev->tx_bytes) * 8.0 * PS_PER_S / dt;
    /* Alg. 1 line 5 (qlen_min) or the per-link formula of §3. */
    q = (double)((p->qlen_min && prev->qlen_bytes < cur->qlen_bytes) ? prev->qlen_bytes : cur->qlen_bytes);
    if (p->profile == HPCC_PROFILE_SIM)
        qterm = q * (double)p->line_bps / (b * (double)p->w_init_bytes);     /* qlen·maxRate/(B·win) */
    else
        qterm = q * 8.0 * PS_PER_S / (b * (double)p->base_rtt_ps);           /* qlen/(B·T) */
    *tx_rate_bps = txr;
    *u = qterm + txr / b;
    return 1;
}

static void store_records(struct hpcc *s, const struct hpcc_int_hop *hops, unsigned nhop)
{
    for (unsigned i = 0; i < nhop; i++) {
        s->rec[i].ts_ps = hops[i].ts_ps;
        s->rec[i].tx_bytes = hops[i].tx_bytes;
        s->rec[i].qlen_bytes = hops[i].qlen_bytes;
    }
    s->nrec = (uint8_t)nhop;
}

/* ComputeWind (Alg. 1 lines 11-20) plus R = W/T. */
static void paper_update(struct hpcc *s, const struct hpcc_params *p, int rtt_end)
{
    int mi = s->u >= p->eta || s->inc_stage >= p->max_stage;
    double w;

    if (mi) {
        /* W = W^c/(U/eta) + W_AI; U = 0 (only via incStage >= maxStage)
         * means an unbounded MI: the window cap applies. */
        w = s->u > 0.0 ? (double)s->wc_bytes * p->eta / s->u + (double)p->w_ai_bytes
                       : (double)p->w_init_bytes;
        s->n_mi++;
    } else {
        w = (double)s->wc_bytes + (double)p->w_ai_bytes;
        s->n_ai++;
    }
    /* Cap at W_init (our choice: a window above B_NIC·T cannot be paced
     * faster than line rate; the simulator bounds R by the line rate). */
    s->w_bytes = clamp_u64(w, 1, p->w_init_bytes);
    s->rate_bps = window_rate(p, s->w_bytes);
    if (rtt_end) {
        s->wc_bytes = s->w_bytes;
        s->inc_stage = mi ? 0 : (s->inc_stage == UINT32_MAX ? UINT32_MAX : s->inc_stage + 1);
        s->n_rtt_updates++;
    } else {
        s->n_fast++;
    }
}

/* UpdateRateHp's rate computation (reference doc §2). */
static void sim_update(struct hpcc *s, const struct hpcc_params *p, int rtt_end)
{
    double max_c = s->u / p->eta, r;
    uint32_t new_stage;

    if (max_c >= 1.0 || s->inc_stage >= p->max_stage) {
        r = max_c > 0.0 ? (double)s->rc_bps / max_c + (double)p->r_ai_bps : (double)p->line_bps;
        new_stage = 0;
        s->n_mi++;
    } else {
        r = (double)s->rc_bps + (double)p->r_ai_bps;
        new_stage = s->inc_stage == UINT32_MAX ? UINT32_MAX : s->inc_stage + 1;
        s->n_ai++;
    }
    s->rate_bps = clamp_u64(r, p->min_rate_bps, p->line_bps);
    s->w_bytes = sim_window(p, s->rate_bps);
    if (rtt_end) {
        s->rc_bps = s->rate_bps;
        s->inc_stage = new_stage;
        s->n_rtt_updates++;
    } else {
        s->n_fast++;
    }
}

int hpcc_on_int(struct hpcc *s, const struct hpcc_params *p, int rtt_end,
                const struct hpcc_int_hop *hops, unsigned nhop)
{
    int sim = p->profile == HPCC_PROFILE_SIM;
    int any = 0;
    double umax = 0.0;
    uint64_t tau = 0;

    if (nhop > HPCC_MAX_HOPS || (nhop > 0 && !hops)) {
        s->n_bad_int++;
        return -1;
    }
    if (!rtt_end && !p->fast_react) {
        s->n_ignored++;
        return -1;
    }

    if (s->nrec == 0 || s->nrec != nhop) {
        /* First record, or the path changed: nothing to difference against. */
        if (s->nrec != 0)
            s->n_path_reset++;
    } else {
        /* MeasureInflight (Alg. 1 lines 2-8): u = max over hops, tau of
         * that hop.  Paper: the first usable hop seeds the max (so an idle
         * path, all u_j = 0, still decays U).  Simulator: u starts at 0 and
         * only a strictly larger u_j sets dt. */
        for (unsigned i = 0; i < nhop; i++) {
            double txr, u;
            if (!hpcc_hop_sample(p, &s->rec[i], &hops[i], &txr, &u)) {
                s->n_hop_skipped++;
                continue;
            }
            if ((!any && !sim) || u > umax) {
                umax = u;
                tau = hops[i].ts_ps - s->rec[i].ts_ps;
            }
            any = 1;
        }
    }
    store_records(s, hops, nhop);                    /* L = ack.L (line 27) */

    if (!any) {
        s->n_no_sample++;
        return 0;
    }

    /* Lines 8-9: tau = min(tau, T); U = (1 - tau/T)·U + (tau/T)·u. */
    if (tau > p->base_rtt_ps)
        tau = p->base_rtt_ps;
    {
        double f = (double)tau / (double)p->base_rtt_ps;
        s->u = (1.0 - f) * s->u + f * umax;
    }
    s->u_sample = umax;
    s->tau_ps = tau;

    if (sim)
        sim_update(s, p, rtt_end);
    else
        paper_update(s, p, rtt_end);
    return 1;
}

void hpcc_on_ack(struct hpcc *s, const struct hpcc_params *p, uint64_t ack_seq, uint64_t snd_nxt,
                 const struct hpcc_int_hop *hops, unsigned nhop, uint64_t now_ps)
{
    int rtt_end = ack_seq > s->last_update_seq;      /* Alg. 1 line 22 */
    int r;

    (void)now_ps;
    s->n_acks++;
    r = hpcc_on_int(s, p, rtt_end, hops, nhop);
    /* Line 24: lastUpdateSeq = snd_nxt on the ACK that closes an RTT.  The
     * simulator also advances it on an RTT-closing ACK without a sample
     * (the first ACK included). */
    if (rtt_end && (r == 1 || (r == 0 && p->profile == HPCC_PROFILE_SIM)))
        s->last_update_seq = snd_nxt > ack_seq ? snd_nxt : ack_seq;
}

void hpcc_on_timer(struct hpcc *s, const struct hpcc_params *p, uint64_t now_ps)
{
    (void)s; (void)p; (void)now_ps;
}

uint64_t hpcc_deadline(const struct hpcc *s)
{
    (void)s;
    return UINT64_MAX;
}

uint64_t hpcc_rate_bps(const struct hpcc *s)
{
    return s->rate_bps;
}

uint64_t hpcc_window_bytes(const struct hpcc *s)
{
    return s->w_bytes;
}
