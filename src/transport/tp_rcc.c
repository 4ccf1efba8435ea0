/*
 * tp_rcc.c -- RCC (Zhang et al., ICNP 2021) at the NIC: `rcc` (the paper's
 * receiver-driven RCC, Alg. 1 at the receiver) and `rcc_sender` (§III-G:
 * delay and PID at the sender).  The state machines are src/cc/rcc.c.
 *
 * rcc: every data frame arriving at the receiver (on_rx_data) gives a
 *   one-way delay, arrival time minus the frame's send timestamp p->ts
 *   (one simulator clock, plus the optional offset/jitter model below);
 *   the receiving host's struct rcc_rx counts N (a message counts from its
 *   first arriving frame to the in-order arrival of its last byte: the BTH
 *   First/Last opcodes, §III-D) and B_R (wire bytes of every RCC frame
 *   arriving at the host); the flow's struct rcc_conn runs Alg. 1.  Every
 *   ACK/NAK (on_rx_ctrl) carries the window in rate_units (bytes) and N in
 *   cp_id.  The sender sets its window to it and paces at W/T (§III-D).
 * rcc_sender: the receiver counts N and B_R the same way and feeds back N
 *   (cp_id) and B_R as a throughput in Mb/s (rate_units); the sender runs
 *   rcc_conn on the RTT of every ACK (now - the echoed send timestamp),
 *   with fair share C/N of the receiver's link and the last-hop test
 *   B_R > eta*c (the receiver's link speed c is known to the sender: a
 *   datacenter's NIC speeds are; our assumption).
 *
 * Both start at line rate with the window C = c*T/8 (§III-B "Each flow
 * starts at line rate").  ACKs and data carry no extra header bytes: the
 * simulator's frames already have the send timestamp (as for TIMELY) and
 * ACKs an unused 32-bit field; the RCC paper gives no wire format.
 *
 * Clock model (§V-E "RCC-async"): [rcc] clock_offset = X gives every host
 * a fixed offset drawn uniformly from [-X, X] (its own generator seeded by
 * clock_seed, so the run's other random draws do not move); clock_jitter
 * = J adds a uniform [0, J] to every one-way sample (from the run's
 * generator).  A measured one-way delay of 0 or less counts as 1 ps.  The
 * sender variant measures RTTs on its own clock and ignores both.
 *
 * rcc_pid, rcc_ewa: §V-E's ablations RCC-PID (no Explicit Window
 * Assignment) and RCC-EWA (no PID), the `rcc` transport with
 * rcc_params.variant set (src/cc/rcc.h has what each does).
 *
 * [rcc] keys (docs/config.md): n, delta, eta, kp, kd, pid_interval,
 * w_min, base_rtt, clock_offset, clock_jitter, clock_seed.
 */
#include "engine/ccreg.h"
#include "engine/scenario.h"
#include "net/net.h"
#include "rcc.h"

/* Per-flow state: the controller (at the receiver for rcc, the sender for
 * rcc_sender) and the receiver's bookkeeping of N.  The sender's part is
 * made by the flow's start, the receiver's by its first data frame
 * (rx_side): each side touches only its own part, so a run partitioned
 * over MPI ranks (docs/parallel.md), which starts a flow on its source's
 * rank only, computes what one process does. */
struct rcc_flow {
    struct rcc_conn conn;
    struct rcc_host *rx;        /* the destination host's state (receiver's side) */
    uint8_t counted, ended;     /* counted in N / taken out again */
};
_Static_assert(sizeof(struct rcc_flow) <= sizeof(((struct flow *)0)->cc), "struct rcc_flow must fit in flow.cc");
#define ST(f) ((struct rcc_flow *)(void *)(f)->cc.raw)

/* One per host (net_host_state keyed by &cc_algo_rcc). */
struct rcc_host {
    struct rcc_rx rx;
    int64_t clk_off_ps;         /* this host's clock minus true time */
};

/* The parameter block of one NIC speed. */
struct rcc_prm {
    struct rcc_params p;
    uint64_t jitter_ps;
};

struct rcc_opt {
    uint64_t n, base_rtt, pid_interval, w_min, clock_offset, clock_jitter, clock_seed;
    double delta, eta, kp, kd;
    int has_pid_interval;
};

extern const struct cc_algo cc_algo_rcc;

