/*
 * test_escape.c -- Escape's state machine (src/cc/escape.h) on hand-computed
 * sequences: each event of Alg. 3, each termination case of §4.4.5, the
 * flow table, the long reclaim timer, malformed tokens, and the ETF format.
 */
#include "test.h"
#include "cc/escape.h"

#define PS_US 1000000ull
#define MAXP  8

/* One switch with n ports, pool tokens, link delay 1 us (Δesc = 2 us). */
struct sw { struct escape e; uint64_t mem[4096]; };

static int sw_init_mode(struct sw *s, uint16_t n, uint16_t pool, uint64_t reclaim_ps, uint8_t mode)
{
    struct esc_params p;
    esc_params_default(&p, n, pool, 1 * PS_US);
    p.reclaim_ps = reclaim_ps;
    p.ft_mode = mode;
    if (esc_storage_bytes(&p) > sizeof s->mem)
        return -1;
    return esc_init(&s->e, &p, s->mem, 0);
}

/* Most tests use distinct-flow tables (C3, ESC_FT_FLOWS): their sequences
 * are the easier to compute by hand; test_frames_table covers the default. */
static int sw_init(struct sw *s, uint16_t n, uint16_t pool, uint64_t reclaim_ps)
{
    return sw_init_mode(s, n, pool, reclaim_ps, ESC_FT_FLOWS);
}

static struct esc_fid fid_n(uint32_t n)
{
    struct esc_fid f = { 0x0a000000u + n, 0x0a000100u + n, (uint16_t)(1000 + n), 4791, 17 };
    return f;
}

TEST(params_and_init)
{
    struct esc_params p;
    struct sw s;
    esc_params_default(&p, 4, 8, 1 * PS_US);
    CHECK_EQ(p.period_ps, 2 * PS_US);                 /* §4.3.2: 2 x link delay */
    CHECK_EQ(p.max_hops, ESC_MAX_HOPS_DEFAULT);
    CHECK(esc_storage_bytes(&p) > 0);
    p.pool = 0;                                       /* §4.3.1(2): minimum 1 */
    CHECK_EQ(esc_storage_bytes(&p), 0);
    CHECK_EQ(esc_init(&s.e, &p, s.mem, 0), -1);
    p.pool = 8; p.n_ports = 0;
    CHECK_EQ(esc_init(&s.e, &p, s.mem, 0), -1);
    p.n_ports = 4; p.period_ps = 0;
    CHECK_EQ(esc_init(&s.e, &p, s.mem, 0), -1);
    p.period_ps = 1; p.max_hops = 0;
    CHECK_EQ(esc_init(&s.e, &p, s.mem, 0), -1);
    CHECK_EQ(esc_init(NULL, &p, s.mem, 0), -1);
    CHECK_EQ(sw_init(&s, 4, 8, 0), 0);
    for (uint16_t i = 0; i < 4; i++)
        CHECK_EQ(esc_pool(&s.e, i), 8);
    CHECK_EQ(esc_outstanding(&s.e), 0);
    CHECK_EQ(esc_next_due(&s.e), 2 * PS_US);
    CHECK_EQ(esc_pool(&s.e, 9), 0);
}

/* e1: tokens for the flows of a PFC-requested ingress whose egress is open
 * and has tokens; hops = 1; T(p^E)-- each. */
