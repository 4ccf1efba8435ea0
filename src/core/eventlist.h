/*
 * eventlist.h -- the simulator's clock and pending-event set.
 *
 * Model: time is an integer number of picoseconds (uint64_t: 213 days of
 * simulated time).  An event is (time, kind, object): a small tag the owner
 * dispatches on, never a closure, so an event costs 24 bytes and no
 * allocation.  Events at equal times fire in the order of a 64-bit key,
 * `seq`, which makes runs deterministic: the pop order is the total order
 * of (time, seq), whatever the structure that holds the events.  el_push
 * takes the key from an insertion counter (ties fire in scheduling order);
 * el_push_key takes the caller's.  The network model uses the latter: its
 * keys are (schedule counter of the scheduling node, node) pairs, so the
 * order does not depend on how the nodes are spread over processes
 * (net.h, "Event order"; docs/architecture.md).  Keys must be unique
 * among the pending events of one time.
 *
 * The structure is a calendar in three tiers, because almost every event a
 * network schedules is due within a few microseconds (a frame's end, its
 * arrival after one link delay, a paced sender's next slot):
 *
 *   current bucket  all events before cur_end: a sorted run (a bucket's
 *                   events, however many -- a lock-step fabric puts
 *                   hundreds in one -- are sorted once when it becomes
 *                   current, earliest last, and pop off the end); events
 *                   pushed into it later are inserted by shifting, and
 *                   one pushed into a run of EL_SORTED_MAX or more turns
 *                   it into a 4-ary min-heap (rare: a network's events
 *                   are due at least a frame's time later);
 *   wheel           events in [cur_end, wheel_end): buckets of 2^shift ps
 *                   each, unordered lists, with a bitmap to
 *                   find the next non-empty bucket; the wheel always spans
 *                   2^EL_HORIZON_SHIFT ps, so it has 2^(EL_HORIZON_SHIFT -
 *                   shift) buckets;
 *   far heap        events at wheel_end or later (timers, paced flows far
 *                   below line rate): a 4-ary min-heap.
 *
 * The bucket width adapts to the event density, deterministically (it
 * depends only on the event sequence): it starts at 2^EL_SHIFT_MAX ps, and
 * every EL_ADAPT_POPS pops the simulated time they took decides -- more
 * than 8 pops per bucket width make the buckets 4x narrower (down to
 * 2^EL_SHIFT_MIN ps), fewer than 1 per four widths 4x wider again.  A
 * 1024-host fabric schedules tens of events per nanosecond; with 16 ns
 * buckets it would put hundreds in each and pay for them in the current
 * bucket's heap.
 *
 * A push is O(1) unless it lands in one of the heaps.  When the current
 * bucket runs dry, the next non-empty bucket becomes current: a single due
 * event fires straight from its wheel node, several are sorted into the
 * run (and far events that the advancing horizon now covers move into the
 * wheel).  Replaying the benchmarks' push/pop sequences, this is 1.3-2x
 * faster than one 4-ary heap over all events, in exactly the same order
 * (docs/performance.md).
 *
 * The network model keeps the set small by design -- at most one pending
 * event per busy link direction, per host and per timer owner.  Cancelling
 * is done by the owner (it remembers the time it armed and ignores a stale
 * firing); the structure itself never searches.
 */
#ifndef ROCC_EVENTLIST_H
#define ROCC_EVENTLIST_H

#include <stddef.h>
#include <stdint.h>

#include "core/prefetch.h"

typedef uint64_t simtime_t;             /* picoseconds */
#define SIMTIME_NEVER UINT64_MAX

#define PS_PER_NS 1000ull
#define PS_PER_US 1000000ull
#define PS_PER_MS 1000000000ull
#define PS_PER_S  1000000000000ull

struct event {
    simtime_t time;
    uint64_t  seq;                      /* tie-break key (el_push: insertion order) */
    uint32_t  kind;                     /* owner-defined tag */
    uint32_t  obj;                      /* owner-defined index */
};

