/* deadlock.c -- the deadlock detector; the model is in deadlock.h. */
#include "engine/deadlock.h"

#include <stdlib.h>
#include <string.h>

#include "core/units.h"

int deadlock_build(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    const struct cfg_entry *ce = cfg_find(c, "flowcontrol", "deadlock_check");
    const struct cfg_entry *te = cfg_find(c, "flowcontrol", "deadlock_timeout");
    uint64_t period = 0, timeout = 0;
    if (ce && strcmp(ce->value, "off") != 0) {
        if (cfg_time(c, "flowcontrol", "deadlock_check", 0, &period, err))
            return -1;
        if (period == 0)
            return cfg_errorf(err, ce, "must be > 0 (or 'off')");
    }
    /* 1 ms without a data byte on a paused port: no paper gives one; it is
     * longer than any pause of a working lossless fabric we run (docs/escape.md). */
    if (cfg_time(c, "flowcontrol", "deadlock_timeout", PS_PER_MS, &timeout, err))
        return -1;
    if (timeout == 0)
        return cfg_errorf(err, te, "must be > 0");
    if (!period)
        return 0;                       /* off: deadlock_timeout is read but unused */
    if (period > timeout)
        return cfg_errorf(err, ce, "the check period must not exceed deadlock_timeout");
    struct deadlock *d = calloc(1, sizeof *d);
    uint32_t np = sc->net.n_ports ? sc->net.n_ports : 1;
    if (d) {
        sc->dl = d;
        d->last_tx = calloc(np, sizeof *d->last_tx);
        d->last_prog = calloc(np, sizeof *d->last_prog);
        d->state = calloc(np, 1);
        d->stack = calloc(np, sizeof *d->stack);
        d->next = calloc(np, sizeof *d->next);
        d->first = calloc(np, sizeof *d->first);
        uint32_t most = 1;
        for (uint32_t i = 0; i < sc->net.n_nodes; i++)
            if (sc->net.nodes[i].n_ports > most)
                most = sc->net.nodes[i].n_ports;
        d->inmask = calloc(most, 1);
    }
    if (!d || !d->last_tx || !d->last_prog || !d->state || !d->stack || !d->next || !d->first || !d->inmask)
        return cfg_errorf(err, ce, "out of memory");
    d->period = period;
    d->timeout = timeout;
    if (net_schedule(&sc->net, period, EV_HOOK, DEADLOCK_HOOK))
        return cfg_errorf(err, ce, "out of memory");
    return 0;
}

void deadlock_free(struct scenario *sc)
{
    struct deadlock *d = sc->dl;
    if (!d)
        return;
    free(d->last_tx);
    free(d->last_prog);
    free(d->state);
    free(d->stack);
    free(d->next);
    free(d->first);
    free(d->recs);
    free(d->inmask);
    free(d);
    sc->dl = NULL;
}

/* Classes of switch egress p that are paused and hold frames (0: not a
 * candidate). */
static uint8_t blocked_classes(const struct net *n, uint32_t p)
{
    const struct port *pt = &n->ports[p];
    uint8_t m = 0;
    for (uint32_t c = 0; c < NCLASS; c++)
        if ((pt->paused >> c & 1) && pt->q[c].count)
            m |= (uint8_t)(1u << c);
    return m;
}

enum { DL_NO = 0, DL_STUCK = 1, DL_OPEN = 2, DL_DONE = 3 };

static int add_rec(struct deadlock *d, struct dl_rec r)
{
    if (d->n_recs == d->cap_recs) {
        size_t cap = d->cap_recs ? d->cap_recs * 2 : 256;
        struct dl_rec *nr = realloc(d->recs, cap * sizeof *nr);
        if (!nr)
            return -1;
        d->recs = nr;
        d->cap_recs = cap;
    }
    d->recs[d->n_recs++] = r;
    return 0;
}

/* This process's records (deadlock.h): its own switches' egress ports, in
 * index order, each stuck one followed by its ingresses in local order.
 * Also keeps last_tx / last_prog of those ports.  -1 on memory. */
