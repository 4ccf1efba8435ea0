/*
 * oq_rt.c -- the OpenQueue runtime: a compiled policy's queues, buffers and
 * ports as a pure state machine (oq.h), and the bytecode evaluator.
 *
 * Data layout.  Every packet lives in one slot of a pool allocated at
 * instantiation (each queue owns cap slots: its declared size in packets,
 * or bytes / min_pkt_bytes, capped, plus one for the arrival being
 * decided).  A queue orders its packets twice: by procPrio (the top is its
 * HOL packet, getHOL()) and by admPrio (the top is the packet ranked last,
 * the next victim of a drop).  Both orders are binary heaps of slot indices
 * with back-pointers, so insert, remove-top and remove-any are O(log n).
 * When both comparators are arrival order (fifo, or fifo and rfifo), the
 * queue is a ring in arrival order instead, every operation O(1): packets
 * arrive in time order (time never goes back), so insertion order is
 * arrival order and the victim is at one end.
 *
 * Comparators compiled to a rank key (oq_check.c) are evaluated once per
 * packet at insertion (again when a field they read changes); general
 * comparators are evaluated on every comparison, both ways, ties going to
 * the earlier arrival (insertion sequence).  Scheduling and LQD choose a
 * queue by one scan over the port's / buffer's queues: O(k).
 *
 * Admission (oq_enqueue), in order -- docs/openqueue.md "Semantics":
 *   1. the arrival enters its queue (counted, but conditions see the
 *      occupancy it found: currSize, length and bytes exclude it);
 *   2. the queue's congestion(): the first case whose predicate holds runs
 *      its actions; drop(P) draws with probability P and drops the packet
 *      ranked last by admPrio (the arrival or one already queued: push-out);
 *      after a push-out the cases are evaluated again, until no case holds,
 *      a draw fails, or the arrival itself is dropped;
 *   3. the same for the queue's buffer, the victim queue being the one
 *      ranked last by queuePrio (LQD: the longest), counting the arrival;
 *   4. hard limits: while the queue or its buffer holds more than its
 *      declared size (or the queue more than its slots), the packet ranked
 *      last is dropped (OQ_DROP_OVERFLOW);
 *   5. if the arrival stayed: postAdmAct of the queue, then of the buffer.
 * Every loop is bounded by the number of packets present: no policy hangs.
 */
#include "openqueue/oq_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct slot {
    struct oq_pkt p;
    uint64_t seq;
    double kadm, kproc;
    uint32_t hadm, hproc;      /* positions in the queue's heaps */
};

struct rq {
    uint32_t cap, n, head;     /* ring: head index, n entries */
    uint64_t bytes;
    uint32_t *adm, *proc;      /* heaps of slot indices (ring: proc only) */
    uint8_t ring, ring_victim_front;
    double st[4];              /* admState, schedState, weightAdm, weightSched */
    struct oq_qstats stats;
};

struct rb { uint64_t bytes, dropped; uint32_t n; int curq; double admstate; };
struct rp { double schedstate; int curq; };

struct oq_rt {
    const struct oq_policy *p;
    struct oq_sink sink;
    struct rng rng;
    struct slot *slots;
    uint32_t *freel, nfree;
    struct rq *q;
    struct rb *b;
    struct rp *pt;
    uint64_t now, seq, npkts;
    /* the arrival being decided */
    int pending, count_arrival;
    uint32_t pend_q, pend_slot;
};

struct oq_env {
    struct oq_rt *rt;
    int subj_type;
    uint32_t subj;
    struct slot *pa[2];        /* packet comparator arguments */
    uint32_t qa[2];            /* queue comparator arguments */
    int qargs;                 /* 1: arguments are queues */
    struct slot *pkt;          /* packet in scope */
};

/* ------------------------------------------------------------ evaluation */

/* The entity a load reaches: type and index (or slot). */
struct ref { int type; uint32_t idx; struct slot *s; };

static struct slot *hol(struct oq_rt *rt, uint32_t q)
{
    struct rq *r = &rt->q[q];
    if (r->n == 0)
        return NULL;
    return &rt->slots[r->ring ? r->proc[r->head] : r->proc[0]];
}

