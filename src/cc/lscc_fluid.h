/*
 * lscc_fluid.h -- a fluid model of LSCC's split loop over one long-haul
 * link, driven by librocc's own state machines: Alg. 1 (lscc_rc) at the
 * remote egress, Alg. 2 (lscc_rl) at the local egress and DCQCN (dcqcn)
 * at the sources.  It answers one question the packet simulator cannot
 * separate: is an oscillation of the remote queue Alg. 1's own, or does it
 * come from sources that do not follow R?  (docs/stability.md "LSCC's loop".)
 *
 * The model, per integration step dt (1 µs by default):
 *
 *   M sources -- rate r_i --> local egress (Q*, flow table) -- D -->
 *       remote egress queue Qcur, drained at C when backlogged
 *   every T: R = Alg. 1 (Qcur, bytes that left in T); R reaches the local
 *       egress D later (Q* drains at it from then on);
 *   every direct-CNP interval: Alg. 2's tick; each flow it names gets a
 *       CNP at once (the local fabric's delay is neglected).
 *
 *   sources = DCQCN: r_i = min(RC_i, NIC rate), RC_i from dcqcn_* (timers,
 *       byte counter, CNPs from the tick);
 *   sources = IDEAL: r_i = min(R_local / M, NIC rate), where R_local is the
 *       last R the local egress received: sources that follow R exactly.
 *
 * Left out on purpose (the packet simulator has them): PFC and buffer
 * limits (Qcur and Q* are unbounded, so a start at R = Rmax overshoots far
 * more than the simulator's paused fabric does), ECN marking and the
 * receivers' normal CNPs, the intra-datacenter delays, packets.  Bytes
 * move in whole units with each flow's fractional remainder carried, so no
 * rate is lost to truncation.
 *
 * Pure: no I/O, no globals; the caller gives the storage
 * (lscc_fluid_storage_bytes) and may watch every period through a callback.
 */
#ifndef ROCC_LSCC_FLUID_H
#define ROCC_LSCC_FLUID_H

#include <stddef.h>
#include <stdint.h>

#include "dcqcn.h"
#include "lscc.h"

#define LSCC_FLUID_MAX_FLOWS 1024u
/* Longest run the model takes: 60 s of simulated time (our bound: keeps the
 * per-period sample array below 2.4 MB at T = 200 µs). */
#define LSCC_FLUID_MAX_PS (60ull * 1000000000000ull)
/* Most work one run may take: (flows + 1) × duration / step "flow-steps";
 * 2·10^9 is about a minute here (1024 flows over 300 ms: 32 ns per
 * flow-step measured).  Our bound, so that no accepted input runs for
 * hours. */
#define LSCC_FLUID_MAX_WORK 2000000000ull
/* Longest one-way delay in steps: the delay line holds D / dt + 1 rates
 * (8 bytes each: 800 MB at the bound).  Ours. */
#define LSCC_FLUID_MAX_DELAY_STEPS 100000000ull

enum lscc_fluid_sources { LSCC_FLUID_DCQCN = 0, LSCC_FLUID_IDEAL = 1 };

struct lscc_fluid_params {
    uint32_t flows;            /* M long-lived sources (Fig. 8: 4) */
    uint32_t sources;          /* enum lscc_fluid_sources */
    uint64_t nic_bps;          /* each source's line rate (Fig. 8: 40 Gb/s) */
    uint64_t bottleneck_bps;   /* drain of the remote queue (one 40 Gb/s
                                  server link in Fig. 8) */
    uint64_t one_way_ps;       /* long-haul one-way delay D */
    uint64_t start_ps;         /* the first source starts here */
    uint64_t stagger_ps;       /* source i starts at start + i·stagger (Fig. 9a:
                                  0.5 s); 0: all at once */
    uint64_t duration_ps;      /* end of the run */
    uint64_t measure_ps;       /* the window's start; it ends at duration */
    uint64_t step_ps;          /* dt; divides T, the direct-CNP interval, D */
    struct lscc_rc_params rc;  /* Alg. 1 */
    struct lscc_rl_params rl;  /* Alg. 2 */
    struct dcqcn_params dcqcn; /* the sources (sources = DCQCN) */
};

