// Tests of the shapes: gjk_make_*, gjk_shape_support (margin included)
// against exact answers and brute force, support optimality, and
// gjk_shape_validate.
#include <math.h>
#include <string.h>

#define TEST_XORSHIFT64_SEED 0x9E3779B97F4A7C15ull
#include "test_util.h"

/// Absolute tolerance for quantities of size `size`.
#define TOL(size) ((double)TEST_REL_TOL * (double)(size))

static const double PI = 3.14159265358979323846;

// ---- deterministic random numbers (xorshift64, seeded above): test_util.h ----

/// A random direction, not unit length (lengths 0.1 to 10).
static gjk_vec3 rnd_dir(void) {
    for (;;) {
        gjk_vec3 v = rnd_vec(-1, 1);
        gjk_real l2 = gjk_length_sq(v);
        if (l2 > (gjk_real)0.01 && l2 <= 1) {
            return gjk_scale(rnd(0.1, 10), gjk_normalize(v));
        }
    }
}

/// core + margin * d / |d|: the support of a rounded shape.
static gjk_vec3 rounded(gjk_vec3 core, gjk_real margin, gjk_vec3 d) {
    return gjk_mul_add(core, margin, gjk_normalize(d));
}

static bool vec_equal(gjk_vec3 a, gjk_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

// ---- the shapes used throughout ----

static const gjk_vec3 cube_cloud[] = {
    // The corners of the box [-1,2] x [-0.5,0.5] x [-1,1] ...
    {-1, -0.5, -1}, {2, -0.5, -1}, {-1, 0.5, -1}, {2, 0.5, -1},
    {-1, -0.5, 1},  {2, -0.5, 1},  {-1, 0.5, 1},  {2, 0.5, 1},
    // ... duplicates ...
    {2, 0.5, 1}, {-1, -0.5, -1}, {2, 0.5, 1},
    // ... interior points and points on faces and edges ...
    {0, 0, 0}, {0.5, 0.1, -0.2}, {1.9, 0.4, 0.9}, {2, 0, 0}, {0.5, 0.5, 1}, {-1, 0, 0.3},
    // ... and an apex sticking out of the face x = 2.
    {3, 0.1, 0.2},
};
static const int cube_cloud_count = (int)(sizeof cube_cloud / sizeof cube_cloud[0]);

/// User data of the custom sphere: the radius and a tag to check pass-through.
typedef struct user_sphere {
    gjk_real radius;
    int tag;
} user_sphere;

static int custom_calls = 0;
static int custom_bad_user_data = 0;
static int custom_zero_direction = 0;
static const void *custom_expected_user_data = NULL;

static gjk_vec3 user_sphere_support(const void *user_data, gjk_vec3 d) {
    const user_sphere *s = (const user_sphere *)user_data;
    ++custom_calls;
    if (user_data != custom_expected_user_data || s->tag != 4242) {
        ++custom_bad_user_data;
    }
    gjk_real len = gjk_length(d);
    if (!(len > 0)) {
        // The API promises the direction is never zero; record it.
        ++custom_zero_direction;
        return gjk_v3(0, 0, s->radius);
    }
    return gjk_scale(s->radius / len, d);
}

static user_sphere the_user_sphere = {(gjk_real)1.25, 4242};

/// A collection of shapes of every type (margin zero), for loops.
static int all_shapes(gjk_shape *out) {
    int n = 0;
    out[n++] = gjk_make_point();
    out[n++] = gjk_make_segment(gjk_v3(-1, 0.5, 0.2), gjk_v3(1.5, -0.3, 0.7));
    out[n++] = gjk_make_triangle(gjk_v3(0, 0, 0), gjk_v3(2, 0.5, -0.3), gjk_v3(0.4, 1.5, 0.8));
    out[n++] = gjk_make_box(gjk_v3(1, 2, 0.5));
    out[n++] = gjk_make_sphere(1.5);
    out[n++] = gjk_make_capsule(gjk_v3(0, 0, -1), gjk_v3(0.5, 0.2, 1), 0.4);
    out[n++] = gjk_make_cylinder(0.8, 1.2);
    out[n++] = gjk_make_cone(1.1, 0.9);
    out[n++] = gjk_make_ellipsoid(gjk_v3(1, 2, 0.5));
    out[n++] = gjk_make_polytope(cube_cloud, cube_cloud_count);
    out[n++] = gjk_make_custom(user_sphere_support, &the_user_sphere, the_user_sphere.radius);
    return n;
}

// ---- construction ----

static void test_make(void) {
    gjk_vec3 a = gjk_v3(1, 2, 3), b = gjk_v3(-4, 5, 6), c = gjk_v3(7, -8, 9);
    gjk_shape s = gjk_make_point();
    ENSURE(s.type == GJK_SHAPE_POINT && s.margin == 0);
    s = gjk_make_segment(a, b);
    ENSURE(s.type == GJK_SHAPE_SEGMENT && s.margin == 0);
    ENSURE(vec_equal(s.segment.a, a) && vec_equal(s.segment.b, b));
    s = gjk_make_triangle(a, b, c);
    ENSURE(s.type == GJK_SHAPE_TRIANGLE && s.margin == 0);
    ENSURE(vec_equal(s.triangle.a, a) && vec_equal(s.triangle.b, b) && vec_equal(s.triangle.c, c));
    s = gjk_make_box(a);
    ENSURE(s.type == GJK_SHAPE_BOX && s.margin == 0 && vec_equal(s.box.half_extents, a));
    s = gjk_make_sphere(2.5);
    ENSURE(s.type == GJK_SHAPE_SPHERE && s.margin == 0 && s.sphere.radius == (gjk_real)2.5);
    s = gjk_make_capsule(a, b, 0.75);
    ENSURE(s.type == GJK_SHAPE_CAPSULE && s.margin == 0 && s.capsule.radius == (gjk_real)0.75);
    ENSURE(vec_equal(s.capsule.a, a) && vec_equal(s.capsule.b, b));
    s = gjk_make_cylinder(1.5, 2.5);
    ENSURE(s.type == GJK_SHAPE_CYLINDER && s.margin == 0);
    ENSURE(s.cylinder.radius == (gjk_real)1.5 && s.cylinder.half_height == (gjk_real)2.5);
    s = gjk_make_cone(0.5, 3);
    ENSURE(s.type == GJK_SHAPE_CONE && s.margin == 0);
    ENSURE(s.cone.radius == (gjk_real)0.5 && s.cone.half_height == 3);
    s = gjk_make_ellipsoid(c);
    ENSURE(s.type == GJK_SHAPE_ELLIPSOID && s.margin == 0 && vec_equal(s.ellipsoid.radii, c));
    s = gjk_make_polytope(cube_cloud, 5);
    ENSURE(s.type == GJK_SHAPE_POLYTOPE && s.margin == 0);
    ENSURE(s.polytope.vertices == cube_cloud && s.polytope.count == 5);
    s = gjk_make_custom(user_sphere_support, &the_user_sphere, 3);
    ENSURE(s.type == GJK_SHAPE_CUSTOM && s.margin == 0);
    ENSURE(s.custom.support == user_sphere_support && s.custom.user_data == &the_user_sphere);
    ENSURE(s.custom.radius == 3);
    // with_margin sets the margin and keeps the rest.
    gjk_shape box = gjk_make_box(a);
    gjk_shape rb = gjk_with_margin(box, 0.25);
    ENSURE(rb.type == GJK_SHAPE_BOX && rb.margin == (gjk_real)0.25 && vec_equal(rb.box.half_extents, a));
    ENSURE(box.margin == 0);
    gjk_shape rc = gjk_with_margin(gjk_make_capsule(a, b, 0.5), 0.125);
    ENSURE(rc.type == GJK_SHAPE_CAPSULE && rc.margin == (gjk_real)0.125 && rc.capsule.radius == (gjk_real)0.5);
    ENSURE(vec_equal(rc.capsule.a, a) && vec_equal(rc.capsule.b, b));
}

// ---- support functions against exact answers ----

/// Checks support(shape with margin m, d) = core + m d/|d| for several margins.
static void check_support_exact(gjk_shape core_shape, gjk_vec3 d, gjk_vec3 expected_core, double size) {
    const gjk_real margins[] = {0, (gjk_real)0.25, 2};
    for (int i = 0; i < 3; ++i) {
        gjk_shape s = gjk_with_margin(core_shape, margins[i]);
        gjk_vec3 p = gjk_shape_support(&s, d);
        ENSURE_VEC_NEAR(p, rounded(expected_core, margins[i], d), TOL(size + margins[i]));
        // Scale invariance: only the direction matters.
        gjk_vec3 p2 = gjk_shape_support(&s, gjk_scale(1000, d));
        ENSURE_VEC_NEAR(p2, p, TOL(size + margins[i]));
        gjk_vec3 p3 = gjk_shape_support(&s, gjk_scale((gjk_real)0.001, d));
        ENSURE_VEC_NEAR(p3, p, TOL(size + margins[i]));
    }
}

static void test_support_point(void) {
    gjk_shape s = gjk_make_point();
    check_support_exact(s, gjk_v3(1, -2, 3), gjk_v3_zero(), 1);
    check_support_exact(s, gjk_v3(0, 0, -1), gjk_v3_zero(), 1);
    // A rounded point is a sphere: margin 2 along (3,4,0) gives (1.2, 1.6, 0).
    gjk_shape r = gjk_with_margin(s, 2);
    ENSURE_VEC_NEAR(gjk_shape_support(&r, gjk_v3(3, 4, 0)), gjk_v3(1.2, 1.6, 0), TOL(2));
}

static void test_support_segment(void) {
    gjk_vec3 a = gjk_v3(-1, 0.5, 0.2), b = gjk_v3(1.5, -0.3, 0.7);
    gjk_shape s = gjk_make_segment(a, b);
    // b - a = (2.5, -0.8, 0.5): directions with positive dot pick b.
    check_support_exact(s, gjk_v3(1, 0, 0), b, 2);
    check_support_exact(s, gjk_v3(-1, 0, 0), a, 2);
    check_support_exact(s, gjk_v3(0, -1, 0), b, 2);
    check_support_exact(s, gjk_v3(0.1, 1, -0.3), a, 2);
    check_support_exact(s, gjk_v3(2.5, -0.8, 0.5), b, 2);
}

static void test_support_triangle(void) {
    gjk_vec3 a = gjk_v3(0, 0, 0), b = gjk_v3(2, 0.5, -0.3), c = gjk_v3(0.4, 1.5, 0.8);
    gjk_shape s = gjk_make_triangle(a, b, c);
    check_support_exact(s, gjk_v3(1, 0, 0), b, 2);
    check_support_exact(s, gjk_v3(0, 1, 0), c, 2);
    check_support_exact(s, gjk_v3(0, 0, 1), c, 2);
    check_support_exact(s, gjk_v3(-1, -1, 0), a, 2);
    check_support_exact(s, gjk_v3(0.2, -1, -1), b, 2);
    // Every shape's margin applies: the triangle's normal direction.
    gjk_vec3 n = gjk_cross(gjk_sub(b, a), gjk_sub(c, a));
    gjk_shape r = gjk_with_margin(s, 0.5);
    gjk_vec3 p = gjk_shape_support(&r, n);
    // All three vertices tie along n: the answer is one of them plus 0.5 n^.
    ENSURE_NEAR(gjk_dot(p, gjk_normalize(n)), 0.5, TOL(2));
}

static void test_support_box(void) {
    gjk_shape s = gjk_make_box(gjk_v3(1, 2, 0.5));
    // d = (1, -2, 3) -> (hx, -hy, hz).
    check_support_exact(s, gjk_v3(1, -2, 3), gjk_v3(1, -2, 0.5), 3);
    check_support_exact(s, gjk_v3(-1, -1, -1), gjk_v3(-1, -2, -0.5), 3);
    check_support_exact(s, gjk_v3(-0.1, 5, -7), gjk_v3(-1, 2, -0.5), 3);
    check_support_exact(s, gjk_v3(3, 0.2, 0.1), gjk_v3(1, 2, 0.5), 3);
    // Rounded box along a face normal: the face moves out by the margin.
    gjk_shape r = gjk_with_margin(s, 0.1);
    ENSURE_NEAR(gjk_shape_support(&r, gjk_v3(1, 0, 0)).x, 1.1, TOL(3));
    ENSURE_NEAR(gjk_shape_support(&r, gjk_v3(0, 0, -2)).z, -0.6, TOL(3));
    // Along a diagonal the corner moves out by margin * d^.
    ENSURE_VEC_NEAR(gjk_shape_support(&r, gjk_v3(1, 1, 1)),
                    gjk_add(gjk_v3(1, 2, 0.5), gjk_scale((gjk_real)(0.1 / sqrt(3.0)), gjk_v3(1, 1, 1))), TOL(3));
}

static void test_support_sphere(void) {
    gjk_shape s = gjk_make_sphere(1.5);
    for (int i = 0; i < 50; ++i) {
        gjk_vec3 d = rnd_dir();
        check_support_exact(s, d, gjk_scale((gjk_real)1.5, gjk_normalize(d)), 2);
    }
    // (3, 4, 12) / 13 * 1.5.
    ENSURE_VEC_NEAR(gjk_shape_support(&s, gjk_v3(3, 4, 12)), gjk_v3(4.5 / 13, 6.0 / 13, 18.0 / 13), TOL(2));
    // A sphere with a margin is the larger sphere.
    gjk_shape r = gjk_with_margin(s, 0.5);
    ENSURE_VEC_NEAR(gjk_shape_support(&r, gjk_v3(0, -3, 0)), gjk_v3(0, -2, 0), TOL(2));
}

static void test_support_capsule(void) {
    gjk_vec3 a = gjk_v3(0, 0, -1), b = gjk_v3(0.5, 0.2, 1);
    gjk_shape s = gjk_make_capsule(a, b, 0.4);
    // End point + r d^: b - a = (0.5, 0.2, 2).
    gjk_vec3 dirs[] = {gjk_v3(0, 0, 1), gjk_v3(1, 0, 0.1), gjk_v3(0, 0, -1), gjk_v3(-1, 0.3, -0.2),
                       gjk_v3(0.3, -1, 0.6)};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; ++i) {
        gjk_vec3 d = dirs[i];
        gjk_vec3 end = gjk_dot(gjk_sub(b, a), d) > 0 ? b : a;
        check_support_exact(s, d, gjk_mul_add(end, (gjk_real)0.4, gjk_normalize(d)), 3);
    }
    ENSURE_VEC_NEAR(gjk_shape_support(&s, gjk_v3(0, 0, -5)), gjk_v3(0, 0, -1.4), TOL(3));
    for (int i = 0; i < 50; ++i) {
        gjk_vec3 d = rnd_dir();
        gjk_vec3 end = gjk_dot(gjk_sub(b, a), d) > 0 ? b : a;
        check_support_exact(s, d, gjk_mul_add(end, (gjk_real)0.4, gjk_normalize(d)), 3);
    }
}

