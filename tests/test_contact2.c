// Contact manifolds in 2D (gjk2_contact): known configurations with their
// exact points, polygon pairs against gjk2_penetration, id stability, the
// speculative distance and invalid input.
#include <math.h>
#include <string.h>

#include "gjk/gjk2d.h"
#include "test_util.h"

#if GJK_USE_FLOAT
#define CTOL 2e-4
#else
#define CTOL 1e-8
#endif

#define ENSURE_VEC2_NEAR(u, v, tol)      \
    do {                                 \
        ENSURE_NEAR((u).x, (v).x, tol);  \
        ENSURE_NEAR((u).y, (v).y, tol);  \
    } while (0)

static gjk_transform2 pose2(double x, double y, double angle) {
    return gjk_transform2_make(gjk_v2((gjk_real)x, (gjk_real)y), (gjk_real)angle);
}

static gjk2_manifold contact2(const gjk2_shape *a, gjk_transform2 xa, const gjk2_shape *b, gjk_transform2 xb,
                              double spec) {
    gjk2_contact_input in;
    memset(&in, 0, sizeof in);
    in.shape_a = a;
    in.transform_a = xa;
    in.shape_b = b;
    in.transform_b = xb;
    in.speculative_distance = (gjk_real)spec;
    return gjk2_contact(&in, NULL);
}

static double dist2(gjk_vec2 a, gjk_vec2 b) { return (double)gjk_length2(gjk_sub2(a, b)); }

static int find_b(const gjk2_manifold *m, double x, double y) {
    for (int k = 0; k < m->point_count; ++k) {
        if (dist2(m->points[k].point_b, gjk_v2((gjk_real)x, (gjk_real)y)) <= CTOL) {
            return k;
        }
    }
    return -1;
}

static int find_a(const gjk2_manifold *m, double x, double y) {
    for (int k = 0; k < m->point_count; ++k) {
        if (dist2(m->points[k].point_a, gjk_v2((gjk_real)x, (gjk_real)y)) <= CTOL) {
            return k;
        }
    }
    return -1;
}

static void check_contract2(const gjk2_manifold *m, double size) {
    ENSURE(m->point_count >= 0 && m->point_count <= GJK2_MAX_CONTACT_POINTS);
    ENSURE(vec2_finite(m->normal));
    if (m->point_count > 0) {
        ENSURE_NEAR(gjk_length2(m->normal), 1, CTOL);
    }
    for (int k = 0; k < m->point_count; ++k) {
        const gjk2_contact_point *c = &m->points[k];
        ENSURE(vec2_finite(c->point_a) && vec2_finite(c->point_b) && isfinite((double)c->separation));
        ENSURE_NEAR(c->separation, gjk_dot2(gjk_sub2(c->point_b, c->point_a), m->normal), CTOL * size);
        for (int j = 0; j < k; ++j) {
            ENSURE(m->points[j].id != c->id);
        }
    }
}

