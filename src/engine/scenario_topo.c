/*
 * scenario_topo.c -- the [topology] section: the built-in shapes (star,
 * multi_bottleneck, asymmetric) built here, the datacenter fabrics
 * (rocc_fattree, fattree, leafspine, rcc320, hpcc, crossdc) read here and built by
 * topology.c / topofile.c.  Keys and defaults: docs/config.md; every default
 * cites where it comes from.  Called by scenario_build() (scenario.c).
 */
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "engine/scenario_sections.h"
#include "engine/topology.h"

/* ---------- topologies ---------- */

static uint32_t add_node(struct scenario *sc, enum node_kind k, const char *fmt, int i)
{
    char name[32];
    snprintf(name, sizeof name, fmt, i);
    return net_add_node(&sc->net, k, name);
}

static int topo_star(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    uint64_t n, rate, brate, delay;
    TRY(cfg_u64(c, "topology", "senders", 2, &n, err));
    TRY(cfg_rate(c, "topology", "rate", 40000000000ull, &rate, err));       /* RoCC §6: 40 Gb/s */
    TRY(cfg_rate(c, "topology", "bottleneck_rate", rate, &brate, err));
    TRY(cfg_time(c, "topology", "delay", 1500 * PS_PER_NS, &delay, err));  /* RoCC §6: 1.5 us */
    if (n < 1 || n > 100000)
        return cfg_section_errorf(err, c, "topology", "senders must be 1..100000");
    if (!rate || !brate)
        return cfg_section_errorf(err, c, "topology", "link rates must be > 0");
    uint32_t sw = add_node(sc, NODE_SWITCH, "sw", 0);
    for (uint64_t i = 0; i < n; i++)
        net_add_link(&sc->net, add_node(sc, NODE_HOST, "h%d", (int)i), sw, rate, delay);
    net_add_link(&sc->net, sw, add_node(sc, NODE_HOST, "r0", 0), brate, delay);
    return 0;
}

/* RoCC Fig. 10: A0..A4 on S0, B0..B5 on S1, 10 Gb/s access, 40 Gb/s S0-S1. */
static int topo_multi(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    uint64_t acc, core, delay;
    TRY(cfg_rate(c, "topology", "access_rate", 10000000000ull, &acc, err));
    TRY(cfg_rate(c, "topology", "core_rate", 40000000000ull, &core, err));
    TRY(cfg_time(c, "topology", "delay", 1500 * PS_PER_NS, &delay, err));
    if (!acc || !core)
        return cfg_section_errorf(err, c, "topology", "link rates must be > 0");
    uint32_t s0 = add_node(sc, NODE_SWITCH, "S0", 0), s1 = add_node(sc, NODE_SWITCH, "S1", 0);
    net_add_link(&sc->net, s0, s1, core, delay);
    for (int i = 0; i < 5; i++)
        net_add_link(&sc->net, add_node(sc, NODE_HOST, "A%d", i), s0, acc, delay);
    for (int i = 0; i < 6; i++)
        net_add_link(&sc->net, add_node(sc, NODE_HOST, "B%d", i), s1, acc, delay);
    return 0;
}

/* RoCC §6.1 asymmetric: A0..A4 -40G- S0, A5,A6 -100G- S1, S0,S1 -100G- S2 -100G- B0. */
static int topo_asym(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    uint64_t ra, rb, core, delay;
    TRY(cfg_rate(c, "topology", "slow_rate", 40000000000ull, &ra, err));
    TRY(cfg_rate(c, "topology", "fast_rate", 100000000000ull, &rb, err));
    TRY(cfg_rate(c, "topology", "core_rate", 100000000000ull, &core, err));
    TRY(cfg_time(c, "topology", "delay", 1500 * PS_PER_NS, &delay, err));
    if (!ra || !rb || !core)
        return cfg_section_errorf(err, c, "topology", "link rates must be > 0");
    uint32_t s0 = add_node(sc, NODE_SWITCH, "S0", 0), s1 = add_node(sc, NODE_SWITCH, "S1", 0);
    uint32_t s2 = add_node(sc, NODE_SWITCH, "S2", 0);
    net_add_link(&sc->net, s0, s2, core, delay);
    net_add_link(&sc->net, s1, s2, core, delay);
    net_add_link(&sc->net, s2, add_node(sc, NODE_HOST, "B0", 0), core, delay);
    for (int i = 0; i < 5; i++)
        net_add_link(&sc->net, add_node(sc, NODE_HOST, "A%d", i), s0, ra, delay);
    for (int i = 5; i < 7; i++)
        net_add_link(&sc->net, add_node(sc, NODE_HOST, "A%d", i), s1, rb, delay);
    return 0;
}

/* ---------- datacenter fabrics (topology.c) ---------- */

