/*
 * route.c -- the routing table: for every node and destination host, the
 * ECMP set of the node's ports one hop closer to that host.
 *
 * Model.  Distances are hop counts over links that are up, and a path
 * passes through switches only (hosts do not forward).  The ECMP set of
 * node u toward host h is every up port of u whose peer is one hop closer
 * to h; static routes (net_add_route) replace the set of their cell.
 *
 * Route classes.  A fabric of H hosts and N nodes has N x H cells (110 M
 * for a k = 34 fat-tree), but most of them repeat: away from h itself,
 * the distance to h is one more than the distance to the nearest of h's
 * neighbours (hosts do not forward, so every path to h enters through
 * one), so it depends only on the SET of h's neighbours.  Hosts with the
 * same neighbour set -- a rack's hosts on their ToR -- form one route
 * class, and one breadth-first search per class gives the distances of
 * all its hosts.  The class's row holds the sets of every node except
 * where a cell depends on h itself:
 *   - at h's neighbours, the set is the ports that lead to h;
 *   - at h itself, the set is empty (the frame has arrived);
 *   - a static route's cell.
 * Those cells are per-host exceptions: the class cell is marked
 * (ROUTE_EXC in route_off) and the host's short exception list (sorted by
 * node) is searched; a host without an exception at a marked cell uses
 * the class's set kept in the cell.  Every set lists its ports in the
 * node's port order, as one search per host would, so ECMP picks are the
 * same as with a per-host table.
 *
 * Cost: one search and one row per class plus a few exceptions per host:
 * for the k = 34 fat-tree, 578 classes instead of 9,826 searches, and
 * tens of MB instead of most of a GB.  Every lookup is O(1) except at the
 * exception cells, where it scans the destination's list (one entry per
 * neighbour, usually one).
 *
 * Port sets.  A set is a run in route_ports: its count, then its ports as
 * indices among the node's ports.  Equal runs are stored once, whichever
 * nodes and classes use them (an index among a node's ports means the
 * same at every node that has it): a fat-tree's edge switches all send
 * every remote class up the same local ports.  So the runs stay in
 * cache, a lookup reads one cell and one run, and the k = 34 fat-tree's
 * 17 M port entries (34 MB, a cache miss per hop) become 35 runs of 87
 * entries (174 B).  Run 0 is the empty set (count 0).
 */
#include "net/net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUTE_EXC 0x80000000u       /* route_off flag: the destination may have an exception here */

/* Route class key: a host's sorted, distinct neighbour nodes over up links. */
struct rkey { uint32_t host, off, len; };

struct rbuild {
    struct net *n;
    size_t used, cap;               /* route_ports */
    const uint32_t *peer;           /* [n_ports]: the node at each port's other end, NONE32 if down */
    uint32_t *runs;                 /* [runs_cap]: offsets of the distinct runs, hashed by content; 0: free */
    size_t n_runs, runs_cap;
    char *why;
    size_t why_len;
};

static const uint32_t *key_nodes_;  /* cmp_key's neighbour lists (qsort has no context argument) */

static int cmp_key(const void *a, const void *b)
{
    const struct rkey *x = a, *y = b;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    int c = x->len ? memcmp(key_nodes_ + x->off, key_nodes_ + y->off, x->len * sizeof(uint32_t)) : 0;
    if (c)
        return c;
    return x->host < y->host ? -1 : (x->host > y->host);
}

static int same_key(const uint32_t *nb, const struct rkey *x, const struct rkey *y)
{
    return x->len == y->len && (!x->len || !memcmp(nb + x->off, nb + y->off, x->len * sizeof *nb));
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : (x > y);
}

/* Static routes ordered by (destination, switch). */
static int cmp_sroute(const void *a, const void *b)
{
    const struct static_route *x = a, *y = b;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    return x->node < y->node ? -1 : (x->node > y->node);
}

/* Append port k (an index among its node's ports), doubling the table when
 * full: 0, or -1 with why (the table is then as it was). */
static int push(struct rbuild *b, uint32_t k)
{
    struct net *n = b->n;
    if (b->used == b->cap) {
        uint16_t *np = b->cap < ROUTE_EXC ? realloc(n->route_ports, b->cap * 2 * sizeof *np) : NULL;
        if (!np) {
            snprintf(b->why, b->why_len, "out of memory building routes");
            return -1;
        }
        n->route_ports = np;
        b->cap *= 2;
    }
    n->route_ports[b->used++] = (uint16_t)k;
    return 0;
}

/* FNV-1a over the run at off (its count and ports). */
static uint64_t run_hash(const uint16_t *run)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t i = 0; i <= run[0]; i++)
        h = (h ^ run[i]) * 0x100000001b3ull;
    return h;
}

