/*
 * sweep.h -- `roccsim sweep`: run a matrix of scenario variants and
 * aggregate them over seeds.
 *
 * A sweep file names a base scenario, the keys to vary ([vary]: each key a
 * list of values) and the seeds; the points are the cartesian product.  Each
 * point is one `roccsim run` of the base scenario with --set overrides, in
 * its own directory, run by a child process (up to `jobs` at once).  Under
 * MPI (`mpirun -np N roccsim sweep ...`, Open MPI or any launcher that sets
 * OMPI_COMM_WORLD_RANK/SIZE or PMI_RANK/SIZE) or a Slurm job array
 * (SLURM_ARRAY_TASK_ID/COUNT), rank r runs the points i with i % N == r;
 * rank 0 then waits for every point's result in the shared output directory
 * and aggregates: mean and 95% confidence interval (Student t) over seeds of
 * every number in the points' summary.tsv.
 */
#ifndef ROCC_SWEEP_H
#define ROCC_SWEEP_H

int cmd_sweep(int argc, char **argv, const char *self);

#endif
