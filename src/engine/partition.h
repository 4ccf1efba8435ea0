/*
 * partition.h -- split a fabric into parts (one per MPI rank) for a
 * partitioned run (docs/parallel.md).  Pure: no MPI, no I/O; every rank
 * computes the same partition from the same (replicated) struct net.
 *
 * Each node (host or switch) is one logical process; a part is a set of
 * nodes that one rank executes.  Parts are cut only on links: a frame that
 * crosses a cut link travels to the other rank as a record, and the smallest
 * propagation delay of a cut link is the lookahead of the conservative
 * synchronisation (parallel.c).  Balance is by expected event load: a
 * node's weight is the sum of the rates of its ports (every frame a port
 * sends or receives is an event at each end), in Mb/s.
 *
 * Methods:
 *   POD    fat-trees (layout n_pods > 1): a pod (its edges, aggs and their
 *          hosts) is one unit; units go to parts largest first, each to the
 *          least loaded part (ties: the lowest part); core switches are then
 *          spread the same way.  Needs at least as many pods as parts.
 *   RACK   layouts with racks (layout hosts_per_edge > 0: leaf-spine,
 *          two-level trees, fat-trees with more parts than pods): an edge
 *          switch with its hosts is one unit, the rest as POD.
 *   GRAPH  any topology (topology files): parts grown breadth-first from the
 *          lowest unassigned node until they hold 1/P of the load, hosts
 *          always with their switch, then one refinement pass that moves a
 *          boundary switch (with its hosts) to the neighbour part that holds
 *          most of its link capacity if that lowers the cut and keeps the
 *          parts within 10% of the mean.
 *   AUTO   POD if the layout has at least P pods, else RACK if it has at
 *          least P racks, else GRAPH.
 */
#ifndef ROCC_PARTITION_H
#define ROCC_PARTITION_H

#include <stdint.h>
#include "engine/topology.h"

enum part_method { PART_AUTO = 0, PART_POD, PART_RACK, PART_GRAPH };
extern const char *const part_method_names[];   /* "auto", "pod", "rack", "graph", NULL */

/* The most parts (MPI ranks) a run may have: node_rank is 16 bits. */
#define PART_MAX 4096

struct part_stats {
    enum part_method used;       /* what AUTO chose */
    uint32_t parts;
    uint32_t cut_links;          /* links whose two ends are in different parts */
    simtime_t lookahead_ps;      /* min delay of a cut link (SIMTIME_NEVER: no cut) */
    double cut_load;             /* cut link capacity / all link capacity */
    double imbalance;            /* heaviest part's load / mean load */
    uint64_t *load;              /* [parts]: expected load (Mb/s of port rate) */
    uint32_t *nodes, *hosts;     /* [parts] */
};

/* Fill rank[n->n_nodes] (part of every node) for `parts` parts, 1 <= parts
 * <= PART_MAX, after net_finalize.  lay may be NULL or all zero (no layout:
 * GRAPH).  0, or -1 with why (a method that does not fit the topology,
 * more parts than nodes, memory).  st may be NULL; when given, its arrays
 * are allocated here (part_stats_free). */
int  partition(const struct net *n, const struct topo_layout *lay, enum part_method m, uint32_t parts,
               uint16_t *rank, struct part_stats *st, char *why, size_t why_len);
void part_stats_free(struct part_stats *st);

#endif
