// Differential test of gjk_penetration and gjk_distance against an exact
// reference: the convex hull of the Minkowski difference of two polytopes,
// built with libqhull (reentrant API), always in double precision.
//
// Reference. For polytopes A and B with margins mA and mB placed by rigid
// transforms, let D0 = conv{R_A a_i − R_B b_j} (no translations, so pairs far
// from the origin lose nothing) and r = p_B − p_A. The origin lies in the
// difference A − B exactly when r ∈ D0, so the signed distance of the rounded
// shapes is sdist(r, D0) − (mA + mB), where sdist is the distance from r to
// D0 (minimum over the triangulated facets) when r is outside and minus the
// distance to the nearest facet plane when r is inside. reference_selfcheck()
// checks this on two cubes with known answers.
//
// Pairs. Random polytopes (4–40 points on or in ellipsoids and boxes, some
// thin, some with lattice-rounded, duplicate or interior points), sizes
// 0.05–20, margins 0 or up to 0.3·size, random or aligned rotations, pair
// offsets from the world origin up to 1e4. Each pair gets a target signed
// distance, a multiple of the size from +3 to −0.6 (see k_targets); B is put
// at r = c + t·u (c the centroid of D0, u a random direction) and t is
// bisected on the reference, which is convex in t. The reference is then
// recomputed from the inputs exactly as stored (gjk_real).
//
// Checks (tol = TEST_REL_TOL·size, size = the larger of the shapes' max vertex
// distance from their centroid plus margin; checks of world points add
// 4·eps·|coordinate|, their representation limit, which matters in float):
//  - penetration: status separated/touching/penetrating; all outputs finite;
//    |signed_distance − reference| <= tol; status agrees with the sign when
//    |reference| > 2 tol; depth = max(0, −signed_distance); unit normal;
//    point_a on A's boundary and point_b on B's (distance to the core hull =
//    margin); point_b − point_a = signed_distance·normal; the normal realises
//    the signed distance: h_A(n) + h_B(−n) = −signed_distance (h = support
//    value incl. margin), for overlapping and separated pairs; moving B by
//    (depth + 10 tol)·normal makes the pair separated or touching.
//  - distance: status as above and equal to penetration's; |distance −
//    max(0, reference)| <= tol; |point_b − point_a| = distance; when
//    separated the points lie on the boundaries, the normal is unit and
//    point_b − point_a = distance·normal; otherwise both points lie in both
//    shapes and the normal is zero or unit.
//
// Usage: test_reference [first_pair [pair_count]]. With one argument only
// that pair runs, verbosely (to reproduce a failure); failures print the
// pair's vertices, margins and transforms.
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gjk/gjk.h"
#include "qhull_reference.h"

/// Pairs per run: 300 per target; about 3 s in a Release build.
#define REF_PAIRS 5400
#if GJK_USE_FLOAT
#define NORMAL_UNIT_TOL 1e-3
#define REAL_FMT "%.9g"
#else
#define NORMAL_UNIT_TOL 1e-6
#define REAL_FMT "%.17g"
#endif

#define BASE_SEED 0x5eed0f9e3779b97fULL
#define MAX_VERTS 40
#define MAX_FAIL_LINES 60
#define MAX_DUMPED_PAIRS 6

// Multiples of the size; ±1e-6, ±1e-8 and 0 probe contact (in double the
// touching band is |sd| <= 2 tol = 2e-9·size, so ±1e-8 still has a sign).
static const double k_targets[] = {3,    1,     0.3,   0.1,   1e-2,  1e-3,  1e-4, 1e-6, 1e-8,
                                   0,    -1e-8, -1e-6, -1e-4, -1e-3, -1e-2, -0.1, -0.3, -0.6};
#define N_TARGETS ((int)(sizeof k_targets / sizeof k_targets[0]))

// ---------------------------------------------------------------------------
// Random numbers (splitmix64), double-precision vectors and rotations,
// point–triangle distance: test_util.h. Convex hulls with qhull and the
// signed distance to them: qhull_reference.h.

// ---------------------------------------------------------------------------
// Random shapes and poses.

static d3 random_dir(rng *r) { return rng_dir3(r, 1e-3); }

static gjk_quat random_quat(rng *r) {
    double u1 = rng_unit(r), u2 = rng_unit(r), u3 = rng_unit(r);
    const double two_pi = 6.283185307179586;
    double a = sqrt(1 - u1), b = sqrt(u1);
    double q[4] = {a * sin(two_pi * u2), a * cos(two_pi * u2), b * sin(two_pi * u3), b * cos(two_pi * u3)};
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    return gjk_quat_make(to_real(q[0] / n), to_real(q[1] / n), to_real(q[2] / n), to_real(q[3] / n));
}

typedef struct shape_desc {
    int n;
    gjk_vec3 v[MAX_VERTS];
    gjk_real margin;
    hull local;  ///< Hull of the vertices in the local frame.
    double size; ///< Max vertex distance from the centroid, plus the margin.
} shape_desc;

