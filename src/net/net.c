/*
 * net.c -- building the fabric, routing, the event loop and the
 * packet-conservation audit.  See net.h for the model.
 */
#include "net/flowctl.h"
#include "net/qdisc.h"
#include "core/hugepage.h"
#include "core/prefetch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *grow(void *p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    uint32_t ncap = *cap ? *cap : 16;
    while (ncap < need)
        ncap *= 2;
    void *np = realloc(p, (size_t)ncap * elem);
    if (!np)
        return NULL;
    memset((char *)np + (size_t)*cap * elem, 0, (size_t)(ncap - *cap) * elem);
    *cap = ncap;
    return np;
}

int net_init(struct net *n, uint64_t seed)
{
    memset(n, 0, sizeof *n);
    rng_seed(&n->rng, seed);
    n->seed = seed;
    n->cfg.mtu_payload = 1000;          /* RoCC §6 / HPCC PACKET_PAYLOAD_SIZE */
    n->cfg.preamble_ifg = 20;           /* 802.3: 7 B preamble + 1 B SFD + 12 B IFG */
    n->cfg.data_prio = 3;               /* HPCC simulator: data in class 3 */
    n->cfg.ctrl_prio = 7;               /* highest 802.1p class for CNP/ACK */
    n->cfg.cnp_filter = 1;              /* issue 11: forged CNPs have no effect */
    n->cfg.ack_high_prio = 1;
    n->cfg.ack_interval = 1;            /* HPCC L2_ACK_INTERVAL */
    n->cfg.nic_delay_ps = 15 * PS_PER_US;   /* RoCC §6: NIC reaction delay 15 us */
    n->cfg.rto_ps = 500 * PS_PER_US;        /* HPCC NACK/RTO interval 500 us */
    n->cfg.nack_interval_ps = 500 * PS_PER_US;  /* HPCC RdmaHw NACK interval */
    n->cfg.pacer_burst = 1;             /* host.c: one frame of catch-up */
    net_set_tie_seed(n, 0);
    if (el_init(&n->el, 1024) || pool_init(&n->pool, 4096))
        return -1;
    return 0;
}

void net_free(struct net *n)
{
    el_free(&n->el);
    pool_free_all(&n->pool);
    qdisc_free_all(n);
    for (uint32_t i = 0; i < n->n_sws; i++) {
        if (n->sws[i].fc && n->sws[i].fc->destroy && n->sws[i].fc_state)
            n->sws[i].fc->destroy(n->sws[i].fc_state);
        free(n->sws[i].cnt);
        free(n->sws[i].hdrm_limit);
        free(n->sws[i].xoff);
        free(n->sws[i].xoff_extra);
    }
    for (uint32_t i = 0; i < n->n_hosts; i++)
        free(n->hosts[i].active);
    free(n->nodes);
    free(n->ports);
    free(n->sws);
    free(n->hosts);
    free(n->rp_trace);
    free(n->flows);
    free(n->qps);
    free(n->links);
    for (uint32_t i = 0; i < n->n_agents; i++)
        if (n->agents[i].ops->destroy)
            n->agents[i].ops->destroy(n->agents[i].state);
    free(n->agents);
    for (uint32_t i = 0; i < n->n_hstate; i++)
        free(n->hstate[i].mem);
    free(n->hstate);
    free(n->intr);
    free(n->fc_gates);
    free(n->rocc_reg);           /* one block with its entries and profiles */
    free(n->route_off);
    free(n->route_ports);
    free(n->route_cls);
    free(n->rexc_off);
    free(n->rexc);
    free(n->rdirect);
    free(n->sroutes);
    free(n->sroute_next);
    free(n->start_order);
    free(n->lp_key);
    free(n->node_rng);
    memset(n, 0, sizeof *n);
}

uint32_t net_add_node(struct net *n, enum node_kind kind, const char *name)
{
    struct node *nn = grow(n->nodes, &n->cap_nodes, n->n_nodes + 1, sizeof *nn);
    if (!nn)
        return NONE32;
    n->nodes = nn;
    struct node *nd = &n->nodes[n->n_nodes];
    nd->kind = (uint8_t)kind;
    snprintf(nd->name, sizeof nd->name, "%s", name);
    return n->n_nodes++;
}

uint32_t net_add_link(struct net *n, uint32_t a, uint32_t b, uint64_t rate_bps, simtime_t delay_ps)
{
    struct link_spec *l = grow(n->links, &n->cap_links, n->n_links + 1, sizeof *l);
    if (!l)
        return NONE32;
    n->links = l;
    n->links[n->n_links] = (struct link_spec){ a, b, rate_bps, delay_ps, 0 };
    return n->n_links++;
}

void net_link_set_longhaul(struct net *n, uint32_t link)
{
    if (link < n->n_links)
        n->links[link].longhaul = 1;
}

uint32_t net_port_between(const struct net *n, uint32_t a, uint32_t b)
{
    const struct node *nd = &n->nodes[a];
    for (uint32_t i = 0; i < nd->n_ports; i++) {
        const struct port *p = &n->ports[nd->first_port + i];
        if (n->ports[p->peer].node == b)
            return nd->first_port + i;
    }
    return NONE32;
}

