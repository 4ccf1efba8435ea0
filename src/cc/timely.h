/*
 * timely.h -- TIMELY rate control (Mittal et al., "TIMELY: RTT-based
 * Congestion Control for the Datacenter", SIGCOMM 2015, Algorithm 1) and
 * patched TIMELY (Zhu et al., "ECN or Delay: Lessons Learnt from Analysis
 * of DCQCN and TIMELY", CoNEXT 2016, §4.3, Algorithm 2), one struct timely
 * per flow.
 *
 * Model.  A completion event carries one RTT sample, rtt = now - the send
 * timestamp the ACK echoes (both from the sender's clock).  Per event:
 *
 *   new_rtt_diff = rtt - prev_rtt;  prev_rtt = rtt
 *   rtt_diff = (1 - alpha)·rtt_diff + alpha·new_rtt_diff
 *   g = rtt_diff / minRTT                       (normalized gradient)
 *   rtt < T_low:          R += delta
 *   rtt > T_high:         R *= 1 - beta·(1 - T_high/rtt)
 *   original:  g <= 0:    R += N·delta  (N = 5, "HAI", once the previous
 *                                        hai_thresh = 5 completions in a row
 *                                        had g <= 0; else N = 1)
 *              g > 0:     R *= 1 - beta·g   (factor floored at 0)
 *   patched (T_low <= rtt <= T_high, ECN-or-Delay Alg. 2):
 *              w = 0 (g <= -1/4), 2g + 1/2, 1 (g >= 1/4)
 *              err = (rtt - RTT_ref)/RTT_ref
 *              R = delta·(1 - w) + R·(1 - beta·w·err)
 *   R is clamped to [min_rate, max_rate].
 *
 * Patched TIMELY's fixed point (§4.3, Eq. after Thm. "fixed point"): with
 * g = 0, w = 1/2, so delta = beta·R·err; N flows sharing C at R = C/N give
 * a unique queueing point RTT* = RTT_ref·(1 + N·delta/(beta·C)) (q* =
 * N·R_AI·q'/(beta·C) + q', q' = C·T_low).
 *
 * Once per RTT.  The paper computes a rate per completion of a 16-64 KB
 * segment, and its rate updates are spaced at least minRTT apart (§5).  We
 * gate like the HPCC simulator: an ACK is a completion event iff ack_seq >
 * lastUpdateSeq, which then becomes snd_nxt, so at most one update per RTT;
 * other ACKs are counted and ignored.
 *
 * TIMELY_PROFILE_HPCC_SIM: the HPCC ns-3 simulator's TIMELY
 * (reference-implementations.md §2 "TIMELY / DCTCP"): AI = bw Mb/s, HAI =
 * 5·bw Mb/s (bw = NIC Gb/s, run.py), min rate 1000 Mb/s (run.py); the first
 * completion only records prev_rtt; the HAI counter (incStage) counts every
 * increase, including rtt < T_low ones, and HAI applies to those too.
 *
 * Units: time in ps, rates in bit/s.  No timers (deadline UINT64_MAX), no
 * window (timely_window_bytes() = 0).  Nothing here allocates, does I/O or
 * keeps global state.
 */
#ifndef TIMELY_H
#define TIMELY_H

#include <stddef.h>
#include <stdint.h>

enum timely_mode {
    TIMELY_ORIGINAL = 0,   /* SIGCOMM'15 Algorithm 1 (gradient-based) */
    TIMELY_PATCHED  = 1    /* CoNEXT'16 §4.3 Algorithm 2 (absolute RTT vs RTT_ref) */
};

enum timely_profile {
    TIMELY_PROFILE_PAPER    = 0,   /* TIMELY paper values, original mode (default) */
    TIMELY_PROFILE_HPCC_SIM = 1,   /* HPCC simulator's TIMELY (see above) */
    TIMELY_PROFILE_PATCHED  = 2    /* ECN-or-Delay §4.3 values, patched mode */
};

struct timely_params {
    uint32_t mode;            /* enum timely_mode */
    uint32_t profile;         /* enum timely_profile (selects the simulator's quirks) */
    double   alpha;           /* EWMA weight of new_rtt_diff */
    double   beta;            /* multiplicative decrease factor */
    uint64_t t_low_ps, t_high_ps;
    uint64_t min_rtt_ps;      /* minRTT (D_minRTT), normalizes the gradient */
    uint64_t rtt_ref_ps;      /* patched: RTT_ref */
    uint64_t delta_bps;       /* additive increment delta */
    uint64_t hai_bps;         /* hyper-active increment N·delta */
    uint32_t hai_thresh;      /* consecutive g <= 0 completions before HAI */
    uint64_t min_rate_bps, max_rate_bps;
};

