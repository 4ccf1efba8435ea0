/*
 * homa.h -- Homa (Montazeri, Li, Alizadeh, Ousterhout, "Homa: A Receiver-
 * Driven Low-Latency Transport Protocol Using Network Priorities",
 * SIGCOMM 2018, §3) as pure state machines: the sender of one message, the
 * receiver of one host, and the priority cut-offs computed from a
 * message-size distribution.  docs/homa.md lists every parameter with its
 * source and where the simulator's model differs from the paper.
 *
 * Priorities.  Homa uses the switches' strict-priority classes.  Here a
 * priority is a class number 0..n_prio-1 with n_prio-1 the highest
 * (802.1p order).  The top n_unsched classes carry unscheduled bytes, the
 * rest (0..n_prio-n_unsched-1) scheduled bytes (§3.4).
 *
 * Sender (§3.2, §3.3).  A message of `size` bytes may send its first
 * min(size, rtt_bytes) bytes at once ("unscheduled", RTTbytes), at the
 * unscheduled class its size maps to (homa_unsched_prio); every later
 * byte only up to the offset the receiver granted, at the class the last
 * GRANT named.  homa_tx_limit() is the end of what may be sent.
 *
 * Receiver (§3.3-§3.5), one per host.  It tracks the inbound messages
 * that need grants (size > rtt_bytes) in shortest-remaining-first (SRPT)
 * order -- remaining = size - received.  After every data packet the
 * caller asks homa_rx_grants(): the first `overcommit` messages that are
 * not yet fully granted (the overcommitment degree, §3.5) are granted up
 * to received + rtt_bytes (capped at size), so RTTbytes of granted bytes
 * stay in flight for each; a grant goes out only when that offset moved.
 * Scheduled classes go by rank among the messages granted now: the
 * shortest gets the highest scheduled class, and with fewer messages than
 * scheduled classes the lowest ones are used, leaving the higher ones for
 * shorter messages that arrive later (§3.4).
 *
 * Cut-offs (§3.4).  From a size distribution (discrete sizes with
 * cumulative fractions): the share of unscheduled bytes
 * E[min(S, rtt_bytes)] / E[S] sets how many of the n_prio classes go to
 * unscheduled traffic (rounded, at least one each side when the workload
 * has scheduled bytes), and the cut-offs split the unscheduled bytes into
 * equal parts, smallest messages at the highest class.
 *
 * Nothing here allocates, does I/O or keeps globals: the receiver's table
 * of messages is memory the caller gives to homa_rx_init.  Time plays no
 * role (Homa is clocked by data packets).
 */
#ifndef HOMA_H
#define HOMA_H

#include <stddef.h>
#include <stdint.h>

#define HOMA_MAX_PRIO 8     /* §3.4: commodity switches offer 8 priority queues */

struct homa_params {
    uint64_t rtt_bytes;      /* RTTbytes (§3.2): unscheduled bytes per message and the grant lead */
    uint8_t  n_prio;         /* classes in use, 1..8 (§3.4, §5: 8) */
    uint8_t  n_unsched;      /* the top n_unsched classes are unscheduled (1..n_prio) */
    uint8_t  overcommit;     /* messages granted at once (§3.5; 0 = n_prio - n_unsched, at least 1) */
    /* Unscheduled level k (0 = highest class) takes the sizes above
     * cutoff[k-1] up to cutoff[k]; cutoff[n_unsched-1] = UINT64_MAX. */
    uint64_t cutoff[HOMA_MAX_PRIO];
};

/* 0, or -1 with the reason in why. */
int homa_params_check(const struct homa_params *p, char *why, size_t why_len);
/* The overcommitment degree in effect (p->overcommit, or its default). */
unsigned homa_overcommit(const struct homa_params *p);

/* Fill n_unsched and cutoff[] of p (rtt_bytes and n_prio set) from the
 * discrete distribution size[i] with cumulative fraction cum[i], i < n
 * (sizes ascending, cum non-decreasing, cum[n-1] = 1; size i has
 * probability cum[i] - cum[i-1]).  Returns the fraction of unscheduled
 * bytes, or -1 for an empty or malformed distribution. */
double homa_cutoffs(struct homa_params *p, const uint64_t *size, const double *cum, uint32_t n);

/* The unscheduled class of a message of `size` bytes. */
uint8_t homa_unsched_prio(const struct homa_params *p, uint64_t size);
/* The scheduled class of the message of rank r (0 = fewest bytes left)
 * among g messages granted at once. */
uint8_t homa_sched_prio(const struct homa_params *p, unsigned r, unsigned g);

/* ---- sender: one outbound message ---- */
struct homa_tx {
    uint64_t size;
    uint64_t unsched;        /* min(size, rtt_bytes): sent without grants */
    uint64_t granted;        /* bytes [0, granted) may be sent */
    uint8_t  uprio, sprio;   /* unscheduled class; class of the last grant */
};

void homa_tx_init(struct homa_tx *t, const struct homa_params *p, uint64_t size);
/* A GRANT for bytes up to `offset` at class `prio`: the limit only grows
 * (a late or duplicate grant is harmless); returns 1 if it grew. */
int  homa_tx_grant(struct homa_tx *t, uint64_t offset, uint8_t prio);
static inline uint64_t homa_tx_limit(const struct homa_tx *t) { return t->granted; }
/* The class of the packet starting at byte `offset`. */
static inline uint8_t homa_tx_prio(const struct homa_tx *t, uint64_t offset)
{
    return offset < t->unsched ? t->uprio : t->sprio;
}

/* ---- receiver: one host ---- */
struct homa_rx_msg {
    uint64_t size, received, granted;
    uint32_t id;             /* the caller's message id */
    uint8_t  prio;           /* class of its last grant */
};

struct homa_rx {
    struct homa_rx_msg *m;   /* [cap], the first n in SRPT order */
    uint32_t n, cap;
    uint64_t grants;         /* grants issued */
    uint64_t refused;        /* scheduled messages not tracked: table full */
    uint32_t max_active;     /* most messages tracked at once */
};

struct homa_grant {
    uint32_t id;
    uint64_t offset;
    uint8_t  prio;
};

void homa_rx_init(struct homa_rx *r, struct homa_rx_msg *slots, uint32_t cap);
/* `bytes` new payload bytes of message `id` (`size` bytes) arrived.
 * Messages of at most rtt_bytes need no grants and are not tracked.
 * Returns 1 when a tracked message is now complete (it leaves the table),
 * 0 otherwise, -1 when the table is full (the message is counted in
 * refused and never granted). */
int  homa_rx_data(struct homa_rx *r, const struct homa_params *p, uint32_t id, uint64_t size, uint64_t bytes);
/* The grants due now, at most homa_overcommit(p) (out must hold that
 * many); returns how many. */
unsigned homa_rx_grants(struct homa_rx *r, const struct homa_params *p, struct homa_grant *out);

#endif
