/*
 * test_rocc_cnp.c -- unit tests of the RoCC CNP wire format (§3.3).
 */
#include "test.h"

#include "cc/rocc_cnp.h"

static const struct rocc_cnp C0 = {
    .rate_units = 400, .cp_id = 0x0a000001u,
    .src_ip = 0x0a0a0301u, .dst_ip = 0x0a0a0101u,
    .sport = 49152, .dport = ROCC_ROCEV2_UDP_PORT,
    .dest_qpn = 0x123456u, .psn = 0xabcdefu,
};

TEST(sizes)
{
    CHECK_EQ(ROCC_CNP_ICMP_BYTES, 8 + 4 + 20 + 8 + 12);
    CHECK_EQ(ROCC_CNP_FRAME_BYTES, 14 + 20 + ROCC_CNP_ICMP_BYTES + 4);
    CHECK(ROCC_CNP_FRAME_BYTES >= 64);
    CHECK_EQ(ROCC_CNP_WIRE_BYTES, ROCC_CNP_FRAME_BYTES + 20);
}

TEST(checksum_rfc1071_examples)
{
    /* RFC 1071 §3: words 0001 f203 f4f5 f6f7 sum to ddf2 (ones'
     * complement), so the checksum is ~ddf2 = 220d. */
    static const uint8_t v[] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
    /* A classic IPv4 header (checksum field zeroed): checksum b861. */
    static const uint8_t ip[] = { 0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00,
                                  0x40, 0x11, 0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01,
                                  0xc0, 0xa8, 0x00, 0xc7 };
    static const uint8_t odd[] = { 0x01, 0x02, 0x03 };        /* 0102 + 0300 */

    CHECK_EQ(rocc_inet_checksum(v, sizeof v), 0x220d);
    CHECK_EQ(rocc_inet_checksum(ip, sizeof ip), 0xb861);
    CHECK_EQ(rocc_inet_checksum(odd, sizeof odd), (uint16_t)~0x0402);
    CHECK_EQ(rocc_inet_checksum(v, 0), 0xffff);
}

TEST(encode_layout)
{
    uint8_t b[ROCC_CNP_ICMP_BYTES];

    CHECK_EQ(rocc_cnp_encode(&C0, b, sizeof b), ROCC_CNP_ICMP_BYTES);
    CHECK_EQ(b[0], 253); CHECK_EQ(b[1], 0);
    CHECK_EQ(b[4], 0); CHECK_EQ(b[5], 0); CHECK_EQ(b[6], 0x01); CHECK_EQ(b[7], 0x90);
    CHECK_EQ(b[8], 0x0a); CHECK_EQ(b[11], 0x01);
    /* Quoted IPv4. */
    CHECK_EQ(b[12], 0x45); CHECK_EQ(b[14], 0); CHECK_EQ(b[15], 40);
    CHECK_EQ(b[18], 0x40); CHECK_EQ(b[20], 64); CHECK_EQ(b[21], 17);
    CHECK_EQ(rocc_inet_checksum(b + 12, 20), 0);               /* valid */
    CHECK_EQ(b[24], 0x0a); CHECK_EQ(b[25], 0x0a); CHECK_EQ(b[26], 0x03); CHECK_EQ(b[27], 0x01);
    /* Quoted UDP. */
    CHECK_EQ(b[32] << 8 | b[33], 49152);
    CHECK_EQ(b[34] << 8 | b[35], 4791);
    CHECK_EQ(b[36] << 8 | b[37], 20);
    CHECK_EQ(b[38] | b[39], 0);
    /* Quoted BTH. */
    CHECK_EQ(b[40], 0x0a); CHECK_EQ(b[41], 0);
    CHECK_EQ(b[42], 0xff); CHECK_EQ(b[43], 0xff);
    CHECK_EQ(b[44], 0);
    CHECK_EQ(b[45], 0x12); CHECK_EQ(b[46], 0x34); CHECK_EQ(b[47], 0x56);
    CHECK_EQ(b[48], 0);
    CHECK_EQ(b[49], 0xab); CHECK_EQ(b[50], 0xcd); CHECK_EQ(b[51], 0xef);
}

