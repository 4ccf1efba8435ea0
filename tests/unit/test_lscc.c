/*
 * test_lscc.c -- unit tests of LSCC's rate calculation (Alg. 1), rate
 * limiting (Alg. 2) and the §III-C guideline (Eq. 12), on sequences
 * computed by hand in the comments.
 *
 * Rate calculation, unless noted: T = 200 µs, so a byte over T is
 * 8/200e-6 = 40,000 b/s; Qref = 1,000,000 B; ΔF = 1 Mb/s.  BR = 100 Gb/s is
 * 2,500,000 egress bytes per period.
 */
#include "test.h"

#include "cc/lscc.h"

#define G  1000000000ll
#define M  1000000ll
#define US 1000000ull          /* ps */
#define MS 1000000000ull

static struct lscc_rc_params small_params(uint32_t n, uint64_t dr, uint64_t r_init)
{
    struct lscc_rc_params p;
    lscc_rc_params_default(&p, 200 * G, 1 * MS);
    p.n = n;
    p.q_ref_bytes = 1000000;
    p.dr_bps = dr;
    p.r_init_bps = r_init;
    return p;
}

TEST(rc_defaults)
{
    struct lscc_rc_params p;
    char why[128];
    lscc_rc_params_default(&p, 200 * G, 1 * MS);
    CHECK_EQ(p.period_ps, 200 * US);
    CHECK_EQ(p.n, 10);                 /* 2·1 ms / 200 µs */
    CHECK_EQ(p.q_ref_bytes, 2000000);
    CHECK_EQ(p.dr_bps, 1 * G);
    CHECK_EQ(p.r_max_bps, 200 * G);
    CHECK_EQ(p.r_init_bps, 200 * G);
    CHECK_EQ(p.r_min_bps, 100 * M);
    CHECK_EQ(p.f_unit_bps, 1 * M);
    CHECK_EQ(lscc_rc_params_check(&p, why, sizeof why), 0);
    CHECK_EQ(lscc_n_for(400 * US, 200 * US), 4);   /* Fig. 2 link */
    CHECK_EQ(lscc_n_for(500 * US, 200 * US), 5);   /* §IV-A link */
    CHECK_EQ(lscc_n_for(450 * US, 200 * US), 5);   /* 4.5 rounds up */
    CHECK_EQ(lscc_n_for(449 * US, 200 * US), 4);
    CHECK_EQ(lscc_n_for(1 * US, 200 * US), 1);     /* at least 1 */
    p.n = LSCC_MAX_N + 1;
    CHECK(lscc_rc_params_check(&p, why, sizeof why) < 0);
    CHECK(strstr(why, "N = round(2D/T)") != NULL);
    unsigned blame = 0;
    CHECK(lscc_rc_params_blame(&p, &blame, why, sizeof why) < 0);
    CHECK_EQ(blame, LSCC_BLAME_N);
    p.n = 10;
    p.dr_bps = 1500000;                /* 1.5 Mb/s: not a multiple of ΔF... */
    p.f_unit_bps = 1000000;
    CHECK(lscc_rc_params_check(&p, why, sizeof why) < 0);
    CHECK(strstr(why, "multiples") != NULL);
    blame = 0;
    CHECK(lscc_rc_params_blame(&p, &blame, why, sizeof why) < 0);
    CHECK_EQ(blame, LSCC_BLAME_DR);    /* ...and only dR is off the grid */
    p.dr_bps = 1 * G;
    p.r_min_bps = 300 * G;
    CHECK(lscc_rc_params_check(&p, why, sizeof why) < 0);
}

/* The checks' blame names every parameter that fails a rule and no other;
 * it ORs, so a caller can gather the rc and rl checks' bits. */