/* Defaults (line_bps = NIC rate, max_rate = line_bps):
 *   paper:   alpha 0.875, beta 0.8, T_low 50 µs, T_high 500 µs, minRTT
 *            20 µs (the TIMELY values as restated by ECN-or-Delay §4.1;
 *            also the HPCC simulator's RdmaHw defaults), delta 10 Mb/s
 *            (ECN-or-Delay §4.2), HAI N = 5 after 5 completions (TIMELY
 *            Alg. 1), hai = 5·delta; min rate 10 Mb/s = delta (our choice:
 *            TIMELY leaves minRate optional; it must stay > 0).
 *   hpcc_sim: as paper but delta = bw Mb/s, hai = 5·bw Mb/s, min 1000 Mb/s.
 *   patched: as paper, mode TIMELY_PATCHED, beta = 0.008 (ECN-or-Delay
 *            §4.3, used in all of Alg. 2), RTT_ref = T_low (§4.3: q' =
 *            C·T_low). */
void timely_params_default(struct timely_params *p, uint64_t line_bps, enum timely_profile profile);

/* 0 if valid; otherwise -1 and a reason in why (may be NULL / why_len 0). */
int timely_params_check(const struct timely_params *p, char *why, size_t why_len);

struct timely {
    uint64_t rate_bps;        /* R */
    double   rtt_diff_ps;     /* EWMA of RTT differences */
    double   gradient;        /* g of the last completion */
    uint64_t prev_rtt_ps;     /* previous sample */
    uint64_t last_rtt_ps;     /* last accepted sample (diagnostic) */
    uint64_t last_update_seq; /* lastUpdateSeq */
    uint32_t inc_stage;       /* HAI counter */
    uint8_t  have_prev;       /* prev_rtt valid */
    /* counters */
    uint64_t n_acks;          /* timely_on_ack calls */
    uint64_t n_gated;         /* ACKs that did not close an RTT */
    uint64_t n_bad_rtt;       /* echoed timestamp after now: rejected */
    uint64_t n_first;         /* simulator profile: first completion, only recorded */
    uint64_t n_updates;       /* completion events that ran the rate computation */
    uint64_t n_tlow, n_thigh; /* rtt < T_low / rtt > T_high branches */
    uint64_t n_ai, n_hai;     /* gradient-branch increases by delta / by HAI */
    uint64_t n_md;            /* gradient-branch decreases (g > 0) */
    uint64_t n_patched;       /* patched middle-branch updates */
    uint64_t n_clamp_min, n_clamp_max;
};

/* R = line_bps clamped to [min_rate, max_rate] (TIMELY starts a new flow at
 * C/(N+1) with N flows already active at the sender: pass that as line_bps),
 * rtt_diff = 0, no previous RTT, lastUpdateSeq = 0.  now_ps is unused. */
void timely_init(struct timely *s, const struct timely_params *p, uint64_t line_bps, uint64_t now_ps);

/* An ACK acknowledging up to ack_seq, with snd_nxt the sender's next
 * sequence number and tx_ts_ps the send timestamp of the acknowledged
 * packet echoed by the receiver, in the same clock as now_ps.  If ack_seq >
 * lastUpdateSeq this is a completion event: rtt = now_ps - tx_ts_ps, the
 * rate is updated and lastUpdateSeq = snd_nxt.  tx_ts_ps > now_ps (another
 * clock, or a corrupt echo) is rejected without consuming the RTT. */
void timely_on_ack(struct timely *s, const struct timely_params *p, uint64_t ack_seq, uint64_t snd_nxt,
                   uint64_t tx_ts_ps, uint64_t now_ps);

/* The rate computation for one RTT sample, without the once-per-RTT gate
 * (timely_on_ack calls it).  For callers whose NIC reports RTTs directly. */
void timely_on_rtt(struct timely *s, const struct timely_params *p, uint64_t rtt_ps);

/* The patched weight w(g) (ECN-or-Delay §4.3). */
double timely_patched_weight(double g);

/* No timers: on_timer does nothing, the deadline is UINT64_MAX. */
void     timely_on_timer(struct timely *s, const struct timely_params *p, uint64_t now_ps);
uint64_t timely_deadline(const struct timely *s);

uint64_t timely_rate_bps(const struct timely *s);
uint64_t timely_window_bytes(const struct timely *s);   /* 0: rate-based */

#endif
