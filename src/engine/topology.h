/*
 * topology.h -- builders for standard data-centre fabrics, and an importer
 * for the HPCC simulator's topology files.
 *
 * Every builder adds nodes and links to a fresh struct net (net_init done, no
 * node added yet; -1 otherwise) and stops there: the caller still runs
 * net_finalize(), which lays out the ports and computes the ECMP routes.
 * A builder returns 0, or -1 with a message in err (errlen bytes, always
 * NUL-terminated) and the net half-built (net_free it).  On success it fills
 * *out (may be NULL) with the layout below, so callers find hosts by rack and
 * pod without searching names.
 *
 * Layout conventions (all builders):
 *   - nodes are added hosts first, then edge, aggregation and core switches,
 *     so node index == host index == the number in the host's name "h<i>";
 *     edge switch e is node first_edge + e, and so on per tier;
 *   - hosts are numbered rack by rack: host h sits on edge switch
 *     h / hosts_per_edge, port h % hosts_per_edge of that switch; edge e is in
 *     pod e / edges_per_pod (two-level fabrics are one pod);
 *   - links are added host links first (in host order), then edge-agg, then
 *     agg-core (or edge-core), so a switch's ports are: down links first, in
 *     order, then up links (net.c: a node's ports follow link order);
 *   - node tier is set: TIER_EDGE, TIER_AGG, TIER_CORE; the top tier of a
 *     two-level fabric is TIER_CORE (RoCC §6.3 calls it "core");
 *   - parallel links are separate links, so ECMP spreads over them.
 *
 * The fabrics:
 *   topo_rocc_fattree  RoCC (CoNEXT'20) §6.3: two-level fat-tree, 3 core and
 *       3 edge switches, 30 hosts per edge at 40 Gb/s, every edge joined to
 *       every core by 2 x 100 Gb/s, 1.5 us links (§6), 2:1 oversubscribed
 *       (1200 Gb/s down vs 600 Gb/s up per edge).  90 hosts, 6 switches,
 *       90 + 18 links.  Names: edge<e>, core<c>.
 *   topo_fattree_k  Al-Fares, Loukissas, Vahdat, "A Scalable, Commodity Data
 *       Center Network Architecture", SIGCOMM'08: k pods of k/2 edge and k/2
 *       aggregation switches, (k/2)^2 cores, k/2 hosts per edge, k^3/4 hosts,
 *       5k^2/4 switches, 3k^3/4 links, all at one rate, 1:1.  Inside a pod
 *       every edge links to every agg; agg j of each pod links to cores
 *       j*k/2 .. j*k/2 + k/2-1 (core group j), so each core has one link per
 *       pod.  Names: edge<pod>_<i>, agg<pod>_<i>, core<c>.  k even, 2..64.
 *   topo_leafspine  two-level leaf-spine: every leaf joined to every spine by
 *       the same number of parallel links.  The oversubscription ratio
 *       O = num/den is leaf down capacity over leaf up capacity:
 *           O = (hosts_per_leaf * host_bps) / (U * fabric_bps)
 *       so the leaf's uplink count is
 *           U = hosts_per_leaf * host_bps * den / (num * fabric_bps),
 *       which must be a whole number and a multiple of n_spine (U / n_spine
 *       links per leaf-spine pair); otherwise the build fails.  Names:
 *       leaf<l> (TIER_EDGE), spine<s> (TIER_CORE).
 *   topo_rcc320  the three-tier 320-host fabric the RCC paper evaluates,
 *       which is the HPCC simulator's simulation/mix/fat.txt
 *       (alibaba-edu/High-Precision-Congestion-Control): 20 ToRs of 16 hosts
 *       at 100 Gb/s; 5 pods of 4 ToRs x 4 aggs, full mesh at 400 Gb/s; 16
 *       cores; agg j of every pod has 4 uplinks at 400 Gb/s to cores
 *       4j .. 4j+3, so 20 aggs x 4 = 80 agg-core links and each core has 5,
 *       one per pod; 1 us links; 1:1 at ToR (16 x 100 down, 4 x 400 up) and
 *       agg (4 x 400 each way).  320 hosts, 56 switches, 480 links.  Node
 *       index == fat.txt node id (hosts 0-319, ToRs 320-339, aggs 340-359,
 *       cores 360-375) and links are added in fat.txt's order, so the build
 *       equals topo_load_hpcc("fat.txt") up to switch names: edge<pod>_<i>,
 *       agg<pod>_<i>, core<c>.
 *
 * HPCC topology files (topo_load_hpcc), as read by HPCC's scratch/third.cc:
 *       line 1      NODES SWITCHES LINKS       (NODES counts hosts and switches)
 *       line 2      the SWITCHES switch ids    (absent when SWITCHES is 0)
 *       then LINKS  SRC DST RATE DELAY ERROR_RATE   e.g. "0 320 100Gbps 1000ns 0"
 *   Ids are 0..NODES-1; ids not listed as switches are hosts.  Node index ==
 *   id; hosts are named h<id>, switches s<id>.  After net_finalize a host's
 *   index is its rank among host ids (== id when hosts are 0..H-1, as in
 *   fat.txt).  RATE and DELAY use units.h syntax (100Gbps, 1000ns, 0.001ms).
 *   Blank lines are ignored.  ERROR_RATE must be 0 (lossy links are not
 *   supported).  Every host needs exactly one link.  Errors read
 *   "PATH:LINE: what".  Tiers are inferred: a switch with a host is
 *   TIER_EDGE; among the others, those farthest (in hops) from any host are
 *   TIER_CORE and the rest TIER_AGG.  The layout has counts and tier sizes
 *   only (hosts_per_edge = 0, first_* = NONE32): the helpers below do not
 *   apply to imports.  At most TOPO_MAX_NODES nodes.
 */
