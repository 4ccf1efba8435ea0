/* agent_rocc.c -- RoCC CP port agent; see agent_rocc.h. */
#include "net/agent_rocc.h"
#include "rocc_cnp.h"

#include <stdlib.h>

/* Double the flow table (and the CNP list) once it is half full: tables
 * start small, so a fabric with thousands of CPs only spends memory where
 * many flows meet.  Growth is amortized, not per packet. */
static void rocc_grow(struct rocc_agent *a)
{
    uint32_t cap = a->ft.p.capacity;
    if (a->ft.size * 2 < cap || cap >= a->ft_max)
        return;
    uint32_t ncap = cap * 2;
    void *st = calloc(1, rocc_ft_storage_bytes(ncap));
    uint32_t *refs = realloc(a->refs, ncap * sizeof *refs);
    if (refs)
        a->refs = refs;
    if (!st || !refs || rocc_ft_rehash(&a->ft, st, ncap)) {
        free(st);                        /* keep the old table: it still works */
        return;
    }
    free(a->ft_storage);
    a->ft_storage = st;
    a->refs_cap = ncap;
}

static void rocc_enq(struct net *n, void *st, uint32_t port, const struct packet *p)
{
    struct rocc_agent *a = st;
    if (p->type == PKT_DATA) {
        rocc_grow(a);
        rocc_ft_on_enqueue(&a->ft, p->flow, p->flow, n->el.now);
    }
}

static void rocc_deq(struct net *n, void *st, uint32_t port, struct packet *p)
{
    struct rocc_agent *a = st;
    if (p->type == PKT_DATA)
        rocc_ft_on_dequeue(&a->ft, p->flow);
}

static void rocc_timer(struct net *n, void *st)
{
    struct rocc_agent *a = st;
    struct port *pt = &n->ports[a->port];
    struct sw *s = &n->sws[n->nodes[pt->node].idx];
    uint32_t f = rocc_cp_update(&a->cp, &a->prm, pt->data_bytes);
    a->last_f = f;
    a->periods++;
    a->f_sum += f;
    if (f < a->prm.f_max || a->cnp_at_fmax) {
        size_t k = rocc_ft_select(&a->ft, n->el.now, a->refs, a->refs_cap);
        for (size_t i = 0; i < k; i++) {
            const struct flow *fl = &n->flows[a->refs[i]];
            uint32_t pi = net_new_packet(n, PKT_CNP);
            if (pi == PKT_NONE)
                return;
            struct packet *p = pkt(&n->pool, pi);
            p->flow = a->refs[i];
            p->dst = fl->src;
            p->prio = n->cfg.ctrl_prio;
            p->bytes = ROCC_CNP_FRAME_BYTES;
            p->rate_units = f;
            p->cp_id = a->cp_id;
            p->cnp_src = pt->node;          /* the CP's address: its switch */
            p->cnp_kind = CNP_ROCC;
            p->ts = n->el.now;
            a->cnps_sent++;
            switch_inject(n, s, pi, fl->rhash);
        }
    }
    net_schedule(n, n->el.now + a->prm.period_ps, EV_AGENT, a->id);
}

static void rocc_destroy(void *st) { rocc_agent_free(st); }

const struct port_agent_ops rocc_agent_ops = {
    .name = "rocc", .on_enqueue = rocc_enq, .on_dequeue = rocc_deq, .on_timer = rocc_timer,
    .destroy = rocc_destroy,
};

uint32_t rocc_agent_attach(struct net *n, uint32_t port, const struct rocc_cp_params *prm,
                           const struct rocc_ft_params *ftp, int cnp_at_fmax, simtime_t phase)
{
    struct rocc_agent *a = calloc(1, sizeof *a);
    if (!a)
        return NONE32;
    a->prm = *prm;
    a->port = port;
    /* CP identity: node id and local port, unique per egress port (§3.1: a CP
     * is an egress port; the authors' code used the switch IP). */
    a->cp_id = (n->ports[port].node << 8) | (n->ports[port].local & 0xff);
    a->cnp_at_fmax = cnp_at_fmax;
    rocc_cp_init(&a->cp, prm);
    a->last_f = (uint32_t)a->cp.f;
    /* Start at 64 slots (or the whole table if it is smaller) and grow;
     * AFD and BubbleCache have a fixed size (their memory is the design). */
    struct rocc_ft_params p0 = *ftp;
    a->ft_max = ftp->capacity;
    if (p0.capacity > 64 && ftp->kind != ROCC_FT_AFD && ftp->kind != ROCC_FT_BUBBLE)
        p0.capacity = 64;
    a->refs_cap = p0.capacity;
    a->refs = malloc(a->refs_cap * sizeof *a->refs);
    a->ft_storage = rocc_ft_mem_bytes(&p0) ? calloc(1, rocc_ft_mem_bytes(&p0)) : NULL;
    if (!a->refs || !a->ft_storage || rocc_ft_init(&a->ft, &p0, a->ft_storage)) {
        rocc_agent_free(a);
        return NONE32;
    }
    uint32_t id = net_add_agent(n, port, &rocc_agent_ops, a);
    a->id = id;
    if (id == NONE32 || net_schedule(n, phase + prm->period_ps, EV_AGENT, id)) {
        rocc_agent_free(a);
        return NONE32;
    }
    return id;
}

void rocc_agent_free(struct rocc_agent *a)
{
    if (!a)
        return;
    free(a->refs);
    free(a->ft_storage);
    free(a);
}
