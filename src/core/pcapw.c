/* pcapw.c -- see pcapw.h. */
#include "core/pcapw.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The libpcap file header and record header, host byte order (readers
 * tell the order by the magic number). */
struct file_hdr { uint32_t magic; uint16_t vmaj, vmin; int32_t thiszone; uint32_t sigfigs, snaplen, linktype; };
struct rec_hdr { uint32_t sec, nsec, incl, orig; };
_Static_assert(sizeof(struct file_hdr) == PCAPW_FILE_HDR, "pcap file header is 24 bytes");
_Static_assert(sizeof(struct rec_hdr) == PCAPW_REC_HDR, "pcap record header is 16 bytes");

#define SNAP_MAX 65535u

/* write(2) all of buf; returns bytes written (< len on error, errno set). */
static size_t write_all(int fd, const uint8_t *buf, size_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t k = write(fd, buf + done, len - done);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (k == 0) {
            errno = ENOSPC;
            break;
        }
        done += (size_t)k;
    }
    return done;
}

int pcapw_open(struct pcapw *w, const char *path, uint32_t snaplen, size_t bufsize)
{
    memset(w, 0, sizeof *w);
    w->fd = -1;
    w->snaplen = snaplen == 0 || snaplen > SNAP_MAX ? SNAP_MAX : snaplen;
    size_t need = PCAPW_REC_HDR + w->snaplen;
    w->cap = bufsize < need ? need : bufsize;
    w->buf = malloc(w->cap);
    if (!w->buf) {
        errno = ENOMEM;
        return -1;
    }
    w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (w->fd < 0) {
        int e = errno;
        free(w->buf);
        w->buf = NULL;
        errno = e;
        return -1;
    }
    struct file_hdr h = { PCAPW_MAGIC_NS, 2, 4, 0, 0, w->snaplen, PCAPW_LINK_ETH };
    if (write_all(w->fd, (const uint8_t *)&h, sizeof h) != sizeof h) {
        int e = errno;
        close(w->fd);
        w->fd = -1;
        free(w->buf);
        w->buf = NULL;
        errno = e;
        return -1;
    }
    w->file_bytes = sizeof h;
    return 0;
}

int pcapw_flush(struct pcapw *w)
{
    if (w->err)
        return -1;
    if (w->fd < 0 || w->len == 0)
        return 0;
    size_t k = write_all(w->fd, w->buf, w->len);
    if (k != w->len) {
        w->err = errno ? errno : EIO;
        /* Keep the whole records among the k bytes that reached the file;
         * cut a partial one off (a device cannot be truncated: nothing
         * partial reached it anyway).  The others are lost. */
        size_t off = 0, whole = 0;
        uint64_t nrec = 0, kept = 0;
        while (off + PCAPW_REC_HDR <= w->len) {
            struct rec_hdr r;
            memcpy(&r, w->buf + off, sizeof r);
            off += PCAPW_REC_HDR + r.incl;
            nrec++;
            if (off <= k) {
                kept++;
                whole = off;
            }
        }
        if (whole < k && ftruncate(w->fd, (off_t)(w->file_bytes + whole)) != 0) {
            /* nothing more to do: the error is already recorded */
        }
        w->file_bytes += whole;
        w->frames -= nrec - kept;
        w->lost += nrec - kept;
        w->len = 0;
        return -1;
    }
    w->file_bytes += k;
    w->len = 0;
    return 0;
}

int pcapw_write(struct pcapw *w, uint64_t ts_ns, const uint8_t *data, uint32_t len)
{
    if (w->err || w->fd < 0) {
        w->lost++;
        return -1;
    }
    uint32_t incl = len < w->snaplen ? len : w->snaplen;
    if (w->len + PCAPW_REC_HDR + incl > w->cap && pcapw_flush(w)) {
        w->lost++;
        return -1;
    }
    struct rec_hdr r = { (uint32_t)(ts_ns / 1000000000u), (uint32_t)(ts_ns % 1000000000u), incl, len };
    memcpy(w->buf + w->len, &r, sizeof r);
    memcpy(w->buf + w->len + sizeof r, data, incl);
    w->len += sizeof r + incl;
    w->frames++;
    if (incl < len)
        w->cut++;
    return 0;
}

int pcapw_close(struct pcapw *w)
{
    if (w->fd >= 0) {
        pcapw_flush(w);
        if (close(w->fd) != 0 && !w->err)
            w->err = errno ? errno : EIO;
        w->fd = -1;
    }
    free(w->buf);
    w->buf = NULL;
    w->len = 0;
    return w->err ? -1 : 0;
}
