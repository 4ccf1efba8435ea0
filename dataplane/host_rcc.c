/*
 * host_rcc.c -- RCC's receiver and sender glue in rocc-host (host_rcc.h).
 *
 * Receiver (--cc rcc or rcc_sender on the sink): every RoCEv2 data frame
 * carrying the RCC data extension (pkt.h) gives a one-way delay, arrival
 * minus its send time on the machine's CLOCK_MONOTONIC; struct rcc_rx
 * counts N (a message from its first frame to the frame flagged Last,
 * §III-D) and B_R (wire bytes of every RCC frame, §III-C); with --cc rcc
 * the sink's struct rcc_conn runs Alg. 1 (rcc_conn_on_sample) and every
 * --rcc-ack-every'th frame (and the Last one) is acknowledged with the
 * window and N; with --cc rcc_sender the ACK carries B_R in Mb/s and N.
 * Sender (--cc rcc): the window is the last ACK's; the flow paces at
 * min(line, W*8/T) (rcc_pace_bps, §III-D "packet pacing") and keeps at most
 * W payload bytes unacknowledged.  --cc rcc_sender: the sender runs
 * rcc_conn_on_sample on each ACK's RTT (now - the echoed send time) with the
 * fair share C/N of the fed-back N and the last-hop test B_R > eta*c, c =
 * its own --line-gbps (the receiver's link speed: every link of Fig. 8 has
 * the same; the simulator uses the receiver's).  Both start at line rate
 * with window C = c*T/8 (§III-B "Each flow starts at line rate").
 *
 * Strictness: a data frame whose extension pkt_parse_rcc_data refuses, or
 * whose send time is in the future or more than 1 s old, is counted
 * (data_bad_*, ts_bad) and gives RCC nothing (the sink still counts it
 * as received).  An ACK pkt_parse_rcc_ack refuses is counted by reason;
 * one that names no flow of ours (source = the flow's destination, QPN),
 * carries the other variant's type, acknowledges a PSN not yet sent, or
 * echoes a send time in the future or more than 1 s old is counted and
 * dropped.  Nothing authenticates an ACK beyond that (as for CNPs without
 * --cnp-key): the flow's receiver address is trusted.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_ethdev.h>

#include "host.h"

/* RCC §V-C: "In both testbed and simulator, the RTT is about 12 us" on
 * 25 Gb/s links.  The data plane keeps the paper's BDP C = c*T/8 = 37.5 KB
 * at any link rate: T = 12 us * 25 Gb/s / c (1 ms at 300 Mb/s). */
#define RCC_PAPER_RTT_PS  12000000ull
#define RCC_PAPER_LINK_BPS 25000000000ull
/* Sanity bound on a send time: older than this is not one of our frames. */
#define RCC_TS_MAX_AGE_NS 1000000000ull

uint64_t host_rcc_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

const char *host_cc_name(enum host_cc m)
{
    switch (m) {
    case HOST_CC_NONE: return "none";
    case HOST_CC_RCC: return "rcc";
    case HOST_CC_RCC_SENDER: return "rcc_sender";
    default: return "rocc";
    }
}

int host_rcc_opt(struct host *h, int code, const char *arg)
{
    struct host_rcc *r = &h->rcc;
    uint64_t v;
    switch (code) {
    case HOST_OPT_CC:
        if (!strcmp(arg, "rocc")) r->mode = HOST_CC_ROCC;
        else if (!strcmp(arg, "none")) r->mode = HOST_CC_NONE;
        else if (!strcmp(arg, "rcc")) r->mode = HOST_CC_RCC;
        else if (!strcmp(arg, "rcc_sender")) r->mode = HOST_CC_RCC_SENDER;
        else return -1;
        return 0;
    case HOST_OPT_RCC_T: return pkt_parse_u64(arg, 0, 1, 10000000, NULL, &r->o_base_rtt_us);
    case HOST_OPT_RCC_N: return pkt_parse_u64(arg, 0, 1, 1000000, NULL, &r->o_n);
    case HOST_OPT_RCC_DELTA: r->has_delta = 1; return pkt_parse_dbl(arg, 1e-9, 1 - 1e-9, &r->o_delta);
    case HOST_OPT_RCC_ETA: r->has_eta = 1; return pkt_parse_dbl(arg, 1e-9, 1 - 1e-9, &r->o_eta);
    case HOST_OPT_RCC_KP: r->has_kp = 1; return pkt_parse_dbl(arg, 0, 1e11, &r->o_kp);
    case HOST_OPT_RCC_KD: r->has_kd = 1; return pkt_parse_dbl(arg, 0, 1e11, &r->o_kd);
    case HOST_OPT_RCC_PID: r->has_pid = 1; return pkt_parse_u64(arg, 0, 0, 10000000, NULL, &r->o_pid_us);
    case HOST_OPT_RCC_WMIN: return pkt_parse_u64(arg, 0, 1, 100000000, NULL, &r->o_wmin);
    case HOST_OPT_RCC_ACK:
        if (pkt_parse_u64(arg, 0, 1, 1000000, NULL, &v)) return -1;
        r->ack_every = (uint32_t)v;
        return 0;
    default: return -1;
    }
}

