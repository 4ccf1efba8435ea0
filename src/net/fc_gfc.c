/*
 * fc_gfc.c -- GFC (Qian et al., SIGCOMM'19) as the flow-control scheme
 * `gfc` (flowctl.h): the switch and NIC glue around the pure state machine
 * of src/cc/gfc.h.  docs/escape.md ("GFC") has the model and every choice.
 *
 * Downstream (every switch): after each charge or release of a lossless
 * (ingress port, class) counter (on_occupancy) the occupancy -- bytes above
 * the reserve, the count PFC compares with XOFF -- goes through
 * gfc_down_update with Bm = that counter's XOFF threshold; a level change
 * sends one PKT_FCTL frame (subtype FC_SUB_GFC, class in prio, the level's
 * Q15 rate in rate_units) out of that port to the upstream neighbour.  No
 * PAUSE frame is ever sent (FC_F_NO_PAUSE); the MMU still keeps the XOFF
 * registry and the headroom, so Bm (where GFC's rate reaches 0) is the
 * same lossless point as PFC's XOFF.
 *
 * Upstream (switch egress ports and host NICs): a GFC frame is checked
 * (class lossless, value <= 32768 by gfc_up_feedback; otherwise counted
 * malformed and dropped with no effect), then applied: rate 0 stops the
 * class through the port's pause state (so it shows as paused time and the
 * deadlock detector sees it, like an XOFF), any other rate opens that pause
 * if GFC had set it and limits the class with the port's rate gate at
 * rate x line / 32768 (flowctl.h fc_set_rate; line rate = no gate).
 */
#include <stdlib.h>
#include <string.h>

#include "net/flowctl.h"
#include "net/fc_gfc.h"
#include "gfc.h"

struct gfc_sw {
    struct fc_gfc_run *run;     /* configuration, upstream state, totals (shared) */
    struct gfc_down *down;      /* [n_ports * NCLASS], by local ingress port */
};

/* Bm of counter m at ingress `local` now: its XOFF threshold (as switch.c
 * computes it), but no more than the counter could hold in the shared pool
 * now -- its shared bytes plus the pool's free bytes, or its shared bytes
 * alone while it holds headroom.  The MMU pauses at
 * whichever comes first (a static threshold can exceed what the pool has
 * left, or even the whole buffer); GFC sends no PAUSE, so without the
 * second bound its staircase would never start and the fabric would drop
 * (docs/escape.md, "GFC": the shared pool). */
static uint64_t bm_now(const struct sw *s, uint32_t local, const struct mmu_cnt *m)
{
    uint64_t free_shared = s->shared_pool > s->shared_used ? s->shared_pool - s->shared_used : 0;
    uint64_t thr = s->cfg.dynamic ? (uint64_t)(s->cfg.alpha * (double)free_shared) : s->xoff[local];
    /* While the counter holds headroom bytes it stays at Bm (rate 0), as
     * PFC sends no XON before its headroom is empty: else a pool freed by
     * other counters would reopen the upstream onto a half-full headroom. */
    uint64_t room = m->hdrm ? m->shared : m->shared + free_shared;
    return thr < room ? thr : room;
}

/* The staircase for a counter whose XOFF threshold is thr. */
int fc_gfc_params(const struct fc_gfc_cfg *c, uint64_t thr, struct gfc_params *p)
{
    uint64_t start = c->start_bytes ? c->start_bytes : thr / 100 * c->start_pct + thr % 100 * c->start_pct / 100;
    if (thr > GFC_MAX_BYTES)
        thr = GFC_MAX_BYTES;
    p->stop_bytes = thr;
    p->stages = c->stages;
    if (start + c->stages > thr)        /* a tiny dynamic threshold: squeeze the stages */
        start = thr > c->stages ? thr - c->stages : 0;
    p->start_bytes = start;
    if (p->stop_bytes <= p->start_bytes || p->stop_bytes - p->start_bytes < p->stages) {
        p->stages = 1;                   /* thr < stages bytes: one stage, [0, thr) */
        p->start_bytes = 0;
        if (p->stop_bytes == 0)
            p->stop_bytes = 1;
    }
    p->hyst_bytes = c->hyst_set ? c->hyst_bytes : (p->stop_bytes - p->start_bytes) / p->stages / 2;
    return 0;
}

