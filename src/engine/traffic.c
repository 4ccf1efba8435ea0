/* traffic.c -- [traffic.NAME] sections to flows; see traffic.h. */
#include "engine/traffic.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/units.h"
#include "engine/ccsel.h"
#include "engine/workload.h"


static int file_exists(const char *p)
{
    return access(p, R_OK) == 0;
}

/* A shipped CDF by name, or a path relative to the scenario file. */
static int resolve_cdf(const struct cfg *c, const char *v, char *out, size_t len)
{
    if (strchr(v, '/') || strstr(v, ".cdf") || strstr(v, ".txt")) {
        const char *base = cfg_path(c), *slash = strrchr(base, '/');
        if (v[0] == '/' || !slash)
            snprintf(out, len, "%s", v);
        else
            snprintf(out, len, "%.*s/%s", (int)(slash - base), base, v);
        return file_exists(out) ? 0 : -1;
    }
    const char *env = getenv("ROCC_DATA");
    if (env && *env) {
        snprintf(out, len, "%s/cdf/%s.cdf", env, v);
        if (file_exists(out))
            return 0;
    }
    char exe[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k > 0) {
        exe[k] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            if ((size_t)snprintf(out, len, "%.3000s/../data/cdf/%.200s.cdf", exe, v) < len && file_exists(out))
                return 0;
        }
    }
    snprintf(out, len, "data/cdf/%s.cdf", v);
    return file_exists(out) ? 0 : -1;
}

static int all_hosts(struct scenario *sc, uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < sc->net.n_nodes; i++)
        if (sc->net.nodes[i].kind == NODE_HOST)
            out[n++] = i;
    return (int)n;
}

/* Node list of key `key` (default: every host) as host indices. */
static int host_list(struct scenario *sc, const char *sec, const char *key, uint32_t *out, struct cfg_err *err)
{
    struct cfg *c = sc->cfg;
    const struct cfg_entry *e = cfg_find(c, sec, key);
    int n = e ? scenario_nodes(sc, e, out, sc->net.n_nodes, err) : all_hosts(sc, out);
    if (n < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        if (sc->net.nodes[out[i]].kind != NODE_HOST)
            return cfg_errorf(err, e, "'%s' is a switch; traffic goes between hosts", sc->net.nodes[out[i]].name);
        out[i] = sc->net.nodes[out[i]].idx;
    }
    return n;
}

/* (src, dst) -> the QP of that pair and its first message, an open-
 * addressing table sized to stay under half full. */
struct qp_map {
    struct qp_slot { uint32_t src, dst, qp, first; } *slot;
    size_t cap, used;
};

static int qp_map_grow(struct qp_map *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 1024;
    struct qp_slot *ns = malloc(ncap * sizeof *ns);
    if (!ns)
        return -1;
    for (size_t i = 0; i < ncap; i++)
        ns[i].qp = 0;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slot[i].qp)
            continue;
        size_t h = (size_t)mix64(((uint64_t)m->slot[i].src << 32) | m->slot[i].dst) & (ncap - 1);
        while (ns[h].qp)
            h = (h + 1) & (ncap - 1);
        ns[h] = m->slot[i];
    }
    free(m->slot);
    m->slot = ns;
    m->cap = ncap;
    return 0;
}

/* Put flow fi on its pair's QP (opened at its first message).  The
 * messages of a QP share its UDP source port, hence its ECMP path, as on
 * a RoCEv2 NIC. */
static int qp_assign(struct scenario *sc, struct qp_map *m, uint32_t fi, uint32_t limit)
{
    struct net *n = &sc->net;
    if ((m->used + 1) * 2 > m->cap && qp_map_grow(m))
        return -1;
    struct flow *f = &n->flows[fi];
    size_t h = (size_t)mix64(((uint64_t)f->src << 32) | f->dst) & (m->cap - 1);
    while (m->slot[h].qp && (m->slot[h].src != f->src || m->slot[h].dst != f->dst))
        h = (h + 1) & (m->cap - 1);
    if (!m->slot[h].qp) {
        uint32_t q = net_add_qp(n, limit);
        if (!q)
            return -1;
        m->slot[h] = (struct qp_slot){ f->src, f->dst, q, fi };
        m->used++;
    } else {
        const struct flow *first = &n->flows[m->slot[h].first];
        f->sport = first->sport;
        f->hash = first->hash;
        f->rhash = first->rhash;
    }
    f->qp = m->slot[h].qp;
    return 0;
}

