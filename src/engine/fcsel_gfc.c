/*
 * fcsel_gfc.c -- the setup of the flow-control scheme `gfc` (fcsel.h's
 * registry entry): reads [gfc] start, stages, hysteresis and at_bm
 * (docs/escape.md "GFC"), checks them against every switch's XOFF
 * thresholds, and installs src/net/fc_gfc.c on every switch and, for the
 * rate feedback they receive, on the NICs.
 */
#include "engine/fcsel_gfc.h"

#include <stdlib.h>
#include <string.h>

#include "gfc.h"
#include "net/fc_gfc.h"

#define S "gfc"

/* Hosts take GFC frames too (the sender's NIC is the upstream of a switch's
 * host-facing ingress). */
static int host_frame(struct net *n, void *state, uint32_t port, const struct packet *p)
{
    return fc_gfc_apply(n, state, port, p);
}

/* Each switch's state holds a reference; the last destroy frees the run. */
static void run_release(void *state)
{
    struct fc_gfc_run *r = state;
    if (r && --r->refs == 0) {
        fc_gfc_run_free(r);
        free(r);
    }
}

/* Over several ranks (scenario.fc_merge): every rank counted the frames its
 * own switches sent and its own ports applied. */
static void gfc_merge(struct scenario *sc, void (*reduce)(uint64_t *v, size_t k, int max))
{
    struct fc_gfc_run *r = sc->net.fc_host_state;
    uint64_t v[3] = { r->st.fb_sent, r->st.fb_zero, r->st.fb_rcvd }, m = r->st.max_level;
    reduce(v, 3, 0);
    reduce(&m, 1, 1);
    r->st.fb_sent = v[0];
    r->st.fb_zero = v[1];
    r->st.fb_rcvd = v[2];
    r->st.max_level = (uint32_t)m;
}

int fcsel_gfc_setup(struct scenario *sc, struct cfg *c, const struct fc_scheme *self, struct cfg_err *err)
{
    (void)self;
    struct net *n = &sc->net;
    struct fc_gfc_cfg g = { .start_pct = 50, .stages = 8 };
    const struct cfg_entry *es = cfg_find(c, S, "start");
    const struct cfg_entry *en = cfg_find(c, S, "stages");
    const struct cfg_entry *eh = cfg_find(c, S, "hysteresis");
    if (es) {
        size_t len = strlen(es->value);
        if (len && es->value[len - 1] == '%') {
            double v;
            if (cfg_percent(c, S, "start", 0.5, &v, err))
                return -1;
            if (!(v >= 0 && v < 1) || v * 100 != (double)(uint32_t)(v * 100 + 0.5))
                return cfg_errorf(err, es, "start must be a whole percentage in 0%%..99%% of the XOFF threshold, or a size");
            g.start_pct = (uint32_t)(v * 100 + 0.5);
        } else if (cfg_bytes(c, S, "start", 0, &g.start_bytes, err)) {
            return -1;
        } else if (g.start_bytes == 0) {
            g.start_pct = 0;                 /* 0 bytes: the stages start at once */
        }
    }
    uint64_t stages = 8;
    if (cfg_u64(c, S, "stages", 8, &stages, err))
        return -1;
    if (stages < 1 || stages > GFC_MAX_STAGES)
        return cfg_errorf(err, en, "stages must be 1..%u", GFC_MAX_STAGES);
    g.stages = (uint32_t)stages;
    if (eh && strcmp(eh->value, "auto") != 0) {
        if (cfg_bytes(c, S, "hysteresis", 0, &g.hyst_bytes, err))
            return -1;
        if (g.hyst_bytes > GFC_MAX_BYTES)
            return cfg_errorf(err, eh, "hysteresis must be below 2^48 bytes");
        g.hyst_set = 1;
    }
    /* at_bm: what level N+1 (occupancy >= Bm) sends.  "stop" (rate 0) is our
     * model's reading of the mapping's zero; "last_stage" keeps level N's rate
     * C/(N+1) so that the rate never reaches 0 -- a diagnostic what-if (ours,
     * not from the GFC paper, whose text we could not read): it is not
     * lossless once the counter passes Bm + headroom (docs/escape.md "GFC"). */
    static const char *const at_bm_names[] = { "stop", "last_stage", NULL };
    if (cfg_enum(c, S, "at_bm", at_bm_names, 0, &g.at_bm_last, err))
        return -1;
    if (!sc->lossless || n->n_sws == 0)
        return cfg_errorf(err, cfg_find(c, "flowcontrol", "scheme"),
                          "gfc needs [network] mode = lossless and a finite buffer (it replaces PFC's XOFF/XON)");
    /* Static thresholds: the staircase must fit under every XOFF. */
    for (uint32_t i = 0; i < n->n_sws; i++) {
        const struct sw *s = &n->sws[i];
        if (!s->cfg.pfc || s->cfg.buffer_bytes == 0)
            return cfg_errorf(err, cfg_find(c, "flowcontrol", "scheme"),
                              "gfc needs [network] mode = lossless and a finite buffer (switch %s has none)",
                              n->nodes[s->node].name);
        if (s->cfg.dynamic)
            continue;                        /* dynamic: squeezed at run time (fc_gfc_params) */
        for (uint32_t k = 0; k < n->nodes[s->node].n_ports; k++) {
            uint64_t thr = s->xoff[k];
            uint64_t start = g.start_bytes ? g.start_bytes : thr / 100 * g.start_pct + thr % 100 * g.start_pct / 100;
            if (start >= thr || thr - start < g.stages)
                return cfg_errorf(err, es ? es : en,
                                  "start %llu B + %u stages does not fit under the XOFF threshold %llu B of "
                                  "switch %s port %u", (unsigned long long)start, g.stages,
                                  (unsigned long long)thr, n->nodes[s->node].name, k);
        }
    }
    struct fc_gfc_run *r = calloc(1, sizeof *r);
    if (!r || fc_gfc_run_init(r, n, &g, n->sws[0].cfg.lossless_mask)) {
        free(r);
        return cfg_section_errorf(err, c, S, "out of memory");
    }
    r->release = run_release;
    for (uint32_t i = 0; i < n->n_sws; i++) {
        r->refs++;
        if (fc_gfc_install(n, &n->sws[i], r)) {
            run_release(r);
            return cfg_section_errorf(err, c, S, "out of memory");
        }
    }
    n->fc_host_frame = host_frame;
    n->fc_host_state = r;
    sc->fc_json = fcsel_gfc_json;
    sc->fc_print = fcsel_gfc_print;
    sc->fc_merge = gfc_merge;
    return 0;
}

void fcsel_gfc_json(const struct scenario *sc, FILE *f)
{
    struct fc_gfc_stats st;
    if (fc_gfc_stats(&sc->net, &st))
        return;
    fprintf(f, ",\n  \"gfc\": {\"feedback_sent\": %llu, \"zero_rate_sent\": %llu, \"feedback_applied\": %llu, "
            "\"max_level\": %u, \"top_level\": %u}",
            (unsigned long long)st.fb_sent, (unsigned long long)st.fb_zero, (unsigned long long)st.fb_rcvd,
            st.max_level, st.stages + 1);
}

void fcsel_gfc_print(const struct scenario *sc, FILE *out)
{
    struct fc_gfc_stats st;
    if (fc_gfc_stats(&sc->net, &st))
        return;
    fprintf(out, "  GFC: %llu feedback frames sent (%llu at rate 0), %llu applied; highest level %u of %u\n",
            (unsigned long long)st.fb_sent, (unsigned long long)st.fb_zero, (unsigned long long)st.fb_rcvd,
            st.max_level, st.stages + 1);
}
