/* test_oq_runtime.c -- the OpenQueue runtime (src/openqueue/oq_rt.c):
 * heap and ring order, push-out, LQD, every boundary action, scheduling
 * comparators (LQF, SQF, MAXQF, MINQF, CRR, WRR, strict priority),
 * processing cycles, hard limits, division by zero, and §2.5.4 Experiment
 * 1's ordering A < B < C on a one-port model. */
#include "openqueue/oq.h"
#include "test.h"

#define MAXREC 8192
static struct rec {
    uint64_t drops[MAXREC];
    int why[MAXREC];
    uint32_t ndrops;
    uint32_t nnotify, notify_kind, notify_idx;
    double dropped_value;
} rec_;

static void on_drop(void *ctx, const struct oq_pkt *p, enum oq_drop_reason why)
{
    struct rec *r = ctx;
    if (r->ndrops < MAXREC) {
        r->drops[r->ndrops] = p->handle;
        r->why[r->ndrops] = why;
    }
    r->ndrops++;
    r->dropped_value += p->value;
}

static void on_notify(void *ctx, enum oq_entity kind, uint32_t idx, const struct oq_pkt *p)
{
    struct rec *r = ctx;
    r->nnotify++;
    r->notify_kind = kind;
    r->notify_idx = idx;
}

static struct oq_policy *pol_;
static char err_[600];

/* A runtime for policy text (or a file when text starts with "policies/"). */
static struct oq_rt *mk(const char *text, uint64_t seed)
{
    memset(&rec_, 0, sizeof rec_);
    oq_policy_free(pol_);
    pol_ = !strncmp(text, "policies/", 9) ? oq_compile_file(text, err_, sizeof err_)
                                           : oq_compile(text, strlen(text), "t.oq", err_, sizeof err_);
    if (!pol_) {
        printf("  %s\n", err_);
        return NULL;
    }
    struct oq_rt_params prm = { .seed = seed };
    struct oq_sink sink = { .ctx = &rec_, .drop = on_drop, .notify = on_notify };
    return oq_rt_new(pol_, &prm, &sink);
}

static int enq(struct oq_rt *rt, uint32_t q, uint64_t handle, double value, uint32_t proc, uint64_t now)
{
    struct oq_pkt p = { .handle = handle, .value = value, .size = 1000, .queue = q, .processing = proc };
    return oq_enqueue(rt, &p, now);
}

/* Serve one packet of port (spending OQ_BUSY cycles); its handle or -1. */
static long long serve(struct oq_rt *rt, uint32_t port, struct oq_pkt *out)
{
    struct oq_pkt tmp;
    if (!out)
        out = &tmp;
    for (int i = 0; i < 1000; i++) {
        int r = oq_service(rt, port, 0, out);
        if (r == OQ_EMPTY)
            return -1;
        if (r == OQ_SENT)
            return (long long)out->handle;
    }
    return -2;
}

TEST(fifo_ring_and_tail_drop)
{
    struct oq_rt *rt = mk("policies/fifo_taildrop.oq", 1);
    CHECK(rt != NULL);
    for (uint64_t i = 0; i < 130; i++)
        CHECK_EQ(enq(rt, 0, i, 0, 1, i), i < 128 ? OQ_ADMITTED : OQ_REFUSED);
    CHECK_EQ(rec_.ndrops, 2);
    CHECK_EQ(rec_.drops[0], 128);
    CHECK_EQ(rec_.why[0], OQ_DROP_CONGESTION);
    for (long long i = 0; i < 128; i++)
        CHECK_EQ(serve(rt, 0, NULL), i);
    CHECK_EQ(serve(rt, 0, NULL), -1);
    struct oq_qstats st;
    oq_queue_stats(rt, 0, &st);
    CHECK_EQ(st.enqueued, 128);
    CHECK_EQ(st.dropped, 2);
    CHECK_EQ(st.pushed_out, 0);
    CHECK_EQ(st.dequeued, 128);
    CHECK_EQ(st.len, 0);
    oq_rt_free(rt);
}

