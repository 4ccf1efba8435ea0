/*
 * oq_xbar.c -- the buffered crossbar of Fig. 2.12/2.13 over the OpenQueue
 * runtime (oq_xbar.h has the model; docs/openqueue.md "The buffered
 * crossbar").
 *
 * Every decision is the policy's: admission to each level is oq_enqueue,
 * the input scheduler is in_i's schedPrio, the output scheduler col_j's,
 * the egress out_j's.  This file only moves packets between the levels,
 * keeps each input's and output's one transfer in flight, and restricts
 * the schedulers to the queues whose next level has room.
 */
#include "openqueue/oq_xbar.h"
#include "openqueue/oq_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"

struct xfer {
    uint64_t done;             /* completion time (valid while busy) */
    struct oq_pkt pkt;
    uint32_t to;               /* the queue it enters */
    uint8_t busy;
};

struct oqx {
    const struct oq_policy *p;
    struct oq_rt *rt;
    struct oqx_sink sink;
    uint32_t n;
    uint32_t *voq, *cq, *oq;           /* queue indices: [i*n + j], [i*n + j], [j] */
    uint32_t *inport, *colport, *outport;
    uint32_t *in_pos;                  /* [i*n + k]: output of in_i's k-th queue */
    uint32_t *col_pos;                 /* [j*n + k]: input of col_j's k-th queue */
    uint8_t *qstage;                   /* [nq]: level of each policy queue */
    uint32_t *qin, *qout;              /* [nq]: its input, output */
    uint8_t *elig;                     /* [n] scratch for oq_service_among */
    uint8_t *ready;                    /* [n] outputs to announce */
    uint64_t *bps;
    uint32_t overhead;
    struct xfer *ix, *ox;
    uint64_t in_flight;
    uint64_t now;                      /* the latest time seen */
    struct oqx_stats st;
};

/* ------------------------------------------------------------ naming */

void oqx_name(char *buf, size_t cap, const char *kind, uint32_t n, uint32_t i, uint32_t j)
{
    int pair = !strcmp(kind, "voq") || !strcmp(kind, "cq");
    if (!pair)
        snprintf(buf, cap, "%s%u", kind, i + 1);
    else if (n <= 9)
        snprintf(buf, cap, "%s%u%u", kind, i + 1, j + 1);
    else
        snprintf(buf, cap, "%s%u_%u", kind, i + 1, j + 1);
}

/* ------------------------------------------------------------ sink glue */

static void on_drop(void *ctx, const struct oq_pkt *p, enum oq_drop_reason why)
{
    struct oqx *x = ctx;
    enum oqx_stage stage = p->queue < oq_nqueues(x->p) ? (enum oqx_stage)x->qstage[p->queue] : OQX_VOQ;
    x->st.dropped[stage]++;
    if (x->sink.drop)
        x->sink.drop(x->sink.ctx, p, stage, why);
}

static void on_notify(void *ctx, enum oq_entity kind, uint32_t idx, const struct oq_pkt *pkt)
{
    struct oqx *x = ctx;
    if (x->sink.notify)
        x->sink.notify(x->sink.ctx, kind, idx, pkt);
}

/* ------------------------------------------------------------ building */

static int find(const struct oq_policy *p, int port, const char *kind, uint32_t n, uint32_t i, uint32_t j,
                uint32_t *out, char *err, size_t errlen)
{
    char name[64];
    oqx_name(name, sizeof name, kind, n, i, j);
    int k = port ? oq_port_index(p, name) : oq_queue_index(p, name);
    if (k < 0) {
        snprintf(err, errlen, "%s: a %u-port buffered crossbar needs a %s '%s' (oq_xbar.h: names voqIJ cqIJ oqJ "
                 "inI colJ outJ; 'roccsim oq crossbar %u' writes one)", p->fname, n,
                 port ? "port" : "queue", name, n);
        text_escape_inplace(err, errlen);
        return -1;
    }
    *out = (uint32_t)k;
    return 0;
}

/* Port `port` must hold exactly the n queues q[0], q[stride], ..., in any
 * order; pos[k] = the index (0..n-1) of its k-th queue. */
