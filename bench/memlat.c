/*
 * memlat.c -- memory latency of this machine, for docs/performance.md:
 * the time of one dependent load when the loads walk MB megabytes in a
 * random cyclic order (one 64 B line each), so every load waits for the
 * previous one and nothing is prefetched.  With a second argument the
 * block is advised for 2 MB pages (MADV_HUGEPAGE).
 *
 *   cc -O2 -o build/memlat bench/memlat.c && build/memlat 64 [huge]
 */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

int main(int argc, char **argv)
{
    if (argc < 2 || atoi(argv[1]) <= 0) {
        fprintf(stderr, "usage: memlat MB [huge]\n");
        return 2;
    }
    size_t bytes = (size_t)atoi(argv[1]) << 20, lines = bytes / 64, huge = (size_t)2 << 20;
    uint64_t *a = aligned_alloc(huge, (bytes + huge - 1) / huge * huge);
    size_t *order = malloc(lines * sizeof *order);
    if (!a || !order) {
        fprintf(stderr, "memlat: out of memory\n");
        return 1;
    }
    if (argc > 2)
        madvise(a, bytes, MADV_HUGEPAGE);
    uint64_t x = 88172645463325252ull;                  /* xorshift64: a fixed shuffle */
    for (size_t i = 0; i < lines; i++)
        order[i] = i;
    for (size_t i = lines - 1; i > 0; i--) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t j = x % (i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (size_t i = 0; i < lines; i++)                  /* one cycle through every line */
        a[order[i] * 8] = order[(i + 1) % lines] * 8;
    const long loads = 20000000;
    struct timespec t0, t1;
    size_t p = order[0] * 8;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < loads; i++)
        p = a[p];
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / loads;
    printf("%s MB%s: %.1f ns per dependent load (end %zu)\n", argv[1], argc > 2 ? ", 2 MB pages" : "", ns, p);
    return 0;
}