/* Departures of a heap-ordered queue against the sorted order. */
TEST(heap_order_random)
{
    static const char *const pols[] = {
        "q1 = Queue(3000p); out = Port(q1); q1.procPrio = hvf;",
        /* the same order as a general comparator (bytecode, not a key) */
        "q1 = Queue(3000p); out = Port(q1);\n"
        "c(a, b) = a.value > b.value || (a.value == b.value && a.arrival < b.arrival);\nq1.procPrio = c;",
    };
    for (int k = 0; k < 2; k++) {
        struct oq_rt *rt = mk(pols[k], 1);
        CHECK(rt != NULL);
        struct rng r;
        rng_seed(&r, 7);
        static double val[2000];
        for (uint64_t i = 0; i < 2000; i++) {
            val[i] = (double)rng_below(&r, 50);
            CHECK_EQ(enq(rt, 0, i, val[i], 1, i), OQ_ADMITTED);
            if (i % 3 == 2) {       /* interleave some service */
                long long h = serve(rt, 0, NULL);
                CHECK(h >= 0);
                val[h] = -1;
            }
        }
        double last = 1e9;
        long long lasth = -1;
        for (;;) {
            struct oq_pkt o;
            long long h = serve(rt, 0, &o);
            if (h < 0)
                break;
            CHECK(o.value <= last);
            if (o.value == last)
                CHECK(h > lasth);  /* FIFO among equals */
            last = o.value;
            lasth = h;
        }
        CHECK_EQ(oq_rt_packets(rt), 0);
        oq_rt_free(rt);
    }
}

TEST(srpt_processing_cycles)
{
    struct oq_rt *rt = mk("policies/srpt.oq", 1);
    CHECK(rt != NULL);
    static const uint32_t proc[] = { 3, 1, 4, 1, 5, 2 };
    for (uint64_t i = 0; i < 6; i++)
        CHECK_EQ(enq(rt, 0, i, 0, proc[i], 0), OQ_ADMITTED);
    static const long long want[] = { 1, 3, 5, 0, 2, 4 };
    int busy = 0;
    for (int i = 0; i < 6; i++) {
        struct oq_pkt o;
        int r;
        for (int guard = 0; (r = oq_service(rt, 0, 0, &o)) == OQ_BUSY && guard < 100; guard++)
            busy++;
        CHECK_EQ(r, OQ_SENT);
        CHECK_EQ(o.handle, want[i]);
    }
    CHECK_EQ(busy, (3 - 1) + (4 - 1) + (5 - 1) + (2 - 1));
    /* rsrpt: the most processing first; a decremented HOL may lose its place */
    rt = (oq_rt_free(rt), mk("policies/rsrpt.oq", 1));
    CHECK(rt != NULL);
    CHECK_EQ(enq(rt, 0, 0, 0, 3, 0), OQ_ADMITTED);
    CHECK_EQ(enq(rt, 0, 1, 0, 2, 0), OQ_ADMITTED);
    struct oq_pkt o;
    CHECK_EQ(oq_service(rt, 0, 0, &o), OQ_BUSY);    /* packet 0: 3 -> 2, ties with 1, stays (earlier) */
    CHECK_EQ(oq_service(rt, 0, 0, &o), OQ_BUSY);    /* packet 0: 2 -> 1; packet 1 (2) now first */
    CHECK_EQ(oq_service(rt, 0, 0, &o), OQ_BUSY);    /* packet 1: 2 -> 1 */
    CHECK_EQ(oq_service(rt, 0, 0, &o), OQ_SENT);    /* tie at 1: the earlier, packet 0 */
    CHECK_EQ(o.handle, 0);
    oq_rt_free(rt);
}

