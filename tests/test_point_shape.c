// Closed forms for a point or sphere against a box, cylinder, cone,
// ellipsoid or triangle (src/point_shape.c): exact answers worked by hand, and random poses
// checked against the shapes' own support functions (the overlap along the
// answer's normal is its depth, along no other direction less) and against
// the general GJK/EPA path on the same pair with the point given as a user
// shape (which never takes a closed form).
#include <math.h>

#include "test_macros.h"
#include "test_util.h"

static gjk_vec3 origin_support(const void *user, gjk_vec3 d) {
    (void)user;
    (void)d;
    return gjk_v3(0, 0, 0);
}

/// Signed distance, normal (from A to B) and witnesses of one query pair,
/// checked for the contract's identities on the way. The closed form must
/// answer (no GJK iteration) unless `may_walk` (a sliver of a triangle goes
/// to the general path).
static gjk_penetration_output run_pair(const gjk_shape *a, gjk_transform ta, const gjk_shape *b, gjk_transform tb,
                                       bool may_walk) {
    gjk_query_input in = {a, ta, b, tb, {0}};
    gjk_penetration_output p = gjk_penetration(&in, NULL);
    gjk_distance_output d = gjk_distance(&in, NULL);
    gjk_intersect_output it = gjk_intersect(&in);
    ENSURE(p.status == d.status && p.status == it.status);
    ENSURE(it.intersect == (p.status != GJK_SEPARATED));
    ENSURE(may_walk || (p.epa_iterations == 0 && p.iterations == 0)); // no walk: the closed form answered
    ENSURE_NEAR(gjk_length(p.normal), 1, 1e-6);
    ENSURE_NEAR(d.distance, p.signed_distance > 0 ? p.signed_distance : 0, 1e3 * TEST_REL_TOL);
    double size = 1 + d3_max_abs(d3_of(ta.position)) + d3_max_abs(d3_of(tb.position));
    ENSURE_VEC_NEAR(gjk_sub(p.point_a, p.point_b), gjk_scale(-p.signed_distance, p.normal), 1e3 * TEST_REL_TOL * size);
    return p;
}

static gjk_penetration_output run(const gjk_shape *a, gjk_transform ta, const gjk_shape *b, gjk_transform tb) {
    return run_pair(a, ta, b, tb, false);
}

static void expect(const gjk_shape *a, gjk_vec3 pa, const gjk_shape *b, gjk_vec3 pb, double sd, gjk_vec3 n) {
    gjk_transform ta = gjk_transform_make(pa, gjk_quat_identity()), tb = gjk_transform_make(pb, gjk_quat_identity());
    gjk_penetration_output p = run(a, ta, b, tb);
    ENSURE_NEAR(p.signed_distance, sd, 10 * TEST_REL_TOL);
    ENSURE_VEC_NEAR(p.normal, n, 10 * TEST_REL_TOL);
    // The same pair the other way round: the normal reversed.
    gjk_penetration_output q = run(b, tb, a, ta);
    ENSURE_NEAR(q.signed_distance, sd, 10 * TEST_REL_TOL);
    ENSURE_VEC_NEAR(q.normal, gjk_neg(n), 10 * TEST_REL_TOL);
}

/// World support of a shape under a transform, in double.
static double world_support(const gjk_shape *s, gjk_transform t, d3 n) {
    dmat m = dmat_of_quat(t.rotation);
    d3 local = dmat_tmul(&m, n);
    d3 p = d3_of(gjk_shape_support(s, to_real3(local)));
    return d3_dot(n, d3_add(dmat_mul(&m, p), d3_of(t.position)));
}

/// How far A reaches past B along n: h_A(n) + h_B(−n). The depth of
/// overlapping shapes is its least value over directions; for shapes apart,
/// its greatest is minus the distance.
static double overlap_along(const gjk_shape *a, gjk_transform ta, const gjk_shape *b, gjk_transform tb, d3 n) {
    return world_support(a, ta, n) + world_support(b, tb, d3_scale(-1, n));
}