/// A direction whose part across the axis is tiny beside its part along it
/// (the square of that part subnormal) still gives a rim point on the rim:
/// its length was taken from the subnormal square, and a cone's rim point
/// along (−2e-161, −2e-161, −1) came out 1.4e-4 outside (fuzz seed 1057).
/// Double only: float's range has no such direction with a normal z part
/// and a nonzero across part whose support is not the rim's.
static void check_axial_rim_tiny(gjk_shape s, gjk_real r) {
#if !GJK_USE_FLOAT
    // (Subnormal parts too: r over their length overflowed, and a cylinder
    // turned by a quaternion with subnormal parts gave NaN: seed 1058.)
    const double tiny[] = {2e-161, 3e-170, 1e-200, 7e-300, 1e-312, 5e-320};
    for (int i = 0; i < 6; ++i) {
        for (int sz = -1; sz <= 1; sz += 2) {
            gjk_vec3 p = gjk_shape_support(&s, gjk_v3(-tiny[i], -tiny[i] / 3, sz));
            gjk_real rho = gjk_sqrt(p.x * p.x + p.y * p.y);
            // The apex (a cone along +z) or a rim point, exactly on the rim.
            ENSURE(gjk_is_valid_vec3(p));
            ENSURE(rho == 0 || gjk_abs(rho - r) <= 4 * GJK_REAL_EPSILON * r);
            ENSURE(rho == 0 || (p.x < 0 && p.y < 0));
        }
    }
#else
    (void)s, (void)r;
#endif
}

