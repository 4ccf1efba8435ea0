/*
 * test_eventlist.c -- the simulator's core containers: the event heap
 * (core/eventlist.h), the random generator (core/rng.h), the packet pool
 * and packet FIFOs (net/packet.h).
 *
 * The event set is checked for its contract -- pop order is (time, seq), equal
 * times fire in insertion order, now follows the popped event -- both on
 * hand-made cases and against a brute-force model under random interleaved
 * push/pop, and at 10^6 pending events.  The generator is checked against a
 * reference xoshiro256** step, for reproducibility and for the bounds and
 * rough uniformity of its derived draws.  The pool is checked for reuse,
 * growth that keeps indices and contents, and its counters.
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/eventlist.h"
#include "core/rng.h"
#include "net/packet.h"

#include "test.h"


/* ---------------------------------------------------------------- heap */

TEST(el_init_empty)
{
    struct eventlist el;
    CHECK_EQ(el_init(&el, 0), 0);
    struct event ev = { 7, 7, 7, 7 };
    int empty_pop = el_pop(&el, &ev);
    size_t pending = el_pending(&el);
    simtime_t peek = el_peek_time(&el), now = el.now;
    uint64_t fired = el.n_fired;
    el_free(&el);
    CHECK_EQ(empty_pop, 0);
    CHECK_EQ(ev.time, 7);                /* untouched on an empty pop */
    CHECK_EQ(pending, 0);
    CHECK(peek == SIMTIME_NEVER);
    CHECK_EQ(now, 0);
    CHECK_EQ(fired, 0);
}

TEST(el_order_by_time)
{
    struct eventlist el;
    CHECK_EQ(el_init(&el, 4), 0);
    static const simtime_t t[] = { 50, 10, 30, 20, 40, 5, 45, 15 };
    for (uint32_t i = 0; i < 8; i++)
        el_push(&el, t[i], 100 + i, i);
    static const simtime_t want_t[] = { 5, 10, 15, 20, 30, 40, 45, 50 };
    static const uint32_t want_obj[] = { 5, 1, 7, 3, 2, 4, 6, 0 };
    int ok = 1;
    struct event ev;
    for (int i = 0; i < 8; i++) {
        if (!el_pop(&el, &ev) || ev.time != want_t[i] || ev.obj != want_obj[i] || ev.kind != 100 + want_obj[i])
            ok = 0;
    }
    int more = el_pop(&el, &ev);
    el_free(&el);
    CHECK(ok);
    CHECK_EQ(more, 0);
}

TEST(el_equal_times_fifo)
{
    /* 300 events at three times, pushed interleaved; within a time they
     * must come out in the order they were pushed. */
    struct eventlist el;
    CHECK_EQ(el_init(&el, 16), 0);
    for (uint32_t i = 0; i < 300; i++)
        el_push(&el, (simtime_t)(1000 * (2 - i % 3)), 0, i);
    struct event ev;
    int ok = 1;
    uint32_t last_obj[3] = { 0, 0, 0 };
    int seen[3] = { 0, 0, 0 };
    simtime_t last_t = 0;
    uint64_t last_seq = 0;
    for (int k = 0; k < 300; k++) {
        if (!el_pop(&el, &ev)) { ok = 0; break; }
        int slot = (int)(ev.time / 1000);
        if (ev.time < last_t) ok = 0;
        if (k > 0 && ev.time == last_t && ev.seq <= last_seq) ok = 0;
        if (seen[slot] && ev.obj <= last_obj[slot]) ok = 0;
        if (2 - ev.obj % 3 != (uint32_t)slot) ok = 0;
        seen[slot] = 1;
        last_obj[slot] = ev.obj;
        last_t = ev.time;
        last_seq = ev.seq;
    }
    el_free(&el);
    CHECK(ok);
}

TEST(el_now_and_peek)
{
    struct eventlist el;
    CHECK_EQ(el_init(&el, 16), 0);
    el_push(&el, 300, 1, 0);
    el_push(&el, 100, 1, 1);
    el_push(&el, 200, 1, 2);
    simtime_t p0 = el_peek_time(&el);
    simtime_t now0 = el.now;
    struct event ev;
    el_pop(&el, &ev);
    simtime_t now1 = el.now, p1 = el_peek_time(&el);
    el_push(&el, el.now, 2, 3);           /* scheduling at now is allowed */
    simtime_t p2 = el_peek_time(&el);
    el_pop(&el, &ev);
    uint32_t obj2 = ev.obj;
    simtime_t now2 = el.now;
    el_pop(&el, &ev);
    simtime_t now3 = el.now;
    el_pop(&el, &ev);
    simtime_t now4 = el.now, p4 = el_peek_time(&el);
    uint64_t fired = el.n_fired;
    int more = el_pop(&el, &ev);
    simtime_t now5 = el.now;
    el_free(&el);
    CHECK_EQ(p0, 100);
    CHECK_EQ(now0, 0);                   /* peeking does not advance time */
    CHECK_EQ(now1, 100);
    CHECK_EQ(p1, 200);
    CHECK_EQ(p2, 100);
    CHECK_EQ(obj2, 3);
    CHECK_EQ(now2, 100);
    CHECK_EQ(now3, 200);
    CHECK_EQ(now4, 300);
    CHECK(p4 == SIMTIME_NEVER);
    CHECK_EQ(fired, 4);
    CHECK_EQ(more, 0);
    CHECK_EQ(now5, 300);                 /* an empty pop leaves now alone */
}