static void test_exact_answers(void) {
    gjk_shape ball = gjk_make_sphere((gjk_real)0.5), pt = gjk_make_point();
    gjk_real s5 = (gjk_real)2.2360679774997897; // √5
    // Box of half extents (1, 2, 3): a ball inside, 0.5 from the +y face.
    gjk_shape box = gjk_make_box(gjk_v3(1, 2, 3));
    expect(&ball, gjk_v3((gjk_real)0.2, (gjk_real)1.5, 0), &box, gjk_v3(0, 0, 0), -1, gjk_v3(0, -1, 0));
    // At the centre: the nearest faces are ±x (ties go to +x).
    expect(&pt, gjk_v3(0, 0, 0), &box, gjk_v3(0, 0, 0), -1, gjk_v3(-1, 0, 0));
    // Beyond a corner by (1, 1, 1); the box rounded by 0.25.
    gjk_shape rbox = gjk_with_margin(box, (gjk_real)0.25);
    expect(&ball, gjk_v3(2, 3, 4), &rbox, gjk_v3(0, 0, 0), 1.7320508075688772 - 0.75,
           gjk_scale(-1 / (gjk_real)1.7320508075688772, gjk_v3(1, 1, 1)));
    // Cylinder of radius 1 and half height 2 (axis z).
    gjk_shape cyl = gjk_make_cylinder(1, 2);
    expect(&pt, gjk_v3((gjk_real)0.3, 0, (gjk_real)1.5), &cyl, gjk_v3(0, 0, 0), -0.5, gjk_v3(0, 0, -1)); // cap nearer
    expect(&ball, gjk_v3(0, (gjk_real)0.5, 0), &cyl, gjk_v3(0, 0, 0), -1, gjk_v3(0, -1, 0));             // side nearer
    expect(&pt, gjk_v3(0, 0, 0), &cyl, gjk_v3(0, 0, 0), -1, gjk_v3(-1, 0, 0)); // on the axis: a radial normal
    expect(&ball, gjk_v3(4, 0, 6), &cyl, gjk_v3(0, 0, 0), 4.5, gjk_v3((gjk_real)-0.6, 0, (gjk_real)-0.8)); // rim
    expect(&pt, gjk_v3(0, 0, 5), &cyl, gjk_v3(0, 0, 0), 3, gjk_v3(0, 0, -1));                         // cap
    expect(&pt, gjk_v3(0, -3, 1), &cyl, gjk_v3(0, 0, 0), 2, gjk_v3(0, 1, 0));                         // side
    // Cone of radius 1 and half height 1: apex (0, 0, 1), base at z = −1;
    // its side's outward normal (2, 0, 1)/√5 in the x–z plane.
    gjk_shape cone = gjk_make_cone(1, 1);
    expect(&pt, gjk_v3(0, 0, 0), &cone, gjk_v3(0, 0, 0), -1 / 2.2360679774997897,
           gjk_v3(-2 / s5, 0, -1 / s5)); // on the axis: the side at e = +x
    expect(&pt, gjk_v3(0, 0, (gjk_real)-0.9), &cone, gjk_v3(0, 0, 0), -0.1, gjk_v3(0, 0, 1)); // base nearer
    expect(&ball, gjk_v3(0, 0, 3), &cone, gjk_v3(0, 0, 0), 1.5, gjk_v3(0, 0, -1));            // apex
    expect(&pt, gjk_v3(2, 0, -2), &cone, gjk_v3(0, 0, 0), 1.4142135623730951,
           gjk_scale(1 / (gjk_real)1.4142135623730951, gjk_v3(-1, 0, 1))); // rim
    expect(&pt, gjk_v3(0, 1, 1), &cone, gjk_v3(0, 0, 0), 2 / 2.2360679774997897, gjk_v3(0, -2 / s5, -1 / s5)); // side
    expect(&pt, gjk_v3((gjk_real)0.5, 0, -3), &cone, gjk_v3(0, 0, 0), 2, gjk_v3(0, 0, 1));               // base
    // 2.6e-20 off the apex of a cone of radius 5.25 and half height 5.5,
    // across the axis (fuzz): touching, along the side's normal there (the
    // apex's own region gave a radial normal, along which the cone reaches
    // 5.25 past the point).
    gjk_shape tall = gjk_make_cone((gjk_real)5.25, (gjk_real)5.5);
    gjk_real len = (gjk_real)12.188621743248905; // √(11² + 5.25²)
    expect(&pt, gjk_v3(0, (gjk_real)-2.6e-20, (gjk_real)5.5), &tall, gjk_v3(0, 0, 0), 0,
           gjk_v3(0, 11 / len, (gjk_real)-5.25 / len));
    // Ellipsoid of radii (3, 2, 1): at the centre the nearest points are the
    // poles of the least axis; outside on the axes; a point of the plane
    // z = 0 near the centre, whose nearest point leaves the plane (x =
    // (0.1125, 0.4/3, √(1 − 0.0375² − (0.2/3)²)), with p − x along the
    // normal x_i/a_i²); a ball in a round ellipsoid.
    gjk_shape ell = gjk_make_ellipsoid(gjk_v3(3, 2, 1)), round = gjk_make_ellipsoid(gjk_v3(1, 1, 1));
    expect(&pt, gjk_v3(0, 0, 0), &ell, gjk_v3(0, 0, 0), -1, gjk_v3(0, 0, -1));
    expect(&pt, gjk_v3(0, 0, 5), &ell, gjk_v3(0, 0, 0), 4, gjk_v3(0, 0, -1));
    expect(&ball, gjk_v3(-4, 0, 0), &ell, gjk_v3(0, 0, 0), 0.5, gjk_v3(1, 0, 0));
    expect(&pt, gjk_v3((gjk_real)0.1, (gjk_real)0.1, 0), &ell, gjk_v3(0, 0, 0), -0.99770570143037,
           gjk_v3((gjk_real)-0.012528744681000877, (gjk_real)-0.03340998581600234, (gjk_real)-0.9993631989444542));
    expect(&ball, gjk_v3((gjk_real)0.3, (gjk_real)0.4, 0), &round, gjk_v3(0, 0, 0), -1,
           gjk_v3((gjk_real)-0.6, (gjk_real)-0.8, 0));
    // Triangle (0, 0, 0), (2, 0, 0), (0, 2, 0): above and below the face, on
    // it (touching along its normal), beyond a vertex and two edges, 1e-17
    // beyond an edge (touching, across the edge), and a ball through it.
    gjk_shape tri = gjk_make_triangle(gjk_v3(0, 0, 0), gjk_v3(2, 0, 0), gjk_v3(0, 2, 0));
    gjk_real r2 = (gjk_real)0.70710678118654752;
    expect(&pt, gjk_v3((gjk_real)0.5, (gjk_real)0.5, 1), &tri, gjk_v3(0, 0, 0), 1, gjk_v3(0, 0, -1));
    expect(&pt, gjk_v3((gjk_real)0.5, (gjk_real)0.5, -1), &tri, gjk_v3(0, 0, 0), 1, gjk_v3(0, 0, 1));
    expect(&pt, gjk_v3((gjk_real)0.5, (gjk_real)0.5, 0), &tri, gjk_v3(0, 0, 0), 0, gjk_v3(0, 0, -1));
    expect(&pt, gjk_v3(-1, -1, 0), &tri, gjk_v3(0, 0, 0), 1.4142135623730951, gjk_v3(r2, r2, 0));
    expect(&pt, gjk_v3(1, -1, 0), &tri, gjk_v3(0, 0, 0), 1, gjk_v3(0, 1, 0));
    expect(&pt, gjk_v3(2, 2, 0), &tri, gjk_v3(0, 0, 0), 1.4142135623730951, gjk_v3(-r2, -r2, 0));
    gjk_transform near_edge = gjk_transform_make(gjk_v3(1, (gjk_real)-1e-17, 0), gjk_quat_identity());
    gjk_penetration_output pe = run(&pt, near_edge, &tri, gjk_transform_identity());
    ENSURE(pe.status == GJK_TOUCHING); // along (0, 1, 0), or the face's normal where 1e-17 is below ε²
    ENSURE_NEAR(overlap_along(&pt, near_edge, &tri, gjk_transform_identity(), d3_of(pe.normal)), 0, 10 * TEST_REL_TOL);
    expect(&ball, gjk_v3((gjk_real)0.5, (gjk_real)0.5, (gjk_real)0.25), &tri, gjk_v3(0, 0, 0), -0.25,
           gjk_v3(0, 0, -1));
    // Degenerate cores: a cone of radius 0 (a segment) and a flat cylinder
    // (a disk), touched and missed.
    gjk_shape needle = gjk_make_cone(0, 1), disk = gjk_make_cylinder(1, 0);
    expect(&pt, gjk_v3(0, 0, (gjk_real)0.5), &needle, gjk_v3(0, 0, 0), 0, gjk_v3(-1, 0, 0));
    expect(&pt, gjk_v3(0, 0, 3), &needle, gjk_v3(0, 0, 0), 2, gjk_v3(0, 0, -1));
    expect(&pt, gjk_v3(3, 0, 0), &disk, gjk_v3(0, 0, 0), 2, gjk_v3(-1, 0, 0));
    expect(&ball, gjk_v3(0, 0, 2), &disk, gjk_v3(0, 0, 0), 1.5, gjk_v3(0, 0, -1));
}


