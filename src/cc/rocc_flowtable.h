/*
 * rocc_flowtable.h -- RoCC CP flow tables (CoNEXT 2020 §3.4): which flows
 * receive a CNP each period.
 *
 * Model: one table per CP.  The caller reports every packet that enters
 * (rocc_ft_on_enqueue) and leaves (rocc_ft_on_dequeue) the CP's queue, and
 * once per period T asks rocc_ft_select() for the refs (caller handles) of
 * the flows to notify.  Three of §3.4's five kinds are implemented, numbered
 * as in its list:
 *
 *   QUEUE   (1) the flows with packets in the queue right now: count =
 *               packets queued, erased at 0.  Paper default (§6) and what
 *               the authors' code does (std::map, reference doc §1).
 *   BOUNDED (2) every flow seen in the last max_age_ps; older entries are
 *               evicted by select.  Capacity Fmax/Fmin suffices for the
 *               congesting flows (§3.4 (2)).
 *   ETRAP   (4) ElephantTrap (Lu et al., HOTI 2007): packets are sampled one
 *               in sample_one_in; a sampled packet increments its flow's
 *               counter or inserts the flow with count 1.  When the table is
 *               full a rotating eviction pointer walks the slots, halving
 *               counters >= elephant_count and evicting the first entry
 *               below it (at most one full turn; if none is found the sample
 *               is dropped and n_full counts it).  select returns entries
 *               with count >= elephant_count, then halves every counter and
 *               evicts those that reach 0 (LFU aging, §3.4 (4)).
 *
 * Storage: open addressing, linear probing, backward-shift deletion (no
 * tombstones), capacity a power of two, all capacity slots usable (keep the
 * load below ~75% for short probes).  Slot i is empty iff count == 0.  The
 * caller owns the entry array (rocc_ft_storage_bytes); nothing allocates.
 * select reports in slot order, which depends only on the history of calls,
 * so runs are deterministic.  The table stores the latest ref passed for a
 * key.
 *
 * QUEUE caveat: if an enqueue is refused because the table is full, the
 * flow's count under-counts its queued packets; size the table for the
 * largest number of packets the queue can hold to rule this out.
 */
#ifndef ROCC_FLOWTABLE_H
#define ROCC_FLOWTABLE_H

#include <stddef.h>
#include <stdint.h>

enum rocc_ft_kind { ROCC_FT_QUEUE = 1, ROCC_FT_BOUNDED = 2, ROCC_FT_ETRAP = 4 };  /* numbering follows §3.4's list */

struct rocc_ft_entry { uint64_t key; uint32_t ref; uint32_t count; uint64_t last_ps; };

struct rocc_ft_params {
    enum rocc_ft_kind kind;
    uint32_t capacity;        /* entries; power of two required */
    uint64_t max_age_ps;      /* BOUNDED: evict entries not seen for this long (default 2T) */
    uint32_t sample_one_in;   /* ETRAP: sample one packet in N (default 20) */
    uint32_t elephant_count;  /* ETRAP: count at which a flow is an elephant (default 2) */
    uint64_t seed;            /* ETRAP sampling PRNG seed (deterministic) */
};

struct rocc_flowtable {
    struct rocc_ft_params p;
    struct rocc_ft_entry *e;  /* capacity slots, caller's storage */
    uint32_t mask;            /* capacity - 1 */
    uint32_t size;            /* occupied slots */
    uint32_t hand;            /* ETRAP rotating eviction pointer (slot) */
    uint64_t rng;             /* ETRAP sampling PRNG state (splitmix64) */
    uint64_t n_inserted;      /* entries created */
    uint64_t n_erased;        /* QUEUE entries erased at count 0 */
    uint64_t n_evicted;       /* BOUNDED/ETRAP entries evicted (age, LFU) */
    uint64_t n_full;          /* inserts refused because the table was full */
    uint64_t n_dequeue_miss;  /* QUEUE dequeues of a key not in the table */
    uint64_t n_sampled;       /* ETRAP packets sampled */
    uint64_t n_truncated;     /* selected flows that did not fit in out[] */
    uint64_t n_probes;        /* slots inspected by lookups (for load stats) */
};

/* ETRAP default elephant threshold.  With select halving counters every
 * period, a flow with s samples per period settles near count 2s; 2 is the
 * smallest threshold a flow sampled once per period (count 1, halved to 0
 * and evicted) never reaches, so one-sample mice are never reported.  Our
 * choice; ElephantTrap leaves the threshold a tuning knob. */
#define ROCC_FT_ETRAP_ELEPHANT_DEFAULT 2u
/* ETRAP default sampling: one packet in 20 (the project's brief; ElephantTrap
 * leaves the sampling probability a tuning knob). */
#define ROCC_FT_ETRAP_SAMPLE_DEFAULT 20u

/* Fill p: kind, capacity, max_age = 2·period_ps, sample 1/20, elephant 2,
 * a fixed seed. */
void rocc_ft_params_default(struct rocc_ft_params *p, enum rocc_ft_kind kind, uint32_t capacity, uint64_t period_ps);

/* Bytes of storage for capacity entries; 0 if capacity is not a power of
 * two in [1, 2^31]. Align it for struct rocc_ft_entry (8 bytes). */
size_t rocc_ft_storage_bytes(uint32_t capacity);

/* storage must be rocc_ft_storage_bytes(capacity) bytes, suitably aligned, owned by caller. 0 or -1 on bad params.
 * Bad: NULL pointers, unknown kind, bad capacity, ETRAP with sample_one_in
 * or elephant_count 0.  Clears the storage. */
int  rocc_ft_init(struct rocc_flowtable *ft, const struct rocc_ft_params *p, void *storage);

/* A packet of flow `key` entered the CP's queue. ref is the caller's handle for the flow (returned by select). */
void rocc_ft_on_enqueue(struct rocc_flowtable *ft, uint64_t key, uint32_t ref, uint64_t now_ps);

/* A packet of flow `key` left the queue (QUEUE kind: count--, erase at 0; others: no-op). */
void rocc_ft_on_dequeue(struct rocc_flowtable *ft, uint64_t key);

/* Once per period: write the refs of the flows that get a CNP now into out (at most max), return how many.
 * QUEUE: every flow with packets in the queue now (what the authors' code does).
 * BOUNDED: every entry seen within max_age_ps (now − last_ps <= max_age_ps); evicts older ones.
 * ETRAP: entries with count >= elephant_count; then halves every counter,
 * evicting entries that reach 0.  Aging/eviction covers the whole table even
 * when out fills up (the overflow is counted in n_truncated). */
size_t rocc_ft_select(struct rocc_flowtable *ft, uint64_t now_ps, uint32_t *out, size_t max);

uint32_t rocc_ft_size(const struct rocc_flowtable *ft);
/* Move every entry into new caller-owned storage of `capacity` slots (a
 * power of two above the current size); the old storage is no longer used
 * and may be freed.  Entries, counts and counters are kept (select then
 * reports in the new slot order).  0, or -1 on bad arguments.  Lets a caller
 * start small and grow a table only where many flows meet. */
int rocc_ft_rehash(struct rocc_flowtable *ft, void *storage, uint32_t capacity);

/* The entry of key, or NULL.  The pointer is valid until the next call that
 * modifies the table. */
const struct rocc_ft_entry *rocc_ft_find(const struct rocc_flowtable *ft, uint64_t key);

#endif
