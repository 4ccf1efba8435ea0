/* fuzz_pkt.c -- the data plane's frame parsers (dataplane/pkt.c), the trust
 * boundary of rocc-switch and rocc-host: any bytes as a frame through
 * pkt_parse, and what the programs do next with a frame it accepts
 * (rocc_cnp_decode on an ICMP payload, TTL decrement and ECN marking in
 * place, which must keep a valid IPv4 header checksum valid); pkt_parse_arp;
 * and the input as text through the address parsers of the command lines
 * (pkt_parse_ip, pkt_parse_prefix, pkt_parse_mac).  No DPDK needed. */
#include "pkt.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct pkt_info pi;
    struct pkt_arp arp;
    struct rocc_cnp cnp;
    (void)pkt_ethertype(data, size);
    (void)pkt_parse_arp(data, size, &arp);
    if (pkt_parse(data, size, &pi) == PKT_OK) {
        if ((size_t)pi.l3_off + PKT_IP4_LEN > size || pi.l4_off > size || pi.l4_off + (size_t)pi.l4_len > size) abort();
        if (pi.proto == 1) (void)rocc_cnp_decode(data + pi.l4_off, pi.l4_len, &cnp);
        uint8_t *f = malloc(size);
        if (f) {
            memcpy(f, data, size);
            int csum_ok = rocc_inet_checksum(f + pi.l3_off, (size_t)(pi.l4_off - pi.l3_off)) == 0;
            int ecn = pkt_ip4_ecn(f, &pi);
            if (ecn < 0 || ecn > 3) abort();
            pkt_ip4_set_ecn(f, &pi, PKT_ECN_CE);
            (void)pkt_ip4_dec_ttl(f, &pi);
            if (csum_ok && rocc_inet_checksum(f + pi.l3_off, (size_t)(pi.l4_off - pi.l3_off)) != 0) abort();
            free(f);
        }
    }
    char *s = fuzz_str(data, size), buf[32];
    if (s) {
        uint32_t ip, net, mask;
        uint8_t mac[6];
        if (pkt_parse_ip(s, &ip) == 0) pkt_ip_str(ip, buf, sizeof buf);
        (void)pkt_parse_prefix(s, &net, &mask);
        (void)pkt_parse_mac(s, mac);
        free(s);
    }
    return 0;
}