/// The review's cases of the cone: a ball centred 1e-16 outside the side
/// just above the rim (the rim's offset, at the rounding level, gave a
/// normal 45° up, outside the rim's normal cone: the overlap along it was
/// 0.596 for a depth of 0.5), and cones far thinner than the pair, whose
/// squares underflowed (a disk 2.75e-162 wide, 1 below a point, came out
/// penetrating with a normal of length 0.875).
static void test_cone_corner_cases(void) {
    gjk_shape ball = gjk_make_sphere((gjk_real)0.5), pt = gjk_make_point();
    gjk_shape cone = gjk_make_cone((gjk_real)0.42214808163996692, (gjk_real)0.27891242298521535);
    gjk_transform tp = gjk_transform_make(
        gjk_v3((gjk_real)0.42214724263074416, (gjk_real)0.00084164812354161689, (gjk_real)-0.27891242298521529),
        gjk_quat_identity());
    gjk_penetration_output p = run(&ball, tp, &cone, gjk_transform_identity());
    ENSURE_NEAR(p.signed_distance, -0.5, 10 * TEST_REL_TOL);
    ENSURE_NEAR(overlap_along(&ball, tp, &cone, gjk_transform_identity(), d3_of(p.normal)), 0.5, 10 * TEST_REL_TOL);
#if GJK_USE_FLOAT
    const double w = 5e-23;
#else
    const double w = 2.75e-162;
#endif
    gjk_shape disk = gjk_make_cone(to_real(w), 0), needle = gjk_make_cone(0, to_real(w));
    expect(&pt, gjk_v3(to_real(0.3 * w), 0, 1), &disk, gjk_v3(0, 0, 0), 1, gjk_v3(0, 0, -1));
    expect(&pt, gjk_v3(1, 0, 0), &needle, gjk_v3(0, 0, 0), 1, gjk_v3(-1, 0, 0));
}

