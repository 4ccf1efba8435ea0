/*
 * dcqcn_bcm.h -- Broadcom DCQCN-p / DCQCN-d (M. Voloshin, "Introduction to
 * Congestion Control for RoCE", Broadcom, 2022-23; shared/papers/
 * broadcom-intro-roce-cc-dcqcn.txt, "the note" below): a per-flow reaction
 * point run once per control period, and the two switch marking policies.
 *
 * Model (one struct dcqcn_bcm per flow, RC/RT as in DCQCN):
 *   During a period the RP counts transmitted packets (dcqcn_bcm_on_sent)
 *   and received CNPs (dcqcn_bcm_on_cnp).  At the end of the period
 *   (dcqcn_bcm_on_timer):
 *     F  = CNPs / TX packets, capped at 1      (mode D, deterministic marking)
 *     F  = 1 if any CNP this period, else 0    (mode P, probabilistic marking)
 *     CP ← (1 − g)·CP + g·F                    (every period)
 *     CNPs this period:  RT ← RC, RC ← max(Rmin, RC·(1 − CP/2))
 *     no CNP:            the first fr_steps CNP-free periods are fast
 *                        recovery RC ← (RT+RC)/2; after them, every `pace`
 *                        periods an increase: the j-th adds
 *                        min(R_AI·2^(j−1), r_inc_max) to RT, then
 *                        RC ← (RT+RC)/2 ("super-linear increase": the
 *                        increment doubles each further period without
 *                        congestion, replacing hyper-active increase).
 *   RT and RC are clamped to the line rate.
 *
 * Choices where the note is vague (listed under "Our choices" in the .c):
 *   - Period jitter: the next period lasts base·(1 + x·(2u − 1)), u from the
 *     caller in [0,1), x = jitter_ppm/10^6 (±10% by default).
 *   - Incast pacing: the note says the RP uses its current rate, the time
 *     between its transmissions (= packet/RC, so RC carries it) and the time
 *     between CNPs to estimate the incast and increase less often.  Rule:
 *     let W = incast_window_ps·pace (the window in units of the current
 *     pace).  At each decrease, if the previous congested period ended at
 *     most W earlier (persistent congestion, from the CNP spacing), the
 *     incast degree is N̂ = ⌊line / RT⌋ (RT = the rate at which congestion
 *     was seen: N̂ senders at RT fill the line), else N̂ = 1; then
 *     pace = 1 if N̂ < n0, else min(pace_max, 2·2^⌊log2(N̂/n0)⌋)
 *     (n0 = 32, pace_max = 4: N̂ 32..63 -> 2, >= 64 -> 4).  Pacing delays
 *     only the RT increases, not fast recovery (which returns to RT), and
 *     ends (pace = 1) once a CNP-free period ends more than W after the
 *     last congested one.  The doubling counts increases, not periods.
 *     Caveat (seen in the toy closed loop of the tests): the estimate uses
 *     the flow's own rate, so in a long incast slower flows pace more, a
 *     positive feedback on unfairness, and pacing trades utilization for a
 *     shorter queue; the defaults are therefore mild.
 *   - g, the initial CP, R_AI, the increment cap and Rmin are not given.
 *   - Rate changes happen at period ends: "These variables are updated
 *     periodically" (the note).  Not the note's reading, for diagnosis
 *     only: decrease_on_cnp = 1 ends a period at its first CNP, so the cut
 *     is taken at once, as DCQCN does on each CNP (with per-mark CNPs
 *     that is a cut per CNP; cnp_interval_ps spaces them as DCQCN's NP).
 *   - A silent period (no packet sent, no CNP: F = 0/0, e.g. while PFC
 *     pauses the NIC) counts as congestion-free by default: CP decays and
 *     the rate increases.  hold_silent = 1 (an equally possible reading)
 *     lets such a period pass with no CP update and no rate change.
 *   - CNP generation: a CNP for every marked packet (cnp_interval_ps = 0):
 *     DCQCN-d's F = CNPs/packets needs them ("a sending flow may receive
 *     several CNPs in each control loop period").  The RP itself only
 *     counts; the interval is applied by the receiver (the NP).
 *   - Idle flows: the loop starts with the first CNP and stops once
 *     RC = RT = line rate after a CNP-free period (no deadline).  While
 *     idle, period boundaries fall on an unjittered grid of base periods
 *     and are applied lazily: TX counts restart at each boundary and CP
 *     decays by (1−g)^n for the n periods passed (after the first CNP only;
 *     CP stays at cp_init before it).  A CNP arriving while idle restarts
 *     the loop inside the current grid period, as a free-running loop.
 *
 * Nothing here allocates, does I/O or keeps global state.
 */
