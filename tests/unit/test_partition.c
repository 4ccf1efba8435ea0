/*
 * test_partition.c -- the partitioner of parallel runs (engine/partition.h):
 * every node gets a part in range, pods and racks stay whole, hosts stay
 * with their switch, parts are balanced by load, the cut and lookahead are
 * what the topology gives, AUTO picks pod / rack / graph as documented,
 * impossible requests fail with a message, and the result is a function
 * of its inputs only (twice the same).
 */
#include <stdlib.h>

#include "engine/partition.h"
#include "engine/topology.h"
#include "net/net.h"

#include "test.h"

#define G 1000000000ull

static void finalize(struct net *n)
{
    struct switch_cfg c;
    char why[256];
    memset(&c, 0, sizeof c);
    CHECK(net_finalize(n, &c, why, sizeof why) == 0);
}

/* Every host is in its switch's part. */
static int hosts_with_switch(const struct net *n, const uint16_t *r)
{
    for (uint32_t h = 0; h < n->n_hosts; h++) {
        uint32_t sw = n->ports[n->ports[n->hosts[h].port].peer].node;
        if (r[n->hosts[h].node] != r[sw])
            return 0;
    }
    return 1;
}

TEST(fattree_by_pod)
{
    struct net n;
    struct topo_layout lay = { 0 };
    char why[256];
    CHECK(net_init(&n, 1) == 0);
    CHECK(topo_fattree_k(&n, 4, 100 * G, 1000000, &lay, why, sizeof why) == 0);
    finalize(&n);
    uint16_t *r = calloc(n.n_nodes, sizeof *r);
    struct part_stats st;
    CHECK(partition(&n, &lay, PART_AUTO, 2, r, &st, why, sizeof why) == 0);
    CHECK_EQ(st.used, PART_POD);
    /* each pod whole: its edges, aggs and hosts in one part */
    for (uint32_t e = 0; e < lay.n_edge; e++)
        CHECK_EQ(r[lay.first_edge + e], r[lay.first_edge + (e / lay.edges_per_pod) * lay.edges_per_pod]);
    for (uint32_t a = 0; a < lay.n_agg; a++)
        CHECK_EQ(r[lay.first_agg + a], r[lay.first_edge + (a / lay.aggs_per_pod) * lay.edges_per_pod]);
    CHECK(hosts_with_switch(&n, r));
    /* 4 pods, 4 cores, all links one rate: exactly balanced */
    CHECK_EQ(st.load[0], st.load[1]);
    CHECK_EQ(st.hosts[0], 8);
    CHECK_EQ(st.hosts[1], 8);
    CHECK_NEAR(st.imbalance, 1.0, 1e-12);
    /* cut = agg-core links that join different parts: each core has one
     * link per pod, 2 of its 4 pods are in the other part */
    CHECK_EQ(st.cut_links, 4 * 2);
    CHECK_EQ(st.lookahead_ps, 1000000);
    CHECK(st.cut_load > 0 && st.cut_load < 0.5);
    /* the same inputs give the same partition */
    uint16_t *r2 = calloc(n.n_nodes, sizeof *r2);
    CHECK(partition(&n, &lay, PART_POD, 2, r2, NULL, why, sizeof why) == 0);
    CHECK(memcmp(r, r2, n.n_nodes * sizeof *r) == 0);
    /* 3 parts: pods 2/1/1 and cores spread */
    part_stats_free(&st);
    CHECK(partition(&n, &lay, PART_AUTO, 3, r, &st, why, sizeof why) == 0);
    CHECK_EQ(st.used, PART_POD);
    for (uint32_t v = 0; v < n.n_nodes; v++)
        CHECK(r[v] < 3);
    CHECK(st.nodes[0] && st.nodes[1] && st.nodes[2]);
    part_stats_free(&st);
    /* 8 parts > 4 pods: AUTO takes racks; pod refuses */
    CHECK(partition(&n, &lay, PART_AUTO, 8, r, &st, why, sizeof why) == 0);
    CHECK_EQ(st.used, PART_RACK);
    CHECK(hosts_with_switch(&n, r));
    for (uint32_t p = 0; p < 8; p++)
        CHECK_EQ(st.hosts[p], 2);
    part_stats_free(&st);
    CHECK(partition(&n, &lay, PART_POD, 8, r, NULL, why, sizeof why) == -1);
    CHECK(strstr(why, "at least 8 pods") != NULL);
    /* one part: everything on rank 0, no cut */
    CHECK(partition(&n, &lay, PART_AUTO, 1, r, &st, why, sizeof why) == 0);
    for (uint32_t v = 0; v < n.n_nodes; v++)
        CHECK_EQ(r[v], 0);
    CHECK_EQ(st.cut_links, 0);
    CHECK_EQ(st.lookahead_ps, SIMTIME_NEVER);
    part_stats_free(&st);
    CHECK(partition(&n, &lay, PART_AUTO, 0, r, NULL, why, sizeof why) == -1);
    free(r);
    free(r2);
    net_free(&n);
}