TEST(trigger_e1)
{
    struct sw s;
    struct esc_out out[16];
    struct esc_fid A = fid_n(1), B = fid_n(2), C = fid_n(3), D = fid_n(4);
    CHECK_EQ(sw_init(&s, 4, 2, 0), 0);
    for (uint16_t i = 0; i < 4; i++)
        esc_set_peer_escape(&s.e, i, 1);
    esc_on_frame(&s.e, 1, 0, &A);                     /* A: 0 -> 1 */
    esc_on_frame(&s.e, 2, 0, &B);                     /* B: 0 -> 2 (paused) */
    esc_on_frame(&s.e, 1, 0, &C);                     /* C: 0 -> 1 */
    esc_on_frame(&s.e, 1, 3, &D);                     /* D: 3 -> 1 (ingress not requested) */
    esc_set_egress_paused(&s.e, 2, 1);
    /* Nothing requested yet: a trigger sends nothing. */
    CHECK_EQ(esc_poll(&s.e, 2 * PS_US, out, 16), 0);
    CHECK_EQ(esc_next_due(&s.e), 4 * PS_US);
    esc_set_ingress_requested(&s.e, 0, 1);
    /* Not due before 4 us. */
    CHECK_EQ(esc_poll(&s.e, 4 * PS_US - 1, out, 16), 0);
    CHECK_EQ(s.e.st.triggers, 1);
    /* Table of port 1 holds [A, C, D] in slots... pool is 2: D replaced A
     * (the oldest), so the table is [D, C]: only C has ingress 0. */
    size_t k = esc_poll(&s.e, 4 * PS_US, out, 16);
    CHECK_EQ(k, 1);
    CHECK_EQ(out[0].port, 0);
    CHECK(esc_fid_eq(&out[0].tok.fid, &C));
    CHECK_EQ(out[0].tok.hops, 1);
    CHECK_EQ(esc_pool(&s.e, 1), 1);
    CHECK_EQ(esc_pool(&s.e, 2), 2);                   /* paused egress: no token for B */
    CHECK_EQ(s.e.st.tok_sent, 1);
    /* A comes back (replaces C, the oldest): table [D, A]; both of ingress
     * 0's flows... only A now. */
    esc_on_frame(&s.e, 1, 0, &A);
    k = esc_poll(&s.e, 6 * PS_US, out, 16);
    CHECK_EQ(k, 1);
    CHECK(esc_fid_eq(&out[0].tok.fid, &A));
    CHECK_EQ(esc_pool(&s.e, 1), 0);
    /* Pool exhausted: no more tokens. */
    CHECK_EQ(esc_poll(&s.e, 8 * PS_US, out, 16), 0);
    CHECK_EQ(esc_outstanding(&s.e), 2);
    /* Egress 2 unpaused: B gets a token. */
    esc_set_egress_paused(&s.e, 2, 0);
    k = esc_poll(&s.e, 10 * PS_US, out, 16);
    CHECK_EQ(k, 1);
    CHECK(esc_fid_eq(&out[0].tok.fid, &B));
    CHECK_EQ(esc_pool(&s.e, 2), 1);
}

/* C2: no token to a peer that is not an Escape switch, and no charge. */
TEST(trigger_needs_escape_peer)
{
    struct sw s;
    struct esc_out out[4];
    struct esc_fid A = fid_n(1);
    CHECK_EQ(sw_init(&s, 2, 4, 0), 0);
    esc_on_frame(&s.e, 1, 0, &A);
    esc_set_ingress_requested(&s.e, 0, 1);
    CHECK_EQ(esc_poll(&s.e, 2 * PS_US, out, 4), 0);
    CHECK_EQ(esc_pool(&s.e, 1), 4);
    esc_set_peer_escape(&s.e, 0, 1);
    CHECK_EQ(esc_poll(&s.e, 4 * PS_US, out, 4), 1);
    CHECK_EQ(esc_pool(&s.e, 1), 3);
    /* out[] too small: counted, not charged. */
    esc_on_frame(&s.e, 1, 0, &A);
    CHECK_EQ(esc_poll(&s.e, 6 * PS_US, out, 0), 0);
    CHECK_EQ(s.e.st.tok_truncated, 1);
    CHECK_EQ(esc_pool(&s.e, 1), 3);
}

/* C4: round-robin scan start, one slot per trigger. */
TEST(trigger_round_robin)
{
    struct sw s;
    struct esc_out out[4];
    struct esc_fid A = fid_n(1), C = fid_n(3);
    CHECK_EQ(sw_init(&s, 2, 2, 0), 0);
    esc_set_peer_escape(&s.e, 0, 1);
    esc_set_peer_escape(&s.e, 1, 1);
    esc_on_frame(&s.e, 1, 0, &A);                     /* slot 0 */
    esc_on_frame(&s.e, 1, 0, &C);                     /* slot 1 */
    esc_set_ingress_requested(&s.e, 0, 1);
    CHECK_EQ(esc_poll(&s.e, 2 * PS_US, out, 4), 2);   /* rr 0: A then C */
    CHECK(esc_fid_eq(&out[0].tok.fid, &A));
    CHECK(esc_fid_eq(&out[1].tok.fid, &C));
    CHECK_EQ(esc_transmit(&s.e, 1, 1), 0);            /* one comes back */
    CHECK_EQ(esc_poll(&s.e, 4 * PS_US, out, 4), 1);   /* rr 1: C */
    CHECK(esc_fid_eq(&out[0].tok.fid, &C));
    CHECK_EQ(esc_transmit(&s.e, 1, 1), 0);
    CHECK_EQ(esc_poll(&s.e, 6 * PS_US, out, 4), 1);   /* rr 0: A */
    CHECK(esc_fid_eq(&out[0].tok.fid, &A));
}

