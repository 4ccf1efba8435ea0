/*
 * hugepage.h -- a hint that a large array should sit on huge pages.
 *
 * A large fabric's hot arrays (frames, pending events, flows, ports) are
 * hundreds of MB read at random, one or two lines per page visited, so
 * with 4 KB pages most of those reads also miss the TLB and walk the page
 * table.  Linux backs memory with 2 MB pages where a range asks for it
 * (MADV_HUGEPAGE; transparent huge pages in "madvise" mode, Debian's
 * default) and GLIBC_TUNABLES=glibc.malloc.hugetlb=1 asks for all of the
 * C library's heap (the k = 34 fabric's first millisecond: 14% less CPU
 * with it, docs/parallel.md).  mem_hint_huge asks for the whole 2 MB pages
 * inside [p, p + bytes) of one array, whatever the tunable; with it on the
 * big arrays and the heap, that millisecond took 12% less CPU
 * (docs/performance.md "Huge pages").
 *
 * Only a hint: it changes no byte of the array and no result, and does
 * nothing for arrays under 4 MB, off Linux, or where the kernel says no.
 */
#ifndef ROCC_HUGEPAGE_H
#define ROCC_HUGEPAGE_H

#include <stddef.h>

void mem_hint_huge(void *p, size_t bytes);

/* The same for the C library's heap as it stands (brk: glibc's home of
 * every allocation under 128 KB -- a fabric's per-port agent tables and
 * per-host state, 137 MB of the k = 34 fabric's 463 MB at 150 us).  Call
 * it once the fabric is built: pages already touched are merged into
 * huge pages in the background by the kernel (khugepaged), and the heap's
 * later growth keeps the hint. */
void mem_hint_heap(void);

#endif
