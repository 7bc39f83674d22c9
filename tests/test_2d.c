// Tests of the 2D queries gjk2_intersect, gjk2_distance and gjk2_penetration:
// analytic cases, the result contract (statuses, witness points, normals,
// finiteness, invalid input), warm starting, options, trace events, and a
// differential test against an exact reference on random polygon pairs.
//
// The reference: for polygons A and B with margins mA and mB placed by rigid
// transforms, D0 = conv{R_A a_i − R_B b_j} (gjk2_minkowski_difference_hull,
// itself tested against brute force in test_geometry2) and r = p_B − p_A.
// The signed distance of the rounded shapes is sdist(r, D0) − (mA + mB):
// the distance from r to D0 when r is outside, minus the distance to the
// nearest edge line when inside, evaluated in double. Each pair gets a
// target signed distance (+3 … ±1e-8 … −0.6 of the size); B is put at
// r = c + t·u (c the centroid of D0, u a direction) and t is bisected on the
// reference until the signed distance hits the target. Some shapes are
// presented as the primitive they equal (point, circle, segment, capsule,
// triangle, box). Every pair is also queried warm-started, from a cache of
// another pose or of random interior points (EPA then starts from points
// inside D). Curved shapes (ellipses, circles, capsules) are checked against
// the support-function form of the signed distance (test_curved_random).
//
// Usage: test_2d [first_pair [pair_count]]. With one argument only that
// pair of the differential test runs, verbosely.
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gjk/gjk2d.h"
#include "test_util.h"

#if GJK_USE_FLOAT
#define NORMAL_UNIT_TOL 1e-3
#define REAL_FMT "%.9g"
#else
#define NORMAL_UNIT_TOL 1e-6
#define REAL_FMT "%.17g"
#endif

#define REF_PAIRS 54000 // 3000 per target; about 1.7 s in a Release build
#define MAX_VERTS 40
#define MAX_FAIL_LINES 60
#define MAX_DUMPED_PAIRS 6

static const double PI = 3.14159265358979323846;

/// Absolute tolerance for shapes and distances of size `size`.
#define TOL(size) ((double)TEST_REL_TOL * (double)(size))

/// Witness points at a contact on a curved boundary (see test_queries.c): a
/// distance accurate to e pins a point on a curve of radius R only to
/// sqrt(2 R e).
#define CURVED_TOL(radius, size) sqrt(2.0 * (double)(radius) * TOL(size))

// ---------------------------------------------------------------------------
// Random numbers (splitmix64, fixed seeds), double-precision 2D vectors,
// rounding to gjk_real and double rotations: test_util.h.
//
// Function arguments are evaluated in an unspecified order, so no call below
// draws two numbers: every draw is a statement or a declarator of its own,
// and runs are the same with every compiler.

static double d2_len(d2 a) { return sqrt(d2_dot(a, a)); }
static gjk_vec2 V2(double x, double y) { return gjk_v2((gjk_real)x, (gjk_real)y); }

// ---------------------------------------------------------------------------
// Exact point–convex-polygon signed distance (double).

static double seg_dist2(d2 p, d2 a, d2 b) {
    d2 ab = d2_sub(b, a);
    double l2 = d2_dot(ab, ab);
    double t = l2 > 0 ? d2_dot(d2_sub(p, a), ab) / l2 : 0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    return d2_len(d2_sub(p, d2_add(a, d2_scale(t, ab))));
}

/// Signed distance from p to the convex polygon v[0..n) (counter-clockwise,
/// as gjk2_convex_hull returns it; 1 or 2 vertices for a point or segment):
/// the distance when outside, minus the distance to the nearest edge line
/// when inside.
static double poly_sdist(const gjk_vec2 *v, int n, d2 p) {
    if (n == 1) {
        return d2_len(d2_sub(p, d2_of(v[0])));
    }
    if (n == 2) {
        return seg_dist2(p, d2_of(v[0]), d2_of(v[1]));
    }
    double maxplane = -INFINITY;
    for (int i = 0; i < n; ++i) {
        d2 a = d2_of(v[i]), b = d2_of(v[(i + 1) % n]);
        d2 e = d2_sub(b, a);
        double s = d2_cross(d2_sub(p, a), e) / d2_len(e); // > 0 on the outer (right) side
        if (s > maxplane) maxplane = s;
    }
    if (maxplane <= 0) {
        return maxplane;
    }
    // Outside: the distance to the nearest edge. (Every edge is tried: a
    // floating-point hull may keep a vertex that is reflex by a rounding
    // error, and then "the edges that face p" can miss the nearest one.)
    double best = INFINITY;
    for (int i = 0; i < n; ++i) {
        double d = seg_dist2(p, d2_of(v[i]), d2_of(v[(i + 1) % n]));
        if (d < best) best = d;
    }
    return best;
}

// ---------------------------------------------------------------------------
// Helpers for the analytic cases.

static gjk_transform2 pose(double x, double y, double angle) { return gjk_transform2_make(V2(x, y), (gjk_real)angle); }

static gjk2_query_input query(const gjk2_shape *a, gjk_transform2 ta, const gjk2_shape *b, gjk_transform2 tb) {
    gjk2_query_input in;
    memset(&in, 0, sizeof in);
    in.shape_a = a;
    in.transform_a = ta;
    in.shape_b = b;
    in.transform_b = tb;
    return in;
}

#define ENSURE_V2_NEAR(u, v, tol)        \
    do {                                 \
        ENSURE_NEAR((u).x, (v).x, tol);  \
        ENSURE_NEAR((u).y, (v).y, tol);  \
    } while (0)

static double len2(gjk_vec2 v) { return hypot((double)v.x, (double)v.y); }

/// The contract every answer of a valid query keeps: finite numbers, unit
/// normals where required, the witness relations.
static void check_contract(const gjk2_query_input *in, double size) {
    gjk2_distance_output d = gjk2_distance(in, NULL);
    gjk2_penetration_output p = gjk2_penetration(in, NULL);
    gjk2_intersect_output x = gjk2_intersect(in);
    double tol = TOL(size);
    ENSURE(d.status <= GJK_PENETRATING && p.status <= GJK_PENETRATING && x.status <= GJK_PENETRATING);
    ENSURE(isfinite((double)d.distance) && d2_finite(d2_of(d.point_a)) && d2_finite(d2_of(d.point_b)) &&
           d2_finite(d2_of(d.normal)));
    ENSURE(isfinite((double)p.signed_distance) && d2_finite(d2_of(p.point_a)) && d2_finite(d2_of(p.point_b)) &&
           d2_finite(d2_of(p.normal)));
    ENSURE(d.status == p.status && x.status == p.status);
    ENSURE(x.intersect == (p.status != GJK_SEPARATED));
    ENSURE_NEAR(len2(p.normal), 1, NORMAL_UNIT_TOL);
    ENSURE_NEAR(d.distance, fmax(0, (double)p.signed_distance), tol);
    ENSURE_NEAR((double)p.depth, fmax(0, -(double)p.signed_distance), 0);
    // point_b − point_a = signed_distance · normal
    gjk_vec2 dv = gjk_sub2(p.point_b, p.point_a);
    ENSURE_V2_NEAR(dv, gjk_scale2(p.signed_distance, p.normal), tol);
    if (d.status == GJK_SEPARATED) {
        ENSURE_NEAR(len2(d.normal), 1, NORMAL_UNIT_TOL);
        ENSURE_V2_NEAR(gjk_sub2(d.point_b, d.point_a), gjk_scale2(d.distance, d.normal), tol);
    } else {
        ENSURE(len2(d.normal) == 0 || fabs(len2(d.normal) - 1) <= NORMAL_UNIT_TOL);
        ENSURE_V2_NEAR(d.point_a, d.point_b, tol);
    }
}

// ---------------------------------------------------------------------------
// Analytic cases.

static void test_circles(void) {
    gjk2_shape a = gjk2_make_circle(1), b = gjk2_make_circle((gjk_real)0.5);
    double tol = TOL(3);
    for (int k = 0; k < 12; ++k) {
        double th = 2 * PI * k / 12, c = cos(th), s = sin(th);
        // Apart: distance 1.5.
        gjk2_query_input in = query(&a, pose(0, 0, 0.3 * k), &b, pose(3 * c, 3 * s, -0.7 * k));
        gjk2_distance_output d = gjk2_distance(&in, NULL);
        ENSURE(d.status == GJK_SEPARATED);
        ENSURE_NEAR(d.distance, 1.5, tol);
        ENSURE_V2_NEAR(d.point_a, V2(c, s), tol);
        ENSURE_V2_NEAR(d.point_b, V2(2.5 * c, 2.5 * s), tol);
        ENSURE_V2_NEAR(d.normal, V2(c, s), tol);
        check_contract(&in, 3);
        // Touching.
        in.transform_b = pose(1.5 * c, 1.5 * s, 0);
        d = gjk2_distance(&in, NULL);
        ENSURE(d.status == GJK_TOUCHING);
        ENSURE_NEAR(d.distance, 0, tol);
        ENSURE(gjk2_intersect(&in).intersect);
        gjk2_penetration_output p = gjk2_penetration(&in, NULL);
        ENSURE(p.status == GJK_TOUCHING);
        ENSURE_NEAR(p.signed_distance, 0, tol);
        ENSURE_V2_NEAR(p.normal, V2(c, s), tol);
        // Overlapping by 0.5.
        in.transform_b = pose(c, s, 0);
        p = gjk2_penetration(&in, NULL);
        ENSURE(p.status == GJK_PENETRATING);
        ENSURE_NEAR(p.depth, 0.5, tol);
        ENSURE_NEAR(p.signed_distance, -0.5, tol);
        ENSURE_V2_NEAR(p.normal, V2(c, s), tol);
        ENSURE_V2_NEAR(p.point_a, V2(c, s), tol);
        ENSURE_V2_NEAR(p.point_b, V2(0.5 * c, 0.5 * s), tol);
        ENSURE(gjk2_intersect(&in).status == GJK_PENETRATING);
        check_contract(&in, 3);
    }
    // Concentric: depth 1.5 along some unit direction.
    gjk2_query_input in = query(&a, pose(5, -2, 0), &b, pose(5, -2, 1));
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_PENETRATING);
    ENSURE_NEAR(p.depth, 1.5, tol);
    ENSURE_NEAR(len2(p.normal), 1, NORMAL_UNIT_TOL);
    check_contract(&in, 3);
    gjk2_distance_output d = gjk2_distance(&in, NULL);
    ENSURE(d.status == GJK_PENETRATING && d.distance == 0);
}

static void test_boxes(void) {
    gjk2_shape a = gjk2_make_box(V2(1, 1)), b = gjk2_make_box(V2(0.5, 0.5));
    double tol = TOL(4);
    // Axis-aligned, apart along x by 1.5.
    gjk2_query_input in = query(&a, pose(0, 0, 0), &b, pose(3, 0.2, 0));
    gjk2_distance_output d = gjk2_distance(&in, NULL);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE_NEAR(d.distance, 1.5, tol);
    ENSURE_V2_NEAR(d.normal, V2(1, 0), tol);
    ENSURE_NEAR(d.point_a.x, 1, tol);
    ENSURE_NEAR(d.point_b.x, 2.5, tol);
    ENSURE_NEAR(d.point_a.y, d.point_b.y, tol);
    ENSURE(d.point_a.y >= -0.3 - tol && d.point_a.y <= 0.7 + tol);
    check_contract(&in, 4);
    // Overlapping by 0.3 along x (1.2 along y).
    in.transform_b = pose(1.2, 0.3, 0);
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_PENETRATING);
    ENSURE_NEAR(p.depth, 0.3, tol);
    ENSURE_V2_NEAR(p.normal, V2(1, 0), tol);
    ENSURE_NEAR(p.point_a.x, 1, tol);
    ENSURE_NEAR(p.point_b.x, 0.7, tol);
    check_contract(&in, 4);
    // Same along −y.
    in.transform_b = pose(0.1, -1.3, 0);
    p = gjk2_penetration(&in, NULL);
    ENSURE_NEAR(p.depth, 0.2, tol);
    ENSURE_V2_NEAR(p.normal, V2(0, -1), tol);
    check_contract(&in, 4);

    // A rotated 45°: its corner reaches x = √2; B (unit box) at x = 4.
    gjk2_shape u = gjk2_make_box(V2(1, 1));
    in = query(&a, pose(0, 0, PI / 4), &u, pose(4, 0, 0));
    d = gjk2_distance(&in, NULL);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE_NEAR(d.distance, 3 - sqrt(2.0), tol);
    ENSURE_V2_NEAR(d.point_a, V2(sqrt(2.0), 0), tol);
    ENSURE_V2_NEAR(d.point_b, V2(3, 0), tol);
    check_contract(&in, 4);
    // Corner into the face by 0.25.
    in.transform_b = pose(sqrt(2.0) + 0.75, 0.1, 0);
    p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_PENETRATING);
    ENSURE_NEAR(p.depth, 0.25, tol);
    ENSURE_V2_NEAR(p.normal, V2(1, 0), tol);
    ENSURE_V2_NEAR(p.point_a, V2(sqrt(2.0), 0), tol);
    check_contract(&in, 4);

    // Both rotated by 30° about a far-away point, faces aligned: apart by 0.5
    // along the rotated x axis.
    double th = PI / 6, c = cos(th), s = sin(th);
    double ox = 1000, oy = -2000;
    in = query(&a, pose(ox, oy, th), &b, pose(ox + 2 * c, oy + 2 * s, th));
    d = gjk2_distance(&in, NULL);
    double tol_far = tol + 8 * GJK_REAL_EPSILON * 2000;
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE_NEAR(d.distance, 0.5, tol_far);
    ENSURE_V2_NEAR(d.normal, V2(c, s), tol_far);
    check_contract(&in, 2000 * GJK_REAL_EPSILON / TEST_REL_TOL + 4);
    // The same pair overlapping by 0.25.
    in.transform_b = pose(ox + 1.25 * c, oy + 1.25 * s, th);
    p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_PENETRATING);
    ENSURE_NEAR(p.depth, 0.25, tol_far);
    ENSURE_V2_NEAR(p.normal, V2(c, s), tol_far);
}

static void test_capsules(void) {
    gjk2_shape a = gjk2_make_capsule(V2(-1, 0), V2(1, 0), (gjk_real)0.5);
    gjk2_shape b = gjk2_make_capsule(V2(0, -1), V2(0, 1), (gjk_real)0.25);
    double tol = TOL(4);
    // Perpendicular: cores 2 apart, radii 0.75.
    gjk2_query_input in = query(&a, pose(0, 0, 0), &b, pose(0, 3, 0));
    gjk2_distance_output d = gjk2_distance(&in, NULL);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE_NEAR(d.distance, 1.25, tol);
    ENSURE_V2_NEAR(d.point_a, V2(0, 0.5), tol);
    ENSURE_V2_NEAR(d.point_b, V2(0, 1.75), tol);
    ENSURE_V2_NEAR(d.normal, V2(0, 1), tol);
    check_contract(&in, 4);
    // Parallel (B rotated 90°), 0.05 apart, then 0.15 deep.
    in.transform_b = pose(0.5, 0.8, PI / 2);
    d = gjk2_distance(&in, NULL);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE_NEAR(d.distance, 0.05, tol);
    ENSURE_V2_NEAR(d.normal, V2(0, 1), tol);
    in.transform_b = pose(0.5, 0.6, PI / 2);
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_PENETRATING);
    ENSURE_NEAR(p.depth, 0.15, tol);
    ENSURE_V2_NEAR(p.normal, V2(0, 1), tol);
    ENSURE_NEAR(p.point_a.y, 0.5, tol);
    ENSURE_NEAR(p.point_b.y, 0.35, tol);
    check_contract(&in, 4);
    // End to end along x: cores 0.4 apart, radii 0.75: overlap 0.35.
    gjk2_shape c = gjk2_make_capsule(V2(-1, 0), V2(1, 0), (gjk_real)0.25);
    in = query(&a, pose(0, 0, 0), &c, pose(2.4, 0, 0));
    p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_PENETRATING);
    ENSURE_NEAR(p.depth, 0.35, tol);
    ENSURE_V2_NEAR(p.normal, V2(1, 0), tol);
    ENSURE_V2_NEAR(p.point_a, V2(1.5, 0), tol);
    ENSURE_V2_NEAR(p.point_b, V2(1.15, 0), tol);
    check_contract(&in, 4);
    // Capsule against a circle beside its core: distance 2 − 0.5 − 0.3.
    gjk2_shape o = gjk2_make_circle((gjk_real)0.3);
    in = query(&a, pose(0, 0, 0), &o, pose(0.4, -2, 0));
    d = gjk2_distance(&in, NULL);
    ENSURE_NEAR(d.distance, 1.2, tol);
    ENSURE_V2_NEAR(d.point_a, V2(0.4, -0.5), tol);
    ENSURE_V2_NEAR(d.normal, V2(0, -1), tol);
}

