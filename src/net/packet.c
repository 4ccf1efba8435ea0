/* packet.c -- the packet pool; see packet.h. */
#include "net/packet.h"

#include "core/hugepage.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(struct packet) == 64, "packet record should stay one cache line");

static void thread_free(struct pkt_pool *pl, uint32_t from, uint32_t to)
{
    /* Push [from, to) so that lower indices are handed out first. */
    for (uint32_t i = to; i > from; i--) {
        pl->p[i - 1].next = pl->free_head;
        pl->free_head = i - 1;
    }
}

int pool_init(struct pkt_pool *pl, uint32_t cap_hint)
{
    memset(pl, 0, sizeof *pl);
    pl->cap = cap_hint < 1024 ? 1024 : cap_hint;
    pl->p = calloc(pl->cap, sizeof *pl->p);
    if (!pl->p)
        return -1;
    mem_hint_huge(pl->p, (size_t)pl->cap * sizeof *pl->p);
    pl->free_head = PKT_NONE;
    thread_free(pl, 0, pl->cap);
    return 0;
}

void pool_free_all(struct pkt_pool *pl)
{
    free(pl->p);
    memset(pl, 0, sizeof *pl);
}

uint32_t pool_get(struct pkt_pool *pl)
{
    if (pl->free_head == PKT_NONE) {
        if (pl->cap > UINT32_MAX / 2)
            return PKT_NONE;
        uint32_t ncap = pl->cap * 2;
        struct packet *np = realloc(pl->p, (size_t)ncap * sizeof *np);
        if (!np)
            return PKT_NONE;
        mem_hint_huge(np, (size_t)ncap * sizeof *np);
        memset(np + pl->cap, 0, (size_t)(ncap - pl->cap) * sizeof *np);
        pl->p = np;
        thread_free(pl, pl->cap, ncap);
        pl->cap = ncap;
    }
#ifdef ROCC_AUDIT
    /* The audit (sanitizer) build moves the pool to fresh memory every
     * cap/4 allocations (a copy of 256 B per frame, amortized): a pointer
     * into the pool kept across a call that may allocate then reads freed
     * memory, which ASan reports at once, instead of failing only in the
     * rare run where the pool happens to grow at that point (host.c's ACK
     * read after on_ack was one: a 500 ms run crashed). */
    if (pl->n_alloc && pl->n_alloc % (pl->cap / 4) == 0) {
        struct packet *np = malloc((size_t)pl->cap * sizeof *np);
        if (np) {
            memcpy(np, pl->p, (size_t)pl->cap * sizeof *np);
            free(pl->p);
            pl->p = np;
        }
    }
#endif
    uint32_t i = pl->free_head;
    pl->free_head = pl->p[i].next;
    pl->live++;
    pl->n_alloc++;
    return i;
}