TEST(leafspine_by_rack)
{
    struct net n;
    struct topo_layout lay = { 0 };
    struct topo_leafspine_params p;
    char why[256];
    topo_leafspine_defaults(&p);
    p.n_leaf = 6;
    p.hosts_per_leaf = 16;         /* 16 x 100G down, 4 x 400G up: 1:1 */
    p.oversub_num = p.oversub_den = 1;
    CHECK(net_init(&n, 1) == 0);
    CHECK(topo_leafspine(&n, &p, &lay, why, sizeof why) == 0);
    finalize(&n);
    uint16_t *r = calloc(n.n_nodes, sizeof *r);
    struct part_stats st;
    CHECK(partition(&n, &lay, PART_AUTO, 4, r, &st, why, sizeof why) == 0);
    CHECK_EQ(st.used, PART_RACK);
    CHECK(hosts_with_switch(&n, r));
    /* no part is empty, all leaves spread (6 over 4: 2,2,1,1 before spines) */
    for (uint32_t k = 0; k < 4; k++)
        CHECK(st.hosts[k] >= 16);
    CHECK(st.imbalance < 1.5);
    CHECK(st.cut_links > 0);
    part_stats_free(&st);
    CHECK(partition(&n, &lay, PART_RACK, 7, r, NULL, why, sizeof why) == -1);
    CHECK(strstr(why, "at least 7 racks") != NULL);
    free(r);
    net_free(&n);
}

/* A topology with no layout (a topology file): a ring of 8 switches with 2
 * hosts each; GRAPH keeps hosts with their switch, parts contiguous on the
 * ring (BFS), balanced, and the cut is small (2 ring links per pair of
 * neighbouring parts at best). */
TEST(graph_ring)
{
    struct net n;
    CHECK(net_init(&n, 1) == 0);
    uint32_t sw[8];
    char name[16];
    for (int h = 0; h < 16; h++) {
        snprintf(name, sizeof name, "h%d", h);
        net_add_node(&n, NODE_HOST, name);
    }
    for (int s = 0; s < 8; s++) {
        snprintf(name, sizeof name, "s%d", s);
        sw[s] = net_add_node(&n, NODE_SWITCH, name);
    }
    for (int h = 0; h < 16; h++)
        net_add_link(&n, (uint32_t)h, sw[h / 2], 100 * G, 1000000);
    for (int s = 0; s < 8; s++)
        net_add_link(&n, sw[s], sw[(s + 1) % 8], 100 * G, 2000000 + 1000 * (uint64_t)s);
    finalize(&n);
    uint16_t *r = calloc(n.n_nodes, sizeof *r);
    struct part_stats st;
    char why[256];
    CHECK(partition(&n, NULL, PART_AUTO, 2, r, &st, why, sizeof why) == 0);
    CHECK_EQ(st.used, PART_GRAPH);
    CHECK(hosts_with_switch(&n, r));
    CHECK_EQ(st.hosts[0], 8);
    CHECK_EQ(st.hosts[1], 8);
    CHECK_EQ(st.cut_links, 2);                 /* two contiguous halves of the ring */
    CHECK(st.lookahead_ps >= 2000000);          /* only ring links are cut */
    part_stats_free(&st);
    CHECK(partition(&n, NULL, PART_GRAPH, 4, r, &st, why, sizeof why) == 0);
    CHECK(hosts_with_switch(&n, r));
    for (uint32_t k = 0; k < 4; k++)
        CHECK_EQ(st.hosts[k], 4);
    CHECK_EQ(st.cut_links, 4);
    part_stats_free(&st);
    CHECK(partition(&n, NULL, PART_GRAPH, 9, r, NULL, why, sizeof why) == -1);
    CHECK(strstr(why, "only 8 switches") != NULL);
    CHECK(partition(&n, NULL, PART_POD, 2, r, NULL, why, sizeof why) == -1);
    free(r);
    net_free(&n);
}

int main(void)
{
    RUN(fattree_by_pod);
    RUN(leafspine_by_rack);
    RUN(graph_ring);
    return test_summary();
}
