/*
 * test_loopbreak.c -- unit tests of the credit-loop token detector and the
 * Loop Breaker / Deadlock Breaker reactions (src/cc/loopbreak.h), on
 * hand-computed sequences.
 *
 * Fixture: switches with 3 ports each: 0 = host, 1 = ring egress (to the
 * next switch), 2 = ring ingress (from the previous one).  A token sent out
 * of port 1 of ring[k] arrives on port 2 of ring[k+1].  SPUID of (switch id
 * s, port p) = (s + 1) << 8 | p, so ring switch ids 0, 1, 2 have ring-egress
 * SPUIDs 257, 513, 769: the largest, switch 2, must be the single master.
 */
#include "test.h"

#include "cc/loopbreak.h"

#define US 1000000ull
#define NP 3
#define NSW 3

static struct lb_sw sw[NSW];
static uint64_t mem[NSW][512];
static struct lb_obs obs[NSW][NP];

static void setup(enum lb_mode mode)
{
    struct lb_params p;
    lb_default_params(&p, mode, 40000000000ull, 1 * US, 1048);
    memset(obs, 0, sizeof obs);
    for (uint32_t k = 0; k < NSW; k++) {
        if (lb_storage_bytes(NP) > sizeof mem[k])
            abort();
        if (lb_init(&sw[k], &p, k, NP, mem[k]) != 0)
            abort();
    }
}

/* Switch k is blocked: 5000 B from its ring ingress wait at its ring egress,
 * which sends nothing. */
static void block(uint32_t k)
{
    lb_on_enqueue(&sw[k], 2, 1, 5000);
    obs[k][1].queued_bytes = 5000;
}

/* Tick every switch at time t; the actions of switch k go to act[k]. */
static uint32_t nact[NSW];
static struct lb_action act[NSW][2 * NP];
static void tick_all(uint64_t t)
{
    for (uint32_t k = 0; k < NSW; k++)
        nact[k] = lb_tick(&sw[k], t, obs[k], act[k], 2 * NP);
}

static int count_kind(const struct lb_action *a, uint32_t n, uint8_t kind)
{
    int c = 0;
    for (uint32_t i = 0; i < n; i++)
        c += a[i].kind == kind;
    return c;
}

/* Deliver token tok, sent by ring[k] out of its port 1, to ring[k+1]; the
 * resulting actions go to out. */
static uint32_t deliver(uint32_t k, const struct lb_token *tok, uint64_t t, struct lb_action *out)
{
    return lb_on_token(&sw[(k + 1) % NSW], t, 2, tok, out, 4);
}

TEST(loop_detected_after_token_returns)
{
    setup(LB_MODE_DROP);
    for (uint32_t k = 0; k < NSW; k++)
        block(k);
    tick_all(0);                               /* first look: nothing suspected yet */
    for (uint32_t k = 0; k < NSW; k++)
        CHECK_EQ(nact[k], 0);
    tick_all(90 * US);                         /* stalled 90 µs < 100 µs */
    for (uint32_t k = 0; k < NSW; k++)
        CHECK_EQ(nact[k], 0);
    tick_all(100 * US);                        /* each ring egress sends its DETECT */
    for (uint32_t k = 0; k < NSW; k++) {
        CHECK_EQ(nact[k], 1);
        CHECK_EQ(act[k][0].kind, LB_ACT_SEND);
        CHECK_EQ(act[k][0].port, 1);
        CHECK_EQ(act[k][0].tok.kind, LB_TOK_DETECT);
        CHECK_EQ(act[k][0].tok.hops, 0);
        CHECK_EQ(act[k][0].tok.origin, ((k + 1) << 8) | 1);
    }
    struct lb_action out[4];
    /* 257 reaches switch 1 (513): suppressed; 513 reaches switch 2: suppressed */
    CHECK_EQ(deliver(0, &act[0][0].tok, 101 * US, out), 0);
    CHECK_EQ(sw[1].st.suppressed, 1);
    CHECK_EQ(deliver(1, &act[1][0].tok, 101 * US, out), 0);
    CHECK_EQ(sw[2].st.suppressed, 1);
    /* 769 goes round: switch 0 forwards (hops 1), switch 1 forwards (hops 2) */
    CHECK_EQ(deliver(2, &act[2][0].tok, 101 * US, out), 1);
    CHECK_EQ(out[0].kind, LB_ACT_SEND);
    CHECK_EQ(out[0].port, 1);
    CHECK_EQ(out[0].tok.hops, 1);
    CHECK_EQ(out[0].tok.origin, 769);
    struct lb_token t1 = out[0].tok;
    CHECK_EQ(deliver(0, &t1, 102 * US, out), 1);
    CHECK_EQ(out[0].tok.hops, 2);
    struct lb_token t2 = out[0].tok;
    /* back at switch 2: loop confirmed, LB drops the frames of ingress 2 queued at egress 1 */
    uint32_t n = deliver(1, &t2, 103 * US, out);
    CHECK_EQ(n, 2);
    CHECK_EQ(out[0].kind, LB_ACT_LOOP);
    CHECK_EQ(out[0].port, 1);
    CHECK_EQ(out[0].in_port, 2);
    CHECK_EQ(out[1].kind, LB_ACT_DROP);
    CHECK_EQ(out[1].port, 1);
    CHECK_EQ(out[1].in_port, 2);
    CHECK_EQ(sw[2].st.loops, 1);
    CHECK_EQ(sw[0].st.loops + sw[1].st.loops, 0);
    CHECK_EQ(sw[0].st.forwarded + sw[1].st.forwarded, 2);
}

