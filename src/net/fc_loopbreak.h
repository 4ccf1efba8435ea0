/*
 * fc_loopbreak.h -- the flow-control schemes "loop_breaker" (LB) and
 * "deadlock_breaker" (DLB) of the simulator's switch: the token-passing
 * credit-loop detector of src/cc/loopbreak.h (Shpiner et al., HotNets'16;
 * the dissertation's §4.6.4 baselines) plugged into flowctl.h.
 *
 * Glue only (docs/escape.md "Loop Breaker and Deadlock Breaker"):
 *   - the scheme timer runs lb_tick every tick with each egress port's
 *     queued lossless-class bytes and its count of lossless bytes sent
 *     (on_tx: the only per-frame cost, in LB/DLB runs only);
 *   - tokens are PKT_FCTL frames (subtypes FC_SUB_LB_DETECT/RELEASE): hops
 *     in packet.hops, origin SPUID in packet.cp_id, round in packet.seq.
 *     A token from a host-facing port, or one the state machine finds
 *     malformed, is refused (net.fctl_bad) with no effect;
 *   - when a token arrives the ingress-egress table row of its ingress is
 *     recounted by scanning the suspected egress queues (lb_set_dep), so
 *     no frame pays for the table;
 *   - LB's DROP: every lossless data frame queued at the master's loop
 *     egress that came in on the loop ingress is extracted and dropped
 *     (fc_extract + fc_drop_held), counted in net.fc_drops and the
 *     scheme's lb_drops;
 *   - DLB's GRANT/UNGRANT: fc_grant_buffer on the ingress's lossless
 *     classes.
 */
#ifndef ROCC_NET_FC_LOOPBREAK_H
#define ROCC_NET_FC_LOOPBREAK_H

#include "net/flowctl.h"
#include "loopbreak.h"

/* PKT_FCTL subtypes of the two schemes' tokens (fc_sub; our choice). */
#define FC_SUB_LB_DETECT  0x21
#define FC_SUB_LB_RELEASE 0x22

extern const struct fc_ops fc_loop_breaker;
extern const struct fc_ops fc_deadlock_breaker;

/* Per-switch state for switch s with parameters p (p->mode says LB or
 * DLB); NULL without memory or with bad parameters.  Install it with
 * fc_install(n, s, &fc_loop_breaker or &fc_deadlock_breaker, state) and
 * start it with fc_timer_arm(n, s, n->el.now + p->tick_ps). */
void *fc_lb_new(struct net *n, struct sw *s, const struct lb_params *p);

/* Totals over every switch running LB or DLB. */
struct fc_lb_totals {
    uint32_t switches;
    uint64_t loops, originated, forwarded, dead_end, suppressed, expired, malformed, refused_host;
    uint64_t grants, release_done, release_refused;
    uint64_t drops, drop_bytes;          /* LB: frames dropped to break loops */
    simtime_t first_loop_ps, last_loop_ps;   /* SIMTIME_NEVER / 0 when none */
};
void fc_lb_totals(const struct net *n, struct fc_lb_totals *t);

/* Over several MPI ranks (scenario.fc_merge): gives rank 0 every loop
 * breaker's counters and loop times.  reduce(v, k, max) sums (max = 0) or
 * takes the maximum (max = 1) of k values over the ranks into rank 0.
 * Only the owner of a switch changes them from their set-up values
 * (counters 0, first loop never, last loop 0).  Every rank calls it with
 * the same switches. */
void fc_lb_merge(struct net *n, void (*reduce)(uint64_t *v, size_t k, int max));

#endif
