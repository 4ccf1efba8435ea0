/*
 * hpcc.h -- HPCC sender (Li et al., "HPCC: High Precision Congestion
 * Control", SIGCOMM 2019, §3, Algorithm 1), one struct hpcc per flow.
 *
 * Model (paper profile, the default).  Every ACK echoes the INT record of
 * the data packet it acknowledges: per hop j the time the egress dequeued
 * it (ts), the bytes that port had sent (txBytes), its queue length (qlen)
 * and its line rate (B).  hpcc_on_ack() runs NewAck (Alg. 1 lines 21-27):
 *
 *   MeasureInflight (lines 1-10), per hop j with a previous record:
 *     txRate_j = (txBytes_j - txBytes'_j) / (ts_j - ts'_j)
 *     u_j      = min(qlen_j, qlen'_j)·8/(B_j·T) + txRate_j/B_j
 *     u = max_j u_j, tau = ts_j - ts'_j of that hop, tau = min(tau, T)
 *     U = (1 - tau/T)·U + (tau/T)·u
 *   ComputeWind (lines 11-20):
 *     U >= eta or incStage >= maxStage:  W = W^c/(U/eta) + W_AI
 *     otherwise:                         W = W^c + W_AI
 *   and only on the ACK that closes an RTT (ack_seq > lastUpdateSeq):
 *     W^c = W, incStage = 0 (first branch) or incStage + 1 (second),
 *     lastUpdateSeq = snd_nxt.  Other ACKs (the paper's "fast reaction
 *     without overreaction") set W from W^c without touching W^c or
 *     incStage.
 *   R = W/T (line 27).  The ' values are this hop's record from the
 *   previous ACK (kept here, up to HPCC_MAX_HOPS hops).
 *
 * The qlen term: the paper's per-link formula in §3, U_j = qlen_j/(B_j·T) +
 * txRate_j/B_j ("Eq" below), uses qlen_j; Algorithm 1 line 5 takes
 * min(qlen_j, qlen'_j), as does the authors' IETF draft draft-miao-tsv-hpcc.
 * Default: Algorithm 1; hpcc_params.qlen_min = 0 selects Eq.
 *
 * Our choices where Algorithm 1 is silent (paper profile): W is kept in
 * [1, W_init] (a larger window could not be paced above line rate); an ACK
 * with no usable hop delta (first ACK, nhop changed, no newer timestamp)
 * only stores the records; a hop whose ts did not advance is skipped; the
 * first usable hop seeds the max, so an idle path (all u_j = 0) decays U;
 * U starts at 0.
 *
 * HPCC_PROFILE_SIM: what the HPCC ns-3 simulator does instead
 * (reference-implementations.md §2 "Sender (UpdateRateHp)", "Window and
 * pacing"; values from run.py "hp"):
 *   - rate-based: R = R^c/(U/eta) + R_AI or R^c + R_AI, clamped to
 *     [min_rate, line]; R^c is the reference (updated like W^c);
 *   - window = win = maxBdp, or win·R/line with VAR_WIN (default on);
 *   - u_j = txRate_j/B_j + min(qlen_j, qlen'_j)·line/(B_j·win) (= the paper's
 *     term when win = line·T/8);
 *   - U (u_ewma) starts at 1; MI_THRESH (maxStage) = 0; R_AI =
 *     10·bw/25 Mb/s (bw = NIC Gb/s); min rate 1000 Mb/s;
 *   - the first ACK only stores the INT record and sets lastUpdateSeq =
 *     snd_nxt; an ACK closing an RTT advances lastUpdateSeq even if no hop
 *     had a new timestamp; if every hop has u_j = 0 the EWMA is unchanged
 *     (dt stays 0).
 *
 * Units: time in ps, rates in bit/s, windows and queues in bytes.  INT
 * records here are decoded 64-bit values (no wrap-around): a caller reading
 * the simulator's packed wire format (24-bit ns time, 20-bit byte counter)
 * must unwrap the deltas before filling struct hpcc_int_hop.
 *
 * No timers: hpcc_deadline() is always UINT64_MAX.  Nothing here
 * allocates, does I/O or keeps global state.
 */
#ifndef HPCC_H
#define HPCC_H

#include <stddef.h>
#include <stdint.h>

/* INT hops per packet: maxHop = 5 (HPCC simulator int-header.h,
 * reference-implementations.md §2 "INT hop"). */
