/* test_oq_xbar.c -- the buffered crossbar over the OpenQueue runtime
 * (src/openqueue/oq_xbar.c): hand-computed LQF picks at the inputs and at
 * the outputs (and the different picks of port order and SQF, so a fabric
 * that ignores the policy's scheduler fails here), crosspoint and output
 * back-pressure with no loss, order within a (input, output) pair, packet
 * conservation under random load, the generator and structural errors.
 *
 * Timing of every test: transfers at 8 Gb/s, 1000-byte packets, no
 * overhead: one transfer takes exactly 1 us. */
#include "openqueue/oq_xbar.h"
#include "core/rng.h"
#include "test.h"

#define US 1000000ull
#define PKT 1000u

static char err_[600];
static struct rec {
    uint64_t drops, last_drop_handle;
    int last_stage;
    uint32_t ready[8];
} rec_;

static void on_drop(void *ctx, const struct oq_pkt *p, enum oqx_stage stage, enum oq_drop_reason why)
{
    struct rec *r = ctx;
    r->drops++;
    r->last_drop_handle = p->handle;
    r->last_stage = stage;
}
static void on_ready(void *ctx, uint32_t out)
{
    struct rec *r = ctx;
    if (out < 8)
        r->ready[out]++;
}

static struct oq_policy *pol_;

/* An N-port fabric of a generated policy. */
static struct oqx *fabric(uint32_t n, const char *voq, const char *xp, const char *oq, const char *in_s,
                          const char *out_s)
{
    memset(&rec_, 0, sizeof rec_);
    oq_policy_free(pol_);
    pol_ = NULL;
    char *text = oqx_policy_text(n, voq, xp, oq, in_s, out_s);
    if (!text)
        return NULL;
    pol_ = oq_compile(text, strlen(text), "gen.oq", err_, sizeof err_);
    free(text);
    if (!pol_) {
        printf("  %s\n", err_);
        return NULL;
    }
    static uint64_t bps[OQX_MAX_PORTS];
    for (uint32_t k = 0; k < n; k++)
        bps[k] = 8000000000ull;
    struct oqx_params prm = { .nports = n, .xfer_bps = bps, .seed = 1 };
    struct oqx_sink s = { .ctx = &rec_, .drop = on_drop, .ready = on_ready };
    struct oqx *x = oqx_new(pol_, &prm, &s, err_, sizeof err_);
    if (!x)
        printf("  %s\n", err_);
    return x;
}

static int arrive(struct oqx *x, uint32_t in, uint32_t out, uint64_t handle, uint64_t now)
{
    struct oq_pkt p = { .handle = handle, .size = PKT, .flow = in * 100 + out };
    return oqx_arrive(x, in, out, &p, now);
}

static uint64_t enq(struct oqx *x, uint32_t q)
{
    struct oq_qstats st;
    oq_queue_stats(oqx_runtime(x), q, &st);
    return st.enqueued;
}
static uint32_t len(struct oqx *x, uint32_t q)
{
    struct oq_qstats st;
    oq_queue_stats(oqx_runtime(x), q, &st);
    return st.len;
}

/* Input 0 gets A for output 1, then B1 B2 for output 2 and C1 C2 C3 for
 * output 0, all at t = 0.  A starts at once (the input was idle); at each
 * later microsecond the input picks a VOQ.  Returns the outputs picked at
 * t = 0..5 us as digits ("120202"), read from the crosspoints' enqueue
 * counters after each transfer ends. */
