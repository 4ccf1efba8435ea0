/* sweep.c -- `roccsim sweep`; see sweep.h and docs/sweeps.md. */
#include "cli/cli_args.h"
#include "cli/sweep.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/units.h"
#include "engine/config.h"

#define MAX_VARY 16
#define MAX_VALUES 64

struct vary { char key[256]; char *val[MAX_VALUES]; int n, line; };

struct sweep {
    char scenario[4096], dir[4096];
    const char *sweep_file;
    struct vary v[MAX_VARY];
    int nv;
    char set[MAX_VARY][600];      /* [set]: the same override for every point */
    int nset;
    uint64_t seeds[256];
    int nseeds;
    int jobs;
    int npoints;                  /* combos * seeds */
};

/* Parallel runs on one machine: each is a process with its own network
 * state, and pids/slots are allocated per job, so a bound keeps a typo
 * (jobs = 2000000000) from allocating gigabytes before anything runs. */
#define MAX_JOBS 1024

#define SWEEP_USAGE                                                                                        \
    "usage: roccsim sweep SWEEP.ini [-o DIR] [-j JOBS] [--collect]\n"                                      \
    "Run every combination of the [vary] values of SWEEP.ini times every seed, each point one\n"           \
    "`roccsim run` in a child process, and aggregate each metric's mean and ci95 (docs/sweeps.md).\n"       \
    "  -o DIR      output directory (default runs/<sweep file name>): DIR/points.tsv, DIR/pNNNNN/,\n"      \
    "              DIR/pNNNNN.log, DIR/pNNNNN.status, DIR/sweep.tsv; made only once every\n"              \
    "              combination is a valid scenario\n"                                                     \
    "  -j JOBS     points run at a time on this machine, 1..1024 (default: the sweep file's\n"            \
    "              jobs key; 0 or absent there = the number of CPUs)\n"                                    \
    "  --collect   run nothing: aggregate the points already in DIR (each with its pNNNNN.status,\n"     \
    "              whenever and however it ran) into DIR/sweep.tsv; points without one are named\n"     \
    "              and count as failed to run\n"                                                         \
    "  -h, --help  this text\n"                                                                          \
    "Under mpirun or a Slurm job array each rank runs its share of the points (docs/sweeps.md).\n"         \
    "Exit status: 0 every point ran, 1 some point failed to run, 2 bad arguments or sweep file.\n"

static int usage_err(const char *msg)
{
    cli_errorf("roccsim sweep: %s\n" SWEEP_USAGE, msg);
    return 2;
}

/* -j JOBS: a whole number 1..MAX_JOBS, nothing else (atoi took "abc" as 0
 * and "-5" as "use the default"). */
