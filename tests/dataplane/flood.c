/*
 * flood.c -- hostile-frame sender for the data-plane robustness test
 * (issue 5, tests/dataplane/rocc_flood.sh).  Needs root (AF_PACKET raw
 * socket); no DPDK.  Built by `make -C dataplane` as build/dp/flood.
 *
 *   flood IFACE DST_MAC N_EACH GAP_US SEED CNP_DST_IP CNP_QPN ALLOWED_CP_IP FORGED_CP_IP
 *
 * Sends N_EACH frames of each class below, interleaved in a random order
 * (SEED), one every GAP_US microseconds (af_packet RX rings overflow
 * silently under bursts, so the test paces), and prints what it sent:
 *
 *   notip   random bytes, 16..200 B, ethertype != 0x0800   -> not_ipv4
 *   trunc   ethertype 0x0800 cut inside the IPv4 header (14..33 B), or a
 *           valid-looking IPv4 header whose tot_len runs past the frame   -> truncated
 *   badhdr  34..200 B, IPv4 version != 4 or IHL < 5 or tot_len < IHL*4     -> bad_ip_hdr
 *   forged  a well-formed CNP (good IP and ICMP checksums) from FORGED_CP_IP,
 *           outside the host's --cp-allow                                   -> host denied
 *   badcsum a CNP from ALLOWED_CP_IP whose ICMP checksum is wrong           -> host bad
 *   badarp  ethertype 0x0806 but malformed: cut short (14..41 B), htype != 1,
 *           ptype != IPv4, hlen/plen wrong, op not 1/2, or a multicast or
 *           zero sender MAC                                                -> arp bad
 *   toself  a well-formed CNP addressed to ALLOWED_CP_IP (the switch's own
 *           address)                          -> switch self_cnp, host not_mine
 *
 * CNPs quote the flow (src = the victim host CNP_DST_IP, QPN CNP_QPN) so
 * that only the trust/checksum checks stand between them and the RP.
 */
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "forge.h"
#include "pkt.h"

enum { C_NOTIP, C_TRUNC, C_BADHDR, C_FORGED, C_BADCSUM, C_BADARP, C_TOSELF, C_N };
static const char *const cname[C_N] = {"notip", "trunc", "badhdr", "forged", "badcsum", "badarp", "toself"};

static uint32_t rnd_in(uint32_t lo, uint32_t hi) { return lo + rnd() % (hi - lo + 1); }
static void rnd_bytes(uint8_t *p, size_t n) { for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rnd(); }

