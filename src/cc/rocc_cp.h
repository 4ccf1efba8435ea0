/*
 * rocc_cp.h -- RoCC congestion point (CP): the fair-rate calculator of
 * Alg. 1 (Taheri et al., "RoCC", CoNEXT 2020, §3.2), in fixed point.
 *
 * Model: one struct rocc_cp per egress queue.  Every T the caller reads the
 * queue length in bytes and calls rocc_cp_update(), which runs
 * CALCULATE_FAIR_RATE once and returns the new fair rate F in ΔF units; the
 * caller then sends F to the flows its flow table selects (rocc_flowtable.h)
 * in CNPs (rocc_cnp.h).  Queue lengths are kept in ΔQ units, rates in ΔF
 * units (§3.2, Table 2).
 *
 * Fixed point.  α̃ and β̃ are unsigned Q16.16.  The PI step of Alg. 1 line 8
 *
 *     step = (α̃·(Qcur−Qref) + β̃·(Qcur−Qold)) / (2^16 · ratio)
 *
 * is computed exactly in int64 (numerator) and divided once by the power of
 * two 2^16·ratio, where ratio ∈ {1,2,...,32} is AUTO_TUNE's divisor (line
 * 19-20).  The division truncates toward zero (C `/`); in hardware this is
 * an arithmetic shift after adding (2^k − 1) to negative numerators.  Then
 * F ← F − step.  See rocc_cp_params.pi_round for the authors' variant.
 *
 * Nothing here allocates, does I/O or keeps global state.
 */
#ifndef ROCC_CP_H
#define ROCC_CP_H

#include <stddef.h>
#include <stdint.h>

/* How F − step is rounded (an addition to the brief's API). */
enum rocc_cp_round {
    /* step truncated toward zero, then F − step (default). */
    ROCC_CP_ROUND_TRUNC = 0,
    /* floor(F − exact step): what the authors' OMNeT++ code computes, since
     * it assigns the double F − a·(..) − b·(..) to an int and F − step > 0
     * whenever the result is not clamped to Fmin anyway (reference doc §1). */
    ROCC_CP_ROUND_AUTHORS = 1
};

/* What the Qmax branch of MD does (an addition to the paper; see
 * docs/rocc.md, "Several saturated CPs in series").
 *
 * FMIN, the paper (Alg. 1 line 3): F = Fmin.  Every flow with a packet in the
 * queue gets Fmin, which is below any other rate it may follow, so the CP
 * takes all of them over, including flows whose fair share is set by a
 * downstream CP.  They then climb back at the PI's smallest (F < Fmax/32)
 * gain.  When a CP carries mostly such flows, the auto-tune's F-level is
 * high while few flows follow F, the Qmax MD keeps recurring and every
 * recurrence resets all flows through the port: a limit cycle.
 * HALF: F = F/2, the same cut as the Qmid branch (line 5).  A flow limited
 * elsewhere at rate R is captured only if F/2 < R, and then at F/2, near
 * its fair share instead of at Fmin. */
enum rocc_cp_md_qmax {
    ROCC_CP_MDQ_FMIN = 0,   /* paper, default */
    ROCC_CP_MDQ_HALF = 1
};

struct rocc_cp_params {
    uint32_t q_unit_bytes;   /* ΔQ, 600 B (§6) */
    uint32_t f_unit_mbps;    /* ΔF, 10 Mb/s (§6) */
    uint32_t q_ref, q_mid, q_max;   /* in ΔQ units */
    uint32_t f_min, f_max;          /* in ΔF units */
    uint32_t alpha_q16, beta_q16;   /* α̃, β̃ as unsigned Q16.16 (0.3 -> 19661) */
    uint64_t period_ps;             /* T */
    uint32_t f_init;                /* F before the first update (our choice, see below) */
    uint32_t pi_round;              /* enum rocc_cp_round; default ROCC_CP_ROUND_TRUNC */
    uint32_t md_qmax;               /* enum rocc_cp_md_qmax; default ROCC_CP_MDQ_FMIN */
    uint32_t autotune_off;          /* 1: AUTO_TUNE off, the PI always uses α̃, β̃ (ratio 1).
                                     * Not the paper's algorithm: for stability experiments
                                     * (docs/stability.md); default 0 = Alg. 1 lines 15-21 */
};

/* Largest α̃/β̃ accepted (Q16.16 value 256.0): keeps every PI product inside
 * int64 for any uint32 queue length (2^24 · 2^32 · 2 < 2^63).  Not from the
 * paper; the paper's values (§6: ≤ 2.25) are far below it. */
#define ROCC_CP_MAX_GAIN_Q16 (1u << 24)