TEST(no_detection_on_chain_without_cycle)
{
    /* switch 2 (largest id) still transmits: 0 -> 1 -> 2 is a paused chain
     * that ends at 2, not a cycle. */
    setup(LB_MODE_DROP);
    block(0);
    block(1);
    lb_on_enqueue(&sw[2], 2, 1, 5000);
    obs[2][1].queued_bytes = 5000;
    uint64_t tx = 0;
    struct lb_action out[4];
    for (uint64_t t = 0; t <= 1000 * US; t += 10 * US) {
        obs[2][1].tx_bytes = tx += 1000;      /* switch 2's egress makes progress */
        tick_all(t);
        CHECK_EQ(nact[2], 0);
        for (uint32_t k = 0; k < 2; k++)
            for (uint32_t i = 0; i < nact[k]; i++) {
                /* follow each token along the chain until it dies */
                struct lb_token tok = act[k][i].tok;
                uint32_t at = k;
                for (int hop = 0; hop < 10; hop++) {
                    uint32_t m = deliver(at, &tok, t, out);
                    CHECK(count_kind(out, m, LB_ACT_LOOP) == 0 && count_kind(out, m, LB_ACT_DROP) == 0);
                    if (m == 0)
                        break;
                    tok = out[0].tok;
                    at = (at + 1) % NSW;
                }
            }
    }
    CHECK_EQ(sw[0].st.loops + sw[1].st.loops + sw[2].st.loops, 0);
    CHECK_EQ(sw[2].st.dead_end, 10);          /* 257 and 513 die at 2 every 100 µs: t=100..1000 µs, 513 only */
    CHECK(sw[0].st.originated >= 9);
}

TEST(token_expires)
{
    /* A DETECT whose origin is off the ring (larger than every ring SPUID)
     * circulates: each switch forwards it, and it dies after max_hops. */
    setup(LB_MODE_DROP);
    for (uint32_t k = 0; k < NSW; k++)
        block(k);
    tick_all(0);
    tick_all(100 * US);
    struct lb_token tok = { LB_TOK_DETECT, 0, (1000u << 8) | 3, 7 };
    struct lb_action out[4];
    uint32_t at = 2, forwards = 0;
    for (;;) {
        uint32_t m = deliver(at, &tok, 100 * US, out);
        if (m == 0)
            break;
        CHECK_EQ(m, 1);
        CHECK_EQ(out[0].tok.hops, tok.hops + 1);
        tok = out[0].tok;
        at = (at + 1) % NSW;
        forwards++;
        CHECK(forwards < 100);
    }
    CHECK_EQ(forwards, 15);                   /* hops 1..15; the 16th forward would reach max_hops 16 */
    CHECK_EQ(sw[0].st.expired + sw[1].st.expired + sw[2].st.expired, 1);
    CHECK_EQ(sw[0].st.loops + sw[1].st.loops + sw[2].st.loops, 0);
}

