/*
 * tp_dcqcn.c -- DCQCN (Zhu et al., SIGCOMM 2015) and DCQCN+PI at the NIC.
 *
 * The sender is DCQCN's reaction point (src/cc/dcqcn.c); the receiver is
 * its notification point (np_cnp: a RoCEv2 CNP for ECN-marked frames, at
 * most one per np_interval).  `dcqcn` marks with RED on every switch port;
 * `dcqcn_pi` replaces RED with a PI controller per port (agent_ecn.c).
 * [dcqcn] profile = paper | hpcc_sim | hpcc_sim_paper (and overrides r_ai,
 * r_hai, min_rate, timer, alpha_interval, byte_counter); [dcqcn_pi] q_ref,
 * period, a, b override the PI defaults.
 */
#include "engine/ccreg.h"
#include "engine/scenario.h"
#include "net/agent_ecn.h"
#include "net/net.h"
#include "dcqcn.h"

_Static_assert(sizeof(struct dcqcn) <= sizeof(((struct flow *)0)->cc), "struct dcqcn must fit in flow.cc");
#define ST(f) ((struct dcqcn *)(void *)(f)->cc.raw)

static void dcqcn_t_sync(struct net *n, struct flow *f)
{
    flow_set_cc_rate(n, f, dcqcn_rate_bps(ST(f)));
    flow_set_cc_deadline(n, f, dcqcn_deadline(ST(f)));
}

static void dcqcn_t_start(struct net *n, struct flow *f)
{
    const struct dcqcn_params *p = f->cc_prm;
    dcqcn_init(ST(f), p, flow_line_rate(n, f), n->el.now);
    dcqcn_t_sync(n, f);
}

static simtime_t dcqcn_t_np_interval(const void *prm)
{
    return ((const struct dcqcn_params *)prm)->cnp_interval_ps;
}

static void dcqcn_t_on_cnp(struct net *n, struct flow *f, const struct packet *p)
{
    if (p->cnp_kind != CNP_ECN)
        return;
    dcqcn_on_cnp(ST(f), f->cc_prm, n->el.now);
    dcqcn_t_sync(n, f);
}

static void dcqcn_t_on_send(struct net *n, struct flow *f, const struct packet *p)
{
    uint64_t before = dcqcn_rate_bps(ST(f));
    dcqcn_on_sent(ST(f), f->cc_prm, p->bytes, n->el.now);
    if (dcqcn_rate_bps(ST(f)) != before || dcqcn_deadline(ST(f)) != f->cc_deadline)
        dcqcn_t_sync(n, f);
}

static void dcqcn_t_on_timer(struct net *n, struct flow *f)
{
    dcqcn_on_timer(ST(f), f->cc_prm, n->el.now);
    dcqcn_t_sync(n, f);
}

static const struct transport_ops transport_dcqcn = {
    .name = "dcqcn", .start = dcqcn_t_start, .on_cnp = dcqcn_t_on_cnp, .on_timer = dcqcn_t_on_timer,
    .on_send = dcqcn_t_on_send, .np_cnp = 1, .np_interval = dcqcn_t_np_interval,
};


struct dcqcn_opt {
    int profile;                       /* enum dcqcn_profile */
    /* [dcqcn] overrides of the profile's RP parameters (has_*: given);
     * for scaled settings such as the data plane's LSCC test
     * (docs/crossdc.md "Data plane") */
    uint64_t r_ai, r_hai, min_rate, timer, alpha_interval, byte_counter;
    int has_r_ai, has_r_hai, has_min_rate, has_timer, has_alpha_interval, has_byte_counter;
    /* [dcqcn_pi] overrides (dcqcn_pi only) */
    uint64_t pi_q_ref, pi_period;
    int has_pi_a, has_pi_b;
    double pi_a, pi_b;
};

static int dcqcn_read(struct cfg *c, void *opt, struct cfg_err *err)
{
    static const char *const prof[] = { "paper", "hpcc_sim", "hpcc_sim_paper", NULL };
    struct dcqcn_opt *o = opt;
    TRY(cfg_enum(c, "dcqcn", "profile", prof, 0, &o->profile, err));
#define OVR(key, fn, field) do { o->has_##field = cfg_find(c, "dcqcn", key) != NULL; \
                                 TRY(fn(c, "dcqcn", key, 0, &o->field, err)); } while (0)
    OVR("r_ai", cfg_rate, r_ai);
    OVR("r_hai", cfg_rate, r_hai);
    OVR("min_rate", cfg_rate, min_rate);
    OVR("timer", cfg_time, timer);
    OVR("alpha_interval", cfg_time, alpha_interval);
    OVR("byte_counter", cfg_bytes, byte_counter);
