// Exact orientation by integer arithmetic on 64-bit words only (portable
// C11: no compiler's 128-bit type is assumed). Cross products' components
// take two words (128 bits), the orientation determinant three (192 bits),
// all in two's complement, least significant word first. Products of two
// 64-bit magnitudes are formed from their 32-bit halves (schoolbook
// multiplication; Knuth, TAOCP vol. 2, §4.3.1).
#include "exact.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/// A signed 128-bit value: hi·2^64 + lo.
typedef struct wide {
    uint64_t hi, lo;
} wide;

/// A signed 192-bit value: w[2]·2^128 + w[1]·2^64 + w[0].
typedef struct wide3 {
    uint64_t w[3];
} wide3;

static wide wide_neg(wide x) {
    wide r;
    r.lo = ~x.lo + 1;
    r.hi = ~x.hi + (r.lo == 0 ? 1u : 0u);
    return r;
}

static wide wide_add(wide x, wide y) {
    wide r;
    r.lo = x.lo + y.lo;
    r.hi = x.hi + y.hi + (r.lo < x.lo ? 1u : 0u);
    return r;
}

static bool wide_negative(wide x) { return (x.hi >> 63) != 0; }

static wide3 wide3_neg(wide3 x) {
    wide3 r;
    uint64_t carry = 1;
    for (int k = 0; k < 3; ++k) {
        r.w[k] = ~x.w[k] + carry;
        carry = carry != 0 && r.w[k] == 0 ? 1u : 0u;
    }
    return r;
}

static wide3 wide3_add(wide3 x, wide3 y) {
    wide3 r;
    uint64_t carry = 0;
    for (int k = 0; k < 3; ++k) {
        uint64_t s = x.w[k] + carry;
        uint64_t c1 = s < carry ? 1u : 0u;
        r.w[k] = s + y.w[k];
        carry = c1 + (r.w[k] < s ? 1u : 0u);
    }
    return r;
}

/// The 128-bit product of two unsigned 64-bit values.
static wide umul(uint64_t a, uint64_t b) {
    const uint64_t mask = 0xffffffffu;
    uint64_t a0 = a & mask, a1 = a >> 32, b0 = b & mask, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    // The middle column: at most 3·(2^32 − 1), no overflow.
    uint64_t mid = (p00 >> 32) + (p01 & mask) + (p10 & mask);
    wide r;
    r.lo = (mid << 32) | (p00 & mask);
    r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    return r;
}

static uint64_t magnitude(int64_t a) { return a < 0 ? 0 - (uint64_t)a : (uint64_t)a; }

/// a·b for |a|, |b| < 2^63.
static wide mul(int64_t a, int64_t b) {
    wide p = umul(magnitude(a), magnitude(b));
    return (a < 0) != (b < 0) ? wide_neg(p) : p;
}

/// x·d for |x| < 2^127 and |d| < 2^63, in 192 bits: each word of |x|
/// times |d| as a full product, the high one's shifted by a word.
static wide3 mul_wide(wide x, int64_t d) {
    bool neg = wide_negative(x);
    wide m = neg ? wide_neg(x) : x;
    uint64_t ud = magnitude(d);
    wide lo = umul(m.lo, ud), hi = umul(m.hi, ud);
    wide3 a = {{lo.lo, lo.hi, 0}}, b = {{0, hi.lo, hi.hi}};
    wide3 p = wide3_add(a, b);
    return neg != (d < 0) ? wide3_neg(p) : p;
}

static double wide_to_double(wide x) {
    bool neg = wide_negative(x);
    wide m = neg ? wide_neg(x) : x;
    double v = (double)m.hi * 18446744073709551616.0 + (double)m.lo; // hi·2^64 + lo
    return neg ? -v : v;
}

/// (b − a) × (c − a), exact.
static void cross(const double a[3], const double b[3], const double c[3], wide out[3]) {
    int64_t u[3], v[3];
    for (int k = 0; k < 3; ++k) {
        u[k] = (int64_t)b[k] - (int64_t)a[k];
        v[k] = (int64_t)c[k] - (int64_t)a[k];
    }
    out[0] = wide_add(mul(u[1], v[2]), wide_neg(mul(u[2], v[1])));
    out[1] = wide_add(mul(u[2], v[0]), wide_neg(mul(u[0], v[2])));
    out[2] = wide_add(mul(u[0], v[1]), wide_neg(mul(u[1], v[0])));
}

int gjk_exact_orient(const double a[3], const double b[3], const double c[3], const double d[3]) {
    wide n[3];
    cross(a, b, c, n);
    wide3 s = {{0, 0, 0}};
    for (int k = 0; k < 3; ++k) {
        s = wide3_add(s, mul_wide(n[k], (int64_t)d[k] - (int64_t)a[k]));
    }
    if ((s.w[2] >> 63) != 0) {
        return -1;
    }
    return (s.w[0] | s.w[1] | s.w[2]) != 0 ? 1 : 0;
}

/// p·s − q·r within 2u of itself (u = 2^−53) and exactly zero when it is
/// zero, whatever the cancellation: Kahan's 2×2 determinant, w = q·r
/// rounded and its error w − q·r taken exactly by fma (Jeannerod, Louvet
/// and Muller, "Further analysis of Kahan's algorithm for the accurate
/// computation of 2×2 determinants", Math. Comp. 82, 2013). When p·s = q·r
/// exactly, fma(p, s, −w) = q·r − w = −e exactly, and the sum is 0. It
/// needs an fma that fuses (one rounding): test_fma_fuses checks the
/// platform's; an fma done as a·b + c gave zero or wrong-signed components
/// to 1,442 of a million grid triangles in a review's run.
static double det2(double p, double q, double r, double s) {
    double w = q * r;
    double e = fma(-q, r, w);
    return fma(p, s, -w) + e;
}

void gjk_grid_cross(const double a[3], const double b[3], const double c[3], double out[3]) {
    // The differences are integers below 2^51: exact.
    double u[3], v[3];
    for (int k = 0; k < 3; ++k) {
        u[k] = b[k] - a[k];
        v[k] = c[k] - a[k];
    }
    out[0] = det2(u[1], u[2], v[1], v[2]);
    out[1] = det2(u[2], u[0], v[2], v[0]);
    out[2] = det2(u[0], u[1], v[0], v[1]);
}

void gjk_exact_cross(const double a[3], const double b[3], const double c[3], double out[3]) {
    wide n[3];
    cross(a, b, c, n);
    for (int k = 0; k < 3; ++k) {
        out[k] = wide_to_double(n[k]);
    }
}
