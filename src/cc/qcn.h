/*
 * qcn.h -- QCN, Quantized Congestion Notification (IEEE 802.1Qau; Alizadeh
 * et al., "Data Center Transport Mechanisms: Congestion Control Theory and
 * IEEE Standardization", Allerton 2008, §II).  RoCC compares against it
 * (RoCC CoNEXT 2020, ref [1], Fig. 11).
 *
 * CP (one struct qcn_cp per switch egress queue).  The caller calls
 * qcn_cp_on_packet() for every arriving packet with the queue length Q in
 * bytes and a uniform random number u01 in [0,1).  The packet is sampled
 * when u01 < p(|Fb| of the previous sample) (qcn_cp_sample_prob).  On a
 * sample
 *     Q_off = Q − Q_eq,  Q_δ = Q − Q_old,  Fb = −(Q_off + w·Q_δ),  Q_old = Q
 * and, if Fb < 0, a feedback message carrying
 *     fb_q = min(63, ⌊|Fb|·63 / Fb_max⌋),  Fb_max = (1 + 2w)·Q_eq
 * goes to the source of the sampled packet (only when fb_q > 0; see qcn.c).
 *
 * RP (one struct qcn_rp per flow).  A fresh RP is unlimited (CR = line
 * rate).  qcn_rp_on_feedback(): TR ← CR, CR ← CR·(1 − G_d·fb_q), both stage
 * counters reset, timer (re)armed.  Rate increases are driven by a byte
 * counter (qcn_rp_on_sent) and a timer (qcn_rp_on_timer at qcn_rp_deadline):
 * each expiry of either is one "cycle" of that counter and runs
 *     stage of both ≤ FR          fast recovery   CR ← (CR + TR)/2
 *     one counter > FR            active increase TR += R_AI,             then CR ← (CR+TR)/2
 *     both counters > FR          hyper-active    TR += R_HAI·(min − FR), then CR ← (CR+TR)/2
 * with TR and CR capped at the line rate; when CR reaches it the limiter is
 * removed (unlimited again, no timer).
 *
 * Integer arithmetic throughout: rates are bits/s, queues bytes, time ps.
 * Nothing here allocates, does I/O or keeps global state.
 */
#ifndef QCN_H
#define QCN_H

#include <stddef.h>
#include <stdint.h>

/* Parameter sets (qcn_*_params_default). */
enum qcn_profile {
    /* The paper's / 802.1Qau baseline values, as for 10G links (default). */
    QCN_PROFILE_PAPER = 0,
    /* Values for 10-100G datacenter links (RoCC-style comparisons); see
     * qcn_rp_params_default() for each value and its source. */
    QCN_PROFILE_DC = 1
};

/* How the sampling probability depends on the last quantized |Fb|. */
enum qcn_sample_mode {
    /* p = p_min + (p_max − p_min)·fb_q/63: the paper's 1%..10% curve
     * read as linear in |Fb| (default). */
    QCN_SAMPLE_LINEAR = 0,
    /* The 802.1Qau 8-step table indexed by fb_q/8: sample every
     * 150, 75, 50, 37.5, 30, 25, 21.5, 18.5 KB, i.e. p = 1%·150 KB/interval
     * = 1, 2, 3, 4, 5, 6, 6.98, 8.11% (table as in the public NetFPGA/Linux
     * QCN CP, qcn_mark_table; expressed per 1500 B frame). */
    QCN_SAMPLE_TABLE = 1
};

#define QCN_FB_MAX_Q 63u     /* 6-bit quantized |Fb| (paper §II) */

/* ---------------------------------------------------------------- CP -- */

struct qcn_cp_params {
    uint64_t q_eq_bytes;     /* Q_eq, the equilibrium queue length */
    uint32_t w;              /* weight of Q_δ (paper: 2) */
    uint32_t sample_mode;    /* enum qcn_sample_mode */
    double   p_min, p_max;   /* QCN_SAMPLE_LINEAR end points (1%, 10%) */
};

/* Q_eq 26 KB (802.1Qau cpQSp default), w 2, linear sampling 1%..10%, for
 * every profile and link speed (see qcn.c for why Q_eq is not scaled). */
void qcn_cp_params_default(struct qcn_cp_params *p, uint64_t line_bps, int profile);

/* 0 if valid, else -1 and a reason in why (may be NULL/0): q_eq > 0 and
 * <= 2^40, 1 <= w <= 64, sample_mode known, 0 < p_min <= p_max <= 1. */
int qcn_cp_params_check(const struct qcn_cp_params *p, char *why, size_t why_len);

struct qcn_cp {
    uint64_t q_old;          /* Q at the previous sample (0 at init) */
    uint8_t  last_fb_q;      /* quantized |Fb| of the last sample (0 if Fb >= 0) */
    uint64_t n_packets, n_samples, n_fb_sent;
    uint64_t n_fb_nonneg;    /* samples with Fb >= 0 */
    uint64_t n_fb_zero;      /* samples with Fb < 0 that quantized to 0 */
    uint64_t n_fb_sat;       /* samples with |Fb| >= Fb_max (fb_q = 63) */
    int64_t  last_fb;        /* Fb of the last sample, bytes (diagnostics) */
};

void qcn_cp_init(struct qcn_cp *cp, const struct qcn_cp_params *p);

