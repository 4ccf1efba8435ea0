/*
 * expect_maxmin.c -- the [expect] check `maxmin_error GROUP [@ T0..T1] <= X`:
 * the largest relative difference between a long-lived flow's receive rate
 * and its max-min fair rate (engine/maxmin.h).  Kept apart from expect.c,
 * which only routes the metric here.
 *
 * The oracle is built while [expect] is parsed, before the run, so a window
 * in which flows start or stop, or one without long-lived flows, fails
 * fast (exit 2) like every other malformed expectation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/units.h"
#include "engine/maxmin.h"

struct maxmin *expect_maxmin_parse(const struct scenario *sc, uint32_t g, simtime_t t0, simtime_t t1,
                                   const struct cfg_entry *e, struct cfg_err *err)
{
    char why[320], a[32], b[32];
    if (!sc->flow_series) {
        cfg_errorf(err, e, "per-flow rates are not sampled (more flows than [sim] flow_series_max)");
        return NULL;
    }
    struct maxmin *mm = calloc(1, sizeof *mm);
    if (!mm) {
        cfg_errorf(err, e, "out of memory");
        return NULL;
    }
    if (maxmin_build(mm, sc, t0, t1, why, sizeof why)) {
        cfg_errorf(err, e, "%s", why);
        free(mm);
        return NULL;
    }
    if (maxmin_count(mm, sc, g) == 0) {
        cfg_errorf(err, e, "no long-lived flow%s%s in the window %s..%s (the oracle takes flows with size = inf "
                   "that run the whole window)", g == NONE32 ? "" : " of group ", g == NONE32 ? "" : sc->groups[g].name,
                   units_fmt_time(t0, a, sizeof a), units_fmt_time(t1, b, sizeof b));
        maxmin_free(mm);
        free(mm);
        return NULL;
    }
    return mm;
}

double expect_maxmin_eval(struct maxmin *mm, const struct scenario *sc, uint32_t g, char *out, size_t len)
{
    char name[64], m[32], o[32];
    uint32_t worst;
    maxmin_measure(mm, sc);
    if (mm->interfering) {
        snprintf(out, len, "%u sized flow%s sent in the window: the oracle covers long-lived flows only",
                 mm->interfering, mm->interfering > 1 ? "s" : "");
        return NAN;
    }
    double e = maxmin_max_error(mm, sc, g, &worst);
    if (worst == NONE32) {
        snprintf(out, len, "no rate measured");
        return NAN;
    }
    const struct mm_flow *w = &mm->f[worst];
    maxmin_flow_name(sc, w->flow, name, sizeof name);
    snprintf(out, len, "max %.3f%% over %u flows (%s: %s, oracle %s)%s", e * 100, maxmin_count(mm, sc, g), name,
             units_fmt_rate(w->measured_bps, m, sizeof m), units_fmt_rate(w->oracle_bps, o, sizeof o),
             mm->settled ? "" : " (CNP load did not settle)");
    return e;
}

void expect_maxmin_free(struct maxmin *mm)
{
    maxmin_free(mm);
    free(mm);
}
