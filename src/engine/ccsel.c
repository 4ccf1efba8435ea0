/* ccsel.c -- algorithm selection, parameter blocks, switch-side setup; see ccsel.h. */
#include "engine/ccsel.h"

#include <stdlib.h>
#include <string.h>

#include "net/agent_ecn.h"

const char *const cc_algo_names[] = {
    "rocc", "none", "dcqcn", "dcqcn_pi", "dcqcn_p", "dcqcn_d", "qcn",
    "timely", "timely_patched", "hpcc", "dctcp", "dctcp_window", NULL
};

struct cc_block {
    int algo;
    uint64_t line_bps;
    union {
        struct dcqcn_params dcqcn;
        struct dcqcn_bcm_params bcm;
        struct qcn_rp_params qcn;
        struct timely_params timely;
        struct hpcc_params hpcc;
        struct dctcp_params dctcp;
    } u;
};

/* [dcqcn_bcm] overrides; has_* = the key was given. */
struct bcm_over {
    int has_period, has_jitter, has_fr, has_g, has_cp_init, has_r_ai, has_r_inc_max, has_min_rate;
    int has_n0, has_pace_max, has_window, has_cnp_interval, has_decrease, has_silent;
    uint64_t period, fr, r_ai, r_inc_max, min_rate, n0, pace_max, window, cnp_interval;
    double jitter, g, cp_init;
    int decrease, silent;
};

struct cc_sel {
    int dcqcn_profile, hpcc_profile, timely_profile, dctcp_profile, qcn_profile;
    int has_eta, has_max_stage;
    uint64_t w_ai_flows;              /* [hpcc] w_ai_flows: N in W_AI = W_init (1 - eta) / N */
    double eta;
    uint64_t max_stage;
    struct dcqcn_pi_params pi;        /* overrides applied per port */
    uint64_t pi_q_ref, pi_period;
    int has_pi_a, has_pi_b;
    double pi_a, pi_b;
    struct bcm_over bcm;               /* [dcqcn_bcm] overrides */
    int ecn_set;                      /* [ecn] given: same marking on every port */
    uint64_t ecn_kmin, ecn_kmax;
    double ecn_pmax;
    struct cc_block **blocks;
    uint32_t n_blocks;
};

#define TRY(x) do { if ((x) < 0) return -1; } while (0)

#define HAS(sec, key) (cfg_find(c, sec, key) != NULL)

/* [dcqcn_bcm]: the Broadcom note's configurable values and our readings of
 * its open points (dcqcn_bcm.h); each key overrides the per-speed default. */
static int bcm_read(struct cfg *c, struct bcm_over *b, struct cfg_err *err)
{
    static const char *const dec[] = { "period", "first_cnp", NULL };
    static const char *const sil[] = { "increase", "hold", NULL };
    const char *S = "dcqcn_bcm";
    b->has_period = HAS(S, "period");
    b->has_jitter = HAS(S, "jitter");
    b->has_fr = HAS(S, "fr_steps");
    b->has_g = HAS(S, "g");
    b->has_cp_init = HAS(S, "cp_init");
    b->has_r_ai = HAS(S, "r_ai");
    b->has_r_inc_max = HAS(S, "r_inc_max");
    b->has_min_rate = HAS(S, "min_rate");
    b->has_n0 = HAS(S, "incast_n0");
    b->has_pace_max = HAS(S, "pace_max");
    b->has_window = HAS(S, "incast_window");
    b->has_cnp_interval = HAS(S, "cnp_interval");
    b->has_decrease = HAS(S, "decrease");
    b->has_silent = HAS(S, "silent_period");
    TRY(cfg_time(c, S, "period", 0, &b->period, err));
    TRY(cfg_percent(c, S, "jitter", 0, &b->jitter, err));
    TRY(cfg_u64(c, S, "fr_steps", 0, &b->fr, err));
    TRY(cfg_double(c, S, "g", 0, &b->g, err));
    TRY(cfg_double(c, S, "cp_init", 0, &b->cp_init, err));
    TRY(cfg_rate(c, S, "r_ai", 0, &b->r_ai, err));
    TRY(cfg_rate(c, S, "r_inc_max", 0, &b->r_inc_max, err));
    TRY(cfg_rate(c, S, "min_rate", 0, &b->min_rate, err));
    TRY(cfg_u64(c, S, "incast_n0", 0, &b->n0, err));
    TRY(cfg_u64(c, S, "pace_max", 0, &b->pace_max, err));
    TRY(cfg_time(c, S, "incast_window", 0, &b->window, err));
    TRY(cfg_time(c, S, "cnp_interval", 0, &b->cnp_interval, err));
    TRY(cfg_enum(c, S, "decrease", dec, 0, &b->decrease, err));
    TRY(cfg_enum(c, S, "silent_period", sil, 0, &b->silent, err));
    if (b->has_jitter && !(b->jitter >= 0 && b->jitter < 1))
        return cfg_errorf(err, cfg_find(c, S, "jitter"), "jitter must be in 0%%..99.9999%%");
    if (b->has_fr && b->fr > 1000)
        return cfg_errorf(err, cfg_find(c, S, "fr_steps"), "fr_steps must be at most 1000");
    if (b->has_n0 && (b->n0 < 1 || b->n0 > UINT32_MAX))
        return cfg_errorf(err, cfg_find(c, S, "incast_n0"), "incast_n0 must be 1..4294967295");
    if (b->has_pace_max && (b->pace_max < 1 || b->pace_max > 1000000))
        return cfg_errorf(err, cfg_find(c, S, "pace_max"), "pace_max must be 1..1000000");
    return 0;
}

