/*
 * test_rocc_cnpauth.c -- SipHash-2-4 against the paper's vectors, and the
 * CNP validation a host or switch applies (length, checksum, CP binding,
 * authenticator); issue 11 part 5.
 */
#include "test.h"

#include "cc/rocc_cnpauth.h"

/* SipHash-2-4 outputs published with the paper's reference code: key
 * 00 01 .. 0f, message 00 01 .. (i-1) of length i = 0..63. */
static const uint64_t VEC[64] = {
    0x726fdb47dd0e0e31ull, 0x74f839c593dc67fdull, 0x0d6c8009d9a94f5aull, 0x85676696d7fb7e2dull,
    0xcf2794e0277187b7ull, 0x18765564cd99a68dull, 0xcbc9466e58fee3ceull, 0xab0200f58b01d137ull,
    0x93f5f5799a932462ull, 0x9e0082df0ba9e4b0ull, 0x7a5dbbc594ddb9f3ull, 0xf4b32f46226bada7ull,
    0x751e8fbc860ee5fbull, 0x14ea5627c0843d90ull, 0xf723ca908e7af2eeull, 0xa129ca6149be45e5ull,
    0x3f2acc7f57c29bdbull, 0x699ae9f52cbe4794ull, 0x4bc1b3f0968dd39cull, 0xbb6dc91da77961bdull,
    0xbed65cf21aa2ee98ull, 0xd0f2cbb02e3b67c7ull, 0x93536795e3a33e88ull, 0xa80c038ccd5ccec8ull,
    0xb8ad50c6f649af94ull, 0xbce192de8a85b8eaull, 0x17d835b85bbb15f3ull, 0x2f2e6163076bcfadull,
    0xde4daaaca71dc9a5ull, 0xa6a2506687956571ull, 0xad87a3535c49ef28ull, 0x32d892fad841c342ull,
    0x7127512f72f27cceull, 0xa7f32346f95978e3ull, 0x12e0b01abb051238ull, 0x15e034d40fa197aeull,
    0x314dffbe0815a3b4ull, 0x027990f029623981ull, 0xcadcd4e59ef40c4dull, 0x9abfd8766a33735cull,
    0x0e3ea96b5304a7d0ull, 0xad0c42d6fc585992ull, 0x187306c89bc215a9ull, 0xd4a60abcf3792b95ull,
    0xf935451de4f21df2ull, 0xa9538f0419755787ull, 0xdb9acddff56ca510ull, 0xd06c98cd5c0975ebull,
    0xe612a3cb9ecba951ull, 0xc766e62cfcadaf96ull, 0xee64435a9752fe72ull, 0xa192d576b245165aull,
    0x0a8787bf8ecb74b2ull, 0x81b3e73d20b49b6full, 0x7fa8220ba3b2eceaull, 0x245731c13ca42499ull,
    0xb78dbfaf3a8d83bdull, 0xea1ad565322a1a0bull, 0x60e61c23a3795013ull, 0x6606d7e446282b93ull,
    0x6ca4ecb15c5f91e1ull, 0x9f626da15c9625f3ull, 0xe51b38608ef25f57ull, 0x958a324ceb064572ull,
};

