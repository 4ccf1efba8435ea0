/*
 * test_topology.c -- the fabric builders and the HPCC importer
 * (engine/topology.h).
 *
 * For each fabric: node, switch and link counts from the formulas in
 * topology.h, names, tiers and the layout helpers; then, after
 * net_finalize, every host reaches every other host by walking net_route
 * hop by hop (with several flow hashes), the hop counts are those of the
 * shape (same edge 2 links, same pod 4, across pods 6), and the ECMP sets
 * have the expected size at each tier.  The HPCC importer is checked on a
 * small hand-written file, on a regenerated copy of HPCC's fat.txt (which
 * must equal topo_rcc320 link for link), and on every malformed input it
 * reports.  Temporary files are mkstemp() files in /tmp.
 */
#include <stdlib.h>
#include <unistd.h>

#include "core/units.h"
#include "engine/topology.h"
#include "net/net.h"

#include "test.h"

#define G 1000000000ull

static int finalize(struct net *n)
{
    struct switch_cfg c;
    char why[256];
    memset(&c, 0, sizeof c);        /* unlimited buffer: only routes matter here */
    if (net_finalize(n, &c, why, sizeof why)) {
        printf("  net_finalize: %s\n", why);
        return -1;
    }
    return 0;
}

/* Links on the path from host src to host dst, following net_route with
 * this hash; -1 if a route is missing, a host forwards, or it loops. */
static int walk(const struct net *n, uint32_t src, uint32_t dst, uint64_t hash)
{
    uint32_t node = n->hosts[src].node, target = n->hosts[dst].node;
    int hops = 0;
    while (node != target) {
        if (hops > 16 || (hops > 0 && n->nodes[node].kind == NODE_HOST))
            return -1;
        if (net_route_count(n, node, dst) == 0)
            return -1;
        uint32_t p = net_route(n, node, dst, hash);
        if (p < n->nodes[node].first_port || p >= n->nodes[node].first_port + n->nodes[node].n_ports)
            return -1;
        node = n->ports[n->ports[p].peer].node;
        hops++;
    }
    return hops;
}

static unsigned ecmp(const struct net *n, uint32_t node, uint32_t dst_host)
{
    return net_route_count(n, node, dst_host);
}

/* Every ordered host pair: path length as `expect(a, b)` says, for 3 hashes. */
typedef int (*hops_fn)(const struct topo_layout *t, uint32_t a, uint32_t b);

static int all_pairs_ok(const struct net *n, const struct topo_layout *t, hops_fn expect)
{
    static const uint64_t hashes[] = { 1, 0x9e3779b97f4a7c15ull, 0xdeadbeefcafef00dull };
    for (uint32_t a = 0; a < n->n_hosts; a++)
        for (uint32_t b = 0; b < n->n_hosts; b++) {
            if (a == b)
                continue;
            for (size_t k = 0; k < sizeof hashes / sizeof hashes[0]; k++) {
                int h = walk(n, a, b, hashes[k] + a * 7919u + b);
                if (h != expect(t, a, b)) {
                    printf("  h%u -> h%u: %d links, expected %d\n", a, b, h, expect(t, a, b));
                    return 0;
                }
            }
        }
    return 1;
}

static int hops_tiered(const struct topo_layout *t, uint32_t a, uint32_t b)
{
    if (topo_host_edge(t, a) == topo_host_edge(t, b))
        return 2;
    if (topo_host_pod(t, a) == topo_host_pod(t, b))
        return 4;                       /* two-level: edge-core-edge is also 4 */
    return 6;
}

static uint32_t count_tier(const struct net *n, enum node_tier tier)
{
    uint32_t c = 0;
    for (uint32_t i = 0; i < n->n_nodes; i++)
        c += n->nodes[i].kind == NODE_SWITCH && n->nodes[i].tier == tier;
    return c;
}

/* ---------- RoCC §6.3 fat-tree ---------- */

