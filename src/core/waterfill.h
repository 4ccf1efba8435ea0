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
 * Priority loads.  A use marked WF_PRIORITY (a flow's ACKs, sent in a
 * strict-priority class) takes coef * x_f of its resource ahead of the fair
 * share but does not limit the flow: congestion control acts on data, so a
 * flow is frozen only by resources its data crosses, and the ACKs it sends
 * across another bottleneck shrink what that bottleneck's own flows share.
 * The solution is then a fixed point: solve with the priority loads of the
 * current rates as fixed loads, recompute them from the new rates, repeat
 * until no rate moves by more than a relative 1e-12 (each step scales a
 * change by the priority coefficients, ~0.08 for ACKs, so a few rounds).
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
    uint32_t flags;                    /* WF_PRIORITY or 0 */
};
#define WF_PRIORITY 1u                 /* takes capacity, never limits the flow */
#define WF_ROUNDS   200                /* fixed-point rounds before giving up */

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
 * whose max-min rate is unbounded) or scratch memory is not available; 1
 * when priority loads did not reach a fixed point in WF_ROUNDS rounds
 * (rate[] then holds the last round's rates). */
int waterfill(uint32_t n, const double *cap, uint32_t m, const double *capacity, const double *fixed,
              const struct wf_use *use, size_t k, double *rate, uint32_t *limit);

/* load[m] receives each resource's total load in a solution: fixed loads
 * plus every use's coef * rate, priority uses included. */
void waterfill_load(uint32_t n, const double *rate, uint32_t m, const double *fixed, const struct wf_use *use,
                    size_t k, double *load);

#endif
