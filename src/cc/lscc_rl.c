/*
 * lscc_rl.c -- LSCC rate limiting (Alg. 2): the pseudo-queue Q* (Eq. 10)
 * and the flow table (Table I).  See lscc.h for the model.
 *
 * Pseudo-queue: Q* gains every byte that enters the long-haul egress queue
 * and loses R·Δt, computed exactly: R (b/s) · Δt (ps) plus the carried
 * remainder, divided by 8·10^12 (bit/byte · ps/s); the remainder carries
 * the fraction of a byte to the next update.  An empty Q* banks no credit
 * (remainder dropped).
 *
 * Flow table: open addressing on a 96-bit key, linear probing, backward-
 * shift deletion (no tombstones), capacity a power of two.  Idle entries
 * are removed by walking slots 0..mask; a deletion at slot i only moves
 * entries into i, which is examined again, so every idle entry goes.
 */
#include "lscc.h"
#include "cc_util.h"

#include <string.h>

__extension__ typedef unsigned __int128 u128;

#define PS_PER_US   1000000ull
#define BITS_PS     8000000000000ull    /* 8 bit/byte · 10^12 ps/s */

/* §IV-B: "both Qref and Q*ref are set to 2MB". */
#define LSCC_QSREF_BYTES     2000000ull
/* Direct-CNP interval: the paper gives no number; Alg. 2 sends them in
 * rounds ending in ResetTable(T) and §III-B gives the local egress "a
 * duration of T" to bring the sources to R, so one round per period T
 * (ours: the DCQCN NP's 50 µs spacing [3] gave a lower, less fair rate in
 * experiments/crossdc/fig8-stability.ini, docs/crossdc.md). */
/* §III-B: normal CNPs at "a tenfold relationship in our setting"; §IV-B
 * Fig. 9b: "we use this setting in the subsequent evaluation". */
#define LSCC_NCNP_MULTIPLE   10u
/* Long-flow threshold: §III-B "should be set to be greater than BDP".
 * Ours: twice the long-haul BDP (rate × 2D). */
#define LSCC_LONG_BDPS       2u
/* Idle entry lifetime, flow-table size: the paper gives neither.  Ours:
 * 10 periods; 1024 slots (a rack pair's QPs with room; 32 KB). */
#define LSCC_IDLE_PERIODS    10u
#define LSCC_FT_CAPACITY     1024u
/* Largest table (our bound: slot indices in uint32 with room). */
#define LSCC_FT_CAP_MAX      (1u << 24)
/* splitmix64 finalizer (Steele, Lea, Flood, OOPSLA 2014). */
#define SM_GAMMA   0x9e3779b97f4a7c15ull
#define SM_MUL1    0xbf58476d1ce4e5b9ull
#define SM_MUL2    0x94d049bb133111ebull

void lscc_rl_params_default(struct lscc_rl_params *p, uint64_t link_bps, uint64_t one_way_ps, uint64_t period_ps)
{
    memset(p, 0, sizeof *p);
    p->q_ref_bytes = LSCC_QSREF_BYTES;
    p->cnp_interval_ps = period_ps;
    u128 bdp = (u128)link_bps * one_way_ps * 2 / BITS_PS;
    u128 thr = bdp * LSCC_LONG_BDPS + 1;
    p->long_flow_bytes = thr > UINT32_MAX ? UINT32_MAX : (uint32_t)thr;
    p->normal_cnp_multiple = LSCC_NCNP_MULTIPLE;
    p->idle_ps = period_ps * LSCC_IDLE_PERIODS;
    p->capacity = LSCC_FT_CAPACITY;
    p->r_init_bps = link_bps;
}

