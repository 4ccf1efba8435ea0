/*
 * deadlock.h -- the deadlock detector ([flowcontrol] deadlock_check,
 * deadlock_timeout; docs/escape.md "Deadlock detector"), usable with any
 * flow-control scheme.
 *
 * Every `deadlock_check` the detector looks at the switch egress ports.
 * A port is *stuck* when one of its lossless classes is paused by its
 * neighbour, that class has frames queued, and the port has sent no data
 * byte for `deadlock_timeout`.  Stuck ports form a wait-for graph: stuck
 * port P (switch A -> neighbour B) waits for stuck port Q of B when Q holds
 * a frame of P's paused class that entered B through the ingress P feeds
 * (that ingress's XOFF is what pauses P, and its bytes can only leave
 * through Q).  A cycle in this graph is a deadlock: no port on it can send
 * before another port on it does.  The first cycle found (ports taken in
 * index order, depth first) is reported with the time of the check that
 * found it and the time its ports last sent data; checking then stops.
 *
 * A check first turns what each switch sees of its own egress ports into
 * wait-for records (struct dl_rec): a stuck port and its blocked classes,
 * and, per ingress of its switch, the blocked classes whose queue holds a
 * frame from that ingress.  Stuck P -> stuck Q is an edge iff Q's record
 * for the ingress P feeds shares a class with P's blocked ones.  The
 * search reads only the records, so a run over several MPI ranks, where
 * each rank sees only its own switches, gathers every rank's records
 * (sc->par_allgather, at the check's simulated instant: the check is an
 * engine hook every rank runs at the same time and event key) and every
 * rank searches the same graph, reaching the sequential run's verdict.
 */
#ifndef ROCC_ENGINE_DEADLOCK_H
#define ROCC_ENGINE_DEADLOCK_H

#include <stdio.h>
#include "engine/scenario.h"

#define DEADLOCK_HOOK 0x7fffff00u   /* EV_HOOK id of the periodic check */
#define DEADLOCK_MAX_CYCLE 64       /* ports kept of the reported cycle */

/* One wait-for record (16 bytes). */
struct dl_rec {
    uint32_t port;                  /* a stuck switch egress port */
    uint16_t in;                    /* DL_REC_STUCK, or the local index of an ingress of port's switch */
    uint8_t  mask;                  /* stuck: its blocked classes; else those of them whose queue holds a frame from `in` */
    uint8_t  pad;
    simtime_t last_prog;            /* stuck: last time it sent a data byte */
};
#define DL_REC_STUCK 0xffffu

struct deadlock {
    simtime_t period, timeout;
    uint64_t *last_tx;              /* [n_ports] tx_data_bytes at the last check */
    simtime_t *last_prog;           /* [n_ports] last time a data byte was seen leaving */
    uint8_t *state;                 /* [n_ports] DFS scratch */
    uint32_t *stack, *next;         /* [n_ports] DFS scratch */
    uint32_t *first;                /* [n_ports] a stuck port's first record in recs, else NONE32 */
    struct dl_rec *recs;            /* this check's records (all ranks'), sorted by port */
    size_t n_recs, cap_recs;
    uint8_t *inmask;                /* [most ports of a node] scratch: classes per ingress */
    uint64_t checks;
    int detected;
    simtime_t t_detect, t_stalled;  /* the finding check; the cycle's last data tx */
    uint32_t n_cycle, cycle[DEADLOCK_MAX_CYCLE];
    uint32_t cycle_len;             /* full length (may exceed DEADLOCK_MAX_CYCLE) */
};

/* Read the [flowcontrol] deadlock keys; with deadlock_check set, allocate
 * and schedule the first check.  -1 with err. */
int  deadlock_build(struct scenario *sc, struct cfg *c, struct cfg_err *err);
/* The periodic check (EV_HOOK DEADLOCK_HOOK). */
void deadlock_tick(struct scenario *sc);
void deadlock_free(struct scenario *sc);
/* Outputs, only when the detector ran: the summary.json member (",\n  "
 * "deadlock": {...}") and the console line. */
void deadlock_json(const struct scenario *sc, FILE *f);
void deadlock_print(const struct scenario *sc, FILE *out);
/* "none" or "detected at T: P1 P2 ..." (for [expect]). */
void deadlock_describe(const struct scenario *sc, char *buf, size_t len);

#endif