/* el_pop_until pops only what is due by `until` and otherwise changes
 * nothing -- including for events in the wheel and the far heap. */
TEST(el_pop_until_stops_at_until)
{
    struct eventlist el;
    CHECK_EQ(el_init(&el, 4), 0);
    el_push(&el, 10, 1, 1);
    el_push(&el, 20, 1, 2);
    el_push(&el, 5 * PS_PER_US, 1, 3);
    el_push(&el, 9 * PS_PER_MS, 1, 4);
    struct event ev = { 0, 0, 0, 0 };
    int a = el_pop_until(&el, 15, &ev);
    uint32_t a_obj = ev.obj;
    int b = el_pop_until(&el, 15, &ev);
    simtime_t now_b = el.now;
    size_t pend_b = el_pending(&el);
    int c = el_pop_until(&el, 20, &ev);
    uint32_t c_obj = ev.obj;
    int d = el_pop_until(&el, 5 * PS_PER_US - 1, &ev);
    int e = el_pop_until(&el, 5 * PS_PER_US, &ev);
    uint32_t e_obj = ev.obj;
    int f = el_pop_until(&el, 9 * PS_PER_MS - 1, &ev);
    int g = el_pop_until(&el, SIMTIME_NEVER, &ev);
    uint32_t g_obj = ev.obj;
    int h = el_pop_until(&el, SIMTIME_NEVER, &ev);
    uint64_t fired = el.n_fired;
    el_free(&el);
    CHECK(a && a_obj == 1);
    CHECK(!b);
    CHECK_EQ(now_b, 10);                 /* a refused pop leaves now alone */
    CHECK_EQ(pend_b, 3);
    CHECK(c && c_obj == 2);
    CHECK(!d);
    CHECK(e && e_obj == 3);
    CHECK(!f);
    CHECK(g && g_obj == 4);
    CHECK(!h);
    CHECK_EQ(fired, 4);
}

/* 10^6 pending events with random times from a small range (so there are
 * many ties) pop in non-decreasing (time, seq) order, each exactly once. */
TEST(el_million_random)
{
    enum { N = 1000000 };
    struct eventlist el;
    struct rng r;
    rng_seed(&r, 12345);
    CHECK_EQ(el_init(&el, 16), 0);       /* grows by doubling on the way */
    uint8_t *seen = calloc(N, 1);
    simtime_t *when = malloc(N * sizeof *when);
    if (!seen || !when) {
        free(seen);
        free(when);
        el_free(&el);
        CHECK(!"out of memory");
    }
    int push_fail = 0;
    for (uint32_t i = 0; i < N; i++) {
        when[i] = rng_below(&r, 200000);   /* ~5 events per distinct time */
        if (el_push(&el, when[i], i & 0xff, i))
            push_fail = 1;
    }
    size_t pending = el_pending(&el);
    struct event ev, prev = { 0, 0, 0, 0 };
    uint32_t popped = 0;
    int order_ok = 1, match_ok = 1, dup = 0, now_ok = 1;
    while (el_pop(&el, &ev)) {
        if (popped > 0 && (ev.time < prev.time || (ev.time == prev.time && ev.seq <= prev.seq)))
            order_ok = 0;
        if (ev.obj >= N || when[ev.obj] != ev.time || ev.kind != (ev.obj & 0xff) || ev.seq != ev.obj)
            match_ok = 0;
        else if (seen[ev.obj]++)
            dup = 1;
        if (el.now != ev.time)
            now_ok = 0;
        prev = ev;
        popped++;
    }
    uint64_t fired = el.n_fired;
    free(seen);
    free(when);
    el_free(&el);
    CHECK(!push_fail);
    CHECK_EQ(pending, N);
    CHECK_EQ(popped, N);
    CHECK_EQ(fired, N);
    CHECK(order_ok);
    CHECK(match_ok);
    CHECK(!dup);
    CHECK(now_ok);
}

/* Interleaved pushes and pops against a brute-force model: the model keeps
 * every pending (time, seq) in an array and pops the minimum by scanning.
 * Each push is due now + a draw below one of `spans` (picked at random).
 * Pops go through el_pop_until with a limit that is sometimes just below
 * the earliest event (nothing may fire) and otherwise at or above it.
 * el_pending is compared with the model every step, el_peek_time only on
 * some steps (a peek moves the next bucket into the current heap, which
 * would keep the pop's own single-event path from running), and el_check
 * audits the structure every 64 steps.  Returns 1 when everything matched. */
