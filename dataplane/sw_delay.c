/*
 * sw_delay.c -- --delay PORT=US: a long-haul link in software.
 *
 * Model: a port with a delay line hands every frame it transmits (after
 * the shaper, in the order the port sends) to a FIFO of (frame, due time)
 * and gives it to the PMD only when its due time, the transmit time plus
 * the delay, has come.  The shaper (--egress-rate) still sets the rate, so
 * the port behaves as a link of that rate and that one-way propagation
 * delay: a cross-datacenter link between two egress switches (LSCC,
 * issue 15) scaled to what veths carry.  Frames are not lost in the line
 * (a real fibre holds its bandwidth-delay product): a line that is full
 * (DSLOTS frames, the BDP of the fastest rate and longest delay the tests
 * use, docs/dataplane.md) drops what is offered beyond it and counts it,
 * and when the PMD takes fewer than offered the rest stay at the head.
 * Control frames (PFC, CNPs) cross the line too: a PAUSE sent over a long
 * link arrives late, which is the point of one-BDP headroom.
 */
#include <stdlib.h>

#include "sw.h"

struct dent {
    struct rte_mbuf *m;
    uint64_t due;                 /* TSC at which it may leave */
};

struct delayline {
    struct dent r[DSLOTS];
    uint32_t h, t;                /* free-running head (next out) and tail */
    uint64_t cyc;                 /* the delay in TSC cycles */
    uint64_t in, out, full_drops, max_fill;
};

int delay_setup(struct sw *s, uint16_t port, uint64_t us)
{
    struct egress *e = &s->eg[port];
    if (!e->dl && !(e->dl = calloc(1, sizeof *e->dl))) return -1;
    e->dl->cyc = dp_us_to_cycles(us, s->hz);
    return 0;
}

void delay_free(struct sw *s)
{
    for (uint16_t p = 0; p < s->nports; p++) {
        struct delayline *d = s->eg[p].dl;
        if (!d) continue;
        for (; d->h != d->t; d->h++) rte_pktmbuf_free(d->r[d->h & (DSLOTS - 1)].m);
        free(d);
        s->eg[p].dl = NULL;
    }
}

/* Frames tx[0..n) leave the port now (tsc) and enter the line; returns how
 * many it took (the rest are the caller's to free and count). */
unsigned delay_push(struct egress *e, struct rte_mbuf **tx, unsigned n, uint64_t tsc)
{
    struct delayline *d = e->dl;
    unsigned i = 0;
    for (; i < n && d->t - d->h < DSLOTS; i++) {
        d->r[d->t & (DSLOTS - 1)] = (struct dent){ tx[i], tsc + d->cyc };
        d->t++;
    }
    d->in += i;
    d->full_drops += n - i;
    if (d->t - d->h > d->max_fill) d->max_fill = d->t - d->h;
    return i;
}

/* Hand the frames whose time has come to the PMD, oldest first. */
unsigned delay_flush(struct sw *s, struct egress *e, uint16_t port, uint64_t tsc)
{
    struct delayline *d = e->dl;
    struct rte_mbuf *tx[DP_BURST];
    unsigned total = 0;
    for (;;) {
        unsigned n = 0;
        for (uint32_t i = d->h; i != d->t && n < DP_BURST && d->r[i & (DSLOTS - 1)].due <= tsc; i++)
            tx[n++] = d->r[i & (DSLOTS - 1)].m;
        if (!n) break;
        uint16_t sent = dp_tx_burst(port, tx, (uint16_t)n, &s->cap, tsc);
        d->h += sent;
        d->out += sent;
        total += sent;
        if (sent < n) break;      /* the PMD is full: the rest wait at the head */
    }
    return total;
}

/* Cycles until the line's head is due (0: now; UINT64_MAX: empty). */
uint64_t delay_wait(const struct egress *e, uint64_t tsc)
{
    const struct delayline *d = e->dl;
    if (d->h == d->t) return UINT64_MAX;
    uint64_t due = d->r[d->h & (DSLOTS - 1)].due;
    return due <= tsc ? 0 : due - tsc;
}

uint64_t delay_cycles(const struct egress *e)
{
    return e->dl ? e->dl->cyc : 0;
}

bool delay_empty(const struct egress *e)
{
    return !e->dl || e->dl->h == e->dl->t;
}

void delay_print(const struct sw *s, FILE *f)
{
    for (uint16_t p = 0; p < s->nports; p++) {
        const struct delayline *d = s->eg[p].dl;
        if (d)
            fprintf(f, "delay port=%u delay_us=%.1f in=%" PRIu64 " out=%" PRIu64 " in_line=%u max_in_line=%" PRIu64
                    " full_drops=%" PRIu64 "\n", p, (double)d->cyc * 1e6 / (double)s->hz, d->in, d->out, d->t - d->h,
                    d->max_fill, d->full_drops);
    }
}