static int walk(const struct oq_env *e, const struct load *l, struct ref *r)
{
    struct oq_rt *rt = e->rt;
    const struct oq_policy *p = rt->p;
    switch (l->base) {
    case LB_ARG0: case LB_ARG1:
        if (e->qargs) {
            r->type = E_QUEUE;
            r->idx = e->qa[l->base];
        } else {
            r->type = E_PACKET;
            r->s = e->pa[l->base];
        }
        break;
    case LB_SUBJECT:
        r->type = e->subj_type;
        r->idx = e->subj;
        break;
    case LB_PKT:
        r->type = E_PACKET;
        r->s = e->pkt;
        break;
    default:
        return -1;
    }
    for (int i = 0; i < l->nhops; i++) {
        int h = l->hops[i], cur;
        switch (h) {
        case H_PORT:
            if (r->type != E_QUEUE) return -1;
            r->type = E_PORT;
            r->idx = (uint32_t)p->q[r->idx].port;
            break;
        case H_BUFFER:
            if (r->type != E_QUEUE || p->q[r->idx].buffer < 0) return -1;
            r->type = E_BUFFER;
            r->idx = (uint32_t)p->q[r->idx].buffer;
            break;
        case H_CURQ:
            cur = r->type == E_PORT ? rt->pt[r->idx].curq : r->type == E_BUFFER ? rt->b[r->idx].curq : -1;
            if (cur < 0) return -1;
            r->type = E_QUEUE;
            r->idx = (uint32_t)cur;
            break;
        default:
            if (r->type != E_QUEUE || !(r->s = hol(rt, r->idx))) return -1;
            r->type = E_PACKET;
        }
    }
    return r->type == E_PACKET && !r->s ? -1 : 0;
}

static double load(const struct oq_env *e, const struct load *l)
{
    struct oq_rt *rt = e->rt;
    if (l->base == LB_NOW)
        return (double)rt->now;
    struct ref r;
    if (walk(e, l, &r) < 0)
        return 0;               /* no such entity (no buffer, empty queue): reads 0 */
    const struct oq_policy *p = rt->p;
    if (r.type == E_PACKET) {
        const struct oq_pkt *k = &r.s->p;
        switch (l->prop) {
        case P_ARRIVAL: return (double)k->arrival;
        case P_SIZE: return k->size;
        case P_QUEUE: return k->queue;
        case P_VALUE: return k->value;
        case P_PROCESSING: return k->processing;
        case P_SLACK: return (double)k->slack;
        case P_FLOW: return k->flow;
        default: return k->policyId;
        }
    }
    if (r.type == E_QUEUE) {
        const struct rq *q = &rt->q[r.idx];
        int adj = rt->pending && !rt->count_arrival && r.idx == rt->pend_q;
        double n = q->n - adj, bytes = (double)q->bytes - (adj ? rt->slots[rt->pend_slot].p.size : 0);
        switch (l->prop) {
        case P_QSIZE: return p->q[r.idx].size;
        case P_CURRSIZE: return p->q[r.idx].unit == U_PKTS ? n : bytes;
        case P_LENGTH: return n;
        case P_BYTES: return bytes;
        case P_ADMSTATE: return q->st[0];
        case P_SCHEDSTATE: return q->st[1];
        case P_WEIGHTADM: return q->st[2];
        case P_WEIGHTSCHED: return q->st[3];
        case P_ID: return r.idx;
        default: return (double)q->stats.dropped;
        }
    }
    if (r.type == E_BUFFER) {
        const struct rb *b = &rt->b[r.idx];
        int adj = rt->pending && !rt->count_arrival && p->q[rt->pend_q].buffer == (int)r.idx;
        double n = b->n - adj, bytes = (double)b->bytes - (adj ? rt->slots[rt->pend_slot].p.size : 0);
        switch (l->prop) {
        case P_QSIZE: return p->b[r.idx].size;
        case P_CURRSIZE: return p->b[r.idx].unit == U_PKTS ? n : bytes;
        case P_LENGTH: return n;
        case P_BYTES: return bytes;
        case P_ADMSTATE: return b->admstate;
        case P_ID: return r.idx;
        default: return (double)b->dropped;
        }
    }
    switch (l->prop) {
    case P_RATE: return p->pt[r.idx].rate;
    case P_SCHEDSTATE: return rt->pt[r.idx].schedstate;
    default: return r.idx;
    }
}

