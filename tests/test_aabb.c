// gjk_shape_aabb and gjk2_shape_aabb: boxes known by hand, then random
// poses of every shape type against the definition (each bound is the
// shape's support value along a world axis, computed here in double from
// the public support function), the shape's points inside the box, hulls
// and convex polygons (which climb) against every vertex, and invalid input.
#include <math.h>
#include <string.h>

#include "gjk/gjk.h"
#include "gjk/gjk2d.h"
#include "gjk/hull.h"
#include "test_macros.h"
#define TEST_XORSHIFT64_SEED 0x5eed7ab5ull
#include "test_util.h"

#if GJK_USE_FLOAT
#define AABB_EPS 1.2e-7
#else
#define AABB_EPS 2.3e-16
#endif

static gjk_real qrt(double angle) { return (gjk_real)(angle * 0.5); }

/// A rotation by `angle` about a unit axis.
static gjk_quat axis_angle(gjk_vec3 axis, double angle) {
    gjk_real s = (gjk_real)sin((double)qrt(angle)), c = (gjk_real)cos((double)qrt(angle));
    return gjk_quat_make(c, s * axis.x, s * axis.y, s * axis.z);
}

static void ensure_box(gjk_aabb_output b, gjk_vec3 lo, gjk_vec3 hi, double tol) {
    ENSURE(b.status == GJK_SEPARATED);
    ENSURE_VEC_NEAR(b.lower, lo, tol);
    ENSURE_VEC_NEAR(b.upper, hi, tol);
}