static void random_shape(rng *r, shape_desc *s) {
    for (;;) {
        double sc = exp(rng_range(r, log(0.05), log(20)));
        double ax[3];
        ax[0] = 1;
        ax[1] = rng_range(r, 0.2, 1);
        ax[2] = rng_range(r, 0.2, 1);
        if (rng_chance(r, 0.12)) { // thin
            int k = 1 + rng_int(r, 2);
            ax[k] = rng_range(r, 0.01, 0.1);
        }
        d3 centre = d3_scale(sc, rng_box(r, -0.5, 0.5));
        int n = 4 + rng_int(r, MAX_VERTS - 3);
        int kind = rng_int(r, 5);
        if (kind == 2 && n < 8) n = 8;
        for (int i = 0; i < n; ++i) {
            d3 p;
            if (kind == 0 || kind == 4) { // on an ellipsoid (kind 4: rounded to a lattice, many coplanar points)
                p = random_dir(r);
            } else if (kind == 1) { // in a box
                p = rng_box(r, -1, 1);
            } else if (kind == 2) { // box corners, then interior and face points
                if (i < 8) {
                    p = d3_make(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
                } else {
                    p = rng_box(r, -1, 1);
                    if (rng_chance(r, 0.5)) {
                        int axis = rng_int(r, 3);
                        double side = rng_chance(r, 0.5) ? 1 : -1;
                        if (axis == 0) p.x = side;
                        else if (axis == 1) p.y = side;
                        else p.z = side;
                    }
                }
            } else { // in a ball (many interior points)
                double rad = cbrt(rng_unit(r));
                p = d3_scale(rad, random_dir(r));
            }
            if (kind == 4) {
                p = d3_make(round(p.x * 2) / 2, round(p.y * 2) / 2, round(p.z * 2) / 2);
            }
            p = d3_add(centre, d3_make(sc * ax[0] * p.x, sc * ax[1] * p.y, sc * ax[2] * p.z));
            s->v[i] = to_real3(p);
        }
        if (rng_chance(r, 0.25)) { // duplicates
            int k = 1 + rng_int(r, 3);
            for (int j = 0; j < k; ++j) {
                int from = rng_int(r, n);
                int to = rng_int(r, n);
                s->v[to] = s->v[from];
            }
        }
        if (rng_chance(r, 0.25)) { // interior points: convex combinations
            int k = 1 + rng_int(r, 3);
            for (int j = 0; j < k; ++j) {
                d3 a = d3_of(s->v[rng_int(r, n)]);
                d3 b = d3_of(s->v[rng_int(r, n)]);
                double w = rng_unit(r);
                d3 p = d3_add(d3_scale(w, a), d3_scale(1 - w, b));
                int to = rng_int(r, n);
                s->v[to] = to_real3(p);
            }
        }
        s->n = n;
        double pts[3 * MAX_VERTS];
        d3 cen = d3_make(0, 0, 0);
        for (int i = 0; i < n; ++i) {
            d3 p = d3_of(s->v[i]);
            pts[3 * i] = p.x, pts[3 * i + 1] = p.y, pts[3 * i + 2] = p.z;
            cen = d3_add(cen, p);
        }
        if (hull_build(&s->local, pts, n) != 0) {
            continue; // degenerate (flat): draw again
        }
        cen = d3_scale(1.0 / n, cen);
        double rad = 0;
        for (int i = 0; i < n; ++i) rad = fmax(rad, d3_len(d3_sub(d3_of(s->v[i]), cen)));
        s->margin = rng_chance(r, 0.5) ? 0 : to_real(rng_range(r, 0, 0.3) * sc);
        s->size = rad + (double)s->margin;
        return;
    }
}

// ---------------------------------------------------------------------------
// One pair.

typedef struct pair {
    int index;
    uint64_t seed;
    shape_desc a, b;
    gjk_transform ta, tb;
    dmat ra, rb;     ///< Rotations in double (from the stored quaternions).
    hull diff;       ///< D0 = conv{R_A a_i − R_B b_j}.
    double target;   ///< Target signed distance (absolute).
    double sd_ref;   ///< Exact signed distance of the stored inputs.
    double size, tol, tol_pt;
    int failed;
} pair;

static int g_fail_lines = 0;
static int g_dumped_pairs = 0;
static int g_failed_pairs = 0;

static void dump_shape(const char *name, const shape_desc *s, gjk_transform t) {
    fprintf(stderr, "  %s: margin " REAL_FMT ", position {" REAL_FMT ", " REAL_FMT ", " REAL_FMT "}, rotation {w " REAL_FMT
                    ", x " REAL_FMT ", y " REAL_FMT ", z " REAL_FMT "}, %d vertices:\n",
            name, (double)s->margin, (double)t.position.x, (double)t.position.y, (double)t.position.z,
            (double)t.rotation.w, (double)t.rotation.x, (double)t.rotation.y, (double)t.rotation.z, s->n);
    for (int i = 0; i < s->n; ++i) {
        fprintf(stderr, "    {" REAL_FMT ", " REAL_FMT ", " REAL_FMT "},\n", (double)s->v[i].x, (double)s->v[i].y,
                (double)s->v[i].z);
    }
}

static void dump_pair(const pair *p) {
    fprintf(stderr, "  pair %d (seed 0x%016llx; rerun: test_reference %d): target %.6g·size, sd_ref %.17g, size %.6g, tol %.3g\n",
            p->index, (unsigned long long)p->seed, p->index, p->target / p->size, p->sd_ref, p->size, p->tol);
    dump_shape("A", &p->a, p->ta);
    dump_shape("B", &p->b, p->tb);
}

static int g_verbose = 0;

/// Records a failed check of pair p.
static void fail(pair *p, int line, const char *fmt, ...) {
    ++test_failures;
    if (!p->failed) {
        p->failed = 1;
        ++g_failed_pairs;
    }
    if (g_fail_lines < MAX_FAIL_LINES || g_verbose) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "%s:%d: pair %d: ", __FILE__, line, p->index);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
        if (++g_fail_lines == MAX_FAIL_LINES && !g_verbose) {
            fprintf(stderr, "(further failure messages suppressed)\n");
        }
    }
}

/// Dumps the pair once after its failures were printed.
static void dump_if_failed(const pair *p) {
    if (p->failed && g_dumped_pairs < MAX_DUMPED_PAIRS && g_fail_lines <= MAX_FAIL_LINES) {
        ++g_dumped_pairs;
        dump_pair(p);
    } else if (p->failed && g_verbose) {
        dump_pair(p);
    }
}