/* Where an equal run to the one at off is kept, or 0 (the slot to fill
 * in *slot); run 0, the empty set, is never in the table. */
static uint32_t run_find(const struct rbuild *b, uint32_t off, size_t *slot)
{
    const uint16_t *rp = b->n->route_ports;
    size_t mask = b->runs_cap - 1, i = run_hash(rp + off) & mask;
    for (; b->runs[i]; i = (i + 1) & mask)
        if (!memcmp(rp + b->runs[i], rp + off, (rp[off] + 1u) * sizeof *rp))
            return b->runs[i];
    *slot = i;
    return 0;
}

/* The run just written at start (count, then ports, up to used) is done:
 * its offset, which is an equal earlier run's if there is one (the new
 * copy is then taken back).  *memo, if given, is the run this node used
 * last (0: none): checked before the hash set, as a node's set is usually
 * the same for the next class and comparing is cheaper than hashing
 * (k = 48 set-up 1.26 -> 1.13 s), and then set to the run it gets.  -1
 * only on memory. */
static int run_done(struct rbuild *b, size_t start, uint32_t *off, uint32_t *memo)
{
    uint16_t *rp = b->n->route_ports;
    uint32_t at;
    if (rp[start] == 0) {
        at = 0;                         /* the empty set: run 0 */
    } else if (memo && *memo && !memcmp(rp + *memo, rp + start, (rp[start] + 1u) * sizeof *rp)) {
        at = *memo;
    } else {
        if (2 * (b->n_runs + 1) > b->runs_cap) {    /* at most half full */
            size_t ncap = b->runs_cap ? b->runs_cap * 2 : 1024;
            uint32_t *nr = calloc(ncap, sizeof *nr), *old = b->runs;
            if (!nr) {
                snprintf(b->why, b->why_len, "out of memory building routes");
                return -1;
            }
            size_t ocap = b->runs_cap, slot = 0;
            b->runs = nr;
            b->runs_cap = ncap;
            for (size_t i = 0; i < ocap; i++)
                if (old[i] && !run_find(b, old[i], &slot))
                    nr[slot] = old[i];
            free(old);
        }
        size_t slot = 0;
        at = run_find(b, (uint32_t)start, &slot);
        if (!at) {                      /* new: kept where it was written */
            b->runs[slot] = at = (uint32_t)start;
            b->n_runs++;
        }
    }
    if (at != start)
        b->used = start;
    *off = at;
    if (memo && at)
        *memo = at;
    return 0;
}

/* Node u's set: its up ports whose peer v has dist[v] + 1 == dist[u], or,
 * with dist NULL, whose peer is node `to`; at most 255, in port order.
 * memo: as for run_done (NULL: none). */
static int ports_toward(struct rbuild *b, uint32_t u, const uint32_t *dist, uint32_t to, uint32_t *off,
                        uint32_t *memo)
{
    const struct net *n = b->n;
    const struct node *nd = &n->nodes[u];
    uint32_t c = 0;
    size_t start = b->used;
    if (push(b, 0))                     /* the count, set below */
        return -1;
    const uint32_t *peer = b->peer + nd->first_port;
    for (uint32_t k = 0; k < nd->n_ports && c < 255; k++) {
        uint32_t v = peer[k];
        if (v == NONE32 || (dist ? dist[v] + 1 != dist[u] : v != to))
            continue;
        if (push(b, k))
            return -1;
        c++;
    }
    n->route_ports[start] = (uint16_t)c;
    return run_done(b, start, off, memo);
}

/* A static route's set: its switch's up ports to its next hops. */
static int ports_static(struct rbuild *b, const struct static_route *r, uint32_t *off)
{
    const struct net *n = b->n;
    const struct node *nd = &n->nodes[r->node];
    uint32_t c = 0;
    size_t start = b->used;
    if (push(b, 0))                     /* the count, set below */
        return -1;
    const uint32_t *peer = b->peer + nd->first_port;
    for (uint32_t k = 0; k < nd->n_ports && c < 255; k++) {
        uint32_t v = peer[k], member = 0;      /* NONE32 (down) is no next hop */
        for (uint32_t j = 0; j < r->n_next && !member && v != NONE32; j++)
            member = n->sroute_next[r->next_off + j] == v;
        if (!member)
            continue;
        if (push(b, k))
            return -1;
        c++;
    }
    n->route_ports[start] = (uint16_t)c;    /* 0: every next hop is down (failure drop) */
    return run_done(b, start, off, NULL);
}

