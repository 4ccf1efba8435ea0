/*
 * dctcp.h -- DCTCP (Alizadeh et al., "Data Center TCP", SIGCOMM 2010, §3),
 * sender side, in two forms selected by dctcp_params.mode.
 *
 * Switch: a packet is CE-marked when the instantaneous queue exceeds K
 * (§3.1 "simple marking at the switch", deterministic, "Pmax 1"):
 * dctcp_mark().  Receiver: echoes
 * every mark as ECE on the ACK of that packet (the caller's job).
 *
 * DCTCP_WINDOW (the paper, default).  Per ACK, with snd_una/snd_nxt the
 * sender's 64-bit byte offsets after the ACK:
 *   - observation window: opens at the first ACK with win_end = snd_nxt;
 *     acked and ECE-marked bytes are summed; when snd_una >= win_end the
 *     window closes: F = marked/acked, α ← (1 − g)α + g·F (§3.1 eq. 1), and a
 *     new one opens with win_end = snd_nxt (one window ≈ one RTT);
 *   - ECE outside CWR: cwnd ← max(min_cwnd, cwnd − ⌊cwnd·α/2⌋) (§3.1 eq. 2),
 *     ssthresh ← cwnd (leaves slow start), CWR until snd_una > snd_nxt of
 *     the cut -- at most one cut per window of data, as TCP's ECN reaction
 *     (RFC 3168 §6.1.2); α is updated before the cut on the same ACK;
 *   - otherwise, outside CWR: slow start cwnd += acked while cwnd <
 *     ssthresh (ssthresh is infinite until the first cut), else congestion
 *     avoidance +1 MSS per cwnd bytes acked (one MSS per RTT).
 *   Pacing rate = min(line, cwnd/base_rtt) (line when base_rtt_ps = 0).
 *
 * DCTCP_RATE: DCTCP as the HPCC ns-3 simulator runs it over RoCE (CC_MODE
 * 8, RdmaHw::HandleAckDctcp; reference-implementations.md §2 "DCTCP
 * (rate-based)").  No window; the rate starts at line rate.  Per ACK (one
 * ACK per data packet, no delayed ACK):
 *   ecn_cnt += ece;
 *   if snd_una > win_end (or first ACK): new window --
 *       first ACK: win_end = snd_nxt, batch = snd_nxt/mtu + 1 (no α update);
 *       else frac = min(1, ecn_cnt/batch), α ← (1 − g)α + g·frac,
 *            win_end = snd_nxt, ecn_cnt = 0, batch = (snd_nxt − snd_una)/mtu + 1;
 *   if CWR and snd_una > cwr_end: leave CWR;
 *   if ece and not CWR: rate ← max(min_rate, rate(1 − α/2)), CWR, cwr_end = snd_nxt;
 *   if not CWR and a new window began on this ACK: rate ← min(line, rate + AI).
 *
 * Paper vs. simulator (what DCTCP_RATE changes besides being rate-based):
 *   - F counts marked/acked bytes over the window (paper: fraction of marked
 *     packets of the window); the simulator counts marked ACKs over a batch
 *     estimated as in-flight packets + 1 when the window began.
 *   - window end: snd_una >= win_end (paper/Linux "!before(snd_una,
 *     next_seq)": all its data acknowledged) vs. the simulator's strict
 *     snd_una > win_end (one more packet).
 *   - first window: the paper's sender updates α at the end of the first
 *     window; the simulator's first ACK only opens the window (its ECN count
 *     carries into the next one).
 *   - increase: +1 MSS per RTT in congestion avoidance after slow start vs.
 *     +AI bits/s per window starting at line rate (no slow start).
 *   - marking: the paper marks on arrival (enqueue), the simulator at
 *     dequeue; both mark when the queue is > K.
 *
 * α is a double in [0,1] (the HPCC simulator's representation; Linux uses
 * 10-bit fixed point).  Nothing here allocates, does I/O or keeps global
 * state.  DCTCP is ACK-clocked: no timers (deadline is always UINT64_MAX).
 */
#ifndef DCTCP_H
#define DCTCP_H

#include <stddef.h>
#include <stdint.h>

enum dctcp_mode { DCTCP_WINDOW = 0, DCTCP_RATE = 1 };