double oq_eval(const struct oq_policy *p, struct code c, const struct oq_env *e)
{
    double st[OQ_STACK + 1];
    int sp = 0;
    const struct insn *in = p->code + c.start, *end = in + c.len;
    for (; in < end; in++) {
        double b;
        switch (in->op) {
        case OP_CONST: st[sp++] = p->consts[in->arg]; continue;
        case OP_LOAD: st[sp++] = load(e, &p->loads[in->arg]); continue;
        case OP_NEG: st[sp - 1] = -st[sp - 1]; continue;
        case OP_NOT: st[sp - 1] = st[sp - 1] == 0; continue;
        default: break;
        }
        b = st[--sp];
        double *a = &st[sp - 1];
        switch (in->op) {
        case OP_ADD: *a += b; break;
        case OP_SUB: *a -= b; break;
        case OP_MUL: *a *= b; break;
        case OP_DIV: *a = b == 0 ? 0 : *a / b; break;   /* x / 0 = 0 by definition */
        case OP_LT: *a = *a < b; break;
        case OP_LE: *a = *a <= b; break;
        case OP_GT: *a = *a > b; break;
        case OP_GE: *a = *a >= b; break;
        case OP_EQ: *a = *a == b; break;
        case OP_NE: *a = *a != b; break;
        case OP_AND: *a = *a != 0 && b != 0; break;
        default: *a = *a != 0 || b != 0; break;
        }
        if (*a != *a)
            *a = 0;                                      /* inf - inf, 0 * inf: 0 */
    }
    return sp ? st[0] : 0;
}

static void rekey(struct oq_rt *rt, struct slot *s);

static void store(const struct oq_env *e, const struct load *l, double v)
{
    struct ref r;
    struct oq_rt *rt = e->rt;
    if (walk(e, l, &r) < 0)
        return;
    if (r.type == E_QUEUE) {
        int i = l->prop == P_ADMSTATE ? 0 : l->prop == P_SCHEDSTATE ? 1 : l->prop == P_WEIGHTADM ? 2 : 3;
        rt->q[r.idx].st[i] = v;
    } else if (r.type == E_BUFFER) {
        rt->b[r.idx].admstate = v;
    } else if (r.type == E_PORT) {
        rt->pt[r.idx].schedstate = v;
    } else {
        r.s->p.value = v;
        rekey(rt, r.s);
    }
}

/* -------------------------------------------------------------- ordering */

static uint32_t sidx(const struct oq_rt *rt, const struct slot *s) { return (uint32_t)(s - rt->slots); }

/* Does packet a rank before packet b under comparator m (key kind: which
 * stored key)?  Ties: the earlier insertion first. */
static int pkt_before(struct oq_rt *rt, const struct cmp *m, int adm, const struct slot *a, const struct slot *b)
{
    if (m->mode != CM_GENERAL) {
        double ka = adm ? a->kadm : a->kproc, kb = adm ? b->kadm : b->kproc;
        if (ka != kb)
            return m->mode == CM_KEY_ASC ? ka < kb : ka > kb;
        return a->seq < b->seq;
    }
    struct oq_env e = { .rt = rt };
    e.pa[0] = (struct slot *)a;
    e.pa[1] = (struct slot *)b;
    if (oq_eval(rt->p, m->full, &e) != 0)
        return 1;
    e.pa[0] = (struct slot *)b;
    e.pa[1] = (struct slot *)a;
    if (oq_eval(rt->p, m->full, &e) != 0)
        return 0;
    return a->seq < b->seq;
}

/* Heap order: adm heap has the last-ranked packet on top. */
static int above(struct oq_rt *rt, uint32_t q, int adm, uint32_t a, uint32_t b)
{
    const struct oq_queue *pq = &rt->p->q[q];
    if (adm)
        return pkt_before(rt, &rt->p->cmps[pq->adm], 1, &rt->slots[b], &rt->slots[a]);
    return pkt_before(rt, &rt->p->cmps[pq->proc], 0, &rt->slots[a], &rt->slots[b]);
}

static void hset(struct oq_rt *rt, uint32_t *h, int adm, uint32_t pos, uint32_t s)
{
    h[pos] = s;
    if (adm)
        rt->slots[s].hadm = pos;
    else
        rt->slots[s].hproc = pos;
}

