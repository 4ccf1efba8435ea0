/*
 * dcqcn.h -- DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA
 * Deployments", SIGCOMM 2015): reaction point (RP, per flow at the sender),
 * notification point (NP, per flow at the receiver) and the RED-style
 * congestion point (CP) marking function.
 *
 * Model.
 *   CP: an egress queue marks a departing packet with probability
 *       0 (q <= Kmin), Pmax·(q−Kmin)/(Kmax−Kmin) (Kmin < q <= Kmax),
 *       1 (q > Kmax)                                   [CoNEXT'16 §3.1].
 *   NP: on a marked packet, a CNP is sent if none was sent for this flow
 *       in the last N = 50 µs  [SIGCOMM'15 §3; CoNEXT'16 §3].
 *   RP: state RC (current rate), RT (target rate), α.  A fresh RP sends at
 *       line rate with α = 1 and runs no timer.  On a rate decrease:
 *         RT ← RC,  RC ← max(Rmin, RC·(1 − α/2)),
 *       the increase counters and the byte counter are reset and the
 *       increase timer restarts.  α: α ← (1−g)α + g per CNP, after the cut
 *       (the order of SIGCOMM'15 Eq. (1)), α ← (1−g)α per period K without
 *       CNP (paper), see enum dcqcn_alpha_mode.
 *       Increase events come from the timer (every T) and the byte counter
 *       (every B bytes sent); see enum dcqcn_inc_rule for the stages.
 *       RT and RC are clamped to the line rate.
 *
 * Paper vs. HPCC simulator (reference-implementations.md §2, "DCQCN
 * (Mellanox variant)").  The paper profile is the default; the simulator's
 * behaviour is selected by the profile, i.e. by these orthogonal options:
 *   - α:  paper: one EWMA step per CNP, decay timer K restarted by each CNP
 *         (DCQCN_ALPHA_ON_CNP).  Simulator: a free-running timer every
 *         ALPHA_RESUME_INTERVAL does α ← (1−g)α + g·[CNP seen in the period];
 *         the first CNP sets α = 1 and is not counted (DCQCN_ALPHA_PERIODIC).
 *   - decrease: paper: on every CNP (the NP already spaces CNPs ≥ 50 µs).
 *         Simulator: checked on a free-running grid every
 *         RATE_DECREASE_INTERVAL (4 µs) from the first CNP; at most one
 *         decrease per check (rate_decrease_interval_ps > 0).
 *   - RT on decrease: paper: always RT ← RC.  Simulator: not when
 *         CLAMP_TARGET_RATE = 0 and no increase happened since the last
 *         decrease (clamp_target_rate = 0).
 *   - increase: paper: timer AND byte counter, QCN stage rule with
 *         RT += i·R_HAI.  Simulator: timer only, one stage counter, one AI
 *         step, then constant R_HAI steps (DCQCN_INC_MLX).
 *   - first CNP: simulator sets RC = RT = RateOnFirstCnp·RC (1.0).
 *   - NP: simulator flags CNP in the ACK of every marked packet (no 50 µs
 *         spacing: cnp_interval_ps = 0).
 *
 * Timers.  α decay is evaluated lazily (closed form (1−g)^n for n elapsed
 * periods), which is exactly the periodic timer; so only two deadlines
 * exist: the increase timer and the simulator's pending decrease check,
 * folded into dcqcn_deadline().  The increase timer stops once RC = RT =
 * line rate (every further increase would be a no-op) and restarts on the
 * next decrease.  Rates are kept in double bit/s internally.
 *
 * Nothing here allocates, does I/O or keeps global state.
 */
#ifndef DCQCN_H
#define DCQCN_H

#include <stddef.h>
#include <stdint.h>

enum dcqcn_profile {
    /* SIGCOMM'15 values (default). */
    DCQCN_PROFILE_PAPER = 0,
    /* HPCC ns-3 simulator, run.py cc "dcqcn": α 1 µs / decrease 4 µs /
     * RP timer 300 µs (reference-implementations.md §2). */
    DCQCN_PROFILE_HPCC_SIM = 1,
    /* HPCC ns-3 simulator, run.py cc "dcqcn_paper": the same Mellanox state
     * machine with α 50 µs / decrease 50 µs / RP timer 55 µs (ibid.). */
    DCQCN_PROFILE_HPCC_SIM_PAPER = 2
};

enum dcqcn_alpha_mode {
    DCQCN_ALPHA_ON_CNP = 0,     /* paper, see header comment */
    DCQCN_ALPHA_PERIODIC = 1    /* HPCC simulator UpdateAlphaMlx */
};

