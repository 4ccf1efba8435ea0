/*
 * test_pcapw.c -- the pcap writer src/core/pcapw.c: file and record
 * headers, the snap length, buffering, and its errors: a bad path, a full
 * device, and a write that stops half way (file size limit), after which
 * the file must hold whole records only.
 */
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "core/pcapw.h"
#include "test.h"

static size_t slurp(const char *path, uint8_t *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

static uint32_t le32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }   /* host order, as written */

TEST(headers_and_snaplen)
{
    char path[] = "/tmp/test_pcapw_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    struct pcapw w;
    uint8_t fr[200];
    for (int i = 0; i < 200; i++)
        fr[i] = (uint8_t)i;
    CHECK_EQ(pcapw_open(&w, path, 100, 4096), 0);
    CHECK_EQ(pcapw_write(&w, 1234567890123ull, fr, 60), 0);   /* 1234 s + 567890123 ns */
    CHECK_EQ(pcapw_write(&w, 5, fr, 200), 0);                 /* cut to 100 */
    CHECK_EQ(w.frames, 2);
    CHECK_EQ(w.cut, 1);
    CHECK_EQ(pcapw_close(&w), 0);
    uint8_t b[1024];
    size_t n = slurp(path, b, sizeof b);
    CHECK_EQ(n, 24 + 16 + 60 + 16 + 100);
    CHECK_EQ(le32(b), PCAPW_MAGIC_NS);
    CHECK_EQ(b[4] | b[5] << 8, 2);                            /* version 2.4 (little-endian host) */
    CHECK_EQ(le32(b + 16), 100);                              /* snaplen */
    CHECK_EQ(le32(b + 20), 1);                                /* LINKTYPE_ETHERNET */
    CHECK_EQ(le32(b + 24), 1234);
    CHECK_EQ(le32(b + 28), 567890123);
    CHECK(le32(b + 32) == 60 && le32(b + 36) == 60);
    CHECK(!memcmp(b + 40, fr, 60));
    CHECK(le32(b + 100) == 0 && le32(b + 104) == 5);
    CHECK(le32(b + 108) == 100 && le32(b + 112) == 200);     /* incl 100, orig 200 */
    CHECK(!memcmp(b + 116, fr, 100));
    CHECK_EQ(pcapw_close(&w), 0);                             /* twice: harmless */
    remove(path);
}

TEST(bad_path_and_full_device)
{
    struct pcapw w;
    errno = 0;
    CHECK_EQ(pcapw_open(&w, "/nonexistent-dir/x.pcap", 0, 4096), -1);
    CHECK_EQ(errno, ENOENT);
    CHECK_EQ(pcapw_close(&w), 0);
    struct stat st;
    if (stat("/dev/full", &st) == 0) {
        errno = 0;
        CHECK_EQ(pcapw_open(&w, "/dev/full", 0, 4096), -1);   /* the header cannot be written */
        CHECK_EQ(errno, ENOSPC);
    }
}

TEST(failed_write_keeps_whole_records)
{
    char path[] = "/tmp/test_pcapw_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    struct pcapw w;
    uint8_t fr[100] = { 0 };
    CHECK_EQ(pcapw_open(&w, path, 0, 1 << 20), 0);
    for (int i = 0; i < 5; i++)
        CHECK_EQ(pcapw_write(&w, (uint64_t)i, fr, sizeof fr), 0);   /* buffered: 5 records of 116 B */
    /* The file may grow to 24 + 2 records + 50 bytes: the flush writes
     * part of the third record, then fails (EFBIG, SIGXFSZ ignored). */
    struct rlimit old, lim;
    getrlimit(RLIMIT_FSIZE, &old);
    lim = old;
    lim.rlim_cur = 24 + 2 * 116 + 50;
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    CHECK_EQ(setrlimit(RLIMIT_FSIZE, &lim), 0);
    int rc = pcapw_close(&w);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, prev);
    CHECK_EQ(rc, -1);
    CHECK_EQ(w.err, EFBIG);
    CHECK_EQ(w.frames, 2);
    CHECK_EQ(w.lost, 3);
    struct stat st;
    CHECK_EQ(stat(path, &st), 0);
    CHECK_EQ(st.st_size, 24 + 2 * 116);                       /* the partial record was cut off */
    CHECK_EQ(pcapw_write(&w, 9, fr, sizeof fr), -1);          /* a failed writer takes nothing */
    CHECK_EQ(w.lost, 4);
    remove(path);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_pcapw";
    RUN(headers_and_snaplen);
    RUN(bad_path_and_full_device);
    RUN(failed_write_keeps_whole_records);
    return test_summary();
}