static void test_point_on_edge(void) {
    gjk2_shape pt = gjk2_make_point(), box = gjk2_make_box(V2(1, 1));
    double tol = TOL(2);
    gjk2_query_input in = query(&pt, pose(1, 0.3, 0.5), &box, pose(0, 0, 0));
    gjk2_distance_output d = gjk2_distance(&in, NULL);
    ENSURE(d.status == GJK_TOUCHING);
    ENSURE(d.distance == 0);
    ENSURE_V2_NEAR(d.point_a, V2(1, 0.3), tol);
    ENSURE(gjk2_intersect(&in).status == GJK_TOUCHING && gjk2_intersect(&in).intersect);
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_TOUCHING);
    ENSURE_NEAR(p.signed_distance, 0, tol);
    ENSURE_V2_NEAR(p.normal, V2(-1, 0), tol); // from the point (A) to the box (B)
    ENSURE_V2_NEAR(p.point_a, V2(1, 0.3), tol);
    ENSURE_V2_NEAR(p.point_b, V2(1, 0.3), tol);
    // Swapped: the normal turns round.
    in = query(&box, pose(0, 0, 0), &pt, pose(1, 0.3, 0));
    p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_TOUCHING);
    ENSURE_V2_NEAR(p.normal, V2(1, 0), tol);
    // Just inside and just outside.
    in.transform_b = pose(0.9, 0.3, 0);
    p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_PENETRATING);
    ENSURE_NEAR(p.depth, 0.1, tol);
    ENSURE_V2_NEAR(p.normal, V2(1, 0), tol);
    ENSURE_V2_NEAR(p.point_a, V2(1, 0.3), tol);
    ENSURE_V2_NEAR(p.point_b, V2(0.9, 0.3), tol);
    in.transform_b = pose(1.1, 0.3, 0);
    d = gjk2_distance(&in, NULL);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE_NEAR(d.distance, 0.1, tol);
    // A point on a segment: D is a segment through the origin.
    gjk2_shape seg = gjk2_make_segment(V2(-1, 0), V2(1, 0));
    in = query(&seg, pose(0, 0, 0), &pt, pose(0.25, 0, 0));
    p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_TOUCHING);
    ENSURE_NEAR(p.signed_distance, 0, tol);
    ENSURE_NEAR(fabs((double)p.normal.y), 1, tol);
    check_contract(&in, 2);
}

/// The classic worked example: the 3×3 square at the origin and the triangle
/// (3,3), (5,3), (3,5) with its last vertex repeated touch at one corner.
static void test_worked_example(void) {
    const gjk_vec2 square[] = {V2(0, 0), V2(3, 0), V2(3, 3), V2(0, 3)};
    const gjk_vec2 tri[] = {V2(3, 3), V2(5, 3), V2(3, 5), V2(3, 5)};
    gjk2_shape a = gjk2_make_polygon(square, 4), b = gjk2_make_polygon(tri, 4);
    double tol = TOL(5);
    for (int swap = 0; swap < 2; ++swap) {
        gjk2_query_input in = swap ? query(&b, gjk_transform2_identity(), &a, gjk_transform2_identity())
                                   : query(&a, gjk_transform2_identity(), &b, gjk_transform2_identity());
        gjk2_intersect_output x = gjk2_intersect(&in);
        ENSURE(x.status == GJK_TOUCHING && x.intersect);
        gjk2_distance_output d = gjk2_distance(&in, NULL);
        ENSURE(d.status == GJK_TOUCHING);
        ENSURE(d.distance == 0);
        ENSURE_V2_NEAR(d.point_a, V2(3, 3), tol);
        ENSURE_V2_NEAR(d.point_b, V2(3, 3), tol);
        gjk2_penetration_output p = gjk2_penetration(&in, NULL);
        ENSURE(p.status == GJK_TOUCHING);
        ENSURE_NEAR(p.signed_distance, 0, tol);
        ENSURE_NEAR(len2(p.normal), 1, NORMAL_UNIT_TOL);
        // The normal lies in the cone of separating directions at the corner.
        double sgn = swap ? -1 : 1;
        ENSURE(sgn * (double)p.normal.x >= -tol && sgn * (double)p.normal.y >= -tol);
        ENSURE_V2_NEAR(p.point_a, V2(3, 3), tol);
        ENSURE_V2_NEAR(p.point_b, V2(3, 3), tol);
        if (test_failures) {
            printf("  worked example%s: %s, distance %g; penetration %s, sd %g, normal (%g, %g)\n",
                   swap ? " (swapped)" : "", gjk_status_name(d.status), (double)d.distance, gjk_status_name(p.status),
                   (double)p.signed_distance, (double)p.normal.x, (double)p.normal.y);
        }
    }
    // Moved apart diagonally and pushed together along x.
    gjk2_query_input in = query(&a, gjk_transform2_identity(), &b, pose(0.3, 0.4, 0));
    gjk2_distance_output d = gjk2_distance(&in, NULL);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE_NEAR(d.distance, 0.5, tol);
    in.transform_b = pose(-0.5, -0.01, 0);
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_PENETRATING);
    ENSURE_NEAR(p.depth, 0.01, tol);
    ENSURE_V2_NEAR(p.normal, V2(0, 1), tol);
}

static void test_ellipse_box(void) {
    gjk2_shape e = gjk2_make_ellipse(V2(2, 1)), box = gjk2_make_box(V2(3, 1));
    double tol = TOL(4);
    gjk2_query_input in = query(&e, pose(0, 0, 0), &box, pose(0.4, 2.5, 0));
    gjk2_distance_output d = gjk2_distance(&in, NULL);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE_NEAR(d.distance, 0.5, tol);
    ENSURE_V2_NEAR(d.normal, V2(0, 1), sqrt(2 * tol)); // a flat face: the normal is pinned only to √(2e/R)
    ENSURE_V2_NEAR(d.point_a, V2(0, 1), CURVED_TOL(4, 4));
    ENSURE_NEAR(d.point_b.y, 1.5, tol);
    check_contract(&in, 4);
    // Overlapping by 0.5.
    in.transform_b = pose(0.4, 1.5, 0);
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_PENETRATING);
    ENSURE_NEAR(p.depth, 0.5, tol);
    ENSURE_V2_NEAR(p.normal, V2(0, 1), sqrt(2 * tol));
    ENSURE_V2_NEAR(p.point_a, V2(0, 1), CURVED_TOL(4, 4));
    ENSURE_NEAR(p.point_b.y, 0.5, tol);
    check_contract(&in, 4);
    // The ellipse rotated 90° (semi-axis 2 along y) in a far frame.
    in = query(&e, pose(100, 100, PI / 2), &box, pose(100, 103.5, 0));
    d = gjk2_distance(&in, NULL);
    ENSURE_NEAR(d.distance, 0.5, tol + 1e3 * GJK_REAL_EPSILON);
    // Ellipse against a rotated box corner: the corner (0, 1 + 0.2) above the top.
    gjk2_shape sq = gjk2_make_box(V2(1, 1));
    in = query(&e, pose(0, 0, 0), &sq, pose(0, 1.2 + sqrt(2.0), PI / 4));
    d = gjk2_distance(&in, NULL);
    ENSURE_NEAR(d.distance, 0.2, tol);
    ENSURE_V2_NEAR(d.point_b, V2(0, 1.2), tol);
    ENSURE_V2_NEAR(d.point_a, V2(0, 1), CURVED_TOL(4, 4));
    in.transform_b = pose(0, 0.8 + sqrt(2.0), PI / 4);
    p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_PENETRATING);
    ENSURE_NEAR(p.depth, 0.2, tol);
    ENSURE_V2_NEAR(p.normal, V2(0, 1), sqrt(2 * tol));
    check_contract(&in, 4);
}

/// gjk2_make_convex_polygon: the order is checked once; a convex polygon's
/// penetration (overlapping, or apart where a first support point does not
/// show it) and intersect are answered by their edges' separating axes (no
/// GJK iteration) with the plain polygon's answers; distance takes the walk
/// (fewer instructions than the axes).
static void test_convex_polygon(void) {
    const gjk_vec2 ccw[] = {V2(-1, -1), V2(1, -1), V2(1, 1), V2(-1, 1)};
    const gjk_vec2 cw[] = {V2(-1, -1), V2(-1, 1), V2(1, 1), V2(1, -1)};
    const gjk_vec2 arrow[] = {V2(0, 0), V2(2, -1), V2(1, 0), V2(2, 1)};
    const gjk_vec2 small[] = {V2(-0.5, -0.5), V2(0.5, -0.5), V2(0.5, 0.5), V2(-0.5, 0.5)};
    ENSURE(gjk2_make_convex_polygon(ccw, 4).polygon.convex == 1);
    ENSURE(gjk2_make_convex_polygon(cw, 4).polygon.convex == 0);    // clockwise
    ENSURE(gjk2_make_convex_polygon(arrow, 4).polygon.convex == 0); // concave
    ENSURE(gjk2_make_convex_polygon(ccw, 2).polygon.convex == 0);   // a segment
    gjk2_shape none = gjk2_make_convex_polygon(NULL, 3);
    ENSURE(none.polygon.convex == 0 && gjk2_shape_validate(&none) == GJK_INVALID_INPUT);
    ENSURE(gjk2_make_convex_polygon(ccw, 0).polygon.convex == 0);
    // A non-finite corner is no convex polygon (the queries skip the
    // vertex check for one): every query reports it.
    for (int k = 0; k < 2; ++k) {
        gjk_vec2 bad[] = {V2(-1, -1), V2(1, -1), V2(1, 1), V2(-1, 1)};
        bad[2].y = k == 0 ? (gjk_real)NAN : (gjk_real)INFINITY;
        gjk2_shape p = gjk2_make_convex_polygon(bad, 4), q = gjk2_make_convex_polygon(ccw, 4);
        ENSURE(p.polygon.convex == 0);
        gjk2_query_input in = query(&q, pose(0, 0, 0), &p, pose(5, 0, 0));
        ENSURE(gjk2_distance(&in, NULL).status == GJK_INVALID_INPUT);
        ENSURE(gjk2_penetration(&in, NULL).status == GJK_INVALID_INPUT);
        ENSURE(gjk2_intersect(&in).status == GJK_INVALID_INPUT);
    }
    // The 2 × 2 square against the 1 × 1 one: B over [0.8, 1.8] in x, so
    // 0.2 deep along +x; at x = 2, 0.5 apart; the clockwise square (the
    // plain polygon, by GJK and EPA) gives the same answers.
    gjk2_shape a = gjk2_make_convex_polygon(ccw, 4), a_cw = gjk2_make_convex_polygon(cw, 4);
    gjk2_shape b = gjk2_make_convex_polygon(small, 4);
    const double x_of_b[] = {1.3, 2.0};
    for (int k = 0; k < 2; ++k) {
        gjk2_query_input in = query(&a, pose(0, 0, 0), &b, pose(x_of_b[k], 0.1, 0));
        double sd = k == 0 ? -0.2 : 0.5;
        gjk2_penetration_output o = gjk2_penetration(&in, NULL);
        // Overlapping: the axes (no iteration). Apart: the walk, from the
        // first support point whose plane already shows them apart.
        ENSURE(o.status == (k == 0 ? GJK_PENETRATING : GJK_SEPARATED) && (k == 1 || o.iterations == 0));
        ENSURE_NEAR(o.signed_distance, sd, 1e-6);
        ENSURE_NEAR(o.normal.x, 1, 1e-6);
        ENSURE_NEAR(o.point_a.x, 1, 1e-6);
        ENSURE_NEAR(o.point_b.x, 1 + sd, 1e-6);
        gjk2_distance_output d = gjk2_distance(&in, NULL);
        ENSURE(d.status == o.status);
        ENSURE_NEAR(d.distance, k == 0 ? 0 : 0.5, 1e-6);
        if (k == 0) { // one point of both
            ENSURE(d.point_a.x == d.point_b.x && d.point_a.y == d.point_b.y);
            ENSURE(d.point_a.x >= 0.8 - 1e-6 && d.point_a.x <= 1 + 1e-6 && fabs(d.point_a.y - 0.1) <= 0.5 + 1e-6);
        }
        gjk2_intersect_output x = gjk2_intersect(&in);
        ENSURE(x.status == o.status && x.iterations == 0);
        in.shape_a = &a_cw;
        gjk2_penetration_output g = gjk2_penetration(&in, NULL);
        ENSURE(g.status == o.status && g.iterations > 0);
        ENSURE_NEAR(g.signed_distance, o.signed_distance, 1e-12);
        ENSURE_NEAR(g.normal.x, o.normal.x, 1e-12);
        ENSURE_NEAR(g.normal.y, o.normal.y, 1e-12);
    }
}

/// Mismatches of the pair (a, b) against the same pair given as plain
/// shapes (pa, pb: GJK and EPA) over a grid of B's poses: statuses away
/// from touching, signed distances and distances within 1e-9 of the size
/// (float: 1e-6, the precision of the answers here), and the three
/// queries' statuses among themselves.
static int convex_mismatches(const gjk2_shape *a, const gjk2_shape *pa, const gjk2_shape *b, const gjk2_shape *pb,
                             double size) {
    static const double angles[] = {0, 0.3, 0.9, 1.7, 2.9};
    int bad = 0;
    for (int k = 0; k < 5; ++k) {
        for (int ix = -15; ix <= 15; ++ix) {
            for (int iy = -15; iy <= 15; ++iy) {
                gjk_transform2 tb = pose(0.1 * ix * size, 0.1 * iy * size, angles[k]);
                gjk2_query_input in = query(a, pose(0, 0, 0), b, tb), ref = query(pa, pose(0, 0, 0), pb, tb);
                gjk2_penetration_output o = gjk2_penetration(&in, NULL), r = gjk2_penetration(&ref, NULL);
                gjk2_distance_output d = gjk2_distance(&in, NULL), rd = gjk2_distance(&ref, NULL);
                gjk2_intersect_output x = gjk2_intersect(&in);
                const double tol = (GJK_USE_FLOAT ? 1e-6 : 1e-9) * size;
                bool clear = fabs((double)r.signed_distance) > 1000 * tol;
                bool ok = fabs((double)o.signed_distance - (double)r.signed_distance) <= tol &&
                          fabs((double)d.distance - (double)rd.distance) <= tol &&
                          (!clear || (o.status == r.status && d.status == r.status && x.status == r.status)) &&
                          abs((int)d.status - (int)o.status) <= 1 && abs((int)x.status - (int)o.status) <= 1;
                if (!ok && bad++ == 0) {
                    printf("    first mismatch: B at (%.17g, %.17g) turned %g: %s %.17g, plain %s %.17g\n",
                           (double)tb.position.x, (double)tb.position.y, angles[k], gjk_status_name(o.status),
                           (double)o.signed_distance, gjk_status_name(r.status), (double)r.signed_distance);
                }
            }
        }
    }
    return bad;
}