static void test_box_on_box2(void) {
    gjk2_shape a = gjk2_make_box(gjk_v2(2, 1));
    gjk2_shape b = gjk2_make_box(gjk_v2((gjk_real)0.5, (gjk_real)0.5));
    gjk2_manifold m = contact2(&a, pose2(0, 0, 0), &b, pose2(0.3, 1.49, 0), 0);
    check_contract2(&m, 1);
    ENSURE(m.status == GJK_PENETRATING);
    ENSURE(m.point_count == 2);
    ENSURE_VEC2_NEAR(m.normal, gjk_v2(0, 1), CTOL);
    int i = find_b(&m, -0.2, 0.99), j = find_b(&m, 0.8, 0.99);
    ENSURE(i >= 0 && j >= 0);
    ENSURE(find_a(&m, -0.2, 1) >= 0 && find_a(&m, 0.8, 1) >= 0);
    for (int k = 0; k < m.point_count; ++k) {
        ENSURE_NEAR(m.points[k].separation, -0.01, CTOL);
    }
    // A big box on a small one: A's top corners.
    m = contact2(&b, pose2(0, 0, 0), &a, pose2(0.4, 1.49, 0), 0);
    check_contract2(&m, 1);
    ENSURE(m.point_count == 2);
    ENSURE(find_a(&m, -0.5, 0.5) >= 0 && find_a(&m, 0.5, 0.5) >= 0);
    ENSURE(find_b(&m, -0.5, 0.49) >= 0 && find_b(&m, 0.5, 0.49) >= 0);
    // Overhanging the end x = 2: a corner and the crossing at x = 2.
    m = contact2(&a, pose2(0, 0, 0), &b, pose2(1.8, 1.49, 0), 0);
    check_contract2(&m, 1);
    ENSURE(m.point_count == 2);
    ENSURE(find_b(&m, 1.3, 0.99) >= 0 && find_b(&m, 2, 0.99) >= 0);
    // Resting exactly: touching, two points at separation 0.
    m = contact2(&a, pose2(0, 0, 0), &b, pose2(0.3, 1.5, 0), 0);
    check_contract2(&m, 1);
    ENSURE(m.status == GJK_TOUCHING);
    ENSURE(m.point_count == 2);
    for (int k = 0; k < m.point_count; ++k) {
        ENSURE_NEAR(m.points[k].separation, 0, CTOL);
    }
    // Turned a little (within the flat tolerance): still two points, the
    // lower corner at the depth, the other above it.
    m = contact2(&a, pose2(0, 0, 0), &b, pose2(0, 1.49, 0.02), 0.05);
    check_contract2(&m, 1);
    ENSURE(m.point_count == 2);
}

/// A box turned by 30° rests on one corner: one point.
static void test_box_on_corner2(void) {
    gjk2_shape a = gjk2_make_box(gjk_v2(2, 1));
    gjk2_shape b = gjk2_make_box(gjk_v2((gjk_real)0.5, (gjk_real)0.5));
    double th = 0.5235987755982988;
    double low = 0.5 * sin(th) + 0.5 * cos(th);
    gjk_transform2 xb = pose2(0.1, 1 + low - 0.01, th);
    gjk2_manifold m = contact2(&a, pose2(0, 0, 0), &b, xb, 0);
    check_contract2(&m, 1);
    ENSURE(m.point_count == 1);
    // The lowest corner: local (−0.5, −0.5) turned by +30°.
    gjk_vec2 c = gjk_transform2_point(xb, gjk_v2((gjk_real)-0.5, (gjk_real)-0.5));
    ENSURE_NEAR(c.y, 0.99, CTOL);
    ENSURE_VEC2_NEAR(m.points[0].point_b, c, CTOL);
    ENSURE_NEAR(m.points[0].separation, -0.01, CTOL);
}

static void test_round_shapes2(void) {
    gjk2_shape a = gjk2_make_box(gjk_v2(2, 1));
    // A circle: one point below its centre.
    gjk2_shape c = gjk2_make_circle((gjk_real)0.5);
    gjk2_manifold m = contact2(&a, pose2(0, 0, 0), &c, pose2(0.3, 1.49, 0), 0);
    check_contract2(&m, 1);
    ENSURE(m.point_count == 1);
    ENSURE_VEC2_NEAR(m.points[0].point_a, gjk_v2((gjk_real)0.3, 1), CTOL);
    ENSURE_VEC2_NEAR(m.points[0].point_b, gjk_v2((gjk_real)0.3, (gjk_real)0.99), CTOL);
    ENSURE_NEAR(m.points[0].separation, -0.01, CTOL);
    // A capsule lying flat: its two ends.
    gjk2_shape cap = gjk2_make_capsule(gjk_v2((gjk_real)-0.6, 0), gjk_v2((gjk_real)0.6, 0), (gjk_real)0.25);
    m = contact2(&a, pose2(0, 0, 0), &cap, pose2(0.1, 1.24, 0), 0);
    check_contract2(&m, 1);
    ENSURE(m.point_count == 2);
    ENSURE(find_b(&m, -0.5, 0.99) >= 0 && find_b(&m, 0.7, 0.99) >= 0);
    for (int k = 0; k < m.point_count; ++k) {
        ENSURE_NEAR(m.points[k].separation, -0.01, CTOL);
    }
    // Two parallel capsules: the ends of their overlap.
    m = contact2(&cap, pose2(0, 0, 0), &cap, pose2(0.4, 0.49, 0), 0);
    check_contract2(&m, 1);
    ENSURE(m.point_count == 2);
    ENSURE(find_a(&m, -0.2, 0.25) >= 0 && find_a(&m, 0.6, 0.25) >= 0);
    // A rounded box: its corners pushed down by the margin.
    gjk2_shape rb = gjk2_with_margin(gjk2_make_box(gjk_v2((gjk_real)0.4, (gjk_real)0.4)), (gjk_real)0.1);
    m = contact2(&a, pose2(0, 0, 0), &rb, pose2(0, 1.49, 0), 0);
    check_contract2(&m, 1);
    ENSURE(m.point_count == 2);
    ENSURE(find_b(&m, -0.4, 0.99) >= 0 && find_b(&m, 0.4, 0.99) >= 0);
    // An ellipse: one point.
    gjk2_shape e = gjk2_make_ellipse(gjk_v2((gjk_real)0.7, (gjk_real)0.3));
    m = contact2(&a, pose2(0, 0, 0), &e, pose2(0, 1.29, 0), 0);
    ENSURE(m.point_count == 1);
    ENSURE_NEAR(m.points[0].separation, -0.01, CTOL);
}

