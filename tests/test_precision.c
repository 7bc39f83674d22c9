// Precision report: how the accuracy of gjk_penetration and gjk_distance
// depends on the distance of a pair from the world origin.
//
// Pairs. Random polytopes (6–20 points on or in ellipsoids and boxes, size
// 0.4–2.4, some with margins) and a few sphere and box pairs (a sphere is a
// rounded point, a box the hull of its corners), at signed distances of
// +0.5, +1e-3 and −1e-3 times their size, placed at offsets 1, 1e2, …, 1e7
// from the world origin along a random direction: A at p_A = offset·û (in
// gjk_real), B at p_B = p_A + r computed in gjk_real as a caller would.
//
// Reference. Exact for the stored inputs, in double, with coordinates
// relative to A's position: D0 = conv{R_A a_i − R_B b_j} (libqhull, as in
// test_reference.c), the signed distance sdist(p_B − p_A, D0) − (mA + mB)
// (p_B − p_A is exact in double for gjk_real inputs this close together).
// The rounding of the inputs is therefore not an error of the query: what is
// measured is the query's own error. Witness error: the distance of
// point_a (point_b) from A's (B's) boundary, measured relative to A's stored
// position (so the output's own rounding to world coordinates counts).
//
// Expected floor: a world point near p_A cannot be represented closer than
// eps·|p_A|/2 per coordinate, so witness errors grow like eps·offset; signed
// distances are computed in A's frame (README, "Precision") and need not
// grow at all. Asserted:
//  - every offset: both errors ≤ TEST_REL_TOL·size + 8·eps·|offset|;
//  - every offset: signed-distance error ≤ TEST_REL_TOL·size (the README's
//    "no accuracy lost to large world coordinates");
//  - witness error ≤ TEST_REL_TOL·size for offsets up to
//    WITNESS_PLAIN_MAX_OFFSET (below).
// The table shows, per offset, the worst errors and where the plain bound
// stops holding.
//
// Usage: test_precision [pairs_per_target] (default 400).
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gjk/gjk.h"
#include "qhull_reference.h"

#define EPS ((double)GJK_REAL_EPSILON)
#define MAX_VERTS 20
/// Every shape's size is at least this (polytopes are redrawn; sphere radii
/// are ≥ MIN_SIZE; box half extents ≥ 0.3 give sizes ≥ 0.52).
#define MIN_SIZE 0.4
#define N_OFFSETS 7
static const double k_offsets[N_OFFSETS] = {1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7};
static const double k_targets[] = {0.5, 1e-3, -1e-3};
#define N_TARGETS 3

/// The plain documented bound (TEST_REL_TOL·size) on witness points is
/// asserted for offsets up to this one: there every coordinate is below
/// 2^20 (double) or 2^10 (float), so rounding a witness to world coordinates
/// moves it by at most √3·ulp/2 = 1.0e-10 (double) or 5.3e-5 (float), under
/// TEST_REL_TOL·size for the sizes here (≥ MIN_SIZE = 0.4), leaving the query's own error
/// the rest. Beyond it the representation alone can exceed the bound.
#if GJK_USE_FLOAT
#define WITNESS_PLAIN_MAX_OFFSET 1e3
#else
#define WITNESS_PLAIN_MAX_OFFSET 1e6
#endif

// ---------------------------------------------------------------------------
// Random numbers (splitmix64; one draw per statement), double vectors,
// rotations: test_util.h. The exact reference (qhull hulls): qhull_reference.h.

static d3 random_dir(rng *r) { return rng_dir3(r, 1e-3); }
static gjk_quat random_quat(rng *r) { return rng_quat(r); }

// ---------------------------------------------------------------------------
// Shapes: the library shape and its core points (local frame).

typedef struct shape_desc {
    gjk_shape shape;
    int n;
    gjk_vec3 v[MAX_VERTS];
    double margin; ///< Rounding (the sphere's radius, or the polytope's margin).
    hull local;    ///< Hull of the core points (not built for a point core).
    double size;
} shape_desc;

/// Max distance of the core points from their centroid plus the rounding.
static void finish_shape(shape_desc *s) {
    d3 c = d3_make(0, 0, 0);
    for (int i = 0; i < s->n; ++i) c = d3_add(c, d3_of(s->v[i]));
    c = d3_scale(1.0 / s->n, c);
    double rad = 0;
    for (int i = 0; i < s->n; ++i) rad = fmax(rad, d3_len(d3_sub(d3_of(s->v[i]), c)));
    s->size = rad + s->margin;
}

