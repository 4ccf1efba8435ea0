/*
 * tests/dataplane/lsccforge.c -- send forged and malformed LSCC feedback
 * frames (pkt.h "LSCC") out of an interface, for tests/dataplane/rocc_lscc.sh.
 *
 *   lsccforge IFACE NEIGHBOUR_MAC KIND...
 *
 * KIND: neigh (well-formed, from a MAC that is not the neighbour), rate
 * (from NEIGHBOUR_MAC, units 2^24 - 1: above any Rmax the test uses), seq
 * (from NEIGHBOUR_MAC, sequence number 1: a replay), magic (version 2),
 * pad (a nonzero padding byte), len (64 bytes), valid (well-formed, from
 * NEIGHBOUR_MAC, sequence 2^30).  Every frame goes to 01:80:C2:00:00:0E.
 * Exit 0 if every frame was sent, 1 otherwise (2: bad arguments).
 */
#include "forge.h"
#include "pkt.h"

int main(int argc, char **argv)
{
    uint8_t nb[6], other[6] = {2, 0x97, 0, 0, 9, 9}, f[PKT_LSCC_FB_LEN + 4];
    struct sockaddr_ll sa;
    int fd, rc = 0;

    (void)rnd;   /* forge.h's generator: these frames are fixed */

    if (argc < 4 || pkt_parse_mac(argv[2], nb)) {
        fprintf(stderr, "usage: %s IFACE NEIGHBOUR_MAC neigh|rate|seq|magic|pad|len|valid...\n", argv[0]);
        return 2;
    }
    fd = forge_open(argv[1], pkt_lscc_dst, &sa);
    if (fd < 0) return 1;
    for (int i = 3; i < argc; i++) {
        const char *k = argv[i];
        size_t n = PKT_LSCC_FB_LEN;
        memset(f, 0, sizeof f);
        if (!strcmp(k, "neigh")) pkt_build_lscc_fb(f, sizeof f, other, 10000, 1u << 30);
        else if (!strcmp(k, "rate")) pkt_build_lscc_fb(f, sizeof f, nb, (1u << 24) - 1, 1u << 30);
        else if (!strcmp(k, "seq")) pkt_build_lscc_fb(f, sizeof f, nb, 10000, 1);
        else if (!strcmp(k, "magic")) { pkt_build_lscc_fb(f, sizeof f, nb, 10000, 1u << 30); f[16] = 2; }
        else if (!strcmp(k, "pad")) { pkt_build_lscc_fb(f, sizeof f, nb, 10000, 1u << 30); f[59] = 1; }
        else if (!strcmp(k, "len")) { pkt_build_lscc_fb(f, sizeof f, nb, 10000, 1u << 30); n += 4; }
        else if (!strcmp(k, "valid")) pkt_build_lscc_fb(f, sizeof f, nb, 10000, 1u << 30);
        else { fprintf(stderr, "unknown kind '%s'\n", k); close(fd); return 2; }
        if (sendto(fd, f, n, 0, (struct sockaddr *)&sa, sizeof sa) != (ssize_t)n) { perror("sendto"); rc = 1; }
    }
    close(fd);
    return rc;
}
