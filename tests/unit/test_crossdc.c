/*
 * test_crossdc.c -- the cross-datacenter fabric (topo_crossdc, topology.h)
 * and the PFC rule of long-haul links (net_link_set_longhaul, net.h):
 * counts, names and layout of the k = 4 default; every host reaches every
 * other one, cross-datacenter paths in 9 links over the long-haul link;
 * ECMP widths; after net_finalize with a 32 MB buffer and PFC, the long-haul
 * ports' headroom is one BDP (exact, no 64-bit overflow at 10 ms), is added
 * to the egress switch's buffer, and takes its own XOFF.
 */
#include "core/units.h"
#include "engine/topology.h"
#include "net/net.h"

#include "test.h"
#include "test_fabric.h"

#define G 1000000000ull

static uint32_t node_named(const struct net *n, const char *name)
{
    for (uint32_t i = 0; i < n->n_nodes; i++)
        if (!strcmp(n->nodes[i].name, name))
            return i;
    return NONE32;
}

/* Links from host src to host dst along net_route with this hash; *lh
 * counts long-haul ports crossed.  -1 on a missing route or a loop. */
static int walk(const struct net *n, uint32_t src, uint32_t dst, uint64_t hash, int *lh)
{
    uint32_t node = n->hosts[src].node, target = n->hosts[dst].node;
    int hops = 0;
    *lh = 0;
    while (node != target) {
        if (hops > 16 || (hops > 0 && n->nodes[node].kind == NODE_HOST))
            return -1;
        if (net_route_count(n, node, dst) == 0)
            return -1;
        uint32_t p = net_route(n, node, dst, hash);
        *lh += n->ports[p].longhaul;
        node = n->ports[n->ports[p].peer].node;
        hops++;
    }
    return hops;
}

static int build(struct net *n, const struct topo_crossdc_params *p, struct topo_layout *lay, uint64_t lh_xoff)
{
    char why[256];
    struct switch_cfg c;
    net_init(n, 1);
    if (topo_crossdc(n, p, lay, why, sizeof why)) {
        printf("  topo_crossdc: %s\n", why);
        return -1;
    }
    test_swcfg(n, &c);
    c.longhaul_xoff_bytes = lh_xoff;
    if (net_finalize(n, &c, why, sizeof why)) {
        printf("  net_finalize: %s\n", why);
        return -1;
    }
    return 0;
}

TEST(counts_names_layout)
{
    struct net n;
    struct topo_layout t;
    CHECK(build(&n, NULL, &t, 0) == 0);
    CHECK_EQ(t.n_hosts, 32); CHECK_EQ(t.hosts_per_dc, 16); CHECK_EQ(t.n_dc, 2);
    CHECK_EQ(t.n_edge, 16); CHECK_EQ(t.n_agg, 16); CHECK_EQ(t.n_core, 8);
    CHECK_EQ(t.n_switches, 42); CHECK_EQ(n.n_nodes, 74);
    /* 32 host + 2·16 edge-agg + 2·16 agg-core + 8 core-egress + 1 long-haul */
    CHECK_EQ(t.n_links, 105); CHECK_EQ(n.n_links, 105);
    CHECK_EQ(t.first_longhaul, 104); CHECK_EQ(t.n_longhaul, 1);
    CHECK_EQ(node_named(&n, "h0"), 0);
    CHECK_EQ(node_named(&n, "h31"), 31);
    CHECK_EQ(node_named(&n, "dc0_edge0_0"), t.first_edge);
    CHECK_EQ(node_named(&n, "dc1_edge0_0"), t.first_edge + 8);
    CHECK_EQ(node_named(&n, "dc1_core3"), t.first_core + 7);
    CHECK_EQ(node_named(&n, "egress0"), t.first_egress);
    CHECK_EQ(node_named(&n, "egress1"), t.first_egress + 1);
    CHECK_EQ(t.first_egress, 72);
    CHECK_EQ(topo_host_edge(&t, 17), 8);          /* h17: dc1's first rack */
    CHECK_EQ(topo_host_pod(&t, 17), 4);
    const struct link_spec *l = &n.links[t.first_longhaul];
    CHECK_EQ(l->a, t.first_egress); CHECK_EQ(l->b, t.first_egress + 1);
    CHECK_EQ(l->rate, 200 * G); CHECK_EQ(l->delay, PS_PER_MS);
    uint32_t lh = 0;
    for (uint32_t p = 0; p < n.n_ports; p++)
        lh += n.ports[p].longhaul;
    CHECK_EQ(lh, 2);                              /* the long link's two ends only */
    CHECK_EQ(n.ports[n.nodes[0].first_port].rate_bps, 40 * G);
    net_free(&n);
}

