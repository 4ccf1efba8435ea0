/*
 * loopbreak.c -- credit-loop deadlock detection (token passing) with the
 * Loop Breaker / Deadlock Breaker reactions.  See loopbreak.h for the model
 * and the sources; docs/escape.md ("Loop Breaker and Deadlock Breaker") for
 * every parameter and every difference from the papers.
 */
#include "loopbreak.h"

#include <string.h>

#define PS_PER_US 1000000ull

void lb_default_params(struct lb_params *p, enum lb_mode mode, uint64_t link_bps, uint64_t delay_ps,
                       uint32_t mtu_bytes)
{
    memset(p, 0, sizeof *p);
    p->mode = (uint8_t)mode;
    /* choice: neither the dissertation nor the patent gives numbers.  The
     * patent's "predetermined time interval" of no throughput with a
     * non-empty queue: 100 µs, an order of magnitude above the PFC pause
     * round trip of our fabrics (2 x 1 µs links) so that ordinary PFC
     * pauses never make a port suspected, and far below the ~20 ms within
     * which the ring of the dissertation's Fig. 4.7 is stuck. */
    p->suspect_ps = 100 * PS_PER_US;
    /* choice: the stall clock is sampled every 10 µs (detection resolution
     * 10% of suspect_ps). */
    p->tick_ps = 10 * PS_PER_US;
    /* choice: the patent's "periodically transmitting" CLCMs: once per
     * suspect interval, so a suspected port has at most one round in flight
     * on a loop of up to ~50 hops at 2 µs per hop. */
    p->token_period_ps = p->suspect_ps;
    /* choice: after resolving, the master waits one suspect interval before
     * it can act again on the same port (the loop must first stall anew). */
    p->holdoff_ps = p->suspect_ps;
    /* choice: token expiry after 16 forwards: longer than any loop in a
     * 3-level fat tree (the bouncy loops of Fig. 4.11b have 4 switches). */
    p->max_hops = 16;
    /* choice (DLB): the extra buffer on each loop ingress is one PFC
     * headroom's worth, 2 x bandwidth-delay product + 2 MTU (the bytes an
     * upstream port can put on the wire in one pause round trip): enough
     * for the upstream to resume at line rate for a round trip. */
    uint64_t bdp = link_bps / 8 * delay_ps / 1000000000000ull;
    uint64_t g = 2 * bdp + 2ull * mtu_bytes;
    p->grant_bytes = g > UINT32_MAX ? UINT32_MAX : (uint32_t)g;
    /* choice (DLB): a grant lasts one suspect interval. */
    p->grant_ps = p->suspect_ps;
}

int lb_check_params(const struct lb_params *p, const char **why)
{
    const char *w = NULL;
    if (p->mode != LB_MODE_DROP && p->mode != LB_MODE_BUFFER)
        w = "mode";
    else if (p->tick_ps == 0)
        w = "tick";
    else if (p->suspect_ps == 0)
        w = "suspect_time";
    else if (p->token_period_ps == 0)
        w = "token_period";
    else if (p->max_hops < 2)
        w = "max_hops";
    else if (p->mode == LB_MODE_BUFFER && (p->grant_bytes == 0 || p->grant_ps == 0))
        w = p->grant_bytes == 0 ? "extra_buffer" : "extra_time";
    if (why)
        *why = w;
    return w ? -1 : 0;
}

static size_t align8(size_t b) { return (b + 7) & ~(size_t)7; }

size_t lb_storage_bytes(uint32_t nports)
{
    if (nports == 0 || nports > LB_MAX_PORTS)
        return 0;
    return align8((size_t)nports * sizeof(struct lb_eport)) + align8((size_t)nports * sizeof(struct lb_iport)) +
           align8((size_t)nports * nports * sizeof(uint32_t));
}

int lb_init(struct lb_sw *s, const struct lb_params *p, uint32_t sw_id, uint32_t nports, void *mem)
{
    size_t sz = lb_storage_bytes(nports);
    if (sz == 0 || !mem || sw_id > LB_MAX_SWITCH_ID || lb_check_params(p, NULL) != 0)
        return -1;
    memset(s, 0, sizeof *s);
    memset(mem, 0, sz);
    s->p = *p;
    s->sw_id = sw_id;
    s->nports = nports;
    char *m = mem;
    s->ep = (struct lb_eport *)(void *)m;
    m += align8((size_t)nports * sizeof(struct lb_eport));
    s->ip = (struct lb_iport *)(void *)m;
    m += align8((size_t)nports * sizeof(struct lb_iport));
    s->dep = (uint32_t *)(void *)m;
    return 0;
}

