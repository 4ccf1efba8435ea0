/*
 * fcsel_loopbreak.c -- [loop_breaker] / [deadlock_breaker] (docs/config.md,
 * docs/escape.md "Loop Breaker and Deadlock Breaker"): read the detector's
 * parameters and install the scheme on every switch.
 */
#include "engine/fcsel_loopbreak.h"

#include "core/units.h"
#include "net/fc_loopbreak.h"


/* The largest bandwidth-delay product of a link between two switches (the
 * loops' links), for the DLB grant default; any link if there is none. */
static void loop_link(const struct net *n, uint64_t *rate, uint64_t *delay)
{
    double best = -1;
    *rate = 40000000000ull;
    *delay = PS_PER_US;
    for (int pass = 0; pass < 2 && best < 0; pass++)
        for (uint32_t l = 0; l < n->n_links; l++) {
            const struct link_spec *k = &n->links[l];
            if (pass == 0 && (n->nodes[k->a].kind != NODE_SWITCH || n->nodes[k->b].kind != NODE_SWITCH))
                continue;
            double bdp = (double)k->rate * (double)k->delay;
            if (bdp > best) {
                best = bdp;
                *rate = k->rate;
                *delay = k->delay;
            }
        }
}

/* Over several ranks (scenario.fc_merge). */
static void lb_merge(struct scenario *sc, void (*reduce)(uint64_t *v, size_t k, int max))
{
    fc_lb_merge(&sc->net, reduce);
}

static int setup(struct scenario *sc, struct cfg *c, const struct fc_scheme *self, enum lb_mode mode,
                 struct cfg_err *err)
{
    struct net *n = &sc->net;
    const char *sec = self->name;
    uint64_t rate, delay;
    loop_link(n, &rate, &delay);
    uint32_t mtu_frame = n->cfg.mtu_payload + ROCE_DATA_OVERHEAD;
    struct lb_params p;
    lb_default_params(&p, mode, rate, delay, mtu_frame);
    uint64_t hops = p.max_hops, grant = p.grant_bytes;
    TRY(cfg_time(c, sec, "suspect_time", p.suspect_ps, &p.suspect_ps, err));
    TRY(cfg_time(c, sec, "tick", p.tick_ps, &p.tick_ps, err));
    /* token_period and holdoff follow suspect_time unless given */
    TRY(cfg_time(c, sec, "token_period", p.suspect_ps, &p.token_period_ps, err));
    TRY(cfg_time(c, sec, "holdoff", p.suspect_ps, &p.holdoff_ps, err));
    TRY(cfg_u64(c, sec, "max_hops", hops, &hops, err));
    if (hops < 2 || hops > 255)
        return cfg_errorf(err, cfg_find(c, sec, "max_hops"), "max_hops must be 2..255");
    p.max_hops = (uint8_t)hops;
    if (mode == LB_MODE_BUFFER) {
        TRY(cfg_bytes(c, sec, "extra_buffer", grant, &grant, err));
        if (grant == 0 || grant > UINT32_MAX)
            return cfg_errorf(err, cfg_find(c, sec, "extra_buffer"), "extra_buffer must be 1 B .. 4 GB");
        p.grant_bytes = (uint32_t)grant;
        TRY(cfg_time(c, sec, "extra_time", p.suspect_ps, &p.grant_ps, err));
    }
    const char *why = NULL;
    if (lb_check_params(&p, &why) != 0) {
        const struct cfg_entry *e = cfg_find(c, sec, why);
        if (e)
            return cfg_errorf(err, e, "must be > 0");
        return cfg_section_errorf(err, c, sec, "%s must be > 0", why);
    }
    if (!sc->lossless)
        return cfg_section_errorf(err, c, "flowcontrol", "scheme %s needs a lossless fabric (PFC)", sec);
    /* LB drops frames by design: they are recovered end to end, by NAK-
     * triggered go-back-N and, for a tail drop, the retransmission timeout,
     * which a lossless run has off unless [network] rto is given: the HPCC
     * simulator's 500 us then, as for [events] link failures. */
    if (mode == LB_MODE_DROP && n->cfg.rto_ps == 0 && !cfg_find(c, "network", "rto"))
        n->cfg.rto_ps = 500 * PS_PER_US;
    for (uint32_t i = 0; i < n->n_sws; i++) {
        struct sw *s = &n->sws[i];
        void *st = fc_lb_new(n, s, &p);
        if (!st)
            return cfg_section_errorf(err, c, "flowcontrol", "scheme %s: out of memory (or a switch with more "
                                      "than %u ports)", sec, LB_MAX_PORTS);
        fc_install(n, s, self->ops, st);
        fc_timer_arm(n, s, n->el.now + p.tick_ps);
    }
    sc->fc_merge = lb_merge;
    cfg_section_done(c, sec);
    return 0;
}