static int check_port(const struct oq_policy *p, uint32_t port, const uint32_t *q, uint32_t stride, uint32_t n,
                      uint32_t *pos, char *err, size_t errlen)
{
    uint32_t nq = oq_port_nqueues(p, port);
    if (nq != n)
        goto bad;
    for (uint32_t k = 0; k < nq; k++) {
        uint32_t qq = oq_port_queue(p, port, k), m;
        for (m = 0; m < n && q[m * stride] != qq; m++)
            ;
        if (m == n)
            goto bad;
        pos[k] = m;
    }
    return 0;
bad:
    snprintf(err, errlen, "%s: port '%s' of the buffered crossbar must hold exactly its %u queues "
             "(in: voqI1..voqIN; col: cq1J..cqNJ; out: oqJ), it has %u", p->fname,
             oq_port_name(p, port), n, nq);
    text_escape_inplace(err, errlen);
    return -1;
}

struct oqx *oqx_new(const struct oq_policy *p, const struct oqx_params *prm, const struct oqx_sink *sink,
                    char *err, size_t errlen)
{
    uint32_t n = prm ? prm->nports : 0;
    if (errlen)
        err[0] = '\0';
    if (n == 0 || n > OQX_MAX_PORTS || !prm->xfer_bps) {
        snprintf(err, errlen, "buffered crossbar: %u ports (1..%d supported)", n, OQX_MAX_PORTS);
        return NULL;
    }
    for (uint32_t k = 0; k < n; k++)
        if (prm->xfer_bps[k] == 0) {
            snprintf(err, errlen, "buffered crossbar: port %u has transfer rate 0", k);
            return NULL;
        }
    struct oqx *x = calloc(1, sizeof *x);
    if (!x)
        goto oom;
    x->p = p;
    x->n = n;
    x->overhead = prm->overhead_bytes;
    if (sink)
        x->sink = *sink;
    uint32_t nq = oq_nqueues(p);
    x->voq = calloc((size_t)n * n, sizeof *x->voq);
    x->cq = calloc((size_t)n * n, sizeof *x->cq);
    x->oq = calloc(n, sizeof *x->oq);
    x->inport = calloc(n, sizeof *x->inport);
    x->colport = calloc(n, sizeof *x->colport);
    x->outport = calloc(n, sizeof *x->outport);
    x->in_pos = calloc((size_t)n * n, sizeof *x->in_pos);
    x->col_pos = calloc((size_t)n * n, sizeof *x->col_pos);
    x->qstage = calloc(nq + 1, 1);
    x->qin = calloc(nq + 1, sizeof *x->qin);
    x->qout = calloc(nq + 1, sizeof *x->qout);
    x->elig = calloc(n, 1);
    x->ready = calloc(n, 1);
    x->bps = calloc(n, sizeof *x->bps);
    x->ix = calloc(n, sizeof *x->ix);
    x->ox = calloc(n, sizeof *x->ox);
    if (!x->voq || !x->cq || !x->oq || !x->inport || !x->colport || !x->outport || !x->in_pos || !x->col_pos ||
        !x->qstage || !x->qin || !x->qout || !x->elig || !x->ready || !x->bps || !x->ix || !x->ox)
        goto oom;
    memcpy(x->bps, prm->xfer_bps, n * sizeof *x->bps);
    for (uint32_t q = 0; q <= nq; q++)
        x->qout[q] = x->qin[q] = UINT32_MAX;     /* a policy queue outside the fabric */
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t j = 0; j < n; j++)
            if (find(p, 0, "voq", n, i, j, &x->voq[i * n + j], err, errlen) ||
                find(p, 0, "cq", n, i, j, &x->cq[i * n + j], err, errlen))
                goto fail;
        if (find(p, 0, "oq", n, i, 0, &x->oq[i], err, errlen) || find(p, 1, "in", n, i, 0, &x->inport[i], err, errlen) ||
            find(p, 1, "col", n, i, 0, &x->colport[i], err, errlen) ||
            find(p, 1, "out", n, i, 0, &x->outport[i], err, errlen))
            goto fail;
    }
    uint32_t one;
    for (uint32_t i = 0; i < n; i++) {
        if (check_port(p, x->inport[i], &x->voq[i * n], 1, n, &x->in_pos[i * n], err, errlen) ||
            check_port(p, x->colport[i], &x->cq[i], n, n, &x->col_pos[i * n], err, errlen) ||
            check_port(p, x->outport[i], &x->oq[i], 1, 1, &one, err, errlen))
            goto fail;
    }
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t j = 0; j < n; j++) {
            uint32_t v = x->voq[i * n + j], c = x->cq[i * n + j];
            x->qstage[v] = OQX_VOQ;   x->qin[v] = i; x->qout[v] = j;
            x->qstage[c] = OQX_XPOINT; x->qin[c] = i; x->qout[c] = j;
        }
        x->qstage[x->oq[i]] = OQX_OUTQ;
        x->qin[x->oq[i]] = 0;
        x->qout[x->oq[i]] = i;
    }
    struct oq_sink s = { .ctx = x, .drop = on_drop, .notify = on_notify };
    x->rt = oq_rt_new(p, &(struct oq_rt_params){ .seed = prm->seed ? prm->seed : 1 }, &s);
    if (!x->rt)
        goto oom;
    return x;
