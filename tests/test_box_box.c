// gjk_intersect on two boxes, which the 15 separating axes decide away from
// touching (src/sat.c), against the exact reference: the signed distance of
// the convex hull of the 64 corner differences (libqhull), less the margins.
//
// Pairs: random half extents (0.05–2, some thin), margins 0 or up to 0.2,
// rotations random, axis-aligned (parallel edges, exactly degenerate edge
// axes) or a tiny turn off axis-aligned (nearly degenerate ones), offsets
// from the world origin up to 1e3. Each pair is placed at a target signed
// distance along a random direction, the offset bisected on the reference,
// from 1 to −0.5 of the size and down to 1e-12 of it on both sides.
//
// Checks: the status agrees with the reference's sign wherever |reference|
// exceeds 2·TEST_REL_TOL·size (and is touching or either neighbour
// otherwise); it equals gjk_penetration's status wherever the reference is
// that far from zero; `intersect` matches the status; gjk_penetration's
// signed distance is the reference's, its unit normal realises it (the
// support values of the boxes along it overlap by the depth), its witness
// points lie on the boxes' boundaries and depth·normal apart; and the axes
// did decide most clear pairs (intersect without iterations), so the test
// fails if the shortcut silently stopped being taken.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gjk/gjk.h"
#include "gjk/hull.h"
#include "qhull_reference.h"
#include "test_macros.h"
#include "test_util.h"

#if GJK_USE_FLOAT
#define NORMAL_TOL 1e-5
#else
#define NORMAL_TOL 1e-12
#endif

typedef struct box_pair {
    gjk_vec3 ha, hb;
    gjk_real ma, mb;
    gjk_quat qa, qb;
    d3 pa; ///< A's position (world).
    hull diff;
} box_pair;

static void corners(gjk_vec3 h, gjk_quat q, d3 *out) {
    dmat m = dmat_of_quat(q);
    for (int c = 0; c < 8; ++c) {
        d3 p = d3_make(c & 1 ? (double)h.x : -(double)h.x, c & 2 ? (double)h.y : -(double)h.y,
                       c & 4 ? (double)h.z : -(double)h.z);
        out[c] = dmat_mul(&m, p);
    }
}

/// The Minkowski difference of the rotated cores (no translations).
static int build_diff(box_pair *p) {
    d3 ca[8], cb[8];
    corners(p->ha, p->qa, ca);
    corners(p->hb, p->qb, cb);
    double pts[3 * 64];
    for (int i = 0; i < 8; ++i) {
        for (int j = 0; j < 8; ++j) {
            d3 d = d3_sub(ca[i], cb[j]);
            pts[3 * (8 * i + j) + 0] = d.x;
            pts[3 * (8 * i + j) + 1] = d.y;
            pts[3 * (8 * i + j) + 2] = d.z;
        }
    }
    return hull_build(&p->diff, pts, 64);
}

/// Signed distance of the rounded boxes with B's centre at pa + r.
static double ref_sd(const box_pair *p, d3 r) {
    return hull_sdist(&p->diff, r) - ((double)p->ma + (double)p->mb);
}

/// Signed distance from the world point x to the rounded box (half extents
/// h, margin m, rotation q, centre c).
static double box_sdist(gjk_vec3 h, gjk_real m, gjk_quat q, d3 c, d3 x) {
    dmat R = dmat_of_quat(q);
    d3 l = dmat_tmul(&R, d3_sub(x, c));
    d3 e = d3_make(fabs(l.x) - (double)h.x, fabs(l.y) - (double)h.y, fabs(l.z) - (double)h.z);
    d3 out = d3_make(fmax(e.x, 0), fmax(e.y, 0), fmax(e.z, 0));
    double inside = fmin(fmax(e.x, fmax(e.y, e.z)), 0);
    return d3_len(out) + inside - (double)m;
}

/// The support value of the rounded box along the unit world direction n.
static double box_h(gjk_vec3 h, gjk_real m, gjk_quat q, d3 c, d3 n) {
    dmat R = dmat_of_quat(q);
    d3 l = dmat_tmul(&R, n);
    return d3_dot(n, c) + fabs(l.x) * (double)h.x + fabs(l.y) * (double)h.y + fabs(l.z) * (double)h.z + (double)m;
}

static gjk_quat random_rotation(rng *r, int kind) {
    if (kind == 0) {
        return rng_quat(r);
    }
    // Axis-aligned: a multiple of 90° about a coordinate axis.
    static const double c[4] = {1, 0.70710678118654752440, 0, 0.70710678118654752440};
    static const double s[4] = {0, 0.70710678118654752440, 1, -0.70710678118654752440};
    int k = rng_int(r, 4), axis = rng_int(r, 3);
    gjk_quat q = gjk_quat_make((gjk_real)c[k], 0, 0, 0);
    if (axis == 0) q.x = (gjk_real)s[k];
    if (axis == 1) q.y = (gjk_real)s[k];
    if (axis == 2) q.z = (gjk_real)s[k];
    if (kind == 2) { // nearly axis-aligned: turned by 1e-9 to 1e-4 rad
        gjk_real t = (gjk_real)(pow(10, rng_range(r, -9, -4)) * 0.5);
        gjk_quat turn = gjk_quat_make(1, t, (gjk_real)(0.3 * t), 0);
        q = gjk_quat_normalize(gjk_quat_mul(q, turn));
    }
    return q;
}

