/* agent_lscc.c -- LSCC rate calculation and rate limiting as port agents;
 * see agent_lscc.h. */
#include "net/agent_lscc.h"
#include "net/flowctl.h"

#include <stdlib.h>
#include <string.h>

/* RoCEv2 UDP destination port (IBTA RoCEv2 annex): the dport of Table I's
 * key.  roccsim has no UDP source ports; a flow's index stands in. */
#define ROCEV2_UDP_PORT 4791u

static struct lscc_key flow_key(const struct net *n, uint32_t fi)
{
    const struct flow *f = &n->flows[fi];
    struct lscc_key k = { f->src, f->dst, (uint16_t)(fi & 0xffffu), ROCEV2_UDP_PORT };
    return k;
}

static struct sw *node_sw(struct net *n, const struct lscc_node *x)
{
    return &n->sws[n->nodes[n->ports[x->port].node].idx];
}

uint64_t lscc_ingress_bytes(const struct net *n, const struct lscc_node *x)
{
    const struct sw *s = &n->sws[n->nodes[n->ports[x->port].node].idx];
    if (!s->cnt)
        return 0;
    const struct mmu_cnt *m = &s->cnt[x->lh_local * NCLASS + n->cfg.data_prio];
    return m->reserve + m->shared + m->hdrm;
}

/* ---- rate calculation (agent "lscc_rc") ---- */

static void rc_timer(struct net *n, void *st)
{
    struct lscc_node *x = st;
    uint64_t q = lscc_ingress_bytes(n, x);
    uint64_t r = lscc_rc_update(&x->rc, &x->rcp, q, x->br_bytes);
    x->br_bytes = 0;
    x->last_r = r;
    x->q_sum += q;
    x->q_n++;
    if (q > x->q_max)
        x->q_max = q;
    uint32_t pi = fc_new_frame(n, FC_SUB_AGENT);
    if (pi != PKT_NONE) {
        struct packet *p = pkt(&n->pool, pi);
        uint64_t epoch;
        uint32_t seq;
        lscc_fb_tx_next(&x->fbtx, &epoch, &seq);
        p->rate_units = lscc_rate_to_units(r, x->rcp.f_unit_bps);
        p->seq = seq;
        p->ts = (simtime_t)epoch;
        fc_send(n, x->port, pi);
        x->fb_sent++;
    }
    net_schedule(n, n->el.now + x->rcp.period_ps, EV_AGENT, x->rc_id);
}

static const struct port_agent_ops lscc_rc_ops = { .name = "lscc_rc", .on_timer = rc_timer };

/* ---- rate limiting (agent "lscc") ---- */

static const struct port_agent_ops lscc_rl_ops;

void lscc_np_on_data(struct net *n, struct flow *f, const struct packet *p)
{
    uint32_t a = p->lscc_np - 1;
    if (a >= n->n_agents || n->agents[a].ops != &lscc_rl_ops)
        return;
    /* The module's parameters: set-up, the same in every process. */
    const struct lscc_node *x = n->agents[a].state;
    if (x->rlp.normal_cnp_multiple) {
        f->np_interval = lscc_normal_cnp_interval_ps(x->rlp.cnp_interval_ps, x->rlp.normal_cnp_multiple);
    } else {
        f->np_interval = SIMTIME_NEVER;     /* host.c: now − last >= NEVER never holds */
        if (!f->np_last_cnp)
            f->np_last_cnp = 1;
    }
}

static void rl_enq(struct net *n, void *st, uint32_t port, const struct packet *p)
{
    struct lscc_node *x = st;
    if (p->type == PKT_DATA)
        lscc_rl_input(&x->rl, n->el.now, p->bytes);
}

static void rl_deq(struct net *n, void *st, uint32_t port, struct packet *p)
{
    struct lscc_node *x = st;
    if (p->type != PKT_DATA || (x->local_int && (p->flags & PF_INT)))
        return;
    struct lscc_key k = flow_key(n, p->flow);
    /* The flow's receiver takes this module's normal-CNP interval when the
     * frame arrives (lscc_np_on_data): the NP's state is the destination
     * host's, written by its own events only (docs/parallel.md). */
    p->lscc_np = x->rl_id + 1;
    if (lscc_rl_on_data(&x->rl, &x->rlp, n->el.now, &k, p->flow, p->bytes, p->ecn) & LSCC_RL_CLEAR_CE)
        p->ecn = 0;
}

static int rl_frame(struct net *n, void *st, uint32_t port, const struct packet *p)
{
    struct lscc_node *x = st;
    /* rocc-switch's freshness rule (lscc_fb.h); refused: counted in fctl_bad. */
    if (p->seq > UINT32_MAX || lscc_fb_rx_accept(&x->fbrx, (uint64_t)p->ts, (uint32_t)p->seq) != LSCC_FB_OK) {
        x->fb_refused++;
        return -1;
    }
    lscc_rl_on_feedback(&x->rl, n->el.now, lscc_units_to_rate(p->rate_units, x->rcp.f_unit_bps));
    x->fb_rcvd++;
    return 0;
}

