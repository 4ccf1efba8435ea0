/*
 * report_parts.h -- the writers report_write() (report.c) calls, one file
 * per kind of output, and the helpers they share (defined in report.c):
 *   report_json.c     summary.json
 *   report_tables.c   summary.tsv, fct.tsv, tiers.tsv, queue_cdf.tsv
 *   report_flows.c    flows.csv, queue.csv, fair_rate.csv, flow_rate.csv,
 *                     rocc_trace.csv, fct.txt and flows.txt (HPCC formats)
 * Internal to src/engine; other layers use report.h.
 */
#ifndef ROCC_REPORT_PARTS_H
#define ROCC_REPORT_PARTS_H

#include <stdio.h>

#include "engine/report.h"

#define ROCCSIM_VERSION "0.1.0"

/* A file's writer: the whole content to f (report.c's write_file opens it
 * under a temporary name and renames it into place). */
typedef void report_writer_fn(FILE *f, const struct scenario *sc, const struct run_info *ri);

report_writer_fn report_summary_json;     /* report_json.c */
/* A JSON number (NaN and infinities as null): every summary.json part
 * writes its numbers with it (report_json.c). */
void report_json_num(FILE *f, double v);
/* A member after an object's first: , "key": number. */
void report_json_kv(FILE *f, const char *key, double v);
report_writer_fn report_summary_tsv;      /* report_tables.c */
report_writer_fn report_fct_tsv;
report_writer_fn report_tiers_tsv;
report_writer_fn report_queue_cdf_tsv;
report_writer_fn report_flows_csv;        /* report_flows.c */
report_writer_fn report_queue_csv;
report_writer_fn report_fair_rate_csv;
report_writer_fn report_flow_rate_csv;
report_writer_fn report_rocc_trace_csv;
report_writer_fn report_hpcc_fct;
/* DIR/flows.txt (written by workload.c's wl_write_hpcc): 0 or -1 with why. */
int report_hpcc_flows(const struct scenario *sc, const char *dir, char *why, size_t why_len);

/* The RoCC CPs' flow tables summed over the run's CPs (report_json.c);
 * cps = 0 without RoCC CPs.  kind: the [rocc] flow_table name. */
struct rocc_ft_totals {
    const char *kind;
    uint64_t cps, periods, cnps, mem, mem_max, sampled, refused, inserted;
    uint32_t entries_max;
};
void report_rocc_ft_totals(const struct scenario *sc, struct rocc_ft_totals *t);
/* Flows of gr that got at least one CNP, and the CNPs they got. */
struct group;
void report_group_cnps(const struct scenario *sc, const struct group *gr, uint64_t *with_cnp, uint64_t *received);

/* Shared helpers (report.c). */
/* Flow f's name: its group's, with "[i]" when the group has more than one. */
void report_flow_name(const struct scenario *sc, uint32_t f, char *buf, size_t len);
const char *report_host_name(const struct scenario *sc, uint32_t h);
/* Paused time of a port over the run, all classes, in seconds. */
double report_port_paused_s(const struct port *pt);
/* Time series and tables list the switch ports that carried data: the
 * others' queues are empty and their CPs stay at Fmax (summary.json still
 * has them all). */
int report_carried_data(const struct scenario *sc, uint32_t m);
/* Receive-rate statistics of one flow group over [t0, t1] (NaN: none). */
struct grstats { double mean, min, max, jain; };
void report_group_rates(const struct scenario *sc, const struct group *gr, simtime_t t0, simtime_t t1,
                        struct grstats *st);

/* A tier of switch ports (metrics_port_class) over the measurement window:
 * its ports, their PFC XOFF frames sent and received and paused time (whole
 * run), the sums of their mean queues and utilizations (NaN counted as 0)
 * and the largest queue. */
struct tier_stats {
    uint32_t ports;
    uint64_t xoff_sent, xoff_rcvd;
    double   paused_s, queue_mean_sum, queue_max, util_sum;
};
void report_tier_stats(const struct scenario *sc, int pc, struct tier_stats *ts);
/* XOFF frames the tier's ports received in segment s of [0, duration] cut
 * into sc->pfc_segments (0 with fewer than two samples). */
uint64_t report_tier_pfc_segment(const struct scenario *sc, int pc, uint32_t s);

#endif
