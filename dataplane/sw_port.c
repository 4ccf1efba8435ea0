/*
 * sw_port.c -- rocc-switch's egress ports.  Each port has a data FIFO
 * (drop-tail at --qcap bytes, RED/ECN marking with --ecn, the CP's
 * per-frame flow-table hooks) and a control FIFO served first (strict
 * priority: CNPs, ARP), drained no faster than --egress-rate by a token
 * bucket whose credit covers the time the process was descheduled (up to
 * STALL_MAX_US) and falls back to --burst once the port is idle.
 * With --pfc, every data frame counts against its ingress (port, class)
 * from enqueue to dequeue (sw_pfc.c sends XOFF/XON), and a class the
 * neighbour paused is not served: the FIFO waits while the frame at its
 * head is of a paused class (one FIFO per port: a paused head blocks the
 * frames behind it, whatever their class -- docs/dataplane.md).
 * With --escape, a per-port escape queue (sw_esc.c) is served between the
 * control FIFO and the data FIFO, never paused.
 * With --openqueue PORT=FILE, the port's data frames go to an OpenQueue
 * policy (sw_oq.c) instead of the FIFO: admission at enqueue, its
 * scheduler at transmit, the same token bucket and control FIFO.
 */
#include <string.h>

#include "sw.h"

/* ---- egress: the data FIFO (drop-tail, ECN, CP accounting) and the
 * control FIFO ---------------------------------------------------------------- */

