/* lsccsel.c -- outputs of the LSCC agents; see lsccsel.h. */
#include "engine/lsccsel.h"
#include "engine/report_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/metrics.h"
#include "net/agent_lscc.h"
#include "transport/tp_hpcc_star.h"

struct lscc_sample {
    uint64_t q, qstar;
    uint64_t r_sent, r_rcvd;       /* b/s */
    int64_t  br;                   /* b/s */
    uint64_t cnps;
};

struct lsccsel {
    uint32_t n;
    struct lscc_node **node;
    struct lscc_sample *s;         /* [k * n + i] */
    uint32_t cap;                  /* samples allocated (1 without memory: none kept) */
};

int lsccsel_add(struct scenario *sc, struct lscc_node *x)
{
    struct lsccsel *l = sc->lscc;
    if (!l) {
        l = calloc(1, sizeof *l);
        if (!l)
            return -1;
        sc->lscc = l;
    }
    struct lscc_node **nn = realloc(l->node, (l->n + 1) * sizeof *nn);
    if (!nn)
        return -1;
    l->node = nn;
    l->node[l->n++] = x;
    return 0;
}

int lsccsel_has(const struct scenario *sc)
{
    return sc->lscc && ((const struct lsccsel *)sc->lscc)->n;
}

int lsccsel_find(const struct scenario *sc, uint32_t port)
{
    const struct lsccsel *l = sc->lscc;
    for (uint32_t i = 0; l && i < l->n; i++)
        if (l->node[i]->port == port)
            return (int)i;
    return -1;
}

/* Q* now without touching the agent's state (the drain is exact, so this is
 * what the agent itself would compute). */
static uint64_t qstar_now(const struct lscc_node *x, uint64_t now)
{
    struct lscc_rl c = x->rl;
    return lscc_rl_qlen(&c, now);
}

/* Rank 0 takes a node's merged bytes (lsccsel_merge), keeping this
 * process's storage: the flow table's slots and the refs array. */
static void put_node(struct lscc_node *x, const uint64_t *words)
{
    struct lscc_rl_entry *slots = x->slots, *e = x->rl.e;
    uint32_t *refs = x->refs;
    memcpy(x, words, sizeof *x);
    x->slots = slots;
    x->refs = refs;
    x->rl.e = e;
}

void lsccsel_sample(struct scenario *sc, uint32_t k)
{
    struct lsccsel *l = sc->lscc;
    if (!l || !l->n)
        return;
    if (!l->s) {
        if (l->cap || !sc->cap_samples)
            return;
        l->s = malloc((size_t)sc->cap_samples * l->n * sizeof *l->s);   /* once, at the first sample */
        l->cap = l->s ? sc->cap_samples : 1;
        if (!l->s) {
            if (sc->net.node_rank)
                sc->net.oom = 1;      /* over ranks every rank must keep the series (lsccsel_merge) */
            return;
        }
    }
    if (k >= l->cap)
        return;
    for (uint32_t i = 0; i < l->n; i++) {
        const struct lscc_node *x = l->node[i];
        struct lscc_sample *s = &l->s[(size_t)k * l->n + i];
        s->q = lscc_ingress_bytes(&sc->net, x);
        s->qstar = qstar_now(x, sc->net.el.now);
        s->r_sent = x->last_r;
        s->r_rcvd = x->rl.rate_bps;
        s->br = x->rc.br_bps;
        s->cnps = x->direct_cnps;
    }
}

