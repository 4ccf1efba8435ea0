/*
 * scenario.c -- from an INI scenario to a ready-to-run fabric.
 * The keys and their defaults are documented in docs/config.md; every
 * default below cites where it comes from.
 */
#include "engine/scenario.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/text.h"
#include "core/units.h"
#include "engine/attack.h"
#include "engine/ccsel.h"
#include "engine/deadlock.h"
#include "engine/events.h"
#include "engine/fcsel.h"
#include "engine/xbarsel.h"
#include "engine/linkflows.h"
#include "engine/topology.h"
#include "engine/traffic.h"
#include "net/agent_rocc.h"

#define TRY(x) do { if ((x) < 0) return -1; } while (0)


/* ---------- node names and lists ---------- */

uint32_t scenario_node(const struct scenario *sc, const char *name)
{
    for (uint32_t i = 0; i < sc->net.n_nodes; i++)
        if (strcmp(sc->net.nodes[i].name, name) == 0)
            return i;
    return NONE32;
}

/* Expand "A0..A4 B5, h7" into node indices.  A range is PREFIX<i>..PREFIX<j>
 * with the same prefix.  Returns the count, or -1 with err. */
int scenario_nodes(struct scenario *sc, const struct cfg_entry *e, uint32_t *out, uint32_t max,
                   struct cfg_err *err)
{
    char buf[CFG_MAX_LINE + 1];
    snprintf(buf, sizeof buf, "%s", e->value);
    uint32_t n = 0;
    for (char *tok = strtok(buf, " ,\t"); tok; tok = strtok(NULL, " ,\t")) {
        char *dots = strstr(tok, "..");
        if (!dots) {
            uint32_t id = scenario_node(sc, tok);
            if (id == NONE32)
                return cfg_errorf(err, e, "no node named '%s'", tok);
            if (n == max)
                return cfg_errorf(err, e, "too many nodes");
            out[n++] = id;
            continue;
        }
        *dots = 0;
        const char *a = tok, *b = dots + 2;
        size_t pa = strlen(a), pb = strlen(b);
        while (pa && isdigit((unsigned char)a[pa - 1])) pa--;
        while (pb && isdigit((unsigned char)b[pb - 1])) pb--;
        if (pa != pb || strncmp(a, b, pa) != 0 || !a[pa] || !b[pb])
            return cfg_errorf(err, e, "bad range '%s..%s': use PREFIX<i>..PREFIX<j>", a, b);
        unsigned long lo = strtoul(a + pa, NULL, 10), hi = strtoul(b + pb, NULL, 10);
        if (hi < lo)
            return cfg_errorf(err, e, "empty range '%s..%s'", a, b);
        for (unsigned long i = lo; i <= hi; i++) {
            char name[64];
            snprintf(name, sizeof name, "%.*s%lu", (int)pa, a, i);
            uint32_t id = scenario_node(sc, name);
            if (id == NONE32)
                return cfg_errorf(err, e, "no node named '%s' (in range %s..%s)", name, a, b);
            if (n == max)
                return cfg_errorf(err, e, "too many nodes");
            out[n++] = id;
        }
    }
    if (n == 0)
        return cfg_errorf(err, e, "empty node list");
    return (int)n;
}

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

/* Bytes of the route tables of a k-ary fat-tree (net.c build_routes): per
 * (node, destination host) a 4 B offset and a 1 B count, and a 2 B port per
 * ECMP member: one for a host, at most k/2 for a switch.  They dominate the
 * memory and grow as k^5 (measured peak RSS: k = 16 32 MB, 24 200 MB,
 * 32 0.9 GB; k = 64 would need about 54 GB). */
static double fattree_route_bytes(uint32_t k)
{
    double hosts = (double)k * k * k / 4, sws = 5.0 * k * k / 4;
    return (hosts + sws) * hosts * 7 + sws * hosts * (k / 2) * 2;
}

