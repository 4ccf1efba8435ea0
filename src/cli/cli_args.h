/* cli_args.h -- what the roccsim subcommands that take a scenario share. */
#ifndef ROCC_CLI_ARGS_H
#define ROCC_CLI_ARGS_H

#include "engine/config.h"

/* fprintf(stderr, ...) for every message of the roccsim command: the text
 * it quotes (an option, a path, a value) comes from the command line or a
 * file, so each line of the formatted message goes through text_escape()
 * (core/text.h: no control byte reaches the terminal); the line breaks of
 * the message itself are kept. */
void cli_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Loads the scenario file PATH and applies every "--set KEY=VALUE" in
 * ARGV (the arguments after the subcommand's name: a bad one is named by
 * its position in the whole command line).  On error prints
 * "roccsim: ..." on stderr and returns NULL (exit status 2 for the
 * caller). */
struct cfg *cli_load_scenario(const char *path, int argc, char **argv);

#endif