int net_route_check(const struct net *n, uint32_t sw, uint32_t dst, const uint32_t *next, uint32_t cnt,
                    char *why, size_t why_len)
{
    if (sw >= n->n_nodes || n->nodes[sw].kind != NODE_SWITCH) {
        snprintf(why, why_len, "'%s' is not a switch", sw < n->n_nodes ? n->nodes[sw].name : "?");
        return -1;
    }
    if (dst >= n->n_nodes || n->nodes[dst].kind != NODE_HOST) {
        snprintf(why, why_len, "'%s' is not a host", dst < n->n_nodes ? n->nodes[dst].name : "?");
        return -1;
    }
    if (cnt == 0 || cnt > 255) {
        snprintf(why, why_len, "a route needs 1..255 next hops");
        return -1;
    }
    for (uint32_t i = 0; i < cnt; i++) {
        uint32_t v = next[i], linked = 0;
        if (v >= n->n_nodes) {
            snprintf(why, why_len, "next hop %u is not a node", v);
            return -1;
        }
        for (uint32_t l = 0; l < n->n_links && !linked; l++)
            linked = (n->links[l].a == sw && n->links[l].b == v) || (n->links[l].b == sw && n->links[l].a == v);
        if (!linked) {
            snprintf(why, why_len, "next hop '%s' is not a neighbour of '%s'", n->nodes[v].name, n->nodes[sw].name);
            return -1;
        }
        if (n->nodes[v].kind == NODE_HOST && v != dst) {
            snprintf(why, why_len, "next hop '%s' is a host other than the destination '%s' (hosts do not forward)",
                     n->nodes[v].name, n->nodes[dst].name);
            return -1;
        }
    }
    return 0;
}

int net_add_route(struct net *n, uint32_t sw, uint32_t dst, const uint32_t *next, uint32_t cnt,
                  char *why, size_t why_len)
{
    if (net_route_check(n, sw, dst, next, cnt, why, why_len))
        return -1;
    uint32_t k = 0;
    while (k < n->n_sroutes && (n->sroutes[k].node != sw || n->sroutes[k].dst != dst))
        k++;
    if (k == n->n_sroutes) {
        struct static_route *r = grow(n->sroutes, &n->cap_sroutes, n->n_sroutes + 1, sizeof *r);
        if (!r)
            goto oom;
        n->sroutes = r;
        n->n_sroutes++;
    }
    uint32_t *nx = grow(n->sroute_next, &n->cap_sroute_next, n->n_sroute_next + cnt, sizeof *nx);
    if (!nx)
        goto oom;
    n->sroute_next = nx;
    memcpy(nx + n->n_sroute_next, next, cnt * sizeof *nx);
    n->sroutes[k] = (struct static_route){ sw, dst, n->n_sroute_next, cnt };   /* a replaced one's hops stay unused */
    n->n_sroute_next += cnt;
    return 0;
oom:
    snprintf(why, why_len, "out of memory");
    return -1;
}

/* The event loop fetches ahead (prefetch_next) when the ports alone pass
 * 1 MB (1,639 ports: a k = 16 fat-tree has 3,072), about a core's L2:
 * below it the records stay in cache and the look-ahead would only cost
 * instructions (+1.5% on the 16-host dumbbell). */
#define NET_PREFETCH_MIN_BYTES (1u << 20)

