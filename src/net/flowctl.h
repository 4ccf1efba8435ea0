/*
 * flowctl.h -- flow-control schemes of the simulator's switch.
 *
 * The model.  A switch keeps two things about link-level flow control:
 *
 *   - the *port registry*: for every (ingress port, class), whether the MMU
 *     has asked the upstream neighbour to stop (XOFF sent, mmu_cnt.xoff_sent,
 *     the "PFC-requested" ingress of the Escape dissertation §4.3.1(6)); for
 *     every egress port, the classes its downstream neighbour has paused
 *     (port.paused, "PFC-activated").  The MMU (switch.c) decides when an
 *     ingress crosses its XOFF and XON thresholds; nothing else writes the
 *     registry.  fc_ingress_requested() and fc_egress_paused() read it;
 *   - a *scheme*: what the switch does about it.  The scheme "pfc" is plain
 *     IEEE 802.1Qbb: a PAUSE frame upstream when an ingress crosses XOFF, a
 *     resume frame at XON, and nothing else.  Other schemes (Escape, Loop
 *     Breaker, Deadlock Breaker, GFC) are a `struct fc_ops`: the PFC
 *     behaviour plus hooks, each optional.
 *
 * A scheme is installed per switch (fc_install: the ops and the scheme's
 * own per-switch state).  The switch calls a hook only if the scheme has
 * it: fc_install folds the hooks present into the bit mask sw.fc_flags,
 * and every call site tests one bit of it, so a scheme without a hook
 * (pfc) costs one predictable branch per site and nothing more.
 *
 * The events a scheme sees, in the order a frame meets them:
 *
 *   admit       a frame arrived on ingress `in` and was routed to egress
 *               *out; before the MMU charges it.  The scheme may change
 *               *out (reroute), drop it (FC_DROP), let the MMU decide
 *               (FC_DEFAULT) or admit it beyond the MMU's limits
 *               (FC_FORCE: charged to the shared pool even when that is
 *               exhausted -- borrowed buffer, returned at dequeue).
 *   occupancy   after every charge or release of a lossless (ingress,
 *               class) counter (GFC maps occupancy to a rate).  Per frame:
 *               only for schemes that need it.
 *   ingress     an (ingress, class) requested (on = 1) or released (0)
 *               PFC.  A scheme with FC_F_NO_PAUSE keeps the registry but
 *               sends no PAUSE frame (GFC sends rate feedback instead).
 *   pause       an egress port's class was paused (1) or resumed (0) by
 *               its neighbour (state changes only, not refreshes).
 *   tx          a frame leaves an egress queue for the wire (TRANSMIT(d) of
 *               the dissertation's Alg. 3); the scheme may rewrite its
 *               Escape header (`hops`).  MAC control frames are not shown.
 *               Frames a link failure flushes from the queues leave the
 *               same way (net.c flush_port) and are shown too.
 *   frame       a link-local control frame of the scheme (PKT_FCTL)
 *               arrived on a port.  Control frames are a security
 *               boundary: the scheme checks every field (a flow index may
 *               be out of range, a subtype unknown) and returns -1 for a
 *               malformed one, which is then counted (net.fctl_bad) and
 *               dropped with no effect.
 *   timer       the switch's own timer (EV_FCTL): fc_timer_arm() sets it;
 *               on_timer returns the next time (SIMTIME_NEVER: none).
 *
 * What a scheme may do, besides reading the registry:
 *
 *   - send a control frame on one of its switch's ports: fc_new_frame()
 *     then fc_send().  PKT_FCTL frames are MAC control: they go in the
 *     port's QMAC queue (before every class, never paused), count in the
 *     port's tx counters, the packet totals (created/consumed/dropped by
 *     type) and the conservation audit like every frame;
 *   - extract a frame: fc_extract() finds the first data frame of a flow
 *     in an egress queue, scanning from head to tail, unlinks it keeping
 *     the others' order and says how many frames it looked at (the PIEO
 *     "extract" of the dissertation §4.5.1: cost grows with frames
 *     scanned).  The frame is then held: out of every queue, still
 *     charged to its (ingress, class) in the MMU.  The scheme must put it
 *     back at once: fc_push_escape() (the escape queue of an egress
 *     port), fc_requeue() (any class queue of any port of the switch) or
 *     fc_drop_held() (release the buffer, count a drop);
 *   - use the *escape queue* QESC of every egress port, for schemes with
 *     FC_F_ESCAPE_QUEUE: a frame whose Escape header says hops != 0 is
 *     queued there instead of its class queue, at enqueue.  The scheduler
 *     serves QMAC, then the strict (control) classes, then QESC, then the
 *     data classes by DRR.  QESC is never paused or rate-gated: it holds
 *     only frames a scheme reserved room for downstream.  Control classes
 *     go first because they are small, carry the CC's feedback and do not
 *     depend on the data path; an escaping frame still overtakes every
 *     regular data frame, which is what in-order delivery needs (§4.3.3
 *     (3)).  Frames in QESC keep their MMU charge (in_port, prio) and
 *     count in the port's data_bytes like any data frame.  The header's
 *     bytes on the wire: net.cfg.fc_hdr_bytes, added to every RoCEv2
 *     frame a host makes (data and ACK) when the scheme sets it (0 for
 *     pfc, so PFC runs are unchanged);
 *   - rate-gate a class of an egress port: fc_set_rate() makes the port
 *     send that class at most at the given rate (after each frame of the
 *     class the class stays gated for the frame's wire time at that rate;
 *     EV_FCTL_GATE reopens it).  Gates and pauses both block a class; QMAC,
 *     strict classes and QESC are never gated.  Switch egress ports and host
 *     NICs alike (a NIC skips a gated class's flows as it skips paused ones).
 *
 * Cost on the fast path: one bit test of sw.fc_flags at admit, enqueue
 * (escape classification), dequeue (tx hook and rate gates) and in the MMU
 * (occupancy), and pick_class reading `paused | gated`, with the strict
 * classes and QESC tested together.  Schemes register in the engine's table
 * (src/engine/fcsel.c: one entry each: name, ops, setup of their config
 * section); docs/escape.md describes the interface for users.
 */
