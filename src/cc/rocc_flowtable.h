/*
 * rocc_flowtable.h -- RoCC CP flow tables (CoNEXT 2020 §3.4): which flows
 * receive a CNP each period.
 *
 * Model: one table per CP.  The caller reports every packet that enters
 * (rocc_ft_on_enqueue) and leaves (rocc_ft_on_dequeue) the CP's queue, and
 * once per period T asks rocc_ft_select() for the refs (caller handles) of
 * the flows to notify.  All five of §3.4's kinds are implemented, numbered
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
 *   AFD     (3) AFD's flow table (Pan, Breslau, Prabhakar, Shenker, "Approximate
 *               Fairness through Differential Dropping", CCR 33(2), 2003): a
 *               shadow buffer of the last `shadow` sampled packets (one in
 *               sample_one_in; when full the oldest sample makes room) and a
 *               table of m_i = flow i's packets in the shadow buffer, the
 *               estimate of its share of the arrivals.  The table holds
 *               exactly the flows with a packet in the shadow buffer (so
 *               capacity >= shadow suffices and nothing is refused).  select
 *               returns the flows with m_i >= elephant_count; it does not
 *               age anything (the shadow buffer is the window).
 *   BUBBLE  (5) BubbleCache (Ros-Giralt, Commike, Maji, Veeraraghavan, ISNCC
 *               2018, RoCC's [34]) as we read it (docs/rocc.md "Flow tables":
 *               the paper's text was not available; what is assumed): a
 *               ranked list of `capacity` entries, slot 0 the top.  A sampled
 *               packet (one in sample_one_in) of a listed flow increments its
 *               count and, if that count is now >= the count above it, swaps
 *               it one rank up (the bubble step); a sampled packet of an
 *               unlisted flow enters at the bottom, replacing the bottom
 *               entry when the list is full.  select returns entries with
 *               count >= elephant_count, then halves every count and drops
 *               those that reach 0 (keeping the rank order).  Lookups scan
 *               the list (capacity is small: 32 by default), which costs
 *               capacity/sample_one_in compares per packet on average.
 *
 * AFD and BUBBLE keep a fixed memory set at init (rocc_ft_mem_bytes; they
 * cannot be rehashed).
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

enum rocc_ft_kind { ROCC_FT_QUEUE = 1, ROCC_FT_BOUNDED = 2, ROCC_FT_AFD = 3, ROCC_FT_ETRAP = 4,
                   ROCC_FT_BUBBLE = 5 };  /* numbering follows §3.4's list */

struct rocc_ft_entry { uint64_t key; uint32_t ref; uint32_t count; uint64_t last_ps; };

struct rocc_ft_params {
    enum rocc_ft_kind kind;
    uint32_t capacity;        /* entries; power of two required (BUBBLE: any, 1..65536) */
    uint64_t max_age_ps;      /* BOUNDED: evict entries not seen for this long (default 2T) */
    uint32_t sample_one_in;   /* ETRAP/AFD/BUBBLE: sample one packet in N (default 20) */
    uint32_t elephant_count;  /* ETRAP/AFD/BUBBLE: count at which a flow is reported (default 2) */
    uint32_t shadow;          /* AFD: shadow-buffer packets b (default 128); needs capacity >= shadow */
    uint64_t seed;            /* sampling PRNG seed (deterministic) */
};