/// A signed distance sd with its normal and witness points against the
/// reference: sd itself, a unit normal that realises it, witness points on
/// the boundaries and sd·normal apart.
static void check_answer(const box_pair *p, d3 ca, d3 cb, gjk_real sd, gjk_vec3 normal, gjk_vec3 point_a,
                         gjk_vec3 point_b, double ref, double tol, double pt_tol) {
    ENSURE_NEAR(sd, ref, tol);
    ENSURE_NEAR(d3_len(d3_of(normal)), 1, NORMAL_TOL);
    d3 n = d3_unit(d3_of(normal)), pa = d3_of(point_a), pb = d3_of(point_b);
    ENSURE(d3_len(d3_sub(d3_sub(pb, pa), d3_scale((double)sd, n))) <= pt_tol);
    ENSURE_NEAR(box_h(p->ha, p->ma, p->qa, ca, n) + box_h(p->hb, p->mb, p->qb, cb, d3_scale(-1, n)), -(double)sd,
                pt_tol);
    ENSURE_NEAR(box_sdist(p->ha, p->ma, p->qa, ca, pa), 0, pt_tol);
    ENSURE_NEAR(box_sdist(p->hb, p->mb, p->qb, cb, pb), 0, pt_tol);
}

/// A capsule from z = −h.z to h.z of radius r (h.x = h.y = 0).
static void gjk_box_box_capsule(gjk_shape *s, gjk_vec3 h, gjk_real r) {
    *s = gjk_make_capsule(gjk_v3(0, 0, -h.z), gjk_v3(0, 0, h.z), r);
}

/// The box of half extents h as a hull of its eight corners (gjk_make_hull):
/// the same shape, which two small hulls' separating axes answer
/// (src/sat_hull.c) where two boxes' are sat.c's.
static gjk_hull *box_hull(gjk_vec3 h) {
    gjk_vec3 c[8];
    for (int k = 0; k < 8; ++k) {
        c[k] = gjk_v3(k & 1 ? h.x : -h.x, k & 2 ? h.y : -h.y, k & 4 ? h.z : -h.z);
    }
    gjk_hull *hull = gjk_hull_create(c, 8, NULL);
    ENSURE(hull != NULL && hull->vertex_count == 8 && hull->face_count == 6);
    // Three edge directions, one along each axis.
    ENSURE(hull != NULL && hull->edge_direction_count == 3);
    return hull;
}