#define CHECK(p, cond, ...)                            \
    do {                                               \
        if (!(cond)) fail((p), __LINE__, __VA_ARGS__); \
    } while (0)

/// Signed distance of the rounded shapes with B's origin at p_A + r.
static double ref_sd(const pair *p, d3 r) { return hull_sdist_outer_facets(&p->diff, r) - ((double)p->a.margin + (double)p->b.margin); }

/// Max over the vertices of s (rotated by m) of d·(m v).
static double support_value(const shape_desc *s, const dmat *m, d3 d) {
    d3 dl = dmat_tmul(m, d);
    double best = -INFINITY;
    for (int i = 0; i < s->n; ++i) best = fmax(best, d3_dot(dl, d3_of(s->v[i])));
    return best;
}

/// Signed distance of a world point to the core hull of a shape.
static double shape_point_sdist(const shape_desc *s, const dmat *m, gjk_vec3 pos, d3 world) {
    return hull_sdist_outer_facets(&s->local, dmat_tmul(m, d3_sub(world, d3_of(pos))));
}

static gjk_penetration_output run_penetration(const pair *p, gjk_transform tb) {
    gjk_shape A = gjk_with_margin(gjk_make_polytope(p->a.v, p->a.n), p->a.margin);
    gjk_shape B = gjk_with_margin(gjk_make_polytope(p->b.v, p->b.n), p->b.margin);
    gjk_query_input in = {.shape_a = &A, .transform_a = p->ta, .shape_b = &B, .transform_b = tb, .options = {0}};
    return gjk_penetration(&in, NULL);
}

static gjk_distance_output run_distance(const pair *p) {
    gjk_shape A = gjk_with_margin(gjk_make_polytope(p->a.v, p->a.n), p->a.margin);
    gjk_shape B = gjk_with_margin(gjk_make_polytope(p->b.v, p->b.n), p->b.margin);
    gjk_query_input in = {.shape_a = &A, .transform_a = p->ta, .shape_b = &B, .transform_b = p->tb, .options = {0}};
    return gjk_distance(&in, NULL);
}

// Statistics.
#define N_BANDS 16
static const char *const k_band_names[N_BANDS] = {
    "sd >= 0.5",           "0.05 <= sd < 0.5",    "5e-3 <= sd < 0.05",   "5e-4 <= sd < 5e-3",
    "5e-5 <= sd < 5e-4",   "5e-7 <= sd < 5e-5",   "5e-9 <= sd < 5e-7",   "0 < sd < 5e-9",
    "-5e-9 < sd <= 0",     "-5e-7 < sd <= -5e-9", "-5e-5 < sd <= -5e-7", "-5e-4 < sd <= -5e-5",
    "-5e-3 < sd <= -5e-4", "-0.05 < sd <= -5e-3", "-0.5 < sd <= -0.05",  "sd <= -0.5",
};
static int g_band_count[N_BANDS];
static double g_band_worst[N_BANDS];
static int g_near_zero = 0;        // |sd_ref| <= 1e-3·size
static int g_status_checked = 0;   // pairs with |sd_ref| > 2·tol
static double g_worst_sd = 0, g_worst_dist = 0, g_worst_witness = 0, g_worst_unit = 0, g_worst_vec = 0;
/// Worst |h_A(n) + h_B(−n) + sd|/size: [0] overlapping or touching, [1] separated.
static double g_worst_overlap[2];
static int g_worst_overlap_pair[2] = {-1, -1};
static int g_worst_sd_pair = -1, g_worst_witness_pair = -1;
static int g_translations = 0;

static int band_of(double x) {
    static const double edges[] = {0.5, 0.05, 5e-3, 5e-4, 5e-5, 5e-7, 5e-9};
    const int n = (int)(sizeof edges / sizeof edges[0]);
    if (x > 0) {
        for (int i = 0; i < n; ++i)
            if (x >= edges[i]) return i;
        return n;
    }
    for (int i = 0; i < n; ++i)
        if (x <= -edges[i]) return N_BANDS - 1 - i;
    return n + 1;
}