TEST(round_trip_and_checksum_verifies)
{
    /* designated: struct rocc_cnp has host-form fields after these (rocc_cnp.h) */
#define CNP8(r, c, s, d, sp, dp, q, p) { .rate_units = r, .cp_id = c, .src_ip = s, .dst_ip = d, \
        .sport = sp, .dport = dp, .dest_qpn = q, .psn = p }
    static const struct rocc_cnp cases[] = {
        CNP8(400, 0x0a000001u, 0x0a0a0301u, 0x0a0a0101u, 49152, 4791, 0x123456u, 0xabcdefu),
        CNP8(0, 0, 0, 0, 0, 0, 0, 0),
        CNP8(UINT32_MAX, UINT32_MAX - 1, UINT32_MAX, 1, 65535, 1, 0xffffffu, 0xffffffu),
        CNP8(10, 7, 0xc0a80001u, 0xc0a800c7u, 1, 65535, 1, 0),
    };
    size_t i;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t b[64];
        struct rocc_cnp d;
        memset(&d, 0xee, sizeof d);
        CHECK_EQ(rocc_cnp_encode(&cases[i], b, sizeof b), ROCC_CNP_ICMP_BYTES);
        CHECK_EQ(rocc_inet_checksum(b, ROCC_CNP_ICMP_BYTES), 0);
        CHECK_EQ(rocc_cnp_decode(b, ROCC_CNP_ICMP_BYTES, &d), ROCC_CNP_OK);
        CHECK(memcmp(&d, &cases[i], sizeof d) == 0);
        /* Trailing bytes are ignored. */
        CHECK_EQ(rocc_cnp_decode(b, sizeof b, NULL), ROCC_CNP_OK);
    }
}

TEST(qpn_and_psn_masked_to_24_bits)
{
    struct rocc_cnp c = C0, d;
    uint8_t b[ROCC_CNP_ICMP_BYTES];

    c.dest_qpn = 0xff123456u; c.psn = 0x01000001u;
    CHECK_EQ(rocc_cnp_encode(&c, b, sizeof b), ROCC_CNP_ICMP_BYTES);
    CHECK_EQ(rocc_cnp_decode(b, sizeof b, &d), 0);
    CHECK_EQ(d.dest_qpn, 0x123456u);
    CHECK_EQ(d.psn, 1);
}

TEST(encode_short_buffer)
{
    uint8_t b[ROCC_CNP_ICMP_BYTES];
    size_t n;

    for (n = 0; n < ROCC_CNP_ICMP_BYTES; n++)
        CHECK_EQ(rocc_cnp_encode(&C0, b, n), 0);
    CHECK_EQ(rocc_cnp_encode(NULL, b, sizeof b), 0);
    CHECK_EQ(rocc_cnp_encode(&C0, NULL, sizeof b), 0);
}

TEST(every_truncation_rejected)
{
    uint8_t b[ROCC_CNP_ICMP_BYTES];
    struct rocc_cnp d;
    size_t n;

    CHECK_EQ(rocc_cnp_encode(&C0, b, sizeof b), ROCC_CNP_ICMP_BYTES);
    for (n = 0; n < ROCC_CNP_ICMP_BYTES; n++) {
        /* The n bytes sit at the very end of t, so a read past len is a
         * stack-buffer-overflow under ASan. */
        uint8_t t[ROCC_CNP_ICMP_BYTES];
        uint8_t *m = t + sizeof t - n;
        memcpy(m, b, n);
        CHECK_EQ(rocc_cnp_decode(m, n, &d), ROCC_CNP_ESHORT);
    }
    CHECK_EQ(rocc_cnp_decode(NULL, 52, &d), ROCC_CNP_EARG);
}

TEST(every_single_byte_corruption_detected)
{
    uint8_t b[ROCC_CNP_ICMP_BYTES];
    static const uint8_t flips[] = { 0x01, 0x80, 0xff, 0x5a };
    size_t i, k;

    CHECK_EQ(rocc_cnp_encode(&C0, b, sizeof b), ROCC_CNP_ICMP_BYTES);
    for (i = 0; i < sizeof b; i++) {
        for (k = 0; k < sizeof flips; k++) {
            uint8_t t[ROCC_CNP_ICMP_BYTES];
            int r;
            memcpy(t, b, sizeof t);
            t[i] ^= flips[k];
            r = rocc_cnp_decode(t, sizeof t, NULL);
            /* Bytes 0-1 fail the type/code check first, the rest the
             * checksum. */
            CHECK_EQ(r, i < 2 ? ROCC_CNP_ETYPE : ROCC_CNP_ECSUM);
        }
    }
}

