/*
 * report.h -- what a run leaves behind (formats in docs/outputs.md):
 *   DIR/summary.json    one document with every number of the run
 *   DIR/summary.tsv     the headline numbers as KEY<TAB>VALUE lines
 *   DIR/fct.tsv         FCT / slowdown statistics per traffic kind and size bin
 *   DIR/tiers.tsv       PFC, paused time, queues and utilization per port tier
 *   DIR/queue_cdf.tsv   quantiles of the sampled queue lengths per port tier
 *   DIR/flows.csv       one row per flow
 *   DIR/queue.csv       time series: data-queue bytes per switch egress port
 *   DIR/fair_rate.csv   time series: RoCC fair rate per CP (Gb/s)
 *   DIR/flow_rate.csv   time series: receive rate per flow (Gb/s), when sampled
 *   DIR/fct.txt         with [output] hpcc_fct = true: the HPCC simulator's FCT format
 *   DIR/flows.txt       with [output] hpcc_flows = true: the run's flows as an HPCC flow file
 * and a human summary on stdout.  Each file is written to a temporary name
 * and renamed into place, so a failed run never leaves a half-written file.
 */
#ifndef ROCC_REPORT_H
#define ROCC_REPORT_H

#include <stdio.h>

#include "engine/expect.h"
#include "engine/scenario.h"

struct run_info {
    const char *scenario_path;
    double wall_s;                 /* the event loop (scenario_run) */
    double setup_s;                /* process start to the first event: reading, building, scheduling */
    const struct expect_result *results;
    size_t n_results;
    const char *conservation;      /* "ok" or the violation */
};

/* Create DIR if needed and check a file can be written there: 0, or -1 with
 * why.  Called before a run so a bad -o fails in a second, not after it. */
int  report_check_dir(const char *dir, char *why, size_t why_len);
/* 0 or -1 with why (cannot create DIR or write a file). */
int  report_write(const struct scenario *sc, const struct run_info *ri, const char *dir, char *why, size_t why_len);
void report_print(const struct scenario *sc, const struct run_info *ri, FILE *out);

#endif