TEST(stall_clock_restarts_and_token_period)
{
    setup(LB_MODE_DROP);
    block(0);
    tick_all(0);
    tick_all(60 * US);
    obs[0][1].tx_bytes = 1000;                /* progress at 70 µs restarts the clock */
    tick_all(70 * US);
    tick_all(160 * US);
    CHECK_EQ(nact[0], 0);                     /* stalled 90 µs only */
    tick_all(170 * US);
    CHECK_EQ(nact[0], 1);
    CHECK_EQ(act[0][0].tok.seq, 1);
    tick_all(260 * US);
    CHECK_EQ(nact[0], 0);                     /* next token one period later */
    tick_all(270 * US);
    CHECK_EQ(nact[0], 1);
    CHECK_EQ(act[0][0].tok.seq, 2);
    obs[0][1].queued_bytes = 0;               /* drained: no longer suspected */
    tick_all(370 * US);
    CHECK_EQ(nact[0], 0);
    CHECK_EQ(sw[0].ep[1].suspected, 0);
}

TEST(holdoff_after_confirmation)
{
    setup(LB_MODE_DROP);
    block(2);
    tick_all(0);
    tick_all(100 * US);
    CHECK_EQ(nact[2], 1);
    struct lb_action out[4];
    struct lb_token back = act[2][0].tok;
    back.hops = 2;
    CHECK_EQ(lb_on_token(&sw[2], 103 * US, 2, &back, out, 4), 2);
    CHECK_EQ(lb_on_token(&sw[2], 150 * US, 2, &back, out, 4), 0);   /* within hold-off */
    CHECK_EQ(sw[2].st.held_off, 1);
    tick_all(200 * US);
    CHECK_EQ(nact[2], 0);                     /* no token during hold-off (until 203 µs) */
    tick_all(210 * US);
    CHECK_EQ(nact[2], 1);
    CHECK_EQ(lb_on_token(&sw[2], 211 * US, 2, &back, out, 4), 2);   /* a new round acts again */
    CHECK_EQ(sw[2].st.loops, 2);
}

TEST(dlb_release_grants_round_the_loop)
{
    setup(LB_MODE_BUFFER);
    for (uint32_t k = 0; k < NSW; k++)
        block(k);
    tick_all(0);
    tick_all(100 * US);
    struct lb_action out[4];
    struct lb_token tok = act[2][0].tok;      /* 769 goes round */
    CHECK_EQ(deliver(2, &tok, 101 * US, out), 1);
    tok = out[0].tok;
    CHECK_EQ(deliver(0, &tok, 102 * US, out), 1);
    tok = out[0].tok;
    uint32_t n = deliver(1, &tok, 103 * US, out);     /* master: LOOP, GRANT(2), RELEASE out of 1 */
    CHECK_EQ(n, 3);
    CHECK_EQ(out[0].kind, LB_ACT_LOOP);
    CHECK_EQ(out[1].kind, LB_ACT_GRANT);
    CHECK_EQ(out[1].in_port, 2);
    CHECK_EQ(out[1].bytes, 2 * 5000 + 2 * 1048);      /* 2 x BDP (40 Gb/s x 1 µs = 5000 B) + 2 MTU */
    CHECK_EQ(out[2].kind, LB_ACT_SEND);
    CHECK_EQ(out[2].tok.kind, LB_TOK_RELEASE);
    CHECK_EQ(out[2].tok.origin, 769);
    tok = out[2].tok;
    for (uint32_t k = 2, i = 0; i < 2; i++, k = (k + 1) % NSW) {   /* switches 0 and 1 grant and forward */
        n = deliver(k, &tok, 104 * US, out);
        CHECK_EQ(n, 2);
        CHECK_EQ(out[0].kind, LB_ACT_GRANT);
        CHECK_EQ(out[0].in_port, 2);
        CHECK_EQ(out[1].kind, LB_ACT_SEND);
        CHECK_EQ(out[1].tok.hops, i + 1);
        tok = out[1].tok;
    }
    CHECK_EQ(deliver(1, &tok, 105 * US, out), 0);     /* back at the master: done */
    CHECK_EQ(sw[2].st.release_done, 1);
    CHECK_EQ(sw[0].st.grants + sw[1].st.grants + sw[2].st.grants, 3);
    /* grants last 100 µs: switch 2's (from 103 µs) ends at the tick of 210 µs, not 200 */
    tick_all(200 * US);
    CHECK_EQ(count_kind(act[2], nact[2], LB_ACT_UNGRANT), 0);
    tick_all(210 * US);
    for (uint32_t k = 0; k < NSW; k++) {
        CHECK_EQ(count_kind(act[k], nact[k], LB_ACT_UNGRANT), 1);
    }
    tick_all(220 * US);
    for (uint32_t k = 0; k < NSW; k++)
        CHECK_EQ(count_kind(act[k], nact[k], LB_ACT_UNGRANT), 0);
}

