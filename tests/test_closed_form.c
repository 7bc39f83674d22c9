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

/// A ball as a user support function (the general path): its centre.
static gjk_vec3 centre_support(const void *user, gjk_vec3 d) {
    (void)user;
    (void)d;
    return gjk_v3_zero();
}

/// The three queries' statuses on `in`, and whether they all agree.
static bool statuses(const gjk_query_input *in, gjk_status *st) {
    gjk_status i = gjk_intersect(in).status, d = gjk_distance(in, NULL).status, p = gjk_penetration(in, NULL).status;
    *st = p;
    return i == d && d == p;
}

/// Two balls (points and spheres) take their own short path in each query
/// (query.c, ball_pair_of): exact answers, each kind of invalid input
/// reported as the general path reports it (the same balls as user shapes
/// with margins), and the cases it leaves to the closed form or GJK
/// (concentric, offsets whose square leaves the normal range).
static void test_ball_pairs(void) {
    gjk_shape s1 = gjk_make_sphere((gjk_real)0.5), s2 = gjk_with_margin(gjk_make_sphere((gjk_real)0.25), (gjk_real)0.25);
    gjk_vec3 pa = gjk_v3(10, -20, 30), off = gjk_v3(3, 4, 12); // |off| = 13
    gjk_query_input in = {&s1, gjk_transform_make(pa, gjk_quat_identity()), &s2,
                          gjk_transform_make(gjk_add(pa, off), gjk_quat_make(0, 3, 0, 4)), {0}};
    gjk_distance_output d = gjk_distance(&in, NULL);
    ENSURE(d.status == GJK_SEPARATED && d.iterations == 0);
    ENSURE_NEAR(d.distance, 12, TEST_REL_TOL);
    ENSURE_VEC_NEAR(d.normal, gjk_scale((gjk_real)(1.0 / 13), off), TEST_REL_TOL);
    ENSURE_VEC_NEAR(d.point_a, gjk_mul_add(pa, (gjk_real)0.5, d.normal), 1e3 * TEST_REL_TOL);
    ENSURE_VEC_NEAR(d.point_b, gjk_mul_add(gjk_add(pa, off), (gjk_real)-0.5, d.normal), 1e3 * TEST_REL_TOL);
    gjk_penetration_output p = gjk_penetration(&in, NULL);
    ENSURE(p.status == GJK_SEPARATED && p.depth == 0);
    ENSURE_NEAR(p.signed_distance, 12, TEST_REL_TOL);
    ENSURE(!gjk_intersect(&in).intersect);
    // Overlapping by 0.3 (|off| = 0.7): the common point lies on the line
    // of centres, 0.5 / (0.5 + 0.5) of the way.
    in.transform_b.position = gjk_add(pa, gjk_v3(0, 0, (gjk_real)0.7));
    p = gjk_penetration(&in, NULL);
    ENSURE(p.status == GJK_PENETRATING);
    ENSURE_NEAR(p.depth, 0.3, 1e3 * TEST_REL_TOL);
    ENSURE_VEC_NEAR(gjk_sub(p.point_a, p.point_b), gjk_scale(p.depth, p.normal), 1e3 * TEST_REL_TOL);
    d = gjk_distance(&in, NULL);
    ENSURE(d.status == GJK_PENETRATING && d.distance == 0);
    ENSURE_VEC_NEAR(d.point_a, gjk_add(pa, gjk_v3(0, 0, (gjk_real)0.35)), 1e3 * TEST_REL_TOL);
    ENSURE(gjk_intersect(&in).intersect);
    // Touching within the tolerance: every query says so.
    gjk_status st;
    in.transform_b.position = gjk_add(pa, gjk_v3(1, 0, 0));
    ENSURE(statuses(&in, &st) && st == GJK_TOUCHING);
    // Concentric (left to EPA), and offsets whose square over- or
    // underflows (left to the closed form, scaled): the same answers.
    in.transform_b.position = pa;
    ENSURE(statuses(&in, &st) && st == GJK_PENETRATING);
    ENSURE_NEAR(gjk_penetration(&in, NULL).depth, 1, 1e3 * TEST_REL_TOL);
    gjk_shape pt = gjk_make_point();
    gjk_real far = (gjk_real)(GJK_USE_FLOAT ? 1e16 : 1e150), near = (gjk_real)(GJK_USE_FLOAT ? 1e-16 : 1e-150);
    gjk_query_input pts = {&pt, gjk_transform_identity(), &pt, gjk_transform_make(gjk_v3(far, far, 0), gjk_quat_identity()), {0}};
    d = gjk_distance(&pts, NULL);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE_NEAR(d.distance / far, sqrt(2.0), TEST_REL_TOL);
    pts.transform_b.position = gjk_v3(near, near, 0);
    d = gjk_distance(&pts, NULL);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE_NEAR(d.distance / near, sqrt(2.0), TEST_REL_TOL);
    // Beyond the square root of the largest number (as capsules' closed
    // form, and 2D's, answer there too): every query agrees.
    gjk_real huge = (gjk_real)(GJK_USE_FLOAT ? 1e25 : 1e200);
    gjk_query_input far_balls = in;
    far_balls.transform_b.position = gjk_add(pa, gjk_v3(huge, -huge, 0));
    ENSURE(statuses(&far_balls, &st) && st == GJK_SEPARATED);
    ENSURE_NEAR(gjk_distance(&far_balls, NULL).distance / huge, sqrt(2.0), TEST_REL_TOL);

    // Invalid input: each variant against the same balls as user shapes
    // (centre support, the radius as margin), which the general path
    // checks; the queries must agree with it and with each other.
    const gjk_real inf = (gjk_real)INFINITY, nan = (gjk_real)NAN;
    gjk_real bad_reals[] = {-1, nan, inf, -inf};
    for (int k = 0; k < 4 * 4 + 8; ++k) {
        gjk_shape a = gjk_make_sphere(1), b = gjk_make_point();
        gjk_query_input q = {&a, gjk_transform_identity(), &b, gjk_transform_make(gjk_v3(3, 0, 0), gjk_quat_identity()), {0}};
        gjk_real x = bad_reals[k % 4];
        switch (k / 4) {
        case 0: a.sphere.radius = x; break;
        case 1: a.margin = x; break;
        case 2: b.margin = x; break;
        case 3: q.transform_b.position.y = x == -1 ? nan : x; break; // −1 is a position
        case 4: q.transform_a.rotation = gjk_quat_make(k % 2 ? nan : 0, 0, 0, 0); break;
        default:
            if (k % 4 == 0) {
                q.options.tolerance = nan;
            } else if (k % 4 == 1) {
                q.options.max_iterations = -1;
            } else if (k % 4 == 2) {
                a.sphere.radius = GJK_REAL_MAX; // the radii's sum overflows
                b.margin = GJK_REAL_MAX;
            } else {
                a.type = (gjk_shape_type)99; // not a shape type
            }
            break;
        }
        // The bad number itself where it is one (−1 + 1 would be valid).
        gjk_real ma = a.margin >= 0 && a.margin <= GJK_REAL_MAX ? a.margin + a.sphere.radius : a.margin;
        ma = a.sphere.radius >= 0 && a.sphere.radius <= GJK_REAL_MAX ? ma : a.sphere.radius;
        gjk_shape ga = gjk_with_margin(gjk_make_custom(centre_support, NULL, 0), ma);
        gjk_shape gb = gjk_with_margin(gjk_make_custom(centre_support, NULL, 0), b.margin);
        ENSURE(statuses(&q, &st) && st == GJK_INVALID_INPUT);
        if (a.type == GJK_SHAPE_SPHERE) {
            gjk_query_input g = q;
            g.shape_a = &ga;
            g.shape_b = &gb;
            gjk_status gst;
            ENSURE(statuses(&g, &gst) && gst == GJK_INVALID_INPUT);
        }
    }
    // Types out of range, also those that are a ball's type modulo 32 (the
    // queries' type bits once wrapped them onto a point or a sphere, which
    // were then answered: review finding): not shapes.
    const int bad_types[] = {32, 32 + GJK_SHAPE_SPHERE, 64, -32, -1, GJK_SHAPE_TYPE_COUNT};
    for (int k = 0; k < (int)(sizeof bad_types / sizeof bad_types[0]); ++k) {
        gjk_shape a = gjk_make_sphere(1), b = gjk_make_point();
        gjk_query_input q = {&a, gjk_transform_identity(), &b, gjk_transform_make(gjk_v3(3, 0, 0), gjk_quat_identity()), {0}};
        b.type = (gjk_shape_type)bad_types[k];
        ENSURE(statuses(&q, &st) && st == GJK_INVALID_INPUT);
        b.type = GJK_SHAPE_POINT;
        a.type = (gjk_shape_type)bad_types[k];
        ENSURE(statuses(&q, &st) && st == GJK_INVALID_INPUT);
    }
}