TEST(rc_rl_blame)
{
    struct lscc_rc_params p;
    char why[160];
    unsigned blame = 0;
    lscc_rc_params_default(&p, 200 * G, 1 * MS);
    CHECK_EQ(lscc_rc_params_blame(&p, &blame, why, sizeof why), 0);
    CHECK_EQ(blame, 0);
    p.dr_bps = 201 * G;                /* a step wider than the range */
    CHECK(lscc_rc_params_blame(&p, &blame, why, sizeof why) < 0);
    CHECK_EQ(blame, LSCC_BLAME_DR | LSCC_BLAME_RMAX);
    CHECK(strstr(why, "dR must be <= rmax") != NULL);
    p.dr_bps = 200 * G;                /* the whole range in one step: allowed */
    CHECK_EQ(lscc_rc_params_check(&p, why, sizeof why), 0);
    lscc_rc_params_default(&p, 500000, 1 * MS);   /* a link below ΔF: Rmax 0 */
    blame = 0;
    CHECK(lscc_rc_params_blame(&p, &blame, why, sizeof why) < 0);
    CHECK(blame & LSCC_BLAME_RMAX);
    lscc_rc_params_default(&p, 200 * G, 1 * MS);
    p.r_max_bps = 17000000 * M;        /* 17 Tb/s: past the 24-bit field */
    p.r_init_bps = p.r_max_bps;
    blame = 0;
    CHECK(lscc_rc_params_blame(&p, &blame, why, sizeof why) < 0);
    CHECK_EQ(blame, LSCC_BLAME_RMAX | LSCC_BLAME_DF);

    struct lscc_rl_params r;
    lscc_rl_params_default(&r, 200 * G, 1 * MS, 200 * US);
    blame = LSCC_BLAME_PERIOD;         /* kept: the bits are ORed in */
    CHECK_EQ(lscc_rl_params_blame(&r, &blame, why, sizeof why), 0);
    r.capacity = 3;
    CHECK(lscc_rl_params_blame(&r, &blame, why, sizeof why) < 0);
    CHECK_EQ(blame, LSCC_BLAME_PERIOD | LSCC_BLAME_TABLE);
    CHECK(strstr(why, "power of two") != NULL);
}

/* ΔR large (no clamp), N = 2: the list subtracts what is in flight.
 *   1: Q−Qref = 25,000 B → 1 Gb/s; Ra_sent 0; Ra = 1G; R = 100G − 1G = 99G;
 *      list [1G]                                            (Ra = BR − R = 1G)
 *   2: Q−Qref = 50,000 B → 2G; Ra_sent 1G; Ra = 1G; R = 99G; list [1G, 1G]
 *   3: Q−Qref = 50,000 B → 2G; Ra_sent 2G; Ra = 0;  R = 100G; list [1G, 0]
 *   4: Q = Qref → 0;          Ra_sent 1G; Ra = −1G; R = 101G; list [0, −1G]
 *   5: Q = Qref, BR = 50G;    Ra_sent −1G; Ra = 1G; R = 49G; list [−1G, 1G] */
TEST(rc_feedback_list)
{
    struct lscc_rc_params p = small_params(2, 200 * G, 100 * G);
    struct lscc_rc rc;
    lscc_rc_init(&rc, &p);
    CHECK_EQ(lscc_rc_update(&rc, &p, 1025000, 2500000), 99 * G);
    CHECK_EQ(rc.ra_bps, 1 * G);
    CHECK_EQ(rc.ra_sum, 1 * G);
    CHECK_EQ(lscc_rc_update(&rc, &p, 1050000, 2500000), 99 * G);
    CHECK_EQ(rc.ra_sum, 2 * G);
    CHECK_EQ(lscc_rc_update(&rc, &p, 1050000, 2500000), 100 * G);
    CHECK_EQ(rc.ra_sum, 1 * G);
    CHECK_EQ(lscc_rc_update(&rc, &p, 1000000, 2500000), 101 * G);
    CHECK_EQ(rc.ra_sum, -1 * G);
    CHECK_EQ(lscc_rc_update(&rc, &p, 1000000, 1250000), 49 * G);
    CHECK_EQ(rc.ra_sum, 0);
    CHECK_EQ(rc.br_bps, 50 * G);
    CHECK_EQ(rc.n_updates, 5);
    CHECK_EQ(rc.n_clamp_up + rc.n_clamp_down + rc.n_clamp_min + rc.n_clamp_max, 0);
}