static void run_pair(int index) {
    pair P;
    pair *p = &P;
    memset(p, 0, sizeof *p);
    p->index = index;
    rng seeder = {BASE_SEED ^ ((uint64_t)index * 0xd1342543de82ef95ULL)};
    p->seed = rng_next(&seeder);
    rng r = {p->seed};

    random_shape(&r, &p->a);
    random_shape(&r, &p->b);
    gjk_quat qa = rng_chance(&r, 0.1) ? gjk_quat_identity() : random_quat(&r);
    gjk_quat qb = rng_chance(&r, 0.1) ? qa : random_quat(&r); // sometimes aligned faces
    p->ra = dmat_of_quat(qa);
    p->rb = dmat_of_quat(qb);
    p->size = fmax(p->a.size, p->b.size);
    p->tol = TEST_REL_TOL * p->size;

    // D0 from the hull vertices of A and B.
    static double pts[3 * MAX_VERTS * MAX_VERTS];
    int np = 0;
    d3 c = d3_make(0, 0, 0);
    for (int i = 0; i < p->a.local.nv; ++i) {
        d3 wa = dmat_mul(&p->ra, d3_of(p->a.v[p->a.local.vid[i]]));
        for (int j = 0; j < p->b.local.nv; ++j) {
            d3 w = d3_sub(wa, dmat_mul(&p->rb, d3_of(p->b.v[p->b.local.vid[j]])));
            pts[3 * np] = w.x, pts[3 * np + 1] = w.y, pts[3 * np + 2] = w.z;
            c = d3_add(c, w);
            ++np;
        }
    }
    c = d3_scale(1.0 / np, c);
    if (hull_build(&p->diff, pts, np) != 0) {
        fail(p, __LINE__, "test setup: qhull failed on the Minkowski difference (%d points)", np);
        dump_if_failed(p);
        hull_free(&p->a.local);
        hull_free(&p->b.local);
        return;
    }
    double reach = 0;
    for (int i = 0; i < np; ++i) reach = fmax(reach, d3_len(d3_sub(d3_make(pts[3 * i], pts[3 * i + 1], pts[3 * i + 2]), c)));

    // Direction of approach: random, sometimes along an axis of A's frame.
    d3 u = random_dir(&r);
    if (rng_chance(&r, 0.15)) {
        d3 e = d3_make(0, 0, 0);
        double sgn = rng_chance(&r, 0.5) ? 1 : -1;
        int axis = rng_int(&r, 3);
        if (axis == 0) e.x = sgn;
        else if (axis == 1) e.y = sgn;
        else e.z = sgn;
        u = dmat_mul(&p->ra, e);
    }
    p->target = k_targets[index % N_TARGETS] * p->size;
    // f(t) = ref_sd(c + t u) is convex with f(0) < 0: bisect for f(t) = target.
    double t = 0;
    if (ref_sd(p, c) < p->target) {
        double lo = 0, hi = reach + (double)p->a.margin + (double)p->b.margin + fabs(p->target) + p->size;
        for (int it = 0; it < 200; ++it) {
            double mid = 0.5 * (lo + hi);
            if (mid <= lo || mid >= hi) break;
            if (ref_sd(p, d3_add(c, d3_scale(mid, u))) < p->target) lo = mid;
            else hi = mid;
        }
        t = 0.5 * (lo + hi);
    }
    d3 rel = d3_add(c, d3_scale(t, u));

    // World placement: the pair is offset from the origin by up to 1e4.
    d3 off = d3_make(0, 0, 0);
    if (!rng_chance(&r, 0.15)) {
        double mag = exp(rng_range(&r, log(1e-2), log(1e4)));
        off = d3_scale(mag, random_dir(&r));
    }
    gjk_vec3 pa = to_real3(off);
    // B's position as the caller would compute it: in gjk_real.
    gjk_vec3 pb = gjk_v3(to_real(pa.x + to_real(rel.x)), to_real(pa.y + to_real(rel.y)), to_real(pa.z + to_real(rel.z)));
    p->ta = gjk_transform_make(pa, qa);
    p->tb = gjk_transform_make(pb, qb);
    // The reference of what is actually stored.
    d3 r_act = d3_sub(d3_of(pb), d3_of(pa));
    p->sd_ref = ref_sd(p, r_act);
    double world = fmax(d3_max_abs(d3_of(pa)), d3_max_abs(d3_of(pb))) + 2 * p->size;
    // World points cannot be more precise than the coordinates' spacing.
    p->tol_pt = p->tol + 4 * (double)GJK_REAL_EPSILON * world;

    double tol = p->tol, tol_pt = p->tol_pt, sd_ref = p->sd_ref;
    double rel_size = sd_ref / p->size;
    int band = band_of(rel_size);
    ++g_band_count[band];
    if (fabs(rel_size) <= 1e-3) ++g_near_zero;
    int sign_known = fabs(sd_ref) > 2 * tol;
    g_status_checked += sign_known;
    gjk_status expect = sd_ref > 0 ? GJK_SEPARATED : GJK_PENETRATING;

    // ---- gjk_penetration ----
    gjk_penetration_output o = run_penetration(p, p->tb);
    d3 oa = d3_of(o.point_a), ob = d3_of(o.point_b), on = d3_of(o.normal);
    double sd = (double)o.signed_distance;
    if (g_verbose) {
        printf("pair %d: sd_ref %.17g (%.3g·size), target %.3g·size\n", index, sd_ref, rel_size, p->target / p->size);
        printf("  penetration: %s, sd %.17g, depth %.17g, iterations %d + %d\n", gjk_status_name(o.status), sd,
               (double)o.depth, o.iterations, o.epa_iterations);
        printf("    point_a {%.17g, %.17g, %.17g}\n    point_b {%.17g, %.17g, %.17g}\n    normal {%.17g, %.17g, %.17g}\n",
               oa.x, oa.y, oa.z, ob.x, ob.y, ob.z, on.x, on.y, on.z);
    }
    CHECK(p, status_is_answer(o.status), "penetration status %s", gjk_status_name(o.status));
    CHECK(p, isfinite(sd) && isfinite((double)o.depth) && d3_finite(oa) && d3_finite(ob) && d3_finite(on),
          "penetration output not finite");
    double err = fabs(sd - sd_ref);
    if (err / p->size > g_worst_sd) g_worst_sd = err / p->size, g_worst_sd_pair = index;
    if (err / p->size > g_band_worst[band]) g_band_worst[band] = err / p->size;
    CHECK(p, err <= tol, "penetration signed_distance %.17g, expected %.17g (error %.3g·size > %.3g·size)", sd, sd_ref,
          err / p->size, TEST_REL_TOL);
    if (sign_known) {
        CHECK(p, o.status == expect, "penetration status %s, expected %s (sd_ref %.3g·size)", gjk_status_name(o.status),
              gjk_status_name(expect), rel_size);
    }
    CHECK(p, fabs((double)o.depth - fmax(0, -sd)) <= 4 * (double)GJK_REAL_EPSILON * fabs(sd),
          "depth %.17g != max(0, -signed_distance %.17g)", (double)o.depth, sd);
    double nlen = d3_len(on);
    g_worst_unit = fmax(g_worst_unit, fabs(1 - nlen));
    CHECK(p, fabs(1 - nlen) <= NORMAL_UNIT_TOL, "penetration normal not unit: |n| = %.17g", nlen);
    if (status_is_answer(o.status) && nlen > 0.5) {
        // Witness points on the boundaries of the rounded shapes.
        double ea = fabs(shape_point_sdist(&p->a, &p->ra, p->ta.position, oa) - (double)p->a.margin);
        double eb = fabs(shape_point_sdist(&p->b, &p->rb, p->tb.position, ob) - (double)p->b.margin);
        if (fmax(ea, eb) / p->size > g_worst_witness) g_worst_witness = fmax(ea, eb) / p->size, g_worst_witness_pair = index;
        CHECK(p, ea <= tol_pt, "penetration point_a is %.3g·size off A's boundary", ea / p->size);
        CHECK(p, eb <= tol_pt, "penetration point_b is %.3g·size off B's boundary", eb / p->size);
        // point_b − point_a = signed_distance·normal (both when apart and
        // when overlapping: point_a − point_b = depth·normal).
        d3 dv = d3_sub(d3_sub(ob, oa), d3_scale(sd, on));
        double ev = d3_len(dv);
        g_worst_vec = fmax(g_worst_vec, ev / p->size);
        CHECK(p, ev <= tol_pt, "point_b - point_a differs from signed_distance*normal by %.3g·size", ev / p->size);
        // The overlap of the shapes along the normal is minus the signed
        // distance: h_A(n) + h_B(−n) = −sd, with h the support values.
        d3 n = d3_scale(1 / nlen, on);
        double overlap = support_value(&p->a, &p->ra, n) + (double)p->a.margin +
                         support_value(&p->b, &p->rb, d3_scale(-1, n)) + (double)p->b.margin - d3_dot(n, r_act);
        double eo = fabs(overlap + sd);
        int sep = o.status == GJK_SEPARATED;
        if (eo / p->size > g_worst_overlap[sep]) g_worst_overlap[sep] = eo / p->size, g_worst_overlap_pair[sep] = index;
        CHECK(p, eo <= tol,
              "normal inconsistent with the signed distance (%s, sd %.3g·size): overlap along it h_A(n) + h_B(-n) = "
              "%.17g, expected -signed_distance %.17g (error %.3g·size > %.3g·size)",
              gjk_status_name(o.status), sd / p->size, overlap, -sd, eo / p->size, TEST_REL_TOL);
        // Moving B by (depth + a little)·normal separates the shapes.
        if (o.status == GJK_PENETRATING) {
            double shift = (double)o.depth + 10 * tol_pt;
            gjk_transform tb2 = p->tb;
            tb2.position = to_real3(d3_add(d3_of(pb), d3_scale(shift, n)));
            gjk_penetration_output o2 = run_penetration(p, tb2);
            ++g_translations;
            CHECK(p, o2.status == GJK_SEPARATED || o2.status == GJK_TOUCHING,
                  "after moving B by (depth + 10 tol)·normal: status %s, signed distance %.3g·size (reference %.3g·size)",
                  gjk_status_name(o2.status), (double)o2.signed_distance / p->size,
                  ref_sd(p, d3_sub(d3_of(tb2.position), d3_of(pa))) / p->size);
        }
    }

    // ---- gjk_distance ----
    gjk_distance_output d = run_distance(p);
    d3 da = d3_of(d.point_a), db = d3_of(d.point_b), dn = d3_of(d.normal);
    double dist = (double)d.distance;
    if (g_verbose) {
        printf("  distance: %s, distance %.17g, iterations %d\n", gjk_status_name(d.status), dist, d.iterations);
        printf("    point_a {%.17g, %.17g, %.17g}\n    point_b {%.17g, %.17g, %.17g}\n    normal {%.17g, %.17g, %.17g}\n",
               da.x, da.y, da.z, db.x, db.y, db.z, dn.x, dn.y, dn.z);
    }
    CHECK(p, status_is_answer(d.status), "distance status %s", gjk_status_name(d.status));
    CHECK(p, isfinite(dist) && d3_finite(da) && d3_finite(db) && d3_finite(dn), "distance output not finite");
    CHECK(p, dist >= 0, "negative distance %.17g", dist);
    double derr = fabs(dist - fmax(0, sd_ref));
    g_worst_dist = fmax(g_worst_dist, derr / p->size);
    CHECK(p, derr <= tol, "distance %.17g, expected %.17g (error %.3g·size)", dist, fmax(0, sd_ref), derr / p->size);
    if (sign_known) {
        CHECK(p, d.status == expect, "distance status %s, expected %s (sd_ref %.3g·size)", gjk_status_name(d.status),
              gjk_status_name(expect), rel_size);
        CHECK(p, d.status == o.status, "distance status %s but penetration status %s", gjk_status_name(d.status),
              gjk_status_name(o.status));
    }
    if (status_is_answer(d.status)) {
        double gap = d3_len(d3_sub(db, da));
        CHECK(p, fabs(gap - dist) <= tol_pt, "|point_b - point_a| = %.17g but distance %.17g", gap, dist);
        double sa = shape_point_sdist(&p->a, &p->ra, p->ta.position, da) - (double)p->a.margin;
        double sb = shape_point_sdist(&p->b, &p->rb, p->tb.position, db) - (double)p->b.margin;
        double dnl = d3_len(dn);
        if (d.status == GJK_SEPARATED) {
            if (fmax(fabs(sa), fabs(sb)) / p->size > g_worst_witness) {
                g_worst_witness = fmax(fabs(sa), fabs(sb)) / p->size, g_worst_witness_pair = index;
            }
            CHECK(p, fabs(sa) <= tol_pt, "distance point_a is %.3g·size off A's boundary", sa / p->size);
            CHECK(p, fabs(sb) <= tol_pt, "distance point_b is %.3g·size off B's boundary", sb / p->size);
            CHECK(p, fabs(1 - dnl) <= NORMAL_UNIT_TOL, "distance normal not unit: |n| = %.17g", dnl);
            double ev = d3_len(d3_sub(d3_sub(db, da), d3_scale(dist, dn)));
            g_worst_vec = fmax(g_worst_vec, ev / p->size);
            CHECK(p, ev <= tol_pt, "distance: point_b - point_a differs from distance*normal by %.3g·size", ev / p->size);
        } else {
            // Touching or overlapping: the points lie in both shapes.
            CHECK(p, sa <= tol_pt, "distance point_a is %.3g·size outside A", sa / p->size);
            CHECK(p, sb <= tol_pt, "distance point_b is %.3g·size outside B", sb / p->size);
            CHECK(p, dnl <= NORMAL_UNIT_TOL || fabs(1 - dnl) <= NORMAL_UNIT_TOL,
                  "distance normal neither zero nor unit: |n| = %.17g", dnl);
        }
    }

    dump_if_failed(p);
    hull_free(&p->diff);
    hull_free(&p->a.local);
    hull_free(&p->b.local);
}