int net_finalize(struct net *n, const struct switch_cfg *swcfg, char *why, size_t why_len)
{
    /* Count ports per node, lay them out contiguously per node. */
    uint32_t n_sws = 0, n_hosts = 0;
    for (uint32_t i = 0; i < n->n_nodes; i++) {
        n->nodes[i].n_ports = 0;
        if (n->nodes[i].kind == NODE_SWITCH)
            n->nodes[i].idx = n_sws++;
        else
            n->nodes[i].idx = n_hosts++;
    }
    for (uint32_t l = 0; l < n->n_links; l++) {
        if (n->links[l].a == n->links[l].b) {
            snprintf(why, why_len, "link %u connects %s to itself", l, n->nodes[n->links[l].a].name);
            return -1;
        }
        n->nodes[n->links[l].a].n_ports++;
        n->nodes[n->links[l].b].n_ports++;
    }
    uint32_t total = 0;
    for (uint32_t i = 0; i < n->n_nodes; i++) {
        if (n->nodes[i].n_ports > 65535) {
            snprintf(why, why_len, "node %s has more than 65535 ports", n->nodes[i].name);
            return -1;
        }
        if (n->nodes[i].kind == NODE_HOST && n->nodes[i].n_ports != 1) {
            snprintf(why, why_len, "host %s has %u links; a host has exactly one NIC port",
                     n->nodes[i].name, n->nodes[i].n_ports);
            return -1;
        }
        n->nodes[i].first_port = total;
        total += n->nodes[i].n_ports;
        n->nodes[i].n_ports = 0;
    }
    n->n_ports = total;
    /* Cache-line aligned (struct port is, and its fields are grouped by line). */
    n->ports = aligned_alloc(_Alignof(struct port), (total ? total : 1) * sizeof *n->ports);
    if (n->ports) {
        mem_hint_huge(n->ports, (total ? total : 1) * sizeof *n->ports);
        memset(n->ports, 0, (total ? total : 1) * sizeof *n->ports);
    }
    n->sws = calloc(n_sws ? n_sws : 1, sizeof *n->sws);
    n->hosts = calloc(n_hosts ? n_hosts : 1, sizeof *n->hosts);
    if (!n->ports || !n->sws || !n->hosts) {
        snprintf(why, why_len, "out of memory");
        return -1;
    }
    n->n_sws = n_sws;
    n->n_hosts = n_hosts;
    for (uint32_t l = 0; l < n->n_links; l++) {
        const struct link_spec *ls = &n->links[l];
        struct node *na = &n->nodes[ls->a], *nb = &n->nodes[ls->b];
        uint32_t pa = na->first_port + na->n_ports++, pb = nb->first_port + nb->n_ports++;
        n->ports[pa].node = ls->a;
        n->ports[pa].peer = pb;
        n->ports[pb].node = ls->b;
        n->ports[pb].peer = pa;
        n->ports[pa].local = (uint16_t)(pa - na->first_port);
        n->ports[pb].local = (uint16_t)(pb - nb->first_port);
        n->ports[pa].rate_bps = n->ports[pb].rate_bps = ls->rate;
        /* A frame's time is then one multiply, equal to tx_time_ps's ceil. */
        n->ports[pa].ps_per_byte = n->ports[pb].ps_per_byte =
            ls->rate && (8 * PS_PER_S) % ls->rate == 0 ? 8 * PS_PER_S / ls->rate : 0;
        n->ports[pa].delay_ps = n->ports[pb].delay_ps = ls->delay;
        n->ports[pa].longhaul = n->ports[pb].longhaul = ls->longhaul;
    }
    for (uint32_t p = 0; p < total; p++) {
        struct port *pt = &n->ports[p];
        for (int q = 0; q < NQUEUE; q++)
            pktq_init(&pt->q[q]);
        pktq_init(&pt->wire);
        pt->agent = NONE32;
        pt->owner_kind = n->nodes[pt->node].kind;
        pt->owner = n->nodes[pt->node].idx;
        if (n->nodes[pt->node].kind == NODE_SWITCH) {
            pt->ecn_kmin = swcfg->ecn_kmin;
            pt->ecn_kmax = swcfg->ecn_kmax;
            pt->ecn_pmax = swcfg->ecn_pmax;
        }
    }
    for (uint32_t i = 0; i < n->n_nodes; i++) {
        struct node *nd = &n->nodes[i];
        if (nd->kind == NODE_HOST) {
            struct host *h = &n->hosts[nd->idx];
            h->node = i;
            h->port = nd->first_port;
            h->wake_at = SIMTIME_NEVER;
            h->next_ready = SIMTIME_NEVER;
            pktq_init(&h->nic_delay);
        } else {
            struct sw *s = &n->sws[nd->idx];
            s->node = i;
            s->cfg = *swcfg;
            s->fc_timer_at = SIMTIME_NEVER;
            s->hash_seed = rng_next(&n->rng);
            s->cnt = calloc((size_t)nd->n_ports * NCLASS, sizeof *s->cnt);
            s->hdrm_limit = calloc(nd->n_ports ? nd->n_ports : 1, sizeof *s->hdrm_limit);
            s->xoff = calloc(nd->n_ports ? nd->n_ports : 1, sizeof *s->xoff);
            if (!s->cnt || !s->hdrm_limit || !s->xoff) {
                snprintf(why, why_len, "out of memory");
                return -1;
            }
            uint64_t nlossless = (uint64_t)__builtin_popcount(swcfg->lossless_mask);
            uint64_t reserved = 0, longhaul_hdrm = 0;
            for (uint32_t k = 0; k < nd->n_ports; k++) {
                const struct port *pt = &n->ports[nd->first_port + k];
                uint64_t hd = pt->longhaul ? swcfg->longhaul_headroom_bytes : swcfg->headroom_bytes;
                if (hd == 0) {
                    /* Headroom must absorb what arrives after XOFF is decided:
                     * the PAUSE frame's and the last data frame's serialization
                     * plus a round trip on the wire (802.1Qbb; HPCC uses
                     * 3*rate*delay/8).  Two MTU frames + 2 * rate * delay / 8
                     * + 3 KB (the XON offset, so a resume never finds headroom
                     * already spent). */
                    uint64_t frame = n->cfg.mtu_payload + ROCE_DATA_OVERHEAD + n->cfg.preamble_ifg;
                    /* 128-bit: rate × delay overflows 64 bits on a long
                     * link (200 Gb/s × 1 ms = 2.5e19 B·ps/s). */
                    __extension__ unsigned __int128 rtt_b = (unsigned __int128)(pt->rate_bps / 8) * pt->delay_ps * 2 / PS_PER_S;
                    hd = 2 * frame + (uint64_t)rtt_b + 3 * 1024;
                }
                s->hdrm_limit[k] = hd;
                /* RoCC §6: PFC thresholds 500 KB (40G) and 800 KB (100G), after [42]. */
                s->xoff[k] = pt->longhaul && swcfg->longhaul_xoff_bytes ? swcfg->longhaul_xoff_bytes
                           : swcfg->xoff_bytes ? swcfg->xoff_bytes
                           : pt->rate_bps <= 40000000000ull ? 500000 : 800000;
                /* A long-haul port's headroom (one BDP of the long link)
                 * comes on top of the buffer (docs/crossdc.md). */
                if (swcfg->pfc)
                    *(pt->longhaul ? &longhaul_hdrm : &reserved) += hd * nlossless;
                /* Reserve is set aside for the classes that carry traffic
                 * (data and control), not for idle ones. */
                reserved += swcfg->reserve_bytes *
                            (uint64_t)__builtin_popcount(swcfg->lossless_mask | swcfg->strict_mask);
            }
            if (swcfg->buffer_bytes) {
                if (reserved >= swcfg->buffer_bytes) {
                    snprintf(why, why_len,
                             "switch %s: buffer %llu B is smaller than its reserves and PFC headroom (%llu B)",
                             nd->name, (unsigned long long)swcfg->buffer_bytes, (unsigned long long)reserved);
                    return -1;
                }
                s->shared_pool = swcfg->buffer_bytes - reserved;
                s->cfg.buffer_bytes = swcfg->buffer_bytes + longhaul_hdrm;
            }
        }
    }
    if (net_lp_init(n)) {
        if (n->n_nodes + 1 >= 1u << NET_LP_BITS)
            snprintf(why, why_len, "%u nodes: the event order supports at most %u", n->n_nodes,
                     (1u << NET_LP_BITS) - 2);
        else
            snprintf(why, why_len, "out of memory");
        return -1;
    }
    n->prefetch = (size_t)n->n_ports * sizeof(struct port) >= NET_PREFETCH_MIN_BYTES;
    return net_build_routes(n, 0, why, why_len);
}

