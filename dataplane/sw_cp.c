/*
 * sw_cp.c -- rocc-switch's glue to librocc's RoCC congestion point
 * (docs/rocc.md, docs/dataplane.md): one CP per --cp port, its parameters
 * derived from the port's shaped rate and the options, its flow table
 * (queue|bounded|trap, rocc_flowtable.h) and the flow-info slots a CNP
 * quotes from, the period tick (report the queued frames, the PI update,
 * select flows, send CNPs in the control class) and the "final cp" lines.
 * The CP's per-frame hooks (enqueue/dequeue) are in sw_port.c.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sw.h"

/* The CP parameters' constraints, checked in the options' own terms (bytes,
 * Mb/s; given or the default at this port's rate), before librocc's check
 * would name its fields.  Prints the reason; -1 when one fails. */
/* "--OPT X B must be REL --OTHER (SRC: Y B) on port P, in whole --q-unit U B
 * units": one queue threshold out of order with its neighbour, naming the
 * option the user gave. */
static void q_order_error(const char *opt, uint64_t opt_bytes, const char *rel, const char *other,
                          const char *other_src, uint64_t other_bytes, uint16_t port, uint64_t unit)
{
    fprintf(stderr, "%s %" PRIu64 " B must be %s %s (%s: %" PRIu64 " B) on port %u, in whole --q-unit %" PRIu64
            " B units\n", opt, opt_bytes, rel, other, other_src, other_bytes, port, unit);
}

static int cp_check_opts(const struct sw *s, uint16_t port, const struct rocc_cp_params *p)
{
    uint64_t u = p->q_unit_bytes, link_mbps = s->eg[port].rate_bps / 1000000;
    const char *qmid_src = s->o_qmid ? "given" : "default at this rate";
    const char *qmax_src = s->o_qmax ? "given" : "default at this rate";

    if (s->o_qref && p->q_ref == 0) {
        fprintf(stderr, "--qref %" PRIu64 " B must be at least one --q-unit (%" PRIu64 " B)\n", s->o_qref, u);
        return -1;
    }
    if (p->q_mid <= p->q_ref) {
        if (s->o_qref)
            q_order_error("--qref", s->o_qref, "below", "--qmid", qmid_src, (uint64_t)p->q_mid * u, port, u);
        else
            q_order_error("--qmid", s->o_qmid, "above", "--qref", "default at this rate", (uint64_t)p->q_ref * u,
                          port, u);
        return -1;
    }
    if (p->q_max <= p->q_mid) {
        if (s->o_qmax)
            q_order_error("--qmax", s->o_qmax, "above", "--qmid", qmid_src, (uint64_t)p->q_mid * u, port, u);
        else
            q_order_error("--qmid", s->o_qmid, "below", "--qmax", qmax_src, (uint64_t)p->q_max * u, port, u);
        return -1;
    }
    if (p->f_min > p->f_max) {
        fprintf(stderr, "--fmin %u units (%" PRIu64 " Mb/s) must be at most Fmax = the port's rate / "
                "--f-unit-mbps = %" PRIu64 " / %u = %u units on port %u\n", p->f_min,
                (uint64_t)p->f_min * p->f_unit_mbps, link_mbps, p->f_unit_mbps, p->f_max, port);
        return -1;
    }
    if (p->alpha_q16 > ROCC_CP_MAX_GAIN_Q16 || p->beta_q16 > ROCC_CP_MAX_GAIN_Q16) {
        fprintf(stderr, "--%s %g must be at most 256\n", p->alpha_q16 > ROCC_CP_MAX_GAIN_Q16 ? "alpha" : "beta",
                p->alpha_q16 > ROCC_CP_MAX_GAIN_Q16 ? s->o_alpha : s->o_beta);
        return -1;
    }
    return 0;
}

/* Build one CP's parameters: librocc defaults for the shaped rate, then the
 * overrides, converted from bytes to ΔQ units.  -2: a bad parameter (exit 2),
 * -1: out of memory. */
