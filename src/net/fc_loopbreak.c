/*
 * fc_loopbreak.c -- Loop Breaker / Deadlock Breaker as flow-control schemes
 * (fc_loopbreak.h; the state machine is src/cc/loopbreak.c).
 */
#include "net/fc_loopbreak.h"

#include <stdlib.h>
#include <string.h>

struct fc_lb {
    struct lb_sw sm;
    uint32_t nports;
    uint8_t  lossless;           /* classes the detector watches (the switch's lossless mask) */
    uint64_t *txb;               /* [nports] lossless bytes sent by each egress */
    struct lb_obs *obs;          /* [nports] */
    struct lb_action *act;       /* [2 * nports] */
    uint64_t drops, drop_bytes, refused_host;
    simtime_t first_loop, last_loop;
    uint64_t mem[];              /* lb_storage_bytes, then txb, obs, act */
};

static int is_lb(const struct sw *s)
{
    return s->fc == &fc_loop_breaker || s->fc == &fc_deadlock_breaker;
}

void *fc_lb_new(struct net *n, struct sw *s, const struct lb_params *p)
{
    uint32_t np = fc_n_ports(n, s);
    size_t sm = lb_storage_bytes(np);
    if (sm == 0 || lb_check_params(p, NULL) != 0)
        return NULL;
    size_t extra = np * sizeof(uint64_t) + np * sizeof(struct lb_obs) + 2 * np * sizeof(struct lb_action);
    struct fc_lb *L = calloc(1, sizeof *L + sm + extra + 8);
    if (!L)
        return NULL;
    if (lb_init(&L->sm, p, s->node, np, L->mem) != 0) {
        free(L);
        return NULL;
    }
    char *m = (char *)L->mem + ((sm + 7) & ~(size_t)7);
    L->txb = (uint64_t *)(void *)m;
    m += np * sizeof(uint64_t);
    L->obs = (struct lb_obs *)(void *)m;
    m += np * sizeof(struct lb_obs);
    L->act = (struct lb_action *)(void *)m;
    L->nports = np;
    L->lossless = s->cfg.pfc ? (uint8_t)s->cfg.lossless_mask : 0;
    L->first_loop = SIMTIME_NEVER;
    return L;
}

static void lb_destroy(void *state)
{
    free(state);
}

static uint32_t fc_sub_of(uint8_t kind)
{
    return kind == LB_TOK_RELEASE ? FC_SUB_LB_RELEASE : FC_SUB_LB_DETECT;
}

/* Drop every lossless data frame queued at local egress e that came in on
 * local ingress in (LB's reaction).  A frame is found by a scan from the
 * head and taken out with fc_extract, which removes the first frame of its
 * flow: a flow enters a switch on one port, so that is the same frame or
 * an earlier one of the same flow and ingress. */
static void drop_loop_frames(struct net *n, struct sw *s, struct fc_lb *L, uint32_t e, uint32_t in)
{
    uint32_t port = fc_port(n, s, e);
    for (uint32_t c = 0; c < NCLASS; c++) {
        if (!(L->lossless >> c & 1))
            continue;
        for (;;) {
            uint32_t flow = NONE32;
            for (uint32_t i = n->ports[port].q[c].head; i != PKT_NONE; i = pkt(&n->pool, i)->next) {
                const struct packet *p = pkt(&n->pool, i);
                if (p->type == PKT_DATA && p->in_port == in) {
                    flow = p->flow;
                    break;
                }
            }
            if (flow == NONE32)
                break;
            uint32_t pi = fc_extract(n, s, port, c, flow, NULL);
            if (pi == PKT_NONE)
                break;
            L->drops++;
            L->drop_bytes += pkt(&n->pool, pi)->bytes;
            n->fc_drops++;
            fc_drop_held(n, s, port, pi);
        }
    }
}

static void grant_all(struct net *n, struct sw *s, struct fc_lb *L, uint32_t in, uint64_t bytes)
{
    for (uint32_t c = 0; c < NCLASS; c++)
        if (L->lossless >> c & 1)
            fc_grant_buffer(n, s, in, (uint8_t)c, bytes);
}

static void run_actions(struct net *n, struct sw *s, struct fc_lb *L, uint32_t k)
{
    for (uint32_t j = 0; j < k; j++) {
        const struct lb_action *a = &L->act[j];
        switch (a->kind) {
        case LB_ACT_SEND: {
            uint32_t pi = fc_new_frame(n, (uint8_t)fc_sub_of(a->tok.kind));
            if (pi == PKT_NONE)
                return;
            struct packet *p = pkt(&n->pool, pi);
            p->hops = a->tok.hops;
            p->cp_id = a->tok.origin;
            p->seq = a->tok.seq;
            fc_send(n, fc_port(n, s, a->port), pi);
            break;
        }
        case LB_ACT_LOOP:
            if (L->first_loop == SIMTIME_NEVER)
                L->first_loop = n->el.now;
            L->last_loop = n->el.now;
            break;
        case LB_ACT_DROP:
            drop_loop_frames(n, s, L, a->port, a->in_port);
            break;
        case LB_ACT_GRANT:
            grant_all(n, s, L, a->in_port, a->bytes);
            break;
        case LB_ACT_UNGRANT:
            grant_all(n, s, L, a->in_port, 0);
            break;
        }
    }
}

static simtime_t lb_timer(struct net *n, struct sw *s)
{
    struct fc_lb *L = s->fc_state;
    for (uint32_t e = 0; e < L->nports; e++) {
        const struct port *pt = &n->ports[fc_port(n, s, e)];
        uint64_t q = 0;
        for (uint32_t c = 0; c < NCLASS; c++)
            if (L->lossless >> c & 1)
                q += pt->q[c].bytes;
        L->obs[e].queued_bytes = q;
        L->obs[e].tx_bytes = L->txb[e];
    }
    uint32_t k = lb_tick(&L->sm, n->el.now, L->obs, L->act, 2 * L->nports);
    run_actions(n, s, L, k);
    return n->el.now + L->sm.p.tick_ps;
}

