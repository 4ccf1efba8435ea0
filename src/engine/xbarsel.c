/*
 * xbarsel.c -- [crossbar]: switches run whole as the OpenQueue buffered
 * crossbar (xbarsel.h; the model: src/net/qd_xbar.h, src/openqueue/oq_xbar.h).
 *
 *   [crossbar]
 *   switches = SW ...          (required)
 *   policy   = FILE.oq         (an N-port crossbar policy, relative to the scenario
 *                               file; default: generated for each switch's N ports)
 *   voq, xp, oq = SIZE         (generated policy: queue sizes as OpenQueue literals, 32p)
 *   input, output = SCHED      (generated policy: lqf, sqf, ... or none; lqf)
 *   speedup  = X               (fabric transfer rate / port rate; 1)
 *   seed     = N               (the runtimes' drop(P) draws; default [sim] seed)
 */
#include "engine/xbarsel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "net/qd_xbar.h"

#define S "crossbar"

/* One switch's figures: its runtime's, or after xbarsel_merge rank 0's
 * copy of its owner's. */
struct xbar_figs {
    struct oqx_stats st;
    uint64_t voq_max, marked, held;
};

struct xbarsel {
    uint32_t n;
    uint32_t *sw;                /* [n] switch indices (n->sws) */
    struct qdx **q;              /* [n] owned by the net (qdisc destroy) */
    struct xbar_figs *m;         /* [n] merged over MPI ranks (used when merged) */
    int merged;
};

static void figs(const struct xbarsel *x, uint32_t i, struct xbar_figs *f)
{
    if (x->merged) {
        *f = x->m[i];
        return;
    }
    const struct oqx *fab = qdx_fabric(x->q[i]);
    oqx_get_stats(fab, &f->st);
    f->voq_max = qdx_voq_max(x->q[i]);
    f->marked = qdx_marked(x->q[i]);
    f->held = oqx_held(fab);
}

static int read_sizes(struct cfg *c, const char *key, const char **out, int has_policy, struct cfg_err *err)
{
    const struct cfg_entry *e = cfg_find(c, S, key);
    if (!e)
        return 0;
    if (has_policy)
        return cfg_errorf(err, e, "only for the generated policy: the policy file sets its own sizes and schedulers");
    *out = e->value;
    return 0;
}