/// The second review's cases: a point on the least axis's plane of a
/// needle-like ellipsoid, beyond its tip, whose F(lo) rounded to 0 and took
/// the plane's closed form (0.29 for 0.3, a normal 14° off); a ball beside a
/// triangle with an edge 2e-16 long, whose edge's outward side was taken
/// from the centroid, within rounding of that edge (penetrating for apart
/// by 0.99); a ball centred on a triangle's edge, whose normal came from
/// rounding's residue (along it the shapes overlap by 0.41, not 0.1).
static void test_review_cases(void) {
    gjk_shape pt = gjk_make_point(), ball = gjk_make_sphere((gjk_real)0.5), small = gjk_make_sphere((gjk_real)0.1);
    gjk_shape needle = gjk_make_ellipsoid(gjk_v3((gjk_real)0.001, (gjk_real)0.002, 1));
    gjk_transform tp = gjk_transform_make(gjk_v3(0, (gjk_real)1e-6, (gjk_real)1.3), gjk_quat_identity());
    gjk_penetration_output p = run(&pt, tp, &needle, gjk_transform_identity());
    ENSURE_NEAR(p.signed_distance, 0.3, 10 * TEST_REL_TOL);
    ENSURE_NEAR(overlap_along(&pt, tp, &needle, gjk_transform_identity(), d3_of(p.normal)), -0.3, 10 * TEST_REL_TOL);
    // (In float the short edge rounds to nothing: the general path.)
    gjk_shape tri = gjk_make_triangle(gjk_v3(1, 1, 1), gjk_v3((gjk_real)1.0000000000000002, 1, 1),
                                      gjk_v3(0, 2, (gjk_real)1.5));
    gjk_shape walk_ball = gjk_with_margin(walk_point(), (gjk_real)0.5);
    tp = gjk_transform_make(gjk_v3(-1, 1, 1), gjk_quat_identity());
    p = run_pair(&ball, tp, &tri, gjk_transform_identity(), true);
    gjk_query_input in = {&walk_ball, tp, &tri, gjk_transform_identity(), {0}};
    gjk_penetration_output g = gjk_penetration(&in, NULL);
    ENSURE(p.status == GJK_SEPARATED && g.status == GJK_SEPARATED);
    ENSURE_NEAR(p.signed_distance, g.signed_distance, 10 * TEST_REL_TOL);
    gjk_shape flat = gjk_make_triangle(gjk_v3(0, 0, 0), gjk_v3(1, (gjk_real)0.3, 0), gjk_v3(0, 1, 0));
    tp = gjk_transform_make(gjk_v3((gjk_real)0.3, (gjk_real)0.09, 0), gjk_quat_identity());
    p = run(&small, tp, &flat, gjk_transform_identity());
    ENSURE_NEAR(p.signed_distance, -0.1, 10 * TEST_REL_TOL);
    ENSURE_NEAR(overlap_along(&small, tp, &flat, gjk_transform_identity(), d3_of(p.normal)), 0.1, 10 * TEST_REL_TOL);
    // f42 (fuzz): a point a subnormal distance from a triangle's vertex at
    // the origin: touching, along a normal of that vertex's cone (it came
    // out 0.02 off, from products of subnormal parts).
    gjk_shape at_origin = gjk_make_triangle(gjk_v3(0, 0, 0), gjk_v3((gjk_real)-5.5, (gjk_real)-5.5, (gjk_real)1.25),
                                            gjk_v3((gjk_real)-2.875, -1, (gjk_real)0.5));
    const double sub = GJK_USE_FLOAT ? 1.4e-44 : 1.5316035021078643e-322;
    gjk_transform tt = gjk_transform_make(gjk_v3(0, to_real(sub), 0), gjk_quat_identity());
    p = run(&at_origin, tt, &pt, gjk_transform_identity());
    ENSURE(p.status == GJK_TOUCHING);
    ENSURE_NEAR(overlap_along(&at_origin, tt, &pt, gjk_transform_identity(), d3_of(p.normal)), 0, 10 * TEST_REL_TOL);
}