static void input_sequence(const char *sched, char *seq)
{
    struct oqx *x = fabric(3, "8p", "8p", "8p", sched, "lqf");
    if (!x) {
        strcpy(seq, "?");
        return;
    }
    arrive(x, 0, 1, 1, 0);
    arrive(x, 0, 2, 2, 0);
    arrive(x, 0, 2, 3, 0);
    for (int k = 0; k < 3; k++)
        arrive(x, 0, 0, 4 + k, 0);
    uint64_t before[3] = { 0, 0, 0 };
    int n = 0;
    for (uint64_t t = 1; t <= 6; t++) {
        oqx_advance(x, t * US);
        for (uint32_t j = 0; j < 3; j++) {
            uint64_t e = enq(x, oqx_xpoint(x, 0, j));
            if (e != before[j])
                seq[n++] = (char)('0' + j);
            before[j] = e;
        }
    }
    seq[n] = '\0';
    oqx_free(x);
}

TEST(lqf_at_input)
{
    char seq[16];
    /* LQF: A; then voq00 (3) over voq02 (2): C1; 2 vs 2, the first declared:
     * C2; 1 vs 2: B1; 1 vs 1: C3; B2 */
    input_sequence("lqf", seq);
    CHECK_STR(seq, "100202");
    /* port order (no schedPrio): every C before any B */
    input_sequence("", seq);
    CHECK_STR(seq, "100022");
    /* SQF: the shorter first: B1 B2, then C1 C2 C3 */
    input_sequence("sqf", seq);
    CHECK_STR(seq, "122000");
}

/* Output 0's column: input 0 sends a1, input 1 b1 b2 b3, input 2 c1 c2, all
 * at t = 0; oq0 holds one packet and the egress takes one every 10 us from
 * t = 10 us.  a1 reaches cq00 first (inputs complete in index order at
 * t = 1) and is alone: it goes first and fills oq0 at t = 2.  By t = 3 the
 * column holds cq10 = b1 b2 b3, cq20 = c1 c2.  Then LQF: b1 (3 vs 2), b2
 * (2 vs 2, the first declared), c1 (1 vs 2), b3 (1 vs 1), c2. */
static void output_sequence(const char *sched, char *seq)
{
    struct oqx *x = fabric(3, "8p", "8p", "1p", "lqf", sched);
    if (!x) {
        strcpy(seq, "?");
        return;
    }
    arrive(x, 0, 0, 'a', 0);
    for (int k = 0; k < 3; k++)
        arrive(x, 1, 0, 'b', 0);
    for (int k = 0; k < 2; k++)
        arrive(x, 2, 0, 'c', 0);
    int n = 0;
    for (uint64_t t = 1; t <= 100; t++) {
        oqx_advance(x, t * US);
        struct oq_pkt p;
        if (t % 10 == 0 && oqx_take(x, 0, t * US, &p) == OQ_SENT)
            seq[n++] = (char)p.handle;
    }
    seq[n] = '\0';
    oqx_free(x);
}

TEST(lqf_at_output)
{
    char seq[16];
    output_sequence("lqf", seq);
    CHECK_STR(seq, "abbcbc");
    output_sequence("", seq);           /* port order: every b before any c */
    CHECK_STR(seq, "abbbcc");
    output_sequence("sqf", seq);        /* after a1: c1 (2 < 3), c2 (1 < 3), then b */
    CHECK_STR(seq, "accbbb");
}

/* Ten packets from input 0 to output 0; crosspoints and output queues of 2
 * packets; the egress takes nothing until t = 10 us.  Hand-computed: P1
 * reaches cq00 at 1 us and oq0 at 2; P2 cq00 at 2, oq0 at 3 (oq0 full);
 * P3 cq00 at 3, P4 at 4 (cq00 full): from then on the input is blocked
 * and the VOQ keeps the other 6.  Nothing is lost; the ready callback
 * fired once (oq0 became non-empty at 2 us). */
