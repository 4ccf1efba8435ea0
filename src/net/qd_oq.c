/*
 * qd_oq.c -- the OpenQueue port discipline (qd_oq.h).
 */
#include "net/qd_oq.h"

#include <stdlib.h>

/* The runtime hands back every packet it drops (the refused arrival or a
 * pushed-out one); the handle is the frame's pool index. */
static void on_drop(void *ctx, const struct oq_pkt *op, enum oq_drop_reason why)
{
    (void)why;
    struct oqp *q = ctx;
    uint32_t pi = (uint32_t)op->handle;
    q->value_dropped += op->value;
    if (pi == q->arriving) {
        q->arriving = PKT_NONE;         /* refused: never counted in data_bytes */
        qdisc_drop(q->n, q->port, pi, 0);
        return;
    }
    q->held--;
    qdisc_drop(q->n, q->port, pi, 1);
}

static void classify(const struct oqp *q, struct rng *r, const struct net *n, const struct packet *p,
                     struct oq_pkt *o)
{
    const struct oqc_rule *u = &q->cls->cls[p->prio & (NCLASS - 1)];
    if (p->flow != NONE32 && q->cls->group) {
        uint32_t g = n->flows[p->flow].group;
        if (g < q->cls->n_groups && q->cls->has_group[g])
            u = &q->cls->group[g];
    }
    o->value = u->value_kind == OQC_CLASS ? (double)p->prio : u->value;
    if (u->proc_kind == OQC_CLASS)
        o->processing = p->prio;
    else if (u->proc_kind == OQC_UNIFORM)
        o->processing = u->proc_lo + (uint32_t)rng_below(r, (uint64_t)(u->proc_hi - u->proc_lo) + 1);
    else
        o->processing = u->proc_lo;
    o->slack = u->slack_ps;
    o->queue = u->queue >= 0 ? (uint32_t)u->queue : UINT32_MAX;
    o->policyId = u->policy_id;
    o->flow = p->flow;
}

static int oq_enq(struct net *n, struct sw *s, uint32_t port, uint32_t pi, void *state)
{
    (void)s;
    struct oqp *q = state;
    const struct packet *p = pkt(&n->pool, pi);
    struct oq_pkt o = { .handle = pi, .size = p->bytes };
    classify(q, &q->rng, n, p, &o);
    oq_classify(q->rt, q->oport, &o);
    q->n = n;
    q->arriving = pi;
    q->value_in += o.value;
    int rc = oq_enqueue(q->rt, &o, n->el.now);
    q->arriving = PKT_NONE;
    if (rc != OQ_ADMITTED)
        return QD_GONE;
    q->held++;
    struct oq_qstats st;
    oq_queue_stats(q->rt, o.queue, &st);
    struct oqp_qextra *x = &q->qx[o.queue];
    if (st.len > x->max_len)
        x->max_len = st.len;
    if (st.bytes > x->max_bytes)
        x->max_bytes = st.bytes;
    qdisc_backlog(&n->ports[port], 1);
    return QD_HELD;
}

static uint32_t sent(struct net *n, struct oqp *q, uint32_t port, const struct oq_pkt *o)
{
    uint32_t pi = (uint32_t)o->handle;
    q->held--;
    q->value_sent += o->value;
    if (o->marked) {
        struct packet *p = pkt(&n->pool, pi);
        if (p->type == PKT_DATA) {      /* RoCEv2 data is ECN-capable: CE */
            p->ecn = 1;
            q->ce_marked++;
        }
    }
    qdisc_backlog(&n->ports[port], q->held != 0);
    return pi;
}

static uint32_t oq_deq(struct net *n, struct sw *s, uint32_t port, void *state)
{
    (void)s;
    struct oqp *q = state;
    struct oq_pkt o;
    q->n = n;
    if (__builtin_expect(q->next_ok > n->el.now, 0)) {
        qdisc_busy(n, port, q->next_ok);        /* the Port's rate is below the link's */
        return PKT_NONE;
    }
    const struct port *pt = &n->ports[port];
    int rc = oq_service(q->rt, q->oport, n->el.now, &o);
    if (rc == OQ_SENT) {
        if (q->rate_frac < 1) {
            uint64_t wire = (uint64_t)o.size + n->cfg.preamble_ifg;
            uint64_t w = pt->ps_per_byte ? wire * pt->ps_per_byte : tx_time_ps(wire, pt->rate_bps);
            q->next_ok = n->el.now + (simtime_t)((double)w / q->rate_frac);
        }
        return sent(n, q, port, &o);
    }
    if (rc == OQ_BUSY) {
        uint64_t c = q->cycle_ps;
        if (!c) {
            uint64_t wire = (uint64_t)o.size + n->cfg.preamble_ifg;
            c = pt->ps_per_byte ? wire * pt->ps_per_byte : tx_time_ps(wire, pt->rate_bps);
        }
        q->cycles_busy++;
        qdisc_busy(n, port, n->el.now + c);
        return PKT_NONE;
    }
    qdisc_backlog(&n->ports[port], 0);  /* empty (held says otherwise only on a runtime bug) */
    return PKT_NONE;
}

/* Every packet leaves on its last cycle, and each call spends one: at most
 * `processing` calls per packet (bounded by the classification). */
static uint32_t oq_drain(struct net *n, struct sw *s, uint32_t port, void *state)
{
    (void)s;
    struct oqp *q = state;
    struct oq_pkt o;
    q->n = n;
    for (;;) {
        int rc = oq_service(q->rt, q->oport, n->el.now, &o);
        if (rc == OQ_SENT) {
            q->held--;
            qdisc_backlog(&n->ports[port], q->held != 0);
            return (uint32_t)o.handle;
        }
        if (rc != OQ_BUSY) {
            qdisc_backlog(&n->ports[port], 0);
            return PKT_NONE;
        }
    }
}

static uint64_t oq_held(const void *state)
{
    return ((const struct oqp *)state)->held;
}

static void oq_destroy(void *state)
{
    oqp_free(state);
}

const struct qdisc_ops qd_openqueue = {
    .name = "openqueue",
    .enqueue = oq_enq,
    .dequeue = oq_deq,
    .drain = oq_drain,
    .held = oq_held,
    .destroy = oq_destroy,
};

struct oqp *oqp_new(const struct oq_policy *pol, uint32_t oport, const struct oqc_table *cls, uint32_t port,
                    uint64_t cycle_ps, uint64_t seed)
{
    struct oqp *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    q->pol = pol;
    q->cls = cls;
    q->oport = oport;
    q->port = port;
    q->cycle_ps = cycle_ps;
    q->rate_frac = 1;
    q->arriving = PKT_NONE;
    rng_seed(&q->rng, seed ^ 0x6f71706f7274ull);     /* "oqport": apart from the runtime's draws */
    q->qx = calloc(oq_nqueues(pol) ? oq_nqueues(pol) : 1, sizeof *q->qx);
    struct oq_sink sink = { .ctx = q, .drop = on_drop, .notify = NULL };
    q->rt = q->qx ? oq_rt_new(pol, &(struct oq_rt_params){ .seed = seed }, &sink) : NULL;
    if (!q->rt) {
        oqp_free(q);
        return NULL;
    }
    return q;
}

void oqp_free(struct oqp *q)
{
    if (!q)
        return;
    oq_rt_free(q->rt);
    free(q->qx);
    free(q);
}
