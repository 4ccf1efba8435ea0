/*
 * dp_common.h -- DPDK plumbing shared by rocc-switch and rocc-host: port
 * bring-up and the TSC clock.  Kept apart from pkt.{h,c} so the frame code
 * stays free of DPDK types.
 */
#ifndef DP_COMMON_H
#define DP_COMMON_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "pcap.h"

/* One command-line option as getopt_long() returned it, remembered so
 * that a bad value can be reported with the option's name and the value
 * as given (the parsers split values in place). */
struct dp_opt {
    int         code;        /* the option's id; -1 at the end */
    const char *name;        /* long name, "" for a short option */
    char        orig[256];   /* the value as given */
};
/* The next option of argv; 0, or -1 after printing the unknown option or
 * missing value (the caller prints its usage). */
int dp_getopt(int argc, char **argv, const struct option *opts, struct dp_opt *o);

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
 * sleep ~20 µs so several processes can share a core (recipe gotcha 3).
 * Returns the sleep it asked for, in cycles (0 when it only paused), for
 * the stall meter below. */
uint64_t dp_idle(uint64_t cycles_until_work, uint64_t hz);

/* Stall meter: how long the poll loop went without running.  A gap is the
 * time between the starts of two consecutive loop rounds minus the sleep
 * the first round asked dp_idle for (20 µs): what is left is the round's
 * own work plus any time the process wanted the CPU and did not have it
 * (preempted mid-round, or a 20 µs sleep that came back late).  The sleep
 * is subtracted, not the whole idle call measured out, so that an idle
 * process reads ~the timer's slack (tens of µs), not as stalled, while a
 * sleep that ends milliseconds late -- the scheduler ran something else --
 * counts in full.  Cost: one subtraction and two compares per round (the
 * round's TSC read is the loop's own). */
#define DP_STALL_US 1000           /* a gap above this counts as a stall (stalls=) */
struct dp_stall {
    uint64_t last_tsc;             /* start of the previous round (0: none yet) */
    uint64_t slept;                /* sleep the previous round asked for (cycles) */
    uint64_t thresh;               /* DP_STALL_US in cycles */
    uint64_t rep_max, rep_max_tsc; /* longest gap since the last report, and when it ended */
    uint64_t run_max, n_stalls;    /* longest gap of the run; gaps above thresh */
};
static inline void dp_stall_init(struct dp_stall *st, uint64_t hz)
{
    *st = (struct dp_stall){.thresh = dp_us_to_cycles(DP_STALL_US, hz)};
}
/* Call once per loop round with the round's start TSC. */
static inline void dp_stall_round(struct dp_stall *st, uint64_t tsc)
{
    if (st->last_tsc && tsc > st->last_tsc) {
        uint64_t g = tsc - st->last_tsc;
        g = g > st->slept ? g - st->slept : 0;
        if (g > st->rep_max) { st->rep_max = g; st->rep_max_tsc = tsc; }
        if (g > st->run_max) st->run_max = g;
        st->n_stalls += g > st->thresh;
    }
    st->last_tsc = tsc;
    st->slept = 0;
}

/* A report's share: the longest gap since the last report (cycles) and,
 * in *at, the TSC it ended at (now when there was none), then a fresh
 * interval. */
static inline uint64_t dp_stall_take(struct dp_stall *st, uint64_t now_tsc, uint64_t *at)
{
    uint64_t g = st->rep_max;
    *at = st->rep_max_tsc ? st->rep_max_tsc : now_tsc;
    st->rep_max = st->rep_max_tsc = 0;
    return g;
}

/* Wall clock from the TSC: ns since the Unix epoch, anchored once at start
 * (pcap timestamps; CLOCK_REALTIME per frame would cost a syscall-free but
 * still ~20 ns vDSO call on the hot path). */
struct dp_clock { uint64_t hz, tsc0, ns0; };
void dp_clock_init(struct dp_clock *c, uint64_t hz);
/* CLOCK_REALTIME now, ns since the Unix epoch: the apps print it for their
 * t=0 on their ready line (t0_ns=), so a test can put the logs of several
 * processes on one time axis. */
uint64_t dp_realtime_ns(void);
uint64_t dp_clock_ns(const struct dp_clock *c, uint64_t tsc);

/* --pcap FILE, --pcap-dir rx|tx|both, --pcap-snaplen N: what the app
 * receives (every frame rx_burst returns, before any check) and sends
 * (only frames the PMD accepted), in one classic pcap file per capture. */
struct dp_cap {
    struct dp_pcap pc;
    bool rx, tx;
    struct dp_clock clk;
};
/* Open the capture file (no-op when path is NULL) and anchor its clock; on
 * failure say why on stderr ("--pcap PATH: ...") and return -1. */
int dp_cap_open(struct dp_cap *cap, const char *path, uint32_t snaplen, uint64_t hz);
/* Flush and close it; -1 (said on stderr) if any write failed. */
int dp_cap_close(struct dp_cap *cap, const char *path);
/* The "final pcap" statistics line, when capturing. */
void dp_cap_print_final(const struct dp_cap *cap, const char *path);
/* Parse --pcap-dir's value into cap->rx/tx; 0 or -1. */
int dp_cap_parse_dir(struct dp_cap *cap, const char *v);
/* Record one received frame (no-op unless capturing received frames). */
void dp_cap_rx(struct dp_cap *cap, const struct rte_mbuf *m, uint64_t tsc);
/* rte_eth_tx_burst, recording the frames the PMD took when capturing sent
 * frames (each mbuf is held by one extra reference across the call, since
 * the PMD may free it).  Frames not taken stay the caller's to free. */
uint16_t dp_tx_burst(uint16_t port, struct rte_mbuf **tx, uint16_t n, struct dp_cap *cap, uint64_t tsc);

#endif
