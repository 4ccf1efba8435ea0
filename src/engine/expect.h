/*
 * expect.h -- the [expect] section: checks a scenario makes on its own run.
 *
 * Each entry is   METRIC [SELECTOR] [@ T0..T1] = TARGET
 *   METRIC     rate, rate_mean, jain, rate_ratio, completed
 *                                                      (SELECTOR: a flow group or "all")
 *              maxmin_error                           (SELECTOR: a flow group or "all";
 *                                                       largest |rate - max-min rate| /
 *                                                       max-min rate, expect_maxmin.c)
 *              queue_mean, queue_p99, queue_max, fair_rate, settle, util
 *                                                      (SELECTOR: a port "SW->NEXT")
 *              drops, pfc_pauses, timeouts, retx_bytes, cnps
 *                                                      (no selector; whole run)
 *              fct_avg, fct_p99, slowdown_avg, slowdown_p99
 *                                                      (SELECTOR: all, background or incast;
 *                                                       the flows of the [fct] window)
 *              oq_value, oq_value_share, oq_drops, oq_pushed_out, oq_marked
 *                                                      (no selector; whole run, the
 *                                                       [openqueue] ports, oqsel.h)
 *              deadlock = none | detected             (no selector; the deadlock
 *                                                       detector's finding, deadlock.h)
 *              out_of_order                           (no selector; whole run: data
 *                                                       frames that arrived out of order)
 *   T0..T1     window (default: [sim] measure_start..measure_end)
 *   TARGET     X ±TOL | X +- TOL   (TOL absolute, or a % of X)
 *              >= X | <= X | X..Y  | X  (exact)
 * X takes the metric's unit: rates "4Gbps", bytes "150KB", times "2ms",
 * plain numbers for jain/counts, "95%" or 0.95 for util and completed.
 * "rate" checks every flow of the selector; the others one number.
 * Parsing happens before the run, so a typo fails fast (exit 2).
 */
#ifndef ROCC_EXPECT_H
#define ROCC_EXPECT_H

#include "engine/scenario.h"

struct expect_result {
    char check[160];       /* the key as written */
    char target[96];
    char measured[160];
    int  pass;
};

struct expectations;
/* NULL with err on a malformed entry; an empty list if there is no [expect]. */
struct expectations *expect_parse(struct scenario *sc, struct cfg_err *err);
/* Evaluate all; results[] has expect_count() entries; returns failures. */
int expect_eval(const struct expectations *ex, const struct scenario *sc, struct expect_result *results);
size_t expect_count(const struct expectations *ex);
void expect_free(struct expectations *ex);

#endif
