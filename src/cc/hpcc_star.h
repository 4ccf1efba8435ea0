/*
 * hpcc_star.h -- HPCC*, HPCC with LSCC's split feedback loop (Long et al.,
 * "LSCC: Link-Segmented Congestion Control for RDMA in Cross-Datacenter
 * Networks", §III-D; ../shared/papers/lscc-cross-datacenter-rdma-cc.txt).
 * One struct hpcc_star per flow.
 *
 * Model.  LSCC's rate calculation (remote egress) is unchanged; its rate
 * limiting (local egress) sends, instead of direct CNPs, a DIRECT INT to the
 * source of every data packet it forwards: the INT hops the packet carries
 * (the local datacenter's) plus one hop for the long-haul link whose queue
 * length is the pseudo-queue Q* and whose rate is B, the feedback rate the
 * local egress last received (a 24-bit field, HPCC_STAR_B_BITS); the data
 * packet's INT is then cleared (nHop = 0), so ACKs carry only the remote
 * side's hops.  The source runs two loops (§III-D "dual loops"):
 *
 *   normal loop:  HPCC (hpcc.h) on ACKs: W, reference W^c updated once per
 *                 RTT (ack_seq > lastUpdateSeq).
 *   near-source loop: HPCC on direct INTs, computed independently: W*.
 *                 Direct INTs carry no sequence number, so the reference
 *                 update (W*^c = W*, incStage) is timed from the ACKs: at
 *                 the RTT update the normal loop moves lastUpdateSeq from
 *                 snd_una (its old value) to snd_nxt; the ACK of
 *                 snd_una + k·(snd_nxt − snd_una)/N (k = 1..N) means k·RTT/N
 *                 have elapsed, and the next direct INT after it makes a
 *                 reference update.  Other direct INTs only set W* from W*^c
 *                 (HPCC's fast reaction).
 *   The flow uses W* when it is smaller than W: window min(W, W*), rate
 *   min(W, W*)/T.
 *
 * Our choices where §III-D is terse (docs/crossdc.md "HPCC*"):
 *   - The near loop is HPCC with base RTT T/N (its reference-update
 *     interval): U_j = qlen_j/(B_j·T/N) + txRate_j/B_j, the EWMA over T/N,
 *     W_AI sized for T/N (hpcc.h's rule), its window scaled by N to full-RTT
 *     bytes before the comparison with W (so both are rates × T).
 *     near_rtt = HPCC_STAR_NEAR_RTT_T instead keeps the flow's T in the
 *     near loop (U_j = qlen_j/(B_j·T) + txRate_j/B_j, the EWMA over T, HPCC's
 *     W_AI): the literal reading, where only the update interval (RTT/N)
 *     differs.  §III-D states neither; docs/crossdc.md "Why HPCC* loses
 *     throughput" measures both.
 *   - N defaults to round(T / 200 µs), at least 1: RTT/N is then LSCC's
 *     period T = 200 µs (§III-C), the interval at which B changes (with
 *     LSCC's N = 2D/T, the same N).
 *   - B's unit: 1 Mb/s (HPCC_STAR_B_UNIT_BPS); 24 bits reach 16.8 Tb/s.
 *   - A direct INT is refused (counted, no effect) if nhop is 0 or above
 *     HPCC_MAX_HOPS, or B is 0 or above HPCC_STAR_B_MAX.  B replaces the
 *     last hop's rate (the long-haul hop's B field is the 24-bit one).
 *   - Until the first reference update, W*^c is W_init (line rate), as
 *     HPCC's W^c.
 *
 * Units: time in ps, rates in bit/s, windows and queues in bytes.  Nothing
 * here allocates, does I/O or keeps global state.
 */
#ifndef HPCC_STAR_H
#define HPCC_STAR_H

#include <stddef.h>
#include <stdint.h>

#include "hpcc.h"

/* B field: 24 bits (§III-D: "HPCC* adds an additional 24 bits to record B"),
 * in units of 1 Mb/s (ours: the paper gives no unit). */
#define HPCC_STAR_B_BITS     24u
#define HPCC_STAR_B_MAX      ((1u << HPCC_STAR_B_BITS) - 1u)
#define HPCC_STAR_B_UNIT_BPS 1000000ull
/* INT header of HPCC*: HPCC's (HPCC_INT_BYTES(HPCC_MAX_HOPS) = 42 B) plus
 * the 3-byte B field. */
#define HPCC_STAR_INT_BYTES  (HPCC_INT_BYTES(HPCC_MAX_HOPS) + HPCC_STAR_B_BITS / 8u)
/* Default near-loop interval RTT/N: LSCC's T = 200 µs (§III-C "T"). */
#define HPCC_STAR_NEAR_PS    200000000ull
/* Largest N (ours): keeps T/N above a few ps for any sane T. */
#define HPCC_STAR_MAX_N      4096u

