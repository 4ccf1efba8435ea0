/*
 * scenario_lscc.c -- the [lscc] section: LSCC (src/cc/lscc.h) on both switch
 * ends of every long-haul link (net_link_set_longhaul), as port agents
 * (net/agent_lscc.h).  Keys and defaults: docs/config.md "[lscc]" and
 * docs/crossdc.md.  Called by scenario_build() after ccsel_bind (the agents
 * turn ECN marking off on the egress switches' other ports, which ccsel_bind
 * sets).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/scenario_sections.h"
#include "engine/lsccsel.h"
#include "dcqcn.h"
#include "net/agent_lscc.h"
#include "net/agent_lscc_int.h"

/* §III-C guideline (lscc_guide_check) for one long-haul port, as a warning:
 * the inputs the paper leaves to the deployment are taken from the run.
 *   ΔBR_max: 0.1 × the bottleneck link rate (§III-C "In our configuration,
 *     it is set to 0.1 of the link bandwidth"); ours: the slowest host link,
 *     the bottleneck of every cross-datacenter flow in crossdc;
 *   ΔQ: Qref (ours: the queue error from an empty queue to the target);
 *   M: every flow of the run (ours: an upper bound on the coexisting
 *     flows, so the upper ΔR bound warns only when it must);
 *   R_ai, T_i: the DCQCN profile of [dcqcn] at the bottleneck's rate, or
 *     its r_ai / timer overrides. */
static void guide_warn(struct scenario *sc, struct cfg *c, const struct lscc_rc_params *rcp, const char *port)
{
    const struct net *n = &sc->net;
    uint64_t slow = 0;
    for (uint32_t p = 0; p < n->n_ports; p++)
        if (n->nodes[n->ports[p].node].kind == NODE_HOST && (!slow || n->ports[p].rate_bps < slow))
            slow = n->ports[p].rate_bps;
    uint32_t m = n->n_flows;
    const struct cfg_entry *pe = cfg_find(c, "dcqcn", "profile");
    enum dcqcn_profile prof = !pe ? DCQCN_PROFILE_PAPER : !strcmp(pe->value, "hpcc_sim") ? DCQCN_PROFILE_HPCC_SIM
                            : !strcmp(pe->value, "hpcc_sim_paper") ? DCQCN_PROFILE_HPCC_SIM_PAPER : DCQCN_PROFILE_PAPER;
    struct dcqcn_params dp;
    dcqcn_params_default(&dp, slow ? slow : rcp->r_max_bps, prof);
    /* [dcqcn] r_ai / timer override the profile (tp_dcqcn.c reads and
     * checks them; a bad value is its error, so none is reported here). */
    struct cfg_err ignore;
    uint64_t v;
    if (cfg_find(c, "dcqcn", "r_ai") && !cfg_rate(c, "dcqcn", "r_ai", 0, &v, &ignore))
        dp.r_ai_bps = v;
    if (cfg_find(c, "dcqcn", "timer") && !cfg_time(c, "dcqcn", "timer", 0, &v, &ignore))
        dp.timer_ps = v;
    struct lscc_guide g = { slow / 10, rcp->q_ref_bytes, m, dp.r_ai_bps, dp.timer_ps };
    struct lscc_guide_result r;
    char why[400];
    if (lscc_guide_check(rcp, &g, &r, why, sizeof why))
        scenario_warn(sc, "%s: [lscc] port %s: the parameters are outside the section III-C guideline "
                      "(dBR_max %.1f Gb/s, dQ = qref, M = %u flows, DCQCN R_ai %.0f Mb/s, T_i %.0f us): %s",
                      cfg_path(c), port, (double)g.dbr_max_bps / 1e9, m, (double)g.r_ai_bps / 1e6,
                      (double)g.t_i_ps / 1e6, why);
}

