/*
 * pcapw.h -- a buffered writer of classic pcap files (the libpcap format,
 * nanosecond variant: magic 0xa1b23c4d written in the host's byte order,
 * version 2.4, link type 1 = Ethernet), used by the simulator's packet
 * traces (src/engine/pcapout.c, docs/pcap.md).  No libpcap.
 *
 * Frames are cut to the snap length (the record keeps the original
 * length).  Records collect in a buffer of the size given at open and go to
 * the file with write(2) when it is full, at pcapw_flush and at close, so a
 * busy capture costs one system call per buffer.
 *
 * Errors.  The first failed write (disk full, I/O error) is kept in `err`
 * (an errno value); the writer then drops every later frame (counted in
 * `lost`) and never writes again.  What reached the file before stays: if
 * the failed write left part of a record behind, the file is truncated to
 * the last whole record, so it stays a valid capture of every frame it
 * counts in `frames` (a device such as /dev/full cannot be truncated; there
 * nothing partial was written anyway).
 */
#ifndef ROCC_PCAPW_H
#define ROCC_PCAPW_H

#include <stddef.h>
#include <stdint.h>

#define PCAPW_MAGIC_NS   0xa1b23c4du
#define PCAPW_LINK_ETH   1u
#define PCAPW_FILE_HDR   24u
#define PCAPW_REC_HDR    16u

struct pcapw {
    int      fd;            /* -1: closed */
    uint32_t snaplen;
    uint8_t *buf;
    size_t   len, cap;      /* buffered bytes (whole records), buffer size */
    uint64_t file_bytes;    /* bytes known to be in the file (whole records) */
    uint64_t frames;        /* records written or buffered */
    uint64_t cut;           /* of those, cut to the snap length */
    uint64_t lost;          /* frames dropped after an error */
    int      err;           /* errno of the first failure, 0: none */
};

/* Create or truncate path, write the file header (and flush it, so a bad
 * path or a full disk shows at once).  snaplen 1..65535 (bigger is clamped
 * to 65535, 0 means 65535); bufsize: buffer bytes (at least one maximal
 * record is used).  0, or -1 with errno set (nothing to close). */
int pcapw_open(struct pcapw *w, const char *path, uint32_t snaplen, size_t bufsize);
/* Append one frame of len bytes at ts_ns nanoseconds.  0, or -1 once the
 * writer has failed (w->err; the frame is counted in lost). */
int pcapw_write(struct pcapw *w, uint64_t ts_ns, const uint8_t *data, uint32_t len);
/* Write the buffer to the file.  0, or -1 (w->err). */
int pcapw_flush(struct pcapw *w);
/* Flush and close; frees the buffer.  0, or -1 if anything failed (w->err
 * holds the first error; counters stay readable).  Safe to call twice and
 * on a zeroed struct with fd = -1. */
int pcapw_close(struct pcapw *w);

#endif
