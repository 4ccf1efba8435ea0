/*
 * topo_crossdc.c -- two datacenters joined by a long-haul link (LSCC Fig. 1,
 * §IV-B).  The fabric and its layout are described in topology.h; the
 * PFC rule for the long link (headroom on top of the buffer, its own XOFF)
 * is net_link_set_longhaul's (net.h) and docs/crossdc.md's.
 */
#include "engine/topology.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/text.h"
#include "core/units.h"

void topo_crossdc_defaults(struct topo_crossdc_params *p)
{
    *p = (struct topo_crossdc_params){
        .k = 4,                                   /* Fig. 1: two servers per ToR */
        .host_bps = 40000000000ull,               /* §IV-B: ToR-server 40 Gb/s */
        .fabric_bps = 100000000000ull,            /* §IV-B: "all other links 100Gbps" */
        .delay_ps = PS_PER_US,                    /* §IV-B: 1 us inside a datacenter */
        .longhaul_bps = 200000000000ull,          /* §IV-B: 200 Gb/s */
        .longhaul_delay_ps = PS_PER_MS,           /* §IV-B: 1 ms ("200km") */
        .longhaul_links = 1,
    };
}

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (errlen) {
        snprintf(err, errlen, "crossdc: %s", msg);
        text_escape_inplace(err, errlen);
    }
    return -1;
}

int topo_crossdc(struct net *n, const struct topo_crossdc_params *p,
                 struct topo_layout *out, char *err, size_t errlen)
{
    struct topo_crossdc_params d;
    if (errlen)
        err[0] = '\0';
    if (n->n_nodes || n->n_links)
        return fail(err, errlen, "the net already has nodes or links; build into a fresh net");
    if (!p) {
        topo_crossdc_defaults(&d);
        p = &d;
    }
    uint32_t k = p->k;
    /* k <= 32: 8192 hosts per datacenter; the egress switch has (k/2)^2
     * core links, at most 256 (ports fit, ECMP toward a datacenter <= 255
     * is checked below). */
    if (k < 2 || k > 32 || k % 2)
        return fail(err, errlen, "k must be even, 2..32 (got %u)", k);
    if (!p->host_bps || !p->fabric_bps || !p->longhaul_bps)
        return fail(err, errlen, "link rates must be > 0");
    if (p->longhaul_links < 1 || p->longhaul_links > 255)
        return fail(err, errlen, "longhaul_links must be 1..255 (got %u)", p->longhaul_links);
    if (p->relays > 1 || (p->relays && p->longhaul_links != 1))
        return fail(err, errlen, "relays needs longhaul_links = 1 (one relay device at each end)");
    uint32_t h = k / 2, cores = h * h;
    if (cores > 255)
        return fail(err, errlen, "k = %u gives more than 255 cores per egress switch (ECMP limit)", k);
    uint32_t hpd = k * h * h;                 /* hosts per datacenter: k^3/4 */
    uint32_t epd = k * h, apd = k * h;        /* edges, aggs per datacenter */
    struct topo_layout lay = {
        .n_hosts = 2 * hpd, .n_edge = 2 * epd, .n_agg = 2 * apd, .n_core = 2 * cores,
        .n_pods = 2 * k, .edges_per_pod = h, .aggs_per_pod = h, .hosts_per_edge = h,
        .uplinks_per_pair = 1, .first_host = 0, .first_edge = 2 * hpd,
        .first_agg = 2 * hpd + 2 * epd, .first_core = 2 * hpd + 4 * epd,
        .n_dc = 2, .hosts_per_dc = hpd, .first_egress = 2 * hpd + 4 * epd + 2 * cores,
    };
    int failed = 0;
    char name[sizeof n->nodes[0].name];
#define NODE(kind_, tier_, ...) do {                                            \
        snprintf(name, sizeof name, __VA_ARGS__);                             \
        uint32_t id_ = net_add_node(n, kind_, name);                           \
        if (id_ == NONE32) failed = 1; else n->nodes[id_].tier = (uint8_t)(tier_); \
    } while (0)