static void rcc_apply(struct net *n, struct flow *f, uint64_t cwnd)
{
    const struct rcc_prm *r = f->cc_prm;
    f->window = cwnd ? cwnd : 1;
    flow_set_cc_rate(n, f, rcc_pace_bps(&r->p, f->window, flow_line_rate(n, f)));
}

/* The window a flow starts with: C = c*T/8 at its line rate (§III-B). */
static uint64_t start_window(const struct net *n, const struct flow *f)
{
    const struct rcc_prm *r = f->cc_prm;
    return rcc_fair_share(flow_line_rate(n, f), r->p.base_rtt_ps, 1);
}

/* Every host's state (made by rcc_setup, the same on every rank). */
static struct rcc_host *hosts(struct net *n)
{
    return net_host_state(n, &cc_algo_rcc, sizeof(struct rcc_host));
}

/* rcc: the receiver runs the controller; the sender only paces at the
 * window the ACKs bring, from line rate. */
static void rcc_t_start(struct net *n, struct flow *f)
{
    rcc_apply(n, f, start_window(n, f));
}

/* rcc_sender: the controller is the sender's. */
static void rccs_t_start(struct net *n, struct flow *f)
{
    uint64_t c = start_window(n, f);
    rcc_conn_init(&ST(f)->conn, c);
    rcc_apply(n, f, c);
}

/* The receiver's side of a flow, made at its first data frame (nothing
 * at the receiver reads it before, so this is the state a start at the
 * sender would have made): the destination's host state and, for rcc,
 * the controller at the start window. */
static struct rcc_flow *rx_side(struct net *n, struct flow *f, int with_conn)
{
    struct rcc_flow *s = ST(f);
    if (!s->rx) {
        s->rx = &hosts(n)[f->dst];
        s->counted = s->ended = 0;
        if (with_conn)
            rcc_conn_init(&s->conn, start_window(n, f));
    }
    return s;
}

/* Receiver: N and B_R of the destination host, for both variants. */
static struct rcc_host *rx_count(struct net *n, struct flow *f, const struct packet *p, uint64_t owd)
{
    struct rcc_flow *s = ST(f);
    struct rcc_host *h = s->rx;
    rcc_rx_on_data(&h->rx, (uint64_t)p->bytes + n->cfg.preamble_ifg, owd, n->el.now);
    if (!s->counted) {
        s->counted = 1;
        rcc_rx_msg_begin(&h->rx);
    }
    if (!s->ended && p->seq <= f->rcv_nxt && p->seq + p->payload >= f->size) {
        s->ended = 1;                 /* the last byte arrived in order */
        rcc_rx_msg_end(&h->rx);
    }
    return h;
}

static uint64_t one_way_delay(struct net *n, const struct flow *f, const struct packet *p)
{
    const struct rcc_prm *r = f->cc_prm;
    const struct rcc_host *hs = ST(f)->rx - f->dst;      /* the host array (clock offsets: set-up's) */
    int64_t d = (int64_t)(n->el.now - p->ts) + hs[f->dst].clk_off_ps - hs[f->src].clk_off_ps;
    if (r->jitter_ps)
        d += (int64_t)(rng_uniform(net_node_rng(n, n->hosts[f->dst].node)) * (double)r->jitter_ps);
    return d > 0 ? (uint64_t)d : 1;
}

static void rcc_t_on_rx_data(struct net *n, struct flow *f, const struct packet *p)
{
    const struct rcc_prm *r = f->cc_prm;
    rx_side(n, f, 1);
    uint64_t owd = one_way_delay(n, f, p);
    struct rcc_host *h = rx_count(n, f, p, owd);
    rcc_conn_on_sample(&ST(f)->conn, &r->p, owd, rcc_rx_fair_share(&h->rx, &r->p),
                       rcc_rx_last_hop_full(&h->rx, &r->p), n->el.now);
}

static void rcc_t_on_rx_ctrl(struct net *n, struct flow *f, struct packet *p)
{
    (void)n;
    uint64_t w = ST(f)->conn.cwnd_bytes;
    p->rate_units = w > UINT32_MAX ? UINT32_MAX : (uint32_t)w;
    p->cp_id = ST(f)->rx->rx.n_flows;
}

static void rcc_t_on_ack(struct net *n, struct flow *f, const struct packet *p)
{
    rcc_apply(n, f, p->rate_units);
}

