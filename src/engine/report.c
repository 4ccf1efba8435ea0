/* report.c -- run outputs; see report.h and docs/outputs.md. */
#include "engine/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "core/units.h"
#include "engine/attack.h"
#include "engine/fcsel_escape.h"
#include "engine/ccsel.h"
#include "engine/fcsel.h"
#include "engine/xbarsel.h"
#include "engine/fct.h"
#include "engine/fcsel_loopbreak.h"
#include "engine/linkflows.h"
#include "engine/workload.h"
#include "engine/metrics.h"
#include "net/agent_rocc.h"

#define ROCCSIM_VERSION "0.1.0"

static const char *type_names[PKT_NTYPES] = { "data", "ack", "nack", "cnp", "pfc", "fctl" };

/* Utilization descending, then port order (stable and deterministic). */
static int cmp_busy(const void *a, const void *b)
{
    const struct { double u; uint32_t m; } *x = a, *y = b;
    if (x->u != y->u)
        return x->u < y->u ? 1 : -1;
    return x->m < y->m ? -1 : (x->m > y->m);
}

/* JSON number: NaN/inf become null. */
static void jnum(FILE *f, double v)
{
    if (isnan(v) || isinf(v))
        fputs("null", f);
    else if (v == floor(v) && fabs(v) < 9e15)
        fprintf(f, "%.0f", v);
    else
        fprintf(f, "%.9g", v);
}

static void jstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static void flow_name(const struct scenario *sc, uint32_t f, char *buf, size_t len)
{
    const struct group *g = &sc->groups[sc->net.flows[f].group];
    if (g->count == 1)
        snprintf(buf, len, "%s", g->name);
    else
        snprintf(buf, len, "%s[%u]", g->name, f - g->first);
}

static const char *host_name(const struct scenario *sc, uint32_t h)
{
    return sc->net.nodes[sc->net.hosts[h].node].name;
}

static double port_paused_s(const struct port *pt)
{
    uint64_t ps = 0;
    for (int c = 0; c < NCLASS; c++)
        ps += pt->st.paused_ps[c];
    return (double)ps / PS_PER_S;
}

/* Receive-rate statistics of one flow group over [t0, t1]. */
struct grstats { double mean, min, max, jain; };

