/*
 * escape.h -- Escape (Menikkumbura, PhD dissertation, Purdue 2022, ch. 4):
 * clearing PFC-induced head-of-line blocking by letting blocked frames leave
 * their queue.  The decisions of one switch as a pure state machine, shared
 * by the simulator's switch (src/net) and the DPDK rocc-switch.
 *
 * The model (§4.3.1, numbers are the list items there):
 *
 *   (6) port registry   per port: ingress "PFC-requested" (this switch sent
 *                       XOFF on it and no XON yet), egress "PFC-activated"
 *                       (paused by the downstream peer), and T(p), the
 *                       current token pool size of the egress port.  The
 *                       caller keeps the two flags current
 *                       (esc_set_ingress_requested, esc_set_egress_paused).
 *   (2) token pool      T(p) starts at `pool` = the escape-queue capacity of
 *                       the port in frames, minimum 1.
 *   (7) flow table      per egress port, N = pool slots of (flow, ingress
 *                       port) for the frames queued there (§4.5.2: circular
 *                       array, round-robin retrieval; C3).  Fed by
 *                       esc_on_frame.
 *   (3) ETF             the token: 5-tuple + hops (esc_etf_encode/decode).
 *   (4) Escape header   `hops` in every data frame (between UDP and BTH).
 *
 * The three events of Alg. 3:
 *
 *   e1 TRIGGERESCAPE    esc_poll() every Δesc: for every PFC-requested
 *                       ingress port p^I and every flow-table entry with
 *                       ingress p^I whose egress p^E is not paused and
 *                       T(p^E) != 0: emit a token (fid, hops = 1) on p^I,
 *                       T(p^E)--.  Tokens go to the caller's array.
 *   e2 RECEIVE(τ)       esc_receive() on the egress port p^E the ETF
 *                       arrived on: T(p^E) = 0 -> drop (line 17); else ask
 *                       the caller to extract the first frame of the flow
 *                       from p^E's queue (ESC_ACT_EXTRACT).  If the caller
 *                       finds none it calls esc_receive_missed(): if the
 *                       flow's ingress p^I is PFC-requested the token goes
 *                       on upstream with hops + 1 and T(p^E)-- (lines
 *                       24-28, ESC_ACT_FORWARD); otherwise it ends.
 *   e3 TRANSMIT(d)      esc_transmit() when a frame that arrived with
 *                       hops >= 1 leaves egress p^E: T(p^E)++, hops--.
 *
 * plus token reclaim by a long-interval timer (§4.3.3(5)): every
 * reclaim_ps, a port whose T(p) has not changed since the previous tick
 * (and is below the pool size) gets one token back.
 *
 * Choices the text leaves open (docs/escape.md "Escape: model and
 * choices" has the reasons and the tests):
 *
 *  C1 The frame a switch extracts itself (line 22) leaves with hops =
 *     τ.hops and is NOT a TRANSMIT event: the caller must not call
 *     esc_transmit for it.  Every T-- (lines 14, 28) is then matched by
 *     exactly one T++ (line 31) on the same port as the frame reaches the
 *     token's origin with hops = 1 and leaves it with 0, as §4.3.2 says;
 *     counting line 22 as e3 would give one T++ too many at the finder and
 *     deliver the frame to the origin with hops 0.
 *  C2 Tokens are sent (line 13) and forwarded (line 27) only through
 *     ports whose peer is an Escape switch ("to upstream switch");
 *     otherwise nothing is sent and the pool is not charged.  A token
 *     whose flow's ingress faces a host ends there (termination case 3).
 *     ETFs arriving on a port whose peer is not an Escape switch are
 *     dropped (a host cannot make frames escape).
 *  C3 The flow table is a circular array of N = pool slots.  By default
 *     (ESC_FT_FRAMES) every frame queued at the egress writes its flow and
 *     ingress at the pointer, so a flow holds as many slots as it had of
 *     the last N frames and CLEARHOLBLOCK sends it that many tokens (up to
 *     T); ESC_FT_FLOWS keeps distinct flows (one token per flow per
 *     trigger).  A token for a flow not in the table of p^E is dropped
 *     (line 18 needs the flow, line 24 its ingress).
 *  C4 CLEARHOLBLOCK scans ingress ports in ascending order, egress ports
 *     in ascending order, and each table from a round-robin start that
 *     moves one entry per trigger (§4.5.2 "round robin for retrieving").
 *  C5 T(p) never exceeds the pool size: a reclaim (line 31 or the timer)
 *     at a full pool is counted (n_over_reclaim) and ignored.
 *  C6 The timer gives back one token per port per interval (§4.3.3(5)
 *     "incrementing it").  Tokens lost in flight (dropped upstream, ended
 *     at a source) come back only this way.
 *  C7 Validation: hops must be in [1, max_hops] in a token and in [0,
 *     max_hops] in a data frame (esc_frame_hops maps a bad one to 0); a
 *     token that would leave with hops > max_hops is not forwarded.
 *  C11 A token is taken only on an egress port that is PFC-activated
 *     (paused by its peer).  A genuine token never arrives anywhere else:
 *     its sender emits (line 13) or forwards (line 27) it only through an
 *     ingress that has requested PFC, i.e. that paused the very port it
 *     arrives on, and sends no XON before it (both travel in the control
 *     class, in order).  §4.3.3(3): "frames only escape while regular
 *     traffic is paused".  A token on an open port (a replay, a forgery) is
 *     refused and counted (tok_drop_open): it would move a frame into the
 *     escape queue that nothing reserved room for downstream.
 *
 * Storage: the caller owns it (esc_storage_bytes); nothing allocates, no
 * I/O, no clock: time is passed in picoseconds.  Same inputs -> same
 * outputs.
 */