TEST(rocc_fattree_counts)
{
    struct net n;
    struct topo_layout t;
    char err[256];
    CHECK(net_init(&n, 1) == 0);
    CHECK_EQ(topo_rocc_fattree(&n, NULL, &t, err, sizeof err), 0);
    CHECK_STR(err, "");
    CHECK_EQ(t.n_hosts, 90);
    CHECK_EQ(t.n_switches, 6);
    CHECK_EQ(t.n_links, 90 + 18);
    CHECK_EQ(n.n_nodes, 96);
    CHECK_EQ(n.n_links, 108);
    CHECK_EQ(t.n_edge, 3);
    CHECK_EQ(t.n_agg, 0);
    CHECK_EQ(t.n_core, 3);
    CHECK_EQ(t.n_pods, 1);
    CHECK_EQ(t.hosts_per_edge, 30);
    CHECK_EQ(t.uplinks_per_pair, 2);
    CHECK_EQ(t.first_host, 0);
    CHECK_EQ(t.first_edge, 90);
    CHECK_EQ(t.first_agg, NONE32);
    CHECK_EQ(t.first_core, 93);
    CHECK_EQ(count_tier(&n, TIER_EDGE), 3);
    CHECK_EQ(count_tier(&n, TIER_CORE), 3);
    CHECK_EQ(count_tier(&n, TIER_AGG), 0);
    CHECK_STR(n.nodes[0].name, "h0");
    CHECK_STR(n.nodes[89].name, "h89");
    CHECK_STR(n.nodes[90].name, "edge0");
    CHECK_STR(n.nodes[95].name, "core2");
    CHECK_EQ(n.nodes[89].kind, NODE_HOST);
    CHECK_EQ(n.nodes[89].tier, TIER_NONE);
    CHECK_EQ(topo_host(&t, 1, 0), 30);
    CHECK_EQ(topo_host_edge(&t, 59), 1);
    CHECK_EQ(topo_host_edge(&t, 60), 2);
    CHECK_EQ(topo_host_pod(&t, 89), 0);
    CHECK_EQ(topo_edge_node(&t, 2), 92);
    CHECK_EQ(topo_core_node(&t, 0), 93);
    CHECK_EQ(topo_agg_node(&t, 0), NONE32);
    CHECK_EQ(topo_host(&t, 3, 0), NONE32);
    CHECK_EQ(topo_host_edge(&t, 90), NONE32);
    uint64_t h40 = 0, f100 = 0;
    for (uint32_t l = 0; l < n.n_links; l++) {
        CHECK_EQ(n.links[l].delay, 1500 * PS_PER_NS);
        h40 += n.links[l].rate == 40 * G;
        f100 += n.links[l].rate == 100 * G;
    }
    CHECK_EQ(h40, 90);
    CHECK_EQ(f100, 18);
    /* 2:1: per edge 30 x 40G down, 3 x 2 x 100G up. */
    CHECK_EQ(30 * 40 * G, 2 * (3 * 2 * 100 * G));
    net_free(&n);
}

TEST(rocc_fattree_routes)
{
    struct net n;
    struct topo_layout t;
    char err[256];
    CHECK(net_init(&n, 7) == 0);
    CHECK_EQ(topo_rocc_fattree(&n, NULL, &t, err, sizeof err), 0);
    CHECK_EQ(finalize(&n), 0);
    CHECK_EQ(n.n_hosts, 90);
    CHECK_EQ(n.n_sws, 6);
    /* Host index == node index == name. */
    for (uint32_t h = 0; h < 90; h++)
        CHECK_EQ(n.hosts[h].node, h);
    CHECK(all_pairs_ok(&n, &t, hops_tiered));
    uint32_t e0 = topo_edge_node(&t, 0), c0 = topo_core_node(&t, 0);
    CHECK_EQ(n.nodes[e0].n_ports, 30 + 6);
    CHECK_EQ(n.nodes[c0].n_ports, 3 * 2);
    /* Edge ports: hosts first, in order, then uplinks. */
    CHECK_EQ(n.ports[n.ports[n.nodes[e0].first_port + 5].peer].node, 5);
    CHECK_EQ(n.ports[n.ports[n.nodes[e0].first_port + 30].peer].node, c0);
    CHECK_EQ(ecmp(&n, e0, 5), 1);          /* local host */
    CHECK_EQ(ecmp(&n, e0, 40), 6);         /* 3 cores x 2 parallel links */
    CHECK_EQ(ecmp(&n, c0, 40), 2);         /* the two parallel links down */
    CHECK_EQ(ecmp(&n, 0, 40), 1);          /* a host's only port */
    /* The edge's 6-way set covers every uplink, 2 per core: over many
     * flow hashes ECMP picks each of the 6 ports. */
    unsigned per_core[3] = { 0, 0, 0 };
    uint8_t seen[64] = { 0 };
    for (uint64_t h = 1; h <= 600; h++) {
        uint32_t p = net_route(&n, e0, 40, h * 0x9e3779b97f4a7c15ull);
        uint32_t peer = n.ports[n.ports[p].peer].node;
        CHECK(peer >= c0 && peer < c0 + 3);
        CHECK(p - n.nodes[e0].first_port < 64);
        if (!seen[p - n.nodes[e0].first_port]++)
            per_core[peer - c0]++;
    }
    CHECK(per_core[0] == 2 && per_core[1] == 2 && per_core[2] == 2);
    net_free(&n);
}