static void lb_tx(struct net *n, struct sw *s, uint32_t port, struct packet *p)
{
    struct fc_lb *L = s->fc_state;
    if (p->type == PKT_DATA && (L->lossless >> p->prio & 1))
        L->txb[n->ports[port].local] += p->bytes;
}

/* Recount the ingress-egress table row of ingress `in`: lossless data
 * bytes from `in` queued at each suspected egress (the others cannot take
 * a token). */
static void recount_row(struct net *n, struct sw *s, struct fc_lb *L, uint32_t in)
{
    for (uint32_t e = 0; e < L->nports; e++) {
        uint64_t b = 0;
        if (L->sm.ep[e].suspected) {
            const struct port *pt = &n->ports[fc_port(n, s, e)];
            for (uint32_t c = 0; c < NCLASS; c++) {
                if (!(L->lossless >> c & 1))
                    continue;
                for (uint32_t i = pt->q[c].head; i != PKT_NONE; i = pkt(&n->pool, i)->next) {
                    const struct packet *p = pkt(&n->pool, i);
                    if (p->type == PKT_DATA && p->in_port == in)
                        b += p->bytes;
                }
            }
        }
        lb_set_dep(&L->sm, in, e, b > UINT32_MAX ? UINT32_MAX : (uint32_t)b);
    }
}

static int lb_frame(struct net *n, struct sw *s, uint32_t port, const struct packet *p)
{
    struct fc_lb *L = s->fc_state;
    if (p->fc_sub != FC_SUB_LB_DETECT && p->fc_sub != FC_SUB_LB_RELEASE)
        return -1;
    const struct port *pt = &n->ports[port];
    if (n->nodes[n->ports[pt->peer].node].kind != NODE_SWITCH) {   /* hosts never send tokens */
        L->refused_host++;
        return -1;
    }
    struct lb_token t = { p->fc_sub == FC_SUB_LB_RELEASE ? LB_TOK_RELEASE : LB_TOK_DETECT, p->hops, p->cp_id,
                          (uint32_t)p->seq };
    uint32_t in = pt->local;
    recount_row(n, s, L, in);
    uint64_t bad0 = L->sm.st.malformed;
    uint32_t k = lb_on_token(&L->sm, n->el.now, in, &t, L->act, 2 * L->nports);
    if (L->sm.st.malformed != bad0)
        return -1;
    run_actions(n, s, L, k);
    return 0;
}

const struct fc_ops fc_loop_breaker = {
    .name = "loop_breaker", .on_tx = lb_tx, .on_frame = lb_frame, .on_timer = lb_timer, .destroy = lb_destroy,
};
const struct fc_ops fc_deadlock_breaker = {
    .name = "deadlock_breaker", .on_tx = lb_tx, .on_frame = lb_frame, .on_timer = lb_timer, .destroy = lb_destroy,
};

_Static_assert(sizeof(struct lb_stats) % sizeof(uint64_t) == 0, "lb_stats holds uint64_t counters only");
enum { LB_NSTAT = sizeof(struct lb_stats) / sizeof(uint64_t) };

void fc_lb_merge(struct net *n, void (*reduce)(uint64_t *v, size_t k, int max))
{
    for (uint32_t i = 0; i < n->n_sws; i++) {
        struct sw *s = &n->sws[i];
        if (!is_lb(s) || !s->fc_state)
            continue;
        struct fc_lb *L = s->fc_state;
        uint64_t v[LB_NSTAT + 3];
        memcpy(v, &L->sm.st, sizeof L->sm.st);
        v[LB_NSTAT] = L->drops, v[LB_NSTAT + 1] = L->drop_bytes, v[LB_NSTAT + 2] = L->refused_host;
        reduce(v, LB_NSTAT + 3, 0);
        memcpy(&L->sm.st, v, sizeof L->sm.st);
        L->drops = v[LB_NSTAT], L->drop_bytes = v[LB_NSTAT + 1], L->refused_host = v[LB_NSTAT + 2];
        /* The first loop as a maximum of its distance below "never". */
        uint64_t t[2] = { SIMTIME_NEVER - L->first_loop, L->last_loop };
        reduce(t, 2, 1);
        L->first_loop = SIMTIME_NEVER - t[0];
        L->last_loop = t[1];
    }
}

void fc_lb_totals(const struct net *n, struct fc_lb_totals *t)
{
    memset(t, 0, sizeof *t);
    t->first_loop_ps = SIMTIME_NEVER;
    for (uint32_t i = 0; i < n->n_sws; i++) {
        const struct sw *s = &n->sws[i];
        if (!is_lb(s) || !s->fc_state)
            continue;
        const struct fc_lb *L = s->fc_state;
        const struct lb_stats *st = &L->sm.st;
        t->switches++;
        t->loops += st->loops;
        t->originated += st->originated;
        t->forwarded += st->forwarded;
        t->dead_end += st->dead_end;
        t->suppressed += st->suppressed;
        t->expired += st->expired;
        t->malformed += st->malformed;
        t->refused_host += L->refused_host;
        t->grants += st->grants;
        t->release_done += st->release_done;
        t->release_refused += st->release_refused;
        t->drops += L->drops;
        t->drop_bytes += L->drop_bytes;
        if (L->first_loop < t->first_loop_ps)
            t->first_loop_ps = L->first_loop;
        if (L->last_loop > t->last_loop_ps)
            t->last_loop_ps = L->last_loop;
    }
}