/// The gap of two shapes at the identity pose along the unit n: B's least
/// extent minus A's greatest (support points from the library).
static double gap_along(const gjk_shape *a, const gjk_shape *b, gjk_vec3 n) {
    d3 pa = d3_of(gjk_shape_support(a, n)), pb = d3_of(gjk_shape_support(b, gjk_neg(n)));
    return d3_dot(d3_of(n), d3_sub(pb, pa));
}

/// Nearly parallel segments whose closest points lie inside both: the
/// normal must be square to both, so that the gap along it is the distance.
/// The difference of the closest points carries their rounding along the
/// segments; with them 1.9e-10 rad apart and 8.4e-10 apart, the normal was
/// 6e-4 off and its gap 1.45e-3 short (review finding, after a first
/// version of the squaring that took the parts along two directions only
/// nearly square to each other); 1.6e-7 short before any squaring. Then
/// capsules 7e-9 off coaxial (their gap 5e-8 short before).
static void test_nearly_parallel_segments_normal(void) {
    gjk_shape a = gjk_make_segment(gjk_v3(to_real(-0x1.354ec8d4a63d4p-1), to_real(-0x1.2216457d3abep-1),
                                          to_real(-0x1.df3d49a865246p-1)),
                                   gjk_v3(to_real(0x1.e68446dca6684p-1), to_real(-0x1.4ae3875fd6c68p-1),
                                          to_real(0x1.00daba7f0edap-1)));
    gjk_shape b = gjk_make_segment(gjk_v3(to_real(-0x1.20813223c36a6p+0), to_real(-0x1.145caadcf2c2p-1),
                                          to_real(-0x1.6b6ca034a2e86p+0)),
                                   gjk_v3(to_real(0x1.2dac48050199bp+0), to_real(-0x1.50e0ebef6abebp-1),
                                          to_real(0x1.6cea3f253244ep-1)));
    gjk_shape ca = gjk_make_capsule(gjk_v3(0, 0, -1), gjk_v3(0, 0, 1), (gjk_real)0.25);
    gjk_shape cb = gjk_make_capsule(gjk_v3(to_real(7e-9), 0, to_real(-0.25)), gjk_v3(to_real(7e-9), 0, to_real(1.5)),
                                    (gjk_real)0.5);
    const gjk_shape *pairs[2][2] = {{&a, &b}, {&ca, &cb}};
    for (int k = 0; k < 2; ++k) {
        gjk_query_input in = {0};
        in.shape_a = pairs[k][0], in.shape_b = pairs[k][1];
        in.transform_a.rotation = in.transform_b.rotation = gjk_quat_identity();
        gjk_penetration_output o = gjk_penetration(&in, NULL);
        gjk_distance_output d = gjk_distance(&in, NULL);
        ENSURE(status_is_answer(o.status) && status_is_answer(d.status));
        ENSURE_NEAR(gap_along(in.shape_a, in.shape_b, o.normal), o.signed_distance, 4 * TEST_REL_TOL);
        if (d.distance > 0) {
            ENSURE_NEAR(gap_along(in.shape_a, in.shape_b, d.normal), d.distance, 4 * TEST_REL_TOL);
        }
    }
}

