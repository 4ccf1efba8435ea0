/*
 * oq_xbar.h -- the buffered crossbar of the dissertation's Fig. 2.12/2.13
 * (§2.4.2) as a pure state machine over the OpenQueue runtime: an N x N
 * switch fabric whose three buffering levels and both schedulers are the
 * queues and ports of one OpenQueue policy.  Reference: docs/openqueue.md
 * "The buffered crossbar".
 *
 *   level 1  voq(i,j): a virtual output queue per (input i, output j), at
 *            input i.  Input port in_i = Port(voq(i,1), ..., voq(i,N)); its
 *            schedPrio (LQF) is the input scheduler.
 *   level 2  cq(i,j): a crosspoint queue per (input, output).  Column port
 *            col_j = Port(cq(1,j), ..., cq(N,j)); its schedPrio (LQF) is the
 *            output scheduler: which crosspoint of column j feeds output j.
 *   level 3  oq(j): the output queue.  out_j = Port(oq(j)) is what the
 *            switch's egress port j transmits.
 *
 * Names in the policy (I, J from 1): voqIJ cqIJ oqJ inI colJ outJ for
 * N <= 9 (Fig. 2.13's names), voqI_J cqI_J (and oqJ inI colJ outJ) for
 * N >= 10; oqx_policy_text() writes such a policy for any N.
 *
 * What the model adds to the policy -- the fabric's forwarding and timing:
 *   - an arrival for output j is admitted to voq(i,j) by oq_enqueue (its
 *     congestion(): tail drop in Fig. 2.13); this is the only place the
 *     fabric drops with a tail-drop policy;
 *   - input i moves one packet at a time: when idle it calls
 *     oq_service_among(in_i) over the VOQs whose crosspoint can take their
 *     HOL packet (oq_queue_fits: credit-based back-pressure, no loss), and
 *     the packet enters cq(i,j) after its transfer time;
 *   - output j likewise moves one packet at a time from the crosspoint its
 *     column port picks (among those whose HOL fits in oq(j)) to oq(j);
 *   - the egress takes packets from oq(j) by oq_service(out_j) when its
 *     link is free (oqx_take).
 *   A transfer of b bytes through input or output k takes
 *   ceil(8 (b + overhead_bytes) 10^12 / xfer_bps[k]) ps: with xfer_bps the
 *   line rate and overhead the preamble and gap, the fabric moves a frame in
 *   exactly its wire time (speedup 1).  A packet leaves its VOQ (crosspoint)
 *   when its transfer starts and enters the next level when it ends; the
 *   crosspoint room it needs is checked at the start, and as only input i
 *   feeds cq(i,j) (only output j feeds oq(j)), one transfer at a time, no
 *   other packet can take that room meanwhile.  Packets of one (input,
 *   output) pair keep their order: every level is FIFO per pair.
 *
 * Pure: no I/O, no globals; every array is allocated by oqx_new; time is
 * passed in (ps).  No processing cycles: packets enter with processing 0.
 */
#ifndef ROCC_OQ_XBAR_H
#define ROCC_OQ_XBAR_H

#include <stddef.h>
#include <stdint.h>

#include "openqueue/oq.h"

/* 2N^2 + 3N entities must fit OpenQueue's 4096 (oq_int.h OQ_MAX_ENTITIES). */
#define OQX_MAX_PORTS 44

enum oqx_stage { OQX_VOQ, OQX_XPOINT, OQX_OUTQ };

struct oqx_sink {
    void *ctx;
    /* A packet the fabric dropped: refused or pushed out at a level (with
     * Fig. 2.13's tail drop and the back-pressure, only at a VOQ). */
    void (*drop)(void *ctx, const struct oq_pkt *p, enum oqx_stage stage, enum oq_drop_reason why);
    /* Output j's queue oq(j) went from empty to non-empty (called by
     * oqx_advance once its transfers are done, so the callee may call
     * oqx_take). */
    void (*ready)(void *ctx, uint32_t out);
    /* A packet that a mark action marked left a VOQ or a crosspoint (the
     * next level's admission starts it unmarked: keep the mark on your own
     * record; a mark in oq(j) arrives with oqx_take's packet).  May be NULL. */
    void (*mark)(void *ctx, const struct oq_pkt *p);
    /* A notify action of the policy (entity kind and index, packet). */
    void (*notify)(void *ctx, enum oq_entity kind, uint32_t idx, const struct oq_pkt *pkt);
};

struct oqx_params {
    uint32_t nports;           /* N: the policy must have exactly N inputs and outputs */
    const uint64_t *xfer_bps;  /* [N] transfer rate of input k and of output k (> 0) */
    uint32_t overhead_bytes;   /* added to every transfer's bytes (e.g. preamble + gap) */
    uint64_t seed;             /* the runtime's drop(P) draws */
};