static void enqueue_data(struct sw *s, uint16_t port, struct rte_mbuf *m, const struct pkt_info *pi)
{
    struct egress *out = &s->eg[port];
    uint32_t len = rte_pktmbuf_pkt_len(m);
    struct qent *e;
    bool esc_origin = false;

    /* --escape: a frame arriving escaping (hops >= 1) goes to the escape
     * queue (sw_esc.c); a bad hops (above --esc-max-hops) counts as 0. */
    if (s->escape && pi->has_esc) {
        /* C2: a host cannot make frames escape.  A nonzero header from a
         * port facing a host is reset to 0 and counted (esc_hdr_reset); the
         * frame is then an ordinary data frame, under PFC like any other. */
        bool from_host = m->port < s->nports && s->host_port[m->port];
        uint16_t h = from_host ? 0 : esc_frame_hops(&s->esc, pi->esc_hops);
        if (from_host && pi->esc_hops) s->esc_hdr_reset++;
        /* C9 (docs/escape.md; the simulator's rule): an escaping frame
         * must not overtake an older frame of its flow queued in this
         * port's data FIFO.  At its token's origin (hops 1) it then joins
         * the FIFO's tail behind them, keeping its token until it leaves
         * (esc_origin_tx); otherwise, and always beyond the origin (hops
         * > 1, only counted), it takes the escape queue. */
        bool older = h && esc_fifo_has(s, port, pi);
        if (h == 1 && older) { esc_origin = true; out->esc_in++; s->esc_demoted++; }
        else if (h) {
            if (older) s->esc_order_risk++;
            (void)esc_enqueue(s, port, m, pi, h, true);
            return;
        } else if (pi->esc_hops) pkt_esc_set_hops(rte_pktmbuf_mtod(m, uint8_t *), pi, 0);
    }
    if (out->oq) { oq_enqueue_frame(s, out, m, pi); return; }   /* --openqueue: the policy decides */
    /* Drop-tail on bytes (the buffer) or slots (the FIFO array). */
    if (out->qt - out->qh >= QSLOTS || out->qbytes + len > s->qcap) {
        out->drop_qfull++;
        rte_pktmbuf_free(m);
        return;
    }
    if (out->ecn && pkt_red_mark(out->qbytes, out->kmin, out->kmax, out->pmax, rnd32(s))) {
        uint8_t *f = rte_pktmbuf_mtod(m, uint8_t *);
        int ecn = pkt_ip4_ecn(f, pi);
        if (ecn == PKT_ECN_CE) out->ecn_ce_in++;
        else if (ecn == PKT_ECN_NOT_ECT) out->ecn_notect++;   /* not marked, not dropped */
        else { pkt_ip4_set_ecn(f, pi, PKT_ECN_CE); out->ecn_marked++; }
    }
    e = &out->q[out->qt & (QSLOTS - 1)];
    e->m = m;
    e->len = len;
    e->state = Q_UNTRACKED;
    e->esc_origin = esc_origin;
    if (esc_origin) {
        /* An escaping frame at its token's origin (hops 1) joins the tail of
         * the data FIFO, behind the frames of its flow queued there before it
         * (the escape queue would let it overtake them: docs/dataplane.md
         * "Escape", D1); it uses the space its token reserved, so it counts
         * against no ingress, and leaving is its TRANSMIT event. */
        e->in_port = UINT8_MAX;
        e->cls = (uint8_t)(s->pfc_class >= 0 ? (unsigned)s->pfc_class : pkt_ip4_dscp_class(rte_pktmbuf_mtod(m, const uint8_t *), pi));
    } else if (s->pfc) pfc_on_enqueue(s, e, m, rte_pktmbuf_mtod(m, const uint8_t *), pi);
    else { e->cls = 0; e->in_port = m->port < s->nports ? (uint8_t)m->port : UINT8_MAX; }
    if (s->any_lscc) lscc_on_enqueue(s, out, e, pi);
    if (s->escape && pi->has_esc && !esc_origin) esc_on_data(s, port, m, pi);
    if (out->cp && pi->is_roce) {
        /* Key = (src IP, dest QPN): the flow the RP will match. */
        struct cpstate *cp = out->cp;
        uint64_t t1 = 0, key;
        bool timed = s->cp_timing && cp->n_pkt % CP_TIME_EVERY == 0;
        uint32_t ref;
        cp->n_pkt++;
        if (timed) t1 = rte_rdtsc();
        if (s->ft_kind == ROCC_FT_QUEUE) {
            e->state = Q_PENDING;
        } else if (s->ft_kind == ROCC_FT_BOUNDED) {
            /* Reported once a period (report_bounded); dequeue is a no-op. */
            key = ((uint64_t)pi->src_ip << 24) | pi->dest_qpn;
            if (fi_ref(cp, key, pi->dst_ip, pi->sport, pi->psn, &ref) == 0) {
                struct flowinfo *f = &cp->fi[ref];
                f->seen_tsc = s->now_tsc;
                if (!f->dirty) { f->dirty = true; cp->dirty[cp->ndirty++] = ref; }
            }
        } else {
            key = ((uint64_t)pi->src_ip << 24) | pi->dest_qpn;
            if (fi_ref(cp, key, pi->dst_ip, pi->sport, pi->psn, &ref) == 0) {
                rocc_ft_on_enqueue(&cp->ft, key, ref, now_ps(s));
                e->key = key;
                e->state = Q_REPORTED;
            }
        }
        if (timed) timed_add(s, cp, t1, &cp->cyc_enq, &cp->n_enq_timed);
    }
    out->qt++;
    out->qbytes += len;
    if (out->qbytes > out->qbytes_max) out->qbytes_max = out->qbytes;
    if (out->qbytes > out->qbytes_rep_max) out->qbytes_rep_max = out->qbytes;
}

int enqueue_ctl(struct sw *s, uint16_t port, struct rte_mbuf *m, enum kind k)
{
    struct egress *out = &s->eg[port];

    if (out->ct - out->ch >= CSLOTS) {
        if (k == K_OWN_CNP) out->cnp_drop++;
        else out->ctl_drop++;
        rte_pktmbuf_free(m);
        return -1;
    }
    out->c[out->ct & (CSLOTS - 1)] = (struct cent){.m = m, .kind = (uint8_t)k};
    out->ct++;
    return 0;
}

/* Frame routed out of port towards next-hop MAC mac. */
void deliver(struct sw *s, uint16_t port, struct rte_mbuf *m, const uint8_t mac[6], enum kind k,
                    const struct pkt_info *pi)
{
    uint8_t *f = rte_pktmbuf_mtod(m, uint8_t *);
    struct pkt_info again;

    memcpy(f, mac, 6);
    memcpy(f + 6, s->eg[port].mac, 6);
    if (k != K_DATA) { enqueue_ctl(s, port, m, k); return; }
    /* pi is NULL for frames released from an ARP queue: parse them again
     * (they were parsed on arrival, so this cannot fail). */
    if (!pi) {
        if ((s->escape ? pkt_parse_esc : pkt_parse)(f, rte_pktmbuf_pkt_len(m), &again) != PKT_OK) {
            rte_pktmbuf_free(m);
            return;
        }
        pi = &again;
    }
    enqueue_data(s, port, m, pi);
}

