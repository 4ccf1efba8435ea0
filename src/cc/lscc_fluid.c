/*
 * lscc_fluid.c -- the fluid model of LSCC's loop (lscc_fluid.h).
 *
 * Storage, carved from the caller's block in this order:
 *   arrivals   uint64[D/dt + 1]   bytes reaching the remote queue, a ring
 *                                 indexed by step (written D ahead)
 *   samples    uint64[periods]    Qcur at each period end in the window
 *   slots      lscc_rl_entry[cap] Alg. 2's flow table
 *   refs       uint32[M]          the flows one tick names
 *   frac       double[M]          each flow's byte remainder
 *   sources    struct dcqcn[M]
 * The feedback messages in flight (at most N + 1, N = 2D/T ≤ 256) sit in a
 * fixed ring on the stack.
 */
#include "lscc_fluid.h"
#include "cc_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PS_PER_US 1000000ull
#define PS_PER_MS 1000000000ull
#define BITS_PS   8000000000000.0   /* 8 bit/byte · 10^12 ps/s */

void lscc_fluid_params_default(struct lscc_fluid_params *p)
{
    uint64_t lh = 200000000000ull;          /* §IV-B: 200 Gb/s long-haul link */
    memset(p, 0, sizeof *p);
    p->flows = 4;                           /* Fig. 8: four sources */
    p->sources = LSCC_FLUID_DCQCN;
    p->nic_bps = 40000000000ull;            /* Fig. 1: servers at 40 Gb/s */
    p->bottleneck_bps = 40000000000ull;     /* one 40 Gb/s server link */
    p->one_way_ps = 1 * PS_PER_MS;          /* §IV-B: 1 ms one way */
    p->start_ps = 0;
    p->duration_ps = 300 * PS_PER_MS;       /* ours: twice Fig. 8's 150 ms */
    p->measure_ps = 150 * PS_PER_MS;        /* ours: the second half */
    p->step_ps = 1 * PS_PER_US;             /* ours */
    lscc_rc_params_default(&p->rc, lh, p->one_way_ps);
    lscc_rl_params_default(&p->rl, lh, p->one_way_ps, p->rc.period_ps);
    dcqcn_params_default(&p->dcqcn, p->nic_bps, DCQCN_PROFILE_PAPER);
}