static void test_support_cylinder(void) {
    const gjk_real r = (gjk_real)0.8, h = (gjk_real)1.2;
    gjk_shape s = gjk_make_cylinder(r, h);
    // d = (3, 4, 1): rim point r (3, 4)/5 at z = +h.
    check_support_exact(s, gjk_v3(3, 4, 1), gjk_v3(0.48, 0.64, 1.2), 2);
    check_support_exact(s, gjk_v3(3, -4, -0.01), gjk_v3(0.48, -0.64, -1.2), 2);
    check_support_exact(s, gjk_v3(-1, 0, 7), gjk_v3(-0.8, 0, 1.2), 2);
    for (int i = 0; i < 50; ++i) {
        gjk_vec3 d = rnd_dir();
        gjk_real rho = gjk_sqrt(d.x * d.x + d.y * d.y);
        gjk_vec3 e = gjk_v3(r * d.x / rho, r * d.y / rho, d.z < 0 ? -h : h);
        check_support_exact(s, d, e, 2);
    }
    // Straight up or down: some point of the top (bottom) disc, d.p = h.
    gjk_vec3 p = gjk_shape_support(&s, gjk_v3(0, 0, 2));
    ENSURE_NEAR(p.z, h, TOL(2));
    ENSURE(p.x * p.x + p.y * p.y <= r * r * (1 + (gjk_real)TEST_REL_TOL));
    p = gjk_shape_support(&s, gjk_v3(0, 0, -2));
    ENSURE_NEAR(p.z, -h, TOL(2));
    ENSURE(p.x * p.x + p.y * p.y <= r * r * (1 + (gjk_real)TEST_REL_TOL));
    check_axial_rim_tiny(s, r);
}