static int local_records(struct deadlock *d, const struct net *n, simtime_t now)
{
    d->n_recs = 0;
    for (uint32_t p = 0; p < n->n_ports; p++) {
        const struct port *pt = &n->ports[p];
        if (pt->owner_kind != NODE_SWITCH || !net_node_local(n, pt->node))
            continue;
        if (pt->st.tx_data_bytes != d->last_tx[p]) {
            d->last_tx[p] = pt->st.tx_data_bytes;
            d->last_prog[p] = now;
        }
        uint8_t blk = blocked_classes(n, p);
        if (!blk || now - d->last_prog[p] < d->timeout || n->nodes[n->ports[pt->peer].node].kind != NODE_SWITCH)
            continue;
        if (add_rec(d, (struct dl_rec){ p, DL_REC_STUCK, blk, 0, d->last_prog[p] }))
            return -1;
        /* which ingresses the frames of each blocked class came in through
         * (a frame the switch made itself may carry no valid one) */
        const struct node *a = &n->nodes[pt->node];
        for (uint32_t c = 0; c < NCLASS; c++)
            if (blk >> c & 1)
                for (uint32_t i = pt->q[c].head; i != PKT_NONE; i = n->pool.p[i].next)
                    if (n->pool.p[i].in_port < a->n_ports)
                        d->inmask[n->pool.p[i].in_port] |= (uint8_t)(1u << c);
        for (uint32_t k = 0; k < a->n_ports; k++)
            if (d->inmask[k]) {
                if (add_rec(d, (struct dl_rec){ p, (uint16_t)k, d->inmask[k], 0, 0 }))
                    return -1;
                d->inmask[k] = 0;
            }
    }
    return 0;
}

static int rec_cmp(const void *a, const void *b)
{
    const struct dl_rec *x = a, *y = b;
    if (x->port != y->port)
        return x->port < y->port ? -1 : 1;
    return x->in == DL_REC_STUCK ? (y->in == DL_REC_STUCK ? 0 : -1) : y->in == DL_REC_STUCK ? 1 : x->in < y->in ? -1 : x->in > y->in;
}

/* Does stuck port p wait for stuck port q (a port of p's peer node)?
 * Yes iff q's record for the ingress p feeds shares a class with p's
 * blocked ones: q holds a frame of a class p is paused on that came in
 * through p's peer. */
static int edge(const struct net *n, const struct deadlock *d, uint32_t p, uint32_t q)
{
    uint16_t in = n->ports[n->ports[p].peer].local;
    uint8_t blk = d->recs[d->first[p]].mask;
    for (size_t r = d->first[q] + 1; r < d->n_recs && d->recs[r].port == q; r++)
        if (d->recs[r].in == in)
            return (d->recs[r].mask & blk) != 0;
    return 0;
}

