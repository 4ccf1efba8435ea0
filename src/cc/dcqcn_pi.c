/*
 * dcqcn_pi.c -- PI marking controller of DCQCN+PI (CoNEXT'16 §5, "ECN versus Delay").
 *
 *   step  = a·(q − q_ref) + b·(q − q_old)     (signed, in double)
 *   state = clamp(state + step)  or  state + step   (clamp_state 1 / 0)
 *   p     = clamp(state) to [0, p_max];  q_old = q
 */
#include "dcqcn_pi.h"
#include "cc_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PS_PER_US     1000000ull
/* Fluid model (jitupadhye-zz/rdma fluidmodel/dcqcn/dcqcn_pi.m, 1000-B
 * packets): qref = 200e3·8/packetSize = 200 packets, b' = 5.816e-6,
 * a' = (1 + .0001)·b'.  Per byte: b = b'/1000, a = (a' − b')/1000. */
#define PI_QREF_B     200000ull
#define PI_B_PER_B    5.816e-9
#define PI_A_PER_B    5.816e-13
/* T: our choice, see dcqcn_pi.h. */
#define PI_T_PS       (1 * PS_PER_US)
/* p ∈ [0, 1] (CoNEXT'16 §5: p is a marking probability; the model clamps
 * min(max(p, 0), 1)). */
#define PI_PMAX       1.0

void dcqcn_pi_params_default(struct dcqcn_pi_params *p, uint64_t line_bps)
{
    (void)line_bps;
    memset(p, 0, sizeof *p);
    p->a = PI_A_PER_B;
    p->b = PI_B_PER_B;
    p->q_ref_bytes = PI_QREF_B;
    p->period_ps = PI_T_PS;
    p->p_max = PI_PMAX;
    p->clamp_state = 1;
}


int dcqcn_pi_params_check(const struct dcqcn_pi_params *p, char *why, size_t why_len)
{
    if (!(p->a >= 0.0 && isfinite(p->a)))
        return cc_fail(why, why_len, "a must be finite and >= 0");
    if (!(p->b >= 0.0 && isfinite(p->b)))
        return cc_fail(why, why_len, "b must be finite and >= 0");
    if (p->period_ps == 0)
        return cc_fail(why, why_len, "period_ps must be > 0");
    if (!(p->p_max > 0.0 && p->p_max <= 1.0))
        return cc_fail(why, why_len, "p_max must be in (0, 1]");
    if (p->clamp_state > 1)
        return cc_fail(why, why_len, "clamp_state must be 0 or 1");
    return 0;
}

void dcqcn_pi_init(struct dcqcn_pi *s, const struct dcqcn_pi_params *p, uint64_t now_ps)
{
    memset(s, 0, sizeof *s);
    s->deadline_ps = now_ps >= UINT64_MAX - p->period_ps ? UINT64_MAX - 1 : now_ps + p->period_ps;
}

static double clamp01(double x, double hi)
{
    return x < 0.0 ? 0.0 : (x > hi ? hi : x);
}

double dcqcn_pi_update(struct dcqcn_pi *s, const struct dcqcn_pi_params *p, uint64_t qbytes)
{
    double q = (double)qbytes;
    double step = p->a * (q - (double)p->q_ref_bytes) + p->b * (q - (double)s->q_old);
    double x = s->state + step;

    if (x < 0.0)
        s->n_clamp_lo++;
    else if (x > p->p_max)
        s->n_clamp_hi++;
    s->p = clamp01(x, p->p_max);
    s->state = p->clamp_state ? s->p : x;
    s->q_old = qbytes;
    s->n_updates++;
    return s->p;
}

void dcqcn_pi_on_timer(struct dcqcn_pi *s, const struct dcqcn_pi_params *p, uint64_t qbytes, uint64_t now_ps)
{
    if (now_ps < s->deadline_ps)
        return;
    dcqcn_pi_update(s, p, qbytes);
    s->deadline_ps = now_ps >= UINT64_MAX - p->period_ps ? UINT64_MAX - 1 : now_ps + p->period_ps;
}

uint64_t dcqcn_pi_deadline(const struct dcqcn_pi *s)
{
    return s->deadline_ps;
}

double dcqcn_pi_prob(const struct dcqcn_pi *s)
{
    return s->p;
}

int dcqcn_pi_mark(const struct dcqcn_pi *s, double u01)
{
    return u01 < s->p;
}