/* Breadth-first search from the neighbour set src[0..n_src) (distance 1):
 * switches forward, hosts do not.  Returns whether a node was left
 * unreached. */
static int class_bfs(const struct net *n, const uint32_t *peer, const uint32_t *src, uint32_t n_src, uint32_t *dist,
                     uint32_t *queue)
{
    for (uint32_t i = 0; i < n->n_nodes; i++)
        dist[i] = NONE32;
    uint32_t qh = 0, qt = 0;
    for (uint32_t i = 0; i < n_src; i++) {
        dist[src[i]] = 1;
        queue[qt++] = src[i];
    }
    while (qh < qt) {
        uint32_t u = queue[qh++];
        const struct node *nd = &n->nodes[u];
        if (nd->kind == NODE_HOST)
            continue;                   /* hosts do not forward */
        for (uint32_t k = 0; k < nd->n_ports; k++) {
            uint32_t v = peer[nd->first_port + k];
            if (v != NONE32 && dist[v] == NONE32) {     /* (NONE32: a failed link carries nothing) */
                dist[v] = dist[u] + 1;
                queue[qt++] = v;
            }
        }
    }
    return qt < n->n_nodes;
}

/* The set of (node, dst_host): the offset of its ports in route_ports
 * and their count.  Returns 1 if it came from the host's exceptions, else
 * 0. */
static inline int route_set(const struct net *n, uint32_t node, uint32_t dst_host, uint32_t *off, uint32_t *cnt)
{
    size_t cell = (size_t)n->route_cls[dst_host] * n->n_nodes + node;
    uint32_t o = n->route_off[cell], exc = 0;
    if (__builtin_expect(o & ROUTE_EXC, 0)) {
        o &= ~ROUTE_EXC;
        for (const struct route_exc *e = &n->rexc[n->rexc_off[dst_host]], *end = &n->rexc[n->rexc_off[dst_host + 1]];
             e < end; e++)
            if (e->node == node) {
                o = e->off;
                exc = 1;
                break;
            }
    }
    *cnt = n->route_ports[o];
    *off = o + 1;
    return exc;
}

static void routes_free(struct net *n)
{
    free(n->route_off);
    free(n->route_ports);
    free(n->route_cls);
    free(n->rexc_off);
    free(n->rexc);
    free(n->rdirect);
    n->rdirect = NULL;
    n->route_off = NULL;
    n->route_ports = NULL;
    n->route_cls = NULL;
    n->rexc_off = NULL;
    n->rexc = NULL;
    n->n_route_cls = 0;
}