static int el_model_run(uint64_t seed, const simtime_t *spans, int n_spans)
{
    enum { OPS = 40000, CAP = OPS };
    struct model { simtime_t t; uint64_t seq; uint32_t obj; } *m = malloc(CAP * sizeof *m);
    struct eventlist el;
    struct rng r;
    rng_seed(&r, seed);
    if (!m)
        return 0;
    if (el_init(&el, 1)) {
        free(m);
        return 0;
    }
    size_t mn = 0;
    uint64_t seq = 0;
    uint32_t next_obj = 0;
    int ok = 1;
    for (int op = 0; op < OPS && ok; op++) {
        /* Phases: mostly pushing, then mostly popping, so the set's size
         * swings between 0 and a few thousand. */
        int push_bias = (op / 5000) % 2 ? 30 : 70;
        if (mn == 0 || (int)rng_below(&r, 100) < push_bias) {
            simtime_t span = spans[rng_below(&r, (uint64_t)n_spans)];
            simtime_t t = el.now + rng_below(&r, span);
            if (el_push(&el, t, 0, next_obj))
                ok = 0;
            m[mn++] = (struct model){ t, seq++, next_obj++ };
        } else {
            size_t best = 0;
            for (size_t i = 1; i < mn; i++)
                if (m[i].t < m[best].t || (m[i].t == m[best].t && m[i].seq < m[best].seq))
                    best = i;
            struct event ev = { 0, 0, 0, 0 };
            if (m[best].t > el.now && rng_below(&r, 8) == 0) {
                /* Due after the limit: nothing fires, now stays. */
                simtime_t was = el.now;
                if (el_pop_until(&el, m[best].t - 1, &ev) || el.now != was)
                    ok = 0;
            } else {
                simtime_t until = m[best].t + (rng_below(&r, 2) ? 0 : rng_below(&r, 1u << 16));
                if (!el_pop_until(&el, until, &ev) || ev.time != m[best].t || ev.obj != m[best].obj ||
                    el.now != m[best].t)
                    ok = 0;
                m[best] = m[--mn];
            }
        }
        if (el_pending(&el) != mn)
            ok = 0;
        if (op % 5 == 0) {
            simtime_t mpeek = SIMTIME_NEVER;
            for (size_t i = 0; i < mn; i++)
                if (m[i].t < mpeek)
                    mpeek = m[i].t;
            if (el_peek_time(&el) != mpeek)
                ok = 0;
        }
        if (op % 64 == 0 && el_check(&el))
            ok = 0;
    }
    if (el_check(&el))
        ok = 0;
    free(m);
    el_free(&el);
    return ok;
}

/* All within one wheel bucket (2^14 ps): only the current heap works. */
TEST(el_interleaved_vs_model)
{
    static const simtime_t spans[] = { 50 };
    CHECK(el_model_run(777, spans, 1));
}

/* Spans from a few buckets to far past the wheel's horizon (2^24 ps) and
 * beyond 2^40 ps: pushes land in all three tiers, buckets wrap around the
 * wheel, far events migrate into it, and the wheel runs empty so the clock
 * jumps to the far heap's root.  Ties still occur through the 50 ps span. */
TEST(el_interleaved_all_tiers_vs_model)
{
    static const simtime_t spans[] = { 50, 1u << 15, 1u << 20, 1u << 24, 3u << 24, 1ull << 40 };
    CHECK(el_model_run(4242, spans, 6));
    static const simtime_t wheel_only[] = { 1u << 23 };          /* the whole wheel */
    CHECK(el_model_run(99, wheel_only, 1));
    static const simtime_t far_only[] = { 1ull << 45 };          /* mostly jumps */
    CHECK(el_model_run(5, far_only, 1));
}

/* Peeking moves the earliest bucket into the current heap; an event pushed
 * afterwards, earlier than that bucket but not before now, still fires
 * first.  Events at the end of time (SIMTIME_NEVER and just before) work. */
TEST(el_peek_then_push_earlier_and_end_of_time)
{
    struct eventlist el;
    CHECK_EQ(el_init(&el, 4), 0);
    el_push(&el, 50 * PS_PER_US, 1, 1);                  /* far heap */
    el_push(&el, 3 * PS_PER_US, 1, 2);                   /* wheel */
    simtime_t p0 = el_peek_time(&el);                    /* activates 3 us */
    el_push(&el, 7, 1, 3);                               /* current heap */
    el_push(&el, 3 * PS_PER_US, 1, 4);                   /* tie with obj 2 */
    el_push(&el, SIMTIME_NEVER, 1, 5);
    el_push(&el, SIMTIME_NEVER - 1, 1, 6);
    el_push(&el, SIMTIME_NEVER, 1, 7);
    uint32_t order[8] = { 0 };
    simtime_t last_now = 0;
    struct event ev;
    int n = 0;
    while (n < 8 && el_pop(&el, &ev)) {
        order[n++] = ev.obj;
        last_now = el.now;
    }
    simtime_t p_end = el_peek_time(&el);
    el_free(&el);
    CHECK_EQ(p0, 3 * PS_PER_US);
    CHECK_EQ(n, 7);
    CHECK_EQ(order[0], 3);
    CHECK_EQ(order[1], 2);
    CHECK_EQ(order[2], 4);
    CHECK_EQ(order[3], 1);
    CHECK_EQ(order[4], 6);
    CHECK_EQ(order[5], 5);
    CHECK_EQ(order[6], 7);
    CHECK(last_now == SIMTIME_NEVER);
    CHECK(p_end == SIMTIME_NEVER);
}

/* The last wheel's worth of buckets before the end of time: the horizon
 * saturates instead of wrapping around 2^64, so events there still pop in
 * order, with the structure intact at every step. */
TEST(el_last_buckets_before_end_of_time)
{
    struct eventlist el;
    CHECK_EQ(el_init(&el, 4), 0);
    const simtime_t bucket = 1ull << EL_SHIFT_MAX;      /* the width a run starts with */
    /* From 3000 buckets before the end (the horizon still fits) into the
     * last one, in scrambled order. */
    static const uint64_t back[] = { 3000, 1500, 900, 1023, 1025, 40, 2, 600, 1, 0, 1024, 5 };
    enum { NB = sizeof back / sizeof back[0] };
    for (uint32_t i = 0; i < NB; i++)
        el_push(&el, SIMTIME_NEVER - 1 - back[i] * bucket, 1, i);
    const char *bad = el_check(&el);
    simtime_t prev = 0;
    int n = 0, ordered = 1;
    struct event ev;
    while (!bad && el_pop(&el, &ev)) {
        ordered &= ev.time >= prev && ev.time == SIMTIME_NEVER - 1 - back[ev.obj] * bucket;
        prev = ev.time;
        n++;
        bad = el_check(&el);
    }
    el_free(&el);
    CHECK(bad == NULL);
    CHECK_EQ(n, NB);
    CHECK(ordered);
}