#ifndef DCQCN_BCM_H
#define DCQCN_BCM_H

#include <stddef.h>
#include <stdint.h>

enum dcqcn_bcm_mode {
    DCQCN_BCM_MODE_P = 0,       /* DCQCN-p: probabilistic marking */
    DCQCN_BCM_MODE_D = 1        /* DCQCN-d: deterministic marking */
};

struct dcqcn_bcm_params {
    uint32_t mode;              /* enum dcqcn_bcm_mode */
    uint64_t period_ps;         /* base control period */
    uint32_t jitter_ppm;        /* ± jitter, parts per million of the period */
    double   g;                 /* CP EWMA gain */
    double   cp_init;           /* CP before the first period */
    uint32_t fr_steps;          /* fast-recovery increase events */
    uint64_t r_ai_bps;          /* first increment after fast recovery */
    uint64_t r_inc_max_bps;     /* cap of the doubling increment */
    uint64_t min_rate_bps;
    uint32_t incast_n0;         /* N̂ at which pacing starts */
    uint32_t pace_max;          /* largest pace (periods per increase) */
    uint64_t incast_window_ps;  /* max gap between congested periods to trust N̂ */
    uint32_t decrease_on_cnp;   /* 0: rate changes only at period ends (the note);
                                 * 1: the first CNP of a period ends it at once */
    uint64_t cnp_interval_ps;   /* NP: min spacing of CNPs per flow (0: every mark) */
    uint32_t hold_silent;       /* 1: a period with no TX and no CNP changes nothing */
};

/*
 * Defaults: mode P, period 45 µs (the note: "default being 45 µs"),
 * fr_steps 3 (the note: "three by default"); our choices: jitter ±10%,
 * g = 1/256 and cp_init = 1 (DCQCN's g and initial α, SIGCOMM'15: the
 * note's CP equation is DCQCN's α EWMA run once per period; in the tests'
 * toy loop cp_init = 0 let the queue run away and g = 1/16 oscillated
 * more), R_AI = line/1000 (DCQCN's 40 Mb/s at 40 G scaled with the line
 * rate), r_inc_max = 8·R_AI (three doublings; line/8 oscillated badly in
 * the toy loop), Rmin = 100 Mb/s (as dcqcn.h paper profile), incast_n0 =
 * 32, pace_max = 4, incast_window = 4 base periods (180 µs),
 * decrease_on_cnp = 0, cnp_interval = 0, hold_silent = 0.
 */
void dcqcn_bcm_params_default(struct dcqcn_bcm_params *p, uint64_t line_bps, enum dcqcn_bcm_mode mode);

/* 0 if valid, else -1 and a reason in why (may be NULL / why_len 0).
 * period > 0, jitter_ppm < 10^6, 0 < g <= 1, 0 <= cp_init <= 1, known mode,
 * r_ai <= r_inc_max <= 2^53, min rate > 0, incast_n0 >= 1, pace_max >= 1,
 * decrease_on_cnp and hold_silent 0 or 1. */
int dcqcn_bcm_params_check(const struct dcqcn_bcm_params *p, char *why, size_t why_len);

struct dcqcn_bcm {
    double   rc, rt, cp;        /* bit/s, bit/s, [0,1] */
    double   last_f;            /* F of the last closed period */
    uint64_t line_bps;
    uint64_t period_end_ps;     /* end of the current period */
    uint64_t last_cong_ps;      /* end of the last period with CNPs; UINT64_MAX none */
    uint32_t tx, cnp;           /* this period (saturating) */
    uint32_t free_periods;      /* CNP-free periods since the last decrease */
    uint32_t inc_events;        /* increase events since the last decrease */
    uint32_t pace;              /* periods per increase event */
    uint8_t  active;            /* control loop running (deadline set) */
    uint8_t  started;           /* a CNP was ever received */
    /* counters */
    uint32_t n_periods, n_cnp, n_decrease, n_fr, n_inc;
};

