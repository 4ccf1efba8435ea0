/*
 * test_gfc.c -- unit tests of the GFC state machine (src/cc/gfc.h): the
 * occupancy -> level -> rate staircase, the downstream's feedback triggers
 * with hysteresis, the upstream's rate limiter, and the feedback frame.
 * Every expected number is computed by hand in the comments.
 */
#include "test.h"

#include "cc/gfc.h"

/* B0 = 100 KB, Bm = 500 KB, N = 4 stages of S = 100 KB, H = 10 KB. */
static const struct gfc_params P4 = {
    .start_bytes = 100000, .stop_bytes = 500000, .stages = 4, .hyst_bytes = 10000,
};

TEST(params_check)
{
    char why[128];
    struct gfc_params p = P4;
    CHECK_EQ(gfc_params_check(&p, why, sizeof why), 0);
    p.stages = 0;
    CHECK_EQ(gfc_params_check(&p, why, sizeof why), -1);
    CHECK(strstr(why, "stages") != NULL);
    p = P4; p.stages = GFC_MAX_STAGES + 1;
    CHECK_EQ(gfc_params_check(&p, why, sizeof why), -1);
    p = P4; p.stop_bytes = p.start_bytes;
    CHECK_EQ(gfc_params_check(&p, why, sizeof why), -1);
    CHECK(strstr(why, "stop") != NULL);
    p = P4; p.start_bytes = 0; p.stop_bytes = 3; p.stages = 4;   /* 3 bytes, 4 stages */
    CHECK_EQ(gfc_params_check(&p, why, sizeof why), -1);
    p = P4; p.stop_bytes = GFC_MAX_BYTES + 1;
    CHECK_EQ(gfc_params_check(&p, why, sizeof why), -1);
    p = P4; p.hyst_bytes = GFC_MAX_BYTES + 1;
    CHECK_EQ(gfc_params_check(&p, why, sizeof why), -1);
    CHECK_EQ(gfc_params_check(NULL, why, sizeof why), -1);
    CHECK_EQ(gfc_params_check(&P4, NULL, 0), 0);
}

TEST(levels_by_hand)
{
    /* level k in 1..4 covers [100000 + (k-1)100000, 100000 + k 100000) */
    CHECK_EQ(gfc_level_of(&P4, 0), 0);
    CHECK_EQ(gfc_level_of(&P4, 99999), 0);
    CHECK_EQ(gfc_level_of(&P4, 100000), 1);
    CHECK_EQ(gfc_level_of(&P4, 199999), 1);
    CHECK_EQ(gfc_level_of(&P4, 200000), 2);
    CHECK_EQ(gfc_level_of(&P4, 399999), 3);
    CHECK_EQ(gfc_level_of(&P4, 400000), 4);
    CHECK_EQ(gfc_level_of(&P4, 499999), 4);
    CHECK_EQ(gfc_level_of(&P4, 500000), 5);
    CHECK_EQ(gfc_level_of(&P4, UINT64_MAX), 5);
    /* Width not divisible by N: B0 = 0, Bm = 10, N = 3: level = 1 + 3q/10
     * (integer): q = 3 -> 1, 4 -> 2, 6 -> 2, 7 -> 3, 9 -> 3, 10 -> 4. */
    struct gfc_params p = { .start_bytes = 0, .stop_bytes = 10, .stages = 3 };
    CHECK_EQ(gfc_level_of(&p, 3), 1);
    CHECK_EQ(gfc_level_of(&p, 4), 2);
    CHECK_EQ(gfc_level_of(&p, 6), 2);
    CHECK_EQ(gfc_level_of(&p, 7), 3);
    CHECK_EQ(gfc_level_of(&p, 9), 3);
    CHECK_EQ(gfc_level_of(&p, 10), 4);
    /* floors: ceil((k-1) 10 / 3): 2 -> 4, 3 -> 7; top -> 10 */
    CHECK_EQ(gfc_level_floor(&p, 0), 0);
    CHECK_EQ(gfc_level_floor(&p, 1), 0);
    CHECK_EQ(gfc_level_floor(&p, 2), 4);
    CHECK_EQ(gfc_level_floor(&p, 3), 7);
    CHECK_EQ(gfc_level_floor(&p, 4), 10);
    CHECK_EQ(gfc_level_floor(&P4, 1), 100000);
    CHECK_EQ(gfc_level_floor(&P4, 2), 200000);
    CHECK_EQ(gfc_level_floor(&P4, 4), 400000);
    CHECK_EQ(gfc_level_floor(&P4, 5), 500000);
    /* every floor is the first occupancy of its level */
    for (uint32_t k = 1; k <= 4; k++) {
        CHECK_EQ(gfc_level_of(&p, gfc_level_floor(&p, k)), k);
        if (k > 1)                                     /* level 1's floor is B0 = 0 */
            CHECK_EQ(gfc_level_of(&p, gfc_level_floor(&p, k) - 1), k - 1);
        CHECK_EQ(gfc_level_of(&P4, gfc_level_floor(&P4, k)), k);
        CHECK_EQ(gfc_level_of(&P4, gfc_level_floor(&P4, k) - 1), k - 1);
    }
}