static const struct transport_ops transport_rcc = {
    .name = "rcc", .start = rcc_t_start, .on_ack = rcc_t_on_ack,
    .on_rx_data = rcc_t_on_rx_data, .on_rx_ctrl = rcc_t_on_rx_ctrl,
};

/* ---- RCC-sender (§III-G) ---- */

static void rccs_t_on_rx_data(struct net *n, struct flow *f, const struct packet *p)
{
    rx_side(n, f, 0);
    rx_count(n, f, p, n->el.now > p->ts ? n->el.now - p->ts : 1);
}

static void rccs_t_on_rx_ctrl(struct net *n, struct flow *f, struct packet *p)
{
    (void)n;
    const struct rcc_rx *rx = &ST(f)->rx->rx;
    p->rate_units = rcc_rx_br_mbps(rx);
    p->cp_id = rx->n_flows;
}

static void rccs_t_on_ack(struct net *n, struct flow *f, const struct packet *p)
{
    const struct rcc_prm *r = f->cc_prm;
    uint64_t c = n->ports[n->hosts[f->dst].port].rate_bps;  /* the receiver's link (rcc_setup's line_bps) */
    uint64_t rtt = n->el.now > p->ts ? n->el.now - p->ts : 1;
    uint64_t fair = rcc_window_cap(&r->p, c, p->cp_id);
    int full = rcc_last_hop_full_rate(&r->p, p->rate_units, c);
    rcc_apply(n, f, rcc_conn_on_sample(&ST(f)->conn, &r->p, rtt, fair, full, n->el.now));
}

static const struct transport_ops transport_rcc_sender = {
    .name = "rcc_sender", .start = rccs_t_start, .on_ack = rccs_t_on_ack,
    .on_rx_data = rccs_t_on_rx_data, .on_rx_ctrl = rccs_t_on_rx_ctrl,
};

/* ---- registry ---- */


static int rcc_read(struct cfg *c, void *opt, struct cfg_err *err)
{
    struct rcc_opt *o = opt;
    const char *S = "rcc";
    TRY(cfg_u64(c, S, "n", RCC_N_DETECT, &o->n, err));             /* §III-F */
    TRY(cfg_double(c, S, "delta", RCC_DELTA, &o->delta, err));      /* §III-F */
    TRY(cfg_double(c, S, "eta", RCC_ETA, &o->eta, err));            /* §III-F */
    TRY(cfg_double(c, S, "kp", RCC_KP, &o->kp, err));               /* §V-A */
    TRY(cfg_double(c, S, "kd", RCC_KD, &o->kd, err));               /* §V-A */
    o->has_pid_interval = cfg_find(c, S, "pid_interval") != NULL;
    TRY(cfg_time(c, S, "pid_interval", 0, &o->pid_interval, err));
    TRY(cfg_bytes(c, S, "w_min", 1000, &o->w_min, err));            /* our choice (rcc.h) */
    TRY(cfg_time(c, S, "base_rtt", 0, &o->base_rtt, err));          /* 0: the scenario's longest */
    TRY(cfg_time(c, S, "clock_offset", 0, &o->clock_offset, err));
    TRY(cfg_time(c, S, "clock_jitter", 0, &o->clock_jitter, err));
    TRY(cfg_u64(c, S, "clock_seed", 1, &o->clock_seed, err));
    if (o->n < 1 || o->n > 1000000)
        return cfg_errorf(err, cfg_find(c, S, "n"), "n must be 1..1000000");
    if (!(o->delta > 0 && o->delta < 1))
        return cfg_errorf(err, cfg_find(c, S, "delta"), "delta must be in (0, 1) (RCC Eq. 1)");
    if (!(o->eta > 0 && o->eta < 1))
        return cfg_errorf(err, cfg_find(c, S, "eta"), "eta must be in (0, 1)");
    if (!(o->kp >= 0 && o->kp < 1e12))
        return cfg_errorf(err, cfg_find(c, S, "kp"), "kp must be in [0, 1e12)");
    if (!(o->kd >= 0 && o->kd < 1e12))
        return cfg_errorf(err, cfg_find(c, S, "kd"), "kd must be in [0, 1e12)");
    if (o->w_min < 1)
        return cfg_errorf(err, cfg_find(c, S, "w_min"), "w_min must be at least 1 byte");
    if (o->clock_offset > 1000000000000ull || o->clock_jitter > 1000000000000ull)
        return cfg_section_errorf(err, c, S, "clock_offset and clock_jitter must be at most 1s");
    return 0;
}