#define LINK(a, b, r, dl) do {                                                \
        if (net_add_link(n, a, b, r, dl) == NONE32) failed = 1;               \
    } while (0)
    for (uint32_t i = 0; i < 2 * hpd && !failed; i++)
        NODE(NODE_HOST, TIER_NONE, "h%u", i);
    for (uint32_t dc = 0; dc < 2; dc++)
        for (uint32_t e = 0; e < epd && !failed; e++)
            NODE(NODE_SWITCH, TIER_EDGE, "dc%u_edge%u_%u", dc, e / h, e % h);
    for (uint32_t dc = 0; dc < 2; dc++)
        for (uint32_t a = 0; a < apd && !failed; a++)
            NODE(NODE_SWITCH, TIER_AGG, "dc%u_agg%u_%u", dc, a / h, a % h);
    for (uint32_t dc = 0; dc < 2; dc++)
        for (uint32_t c = 0; c < cores && !failed; c++)
            NODE(NODE_SWITCH, TIER_CORE, "dc%u_core%u", dc, c);
    for (uint32_t dc = 0; dc < 2 && !failed; dc++)
        NODE(NODE_SWITCH, TIER_NONE, "egress%u", dc);
    for (uint32_t dc = 0; p->relays && dc < 2 && !failed; dc++)
        NODE(NODE_SWITCH, TIER_NONE, "relay%u", dc);
    if (failed)
        return fail(err, errlen, "out of memory");
    for (uint32_t i = 0; i < 2 * hpd; i++)
        LINK(i, lay.first_edge + i / h, p->host_bps, p->delay_ps);
    for (uint32_t dc = 0; dc < 2; dc++) {
        uint32_t e0 = lay.first_edge + dc * epd, a0 = lay.first_agg + dc * apd;
        for (uint32_t e = 0; e < epd; e++)                    /* full mesh in a pod */
            for (uint32_t j = 0; j < h; j++)
                LINK(e0 + e, a0 + (e / h) * h + j, p->fabric_bps, p->delay_ps);
    }
    for (uint32_t dc = 0; dc < 2; dc++) {
        uint32_t a0 = lay.first_agg + dc * apd, c0 = lay.first_core + dc * cores;
        for (uint32_t a = 0; a < apd; a++)                    /* agg j -> core group j */
            for (uint32_t i = 0; i < h; i++)
                LINK(a0 + a, c0 + (a % h) * h + i, p->fabric_bps, p->delay_ps);
    }
    for (uint32_t dc = 0; dc < 2; dc++)
        for (uint32_t c = 0; c < cores; c++)
            LINK(lay.first_core + dc * cores + c, lay.first_egress + dc, p->fabric_bps, p->delay_ps);
    /* SWING's relays: "close to the egress switch" (LSCC §IV-C), at the
     * long-haul rate and the datacenter delay (ours). */
    uint32_t lh_a = lay.first_egress, lh_b = lay.first_egress + 1;
    if (p->relays) {
        lh_a = lay.first_egress + 2;
        lh_b = lay.first_egress + 3;
        for (uint32_t dc = 0; dc < 2; dc++)
            LINK(lay.first_egress + dc, lay.first_egress + 2 + dc, p->longhaul_bps, p->delay_ps);
    }
    lay.first_longhaul = n->n_links;
    lay.n_longhaul = p->longhaul_links;
    for (uint32_t l = 0; l < p->longhaul_links; l++) {
        LINK(lh_a, lh_b, p->longhaul_bps, p->longhaul_delay_ps);
        if (!failed)
            net_link_set_longhaul(n, n->n_links - 1);
    }
#undef NODE
#undef LINK
    if (failed)
        return fail(err, errlen, "out of memory");
    lay.n_links = n->n_links;
    lay.n_switches = lay.n_edge + lay.n_agg + lay.n_core + 2 + 2 * p->relays;
    if (out)
        *out = lay;
    return 0;
}