static void gfc_occupancy(struct net *n, struct sw *s, uint32_t in_local, uint8_t cls)
{
    struct gfc_sw *g = s->fc_state;
    struct fc_gfc_stats *st = &g->run->st;
    const struct mmu_cnt *m = &s->cnt[in_local * NCLASS + cls];
    struct gfc_params prm;
    fc_gfc_params(&g->run->cfg, bm_now(s, in_local, m), &prm);
    struct gfc_down *d = &g->down[in_local * NCLASS + cls];
    if (!gfc_down_update(&prm, d, m->shared + m->hdrm))
        return;
    uint32_t pi = fc_new_frame(n, FC_SUB_GFC);
    if (pi == PKT_NONE)
        return;
    struct packet *p = pkt(&n->pool, pi);
    p->prio = cls;
    p->rate_units = gfc_level_rate(&prm, d->level);
    if (p->rate_units == 0 && g->run->cfg.at_bm_last)
        p->rate_units = gfc_level_rate(&prm, prm.stages);   /* at_bm = last_stage: C/(N+1) */
    st->fb_sent++;
    if (p->rate_units == 0)
        st->fb_zero++;
    if (d->level > st->max_level)
        st->max_level = d->level;
    fc_send(n, fc_port(n, s, in_local), pi);
}

/* Apply a GFC frame p that arrived on `port` (a switch egress or a NIC). */
int fc_gfc_apply(struct net *n, struct fc_gfc_run *r, uint32_t port, const struct packet *p)
{
    if (p->fc_sub != FC_SUB_GFC || p->prio >= NCLASS || !(r->lossless_mask >> p->prio & 1) ||
        port >= r->n_ports)
        return -1;
    struct gfc_up *u = &r->up[(size_t)port * NCLASS + p->prio];
    if (gfc_up_feedback(u, p->rate_units) != GFC_OK)
        return -1;                       /* > 32768: no effect (gfc.h) */
    r->st.fb_rcvd++;
    uint8_t bit = (uint8_t)(1u << p->prio);
    if (u->rate == 0) {
        if (!(r->stopped[port] & bit)) {
            r->stopped[port] |= bit;
            port_set_pause(n, port, p->prio, 1);
        }
        return 0;
    }
    const struct port *pt = &n->ports[port];
    uint64_t bps = 0;                    /* line rate: no gate */
    if (u->rate != GFC_Q15_ONE) {
        bps = (uint64_t)((unsigned __int128)pt->rate_bps * u->rate / GFC_Q15_ONE);
        if (bps == 0)
            bps = 1;
    }
    if (fc_set_rate(n, port, p->prio, bps) != 0)
        return 0;                        /* no memory: n->oom stops the run */
    if (r->stopped[port] & bit) {
        r->stopped[port] &= (uint8_t)~bit;
        port_set_pause(n, port, p->prio, 0);
    }
    return 0;
}

static int gfc_frame(struct net *n, struct sw *s, uint32_t port, const struct packet *p)
{
    struct gfc_sw *g = s->fc_state;
    return fc_gfc_apply(n, g->run, port, p);
}

static void gfc_destroy(void *state)
{
    struct gfc_sw *g = state;
    if (!g)
        return;
    if (g->run && g->run->release)
        g->run->release(g->run);
    free(g->down);
    free(g);
}

int fc_gfc_stats(const struct net *n, struct fc_gfc_stats *out)
{
    memset(out, 0, sizeof *out);
    if (n->n_sws == 0 || n->sws[0].fc != &fc_gfc || !n->sws[0].fc_state)
        return -1;
    *out = ((const struct gfc_sw *)n->sws[0].fc_state)->run->st;
    return 0;
}

const struct fc_ops fc_gfc = {
    .name = "gfc",
    .flags = FC_F_NO_PAUSE,
    .on_occupancy = gfc_occupancy,
    .on_frame = gfc_frame,
    .destroy = gfc_destroy,
};

int fc_gfc_install(struct net *n, struct sw *s, struct fc_gfc_run *r)
{
    struct gfc_sw *g = calloc(1, sizeof *g);
    uint32_t np = fc_n_ports(n, s);
    if (!g || !(g->down = calloc((size_t)np * NCLASS, sizeof *g->down))) {
        free(g);
        return -1;
    }
    g->run = r;
    for (uint32_t i = 0; i < np * NCLASS; i++)
        gfc_down_init(&g->down[i]);
    fc_install(n, s, &fc_gfc, g);
    return 0;
}

int fc_gfc_run_init(struct fc_gfc_run *r, const struct net *n, const struct fc_gfc_cfg *cfg, uint8_t lossless_mask)
{
    memset(r, 0, sizeof *r);
    r->cfg = *cfg;
    r->lossless_mask = lossless_mask;
    r->st.stages = cfg->stages;
    r->n_ports = n->n_ports;
    r->up = malloc((size_t)n->n_ports * NCLASS * sizeof *r->up);
    r->stopped = calloc(n->n_ports ? n->n_ports : 1, 1);
    if (!r->up || !r->stopped) {
        fc_gfc_run_free(r);
        return -1;
    }
    for (size_t i = 0; i < (size_t)n->n_ports * NCLASS; i++)
        gfc_up_init(&r->up[i]);
    return 0;
}

void fc_gfc_run_free(struct fc_gfc_run *r)
{
    free(r->up);
    free(r->stopped);
    r->up = NULL;
    r->stopped = NULL;
}
