/*
 * fuzz.h -- shared by the fuzz harnesses tests/fuzz/fuzz_*.c.
 *
 * Each harness defines LLVMFuzzerTestOneInput(), the libFuzzer entry point:
 * one input, any bytes, must never crash, leak, hang or hit undefined
 * behaviour -- rejecting it with an error message is the normal outcome.
 * The same file links two ways (Makefile):
 *   - with libFuzzer (make fuzz: clang -fsanitize=fuzzer,address,undefined)
 *     into build-fuzz/fuzz/NAME, which mutates inputs from
 *     tests/fuzz/corpus/NAME/ (tests/fuzz/run.sh, docs/testing.md);
 *   - with tests/fuzz/replay.c (any compiler) into BUILD/tests/test_fuzz_NAME,
 *     a regular unit test that feeds it every file of the corpus once, so
 *     `make test`, `make test-asan` and `make test-ubsan` replay the seeds
 *     and every crash that was found and fixed (kept there as a regression).
 *
 * The readers of topology, CDF and flow files take a path, so a harness
 * writes its input to a scratch file of its own (fuzz_file) and passes that:
 * the public API stays as it is and the real fopen/getline path is what gets
 * fuzzed.
 */
#ifndef ROCC_FUZZ_H
#define ROCC_FUZZ_H
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char fuzz_path_[64];

static void fuzz_unlink_(void) { if (fuzz_path_[0]) unlink(fuzz_path_); }

/* The input as the content of this process's scratch file (made once, in
 * /dev/shm when it exists, removed at exit); its path, or NULL if it
 * cannot be written (the harness then skips the input). */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
    if (!fuzz_path_[0]) {
        strcpy(fuzz_path_, access("/dev/shm", W_OK) == 0 ? "/dev/shm/rocc_fuzz_XXXXXX" : "/tmp/rocc_fuzz_XXXXXX");
        int fd = mkstemp(fuzz_path_);
        if (fd < 0) {
            fuzz_path_[0] = '\0';
            return NULL;
        }
        close(fd);
        atexit(fuzz_unlink_);
    }
    int fd = open(fuzz_path_, O_WRONLY | O_TRUNC);
    if (fd < 0) return NULL;
    while (size > 0) {
        ssize_t k = write(fd, data, size);
        if (k <= 0) {
            close(fd);
            return NULL;
        }
        data += k;
        size -= (size_t)k;
    }
    close(fd);
    return fuzz_path_;
}

/* The input as a NUL-terminated string (malloc'd; caller frees). */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (s) {
        if (size) memcpy(s, data, size);
        s[size] = '\0';
    }
    return s;
}

#endif
