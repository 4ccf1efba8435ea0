/*
 * sw_ctl.c -- rocc-switch's control plane: routing (longest prefix match
 * over --route), ARP (RFC 826: a neighbour table with retries, hold-down
 * and refresh, frames held while a next hop resolves, replies for
 * --port-ip) and the admission of ICMP type 253 frames (CNPs) to the
 * strict-priority control class (rocc_switch.c's header comment: CNP
 * filtering).
 */
#include <string.h>

#include "sw.h"

const struct route *route_lookup(const struct sw *s, uint32_t ip)
{
    const struct route *best = NULL;
    /* Longest prefix match by linear scan: a handful of routes in tests. */
    for (unsigned i = 0; i < s->nroutes; i++)
        if ((ip & s->routes[i].mask) == s->routes[i].net && (!best || s->routes[i].mask > best->mask))
            best = &s->routes[i];
    return best;
}

/* ---- ARP ------------------------------------------------------------------- */

static struct rte_mbuf *arp_frame(struct sw *s, uint16_t port, uint16_t op, const uint8_t eth_dst[6],
                                  const uint8_t tha[6], uint32_t tpa)
{
    struct rte_mbuf *m = rte_pktmbuf_alloc(s->pool);
    uint8_t *p;

    if (!m) { s->alloc_fail++; return NULL; }
    p = (uint8_t *)rte_pktmbuf_append(m, PKT_ARP_FRAME_LEN);
    if (!p || !pkt_build_arp(p, PKT_ARP_FRAME_LEN, op, eth_dst, s->eg[port].mac, s->eg[port].ip, tha, tpa)) {
        rte_pktmbuf_free(m);
        s->alloc_fail++;
        return NULL;
    }
    return m;
}