int net_lp_init(struct net *n)
{
    uint32_t lps = n->n_nodes + 1;              /* the nodes and the hooks' LP */
    uint32_t bits = NET_LP_BITS;
    if (lps >= 1u << bits)
        return -1;                              /* net_finalize says why */
    uint64_t *k = realloc(n->lp_key, lps * sizeof *k);
    if (!k)
        return -1;
    n->lp_key = k;
    struct rng *r = realloc(n->node_rng, lps * sizeof *r);
    if (!r)
        return -1;
    n->node_rng = r;
    /* "node-rng": apart from every other stream taken from the seed. */
    uint64_t base = mix64(n->seed ^ 0x6e6f64652d726e67ull);
    for (uint32_t i = 0; i < lps; i++)
        rng_seed(&r[i], base + i);
    n->lp_bits = bits;
    n->key_step = 1ull << bits;
    for (uint32_t i = 0; i < lps; i++)
        k[i] = n->key_step | i;                 /* counter 1: key 0 is EV_FLOW_START's */
    n->key_cur = NULL;
    return 0;
}

void net_set_tie_seed(struct net *n, uint64_t seed)
{
    uint64_t m = 2 * seed + 1, x = m;   /* x = m is m's inverse to 3 bits; */
    for (int i = 0; i < 5; i++)          /* each Newton step doubles them */
        x *= 2 - m * x;
    n->tie_mul = m;
    n->tie_inv = x;
}

uint64_t net_key_slow(struct net *n, enum ev_kind kind, uint32_t obj)
{
    if (kind == EV_FLOW_START)
        return 0;                               /* a fixed key: first at its time */
    if (!n->lp_key && net_lp_init(n)) {
        n->oom = 1;
        return 0;
    }
    /* Outside a node's handler the node that acts keys the event: the
     * sender of a frame, else the owner; hooks have their own LP. */
    uint32_t lp = kind == EV_WIRE ? n->ports[obj].node : net_event_owner(n, kind, obj);
    uint64_t *slot = &n->lp_key[lp == NONE32 ? n->n_nodes : lp];
    uint64_t k = *slot;
    *slot = k + n->key_step;
    return net_key_mix(n, k);
}

/* grow() for the flow array, which must stay cache-line aligned (realloc
 * would not keep that).  Only the flows added so far are copied, and the
 * spare capacity is left untouched (net_add_flow writes each new flow
 * whole), so it costs no resident memory until used. */
static struct flow *grow_flows(struct net *n, uint32_t need)
{
    if (need <= n->cap_flows)
        return n->flows;
    uint32_t ncap = n->cap_flows ? n->cap_flows : 16;
    while (ncap < need)
        ncap *= 2;
    struct flow *nf = aligned_alloc(_Alignof(struct flow), (size_t)ncap * sizeof *nf);
    if (!nf)
        return NULL;
    mem_hint_huge(nf, (size_t)ncap * sizeof *nf);
    if (n->n_flows)
        memcpy(nf, n->flows, (size_t)n->n_flows * sizeof *nf);
    free(n->flows);
    n->flows = nf;
    n->cap_flows = ncap;
    return nf;
}

uint32_t net_add_flow(struct net *n, const struct flow *tmpl)
{
    if (!grow_flows(n, n->n_flows + 1))
        return NONE32;
    struct flow *f = &n->flows[n->n_flows];
    *f = *tmpl;
    f->nack_for = UINT64_MAX;
    f->cc_deadline = f->rto_deadline = f->timer_armed = SIMTIME_NEVER;
    f->finish_ps = SIMTIME_NEVER;
    f->first_tx_ps = SIMTIME_NEVER;
    f->qp_next = NONE32;
    return n->n_flows++;
}

uint32_t net_add_qp(struct net *n, uint32_t limit)
{
    struct qp *q = grow(n->qps, &n->cap_qps, n->n_qps + 1, sizeof *q);
    if (!q)
        return 0;
    n->qps = q;
    n->qps[n->n_qps] = (struct qp){ NONE32, NONE32, 0, limit ? limit : 1 };
    return ++n->n_qps;
}

/* Start the QP's waiting messages while its limit allows. */
static void qp_pump(struct net *n, struct qp *q)
{
    while (q->head != NONE32 && q->outstanding < q->limit) {
        uint32_t fi = q->head;
        q->head = n->flows[fi].qp_next;
        if (q->head == NONE32)
            q->tail = NONE32;
        n->flows[fi].qp_next = NONE32;
        q->outstanding++;
        flow_start(n, fi);          /* may complete at once (size 0) and pump again */
    }
}

/* Message fi is posted: it joins the end of its QP's line. */
static void qp_post(struct net *n, uint32_t fi)
{
    struct qp *q = &n->qps[n->flows[fi].qp - 1];
    if (q->tail == NONE32)
        q->head = fi;
    else
        n->flows[q->tail].qp_next = fi;
    q->tail = fi;
    qp_pump(n, q);
}

void net_qp_done(struct net *n, uint32_t fi)
{
    if (!n->flows[fi].qp)
        return;
    struct qp *q = &n->qps[n->flows[fi].qp - 1];
    q->outstanding--;
    qp_pump(n, q);
}

struct start_key { simtime_t t; uint32_t flow; };

static int cmp_start(const void *a, const void *b)
{
    const struct start_key *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->flow < y->flow ? -1 : (x->flow > y->flow);
}