TEST(routes)
{
    struct net n;
    struct topo_layout t;
    int lh;
    CHECK(build(&n, NULL, &t, 0) == 0);
    for (uint32_t s = 0; s < 32; s++)
        for (uint32_t d = 0; d < 32; d++) {
            if (s == d)
                continue;
            for (uint64_t h = 1; h <= 3; h++) {
                int hops = walk(&n, s, d, h * 0x9e3779b97f4a7c15ull, &lh);
                int cross = (s < 16) != (d < 16);
                int want = cross ? 9 : s / 2 == d / 2 ? 2 : s / 4 == d / 4 ? 4 : 6;
                if (hops != want || lh != cross) {
                    printf("  h%u->h%u: %d hops (want %d), %d long-haul\n", s, d, hops, want, lh);
                    CHECK(0);
                    net_free(&n);
                    return;
                }
            }
        }
    /* ECMP: a DC0 edge has 2 aggs toward DC1; egress1 reaches a DC1 host
     * over its 4 cores; a DC0 core has one way out (egress0). */
    CHECK_EQ(net_route_count(&n, t.first_edge, 20), 2);
    CHECK_EQ(net_route_count(&n, (t.first_egress + 1), 20), 4);
    CHECK_EQ(net_route_count(&n, t.first_core, 20), 1);
    net_free(&n);
}