/* Sampling probability for the next packet after a sample with this fb_q. */
double qcn_cp_sample_prob(const struct qcn_cp_params *p, uint8_t fb_q);

/* Fb of queue state (q, q_old), bytes (negative = congestion). */
int64_t qcn_cp_fb(const struct qcn_cp_params *p, uint64_t q, uint64_t q_old);

/* fb_q for Fb (0 when Fb >= 0; 63 when |Fb| >= Fb_max). */
uint8_t qcn_cp_quantize(const struct qcn_cp_params *p, int64_t fb);

/* One arriving packet; qbytes = egress queue length in bytes (as the caller
 * defines it, e.g. before enqueue), u01 uniform in [0,1).  Returns 1 and
 * sets *fb_q (1..63) when a feedback message must be sent to the packet's
 * source, else 0 (*fb_q untouched).  fb_q may be NULL. */
int qcn_cp_on_packet(struct qcn_cp *cp, const struct qcn_cp_params *p,
                     uint64_t qbytes, double u01, uint8_t *fb_q);

/* ---------------------------------------------------------------- RP -- */

struct qcn_rp_params {
    uint64_t bc_limit_bytes;   /* BC_LIMIT: byte-counter cycle in fast recovery */
    uint64_t timer_ps;         /* T: timer cycle in fast recovery */
    uint32_t fr_cycles;        /* FR threshold: 5 cycles */
    uint32_t ai_halve;         /* 1: after FR the BC counts BC_LIMIT/2 and the timer T/2 */
    uint32_t gd_den;           /* G_d = 1/gd_den (fb_q units), must be > 63 */
    uint64_t r_ai_bps;         /* R_AI */
    uint64_t r_hai_bps;        /* R_HAI */
    uint64_t min_rate_bps;     /* CR never below this after a decrease */
};

/* PAPER: BC 150 KB, T 10 ms, FR 5, halving on, G_d 1/128, R_AI 5 Mb/s,
 * R_HAI 50 Mb/s, min rate 10 Mb/s.
 * DC: BC 150 KB, T 300 µs, FR 5, halving on, G_d 1/128,
 * R_AI = 5 Mb/s·line/25G, R_HAI = 50 Mb/s·line/25G (at least 1 b/s each),
 * min rate 100 Mb/s (capped at the line rate).  Sources in qcn.c. */
void qcn_rp_params_default(struct qcn_rp_params *p, uint64_t line_bps, int profile);

/* 0 if valid, else -1 and a reason: bc_limit >= 2, timer_ps >= 2, fr >= 1,
 * gd_den > 63, r_hai >= r_ai, min_rate > 0. */
int qcn_rp_params_check(const struct qcn_rp_params *p, char *why, size_t why_len);

enum qcn_rp_phase { QCN_RP_UNLIMITED = 0, QCN_RP_FR = 1, QCN_RP_AI = 2, QCN_RP_HAI = 3 };

struct qcn_rp {
    uint64_t cr_bps, tr_bps;   /* current and target rate */
    uint64_t line_bps;         /* Rmax, from qcn_rp_init */
    uint64_t bc_left;          /* bytes until the byte counter's next cycle */
    uint64_t deadline_ps;      /* timer expiry; UINT64_MAX when unlimited */
    uint32_t bc_stage, t_stage;/* completed cycles since the last feedback */
    uint8_t  limited;
    uint64_t n_fb, n_fb_ignored;
    uint64_t n_bc_cycles, n_timer_cycles;
    uint64_t n_fr, n_ai, n_hai;  /* increase steps by phase */
    uint64_t n_min_clamp;        /* decreases clamped to min_rate */
    uint64_t n_released;         /* limiter removed at line rate */
};

/* Unlimited: CR = TR = line_bps, no timer, counters zero. */
void qcn_rp_init(struct qcn_rp *s, const struct qcn_rp_params *p, uint64_t line_bps, uint64_t now_ps);

/* A feedback message with quantized |Fb| fb_q (values > 63 are taken as 63).
 * fb_q == 0 is ignored (returns 0).  Otherwise TR ← CR, CR ← max(min_rate,
 * CR − ⌊CR·fb_q/gd_den⌋), stages 0, BC = BC_LIMIT, deadline = now + T;
 * returns 1. */
int qcn_rp_on_feedback(struct qcn_rp *s, const struct qcn_rp_params *p, uint8_t fb_q, uint64_t now_ps);

/* bytes left the rate limiter.  While limited, each time the byte counter
 * runs out a BC cycle runs (several if bytes spans several). */
void qcn_rp_on_sent(struct qcn_rp *s, const struct qcn_rp_params *p, uint64_t bytes, uint64_t now_ps);

/* Timer cycle when now >= deadline (no-op otherwise or when unlimited);
 * re-armed at now + T (or T/2 after FR with ai_halve). */
void qcn_rp_on_timer(struct qcn_rp *s, const struct qcn_rp_params *p, uint64_t now_ps);

uint64_t qcn_rp_deadline(const struct qcn_rp *s);
uint64_t qcn_rp_rate_bps(const struct qcn_rp *s);      /* CR (line rate when unlimited) */
static inline uint64_t qcn_rp_window_bytes(const struct qcn_rp *s) { (void)s; return 0; }
enum qcn_rp_phase qcn_rp_phase(const struct qcn_rp *s, const struct qcn_rp_params *p);

#endif