/// Checks the reference itself on two cubes [-1, 1]³ (identity rotations),
/// whose signed distances are known in closed form.
static void reference_selfcheck(void) {
    double cube[3 * 8], diff[3 * 64];
    for (int i = 0; i < 8; ++i) {
        cube[3 * i] = i & 1 ? 1 : -1, cube[3 * i + 1] = i & 2 ? 1 : -1, cube[3 * i + 2] = i & 4 ? 1 : -1;
    }
    for (int i = 0; i < 8; ++i) {
        for (int j = 0; j < 8; ++j) {
            for (int k = 0; k < 3; ++k) diff[3 * (8 * i + j) + k] = cube[3 * i + k] - cube[3 * j + k];
        }
    }
    hull hc, hd;
    if (hull_build(&hc, cube, 8) != 0 || hull_build(&hd, diff, 64) != 0) {
        fprintf(stderr, "reference self-check: qhull failed\n");
        ++test_failures;
        return;
    }
    static const struct {
        double r[3], expect;
    } cases[] = {
        {{2.5, 0.3, 0.2}, 0.5},                        // face–face
        {{2.5, 2.5, 2.5}, 0.86602540378443864676},     // vertex–vertex: √3/2
        {{2.5, 2.5, 0.1}, 0.70710678118654752440},     // edge–edge: √2/2
        {{1.7, 0.3, 0.2}, -0.3},                       // overlap along x
        {{0.1, -0.2, 0.05}, -1.8},                     // deep: nearest facet along y
        {{2 + 1e-7, 0, 0}, 1e-7},                      // touching
        {{2 - 1e-7, 1.5, -1.5}, -1e-7},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        d3 r = d3_make(cases[i].r[0], cases[i].r[1], cases[i].r[2]);
        double got = hull_sdist_outer_facets(&hd, r);
        ENSURE_NEAR(got, cases[i].expect, 1e-14);
    }
    ENSURE_NEAR(hull_sdist_outer_facets(&hc, d3_make(1.5, 0.2, 0)), 0.5, 1e-14);
    ENSURE_NEAR(hull_sdist_outer_facets(&hc, d3_make(0.5, 0.2, 0)), -0.5, 1e-14);
    ENSURE_NEAR(hull_sdist_outer_facets(&hc, d3_make(2, 2, 0.3)), 1.4142135623730950488, 1e-14);
    hull_free(&hc);
    hull_free(&hd);
}