int fcsel_loop_breaker_setup(struct scenario *sc, struct cfg *c, const struct fc_scheme *self, struct cfg_err *err)
{
    return setup(sc, c, self, LB_MODE_DROP, err);
}

int fcsel_deadlock_breaker_setup(struct scenario *sc, struct cfg *c, const struct fc_scheme *self,
                                 struct cfg_err *err)
{
    return setup(sc, c, self, LB_MODE_BUFFER, err);
}

static const char *lb_scheme_name(const struct net *n)
{
    for (uint32_t i = 0; i < n->n_sws; i++)
        if (n->sws[i].fc == &fc_loop_breaker || n->sws[i].fc == &fc_deadlock_breaker)
            return n->sws[i].fc->name;
    return "";
}

void fcsel_loopbreak_json(FILE *f, const struct net *n)
{
    struct fc_lb_totals t;
    fc_lb_totals(n, &t);
    if (t.switches == 0)
        return;
    fprintf(f, "  \"loop_breaker\": {\"scheme\": \"%s\", \"switches\": %u, \"loops\": %llu, ", lb_scheme_name(n),
            t.switches, (unsigned long long)t.loops);
    if (t.loops)
        fprintf(f, "\"first_loop_s\": %.9g, \"last_loop_s\": %.9g, ", (double)t.first_loop_ps / 1e12,
                (double)t.last_loop_ps / 1e12);
    else
        fprintf(f, "\"first_loop_s\": null, \"last_loop_s\": null, ");
    fprintf(f, "\"tokens\": {\"originated\": %llu, \"forwarded\": %llu, \"dead_end\": %llu, \"suppressed\": %llu, "
            "\"expired\": %llu, \"malformed\": %llu, \"from_host\": %llu}, ",
            (unsigned long long)t.originated, (unsigned long long)t.forwarded, (unsigned long long)t.dead_end,
            (unsigned long long)t.suppressed, (unsigned long long)t.expired, (unsigned long long)t.malformed,
            (unsigned long long)t.refused_host);
    fprintf(f, "\"drops\": %llu, \"drop_bytes\": %llu, \"grants\": %llu, \"release_done\": %llu, "
            "\"release_refused\": %llu},\n", (unsigned long long)t.drops, (unsigned long long)t.drop_bytes,
            (unsigned long long)t.grants, (unsigned long long)t.release_done, (unsigned long long)t.release_refused);
}

void fcsel_loopbreak_tsv(FILE *f, const struct net *n)
{
    struct fc_lb_totals t;
    fc_lb_totals(n, &t);
    if (t.switches == 0)
        return;
    fprintf(f, "lb_loops\t%llu\nlb_drops\t%llu\nlb_grants\t%llu\n", (unsigned long long)t.loops,
            (unsigned long long)t.drops, (unsigned long long)t.grants);
}

void fcsel_loopbreak_print(FILE *f, const struct net *n)
{
    struct fc_lb_totals t;
    fc_lb_totals(n, &t);
    if (t.switches == 0)
        return;
    fprintf(f, "%s: %llu loops confirmed", lb_scheme_name(n), (unsigned long long)t.loops);
    if (t.loops)
        fprintf(f, " (first at %.6g ms, last at %.6g ms)", (double)t.first_loop_ps / 1e9,
                (double)t.last_loop_ps / 1e9);
    fprintf(f, ", %llu tokens sent, %llu forwarded, %llu refused", (unsigned long long)t.originated,
            (unsigned long long)t.forwarded, (unsigned long long)(t.malformed + t.refused_host));
    if (t.drops || n->fc_drops)
        fprintf(f, ", %llu frames dropped to break loops", (unsigned long long)t.drops);
    if (t.grants)
        fprintf(f, ", %llu buffer grants", (unsigned long long)t.grants);
    fprintf(f, "\n");
}
