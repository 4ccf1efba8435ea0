/*
 * transport.c -- congestion control at the NIC: the glue between a flow and
 * its librocc algorithm.
 *
 * Each transport maps NIC events to the algorithm's pure functions and the
 * algorithm's outputs back to the flow: the pacing rate (flow_set_cc_rate),
 * the window (f->window, 0 = none) and the one timer deadline
 * (f->cc_deadline, armed through flow_timer_arm).  Parameters live in the
 * scenario, one block per (algorithm, NIC speed); f->cc_prm points at it.
 *   rocc   RoCC RP (Alg. 2): CNPs carry F from the CPs on the path
 *   hpcc   HPCC: INT stamped by switches, echoed in ACKs; window + pacing
 *   timely TIMELY / patched TIMELY: RTT from the echoed send timestamp
 *   dctcp  DCTCP: ECE echoed in ACKs; rate-based (HPCC simulator) or window
 *   qcn    QCN RP: quantized feedback from switch CPs, byte counter + timer
 *   dcqcn  DCQCN RP (paper or HPCC-simulator profile); the receiver is the
 *          NP: CNPs for ECN-marked packets, at most one per np_interval
 *   dcqcn_bcm  Broadcom DCQCN-p / DCQCN-d (RP per control period)
 */
#include "net/net.h"

static void sync_timer(struct net *n, struct flow *f, uint64_t deadline)
{
    f->cc_deadline = deadline;
    flow_timer_arm(n, flow_index(n, f));
}

/* ---- no congestion control ---- */

static void line_start(struct net *n, struct flow *f) { (void)n; (void)f; }

const struct transport_ops transport_line = {
    .name = "none", .start = line_start,
};

/* ---- RoCC RP ---- */

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
    sync_timer(n, f, f->cc.rocc.deadline_ps);
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

const struct transport_ops transport_rocc = {
    .name = "rocc", .start = rocc_start, .on_cnp = rocc_on_cnp, .on_timer = rocc_on_timer,
};

/* ---- HPCC ---- */

static void hpcc_apply(struct net *n, struct flow *f)
{
    f->window = hpcc_window_bytes(&f->cc.hpcc);
    flow_set_cc_rate(n, f, hpcc_rate_bps(&f->cc.hpcc));
}

static void hpcc_t_start(struct net *n, struct flow *f)
{
    const struct hpcc_params *p = f->cc_prm;
    hpcc_init(&f->cc.hpcc, p, flow_line_rate(n, f), n->el.now);
    f->hdr_extra = HPCC_INT_BYTES(HPCC_MAX_HOPS);   /* HPCC simulator: 42 B INT header */
    hpcc_apply(n, f);
}

static void hpcc_t_on_ack(struct net *n, struct flow *f, const struct packet *p)
{
    struct hpcc_int_hop hops[HPCC_MAX_HOPS];
    unsigned nh = 0;
    if ((p->flags & PF_INT) && n->intr) {
        const struct int_rec *r = &n->intr[p - n->pool.p];
        nh = p->nhop < HPCC_MAX_HOPS ? p->nhop : HPCC_MAX_HOPS;
        for (unsigned i = 0; i < nh; i++) {
            hops[i].ts_ps = r->hop[i].ts;
            hops[i].tx_bytes = r->hop[i].tx_bytes;
            hops[i].qlen_bytes = r->hop[i].qlen > UINT32_MAX ? UINT32_MAX : (uint32_t)r->hop[i].qlen;
            hops[i].rate_bps = r->hop[i].rate_bps;
        }
    }
    hpcc_on_ack(&f->cc.hpcc, f->cc_prm, p->seq, f->snd_nxt, hops, nh, n->el.now);
    hpcc_apply(n, f);
}

const struct transport_ops transport_hpcc = {
    .name = "hpcc", .start = hpcc_t_start, .on_ack = hpcc_t_on_ack, .int_telemetry = 1,
};