static void test_aabb_known(void) {
    const double pi = 3.14159265358979323846, tol = 64 * AABB_EPS * 16;
    gjk_transform id = gjk_transform_make(gjk_v3(10, 0, 0), gjk_quat_identity());
    gjk_vec3 ex = gjk_v3(1, 0, 0), ey = gjk_v3(0, 1, 0), ez = gjk_v3(0, 0, 1);
    ensure_box(gjk_shape_aabb(&(gjk_shape){0}, id), gjk_v3(10, 0, 0), gjk_v3(10, 0, 0), tol); // a point
    gjk_shape box = gjk_make_box(gjk_v3(1, 2, 3));
    ensure_box(gjk_shape_aabb(&box, id), gjk_v3(9, -2, -3), gjk_v3(11, 2, 3), tol);
    gjk_transform turn_z = gjk_transform_make(gjk_v3(0, 0, 0), axis_angle(ez, pi / 2));
    ensure_box(gjk_shape_aabb(&box, turn_z), gjk_v3(-2, -1, -3), gjk_v3(2, 1, 3), tol);
    // 45° about z: x and y reach (1 + 2)/√2.
    gjk_transform z45 = gjk_transform_make(gjk_v3(0, 0, 0), axis_angle(ez, pi / 4));
    double r2 = 3 / sqrt(2.0);
    ensure_box(gjk_shape_aabb(&box, z45), gjk_v3(-r2, -r2, -3), gjk_v3(r2, r2, 3), tol);
    gjk_shape ball = gjk_with_margin(gjk_make_sphere(2), (gjk_real)0.5);
    ensure_box(gjk_shape_aabb(&ball, gjk_transform_make(gjk_v3(1, 1, 1), axis_angle(ex, 1))), gjk_v3(-1.5, -1.5, -1.5),
               gjk_v3(3.5, 3.5, 3.5), tol);
    // A capsule along z turned onto −y (90° about x).
    gjk_shape cap = gjk_make_capsule(gjk_v3(0, 0, -1), gjk_v3(0, 0, 1), (gjk_real)0.5);
    gjk_transform turn_x = gjk_transform_make(gjk_v3(0, 0, 0), axis_angle(ex, pi / 2));
    ensure_box(gjk_shape_aabb(&cap, turn_x), gjk_v3(-0.5, -1.5, -0.5), gjk_v3(0.5, 1.5, 0.5), tol);
    // A cylinder turned onto x (90° about y); at 45° about y its rims
    // reach hh/√2 + r/√2 along x and z.
    gjk_shape cyl = gjk_make_cylinder(1, 2);
    gjk_transform turn_y = gjk_transform_make(gjk_v3(0, 0, 0), axis_angle(ey, pi / 2));
    ensure_box(gjk_shape_aabb(&cyl, turn_y), gjk_v3(-2, -1, -1), gjk_v3(2, 1, 1), tol);
    gjk_transform y45 = gjk_transform_make(gjk_v3(0, 0, 0), axis_angle(ey, pi / 4));
    double c45 = 3 / sqrt(2.0);
    ensure_box(gjk_shape_aabb(&cyl, y45), gjk_v3(-c45, -1, -c45), gjk_v3(c45, 1, c45), tol);
    // A cone: apex at +2, base of radius 1 at −2; upside down, apex at −2.
    gjk_shape cone = gjk_make_cone(1, 2);
    ensure_box(gjk_shape_aabb(&cone, gjk_transform_make(gjk_v3(0, 0, 0), gjk_quat_identity())), gjk_v3(-1, -1, -2),
               gjk_v3(1, 1, 2), tol);
    ensure_box(gjk_shape_aabb(&cone, gjk_transform_make(gjk_v3(0, 0, 0), axis_angle(ex, pi))), gjk_v3(-1, -1, -2),
               gjk_v3(1, 1, 2), tol);
    // Tipped 90° about y the apex points along +x: x from −2 to 2, the base
    // disc (in the yz plane) ±1 in y and z.
    ensure_box(gjk_shape_aabb(&cone, turn_y), gjk_v3(-2, -1, -1), gjk_v3(2, 1, 1), tol);
    // Tipped 45°: the apex at (√2, 0, √2), the base rim about (−√2, 0, −√2)
    // reaching 1/√2 along x and z.
    double s2 = sqrt(2.0), h = 1 / sqrt(2.0);
    ensure_box(gjk_shape_aabb(&cone, y45), gjk_v3(-s2 - h, -1, -s2 - h), gjk_v3(s2, 1, s2), tol);
    gjk_shape ell = gjk_make_ellipsoid(gjk_v3(1, 2, 3));
    ensure_box(gjk_shape_aabb(&ell, turn_z), gjk_v3(-2, -1, -3), gjk_v3(2, 1, 3), tol);
    // 45° about z: √((1² + 2²)/2) along x and y.
    double e45 = sqrt(2.5);
    ensure_box(gjk_shape_aabb(&ell, z45), gjk_v3(-e45, -e45, -3), gjk_v3(e45, e45, 3), tol);
    gjk_shape tri = gjk_make_triangle(gjk_v3(0, 0, 0), gjk_v3(1, 0, 0), gjk_v3(0, 2, 0));
    ensure_box(gjk_shape_aabb(&tri, turn_z), gjk_v3(-2, 0, 0), gjk_v3(0, 1, 0), tol);
    gjk_shape seg = gjk_with_margin(gjk_make_segment(gjk_v3(-1, 0, 0), gjk_v3(3, 0, 0)), 1);
    ensure_box(gjk_shape_aabb(&seg, id), gjk_v3(8, -1, -1), gjk_v3(14, 1, 1), tol);
    // A quaternion of any length is normalised.
    gjk_quat q = axis_angle(ez, pi / 2);
    gjk_transform scaled = gjk_transform_make(gjk_v3(0, 0, 0), gjk_quat_make(3 * q.w, 3 * q.x, 3 * q.y, 3 * q.z));
    ensure_box(gjk_shape_aabb(&box, scaled), gjk_v3(-2, -1, -3), gjk_v3(2, 1, 3), tol);
}

/// A user shape: a box of half extents (0.3, 0.7, 1.1) about (0.2, 0, 0).
static gjk_vec3 custom_box(const void *data, gjk_vec3 d) {
    (void)data;
    return gjk_v3((gjk_real)(d.x < 0 ? -0.1 : 0.5), (gjk_real)(d.y < 0 ? -0.7 : 0.7), (gjk_real)(d.z < 0 ? -1.1 : 1.1));
}

