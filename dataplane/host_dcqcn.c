/* host_dcqcn.c -- rocc-host --cc dcqcn; see host_dcqcn.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "host_dcqcn.h"
#include "roce_frame.h"

#define PS_PER_US 1000000.0

int hdc_opt_cc(struct host *h, const char *name)
{
    if (!strcmp(name, "none")) { free(h->dc); h->dc = NULL; return 0; }
    if (strcmp(name, "dcqcn")) return -1;
    if (!h->dc) {
        h->dc = calloc(1, sizeof *h->dc);
        if (!h->dc) return -1;
        h->dc->o_rai = h->dc->o_rhai = h->dc->o_rmin = h->dc->o_timer = h->dc->o_k = h->dc->o_bc = -1;
        h->dc->o_f = h->dc->o_g = -1;
    }
    return 0;
}

int hdc_opt_params(struct host *h, char *spec)
{
    char *save = NULL;
    if (!h->dc) { fprintf(stderr, "--dcqcn: give --cc dcqcn first\n"); return -1; }
    for (char *tok = strtok_r(spec, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        double v;
        if (!eq) { fprintf(stderr, "--dcqcn: '%s' is not KEY=VALUE\n", tok); return -1; }
        *eq++ = 0;
        if (pkt_parse_dbl(eq, 0, 1e12, &v)) {
            fprintf(stderr, "--dcqcn: %s=%s is not a number >= 0\n", tok, eq);
            return -1;
        }
        if (!strcmp(tok, "rai")) h->dc->o_rai = v;
        else if (!strcmp(tok, "rhai")) h->dc->o_rhai = v;
        else if (!strcmp(tok, "rmin")) h->dc->o_rmin = v;
        else if (!strcmp(tok, "timer")) h->dc->o_timer = v;
        else if (!strcmp(tok, "k")) h->dc->o_k = v;
        else if (!strcmp(tok, "bc")) h->dc->o_bc = v;
        else if (!strcmp(tok, "f")) h->dc->o_f = v;
        else if (!strcmp(tok, "g")) h->dc->o_g = v;
        else {
            fprintf(stderr, "--dcqcn: unknown key '%s' (rai, rhai, rmin, timer, k, bc, f, g)\n", tok);
            return -1;
        }
    }
    return 0;
}

static void refresh_next(struct host_dcqcn *d, unsigned n)
{
    d->next_ps = UINT64_MAX;
    for (unsigned i = 0; i < n; i++) {
        uint64_t t = dcqcn_deadline(&d->st[i]);
        if (t < d->next_ps) d->next_ps = t;
    }
}

int hdc_init(struct host *h)
{
    struct host_dcqcn *d = h->dc;
    char why[160];
    dcqcn_params_default(&d->p, h->line_bps, DCQCN_PROFILE_PAPER);
    if (d->o_rai >= 0) d->p.r_ai_bps = (uint64_t)(d->o_rai * 1e6 + 0.5);
    if (d->o_rhai >= 0) d->p.r_hai_bps = (uint64_t)(d->o_rhai * 1e6 + 0.5);
    if (d->o_rmin >= 0) d->p.min_rate_bps = (uint64_t)(d->o_rmin * 1e6 + 0.5);
    if (d->o_timer >= 0) d->p.timer_ps = (uint64_t)(d->o_timer * PS_PER_US + 0.5);
    if (d->o_k >= 0) d->p.alpha_interval_ps = (uint64_t)(d->o_k * PS_PER_US + 0.5);
    if (d->o_bc >= 0) d->p.byte_counter = (uint64_t)d->o_bc;
    if (d->o_f >= 0) d->p.fast_recovery = (uint32_t)d->o_f;
    if (d->o_g >= 0) d->p.g = d->o_g;
    if (dcqcn_params_check(&d->p, why, sizeof why)) {
        fprintf(stderr, "--dcqcn: %s\n", why);
        return -1;
    }
    for (unsigned i = 0; i < h->nflows; i++) dcqcn_init(&d->st[i], &d->p, h->line_bps, 0);
    d->next_ps = UINT64_MAX;
    printf("dcqcn line_mbps=%.3f rai_mbps=%.3f rhai_mbps=%.3f rmin_mbps=%.3f timer_us=%.1f k_us=%.1f bc=%" PRIu64
           " f=%u g=%g\n", (double)h->line_bps / 1e6, (double)d->p.r_ai_bps / 1e6, (double)d->p.r_hai_bps / 1e6,
           (double)d->p.min_rate_bps / 1e6, (double)d->p.timer_ps / PS_PER_US,
           (double)d->p.alpha_interval_ps / PS_PER_US, d->p.byte_counter, d->p.fast_recovery, d->p.g);
    return 0;
}

uint64_t hdc_rate_bps(const struct host *h, const struct flow *f)
{
    return dcqcn_rate_bps(&h->dc->st[f - h->flows]);
}

void hdc_on_cnp(struct host *h, const uint8_t *f, uint32_t len, const struct pkt_info *pi, uint64_t tsc)
{
    struct host_dcqcn *d = h->dc;
    bool from_switch = h->have_allow && (pi->src_ip & h->allow_mask) == h->allow_net;
    if (pkt_roce_cnp_ok(f, len, pi)) { d->cnp_bad++; return; }
    for (unsigned i = 0; i < h->nflows; i++) {
        struct flow *fl = &h->flows[i];
        if (fl->qpn != pi->dest_qpn) continue;
        if (!from_switch && pi->src_ip != fl->dst_ip) { d->cnp_denied++; return; }
        uint64_t old_bps = flow_rate_bps(h, fl), tps = now_ps(h, tsc);
        dcqcn_on_timer(&d->st[i], &d->p, tps);     /* timers due before it first */
        dcqcn_on_cnp(&d->st[i], &d->p, tps);
        fl->cnps++;
        d->cnp_ok++;
        repace(h, fl, old_bps);
        refresh_next(d, h->nflows);
        return;
    }
    d->cnp_nomatch++;
}

