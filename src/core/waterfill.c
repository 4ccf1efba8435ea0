/* waterfill.c -- max-min fair rates by progressive filling; see waterfill.h. */
#include "core/waterfill.h"

#include <math.h>
#include <stdlib.h>

/* Two levels this close (relative) are the same level: resources and caps
 * that fill "together" in exact arithmetic must freeze together, or the
 * answer would depend on rounding in the last bit. */
#define WF_TIE 1e-12

static int same_or_below(double a, double b)
{
    return a <= b + fabs(b) * WF_TIE;
}

/* One progressive filling over the non-priority uses; fixed[] includes the
 * priority loads.  Scratch: frozen[n], full[m], load[m], slope[m]. */
static int fill(uint32_t n, const double *cap, uint32_t m, const double *capacity, const double *fixed,
                const struct wf_use *use, size_t k, double *rate, uint32_t *limit, unsigned char *mem)
{
    double *load = (double *)mem, *slope = load + m;
    unsigned char *frozen = (unsigned char *)(slope + m), *full = frozen + n;
    for (uint32_t f = 0; f < n; f++) {
        frozen[f] = 0;
        rate[f] = 0;
        if (limit)
            limit[f] = WF_CAP;
    }
    uint32_t left = n;
    double level = 0;
    int rc = 0;
    while (left > 0) {
        for (uint32_t l = 0; l < m; l++) {
            load[l] = fixed ? fixed[l] : 0;
            slope[l] = 0;
            full[l] = 0;
        }
        for (size_t u = 0; u < k; u++) {
            if (use[u].flags & WF_PRIORITY)
                continue;                         /* in fixed[] */
            if (frozen[use[u].flow])
                load[use[u].res] += use[u].coef * rate[use[u].flow];
            else
                slope[use[u].res] += use[u].coef;
        }
        /* The next level: the lowest at which a resource fills or a cap is met. */
        double next = INFINITY;
        for (uint32_t l = 0; l < m; l++) {
            if (slope[l] <= 0)
                continue;
            double t = (capacity[l] - load[l]) / slope[l];
            if (t < level)
                t = level;                        /* already full (fixed load, rounding) */
            if (t < next)
                next = t;
        }
        for (uint32_t f = 0; f < n; f++)
            if (!frozen[f] && cap[f] < next)
                next = cap[f] < level ? level : cap[f];
        if (isinf(next)) {                        /* a flow nothing limits */
            rc = -1;
            break;
        }
        level = next;
        for (uint32_t l = 0; l < m; l++)
            if (slope[l] > 0 && same_or_below((capacity[l] - load[l]) / slope[l], level))
                full[l] = 1;
        uint32_t froze = 0;
        for (uint32_t f = 0; f < n; f++) {
            if (!frozen[f] && same_or_below(cap[f], level)) {
                rate[f] = cap[f] < level ? cap[f] : level;
                frozen[f] = 1;
                froze++;
            }
        }
        for (size_t u = 0; u < k; u++) {
            uint32_t f = use[u].flow;
            if (!frozen[f] && full[use[u].res] && !(use[u].flags & WF_PRIORITY)) {
                rate[f] = level;
                if (limit)
                    limit[f] = use[u].res;
                frozen[f] = 1;
                froze++;
            }
        }
        if (froze == 0) {                         /* cannot happen; never loop forever */
            rc = -1;
            break;
        }
        left -= froze;
    }
    return rc;
}

int waterfill(uint32_t n, const double *cap, uint32_t m, const double *capacity, const double *fixed,
              const struct wf_use *use, size_t k, double *rate, uint32_t *limit)
{
    for (uint32_t f = 0; f < n; f++)
        if (!(cap[f] >= 0))                       /* also rejects NaN */
            return -1;
    for (uint32_t l = 0; l < m; l++)
        if (!(capacity[l] >= 0) || (fixed && !(fixed[l] >= 0)))
            return -1;
    int prio = 0;
    for (size_t u = 0; u < k; u++) {
        if (use[u].flow >= n || use[u].res >= m || !(use[u].coef > 0) || isinf(use[u].coef))
            return -1;
        prio |= (use[u].flags & WF_PRIORITY) != 0;
    }
    if (n == 0)
        return 0;
    /* scratch for fill(); with priority uses also the fixed loads of a
     * round and the previous round's rates */
    unsigned char *mem = malloc(2 * (size_t)m * sizeof(double) + (size_t)n + m + 1);
    double *fx = prio ? malloc(((size_t)m + n) * sizeof *fx) : NULL;
    if (!mem || (prio && !fx)) {
        free(mem);
        free(fx);
        return -1;
    }
    int rc;
    if (!prio) {
        rc = fill(n, cap, m, capacity, fixed, use, k, rate, limit, mem);
    } else {
        double *prev = fx + m;
        for (uint32_t f = 0; f < n; f++)
            prev[f] = 0;                          /* round 1: no priority load yet */
        rc = 1;
        for (int round = 0; round < WF_ROUNDS; round++) {
            for (uint32_t l = 0; l < m; l++)
                fx[l] = fixed ? fixed[l] : 0;
            for (size_t u = 0; u < k; u++)
                if (use[u].flags & WF_PRIORITY)
                    fx[use[u].res] += use[u].coef * prev[use[u].flow];
            if (fill(n, cap, m, capacity, fx, use, k, rate, limit, mem)) {
                rc = -1;
                break;
            }
            double moved = 0;
            for (uint32_t f = 0; f < n; f++) {
                double d = fabs(rate[f] - prev[f]) / (rate[f] > 1 ? rate[f] : 1);
                moved = d > moved ? d : moved;
                prev[f] = rate[f];
            }
            if (moved <= WF_TIE) {
                rc = 0;
                break;
            }
        }
    }
    free(mem);
    free(fx);
    return rc;
}

void waterfill_load(uint32_t n, const double *rate, uint32_t m, const double *fixed, const struct wf_use *use,
                    size_t k, double *load)
{
    (void)n;
    for (uint32_t l = 0; l < m; l++)
        load[l] = fixed ? fixed[l] : 0;
    for (size_t u = 0; u < k; u++)
        load[use[u].res] += use[u].coef * rate[use[u].flow];
}