/* The near loop's base RTT (struct hpcc_star_params.near_rtt). */
enum hpcc_star_near_rtt {
    HPCC_STAR_NEAR_RTT_T_OVER_N = 0,   /* T/N (default, ours) */
    HPCC_STAR_NEAR_RTT_T        = 1    /* T, as the normal loop */
};

struct hpcc_star_params {
    struct hpcc_params loop;  /* normal loop: HPCC with T = base RTT */
    struct hpcc_params near;  /* near-source loop: HPCC with T/N (or T, near_rtt) */
    uint32_t n;               /* N: near-loop reference updates per RTT */
    uint32_t near_rtt;        /* enum hpcc_star_near_rtt */
};

/* N = round(base_rtt_ps / HPCC_STAR_NEAR_PS), at least 1, at most
 * HPCC_STAR_MAX_N. */
uint32_t hpcc_star_n_for(uint64_t base_rtt_ps);

/* loop = hpcc_params_default(line, T, profile); near = the same with
 * T/N (N = n, or hpcc_star_n_for(T) for n = 0); near_rtt = T_OVER_N. */
void hpcc_star_params_default(struct hpcc_star_params *p, uint64_t line_bps, uint64_t base_rtt_ps,
                              enum hpcc_profile profile, uint32_t n);

/* Rebuild p->near with base RTT T (mode HPCC_STAR_NEAR_RTT_T) or T/N
 * (HPCC_STAR_NEAR_RTT_T_OVER_N) from p->loop's line rate, T and profile
 * (hpcc_params_default), and set p->near_rtt; call before overriding
 * [hpcc] keys. */
void hpcc_star_params_near_rtt(struct hpcc_star_params *p, enum hpcc_star_near_rtt mode);

/* 0 if valid, else -1 and why: both hpcc_params valid, same profile and
 * line rate, 1 <= N <= HPCC_STAR_MAX_N, near T = loop T / N (integer
 * division, > 0), or = loop T with near_rtt = T. */
int hpcc_star_params_check(const struct hpcc_star_params *p, char *why, size_t why_len);

struct hpcc_star {
    struct hpcc loop;          /* normal loop (W) */
    struct hpcc near;          /* near-source loop (W* / N, see above) */
    uint64_t una, nxt;         /* snd_una and snd_nxt of the last RTT update (§III-D) */
    uint64_t mark;             /* the ACK of this sequence number closes the next RTT/N */
    uint32_t k;                /* RTT/N intervals closed in this RTT (0..N) */
    uint8_t  near_due;         /* an interval closed: the next direct INT updates W*^c */
    uint8_t  pad_[3];
    /* counters */
    uint64_t n_dint;           /* direct INTs accepted */
    uint64_t n_dint_bad;       /* direct INTs refused (malformed) */
    uint64_t n_near_ref;       /* near-loop reference updates */
    uint64_t n_intervals;      /* RTT/N intervals closed by ACKs */
    uint64_t n_star_binds;     /* ACKs and direct INTs after which W* < W (W* is the window) */
    uint64_t n_updates;        /* ACKs and direct INTs taken (the denominator of n_star_binds) */
    uint64_t n_wound;          /* of n_star_binds: W was at its cap W_init (the normal loop wound up) */
};

/* Both loops at line rate (hpcc_init), no RTT update yet (una = nxt = 0). */
void hpcc_star_init(struct hpcc_star *s, const struct hpcc_star_params *p, uint64_t line_bps, uint64_t now_ps);

/* An ACK (normal loop): hpcc_on_ack on the remote hops, then the snd_una
 * bookkeeping for the RTT/N intervals. */
void hpcc_star_on_ack(struct hpcc_star *s, const struct hpcc_star_params *p, uint64_t ack_seq, uint64_t snd_nxt,
                      const struct hpcc_int_hop *hops, unsigned nhop, uint64_t now_ps);

/* A direct INT: hops[0..nhop) as received, the last one the long-haul hop
 * (qlen = Q*), b_units its 24-bit B field (HPCC_STAR_B_UNIT_BPS each).
 * Returns 0 if taken, -1 if refused (no effect but n_dint_bad). */
int hpcc_star_on_dint(struct hpcc_star *s, const struct hpcc_star_params *p, const struct hpcc_int_hop *hops,
                      unsigned nhop, uint32_t b_units, uint64_t now_ps);

/* W* in full-RTT bytes: the near loop's window × T / (near loop's T). */
uint64_t hpcc_star_w_star_bytes(const struct hpcc_star *s, const struct hpcc_star_params *p);
/* min(W, W*) (> 0) and its rate min(W, W*)·8/T (capped at the line rate). */
uint64_t hpcc_star_window_bytes(const struct hpcc_star *s, const struct hpcc_star_params *p);
uint64_t hpcc_star_rate_bps(const struct hpcc_star *s, const struct hpcc_star_params *p);

#endif