TEST(back_pressure_no_loss)
{
    struct oqx *x = fabric(3, "16p", "2p", "2p", "lqf", "lqf");
    CHECK(x);
    for (int k = 1; k <= 10; k++)
        CHECK_EQ(arrive(x, 0, 0, (uint64_t)k, 0), OQ_ADMITTED);
    oqx_advance(x, 2 * US);
    CHECK_EQ(len(x, oqx_outq(x, 0)), 1);
    CHECK_EQ(rec_.ready[0], 1);
    for (uint64_t t = 3; t <= 9; t++)
        oqx_advance(x, t * US);
    CHECK_EQ(len(x, oqx_outq(x, 0)), 2);
    CHECK_EQ(len(x, oqx_xpoint(x, 0, 0)), 2);
    CHECK_EQ(len(x, oqx_voq(x, 0, 0)), 6);
    CHECK_EQ(oqx_next(x), UINT64_MAX);   /* nothing moving: blocked */
    CHECK_EQ(rec_.drops, 0);
    struct oqx_stats st;
    oqx_get_stats(x, &st);
    CHECK(st.in_blocked >= 1);
    CHECK(st.out_blocked >= 1);
    CHECK_EQ(oqx_held(x), 10);
    CHECK_EQ(oqx_held_for(x, 0), 10);
    CHECK_EQ(oqx_held_for(x, 1), 0);
    /* the egress takes P1 at 10 us: P3 moves cq00 -> oq0 and P5 voq -> cq00,
     * both in transfer until 11 us */
    struct oq_pkt p;
    CHECK_EQ(oqx_take(x, 0, 10 * US, &p), OQ_SENT);
    CHECK_EQ(p.handle, 1);
    CHECK_EQ(oqx_next(x), 11 * US);
    CHECK_EQ(oqx_held(x), 9);
    oqx_advance(x, 11 * US);
    CHECK_EQ(len(x, oqx_outq(x, 0)), 2);
    CHECK_EQ(len(x, oqx_xpoint(x, 0, 0)), 2);
    CHECK_EQ(len(x, oqx_voq(x, 0, 0)), 5);
    /* drain: order within the pair is kept */
    uint64_t want = 2;
    for (uint64_t t = 12; t <= 60; t++) {
        oqx_advance(x, t * US);
        if (oqx_take(x, 0, t * US, &p) == OQ_SENT)
            CHECK_EQ(p.handle, want++);
    }
    CHECK_EQ(want, 11);
    CHECK_EQ(oqx_held(x), 0);
    CHECK_EQ(rec_.drops, 0);
    oqx_free(x);
}

/* Draining output 0 (a failed link) takes every packet for it from every
 * level and transfer, and leaves output 1's alone. */
TEST(drain_one_output)
{
    struct oqx *x = fabric(3, "8p", "2p", "2p", "lqf", "lqf");
    CHECK(x);
    for (int k = 0; k < 6; k++) {
        arrive(x, 0, 0, 100 + (uint64_t)k, 0);
        arrive(x, 1, 0, 200 + (uint64_t)k, 0);
        arrive(x, 2, 1, 300 + (uint64_t)k, 0);
    }
    oqx_advance(x, 3 * US + US / 2);             /* packets at every level, transfers in flight */
    CHECK_EQ(oqx_held_for(x, 0), 12);
    CHECK_EQ(oqx_held_for(x, 1), 6);
    struct oq_pkt p;
    uint64_t got = 0;
    while (oqx_drain(x, 0, &p)) {
        CHECK(p.handle >= 100 && p.handle < 300);
        got++;
    }
    CHECK_EQ(got, 12);
    CHECK_EQ(oqx_held_for(x, 0), 0);
    CHECK_EQ(oqx_held(x), 6);
    CHECK_EQ(oqx_drain(x, 7, &p), 0);
    /* output 1 still delivers all six, in order */
    uint64_t want = 300;
    for (uint64_t t = 4; t <= 40; t++) {
        oqx_advance(x, t * US);
        if (oqx_take(x, 1, t * US, &p) == OQ_SENT)
            CHECK_EQ(p.handle, want++);
    }
    CHECK_EQ(want, 306);
    oqx_free(x);
}

