/*
 * report_json.c -- DIR/summary.json: one JSON document with every number of
 * a run (run facts, packets and events, flow groups, switch ports and their
 * CPs, port tiers, FCT statistics, flows per link, expectations, flows).
 * Format: docs/outputs.md.  Written by report_write() (report.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/attack.h"
#include "engine/ccsel.h"
#include "engine/fcsel.h"
#include "engine/oqsel.h"
#include "engine/lsccsel.h"
#include "engine/xbarsel.h"
#include "engine/pcapout.h"
#include "engine/fcsel_escape.h"
#include "engine/fcsel_loopbreak.h"
#include "engine/fct.h"
#include "engine/linkflows.h"
#include "engine/metrics.h"
#include "engine/report_parts.h"
#include "net/agent_rocc.h"

static const char *type_names[PKT_NTYPES] = { "data", "ack", "nack", "cnp", "pfc", "fctl", "grant", "credit" };

/* JSON number: NaN/inf become null; integers print without a fraction. */
void report_json_num(FILE *f, double v)
{
    if (isnan(v) || isinf(v))
        fputs("null", f);
    else if (v == floor(v) && fabs(v) < 9e15)
        fprintf(f, "%.0f", v);
    else
        fprintf(f, "%.9g", v);
}

/* A member after the first: , "key": number. */
void report_json_kv(FILE *f, const char *key, double v)
{
    fprintf(f, ", \"%s\": ", key);
    report_json_num(f, v);
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

/* The RoCC CPs' flow tables, summed over the CPs (docs/outputs.md
 * "rocc_flow_table"): what a comparison of §3.4's tables needs -- CNPs per
 * period, table memory and occupancy, and per group how many flows got a
 * CNP.  cps = 0 in runs without RoCC CPs (their outputs are unchanged). */
void report_rocc_ft_totals(const struct scenario *sc, struct rocc_ft_totals *t)
{
    static const char *const kname[] = { [ROCC_FT_QUEUE] = "queue", [ROCC_FT_BOUNDED] = "bounded",
                                         [ROCC_FT_AFD] = "afd", [ROCC_FT_ETRAP] = "elephant",
                                         [ROCC_FT_BUBBLE] = "bubble" };
    const struct net *n = &sc->net;
    memset(t, 0, sizeof *t);
    t->kind = "";
    for (uint32_t a = 0; a < n->n_agents; a++) {
        if (n->agents[a].ops != &rocc_agent_ops)
            continue;
        const struct rocc_agent *ag = n->agents[a].state;
        uint64_t b = rocc_ft_mem_bytes(&ag->ft.p);
        t->cps++;
        t->periods += ag->periods;
        t->cnps += ag->cnps_sent;
        t->mem += b;
        t->mem_max = b > t->mem_max ? b : t->mem_max;
        t->entries_max = ag->ft.size_max > t->entries_max ? ag->ft.size_max : t->entries_max;
        t->sampled += ag->ft.n_sampled;
        t->refused += ag->ft.n_full;
        t->inserted += ag->ft.n_inserted;
        t->kind = kname[ag->ft.p.kind];
    }
}

void report_group_cnps(const struct scenario *sc, const struct group *gr, uint64_t *with_cnp, uint64_t *received)
{
    *with_cnp = *received = 0;
    for (uint32_t k = 0; k < gr->count; k++) {
        *with_cnp += sc->net.flows[gr->first + k].cnps_rx != 0;
        *received += sc->net.flows[gr->first + k].cnps_rx;
    }
}

static void rocc_ft_json(const struct scenario *sc, FILE *f)
{
    struct rocc_ft_totals t;
    report_rocc_ft_totals(sc, &t);
    uint64_t cps = t.cps, periods = t.periods, cnps = t.cnps;
    const char *kind = t.kind;
    if (!cps)
        return;
    fprintf(f, ",\n  \"rocc_flow_table\": {\"kind\": \"%s\", \"cps\": %llu, \"periods\": %llu, \"cnps_sent\": %llu, "
               "\"cnps_per_period\": ", kind, (unsigned long long)cps, (unsigned long long)periods,
            (unsigned long long)cnps);
    report_json_num(f, periods ? (double)cnps * (double)cps / (double)periods : NAN);
    report_json_kv(f, "cnps_per_cp_period", periods ? (double)cnps / (double)periods : NAN);
    fprintf(f, ", \"mem_bytes\": %llu, \"mem_bytes_max_cp\": %llu, \"entries_max_cp\": %u, \"inserted\": %llu, "
               "\"sampled\": %llu, \"refused\": %llu, \"groups\": [",
            (unsigned long long)t.mem, (unsigned long long)t.mem_max, t.entries_max, (unsigned long long)t.inserted,
            (unsigned long long)t.sampled, (unsigned long long)t.refused);
    for (uint32_t g = 0; g < sc->n_groups; g++) {
        const struct group *gr = &sc->groups[g];
        uint64_t got, rx;
        report_group_cnps(sc, gr, &got, &rx);
        fprintf(f, "%s{\"name\": ", g ? ", " : "");
        jstr(f, gr->name);
        fprintf(f, ", \"flows\": %u, \"flows_with_cnp\": %llu, \"cnps_received\": %llu}", gr->count,
                (unsigned long long)got, (unsigned long long)rx);
    }
    fputs("]}", f);
}

void report_summary_json(FILE *f, const struct scenario *sc, const struct run_info *ri)
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
    report_json_num(f, (double)sc->duration / PS_PER_S);
    fprintf(f, ",\n  \"measure\": {\"start_s\": ");
    report_json_num(f, (double)t0 / PS_PER_S);
    report_json_kv(f, "end_s", (double)t1 / PS_PER_S);
    fprintf(f, "},\n  \"sample_interval_s\": ");
    report_json_num(f, (double)sc->sample_interval / PS_PER_S);
    fprintf(f, ",\n  \"events\": %llu,\n  \"hops\": %llu,\n", (unsigned long long)n->el.n_fired,
            (unsigned long long)n->hops);
    static const char *const ev_names[EV_NKINDS] = { "", "tx_done", "wire", "host_wake", "nic_delay", "flow_timer",
                                                     "flow_start", "flow_stop", "agent", "hook", "fctl_timer",
                                                     "fctl_gate", "flow_rx_timer" };
    fprintf(f, "  \"events_by_kind\": {");
    /* Kinds after "hook" (flow-control schemes) only when they fired;
     * "flow_timer" counts both ends' flow timers (a receiver's,
     * EV_FLOW_RX_TIMER, is ExpressPass's credit pacer, which ran on the
     * flow's one timer before it had its own). */
    for (int k = 1; k < EV_NKINDS; k++) {
        uint64_t c = n->ev_count[k] + (k == EV_FLOW_TIMER ? n->ev_count[EV_FLOW_RX_TIMER] : 0);
        if (k != EV_FLOW_RX_TIMER && (k <= EV_HOOK || c))
            fprintf(f, "%s\"%s\": %llu", k > 1 ? ", " : "", ev_names[k], (unsigned long long)c);
    }
    fprintf(f, "},\n");
    fprintf(f, "  \"packets\": {\"created\": %llu, \"consumed\": %llu, \"dropped\": %llu, \"in_flight\": %u, \"by_type\": {",
            (unsigned long long)created, (unsigned long long)consumed, (unsigned long long)dropped, n->pool.live);
    for (int t = 0; t < PKT_NTYPES; t++)
        if (t < PKT_FCTL || n->created[t] || n->dropped[t])   /* scheme frames, grants only when there were any */
            fprintf(f, "%s\"%s\": {\"created\": %llu, \"consumed\": %llu, \"dropped\": %llu}", t ? ", " : "",
                type_names[t], (unsigned long long)n->created[t], (unsigned long long)n->consumed[t],
                (unsigned long long)n->dropped[t]);
    fprintf(f, "}, \"failure_drops\": %llu, \"cnp_filtered_switch\": %llu, \"cnp_filtered_host\": %llu",
            (unsigned long long)n->failure_drops, (unsigned long long)n->cnp_filtered_sw,
            (unsigned long long)n->cnp_filtered_host);
    if (n->fc_drops)
        fprintf(f, ", \"fc_drops\": %llu", (unsigned long long)n->fc_drops);
    if (n->qlimit_drops)
        fprintf(f, ", \"qlimit_drops\": %llu", (unsigned long long)n->qlimit_drops);
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
    fcsel_json(sc, f);                /* in-order check, deadlock detector: when enabled/relevant */
    oqsel_json(sc, f);                /* [openqueue] ports and queues */
    lsccsel_json(sc, f);              /* [lscc] long-haul ports */
    xbarsel_json(sc, f);              /* [crossbar] switches */
    rocc_ft_json(sc, f);              /* "rocc_flow_table": {...} in runs with RoCC CPs */
    pcapout_json(sc, f);              /* [output] pcap files */
    fprintf(f, ",\n  \"groups\": [");
    for (uint32_t g = 0; g < sc->n_groups; g++) {
        const struct group *gr = &sc->groups[g];
        struct grstats st;
        report_group_rates(sc, gr, t0, t1, &st);
        fprintf(f, "%s\n    {\"name\": ", g ? "," : "");
        jstr(f, gr->name);
        fprintf(f, ", \"cc\": \"%s\", \"incast\": %s, \"flows\": %u, \"rate_mean_bps\": ", cc_algo_names[gr->algo],
                gr->incast ? "true" : "false", gr->count);
        report_json_num(f, st.mean);
        report_json_kv(f, "rate_min_bps", st.min);
        report_json_kv(f, "rate_max_bps", st.max);
        report_json_kv(f, "jain", st.jain);
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
        report_json_num(f, q.mean);
        report_json_kv(f, "queue_p99_bytes", q.p99);
        report_json_kv(f, "queue_max_bytes", q.max);
        fprintf(f, ", \"queue_max_run_bytes\": %llu, \"utilization\": ", (unsigned long long)pt->st.max_queue_bytes);
        report_json_num(f, metrics_util(sc, m, t0, t1));
        fprintf(f, ", \"tx_packets\": %llu, \"tx_bytes\": %llu, \"drops\": %llu, \"pfc_xoff_sent\": %llu, "
                   "\"pfc_xoff_received\": %llu, \"paused_s\": ",
                (unsigned long long)pt->st.tx_pkts, (unsigned long long)pt->st.tx_bytes,
                (unsigned long long)pt->st.drops, (unsigned long long)pt->st.pfc_sent,
                (unsigned long long)pt->st.pfc_rcvd);
        report_json_num(f, report_port_paused_s(pt));
        fprintf(f, ", \"cp\": ");
        if (mo->agent == NONE32) {
            fputs("null}", f);
            continue;
        }
        const struct rocc_agent *a = n->agents[mo->agent].state;
        double mean, lo, hi;
        metrics_fair(sc, m, t0, t1, &mean, &lo, &hi);
        fprintf(f, "{\"fair_rate_mean_bps\": ");
        report_json_num(f, mean);
        report_json_kv(f, "fair_rate_min_bps", lo);
        report_json_kv(f, "fair_rate_max_bps", hi);
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
        struct tier_stats ts;
        report_tier_stats(sc, pc, &ts);
        if (!ts.ports)
            continue;
        fprintf(f, "%s\n    {\"tier\": \"%s\", \"ports\": %u, \"pfc_xoff_sent\": %llu, \"pfc_xoff_received\": %llu, "
                   "\"paused_s\": ", tfirst ? "" : ",", port_class_names[pc], ts.ports, (unsigned long long)ts.xoff_sent,
                (unsigned long long)ts.xoff_rcvd);
        report_json_num(f, ts.paused_s);
        report_json_kv(f, "queue_mean_bytes", ts.queue_mean_sum / ts.ports);
        report_json_kv(f, "queue_max_bytes", ts.queue_max);
        report_json_kv(f, "utilization_mean", ts.util_sum / ts.ports);
        fprintf(f, ", \"pfc_received_per_segment\": [");
        for (uint32_t s = 0; s < sc->pfc_segments; s++)
            fprintf(f, "%s%llu", s ? ", " : "", (unsigned long long)report_tier_pfc_segment(sc, pc, s));
        fprintf(f, "]}");
        tfirst = 0;
    }
    fprintf(f, "\n  ],\n  \"fct\": {\"start_s\": ");
    report_json_num(f, (double)sc->fct_start / PS_PER_S);
    report_json_kv(f, "end_s", (double)sc->fct_end / PS_PER_S);
    {
        double mean, sd;
        uint64_t k = fct_flow_rates(sc, sc->fct_start, sc->fct_end, &mean, &sd);
        uint64_t started = fct_count_started(sc, sc->fct_start, sc->fct_end);
        fprintf(f, ", \"flows_started\": %llu, \"flows_unfinished\": %llu", (unsigned long long)started,
                (unsigned long long)(started - (k < started ? k : started)));
        fprintf(f, ", \"flows_finished\": %llu, \"flow_rate_mean_bps\": ", (unsigned long long)k);
        report_json_num(f, mean);
        report_json_kv(f, "flow_rate_std_bps", sd);
        fprintf(f, ", \"flow_rate_sampled_n\": %llu, \"flow_rate_sampled_mean_bps\": ", (unsigned long long)sc->rs_n);
        report_json_num(f, sc->rs_n ? sc->rs_mean : NAN);
        report_json_kv(f, "flow_rate_sampled_std_bps", sc->rs_n > 1 ? sqrt(sc->rs_m2 / (double)(sc->rs_n - 1)) : NAN);
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
                report_json_num(f, hi == UINT64_MAX ? NAN : (double)hi);
                fprintf(f, ", \"flows\": %llu, \"unfinished\": %llu, \"not_started\": %llu, \"fct_avg_s\": ",
                        (unsigned long long)st.count, (unsigned long long)st.unfinished,
                        (unsigned long long)st.not_started);
                report_json_num(f, st.avg);
                report_json_kv(f, "fct_p50_s", st.p50);
                report_json_kv(f, "fct_p90_s", st.p90);
                report_json_kv(f, "fct_p99_s", st.p99);
                report_json_kv(f, "fct_p999_s", st.p999);
                report_json_kv(f, "slowdown_avg", st.s_avg);
                report_json_kv(f, "slowdown_p50", st.s_p50);
                report_json_kv(f, "slowdown_p90", st.s_p90);
                report_json_kv(f, "slowdown_p99", st.s_p99);
                report_json_kv(f, "slowdown_p999", st.s_p999);
                fprintf(f, ", \"wire_flows\": %llu, \"wire_unfinished\": %llu", (unsigned long long)st.w_count,
                        (unsigned long long)st.w_unfinished);
                report_json_kv(f, "wire_fct_avg_s", st.w_avg);
                report_json_kv(f, "wire_fct_p50_s", st.w_p50);
                report_json_kv(f, "wire_fct_p90_s", st.w_p90);
                report_json_kv(f, "wire_fct_p99_s", st.w_p99);
                report_json_kv(f, "wire_fct_p999_s", st.w_p999);
                report_json_kv(f, "wire_slowdown_avg", st.ws_avg);
                report_json_kv(f, "wire_slowdown_p99", st.ws_p99);
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
        report_flow_name(sc, i, name, sizeof name);
        fprintf(f, "%s\n    {\"id\": %u, \"name\": ", i ? "," : "", i);
        jstr(f, name);
        fprintf(f, ", \"src\": ");
        jstr(f, report_host_name(sc, fl->src));
        fprintf(f, ", \"dst\": ");
        jstr(f, report_host_name(sc, fl->dst));
        report_json_kv(f, "size_bytes", (fl->flags & FL_ENDLESS) && !(fl->flags & FL_STOPPED) ? NAN : (double)fl->size);
        report_json_kv(f, "start_s", (double)fl->start_ps / PS_PER_S);
        report_json_kv(f, "fct_s", fl->finish_ps == SIMTIME_NEVER ? NAN : (double)(fl->finish_ps - fl->start_ps) / PS_PER_S);
        fprintf(f, ", \"delivered_bytes\": %llu, \"rate_bps\": ", (unsigned long long)fl->rcv_nxt);
        report_json_num(f, metrics_flow_rate(sc, i, t0, t1));
        fprintf(f, ", \"retx_bytes\": %llu, \"timeouts\": %llu", (unsigned long long)fl->retx_bytes,
                (unsigned long long)fl->timeouts);
        if (sc->fc_section && fl->out_of_order)   /* docs/escape.md "In-order check" */
            fprintf(f, ", \"out_of_order\": %llu", (unsigned long long)fl->out_of_order);
        fputc('}', f);
    }
    fprintf(f, "\n  ]\n}\n");
}
