/*
 * rocc_flowtable.c -- open-addressing flow tables for the RoCC CP (§3.4).
 *
 * Layout: capacity slots of struct rocc_ft_entry; the home slot of a key is
 * mix64(key) & mask and lookups probe forward until the key or an empty slot
 * (count == 0), at most capacity slots, so a full table still terminates.
 *
 * Deletion is backward shift: when slot i is emptied, each following entry
 * of the cluster whose home is not cyclically in (i, j] moves into the hole,
 * which moves on to j.  With a full table the scan stops after capacity − 1
 * slots.  No tombstones, so probe lengths never degrade.
 *
 * select never deletes while it walks: it first marks entries to remove with
 * count = DEAD, then purge() walks slots 0..mask deleting DEAD entries.  A
 * deletion at slot i only moves entries into i or into slots it has not
 * reached yet, except at a wrap where the moved entries come from slots it
 * already cleaned; so every DEAD entry is removed exactly once.
 *
 * BUBBLE does not hash: its entries are a ranked list e[0..size-1] (slot 0
 * the top), searched linearly, so rank order is slot order.  AFD hashes
 * like the others; its shadow buffer is a ring of keys after e[].
 */
#include "rocc_flowtable.h"

#include <string.h>

/* count == 0: empty slot; DEAD: marked for removal inside select; counts
 * saturate at COUNT_MAX (our encoding, no paper constant). */
#define COUNT_DEAD UINT32_MAX
#define COUNT_MAX  (UINT32_MAX - 1u)
/* Largest capacity: slot indices and size fit in uint32 (our limit). */
#define CAP_MAX    (1u << 31)
/* Default ETRAP seed: any fixed value keeps runs reproducible (our choice;
 * the 64-bit golden ratio, as splitmix64 uses). */
#define SEED_DEFAULT 0x9e3779b97f4a7c15ull
/* splitmix64 increment and finalizer constants (Steele, Lea, Flood,
 * "Fast splittable pseudorandom number generators", OOPSLA 2014; the
 * finalizer is Stafford's "Mix13"). */
#define SM_GAMMA   0x9e3779b97f4a7c15ull
#define SM_MUL1    0xbf58476d1ce4e5b9ull
#define SM_MUL2    0x94d049bb133111ebull

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * SM_MUL1;
    z = (z ^ (z >> 27)) * SM_MUL2;
    return z ^ (z >> 31);
}

static uint32_t home(const struct rocc_flowtable *ft, uint64_t key)
{
    return (uint32_t)(mix64(key + SM_GAMMA) & ft->mask);
}

static uint64_t rng_next(struct rocc_flowtable *ft)
{
    ft->rng += SM_GAMMA;
    return mix64(ft->rng);
}

void rocc_ft_params_default(struct rocc_ft_params *p, enum rocc_ft_kind kind, uint32_t capacity, uint64_t period_ps)
{
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->capacity = capacity;
    p->max_age_ps = period_ps > UINT64_MAX / 2 ? UINT64_MAX : 2 * period_ps;
    p->sample_one_in = ROCC_FT_ETRAP_SAMPLE_DEFAULT;
    p->elephant_count = ROCC_FT_ETRAP_ELEPHANT_DEFAULT;
    p->shadow = ROCC_FT_AFD_SHADOW_DEFAULT;
    p->seed = SEED_DEFAULT;
}

static int cap_ok(uint32_t c)
{
    return c != 0 && c <= CAP_MAX && (c & (c - 1)) == 0;
}

size_t rocc_ft_storage_bytes(uint32_t capacity)
{
    uint64_t b = (uint64_t)capacity * sizeof(struct rocc_ft_entry);

    if (!cap_ok(capacity) || b != (size_t)b) return 0;   /* 32-bit hosts */
    return (size_t)b;
}