#ifndef ROCC_NET_FLOWCTL_H
#define ROCC_NET_FLOWCTL_H

#include "net/net.h"

enum fc_verdict { FC_DEFAULT = 0, FC_DROP = 1, FC_FORCE = 2 };

/* Scheme properties (fc_ops.flags). */
enum {
    FC_F_ESCAPE_QUEUE = 1,  /* frames with hops != 0 go to QESC */
    FC_F_NO_PAUSE     = 2,  /* keep the registry, send no PAUSE frames */
};

struct fc_ops {
    const char *name;
    uint8_t flags;          /* FC_F_* */
    int  (*admit)(struct net *n, struct sw *s, uint32_t in_local, uint32_t *out, struct packet *p);
    void (*on_occupancy)(struct net *n, struct sw *s, uint32_t in_local, uint8_t cls);
    void (*on_ingress)(struct net *n, struct sw *s, uint32_t in_local, uint8_t cls, int on);
    void (*on_pause)(struct net *n, struct sw *s, uint32_t port, uint8_t cls, int on);
    void (*on_tx)(struct net *n, struct sw *s, uint32_t port, struct packet *p);
    int  (*on_frame)(struct net *n, struct sw *s, uint32_t port, const struct packet *p);
    simtime_t (*on_timer)(struct net *n, struct sw *s);
    void (*destroy)(void *state);   /* the per-switch state, at net_free */
};

/* sw.fc_flags: which hooks the installed scheme has, and its FC_F_*. */
enum {
    FCB_ADMIT = 1, FCB_OCCUPANCY = 2, FCB_INGRESS = 4, FCB_PAUSE = 8, FCB_TX = 16,
    FCB_ESCQ = 32, FCB_NOPAUSE = 64,
    FCB_GATE = 128,         /* set on every switch once a rate gate exists (fc_set_rate) */
};

/* The plain-PFC scheme: no hooks. */
extern const struct fc_ops fc_pfc;

/* Install ops (with its per-switch state, may be NULL) on switch s.  A
 * scheme already installed there is replaced (its destroy is not called). */
void fc_install(struct net *n, struct sw *s, const struct fc_ops *ops, void *state);

/* ---- the port registry ---- */
static inline int fc_ingress_requested(const struct sw *s, uint32_t in_local, uint8_t cls)
{
    return s->cnt[in_local * NCLASS + cls].xoff_sent;
}
static inline int fc_egress_paused(const struct net *n, uint32_t port, uint8_t cls)
{
    return (n->ports[port].paused >> cls) & 1;
}
/* Global port index of switch s's local port. */
static inline uint32_t fc_port(const struct net *n, const struct sw *s, uint32_t local)
{
    return n->nodes[s->node].first_port + local;
}
static inline uint32_t fc_n_ports(const struct net *n, const struct sw *s)
{
    return n->nodes[s->node].n_ports;
}

