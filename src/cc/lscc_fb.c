/*
 * lscc_fb.c -- LSCC's feedback frame: encoding, the strict parser with the
 * optional SipHash-2-4 tag (rocc_siphash24, rocc_cnpauth.c), and the
 * sender's and receiver's (epoch, seq) state.  The model is in lscc_fb.h.
 */
#include "lscc_fb.h"
#include "lscc.h"
#include "roce_frame.h"

#include <string.h>

const uint8_t lscc_fb_dst[6] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e};

/* Offsets in the frame (lscc_fb.h). */
#define OFF_MAGIC   14
#define OFF_VER     16
#define OFF_TYPE    17
#define OFF_RSVD    18
#define OFF_UNITS   20
#define OFF_SEQ     24
#define OFF_EPOCH   28
#define OFF_PAD     (LSCC_FB_TAG_OFF + LSCC_FB_TAG_BYTES)

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

static uint64_t tag_of(const uint8_t *key, const uint8_t *f)
{
    return rocc_siphash24(key, f, LSCC_FB_TAG_OFF);
}

const char *lscc_fb_strerror(int r)
{
    static const char *const n[LSCC_FB_NRESULTS] = {"ok", "len", "dst", "magic", "units", "pad", "src", "tag",
                                                    "epoch", "seq"};
    return r >= 0 && r < LSCC_FB_NRESULTS ? n[r] : "unknown";
}

size_t lscc_fb_encode(const struct lscc_fb *fb, const uint8_t *key, uint8_t *f, size_t cap)
{
    if (!fb || !f || cap < LSCC_FB_FRAME_BYTES) return 0;
    memset(f, 0, LSCC_FB_FRAME_BYTES);
    rf_put_eth(f, lscc_fb_dst, fb->src, LSCC_FB_ETHERTYPE);
    f[OFF_MAGIC] = 'L';
    f[OFF_MAGIC + 1] = 'S';
    f[OFF_VER] = LSCC_FB_VERSION;
    f[OFF_TYPE] = key ? LSCC_FB_TYPE_AUTH : LSCC_FB_TYPE_RATE;
    wr32(f + OFF_UNITS, fb->units);
    wr32(f + OFF_SEQ, fb->seq);
    wr32(f + OFF_EPOCH, (uint32_t)(fb->epoch >> 32));
    wr32(f + OFF_EPOCH + 4, (uint32_t)fb->epoch);
    if (key) {
        uint64_t t = tag_of(key, f);
        for (int i = 0; i < LSCC_FB_TAG_BYTES; i++)
            f[LSCC_FB_TAG_OFF + i] = (uint8_t)(t >> (8 * i));
    }
    return LSCC_FB_FRAME_BYTES;
}

int lscc_fb_parse(const uint8_t *key, const uint8_t *f, size_t len, struct lscc_fb *out)
{
    uint8_t type;

    if (!f || len != LSCC_FB_FRAME_BYTES) return LSCC_FB_ELEN;
    if (memcmp(f, lscc_fb_dst, 6) || (f[12] << 8 | f[13]) != LSCC_FB_ETHERTYPE) return LSCC_FB_EDST;
    type = f[OFF_TYPE];
    if (f[OFF_MAGIC] != 'L' || f[OFF_MAGIC + 1] != 'S' || f[OFF_VER] != LSCC_FB_VERSION ||
        (type != LSCC_FB_TYPE_RATE && type != LSCC_FB_TYPE_AUTH) || f[OFF_RSVD] || f[OFF_RSVD + 1])
        return LSCC_FB_EMAGIC;
    if (rd32(f + OFF_UNITS) > LSCC_FB_MAX) return LSCC_FB_EUNITS;
    for (size_t i = type == LSCC_FB_TYPE_AUTH ? OFF_PAD : LSCC_FB_TAG_OFF; i < LSCC_FB_FRAME_BYTES; i++)
        if (f[i]) return LSCC_FB_EPAD;
    if ((f[6] & 1) || !(f[6] | f[7] | f[8] | f[9] | f[10] | f[11])) return LSCC_FB_ESRC;
    if (key) {
        uint64_t want, got = 0;
        uint8_t diff = 0;
        if (type != LSCC_FB_TYPE_AUTH) return LSCC_FB_ETAG;
        want = tag_of(key, f);
        for (int i = LSCC_FB_TAG_BYTES - 1; i >= 0; i--)
            got = got << 8 | f[LSCC_FB_TAG_OFF + i];
        /* Every byte compared: no early exit that times where they differ. */
        for (int i = 0; i < 8; i++)
            diff |= (uint8_t)((want ^ got) >> (8 * i));
        if (diff) return LSCC_FB_ETAG;
    }
    if (out) {
        memcpy(out->src, f + 6, 6);
        out->tagged = type == LSCC_FB_TYPE_AUTH;
        out->units = rd32(f + OFF_UNITS);
        out->seq = rd32(f + OFF_SEQ);
        out->epoch = (uint64_t)rd32(f + OFF_EPOCH) << 32 | rd32(f + OFF_EPOCH + 4);
    }
    return LSCC_FB_OK;
}

void lscc_fb_tx_init(struct lscc_fb_tx *tx, uint64_t epoch)
{
    tx->epoch = epoch;
    tx->seq = 0;
}

void lscc_fb_tx_next(struct lscc_fb_tx *tx, uint64_t *epoch, uint32_t *seq)
{
    if (tx->seq == UINT32_MAX) {     /* the pair must keep growing: next epoch */
        tx->epoch++;
        tx->seq = 0;
    }
    tx->seq++;
    *epoch = tx->epoch;
    *seq = tx->seq;
}

void lscc_fb_rx_init(struct lscc_fb_rx *rx, int resync)
{
    memset(rx, 0, sizeof *rx);
    rx->resync = resync != 0;
}

/* (ea, sa) > (eb, sb), lexicographic. */
static int newer(uint64_t ea, uint32_t sa, uint64_t eb, uint32_t sb)
{
    return ea > eb || (ea == eb && sa > sb);
}

int lscc_fb_rx_accept(struct lscc_fb_rx *rx, uint64_t epoch, uint32_t seq)
{
    int r = LSCC_FB_OK;

    if (rx->have && !newer(epoch, seq, rx->epoch, rx->seq))
        r = epoch < rx->epoch ? LSCC_FB_EEPOCH : LSCC_FB_ESEQ;
    if (r != LSCC_FB_OK) {
        if (rx->run && newer(epoch, seq, rx->run_epoch, rx->run_seq))
            rx->run++;
        else
            rx->run = 1;
        rx->run_epoch = epoch;
        rx->run_seq = seq;
        if (!rx->resync || rx->run < LSCC_FB_RESYNC)
            return r;
        rx->n_resync++;
    }
    rx->have = 1;
    rx->epoch = epoch;
    rx->seq = seq;
    rx->run = 0;
    rx->n_accepted++;
    return LSCC_FB_OK;
}