int lscc_rl_params_blame(const struct lscc_rl_params *p, unsigned *blame, char *why, size_t why_len)
{
    if (p->q_ref_bytes == 0)
        return lscc_fail(blame, LSCC_BLAME_QREF_PSEUDO, why, why_len, "pseudo-queue reference (q*ref) must be > 0");
    if (p->cnp_interval_ps == 0)
        return lscc_fail(blame, LSCC_BLAME_CNP_INTERVAL, why, why_len, "direct-CNP interval must be > 0");
    if (p->long_flow_bytes == 0)
        return lscc_fail(blame, LSCC_BLAME_LONG_FLOW, why, why_len, "long-flow threshold must be > 0");
    if (p->capacity == 0 || p->capacity > LSCC_FT_CAP_MAX || (p->capacity & (p->capacity - 1)))
        return lscc_fail(blame, LSCC_BLAME_TABLE, why, why_len, "flow-table capacity must be a power of two in 1..2^24");
    if (p->idle_ps == 0)
        return lscc_fail(blame, LSCC_BLAME_IDLE, why, why_len, "flow-table idle time must be > 0");
    if (p->r_init_bps > LSCC_RATE_LIMIT_BPS)
        return lscc_fail(blame, LSCC_BLAME_DRAIN_INIT, why, why_len, "initial drain rate must be <= 2^48 b/s");
    return 0;
}

int lscc_rl_params_check(const struct lscc_rl_params *p, char *why, size_t why_len)
{
    return lscc_rl_params_blame(p, NULL, why, why_len);
}