/* RC = RT = line, CP = cp_init, idle; the first (idle-grid) period ends at
 * now + period_ps. */
void dcqcn_bcm_init(struct dcqcn_bcm *s, const struct dcqcn_bcm_params *p, uint64_t line_bps, uint64_t now_ps);

/* pkts packets transmitted at now. */
void dcqcn_bcm_on_sent(struct dcqcn_bcm *s, const struct dcqcn_bcm_params *p, uint32_t pkts, uint64_t now_ps);

/* A CNP for this flow arrives at now; starts the loop if idle.  With
 * decrease_on_cnp, the first CNP of a period moves its end to now (the
 * caller runs the timer at the new deadline). */
void dcqcn_bcm_on_cnp(struct dcqcn_bcm *s, const struct dcqcn_bcm_params *p, uint64_t now_ps);

/* Closes the current period if now >= deadline (see header comment); u01 in
 * [0,1) sets the length of the next period.  The next period ends at
 * max(deadline, now) + length.  Otherwise nothing. */
void dcqcn_bcm_on_timer(struct dcqcn_bcm *s, const struct dcqcn_bcm_params *p, uint64_t now_ps, double u01);

uint64_t dcqcn_bcm_deadline(const struct dcqcn_bcm *s);       /* UINT64_MAX when idle */
uint64_t dcqcn_bcm_rate_bps(const struct dcqcn_bcm *s);       /* RC, truncated */
uint64_t dcqcn_bcm_target_bps(const struct dcqcn_bcm *s);     /* RT, truncated */
uint64_t dcqcn_bcm_window_bytes(const struct dcqcn_bcm *s);   /* 0: rate-based */

/* Helpers exposed for tests and the simulator. */
/* Length of a period for u01 (clamped to [0,1)): base − j + ⌊2j·u⌋,
 * j = ⌊base·jitter_ppm/10^6⌋, so in [base − j, base + j). */
uint64_t dcqcn_bcm_period_len(const struct dcqcn_bcm_params *p, double u01);
/* pace for an estimated incast degree (see header comment). */
uint32_t dcqcn_bcm_pace_for(const struct dcqcn_bcm_params *p, uint64_t n_hat);
/* Increment of the j-th increase event after fast recovery (j >= 1):
 * min(R_AI·2^(j−1), r_inc_max); 0 for j = 0. */
uint64_t dcqcn_bcm_increment(const struct dcqcn_bcm_params *p, uint32_t j);

/* ---- switch marking ---------------------------------------------------- */

struct dcqcn_bcm_cp_params {
    uint64_t kmin_bytes, kmax_bytes;   /* mode P */
    double   pmax;
    uint64_t k_bytes;                  /* mode D */
};

/* The note gives no thresholds.  P: the HPCC simulator's DCQCN values
 * Kmin = 100·bw/25 KB, Kmax = 400·bw/25 KB, Pmax 0.2; D: its DCTCP value
 * K = 30·bw/10 KB (run.py, reference-implementations.md §2); KB = 1000 B. */
void dcqcn_bcm_cp_default(struct dcqcn_bcm_cp_params *c, uint64_t line_bps);

/* DCQCN-p: marked with probability 0 (q <= kmin), pmax·(q−kmin)/(kmax−kmin)
 * (kmin < q <= kmax), 1 (q > kmax); 1 if u01 < that. */
int dcqcn_bcm_mark_p(uint64_t qbytes, uint64_t kmin, uint64_t kmax, double pmax, double u01);

/* DCQCN-d: every packet marked while q > k ("100% of the packets are marked
 * when congested queue level rise above a configured threshold"). */
int dcqcn_bcm_mark_d(uint64_t qbytes, uint64_t k);

#endif