/* ---- transmit ------------------------------------------------------------ */

/* One burst: strict priority, all queued control frames first, then data
 * while the bucket allows.  Returns frames handed to the PMD or dropped;
 * *full is set when the PMD took fewer than offered. */
static unsigned tx_burst(struct sw *s, struct egress *e, uint16_t port, uint64_t tsc, bool *full)
{
    struct rte_mbuf *tx[DP_BURST];
    uint8_t kind[DP_BURST];
    unsigned n = 0;
    uint16_t sent;

    while (e->ch != e->ct && n < DP_BURST) {
        struct cent *c = &e->c[e->ch++ & (CSLOTS - 1)];
        if (e->rate_bps) e->tokens -= rte_pktmbuf_pkt_len(c->m) + PKT_WIRE_OVERHEAD;
        kind[n] = c->kind;
        tx[n++] = c->m;
    }
    /* --escape: the escape queue, before data, never paused. */
    if (e->eh != e->et) n += esc_dequeue(s, e, port, tx + n, kind + n, DP_BURST - n);
    if (e->oq) n += oq_dequeue(s, e, tsc, tx + n, kind + n, DP_BURST - n);   /* --openqueue */
    while (e->qh != e->qt && n < DP_BURST) {
        struct qent *q = &e->q[e->qh & (QSLOTS - 1)];
        if (e->pout.paused & (1u << q->cls)) break;      /* --pfc: the neighbour paused its class */
        if (e->rate_bps && e->tokens < (double)(q->len + PKT_WIRE_OVERHEAD)) break;
        if (e->rate_bps) e->tokens -= q->len + PKT_WIRE_OVERHEAD;
        e->qh++;
        e->qbytes -= q->len;
        if (s->pfc) pfc_on_dequeue(s, q);
        if (s->any_lscc) lscc_on_dequeue(s, e, q);
        if (q->esc_origin) esc_origin_tx(s, port, q->m);
        if (q->state == Q_REPORTED) {
            struct cpstate *cp = e->cp;
            if (s->cp_timing && cp->n_deq++ % CP_TIME_EVERY == 0) {
                uint64_t t1 = rte_rdtsc();
                rocc_ft_on_dequeue(&cp->ft, q->key);
                timed_add(s, cp, t1, &cp->cyc_deq, &cp->n_deq_timed);
            } else {
                rocc_ft_on_dequeue(&cp->ft, q->key);
            }
        }
        kind[n] = K_DATA;
        tx[n++] = q->m;
    }
    if (!n) return 0;
    /* --delay: the frames leave the port now and reach the PMD later.  The
     * line is timed from a fresh clock read, not this round's tsc: a frame
     * received after the round read tsc (the process was preempted between
     * the two) would otherwise leave the line early by the preemption --
     * measured: a one-way minimum of 9,775.7 us under a 10 ms line, which RCC
     * takes as its base delay for the rest of the flow (docs/rcc.md). */
    sent = e->dl ? (uint16_t)delay_push(e, tx, n, rte_get_tsc_cycles())
                 : dp_tx_burst(port, tx, (uint16_t)n, &s->cap, tsc);
    *full = sent < n;
    for (unsigned i = sent; i < n; i++) {
        rte_pktmbuf_free(tx[i]);
        e->drop_tx++;
    }
    for (unsigned i = 0; i < sent; i++) {
        switch (kind[i]) {
        case K_OWN_CNP: e->cnp_tx++; break;
        case K_TRANSIT_CNP: e->ctl_fwd++; break;
        case K_ARP: e->arp_tx++; break;
        case K_PFC: e->pfc_tx++; break;
        case K_ETF: e->etf_tx++; break;
        case K_LSCC: e->lscc_fb_tx++; break;
        default: e->tx_pkts++; e->tx_bytes += rte_pktmbuf_pkt_len(tx[i]); break;
        }
    }
    return n;
}