/// The pairs against the reference; with `as_hulls` each box is given as the
/// hull of its corners (and no capsules).
static void against_reference(bool as_hulls) {
    rng r = {0xb0b0b0ULL};
    static const double targets[] = {1, 0.1, 1e-3, 1e-6, 1e-9, 1e-12, 0, -1e-12, -1e-9, -1e-6, -1e-3, -0.1, -0.5};
    const int nt = (int)(sizeof targets / sizeof targets[0]);
    int checked = 0, decided = 0, clear = 0, core_overlaps = 0, by_axes = 0, apart = 0, apart_pen = 0, apart_dist = 0, overlap = 0, overlap_dist = 0, capsule_pairs = 0;
    for (int k = 0; k < 900; ++k) {
        box_pair p;
        memset(&p, 0, sizeof p);
        bool near_aligned = false; // a rotation a tiny turn off axis-aligned
        // From pair 600 on, A (odd) or B (even) is a capsule along its z: a
        // box of half extents (0, 0, half length) rounded by the radius.
        int capsule = k < 600 || as_hulls ? -1 : k & 1 ? 0 : 1;
        for (int s = 0; s < 2; ++s) {
            gjk_vec3 h = gjk_v3((gjk_real)rng_range(&r, 0.05, 2), (gjk_real)rng_range(&r, 0.05, 2),
                                (gjk_real)rng_range(&r, 0.05, 2));
            if (rng_chance(&r, 0.2)) h.z = (gjk_real)0.01; // thin
            gjk_real m = rng_chance(&r, 0.5) ? 0 : (gjk_real)rng_range(&r, 0, 0.2);
            if (s == capsule) {
                h.x = h.y = 0;
                m = (gjk_real)rng_range(&r, 0.02, 0.5);
            }
            int kind = rng_int(&r, 3);
            gjk_quat q = random_rotation(&r, kind);
            near_aligned = near_aligned || kind == 2;
            if (s == 0) p.ha = h, p.ma = m, p.qa = q;
            else p.hb = h, p.mb = m, p.qb = q;
        }
        p.pa = rng_chance(&r, 0.3) ? rng_box(&r, -1e3, 1e3) : d3_make(0, 0, 0);
        if (build_diff(&p) != 0) {
            continue;
        }
        double size = fmax(d3_len(d3_of(p.ha)) + (double)p.ma, d3_len(d3_of(p.hb)) + (double)p.mb);
        double tol = 2 * TEST_REL_TOL * size;
        d3 u = rng_dir3(&r, 0.1);
        u = d3_unit(u);
        gjk_shape A = gjk_with_margin(gjk_make_box(p.ha), p.ma), B = gjk_with_margin(gjk_make_box(p.hb), p.mb);
        gjk_hull *hull_a = NULL, *hull_b = NULL, portable_a, portable_b;
        if (as_hulls) {
            hull_a = box_hull(p.ha);
            hull_b = box_hull(p.hb);
            if (hull_a == NULL || hull_b == NULL) {
                gjk_hull_destroy(hull_a);
                gjk_hull_destroy(hull_b);
                hull_free(&p.diff);
                return;
            }
            A = gjk_with_margin(gjk_make_hull(hull_a), p.ma);
            B = gjk_with_margin(gjk_make_hull(hull_b), p.mb);
            if (k & 1) {
                // Every other pair as if built where AVX2 is missing: the
                // portable projections (scan_kind 0, read per query).
                portable_a = *hull_a, portable_b = *hull_b;
                portable_a.scan_kind = portable_b.scan_kind = 0;
                A = gjk_with_margin(gjk_make_hull(&portable_a), p.ma);
                B = gjk_with_margin(gjk_make_hull(&portable_b), p.mb);
            }
        }
        if (capsule >= 0) {
            gjk_box_box_capsule(capsule == 0 ? &A : &B, capsule == 0 ? p.ha : p.hb, capsule == 0 ? p.ma : p.mb);
            ++capsule_pairs;
        }
        for (int ti = 0; ti < nt; ++ti) {
            double target = targets[ti] * size;
            // The reference is increasing along the ray from the centre (D0
            // is symmetric about the origin): bisect the offset.
            double lo = 0, hi = 8 * size + 1;
            for (int it = 0; it < 200; ++it) {
                double mid = 0.5 * (lo + hi);
                if (ref_sd(&p, d3_scale(mid, u)) < target) lo = mid;
                else hi = mid;
            }
            gjk_transform ta = gjk_transform_make(to_real3(p.pa), p.qa);
            gjk_transform tb = gjk_transform_make(to_real3(d3_add(p.pa, d3_scale(0.5 * (lo + hi), u))), p.qb);
            // The reference of the pose as stored (gjk_real).
            double ref = ref_sd(&p, d3_sub(d3_of(tb.position), d3_of(ta.position)));
            gjk_query_input q;
            memset(&q, 0, sizeof q);
            q.shape_a = &A, q.transform_a = ta, q.shape_b = &B, q.transform_b = tb;
            gjk_intersect_output io = gjk_intersect(&q);
            gjk_penetration_output po = gjk_penetration(&q, NULL);
            gjk_distance_output dout = gjk_distance(&q, NULL);
            ++checked;
            ENSURE(io.intersect == (io.status != GJK_SEPARATED));
            if (ref > tol) {
                ENSURE(io.status == GJK_SEPARATED);
            } else if (ref < -tol) {
                ENSURE(io.status == GJK_PENETRATING);
            } else {
                ENSURE(io.status == GJK_SEPARATED || io.status == GJK_TOUCHING || io.status == GJK_PENETRATING);
            }
            if (fabs(ref) > tol) {
                ENSURE(io.status == po.status);
                ++clear;
                decided += io.iterations == 0;
            }
            if (as_hulls && ref + (double)p.ma + (double)p.mb < -tol && !near_aligned) {
                // Overlapping cores: the hulls' axes answer the penetration
                // query in place of EPA (after GJK's walk).
                ++core_overlaps;
                by_axes += po.epa_iterations == 0;
            }
            // Overlapping cores (the reference less the margins below zero):
            // the axes answer the penetration query without GJK or EPA,
            // unless a rotation is a tiny turn off axis-aligned (a nearly
            // parallel edge pair: its axis is left out, and EPA answers).
            if (!as_hulls && ref + (double)p.ma + (double)p.mb < -tol && !near_aligned) {
                ++core_overlaps;
                by_axes += po.iterations == 0 && po.epa_iterations == 0;
            }
            // Apart: both queries answer from the axes (a face, two edges or
            // a corner reaching the distance), unless a rotation is a tiny
            // turn off axis-aligned.
            if (!as_hulls && ref > tol && !near_aligned) {
                ++apart;
                apart_pen += po.iterations == 0;
                apart_dist += dout.iterations == 0;
            }
            // Penetration: the signed distance, a unit normal that realises
            // it, witness points on the boundaries and depth·normal apart.
            double world = d3_max_abs(p.pa) + 4 * size;
            double pt_tol = tol + 8 * (double)GJK_REAL_EPSILON * world;
            d3 ca = d3_of(ta.position), cb = d3_of(tb.position);
            check_answer(&p, ca, cb, po.signed_distance, po.normal, po.point_a, po.point_b, ref, tol, pt_tol);
            // Distance: the same where the boxes are apart beyond the
            // tolerance; a status that agrees with the reference's sign.
            if (ref > tol) {
                ENSURE(dout.status == GJK_SEPARATED);
                check_answer(&p, ca, cb, dout.distance, dout.normal, dout.point_a, dout.point_b, ref, tol, pt_tol);
            } else if (ref < -tol) {
                // One point of the overlap, in both boxes.
                ENSURE(dout.status == GJK_PENETRATING && dout.distance == 0);
                d3 c = d3_of(dout.point_a);
                ENSURE(d3_len(d3_sub(c, d3_of(dout.point_b))) == 0);
                ENSURE(box_sdist(p.ha, p.ma, p.qa, ca, c) <= pt_tol && box_sdist(p.hb, p.mb, p.qb, cb, c) <= pt_tol);
                ++overlap;
                overlap_dist += !as_hulls && dout.iterations == 0;
            }
            if (test_failures > 20) {
                fprintf(stderr, "pair %d target %g: ref %.17g status %s (iterations %d), penetration %s %.17g\n", k,
                        targets[ti], ref, gjk_status_name(io.status), io.iterations, gjk_status_name(po.status),
                        (double)po.signed_distance);
                hull_free(&p.diff);
                gjk_hull_destroy(hull_a);
                gjk_hull_destroy(hull_b);
                return;
            }
        }
        hull_free(&p.diff);
        gjk_hull_destroy(hull_a);
        gjk_hull_destroy(hull_b);
    }
    printf("    %d poses, %d clear of touching, %d of those decided by the axes; %d with the cores overlapping "
           "(no near-aligned turn), %d of those answered by the axes; %d apart (no near-aligned turn), %d and %d "
           "of those answered by the axes (penetration, distance); %d overlapping, %d of those answered by the axes "
           "(distance)\n",
           checked, clear, decided, core_overlaps, by_axes, apart, apart_pen, apart_dist, overlap, overlap_dist);
    if (as_hulls) {
        printf("    (boxes as hulls)\n");
        ENSURE(checked > 9000 && core_overlaps > 600);
#if !GJK_USE_FLOAT // float's tolerance is below what the hulls' faces model allows (2^17 ε): GJK and EPA answer
        // Overlapping cores: all but the pairs whose supporting features
        // are larger than a vertex against a face or two crossing edges
        // (a face against a face after a quarter turn: 119 of 901) take
        // the axes. Clear poses: all but those left open by a nearly
        // parallel edge pair, and rounded hulls whose cores are apart
        // (GJK's distance): 5098 of 7200.
        ENSURE(by_axes >= core_overlaps * 8 / 10);
        ENSURE(decided >= clear * 6 / 10);
#endif
        return;
    }
    ENSURE(checked > 5000 && capsule_pairs > 250);
    // The penetration of overlapping cores is the axes' (all but rounding
    // near the rim of a contact patch). In float an edge pair within 7° of
    // parallel is left out (|L| < 2ε/tolerance = 0.12) and EPA answers it.
#if GJK_USE_FLOAT
    ENSURE(by_axes >= core_overlaps * 9 / 10);
#else
    ENSURE(by_axes >= core_overlaps * 99 / 100);
#endif
    // Apart boxes are answered by the axes, a face, two edges or a corner
    // reaching the lower bound (all but a few far pairs whose alternating
    // projections need more steps).
    ENSURE(apart > 500);
    ENSURE(apart_pen >= apart * 98 / 100 && apart_dist >= apart * 98 / 100);
    // Most clear poses are decided without GJK: all but those where a nearly
    // parallel edge pair leaves the overlap open (rounded boxes whose cores
    // are apart take the distance's path), and float's wider bands.
    ENSURE(decided >= clear * 8 / 10);
}

