// The support scans: of a hull (3D), of a polytope's points as the caller
// gave them, and of a 2D polygon.
//
// A hull's: the vertex farthest along d among all of them,
// over the hull's coordinate blocks (all x, all y, all z), so that several
// vertices are compared per instruction (and the same over the hull's start
// sample, where hill climbing begins). Two routines give the same answer
// (the first vertex of largest d·v, with d·v rounded the same way:
// (x dx + y dy) + z dz, no fused multiply-add):
// - portable C, which compilers may vectorise on their own;
// - AVX2 (x86-64, double): eight vertices per step in two independent
//   registers of four (two dependency chains, so the comparisons of one
//   overlap the products of the other), each lane keeping the first of its
//   largest; then the two registers and the four lanes are merged, ties to
//   the lower index.
// The routine is chosen once, when the hull is built (gjk_hull_scan_kind);
// the choice itself is made inline (support.h).
//
// A polytope's points without a hull (gjk_scan_points_wide) and a 2D
// polygon's (gjk2_scan_wide): the caller's arrays as given,
// coordinates interleaved, four points per AVX2 step (3D: three loads
// regrouped into x, y and z by blends; 2D: two loads split into x and y
// by unpacks), the same index as the loops of
// support.h and support2.h (the first of the largest d·v, rounded as
// they round it). The arrays come with each query, not built once as a
// hull, so the CPU is asked each call (a load and a test).
#include <math.h>

#include "internal.h"
#include "support2.h"

#if GJK_HAVE_AVX2_SCAN
#include <immintrin.h>
#endif

int gjk_scan_portable(const gjk_real *scan, int stride, int count, gjk_vec3 d) {
    const gjk_real *x = scan, *y = x + stride, *z = y + stride;
    int best = 0;
    gjk_real best_dot = x[0] * d.x + y[0] * d.y + z[0] * d.z;
    for (int i = 1; i < count; ++i) {
        gjk_real t = x[i] * d.x + y[i] * d.y + z[i] * d.z;
        if (t > best_dot) {
            best_dot = t;
            best = i;
        }
    }
    return best;
}

#if GJK_HAVE_AVX2_SCAN
#define SCAN_AVX2 __attribute__((target("avx2")))

/// d·v of the four vertices at offset i, rounded as (x dx + y dy) + z dz.
static inline SCAN_AVX2 __m256d dot4(const double *x, const double *y, const double *z, int i, __m256d dx, __m256d dy,
                                     __m256d dz) {
    return _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_loadu_pd(x + i), dx), _mm256_mul_pd(_mm256_loadu_pd(y + i), dy)),
                         _mm256_mul_pd(_mm256_loadu_pd(z + i), dz));
}

/// Lanes where (t, it) beats (best, ib): larger, or equal with a lower index.
static inline SCAN_AVX2 __m256d beats(__m256d t, __m256i it, __m256d best, __m256i ib) {
    __m256d gt = _mm256_cmp_pd(t, best, _CMP_GT_OQ);
    __m256d eq = _mm256_cmp_pd(t, best, _CMP_EQ_OQ);
    __m256d lower = _mm256_castsi256_pd(_mm256_cmpgt_epi64(ib, it));
    return _mm256_or_pd(gt, _mm256_and_pd(eq, lower));
}

