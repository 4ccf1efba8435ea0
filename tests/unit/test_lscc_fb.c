/*
 * test_lscc_fb.c -- LSCC's feedback frame (src/cc/lscc_fb.h, issue 15):
 * the strict parser, the SipHash tag (forged, tampered, missing), the
 * (epoch, seq) freshness rule (replay, a far-ahead pair, a restarted
 * sender, the wrap of seq) and the resync rule of a receiver without a key.
 */
#include "test.h"

#include "cc/lscc_fb.h"
#include "cc/lscc.h"

static const uint8_t KEY[16] = {0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe, 1, 2, 3, 4, 5, 6, 7, 8};
static const uint8_t BADKEY[16] = {0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe, 1, 2, 3, 4, 5, 6, 7, 9};
static const uint8_t ME[6] = {2, 0x97, 0, 0, 3, 2};

#define E1 1795000000000000000ull      /* a start time, ns since 1970 (2026-11-18) */

static struct lscc_fb fb_of(uint32_t units, uint64_t epoch, uint32_t seq)
{
    struct lscc_fb fb = {.units = units, .seq = seq, .epoch = epoch};
    memcpy(fb.src, ME, 6);
    return fb;
}

/* What rocc-switch does with a frame: parse under key, then the freshness
 * rule; the result and, when accepted, the frame's rate in units. */
static int deliver(const uint8_t *key, struct lscc_fb_rx *rx, const uint8_t *f, size_t len, uint32_t *units)
{
    struct lscc_fb fb;
    int r = lscc_fb_parse(key, f, len, &fb);
    if (r == LSCC_FB_OK) r = lscc_fb_rx_accept(rx, fb.epoch, fb.seq);
    if (r == LSCC_FB_OK && units) *units = fb.units;
    return r;
}

static int send_one(const uint8_t *key, struct lscc_fb_rx *rx, uint32_t units, uint64_t epoch, uint32_t seq,
                    uint32_t *got)
{
    uint8_t f[LSCC_FB_FRAME_BYTES];
    struct lscc_fb fb = fb_of(units, epoch, seq);
    if (lscc_fb_encode(&fb, key, f, sizeof f) != LSCC_FB_FRAME_BYTES) return -100;
    return deliver(key, rx, f, sizeof f, got);
}

TEST(round_trip_and_layout)
{
    uint8_t f[LSCC_FB_FRAME_BYTES + 4];
    struct lscc_fb fb = fb_of(40000, E1, 7), out;
    CHECK_EQ(lscc_fb_encode(&fb, NULL, f, LSCC_FB_FRAME_BYTES - 1), 0u);
    CHECK_EQ(lscc_fb_encode(NULL, NULL, f, sizeof f), 0u);
    CHECK_EQ(lscc_fb_encode(&fb, NULL, f, sizeof f), 60u);
    /* The bytes of lscc_fb.h's layout. */
    static const uint8_t head[20] = {1, 0x80, 0xc2, 0, 0, 0x0e, 2, 0x97, 0, 0, 3, 2, 0x88, 0xb6, 'L', 'S', 2, 1, 0, 0};
    CHECK(!memcmp(f, head, sizeof head));
    CHECK(f[20] == 0 && f[21] == 0 && f[22] == 0x9c && f[23] == 0x40);          /* 40000 */
    CHECK(f[24] == 0 && f[27] == 7);
    CHECK(f[28] == (uint8_t)(E1 >> 56) && f[35] == (uint8_t)E1);
    for (int i = 36; i < 60; i++) CHECK(f[i] == 0);
    CHECK_EQ(lscc_fb_parse(NULL, f, 60, &out), LSCC_FB_OK);
    CHECK(out.units == 40000 && out.seq == 7 && out.epoch == E1 && !out.tagged && !memcmp(out.src, ME, 6));
    /* Tagged: type 2, the tag SipHash-2-4(key, bytes 0..35) little-endian at 36. */
    CHECK_EQ(lscc_fb_encode(&fb, KEY, f, sizeof f), 60u);
    CHECK_EQ(f[17], 2);
    uint64_t t = rocc_siphash24(KEY, f, 36), got = 0;
    for (int i = 7; i >= 0; i--) got = got << 8 | f[36 + i];
    CHECK(t == got);
    for (int i = 44; i < 60; i++) CHECK(f[i] == 0);
    CHECK_EQ(lscc_fb_parse(KEY, f, 60, &out), LSCC_FB_OK);
    CHECK(out.units == 40000 && out.seq == 7 && out.epoch == E1 && out.tagged);
    /* A keyed sender, an unkeyed receiver (rollout): the tag is not checked. */
    CHECK_EQ(lscc_fb_parse(NULL, f, 60, &out), LSCC_FB_OK);
}

