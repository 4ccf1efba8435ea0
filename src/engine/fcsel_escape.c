/*
 * fcsel_escape.c -- `[flowcontrol] scheme = escape`: the [escape] section
 * (docs/config.md) and the installation of Escape (src/net/fc_escape.h) on
 * every switch.
 */
#include "engine/fcsel_escape.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "net/fc_escape.h"

/* Token pool = escape-queue capacity in frames.  The dissertation gives no
 * value (§4.3.1(2): a parameter, minimum 1); 32 frames (32 KB at the 1 KB
 * MTU) is our choice, docs/escape.md "Parameters". */
#define ESC_POOL_DEFAULT 32u
/* Default reclaim interval, §4.3.3(5): "a timer event with a large interval
 * (e.g., maximum delay across the network)".  Our estimate of that delay
 * from the configuration: a loop-free path crosses at most every switch
 * once, and at each a frame waits at most about as long as its egress needs
 * to send one ingress's PFC share (XOFF threshold + headroom; with dynamic
 * thresholds alpha x the shared pool) plus the link delay.  So: switches x
 * the largest such per-port time.  1 ms without PFC (nothing pauses, the
 * timer hardly matters).  docs/escape.md "Parameters". */
#define ESC_RECLAIM_NO_PFC_PS 1000000000ull
static uint64_t reclaim_default(const struct net *n)
{
    uint64_t worst = 0;
    for (uint32_t i = 0; i < n->n_sws; i++) {
        const struct sw *s = &n->sws[i];
        if (!s->cfg.pfc)
            continue;
        const struct node *nd = &n->nodes[s->node];
        for (uint32_t l = 0; l < nd->n_ports; l++) {
            const struct port *pt = &n->ports[nd->first_port + l];
            uint64_t share = s->cfg.dynamic ? (uint64_t)(s->cfg.alpha * (double)s->shared_pool) : s->xoff[l];
            share += s->hdrm_limit[l];
            uint64_t t = pt->delay_ps + tx_time_ps(share, pt->rate_bps);
            if (t > worst)
                worst = t;
        }
    }
    return worst ? worst * n->n_sws : ESC_RECLAIM_NO_PFC_PS;
}

/* Over several ranks (scenario.fc_merge). */
static void escape_merge(struct scenario *sc, void (*reduce)(uint64_t *v, size_t k, int max))
{
    fc_escape_merge(&sc->net, reduce);
}

int fcsel_escape_setup(struct scenario *sc, struct cfg *c, const struct fc_scheme *self, struct cfg_err *err)
{
    static const char S[] = "escape";
    struct net *n = &sc->net;
    static const char *const modes[] = { "frames", "flows", NULL };   /* enum esc_ft_mode order */
    static const char *const rmodes[] = { "one", "all", NULL };       /* enum esc_reclaim_mode order */
    uint64_t pool, period, reclaim;
    int mode, rmode;
    /* C6: `all` is our reading of §4.3.3(5) (docs/escape.md "Choices"). */
    if (cfg_enum(c, S, "flow_table", modes, ESC_FT_FRAMES, &mode, err) ||
        cfg_enum(c, S, "reclaim", rmodes, ESC_RECLAIM_ALL, &rmode, err) ||
        cfg_u64(c, S, "pool", ESC_POOL_DEFAULT, &pool, err) ||
        cfg_time(c, S, "period", 0, &period, err) ||
        cfg_time(c, S, "reclaim_interval", reclaim_default(n), &reclaim, err))
        return -1;
    if (pool < 1 || pool > 65535) {
        const struct cfg_entry *e = cfg_find(c, S, "pool");
        return cfg_errorf(err, e, "must be 1..65535 frames, got %llu", (unsigned long long)pool);
    }
    struct fc_escape_params p = { (uint16_t)pool, period, reclaim, (uint8_t)mode, (uint8_t)rmode };
    char why[200];
    for (uint32_t i = 0; i < n->n_sws; i++)
        if (fc_escape_install(n, &n->sws[i], &p, why, sizeof why) != 0)
            return cfg_section_errorf(err, c, S, "%s", why);
    fc_escape_link_peers(n);
    n->cfg.fc_hdr_bytes = ESC_HDR_BYTES;       /* C8: every RoCEv2 frame carries the 2-byte header */
    sc->fc_merge = escape_merge;
    (void)self;
    return 0;
}

void fcsel_escape_summary(FILE *f, const struct net *n)
{
    struct fc_escape_totals t;
    fc_escape_totals(n, &t);
    if (!t.switches)
        return;
    const struct esc_stats *s = &t.st;
    fprintf(f, "  \"escape\": {\"switches\": %u, \"period_s\": %.9g, \"reclaim_interval_s\": %.9g, \"reclaim\": \"%s\", \"triggers\": %llu, \"tokens_sent\": %llu, \"tokens_forwarded\": %llu, "
               "\"tokens_dropped_pool\": %llu, \"tokens_ended\": %llu, \"tokens_unknown_flow\": %llu, "
               "\"tokens_malformed\": %llu, \"tokens_open_port\": %llu, \"tokens_truncated\": %llu, \"tokens_skipped_queued\": %llu, \"frames_escaped\": %llu, \"frames_scanned\": %llu, "
               "\"reclaimed_transmit\": %llu, \"reclaimed_timer\": %llu, \"over_reclaim\": %llu, "
               "\"tokens_outstanding_end\": %llu, \"waited_at_origin_behind_flow\": %llu, \"waited_at_origin_paused\": %llu, \"order_risk\": %llu, "
               "\"header_reset_from_host\": %llu, \"frames_bad_hops\": %llu},\n",
            t.switches, (double)t.period_max_ps / 1e12, (double)t.reclaim_ps / 1e12, t.reclaim_mode == ESC_RECLAIM_ALL ? "all" : "one", (unsigned long long)s->triggers, (unsigned long long)s->tok_sent,
            (unsigned long long)s->tok_forwarded, (unsigned long long)s->tok_drop_pool, (unsigned long long)s->tok_end,
            (unsigned long long)s->tok_drop_unknown, (unsigned long long)s->tok_drop_bad,
            (unsigned long long)s->tok_drop_open, (unsigned long long)s->tok_truncated, (unsigned long long)s->tok_skip_queued, (unsigned long long)s->frames_escaped, (unsigned long long)t.scanned,
            (unsigned long long)s->reclaim_tx, (unsigned long long)s->reclaim_timer, (unsigned long long)s->over_reclaim,
            (unsigned long long)t.outstanding, (unsigned long long)t.demoted, (unsigned long long)t.held_paused, (unsigned long long)t.order_risk,
            (unsigned long long)t.hdr_reset, (unsigned long long)s->frames_bad_hops);
}

double fcsel_escape_metric(const struct net *n, const char *name)
{
    struct fc_escape_totals t;
    fc_escape_totals(n, &t);
    if (!strcmp(name, "escape_outstanding"))
        return (double)t.outstanding;
    if (!strcmp(name, "escape_frames"))
        return (double)t.st.frames_escaped;
    if (!strcmp(name, "escape_order_risk"))
        return (double)t.order_risk;
    return NAN;
}