/// The largest d.p over `n` sampled points of the cone's surface (apex,
/// base rim, base disc and lateral surface).
static double cone_brute_force(gjk_real r, gjk_real h, gjk_vec3 d, int n) {
    double best = (double)h * (double)d.z; // apex
    for (int i = 0; i < n; ++i) {
        double phi = 2 * PI * i / n;
        double c = cos(phi), s = sin(phi);
        // Rim and lateral lines from the rim to the apex, and base disc rings.
        for (int k = 0; k <= 4; ++k) {
            double t = k / 4.0; // t = 0: rim; t = 1: apex
            double rad = (1 - t) * r;
            double z = -h + t * 2 * h;
            double v = rad * c * d.x + rad * s * d.y + z * d.z;
            if (v > best) {
                best = v;
            }
            double vb = t * r * c * d.x + t * r * s * d.y - h * d.z; // base disc ring of radius t r
            if (vb > best) {
                best = vb;
            }
        }
    }
    return best;
}

static void test_support_cone(void) {
    const gjk_real r = (gjk_real)1.1, h = (gjk_real)0.9;
    gjk_shape s = gjk_make_cone(r, h);
    // Mostly up: the apex (d.apex = 0.9, d.rim <= 1.1*0.22 - 0.9 < 0).
    check_support_exact(s, gjk_v3(0.1, 0.2, 1), gjk_v3(0, 0, 0.9), 2);
    check_support_exact(s, gjk_v3(0, 0, 1), gjk_v3(0, 0, 0.9), 2);
    // Sideways: the rim at z = -h (d.apex = 0 < d.rim = r).
    check_support_exact(s, gjk_v3(1, 0, 0), gjk_v3(1.1, 0, -0.9), 2);
    check_support_exact(s, gjk_v3(0, -2, 0), gjk_v3(0, -1.1, -0.9), 2);
    // Down and sideways: rim along (0.3, 0.4)/0.5.
    check_support_exact(s, gjk_v3(0.3, 0.4, -1), gjk_v3(0.66, 0.88, -0.9), 2);
    // Slightly up but mostly sideways: 2 h d_z = 0.18 < r |d_xy| = 1.1 -> rim.
    check_support_exact(s, gjk_v3(0, 1, 0.1), gjk_v3(0, 1.1, -0.9), 2);
    // Straight down: a point of the base disc, d.p = h.
    gjk_vec3 p = gjk_shape_support(&s, gjk_v3(0, 0, -1));
    ENSURE_NEAR(p.z, -h, TOL(2));
    ENSURE(p.x * p.x + p.y * p.y <= r * r * (1 + (gjk_real)TEST_REL_TOL));
    check_axial_rim_tiny(s, r);

    // Against brute force over sampled surface points. The exact support
    // value is max(h d_z, r |d_xy| - h d_z); sampling the rim at n points
    // under-estimates it by at most r |d_xy| (1 - cos(pi / n)).
    const int n = 3600;
    const gjk_real margins[] = {0, (gjk_real)0.3};
    for (int m = 0; m < 2; ++m) {
        gjk_shape rs = gjk_with_margin(s, margins[m]);
        for (int i = 0; i < 200; ++i) {
            gjk_vec3 d = rnd_dir();
            if (i % 4 == 0) {
                d.z = gjk_abs(d.z) * 3; // many mostly-up directions
            }
            gjk_real len = gjk_length(d);
            gjk_vec3 q = gjk_shape_support(&rs, d);
            ENSURE(gjk_is_valid_vec3(q));
            double got = (double)gjk_dot(q, d);
            double rho = sqrt((double)d.x * d.x + (double)d.y * d.y);
            double exact = fmax((double)h * d.z, (double)r * rho - (double)h * d.z) + (double)margins[m] * len;
            double brute = cone_brute_force(r, h, d, n) + (double)margins[m] * len;
            ENSURE_NEAR(got, exact, TOL(2 * len));
            ENSURE(brute <= got + TOL(2 * len));
            ENSURE(got - brute <= (double)r * rho * (1 - cos(PI / n)) + TOL(2 * len));
            // The core point is the apex or on the base rim.
            gjk_vec3 c = gjk_mul_add(q, -margins[m], gjk_normalize(d));
            bool apex = gjk_distance_between(c, gjk_v3(0, 0, h)) <= TOL(2);
            bool rim = gjk_abs(c.z + h) <= TOL(2) && gjk_abs(gjk_sqrt(c.x * c.x + c.y * c.y) - r) <= TOL(2);
            ENSURE(apex || rim);
        }
    }
}