/* Bucket widths: at most 2^12 ps = 4.1 ns (a 50-byte frame at 100 Gb/s,
 * where every run starts), at least 2^8 ps = 256 ps.  The wheel spans
 * 2^24 ps = 16.8 us, longer than a link delay plus a frame at any rate the
 * papers use: 4096 buckets at the widest, 65536 at the narrowest.  (At
 * 16.4 ns the 16-sender dumbbell's lock-step senders put several events
 * in one bucket a third of the time; 4.1 ns buckets mostly hold one, which
 * fires straight from its node: -1.5% instructions on the HPCC dumbbell,
 * +0.5% on the sparse cross-datacenter runs.) */
#define EL_SHIFT_MAX     12
#define EL_SHIFT_MIN     8
#define EL_HORIZON_SHIFT 24
/* Pops between two looks at the density. */
#define EL_ADAPT_POPS    32768
/* A push into a current run shorter than this inserts by shifting, which
 * beats heap pushes and pops at that size; into a longer one, the run
 * becomes a heap. */
#define EL_SORTED_MAX  32

/* The per-event fast paths below must be inlined where they are used:
 * with link-time optimization gcc would otherwise keep one shared copy. */
#define EL_INLINE static inline __attribute__((always_inline))

struct el_node {                        /* a wheel entry, in a free-listed pool */
    struct event ev;
    uint32_t     next;
};

struct eventlist {
    simtime_t      now;                 /* time of the event being handled */
    uint64_t       now_seq;             /* and its key (seq): rocc_trace's merge
                                         * order over ranks.  Storing it costs
                                         * nothing measurable: cachegrind, HPCC
                                         * dumbbell 10 ms, 361,056,012 instr
                                         * with the store, 361,056,103 without */
    uint64_t       next_seq;            /* el_push's insertion counter */
    uint64_t       n_fired;
    size_t         n;                   /* pending, all tiers */
    size_t         cap;                 /* each tier can hold cap events */

    struct event  *cur;                 /* tier 1: events < cur_end in */
    size_t         cur_n;               /*   cur[0 .. cur_n), latest first, */
    int            cur_heap;            /*   or with cur_heap a min-heap */
    simtime_t      cur_end;

    struct el_node *nodes;              /* tier 2: the wheel */
    uint32_t       free_node;
    uint32_t       shift, mask;         /* buckets are 2^shift ps; mask = buckets - 1 */
    uint64_t       sat_bucket;          /* below it no bucket bound overflows */
    simtime_t      span;                /* wheel_end - cur_end: mask << shift */
    uint64_t       bucket;              /* absolute number of the current bucket */
    simtime_t      wheel_end;
    uint32_t       *head;               /* [buckets]: first node, or UINT32_MAX */
    uint64_t       *bits;               /* [buckets / 64]: bit b: head[b] is a list */
    uint64_t       adapt_at;            /* n_fired at the next look at the density */
    simtime_t      adapt_since;         /* now at the last look */

    struct event  *far;                 /* tier 3: heap of events >= wheel_end */
    size_t         far_n;
    struct event  *tmp;                 /* [cap]: scratch for sorting a bucket into cur */

    uint64_t       pf_bucket;           /* el_prefetch_step: the bucket it last saw current */
    uint32_t       pf_node;             /*   and the next bucket's node it fetched last */
};

/* 0 on success, -1 if memory for cap_hint events cannot be had. */
int  el_init(struct eventlist *el, size_t cap_hint);
void el_free(struct eventlist *el);
/* Schedule (time, kind, obj); time must be >= el->now.  Returns -1 only when
 * the set cannot grow (out of memory).  The common case -- a free slot and
 * a time inside the wheel -- is inline: O(1), no branch on other events. */
int  el_push_slow(struct eventlist *el, simtime_t time, uint32_t kind, uint32_t obj, uint64_t seq);

/* Internal: file *ev in its wheel bucket (a free node exists). */
EL_INLINE void el_wheel_put_(struct eventlist *el, const struct event *ev)
{
    uint32_t idx = el->free_node;
    struct el_node *nd = &el->nodes[idx];
    uint32_t b = (uint32_t)(ev->time >> el->shift) & el->mask;
    el->free_node = nd->next;
    nd->ev = *ev;
    nd->next = el->head[b];
    el->head[b] = idx;
    el->bits[b >> 6] |= 1ull << (b & 63);
}

