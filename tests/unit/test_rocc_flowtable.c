/*
 * test_rocc_flowtable.c -- unit tests of the RoCC CP flow tables (§3.4).
 *
 * The randomized tests drive a table and a brute-force model (arrays
 * indexed by key) with the same deterministic pseudo-random operations and
 * compare them after every operation.
 */
#include "test.h"

#include "cc/rocc_flowtable.h"

#include <stdlib.h>

#define US 1000000ull                 /* ps per µs */
#define MAXCAP 256

static struct rocc_ft_entry store[MAXCAP];

/* Tiny deterministic generator for the tests (xorshift64, Marsaglia 2003). */
static uint64_t lcg_state;
static uint64_t rnd(void)
{
    lcg_state ^= lcg_state << 13;
    lcg_state ^= lcg_state >> 7;
    lcg_state ^= lcg_state << 17;
    return lcg_state;
}

/* Keys of the universe: spread out and including 0 and UINT64_MAX. */
static uint64_t key_of(unsigned i)
{
    if (i == 0) return 0;
    if (i == 1) return UINT64_MAX;
    return (uint64_t)i * 0x100000001ull;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Every occupied slot is found by lookup (probe-chain invariant holds, no
 * duplicates) and the occupied slots add up to size. */
static int table_consistent(const struct rocc_flowtable *ft)
{
    uint32_t i, n = 0;

    for (i = 0; i < ft->p.capacity; i++) {
        if (ft->e[i].count == 0) continue;
        n++;
        if (rocc_ft_find(ft, ft->e[i].key) != &ft->e[i]) return 0;
    }
    return n == rocc_ft_size(ft);
}

static int init_kind(struct rocc_flowtable *ft, enum rocc_ft_kind kind, uint32_t cap)
{
    struct rocc_ft_params p;

    rocc_ft_params_default(&p, kind, cap, 40 * US);
    return rocc_ft_init(ft, &p, store);
}

TEST(storage_and_init_checks)
{
    struct rocc_flowtable ft;
    struct rocc_ft_params p;

    CHECK_EQ(rocc_ft_storage_bytes(0), 0);
    CHECK_EQ(rocc_ft_storage_bytes(3), 0);
    CHECK_EQ(rocc_ft_storage_bytes(96), 0);
    CHECK_EQ(rocc_ft_storage_bytes(1), sizeof(struct rocc_ft_entry));
    CHECK_EQ(rocc_ft_storage_bytes(64), 64 * sizeof(struct rocc_ft_entry));
    CHECK_EQ(sizeof(struct rocc_ft_entry), 24);

    rocc_ft_params_default(&p, ROCC_FT_QUEUE, 64, 40 * US);
    CHECK_EQ(p.max_age_ps, 80 * US);
    CHECK_EQ(p.sample_one_in, 20);
    CHECK_EQ(p.elephant_count, 2);
    CHECK_EQ(rocc_ft_init(&ft, &p, store), 0);
    CHECK_EQ(rocc_ft_size(&ft), 0);
    CHECK_EQ(rocc_ft_init(NULL, &p, store), -1);
    CHECK_EQ(rocc_ft_init(&ft, NULL, store), -1);
    CHECK_EQ(rocc_ft_init(&ft, &p, NULL), -1);
    p.capacity = 48;
    CHECK_EQ(rocc_ft_init(&ft, &p, store), -1);
    p.capacity = 64; p.kind = (enum rocc_ft_kind)6;
    CHECK_EQ(rocc_ft_init(&ft, &p, store), -1);
    p.kind = (enum rocc_ft_kind)0;
    CHECK_EQ(rocc_ft_init(&ft, &p, store), -1);
    p.kind = ROCC_FT_ETRAP; p.sample_one_in = 0;
    CHECK_EQ(rocc_ft_init(&ft, &p, store), -1);
    p.sample_one_in = 1; p.elephant_count = 0;
    CHECK_EQ(rocc_ft_init(&ft, &p, store), -1);
    p.elephant_count = 1;
    CHECK_EQ(rocc_ft_init(&ft, &p, store), 0);
    /* init clears old contents. */
    p.kind = ROCC_FT_QUEUE;
    CHECK_EQ(rocc_ft_init(&ft, &p, store), 0);
    rocc_ft_on_enqueue(&ft, 5, 5, 0);
    CHECK_EQ(rocc_ft_init(&ft, &p, store), 0);
    CHECK(rocc_ft_find(&ft, 5) == NULL);
}

TEST(queue_counts_and_erase_at_zero)
{
    struct rocc_flowtable ft;
    uint32_t out[8];
    size_t n;

    CHECK_EQ(init_kind(&ft, ROCC_FT_QUEUE, 16), 0);
    rocc_ft_on_enqueue(&ft, 100, 1, 0);
    rocc_ft_on_enqueue(&ft, 100, 1, 1);
    rocc_ft_on_enqueue(&ft, 200, 2, 2);
    rocc_ft_on_enqueue(&ft, 100, 11, 3);                       /* ref updated */
    CHECK_EQ(rocc_ft_size(&ft), 2);
    CHECK_EQ(rocc_ft_find(&ft, 100)->count, 3);
    CHECK_EQ(rocc_ft_find(&ft, 100)->ref, 11);
    CHECK(rocc_ft_find(&ft, 100)->last_ps == 3);
    CHECK_EQ(rocc_ft_find(&ft, 200)->count, 1);

    n = rocc_ft_select(&ft, 1000, out, 8);
    CHECK_EQ(n, 2);
    qsort(out, n, sizeof out[0], cmp_u32);
    CHECK_EQ(out[0], 2); CHECK_EQ(out[1], 11);
    CHECK_EQ(rocc_ft_size(&ft), 2);                            /* select keeps */

    rocc_ft_on_dequeue(&ft, 200);
    CHECK(rocc_ft_find(&ft, 200) == NULL);
    CHECK_EQ(rocc_ft_size(&ft), 1);
    CHECK_EQ(ft.n_erased, 1);
    rocc_ft_on_dequeue(&ft, 100);
    rocc_ft_on_dequeue(&ft, 100);
    CHECK_EQ(rocc_ft_find(&ft, 100)->count, 1);
    rocc_ft_on_dequeue(&ft, 100);
    CHECK_EQ(rocc_ft_size(&ft), 0);
    rocc_ft_on_dequeue(&ft, 100);                              /* not there */
    CHECK_EQ(ft.n_dequeue_miss, 1);
    CHECK_EQ(rocc_ft_select(&ft, 2000, out, 8), 0);
}

TEST(queue_full_table)
{
    struct rocc_flowtable ft;
    uint32_t out[16];
    unsigned i;

    CHECK_EQ(init_kind(&ft, ROCC_FT_QUEUE, 8), 0);
    for (i = 0; i < 8; i++) rocc_ft_on_enqueue(&ft, key_of(i), i, 0);
    CHECK_EQ(rocc_ft_size(&ft), 8);
    CHECK(table_consistent(&ft));
    /* 100% load: a new key is refused, an existing one still counts. */
    rocc_ft_on_enqueue(&ft, key_of(8), 8, 0);
    CHECK_EQ(ft.n_full, 1);
    CHECK(rocc_ft_find(&ft, key_of(8)) == NULL);               /* terminates */
    rocc_ft_on_enqueue(&ft, key_of(3), 3, 0);
    CHECK_EQ(rocc_ft_find(&ft, key_of(3))->count, 2);
    CHECK_EQ(rocc_ft_select(&ft, 0, out, 16), 8);
    /* Dequeue of the refused key is a miss, not a corruption. */
    rocc_ft_on_dequeue(&ft, key_of(8));
    CHECK_EQ(ft.n_dequeue_miss, 1);
    /* Free a slot in a full table (backward shift scans all slots). */
    rocc_ft_on_dequeue(&ft, key_of(5));
    CHECK_EQ(rocc_ft_size(&ft), 7);
    CHECK(table_consistent(&ft));
    rocc_ft_on_enqueue(&ft, key_of(8), 8, 0);
    CHECK_EQ(rocc_ft_size(&ft), 8);
    CHECK(table_consistent(&ft));

    /* Capacity 1. */
    CHECK_EQ(init_kind(&ft, ROCC_FT_QUEUE, 1), 0);
    rocc_ft_on_enqueue(&ft, 7, 7, 0);
    rocc_ft_on_enqueue(&ft, 8, 8, 0);
    CHECK_EQ(ft.n_full, 1);
    rocc_ft_on_dequeue(&ft, 7);
    CHECK_EQ(rocc_ft_size(&ft), 0);
    rocc_ft_on_enqueue(&ft, 8, 8, 0);
    CHECK_EQ(rocc_ft_find(&ft, 8)->count, 1);
}

/* QUEUE kind vs a brute-force model: random enqueue/dequeue over a key
 * universe larger than the table, so the table fills, refuses and wraps. */
static int queue_vs_model(uint32_t cap, unsigned universe, unsigned ops, uint64_t seed)
{
    static uint32_t mcount[4 * MAXCAP];
    struct rocc_flowtable ft;
    uint32_t out[MAXCAP], want[MAXCAP];
    unsigned op, i, msize = 0;
    uint64_t mfull = 0, mmiss = 0;

    if (init_kind(&ft, ROCC_FT_QUEUE, cap) != 0) return 0;
    memset(mcount, 0, sizeof mcount);
    lcg_state = seed;
    for (op = 0; op < ops; op++) {
        unsigned k = (unsigned)(rnd() % universe);
        if (rnd() % 100 < 55) {
            rocc_ft_on_enqueue(&ft, key_of(k), k, op);
            if (mcount[k]) mcount[k]++;
            else if (msize == cap) mfull++;
            else { mcount[k] = 1; msize++; }
        } else {
            rocc_ft_on_dequeue(&ft, key_of(k));
            if (!mcount[k]) mmiss++;
            else if (--mcount[k] == 0) msize--;
        }
        if (rocc_ft_size(&ft) != msize) return 0;
        if (ft.n_full != mfull || ft.n_dequeue_miss != mmiss) return 0;
        if (op % 7 == 0 || cap <= 8) {
            size_t n, m = 0;
            if (!table_consistent(&ft)) return 0;
            for (i = 0; i < universe; i++) {
                const struct rocc_ft_entry *e = rocc_ft_find(&ft, key_of(i));
                if (mcount[i] == 0 ? e != NULL : (!e || e->count != mcount[i] || e->ref != i))
                    return 0;
                if (mcount[i]) want[m++] = i;
            }
            n = rocc_ft_select(&ft, op, out, MAXCAP);
            if (n != m) return 0;
            qsort(out, n, sizeof out[0], cmp_u32);
            if (memcmp(out, want, n * sizeof out[0]) != 0) return 0;
        }
    }
    return 1;
}

TEST(queue_random_vs_model)
{
    CHECK(queue_vs_model(1, 3, 2000, 0x1234));
    CHECK(queue_vs_model(2, 4, 4000, 0x2345));
    CHECK(queue_vs_model(8, 12, 20000, 0x3456));
    CHECK(queue_vs_model(8, 8, 20000, 0x4567));
    CHECK(queue_vs_model(64, 48, 50000, 0x5678));
    CHECK(queue_vs_model(64, 100, 50000, 0x6789));
    CHECK(queue_vs_model(256, 600, 100000, 0x789a));
}

TEST(bounded_aging)
{
    struct rocc_flowtable ft;
    uint32_t out[8];

    CHECK_EQ(init_kind(&ft, ROCC_FT_BOUNDED, 16), 0);          /* max age 80 µs */
    rocc_ft_on_enqueue(&ft, 1, 1, 0);
    rocc_ft_on_enqueue(&ft, 2, 2, 50 * US);
    rocc_ft_on_dequeue(&ft, 1);                                /* no-op */
    CHECK_EQ(rocc_ft_size(&ft), 2);
    CHECK_EQ(rocc_ft_select(&ft, 80 * US, out, 8), 2);         /* age 80 <= 80 */
    CHECK_EQ(rocc_ft_select(&ft, 80 * US + 1, out, 8), 1);     /* 1 too old */
    CHECK_EQ(out[0], 2);
    CHECK_EQ(rocc_ft_size(&ft), 1);
    CHECK(rocc_ft_find(&ft, 1) == NULL);
    CHECK_EQ(ft.n_evicted, 1);
    /* Seen again: refreshed. */
    rocc_ft_on_enqueue(&ft, 2, 2, 100 * US);
    CHECK_EQ(rocc_ft_select(&ft, 180 * US, out, 8), 1);
    CHECK_EQ(rocc_ft_select(&ft, 181 * US, out, 8), 0);
    CHECK_EQ(rocc_ft_size(&ft), 0);
    CHECK_EQ(ft.n_evicted, 2);
    /* Entries stamped in the future (clock skew) are kept. */
    rocc_ft_on_enqueue(&ft, 3, 3, 500 * US);
    CHECK_EQ(rocc_ft_select(&ft, 0, out, 8), 1);
}

/* BOUNDED vs a model, with time advancing and periodic selects; also checks
 * that eviction with wrap-around leaves a consistent table. */
static int bounded_vs_model(uint32_t cap, unsigned universe, unsigned ops, uint64_t seed)
{
    static uint64_t mlast[4 * MAXCAP];
    static uint8_t mhas[4 * MAXCAP];
    struct rocc_flowtable ft;
    struct rocc_ft_params p;
    uint32_t out[MAXCAP], want[MAXCAP];
    unsigned op, i, msize = 0;
    uint64_t now = 0, age = 10 * US;

    rocc_ft_params_default(&p, ROCC_FT_BOUNDED, cap, 5 * US);    /* age 10 µs */
    if (rocc_ft_init(&ft, &p, store) != 0) return 0;
    memset(mhas, 0, sizeof mhas);
    lcg_state = seed;
    for (op = 0; op < ops; op++) {
        unsigned k = (unsigned)(rnd() % universe);
        now += rnd() % (2 * US);
        if (rnd() % 8) {
            rocc_ft_on_enqueue(&ft, key_of(k), k, now);
            if (mhas[k]) mlast[k] = now;
            else if (msize < cap) { mhas[k] = 1; mlast[k] = now; msize++; }
        } else {
            size_t n, m = 0;
            for (i = 0; i < universe; i++) {
                if (!mhas[i]) continue;
                if (now - mlast[i] > age) { mhas[i] = 0; msize--; }
                else want[m++] = i;
            }
            n = rocc_ft_select(&ft, now, out, MAXCAP);
            if (n != m) return 0;
            qsort(out, n, sizeof out[0], cmp_u32);
            if (memcmp(out, want, n * sizeof out[0]) != 0) return 0;
            if (!table_consistent(&ft)) return 0;
        }
        if (rocc_ft_size(&ft) != msize) return 0;
    }
    for (i = 0; i < universe; i++)
        if ((rocc_ft_find(&ft, key_of(i)) != NULL) != mhas[i]) return 0;
    return 1;
}

TEST(bounded_random_vs_model)
{
    CHECK(bounded_vs_model(4, 10, 20000, 0xabc));
    CHECK(bounded_vs_model(16, 16, 20000, 0xbcd));
    CHECK(bounded_vs_model(64, 200, 50000, 0xcde));
}

TEST(select_truncation_and_slot_order)
{
    struct rocc_flowtable ft;
    uint32_t out[4], full[32];
    uint32_t i, n, k = 0;

    CHECK_EQ(init_kind(&ft, ROCC_FT_BOUNDED, 32), 0);
    for (i = 0; i < 10; i++) rocc_ft_on_enqueue(&ft, key_of(i), i, 0);
    /* Slot order: the refs as they lie in the slots. */
    for (i = 0; i < 32; i++)
        if (ft.e[i].count) full[k++] = ft.e[i].ref;
    CHECK_EQ(k, 10);
    n = (uint32_t)rocc_ft_select(&ft, 0, out, 4);
    CHECK_EQ(n, 4);
    CHECK(memcmp(out, full, sizeof out) == 0);
    CHECK_EQ(ft.n_truncated, 6);
    /* Aging still covers the entries that did not fit. */
    rocc_ft_on_enqueue(&ft, key_of(0), 0, 100 * US);
    CHECK_EQ(rocc_ft_select(&ft, 100 * US, out, 0), 0);
    CHECK_EQ(rocc_ft_size(&ft), 1);
}

TEST(etrap_lfu_eviction_pointer)
{
    struct rocc_flowtable ft;
    struct rocc_ft_params p;
    struct rocc_ft_entry before[4];
    uint32_t i, victim = 4;
    const uint32_t cnt[4] = { 5, 1, 3, 4 };

    rocc_ft_params_default(&p, ROCC_FT_ETRAP, 4, 40 * US);
    p.sample_one_in = 1;                  /* sample every packet */
    p.elephant_count = 3;
    CHECK_EQ(rocc_ft_init(&ft, &p, store), 0);
    for (i = 0; i < 4; i++) {
        uint32_t j;
        for (j = 0; j < cnt[i]; j++) rocc_ft_on_enqueue(&ft, key_of(i + 2), i, 0);
    }
    CHECK_EQ(rocc_ft_size(&ft), 4);
    CHECK_EQ(ft.n_sampled, 13);
    memcpy(before, ft.e, sizeof before);
    /* Expected: the hand (slot 0) walks forward, halving counts >= 3, and
     * evicts the first entry with count < 3 (the key with count 1). */
    for (i = 0; i < 4; i++)
        if (before[i].count < 3) { victim = i; break; }
    CHECK(victim < 4);
    rocc_ft_on_enqueue(&ft, 999, 9, 1);
    CHECK_EQ(ft.n_evicted, 1);
    CHECK_EQ(rocc_ft_size(&ft), 4);
    CHECK(rocc_ft_find(&ft, before[victim].key) == NULL);
    CHECK_EQ(rocc_ft_find(&ft, 999)->count, 1);
    CHECK_EQ(ft.hand, victim + 1);
    for (i = 0; i < victim; i++)
        CHECK_EQ(rocc_ft_find(&ft, before[i].key)->count, before[i].count / 2);
    for (i = victim + 1; i < 4; i++)
        CHECK_EQ(rocc_ft_find(&ft, before[i].key)->count, before[i].count);
    CHECK(table_consistent(&ft));

    /* elephant_count 1: nothing is ever below it; a full turn finds no
     * victim and the sample is dropped. */
    p.elephant_count = 1;
    CHECK_EQ(rocc_ft_init(&ft, &p, store), 0);
    for (i = 0; i < 4; i++) rocc_ft_on_enqueue(&ft, key_of(i + 2), i, 0);
    rocc_ft_on_enqueue(&ft, 999, 9, 0);
    CHECK_EQ(ft.n_full, 1);
    CHECK(rocc_ft_find(&ft, 999) == NULL);
    CHECK_EQ(rocc_ft_size(&ft), 4);
}

TEST(etrap_select_halves_and_evicts)
{
    struct rocc_flowtable ft;
    struct rocc_ft_params p;
    uint32_t out[8];
    unsigned j;

    rocc_ft_params_default(&p, ROCC_FT_ETRAP, 16, 40 * US);
    p.sample_one_in = 1;
    CHECK_EQ(rocc_ft_init(&ft, &p, store), 0);               /* elephant 2 */
    for (j = 0; j < 5; j++) rocc_ft_on_enqueue(&ft, 10, 10, 0);
    for (j = 0; j < 2; j++) rocc_ft_on_enqueue(&ft, 20, 20, 0);
    rocc_ft_on_enqueue(&ft, 30, 30, 0);
    rocc_ft_on_dequeue(&ft, 10);                              /* no-op */
    /* counts 5, 2, 1: select reports 10 and 20, then 2, 1, (0: evicted). */
    CHECK_EQ(rocc_ft_select(&ft, 0, out, 8), 2);
    qsort(out, 2, sizeof out[0], cmp_u32);
    CHECK_EQ(out[0], 10); CHECK_EQ(out[1], 20);
    CHECK_EQ(rocc_ft_find(&ft, 10)->count, 2);
    CHECK_EQ(rocc_ft_find(&ft, 20)->count, 1);
    CHECK(rocc_ft_find(&ft, 30) == NULL);
    CHECK_EQ(ft.n_evicted, 1);
    /* Next period without traffic: only 10 (count 2) is reported; 20 goes. */
    CHECK_EQ(rocc_ft_select(&ft, 0, out, 8), 1);
    CHECK_EQ(out[0], 10);
    CHECK_EQ(rocc_ft_size(&ft), 1);
    CHECK_EQ(rocc_ft_select(&ft, 0, out, 8), 0);
    CHECK_EQ(rocc_ft_size(&ft), 0);
    CHECK(table_consistent(&ft));
}

/* One elephant carrying half the packets among 1000 mice, 16-entry ETRAP
 * with the default sampling (1/20) and threshold (2).  Returns the number
 * of periods (out of `periods`) whose select reported the elephant, and
 * the number of mouse reports. */
static void etrap_run(uint64_t seed, unsigned periods, unsigned *hits, unsigned *mice,
                      uint64_t *sampled)
{
    struct rocc_flowtable ft;
    struct rocc_ft_params p;
    uint32_t out[16];
    unsigned per, j;
    size_t n, i;

    rocc_ft_params_default(&p, ROCC_FT_ETRAP, 16, 40 * US);
    p.seed = seed;
    rocc_ft_init(&ft, &p, store);
    lcg_state = 0xfeedull;
    *hits = *mice = 0;
    for (per = 0; per < periods; per++) {
        for (j = 0; j < 200; j++) {
            if (j & 1) rocc_ft_on_enqueue(&ft, 0xe1e, 0xe1e, per);
            else {
                uint32_t m = (uint32_t)(rnd() % 1000);
                rocc_ft_on_enqueue(&ft, 0x10000 + m, m, per);
            }
        }
        n = rocc_ft_select(&ft, per, out, 16);
        for (i = 0; i < n; i++) {
            if (out[i] == 0xe1e) (*hits)++;
            else (*mice)++;
        }
    }
    *sampled = ft.n_sampled;
}

TEST(etrap_finds_elephant_among_mice)
{
    unsigned hits, mice, hits2, mice2;
    uint64_t s1, s2;

    etrap_run(42, 500, &hits, &mice, &s1);
    printf("  etrap: elephant reported in %u/500 periods, %u mouse reports, "
           "%" PRIu64 " samples\n", hits, mice, s1);
    /* ~5 elephant samples per period -> count ~10: reported nearly always.
     * A mouse needs two samples within a period: rare. */
    CHECK(hits >= 490);
    CHECK(mice <= 25);
    CHECK_NEAR((double)s1, 500 * 200 / 20.0, 500);
    /* Deterministic for a seed, different for another. */
    etrap_run(42, 500, &hits2, &mice2, &s2);
    CHECK_EQ(hits2, hits); CHECK_EQ(mice2, mice); CHECK(s2 == s1);
    etrap_run(43, 500, &hits2, &mice2, &s2);
    CHECK(s2 != s1);
    CHECK(hits2 >= 490);
}

/* AFD: shadow buffer of 4, every packet sampled, report at m_i >= 2.  The
 * ring and counts after each step are worked out by hand in the comments. */
TEST(afd_shadow_window)
{
    struct rocc_flowtable ft;
    struct rocc_ft_params p;
    uint32_t out[8];
    const uint64_t A = 0xa, B = 0xb, C = 0xc, D = 0xd;

    rocc_ft_params_default(&p, ROCC_FT_AFD, 8, 40 * US);
    p.sample_one_in = 1;
    p.shadow = 4;
    CHECK_EQ(rocc_ft_mem_bytes(&p), 8 * 24 + 4 * 8);
    CHECK_EQ(rocc_ft_init(&ft, &p, store), 0);
    rocc_ft_on_enqueue(&ft, A, 1, 0);
    rocc_ft_on_enqueue(&ft, A, 1, 0);
    rocc_ft_on_enqueue(&ft, B, 2, 0);
    rocc_ft_on_enqueue(&ft, C, 3, 0);
    /* ring [A A B C], m: A2 B1 C1 */
    CHECK_EQ(rocc_ft_size(&ft), 3);
    CHECK_EQ(ft.sh_n, 4); CHECK_EQ(ft.sh_pos, 0);
    CHECK_EQ(rocc_ft_find(&ft, A)->count, 2);
    CHECK_EQ(rocc_ft_select(&ft, 0, out, 8), 1);
    CHECK_EQ(out[0], 1);
    /* select does not age: same answer again */
    CHECK_EQ(rocc_ft_select(&ft, 0, out, 8), 1);
    CHECK_EQ(rocc_ft_find(&ft, A)->count, 2);
    rocc_ft_on_dequeue(&ft, A);                         /* no-op */
    CHECK_EQ(rocc_ft_find(&ft, A)->count, 2);
    /* D replaces the oldest (slot 0, A): ring [D A B C], A1 B1 C1 D1 */
    rocc_ft_on_enqueue(&ft, D, 4, 0);
    CHECK_EQ(ft.sh_pos, 1);
    CHECK_EQ(rocc_ft_size(&ft), 4);
    CHECK_EQ(rocc_ft_find(&ft, A)->count, 1);
    CHECK_EQ(rocc_ft_select(&ft, 0, out, 8), 0);
    /* B (new ref 22) replaces slot 1 (A): A leaves the table. ring [D B B C] */
    rocc_ft_on_enqueue(&ft, B, 22, 0);
    CHECK(rocc_ft_find(&ft, A) == NULL);
    CHECK_EQ(ft.n_evicted, 1);
    CHECK_EQ(rocc_ft_size(&ft), 3);
    CHECK_EQ(rocc_ft_find(&ft, B)->count, 2);
    CHECK_EQ(rocc_ft_select(&ft, 0, out, 8), 1);
    CHECK_EQ(out[0], 22);
    /* C replaces slot 2 (B), then C replaces slot 3 (C): ring [D B C C],
     * D1 B1 C2; the last one removes and adds C (no eviction). */
    rocc_ft_on_enqueue(&ft, C, 3, 0);
    rocc_ft_on_enqueue(&ft, C, 3, 0);
    CHECK_EQ(ft.sh_pos, 0);
    CHECK_EQ(rocc_ft_find(&ft, B)->count, 1);
    CHECK_EQ(rocc_ft_find(&ft, C)->count, 2);
    CHECK_EQ(rocc_ft_find(&ft, D)->count, 1);
    CHECK_EQ(ft.n_evicted, 1);
    CHECK_EQ(rocc_ft_select(&ft, 0, out, 8), 1);
    CHECK_EQ(out[0], 3);
    CHECK_EQ(ft.n_sampled, 8);
    CHECK_EQ(ft.size_max, 4);
    CHECK(table_consistent(&ft));
    /* Bad AFD parameters; no rehash (fixed memory). */
    CHECK_EQ(rocc_ft_rehash(&ft, store + 64, 16), -1);
    p.shadow = 9;                                       /* > capacity */
    CHECK_EQ(rocc_ft_mem_bytes(&p), 0);
    CHECK_EQ(rocc_ft_init(&ft, &p, store), -1);
    p.shadow = 0;
    CHECK_EQ(rocc_ft_init(&ft, &p, store), -1);
    p.shadow = 8; p.sample_one_in = 0;
    CHECK_EQ(rocc_ft_init(&ft, &p, store), -1);
    p.sample_one_in = 1; p.elephant_count = 0;
    CHECK_EQ(rocc_ft_init(&ft, &p, store), -1);
}

/* The shadow buffer never holds more flows than samples: 8 distinct flows
 * through a 4-sample shadow buffer in a 4-slot table, nothing refused. */
TEST(afd_table_never_overflows)
{
    struct rocc_flowtable ft;
    struct rocc_ft_params p;
    unsigned i;

    rocc_ft_params_default(&p, ROCC_FT_AFD, 4, 40 * US);
    p.sample_one_in = 1;
    p.shadow = 4;
    CHECK_EQ(rocc_ft_init(&ft, &p, store), 0);
    for (i = 0; i < 100; i++) {
        rocc_ft_on_enqueue(&ft, key_of(2 + i % 8), i, 0);
        CHECK(rocc_ft_size(&ft) <= 4);
    }
    CHECK_EQ(ft.n_full, 0);
    CHECK_EQ(rocc_ft_size(&ft), 4);        /* the last 4 samples: 4 flows */
    CHECK_EQ(ft.n_evicted, 96);
    CHECK(table_consistent(&ft));
}

/* BubbleCache: a 3-entry ranked list, every packet sampled, report at 2. */
TEST(bubble_ranks_and_bottom_replacement)
{
    struct rocc_flowtable ft;
    struct rocc_ft_params p;
    uint32_t out[8];
    const uint64_t A = 0xa, B = 0xb, C = 0xc, D = 0xd, E = 0xe;

    rocc_ft_params_default(&p, ROCC_FT_BUBBLE, 3, 40 * US);   /* any size */
    p.sample_one_in = 1;
    CHECK_EQ(rocc_ft_mem_bytes(&p), 3 * 24);
    CHECK_EQ(rocc_ft_init(&ft, &p, store), 0);
    rocc_ft_on_enqueue(&ft, A, 1, 0);               /* [A1] */
    rocc_ft_on_enqueue(&ft, B, 2, 0);               /* [A1 B1] */
    rocc_ft_on_enqueue(&ft, B, 2, 0);               /* B2 >= A1: [B2 A1] */
    CHECK_EQ(ft.e[0].key, B); CHECK_EQ(ft.e[1].key, A);
    CHECK_EQ(ft.n_bubbled, 1);
    rocc_ft_on_enqueue(&ft, C, 3, 0);               /* [B2 A1 C1] */
    rocc_ft_on_enqueue(&ft, D, 4, 0);               /* full: D takes C's slot: [B2 A1 D1] */
    CHECK(rocc_ft_find(&ft, C) == NULL);
    CHECK_EQ(ft.n_evicted, 1);
    CHECK_EQ(ft.e[2].key, D);
    rocc_ft_on_enqueue(&ft, D, 4, 0);               /* D2 >= A1: [B2 D2 A1] */
    rocc_ft_on_enqueue(&ft, D, 44, 0);              /* D3 >= B2: [D3 B2 A1] */
    CHECK_EQ(ft.e[0].key, D); CHECK_EQ(ft.e[0].count, 3); CHECK_EQ(ft.e[0].ref, 44);
    CHECK_EQ(ft.e[1].key, B); CHECK_EQ(ft.e[2].key, A);
    CHECK_EQ(ft.n_bubbled, 3);
    rocc_ft_on_enqueue(&ft, A, 1, 0);               /* A2 >= B2: [D3 A2 B2] */
    CHECK_EQ(ft.e[1].key, A); CHECK_EQ(ft.e[2].key, B);
    rocc_ft_on_enqueue(&ft, E, 5, 0);               /* E takes B's slot: [D3 A2 E1] */
    CHECK(rocc_ft_find(&ft, B) == NULL);
    CHECK_EQ(rocc_ft_find(&ft, E)->count, 1);
    CHECK_EQ(ft.n_evicted, 2);
    CHECK_EQ(ft.n_inserted, 5);
    CHECK_EQ(ft.n_probes, 0 + 1 + 2 + 2 + 3 + 3 + 2 + 3 + 3);   /* miss: size scanned; hit: rank + 1 */
    rocc_ft_on_dequeue(&ft, D);                     /* no-op */
    /* select: D, A in rank order; halve to D1 A1, E0 dropped. */
    CHECK_EQ(rocc_ft_select(&ft, 0, out, 8), 2);
    CHECK_EQ(out[0], 44); CHECK_EQ(out[1], 1);
    CHECK_EQ(rocc_ft_size(&ft), 2);
    CHECK_EQ(ft.e[0].key, D); CHECK_EQ(ft.e[0].count, 1);
    CHECK_EQ(ft.e[1].key, A); CHECK_EQ(ft.e[1].count, 1);
    CHECK_EQ(ft.e[2].count, 0);
    CHECK_EQ(ft.n_evicted, 3);
    /* truncation: out of room for the second pick */
    rocc_ft_on_enqueue(&ft, A, 1, 0);               /* A2 >= D1: [A2 D1] */
    rocc_ft_on_enqueue(&ft, D, 4, 0);               /* D2 >= A2: [D2 A2] */
    CHECK_EQ(rocc_ft_select(&ft, 0, out, 1), 1);
    CHECK_EQ(out[0], 4);
    CHECK_EQ(ft.n_truncated, 1);
    /* nothing above 1 now; the next select drops everything */
    CHECK_EQ(rocc_ft_select(&ft, 0, out, 8), 0);
    CHECK_EQ(rocc_ft_size(&ft), 0);
    CHECK_EQ(ft.size_max, 3);
    CHECK_EQ(rocc_ft_rehash(&ft, store + 8, 16), -1);
    p.capacity = 0;
    CHECK_EQ(rocc_ft_init(&ft, &p, store), -1);
    p.capacity = ROCC_FT_BUBBLE_SIZE_MAX + 1;
    CHECK_EQ(rocc_ft_mem_bytes(&p), 0);
}

/* One elephant carrying half the packets among 1000 mice (as etrap_run),
 * for AFD and BUBBLE with their default sampling and sizes. */
static void sampled_run(enum rocc_ft_kind kind, uint32_t cap, uint64_t seed, unsigned periods,
                        unsigned *hits, unsigned *mice, uint64_t *nsampled)
{
    struct rocc_flowtable ft;
    struct rocc_ft_params p;
    uint32_t out[MAXCAP];
    unsigned per, j;
    size_t n, i;

    rocc_ft_params_default(&p, kind, cap, 40 * US);
    p.seed = seed;
    rocc_ft_init(&ft, &p, store);
    lcg_state = 0xfeedull;
    *hits = *mice = 0;
    for (per = 0; per < periods; per++) {
        for (j = 0; j < 200; j++) {
            if (j & 1) rocc_ft_on_enqueue(&ft, 0xe1e, 0xe1e, per);
            else {
                uint32_t m = (uint32_t)(rnd() % 1000);
                rocc_ft_on_enqueue(&ft, 0x10000 + m, m, per);
            }
        }
        n = rocc_ft_select(&ft, per, out, MAXCAP);
        for (i = 0; i < n; i++) {
            if (out[i] == 0xe1e) (*hits)++;
            else (*mice)++;
        }
    }
    *nsampled = ft.n_sampled;
}

TEST(afd_and_bubble_find_elephant_among_mice)
{
    unsigned hits, mice, hits2, mice2;
    uint64_t s1, s2;

    /* AFD: the elephant holds ~64 of the 128 samples; a mouse holds 2 with
     * probability ~0.064^2/2 = 0.002, i.e. ~2 of 1000 mice per select. */
    sampled_run(ROCC_FT_AFD, 128, 42, 500, &hits, &mice, &s1);
    printf("  afd: elephant reported in %u/500 periods, %u mouse reports, %" PRIu64 " samples\n",
           hits, mice, s1);
    CHECK(hits >= 495);
    CHECK(mice >= 200 && mice <= 2500);
    CHECK_NEAR((double)s1, 500 * 200 / 20.0, 500);
    sampled_run(ROCC_FT_AFD, 128, 42, 500, &hits2, &mice2, &s2);
    CHECK_EQ(hits2, hits); CHECK_EQ(mice2, mice); CHECK(s2 == s1);
    sampled_run(ROCC_FT_AFD, 128, 43, 500, &hits2, &mice2, &s2);
    CHECK(s2 != s1);

    /* BUBBLE: ~5 elephant samples per period, count ~10 at the top; a mouse
     * needs two samples before a select (and before being pushed out). */
    sampled_run(ROCC_FT_BUBBLE, 32, 42, 500, &hits, &mice, &s1);
    printf("  bubble: elephant reported in %u/500 periods, %u mouse reports, %" PRIu64 " samples\n",
           hits, mice, s1);
    CHECK(hits >= 490);
    CHECK(mice <= 25);
    sampled_run(ROCC_FT_BUBBLE, 32, 42, 500, &hits2, &mice2, &s2);
    CHECK_EQ(hits2, hits); CHECK_EQ(mice2, mice); CHECK(s2 == s1);
    sampled_run(ROCC_FT_BUBBLE, 32, 43, 500, &hits2, &mice2, &s2);
    CHECK(s2 != s1);
    CHECK(hits2 >= 490);
}

/* Growing a QUEUE table keeps every flow and its packet count, and the
 * grown table keeps working (dequeues erase at 0, select lists all). */
TEST(rehash_keeps_entries)
{
    static struct rocc_ft_entry small[8], big[64];
    struct rocc_flowtable ft;
    struct rocc_ft_params p;
    rocc_ft_params_default(&p, ROCC_FT_QUEUE, 8, 40000000);
    CHECK_EQ(rocc_ft_init(&ft, &p, small), 0);
    for (uint64_t k = 1; k <= 6; k++)
        for (uint64_t c = 0; c < k; c++)
            rocc_ft_on_enqueue(&ft, k * 1000003, (uint32_t)k, 0);
    CHECK_EQ(rocc_ft_size(&ft), 6);
    CHECK_EQ(rocc_ft_rehash(&ft, big, 4), -1);          /* not a power of two above size */
    CHECK_EQ(rocc_ft_rehash(&ft, big, 64), 0);
    CHECK_EQ(rocc_ft_size(&ft), 6);
    for (uint64_t k = 1; k <= 6; k++) {
        const struct rocc_ft_entry *e = rocc_ft_find(&ft, k * 1000003);
        CHECK(e != NULL);
        CHECK_EQ(e->count, k);
        CHECK_EQ(e->ref, k);
    }
    for (uint64_t k = 7; k <= 30; k++)                  /* room beyond the old capacity */
        rocc_ft_on_enqueue(&ft, k * 1000003, (uint32_t)k, 0);
    CHECK_EQ(rocc_ft_size(&ft), 30);
    rocc_ft_on_dequeue(&ft, 1 * 1000003);               /* count 1 -> erased */
    CHECK(rocc_ft_find(&ft, 1 * 1000003) == NULL);
    uint32_t refs[64];
    CHECK_EQ(rocc_ft_select(&ft, 0, refs, 64), 29);
}

int main(void)
{
    test_binary_ = "test_rocc_flowtable";
    RUN(rehash_keeps_entries);
    RUN(storage_and_init_checks);
    RUN(queue_counts_and_erase_at_zero);
    RUN(queue_full_table);
    RUN(queue_random_vs_model);
    RUN(bounded_aging);
    RUN(bounded_random_vs_model);
    RUN(select_truncation_and_slot_order);
    RUN(etrap_lfu_eviction_pointer);
    RUN(etrap_select_halves_and_evicts);
    RUN(etrap_finds_elephant_among_mice);
    RUN(afd_shadow_window);
    RUN(afd_table_never_overflows);
    RUN(bubble_ranks_and_bottom_replacement);
    RUN(afd_and_bubble_find_elephant_among_mice);
    return test_summary();
}
