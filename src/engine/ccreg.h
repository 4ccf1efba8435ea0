/*
 * ccreg.h -- the registry of congestion-control algorithms.
 *
 * Model: every algorithm a flow group can name (`[cc] algorithm`,
 * `[flows.NAME] cc`) is one `struct cc_algo` descriptor, defined in its own
 * file under src/transport/ beside the NIC glue (`struct transport_ops`) it
 * selects.  The descriptor says what the engine must do for it: which
 * config sections it reads, how to build its parameter block for one NIC
 * speed, which ECN marking switch ports need, and what else to set up once
 * per scenario or per switch port.  ccsel.c is generic: it walks the list
 * below and never names an algorithm.
 *
 * Adding an algorithm: its pure state machine in src/cc/, one file
 * src/transport/tp_NAME.c defining `const struct cc_algo cc_algo_NAME`, and
 * one X(NAME) line in CC_REGISTRY (docs/architecture.md, "Adding an
 * algorithm").  The order of the list is the order of names in error
 * messages and of per-port set-up; new names go at the end.
 */
#ifndef ROCC_CCREG_H
#define ROCC_CCREG_H

#include <stddef.h>
#include <stdint.h>

#include "core/eventlist.h"

#define CC_REGISTRY(X)                                                              \
    X(rocc) X(none) X(dcqcn) X(dcqcn_pi) X(dcqcn_p) X(dcqcn_d) X(qcn) X(timely)     \
    X(timely_patched) X(hpcc) X(dctcp) X(dctcp_window) X(rcc) X(rcc_sender) X(homa) X(expresspass) \
    X(hpcc_star) X(rcc_pid) X(rcc_ewa)

#define CC_ENUM_(name) CC_ID_##name,
enum cc_algo_id { CC_REGISTRY(CC_ENUM_) CC_NALGO };
#undef CC_ENUM_
#define CC_ROCC CC_ID_rocc
#define CC_NONE CC_ID_none

struct scenario;
struct cfg;
struct cfg_err;

/* What a parameter builder may read. */
struct cc_ctx {
    const struct scenario *sc;
    uint64_t line_bps;        /* the flow's NIC speed */
    simtime_t base_rtt;       /* the longest base RTT over the scenario's flows (ccsel_max_base_rtt) */
};

/* ECN marking on one switch egress port (RED: kmin..kmax, step: kmin == kmax). */
struct ecn_marking {
    uint64_t kmin, kmax;
    double pmax;
};

struct cc_algo {
    const char *name;                      /* as written in the config */
    const struct transport_ops *tp;        /* the NIC glue of its flows */
    /* Sections whose keys it reads: set but used by no flow group -> a warning. */
    const char *sections[2];
    const char *prm_section;               /* named in parameter errors */
    /* Options read once per scenario from its sections (opt_size 0: none).
     * Every algorithm's options are read, used or not, so a typo is an
     * error whichever algorithm the groups name. */
    size_t opt_size;
    int (*read)(struct cfg *c, void *opt, struct cfg_err *err);
    /* Parameter block for one NIC speed, shared by its flows (prm_size 0:
     * f->cc_prm = NULL).  Nonzero return: invalid, reason in why. */
    size_t prm_size;
    int (*params)(const struct cc_ctx *x, const void *opt, void *prm, char *why, size_t nwhy);
    /* ECN marking its flows need on switch ports (NULL: none).  Groups
     * whose algorithms mark differently need [ecn] to choose one. */
    void (*marking)(uint64_t port_bps, const void *opt, struct ecn_marking *m);
    /* Once per scenario that uses it, before flows are bound (NULL: none). */
    int (*setup)(struct scenario *sc, const void *opt, struct cfg *c, struct cfg_err *err);
    /* Each switch egress port, after marking (NULL: none). */
    int (*port_setup)(struct scenario *sc, const void *opt, uint32_t port, struct cfg *c, struct cfg_err *err);
    /* Why a run over several MPI ranks refuses its flows (parallel_cfg.c,
     * docs/parallel.md), NULL if they may run there: its NIC glue touches
     * a flow's sender state only at the source and its receiver state and
     * per-host tables (net_host_state) only at the destination, its switch
     * side only the port's own node, and it has no outputs of its own to
     * merge. */
    const char *par_refused;
    /* Why a run over several MPI ranks refuses its flows when some flow of
     * the run stops ([flows] stop), NULL if it need not: a flow's stop
     * lowers its size at the source, which a receiver on another rank
     * learns only in the merge (parallel.c) -- or from a frame the
     * transport sends (transport_ops.on_stop: ExpressPass's credit stop,
     * so no transport sets this now). */
    const char *par_refused_stop;
    /* A run over several MPI ranks, at its end (parallel.c, every rank
     * calls it, after the flows' fields are merged): bring the state its
     * outputs read into rank 0 (reduce: 64-bit words summed, or their
     * maximum, over the ranks into rank 0).  NULL: the flows' fields are
     * all it has. */
    void (*merge)(struct scenario *sc, void (*reduce)(uint64_t *v, size_t k, int max));
};

#define CC_DECL_(name) extern const struct cc_algo cc_algo_##name;
CC_REGISTRY(CC_DECL_)
#undef CC_DECL_

extern const struct cc_algo *const cc_registry[CC_NALGO];
extern const char *const cc_algo_names[CC_NALGO + 1];   /* NULL-terminated, registry order */

#endif