/* ΔR = 1 Gb/s from R_last = 200G, BR 100G, Q = Qref, N = 2 (overreaction
 * held back by the clamp):
 *   1: Ra = 0 − 0 = 0; R = 100G → clamped to 199G; Ra = −99G; list [−99G]
 *   2: Ra = 0 − (−99G) = 99G; R = 1G → 198G; list [−99G, −98G]
 *   3: Ra = 197G; R = −97G → 197G; list [−98G, −97G]   (oldest dropped)
 *   4: Ra = 195G; R = −95G → 196G; list [−97G, −96G] */
TEST(rc_dr_clamp)
{
    struct lscc_rc_params p = small_params(2, 1 * G, 200 * G);
    struct lscc_rc rc;
    lscc_rc_init(&rc, &p);
    CHECK_EQ(lscc_rc_update(&rc, &p, 1000000, 2500000), 199 * G);
    CHECK_EQ(lscc_rc_update(&rc, &p, 1000000, 2500000), 198 * G);
    CHECK_EQ(rc.ra_bps, 99 * G);
    CHECK_EQ(lscc_rc_update(&rc, &p, 1000000, 2500000), 197 * G);
    CHECK_EQ(rc.ra_bps, 197 * G);
    CHECK_EQ(rc.ra_sum, -195 * G);
    CHECK_EQ(lscc_rc_update(&rc, &p, 1000000, 2500000), 196 * G);
    CHECK_EQ(rc.n_clamp_down, 4);
    /* Upward: R_last 100G, empty list, Q = 0 → Ra = −40G, R = 140G →
     * clamped to 101G. */
    rc.ra_sum = 0;
    for (uint32_t i = 0; i < LSCC_MAX_N; i++)
        rc.ra_list[i] = 0;
    rc.r_last = 100 * G;
    CHECK_EQ(lscc_rc_update(&rc, &p, 0, 2500000), 101 * G);
    CHECK_EQ(rc.n_clamp_up, 1);
}

/* Rmin/Rmax (lines 8-11) and the ΔF floor. */
TEST(rc_bounds_and_unit)
{
    struct lscc_rc_params p = small_params(1, 200 * G, 100 * G);
    struct lscc_rc rc;
    lscc_rc_init(&rc, &p);
    /* BR 0, Q − Qref = 1 MB → 40 Gb/s: R = −40G → Rmin 100 Mb/s. */
    CHECK_EQ(lscc_rc_update(&rc, &p, 2000000, 0), 100 * M);
    CHECK_EQ(rc.n_clamp_min, 1);
    /* list [0 − 100M = −100M]; Q empty, BR 200G: Ra = −40G + 100M;
     * R = 240G − 100M → Rmax 200G. */
    CHECK_EQ(lscc_rc_update(&rc, &p, 0, 5000000), 200 * G);
    CHECK_EQ(rc.n_clamp_max, 1);
    /* list [0]; BR = 2,500,001 B → 100,000,040,000 b/s; Q = Qref − 1 B:
     * Ra = −40,000; R = 100,000,080,000 → floored to 100,000 Mb/s. */
    CHECK_EQ(lscc_rc_update(&rc, &p, 999999, 2500001), 100 * G);
    CHECK_EQ(rc.br_bps, 100000040000ll);
    CHECK_EQ(rc.ra_list[0], 40000);     /* BR − R of the value sent */
    /* Feedback field. */
    CHECK_EQ(lscc_rate_to_units(100 * G, 1 * M), 100000);
    CHECK_EQ(lscc_units_to_rate(100000, 1 * M), 100 * G);
    CHECK_EQ(lscc_rate_to_units(20000 * G, 1 * M), LSCC_FB_MAX);
}