TEST(push_out_lowest_value)
{
    struct oq_rt *rt = mk("policies/alg_b.oq", 1);
    CHECK(rt != NULL);
    for (uint64_t i = 0; i < 512; i++)
        CHECK_EQ(enq(rt, 0, i, 1, 1, i), OQ_ADMITTED);
    /* a high-value arrival pushes out the newest low-value packet */
    CHECK_EQ(enq(rt, 0, 1000, 63, 1, 600), OQ_ADMITTED);
    CHECK_EQ(rec_.ndrops, 1);
    CHECK_EQ(rec_.drops[0], 511);
    /* a low-value arrival is itself the lowest and newest: refused */
    CHECK_EQ(enq(rt, 0, 1001, 1, 1, 601), OQ_REFUSED);
    CHECK_EQ(rec_.drops[1], 1001);
    struct oq_qstats st;
    oq_queue_stats(rt, 0, &st);
    CHECK_EQ(st.pushed_out, 1);
    CHECK_EQ(st.dropped, 2);
    CHECK_EQ(st.len, 512);
    /* FIFO processing: the old low packets still go first */
    CHECK_EQ(serve(rt, 0, NULL), 0);
    oq_rt_free(rt);
    /* a large arrival pushes out as many packets as it needs, each by the
     * congestion case evaluated again (not by the hard limit) */
    rt = mk("q1 = Queue(3000B); out = Port(q1); q1.admPrio = hvf;\n"
            "q1.congestion = (currSize + pkt.size > size, drop(1));", 1);
    CHECK(rt != NULL);
    for (uint64_t i = 0; i < 3; i++)
        CHECK_EQ(enq(rt, 0, i, 1, 1, 0), OQ_ADMITTED);
    struct oq_pkt big = { .handle = 9, .size = 2500, .queue = 0, .value = 63 };
    CHECK_EQ(oq_enqueue(rt, &big, 0), OQ_ADMITTED);
    CHECK_EQ(rec_.ndrops, 3);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(rec_.drops[i], 2 - i);              /* newest low first */
        CHECK_EQ(rec_.why[i], OQ_DROP_CONGESTION);
    }
    oq_rt_free(rt);
}

TEST(lqd_shared_buffer)
{
    struct oq_rt *rt = mk("policies/lqd.oq", 1);
    CHECK(rt != NULL);
    for (uint64_t i = 0; i < 40; i++)
        CHECK_EQ(enq(rt, 0, i, 0, 1, 0), OQ_ADMITTED);
    for (uint64_t i = 100; i < 124; i++)
        CHECK_EQ(enq(rt, 1, i, 0, 1, 0), OQ_ADMITTED);
    CHECK_EQ(rec_.ndrops, 0);
    /* buffer full (64): an arrival for q2 drops from the longest, q1 */
    CHECK_EQ(enq(rt, 1, 124, 0, 1, 0), OQ_ADMITTED);
    CHECK_EQ(rec_.ndrops, 1);
    CHECK_EQ(rec_.drops[0], 39);
    CHECK_EQ(rec_.why[0], OQ_DROP_BUFFER);
    /* an arrival for q1 (longest, counting the arrival): the arrival goes */
    CHECK_EQ(enq(rt, 0, 40, 0, 1, 0), OQ_REFUSED);
    CHECK_EQ(rec_.drops[1], 40);
    struct oq_qstats a, b;
    oq_queue_stats(rt, 0, &a);
    oq_queue_stats(rt, 1, &b);
    CHECK_EQ(a.len, 39);
    CHECK_EQ(b.len, 25);
    CHECK_EQ(a.pushed_out, 1);
    /* each queue is served by its own port */
    CHECK_EQ(serve(rt, 1, NULL), 100);
    CHECK_EQ(serve(rt, 0, NULL), 0);
    CHECK_EQ(serve(rt, 2, NULL), -1);
    oq_rt_free(rt);
    /* without queuePrio, a full shared buffer drops the arrival */
    rt = mk("q1 = Queue(8p); q2 = Queue(8p); b = Buffer(4p, q1, q2); o1 = Port(q1); o2 = Port(q2);", 1);
    CHECK(rt != NULL);
    for (uint64_t i = 0; i < 4; i++)
        CHECK_EQ(enq(rt, 0, i, 0, 1, 0), OQ_ADMITTED);
    CHECK_EQ(enq(rt, 1, 9, 0, 1, 0), OQ_REFUSED);
    CHECK_EQ(rec_.drops[0], 9);
    CHECK_EQ(rec_.why[0], OQ_DROP_OVERFLOW);
    oq_rt_free(rt);
}

