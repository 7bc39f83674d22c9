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

/// Long double vectors for the reference.
typedef struct l3 {
    long double x, y, z;
} l3;
static l3 l3_of(d3 a) { l3 r = {a.x, a.y, a.z}; return r; }
static l3 l3_sub(l3 a, l3 b) { l3 r = {a.x - b.x, a.y - b.y, a.z - b.z}; return r; }
static l3 l3_mad(l3 a, long double s, l3 b) { l3 r = {a.x + s * b.x, a.y + s * b.y, a.z + s * b.z}; return r; }
static long double l3_dot(l3 a, l3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

/// Closest point of segment q0 + t e, t ∈ [0, 1], to p.
static l3 point_segment_closest(l3 p, l3 q0, l3 e) {
    long double ee = l3_dot(e, e);
    long double t = ee > 0 ? l3_dot(l3_sub(p, q0), e) / ee : 0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    return l3_mad(q0, t, e);
}

/// The exact reference, independent of the library's case analysis and in
/// long double: the closest pair is either interior to both segments (the
/// stationary point of |P(s) − Q(t)|², if it lies in [0, 1]²) or has an
/// endpoint of one segment and its projection on the other; every candidate
/// is evaluated and the nearest kept.
static void segments_reference(d3 p0d, d3 p1d, d3 q0d, d3 q1d, d3 *cp, d3 *cq) {
    l3 p0 = l3_of(p0d), q0 = l3_of(q0d), d1 = l3_sub(l3_of(p1d), p0), d2 = l3_sub(l3_of(q1d), q0);
    l3 cand_p[5], cand_q[5];
    int n = 0;
    long double a = l3_dot(d1, d1), e = l3_dot(d2, d2), b = l3_dot(d1, d2);
    l3 r = l3_sub(p0, q0);
    long double c = l3_dot(d1, r), f = l3_dot(d2, r), den = a * e - b * b;
    if (den > 1e-30L * a * e) {
        long double s = (b * f - c * e) / den, t = (a * f - b * c) / den;
        if (s >= 0 && s <= 1 && t >= 0 && t <= 1) {
            cand_p[n] = l3_mad(p0, s, d1);
            cand_q[n++] = l3_mad(q0, t, d2);
        }
    }
    const l3 pe[2] = {p0, l3_mad(p0, 1, d1)}, qe[2] = {q0, l3_mad(q0, 1, d2)};
    for (int k = 0; k < 2; ++k) {
        cand_p[n] = pe[k];
        cand_q[n++] = point_segment_closest(pe[k], q0, d2);
        cand_q[n] = qe[k];
        cand_p[n++] = point_segment_closest(qe[k], p0, d1);
    }
    int best = 0;
    for (int k = 1; k < n; ++k) {
        l3 dk = l3_sub(cand_q[k], cand_p[k]), db = l3_sub(cand_q[best], cand_p[best]);
        if (l3_dot(dk, dk) < l3_dot(db, db)) {
            best = k;
        }
    }
    *cp = d3_make((double)cand_p[best].x, (double)cand_p[best].y, (double)cand_p[best].z);
    *cq = d3_make((double)cand_q[best].x, (double)cand_q[best].y, (double)cand_q[best].z);
}

static d3 world_point(gjk_transform t, gjk_vec3 p) {
    gjk_quat q = gjk_quat_normalize(t.rotation);
    return d3_add(d3_of(gjk_quat_rotate(q, p)), d3_of(t.position));
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
            // The normal against the exact reference: the closest points of
            // the two world segments, in long double (the closed form is at least
            // as accurate as GJK, whose float normals are pinned only to
            // ~sqrt(2ε/d), see README "Tolerances").
            d3 cp, cq;
            d3 wa0 = world_point(in.transform_a, sa.a), wa1 = world_point(in.transform_a, sa.b);
            d3 wb0 = world_point(in.transform_b, sb.a), wb1 = world_point(in.transform_b, sb.b);
            segments_reference(wa0, wa1, wb0, wb1, &cp, &cq);
            d3 nref = d3_unit(d3_sub(cq, cp));
            double core = d3_len(d3_sub(cq, cp));
            // The points carry rounding of their coordinates (the offset
            // 100 included): a few ε·|coordinate| over the core distance.
            double ntol = 20 * (double)GJK_REAL_EPSILON * (d3_max_abs(d3_of(off)) + 10) / core;
            ENSURE_NEAR(c.normal.x, nref.x, ntol);
            ENSURE_NEAR(c.normal.y, nref.y, ntol);
            ENSURE_NEAR(c.normal.z, nref.z, ntol);
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
