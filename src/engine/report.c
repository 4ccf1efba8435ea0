/*
 * report.c -- run outputs (see report.h and docs/outputs.md): which files a
 * run writes and how (each to a temporary name, renamed into place),
 * report_check_dir, the human summary on stdout (report_print), and the
 * helpers the writers share.  The writers themselves are in report_json.c,
 * report_tables.c and report_flows.c (report_parts.h).
 */
#include "engine/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "core/units.h"
#include "engine/fcsel.h"
#include "engine/oqsel.h"
#include "engine/lsccsel.h"
#include "engine/xbarsel.h"
#include "engine/pcapout.h"
#include "engine/fcsel_loopbreak.h"
#include "engine/linkflows.h"
#include "engine/metrics.h"
#include "engine/report_parts.h"

/* Utilization descending, then port order (stable and deterministic). */
static int cmp_busy(const void *a, const void *b)
{
    const struct { double u; uint32_t m; } *x = a, *y = b;
    if (x->u != y->u)
        return x->u < y->u ? 1 : -1;
    return x->m < y->m ? -1 : (x->m > y->m);
}

void report_flow_name(const struct scenario *sc, uint32_t f, char *buf, size_t len)
{
    const struct group *g = &sc->groups[sc->net.flows[f].group];
    if (g->count == 1)
        snprintf(buf, len, "%s", g->name);
    else
        snprintf(buf, len, "%s[%u]", g->name, f - g->first);
}

const char *report_host_name(const struct scenario *sc, uint32_t h)
{
    return sc->net.nodes[sc->net.hosts[h].node].name;
}

double report_port_paused_s(const struct port *pt)
{
    uint64_t ps = 0;
    for (int c = 0; c < NCLASS; c++)
        ps += pt->st.paused_ps[c];
    return (double)ps / PS_PER_S;
}

void report_group_rates(const struct scenario *sc, const struct group *gr, simtime_t t0, simtime_t t1,
                        struct grstats *st)
{
    st->mean = st->min = st->max = st->jain = NAN;
    double *r = malloc((gr->count ? gr->count : 1) * sizeof *r), s = 0, lo = INFINITY, hi = -INFINITY;
    if (!r)
        return;
    for (uint32_t k = 0; k < gr->count; k++) {
        r[k] = metrics_flow_rate(sc, gr->first + k, t0, t1);
        s += r[k];
        lo = r[k] < lo ? r[k] : lo;
        hi = r[k] > hi ? r[k] : hi;
    }
    st->mean = gr->count ? s / gr->count : NAN;
    st->min = lo;
    st->max = hi;
    st->jain = metrics_jain(r, gr->count);
    free(r);
}

int report_carried_data(const struct scenario *sc, uint32_t m)
{
    return sc->net.ports[sc->mon[m].port].st.tx_data_bytes > 0;
}

void report_tier_stats(const struct scenario *sc, int pc, struct tier_stats *ts)
{
    const struct net *n = &sc->net;
    memset(ts, 0, sizeof *ts);
    for (uint32_t m = 0; m < sc->n_mon; m++) {
        if ((int)metrics_port_class(n, sc->mon[m].port) != pc)
            continue;
        const struct port *pt = &n->ports[sc->mon[m].port];
        struct qstats q;
        metrics_queue(sc, m, sc->measure_start, sc->measure_end, &q);
        double u = metrics_util(sc, m, sc->measure_start, sc->measure_end);
        ts->ports++;
        ts->xoff_sent += pt->st.pfc_sent;
        ts->xoff_rcvd += pt->st.pfc_rcvd;
        ts->paused_s += report_port_paused_s(pt);
        ts->queue_mean_sum += isnan(q.mean) ? 0 : q.mean;
        ts->queue_max = q.max > ts->queue_max ? q.max : ts->queue_max;
        ts->util_sum += isnan(u) ? 0 : u;
    }
}