/* Flow table (§4.5.2, C3): distinct flows, ingress refreshed, oldest out. */
TEST(flow_table)
{
    struct sw s;
    struct esc_action a;
    struct esc_token t = { fid_n(1), 1 };
    struct esc_fid A = fid_n(1), B = fid_n(2), C = fid_n(3);
    CHECK_EQ(sw_init(&s, 3, 2, 0), 0);
    for (uint16_t i = 0; i < 3; i++)
        esc_set_peer_escape(&s.e, i, 1);
    esc_on_frame(&s.e, 1, 0, &A);
    esc_on_frame(&s.e, 1, 0, &A);                     /* same flow: one entry */
    esc_on_frame(&s.e, 1, 0, &B);
    CHECK_EQ(s.e.port[1].ft_len, 2);
    esc_on_frame(&s.e, 1, 2, &A);                     /* A now from port 2 */
    esc_set_egress_paused(&s.e, 1, 1);                /* tokens arrive on paused ports (C11) */
    esc_receive(&s.e, 1, &t, &a);
    CHECK_EQ(a.kind, ESC_ACT_EXTRACT);
    esc_set_ingress_requested(&s.e, 2, 1);
    esc_receive_missed(&s.e, 1, &t, &a);
    CHECK_EQ(a.kind, ESC_ACT_FORWARD);
    CHECK_EQ(a.port, 2);                              /* the refreshed ingress */
    esc_on_frame(&s.e, 1, 0, &C);                     /* evicts A (oldest slot) */
    esc_receive(&s.e, 1, &t, &a);
    CHECK_EQ(a.kind, ESC_ACT_NONE);
    CHECK_EQ(s.e.st.tok_drop_unknown, 1);
}

/* C3 default (ESC_FT_FRAMES): slots are the last N frames' flows, so a flow
 * with k of them gets k tokens per trigger (up to T). */
TEST(frames_table)
{
    struct sw s;
    struct esc_out out[8];
    struct esc_action a;
    struct esc_fid A = fid_n(1), B = fid_n(2);
    struct esc_params p;
    esc_params_default(&p, 3, 4, 1 * PS_US);
    CHECK_EQ(p.ft_mode, ESC_FT_FRAMES);
    p.ft_mode = 7;
    CHECK_EQ(esc_storage_bytes(&p), 0);
    CHECK_EQ(sw_init_mode(&s, 3, 4, 0, ESC_FT_FRAMES), 0);
    for (uint16_t i = 0; i < 3; i++)
        esc_set_peer_escape(&s.e, i, 1);
    esc_on_frame(&s.e, 1, 0, &A);
    esc_on_frame(&s.e, 1, 0, &A);
    esc_on_frame(&s.e, 1, 0, &A);
    esc_on_frame(&s.e, 1, 2, &B);                     /* table [A, A, A, B] */
    esc_set_ingress_requested(&s.e, 0, 1);
    CHECK_EQ(esc_poll(&s.e, 2 * PS_US, out, 8), 3);   /* three tokens for A */
    for (int i = 0; i < 3; i++)
        CHECK(esc_fid_eq(&out[i].tok.fid, &A));
    CHECK_EQ(esc_pool(&s.e, 1), 1);
    esc_on_frame(&s.e, 1, 2, &A);                     /* A now from port 2: [A', A, A, B] */
    esc_set_ingress_requested(&s.e, 2, 1);
    struct esc_token t = { A, 1 };
    esc_set_egress_paused(&s.e, 1, 1);                /* C11 */
    esc_receive_missed(&s.e, 1, &t, &a);              /* the newest entry's ingress */
    CHECK_EQ(a.kind, ESC_ACT_FORWARD);
    CHECK_EQ(a.port, 2);
    CHECK_EQ(esc_pool(&s.e, 1), 0);
    esc_on_frame(&s.e, 1, 0, &B);                     /* [A', B, A, B] */
    esc_on_frame(&s.e, 1, 0, &B);                     /* [A', B, B, B] */
    esc_on_frame(&s.e, 1, 0, &B);                     /* [A', B, B, B]: A gone but A' */
    esc_on_frame(&s.e, 1, 0, &B);                     /* [B, B, B, B] */
    esc_receive(&s.e, 1, &t, &a);
    CHECK_EQ(a.kind, ESC_ACT_NONE);                   /* pool 0 first (line 16) */
    esc_transmit(&s.e, 1, 1);
    esc_receive(&s.e, 1, &t, &a);
    CHECK_EQ(a.kind, ESC_ACT_NONE);                   /* A no longer in the table */
    CHECK_EQ(s.e.st.tok_drop_unknown, 1);
}

