/*
 * cnpforge.c -- forged-CNP and junk ICMP-253 sender for the attack test
 * (issue 11 part 5, tests/dataplane/rocc_cnpattack.sh).  Needs root
 * (AF_PACKET raw socket); no DPDK.  Built by `make -C dataplane` as
 * build/dp/cnpforge.
 *
 *   cnpforge IFACE DST_MAC cnp  MBPS SECONDS SRC_IP DST_IP FLOW_SRC FLOW_DST QPN CP_ID RATE_UNITS
 *   cnpforge IFACE DST_MAC junk MBPS SECONDS SRC_IP DST_IP
 *   cnpforge IFACE DST_MAC hfull|hreg MBPS SECONDS SRC_IP DST_IP FLOW_SRC FLOW_DST QPN CP_ID F QCUR
 *
 * cnp:  well-formed CNPs (good IPv4 and ICMP checksums, exact length) from
 *       SRC_IP to DST_IP, quoting the flow FLOW_SRC -> FLOW_DST with dest
 *       QP QPN, claiming CP id CP_ID (decimal or 0x hex) and fair rate
 *       RATE_UNITS: what a host would send to throttle another's flow.
 * hfull, hreg: the host forms of RoCC §3.6 (tests/dataplane/rocc_hostrate.sh):
 *       Alg. 1's inputs F (before the update), Qcur = QCUR, Qold = 0 (ΔQ
 *       units); hfull adds the forger's parameters Qref/Qmid/Qmax = 1/2/3,
 *       Fmin = 1, Fmax = F, α̃ = β̃ = 1.0, chosen so that a host computing
 *       from them (Qcur >= Qmax, F > Fmax/8) sets the flow to Fmin = 1 ΔF;
 *       hreg leaves the parameters to the host's registry.
 * junk: IPv4 frames of 1000..1400 bytes, protocol ICMP type 253, random
 *       code, checksum and body: the "any type-253 frame" flood.
 *
 * Frames leave at MBPS (wire bits: frame + 24 B, as the data plane counts)
 * for SECONDS, paced in small bursts (at most 32 frames per wake-up, so an
 * af_packet ring is not overrun by a catch-up burst).  Prints
 *   cnpforge kind=K sent=N wire_mbps=X seconds=S send_errors=E
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

#define JUNK_MIN 1000
#define JUNK_MAX 1400
#define BURST_MAX 32


static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }

/* A junk ICMP-253 frame: correct IPv4 header (so a switch parses and routes
 * it), everything after the ICMP type random. */
static size_t build_junk(uint8_t *f, const uint8_t dmac[6], const uint8_t smac[6], uint32_t src, uint32_t dst)
{
    size_t len = JUNK_MIN + rnd() % (JUNK_MAX - JUNK_MIN + 1);
    uint8_t *ip = f + PKT_ETH_LEN;

    for (size_t i = 0; i < len; i++) f[i] = (uint8_t)rnd();
    memcpy(f, dmac, 6);
    memcpy(f + 6, smac, 6);
    f[12] = 0x08; f[13] = 0x00;
    memset(ip, 0, PKT_IP4_LEN);
    ip[0] = 0x45;
    put16(ip + 2, (uint32_t)(len - PKT_ETH_LEN));
    ip[8] = 64;
    ip[9] = 1;
    put16(ip + 12, src >> 16); put16(ip + 14, src);
    put16(ip + 16, dst >> 16); put16(ip + 18, dst);
    put16(ip + 10, rocc_inet_checksum(ip, PKT_IP4_LEN));
    ip[PKT_IP4_LEN] = ROCC_CNP_ICMP_TYPE;
    return len;
}