/* Applies [dcqcn_bcm] to a block built from the defaults for one NIC speed.
 * r_inc_max keeps its ratio to R_AI (8) when only r_ai is given. */
static void bcm_apply(const struct bcm_over *b, struct dcqcn_bcm_params *p)
{
    if (b->has_period)
        p->period_ps = b->period;
    if (b->has_jitter)
        p->jitter_ppm = (uint32_t)(b->jitter * 1e6 + 0.5);
    if (b->has_fr)
        p->fr_steps = (uint32_t)b->fr;
    if (b->has_g)
        p->g = b->g;
    if (b->has_cp_init)
        p->cp_init = b->cp_init;
    if (b->has_r_ai) {
        uint64_t mul = p->r_ai_bps ? p->r_inc_max_bps / p->r_ai_bps : 1;
        p->r_ai_bps = b->r_ai;
        p->r_inc_max_bps = b->r_ai > UINT64_MAX / mul ? UINT64_MAX : b->r_ai * mul;
    }
    if (b->has_r_inc_max)
        p->r_inc_max_bps = b->r_inc_max;
    if (b->has_min_rate)
        p->min_rate_bps = b->min_rate;
    if (b->has_n0)
        p->incast_n0 = (uint32_t)b->n0;
    if (b->has_pace_max)
        p->pace_max = (uint32_t)b->pace_max;
    if (b->has_window)
        p->incast_window_ps = b->window;
    if (b->has_cnp_interval)
        p->cnp_interval_ps = b->cnp_interval;
    if (b->has_decrease)
        p->decrease_on_cnp = (uint32_t)b->decrease;
    if (b->has_silent)
        p->hold_silent = (uint32_t)b->silent;
}

