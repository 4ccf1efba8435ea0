/*
 * eventlist.c -- a three-tier calendar of events ordered by (time, seq),
 * seq being the caller's tie-break key (el_push_key) or an insertion count.
 * See eventlist.h for the model.
 *
 * Invariants (t = an event's time):
 *   cur      holds exactly the pending events with t <  cur_end, in
 *            cur[0 .. cur_n): in descending (time, seq) order (the earliest
 *            last), or, with cur_heap set, as a 4-ary min-heap; cur_heap
 *            is 0 when cur is empty and becomes 1 only when an event is
 *            pushed into a run of EL_SORTED_MAX or more (a run filled from
 *            a bucket may be longer);
 *   wheel    holds those with cur_end <= t < wheel_end, each in bucket
 *            (t >> shift) & mask; they lie in the absolute buckets
 *            bucket+1 .. bucket+mask, so a circular scan of the bitmap
 *            from bucket+1 meets them in time order of buckets;
 *   far      holds those with t >= wheel_end;
 *   cur_end = start of absolute bucket `bucket` + 1, wheel_end = start of
 *   bucket + mask + 1 (both saturate at SIMTIME_NEVER);
 *   bucket b's list is non-empty iff bit b of bits[] is set;
 *   n = cur_n + events in the wheel + far_n <= cap (so the wheel is empty
 *   iff n == cur_n + far_n: no count of its own to keep); the nodes not in
 *   the wheel form the free list.
 * el_check() verifies all of this (the tests call it).
 * So the earliest event is cur's earliest when cur is non-empty (the last
 * of the run, or the heap's root); otherwise the next non-empty bucket
 * holds it, or, with the wheel empty, the far root.
 */
#include "core/eventlist.h"
#include "core/hugepage.h"

#include <assert.h>
#include <stdlib.h>

#define NO_NODE    UINT32_MAX

/* (time, seq) as one 128-bit key: one wide compare instead of two branches. */
__extension__ typedef unsigned __int128 evkey_t;
static inline evkey_t ev_key(const struct event *e) { return ((evkey_t)e->time << 64) | e->seq; }

/* ------------------------------------------------------------ 4-ary heaps */