/* e2 and the termination cases of §4.4.5. */
TEST(receive_found_case2)
{
    struct sw s;
    struct esc_action a;
    struct esc_token t = { fid_n(1), 3 };
    struct esc_fid A = fid_n(1);
    CHECK_EQ(sw_init(&s, 2, 2, 0), 0);
    esc_set_peer_escape(&s.e, 1, 1);
    esc_set_egress_paused(&s.e, 1, 1);                /* C11 */
    esc_on_frame(&s.e, 1, 0, &A);
    esc_receive(&s.e, 1, &t, &a);
    CHECK_EQ(a.kind, ESC_ACT_EXTRACT);
    CHECK_EQ(a.port, 1);
    CHECK_EQ(a.hops, 3);                              /* line 21: d.hops <- τ.hops */
    CHECK(esc_fid_eq(&a.fid, &A));
    esc_extracted(&s.e, 1);
    CHECK_EQ(s.e.st.frames_escaped, 1);
    CHECK_EQ(esc_pool(&s.e, 1), 2);                   /* the finder charges nothing */
    CHECK_EQ(esc_outstanding(&s.e), 0);
}

TEST(receive_pool_exhausted_case1)
{
    struct sw s;
    struct esc_action a;
    struct esc_out out[4];
    struct esc_token t = { fid_n(1), 1 };
    struct esc_fid A = fid_n(1);
    CHECK_EQ(sw_init(&s, 2, 1, 0), 0);
    esc_set_peer_escape(&s.e, 0, 1);
    esc_set_peer_escape(&s.e, 1, 1);
    esc_on_frame(&s.e, 1, 0, &A);
    esc_set_ingress_requested(&s.e, 0, 1);
    CHECK_EQ(esc_poll(&s.e, 2 * PS_US, out, 4), 1);   /* T(1): 1 -> 0 */
    esc_set_egress_paused(&s.e, 1, 1);                /* C11 */
    esc_receive(&s.e, 1, &t, &a);
    CHECK_EQ(a.kind, ESC_ACT_NONE);                   /* line 17 */
    CHECK_EQ(s.e.st.tok_drop_pool, 1);
    CHECK_EQ(s.e.st.tok_extract, 0);
    CHECK_EQ(esc_pool(&s.e, 1), 0);
}

TEST(receive_forwarded)
{
    struct sw s;
    struct esc_action a;
    struct esc_token t = { fid_n(1), 2 };
    struct esc_fid A = fid_n(1);
    CHECK_EQ(sw_init(&s, 2, 3, 0), 0);
    esc_set_peer_escape(&s.e, 0, 1);
    esc_set_peer_escape(&s.e, 1, 1);
    esc_on_frame(&s.e, 1, 0, &A);
    esc_set_ingress_requested(&s.e, 0, 1);
    esc_set_egress_paused(&s.e, 1, 1);                /* C11 */
    esc_receive(&s.e, 1, &t, &a);
    CHECK_EQ(a.kind, ESC_ACT_EXTRACT);
    esc_receive_missed(&s.e, 1, &t, &a);
    CHECK_EQ(a.kind, ESC_ACT_FORWARD);
    CHECK_EQ(a.port, 0);                              /* line 27: via p^I */
    CHECK_EQ(a.hops, 3);                              /* line 26 */
    CHECK(esc_fid_eq(&a.fid, &A));
    CHECK_EQ(esc_pool(&s.e, 1), 2);                   /* line 28 */
    CHECK_EQ(s.e.st.tok_forwarded, 1);
}

/* Case 3: no frame here and the ingress did not request PFC (or faces a
 * host): the token ends, nothing charged. */