/// Special-path review: nearly parallel segments had their closest-point
/// parameter from a·e − b², which cancels to rounding when the angle θ
/// between them is below √ε: the segments (−1, 0, 0)–(1, 0, 0) and
/// (−0.7, −θ, h)–(1.3, θ, h), crossing at x = 0.3 when h = 0, came out
/// separated by θ (1e-8 at θ = 1e-8, 40 tolerances), in every query;
/// random nearly parallel pairs up to 144 tolerances off. The exact
/// distance is h. Checked for θ from 1e-9 to 1e-3 (float: 1e-5 to 1e-2)
/// and h from 4 to 1e3 tolerances, the pair turned and moved.
static void test_nearly_parallel_segments_distance(void) {
    rng r = {0x9a7aULL};
    const double tol = TEST_REL_TOL; // the default tolerance at this size (about 1)
    int bad = 0, checked = 0;
    for (int k = 0; k < 3000; ++k) {
        double th = GJK_USE_FLOAT ? pow(10, rng_range(&r, -5, -2)) : pow(10, rng_range(&r, -9, -3));
        // Apart beyond the touching band, where the closed form answers (in
        // the band the general path does: see design.md, what is left).
        double h = rng_range(&r, 4, k % 2 == 0 ? 40 : 1000) * tol;
        gjk_shape a = gjk_make_segment(gjk_v3(-1, 0, 0), gjk_v3(1, 0, 0));
        gjk_shape b = gjk_make_segment(gjk_v3(to_real(-0.7), to_real(-th), to_real(h)),
                                       gjk_v3(to_real(1.3), to_real(th), to_real(h)));
        gjk_quat q = rng_quat(&r);
        d3 off = rng_box(&r, -2, 2);
        gjk_query_input in = {&a, gjk_transform_make(to_real3(off), q), &b, gjk_transform_make(to_real3(off), q), {0}};
        // The exact distance: the lines cross at x = 0.3, where B is h
        // above A (B's direction (2, 2θ, 0) has no part along z).
        gjk_distance_output d = gjk_distance(&in, NULL);
        gjk_penetration_output p = gjk_penetration(&in, NULL);
        ++checked;
        double err = fabs((double)d.distance - h), perr = fabs((double)p.signed_distance - h);
        bool ok = d.status == GJK_SEPARATED && p.status == GJK_SEPARATED && err <= 4 * tol && perr <= 4 * tol;
        if (!ok && bad++ < 3) {
            fprintf(stderr, "theta %g h %g: distance %g (status %d), signed distance %g (status %d)\n", th, h,
                    (double)d.distance, (int)d.status, (double)p.signed_distance, (int)p.status);
        }
    }
    case_begin("nearly parallel segments: the exact distance");
    ENSURE(bad == 0);
    case_end();
    printf("    nearly parallel segments: %d of %d off\n", bad, checked);
}