static void test_box_box_against_reference(void) { against_reference(false); }

/// The same pairs with each box given as the hull of its corners.
static void test_box_hulls_against_reference(void) { against_reference(true); }

/// Boxes stacked face to face (every edge pair parallel or perpendicular):
/// gaps and overlaps of 1e-3 decided by the axes, touching left to GJK.
static void test_stacked_boxes(void) {
    gjk_shape A = gjk_make_box(gjk_v3(1, 1, 0.5)), B = gjk_make_box(gjk_v3(0.5, 0.5, 0.5));
    const double gaps[] = {1e-3, -1e-3, 0.5, -0.5};
    for (int i = 0; i < 4; ++i) {
        gjk_query_input q;
        memset(&q, 0, sizeof q);
        q.shape_a = &A, q.transform_a = gjk_transform_identity();
        q.shape_b = &B;
        q.transform_b = gjk_transform_make(gjk_v3((gjk_real)0.3, (gjk_real)-0.2, (gjk_real)(1 + gaps[i])),
                                           gjk_quat_identity());
        gjk_intersect_output o = gjk_intersect(&q);
        ENSURE(o.status == (gaps[i] > 0 ? GJK_SEPARATED : GJK_PENETRATING));
        ENSURE(o.iterations == 0);
    }
    // Exactly touching: not decided by the axes, touching by GJK.
    gjk_query_input q;
    memset(&q, 0, sizeof q);
    q.shape_a = &A, q.transform_a = gjk_transform_identity();
    q.shape_b = &B, q.transform_b = gjk_transform_make(gjk_v3((gjk_real)0.3, (gjk_real)-0.2, 1), gjk_quat_identity());
    ENSURE(gjk_intersect(&q).status == GJK_TOUCHING);
    // Edge on edge across (the crossed edges' axis separates): B turned 45°
    // about x and lifted so that its lower edge is 1e-3 above A's top face.
    gjk_shape C = gjk_make_box(gjk_v3(1, 0.5, 0.5));
    q.shape_a = &C, q.shape_b = &C;
    gjk_real s = (gjk_real)0.70710678118654752440;
    gjk_quat about_x = gjk_quat_make(s, s, 0, 0), about_z = gjk_quat_make(s, 0, 0, s);
    q.transform_a = gjk_transform_make(gjk_v3(0, 0, 0), about_x);
    q.transform_b = gjk_transform_make(gjk_v3(0, 0, (gjk_real)(2 * 0.70710678118654752440 + 1e-3)),
                                       gjk_quat_mul(about_z, about_x));
    gjk_intersect_output o = gjk_intersect(&q);
    ENSURE(o.status == GJK_SEPARATED);
    ENSURE(o.status == gjk_penetration(&q, NULL).status);
}

