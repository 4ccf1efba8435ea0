/*
 * partition.c -- the partitioner of a parallel run (partition.h).
 */
#include "engine/partition.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const part_method_names[] = { "auto", "pod", "rack", "graph", NULL };

/* Expected event load of a node: the rates of its ports, Mb/s. */
static uint64_t node_weight(const struct net *n, uint32_t node)
{
    uint64_t w = 0;
    const struct node *nd = &n->nodes[node];
    for (uint32_t i = 0; i < nd->n_ports; i++)
        w += n->ports[nd->first_port + i].rate_bps / 1000000;
    return w ? w : 1;
}

static uint32_t peer_node(const struct net *n, uint32_t port) { return n->ports[n->ports[port].peer].node; }

/* The node a host hangs off (its NIC's peer). */
static uint32_t host_switch(const struct net *n, uint32_t h) { return peer_node(n, n->hosts[h].port); }

/* The least loaded part, the lowest on ties. */
static uint32_t lightest(const uint64_t *load, uint32_t parts)
{
    uint32_t best = 0;
    for (uint32_t p = 1; p < parts; p++)
        if (load[p] < load[best])
            best = p;
    return best;
}

struct unit { uint64_t w; uint32_t id; };
static int unit_cmp(const void *a, const void *b)
{
    const struct unit *x = a, *y = b;
    if (x->w != y->w)
        return x->w > y->w ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Units (unit_of[node] < n_units) go to parts largest first, each to the
 * least loaded part; then the nodes of no unit (NONE32) one by one, in
 * the same way. */
static int assign_units(const struct net *n, const uint32_t *unit_of, uint32_t n_units, uint32_t parts,
                        uint16_t *rank, uint64_t *load)
{
    struct unit *u = calloc(n_units + n->n_nodes, sizeof *u);
    uint32_t *part_of = calloc(n_units ? n_units : 1, sizeof *part_of);
    if (!u || !part_of) {
        free(u);
        free(part_of);
        return -1;
    }
    for (uint32_t i = 0; i < n_units; i++)
        u[i].id = i;
    for (uint32_t v = 0; v < n->n_nodes; v++)
        if (unit_of[v] != NONE32)
            u[unit_of[v]].w += node_weight(n, v);
    qsort(u, n_units, sizeof *u, unit_cmp);
    for (uint32_t i = 0; i < n_units; i++) {
        uint32_t p = lightest(load, parts);
        part_of[u[i].id] = p;
        load[p] += u[i].w;
    }
    uint32_t k = 0;
    for (uint32_t v = 0; v < n->n_nodes; v++) {
        if (unit_of[v] != NONE32)
            rank[v] = (uint16_t)part_of[unit_of[v]];
        else
            u[k++] = (struct unit){ node_weight(n, v), v };
    }
    qsort(u, k, sizeof *u, unit_cmp);
    for (uint32_t i = 0; i < k; i++) {
        uint32_t p = lightest(load, parts);
        rank[u[i].id] = (uint16_t)p;
        load[p] += u[i].w;
    }
    free(u);
    free(part_of);
    return 0;
}

/* POD (by_pod) or RACK units from the layout: edge switches with their
 * hosts, grouped by pod (with the pod's aggs) for POD. */
static int layout_units(const struct net *n, const struct topo_layout *lay, int by_pod, uint32_t *unit_of,
                        uint32_t *n_units)
{
    for (uint32_t v = 0; v < n->n_nodes; v++)
        unit_of[v] = NONE32;
    for (uint32_t e = 0; e < lay->n_edge; e++)
        unit_of[lay->first_edge + e] = by_pod ? e / lay->edges_per_pod : e;
    if (by_pod && lay->n_agg && lay->aggs_per_pod)
        for (uint32_t a = 0; a < lay->n_agg; a++)
            unit_of[lay->first_agg + a] = a / lay->aggs_per_pod;
    for (uint32_t h = 0; h < n->n_hosts; h++) {
        uint32_t sw = host_switch(n, h);
        unit_of[n->hosts[h].node] = unit_of[sw];
    }
    *n_units = by_pod ? lay->n_pods : lay->n_edge;
    return 0;
}

/* GRAPH: groups are switches with the hosts that hang off them (a host
 * joined to another host is a group of its own). */
static int graph_parts(const struct net *n, uint32_t parts, uint16_t *rank, uint64_t *load, char *why, size_t why_len)
{
    uint32_t nn = n->n_nodes;
    uint32_t *grp = malloc(nn * sizeof *grp), *queue = malloc(nn * sizeof *queue);
    uint64_t *gw = calloc(nn, sizeof *gw);
    uint32_t *part = malloc(nn * sizeof *part);
    uint64_t *cap = calloc(parts, sizeof *cap);
    int rc = -1;
    if (!grp || !queue || !gw || !part || !cap) {
        snprintf(why, why_len, "out of memory");
        goto out;
    }
    uint32_t n_groups = 0;
    for (uint32_t v = 0; v < nn; v++) {
        grp[v] = v;
        if (n->nodes[v].kind == NODE_HOST && n->nodes[v].n_ports == 1) {
            uint32_t sw = peer_node(n, n->nodes[v].first_port);
            if (n->nodes[sw].kind == NODE_SWITCH)
                grp[v] = sw;
        }
    }
    for (uint32_t v = 0; v < nn; v++) {
        gw[grp[v]] += node_weight(n, v);
        part[v] = NONE32;
        if (grp[v] == v)
            n_groups++;
    }
    if (n_groups < parts) {
        snprintf(why, why_len, "%u parts but the topology has only %u switches (with their hosts) to share", parts,
                 n_groups);
        goto out;
    }
    uint64_t total = 0;
    for (uint32_t v = 0; v < nn; v++)
        total += gw[v];
    /* Grow parts 0 .. parts-2 breadth-first to the mean load; the last
     * takes the rest. */
    uint32_t seed = 0, left = n_groups;
    for (uint32_t p = 0; p + 1 < parts; p++) {
        uint64_t target = total / parts;
        uint32_t qh = 0, qt = 0;
        while (load[p] < target && left > parts - 1 - p) {
            if (qh == qt) {                 /* start (or restart) from the lowest free group */
                while (seed < nn && (grp[seed] != seed || part[seed] != NONE32))
                    seed++;
                if (seed == nn)
                    break;
                part[seed] = p;
                load[p] += gw[seed];
                left--;
                queue[qt++] = seed;
                continue;
            }
            uint32_t g = queue[qh++];
            /* neighbours of every member: the switch's ports reach its
             * hosts (same group) and other switches */
            const struct node *nd = &n->nodes[g];
            for (uint32_t i = 0; i < nd->n_ports && load[p] < target && left > parts - 1 - p; i++) {
                uint32_t h = grp[peer_node(n, nd->first_port + i)];
                if (part[h] != NONE32)
                    continue;
                part[h] = p;
                load[p] += gw[h];
                left--;
                queue[qt++] = h;
            }
        }
    }
    for (uint32_t v = 0; v < nn; v++)
        if (grp[v] == v && part[v] == NONE32) {
            part[v] = parts - 1;
            load[parts - 1] += gw[v];
        }
    /* One refinement pass: a group moves to the part that holds most of
     * its link capacity when that lowers the cut and keeps balance. */
    uint64_t limit = total / parts + total / parts / 10;
    for (uint32_t g = 0; g < nn; g++) {
        if (grp[g] != g)
            continue;
        memset(cap, 0, parts * sizeof *cap);
        const struct node *nd = &n->nodes[g];
        for (uint32_t i = 0; i < nd->n_ports; i++) {
            uint32_t h = grp[peer_node(n, nd->first_port + i)];
            if (h != g)
                cap[part[h]] += n->ports[nd->first_port + i].rate_bps / 1000000;
        }
        uint32_t a = part[g], b = a;
        for (uint32_t p = 0; p < parts; p++)
            if (cap[p] > cap[b])
                b = p;
        if (b != a && load[b] + gw[g] <= limit && load[a] > gw[g]) {
            part[g] = b;
            load[a] -= gw[g];
            load[b] += gw[g];
        }
    }
    for (uint32_t v = 0; v < nn; v++)
        rank[v] = (uint16_t)part[grp[v]];
    rc = 0;
out:
    free(grp);
    free(queue);
    free(gw);
    free(part);
    free(cap);
    return rc;
}

int partition(const struct net *n, const struct topo_layout *lay, enum part_method m, uint32_t parts,
              uint16_t *rank, struct part_stats *st, char *why, size_t why_len)
{
    static const struct topo_layout none;
    if (!lay)
        lay = &none;
    if (parts < 1 || parts > PART_MAX) {
        snprintf(why, why_len, "%u parts: must be 1..%u", parts, PART_MAX);
        return -1;
    }
    int pods = lay->n_pods > 1 && lay->edges_per_pod && lay->first_edge != NONE32;
    int racks = lay->hosts_per_edge > 0 && lay->n_edge > 0 && lay->first_edge != NONE32;
    if (m == PART_AUTO)
        m = pods && lay->n_pods >= parts ? PART_POD : racks && lay->n_edge >= parts ? PART_RACK : PART_GRAPH;
    if (m == PART_POD && (!pods || lay->n_pods < parts)) {
        snprintf(why, why_len, "partition = pod needs a fat-tree with at least %u pods (this topology has %u)", parts,
                 pods ? lay->n_pods : 0);
        return -1;
    }
    if (m == PART_RACK && (!racks || lay->n_edge < parts)) {
        snprintf(why, why_len, "partition = rack needs a built-in fabric with at least %u racks (this one has %u)",
                 parts, racks ? lay->n_edge : 0);
        return -1;
    }
    uint64_t *load = calloc(parts, sizeof *load);
    uint32_t *unit_of = malloc(n->n_nodes * sizeof *unit_of);
    int rc = -1;
    if (!load || !unit_of) {
        snprintf(why, why_len, "out of memory");
        goto out;
    }
    if (parts == 1) {
        memset(rank, 0, n->n_nodes * sizeof *rank);
        for (uint32_t v = 0; v < n->n_nodes; v++)
            load[0] += node_weight(n, v);
    } else if (m == PART_GRAPH) {
        if (graph_parts(n, parts, rank, load, why, why_len))
            goto out;
    } else {
        uint32_t n_units;
        layout_units(n, lay, m == PART_POD, unit_of, &n_units);
        if (assign_units(n, unit_of, n_units, parts, rank, load)) {
            snprintf(why, why_len, "out of memory");
            goto out;
        }
    }
    if (st) {
        memset(st, 0, sizeof *st);
        st->used = m;
        st->parts = parts;
        st->lookahead_ps = SIMTIME_NEVER;
        st->load = calloc(parts, sizeof *st->load);
        st->nodes = calloc(parts, sizeof *st->nodes);
        st->hosts = calloc(parts, sizeof *st->hosts);
        if (!st->load || !st->nodes || !st->hosts) {
            part_stats_free(st);
            snprintf(why, why_len, "out of memory");
            goto out;
        }
        uint64_t all = 0, max = 0, sum = 0;
        double cut = 0, cap = 0;
        for (uint32_t v = 0; v < n->n_nodes; v++) {
            uint64_t w = node_weight(n, v);
            st->load[rank[v]] += w;
            st->nodes[rank[v]]++;
            if (n->nodes[v].kind == NODE_HOST)
                st->hosts[rank[v]]++;
            sum += w;
        }
        for (uint32_t l = 0; l < n->n_links; l++) {
            const struct link_spec *ls = &n->links[l];
            cap += (double)ls->rate;
            if (rank[ls->a] != rank[ls->b]) {
                st->cut_links++;
                cut += (double)ls->rate;
                if (ls->delay < st->lookahead_ps)
                    st->lookahead_ps = ls->delay;
            }
        }
        for (uint32_t p = 0; p < parts; p++)
            if (st->load[p] > max)
                max = st->load[p];
        all = sum;
        st->cut_load = cap > 0 ? cut / cap : 0;
        st->imbalance = all ? (double)max * parts / (double)all : 1;
    }
    rc = 0;
out:
    free(load);
    free(unit_of);
    return rc;
}

void part_stats_free(struct part_stats *st)
{
    free(st->load);
    free(st->nodes);
    free(st->hosts);
    st->load = NULL;
    st->nodes = st->hosts = NULL;
}
