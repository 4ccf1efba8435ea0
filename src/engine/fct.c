/* fct.c -- ideal FCT and FCT statistics; see fct.h. */
#include "engine/fct.h"

#include <math.h>
#include <stdlib.h>

simtime_t fct_ideal(const struct net *n, const struct flow *f)
{
    if ((f->flags & FL_ENDLESS) && !(f->flags & FL_STOPPED))
        return 0;
    if (f->size == 0)
        return 0;
    uint64_t mtu = n->cfg.mtu_payload;
    uint64_t k = (f->size + mtu - 1) / mtu;                  /* frames */
    uint64_t last = f->size - (k - 1) * mtu;                 /* payload of the last frame */
    uint64_t full = mtu + ROCE_DATA_OVERHEAD + f->hdr_extra + n->cfg.fc_hdr_bytes + n->cfg.preamble_ifg;
    uint64_t lastw = last + ROCE_DATA_OVERHEAD + f->hdr_extra + n->cfg.fc_hdr_bytes;
    if (lastw < ETH_MIN_FRAME)
        lastw = ETH_MIN_FRAME;
    lastw += n->cfg.preamble_ifg;
    uint32_t node = n->hosts[f->src].node, dnode = n->hosts[f->dst].node;
    uint32_t port = n->hosts[f->src].port;
    /* A rate cap below the NIC rate is a pacer in front of the NIC: frames
     * are released every gap = full/cap.  It acts as a virtual first hop
     * whose service time is that gap for every frame, with its output
     * advanced by one gap (the first frame leaves at the start). */
    uint64_t line = flow_line_rate(n, f);
    simtime_t gap = f->app_rate_bps && f->app_rate_bps < line ? tx_time_ps(full, f->app_rate_bps) : 0;
    /* sum/maxtx: the closed form for the full frames; arr_last: when the
     * last frame reaches the next hop. */
    simtime_t sum = 0, maxtx = 0, arr_last = 0;
    for (int hop = -1; hop < 64; hop++) {
        simtime_t tx_full, tx_last, delay;
        const struct port *pt = NULL;
        if (hop < 0) {                       /* the pacer */
            if (!gap)
                continue;
            tx_full = tx_last = gap;
            delay = 0;
        } else {
            pt = &n->ports[port];
            tx_full = tx_time_ps(full, pt->rate_bps);
            tx_last = tx_time_ps(lastw, pt->rate_bps);
            delay = pt->delay_ps;
        }
        if (tx_full > maxtx)
            maxtx = tx_full;
        sum += tx_full;
        /* The last frame starts when it has arrived and the frame before it
         * (the (k-1)-th, or none when k = 1) has left this hop. */
        simtime_t before = k > 1 ? sum + (k - 2) * maxtx : 0;
        simtime_t start = arr_last > before ? arr_last : before;
        arr_last = start + tx_last + delay;
        sum += delay;
        if (!pt)
            continue;
        node = n->ports[pt->peer].node;
        if (node == dnode)
            break;
        port = net_route(n, node, f->dst, f->hash);
    }
    return arr_last - gap;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(const double *v, size_t n, double q)
{
    size_t r = (size_t)ceil(q * (double)n);           /* nearest rank */
    if (r < 1)
        r = 1;
    return v[r - 1];
}

void fct_bin_stats(const struct scenario *sc, int incast, uint64_t lo, uint64_t hi, simtime_t t0, simtime_t t1,
                   struct fct_stats *st)
{
    const struct net *n = &sc->net;
    st->count = 0;
    st->avg = st->p50 = st->p90 = st->p99 = st->p999 = NAN;
    st->s_avg = st->s_p50 = st->s_p90 = st->s_p99 = st->s_p999 = NAN;
    st->w_avg = st->w_p50 = st->w_p90 = st->w_p99 = st->w_p999 = st->ws_avg = st->ws_p99 = NAN;
    st->unfinished = st->not_started = 0;
    size_t cap = n->n_flows ? n->n_flows : 1;
    double *f = malloc(cap * sizeof *f), *s = malloc(cap * sizeof *s);
    double *w = malloc(cap * sizeof *w), *ws = malloc(cap * sizeof *ws);
    if (!f || !s || !w || !ws) {
        free(f);
        free(s);
        free(w);
        free(ws);
        return;
    }
    size_t m = 0, mw = 0;
    double sf = 0, ss = 0, sw = 0, sws = 0;
    st->w_count = st->w_unfinished = 0;
    for (uint32_t i = 0; i < n->n_flows; i++) {
        const struct flow *fl = &n->flows[i];
        if ((fl->flags & FL_ENDLESS) && !(fl->flags & FL_STOPPED))
            continue;                          /* endless: no completion to wait for */
        if (fl->size <= lo || fl->size > hi)
            continue;
        if (incast >= 0 && sc->groups[fl->group].incast != incast)
            continue;
        int posted = fl->start_ps >= t0 && fl->start_ps <= t1;
        int sent = fl->first_tx_ps != SIMTIME_NEVER && fl->first_tx_ps >= t0 && fl->first_tx_ps <= t1;
        if (fl->finish_ps == SIMTIME_NEVER) {
            st->unfinished += posted;
            st->not_started += posted && fl->first_tx_ps == SIMTIME_NEVER;
            st->w_unfinished += sent;
            continue;
        }
        simtime_t ideal = fct_ideal(n, fl);
        if (ideal == 0)
            continue;
        if (posted) {
            f[m] = (double)(fl->finish_ps - fl->start_ps) / PS_PER_S;
            s[m] = (double)(fl->finish_ps - fl->start_ps) / (double)ideal;
            sf += f[m];
            ss += s[m];
            m++;
        }
        if (sent) {
            w[mw] = (double)(fl->finish_ps - fl->first_tx_ps) / PS_PER_S;
            ws[mw] = (double)(fl->finish_ps - fl->first_tx_ps) / (double)ideal;
            sw += w[mw];
            sws += ws[mw];
            mw++;
        }
    }
    st->count = m;
    if (m) {
        qsort(f, m, sizeof *f, cmp_double);
        qsort(s, m, sizeof *s, cmp_double);
        st->avg = sf / m;
        st->p50 = pct(f, m, 0.5);
        st->p90 = pct(f, m, 0.9);
        st->p99 = pct(f, m, 0.99);
        st->p999 = pct(f, m, 0.999);
        st->s_avg = ss / m;
        st->s_p50 = pct(s, m, 0.5);
        st->s_p90 = pct(s, m, 0.9);
        st->s_p99 = pct(s, m, 0.99);
        st->s_p999 = pct(s, m, 0.999);
    }
    st->w_count = mw;
    if (mw) {
        qsort(w, mw, sizeof *w, cmp_double);
        qsort(ws, mw, sizeof *ws, cmp_double);
        st->w_avg = sw / mw;
        st->w_p50 = pct(w, mw, 0.5);
        st->w_p90 = pct(w, mw, 0.9);
        st->w_p99 = pct(w, mw, 0.99);
        st->w_p999 = pct(w, mw, 0.999);
        st->ws_avg = sws / mw;
        st->ws_p99 = pct(ws, mw, 0.99);
    }
    free(f);
    free(s);
    free(w);
    free(ws);
}

uint64_t fct_flow_rates(const struct scenario *sc, simtime_t t0, simtime_t t1, double *mean, double *std)
{
    const struct net *n = &sc->net;
    double m = 0, m2 = 0;                      /* Welford */
    uint64_t k = 0;
    for (uint32_t i = 0; i < n->n_flows; i++) {
        const struct flow *fl = &n->flows[i];
        if (fl->finish_ps == SIMTIME_NEVER || fl->first_tx_ps < t0 || fl->first_tx_ps > t1 || fl->finish_ps == fl->first_tx_ps)
            continue;
        double r = (double)fl->size * 8.0 / ((double)(fl->finish_ps - fl->first_tx_ps) / PS_PER_S);
        k++;
        double d = r - m;
        m += d / (double)k;
        m2 += d * (r - m);
    }
    *mean = k ? m : NAN;
    *std = k > 1 ? sqrt(m2 / (double)(k - 1)) : NAN;
    return k;
}

uint64_t fct_count_started(const struct scenario *sc, simtime_t t0, simtime_t t1)
{
    const struct net *n = &sc->net;
    uint64_t started = 0;
    for (uint32_t i = 0; i < n->n_flows; i++) {
        const struct flow *fl = &n->flows[i];
        started += fl->start_ps >= t0 && fl->start_ps <= t1 && !((fl->flags & FL_ENDLESS) && !(fl->flags & FL_STOPPED));
    }
    return started;
}

uint64_t fct_count_below_one(const struct scenario *sc)
{
    const struct net *n = &sc->net;
    uint64_t bad = 0;
    for (uint32_t i = 0; i < n->n_flows; i++) {
        const struct flow *fl = &n->flows[i];
        if (fl->finish_ps == SIMTIME_NEVER)
            continue;
        simtime_t ideal = fct_ideal(n, fl);
        if (ideal && fl->finish_ps - fl->first_tx_ps < ideal)   /* the wire FCT: a QP wait only adds */
            bad++;
    }
    return bad;
}