/// Two boxes turned 45° about x, B above A with its lower edge crossing A's
/// upper edge at 1e-6 rad, 1e-7 apart: only the edges' axis (along z,
/// |e × f| = 1e-6, below the shortest kept) separates them, and every axis
/// kept overlaps by about 6e-7. With that axis left out the axes must not
/// claim an overlap (GJK answers); as boxes (sat.c) and as hulls of their
/// corners (sat_hull.c).
static void test_crossed_edges_nearly_parallel(void) {
#if GJK_USE_FLOAT
    return; // 1e-7 and 1e-6 rad are float's rounding
#endif
    const double g = 1e-7, th = 1e-6, c45 = 0.92387953251128676, s45 = 0.38268343236508977;
    gjk_vec3 h = gjk_v3(1, (gjk_real)0.5, (gjk_real)0.5);
    gjk_hull *hull = box_hull(h);
    if (hull == NULL) {
        return;
    }
    gjk_shape shapes[2] = {gjk_make_box(h), gjk_make_hull(hull)};
    gjk_quat qa = gjk_quat_make((gjk_real)c45, (gjk_real)s45, 0, 0);
    gjk_quat qz = gjk_quat_make((gjk_real)cos(th / 2), 0, 0, (gjk_real)sin(th / 2));
    for (int k = 0; k < 2; ++k) {
        gjk_query_input q;
        memset(&q, 0, sizeof q);
        q.shape_a = &shapes[k], q.shape_b = &shapes[k];
        q.transform_a = gjk_transform_make(gjk_v3(0, 0, 0), qa);
        q.transform_b = gjk_transform_make(gjk_v3(0, 0, (gjk_real)(1.4142135623730950488 + g)), gjk_quat_mul(qz, qa));
        ENSURE(gjk_intersect(&q).status == GJK_SEPARATED);
        gjk_penetration_output o = gjk_penetration(&q, NULL);
        ENSURE(o.status == GJK_SEPARATED);
        ENSURE_NEAR(o.signed_distance, g, 1e-9);
    }
    gjk_hull_destroy(hull);
}

/// Overlapping stacked boxes: the penetration query answers from the axes,
/// exactly, with its witness points in the middle of the contact patch
/// (the lower face of the upper box clipped by the upper face of the lower
/// one), whichever box is the larger.
static void test_stacked_penetration(void) {
    gjk_shape big = gjk_make_box(gjk_v3(1, 1, (gjk_real)0.5));
    gjk_shape small = gjk_make_box(gjk_v3((gjk_real)0.5, (gjk_real)0.5, (gjk_real)0.5));
    for (int c = 0; c < 2; ++c) {
        gjk_query_input q;
        memset(&q, 0, sizeof q);
        q.shape_a = c == 0 ? &big : &small;
        q.shape_b = c == 0 ? &small : &big;
        q.transform_a = gjk_transform_make(gjk_v3(2, 3, 4), gjk_quat_identity());
        q.transform_b =
            gjk_transform_make(gjk_v3((gjk_real)2.25, (gjk_real)2.75, (gjk_real)4.9375), gjk_quat_identity());
        gjk_penetration_output o = gjk_penetration(&q, NULL);
        ENSURE(o.status == GJK_PENETRATING);
        ENSURE(o.iterations == 0 && o.epa_iterations == 0);
        ENSURE(o.depth == (gjk_real)0.0625 && o.signed_distance == (gjk_real)-0.0625);
        ENSURE(o.normal.x == 0 && o.normal.y == 0 && o.normal.z == 1);
        // The patch: the small box's square (side 1) around (2.25, 2.75)
        // when it is on top, the small box's own square around (2, 3) when
        // it is below; inside the big box's face either way.
        gjk_vec3 mid = c == 0 ? gjk_v3((gjk_real)2.25, (gjk_real)2.75, 0) : gjk_v3(2, 3, 0);
        ENSURE_NEAR(o.point_a.x, mid.x, 1e-15);
        ENSURE_NEAR(o.point_a.y, mid.y, 1e-15);
        ENSURE(o.point_a.z == (gjk_real)4.5 && o.point_b.z == (gjk_real)4.4375);
        ENSURE(o.point_b.x == o.point_a.x && o.point_b.y == o.point_a.y);
    }
}

