/*
 * main.c -- the roccsim command line.
 *
 *   roccsim run SCENARIO.ini [-o DIR] [--set SECTION.KEY=VALUE]... [-q]
 *   roccsim maxmin SCENARIO.ini [...]      (maxmin_cmd.c)
 *   roccsim oq check POLICY.oq...          (oq_cmd.c)
 *   roccsim stability [rocc|rcc] MODE ...  (stability_cmd.c)
 *   roccsim help | --help | --version
 *
 * Exit status: 0 success; 1 an [expect] check failed; 2 bad input (the
 * message names file, line and key); 3 internal failure (out of memory,
 * packet conservation violated, outputs not writable).  Nothing is written
 * before the scenario has been read and checked in full.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_args.h"
#include "cli/maxmin_cmd.h"
#include "cli/oq_cmd.h"
#include "cli/plot.h"
#include "cli/stability_cmd.h"
#include "cli/sweep.h"
#include "core/hugepage.h"
#include "engine/config.h"
#include "engine/expect.h"
#include "engine/fct.h"
#include "engine/oqsel.h"
#include "engine/lsccsel.h"
#include "engine/parallel.h"
#include "engine/pcapout.h"
#include "engine/report.h"
#include "engine/scenario.h"

static const char usage[] =
    "usage: roccsim run SCENARIO.ini [-o DIR] [--set SECTION.KEY=VALUE]... [-q] [--check] [--ranks P]\n"
    "       mpirun -np P roccsim run SCENARIO.ini ...     (one run over P ranks; docs/parallel.md)\n"
    "       roccsim sweep SWEEP.ini [-o DIR] [-j JOBS]   (also under mpirun / Slurm arrays)\n"
    "       roccsim plot [-o PREFIX] RUN_DIR...          (PNG + SVG via gnuplot)\n"
    "       roccsim maxmin SCENARIO.ini [--run] [-o DIR]  (max-min fair rates; maxmin --help)\n"
    "       roccsim oq check POLICY.oq...                 (OpenQueue policies; docs/openqueue.md)\n"
    "       roccsim stability [rocc|rcc] MODE [...]       (loop stability; docs/stability.md)\n"
    "       roccsim help | --help | --version\n"
    "\n"
    "Runs a packet-level simulation of an RDMA fabric (RoCEv2, PFC) with the RoCC\n"
    "congestion control (or a baseline) and writes DIR/summary.json, summary.tsv,\n"
    "flows.csv, fct.tsv, tiers.tsv, queue_cdf.tsv, queue.csv,\n"
    "fair_rate.csv, link_flows.tsv and (up to [sim] flow_series_max flows) flow_rate.csv\n"
    "(default DIR: runs/<scenario name>).\n"
    "\n"
    "  -o DIR             output directory (created if needed)\n"
    "  --set S.K=V        override key K of section [S] (repeatable), e.g.\n"
    "                     --set sim.duration=5ms --set topology.senders=100\n"
    "  -q                 print only the expectations and errors\n"
    "  --check            read and check the scenario (and --set, [expect]), run nothing\n"
    "  --ranks P          with --check: print the partition over P ranks ([parallel]);\n"
    "                     under mpirun: the rank count the run must have\n"
    "\n"
    "Scenario keys: docs/config.md.  Outputs: docs/outputs.md.\n"
    "Exit status: 0 ok, 1 an [expect] check failed, 2 bad input, 3 internal error.\n";

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* When main() began: the report's set-up time runs from here to the first
 * event (reading the scenario, building the network, scheduling the flows). */
static double t_main;

static void default_dir(const char *path, char *out, size_t len)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && !strcmp(base + n - 4, ".ini"))
        n -= 4;
    snprintf(out, len, "runs/%.*s", (int)n, base);
}

/* After an early error, a section whose name roccsim does not know is worth
 * naming; a known section is merely not reached yet (the build stops at the
 * first error), and so may be an unread key in a section still being read
 * (typos in finished sections are caught by cfg_check_unused_done). */
static int is_typo(const char *msg)
{
    static const char *const known[] = { "sim", "network", "topology", "cc", "rocc", "dcqcn", "dcqcn_pi", "dcqcn_bcm", "hpcc",
                                         "timely", "dctcp", "qcn", "ecn", "fct", "output", "events", "expect", "parallel", NULL };
    const char *sec = strstr(msg, "unknown section [");
    if (!sec)
        return 0;
    sec += strlen("unknown section [");
    size_t len = strcspn(sec, "]");
    if ((len > 6 && !strncmp(sec, "flows.", 6)) || (len > 8 && !strncmp(sec, "traffic.", 8)))
        return 0;
    for (int i = 0; known[i]; i++)
        if (strlen(known[i]) == len && !strncmp(sec, known[i], len))
            return 0;
    return 1;
}