oom:
    snprintf(err, errlen, "buffered crossbar: out of memory");
fail:
    oqx_free(x);
    return NULL;
}

void oqx_free(struct oqx *x)
{
    if (!x)
        return;
    oq_rt_free(x->rt);
    free(x->voq); free(x->cq); free(x->oq);
    free(x->inport); free(x->colport); free(x->outport);
    free(x->in_pos); free(x->col_pos);
    free(x->qstage); free(x->qin); free(x->qout);
    free(x->elig); free(x->ready); free(x->bps);
    free(x->ix); free(x->ox);
    free(x);
}

/* ------------------------------------------------------------ transfers */

static uint64_t xfer_ps(const struct oqx *x, uint32_t k, uint32_t bytes)
{
    uint64_t bits = 8ull * ((uint64_t)bytes + x->overhead);
    /* bits * 10^12 fits in 64 bits for frames up to ~2 MB */
    return (bits * 1000000000000ull + x->bps[k] - 1) / x->bps[k];
}

/* Input i, if idle: LQF (in_i's schedPrio) among its VOQs whose
 * crosspoint can take their HOL packet; the packet leaves the VOQ now and
 * enters the crosspoint when its transfer ends. */
static void try_in(struct oqx *x, uint32_t i, uint64_t t)
{
    struct xfer *xf = &x->ix[i];
    if (xf->busy)
        return;
    uint32_t n = x->n;
    int work = 0, any = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t j = x->in_pos[i * n + k];
        struct oq_pkt h;
        x->elig[k] = 0;
        if (!oq_queue_head(x->rt, x->voq[i * n + j], &h))
            continue;
        work = 1;
        if (oq_queue_fits(x->rt, x->cq[i * n + j], 1, h.size))
            x->elig[k] = 1, any = 1;
    }
    if (!work)
        return;
    if (!any) {
        x->st.in_blocked++;
        return;
    }
    if (oq_service_among(x->rt, x->inport[i], t, x->elig, &xf->pkt) != OQ_SENT)
        return;                     /* no processing cycles in the fabric: cannot happen */
    uint32_t j = x->qout[xf->pkt.queue];
    if (xf->pkt.marked && x->sink.mark)
        x->sink.mark(x->sink.ctx, &xf->pkt);
    xf->to = x->cq[i * n + j];
    xf->done = t + xfer_ps(x, i, xf->pkt.size);
    xf->busy = 1;
    x->in_flight++;
    x->st.in_xfers++;
}

/* Output j, if idle: LQF (col_j's schedPrio) among the crosspoints of
 * column j whose HOL packet fits in oq(j). */
static void try_out(struct oqx *x, uint32_t j, uint64_t t)
{
    struct xfer *xf = &x->ox[j];
    if (xf->busy)
        return;
    uint32_t n = x->n;
    int work = 0, any = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = x->col_pos[j * n + k];
        struct oq_pkt h;
        x->elig[k] = 0;
        if (!oq_queue_head(x->rt, x->cq[i * n + j], &h))
            continue;
        work = 1;
        if (oq_queue_fits(x->rt, x->oq[j], 1, h.size))
            x->elig[k] = 1, any = 1;
    }
    if (!work)
        return;
    if (!any) {
        x->st.out_blocked++;
        return;
    }
    if (oq_service_among(x->rt, x->colport[j], t, x->elig, &xf->pkt) != OQ_SENT)
        return;
    uint32_t i = x->qin[xf->pkt.queue];
    if (xf->pkt.marked && x->sink.mark)
        x->sink.mark(x->sink.ctx, &xf->pkt);
    xf->to = x->oq[j];
    xf->done = t + xfer_ps(x, j, xf->pkt.size);
    xf->busy = 1;
    x->in_flight++;
    x->st.out_xfers++;
    try_in(x, i, t);                /* its crosspoint has room now */
}

