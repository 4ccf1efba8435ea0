/*
 * test.h -- the project's tiny unit-test harness.
 *
 * Model: a test file defines static functions with TEST(name) and lists them
 * in main() with RUN(name).  Each CHECK that fails prints "file:line: expr"
 * and ends the current test as failed.  test_summary() prints one line per
 * binary, "<binary>: N passed, N failed", that tests/run.sh adds up.
 * Nothing here allocates or depends on the simulator; test_write_tmp()
 * makes the temporary input files of the parser tests.
 */
#ifndef ROCC_TEST_H
#define ROCC_TEST_H

#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int test_passed_, test_failed_, test_cur_failed_;
static const char *test_binary_ = "test";
static const char *volatile test_cur_name_ = "?";     /* set by RUN */
static struct sigaction test_old_sa_[32];

/* A crash (or a failed assert) inside a test still yields its FAIL line:
 * stdout is line-buffered so earlier PASS lines are out, and the handler
 * names the running test, then hands the signal to whoever had it before
 * (ASan's reporter, or the default action).  Call test_crash_guard() first
 * thing in main(). */
static inline void test_on_crash_(int sig)
{
    char line[200];
    size_t k = 0;
    const char *parts[] = { "FAIL ", test_binary_, ".", test_cur_name_, " (crashed)\n" };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        for (const char *s = parts[i]; *s && k < sizeof line; s++)
            line[k++] = *s;
    ssize_t w = write(1, line, k);
    (void)w;
    sigaction(sig, &test_old_sa_[sig], NULL);
    if (sig == SIGABRT)
        raise(sig);
    /* SIGSEGV/SIGBUS/SIGFPE: returning re-executes the fault under the
     * previous handler, which then sees the real context. */
}

static inline void test_crash_guard(void)
{
    static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGABRT };
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = test_on_crash_;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, &test_old_sa_[sigs[i]]);
    }
}

/* Write len bytes of text to a new /tmp file (mkstemp), whose name goes to
 * path; the caller unlinks it.  0 on success, -1 (nothing left behind) if
 * the file cannot be made or written. */
#define TEST_PATHLEN 32
static inline int test_write_tmp(const char *text, size_t len, char path[TEST_PATHLEN])
{
    int fd;
    strcpy(path, "/tmp/rocc_test_XXXXXX");
    if ((fd = mkstemp(path)) < 0)
        return -1;
    while (len > 0) {
        ssize_t k = write(fd, text, len);
        if (k <= 0) {
            close(fd);
            unlink(path);
            return -1;
        }
        text += k;
        len -= (size_t)k;
    }
    return close(fd);
}

#define TEST(name) static void name(void)

#define CHECK(cond)                                                         \
    do {                                                                    \
        if (!(cond)) {                                                      \
            printf("  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
            test_cur_failed_ = 1;                                           \
            return;                                                         \
        }                                                                   \
    } while (0)

#define CHECK_EQ(a, b)                                                      \
    do {                                                                    \
        long long a_ = (long long)(a), b_ = (long long)(b);                 \
        if (a_ != b_) {                                                     \
            printf("  %s:%d: CHECK_EQ(%s, %s): %lld != %lld\n", __FILE__,   \
                   __LINE__, #a, #b, a_, b_);                               \
            test_cur_failed_ = 1;                                           \
            return;                                                         \
        }                                                                   \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                               \
    do {                                                                    \
        double a_ = (double)(a), b_ = (double)(b);                          \
        if (!(fabs(a_ - b_) <= (double)(tol))) {                            \
            printf("  %s:%d: CHECK_NEAR(%s, %s): %.9g vs %.9g (tol %g)\n",  \
                   __FILE__, __LINE__, #a, #b, a_, b_, (double)(tol));      \
            test_cur_failed_ = 1;                                           \
            return;                                                         \
        }                                                                   \
    } while (0)

#define CHECK_STR(a, b)                                                     \
    do {                                                                    \
        const char *a_ = (a), *b_ = (b);                                    \
        if (!a_ || !b_ || strcmp(a_, b_) != 0) {                            \
            printf("  %s:%d: CHECK_STR(%s, %s): \"%s\" != \"%s\"\n",        \
                   __FILE__, __LINE__, #a, #b, a_ ? a_ : "(null)",          \
                   b_ ? b_ : "(null)");                                     \
            test_cur_failed_ = 1;                                           \
            return;                                                         \
        }                                                                   \
    } while (0)

#define RUN(name)                                                           \
    do {                                                                    \
        test_cur_failed_ = 0;                                               \
        test_cur_name_ = #name;                                             \
        name();                                                             \
        if (test_cur_failed_) {                                             \
            test_failed_++;                                                 \
            printf("FAIL %s.%s\n", test_binary_, #name);                    \
        } else {                                                            \
            test_passed_++;                                                 \
            printf("PASS %s.%s\n", test_binary_, #name);                    \
        }                                                                   \
    } while (0)

static inline int test_summary(void)
{
    printf("%s: %d passed, %d failed\n", test_binary_, test_passed_, test_failed_);
    return test_failed_ ? 1 : 0;
}

#endif