static int parse_jobs(const char *s, int *out)
{
    uint64_t v;
    if (!*s || units_parse_u64(s, &v) || v < 1 || v > MAX_JOBS) {
        cli_errorf("roccsim sweep: -j '%.40s': want a whole number of parallel runs, 1..%d\n", s, MAX_JOBS);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* Split a value list on blanks; values are kept as written. */
static int split(char *s, char **out, int max)
{
    int n = 0;
    for (char *t = strtok(s, " \t"); t; t = strtok(NULL, " \t")) {
        if (n == max)
            return -1;
        out[n++] = t;
    }
    return n;
}

struct vary_ctx { struct sweep *sw; struct cfg_err *err; int rc; };

static void vary_cb(const struct cfg_entry *e, void *arg)
{
    struct vary_ctx *vc = arg;
    struct sweep *sw = vc->sw;
    if (vc->rc)
        return;
    if (sw->nv == MAX_VARY) {
        vc->rc = cfg_errorf(vc->err, e, "at most %d varied keys", MAX_VARY);
        return;
    }
    if (!strchr(e->key, '.')) {
        vc->rc = cfg_errorf(vc->err, e, "vary keys are SECTION.KEY, as for --set");
        return;
    }
    struct vary *v = &sw->v[sw->nv];
    snprintf(v->key, sizeof v->key, "%s", e->key);
    v->line = e->line;
    char *copy = strdup(e->value);
    if (!copy) {
        vc->rc = cfg_errorf(vc->err, e, "out of memory");
        return;
    }
    v->n = split(copy, v->val, MAX_VALUES);
    if (v->n <= 0) {
        free(copy);
        vc->rc = cfg_errorf(vc->err, e, "1..%d values, separated by blanks", MAX_VALUES);
        return;
    }
    sw->nv++;
}

struct set_ctx { struct sweep *sw; struct cfg_err *err; int rc; };

static void set_cb(const struct cfg_entry *e, void *arg)
{
    struct set_ctx *sc = arg;
    if (sc->rc)
        return;
    if (sc->sw->nset == MAX_VARY || !strchr(e->key, '.')) {
        sc->rc = cfg_errorf(sc->err, e, "[set] holds up to %d SECTION.KEY = VALUE overrides", MAX_VARY);
        return;
    }
    snprintf(sc->sw->set[sc->sw->nset++], sizeof sc->sw->set[0], "%.250s=%.340s", e->key, e->value);
}

static int load_sweep(const char *path, struct sweep *sw, struct cfg_err *err)
{
    struct cfg *c = cfg_load(path, err);
    if (!c)
        return -1;
    int rc = -1;
    const struct cfg_entry *se = cfg_find(c, "sweep", "scenario");
    if (!se) {
        cfg_section_errorf(err, c, "sweep", "missing required key 'scenario'");
        goto out;
    }
    const char *slash = strrchr(path, '/');
    if (se->value[0] == '/' || !slash)
        snprintf(sw->scenario, sizeof sw->scenario, "%s", se->value);
    else
        snprintf(sw->scenario, sizeof sw->scenario, "%.*s/%s", (int)(slash - path), path, se->value);
    if (access(sw->scenario, R_OK)) {
        cfg_errorf(err, se, "cannot read scenario '%s': %s", sw->scenario, strerror(errno));
        goto out;
    }
    const struct cfg_entry *sd = cfg_find(c, "sweep", "seeds");
    char seeds[CFG_MAX_LINE + 1];
    snprintf(seeds, sizeof seeds, "%s", sd ? sd->value : "1");
    char *tok[256];
    int ns = split(seeds, tok, 256);
    for (int i = 0; i < ns; i++) {
        uint64_t a, b;
        char *dots = strstr(tok[i], "..");
        if (dots) {
            *dots = 0;
            if (units_parse_u64(tok[i], &a) || units_parse_u64(dots + 2, &b)) {
                cfg_errorf(err, sd, "bad seed range '%.40s..%.40s' (write A..B with whole numbers)", tok[i], dots + 2);
                goto out;
            }
            if (b < a) {
                cfg_errorf(err, sd, "seed range %llu..%llu is empty (the end is below the start)",
                           (unsigned long long)a, (unsigned long long)b);
                goto out;
            }
            if (b - a > 255) {
                cfg_errorf(err, sd, "seed range %llu..%llu holds more than 256 seeds (at most 256 per sweep)",
                           (unsigned long long)a, (unsigned long long)b);
                goto out;
            }
        } else if (units_parse_u64(tok[i], &a)) {
            cfg_errorf(err, sd, "seeds are whole numbers or ranges like 1..5");
            goto out;
        } else {
            b = a;
        }
        for (uint64_t s = a; s <= b; s++) {
            if (sw->nseeds == 256) {
                cfg_errorf(err, sd, "at most 256 seeds");
                goto out;
            }
            sw->seeds[sw->nseeds++] = s;
        }
    }
    if (ns <= 0) {
        cfg_errorf(err, sd, "no seeds");
        goto out;
    }
    uint64_t jobs;
    if (cfg_u64(c, "sweep", "jobs", 0, &jobs, err))
        goto out;
    if (jobs > MAX_JOBS) {
        cfg_errorf(err, cfg_find(c, "sweep", "jobs"), "%llu parallel runs: at most %d (0 = the number of CPUs)",
                   (unsigned long long)jobs, MAX_JOBS);
        goto out;
    }
    sw->jobs = (int)(jobs ? jobs : (uint64_t)sysconf(_SC_NPROCESSORS_ONLN));
    if (sw->jobs < 1)
        sw->jobs = 1;
    struct vary_ctx vc = { sw, err, 0 };
    cfg_entries(c, "vary", vary_cb, &vc);
    struct set_ctx sc = { sw, err, 0 };
    if (!vc.rc)
        cfg_entries(c, "set", set_cb, &sc);
    if (vc.rc || sc.rc || cfg_check_unused(c, err))
        goto out;
    int combos = 1;
    for (int i = 0; i < sw->nv; i++) {
        combos *= sw->v[i].n;
        if (combos > 100000) {
            cfg_section_errorf(err, c, "vary", "more than 100000 combinations");
            goto out;
        }
    }
    sw->npoints = combos * sw->nseeds;
    rc = 0;
out:
    cfg_free(c);
    return rc;
}

/* The value index of vary key k in combination `combo`. */
static int value_of(const struct sweep *sw, int combo, int k)
{
    for (int i = sw->nv - 1; i > k; i--)
        combo /= sw->v[i].n;
    return combo % sw->v[k].n;
}

static void point_dir(const struct sweep *sw, int p, char *buf, size_t len)
{
    snprintf(buf, len, "%.4000s/p%05d", sw->dir, p);
}

/* Run point p in a child (check = 1: only `run --check` it, output to
 * `log`); returns the child's pid or -1. */
static pid_t start_point_(const struct sweep *sw, const char *self, int p, int check, const char *log_path)
{
    int combo = p / sw->nseeds, si = p % sw->nseeds;
    char dir[4200], seed[64], *argv[8 + 4 * MAX_VARY + 4];
    char sets[MAX_VARY][600];
    point_dir(sw, p, dir, sizeof dir);
    snprintf(seed, sizeof seed, "sim.seed=%llu", (unsigned long long)sw->seeds[si]);
    int a = 0;
    argv[a++] = (char *)self;
    argv[a++] = "run";
    argv[a++] = (char *)sw->scenario;
    argv[a++] = check ? "--check" : "-q";
    argv[a++] = "-o";
    argv[a++] = dir;
    argv[a++] = "--set";
    argv[a++] = seed;
    for (int k = 0; k < sw->nset; k++) {
        argv[a++] = "--set";
        argv[a++] = (char *)sw->set[k];
    }
    for (int k = 0; k < sw->nv; k++) {
        snprintf(sets[k], sizeof sets[k], "%s=%s", sw->v[k].key, sw->v[k].val[value_of(sw, combo, k)]);
        argv[a++] = "--set";
        argv[a++] = sets[k];
    }
    argv[a] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        char log[4300];
        if (log_path)
            snprintf(log, sizeof log, "%s", log_path);
        else
            snprintf(log, sizeof log, "%s.log", dir);
        if (!freopen(log, "w", stdout) || dup2(fileno(stdout), 2) < 0)
            _exit(3);
        /* A sweep's point is a plain run, even when the sweep itself runs
         * under mpirun (whose environment the child inherits). */
        if (setenv("ROCCSIM_NO_MPI", "1", 1))
            _exit(3);
        execv(self, argv);
        _exit(3);
    }
    return pid;
}

static pid_t start_point(const struct sweep *sw, const char *self, int p)
{
    return start_point_(sw, self, p, 0, NULL);
}

/* Before running anything, before even making the output directory:
 * every combination must be a valid scenario (`run --check`, which writes
 * nothing), so a misspelt [vary] key or value fails the sweep at once and
 * leaves no empty directory.  The checks' output goes to a scratch file. */
static int check_combinations(const struct sweep *sw, const char *self)
{
    char log[4300];
    const char *tmpdir = getenv("TMPDIR");
    snprintf(log, sizeof log, "%.4000s/roccsim-sweep-check.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int lfd = mkstemp(log);
    if (lfd < 0) {
        cli_errorf("roccsim sweep: cannot make a scratch file %s: %s\n", log, strerror(errno));
        return 3;
    }
    close(lfd);
    for (int cb = 0; cb < sw->npoints / sw->nseeds; cb++) {
        pid_t pid = start_point_(sw, self, cb * sw->nseeds, 1, log);
        int status = 0;
        if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            cli_errorf("roccsim sweep: %s: combination %d is not a valid scenario (", sw->sweep_file, cb);
            for (int k = 0; k < sw->nv; k++)
                cli_errorf("%s%s=%s from line %d", k ? ", " : "", sw->v[k].key,
                        sw->v[k].val[value_of(sw, cb, k)], sw->v[k].line);
            cli_errorf("):\n");
            FILE *f = fopen(log, "r");
            char line[1024];
            while (f && fgets(line, sizeof line, f))
                cli_errorf("  %s", line);
            if (f)
                fclose(f);
            cli_errorf("  (--set N counts the arguments of the run; the [set] and [vary] keys are its overrides)\n");
            remove(log);
            return 2;
        }
    }
    remove(log);
    return 0;
}

static void mark_done(const struct sweep *sw, int p, int status)
{
    char path[4300];
    point_dir(sw, p, path, sizeof path);
    strncat(path, ".status", sizeof path - strlen(path) - 1);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%d\n", status);
        fclose(f);
    }
}

