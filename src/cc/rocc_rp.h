/*
 * rocc_rp.h -- RoCC reaction point (RP): the per-flow rate limiter of
 * Alg. 2 (Taheri et al., "RoCC", CoNEXT 2020, §3.5).
 *
 * Model: one struct rocc_rp per flow (per rate limiter, RL).  A fresh RP is
 * unlimited: the flow sends at Rmax.  rocc_rp_on_cnp() runs PROCESS_CNP: it
 * accepts a CNP whose rate is <= the current rate (Rmax when unlimited) or
 * that comes from the CP whose rate it already follows, and then installs
 * the limiter and (re)arms the fast-recovery timer.  When the timer is due
 * (now >= deadline_ps) the caller runs rocc_rp_on_timer() (TIMER_EXPIRED):
 * the rate doubles each period without accepted CNPs, and once it exceeds
 * Rmax the limiter is removed.  The caller shapes traffic at
 * rocc_rp_rate_bps(); this module keeps no clock and schedules nothing.
 *
 * Not here: the NIC reaction delay (15 µs, §6).  The caller delays CNP
 * delivery by it before calling rocc_rp_on_cnp(), as the authors' code does
 * (RATE_MSG_PROP_DELAY, reference doc §1).
 */
#ifndef ROCC_RP_H
#define ROCC_RP_H

#include <stdint.h>

struct rocc_rp_params {
    uint32_t f_unit_mbps;     /* ΔF (§6) */
    uint64_t r_max_mbps;      /* Rmax: the NIC line rate */
    uint64_t recovery_ps;     /* fast-recovery timer, 55 µs (authors' SELF_RISE_INTERVAL; paper leaves it open) */
};

/* ΔF = 10 Mb/s, Rmax = line_bps / 10^6 (Mb/s, truncated), recovery 55 µs. */
void rocc_rp_params_default(struct rocc_rp_params *p, uint64_t line_bps);

struct rocc_rp {
    uint64_t rate_mbps;       /* R_cur; meaningful only when limited (0 otherwise) */
    uint64_t deadline_ps;     /* when the recovery timer fires; UINT64_MAX when no limiter */
    uint32_t cp_id;           /* CP_cur; ROCC_CP_NONE when none */
    uint8_t  limited;         /* 1 while a rate limiter is installed */
    uint64_t n_accepted, n_rejected, n_doublings;
    uint64_t n_removed;       /* limiters removed by the timer (Alg. 2 line 10) */
};

/* "No CP".  Never a valid CP identity: a CNP carrying it never matches
 * CP_cur through the same-CP clause. */
#define ROCC_CP_NONE 0xffffffffu

void rocc_rp_init(struct rocc_rp *rp);            /* unlimited, no CP, no timer */

/* PROCESS_CNP: rate_units in ΔF. Accept if R_rcvd <= R_cur (R_cur = Rmax when unlimited) or cp == CP_cur.
 * On accept: install limiter, set rate, CP, deadline = now + recovery. Returns 1 if accepted.
 * A CNP with rate_units == 0 is rejected: CPs never send it (Fmin > 0, §3.2)
 * and R_cur = 0 could never recover by doubling. */
int rocc_rp_on_cnp(struct rocc_rp *rp, const struct rocc_rp_params *p, uint32_t rate_units, uint32_t cp_id, uint64_t now_ps);

/* TIMER_EXPIRED, to be called when now >= deadline: if R_cur > Rmax the
 * limiter is removed and the RP returns to the rocc_rp_init() state
 * (limited=0, deadline=UINT64_MAX, rate_mbps=0, cp_id=ROCC_CP_NONE: the
 * paper "removes this rate limiter", and CP_cur is part of it); else
 * R_cur *= 2 and deadline = now + recovery.  A call with no limiter or
 * before the deadline does nothing. */
void rocc_rp_on_timer(struct rocc_rp *rp, const struct rocc_rp_params *p, uint64_t now_ps);

/* The rate the sender may use: min(R_cur, Rmax) when limited, else Rmax, in bits/s. */
uint64_t rocc_rp_rate_bps(const struct rocc_rp *rp, const struct rocc_rp_params *p);

#endif
