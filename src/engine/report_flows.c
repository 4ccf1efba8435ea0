/*
 * report_flows.c -- the files with a row per flow or per sample:
 * DIR/flows.csv (one row per flow), the time series queue.csv,
 * fair_rate.csv and flow_rate.csv (one row per sample), rocc_trace.csv (the
 * RP events of the traced group), and the HPCC simulator's formats fct.txt
 * and flows.txt.  Formats: docs/outputs.md.  Written by report_write()
 * (report.c).
 */
#include <math.h>
#include <stdio.h>

#include "engine/fct.h"
#include "engine/metrics.h"
#include "engine/report_parts.h"
#include "engine/workload.h"
#include "net/agent_rocc.h"

void report_flows_csv(FILE *f, const struct scenario *sc, const struct run_info *ri)
{
    const struct net *n = &sc->net;
    fprintf(f, "id,name,group,src,dst,size_bytes,start_s,fct_s,ideal_fct_s,slowdown,delivered_bytes,rate_gbps,"
               "retx_bytes,timeouts,qp,first_tx_s,wire_fct_s\n");
    for (uint32_t i = 0; i < n->n_flows; i++) {
        const struct flow *fl = &n->flows[i];
        char name[64];
        report_flow_name(sc, i, name, sizeof name);
        fprintf(f, "%u,%s,%s,%s,%s,", i, name, sc->groups[fl->group].name, report_host_name(sc, fl->src),
                report_host_name(sc, fl->dst));
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

void report_queue_csv(FILE *f, const struct scenario *sc, const struct run_info *ri)
{
    fprintf(f, "time_s");
    for (uint32_t m = 0; m < sc->n_mon; m++)
        if (report_carried_data(sc, m))
            fprintf(f, ",%s", sc->mon[m].name);
    fputc('\n', f);
    for (uint32_t k = 0; k < sc->n_samples; k++) {
        fprintf(f, "%.9f", (double)((uint64_t)k * sc->sample_interval) / PS_PER_S);
        for (uint32_t m = 0; m < sc->n_mon; m++)
            if (report_carried_data(sc, m))
                fprintf(f, ",%llu", (unsigned long long)sc->s_queue[(size_t)k * sc->n_mon + m]);
        fputc('\n', f);
    }
}

void report_fair_rate_csv(FILE *f, const struct scenario *sc, const struct run_info *ri)
{
    const struct net *n = &sc->net;
    fprintf(f, "time_s");
    for (uint32_t m = 0; m < sc->n_mon; m++)
        if (sc->mon[m].agent != NONE32 && report_carried_data(sc, m))
            fprintf(f, ",%s", sc->mon[m].name);
    fputc('\n', f);
    for (uint32_t k = 0; k < sc->n_samples; k++) {
        fprintf(f, "%.9f", (double)((uint64_t)k * sc->sample_interval) / PS_PER_S);
        for (uint32_t m = 0; m < sc->n_mon; m++) {
            if (sc->mon[m].agent == NONE32 || !report_carried_data(sc, m))
                continue;
            const struct rocc_agent *a = n->agents[sc->mon[m].agent].state;
            fprintf(f, ",%.3f", (double)sc->s_fair[(size_t)k * sc->n_mon + m] * a->prm.f_unit_mbps / 1000.0);
        }
        fputc('\n', f);
    }
}

void report_flow_rate_csv(FILE *f, const struct scenario *sc, const struct run_info *ri)
{
    uint32_t nf = sc->net.n_flows;
    fprintf(f, "time_s");
    for (uint32_t i = 0; i < nf; i++) {
        char name[64];
        report_flow_name(sc, i, name, sizeof name);
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

void report_rocc_trace_csv(FILE *f, const struct scenario *sc, const struct run_info *ri)
{
    const struct net *n = &sc->net;
    (void)ri;
    fprintf(f, "time_s,flow,event,cp,rate_gbps,accepted,cp_after,rate_after_gbps\n");
    for (uint32_t i = 0; i < n->n_rp_trace; i++) {
        const struct rp_trace_rec *r = &n->rp_trace[i];
        char name[64];
        report_flow_name(sc, r->flow, name, sizeof name);
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

/* HPCC simulator's FCT file (fct.txt): "sip dip sport dport size start_ns
 * fct_ns standalone_ns" with IPs in hex as HPCC numbers hosts
 * (0x0b000001 + (I/256)<<16 + (I%256)<<8 for host index I, as flows.txt
 * numbers them); dport 200 marks incast flows
 * (fct_analysis.py).  Only finished flows, in flow order. */
static uint32_t hpcc_ip(uint32_t host) { return 0x0b000001u + ((host / 256) << 16) + ((host % 256) << 8); }

void report_hpcc_fct(FILE *f, const struct scenario *sc, const struct run_info *ri)
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
int report_hpcc_flows(const struct scenario *sc, const char *dir, char *why, size_t why_len)
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
