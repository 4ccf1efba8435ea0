/*
 * lscc_fb.h -- LSCC's feedback frame on the wire, its optional
 * authenticator, and the receiver's freshness rule (issue 15; the paper's
 * "prioritized ICMP message" of §III-B, docs/crossdc.md "The feedback
 * frame").  Shared by rocc-switch (dataplane/sw_lscc.c, pkt.c) and the
 * simulator (src/net/agent_lscc.c: the same sender and receiver state on
 * its abstract FC_SUB_AGENT frame).
 *
 * The frame: 60 bytes (the Ethernet minimum, no FCS), network order:
 *
 *   0  dst 01:80:C2:00:00:0E   IEEE 802.1Q nearest-bridge group address:
 *                              link-local, never forwarded
 *   6  src                     the sending port's MAC (unicast, non-zero)
 *  12  EtherType 0x88B6        IEEE 802 Local Experimental EtherType 2
 *  14  'L' 'S'
 *  16  version 2               (version 1 had no epoch; refused)
 *  17  type                    1: rate, no tag; 2: rate, tagged
 *  18  reserved, 0 (2 bytes)
 *  20  R in ΔF units (32 bits, at most 2^24 - 1: LSCC_FB_MAX of lscc.h)
 *  24  sequence number (32 bits, 1, 2, ... within an epoch)
 *  28  epoch (64 bits): the sender's start time, ns since 1970 (rocc-switch)
 *  36  tag (8 bytes, type 2; zero for type 1)
 *  44  zero padding to 60
 *
 *   tag = SipHash-2-4(key, frame bytes 0..35)   (little-endian at 36)
 *
 * so it covers both MAC addresses, the EtherType, the version and type, R,
 * the sequence number and the epoch.  SipHash-2-4 is rocc_cnpauth.c's
 * (rocc_siphash24), the key a 16-byte secret configured on both ends of the
 * link, in the same form as the CNP key (32 hex digits, rocc_cnp_parse_key).
 * A tag cannot be lifted from a CNP: the CNP's tagged messages are 56, 64 or
 * 96 bytes long and begin with IPv4 addresses, this one is 36 bytes long
 * and begins with the group MAC (SipHash's last word holds the length).
 *
 * Freshness: the pair (epoch, seq) of the frames a sender emits only grows
 * (lscc_fb_tx_next: seq + 1; after 2^32 − 1 frames the epoch + 1 and seq 1).
 * A receiver accepts a frame whose pair is larger than that of the last
 * frame it accepted (lexicographic: a newer epoch with any seq, or the same
 * epoch with a larger seq).  A restarted sender has a later epoch (its start
 * time), so its first frame is accepted without restarting the receiver;
 * frames of an earlier epoch, or not newer in the current one, are replays
 * (EEPOCH, ESEQ).  With a key, a forged frame never reaches this rule (the
 * tag is checked first), so no forged pair can move the reference.
 * Resync, only without a key: LSCC_FB_RESYNC refused frames in a row whose
 * pairs themselves increase, with nothing accepted in between, are a sender
 * the receiver has fallen out of step with (a forged pair far ahead, a
 * restarted sender whose clock went back): the last of them is accepted and
 * its pair becomes the reference.  Not with a key: there it would let a
 * burst of recorded genuine frames replayed in order roll the reference
 * back (docs/crossdc.md "The feedback frame"); without one, anyone on the
 * link can forge a frame outright, so the rule gives nothing away.
 *
 * Nothing here allocates, does I/O or reads a clock.
 */
#ifndef ROCC_LSCC_FB_H
#define ROCC_LSCC_FB_H

#include <stddef.h>
#include <stdint.h>

#include "rocc_cnpauth.h"

#define LSCC_FB_ETHERTYPE    0x88b6
#define LSCC_FB_FRAME_BYTES  60
#define LSCC_FB_VERSION      2
#define LSCC_FB_TYPE_RATE    1     /* no tag */
#define LSCC_FB_TYPE_AUTH    2     /* tagged */
#define LSCC_FB_KEY_BYTES    ROCC_CNP_KEY_BYTES
#define LSCC_FB_TAG_OFF      36    /* the tagged bytes are 0..35 */
#define LSCC_FB_TAG_BYTES    8
/* Refused frames in a row, increasing, after which the receiver resyncs to
 * them.  Ours: 8 periods (1.6 ms at the paper's T = 200 µs) is long enough
 * that one stray frame does not move the reference and short against the
 * time a lock-out would otherwise last (until a restart). */
