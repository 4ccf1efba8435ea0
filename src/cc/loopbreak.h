/*
 * loopbreak.h -- credit-loop deadlock detection by token passing, and the
 * two reactions compared with Escape in the dissertation's §4.6.4: Loop
 * Breaker (LB, drop frames) and Deadlock Breaker (DLB, extra buffer along
 * the loop).  After Shpiner, Zahavi, Zdornov, Anker, Kadosh, "Unlocking
 * credit loop deadlock", HotNets 2016 ([83] in the dissertation).
 *
 * Sources.  The HotNets paper's full text could not be obtained here (only
 * its abstract); the mechanism below follows (a) the dissertation's
 * description (§4.5.1: a flow table of ingress-egress port pairs; §4.6.4 and
 * §4.7: token-passing detection, master chosen by a token, LB drops
 * (dissertation's model) or reroutes, DLB passes a token that allocates
 * extra buffer along the loop) and (b) claim 1 of the authors' patent
 * US 10,630,590 "Credit loop deadlock detection and recovery in arbitrary
 * topology networks" (same group, provisional filed July 2016): an egress
 * port is deadlock-suspected when its queue is non-empty and it has had no
 * throughput for a predetermined interval; suspected switches periodically
 * send a credit loop control message (CLCM) carrying a switch-port-unique
 * id (SPUID) through the suspected egress port; suspected next hops forward
 * it through their suspected egress port; the switch that receives a CLCM
 * whose SPUID equals one it sent is the master and resolves the deadlock in
 * a release phase by sending new CLCMs around the loop.  Every detail these
 * texts leave open is our choice, marked "choice:" below and listed in
 * docs/escape.md ("Loop Breaker and Deadlock Breaker").
 *
 * Model: one struct lb_sw per switch, ports numbered 0..nports-1 (a port is
 * both an ingress and an egress).  The caller
 *   - reports every lossless data frame entering an egress queue and leaving
 *     it (lb_on_enqueue / lb_on_dequeue, with its ingress port): the matrix
 *     dep[in][out] of queued bytes is the "ingress-egress port pairs" table
 *     that tells which egress a token arriving on an ingress must follow;
 *   - calls lb_tick() every params.tick_ps with each egress port's queued
 *     lossless bytes and its transmitted-bytes counter;
 *   - hands every received token to lb_on_token() (after lb_token_decode()
 *     for raw bytes);
 *   - carries out the actions returned in the caller's array: send a token
 *     out of a port (control class, never paused), drop the loop's frames
 *     queued at an egress (LB), grant / withdraw extra buffer on an ingress
 *     (DLB: the ingress's XOFF threshold is raised by `bytes`).
 *
 * Detection (patent claim 1; timing: choice):
 *   stalled(e)   queue(e) > 0 and tx(e) unchanged since the previous tick;
 *                the stall clock restarts at every tick where e is not
 *                stalled.  suspected(e) once stalled for >= suspect_ps.
 *   originate    a suspected port not in hold-off sends DETECT{origin =
 *                SPUID(e), hops 0, seq} out of e, again every
 *                token_period_ps while suspected.
 *   forward      a DETECT arriving on ingress i follows the suspected egress
 *                e with the most bytes queued from i (dep[i][e] > 0; ties:
 *                lowest e).  No such e: the chain ends (a paused chain
 *                without a cycle) and the token dies (dead_end).
 *   master       origin == SPUID(e): the token went round; this switch is
 *                the master and the loop is confirmed (loops).  Origin of
 *                this switch on another port: dropped (own_other).
 *   one master   choice (Chang-Roberts election): a token is forwarded only
 *                if its origin is larger than SPUID(e) -- the smaller one is
 *                dropped (suppressed), so only the largest SPUID on a loop
 *                completes the round and one switch reacts per loop.
 *   expiry       hops counts forwards; a token that would reach max_hops is
 *                dropped (expired): no token lives forever.
 * Reactions at the master (egress e, loop ingress i):
 *   LB   action DROP(e, i): the caller drops the frames queued at e that
 *        came in on i (choice: the loop's frames only, see docs); e then
 *        holds off (no new token, no new confirmation) for holdoff_ps.
 *   DLB  action GRANT(i, grant_bytes) and RELEASE{origin, hops 0} out of e;
 *        each switch that receives RELEASE on ingress i' forwards it like a
 *        DETECT (egress with most bytes from i', which must be suspected)
 *        and grants grant_bytes on i' -- the upstream port may send again
 *        into the extra space, one hop after another round the loop.  A
 *        grant lasts grant_ps (re-granting extends it), then UNGRANT(i).
 *        RELEASE back at its origin ends the round (release_done).
 * A token whose fields are out of range, or that arrives on a port that
 * does not exist, has no effect and is counted (malformed); a RELEASE whose
 * next egress is not suspected grants nothing (release_refused), so a forged
 * RELEASE can only affect ports already stalled.
 *
 * Nothing here allocates (the caller provides lb_storage_bytes() of memory
 * to lb_init), does I/O or keeps global state; time is integer picoseconds.
 */