/// A box lying on one of its edges across the rim of a face (the edge along
/// x from 0.5 to 1.5, the face ending at x = 1): apart and overlapping by
/// 1/16, the witness points are the middle of the part of the edge over
/// the face, x = 0.75 (within the tolerance that widens the face) (the clip of a segment once counted the crossing
/// twice and answered 5/6).
static void test_edge_across_rim(void) {
    gjk_shape A = gjk_make_box(gjk_v3(1, 1, 1));
    gjk_shape B = gjk_make_box(gjk_v3((gjk_real)0.5, (gjk_real)0.5, (gjk_real)0.5));
    gjk_real r = (gjk_real)0.70710678118654752440; // B a quarter of a half turn about x
    for (int c = 0; c < 2; ++c) {
        gjk_real gap = c == 0 ? (gjk_real)0.0625 : (gjk_real)-0.0625;
        gjk_query_input q;
        memset(&q, 0, sizeof q);
        q.shape_a = &A, q.shape_b = &B;
        q.transform_a = gjk_transform_identity();
        q.transform_b = gjk_transform_make(gjk_v3(1, 0, 1 + r + gap), gjk_quat_make((gjk_real)0.92387953251128676,
                                                                                   (gjk_real)0.38268343236508977, 0, 0));
        gjk_penetration_output o = gjk_penetration(&q, NULL);
        ENSURE(o.status == (c == 0 ? GJK_SEPARATED : GJK_PENETRATING));
        ENSURE(o.iterations == 0 && o.epa_iterations == 0);
        ENSURE_NEAR(o.signed_distance, gap, NORMAL_TOL);
        ENSURE_VEC_NEAR(o.normal, gjk_v3(0, 0, 1), NORMAL_TOL);
        // Within the tolerance that widens the face's sides (rounding).
        ENSURE_VEC_NEAR(o.point_a, gjk_v3((gjk_real)0.75, 0, 1), 1e3 * NORMAL_TOL);
        ENSURE_VEC_NEAR(o.point_b, gjk_v3((gjk_real)0.75, 0, 1 + gap), 1e3 * NORMAL_TOL);
        gjk_distance_output d = gjk_distance(&q, NULL);
        ENSURE(d.status == o.status && d.iterations == 0);
        if (c == 0) {
            ENSURE_NEAR(d.distance, gap, NORMAL_TOL);
            ENSURE_VEC_NEAR(d.point_a, o.point_a, NORMAL_TOL);
        }
    }
}

/// Two boxes with the same centre, B a quarter turn about z: the edge axes
/// of |L| = 1 lie along face normals and tie with them, and the face must
/// win (an edge along a face normal has arbitrary supporting edges). The
/// tie is settled by the tolerance, which must stay above the axes'
/// rounding: at a size of 1e-200 (where |h|² underflowed and the tolerance
/// with it) and with options.tolerance = 1e-15 (review findings). Checks
/// point_a − point_b = depth·normal against the answer at size 1.
static void test_penetration_ties_at_extremes(void) {
    const double r = 0.70710678118654757;
    const double sizes[] = {1, 1e-200, 1e-300, 1};
    const double tolerances[] = {0, 0, 0, 1e-15};
    for (int c = 0; c < 4; ++c) {
        gjk_real s = (gjk_real)sizes[c];
#if GJK_USE_FLOAT
        if (sizes[c] < 1e-30) {
            continue; // below float's range
        }
#endif
        gjk_shape A = gjk_make_box(gjk_v3((gjk_real)0.25 * s, (gjk_real)0.75 * s, (gjk_real)1.25 * s));
        gjk_shape B = gjk_make_box(gjk_v3((gjk_real)0.75 * s, (gjk_real)0.25 * s, (gjk_real)1.5 * s));
        gjk_query_input q;
        memset(&q, 0, sizeof q);
        q.shape_a = &A, q.shape_b = &B;
        q.transform_a = gjk_transform_identity();
        q.transform_b = gjk_transform_make(gjk_v3(0, 0, 0), gjk_quat_make((gjk_real)r, 0, 0, (gjk_real)r));
        q.options.tolerance = (gjk_real)tolerances[c];
        gjk_penetration_output o = gjk_penetration(&q, NULL);
        ENSURE(o.status == GJK_PENETRATING);
        ENSURE_NEAR(o.depth / s, 0.5, 1e-6);
        // Max-norm, divided by the size first (squares would underflow).
        gjk_vec3 e = gjk_scale(1 / s, gjk_sub(gjk_sub(o.point_a, o.point_b), gjk_scale(o.depth, o.normal)));
        ENSURE(gjk_max_abs(e) < 1e-5);
        ENSURE(gjk_abs(o.normal.y) < 1e-6 && gjk_abs(o.normal.z) < 1e-6);
        // Witnesses on the boundaries: |x| ≤ half extents in each box's frame,
        // one coordinate at its face.
        gjk_vec3 pa = gjk_scale(1 / s, o.point_a);
        ENSURE(gjk_abs(pa.x) <= 0.25 + 1e-6 && gjk_abs(pa.y) <= 0.75 + 1e-6 && gjk_abs(pa.z) <= 1.25 + 1e-6);
    }
}

