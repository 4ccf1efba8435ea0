/*
 * fcsel.c -- [flowcontrol] (docs/config.md) and the registry of flow-control
 * schemes (fcsel.h).
 */
#include "engine/fcsel.h"
#include "engine/fcsel_loopbreak.h"
#include "net/fc_loopbreak.h"
#include "engine/fcsel_gfc.h"
#include "net/fc_gfc.h"

#include "engine/deadlock.h"

#include <stdio.h>
#include <string.h>

#include "engine/fcsel_escape.h"
#include "engine/fcsel_swing.h"
#include "net/fc_escape.h"
#include "net/fc_swing.h"

/* One entry per scheme; the first is the default. */
const struct fc_scheme fc_schemes[] = {
    { "pfc", &fc_pfc, NULL, NULL },    /* IEEE 802.1Qbb only (switch.c's MMU) */
    { "escape", &fc_escape_ops, fcsel_escape_setup, NULL },                 /* Escape, dissertation ch. 4 (fc_escape.h) */
    { "loop_breaker", &fc_loop_breaker, fcsel_loop_breaker_setup, NULL },   /* Shpiner et al. HotNets'16: drop */
    { "deadlock_breaker", &fc_deadlock_breaker, fcsel_deadlock_breaker_setup, NULL }, /* same detection: extra buffer */
    { "gfc", &fc_gfc, fcsel_gfc_setup, NULL },   /* Gentle Flow Control, SIGCOMM'19 (fc_gfc.c) */
    { "swing", &fc_swing_ops, fcsel_swing_setup, NULL },  /* SWING's PFC relay, TPDS'22 (LSCC [19]; fc_swing.h) */
    { NULL, NULL, NULL, NULL },
};

const struct fc_scheme *fcsel_by_ops(const struct fc_ops *ops)
{
    for (const struct fc_scheme *k = fc_schemes; k->name; k++)
        if (k->ops == ops)
            return k;
    return NULL;
}

const struct fc_scheme *fcsel_find(const char *name)
{
    for (const struct fc_scheme *k = fc_schemes; k->name; k++)
        if (!strcmp(k->name, name))
            return k;
    return NULL;
}

int fcsel_build(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    const struct cfg_entry *e = cfg_find(c, "flowcontrol", "scheme");
    const struct fc_scheme *k = &fc_schemes[0];
    if (e) {
        k = fcsel_find(e->value);
        if (!k) {
            char list[256];
            size_t len = 0;
            list[0] = 0;
            for (const struct fc_scheme *j = fc_schemes; j->name && len < sizeof list; j++)
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", j->name);
            return cfg_errorf(err, e, "unknown scheme '%s' (known: %s)", e->value, list);
        }
    }
    sc->fc_section = cfg_has_section(c, "flowcontrol");
    if (deadlock_build(sc, c, err))
        return -1;
    if (k->setup)
        return k->setup(sc, c, k, err);
    for (uint32_t i = 0; i < sc->net.n_sws; i++)
        fc_install(&sc->net, &sc->net.sws[i], k->ops, NULL);
    return 0;
}

/* Flows that saw out-of-order arrivals. */
static uint32_t ooo_flows(const struct net *n)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n->n_flows; i++)
        k += n->flows[i].out_of_order != 0;
    return k;
}

void fcsel_json(const struct scenario *sc, FILE *f)
{
    const struct net *n = &sc->net;
    if (sc->fc_section)
        fprintf(f, ",\n  \"in_order\": {\"out_of_order\": %llu, \"flows_out_of_order\": %u}",
                (unsigned long long)n->out_of_order, ooo_flows(n));
    deadlock_json(sc, f);
    if (sc->fc_json)                    /* the scheme's own counters (set by its setup) */
        sc->fc_json(sc, f);
}

void fcsel_print(const struct scenario *sc, FILE *out)
{
    const struct net *n = &sc->net;
    if (sc->fc_section)
        fprintf(out, "  in-order: %llu data frames arrived out of order (%u flows)\n",
                (unsigned long long)n->out_of_order, ooo_flows(n));
    deadlock_print(sc, out);
    if (sc->fc_print)
        sc->fc_print(sc, out);
}
