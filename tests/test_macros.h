// Minimal test macros: each test is a program; a failed check prints where
// and why and makes the program exit non-zero.
#ifndef GJK_TEST_MACROS_H
#define GJK_TEST_MACROS_H

#include <stdio.h>
#include <stdlib.h>

#include "gjk/gjk.h"

/// Relative tolerance of value checks: 1e-9 in double, scaled for float.
#if GJK_USE_FLOAT
#define TEST_REL_TOL 2e-4
#else
#define TEST_REL_TOL 1e-9
#endif

static int test_failures = 0;

#define ENSURE(cond)                                                                  \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            ++test_failures;                                                          \
        }                                                                             \
    } while (0)

/// |a − b| ≤ tol, printing both values on failure.
#define ENSURE_NEAR(a, b, tol)                                                                           \
    do {                                                                                                 \
        double ensure_a_ = (double)(a), ensure_b_ = (double)(b), ensure_t_ = (double)(tol);              \
        if (!(ensure_a_ - ensure_b_ <= ensure_t_ && ensure_b_ - ensure_a_ <= ensure_t_)) {               \
            fprintf(stderr, "%s:%d: %s = %.17g, expected %s = %.17g within %.3g\n", __FILE__, __LINE__,  \
                    #a, ensure_a_, #b, ensure_b_, ensure_t_);                                            \
            ++test_failures;                                                                             \
        }                                                                                                \
    } while (0)

/// Every component of two vectors within tol.
#define ENSURE_VEC_NEAR(u, v, tol)           \
    do {                                     \
        ENSURE_NEAR((u).x, (v).x, tol);      \
        ENSURE_NEAR((u).y, (v).y, tol);      \
        ENSURE_NEAR((u).z, (v).z, tol);      \
    } while (0)

#define RUN_TEST(fn)                                      \
    do {                                                  \
        int before_ = test_failures;                      \
        fn();                                             \
        printf("%-40s %s\n", #fn, test_failures == before_ ? "ok" : "FAILED"); \
    } while (0)

/// Ends main: prints a summary and returns the exit status.
#define TEST_SUMMARY()                                                        \
    (printf("%s\n", test_failures ? "FAILED" : "all checks passed"), test_failures ? 1 : 0)

#endif // GJK_TEST_MACROS_H