TEST(receive_not_forwarded_case3)
{
    struct sw s;
    struct esc_action a;
    struct esc_token t = { fid_n(1), 1 };
    struct esc_fid A = fid_n(1);
    CHECK_EQ(sw_init(&s, 2, 3, 0), 0);
    esc_set_peer_escape(&s.e, 0, 1);
    esc_set_peer_escape(&s.e, 1, 1);
    esc_on_frame(&s.e, 1, 0, &A);
    esc_receive_missed(&s.e, 1, &t, &a);              /* port 0 not requested */
    CHECK_EQ(a.kind, ESC_ACT_NONE);
    CHECK_EQ(s.e.st.tok_end, 1);
    CHECK_EQ(esc_pool(&s.e, 1), 3);
    /* Requested, but the upstream peer is a host (C2). */
    esc_set_ingress_requested(&s.e, 0, 1);
    esc_set_peer_escape(&s.e, 0, 0);
    esc_receive_missed(&s.e, 1, &t, &a);
    CHECK_EQ(a.kind, ESC_ACT_NONE);
    CHECK_EQ(s.e.st.tok_end, 2);
    CHECK_EQ(esc_pool(&s.e, 1), 3);
}

/* C11: a token on an egress port its peer has not paused (a replay, a
 * forgery: a genuine one only comes through a port that paused us) is
 * refused and counted; nothing is extracted, forwarded or charged.  The
 * same token once the port is paused is taken. */
TEST(receive_open_port_c11)
{
    struct sw s;
    struct esc_action a;
    struct esc_token t = { fid_n(1), 1 }, t2 = { fid_n(1), 2 };
    struct esc_fid A = fid_n(1);
    CHECK_EQ(sw_init(&s, 2, 3, 0), 0);
    esc_set_peer_escape(&s.e, 0, 1);
    esc_set_peer_escape(&s.e, 1, 1);
    esc_set_ingress_requested(&s.e, 0, 1);
    esc_on_frame(&s.e, 1, 0, &A);
    esc_receive(&s.e, 1, &t, &a);
    CHECK_EQ(a.kind, ESC_ACT_NONE);
    esc_receive(&s.e, 1, &t2, &a);
    CHECK_EQ(a.kind, ESC_ACT_NONE);
    CHECK_EQ(s.e.st.tok_drop_open, 2);
    CHECK_EQ(s.e.st.tok_extract + s.e.st.tok_forwarded + s.e.st.tok_drop_bad + s.e.st.tok_drop_unknown, 0);
    CHECK_EQ(esc_pool(&s.e, 0), 3);
    CHECK_EQ(esc_pool(&s.e, 1), 3);
    esc_set_egress_paused(&s.e, 1, 1);
    esc_receive(&s.e, 1, &t, &a);
    CHECK_EQ(a.kind, ESC_ACT_EXTRACT);
    CHECK_EQ(s.e.st.tok_drop_open, 2);
    esc_set_egress_paused(&s.e, 1, 0);                /* resumed: refused again */
    esc_receive(&s.e, 1, &t, &a);
    CHECK_EQ(a.kind, ESC_ACT_NONE);
    CHECK_EQ(s.e.st.tok_drop_open, 3);
}

/* e3: reclaim on transmit, hops decrement; hops 0 is not escaping; C5. */
TEST(transmit_e3)
{
    struct sw s;
    struct esc_out out[4];
    struct esc_fid A = fid_n(1);
    CHECK_EQ(sw_init(&s, 2, 2, 0), 0);
    esc_set_peer_escape(&s.e, 0, 1);
    esc_on_frame(&s.e, 1, 0, &A);
    esc_set_ingress_requested(&s.e, 0, 1);
    CHECK_EQ(esc_poll(&s.e, 2 * PS_US, out, 4), 1);
    CHECK_EQ(esc_pool(&s.e, 1), 1);
    CHECK_EQ(esc_transmit(&s.e, 1, 0), 0);            /* not escaping */
    CHECK_EQ(esc_pool(&s.e, 1), 1);
    CHECK_EQ(esc_transmit(&s.e, 1, 2), 1);            /* line 31-32 */
    CHECK_EQ(esc_pool(&s.e, 1), 2);
    CHECK_EQ(s.e.st.reclaim_tx, 1);
    CHECK_EQ(esc_transmit(&s.e, 1, 1), 0);            /* full: C5 */
    CHECK_EQ(esc_pool(&s.e, 1), 2);
    CHECK_EQ(s.e.st.over_reclaim, 1);
    CHECK_EQ(esc_outstanding(&s.e), 0);
}

/* §4.3.3(5): a token whose flow ended comes back by the long timer, one
 * per interval, only while T stays unchanged (C6). */