TEST(rocc_fattree_params_and_errors)
{
    struct net n;
    struct topo_layout t;
    struct topo_rocc_fattree_params p;
    char err[256];
    topo_rocc_fattree_defaults(&p);
    CHECK_EQ(p.n_core, 3);
    CHECK_EQ(p.hosts_per_edge, 30);
    CHECK_EQ(p.host_bps, 40 * G);
    CHECK_EQ(p.fabric_bps, 100 * G);
    CHECK_EQ(p.delay_ps, 1500 * PS_PER_NS);
    p.n_core = 2, p.n_edge = 4, p.hosts_per_edge = 5, p.uplinks_per_pair = 1;
    p.host_bps = 25 * G, p.fabric_bps = 50 * G, p.delay_ps = 2 * PS_PER_US;
    CHECK(net_init(&n, 1) == 0);
    CHECK_EQ(topo_rocc_fattree(&n, &p, &t, err, sizeof err), 0);
    CHECK_EQ(t.n_hosts, 20);
    CHECK_EQ(t.n_switches, 6);
    CHECK_EQ(t.n_links, 20 + 8);
    CHECK_STR(n.nodes[t.first_core + 1].name, "core1");
    CHECK_EQ(n.links[0].rate, 25 * G);
    CHECK_EQ(n.links[20].rate, 50 * G);
    CHECK_EQ(n.links[27].delay, 2 * PS_PER_US);
    CHECK_EQ(finalize(&n), 0);
    CHECK(all_pairs_ok(&n, &t, hops_tiered));
    CHECK_EQ(ecmp(&n, topo_edge_node(&t, 0), 19), 2);
    /* A second build into a used net. */
    CHECK_EQ(topo_rocc_fattree(&n, NULL, &t, err, sizeof err), -1);
    CHECK_STR(err, "rocc_fattree: the net already has nodes or links; build into a fresh net");
    net_free(&n);

    struct { uint32_t what, val; const char *msg; } bad[] = {
        { 0, 0, "rocc_fattree: switch, host and link counts must be >= 1" },
        { 1, 0, "rocc_fattree: switch, host and link counts must be >= 1" },
        { 2, 0, "rocc_fattree: switch, host and link counts must be >= 1" },
        { 3, 0, "rocc_fattree: switch, host and link counts must be >= 1" },
        { 4, 0, "rocc_fattree: link rates must be > 0" },
        { 0, 128, "rocc_fattree: a switch would have 256 equal-cost next hops, more than 255" },
        { 2, 70000, "rocc_fattree: a switch would have 70006 ports, more than 65535" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        topo_rocc_fattree_defaults(&p);
        switch (bad[i].what) {
        case 0: p.n_core = bad[i].val; break;
        case 1: p.n_edge = bad[i].val; break;
        case 2: p.hosts_per_edge = bad[i].val; break;
        case 3: p.uplinks_per_pair = bad[i].val; break;
        default: p.fabric_bps = bad[i].val; break;
        }
        CHECK(net_init(&n, 1) == 0);
        int rc = topo_rocc_fattree(&n, &p, NULL, err, sizeof err);
        net_free(&n);
        CHECK_EQ(rc, -1);
        CHECK_STR(err, bad[i].msg);
    }
    topo_rocc_fattree_defaults(&p);
    p.n_edge = 40000;
    CHECK(net_init(&n, 1) == 0);
    CHECK_EQ(topo_rocc_fattree(&n, &p, NULL, err, sizeof err), -1);
    net_free(&n);
    CHECK_STR(err, "rocc_fattree: 1240003 nodes, more than 1048576");
}

/* ---------- k-ary fat-tree ---------- */

TEST(fattree_k4_counts)
{
    struct net n;
    struct topo_layout t;
    char err[256];
    CHECK(net_init(&n, 1) == 0);
    CHECK_EQ(topo_fattree_k(&n, 4, 100 * G, PS_PER_US, &t, err, sizeof err), 0);
    CHECK_EQ(t.n_hosts, 16);
    CHECK_EQ(t.n_switches, 20);
    CHECK_EQ(t.n_links, 48);
    CHECK_EQ(n.n_nodes, 36);
    CHECK_EQ(t.n_pods, 4);
    CHECK_EQ(t.n_edge, 8);
    CHECK_EQ(t.n_agg, 8);
    CHECK_EQ(t.n_core, 4);
    CHECK_EQ(t.edges_per_pod, 2);
    CHECK_EQ(t.aggs_per_pod, 2);
    CHECK_EQ(t.hosts_per_edge, 2);
    CHECK_EQ(count_tier(&n, TIER_EDGE), 8);
    CHECK_EQ(count_tier(&n, TIER_AGG), 8);
    CHECK_EQ(count_tier(&n, TIER_CORE), 4);
    CHECK_EQ(t.first_edge, 16);
    CHECK_EQ(t.first_agg, 24);
    CHECK_EQ(t.first_core, 32);
    CHECK_STR(n.nodes[15].name, "h15");
    CHECK_STR(n.nodes[16].name, "edge0_0");
    CHECK_STR(n.nodes[19].name, "edge1_1");
    CHECK_STR(n.nodes[24].name, "agg0_0");
    CHECK_STR(n.nodes[31].name, "agg3_1");
    CHECK_STR(n.nodes[35].name, "core3");
    CHECK_EQ(n.nodes[19].tier, TIER_EDGE);
    CHECK_EQ(n.nodes[31].tier, TIER_AGG);
    CHECK_EQ(n.nodes[35].tier, TIER_CORE);
    CHECK_EQ(topo_host_pod(&t, 3), 0);
    CHECK_EQ(topo_host_pod(&t, 4), 1);
    CHECK_EQ(topo_host_edge(&t, 5), 2);
    CHECK_EQ(topo_pod_host(&t, 2, 3), 11);
    CHECK_EQ(topo_pod_host(&t, 4, 0), NONE32);
    CHECK_EQ(topo_pod_host(&t, 0, 4), NONE32);
    for (uint32_t l = 0; l < n.n_links; l++) {
        CHECK_EQ(n.links[l].rate, 100 * G);
        CHECK_EQ(n.links[l].delay, PS_PER_US);
    }
    net_free(&n);
}

TEST(fattree_k4_routes)
{
    struct net n;
    struct topo_layout t;
    char err[256];
    CHECK(net_init(&n, 3) == 0);
    CHECK_EQ(topo_fattree_k(&n, 4, 100 * G, PS_PER_US, &t, err, sizeof err), 0);
    CHECK_EQ(finalize(&n), 0);
    CHECK(all_pairs_ok(&n, &t, hops_tiered));
    CHECK_EQ(walk(&n, 0, 1, 5), 2);        /* same edge */
    CHECK_EQ(walk(&n, 0, 2, 5), 4);        /* same pod */
    CHECK_EQ(walk(&n, 0, 15, 5), 6);       /* across pods */
    uint32_t e0 = topo_edge_node(&t, 0), a0 = topo_agg_node(&t, 0), c0 = topo_core_node(&t, 0);
    CHECK_EQ(ecmp(&n, e0, 1), 1);
    CHECK_EQ(ecmp(&n, e0, 2), 2);          /* k/2 agg uplinks */
    CHECK_EQ(ecmp(&n, e0, 15), 2);
    CHECK_EQ(ecmp(&n, a0, 2), 1);          /* same pod: straight down */
    CHECK_EQ(ecmp(&n, a0, 15), 2);         /* k/2 core uplinks */
    CHECK_EQ(ecmp(&n, c0, 15), 1);         /* one agg per pod below each core */
    /* Agg j of each pod reaches cores j*k/2..: agg0_1 -> core2, core3. */
    uint32_t a01 = topo_agg_node(&t, 1);
    CHECK_EQ(n.nodes[a01].n_ports, 4);
    CHECK_EQ(n.ports[n.ports[n.nodes[a01].first_port + 2].peer].node, topo_core_node(&t, 2));
    CHECK_EQ(n.ports[n.ports[n.nodes[a01].first_port + 3].peer].node, topo_core_node(&t, 3));
    for (uint32_t c = 0; c < 4; c++)
        CHECK_EQ(n.nodes[topo_core_node(&t, c)].n_ports, 4);   /* one per pod */
    net_free(&n);
}

TEST(fattree_k_sizes_and_errors)
{
    static const uint32_t ks[] = { 2, 6, 8, 16, 64 };
    char err[256];
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        uint32_t k = ks[i];
        struct net n;
        struct topo_layout t;
        CHECK(net_init(&n, 1) == 0);
        CHECK_EQ(topo_fattree_k(&n, k, 10 * G, 0, &t, err, sizeof err), 0);
        CHECK_EQ(t.n_hosts, k * k * k / 4);
        CHECK_EQ(t.n_switches, 5 * k * k / 4);
        CHECK_EQ(t.n_links, 3 * k * k * k / 4);
        CHECK_EQ(t.n_core, k * k / 4);
        if (k <= 8) {
            CHECK_EQ(finalize(&n), 0);
            CHECK(all_pairs_ok(&n, &t, hops_tiered));
            CHECK_EQ(ecmp(&n, topo_edge_node(&t, 0), t.n_hosts - 1), k / 2);
            CHECK_EQ(ecmp(&n, topo_agg_node(&t, 0), t.n_hosts - 1), k / 2);
        }
        net_free(&n);
    }
    static const uint32_t badk[] = { 0, 1, 3, 66, 128 };
    for (size_t i = 0; i < sizeof badk / sizeof badk[0]; i++) {
        struct net n;
        char want[80];
        CHECK(net_init(&n, 1) == 0);
        CHECK_EQ(topo_fattree_k(&n, badk[i], 10 * G, 0, NULL, err, sizeof err), -1);
        net_free(&n);
        snprintf(want, sizeof want, "fattree_k: k must be even, 2..64 (got %u)", badk[i]);
        CHECK_STR(err, want);
    }
    struct net n;
    CHECK(net_init(&n, 1) == 0);
    CHECK_EQ(topo_fattree_k(&n, 4, 0, 0, NULL, err, sizeof err), -1);
    CHECK_STR(err, "fattree_k: link rate must be > 0");
    CHECK_EQ(topo_fattree_k(&n, 3, 1, 0, NULL, NULL, 0), -1);  /* no message buffer */
    net_free(&n);
}

