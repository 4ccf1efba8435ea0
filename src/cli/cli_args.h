/* cli_args.h -- what the roccsim subcommands that take a scenario share. */
#ifndef ROCC_CLI_ARGS_H
#define ROCC_CLI_ARGS_H

#include "engine/config.h"

/* Loads the scenario file PATH and applies every "--set KEY=VALUE" in
 * ARGV (the arguments after the subcommand's name: a bad one is named by
 * its position in the whole command line).  On error prints
 * "roccsim: ..." on stderr and returns NULL (exit status 2 for the
 * caller). */
struct cfg *cli_load_scenario(const char *path, int argc, char **argv);

#endif
