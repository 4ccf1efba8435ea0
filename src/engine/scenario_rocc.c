/*
 * scenario_rocc.c -- the [rocc] section: which switch egress ports run a
 * RoCC congestion point (CP), each CP's parameters (the per-link defaults
 * of rocc_cp_params_default() with the user's overrides), its flow table,
 * and the reaction points' fast-recovery timer.  Keys and defaults:
 * docs/config.md and docs/rocc.md.  Called by scenario_build() (scenario.c)
 * once the flows are known.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/scenario_sections.h"
#include "net/agent_rocc.h"

/* ---------- RoCC ---------- */

struct rocc_over {               /* [rocc] keys the user set (0 = per-link default) */
    uint64_t period, q_ref, q_mid, q_max, f_min, f_max, f_init, q_unit, f_unit;
    double alpha, beta;
    int has_alpha, has_beta;
    int md_qmax;                 /* enum rocc_cp_md_qmax */
    int autotune;                /* [rocc] autotune, default true */
};

static int rocc_params_for(struct scenario *sc, struct cfg *c, const struct rocc_over *o, uint32_t port,
                           struct rocc_cp_params *p, struct cfg_err *err)
{
    rocc_cp_params_default(p, sc->net.ports[port].rate_bps);
    /* A new resolution keeps the defaults' meaning: thresholds stay the same
     * bytes and rates, expressed in the new units. */
    if (o->q_unit) {
        p->q_ref = (uint32_t)((uint64_t)p->q_ref * p->q_unit_bytes / o->q_unit);
        p->q_mid = (uint32_t)((uint64_t)p->q_mid * p->q_unit_bytes / o->q_unit);
        p->q_max = (uint32_t)((uint64_t)p->q_max * p->q_unit_bytes / o->q_unit);
        p->q_unit_bytes = (uint32_t)o->q_unit;
    }
    if (o->f_unit) {
        uint64_t nu = o->f_unit / 1000000;
        p->f_min = (uint32_t)((uint64_t)p->f_min * p->f_unit_mbps / nu);
        p->f_max = (uint32_t)((uint64_t)p->f_max * p->f_unit_mbps / nu);
        p->f_unit_mbps = (uint32_t)nu;
    }
    if (o->period) p->period_ps = o->period;
    if (o->q_ref) p->q_ref = (uint32_t)(o->q_ref / p->q_unit_bytes);
    if (o->q_mid) p->q_mid = (uint32_t)(o->q_mid / p->q_unit_bytes);
    if (o->q_max) p->q_max = (uint32_t)(o->q_max / p->q_unit_bytes);
    uint64_t unit = (uint64_t)p->f_unit_mbps * 1000000;
    if (o->f_max) p->f_max = (uint32_t)(o->f_max / unit);
    if (o->f_min) p->f_min = (uint32_t)(o->f_min / unit);
    p->f_init = o->f_init ? (uint32_t)(o->f_init / unit) : p->f_max;
    if (o->has_alpha) p->alpha_q16 = (uint32_t)(o->alpha * 65536.0 + 0.5);
    if (o->has_beta) p->beta_q16 = (uint32_t)(o->beta * 65536.0 + 0.5);
    p->md_qmax = (uint32_t)o->md_qmax;
    p->autotune_off = o->autotune ? 0 : 1;
    char why[160];
    if (rocc_cp_params_check(p, why, sizeof why)) {
        const struct net *n = &sc->net;
        /* Point at the first key the user set that the reason names. */
        static const char *const keys[] = { "q_ref", "q_mid", "q_max", "f_min", "f_max", "f_init",
                                            "alpha", "beta", "period", "q_unit", "f_unit", NULL };
        const struct cfg_entry *e = NULL;
        for (int i = 0; keys[i] && !e; i++)
            if (strstr(why, keys[i]))
                e = cfg_find(c, "rocc", keys[i]);
        if (e)
            return cfg_errorf(err, e, "invalid for port %s->%s: %s", n->nodes[n->ports[port].node].name,
                              n->nodes[n->ports[n->ports[port].peer].node].name, why);
        return cfg_section_errorf(err, c, "rocc", "invalid RoCC parameters for port %s->%s: %s",
                                  n->nodes[n->ports[port].node].name,
                                  n->nodes[n->ports[n->ports[port].peer].node].name, why);
    }
    return 0;
}

