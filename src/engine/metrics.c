/* metrics.c -- window statistics over run samples; see metrics.h. */
#include "engine/metrics.h"
#include "net/agent_rocc.h"

#include <math.h>
#include <stdlib.h>

const char *const port_class_names[PC_N] = { "edge_down", "edge_up", "agg_down", "agg_up", "core", "other" };

enum port_class metrics_port_class(const struct net *n, uint32_t port)
{
    const struct node *me = &n->nodes[n->ports[port].node];
    const struct node *peer = &n->nodes[n->ports[n->ports[port].peer].node];
    switch (me->tier) {
    case TIER_EDGE: return peer->kind == NODE_HOST ? PC_EDGE_DOWN : PC_EDGE_UP;
    case TIER_AGG:  return peer->tier == TIER_EDGE ? PC_AGG_DOWN : PC_AGG_UP;
    case TIER_CORE: return PC_CORE;
    default:        return PC_OTHER;
    }
}

int metrics_window(const struct scenario *sc, simtime_t t0, simtime_t t1, uint32_t *i0, uint32_t *i1)
{
    if (sc->n_samples == 0)
        return -1;
    uint64_t a = (t0 + sc->sample_interval - 1) / sc->sample_interval;
    uint64_t b = t1 / sc->sample_interval;
    if (b >= sc->n_samples)
        b = sc->n_samples - 1;
    if (a >= b)
        return -1;
    *i0 = (uint32_t)a;
    *i1 = (uint32_t)b;
    return 0;
}

double metrics_flow_rate(const struct scenario *sc, uint32_t f, simtime_t t0, simtime_t t1)
{
    uint32_t a, b;
    if (!sc->flow_series || metrics_window(sc, t0, t1, &a, &b))
        return NAN;
    uint32_t nf = sc->net.n_flows;
    uint64_t bytes = sc->s_flow_bytes[(size_t)b * nf + f] - sc->s_flow_bytes[(size_t)a * nf + f];
    double secs = (double)((b - a) * sc->sample_interval) / (double)PS_PER_S;
    return (double)bytes * 8.0 / secs;
}

double metrics_jain(const double *x, uint32_t n)
{
    double s = 0, s2 = 0;
    for (uint32_t i = 0; i < n; i++) {
        s += x[i];
        s2 += x[i] * x[i];
    }
    return s2 > 0 ? s * s / ((double)n * s2) : NAN;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

void metrics_queue(const struct scenario *sc, uint32_t m, simtime_t t0, simtime_t t1, struct qstats *q)
{
    uint32_t a, b;
    q->mean = q->p99 = q->max = NAN;
    if (metrics_window(sc, t0, t1, &a, &b))
        return;
    uint32_t n = b - a + 1;
    uint64_t *v = malloc(n * sizeof *v);
    if (!v)
        return;
    double sum = 0;
    for (uint32_t k = 0; k < n; k++) {
        v[k] = sc->s_queue[(size_t)(a + k) * sc->n_mon + m];
        sum += (double)v[k];
    }
    qsort(v, n, sizeof *v, cmp_u64);
    q->mean = sum / n;
    q->p99 = (double)v[(size_t)ceil(0.99 * n) - 1];   /* nearest-rank percentile */
    q->max = (double)v[n - 1];
    free(v);
}

static double f_bps(const struct scenario *sc, uint32_t m, uint32_t k)
{
    uint32_t units = sc->s_fair[(size_t)k * sc->n_mon + m];
    const struct net *n = &sc->net;
    const struct rocc_cp_params *p = &((const struct rocc_agent *)n->agents[sc->mon[m].agent].state)->prm;
    return (double)units * p->f_unit_mbps * 1e6;
}

void metrics_fair(const struct scenario *sc, uint32_t m, simtime_t t0, simtime_t t1,
                  double *mean, double *min, double *max)
{
    uint32_t a, b;
    *mean = *min = *max = NAN;
    if (sc->mon[m].agent == NONE32 || metrics_window(sc, t0, t1, &a, &b))
        return;
    double s = 0, lo = INFINITY, hi = -INFINITY;
    for (uint32_t k = a; k <= b; k++) {
        double v = f_bps(sc, m, k);
        s += v;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    *mean = s / (b - a + 1);
    *min = lo;
    *max = hi;
}

double metrics_fair_settle(const struct scenario *sc, uint32_t m, simtime_t t0, simtime_t t1, double band)
{
    uint32_t a, b;
    if (sc->mon[m].agent == NONE32 || metrics_window(sc, t0, t1, &a, &b))
        return NAN;
    /* Judge F by its mean over consecutive blocks of SETTLE_BLOCK, so the
     * ±1-unit dither of a converged PI controller at a small F (e.g. 40 ± 3
     * units = 400 Mb/s) does not count as "not settled". */
    uint32_t blk = (uint32_t)(SETTLE_BLOCK_PS / sc->sample_interval);
    if (blk == 0)
        blk = 1;
    uint32_t tail = a + (b - a) * 3 / 4;
    double ref = 0;
    for (uint32_t k = tail; k <= b; k++)
        ref += f_bps(sc, m, k);
    ref /= (b - tail + 1);
    simtime_t settled = t0;
    for (uint32_t k = a; k + blk - 1 <= b; k += blk) {
        double mean = 0;
        for (uint32_t j = k; j < k + blk; j++)
            mean += f_bps(sc, m, j);
        mean /= blk;
        if (fabs(mean - ref) > band * ref)
            settled = (simtime_t)(k + blk) * sc->sample_interval;
    }
    return (double)(settled - t0);
}

double metrics_md(const struct scenario *sc, uint32_t m, simtime_t t0, simtime_t t1)
{
    uint32_t a, b;
    if (sc->mon[m].agent == NONE32 || metrics_window(sc, t0, t1, &a, &b))
        return NAN;
    return (double)(sc->s_md[(size_t)b * sc->n_mon + m] - sc->s_md[(size_t)a * sc->n_mon + m]);
}

double metrics_util(const struct scenario *sc, uint32_t m, simtime_t t0, simtime_t t1)
{
    uint32_t a, b;
    if (metrics_window(sc, t0, t1, &a, &b))
        return NAN;
    uint64_t bytes = sc->s_tx[(size_t)b * sc->n_mon + m] - sc->s_tx[(size_t)a * sc->n_mon + m];
    double secs = (double)((b - a) * sc->sample_interval) / (double)PS_PER_S;
    return (double)bytes * 8.0 / secs / (double)sc->net.ports[sc->mon[m].port].rate_bps;
}
