/*
 * parallel_cfg.c -- [parallel] keys, what a partitioned run refuses, and the
 * partition report (parallel.h).  No MPI here.
 */
#include "engine/parallel.h"

#include <stdlib.h>
#include <string.h>

#include "engine/ccreg.h"
#include "engine/fcsel.h"
#include "engine/oqsel.h"
#include "engine/partition.h"
#include "net/flowctl.h"

int parallel_read(struct scenario *sc, struct cfg *c, struct cfg_err *err)
{
    int m;
    if (cfg_enum(c, "parallel", "partition", part_method_names, PART_AUTO, &m, err))
        return -1;
    sc->par_method = m;
    uint64_t r;
    if (cfg_u64(c, "parallel", "ranks", 0, &r, err))
        return -1;
    if (r > PART_MAX)
        return cfg_errorf(err, cfg_find(c, "parallel", "ranks"), "must be 0 (any) or 1..%u", PART_MAX);
    sc->par_ranks = (uint32_t)r;
    return 0;
}

/* The entry to blame: the key if the file has it, else the section. */
static int refuse(struct scenario *sc, struct cfg_err *err, const char *sec, const char *key, const char *what)
{
    const struct cfg_entry *e = key ? cfg_find(sc->cfg, sec, key) : NULL;
    if (e)
        return cfg_errorf(err, e, "%s cannot run over several MPI ranks yet (docs/parallel.md); run it with one", what);
    return cfg_section_errorf(err, sc->cfg, sec, "%s cannot run over several MPI ranks yet (docs/parallel.md); "
                              "run it with one", what);
}

int parallel_refuse(struct scenario *sc, uint32_t ranks, struct cfg_err *err)
{
    const struct net *n = &sc->net;
    if (ranks <= 1)
        return 0;
    if (sc->par_ranks && sc->par_ranks != ranks)
        return cfg_errorf(err, cfg_find(sc->cfg, "parallel", "ranks"), "the file asks for %u ranks, the run has %u",
                          sc->par_ranks, ranks);
    /* Flow-control schemes: each registry entry says whether it may
     * (fcsel.h par_refused). */
    for (uint32_t s = 0; s < n->n_sws; s++)
        if (n->sws[s].fc && n->sws[s].fc != &fc_pfc) {
            const struct fc_scheme *k = fcsel_by_ops(n->sws[s].fc);
            if (!k)
                return refuse(sc, err, "flowcontrol", "scheme", "a flow-control scheme outside the registry");
            if (k->par_refused)
                return refuse(sc, err, "flowcontrol", "scheme", k->par_refused);
        }
    /* A capture builds an ACK's MSN from the flow's size, which a flow's
     * stop changes on its source's rank only. */
    if (sc->pcap && parallel_flows_stop(n))
        return refuse(sc, err, "output", "pcap", "packet capture with flows that stop");
    /* Transports: each registry entry says whether it may (ccreg.h
     * par_refused).  A flow's entry is the one with its transport. */
    const struct transport_ops *seen = NULL;
    for (uint32_t f = 0; f < n->n_flows; f++) {
        const struct transport_ops *tp = n->flows[f].tp;
        if (!tp || tp == seen)
            continue;
        seen = tp;
        for (int i = 0; i < CC_NALGO; i++)
            if (cc_registry[i]->tp == tp && (cc_registry[i]->par_refused ||
                                             (cc_registry[i]->par_refused_stop && parallel_flows_stop(n)))) {
                char what[200];
                if (cc_registry[i]->par_refused)
                    snprintf(what, sizeof what, "the %s transport (%s)", cc_registry[i]->name,
                             cc_registry[i]->par_refused);
                else
                    snprintf(what, sizeof what, "the %s transport with flows that stop (%s)", cc_registry[i]->name,
                             cc_registry[i]->par_refused_stop);
                return refuse(sc, err, "cc", "algorithm", what);
            }
    }
    /* A stopped flow's receiver learns its final size only from the merged
     * outputs (parallel.c); with ACKs every frame it sends nothing different
     * meanwhile, but a coarser ACK interval acks the last byte at once. */
    if (n->cfg.ack_interval > 1 && parallel_flows_stop(n))
        return refuse(sc, err, "network", "ack_interval", "ack_interval > 1 with flows that stop");
    /* (net.fc_host_frame, a scheme's NIC side, is its registry entry's
     * concern above: GFC's keeps state per NIC port, owned by the host.
     * Per-host transport tables are their transport's, audited with it.) */
    return 0;
}

int parallel_flows_stop(const struct net *n)
{
    for (uint32_t f = 0; f < n->n_flows; f++)
        if (n->flows[f].stop_ps != SIMTIME_NEVER)
            return 1;
    return 0;
}

int parallel_partition(struct scenario *sc, uint32_t ranks, uint16_t *rank, struct cfg_err *err)
{
    char why[256];
    if (partition(&sc->net, &sc->layout, (enum part_method)sc->par_method, ranks, rank, NULL, why, sizeof why)) {
        const struct cfg_entry *e = cfg_find(sc->cfg, "parallel", "partition");
        return e ? cfg_errorf(err, e, "%s", why) : cfg_section_errorf(err, sc->cfg, "parallel", "%s", why);
    }
    return 0;
}

int parallel_print(struct scenario *sc, uint32_t ranks, FILE *f, struct cfg_err *err)
{
    const struct net *n = &sc->net;
    uint16_t *rank = calloc(n->n_nodes ? n->n_nodes : 1, sizeof *rank);
    struct part_stats st;
    char why[256];
    if (!rank)
        return cfg_section_errorf(err, sc->cfg, "parallel", "out of memory");
    if (partition(n, &sc->layout, (enum part_method)sc->par_method, ranks, rank, &st, why, sizeof why)) {
        free(rank);
        const struct cfg_entry *e = cfg_find(sc->cfg, "parallel", "partition");
        return e ? cfg_errorf(err, e, "%s", why) : cfg_section_errorf(err, sc->cfg, "parallel", "%s", why);
    }
    uint64_t total = 0;
    for (uint32_t p = 0; p < ranks; p++)
        total += st.load[p];
    fprintf(f, "partition: %s, %u ranks, %u nodes (%u hosts), %u links\n", part_method_names[st.used], ranks,
            n->n_nodes, n->n_hosts, n->n_links);
    fprintf(f, "rank\tnodes\thosts\tload_share\n");
    for (uint32_t p = 0; p < ranks; p++)
        fprintf(f, "%u\t%u\t%u\t%.4f\n", p, st.nodes[p], st.hosts[p], total ? (double)st.load[p] / (double)total : 0);
    fprintf(f, "cut_links\t%u\nlookahead_ns\t", st.cut_links);
    if (st.lookahead_ps == SIMTIME_NEVER)
        fprintf(f, "none\n");
    else
        fprintf(f, "%.3f\n", (double)st.lookahead_ps / PS_PER_NS);
    fprintf(f, "cut_capacity_fraction\t%.4f\nimbalance\t%.4f\n", st.cut_load, st.imbalance);
    part_stats_free(&st);
    free(rank);
    return 0;
}
