/* maxmin.c -- the max-min oracle over a scenario's paths; see maxmin.h. */
#include "engine/maxmin.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "core/waterfill.h"
#include "engine/metrics.h"
#include "net/agent_rocc.h"
#include "rocc_cnp.h"

/* CNP rounds: each round can only add CPs whose saturation the previous
 * CNP load caused or removed; on the benchmarks the set settles in 1-2. */
#define MM_MAX_ROUNDS 16

/* The ports a frame leaving through `port` crosses until it reaches host
 * `dst`, routed by hash h at every switch as the simulator routes it.
 * Count, or -1 if a switch has no route or the walk does not end. */
static int walk(const struct net *n, uint32_t port, uint32_t dst, uint64_t h, uint32_t *out, uint32_t max)
{
    uint32_t k = 0, dnode = n->hosts[dst].node;
    for (;;) {
        if (port == NONE32 || k >= max)
            return -1;
        out[k++] = port;
        uint32_t node = n->ports[n->ports[port].peer].node;
        if (node == dnode)
            return (int)k;
        if (n->nodes[node].kind != NODE_SWITCH)
            return -1;
        port = net_route(n, node, dst, h);
    }
}

/* Room for `need` elements (doubling): the array, moved or not, or NULL
 * without memory (arr is then still valid and *cap unchanged). */
static void *grow(void *arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return arr;
    size_t nc = *cap;
    while (nc < need)
        nc *= 2;
    void *p = realloc(arr, nc * elem);
    if (p)
        *cap = nc;
    return p;
}

static const struct rocc_agent *port_cp(const struct net *n, uint32_t port)
{
    for (uint32_t a = n->ports[port].agent; a != NONE32; a = n->agents[a].next)
        if (n->agents[a].ops == &rocc_agent_ops)
            return n->agents[a].state;
    return NULL;
}

/* Wire bytes of a data frame and of an ACK of flow f: its transport's INT
 * header (HPCC) is set when the flow starts, so it is derived here. */
static void frame_bytes(const struct net *n, const struct flow *f, double *w_data, double *w_ack)
{
    uint32_t extra = (f->tp->int_telemetry ? HPCC_INT_BYTES(HPCC_MAX_HOPS) : f->hdr_extra) + n->cfg.fc_hdr_bytes;
    uint32_t d = n->cfg.mtu_payload + ROCE_DATA_OVERHEAD + extra, a = ROCE_ACK_FRAME + extra;
    *w_data = (double)((d < ETH_MIN_FRAME ? ETH_MIN_FRAME : d) + n->cfg.preamble_ifg);
    *w_ack = (double)((a < ETH_MIN_FRAME ? ETH_MIN_FRAME : a) + n->cfg.preamble_ifg);
}

