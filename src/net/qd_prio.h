/*
 * qd_prio.h -- strict priority among the eight 802.1p classes as a switch
 * egress port's queueing discipline (qdisc.h): what Homa needs from the
 * fabric (Montazeri et al., SIGCOMM 2018, §3.4: "in-network priority
 * queues", 8 levels; docs/homa.md).
 *
 * One FIFO per class.  The port sends the frame at the head of the highest
 * non-empty class; the built-in strict classes (the control class: ACKs,
 * GRANTs, CNPs) and MAC control still go first, as for every discipline.
 *
 * Buffer: the discipline's frames are not charged to the switch's MMU and
 * never cause PFC (qdisc.h).  `limit` bytes per port (0: unlimited, the
 * default) with tail drop of the arriving frame beyond it.
 *
 * Installed on every switch egress port by Homa's set-up (src/transport/tp_homa.c).
 */
#ifndef ROCC_NET_QD_PRIO_H
#define ROCC_NET_QD_PRIO_H

#include "net/qdisc.h"

struct qd_prio {
    struct pktq q[NCLASS];
    uint64_t limit;              /* bytes held at most (0: unlimited) */
    uint64_t bytes, held;        /* now */
    uint64_t drops;              /* arrivals refused at the limit */
};

extern const struct qdisc_ops qd_prio_ops;

/* Install a qd_prio on switch egress port `port` (a global port index).
 * -1 without memory or when the port is not a switch's. */
int qd_prio_install(struct net *n, uint32_t port, uint64_t limit);
/* Install a qd_prio on every egress port of every switch (after
 * net_finalize).  -1 without memory. */
int qd_prio_install_all(struct net *n, uint64_t limit);
/* Frames refused at the limit over all ports with qd_prio. */
uint64_t qd_prio_drops(const struct net *n);

#endif