/* Fill params with the paper's defaults for a link of this speed:
 * 40G: Qref/Qmid/Qmax 150/300/360 KB (KB = 1000 B), α̃ 0.3, β̃ 1.5, Fmax 4000;
 * 100G: 300/600/660 KB, 0.45, 2.25, Fmax 10000; Fmin 10; T 40 µs (§6).
 * 10G: 75/150/210 KB, T 100 µs (§6.2); α̃/β̃ are not given for 10G: we use
 * 0.3/1.5 (the 40G values).
 * Other speeds: Fmax = link/ΔF, thresholds scaled linearly with link rate
 * from the 40G set (floored, then forced to 1 <= Qref < Qmid < Qmax),
 * α̃/β̃ and T from the nearest profile by ratio (link < 20G: 10G profile,
 * < 63.2G = √(40·100) G: 40G, else 100G).  Fmin = min(10, Fmax).
 * f_init = f_max; pi_round = ROCC_CP_ROUND_TRUNC; md_qmax = ROCC_CP_MDQ_FMIN. */
void rocc_cp_params_default(struct rocc_cp_params *p, uint64_t link_bps);

/* 0 if valid; otherwise fills why (e.g. "q_mid must be > q_ref") and returns -1.
 * Checks Qmax > Qmid > Qref > 0, 0 < Fmin <= Fmax <= INT32_MAX, units > 0,
 * period > 0, Fmin <= f_init <= Fmax, α̃,β̃ <= ROCC_CP_MAX_GAIN_Q16, pi_round
 * known, autotune_off 0 or 1.  why may be NULL or why_len 0. */
int rocc_cp_params_check(const struct rocc_cp_params *p, char *why, size_t why_len);

struct rocc_cp {
    int32_t  f;          /* current fair rate, ΔF units */
    uint32_t q_old;      /* ΔQ units */
    uint64_t n_updates, n_md_fmin, n_md_half, n_pi;  /* counters of which branch ran */
    uint64_t n_md_qmax;  /* Qmax-branch MDs (line 3), whatever md_qmax made them do */
    uint64_t n_clamp_min, n_clamp_max;  /* updates whose result was clamped (lines 9-12) */
    uint32_t last_ratio; /* AUTO_TUNE ratio of the last PI update; 0 if MD ran */
};

/* F ← f_init, Qold ← 0, counters zeroed. */
void     rocc_cp_init(struct rocc_cp *cp, const struct rocc_cp_params *p);

/* Which branch of Alg. 1 a computation took (struct rocc_cp_step). */
enum rocc_cp_branch {
    ROCC_CP_BR_PI = 0,        /* line 8 */
    ROCC_CP_BR_MDQ_FMIN = 1,  /* line 3, F = Fmin */
    ROCC_CP_BR_MDQ_HALF = 2,  /* line 3 with md_qmax = HALF: F = F/2 */
    ROCC_CP_BR_MD_HALF = 3    /* line 5, F = F/2 */
};
struct rocc_cp_step {
    uint8_t  branch;          /* enum rocc_cp_branch */
    uint8_t  clamp;           /* 0 none, 1 clamped to Fmax (line 10), 2 to Fmin (line 12) */
    uint32_t ratio;           /* AUTO_TUNE ratio when the PI ran, else 0 */
};

/* CALCULATE_FAIR_RATE (Alg. 1 lines 2-12) on explicit inputs: the fair rate
 * F before this period (ΔF units), Qcur and Qold (ΔQ units).  Returns the new
 * F.  This is the ONE implementation of the arithmetic: the switch-side CP
 * (rocc_cp_update) and the host-side computation of §3.6 (rocc_hostcp.h)
 * both call it, so the two give the same F for the same inputs.  Pure: no
 * state; st (may be NULL) says which branch ran, for counters. */
uint32_t rocc_cp_compute(const struct rocc_cp_params *p, int32_t f, uint32_t qcur, uint32_t q_old,
                         struct rocc_cp_step *st);

/* Queue bytes -> ΔQ units (integer division, saturating at UINT32_MAX):
 * the Qcur that rocc_cp_update feeds to rocc_cp_compute. */
uint32_t rocc_cp_qunits(const struct rocc_cp_params *p, uint64_t queue_bytes);

/* One run of CALCULATE_FAIR_RATE with the queue length in bytes: Qcur =
 * rocc_cp_qunits(queue_bytes), F = rocc_cp_compute(F, Qcur, Qold), then
 * Qold = Qcur (line 13) and the branch counters.  Returns the new F (ΔF units). */
uint32_t rocc_cp_update(struct rocc_cp *cp, const struct rocc_cp_params *p, uint64_t queue_bytes);

/* AUTO_TUNE's ratio (1,2,4,...,32) for fair rate f; exposed for tests.
 * Alg. 1 lines 16-19 with integer division Fmax/level, as the authors' code. */
uint32_t rocc_cp_autotune_ratio(int32_t f, uint32_t f_max);

static inline uint64_t rocc_cp_rate_bps(const struct rocc_cp_params *p, uint32_t f) { return (uint64_t)f * p->f_unit_mbps * 1000000ull; }

#endif