/// The closed forms rotate by a quaternion of any length without
/// normalising it (internal.h, gjk_scaled_rotation): the same answers, to
/// within rounding, as for the quaternion normalised, for lengths near 1
/// (taken as given) and far from it (normalised first), for two segment
/// cores and for a point against a box, cylinder, cone, ellipsoid or
/// triangle.
static void test_quaternion_lengths(void) {
    rng r = {4242};
#if GJK_USE_FLOAT
    static const double lengths[] = {0.3, 0.5, 0.999, 2, 3.9, 1e-3, 1e3, 1e-12, 1e12};
#else
    // 0.5 and 2: |q|² = 1/4 and 4, where normalising first takes over.
    static const double lengths[] = {0.3, 0.5, 0.999, 2, 3.9, 1e-3, 1e3, 1e-150, 1e150}; // (squares out of range)
#endif
    gjk_shape solids[] = {gjk_make_box(gjk_v3((gjk_real)0.5, (gjk_real)0.3, (gjk_real)0.7)),
                          gjk_make_cylinder((gjk_real)0.4, (gjk_real)0.6), gjk_make_cone((gjk_real)0.5, (gjk_real)0.7),
                          gjk_make_ellipsoid(gjk_v3((gjk_real)0.6, (gjk_real)0.4, (gjk_real)0.3)),
                          gjk_make_triangle(gjk_v3(-1, 0, 0), gjk_v3(1, (gjk_real)0.2, 0), gjk_v3(0, 1, (gjk_real)0.3))};
    int checked = 0;
    for (int k = 0; k < 3000; ++k) {
        seg_data sa, sb;
        gjk_shape a = k % 2 ? random_shape(&r, &sa, false) : solids[rng_int(&r, 5)];
        gjk_shape b = random_shape(&r, &sb, false);
        if (k % 2 == 0 && b.type != GJK_SHAPE_POINT && b.type != GJK_SHAPE_SPHERE) {
            b = gjk_make_sphere((gjk_real)0.2);
        }
        gjk_quat qa = rng_quat(&r), qb = rng_quat(&r);
        gjk_vec3 pa = gjk_v3((gjk_real)rng_range(&r, -2, 2), (gjk_real)rng_range(&r, -2, 2), (gjk_real)rng_range(&r, -2, 2));
        gjk_vec3 pb = gjk_add(pa, gjk_v3((gjk_real)rng_range(&r, -2, 2), (gjk_real)rng_range(&r, -2, 2),
                                         (gjk_real)rng_range(&r, -2, 2)));
        gjk_query_input unit = {&a, gjk_transform_make(pa, qa), &b, gjk_transform_make(pb, qb), {0}};
        if (k % 4 == 2) { // the point in A, the solid in B
            unit = (gjk_query_input){&b, gjk_transform_make(pb, qb), &a, gjk_transform_make(pa, qa), {0}};
        }
        gjk_penetration_output u = gjk_penetration(&unit, NULL);
        gjk_real la = (gjk_real)lengths[rng_int(&r, 9)], lb = (gjk_real)lengths[rng_int(&r, 9)];
        gjk_query_input scaled = unit;
        gjk_quat ua = unit.transform_a.rotation, ub = unit.transform_b.rotation;
        scaled.transform_a.rotation = gjk_quat_make(la * ua.w, la * ua.x, la * ua.y, la * ua.z);
        scaled.transform_b.rotation = gjk_quat_make(lb * ub.w, lb * ub.x, lb * ub.y, lb * ub.z);
        gjk_penetration_output v = gjk_penetration(&scaled, NULL);
        ENSURE(v.status == u.status || fabs((double)u.signed_distance) < 1e-6);
        if (u.status == GJK_NOT_CONVERGED || v.status == GJK_NOT_CONVERGED) {
            continue;
        }
        double tol = 256 * (double)GJK_REAL_EPSILON * 8;
        ENSURE_NEAR(v.signed_distance, u.signed_distance, tol);
        ENSURE_VEC_NEAR(v.point_a, u.point_a, tol);
        ENSURE_VEC_NEAR(v.point_b, u.point_b, tol);
        if (fabs((double)u.signed_distance) > 1e-3) {
            ENSURE_VEC_NEAR(v.normal, u.normal, tol / fabs((double)u.signed_distance));
            ++checked;
        }
    }
    ENSURE(checked > 2000);
}

int main(void) {
    RUN_TEST(test_exact_answers);
    RUN_TEST(test_ball_pairs);
    RUN_TEST(test_against_general_path);
    RUN_TEST(test_nearly_parallel_segments_normal);
    RUN_TEST(test_nearly_parallel_segments_distance);
    RUN_TEST(test_quaternion_lengths);
    return TEST_SUMMARY();
}