int cp_setup(struct sw *s, uint16_t port)
{
    struct cpstate *cp = calloc(1, sizeof *cp);
    struct rocc_cp_params *p;
    struct rocc_ft_params fp;
    char why[128];
    uint64_t link = s->eg[port].rate_bps;
    static const char *const ftname[] = {[ROCC_FT_QUEUE] = "queue", [ROCC_FT_BOUNDED] = "bounded",
                                         [ROCC_FT_ETRAP] = "trap"};

    if (!cp) return -1;
    s->eg[port].cp = cp;
    s->any_cp = true;
    p = &cp->p;
    cp->port = port;
    cp->cp_id = (s->switch_id << 8) | port;   /* docs/rocc.md: node id << 8 | port */
    rocc_cp_params_default(p, link);
    if (s->o_qunit) p->q_unit_bytes = (uint32_t)s->o_qunit;
    if (s->o_funit) {
        uint64_t fmax = link / (s->o_funit * 1000000ull);
        p->f_unit_mbps = (uint32_t)s->o_funit;
        p->f_max = (uint32_t)(fmax ? (fmax > INT32_MAX ? INT32_MAX : fmax) : 1);
        p->f_min = p->f_min < p->f_max ? p->f_min : p->f_max;
        p->f_init = p->f_max;
    }
    if (s->o_fmin) p->f_min = (uint32_t)s->o_fmin;
    if (s->o_qref) p->q_ref = (uint32_t)(s->o_qref / p->q_unit_bytes);
    if (s->o_qmid) p->q_mid = (uint32_t)(s->o_qmid / p->q_unit_bytes);
    if (s->o_qmax) p->q_max = (uint32_t)(s->o_qmax / p->q_unit_bytes);
    if (s->o_period_us) p->period_ps = s->o_period_us * 1000000ull;
    if (s->o_alpha > 0) p->alpha_q16 = (uint32_t)(s->o_alpha * 65536.0 + 0.5);
    if (s->o_beta > 0) p->beta_q16 = (uint32_t)(s->o_beta * 65536.0 + 0.5);
    if (cp_check_opts(s, port, p)) return -2;
    if (rocc_cp_params_check(p, why, sizeof why)) {
        fprintf(stderr, "CP parameters for port %u: %s\n", port, why);
        return -2;
    }
    /* librocc's defaults are made for 10-100G ports: on a slow port they
     * leave Fmin a large part of the link or Qref a unit or two, and the CP
     * cannot control the queue.  Say so (the run goes on). */
    if ((uint64_t)p->f_min * p->f_unit_mbps * 1000000ull * 10 >= link || p->q_ref < 4)
        fprintf(stderr,
                "warning: CP on port %u (%" PRIu64 " Mb/s): Fmin = %" PRIu64 " Mb/s (%.0f%% of the port, "
                "should be < 10%%), Qref = %u q-units of %u B (should be >= 4): scale --f-unit-mbps, "
                "--q-unit, --qref/--qmid/--qmax and --period to the port "
                "(docs/dataplane.md, \"Running at low link rates\")\n",
                port, link / 1000000, (uint64_t)p->f_min * p->f_unit_mbps,
                100.0 * (double)p->f_min * p->f_unit_mbps * 1e6 / (double)link, p->q_ref, p->q_unit_bytes);
    rocc_cp_init(&cp->cp, p);
    cp->cap = s->ft_cap;
    rocc_ft_params_default(&fp, s->ft_kind, cp->cap, p->period_ps);
    cp->ft_mem = calloc(1, rocc_ft_storage_bytes(cp->cap));
    if (!cp->ft_mem || rocc_ft_init(&cp->ft, &fp, cp->ft_mem)) return -1;
    cp->period_cyc = dp_us_to_cycles(p->period_ps / 1000000ull, s->hz);
    if (!cp->period_cyc) cp->period_cyc = 1;
    cp->f_min_seen = UINT32_MAX;
    /* reg=: this CP's registry entry for rocc-host --cp-reg (RoCC §3.6 form 2) */
    printf("cp port=%u id=0x%x link_mbps=%" PRIu64 " q_unit=%u qref=%u qmid=%u qmax=%u (units) "
           "f_unit_mbps=%u fmin=%u fmax=%u alpha_q16=%u beta_q16=%u period_us=%" PRIu64 " flow_table=%s/%u"
           " rate_at=%s reg=0x%x=%u:%u:%u:%u:%u:%u:%u:%u\n",
           cp->port, cp->cp_id, link / 1000000, p->q_unit_bytes, p->q_ref, p->q_mid, p->q_max,
           p->f_unit_mbps, p->f_min, p->f_max, p->alpha_q16, p->beta_q16, p->period_ps / 1000000,
           ftname[s->ft_kind], cp->cap,
           s->cnp_form == ROCC_CNP_FORM_HOST_FULL ? "host_full" : s->cnp_form == ROCC_CNP_FORM_HOST_REG ? "host_registry" : "switch",
           cp->cp_id, p->q_ref, p->q_mid, p->q_max, p->f_min, p->f_max, p->alpha_q16, p->beta_q16,
           (p->pi_round == ROCC_CP_ROUND_AUTHORS ? 1u : 0u) | (p->md_qmax == ROCC_CP_MDQ_HALF ? 2u : 0u));
    return 0;
}