int net_build_routes(struct net *n, int allow_unreachable, char *why, size_t why_len)
{
    if (n->n_sroutes > 1)   /* (sw, dst) pairs are unique: the order is total */
        qsort(n->sroutes, n->n_sroutes, sizeof *n->sroutes, cmp_sroute);
    routes_free(n);
    struct rbuild b = { n, 0, 0, NULL, NULL, 0, 0, why, why_len };
    uint32_t H = n->n_hosts, N = n->n_nodes, max_deg = 0;
    size_t n_nb = 0;
    for (uint32_t h = 0; h < H; h++) {
        uint32_t d = n->nodes[n->hosts[h].node].n_ports;
        n_nb += d;
        max_deg = d > max_deg ? d : max_deg;
    }
    struct rkey *kh = malloc((H ? H : 1) * sizeof *kh);       /* by host */
    struct rkey *ks = malloc((H ? H : 1) * sizeof *ks);       /* sorted: classes */
    uint32_t *nb = malloc((n_nb ? n_nb : 1) * sizeof *nb);
    uint32_t *cand = malloc(((size_t)max_deg + 1) * sizeof *cand);
    uint32_t *dist = malloc((N ? N : 1) * sizeof *dist);
    uint32_t *queue = malloc((N ? N : 1) * sizeof *queue);
    uint32_t *memo = calloc(N ? N : 1, sizeof *memo);      /* per node: the run it used last */
    /* Each port's peer node, NONE32 for a failed link: the searches below
     * read it for every class, and a 4 B entry costs far less to read than
     * the port's record. */
    uint32_t *peer = malloc((n->n_ports ? n->n_ports : 1) * sizeof *peer);
    if (peer)
        for (uint32_t p = 0; p < n->n_ports; p++)
            peer[p] = n->ports[p].down ? NONE32 : n->ports[n->ports[p].peer].node;
    b.peer = peer;
    uint8_t *gap = NULL;
    n->route_cls = malloc((H ? H : 1) * sizeof *n->route_cls);
    n->rexc_off = calloc((size_t)H + 1, sizeof *n->rexc_off);
    int rc = -1;
    if (!kh || !ks || !nb || !cand || !dist || !queue || !memo || !peer || !n->route_cls || !n->rexc_off)
        goto oom;

    /* Route classes: hosts sorted by neighbour set; equal sets, one class. */
    size_t off = 0;
    for (uint32_t h = 0; h < H; h++) {
        const struct node *nd = &n->nodes[n->hosts[h].node];
        uint32_t len = 0, d = 0;
        for (uint32_t k = 0; k < nd->n_ports; k++) {
            const struct port *pt = &n->ports[nd->first_port + k];
            if (!pt->down)
                nb[off + len++] = n->ports[pt->peer].node;
        }
        qsort(nb + off, len, sizeof *nb, cmp_u32);
        for (uint32_t i = 0; i < len; i++)
            if (i == 0 || nb[off + i] != nb[off + d - 1])
                nb[off + d++] = nb[off + i];
        kh[h] = ks[h] = (struct rkey){ h, (uint32_t)off, d };
        off += len;
    }
    key_nodes_ = nb;
    qsort(ks, H, sizeof *ks, cmp_key);
    uint32_t C = 0;
    for (uint32_t i = 0; i < H; i++) {
        if (i && !same_key(nb, &ks[i], &ks[i - 1]))
            C++;
        n->route_cls[ks[i].host] = C;
    }
    C += H ? 1 : 0;

    size_t cells = (size_t)C * N;
    n->route_off = malloc((cells ? cells : 1) * sizeof *n->route_off);
    b.cap = 1024;
    n->route_ports = malloc(b.cap * sizeof *n->route_ports);
    gap = calloc(C ? C : 1, 1);
    if (!n->route_off || !n->route_ports || !gap)
        goto oom;
    n->route_ports[b.used++] = 0;       /* run 0: the empty set */
    n->n_route_cls = C;

    /* One search and one row per class (ks is in class order).  A node in
     * the class's key is a neighbour of each of its hosts: every host has
     * an exception there. */
    for (uint32_t i = 0; i < H; i++) {
        uint32_t c = n->route_cls[ks[i].host];
        if (i && n->route_cls[ks[i - 1].host] == c)
            continue;
        const uint32_t *s = nb + ks[i].off;
        uint32_t len = ks[i].len, j = 0;
        gap[c] = (uint8_t)class_bfs(n, peer, s, len, dist, queue);
        for (uint32_t u = 0; u < N; u++) {
            size_t cell = (size_t)c * N + u;
            n->route_off[cell] = 0;                     /* run 0: the empty set */
            while (j < len && s[j] < u)
                j++;
            if (j < len && s[j] == u)
                n->route_off[cell] |= ROUTE_EXC;        /* empty: every host has its own */
            else if (dist[u] != NONE32 && ports_toward(&b, u, dist, 0, &n->route_off[cell], &memo[u]))
                goto fail;                              /* (unreached: empty, no path) */
        }
    }

    /* Exceptions per host, in node order: its neighbours (their ports to
     * it), itself (no set: the frame has arrived) and the static routes to
     * it, which win over the others. */
    size_t n_exc = 0, cap_exc = 0;
    uint32_t sr = 0;
    for (uint32_t h = 0; h < H; h++) {
        uint32_t dnode = n->hosts[h].node, c = n->route_cls[h], nc = 0, i = 0;
        n->rexc_off[h] = (uint32_t)n_exc;
        const uint32_t *s = nb + kh[h].off;
        for (uint32_t j = 0; j < kh[h].len; j++) {      /* s with dnode in its place */
            if (nc == j && s[j] > dnode)
                cand[nc++] = dnode;
            cand[nc++] = s[j];
        }
        if (nc == kh[h].len)
            cand[nc++] = dnode;
        while (sr < n->n_sroutes && n->sroutes[sr].dst < dnode)
            sr++;
        while (i < nc || (sr < n->n_sroutes && n->sroutes[sr].dst == dnode)) {
            const struct static_route *r = NULL;
            uint32_t u;
            if (sr < n->n_sroutes && n->sroutes[sr].dst == dnode && (i == nc || n->sroutes[sr].node <= cand[i])) {
                r = &n->sroutes[sr++];
                u = r->node;
                if (i < nc && cand[i] == u)
                    i++;
            } else {
                u = cand[i++];
            }
            if (n_exc == cap_exc) {
                size_t ncap = cap_exc ? cap_exc * 2 : 1024;
                struct route_exc *ne = realloc(n->rexc, ncap * sizeof *ne);
                if (!ne)
                    goto oom;
                n->rexc = ne;
                cap_exc = ncap;
            }
            struct route_exc *e = &n->rexc[n_exc++];
            *e = (struct route_exc){ u, 0 };          /* at dnode: the empty set */
            if (r ? ports_static(&b, r, &e->off)
                  : u != dnode && ports_toward(&b, u, NULL, dnode, &e->off, NULL))
                goto fail;
            n->route_off[(size_t)c * N + u] |= ROUTE_EXC;
        }
    }
    n->rexc_off[H] = (uint32_t)n_exc;

    /* Each host's first single-port exception (its edge switch's port to
     * it, or a static route there with one port left): net_route answers
     * it before the class table, a switch's last hop to a host being the
     * most common lookup. */
    n->rdirect = malloc((H ? H : 1) * sizeof *n->rdirect);
    if (!n->rdirect)
        goto oom;
    for (uint32_t h = 0; h < H; h++) {
        n->rdirect[h] = (struct route_direct){ NONE32, NONE32 };
        for (uint32_t e = n->rexc_off[h]; e < n->rexc_off[h + 1]; e++) {
            const struct route_exc *x = &n->rexc[e];
            if (x->node != n->hosts[h].node && n->route_ports[x->off] == 1) {
                n->rdirect[h] = (struct route_direct){ x->node,
                    n->nodes[x->node].first_port + n->route_ports[x->off + 1] };
                break;
            }
        }
    }

    /* No path from a node to a host is an error unless allowed (after a
     * failure).  Only a class whose search left a node unreached can have
     * one; the message names the first (host, node) pair in that order. */
    for (uint32_t h = 0; h < H && !allow_unreachable; h++) {
        if (!gap[n->route_cls[h]])
            continue;
        for (uint32_t u = 0; u < N; u++) {
            uint32_t o, cnt;
            if (u != n->hosts[h].node && !route_set(n, u, h, &o, &cnt) && cnt == 0) {
                snprintf(why, why_len, "topology is disconnected: no path from %s to %s",
                         n->nodes[u].name, n->nodes[n->hosts[h].node].name);
                goto fail;
            }
        }
    }
    rc = 0;
    goto done;
oom:
    snprintf(why, why_len, "out of memory building routes");
fail:
    rc = -1;
done:
    free(kh);
    free(ks);
    free(nb);
    free(cand);
    free(dist);
    free(queue);
    free(memo);
    free(peer);
    free(gap);
    free(b.runs);
    return rc;
}