static int cmd_run(int argc, char **argv, int rank, int size)
{
    const char *path = NULL, *dir = NULL, *ranks_arg = NULL;
    int quiet = 0, check_only = 0;
    struct cfg_err err = { "" };
    const struct cli_opt opts[] = { { "-o", 1, NULL, &dir }, { "--set", 1, NULL, NULL }, { "-q", 0, &quiet, NULL },
                                    { "--check", 0, &check_only, NULL }, { "--ranks", 1, NULL, &ranks_arg },
                                    { NULL, 0, NULL, NULL } };
    int st = cli_parse_args(argc, argv, opts, usage, &path);
    if (st >= 0)
        return st;
    if (!path) {
        cli_errorf("roccsim: run needs a scenario file\n%s", usage);
        return 2;
    }
    long ranks = 0;
    if (ranks_arg) {
        char *end;
        ranks = strtol(ranks_arg, &end, 10);
        if (*end || ranks < 1 || ranks > 4096) {
            cli_errorf("roccsim: --ranks '%s': must be 1..4096\n", ranks_arg);
            return 2;
        }
        if (!check_only && ranks != size) {
            cli_errorf("roccsim: --ranks %ld but the run has %d rank%s (start it with mpirun -np %ld)\n", ranks,
                       size, size > 1 ? "s" : "", ranks);
            return 2;
        }
    }
    struct cfg *c = cli_load_scenario(path, argc, argv);
    if (!c)
        return 2;
    struct scenario sc;
    struct expectations *ex = NULL;
    int rc = 2;
    if (scenario_build(&sc, c, &err) || !(ex = expect_parse(&sc, &err))) {
        /* A failed semantic check is often the consequence of a typo: a
         * misspelt key in a section already read in full (sendres = 4, then
         * "no node named h2") is the error to report, the failure its effect. */
        struct cfg_err typo, unused;
        if (cfg_check_unused_done(c, &typo) && strcmp(typo.msg, err.msg) != 0) {
            cli_errorf("roccsim: %s\n", typo.msg);
            cli_errorf("roccsim: note: which probably caused: %s\n", err.msg);
        } else {
            cli_errorf("roccsim: %s\n", err.msg);
            if (cfg_check_unused(c, &unused) && strcmp(unused.msg, err.msg) != 0 && is_typo(unused.msg))
                cli_errorf("roccsim: note: %s (a typo?)\n", unused.msg);
        }
        goto out;
    }
    if (cfg_check_unused(c, &err)) {
        cli_errorf("roccsim: %s\n", err.msg);
        goto out;
    }
    if (check_only) {                   /* scenario, overrides and [expect] are valid */
        if (ranks > 1 && (parallel_refuse(&sc, (uint32_t)ranks, &err) ||
                          (rank == 0 && parallel_print(&sc, (uint32_t)ranks, stdout, &err)))) {
            cli_errorf("roccsim: %s\n", err.msg);
            goto out;
        }
        rc = 0;
        goto out;
    }
    if (size > 1 && parallel_setup(&sc, rank, size, &err)) {
        cli_errorf("roccsim: %s\n", err.msg);
        goto out;
    }
    char dbuf[4096], why[512];
    if (!dir) {
        default_dir(path, dbuf, sizeof dbuf);
        dir = dbuf;
    }
    if (rank == 0 && report_check_dir(dir, why, sizeof why)) {        /* before the run, not after */
        cli_errorf("roccsim: %s\n", why);
        goto out;
    }
    if (pcapout_open(&sc, dir, why, sizeof why)) {       /* [output] pcap: files in DIR/pcap */
        cli_errorf("roccsim: %s\n", why);
        goto out;
    }
    if (sc.warnings[0])
        fputs(sc.warnings, stderr);
    sc.progress = !quiet && isatty(2);
    mem_hint_heap();                    /* the fabric is built: its small allocations too (hugepage.h) */
    double w0 = wall();
    rc = 3;
    int run_bad = scenario_run(&sc, why, sizeof why);
    /* The captures are flushed and closed first, whatever happens next. */
    char pcap_why[512];
    int pcap_bad = pcapout_close(&sc, pcap_why, sizeof pcap_why);
    if (run_bad) {
        cli_errorf("roccsim: %s\n", why);
        if (pcap_bad)
            cli_errorf("roccsim: %s\n", pcap_why);
        goto out;
    }
    struct run_info ri = { path, wall() - w0, w0 - t_main, NULL, 0, "ok" };
    char cons[256];
    int cons_bad;
    if (size > 1) {                     /* rank 0 gets every rank's state, and writes alone */
        if (parallel_gather(&sc)) {
            cli_errorf("roccsim: out of memory merging the ranks' results\n");
            goto out;
        }
        cons_bad = parallel_check_conservation(&sc, cons, sizeof cons);
        if (rank == 0 && !pcap_bad)     /* files captured on other ranks, written here by the gather */
            pcap_bad = pcapout_errors(&sc, pcap_why, sizeof pcap_why);
        if (rank != 0) {
            rc = 0;
            goto out;
        }
        if (!quiet)
            parallel_print_stats(&sc, stderr);
    } else {
        cons_bad = net_check_conservation(&sc.net, cons, sizeof cons);
    }
    if (cons_bad)
        ri.conservation = cons;
    size_t ne = expect_count(ex);
    struct expect_result *res = calloc(ne ? ne : 1, sizeof *res);
    if (!res) {
        cli_errorf("roccsim: out of memory\n");
        goto out;
    }
    int fails = expect_eval(ex, &sc, res);
    ri.results = res;
    ri.n_results = ne;
    if (report_write(&sc, &ri, dir, why, sizeof why)) {
        cli_errorf("roccsim: %s\n", why);
        free(res);
        goto out;
    }
    if (quiet) {
        for (size_t i = 0; i < ne; i++)
            printf("%s  %s = %s  measured %s\n", res[i].pass ? "PASS" : "FAIL", res[i].check, res[i].target,
                   res[i].measured);
    } else {
        report_print(&sc, &ri, stdout);
        char pcaps[2048];
        pcapout_files(&sc, pcaps, sizeof pcaps);
        printf("\noutputs: %s/{summary.json,summary.tsv,flows.csv,fct.tsv,tiers.tsv,queue_cdf.tsv,queue.csv,fair_rate.csv,link_flows.tsv%s%s%s%s%s%s%s}\n",
               dir, sc.flow_series ? ",flow_rate.csv" : "", sc.hpcc_fct ? ",fct.txt" : "", sc.hpcc_flows ? ",flows.txt" : "",
               sc.rocc_trace ? ",rocc_trace.csv" : "", oqsel_has(&sc) ? ",openqueue.csv" : "",
               lsccsel_has(&sc) ? ",lscc.csv" : "", pcaps);
    }
    free(res);
    uint64_t below = fct_count_below_one(&sc);
    if (below)
        cli_errorf("roccsim: warning: %llu flows finished faster than their ideal FCT (slowdown < 1): "
                        "a model bug, please report it\n", (unsigned long long)below);
    if (pcap_bad)
        cli_errorf("roccsim: %s\n", pcap_why);
    if (cons_bad) {
        cli_errorf("roccsim: %s\n", cons);
        rc = 3;
    } else if (sc.lossless && sc.net.dropped[PKT_DATA] > sc.net.failure_drops + sc.net.fc_drops) {
        /* failure drops and a scheme's drops by design (Loop Breaker) are expected */
        cli_errorf("roccsim: warning: %llu data packets dropped in lossless mode (PFC headroom too small?)\n",
                (unsigned long long)(sc.net.dropped[PKT_DATA] - sc.net.failure_drops - sc.net.fc_drops));
        rc = fails ? 1 : 0;
    } else {
        rc = fails ? 1 : 0;
    }
    if (fails)
        cli_errorf("roccsim: %d expectation%s failed\n", fails, fails > 1 ? "s" : "");
    if (pcap_bad)
        rc = 3;                         /* a capture could not be written in full */
out:
    if (size > 1)
        rc = parallel_bcast_int(rc);    /* every rank exits as rank 0 does */
    parallel_free(&sc);
    expect_free(ex);
    scenario_free(&sc);
    cfg_free(c);
    return rc;
}

