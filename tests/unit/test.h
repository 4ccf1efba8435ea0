/*
 * test.h -- the project's tiny unit-test harness.
 *
 * Model: a test file defines static functions with TEST(name) and lists them
 * in main() with RUN(name).  Each CHECK that fails prints "file:line: expr"
 * and ends the current test as failed.  test_summary() prints one line per
 * binary, "<binary>: N passed, N failed", that tests/run.sh adds up.
 * Nothing here allocates or depends on the simulator.
 */
#ifndef ROCC_TEST_H
#define ROCC_TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int test_passed_, test_failed_, test_cur_failed_;
static const char *test_binary_ = "test";

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