/* The bucket width follows the density.  Phase 1 keeps ~20 events within
 * 2 ns of now (tens per 16 ns bucket): the buckets narrow step by step to
 * the minimum.  Phase 2 keeps one event ~100 ns ahead (one per bucket): they
 * widen back to the maximum.  Throughout, three "timers" sit 16-24 us ahead,
 * across the wheel's horizon, so each re-filing moves events between the
 * wheel and the far heap.  Every pop is checked against a brute-force model
 * and the structure is audited as the wheel is re-filed. */
static int el_adapt_run(uint32_t *narrowest, uint32_t *widest_after)
{
    enum { CAP = 64 };
    struct model { simtime_t t; uint64_t seq; uint32_t obj; } m[CAP];
    struct eventlist el;
    struct rng r;
    rng_seed(&r, 31337);
    if (el_init(&el, 1))
        return 0;
    size_t mn = 0;
    uint64_t seq = 0;
    uint32_t obj = 0;
    int ok = 1;
    *narrowest = el.shift;
    for (int phase = 1; phase <= 2 && ok; phase++) {
        size_t keep = phase == 1 ? 20 : 1;
        for (long op = 0; op < 400000 && ok; op++) {
            while (mn < keep + 3) {
                int timers = 0;
                for (size_t i = 0; i < mn; i++)
                    timers += m[i].t >= el.now + 12 * PS_PER_US;
                simtime_t t = timers < 3 ? el.now + 16 * PS_PER_US + rng_below(&r, 8 * PS_PER_US)
                              : el.now + (phase == 1 ? rng_below(&r, 2000) : 90000 + rng_below(&r, 20000));
                if (el_push(&el, t, 0, obj))
                    ok = 0;
                m[mn++] = (struct model){ t, seq++, obj++ };
            }
            size_t best = 0;
            for (size_t i = 1; i < mn; i++)
                if (m[i].t < m[best].t || (m[i].t == m[best].t && m[i].seq < m[best].seq))
                    best = i;
            struct event ev;
            if (!el_pop(&el, &ev) || ev.time != m[best].t || ev.obj != m[best].obj)
                ok = 0;
            m[best] = m[--mn];
            if (el.shift < *narrowest)
                *narrowest = el.shift;
            if (op % 4096 == 0 && el_check(&el))
                ok = 0;
            if (phase == 1 && el.shift == EL_SHIFT_MIN && op > 20000)
                break;                  /* narrowest reached: go sparse */
        }
    }
    *widest_after = el.shift;
    if (el_check(&el))
        ok = 0;
    el_free(&el);
    return ok;
}

TEST(el_bucket_width_adapts)
{
    uint32_t narrowest = 0, widest_after = 0;
    CHECK(el_adapt_run(&narrowest, &widest_after));
    CHECK_EQ(narrowest, EL_SHIFT_MIN);
    CHECK_EQ(widest_after, EL_SHIFT_MAX);
}

/* ---------------------------------------------------------------- rng */

/* Reference xoshiro256** step (Blackman & Vigna, xoshiro256starstar.c). */
static uint64_t ref_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static uint64_t ref_next(uint64_t s[4])
{
    uint64_t result = ref_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = ref_rotl(s[3], 45);
    return result;
}

TEST(rng_is_xoshiro256ss)
{
    /* State {1,2,3,4}: the first outputs are 11520 and 0 (rotl(2*5,7)*9 =
     * 1280*9; then s[1] becomes 0), the rest must follow the reference. */
    struct rng r = { { 1, 2, 3, 4 } };
    uint64_t s[4] = { 1, 2, 3, 4 };
    CHECK_EQ(rng_next(&r), 11520);
    CHECK_EQ(ref_next(s), 11520);
    CHECK_EQ(rng_next(&r), 0);
    CHECK_EQ(ref_next(s), 0);
    for (int i = 0; i < 1000; i++) {
        uint64_t a = rng_next(&r), b = ref_next(s);
        if (a != b)
            CHECK_EQ(a, b);
    }
}

TEST(rng_same_seed_same_sequence)
{
    struct rng a, b;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    for (int i = 0; i < 10000; i++) {
        uint64_t x = rng_next(&a), y = rng_next(&b);
        if (x != y)
            CHECK_EQ(x, y);
    }
    /* Derived draws consume the same stream. */
    for (int i = 0; i < 1000; i++) {
        CHECK_EQ(rng_below(&a, 1000), rng_below(&b, 1000));
        CHECK(rng_uniform(&a) == rng_uniform(&b));
    }
    /* Re-seeding restarts the sequence. */
    struct rng c;
    rng_seed(&c, 42);
    uint64_t first = rng_next(&c);
    rng_seed(&c, 42);
    CHECK_EQ(rng_next(&c), first);
}