static int topo_err(struct cfg_err *err, struct cfg *c, const char *why)
{
    return cfg_section_errorf(err, c, "topology", "%s", why);
}

static int u32_key(struct cfg *c, const char *key, uint64_t dflt, uint64_t max, uint32_t *out, struct cfg_err *err)
{
    uint64_t v;
    TRY(cfg_u64(c, "topology", key, dflt, &v, err));
    if (v < 1 || v > max)
        return cfg_errorf(err, cfg_find(c, "topology", key), "must be 1..%llu", (unsigned long long)max);
    *out = (uint32_t)v;
    return 0;
}

/* RoCC §6.3: 3 core, 3 edge, 30 hosts per edge at 40G, 2 x 100G per edge-core pair. */
static int topo_roccft(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    struct topo_rocc_fattree_params p;
    topo_rocc_fattree_defaults(&p);
    TRY(u32_key(c, "core", p.n_core, 4096, &p.n_core, err));
    TRY(u32_key(c, "edge", p.n_edge, 4096, &p.n_edge, err));
    TRY(u32_key(c, "hosts_per_edge", p.hosts_per_edge, 65000, &p.hosts_per_edge, err));
    TRY(u32_key(c, "uplinks", p.uplinks_per_pair, 255, &p.uplinks_per_pair, err));
    TRY(cfg_rate(c, "topology", "host_rate", p.host_bps, &p.host_bps, err));
    TRY(cfg_rate(c, "topology", "fabric_rate", p.fabric_bps, &p.fabric_bps, err));
    TRY(cfg_time(c, "topology", "delay", p.delay_ps, &p.delay_ps, err));
    if (!p.host_bps || !p.fabric_bps)
        return topo_err(err, c, "link rates must be > 0");
    char why[256];
    return topo_rocc_fattree(&sc->net, &p, &sc->layout, why, sizeof why) ? topo_err(err, c, why) : 0;
}

/* Bytes of the route tables of a k-ary fat-tree (src/net/route.c): one row
 * per route class -- a rack's hosts share their ToR, so k^2/2 classes --
 * with a 4 B cell per node; the port sets the cells point at are stored
 * once each (k = 34: 35 sets, 174 B) and the per-host exceptions are a
 * few entries each.  They dominate set-up memory and grow as k^5 (k = 34: 26 MB;
 * k = 48: 0.14 GB; measured peaks in docs/config.md). */
static double fattree_route_bytes(uint32_t k)
{
    double hosts = (double)k * k * k / 4, sws = 5.0 * k * k / 4, classes = (double)k * k / 2;
    return classes * (hosts + sws) * 4;
}

static int topo_kary(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    uint32_t k = 0;           /* set by u32_key; initialised for -O3 flow analysis */
    uint64_t rate, delay, mem_limit;
    TRY(u32_key(c, "k", 4, 128, &k, err));
    TRY(cfg_rate(c, "topology", "rate", 100000000000ull, &rate, err));
    TRY(cfg_time(c, "topology", "delay", 1 * PS_PER_US, &delay, err));
    /* Default bound 2 GB: k <= 82 (1.97 GB; k = 84 needs 2.22 GB), so the
     * default never thrashes a laptop or a shared CI machine. */
    TRY(cfg_bytes(c, "topology", "max_route_memory", 2000000000ull, &mem_limit, err));
    if (!rate)
        return topo_err(err, c, "link rates must be > 0");
    if (k % 2 == 0) {          /* odd k: topo_fattree_k says why */
        double est = fattree_route_bytes(k);
        char a[32], b[32];
        if (est > (double)mem_limit) {
            const struct cfg_entry *ke = cfg_find(c, "topology", "k");
            return cfg_errorf(err, ke ? ke : cfg_find(c, "topology", "type"),
                              "k = %u needs about %s for its route tables, above max_route_memory = %s "
                              "(raise [topology] max_route_memory to build it anyway)",
                              k, units_fmt_bytes(est, a, sizeof a), units_fmt_bytes((double)mem_limit, b, sizeof b));
        }
        /* Said now, on stderr, not with the run's warnings: those are printed
         * after the build, which is what takes the time and memory. */
        if (est > 100e6)
            fprintf(stderr, "roccsim: warning: %s: [topology] fattree k = %u: the route tables need about %s "
                    "and take a while to build (k = 48: 0.29 GB peak, 1 s; k = 64: 0.93 GB, 10 s on a busy 2-core machine)\n", cfg_path(c), k,
                    units_fmt_bytes(est, a, sizeof a));
    }
    char why[256];
    return topo_fattree_k(&sc->net, k, rate, delay, &sc->layout, why, sizeof why) ? topo_err(err, c, why) : 0;
}

