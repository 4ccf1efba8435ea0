/*
 * sw_oq.c -- OpenQueue on rocc-switch's egress (issue 13, docs/dataplane.md
 * "OpenQueue").  --openqueue PORT=FILE compiles FILE with the compiler the
 * simulator uses (src/openqueue, unchanged) and runs its runtime in place of
 * the port's data FIFO:
 *
 *   enqueue   each data frame routed to the port is classified (sw_oqclass.c:
 *             value, processing, flow from the command line; queue by the
 *             policy port's queueSelect) and given to oq_enqueue at the
 *             switch's time; frames the policy drops -- the arrival or ones
 *             pushed out -- come back through the drop hook and are freed.
 *   transmit  oq_service is one processing cycle of the policy's port.  A
 *             packet that finishes its cycles is "staged" (one frame, the
 *             transmit stage) until the token bucket of --egress-rate has
 *             credit for it, then sent; a mark action sets ECN CE on an
 *             ECT frame.
 *   time      --oq-cycle-ns NS > 0: the port's processor runs one cycle every
 *             NS ns of its time, banked like the token bucket (the time the
 *             process was descheduled counts, up to STALL_MAX_US) and cut
 *             back to OQ_CYCLE_BURST cycles once the port is idle; a packet
 *             needing k cycles holds the processor k * NS ns.  0 (default):
 *             processing takes no time (every cycle of a packet runs when it
 *             is served; at most OQ_CALLS_MAX cycles per burst).
 *
 * Nothing is allocated per frame: the runtime's slots are sized when it is
 * built (oq_rt_new), the mbuf rides in oq_pkt.handle.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sw.h"

#define OQ_CYCLE_BURST 32     /* cycles an idle port keeps banked (a receive burst's worth at 1 cycle each) */
#define OQ_CALLS_MAX   4096   /* oq_service calls per transmit burst: bounds a round's work whatever the processing */
#define OQ_TIME_EVERY  64     /* --oq-timing: one enqueue / service call in 64 is timed */

struct oqport {
    uint16_t port;
    const char *path;
    struct oq_policy *pol;
    struct oq_rt *rt;
    struct egress *e;
    struct rte_mbuf *staged;      /* served by the policy, waiting for link credit */
    struct oq_pkt staged_p;
    uint64_t arrival;             /* handle of the frame being admitted (drop hook: refused vs pushed out) */
    double cycles;                /* banked processing cycles (--oq-cycle-ns > 0) */
    uint64_t last_tsc;
    uint64_t arrivals, refused, pushed_out, calls, busy, sent, marked_ce, mark_notect, notified;
    double value_in, value_tx;
    /* --oq-timing */
    uint64_t n_enq, n_enq_timed, cyc_enq, n_srv, n_srv_timed, cyc_srv, outliers;
};

bool oq_port_empty(const struct egress *e)
{
    return !e->oq->staged && oq_rt_packets(e->oq->rt) == 0;
}

static void on_drop(void *ctx, const struct oq_pkt *p, enum oq_drop_reason why)
{
    struct oqport *o = ctx;
    (void)why;
    if (p->handle == o->arrival) o->refused++;
    else {
        o->pushed_out++;
        o->e->qbytes -= p->size;
    }
    o->e->drop_qfull++;
    rte_pktmbuf_free((struct rte_mbuf *)(uintptr_t)p->handle);
}

static void on_notify(void *ctx, enum oq_entity kind, uint32_t idx, const struct oq_pkt *pkt)
{
    struct oqport *o = ctx;
    (void)kind; (void)idx; (void)pkt;
    o->notified++;
}

int oq_setup(struct sw *s)
{
    /* --oq-seed also seeds the classifier's uniform draws. */
    s->oqcls.rng = (s->oq_seed + 1) * 0x9E3779B97F4A7C15ull;
    if (!s->oqcls.rng) s->oqcls.rng = 0x9E3779B97F4A7C15ull;
    for (uint16_t p = 0; p < s->nports; p++) {
        char err[512], desc[512];
        struct oqport *o;
        if (!s->oq_file[p]) continue;
        o = calloc(1, sizeof *o);
        if (!o) return -1;
        s->eg[p].oq = o;
        o->port = p;
        o->path = s->oq_file[p];
        o->e = &s->eg[p];
        o->pol = oq_compile_file(o->path, err, sizeof err);
        if (!o->pol) { fprintf(stderr, "%s\n", err); return -2; }
        if (oq_nports(o->pol) != 1) {
            fprintf(stderr, "%s: --openqueue %u: the policy declares %u ports; rocc-switch runs a policy of one port "
                    "on one egress (give each port its own file)\n", o->path, p, oq_nports(o->pol));
            return -2;
        }
        o->rt = oq_rt_new(o->pol, &(struct oq_rt_params){.seed = s->oq_seed + p},
                          &(struct oq_sink){.ctx = o, .drop = on_drop, .notify = on_notify});
        if (!o->rt) { fprintf(stderr, "--openqueue %u: out of memory for %s\n", p, o->path); return -1; }
        dpoq_describe(&s->oqcls, desc, sizeof desc);
        printf("openqueue port=%u policy=%s oq_port=%s queues=%u cycle_ns=%" PRIu64 " %s\n", p, o->path,
               oq_port_name(o->pol, 0), oq_nqueues(o->pol), s->oq_cycle_ns, desc);
    }
    return 0;
}

