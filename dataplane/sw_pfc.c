/*
 * sw_pfc.c -- IEEE 802.1Qbb priority flow control in rocc-switch (--pfc).
 *
 * Sending side: every data frame counts against the (ingress port, class)
 * it arrived on from enqueue to dequeue (sw.h: pfc_on_enqueue/dequeue).
 * When a count reaches --pfc-xoff an XOFF (--pfc-quanta) goes back out of
 * that port in the strict-priority control FIFO; while it stays there the
 * XOFF is repeated at half the announced pause (pfc_tick); once the count
 * falls below --pfc-xon an XON (quanta 0) follows.  The decisions are
 * src/cc/pfc.c's (struct pfc_ingress), shared with the simulator.
 *
 * Receiving side: a MAC control frame is checked (pkt_parse_pfc: length,
 * destination, opcode, reserved bits, source) and must come from the port's
 * neighbour -- a MAC that a --route names on that port or that ARP found
 * there; anything else is counted by reason ("final pfc_bad") and dropped.
 * A valid frame pauses (quanta x 512 bit times at the port's rate) or
 * resumes its classes on that port's egress (struct pfc_egress; sw_port.c
 * stops serving the data FIFO while its head frame's class is paused).
 *
 * The quantum of a port is 512 bits at its --egress-rate, or at
 * --pfc-link-gbps on an unshaped port (veth has no rate of its own).
 */
#include <inttypes.h>
#include <string.h>

#include "sw.h"

int pfc_setup(struct sw *s)
{
    char why[128];

    if (!s->pfc) return 0;
    for (uint16_t p = 0; p < s->nports; p++) {
        struct egress *e = &s->eg[p];
        pfc_params_default(&e->pfc, e->rate_bps ? e->rate_bps : s->pfc_link_bps);
        e->pfc.xoff_bytes = s->pfc_xoff;
        e->pfc.xon_bytes = s->pfc_xon;
        e->pfc.quanta = (uint16_t)s->pfc_quanta;
        e->pfc.lossless_mask = (uint8_t)s->pfc_mask;
        if (pfc_params_check(&e->pfc, why, sizeof why)) {
            fprintf(stderr, "--pfc-xoff %" PRIu64 " / --pfc-xon %" PRIu64 " / --pfc-quanta %" PRIu64 ": %s\n",
                    s->pfc_xoff, s->pfc_xon, s->pfc_quanta, why);
            return -1;
        }
        pfc_ingress_init(&e->pin);
        pfc_egress_init(&e->pout);
    }
    if (s->pfc_xoff >= s->qcap)
        fprintf(stderr, "warning: --pfc-xoff %" PRIu64 " B is not below --qcap %" PRIu64
                " B: a port's FIFO overflows before one ingress asks for a pause\n", s->pfc_xoff, s->qcap);
    printf("pfc xoff=%" PRIu64 " xon=%" PRIu64 " quanta=%" PRIu64 " lossless=0x%02" PRIx64 " class=%s",
           s->pfc_xoff, s->pfc_xon, s->pfc_quanta, s->pfc_mask, s->pfc_class < 0 ? "dscp" : "fixed");
    for (uint16_t p = 0; p < s->nports; p++)
        printf(" quantum_ps%u=%" PRIu64, p, s->eg[p].pfc.quantum_ps);
    printf("\n");
    return 0;
}

void pfc_send(struct sw *s, uint16_t port, uint8_t xoff, uint8_t xon, bool refresh)
{
    struct egress *e = &s->eg[port];
    uint16_t q[PFC_NCLASS];
    struct rte_mbuf *m = rte_pktmbuf_alloc(s->pool);
    uint8_t *f;

    /* An XOFF that cannot go out now (no mbuf, full control FIFO) stays
     * due (its refresh time is not set): pfc_tick retries it next round. */
    if (!m) { s->alloc_fail++; return; }
    f = (uint8_t *)rte_pktmbuf_append(m, PKT_PFC_FRAME_LEN);
    for (unsigned c = 0; c < PFC_NCLASS; c++) q[c] = (xoff & (1u << c)) ? e->pfc.quanta : 0;
    if (!f || !pkt_build_pfc(f, PKT_PFC_FRAME_LEN, e->mac, (uint8_t)(xoff | xon), q)) {
        rte_pktmbuf_free(m);
        s->alloc_fail++;
        return;
    }
    /* A full control FIFO drops the frame (ctl_drop): an XOFF then stays
     * due and goes out on the next round; a lost XON leaves the neighbour
     * paused until its quanta run out. */
    if (enqueue_ctl(s, port, m, K_PFC)) return;
    if (xoff) {
        pfc_ingress_sent(&e->pin, &e->pfc, xoff, now_ps(s));
        if (refresh) e->pfc_refresh++;
        else e->pfc_xoff++;
    }
    if (xon) e->pfc_xon++;
}