int ccsel_read(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    struct cc_sel *s = calloc(1, sizeof *s);
    if (!s)
        return cfg_section_errorf(err, c, "cc", "out of memory");
    sc->ccs = s;
    static const char *const dcqcn_p[] = { "paper", "hpcc_sim", "hpcc_sim_paper", NULL };
    static const char *const hpcc_p[] = { "paper", "sim", NULL };
    static const char *const timely_p[] = { "paper", "hpcc_sim", NULL };
    static const char *const dctcp_p[] = { "hpcc", "hpcc_runpy", NULL };
    static const char *const qcn_p[] = { "dc", "paper", NULL };
    TRY(cfg_enum(c, "dcqcn", "profile", dcqcn_p, 0, &s->dcqcn_profile, err));
    TRY(cfg_enum(c, "hpcc", "profile", hpcc_p, 0, &s->hpcc_profile, err));
    TRY(cfg_enum(c, "timely", "profile", timely_p, 0, &s->timely_profile, err));
    TRY(cfg_enum(c, "dctcp", "profile", dctcp_p, 0, &s->dctcp_profile, err));
    TRY(cfg_enum(c, "qcn", "profile", qcn_p, 0, &s->qcn_profile, err));
    s->has_eta = cfg_find(c, "hpcc", "eta") != NULL;
    TRY(cfg_double(c, "hpcc", "eta", 0.95, &s->eta, err));
    if (s->has_eta && !(s->eta > 0 && s->eta <= 1))
        return cfg_errorf(err, cfg_find(c, "hpcc", "eta"), "eta must be in (0, 1]");
    TRY(cfg_u64(c, "hpcc", "w_ai_flows", 100, &s->w_ai_flows, err));   /* hpcc.h: N = 100, our choice */
    if (s->w_ai_flows < 1 || s->w_ai_flows > 1000000)
        return cfg_errorf(err, cfg_find(c, "hpcc", "w_ai_flows"), "w_ai_flows must be 1..1000000");
    s->has_max_stage = cfg_find(c, "hpcc", "max_stage") != NULL;
    TRY(cfg_u64(c, "hpcc", "max_stage", 0, &s->max_stage, err));
    if (s->max_stage > 1000)
        return cfg_errorf(err, cfg_find(c, "hpcc", "max_stage"), "max_stage must be at most 1000");
    TRY(cfg_bytes(c, "dcqcn_pi", "q_ref", 0, &s->pi_q_ref, err));
    TRY(cfg_time(c, "dcqcn_pi", "period", 0, &s->pi_period, err));
    s->has_pi_a = cfg_find(c, "dcqcn_pi", "a") != NULL;
    s->has_pi_b = cfg_find(c, "dcqcn_pi", "b") != NULL;
    TRY(cfg_double(c, "dcqcn_pi", "a", 0, &s->pi_a, err));
    TRY(cfg_double(c, "dcqcn_pi", "b", 0, &s->pi_b, err));
    TRY(bcm_read(c, &s->bcm, err));
    s->ecn_set = cfg_find(c, "ecn", "kmin") || cfg_find(c, "ecn", "kmax") || cfg_find(c, "ecn", "pmax");
    TRY(cfg_bytes(c, "ecn", "kmin", 0, &s->ecn_kmin, err));
    TRY(cfg_bytes(c, "ecn", "kmax", 0, &s->ecn_kmax, err));
    TRY(cfg_double(c, "ecn", "pmax", 1.0, &s->ecn_pmax, err));
    if (s->ecn_set && (s->ecn_kmax < s->ecn_kmin || !(s->ecn_pmax >= 0 && s->ecn_pmax <= 1) || s->ecn_kmax == 0))
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
    for (uint32_t i = 0; i < s->n_blocks; i++)
        if (s->blocks[i]->algo == algo && s->blocks[i]->line_bps == line) {
            *out = s->blocks[i];
            return 0;
        }
    struct cc_block *b = calloc(1, sizeof *b);
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
    int bad = 0;
    const char *sec = "cc";
    switch (algo) {
    case CC_DCQCN:
    case CC_DCQCN_PI:
        dcqcn_params_default(&b->u.dcqcn, line, (enum dcqcn_profile)s->dcqcn_profile);
        bad = dcqcn_params_check(&b->u.dcqcn, why, sizeof why);
        sec = "dcqcn";
        break;
    case CC_DCQCN_P:
    case CC_DCQCN_D:
        dcqcn_bcm_params_default(&b->u.bcm, line, algo == CC_DCQCN_P ? DCQCN_BCM_MODE_P : DCQCN_BCM_MODE_D);
        bcm_apply(&s->bcm, &b->u.bcm);
        bad = dcqcn_bcm_params_check(&b->u.bcm, why, sizeof why);
        sec = "dcqcn_bcm";
        break;
    case CC_QCN:
        qcn_rp_params_default(&b->u.qcn, line, s->qcn_profile == 0 ? QCN_PROFILE_DC : QCN_PROFILE_PAPER);
        bad = qcn_rp_params_check(&b->u.qcn, why, sizeof why);
        sec = "qcn";
        break;
    case CC_TIMELY:
    case CC_TIMELY_PATCHED:
        timely_params_default(&b->u.timely, line,
                              algo == CC_TIMELY_PATCHED ? TIMELY_PROFILE_PATCHED
                              : s->timely_profile ? TIMELY_PROFILE_HPCC_SIM : TIMELY_PROFILE_PAPER);
        bad = timely_params_check(&b->u.timely, why, sizeof why);
        sec = "timely";
        break;
    case CC_HPCC:
        hpcc_params_default(&b->u.hpcc, line, base_rtt, s->hpcc_profile ? HPCC_PROFILE_SIM : HPCC_PROFILE_PAPER);
        if (s->has_eta)
            b->u.hpcc.eta = s->eta;
        /* Paper profile: W_AI = W_init (1 - eta) / N follows eta and N (hpcc.h). */
        if (!s->hpcc_profile) {
            b->u.hpcc.w_ai_bytes = (uint64_t)((double)b->u.hpcc.w_init_bytes * (1.0 - b->u.hpcc.eta) /
                                              (double)s->w_ai_flows);
            if (b->u.hpcc.w_ai_bytes == 0)
                b->u.hpcc.w_ai_bytes = 1;
        }
        if (s->has_max_stage)
            b->u.hpcc.max_stage = (uint32_t)s->max_stage;
        bad = hpcc_params_check(&b->u.hpcc, why, sizeof why);
        sec = "hpcc";
        break;
    case CC_DCTCP:
    case CC_DCTCP_WINDOW:
        dctcp_params_default(&b->u.dctcp, line,
                             algo == CC_DCTCP_WINDOW ? DCTCP_PROFILE_PAPER
                             : s->dctcp_profile ? DCTCP_PROFILE_HPCC_RUNPY : DCTCP_PROFILE_HPCC);
        b->u.dctcp.mss_bytes = sc->net.cfg.mtu_payload;
        if (algo == CC_DCTCP_WINDOW) {       /* RFC 6928 IW 10, Linux floor 2 segments, in this MTU */
            b->u.dctcp.init_cwnd_bytes = 10ull * sc->net.cfg.mtu_payload;
            b->u.dctcp.min_cwnd_bytes = 2ull * sc->net.cfg.mtu_payload;
        }
        if (algo == CC_DCTCP_WINDOW)
            b->u.dctcp.base_rtt_ps = base_rtt;
        bad = dctcp_params_check(&b->u.dctcp, why, sizeof why);
        sec = "dctcp";
        break;
    default:
        break;
    }
    if (bad)
        return cfg_section_errorf(err, sc->cfg, sec, "invalid %s parameters for a %.0f Gb/s NIC: %s",
                                  cc_algo_names[algo], line / 1e9, why);
    *out = b;
    return 0;
}