int net_rebuild_routes(struct net *n, char *why, size_t why_len)
{
    return net_build_routes(n, 1, why, why_len);
}

uint32_t net_route_count(const struct net *n, uint32_t node, uint32_t dst_host)
{
    uint32_t off, cnt;
    route_set(n, node, dst_host, &off, &cnt);
    return cnt;
}

/* The ECMP choice at node toward dst_host.  The hash is fetched only when
 * the set has a choice: a frame's hash lives in its flow record, a cache
 * miss on a large fabric, and most hops of a fat-tree (every hop down) have
 * one port to pick from. */
static inline __attribute__((always_inline))
uint32_t route_pick(const struct net *n, uint32_t node, uint32_t dst_host, const struct packet *p, uint64_t hash)
{
    const struct route_direct *d = &n->rdirect[dst_host];
    if (d->node == node)
        return d->port;
    uint32_t off, cnt, pick = 0;
    route_set(n, node, dst_host, &off, &cnt);
    const struct node *nd = &n->nodes[node];
    if (cnt == 0)
        return NONE32;                          /* unreachable after a link failure */
    if (cnt > 1) {
        if (p)
            hash = net_frame_hash(n, p);
        /* ECMP: the flow hash mixed with this switch's seed, so consecutive
         * tiers do not all make the same choice (hash polarization). */
        uint64_t seed = nd->kind == NODE_SWITCH ? n->sws[nd->idx].hash_seed : 0;
        pick = (uint32_t)(mix64(hash ^ seed) % cnt);
    }
    return nd->first_port + n->route_ports[off + pick];
}

void net_route_prefetch(const struct net *n, uint32_t node, uint32_t dst_host)
{
    if (n->rdirect[dst_host].node != node)
        rocc_prefetch(&n->route_off[(size_t)n->route_cls[dst_host] * n->n_nodes + node]);
}

uint32_t net_route(const struct net *n, uint32_t node, uint32_t dst_host, uint64_t hash)
{
    return route_pick(n, node, dst_host, NULL, hash);
}

uint32_t net_route_frame(const struct net *n, uint32_t node, const struct packet *p)
{
    return route_pick(n, node, p->dst, p, 0);
}
