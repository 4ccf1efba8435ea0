/*
 * tp_dcqcn_bcm.c -- Broadcom's DCQCN-p and DCQCN-d ("Introduction to
 * RoCE congestion control", ../shared/papers/broadcom-intro-roce-cc-dcqcn.txt)
 * at the NIC: a reaction point run per control period, a receiver NP that
 * sends RoCEv2 CNPs for ECN marks, and switch marking per the note (RED for
 * -p, a step at K for -d).  [dcqcn_bcm] overrides the per-speed defaults
 * and chooses our readings of the note's open points (dcqcn_bcm.h).
 */
#include "engine/ccreg.h"
#include "engine/scenario.h"
#include "net/net.h"
#include "dcqcn_bcm.h"

_Static_assert(sizeof(struct dcqcn_bcm) <= sizeof(((struct flow *)0)->cc), "struct dcqcn_bcm must fit in flow.cc");
#define ST(f) ((struct dcqcn_bcm *)(void *)(f)->cc.raw)

static void bcm_t_sync(struct net *n, struct flow *f)
{
    flow_set_cc_rate(n, f, dcqcn_bcm_rate_bps(ST(f)));
    flow_set_cc_deadline(n, f, dcqcn_bcm_deadline(ST(f)));
}

static void bcm_t_start(struct net *n, struct flow *f)
{
    const struct dcqcn_bcm_params *p = f->cc_prm;
    dcqcn_bcm_init(ST(f), p, flow_line_rate(n, f), n->el.now);
    bcm_t_sync(n, f);
}

/* Default 0: the RP counts every CNP (CNPs/TX ratio). */
static simtime_t bcm_t_np_interval(const void *prm)
{
    return ((const struct dcqcn_bcm_params *)prm)->cnp_interval_ps;
}

static void bcm_t_on_cnp(struct net *n, struct flow *f, const struct packet *p)
{
    if (p->cnp_kind != CNP_ECN)
        return;
    dcqcn_bcm_on_cnp(ST(f), f->cc_prm, n->el.now);
    bcm_t_sync(n, f);
}

static void bcm_t_on_send(struct net *n, struct flow *f, const struct packet *p)
{
    dcqcn_bcm_on_sent(ST(f), f->cc_prm, 1, n->el.now);
    if (dcqcn_bcm_deadline(ST(f)) != f->cc_deadline)
        bcm_t_sync(n, f);
}

static void bcm_t_on_timer(struct net *n, struct flow *f)
{
    /* The control period's random jitter comes from the sender's stream. */
    dcqcn_bcm_on_timer(ST(f), f->cc_prm, n->el.now, rng_uniform(net_node_rng(n, n->hosts[f->src].node)));
    bcm_t_sync(n, f);
}

static const struct transport_ops transport_dcqcn_bcm = {
    .name = "dcqcn_bcm", .start = bcm_t_start, .on_cnp = bcm_t_on_cnp, .on_timer = bcm_t_on_timer,
    .on_send = bcm_t_on_send, .np_cnp = 1, .np_interval = bcm_t_np_interval,
};

#define HAS(sec, key) (cfg_find(c, sec, key) != NULL)

/* [dcqcn_bcm] overrides; has_* = the key was given. */
struct bcm_over {
    int has_period, has_jitter, has_fr, has_g, has_cp_init, has_r_ai, has_r_inc_max, has_min_rate;
    int has_n0, has_pace_max, has_window, has_cnp_interval, has_decrease, has_silent;
    uint64_t period, fr, r_ai, r_inc_max, min_rate, n0, pace_max, window, cnp_interval;
    double jitter, g, cp_init;
    int decrease, silent;
};

/* [dcqcn_bcm]: the Broadcom note's configurable values and our readings of
 * its open points (dcqcn_bcm.h); each key overrides the per-speed default. */
static int bcm_read(struct cfg *c, void *opt, struct cfg_err *err)
{
    struct bcm_over *b = opt;
    static const char *const dec[] = { "period", "first_cnp", NULL };
    static const char *const sil[] = { "increase", "hold", NULL };
    const char *S = "dcqcn_bcm";
    b->has_period = HAS(S, "period");
    b->has_jitter = HAS(S, "jitter");
    b->has_fr = HAS(S, "fr_steps");
    b->has_g = HAS(S, "g");
    b->has_cp_init = HAS(S, "cp_init");
    b->has_r_ai = HAS(S, "r_ai");
    b->has_r_inc_max = HAS(S, "r_inc_max");
    b->has_min_rate = HAS(S, "min_rate");
    b->has_n0 = HAS(S, "incast_n0");
    b->has_pace_max = HAS(S, "pace_max");
    b->has_window = HAS(S, "incast_window");
    b->has_cnp_interval = HAS(S, "cnp_interval");
    b->has_decrease = HAS(S, "decrease");
    b->has_silent = HAS(S, "silent_period");
    TRY(cfg_time(c, S, "period", 0, &b->period, err));
    TRY(cfg_percent(c, S, "jitter", 0, &b->jitter, err));
    TRY(cfg_u64(c, S, "fr_steps", 0, &b->fr, err));
    TRY(cfg_double(c, S, "g", 0, &b->g, err));
    TRY(cfg_double(c, S, "cp_init", 0, &b->cp_init, err));
    TRY(cfg_rate(c, S, "r_ai", 0, &b->r_ai, err));
    TRY(cfg_rate(c, S, "r_inc_max", 0, &b->r_inc_max, err));
    TRY(cfg_rate(c, S, "min_rate", 0, &b->min_rate, err));
    TRY(cfg_u64(c, S, "incast_n0", 0, &b->n0, err));
    TRY(cfg_u64(c, S, "pace_max", 0, &b->pace_max, err));
    TRY(cfg_time(c, S, "incast_window", 0, &b->window, err));
    TRY(cfg_time(c, S, "cnp_interval", 0, &b->cnp_interval, err));
    TRY(cfg_enum(c, S, "decrease", dec, 0, &b->decrease, err));
    TRY(cfg_enum(c, S, "silent_period", sil, 0, &b->silent, err));
    if (b->has_jitter && !(b->jitter >= 0 && b->jitter < 1))
        return cfg_errorf(err, cfg_find(c, S, "jitter"), "jitter must be in 0%%..99.9999%%");
    if (b->has_fr && b->fr > 1000)
        return cfg_errorf(err, cfg_find(c, S, "fr_steps"), "fr_steps must be at most 1000");
    if (b->has_n0 && (b->n0 < 1 || b->n0 > UINT32_MAX))
        return cfg_errorf(err, cfg_find(c, S, "incast_n0"), "incast_n0 must be 1..4294967295");
    if (b->has_pace_max && (b->pace_max < 1 || b->pace_max > 1000000))
        return cfg_errorf(err, cfg_find(c, S, "pace_max"), "pace_max must be 1..1000000");
    return 0;
}

