/* cli_args.c -- what `roccsim run` and `roccsim maxmin` share: messages,
 * options and scenario loading. */
#include "cli/cli_args.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"

/* In a run over several MPI ranks only rank 0 speaks (every rank reads
 * the same input and meets the same errors). */
static int cli_silent;
void cli_set_silent(int silent) { cli_silent = silent; }

void cli_errorf(const char *fmt, ...)
{
    va_list ap;
    char *msg = NULL;
    int n;

    if (cli_silent)
        return;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    msg = malloc((size_t)n + 1);
    if (!msg) {
        fputs("roccsim: out of memory\n", stderr);
        return;
    }
    va_start(ap, fmt);
    vsnprintf(msg, (size_t)n + 1, fmt, ap);
    va_end(ap);
    /* Each line escaped on its own: its bytes up to '\n', then the '\n'. */
    size_t cap = 4 * (size_t)n + 1;
    char *line = malloc(cap);
    if (!line) {
        free(msg);
        fputs("roccsim: out of memory\n", stderr);
        return;
    }
    for (char *p = msg; *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        text_escape(line, cap, p);
        fputs(line, stderr);
        if (!nl)
            break;
        fputc('\n', stderr);
        p = nl + 1;
    }
    free(line);
    free(msg);
}

int cli_option_arg(const char *cmd, const char *usage, const char *const *with_arg, int argc, char **argv, int *i,
                   const char **val)
{
    const char *k = argv[*i];
    int takes = 0;
    for (const char *const *w = with_arg; *w; w++)
        takes |= !strcmp(*w, k);
    if (!takes) {
        cli_errorf("%s: unknown option '%s'\n%s", cmd, k, usage);
        return 2;
    }
    if (*i + 1 == argc) {
        cli_errorf("%s: %s needs an argument\n", cmd, k);
        return 2;
    }
    *val = argv[++*i];
    return -1;
}

int cli_parse_args(int argc, char **argv, const struct cli_opt *opts, const char *usage, const char **path)
{
    for (int i = 0; i < argc; i++) {
        const struct cli_opt *o = opts;
        while (o->name && strcmp(argv[i], o->name) != 0)
            o++;
        if (o->name && o->has_arg) {
            if (i + 1 >= argc) {
                cli_errorf("roccsim: %s needs an argument\n%s", argv[i], usage);
                return 2;
            }
            i++;
            if (o->arg)
                *o->arg = argv[i];
        } else if (o->name) {
            if (o->flag)
                *o->flag = 1;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        } else if (argv[i][0] == '-') {
            cli_errorf("roccsim: unknown option '%s'\n%s", argv[i], usage);
            return 2;
        } else if (!*path) {
            *path = argv[i];
        } else {
            cli_errorf("roccsim: more than one scenario ('%s' and '%s')\n", *path, argv[i]);
            return 2;
        }
    }
    return -1;
}

struct cfg *cli_load_scenario(const char *path, int argc, char **argv)
{
    struct cfg_err err;
    struct cfg *c = cfg_load(path, &err);

    if (!c) {
        cli_errorf("roccsim: %s\n", err.msg);
        return NULL;
    }
    for (int i = 0; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--set") != 0)
            continue;
        i++;
        /* i + 2: the position in the whole command line ("roccsim CMD"). */
        if (cfg_set(c, argv[i], i + 2, &err)) {
            cli_errorf("roccsim: %s\n", err.msg);
            cfg_free(c);
            return NULL;
        }
    }
    return c;
}

int cli_bad_value(const char *cmd, const char *opt, const char *val, const char *why)
{
    cli_errorf("%s: %s %s: %s\n", cmd, opt, val, why);
    return 2;
}