static int rcc_on(const struct host *h) { return h->rcc.mode == HOST_CC_RCC || h->rcc.mode == HOST_CC_RCC_SENDER; }

int host_rcc_setup(struct host *h)
{
    struct host_rcc *r = &h->rcc;
    char why[96];
    uint64_t t_ps, c;

    if (!r->ack_every) r->ack_every = 1;               /* roccsim [network] ack_interval default (HPCC) */
    t_ps = r->o_base_rtt_us ? r->o_base_rtt_us * 1000000ull
                            : (uint64_t)((double)RCC_PAPER_RTT_PS * ((double)RCC_PAPER_LINK_BPS / (double)h->line_bps));
    if (t_ps < 1000000) t_ps = 1000000;                 /* at least 1 us */
    rcc_params_default(&r->p, t_ps);                    /* n, delta, eta (§III-F), PID interval T, w_min */
    /* Eq. 4's error is in seconds: at a time scale T/12 us every delay error
     * grows by that factor, so the gains shrink by it and Kp*e keeps the
     * paper's size (§V-A: Kp = 1e4, Kd = 1e5 at 12 us). */
    r->p.kp = RCC_KP * (double)RCC_PAPER_RTT_PS / (double)t_ps;
    r->p.kd = RCC_KD * (double)RCC_PAPER_RTT_PS / (double)t_ps;
    if (r->o_n) r->p.n_detect = (uint32_t)r->o_n;
    if (r->has_delta) r->p.delta = r->o_delta;
    if (r->has_eta) r->p.eta = r->o_eta;
    if (r->has_kp) r->p.kp = r->o_kp;
    if (r->has_kd) r->p.kd = r->o_kd;
    if (r->has_pid) r->p.pid_interval_ps = r->o_pid_us * 1000000ull;
    if (r->o_wmin) r->p.w_min_bytes = r->o_wmin;
    if (rcc_params_check(&r->p, why, sizeof why)) {
        fprintf(stderr, "--rcc-*: %s\n", why);
        return -1;
    }
    if (!rcc_on(h)) return 0;
    if (h->payload < PKT_RCC_DATA_LEN) {
        fprintf(stderr, "--cc %s needs --payload >= %d (the RCC data extension, pkt.h)\n", host_cc_name(r->mode),
                PKT_RCC_DATA_LEN);
        return -1;
    }
    if (!h->have_gw && !h->gw_ip) {
        fprintf(stderr, "--cc %s needs --gw-mac or --gw-ip (a receiver sends ACKs)\n", host_cc_name(r->mode));
        return -1;
    }
    rcc_rx_init(&r->rx, h->line_bps);                   /* c: this host's link */
    c = rcc_fair_share(h->line_bps, r->p.base_rtt_ps, 1);   /* C: start at line rate (§III-B) */
    for (unsigned i = 0; i < h->nflows; i++) {
        struct rcc_flow *rf = &h->flows[i].rf;
        rcc_conn_init(&rf->conn, c);
        rf->win = c;
        rf->pace_bps = rcc_pace_bps(&r->p, c, h->line_bps);
    }
    for (unsigned i = 0; i < MAX_SINK; i++) rcc_conn_init(&r->sk[i].conn, c);
    return 0;
}

/* ---- sender ---- */

