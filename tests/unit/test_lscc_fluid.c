/*
 * test_lscc_fluid.c -- the fluid model of LSCC's loop (cc/lscc_fluid.h):
 * its first period computed by hand, the ideal-source loop settling at
 * Qref, a source that cannot fill the bottleneck, the DCQCN-source loop
 * oscillating (the finding docs/crossdc.md's Fig. 8 cites), and bad
 * parameters.
 */
#include "test.h"

#include <stdlib.h>

#include "cc/lscc_fluid.h"

#define G  1000000000ull
#define MS 1000000000ull
#define US 1000000ull

struct first { int n; struct lscc_fluid_sample s[3]; };

static void keep_first(void *ctx, const struct lscc_fluid_sample *s)
{
    struct first *f = ctx;
    if (f->n < 3)
        f->s[f->n] = *s;
    f->n++;
}

static int run(const struct lscc_fluid_params *p, struct lscc_fluid_result *res,
               void (*cb)(void *, const struct lscc_fluid_sample *), void *ctx)
{
    char why[200];
    size_t need = lscc_fluid_storage_bytes(p);
    void *mem = need ? malloc(need) : NULL;
    int rc = mem ? lscc_fluid_run(p, mem, res, cb, ctx, why, sizeof why) : -1;
    free(mem);
    return rc;
}

/*
 * Period 1 (ideal sources, defaults): R_local = 200 Gb/s before any
 * feedback, so each of 4 sources sends min(50, 40) = 40 Gb/s: 160 Gb/s into
 * the local egress, whose Q* drains at 200 Gb/s and stays empty.  Nothing
 * reaches the remote queue before D = 1 ms, so Alg. 1 sees Qcur = 0, BR = 0:
 * Ra = (0 − 2 MB)·8/200 µs − 0 = −80 Gb/s, R = BR − Ra = 80 Gb/s, clamped to
 * R_last − ΔR = 199 Gb/s.  Period 2 likewise: 198 Gb/s.
 */
TEST(first_periods_by_hand)
{
    struct lscc_fluid_params p;
    lscc_fluid_params_default(&p);
    p.sources = LSCC_FLUID_IDEAL;
    p.duration_ps = 2 * MS;
    p.measure_ps = 1 * MS;
    struct lscc_fluid_result *res = malloc(sizeof *res);
    struct first f = { 0 };
    CHECK_EQ(run(&p, res, keep_first, &f), 0);
    CHECK_EQ(f.n, 10);                              /* 2 ms / 200 µs */
    CHECK_EQ(f.s[0].t_ps, 200 * US);
    CHECK_EQ(f.s[0].r_bps, 199 * G);
    CHECK_EQ(f.s[0].qcur_bytes, 0);
    CHECK_EQ(f.s[0].qstar_bytes, 0);
    CHECK_EQ(f.s[0].br_bps, 0);
    CHECK_EQ(f.s[0].src_bps, 160 * G);
    CHECK_EQ(f.s[0].r_local_bps, 200 * G);          /* R of period 1 arrives at 1.2 ms */
    CHECK_EQ(f.s[0].ra_sent_bps, -199 * (int64_t)G); /* BR − R pushed */
    CHECK_EQ(f.s[1].r_bps, 198 * G);
    free(res);
}

/* Sources that send exactly R: after the start-up (Qcur peaks at ~317 MB
 * with no PFC to stop it), Alg. 1 holds the queue at Qref and the link full. */
TEST(ideal_sources_settle_at_qref)
{
    struct lscc_fluid_params p;
    lscc_fluid_params_default(&p);
    p.sources = LSCC_FLUID_IDEAL;
    struct lscc_fluid_result *res = malloc(sizeof *res);
    CHECK_EQ(run(&p, res, NULL, NULL), 0);
    CHECK_EQ(res->samples, 750);                    /* 150 ms of 200 µs periods */
    CHECK_NEAR(res->qcur_mean_bytes, 2e6, 2e4);
    CHECK(res->qcur_p99_bytes <= 2020000);
    CHECK(res->qcur_p50_bytes >= 1980000);
    CHECK_NEAR(res->near_qref, 1.0, 1e-9);
    CHECK_NEAR(res->util, 1.0, 0.005);
    for (uint32_t i = 0; i < 4; i++)
        CHECK_NEAR(res->flow_mean_bps[i], 10e9, 0.05e9);
    CHECK(res->jain > 0.9999);
    CHECK(res->qcur_max_run_bytes > 100000000);     /* the start-up overshoot */
    CHECK_EQ(res->direct_cnps, 0);                  /* Q* never reaches Q*ref */
    free(res);
}