void hdc_timers(struct host *h, uint64_t tps)
{
    struct host_dcqcn *d = h->dc;
    if (tps < d->next_ps) return;
    for (unsigned i = 0; i < h->nflows; i++) {
        if (dcqcn_deadline(&d->st[i]) > tps) continue;
        uint64_t old_bps = flow_rate_bps(h, &h->flows[i]);
        dcqcn_on_timer(&d->st[i], &d->p, tps);
        repace(h, &h->flows[i], old_bps);
    }
    refresh_next(d, h->nflows);
}

void hdc_on_sent(struct host *h, unsigned i, uint64_t bytes, uint64_t tsc)
{
    struct host_dcqcn *d = h->dc;
    if (!d->p.byte_counter || !d->st[i].active) return;
    uint64_t old_bps = flow_rate_bps(h, &h->flows[i]);
    dcqcn_on_sent(&d->st[i], &d->p, bytes, now_ps(h, tsc));
    repace(h, &h->flows[i], old_bps);
    refresh_next(d, h->nflows);
}

uint64_t hdc_next_tsc(const struct host *h)
{
    uint64_t ps = h->dc->next_ps;
    if (ps == UINT64_MAX) return UINT64_MAX;
    return h->t0 + (uint64_t)((__extension__ (unsigned __int128)ps * h->hz) / 1000000000000ull);
}

void hdc_print_final(const struct host *h)
{
    const struct host_dcqcn *d = h->dc;
    for (unsigned i = 0; i < h->nflows; i++) {
        const struct dcqcn *s = &d->st[i];
        char a[16];
        printf("final dcqcn qpn=%u dst=%s rc_mbps=%.3f rt_mbps=%.3f cnps=%u decreases=%u fr=%u ai=%u hai=%u\n",
               h->flows[i].qpn, pkt_ip_str(h->flows[i].dst_ip, a, sizeof a), s->rc / 1e6, s->rt / 1e6, s->n_cnp,
               s->n_decrease, s->n_fr, s->n_ai, s->n_hai);
    }
    printf("final dcqcn_cnp ok=%" PRIu64 " bad=%" PRIu64 " denied=%" PRIu64 " nomatch=%" PRIu64 "\n", d->cnp_ok,
           d->cnp_bad, d->cnp_denied, d->cnp_nomatch);
}