TEST(malformed_each_reason)
{
    uint8_t f[LSCC_FB_FRAME_BYTES + 4];
    struct lscc_fb fb = fb_of(40000, E1, 7);
    lscc_fb_encode(&fb, NULL, f, sizeof f);
    f[60] = f[61] = f[62] = f[63] = 0;
    CHECK_EQ(lscc_fb_parse(NULL, f, 59, NULL), LSCC_FB_ELEN);
    CHECK_EQ(lscc_fb_parse(NULL, f, 61, NULL), LSCC_FB_ELEN);
    CHECK_EQ(lscc_fb_parse(NULL, f, 64, NULL), LSCC_FB_ELEN);
    CHECK_EQ(lscc_fb_parse(NULL, f, 0, NULL), LSCC_FB_ELEN);
    CHECK_EQ(lscc_fb_parse(NULL, NULL, 60, NULL), LSCC_FB_ELEN);
    f[5] = 0x01; CHECK_EQ(lscc_fb_parse(NULL, f, 60, NULL), LSCC_FB_EDST);      /* the PFC group address */
    f[5] = 0x0e; f[13] = 0xb5; CHECK_EQ(lscc_fb_parse(NULL, f, 60, NULL), LSCC_FB_EDST);
    f[13] = 0xb6; f[15] = 'T'; CHECK_EQ(lscc_fb_parse(NULL, f, 60, NULL), LSCC_FB_EMAGIC);
    f[15] = 'S'; f[16] = 1; CHECK_EQ(lscc_fb_parse(NULL, f, 60, NULL), LSCC_FB_EMAGIC);   /* version 1 */
    f[16] = 2; f[17] = 3; CHECK_EQ(lscc_fb_parse(NULL, f, 60, NULL), LSCC_FB_EMAGIC);
    f[17] = 0; CHECK_EQ(lscc_fb_parse(NULL, f, 60, NULL), LSCC_FB_EMAGIC);
    f[17] = 1; f[19] = 1; CHECK_EQ(lscc_fb_parse(NULL, f, 60, NULL), LSCC_FB_EMAGIC);     /* reserved */
    f[19] = 0; f[20] = 1; CHECK_EQ(lscc_fb_parse(NULL, f, 60, NULL), LSCC_FB_EUNITS); /* 2^24 + 40000 */
    f[20] = 0; f[21] = 0xff; f[22] = 0xff; f[23] = 0xff;                                    /* 2^24 - 1: the largest */
    CHECK_EQ(lscc_fb_parse(NULL, f, 60, NULL), LSCC_FB_OK);
    f[21] = 0; f[22] = 0x9c; f[23] = 0x40;
    f[59] = 1; CHECK_EQ(lscc_fb_parse(NULL, f, 60, NULL), LSCC_FB_EPAD);
    f[59] = 0; f[40] = 1; CHECK_EQ(lscc_fb_parse(NULL, f, 60, NULL), LSCC_FB_EPAD);  /* type 1: no tag bytes */
    f[40] = 0; f[6] = 3; CHECK_EQ(lscc_fb_parse(NULL, f, 60, NULL), LSCC_FB_ESRC);   /* multicast source */
    f[6] = 0; f[7] = 0; f[10] = 0; f[11] = 0; CHECK_EQ(lscc_fb_parse(NULL, f, 60, NULL), LSCC_FB_ESRC);
    f[6] = 2; f[7] = 0x97; f[10] = 3; f[11] = 2;
    CHECK_EQ(lscc_fb_parse(NULL, f, 60, NULL), LSCC_FB_OK);
    CHECK(!strcmp(lscc_fb_strerror(LSCC_FB_ETAG), "tag") && !strcmp(lscc_fb_strerror(LSCC_FB_EEPOCH), "epoch") &&
          !strcmp(lscc_fb_strerror(LSCC_FB_ESEQ), "seq") && !strcmp(lscc_fb_strerror(LSCC_FB_NRESULTS), "unknown"));
}