/* One 20 Gb/s source under a 40 Gb/s bottleneck: no queue, R rises to BR +
 * Qref/T-worth and is clamped by ΔR; the source keeps its line rate. */
TEST(source_below_bottleneck)
{
    struct lscc_fluid_params p;
    lscc_fluid_params_default(&p);
    p.flows = 1;
    p.nic_bps = 20 * G;
    dcqcn_params_default(&p.dcqcn, p.nic_bps, DCQCN_PROFILE_PAPER);
    struct lscc_fluid_result *res = malloc(sizeof *res);
    for (int kind = 0; kind < 2; kind++) {
        p.sources = kind ? LSCC_FLUID_IDEAL : LSCC_FLUID_DCQCN;
        CHECK_EQ(run(&p, res, NULL, NULL), 0);
        CHECK_NEAR(res->flow_mean_bps[0], 20e9, 1e6);
        CHECK_EQ(res->qcur_max_bytes, 0);
        CHECK_NEAR(res->util, 0.5, 0.001);
        CHECK(res->r_min_bps >= 20 * G);            /* R never asks for less than BR */
    }
    free(res);
}

/*
 * DCQCN sources behind Alg. 2 (every flow "short", so each gets a direct
 * CNP per T while Q* >= Q*ref): the queue does not settle.  This pins the
 * finding of docs/crossdc.md (Fig. 8): with sources that cannot follow R
 * the same Alg. 1 swings between empty and ~5 Qref.  If a change makes it
 * settle, that section must be rewritten.
 */
TEST(dcqcn_sources_oscillate)
{
    struct lscc_fluid_params p;
    lscc_fluid_params_default(&p);
    p.rl.long_flow_bytes = UINT32_MAX;
    struct lscc_fluid_result *res = malloc(sizeof *res);
    CHECK_EQ(run(&p, res, NULL, NULL), 0);
    CHECK(res->qcur_p50_bytes < 500000);            /* empty half the time */
    CHECK(res->qcur_p99_bytes > 8000000);           /* and 4 Qref at the top */
    CHECK(res->near_qref < 0.2);
    CHECK(res->util < 0.9);
    CHECK(res->jain > 0.9999);                      /* identical sources stay equal */
    CHECK(res->direct_cnps > 0);
    free(res);
}

/*
 * Staggered starts (Fig. 9a's shape, shortened): 3 sources 100 ms apart,
 * window = the second half of level 3.  Ideal sources split R three ways;
 * DCQCN sources, every flow short, end up exactly equal too (every tick
 * names all three, so they see the same CNPs), below the link.
 */
struct at { uint64_t t_ps; struct lscc_fluid_sample s; };

static void keep_at(void *ctx, const struct lscc_fluid_sample *s)
{
    struct at *a = ctx;
    if (s->t_ps == a->t_ps)
        a->s = *s;
}

TEST(staggered_starts)
{
    struct lscc_fluid_params p;
    lscc_fluid_params_default(&p);
    p.flows = 3;
    p.stagger_ps = 100 * MS;
    p.duration_ps = 300 * MS;
    p.measure_ps = 250 * MS;
    p.rl.long_flow_bytes = UINT32_MAX;
    struct lscc_fluid_result *res = malloc(sizeof *res);
    p.sources = LSCC_FLUID_IDEAL;
    struct at a = { .t_ps = 99800 * US };           /* level 1: source 0 alone */
    CHECK_EQ(run(&p, res, keep_at, &a), 0);
    for (uint32_t i = 0; i < 3; i++)
        CHECK_NEAR(res->flow_mean_bps[i], 40e9 / 3, 0.1e9);
    CHECK(a.s.r_local_bps > 40 * G);                /* R above its NIC: no queue */
    CHECK_EQ(a.s.src_bps, 40 * G);                  /* so it sends at line rate */
    CHECK_EQ(a.s.qcur_bytes, 0);
    p.sources = LSCC_FLUID_DCQCN;
    CHECK_EQ(run(&p, res, NULL, NULL), 0);
    CHECK(res->jain > 0.999);
    CHECK(res->util < 0.9);
    p.stagger_ps = 150 * MS;                        /* source 2 would start at the end */
    CHECK(lscc_fluid_params_check(&p, NULL, 0) == -1);
    free(res);
}