/* The same with the tie-break key given: among events of equal time, the
 * one with the smaller seq fires first.  The caller keeps keys unique. */
EL_INLINE int el_push_key(struct eventlist *el, simtime_t time, uint32_t kind, uint32_t obj, uint64_t seq)
{
    if (el->n == el->cap || time < el->cur_end || time >= el->wheel_end)
        return el_push_slow(el, time, kind, obj, seq);
    struct event ev = { time, seq, kind, obj };
    el_wheel_put_(el, &ev);             /* n < cap: a node is free */
    el->n++;
    return 0;
}

EL_INLINE int el_push(struct eventlist *el, simtime_t time, uint32_t kind, uint32_t obj)
{
    return el_push_key(el, time, kind, obj, el->next_seq++);
}

/* Internal: the pop paths that leave the inline fast path. */
int  el_pop_next_(struct eventlist *el, simtime_t until, struct event *out);
void el_cur_pop_(struct eventlist *el, struct event *out);

/* Internal: *out has left the set, and the clock moves to it. */
EL_INLINE int el_fired_(struct eventlist *el, const struct event *out)
{
    el->n--;
    el->now = out->time;
    el->now_seq = out->seq;
    el->n_fired++;
    return 1;
}

/* Remove the earliest event into *out and advance now, but only if it is
 * due at or before `until`; else 0 and nothing observable changes (the loop
 * "run until" in one call instead of peek + pop).  Inline: the current
 * bucket's usual single event costs a compare and a copy. */
EL_INLINE int el_pop_until(struct eventlist *el, simtime_t until, struct event *out)
{
    if (el->cur_n == 0)
        return el_pop_next_(el, until, out);
    if (!el->cur_heap) {
        const struct event *first = &el->cur[el->cur_n - 1];
        if (first->time > until)
            return 0;
        *out = *first;
        el->cur_n--;
    } else {
        if (el->cur[0].time > until)
            return 0;
        el_cur_pop_(el, out);
    }
    return el_fired_(el, out);
}
/* For callers whose pending events' memory does not stay in cache (a
 * large fabric): each call fetches one more node of the next non-empty
 * bucket's list, so that when that bucket becomes current its nodes --
 * otherwise one cache miss after another -- are there.  Call it once per
 * pop; it changes nothing but timing.  Returns the event of the node
 * reached (its line is in cache; the caller may fetch ahead for it), or
 * NULL.  The event may be stale (a list that changed under the walk). */
void el_prefetch_bucket_(struct eventlist *el);
EL_INLINE const struct event *el_prefetch_step(struct eventlist *el)
{
    if (el->pf_bucket != el->bucket) {
        el_prefetch_bucket_(el);
        return NULL;
    }
    uint32_t x = el->pf_node;
    if (x == UINT32_MAX)
        return NULL;
    const struct el_node *nd = &el->nodes[x];  /* fetched by the step before */
    el->pf_node = nd->next;
    if (nd->next != UINT32_MAX)
        rocc_prefetch(&el->nodes[nd->next]);
    return &nd->ev;
}
/* The same with no limit.  0 if empty. */
int  el_pop(struct eventlist *el, struct event *out);
static inline size_t el_pending(const struct eventlist *el) { return el->n; }
/* Before anything ran (now == 0): keep only the pending events that
 * keep(ctx, ev) accepts, in their order.  O(n log n).  -1 on memory (the
 * set is then empty). */
int  el_filter(struct eventlist *el, int (*keep)(void *ctx, const struct event *ev), void *ctx);
/* NULL if every invariant of the structure holds (tiers, bitmaps, counts,
 * free list), else what is broken.  O(cap + buckets): for tests. */
const char *el_check(const struct eventlist *el);
/* Time of the earliest pending event, SIMTIME_NEVER if none.  May move the
 * next bucket into the current bucket, which changes nothing observable. */
simtime_t el_peek_slow(struct eventlist *el);
static inline simtime_t el_peek_time(struct eventlist *el)
{
    if (el->cur_n == 0)
        return el_peek_slow(el);
    return el->cur[el->cur_heap ? 0 : el->cur_n - 1].time;
}

#endif
