/*
 * lscc_fluid_cmd.c -- `roccsim stability lscc`: the fluid model of LSCC's
 * loop (src/cc/lscc_fluid.h) in the Fig. 8 setting, with DCQCN sources and
 * with sources that follow R exactly, side by side.  docs/stability.md
 * "LSCC's loop".
 *
 * Exit status: 0; 2 bad arguments; 3 out of memory.
 */
#include "cli/cli_args.h"
#include "cli/stability_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/lscc_fluid.h"
#include "core/units.h"

#define CMD "roccsim stability lscc"

static const char usage[] =
    "usage: roccsim stability lscc [options]      (LSCC's loop as a fluid model; docs/stability.md)\n"
    "\n"
    "Runs Alg. 1, Alg. 2 and DCQCN (librocc's code) on rates instead of packets: M sources ->\n"
    "local egress (pseudo-queue, direct CNPs) -> long-haul delay D -> remote queue drained at the\n"
    "bottleneck; R returns D later.  No PFC, ECN or buffer limit.  Prints one row per kind of source:\n"
    "dcqcn (DCQCN reacting to direct CNPs) and ideal (each source sends R/M exactly).\n"
    "\n"
    "Options (defaults: Fig. 8 with the project's LSCC defaults, docs/crossdc.md):\n"
    "  --sources dcqcn|ideal|both   which sources (default both)\n"
    "  --flows M                    sources (default 4)\n"
    "  --nic RATE                   each source's line rate (40Gbps)\n"
    "  --bottleneck RATE            the remote queue's drain rate (40Gbps)\n"
    "  --long-haul RATE             long-haul link: Rmax, R's start, the BDP (200Gbps)\n"
    "  --delay D                    long-haul one-way delay (1ms); N = round(2D/T)\n"
    "  --period T                   Alg. 1's period (200us)\n"
    "  --q-ref SIZE                 Qref (2MB);  --q-ref-pseudo SIZE  Q*ref (2MB)\n"
    "  --dr RATE                    dR, a multiple of 1Mbps (1Gbps)\n"
    "  --long-flow SIZE|inf         Alg. 2's long-flow threshold (2 x long-haul BDP + 1 B; inf: 4294967295 B,\n"
    "                               Table I's largest TxBytes: a flow that sends more is long)\n"
    "  --cnp-interval T             direct-CNP interval (= --period)\n"
    "  --dcqcn-profile paper|hpcc_sim   the sources' DCQCN values (paper)\n"
    "  --start T                    the first source starts (0)\n"
    "  --stagger T                  source i starts at start + i T (0: together; Fig. 9a: 500ms)\n"
    "  --duration T                 run length (300ms);  --measure T  window start (150ms)\n"
    "  --step T                     integration step dt (1us)\n"
    "  --series                     one row per period T instead of the summary\n";

struct fopts {
    int kinds;                 /* bit 0: dcqcn, bit 1: ideal */
    int series;
    uint64_t flows;
    uint64_t nic, bottleneck, longhaul, delay, period, qref, qref_pseudo, dr, cnp_interval;
    uint64_t long_flow;
    int has_period, has_cnp_interval, has_long_flow, has_measure;
    int profile;
    uint64_t start, stagger, duration, measure, step;
};