static const uint8_t KEY[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

#define CP_ADDR  0x0a630001u      /* 10.99.0.1: switch 1's CP address */
#define HOST     0x0a630102u      /* 10.99.1.2 */

static const struct rocc_cnp C0 = {
    .rate_units = 40, .cp_id = 0x101, .src_ip = HOST, .dst_ip = 0x0a630202u,
    .sport = 49152, .dport = ROCC_ROCEV2_UDP_PORT, .dest_qpn = 7, .psn = 99,
};
static const struct rocc_cp_bind BIND[2] = {{.node = 1, .addr = CP_ADDR}, {.node = 2, .addr = 0x0a630002u}};

TEST(siphash_paper_vectors)
{
    uint8_t msg[64];
    for (int i = 0; i < 64; i++)
        msg[i] = (uint8_t)i;
    for (int i = 0; i < 64; i++)
        CHECK_EQ(rocc_siphash24(KEY, msg, (size_t)i), VEC[i]);
    /* The paper's Appendix A example: 15-byte message 00..0e. */
    CHECK_EQ(rocc_siphash24(KEY, msg, 15), 0xa129ca6149be45e5ull);
}

TEST(siphash_key_matters)
{
    uint8_t k2[16], msg[3] = {1, 2, 3};
    memcpy(k2, KEY, 16);
    k2[15] ^= 1;
    CHECK(rocc_siphash24(KEY, msg, 3) != rocc_siphash24(k2, msg, 3));
}

TEST(bound)
{
    CHECK_EQ(rocc_cnp_bound(BIND, 2, 0x101, CP_ADDR), 1);
    CHECK_EQ(rocc_cnp_bound(BIND, 2, 0x1ff, CP_ADDR), 1);          /* any port of switch 1 */
    CHECK_EQ(rocc_cnp_bound(BIND, 2, 0x201, CP_ADDR), 0);          /* switch 2's id from 1's address */
    CHECK_EQ(rocc_cnp_bound(BIND, 2, 0x999, CP_ADDR), 0);          /* made-up switch 9 */
    CHECK_EQ(rocc_cnp_bound(BIND, 2, 0x101, 0x0a630007u), 0);      /* right id, other address */
    CHECK_EQ(rocc_cnp_bound(BIND, 0, 0x101, CP_ADDR), 0);
}

TEST(check_plain)
{
    uint8_t b[ROCC_CNP_AUTH_ICMP_BYTES + 4];
    struct rocc_cnp out;
    struct rocc_cnp_policy none = {0}, bind = {.bind = BIND, .nbind = 2};

    CHECK_EQ(rocc_cnp_encode(&C0, b, sizeof b), ROCC_CNP_ICMP_BYTES);
    CHECK_EQ(rocc_cnp_check(&none, CP_ADDR, HOST, b, ROCC_CNP_ICMP_BYTES, &out), ROCC_CNP_OK);
    CHECK_EQ(out.cp_id, 0x101u);
    CHECK_EQ(out.rate_units, 40u);
    CHECK_EQ(rocc_cnp_check(NULL, CP_ADDR, HOST, b, ROCC_CNP_ICMP_BYTES, NULL), ROCC_CNP_OK);
    CHECK_EQ(rocc_cnp_check(&bind, CP_ADDR, HOST, b, ROCC_CNP_ICMP_BYTES, NULL), ROCC_CNP_OK);
    /* Spoofed from another address in the range: the binding refuses it. */
    CHECK_EQ(rocc_cnp_check(&bind, 0x0a630007u, HOST, b, ROCC_CNP_ICMP_BYTES, NULL), ROCC_CNP_EBIND);
    CHECK_EQ(rocc_cnp_check(&none, 0x0a630007u, HOST, b, ROCC_CNP_ICMP_BYTES, NULL), ROCC_CNP_OK);
}

TEST(check_made_up_cp_id)
{
    uint8_t b[ROCC_CNP_ICMP_BYTES];
    struct rocc_cnp c = C0;
    struct rocc_cnp_policy bind = {.bind = BIND, .nbind = 2};

    c.cp_id = 0x999;
    rocc_cnp_encode(&c, b, sizeof b);
    CHECK_EQ(rocc_cnp_check(&bind, CP_ADDR, HOST, b, sizeof b, NULL), ROCC_CNP_EBIND);
}

TEST(check_malformed)
{
    uint8_t b[ROCC_CNP_ICMP_BYTES + 16];
    struct rocc_cnp out = {0};

    rocc_cnp_encode(&C0, b, sizeof b);
    memset(b + ROCC_CNP_ICMP_BYTES, 0, 16);
    /* Short: every length below 52 (the IPv4 total length says so). */
    for (size_t len = 0; len < ROCC_CNP_ICMP_BYTES; len++)
        CHECK(rocc_cnp_check(NULL, CP_ADDR, HOST, b, len, NULL) < 0);
    CHECK_EQ(rocc_cnp_check(NULL, CP_ADDR, HOST, b, 40, NULL), ROCC_CNP_ESHORT);
    /* Wrong length: trailing zero bytes keep the checksum right, still refused. */
    CHECK_EQ(rocc_cnp_check(NULL, CP_ADDR, HOST, b, ROCC_CNP_ICMP_BYTES + 2, NULL), ROCC_CNP_ELEN);
    CHECK_EQ(rocc_cnp_check(NULL, CP_ADDR, HOST, b, ROCC_CNP_ICMP_BYTES + 16, NULL), ROCC_CNP_ELEN);
    /* Bad checksum: any single byte flipped. */
    for (size_t i = 0; i < ROCC_CNP_ICMP_BYTES; i++) {
        b[i] ^= 0x10;
        CHECK(rocc_cnp_check(NULL, CP_ADDR, HOST, b, ROCC_CNP_ICMP_BYTES, &out) != ROCC_CNP_OK);
        b[i] ^= 0x10;
    }
    b[1] = 6;                                               /* unknown code (0..5 are forms) */
    CHECK_EQ(rocc_cnp_check(NULL, CP_ADDR, HOST, b, ROCC_CNP_ICMP_BYTES, NULL), ROCC_CNP_ETYPE);
    CHECK_EQ(rocc_cnp_check(NULL, CP_ADDR, HOST, NULL, 52, NULL), ROCC_CNP_EARG);
    CHECK_EQ(out.cp_id, 0u);                                /* never written on failure */
}

TEST(check_auth)
{
    uint8_t b[ROCC_CNP_AUTH_ICMP_BYTES], p[ROCC_CNP_ICMP_BYTES], k2[16];
    struct rocc_cnp out;
    struct rocc_cnp_policy keyed = {.key = KEY}, other = {.key = k2}, none = {0},
                           both = {.key = KEY, .bind = BIND, .nbind = 2};

    memcpy(k2, KEY, 16);
    k2[0] ^= 0x80;
    CHECK_EQ(rocc_cnp_encode_auth(&C0, KEY, CP_ADDR, HOST, b, sizeof b - 1), 0u);
    CHECK_EQ(rocc_cnp_encode_auth(&C0, KEY, CP_ADDR, HOST, b, sizeof b), ROCC_CNP_AUTH_ICMP_BYTES);
    CHECK_EQ(b[1], ROCC_CNP_ICMP_CODE_AUTH);
    CHECK_EQ(rocc_inet_checksum(b, sizeof b), 0);
    CHECK_EQ(rocc_cnp_check(&keyed, CP_ADDR, HOST, b, sizeof b, &out), ROCC_CNP_OK);
    CHECK_EQ(out.dest_qpn, 7u);
    CHECK_EQ(rocc_cnp_check(&both, CP_ADDR, HOST, b, sizeof b, NULL), ROCC_CNP_OK);
    /* Wrong key, or the tag moved to another source or destination. */
    CHECK_EQ(rocc_cnp_check(&other, CP_ADDR, HOST, b, sizeof b, NULL), ROCC_CNP_EAUTH);
    CHECK_EQ(rocc_cnp_check(&keyed, 0x0a630007u, HOST, b, sizeof b, NULL), ROCC_CNP_EAUTH);
    CHECK_EQ(rocc_cnp_check(&keyed, CP_ADDR, HOST + 1, b, sizeof b, NULL), ROCC_CNP_EAUTH);
    /* A receiver without the key checks length and checksum only. */
    CHECK_EQ(rocc_cnp_check(&none, CP_ADDR, HOST, b, sizeof b, NULL), ROCC_CNP_OK);
    /* A plain CNP where a key is required. */
    rocc_cnp_encode(&C0, p, sizeof p);
    CHECK_EQ(rocc_cnp_check(&keyed, CP_ADDR, HOST, p, sizeof p, NULL), ROCC_CNP_EAUTH);
    /* Rate changed and checksum fixed up (what a forger can do): tag fails. */
    b[7] ^= 1;
    b[2] = b[3] = 0;
    {
        uint16_t c = rocc_inet_checksum(b, sizeof b);
        b[2] = (uint8_t)(c >> 8); b[3] = (uint8_t)c;
    }
    CHECK_EQ(rocc_cnp_check(&none, CP_ADDR, HOST, b, sizeof b, NULL), ROCC_CNP_OK);
    CHECK_EQ(rocc_cnp_check(&keyed, CP_ADDR, HOST, b, sizeof b, NULL), ROCC_CNP_EAUTH);
    /* Truncated to 52 bytes: code 1 needs 60. */
    CHECK_EQ(rocc_cnp_check(&none, CP_ADDR, HOST, b, ROCC_CNP_ICMP_BYTES, NULL), ROCC_CNP_ELEN);
}

TEST(parse_key)
{
    uint8_t k[16];
    CHECK_EQ(rocc_cnp_parse_key("000102030405060708090a0b0c0d0E0F", k), 0);
    CHECK(memcmp(k, KEY, 16) == 0);
    CHECK_EQ(rocc_cnp_parse_key("000102030405060708090a0b0c0d0e0", k), -1);
    CHECK_EQ(rocc_cnp_parse_key("000102030405060708090a0b0c0d0e0g", k), -1);
    CHECK_EQ(rocc_cnp_parse_key("", k), -1);
    CHECK_EQ(rocc_cnp_parse_key(NULL, k), -1);
}

TEST(strerror_texts)
{
    CHECK(strcmp(rocc_cnp_strerror(ROCC_CNP_ELEN), "wrong CNP length") == 0);
    CHECK(strstr(rocc_cnp_strerror(ROCC_CNP_EAUTH), "authenticator") != NULL);
    CHECK(strstr(rocc_cnp_strerror(ROCC_CNP_EBIND), "bound") != NULL);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_rocc_cnpauth";
    RUN(siphash_paper_vectors);
    RUN(siphash_key_matters);
    RUN(bound);
    RUN(check_plain);
    RUN(check_made_up_cp_id);
    RUN(check_malformed);
    RUN(check_auth);
    RUN(parse_key);
    RUN(strerror_texts);
    return test_summary();
}