static int topo_ls(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    struct topo_leafspine_params p;
    topo_leafspine_defaults(&p);
    TRY(u32_key(c, "leaves", p.n_leaf, 65000, &p.n_leaf, err));
    TRY(u32_key(c, "spines", p.n_spine, 65000, &p.n_spine, err));
    TRY(u32_key(c, "hosts_per_leaf", p.hosts_per_leaf, 65000, &p.hosts_per_leaf, err));
    TRY(cfg_rate(c, "topology", "host_rate", p.host_bps, &p.host_bps, err));
    TRY(cfg_rate(c, "topology", "fabric_rate", p.fabric_bps, &p.fabric_bps, err));
    TRY(cfg_time(c, "topology", "delay", p.delay_ps, &p.delay_ps, err));
    const struct cfg_entry *ov = cfg_find(c, "topology", "oversubscription");
    if (ov) {
        unsigned a, b;
        char tail;
        if (sscanf(ov->value, "%u:%u%c", &a, &b, &tail) != 2 || !a || !b)
            return cfg_errorf(err, ov, "expected a ratio like 2:1");
        p.oversub_num = a;
        p.oversub_den = b;
    }
    if (!p.host_bps || !p.fabric_bps)
        return topo_err(err, c, "link rates must be > 0");
    char why[256];
    return topo_leafspine(&sc->net, &p, &sc->layout, why, sizeof why) ? topo_err(err, c, why) : 0;
}

static int topo_rcc(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    char why[256];
    return topo_rcc320(&sc->net, &sc->layout, why, sizeof why) ? topo_err(err, c, why) : 0;
}

/* LSCC Fig. 1 / §IV-B: two k = 4 fat-trees, 40G servers, 100G fabric, 1 us,
 * egress switches joined by 200 Gb/s, 1 ms (topology.h, docs/crossdc.md). */
static int topo_xdc(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    struct topo_crossdc_params p;
    topo_crossdc_defaults(&p);
    TRY(u32_key(c, "k", p.k, 32, &p.k, err));
    TRY(cfg_rate(c, "topology", "host_rate", p.host_bps, &p.host_bps, err));
    TRY(cfg_rate(c, "topology", "fabric_rate", p.fabric_bps, &p.fabric_bps, err));
    TRY(cfg_time(c, "topology", "delay", p.delay_ps, &p.delay_ps, err));
    TRY(cfg_rate(c, "topology", "longhaul_rate", p.longhaul_bps, &p.longhaul_bps, err));
    TRY(cfg_time(c, "topology", "longhaul_delay", p.longhaul_delay_ps, &p.longhaul_delay_ps, err));
    TRY(u32_key(c, "longhaul_links", p.longhaul_links, 255, &p.longhaul_links, err));
    static const char *const yesno[] = { "no", "yes", NULL };
    int relays = 0;
    TRY(cfg_enum(c, "topology", "relays", yesno, 0, &relays, err));
    p.relays = (uint32_t)relays;
    if (relays && p.longhaul_links != 1)
        return cfg_errorf(err, cfg_find(c, "topology", "relays"), "relays = yes needs longhaul_links = 1");
    if (!p.host_bps || !p.fabric_bps || !p.longhaul_bps)
        return topo_err(err, c, "link rates must be > 0");
    if (p.longhaul_delay_ps > 100 * PS_PER_MS)
        return cfg_errorf(err, cfg_find(c, "topology", "longhaul_delay"), "must be at most 100ms");
    char why[256];
    return topo_crossdc(&sc->net, &p, &sc->layout, why, sizeof why) ? topo_err(err, c, why) : 0;
}

static int topo_hpcc(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    const struct cfg_entry *e = cfg_find(c, "topology", "file");
    if (!e)
        return cfg_section_errorf(err, c, "topology", "type = hpcc needs a 'file' key");
    char path[4096], why[512];
    const char *base = cfg_path(c), *slash = strrchr(base, '/');
    if (e->value[0] == '/' || !slash)
        snprintf(path, sizeof path, "%s", e->value);
    else
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - base), base, e->value);
    if (topo_load_hpcc(&sc->net, path, &sc->layout, why, sizeof why)) {
        snprintf(err->msg, sizeof err->msg, "%s", why);
        return -1;
    }
    return 0;
}

/* ---------- dispatch ---------- */

int scenario_topology(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    static const char *const types[] = { "star", "multi_bottleneck", "asymmetric", "file", "rocc_fattree",
                                         "fattree", "leafspine", "rcc320", "hpcc", "crossdc", NULL };
    int type;
    TRY(cfg_enum(c, "topology", "type", types, 0, &type, err));
    int (*builders[])(struct scenario *, struct cfg *, struct cfg_err *) = {
        topo_star, topo_multi, topo_asym, scenario_topo_file, topo_roccft, topo_kary, topo_ls, topo_rcc, topo_hpcc,
        topo_xdc };
    return builders[type](sc, c, err);
}
