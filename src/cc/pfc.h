/*
 * pfc.h -- IEEE 802.1Qbb priority-based flow control (PFC) as a pure state
 * machine: when a port that buffers frames sends XOFF and XON for a class,
 * and how long a port that receives them keeps the class paused.  No I/O,
 * no allocation, no globals; time is integer picoseconds passed in.  Used by
 * the DPDK data plane (rocc-switch: per-ingress counters and pause state of
 * every port; rocc-host: the pause state of its sender) and written so the
 * simulator's switch could call it unchanged.
 *
 * Sending side (struct pfc_ingress, one per ingress port): the bytes each
 * class of that ingress has in the switch's buffer.  XOFF is asserted when a
 * class's bytes reach xoff_bytes and released (XON, quanta 0) when they fall
 * below xon_bytes.  An XOFF announces `quanta` pause quanta; while it stays
 * asserted it is sent again when half of that time has passed, so the
 * upstream port never resumes on its own while the buffer is still full.
 *
 * Receiving side (struct pfc_egress, one per transmitting port): a PFC frame
 * pauses each class it enables for quanta × 512 bit times at the port's rate
 * (802.1Qbb §36.1.3.2 via IEEE 802.3 Annex 31D: one quantum = 512 bit
 * times), a later frame for the class restarts that time, quanta 0 resumes
 * it at once.
 *
 * The frame itself (01:80:C2:00:00:01, EtherType 0x8808, opcode 0x0101,
 * class-enable vector, 8 × 16-bit quanta) is built and parsed by the data
 * plane (dataplane/pkt.c); here only the vector and the quanta.
 */
#ifndef ROCC_PFC_H
#define ROCC_PFC_H

#include <stddef.h>
#include <stdint.h>

#define PFC_NCLASS       8        /* 802.1p priorities */
#define PFC_QUANTUM_BITS 512      /* IEEE 802.3 Annex 31D: a pause quantum is 512 bit times */
#define PFC_QUANTA_MAX   0xffff   /* the 16-bit time field */

struct pfc_params {
    uint64_t xoff_bytes;          /* XOFF when a class of an ingress holds >= this many bytes */
    uint64_t xon_bytes;           /* XON when it holds < this many (1 <= xon <= xoff) */
    uint16_t quanta;              /* pause time each XOFF announces (1..65535 quanta) */
    uint8_t  lossless_mask;       /* classes PFC protects; others are counted, never paused */
    uint64_t quantum_ps;          /* one quantum on the link the frames go over: 512 bits / rate */
};

/* Defaults for a link of link_bps: XOFF 125 KB, XON 10 KB (the thresholds
 * of the dissertation's DPDK prototype, Menikkumbura 2022 §4.6.2), quanta
 * 65535 (the largest: refreshed at half of it), every class lossless. */
void pfc_params_default(struct pfc_params *p, uint64_t link_bps);
/* 0, or -1 with the reason in why (n bytes). */
int pfc_params_check(const struct pfc_params *p, char *why, size_t n);
/* One quantum at link_bps, rounded to the nearest ps (>= 1). */
uint64_t pfc_quantum_ps(uint64_t link_bps);
/* quanta × quantum_ps. */
static inline uint64_t pfc_pause_ps(uint16_t quanta, uint64_t quantum_ps) { return (uint64_t)quanta * quantum_ps; }

/* ---- sending side: one per ingress port ----------------------------------- */
struct pfc_ingress {
    uint64_t bytes[PFC_NCLASS];       /* buffered bytes that arrived on this port, per class */
    uint64_t refresh_ps[PFC_NCLASS];  /* asserted classes: when the XOFF is due again */
    uint8_t  xoff;                    /* classes whose XOFF is asserted */
};

void pfc_ingress_init(struct pfc_ingress *g);
/* b bytes of class cls were buffered.  1 when this asserts XOFF for cls
 * (the caller sends an XOFF frame for it now and then calls
 * pfc_ingress_sent), else 0.  cls >= PFC_NCLASS is ignored. */
int pfc_ingress_add(struct pfc_ingress *g, const struct pfc_params *p, unsigned cls, uint32_t b);
/* b bytes of class cls left the buffer (sent or dropped).  1 when this
 * releases cls (the caller sends XON: quanta 0), else 0. */
int pfc_ingress_sub(struct pfc_ingress *g, const struct pfc_params *p, unsigned cls, uint32_t b);
/* The caller sent an XOFF for `classes` at now: each is due again after
 * half the pause it announced. */
void pfc_ingress_sent(struct pfc_ingress *g, const struct pfc_params *p, uint8_t classes, uint64_t now_ps);
/* Asserted classes whose XOFF is due again at now (send, then
 * pfc_ingress_sent). */
uint8_t pfc_ingress_due(const struct pfc_ingress *g, uint64_t now_ps);

/* ---- receiving side: one per transmitting port ----------------------------- */
struct pfc_egress {
    uint64_t until_ps[PFC_NCLASS];    /* paused classes: when the pause runs out */
    uint64_t since_ps[PFC_NCLASS];    /* paused classes: when the pause began */
    uint64_t paused_ps[PFC_NCLASS];   /* total time each class was paused (ended pauses) */
    uint8_t  paused;
};

void pfc_egress_init(struct pfc_egress *e);
/* A valid PFC frame (class-enable vector vec, quanta[8]) arrived at now:
 * each enabled class with quanta > 0 is paused until now + quanta ×
 * quantum_ps (a running pause is restarted), quanta 0 resumes it.
 * Returns the classes this frame newly paused (bits 0..7) and the ones it
 * resumed (bits 8..15). */
unsigned pfc_egress_frame(struct pfc_egress *e, uint8_t vec, const uint16_t quanta[PFC_NCLASS],
                          uint64_t quantum_ps, uint64_t now_ps);
/* Ends the pauses that ran out by now; returns the classes still paused. */
uint8_t pfc_egress_paused(struct pfc_egress *e, uint64_t now_ps);
/* Earliest end of a running pause, UINT64_MAX if none. */
uint64_t pfc_egress_next(const struct pfc_egress *e);
/* Time class cls has been paused up to now (ended pauses + the running one). */
uint64_t pfc_egress_paused_total(const struct pfc_egress *e, unsigned cls, uint64_t now_ps);

#endif
