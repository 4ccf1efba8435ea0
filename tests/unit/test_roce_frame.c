/*
 * test_roce_frame.c -- the pure frame builder src/cc/roce_frame.c: every
 * field at its offset (IBTA RoCEv2 / IEEE 802.1Qbb layouts, written out by
 * hand here), lengths, checksums, and the refusals (buffer too small).
 */
#include "roce_frame.h"
#include "rocc_cnp.h"
#include "test.h"

static const uint8_t A[6] = { 0x02, 0, 0, 0x01, 0, 0x04 }, B[6] = { 0x02, 0, 0, 0x06, 0, 0 };

static unsigned rd16(const uint8_t *p) { return (unsigned)p[0] << 8 | p[1]; }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) << 16 | rd16(p + 2); }

TEST(data_frame)
{
    uint8_t f[2048];
    struct rf_roce r = { .src_ip = 0x0a000002, .dst_ip = 0x0a000006, .dscp = 24, .ecn = 2, .sport = 49152,
                         .opcode = RF_OP_SEND_MIDDLE, .dest_qpn = 0x1234567, .psn = 0x1000005, .payload = 1000 };
    memcpy(r.src_mac, A, 6);
    memcpy(r.dst_mac, B, 6);
    size_t n = rf_build_roce(f, sizeof f, &r);
    CHECK_EQ(n, 14 + 20 + 8 + 12 + 1000 + 4);           /* 1058: the simulator's 1062 B frame less FCS */
    CHECK(!memcmp(f, B, 6) && !memcmp(f + 6, A, 6) && rd16(f + 12) == 0x0800);
    const uint8_t *ip = f + 14;
    CHECK_EQ(ip[0], 0x45);
    CHECK_EQ(ip[1], 24 << 2 | 2);                        /* DSCP 24 (class 3), ECT(0) */
    CHECK_EQ(rd16(ip + 2), n - 14);
    CHECK_EQ(rd16(ip + 6), 0x4000);                     /* DF */
    CHECK_EQ(ip[9], 17);
    CHECK_EQ(rd32(ip + 12), 0x0a000002);
    CHECK_EQ(rd32(ip + 16), 0x0a000006);
    CHECK_EQ(rocc_inet_checksum(ip, 20), 0);            /* the header checksum verifies */
    const uint8_t *udp = ip + 20;
    CHECK_EQ(rd16(udp), 49152);
    CHECK_EQ(rd16(udp + 2), 4791);
    CHECK_EQ(rd16(udp + 4), n - 34);
    CHECK_EQ(rd16(udp + 6), 0);
    const uint8_t *bth = udp + 8;
    CHECK_EQ(bth[0], RF_OP_SEND_MIDDLE);
    CHECK_EQ(bth[1], 0);
    CHECK_EQ(rd16(bth + 2), 0xffff);
    CHECK_EQ(rd32(bth + 4), 0x234567);                  /* 24-bit QPN, reserved byte 0 */
    CHECK_EQ(rd32(bth + 8), 0x000005);                  /* 24-bit PSN, A bit clear */
    for (size_t i = 54; i < n; i++)
        if (f[i]) {
            CHECK(0 && "payload and ICRC placeholder are zero");
            break;
        }
    r.ackreq = 1;
    CHECK_EQ(rf_build_roce(f, sizeof f, &r), n);
    CHECK_EQ(f[54 - 4], 0x80);                          /* A bit */
    CHECK_EQ(rf_build_roce(f, n - 1, &r), 0);           /* one byte short */
    r.payload = 70000;                                  /* IPv4 total length would pass 65535 */
    CHECK_EQ(rf_build_roce(f, sizeof f, &r), 0);
}

TEST(ack_nak_int_escape)
{
    uint8_t f[256], ext[42];
    for (int i = 0; i < 42; i++)
        ext[i] = (uint8_t)(i + 1);
    struct rf_roce r = { .opcode = RF_OP_ACK, .has_aeth = 1, .syndrome = RF_AETH_NAK_PSN_SEQ, .msn = 0x1abcdef,
                         .psn = 9, .ext = ext, .ext_len = 42, .pre_bth = 2, .esc_hops = 0x0102 };
    size_t n = rf_build_roce(f, sizeof f, &r);
    CHECK_EQ(n, 14 + 20 + 8 + 2 + 12 + 4 + 42 + 4);     /* 66 B ACK + 42 B INT + 2 B Escape header, less FCS */
    CHECK_EQ(rd16(f + 42), 0x0102);                     /* Escape header (hops) right after UDP */
    CHECK_EQ(f[44], RF_OP_ACK);
    CHECK_EQ(rd32(f + 56), 0x60u << 24 | 0xabcdef);     /* AETH: NAK PSN sequence error, 24-bit MSN */
    CHECK(!memcmp(f + 60, ext, 42));                    /* the caller's bytes after the AETH */
    CHECK_EQ(rd32(f + 102), 0);                         /* ICRC placeholder */
    r.ext = NULL;                                       /* NULL ext: zeros */
    CHECK_EQ(rf_build_roce(f, sizeof f, &r), n);
    CHECK_EQ(f[60], 0);
}

