/* hugepage.c -- see hugepage.h. */
#define _DEFAULT_SOURCE                 /* madvise, MADV_HUGEPAGE */
#include "core/hugepage.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>                     /* sbrk */

#define HUGE_PAGE ((uintptr_t)2 << 20)  /* x86-64's and arm64's 2 MB */

void mem_hint_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    if (!p || bytes < 2 * HUGE_PAGE)
        return;
    uintptr_t from = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t to = ((uintptr_t)p + bytes) & ~(HUGE_PAGE - 1);
    if (to > from)
        (void)madvise((void *)from, to - from, MADV_HUGEPAGE);   /* a refusal changes nothing */
#else
    (void)p;
    (void)bytes;
#endif
}

void mem_hint_heap(void)
{
#if defined(MADV_HUGEPAGE) && defined(__linux__)
    /* The heap lies between the end of the program's data (the linker's
     * `end`; the kernel starts the heap a random distance above it) and
     * the current break.  madvise skips the unmapped gap below the heap
     * (and says ENOMEM, which changes nothing). */
    extern char end;
    void *top = sbrk(0);
    if (top != (void *)-1 && (uintptr_t)top > (uintptr_t)&end)
        mem_hint_huge(&end, (size_t)((uintptr_t)top - (uintptr_t)&end));
#endif
}