/* Parameter sets for dctcp_params_default(). */
enum dctcp_profile {
    DCTCP_PROFILE_PAPER = 0,       /* DCTCP_WINDOW, the paper (default) */
    DCTCP_PROFILE_HPCC = 1,        /* DCTCP_RATE, HPCC simulator RdmaHw/config.txt values */
    DCTCP_PROFILE_HPCC_RUNPY = 2   /* DCTCP_RATE, HPCC simulator run.py values */
};

struct dctcp_params {
    uint32_t mode;              /* enum dctcp_mode */
    double   g;                 /* EWMA gain of α */
    double   alpha_init;        /* α before the first window */
    uint32_t mss_bytes;         /* WINDOW: MSS; RATE: MTU payload for the batch count */
    uint64_t k_bytes;           /* switch marking threshold K (for dctcp_mark) */
    /* DCTCP_WINDOW */
    uint64_t init_cwnd_bytes;   /* initial window */
    uint64_t min_cwnd_bytes;    /* floor of a cut */
    uint64_t max_cwnd_bytes;    /* cap (receiver window); 0 = none */
    uint64_t base_rtt_ps;       /* RTT for rate = cwnd/RTT; 0 = pace at line rate */
    /* DCTCP_RATE */
    uint64_t rate_ai_bps;       /* DCTCP_RATE_AI, added once per window */
    uint64_t min_rate_bps;      /* floor of a cut */
};

/* PAPER: WINDOW, g 1/16, α0 1, MSS 1000 B, K = 65 packets of 1500 B scaled
 * from 10G (97.5 KB·line/10G), IW 10 MSS, min cwnd 2 MSS, no cap,
 * base RTT 0.
 * HPCC: RATE, g 1/16, α0 1, MTU 1000 B, K = 30·bw/10 KB (= 3 B per Mb/s),
 * AI 1000 Mb/s, min rate 100 Mb/s.
 * HPCC_RUNPY: as HPCC but AI 615 Mb/s, min rate 1000 Mb/s.
 * min rates are capped at the line rate.  Sources in dctcp.c.  Unknown
 * profile values are taken as PAPER. */
void dctcp_params_default(struct dctcp_params *p, uint64_t line_bps, int profile);

/* 0 if valid, else -1 and a reason in why (may be NULL/0). */
int dctcp_params_check(const struct dctcp_params *p, char *why, size_t why_len);

struct dctcp {
    double   alpha;
    double   last_frac;         /* F of the last completed window */
    uint64_t line_bps;
    uint64_t base_rtt_ps;       /* copied from params at init (for dctcp_rate_bps) */
    uint8_t  mode;              /* copied from params at init */
    uint64_t cwnd, ssthresh;    /* WINDOW, bytes (ssthresh UINT64_MAX until the first cut) */
    uint64_t ca_acc;            /* WINDOW: bytes acked toward the next +MSS */
    uint64_t rate_bps;          /* RATE */
    uint64_t win_end;           /* snd_nxt recorded when the observation window began */
    uint64_t win_acked;         /* WINDOW: bytes acked in the window */
    uint64_t win_marked;        /* WINDOW: ECE bytes; RATE: ECE ACKs (ecn_cnt) */
    uint64_t batch;             /* RATE: packets of the window */
    uint64_t cwr_end;           /* snd_nxt at the last cut */
    uint8_t  win_open, in_cwr;
    uint64_t n_acks, n_ece, n_windows, n_cuts, n_ai;
};

void dctcp_init(struct dctcp *s, const struct dctcp_params *p, uint64_t line_bps, uint64_t now_ps);

/* One ACK: acked_bytes newly acknowledged by it, ece its ECN-Echo flag,
 * snd_una / snd_nxt the sender's byte offsets after processing it. */
void dctcp_on_ack(struct dctcp *s, const struct dctcp_params *p, uint64_t acked_bytes,
                  int ece, uint64_t snd_una, uint64_t snd_nxt, uint64_t now_ps);

void     dctcp_on_timer(struct dctcp *s, const struct dctcp_params *p, uint64_t now_ps); /* no-op */
uint64_t dctcp_deadline(const struct dctcp *s);        /* UINT64_MAX */
uint64_t dctcp_window_bytes(const struct dctcp *s);    /* cwnd; 0 in DCTCP_RATE */
uint64_t dctcp_rate_bps(const struct dctcp *s);       /* RATE: rate; WINDOW: min(line, cwnd/base_rtt) */

/* DCTCP switch marking: CE iff the queue (bytes) exceeds K (§3.1). */
static inline int dctcp_mark(uint64_t qbytes, uint64_t k_bytes) { return qbytes > k_bytes; }

#endif
