/*
 * lscc.h -- LSCC, link-segmented congestion control for cross-datacenter
 * RDMA (Long, Han, Wang, Yang, Xue, "LSCC: Link-Segmented Congestion
 * Control for RDMA in Cross-Datacenter Networks", §III; the paper text is
 * ../shared/papers/lscc-cross-datacenter-rdma-cc.txt).
 *
 * Two modules sit at the two ends of the long-haul link and split the
 * feedback loop there (§III-A, Fig. 3):
 *
 *   rate calculation (lscc_rc, Alg. 1) at the REMOTE egress switch, on the
 *     ingress queue of its long-haul port: every T it turns the bytes queued
 *     from that port (Qcur) and the average rate at which they left during
 *     the period (BR) into a feedback rate R for the sending side, sent in a
 *     prioritized ICMP message in ΔF units.
 *   rate limiting (lscc_rl, Alg. 2) at the LOCAL egress switch, on the
 *     egress queue of its long-haul port: a pseudo-queue Q* fed by the real
 *     input and drained at the last received R, and a flow table; whenever
 *     Q* >= Q*ref it sends direct CNPs to the local DCQCN sources whose CNP
 *     bit is set or that are still short.
 *
 * Alg. 1, as implemented (lscc_rc_update), with rates in bit/s:
 *     Ra_sent ← Σ Ra_list                       (the N adjustments in flight)
 *     Ra ← (Qcur − Qref)·8/T − Ra_sent           (Eq. 2's bracket)
 *     R  ← BR − Ra
 *     R  ← R_last ± ΔR if it moved further       (lines 4-7)
 *     R  ← clamp(R, Rmin, Rmax)                  (lines 8-11)
 *     R  ← ⌊R/ΔF⌋·ΔF                             (the message's unit, §III-B
 *                                                  "Deployment"; ours to do it here)
 *     R_last ← R;  Ra ← BR − R;  push Ra, drop the oldest (lines 12-16)
 * The list is a ring of N entries with a running sum: the same FIFO as
 * lines 14-16.  Divisions truncate toward zero (C `/`), ours.
 *
 * Alg. 2, as implemented: see struct lscc_rl below.  Interpretations where
 * the listing is terse (all ours, docs/crossdc.md lists them):
 *   - ResetTable (line 7) clears the CNP bits of every entry; TxBytes is the
 *     flow's running total (a per-period TxBytes could never exceed a BDP
 *     threshold, every flow would stay "short").  Entries without a packet
 *     for idle_ps are freed at the next tick.
 *   - SendDirectCNP runs every cnp_interval_ps (default T) and does
 *     nothing, ResetTable included, while Q* < Q*ref (lines 2-3).
 *   - A CNP from the remote side is reported with the key of the DATA flow
 *     it answers (the caller swaps source and destination); a CNP for an
 *     unknown flow inserts it (line 13 reads as a map update).
 *   - Before the first feedback message Q* drains at r_init_bps (default:
 *     the long-haul line rate, what the remote side starts from).
 *   - A full table does not track the flow (n_full counts it): it gets no
 *     direct CNP, like an innocent long flow.
 *
 * Nothing here allocates, does I/O or keeps global state; time is passed in
 * as integer picoseconds.  The flow table's slots are the caller's storage.
 */
#ifndef ROCC_LSCC_H
#define ROCC_LSCC_H

#include <stddef.h>
#include <stdint.h>

#include "cc_util.h"

/* Longest feedback list (N = 2D/T); 256 periods of 200 µs cover a 25.6 ms
 * one-way delay.  Our bound, keeps struct lscc_rc fixed-size. */
#define LSCC_MAX_N 256u
/* Largest rate any parameter or BR may take (2^48 b/s ≈ 281 Tb/s): keeps
 * every sum of Alg. 1 inside int64.  Our bound. */
#define LSCC_RATE_LIMIT_BPS (1ull << 48)
/* Feedback field width: 24 bits, as HPCC*'s rate field (§III-D: "HPCC* adds
 * an additional 24 bits to record B"); the paper gives no width for LSCC's
 * ICMP message, we use the same one. */
#define LSCC_FB_BITS 24u
#define LSCC_FB_MAX  ((1u << LSCC_FB_BITS) - 1u)

/* ---------------------------------------------------------------- Alg. 1 */

