/*
 * parallel.c -- the MPI engine of a partitioned run (parallel.h).  The only
 * file that calls MPI; without ROCC_MPI (no mpi.h at build time) it keeps
 * the interface and refuses to run over several ranks.
 */
#include "engine/parallel.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ccreg.h"
#include "engine/lsccsel.h"
#include "engine/oqsel.h"
#include "engine/pcapout.h"
#include "engine/xbarsel.h"
#include "net/agent_rocc.h"

int parallel_launched(void)
{
    if (getenv("ROCCSIM_NO_MPI"))       /* set by `roccsim sweep` for its points */
        return 0;
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

#ifndef ROCC_MPI

int parallel_init(int *argc, char ***argv, int *rank, int *size, char *why, size_t why_len)
{
    *rank = 0;
    *size = 1;
    snprintf(why, why_len, "this roccsim was built without MPI (no mpi.h: install libopenmpi-dev and rebuild) "
             "and cannot run one simulation over several ranks");
    return -1;
}
void parallel_finalize(void) {}
int  parallel_setup(struct scenario *sc, int rank, int size, struct cfg_err *err)
{
    return cfg_section_errorf(err, sc->cfg, "parallel", "built without MPI");
}
int  parallel_gather(struct scenario *sc) { return 0; }
int  parallel_check_conservation(struct scenario *sc, char *why, size_t why_len)
{
    return net_check_conservation(&sc->net, why, why_len);
}
int  parallel_bcast_int(int v) { return v; }
void parallel_print_stats(const struct scenario *sc, FILE *f) {}
void parallel_free(struct scenario *sc) {}

#else

#include <mpi.h>
#include <sys/resource.h>
#include <time.h>

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A frame crossing a cut: the sending port (the receiver's rank holds its
 * wire) and the packet as it left, due time included; in runs with INT
 * (HPCC) followed by the frame's INT record (rec_size says which). */
struct rec {
    uint32_t port, has_int;
    uint64_t key;               /* its arrival's event key, the sender's (net.h "Event order") */
    struct packet p;
};

struct par {
    int rank, size;
    uint16_t *node_rank;
    simtime_t lookahead;
    size_t rec_size;            /* bytes of one record */
    char **out;                 /* [size]: this window's records per rank */
    int *n_out, *cap_out;
    int *scnt, *sdsp, *rcnt, *rdsp;     /* bytes, for Alltoallv */
    char *sbuf, *rbuf;
    size_t cap_sbuf, cap_rbuf;
    simtime_t *barriers;        /* [events] times, sorted */
    uint32_t n_barriers, next_barrier;
    /* sampled flow rates of local hosts (host, rate), one sample's worth */
    struct rate_rec { uint64_t host, rate; } *rates;
    size_t n_rates, cap_rates;
    uint64_t windows, records;
    double cpu_run, cpu_sync, wall_all;  /* CPU seconds in windows / in MPI; wall of the loop */
    double *cpu_all;            /* rank 0: [size * 4] of those and each rank's peak RSS, MB */
    uint64_t records_all;
    int failed;
    int cons_bad_local;         /* this rank's conservation audit, before the merge */
    char cons_why[256];                 /* memory ran out in a hook: the run stops */
};

int parallel_init(int *argc, char ***argv, int *rank, int *size, char *why, size_t why_len)
{
    if (MPI_Init(argc, argv) != MPI_SUCCESS) {
        snprintf(why, why_len, "MPI_Init failed");
        return -1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    return 0;
}

void parallel_finalize(void)
{
    MPI_Finalize();
}

int parallel_bcast_int(int v)
{
    MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return v;
}

static void remote_tx(void *ctx, struct net *n, uint32_t port, uint32_t pi, uint64_t key)
{
    struct par *P = ctx;
    int r = n->node_rank[n->ports[n->ports[port].peer].node];
    if (P->n_out[r] == P->cap_out[r]) {
        int cap = P->cap_out[r] ? P->cap_out[r] * 2 : 1024;
        char *nb = realloc(P->out[r], (size_t)cap * P->rec_size);
        if (!nb) {
            n->oom = 1;                 /* the run stops with "out of memory" */
            return;
        }
        P->out[r] = nb;
        P->cap_out[r] = cap;
    }
    char *at = P->out[r] + (size_t)P->n_out[r]++ * P->rec_size;
    const struct packet *p = pkt(&n->pool, pi);
    struct rec x = { port, (p->flags & PF_INT) && n->intr, key, *p };
    memcpy(at, &x, sizeof x);
    if (P->rec_size > sizeof x)
        memcpy(at + sizeof x, &n->intr[pi], sizeof(struct int_rec));
}

static int grow(void **buf, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 1024;
    while (c < need)
        c *= 2;
    void *nb = realloc(*buf, c * elem);
    if (!nb)
        return -1;
    *buf = nb;
    *cap = c;
    return 0;
}

/* Ship this window's records: counts, then the records; inject what came.
 * Records from one rank keep their order, and a port's frames all come
 * from its own rank, so each wire stays FIFO.  -1 on memory. */
static int exchange(struct par *P, struct net *n)
{
    size_t total = 0, rs = P->rec_size;
    for (int r = 0; r < P->size; r++) {
        P->scnt[r] = (int)((size_t)P->n_out[r] * rs);
        P->sdsp[r] = (int)(total * rs);
        total += (size_t)P->n_out[r];
    }
    int bad = grow((void **)&P->sbuf, &P->cap_sbuf, total * rs, 1);
    if (!bad) {
        size_t k = 0;
        for (int r = 0; r < P->size; r++) {
            if (P->n_out[r])
                memcpy(P->sbuf + k * rs, P->out[r], (size_t)P->n_out[r] * rs);
            k += (size_t)P->n_out[r];
            P->n_out[r] = 0;
        }
    }
    MPI_Alltoall(P->scnt, 1, MPI_INT, P->rcnt, 1, MPI_INT, MPI_COMM_WORLD);
    size_t in = 0;
    for (int r = 0; r < P->size; r++) {
        P->rdsp[r] = (int)(in * rs);
        in += (size_t)P->rcnt[r] / rs;
    }
    if (grow((void **)&P->rbuf, &P->cap_rbuf, (in ? in : 1) * rs, 1))
        bad = 1;
    MPI_Alltoallv(P->sbuf, P->scnt, P->sdsp, MPI_BYTE, P->rbuf, P->rcnt, P->rdsp, MPI_BYTE, MPI_COMM_WORLD);
    P->records += in;
    for (size_t i = 0; i < in && !bad; i++) {
        struct rec x;
        memcpy(&x, P->rbuf + i * rs, sizeof x);
        struct int_rec ir;
        if (x.has_int)
            memcpy(&ir, P->rbuf + i * rs + sizeof x, sizeof ir);
        if (net_wire_inject(n, x.port, &x.p, x.has_int ? &ir : NULL, x.key))
            bad = 1;
    }
    return bad ? -1 : 0;
}

/* The window loop (sc->par_run). */
static void par_run(struct scenario *sc)
{
    struct par *P = sc->par;
    struct net *n = &sc->net;
    double w0 = MPI_Wtime(), c0 = cpu_now(), c1;
    for (;;) {
        /* Earliest pending event over all ranks, and whether any failed:
         * one reduction (MIN of {next, ok}). */
        uint64_t loc[2] = { el_peek_time(&n->el), n->oom || P->failed ? 0 : 1 }, glob[2];
        MPI_Allreduce(loc, glob, 2, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
        c1 = cpu_now();
        P->cpu_sync += c1 - c0;
        c0 = c1;
        if (!glob[1]) {
            n->oom = 1;
            if (!sc->event_error[0])
                snprintf(sc->event_error, sizeof sc->event_error, "out of memory (on some rank)");
            return;
        }
        simtime_t t = glob[0];
        if (t > sc->duration)
            break;
        simtime_t end = t + P->lookahead < t ? SIMTIME_NEVER : t + P->lookahead;
        while (P->next_barrier < P->n_barriers && P->barriers[P->next_barrier] <= t)
            P->next_barrier++;
        if (P->next_barrier < P->n_barriers && P->barriers[P->next_barrier] < end)
            end = P->barriers[P->next_barrier];
        simtime_t until = end - 1 < sc->duration ? end - 1 : sc->duration;
        net_run_until(n, until);
        c1 = cpu_now();
        P->cpu_run += c1 - c0;          /* samples' collectives included (they are few) */
        c0 = c1;
        P->windows++;
        if (exchange(P, n))
            P->failed = 1;
    }
    P->cpu_sync += cpu_now() - c0;
    P->wall_all = MPI_Wtime() - w0;
    if (n->el.now < sc->duration)
        n->el.now = sc->duration;
}

/* One sample (sc->par_sample): every rank filled its own monitors, flows
 * and per-link counts (0 elsewhere); rank 0 gets the sums, and the flow
 * rates of every rank's hosts, folded in host order as a sequential run
 * folds them. */
static void reduce_to_root(void *buf, size_t count, MPI_Datatype type, MPI_Op op, int rank)
{
    if (!count)
        return;
    MPI_Reduce(rank == 0 ? MPI_IN_PLACE : buf, buf, (int)count, type, op, 0, MPI_COMM_WORLD);
}
static void reduce_u64(void *buf, size_t count, int rank)
{
    reduce_to_root(buf, count, MPI_UINT64_T, MPI_SUM, rank);
}
static void reduce_u32(void *buf, size_t count, int rank)
{
    reduce_to_root(buf, count, MPI_UINT32_T, MPI_SUM, rank);
}

static int rate_cmp(const void *a, const void *b)
{
    const struct rate_rec *x = a, *y = b;
    return x->host < y->host ? -1 : x->host > y->host;
}

static void par_rates(struct scenario *sc, uint32_t host, uint64_t rate)
{
    struct par *P = sc->par;
    if (grow((void **)&P->rates, &P->cap_rates, P->n_rates + 1, sizeof *P->rates)) {
        P->failed = 1;
        return;
    }
    P->rates[P->n_rates++] = (struct rate_rec){ host, rate };
}

static void par_sample(struct scenario *sc, uint32_t k)
{
    struct par *P = sc->par;
    struct net *n = &sc->net;
    size_t m = sc->n_mon, row = (size_t)k * m;
    if (sc->flow_series)
        reduce_u64(sc->s_flow_bytes + (size_t)k * n->n_flows, n->n_flows, P->rank);
    reduce_u64(sc->s_queue + row, m, P->rank);
    reduce_u64(sc->s_tx + row, m, P->rank);
    reduce_u32(sc->s_fair + row, m, P->rank);
    reduce_u32(sc->s_md + row, m, P->rank);
    reduce_u32(sc->s_pfc + row, m, P->rank);
    reduce_u32(sc->lf_count, n->n_ports, P->rank);
    /* the rates: counts, then the records, to rank 0 */
    int cnt = (int)(P->n_rates * sizeof *P->rates), *cnts = NULL, *dsp = NULL;
    if (P->rank == 0) {
        cnts = calloc((size_t)P->size, sizeof *cnts);
        dsp = calloc((size_t)P->size, sizeof *dsp);
    }
    MPI_Gather(&cnt, 1, MPI_INT, cnts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    struct rate_rec *all = NULL;
    size_t n_all = 0;
    if (P->rank == 0) {
        size_t bytes = 0;
        for (int r = 0; r < P->size; r++) {
            dsp[r] = (int)bytes;
            bytes += (size_t)cnts[r];
        }
        n_all = bytes / sizeof *all;
        all = malloc(bytes ? bytes : 1);
        if (!all)
            P->failed = 1;
    }
    MPI_Gatherv(P->rates, cnt, MPI_BYTE, all, cnts, dsp, MPI_BYTE, 0, MPI_COMM_WORLD);
    P->n_rates = 0;
    if (P->rank == 0 && all) {
        /* A host's flows come from one rank in its order: a stable sort by
         * host (mergesort-like: qsort is not stable, so sort by (host,
         * position) through the position kept in the record's order). */
        for (size_t i = 0; i < n_all; i++)
            all[i].host = all[i].host << 32 | i;
        qsort(all, n_all, sizeof *all, rate_cmp);
        for (size_t i = 0; i < n_all; i++) {
            double r = (double)all[i].rate, d = r - sc->rs_mean;     /* Welford, as linkflows.c */
            sc->rs_n++;
            sc->rs_mean += d / (double)sc->rs_n;
            sc->rs_m2 += d * (r - sc->rs_mean);
        }
    }
    free(all);
    free(cnts);
    free(dsp);
}

/* sc->par_allgather (scenario.h): counts, whether every rank could hold
 * the whole, then the bytes.  Called inside a window (by a hook every rank
 * runs at the same simulated time), when exchange's count arrays are free. */
static void *par_allgather(struct scenario *sc, const void *buf, size_t bytes, size_t *all_bytes)
{
    struct par *P = sc->par;
    int cnt = (int)bytes;
    MPI_Allgather(&cnt, 1, MPI_INT, P->rcnt, 1, MPI_INT, MPI_COMM_WORLD);
    size_t tot = 0;
    for (int r = 0; r < P->size; r++) {
        P->rdsp[r] = (int)tot;
        tot += (size_t)P->rcnt[r];
    }
    char *all = tot <= INT_MAX ? malloc(tot ? tot : 1) : NULL;
    int ok = all != NULL, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok) {
        free(all);
        P->failed = 1;
        return NULL;
    }
    MPI_Allgatherv(buf, cnt, MPI_BYTE, all, P->rcnt, P->rdsp, MPI_BYTE, MPI_COMM_WORLD);
    *all_bytes = tot;
    return all;
}

int parallel_setup(struct scenario *sc, int rank, int size, struct cfg_err *err)
{
    struct net *n = &sc->net;
    if (parallel_refuse(sc, (uint32_t)size, err))
        return -1;
    struct par *P = calloc(1, sizeof *P);
    if (!P)
        return cfg_section_errorf(err, sc->cfg, "parallel", "out of memory");
    sc->par = P;
    P->rank = rank;
    P->size = size;
    P->rec_size = sizeof(struct rec) + (n->intr ? sizeof(struct int_rec) : 0);
    P->node_rank = calloc(n->n_nodes, sizeof *P->node_rank);
    P->out = calloc((size_t)size, sizeof *P->out);
    P->n_out = calloc((size_t)size, sizeof *P->n_out);
    P->cap_out = calloc((size_t)size, sizeof *P->cap_out);
    P->scnt = calloc((size_t)size * 4, sizeof *P->scnt);
    P->barriers = calloc(sc->n_events ? sc->n_events : 1, sizeof *P->barriers);
    if (!P->node_rank || !P->out || !P->n_out || !P->cap_out || !P->scnt || !P->barriers)
        return cfg_section_errorf(err, sc->cfg, "parallel", "out of memory");
    P->sdsp = P->scnt + size;
    P->rcnt = P->sdsp + size;
    P->rdsp = P->rcnt + size;
    if (parallel_partition(sc, (uint32_t)size, P->node_rank, err))
        return -1;
    P->lookahead = SIMTIME_NEVER;
    for (uint32_t l = 0; l < n->n_links; l++)
        if (P->node_rank[n->links[l].a] != P->node_rank[n->links[l].b] && n->links[l].delay < P->lookahead)
            P->lookahead = n->links[l].delay;
    if (P->lookahead == 0)
        return cfg_section_errorf(err, sc->cfg, "parallel", "a link with no propagation delay is cut: the ranks "
                                  "would have no lookahead (give it a delay, or use fewer ranks)");
    /* [events] times: each starts a window (in time order; events.c keeps
     * them sorted? not assumed: sorted here) */
    for (uint32_t i = 0; i < sc->n_events; i++) {
        simtime_t t = sc->events[i].t;
        uint32_t j = P->n_barriers++;
        while (j > 0 && P->barriers[j - 1] > t) {
            P->barriers[j] = P->barriers[j - 1];
            j--;
        }
        P->barriers[j] = t;
    }
    if (parallel_flows_stop(n)) {
        if (!(n->rx_adv = calloc(n->n_flows, sizeof *n->rx_adv)))
            return cfg_section_errorf(err, sc->cfg, "parallel", "out of memory");
        n->n_rx_adv = n->n_flows;
    }
    n->node_rank = P->node_rank;
    n->my_rank = (uint32_t)rank;
    n->remote_tx = remote_tx;
    n->remote_ctx = P;
    for (uint32_t p = 0; p < n->n_ports; p++)
        n->ports[p].remote = P->node_rank[n->ports[p].node] != P->node_rank[n->ports[n->ports[p].peer].node];
    if (net_keep_local_events(n))
        return cfg_section_errorf(err, sc->cfg, "parallel", "out of memory");
    sc->par_run = par_run;
    sc->par_sample = par_sample;
    sc->par_rates = par_rates;
    sc->par_allgather = par_allgather;
    if (rank != 0)
        sc->progress = 0;
    return 0;
}

/* ---- the merge into rank 0 ---- */

/* Receiver-owned fields of a flow (host.c host_receive, rx_unordered). */
struct flow_rx {
    uint64_t rcv_nxt, rx_wire_bytes, nack_for, rx_high, out_of_order;
    simtime_t np_last_cnp, finish_ps, last_nack, rx_adv;
    uint32_t since_ack;
    uint8_t ece, rx_done, pad[2];
};

/* Gather `bytes` from every rank to rank 0 (NULL elsewhere). */
static void *gather_bytes(struct par *P, const void *buf, size_t bytes, int **cnt_out, int **dsp_out)
{
    int cnt = (int)bytes, *cnts = NULL, *dsp = NULL;
    char *all = NULL;
    if (P->rank == 0) {
        cnts = calloc((size_t)P->size, sizeof *cnts);
        dsp = calloc((size_t)P->size, sizeof *dsp);
    }
    MPI_Gather(&cnt, 1, MPI_INT, cnts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (P->rank == 0) {
        size_t tot = 0;
        for (int r = 0; r < P->size; r++) {
            dsp[r] = (int)tot;
            tot += (size_t)cnts[r];
        }
        all = malloc(tot ? tot : 1);
    }
    MPI_Gatherv(buf, cnt, MPI_BYTE, all, cnts, dsp, MPI_BYTE, 0, MPI_COMM_WORLD);
    *cnt_out = cnts;
    *dsp_out = dsp;
    return all;
}

static int gather_flows(struct scenario *sc)
{
    struct par *P = sc->par;
    struct net *n = &sc->net;
    uint16_t me = (uint16_t)P->rank;
    size_t ns = 0, nr = 0;
    for (uint32_t f = 0; f < n->n_flows; f++) {
        ns += P->node_rank[n->hosts[n->flows[f].src].node] == me;
        nr += P->node_rank[n->hosts[n->flows[f].dst].node] == me;
    }
    struct flow *sf = malloc((ns ? ns : 1) * sizeof *sf);
    struct flow_rx *rf = calloc(nr ? nr : 1, sizeof *rf);
    if (!sf || !rf) {
        free(sf);
        free(rf);
        return -1;
    }
    size_t i = 0, j = 0;
    for (uint32_t fi = 0; fi < n->n_flows; fi++) {
        const struct flow *f = &n->flows[fi];
        if (P->node_rank[n->hosts[f->src].node] == me)
            memcpy(&sf[i++], f, sizeof *f);
        if (P->node_rank[n->hosts[f->dst].node] == me)
            rf[j++] = (struct flow_rx){ f->rcv_nxt, f->rx_wire_bytes, f->nack_for, f->rx_high, f->out_of_order,
                                        f->np_last_cnp, f->finish_ps, f->last_nack,
                                        fi < n->n_rx_adv ? n->rx_adv[fi] : 0, f->since_ack, f->ece,
                                        (f->flags & FL_RX_DONE) != 0, { 0, 0 } };
    }
    int *sc_cnt, *sc_dsp, *rc_cnt, *rc_dsp;
    char *sall = gather_bytes(P, sf, ns * sizeof *sf, &sc_cnt, &sc_dsp);
    char *rall = gather_bytes(P, rf, nr * sizeof *rf, &rc_cnt, &rc_dsp);
    free(sf);
    free(rf);
    int bad = 0;
    if (P->rank == 0) {
        if (!sall || !rall || !sc_cnt || !rc_cnt) {
            bad = 1;
        } else {
            size_t *si = calloc((size_t)P->size, sizeof *si), *ri = calloc((size_t)P->size, sizeof *ri);
            if (!si || !ri) {
                bad = 1;
            } else {
                for (uint32_t fi = 0; fi < n->n_flows; fi++) {
                    struct flow *f = &n->flows[fi];
                    int s = P->node_rank[n->hosts[f->src].node], d = P->node_rank[n->hosts[f->dst].node];
                    const struct flow *src = (const struct flow *)(sall + sc_dsp[s]) + si[s]++;
                    const struct flow_rx *rx = (const struct flow_rx *)(rall + rc_dsp[d]) + ri[d]++;
                    if (s != 0) {       /* the sender's state, keeping this process's pointers */
                        const struct transport_ops *tp = f->tp;
                        const void *prm = f->cc_prm;
                        memcpy(f, src, sizeof *f);
                        f->tp = tp;
                        f->cc_prm = prm;
                    }
                    f->rcv_nxt = rx->rcv_nxt;
                    f->rx_wire_bytes = rx->rx_wire_bytes;
                    f->nack_for = rx->nack_for;
                    f->rx_high = rx->rx_high;
                    f->out_of_order = rx->out_of_order;
                    f->np_last_cnp = rx->np_last_cnp;
                    f->finish_ps = rx->finish_ps;
                    f->last_nack = rx->last_nack;
                    f->since_ack = rx->since_ack;
                    f->ece = rx->ece;
                    f->flags = (uint8_t)((f->flags & ~FL_RX_DONE) | (rx->rx_done ? FL_RX_DONE : 0));
                    /* flow_stop at stop_ps lowered size to the bytes sent and,
                     * if they had all arrived, finished the flow there; else its
                     * last byte finished it on arrival (rcv_nxt never passes
                     * what was sent, so that was its last advance).  A receiver
                     * in another process never saw the lower size: finish the
                     * flow here as the sequential run did. */
                    if ((f->flags & FL_STOPPED) && !(f->flags & FL_RX_DONE) && f->rcv_nxt >= f->size) {
                        f->flags |= FL_RX_DONE;
                        f->finish_ps = rx->rx_adv > f->stop_ps ? rx->rx_adv : f->stop_ps;
                    }
                }
            }
            free(si);
            free(ri);
        }
    }
    free(sall);
    free(rall);
    free(sc_cnt);
    free(sc_dsp);
    free(rc_cnt);
    free(rc_dsp);
    return bad ? -1 : 0;
}

/* RoCC CPs on other ranks' ports: what the outputs read. */
struct cp_rec {
    struct rocc_cp cp;
    struct rocc_flowtable ft;   /* its counters; the pointers are this rank's */
    uint64_t cnps_sent, periods;
    double f_sum;
    uint32_t last_f, pad;
};

static int gather_agents(struct scenario *sc)
{
    struct par *P = sc->par;
    struct net *n = &sc->net;
    size_t cnt = 0;
    for (uint32_t a = 0; a < n->n_agents; a++)
        cnt += n->agents[a].ops == &rocc_agent_ops && P->node_rank[n->ports[n->agents[a].port].node] == P->rank;
    struct cp_rec *buf = calloc(cnt ? cnt : 1, sizeof *buf);
    if (!buf)
        return -1;
    size_t i = 0;
    for (uint32_t a = 0; a < n->n_agents; a++)
        if (n->agents[a].ops == &rocc_agent_ops && P->node_rank[n->ports[n->agents[a].port].node] == P->rank) {
            const struct rocc_agent *ra = n->agents[a].state;
            buf[i++] = (struct cp_rec){ ra->cp, ra->ft, ra->cnps_sent, ra->periods, ra->f_sum, ra->last_f, 0 };
        }
    int *cnts, *dsp;
    char *all = gather_bytes(P, buf, cnt * sizeof *buf, &cnts, &dsp);
    free(buf);
    int bad = 0;
    if (P->rank == 0) {
        size_t *k = calloc((size_t)P->size, sizeof *k);
        if (!all || !k) {
            bad = 1;
        } else {
            for (uint32_t a = 0; a < n->n_agents; a++) {
                if (n->agents[a].ops != &rocc_agent_ops)
                    continue;
                int r = P->node_rank[n->ports[n->agents[a].port].node];
                const struct cp_rec *x = (const struct cp_rec *)(all + dsp[r]) + k[r]++;
                if (r == 0)
                    continue;
                struct rocc_agent *ra = n->agents[a].state;
                ra->cp = x->cp;
                struct rocc_entry_ptrs { struct rocc_ft_entry *e; uint64_t *sh; } keep = { ra->ft.e, ra->ft.sh };
                ra->ft = x->ft;
                ra->ft.e = keep.e;
                ra->ft.sh = keep.sh;
                ra->cnps_sent = x->cnps_sent;
                ra->periods = x->periods;
                ra->f_sum = x->f_sum;
                ra->last_f = x->last_f;
            }
        }
        free(k);
    }
    free(all);
    free(cnts);
    free(dsp);
    return bad ? -1 : 0;
}

/* scenario.fc_merge's reduce: into rank 0, in place. */
static void fc_reduce(uint64_t *v, size_t k, int max)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    reduce_to_root(v, k, MPI_UINT64_T, max ? MPI_MAX : MPI_SUM, rank);
}

/* [output] pcap: each point's file, captured by its node's rank, to rank
 * 0 (pcapout.h), point by point in 64 KiB messages -- bounded memory
 * whatever the capture's size -- ended by an empty one, then the point's
 * counters (after the content: a failed read shows in them). */
static void gather_pcap(struct scenario *sc)
{
    struct par *P = sc->par;
    uint32_t np = pcapout_points(sc);
    if (!np)
        return;
    uint64_t mm = pcapout_mismatch(sc);
    reduce_u64(&mm, 1, P->rank);
    if (P->rank == 0)
        pcapout_set_mismatch(sc, mm);
    enum { TAG_PCAP = 17, CHUNK = 1 << 16 };
    uint8_t buf[CHUNK];
    uint64_t v[PCAPOUT_NSTAT];
    for (uint32_t k = 0; k < np; k++) {
        int r = pcapout_point_rank(sc, k);
        if (r == 0 || (P->rank != r && P->rank != 0))
            continue;
        if (P->rank == r) {
            size_t m;
            do {
                m = pcapout_export(sc, k, buf, sizeof buf);
                MPI_Send(buf, (int)m, MPI_BYTE, 0, TAG_PCAP, MPI_COMM_WORLD);
            } while (m);
            pcapout_export_stats(sc, k, v);
            MPI_Send(v, PCAPOUT_NSTAT, MPI_UINT64_T, 0, TAG_PCAP, MPI_COMM_WORLD);
            continue;
        }
        pcapout_import_begin(sc, k);
        for (;;) {
            MPI_Status st;
            int got = 0;
            MPI_Recv(buf, (int)sizeof buf, MPI_BYTE, r, TAG_PCAP, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_BYTE, &got);
            if (got <= 0)
                break;
            pcapout_import_write(sc, k, buf, (size_t)got);
        }
        MPI_Recv(v, PCAPOUT_NSTAT, MPI_UINT64_T, r, TAG_PCAP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        pcapout_import_end(sc, k, v);
    }
}

/* The RoCC RP trace ([output] rocc_trace): each rank recorded its own
 * sources' events, in its pop order, (time, key) (net.h "Event order");
 * the sequential run recorded all of them in that order, and one event's
 * records all come from one rank (its owner).  Rank 0 merges the ranks'
 * lists by (time, key), ties (none: keys are unique) to the lower rank,
 * then keeps the first RP_TRACE_MAX as the sequential run would have:
 * each rank kept a prefix of its own records of at least its share of
 * them, so the merge's prefix is the sequential run's. */
static int gather_trace(struct scenario *sc)
{
    struct par *P = sc->par;
    struct net *n = &sc->net;
    if (!sc->rocc_trace)
        return 0;
    uint64_t lost = n->rp_trace_lost, recs = n->n_rp_trace;
    reduce_u64(&lost, 1, P->rank);
    MPI_Allreduce(MPI_IN_PLACE, &recs, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (recs > INT_MAX / sizeof *n->rp_trace)
        return -1;                      /* MPI counts bytes in an int: over ~44 million records in all */
    int *cnts, *dsp;
    char *all = gather_bytes(P, n->rp_trace, (size_t)n->n_rp_trace * sizeof *n->rp_trace, &cnts, &dsp);
    if (P->rank != 0)
        return 0;
    size_t tot = 0;
    size_t *at = calloc((size_t)P->size, sizeof *at), *end = calloc((size_t)P->size, sizeof *end);
    struct rp_trace_rec *out = NULL;
    int bad = !all || !cnts || !at || !end;
    if (!bad) {
        for (int r = 0; r < P->size; r++) {
            at[r] = (size_t)dsp[r] / sizeof *out;
            end[r] = at[r] + (size_t)cnts[r] / sizeof *out;
            tot += (size_t)cnts[r] / sizeof *out;
        }
        out = malloc((tot ? tot : 1) * sizeof *out);
        bad = !out;
    }
    if (!bad) {
        const struct rp_trace_rec *in = (const struct rp_trace_rec *)all;
        for (size_t i = 0; i < tot; i++) {
            int best = -1;
            for (int r = 0; r < P->size; r++)
                if (at[r] < end[r] && (best < 0 || in[at[r]].t < in[at[best]].t ||
                                       (in[at[r]].t == in[at[best]].t && in[at[r]].key < in[at[best]].key)))
                    best = r;
            out[i] = in[at[best]++];
        }
        if (tot > RP_TRACE_MAX) {
            lost += tot - RP_TRACE_MAX;
            tot = RP_TRACE_MAX;
        }
        free(n->rp_trace);
        n->rp_trace = out;
        n->n_rp_trace = n->cap_rp_trace = (uint32_t)tot;
        n->rp_trace_lost = lost;
    }
    free(at);
    free(end);
    free(all);
    free(cnts);
    free(dsp);
    return bad ? -1 : 0;
}

int parallel_gather(struct scenario *sc)
{
    struct par *P = sc->par;
    struct net *n = &sc->net;
    int bad = 0;
    /* This rank's own audit first: the merge changes rank 0's totals. */
    P->cons_bad_local = net_check_conservation(n, P->cons_why, sizeof P->cons_why) != 0;
    /* Ports: every counter is additive over ranks (a port's own rank has
     * all of them but the drops of a wire another rank holds), and
     * max_queue_bytes is 0 except on the owner: sums are exact. */
    _Static_assert(sizeof(struct port_stats) % sizeof(uint64_t) == 0, "port_stats is made of uint64_t");
    size_t pw = sizeof(struct port_stats) / sizeof(uint64_t) + 1;
    uint64_t *ps = calloc((size_t)n->n_ports * pw + 1, sizeof *ps);
    if (!ps)
        return -1;
    for (uint32_t p = 0; p < n->n_ports; p++) {
        memcpy(ps + p * pw, &n->ports[p].st, sizeof(struct port_stats));
        ps[p * pw + pw - 1] = n->ports[p].data_bytes;
    }
    reduce_u64(ps, (size_t)n->n_ports * pw, P->rank);
    if (P->rank == 0)
        for (uint32_t p = 0; p < n->n_ports; p++) {
            memcpy(&n->ports[p].st, ps + p * pw, sizeof(struct port_stats));
            n->ports[p].data_bytes = ps[p * pw + pw - 1];
        }
    free(ps);
    /* Switch buffer occupancy: only the owner has any. */
    uint64_t *sw = calloc((size_t)n->n_sws * 5 + 1, sizeof *sw);
    if (!sw)
        return -1;
    for (uint32_t s = 0; s < n->n_sws; s++) {
        const struct sw *x = &n->sws[s];
        uint64_t v[5] = { x->shared_used, x->hdrm_used, x->reserve_used, x->ctrl_used, x->peak_used };
        memcpy(sw + s * 5, v, sizeof v);
    }
    reduce_u64(sw, (size_t)n->n_sws * 5, P->rank);
    if (P->rank == 0)
        for (uint32_t s = 0; s < n->n_sws; s++) {
            struct sw *x = &n->sws[s];
            x->shared_used = sw[s * 5];
            x->hdrm_used = sw[s * 5 + 1];
            x->reserve_used = sw[s * 5 + 2];
            x->ctrl_used = sw[s * 5 + 3];
            x->peak_used = sw[s * 5 + 4];
        }
    free(sw);
    /* Global counters.  EV_FLOW_START and EV_HOOK run on every rank: rank
     * 0's count is the run's. */
    uint64_t g[EV_NKINDS + 4 * PKT_NTYPES + 16];
    size_t k = 0;
    uint64_t hook = n->ev_count[EV_HOOK], fstart = n->ev_count[EV_FLOW_START];
    for (int i = 0; i < EV_NKINDS; i++)
        g[k++] = n->ev_count[i];
    for (int t = 0; t < PKT_NTYPES; t++) {
        g[k++] = n->created[t];
        g[k++] = n->consumed[t];
        g[k++] = n->dropped[t];
        g[k++] = 0;
    }
    uint64_t live = n->pool.live;       /* frames each rank still holds */
    uint64_t *scal[] = { &live, &n->hops, &n->delivered_bytes, &n->failure_drops, &n->fc_drops, &n->qlimit_drops,
                         &n->cnp_filtered_sw, &n->cnp_filtered_host, &n->flows_done, &n->out_of_order,
                         &n->fctl_bad, &n->rocc_host.n_rate, &n->rocc_host.n_full, &n->rocc_host.n_reg,
                         &n->rocc_host.n_miss, &n->rocc_host.n_bad };
    size_t ns = sizeof scal / sizeof *scal;
    for (size_t i = 0; i < ns; i++)
        g[k++] = *scal[i];
    reduce_u64(g, k, P->rank);
    if (P->rank == 0) {
        k = 0;
        uint64_t fired = 0;
        for (int i = 0; i < EV_NKINDS; i++)
            n->ev_count[i] = g[k++];
        n->ev_count[EV_HOOK] = hook;
        n->ev_count[EV_FLOW_START] = fstart;
        for (int i = 0; i < EV_NKINDS; i++)
            fired += n->ev_count[i];
        n->el.n_fired = fired;
        for (int t = 0; t < PKT_NTYPES; t++) {
            n->created[t] = g[k++];
            n->consumed[t] = g[k++];
            n->dropped[t] = g[k++];
            k++;
        }
        for (size_t i = 0; i < ns; i++)
            *scal[i] = g[k++];
        n->pool.live = (uint32_t)live;  /* in flight at the end, all ranks (outputs only) */
    }
    if (sc->fc_merge)
        sc->fc_merge(sc, fc_reduce);
    oqsel_merge(sc, fc_reduce);
    xbarsel_merge(sc, fc_reduce);
    lsccsel_merge(sc, fc_reduce);
    if (gather_flows(sc) || gather_agents(sc) || gather_trace(sc))
        bad = 1;
    /* Transports' own state (ccreg.h merge), after the flows' fields. */
    for (int a = 0; a < CC_NALGO; a++)
        if (cc_registry[a]->merge)
            cc_registry[a]->merge(sc, fc_reduce);
    gather_pcap(sc);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double mine[4] = { P->cpu_run, P->cpu_sync, P->wall_all, (double)ru.ru_maxrss / 1024.0 };
    if (P->rank == 0 && !(P->cpu_all = calloc((size_t)P->size * 4, sizeof *P->cpu_all)))
        MPI_Abort(MPI_COMM_WORLD, 3);   /* a few bytes: nothing sensible is left to do */
    MPI_Gather(mine, 4, MPI_DOUBLE, P->cpu_all, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Reduce(&P->records, &P->records_all, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any ? -1 : 0;
}

int parallel_check_conservation(struct scenario *sc, char *why, size_t why_len)
{
    struct par *P = sc->par;
    struct net *n = &sc->net;
    /* Each rank balances with what crossed its cuts (net.c), before the
     * merge changed rank 0's totals: gather_bytes of each rank's verdict. */
    char mine[300] = "";
    int bad = P->cons_bad_local;
    if (bad)
        snprintf(mine, sizeof mine, "rank %d: %s", P->rank, P->cons_why);
    /* nothing in transit: what left over cuts arrived */
    uint64_t io[2 * PKT_NTYPES], tot[2 * PKT_NTYPES];
    for (int t = 0; t < PKT_NTYPES; t++) {
        io[t] = n->remote_out[t];
        io[PKT_NTYPES + t] = n->remote_in[t];
    }
    MPI_Allreduce(io, tot, 2 * PKT_NTYPES, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    int all_bad = 0;
    MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int *cnts, *dsp;
    char *all = gather_bytes(P, mine, bad ? strlen(mine) + 1 : 0, &cnts, &dsp);
    int rc = 0;
    if (P->rank == 0) {
        if (all_bad && all) {
            for (int r = 0; r < P->size; r++)
                if (cnts[r]) {
                    snprintf(why, why_len, "%s", all + dsp[r]);
                    break;
                }
            rc = -1;
        }
        for (int t = 0; t < PKT_NTYPES && !rc; t++)
            if (tot[t] != tot[PKT_NTYPES + t]) {
                snprintf(why, why_len, "packet conservation violated: %llu frames of type %d left over cut links, "
                         "%llu arrived", (unsigned long long)tot[t], t, (unsigned long long)tot[PKT_NTYPES + t]);
                rc = -1;
            }
    }
    free(all);
    free(cnts);
    free(dsp);
    return rc;
}

void parallel_print_stats(const struct scenario *sc, FILE *f)
{
    const struct par *P = sc->par;
    if (!P || !P->cpu_all)
        return;
    fprintf(f, "parallel: %d ranks, lookahead %.3f us, %llu windows, %llu frames crossed cuts in all\n", P->size,
            (double)P->lookahead / PS_PER_US, (unsigned long long)P->windows, (unsigned long long)P->records_all);
    for (int r = 0; r < P->size; r++)
        fprintf(f, "parallel: rank %d: %.2f s CPU in windows, %.2f s CPU in synchronisation, %.2f s wall, "
                "%.1f MB peak RSS\n", r, P->cpu_all[4 * r], P->cpu_all[4 * r + 1], P->cpu_all[4 * r + 2],
                P->cpu_all[4 * r + 3]);
}

void parallel_free(struct scenario *sc)
{
    struct par *P = sc->par;
    if (!P)
        return;
    for (int r = 0; P->out && r < P->size; r++)
        free(P->out[r]);
    free(P->out);
    free(P->n_out);
    free(P->cap_out);
    free(P->scnt);
    free(P->sbuf);
    free(P->rbuf);
    free(P->barriers);
    free(P->rates);
    free(P->cpu_all);
    free(P->node_rank);
    free(sc->net.rx_adv);
    sc->net.rx_adv = NULL;
    sc->net.n_rx_adv = 0;
    free(P);
    sc->par = NULL;
    sc->net.node_rank = NULL;
    sc->net.remote_tx = NULL;
}

#endif