static void test_support_ellipsoid(void) {
    const gjk_vec3 radii = gjk_v3(1, 2, 0.5);
    gjk_shape s = gjk_make_ellipsoid(radii);
    // Along the axes: the semi-axis end points.
    check_support_exact(s, gjk_v3(1, 0, 0), gjk_v3(1, 0, 0), 2);
    check_support_exact(s, gjk_v3(0, -3, 0), gjk_v3(0, -2, 0), 2);
    check_support_exact(s, gjk_v3(0, 0, 0.2), gjk_v3(0, 0, 0.5), 2);
    const gjk_real margins[] = {0, (gjk_real)0.2};
    for (int m = 0; m < 2; ++m) {
        gjk_shape rs = gjk_with_margin(s, margins[m]);
        for (int i = 0; i < 300; ++i) {
            gjk_vec3 d = rnd_dir();
            gjk_real len = gjk_length(d);
            gjk_vec3 p = gjk_shape_support(&rs, d);
            // The support value of the ellipsoid is h(d) = sqrt(sum (r_i d_i)^2).
            double hx = (double)radii.x * d.x, hy = (double)radii.y * d.y, hz = (double)radii.z * d.z;
            double hd = sqrt(hx * hx + hy * hy + hz * hz) + (double)margins[m] * len;
            ENSURE_NEAR(gjk_dot(p, d), hd, TOL(2 * len));
            // The core point lies on the surface sum (x_i / r_i)^2 = 1.
            gjk_vec3 c = gjk_mul_add(p, -margins[m], gjk_normalize(d));
            double e = (double)(c.x / radii.x) * (c.x / radii.x) + (double)(c.y / radii.y) * (c.y / radii.y) +
                       (double)(c.z / radii.z) * (c.z / radii.z);
            ENSURE_NEAR(e, 1, TOL(4));
        }
    }
    // A sphere-shaped ellipsoid is the sphere.
    gjk_shape e3 = gjk_make_ellipsoid(gjk_v3(1.5, 1.5, 1.5));
    ENSURE_VEC_NEAR(gjk_shape_support(&e3, gjk_v3(3, 4, 12)), gjk_v3(4.5 / 13, 6.0 / 13, 18.0 / 13), TOL(2));
}

static void test_support_polytope(void) {
    gjk_shape s = gjk_make_polytope(cube_cloud, cube_cloud_count);
    // The apex (3, 0.1, 0.2) is the farthest point along +x.
    check_support_exact(s, gjk_v3(1, 0, 0), gjk_v3(3, 0.1, 0.2), 3);
    check_support_exact(s, gjk_v3(-1, -0.1, -0.1), gjk_v3(-1, -0.5, -1), 3);
    check_support_exact(s, gjk_v3(0.01, 1, 1), gjk_v3(2, 0.5, 1), 3);
    const gjk_real margins[] = {0, (gjk_real)0.3};
    for (int m = 0; m < 2; ++m) {
        gjk_shape rs = gjk_with_margin(s, margins[m]);
        for (int i = 0; i < 300; ++i) {
            gjk_vec3 d = rnd_dir();
            gjk_real len = gjk_length(d);
            gjk_vec3 p = gjk_shape_support(&rs, d);
            gjk_vec3 c = gjk_mul_add(p, -margins[m], gjk_normalize(d));
            // Brute force: the best vertex.
            double best = -1e300;
            bool is_vertex = false;
            for (int k = 0; k < cube_cloud_count; ++k) {
                double v = (double)gjk_dot(cube_cloud[k], d);
                if (v > best) {
                    best = v;
                }
                if (gjk_distance_between(c, cube_cloud[k]) <= TOL(3)) {
                    is_vertex = true;
                }
            }
            ENSURE(is_vertex);
            ENSURE_NEAR(gjk_dot(p, d), best + (double)margins[m] * len, TOL(3 * len));
        }
    }
    // A single-vertex polytope is a point; a two-vertex polytope a segment.
    gjk_vec3 one = gjk_v3(1, 2, 3);
    gjk_shape p1 = gjk_make_polytope(&one, 1);
    ENSURE_VEC_NEAR(gjk_shape_support(&p1, gjk_v3(-1, 5, 2)), one, 0);
    gjk_vec3 two[2] = {{0, 0, 0}, {1, 1, 0}};
    gjk_shape p2 = gjk_make_polytope(two, 2);
    ENSURE_VEC_NEAR(gjk_shape_support(&p2, gjk_v3(1, 0, 0)), two[1], 0);
    ENSURE_VEC_NEAR(gjk_shape_support(&p2, gjk_v3(-1, 0, 0)), two[0], 0);
}