static void sift_up(struct oq_rt *rt, uint32_t q, int adm, uint32_t pos)
{
    uint32_t *h = adm ? rt->q[q].adm : rt->q[q].proc, s = h[pos];
    while (pos > 0) {
        uint32_t par = (pos - 1) / 2;
        if (!above(rt, q, adm, s, h[par]))
            break;
        hset(rt, h, adm, pos, h[par]);
        pos = par;
    }
    hset(rt, h, adm, pos, s);
}

static void sift_down(struct oq_rt *rt, uint32_t q, int adm, uint32_t pos, uint32_t n)
{
    uint32_t *h = adm ? rt->q[q].adm : rt->q[q].proc, s = h[pos];
    for (;;) {
        uint32_t c = 2 * pos + 1;
        if (c >= n)
            break;
        if (c + 1 < n && above(rt, q, adm, h[c + 1], h[c]))
            c++;
        if (!above(rt, q, adm, h[c], s))
            break;
        hset(rt, h, adm, pos, h[c]);
        pos = c;
    }
    hset(rt, h, adm, pos, s);
}

/* Remove the heap entry at pos (n entries before removal). */
static void heap_del(struct oq_rt *rt, uint32_t q, int adm, uint32_t pos, uint32_t n)
{
    uint32_t *h = adm ? rt->q[q].adm : rt->q[q].proc;
    uint32_t last = h[n - 1];
    if (pos == n - 1)
        return;
    hset(rt, h, adm, pos, last);
    sift_down(rt, q, adm, pos, n - 1);
    sift_up(rt, q, adm, adm ? rt->slots[last].hadm : rt->slots[last].hproc);
}

static void keys(struct oq_rt *rt, struct slot *s)
{
    const struct oq_queue *pq = &rt->p->q[s->p.queue];
    const struct cmp *a = &rt->p->cmps[pq->adm], *b = &rt->p->cmps[pq->proc];
    struct oq_env e = { .rt = rt };
    e.pa[0] = s;
    s->kadm = a->mode != CM_GENERAL ? oq_eval(rt->p, a->key, &e) : 0;
    s->kproc = b->mode != CM_GENERAL ? oq_eval(rt->p, b->key, &e) : 0;
}

/* A field of a queued packet changed (processing, value): reorder it. */
static void rekey(struct oq_rt *rt, struct slot *s)
{
    uint32_t q = s->p.queue;
    struct rq *r = &rt->q[q];
    if (r->ring || q >= rt->p->nq || r->n == 0)
        return;
    if (s->hproc >= r->n || rt->slots[r->proc[s->hproc]].seq != s->seq)
        return;                 /* not queued */
    keys(rt, s);
    sift_up(rt, q, 0, s->hproc);
    sift_down(rt, q, 0, s->hproc, r->n);
    sift_up(rt, q, 1, s->hadm);
    sift_down(rt, q, 1, s->hadm, r->n);
}

static void q_insert(struct oq_rt *rt, uint32_t q, uint32_t s)
{
    struct rq *r = &rt->q[q];
    if (r->ring) {
        r->proc[(r->head + r->n) % r->cap] = s;
    } else {
        hset(rt, r->adm, 1, r->n, s);
        hset(rt, r->proc, 0, r->n, s);
        sift_up(rt, q, 1, r->n);
        sift_up(rt, q, 0, r->n);
    }
    r->n++;
    r->bytes += rt->slots[s].p.size;
    int b = rt->p->q[q].buffer;
    if (b >= 0) {
        rt->b[b].n++;
        rt->b[b].bytes += rt->slots[s].p.size;
    }
    rt->npkts++;
}

/* The packet ranked last by admPrio: the next victim. */
static uint32_t q_victim(const struct oq_rt *rt, uint32_t q)
{
    const struct rq *r = &rt->q[q];
    if (r->ring)
        return r->proc[r->ring_victim_front ? r->head : (r->head + r->n - 1) % r->cap];
    return r->adm[0];
}

static void q_remove(struct oq_rt *rt, uint32_t q, uint32_t s)
{
    struct rq *r = &rt->q[q];
    struct slot *sl = &rt->slots[s];
    if (r->ring) {
        if (r->proc[r->head] == s)
            r->head = (r->head + 1) % r->cap;
        /* else: the newest, at the back */
    } else {
        heap_del(rt, q, 1, sl->hadm, r->n);
        heap_del(rt, q, 0, sl->hproc, r->n);
    }
    r->n--;
    r->bytes -= sl->p.size;
    int b = rt->p->q[q].buffer;
    if (b >= 0) {
        rt->b[b].n--;
        rt->b[b].bytes -= sl->p.size;
    }
    rt->npkts--;
    rt->freel[rt->nfree++] = s;
}