void oq_free(struct sw *s)
{
    if (!s->eg) return;
    for (uint16_t p = 0; p < s->nports; p++) {
        struct oqport *o = s->eg[p].oq;
        struct oq_pkt out;
        if (!o) continue;
        if (o->staged) rte_pktmbuf_free(o->staged);
        /* Frames still queued go back to the pool: serve them out (the
         * counters were printed before). */
        if (o->rt)
            for (uint64_t k = 0; oq_rt_packets(o->rt) && k < UINT64_MAX; k++) {
                int r = oq_service(o->rt, 0, UINT64_MAX, &out);
                if (r == OQ_SENT) rte_pktmbuf_free((struct rte_mbuf *)(uintptr_t)out.handle);
                else if (r == OQ_EMPTY) break;
            }
        oq_rt_free(o->rt);
        oq_policy_free(o->pol);
        free(o);
        s->eg[p].oq = NULL;
    }
}

void oq_enqueue_frame(struct sw *s, struct egress *e, struct rte_mbuf *m, const struct pkt_info *pi)
{
    struct oqport *o = e->oq;
    struct oq_pkt p;
    uint32_t len = rte_pktmbuf_pkt_len(m);
    bool timed = s->oq_timing && o->n_enq++ % OQ_TIME_EVERY == 0;
    uint64_t t1 = timed ? rte_rdtsc() : 0;

    dpoq_classify(&s->oqcls, rte_pktmbuf_mtod(m, const uint8_t *), len, pi, &p);
    p.handle = (uintptr_t)m;
    o->arrival = p.handle;
    o->arrivals++;
    o->value_in += p.value;
    oq_classify(o->rt, 0, &p);
    if (oq_enqueue(o->rt, &p, now_ps(s)) == OQ_ADMITTED) {
        e->qbytes += len;
        if (e->qbytes > e->qbytes_max) e->qbytes_max = e->qbytes;
        if (e->qbytes > e->qbytes_rep_max) e->qbytes_rep_max = e->qbytes;
    }
    o->arrival = 0;
    if (timed) {
        uint64_t d = rte_rdtsc() - t1;
        d = d > s->tsc_pair_cyc ? d - s->tsc_pair_cyc : 0;
        if (d > s->outlier_cyc) o->outliers++;
        else { o->cyc_enq += d; o->n_enq_timed++; }
    }
}

/* One oq_service call, timed one in OQ_TIME_EVERY with --oq-timing. */
static int service(struct sw *s, struct oqport *o, struct oq_pkt *out)
{
    int r;
    if (s->oq_timing && o->n_srv++ % OQ_TIME_EVERY == 0) {
        uint64_t t1 = rte_rdtsc(), d;
        r = oq_service(o->rt, 0, now_ps(s), out);
        d = rte_rdtsc() - t1;
        d = d > s->tsc_pair_cyc ? d - s->tsc_pair_cyc : 0;
        if (d > s->outlier_cyc) o->outliers++;
        else { o->cyc_srv += d; o->n_srv_timed++; }
        return r;
    }
    return oq_service(o->rt, 0, now_ps(s), out);
}

unsigned oq_dequeue(struct sw *s, struct egress *e, uint64_t tsc, struct rte_mbuf **tx, uint8_t *kind, unsigned max)
{
    struct oqport *o = e->oq;
    unsigned n = 0, calls = 0;

    if (s->oq_cycle_ns) {
        /* The processor's clock: like the token bucket, time since the last
         * round counts in full up to STALL_MAX_US. */
        uint64_t dt = tsc - o->last_tsc, dmax = dp_us_to_cycles(STALL_MAX_US, s->hz);
        if (o->last_tsc && dt) {
            o->cycles += (double)(dt < dmax ? dt : dmax) * 1e9 / (double)s->hz / (double)s->oq_cycle_ns;
            double cap = (double)STALL_MAX_US * 1000.0 / (double)s->oq_cycle_ns + OQ_CYCLE_BURST;
            if (o->cycles > cap) o->cycles = cap;
        }
        o->last_tsc = tsc;
    }
    while (n < max) {
        if (!o->staged) {
            struct oq_pkt out;
            int r;
            if (s->oq_cycle_ns && o->cycles < 1.0) break;
            if (calls >= OQ_CALLS_MAX) break;
            r = service(s, o, &out);
            if (r == OQ_EMPTY) break;
            calls++;
            o->calls++;
            if (s->oq_cycle_ns) o->cycles -= 1.0;
            if (r == OQ_BUSY) { o->busy++; continue; }
            o->staged = (struct rte_mbuf *)(uintptr_t)out.handle;
            o->staged_p = out;
            e->qbytes -= out.size;
        }
        if (e->rate_bps && e->tokens < (double)(o->staged_p.size + PKT_WIRE_OVERHEAD)) break;
        if (e->rate_bps) e->tokens -= o->staged_p.size + PKT_WIRE_OVERHEAD;
        if (o->staged_p.marked) {
            /* A mark action: ECN CE on an ECT frame (as --ecn marks). */
            uint8_t *f = rte_pktmbuf_mtod(o->staged, uint8_t *);
            struct pkt_info pi = {.l3_off = PKT_ETH_LEN};
            int ecn = pkt_ip4_ecn(f, &pi);
            if (ecn == PKT_ECN_NOT_ECT) o->mark_notect++;
            else if (ecn != PKT_ECN_CE) { pkt_ip4_set_ecn(f, &pi, PKT_ECN_CE); o->marked_ce++; }
        }
        o->sent++;
        o->value_tx += o->staged_p.value;
        kind[n] = K_DATA;
        tx[n++] = o->staged;
        o->staged = NULL;
    }
    return n;
}