int scenario_rocc(struct scenario *sc, struct cfg *c, int any_rocc, struct cfg_err *err)
{
    struct rocc_over o;
    memset(&o, 0, sizeof o);
    TRY(cfg_time(c, "rocc", "period", 0, &o.period, err));
    TRY(cfg_bytes(c, "rocc", "q_ref", 0, &o.q_ref, err));
    TRY(cfg_bytes(c, "rocc", "q_mid", 0, &o.q_mid, err));
    TRY(cfg_bytes(c, "rocc", "q_max", 0, &o.q_max, err));
    TRY(cfg_rate(c, "rocc", "f_min", 0, &o.f_min, err));
    TRY(cfg_rate(c, "rocc", "f_max", 0, &o.f_max, err));
    TRY(cfg_rate(c, "rocc", "f_init", 0, &o.f_init, err));
    TRY(cfg_bytes(c, "rocc", "q_unit", 0, &o.q_unit, err));
    TRY(cfg_rate(c, "rocc", "f_unit", 0, &o.f_unit, err));
    if (o.f_unit && (o.f_unit % 1000000 || o.f_unit > 4000000000000ull))
        return cfg_errorf(err, cfg_find(c, "rocc", "f_unit"), "f_unit must be a whole number of Mbps");
    o.has_alpha = cfg_find(c, "rocc", "alpha") != NULL;
    o.has_beta = cfg_find(c, "rocc", "beta") != NULL;
    TRY(cfg_double(c, "rocc", "alpha", 0, &o.alpha, err));
    TRY(cfg_double(c, "rocc", "beta", 0, &o.beta, err));
    if ((o.has_alpha && !(o.alpha > 0 && o.alpha < 256)) || (o.has_beta && !(o.beta > 0 && o.beta < 256)))
        return cfg_section_errorf(err, c, "rocc", "alpha and beta must be in (0, 256)");
    int cnp_at_fmax;
    TRY(cfg_bool(c, "rocc", "cnp_at_fmax", 0, &cnp_at_fmax, err));
    /* Where Alg. 1's rate is computed (RoCC §3.6, docs/rocc.md): at the CP
     * (RATE CNPs), or at the host from HOST_FULL / HOST_REG CNPs.  Order =
     * enum rocc_cnp_form. */
    static const char *const rate_at_names[] = { "switch", "host_full", "host_registry", NULL };
    int rate_at;
    TRY(cfg_enum(c, "rocc", "rate_at", rate_at_names, 0, &rate_at, err));
    /* The host forms' CNPs are longer (130 / 98 B frames vs 90): 'actual'
     * sends them so; 'rate_form' models them at the RATE form's 90 B, which
     * isolates the computation (docs/rocc.md, "Rate computation at the host"). */
    static const char *const size_names[] = { "actual", "rate_form", NULL };
    int cnp_size;
    TRY(cfg_enum(c, "rocc", "cnp_size", size_names, 0, &cnp_size, err));
    /* Qmax-branch MD: the paper's F = Fmin, or F/2 (docs/rocc.md, several
     * saturated CPs in series). Order = enum rocc_cp_md_qmax. */
    static const char *const mdq[] = { "fmin", "half", NULL };
    TRY(cfg_enum(c, "rocc", "md_qmax", mdq, 0, &o.md_qmax, err));
    /* AUTO_TUNE on (Alg. 1, the paper) or off (fixed α̃, β̃; docs/stability.md). */
    TRY(cfg_bool(c, "rocc", "autotune", 1, &o.autotune, err));
    /* Order = kmap below; §3.4's (1), (2), (4), then (3) and (5). */
    static const char *const kinds[] = { "queue", "bounded", "elephant", "afd", "bubble", NULL };
    int kind;
    TRY(cfg_enum(c, "rocc", "flow_table", kinds, 0, &kind, err));
    uint64_t tsize, max_age, sample, eleph;
    TRY(cfg_u64(c, "rocc", "table_size", 0, &tsize, err));
    if (tsize > (1u << 24))
        return cfg_errorf(err, cfg_find(c, "rocc", "table_size"), "table_size must be at most 16777216 entries");
    TRY(cfg_time(c, "rocc", "max_age", 0, &max_age, err));
    TRY(cfg_u64(c, "rocc", "sample_one_in", 20, &sample, err));
    TRY(cfg_u64(c, "rocc", "elephant_count", 2, &eleph, err));
    uint64_t shadow;
    TRY(cfg_u64(c, "rocc", "shadow_size", ROCC_FT_AFD_SHADOW_DEFAULT, &shadow, err));
    if (shadow == 0 || shadow > (1u << 20))
        return cfg_errorf(err, cfg_find(c, "rocc", "shadow_size"), "shadow_size must be in 1..1048576 packets");
    if (kind == 4 && tsize > ROCC_FT_BUBBLE_SIZE_MAX)
        return cfg_errorf(err, cfg_find(c, "rocc", "table_size"), "with flow_table = bubble, table_size must be "
                          "at most %u entries (the list is searched linearly)", ROCC_FT_BUBBLE_SIZE_MAX);
    uint64_t recovery = 0;
    const struct cfg_entry *rce = cfg_find(c, "rocc", "recovery");
    if (rce && strcmp(rce->value, "auto") != 0) {
        TRY(cfg_time(c, "rocc", "recovery", 0, &recovery, err));
        if (recovery == 0)
            return cfg_errorf(err, rce, "must be > 0 (or 'auto')");
    }
    rocc_rp_params_default(&sc->net.rp_params, 0);
    if (o.f_unit)
        sc->net.rp_params.f_unit_mbps = (uint32_t)(o.f_unit / 1000000);

    /* Which egress ports run a CP. */
    const struct cfg_entry *en = cfg_find(c, "rocc", "enable");
    const char *ev = en ? en->value : "auto";
    uint32_t *list = NULL;
    int nlist = 0, all = 0;
    if (!strcmp(ev, "auto"))
        all = any_rocc;
    else if (!strcmp(ev, "all"))
        all = 1;
    else if (strcmp(ev, "none") != 0) {
        /* "S0->S1 sw->r0": ports named FROM->TO */
        char buf[CFG_MAX_LINE + 1];
        snprintf(buf, sizeof buf, "%s", ev);
        list = malloc(sc->net.n_ports * sizeof *list);
        if (!list)
            return cfg_errorf(err, en, "out of memory");
        for (char *t = strtok(buf, " ,"); t; t = strtok(NULL, " ,")) {
            char *arrow = strstr(t, "->");
            uint32_t a = NONE32, b = NONE32, nth = 1;
            if (arrow) {
                *arrow = 0;
                char *hash = strchr(arrow + 2, '#');     /* parallel links: A->B#2 */
                if (hash) {
                    *hash = 0;
                    nth = (uint32_t)strtoul(hash + 1, NULL, 10);
                }
                a = scenario_node(sc, t);
                b = scenario_node(sc, arrow + 2);
            }
            uint32_t p = NONE32;
            if (a != NONE32 && b != NONE32 && nth >= 1) {
                const struct node *nd = &sc->net.nodes[a];
                for (uint32_t k = 0, seen = 0; k < nd->n_ports && p == NONE32; k++)
                    if (sc->net.ports[sc->net.ports[nd->first_port + k].peer].node == b && ++seen == nth)
                        p = nd->first_port + k;
            }
            if (p == NONE32 || sc->net.nodes[a].kind != NODE_SWITCH) {
                free(list);
                return cfg_errorf(err, en, "'%s%s%s' is not a switch egress port (write SWITCH->NEIGHBOUR)",
                                  t, arrow ? "->" : "", arrow ? arrow + 2 : "");
            }
            if (nlist < (int)sc->net.n_ports)
                list[nlist++] = p;
        }
    }
    if (!any_rocc && cfg_has_section(c, "rocc") && strcmp(ev, "all") != 0 && (!en || strcmp(ev, "auto") == 0))
        scenario_warn(sc, "%s: [rocc] is set but no flow group uses rocc (its keys have no effect)", cfg_path(c));
    int rc = 0;
    simtime_t max_period = 0;
    for (uint32_t p = 0; p < sc->net.n_ports && rc == 0; p++) {
        if (sc->net.nodes[sc->net.ports[p].node].kind != NODE_SWITCH)
            continue;
        int on = all;
        for (int i = 0; i < nlist && !on; i++)
            on = list[i] == p;
        if (!on)
            continue;
        struct rocc_cp_params prm;
        if (rocc_params_for(sc, c, &o, p, &prm, err)) {
            rc = -1;
            break;
        }
        struct rocc_ft_params ftp;
        uint64_t cap = tsize;
        if (cap == 0) {
            /* Two slots per flow of the run (at most 2^20): the QUEUE table
             * then never overflows. */
            uint64_t flows = sc->net.n_flows * 2ull;
            cap = flows < 64 ? 64 : flows;
            if (cap > (1u << 20))
                cap = 1u << 20;
        }
        uint32_t cap2 = 1;
        while (cap2 < cap)
            cap2 <<= 1;
        static const enum rocc_ft_kind kmap[] = { ROCC_FT_QUEUE, ROCC_FT_BOUNDED, ROCC_FT_ETRAP, ROCC_FT_AFD,
                                                  ROCC_FT_BUBBLE };
        if (kmap[kind] == ROCC_FT_AFD) {
            /* The table holds at most shadow_size flows: size it for that
             * (load <= 50%), whatever table_size says. */
            cap2 = 1;
            while (cap2 < 2 * shadow)
                cap2 <<= 1;
        } else if (kmap[kind] == ROCC_FT_BUBBLE) {
            cap2 = (uint32_t)(tsize ? tsize : ROCC_FT_BUBBLE_SIZE_DEFAULT);   /* any size */
        }
        rocc_ft_params_default(&ftp, kmap[kind], cap2, prm.period_ps);
        ftp.shadow = (uint32_t)shadow;
        if (max_age)
            ftp.max_age_ps = max_age;
        ftp.sample_one_in = (uint32_t)(sample ? sample : 1);
        ftp.elephant_count = (uint32_t)(eleph ? eleph : 1);
        {   /* the port's own seed (core/rng.h): not moved by other switches or CPs */
            const struct port *pt = &sc->net.ports[p];
            char pname[3 * sizeof sc->net.nodes[0].name + 16];
            snprintf(pname, sizeof pname, "%s->%s#%u", sc->net.nodes[pt->node].name,
                     sc->net.nodes[sc->net.ports[pt->peer].node].name, p - sc->net.nodes[pt->node].first_port);
            ftp.seed = rng_stream_seed(sc->seed, "rocc_ft", pname);
        }
        if (prm.period_ps > max_period)
            max_period = prm.period_ps;
        uint32_t id = rocc_agent_attach(&sc->net, p, &prm, &ftp, cnp_at_fmax, rate_at, 0);
        if (id == NONE32) {
            cfg_section_errorf(err, c, "rocc", "cannot create the CP (out of memory?)");
            rc = -1;
        } else if (cnp_size == 1) {
            struct rocc_agent *a = sc->net.agents[id].state;
            a->cnp_bytes = rocc_cnp_frame_bytes(ROCC_CNP_FORM_RATE);
        }
    }
    free(list);
    if (rc == 0 && rate_at == ROCC_CNP_FORM_HOST_REG && rocc_registry_build(&sc->net))
        rc = cfg_section_errorf(err, c, "rocc", "cannot build the hosts' CP registry (out of memory?)");
    /* RP fast-recovery timer.  The authors' RP doubles after 55 us without a
     * CNP, with T = 40 us: 1.375 T.  'auto' keeps that ratio to the longest
     * CP period of the run, so a CP with T = 100 us (§6.2) is not undercut by
     * doublings between its CNPs.  */
    if (recovery == 0)
        recovery = max_period ? max_period * 11 / 8 : 55 * PS_PER_US;
    sc->net.rp_params.recovery_ps = recovery;
    return rc;
}