#define HPCC_MAX_HOPS 5

/* INT header wire size (HPCC simulator, reference-implementations.md §2
 * "INT hop"): 8 B per hop (3-bit line-rate index, 24-bit time in ns,
 * 20-bit tx bytes in 128 B units, 17-bit qlen in 80 B units) plus a u16
 * nhop.  The simulator always carries maxHop slots: HPCC_INT_BYTES(5) = 42 B,
 * added to every data packet's header (and echoed in ACKs). */
#define HPCC_INT_HOP_BYTES   8u
#define HPCC_INT_NHOP_BYTES  2u
#define HPCC_INT_BYTES(nhop_max) (HPCC_INT_NHOP_BYTES + HPCC_INT_HOP_BYTES * (unsigned)(nhop_max))

/* One hop of INT as echoed in an ACK (HPCC §3: ts, txBytes, qLen, B). */
struct hpcc_int_hop {
    uint64_t ts_ps;        /* when the egress dequeued the packet */
    uint64_t tx_bytes;     /* bytes that egress port had sent (cumulative) */
    uint32_t qlen_bytes;   /* egress queue length */
    uint64_t rate_bps;     /* egress line rate B_j */
};

enum hpcc_profile {
    HPCC_PROFILE_PAPER = 0,   /* Algorithm 1, window-based (default) */
    HPCC_PROFILE_SIM   = 1    /* HPCC ns-3 simulator, rate-based (see above) */
};

struct hpcc_params {
    uint32_t profile;         /* enum hpcc_profile */
    uint64_t line_bps;        /* NIC line rate B_NIC (the simulator's maxRate) */
    uint64_t base_rtt_ps;     /* T */
    double   eta;             /* target utilization */
    uint32_t max_stage;       /* maxStage (MI_THRESH in the simulator) */
    uint32_t fast_react;      /* 1: every ACK sets W/R (fast reaction); 0: only RTT-closing ACKs are used */
    uint32_t qlen_min;        /* 1: min(qlen, previous qlen) (Alg. 1 line 5); 0: qlen (Eq) */
    double   u_init;          /* U before the first sample */
    uint64_t w_init_bytes;    /* W_init = B_NIC·T (paper); win = maxBdp (simulator); also the window cap */
    uint64_t w_ai_bytes;      /* W_AI (paper profile) */
    uint64_t r_ai_bps;        /* R_AI (simulator profile) */
    uint64_t min_rate_bps;    /* rate floor (simulator profile) */
    uint32_t var_win;         /* simulator VAR_WIN: window = win·R/line */
};

/* Defaults for a NIC of line_bps and base RTT T = base_rtt_ps:
 *   both:  eta = 0.95, W_init = line·T/8 bytes, fast_react = 1,
 *          qlen_min = 1.
 *   paper: maxStage = 5 (the paper's stated setting; its authors later
 *          said the simulations used 0, alibaba-edu/HPCC issue #24);
 *          W_AI = W_init·(1 - eta)/N with N = 100 expected flows per link
 *          (HPCC §3 sizes W_AI so N flows' increases fit in the 1 - eta
 *          headroom; N = 100 is our choice, close to the simulator's R_AI);
 *          u_init = 0 (Alg. 1 leaves it open; 0 keeps an idle path at
 *          W_init).
 *   sim:   maxStage = 0, R_AI = 10·bw/25 Mb/s, min rate 1000 Mb/s (run.py),
 *          u_init = 1, var_win = 1 (config.txt). */
void hpcc_params_default(struct hpcc_params *p, uint64_t line_bps, uint64_t base_rtt_ps,
                         enum hpcc_profile profile);

/* 0 if valid; otherwise -1 and a reason in why (may be NULL / why_len 0). */
int hpcc_params_check(const struct hpcc_params *p, char *why, size_t why_len);

/* Previous INT record of one hop (rate is taken from the new record). */
struct hpcc_hop_rec {
    uint64_t ts_ps;
    uint64_t tx_bytes;
    uint32_t qlen_bytes;
};

