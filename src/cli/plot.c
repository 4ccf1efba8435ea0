/* plot.c -- `roccsim plot`; see plot.h.
 *
 * Plotting never runs a shell and never puts a name it did not make itself
 * into gnuplot's command language, where a backquote runs a command and a
 * quote ends a string.  Run directories and node names come from the user
 * (a directory may be named anything; summary.tsv and queue.csv of an old or
 * hand-made run may hold any port name), so:
 *   - gnuplot runs (fork + exec, no /bin/sh) in a private scratch directory
 *     made by mkdtemp; every data file it reads is a symlink or a filtered
 *     copy there with a name we chose (r3_queue.csv), and it writes its
 *     figure there (plot.png);
 *   - titles are single-quoted gnuplot strings (no backquote or macro
 *     substitution inside them) with quotes doubled and control bytes
 *     replaced by '?' (gp_str);
 *   - the figures are then copied to PREFIX.png/.svg through temporary
 *     names and renamed, so an error leaves no partial or stray file.
 */
#include "cli/cli_args.h"
#include "cli/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_RUNS 16

struct run {
    const char *dir;
    char name[128];
    char port[128];            /* busiest port (highest utilization) */
    int qcol, fcol;            /* its columns in queue.csv / fair_rate.csv (1-based), 0 if none */
    int has_fct, has_bg, has_tiers;
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
        cli_errorf("roccsim plot: %s: not a roccsim run directory (no summary.tsv)\n", dir);
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
    r->has_tiers = file_ok(dir, "tiers.tsv");
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

/* A gnuplot string literal holding s: single quotes (inside them gnuplot
 * expands neither `command` nor @macro), a quote doubled, and a control
 * byte (a newline would end the command) shown as '?'. */
static void gp_str(FILE *g, const char *s)
{
    fputc('\'', g);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\'')
            fputs("''", g);
        else if (c < 0x20 || c == 0x7f)
            fputc('?', g);
        else
            fputc(c, g);
    }
    fputc('\'', g);
}

/* work/rN_what: a symlink to dir/file (made absolute: gnuplot runs in
 * work), so that gnuplot reads it under a name we chose. */
static int link_data(const char *work, int r, const char *what, const char *dir, const char *file)
{
    char src[4200], cwd[4096] = "", abs[8400], dst[4200];
    snprintf(src, sizeof src, "%.4000s/%s", dir, file);
    snprintf(dst, sizeof dst, "%s/r%d_%s", work, r, what);
    if (src[0] != '/' && !getcwd(cwd, sizeof cwd)) {
        cli_errorf("roccsim plot: %s: %s\n", src, strerror(errno));
        return -1;
    }
    snprintf(abs, sizeof abs, "%s%s%s", cwd, cwd[0] ? "/" : "", src);
    if (symlink(abs, dst) != 0) {
        cli_errorf("roccsim plot: %s: %s\n", src, strerror(errno));
        return -1;
    }
    return 0;
}

/* work/rN_fct.tsv: the rows of dir/fct.tsv whose first field is `group`
 * (what a '< grep' data source used to do, through a shell). */
static int filter_fct(const char *work, int r, const char *dir, const char *group)
{
    char src[4200], dst[4200], line[4096];
    snprintf(src, sizeof src, "%.4000s/fct.tsv", dir);
    snprintf(dst, sizeof dst, "%s/r%d_fct.tsv", work, r);
    FILE *in = fopen(src, "r"), *out = in ? fopen(dst, "w") : NULL;
    size_t gl = strlen(group);
    int rc = in && out ? 0 : -1;
    while (rc == 0 && fgets(line, sizeof line, in))
        if (!strncmp(line, group, gl) && line[gl] == '\t')
            fputs(line, out);
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        rc = -1;
    if (rc)
        cli_errorf("roccsim plot: %s: %s\n", src, strerror(errno));
    return rc;
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
        char title_s[300];
        snprintf(title_s, sizeof title_s, "%s %s", runs[r].name, runs[r].port);
        fprintf(g, "%s'r%d_%s' using ($1*1000):($%d/%s) with lines title ", first ? "" : ", ", r,
                which ? "fair_rate.csv" : "queue.csv", col, which ? "1" : "1000");
        gp_str(g, title_s);
        first = 0;
    }
    fputc('\n', g);
}