TEST(rates_by_hand)
{
    /* 32768 (5-k)/5 truncated: 32768, 26214.4, 19660.8, 13107.2, 6553.6, 0 */
    CHECK_EQ(gfc_level_rate(&P4, 0), 32768);
    CHECK_EQ(gfc_level_rate(&P4, 1), 26214);
    CHECK_EQ(gfc_level_rate(&P4, 2), 19660);
    CHECK_EQ(gfc_level_rate(&P4, 3), 13107);
    CHECK_EQ(gfc_level_rate(&P4, 4), 6553);
    CHECK_EQ(gfc_level_rate(&P4, 5), 0);
    CHECK_EQ(gfc_level_rate(&P4, 200), 0);
    /* N = 1: 32768, 16384, 0 */
    struct gfc_params p = P4;
    p.stages = 1;
    CHECK_EQ(gfc_level_rate(&p, 1), 16384);
    CHECK_EQ(gfc_level_rate(&p, 2), 0);
    /* monotone non-increasing for the largest N */
    p.stages = GFC_MAX_STAGES; p.stop_bytes = p.start_bytes + 1000000;
    for (uint32_t k = 1; k <= GFC_MAX_STAGES + 1; k++)
        CHECK(gfc_level_rate(&p, k) < gfc_level_rate(&p, k - 1));
}

TEST(downstream_sequence_with_hysteresis)
{
    struct gfc_down d;
    gfc_down_init(&d);
    CHECK_EQ(gfc_down_update(&P4, &d, 50000), 0);    /* level 0 = initial */
    CHECK_EQ(d.level, 0);
    CHECK_EQ(gfc_down_update(&P4, &d, 100000), 1);   /* reaches B0 */
    CHECK_EQ(d.level, 1);
    CHECK_EQ(gfc_down_update(&P4, &d, 150000), 0);
    CHECK_EQ(gfc_down_update(&P4, &d, 205000), 1);
    CHECK_EQ(d.level, 2);
    /* 195000 is level 1, but 195000 + 10000 = 205000 is still level 2: stay */
    CHECK_EQ(gfc_down_update(&P4, &d, 195000), 0);
    CHECK_EQ(d.level, 2);
    CHECK_EQ(gfc_down_update(&P4, &d, 190000), 0);   /* 200000: still 2 */
    CHECK_EQ(gfc_down_update(&P4, &d, 189999), 1);   /* 199999: level 1 */
    CHECK_EQ(d.level, 1);
    /* a jump over several stages is one feedback */
    CHECK_EQ(gfc_down_update(&P4, &d, 600000), 1);
    CHECK_EQ(d.level, 5);
    CHECK_EQ(gfc_level_rate(&P4, d.level), 0);
    CHECK_EQ(gfc_down_update(&P4, &d, 495000), 0);   /* 505000: stays 5 */
    CHECK_EQ(gfc_down_update(&P4, &d, 489999), 1);   /* 499999: 4 */
    CHECK_EQ(d.level, 4);
    CHECK_EQ(gfc_down_update(&P4, &d, 0), 1);        /* empty: straight to 0 */
    CHECK_EQ(d.level, 0);
    /* without hysteresis the boundary flips every time */
    struct gfc_params p = P4;
    p.hyst_bytes = 0;
    CHECK_EQ(gfc_down_update(&p, &d, 100000), 1);
    CHECK_EQ(gfc_down_update(&p, &d, 99999), 1);
    CHECK_EQ(d.level, 0);
}