TEST(malformed_tokens_have_no_effect)
{
    setup(LB_MODE_DROP);
    for (uint32_t k = 0; k < NSW; k++)
        block(k);
    tick_all(0);
    tick_all(100 * US);
    struct lb_sw before = sw[2];
    struct lb_eport ep_before[NP];
    memcpy(ep_before, sw[2].ep, sizeof ep_before);
    struct lb_action out[4];
    struct lb_token own = { LB_TOK_DETECT, 2, 769, 1 };
    struct lb_token bad[] = {
        { 0, 0, 769, 1 },                       /* kind */
        { 9, 0, 769, 1 },
        { LB_TOK_DETECT, 16, 769, 1 },          /* hops >= max_hops */
        { LB_TOK_DETECT, 255, 769, 1 },
        { LB_TOK_DETECT, 0, 0x42, 1 },          /* origin without a switch */
        { LB_TOK_RELEASE, 0, 769, 1 },          /* RELEASE to a Loop Breaker */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_EQ(lb_on_token(&sw[2], 101 * US, 2, &bad[i], out, 4), 0);
    CHECK_EQ(lb_on_token(&sw[2], 101 * US, NP, &own, out, 4), 0);      /* no such port */
    CHECK_EQ(lb_on_token(&sw[2], 101 * US, 1000, &own, out, 4), 0);
    CHECK_EQ(sw[2].st.malformed, 8);
    CHECK_EQ(sw[2].st.loops, 0);
    CHECK(memcmp(ep_before, sw[2].ep, sizeof ep_before) == 0);
    before.st.malformed = sw[2].st.malformed;
    CHECK(memcmp(&before.st, &sw[2].st, sizeof before.st) == 0);
    /* the well-formed one on the right port still works */
    CHECK_EQ(lb_on_token(&sw[2], 101 * US, 2, &own, out, 4), 2);

    /* wire format */
    uint8_t b[LB_TOKEN_BYTES + 4];
    struct lb_token t = { LB_TOK_RELEASE, 5, 0x12345601u, 0xdeadbeefu }, d;
    lb_token_encode(&t, b);
    CHECK_EQ(lb_token_decode(b, LB_TOKEN_BYTES, &d), 0);
    CHECK(d.kind == t.kind && d.hops == t.hops && d.origin == t.origin && d.seq == t.seq);
    CHECK_EQ(lb_token_decode(b, LB_TOKEN_BYTES - 1, &d), -1);
    CHECK_EQ(lb_token_decode(NULL, LB_TOKEN_BYTES, &d), -1);
    static const int pos[] = { 0, 1, 2, 3, 5, 6, 7 };
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++) {
        lb_token_encode(&t, b);
        b[pos[i]] ^= 0x40;
        memset(&d, 0x5a, sizeof d);
        CHECK_EQ(lb_token_decode(b, LB_TOKEN_BYTES, &d), -1);
        CHECK_EQ(d.kind, 0x5a);                                   /* untouched */
    }
    lb_token_encode(&t, b);
    b[8] = b[9] = b[10] = 0;                                      /* origin switch 0 */
    CHECK_EQ(lb_token_decode(b, LB_TOKEN_BYTES, &d), -1);
}

TEST(forged_release_grants_nothing_on_flowing_ports)
{
    setup(LB_MODE_BUFFER);
    struct lb_action out[4];
    struct lb_token rel = { LB_TOK_RELEASE, 0, 257, 1 };
    lb_on_enqueue(&sw[1], 2, 1, 3000);            /* frames queued, but the egress is not stalled */
    tick_all(0);
    obs[1][1].queued_bytes = 3000;
    obs[1][1].tx_bytes = 5000;
    tick_all(200 * US);
    CHECK_EQ(lb_on_token(&sw[1], 201 * US, 2, &rel, out, 4), 0);
    CHECK_EQ(sw[1].st.release_refused, 1);
    CHECK_EQ(sw[1].st.grants, 0);
}