/* Closed loop (Eq. 3-9): a queue fed at R(t − 2D) and drained at a constant
 * BR settles at Qref with R = BR.  Not hand-computed: the fixed point. */
TEST(rc_closed_loop_settles)
{
    struct lscc_rc_params p;
    lscc_rc_params_default(&p, 200 * G, 1 * MS);     /* N = 10, ΔR 1G, Qref 2 MB */
    struct lscc_rc rc;
    lscc_rc_init(&rc, &p);
    uint64_t inflight[10];
    for (int i = 0; i < 10; i++)
        inflight[i] = 40 * G;                        /* sources already at BR */
    int64_t q = 0;
    const int64_t br = 40 * G, per = br / 40000;     /* 1 MB per period */
    uint64_t r = 0;
    for (int t = 0; t < 4000; t++) {                 /* 0.8 s */
        int64_t in = (int64_t)(inflight[t % 10] / 40000);
        int64_t out = q + in < per ? q + in : per;
        q += in - out;
        r = lscc_rc_update(&rc, &p, (uint64_t)q, (uint64_t)out);
        inflight[t % 10] = r;                        /* arrives N periods later */
    }
    CHECK(r >= 39 * G && r <= 41 * G);
    CHECK(q > 1900000 && q < 2100000);
}

/* Pseudo-queue (Eq. 10): R = 8 Gb/s drains one byte per 1000 ps. */
TEST(rl_pseudo_queue)
{
    struct lscc_rl_params p;
    struct lscc_rl rl;
    struct lscc_rl_entry slots[16];
    lscc_rl_params_default(&p, 200 * G, 1 * MS, 200 * US);
    p.capacity = 16;
    lscc_rl_init(&rl, &p, slots, 0);
    CHECK_EQ(rl.rate_bps, 200 * G);                  /* before any feedback */
    lscc_rl_on_feedback(&rl, 0, 8 * G);
    lscc_rl_input(&rl, 0, 10000);
    CHECK_EQ(lscc_rl_qlen(&rl, 1500), 9999);         /* 1.5 B drained: 1 + carry */
    CHECK_EQ(lscc_rl_qlen(&rl, 2000), 9998);         /* carry completes byte 2 */
    CHECK_EQ(lscc_rl_qlen(&rl, 1000), 9998);         /* time never runs back */
    lscc_rl_input(&rl, 5000 * 1000ull, 3000);        /* t = 5 µs: 10000−5000+3000 */
    CHECK_EQ(rl.q_bytes, 8000);
    /* Rate change: old rate up to now, new one after (16 Gb/s: 2 B/ns). */
    lscc_rl_on_feedback(&rl, 6000 * 1000ull, 16 * G);
    CHECK_EQ(rl.q_bytes, 7000);
    CHECK_EQ(lscc_rl_qlen(&rl, 7000 * 1000ull), 5000);
    /* Empty: no credit banked. */
    CHECK_EQ(lscc_rl_qlen(&rl, 100 * US), 0);
    lscc_rl_input(&rl, 100 * US, 100);
    CHECK_EQ(rl.q_bytes, 100);
    CHECK_EQ(lscc_rl_qlen(&rl, 100 * US + 10000), 80);
    CHECK_EQ(rl.n_feedback, 2);
}

static struct lscc_key K(uint32_t s, uint32_t d)
{
    struct lscc_key k = { s, d, 1000, 4791 };
    return k;
}

/* Alg. 2: who gets a direct CNP.  Threshold 1000 B (long after 1000 B),
 * Q*ref 5000 B, R = 0 so Q* only grows. */