/* Auto headroom = 2·(1000+62+20) + 2·rate/8·delay + 3072 B. */
TEST(longhaul_pfc)
{
    struct net n;
    struct topo_layout t;
    CHECK(build(&n, NULL, &t, 5000000) == 0);
    const uint64_t frames = 2 * 1082 + 3072, lh1 = 50000000 + frames;
    const struct sw *e1 = &n.sws[n.nodes[t.first_egress + 1].idx];
    const struct sw *c0 = &n.sws[n.nodes[t.first_core].idx];
    const struct node *en = &n.nodes[t.first_egress + 1];
    uint32_t k_lh = NONE32;
    for (uint32_t k = 0; k < en->n_ports; k++)
        if (n.ports[en->first_port + k].longhaul)
            k_lh = k;
    CHECK(k_lh != NONE32);
    CHECK_EQ(e1->hdrm_limit[k_lh], lh1);
    CHECK_EQ(e1->xoff[k_lh], 5000000);             /* longhaul_xoff */
    CHECK_EQ(e1->xoff[0], 800000);                 /* a 100G core port: the rule */
    /* One BDP on top of the 32 MB; the shared pool is what a switch with
     * the same other ports would have: 4 core ports' headroom (100 G, 1 us:
     * 25,000 + frames each) and reserves (4000 B × 2 classes × 5 ports). */
    CHECK_EQ(e1->cfg.buffer_bytes, 32000000 + lh1);
    CHECK_EQ(e1->shared_pool, 32000000 - 4 * (25000 + frames) - 5 * 2 * 4000);
    CHECK_EQ(c0->cfg.buffer_bytes, 32000000);
    net_free(&n);

    /* 10 ms: 500 MB of headroom, computed without overflow. */
    struct topo_crossdc_params p;
    topo_crossdc_defaults(&p);
    p.longhaul_delay_ps = 10 * PS_PER_MS;
    CHECK(build(&n, &p, &t, 0) == 0);
    e1 = &n.sws[n.nodes[t.first_egress + 1].idx];
    CHECK_EQ(e1->hdrm_limit[k_lh], 500000000 + frames);
    CHECK_EQ(e1->xoff[k_lh], 800000);              /* longhaul_xoff 0: the rule */
    net_free(&n);

    /* The same long link, not marked long-haul: its headroom does not fit
     * the 32 MB buffer and the build says so. */
    struct switch_cfg c;
    char why[256];
    net_init(&n, 1);
    uint32_t a = net_add_node(&n, NODE_SWITCH, "a"), b = net_add_node(&n, NODE_SWITCH, "b");
    net_add_link(&n, net_add_node(&n, NODE_HOST, "h0"), a, 40 * G, PS_PER_US);
    net_add_link(&n, net_add_node(&n, NODE_HOST, "h1"), b, 40 * G, PS_PER_US);
    uint32_t l = net_add_link(&n, a, b, 200 * G, PS_PER_MS);
    test_swcfg(&n, &c);
    CHECK(net_finalize(&n, &c, why, sizeof why) != 0);
    CHECK(strstr(why, "smaller than its reserves and PFC headroom") != NULL);
    net_free(&n);
    net_init(&n, 1);
    a = net_add_node(&n, NODE_SWITCH, "a");
    b = net_add_node(&n, NODE_SWITCH, "b");
    net_add_link(&n, net_add_node(&n, NODE_HOST, "h0"), a, 40 * G, PS_PER_US);
    net_add_link(&n, net_add_node(&n, NODE_HOST, "h1"), b, 40 * G, PS_PER_US);
    l = net_add_link(&n, a, b, 200 * G, PS_PER_MS);
    net_link_set_longhaul(&n, l);
    CHECK(net_finalize(&n, &c, why, sizeof why) == 0);
    net_free(&n);
}

TEST(params_and_errors)
{
    struct net n;
    struct topo_layout t;
    struct topo_crossdc_params p;
    char why[256];
    topo_crossdc_defaults(&p);
    CHECK_EQ(p.k, 4); CHECK_EQ(p.host_bps, 40 * G); CHECK_EQ(p.fabric_bps, 100 * G);
    CHECK_EQ(p.delay_ps, PS_PER_US); CHECK_EQ(p.longhaul_bps, 200 * G);
    CHECK_EQ(p.longhaul_delay_ps, PS_PER_MS); CHECK_EQ(p.longhaul_links, 1);
    p.k = 8;
    p.longhaul_links = 2;
    CHECK(build(&n, &p, &t, 0) == 0);
    CHECK_EQ(t.n_hosts, 256); CHECK_EQ(t.n_core, 32); CHECK_EQ(t.n_longhaul, 2);
    /* two parallel long links: egress0 spreads over both toward DC1 */
    CHECK_EQ(net_route_count(&n, t.first_egress, 200), 2);
    net_free(&n);
    static const struct { uint32_t k, links; uint64_t lh; const char *msg; } bad[] = {
        { 3, 1, 200 * G, "k must be even" }, { 0, 1, 200 * G, "k must be even" },
        { 34, 1, 200 * G, "k must be even" }, { 4, 0, 200 * G, "longhaul_links must be 1..255" },
        { 4, 1, 0, "link rates must be > 0" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        topo_crossdc_defaults(&p);
        p.k = bad[i].k;
        p.longhaul_links = bad[i].links;
        p.longhaul_bps = bad[i].lh;
        net_init(&n, 1);
        CHECK(topo_crossdc(&n, &p, &t, why, sizeof why) != 0);
        CHECK(strstr(why, bad[i].msg) != NULL);
        net_free(&n);
    }
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_crossdc";
    RUN(counts_names_layout);
    RUN(routes);
    RUN(longhaul_pfc);
    RUN(params_and_errors);
    return test_summary();
}
