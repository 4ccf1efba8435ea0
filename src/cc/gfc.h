/*
 * gfc.h -- Gentle Flow Control (GFC): Qian, Cheng, Zhang, Ren, "Gentle flow
 * control: avoiding deadlock in lossless networks", SIGCOMM 2019.
 *
 * GFC replaces PFC's XOFF/XON (a port either sends at line rate or not at
 * all, the "hold and wait" that closes a deadlock) by a sending *rate* that
 * the downstream maps from its buffer occupancy: the fuller the (ingress
 * port, class) buffer, the lower the rate the upstream (egress port, class)
 * may send at, so a cyclic buffer dependency keeps draining (paper
 * abstract; §3-4).  This file is the pure state machine of both ends:
 *
 *   downstream, one struct gfc_down per (ingress port, class): from the
 *   occupancy q (bytes) to a rate level; a level change is what sends a
 *   feedback frame upstream (stage-triggered feedback, which keeps the
 *   feedback overhead small: the paper reports < 0.5% of bandwidth);
 *
 *   upstream, one struct gfc_up per (egress port, class): the rate the last
 *   feedback allowed and the earliest time the next frame of that class may
 *   start (a per-class rate limiter at frame granularity).
 *
 * The mapping (docs/escape.md "GFC" has the derivation and every difference
 * from the paper).  The conceptual GFC mapping is a decreasing function
 * r(q): full rate C below a start threshold B0, falling to 0 at Bm.  A CEE
 * switch cannot send a new rate for every byte, so the function is a
 * staircase of N stages of equal width S = (Bm - B0) / N:
 *
 *   level 0        q <  B0                      rate C
 *   level k (1..N) B0 + (k-1)S <= q < B0 + kS   rate C (N+1-k) / (N+1)
 *   level N+1      q >= Bm                      rate 0
 *
 * i.e. N+2 levels whose rates fall in equal steps of C/(N+1) from C to 0
 * over equally spaced occupancies.  Level N+1 (rate 0 at Bm) is the point
 * where the conceptual function reaches zero; with Bm at the switch's PFC
 * XOFF threshold and PFC's headroom behind it, it is also the lossless
 * guard (our choice): it is reached only if the stages failed to balance
 * the queue, and the integration counts how often.
 *
 * Hysteresis (ours; PFC has its XON offset for the same reason): a level is
 * entered as soon as q reaches it, but left downward only once q + H is
 * below it, so a queue that wobbles by less than H around a boundary sends
 * no feedback storm.
 *
 * Fixed point: a rate is a Q15 fraction of the link's line rate, 0..32768
 * (32768 = line rate), 16 bits: what the feedback frame carries per class
 * (the paper's CEE implementation reuses the PFC frame, whose per-class
 * field is 16 bits).  Values above 32768 are malformed: counted by the
 * caller and ignored (gfc_up_feedback returns GFC_EVALUE and changes
 * nothing).
 *
 * Nothing here allocates, does I/O or keeps global state; time is integer
 * picoseconds passed in.
 */
#ifndef ROCC_GFC_H
#define ROCC_GFC_H

#include <stddef.h>
#include <stdint.h>

#define GFC_Q15_ONE     32768u       /* line rate as a Q15 fraction */
#define GFC_MAX_STAGES  250u         /* N+1 levels fit a uint8_t with room */
#define GFC_MAX_BYTES   (1ull << 48) /* thresholds: any real buffer, no overflow */
#define GFC_NEVER       UINT64_MAX   /* "no time": the class may not send */

/* Feedback / frame results. */
enum {
    GFC_OK = 0,
    GFC_EVALUE = -1,    /* a rate above GFC_Q15_ONE */
    GFC_ESHORT = -2,    /* frame shorter than GFC_FRAME_MIN */
    GFC_ETYPE = -3,     /* not a GFC MAC control frame (DA, EtherType or opcode) */
    GFC_ERSVD = -4,     /* reserved bits of the class-enable vector set */
    GFC_EARG = -5       /* NULL buffer */
};

struct gfc_params {
    uint64_t start_bytes;   /* B0: occupancy where the rate starts to fall */
    uint64_t stop_bytes;    /* Bm: occupancy where the rate reaches 0 (> B0) */
    uint32_t stages;        /* N: stages between B0 and Bm, 1..GFC_MAX_STAGES */
    uint64_t hyst_bytes;    /* H: a level is left downward once q + H is below it */
};