static inline void heap_push(struct event *h, size_t *np, struct event ev)
{
    evkey_t k = ev_key(&ev);
    size_t i = (*np)++;
    while (i > 0) {                     /* sift up */
        size_t parent = (i - 1) >> 2;
        if (k >= ev_key(&h[parent]))
            break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = ev;
}

static inline void heap_pop(struct event *h, size_t *np, struct event *out)
{
    *out = h[0];
    size_t n = --*np;
    if (n == 0)
        return;
    struct event last = h[n];
    evkey_t lk = ev_key(&last);
    size_t i = 0;
    for (;;) {                          /* sift down: smallest of 4 children */
        size_t c = (i << 2) + 1;
        if (c >= n)
            break;
        size_t best = c;
        evkey_t bk = ev_key(&h[c]);
        size_t end = c + 4 < n ? c + 4 : n;
        for (size_t k = c + 1; k < end; k++) {
            evkey_t kk = ev_key(&h[k]);
            if (kk < bk) {
                bk = kk;
                best = k;
            }
        }
        if (bk >= lk)
            break;
        h[i] = h[best];
        i = best;
    }
    h[i] = last;
}

/* ------------------------------------------------------------ the wheel */

/* Start time of absolute bucket b of width 2^shift, saturating at
 * SIMTIME_NEVER. */
static inline simtime_t bucket_start(uint64_t b, uint32_t shift)
{
    return b > (SIMTIME_NEVER >> shift) ? SIMTIME_NEVER : b << shift;
}

/* Index of the first non-empty bucket at or after index `from`, circularly.
 * The wheel must not be empty. */
static inline uint32_t wheel_next(const struct eventlist *el, uint32_t from)
{
    uint32_t w = from >> 6;
    uint64_t m = el->bits[w] & (~0ull << (from & 63));
    if (m)
        return w << 6 | (uint32_t)__builtin_ctzll(m);
    /* The following words, circularly.  Short in practice: a wheel of many
     * buckets exists because events are dense (and it widens again when
     * they are not), so the next event is rarely more than a few words on. */
    uint32_t last = el->mask >> 6;
    do
        w = w == last ? 0 : w + 1;
    while (!el->bits[w]);
    return w << 6 | (uint32_t)__builtin_ctzll(el->bits[w]);
}

/* Far events the advancing horizon now covers move into the wheel.  Kept
 * out of line: most activations have nothing to move. */
static __attribute__((noinline)) void migrate(struct eventlist *el, simtime_t horizon)
{
    while (el->far_n && el->far[0].time < horizon) {
        struct event ev;
        heap_pop(el->far, &el->far_n, &ev);
        el_wheel_put_(el, &ev);
    }
}

/* Make absolute bucket nb current: cur_end and wheel_end follow it (wheel_end
 * only grows), and far events the new horizon covers move into the wheel. */
static inline void set_bucket(struct eventlist *el, uint64_t nb)
{
    el->bucket = nb;
    if (nb < el->sat_bucket) {
        el->cur_end = (nb + 1) << el->shift;    /* the usual case: no overflow */
        el->wheel_end = el->cur_end + el->span;
    } else {
        el->cur_end = bucket_start(nb + 1, el->shift);
        el->wheel_end = bucket_start(nb + el->mask + 1, el->shift);
    }
    if (el->far_n && el->far[0].time < el->wheel_end)
        migrate(el, el->wheel_end);
}

/* The wheel is not empty: the absolute number of its first non-empty
 * bucket after the current one. */
static inline uint64_t next_wheel_bucket(const struct eventlist *el)
{
    uint32_t from = (uint32_t)(el->bucket + 1) & el->mask;
    return el->bucket + 1 + ((wheel_next(el, from) - from) & el->mask);
}

/* A new bucket is current (el_prefetch_step): start on the next one's
 * list.  Node indices stay below cap and the pool never shrinks, so a
 * list that changes under the walk only makes it fetch useless lines. */
void el_prefetch_bucket_(struct eventlist *el)
{
    el->pf_bucket = el->bucket;
    el->pf_node = NO_NODE;
    if (el->n == el->cur_n + el->far_n)         /* the wheel is empty */
        return;
    uint32_t x = el->head[wheel_next(el, (uint32_t)(el->bucket + 1) & el->mask)];
    el->pf_node = x;
    if (x != NO_NODE)
        rocc_prefetch(&el->nodes[x]);
}

/* The current bucket is empty: make the bucket holding the earliest event
 * current -- the next non-empty bucket, or with the wheel empty the far
 * root's.  Returns its wheel index, or NO_NODE when only far events remain
 * (all at SIMTIME_NEVER, beyond any bucket) or none at all. */
static uint32_t next_bucket(struct eventlist *el)
{
    uint64_t nb;
    if (el->n != el->cur_n + el->far_n) {       /* the wheel holds events */
        nb = next_wheel_bucket(el);
    } else if (el->far_n) {
        nb = el->far[0].time >> el->shift;
    } else {
        return NO_NODE;
    }
    set_bucket(el, nb);
    return (uint32_t)nb & el->mask;
}

/* Empty bucket b, whose list runs from node `first` to node `last`: the
 * nodes go back to the pool and the bucket's bit is cleared. */
static inline void release_bucket(struct eventlist *el, uint32_t b, uint32_t first, struct el_node *last)
{
    last->next = el->free_node;
    el->free_node = first;
    el->head[b] = NO_NODE;
    el->bits[b >> 6] &= ~(1ull << (b & 63));
}

/* Insert ev into the descending run cur[0 .. *np), which has room after
 * it.  Walking from the end costs nothing for the usual case: a bucket's
 * list gives its events newest first, so each is the earliest so far. */
static inline void run_insert(struct event *cur, size_t *np, struct event ev)
{
    evkey_t k = ev_key(&ev);
    size_t i = (*np)++;
    while (i > 0 && ev_key(&cur[i - 1]) < k) {
        cur[i] = cur[i - 1];
        i--;
    }
    cur[i] = ev;
}

/* A run that reached EL_SORTED_MAX becomes a heap: reversed into
 * ascending order it already is one. */
static void run_to_heap(struct eventlist *el)
{
    for (size_t i = 0, j = el->cur_n - 1; i < j; i++, j--) {
        struct event t = el->cur[i];
        el->cur[i] = el->cur[j];
        el->cur[j] = t;
    }
    el->cur_heap = 1;
}

/* Sort a[0 .. n) into descending (time, seq) order, tmp[0 .. n) being
 * scratch: runs of EL_RUN sorted by insertion, then merged pairwise,
 * back and forth between a and tmp.  A lock-step fabric fills buckets of
 * tens to hundreds of events, whose pops then cost a compare and a copy
 * each: cheaper than a heap's sift per pop, and than insertion alone
 * beyond a few dozen (docs/performance.md). */
#define EL_RUN 8
static void sort_desc(struct event *a, struct event *tmp, size_t n)
{
    for (size_t lo = 0; lo < n; lo += EL_RUN) {
        size_t hi = lo + EL_RUN < n ? lo + EL_RUN : n, m = 0;
        for (size_t i = lo; i < hi; i++)
            run_insert(a + lo, &m, a[i]);       /* a[i] is a[lo + m]: copied first */
    }
    struct event *src = a, *dst = tmp;
    for (size_t w = EL_RUN; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {     /* branch-free: which side wins is a coin toss */
                size_t take_i = ev_key(&src[i]) > ev_key(&src[j]);
                dst[k++] = src[take_i ? i : j];
                i += take_i;
                j += take_i ^ 1;
            }
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
        }
        struct event *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        for (size_t i = 0; i < n; i++)
            a[i] = src[i];
}

/* Move every event of bucket b into the (empty) current bucket as one
 * sorted run.  Their list order does not matter: (time, seq) is unique. */
static void fill_cur(struct eventlist *el, uint32_t b)
{
    uint32_t first = el->head[b];
    if (first == NO_NODE)
        return;
    struct el_node *nd = &el->nodes[first];
    size_t n = 0;
    assert(el->cur_n == 0 && !el->cur_heap);
    for (;;) {
        el->cur[n++] = nd->ev;
        if (nd->next == NO_NODE)
            break;
        nd = &el->nodes[nd->next];
    }
    release_bucket(el, b, first, nd);
    if (n <= EL_RUN) {              /* what sort_desc would do, without its loops: +0.5% instructions on the dumbbell */
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            run_insert(el->cur, &m, el->cur[i]);
    } else {
        sort_desc(el->cur, el->tmp, n);
    }
    el->cur_n = n;
}

/* The current bucket is empty: activate the next one into it.  Afterwards
 * cur is non-empty, or only far events at SIMTIME_NEVER remain. */
static void refill(struct eventlist *el)
{
    uint32_t b = next_bucket(el);
    if (b != NO_NODE)
        fill_cur(el, b);
}

/* ------------------------------------------------------------ interface */

static int grow(struct eventlist *el, size_t ncap)
{
    if (ncap >= NO_NODE)
        return -1;                      /* node indices are 32-bit */
    struct event *c = realloc(el->cur, ncap * sizeof *c);
    if (!c)
        return -1;
    el->cur = c;
    struct event *f = realloc(el->far, ncap * sizeof *f);
    if (!f)
        return -1;
    el->far = f;
    struct event *t = realloc(el->tmp, ncap * sizeof *t);
    if (!t)
        return -1;
    el->tmp = t;
    struct el_node *nd = realloc(el->nodes, ncap * sizeof *nd);
    if (!nd)
        return -1;
    el->nodes = nd;
    mem_hint_huge(c, ncap * sizeof *c);       /* a large fabric's millions of events */
    mem_hint_huge(f, ncap * sizeof *f);
    mem_hint_huge(t, ncap * sizeof *t);
    mem_hint_huge(nd, ncap * sizeof *nd);
    for (size_t i = el->cap; i < ncap; i++)      /* new nodes join the pool */
        nd[i].next = i + 1 < ncap ? (uint32_t)(i + 1) : el->free_node;
    el->free_node = (uint32_t)el->cap;
    el->cap = ncap;
    return 0;
}

/* Buckets of 2^shift ps: the wheel's geometry and what follows from it. */
static void set_geometry(struct eventlist *el, uint32_t shift)
{
    el->shift = shift;
    el->mask = (1u << (EL_HORIZON_SHIFT - shift)) - 1;
    el->sat_bucket = (SIMTIME_NEVER >> shift) - el->mask - 1;
    el->span = (simtime_t)el->mask << shift;
}

/* Empty bucket arrays for a wheel of 2^(EL_HORIZON_SHIFT - shift) buckets. */
static int wheel_alloc(uint32_t shift, uint32_t **head, uint64_t **bits)
{
    uint32_t size = 1u << (EL_HORIZON_SHIFT - shift);
    *head = malloc(size * sizeof **head);
    *bits = calloc(size / 64, sizeof **bits);
    if (!*head || !*bits) {
        free(*head);
        free(*bits);
        return -1;
    }
    for (uint32_t b = 0; b < size; b++)
        (*head)[b] = NO_NODE;
    return 0;
}

int el_init(struct eventlist *el, size_t cap_hint)
{
    *el = (struct eventlist){ 0 };
    el->free_node = NO_NODE;
    el->pf_node = NO_NODE;
    set_geometry(el, EL_SHIFT_MAX);
    el->adapt_at = EL_ADAPT_POPS;
    el->cur_end = bucket_start(1, el->shift);
    el->wheel_end = bucket_start((uint64_t)el->mask + 1, el->shift);
    if (wheel_alloc(el->shift, &el->head, &el->bits) || grow(el, cap_hint < 16 ? 16 : cap_hint)) {
        el_free(el);
        return -1;
    }
    return 0;
}

void el_free(struct eventlist *el)
{
    free(el->cur);
    free(el->far);
    free(el->tmp);
    free(el->nodes);
    free(el->head);
    free(el->bits);
    el->cur = el->far = el->tmp = NULL;
    el->nodes = NULL;
    el->head = NULL;
    el->bits = NULL;
    el->n = el->cap = el->cur_n = el->far_n = 0;
    el->cur_heap = 0;
}

int el_push_slow(struct eventlist *el, simtime_t time, uint32_t kind, uint32_t obj, uint64_t seq)
{
    assert(time >= el->now);
    if (el->n == el->cap && grow(el, el->cap * 2))
        return -1;                      /* doubling: only while the set grows */
    struct event ev = { time, seq, kind, obj };
    el->n++;
    if (time < el->cur_end) {
        if (!el->cur_heap && el->cur_n == EL_SORTED_MAX)
            run_to_heap(el);
        if (el->cur_heap)
            heap_push(el->cur, &el->cur_n, ev);
        else
            run_insert(el->cur, &el->cur_n, ev);
    }
    else if (time < el->wheel_end)
        el_wheel_put_(el, &ev);
    else
        heap_push(el->far, &el->far_n, ev);
    return 0;
}

/* The pop's rare cases, out of line so the usual one stays short: bucket b
 * (already made current) holds several events or one not yet due, so it
 * goes into the current bucket (run or heap); or b is NO_NODE: the wheel is empty and the
 * far root's bucket becomes current. */
static __attribute__((noinline)) int pop_via_cur(struct eventlist *el, simtime_t until, struct event *out,
                                                 uint32_t b)
{
    if (b == NO_NODE) {
        if (el->n == 0)
            return 0;
        b = next_bucket(el);
    }
    if (b != NO_NODE)
        fill_cur(el, b);
    if (el->cur_n)
        return el_pop_until(el, until, out);
    if (el->far[0].time > until)        /* only events at SIMTIME_NEVER */
        return 0;
    heap_pop(el->far, &el->far_n, out);
    return el_fired_(el, out);
}

/* Re-file the wheel for buckets of 2^shift ps (cur is empty).  The new
 * current bucket ends where the old one did or just before, so every
 * pending event stays at or after cur_end; wheel events beyond the new
 * horizon go to the far heap, far events inside it come in.  Without
 * memory for the new arrays the old geometry stays: only speed depends on
 * it, never the order. */
static void rebucket(struct eventlist *el, uint32_t shift)
{
    simtime_t start = el->cur_end;      /* every pending event is >= start */
    if (start >= SIMTIME_NEVER / 2 || (start >> shift) == 0)
        return;                         /* near either end of time: keep */
    uint32_t *head;
    uint64_t *bits;
    if (wheel_alloc(shift, &head, &bits))
        return;
    uint32_t *old_head = el->head, old_size = el->mask + 1;
    uint64_t *old_bits = el->bits;
    el->head = head;
    el->bits = bits;
    set_geometry(el, shift);
    el->bucket = (start >> shift) - 1;
    el->cur_end = (el->bucket + 1) << shift;
    el->wheel_end = (el->bucket + el->mask + 1) << shift;
    for (uint32_t b = 0; b < old_size; b++) {
        uint32_t i = old_head[b];
        while (i != NO_NODE) {
            uint32_t next = el->nodes[i].next;
            struct event ev = el->nodes[i].ev;
            el->nodes[i].next = el->free_node;      /* back to the pool ... */
            el->free_node = i;
            if (ev.time < el->wheel_end)
                el_wheel_put_(el, &ev);             /* ... and out again */
            else
                heap_push(el->far, &el->far_n, ev);
            i = next;
        }
    }
    free(old_head);
    free(old_bits);
    if (el->far_n && el->far[0].time < el->wheel_end)
        migrate(el, el->wheel_end);
}

/* The density check, EL_ADAPT_POPS pops after the last (cur is empty):
 * how many bucket widths of simulated time they took. */
static __attribute__((noinline)) void adapt(struct eventlist *el)
{
    uint64_t widths = ((el->now - el->adapt_since) >> el->shift) + 1;
    el->adapt_at = el->n_fired + EL_ADAPT_POPS;
    el->adapt_since = el->now;
    if (EL_ADAPT_POPS > 8 * widths && el->shift > EL_SHIFT_MIN)
        rebucket(el, el->shift - 2);
    else if (4 * EL_ADAPT_POPS < widths && el->shift < EL_SHIFT_MAX)
        rebucket(el, el->shift + 2);
}

int el_pop_next_(struct eventlist *el, simtime_t until, struct event *out)
{
    if (__builtin_expect(el->n_fired >= el->adapt_at, 0))
        adapt(el);
    if (el->n == el->far_n)             /* cur is empty: so is the wheel */
        return pop_via_cur(el, until, out, NO_NODE);
    uint64_t nb = next_wheel_bucket(el);
    set_bucket(el, nb);
    uint32_t b = (uint32_t)nb & el->mask;
    uint32_t first = el->head[b];                   /* non-empty: its bit was set */
    struct el_node *nd = &el->nodes[first];
    if (nd->next != NO_NODE || nd->ev.time > until)
        return pop_via_cur(el, until, out, b);
    /* The usual case: the bucket holds one event, and it is due.  It is the
     * earliest pending (cur is empty, later buckets and far are later), so
     * it fires straight from its node. */
    *out = nd->ev;
    release_bucket(el, b, first, nd);
    return el_fired_(el, out);
}

void el_cur_pop_(struct eventlist *el, struct event *out)
{
    heap_pop(el->cur, &el->cur_n, out);
    if (el->cur_n == 0)
        el->cur_heap = 0;                   /* empty: the next bucket starts a run */
}

int el_pop(struct eventlist *el, struct event *out)
{
    return el_pop_until(el, SIMTIME_NEVER, out);
}

simtime_t el_peek_slow(struct eventlist *el)
{
    if (el->n == 0)
        return SIMTIME_NEVER;
    refill(el);
    return el->cur_n ? el_peek_time(el) : el->far[0].time;
}

/* ------------------------------------------------------------ integrity */

static const char *check_heap(const struct event *h, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (ev_key(&h[i]) < ev_key(&h[(i - 1) >> 2]))
            return "a heap entry is earlier than its parent";
    return NULL;
}

static int ev_cmp(const void *a, const void *b)
{
    evkey_t x = ev_key(a), y = ev_key(b);
    return x < y ? -1 : x > y;
}

int el_filter(struct eventlist *el, int (*keep)(void *ctx, const struct event *ev), void *ctx)
{
    struct event *all = malloc((el->n ? el->n : 1) * sizeof *all);
    if (!all)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < el->cur_n; i++)
        if (keep(ctx, &el->cur[i]))
            all[k++] = el->cur[i];
    for (uint32_t b = 0; b <= el->mask; b++)
        for (uint32_t i = el->head[b]; i != NO_NODE; i = el->nodes[i].next)
            if (keep(ctx, &el->nodes[i].ev))
                all[k++] = el->nodes[i].ev;
    for (size_t i = 0; i < el->far_n; i++)
        if (keep(ctx, &el->far[i]))
            all[k++] = el->far[i];
    qsort(all, k, sizeof *all, ev_cmp);
    /* Refiled in (time, seq) order into a fresh set, each with its own
     * sequence number (tie-break key). */
    size_t cap = el->cap;
    uint64_t next = el->next_seq;
    el_free(el);
    int rc = el_init(el, cap);
    for (size_t i = 0; i < k && !rc; i++)
        rc = el_push_key(el, all[i].time, all[i].kind, all[i].obj, all[i].seq);
    if (el->next_seq < next)
        el->next_seq = next;
    free(all);
    return rc;
}