int fi_ref_probe(struct cpstate *cp, uint64_t key, uint32_t dst_ip, uint16_t sport, uint32_t psn,
                        uint32_t *ref)
{
    uint32_t mask = cp->cap - 1, h = fi_hash(cp, key);
    uint32_t slot = UINT32_MAX, n;
    struct flowinfo *f;

    for (n = 0; n < cp->cap; n++, h = (h + 1) & mask) {
        f = &cp->fi[h];
        if (f->used) {
            if (f->key != key) continue;
            f->psn = psn;
            *ref = h;
            return 0;
        }
        if (f->tomb) { if (slot == UINT32_MAX) slot = h; continue; }
        if (slot == UINT32_MAX) slot = h;     /* never used: the key is not further on */
        break;
    }
    if (slot == UINT32_MAX || cp->fi_used >= cp->cap * 3 / 4) { cp->fi_full++; return -1; }
    cp->fi[slot] = (struct flowinfo){.key = key, .dst_ip = dst_ip, .psn = psn, .sport = sport,
                                     .used = true};
    cp->fi_used++;
    *ref = slot;
    return 0;
}

/* Free the flow-info slots of flows the flow table has dropped (QUEUE: no
 * frame reported and still queued; BOUNDED: aged out; ETRAP: evicted) and
 * that wait for no report.  A QUEUE frame not yet reported carries its
 * flow's fields and takes a slot again when reported.  With nothing left,
 * the tombstones go too. */
static void fi_gc(struct cpstate *cp)
{
    for (uint32_t i = 0; i < cp->cap; i++) {
        struct flowinfo *f = &cp->fi[i];
        if (!f->used || f->dirty || rocc_ft_find(&cp->ft, f->key)) continue;
        f->used = false;
        f->tomb = true;
        cp->fi_used--;
        cp->fi_freed++;
    }
    if (cp->fi_used == 0)
        for (uint32_t i = 0; i < cp->cap; i++) cp->fi[i].tomb = false;
}

/* The smallest difference of two back-to-back TSC reads. */
uint64_t tsc_pair_cost(void)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 1000; i++) {
        uint64_t a = rte_rdtsc(), b = rte_rdtsc();
        if (b - a < best) best = b - a;
    }
    return best;
}

/* ---- the CPs ------------------------------------------------------------- */

/* f_units: the new F (RATE form).  Host forms (--rate-at, RoCC §3.6)
 * carry Alg. 1's inputs instead: f_in (F before this update), Qcur, Qold,
 * and for HOST_FULL the parameters. */
