/*
 * tp_hpcc.c -- HPCC (Li et al., SIGCOMM 2019) at the NIC.
 *
 * Switches stamp INT records into data frames (net_enable_int, done once
 * when a group uses hpcc); the receiver echoes them in ACKs and the sender's
 * window and pacing rate follow (src/cc/hpcc.c).  [hpcc]: profile, eta,
 * w_ai_flows, max_stage (docs/config.md).
 */
#include "engine/ccreg.h"
#include "engine/scenario.h"
#include "net/net.h"
#include "transport/tp_hpcc.h"

_Static_assert(sizeof(struct hpcc) <= sizeof(((struct flow *)0)->cc), "struct hpcc must fit in flow.cc");
#define ST(f) ((struct hpcc *)(void *)(f)->cc.raw)

static void hpcc_apply(struct net *n, struct flow *f)
{
    f->window = hpcc_window_bytes(ST(f));
    flow_set_cc_rate(n, f, hpcc_rate_bps(ST(f)));
}

static void hpcc_t_start(struct net *n, struct flow *f)
{
    const struct hpcc_params *p = f->cc_prm;
    hpcc_init(ST(f), p, flow_line_rate(n, f), n->el.now);
    hpcc_apply(n, f);
}

unsigned hpcc_int_hops(const struct net *n, const struct packet *p, struct hpcc_int_hop *hops)
{
    unsigned nh = 0;
    if ((p->flags & PF_INT) && n->intr) {
        const struct int_rec *r = &n->intr[p - n->pool.p];
        nh = p->nhop < HPCC_MAX_HOPS ? p->nhop : HPCC_MAX_HOPS;
        for (unsigned i = 0; i < nh; i++) {
            hops[i].ts_ps = r->hop[i].ts;
            hops[i].tx_bytes = r->hop[i].tx_bytes;
            hops[i].qlen_bytes = r->hop[i].qlen > UINT32_MAX ? UINT32_MAX : (uint32_t)r->hop[i].qlen;
            hops[i].rate_bps = r->hop[i].rate_bps;
        }
    }
    return nh;
}

static void hpcc_t_on_ack(struct net *n, struct flow *f, const struct packet *p)
{
    struct hpcc_int_hop hops[HPCC_MAX_HOPS];
    unsigned nh = hpcc_int_hops(n, p, hops);
    hpcc_on_ack(ST(f), f->cc_prm, p->seq, f->snd_nxt, hops, nh, n->el.now);
    hpcc_apply(n, f);
}

static const struct transport_ops transport_hpcc = {
    .name = "hpcc", .start = hpcc_t_start, .on_ack = hpcc_t_on_ack, .int_telemetry = 1,
    .hdr_extra = HPCC_INT_BYTES(HPCC_MAX_HOPS),     /* HPCC simulator: 42 B INT header */
};


int hpcc_opt_read(struct cfg *c, void *opt, struct cfg_err *err)
{
    static const char *const prof[] = { "paper", "sim", NULL };
    struct hpcc_opt *o = opt;
    TRY(cfg_enum(c, "hpcc", "profile", prof, 0, &o->profile, err));
    o->has_eta = cfg_find(c, "hpcc", "eta") != NULL;
    TRY(cfg_double(c, "hpcc", "eta", 0.95, &o->eta, err));
    if (o->has_eta && !(o->eta > 0 && o->eta <= 1))
        return cfg_errorf(err, cfg_find(c, "hpcc", "eta"), "eta must be in (0, 1]");
    TRY(cfg_u64(c, "hpcc", "w_ai_flows", 100, &o->w_ai_flows, err));   /* hpcc.h: N = 100, our choice */
    if (o->w_ai_flows < 1 || o->w_ai_flows > 1000000)
        return cfg_errorf(err, cfg_find(c, "hpcc", "w_ai_flows"), "w_ai_flows must be 1..1000000");
    o->has_max_stage = cfg_find(c, "hpcc", "max_stage") != NULL;
    TRY(cfg_u64(c, "hpcc", "max_stage", 0, &o->max_stage, err));
    if (o->max_stage > 1000)
        return cfg_errorf(err, cfg_find(c, "hpcc", "max_stage"), "max_stage must be at most 1000");
    return 0;
}

void hpcc_opt_apply(const struct hpcc_opt *o, struct hpcc_params *p)
{
    if (o->has_eta)
        p->eta = o->eta;
    /* Paper profile: W_AI = W_init (1 - eta) / N follows eta and N (hpcc.h). */
    if (!o->profile) {
        p->w_ai_bytes = (uint64_t)((double)p->w_init_bytes * (1.0 - p->eta) / (double)o->w_ai_flows);
        if (p->w_ai_bytes == 0)
            p->w_ai_bytes = 1;
    }
    if (o->has_max_stage)
        p->max_stage = (uint32_t)o->max_stage;
}

static int hpcc_prm(const struct cc_ctx *x, const void *opt, void *prm, char *why, size_t nwhy)
{
    const struct hpcc_opt *o = opt;
    struct hpcc_params *p = prm;
    hpcc_params_default(p, x->line_bps, x->base_rtt, o->profile ? HPCC_PROFILE_SIM : HPCC_PROFILE_PAPER);
    hpcc_opt_apply(o, p);
    return hpcc_params_check(p, why, nwhy);
}

static int hpcc_setup(struct scenario *sc, const void *opt, struct cfg *c, struct cfg_err *err)
{
    if (net_enable_int(&sc->net))
        return cfg_section_errorf(err, c, "hpcc", "out of memory");
    return 0;
}

const struct cc_algo cc_algo_hpcc = {
    .name = "hpcc", .tp = &transport_hpcc, .sections = { "hpcc" }, .prm_section = "hpcc",
    .opt_size = sizeof(struct hpcc_opt), .read = hpcc_opt_read,
    .prm_size = sizeof(struct hpcc_params), .params = hpcc_prm, .setup = hpcc_setup,
};
