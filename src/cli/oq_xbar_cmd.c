/*
 * oq_xbar_cmd.c -- `roccsim oq crossbar N [options]`: print the OpenQueue
 * policy of an N-port buffered crossbar (Fig. 2.12/2.13 written out with
 * column ports; src/openqueue/oq_xbar.h, docs/openqueue.md "The buffered
 * crossbar").  The text is compiled before it is printed.
 *
 * Exit status: 0 printed, 2 bad arguments, 3 out of memory.
 */
#include "cli/oq_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_args.h"
#include "openqueue/oq_xbar.h"

static const char usage[] =
    "usage: roccsim oq crossbar N [--voq SIZE] [--xp SIZE] [--oq SIZE] [--in SCHED] [--out SCHED]\n"
    "\n"
    "Prints the OpenQueue policy of an N-port buffered crossbar (1 <= N <= 44):\n"
    "a VOQ per (input, output) on input port inI, a crosspoint queue per (input,\n"
    "output) on column port colJ, an output queue oqJ on outJ; every queue FIFO\n"
    "with tail drop.\n"
    "\n"
    "  --voq SIZE   VOQ size (an OpenQueue literal: 32p, 64KB; default 32p)\n"
    "  --xp SIZE    crosspoint queue size (default 32p)\n"
    "  --oq SIZE    output queue size (default 32p)\n"
    "  --in SCHED   input scheduler, a library comparator (default lqf; 'none': port order)\n"
    "  --out SCHED  output (column) scheduler (default lqf; 'none': port order)\n"
    "\n"
    "docs/openqueue.md \"The buffered crossbar\".\n";

int cmd_oq_crossbar(int argc, char **argv)
{
    if (argc < 1 || !strcmp(argv[0], "-h") || !strcmp(argv[0], "--help")) {
        fputs(usage, argc < 1 ? stderr : stdout);
        return argc < 1 ? 2 : 0;
    }
    char *end;
    unsigned long n = strtoul(argv[0], &end, 10);
    if (*end || end == argv[0] || n < 1 || n > OQX_MAX_PORTS) {
        cli_errorf("roccsim oq crossbar: N must be a number from 1 to %d, not '%s'\n%s", OQX_MAX_PORTS, argv[0], usage);
        return 2;
    }
    const char *voq = "32p", *xp = "32p", *oq = "32p", *in = "lqf", *out = "lqf";
    for (int i = 1; i < argc; i++) {
        const char **dst = !strcmp(argv[i], "--voq") ? &voq : !strcmp(argv[i], "--xp") ? &xp
                         : !strcmp(argv[i], "--oq") ? &oq : !strcmp(argv[i], "--in") ? &in
                         : !strcmp(argv[i], "--out") ? &out : NULL;
        if (!dst || i + 1 >= argc) {
            cli_errorf("roccsim oq crossbar: %s '%s'\n%s", dst ? "missing value after" : "unknown option", argv[i], usage);
            return 2;
        }
        *dst = argv[++i];
        if (!strcmp(*dst, "none") && (dst == &in || dst == &out))
            *dst = "";
    }
    char *text = oqx_policy_text((uint32_t)n, voq, xp, oq, in, out);
    if (!text) {
        cli_errorf("roccsim oq crossbar: a size must be a number with a unit (32p, 64KB) and a scheduler a name\n");
        return 2;
    }
    char err[600];
    struct oq_policy *p = oq_compile(text, strlen(text), "<crossbar>", err, sizeof err);
    if (!p) {
        cli_errorf("roccsim oq crossbar: %s\n", err);
        free(text);
        return 2;
    }
    oq_policy_free(p);
    fputs(text, stdout);
    free(text);
    return 0;
}
