/*
 * tests/dataplane/lsccforge.c -- send forged, replayed and malformed LSCC
 * feedback frames (src/cc/lscc_fb.h) out of an interface, for
 * tests/dataplane/rocc_lscc.sh and rocc_lsccauth.sh.
 *
 *   lsccforge IFACE NEIGHBOUR_MAC [--key HEX32] [--frame HEX120] KIND...
 *   lsccforge IFACE NEIGHBOUR_MAC capture
 *
 * Made-up frames (epoch 1 unless said; tagged under --key when given, the
 * attacker's key, else untagged):
 *   neigh   well-formed, from a MAC that is not the neighbour, seq 2^30
 *   rate    from NEIGHBOUR_MAC, units 2^24 - 1 (above any Rmax the tests use)
 *   magic   version 1 (the format before the epoch)
 *   pad     a nonzero padding byte
 *   len     64 bytes
 *   valid   well-formed, from NEIGHBOUR_MAC, seq 2^30
 *   ahead   from NEIGHBOUR_MAC, R = 1 unit (below any Rmin), epoch 2^62,
 *           seq 2^31: a pair far ahead of any genuine one
 * From a genuine frame (--frame, as `capture` printed it):
 *   seq     that frame again, unchanged, 20 ms after the start (a replay)
 *   tamper  that frame with R = 1 unit and seq + 1, its tag (if any) kept
 * `capture` prints the first valid feedback frame from NEIGHBOUR_MAC that
 * arrives on IFACE as 120 hex digits and sends nothing: run it at the
 * receiving end of the link (a DPDK af_packet port's own transmissions are
 * not seen by other sockets on its interface), the kinds at the sending end.
 * Every frame goes to 01:80:C2:00:00:0E.  Exit 0 if every frame was sent (or
 * one captured within 2 s), 1 otherwise, 2 on bad arguments.
 */
#include "forge.h"
#include "pkt.h"

#include <arpa/inet.h>
#include <sys/time.h>
#include <time.h>

/* The first valid feedback frame from nb on ifname, into f; 0 or -1. */
static int capture(const char *ifname, const uint8_t nb[6], uint8_t f[PKT_LSCC_FB_LEN])
{
    struct sockaddr_ll sa;
    struct timeval tv = {.tv_sec = 2};
    struct lscc_fb fb;
    uint8_t b[2048];
    int fd = socket(AF_PACKET, SOCK_RAW, htons(PKT_ETHERTYPE_LSCC));

    if (fd < 0) { perror("socket(AF_PACKET)"); return -1; }
    memset(&sa, 0, sizeof sa);
    sa.sll_family = AF_PACKET;
    sa.sll_protocol = htons(PKT_ETHERTYPE_LSCC);
    sa.sll_ifindex = (int)if_nametoindex(ifname);
    if (!sa.sll_ifindex || bind(fd, (struct sockaddr *)&sa, sizeof sa) ||
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv)) {
        perror(ifname);
        close(fd);
        return -1;
    }
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        ssize_t n = recv(fd, b, sizeof b, 0);
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (n < 0 || t.tv_sec - t0.tv_sec > 2) {
            fprintf(stderr, "lsccforge: no feedback frame from the neighbour on %s\n", ifname);
            break;
        }
        if (lscc_fb_parse(NULL, b, (size_t)n, &fb) == LSCC_FB_OK && !memcmp(fb.src, nb, 6)) {
            memcpy(f, b, PKT_LSCC_FB_LEN);
            close(fd);
            return 0;
        }
    }
    close(fd);
    return -1;
}

static void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

static int hexbytes(const char *h, uint8_t *out, size_t n)
{
    if (strlen(h) != 2 * n) return -1;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(h + 2 * i, "%2x", &v) != 1) return -1;
        out[i] = (uint8_t)v;
    }
    return 0;
}

