/* agent_rocc.c -- RoCC CP port agent; see agent_rocc.h. */
#include "net/agent_rocc.h"
#include "rocc_cnp.h"

#include <stdlib.h>
#include <string.h>

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
    int32_t f_in = a->cp.f;               /* Alg. 1's inputs, for the host forms */
    uint32_t q_old = a->cp.q_old;
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
            p->bytes = a->cnp_bytes;
            p->rate_units = f;
            p->cnp_form = a->form;
            if (a->form != ROCC_CNP_FORM_RATE) {   /* §3.6: the inputs, not F */
                p->rate_units = (uint32_t)f_in;
                p->seq = a->cp.q_old | (uint64_t)q_old << 32;   /* Qcur | Qold */
            }
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
    .quiet = 1,     /* the hooks only count the frame's flow in the CP's table */
};

uint32_t rocc_agent_attach(struct net *n, uint32_t port, const struct rocc_cp_params *prm,
                           const struct rocc_ft_params *ftp, int cnp_at_fmax, int form, simtime_t phase)
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
    a->form = (uint8_t)form;
    a->cnp_bytes = rocc_cnp_frame_bytes(form);
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

/* Ethernet header 14 + IPv4 header 20 + FCS 4 around the ICMP message
 * (IEEE 802.3, RFC 791): ROCC_CNP_FRAME_BYTES = 38 + 52. */
#define CNP_FRAME_OVERHEAD 38u

uint16_t rocc_cnp_frame_bytes(int form)
{
    return (uint16_t)(CNP_FRAME_OVERHEAD + rocc_cnp_form_bytes(form, 0));
}

const struct rocc_agent *rocc_agent_of_port(const struct net *n, uint32_t port)
{
    for (uint32_t id = n->ports[port].agent; id != NONE32; id = n->agents[id].next)
        if (n->agents[id].ops == &rocc_agent_ops)
            return n->agents[id].state;
    return NULL;
}

/* The CP a CP id names (node << 8 | local port), or NULL. */
static const struct rocc_agent *agent_of_cp(const struct net *n, uint32_t cp_id)
{
    uint32_t node = cp_id >> 8, local = cp_id & 0xff;
    if (node >= n->n_nodes || n->nodes[node].kind != NODE_SWITCH || local >= n->nodes[node].n_ports)
        return NULL;
    return rocc_agent_of_port(n, n->nodes[node].first_port + local);
}

int rocc_host_compute(struct net *n, struct packet *p)
{
    struct rocc_cnp c;
    uint32_t rate;

    if (p->cnp_kind != CNP_ROCC || p->cnp_form == ROCC_CNP_FORM_RATE)
        return 0;
    memset(&c, 0, sizeof c);
    c.form = p->cnp_form;
    c.cp_id = p->cp_id;
    c.rate_units = p->rate_units;
    c.q_cur = (uint32_t)p->seq;
    c.q_old = (uint32_t)(p->seq >> 32);
    if (c.form == ROCC_CNP_FORM_HOST_FULL) {
        const struct rocc_agent *a = agent_of_cp(n, c.cp_id);
        if (!a) {                         /* nothing would have carried parameters */
            n->rocc_host.n_bad++;
            return -1;
        }
        rocc_hostcp_put_params(&c, &a->prm);
    }
    if (rocc_hostcp_rate(n->rocc_reg, &c, &rate, &n->rocc_host))
        return -1;
    p->rate_units = rate;
    p->cnp_form = ROCC_CNP_FORM_RATE;
    return 0;
}

int rocc_registry_build(struct net *n)
{
    uint32_t ncp = 0;
    for (uint32_t i = 0; i < n->n_agents; i++)
        ncp += n->agents[i].ops == &rocc_agent_ops;
    /* One block: the registry, its entries and (at most one per CP) profiles. */
    size_t sz = sizeof(struct rocc_hostreg) + rocc_hostreg_bytes(ncp, ncp);
    struct rocc_hostreg *r = calloc(1, sz);
    if (!r)
        return -1;
    struct rocc_hostreg_entry *ent = (void *)(r + 1);
    struct rocc_cp_params *prof = (void *)(ent + ncp);
    rocc_hostreg_init(r, ent, ncp, prof, ncp);
    for (uint32_t i = 0; i < n->n_agents; i++) {
        if (n->agents[i].ops != &rocc_agent_ops)
            continue;
        const struct rocc_agent *a = n->agents[i].state;
        if (rocc_hostreg_add(r, a->cp_id, &a->prm, NULL, 0)) {
            free(r);
            return -1;
        }
    }
    rocc_hostreg_seal(r);
    free(n->rocc_reg);
    n->rocc_reg = r;
    return 0;
}