/* ---------- leaf-spine ---------- */

TEST(leafspine_oversubscription)
{
    struct net n;
    struct topo_layout t;
    struct topo_leafspine_params p;
    char err[256];
    /* Defaults: 32 x 100G down, 2:1 -> 1600G up = 4 x 400G, 1 per spine. */
    topo_leafspine_defaults(&p);
    CHECK(net_init(&n, 1) == 0);
    CHECK_EQ(topo_leafspine(&n, NULL, &t, err, sizeof err), 0);
    CHECK_EQ(t.n_hosts, 8 * 32);
    CHECK_EQ(t.n_edge, 8);
    CHECK_EQ(t.n_core, 4);
    CHECK_EQ(t.uplinks_per_pair, 1);
    CHECK_EQ(t.n_links, 256 + 32);
    CHECK_STR(n.nodes[256].name, "leaf0");
    CHECK_STR(n.nodes[267].name, "spine3");
    CHECK_EQ(n.nodes[267].tier, TIER_CORE);
    net_free(&n);

    /* 1:1 -> 3200G up = 8 x 400G, 2 per spine. */
    p.oversub_num = 1;
    CHECK(net_init(&n, 1) == 0);
    CHECK_EQ(topo_leafspine(&n, &p, &t, err, sizeof err), 0);
    CHECK_EQ(t.uplinks_per_pair, 2);
    CHECK_EQ(t.n_links, 256 + 64);
    CHECK_EQ(finalize(&n), 0);
    CHECK_EQ(ecmp(&n, topo_edge_node(&t, 0), 255), 8);
    CHECK_EQ(ecmp(&n, topo_core_node(&t, 3), 255), 2);
    CHECK(all_pairs_ok(&n, &t, hops_tiered));
    net_free(&n);

    /* 4:1 -> 800G = 2 uplinks for 4 spines: not a multiple. */
    p.oversub_num = 4;
    CHECK(net_init(&n, 1) == 0);
    CHECK_EQ(topo_leafspine(&n, &p, &t, err, sizeof err), -1);
    net_free(&n);
    CHECK_STR(err, "leafspine: 4:1 oversubscription needs 2 uplinks per leaf, "
                   "not a non-zero multiple of 4 spines");
    /* 3:1 -> 3200/12 uplinks: not whole. */
    p.oversub_num = 3;
    CHECK(net_init(&n, 1) == 0);
    CHECK_EQ(topo_leafspine(&n, &p, &t, err, sizeof err), -1);
    net_free(&n);
    CHECK_STR(err, "leafspine: 3:1 oversubscription needs 8/3 uplinks per leaf, "
                   "not a whole number");
    /* 3:2 with 24 hosts: 2400 * 2 / (3 * 400) = 4 uplinks. */
    p.oversub_num = 3, p.oversub_den = 2, p.hosts_per_leaf = 24;
    CHECK(net_init(&n, 1) == 0);
    CHECK_EQ(topo_leafspine(&n, &p, &t, err, sizeof err), 0);
    CHECK_EQ(t.uplinks_per_pair, 1);
    net_free(&n);
    /* Zero terms, zero counts, zero rates. */
    topo_leafspine_defaults(&p);
    p.oversub_den = 0;
    CHECK(net_init(&n, 1) == 0);
    CHECK_EQ(topo_leafspine(&n, &p, &t, err, sizeof err), -1);
    CHECK_STR(err, "leafspine: oversubscription 2:0: both terms must be >= 1");
    topo_leafspine_defaults(&p);
    p.n_spine = 0;
    CHECK_EQ(topo_leafspine(&n, &p, &t, err, sizeof err), -1);
    CHECK_STR(err, "leafspine: leaves, spines and hosts per leaf must be >= 1");
    topo_leafspine_defaults(&p);
    p.host_bps = 0;
    CHECK_EQ(topo_leafspine(&n, &p, &t, err, sizeof err), -1);
    CHECK_STR(err, "leafspine: link rates must be > 0");
    topo_leafspine_defaults(&p);
    p.host_bps = UINT64_MAX / 2;
    CHECK_EQ(topo_leafspine(&n, &p, &t, err, sizeof err), -1);
    CHECK_STR(err, "leafspine: rates and counts too large");
    CHECK_EQ(n.n_nodes, 0);
    net_free(&n);
}

