/*
 * eventlist.c -- 4-ary min-heap of events ordered by (time, seq).
 * See eventlist.h for the model.
 */
#include "core/eventlist.h"

#include <assert.h>
#include <stdlib.h>

/* (time, seq) as one 128-bit key: one wide compare instead of two branches. */
__extension__ typedef unsigned __int128 evkey_t;
static inline evkey_t ev_key(const struct event *e) { return ((evkey_t)e->time << 64) | e->seq; }
static inline int ev_before(const struct event *a, const struct event *b) { return ev_key(a) < ev_key(b); }

int el_init(struct eventlist *el, size_t cap_hint)
{
    el->n = 0;
    el->cap = cap_hint < 16 ? 16 : cap_hint;
    el->next_seq = 0;
    el->now = 0;
    el->n_fired = 0;
    el->heap = malloc(el->cap * sizeof *el->heap);
    return el->heap ? 0 : -1;
}

void el_free(struct eventlist *el)
{
    free(el->heap);
    el->heap = NULL;
    el->n = el->cap = 0;
}

int el_push(struct eventlist *el, simtime_t time, uint32_t kind, uint32_t obj)
{
    assert(time >= el->now);
    if (el->n == el->cap) {
        /* Doubling: amortised, and only while the set grows to its peak. */
        size_t ncap = el->cap * 2;
        struct event *h = realloc(el->heap, ncap * sizeof *h);
        if (!h)
            return -1;
        el->heap = h;
        el->cap = ncap;
    }
    struct event ev = { time, el->next_seq++, kind, obj };
    struct event *h = el->heap;
    size_t i = el->n++;
    while (i > 0) {                     /* sift up */
        size_t parent = (i - 1) >> 2;
        if (!ev_before(&ev, &h[parent]))
            break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = ev;
    return 0;
}

int el_pop(struct eventlist *el, struct event *out)
{
    if (el->n == 0)
        return 0;
    struct event *h = el->heap;
    *out = h[0];
    el->now = out->time;
    el->n_fired++;
    size_t n = --el->n;
    if (n == 0)
        return 1;
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
    return 1;
}