/// The review of the convex polygons' axes: polygons that
/// gjk2_make_convex_polygon accepts but whose edges a merge by angle met out of
/// order (a repeated vertex, a closed ring, a corner 1 ulp from another, a
/// collinear point 1e-16 inside its line, a box of zero width) came out
/// "separated" when overlapping 0.9 deep; and gjk2_distance's common point
/// of 1e90-sized shapes lay outside B (the inside test squared numbers
/// near 1e180).
static void test_convex_polygon_review(void) {
    const gjk_vec2 repeated[] = {V2(0, 0), V2(1, 0), V2(1, 0), V2(1, 1), V2(0, 1)};
    const gjk_vec2 ring[] = {V2(1, 0), V2(1, 1), V2(0, 1), V2(0, 0), V2(1, 0)};
    const gjk_vec2 near_dup[] = {V2(0, 0), V2(1, 0), V2(1, 1), V2(0.99999999999999989, 1), V2(0, 1)};
    const gjk_vec2 inward[] = {V2(0, 0), V2(1, 1e-16), V2(2, 0), V2(2, 1), V2(0, 1)};
    const gjk_vec2 square[] = {V2(-0.5, -0.5), V2(0.5, -0.5), V2(0.5, 0.5), V2(-0.5, 0.5)};
    const struct {
        const gjk_vec2 *v;
        int n;
    } cases[] = {{repeated, 5}, {ring, 5}, {near_dup, 5}, {inward, 5}};
    gjk2_shape box = gjk2_make_box(V2(0.5, 0.5)), sq = gjk2_make_convex_polygon(square, 4),
               sq_plain = gjk2_make_polygon(square, 4);
    for (int c = 0; c < 4; ++c) {
        gjk2_shape a = gjk2_make_convex_polygon(cases[c].v, cases[c].n), pa = gjk2_make_polygon(cases[c].v, cases[c].n);
        ENSURE(a.polygon.convex == 1); // accepted, so the axes answer
        ENSURE(convex_mismatches(&a, &pa, &box, &box, 1) == 0);
        ENSURE(convex_mismatches(&box, &box, &a, &pa, 1) == 0);
        ENSURE(convex_mismatches(&a, &pa, &sq, &sq_plain, 1) == 0);
    }
    // The first finding itself: B 0.9 deep in the unit square with a
    // repeated corner.
    gjk2_shape a = gjk2_make_convex_polygon(repeated, 5);
    gjk_transform2 tb = {V2(0.65, 0.65), {(gjk_real)0.16996714290024104, (gjk_real)0.98544972998846014}};
    gjk2_query_input in = query(&a, pose(0, 0, 0), &box, tb);
    gjk2_penetration_output o = gjk2_penetration(&in, NULL);
    ENSURE(o.status == GJK_PENETRATING && gjk2_intersect(&in).status == GJK_PENETRATING);
    ENSURE_NEAR(o.signed_distance, -0.90439590551104532, 1e-6);
    // Boxes of zero and of 1e-17 height against the square.
    for (int k = 0; k < 2; ++k) {
        gjk2_shape flat = gjk2_make_box(V2(1, k == 0 ? 0 : 1e-17));
        ENSURE(convex_mismatches(&flat, &flat, &sq, &sq_plain, 1) == 0);
    }
    // The second review: a needle (half-angle 1e-14, float 1e-5) whose tip
    // meets a capsule's core shorter than the rounding (5e-18, float 3e-8)
    // turned into intersect's frame: the core's edge pointed anywhere and
    // gjk2_intersect called a pair 3e5 tolerances apart "penetrating".
    {
        const double w = GJK_USE_FLOAT ? 4e-5 : 1e-14, h = GJK_USE_FLOAT ? 2.956082134630833e-08 : 5e-18;
        const double x = GJK_USE_FLOAT ? 2.0029513835906982 : 2.0004, r = GJK_USE_FLOAT ? 0.001475639408454299 : 1e-4;
        const gjk_vec2 needle[] = {V2(-3, -w), V2(1, 0), V2(-3, w)};
        gjk2_shape nd = gjk2_make_convex_polygon(needle, 3), cap = gjk2_make_capsule(V2(-1, -h), V2(-1, h), (gjk_real)r);
        ENSURE(nd.polygon.convex == 1);
        gjk2_query_input q1 = query(&nd, pose(0, 0, 0), &cap, pose(x, 0, 0)), q2 = query(&cap, pose(x, 0, 0), &nd, pose(0, 0, 0));
        ENSURE(gjk2_intersect(&q1).status == GJK_SEPARATED && gjk2_intersect(&q2).status == GJK_SEPARATED);
        ENSURE_NEAR(gjk2_penetration(&q1, NULL).signed_distance, x - 2 - r, 1e-6);
    }
    // 1e90 (double) or 1e12 (float): the common point lies in both shapes.
    const double s = GJK_USE_FLOAT ? 1e12 : 1e90;
    const gjk_vec2 rect[] = {V2(-1.2984769343600549 * s, -0.84006225766425271 * s),
                             V2(1.2984769343600549 * s, -0.84006225766425271 * s),
                             V2(1.2984769343600549 * s, 0.84006225766425271 * s),
                             V2(-1.2984769343600549 * s, 0.84006225766425271 * s)};
    gjk2_shape big = gjk2_make_convex_polygon(rect, 4), big_b = gjk2_make_box(V2(0.9204460025983035 * s, 1.4774991262930283 * s));
    gjk_transform2 tbig = {V2(0.13810716347363876 * s, 0.47849667515320046 * s),
                           {(gjk_real)-0.67957557464050489, (gjk_real)-0.73360550594446028}};
    gjk2_query_input ib = query(&big, pose(0, 0, 0), &big_b, tbig);
    gjk2_distance_output d = gjk2_distance(&ib, NULL);
    ENSURE(d.status == GJK_PENETRATING);
    gjk2_shape point = gjk2_make_point();
    gjk2_query_input ip = query(&point, gjk_transform2_make(d.point_a, 0), &big_b, tbig);
    ENSURE(gjk2_penetration(&ip, NULL).signed_distance <= 1e-6 * s);
    ip.shape_b = &big;
    ip.transform_b = pose(0, 0, 0);
    ENSURE(gjk2_penetration(&ip, NULL).signed_distance <= 1e-6 * s);
}

static void test_segments(void) {
    double tol = TOL(3);
    // Collinear overlapping segments: D is a segment through the origin,
    // the shapes touch, and the normal is perpendicular.
    gjk2_shape s = gjk2_make_segment(V2(0, 0), V2(2, 0));
    gjk2_query_input in = query(&s, pose(0, 0, 0), &s, pose(1, 0, 0));
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_TOUCHING);
    ENSURE_NEAR(p.signed_distance, 0, tol);
    ENSURE_NEAR(fabs((double)p.normal.y), 1, tol);
    check_contract(&in, 3);
    // Crossing segments: D is the square [−1, 1]², depth 1.
    gjk2_shape h = gjk2_make_segment(V2(-1, 0), V2(1, 0)), v = gjk2_make_segment(V2(0, -1), V2(0, 1));
    in = query(&h, pose(0, 0, 0), &v, pose(0, 0, 0));
    p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_PENETRATING);
    ENSURE_NEAR(p.depth, 1, tol);
    check_contract(&in, 3);
    // A triangle and a segment, rounded.
    gjk2_shape t = gjk2_with_margin(gjk2_make_triangle(V2(0, 0), V2(2, 0), V2(0, 2)), (gjk_real)0.1);
    gjk2_shape r = gjk2_with_margin(gjk2_make_segment(V2(0, 0), V2(0, 1)), (gjk_real)0.2);
    in = query(&t, pose(0, 0, 0), &r, pose(2, 1, 0)); // segment x = 2, y ∈ [1, 2]; hypotenuse x + y = 2
    gjk2_distance_output d = gjk2_distance(&in, NULL);
    ENSURE_NEAR(d.distance, 1 / sqrt(2.0) - 0.3, tol);
    ENSURE_V2_NEAR(d.normal, V2(1 / sqrt(2.0), 1 / sqrt(2.0)), tol);
    check_contract(&in, 3);
}

static gjk_vec2 rounded_square_support(const void *data, gjk_vec2 d) {
    const gjk_real *half = (const gjk_real *)data;
    return gjk_v2(d.x < 0 ? -*half : *half, d.y < 0 ? -*half : *half);
}

static gjk_vec2 nan_support(const void *data, gjk_vec2 d) {
    (void)data;
    (void)d;
    return gjk_v2((gjk_real)NAN, 0);
}

static gjk_vec2 far_after_a_while(const void *data, gjk_vec2 d) {
    int *calls = (int *)(uintptr_t)data; // test-only: counts calls
    ++*calls;
    return *calls > 3 ? gjk_v2((gjk_real)INFINITY, d.y) : gjk_v2(d.x > 0 ? 1 : -1, d.y > 0 ? 1 : -1);
}

static void test_custom_shape(void) {
    gjk_real half = (gjk_real)0.5;
    gjk2_shape c = gjk2_with_margin(gjk2_make_custom(rounded_square_support, &half, (gjk_real)0.71), (gjk_real)0.1);
    gjk2_shape b = gjk2_with_margin(gjk2_make_box(V2(0.5, 0.5)), (gjk_real)0.1);
    rng r = {42};
    for (int k = 0; k < 200; ++k) {
        double x = rng_range(&r, -2, 2), y = rng_range(&r, -2, 2), th = rng_range(&r, -4, 4);
        gjk_transform2 ta = pose(x, y, th);
        x = rng_range(&r, -2, 2), y = rng_range(&r, -2, 2), th = rng_range(&r, -4, 4);
        gjk_transform2 tb = pose(x, y, th);
        gjk2_query_input in1 = query(&c, ta, &b, tb), in2 = query(&b, ta, &b, tb);
        gjk2_penetration_output p1 = gjk2_penetration(&in1, NULL), p2 = gjk2_penetration(&in2, NULL);
        ENSURE(p1.status == p2.status);
        ENSURE_NEAR(p1.signed_distance, p2.signed_distance, TOL(6));
    }
    // A support function returning NaN or infinity: invalid input, zero outputs.
    gjk2_shape bad = gjk2_make_custom(nan_support, NULL, 0);
    gjk2_query_input in = query(&bad, pose(0, 0, 0), &b, pose(3, 0, 0));
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_INVALID_INPUT && p.signed_distance == 0 && p.normal.x == 0 && p.normal.y == 0 &&
           p.iterations == 0);
    ENSURE(gjk2_distance(&in, NULL).status == GJK_INVALID_INPUT);
    ENSURE(gjk2_intersect(&in).status == GJK_INVALID_INPUT);
    // A support that fails late, during EPA.
    int calls = 0;
    gjk2_shape late = gjk2_make_custom(far_after_a_while, &calls, 2);
    in = query(&late, pose(0, 0, 0), &b, pose(0.1, 0, 0));
    p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_INVALID_INPUT && p.depth == 0 && p.point_a.x == 0 && p.epa_iterations == 0);
    // The other queries may decide from GJK's bounds before the failure.
    calls = 0;
    gjk2_intersect_output x = gjk2_intersect(&in);
    ENSURE(x.status == GJK_PENETRATING || (x.status == GJK_INVALID_INPUT && !x.intersect && x.iterations == 0));
    calls = 0;
    gjk2_distance_output d = gjk2_distance(&in, NULL);
    ENSURE(d.status == GJK_PENETRATING || (d.status == GJK_INVALID_INPUT && d.distance == 0 && d.iterations == 0));
}

static void test_shape_support(void) {
    const gjk_vec2 poly[] = {V2(0, 0), V2(2, 0), V2(1, 3), V2(1, 1)};
    double tol = TOL(4);
    gjk2_shape s = gjk2_make_polygon(poly, 4);
    ENSURE(gjk2_shape_validate(&s) == GJK_SEPARATED);
    ENSURE_V2_NEAR(gjk2_shape_support(&s, V2(0, 1)), V2(1, 3), 0);
    s = gjk2_with_margin(s, (gjk_real)0.5);
    ENSURE_V2_NEAR(gjk2_shape_support(&s, V2(0, 2)), V2(1, 3.5), tol);
    gjk2_shape e = gjk2_make_ellipse(V2(2, 1));
    for (int k = 0; k < 16; ++k) {
        double th = 2 * PI * k / 16;
        gjk_vec2 p = gjk2_shape_support(&e, V2(cos(th), sin(th)));
        // On the ellipse, with the normal (x/4, y/1) along the direction.
        ENSURE_NEAR((double)p.x * p.x / 4 + (double)p.y * p.y, 1, tol);
        ENSURE_NEAR((double)p.x / 4 * sin(th) - (double)p.y * cos(th), 0, tol);
    }
    gjk2_shape c = gjk2_make_capsule(V2(-1, 0), V2(1, 0), (gjk_real)0.5);
    ENSURE_V2_NEAR(gjk2_shape_support(&c, V2(1, 1)), V2(1 + 0.5 / sqrt(2.0), 0.5 / sqrt(2.0)), tol);
    gjk2_shape o = gjk2_with_margin(gjk2_make_circle(1), (gjk_real)0.25);
    ENSURE_V2_NEAR(gjk2_shape_support(&o, V2(0, -3)), V2(0, -1.25), tol);
    gjk2_shape b = gjk2_make_box(V2(1, 2));
    ENSURE_V2_NEAR(gjk2_shape_support(&b, V2(-1, 0.1)), V2(-1, 2), 0);
    gjk2_shape t = gjk2_make_triangle(V2(0, 0), V2(1, 0), V2(0, 1));
    ENSURE_V2_NEAR(gjk2_shape_support(&t, V2(-1, 2)), V2(0, 1), 0);
    // Only the direction matters, down to tiny and up to huge lengths whose
    // squares leave the normal range (the ellipse's |diag(r) d| and the
    // margin's d/|d| must not underflow to zero or overflow).
#if GJK_USE_FLOAT
    const int exps[] = {-120, -70, -40, 40, 70, 120};
#else
    const int exps[] = {-1000, -600, -300, 300, 600, 1000};
#endif
    const gjk2_shape all[] = {s, e, c, o, b, t, gjk2_with_margin(e, (gjk_real)0.3)};
    for (int i = 0; i < (int)(sizeof all / sizeof all[0]); ++i) {
        for (int k = 0; k < 12; ++k) {
            // Off the axes (by 15° at least): a tiny component of an
            // axis direction would underflow when scaled, and flip a box.
            double th = 2 * PI * (k + 0.5) / 12;
            gjk_vec2 d = V2(cos(th), sin(th));
            gjk_vec2 p = gjk2_shape_support(&all[i], d);
            for (int x = 0; x < (int)(sizeof exps / sizeof exps[0]); ++x) {
                gjk_vec2 q = gjk2_shape_support(&all[i], gjk_scale2((gjk_real)ldexp(1, exps[x]), d));
                ENSURE_V2_NEAR(q, p, tol);
            }
        }
    }
    // A zero direction gives a point of the shape; invalid shapes give zero.
    gjk_vec2 z = gjk2_shape_support(&b, V2(0, 0));
    ENSURE(fabs((double)z.x) == 1 && fabs((double)z.y) == 2);
    gjk2_shape neg = gjk2_make_circle(-1);
    ENSURE_V2_NEAR(gjk2_shape_support(&neg, V2(1, 0)), V2(0, 0), 0);
    ENSURE_V2_NEAR(gjk2_shape_support(NULL, V2(1, 0)), V2(0, 0), 0);
    ENSURE_V2_NEAR(gjk2_shape_support(&b, V2(NAN, 0)), V2(0, 0), 0);
    // Validation reads every vertex.
    const gjk_vec2 late_nan[] = {V2(0, 0), V2(1, 0), V2(1, 1), V2(NAN, 1)};
    gjk2_shape ln = gjk2_make_polygon(late_nan, 4);
    ENSURE(gjk2_shape_validate(&ln) == GJK_INVALID_INPUT);
    // So do the queries: a NaN vertex never wins a support comparison.
    gjk2_query_input in = query(&ln, pose(0, 0, 0), &b, pose(5, 0, 0));
    ENSURE(gjk2_distance(&in, NULL).status == GJK_INVALID_INPUT);
    ENSURE(gjk2_shape_validate(NULL) == GJK_INVALID_INPUT);
}

