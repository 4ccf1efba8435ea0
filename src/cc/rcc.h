/*
 * rcc.h -- RCC, receiver-driven RDMA congestion control (Zhang et al.,
 * "Receiver-Driven RDMA Congestion Control by Differentiating Congestion
 * Types in Datacenter Networks", ICNP 2021; "the paper" below).
 *
 * Two pure state machines:
 *
 *   struct rcc_rx    one per receiving host (§III-C, §III-D): the number N
 *                    of messages being received (counted from their first
 *                    and last packets, BTH opcodes First/Last), and B_R,
 *                    the bytes received by all connections in the last
 *                    sample interval of length min over connections of
 *                    RTT_i^base, for the last-hop test and W = C/N.
 *   struct rcc_conn  one per connection (Table I receiver column): base and
 *                    last delay, the n-consecutive detector (§III-C), the
 *                    stay-in-PID flag (§III-B), the PID state u and e(t-1)
 *                    (§III-E), the update timer and the window.
 *
 * Algorithm 1 (receiver, one call per data packet) is rcc_conn_on_sample():
 *
 *   fair = C/N                          (rcc_rx_fair_share, §III-D)
 *   if in PID:            cwnd = PID(delay, fair)           (lines 6-9)
 *   elif last hop full:   cwnd = fair                       (lines 10-11)
 *   elif n consecutive delays > base*(1+delta):             (line 13, Eq. 1)
 *                         enter PID; cwnd = PID(delay, fair) (line 15)
 *   else:                 cwnd = fair                       (line 17)
 *
 *   PID (§III-E, Eqs. 2-5), one step per update interval:
 *     target = base*(1 + delta/2)                           (Eq. 2)
 *     e(t)   = delay - target                 (seconds)     (Eq. 3)
 *     u(t)   = u(t-1) + Kp*e(t) + Kd*(e(t) - e(t-1))        (Eq. 4, Ki = 0)
 *     W(t)   = W(t-1)*(1 - tanh(u(t)))                      (Eq. 5)
 *     W      capped by the fair share ("the upper bound of the sending
 *            window is set to be the fair share", §III-B)
 *
 * §V-E's ablations (Figs. 13-14) are a parameter, struct rcc_params.variant:
 *
 *   RCC_FULL      Alg. 1 as above.
 *   RCC_PID_ONLY  "RCC-PID, RCC without Explicit Window Assignment": no
 *                 W = C/N anywhere.  The window stays at the start window
 *                 C (line rate, §III-B) until n consecutive delays exceed
 *                 base*(1+delta) (Eq. 1, whatever the last-hop test says:
 *                 without EWA there is nothing else to answer last-hop
 *                 congestion with); then the flow enters PID and stays, as
 *                 in RCC, with the PID window capped by C instead of C/N.
 *                 The last-hop test only sets the type flag.
 *   RCC_EWA_ONLY  "RCC-EWA, RCC without PID-based congestion control":
 *                 never enters PID; every sample assigns cwnd = C/N (lines
 *                 11 and 17, and 15 with the fair share instead of PID).
 *                 Detection still runs and sets the type flag.
 *
 * (docs/rcc.md "§V-E ablations: RCC-PID and RCC-EWA" has the reasoning
 * from the paper's text.)
 *
 * The same rcc_conn runs at the sender in the RCC-sender variant (§III-G):
 * the receiver only feeds back N and the throughput B_R (rcc_rx_br_mbps),
 * and the sender calls rcc_conn_on_sample() with its RTT samples,
 * rcc_fair_share(N) and rcc_last_hop_full_rate(B_R).
 *
 * Our readings where the paper is open (docs/rcc.md has the reasoning):
 *   - "base" (RTT_i^base) is the smallest delay the connection has seen
 *     (Table I's base_rtt), one-way delay at the receiver (§III-C: "the
 *     base and measured one-way delay"), round-trip time in the sender
 *     variant.  §V-A's "delta = 0.2 leads to a 13.2 us RTT^target" matches
 *     a 12 us round trip instead; we follow §III-C's words.
 *   - C in W = C/N is the last hop's bandwidth-delay product c*T/8 with T
 *     the round-trip base RTT (a window must cover a round trip); the
 *     sender paces at W/T (§III-D "packet pacing").
 *   - B_R counts wire bytes (frame + preamble + IFG): with payload bytes a
 *     1000 B MTU could never reach eta = 0.95 of c.  The test is §III-C's
 *     strict B_R > c*T_min*eta (Alg. 1 line 10 writes >=).
 *   - The sample intervals of B_R are fixed, back to back, of length
 *     T_min = the smallest delay seen at this receiver; B_R is the count
 *     of the last complete interval (0 after an idle interval).
 *   - The PID steps once per update interval (Table I's update_timer;
 *     default T, one round trip, as in the fluid model's 1/R_i(t) of
 *     Eq. 9); between steps every packet gets min(W, fair).  e(t-1) of
 *     the first step is the previous sample's error (Table I last_rtt).
 *   - Detection counts every sample (a delay <= base*(1+delta) resets the
 *     run), also while the last hop is full; it is consulted only where
 *     Alg. 1 calls CongestionDetection (line 13).
 *   - W is stored after the cap (no wind-up of W above the fair share); u
 *     is not bounded (Eq. 4 as written).  W is kept at least
 *     min(w_min, fair) so a flow in PID keeps sending and sampling.
 *
 * Units: time in ps, windows and byte counts in bytes, rates in bit/s;
 * the PID gains are per second of delay error (Kp*e with e in seconds is
 * dimensionless, the scale of the paper's §IV analysis with R_ref =
 * 13.2 us).  No allocation, I/O, globals or clock: time is passed in.
 */