size_t rocc_ft_mem_bytes(const struct rocc_ft_params *p)
{
    if (!p) return 0;
    switch (p->kind) {
    case ROCC_FT_QUEUE:
    case ROCC_FT_BOUNDED:
        return rocc_ft_storage_bytes(p->capacity);
    case ROCC_FT_ETRAP:
        return p->sample_one_in && p->elephant_count ? rocc_ft_storage_bytes(p->capacity) : 0;
    case ROCC_FT_AFD: {
        size_t t = rocc_ft_storage_bytes(p->capacity);
        if (!t || !p->sample_one_in || !p->elephant_count || p->shadow == 0 || p->shadow > p->capacity)
            return 0;
        return t + (size_t)p->shadow * sizeof(uint64_t);   /* e[] is 24-byte entries: keys stay 8-aligned */
    }
    case ROCC_FT_BUBBLE:
        if (p->capacity == 0 || p->capacity > ROCC_FT_BUBBLE_SIZE_MAX || !p->sample_one_in || !p->elephant_count)
            return 0;
        return (size_t)p->capacity * sizeof(struct rocc_ft_entry);
    }
    return 0;
}

int rocc_ft_init(struct rocc_flowtable *ft, const struct rocc_ft_params *p, void *storage)
{
    size_t bytes;

    if (!ft || !p || !storage) return -1;
    bytes = rocc_ft_mem_bytes(p);
    if (bytes == 0) return -1;

    memset(ft, 0, sizeof *ft);
    ft->p = *p;
    ft->e = storage;
    ft->mask = p->kind == ROCC_FT_BUBBLE ? 0 : p->capacity - 1;   /* BUBBLE does not hash */
    ft->rng = p->seed;
    if (p->kind == ROCC_FT_AFD)
        ft->sh = (uint64_t *)(void *)(ft->e + p->capacity);
    memset(storage, 0, bytes);
    return 0;
}

int rocc_ft_rehash(struct rocc_flowtable *ft, void *storage, uint32_t capacity)
{
    if (!ft || !storage || rocc_ft_storage_bytes(capacity) == 0 || capacity <= ft->size ||
        ft->p.kind == ROCC_FT_AFD || ft->p.kind == ROCC_FT_BUBBLE)
        return -1;
    struct rocc_ft_entry *old = ft->e;
    uint32_t oldcap = ft->mask + 1;
    memset(storage, 0, rocc_ft_storage_bytes(capacity));
    ft->e = storage;
    ft->mask = capacity - 1;
    ft->p.capacity = capacity;
    ft->hand = 0;
    for (uint32_t i = 0; i < oldcap; i++) {
        if (old[i].count == 0)
            continue;
        uint32_t j = home(ft, old[i].key);
        while (ft->e[j].count != 0)
            j = (j + 1) & ft->mask;
        ft->e[j] = old[i];
    }
    return 0;
}

/* Slot of key or UINT32_MAX; adds the slots inspected to *probes. */
static uint32_t lookup(const struct rocc_flowtable *ft, uint64_t key, uint64_t *probes)
{
    uint32_t i = home(ft, key), n;

    for (n = 0; n <= ft->mask; n++) {
        const struct rocc_ft_entry *e = &ft->e[i];
        if (e->count == 0) { *probes += n + 1; return UINT32_MAX; }
        if (e->key == key) { *probes += n + 1; return i; }
        i = (i + 1) & ft->mask;
    }
    *probes += n;
    return UINT32_MAX;
}

/* Caller guarantees size < capacity and key absent. */
static void insert(struct rocc_flowtable *ft, uint64_t key, uint32_t ref, uint64_t now)
{
    uint32_t i = home(ft, key);

    while (ft->e[i].count != 0)
        i = (i + 1) & ft->mask;
    ft->e[i].key = key;
    ft->e[i].ref = ref;
    ft->e[i].count = 1;
    ft->e[i].last_ps = now;
    ft->size++;
    if (ft->size > ft->size_max) ft->size_max = ft->size;
    ft->n_inserted++;
}

/* Backward-shift deletion of the entry in slot i. */
static void delete_slot(struct rocc_flowtable *ft, uint32_t i)
{
    uint32_t j = i, n;

    for (n = 1; n <= ft->mask; n++) {
        uint32_t k;
        j = (j + 1) & ft->mask;
        if (ft->e[j].count == 0) break;
        k = home(ft, ft->e[j].key);
        /* Entry j stays iff its home k lies cyclically in (i, j]. */
        if (i <= j ? (i < k && k <= j) : (i < k || k <= j)) continue;
        ft->e[i] = ft->e[j];
        i = j;
    }
    memset(&ft->e[i], 0, sizeof ft->e[i]);
    ft->size--;
}