TEST(upstream_rate_limiter)
{
    struct gfc_up u;
    gfc_up_init(&u);
    CHECK_EQ(u.rate, GFC_Q15_ONE);
    CHECK_EQ(gfc_up_next_ps(&u), 0);
    /* a frame of 8000 ps started at 1000 */
    gfc_up_sent(&u, 1000, 8000);
    CHECK_EQ(gfc_up_next_ps(&u), 9000);                /* line rate: no gap */
    CHECK_EQ(gfc_up_feedback(&u, 16384), GFC_OK);      /* half: 1000 + 16000 */
    CHECK_EQ(gfc_up_next_ps(&u), 17000);
    /* 0.4: 8000 * 32768 / 13107 = 20000.15 -> 20001 (rounded up) */
    CHECK_EQ(gfc_up_feedback(&u, 13107), GFC_OK);
    CHECK_EQ(gfc_up_next_ps(&u), 21001);
    CHECK_EQ(gfc_up_feedback(&u, 0), GFC_OK);
    CHECK(gfc_up_next_ps(&u) == GFC_NEVER);
    CHECK_EQ(gfc_up_feedback(&u, GFC_Q15_ONE), GFC_OK);
    CHECK_EQ(gfc_up_next_ps(&u), 9000);
    /* the smallest nonzero rate: 8000 * 32768 = 262144000 ps gap */
    CHECK_EQ(gfc_up_feedback(&u, 1), GFC_OK);
    CHECK_EQ(gfc_up_next_ps(&u), 1000 + 262144000ull);
}

TEST(malformed_feedback_has_no_effect)
{
    struct gfc_up u;
    gfc_up_init(&u);
    gfc_up_sent(&u, 1000, 8000);
    CHECK_EQ(gfc_up_feedback(&u, 16384), GFC_OK);
    static const uint32_t bad[] = { GFC_Q15_ONE + 1, 0xffff, 0x10000, UINT32_MAX };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ(gfc_up_feedback(&u, bad[i]), GFC_EVALUE);
        CHECK_EQ(u.rate, 16384);
        CHECK_EQ(gfc_up_next_ps(&u), 17000);
    }
}

static const struct gfc_frame F0 = {
    .src_mac = { 0x02, 0, 0, 0, 0, 0x07 },
    .enable = 0x09,                               /* classes 0 and 3 */
    .rate = { 32768, 0, 0, 6553, 0, 0, 0, 0 },
};

TEST(frame_layout_and_round_trip)
{
    uint8_t b[64];
    memset(b, 0xaa, sizeof b);
    CHECK_EQ(gfc_frame_encode(&F0, b, sizeof b), GFC_FRAME_MIN);
    CHECK_EQ(b[0], 0x01); CHECK_EQ(b[1], 0x80); CHECK_EQ(b[2], 0xc2); CHECK_EQ(b[5], 0x01);
    CHECK_EQ(b[6], 0x02); CHECK_EQ(b[11], 0x07);
    CHECK_EQ(b[12], 0x88); CHECK_EQ(b[13], 0x08);
    CHECK_EQ(b[14], 0x01); CHECK_EQ(b[15], 0x03);
    CHECK_EQ(b[16], 0); CHECK_EQ(b[17], 0x09);
    CHECK_EQ(b[18], 0x80); CHECK_EQ(b[19], 0x00);      /* class 0: 32768 */
    CHECK_EQ(b[24], 0x19); CHECK_EQ(b[25], 0x99);      /* class 3: 6553 = 0x1999 */
    for (int i = 34; i < GFC_FRAME_MIN; i++)
        CHECK_EQ(b[i], 0);
    CHECK_EQ(b[GFC_FRAME_MIN], 0xaa);                  /* nothing past 60 */
    struct gfc_frame d;
    CHECK_EQ(gfc_frame_decode(b, GFC_FRAME_MIN, &d), GFC_OK);
    CHECK_EQ(d.enable, 0x09);
    CHECK_EQ(d.rate[0], 32768);
    CHECK_EQ(d.rate[3], 6553);
    CHECK_EQ(memcmp(d.src_mac, F0.src_mac, 6), 0);
    CHECK_EQ(gfc_frame_encode(&F0, b, GFC_FRAME_MIN - 1), 0);
    CHECK_EQ(gfc_frame_encode(NULL, b, sizeof b), 0);
    struct gfc_frame bad = F0;
    bad.rate[3] = 40000;
    CHECK_EQ(gfc_frame_encode(&bad, b, sizeof b), 0);
    bad = F0;
    bad.rate[5] = 40000;                               /* class 5 not enabled: written as 0 */
    CHECK_EQ(gfc_frame_encode(&bad, b, sizeof b), GFC_FRAME_MIN);
    CHECK_EQ(b[28] | b[29], 0);
}