TEST(dependency_counters)
{
    setup(LB_MODE_DROP);
    lb_on_enqueue(&sw[0], 2, 1, 100);
    lb_on_enqueue(&sw[0], 0, 1, 50);
    lb_on_dequeue(&sw[0], 2, 1, 30);
    CHECK_EQ(sw[0].dep[2 * NP + 1], 70);
    lb_on_dequeue(&sw[0], 2, 1, 1000);            /* never below zero */
    CHECK_EQ(sw[0].dep[2 * NP + 1], 0);
    CHECK_EQ(sw[0].dep[0 * NP + 1], 50);
    lb_on_enqueue(&sw[0], NP, 1, 10);             /* out of range: ignored */
    lb_on_enqueue(&sw[0], 1, NP, 10);
    CHECK_EQ(sw[0].dep[1 * NP + 1], 0);
    lb_set_dep(&sw[0], 2, 1, 4242);
    lb_set_dep(&sw[0], NP, 1, 1);                 /* out of range: ignored */
    CHECK_EQ(sw[0].dep[2 * NP + 1], 4242);
    CHECK_EQ(sw[0].dep[0 * NP + 1], 50);
    /* the token follows the egress holding most bytes from its ingress */
    setup(LB_MODE_DROP);
    lb_on_enqueue(&sw[1], 2, 0, 900);
    lb_on_enqueue(&sw[1], 2, 1, 1000);
    obs[1][0].queued_bytes = 900;
    obs[1][1].queued_bytes = 1000;
    tick_all(0);
    tick_all(100 * US);
    struct lb_token tok = { LB_TOK_DETECT, 0, 0xffff00u, 1 };
    struct lb_action out[4];
    CHECK_EQ(lb_on_token(&sw[1], 100 * US, 2, &tok, out, 4), 1);
    CHECK_EQ(out[0].port, 1);
    lb_on_enqueue(&sw[1], 2, 0, 200);
    CHECK_EQ(lb_on_token(&sw[1], 100 * US, 2, &tok, out, 4), 1);
    CHECK_EQ(out[0].port, 0);
}

TEST(params_checked)
{
    struct lb_params p;
    const char *why = NULL;
    lb_default_params(&p, LB_MODE_BUFFER, 40000000000ull, 1 * US, 1048);
    CHECK_EQ(lb_check_params(&p, &why), 0);
    CHECK_EQ(p.suspect_ps, 100 * US);
    p.max_hops = 1;
    CHECK_EQ(lb_check_params(&p, &why), -1);
    CHECK_STR(why, "max_hops");
    lb_default_params(&p, LB_MODE_BUFFER, 40000000000ull, 1 * US, 1048);
    p.grant_bytes = 0;
    CHECK_EQ(lb_check_params(&p, &why), -1);
    CHECK_STR(why, "extra_buffer");
    p.mode = 0;
    CHECK_EQ(lb_check_params(&p, &why), -1);
    struct lb_sw s;
    lb_default_params(&p, LB_MODE_DROP, 40000000000ull, 1 * US, 1048);
    CHECK_EQ(lb_storage_bytes(0), 0);
    CHECK_EQ(lb_storage_bytes(LB_MAX_PORTS + 1), 0);
    CHECK_EQ(lb_init(&s, &p, LB_MAX_SWITCH_ID + 1, 3, mem[0]), -1);
    CHECK_EQ(lb_init(&s, &p, 0, 3, NULL), -1);
    CHECK_EQ(lb_init(&s, &p, LB_MAX_SWITCH_ID, 3, mem[0]), 0);
}

TEST(action_array_never_overflows_at_2n)
{
    setup(LB_MODE_BUFFER);
    struct lb_action out[2 * NP];
    for (uint32_t e = 0; e < NP; e++) {
        lb_on_enqueue(&sw[0], e, e, 10);
        obs[0][e].queued_bytes = 10;
    }
    for (uint32_t i = 0; i < NP; i++)
        sw[0].ip[i].grant_until = 1;          /* every grant expires at the same tick */
    lb_tick(&sw[0], 0, obs[0], out, 2 * NP);
    uint32_t n = lb_tick(&sw[0], 100 * US, obs[0], out, 2 * NP);
    CHECK_EQ(n, 2 * NP);
    CHECK_EQ(sw[0].st.action_overflow, 0);
    n = lb_tick(&sw[0], 300 * US, obs[0], out, 1);
    CHECK_EQ(n, 1);
    CHECK_EQ(sw[0].st.action_overflow, 2);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_loopbreak";
    RUN(loop_detected_after_token_returns);
    RUN(no_detection_on_chain_without_cycle);
    RUN(token_expires);
    RUN(stall_clock_restarts_and_token_period);
    RUN(holdoff_after_confirmation);
    RUN(dlb_release_grants_round_the_loop);
    RUN(malformed_tokens_have_no_effect);
    RUN(forged_release_grants_nothing_on_flowing_ports);
    RUN(dependency_counters);
    RUN(params_checked);
    RUN(action_array_never_overflows_at_2n);
    return test_summary();
}
