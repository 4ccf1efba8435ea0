/*
 * qd_xbar.c -- the buffered-crossbar switch (qd_xbar.h) on the queueing-
 * discipline interface (qdisc.h): glue between the switch's frames and the
 * fabric of src/openqueue/oq_xbar.c.
 */
#include "net/qd_xbar.h"

#include <stdio.h>
#include <stdlib.h>

struct qdx {
    struct net *n;
    uint32_t first_port, nports;
    struct oq_policy *pol;
    struct oqx *x;
    uint32_t agent;              /* the timer agent's id */
    simtime_t armed;             /* its pending EV_AGENT time (SIMTIME_NEVER: none) */
    uint32_t arriving;           /* pool index of the frame being admitted */
    uint64_t marked;
    uint64_t voq_max;            /* the longest any VOQ got (packets) */
};

/* ------------------------------------------------------------ fabric sink */

static void on_drop(void *ctx, const struct oq_pkt *op, enum oqx_stage stage, enum oq_drop_reason why)
{
    (void)stage; (void)why;
    struct qdx *q = ctx;
    uint32_t pi = (uint32_t)op->handle;
    if (pi == q->arriving) {
        q->arriving = PKT_NONE;          /* refused: x_enq drops it (never in data_bytes) */
        return;
    }
    uint32_t out = oqx_queue_output(q->x, op->queue);     /* pushed out later: its egress */
    qdisc_drop(q->n, q->first_port + (out < q->nports ? out : 0), pi, 1);
}

static void set_ce(struct qdx *q, uint32_t pi)
{
    struct packet *p = pkt(&q->n->pool, pi);
    if (p->type == PKT_DATA && !p->ecn) {     /* RoCEv2 data is ECN-capable: CE */
        p->ecn = 1;
        q->marked++;
    }
}

static void on_mark(void *ctx, const struct oq_pkt *op)
{
    set_ce(ctx, (uint32_t)op->handle);
}

/* oq(out) became non-empty: the egress may send. */
static void on_ready(void *ctx, uint32_t out)
{
    struct qdx *q = ctx;
    uint32_t port = q->first_port + out;
    qdisc_backlog(&q->n->ports[port], 1);
    port_kick(q->n, port);
}

/* ------------------------------------------------------------ the timer */

static void arm(struct qdx *q)
{
    simtime_t t = oqx_next(q->x);
    if (t == UINT64_MAX || (q->armed != SIMTIME_NEVER && q->armed <= t))
        return;
    q->armed = t;
    net_schedule(q->n, t, EV_AGENT, q->agent);
}

static void on_timer(struct net *n, void *state)
{
    struct qdx *q = state;
    if (q->armed != n->el.now)
        return;                          /* stale: re-armed earlier, already run */
    q->armed = SIMTIME_NEVER;
    oqx_advance(q->x, n->el.now);
    arm(q);
}

static const struct port_agent_ops timer_ops = { .name = "crossbar-timer", .on_timer = on_timer };

/* ------------------------------------------------------------ discipline */

static int x_enq(struct net *n, struct sw *s, uint32_t port, uint32_t pi, void *state)
{
    (void)s;
    struct qdx *q = state;
    const struct packet *p = pkt(&n->pool, pi);
    struct oq_pkt o = { .handle = pi, .size = p->bytes, .value = p->prio, .flow = p->flow };
    q->arriving = pi;
    int rc = oqx_arrive(q->x, p->in_port, port - q->first_port, &o, n->el.now);
    q->arriving = PKT_NONE;
    arm(q);
    if (rc != OQ_ADMITTED) {
        qdisc_drop(n, port, pi, 0);
        return QD_GONE;
    }
    struct oq_qstats st;
    oq_queue_stats(oqx_runtime(q->x), o.queue, &st);
    if (st.len > q->voq_max)
        q->voq_max = st.len;
    return QD_HELD;
}

static uint32_t x_deq(struct net *n, struct sw *s, uint32_t port, void *state)
{
    (void)s;
    struct qdx *q = state;
    uint32_t out = port - q->first_port;
    struct oq_pkt o;
    int rc = oqx_take(q->x, out, n->el.now, &o);
    qdisc_backlog(&n->ports[port], oqx_outq_len(q->x, out) != 0);
    arm(q);
    if (rc != OQ_SENT)
        return PKT_NONE;
    uint32_t pi = (uint32_t)o.handle;
    if (o.marked)
        set_ce(q, pi);
    return pi;
}

static uint32_t x_drain(struct net *n, struct sw *s, uint32_t port, void *state)
{
    (void)s;
    struct qdx *q = state;
    uint32_t out = port - q->first_port;
    struct oq_pkt o;
    int got = oqx_drain(q->x, out, &o);
    qdisc_backlog(&n->ports[port], oqx_outq_len(q->x, out) != 0);
    arm(q);
    return got ? (uint32_t)o.handle : PKT_NONE;
}

static uint64_t x_held(const void *state)
{
    return oqx_held(((const struct qdx *)state)->x);
}

static void x_destroy(void *state)
{
    struct qdx *q = state;
    if (!q)
        return;
    oqx_free(q->x);
    oq_policy_free(q->pol);
    free(q);
}

const struct qdisc_ops qd_crossbar = {
    .name = "crossbar",
    .enqueue = x_enq,
    .dequeue = x_deq,
    .drain = x_drain,
    .held = x_held,
    .destroy = x_destroy,
};

struct qdx *qdx_install(struct net *n, struct sw *s, struct oq_policy *pol, double speedup, uint64_t seed,
                        char *err, size_t errlen)
{
    const struct node *nd = &n->nodes[s->node];
    uint32_t np = nd->n_ports;
    struct qdx *q = calloc(1, sizeof *q);
    uint64_t *bps = calloc(np ? np : 1, sizeof *bps);
    if (!q || !bps) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    if (!(speedup > 0) || speedup > 1000) {
        snprintf(err, errlen, "speedup %g is not in (0, 1000]", speedup);
        goto fail;
    }
    q->n = n;
    q->first_port = nd->first_port;
    q->nports = np;
    q->armed = SIMTIME_NEVER;
    q->arriving = PKT_NONE;
    for (uint32_t k = 0; k < np; k++) {
        double r = (double)n->ports[nd->first_port + k].rate_bps * speedup;
        bps[k] = r < 1 ? 1 : (uint64_t)r;
    }
    struct oqx_params prm = { .nports = np, .xfer_bps = bps, .overhead_bytes = n->cfg.preamble_ifg, .seed = seed };
    struct oqx_sink sink = { .ctx = q, .drop = on_drop, .ready = on_ready, .mark = on_mark };
    q->x = oqx_new(pol, &prm, &sink, err, errlen);
    if (!q->x)
        goto fail;
    free(bps);
    bps = NULL;
    q->agent = net_add_agent(n, nd->first_port, &timer_ops, q);
    if (q->agent == NONE32) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    for (uint32_t k = 0; k < np; k++)
        if (qdisc_install(n, s, k, &qd_crossbar, q)) {
            snprintf(err, errlen, "out of memory");   /* only the first install allocates */
            goto fail;
        }
    q->pol = pol;
    return q;
fail:
    free(bps);
    if (q) {
        oqx_free(q->x);
        free(q);
    }
    oq_policy_free(pol);
    return NULL;
}

const struct oqx *qdx_fabric(const struct qdx *q) { return q->x; }
uint64_t qdx_marked(const struct qdx *q) { return q->marked; }
uint64_t qdx_voq_max(const struct qdx *q) { return q->voq_max; }