int host_rcc_may_send(struct host *h, struct flow *f, uint64_t tsc)
{
    struct rcc_flow *rf = &f->rf;
    uint64_t inflight = (uint64_t)((f->psn - rf->acked_next) & 0xffffff) * h->payload;

    if (inflight + h->payload <= rf->win || inflight == 0) {
        rf->blocked = 0;
        return 1;
    }
    if (!rf->blocked) {
        rf->blocked = 1;
        rf->blocked_since_tsc = tsc;
    } else if (tsc - rf->blocked_since_tsc > dp_us_to_cycles(4 * h->rcc.p.base_rtt_ps / 1000000, h->hz)) {
        /* No ACK for 4 T: the frames in flight were lost (no retransmission
         * here); forget them rather than stall for ever. */
        rf->acked_next = f->psn;
        rf->win_timeouts++;
        rf->blocked = 0;
        return 1;
    }
    return 0;
}

static struct flow *ack_flow(struct host *h, uint32_t src_ip, uint32_t qpn)
{
    for (unsigned i = 0; i < h->nflows; i++)
        if (h->flows[i].dst_ip == src_ip && h->flows[i].qpn == qpn) return &h->flows[i];
    return NULL;
}

void host_rcc_on_ack(struct host *h, const uint8_t *fr, const struct pkt_info *pi, uint64_t now_ns, uint64_t tsc)
{
    struct host_rcc *r = &h->rcc;
    struct pkt_rcc_ack a;
    struct flow *f;
    struct rcc_flow *rf;
    uint64_t old_bps, w, rtt_ns;
    uint32_t since;
    int e = pkt_parse_rcc_ack(fr, pi, &a);

    if (e != PKT_RCC_OK) { r->ack_bad[e]++; return; }
    f = ack_flow(h, pi->src_ip, a.qpn);
    if (!f) { r->ack_nomatch++; return; }
    if (a.type != (r->mode == HOST_CC_RCC ? PKT_RCC_T_WIN : PKT_RCC_T_BR)) { r->ack_type++; return; }
    /* A PSN we sent: among the sent_pkts before the next PSN. */
    since = (f->psn - 1 - a.psn) & 0xffffff;
    if (!f->sent_pkts || since >= 0x800000 || since >= f->sent_pkts) { r->ack_psn++; return; }
    if (a.echo_ns > now_ns || now_ns - a.echo_ns > RCC_TS_MAX_AGE_NS) { r->ack_ts++; return; }
    rf = &f->rf;
    rtt_ns = now_ns - a.echo_ns;
    if (!rf->acks || rtt_ns < rf->rtt_min_ns) rf->rtt_min_ns = rtt_ns;
    rf->rtt_sum_ns += rtt_ns;
    rf->acks++;
    r->acks_rx++;
    /* Cumulative: everything up to a.psn has arrived (or is lost). */
    if (!rf->have_ack || ((a.psn + 1 - rf->acked_next) & 0xffffff) < 0x800000) rf->acked_next = (a.psn + 1) & 0xffffff;
    rf->have_ack = 1;
    if (r->mode == HOST_CC_RCC) {
        w = a.value;                                        /* Alg. 1 ran at the receiver */
    } else {
        uint64_t rtt_ps = rtt_ns ? rtt_ns * 1000 : 1;
        uint64_t fair = rcc_fair_share(h->line_bps, r->p.base_rtt_ps, a.n_flows);
        int full = rcc_last_hop_full_rate(&r->p, a.value, h->line_bps);
        w = rcc_conn_on_sample(&rf->conn, &r->p, rtt_ps, fair, full, now_ns * 1000);
    }
    old_bps = flow_rate_bps(h, f);
    rf->win = w ? w : 1;
    rf->pace_bps = rcc_pace_bps(&r->p, rf->win, h->line_bps);
    if (rf->blocked && f->next_tsc < tsc) f->next_tsc = tsc;   /* a window stall banks no sending time */
    repace(h, f, old_bps);
}

/* ---- receiver ---- */