TEST(forged_tag)
{
    uint8_t f[LSCC_FB_FRAME_BYTES], g[LSCC_FB_FRAME_BYTES];
    struct lscc_fb fb = fb_of(40000, E1, 7);
    /* Tagged under another key; untagged; to a keyed receiver. */
    lscc_fb_encode(&fb, BADKEY, f, sizeof f);
    CHECK_EQ(lscc_fb_parse(KEY, f, 60, NULL), LSCC_FB_ETAG);
    lscc_fb_encode(&fb, NULL, f, sizeof f);
    CHECK_EQ(lscc_fb_parse(KEY, f, 60, NULL), LSCC_FB_ETAG);
    /* Every bit of the tagged bytes and of the tag is covered: a genuine
     * frame with any one bit flipped has no effect (a parse reason or tag). */
    lscc_fb_encode(&fb, KEY, f, sizeof f);
    int refused = 0, by_tag = 0;
    for (int bit = 0; bit < 44 * 8; bit++) {
        memcpy(g, f, sizeof g);
        g[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        int r = lscc_fb_parse(KEY, g, 60, NULL);
        refused += r != LSCC_FB_OK;
        by_tag += r == LSCC_FB_ETAG;
    }
    CHECK_EQ(refused, 44 * 8);
    /* Those the parser takes without a key (src, units in range, seq, epoch,
     * tag bits) are caught by the tag: at least seq, epoch and tag (160 bits). */
    CHECK(by_tag >= 160);
}

TEST(replay_refused)
{
    struct lscc_fb_rx rx;
    uint32_t got = 0;
    uint8_t f[LSCC_FB_FRAME_BYTES];
    lscc_fb_rx_init(&rx, 0);
    CHECK_EQ(send_one(KEY, &rx, 500, E1, 1, &got), LSCC_FB_OK);
    CHECK_EQ(send_one(KEY, &rx, 600, E1, 2, &got), LSCC_FB_OK);
    struct lscc_fb old = fb_of(100, E1, 3);
    lscc_fb_encode(&old, KEY, f, sizeof f);                   /* recorded */
    CHECK_EQ(deliver(KEY, &rx, f, 60, &got), LSCC_FB_OK);
    CHECK_EQ(got, 100u);
    CHECK_EQ(send_one(KEY, &rx, 700, E1, 4, &got), LSCC_FB_OK);
    got = 0;
    CHECK_EQ(deliver(KEY, &rx, f, 60, &got), LSCC_FB_ESEQ);   /* replayed: no effect */
    CHECK_EQ(got, 0u);
    CHECK_EQ(send_one(KEY, &rx, 700, E1, 4, NULL), LSCC_FB_ESEQ);   /* a duplicate */
    CHECK_EQ(send_one(KEY, &rx, 700, E1, 5, &got), LSCC_FB_OK);
    CHECK(rx.epoch == E1 && rx.seq == 5 && rx.n_accepted == 5);
}

TEST(far_ahead_forged_with_key)
{
    /* A forged frame with a pair far ahead never reaches the rule: the
     * genuine frames that follow are all accepted. */
    struct lscc_fb_rx rx;
    uint32_t got = 0;
    lscc_fb_rx_init(&rx, 0);
    CHECK_EQ(send_one(KEY, &rx, 500, E1, 1, &got), LSCC_FB_OK);
    uint8_t f[LSCC_FB_FRAME_BYTES];
    struct lscc_fb fake = fb_of(1, UINT64_MAX, UINT32_MAX);
    lscc_fb_encode(&fake, BADKEY, f, sizeof f);
    CHECK_EQ(deliver(KEY, &rx, f, 60, &got), LSCC_FB_ETAG);
    lscc_fb_encode(&fake, NULL, f, sizeof f);
    CHECK_EQ(deliver(KEY, &rx, f, 60, &got), LSCC_FB_ETAG);
    CHECK_EQ(got, 500u);
    for (uint32_t s = 2; s < 40; s++) CHECK_EQ(send_one(KEY, &rx, 400 + s, E1, s, &got), LSCC_FB_OK);
    CHECK_EQ(got, 439u);
    CHECK(rx.epoch == E1 && rx.seq == 39);
}

TEST(far_ahead_without_key_resyncs)
{
    /* Without a key the far-ahead frame is believed (nothing can tell it
     * from the neighbour's); the genuine frames are refused only until
     * LSCC_FB_RESYNC of them in a row, then accepted again. */
    struct lscc_fb_rx rx;
    uint32_t got = 0;
    lscc_fb_rx_init(&rx, 1);
    CHECK_EQ(send_one(NULL, &rx, 500, E1, 1, &got), LSCC_FB_OK);
    CHECK_EQ(send_one(NULL, &rx, 1, E1, 1u << 31, &got), LSCC_FB_OK);
    CHECK_EQ(got, 1u);
    for (uint32_t s = 2; s < 1 + LSCC_FB_RESYNC; s++) CHECK_EQ(send_one(NULL, &rx, 500, E1, s, &got), LSCC_FB_ESEQ);
    CHECK_EQ(got, 1u);
    CHECK_EQ(send_one(NULL, &rx, 501, E1, 1 + LSCC_FB_RESYNC, &got), LSCC_FB_OK);
    CHECK_EQ(got, 501u);
    CHECK_EQ(rx.n_resync, 1u);
    CHECK_EQ(send_one(NULL, &rx, 502, E1, 2 + LSCC_FB_RESYNC, &got), LSCC_FB_OK);
    /* A run that does not increase (the same stale frame again and again)
     * never resyncs. */
    for (int i = 0; i < 3 * (int)LSCC_FB_RESYNC; i++) CHECK_EQ(send_one(NULL, &rx, 7, E1, 3, NULL), LSCC_FB_ESEQ);
    CHECK_EQ(rx.n_resync, 1u);
    /* The rule is off for a keyed receiver: there the tag keeps forged
     * pairs out, and a burst of recorded genuine frames replayed in order
     * must not roll the reference back. */
    lscc_fb_rx_init(&rx, 0);
    CHECK_EQ(send_one(KEY, &rx, 500, E1, 100, &got), LSCC_FB_OK);
    for (uint32_t s = 1; s <= 4 * LSCC_FB_RESYNC; s++) CHECK_EQ(send_one(KEY, &rx, 9, E1, s, &got), LSCC_FB_ESEQ);
    CHECK(got == 500u && rx.seq == 100 && rx.n_resync == 0);
}

TEST(restart_accepted)
{
    /* A sender restarts: a later start time is a newer epoch, its seq
     * starts at 1 again and the receiver (not restarted) accepts it at once.
     * The old run's frames are refused afterwards (EEPOCH). */
    struct lscc_fb_rx rx;
    struct lscc_fb_tx a, b;
    uint64_t e;
    uint32_t s, got = 0;
    lscc_fb_rx_init(&rx, 0);
    lscc_fb_tx_init(&a, E1);
    for (int i = 0; i < 1000; i++) {
        lscc_fb_tx_next(&a, &e, &s);
        CHECK_EQ(send_one(KEY, &rx, 300, e, s, NULL), LSCC_FB_OK);
    }
    CHECK(rx.epoch == E1 && rx.seq == 1000);
    lscc_fb_tx_init(&b, E1 + 5000000000ull);                  /* restarted 5 s later */
    lscc_fb_tx_next(&b, &e, &s);
    CHECK_EQ(s, 1u);
    CHECK_EQ(send_one(KEY, &rx, 301, e, s, &got), LSCC_FB_OK);
    CHECK_EQ(got, 301u);
    lscc_fb_tx_next(&b, &e, &s);
    CHECK_EQ(send_one(KEY, &rx, 302, e, s, &got), LSCC_FB_OK);
    CHECK_EQ(send_one(KEY, &rx, 9, E1, 1001, NULL), LSCC_FB_EEPOCH);      /* the old run, replayed */
    CHECK_EQ(send_one(KEY, &rx, 9, E1, UINT32_MAX, NULL), LSCC_FB_EEPOCH);
    CHECK(rx.epoch == E1 + 5000000000ull && rx.seq == 2);
    /* The receiver restarts: it takes the first frame it hears. */
    lscc_fb_rx_init(&rx, 0);
    CHECK_EQ(send_one(KEY, &rx, 303, E1 + 5000000000ull, 3, NULL), LSCC_FB_OK);
    /* A sender whose clock went back: refused with a key (EEPOCH) ... */
    CHECK_EQ(send_one(KEY, &rx, 304, E1 - 1, 1, NULL), LSCC_FB_EEPOCH);
    /* ... accepted after the resync run without one. */
    lscc_fb_rx_init(&rx, 1);
    CHECK_EQ(send_one(NULL, &rx, 303, E1, 50, NULL), LSCC_FB_OK);
    for (uint32_t i = 1; i < LSCC_FB_RESYNC; i++) CHECK_EQ(send_one(NULL, &rx, 304, E1 - 1, i, NULL), LSCC_FB_EEPOCH);
    CHECK_EQ(send_one(NULL, &rx, 304, E1 - 1, LSCC_FB_RESYNC, NULL), LSCC_FB_OK);
    CHECK_EQ(send_one(NULL, &rx, 304, E1 - 1, LSCC_FB_RESYNC + 1, NULL), LSCC_FB_OK);
}

TEST(seq_wrap_moves_epoch)
{
    struct lscc_fb_tx tx;
    struct lscc_fb_rx rx;
    uint64_t e;
    uint32_t s;
    lscc_fb_tx_init(&tx, E1);
    tx.seq = UINT32_MAX - 1;
    lscc_fb_rx_init(&rx, 0);
    lscc_fb_tx_next(&tx, &e, &s);
    CHECK(e == E1 && s == UINT32_MAX);
    CHECK_EQ(lscc_fb_rx_accept(&rx, e, s), LSCC_FB_OK);
    lscc_fb_tx_next(&tx, &e, &s);
    CHECK(e == E1 + 1 && s == 1);
    CHECK_EQ(lscc_fb_rx_accept(&rx, e, s), LSCC_FB_OK);
    /* Not serial arithmetic: a pair half the space behind stays old. */
    CHECK_EQ(lscc_fb_rx_accept(&rx, E1 + 1, 0), LSCC_FB_ESEQ);
    CHECK_EQ(lscc_fb_rx_accept(&rx, E1, 1), LSCC_FB_EEPOCH);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_lscc_fb";
    RUN(round_trip_and_layout);
    RUN(malformed_each_reason);
    RUN(forged_tag);
    RUN(replay_refused);
    RUN(far_ahead_forged_with_key);
    RUN(far_ahead_without_key_resyncs);
    RUN(restart_accepted);
    RUN(seq_wrap_moves_epoch);
    return test_summary();
}