TEST(drop_probability)
{
    static const struct { const char *cond; int lo, hi; } cases[] = {
        { "(length >= 10, drop(0.5))", 900, 1100 },
        { "(length >= 10, drop(0))", 0, 0 },
        { "(length >= 10, drop(1))", 2000, 2000 },
        { "(length >= 10, drop(length / 40))", 450, 550 },   /* 0.25, computed */
        { "(length >= 10, drop(length - 5))", 2000, 2000 },  /* 5: clamped to 1 */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char pol[200];
        snprintf(pol, sizeof pol, "q1 = Queue(100p); out = Port(q1); q1.congestion = %s;", cases[k].cond);
        struct oq_rt *rt = mk(pol, 42);
        CHECK(rt != NULL);
        for (uint64_t i = 0; i < 10; i++)
            CHECK_EQ(enq(rt, 0, i, 0, 1, 0), OQ_ADMITTED);
        for (uint64_t i = 10; i < 2010; i++)
            if (enq(rt, 0, i, 0, 1, 0) == OQ_ADMITTED)
                CHECK(serve(rt, 0, NULL) >= 0);   /* keep 10 queued */
        if ((int)rec_.ndrops < cases[k].lo || (int)rec_.ndrops > cases[k].hi)
            printf("  %s: %u drops\n", cases[k].cond, rec_.ndrops);
        CHECK((int)rec_.ndrops >= cases[k].lo && (int)rec_.ndrops <= cases[k].hi);
        oq_rt_free(rt);
    }
    /* RED-3 (§2.3.1): nothing dropped below 3/4, everything at 19/20 */
    struct oq_rt *rt = mk("policies/red3.oq", 1);
    CHECK(rt != NULL);
    for (uint64_t i = 0; i < 75; i++)
        CHECK_EQ(enq(rt, 0, i, 0, 1, 0), OQ_ADMITTED);   /* 75 x 1000 B = 75% */
    CHECK_EQ(rec_.ndrops, 0);
    uint32_t before = 0;
    for (uint64_t i = 75; i < 400; i++)
        enq(rt, 0, i, 0, 1, 0);
    struct oq_qstats st;
    oq_queue_stats(rt, 0, &st);
    CHECK_EQ(st.len, 95);           /* never above 95 kB */
    CHECK(rec_.ndrops > before);
    oq_rt_free(rt);
}

TEST(mark_notify_modify_sequence)
{
    struct oq_rt *rt = mk("q1 = Queue(100p); out = Port(q1);\n"
                          "q1.congestion = (length >= 2, mark);\n"
                          "q1.postAdmAct = (length >= 5, modify(admState := 2)).(length >= 1, notify . modify(admState := admState + pkt.size));\n"
                          "out.postSchedAct = (pkt.flow == 3, mark);", 1);
    CHECK(rt != NULL);
    for (uint64_t i = 0; i < 4; i++) {
        struct oq_pkt p = { .handle = i, .size = 100, .queue = 0, .flow = (uint32_t)i };
        CHECK_EQ(oq_enqueue(rt, &p, 0), OQ_ADMITTED);
    }
    double st[4];
    oq_queue_state(rt, 0, st);
    CHECK_EQ(st[0], 400);           /* four times the second case: += size */
    CHECK_EQ(rec_.nnotify, 4);
    CHECK_EQ(rec_.notify_kind, OQ_ENT_QUEUE);
    struct oq_pkt p = { .handle = 4, .size = 100, .queue = 0 };
    CHECK_EQ(oq_enqueue(rt, &p, 0), OQ_ADMITTED);
    oq_queue_state(rt, 0, st);
    CHECK_EQ(st[0], 2);             /* the first case only: cases are exclusive */
    CHECK_EQ(rec_.nnotify, 4);
    static const int want_mark[] = { 0, 0, 1, 1, 1 };   /* 2 queued on arrival: marked; flow 3 at departure */
    for (int i = 0; i < 5; i++) {
        struct oq_pkt o;
        CHECK_EQ(serve(rt, 0, &o), i);
        CHECK_EQ(o.marked, want_mark[i]);
    }
    struct oq_qstats qs;
    oq_queue_stats(rt, 0, &qs);
    CHECK_EQ(qs.marked, 3);
    CHECK_EQ(qs.notified, 4);
    oq_rt_free(rt);
}

