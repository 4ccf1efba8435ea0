/*
 * scenario.h -- a simulation run as the user described it.
 *
 * A scenario is built from an INI file (docs/config.md lists every key):
 * [sim] (duration, seed, sampling, measurement window), [network] (frame
 * sizes, classes, PFC/lossy mode, buffer), [topology] (a built-in shape or a
 * topology file), [cc] and [rocc] (algorithms and their parameters), one
 * [flows.NAME] section per flow group, and optionally [expect].  Building
 * turns it into a struct net with agents and flows; running samples the
 * state at a fixed interval so metrics over any window can be computed
 * afterwards (metrics.c), reported (report.c) and checked (expect.c).
 */
#ifndef ROCC_SCENARIO_H
#define ROCC_SCENARIO_H

#include <stdio.h>

#include "engine/config.h"
#include "engine/topology.h"
#include "net/net.h"

struct group {
    char     name[48];
    uint32_t first, count;        /* flows [first, first+count) */
    int      algo;                /* enum cc_algo (ccsel.h) */
    int      incast;              /* reported apart from background traffic */
};

struct cc_sel;                    /* ccsel.c */
struct deadlock;                  /* deadlock.c */
struct oqsel;                     /* oqsel.c */
struct lsccsel;                   /* lsccsel.c */
struct pcapout;                   /* pcapout.c */

/* A monitored switch egress port: queue, utilization, and CP fair rate. */
struct monitor {
    char     name[56];            /* "S0->S1" */
    uint32_t port;
    uint32_t agent;               /* RoCC agent index or NONE32 */
};

struct scenario {
    struct net net;
    struct cfg *cfg;
    simtime_t duration, sample_interval, measure_start, measure_end;
    uint64_t seed;
    int      lossless;
    struct group *groups;     uint32_t n_groups;
    struct monitor *mon;      uint32_t n_mon;
    uint32_t *node_by_name;   /* node indices sorted by (name, index), made after the topology */
    uint32_t n_node_by_name;
    int      flow_series;         /* per-flow samples kept */
    simtime_t fct_start, fct_end; /* FCT statistics: flows starting in [start, end] */
    uint64_t *fct_bins;           /* upper edges of the size bins, ascending */
    uint32_t n_fct_bins;
    int      hpcc_fct;            /* [output] hpcc_fct: also write fct.txt */
    int      hpcc_flows;          /* [output] hpcc_flows: also write flows.txt */
    uint32_t pfc_segments;        /* [output] pfc_segments: time segments for PFC counts */
    int      rocc_trace;          /* [output] rocc_trace names a group: write rocc_trace.csv */
    struct cc_sel *ccs;           /* algorithm profiles and parameter blocks */
    struct topo_layout layout;    /* of the built-in datacenter fabrics (zero otherwise) */
    /* samples at t = k * sample_interval, k = 0..n_samples-1 */
    uint32_t n_samples, cap_samples;
    uint64_t *s_flow_bytes;       /* [k * n_flows + f]: in-order data received, wire bytes */
    uint64_t *s_queue;            /* [k * n_mon + m]: data-queue bytes */
    uint64_t *s_tx;               /* [k * n_mon + m]: wire bytes sent (all frames) */
    uint32_t *s_fair;             /* [k * n_mon + m]: CP F in ΔF units (0: no CP) */
    uint32_t *s_md;               /* [k * n_mon + m]: CP's MDs so far, both branches (0: no CP) */
    uint32_t *s_pfc;              /* [k * n_mon + m]: XOFF frames received (cumulative) */
    /* Flows per link (linkflows.c): counts sampled with the others */
    uint32_t *lf_count;           /* [n_ports] scratch: active flows routed through each port now */
    uint16_t *s_lf;               /* [k * n_ports + p]: that count per sample (NULL: too many to keep) */
    uint64_t *lf_sum;             /* [n_ports]: sum of counts over the samples in the measure window */
    uint32_t *lf_max;             /* [n_ports]: max count over those samples */
    uint32_t lf_samples;          /* samples in the measure window */
    /* Table 3, sampled at the sources: every active flow's pacing rate at
     * every sample in the measure window (Welford mean and variance) */
    uint64_t rs_n;
    double   rs_mean, rs_m2;
    char     warnings[1024];      /* "roccsim: warning: ...\n" lines for the CLI */
    /* [events] (events.c): link down/up (port) or a static route (sw, dst,
     * next hops ev_next[next_off, next_off + n_next)) */
    struct sc_event {
        simtime_t t;
        enum { SC_EV_DOWN, SC_EV_UP, SC_EV_ROUTE } kind;
        uint32_t port, sw, dst, next_off, n_next;
    } *events;
    uint32_t n_events;
    uint32_t *ev_next, n_ev_next;
    char     event_error[256];    /* set if applying an event failed (out of memory) */
    struct attack *attacks;       /* [attack.NAME] sections (attack.c) */
    uint32_t n_attacks;
    /* Set by a flow-control scheme's setup (fcsel.h) to report its own
     * counters: members of summary.json's top-level object, each written
     * as ",\n  \"key\": ...", and console lines "  NAME: ...\n".  NULL: none. */
    void (*fc_json)(const struct scenario *sc, FILE *f);
    void (*fc_print)(const struct scenario *sc, FILE *out);
    /* A run over several MPI ranks (parallel.c): each rank counted only
     * the events of the nodes it owns; fc_merge packs the scheme's
     * counters, calls reduce (rank 0 gets, in place, the sum over ranks, or
     * the maximum if max) and on rank 0 stores them back for fc_json and
     * fc_print.  NULL: nothing to merge. */
    void (*fc_merge)(struct scenario *sc, void (*reduce)(uint64_t *v, size_t k, int max));
    struct deadlock *dl;          /* [flowcontrol] deadlock_check (deadlock.c), NULL: off */
    struct xbarsel *xbar;         /* [crossbar] (xbarsel.c), NULL: none */
    int      fc_section;          /* the scenario has [flowcontrol]: report the in-order check */
    struct oqsel *oq;             /* [openqueue] (oqsel.c), NULL: none */
    struct lsccsel *lscc;         /* [lscc] agents' outputs (lsccsel.c), NULL: none */
    struct pcapout *pcap;         /* [output] pcap (pcapout.c), NULL: none */
    /* A partitioned run (parallel.c; all NULL in a sequential run): the
     * window loop that replaces net_run_until, the merge of one sample's
     * values over ranks (called by lf_sample before it folds the counts),
     * and the sampled flow rates of local hosts (folded in host order on
     * rank 0, so the Welford sums are the sequential ones). */
    void (*par_run)(struct scenario *sc);
    void (*par_sample)(struct scenario *sc, uint32_t k);
    void (*par_rates)(struct scenario *sc, uint32_t host, uint64_t rate_bps);
    /* Every rank's `bytes` at buf, to every rank, concatenated in rank
     * order (malloc'd; *all_bytes its size).  Collective: called by a hook
     * every rank runs at the same simulated time (the deadlock check).
     * NULL on every rank if any ran out of memory. */
    void *(*par_allgather)(struct scenario *sc, const void *buf, size_t bytes, size_t *all_bytes);
    void *par;
    /* [parallel] (parallel_cfg.c): partition method and the rank count the
     * file asks for (0: any) */
    int      par_method;
    uint32_t par_ranks;
    /* progress */
    int      progress;
    double   wall_start;
};

