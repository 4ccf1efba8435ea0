/*
 * fc_escape.h -- Escape (dissertation ch. 4) as a flow-control scheme of the
 * simulator's switch (flowctl.h): the glue between the switch and the pure
 * state machine src/cc/escape.h.  docs/escape.md has the model.
 *
 * What the glue does, per switch:
 *   - port registry: on_ingress / on_pause keep escape.h's flags of the
 *     lossless data class (net.cfg.data_prio) current; peers that are
 *     switches running Escape are marked (tokens go only there, C2);
 *   - flow table: every data frame admitted at the switch is reported
 *     with its ingress and egress (esc_on_frame);
 *   - classification: a data frame whose Escape header (packet.hops) is
 *     nonzero goes to the escape queue (FC_F_ESCAPE_QUEUE) and is admitted
 *     beyond the MMU's limits (FC_FORCE: the room the token reserved in
 *     q⃗, §4.3.3(1)); a nonzero header from a host or above max_hops is
 *     reset to 0 and counted;
 *   - TRIGGERESCAPE and the reclaim timer: the switch's flow-control timer
 *     runs esc_poll and sends the tokens as PKT_FCTL frames (subtype
 *     FC_SUB_ETF, 64 bytes, MAC control queue);
 *   - RECEIVE: an ETF arriving on an egress port; an extraction searches
 *     the data class queue head to tail (fc_extract), the frame gets hops
 *     = τ.hops and PF_ESC_HERE and goes to that port's escape queue;
 *   - TRANSMIT: a data frame leaving with hops != 0 reclaims a token and
 *     decrements hops, unless PF_ESC_HERE (the switch extracted it itself,
 *     C1), which is cleared.
 *   - order (C9, docs/escape.md): a frame arriving with hops 1 whose
 *     egress class queue holds a frame of its flow queues behind them
 *     (hops 0, PF_ESC_WAIT) and keeps its token until it leaves; with
 *     hops > 1 the case is only counted (order_risk);
 *   - C10: TRIGGERESCAPE skips flows with a frame in p^E's class queue
 *     (esc_set_queued_fn, a scan of that queue);
 *   - C12: a frame arriving with hops 1 while its egress's data class is
 *     paused waits the same way (it would leave as a regular frame into a
 *     paused neighbour with no room reserved there).
 * A simulated flow is named by its index, which stands for its 5-tuple:
 * esc_fid.src_ip = flow index, the other fields constant.
 */
#ifndef ROCC_NET_FC_ESCAPE_H
#define ROCC_NET_FC_ESCAPE_H

#include "net/flowctl.h"
#include "escape.h"

/* PKT_FCTL subtype of an ETF. */
#define FC_SUB_ETF 1

struct fc_escape_params {
    uint16_t  pool;        /* token pool = escape-queue capacity, frames */
    simtime_t period_ps;   /* Δesc; 0 = 2 x the largest link delay of the switch (§4.3.2) */
    simtime_t reclaim_ps;  /* §4.3.3(5) interval; 0 = off */
    uint8_t   ft_mode;     /* enum esc_ft_mode (escape.h C3) */
    uint8_t   reclaim_mode;/* enum esc_reclaim_mode (escape.h C6) */
};

struct fc_escape_totals {
    struct esc_stats st;   /* summed over switches */
    uint64_t outstanding;  /* tokens charged and not given back, now */
    uint64_t scanned;      /* frames looked at by extractions */
    uint64_t hdr_reset;    /* data frames from a host with hops != 0 (reset) */
    uint64_t demoted;      /* C9: escaping frames that ended their escape behind their flow */
    uint64_t order_risk;   /* C9: escaping frames (hops > 1) overtaking a frame of their flow */
    uint64_t held_paused;  /* C12: escaping frames that found p^E paused at their origin and waited */
    uint32_t switches;     /* switches running Escape */
    simtime_t period_max_ps;   /* the largest Δesc of any switch */
    simtime_t reclaim_ps;      /* the reclaim interval (the same on every switch) */
    uint8_t reclaim_mode;      /* enum esc_reclaim_mode (the same on every switch) */
};

extern const struct fc_ops fc_escape_ops;

/* Install Escape on switch s (after net_finalize: ports exist).  Peers
 * are marked Escape-capable by fc_escape_link_peers once every switch has
 * it.  -1 with why on bad params or memory. */
int  fc_escape_install(struct net *n, struct sw *s, const struct fc_escape_params *p, char *why, size_t why_len);
/* Mark, on every Escape switch, the ports whose peer runs Escape too. */
void fc_escape_link_peers(struct net *n);
/* Sum of every Escape switch's counters; all zero without Escape. */
void fc_escape_totals(const struct net *n, struct fc_escape_totals *t);

/* Over several MPI ranks (scenario.fc_merge): gives rank 0 every Escape
 * switch's counters and token pools.  reduce(v, k, max) sums k values over
 * the ranks into rank 0 (max = 0).  Only the rank that owns a switch runs
 * its handlers; every other rank's copy keeps its set-up values (counters
 * 0, pools full), so the sums of the differences from set-up are the
 * owner's values.  Every rank calls it with the same switches. */
void fc_escape_merge(struct net *n, void (*reduce)(uint64_t *v, size_t k, int max));

#endif