/* A port with nothing queued and nothing waiting to be received has been
 * idle: its credit goes back to at most --burst. */
void end_round(struct sw *s)
{
    if (s->rx_backlog) return;
    for (uint16_t p = 0; p < s->nports; p++) {
        struct egress *e = &s->eg[p];
        if (e->oq && e->ch == e->ct && e->eh == e->et && data_empty(e)) oq_idle(e);
        if (e->rate_bps && data_empty(e) && e->ch == e->ct && e->eh == e->et && e->tokens > (double)s->burst_bytes)
            e->tokens = (double)s->burst_bytes;
    }
}

/* Up to TX_ROUNDS bursts per loop round: a backlog (after the process was
 * descheduled, say) must drain faster than one burst per round, or it never
 * shrinks while receive keeps bringing a burst per round. */
#define TX_ROUNDS 4
unsigned tx_port(struct sw *s, uint16_t port, uint64_t tsc)
{
    struct egress *e = &s->eg[port];
    unsigned total = 0, n;
    bool full = false;

    if (e->rate_bps) {
        /* The emulated link keeps sending while this process is
         * descheduled: time since the last round counts in full (up to
         * STALL_MAX_US), and the credit is cut back to --burst only once the
         * port is idle (see end_round), as a real port's would be. */
        uint64_t dt = tsc - e->last_tsc, dmax = dp_us_to_cycles(STALL_MAX_US, s->hz);
        e->tokens += (double)(dt < dmax ? dt : dmax) * (double)e->rate_bps / 8.0 / (double)s->hz;
    }
    e->last_tsc = tsc;
    if (e->dl) total += delay_flush(s, e, port, tsc);
    if (e->pout.paused) (void)pfc_egress_paused(&e->pout, now_ps(s));   /* pauses that ran out end */
    for (int r = 0; r < TX_ROUNDS && !full; r++) {
        n = tx_burst(s, e, port, tsc, &full);
        total += n;
        if (n < DP_BURST) break;
    }
    /* A paused port does not bank credit: it resumes at its rate, not with
     * a burst of the whole pause. */
    if (e->pout.paused && e->rate_bps && e->tokens > (double)s->burst_bytes) e->tokens = (double)s->burst_bytes;
    return total;
}

/* Cycles until the first shaped port with a queued data frame has the
 * credit to send it (0: some port can send now, or has control frames or
 * an unshaped queue; UINT64_MAX: nothing queued).  The loop sleeps that
 * long instead of spinning: credit accrues for the whole time since the
 * port's last round (tx_port), so a late wake-up costs no rate, only a
 * burst of the frames that became due meanwhile.  A switch that spins
 * while its queue waits uses all of a CPU, and at real-time priority
 * (the data-plane tests, tests/dataplane/netns.bash) the kernel's RT
 * throttling then stops it for 50 ms of every second, long enough for its
 * receive rings to overflow. */
uint64_t credit_wait(const struct sw *s)
{
    uint64_t best = UINT64_MAX, now = rte_rdtsc();

    for (uint16_t p = 0; p < s->nports; p++) {
        const struct egress *e = &s->eg[p];
        if (e->dl) {
            uint64_t w = delay_wait(e, now);
            if (!w) return 0;
            if (w < best) best = w;
        }
        if (e->ch != e->ct || e->eh != e->et) return 0;
        if (e->oq) {
            uint64_t w = oq_wait(s, e);
            if (!w) return 0;
            if (w < best) best = w;
            continue;
        }
        if (e->qh == e->qt) continue;
        if (e->pout.paused & (1u << e->q[e->qh & (QSLOTS - 1)].cls)) continue;   /* waits for XON or expiry */
        if (!e->rate_bps) return 0;
        double need = (double)(e->q[e->qh & (QSLOTS - 1)].len + PKT_WIRE_OVERHEAD) - e->tokens;
        if (need <= 0) return 0;
        uint64_t cyc = (uint64_t)(need * 8.0 * (double)s->hz / (double)e->rate_bps);
        if (cyc < best) best = cyc;
    }
    return best;
}