enum dcqcn_inc_rule {
    /* Paper / QCN.  T = timer events, BC = byte-counter events since the
     * last decrease, counted before the rule is applied:
     *   max(T,BC) <= F:  fast recovery  RC ← (RT+RC)/2
     *   min(T,BC) >  F:  hyper increase RT += i·R_HAI, i = min(T,BC) − F,
     *                                   RC ← (RT+RC)/2
     *   otherwise:       additive incr. RT += R_AI,  RC ← (RT+RC)/2
     * So F = 5 gives five fast-recovery steps (CoNEXT'16 §3: "five stages
     * of fast recovery"). */
    DCQCN_INC_QCN = 0,
    /* HPCC simulator (RateIncEventMlx): stage = increase events since the
     * last decrease, before this one: stage < F: fast recovery; stage == F:
     * RT += R_AI; stage > F: RT += R_HAI (constant); RC ← (RT+RC)/2. */
    DCQCN_INC_MLX = 1
};

struct dcqcn_params {
    uint32_t profile;                  /* enum dcqcn_profile (informational) */
    uint32_t alpha_mode;               /* enum dcqcn_alpha_mode */
    uint32_t inc_rule;                 /* enum dcqcn_inc_rule */
    double   g;                        /* α EWMA gain */
    uint64_t alpha_interval_ps;        /* K (paper) / ALPHA_RESUME_INTERVAL */
    uint64_t rate_decrease_interval_ps;/* 0: decrease on each CNP; else check grid */
    uint64_t timer_ps;                 /* T, rate-increase timer / RP_TIMER */
    uint64_t byte_counter;             /* B in bytes; 0 = no byte counter */
    uint32_t fast_recovery;            /* F */
    uint64_t r_ai_bps, r_hai_bps;      /* R_AI, R_HAI */
    uint64_t min_rate_bps;             /* Rmin */
    uint32_t clamp_target_rate;        /* 1: RT ← RC on every decrease */
    double   rate_on_first_cnp;        /* RC = RT = this·RC on the first CNP */
    uint64_t cnp_interval_ps;          /* NP: min spacing of CNPs per flow */
};

/*
 * Defaults.  DCQCN_PROFILE_PAPER (values independent of line_bps, the paper
 * uses 40 G):
 *   g = 1/256, K = 55 µs, T = 55 µs, B = 10 MB (10^7 B), F = 5,
 *   R_AI = 40 Mb/s, N = 50 µs: SIGCOMM'15 §3 and the CoNEXT'16 §3.1
 *   parameter table / fluid model (jitupadhye-zz/rdma
 *   fluidmodel/dcqcn/dcqcn_pi.m);
 *   R_HAI = 200 Mb/s: the DCQCN authors' simulator (bobzhuyb/ns3-rdma
 *   mix/config.txt RATE_HAI); we could not find R_HAI in the paper text;
 *   Rmin = 100 Mb/s: not in the paper, the HPCC simulator's RdmaHw MinRate
 *   default (reference-implementations.md §2);
 *   decrease on every CNP, RT ← RC always, rate_on_first_cnp 1.
 * DCQCN_PROFILE_HPCC_SIM (run.py "dcqcn", bw = line_bps in Gb/s):
 *   g = 1/256, α interval 1 µs, decrease interval 4 µs, RP timer 300 µs,
 *   no byte counter, F = 1, R_AI = 5·bw/25 Mb/s, R_HAI = 50·bw/25 Mb/s,
 *   Rmin = 1000 Mb/s (run.py MIN_RATE; config.txt has 100 Mb/s),
 *   CLAMP_TARGET_RATE 0, RateOnFirstCnp 1.0, CNP per marked packet.
 * DCQCN_PROFILE_HPCC_SIM_PAPER: as HPCC_SIM with intervals 50/50/55 µs.
 * Unknown profiles get the paper profile.
 */
void dcqcn_params_default(struct dcqcn_params *p, uint64_t line_bps, enum dcqcn_profile profile);

/* 0 if valid, else -1 and a reason in why (may be NULL / why_len 0).
 * Checks 0 < g <= 1, α interval > 0, timer > 0, known modes, R_AI/R_HAI
 * not above 2^53, min rate > 0, 0 < rate_on_first_cnp <= 1, no byte counter
 * with DCQCN_INC_MLX (the simulator has none). */
int dcqcn_params_check(const struct dcqcn_params *p, char *why, size_t why_len);