/// Review findings. A capsule tilted 30° on a box: its core was the
/// incident edge at any angle, and the upper end's point, moved back by the
/// radius along the normal, lay 0.034 inside the capsule (and capsules
/// along the normal gave two points at one point_a). A segment core is now
/// the incident edge only when nearly perpendicular to the normal (as in
/// 3D), else its supporting end: every point on the capsule's surface.
/// And far from the world origin the clip's tolerance grew with the world
/// coordinates (as in 3D): a square of half 1e-3 on a box at x = 1e6 had
/// its points outside its edge.
static void test_tilted_capsule_far_offsets2(void) {
    gjk2_shape box = gjk2_make_box(gjk_v2(2, 1));
    gjk2_shape cap = gjk2_make_capsule(gjk_v2((gjk_real)-0.5, 0), gjk_v2((gjk_real)0.5, 0), (gjk_real)0.25);
    const double angles[4] = {0.5236, 1.2, 1.5707963267948966, -0.3};
    for (int k = 0; k < 4; ++k) {
        // The lower end's ball 0.05 into the box's top (y = 1).
        double c = 1 + 0.25 - 0.05 + 0.5 * fabs(sin(angles[k]));
        gjk_transform2 xb = pose2(0, c, angles[k]);
        // (A speculative distance that takes in the upper end too.)
        gjk2_manifold m = contact2(&box, pose2(0, 0, 0), &cap, xb, 2);
        check_contract2(&m, 1);
        ENSURE(m.point_count >= 1);
        gjk_vec2 e0 = gjk_transform2_point(xb, cap.capsule.a), e1 = gjk_transform2_point(xb, cap.capsule.b);
        for (int j = 0; j < m.point_count; ++j) {
            // point_b's distance to the core segment is the radius.
            gjk_vec2 p = m.points[j].point_b, e = gjk_sub2(e1, e0);
            double t = fmin(fmax((double)gjk_dot2(gjk_sub2(p, e0), e) / (double)gjk_dot2(e, e), 0), 1);
            gjk_vec2 f = gjk_add2(e0, gjk_scale2((gjk_real)t, e));
            ENSURE_NEAR(gjk_length2(gjk_sub2(p, f)), 0.25, CTOL);
            ENSURE_NEAR(m.points[j].separation, -0.05, CTOL);
        }
    }
#if GJK_USE_FLOAT
    const double h = 0.1, offsets[3] = {0, 10, 100};
#else
    const double h = 1e-3, offsets[3] = {0, 1e3, 1e6};
#endif
    gjk2_shape sq = gjk2_make_box(gjk_v2((gjk_real)h, (gjk_real)h)), floor_box = gjk2_make_box(gjk_v2(1, 1));
    for (int k = 0; k < 3; ++k) {
        double x = offsets[k], depth = 1e-3 * h;
        gjk2_manifold m = contact2(&sq, pose2(x, 1 + h - depth, 0), &floor_box, pose2(x, 0, 0), 0);
        check_contract2(&m, 1);
        ENSURE(m.status == GJK_PENETRATING && m.point_count == 2);
        double slack = 1e-3 * h + 32 * (double)GJK_REAL_EPSILON * x;
        for (int j = 0; j < m.point_count; ++j) {
            ENSURE(fabs((double)m.points[j].point_a.x - x) <= h + slack);
            ENSURE_NEAR(m.points[j].separation, -depth, 1e-3 * h);
        }
    }
}

