/* pcap.c -- see pcap.h. */
#include "pcap.h"

#include <string.h>

/* Header fields are host-order 32/16-bit integers: readers detect the byte
 * order from the magic number. */
struct file_hdr { uint32_t magic; uint16_t vmaj, vmin; int32_t thiszone; uint32_t sigfigs, snaplen, linktype; };
struct rec_hdr { uint32_t sec, nsec, incl, orig; };

int dp_pcap_open(struct dp_pcap *pc, const char *path, uint32_t snaplen)
{
    struct file_hdr h = {DP_PCAP_MAGIC_NS, 2, 4, 0, 0, snaplen, 1 /* LINKTYPE_ETHERNET */};

    memset(pc, 0, sizeof *pc);
    pc->snaplen = snaplen;
    pc->f = fopen(path, "wb");
    if (!pc->f) return -1;
    /* A large buffer: one write() per ~1 MB of frames on the hot path. */
    setvbuf(pc->f, NULL, _IOFBF, 1 << 20);
    if (fwrite(&h, sizeof h, 1, pc->f) != 1 || fflush(pc->f)) {
        fclose(pc->f);
        pc->f = NULL;
        return -1;
    }
    return 0;
}

void dp_pcap_write(struct dp_pcap *pc, const uint8_t *data, uint32_t len, uint64_t ts_ns)
{
    struct rec_hdr r;

    if (!pc->f) return;
    r.sec = (uint32_t)(ts_ns / 1000000000u);
    r.nsec = (uint32_t)(ts_ns % 1000000000u);
    r.incl = len < pc->snaplen ? len : pc->snaplen;
    r.orig = len;
    if (fwrite(&r, sizeof r, 1, pc->f) != 1 || fwrite(data, 1, r.incl, pc->f) != r.incl) {
        pc->errors++;
        return;
    }
    pc->frames++;
    pc->bytes += r.incl;
}

void dp_pcap_flush(struct dp_pcap *pc)
{
    if (pc->f && fflush(pc->f)) pc->errors++;
}

int dp_pcap_close(struct dp_pcap *pc)
{
    int bad;

    if (!pc->f) return pc->errors ? -1 : 0;
    if (fflush(pc->f)) pc->errors++;
    if (ferror(pc->f)) pc->errors++;
    if (fclose(pc->f)) pc->errors++;
    pc->f = NULL;
    bad = pc->errors != 0;
    return bad ? -1 : 0;
}