/// Checks the box of `s` at (p, q) against the definition: along each world
/// axis, the support value of the shape, in double from the public support
/// point along Rᵀe_i; and the shape's support points along random
/// directions lie in the box. `size` bounds the shape's extent.
static void check_against_support(const gjk_shape *s, gjk_vec3 p, gjk_quat q, double size) {
    gjk_aabb_output b = gjk_shape_aabb(s, gjk_transform_make(p, q));
    ENSURE(b.status == GJK_SEPARATED);
    dmat R = dmat_of_quat(q);
    d3 pd = d3_of(p);
    double tol = 64 * AABB_EPS * (d3_max_abs(pd) + size);
    for (int i = 0; i < 3; ++i) {
        for (int sign = -1; sign <= 1; sign += 2) {
            d3 d = dmat_tmul(&R, d3_axis(i, sign)); // the world axis in the local frame
            d3 x = d3_of(gjk_shape_support(s, to_real3(d)));
            double value = d3_comp(pd, i) + sign * d3_dot(d, x);
            double got = sign > 0 ? d3_comp(d3_of(b.upper), i) : d3_comp(d3_of(b.lower), i);
            ENSURE_NEAR(got, value, tol);
        }
    }
    for (int k = 0; k < 64; ++k) {
        d3 x = d3_add(pd, dmat_mul(&R, d3_of(gjk_shape_support(s, rnd_unit_vec()))));
        for (int i = 0; i < 3; ++i) {
            ENSURE(d3_comp(x, i) >= d3_comp(d3_of(b.lower), i) - tol);
            ENSURE(d3_comp(x, i) <= d3_comp(d3_of(b.upper), i) + tol);
        }
    }
}

static void test_aabb_random_poses(void) {
    static gjk_vec3 cloud[40];
    for (int k = 0; k < 40; ++k) {
        cloud[k] = rnd_vec(-1.5, 1.5);
    }
    for (int trial = 0; trial < 200; ++trial) {
        gjk_real m = trial % 3 == 0 ? 0 : rnd(0, 0.5);
        gjk_shape shapes[] = {
            gjk_make_point(),
            gjk_make_segment(rnd_vec(-1, 1), rnd_vec(-1, 1)),
            gjk_make_triangle(rnd_vec(-1, 1), rnd_vec(-1, 1), rnd_vec(-1, 1)),
            gjk_make_box(rnd_vec(0, 1.5)),
            gjk_make_sphere(rnd(0, 1.5)),
            gjk_make_capsule(rnd_vec(-1, 1), rnd_vec(-1, 1), rnd(0, 0.5)),
            gjk_make_cylinder(rnd(0, 1.5), rnd(0, 1.5)),
            gjk_make_cone(rnd(0, 1.5), rnd(0, 1.5)),
            gjk_make_ellipsoid(rnd_vec(0, 1.5)),
            gjk_make_polytope(cloud, 40),
            gjk_make_custom(custom_box, NULL, 2),
        };
        gjk_vec3 p = trial % 4 == 0 ? rnd_vec(-1e3, 1e3) : rnd_vec(-3, 3);
        gjk_quat q = rnd_quat();
        if (trial % 5 == 0) { // any length
            gjk_real k = rnd(0.1, 10);
            q = gjk_quat_make(k * q.w, k * q.x, k * q.y, k * q.z);
        }
        for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; ++t) {
            gjk_shape s = gjk_with_margin(shapes[t], m);
            check_against_support(&s, p, q, 4);
        }
    }
}