/// The incident points of rounded shapes lie on their surfaces along the
/// normal (review finding, as in 3D): a capsule turned 2° on a box (its
/// core still the incident edge), and a rounded square turned 3°, 8° and
/// 20°, each end 0.01 into the box.
static void test_rounded_points_on_surface2(void) {
    gjk2_shape box = gjk2_make_box(gjk_v2(4, 1));
    gjk2_shape cap = gjk2_make_capsule(gjk_v2(-1, 0), gjk_v2(1, 0), (gjk_real)0.5);
    for (int k = 0; k < 4; ++k) {
        double tilt = 0.6 * k * 3.14159265358979323846 / 180;
        gjk_transform2 xb = pose2(0, 1 + 0.5 - 0.01 + sin(tilt), tilt);
        gjk2_manifold m = contact2(&box, pose2(0, 0, 0), &cap, xb, 0.5);
        check_contract2(&m, 1);
        ENSURE(m.point_count == 2);
        gjk_vec2 e0 = gjk_transform2_point(xb, cap.capsule.a), e1 = gjk_transform2_point(xb, cap.capsule.b);
        for (int j = 0; j < m.point_count; ++j) {
            gjk_vec2 p = m.points[j].point_b, e = gjk_sub2(e1, e0);
            double t = fmin(fmax((double)gjk_dot2(gjk_sub2(p, e0), e) / (double)gjk_dot2(e, e), 0), 1);
            ENSURE_NEAR(gjk_length2(gjk_sub2(p, gjk_add2(e0, gjk_scale2((gjk_real)t, e)))), 0.5, CTOL);
            ENSURE_NEAR(m.points[j].point_a.y, 1, CTOL);
        }
    }
    gjk2_shape rb = gjk2_with_margin(gjk2_make_box(gjk_v2((gjk_real)0.5, (gjk_real)0.5)), (gjk_real)0.2);
    const double tilts[3] = {3, 8, 20};
    for (int k = 0; k < 3; ++k) {
        double tilt = tilts[k] * 3.14159265358979323846 / 180;
        gjk_transform2 xb = pose2(0, 1 + 0.5 * (cos(tilt) + sin(tilt)) + 0.2 - 0.01, tilt);
        gjk2_manifold m = contact2(&box, pose2(0, 0, 0), &rb, xb, 0.6);
        check_contract2(&m, 1);
        ENSURE(m.point_count >= 1);
        double deepest = 1e300;
        for (int j = 0; j < m.point_count; ++j) {
            gjk_vec2 local = gjk_rot2_inv_apply(xb.rotation, gjk_sub2(m.points[j].point_b, xb.position));
            double qx = fabs((double)local.x) - 0.5, qy = fabs((double)local.y) - 0.5;
            double sdf = sqrt(fmax(qx, 0) * fmax(qx, 0) + fmax(qy, 0) * fmax(qy, 0)) + fmin(fmax(qx, qy), 0) - 0.2;
            ENSURE_NEAR(sdf, 0, CTOL);
            deepest = fmin(deepest, (double)m.points[j].separation);
        }
        ENSURE_NEAR(deepest, -0.01, CTOL);
    }
}

/// max over the hull's edges of the signed distance of p to the edge line:
/// 0 exactly on the boundary of a convex polygon.
static double polygon_boundary(const gjk_vec2 *hull, int n, gjk_vec2 p) {
    double best = -1e300;
    for (int i = 0; i < n; ++i) {
        gjk_vec2 a = hull[i], b = hull[(i + 1) % n];
        gjk_vec2 e = gjk_sub2(b, a);
        gjk_vec2 nn = gjk_normalize2(gjk_v2(e.y, -e.x)); // outward for counter-clockwise
        double d = (double)gjk_dot2(nn, gjk_sub2(p, a));
        best = d > best ? d : best;
    }
    return best;
}