static void test_support_custom(void) {
    custom_expected_user_data = &the_user_sphere;
    custom_calls = custom_bad_user_data = custom_zero_direction = 0;
    gjk_shape s = gjk_make_custom(user_sphere_support, &the_user_sphere, the_user_sphere.radius);
    check_support_exact(s, gjk_v3(3, 4, 12), gjk_v3(3 * 1.25 / 13, 4 * 1.25 / 13, 12 * 1.25 / 13), 2);
    for (int i = 0; i < 50; ++i) {
        gjk_vec3 d = rnd_dir();
        check_support_exact(s, d, gjk_scale(the_user_sphere.radius, gjk_normalize(d)), 2);
    }
    ENSURE(custom_calls > 0);
    ENSURE(custom_bad_user_data == 0);
    ENSURE(custom_zero_direction == 0);
    // A custom shape with a margin: the user support plus margin d^.
    gjk_shape r = gjk_with_margin(s, 0.75);
    ENSURE_VEC_NEAR(gjk_shape_support(&r, gjk_v3(0, -2, 0)), gjk_v3(0, -2, 0), TOL(2));
    // A zero direction gives a point of the shape without ever passing a
    // zero direction to the user function.
    custom_calls = 0;
    gjk_vec3 p = gjk_shape_support(&s, gjk_v3_zero());
    ENSURE(gjk_is_valid_vec3(p));
    ENSURE(gjk_length(p) <= the_user_sphere.radius * (1 + (gjk_real)TEST_REL_TOL));
    ENSURE(custom_zero_direction == 0);
    ENSURE(custom_bad_user_data == 0);
}

static void test_support_zero_direction(void) {
    // "A zero direction gives a point of the shape": finite, and inside the
    // shape's bounding ball (core bound + margin).
    gjk_shape shapes[16];
    int n = all_shapes(shapes);
    custom_expected_user_data = &the_user_sphere;
    custom_zero_direction = 0;
    for (int i = 0; i < n; ++i) {
        for (int m = 0; m < 2; ++m) {
            gjk_shape s = gjk_with_margin(shapes[i], m ? (gjk_real)0.5 : 0);
            gjk_vec3 p = gjk_shape_support(&s, gjk_v3_zero());
            ENSURE(gjk_is_valid_vec3(p));
            // Largest |support| over many directions bounds the shape.
            gjk_real bound = 0;
            for (int k = 0; k < 500; ++k) {
                gjk_real l = gjk_length(gjk_shape_support(&s, rnd_dir()));
                bound = gjk_max(bound, l);
            }
            ENSURE(gjk_length(p) <= bound * (gjk_real)1.01 + (gjk_real)1e-6);
        }
    }
    ENSURE(custom_zero_direction == 0);
    // Simple exact cases: inside the box / sphere.
    gjk_shape b = gjk_make_box(gjk_v3(1, 2, 3));
    gjk_vec3 p = gjk_shape_support(&b, gjk_v3_zero());
    ENSURE(gjk_abs(p.x) <= 1 && gjk_abs(p.y) <= 2 && gjk_abs(p.z) <= 3);
    gjk_shape sp = gjk_make_sphere(2);
    p = gjk_shape_support(&sp, gjk_v3_zero());
    ENSURE(gjk_length(p) <= 2 * (1 + (gjk_real)TEST_REL_TOL));
}

static void test_support_optimality(void) {
    // For every shape, d.support(d) >= d.support(d') for other directions d'.
    gjk_shape shapes[16];
    int n = all_shapes(shapes);
    custom_expected_user_data = &the_user_sphere;
    custom_bad_user_data = 0;
    enum { ND = 200 };
    static gjk_vec3 dirs[ND], sup[ND];
    for (int i = 0; i < n; ++i) {
        for (int m = 0; m < 2; ++m) {
            gjk_shape s = gjk_with_margin(shapes[i], m ? (gjk_real)0.3 : 0);
            for (int k = 0; k < ND; ++k) {
                dirs[k] = rnd_dir();
                sup[k] = gjk_shape_support(&s, dirs[k]);
                ENSURE(gjk_is_valid_vec3(sup[k]));
            }
            int bad = 0;
            for (int k = 0; k < ND; ++k) {
                gjk_real own = gjk_dot(dirs[k], sup[k]);
                double tol = TOL(4 * gjk_length(dirs[k]));
                for (int j = 0; j < ND; ++j) {
                    if ((double)gjk_dot(dirs[k], sup[j]) > (double)own + tol) {
                        ++bad;
                    }
                }
            }
            if (bad) {
                fprintf(stderr, "shape type %d margin %d: %d non-optimal support points\n", (int)s.type, m, bad);
            }
            ENSURE(bad == 0);
        }
    }
    ENSURE(custom_bad_user_data == 0);
}

static void test_support_direction_size(void) {
    // Only d's direction matters, down to tiny and up to huge lengths whose
    // squares leave the range of normal numbers (a cylinder's |d_xy|, an
    // ellipsoid's |diag(r) d| and the margin's d/|d| must not underflow to
    // zero or overflow). The user shape is left out: its support is this
    // file's.
#if GJK_USE_FLOAT
    const int exps[] = {-120, -70, -40, 40, 70, 120};
#else
    const int exps[] = {-1000, -600, -300, 300, 600, 1000};
#endif
    const int nexp = (int)(sizeof exps / sizeof exps[0]);
    gjk_shape shapes[16];
    int n = all_shapes(shapes);
    for (int i = 0; i < n; ++i) {
        if (shapes[i].type == GJK_SHAPE_CUSTOM) {
            continue;
        }
        for (int m = 0; m < 2; ++m) {
            gjk_shape s = gjk_with_margin(shapes[i], m ? (gjk_real)0.3 : 0);
            for (int k = 0; k < 50; ++k) {
                // Axis-aligned directions too: the cylinder's and cone's
                // horizontal part is then exactly zero.
                gjk_vec3 d = k < 6 ? gjk_v3((gjk_real)(k == 0) - (gjk_real)(k == 1), (gjk_real)(k == 2) - (gjk_real)(k == 3),
                                            (gjk_real)(k == 4) - (gjk_real)(k == 5))
                                   : rnd_dir();
                gjk_vec3 p = gjk_shape_support(&s, d);
                for (int e = 0; e < nexp; ++e) {
                    gjk_real sc = (gjk_real)ldexp(1, exps[e]);
                    gjk_vec3 q = gjk_shape_support(&s, gjk_scale(sc, d));
                    ENSURE_VEC_NEAR(q, p, TOL(4));
                }
            }
        }
    }
}

