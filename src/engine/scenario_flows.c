/*
 * scenario_flows.c -- the flows of a run: [flows.NAME] groups (src/dst node
 * lists, pairing, count, size, rate, start/stop, cc, class, window) read
 * here, [traffic.NAME] sections handed to traffic.c, and the helpers both
 * use to add a group and a flow (5-tuple, ECMP hashes).  Keys: docs/config.md.
 * Called by scenario_build() (scenario.c).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "engine/ccsel.h"
#include "engine/scenario_sections.h"
#include "engine/traffic.h"

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
            /* The group's own stream (core/rng.h): its start times depend
             * on the seed and this section only. */
            struct rng jr;
            rng_seed(&jr, rng_stream_seed(sc->seed, "flows", gname));
            if (cc == CC_ROCC)
                *any_rocc = 1;
            for (int i = 0; i < ns && rc == 0; i++) {
                /* zip pairs src i with dst i only; otherwise every dst */
                for (int j = pairing == 1 ? i : 0; j < (pairing == 1 ? i + 1 : nd) && rc == 0; j++) {
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
                         * drawn from the group's stream (same seed, same starts). */
                        f.start_ps = start + (jitter ? rng_below(&jr, jitter) : 0);
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

int scenario_flows(struct scenario *sc, struct cfg *c, int dflt_cc, int *any_rocc, struct cfg_err *err)
{
    struct flow_ctx fc = { sc, err, 0, dflt_cc, 0 };
    size_t ng = cfg_sections(c, "flows.", group_cb, &fc);
    TRY(fc.rc);
    ng += cfg_sections(c, "traffic.", traffic_cb, &fc);
    TRY(fc.rc);
    *any_rocc = fc.any_rocc;
    return ng > INT_MAX ? INT_MAX : (int)ng;
}
