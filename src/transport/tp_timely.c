/*
 * tp_timely.c -- TIMELY (Mittal et al., SIGCOMM 2015) and the patched
 * TIMELY of Zhu et al. (CoNEXT 2016) at the NIC: the rate follows the RTT
 * gradient, measured from the send timestamp each ACK echoes.
 * [timely] profile = paper | hpcc_sim picks timely's defaults;
 * timely_patched always uses the patched profile.
 */
#include "engine/ccreg.h"
#include "engine/scenario.h"
#include "net/net.h"
#include "timely.h"

_Static_assert(sizeof(struct timely) <= sizeof(((struct flow *)0)->cc), "struct timely must fit in flow.cc");
#define ST(f) ((struct timely *)(void *)(f)->cc.raw)

static void timely_t_start(struct net *n, struct flow *f)
{
    timely_init(ST(f), f->cc_prm, flow_line_rate(n, f), n->el.now);
    flow_set_cc_rate(n, f, timely_rate_bps(ST(f)));
}

static void timely_t_on_ack(struct net *n, struct flow *f, const struct packet *p)
{
    /* RTT = now - the acked data packet's send time, echoed by the ACK: one
     * clock, the simulator's (the bug class users reported: RTTs mixing
     * clocks or timestamps of the wrong packet). */
    timely_on_ack(ST(f), f->cc_prm, p->seq, f->snd_nxt, p->ts, n->el.now);
    flow_set_cc_rate(n, f, timely_rate_bps(ST(f)));
}

static const struct transport_ops transport_timely = {
    .name = "timely", .start = timely_t_start, .on_ack = timely_t_on_ack,
};

/* [timely]: the profile, and T_low / T_high overrides (0 = the profile's).
 * The overrides exist for long RTTs: with a base RTT above T_high (LSCC
 * Fig. 2's 0.82 ms over a 400 us long-haul link) every sample is a
 * multiplicative decrease; LSCC §II-C moves "the parameters of each
 * algorithm to more favourable values" without giving them. */
struct timely_opt {
    int profile;
    uint64_t t_low_ps, t_high_ps;
};

static int timely_read(struct cfg *c, void *opt, struct cfg_err *err)
{
    static const char *const prof[] = { "paper", "hpcc_sim", NULL };
    struct timely_opt *o = opt;
    if (cfg_enum(c, "timely", "profile", prof, 0, &o->profile, err) < 0 ||
        cfg_time(c, "timely", "t_low", 0, &o->t_low_ps, err) || cfg_time(c, "timely", "t_high", 0, &o->t_high_ps, err))
        return -1;
    return 0;
}

static int timely_prm(const struct cc_ctx *x, const void *opt, void *prm, char *why, size_t nwhy)
{
    const struct timely_opt *o = opt;
    struct timely_params *p = prm;
    timely_params_default(p, x->line_bps, o->profile ? TIMELY_PROFILE_HPCC_SIM : TIMELY_PROFILE_PAPER);
    if (o->t_low_ps)
        p->t_low_ps = o->t_low_ps;
    if (o->t_high_ps)
        p->t_high_ps = o->t_high_ps;
    return timely_params_check(p, why, nwhy);
}

static int timely_patched_prm(const struct cc_ctx *x, const void *opt, void *prm, char *why, size_t nwhy)
{
    timely_params_default(prm, x->line_bps, TIMELY_PROFILE_PATCHED);
    return timely_params_check(prm, why, nwhy);
}

const struct cc_algo cc_algo_timely = {
    .name = "timely", .tp = &transport_timely, .sections = { "timely" }, .prm_section = "timely",
    .opt_size = sizeof(struct timely_opt), .read = timely_read,
    .prm_size = sizeof(struct timely_params), .params = timely_prm,
};

const struct cc_algo cc_algo_timely_patched = {
    .name = "timely_patched", .tp = &transport_timely, .prm_section = "timely",
    .prm_size = sizeof(struct timely_params), .params = timely_patched_prm,
};