/* Applies [dcqcn_bcm] to a block built from the defaults for one NIC speed.
 * r_inc_max keeps its ratio to R_AI (8) when only r_ai is given. */
static void bcm_apply(const struct bcm_over *b, struct dcqcn_bcm_params *p)
{
    if (b->has_period)
        p->period_ps = b->period;
    if (b->has_jitter)
        p->jitter_ppm = (uint32_t)(b->jitter * 1e6 + 0.5);
    if (b->has_fr)
        p->fr_steps = (uint32_t)b->fr;
    if (b->has_g)
        p->g = b->g;
    if (b->has_cp_init)
        p->cp_init = b->cp_init;
    if (b->has_r_ai) {
        uint64_t mul = p->r_ai_bps ? p->r_inc_max_bps / p->r_ai_bps : 1;
        p->r_ai_bps = b->r_ai;
        p->r_inc_max_bps = b->r_ai > UINT64_MAX / mul ? UINT64_MAX : b->r_ai * mul;
    }
    if (b->has_r_inc_max)
        p->r_inc_max_bps = b->r_inc_max;
    if (b->has_min_rate)
        p->min_rate_bps = b->min_rate;
    if (b->has_n0)
        p->incast_n0 = (uint32_t)b->n0;
    if (b->has_pace_max)
        p->pace_max = (uint32_t)b->pace_max;
    if (b->has_window)
        p->incast_window_ps = b->window;
    if (b->has_cnp_interval)
        p->cnp_interval_ps = b->cnp_interval;
    if (b->has_decrease)
        p->decrease_on_cnp = (uint32_t)b->decrease;
    if (b->has_silent)
        p->hold_silent = (uint32_t)b->silent;
}

static int bcm_prm(const struct cc_ctx *x, const void *opt, void *prm, enum dcqcn_bcm_mode mode, char *why,
                   size_t nwhy)
{
    dcqcn_bcm_params_default(prm, x->line_bps, mode);
    bcm_apply(opt, prm);
    return dcqcn_bcm_params_check(prm, why, nwhy);
}

static int bcm_p_prm(const struct cc_ctx *x, const void *opt, void *prm, char *why, size_t nwhy)
{
    return bcm_prm(x, opt, prm, DCQCN_BCM_MODE_P, why, nwhy);
}

static int bcm_d_prm(const struct cc_ctx *x, const void *opt, void *prm, char *why, size_t nwhy)
{
    return bcm_prm(x, opt, prm, DCQCN_BCM_MODE_D, why, nwhy);
}

/* DCQCN-p: RED between kmin and kmax. */
static void bcm_p_marking(uint64_t bps, const void *opt, struct ecn_marking *m)
{
    struct dcqcn_bcm_cp_params cp;
    dcqcn_bcm_cp_default(&cp, bps);
    m->kmin = cp.kmin_bytes;
    m->kmax = cp.kmax_bytes;
    m->pmax = cp.pmax;
}

/* DCQCN-d: a step at K. */
static void bcm_d_marking(uint64_t bps, const void *opt, struct ecn_marking *m)
{
    struct dcqcn_bcm_cp_params cp;
    dcqcn_bcm_cp_default(&cp, bps);
    m->kmin = m->kmax = cp.k_bytes;
    m->pmax = 1.0;
}

const struct cc_algo cc_algo_dcqcn_p = {
    .name = "dcqcn_p", .tp = &transport_dcqcn_bcm, .sections = { "dcqcn_bcm" }, .prm_section = "dcqcn_bcm",
    .opt_size = sizeof(struct bcm_over), .read = bcm_read,
    .prm_size = sizeof(struct dcqcn_bcm_params), .params = bcm_p_prm, .marking = bcm_p_marking,
};

const struct cc_algo cc_algo_dcqcn_d = {
    .name = "dcqcn_d", .tp = &transport_dcqcn_bcm, .sections = { "dcqcn_bcm" }, .prm_section = "dcqcn_bcm",
    .opt_size = sizeof(struct bcm_over), .read = bcm_read,
    .prm_size = sizeof(struct dcqcn_bcm_params), .params = bcm_d_prm, .marking = bcm_d_marking,
};
