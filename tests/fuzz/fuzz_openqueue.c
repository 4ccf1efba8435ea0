/* fuzz_openqueue.c -- OpenQueue policies (src/openqueue): the lexer,
 * parser, checker and compiler on any bytes; a policy that compiles is
 * printed, instantiated (small slot caps) and run: a bounded mix of
 * arrivals and services driven by the input's own bytes on every queue and
 * port.  Nothing may crash or hang (every runtime loop is bounded by the
 * packets present), and packets are conserved: admitted = served + pushed
 * out + still queued, and every drop is reported once. */
#include <stdio.h>

#include "fuzz.h"
#include "openqueue/oq.h"

static uint64_t drops_;

static void on_drop(void *ctx, const struct oq_pkt *p, enum oq_drop_reason why) { drops_++; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[600];
    struct oq_policy *p = oq_compile((const char *)data, size, "fuzz.oq", err, sizeof err);
    if (!p) {
        if (!err[0]) abort();           /* every failure has a message */
        return 0;
    }
    FILE *null = fopen("/dev/null", "w");
    if (null) {
        oq_policy_print(p, null);
        fclose(null);
    }
    struct oq_rt_params prm = { .seed = size, .min_pkt_bytes = 64, .max_queue_slots = 32 };
    struct oq_sink sink = { .drop = on_drop };
    struct oq_rt *rt = oq_rt_new(p, &prm, &sink);
    if (!rt) {
        oq_policy_free(p);
        return 0;
    }
    drops_ = 0;
    uint32_t nq = oq_nqueues(p), np = oq_nports(p);
    uint64_t x = 0x9e3779b97f4a7c15ull ^ size, refused_bad = 0;
    for (uint32_t i = 0; i < 400; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull + (size ? data[i % size] : 0);
        uint32_t r = (uint32_t)(x >> 33);
        if (r & 1) {
            struct oq_pkt k = { .handle = i, .size = 64 + (r >> 1) % 1500, .queue = (r >> 12) % (nq + 1),
                                .value = (double)((r >> 4) % 64), .processing = (r >> 10) % 4,
                                .flow = (r >> 14) % 7, .slack = r % 1000 };
            if (k.queue >= nq)
                refused_bad++;
            oq_enqueue(rt, &k, i * 1000ull);
        } else if (np) {
            struct oq_pkt out;
            oq_service(rt, (r >> 1) % np, i * 1000ull, &out);
        }
    }
    uint64_t enq = 0, deq = 0, pushed = 0, dropped = 0;
    for (uint32_t q = 0; q < nq; q++) {
        struct oq_qstats st;
        oq_queue_stats(rt, q, &st);
        enq += st.enqueued;
        deq += st.dequeued;
        pushed += st.pushed_out;
        dropped += st.dropped;
    }
    if (enq != deq + pushed + oq_rt_packets(rt)) abort();
    if (drops_ != dropped + refused_bad) abort();
    oq_rt_free(rt);
    oq_policy_free(p);
    return 0;
}