TEST(bad_params)
{
    struct lscc_fluid_params p;
    char why[200];
    lscc_fluid_params_default(&p);
    CHECK_EQ(lscc_fluid_params_check(&p, why, sizeof why), 0);
    p.flows = 0;
    CHECK_EQ(lscc_fluid_params_check(&p, why, sizeof why), -1);
    CHECK(strstr(why, "flows") != NULL);
    CHECK_EQ(lscc_fluid_storage_bytes(&p), 0);
    lscc_fluid_params_default(&p);
    p.step_ps = 3 * US;                             /* does not divide 200 µs */
    CHECK_EQ(lscc_fluid_params_check(&p, why, sizeof why), -1);
    CHECK(strstr(why, "multiple") != NULL);
    lscc_fluid_params_default(&p);
    p.measure_ps = p.duration_ps;
    CHECK_EQ(lscc_fluid_params_check(&p, why, sizeof why), -1);
    lscc_fluid_params_default(&p);
    p.one_way_ps = 60 * MS;                         /* 300 periods > 256 */
    CHECK_EQ(lscc_fluid_params_check(&p, why, sizeof why), -1);
    lscc_fluid_params_default(&p);
    p.rc.dr_bps = 1500;                             /* not a multiple of ΔF */
    CHECK_EQ(lscc_fluid_params_check(&p, why, sizeof why), -1);
    CHECK(strstr(why, "dF") != NULL);
    lscc_fluid_params_default(&p);
    p.duration_ps = LSCC_FLUID_MAX_PS + 1;
    CHECK_EQ(lscc_fluid_params_check(&p, why, sizeof why), -1);
}

/* What the check blames: the model's parameters and, through it, the
 * loop's (so `stability lscc` can name its options). */
TEST(params_blame)
{
    struct lscc_fluid_params p;
    char why[200];
    unsigned blame = 0;
    lscc_fluid_params_default(&p);
    CHECK_EQ(lscc_fluid_params_blame(&p, &blame, why, sizeof why), 0);
    CHECK_EQ(blame, 0);
    p.step_ps = 3 * US;                             /* does not divide D = 1 ms */
    CHECK_EQ(lscc_fluid_params_blame(&p, &blame, why, sizeof why), -1);
    CHECK_EQ(blame, LSCC_FLUID_BLAME_DELAY | LSCC_FLUID_BLAME_STEP);
    lscc_fluid_params_default(&p);
    p.step_ps = 7 * US;
    p.one_way_ps = 994 * US;                        /* divides D, not T = 200 µs */
    p.rc.n = lscc_n_for(p.one_way_ps, p.rc.period_ps);
    blame = 0;
    CHECK_EQ(lscc_fluid_params_blame(&p, &blame, why, sizeof why), -1);
    CHECK_EQ(blame, LSCC_BLAME_PERIOD | LSCC_FLUID_BLAME_STEP);
    lscc_fluid_params_default(&p);
    p.bottleneck_bps = 0;
    blame = 0;
    CHECK_EQ(lscc_fluid_params_blame(&p, &blame, why, sizeof why), -1);
    CHECK_EQ(blame, LSCC_FLUID_BLAME_BOTTLENECK);   /* not the NIC */
    lscc_fluid_params_default(&p);
    p.rl.q_ref_bytes = 0;                           /* the loop's Alg. 2 */
    blame = 0;
    CHECK_EQ(lscc_fluid_params_blame(&p, &blame, why, sizeof why), -1);
    CHECK_EQ(blame, LSCC_BLAME_QREF_PSEUDO);
    lscc_fluid_params_default(&p);
    p.flows = 3;
    p.stagger_ps = p.duration_ps / 2;               /* the third starts at the end */
    blame = 0;
    CHECK_EQ(lscc_fluid_params_blame(&p, &blame, why, sizeof why), -1);
    CHECK_EQ(blame, LSCC_FLUID_BLAME_START | LSCC_FLUID_BLAME_STAGGER | LSCC_FLUID_BLAME_DURATION);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_lscc_fluid";
    RUN(first_periods_by_hand);
    RUN(ideal_sources_settle_at_qref);
    RUN(source_below_bottleneck);
    RUN(dcqcn_sources_oscillate);
    RUN(staggered_starts);
    RUN(bad_params);
    RUN(params_blame);
    return test_summary();
}
