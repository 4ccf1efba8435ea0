/*
 * plot.h -- `roccsim plot [-o PREFIX] RUN_DIR...`: one figure for several
 * runs, drawn by gnuplot (Debian package gnuplot-nox) into PREFIX.png and
 * PREFIX.svg: FCT slowdown (average and p99) per flow-size bin, the busiest
 * port's queue over time, the RoCC fair rate of that port, and PFC pauses
 * per port tier.  Each run is a directory written by `roccsim run`.
 */
#ifndef ROCC_PLOT_H
#define ROCC_PLOT_H

#include <stddef.h>
#include <stdio.h>

int cmd_plot(int argc, char **argv);

/* The figure machinery, shared with `roccsim stability` (stability_cmd.c).
 * cmd names the command in error messages ("roccsim plot").  Each returns
 * 0, or the exit status after saying why on stderr.
 *
 * plot_check_prefix: PREFIX names files PREFIX.png/.svg: not empty, not
 *   ending in '/', its directory made (with parents) and writable, no
 *   non-regular file in the way (2 otherwise).
 * plot_make_work: a private scratch directory (mkdtemp under $TMPDIR or
 *   /tmp) into work (3 if it cannot be made); the caller writes its data
 *   files there under names it chose, and removes them and the directory.
 * plot_gnuplot: runs gnuplot (fork + exec, no shell) in work with fn's
 *   script on its standard input; fn(g, fmt, ctx) must write plot.png
 *   (fmt 0) or plot.svg (fmt 1) in the current directory and put no text
 *   it did not make itself into the script (gp strings: see plot.c).
 *   0 when gnuplot exits with status 0, else -1.
 * plot_publish: copies work/plot.png and plot.svg to PREFIX.png/.svg
 *   through temporary names, then renames both (2 on any failure, nothing
 *   left behind); work/plot.* stay for the caller to remove.
 * plot_in_path: 1 if prog is an executable in $PATH. */
typedef void (*plot_script_fn)(FILE *g, int fmt, void *ctx);
int plot_check_prefix(const char *cmd, const char *prefix);
int plot_make_work(const char *cmd, char *work, size_t len);
int plot_gnuplot(const char *work, plot_script_fn fn, int fmt, void *ctx);
int plot_publish(const char *cmd, const char *work, const char *prefix);
int plot_in_path(const char *prog);

#endif
