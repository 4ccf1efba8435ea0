/*
 * rocc_cnpauth.c -- CNP validation, CP binding and the SipHash-2-4
 * authenticator; the model is in rocc_cnpauth.h.
 *
 * SipHash-2-4 as the paper (Aumasson and Bernstein, INDOCRYPT 2012, §2)
 * defines it: four 64-bit state words initialised from the key and four
 * constants ("somepseudorandomlygeneratedbytes"), two SipRounds per 8-byte
 * little-endian message word, a last word holding the tail bytes and the
 * length mod 256 in its top byte, then 0xff into v2 and four SipRounds.
 */
#include "rocc_cnpauth.h"

#include <string.h>

/* Offsets in the CNP's ICMP message (rocc_cnp.h layout). */
#define OFF_CODE 1
#define OFF_CSUM 2
#define OFF_BODY 4            /* rate, CP id, quoted headers: bytes 4..51 */

static uint64_t rotl(uint64_t x, unsigned b) { return x << b | x >> (64 - b); }

static uint64_t load_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* One SipRound (paper §2, "SipRound"): ARX network on v[0..3]. */
static void sipround(uint64_t v[4])
{
    v[0] += v[1]; v[1] = rotl(v[1], 13); v[1] ^= v[0]; v[0] = rotl(v[0], 32);
    v[2] += v[3]; v[3] = rotl(v[3], 16); v[3] ^= v[2];
    v[0] += v[3]; v[3] = rotl(v[3], 21); v[3] ^= v[0];
    v[2] += v[1]; v[1] = rotl(v[1], 17); v[1] ^= v[2]; v[2] = rotl(v[2], 32);
}

static void absorb(uint64_t v[4], uint64_t m)
{
    v[3] ^= m;
    sipround(v);               /* c = 2 compression rounds */
    sipround(v);
    v[0] ^= m;
}

uint64_t rocc_siphash24(const uint8_t key[ROCC_CNP_KEY_BYTES], const uint8_t *msg, size_t len)
{
    uint64_t k0 = load_le64(key), k1 = load_le64(key + 8);
    /* Initialisation constants of the paper, §2 ("Initialization"). */
    uint64_t v[4] = {k0 ^ 0x736f6d6570736575ull, k1 ^ 0x646f72616e646f6dull,
                     k0 ^ 0x6c7967656e657261ull, k1 ^ 0x7465646279746573ull};
    size_t full = len & ~(size_t)7;
    uint64_t last = (uint64_t)(len & 0xff) << 56;

    for (size_t i = 0; i < full; i += 8)
        absorb(v, load_le64(msg + i));
    for (size_t i = full; i < len; i++)
        last |= (uint64_t)msg[i] << (8 * (i - full));
    absorb(v, last);
    v[2] ^= 0xff;              /* finalization: d = 4 rounds */
    for (int r = 0; r < 4; r++)
        sipround(v);
    return v[0] ^ v[1] ^ v[2] ^ v[3];
}

int rocc_cnp_bound(const struct rocc_cp_bind *tab, size_t n, uint32_t cp_id, uint32_t addr)
{
    uint32_t node = cp_id >> 8;

    for (size_t i = 0; i < n; i++)
        if (tab[i].node == node)
            return tab[i].addr == addr;
    return 0;
}

/* The tag of a CNP body (ICMP bytes 4..plain_len-1) sent from src to dst;
 * plain_len is the form's length without the tag (52, 92 or 60). */
static uint64_t cnp_tag(const uint8_t key[ROCC_CNP_KEY_BYTES], uint32_t src, uint32_t dst, const uint8_t *icmp,
                        size_t plain_len)
{
    uint8_t m[8 + ROCC_CNP_HFULL_ICMP_BYTES - OFF_BODY];
    size_t body = plain_len - OFF_BODY;

    for (int i = 0; i < 4; i++) {
        m[i] = (uint8_t)(src >> (24 - 8 * i));
        m[4 + i] = (uint8_t)(dst >> (24 - 8 * i));
    }
    memcpy(m + 8, icmp + OFF_BODY, body);
    return rocc_siphash24(key, m, 8 + body);
}