#ifndef ROCC_TOPOLOGY_H
#define ROCC_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>
#include "net/net.h"

#define TOPO_MAX_NODES (1u << 20)

struct topo_layout {
    uint32_t n_hosts, n_switches, n_links;
    uint32_t n_edge, n_agg, n_core;     /* switches per tier */
    uint32_t n_pods;                    /* 1 for two-level fabrics */
    uint32_t edges_per_pod, aggs_per_pod;
    uint32_t hosts_per_edge;            /* 0: irregular (imports) */
    uint32_t uplinks_per_pair;          /* parallel links per connected edge-up pair */
    uint32_t first_host, first_edge, first_agg, first_core;  /* node indices; NONE32 if none */
    /* topo_crossdc: datacenters (2; 0 = single fabric), hosts per
     * datacenter, the egress switch of datacenter d is node first_egress + d,
     * the long-haul links are links first_longhaul .. + n_longhaul - 1. */
    uint32_t n_dc, hosts_per_dc, first_egress, first_longhaul, n_longhaul;
};

struct topo_rocc_fattree_params {
    uint32_t n_core, n_edge, hosts_per_edge;
    uint32_t uplinks_per_pair;          /* parallel links per edge-core pair */
    uint64_t host_bps, fabric_bps;
    simtime_t delay_ps;                 /* every link */
};
/* RoCC §6.3: 3, 3, 30, 2, 40 Gb/s, 100 Gb/s, 1.5 us. */
void topo_rocc_fattree_defaults(struct topo_rocc_fattree_params *p);
/* p == NULL: the defaults. */
int topo_rocc_fattree(struct net *n, const struct topo_rocc_fattree_params *p,
                      struct topo_layout *out, char *err, size_t errlen);

int topo_fattree_k(struct net *n, uint32_t k, uint64_t rate_bps, simtime_t delay_ps,
                   struct topo_layout *out, char *err, size_t errlen);

struct topo_leafspine_params {
    uint32_t n_leaf, n_spine, hosts_per_leaf;
    uint64_t host_bps, fabric_bps;
    uint32_t oversub_num, oversub_den;  /* oversubscription num:den, e.g. 2:1 */
    simtime_t delay_ps;
};
/* 8 leaves, 4 spines, 32 hosts per leaf at 100 Gb/s, 400 Gb/s fabric, 2:1
 * (4 uplinks: one per spine), 1 us.  Not from a paper: a convenient size. */
void topo_leafspine_defaults(struct topo_leafspine_params *p);
int topo_leafspine(struct net *n, const struct topo_leafspine_params *p,
                   struct topo_layout *out, char *err, size_t errlen);

int topo_rcc320(struct net *n, struct topo_layout *out, char *err, size_t errlen);

