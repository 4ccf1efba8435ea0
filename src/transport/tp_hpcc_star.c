/*
 * tp_hpcc_star.c -- HPCC* (LSCC paper §III-D) at the NIC: HPCC's normal loop
 * on the ACKs' INT (remote hops) and the near-source loop on the direct INTs
 * the local egress switch sends (agent_lscc_int.c, `[lscc] local = int`);
 * the pure state machine is src/cc/hpcc_star.c, docs/crossdc.md "HPCC*".
 *
 * Options: HPCC's [hpcc] keys apply to both loops (tp_hpcc.h);
 * [hpcc_star] n = near-loop updates per RTT (default round(T / 200 µs)),
 * near_rtt = the near loop's base RTT (t, default, or t_over_n).
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
#include "engine/report_parts.h"
#include "transport/tp_hpcc.h"
#include "transport/tp_hpcc_star.h"
#include "hpcc_star.h"

#include <math.h>
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

/* summary.json "hpcc_star" (docs/outputs.md): totals over the flows that
 * started, then up to HPCC_STAR_JSON_FLOWS flows' state at the end. */
#define HPCC_STAR_JSON_FLOWS 64

static void star_flow_json(FILE *f, const struct scenario *sc, uint32_t i)
{
    const struct flow *fl = &sc->net.flows[i];
    const struct hpcc_star *s = ST(fl);
    const struct hpcc_star_params *p = fl->cc_prm;
    fprintf(f, "{\"flow\": %u, \"group\": %u", i, fl->group);
    report_json_kv(f, "w_bytes", (double)s->loop.w_bytes);
    report_json_kv(f, "w_star_bytes", (double)hpcc_star_w_star_bytes(s, p));
    report_json_kv(f, "window_bytes", (double)hpcc_star_window_bytes(s, p));
    report_json_kv(f, "rate_bps", (double)hpcc_star_rate_bps(s, p));
    report_json_kv(f, "u", s->loop.u);
    report_json_kv(f, "u_near", s->near.u);
    report_json_kv(f, "direct_ints", (double)s->n_dint);
    report_json_kv(f, "near_ref_updates", (double)s->n_near_ref);
    report_json_kv(f, "star_bound", s->n_updates ? (double)s->n_star_binds / (double)s->n_updates : NAN);
    report_json_kv(f, "wound_up", s->n_updates ? (double)s->n_wound / (double)s->n_updates : NAN);
    fprintf(f, "}");
}

void hpcc_star_json(const struct scenario *sc, FILE *f)
{
    const struct net *n = &sc->net;
    uint64_t flows = 0, dint = 0, bad = 0, ref = 0, iv = 0, upd = 0, bind = 0, wound = 0;
    const struct hpcc_star_params *p0 = NULL;

    for (uint32_t i = 0; i < n->n_flows; i++) {
        const struct flow *fl = &n->flows[i];
        if (fl->tp != &transport_hpcc_star || !ST(fl))
            continue;
        const struct hpcc_star *s = ST(fl);
        if (!p0)
            p0 = fl->cc_prm;
        flows++;
        dint += s->n_dint;
        bad += s->n_dint_bad;
        ref += s->n_near_ref;
        iv += s->n_intervals;
        upd += s->n_updates;
        bind += s->n_star_binds;
        wound += s->n_wound;
    }
    if (!flows)
        return;
    fprintf(f, ",\n  \"hpcc_star\": {\"flows\": %llu", (unsigned long long)flows);
    report_json_kv(f, "n", p0->n);
    fprintf(f, ", \"near_rtt\": \"%s\"", p0->near_rtt == HPCC_STAR_NEAR_RTT_T ? "t" : "t_over_n");
    report_json_kv(f, "direct_ints", (double)dint);
    report_json_kv(f, "direct_ints_refused", (double)bad);
    report_json_kv(f, "near_ref_updates", (double)ref);
    report_json_kv(f, "intervals", (double)iv);
    report_json_kv(f, "updates", (double)upd);
    report_json_kv(f, "star_bound", upd ? (double)bind / (double)upd : NAN);
    report_json_kv(f, "wound_up", upd ? (double)wound / (double)upd : NAN);
    fprintf(f, ", \"flow_state\": [");
    uint32_t k = 0;
    for (uint32_t i = 0; i < n->n_flows && k < HPCC_STAR_JSON_FLOWS; i++) {
        const struct flow *fl = &n->flows[i];
        if (fl->tp != &transport_hpcc_star || !ST(fl))
            continue;
        fprintf(f, "%s\n    ", k++ ? "," : "");
        star_flow_json(f, sc, i);
    }
    fprintf(f, "]}");
}