void lb_on_enqueue(struct lb_sw *s, uint32_t in, uint32_t out, uint32_t bytes)
{
    if (in >= s->nports || out >= s->nports)
        return;
    uint32_t *d = &s->dep[in * s->nports + out];
    *d = *d > UINT32_MAX - bytes ? UINT32_MAX : *d + bytes;
}

void lb_on_dequeue(struct lb_sw *s, uint32_t in, uint32_t out, uint32_t bytes)
{
    if (in >= s->nports || out >= s->nports)
        return;
    uint32_t *d = &s->dep[in * s->nports + out];
    *d = *d > bytes ? *d - bytes : 0;
}

void lb_set_dep(struct lb_sw *s, uint32_t in, uint32_t out, uint32_t bytes)
{
    if (in < s->nports && out < s->nports)
        s->dep[in * s->nports + out] = bytes;
}

/* Append an action if there is room (counted otherwise). */
static void emit(struct lb_sw *s, struct lb_action *out, uint32_t cap, uint32_t *n, const struct lb_action *a)
{
    if (*n < cap)
        out[(*n)++] = *a;
    else
        s->st.action_overflow++;
}

static void emit_send(struct lb_sw *s, struct lb_action *out, uint32_t cap, uint32_t *n, uint32_t port,
                      uint8_t kind, uint8_t hops, uint32_t origin, uint32_t seq)
{
    struct lb_action a;
    memset(&a, 0, sizeof a);
    a.kind = LB_ACT_SEND;
    a.port = (uint16_t)port;
    a.tok.kind = kind;
    a.tok.hops = hops;
    a.tok.origin = origin;
    a.tok.seq = seq;
    emit(s, out, cap, n, &a);
}

static void emit_port(struct lb_sw *s, struct lb_action *out, uint32_t cap, uint32_t *n, uint8_t kind,
                      uint32_t port, uint32_t in_port, uint32_t bytes)
{
    struct lb_action a;
    memset(&a, 0, sizeof a);
    a.kind = kind;
    a.port = (uint16_t)port;
    a.in_port = (uint16_t)in_port;
    a.bytes = bytes;
    emit(s, out, cap, n, &a);
}

uint32_t lb_tick(struct lb_sw *s, uint64_t now, const struct lb_obs *obs, struct lb_action *out, uint32_t cap)
{
    uint32_t n = 0;
    for (uint32_t e = 0; e < s->nports; e++) {
        struct lb_eport *ep = &s->ep[e];
        int stalled = ep->seen && obs[e].queued_bytes > 0 && obs[e].tx_bytes == ep->last_tx;
        ep->last_tx = obs[e].tx_bytes;
        ep->seen = 1;
        if (!stalled) {
            ep->stall_since = now;
            ep->suspected = 0;
            continue;
        }
        if (now - ep->stall_since >= s->p.suspect_ps)
            ep->suspected = 1;
        if (ep->suspected && now >= ep->holdoff_until && now >= ep->next_token_ps) {
            ep->seq++;
            ep->next_token_ps = now + s->p.token_period_ps;
            s->st.originated++;
            emit_send(s, out, cap, &n, e, LB_TOK_DETECT, 0, lb_spuid(s, e), ep->seq);
        }
    }
    if (s->p.mode == LB_MODE_BUFFER)
        for (uint32_t i = 0; i < s->nports; i++)
            if (s->ip[i].grant_until && now >= s->ip[i].grant_until) {
                s->ip[i].grant_until = 0;
                emit_port(s, out, cap, &n, LB_ACT_UNGRANT, 0, i, 0);
            }
    return n;
}

/* The suspected egress with the most bytes queued from ingress in
 * (dep > 0; ties: the lowest port), or UINT32_MAX. */
static uint32_t next_hop(const struct lb_sw *s, uint32_t in)
{
    uint32_t best = UINT32_MAX, most = 0;
    const uint32_t *row = &s->dep[in * s->nports];
    for (uint32_t e = 0; e < s->nports; e++)
        if (s->ep[e].suspected && row[e] > most) {
            most = row[e];
            best = e;
        }
    return best;
}