static gjk_shape random_solid(rng *r) {
    // Some cores flat or thin: a zero extent in one parameter.
    double e[3];
    for (int k = 0; k < 3; ++k) {
        e[k] = rng_chance(r, 0.1) ? 0 : rng_range(r, 0.05, 2);
    }
    gjk_shape s;
    switch (rng_int(r, 5)) {
    case 4: { // a triangle, some thin (a vertex 1e-4 off the opposite edge)
        d3 v[3];
        for (int k = 0; k < 3; ++k) {
            v[k] = d3_scale(e[k] + 0.05, rng_box(r, -1, 1));
        }
        if (rng_chance(r, 0.2)) {
            v[2] = d3_add(d3_add(d3_scale(0.7, v[0]), d3_scale(0.3, v[1])), d3_scale(1e-4, rng_box(r, -1, 1)));
        }
        s = gjk_make_triangle(to_real3(v[0]), to_real3(v[1]), to_real3(v[2]));
        break;
    }
    case 0: s = gjk_make_box(to_real3(d3_make(e[0], e[1], e[2]))); break;
    case 1: s = gjk_make_cylinder(to_real(e[0] + 0.05), to_real(e[1])); break;
    case 2: s = gjk_make_cone(to_real(e[0]), to_real(e[1] + 0.05)); break;
    default: // some round about an axis, or flat (radius 1e-4)
        for (int k = 0; k < 3; ++k) {
            e[k] = e[k] > 0 ? e[k] : 1e-4;
        }
        e[2] = rng_chance(r, 0.2) ? e[0] : e[2];
        s = gjk_make_ellipsoid(to_real3(d3_make(e[0], e[1], e[2])));
        break;
    }
    return rng_chance(r, 0.3) ? gjk_with_margin(s, to_real(rng_range(r, 0, 0.5))) : s;
}

static void test_random_poses(void) {
    rng r = {20261125};
    int inside = 0, compared = 0, walked = 0;
    for (int k = 0; k < 8000; ++k) {
        gjk_shape solid = random_solid(&r);
        double rad = rng_chance(&r, 0.3) ? 0 : rng_range(&r, 0.01, 1);
        gjk_shape ball = gjk_make_sphere(to_real(rad));
        gjk_shape custom = gjk_with_margin(gjk_make_custom(origin_support, NULL, 0), to_real(rad));
        d3 off = d3_make(50, -20, 10); // away from the world origin
        gjk_transform ts = gjk_transform_make(to_real3(off), rng_quat(&r));
        gjk_transform tp = gjk_transform_make(to_real3(d3_add(off, rng_box(&r, -1.5, 1.5))), rng_quat(&r));
        bool ball_first = rng_chance(&r, 0.5);
        const gjk_shape *a = ball_first ? &ball : &solid, *b = ball_first ? &solid : &ball;
        gjk_transform ta = ball_first ? tp : ts, tb = ball_first ? ts : tp;
        gjk_penetration_output p = run_pair(a, ta, b, tb, solid.type == GJK_SHAPE_TRIANGLE);
        if (p.iterations > 0) {
            ++walked; // a sliver: the general path, checked by the fuzzer and test_reference
            continue;
        }
        // Along the normal, A reaches past B by exactly minus the signed
        // distance, and along no direction by less (the depth is the least
        // such overlap, the distance the greatest such gap). The closed form
        // is exact but for rounding at the coordinates' size (about 60).
        double tol = 60 * 256 * (double)GJK_REAL_EPSILON;
        d3 n = d3_of(p.normal);
        ENSURE_NEAR(overlap_along(a, ta, b, tb, n), -p.signed_distance, tol);
        for (int j = 0; j < 64; ++j) {
            d3 m = rng_dir3(&r, 0.1);
            double o = overlap_along(a, ta, b, tb, m);
            ENSURE(o >= -p.signed_distance - tol);
        }
        inside += p.signed_distance < -(rad + solid.margin);
        // The general path on the same pair.
        gjk_query_input gin = {ball_first ? &custom : &solid, ta, ball_first ? &solid : &custom, tb, {0}};
        gjk_penetration_output g = gjk_penetration(&gin, NULL);
        if (g.status != GJK_NOT_CONVERGED) {
            ENSURE_NEAR(p.signed_distance, g.signed_distance, 10 * TEST_REL_TOL * 60);
            // The statuses agree away from the touching band, whose edge
            // each path draws at its own tolerance scale (in float the band
            // itself is about 7e-6 wide at these sizes).
            ENSURE(p.status == g.status || fabs(g.signed_distance) < (GJK_USE_FLOAT ? 1e-5 : 1e-6));
            ++compared;
        }
    }
    // (Slivers 1e-4 thin walk in float, where the regions' quartics cannot
    // tell them apart: about 300 of the 8000.)
    ENSURE(inside > 900 && compared > 6500 && walked < (GJK_USE_FLOAT ? 400 : 10));
}

static void count_event(void *user, const gjk_trace_event *event) {
    (void)event;
    ++*(int *)user;
}

