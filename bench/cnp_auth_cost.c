/*
 * cnp_auth_cost.c -- what the CNP defences cost per CNP on this CPU (issue
 * 11 part 5; numbers in docs/dataplane.md).  Not a test: it measures.
 *
 *   bench/cnp_auth_cost.sh            (builds this against build/librocc.a)
 *
 * Times, in TSC cycles per CNP (median of 21 runs of 200,000 CNPs each,
 * so a descheduled run does not count): building a plain CNP
 * (rocc_cnp_encode), an authenticated one (rocc_cnp_encode_auth), and
 * validating each with rocc_cnp_check: plain with a 4-entry binding table,
 * and with the key.  The difference is the authenticator's price.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

#include "rocc_cnpauth.h"

#define N    200000
#define RUNS 21

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

enum { ENC, ENC_AUTH, CHK, CHK_AUTH, NOPS };
static const char *const names[NOPS] = {"encode plain (52 B)", "encode authenticated (60 B)",
                                        "check plain + binding", "check authenticated + binding"};

int main(void)
{
    static const uint8_t key[16] = {0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x69, 0x78,
                                    0x87, 0x96, 0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0};
    static const struct rocc_cp_bind bind[4] = {{1, 0x0a630001}, {2, 0x0a630002}, {3, 0x0a630003}, {4, 0x0a630004}};
    struct rocc_cnp_policy plain = {.bind = bind, .nbind = 4}, keyed = {.bind = bind, .nbind = 4, .key = key};
    struct rocc_cnp c = {.rate_units = 100, .cp_id = 0x401, .src_ip = 0x0a630102, .dst_ip = 0x0a630202,
                         .sport = 49152, .dport = 4791, .dest_qpn = 7, .psn = 1};
    uint8_t p[ROCC_CNP_ICMP_BYTES], a[ROCC_CNP_AUTH_ICMP_BYTES];
    double cyc[NOPS][RUNS];
    volatile uint32_t sink = 0;

    rocc_cnp_encode(&c, p, sizeof p);
    rocc_cnp_encode_auth(&c, key, 0x0a630004, 0x0a630102, a, sizeof a);
    if (rocc_cnp_check(&plain, 0x0a630004, 0x0a630102, p, sizeof p, NULL) ||
        rocc_cnp_check(&keyed, 0x0a630004, 0x0a630102, a, sizeof a, NULL)) {
        fprintf(stderr, "cnp_auth_cost: the CNPs do not validate\n");
        return 1;
    }
    for (int r = 0; r < RUNS; r++) {
        for (int op = 0; op < NOPS; op++) {
            uint64_t t0 = __rdtsc();
            for (uint32_t i = 0; i < N; i++) {
                c.psn = i;
                switch (op) {
                case ENC: sink += (uint32_t)rocc_cnp_encode(&c, p, sizeof p); break;
                case ENC_AUTH: sink += (uint32_t)rocc_cnp_encode_auth(&c, key, 0x0a630004, 0x0a630102, a, sizeof a); break;
                case CHK: sink += (uint32_t)rocc_cnp_check(&plain, 0x0a630004, 0x0a630102, p, sizeof p, NULL); break;
                default: sink += (uint32_t)rocc_cnp_check(&keyed, 0x0a630004, 0x0a630102, a, sizeof a, NULL); break;
                }
            }
            cyc[op][r] = (double)(__rdtsc() - t0) / N;
        }
    }
    printf("# cycles per CNP (TSC, median of %d x %d)\n", RUNS, N);
    for (int op = 0; op < NOPS; op++) {
        qsort(cyc[op], RUNS, sizeof cyc[op][0], cmp);
        printf("%-32s %8.0f\n", names[op], cyc[op][RUNS / 2]);
    }
    printf("# wire: plain CNP frame %d B, authenticated %d B (+%d B, +%.1f%% of a CNP's link time)\n",
           14 + 20 + ROCC_CNP_ICMP_BYTES + 4, 14 + 20 + ROCC_CNP_AUTH_ICMP_BYTES + 4, ROCC_CNP_TAG_BYTES,
           100.0 * ROCC_CNP_TAG_BYTES / (14 + 20 + ROCC_CNP_ICMP_BYTES + 4 + 20));
    return (int)(sink & 0);
}