#ifndef RCC_H
#define RCC_H

#include <stddef.h>
#include <stdint.h>

/* §III-F "Parameters of RCC": n = 3, delta = 0.2, eta = 0.95. */
#define RCC_N_DETECT  3
#define RCC_DELTA     0.2
#define RCC_ETA       0.95
/* §V-A "Parameter settings": Kp = 1e4, Kd = 1e5 (from the §IV analysis);
 * §III-E: Ki = 0, so Eq. 4 has no integral gain. */
#define RCC_KP        1e4
#define RCC_KD        1e5

/* §V-E ablations (Figs. 13-14); see the comment at the top. */
enum rcc_variant { RCC_FULL = 0, RCC_PID_ONLY = 1, RCC_EWA_ONLY = 2 };

struct rcc_params {
    uint64_t base_rtt_ps;      /* T: round-trip base RTT (C = c*T/8, pacing W/T) */
    uint32_t n_detect;         /* n consecutive delays above base*(1+delta) */
    double   delta;            /* allowed queuing, 0 < delta < 1 (Eq. 1) */
    double   eta;              /* expected last-hop utilization, 0 < eta < 1 */
    double   kp, kd;           /* PID gains, per second of error (Eq. 4) */
    uint64_t pid_interval_ps;  /* PID update timer; 0 = a step on every sample */
    uint64_t w_min_bytes;      /* floor of the PID window (our choice) */
    int      variant;          /* enum rcc_variant: RCC_FULL, or a §V-E ablation */
};

/* The paper's values; T = base_rtt_ps, PID interval T, w_min = 1000 B (one
 * payload of the simulator's default MTU; our choice); variant RCC_FULL. */
void rcc_params_default(struct rcc_params *p, uint64_t base_rtt_ps);
/* 0 if valid; otherwise -1 and a reason in why (may be NULL / why_len 0). */
int  rcc_params_check(const struct rcc_params *p, char *why, size_t why_len);

/* ---- receiver host ---- */
struct rcc_rx {
    uint64_t line_bps;         /* c: the last hop's (this NIC's) bandwidth */
    uint32_t n_flows;          /* N: messages begun and not yet ended */
    uint64_t min_delay_ps;     /* T_min = min over connections of base (0: none yet) */
    uint64_t win_start_ps;     /* current sample interval */
    uint64_t win_bytes;        /* bytes in it so far */
    uint64_t br_bytes;         /* B_R: bytes of the last complete interval */
    uint64_t br_interval_ps;   /* its length (0: none complete yet) */
    uint8_t  started;
};

void rcc_rx_init(struct rcc_rx *rx, uint64_t line_bps);
/* A message's first packet arrived (N + 1) / its last packet arrived (N - 1,
 * never below 0).  The caller counts each message once. */