/// A traced query skips the closed form, so that its events show GJK and
/// EPA, and gives the same answer within the tolerance.
static void test_traced_query_walks(void) {
    gjk_shape ball = gjk_make_sphere((gjk_real)0.5), cyl = gjk_make_cylinder(1, 2);
    gjk_query_input in = {&ball, gjk_transform_make(gjk_v3((gjk_real)0.2, 0, (gjk_real)0.4), gjk_quat_identity()), &cyl,
                          gjk_transform_identity(), {0}};
    gjk_penetration_output plain = gjk_penetration(&in, NULL);
    int events = 0;
    in.options.trace = count_event;
    in.options.trace_data = &events;
    gjk_penetration_output traced = gjk_penetration(&in, NULL);
    ENSURE(events > 0 && traced.iterations > 0);
    ENSURE(plain.iterations == 0);
    ENSURE_NEAR(traced.signed_distance, plain.signed_distance, 1e3 * TEST_REL_TOL);
}

/// A triangle's corner deep inside a cylinder or a cone, near its axis
/// (within 1e-4 to 1e-2 of the centre): the depth is reached along a whole
/// arc of directions square to the axis, and EPA, refining chords of that
/// arc, ran out of vertices and answered not converged (in 21% of such
/// poses before). Where the corner is the triangle's support point along the
/// corner's own normal in the other shape, the corner's depth in it (its
/// closed form, through the point query) is the depth: D holds the corner
/// minus the solid, whose depth is at most D's, and the overlap along that
/// normal is the corner's depth. EPA's run now ends converged there, either
/// way round, with that depth.
static void test_polytope_corner_near_axis(void) {
    rng r = {20261128};
    gjk_shape tri = gjk_make_triangle(gjk_v3(0, 0, 0), gjk_v3(1, 0, 0), gjk_v3(0, 1, 0)), pt = gjk_make_point();
    gjk_shape solids[2] = {gjk_make_cylinder((gjk_real)0.4, (gjk_real)0.6), gjk_make_cone((gjk_real)0.5, (gjk_real)0.5)};
    int checked = 0;
    for (int k = 0; k < 2; ++k) {
        const gjk_shape *b = &solids[k];
        for (int q = 0; q < 300; ++q) {
            double s = pow(10, rng_range(&r, -4, -2));
            d3 centre = d3_make(0.3, -0.2, 0.1);
            gjk_transform tb = gjk_transform_make(to_real3(centre), rng_quat(&r));
            gjk_transform ta = gjk_transform_make(to_real3(d3_add(centre, d3_scale(s, rng_dir3(&r, 0.1)))), rng_quat(&r));
            // The corner's own answer (the point query's closed form).
            gjk_query_input pin = {&pt, ta, b, tb, {0}};
            gjk_penetration_output c = gjk_penetration(&pin, NULL);
            ENSURE(c.status == GJK_PENETRATING && c.iterations == 0);
            // Is the corner the triangle's support along that normal?
            bool corner_supports = true;
            for (int v = 1; v < 3; ++v) {
                d3 edge = d3_of(gjk_quat_rotate(ta.rotation, v == 1 ? tri.triangle.b : tri.triangle.c));
                corner_supports = corner_supports && d3_dot(edge, d3_of(c.normal)) < 0;
            }
            if (!corner_supports) {
                continue;
            }
            ++checked;
            for (int swap = 0; swap < 2; ++swap) {
                gjk_query_input in = {swap ? b : &tri, swap ? tb : ta, swap ? &tri : b, swap ? ta : tb, {0}};
                gjk_penetration_output o = gjk_penetration(&in, NULL);
                ENSURE(o.status == GJK_PENETRATING);
                ENSURE_NEAR(o.depth, c.depth, 4 * TEST_REL_TOL);
                ENSURE_NEAR(overlap_along(in.shape_a, in.transform_a, in.shape_b, in.transform_b, d3_of(o.normal)),
                            o.depth, 4 * TEST_REL_TOL);
                ENSURE_VEC_NEAR(gjk_sub(o.point_a, o.point_b), gjk_scale(o.depth, o.normal), 4 * TEST_REL_TOL);
            }
        }
    }
    ENSURE(checked > 100);
    printf("  %d poses with the corner supporting its own normal\n", checked);
}