struct lscc_rc_params {
    uint64_t period_ps;     /* T: 200 µs (§III-C "T") */
    uint32_t n;             /* N = 2D/T feedback-list length (§III-B, Fig. 5) */
    uint64_t q_ref_bytes;   /* Qref: 2 MB (§IV-B; §IV-C uses 5 MB) */
    uint64_t dr_bps;        /* ΔR: 1 Gb/s (§IV-B) */
    uint64_t r_min_bps;     /* Rmin: no value in the paper; ours, see lscc.c */
    uint64_t r_max_bps;     /* Rmax: the long-haul line rate (§III-B: "R is
                               always smaller than R_out", lines 10-11) */
    uint64_t f_unit_bps;    /* ΔF: 1 Mb/s, ours (§III-B names the unit only) */
    uint64_t r_init_bps;    /* R_last before the first update: Rmax, ours */
};

/* Defaults for a long-haul link of link_bps and one-way delay one_way_ps:
 * T 200 µs, N = lscc_n_for(one_way_ps, T), Qref 2 MB, ΔR 1 Gb/s,
 * Rmax = r_init = link, Rmin 100 Mb/s, ΔF 1 Mb/s. */
void lscc_rc_params_default(struct lscc_rc_params *p, uint64_t link_bps, uint64_t one_way_ps);

/* N = 2D/T rounded to the nearest integer, at least 1 (§III-B assumes the
 * RTT is a multiple of T; rounding is ours).  May exceed LSCC_MAX_N: the
 * params check then refuses it. */
uint32_t lscc_n_for(uint64_t one_way_ps, uint64_t period_ps);

/* What a failed parameter check blames: one bit per parameter, so that
 * the caller can name its own key or option for each (a scenario's
 * [lscc] key, `stability lscc`'s option) beside the check's reason. */
#define LSCC_BLAME_PERIOD       (1u << 0)    /* T */
#define LSCC_BLAME_N            (1u << 1)    /* N = 2D/T: the period and the delay */
#define LSCC_BLAME_DF           (1u << 2)    /* ΔF, the feedback unit */
#define LSCC_BLAME_DR           (1u << 3)    /* ΔR */
#define LSCC_BLAME_RMAX         (1u << 4)    /* Rmax (the long-haul rate) */
#define LSCC_BLAME_RMIN         (1u << 5)
#define LSCC_BLAME_RINIT        (1u << 6)    /* R before the first update */
#define LSCC_BLAME_QREF         (1u << 7)
#define LSCC_BLAME_QREF_PSEUDO  (1u << 8)    /* Alg. 2's Q*ref */
#define LSCC_BLAME_CNP_INTERVAL (1u << 9)
#define LSCC_BLAME_LONG_FLOW    (1u << 10)
#define LSCC_BLAME_TABLE        (1u << 11)   /* flow-table capacity */
#define LSCC_BLAME_IDLE         (1u << 12)
#define LSCC_BLAME_DRAIN_INIT   (1u << 13)   /* Q*'s drain rate before feedback */

/* cc_fail that also ORs `bits` into *blame (when blame is not NULL). */
static inline int lscc_fail(unsigned *blame, unsigned bits, char *why, size_t why_len, const char *msg)
{
    if (blame)
        *blame |= bits;
    return cc_fail(why, why_len, msg);
}

/* 0 if valid; otherwise why names the key and -1.  Requires T > 0,
 * 1 <= N <= LSCC_MAX_N, ΔF > 0, Rmin, Rmax, ΔR multiples of ΔF,
 * Rmin <= r_init <= Rmax <= LSCC_RATE_LIMIT_BPS, Rmax > 0, 0 < ΔR <= Rmax,
 * Rmax/ΔF <= LSCC_FB_MAX, Qref <= 2^40 B.  lscc_rc_params_blame does the
 * same and ORs the LSCC_BLAME_ bits of what failed into *blame. */
int lscc_rc_params_check(const struct lscc_rc_params *p, char *why, size_t why_len);
int lscc_rc_params_blame(const struct lscc_rc_params *p, unsigned *blame, char *why, size_t why_len);

struct lscc_rc {
    int64_t  ra_list[LSCC_MAX_N];  /* ring: the last N values of Ra (line 13) */
    uint32_t head;                 /* slot of the next push (= the oldest) */
    int64_t  ra_sum;               /* Σ ra_list: Ra_sent (line 1) */
    int64_t  r_last;               /* R_last, b/s */
    int64_t  br_bps;               /* BR of the last update (for traces) */
    int64_t  ra_bps;               /* Ra of line 2 in the last update (traces) */
    uint64_t n_updates;
    uint64_t n_clamp_up, n_clamp_down;   /* ΔR clamps, lines 4-5 / 6-7 */
    uint64_t n_clamp_min, n_clamp_max;   /* lines 8-9 / 10-11 */
};

