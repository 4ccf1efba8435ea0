/*
 * pcap.h -- a classic libpcap file writer for the data-plane apps' --pcap
 * (no libpcap, no DPDK).  Nanosecond-resolution format (magic 0xa1b23c4d,
 * written in host byte order as the format allows), link type Ethernet.
 * Frames are cut to the snap length; the original length is recorded.
 *
 * Every write is checked: a failed write (disk full, ...) is counted in
 * errors and the file is marked bad, and dp_pcap_close() reports it.  The
 * apps flush on every stats report and close (flush) on SIGINT/SIGTERM and
 * on every exit path after opening.
 */
#ifndef DP_PCAP_H
#define DP_PCAP_H

#include <stdint.h>
#include <stdio.h>

#define DP_PCAP_MAGIC_NS 0xa1b23c4du
#define DP_PCAP_SNAPLEN_DEFAULT 65535u

struct dp_pcap {
    FILE *f;
    uint32_t snaplen;
    uint64_t frames, bytes, errors;
};

/* Create (truncate) path and write the file header.  0, or -1 with errno
 * set (the caller names the file in its message). */
int dp_pcap_open(struct dp_pcap *pc, const char *path, uint32_t snaplen);
/* Append one frame with its timestamp in ns since the Unix epoch. */
void dp_pcap_write(struct dp_pcap *pc, const uint8_t *data, uint32_t len, uint64_t ts_ns);
/* Flush buffered frames to the file; counts a failure in errors. */
void dp_pcap_flush(struct dp_pcap *pc);
/* Flush and close; 0, or -1 if any write, the flush or the close failed.
 * Safe on a never-opened (zeroed) struct. */
int dp_pcap_close(struct dp_pcap *pc);

#endif