/* The only loss point with tail drop is a full VOQ: the 5th arrival to a
 * 4-packet VOQ whose first packet is already in transfer is the 6th. */
TEST(voq_tail_drop)
{
    struct oqx *x = fabric(2, "4p", "1p", "1p", "lqf", "lqf");
    CHECK(x);
    for (int k = 1; k <= 5; k++)
        CHECK_EQ(arrive(x, 1, 0, (uint64_t)k, 0), OQ_ADMITTED);   /* #1 left for the crosspoint */
    CHECK_EQ(arrive(x, 1, 0, 6, 0), OQ_REFUSED);
    CHECK_EQ(rec_.drops, 1);
    CHECK_EQ(rec_.last_drop_handle, 6);
    CHECK_EQ(rec_.last_stage, OQX_VOQ);
    struct oqx_stats st;
    oqx_get_stats(x, &st);
    CHECK_EQ(st.dropped[OQX_VOQ], 1);
    CHECK_EQ(st.dropped[OQX_XPOINT] + st.dropped[OQX_OUTQ], 0);
    CHECK_EQ(oqx_held(x), 5);
    /* a port out of range is refused, not a crash */
    CHECK_EQ(arrive(x, 2, 0, 7, 0), OQ_REFUSED);
    CHECK_EQ(rec_.drops, 2);
    oqx_free(x);
}

/* Random load on a 4x4 fabric with small queues: at every step arrived =
 * sent + dropped + held, and each (input, output) pair's packets leave in
 * the order they arrived. */
TEST(conservation_and_order_random)
{
    struct oqx *x = fabric(4, "6p", "2p", "2p", "lqf", "lqf");
    CHECK(x);
    struct rng r;
    rng_seed(&r, 7);
    uint64_t next_seq[16] = { 0 }, want_seq[16] = { 0 }, sent = 0, arrived = 0;
    uint64_t t = 0;
    for (int step = 0; step < 20000; step++) {
        t += 1 + rng_below(&r, 700000);            /* about 2.8 arrivals per transfer time */
        oqx_advance(x, t);
        uint32_t in = (uint32_t)rng_below(&r, 4), out = (uint32_t)rng_below(&r, 4);
        uint32_t pair = in * 4 + out;
        struct oq_pkt p = { .size = 64 + (uint32_t)rng_below(&r, 1437) };
        p.handle = ((uint64_t)pair << 32) | next_seq[pair];
        if (oqx_arrive(x, in, out, &p, t) == OQ_ADMITTED)
            next_seq[pair]++;
        arrived++;
        for (uint32_t j = 0; j < 4; j++) {
            if (rng_below(&r, 3))
                continue;
            struct oq_pkt o;
            if (oqx_take(x, j, t, &o) == OQ_SENT) {
                uint32_t pr = (uint32_t)(o.handle >> 32);
                CHECK_EQ(pr % 4, j);
                CHECK_EQ(o.handle & 0xffffffffu, want_seq[pr]);
                want_seq[pr]++;
                sent++;
            }
        }
        CHECK_EQ(arrived, sent + rec_.drops + oqx_held(x));
    }
    struct oqx_stats st;
    oqx_get_stats(x, &st);
    CHECK(rec_.drops > 0);                       /* the load overflowed VOQs... */
    CHECK_EQ(st.dropped[OQX_XPOINT] + st.dropped[OQX_OUTQ], 0);   /* ...never a crosspoint or output queue */
    CHECK(sent > 1000);
    oqx_free(x);
}