/* R_last ← r_init, list zeroed, counters zeroed. */
void lscc_rc_init(struct lscc_rc *rc, const struct lscc_rc_params *p);

/* One run of Alg. 1.  q_bytes: the ingress queue of the long-haul port now
 * (Qcur); egress_bytes: the bytes of that queue that left the switch during
 * the period just ended, so BR = egress_bytes·8/T (§III-B: "the statistical
 * average bottleneck rate, the sum of the rates of all egress ports within
 * T").  Returns R in b/s, a multiple of ΔF. */
uint64_t lscc_rc_update(struct lscc_rc *rc, const struct lscc_rc_params *p, uint64_t q_bytes, uint64_t egress_bytes);

/* Feedback field: R in ΔF units (saturating at LSCC_FB_MAX) and back. */
uint32_t lscc_rate_to_units(uint64_t bps, uint64_t f_unit_bps);
uint64_t lscc_units_to_rate(uint32_t units, uint64_t f_unit_bps);

/* ---------------------------------------------------------------- Alg. 2 */

/* A flow as Table I keys it: sip/dip/sport/dport (96 bits). */
struct lscc_key {
    uint32_t sip, dip;
    uint16_t sport, dport;
};

struct lscc_rl_entry {
    struct lscc_key key;
    uint32_t tx_bytes;   /* TxBytes (Table I: 32 bit), saturating */
    uint32_t ref;        /* the caller's handle of the flow (latest passed) */
    uint8_t  used;
    uint8_t  cnp;        /* CNP bit (Table I: 1 bit) */
    uint8_t  pad_[6];
    uint64_t last_ps;    /* last packet or CNP seen: idle eviction (ours) */
};

struct lscc_rl_params {
    uint64_t q_ref_bytes;        /* Q*ref: 2 MB (§IV-B) */
    uint64_t cnp_interval_ps;    /* direct-CNP interval: T (Alg. 2's rounds end
                                    in ResetTable(T); §III-B); ours */
    uint32_t long_flow_bytes;    /* TxBytes threshold, "greater than BDP"
                                    (§III-B): default 2 × long-haul BDP, ours */
    uint32_t normal_cnp_multiple;/* normal-CNP interval / direct-CNP interval:
                                    10 (§III-B, §IV-B Fig. 9b); 0 = ∞ (no
                                    normal CNPs) */
    uint64_t idle_ps;            /* free an entry idle this long: 10·T, ours */
    uint32_t capacity;           /* flow-table slots, power of two: 1024, ours */
    uint64_t r_init_bps;         /* Q* drain rate before any feedback: the
                                    long-haul line rate, ours */
};

/* Defaults for a long-haul link of link_bps and one-way delay one_way_ps,
 * with rate-calculation period period_ps (direct-CNP interval, idle_ps). */
void lscc_rl_params_default(struct lscc_rl_params *p, uint64_t link_bps, uint64_t one_way_ps, uint64_t period_ps);

/* 0 if valid, else why and -1: Q*ref > 0, interval > 0, long_flow_bytes > 0,
 * capacity a power of two in [1, 2^24], idle_ps > 0,
 * r_init <= LSCC_RATE_LIMIT_BPS. */
int lscc_rl_params_check(const struct lscc_rl_params *p, char *why, size_t why_len);
int lscc_rl_params_blame(const struct lscc_rl_params *p, unsigned *blame, char *why, size_t why_len);

/* The normal-CNP interval that goes with a direct-CNP interval:
 * multiple × direct, or UINT64_MAX (never) for multiple 0 = ∞ (§IV-B). */
uint64_t lscc_normal_cnp_interval_ps(uint64_t direct_ps, uint32_t multiple);

struct lscc_rl {
    struct lscc_rl_entry *e;   /* capacity slots, caller's storage */
    uint32_t mask, size;
    uint64_t q_bytes;          /* Q*, whole bytes */
    uint64_t q_rem;            /* drained fraction of a byte, in units of
                                  1/(8·10^12) byte (R·Δt in b/s·ps) */
    uint64_t rate_bps;         /* R: last feedback rate received */
    uint64_t last_ps;          /* time Q* was last brought up to date */
    uint64_t n_feedback, n_ticks, n_ticks_above;
    uint64_t n_direct_cnps, n_truncated;
    uint64_t n_ecn_cleared, n_remote_cnps;
    uint64_t n_inserted, n_evicted, n_full;
};

/* Bytes of storage lscc_rl_init needs for p->capacity slots. */
size_t lscc_rl_storage_bytes(const struct lscc_rl_params *p);

/* Empty table in slots (lscc_rl_storage_bytes(p) bytes), Q* = 0,
 * R = r_init, clock at now_ps. */