#define LSCC_FB_RESYNC       8u

extern const uint8_t lscc_fb_dst[6];

/* A feedback frame's fields. */
struct lscc_fb {
    uint8_t  src[6];
    uint8_t  tagged;     /* type 2 */
    uint32_t units;      /* R in ΔF units */
    uint32_t seq;
    uint64_t epoch;
};

/* Why a frame had no effect.  PARSE (lscc_fb_parse) first, in order; the
 * receiver's other checks (rocc-switch adds its own between) after. */
enum lscc_fb_result {
    LSCC_FB_OK = 0,
    LSCC_FB_ELEN,     /* not exactly 60 bytes */
    LSCC_FB_EDST,     /* destination not 01:80:C2:00:00:0E or EtherType not 0x88B6 */
    LSCC_FB_EMAGIC,   /* not 'L' 'S', version 2, type 1 or 2, reserved 0 */
    LSCC_FB_EUNITS,   /* R above 2^24 − 1 units */
    LSCC_FB_EPAD,     /* padding (or a type-1 tag field) not zero */
    LSCC_FB_ESRC,     /* source MAC multicast or zero */
    LSCC_FB_ETAG,     /* a key is set and the frame has no tag (type 1) or a wrong one */
    LSCC_FB_EEPOCH,   /* epoch older than the last accepted frame's (lscc_fb_rx_accept) */
    LSCC_FB_ESEQ,     /* same epoch, sequence number not newer (lscc_fb_rx_accept) */
    LSCC_FB_NRESULTS
};

/* Short name of a result ("ok", "len", ..., "tag", "epoch", "seq"). */
const char *lscc_fb_strerror(int r);

/* Write fb as a frame into f: type 2 with the tag when key != NULL, else
 * type 1 (fb->tagged is ignored).  LSCC_FB_FRAME_BYTES, or 0 if cap is too
 * small or a pointer is NULL.  Writes whatever fb holds: lscc_fb_parse is
 * the gate. */
size_t lscc_fb_encode(const struct lscc_fb *fb, const uint8_t *key, uint8_t *f, size_t cap);

/* Parse f[0..len) strictly: LSCC_FB_OK and *out filled (out may be NULL),
 * or the first reason it is refused (ELEN..ETAG in that order).  key !=
 * NULL: the frame must be type 2 and its tag verify (ETAG otherwise).
 * key == NULL: type 2's tag is not checked (a keyed sender, an unkeyed
 * receiver).  Never reads past len. */
int lscc_fb_parse(const uint8_t *key, const uint8_t *f, size_t len, struct lscc_fb *out);

/* The sender's counter: lscc_fb_tx_init(tx, epoch), then each frame takes
 * lscc_fb_tx_next's pair. */
struct lscc_fb_tx { uint64_t epoch; uint32_t seq; };
void lscc_fb_tx_init(struct lscc_fb_tx *tx, uint64_t epoch);
void lscc_fb_tx_next(struct lscc_fb_tx *tx, uint64_t *epoch, uint32_t *seq);

/* The receiver's reference: the last accepted pair, and the run of refused
 * increasing pairs (resync, above). */
struct lscc_fb_rx {
    uint64_t epoch, run_epoch;
    uint32_t seq, run_seq;
    uint32_t run;            /* refused frames in the current run */
    uint8_t  have;           /* a frame was accepted since init */
    uint8_t  resync;         /* the resync rule is on (no key) */
    uint8_t  pad_[2];
    uint64_t n_accepted, n_resync;
};
/* resync: 1 for a receiver without a key, 0 with one (above). */
void lscc_fb_rx_init(struct lscc_fb_rx *rx, int resync);

/* The freshness rule on a frame that passed every other check: OK (the pair
 * becomes the reference), or EEPOCH / ESEQ (nothing changes but the resync
 * run; OK after LSCC_FB_RESYNC of them when the rule is on, counted in
 * n_resync).  The first frame after init is accepted. */
int lscc_fb_rx_accept(struct lscc_fb_rx *rx, uint64_t epoch, uint32_t seq);

#endif
