/*
 * dp_common.h -- DPDK plumbing shared by rocc-switch and rocc-host: port
 * bring-up and the TSC clock.  Kept apart from pkt.{h,c} so the frame code
 * stays free of DPDK types.
 */
#ifndef DP_COMMON_H
#define DP_COMMON_H

#include <stdint.h>

#include <rte_mempool.h>

/* Bursts of this many frames per rx/tx call (l2fwd's MAX_PKT_BURST). */
#define DP_BURST 32

/* One RX and one TX queue, promiscuous, started.  0 or a negative errno;
 * prints why on failure. */
int dp_port_init(uint16_t port, struct rte_mempool *pool);

/* Stop and close every port that dp_port_init() started. */
void dp_port_close(uint16_t port);

/* Cycles -> picoseconds without overflow: librocc keeps time in ps and a
 * plain 64-bit product would wrap after ~6 s at 3 GHz. */
uint64_t dp_cycles_to_ps(uint64_t cycles, uint64_t hz);
/* Microseconds -> cycles. */
uint64_t dp_us_to_cycles(uint64_t us, uint64_t hz);

/* Empty poll round: spin briefly when work is due within ~50 µs, otherwise
 * sleep ~20 µs so several processes can share a core (recipe gotcha 3). */
void dp_idle(uint64_t cycles_until_work, uint64_t hz);

#endif
