/*
 * test_routes.c -- static routes (net_add_route, docs/escape.md "Static
 * routes") on the three-switch ring of the dissertation's Fig. 4.6:
 *
 *      h1 - s1 ---- s2 - h2        nodes: h1 h2 h3 = 0 1 2 (host index = node)
 *            \     /                      s1 s2 s3 = 3 4 5
 *             \   /                links: h1-s1 h2-s2 h3-s3 s1-s2 s2-s3 s3-s1
 *              s3 - h3             (an optional parallel s1-s2 link last)
 *
 * Shortest paths take the direct ring link; a route overrides one (switch,
 * host) cell only, survives route rebuilds after link failures, leaves out
 * members whose link is down and empties the cell when none is left.
 */
#include "net/net.h"

#include "test.h"
#include "test_fabric.h"

enum { H1, H2, H3, S1, S2, S3 };

static int ring(struct net *n, int parallel, const uint32_t *route_next, uint32_t cnt)
{
    if (net_init(n, 1))
        return -1;
    static const char *names[] = { "h1", "h2", "h3", "s1", "s2", "s3" };
    for (int i = 0; i < 6; i++)
        net_add_node(n, i < 3 ? NODE_HOST : NODE_SWITCH, names[i]);
    uint64_t r = 40000000000ull;
    net_add_link(n, H1, S1, r, PS_PER_US);
    net_add_link(n, H2, S2, r, PS_PER_US);
    net_add_link(n, H3, S3, r, PS_PER_US);
    net_add_link(n, S1, S2, r, PS_PER_US);
    net_add_link(n, S2, S3, r, PS_PER_US);
    net_add_link(n, S3, S1, r, PS_PER_US);
    if (parallel)
        net_add_link(n, S1, S2, r, PS_PER_US);
    char why[256];
    if (cnt && net_add_route(n, S1, H3, route_next, cnt, why, sizeof why))
        return -1;
    struct switch_cfg c;
    test_swcfg(n, &c);
    return net_finalize(n, &c, why, sizeof why);
}

/* The set of ports net_route picks at node toward host over many hashes, as
 * a bit mask of local port indices (NONE32 counts as bit 31). */
static uint32_t picks(const struct net *n, uint32_t node, uint32_t host)
{
    uint32_t mask = 0;
    for (uint64_t h = 0; h < 256; h++) {
        uint32_t p = net_route(n, node, host, h * 0x9e3779b97f4a7c15ull);
        mask |= p == NONE32 ? 1u << 31 : 1u << n->ports[p].local;
    }
    return mask;
}

/* s1's ports in link order: 0 -> h1, 1 -> s2, 2 -> s3, 3 -> s2 (parallel). */
TEST(shortest_paths_without_routes)
{
    struct net n;
    CHECK_EQ(ring(&n, 0, NULL, 0), 0);
    CHECK_EQ(picks(&n, S1, H3), 1u << 2);
    CHECK_EQ(picks(&n, S1, H2), 1u << 1);
    net_free(&n);
}

TEST(route_overrides_one_cell)
{
    struct net n;
    uint32_t next[] = { S2 };
    CHECK_EQ(ring(&n, 0, next, 1), 0);
    CHECK_EQ(picks(&n, S1, H3), 1u << 1);          /* s1 -> s2, not the direct s1 -> s3 */
    CHECK_EQ(picks(&n, S1, H2), 1u << 1);          /* other cells keep shortest paths */
    CHECK_EQ(picks(&n, S1, H1), 1u << 0);
    /* s2's ports: 0 -> h2, 1 -> s1, 2 -> s3: it continues to s3 by shortest path */
    CHECK_EQ(picks(&n, S2, H3), 1u << 2);
    net_free(&n);
}

TEST(route_ecmp_and_parallel_links)
{
    struct net n;
    uint32_t next[] = { S2, S3 };
    CHECK_EQ(ring(&n, 0, next, 2), 0);
    CHECK_EQ(picks(&n, S1, H3), (1u << 1) | (1u << 2));
    net_free(&n);
    uint32_t one[] = { S2 };
    CHECK_EQ(ring(&n, 1, one, 1), 0);               /* both s1-s2 links are members */
    CHECK_EQ(picks(&n, S1, H3), (1u << 1) | (1u << 3));
    net_free(&n);
}