// ---- validation ----

static void expect_valid(gjk_shape s, const char *what) {
    gjk_status st = gjk_shape_validate(&s);
    if (st != GJK_SEPARATED) {
        fprintf(stderr, "expected valid: %s (got status %d)\n", what, (int)st);
    }
    ENSURE(st == GJK_SEPARATED);
}

static void expect_invalid(gjk_shape s, const char *what) {
    gjk_status st = gjk_shape_validate(&s);
    if (st != GJK_INVALID_INPUT) {
        fprintf(stderr, "expected invalid: %s (got status %d)\n", what, (int)st);
    }
    ENSURE(st == GJK_INVALID_INPUT);
}

static int never_called = 0;
static gjk_vec3 must_not_be_called(const void *user_data, gjk_vec3 d) {
    (void)user_data;
    ++never_called;
    return d;
}

static void test_validate_valid(void) {
    gjk_shape shapes[16];
    int n = all_shapes(shapes);
    for (int i = 0; i < n; ++i) {
        expect_valid(shapes[i], "shape of all_shapes");
        expect_valid(gjk_with_margin(shapes[i], 0.5), "shape of all_shapes with margin");
    }
    // Zero sizes are not negative: degenerate but valid.
    expect_valid(gjk_make_sphere(0), "sphere radius 0");
    expect_valid(gjk_make_box(gjk_v3(0, 0, 0)), "box of zero size");
    expect_valid(gjk_make_box(gjk_v3(1, 0, 2)), "flat box");
    expect_valid(gjk_make_segment(gjk_v3(1, 1, 1), gjk_v3(1, 1, 1)), "segment of zero length");
    expect_valid(gjk_make_triangle(gjk_v3(0, 0, 0), gjk_v3(1, 1, 1), gjk_v3(2, 2, 2)), "collinear triangle");
    expect_valid(gjk_make_capsule(gjk_v3(0, 0, 0), gjk_v3(0, 0, 0), 1), "capsule of zero length");
    expect_valid(gjk_make_capsule(gjk_v3(0, 0, 0), gjk_v3(0, 0, 1), 0), "capsule radius 0");
    expect_valid(gjk_make_cylinder(0, 1), "cylinder radius 0");
    expect_valid(gjk_make_cone(1, 0), "cone of height 0");
    expect_valid(gjk_with_margin(gjk_make_point(), 0), "point margin 0");
    expect_valid(gjk_make_polytope(cube_cloud, 1), "polytope of one point");
    expect_valid(gjk_make_custom(user_sphere_support, NULL, 0), "custom with NULL user data, radius 0");
    // Large but finite numbers are valid.
    expect_valid(gjk_make_sphere(GJK_REAL_MAX / 4), "huge sphere");
    // validate does not call the custom support function.
    never_called = 0;
    expect_valid(gjk_make_custom(must_not_be_called, NULL, 1), "custom shape");
    ENSURE(never_called == 0);
}