/* The RoCC fat-tree is the 3-leaf, 3-spine, 2:1 leaf-spine. */
TEST(leafspine_equals_rocc_fattree)
{
    struct net a, b;
    struct topo_layout ta, tb;
    struct topo_leafspine_params p = {
        .n_leaf = 3, .n_spine = 3, .hosts_per_leaf = 30, .host_bps = 40 * G,
        .fabric_bps = 100 * G, .oversub_num = 2, .oversub_den = 1, .delay_ps = 1500 * PS_PER_NS,
    };
    char err[256];
    CHECK(net_init(&a, 1) == 0);
    CHECK(net_init(&b, 1) == 0);
    CHECK_EQ(topo_leafspine(&a, &p, &ta, err, sizeof err), 0);
    CHECK_EQ(topo_rocc_fattree(&b, NULL, &tb, err, sizeof err), 0);
    CHECK_EQ(ta.uplinks_per_pair, 2);
    CHECK_EQ(a.n_links, b.n_links);
    CHECK_EQ(a.n_nodes, b.n_nodes);
    CHECK(memcmp(a.links, b.links, a.n_links * sizeof *a.links) == 0);
    for (uint32_t i = 0; i < a.n_nodes; i++) {
        CHECK_EQ(a.nodes[i].kind, b.nodes[i].kind);
        CHECK_EQ(a.nodes[i].tier, b.nodes[i].tier);
    }
    net_free(&a);
    net_free(&b);
}

/* ---------- RCC / HPCC fat.txt ---------- */

static int hops_rcc(const struct topo_layout *t, uint32_t a, uint32_t b)
{
    (void)t;                /* fat.txt numbers: 16 hosts per ToR, 64 per pod */
    return a / 16 == b / 16 ? 2 : a / 64 == b / 64 ? 4 : 6;
}