#ifndef ROCC_ESCAPE_H
#define ROCC_ESCAPE_H

#include <stddef.h>
#include <stdint.h>

/* ETF: a MAC control frame, opcode 0x0102 (§4.5.1), sent to the MAC control
 * address 01-80-C2-00-00-01 with EtherType 0x8808 (IEEE 802.3 Annex 31B,
 * as PAUSE frames; our choice of address). */
#define ESC_ETF_OPCODE      0x0102u
#define ESC_MAC_CONTROL_ETH 0x8808u
/* 5-tuple 13 bytes, hops 2 bytes (§4.5.1). */
#define ESC_FID_BYTES       13
#define ESC_HOPS_BYTES      2
/* 14 Ethernet + 2 opcode + 13 + 2 = 31 bytes, padded to the 60-byte
 * minimum, + 4 FCS = 64 (IEEE 802.3 minimum frame). */
#define ESC_ETF_PAYLOAD_END 31
#define ESC_ETF_FRAME_BYTES 64
/* Plus 8 preamble/SFD and 12 inter-frame gap: link time of one token. */
#define ESC_ETF_WIRE_BYTES  84
/* The Escape header in data frames, between UDP and BTH (§4.3.1(4)): the
 * text does not give its size; we use the 2-byte hops of the ETF (§4.5.1),
 * carried by every data frame of an Escape run (docs/escape.md C8). */
#define ESC_HDR_BYTES       2
/* Default bound on hops: a token walks one flow's loop-free path upstream,
 * so it never needs more hops than the fabric has switches; callers that
 * know the fabric pass that count (docs/escape.md C7).  255 when unknown. */
#define ESC_MAX_HOPS_DEFAULT 255u

struct esc_fid {             /* the flow's 5-tuple (§4.3.1(7) footnote) */
    uint32_t src_ip, dst_ip; /* host order */
    uint16_t src_port, dst_port;
    uint8_t  proto;
};

struct esc_token { struct esc_fid fid; uint16_t hops; };

/* C3: what a flow-table slot stands for. */
enum esc_ft_mode {
    ESC_FT_FRAMES = 0,       /* the last N frames' flows, duplicates kept: every frame's
                              * 5-tuple is written at the circular pointer (§4.5.2's
                              * FPGA table: add in one cycle, no lookup).  Default. */
    ESC_FT_FLOWS = 1         /* the last N distinct flows: a known flow refreshes its
                              * entry, a new one replaces the oldest */
};