/// A flat square (one half extent zero) lying on a box, given as a box
/// whose zero extent is along its own x, turned a quarter about y so that x
/// points down: its free axes are y and z, not the zero one (review
/// finding: the first two axes that rise by nothing were taken, and the
/// witness was the middle of an edge of the square, not of the square).
static void test_flat_square_on_box(void) {
    gjk_shape A = gjk_make_box(gjk_v3(2, 2, 1)), B = gjk_make_box(gjk_v3(0, (gjk_real)0.5, (gjk_real)0.5));
    gjk_real r = (gjk_real)0.70710678118654752440;
    gjk_query_input q;
    memset(&q, 0, sizeof q);
    q.shape_a = &A, q.shape_b = &B;
    q.transform_a = gjk_transform_identity();
    q.transform_b = gjk_transform_make(gjk_v3((gjk_real)0.25, (gjk_real)-0.5, (gjk_real)0.875), gjk_quat_make(r, 0, r, 0));
    gjk_penetration_output o = gjk_penetration(&q, NULL);
    ENSURE(o.status == GJK_PENETRATING && o.iterations == 0 && o.epa_iterations == 0);
    ENSURE_NEAR(o.depth, 0.125, NORMAL_TOL);
    ENSURE_VEC_NEAR(o.point_a, gjk_v3((gjk_real)0.25, (gjk_real)-0.5, 1), NORMAL_TOL);
    ENSURE_VEC_NEAR(o.point_b, gjk_v3((gjk_real)0.25, (gjk_real)-0.5, (gjk_real)0.875), NORMAL_TOL);
}

/// A garbage cache passed to gjk_intersect_cached on two boxes that the axes
/// decide comes back well formed (fuzz finding f18).
static void test_cached_garbage(void) {
    gjk_shape A = gjk_make_box(gjk_v3(1, 1, 1)), B = gjk_make_box(gjk_v3(1, 0, (gjk_real)5.5));
    gjk_query_input q;
    memset(&q, 0, sizeof q);
    q.shape_a = &A, q.transform_a = gjk_transform_make(gjk_v3(0, 0, 1), gjk_quat_identity());
    q.shape_b = &B, q.transform_b = gjk_transform_make(gjk_v3(3, 10, (gjk_real)-5.4375), gjk_quat_identity());
    for (int count = -3; count <= 9; ++count) {
        gjk_simplex_cache c;
        memset(&c, 0, sizeof c);
        c.count = count;
        c.direction[1] = gjk_v3(0, (gjk_real)NAN, 0);
        gjk_intersect_output o = gjk_intersect_cached(&q, &c);
        ENSURE(o.status == GJK_SEPARATED && o.iterations == 0);
        ENSURE(c.count >= 0 && c.count <= 4);
        for (int m = 0; m < c.count && m < 4; ++m) {
            ENSURE(gjk_is_valid_vec3(c.direction[m]) && gjk_length_sq(c.direction[m]) > 0);
        }
    }
}

/// Flat shapes in one plane, far apart (review finding): their Minkowski
/// difference is flat, its facet axes leave out the normals in its plane
/// that separate it, and gjk_intersect called a rounded plate and a capsule
/// 3.8 apart penetrating. Every query must say separated, at the distance.
static void test_coplanar_flat_shapes(void) {
    gjk_quat ry = gjk_quat_from_axis_angle(gjk_v3(0, 1, 0), (gjk_real)(0.5 * 3.14159265358979323846));
    gjk_shape plate = gjk_with_margin(gjk_make_box(gjk_v3(0, 1, 1)), (gjk_real)0.1); // in the plane x = 0
    gjk_shape others[3] = {gjk_make_capsule(gjk_v3(-1, 0, 0), gjk_v3(1, 0, 0), (gjk_real)0.1),
                           gjk_make_box(gjk_v3(1, 1, 0)), gjk_make_segment(gjk_v3(-1, 0, 0), gjk_v3(1, 0, 0))};
    const double gap[3] = {3.8, 2.9, 3.9}; // turned by ry into the plane x = 0, 5 up
    for (int k = 0; k < 3; ++k) {
        for (int swap = 0; swap < 2; ++swap) {
            gjk_transform tp = gjk_transform_make(gjk_v3(0, 0, 0), gjk_quat_identity());
            gjk_transform to = gjk_transform_make(gjk_v3(0, 5, 0), ry);
            gjk_query_input q;
            memset(&q, 0, sizeof q);
            q.shape_a = swap ? &others[k] : &plate, q.transform_a = swap ? to : tp;
            q.shape_b = swap ? &plate : &others[k], q.transform_b = swap ? tp : to;
            gjk_intersect_output io = gjk_intersect(&q);
            gjk_distance_output d = gjk_distance(&q, NULL);
            gjk_penetration_output pe = gjk_penetration(&q, NULL);
            ENSURE(io.status == GJK_SEPARATED && !io.intersect);
            ENSURE(d.status == GJK_SEPARATED && pe.status == GJK_SEPARATED);
            ENSURE_NEAR(d.distance, gap[k], GJK_USE_FLOAT ? 1e-5 : 1e-9);
            ENSURE_NEAR(pe.signed_distance, gap[k], GJK_USE_FLOAT ? 1e-5 : 1e-9);
        }
    }
}