static int errf(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int errf(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* Which flows the oracle takes (see maxmin.h); -1 with why if the flow set
 * changes inside the window. */
static int select_flows(struct maxmin *mm, const struct scenario *sc, uint32_t *sel, char *why, size_t len)
{
    const struct net *n = &sc->net;
    char a[32], b[32], c[32];
    for (uint32_t i = 0; i < sc->n_events; i++)
        if (sc->events[i].t <= mm->t1)
            return errf(why, len, "a link event at %s changes paths before the window ends (%s); the oracle needs "
                        "fixed paths: choose a window before the first event",
                        units_fmt_time(sc->events[i].t, a, sizeof a), units_fmt_time(mm->t1, b, sizeof b));
    for (uint32_t fi = 0; fi < n->n_flows; fi++) {
        const struct flow *f = &n->flows[fi];
        if (!(f->flags & FL_ENDLESS)) {
            mm->finite += f->start_ps < mm->t1;
            continue;
        }
        if (f->start_ps >= mm->t1 || f->stop_ps <= mm->t0)
            continue;                              /* not running in the window */
        if (f->start_ps > mm->t0 || f->stop_ps < mm->t1) {
            const struct group *g = &sc->groups[f->group];
            int starts = f->start_ps > mm->t0;
            return errf(why, len, "flow group '%s' %s at %s, inside the window %s..%s: max-min needs the same "
                        "flows throughout; choose a window between the groups' start and stop times", g->name,
                        starts ? "starts" : "stops", units_fmt_time(starts ? f->start_ps : f->stop_ps, a, sizeof a),
                        units_fmt_time(mm->t0, b, sizeof b), units_fmt_time(mm->t1, c, sizeof c));
        }
        sel[mm->n++] = fi;
        mm->window_flows += f->window != 0;
        mm->other_cnp_flows += f->tp->np_cnp || f->tp->cp_cnp;
    }
    return 0;
}

int maxmin_build(struct maxmin *mm, const struct scenario *sc, simtime_t t0, simtime_t t1, char *why, size_t len)
{
    const struct net *n = &sc->net;
    memset(mm, 0, sizeof *mm);
    mm->t0 = t0;
    mm->t1 = t1;
    uint32_t np = n->n_ports, maxhop = n->n_nodes + 1;
    uint32_t *sel = malloc((n->n_flows ? n->n_flows : 1) * sizeof *sel);
    if (!sel)
        return errf(why, len, "out of memory");
    if (select_flows(mm, sc, sel, why, len)) {
        free(sel);
        mm->n = 0;
        return -1;
    }
    uint32_t nf = mm->n;
    mm->f = calloc(nf ? nf : 1, sizeof *mm->f);
    /* paths and uses grow as flows are walked: sized by the longest
     * possible path they would take n_nodes times the memory */
    size_t cap_use = 64, cap_path = 64, n_path = 0;
    struct wf_use *use = malloc(cap_use * sizeof *use);
    mm->paths = malloc(cap_path * sizeof *mm->paths);
    uint32_t *tmp = malloc(maxhop * sizeof *tmp), *limit = malloc((nf + 1) * sizeof *limit);
    double *cap = malloc((nf + 1) * sizeof *cap), *rate = malloc((nf + 1) * sizeof *rate);
    double *capa = malloc((np + 1) * sizeof *capa), *fixed = calloc(np + 1, sizeof *fixed);
    uint8_t *sat = calloc(np + 1, 1), *sat_new = calloc(np + 1, 1);
    int rc = 0;
    size_t k = 0;
    if (!mm->f || !mm->paths || !use || !tmp || !limit || !cap || !rate || !capa || !fixed || !sat ||
        !sat_new) {
        rc = errf(why, len, "out of memory");
        goto out;
    }
    for (uint32_t p = 0; p < np; p++)
        capa[p] = n->ports[p].down ? 0 : (double)n->ports[p].rate_bps;
    for (uint32_t i = 0; i < nf && rc == 0; i++) {
        const struct flow *f = &n->flows[sel[i]];
        struct mm_flow *m = &mm->f[i];
        double w_data, w_ack;
        frame_bytes(n, f, &w_data, &w_ack);
        double line = (double)flow_line_rate(n, f);
        m->flow = sel[i];
        m->wire_frame = w_data;
        m->cap_bps = f->app_rate_bps && (double)f->app_rate_bps < line ? (double)f->app_rate_bps : line;
        cap[i] = m->cap_bps;
        int h = walk(n, n->hosts[f->src].port, f->dst, f->hash, tmp, maxhop);
        if (h < 0) {
            rc = errf(why, len, "flow %u (%s -> %s) has no route", sel[i], n->nodes[n->hosts[f->src].node].name,
                      n->nodes[n->hosts[f->dst].node].name);
            break;
        }
        uint32_t *np_ = grow(mm->paths, &cap_path, n_path + (size_t)h, sizeof *mm->paths);
        if (np_)
            mm->paths = np_;
        struct wf_use *nu = np_ ? grow(use, &cap_use, k + 2 * (size_t)maxhop, sizeof *use) : NULL;
        if (!nu) {
            rc = errf(why, len, "out of memory");
            break;
        }
        use = nu;
        m->hops = (uint32_t)h;
        m->path = (uint32_t)n_path;
        for (int j = 0; j < h; j++) {
            mm->paths[n_path++] = tmp[j];
            use[k++] = (struct wf_use){ i, tmp[j], 1.0, 0 };
        }
        int r = walk(n, n->hosts[f->dst].port, f->src, f->rhash, tmp, maxhop);
        if (r < 0) {
            rc = errf(why, len, "flow %u (%s -> %s) has no route back (ACKs)", sel[i],
                      n->nodes[n->hosts[f->src].node].name, n->nodes[n->hosts[f->dst].node].name);
            break;
        }
        double ack = w_ack / ((double)(n->cfg.ack_interval ? n->cfg.ack_interval : 1) * w_data);
        for (int j = 0; j < r; j++)
            use[k++] = (struct wf_use){ i, tmp[j], ack, WF_PRIORITY };   /* control class */
    }
    /* Solve; add the CNP load of every CP that limits a flow in that
     * solution; solve again until that set is the one whose load was added. */
    for (uint32_t round = 1; rc == 0 && nf > 0; round++) {
        mm->rounds = round;
        int w = waterfill(nf, cap, np, capa, fixed, use, k, rate, limit);
        if (w < 0) {
            rc = errf(why, len, "max-min: no solution (a flow without a cap or a link?) or out of memory");
            break;
        }
        mm->ack_unsettled = w == 1;
        /* A CP sends CNPs when it holds a queue: when it is the port that
         * limits some flow.  A full port that only passes on what a full
         * port upstream of it sends (a NIC's output into a switch port of
         * the same rate) builds no queue; water-filling names the first
         * full port along the flow's path, the upstream one, as its limit. */
        for (uint32_t p = 0; p < np; p++) {
            const struct rocc_agent *cp = port_cp(n, p);
            sat_new[p] = cp && cp->cnp_at_fmax;
        }
        for (uint32_t i = 0; i < nf; i++)
            if (limit[i] != WF_CAP && port_cp(n, limit[i]))
                sat_new[limit[i]] = 1;
        if (!memcmp(sat, sat_new, np)) {
            mm->settled = 1;
            break;
        }
        if (round == MM_MAX_ROUNDS)
            break;                                 /* reported: settled = 0 */
        memcpy(sat, sat_new, np);
        memset(fixed, 0, np * sizeof *fixed);
        mm->cnp_cps = 0;
        for (uint32_t p = 0; p < np; p++)
            mm->cnp_cps += sat[p];
        for (uint32_t i = 0; i < nf && rc == 0; i++) {
            const struct flow *f = &n->flows[sel[i]];
            for (uint32_t j = 0; j < mm->f[i].hops; j++) {
                uint32_t p = mm->paths[mm->f[i].path + j];
                if (!sat[p])
                    continue;
                const struct rocc_agent *cp = port_cp(n, p);
                double bps = ROCC_CNP_WIRE_BYTES * 8.0 * (double)PS_PER_S / (double)cp->prm.period_ps;
                uint32_t node = n->ports[p].node;
                int c = walk(n, net_route(n, node, f->src, f->rhash), f->src, f->rhash, tmp, maxhop);
                if (c < 0) {
                    rc = errf(why, len, "flow %u: no route for CNPs from %s", sel[i], n->nodes[node].name);
                    break;
                }
                for (int q = 0; q < c; q++)
                    fixed[tmp[q]] += bps;
            }
        }
    }
    for (uint32_t i = 0; rc == 0 && i < nf; i++) {
        struct mm_flow *m = &mm->f[i];
        m->oracle_bps = rate[i];
        m->goodput_bps = rate[i] * n->cfg.mtu_payload / m->wire_frame;
        m->limit = limit[i] == WF_CAP ? NONE32 : limit[i];
        m->measured_bps = m->error = NAN;
    }
out:
    free(sel);
    free(use);
    free(tmp);
    free(limit);
    free(cap);
    free(rate);
    free(capa);
    free(fixed);
    free(sat);
    free(sat_new);
    if (rc) {
        free(mm->f);
        free(mm->paths);
        mm->paths = NULL;
        mm->f = NULL;
        mm->n = 0;
    }
    return rc;
}

void maxmin_measure(struct maxmin *mm, const struct scenario *sc)
{
    const struct net *n = &sc->net;
    for (uint32_t i = 0; i < mm->n; i++) {
        struct mm_flow *m = &mm->f[i];
        m->measured_bps = metrics_flow_rate(sc, m->flow, mm->t0, mm->t1);
        if (isnan(m->measured_bps))
            m->error = NAN;
        else if (m->oracle_bps > 0)
            m->error = fabs(m->measured_bps - m->oracle_bps) / m->oracle_bps;
        else
            m->error = m->measured_bps > 0 ? INFINITY : 0;
    }
    mm->interfering = 0;
    for (uint32_t fi = 0; fi < n->n_flows; fi++) {
        const struct flow *f = &n->flows[fi];
        if (f->flags & FL_ENDLESS || f->start_ps >= mm->t1)
            continue;
        if (!((f->flags & FL_RX_DONE) && f->finish_ps <= mm->t0))
            mm->interfering++;
    }
}

static int in_group(const struct maxmin *mm, const struct scenario *sc, uint32_t i, uint32_t g)
{
    return g == NONE32 || sc->net.flows[mm->f[i].flow].group == g;
}

double maxmin_max_error(const struct maxmin *mm, const struct scenario *sc, uint32_t g, uint32_t *worst)
{
    double e = NAN;
    *worst = NONE32;
    for (uint32_t i = 0; i < mm->n; i++) {
        if (!in_group(mm, sc, i, g) || isnan(mm->f[i].error))
            continue;
        if (isnan(e) || mm->f[i].error > e) {
            e = mm->f[i].error;
            *worst = i;
        }
    }
    return e;
}

uint32_t maxmin_count(const struct maxmin *mm, const struct scenario *sc, uint32_t g)
{
    uint32_t c = 0;
    for (uint32_t i = 0; i < mm->n; i++)
        c += (uint32_t)in_group(mm, sc, i, g);
    return c;
}

void maxmin_free(struct maxmin *mm)
{
    if (mm) {
        free(mm->f);
        free(mm->paths);
        mm->f = NULL;
        mm->paths = NULL;
        mm->n = 0;
    }
}

void maxmin_flow_name(const struct scenario *sc, uint32_t flow, char *buf, size_t len)
{
    const struct group *g = &sc->groups[sc->net.flows[flow].group];
    if (g->count == 1)
        snprintf(buf, len, "%s", g->name);
    else
        snprintf(buf, len, "%s[%u]", g->name, flow - g->first);
}