static void queue_ack(struct host *h, const struct pkt_info *pi, const struct pkt_rcc_ack *a, uint64_t tsc)
{
    struct host_rcc *r = &h->rcc;
    struct rte_mbuf *m;
    uint8_t *p;
    uint16_t len = (uint16_t)(PKT_RCC_ACK_FRAME_LEN + (h->escape ? PKT_ESC_LEN : 0));

    if (!h->have_gw) { r->ack_alloc_fail++; return; }
    if (r->nack == RCC_ACKQ) host_rcc_flush(h, tsc);
    m = rte_pktmbuf_alloc(h->pool);
    if (!m) { r->ack_alloc_fail++; return; }
    p = (uint8_t *)rte_pktmbuf_append(m, len);
    if (!p || pkt_build_rcc_ack(p, len, h->mac, h->gw_mac, h->local_ip, pi->src_ip,
                                (uint16_t)(0xC000 | (a->qpn & 0x3fff)), h->escape, a) != len) {
        rte_pktmbuf_free(m);
        r->ack_alloc_fail++;
        return;
    }
    r->ackq[r->nack++] = m;
}

void host_rcc_flush(struct host *h, uint64_t tsc)
{
    struct host_rcc *r = &h->rcc;
    uint16_t n;
    if (!r->nack) return;
    n = dp_tx_burst(h->port, r->ackq, (uint16_t)r->nack, &h->cap, tsc);
    for (unsigned i = n; i < r->nack; i++) rte_pktmbuf_free(r->ackq[i]);
    h->tx_fail += r->nack - n;
    r->acks_tx += n;
    r->nack = 0;
}

void host_rcc_on_data(struct host *h, unsigned si, const uint8_t *fr, const struct pkt_info *pi, uint32_t wire,
                      uint64_t now_ns, uint64_t tsc)
{
    struct host_rcc *r = &h->rcc;
    struct rcc_sink *s = &r->sk[si];
    struct pkt_rcc_data d;
    uint64_t owd_ns, owd_ps, now = now_ns * 1000;
    int e = pkt_parse_rcc_data(fr, pi, &d);

    if (e != PKT_RCC_OK) { r->data_bad[e]++; return; }
    if (d.ts_ns > now_ns || now_ns - d.ts_ns > RCC_TS_MAX_AGE_NS) { r->ts_bad++; return; }
    owd_ns = now_ns - d.ts_ns;
    owd_ps = owd_ns ? owd_ns * 1000 : 1;
    if (!s->owd_n || owd_ns < s->owd_min_ns) s->owd_min_ns = owd_ns;
    s->owd_sum_ns += owd_ns;
    s->owd_n++;
    rcc_rx_on_data(&r->rx, wire, owd_ps, now);            /* B_R (§III-C) */
    if (!s->counted) { s->counted = 1; rcc_rx_msg_begin(&r->rx); }   /* N (§III-D) */
    if (d.last && !s->ended) { s->ended = 1; rcc_rx_msg_end(&r->rx); }
    if (r->mode == HOST_CC_RCC) {
        rcc_conn_on_sample(&s->conn, &r->p, owd_ps, rcc_rx_fair_share(&r->rx, &r->p),
                           rcc_rx_last_hop_full(&r->rx, &r->p), now);   /* Alg. 1 */
        s->samples++;
    }
    if (++s->since_ack >= r->ack_every || d.last) {
        struct pkt_rcc_ack a = {.qpn = pi->dest_qpn, .psn = pi->psn, .n_flows = r->rx.n_flows, .echo_ns = d.ts_ns};
        if (r->mode == HOST_CC_RCC) {
            a.type = PKT_RCC_T_WIN;
            a.value = s->conn.cwnd_bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)(s->conn.cwnd_bytes ? s->conn.cwnd_bytes : 1);
        } else {
            a.type = PKT_RCC_T_BR;
            a.value = rcc_rx_br_mbps(&r->rx);
        }
        s->since_ack = 0;
        s->acks++;
        queue_ack(h, pi, &a, tsc);
    }
}

/* ---- reports ---- */