TEST(modify_packet_value_reorders)
{
    struct oq_rt *rt = mk("q1 = Queue(100p); out = Port(q1); q1.procPrio = hvf;\n"
                          "q1.postAdmAct = (pkt.flow == 7, modify(pkt.value := 100));", 1);
    CHECK(rt != NULL);
    for (uint64_t i = 0; i < 10; i++) {
        struct oq_pkt p = { .handle = i, .size = 100, .queue = 0, .value = (double)i, .flow = i == 3 ? 7 : 0 };
        CHECK_EQ(oq_enqueue(rt, &p, 0), OQ_ADMITTED);
    }
    struct oq_pkt o;
    CHECK_EQ(serve(rt, 0, &o), 3);
    CHECK_EQ(o.value, 100);
    CHECK_EQ(serve(rt, 0, NULL), 9);
    oq_rt_free(rt);
}

TEST(division_by_zero_is_zero)
{
    struct oq_rt *rt = mk("q1 = Queue(100p); out = Port(q1);\n"
                          "c(a, b) = a.value / (a.size - a.size) > b.value / (b.size - b.size);\n"
                          "q1.procPrio = c; q1.admPrio = c;\n"
                          "q1.postAdmAct = (currSize / 0 == 0 && 0 / 0 == 0, modify(admState := 1 / (length - length) + 7));", 1);
    CHECK(rt != NULL);
    for (uint64_t i = 0; i < 5; i++)
        CHECK_EQ(enq(rt, 0, i, (double)(5 - i), 1, 0), OQ_ADMITTED);
    double st[4];
    oq_queue_state(rt, 0, st);
    CHECK_EQ(st[0], 7);
    for (long long i = 0; i < 5; i++)    /* every key is 0: arrival order */
        CHECK_EQ(serve(rt, 0, NULL), i);
    oq_rt_free(rt);
}

/* The queue of each of n services of port 0. */
static void sched_seq(struct oq_rt *rt, int n, uint32_t *out)
{
    for (int i = 0; i < n; i++) {
        struct oq_pkt o;
        out[i] = serve(rt, 0, &o) >= 0 ? o.queue : 99;
    }
}

