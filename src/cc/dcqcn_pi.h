/*
 * dcqcn_pi.h -- DCQCN+PI: the congestion point marks with a PI controller
 * instead of RED (Zhu, Ghobadi, Misra, Padhye, "ECN or Delay: Lessons
 * Learnt from Analysis of DCQCN and TIMELY", CoNEXT 2016, §5 "ECN versus
 * Delay").  The RP and NP are unchanged DCQCN (dcqcn.h).
 *
 * Model: one struct dcqcn_pi per egress queue.  The paper's controller is
 * continuous, dp/dt = K1·de/dt + K2·e(t) with e = q − q_ref.  We run it
 * every T (the caller reads the queue length in bytes):
 *
 *     p ← p + a·(q − q_ref) + b·(q − q_old),   q_old ← q,
 *
 * i.e. a = K2·T, b = K1, and clamp p to [0, p_max] (p_max = 1).  Every
 * departing packet is marked with probability p (dcqcn_pi_mark).
 *
 * The authors' fluid model (github.com/jitupadhye-zz/rdma,
 * fluidmodel/dcqcn/dcqcn_pi.m) writes the same controller in Hollot's form
 * p ← a'(q − q_ref) − b'(q_old − q_ref) + p, so a = a' − b', b = b'.  It
 * clamps only the output and keeps the unclamped sum as state; we clamp the
 * state by default (no wind-up) and offer the model's behaviour as
 * clamp_state = 0.
 *
 * Nothing here allocates, does I/O or keeps global state.
 */
#ifndef DCQCN_PI_H
#define DCQCN_PI_H

#include <stddef.h>
#include <stdint.h>

struct dcqcn_pi_params {
    double   a;             /* integral gain per byte per update */
    double   b;             /* proportional gain per byte */
    uint64_t q_ref_bytes;   /* reference queue length */
    uint64_t period_ps;     /* T */
    double   p_max;         /* upper clamp of p (1) */
    uint32_t clamp_state;   /* 1: state clamped (default); 0: fluid-model code */
};

/*
 * Defaults (line_bps unused: the paper gives one set, for its 40 G model):
 *   q_ref = 200 KB (200 packets of 1000 B), b = 5.816e-6 per packet
 *   = 5.816e-9 per byte, a = 1e-4·b = 5.816e-13 per byte: the authors'
 *   fluid model "stabilize[s] the queue at 200 for 2, 10 and 64 flows" with
 *   85 µs feedback delay (dcqcn_pi.m: b' = 5.816e-6, a' = (1 + 1e-4)·b';
 *   its 4 µs-delay set b' = 1.816e-5 is commented out there).  The paper
 *   text gives no numbers (§5, Fig. "DCQCN with PI controller").
 *   T = 1 µs: our choice (the model is continuous).  The integral action per
 *   second is a/T: to run the controller less often keep a/T constant.
 *   p_max = 1, clamp_state = 1.
 */
void dcqcn_pi_params_default(struct dcqcn_pi_params *p, uint64_t line_bps);

/* 0 if valid, else -1 and a reason in why (may be NULL / why_len 0):
 * a, b finite and >= 0, period > 0, 0 < p_max <= 1, clamp_state 0 or 1. */
int dcqcn_pi_params_check(const struct dcqcn_pi_params *p, char *why, size_t why_len);

struct dcqcn_pi {
    double   p;             /* marking probability in [0, p_max] */
    double   state;         /* integrator (== p when clamp_state) */
    uint64_t q_old;         /* bytes */
    uint64_t deadline_ps;
    uint64_t n_updates, n_clamp_lo, n_clamp_hi;
};

/* p = 0, q_old = 0, first update due at now + T. */
void   dcqcn_pi_init(struct dcqcn_pi *s, const struct dcqcn_pi_params *p, uint64_t now_ps);

/* One controller step with the queue length in bytes; returns the new p. */
double dcqcn_pi_update(struct dcqcn_pi *s, const struct dcqcn_pi_params *p, uint64_t qbytes);

/* If now >= deadline: one dcqcn_pi_update() and deadline = now + T (a late
 * call re-arms from now).  Otherwise nothing. */
void   dcqcn_pi_on_timer(struct dcqcn_pi *s, const struct dcqcn_pi_params *p, uint64_t qbytes, uint64_t now_ps);

uint64_t dcqcn_pi_deadline(const struct dcqcn_pi *s);
double   dcqcn_pi_prob(const struct dcqcn_pi *s);

/* 1 if the packet is marked: u01 < p, u01 uniform in [0,1) from the caller. */
int      dcqcn_pi_mark(const struct dcqcn_pi *s, double u01);

#endif