struct esc_params {
    uint16_t n_ports;        /* ports of the switch, 1..4096 */
    uint16_t pool;           /* token pool = escape-queue capacity, frames (>= 1, §4.3.1(2)) */
    uint16_t max_hops;       /* C7: 1..65534 */
    uint64_t period_ps;      /* Δesc (§4.3.2: 2 x link delay is a good choice); > 0 */
    uint64_t reclaim_ps;     /* §4.3.3(5) long interval; 0 = no timer reclaim */
    uint8_t  ft_mode;        /* enum esc_ft_mode (C3) */
};

struct esc_flow { struct esc_fid fid; uint16_t ingress; uint8_t used; };

struct esc_port {
    uint16_t T;              /* current token pool size T(p) */
    uint16_t T_saved;        /* T at the previous reclaim tick (§4.3.3(5)) */
    uint16_t ft_len;         /* entries in use */
    uint16_t ft_head;        /* next slot to overwrite (oldest when full) */
    uint16_t ft_rr;          /* round-robin scan start (C4) */
    uint8_t  ingress_req;    /* this switch requested PFC on the port */
    uint8_t  egress_paused;  /* the peer paused the port (PFC-activated) */
    uint8_t  peer_escape;    /* the peer is an Escape switch (C2) */
};

struct esc_stats {
    uint64_t tok_sent;        /* e1 tokens created and sent (line 13) */
    uint64_t tok_forwarded;   /* e2 tokens forwarded upstream (line 27) */
    uint64_t tok_extract;     /* e2 tokens that asked for an extraction (line 19) */
    uint64_t frames_escaped;  /* e2 extractions that found a frame (case 2) */
    uint64_t tok_drop_pool;   /* e2 pool exhausted (line 17, case 1) */
    uint64_t tok_end;         /* e2 no frame and ingress not requested / not an Escape peer (case 3) */
    uint64_t tok_drop_unknown;/* e2 flow not in the table of p^E (C3) */
    uint64_t tok_drop_bad;    /* e2 malformed: hops out of range, bad port, not from an Escape peer */
    uint64_t tok_drop_open;   /* e2 refused: p^E is not PFC-activated (C11) */
    uint64_t reclaim_tx;      /* e3 tokens reclaimed by an escaping frame (line 31) */
    uint64_t reclaim_timer;   /* tokens reclaimed by the long timer (§4.3.3(5)) */
    uint64_t over_reclaim;    /* C5: reclaims at a full pool, ignored */
    uint64_t frames_bad_hops; /* data frames with hops > max_hops, treated as 0 */
    uint64_t triggers;        /* e1 runs */
    uint64_t tok_truncated;   /* e1 tokens not emitted because out[] was full */
};

struct escape {
    struct esc_params p;
    struct esc_port *port;   /* n_ports, caller's storage */
    struct esc_flow *ft;     /* n_ports x pool, caller's storage */
    uint64_t next_trigger;   /* next e1, ps */
    uint64_t next_reclaim;   /* next reclaim tick, ps (UINT64_MAX = never) */
    struct esc_stats st;
};

/* A token to send: on port `port` (an ingress port of the flow), upstream. */
struct esc_out { uint16_t port; struct esc_token tok; };

enum esc_act_kind {
    ESC_ACT_NONE = 0,        /* nothing to do */
    ESC_ACT_EXTRACT,         /* search port's queue head to tail for the first
                              * data frame of fid; if found, extract it, set its
                              * hops to `hops`, send it through port's escape
                              * queue (not an e3, C1) and call esc_extracted;
                              * else call esc_receive_missed */
    ESC_ACT_FORWARD          /* send an ETF (fid, hops) upstream on `port` */
};

struct esc_action { uint8_t kind; uint16_t port; uint16_t hops; struct esc_fid fid; };

/* p <- n_ports, pool, period from link delay (2 x, §4.3.2), reclaim off,
 * max_hops ESC_MAX_HOPS_DEFAULT, ft_mode ESC_FT_FRAMES. */
void esc_params_default(struct esc_params *p, uint16_t n_ports, uint16_t pool, uint64_t link_delay_ps);

/* Bytes of storage for these params (8-byte aligned); 0 if invalid. */
size_t esc_storage_bytes(const struct esc_params *p);