TEST(route_survives_link_failure)
{
    struct net n;
    char why[128];
    uint32_t next[] = { S2 };
    CHECK_EQ(ring(&n, 0, next, 1), 0);
    uint32_t s1s2 = net_port_between(&n, S1, S2);
    CHECK_EQ(net_set_link(&n, s1s2, 0, why, sizeof why), 0);
    /* No fallback to the shortest path s1 -> s3: the cell is empty, frames
     * to h3 at s1 are failure drops (switch_receive). */
    CHECK_EQ(picks(&n, S1, H3), 1u << 31);
    CHECK_EQ(picks(&n, S1, H2), 1u << 2);           /* unrouted cells do reroute: s1 -> s3 -> s2 */
    CHECK_EQ(net_set_link(&n, s1s2, 1, why, sizeof why), 0);
    CHECK_EQ(picks(&n, S1, H3), 1u << 1);
    net_free(&n);
    uint32_t two[] = { S2, S3 };
    CHECK_EQ(ring(&n, 0, two, 2), 0);
    s1s2 = net_port_between(&n, S1, S2);
    CHECK_EQ(net_set_link(&n, s1s2, 0, why, sizeof why), 0);
    CHECK_EQ(picks(&n, S1, H3), 1u << 2);           /* the member that is up */
    net_free(&n);
}

TEST(route_replaced_by_second)
{
    struct net n;
    char why[128];
    uint32_t a[] = { S2 }, b[] = { S3 };
    CHECK_EQ(ring(&n, 0, a, 1), 0);
    CHECK_EQ(net_add_route(&n, S1, H3, b, 1, why, sizeof why), 0);
    CHECK_EQ(n.n_sroutes, 1);
    /* applied at the next rebuild (any net_set_link) */
    CHECK_EQ(net_set_link(&n, net_port_between(&n, S2, S3), 0, why, sizeof why), 0);
    CHECK_EQ(picks(&n, S1, H3), 1u << 2);
    net_free(&n);
}

TEST(route_errors)
{
    struct net n;
    char why[256];
    CHECK_EQ(ring(&n, 0, NULL, 0), 0);
    uint32_t s2[] = { S2 }, h1[] = { H1 }, h3[] = { H3 }, s3[] = { S3 }, bad[] = { 99 };
    CHECK_EQ(net_add_route(&n, H1, H3, s2, 1, why, sizeof why), -1);
    CHECK(strstr(why, "'h1' is not a switch") != NULL);
    CHECK_EQ(net_add_route(&n, S1, S2, s2, 1, why, sizeof why), -1);
    CHECK(strstr(why, "'s2' is not a host") != NULL);
    CHECK_EQ(net_add_route(&n, S1, H3, h3, 1, why, sizeof why), -1);
    CHECK(strstr(why, "'h3' is not a neighbour of 's1'") != NULL);
    CHECK_EQ(net_add_route(&n, S1, H3, h1, 1, why, sizeof why), -1);
    CHECK(strstr(why, "host other than the destination") != NULL);
    CHECK_EQ(net_add_route(&n, S1, H3, bad, 1, why, sizeof why), -1);
    CHECK(strstr(why, "not a node") != NULL);
    CHECK_EQ(net_add_route(&n, S1, H3, s3, 0, why, sizeof why), -1);
    CHECK_EQ(net_add_route(&n, S3, H3, h3, 1, why, sizeof why), 0);   /* to its own host: allowed */
    CHECK_EQ(n.n_sroutes, 1);
    net_free(&n);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_routes";
    setvbuf(stdout, NULL, _IOLBF, 0);
    RUN(shortest_paths_without_routes);
    RUN(route_overrides_one_cell);
    RUN(route_ecmp_and_parallel_links);
    RUN(route_survives_link_failure);
    RUN(route_replaced_by_second);
    RUN(route_errors);
    return test_summary();
}