static int random_polytope(rng *r, shape_desc *s) {
    double sc = exp(rng_range(r, log(0.5), log(2)));
    double ax[3] = {1, rng_range(r, 0.3, 1), rng_range(r, 0.3, 1)};
    int n = 6 + rng_int(r, MAX_VERTS - 5);
    int kind = rng_int(r, 3);
    d3 centre;
    centre.x = sc * rng_range(r, -0.3, 0.3);
    centre.y = sc * rng_range(r, -0.3, 0.3);
    centre.z = sc * rng_range(r, -0.3, 0.3);
    for (int i = 0; i < n; ++i) {
        d3 p;
        if (kind == 0) {
            p = random_dir(r);
        } else {
            p.x = rng_range(r, -1, 1);
            p.y = rng_range(r, -1, 1);
            p.z = rng_range(r, -1, 1);
            if (kind == 2 && i < 8) p = d3_make(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
        }
        s->v[i] = to_real3(d3_add(centre, d3_make(sc * ax[0] * p.x, sc * ax[1] * p.y, sc * ax[2] * p.z)));
    }
    s->n = n;
    double pts[3 * MAX_VERTS];
    for (int i = 0; i < n; ++i) {
        d3 p = d3_of(s->v[i]);
        pts[3 * i] = p.x, pts[3 * i + 1] = p.y, pts[3 * i + 2] = p.z;
    }
    if (hull_build(&s->local, pts, n) != 0) return -1;
    s->margin = rng_chance(r, 0.3) ? (double)to_real(rng_range(r, 0, 0.2) * sc) : 0;
    s->shape = gjk_with_margin(gjk_make_polytope(s->v, n), to_real(s->margin));
    finish_shape(s);
    if (s->size < MIN_SIZE) { // keep every size ≥ MIN_SIZE (see WITNESS_PLAIN_MAX_OFFSET)
        hull_free(&s->local);
        return -1;
    }
    return 0;
}

static void make_box(rng *r, shape_desc *s) {
    d3 h;
    h.x = rng_range(r, 0.3, 1);
    h.y = rng_range(r, 0.3, 1);
    h.z = rng_range(r, 0.3, 1);
    gjk_vec3 hr = to_real3(h);
    s->n = 8;
    double pts[24];
    for (int i = 0; i < 8; ++i) {
        s->v[i] = gjk_v3(i & 1 ? hr.x : -hr.x, i & 2 ? hr.y : -hr.y, i & 4 ? hr.z : -hr.z);
        pts[3 * i] = (double)s->v[i].x, pts[3 * i + 1] = (double)s->v[i].y, pts[3 * i + 2] = (double)s->v[i].z;
    }
    hull_build(&s->local, pts, 8);
    s->margin = 0;
    s->shape = gjk_make_box(hr);
    finish_shape(s);
}

static void make_sphere(rng *r, shape_desc *s) {
    s->n = 1;
    s->v[0] = gjk_v3(0, 0, 0);
    memset(&s->local, 0, sizeof s->local);
    s->margin = (double)to_real(rng_range(r, MIN_SIZE, 1));
    s->shape = gjk_make_sphere(to_real(s->margin));
    finish_shape(s);
}

/// Signed distance of a point (relative to the shape's position) to the
/// rounded shape's boundary, exact outside the core.
static double shape_point_sdist(const shape_desc *s, const dmat *m, d3 rel) {
    d3 l = dmat_tmul(m, rel);
    double core = s->n == 1 ? d3_len(d3_sub(l, d3_of(s->v[0]))) : hull_sdist(&s->local, l);
    return core - s->margin;
}

// ---------------------------------------------------------------------------
// Statistics per offset.

static double g_worst_sd[N_OFFSETS], g_worst_wit[N_OFFSETS];
static int g_worst_sd_pair[N_OFFSETS], g_worst_wit_pair[N_OFFSETS];
static int g_counted[N_OFFSETS];
static int g_failed_lines = 0;

static void fail_line(const char *fmt, int pair, double offset, double a, double b) {
    ++test_failures;
    if (g_failed_lines++ < 40) {
        fprintf(stderr, "test_precision: pair %d, offset %g: ", pair, offset);
        fprintf(stderr, fmt, a, b);
        fputc('\n', stderr);
    }
}


/// One pair at one target signed distance, across the offsets.
static void run_pair(int index, int kind, double target_rel) {
    rng r = {0x9e3779b97f4a7c15ULL ^ ((uint64_t)index * 0xd1342543de82ef95ULL)};
    shape_desc a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    if (kind == 0) {
        while (random_polytope(&r, &a) != 0) {}
        while (random_polytope(&r, &b) != 0) {}
    } else if (kind == 1) {
        make_sphere(&r, &a);
        make_sphere(&r, &b);
    } else if (kind == 2) {
        make_box(&r, &a);
        make_box(&r, &b);
    } else {
        make_box(&r, &a);
        make_sphere(&r, &b);
    }
    gjk_quat qa = random_quat(&r), qb = random_quat(&r);
    dmat ra = dmat_of_quat(qa), rb = dmat_of_quat(qb);
    double size = fmax(a.size, b.size);
    double rad = a.margin + b.margin;

    // D0 (and, for a pair of points, the point itself).
    static double pts[3 * MAX_VERTS * MAX_VERTS];
    int np = 0;
    d3 c = d3_make(0, 0, 0);
    for (int i = 0; i < a.n; ++i) {
        d3 wa = dmat_mul(&ra, d3_of(a.v[i]));
        for (int j = 0; j < b.n; ++j) {
            d3 w = d3_sub(wa, dmat_mul(&rb, d3_of(b.v[j])));
            pts[3 * np] = w.x, pts[3 * np + 1] = w.y, pts[3 * np + 2] = w.z;
            c = d3_add(c, w);
            ++np;
        }
    }
    c = d3_scale(1.0 / np, c);
    hull diff;
    memset(&diff, 0, sizeof diff);
    int point_pair = np == 1;
    if (!point_pair && hull_build(&diff, pts, np) != 0) {
        fprintf(stderr, "test_precision: qhull failed on pair %d\n", index);
        ++test_failures;
        return;
    }
#define REF_SD(rel) ((point_pair ? d3_len(d3_sub((rel), c)) : hull_sdist(&diff, (rel))) - rad)
    // B's position relative to A: c + t·u with the target signed distance
    // (convex in t, below the target at t = 0).
    d3 u = random_dir(&r);
    double target = target_rel * size;
    double lo = 0, hi = 8 * size + fabs(target) + rad;
    for (int it = 0; it < 200; ++it) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        if (REF_SD(d3_add(c, d3_scale(mid, u))) < target) lo = mid;
        else hi = mid;
    }
    d3 rel = d3_add(c, d3_scale(0.5 * (lo + hi), u));
    d3 odir = random_dir(&r);

    for (int k = 0; k < N_OFFSETS; ++k) {
        double off = k_offsets[k];
        gjk_vec3 pa = to_real3(d3_scale(off, odir));
        gjk_vec3 pb = gjk_v3(to_real(pa.x + to_real(rel.x)), to_real(pa.y + to_real(rel.y)), to_real(pa.z + to_real(rel.z)));
        d3 r_act = d3_sub(d3_of(pb), d3_of(pa));
        double sd_ref = REF_SD(r_act);
        gjk_query_input in;
        memset(&in, 0, sizeof in);
        in.shape_a = &a.shape;
        in.transform_a = gjk_transform_make(pa, qa);
        in.shape_b = &b.shape;
        in.transform_b = gjk_transform_make(pb, qb);
        gjk_penetration_output p = gjk_penetration(&in, NULL);
        gjk_distance_output d = gjk_distance(&in, NULL);
        d3 o = d3_of(pa);
        // Errors relative to the size.
        double e_sd = fmax(fabs((double)p.signed_distance - sd_ref), fabs((double)d.distance - fmax(0, sd_ref))) / size;
        d3 wa = d3_sub(d3_of(p.point_a), o), wb = d3_sub(d3_of(p.point_b), o);
        double e_w = fmax(fabs(shape_point_sdist(&a, &ra, wa)), fabs(shape_point_sdist(&b, &rb, d3_sub(wb, r_act)))) / size;
        if (d.status == GJK_SEPARATED) {
            d3 da = d3_sub(d3_of(d.point_a), o), db = d3_sub(d3_of(d.point_b), o);
            e_w = fmax(e_w, fmax(fabs(shape_point_sdist(&a, &ra, da)), fabs(shape_point_sdist(&b, &rb, d3_sub(db, r_act)))) / size);
        }
        int finite = isfinite((double)p.signed_distance) && d3_finite(d3_of(p.point_a)) && d3_finite(d3_of(p.point_b)) &&
                     d3_finite(d3_of(p.normal)) && isfinite((double)d.distance) && d3_finite(d3_of(d.point_a)) &&
                     d3_finite(d3_of(d.point_b)) && d3_finite(d3_of(d.normal));
        if (!finite || !status_is_answer(p.status) || !status_is_answer(d.status)) {
            fail_line("status %g / %g or non-finite output", index, off, (double)p.status, (double)d.status);
            continue;
        }
        if (e_sd > g_worst_sd[k]) g_worst_sd[k] = e_sd, g_worst_sd_pair[k] = index;
        if (e_w > g_worst_wit[k]) g_worst_wit[k] = e_w, g_worst_wit_pair[k] = index;
        ++g_counted[k];
        // The bound for every offset, in units of the size.
        double bound = TEST_REL_TOL + 8 * EPS * off / size;
        if (e_sd > bound) fail_line("|sd error|/size %.3g > TEST_REL_TOL + 8 eps offset/size = %.3g", index, off, e_sd, bound);
        if (e_w > bound) fail_line("witness error/size %.3g > TEST_REL_TOL + 8 eps offset/size = %.3g", index, off, e_w, bound);
        if (e_sd > TEST_REL_TOL) fail_line("|sd error|/size %.3g > TEST_REL_TOL %.3g", index, off, e_sd, TEST_REL_TOL);
        if (off <= WITNESS_PLAIN_MAX_OFFSET && e_w > TEST_REL_TOL) {
            fail_line("witness error/size %.3g > TEST_REL_TOL %.3g", index, off, e_w, TEST_REL_TOL);
        }
    }
#undef REF_SD
    hull_free(&diff);
    hull_free(&a.local);
    hull_free(&b.local);
}