/* ---- TIMELY ---- */

static void timely_t_start(struct net *n, struct flow *f)
{
    timely_init(&f->cc.timely, f->cc_prm, flow_line_rate(n, f), n->el.now);
    flow_set_cc_rate(n, f, timely_rate_bps(&f->cc.timely));
}

static void timely_t_on_ack(struct net *n, struct flow *f, const struct packet *p)
{
    /* RTT = now - the acked data packet's send time, echoed by the ACK: one
     * clock, the simulator's (the bug class users reported: RTTs mixing
     * clocks or timestamps of the wrong packet). */
    timely_on_ack(&f->cc.timely, f->cc_prm, p->seq, f->snd_nxt, p->ts, n->el.now);
    flow_set_cc_rate(n, f, timely_rate_bps(&f->cc.timely));
}

const struct transport_ops transport_timely = {
    .name = "timely", .start = timely_t_start, .on_ack = timely_t_on_ack,
};

/* ---- DCTCP ---- */

static void dctcp_apply(struct net *n, struct flow *f)
{
    f->window = dctcp_window_bytes(&f->cc.dctcp);
    flow_set_cc_rate(n, f, dctcp_rate_bps(&f->cc.dctcp));
}

static void dctcp_t_start(struct net *n, struct flow *f)
{
    dctcp_init(&f->cc.dctcp, f->cc_prm, flow_line_rate(n, f), n->el.now);
    dctcp_apply(n, f);
}

static void dctcp_t_on_ack(struct net *n, struct flow *f, const struct packet *p)
{
    dctcp_on_ack(&f->cc.dctcp, f->cc_prm, f->acked_delta, p->ecn, f->snd_una, f->snd_nxt, n->el.now);
    dctcp_apply(n, f);
}

const struct transport_ops transport_dctcp = {
    .name = "dctcp", .start = dctcp_t_start, .on_ack = dctcp_t_on_ack,
};

/* ---- QCN ---- */

static void qcn_t_start(struct net *n, struct flow *f)
{
    qcn_rp_init(&f->cc.qcn, f->cc_prm, flow_line_rate(n, f), n->el.now);
    flow_set_cc_rate(n, f, qcn_rp_rate_bps(&f->cc.qcn));
    sync_timer(n, f, qcn_rp_deadline(&f->cc.qcn));
}

static void qcn_t_sync(struct net *n, struct flow *f)
{
    flow_set_cc_rate(n, f, qcn_rp_rate_bps(&f->cc.qcn));
    sync_timer(n, f, qcn_rp_deadline(&f->cc.qcn));
}

static void qcn_t_on_cnp(struct net *n, struct flow *f, const struct packet *p)
{
    if (p->cnp_kind != CNP_QCN)
        return;
    qcn_rp_on_feedback(&f->cc.qcn, f->cc_prm, (uint8_t)p->rate_units, n->el.now);
    qcn_t_sync(n, f);
}

static void qcn_t_on_send(struct net *n, struct flow *f, const struct packet *p)
{
    uint64_t before = qcn_rp_rate_bps(&f->cc.qcn);
    qcn_rp_on_sent(&f->cc.qcn, f->cc_prm, p->bytes, n->el.now);
    if (qcn_rp_rate_bps(&f->cc.qcn) != before || qcn_rp_deadline(&f->cc.qcn) != f->cc_deadline)
        qcn_t_sync(n, f);
}

static void qcn_t_on_timer(struct net *n, struct flow *f)
{
    qcn_rp_on_timer(&f->cc.qcn, f->cc_prm, n->el.now);
    qcn_t_sync(n, f);
}

const struct transport_ops transport_qcn = {
    .name = "qcn", .start = qcn_t_start, .on_cnp = qcn_t_on_cnp, .on_timer = qcn_t_on_timer,
    .on_send = qcn_t_on_send,
};

/* ---- DCQCN ---- */