void rcc_rx_msg_begin(struct rcc_rx *rx);
void rcc_rx_msg_end(struct rcc_rx *rx);
/* A data packet of wire_bytes with one-way delay delay_ps (> 0) arrived at
 * now_ps: rolls the sample interval, then counts the bytes. */
void rcc_rx_on_data(struct rcc_rx *rx, uint64_t wire_bytes, uint64_t delay_ps, uint64_t now_ps);
/* §III-C: B_R > c * T_min * eta (0 before the first complete interval). */
int  rcc_rx_last_hop_full(const struct rcc_rx *rx, const struct rcc_params *p);
/* B_R as a throughput in Mb/s (rounded down), what the receiver feeds back
 * in the RCC-sender variant; 0 before the first complete interval. */
uint32_t rcc_rx_br_mbps(const struct rcc_rx *rx);
/* W = C/N bytes with C = c*T/8 (N = 0 counts as 1; at least 1 byte). */
uint64_t rcc_fair_share(uint64_t line_bps, uint64_t base_rtt_ps, uint32_t n_flows);
/* The window the receiver assigns (and the PID's cap): C/N, or C (N
 * ignored) in RCC_PID_ONLY, which has no Explicit Window Assignment. */
uint64_t rcc_window_cap(const struct rcc_params *p, uint64_t line_bps, uint32_t n_flows);
uint64_t rcc_rx_fair_share(const struct rcc_rx *rx, const struct rcc_params *p);
/* The sender variant's last-hop test on a fed-back throughput: br > c*eta. */
int  rcc_last_hop_full_rate(const struct rcc_params *p, uint64_t br_mbps, uint64_t line_bps);

/* ---- connection ---- */
enum rcc_type { RCC_T_NONE = 0, RCC_T_LAST_HOP = 1, RCC_T_IN_NETWORK = 2 };

struct rcc_conn {
    uint64_t base_ps;          /* base_rtt: smallest delay seen (0: none yet) */
    uint64_t last_ps;          /* last_rtt: the previous sample */
    double   last_err_s;       /* last_rtt_diff: e(t-1) of the last PID step */
    double   u;                /* control factor u(t) */
    double   w_bytes;          /* PID window W(t), after the cap */
    uint64_t cwnd_bytes;       /* the window fed back (on every ACK) */
    uint64_t next_pid_ps;      /* update_timer: time of the next PID step */
    uint32_t above;            /* consecutive samples above base*(1+delta) */
    uint8_t  in_pid;           /* entered PID: stays until the flow ends */
    uint8_t  last_type;        /* enum rcc_type of the last sample */
    uint8_t  counted;          /* the caller's "message counted in N" bit */
    uint8_t  pad_;
    /* counters */
    uint64_t n_samples, n_pid_steps, n_last_hop, n_fair;
    uint64_t n_innet_nopid;    /* RCC_EWA_ONLY: in-network detected, fair share assigned */
    uint64_t pid_enter_ps;     /* when it entered PID (UINT64_MAX: never) */
};

/* A new connection; cwnd_init is the window before the first sample (the
 * sender starts at line rate, §III-B: "Each flow starts at line rate"). */
void rcc_conn_init(struct rcc_conn *c, uint64_t cwnd_init);
/* Algorithm 1 for one delay sample (> 0): returns the new window.
 * fair_bytes is rcc_window_cap() (rcc_rx_fair_share() at the receiver):
 * C/N, or C in RCC_PID_ONLY. */
uint64_t rcc_conn_on_sample(struct rcc_conn *c, const struct rcc_params *p, uint64_t delay_ps,
                            uint64_t fair_bytes, int last_hop_full, uint64_t now_ps);
/* One PID step (Eqs. 2-5) on delay_ps with the cap fair_bytes; exposed for
 * tests.  Updates u, e(t-1) and W; returns W (rounded, capped, floored). */
uint64_t rcc_pid_step(struct rcc_conn *c, const struct rcc_params *p, uint64_t delay_ps, uint64_t fair_bytes);
/* Sender pacing: min(line, W*8/T). */
uint64_t rcc_pace_bps(const struct rcc_params *p, uint64_t cwnd_bytes, uint64_t line_bps);

#endif