TEST(rl_direct_cnps)
{
    struct lscc_rl_params p;
    struct lscc_rl rl;
    struct lscc_rl_entry slots[16];
    uint32_t out[8];
    lscc_rl_params_default(&p, 200 * G, 1 * MS, 200 * US);
    p.capacity = 16;
    p.long_flow_bytes = 1000;
    p.q_ref_bytes = 5000;
    lscc_rl_init(&rl, &p, slots, 0);
    lscc_rl_on_feedback(&rl, 0, 0);
    struct lscc_key a = K(1, 9), b = K(2, 9), c = K(3, 9);
    /* a: long, innocent.  b: long, ECN-marked locally.  c: short. */
    CHECK_EQ(lscc_rl_on_data(&rl, &p, 1, &a, 10, 1500, 0), 0);
    CHECK_EQ(lscc_rl_on_data(&rl, &p, 1, &b, 11, 1500, 1), LSCC_RL_CLEAR_CE);
    CHECK_EQ(lscc_rl_on_data(&rl, &p, 1, &c, 12, 500, 0), 0);
    lscc_rl_input(&rl, 1, 3500);
    /* Q* = 3500 < 5000: nothing, bits kept (lines 2-3). */
    CHECK_EQ(lscc_rl_tick(&rl, &p, 50 * US, out, 8), 0);
    CHECK_EQ(lscc_rl_find(&rl, &b)->cnp, 1);
    lscc_rl_input(&rl, 50 * US, 1500);               /* Q* = 5000 >= Q*ref */
    uint32_t n = lscc_rl_tick(&rl, &p, 100 * US, out, 8);
    CHECK_EQ(n, 2);
    CHECK((out[0] == 11 && out[1] == 12) || (out[0] == 12 && out[1] == 11));
    /* ResetTable: b's bit cleared, c still short. */
    CHECK_EQ(lscc_rl_find(&rl, &b)->cnp, 0);
    n = lscc_rl_tick(&rl, &p, 150 * US, out, 8);
    CHECK_EQ(n, 1);
    CHECK_EQ(out[0], 12);
    /* A CNP from the remote side (reported with a's data key) marks a. */
    lscc_rl_on_cnp(&rl, &p, 160 * US, &a, 10);
    lscc_rl_on_data(&rl, &p, 170 * US, &c, 12, 600, 0);   /* c: 1100 B, long now */
    n = lscc_rl_tick(&rl, &p, 200 * US, out, 8);
    CHECK_EQ(n, 1);
    CHECK_EQ(out[0], 10);
    /* Truncation: two qualify, room for one. */
    lscc_rl_on_cnp(&rl, &p, 210 * US, &a, 10);
    lscc_rl_on_cnp(&rl, &p, 210 * US, &b, 11);
    CHECK_EQ(lscc_rl_tick(&rl, &p, 250 * US, out, 1), 2);
    CHECK_EQ(rl.n_truncated, 1);
    CHECK_EQ(rl.n_direct_cnps, 2 + 1 + 1 + 1);
    CHECK_EQ(rl.n_ecn_cleared, 1);
    CHECK_EQ(rl.n_remote_cnps, 3);
    CHECK_EQ(rl.n_ticks, 5);
    CHECK_EQ(rl.n_ticks_above, 4);
}

