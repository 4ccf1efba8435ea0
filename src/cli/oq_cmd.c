/*
 * oq_cmd.c -- `roccsim oq check FILE...`: compile OpenQueue policies
 * (src/openqueue, docs/openqueue.md) and print the structure of each.
 *
 * Exit status: 0 every file compiled, 2 a file did not (its first error,
 * FILE:LINE:COL: message, on stderr), 3 out of memory.
 */
#include "cli/oq_cmd.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli_args.h"
#include "openqueue/oq.h"

static const char usage[] =
    "usage: roccsim oq check [-q] POLICY.oq...\n"
    "       roccsim oq crossbar N [options]   (print an N-port buffered crossbar policy)\n"
    "\n"
    "Compiles each OpenQueue policy and prints its structure: queues, buffers and\n"
    "ports, each comparator as a rank key or bytecode, each condition's cases and\n"
    "actions.  An error names FILE:LINE:COLUMN.\n"
    "\n"
    "  -q    print nothing for a policy that compiles\n"
    "\n"
    "The language: docs/openqueue.md.\n"
    "Exit status: 0 ok, 2 a policy has an error.\n";

int cmd_oq(int argc, char **argv)
{
    if (argc < 1 || !strcmp(argv[0], "-h") || !strcmp(argv[0], "--help") || !strcmp(argv[0], "help")) {
        fputs(usage, argc < 1 ? stderr : stdout);
        return argc < 1 ? 2 : 0;
    }
    if (!strcmp(argv[0], "crossbar"))
        return cmd_oq_crossbar(argc - 1, argv + 1);
    if (strcmp(argv[0], "check")) {
        cli_errorf("roccsim oq: unknown subcommand '%s' (check, crossbar)\n%s", argv[0], usage);
        return 2;
    }
    int quiet = 0, files = 0, status = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-q")) {
            quiet = 1;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            cli_errorf("roccsim oq check: unknown option '%s'\n%s", argv[i], usage);
            return 2;
        }
        files++;
        char err[600];
        struct oq_policy *p = oq_compile_file(argv[i], err, sizeof err);
        if (!p) {
            cli_errorf("%s\n", err);
            status = 2;
            continue;
        }
        if (!quiet)
            oq_policy_print(p, stdout);
        oq_policy_free(p);
    }
    if (!files) {
        cli_errorf("roccsim oq check: no policy file\n%s", usage);
        return 2;
    }
    return status;
}
