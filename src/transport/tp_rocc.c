/*
 * tp_rocc.c -- RoCC's reaction point (RoCC §3.5, Alg. 2) at the NIC.
 *
 * CNPs carry F from the CPs on the flow's path; the RP keeps the lowest
 * rate any CP sent and recovers when CNPs stop.  Parameters are the
 * scenario's template n->rp_params ([rocc], scenario_rocc.c) with Rmax set
 * from the flow's NIC, so f->cc_prm stays NULL.  The CPs themselves are
 * switch port agents (net/agent_rocc.c) that scenario_rocc.c builds.
 */
#include "engine/ccreg.h"
#include "net/net.h"

static struct rocc_rp_params rp_params_for(const struct net *n, const struct flow *f)
{
    struct rocc_rp_params p = n->rp_params;
    p.r_max_mbps = flow_line_rate(n, f) / 1000000u;
    return p;
}

static void rocc_start(struct net *n, struct flow *f)
{
    (void)n;
    rocc_rp_init(&f->cc.rocc);
}

static void rocc_sync(struct net *n, struct flow *f)
{
    struct rocc_rp_params p = rp_params_for(n, f);
    flow_set_cc_rate(n, f, rocc_rp_rate_bps(&f->cc.rocc, &p));
    flow_set_cc_deadline(n, f, f->cc.rocc.deadline_ps);
}

static void rocc_on_cnp(struct net *n, struct flow *f, const struct packet *p)
{
    if (p->cnp_kind != CNP_ROCC)
        return;
    struct rocc_rp_params prm = rp_params_for(n, f);
    int accepted = rocc_rp_on_cnp(&f->cc.rocc, &prm, p->rate_units, p->cp_id, n->el.now);
    net_rp_trace(n, f, 0, p->cp_id, p->rate_units, accepted);
    if (accepted)
        rocc_sync(n, f);
}

static void rocc_on_timer(struct net *n, struct flow *f)
{
    struct rocc_rp_params prm = rp_params_for(n, f);
    int due = f->cc.rocc.limited && n->el.now >= f->cc.rocc.deadline_ps;
    rocc_rp_on_timer(&f->cc.rocc, &prm, n->el.now);
    if (due)
        net_rp_trace(n, f, 1, ROCC_CP_NONE, 0, 0);
    rocc_sync(n, f);
}

static const struct transport_ops transport_rocc = {
    .name = "rocc", .start = rocc_start, .on_cnp = rocc_on_cnp, .on_timer = rocc_on_timer,
};

const struct cc_algo cc_algo_rocc = { .name = "rocc", .tp = &transport_rocc };

/* No congestion control: the flow sends at its application or line rate. */
const struct cc_algo cc_algo_none = { .name = "none", .tp = &transport_line };