static void send_cnps(struct sw *s, struct cpstate *cp, uint32_t f_units, int32_t f_in, uint32_t q_old,
                      uint64_t tsc)
{
    size_t n = rocc_ft_select(&cp->ft, now_ps(s), cp->sel, cp->cap);

    for (size_t i = 0; i < n; i++) {
        const struct flowinfo *fi = &cp->fi[cp->sel[i] & (cp->cap - 1)];
        uint32_t src_ip = (uint32_t)(fi->key >> 24);
        const struct route *rt = route_lookup(s, src_ip);
        struct rocc_cnp c = {.rate_units = f_units, .cp_id = cp->cp_id, .src_ip = src_ip,
                             .dst_ip = fi->dst_ip, .sport = fi->sport, .dport = ROCC_ROCEV2_UDP_PORT,
                             .dest_qpn = (uint32_t)(fi->key & 0xffffff), .psn = fi->psn,
                             .form = s->cnp_form};
        static const uint8_t zero[6];
        struct rte_mbuf *m;
        uint8_t *p;
        size_t flen;

        if (!rt) { cp->cnp_noroute++; continue; }
        m = rte_pktmbuf_alloc(s->pool);
        if (!m) { cp->cnp_alloc_fail++; continue; }
        if (c.form != ROCC_CNP_FORM_RATE) {
            c.rate_units = (uint32_t)f_in;
            c.q_cur = cp->cp.q_old;          /* rocc_cp_update just stored Qcur there */
            c.q_old = q_old;
            if (c.form == ROCC_CNP_FORM_HOST_FULL) rocc_hostcp_put_params(&c, &cp->p);
        }
        flen = PKT_ETH_LEN + PKT_IP4_LEN + rocc_cnp_form_bytes(c.form, s->cnp_pol.key != NULL);
        p = (uint8_t *)rte_pktmbuf_append(m, flen);
        /* MACs are filled in by deliver() once the next hop is known. */
        if (!p || !pkt_build_cnp_form(p, flen, zero, zero, s->cp_ip, src_ip, &c, s->cnp_pol.key)) {
            rte_pktmbuf_free(m);
            cp->cnp_alloc_fail++;
            continue;
        }
        cp->cnps++;
        forward(s, rt, src_ip, m, K_OWN_CNP, NULL, tsc);
    }
}

/* QUEUE tables: the flow table only has to be right when select() reads
 * it, once a period, so frames are reported to it here, just before, and
 * only those still queued.  A frame that came and went between two periods
 * costs the table nothing (an uncongested port: nearly every frame), and
 * what select() sees is exactly what per-packet updates would have given:
 * one count per queued frame of each flow.  The flow (and what a CNP
 * quotes) is read from the queued frame: its IP addresses, UDP source
 * port, QP and PSN are what they were on arrival (only MACs, TTL, ECN and
 * the IP checksum have changed), and enqueue need not store them. */
static void report_pending(struct sw *s, struct cpstate *cp)
{
    struct egress *e = &s->eg[cp->port];
    uint32_t pos = (int32_t)(cp->rep_pos - e->qh) > 0 ? cp->rep_pos : e->qh;

    for (; pos != e->qt; pos++) {
        struct qent *q = &e->q[pos & (QSLOTS - 1)];
        struct pkt_info pi;
        uint64_t key;
        uint32_t ref;
        if (q->state != Q_PENDING) continue;
        /* Parsed on arrival already: this cannot fail. */
        if (pkt_parse(rte_pktmbuf_mtod(q->m, const uint8_t *), q->len, &pi) != PKT_OK || !pi.is_roce) {
            q->state = Q_UNTRACKED;
            continue;
        }
        key = ((uint64_t)pi.src_ip << 24) | pi.dest_qpn;
        if (fi_ref(cp, key, pi.dst_ip, pi.sport, pi.psn, &ref) == 0) {
            rocc_ft_on_enqueue(&cp->ft, key, ref, now_ps(s));
            q->key = key;
            q->state = Q_REPORTED;
            cp->n_reported++;
        } else {
            q->state = Q_UNTRACKED;
        }
    }
    cp->rep_pos = e->qt;
}

/* BOUNDED tables: select picks the flows seen within max_age, by the time
 * of their latest frame; that is all the table keeps of them.  So each flow
 * seen since the last period is reported once, with the time of its latest
 * frame, just before select: the same entries, times and picks as one
 * report per frame, for one table update per flow and period. */
static void report_bounded(struct sw *s, struct cpstate *cp)
{
    uint64_t last_tsc = 0, last_ps = 0;   /* flows last seen in the same loop round share a time */

    for (uint32_t i = 0; i < cp->ndirty; i++) {
        struct flowinfo *f = &cp->fi[cp->dirty[i]];
        if (i == 0 || f->seen_tsc != last_tsc) {
            last_tsc = f->seen_tsc;
            last_ps = last_tsc == s->now_tsc ? now_ps(s) : tsc_ps(s, last_tsc);
        }
        rocc_ft_on_enqueue(&cp->ft, f->key, cp->dirty[i], last_ps);
        f->dirty = false;
        cp->n_reported++;
    }
    cp->ndirty = 0;
}

