/*
 * qd_oq.h -- an OpenQueue policy as a switch egress port's queueing
 * discipline (qdisc.h): the port's data frames go through a runtime of the
 * compiled policy (src/openqueue/oq.h) instead of the built-in MMU and
 * scheduler.  Reference: docs/openqueue.md "Running a policy on a port".
 *
 * One runtime per port, instantiated from a policy with exactly one Port
 * (or the Port named by the caller); its queues hold the port's data frames.
 *
 * Classification (the Packet fields of §2.3, Fig. 2.7): `size` is the
 * frame's bytes, `arrival` the time it reaches the queue, `flow` the flow
 * index; `value`, `processing`, `slack`, `queue` and `policyId` come from a
 * rule: the rule of the frame's flow group if there is one, else the rule
 * of its 802.1p class.  A rule's value is a constant or the class number;
 * its processing a constant, the class number, or a uniform integer draw
 * in [lo, hi] per frame (the port's own generator: deterministic).  A rule
 * without a queue lets the Port's queueSelect choose.
 *
 * Processing cycles as time: oq_service gives the HOL packet one cycle per
 * service opportunity.  A frame needing k cycles leaves on its k-th; each
 * of the k - 1 cycles before keeps the port busy, sending nothing, for
 * `cycle_ps` -- or, when cycle_ps is 0 (the default), for the wire time of
 * the frame that had the cycle at the port's rate, so a frame of k cycles
 * occupies the port for k of its transmission times.  Cycles never overlap
 * a transmission.
 *
 * Port rate: a policy Port declared below the link rate (rate_frac < 1)
 * starts no frame sooner than wire time / rate_frac after the previous
 * one began (a shaper; the gap is idle time of the serializer).
 *
 * Marks: a `mark` action (postAdmAct, postSchedAct) on a data frame sets
 * its ECN CE bit as it leaves (RoCEv2 data frames are ECN-capable), so
 * DCQCN's NP and DCTCP react to it like to RED marks.
 */
#ifndef ROCC_NET_QD_OQ_H
#define ROCC_NET_QD_OQ_H

#include "net/qdisc.h"
#include "openqueue/oq.h"

enum { OQC_CONST = 0, OQC_CLASS = 1, OQC_UNIFORM = 2 };

struct oqc_rule {
    uint8_t  value_kind;         /* OQC_CONST or OQC_CLASS */
    uint8_t  proc_kind;          /* OQC_CONST, OQC_CLASS or OQC_UNIFORM */
    double   value;
    uint32_t proc_lo, proc_hi;   /* OQC_CONST: proc_lo; OQC_UNIFORM: [lo, hi] */
    uint64_t slack_ps;
    int32_t  queue;              /* policy queue index, -1: the Port's queueSelect */
    uint32_t policy_id;
};

/* The classification of one policy (shared by every port running it;
 * owned by the caller, who keeps it alive as long as the net). */
struct oqc_table {
    struct oqc_rule cls[NCLASS];     /* by 802.1p class */
    struct oqc_rule *group;          /* [n_groups] by flow group, NULL: none */
    uint8_t *has_group;              /* [n_groups]: group g has its own rule */
    uint32_t n_groups;
};

/* Per-queue figures beyond the runtime's counters. */
struct oqp_qextra {
    uint32_t max_len;                /* packets */
    uint64_t max_bytes;
};

struct oqp {
    struct oq_rt *rt;
    const struct oq_policy *pol;
    const struct oqc_table *cls;
    uint32_t oport;                  /* the policy's Port */
    uint32_t port;                   /* global port index */
    uint64_t cycle_ps;               /* 0: the frame's wire time */
    double   rate_frac;              /* the Port's rate / the link's, in (0, 1] (set after oqp_new; 1 there) */
    simtime_t next_ok;               /* rate_frac < 1: no frame starts before this */
    struct rng rng;                  /* processing draws */
    struct net *n;                   /* set during each call (the drop sink needs it) */
    uint32_t arriving;               /* the frame being admitted (PKT_NONE: none) */
    uint64_t held;
    struct oqp_qextra *qx;           /* [oq_nqueues] */
    /* totals */
    uint64_t cycles_busy;            /* cycles spent without sending */
    uint64_t ce_marked;              /* frames sent with CE set by a mark */
    double   value_in, value_sent, value_dropped;   /* sum of the frames' value */
};

extern const struct qdisc_ops qd_openqueue;

/* A port state for global port `port` running policy port `oport` of pol
 * (the runtime seeded with seed); NULL without memory. */
struct oqp *oqp_new(const struct oq_policy *pol, uint32_t oport, const struct oqc_table *cls, uint32_t port,
                    uint64_t cycle_ps, uint64_t seed);
void oqp_free(struct oqp *q);

#endif
