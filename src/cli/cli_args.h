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
/* Nonzero: cli_errorf prints nothing (ranks other than 0 of a parallel run). */
void cli_set_silent(int silent);

/* Loads the scenario file PATH and applies every "--set KEY=VALUE" in
 * ARGV (the arguments after the subcommand's name: a bad one is named by
 * its position in the whole command line).  On error prints
 * "roccsim: ..." on stderr and returns NULL (exit status 2 for the
 * caller). */
struct cfg *cli_load_scenario(const char *path, int argc, char **argv);

/* An option of a subcommand that takes one scenario file (run, maxmin). */
struct cli_opt {
    const char  *name;            /* "-q", "--window"; NULL ends the table */
    int          has_arg;         /* takes the next argument */
    int         *flag;            /* without an argument: set to 1 (or NULL) */
    const char **arg;             /* with one: set to it (NULL: only skipped, e.g.
                                     --set, which cli_load_scenario reads) */
};

/* Reads ARGV (the arguments after the subcommand's name) in order: the
 * options of OPTS, -h/--help (USAGE on stdout) and one scenario file
 * (*path; left unset when there is none).  Returns -1 to go on, or the
 * exit status: 0 after --help, 2 after an error said on stderr ("roccsim:
 * X needs an argument", "roccsim: unknown option 'X'", both with USAGE,
 * or "roccsim: more than one scenario"). */
int cli_parse_args(int argc, char **argv, const struct cli_opt *opts, const char *usage, const char **path);

/* For a subcommand that walks its own options (stability): argv[*i] is an
 * option.  If WITH_ARG (NULL-terminated) names it, sets *val to the next
 * argument, advances *i past it and returns -1; otherwise says "CMD:
 * unknown option 'X'" with USAGE, or "CMD: X needs an argument", and
 * returns 2. */
int cli_option_arg(const char *cmd, const char *usage, const char *const *with_arg, int argc, char **argv, int *i,
                   const char **val);

/* Says "CMD: OPT VAL: WHY" on stderr (an option's value refused) and
 * returns 2, the exit status of bad usage. */
int cli_bad_value(const char *cmd, const char *opt, const char *val, const char *why);

#endif