void deadlock_tick(struct scenario *sc)
{
    struct deadlock *d = sc->dl;
    struct net *n = &sc->net;
    if (!d || d->detected)
        return;
    simtime_t now = n->el.now;
    d->checks++;
    if (local_records(d, n, now))
        n->oom = 1;                     /* the run stops with "out of memory" */
    if (sc->par_allgather) {
        /* every rank's records, in rank order; sorted by port below */
        size_t bytes = 0;
        struct dl_rec *all = sc->par_allgather(sc, d->recs, d->n_recs * sizeof *d->recs, &bytes);
        if (!all) {
            n->oom = 1;
            return;                     /* on every rank alike */
        }
        free(d->recs);
        d->recs = all;
        d->n_recs = d->cap_recs = bytes / sizeof *all;
        qsort(d->recs, d->n_recs, sizeof *d->recs, rec_cmp);
    }
    uint32_t nst = 0;
    for (uint32_t p = 0; p < n->n_ports; p++) {
        d->state[p] = DL_NO;
        d->first[p] = NONE32;
    }
    for (size_t r = 0; r < d->n_recs; r++)
        if (d->recs[r].in == DL_REC_STUCK) {
            d->state[d->recs[r].port] = DL_STUCK;
            d->first[d->recs[r].port] = (uint32_t)r;
            nst++;
        }
    /* Depth-first search from each stuck port in index order; an edge to a
     * port still on the stack closes a cycle. */
    for (uint32_t root = 0; nst && root < n->n_ports && !d->detected; root++) {
        if (d->state[root] != DL_STUCK)
            continue;
        uint32_t top = 0;
        d->stack[top] = root;
        d->next[top] = 0;
        d->state[root] = DL_OPEN;
        while (top != UINT32_MAX && !d->detected) {
            uint32_t p = d->stack[top];
            const struct node *b = &n->nodes[n->ports[n->ports[p].peer].node];
            uint32_t k = d->next[top]++;
            if (k >= b->n_ports) {
                d->state[p] = DL_DONE;
                top = top ? top - 1 : UINT32_MAX;
                continue;
            }
            uint32_t q = b->first_port + k;
            if (d->state[q] == DL_DONE || d->state[q] == DL_NO || !edge(n, d, p, q))
                continue;
            if (d->state[q] == DL_OPEN) {
                uint32_t from = 0;
                while (d->stack[from] != q)
                    from++;
                d->detected = 1;
                d->t_detect = now;
                d->t_stalled = 0;
                d->cycle_len = top - from + 1;
                d->n_cycle = 0;
                for (uint32_t i = from; i <= top; i++) {
                    uint32_t port = d->stack[i];
                    if (d->recs[d->first[port]].last_prog > d->t_stalled)
                        d->t_stalled = d->recs[d->first[port]].last_prog;
                    if (d->n_cycle < DEADLOCK_MAX_CYCLE)
                        d->cycle[d->n_cycle++] = port;
                }
                break;
            }
            d->state[q] = DL_OPEN;
            top++;
            d->stack[top] = q;
            d->next[top] = 0;
        }
    }
    if (!d->detected && now + d->period <= sc->duration)
        net_schedule(n, now + d->period, EV_HOOK, DEADLOCK_HOOK);
}

static const char *port_name(const struct scenario *sc, uint32_t p)
{
    for (uint32_t m = 0; m < sc->n_mon; m++)
        if (sc->mon[m].port == p)
            return sc->mon[m].name;
    return "?";
}

void deadlock_json(const struct scenario *sc, FILE *f)
{
    const struct deadlock *d = sc->dl;
    if (!d)
        return;
    fprintf(f, ",\n  \"deadlock\": {\"detected\": %s, \"check_s\": %.9g, \"timeout_s\": %.9g, \"checks\": %llu",
            d->detected ? "true" : "false", (double)d->period / PS_PER_S, (double)d->timeout / PS_PER_S,
            (unsigned long long)d->checks);
    if (d->detected) {
        fprintf(f, ", \"first_s\": %.9g, \"stalled_since_s\": %.9g, \"cycle_length\": %u, \"ports\": [",
                (double)d->t_detect / PS_PER_S, (double)d->t_stalled / PS_PER_S, d->cycle_len);
        for (uint32_t i = 0; i < d->n_cycle; i++)
            fprintf(f, "%s\"%s\"", i ? ", " : "", port_name(sc, d->cycle[i]));
        fputc(']', f);
    }
    fputc('}', f);
}

void deadlock_describe(const struct scenario *sc, char *buf, size_t len)
{
    const struct deadlock *d = sc->dl;
    if (!d || !d->detected) {
        snprintf(buf, len, "none");
        return;
    }
    char t[32];
    size_t k = (size_t)snprintf(buf, len, "detected at %s:", units_fmt_time(d->t_detect, t, sizeof t));
    for (uint32_t i = 0; i < d->n_cycle && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, " %s", port_name(sc, d->cycle[i]));
}

void deadlock_print(const struct scenario *sc, FILE *out)
{
    const struct deadlock *d = sc->dl;
    if (!d)
        return;
    char a[32], b[32];
    if (!d->detected) {
        fprintf(out, "  deadlock: none (checked every %s, timeout %s)\n", units_fmt_time(d->period, a, sizeof a),
                units_fmt_time(d->timeout, b, sizeof b));
        return;
    }
    fprintf(out, "  deadlock: DETECTED at %s, no data sent since %s, cycle of %u ports:",
            units_fmt_time(d->t_detect, a, sizeof a), units_fmt_time(d->t_stalled, b, sizeof b), d->cycle_len);
    for (uint32_t i = 0; i < d->n_cycle; i++)
        fprintf(out, " %s", port_name(sc, d->cycle[i]));
    fputc('\n', out);
}