int lscc_fluid_params_blame(const struct lscc_fluid_params *p, unsigned *blame, char *why, size_t why_len)
{
    if (p->flows < 1 || p->flows > LSCC_FLUID_MAX_FLOWS)
        return lscc_fail(blame, LSCC_FLUID_BLAME_FLOWS, why, why_len, "flows must be in 1..1024");
    if (p->sources != LSCC_FLUID_DCQCN && p->sources != LSCC_FLUID_IDEAL)
        return lscc_fail(blame, LSCC_FLUID_BLAME_SOURCES, why, why_len, "sources must be dcqcn or ideal");
    unsigned rates = (p->nic_bps == 0 || p->nic_bps > LSCC_RATE_LIMIT_BPS ? LSCC_FLUID_BLAME_NIC : 0) |
                     (p->bottleneck_bps == 0 || p->bottleneck_bps > LSCC_RATE_LIMIT_BPS ? LSCC_FLUID_BLAME_BOTTLENECK : 0);
    if (rates)
        return lscc_fail(blame, rates, why, why_len, "NIC and bottleneck rates must be in (0, 2^48] b/s");
    if (p->step_ps == 0)
        return lscc_fail(blame, LSCC_FLUID_BLAME_STEP, why, why_len, "step must be > 0");
    if (p->one_way_ps == 0)
        return lscc_fail(blame, LSCC_FLUID_BLAME_DELAY, why, why_len, "the one-way delay must be > 0");
    if (p->one_way_ps % p->step_ps)
        return lscc_fail(blame, LSCC_FLUID_BLAME_DELAY | LSCC_FLUID_BLAME_STEP, why, why_len,
                         "the one-way delay must be a multiple of the step");
    if (p->one_way_ps / p->step_ps > LSCC_FLUID_MAX_DELAY_STEPS)
        return lscc_fail(blame, LSCC_FLUID_BLAME_DELAY | LSCC_FLUID_BLAME_STEP, why, why_len,
                         "the one-way delay must be at most 10^8 steps");
    if (p->duration_ps == 0 || p->duration_ps > LSCC_FLUID_MAX_PS)
        return lscc_fail(blame, LSCC_FLUID_BLAME_DURATION, why, why_len, "duration must be in (0, 60s]");
    if (p->measure_ps >= p->duration_ps)
        return lscc_fail(blame, LSCC_FLUID_BLAME_MEASURE | LSCC_FLUID_BLAME_DURATION, why, why_len,
                         "the window must start before the end of the run");
    if (p->start_ps >= p->duration_ps || p->stagger_ps >= p->duration_ps ||
        p->start_ps + (uint64_t)(p->flows - 1) * p->stagger_ps >= p->duration_ps)
        return lscc_fail(blame, LSCC_FLUID_BLAME_START | (p->flows > 1 ? LSCC_FLUID_BLAME_STAGGER : 0) | LSCC_FLUID_BLAME_DURATION,
                         why, why_len, "every source must start before the end of the run");
    if (lscc_rc_params_blame(&p->rc, blame, why, why_len) || lscc_rl_params_blame(&p->rl, blame, why, why_len))
        return -1;
    if (p->rc.period_ps % p->step_ps)
        return lscc_fail(blame, LSCC_BLAME_PERIOD | LSCC_FLUID_BLAME_STEP, why, why_len,
                         "the period T must be a multiple of the step");
    if (p->rl.cnp_interval_ps % p->step_ps)
        return lscc_fail(blame, LSCC_BLAME_CNP_INTERVAL | LSCC_FLUID_BLAME_STEP, why, why_len,
                         "the direct-CNP interval must be a multiple of the step");
    if (p->duration_ps / p->step_ps > LSCC_FLUID_MAX_WORK / (p->flows + 1ull))
        return lscc_fail(blame, LSCC_FLUID_BLAME_FLOWS | LSCC_FLUID_BLAME_DURATION | LSCC_FLUID_BLAME_STEP, why, why_len,
                         "(flows + 1) x duration / step must be at most 2e9 (about a minute): "
                         "shorten the duration, raise the step or use fewer flows");
    if (p->duration_ps / p->rc.period_ps > 50000000ull)
        return lscc_fail(blame, LSCC_FLUID_BLAME_DURATION | LSCC_BLAME_PERIOD, why, why_len,
                         "duration / T must be at most 5·10^7 periods");
    /* The feedback ring holds the messages of the last 2D + T. */
    if ((p->one_way_ps + p->rc.period_ps - 1) / p->rc.period_ps + 1 > LSCC_MAX_N + 1)
        return lscc_fail(blame, LSCC_FLUID_BLAME_DELAY | LSCC_BLAME_PERIOD, why, why_len,
                         "the one-way delay must be at most 256 periods T");
    if (p->sources == LSCC_FLUID_DCQCN && dcqcn_params_check(&p->dcqcn, why, why_len)) {
        if (blame)
            *blame |= LSCC_FLUID_BLAME_DCQCN;
        return -1;
    }
    return 0;
}

int lscc_fluid_params_check(const struct lscc_fluid_params *p, char *why, size_t why_len)
{
    return lscc_fluid_params_blame(p, NULL, why, why_len);
}

/* Sizes of the parts, in the order of the file comment. */
static void parts(const struct lscc_fluid_params *p, size_t sz[6])
{
    sz[0] = (size_t)(p->one_way_ps / p->step_ps + 1) * sizeof(uint64_t);
    sz[1] = (size_t)(p->duration_ps / p->rc.period_ps + 1) * sizeof(uint64_t);
    sz[2] = lscc_rl_storage_bytes(&p->rl);
    sz[3] = (size_t)p->flows * sizeof(uint32_t);
    sz[4] = (size_t)p->flows * sizeof(double);
    sz[5] = (size_t)p->flows * sizeof(struct dcqcn);
    for (int i = 0; i < 6; i++)   /* keep every part 16-byte aligned */
        sz[i] = (sz[i] + 15) & ~(size_t)15;
}