/// A hull climbs to its six supports: the box of every vertex transformed.
static void test_aabb_hull(void) {
    enum { N = 2000 };
    static gjk_vec3 pts[N];
    for (int k = 0; k < N; ++k) {
        gjk_vec3 u = rnd_unit_vec();
        pts[k] = gjk_v3(3 * u.x, 2 * u.y, (gjk_real)0.5 * u.z);
    }
    gjk_hull *h = gjk_hull_create(pts, N, NULL);
    ENSURE(h != NULL);
    if (h == NULL) {
        return;
    }
    gjk_shape s = gjk_with_margin(gjk_make_hull(h), (gjk_real)0.25);
    gjk_shape plain = gjk_with_margin(gjk_make_polytope(pts, N), (gjk_real)0.25);
    for (int trial = 0; trial < 100; ++trial) {
        gjk_vec3 p = rnd_vec(-5, 5);
        gjk_quat q = rnd_quat();
        gjk_aabb_output b = gjk_shape_aabb(&s, gjk_transform_make(p, q));
        gjk_aabb_output c = gjk_shape_aabb(&plain, gjk_transform_make(p, q));
        ENSURE(b.status == GJK_SEPARATED && c.status == GJK_SEPARATED);
        dmat R = dmat_of_quat(q);
        d3 lo = d3_make(INFINITY, INFINITY, INFINITY), hi = d3_make(-INFINITY, -INFINITY, -INFINITY);
        for (int k = 0; k < N; ++k) {
            d3 x = d3_add(d3_of(p), dmat_mul(&R, d3_of(pts[k])));
            lo = d3_make(fmin(lo.x, x.x), fmin(lo.y, x.y), fmin(lo.z, x.z));
            hi = d3_make(fmax(hi.x, x.x), fmax(hi.y, x.y), fmax(hi.z, x.z));
        }
        d3 m = d3_make(0.25, 0.25, 0.25);
        lo = d3_sub(lo, m), hi = d3_add(hi, m);
        double tol = 64 * AABB_EPS * 8;
        ENSURE_VEC_NEAR(b.lower, to_real3(lo), tol);
        ENSURE_VEC_NEAR(b.upper, to_real3(hi), tol);
        ENSURE_VEC_NEAR(c.lower, to_real3(lo), tol);
        ENSURE_VEC_NEAR(c.upper, to_real3(hi), tol);
    }
    gjk_hull_destroy(h);
    // A hull too small to climb scans for its supports: a box's corners.
    gjk_vec3 corners[8];
    for (int k = 0; k < 8; ++k) {
        corners[k] = gjk_v3(k & 1 ? 1 : -1, (gjk_real)(k & 2 ? 0.5 : -0.5), (gjk_real)(k & 4 ? 0.25 : -0.25));
    }
    gjk_hull *small = gjk_hull_create(corners, 8, NULL);
    ENSURE(small != NULL);
    if (small != NULL) {
        gjk_shape hs = gjk_make_hull(small), box = gjk_make_box(gjk_v3(1, (gjk_real)0.5, (gjk_real)0.25));
        for (int trial = 0; trial < 50; ++trial) {
            gjk_transform t = gjk_transform_make(rnd_vec(-5, 5), rnd_quat());
            gjk_aabb_output x = gjk_shape_aabb(&hs, t), y = gjk_shape_aabb(&box, t);
            ENSURE(x.status == GJK_SEPARATED);
            ENSURE_VEC_NEAR(x.lower, y.lower, 64 * AABB_EPS * 8);
            ENSURE_VEC_NEAR(x.upper, y.upper, 64 * AABB_EPS * 8);
        }
        gjk_hull_destroy(small);
    }
}

static gjk_vec3 nan_support(const void *data, gjk_vec3 d) {
    (void)data, (void)d;
    return gjk_v3((gjk_real)NAN, 0, 0);
}

/// Not a support function: the coordinates of a box's support point swapped
/// (fuzz finding: the 2D twin gave a box with lower above upper).
static gjk_vec3 swapped_support(const void *data, gjk_vec3 d) {
    (void)data;
    gjk_vec3 p = gjk_v3(d.x < 0 ? -1 : 1, (gjk_real)(d.y < 0 ? -2.5 : 2.5), d.z < 0 ? -3 : 3);
    return gjk_v3(p.y * (d.x < 0 ? -1 : 1), p.z, p.x);
}

static gjk_vec2 swapped_support2(const void *data, gjk_vec2 d) {
    (void)data;
    gjk_vec2 p = gjk_v2(d.x < 0 ? -1 : 1, (gjk_real)(d.y < 0 ? -2.5 : 2.5));
    return gjk_v2(p.y * (d.x < 0 ? -1 : 1), p.x);
}

/// A user function that is not a support function still gives a box in
/// order that holds the points it returned along the axes.
static void test_aabb_not_a_support_function(void) {
    gjk_shape s = gjk_make_custom(swapped_support, NULL, 4);
    gjk2_shape s2 = gjk2_make_custom(swapped_support2, NULL, 4);
    for (int trial = 0; trial < 200; ++trial) {
        gjk_transform t = gjk_transform_make(rnd_vec(-3, 3), rnd_quat());
        gjk_aabb_output b = gjk_shape_aabb(&s, t);
        ENSURE(b.status == GJK_SEPARATED);
        ENSURE(b.lower.x <= b.upper.x && b.lower.y <= b.upper.y && b.lower.z <= b.upper.z);
        gjk2_aabb_output b2 = gjk2_shape_aabb(&s2, gjk_transform2_make(gjk_v2(rnd(-3, 3), rnd(-3, 3)), rnd(-4, 4)));
        ENSURE(b2.status == GJK_SEPARATED);
        ENSURE(b2.lower.x <= b2.upper.x && b2.lower.y <= b2.upper.y);
    }
}