const char *el_check(const struct eventlist *el)
{
    if (el->n > el->cap || el->cur_n > el->cap || el->far_n > el->cap)
        return "a count exceeds the capacity";
    if (el->cur_heap && el->cur_n == 0)
        return "an empty current bucket still marked as a heap";
    if (!el->cur_heap)
        for (size_t i = 1; i < el->cur_n; i++)
            if (ev_key(&el->cur[i]) > ev_key(&el->cur[i - 1]))
                return "the current bucket's run is out of order";
    if (el->shift < EL_SHIFT_MIN || el->shift > EL_SHIFT_MAX || el->mask != (1u << (EL_HORIZON_SHIFT - el->shift)) - 1)
        return "the bucket width or count is out of range";
    if (el->cur_end != bucket_start(el->bucket + 1, el->shift) ||
        el->wheel_end != bucket_start(el->bucket + el->mask + 1, el->shift))
        return "cur_end/wheel_end do not follow the current bucket";
    const char *why = el->cur_heap ? check_heap(el->cur, el->cur_n) : NULL;
    if (!why)
        why = check_heap(el->far, el->far_n);
    if (why)
        return why;
    for (size_t i = 0; i < el->cur_n; i++)
        if (el->cur[i].time >= el->cur_end || el->cur[i].time < el->now)
            return "a current-heap event lies outside [now, cur_end)";
    for (size_t i = 0; i < el->far_n; i++)
        if (el->far[i].time < el->wheel_end)
            return "a far event lies inside the wheel's horizon";
    size_t in_wheel = 0;
    for (uint32_t b = 0; b <= el->mask; b++) {
        int bit = el->bits[b >> 6] >> (b & 63) & 1;
        if (bit != (el->head[b] != NO_NODE))
            return "bucket bit disagrees with its list";
        for (uint32_t i = el->head[b]; i != NO_NODE; i = el->nodes[i].next) {
            const struct event *ev = &el->nodes[i].ev;
            if (i >= el->cap || ++in_wheel > el->cap)
                return "a bucket list leaves the pool or loops";
            if (ev->time < el->cur_end || ev->time >= el->wheel_end || ev->time < el->now)
                return "a wheel event lies outside [cur_end, wheel_end)";
            if (((uint32_t)(ev->time >> el->shift) & el->mask) != b)
                return "a wheel event sits in the wrong bucket";
        }
    }
    if (el->n != el->cur_n + in_wheel + el->far_n)
        return "n is not the sum of the three tiers";
    size_t n_free = 0;
    for (uint32_t i = el->free_node; i != NO_NODE; i = el->nodes[i].next)
        if (i >= el->cap || ++n_free > el->cap)
            return "the free list leaves the pool or loops";
    if (n_free + in_wheel != el->cap)
        return "nodes are lost: free + in wheel != capacity";
    return NULL;
}