/* 0, or -1 on bad params / NULL.  Clears storage; every pool full, every
 * flag 0; the first trigger is due at now_ps + period, the first reclaim
 * tick at now_ps + reclaim_ps. */
int esc_init(struct escape *e, const struct esc_params *p, void *storage, uint64_t now_ps);

/* Port registry (out-of-range ports are ignored). */
void esc_set_ingress_requested(struct escape *e, uint16_t port, int on);
void esc_set_egress_paused(struct escape *e, uint16_t port, int on);
void esc_set_peer_escape(struct escape *e, uint16_t port, int on);

/* A data frame of fid entered the queue of egress `egress` from ingress
 * `ingress` (the flow table, §4.5.2). */
void esc_on_frame(struct escape *e, uint16_t egress, uint16_t ingress, const struct esc_fid *fid);

/* Timers: runs the reclaim tick and/or TRIGGERESCAPE if due at now_ps (each
 * at most once per call; the next deadline steps past now).  The tokens
 * to send go to out (at most max; more are counted in tok_truncated and not
 * charged to the pool).  Returns how many. */
size_t esc_poll(struct escape *e, uint64_t now_ps, struct esc_out *out, size_t max);
/* Earliest time esc_poll has something to do. */
uint64_t esc_next_due(const struct escape *e);

/* e2: an ETF arrived on `port`.  Fills act (NONE or EXTRACT). */
void esc_receive(struct escape *e, uint16_t port, const struct esc_token *tok, struct esc_action *act);
/* After ESC_ACT_EXTRACT: the caller found and extracted a frame. */
void esc_extracted(struct escape *e, uint16_t port);
/* After ESC_ACT_EXTRACT: no frame of the flow in the queue.  Fills act
 * (NONE or FORWARD). */
void esc_receive_missed(struct escape *e, uint16_t port, const struct esc_token *tok, struct esc_action *act);

/* A data frame arrived with Escape header value `hops`: the hops to keep
 * (0 if above max_hops, counted).  Nonzero -> the frame goes to the escape
 * queue of its egress port (§4.3.3(2)). */
uint16_t esc_frame_hops(struct escape *e, uint16_t hops);
/* e3: a frame that arrived with (validated) hops is leaving `port`: returns
 * its new hops (hops - 1; reclaims a token), or hops unchanged if 0. */
uint16_t esc_transmit(struct escape *e, uint16_t port, uint16_t hops);

/* Tokens charged and not yet given back, over all ports (sum of pool - T). */
uint64_t esc_outstanding(const struct escape *e);
/* T(port), or 0 for a bad port. */
uint16_t esc_pool(const struct escape *e, uint16_t port);

int esc_fid_eq(const struct esc_fid *a, const struct esc_fid *b);

/* ETF wire format, network byte order:
 *    0  destination MAC 01-80-C2-00-00-01     6  source MAC (src_mac)
 *   12  EtherType 0x8808                      14  opcode 0x0102
 *   16  source IP (4)  20 destination IP (4)  24  source port (2)
 *   26  destination port (2)                  28  protocol (1)
 *   29  hops (2)                              31  zero padding to 60
 *   (FCS not included: the NIC adds it).
 * encode writes 60 bytes, returns 60 or 0 if len < 60 / NULL. */
#define ESC_ETF_BYTES_NOFCS 60
size_t esc_etf_encode(const struct esc_token *t, const uint8_t src_mac[6], uint8_t *buf, size_t len);
enum {
    ESC_ETF_OK = 0,
    ESC_ETF_ESHORT = -1,     /* fewer than 31 bytes */
    ESC_ETF_ENOTCTL = -2,    /* destination MAC or EtherType not MAC control */
    ESC_ETF_EOPCODE = -3,    /* opcode != 0x0102 (e.g. a PAUSE) */
    ESC_ETF_EHOPS = -4,      /* hops = 0 */
    ESC_ETF_EARG = -5
};
/* Parses a frame starting at the destination MAC.  Never reads past len. */
int esc_etf_decode(const uint8_t *buf, size_t len, struct esc_token *out);
const char *esc_etf_strerror(int err);

#endif