/// The points of a grid of k per edge (k ≥ 2) on the surface of the box
/// with half extents h, into p (at most 98, for k = 5); their count.
static int grid_box(gjk_vec3 *p, const double h[3], int k) {
    int n = 0;
    for (int i = 0; i < k; ++i) {
        for (int j = 0; j < k; ++j) {
            for (int l = 0; l < k; ++l) {
                if (i != 0 && i != k - 1 && j != 0 && j != k - 1 && l != 0 && l != k - 1) {
                    continue; // inside
                }
                p[n++] = gjk_v3((gjk_real)(h[0] * (2.0 * i / (k - 1) - 1)), (gjk_real)(h[1] * (2.0 * j / (k - 1) - 1)),
                                (gjk_real)(h[2] * (2.0 * l / (k - 1) - 1)));
            }
        }
    }
    return n;
}

/// EPA where D's support points tie over flat facets and fall off its
/// vertices (docs/design.md, EPA: the convexity check of a step): grid
/// boxes, k points along each edge of a box's surface, as point sets. From
/// a review's sweep of 100,000 such pairs a precision, the one wrong pose
/// in each before the check: "not converged" 0.23 too deep in double (4-
/// and 5-point grids), 0.49 in float (a box against a 3-point grid). The
/// reference is the hull of the difference of their points, in double.
static void grid_boxes_against_reference(void) {
    static const struct {
        int ka, kb;
        double ha[3], hb[3];
        double qa[4], qb[4], off[3]; // quaternions (w, x, y, z); A at the origin
    } cases[] = {
        {4, 5, {0x1.815ed0e6379aep-1, 0x1.3ad26acb9d9a6p-1, 0x1.49372787d87acp-2},
         {0x1.c3ea47ce7ef7dp-2, 0x1.3ad26acb9d9a6p-1, 0x1.af06eb96b01d2p-2},
         {-0x1.86d78875aa505p-1, -0x1.23281147ac6aap-3, 0x1.28f69fc722ca3p-1, 0x1.f865e4c814954p-3},
         {-0x1.0a11c99208396p-1, 0x1.ed01a241a8a8p-2, 0x1.69c85eff0c7dcp-2, -0x1.38d5ac8e39fbap-1},
         {0x1.d6cac50a0e3cfp-5, -0x1.11bb59ba6f5c4p-1, 0x1.47271f2aad3e4p-2}},
        {2, 3, {0x1.8c37b6p-2, 0x1.bb79a6p-1, 0x1.efd3bp-2}, {0x1.8c37b6p-2, 0x1.e474cp-1, 0x1.efd3bp-2},
         {-0x1.ce66dep-1, -0x1.d767b4p-6, -0x1.b4e5cep-2, 0x1.3ca5p-5},
         {-0x1.bd7b92p-1, -0x1.48aedap-3, -0x1.95e194p-2, -0x1.f60824p-3},
         {0x1.2c895cp-2, 0x1.95c76ap-3, -0x1.50ee36p-2}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        gjk_vec3 va[98], vb[98];
        int na = grid_box(va, cases[c].ha, cases[c].ka), nb = grid_box(vb, cases[c].hb, cases[c].kb);
        gjk_shape A = gjk_make_polytope(va, na), B = gjk_make_polytope(vb, nb);
        const double *qa = cases[c].qa, *qb = cases[c].qb, *off = cases[c].off;
        gjk_query_input in = {0};
        in.shape_a = &A;
        in.shape_b = &B;
        in.transform_a.rotation = quat_of(qa);
        in.transform_b.rotation = quat_of(qb);
        in.transform_b.position = gjk_v3((gjk_real)off[0], (gjk_real)off[1], (gjk_real)off[2]);
        gjk_penetration_output o = gjk_penetration(&in, NULL);
        // D = A − B in world coordinates, in double.
        static double diff[3 * 98 * 98];
        dmat ra = dmat_of_quat(in.transform_a.rotation), rb = dmat_of_quat(in.transform_b.rotation);
        int m = 0;
        for (int i = 0; i < na; ++i) {
            d3 a = dmat_mul(&ra, d3_of(va[i]));
            for (int j = 0; j < nb; ++j) {
                d3 w = d3_sub(a, d3_add(dmat_mul(&rb, d3_of(vb[j])), d3_of(in.transform_b.position)));
                diff[m++] = w.x, diff[m++] = w.y, diff[m++] = w.z;
            }
        }
        hull h;
        ENSURE(hull_build(&h, diff, na * nb) == 0);
        double ref = hull_sdist(&h, d3_make(0, 0, 0));
        hull_free(&h);
        ENSURE(ref < -0.1); // deep: the pose is as found
        ENSURE(o.status == GJK_PENETRATING);
        ENSURE_NEAR(o.signed_distance, ref, GJK_USE_FLOAT ? 1e-4 : 1e-9);
    }
}

/// Slivers of D around the origin (review of the penetration query): a
/// segment 2 long through a triangle s across makes D a prism of that
/// length and width, and a point inside a needle polytope (1.2 long, 3e-9
/// thick along the axes) one of its slivers. The tetrahedra of such points
/// have volumes far below the rounding bound of their cofactors, and the
/// solve took them for flat: the walk went round between two faces and
/// answered "apart" by the distance to the nearer, where the origin lies
/// inside (a point 3.5e-10 deep, at a tolerance of 7e-11, came out apart by
/// 3.5e-10; in float a segment 8.6e-5 into a triangle 4e-4 across, apart by
/// 4.3e-5, 118 tolerances off). The signed distance against qhull's, within
/// four of the library's own tolerances (in float its default, not the
/// looser TEST_REL_TOL): every overlapping pose; of the poses apart, those
/// whose prism is no thinner than rounding allows (a face's normal is good
/// to about ε·2/s: double s ≥ 1e-5; in float none is, and they are
/// reported only). In double the needle is the check of the fix (plain
/// arithmetic decides these prisms already: they guard the rest); in
/// float the prisms are (70 of 237 overlapping poses off before it).
static void slivers_against_reference(void) {
    const double rel = (double)GJK_DEFAULT_TOLERANCE;
    rng r = {0x51175ULL};
    int bad = 0, n_in = 0, n_apart = 0, apart_off = 0;
    double worst_in = 0, worst_apart = 0;
    for (int k = 0; k < 1200; ++k) {
        double s = GJK_USE_FLOAT ? pow(10, rng_range(&r, -3.5, -1.5)) : pow(10, rng_range(&r, -7, -3));
        gjk_vec3 seg[2] = {gjk_v3(-1, 0, 0), gjk_v3(1, 0, 0)}, tri[3];
        for (int i = 0; i < 3; ++i) {
            tri[i] = to_real3(rng_box(&r, -s, s));
        }
        gjk_quat qa = random_quat(&r), qb = random_quat(&r);
        dmat ma = dmat_of_quat(qa), mb = dmat_of_quat(qb);
        // B's origin near a point of the segment: off it by up to s/4
        // (the segment mostly pierces the triangle), or s.
        double off = rng_chance(&r, 0.75) ? s / 4 : s;
        d3 at = d3_add(dmat_mul(&ma, d3_make(rng_range(&r, -0.9, 0.9), 0, 0)), rng_box(&r, -off, off));
        gjk_vec3 pb = to_real3(at);
        double diff[3 * 6];
        for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 3; ++j) {
                d3 w = d3_sub(dmat_mul(&ma, d3_of(seg[i])), d3_add(d3_of(pb), dmat_mul(&mb, d3_of(tri[j]))));
                diff[3 * (3 * i + j)] = w.x, diff[3 * (3 * i + j) + 1] = w.y, diff[3 * (3 * i + j) + 2] = w.z;
            }
        }
        hull h;
        if (hull_build(&h, diff, 6) != 0) {
            continue; // a flat difference: nothing to compare
        }
        double ref = hull_sdist(&h, d3_make(0, 0, 0));
        hull_free(&h);
        gjk_shape A = gjk_make_polytope(seg, 2), B = gjk_make_polytope(tri, 3);
        gjk_query_input in = {&A, gjk_transform_make(gjk_v3(0, 0, 0), qa), &B, gjk_transform_make(pb, qb), {0}};
        gjk_penetration_output o = gjk_penetration(&in, NULL);
        double tol = rel * (1 + d3_max_abs(d3_of(pb)));
        double err = fabs((double)o.signed_distance - ref) / tol;
        bool inside = ref < -2 * tol, checked = inside || (!GJK_USE_FLOAT && s >= 1e-5);
        if (inside) {
            ++n_in, worst_in = fmax(worst_in, err);
        } else {
            ++n_apart, worst_apart = fmax(worst_apart, err), apart_off += !(err <= 4);
        }
        bool ok = !(err <= 4) ? false : !inside || o.status == GJK_PENETRATING;
        if (checked && !ok && bad++ < 3) {
            fprintf(stderr, "sliver %d (s %g): signed distance %.17g (status %d), reference %.17g: %.3g tolerances\n", k, s,
                    (double)o.signed_distance, (int)o.status, ref, err);
        }
    }