TEST(scheduling_comparators)
{
    uint32_t seq[80];
    /* LQF / SQF with lengths 3, 5, 1, 2 */
    static const int len[4] = { 3, 5, 1, 2 };
    const char *files[] = { "policies/lqf.oq", "policies/sqf.oq" };
    static const uint32_t first[] = { 1, 2 };
    for (int f = 0; f < 2; f++) {
        struct oq_rt *rt = mk(files[f], 1);
        CHECK(rt != NULL);
        for (uint32_t q = 0; q < 4; q++)
            for (int i = 0; i < len[q]; i++)
                CHECK_EQ(enq(rt, q, q * 10 + (uint64_t)i, 0, 1, 0), OQ_ADMITTED);
        sched_seq(rt, 1, seq);
        CHECK_EQ(seq[0], first[f]);
        oq_rt_free(rt);
    }
    /* MAXQF / MINQF: by the schedState set in the policy */
    const char *mq[] = { "policies/maxqf.oq", "policies/minqf.oq" };
    for (int f = 0; f < 2; f++) {
        struct oq_rt *rt = mk(mq[f], 1);
        CHECK(rt != NULL);
        for (uint32_t q = 0; q < 4; q++)
            for (int i = 0; i < 2; i++)
                CHECK_EQ(enq(rt, q, q * 10 + (uint64_t)i, 0, q + 1, 0), OQ_ADMITTED);
        sched_seq(rt, 8, seq);
        for (int i = 0; i < 8; i++)
            CHECK_EQ(seq[i], f == 0 ? 3 - (uint32_t)i / 2 : (uint32_t)i / 2);
        oq_rt_free(rt);
    }
    /* CRR: exact rotation, and a queue that comes back is not favoured */
    struct oq_rt *rt = mk("policies/crr.oq", 1);
    CHECK(rt != NULL);
    for (uint32_t q = 0; q < 3; q++)
        for (int i = 0; i < 8; i++)
            CHECK_EQ(enq(rt, q, q * 10 + (uint64_t)i, 0, 1, 0), OQ_ADMITTED);
    sched_seq(rt, 9, seq);
    for (int i = 0; i < 9; i++)
        CHECK_EQ(seq[i], (uint32_t)i % 3);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(enq(rt, 3, 30 + (uint64_t)i, 0, 1, 0), OQ_ADMITTED);
    sched_seq(rt, 8, seq);
    static const uint32_t crr_want[] = { 3, 0, 1, 2, 3, 0, 1, 2 };
    for (int i = 0; i < 8; i++)
        CHECK_EQ(seq[i], crr_want[i]);
    oq_rt_free(rt);
    /* WRR 4:2:1 over 70 packets while all are backlogged */
    rt = mk("policies/wrr.oq", 1);
    CHECK(rt != NULL);
    int count[3] = { 0, 0, 0 };
    uint64_t h = 0;
    for (int i = 0; i < 70; i++) {
        for (uint32_t q = 0; q < 3; q++)     /* top up: 32 queued, the rest dropped */
            for (struct oq_qstats qs; oq_queue_stats(rt, q, &qs), qs.len < 32;)
                CHECK_EQ(enq(rt, q, h++, 0, 1, 0), OQ_ADMITTED);
        sched_seq(rt, 1, seq);
        CHECK(seq[0] < 3);
        count[seq[0]]++;
    }
    CHECK_EQ(count[0], 40);
    CHECK_EQ(count[1], 20);
    CHECK_EQ(count[2], 10);
    oq_rt_free(rt);
    /* strict priority by the HOL packet's value (getHOL) */
    rt = mk("policies/strict_priority.oq", 1);
    CHECK(rt != NULL);
    static const double v[3] = { 3, 2, 1 };     /* high, mid, low: queue order of the file */
    for (int i = 0; i < 6; i++)
        CHECK_EQ(enq(rt, (uint32_t)(i % 3), (uint64_t)i, v[i % 3], 1, 0), OQ_ADMITTED);
    sched_seq(rt, 6, seq);
    static const uint32_t sp_want[] = { 0, 0, 1, 1, 2, 2 };
    for (int i = 0; i < 6; i++)
        CHECK_EQ(seq[i], sp_want[i]);
    oq_rt_free(rt);
}

TEST(hard_limits_and_bad_input)
{
    struct oq_rt *rt = mk("q1 = Queue(3000B); out = Port(q1);", 1);
    CHECK(rt != NULL);
    for (uint64_t i = 0; i < 3; i++) {
        struct oq_pkt p = { .handle = i, .size = 1500, .queue = 0 };
        CHECK_EQ(oq_enqueue(rt, &p, 0), i < 2 ? OQ_ADMITTED : OQ_REFUSED);
    }
    CHECK_EQ(rec_.ndrops, 1);
    CHECK_EQ(rec_.why[0], OQ_DROP_OVERFLOW);
    /* bad queue index, zero size: refused, handed back */
    struct oq_pkt bad = { .handle = 77, .size = 100, .queue = 5 };
    CHECK_EQ(oq_enqueue(rt, &bad, 0), OQ_REFUSED);
    bad.queue = 0;
    bad.size = 0;
    CHECK_EQ(oq_enqueue(rt, &bad, 0), OQ_REFUSED);
    CHECK_EQ(rec_.ndrops, 3);
    CHECK_EQ(oq_service(rt, 9, 0, &bad), OQ_EMPTY);
    oq_rt_free(rt);
    /* the slot cap bounds a queue declared huge */
    oq_policy_free(pol_);
    pol_ = oq_compile("q1 = Queue(1GB); out = Port(q1);", 32, "t.oq", err_, sizeof err_);
    CHECK(pol_ != NULL);
    struct oq_rt_params prm = { .seed = 1, .max_queue_slots = 8 };
    struct oq_sink sink = { .ctx = &rec_, .drop = on_drop };
    rt = oq_rt_new(pol_, &prm, &sink);
    CHECK(rt != NULL);
    int adm = 0;
    for (uint64_t i = 0; i < 20; i++)
        adm += enq(rt, 0, i, 0, 1, 0) == OQ_ADMITTED;
    CHECK_EQ(adm, 8);
    oq_rt_free(rt);
    /* time never goes back: an earlier time is taken as the last one */
    rt = mk("policies/fifo_taildrop.oq", 1);
    CHECK(rt != NULL);
    CHECK_EQ(enq(rt, 0, 0, 0, 1, 1000), OQ_ADMITTED);
    CHECK_EQ(enq(rt, 0, 1, 0, 1, 10), OQ_ADMITTED);
    struct oq_pkt o;
    CHECK_EQ(serve(rt, 0, &o), 0);
    CHECK_EQ(serve(rt, 0, &o), 1);
    CHECK_EQ(o.arrival, 1000);
    oq_rt_free(rt);
}