int main(int argc, char **argv)
{
    uint8_t nb[6], other[6] = {2, 0x97, 0, 0, 9, 9}, f[PKT_LSCC_FB_LEN + 4], key[LSCC_FB_KEY_BYTES];
    uint8_t genuine[PKT_LSCC_FB_LEN];
    const uint8_t *kp = NULL;
    struct sockaddr_ll sa;
    int fd, rc = 0, first = 3, have_genuine = 0;

    (void)rnd;   /* forge.h's generator: these frames are fixed */

    if (argc < 4 || pkt_parse_mac(argv[2], nb)) goto usage;
    if (argc == 4 && !strcmp(argv[3], "capture")) {
        if (capture(argv[1], nb, genuine)) return 1;
        for (int i = 0; i < PKT_LSCC_FB_LEN; i++) printf("%02x", genuine[i]);
        printf("\n");
        return 0;
    }
    while (first + 1 < argc && argv[first][0] == '-') {
        if (!strcmp(argv[first], "--key") && !rocc_cnp_parse_key(argv[first + 1], key)) kp = key;
        else if (!strcmp(argv[first], "--frame") && !hexbytes(argv[first + 1], genuine, sizeof genuine)) have_genuine = 1;
        else goto usage;
        first += 2;
    }
    if (argc <= first) goto usage;
    fd = forge_open(argv[1], lscc_fb_dst, &sa);
    if (fd < 0) return 1;
    for (int i = first; i < argc; i++) {
        const char *k = argv[i];
        struct lscc_fb fb = {.units = 10000, .seq = 1u << 30, .epoch = 1};
        size_t n = PKT_LSCC_FB_LEN;
        memcpy(fb.src, nb, 6);
        memset(f, 0, sizeof f);
        if (!strcmp(k, "neigh")) { memcpy(fb.src, other, 6); lscc_fb_encode(&fb, kp, f, sizeof f); }
        else if (!strcmp(k, "rate")) { fb.units = (1u << 24) - 1; lscc_fb_encode(&fb, kp, f, sizeof f); }
        else if (!strcmp(k, "magic")) { lscc_fb_encode(&fb, kp, f, sizeof f); f[16] = 1; }
        else if (!strcmp(k, "pad")) { lscc_fb_encode(&fb, kp, f, sizeof f); f[59] = 1; }
        else if (!strcmp(k, "len")) { lscc_fb_encode(&fb, kp, f, sizeof f); n += 4; }
        else if (!strcmp(k, "valid")) lscc_fb_encode(&fb, kp, f, sizeof f);
        else if (!strcmp(k, "ahead")) {
            fb.units = 1;
            fb.epoch = 1ull << 62;
            fb.seq = 1u << 31;
            lscc_fb_encode(&fb, kp, f, sizeof f);
        } else if (!strcmp(k, "seq") || !strcmp(k, "tamper")) {
            if (!have_genuine) { fprintf(stderr, "%s needs --frame\n", k); close(fd); return 2; }
            memcpy(f, genuine, sizeof genuine);
            if (!strcmp(k, "seq")) {
                struct timespec d = {.tv_nsec = 20000000};
                nanosleep(&d, NULL);     /* the genuine frame has been accepted by now */
            } else {
                uint32_t seq = (uint32_t)f[24] << 24 | (uint32_t)f[25] << 16 | (uint32_t)f[26] << 8 | f[27];
                wr32(f + 20, 1);
                wr32(f + 24, seq + 1);
            }
        } else { fprintf(stderr, "unknown kind '%s'\n", k); close(fd); return 2; }
        if (sendto(fd, f, n, 0, (struct sockaddr *)&sa, sizeof sa) != (ssize_t)n) { perror("sendto"); rc = 1; }
    }
    close(fd);
    return rc;
usage:
    fprintf(stderr, "usage: %s IFACE NEIGHBOUR_MAC [--key HEX32] [--frame HEX120] "
            "neigh|rate|seq|magic|pad|len|valid|ahead|tamper...\n"
            "       %s IFACE NEIGHBOUR_MAC capture\n", argv[0], argv[0]);
    return 2;
}