void cp_tick(struct sw *s, struct cpstate *cp, uint64_t tsc)
{
    uint64_t t1 = s->cp_timing ? rte_rdtsc() : 0;
    uint64_t q = s->eg[cp->port].qbytes;   /* data queue only: control frames are excluded */

    if (s->ft_kind == ROCC_FT_QUEUE) report_pending(s, cp);
    else if (s->ft_kind == ROCC_FT_BOUNDED) report_bounded(s, cp);
    int32_t f_in = cp->cp.f;             /* Alg. 1's inputs, for the host forms */
    uint32_t q_old = cp->cp.q_old;
    uint32_t f = rocc_cp_update(&cp->cp, &cp->p, q);

    cp->samples++;
    cp->qsum_bytes += q;
    if (f < cp->f_min_seen) cp->f_min_seen = f;
    if (f > cp->f_max_seen) cp->f_max_seen = f;
    /* docs/rocc.md: no CNPs while F = Fmax unless asked (they constrain nobody).
     * BOUNDED and ETRAP tables still age every period (select does it);
     * QUEUE's select changes nothing, so it is skipped. */
    if (f < cp->p.f_max || s->cnp_at_fmax) send_cnps(s, cp, f, f_in, q_old, tsc);
    else if (s->ft_kind != ROCC_FT_QUEUE) (void)rocc_ft_select(&cp->ft, now_ps(s), cp->sel, cp->cap);
    if (cp->samples % FI_GC_PERIODS == 0) fi_gc(cp);
    if (s->cp_timing) timed_add(s, cp, t1, &cp->cyc_tick, &cp->n_tick_timed);
}

void cp_print_final(const struct sw *s)
{
    for (uint16_t p = 0; p < s->nports; p++) {
        const struct cpstate *cp = s->eg[p].cp;
        char ns_pkt[32] = "-", ns_period[32] = "-";   /* "-": not timed (no --cp-timing) */
        if (!cp) continue;
        if (s->cp_timing) {
            /* per tracked frame: every enqueue, plus the dequeues that
             * had been reported (all but QUEUE's unreported ones) */
            snprintf(ns_pkt, sizeof ns_pkt, "%.1f", cyc_ns(s, cp->cyc_enq, cp->n_enq_timed) +
                     (cp->n_pkt ? cyc_ns(s, cp->cyc_deq, cp->n_deq_timed) * (double)cp->n_deq / (double)cp->n_pkt : 0.0));
            snprintf(ns_period, sizeof ns_period, "%.1f", cyc_ns(s, cp->cyc_tick, cp->n_tick_timed));
        }
        printf("final cp port=%u samples=%" PRIu64 " cnps_sent=%" PRIu64 " F_last=%d F_min=%u F_max=%u"
               " F_last_mbps=%" PRIu64 " q_mean_bytes=%.0f md_fmin=%" PRIu64 " md_half=%" PRIu64
               " pi=%" PRIu64 " cnp_noroute=%" PRIu64 " cnp_alloc_fail=%" PRIu64 " flowinfo_full=%" PRIu64
               " flowinfo_freed=%" PRIu64 " ft_full=%" PRIu64 " ft_evicted=%" PRIu64 " tracked_pkts=%" PRIu64 " ns_per_pkt=%s"
               " ns_per_period=%s timer_ns=%.1f timing_outliers=%" PRIu64 " reported_pkts=%" PRIu64 "\n",
               cp->port, cp->samples, cp->cnps, cp->cp.f, cp->f_min_seen, cp->f_max_seen,
               rocc_cp_rate_bps(&cp->p, (uint32_t)cp->cp.f) / 1000000,
               cp->samples ? (double)cp->qsum_bytes / (double)cp->samples : 0.0, cp->cp.n_md_fmin,
               cp->cp.n_md_half, cp->cp.n_pi, cp->cnp_noroute, cp->cnp_alloc_fail, cp->fi_full,
               cp->fi_freed, cp->ft.n_full, cp->ft.n_evicted, cp->n_pkt, ns_pkt, ns_period,
               cyc_ns(s, s->tsc_pair_cyc, 1), cp->n_outliers,
               s->ft_kind == ROCC_FT_ETRAP ? cp->n_pkt : cp->n_reported);
    }
}
