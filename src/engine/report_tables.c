/*
 * report_tables.c -- the tables over the measurement window, for shell tools
 * and plots: DIR/summary.tsv (the headline numbers as KEY<TAB>VALUE lines),
 * fct.tsv (FCT and slowdown per traffic kind and size bin), tiers.tsv (PFC,
 * paused time, queues and utilization per port tier) and queue_cdf.tsv
 * (quantiles of the sampled queues per tier).  Formats: docs/outputs.md.
 * Written by report_write() (report.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/ccsel.h"
#include "engine/fcsel_loopbreak.h"
#include "engine/fct.h"
#include "engine/linkflows.h"
#include "engine/metrics.h"
#include "engine/report_parts.h"

/* summary.tsv: the headline numbers as KEY<TAB>VALUE lines for shell tools
 * (grep, awk, join); summary.json holds everything. */
/* Shell tools get "nan" for any missing number (no inf, no -inf). */
static double tsv_num(double v) { return isfinite(v) ? v : NAN; }

void report_summary_tsv(FILE *f, const struct scenario *sc, const struct run_info *ri)
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
        report_group_rates(sc, gr, t0, t1, &st);
        fprintf(f, "group.%s.cc\t%s\n", gr->name, cc_algo_names[gr->algo]);
        fprintf(f, "group.%s.flows\t%u\ngroup.%s.rate_mean_bps\t%.6g\ngroup.%s.rate_min_bps\t%.6g\n"
                   "group.%s.rate_max_bps\t%.6g\ngroup.%s.jain\t%.6f\n",
                gr->name, gr->count, gr->name, tsv_num(st.mean), gr->name, tsv_num(st.min), gr->name,
                tsv_num(st.max), gr->name, tsv_num(st.jain));
    }
    /* RoCC flow tables (only with CPs): docs/outputs.md "rocc_flow_table". */
    struct rocc_ft_totals ft;
    report_rocc_ft_totals(sc, &ft);
    if (ft.cps) {
        fprintf(f, "rocc_ft.kind\t%s\nrocc_ft.cps\t%llu\nrocc_ft.cnps_sent\t%llu\nrocc_ft.cnps_per_period\t%.6g\n"
                   "rocc_ft.mem_bytes\t%llu\nrocc_ft.mem_bytes_max_cp\t%llu\nrocc_ft.entries_max_cp\t%u\n",
                ft.kind, (unsigned long long)ft.cps, (unsigned long long)ft.cnps,
                tsv_num(ft.periods ? (double)ft.cnps * (double)ft.cps / (double)ft.periods : NAN),
                (unsigned long long)ft.mem, (unsigned long long)ft.mem_max, ft.entries_max);
        for (uint32_t g = 0; g < sc->n_groups; g++) {
            uint64_t got, rx;
            report_group_cnps(sc, &sc->groups[g], &got, &rx);
            fprintf(f, "group.%s.flows_with_cnp\t%llu\ngroup.%s.cnps_received\t%llu\n", sc->groups[g].name,
                    (unsigned long long)got, sc->groups[g].name, (unsigned long long)rx);
        }
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
        uint64_t fin = fct_flow_rates(sc, sc->fct_start, sc->fct_end, &mean, &sd);
        uint64_t started = fct_count_started(sc, sc->fct_start, sc->fct_end);
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
            if ((int)metrics_port_class(n, sc->mon[m].port) == pc && report_carried_data(sc, m)) {
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
                uint64_t tot = report_tier_pfc_segment(sc, pc, sg);
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
        if (!report_carried_data(sc, m))
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

/* fct.tsv: the FCT statistics per traffic kind and size bin (as in
 * summary.json's "fct" object), one row each, for plotting. */
void report_fct_tsv(FILE *f, const struct scenario *sc, const struct run_info *ri)
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
void report_tiers_tsv(FILE *f, const struct scenario *sc, const struct run_info *ri)
{
    fputs("tier\tports\tpfc_xoff_sent\tpfc_xoff_received\tpaused_s\tqueue_mean_bytes\tutilization_mean\n", f);
    for (int pc = 0; pc < PC_N; pc++) {
        struct tier_stats ts;
        report_tier_stats(sc, pc, &ts);
        if (ts.ports)
            fprintf(f, "%s\t%u\t%llu\t%llu\t%.9g\t%.6g\t%.6f\n", port_class_names[pc], ts.ports,
                    (unsigned long long)ts.xoff_sent, (unsigned long long)ts.xoff_rcvd, ts.paused_s,
                    ts.queue_mean_sum / ts.ports, ts.util_sum / ts.ports);
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

void report_queue_cdf_tsv(FILE *f, const struct scenario *sc, const struct run_info *ri)
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