int SCAN_AVX2 gjk_scan_avx2(const gjk_real *scan, int stride, int count, gjk_vec3 d) {
    // stride is a multiple of 8; the tail is padded with copies of point 0,
    // which never beat point 0 itself (equal, higher index).
    const double *x = scan, *y = x + stride, *z = y + stride;
    __m256d dx = _mm256_set1_pd(d.x), dy = _mm256_set1_pd(d.y), dz = _mm256_set1_pd(d.z);
    // Two running bests: vertices 8k + 0..3 and 8k + 4..7. Within each
    // register a lane sees its vertices in increasing order and keeps the
    // first of its largest (strictly greater replaces).
    __m256i i0 = _mm256_setr_epi64x(0, 1, 2, 3), i1 = _mm256_setr_epi64x(4, 5, 6, 7);
    __m256d b0 = dot4(x, y, z, 0, dx, dy, dz), b1 = dot4(x, y, z, 4, dx, dy, dz);
    __m256i k0 = i0, k1 = i1;
    const __m256i eight = _mm256_set1_epi64x(8);
    for (int i = 8; i < stride; i += 8) {
        i0 = _mm256_add_epi64(i0, eight);
        i1 = _mm256_add_epi64(i1, eight);
        __m256d t0 = dot4(x, y, z, i, dx, dy, dz), t1 = dot4(x, y, z, i + 4, dx, dy, dz);
        __m256d g0 = _mm256_cmp_pd(t0, b0, _CMP_GT_OQ), g1 = _mm256_cmp_pd(t1, b1, _CMP_GT_OQ);
        b0 = _mm256_blendv_pd(b0, t0, g0);
        b1 = _mm256_blendv_pd(b1, t1, g1);
        k0 = _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(k0), _mm256_castsi256_pd(i0), g0));
        k1 = _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(k1), _mm256_castsi256_pd(i1), g1));
    }
    // Merge the two registers lane by lane, then the lanes, each time the
    // larger value or, on a tie, the lower index.
    __m256d m = beats(b1, k1, b0, k0);
    b0 = _mm256_blendv_pd(b0, b1, m);
    k0 = _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(k0), _mm256_castsi256_pd(k1), m));
    // Lanes (0, 1) against (2, 3).
    __m256d bs = _mm256_permute2f128_pd(b0, b0, 1);
    __m256i ks = _mm256_permute2x128_si256(k0, k0, 1);
    m = beats(bs, ks, b0, k0);
    b0 = _mm256_blendv_pd(b0, bs, m);
    k0 = _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(k0), _mm256_castsi256_pd(ks), m));
    // Lane 0 against lane 1.
    bs = _mm256_permute_pd(b0, 0x5);
    ks = _mm256_castpd_si256(_mm256_permute_pd(_mm256_castsi256_pd(k0), 0x5));
    m = beats(bs, ks, b0, k0);
    k0 = _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(k0), _mm256_castsi256_pd(ks), m));
    int i = (int)_mm256_extract_epi64(k0, 0);
    // NaN directions compare false everywhere: any lane's index may come
    // back, padding included, which means vertex 0.
    return i < count ? i : 0;
}

/// Of four lanes (value, index), the least index among those that hold the
/// largest value; *value receives that value. The lanes hold numbers or
/// −inf, never NaN (the scans' lanes start at −inf and take only larger
/// values).
static inline SCAN_AVX2 int first_of_largest(__m256d best, __m256d bi, double *value) {
    __m256d m = _mm256_max_pd(best, _mm256_permute2f128_pd(best, best, 1));
    m = _mm256_max_pd(m, _mm256_permute_pd(m, 0x5));
    __m256d cand = _mm256_blendv_pd(_mm256_set1_pd(HUGE_VAL), bi, _mm256_cmp_pd(best, m, _CMP_EQ_OQ));
    cand = _mm256_min_pd(cand, _mm256_permute2f128_pd(cand, cand, 1));
    cand = _mm256_min_pd(cand, _mm256_permute_pd(cand, 0x5));
    *value = _mm256_cvtsd_f64(m);
    return (int)_mm256_cvtsd_f64(cand);
}

/// d·v of the four vertices v[0..3] (x, y pairs from p), in the lane order
/// (v0, v2, v1, v3): the two loads' x and y gathered by unpacks, rounded as
/// x dx + y dy.
static inline SCAN_AVX2 __m256d dot4_2d(const double *p, __m256d dx, __m256d dy) {
    __m256d l0 = _mm256_loadu_pd(p), l1 = _mm256_loadu_pd(p + 4);
    return _mm256_add_pd(_mm256_mul_pd(_mm256_unpacklo_pd(l0, l1), dx), _mm256_mul_pd(_mm256_unpackhi_pd(l0, l1), dy));
}

/// d·v of the four points at p (x, y, z triples), rounded as
/// (x dx + y dy) + z dz, in their order. The three loads hold
/// [x0 y0 | z0 x1], [y1 z1 | x2 y2], [z2 x3 | y3 z3]; two blends and a
/// swap of halves regroup them as [x0 y0 | x2 y2], [z0 x1 | z2 x3] and
/// [y1 z1 | y3 z3], and two blends and a shuffle give the x, y and z of
/// the four points.
static inline SCAN_AVX2 __m256d dot4_3d(const double *p, __m256d dx, __m256d dy, __m256d dz) {
    __m256d l0 = _mm256_loadu_pd(p), l1 = _mm256_loadu_pd(p + 4), l2 = _mm256_loadu_pd(p + 8);
    __m256d a = _mm256_blend_pd(l0, l1, 0xC), b = _mm256_permute2f128_pd(l0, l2, 0x21), c = _mm256_blend_pd(l1, l2, 0xC);
    __m256d x = _mm256_blend_pd(a, b, 0xA), y = _mm256_shuffle_pd(a, c, 0x5), z = _mm256_blend_pd(b, c, 0xA);
    return _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(x, dx), _mm256_mul_pd(y, dy)), _mm256_mul_pd(z, dz));
}