/// A segment from the centre of a cylinder, cone or box out through its
/// side (fuzz finding f78): the depth is the radius along a whole half
/// circle of directions, EPA runs out of iterations between its bounds, and
/// the segment's end inside proves the lower bound (its depth in the solid),
/// within the tolerance of EPA's upper bound. The answer is the upper
/// bound's depth and normal; its witnesses were taken from EPA's polytope,
/// whose chords along that normal lie far inside the solid (a point 1.2e-4
/// inside the unit cylinder, for the depth 1). Every converged answer's
/// witnesses must lie on their shapes' supporting planes along the normal,
/// depth apart along it.
static void test_segment_from_centre(void) {
    gjk_shape cyl = gjk_make_cylinder(1, 1);
    gjk_shape seg = gjk_make_segment(gjk_v3((gjk_real)-5.125, (gjk_real)-5.25, (gjk_real)0.5), gjk_v3(0, 0, 0));
    gjk_query_input in = {&cyl, gjk_transform_identity(), &seg, gjk_transform_identity(), {0}};
    gjk_penetration_output o = gjk_penetration(&in, NULL);
    ENSURE(o.status == GJK_PENETRATING);
    ENSURE_NEAR(o.depth, 1, 8 * TEST_REL_TOL);
    ENSURE_VEC_NEAR(gjk_sub(o.point_a, o.point_b), gjk_scale(o.depth, o.normal), 8 * TEST_REL_TOL);
    ENSURE_NEAR(world_support(&cyl, in.transform_a, d3_of(o.normal)), gjk_dot(o.point_a, o.normal), 8 * TEST_REL_TOL);
    rng r = {20261129};
    gjk_shape solids[3] = {cyl, gjk_make_cone(1, 1), gjk_make_box(gjk_v3(1, (gjk_real)0.8, (gjk_real)0.6))};
    int converged = 0, answers = 0;
    for (int k = 0; k < 3; ++k) {
        for (int q = 0; q < 200; ++q) {
            // One end at the centre (or within 1e-9 of it), the other 3 to
            // 8 away in a random direction; random poses.
            d3 far = d3_scale(rng_range(&r, 3, 8), rng_dir3(&r, 0.1));
            d3 near = q % 2 ? d3_scale(1e-9, rng_dir3(&r, 0.1)) : d3_make(0, 0, 0);
            gjk_shape s = gjk_make_segment(to_real3(far), to_real3(near));
            gjk_transform ts = gjk_transform_make(to_real3(d3_make(0.3, -0.2, 0.1)), rng_quat(&r));
            gjk_transform tk = gjk_transform_make(gjk_v3(0, 0, 0), rng_quat(&r));
            // The solid's centre at the segment's end.
            tk.position = gjk_transform_point(ts, to_real3(near));
            for (int swap = 0; swap < 2; ++swap) {
                gjk_query_input qi = {swap ? &s : &solids[k], swap ? ts : tk, swap ? &solids[k] : &s, swap ? tk : ts, {0}};
                gjk_penetration_output p = gjk_penetration(&qi, NULL);
                ENSURE(p.status == GJK_PENETRATING || p.status == GJK_NOT_CONVERGED);
                answers += 1;
                if (p.status != GJK_PENETRATING) {
                    continue;
                }
                ++converged;
                double tol = 8 * TEST_REL_TOL * 10; // the pair's size: up to about 10
                d3 n = d3_of(p.normal);
                ENSURE_VEC_NEAR(gjk_sub(p.point_a, p.point_b), gjk_scale(p.depth, p.normal), tol);
                ENSURE_NEAR(overlap_along(qi.shape_a, qi.transform_a, qi.shape_b, qi.transform_b, n), p.depth, tol);
                ENSURE_NEAR(world_support(qi.shape_a, qi.transform_a, n), d3_dot(d3_of(p.point_a), n), tol);
                ENSURE_NEAR(-world_support(qi.shape_b, qi.transform_b, d3_scale(-1, n)), d3_dot(d3_of(p.point_b), n), tol);
            }
        }
    }
    ENSURE(converged > answers / 2);
    printf("  %d of %d answers converged\n", converged, answers);
}