int main(int argc, char **argv) {
    int per_target = argc > 1 ? atoi(argv[1]) : 400;
    g_qhull_err = tmpfile();
    if (!g_qhull_err) g_qhull_err = stderr;
    clock_t start = clock();
    int index = 0;
    for (int t = 0; t < N_TARGETS; ++t) {
        for (int i = 0; i < per_target; ++i) run_pair(index++, 0, k_targets[t]);        // polytopes
        for (int i = 0; i < per_target / 10; ++i) run_pair(index++, 1, k_targets[t]);   // spheres
        for (int i = 0; i < per_target / 10; ++i) run_pair(index++, 2, k_targets[t]);   // boxes
        for (int i = 0; i < per_target / 10; ++i) run_pair(index++, 3, k_targets[t]);   // box–sphere
    }
    double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
    printf("test_precision (%s): %d pairs (polytopes, spheres, boxes, box-sphere) at sd = +0.5, +1e-3, -1e-3 x size, "
           "%.2f s\n",
           GJK_USE_FLOAT ? "float" : "double", index, secs);
    printf("  %-8s %8s  %-24s %-24s %s\n", "offset", "queries", "worst |sd error|/size", "worst witness error/size",
           "bound TEST_REL_TOL + 8 eps offset/size, size = MIN_SIZE");
    double plain_sd = 0, plain_w = 0;
    int sd_ok = 1, w_ok = 1;
    for (int k = 0; k < N_OFFSETS; ++k) {
        printf("  %-8g %8d  %-10.3g (pair %5d)     %-10.3g (pair %5d)     %.3g\n", k_offsets[k], g_counted[k], g_worst_sd[k],
               g_worst_sd_pair[k], g_worst_wit[k], g_worst_wit_pair[k], TEST_REL_TOL + 8 * EPS * k_offsets[k] / MIN_SIZE);
        if (sd_ok && g_worst_sd[k] <= TEST_REL_TOL) plain_sd = k_offsets[k];
        else sd_ok = 0;
        if (w_ok && g_worst_wit[k] <= TEST_REL_TOL) plain_w = k_offsets[k];
        else w_ok = 0;
    }
    printf("  the plain bound TEST_REL_TOL·size = %.3g·size holds up to offset %g for signed distances (asserted for "
           "every offset) and %g for witness points (asserted up to %g)\n",
           TEST_REL_TOL, plain_sd, plain_w, WITNESS_PLAIN_MAX_OFFSET);
    if (g_qhull_err != stderr) fclose(g_qhull_err);
    return TEST_SUMMARY();
}
