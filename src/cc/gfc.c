/*
 * gfc.c -- Gentle Flow Control state machine (see gfc.h).
 */
#include "gfc.h"

#include <stdio.h>

int gfc_params_check(const struct gfc_params *p, char *why, size_t why_len)
{
    const char *msg = NULL;
    if (!p)
        msg = "no GFC parameters";
    else if (p->stages < 1 || p->stages > GFC_MAX_STAGES)
        msg = "gfc stages must be 1..250";
    else if (p->stop_bytes > GFC_MAX_BYTES || p->hyst_bytes > GFC_MAX_BYTES)
        msg = "gfc thresholds must be below 2^48 bytes";
    else if (p->stop_bytes <= p->start_bytes)
        msg = "gfc stop threshold must be above the start threshold";
    else if (p->stop_bytes - p->start_bytes < p->stages)
        msg = "gfc stages narrower than one byte (stop - start < stages)";
    if (!msg)
        return 0;
    if (why && why_len)
        snprintf(why, why_len, "%s", msg);
    return -1;
}

uint32_t gfc_level_of(const struct gfc_params *p, uint64_t q)
{
    if (q < p->start_bytes)
        return 0;
    if (q >= p->stop_bytes)
        return p->stages + 1;
    /* (q - B0) < 2^48 and N <= 250: the product stays below 2^56. */
    return 1 + (uint32_t)((q - p->start_bytes) * p->stages / (p->stop_bytes - p->start_bytes));
}

uint32_t gfc_level_rate(const struct gfc_params *p, uint32_t level)
{
    uint32_t top = p->stages + 1;
    if (level >= top)
        return 0;
    /* ONE * (N+1-k) / (N+1), truncated: a stage never allows more than the
     * staircase says. */
    return (uint32_t)((uint64_t)GFC_Q15_ONE * (top - level) / top);
}

uint64_t gfc_level_floor(const struct gfc_params *p, uint32_t level)
{
    if (level == 0)
        return 0;
    if (level > p->stages)
        return p->stop_bytes;
    uint64_t w = p->stop_bytes - p->start_bytes;
    /* smallest q with (q - B0) * N / w >= level - 1 */
    return p->start_bytes + ((uint64_t)(level - 1) * w + p->stages - 1) / p->stages;
}

int gfc_down_update(const struct gfc_params *p, struct gfc_down *d, uint64_t q)
{
    uint32_t up = gfc_level_of(p, q);
    if (up > d->level) {
        d->level = (uint8_t)up;
        return 1;
    }
    if (up == d->level)
        return 0;
    /* Lower occupancy: leave the level only once q + H is below its floor
     * (q < stop <= 2^48 here, so q + H cannot wrap). */
    uint32_t down = gfc_level_of(p, q + p->hyst_bytes);
    if (down < d->level) {
        d->level = (uint8_t)down;
        return 1;
    }
    return 0;
}

void gfc_up_init(struct gfc_up *u)
{
    u->rate = GFC_Q15_ONE;
    u->last_start_ps = 0;
    u->last_tx_ps = 0;
}

int gfc_up_feedback(struct gfc_up *u, uint32_t value)
{
    if (value > GFC_Q15_ONE)
        return GFC_EVALUE;
    u->rate = value;
    return GFC_OK;
}

uint64_t gfc_up_next_ps(const struct gfc_up *u)
{
    if (u->rate == 0)
        return GFC_NEVER;
    if (u->rate == GFC_Q15_ONE)
        return u->last_start_ps + u->last_tx_ps;
    /* last_tx (< 2^40 ps for any frame at >= 1 Mb/s) * 2^15 < 2^55. */
    uint64_t gap = (u->last_tx_ps * GFC_Q15_ONE + u->rate - 1) / u->rate;
    return u->last_start_ps + gap;
}

void gfc_up_sent(struct gfc_up *u, uint64_t start_ps, uint64_t tx_ps)
{
    u->last_start_ps = start_ps;
    u->last_tx_ps = tx_ps;
}

/* ---- frame ---- */

static const uint8_t gfc_da[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };

size_t gfc_frame_encode(const struct gfc_frame *f, uint8_t *buf, size_t len)
{
    if (!f || !buf || len < GFC_FRAME_MIN)
        return 0;
    for (int c = 0; c < 8; c++)
        if ((f->enable >> c & 1) && f->rate[c] > GFC_Q15_ONE)
            return 0;
    for (size_t i = 0; i < GFC_FRAME_MIN; i++)
        buf[i] = 0;
    for (int i = 0; i < 6; i++) {
        buf[i] = gfc_da[i];
        buf[6 + i] = f->src_mac[i];
    }
    buf[12] = GFC_ETHERTYPE >> 8; buf[13] = GFC_ETHERTYPE & 0xff;
    buf[14] = GFC_OPCODE >> 8;    buf[15] = GFC_OPCODE & 0xff;
    buf[16] = 0;                  buf[17] = f->enable;
    for (int c = 0; c < 8; c++) {
        uint16_t v = (f->enable >> c & 1) ? f->rate[c] : 0;
        buf[18 + 2 * c] = (uint8_t)(v >> 8);
        buf[19 + 2 * c] = (uint8_t)(v & 0xff);
    }
    return GFC_FRAME_MIN;
}

int gfc_frame_decode(const uint8_t *buf, size_t len, struct gfc_frame *out)
{
    if (!buf)
        return GFC_EARG;
    if (len < GFC_FRAME_MIN)
        return GFC_ESHORT;
    for (int i = 0; i < 6; i++)
        if (buf[i] != gfc_da[i])
            return GFC_ETYPE;
    if ((buf[12] << 8 | buf[13]) != GFC_ETHERTYPE || (buf[14] << 8 | buf[15]) != GFC_OPCODE)
        return GFC_ETYPE;
    if (buf[16] != 0)
        return GFC_ERSVD;
    struct gfc_frame f;
    f.enable = buf[17];
    for (int i = 0; i < 6; i++)
        f.src_mac[i] = buf[6 + i];
    for (int c = 0; c < 8; c++) {
        f.rate[c] = (uint16_t)(buf[18 + 2 * c] << 8 | buf[19 + 2 * c]);
        if ((f.enable >> c & 1) && f.rate[c] > GFC_Q15_ONE)
            return GFC_EVALUE;
    }
    if (out)
        *out = f;
    return GFC_OK;
}

const char *gfc_strerror(int err)
{
    switch (err) {
    case GFC_OK:     return "ok";
    case GFC_EVALUE: return "GFC rate above line rate (Q15 > 32768)";
    case GFC_ESHORT: return "GFC frame too short";
    case GFC_ETYPE:  return "not a GFC frame (DA, EtherType or opcode)";
    case GFC_ERSVD:  return "GFC class-enable vector has reserved bits set";
    case GFC_EARG:   return "NULL buffer";
    default:         return "unknown GFC error";
    }
}