TEST(malformed_frames_rejected)
{
    uint8_t b[GFC_FRAME_MIN], c[GFC_FRAME_MIN];
    struct gfc_frame d;
    CHECK_EQ(gfc_frame_encode(&F0, b, sizeof b), GFC_FRAME_MIN);
    memset(&d, 0x5a, sizeof d);
    struct gfc_frame before = d;
    /* every truncation */
    for (size_t len = 0; len < GFC_FRAME_MIN; len++)
        CHECK_EQ(gfc_frame_decode(b, len, &d), GFC_ESHORT);
    CHECK_EQ(gfc_frame_decode(NULL, 60, &d), GFC_EARG);
    /* destination, EtherType, opcode: every byte */
    static const int idx[] = { 0, 1, 2, 3, 4, 5, 12, 13, 14, 15 };
    for (size_t i = 0; i < sizeof idx / sizeof idx[0]; i++) {
        memcpy(c, b, sizeof c);
        c[idx[i]] ^= 0x01;
        CHECK_EQ(gfc_frame_decode(c, sizeof c, &d), GFC_ETYPE);
    }
    /* PFC's opcode (0x0101) and Escape's (0x0102) are not GFC */
    memcpy(c, b, sizeof c); c[15] = 0x01;
    CHECK_EQ(gfc_frame_decode(c, sizeof c, &d), GFC_ETYPE);
    c[15] = 0x02;
    CHECK_EQ(gfc_frame_decode(c, sizeof c, &d), GFC_ETYPE);
    /* reserved enable bits */
    memcpy(c, b, sizeof c); c[16] = 0x80;
    CHECK_EQ(gfc_frame_decode(c, sizeof c, &d), GFC_ERSVD);
    /* an enabled rate above line rate: 32769 on class 0, 0xffff on class 3 */
    memcpy(c, b, sizeof c); c[19] = 0x01;
    CHECK_EQ(gfc_frame_decode(c, sizeof c, &d), GFC_EVALUE);
    memcpy(c, b, sizeof c); c[24] = 0xff; c[25] = 0xff;
    CHECK_EQ(gfc_frame_decode(c, sizeof c, &d), GFC_EVALUE);
    /* out untouched by every rejection */
    CHECK_EQ(memcmp(&d, &before, sizeof d), 0);
    /* a junk value in a class that is not enabled is ignored */
    memcpy(c, b, sizeof c); c[20] = 0xff; c[21] = 0xff;
    CHECK_EQ(gfc_frame_decode(c, sizeof c, &d), GFC_OK);
    /* validate only */
    CHECK_EQ(gfc_frame_decode(b, sizeof b, NULL), GFC_OK);
}

TEST(strerror_texts)
{
    CHECK_STR(gfc_strerror(GFC_OK), "ok");
    CHECK_STR(gfc_strerror(GFC_EVALUE), "GFC rate above line rate (Q15 > 32768)");
    CHECK_STR(gfc_strerror(GFC_ESHORT), "GFC frame too short");
    CHECK_STR(gfc_strerror(-99), "unknown GFC error");
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_gfc";
    RUN(params_check);
    RUN(levels_by_hand);
    RUN(rates_by_hand);
    RUN(downstream_sequence_with_hysteresis);
    RUN(upstream_rate_limiter);
    RUN(malformed_feedback_has_no_effect);
    RUN(frame_layout_and_round_trip);
    RUN(malformed_frames_rejected);
    RUN(strerror_texts);
    return test_summary();
}
