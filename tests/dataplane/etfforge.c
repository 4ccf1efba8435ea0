/*
 * etfforge.c -- forged and malformed Escape token frames (ETF, MAC control
 * opcode 0x0102, src/cc/escape.h) and data frames with a forged Escape
 * header, for tests/dataplane/rocc_escforge.sh.  Needs root (AF_PACKET raw
 * socket); no DPDK.  Built by `make -C dataplane` as build/dp/etfforge.
 *
 *   etfforge IFACE N_EACH GAP_US SEED SRC_MAC DST_MAC FLOW KINDS
 *
 *   SRC_MAC  the source MAC every frame claims (e.g. the receiver's real
 *            neighbour, for a replay)
 *   DST_MAC  destination of the data frames (ETFs go to 01:80:C2:00:00:01)
 *   FLOW     SRC_IP,DST_IP,SPORT,HOPS: the 5-tuple (UDP 4791) a token names
 *            and the hops it carries; data frames use it too
 *   KINDS    comma-separated, N_EACH frames of each, in a random order
 *            (SEED), one every GAP_US microseconds:
 *     len      an ETF cut to 31..59 bytes or padded to 65..128   -> len
 *     hops0    hops 0                                            -> hops
 *     hopsbig  hops 3..65535 (tests run with --esc-max-hops 2)   -> bad
 *     pad      a nonzero byte in the padding                     -> pad
 *     src      multicast or all-zero source MAC                  -> src
 *     unknown  a 5-tuple no flow has (FLOW's ports changed)      -> unknown
 *     valid    FLOW exactly: a genuine-looking token.  The reason
 *              it is refused depends on where it is sent: a port
 *              facing a host -> port, a source that is not the
 *              neighbour -> neigh, the neighbour's MAC on a link
 *              that is not paused (a replay) -> not_paused
 *     data     a RoCEv2 data frame of FLOW (1000-byte payload, PSN =
 *              its index) whose Escape header says HOPS: from a host
 *              the switch must reset it (hdr_reset_from_host)
 * Prints what it sent, by kind.
 */
#include <arpa/inet.h>
#include <linux/if_packet.h>
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

enum { K_LEN, K_HOPS0, K_HOPSBIG, K_PAD, K_SRC, K_UNKNOWN, K_VALID, K_DATA, K_N };
static const char *const kname[K_N] = {"len", "hops0", "hopsbig", "pad", "src", "unknown", "valid", "data"};