TEST(reclaim_timer)
{
    struct sw s;
    struct esc_out out[4];
    struct esc_fid A = fid_n(1), B = fid_n(2);
    CHECK_EQ(sw_init(&s, 2, 2, 100 * PS_US), 0);
    esc_set_peer_escape(&s.e, 0, 1);
    esc_on_frame(&s.e, 1, 0, &A);
    esc_on_frame(&s.e, 1, 0, &B);
    esc_set_ingress_requested(&s.e, 0, 1);
    CHECK_EQ(esc_poll(&s.e, 2 * PS_US, out, 4), 2);   /* T 2 -> 0 */
    esc_set_ingress_requested(&s.e, 0, 0);            /* flows end, no frame escapes */
    CHECK_EQ(esc_next_due(&s.e), 4 * PS_US);
    esc_poll(&s.e, 100 * PS_US, out, 4);              /* tick 1: 0 != saved 2 */
    CHECK_EQ(esc_pool(&s.e, 1), 0);
    esc_poll(&s.e, 200 * PS_US, out, 4);              /* tick 2: unchanged -> 1 */
    CHECK_EQ(esc_pool(&s.e, 1), 1);
    CHECK_EQ(s.e.st.reclaim_timer, 1);
    esc_transmit(&s.e, 1, 1);                         /* a late escaping frame: T 2 */
    esc_poll(&s.e, 300 * PS_US, out, 4);              /* changed: no reclaim (and full) */
    CHECK_EQ(esc_pool(&s.e, 1), 2);
    CHECK_EQ(s.e.st.reclaim_timer, 1);
    CHECK_EQ(esc_outstanding(&s.e), 0);
    /* Changed in between -> no reclaim: take one, tick, take... */
    esc_set_ingress_requested(&s.e, 0, 1);
    CHECK_EQ(esc_poll(&s.e, 302 * PS_US, out, 4), 2); /* T 0, saved 2 */
    esc_poll(&s.e, 400 * PS_US, out, 4);              /* 0 != 2: saved 0 */
    CHECK_EQ(esc_pool(&s.e, 1), 0);
    esc_transmit(&s.e, 1, 1);                         /* T 1 */
    esc_poll(&s.e, 500 * PS_US, out, 4);              /* 1 != 0: saved 1; trigger takes it */
    CHECK_EQ(s.e.st.reclaim_timer, 1);
}

/* Three switches in a line, flow A: s1 -> s2 -> s3 (ports: 0 = upstream,
 * 1 = downstream on each).  s3 originates the token (its ingress from s2
 * requested PFC); s2 has no frame of A and forwards; s1 finds one.  The
 * frame then walks back down: hops 2 at s2, 1 at s3, 0 beyond, and every
 * pool is full again (C1). */
TEST(chain_hops_to_zero)
{
    struct sw s1, s2, s3;
    struct esc_out out[4];
    struct esc_action a;
    struct esc_fid A = fid_n(1);
    CHECK_EQ(sw_init(&s1, 2, 2, 0), 0);
    CHECK_EQ(sw_init(&s2, 2, 2, 0), 0);
    CHECK_EQ(sw_init(&s3, 2, 2, 0), 0);
    esc_set_peer_escape(&s1.e, 1, 1);                 /* s1: port 0 faces the source host */
    esc_set_peer_escape(&s2.e, 0, 1);
    esc_set_peer_escape(&s2.e, 1, 1);
    esc_set_peer_escape(&s3.e, 0, 1);                 /* s3: port 1 faces the destination */
    esc_on_frame(&s1.e, 1, 0, &A);
    esc_on_frame(&s2.e, 1, 0, &A);
    esc_on_frame(&s3.e, 1, 0, &A);
    esc_set_ingress_requested(&s3.e, 0, 1);
    esc_set_ingress_requested(&s2.e, 0, 1);
    esc_set_egress_paused(&s2.e, 1, 1);
    esc_set_egress_paused(&s1.e, 1, 1);
    /* s3 originates. */
    CHECK_EQ(esc_poll(&s3.e, 2 * PS_US, out, 4), 1);
    CHECK_EQ(out[0].tok.hops, 1);
    CHECK_EQ(esc_pool(&s3.e, 1), 1);
    /* s2: arrives on its egress 1; no frame; forwarded with hops 2. */
    esc_receive(&s2.e, 1, &out[0].tok, &a);
    CHECK_EQ(a.kind, ESC_ACT_EXTRACT);
    esc_receive_missed(&s2.e, 1, &out[0].tok, &a);
    CHECK_EQ(a.kind, ESC_ACT_FORWARD);
    CHECK_EQ(a.hops, 2);
    CHECK_EQ(esc_pool(&s2.e, 1), 1);
    struct esc_token t2 = { a.fid, a.hops };
    /* s1: found; the frame leaves with hops 2 and s1 charges nothing. */
    esc_receive(&s1.e, 1, &t2, &a);
    CHECK_EQ(a.kind, ESC_ACT_EXTRACT);
    esc_extracted(&s1.e, 1);
    uint16_t h = a.hops;
    CHECK_EQ(h, 2);
    CHECK_EQ(esc_pool(&s1.e, 1), 2);
    /* s2: classified by hops (escape queue), transmitted: T back, hops 1. */
    h = esc_frame_hops(&s2.e, h);
    CHECK(h != 0);
    h = esc_transmit(&s2.e, 1, h);
    CHECK_EQ(h, 1);
    CHECK_EQ(esc_pool(&s2.e, 1), 2);
    /* s3, the origin: arrives with hops 1 (§4.3.2), leaves with 0. */
    h = esc_frame_hops(&s3.e, h);
    CHECK_EQ(h, 1);
    h = esc_transmit(&s3.e, 1, h);
    CHECK_EQ(h, 0);
    CHECK_EQ(esc_pool(&s3.e, 1), 2);
    CHECK_EQ(esc_outstanding(&s1.e) + esc_outstanding(&s2.e) + esc_outstanding(&s3.e), 0);
    CHECK_EQ(s3.e.st.over_reclaim + s2.e.st.over_reclaim, 0);
}