struct dcqcn {
    double   rc, rt, alpha;        /* bit/s, bit/s, [0,1] */
    uint64_t line_bps;
    uint64_t alpha_ref_ps;         /* ON_CNP: decay grid origin; PERIODIC: next α update */
    uint64_t inc_deadline_ps;      /* increase timer; UINT64_MAX = off */
    uint64_t dec_origin_ps;        /* decrease-check grid origin (first CNP) */
    uint64_t dec_deadline_ps;      /* pending decrease check; UINT64_MAX = none */
    uint64_t bytes;                /* byte counter (bytes since last BC event) */
    uint32_t t_cnt, bc_cnt;        /* timer / byte events since last decrease */
    uint8_t  active;               /* 1 after the first CNP */
    uint8_t  alpha_cnp;            /* PERIODIC: CNP seen in the current α period */
    uint8_t  dec_cnp;              /* CNP seen since the last decrease check */
    /* counters */
    uint32_t n_cnp, n_decrease, n_fr, n_ai, n_hai;
};

/* RC = RT = line_bps, α = 1, inactive, no deadline. */
void dcqcn_init(struct dcqcn *s, const struct dcqcn_params *p, uint64_t line_bps, uint64_t now_ps);

/* A CNP for this flow arrives at the RP. */
void dcqcn_on_cnp(struct dcqcn *s, const struct dcqcn_params *p, uint64_t now_ps);

/* bytes were sent by this flow (drives the byte counter; no-op without one
 * or when the RP is not recovering). */
void dcqcn_on_sent(struct dcqcn *s, const struct dcqcn_params *p, uint64_t bytes, uint64_t now_ps);

/* Runs every timer due at or before now, in time order (a pending decrease
 * check before an increase timer due at the same time).  A late increase
 * timer is re-armed from now, as rocc_rp does. */
void dcqcn_on_timer(struct dcqcn *s, const struct dcqcn_params *p, uint64_t now_ps);

uint64_t dcqcn_deadline(const struct dcqcn *s);      /* UINT64_MAX = none */
uint64_t dcqcn_rate_bps(const struct dcqcn *s);      /* RC, truncated */
uint64_t dcqcn_window_bytes(const struct dcqcn *s);  /* 0: rate-based */
uint64_t dcqcn_target_bps(const struct dcqcn *s);    /* RT, truncated */
/* α as of now, with the decay periods elapsed up to now applied (pure). */
double   dcqcn_alpha(const struct dcqcn *s, const struct dcqcn_params *p, uint64_t now_ps);

/* ---- NP ---------------------------------------------------------------- */

struct dcqcn_np {
    uint64_t last_cnp_ps;
    uint8_t  sent;                 /* a CNP was ever sent */
    uint32_t n_ecn, n_cnp;
};

void dcqcn_np_init(struct dcqcn_np *np);

/* The NP's rule alone, for a caller that keeps its own per-flow state (the
 * simulator's NIC: struct flow's np_last_cnp, np_interval): a CNP is due
 * unless one went to this flow less than interval_ps before now (sent = 0:
 * none yet; a clock that went back counts as due). */
static inline int dcqcn_np_due(int sent, uint64_t last_cnp_ps, uint64_t interval_ps, uint64_t now_ps)
{
    return !sent || now_ps < last_cnp_ps || now_ps - last_cnp_ps >= interval_ps;
}

/* An ECN-marked packet of this flow arrives at now.  Returns 1 if a CNP
 * must be sent now: none sent yet, or now − last >= p->cnp_interval_ps
 * (SIGCOMM'15 §3; CoNEXT'16 §3).  Marks inside the interval are dropped,
 * not deferred. */
int dcqcn_np_on_ecn(struct dcqcn_np *np, const struct dcqcn_params *p, uint64_t now_ps);

/* ---- CP (RED-style marking) -------------------------------------------- */

struct dcqcn_red_params {
    uint64_t kmin_bytes, kmax_bytes;
    double   pmax;
};

/* PAPER: Kmin 5 KB, Kmax 200 KB, Pmax 1% (SIGCOMM'15 parameters at 40 G,
 * also the CoNEXT'16 fluid model and the RoCC authors' DCQCN switch:
 * MIN_TH 5000 / MAX_TH 200000 / MAX_P 0.01); not scaled with line rate.
 * HPCC_SIM(_PAPER): Kmin = 100·bw/25 KB, Kmax = 400·bw/25 KB, Pmax 0.2
 * (run.py, reference-implementations.md §2).  KB = 1000 B. */
void dcqcn_red_default(struct dcqcn_red_params *r, uint64_t line_bps, enum dcqcn_profile profile);

/* Marking probability for queue length q (bytes): see header comment.
 * kmax <= kmin degenerates to a step at kmin (mark iff q > kmin). */
double dcqcn_red_prob(uint64_t qbytes, uint64_t kmin, uint64_t kmax, double pmax);

/* 1 if the packet is marked: u01 < dcqcn_red_prob(...), u01 uniform in
 * [0,1) from the caller. */
int dcqcn_red_mark(uint64_t qbytes, uint64_t kmin, uint64_t kmax, double pmax, double u01);

#endif