static int topo_kary(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    uint32_t k = 0;           /* set by u32_key; initialised for -O3 flow analysis */
    uint64_t rate, delay, mem_limit;
    TRY(u32_key(c, "k", 4, 64, &k, err));
    TRY(cfg_rate(c, "topology", "rate", 100000000000ull, &rate, err));
    TRY(cfg_time(c, "topology", "delay", 1 * PS_PER_US, &delay, err));
    /* Default bound 2 GB: k <= 36 (1.8 GB; k = 38 needs 2.4 GB), so the
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
                    "and take a while to build (k = 32: 0.9 GB, about 40 s)\n", cfg_path(c), k,
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

/* ---------- network-wide settings ---------- */

static int build_network(struct scenario *sc, struct cfg *c, struct switch_cfg *swc, struct cfg_err *err)
{
    struct net_cfg *nc = &sc->net.cfg;
    uint64_t v;
    static const char *const modes[] = { "lossless", "lossy", NULL };
    static const char *const thr[] = { "static", "dynamic", NULL };
    int mode, dyn;
    TRY(cfg_bytes(c, "network", "mtu", 1000, &v, err));           /* RoCC §6 / HPCC: 1000 B payload */
    if (v < 64 || v > 9000)
        return cfg_errorf(err, cfg_find(c, "network", "mtu"), "mtu (payload bytes) must be 64..9000");
    nc->mtu_payload = (uint32_t)v;
    TRY(cfg_bytes(c, "network", "preamble_ifg", 20, &v, err));    /* 802.3: 8 B preamble+SFD, 12 B IFG */
    if (v > 1000)
        return cfg_errorf(err, cfg_find(c, "network", "preamble_ifg"), "must be at most 1000 B");
    nc->preamble_ifg = (uint32_t)v;
    TRY(cfg_u64(c, "network", "data_class", 3, &v, err));         /* HPCC simulator: data in class 3 */
    if (v > 7)
        return cfg_errorf(err, cfg_find(c, "network", "data_class"), "classes are 0..7");
    nc->data_prio = (uint8_t)v;
    TRY(cfg_u64(c, "network", "ctrl_class", 7, &v, err));
    if (v > 7 || v == nc->data_prio)
        return cfg_errorf(err, cfg_find(c, "network", "ctrl_class"), "must be 0..7 and differ from data_class");
    nc->ctrl_prio = (uint8_t)v;
    TRY(cfg_bool(c, "network", "ack_high_prio", 1, &nc->ack_high_prio, err));
    TRY(cfg_bool(c, "network", "cnp_filter", 1, &nc->cnp_filter, err));   /* issue 11: docs/rocc.md */
    TRY(cfg_u64(c, "network", "ack_interval", 1, &v, err));
    if (v < 1 || v > 1000000)
        return cfg_errorf(err, cfg_find(c, "network", "ack_interval"), "must be 1..1000000 packets");
    nc->ack_interval = (uint32_t)v;
    TRY(cfg_time(c, "network", "nic_delay", 15 * PS_PER_US, &nc->nic_delay_ps, err)); /* RoCC §6 */
    TRY(cfg_enum(c, "network", "mode", modes, 0, &mode, err));
    sc->lossless = mode == 0;
    TRY(cfg_time(c, "network", "rto", sc->lossless ? 0 : 500 * PS_PER_US, &nc->rto_ps, err)); /* HPCC: 500 us */
    TRY(cfg_time(c, "network", "nack_interval", 500 * PS_PER_US, &nc->nack_interval_ps, err));
    if (!sc->lossless && nc->rto_ps == 0)
        return cfg_errorf(err, cfg_find(c, "network", "rto"), "lossy mode needs a retransmission timeout > 0");
    TRY(cfg_u64(c, "network", "pacer_burst", 1, &v, err));       /* host.c: one frame of catch-up */
    if (v > 64)
        return cfg_errorf(err, cfg_find(c, "network", "pacer_burst"), "must be 0..64 (multiples of the burst bound, docs/config.md)");
    nc->pacer_burst = (uint32_t)v;

    memset(swc, 0, sizeof *swc);
    const struct cfg_entry *be = cfg_find(c, "network", "buffer");
    if (be && !strcmp(be->value, "unlimited")) {
        swc->buffer_bytes = 0;
    } else {
        TRY(cfg_bytes(c, "network", "buffer", 32000000, &swc->buffer_bytes, err)); /* HPCC config.txt: 32 MB */
        if (swc->buffer_bytes == 0)
            return cfg_errorf(err, be, "buffer must be > 0 (or 'unlimited')");
    }
    swc->pfc = sc->lossless && swc->buffer_bytes != 0;
    TRY(cfg_enum(c, "network", "pfc_threshold", thr, 0, &dyn, err));
    swc->dynamic = dyn;
    const struct cfg_entry *xe = cfg_find(c, "network", "xoff");
    if (xe && strcmp(xe->value, "auto") != 0) {
        TRY(cfg_bytes(c, "network", "xoff", 0, &swc->xoff_bytes, err));
        if (swc->xoff_bytes == 0)
            return cfg_errorf(err, xe, "xoff must be > 0 (or 'auto')");
    }
    TRY(cfg_double(c, "network", "alpha", 0.125, &swc->alpha, err));     /* HPCC MMU: shift 3 = 1/8 */
    if (!(swc->alpha > 0 && swc->alpha <= 64))
        return cfg_errorf(err, cfg_find(c, "network", "alpha"), "alpha must be in (0, 64]");
    TRY(cfg_bytes(c, "network", "xon_offset", 3000, &swc->xon_offset, err)); /* HPCC MMU: resume offset 3 KB */
    TRY(cfg_bytes(c, "network", "reserve", 4000, &swc->reserve_bytes, err)); /* HPCC MMU: 4 KB per (port, queue) */
    const struct cfg_entry *he = cfg_find(c, "network", "headroom");
    if (he && strcmp(he->value, "auto") != 0) {
        TRY(cfg_bytes(c, "network", "headroom", 0, &swc->headroom_bytes, err));
        if (swc->headroom_bytes == 0)
            return cfg_errorf(err, he, "headroom must be > 0 (or 'auto')");
    }
    uint64_t quantum;
    TRY(cfg_bytes(c, "network", "drr_quantum", 9000, &quantum, err));
    if (quantum < 64)
        return cfg_errorf(err, cfg_find(c, "network", "drr_quantum"), "must be >= 64 B");
    for (int i = 0; i < NCLASS; i++)
        swc->quantum[i] = (uint32_t)quantum;
    swc->lossless_mask = (uint8_t)(1u << nc->data_prio);
    swc->strict_mask = (uint8_t)(1u << nc->ctrl_prio);
    return 0;
}

/* ---------- RoCC ---------- */

struct rocc_over {               /* [rocc] keys the user set (0 = per-link default) */
    uint64_t period, q_ref, q_mid, q_max, f_min, f_max, f_init, q_unit, f_unit;
    double alpha, beta;
    int has_alpha, has_beta;
    int md_qmax;                 /* enum rocc_cp_md_qmax */
};

static int rocc_params_for(struct scenario *sc, struct cfg *c, const struct rocc_over *o, uint32_t port,
                           struct rocc_cp_params *p, struct cfg_err *err)
{
    rocc_cp_params_default(p, sc->net.ports[port].rate_bps);
    /* A new resolution keeps the defaults' meaning: thresholds stay the same
     * bytes and rates, expressed in the new units. */
    if (o->q_unit) {
        p->q_ref = (uint32_t)((uint64_t)p->q_ref * p->q_unit_bytes / o->q_unit);
        p->q_mid = (uint32_t)((uint64_t)p->q_mid * p->q_unit_bytes / o->q_unit);
        p->q_max = (uint32_t)((uint64_t)p->q_max * p->q_unit_bytes / o->q_unit);
        p->q_unit_bytes = (uint32_t)o->q_unit;
    }
    if (o->f_unit) {
        uint64_t nu = o->f_unit / 1000000;
        p->f_min = (uint32_t)((uint64_t)p->f_min * p->f_unit_mbps / nu);
        p->f_max = (uint32_t)((uint64_t)p->f_max * p->f_unit_mbps / nu);
        p->f_unit_mbps = (uint32_t)nu;
    }
    if (o->period) p->period_ps = o->period;
    if (o->q_ref) p->q_ref = (uint32_t)(o->q_ref / p->q_unit_bytes);
    if (o->q_mid) p->q_mid = (uint32_t)(o->q_mid / p->q_unit_bytes);
    if (o->q_max) p->q_max = (uint32_t)(o->q_max / p->q_unit_bytes);
    uint64_t unit = (uint64_t)p->f_unit_mbps * 1000000;
    if (o->f_max) p->f_max = (uint32_t)(o->f_max / unit);
    if (o->f_min) p->f_min = (uint32_t)(o->f_min / unit);
    p->f_init = o->f_init ? (uint32_t)(o->f_init / unit) : p->f_max;
    if (o->has_alpha) p->alpha_q16 = (uint32_t)(o->alpha * 65536.0 + 0.5);
    if (o->has_beta) p->beta_q16 = (uint32_t)(o->beta * 65536.0 + 0.5);
    p->md_qmax = (uint32_t)o->md_qmax;
    char why[160];
    if (rocc_cp_params_check(p, why, sizeof why)) {
        const struct net *n = &sc->net;
        /* Point at the first key the user set that the reason names. */
        static const char *const keys[] = { "q_ref", "q_mid", "q_max", "f_min", "f_max", "f_init",
                                            "alpha", "beta", "period", "q_unit", "f_unit", NULL };
        const struct cfg_entry *e = NULL;
        for (int i = 0; keys[i] && !e; i++)
            if (strstr(why, keys[i]))
                e = cfg_find(c, "rocc", keys[i]);
        if (e)
            return cfg_errorf(err, e, "invalid for port %s->%s: %s", n->nodes[n->ports[port].node].name,
                              n->nodes[n->ports[n->ports[port].peer].node].name, why);
        return cfg_section_errorf(err, c, "rocc", "invalid RoCC parameters for port %s->%s: %s",
                                  n->nodes[n->ports[port].node].name,
                                  n->nodes[n->ports[n->ports[port].peer].node].name, why);
    }
    return 0;
}

static int build_rocc(struct scenario *sc, struct cfg *c, int any_rocc, struct cfg_err *err)
{
    struct rocc_over o;
    memset(&o, 0, sizeof o);
    TRY(cfg_time(c, "rocc", "period", 0, &o.period, err));
    TRY(cfg_bytes(c, "rocc", "q_ref", 0, &o.q_ref, err));
    TRY(cfg_bytes(c, "rocc", "q_mid", 0, &o.q_mid, err));
    TRY(cfg_bytes(c, "rocc", "q_max", 0, &o.q_max, err));
    TRY(cfg_rate(c, "rocc", "f_min", 0, &o.f_min, err));
    TRY(cfg_rate(c, "rocc", "f_max", 0, &o.f_max, err));
    TRY(cfg_rate(c, "rocc", "f_init", 0, &o.f_init, err));
    TRY(cfg_bytes(c, "rocc", "q_unit", 0, &o.q_unit, err));
    TRY(cfg_rate(c, "rocc", "f_unit", 0, &o.f_unit, err));
    if (o.f_unit && (o.f_unit % 1000000 || o.f_unit > 4000000000000ull))
        return cfg_errorf(err, cfg_find(c, "rocc", "f_unit"), "f_unit must be a whole number of Mbps");
    o.has_alpha = cfg_find(c, "rocc", "alpha") != NULL;
    o.has_beta = cfg_find(c, "rocc", "beta") != NULL;
    TRY(cfg_double(c, "rocc", "alpha", 0, &o.alpha, err));
    TRY(cfg_double(c, "rocc", "beta", 0, &o.beta, err));
    if ((o.has_alpha && !(o.alpha > 0 && o.alpha < 256)) || (o.has_beta && !(o.beta > 0 && o.beta < 256)))
        return cfg_section_errorf(err, c, "rocc", "alpha and beta must be in (0, 256)");
    int cnp_at_fmax;
    TRY(cfg_bool(c, "rocc", "cnp_at_fmax", 0, &cnp_at_fmax, err));
    /* Qmax-branch MD: the paper's F = Fmin, or F/2 (docs/rocc.md, several
     * saturated CPs in series). Order = enum rocc_cp_md_qmax. */
    static const char *const mdq[] = { "fmin", "half", NULL };
    TRY(cfg_enum(c, "rocc", "md_qmax", mdq, 0, &o.md_qmax, err));
    static const char *const kinds[] = { "queue", "bounded", "elephant", NULL };
    int kind;
    TRY(cfg_enum(c, "rocc", "flow_table", kinds, 0, &kind, err));
    uint64_t tsize, max_age, sample, eleph;
    TRY(cfg_u64(c, "rocc", "table_size", 0, &tsize, err));
    if (tsize > (1u << 24))
        return cfg_errorf(err, cfg_find(c, "rocc", "table_size"), "table_size must be at most 16777216 entries");
    TRY(cfg_time(c, "rocc", "max_age", 0, &max_age, err));
    TRY(cfg_u64(c, "rocc", "sample_one_in", 20, &sample, err));
    TRY(cfg_u64(c, "rocc", "elephant_count", 2, &eleph, err));
    uint64_t recovery = 0;
    const struct cfg_entry *rce = cfg_find(c, "rocc", "recovery");
    if (rce && strcmp(rce->value, "auto") != 0) {
        TRY(cfg_time(c, "rocc", "recovery", 0, &recovery, err));
        if (recovery == 0)
            return cfg_errorf(err, rce, "must be > 0 (or 'auto')");
    }
    rocc_rp_params_default(&sc->net.rp_params, 0);
    if (o.f_unit)
        sc->net.rp_params.f_unit_mbps = (uint32_t)(o.f_unit / 1000000);

    /* Which egress ports run a CP. */
    const struct cfg_entry *en = cfg_find(c, "rocc", "enable");
    const char *ev = en ? en->value : "auto";
    uint32_t *list = NULL;
    int nlist = 0, all = 0;
    if (!strcmp(ev, "auto"))
        all = any_rocc;
    else if (!strcmp(ev, "all"))
        all = 1;
    else if (strcmp(ev, "none") != 0) {
        /* "S0->S1 sw->r0": ports named FROM->TO */
        char buf[CFG_MAX_LINE + 1];
        snprintf(buf, sizeof buf, "%s", ev);
        list = malloc(sc->net.n_ports * sizeof *list);
        if (!list)
            return cfg_errorf(err, en, "out of memory");
        for (char *t = strtok(buf, " ,"); t; t = strtok(NULL, " ,")) {
            char *arrow = strstr(t, "->");
            uint32_t a = NONE32, b = NONE32, nth = 1;
            if (arrow) {
                *arrow = 0;
                char *hash = strchr(arrow + 2, '#');     /* parallel links: A->B#2 */
                if (hash) {
                    *hash = 0;
                    nth = (uint32_t)strtoul(hash + 1, NULL, 10);
                }
                a = scenario_node(sc, t);
                b = scenario_node(sc, arrow + 2);
            }
            uint32_t p = NONE32;
            if (a != NONE32 && b != NONE32 && nth >= 1) {
                const struct node *nd = &sc->net.nodes[a];
                for (uint32_t k = 0, seen = 0; k < nd->n_ports && p == NONE32; k++)
                    if (sc->net.ports[sc->net.ports[nd->first_port + k].peer].node == b && ++seen == nth)
                        p = nd->first_port + k;
            }
            if (p == NONE32 || sc->net.nodes[a].kind != NODE_SWITCH) {
                free(list);
                return cfg_errorf(err, en, "'%s%s%s' is not a switch egress port (write SWITCH->NEIGHBOUR)",
                                  t, arrow ? "->" : "", arrow ? arrow + 2 : "");
            }
            if (nlist < (int)sc->net.n_ports)
                list[nlist++] = p;
        }
    }
    if (!any_rocc && cfg_has_section(c, "rocc") && strcmp(ev, "all") != 0 && (!en || strcmp(ev, "auto") == 0))
        scenario_warn(sc, "%s: [rocc] is set but no flow group uses rocc (its keys have no effect)", cfg_path(c));
    int rc = 0;
    simtime_t max_period = 0;
    for (uint32_t p = 0; p < sc->net.n_ports && rc == 0; p++) {
        if (sc->net.nodes[sc->net.ports[p].node].kind != NODE_SWITCH)
            continue;
        int on = all;
        for (int i = 0; i < nlist && !on; i++)
            on = list[i] == p;
        if (!on)
            continue;
        struct rocc_cp_params prm;
        if (rocc_params_for(sc, c, &o, p, &prm, err)) {
            rc = -1;
            break;
        }
        struct rocc_ft_params ftp;
        uint64_t cap = tsize;
        if (cap == 0) {
            /* Two slots per flow of the run (at most 2^20): the QUEUE table
             * then never overflows. */
            uint64_t flows = sc->net.n_flows * 2ull;
            cap = flows < 64 ? 64 : flows;
            if (cap > (1u << 20))
                cap = 1u << 20;
        }
        uint32_t cap2 = 1;
        while (cap2 < cap)
            cap2 <<= 1;
        static const enum rocc_ft_kind kmap[] = { ROCC_FT_QUEUE, ROCC_FT_BOUNDED, ROCC_FT_ETRAP };
        rocc_ft_params_default(&ftp, kmap[kind], cap2, prm.period_ps);
        if (max_age)
            ftp.max_age_ps = max_age;
        ftp.sample_one_in = (uint32_t)(sample ? sample : 1);
        ftp.elephant_count = (uint32_t)(eleph ? eleph : 1);
        ftp.seed = rng_next(&sc->net.rng);
        if (prm.period_ps > max_period)
            max_period = prm.period_ps;
        if (rocc_agent_attach(&sc->net, p, &prm, &ftp, cnp_at_fmax, 0) == NONE32) {
            cfg_section_errorf(err, c, "rocc", "cannot create the CP (out of memory?)");
            rc = -1;
        }
    }
    free(list);
    /* RP fast-recovery timer.  The authors' RP doubles after 55 us without a
     * CNP, with T = 40 us: 1.375 T.  'auto' keeps that ratio to the longest
     * CP period of the run, so a CP with T = 100 us (§6.2) is not undercut by
     * doublings between its CNPs.  */
    if (recovery == 0)
        recovery = max_period ? max_period * 11 / 8 : 55 * PS_PER_US;
    sc->net.rp_params.recovery_ps = recovery;
    return rc;
}

/* ---------- flows ---------- */

struct flow_ctx { struct scenario *sc; struct cfg_err *err; int rc; int dflt_cc; int any_rocc; };

static int build_group(struct scenario *sc, const char *sec, int dflt_cc, int *any_rocc, struct cfg_err *err)
{
    struct cfg *c = sc->cfg;
    const char *gname = sec + strlen("flows.");
    if (!*gname || strlen(gname) >= sizeof sc->groups[0].name)
        return cfg_section_errorf(err, c, sec, "flow group names are 1..47 characters: [flows.NAME]");
    static const char *const keys[] = { "src", "dst", "pairing", "count", "size", "rate", "start", "start_jitter",
                                        "stop", "cc", "class", "window", NULL };
    cfg_touch(c, sec, keys);
    const struct cfg_entry *se = cfg_find(c, sec, "src"), *de = cfg_find(c, sec, "dst");
    if (!se || !de)
        return cfg_section_errorf(err, c, sec, "a flow group needs 'src' and 'dst'");
    uint32_t *src = malloc(sc->net.n_nodes * sizeof *src), *dst = malloc(sc->net.n_nodes * sizeof *dst);
    if (!src || !dst) {
        free(src);
        free(dst);
        return cfg_section_errorf(err, c, sec, "out of memory");
    }
    int ns = scenario_nodes(sc, se, src, sc->net.n_nodes, err);
    int nd = ns < 0 ? -1 : scenario_nodes(sc, de, dst, sc->net.n_nodes, err);
    int rc = nd < 0 ? -1 : 0;
    for (int i = 0; rc == 0 && i < ns; i++)
        if (sc->net.nodes[src[i]].kind != NODE_HOST)
            rc = cfg_errorf(err, se, "'%s' is a switch; flows go between hosts", sc->net.nodes[src[i]].name);
    for (int i = 0; rc == 0 && i < nd; i++)
        if (sc->net.nodes[dst[i]].kind != NODE_HOST)
            rc = cfg_errorf(err, de, "'%s' is a switch; flows go between hosts", sc->net.nodes[dst[i]].name);
    static const char *const pairings[] = { "all", "zip", NULL };
    int pairing = 0, cc = dflt_cc;
    uint64_t count = 1, size = UINT64_MAX, start = 0, stop = SIMTIME_NEVER, window = 0, cls = sc->net.cfg.data_prio;
    uint64_t app_rate = 0;
    double frac = 0;
    if (rc == 0) rc = cfg_enum(c, sec, "pairing", pairings, 0, &pairing, err);
    if (rc == 0) rc = cfg_u64(c, sec, "count", 1, &count, err);
    if (rc == 0 && (count < 1 || count > 1000000))
        rc = cfg_errorf(err, cfg_find(c, sec, "count"), "count must be 1..1000000");
    const struct cfg_entry *sz = rc == 0 ? cfg_find(c, sec, "size") : NULL;
    if (rc == 0 && sz && strcmp(sz->value, "inf") != 0) {
        rc = cfg_bytes(c, sec, "size", 0, &size, err);
        if (rc == 0 && (size == 0 || size >= UINT64_MAX / 2))
            rc = cfg_errorf(err, sz, "size must be > 0 bytes (or 'inf')");
    }
    const struct cfg_entry *re = rc == 0 ? cfg_find(c, sec, "rate") : NULL;
    if (rc == 0 && re && strcmp(re->value, "line") != 0) {
        if (strchr(re->value, '%')) {
            rc = cfg_percent(c, sec, "rate", 0, &frac, err);
            if (rc == 0 && !(frac > 0 && frac <= 1))
                rc = cfg_errorf(err, re, "rate must be in (0%%, 100%%] of the source link");
        } else {
            rc = cfg_rate(c, sec, "rate", 0, &app_rate, err);
            if (rc == 0 && app_rate == 0)
                rc = cfg_errorf(err, re, "rate must be > 0");
        }
    }
    uint64_t jitter = 0;
    if (rc == 0) rc = cfg_time(c, sec, "start", 0, &start, err);
    if (rc == 0) rc = cfg_time(c, sec, "start_jitter", 0, &jitter, err);
    if (rc == 0 && start + jitter >= sc->duration) {
        /* Not an error: a shorter --set sim.duration may cut a late group
         * on purpose.  But never silent. */
        const struct cfg_entry *ste = cfg_find(c, sec, start ? "start" : "start_jitter");
        char a[32], b[32];
        scenario_warn(sc, "%s:%d: [%s] start%s %s is not before sim.duration %s: %s", ste ? ste->file : cfg_path(c),
                      ste ? ste->line : 0, sec, jitter ? " + start_jitter" : "",
                      units_fmt_time(start + jitter, a, sizeof a), units_fmt_time(sc->duration, b, sizeof b),
                      start >= sc->duration ? "the group never sends" : "some of its flows never start");
    }
    const struct cfg_entry *st = rc == 0 ? cfg_find(c, sec, "stop") : NULL;
    if (rc == 0 && st && strcmp(st->value, "never") != 0) {
        rc = cfg_time(c, sec, "stop", 0, &stop, err);
        if (rc == 0 && stop <= start + jitter)
            rc = cfg_errorf(err, st, "stop must be after start + start_jitter");
    }
    if (rc == 0) rc = cfg_enum(c, sec, "cc", cc_algo_names, dflt_cc, &cc, err);
    if (rc == 0) rc = cfg_u64(c, sec, "class", sc->net.cfg.data_prio, &cls, err);
    if (rc == 0 && (cls > 7 || cls == sc->net.cfg.ctrl_prio))
        rc = cfg_errorf(err, cfg_find(c, sec, "class"), "data class must be 0..7 and not the control class");
    if (rc == 0) rc = cfg_bytes(c, sec, "window", 0, &window, err);
    if (rc == 0 && pairing == 1 && ns != nd)
        rc = cfg_errorf(err, de, "pairing = zip needs as many dst (%d) as src (%d)", nd, ns);
    if (rc == 0) {
        int gi = scenario_add_group(sc, gname, cc, 0);
        if (gi < 0) {
            rc = cfg_section_errorf(err, c, sec, gi == -2 ? "another flow group or traffic section is named '%s'"
                                                           : "out of memory (%s)", gname);
        } else {
            struct group *g = &sc->groups[gi];
            if (cc == CC_ROCC)
                *any_rocc = 1;
            for (int i = 0; i < ns && rc == 0; i++) {
                for (int j = 0; j < nd && rc == 0; j++) {
                    if (pairing == 1 && i != j)
                        continue;
                    if (src[i] == dst[j])
                        continue;
                    for (uint64_t k = 0; k < count && rc == 0; k++) {
                        struct flow f;
                        memset(&f, 0, sizeof f);
                        f.src = sc->net.nodes[src[i]].idx;
                        f.dst = sc->net.nodes[dst[j]].idx;
                        f.group = sc->n_groups - 1;
                        f.prio = (uint8_t)cls;
                        f.size = size;
                        if (size == UINT64_MAX)
                            f.flags |= FL_ENDLESS;
                        /* start_jitter: uniform in [start, start + jitter),
                         * drawn from the run's generator (same seed, same starts). */
                        f.start_ps = start + (jitter ? rng_below(&sc->net.rng, jitter) : 0);
                        f.stop_ps = stop;
                        f.window = window;
                        uint64_t line = sc->net.ports[sc->net.hosts[f.src].port].rate_bps;
                        f.app_rate_bps = frac > 0 ? (uint64_t)(frac * (double)line + 0.5) : app_rate;
                        if (scenario_add_flow(sc, &f) == NONE32)
                            rc = cfg_section_errorf(err, c, sec, "out of memory");
                    }
                }
            }
            g->count = sc->net.n_flows - g->first;
            if (rc == 0 && g->count == 0)
                rc = cfg_section_errorf(err, c, sec, "the group makes no flow (every src equals its dst)");
        }
    }
    free(src);
    free(dst);
    return rc;
}

uint32_t scenario_add_flow(struct scenario *sc, struct flow *f)
{
    f->tp = &transport_line;                 /* bound in ccsel_bind() */
    f->sport = (uint16_t)(10000 + sc->net.n_flows % 50000);
    /* 5-tuple hashes (RoCEv2: UDP dport 4791) for ECMP. */
    f->hash = mix64(((uint64_t)f->src << 40) ^ ((uint64_t)f->dst << 16) ^ f->sport ^ (4791ull << 56));
    f->rhash = mix64(((uint64_t)f->dst << 40) ^ ((uint64_t)f->src << 16) ^ (4791ull << 24) ^ ((uint64_t)f->sport << 56));
    return net_add_flow(&sc->net, f);
}

int scenario_add_group(struct scenario *sc, const char *name, int algo, int incast)
{
    if (scenario_group(sc, name))
        return -2;                               /* names must be unique */
    struct group *g = realloc(sc->groups, (sc->n_groups + 1) * sizeof *g);
    if (!g)
        return -1;
    sc->groups = g;
    g = &sc->groups[sc->n_groups];
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->first = sc->net.n_flows;
    g->algo = algo;
    g->incast = incast;
    return (int)sc->n_groups++;
}

static void group_cb(const char *sec, void *arg)
{
    struct flow_ctx *fc = arg;
    if (fc->rc == 0)
        fc->rc = build_group(fc->sc, sec, fc->dflt_cc, &fc->any_rocc, fc->err);
}

static void traffic_cb(const char *sec, void *arg)
{
    struct flow_ctx *fc = arg;
    if (fc->rc == 0)
        fc->rc = traffic_build(fc->sc, sec, fc->dflt_cc, &fc->any_rocc, fc->err);
}

/* ---------- monitors and sampling ---------- */

static int build_monitors(struct scenario *sc)
{
    struct net *n = &sc->net;
    uint32_t cnt = 0;
    for (uint32_t p = 0; p < n->n_ports; p++)
        if (n->nodes[n->ports[p].node].kind == NODE_SWITCH)
            cnt++;
    sc->mon = calloc(cnt ? cnt : 1, sizeof *sc->mon);
    if (!sc->mon)
        return -1;
    for (uint32_t p = 0; p < n->n_ports; p++) {
        if (n->nodes[n->ports[p].node].kind != NODE_SWITCH)
            continue;
        struct monitor *m = &sc->mon[sc->n_mon++];
        m->port = p;
        m->agent = NONE32;                   /* the port's RoCC CP, if any */
        for (uint32_t a = n->ports[p].agent; a != NONE32; a = n->agents[a].next)
            if (n->agents[a].ops == &rocc_agent_ops)
                m->agent = a;
        snprintf(m->name, sizeof m->name, "%s->%s", n->nodes[n->ports[p].node].name,
                 n->nodes[n->ports[n->ports[p].peer].node].name);
        /* Parallel links: the second port to the same neighbour is "A->B#2". */
        uint32_t dup = 1;
        for (uint32_t k = 0; k + 1 < sc->n_mon; k++)
            if (sc->mon[k].port != p && n->ports[sc->mon[k].port].node == n->ports[p].node &&
                n->ports[n->ports[sc->mon[k].port].peer].node == n->ports[n->ports[p].peer].node)
                dup++;
        if (dup > 1) {
            size_t len = strlen(m->name);
            snprintf(m->name + len, sizeof m->name - len, "#%u", dup);
        }
    }
    return 0;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void take_sample(struct scenario *sc, uint32_t id);

/* Engine hooks: id 0 is the sampler, id k >= 1 the k-th [events] entry. */
static void hook(void *arg, uint32_t id)
{
    struct scenario *sc = arg;
    if (id == 0) {
        take_sample(sc, id);
        return;
    }
    if (id == DEADLOCK_HOOK) {
        deadlock_tick(sc);
        return;
    }
    if (id >= ATTACK_HOOK_BASE) {
        attack_fire(sc, id - ATTACK_HOOK_BASE);
        return;
    }
    if (events_fire(sc, id - 1, sc->event_error, sizeof sc->event_error))
        sc->net.oom = 1;
}

static void take_sample(struct scenario *sc, uint32_t id)
{
    struct net *n = &sc->net;
    uint32_t k = sc->n_samples;
    if (k < sc->cap_samples) {
        if (sc->flow_series)
            for (uint32_t f = 0; f < n->n_flows; f++)
                sc->s_flow_bytes[(size_t)k * n->n_flows + f] = n->flows[f].rx_wire_bytes;
        for (uint32_t m = 0; m < sc->n_mon; m++) {
            const struct port *pt = &n->ports[sc->mon[m].port];
            size_t i = (size_t)k * sc->n_mon + m;
            sc->s_queue[i] = pt->data_bytes;
            sc->s_tx[i] = pt->st.tx_wire_bytes;
            sc->s_pfc[i] = (uint32_t)pt->st.pfc_rcvd;
            const struct rocc_agent *ra = sc->mon[m].agent != NONE32
                ? n->agents[sc->mon[m].agent].state : NULL;
            sc->s_fair[i] = ra ? ra->last_f : 0;
            sc->s_md[i] = ra ? (uint32_t)(ra->cp.n_md_fmin + ra->cp.n_md_half) : 0;
        }
        lf_sample(sc, k);
        sc->n_samples++;
    }
    simtime_t next = n->el.now + sc->sample_interval;
    if (next <= sc->duration)
        net_schedule(n, next, EV_HOOK, id);
    if (sc->progress && (k & 63) == 0) {
        double w = wall_now() - sc->wall_start, done = (double)n->el.now / (double)sc->duration;
        double eta = done > 0 ? w / done - w : 0;
        fprintf(stderr, "\r  simulated %8.3f ms of %.3f ms  (%5.1f%%)  wall %6.1f s  ETA %6.1f s ",
                (double)n->el.now / PS_PER_MS, (double)sc->duration / PS_PER_MS, 100 * done, w, eta);
    }
}

/* ---------- top level ---------- */

int scenario_build(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    memset(sc, 0, sizeof *sc);
    sc->cfg = c;
    TRY(cfg_u64(c, "sim", "seed", 1, &sc->seed, err));
    if (net_init(&sc->net, sc->seed))
        return cfg_section_errorf(err, c, "sim", "out of memory");
    if (!cfg_find(c, "sim", "duration"))
        return cfg_missing(err, c, "sim", "duration", NULL);
    TRY(cfg_time(c, "sim", "duration", 0, &sc->duration, err));
    if (sc->duration == 0 || sc->duration > 1000 * PS_PER_S)
        return cfg_errorf(err, cfg_find(c, "sim", "duration"), "duration must be in (0, 1000s]");
    TRY(cfg_time(c, "sim", "sample_interval", 10 * PS_PER_US, &sc->sample_interval, err));
    if (sc->sample_interval == 0 || sc->duration / sc->sample_interval > 10000000)
        return cfg_errorf(err, cfg_find(c, "sim", "sample_interval"),
                          "sample_interval must be > 0 and give at most 10^7 samples");
    TRY(cfg_time(c, "sim", "measure_start", sc->duration / 2, &sc->measure_start, err));
    TRY(cfg_time(c, "sim", "measure_end", sc->duration, &sc->measure_end, err));
    if (sc->measure_end > sc->duration || sc->measure_start >= sc->measure_end)
    {
        char a[32], b[32], d[32];
        return cfg_section_errorf(err, c, "sim", "need measure_start < measure_end <= duration, got %s, %s, %s "
                                  "(a shorter --set sim.duration needs measure_start too)",
                                  units_fmt_time(sc->measure_start, a, sizeof a),
                                  units_fmt_time(sc->measure_end, b, sizeof b), units_fmt_time(sc->duration, d, sizeof d));
    }

    struct switch_cfg swc;
    TRY(build_network(sc, c, &swc, err));

    static const char *const types[] = { "star", "multi_bottleneck", "asymmetric", "file", "rocc_fattree",
                                         "fattree", "leafspine", "rcc320", "hpcc", NULL };
    int type;
    TRY(cfg_enum(c, "topology", "type", types, 0, &type, err));
    int (*builders[])(struct scenario *, struct cfg *, struct cfg_err *) = {
        topo_star, topo_multi, topo_asym, scenario_topo_file, topo_roccft, topo_kary, topo_ls, topo_rcc, topo_hpcc };
    TRY(builders[type](sc, c, err));
    char why[256];
    if (net_finalize(&sc->net, &swc, why, sizeof why))
        return cfg_section_errorf(err, c, "topology", "%s", why);
    cfg_section_done(c, "topology");     /* read only above: a later error can blame a typo here */

    TRY(events_read(sc, c, err));
    cfg_section_done(c, "network");
    int dflt_cc;
    TRY(cfg_enum(c, "cc", "algorithm", cc_algo_names, CC_ROCC, &dflt_cc, err));
    TRY(ccsel_read(sc, c, err));
    struct flow_ctx fc = { sc, err, 0, dflt_cc, 0 };
    size_t ng = cfg_sections(c, "flows.", group_cb, &fc);
    TRY(fc.rc);
    ng += cfg_sections(c, "traffic.", traffic_cb, &fc);
    TRY(fc.rc);
    if (ng == 0)
        return cfg_section_errorf(err, c, "flows", "no flows: add a [flows.NAME] or [traffic.NAME] section");
    if (sc->net.n_flows == 0)
        return cfg_section_errorf(err, c, "flows", "the flow groups and traffic sections made no flow");
    if (net_flows_ready(&sc->net))
        return cfg_section_errorf(err, c, "flows", "out of memory");
    TRY(build_rocc(sc, c, fc.any_rocc, err));
    TRY(ccsel_bind(sc, c, err));
    TRY(fcsel_build(sc, c, err));
    TRY(xbarsel_build(sc, c, err));

    if (build_monitors(sc))
        return cfg_section_errorf(err, c, "sim", "out of memory");
    TRY(attack_build(sc, c, err));
    /* [fct]: which flows the FCT statistics cover and how sizes are binned. */
    uint64_t warmup, cooldown;
    TRY(cfg_time(c, "fct", "warmup", 0, &warmup, err));
    TRY(cfg_time(c, "fct", "cooldown", 0, &cooldown, err));
    if (warmup + cooldown >= sc->duration)
        return cfg_section_errorf(err, c, "fct", "warmup + cooldown must be shorter than the run");
    sc->fct_start = warmup;
    sc->fct_end = sc->duration - cooldown;
    if ((warmup || cooldown) && (sc->fct_end - sc->fct_start) * 4 < sc->duration) {
        char a[32], b[32];
        scenario_warn(sc, "%s: the FCT window %s..%s is under a quarter of the run ([fct] warmup/cooldown "
                      "with a shorter duration?)", cfg_path(c), units_fmt_time(sc->fct_start, a, sizeof a),
                      units_fmt_time(sc->fct_end, b, sizeof b));
    }
    const struct cfg_entry *be = cfg_find(c, "fct", "bins");
    /* Default bins: decades from 1 KB to 100 MB (the RoCC figures bin by
     * size on a log scale; paper-specific bins go in the experiment files). */
    const char *bins = be ? be->value : "1KB 10KB 100KB 1MB 10MB 100MB";
    {
        char buf[CFG_MAX_LINE + 1];
        snprintf(buf, sizeof buf, "%s", bins);
        for (char *t = strtok(buf, " ,"); t; t = strtok(NULL, " ,")) {
            uint64_t v;
            if (units_parse_bytes(t, &v) || v == 0 || (sc->n_fct_bins && v <= sc->fct_bins[sc->n_fct_bins - 1]))
                return cfg_errorf(err, be, "'%s' must be a size above the previous bin edge", t);
            uint64_t *nb = realloc(sc->fct_bins, (sc->n_fct_bins + 1) * sizeof *nb);
            if (!nb)
                return cfg_errorf(err, be, "out of memory");
            sc->fct_bins = nb;
            sc->fct_bins[sc->n_fct_bins++] = v;
        }
    }
    TRY(cfg_bool(c, "output", "hpcc_fct", 0, &sc->hpcc_fct, err));
    TRY(cfg_bool(c, "output", "hpcc_flows", 0, &sc->hpcc_flows, err));
    const struct cfg_entry *rte = cfg_find(c, "output", "rocc_trace");
    if (rte && strcmp(rte->value, "none") != 0) {
        const struct group *g = scenario_group(sc, rte->value);
        if (!g)
            return cfg_errorf(err, rte, "'%s' is not a flow group (or 'none')", rte->value);
        sc->net.trace_f0 = g->first;
        sc->net.trace_f1 = g->first + g->count;
        sc->rocc_trace = 1;
    }
    uint64_t segs;
    TRY(cfg_u64(c, "output", "pfc_segments", 50, &segs, err));   /* RoCC Fig. 17b: 50 segments */
    if (segs < 1 || segs > 10000)
        return cfg_errorf(err, cfg_find(c, "output", "pfc_segments"), "must be 1..10000");
    sc->pfc_segments = (uint32_t)segs;
    uint64_t fs_max;
    TRY(cfg_u64(c, "sim", "flow_series_max", 4096, &fs_max, err));
    sc->flow_series = sc->net.n_flows <= fs_max;
    sc->cap_samples = (uint32_t)(sc->duration / sc->sample_interval + 1);
    size_t nm = (size_t)sc->cap_samples * (sc->n_mon ? sc->n_mon : 1);
    sc->s_queue = malloc(nm * sizeof *sc->s_queue);
    sc->s_tx = malloc(nm * sizeof *sc->s_tx);
    sc->s_fair = malloc(nm * sizeof *sc->s_fair);
    sc->s_md = malloc(nm * sizeof *sc->s_md);
    sc->s_pfc = malloc(nm * sizeof *sc->s_pfc);
    if (sc->flow_series)
        sc->s_flow_bytes = malloc((size_t)sc->cap_samples * (sc->net.n_flows ? sc->net.n_flows : 1) * sizeof *sc->s_flow_bytes);
    if (!sc->s_queue || !sc->s_tx || !sc->s_fair || !sc->s_md || !sc->s_pfc || (sc->flow_series && !sc->s_flow_bytes))
        return cfg_section_errorf(err, c, "sim", "out of memory for %u samples; raise sample_interval", sc->cap_samples);
    if (lf_init(sc))
        return cfg_section_errorf(err, c, "sim", "out of memory for flows per link; raise sample_interval");
    sc->net.hook = hook;
    sc->net.hook_arg = sc;
    for (uint32_t i = 0; i < sc->n_events; i++)
        if (net_schedule(&sc->net, sc->events[i].t, EV_HOOK, i + 1))
            return cfg_section_errorf(err, c, "events", "out of memory");
    if (net_schedule(&sc->net, 0, EV_HOOK, 0))
        return cfg_section_errorf(err, c, "sim", "out of memory");
    return 0;
}

int scenario_run(struct scenario *sc, char *why, size_t why_len)
{
    sc->wall_start = wall_now();
    net_run_until(&sc->net, sc->duration);
    if (sc->progress)
        fprintf(stderr, "\r%100s\r", "");
    if (sc->net.oom) {
        snprintf(why, why_len, "%s at simulated time %.6f s", sc->event_error[0] ? sc->event_error : "out of memory",
                 (double)sc->net.el.now / PS_PER_S);
        return -1;
    }
    /* Close open pause intervals so paused time is exact at the end. */
    for (uint32_t p = 0; p < sc->net.n_ports; p++) {
        struct port *pt = &sc->net.ports[p];
        for (int c = 0; c < NCLASS; c++)
            if (pt->paused & (1u << c)) {
                pt->st.paused_ps[c] += sc->net.el.now - pt->paused_since[c];
                pt->paused_since[c] = sc->net.el.now;
            }
    }
    return 0;
}

void scenario_free(struct scenario *sc)
{
    net_free(&sc->net);
    xbarsel_free(sc);
    ccsel_free(sc);
    deadlock_free(sc);
    free(sc->groups);
    free(sc->fct_bins);
    free(sc->events);
    free(sc->ev_next);
    free(sc->attacks);
    free(sc->mon);
    free(sc->s_flow_bytes);
    free(sc->s_queue);
    free(sc->s_tx);
    free(sc->s_fair);
    free(sc->s_md);
    free(sc->s_pfc);
    lf_free(sc);
    memset(sc, 0, sizeof *sc);
}

void scenario_warn(struct scenario *sc, const char *fmt, ...)
{
    size_t len = strlen(sc->warnings);
    if (len + 32 >= sizeof sc->warnings)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = snprintf(sc->warnings + len, sizeof sc->warnings - len, "roccsim: warning: ");
    if (k > 0 && (size_t)k < sizeof sc->warnings - len)
        vsnprintf(sc->warnings + len + k, sizeof sc->warnings - len - k, fmt, ap);
    va_end(ap);
    text_escape_inplace(sc->warnings + len, sizeof sc->warnings - len);   /* names, paths: input text */
    len = strlen(sc->warnings);
    if (len + 1 < sizeof sc->warnings) {
        sc->warnings[len] = '\n';
        sc->warnings[len + 1] = 0;
    }
}

const struct group *scenario_group(const struct scenario *sc, const char *name)
{
    for (uint32_t i = 0; i < sc->n_groups; i++)
        if (!strcmp(sc->groups[i].name, name))
            return &sc->groups[i];
    return NULL;
}

const struct monitor *scenario_monitor(const struct scenario *sc, const char *name)
{
    for (uint32_t i = 0; i < sc->n_mon; i++)
        if (!strcmp(sc->mon[i].name, name))
            return &sc->mon[i];
    return NULL;
}
