/*
 * eventlist.h -- the simulator's clock and pending-event set.
 *
 * Model: time is an integer number of picoseconds (uint64_t: 213 days of
 * simulated time).  An event is (time, kind, object): a small tag the owner
 * dispatches on, never a closure, so an event costs 24 bytes and no
 * allocation.  Events at equal times fire in the order they were scheduled
 * (a 64-bit insertion sequence breaks ties), which makes runs deterministic.
 *
 * The set is a 4-ary min-heap in one array: shallower than a binary heap and
 * its four children share a cache line, which matters once 10^6 events are
 * pending.  The network model keeps the set small by design -- at most one
 * pending event per busy link direction, per host and per timer owner -- so
 * the heap size follows the number of busy resources, not packets in flight.
 * Cancelling is done by the owner (it remembers the time it armed and ignores
 * a stale firing); the heap itself never searches.
 */
#ifndef ROCC_EVENTLIST_H
#define ROCC_EVENTLIST_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t simtime_t;             /* picoseconds */
#define SIMTIME_NEVER UINT64_MAX

#define PS_PER_NS 1000ull
#define PS_PER_US 1000000ull
#define PS_PER_MS 1000000000ull
#define PS_PER_S  1000000000000ull

struct event {
    simtime_t time;
    uint64_t  seq;                      /* insertion order, for ties */
    uint32_t  kind;                     /* owner-defined tag */
    uint32_t  obj;                      /* owner-defined index */
};

struct eventlist {
    struct event *heap;
    size_t        n, cap;
    uint64_t      next_seq;
    simtime_t     now;                  /* time of the event being handled */
    uint64_t      n_fired;
};

/* 0 on success, -1 if memory for cap_hint events cannot be had. */
int  el_init(struct eventlist *el, size_t cap_hint);
void el_free(struct eventlist *el);
/* Schedule (time, kind, obj); time must be >= el->now.  Returns -1 only when
 * the heap cannot grow (out of memory). */
int  el_push(struct eventlist *el, simtime_t time, uint32_t kind, uint32_t obj);
/* Remove the earliest event into *out and advance now.  0 if empty. */
int  el_pop(struct eventlist *el, struct event *out);
static inline size_t el_pending(const struct eventlist *el) { return el->n; }
/* Time of the earliest pending event, SIMTIME_NEVER if none. */
static inline simtime_t el_peek_time(const struct eventlist *el)
{
    return el->n ? el->heap[0].time : SIMTIME_NEVER;
}

#endif
