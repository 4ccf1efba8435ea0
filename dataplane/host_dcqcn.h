/*
 * host_dcqcn.h -- rocc-host --cc dcqcn: DCQCN's reaction point (src/cc/
 * dcqcn.c, called unchanged) as the sender's rate limiter, driven by
 * RoCEv2 CNPs (BTH opcode 0x81).  LSCC's local sources run DCQCN and react
 * to the local egress switch's direct CNPs (LSCC §III-B; rocc-switch
 * --lscc, docs/crossdc.md "Data plane").
 *
 * A flow's rate is min(DCQCN's RC, the RoCC RP's rate, the flow's rate=).
 * A RoCEv2 CNP counts only if it is well-formed (pkt_roce_cnp_ok: 74
 * bytes, reserved bytes zero), comes from the flow's destination (DCQCN's
 * NP at the receiver) or from inside --cp-allow (a switch: LSCC's direct
 * CNP), and names the flow's QP (dest QPN = the flow's qpn=; flows of one
 * host need distinct qpn=).  Refusals are counted (final dcqcn).  A CNP
 * takes effect when it arrives (no --cnp-delay-us).
 *
 * --dcqcn KEY=V[,KEY=V...] overrides DCQCN's paper-profile parameters
 * (dcqcn.h): rai, rhai, rmin (Mb/s), timer, k (the α period), (µs), bc
 * (byte counter, bytes; 0 = none), f (fast-recovery steps), g (α gain).
 * This host has no NP: it sends no CNPs for CE-marked frames.
 */
#ifndef DP_HOST_DCQCN_H
#define DP_HOST_DCQCN_H

#include "host.h"
#include "dcqcn.h"

struct host_dcqcn {
    struct dcqcn_params p;
    struct dcqcn st[MAX_FLOWS];
    /* --dcqcn overrides (applied at init, when the line rate is known); < 0: not given */
    double o_rai, o_rhai, o_rmin, o_timer, o_k, o_bc, o_f, o_g;
    uint64_t next_ps;             /* earliest deadline of any flow (UINT64_MAX: none) */
    uint64_t cnp_ok, cnp_bad, cnp_denied, cnp_nomatch;
};

/* --cc NAME: "dcqcn" allocates h->dc; "none" frees it.  0, or -1. */
int hdc_opt_cc(struct host *h, const char *name);
/* --dcqcn KEY=V,...: 0, or -1 with a message on stderr.  Needs --cc dcqcn first. */
int hdc_opt_params(struct host *h, char *spec);
/* Parameters for the line rate, every flow's RP at line rate.  0, or -1 (said on stderr). */
int hdc_init(struct host *h);
/* DCQCN's rate of flow f (b/s). */
uint64_t hdc_rate_bps(const struct host *h, const struct flow *f);
/* A RoCEv2 frame with opcode 0x81 arrived for us. */
void hdc_on_cnp(struct host *h, const uint8_t *f, uint32_t len, const struct pkt_info *pi, uint64_t tsc);
/* Run the timers due at tps (rates change: the pacer follows). */
void hdc_timers(struct host *h, uint64_t tps);
/* Flow i sent bytes (the byte counter). */
void hdc_on_sent(struct host *h, unsigned i, uint64_t bytes, uint64_t tsc);
/* TSC of the next DCQCN deadline (UINT64_MAX: none). */
uint64_t hdc_next_tsc(const struct host *h);
void hdc_print_final(const struct host *h);

#endif