struct hpcc {
    double   u;               /* U (EWMA of the max normalized inflight) */
    double   u_sample;        /* u of the last ACK with a sample (max over hops, before the EWMA) */
    uint64_t tau_ps;          /* tau of the last sample, after the cap at T */
    uint64_t w_bytes;         /* current window W */
    uint64_t wc_bytes;        /* reference window W^c (paper) */
    uint64_t rate_bps;        /* current pacing rate R */
    uint64_t rc_bps;          /* reference rate R^c (simulator) */
    uint64_t last_update_seq; /* lastUpdateSeq */
    uint32_t inc_stage;       /* incStage */
    uint8_t  nrec;            /* hops in rec[]; 0 = no record yet */
    struct hpcc_hop_rec rec[HPCC_MAX_HOPS];
    /* counters */
    uint64_t n_acks;          /* hpcc_on_ack calls */
    uint64_t n_rtt_updates;   /* RTT-closing ACKs that updated W^c / R^c */
    uint64_t n_fast;          /* fast reactions (W/R set, reference kept) */
    uint64_t n_mi;            /* computations in the U >= eta or incStage >= maxStage branch */
    uint64_t n_ai;            /* computations in the additive branch */
    uint64_t n_no_sample;     /* ACKs without a usable hop delta (first ACK, path change, ...) */
    uint64_t n_path_reset;    /* records dropped because nhop changed */
    uint64_t n_hop_skipped;   /* hops without a usable delta (same/older ts, counter went back, B = 0) */
    uint64_t n_bad_int;       /* ACKs ignored: nhop > HPCC_MAX_HOPS or hops == NULL */
    uint64_t n_ignored;       /* non-RTT-closing ACKs ignored because fast_react = 0 */
};

/* Start: paper W = W^c = min(line_bps, p->line_bps)·T/8 (= W_init for
 * line_bps = p->line_bps: HPCC flows start at line rate), R = W/T; simulator
 * R = R^c = min(line_bps, p->line_bps) (at least min_rate), window from it.
 * line_bps = 0 means p->line_bps.  U = u_init,
 * incStage = 0, lastUpdateSeq = 0, no hop record.  now_ps is unused. */
void hpcc_init(struct hpcc *s, const struct hpcc_params *p, uint64_t line_bps, uint64_t now_ps);

/* NewAck (Alg. 1) for an ACK acknowledging up to ack_seq, with snd_nxt the
 * sender's next sequence number now and hops[0..nhop) the echoed INT (hop 0
 * first).  nhop > HPCC_MAX_HOPS (or hops == NULL with nhop > 0): ignored.
 * If nhop differs from the stored record count the records are replaced
 * and this ACK carries no sample.  In the paper profile an ACK without a
 * sample changes nothing but the records. */
void hpcc_on_ack(struct hpcc *s, const struct hpcc_params *p, uint64_t ack_seq, uint64_t snd_nxt,
                 const struct hpcc_int_hop *hops, unsigned nhop, uint64_t now_ps);

/* The sample half of NewAck, for a caller that decides itself when a
 * reference update is due (HPCC*'s near-source loop, hpcc_star.h):
 * MeasureInflight and ComputeWind on hops[0..nhop), with rtt_end = 1 making
 * it a reference update (W^c / R^c and incStage, as an RTT-closing ACK).
 * Returns -1 if ignored (bad INT, or rtt_end = 0 with fast_react = 0), 0
 * without a sample (records stored), 1 if W/R were recomputed.  Touches
 * neither lastUpdateSeq nor n_acks (hpcc_on_ack = this + those). */
int hpcc_on_int(struct hpcc *s, const struct hpcc_params *p, int rtt_end,
                const struct hpcc_int_hop *hops, unsigned nhop);

/* One hop's sample from its previous record: returns 1 and sets
 * *tx_rate_bps = Δbytes·8/Δts and *u = u_j (profile's formula), or returns
 * 0 if there is no usable delta (ts not after prev, tx_bytes went back,
 * rate 0).  Exposed for tests and diagnostics. */
int hpcc_hop_sample(const struct hpcc_params *p, const struct hpcc_hop_rec *prev,
                    const struct hpcc_int_hop *cur, double *tx_rate_bps, double *u);

/* No timers: on_timer does nothing, the deadline is UINT64_MAX. */
void     hpcc_on_timer(struct hpcc *s, const struct hpcc_params *p, uint64_t now_ps);
uint64_t hpcc_deadline(const struct hpcc *s);

uint64_t hpcc_rate_bps(const struct hpcc *s);     /* R */
uint64_t hpcc_window_bytes(const struct hpcc *s); /* W (> 0) */

#endif
