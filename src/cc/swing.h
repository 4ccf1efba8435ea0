/*
 * swing.h -- SWING's PFC relay (Chen, Tian, Dong et al., "Swing: Providing
 * long-range lossless RDMA via PFC-relay", IEEE TPDS 34(1), 2022; reference
 * [19] of LSCC, ../shared/papers/lscc-cross-datacenter-rdma-cc.txt).
 *
 * Sources.  The TPDS paper's text could not be obtained here (closed
 * access; only its abstract).  The model follows (a) the abstract: Swing
 * "expands lossless RDMA to long-distance links through PFC-Relay", keeps
 * the long link's throughput "while minimizing the buffer requirement", and
 * needs no change inside the datacenters; (b) LSCC §IV-C: "a PFC relay
 * device at each end of the long-haul link close to the egress switch", it
 * "trades the frequent triggering of PFC pause frames on the long-haul link
 * for high bandwidth utilization", its buffer "is positively proportional
 * to the BDP"; (c) Bifrost (Yu et al., ICNP 2023, same group) §II-B, §III-B
 * and §VI-B: Swing "decouples the switch buffer and the flow control signal
 * by adding an extra relay device"; "the DCI switch is only responsible to
 * trigger flow control signal, while the relay device accommodates packets
 * and forwards the signal"; its flow control "is still triggered by queue
 * length threshold"; their setting: datacenter switches as usual, the relay
 * with a 287 MB buffer (one round-trip BDP, 286 MB, plus about 1 MB) and
 * 198 KB XON/XOFF.  What these leave open is our choice, marked "ours"
 * here and listed in docs/crossdc.md ("SWING").
 *
 * Model (one relay, one class; the relay sits between its egress switch E
 * and the long link L).  The relay forwards frames both ways.  For traffic
 * coming in from L it relays E's PAUSE state over L instead of deciding
 * from its own queue:
 *   - E pauses the relay (E's own PFC thresholds, as any datacenter
 *     switch): the relay stops sending to E and sends PAUSE over L;
 *   - E resumes it: the relay sends to E again at once, from its buffer,
 *     and sends RESUME over L.
 * The relay's buffer absorbs what is on the long link meanwhile: arrivals
 * at time t are the far relay's sending at t - D, which is E's state at
 * t - 2D (relayed after D), so the buffer holds at most one round trip of
 * the long link (swing_relay_buffer).  E's queue stays at its own small
 * thresholds; on resume the relay's buffer feeds E while the RESUME and
 * the new data cross the round trip -- the throughput that plain PFC
 * loses when its XON comes with little left to send.
 * A safety net (ours): if the relay's own ingress from L still exceeds its
 * buffer (a misconfigured size), it pauses L itself, like PFC; what goes
 * over L is then the OR of both reasons.
 *
 * Traffic going *out* over L is plain PFC at the relay: the far relay's
 * relayed PAUSE stops the relay's egress to L, its ingress from E fills and
 * sends PAUSE to E by the relay's own thresholds (198 KB in Bifrost's
 * setting; the switch's in ours).
 *
 * This file is the relay's decision only: no I/O, no time, no allocation.
 */
#ifndef ROCC_SWING_H
#define ROCC_SWING_H

#include <stdint.h>

/* What the caller must send over the long link after an event. */
enum swing_action { SWING_NONE = 0, SWING_PAUSE = 1, SWING_RESUME = 2 };

struct swing_relay {
    uint8_t down;          /* the egress switch E pauses our egress to it */
    uint8_t own;           /* our own ingress from L asked for XOFF (safety net) */
    uint8_t sent;          /* the state last sent over L: 1 = paused */
    uint64_t relayed_pause, relayed_resume;   /* PAUSE / RESUME frames sent over L */
    uint64_t own_xoff;                        /* times the relay's own ingress asked for XOFF */
};

void swing_init(struct swing_relay *r);
/* E paused (on = 1) or resumed (0) the relay's egress toward it. */
enum swing_action swing_on_down(struct swing_relay *r, int on);
/* The relay's own MMU on its ingress from L asked for XOFF (1) or XON (0). */
enum swing_action swing_on_own(struct swing_relay *r, int on);

/* The relay's buffer for frames from the long link, "auto": one round trip
 * of the long link (2 x rate/8 x one-way delay) plus two frames of
 * `frame_wire_bytes` (the one in flight on each side when a PAUSE is sent
 * and when it arrives) plus `slack` (the XON offset).  Exact (128-bit).
 * Bifrost §VI-B's 287 MB for a 286 MB BDP is the same idea. */
uint64_t swing_relay_buffer(uint64_t rate_bps, uint64_t delay_ps, uint64_t frame_wire_bytes, uint64_t slack);

#endif