static void dcqcn_t_sync(struct net *n, struct flow *f)
{
    flow_set_cc_rate(n, f, dcqcn_rate_bps(&f->cc.dcqcn));
    sync_timer(n, f, dcqcn_deadline(&f->cc.dcqcn));
}

static void dcqcn_t_start(struct net *n, struct flow *f)
{
    const struct dcqcn_params *p = f->cc_prm;
    dcqcn_init(&f->cc.dcqcn, p, flow_line_rate(n, f), n->el.now);
    f->np_interval = p->cnp_interval_ps;
    dcqcn_t_sync(n, f);
}

static void dcqcn_t_on_cnp(struct net *n, struct flow *f, const struct packet *p)
{
    if (p->cnp_kind != CNP_ECN)
        return;
    dcqcn_on_cnp(&f->cc.dcqcn, f->cc_prm, n->el.now);
    dcqcn_t_sync(n, f);
}

static void dcqcn_t_on_send(struct net *n, struct flow *f, const struct packet *p)
{
    uint64_t before = dcqcn_rate_bps(&f->cc.dcqcn);
    dcqcn_on_sent(&f->cc.dcqcn, f->cc_prm, p->bytes, n->el.now);
    if (dcqcn_rate_bps(&f->cc.dcqcn) != before || dcqcn_deadline(&f->cc.dcqcn) != f->cc_deadline)
        dcqcn_t_sync(n, f);
}

static void dcqcn_t_on_timer(struct net *n, struct flow *f)
{
    dcqcn_on_timer(&f->cc.dcqcn, f->cc_prm, n->el.now);
    dcqcn_t_sync(n, f);
}

const struct transport_ops transport_dcqcn = {
    .name = "dcqcn", .start = dcqcn_t_start, .on_cnp = dcqcn_t_on_cnp, .on_timer = dcqcn_t_on_timer,
    .on_send = dcqcn_t_on_send, .np_cnp = 1,
};

/* ---- Broadcom DCQCN-p / DCQCN-d ---- */

static void bcm_t_sync(struct net *n, struct flow *f)
{
    flow_set_cc_rate(n, f, dcqcn_bcm_rate_bps(&f->cc.bcm));
    sync_timer(n, f, dcqcn_bcm_deadline(&f->cc.bcm));
}

static void bcm_t_start(struct net *n, struct flow *f)
{
    const struct dcqcn_bcm_params *p = f->cc_prm;
    dcqcn_bcm_init(&f->cc.bcm, p, flow_line_rate(n, f), n->el.now);
    f->np_interval = p->cnp_interval_ps;  /* default 0: the RP counts every CNP (CNPs/TX ratio) */
    bcm_t_sync(n, f);
}

static void bcm_t_on_cnp(struct net *n, struct flow *f, const struct packet *p)
{
    if (p->cnp_kind != CNP_ECN)
        return;
    dcqcn_bcm_on_cnp(&f->cc.bcm, f->cc_prm, n->el.now);
    bcm_t_sync(n, f);
}

static void bcm_t_on_send(struct net *n, struct flow *f, const struct packet *p)
{
    dcqcn_bcm_on_sent(&f->cc.bcm, f->cc_prm, 1, n->el.now);
    if (dcqcn_bcm_deadline(&f->cc.bcm) != f->cc_deadline)
        bcm_t_sync(n, f);
}

static void bcm_t_on_timer(struct net *n, struct flow *f)
{
    /* The control period's random jitter comes from the run's generator. */
    dcqcn_bcm_on_timer(&f->cc.bcm, f->cc_prm, n->el.now, rng_uniform(&n->rng));
    bcm_t_sync(n, f);
}

const struct transport_ops transport_dcqcn_bcm = {
    .name = "dcqcn_bcm", .start = bcm_t_start, .on_cnp = bcm_t_on_cnp, .on_timer = bcm_t_on_timer,
    .on_send = bcm_t_on_send, .np_cnp = 1,
};
