/*
 * host_rcc.h -- RCC (Zhang et al., "Receiver-Driven RDMA Congestion Control
 * by Differentiating Congestion Types in Datacenter Networks", ICNP 2021)
 * in rocc-host: `--cc rcc` (Alg. 1 at the receiver, the window on every
 * ACK) and `--cc rcc_sender` (§III-G: the receiver feeds back N and B_R,
 * the sender runs Alg. 1 on its RTTs).  The decisions are librocc's
 * src/cc/rcc.c, called unchanged (the simulator's tp_rcc.c calls the same
 * functions); this is the glue: wire fields (pkt.h "RCC"), clocks, ACKs,
 * the sender's window and pacing.  docs/rcc.md "Data plane".
 *
 * Clock: send times and one-way delays use CLOCK_MONOTONIC of the machine
 * (ns).  Every rocc-host of a test runs on the same machine, so sender and
 * receiver read one clock and the one-way delay needs no synchronisation
 * (the paper's testbed had to assume synchronised clocks; §V-E's
 * RCC-async studies the error, the simulator's [rcc] clock_offset).
 */
#ifndef DP_HOST_RCC_H
#define DP_HOST_RCC_H

#include <stdint.h>

#include "pkt.h"
#include "rcc.h"

struct rte_mbuf;

enum host_cc { HOST_CC_ROCC = 0, HOST_CC_NONE, HOST_CC_RCC, HOST_CC_RCC_SENDER };

/* Per sink (same index as struct host.sinks): the receiver's connection. */
struct rcc_sink {
    struct rcc_conn conn;        /* Alg. 1 state (rcc; unused by rcc_sender) */
    uint8_t counted, ended;      /* the message counted in N / taken out again */
    uint32_t since_ack;
    uint64_t acks, samples;
    uint64_t owd_min_ns, owd_sum_ns, owd_n;   /* one-way delays seen (report) */
};

/* Per flow at the sender. */
struct rcc_flow {
    struct rcc_conn conn;        /* rcc_sender: Alg. 1 on RTTs */
    uint64_t win;                /* bytes in flight allowed (the window) */
    uint64_t pace_bps;           /* min(line, W*8/T) */
    uint32_t acked_next;         /* PSN after the highest acknowledged */
    uint8_t  have_ack, blocked;
    uint64_t blocked_since_tsc;
    uint64_t acks, win_timeouts, rtt_min_ns, rtt_sum_ns;
};

#define RCC_ACKQ 64

struct host_rcc {
    enum host_cc mode;
    struct rcc_params p;
    /* options as given (0: default, see host_rcc_setup) */
    uint64_t o_base_rtt_us, o_pid_us, o_wmin, o_n;
    double o_delta, o_eta, o_kp, o_kd;
    uint8_t has_delta, has_eta, has_kp, has_kd, has_pid;
    uint32_t ack_every;          /* --rcc-ack-every (1) */
    struct rcc_rx rx;            /* the receiving host: N, B_R */
    struct rcc_sink sk[256];     /* MAX_SINK */
    struct rte_mbuf *ackq[RCC_ACKQ];
    unsigned nack;
    uint64_t now_ns;             /* CLOCK_MONOTONIC after this round's receive burst */
    /* counters */
    uint64_t data_bad[PKT_RCC_NRESULTS], ts_bad, ack_bad[PKT_RCC_NRESULTS];
    uint64_t ack_nomatch, ack_type, ack_psn, ack_ts, acks_tx, acks_rx, ack_alloc_fail;
};

struct host;
struct flow;
struct sink;
struct pkt_info;

/* Option codes host_args.c hands over (their getopt values). */
enum { HOST_OPT_CC = 40, HOST_OPT_RCC_T, HOST_OPT_RCC_N, HOST_OPT_RCC_DELTA, HOST_OPT_RCC_ETA, HOST_OPT_RCC_KP,
       HOST_OPT_RCC_KD, HOST_OPT_RCC_PID, HOST_OPT_RCC_WMIN, HOST_OPT_RCC_ACK };
/* 0, or -1 for a bad value. */
int  host_rcc_opt(struct host *h, int code, const char *arg);
/* After the options: defaults (scaled, see host_rcc.c), checks (a message
 * on stderr and -1 if they do not fit), the flows' initial windows. */
int  host_rcc_setup(struct host *h);
/* Sender: may flow f send one more frame now (the window)? */
int  host_rcc_may_send(struct host *h, struct flow *f, uint64_t tsc);
/* Receiver: a RoCEv2 data frame for sink index si; now_ns = CLOCK_MONOTONIC
 * read after the receive burst.  Queues an ACK when one is due. */
void host_rcc_on_data(struct host *h, unsigned si, const uint8_t *f, const struct pkt_info *pi, uint32_t wire,
                      uint64_t now_ns, uint64_t tsc);
/* Sender: a RoCEv2 frame that is not data (an ACK?). */
void host_rcc_on_ack(struct host *h, const uint8_t *f, const struct pkt_info *pi, uint64_t now_ns, uint64_t tsc);
/* Send the ACKs queued in this loop round. */
void host_rcc_flush(struct host *h, uint64_t tsc);
uint64_t host_rcc_mono_ns(void);
const char *host_cc_name(enum host_cc m);
void host_rcc_report(struct host *h, double t);
void host_rcc_final(struct host *h);

#endif