int net_flows_ready(struct net *n)
{
    n->start_order = malloc((n->n_flows ? n->n_flows : 1) * sizeof *n->start_order);
    if (!n->start_order)
        return -1;
    struct start_key *keys = malloc((n->n_flows ? n->n_flows : 1) * sizeof *keys);
    if (!keys)
        return -1;
    for (uint32_t i = 0; i < n->n_flows; i++)
        keys[i] = (struct start_key){ n->flows[i].start_ps, i };
    qsort(keys, n->n_flows, sizeof *keys, cmp_start);     /* ties: flow order */
    for (uint32_t i = 0; i < n->n_flows; i++)
        n->start_order[i] = keys[i].flow;
    free(keys);
    /* Per-host active lists sized for every flow the host sources. */
    for (uint32_t i = 0; i < n->n_flows; i++)
        n->hosts[n->flows[i].src].cap_active++;
    for (uint32_t h = 0; h < n->n_hosts; h++) {
        struct host *ho = &n->hosts[h];
        ho->active = malloc((ho->cap_active ? ho->cap_active : 1) * sizeof *ho->active);
        if (!ho->active)
            return -1;
    }
    if (n->n_flows)
        return net_schedule(n, n->flows[n->start_order[0]].start_ps, EV_FLOW_START, 0);
    return 0;
}

void *net_state(struct net *n, const void *key, size_t bytes)
{
    for (uint32_t i = 0; i < n->n_hstate; i++)
        if (n->hstate[i].key == key)
            return n->hstate[i].mem;
    struct host_state *hs = realloc(n->hstate, (n->n_hstate + 1) * sizeof *hs);
    if (!hs)
        return NULL;
    n->hstate = hs;
    void *mem = calloc(1, bytes ? bytes : 1);
    if (!mem)
        return NULL;
    hs[n->n_hstate++] = (struct host_state){ key, mem };
    return mem;
}

void *net_host_state(struct net *n, const void *key, size_t size)
{
    size_t hosts = n->n_hosts ? n->n_hosts : 1;
    if (size && hosts > SIZE_MAX / size)
        return NULL;
    return net_state(n, key, hosts * size);
}

uint32_t net_add_agent(struct net *n, uint32_t port, const struct port_agent_ops *ops, void *state)
{
    struct port_agent *a = grow(n->agents, &n->cap_agents, n->n_agents + 1, sizeof *a);
    if (!a)
        return NONE32;
    n->agents = a;
    /* Append to the port's chain: agents see packets in attach order. */
    n->agents[n->n_agents] = (struct port_agent){ ops, state, port, NONE32 };
    if (!ops->quiet)
        n->ports[port].agents_loud = 1;
    uint32_t *link = &n->ports[port].agent;
    while (*link != NONE32)
        link = &n->agents[*link].next;
    *link = n->n_agents;
    return n->n_agents++;
}

/* Drop what a failed port holds: its queues (releasing switch buffer
 * accounting through the normal dequeue path) and the frames on its wire. */
static void flush_port(struct net *n, uint32_t port)
{
    struct port *pt = &n->ports[port];
    const struct node *nd = &n->nodes[pt->node];
    for (;;) {
        uint32_t pi = PKT_NONE;
        if (nd->kind == NODE_SWITCH) {
            pt->paused = 0;                     /* the dead peer will never resume us */
            pt->gated = 0;
            pi = qdisc_drain(n, port);          /* a queueing discipline's frames first (qdisc.h) */
            if (pi == PKT_NONE)
                pi = switch_dequeue(n, &n->sws[nd->idx], port);
        } else {
            for (int q = NQUEUE - 1; q >= 0 && pi == PKT_NONE; q--)
                pi = port_q_pop(n, pt, (uint32_t)q);
        }
        if (pi == PKT_NONE)
            break;
        net_drop(n, port, pi);
        n->failure_drops++;
    }
    uint32_t pi;
    while ((pi = pktq_pop(&n->pool, &pt->wire)) != PKT_NONE) {
        net_drop(n, port, pi);
        n->failure_drops++;
    }
}

int net_set_link(struct net *n, uint32_t port, int up, char *why, size_t why_len)
{
    struct port *a = &n->ports[port], *b = &n->ports[a->peer];
    if ((!up) == a->down)
        return 0;
    simtime_t now = n->el.now;
    for (int c = 0; c < NCLASS; c++) {           /* close pause intervals */
        if (a->paused & (1u << c))
            a->st.paused_ps[c] += now - a->paused_since[c];
        if (b->paused & (1u << c))
            b->st.paused_ps[c] += now - b->paused_since[c];
    }
    a->down = b->down = (uint8_t)!up;
    if (!up) {
        flush_port(n, port);
        flush_port(n, a->peer);
        a->paused = b->paused = 0;
    }
    if (net_build_routes(n, 1, why, why_len))
        return -1;
    if (up) {                                   /* a partitioned run: each end's own rank */
        if (net_node_local(n, a->node))
            port_kick(n, port);
        if (net_node_local(n, b->node))
            port_kick(n, a->peer);
    }
    return 0;
}

int net_enable_int(struct net *n)
{
    if (n->intr)
        return 0;
    n->intr = calloc(n->pool.cap, sizeof *n->intr);
    if (!n->intr)
        return -1;
    n->intr_cap = n->pool.cap;
    return 0;
}

int net_schedule_failed(struct net *n)
{
    n->oom = 1;
    return -1;
}

uint64_t tx_time_ps(uint64_t wire_bytes, uint64_t rate_bps)
{
    /* ceil(bits * 1e12 / rate): exact for the usual rates (40G: 200 ps/B).
     * Frames fit 64-bit arithmetic (< 2 MB); larger counts take 128 bits. */
    if (wire_bytes < (1u << 21))
        return (wire_bytes * 8 * PS_PER_S + rate_bps - 1) / rate_bps;
    __extension__ unsigned __int128 ps = (unsigned __int128)wire_bytes * 8 * PS_PER_S;
    return (uint64_t)((ps + rate_bps - 1) / rate_bps);
}