static const struct transport_ops *transport_of(int algo)
{
    switch (algo) {
    case CC_ROCC:           return &transport_rocc;
    case CC_DCQCN:
    case CC_DCQCN_PI:       return &transport_dcqcn;
    case CC_DCQCN_P:
    case CC_DCQCN_D:        return &transport_dcqcn_bcm;
    case CC_QCN:            return &transport_qcn;
    case CC_TIMELY:
    case CC_TIMELY_PATCHED: return &transport_timely;
    case CC_HPCC:           return &transport_hpcc;
    case CC_DCTCP:
    case CC_DCTCP_WINDOW:   return &transport_dctcp;
    default:                return &transport_line;
    }
}

/* ECN marking scheme of an algorithm: 0 none, else an id compared for mixes. */
static int marking_of(int algo)
{
    switch (algo) {
    case CC_DCQCN:        return 1;
    case CC_DCQCN_P:      return 2;
    case CC_DCQCN_D:      return 3;
    case CC_DCTCP:        return 4;
    case CC_DCTCP_WINDOW: return 5;
    default:              return 0;
    }
}

static void port_marking(struct scenario *sc, int scheme, struct port *pt)
{
    struct cc_sel *s = sc->ccs;
    uint64_t r = pt->rate_bps;
    if (s->ecn_set) {
        pt->ecn_kmin = s->ecn_kmin;
        pt->ecn_kmax = s->ecn_kmax;
        pt->ecn_pmax = s->ecn_pmax;
        return;
    }
    switch (scheme) {
    case 1: {
        struct dcqcn_red_params red;
        dcqcn_red_default(&red, r, (enum dcqcn_profile)s->dcqcn_profile);
        pt->ecn_kmin = red.kmin_bytes;
        pt->ecn_kmax = red.kmax_bytes;
        pt->ecn_pmax = red.pmax;
        break;
    }
    case 2:
    case 3: {
        struct dcqcn_bcm_cp_params cp;
        dcqcn_bcm_cp_default(&cp, r);
        pt->ecn_kmin = scheme == 2 ? cp.kmin_bytes : cp.k_bytes;
        pt->ecn_kmax = scheme == 2 ? cp.kmax_bytes : cp.k_bytes;
        pt->ecn_pmax = scheme == 2 ? cp.pmax : 1.0;
        break;
    }
    case 4:
    case 5: {
        struct dctcp_params d;
        dctcp_params_default(&d, r, scheme == 5 ? DCTCP_PROFILE_PAPER : DCTCP_PROFILE_HPCC);
        pt->ecn_kmin = pt->ecn_kmax = d.k_bytes;   /* step: mark when q > K */
        pt->ecn_pmax = 1.0;
        break;
    }
    default:
        break;
    }
}

