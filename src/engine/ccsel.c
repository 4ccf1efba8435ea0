/* ccsel.c -- algorithm selection, parameter blocks, switch-side setup; see ccsel.h. */
#include "engine/ccsel.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#define CC_PTR_(name) &cc_algo_##name,
const struct cc_algo *const cc_registry[CC_NALGO] = { CC_REGISTRY(CC_PTR_) };
#undef CC_PTR_
#define CC_NAME_(name) #name,
const char *const cc_algo_names[CC_NALGO + 1] = { CC_REGISTRY(CC_NAME_) NULL };
#undef CC_NAME_

_Static_assert(CC_NALGO <= 64, "the algorithms in use are a 64-bit mask");

/* One parameter block per (algorithm, NIC speed); its flows point at prm. */
struct cc_block {
    int algo;
    uint64_t line_bps;
    alignas(max_align_t) unsigned char prm[];
};

struct cc_sel {
    void *opt[CC_NALGO];              /* each algorithm's options (NULL: it has none) */
    int ecn_set;                      /* [ecn] given: same marking on every port */
    struct ecn_marking ecn;
    struct cc_block **blocks;
    uint32_t n_blocks;
};


int ccsel_read(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    struct cc_sel *s = calloc(1, sizeof *s);
    if (!s)
        return cfg_section_errorf(err, c, "cc", "out of memory");
    sc->ccs = s;
    for (int a = 0; a < CC_NALGO; a++) {
        const struct cc_algo *d = cc_registry[a];
        if (!d->opt_size)
            continue;
        if (!(s->opt[a] = calloc(1, d->opt_size)))
            return cfg_section_errorf(err, c, "cc", "out of memory");
        if (d->read)
            TRY(d->read(c, s->opt[a], err));
    }
    s->ecn_set = cfg_find(c, "ecn", "kmin") || cfg_find(c, "ecn", "kmax") || cfg_find(c, "ecn", "pmax");
    TRY(cfg_bytes(c, "ecn", "kmin", 0, &s->ecn.kmin, err));
    TRY(cfg_bytes(c, "ecn", "kmax", 0, &s->ecn.kmax, err));
    TRY(cfg_double(c, "ecn", "pmax", 1.0, &s->ecn.pmax, err));
    if (s->ecn_set && (s->ecn.kmax < s->ecn.kmin || !(s->ecn.pmax >= 0 && s->ecn.pmax <= 1) || s->ecn.kmax == 0))
        return cfg_section_errorf(err, c, "ecn", "need 0 <= kmin <= kmax, kmax > 0 and 0 <= pmax <= 1");
    return 0;
}

void ccsel_free(struct scenario *sc)
{
    struct cc_sel *s = sc->ccs;
    if (!s)
        return;
    for (uint32_t i = 0; i < s->n_blocks; i++)
        free(s->blocks[i]);
    free(s->blocks);
    for (int a = 0; a < CC_NALGO; a++)
        free(s->opt[a]);
    free(s);
    sc->ccs = NULL;
}

simtime_t ccsel_max_base_rtt(const struct scenario *sc)
{
    const struct net *n = &sc->net;
    uint64_t data = n->cfg.mtu_payload + ROCE_DATA_OVERHEAD + n->cfg.preamble_ifg;
    uint64_t ack = ROCE_ACK_FRAME + n->cfg.preamble_ifg;
    simtime_t worst = 0;
    for (uint32_t i = 0; i < n->n_flows; i++) {
        const struct flow *f = &n->flows[i];
        uint32_t node = n->hosts[f->src].node, dnode = n->hosts[f->dst].node;
        simtime_t rtt = 0;
        for (int hop = 0; node != dnode && hop < 64; hop++) {
            uint32_t port = net_route(n, node, f->dst, f->hash);
            const struct port *pt = &n->ports[port];
            rtt += 2 * pt->delay_ps + tx_time_ps(data, pt->rate_bps) + tx_time_ps(ack, pt->rate_bps);
            node = n->ports[pt->peer].node;
        }
        if (rtt > worst)
            worst = rtt;
    }
    return worst;
}

