/*
 * oq.h -- OpenQueue: the buffer-management language of the dissertation's
 * chapter 2 (§2.3), its compiler and its runtime.  Reference: docs/openqueue.md.
 *
 * Two halves:
 *
 *   compiler  oq_compile() reads a policy (queues, buffers, ports, their
 *             comparators and boundary conditions) and returns a compiled
 *             struct oq_policy, or an error "FILE:LINE:COL: message".  It
 *             allocates (one policy, freed by oq_policy_free) and may print
 *             nothing; oq_policy_print() writes the structure to a FILE.
 *   runtime   oq_rt_new() instantiates a policy with fixed capacities: every
 *             array (packet slots, heaps) is allocated there, never per
 *             packet.  oq_enqueue() runs admission (congestion conditions,
 *             push-out, LQD through queuePrio, hard limits, postAdmAct) and
 *             oq_service() one scheduling step of a port (schedPrio over the
 *             port's queues, one processing cycle to the HOL packet of the
 *             chosen queue, postSchedAct).  Time is passed in (integer
 *             picoseconds); no I/O, no globals, no clock.  Dropped packets are
 *             handed back through a callback so the caller can free its own
 *             packet objects.
 *
 * Depends on src/core only (rng for drop(P), text for safe error messages).
 */
#ifndef ROCC_OQ_H
#define ROCC_OQ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/rng.h"

/* ---------------------------------------------------------------- packet */

/* The Packet interface of Fig. 2.7.  arrival is set by oq_enqueue (now);
 * size by the caller on arrival; queue, value, processing, slack, flow and
 * policyId by the classification step (oq_classify or the caller). */
struct oq_pkt {
    uint64_t arrival;      /* ps, set by oq_enqueue                    [r, cons] */
    uint64_t slack;        /* ps, offset from arrival to transmission  [r, cons] */
    uint64_t handle;       /* the caller's own reference (e.g. a packet index); opaque */
    double value;          /* intrinsic value                          [rw, dyn] */
    uint32_t size;         /* bytes                                    [r, cons] */
    uint32_t queue;        /* target queue index (oq_queue_index)      [r, cons] */
    uint32_t processing;   /* remaining processing cycles; 0 acts as 1 [r, dyn]  */
    uint32_t flow;         /* flow id                                  [r, cons] */
    uint32_t policyId;     /*                                          [r, cons] */
    uint8_t marked;        /* set by a mark action (ECN for the caller) */
    uint8_t pad_[3];
};

/* ---------------------------------------------------------------- policy */

struct oq_policy;          /* opaque: the compiled form (oq_int.h) */

/* Compile policy text (len bytes; need not be NUL-terminated) named fname
 * in messages.  Returns the policy, or NULL with "FNAME:LINE:COL: message"
 * in err (errlen bytes; text from the file is escaped, core/text.h).  A
 * NULL return with an empty err never happens. */
struct oq_policy *oq_compile(const char *text, size_t len, const char *fname, char *err, size_t errlen);
/* oq_compile on the content of a file (at most OQ_MAX_FILE bytes). */
#define OQ_MAX_FILE (1u << 20)
struct oq_policy *oq_compile_file(const char *path, char *err, size_t errlen);
void oq_policy_free(struct oq_policy *p);

/* The structure: queues, buffers, ports, every compiled comparator (rank
 * key or bytecode) and condition (cases, actions, bytecode). */
void oq_policy_print(const struct oq_policy *p, FILE *out);

/* Counts and names (indices are declaration order, from 0). */
uint32_t oq_nqueues(const struct oq_policy *p);
uint32_t oq_nbuffers(const struct oq_policy *p);
uint32_t oq_nports(const struct oq_policy *p);
const char *oq_queue_name(const struct oq_policy *p, uint32_t q);
const char *oq_port_name(const struct oq_policy *p, uint32_t port);
const char *oq_buffer_name(const struct oq_policy *p, uint32_t b);
/* Index of the queue / port called name, or -1. */
int oq_queue_index(const struct oq_policy *p, const char *name);
int oq_port_index(const struct oq_policy *p, const char *name);
/* The port a queue is attached to; the queues of a port. */
uint32_t oq_queue_port(const struct oq_policy *p, uint32_t q);
uint32_t oq_port_nqueues(const struct oq_policy *p, uint32_t port);
uint32_t oq_port_queue(const struct oq_policy *p, uint32_t port, uint32_t i);
/* A port's declared rate: OQ_RATE_PERCENT (value in percent of the link)
 * or OQ_RATE_BPS (bits per second). */
enum { OQ_RATE_PERCENT, OQ_RATE_BPS };
void oq_port_rate(const struct oq_policy *p, uint32_t port, int *kind, double *value);

/* --------------------------------------------------------------- runtime */

struct oq_rt;              /* opaque */

