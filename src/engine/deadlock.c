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
    }
    if (!d || !d->last_tx || !d->last_prog || !d->state || !d->stack || !d->next)
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

/* The k-th candidate edge of stuck port p: B's local port k, if it is
 * stuck and holds a frame of a class p is blocked on that came in through
 * p's peer. */
static int edge(const struct net *n, const uint8_t *state, uint32_t p, uint32_t k)
{
    const struct port *pt = &n->ports[p];
    const struct port *in = &n->ports[pt->peer];
    const struct node *b = &n->nodes[in->node];
    uint32_t q = b->first_port + k;
    if (!state[q])
        return 0;
    uint8_t cls = blocked_classes(n, p) & blocked_classes(n, q);
    for (uint32_t c = 0; c < NCLASS; c++) {
        if (!(cls >> c & 1))
            continue;
        for (uint32_t i = n->ports[q].q[c].head; i != PKT_NONE; i = n->pool.p[i].next)
            if (n->pool.p[i].in_port == in->local)
                return 1;
    }
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
    uint32_t nst = 0;
    for (uint32_t p = 0; p < n->n_ports; p++) {
        const struct port *pt = &n->ports[p];
        d->state[p] = DL_NO;
        if (pt->owner_kind != NODE_SWITCH)
            continue;
        if (pt->st.tx_data_bytes != d->last_tx[p]) {
            d->last_tx[p] = pt->st.tx_data_bytes;
            d->last_prog[p] = now;
        }
        if (blocked_classes(n, p) && now - d->last_prog[p] >= d->timeout &&
            n->nodes[n->ports[pt->peer].node].kind == NODE_SWITCH) {
            d->state[p] = DL_STUCK;
            nst++;
        }
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
            if (d->state[q] == DL_DONE || d->state[q] == DL_NO || !edge(n, d->state, p, k))
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
                    if (d->last_prog[port] > d->t_stalled)
                        d->t_stalled = d->last_prog[port];
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