#if !GJK_USE_FLOAT
    // The needle of the review, along x (exact data: the point lies 3.5e-10
    // inside the face (0, 1, 2), by rational arithmetic).
    static const gjk_vec3 needle[] = {{-0.43587638448268551, -0.0022601419696082763, 0.031204463410038207},
                                      {0.79168464623848467, -0.0022601412449790295, 0.031204464833397682},
                                      {-0.43013318675702938, -0.00226014054773416, 0.031204465954565688},
                                      {0.49888771336766513, -0.0022601385091553404, 0.031204464296885316}};
    gjk_shape A = gjk_make_polytope(needle, 4), B = gjk_make_point();
    gjk_query_input in = {&A, gjk_transform_identity(), &B,
                          gjk_transform_make(gjk_v3(0.098676623180821194928, -0.0022601408002929561355,
                                                    0.031204464840930211038),
                                             gjk_quat_identity()),
                          {0}};
    gjk_penetration_output o = gjk_penetration(&in, NULL);
    gjk_intersect_output io = gjk_intersect(&in);
    ENSURE(o.status == GJK_PENETRATING && io.status == GJK_PENETRATING);
    ENSURE_NEAR(o.signed_distance, -3.4954e-10, 1e-14);
#endif
    printf("slivers: %d overlapping, worst %.3g tolerances; %d apart, worst %.3g, %d beyond 4; %d checked off\n", n_in,
           worst_in, n_apart, worst_apart, apart_off, bad);
    ENSURE(bad == 0);
}