static void arp_request(struct sw *s, struct neigh *n)
{
    static const uint8_t bc[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, zero[6];
    struct rte_mbuf *m = arp_frame(s, n->port, PKT_ARP_REQUEST, bc, zero, n->ip);

    if (!m) return;
    enqueue_ctl(s, n->port, m, K_ARP);
    s->arp.req_tx++;
}

static struct neigh *neigh_find(struct sw *s, uint32_t ip, bool create)
{
    uint32_t h = (ip * 2654435761u) >> 24 & (NEIGH_CAP - 1);

    for (uint32_t k = 0; k < NEIGH_CAP; k++, h = (h + 1) & (NEIGH_CAP - 1)) {
        struct neigh *n = &s->nb[h];
        if (n->state != N_FREE && n->ip == ip) return n;
        if (n->state == N_FREE) {
            if (!create) return NULL;
            if (s->nb_used >= NEIGH_CAP * 3 / 4) { s->arp.table_full++; return NULL; }
            memset(n, 0, sizeof *n);
            n->ip = ip;
            n->state = N_FAILED;       /* "unknown": resolve on first use */
            s->nb_used++;
            return n;
        }
    }
    s->arp.table_full++;
    return NULL;
}

static void neigh_drop_queue(struct sw *s, struct neigh *n)
{
    for (unsigned i = 0; i < n->qn; i++) rte_pktmbuf_free(n->q[i]);
    s->arp.unresolved_drop += n->qn;
    n->qn = 0;
}

/* Route m (IPv4, TTL already handled) to next hop nh on port. */
void forward(struct sw *s, const struct route *rt, uint32_t dst_ip, struct rte_mbuf *m, enum kind k,
                    const struct pkt_info *pi, uint64_t tsc)
{
    struct neigh *n;

    if (rt->has_mac) { deliver(s, rt->port, m, rt->mac, k, pi); return; }
    n = neigh_find(s, rt->via ? rt->via : dst_ip, true);
    if (!n) { rte_pktmbuf_free(m); return; }
    n->port = rt->port;
    switch (n->state) {
    case N_REACHABLE:
        /* Past its lifetime the entry stays in use while it is re-confirmed
         * (a request every retry interval); no answer in --arp-tries -> failed. */
        if (tsc - n->confirmed_tsc > s->arp_ttl_cyc && tsc >= n->next_tsc) {
            if (n->tries >= s->arp_tries) {
                n->state = N_FAILED;
                n->next_tsc = tsc + s->arp_hold_cyc;
                s->arp.failed++;
                s->arp.unresolved_drop++;
                rte_pktmbuf_free(m);
                return;
            }
            n->tries++;
            n->next_tsc = tsc + s->arp_retry_cyc;
            s->arp.refresh++;
            arp_request(s, n);
        }
        deliver(s, rt->port, m, n->mac, k, pi);
        return;
    case N_FAILED:
        if (tsc < n->next_tsc) { s->arp.unresolved_drop++; rte_pktmbuf_free(m); return; }
        n->state = N_INCOMPLETE;
        n->tries = 1;
        n->next_tsc = tsc + s->arp_retry_cyc;
        arp_request(s, n);
        /* the frame is held like any other while the request is out */
        /* fall through */
    case N_INCOMPLETE:
    default:
        if (n->qn >= NEIGH_QLEN) { s->arp.queue_drop++; rte_pktmbuf_free(m); return; }
        n->q[n->qn] = m;
        n->qkind[n->qn++] = (uint8_t)k;
        s->arp.queued++;
        return;
    }
}

/* Retries of unresolved neighbours, every millisecond or so. */
void arp_tick(struct sw *s, uint64_t tsc)
{
    for (uint32_t i = 0; i < NEIGH_CAP; i++) {
        struct neigh *n = &s->nb[i];
        if (n->state != N_INCOMPLETE || tsc < n->next_tsc) continue;
        if (n->tries >= s->arp_tries) {
            n->state = N_FAILED;
            n->next_tsc = tsc + s->arp_hold_cyc;
            s->arp.failed++;
            neigh_drop_queue(s, n);
            continue;
        }
        n->tries++;
        n->next_tsc = tsc + s->arp_retry_cyc;
        arp_request(s, n);
    }
}

static void neigh_learn(struct sw *s, struct neigh *n, uint16_t port, const uint8_t mac[6], uint64_t tsc)
{
    if (n->state != N_REACHABLE || memcmp(n->mac, mac, 6)) s->arp.learned++;
    memcpy(n->mac, mac, 6);
    n->state = N_REACHABLE;
    n->tries = 0;
    n->port = port;
    n->confirmed_tsc = tsc;
    n->next_tsc = tsc;
    for (unsigned i = 0; i < n->qn; i++) deliver(s, port, n->q[i], mac, (enum kind)n->qkind[i], NULL);
    n->qn = 0;
}

void handle_arp(struct sw *s, uint16_t port, const uint8_t *f, uint32_t len, uint64_t tsc)
{
    struct egress *e = &s->eg[port];
    struct pkt_arp a;
    struct neigh *n;
    bool for_us;

    if (pkt_parse_arp(f, len, &a)) { s->arp.bad++; return; }
    if (a.op == PKT_ARP_REQUEST) s->arp.req_rx++;
    else s->arp.rep_rx++;
    for_us = e->ip && a.tpa == e->ip;
    /* RFC 826: update an existing entry from any ARP; create one only from
     * ARP addressed to us.  Probes (spa 0) teach nothing. */
    if (a.spa) {
        n = neigh_find(s, a.spa, for_us);
        if (n) neigh_learn(s, n, port, a.sha, tsc);
    }
    if (!for_us) { s->arp.ignored++; return; }
    if (a.op == PKT_ARP_REQUEST) {
        struct rte_mbuf *m = arp_frame(s, port, PKT_ARP_REPLY, a.sha, a.sha, a.spa);
        if (m) { enqueue_ctl(s, port, m, K_ARP); s->arp.replies_tx++; }
    }
}

/* ---- receive path -------------------------------------------------------- */

bool is_own_ip(const struct sw *s, uint32_t ip)
{
    if (s->have_cp_ip && ip == s->cp_ip) return true;
    for (uint16_t p = 0; p < s->nports; p++)
        if (s->eg[p].ip && s->eg[p].ip == ip) return true;
    return false;
}

bool is_cnp(const uint8_t *f, const struct pkt_info *pi)
{
    return pi->proto == 1 && pi->is_first_frag && pi->l4_len >= 1 && f[pi->l4_off] == ROCC_CNP_ICMP_TYPE;
}

/* May this ICMP type 253 frame from `port` enter the control FIFO?  Counts
 * why not (header comment: CNP filtering). */
bool cnp_admit(struct sw *s, uint16_t port, const uint8_t *f, const struct pkt_info *pi)
{
    int r;

    if (s->no_cnp_filter) return true;
    if (s->host_port[port]) { s->cnp_host_port++; return false; }
    if (s->have_cp_ip && pi->src_ip == s->cp_ip) { s->cnp_own_addr++; return false; }
    r = rocc_cnp_check(&s->cnp_pol, pi->src_ip, pi->dst_ip, f + pi->l4_off, pi->l4_len, NULL);
    if (r == ROCC_CNP_OK) return true;
    if (r == ROCC_CNP_EBIND) s->cnp_unbound++;
    else if (r == ROCC_CNP_EAUTH) s->cnp_badauth++;
    else s->cnp_invalid++;
    return false;
}