TEST(rocev2_cnp)
{
    uint8_t f[128];
    struct rf_roce r = { .opcode = RF_OP_CNP, .dest_qpn = 7, .ext_len = RF_CNP_RSVD_LEN };
    CHECK_EQ(rf_build_roce(f, sizeof f, &r), RF_ROCE_CNP_FRAME_LEN);   /* 74: the 78 B frame less FCS */
    CHECK_EQ(f[42], 0x81);
}

TEST(rocc_cnp_frame)
{
    uint8_t f[128];
    struct rocc_cnp c = { .rate_units = 40, .cp_id = 0x104, .src_ip = 0x0a000002, .dst_ip = 0x0a000006, .sport = 49152, .dport = 4791, .dest_qpn = 2 }, d;
    CHECK_EQ(rf_build_rocc_cnp(f, sizeof f, B, A, 0x0a000001, 0x0a000002, 0xe0, &c), RF_CNP_FRAME_LEN);
    CHECK_EQ(RF_CNP_FRAME_LEN + 4, ROCC_CNP_FRAME_BYTES);   /* the simulator's 90 B CNP */
    CHECK_EQ(f[14 + 1], 0xe0);
    CHECK_EQ(f[14 + 9], 1);                                 /* ICMP */
    CHECK_EQ(rd16(f + 16), 20 + ROCC_CNP_ICMP_BYTES);
    CHECK_EQ(rocc_inet_checksum(f + 14, 20), 0);
    CHECK_EQ(rocc_cnp_decode(f + 34, ROCC_CNP_ICMP_BYTES, &d), ROCC_CNP_OK);   /* the CNP codec's own bytes */
    CHECK(d.rate_units == 40 && d.cp_id == 0x104 && d.dest_qpn == 2 && d.src_ip == 0x0a000002);
    CHECK_EQ(rf_build_rocc_cnp(f, RF_CNP_FRAME_LEN - 1, B, A, 1, 2, 0, &c), 0);
}

TEST(pfc_frame)
{
    uint8_t f[64];
    uint16_t q[8] = { 1, 2, 3, 0xffff, 5, 6, 7, 8 };
    memset(f, 0xee, sizeof f);
    CHECK_EQ(rf_build_pfc(f, sizeof f, A, 0x08, q), 60);
    CHECK(!memcmp(f, rf_macctl_dst, 6) && !memcmp(f + 6, A, 6));
    CHECK_EQ(rd16(f + 12), 0x8808);
    CHECK_EQ(rd16(f + 14), 0x0101);
    CHECK_EQ(rd16(f + 16), 0x0008);                     /* reserved octet 0, class 3 enabled */
    for (int c = 0; c < 8; c++)
        CHECK_EQ(rd16(f + 18 + 2 * c), c == 3 ? 0xffff : 0);   /* classes not enabled: 0 */
    for (int i = 34; i < 60; i++)
        CHECK_EQ(f[i], 0);
    CHECK_EQ(rf_build_pfc(f, 59, A, 0x08, q), 0);
}

TEST(l2_frame)
{
    uint8_t f[80], body[16] = { 'L', 'B', 1 };
    memset(f, 0xee, sizeof f);
    CHECK_EQ(rf_build_l2(f, sizeof f, B, A, RF_ETHERTYPE_EXP1, body, sizeof body), 60);   /* padded */
    CHECK_EQ(rd16(f + 12), 0x88b5);
    CHECK(!memcmp(f + 14, body, sizeof body));
    CHECK_EQ(f[59], 0);
    CHECK_EQ(rf_build_l2(f, 59, B, A, RF_ETHERTYPE_EXP1, body, sizeof body), 0);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_roce_frame";
    RUN(data_frame);
    RUN(ack_nak_int_escape);
    RUN(rocev2_cnp);
    RUN(rocc_cnp_frame);
    RUN(pfc_frame);
    RUN(l2_frame);
    return test_summary();
}