static void test_validate_invalid(void) {
    const gjk_real nan = (gjk_real)NAN, inf = (gjk_real)INFINITY;
    gjk_vec3 o = gjk_v3(0, 0, 0), x = gjk_v3(1, 0, 0), y = gjk_v3(0, 1, 0);
    // Negative sizes.
    expect_invalid(gjk_make_sphere(-1), "sphere radius -1");
    expect_invalid(gjk_make_sphere(-GJK_REAL_EPSILON), "sphere radius -eps");
    expect_invalid(gjk_make_capsule(o, x, -0.5), "capsule radius -0.5");
    expect_invalid(gjk_make_cylinder(-1, 1), "cylinder radius -1");
    expect_invalid(gjk_make_cylinder(1, -1), "cylinder half height -1");
    expect_invalid(gjk_make_cone(-1, 1), "cone radius -1");
    expect_invalid(gjk_make_cone(1, -1), "cone half height -1");
    expect_invalid(gjk_make_box(gjk_v3(-1, 1, 1)), "box hx -1");
    expect_invalid(gjk_make_box(gjk_v3(1, -1, 1)), "box hy -1");
    expect_invalid(gjk_make_box(gjk_v3(1, 1, -0.001)), "box hz -0.001");
    expect_invalid(gjk_make_ellipsoid(gjk_v3(-1, 1, 1)), "ellipsoid rx -1");
    expect_invalid(gjk_make_ellipsoid(gjk_v3(1, 1, -2)), "ellipsoid rz -2");
    expect_invalid(gjk_make_custom(user_sphere_support, &the_user_sphere, -1), "custom radius -1");
    // Negative margins on every type.
    gjk_shape shapes[16];
    int n = all_shapes(shapes);
    for (int i = 0; i < n; ++i) {
        expect_invalid(gjk_with_margin(shapes[i], -0.1), "negative margin");
        expect_invalid(gjk_with_margin(shapes[i], nan), "NaN margin");
        expect_invalid(gjk_with_margin(shapes[i], inf), "infinite margin");
    }
    // NaN or infinity in every kind of field.
    expect_invalid(gjk_make_sphere(nan), "sphere radius NaN");
    expect_invalid(gjk_make_sphere(inf), "sphere radius inf");
    expect_invalid(gjk_make_segment(gjk_v3(nan, 0, 0), x), "segment a.x NaN");
    expect_invalid(gjk_make_segment(o, gjk_v3(0, 0, -inf)), "segment b.z -inf");
    expect_invalid(gjk_make_triangle(o, x, gjk_v3(0, nan, 0)), "triangle c.y NaN");
    expect_invalid(gjk_make_triangle(gjk_v3(inf, 0, 0), x, y), "triangle a.x inf");
    expect_invalid(gjk_make_triangle(o, gjk_v3(0, 0, nan), y), "triangle b.z NaN");
    expect_invalid(gjk_make_box(gjk_v3(1, nan, 1)), "box hy NaN");
    expect_invalid(gjk_make_box(gjk_v3(1, 1, inf)), "box hz inf");
    expect_invalid(gjk_make_capsule(gjk_v3(0, nan, 0), x, 1), "capsule a.y NaN");
    expect_invalid(gjk_make_capsule(o, gjk_v3(inf, 0, 0), 1), "capsule b.x inf");
    expect_invalid(gjk_make_capsule(o, x, nan), "capsule radius NaN");
    expect_invalid(gjk_make_capsule(o, x, inf), "capsule radius inf");
    expect_invalid(gjk_make_cylinder(nan, 1), "cylinder radius NaN");
    expect_invalid(gjk_make_cylinder(1, inf), "cylinder half height inf");
    expect_invalid(gjk_make_cone(inf, 1), "cone radius inf");
    expect_invalid(gjk_make_cone(1, nan), "cone half height NaN");
    expect_invalid(gjk_make_ellipsoid(gjk_v3(1, nan, 1)), "ellipsoid ry NaN");
    expect_invalid(gjk_make_ellipsoid(gjk_v3(inf, 1, 1)), "ellipsoid rx inf");
    expect_invalid(gjk_make_custom(user_sphere_support, &the_user_sphere, nan), "custom radius NaN");
    expect_invalid(gjk_make_custom(user_sphere_support, &the_user_sphere, inf), "custom radius inf");
    gjk_vec3 bad_cloud[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    bad_cloud[2].y = nan;
    expect_invalid(gjk_make_polytope(bad_cloud, 4), "polytope vertex NaN");
    bad_cloud[2].y = 1;
    bad_cloud[3].x = -inf;
    expect_invalid(gjk_make_polytope(bad_cloud, 4), "polytope vertex -inf");
    bad_cloud[3].x = 0;
    expect_valid(gjk_make_polytope(bad_cloud, 4), "repaired polytope");
    // Polytope vertex lists.
    expect_invalid(gjk_make_polytope(NULL, 8), "polytope NULL vertices");
    expect_invalid(gjk_make_polytope(NULL, 0), "polytope NULL vertices, count 0");
    expect_invalid(gjk_make_polytope(cube_cloud, 0), "polytope count 0");
    expect_invalid(gjk_make_polytope(cube_cloud, -1), "polytope count -1");
    expect_invalid(gjk_make_polytope(cube_cloud, -1000000), "polytope count -1e6");
    // Custom shape without a function.
    expect_invalid(gjk_make_custom(NULL, &the_user_sphere, 1), "custom NULL support");
    // Unknown types.
    gjk_shape s = gjk_make_sphere(1);
    s.type = (gjk_shape_type)99;
    expect_invalid(s, "type 99");
    s.type = GJK_SHAPE_TYPE_COUNT;
    expect_invalid(s, "type GJK_SHAPE_TYPE_COUNT");
    s.type = (gjk_shape_type)-1;
    expect_invalid(s, "type -1");
}

static void test_status_names(void) {
    const gjk_status all[] = {GJK_SEPARATED, GJK_TOUCHING, GJK_PENETRATING, GJK_INVALID_INPUT, GJK_NOT_CONVERGED};
    ENSURE(GJK_SEPARATED < GJK_INVALID_INPUT && GJK_TOUCHING < GJK_INVALID_INPUT &&
           GJK_PENETRATING < GJK_INVALID_INPUT && GJK_NOT_CONVERGED > GJK_INVALID_INPUT);
    for (int i = 0; i < 5; ++i) {
        const char *name = gjk_status_name(all[i]);
        ENSURE(name != NULL && name[0] != '\0');
        for (int j = 0; j < i; ++j) {
            const char *other = gjk_status_name(all[j]);
            ENSURE(name == NULL || other == NULL || strcmp(name, other) != 0);
        }
    }
    const char *sep = gjk_status_name(GJK_SEPARATED), *touch = gjk_status_name(GJK_TOUCHING);
    ENSURE(sep != NULL && strcmp(sep, "separated") == 0);
    ENSURE(touch != NULL && strcmp(touch, "touching") == 0);
}

int main(void) {
    RUN_TEST(test_make);
    RUN_TEST(test_support_point);
    RUN_TEST(test_support_segment);
    RUN_TEST(test_support_triangle);
    RUN_TEST(test_support_box);
    RUN_TEST(test_support_sphere);
    RUN_TEST(test_support_capsule);
    RUN_TEST(test_support_cylinder);
    RUN_TEST(test_support_cone);
    RUN_TEST(test_support_ellipsoid);
    RUN_TEST(test_support_polytope);
    RUN_TEST(test_support_custom);
    RUN_TEST(test_support_zero_direction);
    RUN_TEST(test_support_optimality);
    RUN_TEST(test_support_direction_size);
    RUN_TEST(test_validate_valid);
    RUN_TEST(test_validate_invalid);
    RUN_TEST(test_status_names);
    return TEST_SUMMARY();
}