int ccsel_bind(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    struct net *n = &sc->net;
    struct cc_sel *s = sc->ccs;
    uint32_t used = 0;
    for (uint32_t g = 0; g < sc->n_groups; g++)
        used |= 1u << sc->groups[g].algo;
    simtime_t base_rtt = ccsel_max_base_rtt(sc);
    if (used & (1u << CC_HPCC)) {
        if (net_enable_int(n))
            return cfg_section_errorf(err, c, "hpcc", "out of memory");
    }
    for (uint32_t i = 0; i < n->n_flows; i++) {
        struct flow *f = &n->flows[i];
        int algo = sc->groups[f->group].algo;
        f->tp = transport_of(algo);
        f->cc_prm = NULL;
        if (algo != CC_ROCC && algo != CC_NONE) {
            const struct cc_block *b = NULL;
            TRY(make_block(sc, algo, flow_line_rate(n, f), base_rtt, &b, err));
            f->cc_prm = &b->u;
        }
    }
    static const struct { const char *sec; uint32_t mask; } owners[] = {
        { "dcqcn", (1u << CC_DCQCN) | (1u << CC_DCQCN_PI) }, { "hpcc", 1u << CC_HPCC },
        { "timely", 1u << CC_TIMELY }, { "dctcp", 1u << CC_DCTCP },
        { "qcn", 1u << CC_QCN }, { "dcqcn_pi", 1u << CC_DCQCN_PI },
        { "dcqcn_bcm", (1u << CC_DCQCN_P) | (1u << CC_DCQCN_D) },
    };
    for (size_t i = 0; i < sizeof owners / sizeof owners[0]; i++)
        if (cfg_has_section(c, owners[i].sec) && !(used & owners[i].mask))
            scenario_warn(sc, "%s: [%s] is set but no flow group uses it (its keys have no effect)", cfg_path(c),
                          owners[i].sec);
    /* Switch marking: one scheme for the whole fabric. */
    int scheme = 0;
    for (int a = 0; a < CC_NALGO; a++) {
        int m = (used >> a) & 1 ? marking_of(a) : 0;
        if (!m)
            continue;
        if (scheme && m != scheme && !s->ecn_set)
            return cfg_section_errorf(err, c, "cc",
                                      "flow groups use algorithms with different ECN marking (%s and others); "
                                      "set [ecn] kmin, kmax, pmax to choose one marking for every switch port",
                                      cc_algo_names[a]);
        scheme = m;
    }
    if (s->ecn_set && !scheme)
        scenario_warn(sc, "%s: [ecn] is set but no flow group uses an ECN-based algorithm (no effect)", cfg_path(c));
    for (uint32_t p = 0; p < n->n_ports; p++) {
        struct port *pt = &n->ports[p];
        if (n->nodes[pt->node].kind != NODE_SWITCH)
            continue;
        if (scheme)
            port_marking(sc, scheme, pt);
        if (used & (1u << CC_QCN)) {
            struct qcn_cp_params qp;
            qcn_cp_params_default(&qp, pt->rate_bps, s->qcn_profile == 0 ? QCN_PROFILE_DC : QCN_PROFILE_PAPER);
            if (qcn_agent_attach(n, p, &qp) == NONE32)
                return cfg_section_errorf(err, c, "qcn", "out of memory");
        }
        if (used & (1u << CC_DCQCN_PI)) {
            struct dcqcn_pi_params pp;
            dcqcn_pi_params_default(&pp, pt->rate_bps);
            if (s->pi_q_ref)
                pp.q_ref_bytes = s->pi_q_ref;
            if (s->pi_period)
                pp.period_ps = s->pi_period;
            if (s->has_pi_a)
                pp.a = s->pi_a;
            if (s->has_pi_b)
                pp.b = s->pi_b;
            char why[160];
            if (dcqcn_pi_params_check(&pp, why, sizeof why))
                return cfg_section_errorf(err, c, "dcqcn_pi", "invalid parameters: %s", why);
            if (dcqcn_pi_agent_attach(n, p, &pp) == NONE32)
                return cfg_section_errorf(err, c, "dcqcn_pi", "out of memory");
        }
    }
    return 0;
}
