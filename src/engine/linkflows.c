/* linkflows.c -- flows per link over time, sampled source rates; see linkflows.h. */
#include "engine/linkflows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/metrics.h"

/* Per-sample counts are kept while they fit in this many entries (2 bytes
 * each); beyond it only the means and maxima are (a warning says so). */
#define LF_SERIES_MAX (64u << 20)

const char *lf_tier(const struct net *n, uint32_t port)
{
    if (n->nodes[n->ports[port].node].kind == NODE_HOST)
        return "host_up";
    return port_class_names[metrics_port_class(n, port)];
}

int lf_init(struct scenario *sc)
{
    uint32_t np = sc->net.n_ports ? sc->net.n_ports : 1;
    sc->lf_count = calloc(np, sizeof *sc->lf_count);
    sc->lf_sum = calloc(np, sizeof *sc->lf_sum);
    sc->lf_max = calloc(np, sizeof *sc->lf_max);
    if (!sc->lf_count || !sc->lf_sum || !sc->lf_max)
        return -1;
    if ((uint64_t)sc->cap_samples * np <= LF_SERIES_MAX) {
        sc->s_lf = malloc((size_t)sc->cap_samples * np * sizeof *sc->s_lf);
        if (!sc->s_lf)
            return -1;
    } else {
        scenario_warn(sc, "%s: %u samples x %u links is too many to keep flows per link over time: "
                      "link_flows.tsv is not written (raise sim.sample_interval); the means and maxima are",
                      cfg_path(sc->cfg), sc->cap_samples, np);
    }
    return 0;
}

void lf_sample(struct scenario *sc, uint32_t k)
{
    struct net *n = &sc->net;
    simtime_t now = n->el.now;
    int in_window = now >= sc->measure_start && now <= sc->measure_end;
    memset(sc->lf_count, 0, n->n_ports * sizeof *sc->lf_count);
    for (uint32_t h = 0; h < n->n_hosts; h++) {
        const struct host *ho = &n->hosts[h];
        if (!net_node_local(n, ho->node))
            continue;                   /* a partitioned run: its rank counts it */
        for (uint32_t j = 0; j < ho->n_active; j++) {
            const struct flow *f = &n->flows[ho->active[j]];
            if (!(f->flags & FL_ACTIVE) || (f->flags & FL_DONE))
                continue;
            if (in_window && f->first_tx_ps != SIMTIME_NEVER) {
                if (sc->par_rates) {    /* partitioned: rank 0 folds them in host order (parallel.c) */
                    sc->par_rates(sc, h, f->rate_bps);
                } else {
                    double r = (double)f->rate_bps, d = r - sc->rs_mean;     /* Welford */
                    sc->rs_n++;
                    sc->rs_mean += d / (double)sc->rs_n;
                    sc->rs_m2 += d * (r - sc->rs_mean);
                }
            }
            uint32_t dnode = n->hosts[f->dst].node, port = ho->port;
            for (int hop = 0; hop < 64 && port != NONE32; hop++) {
                sc->lf_count[port]++;
                uint32_t node = n->ports[n->ports[port].peer].node;
                if (node == dnode)
                    break;
                port = net_route(n, node, f->dst, f->hash);
            }
        }
    }
    if (sc->par_sample)
        sc->par_sample(sc, k);          /* partitioned: sum the ranks' counts and samples */
    if (in_window)
        sc->lf_samples++;
    for (uint32_t p = 0; p < n->n_ports; p++) {
        uint32_t c = sc->lf_count[p];
        if (sc->s_lf)
            sc->s_lf[(size_t)k * n->n_ports + p] = (uint16_t)(c > UINT16_MAX ? UINT16_MAX : c);
        if (in_window) {
            sc->lf_sum[p] += c;
            if (c > sc->lf_max[p])
                sc->lf_max[p] = c;
        }
    }
}