/// Every number of an invalid-input answer is zero.
static void expect_invalid(const gjk2_query_input *in, gjk2_simplex_cache *cache, const char *what) {
    gjk2_intersect_output x = gjk2_intersect(in);
    gjk2_distance_output d = gjk2_distance(in, cache);
    gjk2_penetration_output p = gjk2_penetration(in, cache);
    int ok = x.status == GJK_INVALID_INPUT && !x.intersect && x.iterations == 0;
    ok = ok && d.status == GJK_INVALID_INPUT && d.distance == 0 && d.point_a.x == 0 && d.point_a.y == 0 &&
         d.point_b.x == 0 && d.point_b.y == 0 && d.normal.x == 0 && d.normal.y == 0 && d.iterations == 0;
    ok = ok && p.status == GJK_INVALID_INPUT && p.signed_distance == 0 && p.depth == 0 && p.point_a.x == 0 &&
         p.point_a.y == 0 && p.point_b.x == 0 && p.point_b.y == 0 && p.normal.x == 0 && p.normal.y == 0 &&
         p.iterations == 0 && p.epa_iterations == 0;
    if (!ok) {
        fprintf(stderr, "invalid input not reported as such: %s (statuses %s, %s, %s)\n", what,
                gjk_status_name(x.status), gjk_status_name(d.status), gjk_status_name(p.status));
        ++test_failures;
    }
}

static void test_invalid_input(void) {
    gjk2_shape good = gjk2_make_box(V2(1, 1));
    gjk2_query_input base = query(&good, pose(0, 0, 0), &good, pose(3, 0, 0));
    ENSURE(gjk2_distance(&base, NULL).status == GJK_SEPARATED);
    expect_invalid(NULL, NULL, "NULL input");
    gjk2_query_input in = base;
    in.shape_a = NULL;
    expect_invalid(&in, NULL, "NULL shape A");
    in = base;
    in.shape_b = NULL;
    expect_invalid(&in, NULL, "NULL shape B");

    gjk2_shape shapes[16];
    const char *names[16];
    int n = 0;
    shapes[n] = gjk2_make_circle(-1), names[n++] = "negative radius";
    shapes[n] = gjk2_make_circle((gjk_real)NAN), names[n++] = "NaN radius";
    shapes[n] = gjk2_with_margin(good, -1), names[n++] = "negative margin";
    shapes[n] = gjk2_with_margin(good, (gjk_real)INFINITY), names[n++] = "infinite margin";
    shapes[n] = gjk2_make_box(V2(1, -1)), names[n++] = "negative half extent";
    shapes[n] = gjk2_make_ellipse(V2(NAN, 1)), names[n++] = "NaN ellipse radius";
    shapes[n] = gjk2_make_capsule(V2(0, 0), V2(1, INFINITY), 1), names[n++] = "infinite capsule end";
    shapes[n] = gjk2_make_segment(V2(NAN, 0), V2(1, 0)), names[n++] = "NaN segment end";
    shapes[n] = gjk2_make_triangle(V2(0, 0), V2(1, 0), V2(0, NAN)), names[n++] = "NaN triangle vertex";
    shapes[n] = gjk2_make_polygon(NULL, 4), names[n++] = "NULL vertices";
    static const gjk_vec2 verts[] = {{0, 0}, {1, 0}, {0, 1}};
    shapes[n] = gjk2_make_polygon(verts, 0), names[n++] = "zero vertices";
    shapes[n] = gjk2_make_polygon(verts, -2), names[n++] = "negative count";
    static gjk_vec2 nan_first[2];
    nan_first[0] = V2(NAN, 0), nan_first[1] = V2(0, 0);
    shapes[n] = gjk2_make_polygon(nan_first, 2), names[n++] = "NaN first vertex";
    shapes[n] = gjk2_make_custom(NULL, NULL, 0), names[n++] = "NULL support function";
    shapes[n] = good, shapes[n].type = GJK2_SHAPE_TYPE_COUNT, names[n++] = "unknown type";
    shapes[n] = good, shapes[n].type = (gjk2_shape_type)-1, names[n++] = "negative type";
    for (int i = 0; i < n; ++i) {
        ENSURE(gjk2_shape_validate(&shapes[i]) == GJK_INVALID_INPUT);
        in = base;
        in.shape_a = &shapes[i];
        expect_invalid(&in, NULL, names[i]);
        in = base;
        in.shape_b = &shapes[i];
        expect_invalid(&in, NULL, names[i]);
    }
    in = base;
    in.transform_a.position.x = (gjk_real)NAN;
    expect_invalid(&in, NULL, "NaN position");
    in = base;
    in.transform_b.position.y = (gjk_real)INFINITY;
    expect_invalid(&in, NULL, "infinite position");
    in = base;
    in.transform_b.rotation.c = 0, in.transform_b.rotation.s = 0;
    expect_invalid(&in, NULL, "zero rotation");
    in = base;
    in.transform_a.rotation.s = (gjk_real)NAN;
    expect_invalid(&in, NULL, "NaN rotation");
    in = base;
    in.transform_b.position = V2(GJK_REAL_MAX, 0);
    in.transform_a.position = V2(-GJK_REAL_MAX, 0);
    expect_invalid(&in, NULL, "relative position overflows");
    in = base;
    in.options.tolerance = -1;
    expect_invalid(&in, NULL, "negative tolerance");
    in = base;
    in.options.tolerance = 1;
    expect_invalid(&in, NULL, "tolerance 1");
    in = base;
    in.options.tolerance = (gjk_real)NAN;
    expect_invalid(&in, NULL, "NaN tolerance");
    in = base;
    in.options.max_distance = -1;
    expect_invalid(&in, NULL, "negative max_distance");
    in = base;
    in.options.max_iterations = -1;
    expect_invalid(&in, NULL, "negative max_iterations");
    in = base;
    in.options.max_epa_iterations = -5;
    expect_invalid(&in, NULL, "negative max_epa_iterations");
    // An invalid query leaves the cache alone.
    gjk2_simplex_cache cache = {2, {{1, 2}, {3, 4}, {0, 0}}, {0, 0, 0}, {0, 0, 0}};
    in = base;
    in.transform_a.rotation.c = 0, in.transform_a.rotation.s = 0;
    expect_invalid(&in, &cache, "zero rotation, with a cache");
    ENSURE(cache.count == 2 && cache.direction[1].x == 3);
    // A rotation that is only nearly unit is normalised.
    in = base;
    in.transform_b.rotation.c = 2, in.transform_b.rotation.s = 0;
    ENSURE_NEAR(gjk2_distance(&in, NULL).distance, 1, TOL(4));
}

static void test_warm_start(void) {
    const gjk_vec2 hexagon[] = {V2(1, 0), V2(0.5, 0.8), V2(-0.5, 0.8), V2(-1, 0), V2(-0.5, -0.8), V2(0.5, -0.8)};
    gjk2_shape a = gjk2_with_margin(gjk2_make_polygon(hexagon, 6), (gjk_real)0.05);
    gjk2_shape b = gjk2_make_ellipse(V2(0.7, 0.3));
    gjk2_simplex_cache cd = {0}, cp = {0};
    int cold = 0, warm = 0;
    for (int f = 0; f < 400; ++f) {
        double t = f * 0.01;
        gjk2_query_input in = query(&a, pose(0.1 * t, 0, 0.2 * t), &b, pose(2.2 * cos(t), 1.9 * sin(1.3 * t), t));
        gjk2_distance_output d0 = gjk2_distance(&in, NULL), d1 = gjk2_distance(&in, &cd);
        gjk2_penetration_output p0 = gjk2_penetration(&in, NULL), p1 = gjk2_penetration(&in, &cp);
        ENSURE(d0.status == d1.status && p0.status == p1.status);
        ENSURE_NEAR(d0.distance, d1.distance, TOL(4));
        ENSURE_NEAR(p0.signed_distance, p1.signed_distance, 4 * TOL(4));
        ENSURE(cd.count >= 1 && cd.count <= 3);
        cold += d0.iterations;
        warm += d1.iterations;
    }
    printf("  warm start: %d GJK iterations cold, %d warm over 400 frames\n", cold, warm);
    ENSURE(warm < cold);
    // A bad cache is ignored safely.
    gjk2_simplex_cache bad = {7, {{0, 0}}, {0, 0, 0}, {0, 0, 0}};
    gjk2_query_input in = query(&a, pose(0, 0, 0), &b, pose(3, 0, 0));
    gjk2_distance_output d = gjk2_distance(&in, &bad);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE_NEAR(d.distance, 3 - 1.05 - 0.7, TOL(4));
    gjk2_simplex_cache nan_cache = {3, {{(gjk_real)NAN, 0}, {1, 0}, {0, 1}}, {0, 0, 0}, {0, 0, 0}};
    d = gjk2_distance(&in, &nan_cache);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE_NEAR(d.distance, 3 - 1.05 - 0.7, TOL(4));
    // A cache from other shapes: three directions that have nothing to do
    // with this pair give the same answer.
    gjk2_simplex_cache odd = {3, {{0.4f, 0.1f}, {-0.2f, 0.2f}, {0.2f, -1.0f}}, {-7, 99, 1 << 30}, {3, -1, 2}};
    gjk2_query_input deep = query(&a, pose(0, 0, 0), &b, pose(0.3, 0.1, 0.4));
    gjk2_penetration_output p0 = gjk2_penetration(&deep, NULL), p1 = gjk2_penetration(&deep, &odd);
    ENSURE(p0.status == GJK_PENETRATING && p1.status == GJK_PENETRATING);
    ENSURE_NEAR(p0.signed_distance, p1.signed_distance, 4 * TOL(4));
}

/// Warm starts between two convex 64-gons (gjk2_make_convex_polygon), which
/// climb from the cache's vertices: the same answers as cold queries frame
/// after frame, each stored vertex the support of A (B) along its stored
/// direction, and a cache whose vertices are garbage answers the same.
static void test_warm_start_convex_polygons(void) {
    enum { N = 64 };
    gjk_vec2 va[N], vb[N];
    for (int i = 0; i < N; ++i) {
        double t = 6.283185307179586 * i / N;
        va[i] = V2(1.0 * cos(t), 0.6 * sin(t));
        vb[i] = V2(0.5 * cos(t), 0.9 * sin(t));
    }
    gjk2_shape a = gjk2_make_convex_polygon(va, N), b = gjk2_with_margin(gjk2_make_convex_polygon(vb, N), (gjk_real)0.02);
    ENSURE(a.polygon.convex == 1 && b.polygon.convex == 1);
    gjk2_simplex_cache cd = {0}, cp = {0};
    int cold = 0, warm = 0;
    for (int f = 0; f < 300; ++f) {
        double t = f * 0.01;
        // B circles A at a distance that swings through contact.
        double r = 1.45 + 0.3 * sin(3 * t);
        gjk2_query_input in = query(&a, pose(0, 0, 0.1 * t), &b, pose(r * cos(t), r * sin(t), 0.7 * t));
        gjk2_distance_output d0 = gjk2_distance(&in, NULL), d1 = gjk2_distance(&in, &cd);
        gjk2_penetration_output p0 = gjk2_penetration(&in, NULL), p1 = gjk2_penetration(&in, &cp);
        ENSURE(d0.status == d1.status && p0.status == p1.status);
        ENSURE_NEAR(d0.distance, d1.distance, TOL(4));
        ENSURE_NEAR(p0.signed_distance, p1.signed_distance, 4 * TOL(4));
        cold += d0.iterations;
        warm += d1.iterations;
        // The stored vertices: each the support along its direction (B's
        // along the direction turned into B's frame and reversed).
        gjk_rot2 rb = gjk_rot2_inv_mul(in.transform_a.rotation, in.transform_b.rotation);
        for (int m = 0; m < cd.count; ++m) {
            int ia = cd.vertex_a[m], ib = cd.vertex_b[m];
            ENSURE(ia >= 0 && ia < N && ib >= 0 && ib < N);
            if (ia < 0 || ia >= N || ib < 0 || ib >= N) {
                continue;
            }
            gjk_vec2 d = cd.direction[m], db = gjk_rot2_inv_apply(rb, gjk_neg2(d));
            gjk_vec2 sa = gjk2_shape_support(&a, d), sb = gjk2_shape_support(&b, db);
            double slack = 1e-12 + 8 * (double)GJK_REAL_EPSILON * gjk_length2(d);
            ENSURE(gjk_dot2(va[ia], d) >= gjk_dot2(sa, d) - slack);
            // B's support includes its margin along db: its core vertex is
            // the one farthest along db.
            ENSURE(gjk_dot2(vb[ib], db) >= gjk_dot2(sb, db) - (double)b.margin * gjk_length2(db) - slack);
        }
        if (f % 7 == 3 && cd.count > 0) {
            // Garbage vertices with the right directions: the same answer.
            gjk2_simplex_cache junk = cd;
            for (int m = 0; m < 3; ++m) {
                junk.vertex_a[m] = m == 0 ? -5 : m == 1 ? N : 1 << 30;
                junk.vertex_b[m] = (cd.vertex_b[m] + N / 2) % N;
            }
            gjk2_distance_output dj = gjk2_distance(&in, &junk);
            ENSURE(dj.status == d0.status);
            ENSURE_NEAR(dj.distance, d0.distance, TOL(4));
        }
    }
    printf("  convex 64-gons: %d GJK iterations cold, %d warm over 300 frames\n", cold, warm);
    ENSURE(warm < cold);
}

static void test_max_distance(void) {
    gjk2_shape a = gjk2_make_ellipse(V2(1, 0.5)), b = gjk2_make_box(V2(0.5, 0.5));
    gjk2_query_input in = query(&a, pose(0, 0, 0.3), &b, pose(20, 5, 0.2));
    gjk2_distance_output full = gjk2_distance(&in, NULL);
    in.options.max_distance = 2;
    gjk2_distance_output early = gjk2_distance(&in, NULL);
    ENSURE(early.status == GJK_SEPARATED);
    ENSURE(early.distance > 2 && early.distance <= full.distance + TOL(20));
    ENSURE(early.iterations <= full.iterations);
    in.options.max_distance = 100; // beyond: the full answer
    gjk2_distance_output same = gjk2_distance(&in, NULL);
    ENSURE_NEAR(same.distance, full.distance, TOL(20));
    // gjk2_penetration stops the same way.
    in.options.max_distance = 0;
    gjk2_penetration_output pfull = gjk2_penetration(&in, NULL);
    in.options.max_distance = 2;
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_SEPARATED && p.depth == 0);
    ENSURE(p.signed_distance > 2 && p.signed_distance <= pfull.signed_distance + TOL(20));
    ENSURE(p.iterations < pfull.iterations); // the full answer takes steps on the ellipse
    ENSURE_NEAR(len2(p.normal), 1, NORMAL_UNIT_TOL);
    // Overlapping: unaffected.
    in = query(&a, pose(0, 0, 0.3), &b, pose(1.1, 0.2, 0.2));
    pfull = gjk2_penetration(&in, NULL);
    in.options.max_distance = 2;
    p = gjk2_penetration(&in, NULL);
    ENSURE(pfull.status == GJK_PENETRATING && p.status == GJK_PENETRATING);
    ENSURE(p.signed_distance == pfull.signed_distance && p.epa_iterations == pfull.epa_iterations);
    // Two convex polygons (4 × 0.2 bars, B's over x in [1, 5], y in [0.4,
    // 0.6]) 0.3 apart along y, where the support point along the origins'
    // offset does not show them apart: their edges' axes stop at the first
    // one past max_distance (no GJK iteration), a lower bound with a point
    // of each bar as witnesses.
    const gjk_vec2 bar[] = {V2(-2, -0.1), V2(2, -0.1), V2(2, 0.1), V2(-2, 0.1)};
    gjk2_shape ca = gjk2_make_convex_polygon(bar, 4), cb = gjk2_with_margin(gjk2_make_convex_polygon(bar, 4), 0.05);
    for (int m = 0; m < 2; ++m) {
        in = query(&ca, pose(0, 0, 0), m == 0 ? &ca : &cb, pose(3, m == 0 ? 0.5 : 0.55, 0));
        pfull = gjk2_penetration(&in, NULL);
        ENSURE(pfull.status == GJK_SEPARATED);
        ENSURE_NEAR(pfull.signed_distance, 0.3, TOL(5));
        in.options.max_distance = 0.1;
        p = gjk2_penetration(&in, NULL);
        ENSURE(p.status == GJK_SEPARATED && p.iterations == 0 && p.depth == 0);
        ENSURE(p.signed_distance > 0.1 && p.signed_distance <= pfull.signed_distance + TOL(5));
        ENSURE_NEAR(p.normal.x, 0, 1e-12);
        ENSURE_NEAR(p.normal.y, 1, 1e-12);
        // point_a on A (the bar about the origin), point_b on B (its bar
        // about (3, 0.5), rounded by 0.05 in the second pair).
        double r = m == 0 ? 0 : 0.05, yb = m == 0 ? 0.5 : 0.55;
        ENSURE(fabs((double)p.point_a.x) <= 2 + TOL(5) && fabs((double)p.point_a.y) <= 0.1 + TOL(5));
        ENSURE(fabs((double)p.point_b.x - 3) <= 2 + r + TOL(5) && fabs((double)p.point_b.y - yb) <= 0.1 + r + TOL(5));
        ENSURE((double)(p.point_b.y - p.point_a.y) >= (double)p.signed_distance - TOL(5));
        // Beyond: the full answer.
        in.options.max_distance = 1;
        p = gjk2_penetration(&in, NULL);
        ENSURE(p.status == GJK_SEPARATED);
        ENSURE_NEAR(p.signed_distance, pfull.signed_distance, TOL(5));
    }
}

