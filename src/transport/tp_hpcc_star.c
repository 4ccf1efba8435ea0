/*
 * tp_hpcc_star.c -- HPCC* (LSCC paper §III-D) at the NIC: HPCC's normal loop
 * on the ACKs' INT (remote hops) and the near-source loop on the direct INTs
 * the local egress switch sends (agent_lscc_int.c, `[lscc] local = int`);
 * the pure state machine is src/cc/hpcc_star.c, docs/crossdc.md "HPCC*".
 *
 * Options: HPCC's [hpcc] keys apply to both loops (tp_hpcc.h);
 * [hpcc_star] n = near-loop updates per RTT (default round(T / 200 µs)).
 * Data frames and ACKs carry HPCC*'s INT header (45 B: HPCC's 42 B and the
 * 24-bit B field).
 *
 * State: struct hpcc_star (two struct hpcc) is larger than flow.cc, so the
 * flows' states are one array made at the first flow start (net_state,
 * n_flows entries, freed by net_free) and flow.cc holds the pointer.
 */
#include "engine/ccreg.h"
#include "engine/scenario.h"
#include "net/net.h"
#include "transport/tp_hpcc.h"
#include "hpcc_star.h"

#include <string.h>

static const struct transport_ops transport_hpcc_star;

/* flow.cc holds the pointer to the flow's state (memcpy: no type punning). */
static struct hpcc_star *st_get(const struct flow *f)
{
    struct hpcc_star *s;
    memcpy(&s, f->cc.raw, sizeof s);
    return s;
}
#define ST(f) st_get(f)

static void star_apply(struct net *n, struct flow *f)
{
    const struct hpcc_star_params *p = f->cc_prm;
    f->window = hpcc_star_window_bytes(ST(f), p);
    flow_set_cc_rate(n, f, hpcc_star_rate_bps(ST(f), p));
}

static void star_start(struct net *n, struct flow *f)
{
    struct hpcc_star *all = net_state(n, &transport_hpcc_star, (size_t)n->n_flows * sizeof *all);
    if (!all) {
        n->oom = 1;
        return;
    }
    struct hpcc_star *me = &all[f - n->flows];
    memcpy(f->cc.raw, &me, sizeof me);
    hpcc_star_init(ST(f), f->cc_prm, flow_line_rate(n, f), n->el.now);
    f->hdr_extra = HPCC_STAR_INT_BYTES;
    star_apply(n, f);
}

static void star_on_ack(struct net *n, struct flow *f, const struct packet *p)
{
    struct hpcc_int_hop hops[HPCC_MAX_HOPS];
    unsigned nh = hpcc_int_hops(n, p, hops);
    if (!ST(f))
        return;
    hpcc_star_on_ack(ST(f), f->cc_prm, p->seq, f->snd_nxt, hops, nh, n->el.now);
    star_apply(n, f);
}

/* Direct INTs only (host.c checked the frame's shape); other CNPs (a
 * DCQCN NP's, LSCC's direct CNPs) mean nothing to HPCC*. */
static void star_on_cnp(struct net *n, struct flow *f, const struct packet *p)
{
    struct hpcc_int_hop hops[HPCC_MAX_HOPS];
    if (p->cnp_kind != CNP_DINT || !ST(f))
        return;
    unsigned nh = hpcc_int_hops(n, p, hops);
    if (hpcc_star_on_dint(ST(f), f->cc_prm, hops, nh, p->rate_units, n->el.now)) {
        n->cnp_filtered_host++;
        return;
    }
    star_apply(n, f);
}

static const struct transport_ops transport_hpcc_star = {
    .name = "hpcc_star", .start = star_start, .on_ack = star_on_ack, .on_cnp = star_on_cnp,
    .int_telemetry = 1, .direct_int = 1,
};

struct star_opt {
    struct hpcc_opt h;
    uint64_t n;                   /* [hpcc_star] n; 0 = default */
};

static int star_read(struct cfg *c, void *opt, struct cfg_err *err)
{
    struct star_opt *o = opt;
    if (hpcc_opt_read(c, &o->h, err) < 0)
        return -1;
    if (cfg_u64(c, "hpcc_star", "n", 0, &o->n, err) < 0)
        return -1;
    if (cfg_find(c, "hpcc_star", "n") && (o->n < 1 || o->n > HPCC_STAR_MAX_N))
        return cfg_errorf(err, cfg_find(c, "hpcc_star", "n"), "n must be 1..%u", HPCC_STAR_MAX_N);
    return 0;
}

static int star_prm(const struct cc_ctx *x, const void *opt, void *prm, char *why, size_t nwhy)
{
    const struct star_opt *o = opt;
    struct hpcc_star_params *p = prm;
    hpcc_star_params_default(p, x->line_bps, x->base_rtt, o->h.profile ? HPCC_PROFILE_SIM : HPCC_PROFILE_PAPER,
                             (uint32_t)o->n);
    hpcc_opt_apply(&o->h, &p->loop);
    hpcc_opt_apply(&o->h, &p->near);
    return hpcc_star_params_check(p, why, nwhy);
}

static int star_setup(struct scenario *sc, const void *opt, struct cfg *c, struct cfg_err *err)
{
    if (net_enable_int(&sc->net))
        return cfg_section_errorf(err, c, "hpcc_star", "out of memory");
    return 0;
}

const struct cc_algo cc_algo_hpcc_star = {
    .name = "hpcc_star", .tp = &transport_hpcc_star, .sections = { "hpcc", "hpcc_star" },
    .prm_section = "hpcc_star", .opt_size = sizeof(struct star_opt), .read = star_read,
    .prm_size = sizeof(struct hpcc_star_params), .params = star_prm, .setup = star_setup,
};
