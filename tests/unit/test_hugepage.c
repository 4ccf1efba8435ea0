/*
 * test_hugepage.c -- core/hugepage.h: the hint marks an array's whole 2 MB
 * pages for huge pages (the kernel's "hg" flag on the mapping, read from
 * /proc/self/smaps) and changes none of its bytes; small arrays and NULL
 * are left alone.  Where the kernel has no transparent huge pages (or no
 * /proc), the flag check is not made and says so.
 */
#define _DEFAULT_SOURCE                 /* MADV_HUGEPAGE */
#include "test.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/hugepage.h"

#define MB ((size_t)1 << 20)

/* 1 if the mapping holding addr has the VmFlags flag `hg` (MADV_HUGEPAGE),
 * 0 if not, -1 if /proc/self/smaps cannot say. */
static int mapping_has_hg(const void *addr)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return -1;
    char line[512];
    int in = 0, r = -1;
    uintptr_t a = (uintptr_t)addr;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {      /* a mapping's first line */
            in = a >= lo && a < hi;
            continue;
        }
        if (in && !strncmp(line, "VmFlags:", 8)) {
            r = strstr(line, " hg") != NULL;
            break;
        }
    }
    fclose(f);
    return r;
}

static int thp_available(void)
{
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!f)
        return 0;
    char s[128] = "";
    int ok = fgets(s, sizeof s, f) && !strstr(s, "[never]");
    fclose(f);
    return ok;
}

TEST(hint_marks_whole_pages_and_keeps_bytes)
{
    size_t bytes = 9 * MB;
    unsigned char *p = aligned_alloc(2 * MB, 10 * MB);
    CHECK(p != NULL);
    if (!p)
        return;
    for (size_t i = 0; i < bytes; i++)
        p[i] = (unsigned char)(i * 2654435761u >> 13);
    mem_hint_huge(p + 1, bytes);        /* unaligned start: pages 2 MB.. on */
    size_t bad = 0;
    for (size_t i = 0; i < bytes; i++)
        bad += p[i] != (unsigned char)(i * 2654435761u >> 13);
    CHECK_EQ(bad, 0);
    int hg = mapping_has_hg(p + 4 * MB);
    if (thp_available() && hg >= 0)
        CHECK_EQ(hg, 1);
    else
        printf("  (no transparent huge pages or /proc here: the flag is not checked)\n");
    mem_hint_huge(NULL, 100 * MB);      /* nothing to do, no crash */
    free(p);
}

TEST(small_arrays_left_alone)
{
    unsigned char *q = aligned_alloc(2 * MB, 8 * MB);
    CHECK(q != NULL);
    if (!q)
        return;
    memset(q, 7, 8 * MB);
    /* A fresh mapping of our own, so no earlier hint can have marked it. */
    void *m = mmap(NULL, 8 * MB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(m != MAP_FAILED);
    if (m != MAP_FAILED) {
        mem_hint_huge(m, 3 * MB);       /* under 4 MB: no hint */
        int hg = mapping_has_hg(m);
        if (hg >= 0)
            CHECK_EQ(hg, 0);
        munmap(m, 8 * MB);
    }
    mem_hint_heap();                    /* whatever the heap holds: unchanged */
    size_t bad = 0;
    for (size_t i = 0; i < 8 * MB; i++)
        bad += q[i] != 7;
    CHECK_EQ(bad, 0);
    free(q);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_hugepage";
    RUN(hint_marks_whole_pages_and_keeps_bytes);
    RUN(small_arrays_left_alone);
    return test_summary();
}