/* TxBytes saturates at 32 bits; idle entries go; a full table refuses. */
TEST(rl_table_limits)
{
    struct lscc_rl_params p;
    struct lscc_rl rl;
    struct lscc_rl_entry slots[4];
    uint32_t out[8];
    lscc_rl_params_default(&p, 200 * G, 1 * MS, 200 * US);
    CHECK_EQ(p.long_flow_bytes, 100000001u);          /* 2 × 50 MB BDP + 1 */
    CHECK_EQ(p.idle_ps, 2 * MS);
    p.capacity = 4;
    p.q_ref_bytes = 1;
    lscc_rl_init(&rl, &p, slots, 0);
    lscc_rl_on_feedback(&rl, 0, 0);
    struct lscc_key k[5];
    for (uint32_t i = 0; i < 5; i++)
        k[i] = K(i + 1, 100);
    for (uint32_t i = 0; i < 4; i++)
        lscc_rl_on_data(&rl, &p, 0, &k[i], i, 1000, 0);
    CHECK_EQ(rl.size, 4);
    CHECK_EQ(lscc_rl_on_data(&rl, &p, 0, &k[4], 4, 1000, 1), 0);  /* full: untracked */
    CHECK_EQ(rl.n_full, 1);
    CHECK(lscc_rl_find(&rl, &k[4]) == NULL);
    for (int i = 0; i < 3; i++)
        lscc_rl_on_data(&rl, &p, 0, &k[0], 0, UINT32_MAX / 2, 0);
    CHECK_EQ(lscc_rl_find(&rl, &k[0])->tx_bytes, UINT32_MAX);
    /* k[1], k[2] stay busy; k[0], k[3] go idle. */
    lscc_rl_input(&rl, 0, 100);
    lscc_rl_on_data(&rl, &p, 1 * MS, &k[1], 1, 10, 0);
    lscc_rl_on_data(&rl, &p, 1 * MS, &k[2], 2, 10, 0);
    uint32_t n = lscc_rl_tick(&rl, &p, 2 * MS, out, 8);
    CHECK_EQ(rl.n_evicted, 2);
    CHECK_EQ(rl.size, 2);
    CHECK(lscc_rl_find(&rl, &k[0]) == NULL && lscc_rl_find(&rl, &k[3]) == NULL);
    CHECK(lscc_rl_find(&rl, &k[1]) != NULL && lscc_rl_find(&rl, &k[2]) != NULL);
    CHECK_EQ(n, 2);                                   /* both still short */
    /* Everything idle: the table empties, every slot is reusable. */
    lscc_rl_tick(&rl, &p, 10 * MS, out, 8);
    CHECK_EQ(rl.size, 0);
    for (uint32_t i = 0; i < 4; i++)
        CHECK(lscc_rl_on_data(&rl, &p, 10 * MS, &k[i], i, 1, 0) == 0 && lscc_rl_find(&rl, &k[i]) != NULL);
    CHECK_EQ(rl.n_full, 1);
}

/* Backward-shift deletion against a reference: 16 slots, rounds of
 * inserts with random ages, then eviction of the old ones; every survivor
 * must still be found, every evicted key gone. */
TEST(rl_table_churn)
{
    struct lscc_rl_params p;
    struct lscc_rl rl;
    struct lscc_rl_entry slots[16];
    uint32_t out[16];
    uint8_t alive[64] = { 0 };
    uint64_t seen[64] = { 0 };
    uint64_t x = 12345;
    lscc_rl_params_default(&p, 200 * G, 1 * MS, 200 * US);
    p.capacity = 16;
    p.idle_ps = 10;
    lscc_rl_init(&rl, &p, slots, 0);
    for (uint64_t round = 1; round <= 200; round++) {
        uint64_t now = round * 100;
        for (int k = 0; k < 8; k++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t id = (uint32_t)(x >> 58);               /* 0..63 */
            uint64_t t = now - (x >> 20) % 20;               /* age 0..19 */
            struct lscc_key key = K(id, 7);
            if (!alive[id] && rl.size == 16)
                continue;
            lscc_rl_on_data(&rl, &p, t, &key, id, 1, 0);
            alive[id] = 1;
            seen[id] = t;
        }
        lscc_rl_tick(&rl, &p, now, out, 16);
        uint32_t n = 0;
        for (uint32_t id = 0; id < 64; id++) {
            struct lscc_key key = K(id, 7);
            if (alive[id] && now - seen[id] >= 10)
                alive[id] = 0;
            const struct lscc_rl_entry *e = lscc_rl_find(&rl, &key);
            CHECK_EQ(e != NULL, alive[id]);
            n += alive[id];
        }
        CHECK_EQ(rl.size, n);
    }
    CHECK(rl.n_evicted > 100);
}