struct oqx_stats {
    uint64_t arrived;          /* oqx_arrive calls */
    uint64_t dropped[3];       /* by stage */
    uint64_t in_xfers, out_xfers, sent;
    uint64_t in_blocked;       /* input decisions with packets but every crosspoint full */
    uint64_t out_blocked;      /* output decisions with packets but the output queue full */
};

struct oqx;

/* Build the fabric of policy p (which must outlive it): finds every queue
 * and port by name and checks the structure (in_i holds exactly voq(i,*),
 * col_j exactly cq(*,j), out_j exactly oq(j)).  NULL with a message naming
 * the policy file and the missing or misplaced entity in err. */
struct oqx *oqx_new(const struct oq_policy *p, const struct oqx_params *prm, const struct oqx_sink *sink,
                    char *err, size_t errlen);
void oqx_free(struct oqx *x);

/* A packet (pkt->size, handle, flow, value set by the caller) arrived at
 * input `in` for output `out` at time now.  OQ_ADMITTED or OQ_REFUSED (the
 * drop callback has seen it).  May start input in's transfer. */
int oqx_arrive(struct oqx *x, uint32_t in, uint32_t out, struct oq_pkt *pkt, uint64_t now);

/* Complete every transfer due at or before now, in time order (outputs
 * before inputs at equal times, lower index first), starting the next ones
 * at each completion time; then the ready callbacks. */
void oqx_advance(struct oqx *x, uint64_t now);

/* Earliest pending transfer completion (UINT64_MAX: none).  A caller
 * calls oqx_advance at that time; it may move earlier after any call. */
uint64_t oqx_next(const struct oqx *x);

/* Egress `out` is free: OQ_SENT with the next packet of oq(out) in *pkt
 * (out_j's oq_service), or OQ_EMPTY.  May start output out's transfer. */
int oqx_take(struct oqx *x, uint32_t out, uint64_t now, struct oq_pkt *pkt);

/* Any one packet for output out, removed from wherever it is (oq(out),
 * a crosspoint of its column, a transfer, a VOQ): 1 with *pkt, 0 when the
 * fabric holds none for out.  For flushing a failed link's frames. */
int oqx_drain(struct oqx *x, uint32_t out, struct oq_pkt *pkt);

/* Packets in the fabric: queued at every level plus in transfer. */
uint64_t oqx_held(const struct oqx *x);
/* Packets queued for output j at every level (voq(*,j), cq(*,j), oq(j),
 * in transfer to them). */
uint64_t oqx_held_for(const struct oqx *x, uint32_t out);

void oqx_get_stats(const struct oqx *x, struct oqx_stats *st);
uint32_t oqx_nports(const struct oqx *x);
/* Queue indices in the policy (oq_queue_stats through oqx_runtime). */
uint32_t oqx_voq(const struct oqx *x, uint32_t in, uint32_t out);
uint32_t oqx_xpoint(const struct oqx *x, uint32_t in, uint32_t out);
uint32_t oqx_outq(const struct oqx *x, uint32_t out);
/* The output a policy queue leads to (voq, cq, oq); UINT32_MAX for none. */
uint32_t oqx_queue_output(const struct oqx *x, uint32_t q);
/* Packets in oq(out) now (what the egress can take). */
uint32_t oqx_outq_len(const struct oqx *x, uint32_t out);
const struct oq_rt *oqx_runtime(const struct oqx *x);

/* The name of a crossbar entity ("voq", "cq": i and j; "oq", "in", "col",
 * "out": i only) for an N-port fabric, indices from 0. */
void oqx_name(char *buf, size_t cap, const char *kind, uint32_t n, uint32_t i, uint32_t j);

/* The policy text of an N-port buffered crossbar (Fig. 2.13 written out,
 * with column ports): every queue FIFO with defCongestion (tail drop),
 * sizes voq_size, xp_size, oq_size (OpenQueue literals, e.g. "32p",
 * "64KB"), schedulers in_sched at the inputs and out_sched at the columns
 * (library routine names: "lqf", "sqf", ...; "" for none: port order;
 * "lqf_rr": LQF with ties to the queue served least recently, defined in
 * the text with a postSchedAct that stamps the served queue, as crr).
 * Returns a malloc'd NUL-terminated string, NULL on a bad argument (N
 * outside 1..OQX_MAX_PORTS, a size or name not a plain literal) or out of
 * memory. */
char *oqx_policy_text(uint32_t n, const char *voq_size, const char *xp_size, const char *oq_size,
                      const char *in_sched, const char *out_sched);

#endif