/* Two datacenters joined by their egress switches over a long-haul link
 * (LSCC, ../shared/papers/lscc-cross-datacenter-rdma-cc.txt, Fig. 1 and
 * §IV-B; docs/crossdc.md).  Each datacenter is a k-ary fat-tree (Al-Fares,
 * as topo_fattree_k; Fig. 1 is "based on the FatTree architecture" and
 * "each ToR switch is connected to two servers", so k = 4: 16 servers per
 * datacenter, the 16 senders of §IV-C) whose cores each have one link to
 * the datacenter's egress switch; the two egress switches are joined by
 * longhaul_links parallel long-haul links (net_link_set_longhaul).
 * Nodes: the hosts of datacenter 0 then of 1 (h0 .. h<2H-1>, rack by rack),
 * the edges, aggs and cores of 0 then 1 (dc<d>_edge<pod>_<i>,
 * dc<d>_agg<pod>_<i>, dc<d>_core<c>; pods numbered within the datacenter
 * in the names, across both in the layout: n_pods = 2k), then egress0 and
 * egress1 (TIER_NONE).  Links: hosts, edge-agg, agg-core (as fattree_k, per
 * datacenter), core-egress, then the long-haul links. */
struct topo_crossdc_params {
    uint32_t k;                    /* fat-tree arity per datacenter: 4 (Fig. 1) */
    uint64_t host_bps;             /* 40 Gb/s (§IV-B) */
    uint64_t fabric_bps;           /* 100 Gb/s, every other datacenter link (§IV-B) */
    simtime_t delay_ps;            /* 1 us, every datacenter link (§IV-B) */
    uint64_t longhaul_bps;         /* 200 Gb/s (§IV-B) */
    simtime_t longhaul_delay_ps;   /* 1 ms one way, "200 km" (§IV-B) */
    uint32_t longhaul_links;       /* 1 */
    uint32_t relays;               /* 1: a relay device at each end of the long-haul
                                      link (SWING, docs/crossdc.md "SWING"): nodes
                                      relay0, relay1 after egress1, links egress<d> -
                                      relay<d> (longhaul_bps, delay_ps) before the
                                      long-haul link relay0 - relay1; needs
                                      longhaul_links = 1.  0 (default): none */
};
void topo_crossdc_defaults(struct topo_crossdc_params *p);
int topo_crossdc(struct net *n, const struct topo_crossdc_params *p,
                 struct topo_layout *out, char *err, size_t errlen);

int topo_load_hpcc(struct net *n, const char *path, struct topo_layout *out,
                   char *err, size_t errlen);

/* Layout helpers for the builders' fabrics (hosts_per_edge > 0); NONE32 when
 * out of range. */
static inline uint32_t topo_host(const struct topo_layout *t, uint32_t edge, uint32_t i)
{
    if (!t->hosts_per_edge || edge >= t->n_edge || i >= t->hosts_per_edge)
        return NONE32;
    return edge * t->hosts_per_edge + i;
}
static inline uint32_t topo_host_edge(const struct topo_layout *t, uint32_t host)
{
    return t->hosts_per_edge && host < t->n_hosts ? host / t->hosts_per_edge : NONE32;
}
static inline uint32_t topo_host_pod(const struct topo_layout *t, uint32_t host)
{
    uint32_t e = topo_host_edge(t, host);
    return e == NONE32 || !t->edges_per_pod ? NONE32 : e / t->edges_per_pod;
}
/* Hosts of pod p are topo_pod_host(t, p, 0 .. edges_per_pod*hosts_per_edge-1). */
static inline uint32_t topo_pod_host(const struct topo_layout *t, uint32_t pod, uint32_t i)
{
    uint32_t per = t->edges_per_pod * t->hosts_per_edge;
    if (!per || pod >= t->n_pods || i >= per)
        return NONE32;
    return pod * per + i;
}
static inline uint32_t topo_edge_node(const struct topo_layout *t, uint32_t e)
{
    return e < t->n_edge && t->first_edge != NONE32 ? t->first_edge + e : NONE32;
}
static inline uint32_t topo_agg_node(const struct topo_layout *t, uint32_t a)
{
    return a < t->n_agg && t->first_agg != NONE32 ? t->first_agg + a : NONE32;
}
static inline uint32_t topo_core_node(const struct topo_layout *t, uint32_t c)
{
    return c < t->n_core && t->first_core != NONE32 ? t->first_core + c : NONE32;
}

#endif
