/* plot.c -- `roccsim plot`; see plot.h. */
#include "cli/plot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_RUNS 16

struct run {
    const char *dir;
    char name[128];
    char port[128];            /* busiest port (highest utilization) */
    int qcol, fcol;            /* its columns in queue.csv / fair_rate.csv (1-based), 0 if none */
    int has_fct, has_bg;
};

static int file_ok(const char *dir, const char *f)
{
    char p[4200];
    snprintf(p, sizeof p, "%.4000s/%s", dir, f);
    return access(p, R_OK) == 0;
}

/* Column (1-based) of `name` in the CSV header of dir/file, 0 if absent. */
static int csv_col(const char *dir, const char *file, const char *name)
{
    char p[4200], line[65536];
    snprintf(p, sizeof p, "%.4000s/%s", dir, file);
    FILE *f = fopen(p, "r");
    if (!f)
        return 0;
    int col = 0;
    if (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        int i = 1;
        for (char *t = strtok(line, ","); t; t = strtok(NULL, ","), i++)
            if (!strcmp(t, name))
                col = i;
    }
    fclose(f);
    return col;
}

static int load_run(struct run *r, const char *dir)
{
    *r = (struct run){ .dir = dir };    /* every flag starts 0: has_bg was read uninitialised */
    const char *b = dir + strlen(dir);
    while (b > dir && b[-1] == '/')
        b--;
    const char *s = b;
    while (s > dir && s[-1] != '/')
        s--;
    snprintf(r->name, sizeof r->name, "%.*s", (int)(b - s), s);
    char p[4200], line[1024];
    /* A sweep point (DIR/pNNNNN): label it by its seed and varied values
     * from DIR/points.tsv. */
    if (s > dir && b - s == 6 && s[0] == 'p') {
        snprintf(p, sizeof p, "%.*spoints.tsv", (int)(s - dir), dir);
        FILE *pt = fopen(p, "r");
        while (pt && fgets(line, sizeof line, pt)) {
            if (strncmp(line, r->name, 6) || line[6] != '\t')
                continue;
            line[strcspn(line, "\r\n")] = 0;
            char label[128] = "";
            size_t used = 0;
            int field = 0;
            for (char *t = strtok(line + 7, "\t"); t && used < sizeof label; t = strtok(NULL, "\t"), field++)
                used += (size_t)snprintf(label + used, sizeof label - used, "%s%s%s", field ? " " : "",
                                         field ? "" : "seed ", t);
            snprintf(r->name, sizeof r->name, "%s", label);
        }
        if (pt)
            fclose(pt);
    }
    snprintf(p, sizeof p, "%.4000s/summary.tsv", dir);
    FILE *f = fopen(p, "r");
    if (!f) {
        fprintf(stderr, "roccsim plot: %s: not a roccsim run directory (no summary.tsv)\n", dir);
        return -1;
    }
    double best = -1;
    while (fgets(line, sizeof line, f)) {
        char *tab = strchr(line, '\t');
        if (!tab || strncmp(line, "port.", 5))
            continue;
        *tab = 0;
        size_t len = strlen(line);
        if (len < 12 || strcmp(line + len - 12, ".utilization"))
            continue;
        double u = strtod(tab + 1, NULL);
        if (u > best) {
            best = u;
            snprintf(r->port, sizeof r->port, "%.*s", (int)(len - 12 - 5), line + 5);
        }
    }
    fclose(f);
    r->qcol = r->port[0] ? csv_col(dir, "queue.csv", r->port) : 0;
    r->fcol = r->port[0] ? csv_col(dir, "fair_rate.csv", r->port) : 0;
    /* FCT panels need rows: a run whose flows never finished has a
     * header-only fct.tsv (docs/outputs.md), and plotting it fails. */
    r->has_fct = 0;
    if (file_ok(dir, "fct.tsv")) {
        int all_rows = 0;
        snprintf(p, sizeof p, "%.4000s/fct.tsv", dir);
        f = fopen(p, "r");
        while (f && fgets(line, sizeof line, f)) {
            if (!strncmp(line, "background\t", 11))
                r->has_bg = 1;
            else if (!strncmp(line, "all\t", 4))
                all_rows = 1;
        }
        if (f)
            fclose(f);
        r->has_fct = r->has_bg || all_rows;
    }
    return 0;
}

/* One time-series panel: the busiest port of every run, from queue.csv
 * (which = 0, shown in KB) or fair_rate.csv (which = 1, Gb/s). */
static void time_series(FILE *g, const struct run *runs, int nr, int which, const char *title, const char *unit)
{
    fprintf(g, "set datafile separator ','\nset title '%s'\nset ylabel '%s'\nset xlabel 'time (ms)'\nplot ", title,
            unit);
    int first = 1;
    for (int r = 0; r < nr; r++) {
        int col = which ? runs[r].fcol : runs[r].qcol;
        if (!col)
            continue;
        fprintf(g, "%s'%s/%s' using ($1*1000):($%d/%s) with lines title '%s %s'", first ? "" : ", ", runs[r].dir,
                which ? "fair_rate.csv" : "queue.csv", col, which ? "1" : "1000", runs[r].name, runs[r].port);
        first = 0;
    }
    fputc('\n', g);
}