#ifndef ROCC_LOOPBREAK_H
#define ROCC_LOOPBREAK_H

#include <stddef.h>
#include <stdint.h>

enum lb_mode { LB_MODE_DROP = 1, LB_MODE_BUFFER = 2 };   /* LB, DLB */

enum lb_tok_kind { LB_TOK_DETECT = 1, LB_TOK_RELEASE = 2 };

/* Bytes of an encoded token (lb_token_encode).  Layout (big endian):
 * 0-1 magic "LB", 2 version (1), 3 kind, 4 hops, 5-7 zero, 8-11 origin
 * SPUID, 12-15 seq.  Choice: the papers give no format. */
#define LB_TOKEN_BYTES 16
#define LB_TOKEN_VERSION 1

/* Largest port count (SPUID = (switch id + 1) << 8 | port). */
#define LB_MAX_PORTS 256u
#define LB_MAX_SWITCH_ID 0xfffffeu

struct lb_token {
    uint8_t  kind;      /* enum lb_tok_kind */
    uint8_t  hops;      /* forwards so far */
    uint32_t origin;    /* SPUID of the originating (switch, egress port) */
    uint32_t seq;       /* origin's round number (informational) */
};

struct lb_params {
    uint8_t  mode;            /* enum lb_mode */
    uint8_t  max_hops;        /* token expiry (>= 2) */
    uint64_t tick_ps;         /* how often the caller calls lb_tick */
    uint64_t suspect_ps;      /* stall time before an egress is suspected */
    uint64_t token_period_ps; /* a suspected port re-sends its token this often */
    uint64_t holdoff_ps;      /* after a confirmation: no token from / confirmation at that egress */
    uint32_t grant_bytes;     /* DLB: extra buffer per loop ingress */
    uint64_t grant_ps;        /* DLB: how long a grant lasts */
};

enum lb_act_kind {
    LB_ACT_SEND = 1,     /* send tok out of port */
    LB_ACT_LOOP,         /* a loop was confirmed here: master egress port, ingress in_port (report only) */
    LB_ACT_DROP,         /* LB: drop frames queued at egress port that came in on in_port */
    LB_ACT_GRANT,        /* DLB: raise in_port's XOFF threshold by bytes */
    LB_ACT_UNGRANT,      /* DLB: withdraw in_port's grant */
};

struct lb_action {
    uint8_t  kind;       /* enum lb_act_kind */
    uint16_t port;       /* egress (SEND, LOOP, DROP) */
    uint16_t in_port;    /* ingress (LOOP, DROP, GRANT, UNGRANT) */
    uint32_t bytes;      /* GRANT */
    struct lb_token tok; /* SEND */
};

/* What lb_tick needs to know of one egress port. */
struct lb_obs {
    uint64_t queued_bytes;   /* lossless data bytes queued at the egress now */
    uint64_t tx_bytes;       /* monotone counter of bytes the egress has sent */
};