/* Malformed tokens and frames have no effect (counted). */
TEST(malformed)
{
    struct sw s;
    struct esc_action a;
    struct esc_fid A = fid_n(1);
    struct esc_params p;
    CHECK_EQ(sw_init(&s, 2, 2, 0), 0);
    esc_set_peer_escape(&s.e, 0, 1);
    esc_set_peer_escape(&s.e, 1, 1);
    esc_set_ingress_requested(&s.e, 0, 1);
    esc_set_egress_paused(&s.e, 1, 1);
    esc_on_frame(&s.e, 1, 0, &A);
    struct esc_token bad[] = {
        { fid_n(1), 0 },                              /* hops 0 */
        { fid_n(1), ESC_MAX_HOPS_DEFAULT + 1 },        /* absurd */
        { fid_n(1), 0xffff },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        esc_receive(&s.e, 1, &bad[i], &a);
        CHECK_EQ(a.kind, ESC_ACT_NONE);
        esc_receive_missed(&s.e, 1, &bad[i], &a);
        CHECK_EQ(a.kind, ESC_ACT_NONE);
    }
    CHECK_EQ(s.e.st.tok_drop_bad, 6);
    struct esc_token unknown = { fid_n(7), 1 };
    esc_receive(&s.e, 1, &unknown, &a);
    CHECK_EQ(a.kind, ESC_ACT_NONE);
    esc_receive_missed(&s.e, 1, &unknown, &a);
    CHECK_EQ(a.kind, ESC_ACT_NONE);
    CHECK_EQ(s.e.st.tok_drop_unknown, 2);
    struct esc_token ok = { fid_n(1), 1 };
    esc_receive(&s.e, 9, &ok, &a);                   /* no such port */
    CHECK_EQ(a.kind, ESC_ACT_NONE);
    esc_set_peer_escape(&s.e, 1, 0);                 /* from a host: refused */
    esc_receive(&s.e, 1, &ok, &a);
    CHECK_EQ(a.kind, ESC_ACT_NONE);
    CHECK_EQ(s.e.st.tok_drop_bad, 8);
    CHECK_EQ(esc_pool(&s.e, 0), 2);
    CHECK_EQ(esc_pool(&s.e, 1), 2);
    CHECK_EQ(s.e.st.tok_forwarded + s.e.st.tok_extract, 0);
    /* Data frame with absurd hops: treated as regular, no reclaim. */
    CHECK_EQ(esc_frame_hops(&s.e, 300), 0);
    CHECK_EQ(esc_frame_hops(&s.e, 255), 255);
    CHECK_EQ(s.e.st.frames_bad_hops, 1);
    /* A token at max_hops is not forwarded past it (C7). */
    esc_params_default(&p, 2, 2, 1 * PS_US);
    p.max_hops = 3;
    CHECK_EQ(esc_init(&s.e, &p, s.mem, 0), 0);
    esc_set_peer_escape(&s.e, 0, 1);
    esc_set_peer_escape(&s.e, 1, 1);
    esc_set_ingress_requested(&s.e, 0, 1);
    esc_on_frame(&s.e, 1, 0, &A);
    struct esc_token t3 = { fid_n(1), 3 }, t2 = { fid_n(1), 2 };
    esc_receive_missed(&s.e, 1, &t3, &a);
    CHECK_EQ(a.kind, ESC_ACT_NONE);
    CHECK_EQ(esc_pool(&s.e, 1), 2);
    esc_receive_missed(&s.e, 1, &t2, &a);
    CHECK_EQ(a.kind, ESC_ACT_FORWARD);
    CHECK_EQ(a.hops, 3);
}