static void rl_timer(struct net *n, void *st)
{
    struct lscc_node *x = st;
    struct sw *s = node_sw(n, x);
    uint32_t cap = x->rlp.capacity;
    uint32_t k = lscc_rl_tick(&x->rl, &x->rlp, n->el.now, x->refs, cap);
    if (k > cap)
        k = cap;
    for (uint32_t i = 0; i < k; i++) {
        const struct flow *fl = &n->flows[x->refs[i]];
        uint32_t pi = net_new_packet(n, PKT_CNP);
        if (pi == PKT_NONE)
            break;
        struct packet *p = pkt(&n->pool, pi);
        p->flow = x->refs[i];
        p->dst = fl->src;
        p->prio = n->cfg.ctrl_prio;
        p->bytes = ROCE_CNP_FRAME;
        p->cnp_kind = CNP_ECN;
        p->cnp_src = s->node;
        p->ts = n->el.now;
        x->direct_cnps++;
        switch_inject(n, s, pi, fl->rhash);
    }
    net_schedule(n, n->el.now + x->rlp.cnp_interval_ps, EV_AGENT, x->rl_id);
}

static void rl_destroy(void *st)
{
    struct lscc_node *x = st;
    free(x->slots);
    free(x->refs);
    free(x);
}

static const struct port_agent_ops lscc_rl_ops = {
    .name = "lscc", .on_enqueue = rl_enq, .on_dequeue = rl_deq, .on_timer = rl_timer,
    .on_frame = rl_frame, .destroy = rl_destroy,
};

/* ---- taps on the switch's other ports ---- */

/* A CNP from the remote side (Alg. 2 line 12-13).  With several long-haul
 * links on this switch (ECMP), a flow's CNPs may come back over another
 * link than its data takes: such a CNP counts for this port's module if
 * the flow is in its table (a flow whose data crosses this port). */
static int remote_cnp_for(const struct net *n, const struct lscc_node *x, const struct packet *p,
                          const struct lscc_key *k)
{
    if (p->in_port == x->lh_local)
        return 1;
    const struct node *nd = &n->nodes[n->ports[x->port].node];
    return p->in_port < nd->n_ports && n->ports[nd->first_port + p->in_port].longhaul &&
           lscc_rl_find(&x->rl, k) != NULL;
}

static void tap_enq(struct net *n, void *st, uint32_t port, const struct packet *p)
{
    struct lscc_node *x = st;
    if (p->type == PKT_CNP && p->cnp_kind == CNP_ECN) {
        struct lscc_key k = flow_key(n, p->flow);
        if (remote_cnp_for(n, x, p, &k))
            lscc_rl_on_cnp(&x->rl, &x->rlp, n->el.now, &k, p->flow);
    }
}

static void tap_deq(struct net *n, void *st, uint32_t port, struct packet *p)
{
    struct lscc_node *x = st;
    if (p->type == PKT_DATA && p->in_port == x->lh_local)
        x->br_bytes += p->bytes;
}

static const struct port_agent_ops lscc_tap_ops = { .name = "lscc_tap", .on_enqueue = tap_enq, .on_dequeue = tap_deq };

struct lscc_node *lscc_attach(struct net *n, uint32_t port, const struct lscc_rc_params *rcp,
                              const struct lscc_rl_params *rlp)
{
    struct lscc_node *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->rcp = *rcp;
    x->rlp = *rlp;
    x->port = port;
    x->lh_local = n->ports[port].local;
    x->slots = calloc(1, lscc_rl_storage_bytes(rlp));
    x->refs = malloc((size_t)rlp->capacity * sizeof *x->refs);
    if (!x->slots || !x->refs) {
        rl_destroy(x);
        return NULL;
    }
    lscc_rc_init(&x->rc, rcp);
    lscc_rl_init(&x->rl, rlp, x->slots, n->el.now);
    x->last_r = rcp->r_init_bps;
    lscc_fb_tx_init(&x->fbtx, LSCC_SIM_EPOCH);
    lscc_fb_rx_init(&x->fbrx, 1);        /* no key in the simulator: resync on, as rocc-switch without one */
    x->rl_id = net_add_agent(n, port, &lscc_rl_ops, x);
    if (x->rl_id == NONE32) {
        rl_destroy(x);
        return NULL;
    }
    /* From here the "lscc" agent owns x (net_free destroys it). */
    x->rc_id = net_add_agent(n, port, &lscc_rc_ops, x);
    if (x->rc_id == NONE32)
        return NULL;
    const struct node *nd = &n->nodes[n->ports[port].node];
    for (uint32_t k = 0; k < nd->n_ports; k++) {
        uint32_t q = nd->first_port + k;
        if (q == port)
            continue;
        if (net_add_agent(n, q, &lscc_tap_ops, x) == NONE32)
            return NULL;
        /* §III-B "Deployment": no marking behind the long-haul ingress; a
         * switch's other long-haul ports keep theirs (their own egress). */
        if (!n->ports[q].longhaul)
            n->ports[q].ecn_kmin = n->ports[q].ecn_kmax = 0;
    }
    if (net_schedule(n, n->el.now + rcp->period_ps, EV_AGENT, x->rc_id) ||
        net_schedule(n, n->el.now + rlp->cnp_interval_ps, EV_AGENT, x->rl_id))
        return NULL;
    return x;
}