/* Exit status of point p, or -1 if not finished in this sweep: a status
 * file older than the sweep's start (a previous sweep into the same
 * directory) does not count. */
static time_t sweep_start;

static int read_status(const struct sweep *sw, int p)
{
    char path[4300];
    point_dir(sw, p, path, sizeof path);
    strncat(path, ".status", sizeof path - strlen(path) - 1);
    struct stat st_;
    if (stat(path, &st_) || st_.st_mtime + 2 < sweep_start)
        return -1;
    FILE *f = fopen(path, "r");
    int st = -1;
    if (f) {
        if (fscanf(f, "%d", &st) != 1)
            st = -1;
        fclose(f);
    }
    return st;
}

/* 97.5% quantile of Student's t with df degrees of freedom. */
static double t975(int df)
{
    static const double t[] = { 0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };
    return df <= 0 ? NAN : df <= 30 ? t[df] : 1.96;
}

struct kv { char key[160]; double mean, m2; int n; };   /* Welford's running mean and M2 */

static int aggregate(const struct sweep *sw)
{
    char path[4200];
    snprintf(path, sizeof path, "%.4000s/sweep.tsv", sw->dir);
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *out = fopen(tmp, "w");
    if (!out) {
        cli_errorf("roccsim sweep: %s: %s\n", tmp, strerror(errno));
        return 3;
    }
    fputs("combination", out);
    for (int k = 0; k < sw->nv; k++)
        fprintf(out, "\t%s", sw->v[k].key);
    fputs("\tmetric\tn\tmean\tci95\tmin\tmax\n", out);
    int combos = sw->npoints / sw->nseeds, failed = 0, unmet = 0;
    for (int cb = 0; cb < combos; cb++) {
        struct kv *kv = NULL;
        int nkv = 0;
        double *mins = NULL, *maxs = NULL;
        for (int si = 0; si < sw->nseeds; si++) {
            int p = cb * sw->nseeds + si;
            int st = read_status(sw, p);
            if (st != 0 && st != 1) {            /* 1: ran, an [expect] check failed */
                failed++;
                continue;
            }
            unmet += st == 1;
            char f[4300], line[512];
            point_dir(sw, p, f, sizeof f);
            strncat(f, "/summary.tsv", sizeof f - strlen(f) - 1);
            FILE *in = fopen(f, "r");
            if (!in) {
                failed++;
                continue;
            }
            while (fgets(line, sizeof line, in)) {
                char *tab = strchr(line, '\t');
                if (!tab)
                    continue;
                *tab = 0;
                char *end;
                double v = strtod(tab + 1, &end);
                if (end == tab + 1 || !isfinite(v) || strcmp(line, "seed") == 0)
                    continue;
                int i;
                for (i = 0; i < nkv && strcmp(kv[i].key, line); i++)
                    ;
                if (i == nkv) {
                    struct kv *nk = realloc(kv, (nkv + 1) * sizeof *nk);
                    double *nmin = realloc(mins, (nkv + 1) * sizeof *nmin);
                    if (nmin)
                        mins = nmin;
                    double *nmax = realloc(maxs, (nkv + 1) * sizeof *nmax);
                    if (nmax)
                        maxs = nmax;
                    if (!nk || !nmin || !nmax) {
                        free(nk ? nk : kv);
                        fclose(in);
                        fclose(out);
                        free(mins);
                        free(maxs);
                        return 3;
                    }
                    kv = nk;
                    memset(&kv[nkv], 0, sizeof kv[nkv]);
                    snprintf(kv[nkv].key, sizeof kv[nkv].key, "%.159s", line);
                    mins[nkv] = INFINITY;
                    maxs[nkv] = -INFINITY;
                    nkv++;
                }
                kv[i].n++;
                double d = v - kv[i].mean;
                kv[i].mean += d / kv[i].n;
                kv[i].m2 += d * (v - kv[i].mean);
                mins[i] = v < mins[i] ? v : mins[i];
                maxs[i] = v > maxs[i] ? v : maxs[i];
            }
            fclose(in);
        }
        for (int i = 0; i < nkv; i++) {
            double mean = kv[i].mean;
            double var = kv[i].n > 1 ? kv[i].m2 / (kv[i].n - 1) : NAN;
            double ci = kv[i].n > 1 ? t975(kv[i].n - 1) * sqrt(var > 0 ? var : 0) / sqrt(kv[i].n) : NAN;
            fprintf(out, "%d", cb);
            for (int k = 0; k < sw->nv; k++)
                fprintf(out, "\t%s", sw->v[k].val[value_of(sw, cb, k)]);
            fprintf(out, "\t%s\t%d\t%.9g\t%.9g\t%.9g\t%.9g\n", kv[i].key, kv[i].n, mean, ci, mins[i], maxs[i]);
        }
        free(kv);
        free(mins);
        free(maxs);
    }
    if (fclose(out) || rename(tmp, path)) {
        cli_errorf("roccsim sweep: %s: %s\n", path, strerror(errno));
        return 3;
    }
    printf("roccsim sweep: %d points (%d combinations x %d seeds), %d failed to run, %d with [expect] checks "
           "failing; aggregate: %s\n", sw->npoints, combos, sw->nseeds, failed, unmet, path);
    return failed ? 1 : 0;
}