/// Polygons (given as clouds with an interior point, in no order) in random
/// poses near contact, against gjk2_penetration.
static void test_polygon_pairs2(void) {
    gjk_vec2 pa[6] = {gjk_v2(1, 0), gjk_v2((gjk_real)-0.8, (gjk_real)0.5), gjk_v2(0, 0),
                      gjk_v2((gjk_real)0.2, (gjk_real)-0.7), gjk_v2((gjk_real)0.3, (gjk_real)0.8),
                      gjk_v2((gjk_real)-0.6, (gjk_real)-0.6)};
    gjk_vec2 pb[5] = {gjk_v2((gjk_real)0.5, (gjk_real)0.5), gjk_v2((gjk_real)-0.5, (gjk_real)-0.5),
                      gjk_v2((gjk_real)0.5, (gjk_real)-0.5), gjk_v2((gjk_real)0.1, 0),
                      gjk_v2((gjk_real)-0.5, (gjk_real)0.5)};
    gjk_vec2 ha[6], hb[5];
    int na = gjk2_convex_hull(pa, 6, ha), nb = gjk2_convex_hull(pb, 5, hb);
    ENSURE(na == 5 && nb == 4);
    gjk2_shape a = gjk2_make_polygon(pa, 6), b = gjk2_make_polygon(pb, 5);
    rng r = {4242};
    int cases = 0, two = 0;
    double spec = 0.05;
    for (int trial = 0; trial < 4000; ++trial) {
        double angle = rng_chance(&r, 0.5) ? rng_range(&r, -0.02, 0.02) + 1.5707963267948966 * rng_int(&r, 4)
                                           : rng_range(&r, -3.14, 3.14);
        gjk_transform2 xa = pose2(0, 0, rng_chance(&r, 0.7) ? 0 : rng_range(&r, -3, 3));
        gjk_transform2 xb = pose2(rng_range(&r, -1.6, 1.6), rng_range(&r, -1.6, 1.6), angle);
        gjk2_query_input q;
        memset(&q, 0, sizeof q);
        q.shape_a = &a;
        q.transform_a = xa;
        q.shape_b = &b;
        q.transform_b = xb;
        gjk2_penetration_output pen = gjk2_penetration(&q, NULL);
        if (pen.status == GJK_NOT_CONVERGED || pen.signed_distance < -0.2 || pen.signed_distance > 0.1) {
            continue;
        }
        ++cases;
        gjk2_manifold m = contact2(&a, xa, &b, xb, spec);
        check_contract2(&m, 2);
        if (pen.signed_distance > spec + 10 * CTOL) {
            ENSURE(m.point_count == 0 && m.status == GJK_SEPARATED);
            continue;
        }
        if (pen.signed_distance < -10 * CTOL) {
            ENSURE(m.status == GJK_PENETRATING);
        }
        if (pen.signed_distance > spec - 10 * CTOL) {
            continue;
        }
        ENSURE(m.point_count >= 1);
        two += m.point_count == 2;
        double min_sep = 1e300;
        for (int k = 0; k < m.point_count; ++k) {
            const gjk2_contact_point *c = &m.points[k];
            min_sep = fmin(min_sep, (double)c->separation);
            ENSURE(c->separation <= spec + CTOL);
            ENSURE_NEAR(polygon_boundary(ha, na, gjk_inv_transform2_point(xa, c->point_a)), 0, 10 * CTOL);
            ENSURE_NEAR(polygon_boundary(hb, nb, gjk_inv_transform2_point(xb, c->point_b)), 0, 10 * CTOL);
        }
        ENSURE(min_sep >= pen.signed_distance - 10 * CTOL);
        ENSURE(min_sep <= pen.signed_distance + 1e-3 * 0.5 + 10 * CTOL);
    }
    ENSURE(cases > 500);
    ENSURE(two > 100);
}