uint64_t report_tier_pfc_segment(const struct scenario *sc, int pc, uint32_t s)
{
    const struct net *n = &sc->net;
    uint32_t segs = sc->pfc_segments;
    uint32_t a = (uint32_t)((uint64_t)s * (sc->n_samples - 1) / segs);
    uint32_t b = (uint32_t)((uint64_t)(s + 1) * (sc->n_samples - 1) / segs);
    uint64_t tot = 0;
    for (uint32_t m = 0; m < sc->n_mon && sc->n_samples > 1; m++)
        if ((int)metrics_port_class(n, sc->mon[m].port) == pc)
            tot += sc->s_pfc[(size_t)b * sc->n_mon + m] - sc->s_pfc[(size_t)a * sc->n_mon + m];
    return tot;
}

static int write_file(const char *dir, const char *name, const struct scenario *sc, const struct run_info *ri,
                      report_writer_fn *fn, char *why, size_t why_len)
{
    char tmp[4200], dst[4200];
    snprintf(tmp, sizeof tmp, "%s/.%s.tmp", dir, name);
    snprintf(dst, sizeof dst, "%s/%s", dir, name);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(why, why_len, "%s: cannot write: %s", tmp, strerror(errno));
        return -1;
    }
    fn(f, sc, ri);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, dst)) {
        snprintf(why, why_len, "%s: write failed: %s", dst, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

static void w_lflows(FILE *f, const struct scenario *sc, const struct run_info *ri) { (void)ri; lf_write_tsv(f, sc); }

static void w_oq(FILE *f, const struct scenario *sc, const struct run_info *ri) { (void)ri; oqsel_write_csv(f, sc); }
static void w_lscc(FILE *f, const struct scenario *sc, const struct run_info *ri) { (void)ri; lsccsel_write_csv(f, sc); }

static int mkdir_p(const char *dir)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0777) && errno != EEXIST)
                return -1;
            *p = '/';
        }
    }
    return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

/* An optional output this run does not write: remove an earlier run's copy. */
static int remove_stale(const char *dir, const char *name, char *why, size_t why_len)
{
    char stale[4200];
    snprintf(stale, sizeof stale, "%.4000s/%s", dir, name);
    if (remove(stale) && errno != ENOENT) {
        snprintf(why, why_len, "%s: cannot remove stale file: %s", stale, strerror(errno));
        return -1;
    }
    return 0;
}

int report_check_dir(const char *dir, char *why, size_t why_len)
{
    if (mkdir_p(dir)) {
        snprintf(why, why_len, "%s: cannot create directory: %s", dir, strerror(errno));
        return -1;
    }
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/.roccsim-probe.tmp", dir);
    FILE *f = fopen(probe, "w");
    if (!f) {
        snprintf(why, why_len, "%s: cannot write there: %s", dir, strerror(errno));
        return -1;
    }
    fclose(f);
    remove(probe);
    return 0;
}


int report_write(const struct scenario *sc, const struct run_info *ri, const char *dir, char *why, size_t why_len)
{
    if (mkdir_p(dir)) {
        snprintf(why, why_len, "%s: cannot create directory: %s", dir, strerror(errno));
        return -1;
    }
    if (write_file(dir, "summary.json", sc, ri, report_summary_json, why, why_len) ||
        write_file(dir, "summary.tsv", sc, ri, report_summary_tsv, why, why_len) ||
        write_file(dir, "fct.tsv", sc, ri, report_fct_tsv, why, why_len) ||
        write_file(dir, "tiers.tsv", sc, ri, report_tiers_tsv, why, why_len) ||
        write_file(dir, "queue_cdf.tsv", sc, ri, report_queue_cdf_tsv, why, why_len) ||
        write_file(dir, "flows.csv", sc, ri, report_flows_csv, why, why_len) ||
        write_file(dir, "queue.csv", sc, ri, report_queue_csv, why, why_len) ||
        write_file(dir, "fair_rate.csv", sc, ri, report_fair_rate_csv, why, why_len) ||
        write_file(dir, "link_flows.tsv", sc, ri, w_lflows, why, why_len))
        return -1;
    if (sc->hpcc_fct ? write_file(dir, "fct.txt", sc, ri, report_hpcc_fct, why, why_len) : remove_stale(dir, "fct.txt", why, why_len))
        return -1;
    if (sc->hpcc_flows ? report_hpcc_flows(sc, dir, why, why_len) : remove_stale(dir, "flows.txt", why, why_len))
        return -1;
    if (oqsel_has(sc) ? write_file(dir, "openqueue.csv", sc, ri, w_oq, why, why_len)
                      : remove_stale(dir, "openqueue.csv", why, why_len))
        return -1;
    if (lsccsel_has(sc) ? write_file(dir, "lscc.csv", sc, ri, w_lscc, why, why_len)
                        : remove_stale(dir, "lscc.csv", why, why_len))
        return -1;
    if (sc->rocc_trace ? write_file(dir, "rocc_trace.csv", sc, ri, report_rocc_trace_csv, why, why_len)
                       : remove_stale(dir, "rocc_trace.csv", why, why_len))
        return -1;
    if (sc->flow_series)
        return write_file(dir, "flow_rate.csv", sc, ri, report_flow_rate_csv, why, why_len);
    /* Not sampled this time: a flow_rate.csv left by an earlier run in this
     * directory would describe other flows. */
    return remove_stale(dir, "flow_rate.csv", why, why_len);
}