uint32_t net_new_packet(struct net *n, enum pkt_type type)
{
    uint32_t pi = pool_get(&n->pool);
    if (pi == PKT_NONE) {
        n->oom = 1;
        return PKT_NONE;
    }
    if (n->intr && n->intr_cap < n->pool.cap) {
        /* INT records follow the pool's growth (index = packet index). */
        struct int_rec *r = realloc(n->intr, (size_t)n->pool.cap * sizeof *r);
        if (!r) {
            pool_put(&n->pool, pi);
            n->oom = 1;
            return PKT_NONE;
        }
        mem_hint_huge(r, (size_t)n->pool.cap * sizeof *r);
        n->intr = r;
        n->intr_cap = n->pool.cap;
    }
    struct packet *p = pkt(&n->pool, pi);
    memset(p, 0, sizeof *p);
    p->type = (uint8_t)type;
    p->next = PKT_NONE;
    n->created[type]++;
    return pi;
}

void net_consume(struct net *n, uint32_t pi)
{
    n->consumed[pkt(&n->pool, pi)->type]++;
    pool_put(&n->pool, pi);
}

void net_drop(struct net *n, uint32_t port, uint32_t pi)
{
    struct packet *p = pkt(&n->pool, pi);
    n->dropped[p->type]++;
    n->ports[port].st.drops++;
    n->ports[port].st.drop_bytes += p->bytes;
    pool_put(&n->pool, pi);
}

void net_drop_limited(struct net *n, uint32_t port, uint32_t pi)
{
    struct packet *p = pkt(&n->pool, pi);
    n->dropped[p->type]++;
    n->qlimit_drops++;
    n->ports[port].st.qlimit_drops++;
    pool_put(&n->pool, pi);
}

static void start_flows(struct net *n)
{
    simtime_t now = n->el.now;
    while (n->next_start < n->n_flows) {
        uint32_t fi = n->start_order[n->next_start];
        if (n->flows[fi].start_ps > now)
            break;
        n->next_start++;
        /* A partitioned run starts only the flows its ranks' sources hold. */
        if (!net_node_local(n, n->hosts[n->flows[fi].src].node))
            continue;
        /* A flow's start is its source host's act: what it schedules
         * takes that LP's keys (the start event itself is virtual). */
        net_lp_enter(n, n->hosts[n->flows[fi].src].node);
        if (n->flows[fi].qp)
            qp_post(n, fi);
        else
            flow_start(n, fi);
    }
    n->key_cur = NULL;
    if (n->next_start < n->n_flows)
        net_schedule(n, n->flows[n->start_order[n->next_start]].start_ps, EV_FLOW_START, 0);
}

/* A large fabric's per-frame records (ports, frames, routing cells, flows)
 * do not stay in cache: each event's handler misses on several of them,
 * one after the other, and that -- not instructions -- is most of a
 * packet-hop's cost there (docs/performance.md, "Large fabrics").  The
 * events due next are known (the current bucket is a sorted run, the next
 * bucket's list is walked ahead by el_prefetch_step), so while one event
 * is handled the next ones' lines are fetched in stages, each stage
 * reading only lines the stage before fetched one event earlier.  For a
 * frame arriving from a wire (EV_WIRE), k events ahead:
 *   5+  the sending port's first line and its wire;
 *   4   the receiving port and the frame;
 *   3   at a switch: the routing cell, the flow record (ECMP hash) and
 *       the switch;
 *   2   the egress port the frame will take, its class queue, and the
 *       ingress buffer counters it will be charged to;
 *   1   the egress port's first agent's entry and the frame at the
 *       queue's tail, which the frame is linked behind;
 *   0   (the event being handled) that agent's state.
 * A serializer's end (EV_TX_DONE) gets its port's lines, then what the
 * port's next pick reads (prefetch_sender).  Prefetches change nothing
 * but timing. */
static inline void prefetch_port(const struct net *n, const struct event *e)
{
    if (e->kind == EV_WIRE || e->kind == EV_TX_DONE) {
        const struct port *pt = &n->ports[e->obj];
        rocc_prefetch(pt);
        rocc_prefetch(&pt->wire);
    }
}

/* The receiving port and the frame at the head of the wire, or NULL. */
static inline const struct packet *wire_head(const struct net *n, const struct event *e, const struct port **in)
{
    const struct port *pt = &n->ports[e->obj];
    *in = &n->ports[pt->peer];
    return pt->wire.count ? &n->pool.p[pt->wire.head] : NULL;
}

static inline void prefetch_arrival(const struct net *n, const struct event *e)
{
    if (e->kind == EV_WIRE) {
        const struct port *in;
        const struct packet *p = wire_head(n, e, &in);
        rocc_prefetch(in);
        if (p)
            rocc_prefetch(p);
    }
}

/* For the stages past 4: the frame of an EV_WIRE event that a switch will
 * route (not a MAC-control or source-routed one), else NULL. */
static inline const struct packet *switched_frame(const struct net *n, const struct event *e, const struct port **in)
{
    if (e->kind != EV_WIRE)
        return NULL;
    const struct packet *p = wire_head(n, e, in);
    if (!p || (*in)->owner_kind != NODE_SWITCH || pkt_link_local(p->type) || (p->flags & PF_SRCROUTE))
        return NULL;
    return p;
}

static inline void prefetch_route(const struct net *n, const struct event *e)
{
    const struct port *in;
    const struct packet *p = switched_frame(n, e, &in);
    if (!p)
        return;
    net_route_prefetch(n, in->node, p->dst);
    if (p->flow != NONE32)
        rocc_prefetch(&n->flows[p->flow]);
    rocc_prefetch(&n->sws[in->owner]);
}