static int make_block(struct scenario *sc, int algo, uint64_t line, simtime_t base_rtt,
                      const struct cc_block **out, struct cfg_err *err)
{
    struct cc_sel *s = sc->ccs;
    const struct cc_algo *d = cc_registry[algo];
    for (uint32_t i = 0; i < s->n_blocks; i++)
        if (s->blocks[i]->algo == algo && s->blocks[i]->line_bps == line) {
            *out = s->blocks[i];
            return 0;
        }
    struct cc_block *b = calloc(1, sizeof *b + d->prm_size);
    struct cc_block **nb = realloc(s->blocks, (s->n_blocks + 1) * sizeof *nb);
    if (!b || !nb) {
        free(b);
        if (nb)
            s->blocks = nb;
        return cfg_section_errorf(err, sc->cfg, "cc", "out of memory");
    }
    s->blocks = nb;
    s->blocks[s->n_blocks++] = b;
    b->algo = algo;
    b->line_bps = line;
    char why[160] = "";
    struct cc_ctx x = { .sc = sc, .line_bps = line, .base_rtt = base_rtt };
    if (d->params(&x, s->opt[algo], b->prm, why, sizeof why))
        return cfg_section_errorf(err, sc->cfg, d->prm_section ? d->prm_section : "cc",
                                  "invalid %s parameters for a %.0f Gb/s NIC: %s", d->name, line / 1e9, why);
    *out = b;
    return 0;
}

/* Does an algorithm in `mask` read section `sec`? */
static int section_read_by(uint64_t mask, const char *sec)
{
    for (int a = 0; a < CC_NALGO; a++)
        for (int k = 0; k < 2; k++)
            if ((mask >> a & 1) && cc_registry[a]->sections[k] && !strcmp(cc_registry[a]->sections[k], sec))
                return 1;
    return 0;
}

int ccsel_bind(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    struct net *n = &sc->net;
    struct cc_sel *s = sc->ccs;
    uint64_t used = 0;
    for (uint32_t g = 0; g < sc->n_groups; g++)
        used |= 1ull << sc->groups[g].algo;
    simtime_t base_rtt = ccsel_max_base_rtt(sc);
    for (int a = 0; a < CC_NALGO; a++)
        if ((used >> a & 1) && cc_registry[a]->setup)
            TRY(cc_registry[a]->setup(sc, s->opt[a], c, err));
    for (uint32_t i = 0; i < n->n_flows; i++) {
        struct flow *f = &n->flows[i];
        int algo = sc->groups[f->group].algo;
        const struct cc_algo *d = cc_registry[algo];
        f->tp = d->tp;
        f->hdr_extra = d->tp->hdr_extra;     /* both ends must know it (transport_ops) */
        f->cc_prm = NULL;
        if (d->prm_size) {
            const struct cc_block *b = NULL;
            TRY(make_block(sc, algo, flow_line_rate(n, f), base_rtt, &b, err));
            f->cc_prm = b->prm;
        }
        if (d->tp->np_interval && f->cc_prm)
            f->np_interval = d->tp->np_interval(f->cc_prm);   /* the receiver's NP reads it */
    }
    /* A section no algorithm in use reads: its keys have no effect (one
     * warning per section, at the first algorithm that names it). */
    for (int a = 0; a < CC_NALGO; a++)
        for (int k = 0; k < 2; k++) {
            const char *sec = cc_registry[a]->sections[k];
            if (sec && !section_read_by((1ull << a) - 1, sec) && cfg_has_section(c, sec) &&
                !section_read_by(used, sec))
                scenario_warn(sc, "%s: [%s] is set but no flow group uses it (its keys have no effect)", cfg_path(c),
                              sec);
        }
    /* Switch marking: one scheme for the whole fabric. */
    int scheme = -1;
    for (int a = 0; a < CC_NALGO; a++) {
        if (!(used >> a & 1) || !cc_registry[a]->marking)
            continue;
        if (scheme >= 0 && cc_registry[a]->marking != cc_registry[scheme]->marking && !s->ecn_set)
            return cfg_section_errorf(err, c, "cc",
                                      "flow groups use algorithms with different ECN marking (%s and others); "
                                      "set [ecn] kmin, kmax, pmax to choose one marking for every switch port",
                                      cc_algo_names[a]);
        scheme = a;
    }
    if (s->ecn_set && scheme < 0)
        scenario_warn(sc, "%s: [ecn] is set but no flow group uses an ECN-based algorithm (no effect)", cfg_path(c));
    for (uint32_t p = 0; p < n->n_ports; p++) {
        struct port *pt = &n->ports[p];
        if (n->nodes[pt->node].kind != NODE_SWITCH)
            continue;
        if (scheme >= 0) {
            struct ecn_marking m = s->ecn;
            if (!s->ecn_set)
                cc_registry[scheme]->marking(pt->rate_bps, s->opt[scheme], &m);
            pt->ecn_kmin = m.kmin;
            pt->ecn_kmax = m.kmax;
            pt->ecn_pmax = m.pmax;
        }
        for (int a = 0; a < CC_NALGO; a++)
            if ((used >> a & 1) && cc_registry[a]->port_setup)
                TRY(cc_registry[a]->port_setup(sc, s->opt[a], p, c, err));
    }
    return 0;
}