static void test_feature_ids2(void) {
    gjk2_shape a = gjk2_make_box(gjk_v2(1, 1));
    gjk_vec2 pv[4] = {gjk_v2((gjk_real)-0.5, (gjk_real)-0.3), gjk_v2((gjk_real)0.5, (gjk_real)-0.3),
                      gjk_v2((gjk_real)0.5, (gjk_real)0.3), gjk_v2((gjk_real)-0.5, (gjk_real)0.3)};
    gjk2_shape shapes[2] = {gjk2_make_box(gjk_v2((gjk_real)0.5, (gjk_real)0.3)), gjk2_make_polygon(pv, 4)};
    for (int s = 0; s < 2; ++s) {
        gjk2_manifold m0 = contact2(&a, pose2(0, 0, 0), &shapes[s], pose2(0.8, 1.29, 0.01), 0);
        gjk2_manifold m1 = contact2(&a, pose2(0, 0, 0), &shapes[s], pose2(0.81, 1.291, 0.015), 0);
        check_contract2(&m0, 1);
        check_contract2(&m1, 1);
        ENSURE(m0.point_count == 2 && m1.point_count == 2);
        for (int k = 0; k < m0.point_count; ++k) {
            int found = -1;
            for (int j = 0; j < m1.point_count; ++j) {
                if (m1.points[j].id == m0.points[k].id) {
                    found = j;
                }
            }
            ENSURE(found >= 0);
            if (found >= 0) {
                ENSURE(dist2(m0.points[k].point_b, m1.points[found].point_b) < 0.05);
            }
        }
    }
}

/// Equal boxes edge to edge, the upper one turned a little either way: A's
/// edge stays the reference and the ids stay the same.
static void test_reference_hysteresis2(void) {
    gjk2_shape a = gjk2_make_box(gjk_v2((gjk_real)0.5, (gjk_real)0.5));
    gjk2_manifold base = contact2(&a, pose2(0, 0, 0), &a, pose2(0.1, 0.99, 0), 0);
    ENSURE(base.point_count == 2);
    static const double turns[] = {0.002, -0.002, 0.004, -0.004, 0.008, -0.008};
    for (int t = 0; t < 6; ++t) {
        gjk2_manifold m = contact2(&a, pose2(0, 0, 0), &a, pose2(0.1, 0.985, turns[t]), 0.02);
        gjk2_manifold m2 = contact2(&a, pose2(0, 0, turns[t]), &a, pose2(0.1, 0.985, 0), 0.02);
        check_contract2(&m, 1);
        check_contract2(&m2, 1);
        ENSURE(m.point_count == 2 && m2.point_count == 2);
        for (int k = 0; k < m.point_count; ++k) {
            ENSURE(m.points[k].id == base.points[0].id || m.points[k].id == base.points[1].id);
            ENSURE((m2.points[k].id & 0x80000000u) == 0);
        }
    }
}

/// Equal boxes stacked exactly, moved by rounding-sized amounts: B's
/// corners stay corners (codes 1 and 2) with the same ids.
static void test_exact_stack_ids2(void) {
#if GJK_USE_FLOAT
    const double eps = 2e-6;
#else
    const double eps = 1e-10;
#endif
    gjk2_shape a = gjk2_make_box(gjk_v2((gjk_real)0.5, (gjk_real)0.5));
    gjk2_manifold base = contact2(&a, pose2(0, 0, 0), &a, pose2(0, 1, 0), 0);
    ENSURE(base.point_count == 2);
    for (int t = 0; t < 4; ++t) {
        double dx = (t & 1) ? eps : -eps, dy = (t & 2) ? eps : -eps;
        gjk2_manifold m = contact2(&a, pose2(0, 0, 0), &a, pose2(dx, 1 + dy, 0), 10 * eps);
        check_contract2(&m, 1);
        ENSURE(m.point_count == 2);
        for (int k = 0; k < m.point_count; ++k) {
            uint32_t code = m.points[k].id & 0xFFFFu;
            ENSURE(code == 1 || code == 2);
            ENSURE(m.points[k].id == base.points[0].id || m.points[k].id == base.points[1].id);
        }
    }
}