void pfc_tick(struct sw *s)
{
    for (uint16_t p = 0; p < s->nports; p++) {
        struct egress *e = &s->eg[p];
        uint8_t due;
        if (!e->pin.xoff) continue;
        due = pfc_ingress_due(&e->pin, now_ps(s));
        if (due) pfc_send(s, p, due, 0, true);
    }
}

/* Is mac the neighbour on port: named by a --route on that port, or found
 * there by ARP? */
static bool pfc_neighbour(const struct sw *s, uint16_t port, const uint8_t mac[6])
{
    for (unsigned i = 0; i < s->nroutes; i++)
        if (s->routes[i].has_mac && s->routes[i].port == port && !memcmp(s->routes[i].mac, mac, 6)) return true;
    for (uint32_t i = 0; i < NEIGH_CAP; i++)
        if (s->nb[i].state == N_REACHABLE && s->nb[i].port == port && !memcmp(s->nb[i].mac, mac, 6)) return true;
    return false;
}

void pfc_rx(struct sw *s, uint16_t port, const uint8_t *f, uint32_t len)
{
    struct egress *e = &s->eg[port];
    struct pkt_pfc pf;
    unsigned ev;
    int r = pkt_parse_pfc(f, len, &pf);

    if (r == PKT_PFC_OK && !pfc_neighbour(s, port, pf.src)) r = PKT_PFC_ENEIGH;
    if (r != PKT_PFC_OK) { s->pfc_bad[r]++; return; }
    e->pfc_rx++;
    ev = pfc_egress_frame(&e->pout, pf.vec, pf.quanta, e->pfc.quantum_ps, now_ps(s));
    for (unsigned c = 0; c < PFC_NCLASS; c++)
        if (pf.vec & (1u << c)) {
            if (pf.quanta[c]) e->pfc_rx_xoff++;
            else e->pfc_rx_xon++;
        }
    (void)ev;
}

void pfc_print_final(const struct sw *s)
{
    uint64_t now = tsc_ps(s, s->end_tsc);

    if (!s->pfc) return;
    for (uint16_t p = 0; p < s->nports; p++) {
        const struct egress *e = &s->eg[p];
        uint64_t paused = 0, held = 0;
        for (unsigned c = 0; c < PFC_NCLASS; c++) {
            paused += pfc_egress_paused_total(&e->pout, c, now);
            held += e->pin.bytes[c];
        }
        printf("final pfc port=%u xoff_tx=%" PRIu64 " xon_tx=%" PRIu64 " refresh_tx=%" PRIu64 " frames_tx=%" PRIu64
               " in_bytes=%" PRIu64 " in_bytes_max=%" PRIu64 " xoff_now=0x%02x rx=%" PRIu64 " rx_xoff=%" PRIu64
               " rx_xon=%" PRIu64 " paused_us=%" PRIu64 " paused_now=0x%02x\n",
               p, e->pfc_xoff, e->pfc_xon, e->pfc_refresh, e->pfc_tx, held, e->pfc_in_max, e->pin.xoff, e->pfc_rx,
               e->pfc_rx_xoff, e->pfc_rx_xon, paused / 1000000, e->pout.paused);
    }
    printf("final pfc_bad");
    for (int r = 1; r < PKT_PFC_NRESULTS; r++) printf(" %s=%" PRIu64, pkt_pfc_strerror(r), s->pfc_bad[r]);
    printf("\n");
}

void pfc_print_stat(const struct sw *s, double t)
{
    if (!s->pfc) return;
    for (uint16_t p = 0; p < s->nports; p++) {
        const struct egress *e = &s->eg[p];
        uint64_t held = 0;
        for (unsigned c = 0; c < PFC_NCLASS; c++) held += e->pin.bytes[c];
        printf("pfc t=%.3f port=%u in_bytes=%" PRIu64 " xoff=0x%02x paused=0x%02x xoff_tx=%" PRIu64
               " xon_tx=%" PRIu64 " rx_xoff=%" PRIu64 " tx_pkts=%" PRIu64 "\n", t, p, held, e->pin.xoff,
               e->pout.paused, e->pfc_xoff, e->pfc_xon, e->pfc_rx_xoff, e->tx_pkts);
    }
}