TEST(rcc320_fabric)
{
    struct net n;
    struct topo_layout t;
    char err[256];
    CHECK(net_init(&n, 11) == 0);
    CHECK_EQ(topo_rcc320(&n, &t, err, sizeof err), 0);
    CHECK_EQ(t.n_hosts, 320);
    CHECK_EQ(t.n_switches, 56);
    CHECK_EQ(t.n_links, 480);
    CHECK_EQ(t.n_pods, 5);
    CHECK_EQ(t.n_edge, 20);
    CHECK_EQ(t.n_agg, 20);
    CHECK_EQ(t.n_core, 16);
    CHECK_EQ(t.hosts_per_edge, 16);
    CHECK_EQ(t.first_edge, 320);
    CHECK_EQ(t.first_agg, 340);
    CHECK_EQ(t.first_core, 360);
    CHECK_STR(n.nodes[320].name, "edge0_0");
    CHECK_STR(n.nodes[339].name, "edge4_3");
    CHECK_STR(n.nodes[345].name, "agg1_1");
    CHECK_STR(n.nodes[375].name, "core15");
    uint32_t r100 = 0, r400 = 0;
    for (uint32_t l = 0; l < n.n_links; l++) {
        CHECK_EQ(n.links[l].delay, PS_PER_US);
        r100 += n.links[l].rate == 100 * G;
        r400 += n.links[l].rate == 400 * G;
    }
    CHECK_EQ(r100, 320);
    CHECK_EQ(r400, 160);
    /* Lines of fat.txt: "0 320", "319 339", "320 340", "339 359", "340 360",
     * "341 364", "359 375". */
    CHECK(n.links[0].a == 0 && n.links[0].b == 320);
    CHECK(n.links[319].a == 319 && n.links[319].b == 339);
    CHECK(n.links[320].a == 320 && n.links[320].b == 340);
    CHECK(n.links[399].a == 339 && n.links[399].b == 359);
    CHECK(n.links[400].a == 340 && n.links[400].b == 360);
    CHECK(n.links[404].a == 341 && n.links[404].b == 364);
    CHECK(n.links[479].a == 359 && n.links[479].b == 375);
    CHECK_EQ(finalize(&n), 0);
    for (uint32_t e = 0; e < 20; e++)
        CHECK_EQ(n.nodes[topo_edge_node(&t, e)].n_ports, 16 + 4);
    for (uint32_t a = 0; a < 20; a++)
        CHECK_EQ(n.nodes[topo_agg_node(&t, a)].n_ports, 4 + 4);
    for (uint32_t c = 0; c < 16; c++)
        CHECK_EQ(n.nodes[topo_core_node(&t, c)].n_ports, 5);   /* one agg per pod */
    CHECK(all_pairs_ok(&n, &t, hops_rcc));
    uint32_t e0 = topo_edge_node(&t, 0), a0 = topo_agg_node(&t, 0), c0 = topo_core_node(&t, 0);
    CHECK_EQ(ecmp(&n, e0, 17), 4);
    CHECK_EQ(ecmp(&n, e0, 319), 4);
    CHECK_EQ(ecmp(&n, a0, 17), 1);
    CHECK_EQ(ecmp(&n, a0, 319), 4);
    CHECK_EQ(ecmp(&n, c0, 319), 1);
    net_free(&n);
}

/* fat.txt regenerated by its own pattern (as listed in the HPCC repository),
 * into a malloc'd string. */
static char *fat_txt(void)
{
    size_t cap = 32768, len = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    len += (size_t)snprintf(s + len, cap - len, "376 56 480\n");
    for (int i = 320; i < 376; i++)
        len += (size_t)snprintf(s + len, cap - len, "%d%s", i, i < 375 ? " " : "\n");
    for (int h = 0; h < 320; h++)
        len += (size_t)snprintf(s + len, cap - len, "%d %d 100Gbps 1000ns 0.000000\n", h, 320 + h / 16);
    for (int tor = 320; tor < 340; tor++)
        for (int j = 0; j < 4; j++)
            len += (size_t)snprintf(s + len, cap - len, "%d %d 400Gbps 1000ns 0.000000\n", tor,
                                    340 + (tor - 320) / 4 * 4 + j);
    for (int agg = 340; agg < 360; agg++)
        for (int j = 0; j < 4; j++)
            len += (size_t)snprintf(s + len, cap - len, "%d %d 400Gbps 1000ns 0.000000\n", agg,
                                    360 + (agg - 340) % 4 * 4 + j);
    snprintf(s + len, cap - len, "\n");
    return s;
}

TEST(hpcc_fat_txt_equals_rcc320)
{
    char path[TEST_PATHLEN], err[256];
    char *text = fat_txt();
    CHECK(text != NULL);
    int w = test_write_tmp(text, strlen(text), path);
    free(text);
    CHECK_EQ(w, 0);
    struct net a, b;
    struct topo_layout ta, tb;
    CHECK(net_init(&a, 1) == 0);
    CHECK(net_init(&b, 1) == 0);
    int rc = topo_load_hpcc(&a, path, &ta, err, sizeof err);
    unlink(path);
    if (rc)
        printf("  %s\n", err);
    CHECK_EQ(rc, 0);
    CHECK_EQ(topo_rcc320(&b, &tb, err, sizeof err), 0);
    CHECK_EQ(ta.n_hosts, 320);
    CHECK_EQ(ta.n_switches, 56);
    CHECK_EQ(ta.n_links, 480);
    CHECK_EQ(ta.n_edge, 20);
    CHECK_EQ(ta.n_agg, 20);
    CHECK_EQ(ta.n_core, 16);
    CHECK_EQ(ta.hosts_per_edge, 0);
    CHECK_EQ(ta.first_edge, NONE32);
    CHECK_EQ(topo_host_edge(&ta, 0), NONE32);
    CHECK_EQ(a.n_nodes, b.n_nodes);
    CHECK_EQ(a.n_links, b.n_links);
    CHECK(memcmp(a.links, b.links, a.n_links * sizeof *a.links) == 0);
    for (uint32_t i = 0; i < a.n_nodes; i++) {
        CHECK_EQ(a.nodes[i].kind, b.nodes[i].kind);
        CHECK_EQ(a.nodes[i].tier, b.nodes[i].tier);     /* inferred == built */
    }
    CHECK_STR(a.nodes[0].name, "h0");
    CHECK_STR(a.nodes[319].name, "h319");
    CHECK_STR(a.nodes[320].name, "s320");
    CHECK_STR(a.nodes[375].name, "s375");
    net_free(&a);
    net_free(&b);
}

