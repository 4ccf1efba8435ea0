/*
 * pfcforge.c -- malformed and forged 802.1Qbb PFC frames for
 * tests/dataplane/rocc_pfc.sh.  Needs root (AF_PACKET raw socket); no DPDK.
 * Built by `make -C dataplane` as build/dp/pfcforge.
 *
 *   pfcforge IFACE N_EACH GAP_US SEED
 *
 * Sends N_EACH frames of each kind below, in a random order (SEED), one
 * every GAP_US microseconds, each an XOFF of class 0 for 65535 quanta
 * (the longest pause) but for the one flaw named, and prints what it sent.
 * The receiver must count each kind under the reason given and pause
 * nothing:
 *
 *   len       59 bytes, or 61..128 bytes                      -> len
 *   dst       destination not 01:80:C2:00:00:01 (another address of the
 *             reserved block, the port's unicast MAC, broadcast) -> dst
 *   opcode    802.3x PAUSE (0x0001) or another opcode          -> opcode
 *   reserved  high octet of the class-enable vector not zero   -> reserved
 *   empty     no class enabled                                 -> empty
 *   src       multicast or all-zero source MAC                 -> src
 *   neigh     well-formed, from a unicast MAC that is not the
 *             receiver's neighbour                            -> not_neighbour
 */
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

enum { K_LEN, K_DST, K_OPCODE, K_RESERVED, K_EMPTY, K_SRC, K_NEIGH, K_N };
static const char *const kname[K_N] = {"len", "dst", "opcode", "reserved", "empty", "src", "not_neighbour"};


static size_t build(int k, uint8_t *f)
{
    static const uint16_t q[8] = {0xffff, 0, 0, 0, 0, 0, 0, 0};
    uint8_t src[6] = {0x02, 0x66, 0x66, 0, 0, 1};   /* nobody's neighbour */
    size_t len = pkt_build_pfc(f, 256, src, 0x01, q);

    switch (k) {
    case K_LEN:
        if (rnd() & 1) return len - 1;
        len += 1 + rnd() % 68;
        memset(f + PKT_PFC_FRAME_LEN, 0, len - PKT_PFC_FRAME_LEN);
        return len;
    case K_DST:
        switch (rnd() % 3) {
        case 0: f[5] = (uint8_t)(2 + rnd() % 14); break;           /* 01:80:C2:00:00:02..0F */
        case 1: memcpy(f, src, 6); f[5] = 9; break;                  /* a unicast MAC */
        default: memset(f, 0xff, 6); break;                          /* broadcast */
        }
        return len;
    case K_OPCODE:
        if (rnd() & 1) { f[14] = 0; f[15] = 1; }                     /* 802.3x PAUSE */
        else { uint16_t op; do op = (uint16_t)rnd(); while (op == PKT_MACCTL_PFC); f[14] = (uint8_t)(op >> 8); f[15] = (uint8_t)op; }
        return len;
    case K_RESERVED: f[16] = (uint8_t)(1 + rnd() % 255); return len;
    case K_EMPTY: f[17] = 0; return len;
    case K_SRC: if (rnd() & 1) f[6] |= 1; else memset(f + 6, 0, 6); return len;
    default: return len;                                             /* K_NEIGH */
    }
}

int main(int argc, char **argv)
{
    uint8_t f[256];
    unsigned long n_each, gap_us;
    struct sockaddr_ll sa;
    unsigned sent[K_N] = {0}, left[K_N], total, fails = 0;
    int fd;

    if (argc != 5) {
        fprintf(stderr, "usage: %s IFACE N_EACH GAP_US SEED\n", argv[0]);
        return 2;
    }
    n_each = strtoul(argv[2], NULL, 10);
    gap_us = strtoul(argv[3], NULL, 10);
    forge_seed(strtoull(argv[4], NULL, 10));
    fd = forge_open(argv[1], pkt_pfc_dst, &sa);   /* send only */
    if (fd < 0) return 1;
    for (int k = 0; k < K_N; k++) left[k] = (unsigned)n_each;
    total = (unsigned)n_each * K_N;
    for (unsigned i = 0; i < total; i++) {
        unsigned pick = rnd() % (total - i), k = 0;
        struct timespec ts = {0, (long)gap_us * 1000};
        size_t len;
        while (pick >= left[k]) pick -= left[k++];
        left[k]--;
        len = build((int)k, f);
        if (sendto(fd, f, len, 0, (struct sockaddr *)&sa, sizeof sa) != (ssize_t)len) { fails++; continue; }
        sent[k]++;
        if (gap_us) nanosleep(&ts, NULL);
    }
    close(fd);
    printf("pfcforge sent");
    for (int k = 0; k < K_N; k++) printf(" %s=%u", kname[k], sent[k]);
    printf(" send_errors=%u\n", fails);
    return fails ? 1 : 0;
}