void report_print(const struct scenario *sc, const struct run_info *ri, FILE *out)
{
    const struct net *n = &sc->net;
    char b1[48], b2[48], b3[48], b4[48];
    simtime_t t0 = sc->measure_start, t1 = sc->measure_end;
    fprintf(out, "roccsim %s: %s\n", ROCCSIM_VERSION, ri->scenario_path);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    fprintf(out, "  simulated %s in %.2f s wall: %llu events, %llu packet-hops (%.2f M hops/s, %.2f events/hop), "
                 "peak RSS %.1f MB, set-up %.2f s%s\n",
            units_fmt_time(sc->duration, b1, sizeof b1), ri->wall_s, (unsigned long long)n->el.n_fired,
            (unsigned long long)n->hops, ri->wall_s > 0 ? (double)n->hops / ri->wall_s / 1e6 : 0,
            n->hops ? (double)n->el.n_fired / (double)n->hops : 0, (double)ru.ru_maxrss / 1024.0, ri->setup_s,
            n->prefetch ? ", look-ahead on" : "");
    fprintf(out, "\nflow groups (receive rate over %s..%s):\n", units_fmt_time(t0, b1, sizeof b1),
            units_fmt_time(t1, b2, sizeof b2));
    fprintf(out, "  %-16s %6s %12s %12s %12s %8s\n", "group", "flows", "mean", "min", "max", "jain");
    for (uint32_t g = 0; g < sc->n_groups; g++) {
        const struct group *gr = &sc->groups[g];
        struct grstats st;
        report_group_rates(sc, gr, t0, t1, &st);
        if (!(st.max > 0)) {            /* nothing received in the window: no fairness to speak of */
            fprintf(out, "  %-16s %6u %12s %12s %12s %8s   (idle in the window)\n", gr->name, gr->count, "-", "-", "-",
                    "-");
            continue;
        }
        fprintf(out, "  %-16s %6u %12s %12s %12s %8.4f\n", gr->name, gr->count, units_fmt_rate(st.mean, b1, sizeof b1),
                units_fmt_rate(st.min, b2, sizeof b2), units_fmt_rate(st.max, b3, sizeof b3), st.jain);
    }
    fprintf(out, "\nswitch ports that carried data (measurement window):\n  %-14s %10s %10s %10s %7s %12s %9s %7s\n", "port", "q mean",
            "q p99", "q max", "util", "fair rate", "XOFF rcvd", "drops");
    /* At most 20 rows: the busiest ports by utilization (ties in port
     * order), in port order; summary.json and summary.tsv have them all. */
    uint32_t shown = 0, carried = 0;
    struct busy { double u; uint32_t m; } *bz = malloc((sc->n_mon ? sc->n_mon : 1) * sizeof *bz);
    for (uint32_t m = 0; bz && m < sc->n_mon; m++)
        if (report_carried_data(sc, m)) {
            double u = metrics_util(sc, m, t0, t1);
            bz[carried].u = isnan(u) ? -1 : u;
            bz[carried++].m = m;
        }
    uint8_t *pick = calloc(sc->n_mon ? sc->n_mon : 1, 1);
    if (bz && pick) {
        qsort(bz, carried, sizeof *bz, cmp_busy);
        for (uint32_t k = 0; k < carried && k < 20; k++)
            pick[bz[k].m] = 1;
    }
    for (uint32_t m = 0; m < sc->n_mon; m++) {
        const struct port *pt = &n->ports[sc->mon[m].port];
        if (!pick || !pick[m])
            continue;
        shown++;
        struct qstats q;
        double fm, flo, fhi;
        metrics_queue(sc, m, t0, t1, &q);
        metrics_fair(sc, m, t0, t1, &fm, &flo, &fhi);
        fprintf(out, "  %-14s %10s %10s %10s %6.1f%% %12s %9llu %7llu\n", sc->mon[m].name,
                units_fmt_bytes(q.mean, b1, sizeof b1), units_fmt_bytes(q.p99, b2, sizeof b2),
                units_fmt_bytes(q.max, b3, sizeof b3), 100 * metrics_util(sc, m, t0, t1),
                isnan(fm) ? "-" : units_fmt_rate(fm, b4, sizeof b4), (unsigned long long)pt->st.pfc_rcvd,
                (unsigned long long)pt->st.drops);
    }
    if (carried > shown)
        fprintf(out, "  (%u busiest of %u ports; all in summary.json)\n", shown, carried);
    /* XOFF rcvd: pause frames that stopped this port.  The frames are sent
     * by the ports facing the other way, which often carry no data and so
     * have no row: their total is said here (per port: summary.json). */
    uint64_t xoff = 0;
    for (uint32_t p = 0; p < n->n_ports; p++)
        xoff += n->ports[p].st.pfc_sent;
    fprintf(out, "  PFC: %llu XOFF frames sent in the whole run (all ports, hosts included)\n", (unsigned long long)xoff);
    const struct rocc_hostcp_stats *hs = &n->rocc_host;
    if (hs->n_full + hs->n_reg + hs->n_miss + hs->n_bad)   /* [rocc] rate_at = host_* only */
        fprintf(out, "  RoCC rates computed at hosts (§3.6): %llu from HOST_FULL CNPs, %llu from HOST_REG CNPs, "
                     "%llu refused (%llu not in the registry)\n",
                (unsigned long long)hs->n_full, (unsigned long long)hs->n_reg,
                (unsigned long long)(hs->n_miss + hs->n_bad), (unsigned long long)hs->n_miss);
    fcsel_print(sc, out);
    oqsel_print(sc, out);
    lsccsel_print(sc, out);
    xbarsel_print(sc, out);
    pcapout_print(sc, out);
    free(bz);
    free(pick);
    uint64_t created = 0, consumed = 0, dropped = 0;
    for (int t = 0; t < PKT_NTYPES; t++) {
        created += n->created[t];
        consumed += n->consumed[t];
        dropped += n->dropped[t];
    }

    fprintf(out, "\npackets: %llu created, %llu delivered, %llu dropped, %u in flight at the end; conservation %s\n",
            (unsigned long long)created, (unsigned long long)consumed, (unsigned long long)dropped, n->pool.live,
            ri->conservation);
    if (n->qlimit_drops)
        fprintf(out, "  of the drops, %llu by design: credits beyond a credit queue (ExpressPass, qlimit_drops)\n",
                (unsigned long long)n->qlimit_drops);
    fcsel_loopbreak_print(out, n);
    if (ri->n_results) {
        fprintf(out, "\nexpectations:\n");
        for (size_t i = 0; i < ri->n_results; i++) {
            const struct expect_result *r = &ri->results[i];
            fprintf(out, "  %s  %-40s = %-22s measured %s\n", r->pass ? "PASS" : "FAIL", r->check, r->target,
                    r->measured);
        }
    }
}