static int env_int(const char *a, const char *b, int dflt)
{
    const char *v = getenv(a);
    if (!v && b)
        v = getenv(b);
    return v ? atoi(v) : dflt;
}

int cmd_sweep(int argc, char **argv, const char *self)
{
    static struct sweep sw;
    memset(&sw, 0, sizeof sw);
    const char *path = NULL, *dir = NULL;
    int jobs = 0, collect = 0;
    for (int i = 0; i < argc; i++) {
        if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "-j")) && i + 1 == argc) {
            cli_errorf("roccsim sweep: %s needs a value\n" SWEEP_USAGE, argv[i]);
            return 2;
        } else if (!strcmp(argv[i], "-o"))
            dir = argv[++i];
        else if (!strcmp(argv[i], "-j")) {
            if (parse_jobs(argv[++i], &jobs))
                return 2;
        } else if (!strcmp(argv[i], "--collect")) {
            collect = 1;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(SWEEP_USAGE, stdout);
            return 0;
        } else if (argv[i][0] == '-') {
            cli_errorf("roccsim sweep: unknown option '%s'\n" SWEEP_USAGE, argv[i]);
            return 2;
        }
        else if (!path)
            path = argv[i];
        else
            return usage_err("one sweep file");
    }
    if (!path)
        return usage_err("needs a sweep file");
    struct cfg_err err = { "" };
    sw.sweep_file = path;
    if (load_sweep(path, &sw, &err)) {
        cli_errorf("roccsim sweep: %s\n", err.msg);
        return 2;
    }
    if (jobs > 0)
        sw.jobs = jobs;
    if (dir)
        snprintf(sw.dir, sizeof sw.dir, "%s", dir);
    else {
        const char *b = strrchr(path, '/');
        b = b ? b + 1 : path;
        size_t n = strlen(b);
        if (n > 4 && !strcmp(b + n - 4, ".ini"))
            n -= 4;
        snprintf(sw.dir, sizeof sw.dir, "runs/%.*s", (int)n, b);
    }
    /* Ranks: MPI (Open MPI, PMI) or a Slurm job array; else one process. */
    int rank = env_int("OMPI_COMM_WORLD_RANK", "PMI_RANK", -1), size = env_int("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", 1);
    if (rank < 0) {
        rank = env_int("SLURM_ARRAY_TASK_ID", NULL, 0);
        size = env_int("SLURM_ARRAY_TASK_COUNT", NULL, 1);
    }
    if (size < 1 || rank >= size)
        return usage_err("bad rank/size in the environment");
    int crc = check_combinations(&sw, self);
    if (crc)
        return crc;
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "%s", sw.dir);
    for (char *p = cmd + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(cmd, 0777);
            *p = '/';
        }
    if (mkdir(cmd, 0777) && errno != EEXIST) {
        cli_errorf("roccsim sweep: %s: %s\n", sw.dir, strerror(errno));
        return 2;
    }
    if (rank == 0) {
        char pt[4300];
        snprintf(pt, sizeof pt, "%.4000s/points.tsv", sw.dir);
        FILE *f = fopen(pt, "w");
        if (f) {
            fputs("point\tseed", f);
            for (int k = 0; k < sw.nv; k++)
                fprintf(f, "\t%s", sw.v[k].key);
            fputc('\n', f);
            for (int p = 0; p < sw.npoints; p++) {
                fprintf(f, "p%05d\t%llu", p, (unsigned long long)sw.seeds[p % sw.nseeds]);
                for (int k = 0; k < sw.nv; k++)
                    fprintf(f, "\t%s", sw.v[k].val[value_of(&sw, p / sw.nseeds, k)]);
                fputc('\n', f);
            }
            fclose(f);
        }
    }
    if (collect) {
        /* Any status file counts, whenever it was written (sweep_start 0):
         * points run by an earlier sweep, another machine or by hand. */
        sweep_start = 0;
        if (rank != 0)
            return 0;
        int missing = 0;
        for (int p = 0; p < sw.npoints; p++)
            if (read_status(&sw, p) < 0 && missing++ < 8)
                cli_errorf("roccsim sweep: --collect: p%05d has no status file in %s (not run)\n", p, sw.dir);
        if (missing > 8)
            cli_errorf("roccsim sweep: --collect: %d points in all have no status file\n", missing);
        return aggregate(&sw);
    }
    sweep_start = time(NULL);
    for (int p = rank; p < sw.npoints; p += size) {   /* forget my points' old results */
        char st[4300];
        point_dir(&sw, p, st, sizeof st);
        strncat(st, ".status", sizeof st - strlen(st) - 1);
        remove(st);
    }
    /* Run my points, `jobs` at a time. */
    pid_t *pids = calloc((size_t)sw.jobs, sizeof *pids);
    int *slot_point = calloc((size_t)sw.jobs, sizeof *slot_point);
    if (!pids || !slot_point)
        return 3;
    int next = rank, running = 0;
    while (next < sw.npoints || running) {
        while (running < sw.jobs && next < sw.npoints) {
            int s;
            for (s = 0; pids[s]; s++)
                ;
            pids[s] = start_point(&sw, self, next);
            slot_point[s] = next;
            if (pids[s] < 0) {
                mark_done(&sw, next, 3);
                pids[s] = 0;
            } else {
                running++;
            }
            next += size;
        }
        int status;
        pid_t done = wait(&status);
        if (done < 0)
            break;
        for (int s = 0; s < sw.jobs; s++)
            if (pids[s] == done) {
                mark_done(&sw, slot_point[s], WIFEXITED(status) ? WEXITSTATUS(status) : 3);
                pids[s] = 0;
                running--;
                if (isatty(2))
                    cli_errorf("\r  sweep rank %d: point p%05d done  ", rank, slot_point[s]);
            }
    }
    if (isatty(2))
        fputc('\n', stderr);
    free(pids);
    free(slot_point);
    if (rank != 0)
        return 0;
    /* Rank 0 waits for every point (other ranks write to the same directory). */
    for (;;) {
        int missing = 0;
        for (int p = 0; p < sw.npoints; p++)
            missing += read_status(&sw, p) < 0;
        if (!missing)
            break;
        struct timespec ts = { 0, 200000000 };
        nanosleep(&ts, NULL);
    }
    return aggregate(&sw);
}