TEST(rng_different_seeds_differ)
{
    static const uint64_t seeds[] = { 0, 1, 2, 3, 42, UINT64_MAX };
    enum { NS = sizeof seeds / sizeof seeds[0], K = 64 };
    uint64_t out[NS][K];
    for (int s = 0; s < NS; s++) {
        struct rng r;
        rng_seed(&r, seeds[s]);
        for (int k = 0; k < K; k++)
            out[s][k] = rng_next(&r);
    }
    /* Any two streams agree at a position with probability 2^-64: demand
     * that no two agree anywhere, and that no state is degenerate. */
    for (int a = 0; a < NS; a++) {
        int nonzero = 0;
        for (int k = 0; k < K; k++)
            nonzero += out[a][k] != 0;
        CHECK(nonzero == K);
        for (int b = a + 1; b < NS; b++)
            for (int k = 0; k < K; k++)
                if (out[a][k] == out[b][k])
                    CHECK(out[a][k] != out[b][k]);
    }
    CHECK(mix64(1) != mix64(2));
    CHECK_EQ(mix64(12345), mix64(12345));
}

TEST(rng_below_bounds)
{
    struct rng r;
    rng_seed(&r, 9);
    static const uint64_t ns[] = { 1, 2, 3, 7, 10, 1000, 1000003, (1ull << 63) + 1, UINT64_MAX - 1, UINT64_MAX };
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        uint64_t maxv = 0;
        for (int k = 0; k < 5000; k++) {
            uint64_t v = rng_below(&r, ns[i]);
            if (v >= ns[i])
                CHECK(v < ns[i]);
            if (v > maxv)
                maxv = v;
        }
        if (ns[i] == 1)
            CHECK_EQ(maxv, 0);
        if (ns[i] >= 1000)
            CHECK(maxv >= ns[i] / 2);   /* the top half is reached */
    }
    /* n = 2: both values appear. */
    int seen[2] = { 0, 0 };
    for (int k = 0; k < 100; k++)
        seen[rng_below(&r, 2)] = 1;
    CHECK(seen[0] && seen[1]);
}

TEST(rng_below_uniform)
{
    /* 10 buckets x 10^5 draws, and 7 buckets (not a power of two): chi-square
     * against uniform below the 99.9% quantile (27.9 for 9 dof, 22.5 for 6);
     * the seed is fixed, so this is deterministic. */
    struct rng r;
    rng_seed(&r, 2024);
    enum { DRAWS = 100000 };
    for (uint64_t nb = 7; nb <= 10; nb += 3) {
        uint64_t cnt[10] = { 0 };
        for (int k = 0; k < DRAWS; k++)
            cnt[rng_below(&r, nb)]++;
        double expct = (double)DRAWS / (double)nb, chi2 = 0;
        for (uint64_t b = 0; b < nb; b++) {
            chi2 += ((double)cnt[b] - expct) * ((double)cnt[b] - expct) / expct;
            CHECK_NEAR((double)cnt[b], expct, 0.03 * expct);
        }
        CHECK(chi2 < (nb == 10 ? 27.9 : 22.5));
    }
    /* Rejection keeps a huge n unbiased: n = 3 * 2^62 splits the 64-bit range
     * unevenly for a plain modulo (values below 2^62 would come out twice as
     * often); with rejection each third of [0, n) gets ~1/3. */
    uint64_t n = 3ull << 62, third[3] = { 0, 0, 0 };
    for (int k = 0; k < 30000; k++)
        third[rng_below(&r, n) / (1ull << 62)]++;
    for (int b = 0; b < 3; b++)
        CHECK_NEAR((double)third[b], 10000.0, 500.0);
}

TEST(rng_uniform_range)
{
    struct rng r;
    rng_seed(&r, 5);
    enum { DRAWS = 200000 };
    double sum = 0, lo = 1, hi = 0;
    uint64_t below_half = 0;
    for (int k = 0; k < DRAWS; k++) {
        double u = rng_uniform(&r);
        if (!(u >= 0.0 && u < 1.0))
            CHECK(u >= 0.0 && u < 1.0);
        sum += u;
        if (u < lo) lo = u;
        if (u > hi) hi = u;
        below_half += u < 0.5;
    }
    CHECK_NEAR(sum / DRAWS, 0.5, 0.005);
    CHECK(lo < 1e-4);
    CHECK(hi > 1 - 1e-4);
    CHECK_NEAR((double)below_half / DRAWS, 0.5, 0.005);
    /* Exponential draws: mean within 2% over 10^5 draws, never negative. */
    double esum = 0;
    for (int k = 0; k < 100000; k++) {
        double e = rng_exp(&r, 3.0);
        if (e < 0)
            CHECK(e >= 0);
        esum += e;
    }
    CHECK_NEAR(esum / 100000, 3.0, 0.06);
}

/* ---------------------------------------------------------------- pool */

TEST(pool_get_put_reuse)
{
    struct pkt_pool pl;
    CHECK_EQ(pool_init(&pl, 0), 0);
    uint32_t cap = pl.cap;
    uint32_t a = pool_get(&pl), b = pool_get(&pl), c = pool_get(&pl);
    uint32_t live3 = pl.live;
    pool_put(&pl, b);
    uint32_t live2 = pl.live;
    uint32_t d = pool_get(&pl);           /* the freed slot comes back first */
    pool_put(&pl, a);
    pool_put(&pl, c);
    pool_put(&pl, d);
    uint32_t live0 = pl.live;
    uint64_t na = pl.n_alloc, nf = pl.n_freed;
    uint32_t e = pool_get(&pl);           /* LIFO: the last one put */
    pool_put(&pl, e);
    pool_free_all(&pl);
    CHECK(cap >= 1024);                  /* small hints are rounded up */
    CHECK_EQ(a, 0);                      /* lower indices handed out first */
    CHECK_EQ(b, 1);
    CHECK_EQ(c, 2);
    CHECK_EQ(live3, 3);
    CHECK_EQ(live2, 2);
    CHECK_EQ(d, b);
    CHECK_EQ(live0, 0);
    CHECK_EQ(na, 4);
    CHECK_EQ(nf, 4);
    CHECK_EQ(e, d);
}