TEST(generator_and_structure_errors)
{
    /* names: Fig. 2.13's up to 9 ports, with '_' from 10 */
    char *t = oqx_policy_text(3, "32p", "32p", "32p", "lqf", "lqf");
    CHECK(t && strstr(t, "in1 = Port(100%, voq11, voq12, voq13);") && strstr(t, "col2 = Port(100%, cq12, cq22, cq32);"));
    free(t);
    t = oqx_policy_text(12, "32p", "16KB", "32p", "lqf", "");
    CHECK(t && strstr(t, "voq12_11 = Queue(VOQ);") && !strstr(t, "col1.schedPrio"));
    struct oq_policy *p = oq_compile(t, strlen(t), "g12.oq", err_, sizeof err_);
    free(t);
    CHECK(p);
    CHECK_EQ(oq_nqueues(p), 2 * 144 + 12);
    oq_policy_free(p);
    CHECK(oqx_policy_text(0, "1p", "1p", "1p", "lqf", "lqf") == NULL);
    CHECK(oqx_policy_text(OQX_MAX_PORTS + 1, "1p", "1p", "1p", "lqf", "lqf") == NULL);
    CHECK(oqx_policy_text(3, "32p; x = 1", "1p", "1p", "lqf", "lqf") == NULL);
    CHECK(oqx_policy_text(3, "1p", "1p", "1p", "lqf(x)", "lqf") == NULL);
    /* the largest fabric compiles (2N^2 + 3N entities within the limit) */
    t = oqx_policy_text(OQX_MAX_PORTS, "4p", "2p", "2p", "lqf", "lqf");
    CHECK(t);
    p = oq_compile(t, strlen(t), "g44.oq", err_, sizeof err_);
    free(t);
    if (!p)
        printf("  %s\n", err_);
    CHECK(p);
    oq_policy_free(p);

    /* the shipped 3x3 policy is a valid fabric; a 4-port switch is not */
    p = oq_compile_file("policies/crossbar.oq", err_, sizeof err_);
    CHECK(p);
    uint64_t bps[4] = { 1, 1, 1, 1 };
    struct oqx *x = oqx_new(p, &(struct oqx_params){ .nports = 3, .xfer_bps = bps }, NULL, err_, sizeof err_);
    CHECK(x);
    oqx_free(x);
    x = oqx_new(p, &(struct oqx_params){ .nports = 4, .xfer_bps = bps }, NULL, err_, sizeof err_);
    CHECK(!x);
    CHECK(strstr(err_, "policies/crossbar.oq: a 4-port buffered crossbar needs a queue 'voq14'"));
    bps[1] = 0;
    CHECK(!oqx_new(p, &(struct oqx_params){ .nports = 3, .xfer_bps = bps }, NULL, err_, sizeof err_));
    CHECK(strstr(err_, "transfer rate 0"));
    oq_policy_free(p);

    /* a crosspoint on the wrong column */
    static const char bad[] =
        "voq11 = Queue(4p); voq12 = Queue(4p); voq21 = Queue(4p); voq22 = Queue(4p);\n"
        "in1 = Port(voq11, voq12); in2 = Port(voq21, voq22);\n"
        "cq11 = Queue(2p); cq12 = Queue(2p); cq21 = Queue(2p); cq22 = Queue(2p);\n"
        "col1 = Port(cq11, cq22); col2 = Port(cq12, cq21);\n"
        "oq1 = Queue(2p); oq2 = Queue(2p); out1 = Port(oq1); out2 = Port(oq2);\n";
    p = oq_compile(bad, strlen(bad), "bad.oq", err_, sizeof err_);
    CHECK(p);
    bps[1] = 1;
    x = oqx_new(p, &(struct oqx_params){ .nports = 2, .xfer_bps = bps }, NULL, err_, sizeof err_);
    CHECK(!x);
    CHECK(strstr(err_, "bad.oq: port 'col1' of the buffered crossbar must hold exactly its 2 queues"));
    oq_policy_free(p);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_oq_xbar";
    RUN(lqf_at_input);
    RUN(lqf_at_output);
    RUN(back_pressure_no_loss);
    RUN(drain_one_output);
    RUN(voq_tail_drop);
    RUN(conservation_and_order_random);
    RUN(generator_and_structure_errors);
    oq_policy_free(pol_);
    return test_summary();
}