TEST(classify)
{
    struct oq_rt *rt = mk("a = Queue(8p); b = Queue(8p); c = Queue(8p); d = Queue(8p);\n"
                          "p1 = Port(a, b); p2 = Port(c, d); p2.queueSelect = select_flow;", 1);
    CHECK(rt != NULL);
    struct oq_pkt p = { .queue = 99, .flow = 5 };
    CHECK_EQ(oq_classify(rt, 0, &p), 0);       /* select_first */
    p.queue = 99;
    CHECK_EQ(oq_classify(rt, 1, &p), 3);       /* flow 5 mod 2 = 1 -> d */
    p.queue = 2;
    CHECK_EQ(oq_classify(rt, 1, &p), 2);       /* the classifier's own choice stands */
    oq_rt_free(rt);
}

/* §2.5.4 Experiment 1 on one port: two sources, high-value (63) and
 * low-value (1) packets with heterogeneous processing (1-4 cycles), the
 * port giving one cycle per slot; offered load above capacity.  Weighted
 * throughput (total value sent) must order A < B < C. */
static double exp1(const char *file, double load, uint64_t seed)
{
    struct oq_rt *rt = mk(file, seed);
    if (!rt)
        return -1;
    struct rng r;
    rng_seed(&r, seed);
    double sent = 0;
    uint64_t h = 0;
    for (uint64_t t = 0; t < 200000; t++) {
        /* each source sends a packet per slot with probability load / 2 / mean cycles */
        for (int src = 0; src < 2; src++) {
            if (rng_uniform(&r) >= load / 2 / 2.5)
                continue;
            int high = rng_uniform(&r) < 0.3;
            struct oq_pkt p = { .handle = h++, .size = 1500, .queue = 0, .value = high ? 63 : 1,
                                .processing = 1 + (uint32_t)rng_below(&r, 4) };
            oq_enqueue(rt, &p, t);
        }
        struct oq_pkt o;
        if (oq_service(rt, 0, t, &o) == OQ_SENT)
            sent += o.value;
    }
    oq_rt_free(rt);
    return sent;
}

TEST(experiment1_weighted_throughput)
{
    for (int l = 0; l < 3; l++) {
        double load = 1.2 + 0.4 * l;
        double a = exp1("policies/alg_a.oq", load, 3), b = exp1("policies/alg_b.oq", load, 3),
               c = exp1("policies/alg_c.oq", load, 3);
        printf("  load %.1f: weighted throughput A %.0f  B %.0f  C %.0f\n", load, a, b, c);
        CHECK(a > 0);
        CHECK(a < b);
        CHECK(b < c);
    }
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_oq_runtime";
    RUN(fifo_ring_and_tail_drop);
    RUN(heap_order_random);
    RUN(srpt_processing_cycles);
    RUN(push_out_lowest_value);
    RUN(lqd_shared_buffer);
    RUN(drop_probability);
    RUN(mark_notify_modify_sequence);
    RUN(modify_packet_value_reorders);
    RUN(division_by_zero_is_zero);
    RUN(scheduling_comparators);
    RUN(hard_limits_and_bad_input);
    RUN(classify);
    RUN(experiment1_weighted_throughput);
    oq_policy_free(pol_);
    return test_summary();
}