static size_t build(int cls, uint8_t *f, const uint8_t dmac[6], const uint8_t smac[6],
                    uint32_t victim, uint32_t qpn, uint32_t allowed, uint32_t forged)
{
    size_t len;
    uint8_t *ip = f + PKT_ETH_LEN;

    switch (cls) {
    case C_NOTIP: {
        uint16_t et;
        len = rnd_in(16, 200);
        rnd_bytes(f, len);
        /* not IPv4, and not a VLAN tag: the kernel untags those before taps
         * see them and frees the ones too short to untag */
        do et = (uint16_t)rnd();
        while (et == 0x0800 || et == 0x0806 || et == 0x8100 || et == 0x88a8 || et == 0x9100 || et == 0x9200);
        f[12] = (uint8_t)(et >> 8); f[13] = (uint8_t)et;
        break;
    }
    case C_TRUNC:
        if (rnd() & 1) {                 /* cut inside the IPv4 header */
            len = rnd_in(14, 33);
            rnd_bytes(f, len);
            if (len > PKT_ETH_LEN) ip[0] = 0x45;
        } else {                         /* header fine, tot_len beyond the frame */
            len = rnd_in(34, 200);
            rnd_bytes(f, len);
            uint16_t tot = (uint16_t)(len - PKT_ETH_LEN + 1 + rnd() % 1000);
            ip[0] = 0x45;
            ip[2] = (uint8_t)(tot >> 8); ip[3] = (uint8_t)tot;
        }
        break;
    case C_BADHDR:
        len = rnd_in(34, 200);
        rnd_bytes(f, len);
        switch (rnd() % 3) {
        case 0: do ip[0] = (uint8_t)rnd(); while ((ip[0] >> 4) == 4); break;   /* version */
        case 1: ip[0] = (uint8_t)(0x40 | rnd_in(0, 4)); break;                 /* IHL < 5 */
        default:                                                               /* tot_len < 20 */
            ip[0] = 0x45; ip[2] = 0; ip[3] = (uint8_t)rnd_in(0, 19); break;
        }
        break;
    case C_BADARP: {
        static const uint8_t bc[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
        uint8_t *a = f + PKT_ETH_LEN;
        len = pkt_build_arp(f, 256, PKT_ARP_REQUEST, bc, smac, allowed, bc, victim);
        switch (rnd() % 7) {
        case 0: len = rnd_in(14, 41); break;                                     /* cut short */
        case 1: a[1] = (uint8_t)rnd_in(2, 255); break;                           /* htype */
        case 2: a[2] = 0x86; a[3] = 0xdd; break;                                 /* ptype IPv6 */
        case 3: a[4] = (uint8_t)rnd_in(7, 255); break;                           /* hlen */
        case 4: a[5] = (uint8_t)rnd_in(5, 255); break;                           /* plen */
        case 5: a[7] = (uint8_t)rnd_in(3, 255); break;                           /* op */
        default: if (rnd() & 1) a[8] |= 1; else memset(a + 8, 0, 6); break;      /* sender MAC */
        }
        f[12] = 0x08; f[13] = 0x06;
        break;
    }
    case C_TOSELF: {
        struct rocc_cnp c = {.rate_units = 5, .cp_id = 0x999, .src_ip = victim, .dst_ip = 0,
                             .sport = 0xC000, .dport = ROCC_ROCEV2_UDP_PORT, .dest_qpn = qpn, .psn = 1};
        len = pkt_build_cnp(f, 256, smac, dmac, victim, allowed, &c);
        break;
    }
    default: {                           /* CNPs */
        struct rocc_cnp c = {.rate_units = rnd_in(1, 20), .cp_id = 0x999, .src_ip = victim,
                             .dst_ip = 0, .sport = 0xC000, .dport = ROCC_ROCEV2_UDP_PORT,
                             .dest_qpn = qpn, .psn = rnd() & 0xffffff};
        len = pkt_build_cnp(f, 256, smac, dmac, cls == C_FORGED ? forged : allowed, victim, &c);
        if (cls == C_BADCSUM) f[PKT_ETH_LEN + PKT_IP4_LEN + 2] ^= (uint8_t)rnd_in(1, 255);
        break;
    }
    }
    if (cls == C_TRUNC || cls == C_BADHDR) { f[12] = 0x08; f[13] = 0x00; }   /* IPv4 */
    /* Our own MACs on every frame, so nothing looks like a broadcast storm. */
    memcpy(f, dmac, 6);
    memcpy(f + 6, smac, 6);
    return len;
}

int main(int argc, char **argv)
{
    uint8_t dmac[6], smac[6] = {0x02, 0x66, 0, 0, 0, 1}, f[256];
    uint32_t victim, allowed, forged, qpn;
    unsigned long n_each, gap_us;
    struct sockaddr_ll sa;
    unsigned sent[C_N] = {0}, left[C_N], total, fails = 0;
    int fd;

    if (argc != 10 || pkt_parse_mac(argv[2], dmac) || pkt_parse_ip(argv[6], &victim) ||
        pkt_parse_ip(argv[8], &allowed) || pkt_parse_ip(argv[9], &forged)) {
        fprintf(stderr, "usage: %s IFACE DST_MAC N_EACH GAP_US SEED CNP_DST_IP CNP_QPN ALLOWED_CP_IP FORGED_CP_IP\n",
                argv[0]);
        return 2;
    }
    n_each = strtoul(argv[3], NULL, 10);
    gap_us = strtoul(argv[4], NULL, 10);
    forge_seed(strtoull(argv[5], NULL, 10));
    qpn = (uint32_t)strtoul(argv[7], NULL, 10);

    fd = forge_open(argv[1], dmac, &sa);   /* send only */
    if (fd < 0) return 1;

    for (int c = 0; c < C_N; c++) left[c] = (unsigned)n_each;
    total = (unsigned)n_each * C_N;
    for (unsigned k = 0; k < total; k++) {
        unsigned pick = rnd() % (total - k), c = 0;
        struct timespec ts = {0, (long)gap_us * 1000};
        size_t len;
        while (pick >= left[c]) pick -= left[c++];
        left[c]--;
        len = build((int)c, f, dmac, smac, victim, qpn, allowed, forged);
        if (sendto(fd, f, len, 0, (struct sockaddr *)&sa, sizeof sa) != (ssize_t)len) {
            fails++;
            continue;
        }
        sent[c]++;
        if (gap_us) nanosleep(&ts, NULL);
    }
    close(fd);
    printf("flood sent");
    for (int c = 0; c < C_N; c++) printf(" %s=%u", cname[c], sent[c]);
    printf(" send_errors=%u\n", fails);
    return fails ? 1 : 0;
}