void lscc_rl_init(struct lscc_rl *rl, const struct lscc_rl_params *p, struct lscc_rl_entry *slots, uint64_t now_ps);

/* Q* as of now_ps (drains it to now first: Eq. 10). */
uint64_t lscc_rl_qlen(struct lscc_rl *rl, uint64_t now_ps);

/* Bytes entering the long-haul egress queue (every frame: the pseudo-queue
 * takes "the actual rate of incoming packets", Eq. 10). */
void lscc_rl_input(struct lscc_rl *rl, uint64_t now_ps, uint64_t bytes);

/* A feedback message with rate bps arrived: Q* drains at the old R up to
 * now, at bps afterwards. */
void lscc_rl_on_feedback(struct lscc_rl *rl, uint64_t now_ps, uint64_t bps);

/* A local data packet of flow key (Alg. 2 lines 14-18): TxBytes += bytes;
 * if ce (ECN 11) the CNP bit is set and LSCC_RL_CLEAR_CE is returned: the
 * caller rewrites the ECN field to 10.  Does not feed Q* (call
 * lscc_rl_input for that). */
#define LSCC_RL_CLEAR_CE 1u
unsigned lscc_rl_on_data(struct lscc_rl *rl, const struct lscc_rl_params *p, uint64_t now_ps,
                         const struct lscc_key *key, uint32_t ref, uint32_t bytes, int ce);

/* A CNP from the remote side for data flow key (line 12-13): CNP bit set. */
void lscc_rl_on_cnp(struct lscc_rl *rl, const struct lscc_rl_params *p, uint64_t now_ps,
                    const struct lscc_key *key, uint32_t ref);

/* SendDirectCNP, run every cnp_interval_ps: evicts idle entries, then if
 * Q* >= Q*ref writes the refs of the flows to notify (CNP bit set or
 * TxBytes < long_flow_bytes), in slot order, to out[0..cap) and clears
 * every CNP bit (ResetTable).  Returns how many flows qualified (those
 * beyond cap are counted in n_truncated and not written). */
uint32_t lscc_rl_tick(struct lscc_rl *rl, const struct lscc_rl_params *p, uint64_t now_ps, uint32_t *out, uint32_t cap);

/* The entry of key, or NULL (for tests and traces). */
const struct lscc_rl_entry *lscc_rl_find(const struct lscc_rl *rl, const struct lscc_key *key);

/* ------------------------------------------------ §III-C guideline, Eq. 12 */

/* Inputs the guideline needs besides the parameters. */
struct lscc_guide {
    uint64_t dbr_max_bps;  /* ΔBR_max: largest change of the average
                              bottleneck rate between adjacent periods;
                              §III-C uses 0.1 × the bottleneck link rate */
    uint64_t dq_bytes;     /* ΔQ: queue error the feedback must remove
                              within 2D (Eq. 12 lower bound) */
    uint32_t m_flows;      /* M: coexisting flows */
    uint64_t r_ai_bps;     /* the sources' additive increase R_ai (DCQCN) */
    uint64_t t_i_ps;       /* the sources' rate-increase timer T_i (DCQCN) */
};

#define LSCC_GUIDE_QREF_LOW 1u   /* Qref <= ΔBR_max·(2D + T) */
#define LSCC_GUIDE_DR_LOW   2u   /* ΔR <= ΔQ / (T·(N + 1)) */
#define LSCC_GUIDE_DR_HIGH  4u   /* ΔR >= M·T·R_ai / T_i */

struct lscc_guide_result {
    uint64_t q_ref_min_bytes;   /* ΔBR_max·(N+1)·T / 8 */
    uint64_t dr_lo_bps;         /* ΔQ·8 / (T·(N+1)) */
    uint64_t dr_hi_bps;         /* M·T·R_ai / T_i (UINT64_MAX if T_i = 0) */
    unsigned flags;             /* LSCC_GUIDE_* that are violated */
};

/* Evaluate §III-C: Qref > ΔBR_max·(2D + T) with 2D = N·T, and Eq. 12
 * ΔQ/(T(N+1)) < ΔR < M·T·R_ai/T_i.  Fills r, returns r->flags, and writes
 * a sentence naming each violated bound and its value into why (may be
 * NULL).  A zero input skips its bound (dbr_max 0: no Qref bound; dq 0:
 * no lower ΔR bound; m_flows, r_ai or t_i 0: no upper ΔR bound). */
unsigned lscc_guide_check(const struct lscc_rc_params *p, const struct lscc_guide *g,
                          struct lscc_guide_result *r, char *why, size_t why_len);

#endif