int xbarsel_build(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    if (!cfg_has_section(c, S))
        return 0;
    static const char *const keys[] = { "switches", "policy", "voq", "xp", "oq", "input", "output", "speedup",
                                        "seed", NULL };
    cfg_touch(c, S, keys);
    struct net *n = &sc->net;
    const struct cfg_entry *sw_e = cfg_find(c, S, "switches");
    if (!sw_e)
        return cfg_missing(err, c, S, "switches", " (e.g. switches = sw)");
    const struct cfg_entry *pol_e = cfg_find(c, S, "policy");
    const char *voq = "32p", *xp = "32p", *oq = "32p", *in_s = "lqf", *out_s = "lqf";
    if (read_sizes(c, "voq", &voq, pol_e != NULL, err) || read_sizes(c, "xp", &xp, pol_e != NULL, err) ||
        read_sizes(c, "oq", &oq, pol_e != NULL, err) || read_sizes(c, "input", &in_s, pol_e != NULL, err) ||
        read_sizes(c, "output", &out_s, pol_e != NULL, err))
        return -1;
    if (!strcmp(in_s, "none"))
        in_s = "";
    if (!strcmp(out_s, "none"))
        out_s = "";
    double speedup;
    uint64_t seed;
    if (cfg_double(c, S, "speedup", 1.0, &speedup, err) || cfg_u64(c, S, "seed", sc->seed, &seed, err))
        return -1;
    if (!(speedup > 0) || speedup > 1000)
        return cfg_errorf(err, cfg_find(c, S, "speedup"), "expected a speedup in (0, 1000], got %g", speedup);

    uint32_t *nodes = calloc(n->n_nodes ? n->n_nodes : 1, sizeof *nodes);
    struct xbarsel *x = calloc(1, sizeof *x);
    sc->xbar = x;
    if (!nodes || !x) {
        free(nodes);
        return cfg_errorf(err, sw_e, "out of memory");
    }
    int k = scenario_nodes(sc, sw_e, nodes, n->n_nodes, err);
    if (k < 0) {
        free(nodes);
        return -1;
    }
    x->sw = calloc((size_t)k + 1, sizeof *x->sw);
    x->q = calloc((size_t)k + 1, sizeof *x->q);
    x->m = calloc((size_t)k + 1, sizeof *x->m);
    if (!x->sw || !x->q || !x->m) {
        free(nodes);
        return cfg_errorf(err, sw_e, "out of memory");
    }
    char path[4096];
    if (pol_e) {
        const char *base = cfg_path(c), *slash = strrchr(base, '/');
        if (pol_e->value[0] == '/' || !slash)
            snprintf(path, sizeof path, "%s", pol_e->value);
        else
            snprintf(path, sizeof path, "%.*s/%s", (int)(slash - base), base, pol_e->value);
    }
    int rc = 0;
    for (int i = 0; i < k && !rc; i++) {
        const struct node *nd = &n->nodes[nodes[i]];
        if (nd->kind != NODE_SWITCH) {
            rc = cfg_errorf(err, sw_e, "'%s' is not a switch", nd->name);
            break;
        }
        struct sw *s = &n->sws[nd->idx];
        for (uint32_t j = 0; j < x->n; j++)
            if (x->sw[j] == nd->idx)
                rc = cfg_errorf(err, sw_e, "switch '%s' listed twice", nd->name);
        for (uint32_t l = 0; !rc && l < nd->n_ports; l++)
            if (qdisc_of(n, nd->first_port + l))
                rc = cfg_errorf(err, sw_e, "switch '%s': port %u already runs a queueing discipline "
                                           "([openqueue]); a crossbar takes the whole switch", nd->name, l);
        if (rc)
            break;
        if (nd->n_ports > OQX_MAX_PORTS) {
            rc = cfg_errorf(err, sw_e, "switch '%s' has %u ports; a crossbar has at most %d", nd->name,
                            nd->n_ports, OQX_MAX_PORTS);
            break;
        }
        char msg[600];
        struct oq_policy *pol;
        if (pol_e) {
            pol = oq_compile_file(path, msg, sizeof msg);
        } else {
            char *text = oqx_policy_text(nd->n_ports, voq, xp, oq, in_s, out_s);
            if (!text) {
                rc = cfg_section_errorf(err, c, S, "voq, xp, oq must be sizes like 32p or 64KB, input and "
                                                   "output a scheduler name (lqf, sqf, ..., none)");
                break;
            }
            char name[160];
            snprintf(name, sizeof name, "[crossbar] generated %u-port policy", nd->n_ports);
            pol = oq_compile(text, strlen(text), name, msg, sizeof msg);
            free(text);
        }
        if (!pol) {
            /* a generated policy compiles unless a scheduler name is unknown */
            const struct cfg_entry *blame = pol_e ? pol_e : cfg_find(c, S, "output") ? cfg_find(c, S, "output")
                                          : cfg_find(c, S, "input") ? cfg_find(c, S, "input") : sw_e;
            rc = cfg_errorf(err, blame, "%s", msg);
            break;
        }
        struct qdx *q = qdx_install(n, s, pol, speedup, seed + nd->idx, msg, sizeof msg);
        if (!q) {
            rc = cfg_errorf(err, pol_e ? pol_e : sw_e, "switch '%s': %s", nd->name, msg);
            break;
        }
        x->sw[x->n] = nd->idx;
        x->q[x->n++] = q;
    }
    free(nodes);
    cfg_section_done(c, S);
    return rc;
}

static void totals(const struct scenario *sc, struct oqx_stats *t, uint64_t *voq_max)
{
    memset(t, 0, sizeof *t);
    *voq_max = 0;
    const struct xbarsel *x = sc->xbar;
    for (uint32_t i = 0; x && i < x->n; i++) {
        struct xbar_figs g;
        figs(x, i, &g);
        t->arrived += g.st.arrived;
        for (int l = 0; l < 3; l++)
            t->dropped[l] += g.st.dropped[l];
        t->in_xfers += g.st.in_xfers;
        t->out_xfers += g.st.out_xfers;
        t->sent += g.st.sent;
        t->in_blocked += g.st.in_blocked;
        t->out_blocked += g.st.out_blocked;
        if (g.voq_max > *voq_max)
            *voq_max = g.voq_max;
    }
}