/* The whole gnuplot script for one output format, into plot.png/plot.svg
 * in gnuplot's working directory. */
static void script(FILE *g, const struct run *runs, int nr, int fmt, int panels, int any_fct, int any_q,
                   int any_fair, int any_tiers)
{
    int rows = (panels + 1) / 2;
    if (fmt == 0)
        fprintf(g, "set terminal pngcairo size 1400,%d font 'sans,10' noenhanced\nset output 'plot.png'\n", 380 * rows);
    else
        fprintf(g, "set terminal svg size 1400,%d dynamic noenhanced\nset output 'plot.svg'\n", 380 * rows);
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
            fprintf(g, "%s'r%d_fct.tsv' using 0:%s:xtic(3) with linespoints lw 2 title ", first ? "" : ", ", r,
                    col[k]);
            gp_str(g, runs[r].name);
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
            if (runs[r].has_tiers) {
                fprintf(g, "%s'r%d_tiers.tsv' using 3:xtic(1) title ", first ? "" : ", ", r);
                gp_str(g, runs[r].name);
                first = 0;
            }
        fputc('\n', g);
    }
    fputs("unset multiplot\n", g);
}

struct script_ctx {
    const struct run *runs;
    int nr, panels, any_fct, any_q, any_fair, any_tiers;
};

static void script_cb(FILE *g, int fmt, void *v)
{
    const struct script_ctx *c = v;
    script(g, c->runs, c->nr, fmt, c->panels, c->any_fct, c->any_q, c->any_fair, c->any_tiers);
}

/* Is `prog` an executable file in one of $PATH's directories? */
int plot_in_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        size_t len = strcspn(path, ":");
        char p[4200];
        snprintf(p, sizeof p, "%.*s/%s", (int)(len ? len : 1), len ? path : ".", prog);
        if (access(p, X_OK) == 0)
            return 1;
        path += len + (path[len] == ':');
    }
    return 0;
}