static int rcc_prm_v(const struct cc_ctx *x, const void *opt, void *prm, char *why, size_t nwhy, int variant)
{
    const struct rcc_opt *o = opt;
    struct rcc_prm *r = prm;
    rcc_params_default(&r->p, o->base_rtt ? o->base_rtt : x->base_rtt);
    r->p.n_detect = (uint32_t)o->n;
    r->p.delta = o->delta;
    r->p.eta = o->eta;
    r->p.kp = o->kp;
    r->p.kd = o->kd;
    if (o->has_pid_interval)
        r->p.pid_interval_ps = o->pid_interval;
    r->p.w_min_bytes = o->w_min;
    r->jitter_ps = o->clock_jitter;
    r->p.variant = variant;
    return rcc_params_check(&r->p, why, nwhy);
}

static int rcc_prm(const struct cc_ctx *x, const void *opt, void *prm, char *why, size_t nwhy)
{
    return rcc_prm_v(x, opt, prm, why, nwhy, RCC_FULL);
}

static int rcc_prm_pid(const struct cc_ctx *x, const void *opt, void *prm, char *why, size_t nwhy)
{
    return rcc_prm_v(x, opt, prm, why, nwhy, RCC_PID_ONLY);
}

static int rcc_prm_ewa(const struct cc_ctx *x, const void *opt, void *prm, char *why, size_t nwhy)
{
    return rcc_prm_v(x, opt, prm, why, nwhy, RCC_EWA_ONLY);
}

/* The per-host receiver state, shared by all RCC flows: each
 * host's link speed and clock offset. */
static int rcc_setup(struct scenario *sc, const void *opt, struct cfg *c, struct cfg_err *err)
{
    const struct rcc_opt *o = opt;
    struct net *n = &sc->net;
    struct rcc_host *hs = net_host_state(n, &cc_algo_rcc, sizeof *hs);
    if (!hs)
        return cfg_section_errorf(err, c, "rcc", "out of memory");
    if (hs[0].rx.line_bps)
        return 0;                      /* several RCC algorithms in use: done once */
    struct rng g;
    rng_seed(&g, o->clock_seed);
    for (uint32_t i = 0; i < n->n_hosts; i++) {
        rcc_rx_init(&hs[i].rx, n->ports[n->hosts[i].port].rate_bps);
        if (o->clock_offset)
            hs[i].clk_off_ps = (int64_t)(rng_uniform(&g) * 2.0 * (double)o->clock_offset) - (int64_t)o->clock_offset;
    }
    return 0;
}

const struct cc_algo cc_algo_rcc = {
    .name = "rcc", .tp = &transport_rcc, .sections = { "rcc" }, .prm_section = "rcc",
    .opt_size = sizeof(struct rcc_opt), .read = rcc_read,
    .prm_size = sizeof(struct rcc_prm), .params = rcc_prm, .setup = rcc_setup,
};

const struct cc_algo cc_algo_rcc_sender = {
    .name = "rcc_sender", .tp = &transport_rcc_sender, .sections = { "rcc" }, .prm_section = "rcc",
    .opt_size = sizeof(struct rcc_opt), .read = rcc_read,
    .prm_size = sizeof(struct rcc_prm), .params = rcc_prm, .setup = rcc_setup,
};

/* §V-E ablations: the rcc transport (receiver-driven) with the variant set. */
const struct cc_algo cc_algo_rcc_pid = {
    .name = "rcc_pid", .tp = &transport_rcc, .sections = { "rcc" }, .prm_section = "rcc",
    .opt_size = sizeof(struct rcc_opt), .read = rcc_read,
    .prm_size = sizeof(struct rcc_prm), .params = rcc_prm_pid, .setup = rcc_setup,
};

const struct cc_algo cc_algo_rcc_ewa = {
    .name = "rcc_ewa", .tp = &transport_rcc, .sections = { "rcc" }, .prm_section = "rcc",
    .opt_size = sizeof(struct rcc_opt), .read = rcc_read,
    .prm_size = sizeof(struct rcc_prm), .params = rcc_prm_ewa, .setup = rcc_setup,
};
