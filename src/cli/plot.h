/*
 * plot.h -- `roccsim plot [-o PREFIX] RUN_DIR...`: one figure for several
 * runs, drawn by gnuplot (Debian package gnuplot-nox) into PREFIX.png and
 * PREFIX.svg: FCT slowdown (average and p99) per flow-size bin, the busiest
 * port's queue over time, the RoCC fair rate of that port, and PFC pauses
 * per port tier.  Each run is a directory written by `roccsim run`.
 */
#ifndef ROCC_PLOT_H
#define ROCC_PLOT_H

int cmd_plot(int argc, char **argv);

#endif