enum oq_drop_reason {
    OQ_DROP_CONGESTION,    /* a drop(P) action of a queue's congestion() chose it */
    OQ_DROP_BUFFER,        /* a drop(P) action of a buffer's congestion() chose it */
    OQ_DROP_OVERFLOW,      /* the declared size (or slot capacity) would be exceeded */
};

enum oq_entity { OQ_ENT_QUEUE, OQ_ENT_BUFFER, OQ_ENT_PORT };

struct oq_sink {
    void *ctx;
    /* Every packet that leaves without being served: the arrival itself
     * or one pushed out.  May be NULL. */
    void (*drop)(void *ctx, const struct oq_pkt *p, enum oq_drop_reason why);
    /* A notify action fired on an entity (queue, buffer or port index);
     * pkt is the packet in scope.  May be NULL. */
    void (*notify)(void *ctx, enum oq_entity kind, uint32_t idx, const struct oq_pkt *pkt);
};

struct oq_rt_params {
    uint64_t seed;             /* for drop(P) with 0 < P < 1 */
    uint32_t min_pkt_bytes;    /* slots per byte-sized queue = size / this (default 64) */
    uint32_t max_queue_slots;  /* cap on the slots of one queue (default 65536) */
};

/* Instantiate (allocates every array now; the policy must outlive the
 * runtime).  NULL on out of memory. */
struct oq_rt *oq_rt_new(const struct oq_policy *p, const struct oq_rt_params *prm, const struct oq_sink *sink);
void oq_rt_free(struct oq_rt *rt);

/* Classification for a packet arriving at port: if pkt->queue is not a
 * queue of that port, the port's queueSelect routine picks one (default:
 * the port's first queue; select_flow: flow id modulo the port's queue
 * count; select_random: uniform).  Returns the queue index. */
uint32_t oq_classify(struct oq_rt *rt, uint32_t port, struct oq_pkt *pkt);

enum { OQ_ADMITTED = 0, OQ_REFUSED = 1 };
/* Admission of pkt (pkt->queue must be a valid queue index, pkt->size > 0;
 * otherwise OQ_REFUSED and the drop callback with OQ_DROP_OVERFLOW).
 * Returns OQ_ADMITTED if the arrival is in its queue when the call
 * returns; any packets pushed out went to the drop callback.  A time
 * earlier than the last one passed is taken as the last one. */
int oq_enqueue(struct oq_rt *rt, const struct oq_pkt *pkt, uint64_t now);

enum { OQ_EMPTY = 0, OQ_SENT = 1, OQ_BUSY = 2 };
/* One scheduling step of port: picks a queue by schedPrio, gives its HOL
 * packet (procPrio) one processing cycle and runs postSchedAct.  OQ_SENT:
 * the packet's last cycle, *out is the packet (removed); OQ_BUSY: a cycle
 * was spent, the packet stays (*out is a copy of it, so the caller can time
 * the cycle by its size); OQ_EMPTY: the port's queues are empty. */
int oq_service(struct oq_rt *rt, uint32_t port, uint64_t now, struct oq_pkt *out);

/* oq_service restricted to some of the port's queues: eligible[i] != 0
 * lets the port's i-th queue (the order of its Port(...) declaration) be
 * chosen; NULL lets every queue.  schedPrio ranks the eligible non-empty
 * queues only.  (The buffered crossbar's input stage uses it: a VOQ whose
 * crosspoint is full cannot be served; oq_xbar.h.) */
int oq_service_among(struct oq_rt *rt, uint32_t port, uint64_t now, const uint8_t *eligible, struct oq_pkt *out);

/* The HOL packet of queue q (its procPrio first) copied to *out, left in
 * the queue; 0 if q is empty (or no queue). */
int oq_queue_head(struct oq_rt *rt, uint32_t q, struct oq_pkt *out);

/* 1 if queue q can take extra_pkts more packets of extra_bytes bytes in all
 * without passing its hard limits (declared size, slots) or its buffer's
 * declared size; its congestion() conditions are not evaluated. */
int oq_queue_fits(const struct oq_rt *rt, uint32_t q, uint32_t extra_pkts, uint64_t extra_bytes);

/* Per-queue counters (cumulative; bytes are packet sizes). */
struct oq_qstats {
    uint64_t enqueued, enq_bytes;     /* admitted arrivals */
    uint64_t dequeued, deq_bytes;     /* served (OQ_SENT) */
    uint64_t dropped, drop_bytes;     /* refused arrivals + pushed out */
    uint64_t pushed_out;              /* of dropped: admitted earlier, then dropped */
    uint64_t marked, notified;
    uint32_t len;                     /* packets now */
    uint64_t bytes;                   /* bytes now */
};
void oq_queue_stats(const struct oq_rt *rt, uint32_t q, struct oq_qstats *st);
/* Writable state of a queue (admState, schedState, weightAdm, weightSched). */
void oq_queue_state(const struct oq_rt *rt, uint32_t q, double st[4]);
/* Packets in the runtime now (all queues). */
uint64_t oq_rt_packets(const struct oq_rt *rt);

#endif