static void touch(struct rocc_ft_entry *e, uint32_t ref, uint64_t now)
{
    if (e->count < COUNT_MAX) e->count++;
    e->ref = ref;
    e->last_ps = now;
}

/* ETRAP: free one slot with the rotating pointer; 1 on success. */
static int etrap_evict(struct rocc_flowtable *ft)
{
    uint32_t n;

    for (n = 0; n <= ft->mask; n++) {
        uint32_t s = ft->hand;
        struct rocc_ft_entry *e = &ft->e[s];
        ft->hand = (ft->hand + 1) & ft->mask;
        if (e->count == 0) return 1;            /* not full after all */
        if (e->count < ft->p.elephant_count) {
            delete_slot(ft, s);
            ft->n_evicted++;
            return 1;
        }
        e->count = e->count >> 1 ? e->count >> 1 : 1;
    }
    return 0;
}

/* One in sample_one_in packets, from the seeded PRNG. */
static int sampled(struct rocc_flowtable *ft)
{
    if (rng_next(ft) % ft->p.sample_one_in != 0) return 0;
    ft->n_sampled++;
    return 1;
}

/* AFD: the sample enters the shadow buffer; when it is full, the oldest
 * sample leaves first (its flow's m_i drops, the entry goes at 0), so the
 * table never holds more flows than the shadow buffer has samples. */
static void afd_enqueue(struct rocc_flowtable *ft, uint64_t key, uint32_t ref, uint64_t now)
{
    uint32_t s;

    if (ft->sh_n == ft->p.shadow) {
        uint64_t old = ft->sh[ft->sh_pos];
        s = lookup(ft, old, &ft->n_probes);
        if (s != UINT32_MAX && --ft->e[s].count == 0) {   /* always found: every sample has its entry */
            delete_slot(ft, s);
            ft->n_evicted++;
        }
    } else {
        ft->sh_n++;
    }
    ft->sh[ft->sh_pos] = key;
    ft->sh_pos = ft->sh_pos + 1 == ft->p.shadow ? 0 : ft->sh_pos + 1;
    s = lookup(ft, key, &ft->n_probes);
    if (s != UINT32_MAX) touch(&ft->e[s], ref, now);
    else insert(ft, key, ref, now);                       /* room: <= shadow - 1 other flows */
}

/* BUBBLE: linear search of the ranked list; a hit climbs one rank when it
 * has caught up with the entry above; a miss takes the bottom slot. */
static void bubble_enqueue(struct rocc_flowtable *ft, uint64_t key, uint32_t ref, uint64_t now)
{
    struct rocc_ft_entry *e = ft->e;
    uint32_t i;

    for (i = 0; i < ft->size; i++)
        if (e[i].key == key) break;
    ft->n_probes += i < ft->size ? i + 1 : ft->size;
    if (i < ft->size) {
        touch(&e[i], ref, now);
        if (i > 0 && e[i].count >= e[i - 1].count) {
            struct rocc_ft_entry t = e[i - 1];
            e[i - 1] = e[i];
            e[i] = t;
            ft->n_bubbled++;
        }
        return;
    }
    if (ft->size == ft->p.capacity) {
        i = ft->size - 1;                                 /* the bottom makes room */
        ft->n_evicted++;
    } else {
        i = ft->size++;
        if (ft->size > ft->size_max) ft->size_max = ft->size;
    }
    e[i] = (struct rocc_ft_entry){ .key = key, .ref = ref, .count = 1, .last_ps = now };
    ft->n_inserted++;
}