#undef OVR
    return 0;
}

static int dcqcn_pi_read(struct cfg *c, void *opt, struct cfg_err *err)
{
    struct dcqcn_opt *o = opt;
    TRY(dcqcn_read(c, opt, err));
    TRY(cfg_bytes(c, "dcqcn_pi", "q_ref", 0, &o->pi_q_ref, err));
    TRY(cfg_time(c, "dcqcn_pi", "period", 0, &o->pi_period, err));
    o->has_pi_a = cfg_find(c, "dcqcn_pi", "a") != NULL;
    o->has_pi_b = cfg_find(c, "dcqcn_pi", "b") != NULL;
    TRY(cfg_double(c, "dcqcn_pi", "a", 0, &o->pi_a, err));
    TRY(cfg_double(c, "dcqcn_pi", "b", 0, &o->pi_b, err));
    return 0;
}

static int dcqcn_prm(const struct cc_ctx *x, const void *opt, void *prm, char *why, size_t nwhy)
{
    const struct dcqcn_opt *o = opt;
    struct dcqcn_params *p = prm;
    dcqcn_params_default(p, x->line_bps, (enum dcqcn_profile)o->profile);
    if (o->has_r_ai) p->r_ai_bps = o->r_ai;
    if (o->has_r_hai) p->r_hai_bps = o->r_hai;
    if (o->has_min_rate) p->min_rate_bps = o->min_rate;
    if (o->has_timer) p->timer_ps = o->timer;
    if (o->has_alpha_interval) p->alpha_interval_ps = o->alpha_interval;
    if (o->has_byte_counter) p->byte_counter = o->byte_counter;
    return dcqcn_params_check(p, why, nwhy);
}

/* RED marking with the profile's kmin, kmax, pmax for the port speed. */
static void dcqcn_marking(uint64_t bps, const void *opt, struct ecn_marking *m)
{
    struct dcqcn_red_params red;
    dcqcn_red_default(&red, bps, (enum dcqcn_profile)((const struct dcqcn_opt *)opt)->profile);
    m->kmin = red.kmin_bytes;
    m->kmax = red.kmax_bytes;
    m->pmax = red.pmax;
}

/* DCQCN+PI: a PI marking controller on every switch egress port. */
static int dcqcn_pi_port(struct scenario *sc, const void *opt, uint32_t port, struct cfg *c, struct cfg_err *err)
{
    const struct dcqcn_opt *o = opt;
    struct dcqcn_pi_params pp;
    dcqcn_pi_params_default(&pp, sc->net.ports[port].rate_bps);
    if (o->pi_q_ref)
        pp.q_ref_bytes = o->pi_q_ref;
    if (o->pi_period)
        pp.period_ps = o->pi_period;
    if (o->has_pi_a)
        pp.a = o->pi_a;
    if (o->has_pi_b)
        pp.b = o->pi_b;
    char why[160];
    if (dcqcn_pi_params_check(&pp, why, sizeof why))
        return cfg_section_errorf(err, c, "dcqcn_pi", "invalid parameters: %s", why);
    if (dcqcn_pi_agent_attach(&sc->net, port, &pp) == NONE32)
        return cfg_section_errorf(err, c, "dcqcn_pi", "out of memory");
    return 0;
}

const struct cc_algo cc_algo_dcqcn = {
    .name = "dcqcn", .tp = &transport_dcqcn, .sections = { "dcqcn" }, .prm_section = "dcqcn",
    .opt_size = sizeof(struct dcqcn_opt), .read = dcqcn_read,
    .prm_size = sizeof(struct dcqcn_params), .params = dcqcn_prm, .marking = dcqcn_marking,
};

const struct cc_algo cc_algo_dcqcn_pi = {
    .name = "dcqcn_pi", .tp = &transport_dcqcn, .sections = { "dcqcn", "dcqcn_pi" }, .prm_section = "dcqcn",
    .opt_size = sizeof(struct dcqcn_opt), .read = dcqcn_pi_read,
    .prm_size = sizeof(struct dcqcn_params), .params = dcqcn_prm, .port_setup = dcqcn_pi_port,
};