/* Rewrite the ICMP checksum after editing a byte. */
static void fix_csum(uint8_t *b)
{
    uint16_t c;
    b[2] = b[3] = 0;
    c = rocc_inet_checksum(b, ROCC_CNP_ICMP_BYTES);
    b[2] = (uint8_t)(c >> 8);
    b[3] = (uint8_t)c;
}

TEST(wrong_type_or_code_rejected)
{
    uint8_t b[ROCC_CNP_ICMP_BYTES];
    struct rocc_cnp d;

    CHECK_EQ(rocc_cnp_encode(&C0, b, sizeof b), ROCC_CNP_ICMP_BYTES);
    b[0] = 30; fix_csum(b);                                    /* authors' OMNeT++ */
    CHECK_EQ(rocc_cnp_decode(b, sizeof b, &d), ROCC_CNP_ETYPE);
    b[0] = 50; fix_csum(b);                                    /* authors' DPDK */
    CHECK_EQ(rocc_cnp_decode(b, sizeof b, &d), ROCC_CNP_ETYPE);
    b[0] = 3; fix_csum(b);                                     /* dest unreachable */
    CHECK_EQ(rocc_cnp_decode(b, sizeof b, &d), ROCC_CNP_ETYPE);
    b[0] = 253; b[1] = 1; fix_csum(b);
    CHECK_EQ(rocc_cnp_decode(b, sizeof b, &d), ROCC_CNP_ETYPE);
    b[1] = 0; fix_csum(b);
    CHECK_EQ(rocc_cnp_decode(b, sizeof b, &d), ROCC_CNP_OK);
}

TEST(bad_quoted_ipv4_rejected)
{
    uint8_t b[ROCC_CNP_ICMP_BYTES], t[ROCC_CNP_ICMP_BYTES];
    struct rocc_cnp d;

    CHECK_EQ(rocc_cnp_encode(&C0, b, sizeof b), ROCC_CNP_ICMP_BYTES);
    memcpy(t, b, sizeof t); t[12] = 0x65; fix_csum(t);         /* version 6 */
    CHECK_EQ(rocc_cnp_decode(t, sizeof t, &d), ROCC_CNP_EIPHDR);
    memcpy(t, b, sizeof t); t[12] = 0x46; fix_csum(t);         /* IHL 6 */
    CHECK_EQ(rocc_cnp_decode(t, sizeof t, &d), ROCC_CNP_EIPHDR);
    memcpy(t, b, sizeof t); t[21] = 6; fix_csum(t);            /* TCP */
    CHECK_EQ(rocc_cnp_decode(t, sizeof t, &d), ROCC_CNP_EIPHDR);
    /* out untouched on failure. */
    memset(&d, 0x77, sizeof d);
    CHECK_EQ(rocc_cnp_decode(t, sizeof t, &d), ROCC_CNP_EIPHDR);
    CHECK_EQ(d.rate_units, 0x77777777u);
}

TEST(strerror_texts)
{
    CHECK_STR(rocc_cnp_strerror(ROCC_CNP_OK), "ok");
    CHECK_STR(rocc_cnp_strerror(ROCC_CNP_ESHORT), "CNP too short");
    CHECK_STR(rocc_cnp_strerror(ROCC_CNP_ETYPE), "not a RoCC CNP (ICMP type/code)");
    CHECK_STR(rocc_cnp_strerror(ROCC_CNP_ECSUM), "bad ICMP checksum");
    CHECK_STR(rocc_cnp_strerror(ROCC_CNP_EIPHDR), "bad quoted IPv4 header");
    CHECK_STR(rocc_cnp_strerror(ROCC_CNP_EARG), "NULL buffer");
    CHECK_STR(rocc_cnp_strerror(-99), "unknown CNP error");
}

int main(void)
{
    test_binary_ = "test_rocc_cnp";
    RUN(sizes);
    RUN(checksum_rfc1071_examples);
    RUN(encode_layout);
    RUN(round_trip_and_checksum_verifies);
    RUN(qpn_and_psn_masked_to_24_bits);
    RUN(encode_short_buffer);
    RUN(every_truncation_rejected);
    RUN(every_single_byte_corruption_detected);
    RUN(wrong_type_or_code_rejected);
    RUN(bad_quoted_ipv4_rejected);
    RUN(strerror_texts);
    return test_summary();
}