/* Build from a loaded config (overrides already applied).  On error: -1,
 * err names file, line and key; the scenario is left freeable. */
int  scenario_build(struct scenario *sc, struct cfg *cfg, struct cfg_err *err);
/* A new flow group (flows added next belong to it); its index, -1 without
 * memory, -2 if the name is taken. */
int      scenario_add_group(struct scenario *sc, const char *name, int algo, int incast);
/* Add a flow (src, dst, size, start, rates, group set by the caller): fills
 * the 5-tuple, ECMP hashes and transport placeholder.  NONE32 if no memory. */
uint32_t scenario_add_flow(struct scenario *sc, struct flow *f);
/* Expand a node list like "A0..A4 B5" (file/line errors from entry e). */
int      scenario_nodes(struct scenario *sc, const struct cfg_entry *e, uint32_t *out, uint32_t max, struct cfg_err *err);
/* Append a warning line (kept in sc->warnings, printed by the CLI). */
void scenario_warn(struct scenario *sc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Run to the end; -1 with why on an internal failure (out of memory). */
int  scenario_run(struct scenario *sc, char *why, size_t why_len);
void scenario_free(struct scenario *sc);

/* Name lookups used by expectations and reports. */
const struct group   *scenario_group(const struct scenario *sc, const char *name);
const struct monitor *scenario_monitor(const struct scenario *sc, const char *name);
uint32_t scenario_node(const struct scenario *sc, const char *name);
/* [topology] type = file: read the topology file (topofile.c). */
int scenario_topo_file(struct scenario *sc, struct cfg *c, struct cfg_err *err);

#endif
