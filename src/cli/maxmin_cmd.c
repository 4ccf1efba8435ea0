/*
 * maxmin_cmd.c -- `roccsim maxmin`: the max-min fair rates of a scenario's
 * long-lived flows (engine/maxmin.h), and with --run the measured rates
 * against them.
 *
 *   roccsim maxmin SCENARIO.ini [--set S.K=V]... [--window T0..T1] [--run] [--paths] [-o DIR] [-q]
 *
 * Prints one row per long-lived flow; -o DIR also writes DIR/maxmin.tsv
 * (docs/outputs.md).  Exit status: 0, 2 bad input, 3 internal failure (out
 * of memory, output not writable).  Without --run nothing is simulated:
 * the oracle needs only the topology, the routes and the flows.
 */
#include "cli/cli_args.h"
#include "cli/maxmin_cmd.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "engine/config.h"
#include "engine/expect.h"
#include "engine/maxmin.h"
#include "engine/report.h"
#include "engine/scenario.h"

static const char usage[] =
    "usage: roccsim maxmin SCENARIO.ini [--set SECTION.KEY=VALUE]... [--window T0..T1] [--run] [--paths]\n"
    "                      [-o DIR] [-q]\n"
    "\n"
    "Max-min fair rates of the scenario's long-lived flows (size = inf, running\n"
    "the whole window) by water-filling over their paths (the simulator's ECMP\n"
    "choice), sender caps and link capacities, with the reverse-path ACK and\n"
    "RoCC CNP load counted.  Rates are in wire bytes (frame + preamble + IFG),\n"
    "as link capacity and the simulator's receive rates; goodput is the payload\n"
    "share of that.\n"
    "\n"
    "  --set S.K=V        override key K of section [S] (repeatable)\n"
    "  --window T0..T1    the window (default: [sim] measure_start..measure_end)\n"
    "  --run              also simulate, and compare each flow's receive rate\n"
    "                     over the window with its max-min rate\n"
    "  --paths            also print each flow's path (the nodes its data crosses)\n"
    "  -o DIR             also write DIR/maxmin.tsv\n"
    "  -q                 print only the summary line and the notes\n"
    "\n"
    "The model, its assumptions and the [expect] check maxmin_error: docs/maxmin.md.\n"
    "Exit status: 0 ok, 2 bad input, 3 internal error.\n";

static void port_name(const struct net *n, uint32_t p, char *buf, size_t len)
{
    if (p == NONE32) {
        snprintf(buf, len, "cap");
        return;
    }
    snprintf(buf, len, "%s->%s", n->nodes[n->ports[p].node].name, n->nodes[n->ports[n->ports[p].peer].node].name);
}

static const char *host_name(const struct net *n, uint32_t h) { return n->nodes[n->hosts[h].node].name; }

/* The nodes a flow's data crosses, blank-separated (names hold no blanks). */
static void print_path(FILE *out, const struct net *n, const struct maxmin *mm, const struct mm_flow *m)
{
    for (uint32_t j = 0; j < m->hops; j++) {
        const struct port *pt = &n->ports[mm->paths[m->path + j]];
        fprintf(out, "%s ", n->nodes[pt->node].name);
        if (j + 1 == m->hops)
            fputs(n->nodes[n->ports[pt->peer].node].name, out);
    }
}

static int parse_window(const char *s, simtime_t dur, simtime_t *t0, simtime_t *t1)
{
    char buf[96];
    if (strlen(s) >= sizeof buf)
        return -1;
    snprintf(buf, sizeof buf, "%s", s);
    char *dots = strstr(buf, "..");
    if (!dots)
        return -1;
    *dots = 0;
    uint64_t a, b;
    if (units_parse_time_ps(buf, &a) || units_parse_time_ps(dots + 2, &b) || b <= a || b > dur)
        return -1;
    *t0 = a;
    *t1 = b;
    return 0;
}