static void drop_slot(struct oq_rt *rt, uint32_t s, enum oq_drop_reason why)
{
    struct slot *sl = &rt->slots[s];
    uint32_t q = sl->p.queue;
    struct oq_pkt copy = sl->p;
    struct rq *r = &rt->q[q];
    r->stats.dropped++;
    r->stats.drop_bytes += copy.size;
    if (rt->pending && s == rt->pend_slot)
        rt->pending = 0;        /* the arrival itself: conditions now see the queue as it is */
    else
        r->stats.pushed_out++;
    if (why == OQ_DROP_BUFFER && rt->p->q[q].buffer >= 0)
        rt->b[rt->p->q[q].buffer].dropped++;
    q_remove(rt, q, s);
    if (rt->sink.drop)
        rt->sink.drop(rt->sink.ctx, &copy, why);
}

/* Does queue a rank before queue b under queue comparator m? */
static int q_before(struct oq_rt *rt, const struct cmp *m, uint32_t a, uint32_t b)
{
    struct oq_env e = { .rt = rt, .qargs = 1 };
    if (m->mode != CM_GENERAL) {
        e.qa[0] = a;
        double ka = oq_eval(rt->p, m->key, &e);
        e.qa[0] = b;
        double kb = oq_eval(rt->p, m->key, &e);
        if (ka != kb)
            return m->mode == CM_KEY_ASC ? ka < kb : ka > kb;
        return a < b;
    }
    e.qa[0] = a;
    e.qa[1] = b;
    if (oq_eval(rt->p, m->full, &e) != 0)
        return 1;
    e.qa[0] = b;
    e.qa[1] = a;
    if (oq_eval(rt->p, m->full, &e) != 0)
        return 0;
    return a < b;
}

/* The buffer's victim queue: ranked last by queuePrio among its non-empty
 * queues (ties: the later one), the arrival counted; without queuePrio the
 * arrival's queue (else the first non-empty). */
static int victim_queue(struct oq_rt *rt, uint32_t b)
{
    const struct oq_buffer *pb = &rt->p->b[b];
    int best = -1;
    if (pb->qprio < 0 && rt->pending && rt->q[rt->pend_q].n)
        return (int)rt->pend_q;
    rt->count_arrival = 1;
    for (uint32_t i = 0; i < pb->nq; i++) {
        uint32_t q = rt->p->qlist[pb->first_q + i];
        if (!rt->q[q].n)
            continue;
        if (best < 0 || pb->qprio < 0) {
            if (best < 0)
                best = (int)q;
            continue;
        }
        if (!q_before(rt, &rt->p->cmps[pb->qprio], q, (uint32_t)best))
            best = (int)q;
    }
    rt->count_arrival = 0;
    return best;
}

static int draw(struct oq_rt *rt, double prob)
{
    if (!(prob > 0))
        return 0;
    if (prob >= 1)
        return 1;
    return rng_uniform(&rt->rng) < prob;
}

static void run_actions(struct oq_rt *rt, const struct cond_case *cc, struct oq_env *e, int *dropped, int ent, uint32_t q)
{
    const struct oq_policy *p = rt->p;
    for (uint32_t a = 0; a < cc->nactions; a++) {
        const struct action *ac = &p->acts[cc->first_action + a];
        switch (ac->kind) {
        case ACT_DROP: {
            double pr = ac->prob_const ? ac->prob : oq_eval(p, ac->expr, e);
            if (!draw(rt, pr))
                break;
            int vq = ent == OQ_ENT_BUFFER ? victim_queue(rt, e->subj) : (int)q;
            if (vq < 0)
                break;
            uint32_t v = q_victim(rt, (uint32_t)vq);
            if (e->pkt && v == sidx(rt, e->pkt))
                e->pkt = NULL;
            drop_slot(rt, v, ent == OQ_ENT_BUFFER ? OQ_DROP_BUFFER : OQ_DROP_CONGESTION);
            *dropped = 1;
            break;
        }
        case ACT_MARK:
            if (e->pkt && !e->pkt->p.marked) {
                e->pkt->p.marked = 1;
                rt->q[e->pkt->p.queue].stats.marked++;
            }
            break;
        case ACT_NOTIFY:
            if (ent == OQ_ENT_QUEUE)
                rt->q[e->subj].stats.notified++;
            if (rt->sink.notify)
                rt->sink.notify(rt->sink.ctx, (enum oq_entity)ent, e->subj, e->pkt ? &e->pkt->p : NULL);
            break;
        default:
            store(e, &ac->target, oq_eval(p, ac->expr, e));
        }
    }
}