static int token_valid(const struct lb_sw *s, uint32_t in_port, const struct lb_token *t)
{
    return in_port < s->nports && (t->kind == LB_TOK_DETECT || t->kind == LB_TOK_RELEASE) &&
           t->hops < s->p.max_hops && (t->origin >> 8) != 0 && (t->origin >> 8) <= LB_MAX_SWITCH_ID + 1u;
}

static void grant(struct lb_sw *s, uint64_t now, uint32_t in, struct lb_action *out, uint32_t cap, uint32_t *n)
{
    s->ip[in].grant_until = now + s->p.grant_ps;
    s->st.grants++;
    emit_port(s, out, cap, n, LB_ACT_GRANT, 0, in, s->p.grant_bytes);
}

uint32_t lb_on_token(struct lb_sw *s, uint64_t now, uint32_t in_port, const struct lb_token *t,
                     struct lb_action *out, uint32_t cap)
{
    uint32_t n = 0;
    if (!token_valid(s, in_port, t) || (t->kind == LB_TOK_RELEASE && s->p.mode != LB_MODE_BUFFER)) {
        s->st.malformed++;
        return 0;
    }
    uint32_t e = next_hop(s, in_port);
    if (e == UINT32_MAX) {
        if (t->kind == LB_TOK_DETECT)
            s->st.dead_end++;
        else
            s->st.release_refused++;
        return 0;
    }
    uint32_t mine = lb_spuid(s, e);
    if (t->kind == LB_TOK_RELEASE) {
        if (t->origin == mine) {          /* back at the master: the round is over */
            s->st.release_done++;
            return 0;
        }
        grant(s, now, in_port, out, cap, &n);
        if (t->hops + 1u >= s->p.max_hops)
            s->st.expired++;
        else {
            s->st.forwarded++;
            emit_send(s, out, cap, &n, e, LB_TOK_RELEASE, (uint8_t)(t->hops + 1), t->origin, t->seq);
        }
        return n;
    }
    if (t->origin == mine) {
        struct lb_eport *ep = &s->ep[e];
        if (now < ep->holdoff_until) {
            s->st.held_off++;
            return 0;
        }
        ep->holdoff_until = now + s->p.holdoff_ps;
        ep->next_token_ps = ep->holdoff_until;
        s->st.loops++;
        emit_port(s, out, cap, &n, LB_ACT_LOOP, e, in_port, 0);
        if (s->p.mode == LB_MODE_DROP) {
            emit_port(s, out, cap, &n, LB_ACT_DROP, e, in_port, 0);
        } else {
            grant(s, now, in_port, out, cap, &n);
            s->st.originated++;
            emit_send(s, out, cap, &n, e, LB_TOK_RELEASE, 0, mine, t->seq);
        }
        return n;
    }
    if ((t->origin >> 8) == (mine >> 8)) {   /* ours, but the cycle does not close at its port */
        s->st.own_other++;
        return 0;
    }
    if (mine > t->origin) {                  /* our own, larger token does the round */
        s->st.suppressed++;
        return 0;
    }
    if (t->hops + 1u >= s->p.max_hops) {
        s->st.expired++;
        return 0;
    }
    s->st.forwarded++;
    emit_send(s, out, cap, &n, e, LB_TOK_DETECT, (uint8_t)(t->hops + 1), t->origin, t->seq);
    return n;
}

static void put32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)(v >> 24); b[1] = (uint8_t)(v >> 16); b[2] = (uint8_t)(v >> 8); b[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

void lb_token_encode(const struct lb_token *t, uint8_t out[LB_TOKEN_BYTES])
{
    memset(out, 0, LB_TOKEN_BYTES);
    out[0] = 'L';
    out[1] = 'B';
    out[2] = LB_TOKEN_VERSION;
    out[3] = t->kind;
    out[4] = t->hops;
    put32(out + 8, t->origin);
    put32(out + 12, t->seq);
}

int lb_token_decode(const uint8_t *b, size_t len, struct lb_token *t)
{
    if (!b || len < LB_TOKEN_BYTES || b[0] != 'L' || b[1] != 'B' || b[2] != LB_TOKEN_VERSION ||
        (b[3] != LB_TOK_DETECT && b[3] != LB_TOK_RELEASE) || b[5] || b[6] || b[7])
        return -1;
    uint32_t origin = get32(b + 8);
    if ((origin >> 8) == 0)
        return -1;
    t->kind = b[3];
    t->hops = b[4];
    t->origin = origin;
    t->seq = get32(b + 12);
    return 0;
}