static int parse(int argc, char **argv, struct fopts *o)
{
    for (int i = 0; i < argc; i++) {
        const char *k = argv[i];
        if (!strcmp(k, "-h") || !strcmp(k, "--help")) {
            fputs(usage, stdout);
            return 0;
        }
        if (!strcmp(k, "--series")) {
            o->series = 1;
            continue;
        }
        static const char *const takes[] = {
            "--sources", "--flows", "--nic", "--bottleneck", "--long-haul", "--delay", "--period",
            "--q-ref", "--q-ref-pseudo", "--dr", "--long-flow", "--cnp-interval", "--dcqcn-profile",
            "--start", "--stagger", "--duration", "--measure", "--step", NULL
        };
        const char *v;
        int rc = cli_option_arg(CMD, usage, takes, argc, argv, &i, &v);
        if (rc >= 0)
            return rc;
        const char *why = NULL;
        int e = 0;
        if (!strcmp(k, "--sources")) {
            if (!strcmp(v, "dcqcn"))
                o->kinds = 1;
            else if (!strcmp(v, "ideal"))
                o->kinds = 2;
            else if (!strcmp(v, "both"))
                o->kinds = 3;
            else
                return cli_bad_value(CMD, k, v, "want dcqcn, ideal or both");
        } else if (!strcmp(k, "--flows")) {
            /* the range is the model's (lscc_fluid_params_blame) */
            if (units_parse_u64_why(v, &o->flows, &why) || o->flows > UINT32_MAX)
                return cli_bad_value(CMD, k, v, why ? why : "must be in 1..1024");
        } else if (!strcmp(k, "--dcqcn-profile")) {
            if (!strcmp(v, "paper"))
                o->profile = DCQCN_PROFILE_PAPER;
            else if (!strcmp(v, "hpcc_sim"))
                o->profile = DCQCN_PROFILE_HPCC_SIM;
            else
                return cli_bad_value(CMD, k, v, "want paper or hpcc_sim");
        } else if (!strcmp(k, "--long-flow")) {
            o->has_long_flow = 1;
            if (!strcmp(v, "inf"))
                o->long_flow = UINT32_MAX;
            else if (units_parse_bytes_why(v, &o->long_flow, &why) || o->long_flow == 0 || o->long_flow > UINT32_MAX)
                return cli_bad_value(CMD, k, v, why ? why : "must be in 1B..4294967295B, or inf");
        } else if (!strcmp(k, "--nic") || !strcmp(k, "--bottleneck") || !strcmp(k, "--long-haul") || !strcmp(k, "--dr")) {
            uint64_t *dst = !strcmp(k, "--nic") ? &o->nic : !strcmp(k, "--bottleneck") ? &o->bottleneck
                          : !strcmp(k, "--long-haul") ? &o->longhaul : &o->dr;
            e = units_parse_rate_bps_why(v, dst, &why) || *dst == 0;
        } else if (!strcmp(k, "--q-ref") || !strcmp(k, "--q-ref-pseudo")) {
            uint64_t *dst = !strcmp(k, "--q-ref") ? &o->qref : &o->qref_pseudo;
            e = units_parse_bytes_why(v, dst, &why) || *dst == 0;
        } else {
            uint64_t *dst = !strcmp(k, "--delay") ? &o->delay : !strcmp(k, "--period") ? &o->period
                          : !strcmp(k, "--cnp-interval") ? &o->cnp_interval : !strcmp(k, "--start") ? &o->start
                          : !strcmp(k, "--stagger") ? &o->stagger
                          : !strcmp(k, "--duration") ? &o->duration : !strcmp(k, "--measure") ? &o->measure : &o->step;
            o->has_period |= dst == &o->period;
            o->has_cnp_interval |= dst == &o->cnp_interval;
            o->has_measure |= dst == &o->measure;
            e = units_parse_time_ps_why(v, dst, &why) || (*dst == 0 && dst != &o->start && dst != &o->stagger && dst != &o->measure);
        }
        if (e)
            return cli_bad_value(CMD, k, v, why ? why : "must be > 0");
    }
    return -1;
}

/* The model's reason for refusing the parameters, after the options that
 * set the parameters it blames, with their values: "--delay 100ms,
 * --period 200us: N = round(2D/T) must be in 1..256 (...)". */
static int blame_error(const struct fopts *o, unsigned blame, const char *why)
{
    enum { T, R, B, N, S };    /* how to print the value: time, rate, bytes, count, sources */
    const struct { const char *opt; unsigned bits; int fmt; const uint64_t *v; } opts[] = {
        { "--sources", LSCC_FLUID_BLAME_SOURCES, S, NULL },
        { "--flows", LSCC_FLUID_BLAME_FLOWS, N, &o->flows },
        { "--nic", LSCC_FLUID_BLAME_NIC | LSCC_FLUID_BLAME_DCQCN, R, &o->nic },
        { "--bottleneck", LSCC_FLUID_BLAME_BOTTLENECK, R, &o->bottleneck },
        /* Rmax, Rmin (min(100 Mb/s, Rmax)), R's and Q*'s starts come from it */
        { "--long-haul", LSCC_BLAME_RMAX | LSCC_BLAME_RMIN | LSCC_BLAME_RINIT | LSCC_BLAME_DRAIN_INIT, R, &o->longhaul },
        { "--delay", LSCC_FLUID_BLAME_DELAY | LSCC_BLAME_N, T, &o->delay },
        { "--period", LSCC_BLAME_PERIOD | LSCC_BLAME_N, T, &o->period },
        { "--q-ref", LSCC_BLAME_QREF, B, &o->qref },
        { "--q-ref-pseudo", LSCC_BLAME_QREF_PSEUDO, B, &o->qref_pseudo },
        { "--dr", LSCC_BLAME_DR, R, &o->dr },
        { "--long-flow", LSCC_BLAME_LONG_FLOW, B, &o->long_flow },
        { "--cnp-interval", LSCC_BLAME_CNP_INTERVAL, T, &o->cnp_interval },
        { "--start", LSCC_FLUID_BLAME_START, T, &o->start },
        { "--stagger", LSCC_FLUID_BLAME_STAGGER, T, &o->stagger },
        { "--duration", LSCC_FLUID_BLAME_DURATION, T, &o->duration },
        { "--measure", LSCC_FLUID_BLAME_MEASURE, T, &o->measure },
        { "--step", LSCC_FLUID_BLAME_STEP, T, &o->step },
    };
    char line[512] = "";
    size_t len = 0;
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
        if (!(blame & opts[i].bits))
            continue;
        char v[64];
        if (opts[i].fmt == S)
            snprintf(v, sizeof v, "%s", o->kinds == 1 ? "dcqcn" : o->kinds == 2 ? "ideal" : "both");
        else if (opts[i].fmt == T)
            units_fmt_time(*opts[i].v, v, sizeof v);
        else if (opts[i].fmt == R)
            units_fmt_rate((double)*opts[i].v, v, sizeof v);
        else if (opts[i].fmt == B)
            units_fmt_bytes((double)*opts[i].v, v, sizeof v);
        else
            snprintf(v, sizeof v, "%llu", (unsigned long long)*opts[i].v);
        int w = snprintf(line + len, sizeof line - len, "%s%s %s", len ? ", " : "", opts[i].opt, v);
        if (w > 0 && (size_t)w < sizeof line - len)
            len += (size_t)w;
    }
    /* Blamed parameters no option sets (the feedback unit, the flow table)
     * leave the reason alone. */
    cli_errorf(CMD ": %s%s%s\n", line, len ? ": " : "", why);
    return 2;
}