static void group_rates(const struct scenario *sc, const struct group *gr, simtime_t t0, simtime_t t1,
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

static void write_summary(FILE *f, const struct scenario *sc, const struct run_info *ri)
{
    const struct net *n = &sc->net;
    simtime_t t0 = sc->measure_start, t1 = sc->measure_end;
    uint64_t created = 0, consumed = 0, dropped = 0;
    for (int t = 0; t < PKT_NTYPES; t++) {
        created += n->created[t];
        consumed += n->consumed[t];
        dropped += n->dropped[t];
    }
    fprintf(f, "{\n  \"roccsim_version\": \"%s\",\n  \"scenario\": ", ROCCSIM_VERSION);
    jstr(f, ri->scenario_path);
    fprintf(f, ",\n  \"seed\": %llu,\n  \"duration_s\": ", (unsigned long long)sc->seed);
    jnum(f, (double)sc->duration / PS_PER_S);
    fprintf(f, ",\n  \"measure\": {\"start_s\": ");
    jnum(f, (double)t0 / PS_PER_S);
    fprintf(f, ", \"end_s\": ");
    jnum(f, (double)t1 / PS_PER_S);
    fprintf(f, "},\n  \"sample_interval_s\": ");
    jnum(f, (double)sc->sample_interval / PS_PER_S);
    fprintf(f, ",\n  \"events\": %llu,\n  \"hops\": %llu,\n", (unsigned long long)n->el.n_fired,
            (unsigned long long)n->hops);
    static const char *const ev_names[EV_NKINDS] = { "", "tx_done", "wire", "host_wake", "nic_delay", "flow_timer",
                                                     "flow_start", "flow_stop", "agent", "hook", "fctl_timer",
                                                     "fctl_gate" };
    fprintf(f, "  \"events_by_kind\": {");
    /* Kinds after "hook" (flow-control schemes) only when they fired. */
    for (int k = 1; k < EV_NKINDS; k++)
        if (k <= EV_HOOK || n->ev_count[k])
            fprintf(f, "%s\"%s\": %llu", k > 1 ? ", " : "", ev_names[k], (unsigned long long)n->ev_count[k]);
    fprintf(f, "},\n");
    fprintf(f, "  \"packets\": {\"created\": %llu, \"consumed\": %llu, \"dropped\": %llu, \"in_flight\": %u, \"by_type\": {",
            (unsigned long long)created, (unsigned long long)consumed, (unsigned long long)dropped, n->pool.live);
    for (int t = 0; t < PKT_NTYPES; t++)
        if (t < PKT_FCTL || n->created[t] || n->dropped[t])   /* scheme frames only when there were any */
            fprintf(f, "%s\"%s\": {\"created\": %llu, \"consumed\": %llu, \"dropped\": %llu}", t ? ", " : "",
                type_names[t], (unsigned long long)n->created[t], (unsigned long long)n->consumed[t],
                (unsigned long long)n->dropped[t]);
    fprintf(f, "}, \"failure_drops\": %llu, \"cnp_filtered_switch\": %llu, \"cnp_filtered_host\": %llu",
            (unsigned long long)n->failure_drops, (unsigned long long)n->cnp_filtered_sw,
            (unsigned long long)n->cnp_filtered_host);
    if (n->fc_drops)
        fprintf(f, ", \"fc_drops\": %llu", (unsigned long long)n->fc_drops);
    if (n->created[PKT_FCTL] || n->fctl_bad)
        fprintf(f, ", \"fctl_refused\": %llu", (unsigned long long)n->fctl_bad);
    fprintf(f, "},\n");
    fcsel_escape_summary(f, n);        /* "escape": {...} in Escape runs */
    fcsel_loopbreak_json(f, n);
    fprintf(f, "  \"attacks\": [");
    for (uint32_t i = 0; i < sc->n_attacks; i++)
        fprintf(f, "%s{\"name\": \"%s\", \"sent\": %llu}", i ? ", " : "", sc->attacks[i].name,
                (unsigned long long)sc->attacks[i].sent);
    fprintf(f, "],\n  \"conservation\": ");
    jstr(f, ri->conservation);
    fcsel_json(sc, f);
    xbarsel_json(sc, f);              /* "crossbar": {...} with [crossbar] */                /* in-order check, deadlock detector: when enabled/relevant */
    fprintf(f, ",\n  \"groups\": [");
    for (uint32_t g = 0; g < sc->n_groups; g++) {
        const struct group *gr = &sc->groups[g];
        struct grstats st;
        group_rates(sc, gr, t0, t1, &st);
        fprintf(f, "%s\n    {\"name\": ", g ? "," : "");
        jstr(f, gr->name);
        fprintf(f, ", \"cc\": \"%s\", \"incast\": %s, \"flows\": %u, \"rate_mean_bps\": ", cc_algo_names[gr->algo],
                gr->incast ? "true" : "false", gr->count);
        jnum(f, st.mean);
        fprintf(f, ", \"rate_min_bps\": ");
        jnum(f, st.min);
        fprintf(f, ", \"rate_max_bps\": ");
        jnum(f, st.max);
        fprintf(f, ", \"jain\": ");
        jnum(f, st.jain);
        fputc('}', f);
    }
    fprintf(f, "\n  ],\n  \"ports\": [");
    for (uint32_t m = 0; m < sc->n_mon; m++) {
        const struct monitor *mo = &sc->mon[m];
        const struct port *pt = &n->ports[mo->port];
        struct qstats q;
        metrics_queue(sc, m, t0, t1, &q);
        fprintf(f, "%s\n    {\"name\": ", m ? "," : "");
        jstr(f, mo->name);
        fprintf(f, ", \"rate_bps\": %llu, \"queue_mean_bytes\": ", (unsigned long long)pt->rate_bps);
        jnum(f, q.mean);
        fprintf(f, ", \"queue_p99_bytes\": ");
        jnum(f, q.p99);
        fprintf(f, ", \"queue_max_bytes\": ");
        jnum(f, q.max);
        fprintf(f, ", \"queue_max_run_bytes\": %llu, \"utilization\": ", (unsigned long long)pt->st.max_queue_bytes);
        jnum(f, metrics_util(sc, m, t0, t1));
        fprintf(f, ", \"tx_packets\": %llu, \"tx_bytes\": %llu, \"drops\": %llu, \"pfc_xoff_sent\": %llu, "
                   "\"pfc_xoff_received\": %llu, \"paused_s\": ",
                (unsigned long long)pt->st.tx_pkts, (unsigned long long)pt->st.tx_bytes,
                (unsigned long long)pt->st.drops, (unsigned long long)pt->st.pfc_sent,
                (unsigned long long)pt->st.pfc_rcvd);
        jnum(f, port_paused_s(pt));
        fprintf(f, ", \"cp\": ");
        if (mo->agent == NONE32) {
            fputs("null}", f);
            continue;
        }
        const struct rocc_agent *a = n->agents[mo->agent].state;
        double mean, lo, hi;
        metrics_fair(sc, m, t0, t1, &mean, &lo, &hi);
        fprintf(f, "{\"fair_rate_mean_bps\": ");
        jnum(f, mean);
        fprintf(f, ", \"fair_rate_min_bps\": ");
        jnum(f, lo);
        fprintf(f, ", \"fair_rate_max_bps\": ");
        jnum(f, hi);
        fprintf(f, ", \"cnps_sent\": %llu, \"updates\": %llu, \"md_fmin\": %llu, \"md_half\": %llu, \"pi\": %llu}}",
                (unsigned long long)a->cnps_sent, (unsigned long long)a->cp.n_updates,
                (unsigned long long)a->cp.n_md_fmin, (unsigned long long)a->cp.n_md_half,
                (unsigned long long)a->cp.n_pi);
    }
    /* Per tier of CP: ports, PFC, paused time, queues, utilization, and PFC
     * pauses received per time segment (RoCC Fig. 17b uses 50 segments). */
    fprintf(f, "\n  ],\n  \"tiers\": [");
    int tfirst = 1;
    for (int pc = 0; pc < PC_N; pc++) {
        uint32_t cnt = 0;
        uint64_t xs = 0, xr = 0;
        double paused = 0, qsum = 0, usum = 0, qmax = 0;
        for (uint32_t m = 0; m < sc->n_mon; m++) {
            if ((int)metrics_port_class(n, sc->mon[m].port) != pc)
                continue;
            const struct port *pt = &n->ports[sc->mon[m].port];
            struct qstats q;
            metrics_queue(sc, m, t0, t1, &q);
            cnt++;
            xs += pt->st.pfc_sent;
            xr += pt->st.pfc_rcvd;
            paused += port_paused_s(pt);
            qsum += isnan(q.mean) ? 0 : q.mean;
            qmax = q.max > qmax ? q.max : qmax;
            double u = metrics_util(sc, m, t0, t1);
            usum += isnan(u) ? 0 : u;
        }
        if (!cnt)
            continue;
        fprintf(f, "%s\n    {\"tier\": \"%s\", \"ports\": %u, \"pfc_xoff_sent\": %llu, \"pfc_xoff_received\": %llu, "
                   "\"paused_s\": ", tfirst ? "" : ",", port_class_names[pc], cnt, (unsigned long long)xs,
                (unsigned long long)xr);
        jnum(f, paused);
        fprintf(f, ", \"queue_mean_bytes\": ");
        jnum(f, qsum / cnt);
        fprintf(f, ", \"queue_max_bytes\": ");
        jnum(f, qmax);
        fprintf(f, ", \"utilization_mean\": ");
        jnum(f, usum / cnt);
        fprintf(f, ", \"pfc_received_per_segment\": [");
        uint32_t segs = sc->pfc_segments;
        for (uint32_t s = 0; s < segs; s++) {
            uint64_t tot = 0;
            uint32_t a = (uint32_t)((uint64_t)s * (sc->n_samples - 1) / segs);
            uint32_t b = (uint32_t)((uint64_t)(s + 1) * (sc->n_samples - 1) / segs);
            for (uint32_t m = 0; m < sc->n_mon && sc->n_samples > 1; m++)
                if ((int)metrics_port_class(n, sc->mon[m].port) == pc)
                    tot += sc->s_pfc[(size_t)b * sc->n_mon + m] - sc->s_pfc[(size_t)a * sc->n_mon + m];
            fprintf(f, "%s%llu", s ? ", " : "", (unsigned long long)tot);
        }
        fprintf(f, "]}");
        tfirst = 0;
    }
    fprintf(f, "\n  ],\n  \"fct\": {\"start_s\": ");
    jnum(f, (double)sc->fct_start / PS_PER_S);
    fprintf(f, ", \"end_s\": ");
    jnum(f, (double)sc->fct_end / PS_PER_S);
    {
        double mean, sd;
        uint64_t k = fct_flow_rates(sc, sc->fct_start, sc->fct_end, &mean, &sd);
        uint64_t started = 0;
        for (uint32_t i = 0; i < n->n_flows; i++) {
            const struct flow *fl = &n->flows[i];
            started += fl->start_ps >= sc->fct_start && fl->start_ps <= sc->fct_end &&
                       !((fl->flags & FL_ENDLESS) && !(fl->flags & FL_STOPPED));
        }
        fprintf(f, ", \"flows_started\": %llu, \"flows_unfinished\": %llu", (unsigned long long)started,
                (unsigned long long)(started - (k < started ? k : started)));
        fprintf(f, ", \"flows_finished\": %llu, \"flow_rate_mean_bps\": ", (unsigned long long)k);
        jnum(f, mean);
        fprintf(f, ", \"flow_rate_std_bps\": ");
        jnum(f, sd);
        fprintf(f, ", \"flow_rate_sampled_n\": %llu, \"flow_rate_sampled_mean_bps\": ", (unsigned long long)sc->rs_n);
        jnum(f, sc->rs_n ? sc->rs_mean : NAN);
        fprintf(f, ", \"flow_rate_sampled_std_bps\": ");
        jnum(f, sc->rs_n > 1 ? sqrt(sc->rs_m2 / (double)(sc->rs_n - 1)) : NAN);
    }
    fprintf(f, ", \"slowdown_below_1\": %llu, \"bins\": [", (unsigned long long)fct_count_below_one(sc));
    int first = 1;
    for (int kind = -1; kind <= 1; kind++) {
        uint64_t lo = 0;
        for (uint32_t b = 0; b <= sc->n_fct_bins; b++) {
            uint64_t hi = b < sc->n_fct_bins ? sc->fct_bins[b] : UINT64_MAX;
            struct fct_stats st;
            fct_bin_stats(sc, kind, lo, hi, sc->fct_start, sc->fct_end, &st);
            if (st.count || st.unfinished || st.w_count || st.w_unfinished) {
                fprintf(f, "%s\n    {\"traffic\": \"%s\", \"size_gt\": %llu, \"size_le\": ", first ? "" : ",",
                        kind < 0 ? "all" : kind ? "incast" : "background", (unsigned long long)lo);
                jnum(f, hi == UINT64_MAX ? NAN : (double)hi);
                fprintf(f, ", \"flows\": %llu, \"unfinished\": %llu, \"not_started\": %llu, \"fct_avg_s\": ",
                        (unsigned long long)st.count, (unsigned long long)st.unfinished,
                        (unsigned long long)st.not_started);
                jnum(f, st.avg);
                fprintf(f, ", \"fct_p50_s\": "); jnum(f, st.p50);
                fprintf(f, ", \"fct_p90_s\": "); jnum(f, st.p90);
                fprintf(f, ", \"fct_p99_s\": "); jnum(f, st.p99);
                fprintf(f, ", \"fct_p999_s\": "); jnum(f, st.p999);
                fprintf(f, ", \"slowdown_avg\": "); jnum(f, st.s_avg);
                fprintf(f, ", \"slowdown_p50\": "); jnum(f, st.s_p50);
                fprintf(f, ", \"slowdown_p90\": "); jnum(f, st.s_p90);
                fprintf(f, ", \"slowdown_p99\": "); jnum(f, st.s_p99);
                fprintf(f, ", \"slowdown_p999\": "); jnum(f, st.s_p999);
                fprintf(f, ", \"wire_flows\": %llu, \"wire_unfinished\": %llu", (unsigned long long)st.w_count,
                        (unsigned long long)st.w_unfinished);
                fprintf(f, ", \"wire_fct_avg_s\": "); jnum(f, st.w_avg);
                fprintf(f, ", \"wire_fct_p50_s\": "); jnum(f, st.w_p50);
                fprintf(f, ", \"wire_fct_p90_s\": "); jnum(f, st.w_p90);
                fprintf(f, ", \"wire_fct_p99_s\": "); jnum(f, st.w_p99);
                fprintf(f, ", \"wire_fct_p999_s\": "); jnum(f, st.w_p999);
                fprintf(f, ", \"wire_slowdown_avg\": "); jnum(f, st.ws_avg);
                fprintf(f, ", \"wire_slowdown_p99\": "); jnum(f, st.ws_p99);
                fputc('}', f);
                first = 0;
            }
            lo = hi;
        }
    }
    fprintf(f, "\n  ]},\n  \"concurrency\": ");
    lf_summary_json(f, sc);
    fprintf(f, ",\n  \"expectations\": [");
    for (size_t i = 0; i < ri->n_results; i++) {
        const struct expect_result *r = &ri->results[i];
        fprintf(f, "%s\n    {\"check\": ", i ? "," : "");
        jstr(f, r->check);
        fprintf(f, ", \"target\": ");
        jstr(f, r->target);
        fprintf(f, ", \"measured\": ");
        jstr(f, r->measured);
        fprintf(f, ", \"pass\": %s}", r->pass ? "true" : "false");
    }
    fprintf(f, "\n  ],\n  \"flows\": [");
    for (uint32_t i = 0; i < n->n_flows; i++) {
        const struct flow *fl = &n->flows[i];
        char name[64];
        flow_name(sc, i, name, sizeof name);
        fprintf(f, "%s\n    {\"id\": %u, \"name\": ", i ? "," : "", i);
        jstr(f, name);
        fprintf(f, ", \"src\": ");
        jstr(f, host_name(sc, fl->src));
        fprintf(f, ", \"dst\": ");
        jstr(f, host_name(sc, fl->dst));
        fprintf(f, ", \"size_bytes\": ");
        jnum(f, (fl->flags & FL_ENDLESS) && !(fl->flags & FL_STOPPED) ? NAN : (double)fl->size);
        fprintf(f, ", \"start_s\": ");
        jnum(f, (double)fl->start_ps / PS_PER_S);
        fprintf(f, ", \"fct_s\": ");
        jnum(f, fl->finish_ps == SIMTIME_NEVER ? NAN : (double)(fl->finish_ps - fl->start_ps) / PS_PER_S);
        fprintf(f, ", \"delivered_bytes\": %llu, \"rate_bps\": ", (unsigned long long)fl->rcv_nxt);
        jnum(f, metrics_flow_rate(sc, i, t0, t1));
        fprintf(f, ", \"retx_bytes\": %llu, \"timeouts\": %llu", (unsigned long long)fl->retx_bytes,
                (unsigned long long)fl->timeouts);
        if (sc->fc_section && fl->out_of_order)   /* docs/escape.md "In-order check" */
            fprintf(f, ", \"out_of_order\": %llu", (unsigned long long)fl->out_of_order);
        fputc('}', f);
    }
    fprintf(f, "\n  ]\n}\n");
}

static void write_flows_csv(FILE *f, const struct scenario *sc)
{
    const struct net *n = &sc->net;
    fprintf(f, "id,name,group,src,dst,size_bytes,start_s,fct_s,ideal_fct_s,slowdown,delivered_bytes,rate_gbps,"
               "retx_bytes,timeouts,qp,first_tx_s,wire_fct_s\n");
    for (uint32_t i = 0; i < n->n_flows; i++) {
        const struct flow *fl = &n->flows[i];
        char name[64];
        flow_name(sc, i, name, sizeof name);
        fprintf(f, "%u,%s,%s,%s,%s,", i, name, sc->groups[fl->group].name, host_name(sc, fl->src),
                host_name(sc, fl->dst));
        if ((fl->flags & FL_ENDLESS) && !(fl->flags & FL_STOPPED))
            fputs("inf,", f);
        else
            fprintf(f, "%llu,", (unsigned long long)fl->size);
        fprintf(f, "%.9f,", (double)fl->start_ps / PS_PER_S);
        simtime_t ideal = fct_ideal(n, fl);
        if (fl->finish_ps == SIMTIME_NEVER)
            fputs(",", f);
        else
            fprintf(f, "%.9f,", (double)(fl->finish_ps - fl->start_ps) / PS_PER_S);
        if (ideal)
            fprintf(f, "%.9f,", (double)ideal / PS_PER_S);
        else
            fputs(",", f);
        if (ideal && fl->finish_ps != SIMTIME_NEVER)
            fprintf(f, "%.6f,", (double)(fl->finish_ps - fl->start_ps) / (double)ideal);
        else
            fputs(",", f);
        double r = metrics_flow_rate(sc, i, sc->measure_start, sc->measure_end);
        fprintf(f, "%llu,", (unsigned long long)fl->rcv_nxt);
        if (isnan(r))
            fputs(",", f);
        else
            fprintf(f, "%.6f,", r / 1e9);
        fprintf(f, "%llu,%llu,", (unsigned long long)fl->retx_bytes, (unsigned long long)fl->timeouts);
        if (fl->qp)
            fprintf(f, "%u,", fl->qp - 1);
        else
            fputs(",", f);
        if (fl->first_tx_ps != SIMTIME_NEVER)
            fprintf(f, "%.9f,", (double)fl->first_tx_ps / PS_PER_S);
        else
            fputs(",", f);
        if (fl->finish_ps != SIMTIME_NEVER && fl->first_tx_ps != SIMTIME_NEVER)
            fprintf(f, "%.9f\n", (double)(fl->finish_ps - fl->first_tx_ps) / PS_PER_S);
        else
            fputs("\n", f);
    }
}

/* Time series list the switch ports that carried data: the others' queues
 * are empty and their CPs stay at Fmax (summary.json still has them all). */
static int carried_data(const struct scenario *sc, uint32_t m)
{
    return sc->net.ports[sc->mon[m].port].st.tx_data_bytes > 0;
}

static void write_queue_csv(FILE *f, const struct scenario *sc)
{
    fprintf(f, "time_s");
    for (uint32_t m = 0; m < sc->n_mon; m++)
        if (carried_data(sc, m))
            fprintf(f, ",%s", sc->mon[m].name);
    fputc('\n', f);
    for (uint32_t k = 0; k < sc->n_samples; k++) {
        fprintf(f, "%.9f", (double)((uint64_t)k * sc->sample_interval) / PS_PER_S);
        for (uint32_t m = 0; m < sc->n_mon; m++)
            if (carried_data(sc, m))
                fprintf(f, ",%llu", (unsigned long long)sc->s_queue[(size_t)k * sc->n_mon + m]);
        fputc('\n', f);
    }
}

static void write_fair_csv(FILE *f, const struct scenario *sc)
{
    const struct net *n = &sc->net;
    fprintf(f, "time_s");
    for (uint32_t m = 0; m < sc->n_mon; m++)
        if (sc->mon[m].agent != NONE32 && carried_data(sc, m))
            fprintf(f, ",%s", sc->mon[m].name);
    fputc('\n', f);
    for (uint32_t k = 0; k < sc->n_samples; k++) {
        fprintf(f, "%.9f", (double)((uint64_t)k * sc->sample_interval) / PS_PER_S);
        for (uint32_t m = 0; m < sc->n_mon; m++) {
            if (sc->mon[m].agent == NONE32 || !carried_data(sc, m))
                continue;
            const struct rocc_agent *a = n->agents[sc->mon[m].agent].state;
            fprintf(f, ",%.3f", (double)sc->s_fair[(size_t)k * sc->n_mon + m] * a->prm.f_unit_mbps / 1000.0);
        }
        fputc('\n', f);
    }
}

static void write_flow_rate_csv(FILE *f, const struct scenario *sc)
{
    uint32_t nf = sc->net.n_flows;
    fprintf(f, "time_s");
    for (uint32_t i = 0; i < nf; i++) {
        char name[64];
        flow_name(sc, i, name, sizeof name);
        fprintf(f, ",%s", name);
    }
    fputc('\n', f);
    double secs = (double)sc->sample_interval / PS_PER_S;
    for (uint32_t k = 1; k < sc->n_samples; k++) {
        fprintf(f, "%.9f", (double)((uint64_t)k * sc->sample_interval) / PS_PER_S);
        for (uint32_t i = 0; i < nf; i++) {
            uint64_t d = sc->s_flow_bytes[(size_t)k * nf + i] - sc->s_flow_bytes[(size_t)(k - 1) * nf + i];
            fprintf(f, ",%.4f", (double)d * 8 / secs / 1e9);
        }
        fputc('\n', f);
    }
}

/* summary.tsv: the headline numbers as KEY<TAB>VALUE lines for shell tools
 * (grep, awk, join); summary.json holds everything. */
/* Shell tools get "nan" for any missing number (no inf, no -inf). */
static double tsv_num(double v) { return isfinite(v) ? v : NAN; }

static void write_summary_tsv(FILE *f, const struct scenario *sc, const struct run_info *ri)
{
    const struct net *n = &sc->net;
    simtime_t t0 = sc->measure_start, t1 = sc->measure_end;
    fprintf(f, "scenario\t%s\nseed\t%llu\nmeasure_start_s\t%.9g\nmeasure_end_s\t%.9g\n", ri->scenario_path,
            (unsigned long long)sc->seed, (double)t0 / PS_PER_S, (double)t1 / PS_PER_S);
    uint64_t drops = 0, pauses = 0;
    for (uint32_t p = 0; p < n->n_ports; p++) {
        drops += n->ports[p].st.drops;
        pauses += n->ports[p].st.pfc_sent;
    }
    fprintf(f, "drops\t%llu\nfailure_drops\t%llu\npfc_pauses\t%llu\n", (unsigned long long)drops,
            (unsigned long long)n->failure_drops, (unsigned long long)pauses);
    fcsel_loopbreak_tsv(f, n);
    for (uint32_t g = 0; g < sc->n_groups; g++) {
        const struct group *gr = &sc->groups[g];
        struct grstats st;
        group_rates(sc, gr, t0, t1, &st);
        fprintf(f, "group.%s.cc\t%s\n", gr->name, cc_algo_names[gr->algo]);
        fprintf(f, "group.%s.flows\t%u\ngroup.%s.rate_mean_bps\t%.6g\ngroup.%s.rate_min_bps\t%.6g\n"
                   "group.%s.rate_max_bps\t%.6g\ngroup.%s.jain\t%.6f\n",
                gr->name, gr->count, gr->name, tsv_num(st.mean), gr->name, tsv_num(st.min), gr->name,
                tsv_num(st.max), gr->name, tsv_num(st.jain));
    }
    /* FCT statistics by traffic kind and size bin (as fct.tsv), flow rates. */
    for (int kind = -1; kind <= 1; kind++) {
        const char *kn = kind < 0 ? "all" : kind ? "incast" : "background";
        uint64_t lo = 0;
        for (uint32_t b = 0; b <= sc->n_fct_bins; b++) {
            uint64_t hi = b < sc->n_fct_bins ? sc->fct_bins[b] : UINT64_MAX;
            struct fct_stats st;
            fct_bin_stats(sc, kind, lo, hi, sc->fct_start, sc->fct_end, &st);
            if (st.count || st.unfinished || st.w_count || st.w_unfinished) {
                char bin[48];
                if (hi == UINT64_MAX)
                    snprintf(bin, sizeof bin, "gt%llu", (unsigned long long)lo);
                else
                    snprintf(bin, sizeof bin, "le%llu", (unsigned long long)hi);
                fprintf(f, "fct.%s.%s.flows\t%llu\nfct.%s.%s.fct_avg_s\t%.9g\nfct.%s.%s.fct_p99_s\t%.9g\n"
                           "fct.%s.%s.slowdown_avg\t%.6g\nfct.%s.%s.slowdown_p99\t%.6g\n",
                        kn, bin, (unsigned long long)st.count, kn, bin, st.avg, kn, bin, st.p99, kn, bin, st.s_avg, kn,
                        bin, st.s_p99);
                fprintf(f, "fct.%s.%s.wire_flows\t%llu\nfct.%s.%s.wire_unfinished\t%llu\n", kn, bin,
                        (unsigned long long)st.w_count, kn, bin, (unsigned long long)st.w_unfinished);
                fprintf(f, "fct.%s.%s.unfinished\t%llu\nfct.%s.%s.wire_fct_avg_s\t%.9g\nfct.%s.%s.wire_fct_p90_s\t%.9g\n"
                           "fct.%s.%s.wire_fct_p99_s\t%.9g\nfct.%s.%s.fct_p90_s\t%.9g\n",
                        kn, bin, (unsigned long long)st.unfinished, kn, bin, st.w_avg, kn, bin, st.w_p90, kn, bin,
                        st.w_p99, kn, bin, st.p90);
            }
            lo = hi;
        }
        struct fct_stats all;
        fct_bin_stats(sc, kind, 0, UINT64_MAX, sc->fct_start, sc->fct_end, &all);
        if (all.count || all.unfinished || all.w_count || all.w_unfinished)
            fprintf(f, "fct.%s.flows\t%llu\nfct.%s.fct_avg_s\t%.9g\nfct.%s.fct_p99_s\t%.9g\nfct.%s.slowdown_avg\t%.6g\n"
                       "fct.%s.slowdown_p99\t%.6g\nfct.%s.unfinished\t%llu\nfct.%s.wire_fct_avg_s\t%.9g\n"
                       "fct.%s.wire_slowdown_avg\t%.6g\nfct.%s.wire_slowdown_p99\t%.6g\n",
                    kn, (unsigned long long)all.count, kn, all.avg, kn, all.p99, kn,
                    all.s_avg, kn, all.s_p99, kn, (unsigned long long)all.unfinished, kn, all.w_avg, kn, all.ws_avg, kn,
                    all.ws_p99);
    }
    {
        double mean, sd;
        uint64_t fin = fct_flow_rates(sc, sc->fct_start, sc->fct_end, &mean, &sd), started = 0;
        for (uint32_t i = 0; i < n->n_flows; i++) {
            const struct flow *fl = &n->flows[i];
            started += fl->start_ps >= sc->fct_start && fl->start_ps <= sc->fct_end &&
                       !((fl->flags & FL_ENDLESS) && !(fl->flags & FL_STOPPED));
        }
        fprintf(f, "fct.flows_started\t%llu\nfct.flows_unfinished\t%llu\n", (unsigned long long)started,
                (unsigned long long)(started - (fin < started ? fin : started)));
        if (fin)
            fprintf(f, "fct.flow_rate_mean_bps\t%.6g\nfct.flow_rate_std_bps\t%.6g\n", tsv_num(mean), tsv_num(sd));
        if (sc->rs_n > 1)
            fprintf(f, "fct.flow_rate_sampled_mean_bps\t%.6g\nfct.flow_rate_sampled_std_bps\t%.6g\n", sc->rs_mean,
                    sqrt(sc->rs_m2 / (double)(sc->rs_n - 1)));
    }
    lf_summary_tsv(f, sc);
    /* PFC per tier. */
    for (int pc = 0; pc < PC_N; pc++) {
        uint64_t xs = 0, xr = 0;
        uint32_t cnt = 0;
        for (uint32_t m = 0; m < sc->n_mon; m++)
            if ((int)metrics_port_class(n, sc->mon[m].port) == pc) {
                cnt++;
                xs += n->ports[sc->mon[m].port].st.pfc_sent;
                xr += n->ports[sc->mon[m].port].st.pfc_rcvd;
            }
        if (cnt)
            fprintf(f, "tier.%s.pfc_xoff_sent\t%llu\ntier.%s.pfc_xoff_received\t%llu\n", port_class_names[pc],
                    (unsigned long long)xs, port_class_names[pc], (unsigned long long)xr);
        /* RoCC Fig. 17: the mean queue over the tier's ports that carried
         * data (the CPs), and PFC frames per segment of the run (the
         * largest of pfc_segments). */
        uint32_t busy = 0, a, b;
        double qsum = 0;
        for (uint32_t m = 0; m < sc->n_mon; m++)
            if ((int)metrics_port_class(n, sc->mon[m].port) == pc && carried_data(sc, m)) {
                struct qstats q;
                metrics_queue(sc, m, t0, t1, &q);
                qsum += isnan(q.mean) ? 0 : q.mean;
                busy++;
            }
        if (busy)
            fprintf(f, "tier.%s.cp_queue_mean_bytes\t%.6g\n", port_class_names[pc], qsum / busy);
        if (cnt && sc->n_samples > 1 && metrics_window(sc, 0, sc->duration, &a, &b) == 0) {
            uint64_t segmax = 0;
            for (uint32_t sg = 0; sg < sc->pfc_segments; sg++) {
                uint32_t u = (uint32_t)((uint64_t)sg * (sc->n_samples - 1) / sc->pfc_segments);
                uint32_t v = (uint32_t)((uint64_t)(sg + 1) * (sc->n_samples - 1) / sc->pfc_segments);
                uint64_t tot = 0;
                for (uint32_t m = 0; m < sc->n_mon; m++)
                    if ((int)metrics_port_class(n, sc->mon[m].port) == pc)
                        tot += sc->s_pfc[(size_t)v * sc->n_mon + m] - sc->s_pfc[(size_t)u * sc->n_mon + m];
                if (tot > segmax)
                    segmax = tot;
            }
            fprintf(f, "tier.%s.pfc_xoff_segment_max\t%llu\n", port_class_names[pc], (unsigned long long)segmax);
        }
    }
    {
        /* Go-back-N cost (RoCC Fig. 20): payload sent again over all payload sent. */
        uint64_t first = 0, again = 0;
        for (uint32_t i = 0; i < n->n_flows; i++) {
            first += n->flows[i].snd_max;
            again += n->flows[i].retx_bytes;
        }
        fprintf(f, "retx_bytes\t%llu\nretx_fraction\t%.6g\n", (unsigned long long)again,
                first + again ? (double)again / (double)(first + again) : 0.0);
    }
    /* Switch buffers: peak over the run, mean of the sampled queues. */
    for (uint32_t s = 0; s < n->n_sws; s++) {
        const struct sw *swp = &n->sws[s];
        double mean = 0;
        uint32_t a, b;
        if (metrics_window(sc, t0, t1, &a, &b) == 0) {
            for (uint32_t k = a; k <= b; k++)
                for (uint32_t m = 0; m < sc->n_mon; m++)
                    if (n->ports[sc->mon[m].port].node == swp->node)
                        mean += (double)sc->s_queue[(size_t)k * sc->n_mon + m];
            mean /= (b - a + 1);
        }
        fprintf(f, "switch.%s.buffer_peak_bytes\t%llu\nswitch.%s.buffer_mean_bytes\t%.6g\n",
                n->nodes[swp->node].name, (unsigned long long)swp->peak_used, n->nodes[swp->node].name, mean);
    }
    for (uint32_t m = 0; m < sc->n_mon; m++) {
        if (!carried_data(sc, m))
            continue;
        struct qstats q;
        double fm, flo, fhi;
        metrics_queue(sc, m, t0, t1, &q);
        metrics_fair(sc, m, t0, t1, &fm, &flo, &fhi);
        const char *nm = sc->mon[m].name;
        fprintf(f, "port.%s.queue_mean_bytes\t%.6g\nport.%s.queue_p99_bytes\t%.6g\nport.%s.queue_max_bytes\t%.6g\n"
                   "port.%s.utilization\t%.6f\n",
                nm, q.mean, nm, q.p99, nm, q.max, nm, metrics_util(sc, m, t0, t1));
        if (!isnan(fm))
            fprintf(f, "port.%s.fair_rate_mean_bps\t%.6g\n", nm, fm);
    }
}

static int write_file(const char *dir, const char *name, const struct scenario *sc, const struct run_info *ri,
                      void (*fn)(FILE *, const struct scenario *, const struct run_info *), char *why, size_t why_len)
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

static void w_summary(FILE *f, const struct scenario *sc, const struct run_info *ri) { write_summary(f, sc, ri); }
/* HPCC simulator's FCT file (fct.txt): "sip dip sport dport size start_ns
 * fct_ns standalone_ns" with IPs in hex as HPCC numbers hosts
 * (0x0b000001 + (I/256)<<16 + (I%256)<<8 for host index I, as flows.txt
 * numbers them); dport 200 marks incast flows
 * (fct_analysis.py).  Only finished flows, in flow order. */
static uint32_t hpcc_ip(uint32_t host) { return 0x0b000001u + ((host / 256) << 16) + ((host % 256) << 8); }

static void write_hpcc_fct(FILE *f, const struct scenario *sc)
{
    const struct net *n = &sc->net;
    for (uint32_t i = 0; i < n->n_flows; i++) {
        const struct flow *fl = &n->flows[i];
        if (fl->finish_ps == SIMTIME_NEVER)
            continue;
        fprintf(f, "%08x %08x %u %u %llu %llu %llu %llu\n", hpcc_ip(fl->src), hpcc_ip(fl->dst), fl->sport,
                sc->groups[fl->group].incast ? 200u : 100u, (unsigned long long)fl->size,
                (unsigned long long)(fl->start_ps / PS_PER_NS),
                (unsigned long long)((fl->finish_ps - fl->start_ps) / PS_PER_NS),
                (unsigned long long)(fct_ideal(n, fl) / PS_PER_NS));
    }
}

/* The run's flows as an HPCC simulator flow file (flows.txt): finite flows
 * only, sorted by start (workload.c writes the format). */
static int write_hpcc_flows(const struct scenario *sc, const char *dir, char *why, size_t why_len)
{
    const struct net *n = &sc->net;
    struct wl_list l = { 0 };
    for (uint32_t i = 0; i < n->n_flows; i++) {
        const struct flow *fl = &n->flows[i];
        if ((fl->flags & FL_ENDLESS) && !(fl->flags & FL_STOPPED))
            continue;
        /* Host indices (docs/outputs.md), which [traffic] hpcc_file reads. */
        struct wl_flow w = { fl->src, fl->dst, fl->size, fl->start_ps,
                             (uint8_t)sc->groups[fl->group].incast };
        if (fl->size == 0)
            continue;
        if (wl_list_push(&l, &w)) {
            wl_list_free(&l);
            snprintf(why, why_len, "out of memory");
            return -1;
        }
    }
    wl_sort_by_start(&l);
    char path[4200];
    snprintf(path, sizeof path, "%s/flows.txt", dir);
    int rc = wl_write_hpcc(&l, path, why, why_len);
    wl_list_free(&l);
    return rc;
}

/* fct.tsv: the FCT statistics per traffic kind and size bin (as in
 * summary.json's "fct" object), one row each, for plotting. */
static void write_fct_tsv(FILE *f, const struct scenario *sc)
{
    fputs("traffic\tsize_gt\tsize_le\tflows\tfct_avg_s\tfct_p50_s\tfct_p90_s\tfct_p99_s\tfct_p999_s\t"
          "slowdown_avg\tslowdown_p50\tslowdown_p90\tslowdown_p99\tslowdown_p999\tunfinished\tnot_started\t"
          "wire_flows\twire_unfinished\twire_fct_avg_s\twire_fct_p50_s\twire_fct_p90_s\twire_fct_p99_s\twire_fct_p999_s\t"
          "wire_slowdown_avg\twire_slowdown_p99\n", f);
    for (int kind = -1; kind <= 1; kind++) {
        uint64_t lo = 0;
        for (uint32_t b = 0; b <= sc->n_fct_bins; b++) {
            uint64_t hi = b < sc->n_fct_bins ? sc->fct_bins[b] : UINT64_MAX;
            struct fct_stats st;
            fct_bin_stats(sc, kind, lo, hi, sc->fct_start, sc->fct_end, &st);
            char le[24] = "inf";    /* the last bin has no upper edge: "inf", not "inf0" */
            if (hi != UINT64_MAX)
                snprintf(le, sizeof le, "%llu", (unsigned long long)hi);
            if (st.count || st.unfinished || st.w_count || st.w_unfinished)
                fprintf(f, "%s\t%llu\t%s\t%llu\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g"
                           "\t%llu\t%llu\t%llu\t%llu\t%.9g\t%.9g\t%.9g\t%.9g\t%.9g\t%.6g\t%.6g\n",
                        kind < 0 ? "all" : kind ? "incast" : "background", (unsigned long long)lo, le,
                        (unsigned long long)st.count, st.avg, st.p50, st.p90, st.p99, st.p999, st.s_avg, st.s_p50,
                        st.s_p90, st.s_p99, st.s_p999, (unsigned long long)st.unfinished,
                        (unsigned long long)st.not_started, (unsigned long long)st.w_count,
                        (unsigned long long)st.w_unfinished, st.w_avg, st.w_p50, st.w_p90, st.w_p99, st.w_p999, st.ws_avg,
                        st.ws_p99);
            lo = hi;
        }
    }
}

/* tiers.tsv: PFC and queues per tier of switch ports (summary.json "tiers"). */
static void write_tiers_tsv(FILE *f, const struct scenario *sc)
{
    const struct net *n = &sc->net;
    fputs("tier\tports\tpfc_xoff_sent\tpfc_xoff_received\tpaused_s\tqueue_mean_bytes\tutilization_mean\n", f);
    for (int pc = 0; pc < PC_N; pc++) {
        uint32_t cnt = 0;
        uint64_t xs = 0, xr = 0;
        double paused = 0, qsum = 0, usum = 0;
        for (uint32_t m = 0; m < sc->n_mon; m++) {
            if ((int)metrics_port_class(n, sc->mon[m].port) != pc)
                continue;
            const struct port *pt = &n->ports[sc->mon[m].port];
            struct qstats q;
            metrics_queue(sc, m, sc->measure_start, sc->measure_end, &q);
            double u = metrics_util(sc, m, sc->measure_start, sc->measure_end);
            cnt++;
            xs += pt->st.pfc_sent;
            xr += pt->st.pfc_rcvd;
            paused += port_paused_s(pt);
            qsum += isnan(q.mean) ? 0 : q.mean;
            usum += isnan(u) ? 0 : u;
        }
        if (cnt)
            fprintf(f, "%s\t%u\t%llu\t%llu\t%.9g\t%.6g\t%.6f\n", port_class_names[pc], cnt, (unsigned long long)xs,
                    (unsigned long long)xr, paused, qsum / cnt, usum / cnt);
    }
}

/* queue_cdf.tsv: the distribution of sampled data-queue lengths per port
 * tier (RoCC Fig. 17a plots queues per CP tier), pooled over the tier's
 * ports and the measurement window's samples: quantiles 0, 1, 5, 10, 20,
 * ..., 90, 95, 99, 99.9, 100%. */
static int cmp_u64_asc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void write_queue_cdf(FILE *f, const struct scenario *sc)
{
    static const double qs[] = { 0, .01, .05, .1, .2, .3, .4, .5, .6, .7, .8, .9, .95, .99, .999, 1 };
    const size_t nq = sizeof qs / sizeof qs[0];
    const struct net *n = &sc->net;
    fputs("tier\tquantile\tqueue_bytes\n", f);
    uint32_t a, b;
    if (metrics_window(sc, sc->measure_start, sc->measure_end, &a, &b))
        return;
    for (int pc = 0; pc < PC_N; pc++) {
        size_t cnt = 0;
        for (uint32_t m = 0; m < sc->n_mon; m++)
            cnt += (int)metrics_port_class(n, sc->mon[m].port) == pc;
        if (!cnt)
            continue;
        size_t tot = cnt * (size_t)(b - a + 1), k = 0;
        uint64_t *v = malloc(tot * sizeof *v);
        if (!v)
            return;
        for (uint32_t m = 0; m < sc->n_mon; m++)
            if ((int)metrics_port_class(n, sc->mon[m].port) == pc)
                for (uint32_t s = a; s <= b; s++)
                    v[k++] = sc->s_queue[(size_t)s * sc->n_mon + m];
        qsort(v, k, sizeof *v, cmp_u64_asc);
        for (size_t i = 0; i < nq; i++) {
            size_t r = (size_t)ceil(qs[i] * (double)k);          /* nearest rank */
            fprintf(f, "%s\t%g\t%llu\n", port_class_names[pc], qs[i], (unsigned long long)v[r ? r - 1 : 0]);
        }
        free(v);
    }
}

static void w_qcdf(FILE *f, const struct scenario *sc, const struct run_info *ri) { (void)ri; write_queue_cdf(f, sc); }
static void w_fcttsv(FILE *f, const struct scenario *sc, const struct run_info *ri) { (void)ri; write_fct_tsv(f, sc); }
static void w_tiers(FILE *f, const struct scenario *sc, const struct run_info *ri) { (void)ri; write_tiers_tsv(f, sc); }

static void w_hpcc(FILE *f, const struct scenario *sc, const struct run_info *ri) { (void)ri; write_hpcc_fct(f, sc); }
static void w_tsv(FILE *f, const struct scenario *sc, const struct run_info *ri) { write_summary_tsv(f, sc, ri); }
static void w_flows(FILE *f, const struct scenario *sc, const struct run_info *ri) { (void)ri; write_flows_csv(f, sc); }
static void w_queue(FILE *f, const struct scenario *sc, const struct run_info *ri) { (void)ri; write_queue_csv(f, sc); }
static void w_fair(FILE *f, const struct scenario *sc, const struct run_info *ri) { (void)ri; write_fair_csv(f, sc); }
static void w_frate(FILE *f, const struct scenario *sc, const struct run_info *ri) { (void)ri; write_flow_rate_csv(f, sc); }
static void w_lflows(FILE *f, const struct scenario *sc, const struct run_info *ri) { (void)ri; lf_write_tsv(f, sc); }

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

/* rocc_trace.csv: the RP events of the traced group ([output] rocc_trace). */
static const char *cp_name(const struct scenario *sc, uint32_t cp_id)
{
    if (cp_id == ROCC_CP_NONE)
        return "-";
    for (uint32_t m = 0; m < sc->n_mon; m++)
        if (sc->mon[m].agent != NONE32
            && ((const struct rocc_agent *)sc->net.agents[sc->mon[m].agent].state)->cp_id == cp_id)
            return sc->mon[m].name;
    return "?";
}

static void w_rptrace(FILE *f, const struct scenario *sc, const struct run_info *ri)
{
    const struct net *n = &sc->net;
    (void)ri;
    fprintf(f, "time_s,flow,event,cp,rate_gbps,accepted,cp_after,rate_after_gbps\n");
    for (uint32_t i = 0; i < n->n_rp_trace; i++) {
        const struct rp_trace_rec *r = &n->rp_trace[i];
        char name[64];
        flow_name(sc, r->flow, name, sizeof name);
        fprintf(f, "%.9f,%s,%s,%s,", (double)r->t / PS_PER_S, name, r->timer ? "timer" : "cnp", cp_name(sc, r->cp_id));
        if (r->timer)
            fprintf(f, "-,-,");
        else
            fprintf(f, "%.3f,%d,", (double)r->rate_units * n->rp_params.f_unit_mbps / 1000.0, r->accepted);
        fprintf(f, "%s,%.3f\n", cp_name(sc, r->cp_after), (double)r->rate_after_mbps / 1000.0);
    }
    if (n->rp_trace_lost)
        fprintf(f, "# %llu later events not recorded (limit %u records or out of memory)\n",
                (unsigned long long)n->rp_trace_lost, RP_TRACE_MAX);
}

int report_write(const struct scenario *sc, const struct run_info *ri, const char *dir, char *why, size_t why_len)
{
    if (mkdir_p(dir)) {
        snprintf(why, why_len, "%s: cannot create directory: %s", dir, strerror(errno));
        return -1;
    }
    if (write_file(dir, "summary.json", sc, ri, w_summary, why, why_len) ||
        write_file(dir, "summary.tsv", sc, ri, w_tsv, why, why_len) ||
        write_file(dir, "fct.tsv", sc, ri, w_fcttsv, why, why_len) ||
        write_file(dir, "tiers.tsv", sc, ri, w_tiers, why, why_len) ||
        write_file(dir, "queue_cdf.tsv", sc, ri, w_qcdf, why, why_len) ||
        write_file(dir, "flows.csv", sc, ri, w_flows, why, why_len) ||
        write_file(dir, "queue.csv", sc, ri, w_queue, why, why_len) ||
        write_file(dir, "fair_rate.csv", sc, ri, w_fair, why, why_len) ||
        write_file(dir, "link_flows.tsv", sc, ri, w_lflows, why, why_len))
        return -1;
    if (sc->hpcc_fct ? write_file(dir, "fct.txt", sc, ri, w_hpcc, why, why_len) : remove_stale(dir, "fct.txt", why, why_len))
        return -1;
    if (sc->hpcc_flows ? write_hpcc_flows(sc, dir, why, why_len) : remove_stale(dir, "flows.txt", why, why_len))
        return -1;
    if (sc->rocc_trace ? write_file(dir, "rocc_trace.csv", sc, ri, w_rptrace, why, why_len)
                       : remove_stale(dir, "rocc_trace.csv", why, why_len))
        return -1;
    if (sc->flow_series)
        return write_file(dir, "flow_rate.csv", sc, ri, w_frate, why, why_len);
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
                 "peak RSS %.1f MB\n",
            units_fmt_time(sc->duration, b1, sizeof b1), ri->wall_s, (unsigned long long)n->el.n_fired,
            (unsigned long long)n->hops, ri->wall_s > 0 ? (double)n->hops / ri->wall_s / 1e6 : 0,
            n->hops ? (double)n->el.n_fired / (double)n->hops : 0, (double)ru.ru_maxrss / 1024.0);
    fprintf(out, "\nflow groups (receive rate over %s..%s):\n", units_fmt_time(t0, b1, sizeof b1),
            units_fmt_time(t1, b2, sizeof b2));
    fprintf(out, "  %-16s %6s %12s %12s %12s %8s\n", "group", "flows", "mean", "min", "max", "jain");
    for (uint32_t g = 0; g < sc->n_groups; g++) {
        const struct group *gr = &sc->groups[g];
        struct grstats st;
        group_rates(sc, gr, t0, t1, &st);
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
        if (carried_data(sc, m)) {
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
    fcsel_print(sc, out);
    xbarsel_print(sc, out);
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