/// The gap along a unit direction n of B (at tb) beyond A (at ta): the
/// least of n·b over B's support less the most of n·a over A's.
static double gap_along2(const gjk2_shape *a, gjk_transform2 ta, const gjk2_shape *b, gjk_transform2 tb, gjk_vec2 n) {
    double ka = hypot((double)ta.rotation.c, (double)ta.rotation.s), kb = hypot((double)tb.rotation.c, (double)tb.rotation.s);
    gjk_rot2 ra = {(gjk_real)(ta.rotation.c / ka), (gjk_real)(ta.rotation.s / ka)};
    gjk_rot2 rb = {(gjk_real)(tb.rotation.c / kb), (gjk_real)(tb.rotation.s / kb)};
    gjk_vec2 pa = gjk_add2(ta.position, gjk_rot2_apply(ra, gjk2_shape_support(a, gjk_rot2_inv_apply(ra, n))));
    gjk_vec2 pb = gjk_add2(tb.position, gjk_rot2_apply(rb, gjk2_shape_support(b, gjk_rot2_inv_apply(rb, gjk_neg2(n)))));
    return (double)gjk_dot2(n, pb) - (double)gjk_dot2(n, pa);
}

/// An early stop at max_distance certifies its bound with its normal: the
/// gap along the normal is at least the bound. Walks on ellipses take
/// secant steps, whose direction is not the simplex's v̂: the normal was v̂,
/// and 90 of these pairs' answers had a gap below the bound (the review
/// harness's worst by millions of tolerances).
static void test_max_distance_normal_certifies(void) {
    rng r = {0x2d5eed11u};
    int stops = 0;
    for (int i = 0; i < 300; ++i) {
        gjk2_shape s[2];
        gjk_vec2 v[2][9];
        for (int k = 0; k < 2; ++k) {
            double ex = rng_range(&r, 0.2, 1.2), ey = rng_range(&r, 0.2, 1.2);
            gjk_vec2 e = V2(ex, ey);
            if (k == 1 && rng_chance(&r, 0.5)) {
                // A convex polygon: points on an ellipse at increasing angles.
                int n = 3 + rng_int(&r, 7);
                for (int m = 0; m < n; ++m) {
                    double t = 2 * PI * (m + rng_range(&r, 0, 0.8)) / n;
                    v[k][m] = V2((double)e.x * cos(t), (double)e.y * sin(t));
                }
                s[k] = gjk2_make_convex_polygon(v[k], n);
            } else {
                s[k] = gjk2_make_ellipse(e);
            }
        }
        double angle = rng_range(&r, 0, 2 * PI), dist = rng_range(&r, 0.5, 3), turn_a = rng_range(&r, 0, 2 * PI);
        gjk2_query_input in = query(&s[0], pose(0, 0, turn_a), &s[1],
                                    pose(dist * cos(angle), dist * sin(angle), rng_range(&r, 0, 2 * PI)));
        gjk2_distance_output full = gjk2_distance(&in, NULL);
        if (full.status != GJK_SEPARATED) {
            continue;
        }
        const double fraction[3] = {0.5, 0.9, 0.99};
        for (int f = 0; f < 3; ++f) {
            in.options.max_distance = (gjk_real)(fraction[f] * (double)full.distance);
            gjk2_distance_output d = gjk2_distance(&in, NULL);
            gjk2_penetration_output p = gjk2_penetration(&in, NULL);
            ENSURE(d.status == GJK_SEPARATED && p.status == GJK_SEPARATED);
            ENSURE(d.distance > in.options.max_distance && d.distance <= full.distance + TOL(8));
            stops += d.iterations < full.iterations;
            ENSURE(gap_along2(&s[0], in.transform_a, &s[1], in.transform_b, d.normal) >= (double)d.distance - TOL(8));
            ENSURE(gap_along2(&s[0], in.transform_a, &s[1], in.transform_b, p.normal) >=
                   (double)p.signed_distance - TOL(8));
        }
    }
    ENSURE(stops > 100); // the early stop is what is tested
}

static void ignore_trace(void *data, const gjk_trace_event *e) {
    (void)data;
    (void)e;
}

/// A walk stopped at its start by a cache's points (the 3D twin is fuzz
/// finding f70): the normal is the direction of the point that gave the
/// bound. It was read by the point's index after the simplex solve, which
/// may drop and reorder the points: another point's direction. Shapes far
/// apart (traced, so that the walk runs), garbage caches of three
/// directions.
static void test_start_bound_normal_garbage_cache(void) {
    rng r = {0xf70f70u};
    int stops = 0;
    for (int i = 0; i < 400; ++i) {
        gjk2_shape s[2];
        for (int k = 0; k < 2; ++k) {
            int kind = rng_int(&r, 4);
            double ex = rng_range(&r, 0.5, 6), ey = rng_range(&r, 0.5, 6);
            gjk_vec2 e = V2(ex, ey);
            s[k] = kind == 0   ? gjk2_make_point()
                   : kind == 1 ? gjk2_make_circle(e.x)
                   : kind == 2 ? gjk2_make_box(e)
                               : gjk2_make_ellipse(e);
        }
        double angle = rng_range(&r, 0, 2 * PI), dist = exp(rng_range(&r, log(20.0), log(3e4)));
        double ax = rng_range(&r, -6, 6), ay = rng_range(&r, -6, 6), turn_a = rng_range(&r, 0, 2 * PI);
        gjk2_query_input in = query(&s[0], pose(ax, ay, turn_a), &s[1],
                                    pose(dist * cos(angle), dist * sin(angle), rng_range(&r, 0, 2 * PI)));
        in.options.max_distance = 1;
        in.options.trace = ignore_trace;
        gjk2_simplex_cache c;
        memset(&c, 0, sizeof c);
        c.count = 3;
        for (int m = 0; m < 3; ++m) {
            double a = rng_range(&r, 0, 2 * PI), len = exp(rng_range(&r, -3, 10));
            c.direction[m] = V2(len * cos(a), len * sin(a));
        }
        gjk2_simplex_cache c1 = c;
        gjk2_distance_output d = gjk2_distance(&in, &c1);
        c1 = c;
        gjk2_penetration_output p = gjk2_penetration(&in, &c1);
        ENSURE(d.status == GJK_SEPARATED && p.status == GJK_SEPARATED);
        stops += d.iterations == 0;
        double size = dist + 20;
        ENSURE(gap_along2(&s[0], in.transform_a, &s[1], in.transform_b, d.normal) >= (double)d.distance - TOL(size));
        ENSURE(gap_along2(&s[0], in.transform_a, &s[1], in.transform_b, p.normal) >=
               (double)p.signed_distance - TOL(size));
    }
    ENSURE(stops > 100); // stopped at the start
}

static void test_end_to_end_needles_normal(void) {
    // 2D needle review (float): a capsule 1.83 long (radius 1.7e-9) and a
    // needle turned 1.5e-6 rad from it, end against end, 4.6e-6 apart. The
    // walk ended at one vertex of D, whose direction carries its rounding
    // (ε·L/|v|): a normal 0.026 rad off, along which the shapes overlapped
    // by 0.048. Its last step's direction, whose bound came within the
    // tolerance, is the normal now.
    gjk_vec2 vb[5] = {V2(-0x1.d3da96p-1, -0x1.5df312p-40), V2(-0x1.93f122p-4, -0x1.5df314p-40),
                      V2(0x1.d3da96p-1, -0x1.5df312p-40), V2(0x1.d3da96p-1, 0x1.5df312p-40),
                      V2(-0x1.d3da96p-1, 0x1.5df312p-40)};
    gjk2_shape a = gjk2_make_capsule(V2(-0x1.d3da96p-1, 0), V2(0x1.d3da96p-1, 0), (gjk_real)0x1.cc8e52p-30);
    gjk2_shape b = gjk2_make_convex_polygon(vb, 5);
    gjk_transform2 ta = {V2(0, 0), {(gjk_real)-0x1.df5e1ap-1, (gjk_real)-0x1.67b9dep-2}};
    gjk_transform2 tb = {V2(0x1.26cae4p-19, -0x1.467816p-18), {(gjk_real)-0x1.df5e24p-1, (gjk_real)-0x1.67b9aap-2}};
    gjk2_query_input in = query(&a, ta, &b, tb);
    gjk2_distance_output d = gjk2_distance(&in, NULL);
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    double tol = 2 * (GJK_USE_FLOAT ? 2e-6 : 1e-10) * 4; // 2 tolerances at the pair's scale (about 4)
    ENSURE(d.status == GJK_SEPARATED && p.status == GJK_SEPARATED);
    ENSURE(fabs(gap_along2(&a, ta, &b, tb, d.normal) - (double)d.distance) <= tol);
    ENSURE(fabs(gap_along2(&a, ta, &b, tb, p.normal) - (double)p.signed_distance) <= tol);
    // The same 2^-29 the size (the rounding test once underflowed there).
    const gjk_real k = (gjk_real)0x1p-29;
    gjk_vec2 vs[5];
    for (int i = 0; i < 5; ++i) {
        vs[i] = gjk_scale2(k, vb[i]);
    }
    gjk2_shape as = gjk2_make_capsule(gjk_scale2(k, a.capsule.a), gjk_scale2(k, a.capsule.b), k * a.capsule.radius);
    gjk2_shape bs = gjk2_make_convex_polygon(vs, 5);
    gjk_transform2 tbs = {gjk_scale2(k, tb.position), tb.rotation};
    in = query(&as, ta, &bs, tbs);
    d = gjk2_distance(&in, NULL);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE(fabs(gap_along2(&as, ta, &bs, tbs, d.normal) - (double)d.distance) <= tol * (double)k);
}

static void test_iteration_caps(void) {
    gjk2_shape a = gjk2_make_ellipse(V2(1, 0.3)), b = gjk2_make_ellipse(V2(0.5, 0.8));
    gjk2_query_input in = query(&a, pose(0, 0, 0.3), &b, pose(2, 0.7, 1.1));
    in.options.max_iterations = 1;
    gjk2_distance_output d = gjk2_distance(&in, NULL);
    ENSURE(d.status == GJK_NOT_CONVERGED && d.iterations == 1);
    ENSURE(isfinite((double)d.distance) && d2_finite(d2_of(d.point_a)) && d2_finite(d2_of(d.normal)));
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_NOT_CONVERGED && isfinite((double)p.signed_distance));
    // EPA capped: overlapping ellipses need more than one EPA step.
    in = query(&a, pose(0, 0, 0.3), &b, pose(0.5, 0.2, 1.1));
    in.options.max_epa_iterations = 1;
    p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_NOT_CONVERGED && p.epa_iterations == 1);
    ENSURE(isfinite((double)p.signed_distance) && d2_finite(d2_of(p.point_a)) && d2_finite(d2_of(p.normal)));
    ENSURE_NEAR(len2(p.normal), 1, NORMAL_UNIT_TOL);
    in.options.max_epa_iterations = 0;
    p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_PENETRATING && p.epa_iterations > 1);
    // Tighter and looser tolerances change the touching band.
    gjk2_shape c = gjk2_make_circle(1);
    in = query(&c, pose(0, 0, 0), &c, pose(2 + 1e-4, 0, 0));
    ENSURE(gjk2_distance(&in, NULL).status == GJK_SEPARATED);
    in.options.tolerance = (gjk_real)1e-3;
    ENSURE(gjk2_distance(&in, NULL).status == GJK_TOUCHING);
}

// Trace events.
typedef struct trace_log {
    int gjk, epa, last_gjk_iter, last_epa_iter, bad;
    gjk_vec3 last_support;
} trace_log;

static void on_trace(void *data, const gjk_trace_event *ev) {
    trace_log *log = (trace_log *)data;
    if (ev->phase == GJK_TRACE_GJK) {
        log->bad |= ev->iteration != log->last_gjk_iter + 1 || log->epa > 0;
        log->bad |= ev->simplex_count < 1 || ev->simplex_count > 3;
        for (int m = 0; m < ev->simplex_count; ++m) log->bad |= ev->simplex[m].z != 0;
        log->last_gjk_iter = ev->iteration;
        ++log->gjk;
    } else {
        log->bad |= ev->iteration != log->last_epa_iter + 1;
        log->bad |= ev->vertex_count < 3 || ev->vertices == NULL || ev->face_count != 0;
        // The polygon is convex and counter-clockwise and holds the closest point.
        for (int m = 0; m < ev->vertex_count; ++m) {
            gjk_vec3 a = ev->vertices[m], b = ev->vertices[(m + 1) % ev->vertex_count],
                     c = ev->vertices[(m + 2) % ev->vertex_count];
            double t = ((double)b.x - a.x) * ((double)c.y - b.y) - ((double)b.y - a.y) * ((double)c.x - b.x);
            log->bad |= t < -1e-6 || a.z != 0;
        }
        log->bad |= ev->upper < ev->lower - 1e-6;
        log->last_epa_iter = ev->iteration;
        ++log->epa;
    }
    log->bad |= ev->closest.z != 0 || ev->direction.z != 0 || ev->support.z != 0;
    log->last_support = ev->support;
}

static void test_trace(void) {
    // Two points: D is the single point a − b in world orientation.
    gjk2_shape pt = gjk2_make_point();
    trace_log log = {0};
    gjk2_query_input in = query(&pt, pose(1, 1, PI / 2), &pt, pose(4, 1, -0.4));
    in.options.trace = on_trace;
    in.options.trace_data = &log;
    gjk2_distance_output d = gjk2_distance(&in, NULL);
    ENSURE(d.status == GJK_SEPARATED && log.gjk == 1 && log.epa == 0 && !log.bad);
    ENSURE_NEAR(log.last_support.x, -3, TOL(4));
    ENSURE_NEAR(log.last_support.y, 0, TOL(4));
    // Overlapping polygons: GJK then EPA events.
    const gjk_vec2 hexagon[] = {V2(1, 0), V2(0.5, 0.8), V2(-0.5, 0.8), V2(-1, 0), V2(-0.5, -0.8), V2(0.5, -0.8)};
    gjk2_shape h = gjk2_make_polygon(hexagon, 6);
    gjk2_shape e = gjk2_make_ellipse(V2(1, 0.4));
    memset(&log, 0, sizeof log);
    in = query(&h, pose(0, 0, 0.7), &e, pose(0.5, 0.3, 0.2));
    in.options.trace = on_trace;
    in.options.trace_data = &log;
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_PENETRATING);
    ENSURE(!log.bad && log.gjk == p.iterations && log.epa == p.epa_iterations && log.epa > 0);
    printf("  trace: %d GJK and %d EPA events, polygon vs ellipse\n", log.gjk, log.epa);
    // A trace callback does not change the answer.
    gjk2_query_input quiet = in;
    quiet.options.trace = NULL;
    gjk2_penetration_output q = gjk2_penetration(&quiet, NULL);
    ENSURE(q.signed_distance == p.signed_distance && q.normal.x == p.normal.x);
}