/// With a large options.tolerance the axes' answers stay within it (review
/// finding: a corner pair accepted within the pair's whole-extent tolerance
/// was 1.76 of the promised one off at 1e-3). The promise: tolerance ×
/// (the largest coordinate of A − B in A's frame + the radii).
static void test_large_tolerance(void) {
    rng r = {0x7011ULL};
    int checked = 0;
    for (int k = 0; k < 300; ++k) {
        box_pair p;
        memset(&p, 0, sizeof p);
        p.ha = gjk_v3((gjk_real)rng_range(&r, 0.1, 1.1), (gjk_real)rng_range(&r, 0.1, 1.1),
                      (gjk_real)rng_range(&r, 0.1, 1.1));
        p.hb = gjk_v3((gjk_real)rng_range(&r, 0.1, 1.1), (gjk_real)rng_range(&r, 0.1, 1.1),
                      (gjk_real)rng_range(&r, 0.1, 1.1));
        if (k & 1) { // a capsule
            p.hb.x = p.hb.y = 0;
            p.mb = (gjk_real)rng_range(&r, 0, 0.2);
        }
        p.qa = rng_quat(&r);
        p.qb = rng_quat(&r);
        if (build_diff(&p) != 0) {
            continue;
        }
        gjk_shape A = gjk_make_box(p.ha), B = gjk_with_margin(gjk_make_box(p.hb), p.mb);
        if (k & 1) {
            gjk_box_box_capsule(&B, p.hb, p.mb);
        }
        d3 off = d3_scale(rng_range(&r, 2, 22), d3_unit(rng_dir3(&r, 0.1)));
        double ref = ref_sd(&p, off);
        if (!(ref > 0)) {
            hull_free(&p.diff);
            continue;
        }
        // The largest coordinate of A − B in A's frame: of the corner
        // differences, offset included.
        d3 ca[8], cb[8];
        corners(p.ha, p.qa, ca);
        corners(p.hb, p.qb, cb);
        dmat Ra = dmat_of_quat(p.qa);
        double L = 0;
        for (int i = 0; i < 8; ++i) {
            for (int j = 0; j < 8; ++j) {
                L = fmax(L, d3_max_abs(dmat_tmul(&Ra, d3_sub(ca[i], d3_add(off, cb[j])))));
            }
        }
        for (int t = 0; t < 3; ++t) {
            static const double rel[3] = {1e-3, 1e-2, 0.1};
            gjk_query_input q;
            memset(&q, 0, sizeof q);
            q.shape_a = &A, q.transform_a = gjk_transform_make(gjk_v3(0, 0, 0), p.qa);
            q.shape_b = &B, q.transform_b = gjk_transform_make(to_real3(off), p.qb);
            q.options.tolerance = (gjk_real)rel[t];
            gjk_distance_output o = gjk_distance(&q, NULL);
            ENSURE(o.status == GJK_SEPARATED);
            ENSURE(fabs((double)o.distance - ref) <= rel[t] * (L + (double)p.mb));
            ++checked;
        }
        hull_free(&p.diff);
    }
    ENSURE(checked > 600);
    // The review's pair (a box and a capsule, tolerance 1e-3): the exact
    // distance 1.2653246427936976, the promised tolerance 0.00376; the
    // answer was 1.2719526 when a corner pair was accepted within a whole
    // tolerance of the pair's extent.
    gjk_shape box = gjk_make_box(gjk_v3((gjk_real)0.18210509236153463, (gjk_real)1.0928783728301079,
                                        (gjk_real)0.22482220354129337));
    gjk_shape cap = gjk_make_capsule(
        gjk_v3((gjk_real)0.95841122247649302, (gjk_real)0.99995850140867426, (gjk_real)0.47133786671326594),
        gjk_v3((gjk_real)-0.94624254740978375, (gjk_real)-0.77095661677472593, (gjk_real)-0.65615007425409355),
        (gjk_real)0.16181040406142699);
    gjk_query_input q;
    memset(&q, 0, sizeof q);
    q.shape_a = &box;
    q.transform_a = gjk_transform_make(gjk_v3(0, 0, 0),
                                       gjk_quat_make((gjk_real)0.037209548812304462, (gjk_real)-0.55149638289098246,
                                                     (gjk_real)-0.53141439882946451, (gjk_real)-0.64192361372056272));
    q.shape_b = &cap;
    q.transform_b = gjk_transform_make(
        gjk_v3((gjk_real)2.3698458935302353, (gjk_real)-0.2248275850403669, (gjk_real)1.1404973180068245),
        gjk_quat_make((gjk_real)0.29466272106998542, (gjk_real)0.27083599141299969, (gjk_real)-0.69767452106107419,
                      (gjk_real)-0.59419862775773069));
    q.options.tolerance = (gjk_real)1e-3;
    gjk_distance_output o = gjk_distance(&q, NULL);
    ENSURE(o.status == GJK_SEPARATED);
    ENSURE_NEAR(o.distance, 1.2653246427936976, 0.00376);
}

int main(void) {
    g_qhull_err = tmpfile();
    RUN_TEST(test_stacked_boxes);
    RUN_TEST(test_stacked_penetration);
    RUN_TEST(test_crossed_edges_nearly_parallel);
    RUN_TEST(test_edge_across_rim);
    RUN_TEST(test_penetration_ties_at_extremes);
    RUN_TEST(test_flat_square_on_box);
    RUN_TEST(test_cached_garbage);
    RUN_TEST(test_coplanar_flat_shapes);
    RUN_TEST(test_large_tolerance);
    RUN_TEST(test_box_box_against_reference);
    RUN_TEST(test_box_hulls_against_reference);
    return TEST_SUMMARY();
}
