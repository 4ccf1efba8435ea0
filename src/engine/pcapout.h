/*
 * pcapout.h -- [output] pcap: packet traces of a simulation as classic pcap
 * files that Wireshark and tshark read (docs/pcap.md has the user's view:
 * keys, files, addresses, how to open a run).
 *
 * A capture point is a host (its NIC link, both directions), a switch (all
 * its ports, both directions) or one port `A->B` (A's end of the link to B,
 * both directions).  At a point, a frame A sends is written when its first
 * bit leaves, a frame A receives when its last bit arrives, as a capture on
 * that interface would show them; each point has one file,
 * DIR/pcap/NAME.pcap.  Frames are real bytes: src/cc/roce_frame.c builds
 * the Ethernet/IPv4/UDP/BTH (and AETH, PFC, RoCC CNP) framing, escape.c,
 * gfc.c and loopbreak.c the flow-control frames, from the packet record
 * and a fixed mapping of nodes to addresses.
 *
 * Cost: nothing unless a scenario asks for it (net.tap stays NULL); then
 * one call per frame sent or received anywhere, which returns at once for
 * ports that are not captured, and the whole tap is removed at pcap_stop.
 */
#ifndef ROCC_PCAPOUT_H
#define ROCC_PCAPOUT_H

#include <stdio.h>

#include "engine/scenario.h"

/* Frame kinds counted per file (summary.json pcap.files[].frames_by_kind). */
enum pc_kind {
    PCK_DATA, PCK_ACK, PCK_NAK, PCK_CNP_ROCC, PCK_CNP_ROCEV2, PCK_CNP_QCN, PCK_CNP_JUNK,
    PCK_PFC_XOFF, PCK_PFC_XON, PCK_ETF, PCK_GFC, PCK_LB, PCK_OTHER, PCK_CNP_DINT, PCK_LSCC_FB, PCK_NKINDS
};
extern const char *const pc_kind_names[PCK_NKINDS];

/* Read [output] pcap, pcap_snaplen, pcap_start, pcap_stop, pcap_limit
 * (after the network and flows exist: names are resolved).  0 (sc->pcap
 * stays NULL without pcap), or -1 with err naming file, line and key. */
int  pcapout_read(struct scenario *sc, struct cfg *c, struct cfg_err *err);
/* Create DIR/pcap/ and one file per point (removing other *.pcap files
 * there, left by an earlier run) and install the tap.  0, or -1 with why
 * (naming the key and the file). */
int  pcapout_open(struct scenario *sc, const char *dir, char *why, size_t why_len);
/* Flush and close every file and remove the tap (after the run, or on any
 * early exit).  0, or -1 with why for the first file that failed (key,
 * file, reason, frames it holds).  Calling it again is harmless. */
int  pcapout_close(struct scenario *sc, char *why, size_t why_len);
/* ",\n  \"pcap\": {...}" for summary.json; nothing without pcap. */
void pcapout_json(const struct scenario *sc, FILE *f);
/* One console line per file; nothing without pcap. */
void pcapout_print(const struct scenario *sc, FILE *out);
/* ",pcap/NAME.pcap..." for the outputs line (into buf). */
void pcapout_files(const struct scenario *sc, char *buf, size_t len);
/* Close (quietly) and free. */
void pcapout_free(struct scenario *sc);

/* The address plan (docs/pcap.md): node k (hosts and switches alike) has
 * IPv4 address 10.0.0.0 + (k + 1), and its port of local index i the MAC
 * address 02:KK:KK:KK:II:II with KKKKKK = k + 1 (locally administered,
 * unicast).  Exposed for tests. */
uint32_t pcapout_ip_of_node(uint32_t node);
void     pcapout_mac_of_port(const struct net *n, uint32_t port, uint8_t mac[6]);
/* Build the bytes of packet pi as sent by `port` into f (cap bytes); the
 * kind in *kind.  Returns the frame length (frame bytes less the 4-byte
 * FCS), 0 if it does not fit. */
size_t   pcapout_frame(const struct scenario *sc, uint32_t port, uint32_t pi, uint8_t *f, size_t cap, int *kind);

/* Partitioned runs (docs/parallel.md; MPI in parallel.c).  Each point is
 * captured by the rank of its node: rank 0 writes its points directly,
 * another rank into an unlinked temporary file.  After the run,
 * parallel_gather moves each such file to rank 0 in chunks (bounded
 * memory): the owner reads it with pcapout_export (0 at the end) and then
 * sends pcapout_export_stats; rank 0 writes DIR/pcap/NAME.pcap with
 * pcapout_import_begin / _write / _end (the stats become the point's
 * counters).  pcapout_errors: the first point whose file failed, as
 * pcapout_close words it (0: none). */
#define PCAPOUT_NSTAT (8 + PCK_NKINDS)
uint32_t pcapout_points(const struct scenario *sc);
int      pcapout_point_rank(const struct scenario *sc, uint32_t k);
uint64_t pcapout_mismatch(const struct scenario *sc);
void     pcapout_set_mismatch(struct scenario *sc, uint64_t v);
size_t   pcapout_export(struct scenario *sc, uint32_t k, uint8_t *buf, size_t len);
void     pcapout_export_stats(const struct scenario *sc, uint32_t k, uint64_t v[PCAPOUT_NSTAT]);
int      pcapout_import_begin(struct scenario *sc, uint32_t k);
void     pcapout_import_write(struct scenario *sc, uint32_t k, const uint8_t *buf, size_t len);
void     pcapout_import_end(struct scenario *sc, uint32_t k, const uint64_t v[PCAPOUT_NSTAT]);
int      pcapout_errors(const struct scenario *sc, char *why, size_t why_len);

#endif