TEST(etf_wire)
{
    uint8_t buf[64], mac[6] = { 2, 0, 0, 0, 0, 7 };
    struct esc_token t = { { 0x0a000001u, 0x0a000203u, 0x1234, 4791, 17 }, 0x0102 }, u;
    CHECK_EQ(esc_etf_encode(&t, mac, buf, 59), 0);
    CHECK_EQ(esc_etf_encode(&t, mac, buf, sizeof buf), ESC_ETF_BYTES_NOFCS);
    static const uint8_t want[31] = {
        0x01, 0x80, 0xC2, 0x00, 0x00, 0x01, 2, 0, 0, 0, 0, 7, 0x88, 0x08, 0x01, 0x02,
        0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00, 0x02, 0x03, 0x12, 0x34, 0x12, 0xb7, 17, 0x01, 0x02 };
    CHECK(memcmp(buf, want, sizeof want) == 0);
    for (int i = 31; i < 60; i++)
        CHECK_EQ(buf[i], 0);
    CHECK_EQ(esc_etf_decode(buf, 60, &u), ESC_ETF_OK);
    CHECK(esc_fid_eq(&u.fid, &t.fid));
    CHECK_EQ(u.hops, 0x0102);
    CHECK_EQ(esc_etf_decode(buf, 30, &u), ESC_ETF_ESHORT);
    CHECK_EQ(esc_etf_decode(NULL, 60, &u), ESC_ETF_EARG);
    buf[15] = 0x01;                                   /* PAUSE opcode 0x0101 */
    CHECK_EQ(esc_etf_decode(buf, 60, &u), ESC_ETF_EOPCODE);
    buf[15] = 0x02;
    buf[13] = 0x00;                                   /* EtherType 0x8800 */
    CHECK_EQ(esc_etf_decode(buf, 60, &u), ESC_ETF_ENOTCTL);
    buf[13] = 0x08;
    buf[0] = 0xff;
    CHECK_EQ(esc_etf_decode(buf, 60, &u), ESC_ETF_ENOTCTL);
    buf[0] = 0x01;
    buf[29] = buf[30] = 0;
    CHECK_EQ(esc_etf_decode(buf, 60, &u), ESC_ETF_EHOPS);
    CHECK_STR(esc_etf_strerror(ESC_ETF_EHOPS), "ETF hops is 0");
    CHECK_EQ(ESC_ETF_FRAME_BYTES, ESC_ETF_BYTES_NOFCS + 4);
    /* Random bytes never crash and never give hops 0. */
    uint64_t x = 12345;
    for (int n = 0; n < 20000; n++) {
        for (int i = 0; i < 60; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            buf[i] = (uint8_t)(x >> 56);
        }
        if (n & 1) { memcpy(buf, want, 16); }
        if (esc_etf_decode(buf, (size_t)(n % 61), &u) == ESC_ETF_OK)
            CHECK(u.hops != 0);
    }
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_escape";
    RUN(params_and_init);
    RUN(trigger_e1);
    RUN(trigger_needs_escape_peer);
    RUN(trigger_round_robin);
    RUN(flow_table);
    RUN(frames_table);
    RUN(receive_found_case2);
    RUN(receive_pool_exhausted_case1);
    RUN(receive_forwarded);
    RUN(receive_not_forwarded_case3);
    RUN(receive_open_port_c11);
    RUN(transmit_e3);
    RUN(reclaim_timer);
    RUN(chain_hops_to_zero);
    RUN(malformed);
    RUN(etf_wire);
    return test_summary();
}