/* Evaluate condition cd on subject (ent, idx); with loop: again after
 * every push-out (admission).  Returns with e->pkt NULL if the packet in
 * scope was dropped. */
static void run_cond(struct oq_rt *rt, int cd, int ent, uint32_t idx, struct oq_env *e, int loop)
{
    if (cd < 0)
        return;
    const struct cond *c = &rt->p->conds[cd];
    e->subj_type = ent == OQ_ENT_QUEUE ? E_QUEUE : ent == OQ_ENT_BUFFER ? E_BUFFER : E_PORT;
    e->subj = idx;
    for (uint64_t round = 0; round <= rt->npkts; round++) {
        const struct cond_case *hit = NULL;
        for (uint32_t i = 0; i < c->ncases && !hit; i++)
            if (oq_eval(rt->p, rt->p->cases[c->first_case + i].pred, e) != 0)
                hit = &rt->p->cases[c->first_case + i];
        if (!hit)
            return;
        int dropped = 0;
        run_actions(rt, hit, e, &dropped, ent, idx);
        if (!loop || !dropped || !e->pkt)
            return;
    }
}

static uint64_t used(const struct oq_rt *rt, uint8_t unit, uint32_t n, uint64_t bytes)
{
    (void)rt;
    return unit == U_PKTS ? n : bytes;
}

int oq_enqueue(struct oq_rt *rt, const struct oq_pkt *pkt, uint64_t now)
{
    const struct oq_policy *p = rt->p;
    if (now > rt->now)
        rt->now = now;
    if (pkt->queue >= p->nq || pkt->size == 0) {
        if (rt->sink.drop)
            rt->sink.drop(rt->sink.ctx, pkt, OQ_DROP_OVERFLOW);
        return OQ_REFUSED;
    }
    uint32_t q = pkt->queue, s = rt->freel[--rt->nfree];
    struct slot *sl = &rt->slots[s];
    sl->p = *pkt;
    sl->p.arrival = rt->now;
    sl->p.marked = 0;
    sl->seq = ++rt->seq;
    keys(rt, sl);
    q_insert(rt, q, s);
    rt->pending = 1;
    rt->pend_q = q;
    rt->pend_slot = s;
    const struct oq_queue *pq = &p->q[q];
    struct oq_env e = { .rt = rt, .pkt = sl };
    run_cond(rt, pq->congestion, OQ_ENT_QUEUE, q, &e, 1);
    int b = pq->buffer;
    if (b >= 0 && e.pkt) {
        rt->b[b].curq = (int)q;
        run_cond(rt, p->b[b].congestion, OQ_ENT_BUFFER, (uint32_t)b, &e, 1);
    }
    /* hard limits */
    struct rq *r = &rt->q[q];
    while (r->n && (used(rt, pq->unit, r->n, r->bytes) > (uint64_t)pq->size || r->n >= r->cap))
        drop_slot(rt, q_victim(rt, q), OQ_DROP_OVERFLOW);
    if (b >= 0) {
        const struct oq_buffer *pb = &p->b[b];
        while (rt->b[b].n && used(rt, pb->unit, rt->b[b].n, rt->b[b].bytes) > (uint64_t)pb->size) {
            int vq = victim_queue(rt, (uint32_t)b);
            if (vq < 0)
                break;
            drop_slot(rt, q_victim(rt, (uint32_t)vq), OQ_DROP_OVERFLOW);
        }
    }
    int admitted = rt->pending;
    rt->pending = 0;
    if (!admitted)
        return OQ_REFUSED;
    r->stats.enqueued++;
    r->stats.enq_bytes += sl->p.size;
    e.pkt = sl;
    run_cond(rt, pq->postadm, OQ_ENT_QUEUE, q, &e, 0);
    if (b >= 0 && e.pkt) {
        rt->b[b].curq = (int)q;
        run_cond(rt, p->b[b].postadm, OQ_ENT_BUFFER, (uint32_t)b, &e, 0);
    }
    return OQ_ADMITTED;
}