/* A small file: switches 1 and 4 between hosts (ids interleaved), a
 * spine 6 reached by two parallel links from each, blank lines, delays in
 * several units. */
static const char small_hpcc[] =
    "7 3 8\n"
    "1 4 6\n"
    "0 1 25Gbps 1000ns 0\n"
    "\n"
    "2 1 25Gbps 1us 0.0\n"
    "3 4 40Gbps 0.001ms 0\n"
    "5 4 40Gbps 1500ns 0.000000\n"
    "1 6 100Gbps 2us 0\n"
    "1 6 100Gbps 2us 0\n"
    "   4\t6 100Gbps 2us 0  \r\n"
    "4 6 100Gbps 2us 0\n"
    "\n";

TEST(hpcc_small_fixture)
{
    char path[TEST_PATHLEN], err[256];
    CHECK_EQ(test_write_tmp(small_hpcc, strlen(small_hpcc), path), 0);
    struct net n;
    struct topo_layout t;
    CHECK(net_init(&n, 1) == 0);
    int rc = topo_load_hpcc(&n, path, &t, err, sizeof err);
    unlink(path);
    if (rc)
        printf("  %s\n", err);
    CHECK_EQ(rc, 0);
    CHECK_STR(err, "");
    CHECK_EQ(t.n_hosts, 4);
    CHECK_EQ(t.n_switches, 3);
    CHECK_EQ(t.n_links, 8);
    CHECK_EQ(t.n_edge, 2);
    CHECK_EQ(t.n_agg, 0);
    CHECK_EQ(t.n_core, 1);
    CHECK_STR(n.nodes[0].name, "h0");
    CHECK_STR(n.nodes[1].name, "s1");
    CHECK_STR(n.nodes[5].name, "h5");
    CHECK_STR(n.nodes[6].name, "s6");
    CHECK_EQ(n.nodes[1].tier, TIER_EDGE);
    CHECK_EQ(n.nodes[4].tier, TIER_EDGE);
    CHECK_EQ(n.nodes[6].tier, TIER_CORE);
    CHECK_EQ(n.nodes[3].kind, NODE_HOST);
    CHECK_EQ(n.links[1].delay, PS_PER_US);
    CHECK_EQ(n.links[2].delay, PS_PER_US);          /* 0.001ms */
    CHECK_EQ(n.links[3].delay, 1500 * PS_PER_NS);
    CHECK_EQ(n.links[2].rate, 40 * G);
    CHECK(n.links[6].a == 4 && n.links[6].b == 6);
    CHECK_EQ(finalize(&n), 0);
    /* Host index = rank among host ids: 0, 2, 3, 5 -> 0, 1, 2, 3. */
    CHECK_EQ(n.hosts[0].node, 0);
    CHECK_EQ(n.hosts[1].node, 2);
    CHECK_EQ(n.hosts[2].node, 3);
    CHECK_EQ(n.hosts[3].node, 5);
    CHECK_EQ(walk(&n, 0, 1, 9), 2);
    CHECK_EQ(walk(&n, 0, 3, 9), 4);
    CHECK_EQ(walk(&n, 3, 1, 9), 4);
    CHECK_EQ(ecmp(&n, 1, 3), 2);        /* two parallel links to the spine */
    CHECK_EQ(ecmp(&n, 6, 0), 2);
    net_free(&n);
}