int oqx_arrive(struct oqx *x, uint32_t in, uint32_t out, struct oq_pkt *pkt, uint64_t now)
{
    x->st.arrived++;
    if (now > x->now)
        x->now = now;
    if (in >= x->n || out >= x->n) {
        pkt->queue = UINT32_MAX;    /* refused by oq_enqueue, counted at a VOQ */
        return oq_enqueue(x->rt, pkt, now);
    }
    pkt->queue = x->voq[in * x->n + out];
    pkt->processing = 0;
    int r = oq_enqueue(x->rt, pkt, now);
    if (r == OQ_ADMITTED)
        try_in(x, in, now);
    return r;
}

void oqx_advance(struct oqx *x, uint64_t now)
{
    uint32_t n = x->n;
    int announce = 0;
    if (now > x->now)
        x->now = now;
    for (;;) {
        /* the earliest due completion: outputs before inputs at equal times */
        struct xfer *best = NULL;
        uint32_t bk = 0;
        int bout = 0;
        for (uint32_t k = 0; k < n; k++)
            if (x->ox[k].busy && x->ox[k].done <= now && (!best || x->ox[k].done < best->done))
                best = &x->ox[k], bk = k, bout = 1;
        for (uint32_t k = 0; k < n; k++)
            if (x->ix[k].busy && x->ix[k].done <= now && (!best || x->ix[k].done < best->done))
                best = &x->ix[k], bk = k, bout = 0;
        if (!best)
            break;
        uint64_t t = best->done;
        struct oq_pkt pk = best->pkt;
        pk.queue = best->to;
        best->busy = 0;
        x->in_flight--;
        if (bout) {
            struct oq_qstats qs;
            oq_queue_stats(x->rt, best->to, &qs);
            if (oq_enqueue(x->rt, &pk, t) == OQ_ADMITTED && qs.len == 0)
                x->ready[bk] = 1, announce = 1;
            try_out(x, bk, t);
        } else {
            uint32_t j = x->qout[best->to];
            oq_enqueue(x->rt, &pk, t);
            try_in(x, bk, t);
            try_out(x, j, t);
        }
    }
    if (!announce)
        return;
    for (uint32_t j = 0; j < n; j++)
        if (x->ready[j]) {
            x->ready[j] = 0;
            if (x->sink.ready)
                x->sink.ready(x->sink.ctx, j);
        }
}

uint64_t oqx_next(const struct oqx *x)
{
    uint64_t t = UINT64_MAX;
    for (uint32_t k = 0; k < x->n; k++) {
        if (x->ix[k].busy && x->ix[k].done < t)
            t = x->ix[k].done;
        if (x->ox[k].busy && x->ox[k].done < t)
            t = x->ox[k].done;
    }
    return t;
}

int oqx_take(struct oqx *x, uint32_t out, uint64_t now, struct oq_pkt *pkt)
{
    if (out >= x->n)
        return OQ_EMPTY;
    if (now > x->now)
        x->now = now;
    int r = oq_service(x->rt, x->outport[out], now, pkt);
    if (r == OQ_SENT) {
        x->st.sent++;
        try_out(x, out, now);       /* oq(out) has room now */
    }
    return r;
}

/* Serve one queue of a port regardless of its scheduler: only position
 * k is eligible. */
static int take_from(struct oqx *x, uint32_t port, uint32_t k, struct oq_pkt *pkt)
{
    memset(x->elig, 0, x->n);
    x->elig[k] = 1;
    return oq_service_among(x->rt, port, x->now, x->elig, pkt) == OQ_SENT;
}

int oqx_drain(struct oqx *x, uint32_t out, struct oq_pkt *pkt)
{
    uint32_t n = x->n;
    if (out >= n)
        return 0;
    if (oq_service(x->rt, x->outport[out], x->now, pkt) == OQ_SENT)
        return 1;
    if (x->ox[out].busy) {
        x->ox[out].busy = 0;
        x->in_flight--;
        *pkt = x->ox[out].pkt;
        return 1;
    }
    for (uint32_t k = 0; k < n; k++)
        if (take_from(x, x->colport[out], k, pkt))
            return 1;
    for (uint32_t i = 0; i < n; i++) {
        if (x->ix[i].busy && x->qout[x->ix[i].to] == out) {
            x->ix[i].busy = 0;
            x->in_flight--;
            *pkt = x->ix[i].pkt;
            try_in(x, i, x->now);       /* the input is free for its other VOQs */
            return 1;
        }
        for (uint32_t k = 0; k < n; k++)
            if (x->in_pos[i * n + k] == out && take_from(x, x->inport[i], k, pkt))
                return 1;
    }
    return 0;
}