/* plot.h */
int plot_gnuplot(const char *work, plot_script_fn fn, int fmt, void *ctx)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        close(fd[1]);
        if (dup2(fd[0], 0) < 0 || chdir(work) != 0)
            _exit(126);
        close(fd[0]);
        execlp("gnuplot", "gnuplot", (char *)NULL);
        _exit(127);
    }
    close(fd[0]);
    /* gnuplot may stop reading after an error: a write must fail, not kill us. */
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    FILE *g = fdopen(fd[1], "w");
    if (g) {
        fn(g, fmt, ctx);
        fclose(g);
    } else {
        close(fd[1]);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    signal(SIGPIPE, old);
    return g && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* Copy work/plot.EXT to a new temporary file beside PREFIX.EXT (its name
 * in tmp); 0 on success.  Nothing is left behind on failure. */
static int stage(const char *cmd, const char *work, const char *ext, const char *prefix, char *tmp, size_t tmpsz)
{
    char src[4200];
    snprintf(src, sizeof src, "%s/plot.%s", work, ext);
    snprintf(tmp, tmpsz, "%s.%s.tmpXXXXXX", prefix, ext);
    int in = open(src, O_RDONLY);
    if (in < 0) {
        cli_errorf("%s: gnuplot wrote no %s figure\n", cmd, ext);
        return -1;
    }
    int out = mkstemp(tmp);
    if (out < 0) {
        cli_errorf("%s: -o %s: cannot write %s.%s: %s\n", cmd, prefix, prefix, ext, strerror(errno));
        close(in);
        return -1;
    }
    char buf[65536];
    ssize_t n;
    int rc = 0;
    while (rc == 0 && (n = read(in, buf, sizeof buf)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        for (ssize_t off = 0; rc == 0 && n > 0 && off < n;) {
            ssize_t w = write(out, buf + off, (size_t)(n - off));
            if (w < 0 && errno != EINTR)
                rc = -1;
            else if (w > 0)
                off += w;
        }
        if (n < 0)
            rc = -1;
    }
    if (fchmod(out, 0644) != 0 || close(out) != 0)
        rc = -1;
    close(in);
    if (rc) {
        cli_errorf("%s: -o %s: cannot write %s.%s: %s\n", cmd, prefix, prefix, ext, strerror(errno));
        unlink(tmp);
    }
    return rc;
}

/* Remove the scratch directory and everything in it (only names we made). */
static void remove_work(const char *work, int nr)
{
    static const char *const files[] = { "queue.csv", "fair_rate.csv", "fct.tsv", "tiers.tsv" };
    char p[4200];
    for (int r = 0; r < nr; r++)
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
            snprintf(p, sizeof p, "%s/r%d_%s", work, r, files[i]);
            unlink(p);
        }
    snprintf(p, sizeof p, "%s/plot.png", work);
    unlink(p);
    snprintf(p, sizeof p, "%s/plot.svg", work);
    unlink(p);
    rmdir(work);
}

/* plot.h */
int plot_check_prefix(const char *cmd, const char *prefix)
{
    size_t plen = strlen(prefix);
    if (plen == 0 || plen > 4000 || prefix[plen - 1] == '/') {
        cli_errorf("%s: -o %s: give a file prefix (e.g. -o runs/fig for runs/fig.png)\n", cmd, prefix);
        return 2;
    }
    /* The figure's directory must exist and be writable before gnuplot
     * runs, so that a bad -o is reported before any work. */
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
        } else {
            snprintf(dir, sizeof dir, "%s", slash ? "/" : ".");
        }
        struct stat st;
        const char *why = NULL;
        if (stat(dir, &st) != 0)
            why = strerror(errno);
        else if (!S_ISDIR(st.st_mode))
            why = "not a directory";
        else if (access(dir, W_OK | X_OK) != 0)
            why = strerror(errno);
        if (why) {
            cli_errorf("%s: -o %s: cannot write in directory %s: %s\n", cmd, prefix, dir, why);
            return 2;
        }
        for (int fmt = 0; fmt < 2; fmt++) {
            char out[4200];
            snprintf(out, sizeof out, "%s.%s", prefix, fmt ? "svg" : "png");
            if (stat(out, &st) == 0 && !S_ISREG(st.st_mode)) {
                cli_errorf("%s: -o %s: %s exists and is not a regular file\n", cmd, prefix, out);
                return 2;
            }
        }
    }
    return 0;
}

/* plot.h */
int plot_make_work(const char *cmd, char *work, size_t len)
{
    const char *tmpdir = getenv("TMPDIR");
    snprintf(work, len, "%s/roccsim-plot.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(work)) {
        cli_errorf("%s: cannot make a scratch directory %s: %s\n", cmd, work, strerror(errno));
        return 3;
    }
    return 0;
}

/* plot.h */
int plot_publish(const char *cmd, const char *work, const char *prefix)
{
    char tmp_png[4300], tmp_svg[4300];
    if (stage(cmd, work, "png", prefix, tmp_png, sizeof tmp_png) != 0)
        return 2;
    if (stage(cmd, work, "svg", prefix, tmp_svg, sizeof tmp_svg) != 0) {
        unlink(tmp_png);
        return 2;
    }
    char png[4200], svg[4200];
    snprintf(png, sizeof png, "%s.png", prefix);
    snprintf(svg, sizeof svg, "%s.svg", prefix);
    if (rename(tmp_png, png) != 0 || rename(tmp_svg, svg) != 0) {
        cli_errorf("%s: -o %s: cannot write the figure: %s\n", cmd, prefix, strerror(errno));
        unlink(tmp_png);
        unlink(tmp_svg);
        return 2;
    }
    return 0;
}