/* The Fig. 8 setting with the project's defaults: 4 flows, 40 Gb/s NICs and
 * bottleneck, a 200 Gb/s, 1 ms long-haul link, lscc_rc/rl defaults, DCQCN's
 * paper profile, 300 ms measured over the second half, dt = 1 µs. */
void lscc_fluid_params_default(struct lscc_fluid_params *p);

/* 0, or -1 and a reason in why.  lscc_fluid_params_blame does the same and
 * ORs into *blame the bits of the parameters that failed: LSCC_BLAME_ (the
 * loop's, lscc.h) and LSCC_FLUID_BLAME_ (the model's, below). */
int lscc_fluid_params_check(const struct lscc_fluid_params *p, char *why, size_t why_len);
int lscc_fluid_params_blame(const struct lscc_fluid_params *p, unsigned *blame, char *why, size_t why_len);
#define LSCC_FLUID_BLAME_FLOWS      (1u << 16)
#define LSCC_FLUID_BLAME_SOURCES    (1u << 17)
#define LSCC_FLUID_BLAME_NIC        (1u << 18)
#define LSCC_FLUID_BLAME_BOTTLENECK (1u << 19)
#define LSCC_FLUID_BLAME_STEP       (1u << 20)
#define LSCC_FLUID_BLAME_DELAY      (1u << 21)
#define LSCC_FLUID_BLAME_DURATION   (1u << 22)
#define LSCC_FLUID_BLAME_MEASURE    (1u << 23)
#define LSCC_FLUID_BLAME_START      (1u << 24)
#define LSCC_FLUID_BLAME_STAGGER    (1u << 25)
#define LSCC_FLUID_BLAME_DCQCN      (1u << 26)   /* the sources' DCQCN parameters (from the NIC rate) */

/* Bytes of storage a run of p needs (0 if p does not check). */
size_t lscc_fluid_storage_bytes(const struct lscc_fluid_params *p);

/* One period, for the series callback. */
struct lscc_fluid_sample {
    uint64_t t_ps;             /* end of the period */
    uint64_t qcur_bytes;       /* remote queue */
    uint64_t qstar_bytes;      /* pseudo-queue Q* */
    uint64_t r_bps;            /* R just computed by Alg. 1 */
    int64_t  ra_sent_bps;      /* Alg. 1's Σ Ra_list after the update */
    uint64_t br_bps;           /* BR of this period */
    uint64_t r_local_bps;      /* the R the local egress drains Q* at */
    uint64_t src_bps;          /* Σ source rates at the period's end */
    uint32_t direct_cnps;      /* flows named by Alg. 2 in this period */
};

struct lscc_fluid_result {
    uint32_t flows;
    double   flow_mean_bps[LSCC_FLUID_MAX_FLOWS]; /* over the window */
    double   jain;
    double   util;             /* bytes out of the remote queue / (C · window) */
    uint64_t samples;          /* periods in the window */
    double   qcur_mean_bytes;
    uint64_t qcur_p50_bytes, qcur_p99_bytes, qcur_max_bytes;
    double   near_qref;        /* share of samples with Qref/2 <= Qcur <= 1.5 Qref */
    double   qstar_mean_bytes;
    uint64_t qstar_max_bytes;
    uint64_t r_min_bps, r_max_bps;
    double   r_mean_bps;
    uint64_t qcur_max_run_bytes;   /* over the whole run (start-up included) */
    uint64_t direct_cnps;          /* whole run */
};

/* Runs the model.  storage: lscc_fluid_storage_bytes(p) bytes (any
 * alignment of malloc).  series, if not NULL, sees every period.  Returns 0,
 * or -1 with why when p does not check. */
int lscc_fluid_run(const struct lscc_fluid_params *p, void *storage, struct lscc_fluid_result *res,
                   void (*series)(void *ctx, const struct lscc_fluid_sample *s), void *ctx,
                   char *why, size_t why_len);

#endif