/* "A->B", "#k" for the k-th of parallel links (as the queue monitors). */
static void link_name(const struct net *n, uint32_t p, char *out, size_t len)
{
    uint32_t a = n->ports[p].node, b = n->ports[n->ports[p].peer].node, nth = 1;
    for (uint32_t q = n->nodes[a].first_port; q < p; q++)
        nth += n->ports[n->ports[q].peer].node == b;
    if (nth > 1)
        snprintf(out, len, "%s->%s#%u", n->nodes[a].name, n->nodes[b].name, nth);
    else
        snprintf(out, len, "%s->%s", n->nodes[a].name, n->nodes[b].name);
}

/* A link enters the outputs if some sample saw a flow on it. */
static int carried(const struct scenario *sc, uint32_t p)
{
    if (sc->lf_max[p])
        return 1;
    if (sc->s_lf)
        for (uint32_t k = 0; k < sc->n_samples; k++)
            if (sc->s_lf[(size_t)k * sc->net.n_ports + p])
                return 1;
    return 0;
}

void lf_write_tsv(FILE *f, const struct scenario *sc)
{
    const struct net *n = &sc->net;
    char name[160];
    /* Which links get a column, found once (without memory: asked again
     * for every cell, slower but the same file). */
    uint8_t *use = malloc(n->n_ports ? n->n_ports : 1);
    for (uint32_t p = 0; use && p < n->n_ports; p++)
        use[p] = (uint8_t)carried(sc, p);
    fputs("time_s", f);
    for (uint32_t p = 0; p < n->n_ports; p++)
        if (use ? use[p] : carried(sc, p)) {
            link_name(n, p, name, sizeof name);
            fprintf(f, "\t%s", name);
        }
    fputc('\n', f);
    for (uint32_t k = 0; sc->s_lf && k < sc->n_samples; k++) {
        fprintf(f, "%.9f", (double)((uint64_t)k * sc->sample_interval) / PS_PER_S);
        for (uint32_t p = 0; p < n->n_ports; p++)
            if (use ? use[p] : carried(sc, p))
                fprintf(f, "\t%u", sc->s_lf[(size_t)k * n->n_ports + p]);
        fputc('\n', f);
    }
    free(use);
}

static const char *const tiers[] = { "host_up", "edge_up", "agg_up", "core", "agg_down", "edge_down", "other" };

/* Over the links of a tier that carried a flow in the window: their count,
 * the mean count (over links and samples) and the largest. */
static uint32_t tier_stats(const struct scenario *sc, const char *tier, double *mean, uint32_t *max)
{
    const struct net *n = &sc->net;
    uint32_t links = 0;
    double sum = 0;
    *max = 0;
    for (uint32_t p = 0; p < n->n_ports; p++) {
        if (!sc->lf_max[p] || strcmp(lf_tier(n, p), tier))
            continue;
        links++;
        sum += (double)sc->lf_sum[p] / sc->lf_samples;
        if (sc->lf_max[p] > *max)
            *max = sc->lf_max[p];
    }
    *mean = links ? sum / links : NAN;
    return links;
}

void lf_summary_json(FILE *f, const struct scenario *sc)
{
    int first = 1;
    fputc('[', f);
    for (size_t t = 0; t < sizeof tiers / sizeof tiers[0]; t++) {
        double mean;
        uint32_t max, links = tier_stats(sc, tiers[t], &mean, &max);
        if (!links)
            continue;
        fprintf(f, "%s\n    {\"tier\": \"%s\", \"links\": %u, \"flows_mean\": %.6g, \"flows_max\": %u}",
                first ? "" : ",", tiers[t], links, mean, max);
        first = 0;
    }
    fputs(first ? "]" : "\n  ]", f);
}

void lf_summary_tsv(FILE *f, const struct scenario *sc)
{
    for (size_t t = 0; t < sizeof tiers / sizeof tiers[0]; t++) {
        double mean;
        uint32_t max, links = tier_stats(sc, tiers[t], &mean, &max);
        if (links)
            fprintf(f, "concurrency.%s.links\t%u\nconcurrency.%s.flows_mean\t%.6g\nconcurrency.%s.flows_max\t%u\n",
                    tiers[t], links, tiers[t], mean, tiers[t], max);
    }
}

void lf_free(struct scenario *sc)
{
    free(sc->lf_count);
    free(sc->lf_sum);
    free(sc->lf_max);
    free(sc->s_lf);
}
