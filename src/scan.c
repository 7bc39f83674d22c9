// The support scan of a hull: the vertex farthest along d among all of them,
// over the hull's coordinate blocks (all x, all y, all z), so that several
// vertices are compared per instruction. Two routines give the same answer
// (the first vertex of largest d·v, with d·v rounded the same way:
// (x dx + y dy) + z dz, no fused multiply-add):
// - portable C, which compilers may vectorise on their own;
// - AVX2 (x86-64, double): four vertices per step, each lane keeping the
//   first of its largest, then the lanes compared, ties to the lower index.
// The routine is chosen once, when the hull is built (gjk_hull_scan_kind).
#include "internal.h"

#if !GJK_USE_FLOAT && (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define GJK_HAVE_AVX2_SCAN 1
#include <immintrin.h>
#else
#define GJK_HAVE_AVX2_SCAN 0
#endif

static int scan_portable(const gjk_real *x, const gjk_real *y, const gjk_real *z, int n, gjk_vec3 d) {
    int best = 0;
    gjk_real best_dot = x[0] * d.x + y[0] * d.y + z[0] * d.z;
    for (int i = 1; i < n; ++i) {
        gjk_real t = x[i] * d.x + y[i] * d.y + z[i] * d.z;
        if (t > best_dot) {
            best_dot = t;
            best = i;
        }
    }
    return best;
}

#if GJK_HAVE_AVX2_SCAN
__attribute__((target("avx2"))) static int scan_avx2(const double *x, const double *y, const double *z, int stride,
                                                     gjk_vec3 d) {
    __m256d dx = _mm256_set1_pd(d.x), dy = _mm256_set1_pd(d.y), dz = _mm256_set1_pd(d.z);
    __m256d best = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_loadu_pd(x), dx), _mm256_mul_pd(_mm256_loadu_pd(y), dy)),
                                 _mm256_mul_pd(_mm256_loadu_pd(z), dz));
    __m256i idx = _mm256_setr_epi64x(0, 1, 2, 3);
    __m256i best_idx = idx;
    const __m256i four = _mm256_set1_epi64x(4);
    for (int i = 4; i < stride; i += 4) {
        idx = _mm256_add_epi64(idx, four);
        __m256d t = _mm256_add_pd(
            _mm256_add_pd(_mm256_mul_pd(_mm256_loadu_pd(x + i), dx), _mm256_mul_pd(_mm256_loadu_pd(y + i), dy)),
            _mm256_mul_pd(_mm256_loadu_pd(z + i), dz));
        __m256d gt = _mm256_cmp_pd(t, best, _CMP_GT_OQ);
        best = _mm256_blendv_pd(best, t, gt);
        best_idx = _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(best_idx), _mm256_castsi256_pd(idx), gt));
    }
    double v[4];
    long long k[4];
    _mm256_storeu_pd(v, best);
    _mm256_storeu_si256((__m256i *)k, best_idx);
    int b = 0;
    for (int lane = 1; lane < 4; ++lane) {
        // Arithmetic, not a branch: which lane wins is unpredictable.
        int better = (v[lane] > v[b]) | ((v[lane] == v[b]) & (k[lane] < k[b]));
        b += better * (lane - b);
    }
    return (int)k[b];
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

int gjk_hull_scan(const gjk_hull *h, gjk_vec3 d) {
    const gjk_real *x = h->scan, *y = x + h->scan_stride, *z = y + h->scan_stride;
    int i;
#if GJK_HAVE_AVX2_SCAN
    if (h->scan_kind == 1) {
        i = scan_avx2(x, y, z, h->scan_stride, d);
    } else
#endif
    {
        i = scan_portable(x, y, z, h->vertex_count, d);
    }
    // Padding copies vertex 0, so an index past the end means vertex 0.
    return i < h->vertex_count ? i : 0;
}