/* For the last two stages: the egress port the switch will give that
 * frame (its route computed ahead), or NONE32. */
static inline uint32_t switched_egress(const struct net *n, const struct event *e, const struct port **in,
                                       const struct packet **p)
{
    *p = switched_frame(n, e, in);
    return *p ? net_route_frame(n, (*in)->node, *p) : NONE32;
}

static inline void prefetch_egress(const struct net *n, const struct event *e)
{
    const struct port *in;
    const struct packet *p;
    uint32_t out = switched_egress(n, e, &in, &p);
    if (out == NONE32)
        return;
    uint32_t cls = p->prio & (NCLASS - 1);
    rocc_prefetch(&n->ports[out]);
    rocc_prefetch(&n->ports[out].q[cls]);
    rocc_prefetch(&n->sws[in->owner].cnt[in->local * NCLASS + cls]);
}

static inline void prefetch_enqueue(const struct net *n, const struct event *e)
{
    const struct port *in;
    const struct packet *p;
    uint32_t out = switched_egress(n, e, &in, &p);
    if (out == NONE32)
        return;
    const struct port *pt = &n->ports[out];
    if (pt->agent != NONE32)
        rocc_prefetch(&n->agents[pt->agent]);
    const struct pktq *q = &pt->q[p->prio & (NCLASS - 1)];
    if (q->count)
        rocc_prefetch(&n->pool.p[q->tail]);
}

/* The event about to be handled: its egress agent's state (the agent's
 * entry came a stage ago), ahead of the handler's own reads before it. */
static inline void prefetch_agent(const struct net *n, const struct event *e)
{
    const struct port *in;
    const struct packet *p;
    uint32_t out = switched_egress(n, e, &in, &p);
    if (out != NONE32 && n->ports[out].agent != NONE32)
        rocc_prefetch(n->agents[n->ports[out].agent].state);
}

/* A serializer's end (EV_TX_DONE): the port then picks its next frame.
 * Two events ahead, its owner and (a switch) its non-empty queues; one
 * ahead, those queues' head frames and the port's first agent (a switch),
 * or the flow the host's round robin is at. */
static inline void prefetch_sender(const struct net *n, const struct event *e, int last)
{
    if (e->kind != EV_TX_DONE)
        return;
    const struct port *pt = &n->ports[e->obj];
    if (pt->owner_kind == NODE_SWITCH) {
        for (uint32_t m = pt->qmask & ((1u << NQUEUE) - 1); m; m &= m - 1) {
            const struct pktq *q = &pt->q[__builtin_ctz(m)];
            if (!last)
                rocc_prefetch(q);
            else if (q->count)
                rocc_prefetch(&n->pool.p[q->head]);
        }
        if (!last)
            rocc_prefetch(&n->sws[pt->owner]);
        else if (pt->agent != NONE32)
            rocc_prefetch(n->agents[pt->agent].state);
    } else {
        const struct host *h = &n->hosts[pt->owner];
        if (!last)
            rocc_prefetch(h);
        else if (h->n_active)
            rocc_prefetch(&n->flows[h->active[h->rr < h->n_active ? h->rr : 0]]);
    }
}

static __attribute__((noinline)) void prefetch_next(struct net *n, const struct event *now)
{
    prefetch_agent(n, now);
    const struct event *w = el_prefetch_step(&n->el);
    if (w)
        prefetch_port(n, w);
    const struct eventlist *el = &n->el;
    size_t c = el->cur_n;
    if (c == 0 || el->cur_heap)
        return;
    const struct event *cur = el->cur;
    if (c >= 5)
        prefetch_port(n, &cur[c - 5]);
    if (c >= 4)
        prefetch_arrival(n, &cur[c - 4]);
    if (c >= 3)
        prefetch_route(n, &cur[c - 3]);
    if (c >= 2) {
        prefetch_egress(n, &cur[c - 2]);
        prefetch_sender(n, &cur[c - 2], 0);
    }
    prefetch_enqueue(n, &cur[c - 1]);
    prefetch_sender(n, &cur[c - 1], 1);
}

