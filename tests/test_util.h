// Helpers shared by the test programs: deterministic random numbers,
// double-precision vectors for the references, rounding to gjk_real, case
// labels and finiteness checks. Everything is static inline, so each test
// uses what it needs without unused-function warnings.
//
// Each generator keeps the algorithm and the seed of the tests that used it
// before it was shared, so the tested inputs are unchanged.
#ifndef GJK_TEST_UTIL_H
#define GJK_TEST_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "gjk/gjk.h"
#include "gjk/gjk2d.h"
#include "test_macros.h"

// ---------------------------------------------------------------------------
// Random numbers: splitmix64, explicit state (one draw per statement).

typedef struct rng {
    uint64_t s;
} rng;

static inline uint64_t rng_next(rng *r) {
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/// Uniform in [0, 1).
static inline double rng_unit(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }
static inline double rng_range(rng *r, double lo, double hi) { return lo + (hi - lo) * rng_unit(r); }
static inline int rng_int(rng *r, int n) { return (int)(rng_next(r) % (uint64_t)n); }
static inline int rng_chance(rng *r, double p) { return rng_unit(r) < p; }

// ---------------------------------------------------------------------------
// Random numbers: xorshift64 and xorshift64*, state passed by pointer.

/// xorshift64 (13, 7, 17): uniform in [0, 1).
static inline double xorshift64_unit(uint64_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return (double)(*state >> 11) * (1.0 / 9007199254740992.0);
}

/// xorshift64* (12, 25, 27): the next 64-bit output.
static inline uint64_t xorshift64star_next(uint64_t *state) {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 0x2545F4914F6CDD1DULL;
}

/// xorshift64*: uniform in [0, 1).
static inline double xorshift64star_unit(uint64_t *state) {
    return (double)(xorshift64star_next(state) >> 11) * (1.0 / 9007199254740992.0);
}

// A file that defines TEST_XORSHIFT64_SEED before including this header gets
// a global xorshift64 generator with that seed and the gjk_real random helpers
// built on it: rnd_unit(), rnd(), rnd_vec(), rnd_unit_vec() and rnd_quat().
#ifdef TEST_XORSHIFT64_SEED
static uint64_t rng_state = TEST_XORSHIFT64_SEED;

static inline double rnd_unit(void) { return xorshift64_unit(&rng_state); }

static inline gjk_real rnd(double lo, double hi) { return (gjk_real)(lo + (hi - lo) * rnd_unit()); }

static inline gjk_vec3 rnd_vec(double lo, double hi) { return gjk_v3(rnd(lo, hi), rnd(lo, hi), rnd(lo, hi)); }

static inline gjk_vec3 rnd_unit_vec(void) {
    for (;;) {
        gjk_vec3 v = rnd_vec(-1, 1);
        gjk_real l2 = gjk_length_sq(v);
        if (l2 > (gjk_real)0.01 && l2 <= 1) {
            return gjk_normalize(v);
        }
    }
}

/// A uniformly random unit quaternion (rejection sampling in the 4-ball).
static inline gjk_quat rnd_quat(void) {
    for (;;) {
        gjk_quat q = gjk_quat_make(rnd(-1, 1), rnd(-1, 1), rnd(-1, 1), rnd(-1, 1));
        gjk_real n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
        if (n2 > (gjk_real)0.01 && n2 <= 1) {
            return gjk_quat_normalize(q);
        }
    }
}
#endif // TEST_XORSHIFT64_SEED

// ---------------------------------------------------------------------------
// Rounding to gjk_real.

/// x rounded to gjk_real. The volatile round trip makes the rounding stick:
/// GCC 12.2 at -O2 (SLP vectorizer) was seen to fold (double)(float)x back
/// to x, which made the reference use unrounded inputs in float builds.
static inline gjk_real to_real(double x) {
    volatile gjk_real v = (gjk_real)x;
    return v;
}

/// The next gjk_real after x toward `to`.
static inline gjk_real next_real(gjk_real x, gjk_real to) {
#if GJK_USE_FLOAT
    return nextafterf(x, to);
#else
    return nextafter(x, to);
#endif
}

/// The quaternion (w, x, y, z) = q[0..3], rounded to gjk_real.
static inline gjk_quat quat_of(const double q[4]) {
    return gjk_quat_make((gjk_real)q[0], (gjk_real)q[1], (gjk_real)q[2], (gjk_real)q[3]);
}

static inline int vec3_finite(gjk_vec3 v) {
    return isfinite((double)v.x) && isfinite((double)v.y) && isfinite((double)v.z);
}
static inline int vec2_finite(gjk_vec2 v) { return isfinite((double)v.x) && isfinite((double)v.y); }

/// A status that answers the query (not an error).
static inline int status_is_answer(gjk_status s) {
    return s == GJK_SEPARATED || s == GJK_TOUCHING || s == GJK_PENETRATING;
}

// ---------------------------------------------------------------------------
// Double-precision 3D vectors for the references.

typedef struct d3 {
    double x, y, z;
} d3;

static inline d3 d3_make(double x, double y, double z) {
    d3 v = {x, y, z};
    return v;
}
static inline d3 d3_of(gjk_vec3 v) { return d3_make((double)v.x, (double)v.y, (double)v.z); }
static inline d3 d3_add(d3 a, d3 b) { return d3_make(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline d3 d3_sub(d3 a, d3 b) { return d3_make(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline d3 d3_scale(double s, d3 a) { return d3_make(s * a.x, s * a.y, s * a.z); }
static inline double d3_dot(d3 a, d3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline d3 d3_cross(d3 a, d3 b) {
    return d3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double d3_len(d3 a) { return sqrt(d3_dot(a, a)); }
static inline double d3_max_abs(d3 a) { return fmax(fabs(a.x), fmax(fabs(a.y), fabs(a.z))); }
static inline int d3_finite(d3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }
static inline d3 d3_unit(d3 a) { return d3_scale(1 / d3_len(a), a); }
static inline double d3_comp(d3 a, int k) { return k == 0 ? a.x : k == 1 ? a.y : a.z; }
static inline d3 d3_axis(int k, double s) {
    return k == 0 ? d3_make(s, 0, 0) : k == 1 ? d3_make(0, s, 0) : d3_make(0, 0, s);
}

static inline gjk_vec3 to_real3(d3 a) { return gjk_v3(to_real(a.x), to_real(a.y), to_real(a.z)); }

/// Three uniform numbers in [lo, hi), drawn in order (function arguments
/// are evaluated in an unspecified order, so no call draws two numbers).
static inline d3 rng_box(rng *r, double lo, double hi) {
    d3 v;
    v.x = rng_range(r, lo, hi);
    v.y = rng_range(r, lo, hi);
    v.z = rng_range(r, lo, hi);
    return v;
}

/// A uniformly random unit direction: rejection sampling in the unit ball,
/// rejecting lengths <= min_len.
static inline d3 rng_dir3(rng *r, double min_len) {
    for (;;) {
        d3 v = rng_box(r, -1, 1);
        double l = d3_len(v);
        if (l > min_len && l <= 1) return d3_scale(1 / l, v);
    }
}

/// A uniformly random rotation (Shoemake), each component rounded to
/// gjk_real (not renormalised).
static inline gjk_quat rng_quat(rng *r) {
    const double two_pi = 6.283185307179586;
    double u1 = rng_unit(r), u2 = rng_unit(r), u3 = rng_unit(r);
    double a = sqrt(1 - u1), b = sqrt(u1);
    return gjk_quat_make(to_real(a * sin(two_pi * u2)), to_real(a * cos(two_pi * u2)), to_real(b * sin(two_pi * u3)),
                         to_real(b * cos(two_pi * u3)));
}

/// A rotation matrix by columns (images of the local axes), in double, from a
/// stored quaternion normalised in double.
typedef struct dmat {
    d3 c[3];
} dmat;

static inline dmat dmat_of_quat(gjk_quat q) {
    double w = (double)q.w, x = (double)q.x, y = (double)q.y, z = (double)q.z;
    double n = sqrt(w * w + x * x + y * y + z * z);
    w /= n, x /= n, y /= n, z /= n;
    dmat m;
    m.c[0] = d3_make(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y));
    m.c[1] = d3_make(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x));
    m.c[2] = d3_make(2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y));
    return m;
}
/// R v.
static inline d3 dmat_mul(const dmat *m, d3 v) {
    return d3_add(d3_add(d3_scale(v.x, m->c[0]), d3_scale(v.y, m->c[1])), d3_scale(v.z, m->c[2]));
}
/// Rᵀ v.
static inline d3 dmat_tmul(const dmat *m, d3 v) {
    return d3_make(d3_dot(m->c[0], v), d3_dot(m->c[1], v), d3_dot(m->c[2], v));
}

// ---------------------------------------------------------------------------
// Point–segment and point–triangle distances (closest point by Voronoi
// regions), in double.

static inline double seg_dist(d3 p, d3 a, d3 b) {
    d3 ab = d3_sub(b, a);
    double l2 = d3_dot(ab, ab);
    double t = l2 > 0 ? d3_dot(d3_sub(p, a), ab) / l2 : 0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    return d3_len(d3_sub(p, d3_add(a, d3_scale(t, ab))));
}

static inline double tri_dist(d3 p, d3 a, d3 b, d3 c) {
    d3 ab = d3_sub(b, a), ac = d3_sub(c, a);
    d3 n = d3_cross(ab, ac);
    double nn = d3_dot(n, n);
    if (!(nn > 1e-24 * d3_dot(ab, ab) * d3_dot(ac, ac))) {
        // Degenerate (needle or point): the closest point is on an edge.
        return fmin(seg_dist(p, a, b), fmin(seg_dist(p, b, c), seg_dist(p, a, c)));
    }
    d3 ap = d3_sub(p, a);
    double d1 = d3_dot(ab, ap), d2 = d3_dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return d3_len(ap);
    d3 bp = d3_sub(p, b);
    double d3_ = d3_dot(ab, bp), d4 = d3_dot(ac, bp);
    if (d3_ >= 0 && d4 <= d3_) return d3_len(bp);
    d3 cp = d3_sub(p, c);
    double d5 = d3_dot(ab, cp), d6 = d3_dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return d3_len(cp);
    double vc = d1 * d4 - d3_ * d2;
    if (vc <= 0 && d1 >= 0 && d3_ <= 0) return seg_dist(p, a, b);
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return seg_dist(p, a, c);
    double va = d3_ * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3_) >= 0 && (d5 - d6) >= 0) return seg_dist(p, b, c);
    // Inside the face region: distance to the plane.
    return fabs(d3_dot(ap, n)) / sqrt(nn);
}

// ---------------------------------------------------------------------------
// Double-precision 2D vectors for the references. (d2_len is each file's
// own: some use sqrt of the dot product, some hypot.)

typedef struct d2 {
    double x, y;
} d2;

static inline d2 d2_make(double x, double y) {
    d2 v = {x, y};
    return v;
}
static inline d2 d2_of(gjk_vec2 v) { return d2_make((double)v.x, (double)v.y); }
static inline d2 d2_add(d2 a, d2 b) { return d2_make(a.x + b.x, a.y + b.y); }
static inline d2 d2_sub(d2 a, d2 b) { return d2_make(a.x - b.x, a.y - b.y); }
static inline d2 d2_scale(double s, d2 a) { return d2_make(s * a.x, s * a.y); }
static inline double d2_dot(d2 a, d2 b) { return a.x * b.x + a.y * b.y; }
static inline double d2_cross(d2 a, d2 b) { return a.x * b.y - a.y * b.x; }
static inline double d2_max_abs(d2 a) { return fmax(fabs(a.x), fabs(a.y)); }
static inline int d2_finite(d2 a) { return isfinite(a.x) && isfinite(a.y); }

static inline gjk_vec2 to_real2(d2 a) { return gjk_v2(to_real(a.x), to_real(a.y)); }

/// A rotation in double from a stored (cos, sin), normalised as the library does.
typedef struct drot {
    double c, s;
} drot;
static inline drot drot_of(gjk_rot2 r) {
    double n = hypot((double)r.c, (double)r.s);
    drot d = {(double)r.c / n, (double)r.s / n};
    return d;
}
static inline d2 drot_apply(drot r, d2 v) { return d2_make(r.c * v.x - r.s * v.y, r.s * v.x + r.c * v.y); }
static inline d2 drot_inv(drot r, d2 v) { return d2_make(r.c * v.x + r.s * v.y, -r.s * v.x + r.c * v.y); }

// ---------------------------------------------------------------------------
// Failure context: failures inside helpers print the case they belong to.
// The label is kept by pointer: it must live until case_end().

static const char *case_label = "";
static int case_failures = 0;

static inline void case_begin(const char *label) {
    case_label = label;
    case_failures = test_failures;
}

static inline void case_end(void) {
    if (test_failures > case_failures) {
        fprintf(stderr, "    ^ in case: %s\n", case_label);
    }
    case_failures = test_failures;
}

/// A point that GJK and EPA answer: a polytope of one vertex at the origin.
/// The queries answer a point or sphere against a box, cylinder, cone or
/// ellipsoid in closed form (src/point_shape.c); tests of the walk's and
/// EPA's own behaviour give their points this way (with a margin for a
/// sphere).
static inline gjk_shape walk_point(void) {
    static const gjk_vec3 origin = {0, 0, 0};
    return gjk_make_polytope(&origin, 1);
}

#endif // GJK_TEST_UTIL_H