static void ensure_invalid(gjk_aabb_output b) {
    ENSURE(b.status == GJK_INVALID_INPUT);
    ENSURE(b.lower.x == 0 && b.lower.y == 0 && b.lower.z == 0 && b.upper.x == 0 && b.upper.y == 0 && b.upper.z == 0);
}

static void test_aabb_invalid(void) {
    gjk_shape box = gjk_make_box(gjk_v3(1, 1, 1));
    gjk_transform id = gjk_transform_make(gjk_v3(0, 0, 0), gjk_quat_identity());
    ensure_invalid(gjk_shape_aabb(NULL, id));
    ensure_invalid(gjk_shape_aabb(&box, gjk_transform_make(gjk_v3((gjk_real)NAN, 0, 0), gjk_quat_identity())));
    ensure_invalid(gjk_shape_aabb(&box, gjk_transform_make(gjk_v3(0, 0, 0), gjk_quat_make(0, 0, 0, 0))));
    ensure_invalid(gjk_shape_aabb(&box, gjk_transform_make(gjk_v3(0, 0, 0), gjk_quat_make((gjk_real)INFINITY, 0, 0, 0))));
    gjk_shape bad = gjk_make_sphere(-1);
    ensure_invalid(gjk_shape_aabb(&bad, id));
    bad = gjk_with_margin(box, (gjk_real)NAN);
    ensure_invalid(gjk_shape_aabb(&bad, id));
    bad = gjk_make_polytope(NULL, 3);
    ensure_invalid(gjk_shape_aabb(&bad, id));
    gjk_vec3 one = gjk_v3(1, 2, 3);
    bad = gjk_make_polytope(&one, 0);
    ensure_invalid(gjk_shape_aabb(&bad, id));
    gjk_vec3 two[2] = {gjk_v3(0, 0, 0), gjk_v3(0, (gjk_real)NAN, 0)};
    bad = gjk_make_polytope(two, 2);
    ensure_invalid(gjk_shape_aabb(&bad, id));
    bad = gjk_make_custom(nan_support, NULL, 0);
    ensure_invalid(gjk_shape_aabb(&bad, id));
    bad = box;
    bad.type = (gjk_shape_type)99;
    ensure_invalid(gjk_shape_aabb(&bad, id));
    // Bounds that overflow: a box of the largest extent far from the origin.
    gjk_shape huge = gjk_make_box(gjk_v3(GJK_REAL_MAX, 1, 1));
    ensure_invalid(gjk_shape_aabb(&huge, gjk_transform_make(gjk_v3(GJK_REAL_MAX, 0, 0), gjk_quat_identity())));
    // One that does not: the largest extent at the origin.
    ENSURE(gjk_shape_aabb(&huge, id).status == GJK_SEPARATED);
    gjk_shape big = gjk_make_ellipsoid(gjk_v3(GJK_REAL_MAX / 4, GJK_REAL_MAX / 4, 1));
    gjk_aabb_output b = gjk_shape_aabb(&big, gjk_transform_make(gjk_v3(0, 0, 0), axis_angle(gjk_v3(0, 0, 1), 0.7)));
    ENSURE(b.status == GJK_SEPARATED && b.upper.x > GJK_REAL_MAX / 8);
    // Near the largest numbers (review): a core near −0.95 of the largest
    // placed at +0.95 of it, with a margin (the radius was subtracted
    // before the position was added, and overflowed); and a segment to a
    // point at 0.84 of the largest in each coordinate, turned (R x's sums
    // overflowed although each coordinate fits).
    const gjk_real near_max = GJK_REAL_MAX * (gjk_real)0.95, marg = GJK_REAL_MAX / 16;
    gjk_shape far = gjk_with_margin(gjk_make_segment(gjk_v3(-near_max, 0, 0), gjk_v3(-near_max * (gjk_real)0.9, 0, 0)), marg);
    b = gjk_shape_aabb(&far, gjk_transform_make(gjk_v3(near_max, 0, 0), gjk_quat_identity()));
    ENSURE(b.status == GJK_SEPARATED);
    ENSURE_NEAR(b.lower.x / GJK_REAL_MAX, -1.0 / 16, 1e-6);
    ENSURE_NEAR(b.upper.x / GJK_REAL_MAX, 0.095 + 1.0 / 16, 1e-6);
    gjk2_shape far2 = gjk2_with_margin(gjk2_make_segment(gjk_v2(-near_max, 0), gjk_v2(-near_max * (gjk_real)0.9, 0)), marg);
    gjk2_aabb_output f2 = gjk2_shape_aabb(&far2, gjk_transform2_make(gjk_v2(near_max, 0), 0));
    ENSURE(f2.status == GJK_SEPARATED);
    ENSURE_NEAR(f2.lower.x / GJK_REAL_MAX, -1.0 / 16, 1e-6);
    const gjk_real c84 = GJK_REAL_MAX * (gjk_real)0.84;
    gjk_shape corner = gjk_make_segment(gjk_v3(c84, c84, c84), gjk_v3(0, 0, 0));
    gjk_quat qr = gjk_quat_normalize(gjk_quat_make((gjk_real)0.39968696093808509, (gjk_real)-0.37578544531973179,
                                                   (gjk_real)0.74657271977960193, (gjk_real)0.3763838551569611));
    b = gjk_shape_aabb(&corner, gjk_transform_make(gjk_v3(0, 0, 0), qr));
    ENSURE(b.status == GJK_SEPARATED);
    dmat Rq = dmat_of_quat(qr);
    d3 tip = dmat_mul(&Rq, d3_make(0.84, 0.84, 0.84)); // in units of the largest number
    ENSURE_NEAR(b.upper.x / GJK_REAL_MAX, fmax(tip.x, 0), 1e-5);
    ENSURE_NEAR(b.lower.y / GJK_REAL_MAX, fmin(tip.y, 0), 1e-5);
    ENSURE_NEAR(b.upper.z / GJK_REAL_MAX, fmax(tip.z, 0), 1e-5);
    gjk2_shape corner2 = gjk2_make_segment(gjk_v2(GJK_REAL_MAX * (gjk_real)0.6, GJK_REAL_MAX * (gjk_real)0.6), gjk_v2(0, 0));
    f2 = gjk2_shape_aabb(&corner2, gjk_transform2_make(gjk_v2(0, 0), (gjk_real)0.3));
    ENSURE(f2.status == GJK_SEPARATED);
    ENSURE_NEAR(f2.upper.y / GJK_REAL_MAX, 0.6 * (sin(0.3) + cos(0.3)), 1e-5);
    // A subnormal radius: its reciprocal overflows (fuzz finding: called
    // invalid). The box is the ellipsoid's, to the radius.
#if GJK_USE_FLOAT
    const gjk_real sub = 3e-42f;
#else
    const gjk_real sub = 2.6493685679764687e-315;
#endif
    gjk_shape flat = gjk_make_ellipsoid(gjk_v3(0, 0, sub));
    b = gjk_shape_aabb(&flat, id);
    ENSURE(b.status == GJK_SEPARATED && b.upper.z == sub && b.lower.z == -sub && b.upper.x == 0);
    gjk2_shape flat2 = gjk2_make_ellipse(gjk_v2(sub, 0));
    gjk2_aabb_output b2 = gjk2_shape_aabb(&flat2, gjk_transform2_make(gjk_v2(0, 0), 0));
    ENSURE(b2.status == GJK_SEPARATED && b2.upper.x == sub && b2.lower.x == -sub);
}