/// A segment's end exactly on the axis of a cone or cylinder lies as deep
/// along every radial direction, and the closed form picks one by rounding:
/// where the segment lay ahead of its end along that one, EPA ran to its
/// cap and answered not converged, 1.3e5 tolerances too deep, while the
/// same pair the other way round converged (a review's pair). The
/// certificate now also tries the point's normal turned about the axis
/// (epa.c, turned_bound): both orders converge, to the same depth.
static void test_corner_on_axis_either_order(void) {
    gjk_shape seg = gjk_make_segment(gjk_v3((gjk_real)-0.06224728492921678, (gjk_real)0.6844728238012262,
                                            (gjk_real)-0.54333657941279045),
                                     gjk_v3((gjk_real)-0.35453472743464232, (gjk_real)-0.20876059172861441,
                                            (gjk_real)-0.21353273470456594));
    gjk_transform ts = gjk_transform_make(
        gjk_v3((gjk_real)-1.7021230242547607, (gjk_real)-0.78295051913626046, (gjk_real)-0.1725025994558865),
        gjk_quat_make((gjk_real)0.093357767554246573, (gjk_real)0.832302766109142, (gjk_real)0.2471586186225449,
                      (gjk_real)-0.48730796218095324));
    gjk_shape cone = gjk_make_cone((gjk_real)0.4140032560467542, (gjk_real)0.50909131374881622);
    gjk_transform tc = gjk_transform_make(
        gjk_v3((gjk_real)-0.90159687331527838, (gjk_real)-1.1813048327937115, (gjk_real)0.10968280731097019),
        gjk_quat_make((gjk_real)-0.50246328462725165, (gjk_real)-0.43368779065484814, (gjk_real)0.63052497496154913,
                      (gjk_real)0.40234786415271023));
    gjk_query_input one = {&seg, ts, &cone, tc, {0}}, other = {&cone, tc, &seg, ts, {0}};
    gjk_penetration_output p = gjk_penetration(&one, NULL), q = gjk_penetration(&other, NULL);
    ENSURE(p.status == GJK_PENETRATING && q.status == GJK_PENETRATING);
    ENSURE_NEAR(p.depth, q.depth, 4 * TEST_REL_TOL);
    // Random segments from a point on the axis (the cone's or cylinder's own
    // frame: exactly on it) outward: both orders answer alike.
    rng r = {20261129};
    gjk_shape solids[2] = {gjk_make_cylinder((gjk_real)0.5, (gjk_real)0.7), gjk_make_cone((gjk_real)0.5, (gjk_real)0.7)};
    int both = 0, total = 0;
    for (int k = 0; k < 2; ++k) {
        for (int i = 0; i < 150; ++i) {
            gjk_transform tk = gjk_transform_make(gjk_v3(0, 0, 0), rng_quat(&r));
            // On the axis (the solid's frame), nearer its side than its ends.
            gjk_vec3 end = gjk_v3(0, 0, (gjk_real)rng_range(&r, -0.1, 0.1));
            gjk_vec3 e = gjk_transform_point(tk, end);
            gjk_shape s = gjk_make_segment(e, gjk_add(e, to_real3(d3_scale(rng_range(&r, 1, 3), rng_dir3(&r, 0.1)))));
            gjk_query_input x = {&s, gjk_transform_identity(), &solids[k], tk, {0}};
            gjk_query_input y = {&solids[k], tk, &s, gjk_transform_identity(), {0}};
            gjk_penetration_output a = gjk_penetration(&x, NULL), b = gjk_penetration(&y, NULL);
            ++total;
            ENSURE(a.status == b.status);
            if (a.status == GJK_PENETRATING && b.status == GJK_PENETRATING) {
                ++both;
                ENSURE_NEAR(a.depth, b.depth, 8 * TEST_REL_TOL);
            }
        }
    }
    ENSURE(both == total);
    printf("  %d of %d pairs converged both ways\n", both, total);
}

/// gjk_distance of a point core inside the other core, penetrating: a zero
/// normal (gjk.h: the direction is gjk_penetration's to give), as the
/// general path answers the same pair (the point given as a user shape);
/// touching, the unit normal. (The closed form gave its unit normal: a
/// review.)
static void test_distance_normal_inside(void) {
    gjk_shape box = gjk_make_box(gjk_v3(1, 1, 1)), cyl = gjk_make_cylinder(1, 1), pt = gjk_make_point();
    gjk_shape ball = gjk_make_sphere((gjk_real)0.25), custom = gjk_make_custom(origin_support, NULL, 0);
    const gjk_shape *solids[2] = {&box, &cyl}, *points[3] = {&pt, &ball, &custom};
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 3; ++j) {
            gjk_transform inside = gjk_transform_make(gjk_v3((gjk_real)0.5, (gjk_real)0.1, 0), gjk_quat_identity());
            gjk_query_input in = {solids[i], gjk_transform_identity(), points[j], inside, {0}};
            gjk_distance_output d = gjk_distance(&in, NULL);
            ENSURE(d.status == GJK_PENETRATING && d.distance == 0);
            ENSURE(d.normal.x == 0 && d.normal.y == 0 && d.normal.z == 0);
            if (j != 1) {
                // A point on the side, within the tolerance: touching, unit.
                in.transform_b = gjk_transform_make(gjk_v3((gjk_real)(1 - 1e-12), 0, (gjk_real)0.1), gjk_quat_identity());
                d = gjk_distance(&in, NULL);
                ENSURE(d.status == GJK_TOUCHING);
                // (The general path's normal on a curved side: to about
                // √(2·R·tolerance), README "Tolerances".)
                ENSURE_VEC_NEAR(d.normal, gjk_v3(1, 0, 0), j == 2 ? 4 * sqrt(2 * (GJK_USE_FLOAT ? 2e-6 : 1e-10)) : 1e-6);
            }
        }
    }
}

int main(void) {
    RUN_TEST(test_exact_answers);
    RUN_TEST(test_traced_query_walks);
    RUN_TEST(test_cone_corner_cases);
    RUN_TEST(test_review_cases);
    RUN_TEST(test_random_poses);
    RUN_TEST(test_polytope_corner_near_axis);
    RUN_TEST(test_distance_normal_inside);
    RUN_TEST(test_segment_from_centre);
    RUN_TEST(test_corner_on_axis_either_order);
    return TEST_SUMMARY();
}