int main(int argc, char **argv) {
    int first = 0, count = REF_PAIRS;
    if (argc > 1) {
        first = atoi(argv[1]);
        count = 1;
        g_verbose = 1;
    }
    if (argc > 2) {
        count = atoi(argv[2]);
        g_verbose = count == 1;
    }
    g_qhull_err = tmpfile();
    if (!g_qhull_err) g_qhull_err = stderr;

    reference_selfcheck();
    if (test_failures) {
        fprintf(stderr, "the qhull reference is wrong: not running the comparison\n");
        return TEST_SUMMARY();
    }

    if (argc <= 1) {
        grid_boxes_against_reference();
        slivers_against_reference();
    }
    clock_t start = clock();
    for (int i = first; i < first + count; ++i) run_pair(i);
    double secs = (double)(clock() - start) / CLOCKS_PER_SEC;

    printf("test_reference (%s): %d pairs, %d with |sd| <= 1e-3·size, %d with the sign checked (|sd| > 2 tol), "
           "%d translation checks, %.2f s\n",
           GJK_USE_FLOAT ? "float" : "double", count, g_near_zero, g_status_checked, g_translations, secs);
    printf("  %-22s %6s  %s\n", "band (sd/size)", "pairs", "worst |sd error|/size");
    for (int b = 0; b < N_BANDS; ++b) {
        printf("  %-22s %6d  %.3g\n", k_band_names[b], g_band_count[b], g_band_worst[b]);
    }
    printf("  worst |sd error|/size = %.3g over %d pairs (pair %d); tolerance %.3g\n", g_worst_sd, count, g_worst_sd_pair,
           TEST_REL_TOL);
    printf("  worst |distance error|/size = %.3g\n", g_worst_dist);
    printf("  worst witness error (distance to own boundary)/size = %.3g (pair %d)\n", g_worst_witness, g_worst_witness_pair);
    printf("  worst |(point_b - point_a) - sd·normal|/size = %.3g\n", g_worst_vec);
    printf("  worst normal error: |1 - |n|| = %.3g; |h_A(n) + h_B(-n) + sd|/size = %.3g (pair %d) when overlapping "
           "or touching, %.3g (pair %d) when separated\n",
           g_worst_unit, g_worst_overlap[0], g_worst_overlap_pair[0], g_worst_overlap[1], g_worst_overlap_pair[1]);
    if (test_failures) {
        printf("  %d failed checks in %d pairs\n", test_failures, g_failed_pairs);
    }
    if (g_qhull_err != stderr) fclose(g_qhull_err);
    return TEST_SUMMARY();
}