int traffic_build(struct scenario *sc, const char *sec, int dflt_cc, int *any_rocc, struct cfg_err *err)
{
    struct cfg *c = sc->cfg;
    struct net *n = &sc->net;
    const char *name = sec + strlen("traffic.");
    if (!*name || strlen(name) >= sizeof sc->groups[0].name - 8)
        return cfg_section_errorf(err, c, sec, "traffic names are 1..39 characters: [traffic.NAME]");
    static const char *const keys[] = { "pattern", "cc", "start", "stop", "class", "file", "load", "cdf", "cdf_format",
                                        "sampling", "hosts", "senders", "size", "src", "dst", "qp",
                                        "qp_outstanding", NULL };
    cfg_touch(c, sec, keys);
    static const char *const patterns[] = { "all_to_all", "permutation", "groups", "incast", "hpcc_file", NULL };
    int pat, cc;
    uint64_t t0, t1, cls;
    TRY(cfg_enum(c, sec, "pattern", patterns, 0, &pat, err));
    TRY(cfg_enum(c, sec, "cc", cc_algo_names, dflt_cc, &cc, err));
    if (pat == 4 && (cfg_find(c, sec, "start") || cfg_find(c, sec, "stop")))
        return cfg_errorf(err, cfg_find(c, sec, "start") ? cfg_find(c, sec, "start") : cfg_find(c, sec, "stop"),
                          "an HPCC flow file carries its own start times: no start/stop with pattern = hpcc_file");
    TRY(cfg_time(c, sec, "start", 0, &t0, err));
    TRY(cfg_time(c, sec, "stop", sc->duration, &t1, err));
    TRY(cfg_u64(c, sec, "class", n->cfg.data_prio, &cls, err));
    if (cls > 7 || cls == n->cfg.ctrl_prio)
        return cfg_errorf(err, cfg_find(c, sec, "class"), "data class must be 0..7 and not the control class");
    if (t1 <= t0 && pat != 4)
        return cfg_section_errorf(err, c, sec, "stop must be after start");
    /* Queue pairs: generated traffic is RDMA messages, and one QP per
     * (sender, receiver) pair runs them in order (RoCC §6.3 counts at most
     * one flow per pair on a link: 30, 150, 300, 60).  Incast events are
     * one message per sender each and stay independent by default. */
    static const char *const qpmodes[] = { "pair", "none", NULL };
    int qpmode;
    uint64_t qp_out;
    TRY(cfg_enum(c, sec, "qp", qpmodes, pat == 3 ? 1 : 0, &qpmode, err));
    TRY(cfg_u64(c, sec, "qp_outstanding", 1, &qp_out, err));
    if (qp_out < 1 || qp_out > 1000000)
        return cfg_errorf(err, cfg_find(c, sec, "qp_outstanding"), "qp_outstanding must be 1..1000000");
    if (qpmode == 1 && cfg_find(c, sec, "qp_outstanding"))
        return cfg_errorf(err, cfg_find(c, sec, "qp_outstanding"), "qp_outstanding needs qp = pair");

    /* The section's own stream: its arrivals depend on the seed and this
     * section only (core/rng.h), not on what else the run builds. */
    struct rng gr;
    rng_seed(&gr, rng_stream_seed(sc->seed, "traffic", name));
    struct wl_list wl = { 0 };
    struct qp_map qm = { 0 };
    uint32_t *a = malloc(n->n_nodes * sizeof *a), *b = malloc(n->n_nodes * sizeof *b);
    uint64_t *rate = malloc(n->n_hosts * sizeof *rate);
    struct cdf cdf = { 0 };
    char why[512];
    int rc = 0;
    if (!a || !b || !rate) {
        rc = cfg_section_errorf(err, c, sec, "out of memory");
        goto out;
    }
    for (uint32_t h = 0; h < n->n_hosts; h++)
        rate[h] = n->ports[n->hosts[h].port].rate_bps;
    if (pat == 4) {                                      /* HPCC flow file */
        const struct cfg_entry *fe = cfg_find(c, sec, "file");
        if (!fe) {
            rc = cfg_section_errorf(err, c, sec, "pattern = hpcc_file needs a 'file' key");
            goto out;
        }
        char path[4096];
        const char *base = cfg_path(c), *slash = strrchr(base, '/');
        if (fe->value[0] == '/' || !slash)
            snprintf(path, sizeof path, "%s", fe->value);
        else
            snprintf(path, sizeof path, "%.*s/%s", (int)(slash - base), base, fe->value);
        /* SRC and DST are host indices 0..hosts-1 (docs/config.md), as
         * flows.txt writes them: host hI of a built-in topology is I
         * wherever its switches sit (a star's switch is node 0), and an
         * HPCC topology's host is its rank among the host ids. */
        if (wl_read_hpcc(&wl, path, n->n_hosts, why, sizeof why)) {
            snprintf(err->msg, sizeof err->msg, "%s", why);
            rc = -1;
            goto out;
        }
        if (wl.n == 0) {   /* not "the section generated no flow (load too low...)": there is no load */
            rc = cfg_errorf(err, fe, "flow file '%s' holds no flows (its flow count is 0)", path);
            goto out;
        }
    } else {
        double load;
        if (pat != 3 && !cfg_find(c, sec, "load")) {
            rc = cfg_missing(err, c, sec, "load", " (e.g. load = 70%)");
            goto out;
        }
        /* Incast default: 2% of the network load (HPCC issue #36's recipe). */
        if ((rc = cfg_percent(c, sec, "load", pat == 3 ? WL_INCAST_DEFAULT_LOAD : 0, &load, err)))
            goto out;
        if (!(load > 0 && load <= 1)) {
            rc = cfg_errorf(err, cfg_find(c, sec, "load"), "load must be in (0%%, 100%%]");
            goto out;
        }
        if (pat == 3) {                                  /* incast events */
            uint64_t m, size;
            int nh = host_list(sc, sec, "hosts", a, err);
            if (nh < 0 || cfg_u64(c, sec, "senders", 60, &m, err) || cfg_bytes(c, sec, "size", 500000, &size, err)) {
                rc = -1;
                goto out;
            }
            /* Defaults: the HPCC maintainer's recipe (HPCC issue #36): 60 senders x 500 KB. */
            if (m < 1 || m >= (uint64_t)nh || size == 0) {
                rc = cfg_section_errorf(err, c, sec, "need 1 <= senders < number of hosts (%d) and size > 0", nh);
                goto out;
            }
            uint64_t *hr = malloc((size_t)nh * sizeof *hr);
            if (!hr) {
                rc = cfg_section_errorf(err, c, sec, "out of memory");
                goto out;
            }
            for (int i = 0; i < nh; i++)
                hr[i] = rate[a[i]];
            rc = wl_incast(&wl, a, (size_t)nh, hr, load, (uint32_t)m, size, t0, t1, &gr, why, sizeof why);
            free(hr);
        } else {
            const struct cfg_entry *ce = cfg_find(c, sec, "cdf");
            if (!ce) {
                rc = cfg_missing(err, c, sec, "cdf", " (websearch, fb_hadoop, "
                                 "alistorage2019, googlerpc2008, vl2_datamining or a file)");
                goto out;
            }
            static const char *const fmts[] = { "auto", "fraction", "percent", NULL };
            static const char *const smps[] = { "interpolate", "step", NULL };
            int fmt, smp;
            if (cfg_enum(c, sec, "cdf_format", fmts, 0, &fmt, err) || cfg_enum(c, sec, "sampling", smps, 0, &smp, err)) {
                rc = -1;
                goto out;
            }
            char path[4096];
            if (resolve_cdf(c, ce->value, path, sizeof path)) {
                rc = cfg_errorf(err, ce, "CDF '%s' not found (looked for %s; set ROCC_DATA to the data directory)",
                                ce->value, path);
                goto out;
            }
            static const enum cdf_format fm[] = { CDF_AUTO, CDF_FRACTION, CDF_PERCENT };
            if (cdf_load(&cdf, path, fm[fmt], why, sizeof why)) {
                snprintf(err->msg, sizeof err->msg, "%s", why);
                rc = -1;
                goto out;
            }
            /* Sizes are max(1, floor x): a CDF whose sizes are all 0 or 1
             * (sizes in KB or MB by mistake, a placeholder) would silently
             * become millions of 1-byte flows. */
            if (cdf.size[cdf.n - 1] < 2) {
                rc = cfg_errorf(err, ce, "CDF '%s': every size is at most 1 byte (largest %g), so every flow "
                                "would be 1 byte; sizes are in bytes", path, cdf.size[cdf.n - 1]);
                goto out;
            }
            int ns = host_list(sc, sec, "src", a, err);
            int nd = ns < 0 ? -1 : host_list(sc, sec, "dst", b, err);
            if (ns < 0 || nd < 0) {
                rc = -1;
                goto out;
            }
            uint64_t *sr = malloc((size_t)ns * sizeof *sr);
            if (!sr) {
                rc = cfg_section_errorf(err, c, sec, "out of memory");
                goto out;
            }
            for (int i = 0; i < ns; i++)
                sr[i] = rate[a[i]];
            static const enum wl_pattern wp[] = { WL_ALL_TO_ALL, WL_PERMUTATION, WL_GROUPS };
            rc = wl_poisson(&wl, a, (size_t)ns, b, (size_t)nd, wp[pat], sr, load, &cdf,
                            smp ? CDF_STEP : CDF_INTERPOLATE, t0, t1, &gr, why, sizeof why);
            free(sr);
        }
        if (rc) {
            rc = cfg_section_errorf(err, c, sec, "%s", why);
            goto out;
        }
    }
    /* One group for the section; incast flows of an HPCC file (dport 200)
     * go to NAME_incast so they are reported apart. */
    for (int pass = 0; pass < 2 && rc == 0; pass++) {
        int want_incast = pat == 3 ? 1 : pass;
        if (pat == 3 && pass == 1)
            break;
        size_t cnt = 0;
        for (size_t i = 0; i < wl.n; i++)
            cnt += (wl.v[i].incast != 0) == want_incast;
        if (cnt == 0 && pass == 1)
            break;
        char gname[48];
        snprintf(gname, sizeof gname, pass == 1 && pat != 3 ? "%s_incast" : "%s", name);
        int gi = scenario_add_group(sc, gname, cc, want_incast);
        if (gi < 0) {
            rc = cfg_section_errorf(err, c, sec, gi == -2 ? "another flow group or traffic section is named '%s'"
                                                           : "out of memory (%s)", gname);
            break;
        }
        if (cc == CC_ROCC)
            *any_rocc = 1;
        for (size_t i = 0; i < wl.n && rc == 0; i++) {
            if ((wl.v[i].incast != 0) != want_incast)
                continue;
            struct flow f;
            memset(&f, 0, sizeof f);
            f.src = wl.v[i].src;
            f.dst = wl.v[i].dst;
            f.group = (uint32_t)gi;
            f.prio = (uint8_t)cls;
            f.size = wl.v[i].size;
            f.start_ps = wl.v[i].start_ps;
            f.stop_ps = SIMTIME_NEVER;
            uint32_t fi = scenario_add_flow(sc, &f);
            if (fi == NONE32 || (qpmode == 0 && qp_assign(sc, &qm, fi, (uint32_t)qp_out)))
                rc = cfg_section_errorf(err, c, sec, "out of memory");
        }
        sc->groups[gi].count = n->n_flows - sc->groups[gi].first;
        if (rc == 0 && pass == 0 && sc->groups[gi].count == 0)
            rc = cfg_section_errorf(err, c, sec, "the section generated no flow (load too low or window too short?)");
    }
out:
    free(qm.slot);
    wl_list_free(&wl);
    cdf_free(&cdf);
    free(a);
    free(b);
    free(rate);
    return rc;
}
