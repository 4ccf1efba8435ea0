/*
 * topology.c -- fabric builders and the HPCC topology-file importer.
 * The fabrics, their sources and the layout conventions are in topology.h.
 */
#include "engine/topology.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "core/units.h"

#define MAX_PORTS 65535u        /* net.c: ports per node */
#define MAX_ECMP  255u          /* net.c: ECMP set size */

/* ---------- shared builder plumbing ---------- */

struct bld {
    struct net *n;
    char *err;
    size_t errlen;
    const char *who;            /* message prefix */
    int failed;                 /* a node or link could not be added */
};

static int bld_fail(struct bld *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bld_fail(struct bld *b, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (b->errlen) {
        snprintf(b->err, b->errlen, "%s: %s", b->who, msg);
        text_escape_inplace(b->err, b->errlen);
    }
    return -1;
}

static int bld_start(struct bld *b, struct net *n, const char *who, char *err, size_t errlen)
{
    *b = (struct bld){ n, err, errlen, who, 0 };
    if (errlen)
        err[0] = '\0';
    if (n->n_nodes || n->n_links)
        return bld_fail(b, "the net already has nodes or links; build into a fresh net");
    return 0;
}

static void add_node(struct bld *b, enum node_kind kind, enum node_tier tier, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add_node(struct bld *b, enum node_kind kind, enum node_tier tier, const char *fmt, ...)
{
    if (b->failed)
        return;
    char name[sizeof b->n->nodes[0].name];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    uint32_t id = net_add_node(b->n, kind, name);
    if (id == NONE32)
        b->failed = 1;
    else
        b->n->nodes[id].tier = (uint8_t)tier;
}

static void add_link(struct bld *b, uint32_t x, uint32_t y, uint64_t bps, simtime_t delay)
{
    if (!b->failed && net_add_link(b->n, x, y, bps, delay) == NONE32)
        b->failed = 1;
}

/* Fill *out from the counts; the tier sizes and first_* are set by the caller. */
static int bld_finish(struct bld *b, struct topo_layout *lay, struct topo_layout *out)
{
    if (b->failed)
        return bld_fail(b, "out of memory");
    lay->n_links = b->n->n_links;
    lay->n_switches = lay->n_edge + lay->n_agg + lay->n_core;
    if (out)
        *out = *lay;
    return 0;
}

/* Size limits shared by the regular fabrics: node count, ports per switch
 * and ECMP fan-out (net.c keeps at most 255 next hops: more would be
 * silently unused). */
static int check_sizes(struct bld *b, uint64_t nodes, uint64_t max_ports, uint64_t max_fanout)
{
    if (nodes > TOPO_MAX_NODES)
        return bld_fail(b, "%llu nodes, more than %u", (unsigned long long)nodes, TOPO_MAX_NODES);
    if (max_ports > MAX_PORTS)
        return bld_fail(b, "a switch would have %llu ports, more than %u",
                        (unsigned long long)max_ports, MAX_PORTS);
    if (max_fanout > MAX_ECMP)
        return bld_fail(b, "a switch would have %llu equal-cost next hops, more than %u",
                        (unsigned long long)max_fanout, MAX_ECMP);
    return 0;
}

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* Two-level fabric: n_low lower switches (TIER_EDGE) with hpe hosts each,
 * every one joined to each of n_up upper switches (TIER_CORE) by upl links. */
static int two_level(struct bld *b, uint32_t n_low, uint32_t n_up, uint32_t hpe, uint32_t upl,
                     uint64_t host_bps, uint64_t fabric_bps, simtime_t delay,
                     const char *low_name, const char *up_name, struct topo_layout *out)
{
    if (!n_low || !n_up || !hpe || !upl)
        return bld_fail(b, "switch, host and link counts must be >= 1");
    if (!host_bps || !fabric_bps)
        return bld_fail(b, "link rates must be > 0");
    uint64_t hosts = (uint64_t)n_low * hpe;
    uint64_t low_up = (uint64_t)n_up * upl, up_down = (uint64_t)n_low * upl;
    if (check_sizes(b, hosts + n_low + n_up, max64(hpe + low_up, up_down), max64(low_up, upl)))
        return -1;
    struct topo_layout lay = {
        .n_hosts = (uint32_t)hosts, .n_edge = n_low, .n_core = n_up, .n_pods = 1,
        .edges_per_pod = n_low, .hosts_per_edge = hpe, .uplinks_per_pair = upl,
        .first_host = 0, .first_edge = (uint32_t)hosts, .first_agg = NONE32,
        .first_core = (uint32_t)hosts + n_low,
    };
    for (uint32_t h = 0; h < lay.n_hosts; h++)
        add_node(b, NODE_HOST, TIER_NONE, "h%u", h);
    for (uint32_t e = 0; e < n_low; e++)
        add_node(b, NODE_SWITCH, TIER_EDGE, "%s%u", low_name, e);
    for (uint32_t c = 0; c < n_up; c++)
        add_node(b, NODE_SWITCH, TIER_CORE, "%s%u", up_name, c);
    for (uint32_t h = 0; h < lay.n_hosts; h++)
        add_link(b, h, lay.first_edge + h / hpe, host_bps, delay);
    for (uint32_t e = 0; e < n_low; e++)
        for (uint32_t c = 0; c < n_up; c++)
            for (uint32_t u = 0; u < upl; u++)
                add_link(b, lay.first_edge + e, lay.first_core + c, fabric_bps, delay);
    return bld_finish(b, &lay, out);
}

/* Three-level fabric: pods of epp edges (hpe hosts each) and app aggs, full
 * mesh inside a pod; agg j of every pod has cpa uplinks, to cores
 * j*cpa .. j*cpa+cpa-1 (app*cpa cores). */
static int three_level(struct bld *b, uint32_t pods, uint32_t epp, uint32_t app, uint32_t hpe,
                       uint32_t cpa, uint64_t host_bps, uint64_t fabric_bps, simtime_t delay,
                       struct topo_layout *out)
{
    uint32_t n_edge = pods * epp, n_agg = pods * app, n_core = app * cpa;
    uint32_t hosts = n_edge * hpe;
    struct topo_layout lay = {
        .n_hosts = hosts, .n_edge = n_edge, .n_agg = n_agg, .n_core = n_core, .n_pods = pods,
        .edges_per_pod = epp, .aggs_per_pod = app, .hosts_per_edge = hpe, .uplinks_per_pair = 1,
        .first_host = 0, .first_edge = hosts, .first_agg = hosts + n_edge,
        .first_core = hosts + n_edge + n_agg,
    };
    for (uint32_t h = 0; h < hosts; h++)
        add_node(b, NODE_HOST, TIER_NONE, "h%u", h);
    for (uint32_t e = 0; e < n_edge; e++)
        add_node(b, NODE_SWITCH, TIER_EDGE, "edge%u_%u", e / epp, e % epp);
    for (uint32_t a = 0; a < n_agg; a++)
        add_node(b, NODE_SWITCH, TIER_AGG, "agg%u_%u", a / app, a % app);
    for (uint32_t c = 0; c < n_core; c++)
        add_node(b, NODE_SWITCH, TIER_CORE, "core%u", c);
    for (uint32_t h = 0; h < hosts; h++)
        add_link(b, h, lay.first_edge + h / hpe, host_bps, delay);
    for (uint32_t e = 0; e < n_edge; e++)
        for (uint32_t j = 0; j < app; j++)
            add_link(b, lay.first_edge + e, lay.first_agg + (e / epp) * app + j, fabric_bps, delay);
    for (uint32_t a = 0; a < n_agg; a++)
        for (uint32_t i = 0; i < cpa; i++)
            add_link(b, lay.first_agg + a, lay.first_core + (a % app) * cpa + i, fabric_bps, delay);
    return bld_finish(b, &lay, out);
}

/* ---------- the fabrics ---------- */

void topo_rocc_fattree_defaults(struct topo_rocc_fattree_params *p)
{
    /* RoCC (CoNEXT'20) §6.3 fat-tree; link delay and rates from §6. */
    *p = (struct topo_rocc_fattree_params){
        .n_core = 3, .n_edge = 3, .hosts_per_edge = 30, .uplinks_per_pair = 2,
        .host_bps = 40000000000ull, .fabric_bps = 100000000000ull,
        .delay_ps = 1500 * PS_PER_NS,
    };
}

int topo_rocc_fattree(struct net *n, const struct topo_rocc_fattree_params *p,
                      struct topo_layout *out, char *err, size_t errlen)
{
    struct bld b;
    struct topo_rocc_fattree_params d;
    if (bld_start(&b, n, "rocc_fattree", err, errlen))
        return -1;
    if (!p) {
        topo_rocc_fattree_defaults(&d);
        p = &d;
    }
    return two_level(&b, p->n_edge, p->n_core, p->hosts_per_edge, p->uplinks_per_pair,
                     p->host_bps, p->fabric_bps, p->delay_ps, "edge", "core", out);
}

int topo_fattree_k(struct net *n, uint32_t k, uint64_t rate_bps, simtime_t delay_ps,
                   struct topo_layout *out, char *err, size_t errlen)
{
    struct bld b;
    if (bld_start(&b, n, "fattree_k", err, errlen))
        return -1;
    if (k < 2 || k > 64 || k % 2)
        return bld_fail(&b, "k must be even, 2..64 (got %u)", k);
    if (!rate_bps)
        return bld_fail(&b, "link rate must be > 0");
    uint32_t h = k / 2;
    return three_level(&b, k, h, h, h, h, rate_bps, rate_bps, delay_ps, out);
}

void topo_leafspine_defaults(struct topo_leafspine_params *p)
{
    *p = (struct topo_leafspine_params){
        .n_leaf = 8, .n_spine = 4, .hosts_per_leaf = 32,
        .host_bps = 100000000000ull, .fabric_bps = 400000000000ull,
        .oversub_num = 2, .oversub_den = 1, .delay_ps = PS_PER_US,
    };
}

int topo_leafspine(struct net *n, const struct topo_leafspine_params *p,
                   struct topo_layout *out, char *err, size_t errlen)
{
    struct bld b;
    struct topo_leafspine_params d;
    if (bld_start(&b, n, "leafspine", err, errlen))
        return -1;
    if (!p) {
        topo_leafspine_defaults(&d);
        p = &d;
    }
    if (!p->n_leaf || !p->n_spine || !p->hosts_per_leaf)
        return bld_fail(&b, "leaves, spines and hosts per leaf must be >= 1");
    if (!p->host_bps || !p->fabric_bps)
        return bld_fail(&b, "link rates must be > 0");
    if (!p->oversub_num || !p->oversub_den)
        return bld_fail(&b, "oversubscription %u:%u: both terms must be >= 1",
                        p->oversub_num, p->oversub_den);
    /* U = hosts_per_leaf * host_bps * den / (num * fabric_bps), exactly. */
    uint64_t down, top, bottom;
    if (__builtin_mul_overflow((uint64_t)p->hosts_per_leaf, p->host_bps, &down) ||
        __builtin_mul_overflow(down, (uint64_t)p->oversub_den, &top) ||
        __builtin_mul_overflow((uint64_t)p->oversub_num, p->fabric_bps, &bottom))
        return bld_fail(&b, "rates and counts too large");
    if (top % bottom) {
        uint64_t g = gcd64(top, bottom);
        return bld_fail(&b, "%u:%u oversubscription needs %llu/%llu uplinks per leaf, "
                        "not a whole number", p->oversub_num, p->oversub_den,
                        (unsigned long long)(top / g), (unsigned long long)(bottom / g));
    }
    uint64_t up = top / bottom;
    if (up == 0 || up % p->n_spine)
        return bld_fail(&b, "%u:%u oversubscription needs %llu uplink%s per leaf, "
                        "not a non-zero multiple of %u spines", p->oversub_num, p->oversub_den,
                        (unsigned long long)up, up == 1 ? "" : "s", p->n_spine);
    if (up / p->n_spine > MAX_PORTS)
        return bld_fail(&b, "%llu uplinks per leaf is too many", (unsigned long long)up);
    return two_level(&b, p->n_leaf, p->n_spine, p->hosts_per_leaf, (uint32_t)(up / p->n_spine),
                     p->host_bps, p->fabric_bps, p->delay_ps, "leaf", "spine", out);
}

int topo_rcc320(struct net *n, struct topo_layout *out, char *err, size_t errlen)
{
    struct bld b;
    if (bld_start(&b, n, "rcc320", err, errlen))
        return -1;
    /* HPCC simulation/mix/fat.txt: 5 pods x (4 ToRs x 16 hosts, 4 aggs),
     * 4 uplinks per agg, 100G host links, 400G fabric, 1 us. */
    return three_level(&b, 5, 4, 4, 16, 4, 100000000000ull, 400000000000ull, PS_PER_US, out);
}

/* ---------- HPCC topology files ---------- */

struct hpcc_rd {
    const char *path;
    char *err;
    size_t errlen;
};

static int hp_fail(const struct hpcc_rd *r, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int hp_fail(const struct hpcc_rd *r, long line, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!r->errlen)
        return -1;
    if (line > 0)
        snprintf(r->err, r->errlen, "%s:%ld: %s", r->path, line, msg);
    else
        snprintf(r->err, r->errlen, "%s: %s", r->path, msg);
    text_escape_inplace(r->err, r->errlen);   /* messages quote file text */
    return -1;
}

/* A node id: decimal, below nodes. */
static int hp_id(const struct hpcc_rd *r, long line, const char *what, const char *tok,
                 uint64_t nodes, uint32_t *id)
{
    uint64_t v;
    const char *why = NULL;
    if (units_parse_u64_why(tok, &v, &why))
        return hp_fail(r, line, "bad %s '%.40s' (%s)", what, tok, why ? why : "not a number");
    if (v >= nodes)
        return hp_fail(r, line, "%s %llu out of range: ids are 0..%llu", what,
                       (unsigned long long)v, (unsigned long long)(nodes - 1));
    *id = (uint32_t)v;
    return 0;
}

/* Tier inference (topology.h): edge = has a host; otherwise the switches
 * farthest from every host are core, the rest agg. */
static int hp_tiers(struct net *n, struct topo_layout *lay)
{
    uint32_t nn = n->n_nodes;
    uint32_t *deg = calloc((size_t)nn + 1, sizeof *deg);
    uint32_t *adj = malloc(((size_t)n->n_links * 2 + 1) * sizeof *adj);
    uint32_t *dist = malloc((size_t)nn * sizeof *dist);
    uint32_t *queue = malloc((size_t)nn * sizeof *queue);
    if (!deg || !adj || !dist || !queue) {
        free(deg);
        free(adj);
        free(dist);
        free(queue);
        return -1;
    }
    /* Adjacency in CSR form: deg[] becomes the offsets. */
    for (uint32_t l = 0; l < n->n_links; l++) {
        deg[n->links[l].a + 1]++;
        deg[n->links[l].b + 1]++;
    }
    for (uint32_t i = 0; i < nn; i++)
        deg[i + 1] += deg[i];
    for (uint32_t l = 0; l < n->n_links; l++) {
        uint32_t a = n->links[l].a, b = n->links[l].b;
        adj[deg[a]++] = b;
        adj[deg[b]++] = a;
    }
    for (uint32_t i = nn; i > 0; i--)      /* shift back: deg[i] = start of i */
        deg[i] = deg[i - 1];
    deg[0] = 0;
    /* Multi-source BFS from the hosts, through switches only. */
    uint32_t qh = 0, qt = 0, dmax = 0;
    for (uint32_t i = 0; i < nn; i++) {
        dist[i] = NONE32;
        if (n->nodes[i].kind == NODE_HOST) {
            dist[i] = 0;
            queue[qt++] = i;
        }
    }
    while (qh < qt) {
        uint32_t u = queue[qh++];
        for (uint32_t k = deg[u]; k < deg[u + 1]; k++) {
            uint32_t v = adj[k];
            if (dist[v] == NONE32 && n->nodes[v].kind == NODE_SWITCH) {
                dist[v] = dist[u] + 1;
                if (dist[v] > dmax)
                    dmax = dist[v];
                queue[qt++] = v;
            }
        }
    }
    for (uint32_t i = 0; i < nn; i++) {
        struct node *nd = &n->nodes[i];
        if (nd->kind != NODE_SWITCH || dist[i] == NONE32)
            continue;
        if (dist[i] == 1) {
            nd->tier = TIER_EDGE;
            lay->n_edge++;
        } else if (dist[i] == dmax) {
            nd->tier = TIER_CORE;
            lay->n_core++;
        } else {
            nd->tier = TIER_AGG;
            lay->n_agg++;
        }
    }
    free(deg);
    free(adj);
    free(dist);
    free(queue);
    return 0;
}

#define HP_NONE   0u
#define HP_SWITCH 1u
#define HP_LINKED 2u            /* a host that already has its link */

static int hp_parse(FILE *fp, struct hpcc_rd *r, struct net *n, uint8_t **flagp)
{
    char *line = NULL;
    size_t cap = 0;
    long ln = 0;
    int state = 0;              /* 0 header, 1 switch ids, 2 links, 3 done */
    uint64_t nodes = 0, nsw = 0, nlinks = 0, links_read = 0;
    uint8_t *flag = NULL;
    int rc = 0;
    while (rc == 0 && getline(&line, &cap, fp) != -1) {
        ln++;
        char *save = NULL, *tok[6];
        int nt = 0;
        for (char *t = strtok_r(line, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
            if (state == 1) {   /* the id line may be long: handle ids one by one */
                uint32_t id = 0;   /* set by hp_id; initialised for -O3 flow analysis */
                if ((uint64_t)nt == nsw) {
                    rc = hp_fail(r, ln, "more than the %llu switch ids the header announces",
                                 (unsigned long long)nsw);
                    break;
                }
                if ((rc = hp_id(r, ln, "switch id", t, nodes, &id)) != 0)
                    break;
                if (flag[id] & HP_SWITCH) {
                    rc = hp_fail(r, ln, "switch id %u listed twice", id);
                    break;
                }
                flag[id] |= HP_SWITCH;
            } else if (nt < 6) {
                tok[nt] = t;
            }
            nt++;
        }
        if (rc || nt == 0)
            continue;           /* error, or a blank line */
        if (state == 0) {
            const char *why = NULL, *what[3] = { "node count", "switch count", "link count" };
            uint64_t v[3];
            if (nt != 3) {
                rc = hp_fail(r, ln, "expected 'NODES SWITCHES LINKS', found %d fields", nt);
                break;
            }
            for (int i = 0; i < 3 && rc == 0; i++)
                if (units_parse_u64_why(tok[i], &v[i], &why))
                    rc = hp_fail(r, ln, "bad %s '%.40s' (%s)", what[i], tok[i],
                                 why ? why : "not a number");
            if (rc)
                break;
            nodes = v[0], nsw = v[1], nlinks = v[2];
            if (nodes == 0 || nodes > TOPO_MAX_NODES) {
                rc = hp_fail(r, ln, "node count %llu: must be 1..%u", (unsigned long long)nodes,
                             TOPO_MAX_NODES);
            } else if (nsw > nodes) {
                rc = hp_fail(r, ln, "%llu switches but only %llu nodes", (unsigned long long)nsw,
                             (unsigned long long)nodes);
            } else if (nlinks >= NONE32) {
                rc = hp_fail(r, ln, "link count %llu is too large", (unsigned long long)nlinks);
            } else if (!(flag = calloc(nodes, 1))) {
                rc = hp_fail(r, 0, "out of memory");
            } else {
                *flagp = flag;
                state = nsw ? 1 : 2;
            }
        } else if (state == 1) {
            if ((uint64_t)nt != nsw) {
                rc = hp_fail(r, ln, "expected %llu switch ids on one line, found %d",
                             (unsigned long long)nsw, nt);
                break;
            }
            state = 2;
        } else if (state == 2) {
            uint32_t a = 0, b = 0;   /* set by hp_id */
            uint64_t rate, delay;
            double erate;
            const char *why = NULL;
            if (nt != 5) {
                rc = hp_fail(r, ln, "expected 'SRC DST RATE DELAY ERROR_RATE', found %d fields", nt);
            } else if (hp_id(r, ln, "node id", tok[0], nodes, &a) ||
                       hp_id(r, ln, "node id", tok[1], nodes, &b)) {
                rc = -1;
            } else if (a == b) {
                rc = hp_fail(r, ln, "link from node %u to itself", a);
            } else if (units_parse_rate_bps_why(tok[2], &rate, &why)) {
                rc = hp_fail(r, ln, "bad rate '%.40s' (%s; e.g. 100Gbps)", tok[2], why ? why : "?");
            } else if (rate == 0) {
                rc = hp_fail(r, ln, "rate must be > 0");
            } else if (units_parse_time_ps_why(tok[3], &delay, &why)) {
                rc = hp_fail(r, ln, "bad delay '%.40s' (%s; e.g. 1000ns)", tok[3], why ? why : "?");
            } else if (units_parse_double(tok[4], &erate) || erate < 0 || erate > 1) {
                rc = hp_fail(r, ln, "bad error rate '%.40s' (a probability, 0..1)", tok[4]);
            } else if (erate != 0) {
                rc = hp_fail(r, ln, "error rate %.40s: not supported (lossy links)", tok[4]);
            } else {
                uint32_t ends[2] = { a, b };
                for (int i = 0; i < 2 && rc == 0; i++) {
                    uint8_t *f = &flag[ends[i]];
                    if (*f & HP_SWITCH)
                        continue;
                    if (*f & HP_LINKED)
                        rc = hp_fail(r, ln, "host %u has a second link (a host has one NIC port)",
                                     ends[i]);
                    *f |= HP_LINKED;
                }
                if (rc == 0 && net_add_link(n, a, b, rate, delay) == NONE32)
                    rc = hp_fail(r, 0, "out of memory");
                if (rc == 0 && ++links_read == nlinks)
                    state = 3;
            }
        } else {
            rc = hp_fail(r, ln, "more links than the %llu the header announces",
                         (unsigned long long)nlinks);
        }
        /* The nodes exist as soon as their kinds are known (after the header
         * or the switch-id line), before the first link. */
        if (rc == 0 && state == 2 && n->n_nodes == 0) {
            char name[24];
            for (uint64_t i = 0; i < nodes && rc == 0; i++) {
                int sw = flag[i] & HP_SWITCH;
                snprintf(name, sizeof name, "%c%llu", sw ? 's' : 'h', (unsigned long long)i);
                if (net_add_node(n, sw ? NODE_SWITCH : NODE_HOST, name) == NONE32)
                    rc = hp_fail(r, 0, "out of memory");
            }
            if (nlinks == 0)
                state = 3;
        }
    }
    free(line);
    if (rc == 0 && ferror(fp))
        rc = hp_fail(r, 0, "read error: %s", strerror(errno));
    if (rc == 0) {
        if (state == 0)
            rc = hp_fail(r, 0, "empty file (expected 'NODES SWITCHES LINKS' on line 1)");
        else if (state == 1)
            rc = hp_fail(r, ln, "file ends before the line of %llu switch ids",
                         (unsigned long long)nsw);
        else if (state == 2)
            rc = hp_fail(r, ln, "file ends after %llu of %llu links",
                         (unsigned long long)links_read, (unsigned long long)nlinks);
    }
    return rc;
}

int topo_load_hpcc(struct net *n, const char *path, struct topo_layout *out,
                   char *err, size_t errlen)
{
    struct hpcc_rd r = { path, err, errlen };
    if (errlen)
        err[0] = '\0';
    if (n->n_nodes || n->n_links)
        return hp_fail(&r, 0, "the net already has nodes or links; load into a fresh net");
    FILE *fp = fopen(path, "r");
    if (!fp)
        return hp_fail(&r, 0, "cannot open: %s", strerror(errno));
    uint8_t *flag = NULL;
    int rc = hp_parse(fp, &r, n, &flag);
    fclose(fp);
    struct topo_layout lay = {
        .first_host = NONE32, .first_edge = NONE32, .first_agg = NONE32, .first_core = NONE32,
    };
    for (uint32_t i = 0; rc == 0 && i < n->n_nodes; i++) {
        if (flag[i] & HP_SWITCH) {
            lay.n_switches++;
        } else if (!(flag[i] & HP_LINKED)) {
            rc = hp_fail(&r, 0, "host %u has no link", i);
        } else {
            lay.n_hosts++;
        }
    }
    free(flag);
    if (rc)
        return -1;
    if (hp_tiers(n, &lay))
        return hp_fail(&r, 0, "out of memory");
    lay.n_links = n->n_links;
    if (out)
        *out = lay;
    return 0;
}