static const char *port_name(const struct scenario *sc, uint32_t port, char *buf, size_t len)
{
    for (uint32_t m = 0; m < sc->n_mon; m++)
        if (sc->mon[m].port == port)
            return sc->mon[m].name;
    snprintf(buf, len, "port%u", port);
    return buf;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

struct lstats {
    uint32_t n;
    double q_mean, q_p50, q_p99, q_max, near, qs_mean, qs_max, r_mean, r_min, r_max, br_mean, cnps;
};

/* Statistics of node i over the samples in [t0, t1]; st->n = 0 if none. */
static void window_stats(const struct scenario *sc, uint32_t i, simtime_t t0, simtime_t t1, struct lstats *st)
{
    const struct lsccsel *l = sc->lscc;
    memset(st, 0, sizeof *st);
    uint32_t a, b;
    if (!l || !l->s || metrics_window(sc, t0, t1, &a, &b))
        return;
    if (b >= l->cap)
        b = l->cap - 1;
    if (b < a)
        return;
    uint32_t n = b - a + 1;
    uint64_t *qs = malloc(n * sizeof *qs);
    if (!qs)
        return;
    uint64_t qref = l->node[i]->rcp.q_ref_bytes;
    double qsum = 0, qssum = 0, rsum = 0, brsum = 0;
    st->r_min = INFINITY;
    for (uint32_t k = a; k <= b; k++) {
        const struct lscc_sample *s = &l->s[(size_t)k * l->n + i];
        qs[k - a] = s->q;
        qsum += (double)s->q;
        qssum += (double)s->qstar;
        if ((double)s->qstar > st->qs_max)
            st->qs_max = (double)s->qstar;
        rsum += (double)s->r_sent;
        brsum += (double)s->br;
        if ((double)s->r_sent < st->r_min)
            st->r_min = (double)s->r_sent;
        if ((double)s->r_sent > st->r_max)
            st->r_max = (double)s->r_sent;
        st->near += 2 * s->q >= qref && 2 * s->q <= 3 * qref;
    }
    qsort(qs, n, sizeof *qs, cmp_u64);
    st->n = n;
    st->q_mean = qsum / n;
    st->q_p50 = (double)qs[(n - 1) / 2];
    st->q_p99 = (double)qs[(uint32_t)((n - 1) * 0.99)];
    st->q_max = (double)qs[n - 1];
    st->near /= n;
    st->qs_mean = qssum / n;
    st->r_mean = rsum / n;
    st->br_mean = brsum / n;
    st->cnps = (double)(l->s[(size_t)b * l->n + i].cnps - l->s[(size_t)a * l->n + i].cnps);
    free(qs);
}

double lsccsel_metric(const struct scenario *sc, int i, simtime_t t0, simtime_t t1, const char *name)
{
    struct lstats st;
    if (i < 0 || !lsccsel_has(sc))
        return NAN;
    window_stats(sc, (uint32_t)i, t0, t1, &st);
    if (!st.n)
        return NAN;
    if (!strcmp(name, "lscc_queue_mean")) return st.q_mean;
    if (!strcmp(name, "lscc_queue_p50")) return st.q_p50;
    if (!strcmp(name, "lscc_queue_p99")) return st.q_p99;
    if (!strcmp(name, "lscc_queue_max")) return st.q_max;
    if (!strcmp(name, "lscc_near_qref")) return st.near;
    if (!strcmp(name, "lscc_pseudo_mean")) return st.qs_mean;
    if (!strcmp(name, "lscc_pseudo_max")) return st.qs_max;
    if (!strcmp(name, "lscc_rate")) return st.r_mean;
    if (!strcmp(name, "lscc_direct_cnps")) return st.cnps;
    return NAN;
}


static void lscc_ports_json(const struct scenario *sc, FILE *f)
{
    const struct lsccsel *l = sc->lscc;
    if (!l || !l->n)
        return;
    fprintf(f, ",\n  \"lscc\": {\"ports\": [");
    for (uint32_t i = 0; i < l->n; i++) {
        const struct lscc_node *x = l->node[i];
        char nb[32];
        fprintf(f, "%s\n    {\"port\": \"%s\"", i ? "," : "", port_name(sc, x->port, nb, sizeof nb));
        report_json_kv(f, "period_ps", (double)x->rcp.period_ps);
        report_json_kv(f, "n", x->rcp.n);
        report_json_kv(f, "q_ref_bytes", (double)x->rcp.q_ref_bytes);
        report_json_kv(f, "q_ref_pseudo_bytes", (double)x->rlp.q_ref_bytes);
        report_json_kv(f, "dr_bps", (double)x->rcp.dr_bps);
        report_json_kv(f, "cnp_interval_ps", (double)x->rlp.cnp_interval_ps);
        report_json_kv(f, "long_flow_bytes", x->rlp.long_flow_bytes);
        report_json_kv(f, "normal_cnp_multiple", x->rlp.normal_cnp_multiple);
        report_json_kv(f, "r_last_bps", (double)x->last_r);
        report_json_kv(f, "r_rcvd_bps", (double)x->rl.rate_bps);
        report_json_kv(f, "feedback_sent", (double)x->fb_sent);
        report_json_kv(f, "feedback_rcvd", (double)x->fb_rcvd);
        report_json_kv(f, "direct_cnps", (double)x->direct_cnps);
        report_json_kv(f, "updates", (double)x->rc.n_updates);
        report_json_kv(f, "clamp_dr_up", (double)x->rc.n_clamp_up);
        report_json_kv(f, "clamp_dr_down", (double)x->rc.n_clamp_down);
        report_json_kv(f, "clamp_rmin", (double)x->rc.n_clamp_min);
        report_json_kv(f, "clamp_rmax", (double)x->rc.n_clamp_max);
        report_json_kv(f, "ticks", (double)x->rl.n_ticks);
        report_json_kv(f, "ticks_above_qref", (double)x->rl.n_ticks_above);
        report_json_kv(f, "remote_cnps", (double)x->rl.n_remote_cnps);
        report_json_kv(f, "ecn_cleared", (double)x->rl.n_ecn_cleared);
        report_json_kv(f, "table_inserted", (double)x->rl.n_inserted);
        report_json_kv(f, "table_evicted", (double)x->rl.n_evicted);
        report_json_kv(f, "table_full", (double)x->rl.n_full);
        report_json_kv(f, "cnps_truncated", (double)x->rl.n_truncated);
        report_json_kv(f, "queue_max_run_bytes", (double)x->q_max);
        struct lstats st;
        window_stats(sc, i, sc->measure_start, sc->measure_end, &st);
        fprintf(f, ", \"window\": {\"samples\": %u", st.n);
        report_json_kv(f, "queue_mean_bytes", st.n ? st.q_mean : NAN);
        report_json_kv(f, "queue_p50_bytes", st.n ? st.q_p50 : NAN);
        report_json_kv(f, "queue_p99_bytes", st.n ? st.q_p99 : NAN);
        report_json_kv(f, "queue_max_bytes", st.n ? st.q_max : NAN);
        report_json_kv(f, "near_qref", st.n ? st.near : NAN);
        report_json_kv(f, "pseudo_mean_bytes", st.n ? st.qs_mean : NAN);
        report_json_kv(f, "pseudo_max_bytes", st.n ? st.qs_max : NAN);
        report_json_kv(f, "rate_mean_bps", st.n ? st.r_mean : NAN);
        report_json_kv(f, "rate_min_bps", st.n ? st.r_min : NAN);
        report_json_kv(f, "rate_max_bps", st.n ? st.r_max : NAN);
        report_json_kv(f, "br_mean_bps", st.n ? st.br_mean : NAN);
        report_json_kv(f, "direct_cnps", st.n ? st.cnps : NAN);
        fprintf(f, "}}");
    }
    fprintf(f, "]}");
}

void lsccsel_json(const struct scenario *sc, FILE *f)
{
    lscc_ports_json(sc, f);           /* "lscc": the long-haul ports */
    hpcc_star_json(sc, f);            /* "hpcc_star": its flows' two loops (§III-D) */
}

void lsccsel_print(const struct scenario *sc, FILE *out)
{
    const struct lsccsel *l = sc->lscc;
    if (!l || !l->n)
        return;
    for (uint32_t i = 0; i < l->n; i++) {
        const struct lscc_node *x = l->node[i];
        char nb[32];
        struct lstats st;
        window_stats(sc, i, sc->measure_start, sc->measure_end, &st);
        if (!x->fb_sent && !x->direct_cnps && !st.q_max)
            continue;
        fprintf(out, "  lscc %s: ingress Q mean %.2f MB p50 %.2f p99 %.2f max %.2f (Qref %.2f, %.0f%% of samples "
                     "within Qref/2..3Qref/2); Q* mean %.2f MB max %.2f; R sent mean %.2f Gb/s (%.2f..%.2f); "
                     "%llu direct CNPs\n",
                port_name(sc, x->port, nb, sizeof nb), st.q_mean / 1e6, st.q_p50 / 1e6, st.q_p99 / 1e6, st.q_max / 1e6,
                (double)x->rcp.q_ref_bytes / 1e6, 100 * st.near, st.qs_mean / 1e6, st.qs_max / 1e6, st.r_mean / 1e9,
                (st.n ? st.r_min : 0) / 1e9, st.r_max / 1e9, (unsigned long long)x->direct_cnps);
    }
}

void lsccsel_write_csv(FILE *f, const struct scenario *sc)
{
    const struct lsccsel *l = sc->lscc;
    fprintf(f, "time_s");
    for (uint32_t i = 0; i < l->n; i++) {
        char nb[32];
        const char *p = port_name(sc, l->node[i]->port, nb, sizeof nb);
        fprintf(f, ",%s/q,%s/qstar,%s/r_sent,%s/r_rcvd,%s/br,%s/direct_cnps", p, p, p, p, p, p);
    }
    fputc('\n', f);
    for (uint32_t k = 0; l->s && k < sc->n_samples && k < l->cap; k++) {
        fprintf(f, "%.9f", (double)((uint64_t)k * sc->sample_interval) / PS_PER_S);
        for (uint32_t i = 0; i < l->n; i++) {
            const struct lscc_sample *s = &l->s[(size_t)k * l->n + i];
            fprintf(f, ",%llu,%llu,%llu,%llu,%lld,%llu", (unsigned long long)s->q, (unsigned long long)s->qstar,
                    (unsigned long long)s->r_sent, (unsigned long long)s->r_rcvd, (long long)s->br,
                    (unsigned long long)s->cnps);
        }
        fputc('\n', f);
    }
}

void lsccsel_merge(struct scenario *sc, void (*reduce)(uint64_t *v, size_t k, int max))
{
    struct lsccsel *l = sc->lscc;
    if (!l || !l->n)
        return;
    const struct net *n = &sc->net;
    /* Each node whole, as 64-bit words: its owner's bytes plus zeros from
     * every other rank are its owner's bytes, doubles and padding too.
     * One reduction per node (a few long-haul ports). */
    enum { W = (sizeof(struct lscc_node) + 7) / 8 };
    uint64_t v[W];
    for (uint32_t i = 0; i < l->n; i++) {
        memset(v, 0, sizeof v);
        if (net_node_local(n, n->ports[l->node[i]->port].node))
            memcpy(v, l->node[i], sizeof *l->node[i]);
        reduce(v, W, 0);
        if (n->my_rank == 0)
            put_node(l->node[i], v);
    }
    /* The samples: each node's column from its owner (zeros elsewhere). */
    _Static_assert(sizeof(struct lscc_sample) % sizeof(uint64_t) == 0, "lscc_sample is made of 64-bit words");
    if (l->s && sc->n_samples) {
        size_t k_n = sc->n_samples < l->cap ? sc->n_samples : l->cap;
        for (uint32_t i = 0; i < l->n; i++)
            if (!net_node_local(n, n->ports[l->node[i]->port].node))
                for (size_t k = 0; k < k_n; k++)
                    memset(&l->s[k * l->n + i], 0, sizeof *l->s);
        reduce((uint64_t *)(void *)l->s, k_n * l->n * (sizeof *l->s / sizeof(uint64_t)), 0);
    }
}

void lsccsel_free(struct scenario *sc)
{
    struct lsccsel *l = sc->lscc;
    if (!l)
        return;
    free(l->node);      /* the nodes themselves belong to their agents (net_free) */
    free(l->s);
    free(l);
    sc->lscc = NULL;
}