int scenario_lscc(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    static const char *const modes[] = { "none", "longhaul", NULL };
    static const char *const locals[] = { "cnp", "int", NULL };
    int mode, local;
    TRY(cfg_enum(c, "lscc", "enable", modes, 0, &mode, err));
    TRY(cfg_enum(c, "lscc", "local", locals, 0, &local, err));   /* int: HPCC*'s direct INT (§III-D) */
    struct net *n = &sc->net;
    uint64_t period, q_ref, dr, r_min, f_unit, qs_ref, cnp_iv, long_flow, table, idle, mult = 10;
    /* Defaults for the keys come from lscc_*_params_default for each link;
     * 0 here means "the default". */
    TRY(cfg_time(c, "lscc", "period", 0, &period, err));
    TRY(cfg_bytes(c, "lscc", "q_ref", 0, &q_ref, err));
    TRY(cfg_rate(c, "lscc", "dr", 0, &dr, err));
    TRY(cfg_rate(c, "lscc", "r_min", 0, &r_min, err));
    TRY(cfg_rate(c, "lscc", "feedback_unit", 0, &f_unit, err));
    TRY(cfg_bytes(c, "lscc", "q_ref_pseudo", 0, &qs_ref, err));
    TRY(cfg_time(c, "lscc", "cnp_interval", 0, &cnp_iv, err));
    TRY(cfg_bytes(c, "lscc", "long_flow", 0, &long_flow, err));
    TRY(cfg_u64(c, "lscc", "table_size", 0, &table, err));
    TRY(cfg_time(c, "lscc", "idle", 0, &idle, err));
    const struct cfg_entry *me = cfg_find(c, "lscc", "normal_cnp_multiple");
    if (me && !strcmp(me->value, "inf"))
        mult = 0;
    else
        TRY(cfg_u64(c, "lscc", "normal_cnp_multiple", 10, &mult, err));   /* §III-B, §IV-B: 10 */
    if (me && strcmp(me->value, "inf") && (mult == 0 || mult > 1000000))
        return cfg_errorf(err, me, "must be 1..1000000 or 'inf'");
    if (long_flow > UINT32_MAX)
        return cfg_errorf(err, cfg_find(c, "lscc", "long_flow"), "must be at most 4294967295 B (TxBytes is 32 bits, Table I)");
    if (mode == 0)
        return 0;
    if (local == 1)
        for (uint32_t i = 0; i < n->n_flows; i++)
            if (n->flows[i].tp->int_telemetry && !n->flows[i].tp->direct_int)
                return cfg_errorf(err, cfg_find(c, "lscc", "local"), "local = int clears the INT of every frame "
                                  "that crosses a long-haul link, but flow %u uses %s, which takes no direct INT "
                                  "(use hpcc_star, or local = cnp)", i, n->flows[i].tp->name);
    uint32_t attached = 0;
    for (uint32_t p = 0; p < n->n_ports; p++) {
        const struct port *pt = &n->ports[p];
        if (!pt->longhaul || n->nodes[pt->node].kind != NODE_SWITCH)
            continue;
        const struct node *nd = &n->nodes[pt->node];
        /* Several long-haul ports on a switch: one pair of modules per port
         * (its own feedback, pseudo-queue and flow table; agent_lscc.c). */
        struct lscc_rc_params rcp;
        struct lscc_rl_params rlp;
        lscc_rc_params_default(&rcp, pt->rate_bps, pt->delay_ps);
        if (period) {
            rcp.period_ps = period;
            rcp.n = lscc_n_for(pt->delay_ps, period);
        }
        if (q_ref) rcp.q_ref_bytes = q_ref;
        if (dr) rcp.dr_bps = dr;
        if (f_unit) {
            rcp.f_unit_bps = f_unit;
            rcp.r_max_bps = pt->rate_bps / f_unit * f_unit;
            rcp.r_init_bps = rcp.r_max_bps;
        }
        if (r_min) rcp.r_min_bps = r_min;
        lscc_rl_params_default(&rlp, pt->rate_bps, pt->delay_ps, rcp.period_ps);
        if (qs_ref) rlp.q_ref_bytes = qs_ref;
        if (cnp_iv) rlp.cnp_interval_ps = cnp_iv;
        if (long_flow) rlp.long_flow_bytes = (uint32_t)long_flow;
        if (table) rlp.capacity = table > UINT32_MAX ? 0 : (uint32_t)table;
        if (idle) rlp.idle_ps = idle;
        rlp.normal_cnp_multiple = (uint32_t)mult;
        char why[200];
        unsigned blame = 0;
        if (lscc_rc_params_blame(&rcp, &blame, why, sizeof why) || lscc_rl_params_blame(&rlp, &blame, why, sizeof why)) {
            /* Name the first key given that set a blamed parameter; Rmax
             * and the starting rates come from the link. */
            static const struct { unsigned bits; const char *key; } keys[] = {
                { LSCC_BLAME_PERIOD | LSCC_BLAME_N, "period" }, { LSCC_BLAME_DF, "feedback_unit" },
                { LSCC_BLAME_DR, "dr" }, { LSCC_BLAME_RMIN, "r_min" }, { LSCC_BLAME_QREF, "q_ref" },
                { LSCC_BLAME_QREF_PSEUDO, "q_ref_pseudo" }, { LSCC_BLAME_CNP_INTERVAL, "cnp_interval" },
                { LSCC_BLAME_LONG_FLOW, "long_flow" }, { LSCC_BLAME_TABLE, "table_size" },
                { LSCC_BLAME_IDLE, "idle" },
            };
            const struct cfg_entry *e = NULL;
            for (size_t k = 0; k < sizeof keys / sizeof keys[0] && !e; k++)
                if (blame & keys[k].bits)
                    e = cfg_find(c, "lscc", keys[k].key);
            const char *to = n->nodes[n->ports[pt->peer].node].name;
            if (e)
                return cfg_errorf(err, e, "long-haul port %s->%s: %s", nd->name, to, why);
            return cfg_section_errorf(err, c, "lscc", "long-haul port %s->%s: %s", nd->name, to, why);
        }
        struct lscc_node *x = lscc_attach(n, p, &rcp, &rlp);
        if (!x || (local == 1 && !lscc_int_attach(n, x)) || lsccsel_add(sc, x))
            return cfg_section_errorf(err, c, "lscc", "out of memory");
        if (!attached)
            guide_warn(sc, c, &rcp, nd->name);
        attached++;
    }
    if (!attached)
        return cfg_section_errorf(err, c, "lscc", "enable = longhaul but the topology has no long-haul link "
                                  "(type = crossdc, or 'longhaul' on a topology-file link)");
    return 0;
}