/* A run over MPI ranks (cc_algo.merge): each flow's state from its
 * source's rank into rank 0, where the flows' sender fields came from the
 * same rank (parallel.c gather_flows) with a pointer that is that
 * process's; rank 0 keeps the states in its own array.  Each flow is a
 * record of W 64-bit words: word 0 says whether the flow started, the
 * state follows (its owner's bytes plus zeros from every other rank).
 * The records of up to STAR_BATCH flows go in one reduction, so a run
 * with many HPCC* flows pays a collective per batch, not per flow; the
 * batch lives on the stack, the same size on every rank, so no rank can
 * fail an allocation the others made and leave a collective unmatched. */
enum { STAR_W = 1 + (sizeof(struct hpcc_star) + 7) / 8, STAR_BATCH = 64 };

static void star_merge_batch(struct scenario *sc, const uint32_t *idx, uint32_t m, uint64_t *v,
                             struct hpcc_star **all, void (*reduce)(uint64_t *v, size_t k, int max))
{
    struct net *n = &sc->net;
    memset(v, 0, (size_t)m * STAR_W * sizeof *v);
    for (uint32_t j = 0; j < m; j++) {
        const struct flow *f = &n->flows[idx[j]];
        if (net_node_local(n, n->hosts[f->src].node) && ST(f)) {
            v[(size_t)j * STAR_W] = 1;
            memcpy(&v[(size_t)j * STAR_W + 1], ST(f), sizeof(struct hpcc_star));
        }
    }
    reduce(v, (size_t)m * STAR_W, 0);
    if (n->my_rank != 0)
        return;
    for (uint32_t j = 0; j < m; j++) {
        const uint64_t *r = &v[(size_t)j * STAR_W];
        struct flow *f = &n->flows[idx[j]];
        struct hpcc_star *me = NULL;
        if (r[0] && (*all || (*all = net_state(n, &transport_hpcc_star, (size_t)n->n_flows * sizeof **all)))) {
            me = &(*all)[idx[j]];
            memcpy(me, &r[1], sizeof *me);
        } else if (r[0]) {
            n->oom = 1;
        }
        memcpy(f->cc.raw, &me, sizeof me);
    }
}

static void star_merge(struct scenario *sc, void (*reduce)(uint64_t *v, size_t k, int max))
{
    struct net *n = &sc->net;
    uint64_t v[(size_t)STAR_BATCH * STAR_W];
    uint32_t idx[STAR_BATCH], m = 0;
    struct hpcc_star *all = NULL;
    for (uint32_t i = 0; i < n->n_flows; i++) {
        if (n->flows[i].tp != &transport_hpcc_star)
            continue;
        idx[m++] = i;
        if (m == STAR_BATCH) {
            star_merge_batch(sc, idx, m, v, &all, reduce);
            m = 0;
        }
    }
    if (m)
        star_merge_batch(sc, idx, m, v, &all, reduce);
}

static const struct transport_ops transport_hpcc_star = {
    .name = "hpcc_star", .start = star_start, .on_ack = star_on_ack, .on_cnp = star_on_cnp,
    .int_telemetry = 1, .direct_int = 1,
    .hdr_extra = HPCC_STAR_INT_BYTES,     /* set-up: the receiver's ACKs carry it too (transport_ops) */
};

struct star_opt {
    struct hpcc_opt h;
    uint64_t n;                   /* [hpcc_star] n; 0 = default */
    int near_rtt;                 /* [hpcc_star] near_rtt: 0 t_over_n, 1 t */
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
    static const char *const nr[] = { "t_over_n", "t", NULL };
    /* Default t: §III-D changes only the near loop's update interval (RTT/N);
     * docs/crossdc.md "Why HPCC* lost throughput at N = 10 and 20". */
    if (cfg_enum(c, "hpcc_star", "near_rtt", nr, 1, &o->near_rtt, err) < 0)
        return -1;
    return 0;
}

static int star_prm(const struct cc_ctx *x, const void *opt, void *prm, char *why, size_t nwhy)
{
    const struct star_opt *o = opt;
    struct hpcc_star_params *p = prm;
    hpcc_star_params_default(p, x->line_bps, x->base_rtt, o->h.profile ? HPCC_PROFILE_SIM : HPCC_PROFILE_PAPER,
                             (uint32_t)o->n);
    hpcc_star_params_near_rtt(p, o->near_rtt ? HPCC_STAR_NEAR_RTT_T : HPCC_STAR_NEAR_RTT_T_OVER_N);
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
    /* Over MPI ranks (docs/parallel.md "Transports"): its state is the
     * source's (start, ACKs, direct INTs, which the local egress switch
     * sends as frames, agent_lscc_int.c), the INT header size is set up,
     * and summary.json "hpcc_star" reads the states star_merge brings. */
    .merge = star_merge,
};