static void test_speculative2(void) {
    gjk2_shape a = gjk2_make_box(gjk_v2(1, 1));
    gjk2_shape b = gjk2_make_box(gjk_v2((gjk_real)0.5, (gjk_real)0.5));
    gjk2_manifold m = contact2(&a, pose2(0, 0, 0), &b, pose2(0, 1.55, 0), 0.01);
    ENSURE(m.status == GJK_SEPARATED && m.point_count == 0);
    ENSURE_VEC2_NEAR(m.normal, gjk_v2(0, 0), 0);
    m = contact2(&a, pose2(0, 0, 0), &b, pose2(0, 1.55, 0), 0);
    ENSURE(m.status == GJK_SEPARATED && m.point_count == 0);
    m = contact2(&a, pose2(0, 0, 0), &b, pose2(0, 1.55, 0), 0.1);
    check_contract2(&m, 1);
    ENSURE(m.status == GJK_SEPARATED);
    ENSURE(m.point_count == 2);
    for (int k = 0; k < m.point_count; ++k) {
        ENSURE_NEAR(m.points[k].separation, 0.05, CTOL);
    }
    // Turned by 0.05: the lower corner (about 0.024 apart) is in, the
    // upper one (about 0.074) is not.
    m = contact2(&a, pose2(0, 0, 0), &b, pose2(0, 1.55, 0.05), 0.04);
    check_contract2(&m, 1);
    ENSURE(m.status == GJK_SEPARATED);
    ENSURE(m.point_count == 1);
    ENSURE(m.points[0].separation > 0 && m.points[0].separation <= 0.04);
}

static void test_invalid2(void) {
    gjk2_shape a = gjk2_make_box(gjk_v2(1, 1));
    gjk2_shape bad = gjk2_make_circle(-1);
    gjk2_manifold zero;
    memset(&zero, 0, sizeof zero);
    zero.status = GJK_INVALID_INPUT;
    gjk2_manifold m = gjk2_contact(NULL, NULL);
    ENSURE(memcmp(&m, &zero, sizeof m) == 0);
    m = contact2(&a, pose2(0, 0, 0), &bad, pose2(0, 1, 0), 0);
    ENSURE(m.status == GJK_INVALID_INPUT && m.point_count == 0);
    m = contact2(&a, pose2(0, 0, 0), NULL, pose2(0, 1, 0), 0);
    ENSURE(m.status == GJK_INVALID_INPUT && m.point_count == 0);
    m = contact2(&a, pose2(0, 0, 0), &a, pose2(NAN, 1, 0), 0);
    ENSURE(m.status == GJK_INVALID_INPUT && m.point_count == 0);
    m = contact2(&a, pose2(0, 0, 0), &a, pose2(0, 1, 0), -1);
    ENSURE(m.status == GJK_INVALID_INPUT && m.point_count == 0);
    m = contact2(&a, pose2(0, 0, 0), &a, pose2(0, 1, 0), NAN);
    ENSURE(m.status == GJK_INVALID_INPUT && m.point_count == 0);
    gjk2_contact_input in;
    memset(&in, 0, sizeof in);
    in.shape_a = &a;
    in.transform_a = pose2(0, 0, 0);
    in.shape_b = &a;
    in.transform_b = pose2(0, 1, 0);
    in.options.max_distance = -1;
    m = gjk2_contact(&in, NULL);
    ENSURE(m.status == GJK_INVALID_INPUT && m.point_count == 0);
}

