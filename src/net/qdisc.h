/*
 * qdisc.h -- the queueing of a switch egress port (admission + scheduling)
 * as a pluggable discipline: an ops table installed per port, with the
 * built-in MMU and scheduler of switch.c as the default (no ops installed).
 *
 * What a discipline owns.  The *data* frames routed to its port: frames
 * of a non-strict class (switch_cfg.strict_mask) that are not escaping
 * (Escape's QESC keeps them).  For those frames it replaces:
 *   - admission: the MMU (reserve / shared pool / PFC headroom) is not
 *     charged, no PFC is generated for them -- the discipline's own buffer
 *     is the port's buffer, and it decides (enqueue) whether a frame stays
 *     and which held frames it pushes out;
 *   - scheduling: after MAC control, the strict classes and the escape
 *     queue (which stay built-in and go first, as in the built-in
 *     scheduler), the port asks the discipline for its next frame
 *     (dequeue).  Frames that reached the built-in data queues anyway
 *     (FC_FORCE of a flow-control scheme, frames the switch made itself)
 *     are served by the built-in DRR when the discipline has nothing.
 * What stays common, in switch.c, so every discipline gets it for free:
 * port.data_bytes and max_queue_bytes (what queue.csv, the RoCC CP and the
 * monitors read), the switch agents' enqueue/dequeue hooks, INT stamping,
 * the flow-control tx hook and rate gates, and port_kick.
 *
 * Obligations of a discipline (the conservation audit checks them):
 *   - every frame enqueue was given either is held (return QD_HELD) or was
 *     dropped with qdisc_drop(.., counted = 0) before enqueue returns
 *     (QD_GONE); a held frame it drops later (push-out) goes through
 *     qdisc_drop(.., counted = 1), which also takes it out of data_bytes;
 *   - it sets QD_BIT in port.qmask (qdisc_backlog) exactly while it holds
 *     frames, so port_kick keeps the port's next event armed;
 *   - held() says how many frames it holds; drain() gives them back one
 *     by one, ignoring processing and schedules (link failure flush);
 *   - no allocation per frame: state is allocated at install time.
 *   dequeue may return PKT_NONE while holding frames: it then spent a
 *   service opportunity without sending (an OpenQueue processing cycle)
 *   and must have called qdisc_busy(), which keeps the port busy until a
 *   given time and arms its next EV_TX_DONE.
 *
 * Cost for ports without a discipline: one test of sw.qd (NULL on every
 * switch that has none) at receive and at dequeue.
 *
 * Disciplines: the OpenQueue port (qd_oq.h).  Installed by the engine
 * (src/engine/oqsel.c for [openqueue]).
 */
#ifndef ROCC_NET_QDISC_H
#define ROCC_NET_QDISC_H

#include "net/net.h"

/* port.qmask bit: the port's discipline holds frames (bits 0..NQUEUE-1 are
 * the built-in queues; the audit checks only those against their counts). */
#define QD_BIT ((uint16_t)(1u << NQUEUE))

enum { QD_HELD = 1, QD_GONE = 0 };

struct qdisc_ops {
    const char *name;
    /* Data frame pi (in_port set) routed to egress `port` of switch s. */
    int      (*enqueue)(struct net *n, struct sw *s, uint32_t port, uint32_t pi, void *state);
    /* The next frame for the wire, removed; PKT_NONE: nothing to send now. */
    uint32_t (*dequeue)(struct net *n, struct sw *s, uint32_t port, void *state);
    /* Any held frame, removed (for flushing); PKT_NONE when empty. */
    uint32_t (*drain)(struct net *n, struct sw *s, uint32_t port, void *state);
    uint64_t (*held)(const void *state);
    void     (*destroy)(void *state);     /* at net_free; may be NULL */
};

struct qdisc_slot {
    const struct qdisc_ops *ops;         /* NULL: the built-in */
    void *state;
};

/* Install ops with its state on local port `local` of switch s (replacing
 * any; destroy is then called for the old state).  -1 without memory (the
 * per-switch table is allocated on the first install). */
int  qdisc_install(struct net *n, struct sw *s, uint32_t local, const struct qdisc_ops *ops, void *state);
/* The discipline of global port `port` (NULL: built-in). */
static inline const struct qdisc_slot *qdisc_of(const struct net *n, uint32_t port)
{
    const struct port *pt = &n->ports[port];
    if (pt->owner_kind != NODE_SWITCH || !n->sws[pt->owner].qd)
        return NULL;
    const struct qdisc_slot *q = &n->sws[pt->owner].qd[pt->local];
    return q->ops ? q : NULL;
}

/* ---- for disciplines ---- */
static inline void qdisc_backlog(struct port *pt, int nonempty)
{
    if (nonempty)
        pt->qmask |= QD_BIT;
    else
        pt->qmask &= (uint16_t)~QD_BIT;
}
/* Drop frame pi at egress `port`: counted = 1 for a frame the discipline
 * held (it leaves data_bytes), 0 for the arrival being refused. */
void qdisc_drop(struct net *n, uint32_t port, uint32_t pi, int counted);
/* Keep `port` busy until `until` without sending (a service opportunity
 * spent on processing) and arm its next EV_TX_DONE then. */
void qdisc_busy(struct net *n, uint32_t port, simtime_t until);

/* ---- called by the model ---- */
/* Frames held by every discipline (net_check_conservation). */
uint64_t qdisc_held_all(const struct net *n);
/* A frame held by the discipline of `port` (flush on link failure), or PKT_NONE. */
uint32_t qdisc_drain(struct net *n, uint32_t port);
void     qdisc_free_all(struct net *n);

#endif
