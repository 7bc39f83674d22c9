// Closed forms for points, spheres, segments and capsules (src/closed_form.c)
// against the general GJK/EPA path on the same shapes given as user support
// functions (which never take the closed form), and against exact answers
// for simple configurations.
#include <math.h>

#include "test_macros.h"
#include "test_util.h"

typedef struct seg_data {
    gjk_vec3 a, b;
} seg_data;

static gjk_vec3 seg_support(const void *user, gjk_vec3 d) {
    const seg_data *s = user;
    return gjk_dot(s->b, d) > gjk_dot(s->a, d) ? s->b : s->a;
}

static void test_exact_answers(void) {
    // Two parallel capsules side by side: distance 3 − 2·0.5 along y.
    gjk_shape c = gjk_make_capsule(gjk_v3(-1, 0, 0), gjk_v3(1, 0, 0), (gjk_real)0.5);
    gjk_query_input in = {&c, gjk_transform_identity(), &c, gjk_transform_make(gjk_v3((gjk_real)0.5, 3, 0), gjk_quat_identity()), {0}};
    gjk_distance_output d = gjk_distance(&in, NULL);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE_NEAR(d.distance, 2, TEST_REL_TOL);
    ENSURE_VEC_NEAR(d.normal, gjk_v3(0, 1, 0), TEST_REL_TOL);
    ENSURE_NEAR(d.point_a.y, 0.5, TEST_REL_TOL);
    ENSURE_NEAR(d.point_b.y, 2.5, TEST_REL_TOL);
    // Crossed capsules 0.7 apart in z, overlapping by 0.3.
    in.transform_b = gjk_transform_make(gjk_v3(0, 0, (gjk_real)0.7), gjk_quat_from_axis_angle(gjk_v3(0, 0, 1), (gjk_real)1.5707963267948966));
    gjk_penetration_output p = gjk_penetration(&in, NULL);
    ENSURE(p.status == GJK_PENETRATING);
    ENSURE_NEAR(p.signed_distance, -0.3, TEST_REL_TOL);
    ENSURE_VEC_NEAR(p.normal, gjk_v3(0, 0, 1), TEST_REL_TOL);
    ENSURE_VEC_NEAR(gjk_sub(p.point_a, p.point_b), gjk_scale(p.depth, p.normal), TEST_REL_TOL);
    gjk_intersect_output it = gjk_intersect(&in);
    ENSURE(it.status == GJK_PENETRATING && it.intersect);
    // Sphere touching a segment's end.
    gjk_shape s = gjk_make_sphere(1), g = gjk_make_segment(gjk_v3(0, 0, 0), gjk_v3(0, 0, 5));
    gjk_query_input in2 = {&s, gjk_transform_identity(), &g, gjk_transform_make(gjk_v3(0, 0, 1), gjk_quat_identity()), {0}};
    ENSURE(gjk_penetration(&in2, NULL).status == GJK_TOUCHING);
    ENSURE(gjk_intersect(&in2).intersect);
}

static gjk_shape random_shape(rng *r, seg_data *store, bool as_custom) {
    int kind = rng_int(r, 4);
    gjk_vec3 a = gjk_v3((gjk_real)rng_range(r, -1, 1), (gjk_real)rng_range(r, -1, 1), (gjk_real)rng_range(r, -1, 1));
    gjk_vec3 b = gjk_v3((gjk_real)rng_range(r, -1, 1), (gjk_real)rng_range(r, -1, 1), (gjk_real)rng_range(r, -1, 1));
    gjk_real rad = (gjk_real)rng_range(r, 0.05, 0.8);
    if (kind < 2) {
        a = b = gjk_v3_zero(); // point or sphere
    }
    if (kind == 0 || kind == 2) {
        rad = 0; // point or segment
    }
    store->a = a;
    store->b = b;
    if (as_custom) {
        return gjk_with_margin(gjk_make_custom(seg_support, store, 2), rad);
    }
    switch (kind) {
    case 0: return gjk_make_point();
    case 1: return gjk_make_sphere(rad);
    case 2: return gjk_make_segment(a, b);
    default: return gjk_make_capsule(a, b, rad);
    }
}

static void test_against_general_path(void) {
    rng r = {31337};
    int compared = 0;
    for (int k = 0; k < 4000; ++k) {
        rng r2 = r;
        seg_data sa, sb, ua, ub;
        gjk_shape a = random_shape(&r, &sa, false), b = random_shape(&r, &sb, false);
        gjk_shape ga = random_shape(&r2, &ua, true), gb = random_shape(&r2, &ub, true);
        gjk_vec3 pos = gjk_v3((gjk_real)rng_range(&r, -3, 3), (gjk_real)rng_range(&r, -3, 3), (gjk_real)rng_range(&r, -3, 3));
        gjk_quat q = gjk_quat_normalize(gjk_quat_make((gjk_real)rng_range(&r, -1, 1), (gjk_real)rng_range(&r, -1, 1),
                                                      (gjk_real)rng_range(&r, -1, 1), (gjk_real)rng_range(&r, -1, 1)));
        gjk_vec3 off = gjk_v3(100, -50, 25); // both far from the origin
        gjk_query_input in = {&a, gjk_transform_make(off, gjk_quat_identity()), &b, gjk_transform_make(gjk_add(off, pos), q), {0}};
        gjk_query_input gin = in;
        gin.shape_a = &ga;
        gin.shape_b = &gb;
        gjk_penetration_output c = gjk_penetration(&in, NULL), g = gjk_penetration(&gin, NULL);
        gjk_distance_output cd = gjk_distance(&in, NULL), gd = gjk_distance(&gin, NULL);
        gjk_intersect_output ci = gjk_intersect(&in), gi = gjk_intersect(&gin);
        if (g.status == GJK_NOT_CONVERGED) {
            continue;
        }
        double tol = 1e3 * TEST_REL_TOL * 100; // world points carry eps·|offset|
        ENSURE_NEAR(c.signed_distance, g.signed_distance, 1e3 * TEST_REL_TOL);
        ENSURE_NEAR(cd.distance, gd.distance, 1e3 * TEST_REL_TOL);
        ENSURE(ci.intersect == gi.intersect || fabs(g.signed_distance) < 1e-6);
        ENSURE(c.status == g.status || fabs(g.signed_distance) < 1e-6);
        if (g.signed_distance > 1e-3) {
            // Unique closest points unless the cores are parallel segments.
            ENSURE_VEC_NEAR(c.normal, g.normal, 1e-6);
            ENSURE_NEAR(gjk_distance_between(c.point_a, c.point_b), g.signed_distance, tol);
            ++compared;
        }
        ENSURE_NEAR(gjk_length(c.normal), 1, 1e-6);
    }
    ENSURE(compared > 1000);
}

int main(void) {
    RUN_TEST(test_exact_answers);
    RUN_TEST(test_against_general_path);
    return TEST_SUMMARY();
}