/// Every shape pair in random poses: the contract, and no point deeper than
/// the penetration query says.
static void test_all_shapes_random2(void) {
    gjk_vec2 pv[4] = {gjk_v2((gjk_real)-0.4, (gjk_real)-0.3), gjk_v2((gjk_real)0.5, (gjk_real)-0.2),
                      gjk_v2(0, (gjk_real)0.5), gjk_v2(0, 0)};
    gjk2_shape shapes[] = {
        gjk2_make_point(),
        gjk2_make_segment(gjk_v2((gjk_real)-0.5, 0), gjk_v2((gjk_real)0.5, 0)),
        gjk2_make_triangle(pv[0], pv[1], pv[2]),
        gjk2_make_box(gjk_v2((gjk_real)0.5, (gjk_real)0.3)),
        gjk2_make_circle((gjk_real)0.4),
        gjk2_make_ellipse(gjk_v2((gjk_real)0.5, (gjk_real)0.2)),
        gjk2_make_capsule(gjk_v2(0, (gjk_real)-0.3), gjk_v2(0, (gjk_real)0.3), (gjk_real)0.2),
        gjk2_make_polygon(pv, 4),
        gjk2_with_margin(gjk2_make_box(gjk_v2((gjk_real)0.3, (gjk_real)0.3)), (gjk_real)0.1),
    };
    int ns = (int)(sizeof shapes / sizeof shapes[0]);
    rng r = {99};
    int cases = 0;
    for (int trial = 0; trial < 6000; ++trial) {
        const gjk2_shape *a = &shapes[rng_int(&r, ns)];
        const gjk2_shape *b = &shapes[rng_int(&r, ns)];
        gjk_transform2 xa = pose2(0, 0, rng_chance(&r, 0.5) ? 0 : rng_range(&r, -3, 3));
        gjk_transform2 xb = pose2(rng_range(&r, -1, 1), rng_range(&r, -1, 1),
                                  rng_chance(&r, 0.5) ? rng_range(&r, -0.03, 0.03) : rng_range(&r, -3, 3));
        gjk2_query_input q;
        memset(&q, 0, sizeof q);
        q.shape_a = a;
        q.transform_a = xa;
        q.shape_b = b;
        q.transform_b = xb;
        gjk2_penetration_output pen = gjk2_penetration(&q, NULL);
        double spec = 0.05;
        gjk2_manifold m = contact2(a, xa, b, xb, spec);
        check_contract2(&m, 2);
        if (pen.status == GJK_NOT_CONVERGED) {
            continue;
        }
        ++cases;
        if (pen.signed_distance > spec + 10 * CTOL) {
            ENSURE(m.point_count == 0 && m.status == GJK_SEPARATED);
            continue;
        }
        if (pen.signed_distance < spec - 10 * CTOL) {
            ENSURE(m.point_count >= 1);
        }
        for (int k = 0; k < m.point_count; ++k) {
            ENSURE(m.points[k].separation >= pen.signed_distance - 10 * CTOL);
            ENSURE(m.points[k].separation <= spec + 10 * CTOL);
        }
    }
    ENSURE(cases > 5000);
}

/// The 3D audit finding in 2D: a circle 1e-12 clear of a box (touching,
/// as every query says) gave a SEPARATED manifold without points at a
/// speculative distance of 0.
static void test_touching_matches_queries2(void) {
    const double gaps[6] = {1e-12, 5e-11, 1e-13, 0, -1e-13, -5e-11};
    for (int scale = 0; scale < 2; ++scale) {
        double k = scale == 0 ? 1 : 1e3;
        gjk2_shape circle = gjk2_make_circle((gjk_real)(0.5 * k));
        gjk2_shape box = gjk2_make_box(gjk_v2((gjk_real)(0.5 * k), (gjk_real)(0.5 * k)));
        for (int g = 0; g < 6; ++g) {
            gjk_transform2 xa = gjk_transform2_identity(), xb = pose2(k + gaps[g] * k, 0.1 * k, 0);
            gjk2_query_input q = {&circle, xa, &box, xb, {0}};
            gjk2_penetration_output pen = gjk2_penetration(&q, NULL);
            gjk2_manifold m = contact2(&circle, xa, &box, xb, 0);
            ENSURE(pen.status == GJK_TOUCHING);
            ENSURE(m.status == pen.status);
            ENSURE(m.point_count >= 1);
        }
    }
}

int main(void) {
    RUN_TEST(test_box_on_box2);
    RUN_TEST(test_box_on_corner2);
    RUN_TEST(test_round_shapes2);
    RUN_TEST(test_polygon_pairs2);
    RUN_TEST(test_feature_ids2);
    RUN_TEST(test_reference_hysteresis2);
    RUN_TEST(test_exact_stack_ids2);
    RUN_TEST(test_speculative2);
    RUN_TEST(test_invalid2);
    RUN_TEST(test_all_shapes_random2);
    RUN_TEST(test_tilted_capsule_far_offsets2);
    RUN_TEST(test_rounded_points_on_surface2);
    RUN_TEST(test_touching_matches_queries2);
    return TEST_SUMMARY();
}