#define PLOT_USAGE "usage: roccsim plot [-o PREFIX] RUN_DIR...\n"

int cmd_plot(int argc, char **argv)
{
    const char *prefix = "runs/plot";
    struct run runs[MAX_RUNS];
    int nr = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            prefix = argv[++i];
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(PLOT_USAGE, stdout);
            return 0;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "roccsim plot: unknown option '%s'\n" PLOT_USAGE, argv[i]);
            return 2;
        } else if (nr == MAX_RUNS) {
            fprintf(stderr, "roccsim plot: at most %d runs in one figure\n", MAX_RUNS);
            return 2;
        } else if (load_run(&runs[nr], argv[i]) == 0) {
            nr++;
        } else {
            return 2;
        }
    }
    if (nr == 0) {
        fputs(PLOT_USAGE, stderr);
        return 2;
    }
    /* The figure's directory must exist and be writable before gnuplot runs
     * (otherwise it would print the PNG to the terminal). */
    {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", prefix);
        char *slash = strrchr(dir, '/');
        if (slash && slash != dir) {
            *slash = 0;
            for (char *q = dir + 1; *q; q++)
                if (*q == '/') {
                    *q = 0;
                    mkdir(dir, 0777);
                    *q = '/';
                }
            mkdir(dir, 0777);
        }
        char probe[4200];
        snprintf(probe, sizeof probe, "%s.png", prefix);
        FILE *t = fopen(probe, "w");
        if (!t) {
            fprintf(stderr, "roccsim plot: cannot write %s: %s\n", probe, strerror(errno));
            return 2;
        }
        fclose(t);
    }
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        fprintf(stderr, "roccsim plot: gnuplot is not installed (apt-get install gnuplot-nox)\n");
        return 2;
    }
    int any_fct = 0, any_fair = 0, any_q = 0, any_tiers = 0;
    for (int r = 0; r < nr; r++) {
        any_fct |= runs[r].has_fct;
        any_fair |= runs[r].fcol > 0;
        any_q |= runs[r].qcol > 0;
        any_tiers |= file_ok(runs[r].dir, "tiers.tsv");
    }
    int panels = 2 * any_fct + any_q + any_fair + any_tiers;
    if (!panels) {
        fprintf(stderr, "roccsim plot: nothing to plot in these runs\n");
        return 2;
    }
    for (int fmt = 0; fmt < 2; fmt++) {
        FILE *g = popen("gnuplot", "w");
        if (!g) {
            fprintf(stderr, "roccsim plot: cannot start gnuplot: %s\n", strerror(errno));
            return 3;
        }
        int rows = (panels + 1) / 2;
        if (fmt == 0)
            fprintf(g, "set terminal pngcairo size 1400,%d font 'sans,10' noenhanced\nset output '%s.png'\n", 380 * rows, prefix);
        else
            fprintf(g, "set terminal svg size 1400,%d dynamic noenhanced\nset output '%s.svg'\n", 380 * rows, prefix);
        fprintf(g, "set grid\nset key outside right\nset autoscale xfix\nset multiplot layout %d,2\n", rows);
        static const char *const col[2] = { "10", "13" };          /* slowdown avg, p99 in fct.tsv */
        static const char *const title[2] = { "FCT slowdown, average", "FCT slowdown, p99" };
        for (int k = 0; any_fct && k < 2; k++) {
            fprintf(g, "set datafile separator tab\nset title '%s per flow-size bin'\nset logscale y\n"
                       "set ylabel 'slowdown'\nset xlabel 'flow size (upper bin edge, bytes)'\nset xtics rotate by -30\n"
                       "plot ", title[k]);
            int first = 1;
            for (int r = 0; r < nr; r++) {
                if (!runs[r].has_fct)
                    continue;
                fprintf(g, "%s'< grep ^%s %s/fct.tsv' using 0:%s:xtic(3) with linespoints lw 2 title '%s'",
                        first ? "" : ", ", runs[r].has_bg ? "background" : "all", runs[r].dir, col[k], runs[r].name);
                first = 0;
            }
            fputs("\nunset logscale y\nunset xtics\nset xtics\n", g);
        }
        if (any_q)
            time_series(g, runs, nr, 0, "queue of the busiest port", "KB");
        if (any_fair)
            time_series(g, runs, nr, 1, "RoCC fair rate of the busiest port", "Gb/s");
        if (any_tiers) {
            fputs("set datafile separator tab\nset title 'PFC pause frames sent, per port tier'\nset ylabel 'XOFF frames'\n"
                  "set xlabel ''\nset style data histograms\nset style histogram clustered\nset style fill solid 0.7\n"
                  "set yrange [0:*]\nplot ", g);
            int first = 1;
            for (int r = 0; r < nr; r++)
                if (file_ok(runs[r].dir, "tiers.tsv")) {
                    fprintf(g, "%s'%s/tiers.tsv' using 3:xtic(1) title '%s'", first ? "" : ", ", runs[r].dir,
                            runs[r].name);
                    first = 0;
                }
            fputc('\n', g);
        }
        fputs("unset multiplot\n", g);
        if (pclose(g) != 0) {
            fprintf(stderr, "roccsim plot: gnuplot failed\n");
            return 3;
        }
    }
    printf("plots: %s.png %s.svg\n", prefix, prefix);
    return 0;
}