/* ---- control frames ---- */
/* A new PKT_FCTL frame (subtype sub, ETH_MIN_FRAME bytes, control class,
 * flow NONE32); PKT_NONE without memory.  Fill its fields, then fc_send. */
uint32_t fc_new_frame(struct net *n, uint8_t sub);
/* An 802.1Qbb frame for class cls on `port` (MAC control queue): XOFF
 * (on = 1, counted in the port's pfc_sent) or XON.  What the MMU sends;
 * a scheme with FC_F_NO_PAUSE sends its own with it (SWING's relay). */
void     fc_send_pause(struct net *n, uint32_t port, uint8_t cls, int on);
/* Give ingress in_local of switch s a buffer of its own of `bytes`: its
 * static XOFF threshold becomes `bytes` and the switch's shared pool and
 * buffer grow by as much (SWING's relay buffer for the long link; its
 * headroom is unchanged).  Call once the net is finalized, before the run. */
void     fc_dedicate_buffer(struct sw *s, uint32_t in_local, uint64_t bytes);
/* Subtype of frames for the receiving port's agents rather than the
 * scheme (net.h port_agent_ops.on_frame; LSCC's feedback, agent_lscc.h). */
#define FC_SUB_AGENT 0x4c          /* 'L' */
/* Queue frame pi (from fc_new_frame) on port `port` (QMAC) and start it. */
void     fc_send(struct net *n, uint32_t port, uint32_t pi);

/* ---- extraction and the escape queue ---- */
/* First PKT_DATA frame of `flow` in queue q (a class, or QESC) of egress
 * `port` of switch s, head to tail; unlinked (order of the rest kept,
 * qmask and data_bytes updated) and returned held, or PKT_NONE.
 * *scanned (may be NULL) = frames looked at, the match included. */
uint32_t fc_extract(struct net *n, struct sw *s, uint32_t port, uint32_t q, uint32_t flow, uint32_t *scanned);
/* Put a held frame into the escape queue of egress `port` (its MMU charge
 * unchanged) and start the port. */
void     fc_push_escape(struct net *n, struct sw *s, uint32_t port, uint32_t pi);
/* Put a held frame at the tail of queue q (a class or QESC) of `port`. */
void     fc_requeue(struct net *n, struct sw *s, uint32_t port, uint32_t q, uint32_t pi);
/* Release a held frame's buffer and count it dropped at `port`. */
void     fc_drop_held(struct net *n, struct sw *s, uint32_t port, uint32_t pi);

/* ---- extra buffer ---- */
/* Let ingress (in_local, cls) of switch s take `bytes` more bytes from now
 * before it asks for XOFF (its XOFF threshold is raised to its present
 * occupancy + bytes; headroom bytes move to the shared pool while it has
 * room), sending XON upstream at once if the MMU's XON rule now holds;
 * bytes = 0 withdraws the grant (the next admission above the MMU's own
 * threshold sends XOFF).  Deadlock Breaker's "extra buffer".  -1 without
 * memory (the table is allocated on the first grant). */
int      fc_grant_buffer(struct net *n, struct sw *s, uint32_t in_local, uint8_t cls, uint64_t bytes);

/* ---- rate gates ---- */
/* Limit class cls of switch egress `port` to rate_bps (0: no limit, the
 * gate opens now).  -1 without memory (the gate table is allocated on
 * first use). */
int      fc_set_rate(struct net *n, uint32_t port, uint8_t cls, uint64_t rate_bps);

/* ---- timer ---- */
/* Fire s's on_timer at time t (an earlier pending time is replaced). */
void     fc_timer_arm(struct net *n, struct sw *s, simtime_t t);

/* ---- called by the model (switch.c, port.c, net.c) ---- */
void     fc_timer_fire(struct net *n, uint32_t sw, simtime_t t);
void     fc_gate_fire(struct net *n, uint32_t obj, simtime_t t);
void     fc_gate_after_tx(struct net *n, struct port *pt, uint32_t port, uint8_t cls, uint32_t wire_bytes);
void     fc_receive(struct net *n, uint32_t port, uint32_t pi);

#endif