_Static_assert(sizeof(gjk_vec2) == 2 * sizeof(double) && sizeof(gjk_vec3) == 3 * sizeof(double),
               "the interleaved scans read points as packed doubles");

/// d·v of one point of dim coordinates at p, rounded as the loops of
/// support.h and support2.h round it.
static inline double dot_at(const double *p, int dim, gjk_vec3 d) {
    return dim == 2 ? p[0] * d.x + p[1] * d.y : p[0] * d.x + p[1] * d.y + p[2] * d.z;
}

/// The index of the point farthest along d among count ≥ 4 points of dim
/// (2 or 3, a constant where it is inlined) coordinates interleaved at p:
/// four points per step, each lane keeping the first of its largest
/// (indices carried as doubles, exact), then the largest value over the
/// lanes and the least index holding it, and the last count mod 4 points
/// one by one. The loop's answer with a NaN among the products (inf − inf,
/// from huge points and directions): point 0 when its own is NaN, else the
/// first of the largest of the others; the lanes start below every number
/// so that a NaN never stays.
static inline __attribute__((always_inline)) SCAN_AVX2 int scan_interleaved(const double *p, int count, const int dim,
                                                                          gjk_vec3 d) {
    double first = dot_at(p, dim, d);
    if (!(first == first)) {
        return 0;
    }
    __m256d dx = _mm256_set1_pd(d.x), dy = _mm256_set1_pd(d.y), dz = _mm256_set1_pd(d.z);
    const __m256d four = _mm256_set1_pd(4);
    // The lanes' first indices: dot4_2d's order, or the points' own.
    __m256d idx = dim == 2 ? _mm256_setr_pd(0, 2, 1, 3) : _mm256_setr_pd(0, 1, 2, 3);
    __m256d bi = idx, best = _mm256_set1_pd(-HUGE_VAL);
    // The blocks' start advances by a pointer: an int offset (12 k) would
    // overflow past 715 million points (a review's 3D cloud read before the
    // array and crashed).
    int blocks = count / 4;
    const double *q = p;
    for (int k = 0; k < blocks; ++k, q += 4 * dim) {
        __m256d t = dim == 2 ? dot4_2d(q, dx, dy) : dot4_3d(q, dx, dy, dz);
        __m256d g = _mm256_cmp_pd(t, best, _CMP_GT_OQ);
        best = _mm256_blendv_pd(best, t, g);
        bi = _mm256_blendv_pd(bi, idx, g);
        idx = _mm256_add_pd(idx, four);
    }
    double best_dot;
    int i = first_of_largest(best, bi, &best_dot);
    // The rest, each later than every point so far: strictly larger wins.
    for (int j = 4 * blocks; j < count; ++j, q += dim) {
        double t = dot_at(q, dim, d);
        if (t > best_dot) {
            best_dot = t;
            i = j;
        }
    }
    return i;
}

static SCAN_AVX2 int scan2_avx2(const gjk_vec2 *v, int count, gjk_vec2 d) {
    return scan_interleaved(&v[0].x, count, 2, gjk_v3(d.x, d.y, 0));
}

int gjk2_scan_wide(const gjk_vec2 *v, int count, gjk_vec2 d) {
    if (count >= 4 && __builtin_cpu_supports("avx2")) {
        return scan2_avx2(v, count, d);
    }
    return gjk2_support_index(v, count, 1, d);
}

static SCAN_AVX2 int scan3_avx2(const gjk_vec3 *v, int count, gjk_vec3 d) {
    return scan_interleaved(&v[0].x, count, 3, d);
}

int gjk_scan_points_wide(const gjk_vec3 *v, int count, gjk_vec3 d) {
    if (count >= 4 && __builtin_cpu_supports("avx2")) {
        return scan3_avx2(v, count, d);
    }
    return gjk_support_index(v, count, d);
}
#endif

int gjk_hull_scan_kind(void) {
#if GJK_HAVE_AVX2_SCAN
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
#else
    return 0;
#endif
}