uint64_t oq_wait(const struct sw *s, const struct egress *e)
{
    const struct oqport *o = e->oq;
    double need;
    if (o->staged) {
        if (!e->rate_bps) return 0;
        need = (double)(o->staged_p.size + PKT_WIRE_OVERHEAD) - e->tokens;
        return need <= 0 ? 0 : (uint64_t)(need * 8.0 * (double)s->hz / (double)e->rate_bps);
    }
    if (!oq_rt_packets(o->rt)) return UINT64_MAX;
    if (!s->oq_cycle_ns || o->cycles >= 1.0) return 0;
    return (uint64_t)((1.0 - o->cycles) * (double)s->oq_cycle_ns * (double)s->hz / 1e9) + 1;
}

void oq_idle(struct egress *e)
{
    if (e->oq->cycles > OQ_CYCLE_BURST) e->oq->cycles = OQ_CYCLE_BURST;
}

void oq_print_stat(const struct sw *s, double t)
{
    if (!s->any_oq) return;
    for (uint16_t p = 0; p < s->nports; p++) {
        const struct oqport *o = s->eg[p].oq;
        if (!o) continue;
        for (uint32_t q = 0; q < oq_nqueues(o->pol); q++) {
            struct oq_qstats st;
            oq_queue_stats(o->rt, q, &st);
            printf("oq t=%.3f port=%u queue=%s arrived=%" PRIu64 " enqueued=%" PRIu64 " dequeued=%" PRIu64
                   " dropped=%" PRIu64 " pushed_out=%" PRIu64 " len=%u bytes=%" PRIu64 "\n", t, p,
                   oq_queue_name(o->pol, q), st.enqueued + st.dropped - st.pushed_out, st.enqueued, st.dequeued,
                   st.dropped, st.pushed_out, st.len, st.bytes);
        }
    }
}

void oq_print_final(const struct sw *s)
{
    if (!s->any_oq) return;
    for (uint16_t p = 0; p < s->nports; p++) {
        const struct oqport *o = s->eg[p].oq;
        double ns_enq, ns_srv;
        if (!o) continue;
        ns_enq = cyc_ns(s, o->cyc_enq, o->n_enq_timed);
        ns_srv = cyc_ns(s, o->cyc_srv, o->n_srv_timed);
        for (uint32_t q = 0; q < oq_nqueues(o->pol); q++) {
            struct oq_qstats st;
            oq_queue_stats(o->rt, q, &st);
            printf("final oq port=%u queue=%s arrived=%" PRIu64 " enqueued=%" PRIu64 " enq_bytes=%" PRIu64
                   " dequeued=%" PRIu64 " deq_bytes=%" PRIu64 " dropped=%" PRIu64 " drop_bytes=%" PRIu64
                   " pushed_out=%" PRIu64 " marked=%" PRIu64 " notified=%" PRIu64 " left=%u left_bytes=%" PRIu64 "\n",
                   p, oq_queue_name(o->pol, q), st.enqueued + st.dropped - st.pushed_out, st.enqueued, st.enq_bytes,
                   st.dequeued, st.deq_bytes, st.dropped, st.drop_bytes, st.pushed_out, st.marked, st.notified,
                   st.len, st.bytes);
        }
        printf("final oq port=%u policy=%s arrivals=%" PRIu64 " refused=%" PRIu64 " pushed_out=%" PRIu64
               " cycles=%" PRIu64 " busy_cycles=%" PRIu64 " sent=%" PRIu64 " staged=%u value_in=%.0f value_tx=%.0f"
               " marked_ce=%" PRIu64 " mark_notect=%" PRIu64 " notified=%" PRIu64, p, o->path, o->arrivals,
               o->refused, o->pushed_out, o->calls, o->busy, o->sent, o->staged ? 1u : 0u, o->value_in,
               o->value_tx, o->marked_ce, o->mark_notect, o->notified);
        if (s->oq_timing && o->sent)
            printf(" ns_enq=%.1f ns_service=%.1f ns_per_pkt=%.1f timing_outliers=%" PRIu64 "\n", ns_enq, ns_srv,
                   ns_enq * (double)o->arrivals / (double)o->sent + ns_srv * (double)o->calls / (double)o->sent,
                   o->outliers);
        else printf(" ns_enq=- ns_service=- ns_per_pkt=- timing_outliers=-\n");
    }
}