void rocc_ft_on_enqueue(struct rocc_flowtable *ft, uint64_t key, uint32_t ref, uint64_t now_ps)
{
    uint32_t s;

    if (ft->p.kind == ROCC_FT_AFD || ft->p.kind == ROCC_FT_BUBBLE) {
        if (!sampled(ft)) return;
        if (ft->p.kind == ROCC_FT_AFD) afd_enqueue(ft, key, ref, now_ps);
        else bubble_enqueue(ft, key, ref, now_ps);
        return;
    }
    if (ft->p.kind == ROCC_FT_ETRAP && !sampled(ft)) return;
    s = lookup(ft, key, &ft->n_probes);
    if (s != UINT32_MAX) {
        touch(&ft->e[s], ref, now_ps);
        return;
    }
    if (ft->size == ft->p.capacity &&
        !(ft->p.kind == ROCC_FT_ETRAP && etrap_evict(ft))) {
        ft->n_full++;
        return;
    }
    insert(ft, key, ref, now_ps);
}

void rocc_ft_on_dequeue(struct rocc_flowtable *ft, uint64_t key)
{
    uint32_t s;

    if (ft->p.kind != ROCC_FT_QUEUE) return;
    s = lookup(ft, key, &ft->n_probes);
    if (s == UINT32_MAX) {
        ft->n_dequeue_miss++;
        return;
    }
    if (--ft->e[s].count == 0) {
        delete_slot(ft, s);
        ft->n_erased++;
    }
}

static void purge(struct rocc_flowtable *ft)
{
    uint32_t i;

    for (i = 0; i <= ft->mask; i++) {
        while (ft->e[i].count == COUNT_DEAD) {
            delete_slot(ft, i);
            ft->n_evicted++;
        }
    }
}

/* BUBBLE select: report in rank order, halve, drop zeros keeping order. */
static size_t bubble_select(struct rocc_flowtable *ft, uint32_t *out, size_t max)
{
    size_t n = 0;
    uint32_t i, kept = 0;

    for (i = 0; i < ft->size; i++) {
        struct rocc_ft_entry *e = &ft->e[i];
        if (e->count >= ft->p.elephant_count) {
            if (n < max) out[n++] = e->ref;
            else ft->n_truncated++;
        }
        e->count >>= 1;
        if (e->count == 0) {
            ft->n_evicted++;
            continue;
        }
        if (kept != i) ft->e[kept] = *e;
        kept++;
    }
    for (i = kept; i < ft->size; i++) memset(&ft->e[i], 0, sizeof ft->e[i]);
    ft->size = kept;
    return n;
}

size_t rocc_ft_select(struct rocc_flowtable *ft, uint64_t now_ps, uint32_t *out, size_t max)
{
    size_t n = 0;
    uint32_t i, dead = 0;

    if (ft->p.kind == ROCC_FT_BUBBLE) return bubble_select(ft, out, max);
    for (i = 0; i <= ft->mask; i++) {
        struct rocc_ft_entry *e = &ft->e[i];
        int pick = 0;

        if (e->count == 0) continue;
        switch (ft->p.kind) {
        case ROCC_FT_QUEUE:
            pick = 1;
            break;
        case ROCC_FT_AFD:
            pick = e->count >= ft->p.elephant_count;
            break;
        case ROCC_FT_BUBBLE:              /* handled by bubble_select */
            break;
        case ROCC_FT_BOUNDED:
            if (now_ps > e->last_ps && now_ps - e->last_ps > ft->p.max_age_ps) {
                e->count = COUNT_DEAD;
                dead++;
            } else {
                pick = 1;
            }
            break;
        case ROCC_FT_ETRAP:
            pick = e->count >= ft->p.elephant_count;
            if (e->count >> 1) {
                e->count >>= 1;
            } else {
                e->count = COUNT_DEAD;
                dead++;
            }
            break;
        }
        if (!pick) continue;
        if (n < max) out[n++] = e->ref;
        else ft->n_truncated++;
    }
    if (dead) purge(ft);
    return n;
}

uint32_t rocc_ft_size(const struct rocc_flowtable *ft)
{
    return ft->size;
}

const struct rocc_ft_entry *rocc_ft_find(const struct rocc_flowtable *ft, uint64_t key)
{
    uint64_t probes = 0;
    uint32_t s;

    if (ft->p.kind == ROCC_FT_BUBBLE) {
        for (s = 0; s < ft->size; s++)
            if (ft->e[s].key == key) return &ft->e[s];
        return NULL;
    }
    s = lookup(ft, key, &probes);

    return s == UINT32_MAX ? NULL : &ft->e[s];
}