static int write_tsv(const struct scenario *sc, const struct maxmin *mm, int ran, const char *dir, char *why,
                     size_t len)
{
    /* Written as DIR/.maxmin.tsv.tmp, then renamed: like the run's
     * outputs, a reader never sees half a file (docs/outputs.md). */
    char path[4200], tmp[4200];
    snprintf(path, sizeof path, "%s/maxmin.tsv", dir);
    snprintf(tmp, sizeof tmp, "%s/.maxmin.tsv.tmp", dir);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(why, len, "%s: cannot write: %s", tmp, strerror(errno));
        return -1;
    }
    const struct net *n = &sc->net;
    fprintf(f, "flow\tname\tgroup\tsrc\tdst\thops\tcap_bps\tbottleneck\toracle_bps\tgoodput_bps\tmeasured_bps\terror\t"
               "path\n");
    for (uint32_t i = 0; i < mm->n; i++) {
        const struct mm_flow *m = &mm->f[i];
        const struct flow *fl = &n->flows[m->flow];
        char name[64], lim[64];
        maxmin_flow_name(sc, m->flow, name, sizeof name);
        port_name(n, m->limit, lim, sizeof lim);
        fprintf(f, "%u\t%s\t%s\t%s\t%s\t%u\t%.0f\t%s\t%.0f\t%.0f\t", m->flow, name, sc->groups[fl->group].name,
                host_name(n, fl->src), host_name(n, fl->dst), m->hops, m->cap_bps, lim, m->oracle_bps,
                m->goodput_bps);
        if (ran && !isnan(m->measured_bps))
            fprintf(f, "%.0f\t%.6f\t", m->measured_bps, m->error);
        else
            fprintf(f, "\t\t");
        print_path(f, n, mm, m);
        fputc('\n', f);
    }
    int bad = ferror(f);
    if (fclose(f) || bad || rename(tmp, path)) {
        snprintf(why, len, "%s: cannot write: %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

static void print_table(const struct scenario *sc, const struct maxmin *mm, const char *path, int ran, int quiet,
                        int paths)
{
    const struct net *n = &sc->net;
    char a[32], b[32], d[32], e[32];
    if (!quiet) {
        printf("max-min oracle for %s over %s..%s: %u long-lived flow%s\n", path, units_fmt_time(mm->t0, a, sizeof a),
               units_fmt_time(mm->t1, b, sizeof b), mm->n, mm->n == 1 ? "" : "s");
        printf("(Gb/s of wire bytes: frame + preamble + IFG; goodput: the payload share of the oracle)\n\n");
        printf("%-20s %-8s %-8s %9s  %-16s %9s %9s %9s %9s\n", "flow", "src", "dst", "cap", "bottleneck",
               "oracle", "goodput", "measured", "error");
        for (uint32_t i = 0; i < mm->n; i++) {
            const struct mm_flow *m = &mm->f[i];
            const struct flow *fl = &n->flows[m->flow];
            char name[64], lim[64], err[24];
            maxmin_flow_name(sc, m->flow, name, sizeof name);
            port_name(n, m->limit, lim, sizeof lim);
            if (ran && !isnan(m->error))
                snprintf(err, sizeof err, "%.3f%%", m->error * 100);
            else
                snprintf(err, sizeof err, "-");
            if (ran && !isnan(m->measured_bps))
                snprintf(d, sizeof d, "%.4f", m->measured_bps / 1e9);
            else
                snprintf(d, sizeof d, "-");
            printf("%-20s %-8s %-8s %9.4f  %-16s %9.4f %9.4f %9s %9s\n", name, host_name(n, fl->src),
                   host_name(n, fl->dst), m->cap_bps / 1e9, lim, m->oracle_bps / 1e9, m->goodput_bps / 1e9, d, err);
        }
        printf("\n");
        for (uint32_t i = 0; paths && i < mm->n; i++) {
            char name[64];
            maxmin_flow_name(sc, mm->f[i].flow, name, sizeof name);
            printf("%-20s ", name);
            print_path(stdout, n, mm, &mm->f[i]);
            printf("\n");
        }
        if (paths && mm->n)
            printf("\n");
    }
    if (mm->n == 0) {
        printf("no long-lived flow in the window (the oracle takes flows with size = inf that run all of it)\n");
    } else if (ran) {
        uint32_t w;
        double err = maxmin_max_error(mm, sc, NONE32, &w);
        if (w == NONE32) {
            printf("max error: - (no receive rate measured: more flows than [sim] flow_series_max?)\n");
        } else {
            char name[64];
            maxmin_flow_name(sc, mm->f[w].flow, name, sizeof name);
            printf("max error %.3f%% (%s: %s, oracle %s)\n", err * 100, name,
                   units_fmt_rate(mm->f[w].measured_bps, d, sizeof d), units_fmt_rate(mm->f[w].oracle_bps, e, sizeof e));
        }
    } else {
        printf("%u long-lived flows; no run (--run compares measured rates)\n", mm->n);
    }
    /* What the oracle leaves out is said, never dropped silently. */
    if (mm->finite)
        printf("note: %u sized flow%s start before the window ends and are not in the oracle%s\n", mm->finite,
               mm->finite > 1 ? "s" : "", ran ? "" : " (if they still send in the window, the oracle does not hold)");
    if (ran && mm->interfering)
        printf("note: %u sized flow%s sent during the window: the comparison does not hold\n", mm->interfering,
               mm->interfering > 1 ? "s" : "");
    if (mm->cnp_cps)
        printf("note: CNP load of %u RoCC CP%s (bottlenecks with a queue) counted on the reverse paths\n", mm->cnp_cps,
               mm->cnp_cps > 1 ? "s" : "");
    if (!mm->settled && mm->n)
        printf("note: the set of CPs sending CNPs did not settle after %u rounds (CNP load approximate)\n", mm->rounds);
    if (mm->ack_unsettled)
        printf("note: the ACK loads reached no fixed point (rates of the last round)\n");
    if (mm->other_cnp_flows)
        printf("note: %u flow%s get CNPs from receivers or QCN CPs; that load is not counted\n", mm->other_cnp_flows,
               mm->other_cnp_flows > 1 ? "s" : "");
    if (mm->window_flows)
        printf("note: %u flow%s have a window ([flows.*] window); the oracle ignores it\n", mm->window_flows,
               mm->window_flows > 1 ? "s" : "");
}

int cmd_maxmin(int argc, char **argv)
{
    const char *path = NULL, *dir = NULL, *window = NULL;
    int quiet = 0, run = 0, paths = 0;
    struct cfg_err err = { "" };
    const struct cli_opt opts[] = { { "-o", 1, NULL, &dir }, { "--set", 1, NULL, NULL }, { "--window", 1, NULL, &window },
                                    { "-q", 0, &quiet, NULL }, { "--run", 0, &run, NULL }, { "--paths", 0, &paths, NULL },
                                    { NULL, 0, NULL, NULL } };
    int st = cli_parse_args(argc, argv, opts, usage, &path);
    if (st >= 0)
        return st;
    if (!path) {
        cli_errorf("roccsim: maxmin needs a scenario file\n%s", usage);
        return 2;
    }
    struct cfg *c = cli_load_scenario(path, argc, argv);
    if (!c)
        return 2;
    struct scenario sc;
    struct expectations *ex = NULL;
    struct maxmin mm;
    memset(&mm, 0, sizeof mm);
    int rc = 2;
    /* [expect] is read too, so its keys count as used and a malformed one
     * is reported as `roccsim run` would. */
    if (scenario_build(&sc, c, &err) || !(ex = expect_parse(&sc, &err)) || cfg_check_unused(c, &err)) {
        cli_errorf("roccsim: %s\n", err.msg);
        goto out;
    }
    simtime_t t0 = sc.measure_start, t1 = sc.measure_end;
    if (window && parse_window(window, sc.duration, &t0, &t1)) {
        char d[32];
        cli_errorf("roccsim: --window '%s': need T0..T1 with times like 10ms, T0 < T1 <= duration (%s)\n",
                window, units_fmt_time(sc.duration, d, sizeof d));
        goto out;
    }
    char why[4400];
    if (maxmin_build(&mm, &sc, t0, t1, why, sizeof why)) {
        cli_errorf("roccsim: %s: %s\n", path, why);
        rc = strstr(why, "out of memory") ? 3 : 2;
        goto out;
    }
    if (dir && report_check_dir(dir, why, sizeof why)) {       /* before the run, not after */
        cli_errorf("roccsim: %s\n", why);
        goto out;
    }
    if (run) {
        if (sc.warnings[0])
            fputs(sc.warnings, stderr);
        if (scenario_run(&sc, why, sizeof why)) {
            cli_errorf("roccsim: %s\n", why);
            rc = 3;
            goto out;
        }
        maxmin_measure(&mm, &sc);
    }
    print_table(&sc, &mm, path, run, quiet, paths);
    rc = 0;
    if (dir && write_tsv(&sc, &mm, run, dir, why, sizeof why)) {
        cli_errorf("roccsim: %s\n", why);
        rc = 3;
    }
out:
    maxmin_free(&mm);
    expect_free(ex);
    scenario_free(&sc);
    cfg_free(c);
    return rc;
}
