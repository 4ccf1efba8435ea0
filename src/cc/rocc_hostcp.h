/*
 * rocc_hostcp.h -- RoCC rate computation at the host (CoNEXT 2020 §3.6).
 *
 * "RoCC does not require that the CP carry out the rate computation": the
 * CP can send Alg. 1's inputs in the CNP and let the host compute the fair
 * rate, either (1) with all the parameters in the CNP (HOST_FULL form) or
 * (2) with Qcur and F only, the host looking the rest up in a registry
 * (HOST_REG form).  Layouts: rocc_cnp.h.  This module turns a validated
 * host-form CNP (rocc_cnp_check) into the fair rate the RP then applies
 * (rocc_rp_on_cnp), by calling rocc_cp_compute -- the very function the
 * switch-side CP runs, so for the same inputs the rate is the same.
 *
 * Per-CP state at the host.  A host-form CNP carries F, Qcur and Qold, so
 * the host needs no history of a CP (it may hear from a CP in only some of
 * its periods: the flow table picks whom to tell).  What the host keeps per
 * CP is the registry of form (2): one 8-byte entry (CP id -> profile) per CP
 * it may hear from, plus one profile (the parameters, sizeof(struct
 * rocc_cp_params) = 48 B) per distinct parameter set -- in a fabric of
 * uniform links one or two.  Memory = 8 B x CPs + 48 B x profiles, fixed at
 * set-up (caller storage), no allocation afterwards; lookups are a binary
 * search.  A CNP whose CP id is not registered has no effect (counted).
 *
 * Pure: no I/O, no globals, no allocation.
 */
#ifndef ROCC_HOSTCP_H
#define ROCC_HOSTCP_H

#include <stddef.h>
#include <stdint.h>

#include "rocc_cnp.h"
#include "rocc_cp.h"

struct rocc_hostreg_entry {
    uint32_t cp_id;
    uint32_t profile;            /* index into rocc_hostreg.prof */
};

/* The registry: caller storage for cap entries and cap_prof profiles. */
struct rocc_hostreg {
    struct rocc_hostreg_entry *ent;
    size_t n, cap;
    struct rocc_cp_params *prof;
    size_t nprof, cap_prof;
    int sorted;                  /* rocc_hostreg_seal ran; lookups need it */
};

void rocc_hostreg_init(struct rocc_hostreg *r, struct rocc_hostreg_entry *ent, size_t cap,
                       struct rocc_cp_params *prof, size_t cap_prof);

/* Register CP cp_id with parameters p (checked with rocc_cp_params_check;
 * identical parameter sets share one profile).  Set-up time only; O(profiles).
 * 0 on success; -1 if p is invalid, the table is full, or cp_id is already
 * registered with other parameters (why says which; may be NULL). */
int rocc_hostreg_add(struct rocc_hostreg *r, uint32_t cp_id, const struct rocc_cp_params *p,
                     char *why, size_t why_len);

/* Sort the entries for lookup; call once after the last add. */
void rocc_hostreg_seal(struct rocc_hostreg *r);

/* The parameters of cp_id, or NULL if it is not registered (or not sealed). */
const struct rocc_cp_params *rocc_hostreg_find(const struct rocc_hostreg *r, uint32_t cp_id);

/* Bytes of caller storage a registry of n CPs and np profiles takes. */
static inline size_t rocc_hostreg_bytes(size_t n, size_t np)
{
    return n * sizeof(struct rocc_hostreg_entry) + np * sizeof(struct rocc_cp_params);
}

/* What rocc_hostcp_rate did, summed over calls (caller-owned). */
struct rocc_hostcp_stats {
    uint64_t n_rate;             /* RATE form: F used as is */
    uint64_t n_full, n_reg;      /* rates computed from HOST_FULL / HOST_REG CNPs */
    uint64_t n_miss;             /* HOST_REG whose CP id is not in the registry */
    uint64_t n_bad;              /* HOST_REG whose F is outside the registry's [Fmin, Fmax],
                                  * or an unknown form */
};

/* Results of rocc_hostcp_rate besides 0. */
#define ROCC_HOSTCP_EMISS (-1)
#define ROCC_HOSTCP_EBAD  (-2)

/* The fair rate (ΔF units) that CNP c tells its flow to use.  c must come
 * from rocc_cnp_check (which bounds HOST_FULL's parameters and F).
 *   RATE       *rate = c->rate_units
 *   HOST_FULL  *rate = rocc_cp_compute(c's parameters, F, Qcur, Qold)
 *   HOST_REG   *rate = rocc_cp_compute(registry[c->cp_id], F, Qcur, Qold)
 * Returns 0, or ROCC_HOSTCP_EMISS / _EBAD (then *rate is untouched and the
 * CNP must have no effect).  reg may be NULL (every HOST_REG misses); st may
 * be NULL. */
int rocc_hostcp_rate(const struct rocc_hostreg *reg, const struct rocc_cnp *c, uint32_t *rate,
                     struct rocc_hostcp_stats *st);

/* HOST_FULL: the parameters a CP writes into / a host reads from the CNP
 * (only the ones Alg. 1 uses; the units, T and f_init stay at the CP). */
void rocc_hostcp_put_params(struct rocc_cnp *c, const struct rocc_cp_params *p);
void rocc_hostcp_get_params(const struct rocc_cnp *c, struct rocc_cp_params *p);

#endif