int oq_service(struct oq_rt *rt, uint32_t port, uint64_t now, struct oq_pkt *out)
{
    return oq_service_among(rt, port, now, NULL, out);
}

int oq_service_among(struct oq_rt *rt, uint32_t port, uint64_t now, const uint8_t *eligible, struct oq_pkt *out)
{
    const struct oq_policy *p = rt->p;
    if (now > rt->now)
        rt->now = now;
    if (port >= p->np)
        return OQ_EMPTY;
    const struct oq_port *pp = &p->pt[port];
    int best = -1;
    for (uint32_t i = 0; i < pp->nq; i++) {
        uint32_t q = p->qlist[pp->first_q + i];
        if (!rt->q[q].n || (eligible && !eligible[i]))
            continue;
        if (best < 0) {
            best = (int)q;
            if (pp->sched < 0)
                break;          /* no schedPrio: port order */
        } else if (q_before(rt, &p->cmps[pp->sched], q, (uint32_t)best)) {
            best = (int)q;
        }
    }
    if (best < 0)
        return OQ_EMPTY;
    rt->pt[port].curq = best;
    struct slot *h = hol(rt, (uint32_t)best);
    int last = h->p.processing <= 1;
    if (!last) {
        h->p.processing--;
        if (p->cmps[p->q[best].proc].uses_dyn || p->cmps[p->q[best].adm].uses_dyn)
            rekey(rt, h);
    }
    struct oq_env e = { .rt = rt, .pkt = h };
    run_cond(rt, pp->postsched, OQ_ENT_PORT, port, &e, 0);
    if (!last) {
        *out = h->p;            /* a copy: the packet that had the cycle stays queued */
        return OQ_BUSY;
    }
    struct rq *r = &rt->q[best];
    r->stats.dequeued++;
    r->stats.deq_bytes += h->p.size;
    *out = h->p;
    q_remove(rt, (uint32_t)best, sidx(rt, h));
    return OQ_SENT;
}

uint32_t oq_classify(struct oq_rt *rt, uint32_t port, struct oq_pkt *pkt)
{
    const struct oq_policy *p = rt->p;
    if (port >= p->np)
        return pkt->queue;
    const struct oq_port *pp = &p->pt[port];
    if (pkt->queue < p->nq && p->q[pkt->queue].port == (int)port)
        return pkt->queue;
    uint32_t i = pp->qselect == QS_FLOW ? pkt->flow % pp->nq
               : pp->qselect == QS_RANDOM ? (uint32_t)rng_below(&rt->rng, pp->nq) : 0;
    return pkt->queue = p->qlist[pp->first_q + i];
}

/* ------------------------------------------------------------ lifecycle */

