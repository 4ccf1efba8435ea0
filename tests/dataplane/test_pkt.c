/* test_pkt.c -- the data plane's frame parser/builders without DPDK:
 * round trips, and the hardened parser on hostile frames (truncated,
 * non-IPv4, bad IHL / tot_len).  Built and run by `make -C dataplane test`. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pcap.h"
#include "pkt.h"
#include "roce_frame.h"
#include "rocc_hostcp.h"

static int fails;
#define CHECK(c) do { if (c) printf("PASS pkt: %s\n", #c); else { printf("FAIL pkt: %s (line %d)\n", #c, __LINE__); fails++; } } while (0)

int main(void)
{
    static const uint8_t a[6] = {2, 0, 0, 0, 0, 1}, b[6] = {2, 0, 0, 0, 0, 2};
    uint8_t f[2048], g[2048];
    struct pkt_info pi;
    struct rocc_cnp c = {.rate_units = 100, .cp_id = 0x103, .src_ip = 0x0a630102, .dst_ip = 0x0a630402,
                         .sport = 0xC001, .dport = 4791, .dest_qpn = 7, .psn = 42}, d;
    size_t n = pkt_build_roce(f, sizeof f, a, b, 0x0a630102, 0x0a630402, 0xC001, 7, 42, 1000);

    CHECK(n == PKT_ROCE_HDRS + 1000);
    CHECK(pkt_parse(f, n, &pi) == PKT_OK && pi.is_roce && pi.dest_qpn == 7 && pi.psn == 42);
    CHECK(rocc_inet_checksum(f + PKT_ETH_LEN, PKT_IP4_LEN) == 0);
    CHECK(pkt_ip4_dec_ttl(f, &pi) == 0 && f[PKT_ETH_LEN + 8] == 63);
    CHECK(rocc_inet_checksum(f + PKT_ETH_LEN, PKT_IP4_LEN) == 0);   /* RFC 1624 patch kept it valid */
    /* every truncation of a valid frame is rejected, never over-read */
    {
        int ok = 1;
        for (size_t k = 0; k < n; k++) {
            memcpy(g, f, k);
            if (pkt_parse(g, k, &pi) != PKT_ETRUNC) ok = 0;
        }
        CHECK(ok);
    }
    memcpy(g, f, n); g[12] = 0x86; g[13] = 0xdd;
    CHECK(pkt_parse(g, n, &pi) == PKT_ENOTIP4);
    memcpy(g, f, n); g[PKT_ETH_LEN] = 0x44;          /* IHL 4 */
    CHECK(pkt_parse(g, n, &pi) == PKT_EIPHDR);
    memcpy(g, f, n); g[PKT_ETH_LEN] = 0x65;          /* version 6 */
    CHECK(pkt_parse(g, n, &pi) == PKT_EIPHDR);
    memcpy(g, f, n); g[PKT_ETH_LEN + 2] = 0; g[PKT_ETH_LEN + 3] = 10;   /* tot_len < IHL*4 */
    CHECK(pkt_parse(g, n, &pi) == PKT_EIPHDR);
    memcpy(g, f, n); g[PKT_ETH_LEN] = 0x4f;          /* IHL 15: 60 B options, tot_len still covers */
    CHECK(pkt_parse(g, n, &pi) == PKT_OK && !pi.is_roce);   /* BTH not where an IHL-5 parser would look */
    /* RoCE port but UDP datagram too short for a BTH: not RoCE */
    n = pkt_build_roce(f, sizeof f, a, b, 1, 2, 3, 7, 0, 0);
    f[PKT_ETH_LEN + 2] = 0; f[PKT_ETH_LEN + 3] = PKT_IP4_LEN + PKT_UDP_LEN + 4;
    CHECK(pkt_parse(f, n, &pi) == PKT_OK && !pi.is_roce);

    n = pkt_build_cnp(f, sizeof f, a, b, 0x0a630001, c.src_ip, &c);
    CHECK(n == PKT_CNP_FRAME_LEN);
    CHECK(pkt_parse(f, n, &pi) == PKT_OK && pi.proto == 1 && pi.l4_len == ROCC_CNP_ICMP_BYTES);
    CHECK(rocc_cnp_decode(f + pi.l4_off, pi.l4_len, &d) == ROCC_CNP_OK && d.rate_units == 100 &&
          d.dest_qpn == 7 && d.dst_ip == c.dst_ip && d.cp_id == 0x103);
    f[n - 1] ^= 1;
    CHECK(rocc_cnp_decode(f + pi.l4_off, pi.l4_len, &d) == ROCC_CNP_ECSUM);
    {
        uint32_t net, mask, ip;
        uint8_t m[6];
        CHECK(pkt_parse_prefix("10.99.0.7/24", &net, &mask) == 0 && net == 0x0a630000 && mask == 0xffffff00);
        CHECK(pkt_parse_prefix("10.99.0.0/33", &net, &mask) != 0 && pkt_parse_ip("1.2.3.256", &ip) != 0);
        CHECK(pkt_parse_mac("02:99:00:00:04:01", m) == 0 && m[4] == 4 && pkt_parse_mac("02:99", m) != 0);
        /* what sscanf took: a sign, a space, an octet past 2^32, a trailing colon */
        CHECK(pkt_parse_ip("+1.2.3.4", &ip) != 0 && pkt_parse_ip(" 1.2.3.4", &ip) != 0 &&
              pkt_parse_ip("4294967297.0.0.1", &ip) != 0 && pkt_parse_ip("1.2.3.4.", &ip) != 0 &&
              pkt_parse_ip("1..3.4", &ip) != 0 && pkt_parse_ip("10.99.0.255", &ip) == 0 && ip == 0x0a6300ff);
        CHECK(pkt_parse_mac("02:-1:00:00:04:01", m) != 0 && pkt_parse_mac("02:99:00:00:04:01:", m) != 0 &&
              pkt_parse_mac("02:fffffffffffffffff:00:00:04:01", m) != 0 && pkt_parse_mac("0A:bC:00:00:04:FF", m) == 0 &&
              m[0] == 10 && m[1] == 0xbc && m[5] == 0xff);
        CHECK(pkt_parse_prefix("10.0.0.0/-1", &net, &mask) != 0 && pkt_parse_prefix("10.0.0.0/", &net, &mask) != 0 &&
              pkt_parse_prefix("10.0.0.0/0", &net, &mask) == 0 && mask == 0);
    }
    /* Command-line numbers: what strtoull/strtod would bend is refused. */
    {
        uint64_t v = 7;
        const char *e;
        double g = 7;
        CHECK(pkt_parse_u64("18446744073709551615", 0, 0, UINT64_MAX, NULL, &v) == 0 && v == UINT64_MAX);
        v = 7;
        CHECK(pkt_parse_u64("18446744073709551616", 0, 0, UINT64_MAX, NULL, &v) != 0 && v == 7);   /* ERANGE */
        CHECK(pkt_parse_u64("99999999999999999999999", 0, 0, UINT64_MAX, NULL, &v) != 0);
        CHECK(pkt_parse_u64("-1", 0, 0, UINT64_MAX, NULL, &v) != 0 && pkt_parse_u64("+1", 0, 0, 9, NULL, &v) != 0);
        CHECK(pkt_parse_u64("", 0, 0, 9, NULL, &v) != 0 && pkt_parse_u64(" 1", 0, 0, 9, NULL, &v) != 0 &&
              pkt_parse_u64("1 ", 0, 0, 9, NULL, &v) != 0 && pkt_parse_u64("1k", 0, 0, 9999, NULL, &v) != 0);
        CHECK(pkt_parse_u64("5", 0, 6, 9, NULL, &v) != 0 && pkt_parse_u64("10", 0, 6, 9, NULL, &v) != 0 &&
              pkt_parse_u64("6", 0, 6, 9, NULL, &v) == 0 && v == 6 && pkt_parse_u64("9", 0, 6, 9, NULL, &v) == 0 && v == 9);
        CHECK(pkt_parse_u64("0x1F", 0, 0, 99, NULL, &v) != 0 && pkt_parse_u64("0x1F", 1, 0, 99, NULL, &v) == 0 && v == 31);
        CHECK(pkt_parse_u64("010", 1, 0, 99, NULL, &v) == 0 && v == 10);              /* never octal */
        CHECK(pkt_parse_u64("0x", 1, 0, 99, NULL, &v) != 0 && pkt_parse_u64("ff", 16, 0, 255, NULL, &v) == 0 && v == 255);
        CHECK(pkt_parse_u64("12:34", 0, 0, 99, &e, &v) == 0 && v == 12 && *e == ':' &&
              pkt_parse_u64(":34", 0, 0, 99, &e, &v) != 0);
        CHECK(pkt_parse_dbl("2.5", 0, 10, &g) == 0 && g == 2.5 && pkt_parse_dbl("1e1", 0, 10, &g) == 0 && g == 10);
        g = 7;
        CHECK(pkt_parse_dbl("nan", 0, 10, &g) != 0 && pkt_parse_dbl("inf", 0, 1e300, &g) != 0 &&
              pkt_parse_dbl("1e400", 0, 1e300, &g) != 0 && pkt_parse_dbl("0x10", 0, 99, &g) != 0 && g == 7);
        CHECK(pkt_parse_dbl("", 0, 10, &g) != 0 && pkt_parse_dbl(" 1", 0, 10, &g) != 0 &&
              pkt_parse_dbl("1 ", 0, 10, &g) != 0 && pkt_parse_dbl("-1", 0, 10, &g) != 0 &&
              pkt_parse_dbl("10.5", 0, 10, &g) != 0 && pkt_parse_dbl("-", -1, 10, &g) != 0 && g == 7);
        CHECK(pkt_parse_dbl("-0.5", -1, 10, &g) == 0 && g == -0.5 && pkt_parse_dbl(".5", 0, 1, &g) == 0 && g == 0.5);
    }
    /* ARP: round trip, then every malformed variant is rejected */
    {
        static const uint8_t bc[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, z[6] = {0};
        struct pkt_arp ar;
        int ok = 1;
        n = pkt_build_arp(f, sizeof f, PKT_ARP_REQUEST, bc, a, 0x0a630101, z, 0x0a630102);
        CHECK(n == PKT_ARP_FRAME_LEN && pkt_ethertype(f, n) == PKT_ETHERTYPE_ARP);
        CHECK(pkt_parse_arp(f, n, &ar) == 0 && ar.op == PKT_ARP_REQUEST && ar.spa == 0x0a630101 &&
              ar.tpa == 0x0a630102 && !memcmp(ar.sha, a, 6));
        CHECK(pkt_parse(f, n, &pi) == PKT_ENOTIP4);    /* the IPv4 parser leaves ARP to the caller */
        CHECK(pkt_parse_arp(f, PKT_ETH_LEN + PKT_ARP_LEN, &ar) == 0);   /* unpadded 42 B is fine */
        for (size_t k = 0; k < PKT_ETH_LEN + PKT_ARP_LEN; k++)
            if (pkt_parse_arp(f, k, &ar) != -1) ok = 0;
        CHECK(ok);                                      /* every truncation rejected */
        memcpy(g, f, n); g[PKT_ETH_LEN + 1] = 6;        /* htype 6 */
        CHECK(pkt_parse_arp(g, n, &ar) == -1);
        memcpy(g, f, n); g[PKT_ETH_LEN + 2] = 0x86; g[PKT_ETH_LEN + 3] = 0xdd;   /* ptype IPv6 */
        CHECK(pkt_parse_arp(g, n, &ar) == -1);
        memcpy(g, f, n); g[PKT_ETH_LEN + 5] = 16;       /* plen 16 */
        CHECK(pkt_parse_arp(g, n, &ar) == -1);
        memcpy(g, f, n); g[PKT_ETH_LEN + 7] = 3;        /* op 3 (RARP) */
        CHECK(pkt_parse_arp(g, n, &ar) == -1);
        memcpy(g, f, n); g[PKT_ETH_LEN + 8] = 0x01;     /* multicast sender MAC */
        CHECK(pkt_parse_arp(g, n, &ar) == -1);
        memcpy(g, f, n); memset(g + PKT_ETH_LEN + 8, 0, 6);   /* zero sender MAC */
        CHECK(pkt_parse_arp(g, n, &ar) == -1);
        CHECK(pkt_build_arp(f, PKT_ARP_FRAME_LEN - 1, PKT_ARP_REPLY, bc, a, 1, b, 2) == 0);
    }
    /* ECN: CE marking keeps the IPv4 checksum valid; RED decisions */
    {
        int ok = 1;
        n = pkt_build_roce(f, sizeof f, a, b, 0x0a630102, 0x0a630402, 0xC001, 7, 42, 100);
        CHECK(pkt_parse(f, n, &pi) == PKT_OK && pkt_ip4_ecn(f, &pi) == PKT_ECN_NOT_ECT);
        pkt_ip4_set_ecn(f, &pi, PKT_ECN_ECT0);
        CHECK(pkt_ip4_ecn(f, &pi) == PKT_ECN_ECT0 && rocc_inet_checksum(f + PKT_ETH_LEN, PKT_IP4_LEN) == 0);
        pkt_ip4_set_ecn(f, &pi, PKT_ECN_CE);
        CHECK(pkt_ip4_ecn(f, &pi) == PKT_ECN_CE && rocc_inet_checksum(f + PKT_ETH_LEN, PKT_IP4_LEN) == 0);
        CHECK((f[PKT_ETH_LEN + 1] & 0xfc) == 0 && f[PKT_ETH_LEN] == 0x45);   /* DSCP, version/IHL kept */
        /* every TOS byte: setting CE keeps DSCP and a valid checksum */
        for (unsigned tos = 0; tos < 256; tos++) {
            n = pkt_build_roce(f, sizeof f, a, b, 0x0a630102 + tos, 0x0a630402, 0xC001, 7, tos, 10);
            f[PKT_ETH_LEN + 1] = (uint8_t)tos;
            f[PKT_ETH_LEN + 10] = f[PKT_ETH_LEN + 11] = 0;
            {
                uint16_t cs = rocc_inet_checksum(f + PKT_ETH_LEN, PKT_IP4_LEN);
                f[PKT_ETH_LEN + 10] = (uint8_t)(cs >> 8); f[PKT_ETH_LEN + 11] = (uint8_t)cs;
            }
            pkt_parse(f, n, &pi);
            pkt_ip4_set_ecn(f, &pi, PKT_ECN_CE);
            if (rocc_inet_checksum(f + PKT_ETH_LEN, PKT_IP4_LEN) != 0 || (f[PKT_ETH_LEN + 1] >> 2) != tos >> 2)
                ok = 0;
        }
        CHECK(ok);
        CHECK(!pkt_red_mark(1000, 1000, 5000, 1.0, 0) && pkt_red_mark(5000, 1000, 5000, 0.0, 0xffffffffu));
        CHECK(pkt_red_mark(3000, 1000, 5000, 0.5, 0x3fffffffu) && !pkt_red_mark(3000, 1000, 5000, 0.5, 0x40000000u));
        {
            unsigned marks = 0;   /* p = 0.2 * 3/4 = 0.15 over a uniform sweep */
            for (uint32_t r = 0; r < 1000; r++) marks += (unsigned)pkt_red_mark(4000, 1000, 5000, 0.2, r * 4294967u);
            CHECK(marks >= 149 && marks <= 151);
        }
    }
    /* pcap: header, records, snap length, read back byte for byte */
    {
        char path[] = "/tmp/test_pkt_pcap.XXXXXX";
        int fd = mkstemp(path);
        struct dp_pcap pc;
        uint8_t buf[4096];
        uint32_t u32[6];
        FILE *rf;
        size_t got;
        CHECK(fd >= 0);
        if (fd >= 0) close(fd);
        n = pkt_build_roce(f, sizeof f, a, b, 1, 2, 3, 7, 0, 1000);
        CHECK(dp_pcap_open(&pc, path, 100) == 0);
        dp_pcap_write(&pc, f, (uint32_t)n, 1700000000123456789ull);
        dp_pcap_write(&pc, f, 60, 1700000001000000001ull);
        CHECK(pc.frames == 2 && dp_pcap_close(&pc) == 0);
        rf = fopen(path, "rb");
        got = rf ? fread(buf, 1, sizeof buf, rf) : 0;
        if (rf) fclose(rf);
        CHECK(got == 24 + 16 + 100 + 16 + 60);
        memcpy(u32, buf, 4);
        CHECK(u32[0] == DP_PCAP_MAGIC_NS);
        memcpy(u32, buf + 16, 8);
        CHECK(u32[0] == 100 && u32[1] == 1);            /* snaplen, LINKTYPE_ETHERNET */
        memcpy(u32, buf + 24, 16);
        CHECK(u32[0] == 1700000000u && u32[1] == 123456789u && u32[2] == 100 && u32[3] == n);
        CHECK(!memcmp(buf + 40, f, 100));
        memcpy(u32, buf + 140, 16);
        CHECK(u32[1] == 1 && u32[2] == 60 && u32[3] == 60);
        unlink(path);
        CHECK(dp_pcap_open(&pc, "/nonexistent-dir/x.pcap", 100) == -1 && dp_pcap_close(&pc) == 0);
    }
    printf("%s pkt: %d failures\n", fails ? "FAIL" : "PASS", fails);
    /* Malformed CNPs (issue 11): what a switch or host validates is the ICMP
     * message as long as the IPv4 total length says, via rocc_cnp_check. */
    {
        static const uint8_t key[16] = {1, 2, 3};
        struct rocc_cp_bind bind = {.node = 1, .addr = 0x0a630001};
        struct rocc_cnp_policy pol = {.bind = &bind, .nbind = 1}, kpol = {.key = key};
        uint8_t h[256];
        struct rocc_cnp e = c;
        e.cp_id = 0x101;
        n = pkt_build_cnp(h, sizeof h, a, b, 0x0a630001, c.src_ip, &e);
        CHECK(pkt_parse(h, n, &pi) == PKT_OK && pi.l4_len == ROCC_CNP_ICMP_BYTES);
        CHECK(rocc_cnp_check(&pol, pi.src_ip, pi.dst_ip, h + pi.l4_off, pi.l4_len, NULL) == ROCC_CNP_OK);
        /* padding after the IPv4 packet is not part of the CNP */
        memset(h + n, 0xee, 40);
        CHECK(pkt_parse(h, n + 40, &pi) == PKT_OK && pi.l4_len == ROCC_CNP_ICMP_BYTES);
        CHECK(rocc_cnp_check(&pol, pi.src_ip, pi.dst_ip, h + pi.l4_off, pi.l4_len, NULL) == ROCC_CNP_OK);
        /* short: tot_len says 20 + 40 (checksum patched so only the length is wrong) */
        h[PKT_ETH_LEN + 3] = PKT_IP4_LEN + 40; h[PKT_ETH_LEN + 10] = h[PKT_ETH_LEN + 11] = 0;
        { uint16_t k = rocc_inet_checksum(h + PKT_ETH_LEN, PKT_IP4_LEN);
          h[PKT_ETH_LEN + 10] = (uint8_t)(k >> 8); h[PKT_ETH_LEN + 11] = (uint8_t)k; }
        CHECK(pkt_parse(h, n, &pi) == PKT_OK && pi.l4_len == 40);
        CHECK(rocc_cnp_check(&pol, pi.src_ip, pi.dst_ip, h + pi.l4_off, pi.l4_len, NULL) == ROCC_CNP_ESHORT);
        /* wrong length: tot_len says 20 + 56 (4 padding bytes counted in) */
        memset(h + n, 0, 4);
        h[PKT_ETH_LEN + 3] = PKT_IP4_LEN + 56; h[PKT_ETH_LEN + 10] = h[PKT_ETH_LEN + 11] = 0;
        { uint16_t k = rocc_inet_checksum(h + PKT_ETH_LEN, PKT_IP4_LEN);
          h[PKT_ETH_LEN + 10] = (uint8_t)(k >> 8); h[PKT_ETH_LEN + 11] = (uint8_t)k; }
        CHECK(pkt_parse(h, n + 4, &pi) == PKT_OK && pi.l4_len == 56);
        CHECK(rocc_cnp_check(&pol, pi.src_ip, pi.dst_ip, h + pi.l4_off, pi.l4_len, NULL) == ROCC_CNP_ELEN);
        /* bad checksum */
        n = pkt_build_cnp(h, sizeof h, a, b, 0x0a630001, c.src_ip, &e);
        h[PKT_ETH_LEN + PKT_IP4_LEN + 6] ^= 0x40;      /* the rate, checksum not patched */
        CHECK(pkt_parse(h, n, &pi) == PKT_OK);
        CHECK(rocc_cnp_check(&pol, pi.src_ip, pi.dst_ip, h + pi.l4_off, pi.l4_len, NULL) == ROCC_CNP_ECSUM);
        /* made-up CP id from the bound address; real id from another address */
        e.cp_id = 0x999;
        n = pkt_build_cnp(h, sizeof h, a, b, 0x0a630001, c.src_ip, &e);
        CHECK(pkt_parse(h, n, &pi) == PKT_OK);
        CHECK(rocc_cnp_check(&pol, pi.src_ip, pi.dst_ip, h + pi.l4_off, pi.l4_len, NULL) == ROCC_CNP_EBIND);
        e.cp_id = 0x101;
        n = pkt_build_cnp(h, sizeof h, a, b, 0x0a630007, c.src_ip, &e);
        CHECK(pkt_parse(h, n, &pi) == PKT_OK);
        CHECK(rocc_cnp_check(&pol, pi.src_ip, pi.dst_ip, h + pi.l4_off, pi.l4_len, NULL) == ROCC_CNP_EBIND);
        /* authenticated frame: 94 bytes, verifies under the key, not without the tag */
        CHECK(pkt_build_cnp_auth(h, PKT_CNP_AUTH_FRAME_LEN - 1, a, b, 0x0a630001, c.src_ip, &e, key) == 0);
        n = pkt_build_cnp_auth(h, sizeof h, a, b, 0x0a630001, c.src_ip, &e, key);
        CHECK(n == PKT_CNP_AUTH_FRAME_LEN && n == 94);
        CHECK(pkt_parse(h, n, &pi) == PKT_OK && pi.l4_len == ROCC_CNP_AUTH_ICMP_BYTES);
        CHECK(rocc_cnp_check(&kpol, pi.src_ip, pi.dst_ip, h + pi.l4_off, pi.l4_len, NULL) == ROCC_CNP_OK);
        n = pkt_build_cnp(h, sizeof h, a, b, 0x0a630001, c.src_ip, &e);
        CHECK(pkt_parse(h, n, &pi) == PKT_OK);
        CHECK(rocc_cnp_check(&kpol, pi.src_ip, pi.dst_ip, h + pi.l4_off, pi.l4_len, NULL) == ROCC_CNP_EAUTH);
        /* RoCC §3.6 host forms: HOST_FULL tagged (14 + 20 + 100 = 134 B), HOST_REG plain (94 B);
         * the IPv4 total length covers them; a policy without the forms refuses them */
        {
            struct rocc_cnp_policy hpol = {.key = key, .forms = ROCC_CNP_FORMS_HOST};
            struct rocc_cp_params cpp;
            struct rocc_cnp x = e, y;
            rocc_cp_params_default(&cpp, 40000000000ull);
            x.form = ROCC_CNP_FORM_HOST_FULL; x.rate_units = 2000; x.q_cur = 300; x.q_old = 250;
            rocc_hostcp_put_params(&x, &cpp);
            CHECK(pkt_build_cnp_form(h, 133, a, b, 0x0a630001, c.src_ip, &x, key) == 0);
            n = pkt_build_cnp_form(h, sizeof h, a, b, 0x0a630001, c.src_ip, &x, key);
            CHECK(n == 134 && pkt_parse(h, n, &pi) == PKT_OK && pi.l4_len == 100);
            CHECK(rocc_cnp_check(&hpol, pi.src_ip, pi.dst_ip, h + pi.l4_off, pi.l4_len, &y) == ROCC_CNP_OK);
            CHECK(y.form == ROCC_CNP_FORM_HOST_FULL && y.q_cur == 300 && y.q_old == 250 && y.q_ref == cpp.q_ref);
            CHECK(rocc_cnp_check(&kpol, pi.src_ip, pi.dst_ip, h + pi.l4_off, pi.l4_len, NULL) == ROCC_CNP_EFORM);
            x.form = ROCC_CNP_FORM_HOST_REG;
            n = pkt_build_cnp_form(h, sizeof h, a, b, 0x0a630001, c.src_ip, &x, NULL);
            CHECK(n == 94 && pkt_parse(h, n, &pi) == PKT_OK && pi.l4_len == 60);
            CHECK(rocc_cnp_check(&hpol, pi.src_ip, pi.dst_ip, h + pi.l4_off, pi.l4_len, NULL) == ROCC_CNP_EAUTH);
            hpol.key = NULL;
            CHECK(rocc_cnp_check(&hpol, pi.src_ip, pi.dst_ip, h + pi.l4_off, pi.l4_len, &y) == ROCC_CNP_OK);
            CHECK(y.form == ROCC_CNP_FORM_HOST_REG && y.rate_units == 2000);
            x.form = 3;
            CHECK(pkt_build_cnp_form(h, sizeof h, a, b, 0x0a630001, c.src_ip, &x, NULL) == 0);
        }
    }
    /* PFC (802.1Qbb): layout, round trip, and every malformed variant refused
     * with its own reason */
    {
        uint8_t h[128], k[128];
        struct pkt_pfc pf;
        const uint16_t q[8] = {0xffff, 0, 7, 0, 0, 0, 0, 0x1234};
        static const uint8_t want[34] = {0x01, 0x80, 0xc2, 0, 0, 1, 2, 0, 0, 0, 0, 1, 0x88, 0x08, 0x01, 0x01,
                                         0x00, 0x85, 0xff, 0xff, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0x12, 0x34};
        int zero_pad = 1;
        CHECK(pkt_build_pfc(h, PKT_PFC_FRAME_LEN - 1, a, 0x85, q) == 0);
        n = pkt_build_pfc(h, sizeof h, a, 0x85, q);          /* classes 0, 2, 7 */
        CHECK(n == PKT_PFC_FRAME_LEN && n == 60);
        CHECK(memcmp(h, want, sizeof want) == 0);
        for (size_t i = PKT_PFC_LEN; i < n; i++) zero_pad &= h[i] == 0;
        CHECK(zero_pad);
        CHECK(pkt_ethertype(h, n) == PKT_ETHERTYPE_MACCTL);
        CHECK(pkt_parse_pfc(h, n, &pf) == PKT_PFC_OK && pf.vec == 0x85 && pf.quanta[0] == 0xffff &&
              pf.quanta[2] == 7 && pf.quanta[7] == 0x1234 && pf.quanta[1] == 0 && !memcmp(pf.src, a, 6));
        CHECK(pkt_parse(h, n, &pi) == PKT_ENOTIP4);          /* never mistaken for data */
        /* quanta of classes not enabled go out as zero */
        n = pkt_build_pfc(h, sizeof h, a, 0x01, q);
        CHECK(pkt_parse_pfc(h, n, &pf) == PKT_PFC_OK && pf.quanta[2] == 0 && pf.quanta[7] == 0);
        {
            int ok = 1;
            for (size_t m = 0; m < sizeof k; m++)
                if (m != PKT_PFC_FRAME_LEN) { memset(k, 0, sizeof k); memcpy(k, h, m < n ? m : n);
                    if (pkt_parse_pfc(k, m, &pf) != PKT_PFC_ELEN) ok = 0; }
            CHECK(ok);                                         /* every other length: ELEN */
        }
        memcpy(k, h, n); k[5] = 0x02;                          /* 01:80:C2:00:00:02 (slow protocols) */
        CHECK(pkt_parse_pfc(k, n, &pf) == PKT_PFC_EDST);
        memcpy(k, h, n); k[14] = 0x00; k[15] = 0x01;           /* 802.3x PAUSE */
        CHECK(pkt_parse_pfc(k, n, &pf) == PKT_PFC_EOPCODE);
        memcpy(k, h, n); k[15] = 0x02;                         /* unknown opcode */
        CHECK(pkt_parse_pfc(k, n, &pf) == PKT_PFC_EOPCODE);
        memcpy(k, h, n); k[12] = 0x08; k[13] = 0x00;           /* not MAC control at all */
        CHECK(pkt_parse_pfc(k, n, &pf) == PKT_PFC_EOPCODE);
        memcpy(k, h, n); k[16] = 0x01;                         /* reserved octet of the vector */
        CHECK(pkt_parse_pfc(k, n, &pf) == PKT_PFC_ERESERVED);
        memcpy(k, h, n); k[17] = 0x00;
        CHECK(pkt_parse_pfc(k, n, &pf) == PKT_PFC_EEMPTY);
        memcpy(k, h, n); k[6] = 0x03;                          /* multicast source */
        CHECK(pkt_parse_pfc(k, n, &pf) == PKT_PFC_ESRC);
        memcpy(k, h, n); memset(k + 6, 0, 6);
        CHECK(pkt_parse_pfc(k, n, &pf) == PKT_PFC_ESRC);
        CHECK(!strcmp(pkt_pfc_strerror(PKT_PFC_ERESERVED), "reserved") &&
              !strcmp(pkt_pfc_strerror(PKT_PFC_ENEIGH), "not_neighbour") && !strcmp(pkt_pfc_strerror(99), "unknown"));
        /* DSCP -> class: CS3 (DSCP 24) is class 3, ECN bits do not count */
        n = pkt_build_roce(k, sizeof k, a, b, 1, 2, 3, 7, 0, 0);
        CHECK(pkt_parse(k, n, &pi) == PKT_OK && pkt_ip4_dscp_class(k, &pi) == 0);
        k[PKT_ETH_LEN + 1] = (uint8_t)(24 << 2 | 3);
        CHECK(pkt_ip4_dscp_class(k, &pi) == 3);
    }
    /* Escape: the header between UDP and BTH, and ETFs */
    {
        uint8_t k[128], src[6];
        struct esc_token t = {.fid = {.src_ip = 0x0a600102, .dst_ip = 0x0a600302, .src_port = 0xC001,
                                      .dst_port = 4791, .proto = 17}, .hops = 2}, u;
        n = pkt_build_roce_esc(f, sizeof f, a, b, 0x0a600102, 0x0a600302, 0xC001, 7, 42, 1000);
        CHECK(n == PKT_ROCE_HDRS + PKT_ESC_LEN + 1000);
        CHECK(pkt_parse_esc(f, n, &pi) == PKT_OK && pi.has_esc && pi.esc_hops == 0 && pi.dest_qpn == 7 &&
              pi.psn == 42);
        pkt_esc_set_hops(f, &pi, 3);
        CHECK(pkt_parse_esc(f, n, &pi) == PKT_OK && pi.esc_hops == 3 && pi.psn == 42);
        CHECK(pkt_parse(f, n, &pi) == PKT_OK && !pi.has_esc && pi.psn != 42);   /* without it: BTH misread */
        memset(k, 0, sizeof k);
        CHECK(esc_etf_encode(&t, a, k, ESC_ETF_BYTES_NOFCS) == ESC_ETF_BYTES_NOFCS);
        CHECK(pkt_parse_etf(k, ESC_ETF_BYTES_NOFCS, src, &u) == PKT_ETF_OK && esc_fid_eq(&u.fid, &t.fid) &&
              u.hops == 2 && !memcmp(src, a, 6));
        CHECK(pkt_parse_etf(k, ESC_ETF_BYTES_NOFCS - 1, src, &u) == PKT_ETF_ELEN &&
              pkt_parse_etf(k, ESC_ETF_BYTES_NOFCS + 5, src, &u) == PKT_ETF_ELEN);
        k[29] = 0; k[30] = 0;
        CHECK(pkt_parse_etf(k, ESC_ETF_BYTES_NOFCS, src, &u) == PKT_ETF_EHOPS);
        k[30] = 2; k[40] = 1;
        CHECK(pkt_parse_etf(k, ESC_ETF_BYTES_NOFCS, src, &u) == PKT_ETF_EPAD);
        k[40] = 0; k[15] = 0x01;                               /* a PFC opcode */
        CHECK(pkt_parse_etf(k, ESC_ETF_BYTES_NOFCS, src, &u) == PKT_ETF_EOPCODE);
        k[15] = 0x02; k[0] = 0xff;
        CHECK(pkt_parse_etf(k, ESC_ETF_BYTES_NOFCS, src, &u) == PKT_ETF_EDST);
        k[0] = 0x01; k[6] = 0x01;
        CHECK(pkt_parse_etf(k, ESC_ETF_BYTES_NOFCS, src, &u) == PKT_ETF_ESRC);
        CHECK(!strcmp(pkt_etf_strerror(PKT_ETF_ENEIGH), "neigh") && !strcmp(pkt_etf_strerror(99), "unknown-reason"));
    }
    {
        /* LSCC feedback frame (rocc-switch --lscc): the frame and its checks
         * are librocc's (tests/unit/test_lscc_fb.c); here the switch's names
         * of every reason, librocc's first. */
        static const uint8_t me[6] = {2, 0x97, 0, 0, 3, 1};
        static const char *const names[PKT_LSCC_NRESULTS] = {"ok", "len", "dst", "magic", "units", "pad", "src",
                                                             "tag", "port", "neigh", "rate", "epoch", "seq"};
        for (int r = 0; r < PKT_LSCC_NRESULTS; r++) CHECK(!strcmp(pkt_lscc_strerror(r), names[r]));
        CHECK(!strcmp(pkt_lscc_strerror(99), "unknown") && !strcmp(pkt_lscc_strerror(-1), "unknown"));
        /* RoCEv2 CNP (DCQCN's, LSCC's direct CNP): 74 bytes, opcode 0x81. */
        uint8_t c[PKT_ROCE_CNP_LEN + 8];
        struct pkt_info ci;
        CHECK(pkt_build_roce_cnp(c, sizeof c, me, me, 0x0a620001, 0x0a620102, 49153, 3) == PKT_ROCE_CNP_LEN);
        CHECK(pkt_parse(c, PKT_ROCE_CNP_LEN, &ci) == PKT_OK && ci.is_roce && ci.bth_opcode == 0x81 && ci.dest_qpn == 3 &&
              ci.src_ip == 0x0a620001 && pkt_roce_cnp_ok(c, PKT_ROCE_CNP_LEN, &ci) == 0);
        CHECK(pkt_roce_cnp_ok(c, PKT_ROCE_CNP_LEN + 2, &ci) != 0);   /* trailing bytes */
        c[PKT_ROCE_CNP_LEN - 10] = 1;                                 /* a reserved byte */
        CHECK(pkt_parse(c, PKT_ROCE_CNP_LEN, &ci) == PKT_OK && pkt_roce_cnp_ok(c, PKT_ROCE_CNP_LEN, &ci) != 0);
        n = pkt_build_roce(f, sizeof f, me, me, 1, 2, 3, 4, 5, 16);
        CHECK(pkt_parse(f, n, &ci) == PKT_OK && ci.bth_opcode == 0x0a && pkt_roce_cnp_ok(f, n, &ci) != 0);
    }
    /* RCC data extension and ACK (pkt.h): round trip, every field, each
     * malformed variant refused with its reason, with and without Escape. */
    {
        struct pkt_rcc_data rd;
        struct pkt_rcc_ack ra, rb = {.type = PKT_RCC_T_WIN, .value = 37500, .n_flows = 2, .qpn = 9,
                                     .psn = 0xabcdef, .echo_ns = 0x0102030405060708ull};
        for (int esc = 0; esc <= 1; esc++) {
            int (*prs)(const uint8_t *, size_t, struct pkt_info *) = esc ? pkt_parse_esc : pkt_parse;
            size_t x = PKT_ETH_LEN + PKT_IP4_LEN + PKT_UDP_LEN + (esc ? PKT_ESC_LEN : 0) + PKT_BTH_LEN;   /* extension */
            n = pkt_build_roce_rcc(f, sizeof f, a, b, 0x0a630102, 0x0a630402, 0xC001, 9, 77, 1000, esc,
                                   0x1122334455667788ull, 1);
            CHECK(n == PKT_ROCE_HDRS + (esc ? PKT_ESC_LEN : 0) + 1000);    /* same length as without RCC */
            CHECK(prs(f, n, &pi) == PKT_OK && pi.is_roce && pi.dest_qpn == 9 && pi.psn == 77);
            CHECK(pkt_parse_rcc_data(f, &pi, &rd) == PKT_RCC_OK && rd.ts_ns == 0x1122334455667788ull && rd.last == 1);
            pkt_rcc_set_ts(f, esc, 5);
            CHECK(pkt_parse_rcc_data(f, &pi, &rd) == PKT_RCC_OK && rd.ts_ns == 5);
            CHECK(pkt_parse_rcc_ack(f, &pi, &ra) == PKT_RCC_EOPCODE);          /* data is no ACK */
            memcpy(g, f, n); g[x + 3] = 2;
            CHECK(pkt_parse_rcc_data(g, &pi, &rd) == PKT_RCC_EFLAGS);
            memcpy(g, f, n); g[x + 2] = PKT_RCC_T_WIN;
            CHECK(pkt_parse_rcc_data(g, &pi, &rd) == PKT_RCC_ETYPE);
            memcpy(g, f, n); g[x] ^= 1;
            CHECK(pkt_parse_rcc_data(g, &pi, &rd) == PKT_RCC_EMAGIC);
            memcpy(g, f, n); g[x - PKT_BTH_LEN] = RF_OP_SEND_ONLY;
            CHECK(pkt_parse_rcc_data(g, &pi, &rd) == PKT_RCC_EOPCODE);
            CHECK(pkt_build_roce_rcc(f, sizeof f, a, b, 1, 2, 3, 4, 5, PKT_RCC_DATA_LEN - 1, esc, 0, 0) == 0);
            n = pkt_build_roce_rcc(f, sizeof f, a, b, 1, 2, 3, 4, 5, PKT_RCC_DATA_LEN, esc, 9, 0);
            CHECK(n && prs(f, n, &pi) == PKT_OK && pkt_parse_rcc_data(f, &pi, &rd) == PKT_RCC_OK && rd.ts_ns == 9 && !rd.last);
            n = pkt_build_roce(f, sizeof f, a, b, 1, 2, 3, 4, 5, PKT_RCC_DATA_LEN - 1);   /* too short to hold it */
            if (!esc) CHECK(prs(f, n, &pi) == PKT_OK && pkt_parse_rcc_data(f, &pi, &rd) == PKT_RCC_ELEN);
            n = pkt_build_roce(f, sizeof f, a, b, 1, 2, 3, 4, 5, 1000);                   /* no extension: zeros */
            if (!esc) CHECK(prs(f, n, &pi) == PKT_OK && pkt_parse_rcc_data(f, &pi, &rd) == PKT_RCC_EMAGIC);

            n = pkt_build_rcc_ack(f, sizeof f, a, b, 0x0a630402, 0x0a630102, 0xC009, esc, &rb);
            CHECK(n == PKT_RCC_ACK_FRAME_LEN + (esc ? PKT_ESC_LEN : 0));
            CHECK(prs(f, n, &pi) == PKT_OK && pi.is_roce && rocc_inet_checksum(f + PKT_ETH_LEN, PKT_IP4_LEN) == 0);
            CHECK(pkt_parse_rcc_ack(f, &pi, &ra) == PKT_RCC_OK && ra.type == PKT_RCC_T_WIN && ra.value == 37500 &&
                  ra.n_flows == 2 && ra.qpn == 9 && ra.psn == 0xabcdef && ra.echo_ns == 0x0102030405060708ull);
            CHECK(pkt_parse_rcc_data(f, &pi, &rd) == PKT_RCC_EOPCODE);          /* an ACK is no data */
            x += 4;                                                            /* past the AETH */
            memcpy(g, f, n); g[x - 4] = RF_AETH_NAK_PSN_SEQ;
            CHECK(pkt_parse_rcc_ack(g, &pi, &ra) == PKT_RCC_EAETH);
            memcpy(g, f, n); g[x + 1] ^= 0x80;
            CHECK(pkt_parse_rcc_ack(g, &pi, &ra) == PKT_RCC_EMAGIC);
            memcpy(g, f, n); g[x + 2] = PKT_RCC_T_DATA;
            CHECK(pkt_parse_rcc_ack(g, &pi, &ra) == PKT_RCC_ETYPE);
            memcpy(g, f, n); g[x + 2] = 4;
            CHECK(pkt_parse_rcc_ack(g, &pi, &ra) == PKT_RCC_ETYPE);
            memcpy(g, f, n); g[x + 3] = 0x80;
            CHECK(pkt_parse_rcc_ack(g, &pi, &ra) == PKT_RCC_EFLAGS);
            memcpy(g, f, n); memset(g + x + 4, 0, 4);
            CHECK(pkt_parse_rcc_ack(g, &pi, &ra) == PKT_RCC_EVALUE);            /* window 0 */
            g[x + 2] = PKT_RCC_T_BR;
            CHECK(pkt_parse_rcc_ack(g, &pi, &ra) == PKT_RCC_OK && ra.type == PKT_RCC_T_BR && ra.value == 0);   /* B_R 0 is fine */
            {   /* one byte more in the IPv4 and UDP lengths (padding in the frame): refused */
                struct pkt_info pj;
                memcpy(g, f, n); g[n] = 0;
                g[PKT_ETH_LEN + 3]++; g[PKT_ETH_LEN + PKT_IP4_LEN + 5]++;
                g[PKT_ETH_LEN + 11]--;   /* checksum not checked by pkt_parse: no need to fix it */
                CHECK(prs(g, n + 1, &pj) == PKT_OK && pj.is_roce && pkt_parse_rcc_ack(g, &pj, &ra) == PKT_RCC_ELEN);
            }
            {   /* a non-RoCE frame */
                struct pkt_info pj;
                size_t m = pkt_build_arp(g, sizeof g, PKT_ARP_REQUEST, a, a, 1, b, 2);
                memset(&pj, 0, sizeof pj); (void)m;
                CHECK(pkt_parse_rcc_ack(g, &pj, &ra) == PKT_RCC_ENOTROCE && pkt_parse_rcc_data(g, &pj, &rd) == PKT_RCC_ENOTROCE);
            }
            CHECK(pkt_build_rcc_ack(f, PKT_RCC_ACK_FRAME_LEN - 1 + (esc ? PKT_ESC_LEN : 0), a, b, 1, 2, 3, esc, &rb) == 0);
        }
        CHECK(!strcmp(pkt_rcc_strerror(PKT_RCC_EMAGIC), "magic") && !strcmp(pkt_rcc_strerror(99), "unknown"));
    }
    return fails != 0;
}