/* ------------------------------------------------------------ accessors */

uint64_t oqx_held(const struct oqx *x) { return oq_rt_packets(x->rt) + x->in_flight; }

uint64_t oqx_held_for(const struct oqx *x, uint32_t out)
{
    if (out >= x->n)
        return 0;
    struct oq_qstats qs;
    uint64_t h = 0;
    for (uint32_t i = 0; i < x->n; i++) {
        oq_queue_stats(x->rt, x->voq[i * x->n + out], &qs);
        h += qs.len;
        oq_queue_stats(x->rt, x->cq[i * x->n + out], &qs);
        h += qs.len;
        h += x->ix[i].busy && x->qout[x->ix[i].to] == out;
    }
    oq_queue_stats(x->rt, x->oq[out], &qs);
    return h + qs.len + x->ox[out].busy;
}

void oqx_get_stats(const struct oqx *x, struct oqx_stats *st) { *st = x->st; }
uint32_t oqx_nports(const struct oqx *x) { return x->n; }
uint32_t oqx_voq(const struct oqx *x, uint32_t in, uint32_t out) { return x->voq[in * x->n + out]; }
uint32_t oqx_xpoint(const struct oqx *x, uint32_t in, uint32_t out) { return x->cq[in * x->n + out]; }
uint32_t oqx_outq(const struct oqx *x, uint32_t out) { return x->oq[out]; }
const struct oq_rt *oqx_runtime(const struct oqx *x) { return x->rt; }

uint32_t oqx_queue_output(const struct oqx *x, uint32_t q)
{
    return q < oq_nqueues(x->p) ? x->qout[q] : UINT32_MAX;
}

uint32_t oqx_outq_len(const struct oqx *x, uint32_t out)
{
    if (out >= x->n)
        return 0;
    struct oq_qstats st;
    oq_queue_stats(x->rt, x->oq[out], &st);
    return st.len;
}

/* ------------------------------------------------------------ generator */

struct sbuf { char *s; size_t len, cap; int bad; };

static void put(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct sbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        if (b->bad)
            return;
        va_start(ap, fmt);
        int k = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->bad = 1;
            return;
        }
        if ((size_t)k < b->cap - b->len) {
            b->len += (size_t)k;
            return;
        }
        size_t nc = b->cap * 2 + (size_t)k;
        char *ns = realloc(b->s, nc);
        if (!ns) {
            b->bad = 1;
            return;
        }
        b->s = ns;
        b->cap = nc;
    }
}

/* A size literal: digits (one '.'), then letters; a routine name: a name. */
static int plain(const char *s, int is_size)
{
    if (!s)
        return 0;
    if (!is_size && !*s)
        return 1;                   /* no scheduler */
    size_t i = 0, digits = 0;
    if (is_size) {
        for (; (s[i] >= '0' && s[i] <= '9') || s[i] == '.'; i++)
            digits++;
        if (!digits)
            return 0;
    } else if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) {
        return 0;
    }
    for (; s[i]; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_' ||
              (!is_size && s[i] >= '0' && s[i] <= '9')))
            return 0;
    return i < 32;
}