struct oq_rt *oq_rt_new(const struct oq_policy *p, const struct oq_rt_params *prm, const struct oq_sink *sink)
{
    struct oq_rt_params d = { .seed = 1, .min_pkt_bytes = 64, .max_queue_slots = 65536 };
    if (prm) {
        d.seed = prm->seed;
        if (prm->min_pkt_bytes)
            d.min_pkt_bytes = prm->min_pkt_bytes;
        if (prm->max_queue_slots)
            d.max_queue_slots = prm->max_queue_slots;
    }
    struct oq_rt *rt = calloc(1, sizeof *rt);
    if (!rt)
        return NULL;
    rt->p = p;
    if (sink)
        rt->sink = *sink;
    rng_seed(&rt->rng, d.seed);
    rt->q = calloc(p->nq + 1, sizeof *rt->q);
    rt->b = calloc(p->nb + 1, sizeof *rt->b);
    rt->pt = calloc(p->np + 1, sizeof *rt->pt);
    if (!rt->q || !rt->b || !rt->pt)
        goto fail;
    uint64_t total = 0;
    for (uint32_t i = 0; i < p->nq; i++) {
        const struct oq_queue *pq = &p->q[i];
        double cap = pq->unit == U_PKTS ? pq->size : pq->size / d.min_pkt_bytes;
        if (pq->buffer >= 0) {
            const struct oq_buffer *pb = &p->b[pq->buffer];
            double cb = pb->unit == U_PKTS ? pb->size : pb->size / d.min_pkt_bytes;
            cap = cb < cap ? cb : cap;
        }
        if (cap > d.max_queue_slots)
            cap = d.max_queue_slots;
        if (cap < 1)
            cap = 1;
        struct rq *r = &rt->q[i];
        r->cap = (uint32_t)cap + 1;
        const struct cmp *a = &p->cmps[pq->adm], *b = &p->cmps[pq->proc];
        int adm_rev = a->mode == CM_KEY_DESC && a->key.len == 1 && p->code[a->key.start].op == OP_LOAD &&
                      p->loads[p->code[a->key.start].arg].nhops == 0 && p->loads[p->code[a->key.start].arg].prop == P_ARRIVAL;
        r->ring = b->arrival_order && (a->arrival_order || adm_rev);
        r->ring_victim_front = (uint8_t)adm_rev;
        r->proc = malloc(r->cap * sizeof *r->proc);
        r->adm = r->ring ? NULL : malloc(r->cap * sizeof *r->adm);
        if (!r->proc || (!r->ring && !r->adm))
            goto fail;
        memcpy(r->st, pq->init, sizeof r->st);
        total += r->cap;
    }
    for (uint32_t i = 0; i < p->nb; i++) {
        rt->b[i].admstate = p->b[i].admstate;
        rt->b[i].curq = -1;
    }
    for (uint32_t i = 0; i < p->np; i++) {
        rt->pt[i].schedstate = p->pt[i].schedstate;
        rt->pt[i].curq = -1;
    }
    if (total > UINT32_MAX / 2)
        goto fail;
    rt->slots = calloc(total, sizeof *rt->slots);
    rt->freel = malloc(total * sizeof *rt->freel);
    if (!rt->slots || !rt->freel)
        goto fail;
    for (uint32_t i = 0; i < total; i++)
        rt->freel[i] = (uint32_t)(total - 1 - i);
    rt->nfree = (uint32_t)total;
    return rt;
fail:
    oq_rt_free(rt);
    return NULL;
}

void oq_rt_free(struct oq_rt *rt)
{
    if (!rt)
        return;
    for (uint32_t i = 0; rt->q && i < rt->p->nq; i++) {
        free(rt->q[i].proc);
        free(rt->q[i].adm);
    }
    free(rt->q); free(rt->b); free(rt->pt); free(rt->slots); free(rt->freel);
    free(rt);
}

void oq_queue_stats(const struct oq_rt *rt, uint32_t q, struct oq_qstats *st)
{
    memset(st, 0, sizeof *st);
    if (q >= rt->p->nq)
        return;
    *st = rt->q[q].stats;
    st->len = rt->q[q].n;
    st->bytes = rt->q[q].bytes;
}

void oq_queue_state(const struct oq_rt *rt, uint32_t q, double st[4])
{
    for (int i = 0; i < 4; i++)
        st[i] = q < rt->p->nq ? rt->q[q].st[i] : 0;
}

uint64_t oq_rt_packets(const struct oq_rt *rt) { return rt->npkts; }

int oq_queue_head(struct oq_rt *rt, uint32_t q, struct oq_pkt *out)
{
    if (q >= rt->p->nq)
        return 0;
    const struct slot *h = hol(rt, q);
    if (!h)
        return 0;
    *out = h->p;
    return 1;
}

int oq_queue_fits(const struct oq_rt *rt, uint32_t q, uint32_t extra_pkts, uint64_t extra_bytes)
{
    const struct oq_policy *p = rt->p;
    if (q >= p->nq)
        return 0;
    const struct oq_queue *pq = &p->q[q];
    const struct rq *r = &rt->q[q];
    /* the same tests as the hard limits of oq_enqueue, with the extra
     * packets counted in (r->cap keeps one slot for the arrival) */
    if ((uint64_t)r->n + extra_pkts >= r->cap ||
        used(rt, pq->unit, r->n + extra_pkts, r->bytes + extra_bytes) > (uint64_t)pq->size)
        return 0;
    if (pq->buffer >= 0) {
        const struct oq_buffer *pb = &p->b[pq->buffer];
        const struct rb *b = &rt->b[pq->buffer];
        if (used(rt, pb->unit, b->n + extra_pkts, b->bytes + extra_bytes) > (uint64_t)pb->size)
            return 0;
    }
    return 1;
}
