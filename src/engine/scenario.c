/*
 * scenario.c -- from an INI scenario to a ready-to-run fabric: the order of
 * the build (scenario_build), node names, [sim], [network], [fct] and
 * [output], the sampler, the run and its end.  The larger sections are read
 * in their own files (scenario_sections.h): [topology] in scenario_topo.c,
 * [rocc] in scenario_rocc.c, [flows.NAME] and [traffic.NAME] in
 * scenario_flows.c.  The keys and their defaults are documented in
 * docs/config.md; every default below cites where it comes from.
 */
#include "engine/parallel.h"
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
#include "engine/oqsel.h"
#include "engine/lsccsel.h"
#include "engine/xbarsel.h"
#include "engine/pcapout.h"
#include "engine/linkflows.h"
#include "engine/topology.h"
#include "engine/scenario_sections.h"
#include "net/agent_rocc.h"

/* ---------- node names and lists ---------- */

static const struct net *name_net_;    /* cmp_node_name's nodes (qsort has no context) */

static int cmp_node_name(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int c = strcmp(name_net_->nodes[x].name, name_net_->nodes[y].name);
    return c ? c : (x < y ? -1 : (x > y));
}

/* The name index: a 10,000-host fabric's flow lists name every host. */
static int index_node_names(struct scenario *sc)
{
    free(sc->node_by_name);
    sc->n_node_by_name = 0;
    sc->node_by_name = malloc((sc->net.n_nodes ? sc->net.n_nodes : 1) * sizeof *sc->node_by_name);
    if (!sc->node_by_name)
        return -1;
    for (uint32_t i = 0; i < sc->net.n_nodes; i++)
        sc->node_by_name[i] = i;
    name_net_ = &sc->net;
    qsort(sc->node_by_name, sc->net.n_nodes, sizeof *sc->node_by_name, cmp_node_name);
    sc->n_node_by_name = sc->net.n_nodes;
    return 0;
}