static void series_row(void *ctx, const struct lscc_fluid_sample *s)
{
    const char *kind = ctx;
    printf("%s\t%.3f\t%llu\t%llu\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%u\n", kind, (double)s->t_ps / 1e9,
           (unsigned long long)s->qcur_bytes, (unsigned long long)s->qstar_bytes, (double)s->r_bps / 1e9,
           (double)s->ra_sent_bps / 1e9, (double)s->br_bps / 1e9, (double)s->r_local_bps / 1e9,
           (double)s->src_bps / 1e9, s->direct_cnps);
}

int cmd_stability_lscc(int argc, char **argv)
{
    struct fopts o;
    memset(&o, 0, sizeof o);
    struct lscc_fluid_params p;
    lscc_fluid_params_default(&p);
    o.kinds = 3;
    o.flows = p.flows;
    o.nic = p.nic_bps, o.bottleneck = p.bottleneck_bps, o.longhaul = p.rc.r_max_bps;
    o.delay = p.one_way_ps, o.period = p.rc.period_ps;
    o.qref = p.rc.q_ref_bytes, o.qref_pseudo = p.rl.q_ref_bytes, o.dr = p.rc.dr_bps;
    o.profile = DCQCN_PROFILE_PAPER;
    o.start = p.start_ps, o.duration = p.duration_ps, o.measure = p.measure_ps, o.step = p.step_ps;
    int rc = parse(argc, argv, &o);
    if (rc >= 0)
        return rc;
    if (!o.has_measure)
        o.measure = o.duration / 2;

    p.flows = (uint32_t)o.flows;
    p.nic_bps = o.nic;
    p.bottleneck_bps = o.bottleneck;
    p.one_way_ps = o.delay;
    p.start_ps = o.start;
    p.stagger_ps = o.stagger;
    p.duration_ps = o.duration;
    p.measure_ps = o.measure;
    p.step_ps = o.step;
    lscc_rc_params_default(&p.rc, o.longhaul, o.delay);
    p.rc.period_ps = o.period;
    p.rc.n = lscc_n_for(o.delay, o.period);
    p.rc.q_ref_bytes = o.qref;
    p.rc.dr_bps = o.dr;
    lscc_rl_params_default(&p.rl, o.longhaul, o.delay, o.period);
    p.rl.q_ref_bytes = o.qref_pseudo;
    if (o.has_cnp_interval)
        p.rl.cnp_interval_ps = o.cnp_interval;
    if (o.has_long_flow)
        p.rl.long_flow_bytes = (uint32_t)o.long_flow;
    dcqcn_params_default(&p.dcqcn, o.nic, (enum dcqcn_profile)o.profile);

    char why[200];
    p.sources = (o.kinds & 1) ? LSCC_FLUID_DCQCN : LSCC_FLUID_IDEAL;
    if ((o.kinds & 1) && p.rl.long_flow_bytes != UINT32_MAX)
        cli_errorf(CMD ": warning: the model has no ECN, so a DCQCN flow past the long-flow threshold "
                   "(%u B) never gets a CNP again; --long-flow inf keeps every flow short\n",
                   p.rl.long_flow_bytes);
    unsigned blame = 0;
    if (lscc_fluid_params_blame(&p, &blame, why, sizeof why))
        return blame_error(&o, blame, why);
    size_t need = lscc_fluid_storage_bytes(&p);
    void *mem = malloc(need);
    struct lscc_fluid_result *res = malloc(sizeof *res);
    if (!mem || !res) {
        free(mem);
        free(res);
        cli_errorf(CMD ": out of memory (%zu bytes)\n", need);
        return 3;
    }

    char b1[32], b2[32], b3[32], b4[32];
    printf("# LSCC loop, fluid model: %u flows at %s, bottleneck %s, long-haul %s, D %.3f ms, T %.0f us (N = %u), "
           "Qref %llu B, Q*ref %llu B, dR %s, long flows from %llu B, direct CNPs every %.0f us, DCQCN %s; "
           "sources from %.3f ms, %.3f ms apart, window %.3f-%.3f ms, dt %.3f us\n",
           p.flows, units_fmt_rate((double)p.nic_bps, b1, sizeof b1), units_fmt_rate((double)p.bottleneck_bps, b2, sizeof b2),
           units_fmt_rate((double)p.rc.r_max_bps, b3, sizeof b3), (double)p.one_way_ps / 1e9, (double)p.rc.period_ps / 1e6,
           p.rc.n, (unsigned long long)p.rc.q_ref_bytes, (unsigned long long)p.rl.q_ref_bytes,
           units_fmt_rate((double)p.rc.dr_bps, b4, sizeof b4), (unsigned long long)p.rl.long_flow_bytes,
           (double)p.rl.cnp_interval_ps / 1e6, o.profile == DCQCN_PROFILE_PAPER ? "paper" : "hpcc_sim",
           (double)p.start_ps / 1e9, (double)p.stagger_ps / 1e9, (double)p.measure_ps / 1e9, (double)p.duration_ps / 1e9, (double)p.step_ps / 1e6);
    if (o.series)
        printf("sources\tt_ms\tqcur_B\tqstar_B\tr_gbps\tra_sent_gbps\tbr_gbps\tr_local_gbps\tsrc_gbps\tdirect_cnps\n");
    else
        printf("sources\tflow_mean_gbps\tflow_min_gbps\tflow_max_gbps\tjain\tutil\tqcur_mean_MB\tqcur_p50_MB\t"
               "qcur_p99_MB\tqcur_max_MB\tnear_qref\tqstar_mean_MB\tqstar_max_MB\tr_min_gbps\tr_mean_gbps\t"
               "r_max_gbps\tqcur_max_run_MB\tdirect_cnps\n");
    for (int kind = 0; kind < 2; kind++) {
        if (!(o.kinds & (1 << kind)))
            continue;
        const char *name = kind ? "ideal" : "dcqcn";
        p.sources = kind ? LSCC_FLUID_IDEAL : LSCC_FLUID_DCQCN;
        if (lscc_fluid_run(&p, mem, res, o.series ? series_row : NULL, (void *)name, why, sizeof why)) {
            cli_errorf(CMD ": %s\n", why);
            free(mem);
            free(res);
            return 2;
        }
        if (o.series)
            continue;
        double sum = 0, lo = res->flow_mean_bps[0], hi = lo;
        for (uint32_t i = 0; i < res->flows; i++) {
            double r = res->flow_mean_bps[i];
            sum += r;
            lo = r < lo ? r : lo;
            hi = r > hi ? r : hi;
        }
        printf("%s\t%.3f\t%.3f\t%.3f\t%.4f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%llu\n",
               name, sum / res->flows / 1e9, lo / 1e9, hi / 1e9, res->jain, res->util, res->qcur_mean_bytes / 1e6,
               (double)res->qcur_p50_bytes / 1e6, (double)res->qcur_p99_bytes / 1e6, (double)res->qcur_max_bytes / 1e6,
               res->near_qref, res->qstar_mean_bytes / 1e6, (double)res->qstar_max_bytes / 1e6,
               (double)res->r_min_bps / 1e9, res->r_mean_bps / 1e9, (double)res->r_max_bps / 1e9,
               (double)res->qcur_max_run_bytes / 1e6, (unsigned long long)res->direct_cnps);
    }
    free(mem);
    free(res);
    if (fflush(stdout) || ferror(stdout)) {
        cli_errorf(CMD ": writing the output failed\n");
        return 3;
    }
    return 0;
}
