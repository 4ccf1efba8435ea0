/*
 * expresspass.h -- ExpressPass (Cho, Jang, Han, "Credit-Scheduled
 * Delay-Bounded Congestion Control for Datacenters", SIGCOMM 2017) as three
 * pure state machines: the receiver's credit sender with its credit
 * feedback control (the paper's Algorithm 1), the sender's credit
 * accounting (one data frame per credit), and the per-port credit limiter
 * of a switch or NIC (token bucket at the credit share of the link, a
 * credit queue of a few credits, drop beyond).
 *
 * Model (paper §3):
 *   - the sender asks for credits (credit request); the receiver then paces
 *     credits toward the sender at cur_rate, each credit carrying a
 *     sequence number;
 *   - every egress port on the way back (switches and the receiver's NIC)
 *     lets credits out at most at max_rate = link * credit/(credit + data)
 *     wire bytes (84/(84+1538) ~ 5% at a 1500 B MTU, §3.1), queues a few
 *     and drops the rest: the credit rate a path lets through is what the
 *     data can use on the reverse links;
 *   - the sender sends one data frame per credit it receives (a credit
 *     that finds no data is wasted) and echoes the credit's sequence number
 *     in the frame; credits and data take the same path (symmetric routing,
 *     the credit on the reverse of the data's path);
 *   - the receiver learns credit losses from gaps in the echoed sequence
 *     numbers and, every update period (one RTT), runs Algorithm 1:
 *       loss <= target: (if the last period also increased: w = (w+w_max)/2)
 *                       cur = (1-w)*cur + w*max*(1+target)
 *       loss  > target: cur = cur*(1-loss)*(1+target);  w = max(w/2, w_min)
 *     with cur kept in [min_rate, max_rate].
 *
 * Rates are credit wire bits per second (credit frame + preamble + gap):
 * one credit per gap of credit_wire*8/cur seconds.  Time is integer
 * picoseconds passed in by the caller.  Nothing here allocates, does I/O or
 * keeps global state; the jitter generator is per receiver, seeded by the
 * caller.
 */
#ifndef EXPRESSPASS_H
#define EXPRESSPASS_H

#include <stddef.h>
#include <stdint.h>

/* Paper §3.1: a credit is a minimum-size Ethernet frame, 84 B on the wire
 * (64 B frame + 8 B preamble + 12 B inter-frame gap); a full data frame is
 * 1538 B on the wire (1500 B MTU + 18 B Ethernet header/FCS + 20 B). */
#define XP_CREDIT_WIRE_BYTES 84u
#define XP_DATA_WIRE_BYTES   1538u

struct xp_params {
    uint64_t max_rate_bps;   /* credit bits/s a path can carry: link*credit/(credit+data) (§3.1) */
    uint64_t min_rate_bps;   /* floor of the feedback control (0: one credit per update period) */
    uint64_t init_rate_bps;  /* cur_rate when credits start (alpha * max_rate) */
    double   w_init;         /* aggressiveness factor at start (Alg. 1 line 1) */
    double   w_max;          /* upper bound of w (Alg. 1) */
    double   w_min;          /* lower bound of w (Alg. 1) */
    double   target_loss;    /* credit loss the control aims at (Alg. 1) */
    double   jitter;         /* inter-credit gap drawn in gap*(1 +- jitter) (§3.1, breaks synchronization) */
    uint64_t update_ps;      /* feedback period; 0 = one RTT, measured from the first credit's loop */
    uint32_t credit_wire_bytes;  /* bytes of one credit on the wire (rate -> gap) */
    uint32_t queue_credits;  /* credit queue of a limited port, in credits (§3.1) */
    uint8_t  feedback;       /* 1: Alg. 1 runs; 0 (what-if): credits at max_rate, never adjusted */
    uint8_t  target_scaled;  /* 1: target = target_loss*(1 - cur/max) (public ns-2 code); 0: constant (Alg. 1) */
};

/* Defaults for a link of link_bps whose data frames are data_wire bytes on
 * the wire at most and credits credit_wire bytes (XP_*_WIRE_BYTES in the
 * paper; the simulator passes its own frame sizes). */
void xp_params_default(struct xp_params *p, uint64_t link_bps, uint32_t credit_wire, uint32_t data_wire);
/* 0, or -1 with a message naming the bad field. */
int  xp_params_check(const struct xp_params *p, char *why, size_t why_len);
/* The credit share of a link: link_bps * credit/(credit + data). */
uint64_t xp_credit_rate_bps(uint64_t link_bps, uint32_t credit_wire, uint32_t data_wire);