size_t lscc_fluid_storage_bytes(const struct lscc_fluid_params *p)
{
    if (lscc_fluid_params_check(p, NULL, 0))
        return 0;
    size_t sz[6], total = 0;
    parts(p, sz);
    for (int i = 0; i < 6; i++)
        total += sz[i];
    return total;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Nearest rank: the smallest sample with at least q of them at or below. */
static uint64_t rank(const uint64_t *sorted, uint64_t n, double q)
{
    uint64_t k = (uint64_t)ceil(q * (double)n);
    return sorted[k ? k - 1 : 0];
}

int lscc_fluid_run(const struct lscc_fluid_params *p, void *storage, struct lscc_fluid_result *res,
                   void (*series)(void *ctx, const struct lscc_fluid_sample *s), void *ctx,
                   char *why, size_t why_len)
{
    if (lscc_fluid_params_check(p, why, why_len))
        return -1;
    size_t sz[6];
    parts(p, sz);
    unsigned char *m = storage;
    uint64_t *arr = (uint64_t *)m;                m += sz[0];
    uint64_t *qs = (uint64_t *)m;                 m += sz[1];
    struct lscc_rl_entry *slots = (void *)m;      m += sz[2];
    uint32_t *refs = (uint32_t *)m;               m += sz[3];
    double *frac = (double *)m;                   m += sz[4];
    struct dcqcn *src = (struct dcqcn *)m;
    memset(storage, 0, sz[0] + sz[1]);
    memset(frac, 0, sz[4]);

    const uint64_t dt = p->step_ps, T = p->rc.period_ps, tick = p->rl.cnp_interval_ps;
    const uint64_t d_steps = p->one_way_ps / dt, ring = d_steps + 1;
    const uint32_t M = p->flows;
    struct lscc_rc rc;
    struct lscc_rl rl;
    lscc_rc_init(&rc, &p->rc);
    lscc_rl_init(&rl, &p->rl, slots, 0);
    for (uint32_t i = 0; i < M; i++)
        dcqcn_init(&src[i], &p->dcqcn, p->nic_bps, 0);

    /* Feedback in flight: R computed at fb_t[k], reaching the local egress
     * D later; a ring of LSCC_MAX_N + 2 entries (checked above). */
    uint64_t fb_t[LSCC_MAX_N + 2], fb_r[LSCC_MAX_N + 2];
    unsigned fb_head = 0, fb_len = 0;

    memset(res, 0, sizeof *res);
    res->flows = M;
    res->r_min_bps = UINT64_MAX;
    double qcur = 0, drain_frac = 0, win_out = 0, period_out = 0, qstar_sum = 0, r_sum = 0;
    double *win_bytes = res->flow_mean_bps;   /* bytes first, rates at the end */
    uint64_t nq = 0, near = 0, tick_cnps = 0;
    const double drain_step = (double)p->bottleneck_bps * (double)dt / BITS_PS;

    for (uint64_t t = 0; t < p->duration_ps; t += dt) {
        uint64_t k = t / dt;
        /* 1. Feedback that has crossed the link. */
        while (fb_len && fb_t[fb_head] + p->one_way_ps <= t) {
            lscc_rl_on_feedback(&rl, t, fb_r[fb_head]);
            fb_head = (fb_head + 1) % (LSCC_MAX_N + 2);
            fb_len--;
        }
        /* 2. The sources send for one step. */
        uint64_t sent = 0;
        uint32_t active = M;                 /* sources start in index order */
        if (t < p->start_ps)
            active = 0;
        else if (p->stagger_ps && (t - p->start_ps) / p->stagger_ps + 1 < M)
            active = (uint32_t)((t - p->start_ps) / p->stagger_ps + 1);
        for (uint32_t i = 0; i < active; i++) {
            double r;
            if (p->sources == LSCC_FLUID_IDEAL) {
                r = (double)rl.rate_bps / active;
            } else {
                dcqcn_on_timer(&src[i], &p->dcqcn, t);
                r = (double)dcqcn_rate_bps(&src[i]);
            }
            if (r > (double)p->nic_bps)
                r = (double)p->nic_bps;
            frac[i] += r * (double)dt / BITS_PS;
            uint64_t b = (uint64_t)frac[i];
            frac[i] -= (double)b;
            if (!b)
                continue;
            if (p->sources == LSCC_FLUID_DCQCN)
                dcqcn_on_sent(&src[i], &p->dcqcn, b, t);
            struct lscc_key key = { .sip = i + 1, .dip = 0, .sport = (uint16_t)(i + 1), .dport = 4791 };
            lscc_rl_on_data(&rl, &p->rl, t, &key, i, b > UINT32_MAX ? UINT32_MAX : (uint32_t)b, 0);
            sent += b;
            if (t >= p->measure_ps)
                win_bytes[i] += (double)b;
        }
        lscc_rl_input(&rl, t, sent);
        arr[(k + d_steps) % ring] += sent;
        /* 3. The remote queue takes this step's arrivals and drains. */
        qcur += (double)arr[k % ring];
        arr[k % ring] = 0;
        drain_frac += drain_step;
        double out = floor(drain_frac);
        if (out > qcur)
            out = qcur;
        drain_frac -= out;
        if (drain_frac >= 1)                 /* the queue ran dry: unused time is lost */
            drain_frac -= floor(drain_frac);
        qcur -= out;
        period_out += out;
        if (t >= p->measure_ps)
            win_out += out;
        if ((uint64_t)qcur > res->qcur_max_run_bytes)
            res->qcur_max_run_bytes = (uint64_t)qcur;
        uint64_t now = t + dt;
        /* 4. Alg. 2's tick at the local egress. */
        if (now % tick == 0) {
            uint32_t n = lscc_rl_tick(&rl, &p->rl, now, refs, M);
            res->direct_cnps += n;
            tick_cnps += n;
            if (p->sources == LSCC_FLUID_DCQCN)
                for (uint32_t j = 0; j < n && j < M; j++)
                    dcqcn_on_cnp(&src[refs[j]], &p->dcqcn, now);
        }
        /* 5. Alg. 1 at the remote egress. */
        if (now % T == 0) {
            uint64_t q = (uint64_t)qcur;
            uint64_t r = lscc_rc_update(&rc, &p->rc, q, (uint64_t)period_out);
            if (fb_len < LSCC_MAX_N + 2) {
                unsigned at = (fb_head + fb_len) % (LSCC_MAX_N + 2);
                fb_t[at] = now;
                fb_r[at] = r;
                fb_len++;
            }
            uint64_t qstar = lscc_rl_qlen(&rl, now);
            if (now > p->measure_ps) {
                qs[nq++] = q;
                if (2 * q >= p->rc.q_ref_bytes && 2 * q <= 3 * p->rc.q_ref_bytes)
                    near++;
                qstar_sum += (double)qstar;
                if (qstar > res->qstar_max_bytes)
                    res->qstar_max_bytes = qstar;
                r_sum += (double)r;
                if (r < res->r_min_bps)
                    res->r_min_bps = r;
                if (r > res->r_max_bps)
                    res->r_max_bps = r;
            }
            if (series) {
                struct lscc_fluid_sample s = {
                    .t_ps = now, .qcur_bytes = q, .qstar_bytes = qstar, .r_bps = r,
                    .ra_sent_bps = rc.ra_sum, .br_bps = (uint64_t)rc.br_bps, .r_local_bps = rl.rate_bps,
                    .src_bps = (uint64_t)((double)sent * BITS_PS / (double)dt),
                    .direct_cnps = (uint32_t)(tick_cnps > UINT32_MAX ? UINT32_MAX : tick_cnps),
                };
                series(ctx, &s);
            }
            tick_cnps = 0;
            period_out = 0;
        }
    }

    double win_s = (double)(p->duration_ps - p->measure_ps) / 1e12;
    double sum = 0, sum2 = 0;
    for (uint32_t i = 0; i < M; i++) {
        win_bytes[i] = win_bytes[i] * 8 / win_s;
        sum += win_bytes[i];
        sum2 += win_bytes[i] * win_bytes[i];
    }
    res->jain = sum2 > 0 ? sum * sum / (M * sum2) : 0;
    res->util = win_out * 8 / win_s / (double)p->bottleneck_bps;
    res->samples = nq;
    if (nq) {
        double qsum = 0;
        for (uint64_t i = 0; i < nq; i++)
            qsum += (double)qs[i];
        res->qcur_mean_bytes = qsum / (double)nq;
        qsort(qs, nq, sizeof *qs, cmp_u64);
        res->qcur_p50_bytes = rank(qs, nq, 0.50);
        res->qcur_p99_bytes = rank(qs, nq, 0.99);
        res->qcur_max_bytes = qs[nq - 1];
        res->near_qref = (double)near / (double)nq;
        res->qstar_mean_bytes = qstar_sum / (double)nq;
        res->r_mean_bps = r_sum / (double)nq;
    } else {
        res->r_min_bps = 0;
    }
    return 0;
}