void host_rcc_report(struct host *h, double t)
{
    struct host_rcc *r = &h->rcc;
    if (!rcc_on(h)) return;
    for (unsigned i = 0; i < h->nflows; i++) {
        const struct rcc_flow *rf = &h->flows[i].rf;
        printf("rcc_tx t=%.3f qpn=%u win=%" PRIu64 " pace_mbps=%.1f acks=%" PRIu64 " rtt_min_us=%.1f\n", t,
               h->flows[i].qpn, rf->win, (double)rf->pace_bps / 1e6, rf->acks, (double)rf->rtt_min_ns / 1e3);
    }
    if (h->nsinks)
        printf("rcc_rx t=%.3f n=%u br_mbps=%u tmin_us=%.1f last_hop_full=%d\n", t, r->rx.n_flows,
               rcc_rx_br_mbps(&r->rx), (double)r->rx.min_delay_ps / 1e6, rcc_rx_last_hop_full(&r->rx, &r->p));
    for (unsigned i = 0; i < h->nsinks && r->mode == HOST_CC_RCC; i++) {
        const struct rcc_sink *s = &r->sk[i];
        printf("rcc_conn t=%.3f qpn=%u cwnd=%" PRIu64 " in_pid=%u type=%u base_us=%.1f last_us=%.1f u=%.4f\n", t,
               h->sinks[i].qpn, s->conn.cwnd_bytes, s->conn.in_pid, s->conn.last_type,
               (double)s->conn.base_ps / 1e6, (double)s->conn.last_ps / 1e6, s->conn.u);
    }
}

void host_rcc_final(struct host *h)
{
    struct host_rcc *r = &h->rcc;
    char a[16];
    if (!rcc_on(h)) return;
    printf("final rcc cc=%s base_rtt_us=%.1f n=%u delta=%g eta=%g kp=%g kd=%g pid_us=%.1f w_min=%" PRIu64
           " ack_every=%u acks_tx=%" PRIu64 " acks_rx=%" PRIu64 " ts_bad=%" PRIu64 " ack_nomatch=%" PRIu64
           " ack_type=%" PRIu64 " ack_psn=%" PRIu64 " ack_ts=%" PRIu64 " ack_alloc_fail=%" PRIu64,
           host_cc_name(r->mode), (double)r->p.base_rtt_ps / 1e6, r->p.n_detect, r->p.delta, r->p.eta, r->p.kp,
           r->p.kd, (double)r->p.pid_interval_ps / 1e6, r->p.w_min_bytes, r->ack_every, r->acks_tx, r->acks_rx,
           r->ts_bad, r->ack_nomatch, r->ack_type, r->ack_psn, r->ack_ts, r->ack_alloc_fail);
    for (int k = 1; k < PKT_RCC_NRESULTS; k++) printf(" data_bad_%s=%" PRIu64, pkt_rcc_strerror(k), r->data_bad[k]);
    for (int k = 1; k < PKT_RCC_NRESULTS; k++) printf(" ack_bad_%s=%" PRIu64, pkt_rcc_strerror(k), r->ack_bad[k]);
    printf("\n");
    for (unsigned i = 0; i < h->nflows; i++) {
        const struct rcc_flow *rf = &h->flows[i].rf;
        printf("final rcc_tx dst=%s qpn=%u win=%" PRIu64 " pace_mbps=%.1f acks=%" PRIu64 " rtt_min_us=%.1f"
               " rtt_mean_us=%.1f win_timeouts=%" PRIu64 " in_pid=%u\n",
               pkt_ip_str(h->flows[i].dst_ip, a, sizeof a), h->flows[i].qpn, rf->win, (double)rf->pace_bps / 1e6,
               rf->acks, (double)rf->rtt_min_ns / 1e3, rf->acks ? (double)rf->rtt_sum_ns / 1e3 / (double)rf->acks : 0.0,
               rf->win_timeouts, rf->conn.in_pid);
    }
    for (unsigned i = 0; i < h->nsinks; i++) {
        const struct rcc_sink *s = &r->sk[i];
        printf("final rcc_rx src=%s qpn=%u samples=%" PRIu64 " acks=%" PRIu64 " owd_min_us=%.1f owd_mean_us=%.1f"
               " cwnd=%" PRIu64 " in_pid=%u pid_steps=%" PRIu64 " last_hop=%" PRIu64 " fair=%" PRIu64 "\n",
               pkt_ip_str(h->sinks[i].src_ip, a, sizeof a), h->sinks[i].qpn, s->samples, s->acks,
               (double)s->owd_min_ns / 1e3, s->owd_n ? (double)s->owd_sum_ns / 1e3 / (double)s->owd_n : 0.0,
               s->conn.cwnd_bytes, s->conn.in_pid, s->conn.n_pid_steps, s->conn.n_last_hop, s->conn.n_fair);
    }
}