/* 0 if p is usable; else -1 and a sentence naming the bad field in why. */
int gfc_params_check(const struct gfc_params *p, char *why, size_t why_len);

/* Level of occupancy q without hysteresis: 0..stages+1. */
uint32_t gfc_level_of(const struct gfc_params *p, uint64_t q);
/* Rate of a level as a Q15 fraction of line rate (levels above stages+1
 * are treated as stages+1, rate 0). */
uint32_t gfc_level_rate(const struct gfc_params *p, uint32_t level);
/* Lowest occupancy of a level (0 for level 0). */
uint64_t gfc_level_floor(const struct gfc_params *p, uint32_t level);

/* ---- downstream: one per (ingress port, class) ---- */
struct gfc_down {
    uint8_t level;          /* the level last announced upstream (0: none yet) */
};

static inline void gfc_down_init(struct gfc_down *d) { d->level = 0; }

/* Occupancy is now q bytes.  Returns 1 if the level changed (the caller
 * sends feedback carrying gfc_level_rate(p, d->level)), else 0. */
int gfc_down_update(const struct gfc_params *p, struct gfc_down *d, uint64_t q);

/* ---- upstream: one per (egress port, class) ---- */
struct gfc_up {
    uint32_t rate;          /* Q15 fraction of line rate the peer allows */
    uint64_t last_start_ps; /* when the class's last frame started */
    uint64_t last_tx_ps;    /* its serialization time at line rate */
};

/* Line rate, nothing sent yet. */
void gfc_up_init(struct gfc_up *u);

/* A feedback value for this class.  GFC_OK: applied (also to the gap after
 * the frame already sent); GFC_EVALUE: value > GFC_Q15_ONE, no effect. */
int gfc_up_feedback(struct gfc_up *u, uint32_t value);

/* Earliest time the next frame of the class may start: last start +
 * last_tx * ONE / rate, rounded up to a picosecond; GFC_NEVER at rate 0.
 * At line rate this is the end of the last frame, so GFC adds no gap. */
uint64_t gfc_up_next_ps(const struct gfc_up *u);

/* A frame of the class started at start_ps and takes tx_ps at line rate. */
void gfc_up_sent(struct gfc_up *u, uint64_t start_ps, uint64_t tx_ps);

/* ---- the feedback frame (bytes on the wire; for the data plane and tests) ----
 *
 * A MAC control frame shaped like an 802.1Qbb PFC frame (what the paper's
 * CEE implementation modifies), 60 bytes before the FCS:
 *
 *   0  DA 01:80:c2:00:00:01 (MAC control)   6  SA
 *  12  EtherType 0x8808                     14  opcode GFC_OPCODE
 *  16  class-enable vector (bits 0..7; bits 8..15 reserved, zero)
 *  18  8 x 16-bit rate, class 0..7, Q15 fraction of line rate
 *  34  zero padding to 60
 *
 * Opcode 0x0103 is ours: 0x0101 is PFC (a PFC-only peer would read the rate
 * as a pause time) and 0x0102 is Escape's token frame (issue 12). */
#define GFC_ETHERTYPE  0x8808
#define GFC_OPCODE     0x0103
#define GFC_FRAME_MIN  60         /* bytes before the FCS */

struct gfc_frame {
    uint8_t  src_mac[6];
    uint8_t  enable;              /* classes whose rate field is valid */
    uint16_t rate[8];             /* Q15, meaningful where enable has the bit */
};

/* Writes GFC_FRAME_MIN bytes; returns them, or 0 if len is too small, a
 * pointer is NULL or an enabled rate is above GFC_Q15_ONE. */
size_t gfc_frame_encode(const struct gfc_frame *f, uint8_t *buf, size_t len);
/* Parses a frame starting at its DA.  GFC_OK or a negative GFC_E* code; a
 * frame with any enabled rate above GFC_Q15_ONE is GFC_EVALUE as a whole.
 * Never reads past len; out (may be NULL) is written only on success. */
int gfc_frame_decode(const uint8_t *buf, size_t len, struct gfc_frame *out);
const char *gfc_strerror(int err);

#endif
