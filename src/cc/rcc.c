/* rcc.c -- RCC receiver and connection state machines; see rcc.h. */
#include "rcc.h"

#include <math.h>

#include "cc_util.h"

void rcc_params_default(struct rcc_params *p, uint64_t base_rtt_ps)
{
    p->base_rtt_ps = base_rtt_ps;
    p->n_detect = RCC_N_DETECT;        /* §III-F */
    p->delta = RCC_DELTA;              /* §III-F */
    p->eta = RCC_ETA;                  /* §III-F */
    p->kp = RCC_KP;                    /* §V-A */
    p->kd = RCC_KD;                    /* §V-A */
    p->pid_interval_ps = base_rtt_ps;  /* Table I update_timer: one round trip (our reading) */
    p->w_min_bytes = 1000;             /* our choice: one 1000 B payload */
    p->variant = RCC_FULL;             /* §V-E's ablations are opt-in */
}

int rcc_params_check(const struct rcc_params *p, char *why, size_t why_len)
{
    const char *bad = NULL;
    if (p->base_rtt_ps == 0)
        bad = "base RTT must be > 0";
    else if (p->n_detect < 1 || p->n_detect > 1000000)
        bad = "n must be 1..1000000";
    else if (!(p->delta > 0 && p->delta < 1))
        bad = "delta must be in (0, 1) (Eq. 1)";
    else if (!(p->eta > 0 && p->eta < 1))
        bad = "eta must be in (0, 1) (§III-C)";
    else if (!(p->kp >= 0 && p->kp < 1e12) || !(p->kd >= 0 && p->kd < 1e12))
        bad = "Kp and Kd must be in [0, 1e12)";
    else if (p->w_min_bytes < 1)
        bad = "w_min must be at least 1 byte";
    else if (p->variant != RCC_FULL && p->variant != RCC_PID_ONLY && p->variant != RCC_EWA_ONLY)
        bad = "variant must be RCC_FULL, RCC_PID_ONLY or RCC_EWA_ONLY";
    return bad ? cc_fail(why, why_len, bad) : 0;
}

/* ---- receiver host ---- */

void rcc_rx_init(struct rcc_rx *rx, uint64_t line_bps)
{
    *rx = (struct rcc_rx){ .line_bps = line_bps };
}

void rcc_rx_msg_begin(struct rcc_rx *rx)
{
    if (rx->n_flows < UINT32_MAX)
        rx->n_flows++;
}

void rcc_rx_msg_end(struct rcc_rx *rx)
{
    if (rx->n_flows)
        rx->n_flows--;
}

void rcc_rx_on_data(struct rcc_rx *rx, uint64_t wire_bytes, uint64_t delay_ps, uint64_t now_ps)
{
    if (delay_ps && (rx->min_delay_ps == 0 || delay_ps < rx->min_delay_ps))
        rx->min_delay_ps = delay_ps;
    uint64_t t = rx->min_delay_ps;
    if (!rx->started || t == 0) {
        rx->started = 1;
        rx->win_start_ps = now_ps;
    } else if (now_ps >= rx->win_start_ps && now_ps - rx->win_start_ps >= t) {
        /* Back-to-back intervals of length T_min: B_R is the last complete
         * one, 0 if an idle interval came between. */
        uint64_t k = (now_ps - rx->win_start_ps) / t;
        rx->br_bytes = k == 1 ? rx->win_bytes : 0;
        rx->br_interval_ps = t;
        rx->win_start_ps += k * t;
        rx->win_bytes = 0;
    }
    rx->win_bytes += wire_bytes;
}

int rcc_rx_last_hop_full(const struct rcc_rx *rx, const struct rcc_params *p)
{
    if (!rx->br_interval_ps)
        return 0;
    /* §III-C: B_R > c * min(RTT_base) * eta, in bytes. */
    double cap = (double)rx->line_bps * (double)rx->br_interval_ps / 8e12;
    return (double)rx->br_bytes > cap * p->eta;
}

uint32_t rcc_rx_br_mbps(const struct rcc_rx *rx)
{
    if (!rx->br_interval_ps)
        return 0;
    double mbps = (double)rx->br_bytes * 8e6 / (double)rx->br_interval_ps;   /* bytes*8/(T ps) in Mb/s */
    return mbps >= 4294967295.0 ? UINT32_MAX : (uint32_t)mbps;
}

uint64_t rcc_fair_share(uint64_t line_bps, uint64_t base_rtt_ps, uint32_t n_flows)
{
    /* §III-D: W(i) = C/N, C = c*T/8 bytes. */
    double c = (double)line_bps * (double)base_rtt_ps / 8e12;
    double w = c / (double)(n_flows ? n_flows : 1);
    return w < 1 ? 1 : (uint64_t)w;
}

uint64_t rcc_window_cap(const struct rcc_params *p, uint64_t line_bps, uint32_t n_flows)
{
    /* RCC-PID (§V-E) has no Explicit Window Assignment: no C/N, only the
     * line rate's window C (a flow "starts at line rate", §III-B). */
    return rcc_fair_share(line_bps, p->base_rtt_ps, p->variant == RCC_PID_ONLY ? 1 : n_flows);
}

uint64_t rcc_rx_fair_share(const struct rcc_rx *rx, const struct rcc_params *p)
{
    return rcc_window_cap(p, rx->line_bps, rx->n_flows);
}

int rcc_last_hop_full_rate(const struct rcc_params *p, uint64_t br_mbps, uint64_t line_bps)
{
    return (double)br_mbps * 1e6 > (double)line_bps * p->eta;
}

/* ---- connection ---- */