int main(int argc, char **argv)
{
    t_main = wall();
    if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "--version")) {
        puts("roccsim 0.1.0");
        return 0;
    }
    if (!strcmp(argv[1], "run")) {
        /* Under mpirun / srun: one run over the ranks (docs/parallel.md).
         * MPI is initialised only then, so a plain run pays nothing. */
        if (!parallel_launched())
            return cmd_run(argc - 2, argv + 2, 0, 1);
        int rank, size;
        char why[256];
        if (parallel_init(&argc, &argv, &rank, &size, why, sizeof why)) {
            const char *s = getenv("OMPI_COMM_WORLD_SIZE");
            if (!s)
                s = getenv("PMI_SIZE");
            if (s && atoi(s) > 1) {
                if (!getenv("OMPI_COMM_WORLD_RANK") || atoi(getenv("OMPI_COMM_WORLD_RANK")) == 0)
                    cli_errorf("roccsim: %s\n", why);
                return 2;
            }
            return cmd_run(argc - 2, argv + 2, 0, 1);   /* one rank: a plain run */
        }
        cli_set_silent(rank != 0);
        int rc = cmd_run(argc - 2, argv + 2, rank, size);
        parallel_finalize();
        return rc;
    }
    if (!strcmp(argv[1], "maxmin"))
        return cmd_maxmin(argc - 2, argv + 2);
    if (!strcmp(argv[1], "oq"))
        return cmd_oq(argc - 2, argv + 2);
    if (!strcmp(argv[1], "plot"))
        return cmd_plot(argc - 2, argv + 2);
    if (!strcmp(argv[1], "stability"))
        return cmd_stability(argc - 2, argv + 2);
    if (!strcmp(argv[1], "sweep")) {
        /* Children are this same binary: find it by /proc/self/exe. */
        char self[4096];
        ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
        if (k <= 0)
            snprintf(self, sizeof self, "%s", argv[0]);
        else
            self[k] = 0;
        return cmd_sweep(argc - 2, argv + 2, self);
    }
    cli_errorf("roccsim: unknown command '%s'\n%s", argv[1], usage);
    return 2;
}