static void put_csum(uint8_t *icmp, size_t len)
{
    uint16_t c;

    icmp[OFF_CSUM] = icmp[OFF_CSUM + 1] = 0;
    c = rocc_inet_checksum(icmp, len);
    icmp[OFF_CSUM] = (uint8_t)(c >> 8);
    icmp[OFF_CSUM + 1] = (uint8_t)c;
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

/* Host-form inputs and parameters after the 52-byte base (rocc_cnp.h):
 * parse into c and check them.  0 or ROCC_CNP_EPARAM. */
static int host_ext(const uint8_t *icmp, int form, struct rocc_cnp *c)
{
    const uint8_t *x = icmp + ROCC_CNP_ICMP_BYTES;
    uint64_t gmax = 1u << 24;                    /* ROCC_CP_MAX_GAIN_Q16 (rocc_cp.h) */

    c->form = (uint8_t)form;
    c->q_cur = get32(x);
    c->q_old = get32(x + 4);
    if (c->rate_units == 0 || c->rate_units > INT32_MAX) return ROCC_CNP_EPARAM;
    if (form == ROCC_CNP_FORM_HOST_REG) return ROCC_CNP_OK;
    c->q_ref = get32(x + 8);  c->q_mid = get32(x + 12); c->q_max = get32(x + 16);
    c->f_min = get32(x + 20); c->f_max = get32(x + 24);
    c->alpha_q16 = get32(x + 28); c->beta_q16 = get32(x + 32);
    c->hflags = x[36];
    if (c->hflags & ~(ROCC_CNP_HF_PI_AUTHORS | ROCC_CNP_HF_MDQ_HALF)) return ROCC_CNP_EPARAM;
    if (x[37] | x[38] | x[39]) return ROCC_CNP_EPARAM;
    if (c->q_ref == 0 || c->q_mid <= c->q_ref || c->q_max <= c->q_mid) return ROCC_CNP_EPARAM;
    if (c->f_min == 0 || c->f_max < c->f_min || c->f_max > INT32_MAX) return ROCC_CNP_EPARAM;
    if (c->alpha_q16 > gmax || c->beta_q16 > gmax) return ROCC_CNP_EPARAM;
    if (c->rate_units < c->f_min || c->rate_units > c->f_max) return ROCC_CNP_EPARAM;
    return ROCC_CNP_OK;
}

int rocc_cnp_check(const struct rocc_cnp_policy *pol, uint32_t src, uint32_t dst,
                   const uint8_t *icmp, size_t len, struct rocc_cnp *out)
{
    uint8_t plain[ROCC_CNP_ICMP_BYTES];
    struct rocc_cnp c;
    int auth, form, r;
    size_t plain_len;

    if (!icmp) return ROCC_CNP_EARG;
    if (len < 2) return ROCC_CNP_ESHORT;
    if (icmp[0] != ROCC_CNP_ICMP_TYPE) return ROCC_CNP_ETYPE;
    form = icmp[OFF_CODE] >> 1;
    auth = icmp[OFF_CODE] & 1;
    plain_len = rocc_cnp_form_bytes(form, 0);
    if (plain_len == 0) return ROCC_CNP_ETYPE;
    if (len < ROCC_CNP_ICMP_BYTES) return ROCC_CNP_ESHORT;
    if (len != rocc_cnp_form_bytes(form, auth)) return ROCC_CNP_ELEN;
    if (rocc_inet_checksum(icmp, len) != 0) return ROCC_CNP_ECSUM;
    if (form != ROCC_CNP_FORM_RATE && !(pol && (pol->forms & (1u << form)))) return ROCC_CNP_EFORM;
    /* The 52-byte parser checks the quote; give it the plain form. */
    memcpy(plain, icmp, sizeof plain);
    plain[OFF_CODE] = ROCC_CNP_ICMP_CODE;
    put_csum(plain, sizeof plain);
    memset(&c, 0, sizeof c);
    r = rocc_cnp_decode(plain, sizeof plain, &c);
    if (r != ROCC_CNP_OK) return r;
    if (form != ROCC_CNP_FORM_RATE && (r = host_ext(icmp, form, &c)) != ROCC_CNP_OK) return r;
    if (pol && pol->key) {
        uint64_t want, got;
        uint8_t diff = 0;
        if (!auth) return ROCC_CNP_EAUTH;
        want = cnp_tag(pol->key, src, dst, icmp, plain_len);
        got = load_le64(icmp + plain_len);
        /* Compare every byte: no early exit that times where they differ. */
        for (int i = 0; i < 8; i++)
            diff |= (uint8_t)((want ^ got) >> (8 * i));
        if (diff) return ROCC_CNP_EAUTH;
    }
    if (pol && pol->nbind && !rocc_cnp_bound(pol->bind, pol->nbind, c.cp_id, src))
        return ROCC_CNP_EBIND;
    if (out) *out = c;
    return ROCC_CNP_OK;
}

size_t rocc_cnp_encode_form(const struct rocc_cnp *c, const uint8_t *key, uint32_t src, uint32_t dst,
                            uint8_t *buf, size_t len)
{
    size_t plain_len, total;
    uint8_t *x;

    if (!c || !buf) return 0;
    plain_len = rocc_cnp_form_bytes(c->form, 0);
    total = rocc_cnp_form_bytes(c->form, key != NULL);
    if (plain_len == 0 || len < total || !rocc_cnp_encode(c, buf, len)) return 0;
    memset(buf + ROCC_CNP_ICMP_BYTES, 0, total - ROCC_CNP_ICMP_BYTES);
    x = buf + ROCC_CNP_ICMP_BYTES;
    if (c->form != ROCC_CNP_FORM_RATE) {
        put32(x, c->q_cur);
        put32(x + 4, c->q_old);
    }
    if (c->form == ROCC_CNP_FORM_HOST_FULL) {
        put32(x + 8, c->q_ref);  put32(x + 12, c->q_mid); put32(x + 16, c->q_max);
        put32(x + 20, c->f_min); put32(x + 24, c->f_max);
        put32(x + 28, c->alpha_q16); put32(x + 32, c->beta_q16);
        x[36] = c->hflags;
    }
    buf[OFF_CODE] = (uint8_t)(c->form << 1 | (key != NULL));
    if (key) {
        uint64_t tag = cnp_tag(key, src, dst, buf, plain_len);
        for (int i = 0; i < 8; i++)
            buf[plain_len + i] = (uint8_t)(tag >> (8 * i));
    }
    put_csum(buf, total);
    return total;
}

size_t rocc_cnp_encode_auth(const struct rocc_cnp *c, const uint8_t key[ROCC_CNP_KEY_BYTES],
                            uint32_t src, uint32_t dst, uint8_t *buf, size_t len)
{
    struct rocc_cnp r;

    if (!c || !key) return 0;
    r = *c;
    r.form = ROCC_CNP_FORM_RATE;      /* this entry point always writes the RATE form */
    return rocc_cnp_encode_form(&r, key, src, dst, buf, len);
}

static int hexval(char ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

int rocc_cnp_parse_key(const char *hex, uint8_t key[ROCC_CNP_KEY_BYTES])
{
    if (!hex || strlen(hex) != 2 * ROCC_CNP_KEY_BYTES) return -1;
    for (int i = 0; i < ROCC_CNP_KEY_BYTES; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return -1;
        key[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}