void net_run_until(struct net *n, simtime_t until)
{
    struct event ev;
    if (!n->lp_key && net_lp_init(n)) {
        n->oom = 1;
        return;
    }
    uint64_t *keys = n->lp_key;
    const int prefetch = n->prefetch;
    /* Each case first makes the event's owner the current LP (the one
     * net_event_owner names; spelt out here so the owner's index comes
     * from lines the handler reads anyway). */
    while (!n->oom && el_pop_until(&n->el, until, &ev)) {
        n->ev_count[ev.kind]++;
        if (__builtin_expect(prefetch, 0))
            prefetch_next(n, &ev);
        switch ((enum ev_kind)ev.kind) {
        case EV_TX_DONE:
            n->key_cur = &keys[n->ports[ev.obj].node];
            port_tx_done(n, ev.obj);
            break;
        case EV_WIRE:
            n->key_cur = &keys[n->ports[n->ports[ev.obj].peer].node];
            port_wire_arrive(n, ev.obj);
            break;
        case EV_HOST_WAKE:
            if (n->hosts[ev.obj].wake_at == ev.time) {
                n->key_cur = &keys[n->hosts[ev.obj].node];
                n->hosts[ev.obj].wake_at = SIMTIME_NEVER;
                port_kick(n, n->hosts[ev.obj].port);
            }
            break;
        case EV_NIC_DELAY:
            n->key_cur = &keys[n->hosts[ev.obj].node];
            host_nic_delay_done(n, ev.obj);
            break;
        case EV_FLOW_TIMER:
            n->key_cur = &keys[n->hosts[n->flows[ev.obj].src].node];
            flow_timer_fire(n, ev.obj);
            break;
        case EV_FLOW_START:
            start_flows(n);             /* sets the LP per flow */
            break;
        case EV_FLOW_STOP:
            n->key_cur = &keys[n->hosts[n->flows[ev.obj].src].node];
            flow_stop(n, ev.obj);
            break;
        case EV_AGENT: {
            struct port_agent *a = &n->agents[ev.obj];
            n->key_cur = &keys[n->ports[a->port].node];
            a->ops->on_timer(n, a->state);
            break;
        }
        case EV_HOOK:
            n->key_cur = NULL;          /* replicated: what it schedules is keyed by the acting node */
            if (n->hook)
                n->hook(n->hook_arg, ev.obj);
            break;
        case EV_FCTL:
            n->key_cur = &keys[n->sws[ev.obj].node];
            fc_timer_fire(n, ev.obj, ev.time);
            break;
        case EV_FCTL_GATE:
            n->key_cur = &keys[n->ports[ev.obj / NCLASS].node];
            fc_gate_fire(n, ev.obj, ev.time);
            break;
        case EV_FLOW_RX_TIMER: {
            struct flow *f = &n->flows[ev.obj];
            n->key_cur = &keys[n->hosts[f->dst].node];
            if (f->tp->on_rx_timer)
                f->tp->on_rx_timer(n, f);
            break;
        }
        case EV_NKINDS:     break;
        }
    }
    n->key_cur = NULL;                  /* between runs: the acting node keys */
    if (!n->oom && n->el.now < until)
        n->el.now = until;
}

static int event_local(void *ctx, const struct event *ev)
{
    const struct net *n = ctx;
    uint32_t node = net_event_owner(n, ev->kind, ev->obj);
    return node == NONE32 || n->node_rank[node] == n->my_rank;
}

int net_keep_local_events(struct net *n)
{
    return el_filter(&n->el, event_local, n);
}

int net_check_conservation(const struct net *n, char *why, size_t why_len)
{
    uint64_t held = 0;
    for (uint32_t p = 0; p < n->n_ports; p++) {
        const struct port *pt = &n->ports[p];
        for (int q = 0; q < NQUEUE; q++) {
            held += pt->q[q].count;
            if (!(pt->qmask >> q & 1) != !pt->q[q].count) {
                snprintf(why, why_len, "port %u queue %d: qmask bit %d but %u frames queued "
                         "(a queue was changed without port_q_push/port_q_pop)",
                         p, q, pt->qmask >> q & 1, pt->q[q].count);
                return -1;
            }
        }
        held += pt->wire.count;
    }
    for (uint32_t h = 0; h < n->n_hosts; h++)
        held += n->hosts[h].nic_delay.count;
    held += qdisc_held_all(n);
    uint64_t created = 0, gone = 0;
    for (int t = 0; t < PKT_NTYPES; t++) {
        /* A partitioned rank: frames that came over a cut join what was
         * made here, those that left over one what is gone (both 0 in a
         * sequential run; summed over ranks they cancel). */
        created += n->created[t] + n->remote_in[t];
        gone += n->consumed[t] + n->dropped[t] + n->remote_out[t];
    }
    uint64_t dropped_all = 0;
    for (int t = 0; t < PKT_NTYPES; t++)
        dropped_all += n->dropped[t];
    if (n->fc_drops + n->failure_drops + n->qlimit_drops > dropped_all) {
        snprintf(why, why_len, "drop accounting violated: %llu scheme drops + %llu failure drops + %llu queue-limit "
                 "drops but only %llu packets dropped", (unsigned long long)n->fc_drops,
                 (unsigned long long)n->failure_drops, (unsigned long long)n->qlimit_drops,
                 (unsigned long long)dropped_all);
        return -1;
    }
    if (held != n->pool.live || created != gone + held) {
        snprintf(why, why_len,
                 "packet conservation violated: created %llu, consumed+dropped %llu, "
                 "held in queues/wires %llu, pool live %u",
                 (unsigned long long)created, (unsigned long long)gone,
                 (unsigned long long)held, n->pool.live);
        return -1;
    }
    return 0;
}

void net_rp_trace(struct net *n, const struct flow *f, int timer, uint32_t cp_id, uint32_t rate_units, int accepted)
{
    uint32_t id = (uint32_t)(f - n->flows);
    if (id < n->trace_f0 || id >= n->trace_f1)
        return;
    if (n->n_rp_trace == n->cap_rp_trace) {
        /* Grows by doubling: amortized, not an allocation per packet. */
        uint32_t cap = n->cap_rp_trace ? n->cap_rp_trace * 2 : 4096;
        if (cap > RP_TRACE_MAX)
            cap = RP_TRACE_MAX;
        struct rp_trace_rec *r = cap > n->cap_rp_trace ? realloc(n->rp_trace, cap * sizeof *r) : NULL;
        if (!r) {
            n->rp_trace_lost++;
            return;
        }
        n->rp_trace = r;
        n->cap_rp_trace = cap;
    }
    struct rp_trace_rec *r = &n->rp_trace[n->n_rp_trace++];
    r->t = n->el.now;
    r->key = n->el.now_seq;
    r->flow = id;
    r->cp_id = cp_id;
    r->rate_units = rate_units;
    r->cp_after = f->cc.rocc.limited ? f->cc.rocc.cp_id : ROCC_CP_NONE;
    r->rate_after_mbps = f->cc.rocc.limited ? f->cc.rocc.rate_mbps : 0;
    r->timer = (uint8_t)timer;
    r->accepted = (uint8_t)accepted;
}