TEST(pool_growth_keeps_contents)
{
    struct pkt_pool pl;
    CHECK_EQ(pool_init(&pl, 1024), 0);
    uint32_t cap0 = pl.cap;
    enum { N = 5000 };                   /* forces three doublings from 1024 */
    static uint32_t idx[N];
    struct pktq q;
    pktq_init(&q);
    int idx_ok = 1;
    for (uint32_t i = 0; i < N; i++) {
        idx[i] = pool_get(&pl);
        if (idx[i] == PKT_NONE || idx[i] >= pl.cap) {
            idx_ok = 0;
            break;
        }
        struct packet *p = pkt(&pl, idx[i]);
        memset(p, 0, sizeof *p);
        p->seq = 1000000 + i;
        p->flow = i * 3;
        p->bytes = (uint16_t)(64 + i % 1000);
        /* Every other packet sits in a FIFO while the pool grows under it. */
        if (i % 2 == 0)
            pktq_push(&pl, &q, idx[i]);
    }
    uint32_t cap1 = pl.cap, live = pl.live;
    int distinct = 1;
    uint8_t *used = calloc(cap1 ? cap1 : 1, 1);
    for (uint32_t i = 0; used && idx_ok && i < N; i++)
        if (used[idx[i]]++)
            distinct = 0;
    free(used);
    int contents = 1;
    for (uint32_t i = 0; idx_ok && i < N; i++) {
        const struct packet *p = pkt(&pl, idx[i]);
        if (p->seq != 1000000 + i || p->flow != i * 3 || p->bytes != 64 + i % 1000)
            contents = 0;
    }
    int fifo = 1;
    uint64_t qbytes = q.bytes;
    uint32_t qcount = q.count;
    for (uint32_t i = 0; idx_ok && i < N; i += 2)
        if (pktq_pop(&pl, &q) != idx[i])
            fifo = 0;
    for (uint32_t i = 0; idx_ok && i < N; i++)
        pool_put(&pl, idx[i]);
    uint32_t live_end = pl.live;
    uint64_t na = pl.n_alloc, nf = pl.n_freed;
    pool_free_all(&pl);
    CHECK(idx_ok);
    CHECK_EQ(cap0, 1024);
    CHECK_EQ(cap1, 8192);                /* doubling: 1024 -> 2048 -> 4096 -> 8192 */
    CHECK_EQ(live, N);
    CHECK(distinct);
    CHECK(contents);
    CHECK_EQ(qcount, N / 2);
    CHECK(fifo);
    uint64_t want_bytes = 0;
    for (uint32_t i = 0; i < N; i += 2)
        want_bytes += 64 + i % 1000;
    CHECK_EQ(qbytes, want_bytes);
    CHECK_EQ(live_end, 0);
    CHECK_EQ(na, N);
    CHECK_EQ(nf, N);
}

TEST(pktq_fifo_and_bytes)
{
    struct pkt_pool pl;
    CHECK_EQ(pool_init(&pl, 0), 0);
    struct pktq q;
    pktq_init(&q);
    int empty_ok = q.head == PKT_NONE && q.tail == PKT_NONE && q.count == 0 && q.bytes == 0 &&
                   pktq_pop(&pl, &q) == PKT_NONE;
    static const uint16_t sizes[] = { 1062, 66, 64, 1500, 9062 };
    uint32_t ids[5];
    uint64_t total = 0;
    int push_ok = 1;
    for (int i = 0; i < 5; i++) {
        ids[i] = pool_get(&pl);
        pkt(&pl, ids[i])->bytes = sizes[i];
        pkt(&pl, ids[i])->next = 12345;   /* garbage: push must reset it */
        pktq_push(&pl, &q, ids[i]);
        total += sizes[i];
        if (q.count != (uint32_t)i + 1 || q.bytes != total || q.head != ids[0] || q.tail != ids[i])
            push_ok = 0;
    }
    int pop_ok = 1;
    for (int i = 0; i < 3; i++) {
        uint32_t got = pktq_pop(&pl, &q);
        total -= sizes[i];
        if (got != ids[i] || q.count != (uint32_t)(4 - i) || q.bytes != total)
            pop_ok = 0;
    }
    /* Push after partial drain goes behind the rest. */
    pktq_push(&pl, &q, ids[0]);
    int order_ok = pktq_pop(&pl, &q) == ids[3] && pktq_pop(&pl, &q) == ids[4] && pktq_pop(&pl, &q) == ids[0];
    int drained_ok = q.head == PKT_NONE && q.tail == PKT_NONE && q.count == 0 && q.bytes == 0 &&
                     pktq_pop(&pl, &q) == PKT_NONE;
    /* Two queues share one pool without interfering. */
    struct pktq q2;
    pktq_init(&q2);
    pktq_push(&pl, &q, ids[1]);
    pktq_push(&pl, &q2, ids[2]);
    pktq_push(&pl, &q, ids[3]);
    int two_ok = pktq_pop(&pl, &q2) == ids[2] && pktq_pop(&pl, &q2) == PKT_NONE &&
                 pktq_pop(&pl, &q) == ids[1] && pktq_pop(&pl, &q) == ids[3];
    pool_free_all(&pl);
    CHECK(empty_ok);
    CHECK(push_ok);
    CHECK(pop_ok);
    CHECK(order_ok);
    CHECK(drained_ok);
    CHECK(two_ok);
}

