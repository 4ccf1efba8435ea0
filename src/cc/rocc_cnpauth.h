/*
 * rocc_cnpauth.h -- who may send a RoCC CNP, and how a receiver checks it
 * (issue 11 part 5).  Shared by the simulator and the DPDK data plane.
 *
 * Threat model (docs/rocc.md, "Forged CNPs"): a CNP sets a sender's rate, so
 * anyone able to deliver one can throttle a flow to ΔF (a denial of
 * service), and anything that looks like one rides the strict-priority
 * control class.  Three defences, in the order a frame meets them:
 *
 *   1. Edge filtering (switches): hosts never send RoCC CNPs, so a switch
 *      drops every ICMP type 253 arriving on a host-facing port, and any
 *      CNP claiming its own CP address that arrives from outside.
 *   2. Validation (switches and hosts, rocc_cnp_check): exact length, ICMP
 *      checksum, a well-formed quote, and a CP id bound to the outer source
 *      address.  Only a CNP that passes gets the control class; anything
 *      else of type 253 is dropped.
 *   3. Optional authenticator, for fabrics that cannot filter at the edge:
 *      an 8-byte SipHash-2-4 tag keyed with a fabric-wide secret, appended
 *      to the CNP (ICMP code 1, 60 bytes):
 *
 *        tag = SipHash-2-4(key, outer src IPv4 (4 B) || outer dst IPv4 (4 B)
 *                               || ICMP bytes 4..51 (rate, CP id, quote))
 *
 *      in little-endian byte order at ICMP offset 52.  The ICMP checksum
 *      then covers all 60 bytes.  The host forms of §3.6 (rocc_cnp.h) are
 *      authenticated the same way: odd code (3, 5), the tag appended after
 *      their last byte and computed over src || dst || ICMP bytes 4..L-1,
 *      L = 92 or 60 the untagged length, so it covers the inputs and the
 *      parameters a host computes from.  The tag binds the rate and the flow to
 *      the CP address, so a host without the key can neither forge nor
 *      redirect one; it can replay a CNP it saw, which only repeats a rate
 *      the CP really announced (within one recovery period).
 *
 * Binding: a CP id is (switch id << 8) | egress port (docs/rocc.md), so a
 * receiver binds each switch id to the one address that switch sends CNPs
 * from (struct rocc_cp_bind).  A CNP from an address not bound to its CP
 * id's switch has no effect.
 *
 * SipHash-2-4: J.-P. Aumasson and D. J. Bernstein, "SipHash: a fast
 * short-input PRF", INDOCRYPT 2012; written here from the paper's §2
 * description (rocc_cnpauth.c), checked against its published vectors.
 */
#ifndef ROCC_CNPAUTH_H
#define ROCC_CNPAUTH_H

#include <stddef.h>
#include <stdint.h>

#include "rocc_cnp.h"

/* ICMP code of an authenticated CNP, and its sizes (layout above). */
#define ROCC_CNP_ICMP_CODE_AUTH 1
#define ROCC_CNP_TAG_BYTES      8
#define ROCC_CNP_AUTH_ICMP_BYTES (ROCC_CNP_ICMP_BYTES + ROCC_CNP_TAG_BYTES)   /* 60 */
#define ROCC_CNP_KEY_BYTES      16

/* SipHash-2-4 of msg under a 16-byte key (the paper's k0 = key[0..7],
 * k1 = key[8..15], little-endian). */
uint64_t rocc_siphash24(const uint8_t key[ROCC_CNP_KEY_BYTES], const uint8_t *msg, size_t len);

/* One switch's CP address: every CP id (node << 8 | port) belongs to it. */
struct rocc_cp_bind { uint32_t node; uint32_t addr; };

/* 1 if the table binds cp_id's switch (cp_id >> 8) to addr, else 0. */
int rocc_cnp_bound(const struct rocc_cp_bind *tab, size_t n, uint32_t cp_id, uint32_t addr);

/* What a receiver requires.  bind == NULL (nbind 0): no binding check.
 * key == NULL: no authenticator; an authenticated CNP (code 1) is then
 * checked for length and checksum only, its tag ignored. */
struct rocc_cnp_policy {
    const struct rocc_cp_bind *bind;
    size_t nbind;
    const uint8_t *key;          /* ROCC_CNP_KEY_BYTES, or NULL */
    /* Host forms accepted: bit (1 << form) for ROCC_CNP_FORM_HOST_FULL/_REG.
     * The RATE form is always accepted; 0 (and a NULL policy) accept it only. */
    uint32_t forms;
};
#define ROCC_CNP_FORMS_HOST ((1u << ROCC_CNP_FORM_HOST_FULL) | (1u << ROCC_CNP_FORM_HOST_REG))

/* Validate the ICMP message icmp[0..len) of an IPv4 packet from src to dst
 * (host order); len is what the IPv4 total length says the ICMP message
 * holds.  0 and *out filled (out may be NULL) if it is a CNP the policy
 * accepts, else a negative ROCC_CNP_E* code:
 *   ESHORT/ELEN  len is not the code's: 52/60 (codes 0/1), 92/100 (2/3),
 *                60/68 (4/5)
 *   ETYPE        type/code not 253/0..5
 *   EFORM        a host form (codes 2..5) the policy's forms do not accept
 *   ECSUM        the ICMP checksum over len bytes does not verify
 *   EIPHDR       the quoted IPv4 header is not version 4/IHL 5/UDP
 *   EAUTH        a key is set and the CNP has no tag (code 0) or a wrong one
 *   EPARAM       host form: a non-zero reserved bit/byte; HOST_FULL: the
 *                parameters fail rocc_cp_params_check's rules (Qref > 0,
 *                Qref < Qmid < Qmax, 0 < Fmin <= Fmax <= INT32_MAX, α̃, β̃ <=
 *                256.0) or F is outside [Fmin, Fmax]; HOST_REG: F is 0 or
 *                above INT32_MAX (the registry's bounds are the host's check)
 *   EBIND        a binding table is set and cp_id's switch is not bound to src
 * Never reads past len; no allocation. */
int rocc_cnp_check(const struct rocc_cnp_policy *pol, uint32_t src, uint32_t dst,
                   const uint8_t *icmp, size_t len, struct rocc_cnp *out);

/* Build an authenticated CNP (60 bytes) into buf: rocc_cnp_encode's 52
 * bytes with code 1, the tag, and the checksum over all 60.  Returns
 * ROCC_CNP_AUTH_ICMP_BYTES, or 0 if len is too small or a pointer is NULL. */
size_t rocc_cnp_encode_auth(const struct rocc_cnp *c, const uint8_t key[ROCC_CNP_KEY_BYTES],
                            uint32_t src, uint32_t dst, uint8_t *buf, size_t len);

/* Encodes c as a CNP of c->form (any of the three forms of rocc_cnp.h),
 * with the tag under key when key != NULL (odd code), over the outer src
 * and dst (host order).  For the host forms, rate_units is F before the
 * update.  Returns rocc_cnp_form_bytes(c->form, key != NULL), or 0 if len is
 * too small, a pointer is NULL or the form is unknown.  Does not check the
 * values: anyone can write anything; rocc_cnp_check is the gate. */
size_t rocc_cnp_encode_form(const struct rocc_cnp *c, const uint8_t *key, uint32_t src, uint32_t dst,
                            uint8_t *buf, size_t len);

/* "32 hex digits" -> key; 0 on success, -1 otherwise. */
int rocc_cnp_parse_key(const char *hex, uint8_t key[ROCC_CNP_KEY_BYTES]);

#endif