static void test_touching_band(void) {
    gjk2_shape b = gjk2_make_box(V2(1, 1));
    double tol = TOL(2);
    for (int k = -3; k <= 3; ++k) {
        double gap = k * 0.25 * (double)GJK_DEFAULT_TOLERANCE;
        gjk2_query_input in = query(&b, pose(0, 0, 0), &b, pose(2 + gap, 0.5, 0));
        gjk2_penetration_output p = gjk2_penetration(&in, NULL);
        gjk2_distance_output d = gjk2_distance(&in, NULL);
        ENSURE(p.status == GJK_TOUCHING && d.status == GJK_TOUCHING && gjk2_intersect(&in).status == GJK_TOUCHING);
        ENSURE_NEAR(p.signed_distance, gap, tol);
        ENSURE_V2_NEAR(p.normal, V2(1, 0), tol);
    }
}

// ---------------------------------------------------------------------------
// Curved and mixed shapes against the support-function reference: for convex
// shapes the signed distance is max over unit u of −(h_A(u) + h_B(−u) − u·r),
// h the support values (the separating-axis theorem, and for overlapping
// shapes the depth as the least overlap over directions). The maximum is
// found by a scan of 720 directions refined by golden-section search; the
// supports come from gjk2_shape_support (tested above against closed forms).

/// −(overlap of A and B along the unit world direction u).

static double neg_overlap(const gjk2_query_input *in, d2 u) {
    drot ra = drot_of(in->transform_a.rotation), rb = drot_of(in->transform_b.rotation);
    d2 ua = drot_inv(ra, u), ub = drot_inv(rb, d2_scale(-1, u));
    double ha = d2_dot(ua, d2_of(gjk2_shape_support(in->shape_a, to_real2(ua))));
    double hb = d2_dot(ub, d2_of(gjk2_shape_support(in->shape_b, to_real2(ub))));
    d2 r = d2_sub(d2_of(in->transform_b.position), d2_of(in->transform_a.position));
    return -(ha + hb - d2_dot(u, r));
}

/// The maximum of neg_overlap near angle th (± one scan step), by
/// golden-section search.
static double refine_max(const gjk2_query_input *in, double th, double step) {
    const double g = 0.6180339887498949;
    double lo = th - step, hi = th + step;
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = neg_overlap(in, d2_make(cos(x1), sin(x1))), f2 = neg_overlap(in, d2_make(cos(x2), sin(x2)));
    for (int it = 0; it < 80; ++it) {
        if (f1 > f2) {
            hi = x2, x2 = x1, f2 = f1, x1 = hi - g * (hi - lo), f1 = neg_overlap(in, d2_make(cos(x1), sin(x1)));
        } else {
            lo = x1, x1 = x2, f1 = f2, x2 = lo + g * (hi - lo), f2 = neg_overlap(in, d2_make(cos(x2), sin(x2)));
        }
    }
    return fmax(f1, f2);
}

/// max over unit u of neg_overlap: a scan of 1440 directions, then every
/// local maximum of the scan refined.
static double support_sd(const gjk2_query_input *in) {
    enum { N = 1440 };
    static double f[N];
    const double step = 2 * PI / N;
    for (int k = 0; k < N; ++k) f[k] = neg_overlap(in, d2_make(cos(k * step), sin(k * step)));
    double best = -INFINITY;
    for (int k = 0; k < N; ++k) {
        best = fmax(best, f[k]);
        if (f[k] >= f[(k + N - 1) % N] && f[k] >= f[(k + 1) % N]) best = fmax(best, refine_max(in, k * step, step));
    }
    return best;
}

static gjk2_shape random_curved(rng *r, gjk_vec2 *verts, double *size) {
    double sc = exp(rng_range(r, log(0.1), log(10)));
    gjk2_shape s;
    int kind = rng_int(r, 6);
    if (kind == 0) {
        s = gjk2_make_ellipse(to_real2(d2_make(sc, sc * rng_range(r, 0.05, 1))));
    } else if (kind == 1) {
        s = gjk2_make_circle(to_real(sc));
    } else if (kind == 2) {
        double bx = sc * rng_range(r, -1, 1), by = sc * rng_range(r, -0.5, 0.5), rad = sc * rng_range(r, 0.05, 0.5);
        s = gjk2_make_capsule(to_real2(d2_make(-sc, 0)), to_real2(d2_make(bx, by)), to_real(rad));
    } else if (kind == 3) {
        s = gjk2_make_box(to_real2(d2_make(sc, sc * rng_range(r, 0.05, 1))));
    } else if (kind == 4) {
        double by = rng_range(r, -sc, sc), cx = rng_range(r, -sc, sc);
        s = gjk2_make_triangle(to_real2(d2_make(-sc, -sc)), to_real2(d2_make(sc, by)), to_real2(d2_make(cx, sc)));
    } else {
        int n = 3 + rng_int(r, 10);
        for (int i = 0; i < n; ++i) {
            double x = sc * rng_range(r, -1, 1), y = sc * rng_range(r, -1, 1);
            verts[i] = to_real2(d2_make(x, y));
        }
        s = gjk2_make_polygon(verts, n);
    }
    if (rng_chance(r, 0.4)) s = gjk2_with_margin(s, to_real(sc * rng_range(r, 0, 0.3)));
    *size = 2.5 * sc;
    return s;
}

/// A triangle's corner at or near the centre of a round or nearly round
/// ellipse: the depth is reached along a whole arc of directions, and EPA,
/// refining chords of that arc, ran its 250 iterations and answered not
/// converged (every pose at the centre of a round ellipse, 41% of poses 1e-3
/// from it). The corner's depth in the ellipse now proves the answer
/// (epa2.c, point_certificate): penetrating, with the least overlap over
/// directions (support_sd) as its depth, A's and B's supports along its
/// normal that depth apart, and witnesses that depth apart along it. (At
/// the centre of the ellipse of radii 1 and 0.999999 some poses are still
/// not converged: where the corner's normal misses the depth's direction.)
static void test_corner_in_round_ellipse(void) {
    rng r = {20261129};
    gjk_vec2 tri[3] = {V2(0, 0), V2(3, 0.5), V2(2.5, 2)};
    gjk2_shape t = gjk2_make_polygon(tri, 3);
    const double radii_y[2] = {1, 0.999999}, offsets[2] = {0, 1e-3};
    const double tol = 8 * TEST_REL_TOL * 4; // the pair's size: about 4
    int answered = 0, total = 0;
    for (int i = 0; i < 2; ++i) {
        gjk2_shape e = gjk2_make_ellipse(V2(1, radii_y[i]));
        for (int j = 0; j < 2; ++j) {
            for (int q = 0; q < 40; ++q) {
                double th = rng_range(&r, 0, 2 * PI);
                gjk_transform2 te = pose(0, 0, rng_range(&r, 0, 2 * PI));
                gjk_transform2 tt = pose(offsets[j] * cos(th), offsets[j] * sin(th), rng_range(&r, 0, 2 * PI));
                bool swap = q % 2;
                gjk2_query_input in = swap ? query(&t, tt, &e, te) : query(&e, te, &t, tt);
                gjk2_penetration_output o = gjk2_penetration(&in, NULL);
                ++total;
                if (radii_y[i] == 1 || offsets[j] > 0) {
                    ENSURE(o.status == GJK_PENETRATING);
                }
                if (o.status != GJK_PENETRATING) {
                    ENSURE(o.status == GJK_NOT_CONVERGED);
                    continue;
                }
                ++answered;
                ENSURE_NEAR(o.signed_distance, support_sd(&in), tol);
                ENSURE_NEAR(gap_along2(in.shape_a, in.transform_a, in.shape_b, in.transform_b, o.normal), o.signed_distance,
                            tol);
                ENSURE(len2(gjk_sub2(gjk_sub2(o.point_b, o.point_a), gjk_scale2(o.signed_distance, o.normal))) <= tol);
            }
        }
    }
    printf("  %d of %d poses answered\n", answered, total);
}

static void test_curved_random(void) {
    rng r = {0xc0ffee};
    int pairs = 0, epa = 0, not_converged = 0;
    double worst = 0;
    for (int k = 0; k < 4000; ++k) {
        gjk_vec2 va[16], vb[16];
        double sa, sb;
        gjk2_shape A = random_curved(&r, va, &sa), B = random_curved(&r, vb, &sb);
        double size = fmax(sa, sb), reach = rng_range(&r, 0, 1.2) * (sa + sb), phi = rng_range(&r, 0, 2 * PI);
        double px = rng_range(&r, -100, 100), py = rng_range(&r, -100, 100);
        double tha = rng_range(&r, -PI, PI), thb = rng_range(&r, -PI, PI);
        gjk2_query_input in = query(&A, pose(px, py, tha), &B, pose(px + reach * cos(phi), py + reach * sin(phi), thb));
        gjk2_penetration_output p = gjk2_penetration(&in, NULL);
        double ref = support_sd(&in), tol = TOL(size) + 8 * GJK_REAL_EPSILON * 200;
        not_converged += p.status == GJK_NOT_CONVERGED;
        epa += p.epa_iterations > 0;
        double err = fabs((double)p.signed_distance - ref);
        worst = fmax(worst, err / size);
        if (!(status_is_answer(p.status) && err <= tol && fabs(neg_overlap(&in, d2_of(p.normal)) - (double)p.signed_distance) <= tol)) {
            fprintf(stderr, "curved pair %d (types %d, %d): %s, signed distance %.17g, reference %.17g; along the normal %.17g\n",
                    k, (int)A.type, (int)B.type, gjk_status_name(p.status), (double)p.signed_distance, ref,
                    neg_overlap(&in, d2_of(p.normal)));
            ++test_failures;
            if (test_failures > 10) break;
        }
        ++pairs;
    }
    printf("  curved and mixed shapes: %d pairs (%d through EPA), worst |sd error|/size %.3g, %d not converged\n", pairs,
           epa, worst, not_converged);
}

// ---------------------------------------------------------------------------
// Differential test against the exact reference.

// Multiples of the size; ±1e-6, ±1e-8 and 0 probe contact (in double the
// touching band is about 1e-10·size, so ±1e-8 still has a sign).
static const double k_targets[] = {3,    1,     0.3,   0.1,   1e-2,  1e-3,  1e-4, 1e-6, 1e-8,
                                   0,    -1e-8, -1e-6, -1e-4, -1e-3, -1e-2, -0.1, -0.3, -0.6};
#define N_TARGETS ((int)(sizeof k_targets / sizeof k_targets[0]))

/// How a random shape is presented to the library: the same point set,
/// sometimes as the primitive it equals.
typedef enum present {
    AS_POLYGON,
    AS_POINT,    ///< One vertex at the origin (a circle when rounded).
    AS_CIRCLE,   ///< One vertex at the origin, margin as the radius.
    AS_SEGMENT,
    AS_CAPSULE,  ///< Segment, margin as the radius.
    AS_TRIANGLE,
    AS_BOX,      ///< Four corners (±h).
    AS_CONVEX,   ///< The hull's vertices, counter-clockwise (gjk2_make_convex_polygon).
} present;

typedef struct shape_desc {
    int n;
    gjk_vec2 v[MAX_VERTS];
    gjk_real margin;
    gjk_vec2 hull[MAX_VERTS]; ///< Convex hull of the vertices (local frame).
    int nh;
    double size; ///< Max vertex distance from the centroid, plus the margin.
    present as;
} shape_desc;

static void random_shape(rng *r, shape_desc *s) {
    double sc = exp(rng_range(r, log(0.05), log(20)));
    double ax = 1, ay = rng_range(r, 0.2, 1);
    if (rng_chance(r, 0.12)) ay = rng_range(r, 0.01, 0.1); // thin
    if (rng_chance(r, 0.5)) { double t = ax; ax = ay; ay = t; }
    double cx = sc * rng_range(r, -0.5, 0.5), cy = sc * rng_range(r, -0.5, 0.5);
    d2 centre = d2_make(cx, cy);
    int kind = rng_int(r, 10);
    int n = 3 + rng_int(r, MAX_VERTS - 2);
    s->as = AS_POLYGON;
    s->margin = rng_chance(r, 0.5) ? 0 : to_real(rng_range(r, 0, 0.3) * sc);
    if (kind == 0) { // a point: circle-like, always rounded
        n = 1;
        s->v[0] = rng_chance(r, 0.6) ? gjk_v2(0, 0) : to_real2(centre);
        s->margin = to_real(rng_range(r, 0.2, 1) * sc);
        if (s->v[0].x == 0 && s->v[0].y == 0) s->as = rng_chance(r, 0.5) ? AS_CIRCLE : AS_POINT;
    } else if (kind == 1) { // a segment
        n = 2;
        double ang = rng_range(r, 0, 2 * PI);
        d2 dir = d2_make(cos(ang), sin(ang));
        s->v[0] = to_real2(d2_add(centre, d2_scale(sc, dir)));
        s->v[1] = to_real2(d2_sub(centre, d2_scale(sc * rng_range(r, 0, 1), dir)));
        s->as = s->margin > 0 && rng_chance(r, 0.5) ? AS_CAPSULE : AS_SEGMENT;
    } else if (kind == 2) { // a triangle
        n = 3;
        for (int i = 0; i < 3; ++i) {
            double x = sc * ax * rng_range(r, -1, 1), y = sc * ay * rng_range(r, -1, 1);
            s->v[i] = to_real2(d2_add(centre, d2_make(x, y)));
        }
        s->as = rng_chance(r, 0.5) ? AS_TRIANGLE : AS_POLYGON;
    } else if (kind == 3) { // a box centred at the origin
        n = 4;
        gjk_real hx = to_real(sc * ax), hy = to_real(sc * ay);
        s->v[0] = gjk_v2(-hx, -hy), s->v[1] = gjk_v2(hx, -hy), s->v[2] = gjk_v2(hx, hy), s->v[3] = gjk_v2(-hx, hy);
        s->as = rng_chance(r, 0.6) ? AS_BOX : AS_POLYGON;
    } else {
        int sub = kind - 4; // 0 on an ellipse, 1 in a box, 2 box corners and edge points, 3 in a disc, 4 lattice, 5 many on an ellipse
        if (sub == 5) n = MAX_VERTS;
        for (int i = 0; i < n; ++i) {
            d2 p;
            double a = rng_range(r, 0, 2 * PI);
            if (sub == 0 || sub == 4 || sub == 5) {
                p = d2_make(cos(a), sin(a));
            } else if (sub == 1) {
                p.x = rng_range(r, -1, 1);
                p.y = rng_range(r, -1, 1);
            } else if (sub == 2) {
                if (i < 4) {
                    p = d2_make(i & 1 ? 1 : -1, i & 2 ? 1 : -1);
                } else {
                    p.x = rng_range(r, -1, 1);
                    p.y = rng_range(r, -1, 1);
                    if (rng_chance(r, 0.5)) {
                        if (rng_chance(r, 0.5)) p.x = rng_chance(r, 0.5) ? 1 : -1;
                        else p.y = rng_chance(r, 0.5) ? 1 : -1;
                    }
                }
            } else {
                p = d2_scale(sqrt(rng_unit(r)), d2_make(cos(a), sin(a)));
            }
            if (sub == 4) p = d2_make(round(p.x * 2) / 2, round(p.y * 2) / 2);
            s->v[i] = to_real2(d2_add(centre, d2_make(sc * ax * p.x, sc * ay * p.y)));
        }
        if (rng_chance(r, 0.25)) { // duplicates
            int k = 1 + rng_int(r, 3);
            for (int j = 0; j < k; ++j) {
                int from = rng_int(r, n), to = rng_int(r, n);
                s->v[to] = s->v[from];
            }
        }
        if (rng_chance(r, 0.25)) { // interior points
            int k = 1 + rng_int(r, 3);
            for (int j = 0; j < k; ++j) {
                d2 a = d2_of(s->v[rng_int(r, n)]), b = d2_of(s->v[rng_int(r, n)]);
                double w = rng_unit(r);
                int to = rng_int(r, n);
                s->v[to] = to_real2(d2_add(d2_scale(w, a), d2_scale(1 - w, b)));
            }
        }
    }
    s->n = n;
    s->nh = gjk2_convex_hull(s->v, n, s->hull);
    if (s->as == AS_POLYGON && s->nh >= 3 && rng_chance(r, 0.5)) {
        s->as = AS_CONVEX;
        // Sometimes with a point that gjk2_make_convex_polygon accepts but
        // that adds no corner: a repeated vertex, the first repeated last
        // (a closed ring), or an edge's midpoint (rounded off its line).
        int extra = rng_int(r, 4), at = rng_int(r, s->nh);
        if (extra > 0 && s->nh < MAX_VERTS) {
            gjk_vec2 q = s->hull[at], next = s->hull[at + 1 == s->nh ? 0 : at + 1];
            if (extra == 2) {
                at = s->nh - 1, q = s->hull[0];
            } else if (extra == 3) {
                q = gjk_v2((q.x + next.x) / 2, (q.y + next.y) / 2);
            }
            for (int k = s->nh; k > at + 1; --k) s->hull[k] = s->hull[k - 1];
            s->hull[at + 1] = q;
            ++s->nh;
        }
    }
    d2 cen = d2_make(0, 0);
    for (int i = 0; i < n; ++i) cen = d2_add(cen, d2_of(s->v[i]));
    cen = d2_scale(1.0 / n, cen);
    double rad = 0;
    for (int i = 0; i < n; ++i) rad = fmax(rad, d2_len(d2_sub(d2_of(s->v[i]), cen)));
    s->size = rad + (double)s->margin;
}

