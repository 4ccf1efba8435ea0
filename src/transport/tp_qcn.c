/*
 * tp_qcn.c -- QCN (IEEE 802.1Qau) adapted to a datacenter: the reaction
 * point at the NIC (byte counter + timer, quantized feedback |Fb| from the
 * switch) and a congestion point on every switch egress port
 * (net/agent_ecn.c).  [qcn] profile = dc | paper.
 */
#include "engine/ccreg.h"
#include "engine/scenario.h"
#include "net/agent_ecn.h"
#include "net/net.h"
#include "qcn.h"

_Static_assert(sizeof(struct qcn_rp) <= sizeof(((struct flow *)0)->cc), "struct qcn_rp must fit in flow.cc");
#define ST(f) ((struct qcn_rp *)(void *)(f)->cc.raw)

static void qcn_t_sync(struct net *n, struct flow *f)
{
    flow_set_cc_rate(n, f, qcn_rp_rate_bps(ST(f)));
    flow_set_cc_deadline(n, f, qcn_rp_deadline(ST(f)));
}

static void qcn_t_start(struct net *n, struct flow *f)
{
    qcn_rp_init(ST(f), f->cc_prm, flow_line_rate(n, f), n->el.now);
    qcn_t_sync(n, f);
}

static void qcn_t_on_cnp(struct net *n, struct flow *f, const struct packet *p)
{
    if (p->cnp_kind != CNP_QCN)
        return;
    qcn_rp_on_feedback(ST(f), f->cc_prm, (uint8_t)p->rate_units, n->el.now);
    qcn_t_sync(n, f);
}

static void qcn_t_on_send(struct net *n, struct flow *f, const struct packet *p)
{
    uint64_t before = qcn_rp_rate_bps(ST(f));
    qcn_rp_on_sent(ST(f), f->cc_prm, p->bytes, n->el.now);
    if (qcn_rp_rate_bps(ST(f)) != before || qcn_rp_deadline(ST(f)) != f->cc_deadline)
        qcn_t_sync(n, f);
}

static void qcn_t_on_timer(struct net *n, struct flow *f)
{
    qcn_rp_on_timer(ST(f), f->cc_prm, n->el.now);
    qcn_t_sync(n, f);
}

static const struct transport_ops transport_qcn = {
    .name = "qcn", .start = qcn_t_start, .on_cnp = qcn_t_on_cnp, .on_timer = qcn_t_on_timer,
    .on_send = qcn_t_on_send, .cp_cnp = 1,
};

static int qcn_read(struct cfg *c, void *opt, struct cfg_err *err)
{
    static const char *const prof[] = { "dc", "paper", NULL };
    return cfg_enum(c, "qcn", "profile", prof, 0, (int *)opt, err) < 0 ? -1 : 0;
}

static enum qcn_profile qcn_profile_of(const void *opt)
{
    return *(const int *)opt == 0 ? QCN_PROFILE_DC : QCN_PROFILE_PAPER;
}

static int qcn_prm(const struct cc_ctx *x, const void *opt, void *prm, char *why, size_t nwhy)
{
    qcn_rp_params_default(prm, x->line_bps, qcn_profile_of(opt));
    return qcn_rp_params_check(prm, why, nwhy);
}

/* A QCN CP on every switch egress port. */
static int qcn_port(struct scenario *sc, const void *opt, uint32_t port, struct cfg *c, struct cfg_err *err)
{
    struct qcn_cp_params qp;
    qcn_cp_params_default(&qp, sc->net.ports[port].rate_bps, qcn_profile_of(opt));
    if (qcn_agent_attach(&sc->net, port, &qp) == NONE32)
        return cfg_section_errorf(err, c, "qcn", "out of memory");
    return 0;
}

const struct cc_algo cc_algo_qcn = {
    .name = "qcn", .tp = &transport_qcn, .sections = { "qcn" }, .prm_section = "qcn",
    .opt_size = sizeof(int), .read = qcn_read,
    .prm_size = sizeof(struct qcn_rp_params), .params = qcn_prm, .port_setup = qcn_port,
};