void rcc_conn_init(struct rcc_conn *c, uint64_t cwnd_init)
{
    *c = (struct rcc_conn){ .cwnd_bytes = cwnd_init, .w_bytes = (double)cwnd_init,
                            .pid_enter_ps = UINT64_MAX };
}

static double err_s(const struct rcc_conn *c, const struct rcc_params *p, uint64_t delay_ps)
{
    double target = (double)c->base_ps * (1.0 + p->delta / 2.0);   /* Eq. 2 */
    return ((double)delay_ps - target) * 1e-12;                     /* Eq. 3, seconds */
}

static double clamp_w(const struct rcc_params *p, double w, uint64_t fair)
{
    double hi = (double)fair, lo = (double)(p->w_min_bytes < fair ? p->w_min_bytes : fair);
    return w > hi ? hi : w < lo ? lo : w;
}

uint64_t rcc_pid_step(struct rcc_conn *c, const struct rcc_params *p, uint64_t delay_ps, uint64_t fair_bytes)
{
    double e = err_s(c, p, delay_ps);
    c->u += p->kp * e + p->kd * (e - c->last_err_s);             /* Eq. 4 (Ki = 0) */
    c->last_err_s = e;
    c->w_bytes = clamp_w(p, c->w_bytes * (1.0 - tanh(c->u)), fair_bytes);   /* Eq. 5, cap */
    c->n_pid_steps++;
    return (uint64_t)(c->w_bytes + 0.5);
}

static void enter_pid(struct rcc_conn *c, const struct rcc_params *p, uint64_t fair_bytes, uint64_t now_ps)
{
    c->in_pid = 1;
    c->pid_enter_ps = now_ps;
    c->w_bytes = clamp_w(p, (double)c->cwnd_bytes, fair_bytes);
    c->last_err_s = c->last_ps ? err_s(c, p, c->last_ps) : 0.0;
    c->next_pid_ps = now_ps;                            /* step now */
}

uint64_t rcc_conn_on_sample(struct rcc_conn *c, const struct rcc_params *p, uint64_t delay_ps,
                            uint64_t fair_bytes, int last_hop_full, uint64_t now_ps)
{
    if (delay_ps == 0)
        delay_ps = 1;
    c->n_samples++;
    if (c->base_ps == 0 || delay_ps < c->base_ps)
        c->base_ps = delay_ps;
    /* Eq. 1: RTT_i(t) > RTT_i^base * (1 + delta), n times in a row. */
    if ((double)delay_ps > (double)c->base_ps * (1.0 + p->delta))
        c->above = c->above < UINT32_MAX ? c->above + 1 : c->above;
    else
        c->above = 0;
    int detected = c->above >= p->n_detect;             /* CongestionDetection, Eq. 1 */
    if (!c->in_pid && p->variant == RCC_PID_ONLY) {
        /* RCC-PID: no EWA, so no line 11/17 assignment.  The window stays
         * where it is (the start window C) until congestion of either type
         * is detected; then PID, capped by C (fair_bytes = C here). */
        c->last_type = last_hop_full ? RCC_T_LAST_HOP : detected ? RCC_T_IN_NETWORK : RCC_T_NONE;
        if (last_hop_full)
            c->n_last_hop++;
        if (detected)
            enter_pid(c, p, fair_bytes, now_ps);
        else {
            c->n_fair++;
            c->w_bytes = clamp_w(p, c->w_bytes, fair_bytes);
            c->cwnd_bytes = (uint64_t)(c->w_bytes + 0.5);
        }
    } else if (!c->in_pid) {
        if (last_hop_full) {                            /* Alg. 1 lines 10-11 */
            c->last_type = RCC_T_LAST_HOP;
            c->n_last_hop++;
            c->cwnd_bytes = fair_bytes;
            c->w_bytes = (double)fair_bytes;
        } else if (detected && p->variant == RCC_EWA_ONLY) {
            /* RCC-EWA: in-network congestion detected (the type flag), but
             * there is no PID: the fair share stays the window. */
            c->last_type = RCC_T_IN_NETWORK;
            c->n_innet_nopid++;
            c->cwnd_bytes = fair_bytes;
            c->w_bytes = (double)fair_bytes;
        } else if (detected) {                          /* lines 13-15: in-network */
            enter_pid(c, p, fair_bytes, now_ps);
        } else {                                        /* line 17 */
            c->last_type = RCC_T_NONE;
            c->n_fair++;
            c->cwnd_bytes = fair_bytes;
            c->w_bytes = (double)fair_bytes;
        }
    }
    if (c->in_pid) {                                    /* lines 6-9, 15 */
        /* RCC-PID answers both types with PID: the flag keeps the type. */
        c->last_type = p->variant == RCC_PID_ONLY && last_hop_full ? RCC_T_LAST_HOP : RCC_T_IN_NETWORK;
        if (now_ps >= c->next_pid_ps) {
            c->cwnd_bytes = rcc_pid_step(c, p, delay_ps, fair_bytes);
            c->next_pid_ps = now_ps + p->pid_interval_ps;
        } else {
            c->w_bytes = clamp_w(p, c->w_bytes, fair_bytes);   /* N may have changed */
            c->cwnd_bytes = (uint64_t)(c->w_bytes + 0.5);
        }
    }
    c->last_ps = delay_ps;
    return c->cwnd_bytes;
}

uint64_t rcc_pace_bps(const struct rcc_params *p, uint64_t cwnd_bytes, uint64_t line_bps)
{
    double r = (double)cwnd_bytes * 8e12 / (double)p->base_rtt_ps;
    if (r >= (double)line_bps)
        return line_bps;
    return r < 1 ? 1 : (uint64_t)r;
}