/* ---- receiver: credit pacing and feedback control (Alg. 1) ---- */
struct xp_rx {
    double   rate_bps;        /* cur_rate */
    double   w;               /* aggressiveness factor */
    uint8_t  active;          /* sending credits */
    uint8_t  prev_increase;   /* the last update was an increase */
    uint8_t  have_rtt;
    uint8_t  pad_;
    uint32_t next_seq;        /* sequence number of the next credit */
    uint32_t expect_seq;      /* next credit sequence number expected back on data */
    uint32_t p_got, p_lost, p_sent;   /* this period: credits echoed, found lost, sent */
    uint32_t mark0, mark1;    /* next_seq at the start of this period and of the one before */
    uint64_t period_start, period_ps;
    uint64_t first_credit_ps; /* when credit 0 left (RTT sample) */
    uint64_t rng;             /* xorshift64 state of the jitter */
    /* totals */
    uint64_t sent, echoed, lost, updates, decreases;
};

void     xp_rx_start(struct xp_rx *r, const struct xp_params *p, uint64_t now, uint64_t seed);
void     xp_rx_stop(struct xp_rx *r);
/* A credit leaves now: returns its sequence number; *next_ps = when the
 * next one is due (cur_rate's gap, with jitter).  Runs the period's update
 * first if the period has ended. */
uint32_t xp_rx_credit(struct xp_rx *r, const struct xp_params *p, uint64_t now, uint64_t *next_ps);
/* A data frame echoing credit `seq` arrived now: loss accounting (credits
 * skipped in the sequence were dropped), the RTT sample of credit 0, and
 * the period's update if it has ended.  Returns 1 if an update ran. */
int      xp_rx_data(struct xp_rx *r, const struct xp_params *p, uint32_t seq, uint64_t now);
/* Algorithm 1 on the period's counts (called by the two above when the
 * period ends; exposed for tests).  Loss = credits found missing / credits
 * whose fate is known (echoed or found missing).  A period in which no
 * echo came counts as loss 1 if a credit sent before the previous period
 * began is still unanswered, and otherwise changes nothing. */
void     xp_rx_update(struct xp_rx *r, const struct xp_params *p, uint64_t now);
/* Inter-credit gap at rate_bps without jitter. */
uint64_t xp_gap_ps(const struct xp_params *p, double rate_bps);

/* ---- sender: one data frame per credit ---- */
#define XP_TX_RING 16          /* credits a sender holds before its NIC turns them into frames */
struct xp_tx {
    uint32_t ring[XP_TX_RING];    /* sequence numbers of credits not yet used, oldest first */
    uint8_t  head, count;
    uint8_t  pad_[6];
    uint64_t credits;         /* received */
    uint64_t used;            /* turned into a data frame */
    uint64_t wasted;          /* arrived with no data to send, or with XP_TX_RING already held */
};
/* Credit `seq` arrived; has_data: the flow has bytes left to send.  1: it is
 * held for a data frame (xp_tx_use), 0: wasted (§3.3 credit waste). */
int      xp_tx_credit(struct xp_tx *t, uint32_t seq, int has_data);
/* A data frame leaves for the oldest held credit: its sequence number, to
 * echo in the frame (call only with count > 0). */
uint32_t xp_tx_use(struct xp_tx *t);
/* Held credits dropped because the data ran out (each counted wasted). */
void     xp_tx_flush(struct xp_tx *t);

/* Both ends of one flow, as a simulator keeps them in one record, with the
 * glue's timers (the receiver's next credit, the sender's request and stop
 * retries). */
struct xp_flow {
    struct xp_rx rx;
    struct xp_tx tx;
    uint64_t next_credit_ps;  /* receiver: when the next credit is due */
    uint64_t retry_ps, retry_at;  /* sender: retry period (0: none); the next credit request while no
                                     credit has come, after a credit stop the earliest repeat stop */
    uint32_t req_sent;        /* credit requests sent */
    uint32_t stop_sent;       /* credit stops sent */
    uint64_t asym_credits;    /* credits that could not retrace the data path (ECMP instead) */
};

/* ---- per-port credit limiter (switch egress, NIC) ---- */
struct xp_lim {
    uint64_t rate_bps;        /* credit share of the link */
    uint64_t depth;           /* bucket depth, bit*ps/s units (bytes*8*1e12) */
    uint64_t tokens;          /* same units */
    uint64_t last_ps;
    uint32_t qcap;            /* credits the queue holds */
    uint32_t pad_;
    uint64_t admitted, dropped, sent;
};
/* A limiter at rate_bps with a bucket of burst_bytes (>= one credit) and a
 * queue of qcap credits; full bucket at time 0. */
void     xp_lim_init(struct xp_lim *l, uint64_t rate_bps, uint32_t burst_bytes, uint32_t qcap);
/* A credit arrives at a queue holding `queued` credits: 1 queue it, 0 drop. */
int      xp_lim_admit(struct xp_lim *l, uint32_t queued);
/* Earliest time >= now a credit of `bytes` may leave. */
uint64_t xp_lim_ready(struct xp_lim *l, uint32_t bytes, uint64_t now);
/* A credit of `bytes` leaves now (call only when xp_lim_ready(..) == now). */
void     xp_lim_take(struct xp_lim *l, uint32_t bytes, uint64_t now);

#endif