static gjk2_shape lib_shape(const shape_desc *s) {
    switch (s->as) {
    case AS_POINT: return gjk2_with_margin(gjk2_make_point(), s->margin);
    case AS_CIRCLE: return gjk2_make_circle(s->margin);
    case AS_SEGMENT: return gjk2_with_margin(gjk2_make_segment(s->v[0], s->v[1]), s->margin);
    case AS_CAPSULE: return gjk2_make_capsule(s->v[0], s->v[1], s->margin);
    case AS_TRIANGLE: return gjk2_with_margin(gjk2_make_triangle(s->v[0], s->v[1], s->v[2]), s->margin);
    case AS_BOX: return gjk2_with_margin(gjk2_make_box(s->v[2]), s->margin);
    case AS_CONVEX: return gjk2_with_margin(gjk2_make_convex_polygon(s->hull, s->nh), s->margin);
    default: return gjk2_with_margin(gjk2_make_polygon(s->v, s->n), s->margin);
    }
}

typedef struct pair {
    int index;
    uint64_t seed;
    shape_desc a, b;
    gjk_transform2 ta, tb;
    drot ra, rb;
    gjk_vec2 diff[(MAX_VERTS) * (MAX_VERTS)]; ///< D0 = conv{R_A a_i − R_B b_j}, counter-clockwise.
    int nd;
    double target, sd_ref, size, tol, tol_pt;
    int failed;
} pair;

static int g_fail_lines = 0, g_dumped_pairs = 0, g_failed_pairs = 0, g_verbose = 0;

static void dump_shape(const char *name, const shape_desc *s, gjk_transform2 t) {
    fprintf(stderr, "  %s: as %d, margin " REAL_FMT ", position {" REAL_FMT ", " REAL_FMT "}, rotation {" REAL_FMT
                    ", " REAL_FMT "}, %d vertices:\n",
            name, (int)s->as, (double)s->margin, (double)t.position.x, (double)t.position.y, (double)t.rotation.c,
            (double)t.rotation.s, s->n);
    for (int i = 0; i < s->n; ++i) fprintf(stderr, "    {" REAL_FMT ", " REAL_FMT "},\n", (double)s->v[i].x, (double)s->v[i].y);
}

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
        if (++g_fail_lines == MAX_FAIL_LINES && !g_verbose) fprintf(stderr, "(further failure messages suppressed)\n");
    }
}

static void dump_if_failed(const pair *p) {
    if (p->failed && ((g_dumped_pairs < MAX_DUMPED_PAIRS && g_fail_lines <= MAX_FAIL_LINES) || g_verbose)) {
        ++g_dumped_pairs;
        fprintf(stderr, "  pair %d (rerun: test_2d %d): target %.6g·size, sd_ref %.17g, size %.6g, tol %.3g\n", p->index,
                p->index, p->target / p->size, p->sd_ref, p->size, p->tol);
        dump_shape("A", &p->a, p->ta);
        dump_shape("B", &p->b, p->tb);
    }
}

#define CHECK(p, cond, ...)                            \
    do {                                               \
        if (!(cond)) fail((p), __LINE__, __VA_ARGS__); \
    } while (0)

static double ref_sd(const pair *p, d2 r) { return poly_sdist(p->diff, p->nd, r) - ((double)p->a.margin + (double)p->b.margin); }

/// Max over the vertices of s (rotated by m) of d·(m v).
static double support_value(const shape_desc *s, drot m, d2 d) {
    d2 dl = drot_inv(m, d);
    double best = -INFINITY;
    for (int i = 0; i < s->n; ++i) best = fmax(best, d2_dot(dl, d2_of(s->v[i])));
    return best;
}

/// Signed distance of a world point to the core hull of a shape.
static double shape_point_sdist(const shape_desc *s, drot m, gjk_vec2 pos, d2 world) {
    return poly_sdist(s->hull, s->nh, drot_inv(m, d2_sub(world, d2_of(pos))));
}

/// A random point of the shape's core (a convex combination of vertices).
static gjk_vec2 random_interior(rng *r, const shape_desc *s) {
    double w[3], sum = 0;
    d2 p = d2_make(0, 0);
    int idx[3];
    for (int k = 0; k < 3; ++k) {
        idx[k] = rng_int(r, s->n);
        w[k] = rng_unit(r) + 1e-3;
        sum += w[k];
    }
    for (int k = 0; k < 3; ++k) p = d2_add(p, d2_scale(w[k] / sum, d2_of(s->v[idx[k]])));
    return to_real2(p);
}

static gjk2_query_input pair_input(const pair *p, const gjk2_shape *A, const gjk2_shape *B, gjk_transform2 tb) {
    return query(A, p->ta, B, tb);
}

// Statistics.
#define N_BANDS 12
static const char *const k_band_names[N_BANDS] = {
    "sd >= 0.5",          "0.05 <= sd < 0.5",   "5e-3 <= sd < 0.05",  "5e-4 <= sd < 5e-3",
    "5e-5 <= sd < 5e-4",  "0 < sd < 5e-5",      "-5e-5 < sd <= 0",    "-5e-4 < sd <= -5e-5",
    "-5e-3 < sd <= -5e-4", "-0.05 < sd <= -5e-3", "-0.5 < sd <= -0.05", "sd <= -0.5",
};
static int g_band_count[N_BANDS];
static double g_band_worst[N_BANDS];
static int g_near_zero = 0, g_status_checked = 0, g_translations = 0, g_touching = 0, g_primitives = 0;
/// Answers of pairs with a convex polygon (AS_CONVEX) without GJK
/// iterations: their edges' separating axes (sat_polygon2.c) answered.
static int g_axes_answers[2] = {0, 0}; // penetration, intersect (distance takes the walk)
static double g_worst_sd = 0, g_worst_dist = 0, g_worst_witness = 0, g_worst_unit = 0, g_worst_overlap = 0,
              g_worst_vec = 0;
static int g_worst_sd_pair = -1, g_worst_overlap_pair = -1, g_worst_witness_pair = -1;
static int g_max_iter = 0, g_max_epa = 0;
static double g_worst_warm = 0;

static int band_of(double x) {
    static const double edges[] = {0.5, 0.05, 5e-3, 5e-4, 5e-5, 0};
    if (x > 0) {
        for (int i = 0; i < 5; ++i)
            if (x >= edges[i]) return i;
        return 5;
    }
    for (int i = 0; i < 5; ++i)
        if (x <= -edges[i]) return 11 - i;
    return 6;
}