/* el_push_key: ties at one time pop by the caller's key, whatever the
 * push order and the tier (current bucket, wheel, far heap) they sit in. */
TEST(el_push_key_orders_ties)
{
    struct eventlist el;
    CHECK_EQ(el_init(&el, 16), 0);
    static const uint64_t key[] = { 90, 7, 55, 1000000, 3, 42, 8, 61 };
    static const simtime_t when[] = { 5, 3 * PS_PER_US, 50 * PS_PER_US };   /* cur, wheel, far */
    for (int w = 0; w < 3; w++)
        for (int i = 0; i < 8; i++)
            CHECK_EQ(el_push_key(&el, when[w], 1, (uint32_t)(w * 8 + i), key[i]), 0);
    CHECK(el_check(&el) == NULL);
    struct event ev;
    int ok = 1;
    for (int w = 0; w < 3; w++) {
        uint64_t last = 0;
        for (int i = 0; i < 8; i++) {
            if (!el_pop(&el, &ev) || ev.time != when[w] || (i > 0 && ev.seq <= last) ||
                key[ev.obj - (uint32_t)w * 8] != ev.seq)
                ok = 0;
            last = ev.seq;
        }
    }
    CHECK(ok);
    CHECK_EQ(el_pending(&el), 0);
    el_free(&el);
}

/* Dense buckets with caller keys in random order, as a lock-step fabric
 * makes them: bursts of 1 to 3,000 events at a handful of times (many
 * equal) with random unique keys, then, while they drain, pushes due
 * within the current bucket (inserted into the sorted run, or turning a
 * long one into a heap).  Every pop is checked against a brute-force
 * model; el_check audits the structure as it goes. */
static int el_dense_run(uint64_t seed)
{
    enum { CAP = 8000 };
    struct model { simtime_t t; uint64_t key; uint32_t obj; } *m = malloc(CAP * sizeof *m);
    struct eventlist el;
    struct rng r;
    rng_seed(&r, seed);
    if (!m || el_init(&el, 1)) {
        free(m);
        return 0;
    }
    static const uint32_t bursts[] = { 1, 5, 9, 17, 40, 300, 3000 };
    static const simtime_t spans[] = { 1, 3, 64, 4096, 1u << 20 };
    size_t mn = 0;
    uint32_t obj = 0;
    int ok = 1;
    for (int round = 0; round < 60 && ok; round++) {
        uint32_t burst = bursts[rng_below(&r, 7)];
        simtime_t span = spans[rng_below(&r, 5)];
        for (uint32_t i = 0; i < burst && mn < CAP; i++, obj++) {
            simtime_t t = el.now + 1 + rng_below(&r, span);
            uint64_t key = (rng_next(&r) & ~0xffffull) | (obj & 0xffff);  /* unique among pending */
            if (el_push_key(&el, t, 0, obj, key))
                ok = 0;
            m[mn++] = (struct model){ t, key, obj };
        }
        size_t pops = rng_below(&r, 2) ? mn : mn / 2;
        for (size_t k = 0; k < pops && ok; k++) {
            size_t best = 0;
            for (size_t i = 1; i < mn; i++)
                if (m[i].t < m[best].t || (m[i].t == m[best].t && m[i].key < m[best].key))
                    best = i;
            struct event ev;
            if (!el_pop(&el, &ev) || ev.obj != m[best].obj || ev.time != m[best].t || ev.seq != m[best].key)
                ok = 0;
            m[best] = m[--mn];
            if (k % 7 == 3 && mn < CAP) {           /* due now or just after: into the current bucket */
                simtime_t t = el.now + rng_below(&r, 3);
                uint64_t key = (rng_next(&r) & ~0xffffull) | (obj & 0xffff);
                if (el_push_key(&el, t, 0, obj, key))
                    ok = 0;
                m[mn++] = (struct model){ t, key, obj++ };
            }
            if (k % 97 == 0 && el_check(&el))
                ok = 0;
        }
        if (el_pending(&el) != mn || el_check(&el))
            ok = 0;
    }
    free(m);
    el_free(&el);
    return ok;
}

TEST(el_dense_buckets_random_keys)
{
    CHECK(el_dense_run(1));
    CHECK(el_dense_run(20261128));
}

/* el_prefetch_step walks the next non-empty bucket's list, one node per
 * call, and hands back exactly that bucket's events, then nothing; and
 * calling it after every pop changes no pop, whatever the tiers do. */
