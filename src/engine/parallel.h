/*
 * parallel.h -- one run over several MPI ranks (docs/parallel.md).
 *
 * Model: every rank builds the whole scenario (replicated structure) and
 * the same partition (partition.h); a rank executes only the events of its
 * nodes (net_keep_local_events drops the others' set-up events).  A frame that a local port puts on a wire to
 * a node of another rank is handed to the net's remote_tx hook, kept as a
 * compact record, and given to the receiving rank's copy of that wire
 * (net_wire_inject) at the end of the window it was sent in.
 *
 * Synchronisation is conservative and windowed (YAWNS): with lookahead L =
 * the smallest propagation delay of a cut link, a frame sent at t arrives
 * at >= t + L, so all ranks may run [T, T + L) on their own and exchange
 * the window's records after it (one MPI_Alltoall of counts and one
 * MPI_Alltoallv of records).  T is the earliest pending event over all
 * ranks (MPI_Allreduce), so idle stretches cost one window.  Link events
 * of [events] start a window of their own (a failure flushes what is on
 * the wire: everything sent before it must be there).
 *
 * Samples are summed over ranks when taken (each rank samples its own
 * nodes), and the deadlock check gathers every rank's wait-for records
 * to every rank (sc->par_allgather; deadlock.h); at the end, port,
 * switch, flow and CP state and the global counters are merged into rank
 * 0, which writes every output once.
 *
 * The MPI calls live in parallel.c only; parallel_cfg.c (no MPI) reads
 * [parallel], refuses what cannot run partitioned yet, and prints the
 * partition (`run --check --ranks P`).  Built without MPI (no mpi.h), a
 * run under mpirun with more than one rank is refused.
 */
#ifndef ROCC_PARALLEL_H
#define ROCC_PARALLEL_H

#include <stdio.h>
#include "engine/config.h"
#include "engine/scenario.h"

/* ---- parallel_cfg.c (no MPI) ---- */
/* [parallel] partition, ranks: read into sc->par_method / par_ranks. */
int  parallel_read(struct scenario *sc, struct cfg *c, struct cfg_err *err);
/* 0 if the scenario can run over `ranks` > 1 ranks, else -1 and an error
 * naming the file, line and key of the first feature that cannot yet. */
int  parallel_refuse(struct scenario *sc, uint32_t ranks, struct cfg_err *err);
/* 1 if some flow has a `stop` time (its receiver needs rx_adv, and coarse
 * ACKs are refused). */
int  parallel_flows_stop(const struct net *n);
/* Partition sc over `ranks` parts into rank[n_nodes]; -1 with err. */
int  parallel_partition(struct scenario *sc, uint32_t ranks, uint16_t *rank, struct cfg_err *err);
/* The partition report of `run --check --ranks P`: per part nodes, hosts,
 * load share; cut links, lookahead, load crossing cuts.  -1 with err. */
int  parallel_print(struct scenario *sc, uint32_t ranks, FILE *f, struct cfg_err *err);

/* ---- parallel.c (MPI) ---- */
/* Launched by mpirun / srun (OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK
 * set, ROCCSIM_NO_MPI not set)?  Only then is MPI initialised: a plain run
 * pays nothing.  `roccsim sweep` sets ROCCSIM_NO_MPI for its points. */
int  parallel_launched(void);
/* MPI_Init; *rank, *size.  -1 (message in why) if built without MPI. */
int  parallel_init(int *argc, char ***argv, int *rank, int *size, char *why, size_t why_len);
void parallel_finalize(void);
/* After scenario_build on every rank: partition, hooks, buffers.  -1 with
 * err (refused feature, partition impossible, lookahead 0). */
int  parallel_setup(struct scenario *sc, int rank, int size, struct cfg_err *err);
/* After scenario_run: merge the ranks' state into rank 0's scenario. */
int  parallel_gather(struct scenario *sc);
/* The conservation audit over all ranks (collective); 0 if it holds. */
int  parallel_check_conservation(struct scenario *sc, char *why, size_t why_len);
/* Broadcast rank 0's exit status to every rank (collective). */
int  parallel_bcast_int(int v);
/* Counters of the synchronisation (windows, records), for the summary. */
void parallel_print_stats(const struct scenario *sc, FILE *f);
void parallel_free(struct scenario *sc);

#endif
