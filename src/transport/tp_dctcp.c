/*
 * tp_dctcp.c -- DCTCP (Alizadeh et al., SIGCOMM 2010) at the NIC: ECE
 * echoed in ACKs sets alpha; `dctcp` is the HPCC simulator's rate-based
 * form ([dctcp] profile = hpcc | hpcc_runpy), `dctcp_window` the paper's
 * window form.  Switch ports mark with DCTCP's step threshold K.
 */
#include "engine/ccreg.h"
#include "engine/scenario.h"
#include "net/net.h"
#include "dctcp.h"

_Static_assert(sizeof(struct dctcp) <= sizeof(((struct flow *)0)->cc), "struct dctcp must fit in flow.cc");
#define ST(f) ((struct dctcp *)(void *)(f)->cc.raw)

static void dctcp_apply(struct net *n, struct flow *f)
{
    f->window = dctcp_window_bytes(ST(f));
    flow_set_cc_rate(n, f, dctcp_rate_bps(ST(f)));
}

static void dctcp_t_start(struct net *n, struct flow *f)
{
    dctcp_init(ST(f), f->cc_prm, flow_line_rate(n, f), n->el.now);
    dctcp_apply(n, f);
}

static void dctcp_t_on_ack(struct net *n, struct flow *f, const struct packet *p)
{
    dctcp_on_ack(ST(f), f->cc_prm, f->acked_delta, p->ecn, f->snd_una, f->snd_nxt, n->el.now);
    dctcp_apply(n, f);
}

static const struct transport_ops transport_dctcp = {
    .name = "dctcp", .start = dctcp_t_start, .on_ack = dctcp_t_on_ack,
};

static int dctcp_read(struct cfg *c, void *opt, struct cfg_err *err)
{
    static const char *const prof[] = { "hpcc", "hpcc_runpy", NULL };
    return cfg_enum(c, "dctcp", "profile", prof, 0, (int *)opt, err) < 0 ? -1 : 0;
}

static int dctcp_prm(const struct cc_ctx *x, const void *opt, void *prm, char *why, size_t nwhy)
{
    struct dctcp_params *p = prm;
    dctcp_params_default(p, x->line_bps, *(const int *)opt ? DCTCP_PROFILE_HPCC_RUNPY : DCTCP_PROFILE_HPCC);
    p->mss_bytes = x->sc->net.cfg.mtu_payload;
    return dctcp_params_check(p, why, nwhy);
}

static int dctcp_window_prm(const struct cc_ctx *x, const void *opt, void *prm, char *why, size_t nwhy)
{
    struct dctcp_params *p = prm;
    uint64_t mss = x->sc->net.cfg.mtu_payload;
    dctcp_params_default(p, x->line_bps, DCTCP_PROFILE_PAPER);
    p->mss_bytes = mss;
    p->init_cwnd_bytes = 10ull * mss;   /* RFC 6928 IW 10, in this MTU */
    p->min_cwnd_bytes = 2ull * mss;     /* Linux floor: 2 segments */
    p->base_rtt_ps = x->base_rtt;
    return dctcp_params_check(p, why, nwhy);
}

/* Step marking: mark when q > K (DCTCP §3.1), K per port speed. */
static void dctcp_marking(uint64_t bps, const void *opt, struct ecn_marking *m)
{
    struct dctcp_params d;
    dctcp_params_default(&d, bps, DCTCP_PROFILE_HPCC);
    m->kmin = m->kmax = d.k_bytes;
    m->pmax = 1.0;
}

static void dctcp_window_marking(uint64_t bps, const void *opt, struct ecn_marking *m)
{
    struct dctcp_params d;
    dctcp_params_default(&d, bps, DCTCP_PROFILE_PAPER);
    m->kmin = m->kmax = d.k_bytes;
    m->pmax = 1.0;
}

const struct cc_algo cc_algo_dctcp = {
    .name = "dctcp", .tp = &transport_dctcp, .sections = { "dctcp" }, .prm_section = "dctcp",
    .opt_size = sizeof(int), .read = dctcp_read,
    .prm_size = sizeof(struct dctcp_params), .params = dctcp_prm, .marking = dctcp_marking,
};

const struct cc_algo cc_algo_dctcp_window = {
    .name = "dctcp_window", .tp = &transport_dctcp, .prm_section = "dctcp",
    .prm_size = sizeof(struct dctcp_params), .params = dctcp_window_prm, .marking = dctcp_window_marking,
};