struct lb_stats {
    uint64_t originated, forwarded, loops, dead_end, suppressed, expired;
    uint64_t own_other, held_off, malformed, grants, release_done, release_refused;
    uint64_t action_overflow;    /* actions not returned: the caller's array was too small */
};

struct lb_eport {
    uint64_t last_tx;
    uint64_t stall_since;
    uint64_t next_token_ps;
    uint64_t holdoff_until;
    uint32_t seq;
    uint8_t  suspected;
    uint8_t  seen;          /* lb_tick has observed this port once */
};

struct lb_iport {
    uint64_t grant_until;   /* 0: no grant */
};

struct lb_sw {
    struct lb_params p;
    uint32_t sw_id;
    uint32_t nports;
    struct lb_eport *ep;    /* [nports], caller's storage */
    struct lb_iport *ip;    /* [nports] */
    uint32_t *dep;          /* [nports * nports]: bytes queued at egress e from ingress i: dep[i*nports+e] */
    struct lb_stats st;
};

/* Defaults for mode (LB or DLB) on links of link_bps with propagation delay
 * delay_ps and frames of mtu_bytes: see loopbreak.c for each value's source. */
void lb_default_params(struct lb_params *p, enum lb_mode mode, uint64_t link_bps, uint64_t delay_ps,
                       uint32_t mtu_bytes);
/* 0 if p is usable, else -1 and *why names the field. */
int lb_check_params(const struct lb_params *p, const char **why);

/* Memory lb_init needs for nports ports (0 if nports is out of range). */
size_t lb_storage_bytes(uint32_t nports);
/* 0 on success; -1 if params are bad, nports is 0 or > LB_MAX_PORTS, or
 * sw_id > LB_MAX_SWITCH_ID.  mem: lb_storage_bytes(nports) bytes, aligned
 * for uint64_t, owned by the caller for the life of s. */
int lb_init(struct lb_sw *s, const struct lb_params *p, uint32_t sw_id, uint32_t nports, void *mem);

static inline uint32_t lb_spuid(const struct lb_sw *s, uint32_t port)
{
    return ((s->sw_id + 1u) << 8) | port;
}

/* Per frame (lossless data class) entering / leaving egress `out`, having
 * come in on ingress `in` (a frame made by the switch itself is not
 * reported).  Out-of-range ports are ignored; leaving never goes below 0. */
void lb_on_enqueue(struct lb_sw *s, uint32_t in, uint32_t out, uint32_t bytes);
void lb_on_dequeue(struct lb_sw *s, uint32_t in, uint32_t out, uint32_t bytes);
/* Or, for a caller that counts on demand (the simulator scans its egress
 * queues when a token arrives, so that no frame pays for the table): set
 * dep[in][out] to bytes. */
void lb_set_dep(struct lb_sw *s, uint32_t in, uint32_t out, uint32_t bytes);

/* Periodic step: obs[nports].  Writes at most cap actions (SEND, UNGRANT);
 * returns how many.  An array of 2 * nports never overflows. */
uint32_t lb_tick(struct lb_sw *s, uint64_t now_ps, const struct lb_obs *obs, struct lb_action *out, uint32_t cap);

/* A token received on ingress in_port.  Writes at most cap actions (<= 4
 * ever); returns how many. */
uint32_t lb_on_token(struct lb_sw *s, uint64_t now_ps, uint32_t in_port, const struct lb_token *t,
                     struct lb_action *out, uint32_t cap);

/* Wire format.  encode writes LB_TOKEN_BYTES; decode returns 0 and fills t
 * for a well-formed token of len >= LB_TOKEN_BYTES, else -1 (t untouched). */
void lb_token_encode(const struct lb_token *t, uint8_t out[LB_TOKEN_BYTES]);
int  lb_token_decode(const uint8_t *buf, size_t len, struct lb_token *t);

#endif