// ---- 2D ----

static void ensure_box2(gjk2_aabb_output b, gjk_vec2 lo, gjk_vec2 hi, double tol) {
    ENSURE(b.status == GJK_SEPARATED);
    ENSURE_NEAR(b.lower.x, lo.x, tol);
    ENSURE_NEAR(b.lower.y, lo.y, tol);
    ENSURE_NEAR(b.upper.x, hi.x, tol);
    ENSURE_NEAR(b.upper.y, hi.y, tol);
}

static gjk_vec2 custom_box2(const void *data, gjk_vec2 d) {
    (void)data;
    return gjk_v2((gjk_real)(d.x < 0 ? -0.1 : 0.5), (gjk_real)(d.y < 0 ? -0.7 : 0.7));
}

static void test_aabb2(void) {
    const double pi = 3.14159265358979323846, tol = 64 * AABB_EPS * 16;
    gjk_transform2 at = gjk_transform2_make(gjk_v2(5, -1), 0);
    gjk2_shape box = gjk2_make_box(gjk_v2(1, 2));
    ensure_box2(gjk2_shape_aabb(&box, at), gjk_v2(4, -3), gjk_v2(6, 1), tol);
    ensure_box2(gjk2_shape_aabb(&box, gjk_transform2_make(gjk_v2(0, 0), (gjk_real)(pi / 2))), gjk_v2(-2, -1),
                gjk_v2(2, 1), tol);
    double r2 = 3 / sqrt(2.0);
    ensure_box2(gjk2_shape_aabb(&box, gjk_transform2_make(gjk_v2(0, 0), (gjk_real)(pi / 4))), gjk_v2(-r2, -r2),
                gjk_v2(r2, r2), tol);
    gjk2_shape circle = gjk2_make_circle(2);
    ensure_box2(gjk2_shape_aabb(&circle, at), gjk_v2(3, -3), gjk_v2(7, 1), tol);
    gjk2_shape ell = gjk2_make_ellipse(gjk_v2(1, 2));
    double e45 = sqrt(2.5);
    ensure_box2(gjk2_shape_aabb(&ell, gjk_transform2_make(gjk_v2(0, 0), (gjk_real)(pi / 4))), gjk_v2(-e45, -e45),
                gjk_v2(e45, e45), tol);
    gjk2_shape cap = gjk2_with_margin(gjk2_make_capsule(gjk_v2(-1, 0), gjk_v2(1, 0), (gjk_real)0.5), (gjk_real)0.25);
    ensure_box2(gjk2_shape_aabb(&cap, gjk_transform2_make(gjk_v2(0, 0), (gjk_real)(pi / 2))), gjk_v2(-0.75, -1.75),
                gjk_v2(0.75, 1.75), tol);

    // Random poses against the definition, and the shape's points inside.
    static gjk_vec2 ring[64], cloud[30];
    for (int k = 0; k < 64; ++k) {
        double a = 2 * pi * k / 64;
        ring[k] = gjk_v2((gjk_real)(2 * cos(a)), (gjk_real)(0.7 * sin(a)));
    }
    for (int k = 0; k < 30; ++k) {
        cloud[k] = gjk_v2(rnd(-1, 1), rnd(-1, 1));
    }
    gjk2_shape convex = gjk2_make_convex_polygon(ring, 64);
    ENSURE(convex.polygon.convex == 1);
    // A convex polygon too small to climb (5 vertices): it scans.
    static gjk_vec2 pent[5];
    for (int k = 0; k < 5; ++k) {
        pent[k] = gjk_v2((gjk_real)cos(2 * pi * k / 5), (gjk_real)(0.5 * sin(2 * pi * k / 5)));
    }
    gjk2_shape pentagon = gjk2_make_convex_polygon(pent, 5);
    ENSURE(pentagon.polygon.convex == 1);
    for (int trial = 0; trial < 300; ++trial) {
        gjk_real m = trial % 3 == 0 ? 0 : rnd(0, 0.5);
        gjk2_shape shapes[] = {
            gjk2_make_point(),
            gjk2_make_segment(gjk_v2(rnd(-1, 1), rnd(-1, 1)), gjk_v2(rnd(-1, 1), rnd(-1, 1))),
            gjk2_make_triangle(gjk_v2(rnd(-1, 1), rnd(-1, 1)), gjk_v2(rnd(-1, 1), rnd(-1, 1)),
                               gjk_v2(rnd(-1, 1), rnd(-1, 1))),
            gjk2_make_box(gjk_v2(rnd(0, 1.5), rnd(0, 1.5))),
            gjk2_make_circle(rnd(0, 1.5)),
            gjk2_make_ellipse(gjk_v2(rnd(0, 1.5), rnd(0, 1.5))),
            gjk2_make_capsule(gjk_v2(rnd(-1, 1), rnd(-1, 1)), gjk_v2(rnd(-1, 1), rnd(-1, 1)), rnd(0, 0.5)),
            gjk2_make_polygon(cloud, 30),
            convex,
            pentagon,
            gjk2_make_custom(custom_box2, NULL, 2),
        };
        gjk_vec2 p = trial % 4 == 0 ? gjk_v2(rnd(-1e3, 1e3), rnd(-1e3, 1e3)) : gjk_v2(rnd(-3, 3), rnd(-3, 3));
        gjk_real angle = rnd(-4, 4);
        gjk_transform2 xf = gjk_transform2_make(p, angle);
        if (trial % 5 == 0) { // any length
            xf.rotation.c *= 3, xf.rotation.s *= 3;
        }
        drot R = drot_of(xf.rotation);
        double tol2 = 64 * AABB_EPS * (d2_max_abs(d2_of(p)) + 4);
        for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; ++t) {
            gjk2_shape s = gjk2_with_margin(shapes[t], m);
            gjk2_aabb_output b = gjk2_shape_aabb(&s, xf);
            ENSURE(b.status == GJK_SEPARATED);
            double lo[2] = {(double)b.lower.x, (double)b.lower.y}, hi[2] = {(double)b.upper.x, (double)b.upper.y};
            for (int i = 0; i < 2; ++i) {
                for (int sign = -1; sign <= 1; sign += 2) {
                    d2 d = drot_inv(R, d2_make(i == 0 ? sign : 0, i == 1 ? sign : 0));
                    d2 x = d2_of(gjk2_shape_support(&s, to_real2(d)));
                    double value = (i == 0 ? (double)p.x : (double)p.y) + sign * d2_dot(d, x);
                    ENSURE_NEAR(sign > 0 ? hi[i] : lo[i], value, tol2);
                }
            }
            for (int k = 0; k < 32; ++k) {
                double a = rnd(0, 2 * pi);
                d2 x = d2_add(d2_of(p), drot_apply(R, d2_of(gjk2_shape_support(&s, gjk_v2((gjk_real)cos(a), (gjk_real)sin(a))))));
                ENSURE(x.x >= lo[0] - tol2 && x.x <= hi[0] + tol2 && x.y >= lo[1] - tol2 && x.y <= hi[1] + tol2);
            }
        }
        // The convex polygon climbs: the box of every vertex.
        gjk2_aabb_output b = gjk2_shape_aabb(&convex, xf);
        double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
        for (int k = 0; k < 64; ++k) {
            d2 x = d2_add(d2_of(p), drot_apply(R, d2_of(ring[k])));
            lo[0] = fmin(lo[0], x.x), lo[1] = fmin(lo[1], x.y), hi[0] = fmax(hi[0], x.x), hi[1] = fmax(hi[1], x.y);
        }
        ENSURE_NEAR(b.lower.x, lo[0], tol2);
        ENSURE_NEAR(b.lower.y, lo[1], tol2);
        ENSURE_NEAR(b.upper.x, hi[0], tol2);
        ENSURE_NEAR(b.upper.y, hi[1], tol2);
    }

    // Invalid input.
    gjk2_aabb_output b = gjk2_shape_aabb(NULL, at);
    ENSURE(b.status == GJK_INVALID_INPUT && b.lower.x == 0 && b.upper.y == 0);
    gjk_transform2 zero = at;
    zero.rotation.c = zero.rotation.s = 0;
    ENSURE(gjk2_shape_aabb(&box, zero).status == GJK_INVALID_INPUT);
    gjk_transform2 nan = gjk_transform2_make(gjk_v2((gjk_real)NAN, 0), 0);
    ENSURE(gjk2_shape_aabb(&box, nan).status == GJK_INVALID_INPUT);
    gjk2_shape bad = gjk2_make_circle(-1);
    ENSURE(gjk2_shape_aabb(&bad, at).status == GJK_INVALID_INPUT);
    bad = gjk2_make_polygon(NULL, 4);
    ENSURE(gjk2_shape_aabb(&bad, at).status == GJK_INVALID_INPUT);
    gjk_vec2 with_nan[3] = {gjk_v2(0, 0), gjk_v2(1, 0), gjk_v2((gjk_real)NAN, 1)};
    bad = gjk2_make_polygon(with_nan, 3);
    ENSURE(gjk2_shape_aabb(&bad, at).status == GJK_INVALID_INPUT);
    gjk2_shape huge = gjk2_make_box(gjk_v2(GJK_REAL_MAX, 1));
    ENSURE(gjk2_shape_aabb(&huge, gjk_transform2_make(gjk_v2(GJK_REAL_MAX, 0), 0)).status == GJK_INVALID_INPUT);
}

int main(void) {
    RUN_TEST(test_aabb_known);
    RUN_TEST(test_aabb_random_poses);
    RUN_TEST(test_aabb_hull);
    RUN_TEST(test_aabb_invalid);
    RUN_TEST(test_aabb_not_a_support_function);
    RUN_TEST(test_aabb2);
    return TEST_SUMMARY();
}