struct rocc_flowtable {
    struct rocc_ft_params p;
    struct rocc_ft_entry *e;  /* capacity slots, caller's storage */
    uint32_t mask;            /* capacity - 1 */
    uint32_t size;            /* occupied slots */
    uint32_t hand;            /* ETRAP rotating eviction pointer (slot) */
    uint64_t rng;             /* sampling PRNG state (splitmix64) */
    uint64_t *sh;             /* AFD shadow buffer: `shadow` keys, in the caller's storage after e[] */
    uint32_t sh_n;            /* AFD samples held (<= shadow) */
    uint32_t sh_pos;          /* AFD slot of the oldest sample (the next to be replaced) */
    uint32_t size_max;        /* most entries held at once */
    uint64_t n_inserted;      /* entries created */
    uint64_t n_erased;        /* QUEUE entries erased at count 0 */
    uint64_t n_evicted;       /* BOUNDED/ETRAP/BUBBLE entries evicted (age, LFU, bottom
                                 replaced); AFD entries whose last sample left the shadow buffer */
    uint64_t n_full;          /* inserts refused because the table was full */
    uint64_t n_dequeue_miss;  /* QUEUE dequeues of a key not in the table */
    uint64_t n_sampled;       /* ETRAP/AFD/BUBBLE packets sampled */
    uint64_t n_bubbled;       /* BUBBLE one-rank promotions */
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
/* AFD default shadow buffer: 128 samples.  At 40 Gb/s, 1 KB packets and
 * T = 40 us (RoCC §6) a CP sees ~200 packets per period, 10 samples at
 * 1/20, so the shadow buffer spans ~13 T: a flow at 1/N of the arrivals
 * holds ~128/N samples.  Our choice, scaled to RoCC's period; AFD sizes its
 * shadow buffer to its own (Internet) time scales. */
#define ROCC_FT_AFD_SHADOW_DEFAULT 128u
/* BUBBLE default list length: 32 entries (our choice: RoCC's fabrics have a
 * few elephants per port; BubbleCache's point is a cache much smaller than
 * the number of flows). */
#define ROCC_FT_BUBBLE_SIZE_DEFAULT 32u
/* Largest BUBBLE list (lookups scan it). */
#define ROCC_FT_BUBBLE_SIZE_MAX 65536u

/* Fill p: kind, capacity, max_age = 2·period_ps, sample 1/20, elephant 2,
 * shadow 128, a fixed seed. */
void rocc_ft_params_default(struct rocc_ft_params *p, enum rocc_ft_kind kind, uint32_t capacity, uint64_t period_ps);

/* Bytes of storage for capacity entries; 0 if capacity is not a power of
 * two in [1, 2^31]. Align it for struct rocc_ft_entry (8 bytes). */
size_t rocc_ft_storage_bytes(uint32_t capacity);

/* Bytes of storage for a table of these parameters (all kinds; AFD adds its
 * shadow buffer), 0 if they are bad (what rocc_ft_init refuses). */
size_t rocc_ft_mem_bytes(const struct rocc_ft_params *p);

/* storage must be rocc_ft_mem_bytes(p) bytes (= rocc_ft_storage_bytes(capacity)
 * for all kinds but AFD), suitably aligned, owned by caller. 0 or -1 on bad params.
 * Bad: NULL pointers, unknown kind, bad capacity, ETRAP/AFD/BUBBLE with
 * sample_one_in or elephant_count 0, AFD with shadow 0 or above capacity.
 * Clears the storage. */
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
 * when out fills up (the overflow is counted in n_truncated).
 * AFD: entries with m_i >= elephant_count (no aging).
 * BUBBLE: entries with count >= elephant_count, top rank first; then halves
 * every count and drops those that reach 0. */
size_t rocc_ft_select(struct rocc_flowtable *ft, uint64_t now_ps, uint32_t *out, size_t max);

uint32_t rocc_ft_size(const struct rocc_flowtable *ft);
/* Move every entry into new caller-owned storage of `capacity` slots (a
 * power of two above the current size); the old storage is no longer used
 * and may be freed.  Entries, counts and counters are kept (select then
 * reports in the new slot order).  0, or -1 on bad arguments (and always
 * for AFD and BUBBLE, whose memory is fixed).  Lets a caller start small and
 * grow a table only where many flows meet. */
int rocc_ft_rehash(struct rocc_flowtable *ft, void *storage, uint32_t capacity);

/* The entry of key, or NULL.  The pointer is valid until the next call that
 * modifies the table. */
const struct rocc_ft_entry *rocc_ft_find(const struct rocc_flowtable *ft, uint64_t key);

#endif