static int parse_mac(const char *s, uint8_t m[6])
{
    unsigned v[6];
    if (sscanf(s, "%x:%x:%x:%x:%x:%x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6) return -1;
    for (int i = 0; i < 6; i++) m[i] = (uint8_t)v[i];
    return 0;
}

static uint8_t src_mac[6], dst_mac[6];
static struct esc_token flow;
static uint32_t n_data;

static size_t build(int k, uint8_t *f, size_t cap)
{
    struct esc_token t = flow;
    size_t len;

    if (k == K_DATA) {
        len = pkt_build_roce_esc(f, cap, src_mac, dst_mac, flow.fid.src_ip, flow.fid.dst_ip, flow.fid.src_port, 77,
                                 n_data++, 1000);
        f[PKT_ETH_LEN + 20 + PKT_UDP_LEN] = (uint8_t)(flow.hops >> 8);   /* the Escape header after UDP */
        f[PKT_ETH_LEN + 20 + PKT_UDP_LEN + 1] = (uint8_t)flow.hops;
        return len;
    }
    if (k == K_HOPS0) t.hops = 0;
    if (k == K_HOPSBIG) t.hops = (uint16_t)(3 + rnd() % 65533);
    if (k == K_UNKNOWN) { t.fid.src_port ^= 0x2a5a; t.fid.dst_port = (uint16_t)(4792 + rnd() % 1000); }
    len = esc_etf_encode(&t, src_mac, f, cap);
    if (k == K_HOPS0) { f[29] = 0; f[30] = 0; }
    switch (k) {
    case K_LEN:
        if (rnd() & 1) return ESC_ETF_PAYLOAD_END + rnd() % (ESC_ETF_BYTES_NOFCS - ESC_ETF_PAYLOAD_END);
        len = ESC_ETF_BYTES_NOFCS + 5 + rnd() % 64;
        memset(f + ESC_ETF_BYTES_NOFCS, 0, len - ESC_ETF_BYTES_NOFCS);
        return len;
    case K_PAD: f[ESC_ETF_PAYLOAD_END + rnd() % (ESC_ETF_BYTES_NOFCS - ESC_ETF_PAYLOAD_END)] = (uint8_t)(1 + rnd() % 255); return len;
    case K_SRC: if (rnd() & 1) f[6] |= 1; else memset(f + 6, 0, 6); return len;
    default: return len;
    }
}

int main(int argc, char **argv)
{
    uint8_t f[2048];
    unsigned long n_each, gap_us;
    struct sockaddr_ll sa;
    unsigned sent[K_N] = {0}, left[K_N] = {0}, total = 0, fails = 0;
    char ip1[32], ip2[32], *kinds, *tok;
    unsigned sport, hops;
    int fd;

    if (argc != 9) {
        fprintf(stderr, "usage: %s IFACE N_EACH GAP_US SEED SRC_MAC DST_MAC SRC_IP,DST_IP,SPORT,HOPS KINDS\n", argv[0]);
        return 2;
    }
    n_each = strtoul(argv[2], NULL, 10);
    gap_us = strtoul(argv[3], NULL, 10);
    forge_seed(strtoull(argv[4], NULL, 10));
    if (parse_mac(argv[5], src_mac) || parse_mac(argv[6], dst_mac)) { fprintf(stderr, "bad MAC\n"); return 2; }
    if (sscanf(argv[7], "%31[0-9.],%31[0-9.],%u,%u", ip1, ip2, &sport, &hops) != 4 ||
        inet_pton(AF_INET, ip1, &flow.fid.src_ip) != 1 || inet_pton(AF_INET, ip2, &flow.fid.dst_ip) != 1 ||
        sport > 65535 || hops > 65535) {
        fprintf(stderr, "bad FLOW %s\n", argv[7]);
        return 2;
    }
    flow.fid.src_ip = ntohl(flow.fid.src_ip);
    flow.fid.dst_ip = ntohl(flow.fid.dst_ip);
    flow.fid.src_port = (uint16_t)sport;
    flow.fid.dst_port = 4791;                /* RoCEv2 */
    flow.fid.proto = 17;
    flow.hops = (uint16_t)hops;
    kinds = argv[8];
    for (tok = strtok(kinds, ","); tok; tok = strtok(NULL, ",")) {
        int k = 0;
        while (k < K_N && strcmp(tok, kname[k])) k++;
        if (k == K_N) { fprintf(stderr, "unknown kind %s\n", tok); return 2; }
        left[k] = (unsigned)n_each;
    }
    for (int k = 0; k < K_N; k++) total += left[k];
    fd = forge_open(argv[1], pkt_pfc_dst, &sa);   /* send only */
    if (fd < 0) return 1;
    for (unsigned i = 0; i < total; i++) {
        unsigned pick = rnd() % (total - i), k = 0;
        struct timespec ts = {0, (long)gap_us * 1000};
        size_t len;
        while (pick >= left[k]) pick -= left[k++];
        left[k]--;
        len = build((int)k, f, sizeof f);
        if (!len || sendto(fd, f, len, 0, (struct sockaddr *)&sa, sizeof sa) != (ssize_t)len) { fails++; continue; }
        sent[k]++;
        if (gap_us) nanosleep(&ts, NULL);
    }
    close(fd);
    printf("etfforge sent");
    for (int k = 0; k < K_N; k++) printf(" %s=%u", kname[k], sent[k]);
    printf(" send_errors=%u\n", fails);
    return fails ? 1 : 0;
}