void xbarsel_json(const struct scenario *sc, FILE *f)
{
    const struct xbarsel *x = sc->xbar;
    if (!x)
        return;
    fprintf(f, ",\n  \"crossbar\": {");
    for (uint32_t i = 0; i < x->n; i++) {
        struct xbar_figs g;
        figs(x, i, &g);
        fprintf(f, "%s\n    \"%s\": {\"ports\": %u, \"arrived\": %llu, \"dropped_voq\": %llu, \"dropped_xpoint\": "
                   "%llu, \"dropped_outq\": %llu, \"input_transfers\": %llu, \"output_transfers\": %llu, "
                   "\"sent\": %llu, \"input_blocked\": %llu, \"output_blocked\": %llu, \"voq_max_pkts\": %llu, "
                   "\"ce_marked\": %llu, \"held_at_end\": %llu}",
                i ? "," : "", sc->net.nodes[sc->net.sws[x->sw[i]].node].name, oqx_nports(qdx_fabric(x->q[i])),
                (unsigned long long)g.st.arrived, (unsigned long long)g.st.dropped[OQX_VOQ],
                (unsigned long long)g.st.dropped[OQX_XPOINT], (unsigned long long)g.st.dropped[OQX_OUTQ],
                (unsigned long long)g.st.in_xfers, (unsigned long long)g.st.out_xfers, (unsigned long long)g.st.sent,
                (unsigned long long)g.st.in_blocked, (unsigned long long)g.st.out_blocked,
                (unsigned long long)g.voq_max, (unsigned long long)g.marked, (unsigned long long)g.held);
    }
    fprintf(f, "\n  }");
}

void xbarsel_print(const struct scenario *sc, FILE *out)
{
    const struct xbarsel *x = sc->xbar;
    for (uint32_t i = 0; x && i < x->n; i++) {
        struct xbar_figs g;
        figs(x, i, &g);
        fprintf(out, "  crossbar %s: %u ports, %llu frames in, %llu sent, dropped voq/xpoint/outq %llu/%llu/%llu, "
                     "input blocked %llu, output blocked %llu, longest VOQ %llu pkts\n",
                sc->net.nodes[sc->net.sws[x->sw[i]].node].name, oqx_nports(qdx_fabric(x->q[i])),
                (unsigned long long)g.st.arrived, (unsigned long long)g.st.sent,
                (unsigned long long)g.st.dropped[OQX_VOQ], (unsigned long long)g.st.dropped[OQX_XPOINT],
                (unsigned long long)g.st.dropped[OQX_OUTQ], (unsigned long long)g.st.in_blocked,
                (unsigned long long)g.st.out_blocked, (unsigned long long)g.voq_max);
    }
}

/* Over several ranks (parallel.c): a crossbar runs only on the rank that
 * owns its switch; every other rank zeroes its copy's figures, so the sums
 * into rank 0 are the owner's. */
void xbarsel_merge(struct scenario *sc, void (*reduce)(uint64_t *v, size_t k, int max))
{
    struct xbarsel *x = sc->xbar;
    if (!x)
        return;
    enum { NV = 12 };
    for (uint32_t i = 0; i < x->n; i++) {
        struct xbar_figs g;
        figs(x, i, &g);
        uint64_t v[NV] = { g.st.arrived, g.st.dropped[0], g.st.dropped[1], g.st.dropped[2], g.st.in_xfers,
                           g.st.out_xfers, g.st.sent, g.st.in_blocked, g.st.out_blocked, g.voq_max, g.marked, g.held };
        if (!net_node_local(&sc->net, sc->net.sws[x->sw[i]].node))
            memset(v, 0, sizeof v);
        reduce(v, NV, 0);
        x->m[i] = (struct xbar_figs){
            .st = { .arrived = v[0], .dropped = { v[1], v[2], v[3] }, .in_xfers = v[4], .out_xfers = v[5],
                    .sent = v[6], .in_blocked = v[7], .out_blocked = v[8] },
            .voq_max = v[9], .marked = v[10], .held = v[11] };
    }
    x->merged = 1;
}

double xbarsel_metric(const struct scenario *sc, const char *name)
{
    if (!sc->xbar)
        return NAN;
    struct oqx_stats t;
    uint64_t vmax;
    totals(sc, &t, &vmax);
    if (!strcmp(name, "xbar_drops"))
        return (double)(t.dropped[0] + t.dropped[1] + t.dropped[2]);
    if (!strcmp(name, "xbar_voq_drops"))
        return (double)t.dropped[OQX_VOQ];
    if (!strcmp(name, "xbar_xp_drops"))
        return (double)t.dropped[OQX_XPOINT];
    if (!strcmp(name, "xbar_oq_drops"))
        return (double)t.dropped[OQX_OUTQ];
    if (!strcmp(name, "xbar_sent"))
        return (double)t.sent;
    if (!strcmp(name, "xbar_in_blocked"))
        return (double)t.in_blocked;
    if (!strcmp(name, "xbar_out_blocked"))
        return (double)t.out_blocked;
    if (!strcmp(name, "xbar_voq_max"))
        return (double)vmax;
    return NAN;
}

void xbarsel_free(struct scenario *sc)
{
    struct xbarsel *x = sc->xbar;
    if (!x)
        return;
    free(x->sw);
    free(x->q);
    free(x->m);
    free(x);
    sc->xbar = NULL;
}