TEST(hpcc_errors)
{
    static const struct { const char *text, *msg; } cases[] = {
        { "", ": empty file (expected 'NODES SWITCHES LINKS' on line 1)" },
        { "\n\n", ": empty file (expected 'NODES SWITCHES LINKS' on line 1)" },
        { "3 1\n", ":1: expected 'NODES SWITCHES LINKS', found 2 fields" },
        { "3 1 2 4\n", ":1: expected 'NODES SWITCHES LINKS', found 4 fields" },
        { "x 1 2\n", ":1: bad node count 'x' (not an integer)" },
        { "3 -1 2\n", ":1: bad switch count '-1' (negative values are not allowed)" },
        { "3 1 2.5\n", ":1: bad link count '2.5' (not an integer)" },
        { "0 0 0\n", ":1: node count 0: must be 1..1048576" },
        { "2000000 1 1\n", ":1: node count 2000000: must be 1..1048576" },
        { "3 4 2\n", ":1: 4 switches but only 3 nodes" },
        { "3 1 4294967295\n", ":1: link count 4294967295 is too large" },
        { "3 1 2\n", ":1: file ends before the line of 1 switch ids" },
        { "3 2 2\n1\n", ":2: expected 2 switch ids on one line, found 1" },
        { "3 1 2\n1 2\n", ":2: more than the 1 switch ids the header announces" },
        { "3 1 2\nq\n", ":2: bad switch id 'q' (not an integer)" },
        { "3 1 2\n3\n", ":2: switch id 3 out of range: ids are 0..2" },
        { "4 2 2\n1 1\n", ":2: switch id 1 listed twice" },
        { "3 1 2\n1\n0 1 10Gbps 1us 0\n", ":3: file ends after 1 of 2 links" },
        { "3 1 2\n1\n0 1 10Gbps 1us\n", ":3: expected 'SRC DST RATE DELAY ERROR_RATE', found 4 fields" },
        { "3 1 2\n1\n0 1 10Gbps 1us 0 7\n", ":3: expected 'SRC DST RATE DELAY ERROR_RATE', found 6 fields" },
        { "3 1 2\n1\n0 z 10Gbps 1us 0\n", ":3: bad node id 'z' (not an integer)" },
        { "3 1 2\n1\n0 3 10Gbps 1us 0\n", ":3: node id 3 out of range: ids are 0..2" },
        { "3 1 2\n1\n1 1 10Gbps 1us 0\n", ":3: link from node 1 to itself" },
        { "3 1 2\n1\n0 1 10GB/s 1us 0\n", ":3: bad rate '10GB/s' (unknown unit; e.g. 100Gbps)" },
        { "3 1 2\n1\n0 1 0Gbps 1us 0\n", ":3: rate must be > 0" },
        { "3 1 2\n1\n0 1 10Gbps 1000 0\n", ":3: bad delay '1000' (missing unit: ps, ns, us, ms or s; e.g. 1000ns)" },
        { "3 1 2\n1\n0 1 10Gbps 1us x\n", ":3: bad error rate 'x' (a probability, 0..1)" },
        { "3 1 2\n1\n0 1 10Gbps 1us 2\n", ":3: bad error rate '2' (a probability, 0..1)" },
        { "3 1 2\n1\n0 1 10Gbps 1us 0.001\n", ":3: error rate 0.001: not supported (lossy links)" },
        { "3 1 2\n1\n0 1 10Gbps 1us 0\n0 1 10Gbps 1us 0\n",
          ":4: host 0 has a second link (a host has one NIC port)" },
        { "3 1 2\n1\n0 1 10Gbps 1us 0\n2 1 10Gbps 1us 0\n2 1 10Gbps 1us 0\n",
          ":5: more links than the 2 the header announces" },
        { "3 1 1\n1\n0 1 10Gbps 1us 0\n", ": host 2 has no link" },
        { "2 0 0\n", ": host 0 has no link" },
    };
    char err[256], want[320], path[TEST_PATHLEN];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct net n;
        CHECK_EQ(test_write_tmp(cases[i].text, strlen(cases[i].text), path), 0);
        CHECK(net_init(&n, 1) == 0);
        int rc = topo_load_hpcc(&n, path, NULL, err, sizeof err);
        unlink(path);
        net_free(&n);
        snprintf(want, sizeof want, "%s%s", path, cases[i].msg);
        if (rc != -1 || strcmp(err, want) != 0)
            printf("  case %zu: %s\n", i, cases[i].text);
        CHECK_EQ(rc, -1);
        CHECK_STR(err, want);
    }
    /* Missing file, directory, used net. */
    struct net n;
    CHECK(net_init(&n, 1) == 0);
    CHECK_EQ(topo_load_hpcc(&n, "/tmp/rocc-no-such-dir/t.txt", NULL, err, sizeof err), -1);
    CHECK_STR(err, "/tmp/rocc-no-such-dir/t.txt: cannot open: No such file or directory");
    CHECK_EQ(topo_load_hpcc(&n, "/tmp", NULL, err, sizeof err), -1);
    CHECK(strncmp(err, "/tmp:", 5) == 0);
    CHECK_EQ(n.n_nodes, 0);
    /* Valid edge cases: only switches, no links; hosts-only is not. */
    CHECK_EQ(test_write_tmp("1 1 0\n0\n", strlen("1 1 0\n0\n"), path), 0);
    int rc = topo_load_hpcc(&n, path, NULL, err, sizeof err);
    unlink(path);
    CHECK_EQ(rc, 0);
    CHECK_EQ(n.n_nodes, 1);
    CHECK_EQ(n.nodes[0].kind, NODE_SWITCH);
    CHECK_EQ(topo_load_hpcc(&n, "/tmp/whatever", NULL, err, sizeof err), -1);
    CHECK_STR(err, "/tmp/whatever: the net already has nodes or links; load into a fresh net");
    net_free(&n);
}

int main(void)
{
    test_binary_ = "test_topology";
    setvbuf(stdout, NULL, _IOLBF, 0);
    RUN(rocc_fattree_counts);
    RUN(rocc_fattree_routes);
    RUN(rocc_fattree_params_and_errors);
    RUN(fattree_k4_counts);
    RUN(fattree_k4_routes);
    RUN(fattree_k_sizes_and_errors);
    RUN(leafspine_oversubscription);
    RUN(leafspine_equals_rocc_fattree);
    RUN(rcc320_fabric);
    RUN(hpcc_fat_txt_equals_rcc320);
    RUN(hpcc_small_fixture);
    RUN(hpcc_errors);
    return test_summary();
}
