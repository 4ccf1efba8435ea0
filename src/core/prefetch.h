/*
 * prefetch.h -- ask for a cache line before it is read.
 *
 * A large fabric's records (ports, frames, flow tables) do not stay in
 * cache, and its event handlers read them one after the other, each read
 * waiting for the last.  Where the next record is known early, fetching it
 * ahead lets the waits overlap (docs/performance.md, "Large fabrics").
 *
 * Why not __builtin_prefetch: gcc 12 drops it as dead code inside loops
 * (at -O1 and above it disappeared from every call in net_run_until's
 * event loop; -fno-tree-dce keeps it).  A volatile asm cannot be dropped.
 * The operand only names the address: nothing is read, so an invalid
 * address is harmless, as with the instruction itself.
 */
#ifndef ROCC_PREFETCH_H
#define ROCC_PREFETCH_H

#if defined(__x86_64__) || defined(__i386__)
#define rocc_prefetch(p) __asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)(p)))
#elif defined(__aarch64__)
#define rocc_prefetch(p) __asm__ volatile("prfm pldl1keep, %0" : : "Q"(*(const char *)(p)))
#else
#define rocc_prefetch(p) __builtin_prefetch(p)
#endif

#endif