TEST(rl_normal_cnp_interval_and_check)
{
    struct lscc_rl_params p;
    char why[128];
    lscc_rl_params_default(&p, 200 * G, 1 * MS, 200 * US);
    CHECK_EQ(p.cnp_interval_ps, 200 * US);          /* T */
    CHECK_EQ(p.normal_cnp_multiple, 10);
    CHECK_EQ(p.q_ref_bytes, 2000000);
    CHECK_EQ(lscc_normal_cnp_interval_ps(p.cnp_interval_ps, 10), 2 * MS);
    CHECK_EQ(lscc_normal_cnp_interval_ps(50 * US, 1), 50 * US);
    CHECK_EQ(lscc_normal_cnp_interval_ps(p.cnp_interval_ps, 0), UINT64_MAX);
    CHECK_EQ(lscc_rl_params_check(&p, why, sizeof why), 0);
    p.capacity = 1000;
    CHECK(lscc_rl_params_check(&p, why, sizeof why) < 0);
    CHECK(strstr(why, "power of two") != NULL);
}

/* §III-C with the micro-benchmark setting (§IV-B): N = 10, T = 200 µs,
 * Qref = 2 MB, ΔR = 1 Gb/s.
 *   Qref bound with ΔBR_max = 0.1 × 40 Gb/s: 4e9 · 11 · 200e-6 / 8 = 1.1 MB.
 *   ΔR lower bound with ΔQ = 1 MB: 8e6 / (200e-6 · 11) = 3.636 Gb/s.
 *   ΔR upper bound, DCQCN R_ai 40 Mb/s, T_i 55 µs, M = 5:
 *     5 · 200/55 · 40e6 = 727.27 Mb/s. */
TEST(guideline_eq12)
{
    struct lscc_rc_params p;
    struct lscc_guide g = { 4 * G, 0, 0, 0, 0 };
    struct lscc_guide_result r;
    char why[400];
    lscc_rc_params_default(&p, 200 * G, 1 * MS);
    CHECK_EQ(lscc_guide_check(&p, &g, &r, why, sizeof why), 0);
    CHECK_EQ(r.q_ref_min_bytes, 1100000);
    CHECK_EQ(why[0], '\0');
    p.q_ref_bytes = 1100000;                          /* strict bound */
    CHECK_EQ(lscc_guide_check(&p, &g, &r, why, sizeof why), LSCC_GUIDE_QREF_LOW);
    CHECK(strstr(why, "qref 1100000 B") != NULL);
    p.q_ref_bytes = 2000000;
    g.dq_bytes = 1000000;
    CHECK_EQ(lscc_guide_check(&p, &g, &r, why, sizeof why), LSCC_GUIDE_DR_LOW);
    CHECK_EQ(r.dr_lo_bps, 3636363636ull);
    g.dq_bytes = 100000;                               /* 363.6 Mb/s < 1 Gb/s */
    g.m_flows = 5;
    g.r_ai_bps = 40 * M;
    g.t_i_ps = 55 * US;
    CHECK_EQ(lscc_guide_check(&p, &g, &r, why, sizeof why), LSCC_GUIDE_DR_HIGH);
    CHECK_EQ(r.dr_hi_bps, 727272727ull);
    CHECK(strstr(why, "M*T*R_ai/T_i") != NULL);
    g.m_flows = 28;                                    /* 4.07 Gb/s > 1 Gb/s */
    CHECK_EQ(lscc_guide_check(&p, &g, &r, NULL, 0), 0);
    g.dbr_max_bps = 20 * G;                            /* 5.5 MB > 2 MB */
    g.dq_bytes = 10000000;
    CHECK_EQ(lscc_guide_check(&p, &g, &r, why, sizeof why), LSCC_GUIDE_QREF_LOW | LSCC_GUIDE_DR_LOW);
    CHECK(strstr(why, "; dR") != NULL);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_lscc";
    RUN(rc_defaults);
    RUN(rc_rl_blame);
    RUN(rc_feedback_list);
    RUN(rc_dr_clamp);
    RUN(rc_bounds_and_unit);
    RUN(rc_closed_loop_settles);
    RUN(rl_pseudo_queue);
    RUN(rl_direct_cnps);
    RUN(rl_table_limits);
    RUN(rl_table_churn);
    RUN(rl_normal_cnp_interval_and_check);
    RUN(guideline_eq12);
    return test_summary();
}