int main(int argc, char **argv)
{
    uint8_t dmac[6], smac[6] = {0x02, 0x66, 0, 0, 0, 2}, f[JUNK_MAX];
    uint32_t src, dst, fsrc = 0, fdst = 0;
    struct rocc_cnp c = {0};
    struct sockaddr_ll sa;
    double mbps, secs, t0, bits = 0;
    unsigned long sent = 0, errs = 0;
    int junk, fd;

    junk = argc == 8 && !strcmp(argv[3], "junk");
    if (argc == 14 && !strcmp(argv[3], "hfull")) c.form = ROCC_CNP_FORM_HOST_FULL;
    if (argc == 14 && !strcmp(argv[3], "hreg")) c.form = ROCC_CNP_FORM_HOST_REG;
    if (!(junk || (argc == 13 && !strcmp(argv[3], "cnp")) || c.form) || pkt_parse_mac(argv[2], dmac) ||
        pkt_parse_ip(argv[6], &src) || pkt_parse_ip(argv[7], &dst) ||
        (!junk && (pkt_parse_ip(argv[8], &fsrc) || pkt_parse_ip(argv[9], &fdst)))) {
        fprintf(stderr, "usage: %s IFACE DST_MAC cnp MBPS SECONDS SRC_IP DST_IP FLOW_SRC FLOW_DST QPN CP_ID RATE_UNITS\n"
                        "       %s IFACE DST_MAC junk MBPS SECONDS SRC_IP DST_IP\n"
                        "       %s IFACE DST_MAC hfull|hreg MBPS SECONDS SRC_IP DST_IP FLOW_SRC FLOW_DST QPN CP_ID F QCUR\n",
                argv[0], argv[0], argv[0]);
        return 2;
    }
    mbps = strtod(argv[4], NULL);
    secs = strtod(argv[5], NULL);
    if (!(mbps > 0) || !(secs > 0)) { fprintf(stderr, "MBPS and SECONDS must be > 0\n"); return 2; }
    if (!junk) {
        c.src_ip = fsrc; c.dst_ip = fdst;
        c.sport = 0xC000; c.dport = ROCC_ROCEV2_UDP_PORT;
        c.dest_qpn = (uint32_t)strtoul(argv[10], NULL, 0);
        c.cp_id = (uint32_t)strtoul(argv[11], NULL, 0);
        c.rate_units = (uint32_t)strtoul(argv[12], NULL, 0);
    }
    if (c.form) {
        c.q_cur = (uint32_t)strtoul(argv[13], NULL, 0);
        c.q_old = 0;
        c.q_ref = 1; c.q_mid = 2; c.q_max = 3;          /* the forger's parameters (hfull) */
        c.f_min = 1; c.f_max = c.rate_units;
        c.alpha_q16 = c.beta_q16 = 65536;               /* 1.0 in Q16.16 */
    }

    fd = forge_open(argv[1], dmac, &sa);   /* send only */
    if (fd < 0) return 1;

    t0 = now_s();
    for (;;) {
        double t = now_s() - t0;
        int burst = 0;
        if (t >= secs) break;
        /* Send while behind the schedule (bits so far vs. MBPS * t). */
        while (bits < mbps * 1e6 * t && burst++ < BURST_MAX) {
            size_t len;
            if (junk) {
                len = build_junk(f, dmac, smac, src, dst);
            } else {
                c.psn = rnd() & 0xffffff;
                len = c.form ? pkt_build_cnp_form(f, sizeof f, smac, dmac, src, dst, &c, NULL)
                             : pkt_build_cnp(f, sizeof f, smac, dmac, src, dst, &c);
            }
            if (sendto(fd, f, len, 0, (struct sockaddr *)&sa, sizeof sa) != (ssize_t)len) { errs++; break; }
            sent++;
            bits += (double)(len + PKT_WIRE_OVERHEAD) * 8;
        }
        {
            struct timespec ts = {0, 100000};
            nanosleep(&ts, NULL);
        }
    }
    secs = now_s() - t0;
    close(fd);
    printf("cnpforge kind=%s sent=%lu wire_mbps=%.1f seconds=%.2f send_errors=%lu\n", junk ? "junk" : c.form == ROCC_CNP_FORM_HOST_FULL ? "hfull" : c.form ? "hreg" : "cnp", sent,
           bits / secs / 1e6, secs, errs);
    return 0;
}