char *oqx_policy_text(uint32_t n, const char *voq_size, const char *xp_size, const char *oq_size,
                      const char *in_sched, const char *out_sched)
{
    if (n == 0 || n > OQX_MAX_PORTS || !plain(voq_size, 1) || !plain(xp_size, 1) || !plain(oq_size, 1) ||
        !plain(in_sched, 0) || !plain(out_sched, 0))
        return NULL;
    struct sbuf b = { .cap = 4096 };
    b.s = malloc(b.cap);
    if (!b.s)
        return NULL;
    char a[32], c[32];
    put(&b, "// The buffered crossbar of the dissertation's Fig. 2.12/2.13, %ux%u, written out\n"
            "// (generated: oqx_policy_text, 'roccsim oq crossbar').  Level 1: a virtual output\n"
            "// queue voq(i,j) per (input, output) on input port in_i; level 2: a crosspoint\n"
            "// queue cq(i,j) per (input, output), the crosspoints of output j on column port\n"
            "// col_j (the output scheduler); level 3: one output queue oq_j on out_j.  Every\n"
            "// queue FIFO with tail drop (Fig. 2.13: admPrio and procPrio fifo, defCongestion).\n"
            "// docs/openqueue.md \"The buffered crossbar\".\n", n, n);
    put(&b, "VOQ = %s; XP = %s; OQ = %s;\n", voq_size, xp_size, oq_size);
    put(&b, "defCongestion(q) = q.currSize >= q.size, drop(1);\n");
    int in_rr = !strcmp(in_sched, "lqf_rr"), out_rr = !strcmp(out_sched, "lqf_rr");
    if (in_rr || out_rr)
        put(&b, "// LQF whose ties go to the queue served least recently (not the first declared):\n"
                "// a port counts its cycles in schedState and stamps the served queue with the count\n"
                "lqf_rr(q1, q2) = q1.currSize > q2.currSize || (q1.currSize == q2.currSize && "
                "q1.schedState < q2.schedState);\n");
    put(&b, "\n// level 1: VOQs and input ports\n");
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t j = 0; j < n; j++) {
            oqx_name(a, sizeof a, "voq", n, i, j);
            put(&b, "%s = Queue(VOQ);%s", a, j + 1 == n ? "\n" : " ");
        }
        oqx_name(a, sizeof a, "in", n, i, 0);
        put(&b, "%s = Port(100%%", a);
        for (uint32_t j = 0; j < n; j++) {
            oqx_name(a, sizeof a, "voq", n, i, j);
            put(&b, ", %s", a);
        }
        put(&b, ");\n");
    }
    put(&b, "\n// level 2: crosspoint queues; column ports (one per output)\n");
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            oqx_name(a, sizeof a, "cq", n, i, j);
            put(&b, "%s = Queue(XP);%s", a, j + 1 == n ? "\n" : " ");
        }
    for (uint32_t j = 0; j < n; j++) {
        oqx_name(a, sizeof a, "col", n, j, 0);
        put(&b, "%s = Port(100%%", a);
        for (uint32_t i = 0; i < n; i++) {
            oqx_name(a, sizeof a, "cq", n, i, j);
            put(&b, ", %s", a);
        }
        put(&b, ");\n");
    }
    put(&b, "\n// level 3: output queues and output ports\n");
    for (uint32_t j = 0; j < n; j++) {
        oqx_name(a, sizeof a, "oq", n, j, 0);
        oqx_name(c, sizeof c, "out", n, j, 0);
        put(&b, "%s = Queue(OQ); %s = Port(100%%, %s);\n", a, c, a);
    }
    put(&b, "\n// admission and processing order fifo; congestion defCongestion (tail drop)\n");
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++)
            for (int k = 0; k < 2; k++) {
                oqx_name(a, sizeof a, k ? "cq" : "voq", n, i, j);
                put(&b, "%s.admPrio = fifo; %s.procPrio = fifo; %s.congestion = defCongestion(%s);\n", a, a, a, a);
            }
    for (uint32_t j = 0; j < n; j++) {
        oqx_name(a, sizeof a, "oq", n, j, 0);
        put(&b, "%s.admPrio = fifo; %s.procPrio = fifo; %s.congestion = defCongestion(%s);\n", a, a, a, a);
    }
    put(&b, "\n// schedulers: inputs pick a VOQ, columns (outputs) a crosspoint\n");
    for (uint32_t i = 0; i < n; i++) {
        oqx_name(a, sizeof a, "in", n, i, 0);
        oqx_name(c, sizeof c, "col", n, i, 0);
        if (*in_sched)
            put(&b, "%s.schedPrio = %s; ", a, in_sched);
        if (*out_sched)
            put(&b, "%s.schedPrio = %s;", c, out_sched);
        put(&b, "\n");
        for (int k = 0; k < 2; k++)
            if (k ? out_rr : in_rr)
                put(&b, "%s.postSchedAct = (true, modify(schedState := schedState + 1) . "
                        "modify(currQueue.schedState := schedState));\n", k ? c : a);
    }
    if (b.bad) {
        free(b.s);
        return NULL;
    }
    return b.s;
}
