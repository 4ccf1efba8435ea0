/* test_pkt.c -- the data plane's frame parser/builders without DPDK:
 * round trips, and the hardened parser on hostile frames (truncated,
 * non-IPv4, bad IHL / tot_len).  Built and run by `make -C dataplane test`. */
#include <stdio.h>
#include <string.h>

#include "pkt.h"

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
    }
    printf("%s pkt: %d failures\n", fails ? "FAIL" : "PASS", fails);
    return fails != 0;
}