TEST(el_prefetch_walks_next_bucket)
{
    struct eventlist el;
    CHECK(el_init(&el, 16) == 0);
    for (uint32_t i = 0; i < 5; i++)             /* bucket 2 (4096 ps buckets) */
        CHECK(el_push(&el, 10000 + i, 1, i) == 0);
    for (uint32_t i = 0; i < 3; i++)             /* bucket 7: the next non-empty one */
        CHECK(el_push(&el, 30000 + i, 1, 100 + i) == 0);
    CHECK(el_push(&el, 50000, 1, 200) == 0);     /* bucket 12 */
    struct event ev;
    CHECK(el_pop(&el, &ev) && ev.obj == 0);
    CHECK(el_prefetch_step(&el) == NULL);        /* a new current bucket: starts the walk */
    uint32_t seen = 0, n = 0;
    for (int k = 0; k < 10; k++) {
        const struct event *w = el_prefetch_step(&el);
        if (!w)
            continue;
        n++;
        CHECK(w->obj >= 100 && w->obj < 103 && w->time == 30000 + (w->obj - 100));
        seen |= 1u << (w->obj - 100);
    }
    CHECK_EQ(n, 3);
    CHECK_EQ(seen, 7);
    for (uint32_t i = 1; i < 5; i++)             /* nothing observable changed */
        CHECK(el_pop(&el, &ev) && ev.obj == i);
    CHECK(el_pop(&el, &ev) && ev.obj == 100);
    el_free(&el);

    struct eventlist a, b;
    CHECK(el_init(&a, 16) == 0);
    CHECK(el_init(&b, 16) == 0);
    struct rng r;
    rng_seed(&r, 20261128);
    int same = 1;
    uint64_t pops = 0, walked = 0;
    for (uint32_t i = 0; i < 200000 && same; i++) {
        uint32_t pushes = (uint32_t)(rng_next(&r) % 3);
        for (uint32_t j = 0; j < pushes; j++) {
            uint64_t x = rng_next(&r);      /* near, in the wheel, or far */
            simtime_t dt = x % 8 == 0 ? x % 100 : x % 8 == 1 ? (x >> 8) % 40000000 : (x >> 8) % 20000;
            CHECK(el_push(&a, a.now + dt, 1, i) == 0);
            CHECK(el_push(&b, b.now + dt, 1, i) == 0);
        }
        struct event x, y;
        int pa = el_pop(&a, &x), pb = el_pop(&b, &y);
        if (pa != pb || (pa && (x.time != y.time || x.seq != y.seq || x.obj != y.obj)))
            same = 0;
        pops += (uint64_t)pa;
        walked += el_prefetch_step(&b) != NULL;
    }
    CHECK(same);
    CHECK(pops > 100000);
    CHECK(walked > 1000);                   /* the walk ran, not only its start */
    CHECK(el_check(&b) == NULL);
    el_free(&a);
    el_free(&b);
}

#define RUN_T(t) do { RUN(t); } while (0)

/* el_filter (a partitioned run drops other ranks' set-up events): what it
 * keeps pops in the same order as before, ties included, across all three
 * tiers (now, wheel, far), and later pushes at equal times come after. */
static int keep_even(void *ctx, const struct event *ev)
{
    (void)ctx;
    return ev->obj % 2 == 0;
}

TEST(el_filter_keeps_order)
{
    struct eventlist a, b;
    CHECK(el_init(&a, 16) == 0);
    CHECK(el_init(&b, 16) == 0);
    struct rng r;
    rng_seed(&r, 7);
    for (uint32_t i = 0; i < 3000; i++) {
        /* many ties; times in the current bucket, the wheel and far */
        simtime_t t = (rng_next(&r) % 4) == 0 ? 100 : (rng_next(&r) % 3) * 5000000 + rng_next(&r) % 64 * 1000;
        CHECK(el_push(&a, t, 1, i) == 0);
        if (i % 2 == 0)
            CHECK(el_push(&b, t, 1, i) == 0);
    }
    CHECK(el_filter(&a, keep_even, NULL) == 0);
    CHECK(el_check(&a) == NULL);
    CHECK_EQ(el_pending(&a), el_pending(&b));
    CHECK(el_push(&a, 100, 2, 1) == 0);     /* after the kept ties at 100 */
    CHECK(el_push(&b, 100, 2, 1) == 0);
    struct event x, y;
    int same = 1;
    while (el_pop(&b, &y)) {
        if (!el_pop(&a, &x) || x.time != y.time || x.obj != y.obj || x.kind != y.kind)
            same = 0;
    }
    CHECK(same);
    CHECK_EQ(el_pending(&a), 0);
    el_free(&a);
    el_free(&b);
}

int main(void)
{
    test_binary_ = "test_eventlist";
    test_crash_guard();
    RUN_T(el_init_empty);
    RUN_T(el_filter_keeps_order);
    RUN_T(el_order_by_time);
    RUN_T(el_equal_times_fifo);
    RUN_T(el_push_key_orders_ties);
    RUN_T(el_dense_buckets_random_keys);
    RUN_T(el_prefetch_walks_next_bucket);
    RUN_T(el_now_and_peek);
    RUN_T(el_pop_until_stops_at_until);
    RUN_T(el_million_random);
    RUN_T(el_interleaved_vs_model);
    RUN_T(el_interleaved_all_tiers_vs_model);
    RUN_T(el_peek_then_push_earlier_and_end_of_time);
    RUN_T(el_last_buckets_before_end_of_time);
    RUN_T(el_bucket_width_adapts);
    RUN_T(rng_is_xoshiro256ss);
    RUN_T(rng_same_seed_same_sequence);
    RUN_T(rng_different_seeds_differ);
    RUN_T(rng_below_bounds);
    RUN_T(rng_below_uniform);
    RUN_T(rng_uniform_range);
    RUN_T(pool_get_put_reuse);
    RUN_T(pool_growth_keeps_contents);
    RUN_T(pktq_fifo_and_bytes);
    return test_summary();
}