uint64_t lscc_normal_cnp_interval_ps(uint64_t direct_ps, uint32_t multiple)
{
    if (multiple == 0)
        return UINT64_MAX;
    u128 v = (u128)direct_ps * multiple;
    return v >= UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

size_t lscc_rl_storage_bytes(const struct lscc_rl_params *p)
{
    return (size_t)p->capacity * sizeof(struct lscc_rl_entry);
}

void lscc_rl_init(struct lscc_rl *rl, const struct lscc_rl_params *p, struct lscc_rl_entry *slots, uint64_t now_ps)
{
    memset(rl, 0, sizeof *rl);
    rl->e = slots;
    rl->mask = p->capacity - 1;
    memset(slots, 0, lscc_rl_storage_bytes(p));
    rl->rate_bps = p->r_init_bps;
    rl->last_ps = now_ps;
}

/* Eq. 10's drain up to now. */
static void advance(struct lscc_rl *rl, uint64_t now_ps)
{
    if (now_ps <= rl->last_ps)
        return;
    uint64_t dt = now_ps - rl->last_ps;
    rl->last_ps = now_ps;
    if (rl->q_bytes == 0) {
        rl->q_rem = 0;
        return;
    }
    u128 d = (u128)rl->rate_bps * dt + rl->q_rem;
    u128 bytes = d / BITS_PS;
    if (bytes >= rl->q_bytes) {
        rl->q_bytes = 0;
        rl->q_rem = 0;
    } else {
        rl->q_bytes -= (uint64_t)bytes;
        rl->q_rem = (uint64_t)(d % BITS_PS);
    }
}

uint64_t lscc_rl_qlen(struct lscc_rl *rl, uint64_t now_ps)
{
    advance(rl, now_ps);
    return rl->q_bytes;
}

void lscc_rl_input(struct lscc_rl *rl, uint64_t now_ps, uint64_t bytes)
{
    advance(rl, now_ps);
    rl->q_bytes = bytes > UINT64_MAX - rl->q_bytes ? UINT64_MAX : rl->q_bytes + bytes;
}

void lscc_rl_on_feedback(struct lscc_rl *rl, uint64_t now_ps, uint64_t bps)
{
    advance(rl, now_ps);
    rl->rate_bps = bps > LSCC_RATE_LIMIT_BPS ? LSCC_RATE_LIMIT_BPS : bps;
    rl->n_feedback++;
}

/* ---------------------------------------------------------------- table */

static int key_eq(const struct lscc_key *a, const struct lscc_key *b)
{
    return a->sip == b->sip && a->dip == b->dip && a->sport == b->sport && a->dport == b->dport;
}

static uint32_t home(const struct lscc_rl *rl, const struct lscc_key *k)
{
    uint64_t z = ((uint64_t)k->sip << 32 | k->dip) + SM_GAMMA;
    z ^= ((uint64_t)k->sport << 16 | k->dport) * SM_MUL2;
    z = (z ^ (z >> 30)) * SM_MUL1;
    z = (z ^ (z >> 27)) * SM_MUL2;
    z ^= z >> 31;
    return (uint32_t)(z & rl->mask);
}

/* Slot of key, or of the empty slot where it would go (UINT32_MAX if the
 * table is full and key is absent). */
static uint32_t probe(const struct lscc_rl *rl, const struct lscc_key *k)
{
    uint32_t i = home(rl, k);
    for (uint32_t n = 0; n <= rl->mask; n++, i = (i + 1) & rl->mask) {
        const struct lscc_rl_entry *e = &rl->e[i];
        if (!e->used || key_eq(&e->key, k))
            return i;
    }
    return UINT32_MAX;
}

const struct lscc_rl_entry *lscc_rl_find(const struct lscc_rl *rl, const struct lscc_key *key)
{
    uint32_t i = probe(rl, key);
    return i != UINT32_MAX && rl->e[i].used ? &rl->e[i] : NULL;
}

/* The entry of key, inserted if absent; NULL if the table is full. */
static struct lscc_rl_entry *lookup(struct lscc_rl *rl, const struct lscc_key *k, uint32_t ref, uint64_t now_ps)
{
    uint32_t i = probe(rl, k);
    if (i == UINT32_MAX) {
        rl->n_full++;
        return NULL;
    }
    struct lscc_rl_entry *e = &rl->e[i];
    if (!e->used) {
        memset(e, 0, sizeof *e);
        e->key = *k;
        e->used = 1;
        rl->size++;
        rl->n_inserted++;
    }
    e->ref = ref;
    e->last_ps = now_ps;
    return e;
}

/* Backward-shift deletion of slot i. */
static void erase(struct lscc_rl *rl, uint32_t i)
{
    uint32_t j = i;
    for (uint32_t n = 0; n < rl->mask; n++) {
        j = (j + 1) & rl->mask;
        struct lscc_rl_entry *e = &rl->e[j];
        if (!e->used)
            break;
        uint32_t h = home(rl, &e->key);
        /* e may move into the hole i unless its home lies cyclically in (i, j]. */
        int stays = i <= j ? (h > i && h <= j) : (h > i || h <= j);
        if (!stays) {
            rl->e[i] = *e;
            i = j;
        }
    }
    memset(&rl->e[i], 0, sizeof rl->e[i]);
    rl->size--;
}

unsigned lscc_rl_on_data(struct lscc_rl *rl, const struct lscc_rl_params *p, uint64_t now_ps,
                         const struct lscc_key *key, uint32_t ref, uint32_t bytes, int ce)
{
    (void)p;
    struct lscc_rl_entry *e = lookup(rl, key, ref, now_ps);
    if (!e)
        return 0;
    e->tx_bytes = bytes > UINT32_MAX - e->tx_bytes ? UINT32_MAX : e->tx_bytes + bytes;
    if (!ce)
        return 0;
    e->cnp = 1;
    rl->n_ecn_cleared++;
    return LSCC_RL_CLEAR_CE;
}

void lscc_rl_on_cnp(struct lscc_rl *rl, const struct lscc_rl_params *p, uint64_t now_ps,
                    const struct lscc_key *key, uint32_t ref)
{
    (void)p;
    struct lscc_rl_entry *e = lookup(rl, key, ref, now_ps);
    rl->n_remote_cnps++;
    if (e)
        e->cnp = 1;
}

uint32_t lscc_rl_tick(struct lscc_rl *rl, const struct lscc_rl_params *p, uint64_t now_ps, uint32_t *out, uint32_t cap)
{
    rl->n_ticks++;
    /* Idle entries (ours, see lscc.h). */
    for (uint32_t i = 0; i <= rl->mask; i++) {
        while (rl->e[i].used && now_ps >= rl->e[i].last_ps && now_ps - rl->e[i].last_ps >= p->idle_ps) {
            erase(rl, i);
            rl->n_evicted++;
        }
    }
    /* Lines 2-3. */
    advance(rl, now_ps);
    if (rl->q_bytes < p->q_ref_bytes)
        return 0;
    rl->n_ticks_above++;
    /* Lines 4-7. */
    uint32_t n = 0;
    for (uint32_t i = 0; i <= rl->mask; i++) {
        struct lscc_rl_entry *e = &rl->e[i];
        if (!e->used)
            continue;
        if (e->cnp || e->tx_bytes < p->long_flow_bytes) {
            if (n < cap)
                out[n] = e->ref;
            else
                rl->n_truncated++;
            n++;
        }
        e->cnp = 0;
    }
    rl->n_direct_cnps += n < cap ? n : cap;
    return n;
}