static void run_pair(int index) {
    static pair P;
    pair *p = &P;
    memset(p, 0, sizeof *p);
    p->index = index;
    rng seeder = {0x2d5eed0f9e3779b9ULL ^ ((uint64_t)index * 0xd1342543de82ef95ULL)};
    p->seed = rng_next(&seeder);
    rng r = {p->seed};

    random_shape(&r, &p->a);
    random_shape(&r, &p->b);
    g_primitives += (p->a.as != AS_POLYGON) + (p->b.as != AS_POLYGON);
    double tha = rng_chance(&r, 0.1) ? 0 : rng_range(&r, -PI, PI);
    double thb = rng_chance(&r, 0.1) ? tha : rng_range(&r, -PI, PI); // sometimes aligned edges
    gjk_rot2 qa = {to_real(cos(tha)), to_real(sin(tha))}, qb = {to_real(cos(thb)), to_real(sin(thb))};
    p->ra = drot_of(qa);
    p->rb = drot_of(qb);
    p->size = fmax(p->a.size, p->b.size);
    p->tol = TEST_REL_TOL * p->size;

    // D0 from the hull vertices of A and B, rotated in double.
    gjk_vec2 ra[MAX_VERTS], rb[MAX_VERTS];
    static gjk_vec2 scratch[MAX_VERTS * MAX_VERTS];
    for (int i = 0; i < p->a.nh; ++i) ra[i] = to_real2(drot_apply(p->ra, d2_of(p->a.hull[i])));
    for (int j = 0; j < p->b.nh; ++j) rb[j] = to_real2(drot_apply(p->rb, d2_of(p->b.hull[j])));
    p->nd = gjk2_minkowski_difference_hull(ra, p->a.nh, rb, p->b.nh, scratch, p->diff);
    if (p->nd < 1) {
        fail(p, __LINE__, "test setup: no Minkowski difference hull");
        dump_if_failed(p);
        return;
    }
    d2 c = d2_make(0, 0);
    for (int i = 0; i < p->nd; ++i) c = d2_add(c, d2_of(p->diff[i]));
    c = d2_scale(1.0 / p->nd, c);
    double reach = 0;
    for (int i = 0; i < p->nd; ++i) reach = fmax(reach, d2_len(d2_sub(d2_of(p->diff[i]), c)));

    // Direction of approach: random, sometimes along an axis of A's frame.
    double phi = rng_range(&r, 0, 2 * PI);
    d2 u = d2_make(cos(phi), sin(phi));
    if (rng_chance(&r, 0.15)) {
        int axis = rng_int(&r, 4);
        u = drot_apply(p->ra, d2_make(axis == 0 ? 1 : axis == 1 ? -1 : 0, axis == 2 ? 1 : axis == 3 ? -1 : 0));
    }
    p->target = k_targets[index % N_TARGETS] * p->size;
    // f(t) = ref_sd(c + t u) is convex with its sublevel sets intervals
    // around 0: bisect for f(t) = target.
    double t = 0;
    if (ref_sd(p, c) < p->target) {
        double lo = 0, hi = reach + (double)p->a.margin + (double)p->b.margin + fabs(p->target) + p->size;
        for (int it = 0; it < 200; ++it) {
            double mid = 0.5 * (lo + hi);
            if (mid <= lo || mid >= hi) break;
            if (ref_sd(p, d2_add(c, d2_scale(mid, u))) < p->target) lo = mid;
            else hi = mid;
        }
        t = 0.5 * (lo + hi);
    }
    d2 rel = d2_add(c, d2_scale(t, u));

    // World placement: the pair is offset from the origin by up to 1e4.
    d2 off = d2_make(0, 0);
    if (!rng_chance(&r, 0.15)) {
        double mag = exp(rng_range(&r, log(1e-2), log(1e4))), ang = rng_range(&r, 0, 2 * PI);
        off = d2_make(mag * cos(ang), mag * sin(ang));
    }
    gjk_vec2 pa = to_real2(off);
    gjk_vec2 pb = gjk_v2(to_real(pa.x + to_real(rel.x)), to_real(pa.y + to_real(rel.y)));
    p->ta.position = pa, p->ta.rotation = qa;
    p->tb.position = pb, p->tb.rotation = qb;
    d2 r_act = d2_sub(d2_of(pb), d2_of(pa));
    p->sd_ref = ref_sd(p, r_act);
    double world = fmax(fmax(fabs((double)pa.x), fabs((double)pa.y)), fmax(fabs((double)pb.x), fabs((double)pb.y))) +
                   2 * p->size;
    p->tol_pt = p->tol + 4 * (double)GJK_REAL_EPSILON * world;

    double tol = p->tol, tol_pt = p->tol_pt, sd_ref = p->sd_ref;
    double rel_size = sd_ref / p->size;
    int band = band_of(rel_size);
    ++g_band_count[band];
    if (fabs(rel_size) <= 1e-3) ++g_near_zero;
    // The status has a known sign outside the test's tolerance and outside
    // the library's touching band, GJK_DEFAULT_TOLERANCE × (L + R) with L
    // the coordinate magnitude of A − B in A's frame (README, "Tolerances"),
    // bounded here by max|a| + max|b| + |r|. The band exceeds the test's
    // tolerance only for a shape far from its own origin, as one drawn with
    // all its points equal.
    double lmax = 0;
    for (int i = 0; i < p->a.n; ++i) lmax = fmax(lmax, d2_len(d2_of(p->a.v[i])));
    double lib_band = lmax;
    lmax = 0;
    for (int j = 0; j < p->b.n; ++j) lmax = fmax(lmax, d2_len(d2_of(p->b.v[j])));
    lib_band = (double)GJK_DEFAULT_TOLERANCE * (lib_band + lmax + d2_len(r_act) + (double)p->a.margin + (double)p->b.margin);
    int sign_known = fabs(sd_ref) > 2 * fmax(tol, lib_band);
    g_status_checked += sign_known;
    gjk_status expect = sd_ref > 0 ? GJK_SEPARATED : GJK_PENETRATING;

    gjk2_shape A = lib_shape(&p->a), B = lib_shape(&p->b);
    gjk2_query_input in = pair_input(p, &A, &B, p->tb);

    // ---- gjk2_penetration ----
    gjk2_penetration_output o = gjk2_penetration(&in, NULL);
    d2 oa = d2_of(o.point_a), ob = d2_of(o.point_b), on = d2_of(o.normal);
    double sd = (double)o.signed_distance;
    g_max_iter = o.iterations > g_max_iter ? o.iterations : g_max_iter;
    g_max_epa = o.epa_iterations > g_max_epa ? o.epa_iterations : g_max_epa;
    if (g_verbose) {
        printf("pair %d: sd_ref %.17g (%.3g·size), target %.3g·size\n", index, sd_ref, rel_size, p->target / p->size);
        printf("  penetration: %s, sd %.17g, depth %.17g, iterations %d + %d\n", gjk_status_name(o.status), sd,
               (double)o.depth, o.iterations, o.epa_iterations);
        printf("    point_a {%.17g, %.17g}\n    point_b {%.17g, %.17g}\n    normal {%.17g, %.17g}\n", oa.x, oa.y, ob.x,
               ob.y, on.x, on.y);
    }
    const bool convex_pair = p->a.as == AS_CONVEX || p->b.as == AS_CONVEX;
    g_axes_answers[0] += convex_pair && o.iterations == 0;
    CHECK(p, status_is_answer(o.status), "penetration status %s", gjk_status_name(o.status));
    g_touching += o.status == GJK_TOUCHING;
    CHECK(p, isfinite(sd) && isfinite((double)o.depth) && d2_finite(oa) && d2_finite(ob) && d2_finite(on),
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
    double nlen = d2_len(on);
    g_worst_unit = fmax(g_worst_unit, fabs(1 - nlen));
    CHECK(p, fabs(1 - nlen) <= NORMAL_UNIT_TOL, "penetration normal not unit: |n| = %.17g", nlen);
    if (status_is_answer(o.status) && nlen > 0.5) {
        // Witness points on the boundaries of the rounded shapes: their
        // distance to the core hull is the margin.
        double ea = fabs(shape_point_sdist(&p->a, p->ra, p->ta.position, oa) - (double)p->a.margin);
        double eb = fabs(shape_point_sdist(&p->b, p->rb, p->tb.position, ob) - (double)p->b.margin);
        if (fmax(ea, eb) / p->size > g_worst_witness) g_worst_witness = fmax(ea, eb) / p->size, g_worst_witness_pair = index;
        CHECK(p, ea <= tol_pt, "penetration point_a is %.3g·size off A's boundary", ea / p->size);
        CHECK(p, eb <= tol_pt, "penetration point_b is %.3g·size off B's boundary", eb / p->size);
        // point_b − point_a = signed_distance·normal (apart and overlapping).
        double ev = d2_len(d2_sub(d2_sub(ob, oa), d2_scale(sd, on)));
        g_worst_vec = fmax(g_worst_vec, ev / p->size);
        CHECK(p, ev <= tol_pt, "point_b - point_a differs from signed_distance*normal by %.3g·size", ev / p->size);
        // The overlap of the shapes along the normal is −signed_distance.
        d2 n = d2_scale(1 / nlen, on);
        double overlap = support_value(&p->a, p->ra, n) + (double)p->a.margin +
                         support_value(&p->b, p->rb, d2_scale(-1, n)) + (double)p->b.margin - d2_dot(n, r_act);
        double eo = fabs(overlap + sd);
        if (eo / p->size > g_worst_overlap) g_worst_overlap = eo / p->size, g_worst_overlap_pair = index;
        CHECK(p, eo <= tol, "overlap along the normal %.17g, expected -signed_distance %.17g (error %.3g·size)", overlap,
              -sd, eo / p->size);
        // Moving B by (depth + a little)·normal separates the shapes.
        if (o.status == GJK_PENETRATING) {
            double shift = (double)o.depth + 10 * tol_pt;
            gjk_transform2 tb2 = p->tb;
            tb2.position = to_real2(d2_add(d2_of(pb), d2_scale(shift, n)));
            gjk2_query_input in2 = pair_input(p, &A, &B, tb2);
            gjk2_penetration_output o2 = gjk2_penetration(&in2, NULL);
            ++g_translations;
            CHECK(p, o2.status == GJK_SEPARATED || o2.status == GJK_TOUCHING,
                  "after moving B by (depth + 10 tol)·normal: status %s, signed distance %.3g·size (reference %.3g·size)",
                  gjk_status_name(o2.status), (double)o2.signed_distance / p->size,
                  ref_sd(p, d2_sub(d2_of(tb2.position), d2_of(pa))) / p->size);
        }
    }

    // ---- gjk2_distance ----
    gjk2_distance_output d = gjk2_distance(&in, NULL);
    d2 da = d2_of(d.point_a), db = d2_of(d.point_b), dn = d2_of(d.normal);
    double dist = (double)d.distance;
    if (g_verbose) {
        printf("  distance: %s, distance %.17g, iterations %d\n", gjk_status_name(d.status), dist, d.iterations);
        printf("    point_a {%.17g, %.17g}\n    point_b {%.17g, %.17g}\n    normal {%.17g, %.17g}\n", da.x, da.y, db.x,
               db.y, dn.x, dn.y);
    }
    CHECK(p, status_is_answer(d.status), "distance status %s", gjk_status_name(d.status));
    CHECK(p, isfinite(dist) && d2_finite(da) && d2_finite(db) && d2_finite(dn), "distance output not finite");
    CHECK(p, dist >= 0, "negative distance %.17g", dist);
    double derr = fabs(dist - fmax(0, sd_ref));
    g_worst_dist = fmax(g_worst_dist, derr / p->size);
    CHECK(p, derr <= tol, "distance %.17g, expected %.17g (error %.3g·size)", dist, fmax(0, sd_ref), derr / p->size);
    if (sign_known) {
        CHECK(p, d.status == expect, "distance status %s, expected %s (sd_ref %.3g·size)", gjk_status_name(d.status),
              gjk_status_name(expect), rel_size);
    }
    // The queries agree on the status; at the edge of the touching band
    // they may differ by one class (their tolerance scales differ slightly).
    CHECK(p, sign_known ? d.status == o.status : abs((int)d.status - (int)o.status) <= 1,
          "distance status %s but penetration status %s", gjk_status_name(d.status), gjk_status_name(o.status));
    if (status_is_answer(d.status)) {
        double gap = d2_len(d2_sub(db, da));
        CHECK(p, fabs(gap - dist) <= tol_pt, "|point_b - point_a| = %.17g but distance %.17g", gap, dist);
        double sa = shape_point_sdist(&p->a, p->ra, p->ta.position, da) - (double)p->a.margin;
        double sb = shape_point_sdist(&p->b, p->rb, p->tb.position, db) - (double)p->b.margin;
        double dnl = d2_len(dn);
        if (d.status == GJK_SEPARATED) {
            if (fmax(fabs(sa), fabs(sb)) / p->size > g_worst_witness) {
                g_worst_witness = fmax(fabs(sa), fabs(sb)) / p->size, g_worst_witness_pair = index;
            }
            CHECK(p, fabs(sa) <= tol_pt, "distance point_a is %.3g·size off A's boundary", sa / p->size);
            CHECK(p, fabs(sb) <= tol_pt, "distance point_b is %.3g·size off B's boundary", sb / p->size);
            CHECK(p, fabs(1 - dnl) <= NORMAL_UNIT_TOL, "distance normal not unit: |n| = %.17g", dnl);
            double ev = d2_len(d2_sub(d2_sub(db, da), d2_scale(dist, dn)));
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

    // ---- warm start: a cache from another pose of B gives the same answers ----
    {
        gjk2_simplex_cache cache = {0};
        gjk_transform2 tb0 = p->tb;
        tb0.position = to_real2(d2_add(d2_of(pa), d2_scale(rng_range(&r, -0.5, 1.5), rel)));
        gjk2_query_input in0 = pair_input(p, &A, &B, tb0);
        gjk2_distance_output d0 = gjk2_distance(&in0, &cache);
        (void)d0;
        if (rng_chance(&r, 0.5)) {
            // Or a cache of random directions: the walk then starts from
            // their support points, which may be far from the answer.
            cache.count = 3;
            for (int k = 0; k < 3; ++k) {
                gjk_vec2 u = random_interior(&r, &p->a);
                cache.direction[k] = gjk_length_sq2(u) > 0 ? u : gjk_v2(1, 0);
            }
        }
        gjk2_simplex_cache cache2 = cache;
        gjk2_penetration_output ow = gjk2_penetration(&in, &cache);
        gjk2_distance_output dw = gjk2_distance(&in, &cache2);
        double ew = fabs((double)ow.signed_distance - sd_ref);
        g_worst_warm = fmax(g_worst_warm, ew / p->size);
        CHECK(p, status_is_answer(ow.status) && ew <= tol, "warm-started penetration: %s, signed distance %.17g, expected %.17g",
              gjk_status_name(ow.status), (double)ow.signed_distance, sd_ref);
        CHECK(p, status_is_answer(dw.status) && fabs((double)dw.distance - fmax(0, sd_ref)) <= tol,
              "warm-started distance: %s, %.17g, expected %.17g", gjk_status_name(dw.status), (double)dw.distance,
              fmax(0, sd_ref));
        if (sign_known) {
            CHECK(p, ow.status == expect && dw.status == expect, "warm-started statuses %s and %s, expected %s",
                  gjk_status_name(ow.status), gjk_status_name(dw.status), gjk_status_name(expect));
        }
        if (status_is_answer(ow.status)) {
            double ea = fabs(shape_point_sdist(&p->a, p->ra, p->ta.position, d2_of(ow.point_a)) - (double)p->a.margin);
            double eb = fabs(shape_point_sdist(&p->b, p->rb, p->tb.position, d2_of(ow.point_b)) - (double)p->b.margin);
            CHECK(p, ea <= tol_pt && eb <= tol_pt, "warm-started witness points off the boundaries by %.3g·size, %.3g·size",
                  ea / p->size, eb / p->size);
        }
    }

    // ---- gjk2_intersect ----
    gjk2_intersect_output x = gjk2_intersect(&in);
    g_axes_answers[1] += convex_pair && x.iterations == 0;
    CHECK(p, sign_known ? x.status == o.status : abs((int)x.status - (int)o.status) <= 1,
          "intersect status %s but penetration status %s", gjk_status_name(x.status), gjk_status_name(o.status));
    CHECK(p, x.intersect == (x.status == GJK_TOUCHING || x.status == GJK_PENETRATING), "intersect flag %d with status %s",
          (int)x.intersect, gjk_status_name(x.status));

    dump_if_failed(p);
}

/// Checks the reference itself on hand-made polygons.
static void reference_selfcheck(void) {
    const gjk_vec2 sq[] = {V2(-1, -1), V2(1, -1), V2(1, 1), V2(-1, 1)};
    ENSURE_NEAR(poly_sdist(sq, 4, d2_make(3, 0.5)), 2, 1e-15);
    ENSURE_NEAR(poly_sdist(sq, 4, d2_make(4, 5)), 5, 1e-15);
    ENSURE_NEAR(poly_sdist(sq, 4, d2_make(0.25, 0.5)), -0.5, 1e-15);
    ENSURE_NEAR(poly_sdist(sq, 4, d2_make(1, 0)), 0, 1e-15);
    const gjk_vec2 seg[] = {V2(0, 0), V2(2, 0)};
    ENSURE_NEAR(poly_sdist(seg, 2, d2_make(1, 3)), 3, 1e-15);
    ENSURE_NEAR(poly_sdist(seg, 2, d2_make(-3, 4)), 5, 1e-15);
    ENSURE_NEAR(poly_sdist(seg, 1, d2_make(3, 4)), 5, 1e-15);
}

/// The 2D twin of test_queries.c's test_tolerance_below_rounding: two
/// ellipses with one centre, A within 200 units in the last place of a half
/// turn, B a quarter turn, overlap deeply. Asked for a tolerance of 1e-30 or
/// 1e-20, gjk2_penetration answered "separated" for every pose in double
/// (the radii are those of a random sweep's finding); the tolerance now
/// counts as GJK_MIN_TOLERANCE.
static void test_tolerance_below_rounding(void) {
    const gjk_real tolerances[] = {(gjk_real)1e-30, (gjk_real)1e-20};
    gjk2_shape E = gjk2_make_ellipse(gjk_v2((gjk_real)0.74910330178101492, (gjk_real)0.31479171020527424));
    gjk2_shape F = gjk2_make_ellipse(gjk_v2((gjk_real)1.0132678288646892, (gjk_real)0.21110930649938381));
    for (int c = 0; c < 2; ++c) {
        int wrong = 0;
        gjk_real ca = -1;
        for (int k = 0; k < 200; ++k) {
            ca = next_real(ca, -2);
            gjk2_query_input q;
            memset(&q, 0, sizeof q);
            q.shape_a = &E, q.shape_b = &F;
            q.transform_a.rotation.c = ca;
            q.transform_b.rotation.s = 1;
            q.options.tolerance = tolerances[c];
            gjk2_penetration_output o = gjk2_penetration(&q, NULL);
            gjk2_distance_output d = gjk2_distance(&q, NULL);
            gjk2_intersect_output in = gjk2_intersect(&q);
            wrong += !(o.status == GJK_PENETRATING && d.status == GJK_PENETRATING && in.status == GJK_PENETRATING);
        }
        if (wrong != 0) {
            fprintf(stderr, "tolerance %g: %d of 200 poses wrong\n", (double)tolerances[c], wrong);
        }
        ENSURE(wrong == 0);
    }
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
    clock_t start = clock();
    if (argc == 1) {
        RUN_TEST(test_circles);
        RUN_TEST(test_boxes);
        RUN_TEST(test_capsules);
        RUN_TEST(test_point_on_edge);
        RUN_TEST(test_worked_example);
        RUN_TEST(test_ellipse_box);
        RUN_TEST(test_segments);
        RUN_TEST(test_convex_polygon);
        RUN_TEST(test_convex_polygon_review);
        RUN_TEST(test_custom_shape);
        RUN_TEST(test_shape_support);
        RUN_TEST(test_invalid_input);
        RUN_TEST(test_warm_start);
        RUN_TEST(test_warm_start_convex_polygons);
        RUN_TEST(test_max_distance);
        RUN_TEST(test_max_distance_normal_certifies);
        RUN_TEST(test_start_bound_normal_garbage_cache);
        RUN_TEST(test_end_to_end_needles_normal);
        RUN_TEST(test_iteration_caps);
        RUN_TEST(test_trace);
        RUN_TEST(test_touching_band);
        RUN_TEST(test_tolerance_below_rounding);
        RUN_TEST(test_curved_random);
        RUN_TEST(test_corner_in_round_ellipse);
        RUN_TEST(reference_selfcheck);
    }
    if (test_failures == 0 || argc > 1) {
        int before = test_failures;
        clock_t ref_start = clock();
        for (int i = first; i < first + count; ++i) run_pair(i);
        double secs = (double)(clock() - ref_start) / CLOCKS_PER_SEC;
        printf("%-40s %s\n", "differential (random polygon pairs)", test_failures == before ? "ok" : "FAILED");
        printf("  %d pairs (%d shapes presented as primitives), %d with |sd| <= 1e-3·size, %d with the sign checked "
               "(|sd| > 2 max(tol, touching band)), %d touching answers, %d translation checks, %.2f s\n",
               count, g_primitives, g_near_zero, g_status_checked, g_touching, g_translations, secs);
        printf("  convex polygons answered by their edges' axes: penetration %d, intersect %d\n", g_axes_answers[0],
               g_axes_answers[1]);
        // The axes must have answered a share of the pairs (a broken
        // gjk2_make_convex_polygon would leave every pair to GJK unseen).
        ENSURE(count < 2000 || (g_axes_answers[0] > count / 50 && g_axes_answers[1] > count / 50));
        printf("  %-22s %6s  %s\n", "band (sd/size)", "pairs", "worst |sd error|/size");
        for (int b = 0; b < N_BANDS; ++b) printf("  %-22s %6d  %.3g\n", k_band_names[b], g_band_count[b], g_band_worst[b]);
        printf("  worst |sd error|/size = %.3g (pair %d); tolerance %.3g\n", g_worst_sd, g_worst_sd_pair, TEST_REL_TOL);
        printf("  worst |distance error|/size = %.3g\n", g_worst_dist);
        printf("  worst witness error (distance to own boundary)/size = %.3g (pair %d)\n", g_worst_witness,
               g_worst_witness_pair);
        printf("  worst |(point_b - point_a) - sd·normal|/size = %.3g\n", g_worst_vec);
        printf("  worst normal error: |1 - |n|| = %.3g, |overlap along n + sd|/size = %.3g (pair %d)\n", g_worst_unit,
               g_worst_overlap, g_worst_overlap_pair);
        printf("  worst |sd error|/size of the warm-started queries (cache from another pose) = %.3g\n", g_worst_warm);
        printf("  most iterations: GJK %d, EPA %d\n", g_max_iter, g_max_epa);
        if (test_failures > before) printf("  %d failed checks in %d pairs\n", test_failures - before, g_failed_pairs);
    }
    printf("test_2d (%s): %.2f s\n", GJK_USE_FLOAT ? "float" : "double", (double)(clock() - start) / CLOCKS_PER_SEC);
    return TEST_SUMMARY();
}
