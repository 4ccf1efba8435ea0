/*
 * fcsel_swing.c -- the setup of the flow-control scheme `swing` (fcsel.h's
 * registry entry): reads [swing] relay_buffer, finds the relay devices
 * (fc_swing_is_relay), gives each its relay buffer on the long-haul ingress
 * and installs src/net/fc_swing.c there; every other switch runs plain PFC.
 */
#include "engine/fcsel_swing.h"

#include <stdlib.h>
#include <string.h>

#include "net/fc_swing.h"

#define S "swing"

struct swing_totals {
    uint32_t relays;
    uint64_t pause, resume, own, buffer_max;
};

static void totals(const struct net *n, struct swing_totals *t)
{
    memset(t, 0, sizeof *t);
    for (uint32_t i = 0; i < n->n_sws; i++) {
        const struct sw *s = &n->sws[i];
        if (s->fc != &fc_swing_ops)
            continue;
        const struct fc_swing_sw *st = s->fc_state;
        t->relays++;
        for (int c = 0; c < NCLASS; c++) {
            t->pause += st->r[c].relayed_pause;
            t->resume += st->r[c].relayed_resume;
            t->own += st->r[c].own_xoff;
        }
        if (s->xoff[st->lh_local] > t->buffer_max)
            t->buffer_max = s->xoff[st->lh_local];
    }
}

/* Over several ranks (scenario.fc_merge): a relay's counters are nonzero
 * only on its own rank. */
static void swing_merge(struct scenario *sc, void (*reduce)(uint64_t *v, size_t k, int max))
{
    struct net *n = &sc->net;
    for (uint32_t i = 0; i < n->n_sws; i++) {
        struct sw *s = &n->sws[i];
        if (s->fc != &fc_swing_ops)
            continue;
        struct fc_swing_sw *st = s->fc_state;
        uint64_t v[3 * NCLASS];
        for (int c = 0; c < NCLASS; c++) {
            v[3 * c] = st->r[c].relayed_pause;
            v[3 * c + 1] = st->r[c].relayed_resume;
            v[3 * c + 2] = st->r[c].own_xoff;
        }
        reduce(v, 3 * NCLASS, 0);
        for (int c = 0; c < NCLASS; c++) {
            st->r[c].relayed_pause = v[3 * c];
            st->r[c].relayed_resume = v[3 * c + 1];
            st->r[c].own_xoff = v[3 * c + 2];
        }
    }
}

int fcsel_swing_setup(struct scenario *sc, struct cfg *c, const struct fc_scheme *self, struct cfg_err *err)
{
    (void)self;
    struct net *n = &sc->net;
    const struct cfg_entry *es = cfg_find(c, "flowcontrol", "scheme");
    const struct cfg_entry *eb = cfg_find(c, S, "relay_buffer");
    uint64_t fixed = 0;
    if (eb && strcmp(eb->value, "auto") != 0) {
        if (cfg_bytes(c, S, "relay_buffer", 0, &fixed, err))
            return -1;
        if (fixed == 0)
            return cfg_errorf(err, eb, "relay_buffer must be > 0 (or 'auto')");
    }
    if (!sc->lossless || n->n_sws == 0)
        return cfg_errorf(err, es, "swing needs [network] mode = lossless and a finite buffer (it relays PFC)");
    uint32_t relays = 0;
    for (uint32_t i = 0; i < n->n_sws; i++) {
        const struct sw *s = &n->sws[i];
        uint32_t lh, dn;
        if (!s->cfg.pfc || s->cfg.buffer_bytes == 0)
            return cfg_errorf(err, es, "swing needs [network] mode = lossless and a finite buffer (switch %s has none)",
                              n->nodes[s->node].name);
        if (fc_swing_is_relay(n, s, &lh, &dn) == 0) {
            if (s->cfg.dynamic)
                return cfg_errorf(err, es, "swing needs [network] pfc_threshold = static (the relay buffer is a fixed size)");
            relays++;
            continue;
        }
        const struct node *nd = &n->nodes[s->node];
        for (uint32_t k = 0; k < nd->n_ports; k++)
            if (n->ports[nd->first_port + k].longhaul)
                return cfg_errorf(err, es, "swing needs a relay device at each end of a long-haul link: switch %s "
                                  "is on one but is not a relay (two ports, one long-haul); use [topology] "
                                  "relays = yes (crossdc)", nd->name);
    }
    if (relays == 0)
        return cfg_errorf(err, es, "swing needs relay devices on a long-haul link ([topology] type = crossdc "
                          "with relays = yes, or two-port switches on a 'longhaul' topology-file link)");
    uint64_t frame = n->cfg.mtu_payload + ROCE_DATA_OVERHEAD + n->cfg.preamble_ifg;
    for (uint32_t i = 0; i < n->n_sws; i++) {
        struct sw *s = &n->sws[i];
        uint32_t lh, dn;
        if (fc_swing_is_relay(n, s, &lh, &dn) != 0) {
            fc_install(n, s, &fc_pfc, NULL);
            continue;
        }
        const struct port *lp = &n->ports[fc_port(n, s, lh)];
        uint64_t buf = fixed ? fixed : swing_relay_buffer(lp->rate_bps, lp->delay_ps, frame, s->cfg.xon_offset);
        struct fc_swing_sw *st = calloc(1, sizeof *st);
        if (!st)
            return cfg_section_errorf(err, c, S, "out of memory");
        st->lh_local = lh;
        st->dn_local = dn;
        for (int k = 0; k < NCLASS; k++)
            swing_init(&st->r[k]);
        fc_dedicate_buffer(s, lh, buf);
        fc_install(n, s, &fc_swing_ops, st);
    }
    sc->fc_json = fcsel_swing_json;
    sc->fc_print = fcsel_swing_print;
    sc->fc_merge = swing_merge;
    return 0;
}

void fcsel_swing_json(const struct scenario *sc, FILE *f)
{
    struct swing_totals t;
    totals(&sc->net, &t);
    fprintf(f, ",\n  \"swing\": {\"relays\": %u, \"relay_buffer\": %llu, \"relayed_pause\": %llu, "
            "\"relayed_resume\": %llu, \"own_xoff\": %llu}",
            t.relays, (unsigned long long)t.buffer_max, (unsigned long long)t.pause,
            (unsigned long long)t.resume, (unsigned long long)t.own);
}

void fcsel_swing_print(const struct scenario *sc, FILE *out)
{
    struct swing_totals t;
    totals(&sc->net, &t);
    fprintf(out, "  SWING: %u relays (buffer %llu B each), %llu PAUSE and %llu RESUME relayed over the long link, "
            "the relays' own buffers asked for XOFF %llu times\n", t.relays, (unsigned long long)t.buffer_max,
            (unsigned long long)t.pause, (unsigned long long)t.resume, (unsigned long long)t.own);
}