#define PLOT_USAGE                                                                                               \
    "usage: roccsim plot [-o PREFIX] RUN_DIR...\n"                                                               \
    "Draw up to 16 runs (directories written by roccsim run, or sweep points DIR/pNNNNN) into one\n"            \
    "figure, PREFIX.png and PREFIX.svg, with gnuplot: FCT slowdown (average, p99) per flow-size bin,\n"          \
    "the queue and RoCC fair rate of each run's busiest port over time, PFC pauses per port tier.\n"             \
    "  -o PREFIX   where to write the figure (default runs/plot: runs/plot.png, runs/plot.svg);\n"             \
    "              missing parent directories are created; the files are replaced only once\n"                 \
    "              both are drawn\n"                                                                            \
    "  -h, --help  this text\n"                                                                                  \
    "Exit status: 0 drawn, 2 bad arguments or input (nothing written), 3 gnuplot failed.\n"

int cmd_plot(int argc, char **argv)
{
    const char *prefix = "runs/plot";
    struct run runs[MAX_RUNS];
    int nr = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o")) {
            if (i + 1 == argc || !argv[i + 1][0]) {
                cli_errorf("roccsim plot: -o needs a file prefix (e.g. -o runs/fig)\n" PLOT_USAGE);
                return 2;
            }
            prefix = argv[++i];
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(PLOT_USAGE, stdout);
            return 0;
        } else if (argv[i][0] == '-') {
            cli_errorf("roccsim plot: unknown option '%s'\n" PLOT_USAGE, argv[i]);
            return 2;
        } else if (nr == MAX_RUNS) {
            cli_errorf("roccsim plot: at most %d runs in one figure\n", MAX_RUNS);
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
    int any_fct = 0, any_fair = 0, any_q = 0, any_tiers = 0;
    for (int r = 0; r < nr; r++) {
        any_fct |= runs[r].has_fct;
        any_fair |= runs[r].fcol > 0;
        any_q |= runs[r].qcol > 0;
        any_tiers |= runs[r].has_tiers;
    }
    int panels = 2 * any_fct + any_q + any_fair + any_tiers;
    if (!panels) {
        cli_errorf("roccsim plot: nothing to plot in these runs\n");
        return 2;
    }
    if (!plot_in_path("gnuplot")) {
        cli_errorf("roccsim plot: gnuplot is not installed (apt-get install gnuplot-nox)\n");
        return 2;
    }
    int prc = plot_check_prefix("roccsim plot", prefix);
    if (prc)
        return prc;
    char work[4096];
    int mrc = plot_make_work("roccsim plot", work, sizeof work);
    if (mrc)
        return mrc;
    struct script_ctx ctx = { runs, nr, panels, any_fct, any_q, any_fair, any_tiers };
    int rc = 0;
    for (int r = 0; r < nr && rc == 0; r++) {
        if (runs[r].qcol && link_data(work, r, "queue.csv", runs[r].dir, "queue.csv"))
            rc = 2;
        else if (runs[r].fcol && link_data(work, r, "fair_rate.csv", runs[r].dir, "fair_rate.csv"))
            rc = 2;
        else if (runs[r].has_tiers && link_data(work, r, "tiers.tsv", runs[r].dir, "tiers.tsv"))
            rc = 2;
        else if (runs[r].has_fct && filter_fct(work, r, runs[r].dir, runs[r].has_bg ? "background" : "all"))
            rc = 2;
    }
    for (int fmt = 0; fmt < 2 && rc == 0; fmt++)
        if (plot_gnuplot(work, script_cb, fmt, &ctx) != 0) {
            cli_errorf("roccsim plot: gnuplot failed\n");
            rc = 3;
        }
    if (rc == 0)
        rc = plot_publish("roccsim plot", work, prefix);
    remove_work(work, nr);
    if (rc == 0)
        printf("plots: %s.png %s.svg\n", prefix, prefix);
    return rc;
}
