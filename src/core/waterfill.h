/*
 * waterfill.h -- max-min fair rates by progressive filling (water-filling).
 *
 * Model.  n flows share m resources (links, one direction each).  Flow f
 * has a rate x_f and a cap c_f (its sender's limit; INFINITY for none).
 * Resource l has a capacity C_l, of which a fixed load L_l is already taken
 * (traffic whose rate does not follow any flow's: e.g. periodic control
 * frames), and flow f takes a_fl * x_f of it.  a_fl = 1 for a flow's own
 * data on its forward path; a flow also loads the links of its reverse path
 * with a smaller coefficient (its ACKs, a fraction of its data rate), so a
 * flow may load a resource without being "on" it in the usual sense.
 *
 * The max-min fair allocation (Bertsekas & Gallager, Data Networks, §6.5.2)
 * is found by raising every unfrozen flow's rate together from 0: at each
 * step the level t rises until either some resource fills,
 *     L_l + sum_{frozen f} a_fl x_f + t * sum_{unfrozen f} a_fl = C_l,
 * or some unfrozen flow reaches its cap.  Flows with a_fl > 0 on a filled
 * resource, and flows at their cap, freeze at t; the rest continue.  Each
 * step freezes at least one flow, so there are at most n steps, each
 * O(uses + m).  Ties (two resources filling at the same level, to a
 * relative 1e-12) freeze together, so the result does not depend on the
 * order resources are listed in.
 *
 * Pure: no I/O, no globals; memory only for the caller's scratch (one
 * allocation per call).  Units are the caller's (bit/s in roccsim).
 */
#ifndef ROCC_WATERFILL_H
#define ROCC_WATERFILL_H

#include <stddef.h>
#include <stdint.h>

/* Flow `flow` loads resource `res` with coef * its rate (coef > 0). */
struct wf_use {
    uint32_t flow, res;
    double coef;
};

/* What stopped a flow's rate from rising: a resource index, or this. */
#define WF_CAP    UINT32_MAX           /* its own cap */

/* Solve.  cap[n] (INFINITY = none), capacity[m], fixed[m] (may be NULL: no
 * fixed load), use[k].  Outputs: rate[n]; limit[n] (may be NULL) = the
 * resource that froze the flow, or WF_CAP.  When several fill at the level
 * the flow freezes at, limit is the first of them in use[] order (a cap
 * that is met at that level wins over a resource).  A resource whose fixed load
 * already meets its capacity gives its flows rate 0.  Returns 0, or -1 when
 * the input is malformed (an index out of range, a negative or NaN
 * coefficient, capacity or cap; a flow with neither a cap nor a resource,
 * whose max-min rate is unbounded) or scratch memory is not available. */
int waterfill(uint32_t n, const double *cap, uint32_t m, const double *capacity, const double *fixed,
              const struct wf_use *use, size_t k, double *rate, uint32_t *limit);

/* Resource l is full in a solution when its load is within a relative
 * 1e-9 of its capacity; load[m] receives each resource's total load. */
void waterfill_load(uint32_t n, const double *rate, uint32_t m, const double *fixed, const struct wf_use *use,
                    size_t k, double *load);

#endif
