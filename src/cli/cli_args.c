/* cli_args.c -- scenario loading shared by `roccsim run` and `roccsim maxmin`. */
#include "cli/cli_args.h"

#include <stdio.h>
#include <string.h>

struct cfg *cli_load_scenario(const char *path, int argc, char **argv)
{
    struct cfg_err err;
    struct cfg *c = cfg_load(path, &err);

    if (!c) {
        fprintf(stderr, "roccsim: %s\n", err.msg);
        return NULL;
    }
    for (int i = 0; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--set") != 0)
            continue;
        i++;
        /* i + 2: the position in the whole command line ("roccsim CMD"). */
        if (cfg_set(c, argv[i], i + 2, &err)) {
            fprintf(stderr, "roccsim: %s\n", err.msg);
            cfg_free(c);
            return NULL;
        }
    }
    return c;
}