/* The first node (lowest index) with this name, or NONE32. */
uint32_t scenario_node(const struct scenario *sc, const char *name)
{
    if (sc->n_node_by_name != sc->net.n_nodes) {        /* no index (yet): search */
        for (uint32_t i = 0; i < sc->net.n_nodes; i++)
            if (strcmp(sc->net.nodes[i].name, name) == 0)
                return i;
        return NONE32;
    }
    uint32_t lo = 0, hi = sc->n_node_by_name;           /* lower bound of name */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (strcmp(sc->net.nodes[sc->node_by_name[mid]].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < sc->n_node_by_name && strcmp(sc->net.nodes[sc->node_by_name[lo]].name, name) == 0)
        return sc->node_by_name[lo];
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
    /* Long-haul links (docs/crossdc.md): 'auto' = as the other ports. */
    const struct cfg_entry *lhe = cfg_find(c, "network", "longhaul_headroom");
    if (lhe && strcmp(lhe->value, "auto") != 0) {
        TRY(cfg_bytes(c, "network", "longhaul_headroom", 0, &swc->longhaul_headroom_bytes, err));
        if (swc->longhaul_headroom_bytes == 0)
            return cfg_errorf(err, lhe, "longhaul_headroom must be > 0 (or 'auto')");
    }
    const struct cfg_entry *lxe = cfg_find(c, "network", "longhaul_xoff");
    if (lxe && strcmp(lxe->value, "auto") != 0) {
        TRY(cfg_bytes(c, "network", "longhaul_xoff", 0, &swc->longhaul_xoff_bytes, err));
        if (swc->longhaul_xoff_bytes == 0)
            return cfg_errorf(err, lxe, "longhaul_xoff must be > 0 (or 'auto')");
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
        /* Parallel links: the second port to the same neighbour is "A->B#2".
         * A node's ports are contiguous, so its earlier monitors are the
         * ones just before this one. */
        uint32_t dup = 1;
        for (uint32_t k = sc->n_mon - 1; k-- > 0 && n->ports[sc->mon[k].port].node == n->ports[p].node;)
            if (n->ports[n->ports[sc->mon[k].port].peer].node == n->ports[n->ports[p].peer].node)
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
        /* A partitioned run samples its own nodes only (0 for the others);
         * lf_sample sums the ranks' samples (sc->par_sample). */
        if (sc->flow_series)
            for (uint32_t f = 0; f < n->n_flows; f++)
                sc->s_flow_bytes[(size_t)k * n->n_flows + f] =
                    net_node_local(n, n->hosts[n->flows[f].dst].node) ? n->flows[f].rx_wire_bytes : 0;
        for (uint32_t m = 0; m < sc->n_mon; m++) {
            const struct port *pt = &n->ports[sc->mon[m].port];
            size_t i = (size_t)k * sc->n_mon + m;
            if (!net_node_local(n, pt->node)) {
                sc->s_queue[i] = sc->s_tx[i] = 0;
                sc->s_pfc[i] = sc->s_fair[i] = sc->s_md[i] = 0;
                continue;
            }
            sc->s_queue[i] = pt->data_bytes;
            sc->s_tx[i] = pt->st.tx_wire_bytes;
            sc->s_pfc[i] = (uint32_t)pt->st.pfc_rcvd;
            const struct rocc_agent *ra = sc->mon[m].agent != NONE32
                ? n->agents[sc->mon[m].agent].state : NULL;
            sc->s_fair[i] = ra ? ra->last_f : 0;
            sc->s_md[i] = ra ? (uint32_t)(ra->cp.n_md_fmin + ra->cp.n_md_half) : 0;
        }
        lf_sample(sc, k);
        oqsel_sample(sc, k);
        lsccsel_sample(sc, k);
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
    TRY(parallel_read(sc, c, err));      /* [parallel]: used by the CLI under mpirun */
    if (net_init(&sc->net, sc->seed))
        return cfg_section_errorf(err, c, "sim", "out of memory");
    uint64_t tie_seed;
    TRY(cfg_u64(c, "sim", "tie_seed", 0, &tie_seed, err));
    net_set_tie_seed(&sc->net, tie_seed);
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

    TRY(scenario_topology(sc, c, err));
    char why[256];
    if (net_finalize(&sc->net, &swc, why, sizeof why))
        return cfg_section_errorf(err, c, "topology", "%s", why);
    cfg_section_done(c, "topology");     /* read only above: a later error can blame a typo here */
    /* The event loop's look-ahead (net.c, prefetch_next): on by default
     * when the fabric's ports outgrow a core's cache.  Speed only: outputs
     * are the same either way. */
    static const char *const pf_modes[] = { "auto", "on", "off", NULL };
    int pf_mode;
    TRY(cfg_enum(c, "sim", "prefetch", pf_modes, 0, &pf_mode, err));
    if (pf_mode != 0)
        sc->net.prefetch = pf_mode == 1;
    if (index_node_names(sc))
        return cfg_section_errorf(err, c, "topology", "out of memory");

    TRY(events_read(sc, c, err));
    cfg_section_done(c, "network");
    int dflt_cc;
    TRY(cfg_enum(c, "cc", "algorithm", cc_algo_names, CC_ROCC, &dflt_cc, err));
    TRY(ccsel_read(sc, c, err));
    int any_rocc = 0;
    int ng = scenario_flows(sc, c, dflt_cc, &any_rocc, err);
    TRY(ng);
    if (ng == 0)
        return cfg_section_errorf(err, c, "flows", "no flows: add a [flows.NAME] or [traffic.NAME] section");
    if (sc->net.n_flows == 0)
        return cfg_section_errorf(err, c, "flows", "the flow groups and traffic sections made no flow");
    if (net_flows_ready(&sc->net))
        return cfg_section_errorf(err, c, "flows", "out of memory");
    TRY(scenario_rocc(sc, c, any_rocc, err));
    TRY(ccsel_bind(sc, c, err));
    TRY(scenario_lscc(sc, c, err));
    TRY(fcsel_build(sc, c, err));
    TRY(oqsel_build(sc, c, err));
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
    TRY(pcapout_read(sc, c, err));        /* [output] pcap: capture points, snap length, window */
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
    if (sc->par_run)
        sc->par_run(sc);                /* a partitioned run (parallel.c) */
    else
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
    pcapout_free(sc);                   /* flushes what a capture holds, on every exit path */
    net_free(&sc->net);
    oqsel_free(sc);                     /* after the net: its ports' runtimes use the policy */
    lsccsel_free(sc);
    xbarsel_free(sc);
    ccsel_free(sc);
    deadlock_free(sc);
    free(sc->groups);
    free(sc->fct_bins);
    free(sc->events);
    free(sc->ev_next);
    free(sc->attacks);
    free(sc->mon);
    free(sc->node_by_name);
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
