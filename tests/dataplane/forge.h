/*
 * tests/dataplane/forge.h -- what the raw-socket frame senders of the
 * data-plane tests share (flood.c, cnpforge.c, pfcforge.c, etfforge.c, lsccforge.c):
 * a reproducible generator and the send-only AF_PACKET socket.  Test code,
 * header-only (each sender is one .c file built without DPDK).
 */
#ifndef ROCC_TESTS_FORGE_H
#define ROCC_TESTS_FORGE_H

#include <linux/if_packet.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* xorshift64*: the same frames from the same seed on every run. */
static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(void)
{
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return (uint32_t)((rng * 0x2545F4914F6CDD1Dull) >> 32);
}
/* The generator's state from a SEED argument (any seed gives a nonzero state). */
static inline void forge_seed(unsigned long long seed) { rng = seed * 2654435761u + 88172645463325252ull; }

/* A send-only raw socket on ifname (protocol 0: it receives nothing) and the
 * address frames go to (dmac).  Returns the socket, or -1 after perror. */
static inline int forge_open(const char *ifname, const uint8_t dmac[6], struct sockaddr_ll *sa)
{
    int fd = socket(AF_PACKET, SOCK_RAW, 0);
    if (fd < 0) { perror("socket(AF_PACKET)"); return -1; }
    memset(sa, 0, sizeof *sa);
    sa->sll_family = AF_PACKET;
    sa->sll_ifindex = (int)if_nametoindex(ifname);
    sa->sll_halen = 6;
    memcpy(sa->sll_addr, dmac, 6);
    if (!sa->sll_ifindex) { perror(ifname); close(fd); return -1; }
    return fd;
}

#endif
