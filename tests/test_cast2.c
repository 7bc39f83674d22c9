// Tests of the 2D casts: gjk2_raycast, gjk2_shapecast, gjk2_time_of_impact
// and gjk2_sweep_at.
//
// Rays are checked against answers derived by hand: the quadratic of a
// circle (and of a rounded corner, a capsule's cap, an ellipse in its own
// frame), the slab test of a box in its own frame, the edge lines of a
// polygon and of a custom diamond. Shape casts are checked against exact
// contact times of circles and boxes, the target separation, boxes sliding
// past each other, and ~300 random pairs against bisection on
// gjk2_penetration's signed distance along the motion. Times of impact are
// checked against the shape cast (translation only), an exact bullet-through-
// wall time, and, for spinning shapes, against the first contact found by
// dense sampling and bisection: the reported time must never be later
// (no tunnelling).
//
// Tolerances. Flat contacts are exact up to rounding: TOL(size) =
// TEST_REL_TOL·size on lengths. A time is checked through the gap it
// stands for: a time error δt along a motion r closes the gap by δt·|r·n|,
// so |δt|·|r·n| ≤ c·TOL(size). On a curved core (an ellipse) the cast stops
// once the distance is within the tolerance e = TOL(size): the time is then
// as accurate as on a flat contact, but the contact point slides along the
// curve by up to sqrt(2·R·e) (R the radius of curvature) and the normal
// turns by up to sqrt(2·e/R): CURVED_TOL.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gjk/gjk2d.h"
#include "test_macros.h"

#define TOL(size) ((double)TEST_REL_TOL * (double)(size))
#define CURVED_TOL(radius, size) sqrt(2.0 * (double)(radius) * TOL(size))

static const double PI = 3.14159265358979323846;

// ---------------------------------------------------------------------------
// Double-precision 2D vectors for the expected answers.

typedef struct d2 {
    double x, y;
} d2;

static d2 dv(double x, double y) {
    d2 v = {x, y};
    return v;
}
static d2 d_of(gjk_vec2 v) { return dv((double)v.x, (double)v.y); }
static d2 d_add(d2 a, d2 b) { return dv(a.x + b.x, a.y + b.y); }
static d2 d_sub(d2 a, d2 b) { return dv(a.x - b.x, a.y - b.y); }
static d2 d_scale(double s, d2 a) { return dv(s * a.x, s * a.y); }
static double d_dot(d2 a, d2 b) { return a.x * b.x + a.y * b.y; }
static double d_len(d2 a) { return sqrt(d_dot(a, a)); }
static d2 d_unit(d2 a) { return d_scale(1 / d_len(a), a); }
/// Rotation of a transform, as used by the library (its stored cos and sin).
static d2 d_rot(gjk_transform2 t, d2 v) {
    double c = (double)t.rotation.c, s = (double)t.rotation.s;
    return dv(c * v.x - s * v.y, s * v.x + c * v.y);
}
static d2 d_inv_rot(gjk_transform2 t, d2 v) {
    double c = (double)t.rotation.c, s = (double)t.rotation.s;
    return dv(c * v.x + s * v.y, -s * v.x + c * v.y);
}
static d2 d_to_world(gjk_transform2 t, d2 p) { return d_add(d_rot(t, p), d_of(t.position)); }
static d2 d_to_local(gjk_transform2 t, d2 p) { return d_inv_rot(t, d_sub(p, d_of(t.position))); }

static gjk_vec2 V2(double x, double y) { return gjk_v2((gjk_real)x, (gjk_real)y); }
static gjk_vec2 V2d(d2 v) { return V2(v.x, v.y); }
static gjk_transform2 pose(double x, double y, double angle) { return gjk_transform2_make(V2(x, y), (gjk_real)angle); }
static double len2(gjk_vec2 v) { return hypot((double)v.x, (double)v.y); }

/// |u − e| per component within tol.
#define ENSURE_V2_NEAR(u, e, tol)              \
    do {                                       \
        ENSURE_NEAR((u).x, (e).x, tol);        \
        ENSURE_NEAR((u).y, (e).y, tol);        \
    } while (0)

/// Names the case after a failed check.
#define CASE_BEGIN int case_before_ = test_failures
#define CASE_END(...)                                  \
    do {                                               \
        if (test_failures != case_before_) {           \
            fprintf(stderr, "  in case: ");            \
            fprintf(stderr, __VA_ARGS__);              \
            fprintf(stderr, "\n");                     \
        }                                              \
    } while (0)

// ---------------------------------------------------------------------------
// Random numbers: splitmix64, fixed seeds. Every draw is its own statement
// (argument evaluation order is unspecified).

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rng_next(rng *r) {
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static double rng_unit(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }
static double rng_range(rng *r, double lo, double hi) { return lo + (hi - lo) * rng_unit(r); }
static int rng_int(rng *r, int n) { return (int)(rng_next(r) % (uint64_t)n); }

// ---------------------------------------------------------------------------
// Calls.

static gjk2_cast_output ray(const gjk2_shape *s, gjk_transform2 t, d2 origin, d2 dir, double max_t) {
    gjk2_raycast_input in;
    memset(&in, 0, sizeof in);
    in.shape = s;
    in.transform = t;
    in.origin = V2d(origin);
    in.direction = V2d(dir);
    in.max_t = (gjk_real)max_t;
    return gjk2_raycast(&in);
}

static gjk2_cast_output shapecast(const gjk2_shape *a, gjk_transform2 ta, const gjk2_shape *b, gjk_transform2 tb,
                                  d2 translation, double target) {
    gjk2_shapecast_input in;
    memset(&in, 0, sizeof in);
    in.shape_a = a;
    in.transform_a = ta;
    in.shape_b = b;
    in.transform_b = tb;
    in.translation_b = V2d(translation);
    in.target_separation = (gjk_real)target;
    return gjk2_shapecast(&in);
}

static gjk2_sweep sweep(gjk_transform2 start, gjk_transform2 end) {
    gjk2_sweep s = {start, end};
    return s;
}

static gjk2_cast_output toi(const gjk2_shape *a, gjk2_sweep sa, const gjk2_shape *b, gjk2_sweep sb, double target,
                            int max_iterations) {
    gjk2_toi_input in;
    memset(&in, 0, sizeof in);
    in.shape_a = a;
    in.sweep_a = sa;
    in.shape_b = b;
    in.sweep_b = sb;
    in.target_separation = (gjk_real)target;
    in.options.max_iterations = max_iterations;
    return gjk2_time_of_impact(&in);
}

static gjk2_penetration_output pen(const gjk2_shape *a, gjk_transform2 ta, const gjk2_shape *b, gjk_transform2 tb) {
    gjk2_query_input in;
    memset(&in, 0, sizeof in);
    in.shape_a = a;
    in.transform_a = ta;
    in.shape_b = b;
    in.transform_b = tb;
    return gjk2_penetration(&in, NULL);
}

/// B's pose after moving by t·translation.
static gjk_transform2 moved(gjk_transform2 tb, d2 translation, double t) {
    gjk_transform2 m = tb;
    m.position = V2d(d_add(d_of(tb.position), d_scale(t, translation)));
    return m;
}

/// Signed distance of A and a point: is `p` on A's surface?
static double sd_point(const gjk2_shape *a, gjk_transform2 ta, d2 p) {
    gjk2_shape point = gjk2_make_point();
    return (double)pen(a, ta, &point, pose(p.x, p.y, 0)).signed_distance;
}

/// Signed distance of A and B at their poses.
static double sd_static(const gjk2_shape *a, gjk_transform2 ta, const gjk2_shape *b, gjk_transform2 tb) {
    return (double)pen(a, ta, b, tb).signed_distance;
}

static int all_finite(const gjk2_cast_output *o) {
    return isfinite((double)o->t) && isfinite((double)o->point.x) && isfinite((double)o->point.y) &&
           isfinite((double)o->normal.x) && isfinite((double)o->normal.y);
}

/// A hit at t with the given point and normal (world).
static void expect_hit(gjk2_cast_output o, double t, d2 point, d2 normal, double tol_t, double tol_p, double tol_n) {
    ENSURE(o.status == GJK_HIT);
    ENSURE(o.hit);
    ENSURE(all_finite(&o));
    ENSURE_NEAR(o.t, t, tol_t);
    ENSURE_V2_NEAR(o.point, point, tol_p);
    ENSURE_V2_NEAR(o.normal, normal, tol_n);
    ENSURE_NEAR(len2(o.normal), 1, 1e-5);
}

static void expect_miss(gjk2_cast_output o) {
    ENSURE(o.status == GJK_MISS);
    ENSURE(!o.hit);
    ENSURE(o.t == 0);
    ENSURE(all_finite(&o));
}

// ---------------------------------------------------------------------------
// Rays.

/// First root of |o + t d − c|² = R² (the ray meets the circle).
static double ray_circle(d2 o, d2 d, d2 c, double R) {
    d2 m = d_sub(o, c);
    double a = d_dot(d, d), b = d_dot(m, d), cc = d_dot(m, m) - R * R;
    double disc = b * b - a * cc;
    return (-b - sqrt(disc)) / a;
}

static void test_ray_circle(void) {
    const double radii[][2] = {{1.5, 0}, {0.5, 0.25}, {1e-3, 0}, {3, 1}};
    const d2 origins[] = {{-3, 0.2}, {4, 5}, {-2, -3}, {0.5, 7}};
    const d2 dirs[] = {{2, 0.1}, {-0.3, -0.9}, {1, 0.7}, {0.05, -1}};
    for (int k = 0; k < 4; ++k) {
        CASE_BEGIN;
        double R = radii[k][0] + radii[k][1];
        gjk2_shape c = gjk2_with_margin(gjk2_make_circle((gjk_real)radii[k][0]), (gjk_real)radii[k][1]);
        gjk_transform2 tc = pose(0.4, -0.3, 0.7 * k);
        d2 centre = d_of(tc.position);
        // Aim each ray at a point within the circle, off its centre, with
        // a direction length of its own (t is in direction lengths).
        d2 o = origins[k];
        d2 aim = d_add(centre, d_scale(0.6 * R, d_unit(dirs[k])));
        d2 d = d_scale(d_len(dirs[k]) / d_len(d_sub(aim, o)), d_sub(aim, o));
        double t = ray_circle(o, d, centre, R);
        d2 p = d_add(o, d_scale(t, d));
        d2 n = d_scale(1 / R, d_sub(p, centre));
        gjk2_cast_output out = ray(&c, tc, o, d, 10);
        double size = d_len(o) + R;
        expect_hit(out, t, p, n, TOL(size) / d_len(d), TOL(size), TOL(size) / R);
        CASE_END("ray %d against a circle of radius %g", k, R);
    }
}

/// The slab test in the box's frame: the entry time and the world normal of
/// the entered face; false when the ray misses.
static int ray_box(d2 o, d2 d, gjk_transform2 tb, d2 h, double *t_out, d2 *n_out) {
    d2 ol = d_to_local(tb, o), dl = d_inv_rot(tb, d);
    double oi[2] = {ol.x, ol.y}, di[2] = {dl.x, dl.y}, hi[2] = {h.x, h.y};
    double tnear = -INFINITY, tfar = INFINITY;
    d2 nl = dv(0, 0);
    for (int i = 0; i < 2; ++i) {
        if (di[i] == 0) {
            if (fabs(oi[i]) > hi[i]) {
                return 0;
            }
            continue;
        }
        double t1 = (-hi[i] - oi[i]) / di[i], t2 = (hi[i] - oi[i]) / di[i];
        double te = di[i] > 0 ? t1 : t2, tx = di[i] > 0 ? t2 : t1;
        if (te > tnear) {
            tnear = te;
            nl = i == 0 ? dv(di[i] > 0 ? -1 : 1, 0) : dv(0, di[i] > 0 ? -1 : 1);
        }
        tfar = fmin(tfar, tx);
    }
    if (tnear > tfar || tnear < 0) {
        return 0;
    }
    *t_out = tnear;
    *n_out = d_rot(tb, nl);
    return 1;
}

static void test_ray_box(void) {
    gjk2_shape box = gjk2_make_box(V2(2, 1));
    {
        CASE_BEGIN;
        // Axis-aligned, box at (1, 1): the face x = −1 at t = 4, the face
        // y = 2 from above at t = 3.
        gjk_transform2 tb = pose(1, 1, 0);
        expect_hit(ray(&box, tb, dv(-5, 1.5), dv(1, 0), 10), 4, dv(-1, 1.5), dv(-1, 0), TOL(6), TOL(6), TOL(1));
        expect_hit(ray(&box, tb, dv(2, 5), dv(-0.5, -1), 10), 3, dv(0.5, 2), dv(0, 1), TOL(6), TOL(6), TOL(1));
        // Direction not unit: t is in its lengths.
        expect_hit(ray(&box, tb, dv(-5, 1.5), dv(8, 0), 1), 0.5, dv(-1, 1.5), dv(-1, 0), TOL(6), TOL(6), TOL(1));
        CASE_END("axis-aligned box");
    }
    // Rotated boxes against the slab test, from many directions.
    rng r = {11};
    int hits = 0;
    for (int k = 0; k < 200; ++k) {
        CASE_BEGIN;
        double angle = rng_range(&r, -PI, PI);
        double px = rng_range(&r, -3, 3);
        double py = rng_range(&r, -3, 3);
        gjk_transform2 tb = pose(px, py, angle);
        double a = rng_range(&r, 0, 2 * PI);
        double dist = rng_range(&r, 3, 8);
        d2 o = d_add(d_of(tb.position), dv(dist * cos(a), dist * sin(a)));
        double ax = rng_range(&r, -2.5, 2.5);
        double ay = rng_range(&r, -1.5, 1.5);
        d2 aim = d_to_world(tb, dv(ax, ay));
        d2 d = d_scale(rng_range(&r, 0.5, 2), d_sub(aim, o));
        double t;
        d2 n;
        gjk2_cast_output out = ray(&box, tb, o, d, 1);
        double size = d_len(o) + 3;
        if (ray_box(o, d, tb, dv(2, 1), &t, &n) && t <= 1) {
            ++hits;
            d2 p = d_add(o, d_scale(t, d));
            // Within rounding of a corner either face's normal is right.
            d2 pl = d_to_local(tb, p);
            int corner = fabs(fabs(pl.x) - 2) < 1e-3 && fabs(fabs(pl.y) - 1) < 1e-3;
            double dn = fabs(d_dot(d_unit(d), n));
            ENSURE(out.status == GJK_HIT);
            ENSURE_NEAR(out.t, t, TOL(size) / (d_len(d) * dn));
            ENSURE_V2_NEAR(out.point, p, TOL(size) / dn);
            if (!corner) {
                ENSURE_V2_NEAR(out.normal, n, 10 * TOL(size) / dn);
            }
            ENSURE_NEAR(len2(out.normal), 1, 1e-5);
        } else {
            expect_miss(out);
        }
        CASE_END("rotated box ray %d", k);
    }
    ENSURE(hits > 100);
}

static void test_ray_capsule(void) {
    // Capsule along x from (−1, 0) to (1, 0), radius 0.5, placed at (2, 1)
    // turned by 0.4. Rays in the capsule's frame, mapped to the world.
    gjk2_shape cap = gjk2_make_capsule(V2(-1, 0), V2(1, 0), (gjk_real)0.5);
    gjk_transform2 tc = pose(2, 1, 0.4);
    struct {
        d2 o, d;
        double t;
        d2 p, n;
    } cases[] = {
        // Straight down onto the side: y = 0.5 at t = 2.5.
        {{0.3, 3}, {0, -1}, 2.5, {0.3, 0.5}, {0, 1}},
        // Along the axis into the left cap: x = −1.5 at t = 3.5.
        {{-5, 0}, {1, 0}, 3.5, {-1.5, 0}, {-1, 0}},
        // Into the right cap off the axis: (3 − t)² + 0.3² = 0.5², t = 2.6,
        // at (1.4, 0.3) with normal (0.4, 0.3)/0.5.
        {{4, 0.3}, {-1, 0}, 2.6, {1.4, 0.3}, {0.8, 0.6}},
        // From below at an angle, onto the side: y = −0.5 at t = 1.
        {{-0.7, -2.5}, {0.2, 2}, 1, {-0.5, -0.5}, {0, -1}},
    };
    for (int k = 0; k < 4; ++k) {
        CASE_BEGIN;
        d2 o = d_to_world(tc, cases[k].o), d = d_rot(tc, cases[k].d);
        d2 p = d_to_world(tc, cases[k].p), n = d_rot(tc, cases[k].n);
        expect_hit(ray(&cap, tc, o, d, 5), cases[k].t, p, n, TOL(8), TOL(8), TOL(8));
        CASE_END("capsule ray %d", k);
    }
}

static void test_ray_rounded_box_corner(void) {
    // Box of half extents (1, 0.5) with margin 0.2: near the corner (1, 0.5)
    // the surface is the circle of radius 0.2 about it.
    gjk2_shape rb = gjk2_with_margin(gjk2_make_box(V2(1, 0.5)), (gjk_real)0.2);
    gjk_transform2 tb = pose(-1, 0.5, -0.8);
    const d2 os[] = {{3, 0.6}, {3, 2.5}, {1.15, 3}};
    const d2 ds[] = {{-1, 0}, {-1, -1}, {0, -1}};
    for (int k = 0; k < 3; ++k) {
        CASE_BEGIN;
        d2 corner = dv(1, 0.5);
        double t = ray_circle(os[k], ds[k], corner, 0.2);
        d2 p = d_add(os[k], d_scale(t, ds[k]));
        ENSURE(p.x > 1 && p.y > 0.5); // the hit is on the rounded corner
        d2 n = d_scale(1 / 0.2, d_sub(p, corner));
        d2 o = d_to_world(tb, os[k]), d = d_rot(tb, ds[k]);
        expect_hit(ray(&rb, tb, o, d, 10), t, d_to_world(tb, p), d_rot(tb, n), TOL(6), TOL(6), TOL(6) / 0.2);
        CASE_END("rounded corner ray %d", k);
    }
    {
        // The diagonal through the corner: t = 2 − 0.2/√2, normal (1, 1)/√2.
        CASE_BEGIN;
        gjk2_cast_output out = ray(&rb, tb, d_to_world(tb, dv(3, 2.5)), d_rot(tb, dv(-1, -1)), 10);
        ENSURE_NEAR(out.t, 2 - 0.2 / sqrt(2.0), TOL(6));
        ENSURE_V2_NEAR(out.normal, d_rot(tb, dv(sqrt(0.5), sqrt(0.5))), TOL(6) / 0.2);
        CASE_END("rounded corner diagonal");
    }
}

static void test_ray_polygon(void) {
    // A regular hexagon of circumradius 1 (vertices at k·60°), listed with a
    // duplicate and an interior point; apothem √3/2.
    gjk_vec2 v[8];
    for (int k = 0; k < 6; ++k) {
        v[k] = V2(cos(k * PI / 3), sin(k * PI / 3));
    }
    v[6] = v[2];
    v[7] = V2(0.1, -0.2);
    gjk2_shape hex = gjk2_make_polygon(v, 8);
    gjk_transform2 th = pose(-1, 2, 0.3);
    double ap = sqrt(3.0) / 2;
    struct {
        d2 o, d;
        double t;
        d2 p, n;
    } cases[] = {
        // Down onto the top edge y = √3/2: t = (3 − √3/2)/2.
        {{0.2, 3}, {0, -2}, (3 - ap) / 2, {0.2, ap}, {0, 1}},
        // Leftward onto the edge from (1, 0) to (1/2, √3/2), normal at 30°:
        // (3 − t)·√3/2 + 0.2·1/2 = √3/2, t = 2 + 0.2/√3.
        {{3, 0.2}, {-1, 0}, 2 + 0.2 / sqrt(3.0), {1 - 0.2 / sqrt(3.0), 0.2}, {ap, 0.5}},
        // Upward onto the bottom edge y = −√3/2 at t = 1.
        {{-0.3, -1 - ap}, {0, 1}, 1, {-0.3, -ap}, {0, -1}},
    };
    for (int k = 0; k < 3; ++k) {
        CASE_BEGIN;
        d2 o = d_to_world(th, cases[k].o), d = d_rot(th, cases[k].d);
        expect_hit(ray(&hex, th, o, d, 5), cases[k].t, d_to_world(th, cases[k].p), d_rot(th, cases[k].n), TOL(8),
                   TOL(8), TOL(8));
        CASE_END("hexagon ray %d", k);
    }
}

static void test_ray_ellipse(void) {
    // Ellipse with semi-axes (2, 0.7) at (1, 1) turned by 0.5. The hit in
    // its frame solves (ox + t dx)²/a² + (oy + t dy)²/b² = 1; the normal is
    // along (x/a², y/b²). Curved core: the cast stops within the tolerance
    // e of the surface, so the time and the point are as accurate as on a
    // flat face (e over the cosine of incidence), but the normal, taken from
    // a chord of support points, turns by up to sqrt(2·e/r) with r the
    // smallest radius of curvature, b²/a (CURVED_TOL(1/r, e) = sqrt(2e/r)).
    double a = 2, b = 0.7, r_min = b * b / a;
    gjk2_shape el = gjk2_make_ellipse(V2(a, b));
    gjk_transform2 te = pose(1, 1, 0.5);
    rng r = {5};
    for (int k = 0; k < 60; ++k) {
        CASE_BEGIN;
        double ang = rng_range(&r, 0, 2 * PI);
        double dist = rng_range(&r, 3, 6);
        d2 ol = dv(dist * cos(ang), dist * sin(ang));
        double ax = rng_range(&r, -1.4, 1.4);
        double ay = rng_range(&r, -0.4, 0.4);
        d2 dl = d_sub(dv(ax, ay), ol);
        double qa = dl.x * dl.x / (a * a) + dl.y * dl.y / (b * b);
        double qb = ol.x * dl.x / (a * a) + ol.y * dl.y / (b * b);
        double qc = ol.x * ol.x / (a * a) + ol.y * ol.y / (b * b) - 1;
        double t = (-qb - sqrt(qb * qb - qa * qc)) / qa;
        d2 pl = d_add(ol, d_scale(t, dl));
        d2 nl = d_unit(dv(pl.x / (a * a), pl.y / (b * b)));
        double size = dist + 2 + d_len(d_of(te.position));
        double cosine = fabs(d_dot(d_unit(dl), nl));
        gjk2_cast_output out = ray(&el, te, d_to_world(te, ol), d_rot(te, dl), 1);
        ENSURE(out.status == GJK_HIT);
        // The time: the gap is within the tolerance, along the ray that is
        // that gap over the cosine of incidence.
        ENSURE_NEAR(out.t, t, 4 * TOL(size) / (d_len(dl) * cosine));
        ENSURE_V2_NEAR(out.point, d_to_world(te, pl), 4 * TOL(size) / cosine);
        ENSURE_V2_NEAR(out.normal, d_rot(te, nl), CURVED_TOL(1 / r_min, size));
        CASE_END("ellipse ray %d", k);
    }
}

static gjk_vec2 diamond_support(const void *data, gjk_vec2 d) {
    gjk_real h = *(const gjk_real *)data;
    if (fabs((double)d.x) >= fabs((double)d.y)) {
        return gjk_v2(d.x < 0 ? -h : h, 0);
    }
    return gjk_v2(0, d.y < 0 ? -h : h);
}

static void test_ray_custom(void) {
    // The diamond |x| + |y| ≤ 1 by its support function (radius unknown).
    gjk_real h = 1;
    gjk2_shape dia = gjk2_make_custom(diamond_support, &h, 0);
    gjk_transform2 td = pose(0.5, -1, 0.25);
    CASE_BEGIN;
    // Leftward at y = 0.5 onto the edge x + y = 1 at x = 0.5: t = 2.5.
    expect_hit(ray(&dia, td, d_to_world(td, dv(3, 0.5)), d_rot(td, dv(-1, 0)), 5), 2.5,
               d_to_world(td, dv(0.5, 0.5)), d_rot(td, dv(sqrt(0.5), sqrt(0.5))), TOL(5), TOL(5), TOL(5));
    // With a margin of 0.1 the edge moves out by 0.1 along its normal:
    // x = 0.5 + 0.1·√2 at y = 0.5.
    gjk2_shape rdia = gjk2_with_margin(dia, (gjk_real)0.1);
    expect_hit(ray(&rdia, td, d_to_world(td, dv(3, 0.5)), d_rot(td, dv(-1, 0)), 5), 2.5 - 0.1 * sqrt(2.0),
               d_to_world(td, dv(0.5 + 0.1 * sqrt(2.0), 0.5)), d_rot(td, dv(sqrt(0.5), sqrt(0.5))), TOL(5), TOL(5),
               TOL(5));
    CASE_END("custom diamond");
}

/// A circle's support that counts the directions it is given that are not
/// finite (the contract: never).
static int nonfinite_directions = 0;
static gjk_vec2 counting_circle_support(const void *data, gjk_vec2 d) {
    if (!isfinite((double)d.x) || !isfinite((double)d.y)) {
        ++nonfinite_directions;
    }
    gjk_real r = *(const gjk_real *)data;
    return gjk_scale2(r, gjk_normalize2(d));
}

static void test_cast_coordinates_overflow(void) {
    // The 2D form of fuzz finding f19: a segment with an end at the largest
    // finite coordinates, cast against a user shape. |v|² overflows; the
    // cast must answer invalid input without handing the user's support a
    // direction that is not finite.
    gjk_real big = GJK_REAL_MAX, r = (gjk_real)2.5;
    gjk2_shape a = gjk2_make_segment(V2(0, -2.25), gjk_v2(big, big));
    gjk2_shape b = gjk2_make_custom(counting_circle_support, &r, r);
    for (int k = 0; k < 4; ++k) {
        CASE_BEGIN;
        nonfinite_directions = 0;
        gjk2_cast_output o = shapecast(&a, pose(-2.5, -2.5, 0.5 * k), &b, pose(-2.25, -2.25, 0.3), dv(2.375, 0), 0);
        ENSURE(nonfinite_directions == 0);
        ENSURE(o.status == GJK_INVALID_INPUT);
        CASE_END("2D shape cast with coordinates near the largest finite number, turn %d", k);
    }
}

/// A box passing 1e-4 from a segment (float; a stress case found by review):
/// the cast refused a new point that tied with the simplex's distance and
/// took the stall for a hit. Both precisions must miss.
static void test_box_past_segment(void) {
    gjk2_shape seg = gjk2_make_segment(gjk_v2((gjk_real)-0x1.7faeb8p-3, (gjk_real)-0x1.9495fap-2),
                                       gjk_v2((gjk_real)-0x1.54c9ccp-1, (gjk_real)-0x1.38b032p-3));
    gjk2_shape box = gjk2_make_box(gjk_v2((gjk_real)0x1.0fd90ap+0, (gjk_real)0x1.26c89p+0));
    gjk_transform2 ta = {{(gjk_real)0x1.e63d6ap-1, (gjk_real)-0x1.7c7a16p-3}, {(gjk_real)0x1.33c15ep-2, (gjk_real)0x1.e85458p-1}};
    gjk_transform2 tb = {{(gjk_real)0x1.66c07p-2, (gjk_real)-0x1.5a1b6p+1}, {(gjk_real)0x1.b560c8p-1, (gjk_real)-0x1.0a2a8cp-1}};
    CASE_BEGIN;
    gjk2_cast_output o = shapecast(&seg, ta, &box, tb, dv(-0x1.08326cp+1, 0x1.8282a2p+1), 0);
    ENSURE(o.status == GJK_MISS);
    CASE_END("box passing 1e-4 from a segment");
}

static void test_ray_inside_and_misses(void) {
    gjk2_shape box = gjk2_make_box(V2(2, 1));
    gjk_transform2 tb = pose(0, 0, 0);
    {
        CASE_BEGIN;
        // Inside, nearest the top face (0.3 away).
        gjk2_cast_output out = ray(&box, tb, dv(0.5, 0.7), dv(1, 0), 10);
        ENSURE(out.status == GJK_INITIALLY_OVERLAPPING);
        ENSURE(out.hit);
        ENSURE(out.t == 0);
        ENSURE_V2_NEAR(out.point, d_of(V2(0.5, 0.7)), 0); // the origin as given
        ENSURE_V2_NEAR(out.normal, dv(0, 1), TOL(4));
        // Inside a turned box, nearest its left face.
        gjk_transform2 tr = pose(3, -1, 1.1);
        d2 o = d_to_world(tr, dv(-1.8, 0.1));
        out = ray(&box, tr, o, dv(0, 1), 10);
        ENSURE(out.status == GJK_INITIALLY_OVERLAPPING);
        ENSURE_V2_NEAR(out.point, d_of(V2d(o)), 0);
        ENSURE_V2_NEAR(out.normal, d_rot(tr, dv(-1, 0)), TOL(8));
        // On the surface counts as inside.
        out = ray(&box, tb, dv(2, 0.2), dv(-1, 0), 10);
        ENSURE(out.status == GJK_INITIALLY_OVERLAPPING);
        ENSURE(out.t == 0);
        ENSURE_V2_NEAR(out.point, d_of(V2(2, 0.2)), 0);
        ENSURE_V2_NEAR(out.normal, dv(1, 0), TOL(4));
        // Inside a circle, whatever the direction.
        gjk2_shape c = gjk2_make_circle(1);
        out = ray(&c, pose(1, 1, 0), dv(1.3, 1.4), dv(0, 0), 0);
        ENSURE(out.status == GJK_INITIALLY_OVERLAPPING);
        ENSURE_V2_NEAR(out.normal, dv(0.6, 0.8), TOL(4));
        CASE_END("rays starting inside");
    }
    {
        CASE_BEGIN;
        // The face is at t = 4: max_t 3.9 misses, 4.1 hits.
        expect_miss(ray(&box, tb, dv(-6, 0.5), dv(1, 0), 3.9));
        ENSURE(ray(&box, tb, dv(-6, 0.5), dv(1, 0), 4.1).status == GJK_HIT);
        // Away, beside, parallel, a zero direction.
        expect_miss(ray(&box, tb, dv(-6, 0.5), dv(-1, 0), 100));
        expect_miss(ray(&box, tb, dv(-6, 1.5), dv(1, 0), 100));
        expect_miss(ray(&box, tb, dv(-6, 3), dv(1, -0.2), 100));
        expect_miss(ray(&box, tb, dv(-6, 0), dv(0, 0), 100));
        expect_miss(ray(&box, tb, dv(0, 3), dv(1, 1e-4), 1e6)); // above, drifting up: never nears the top face
        expect_miss(ray(&box, tb, dv(-6, 0), dv(1, 0), 0));
        CASE_END("ray misses");
    }
}

// ---------------------------------------------------------------------------
// Shape casts.

static void test_shapecast_circles(void) {
    // Circles r 1 and 0.5: (−5 + 8t)² + 0.6² = 1.5², t = (5 − √1.89)/8.
    gjk2_shape ca = gjk2_make_circle(1), cb = gjk2_make_circle((gjk_real)0.5);
    gjk_transform2 ta = pose(0, 0, 0.3), tb = pose(-5, 0.6, -1);
    double t = (5 - sqrt(1.89)) / 8;
    d2 cbt = dv(-5 + 8 * t, 0.6);
    d2 n = d_scale(1 / 1.5, cbt);
    CASE_BEGIN;
    expect_hit(shapecast(&ca, ta, &cb, tb, dv(8, 0), 0), t, n, n, TOL(6), TOL(6), TOL(6));
    // The same shifted far from the origin.
    gjk_transform2 ta2 = pose(1000, -2000, 0.3), tb2 = pose(995, -1999.4, -1);
    expect_hit(shapecast(&ca, ta2, &cb, tb2, dv(8, 0), 0), t, d_add(n, dv(1000, -2000)), n, TOL(3000), TOL(3000),
               TOL(3000));
    // Rounded by margins instead of radii: the same answer.
    gjk2_shape pa = gjk2_with_margin(gjk2_make_point(), 1), pb = gjk2_with_margin(gjk2_make_point(), (gjk_real)0.5);
    expect_hit(shapecast(&pa, ta, &pb, tb, dv(8, 0), 0), t, n, n, TOL(6), TOL(6), TOL(6));
    // Too short a motion misses.
    expect_miss(shapecast(&ca, ta, &cb, tb, dv(3, 0), 0));
    CASE_END("circle-circle");
}

static void test_shapecast_boxes(void) {
    gjk2_shape floor = gjk2_make_box(V2(2, 0.5));
    gjk2_shape crate = gjk2_make_box(V2(0.5, 0.5));
    gjk_transform2 ta = pose(0, 0, 0);
    {
        CASE_BEGIN;
        // Dropped flat from y = 3 by (0.4, −4): the bottom reaches y = 0.5
        // at t = 0.5, over x ∈ [0, 1].
        gjk2_cast_output out = shapecast(&floor, ta, &crate, pose(0.3, 3, 0), dv(0.4, -4), 0);
        ENSURE(out.status == GJK_HIT);
        ENSURE_NEAR(out.t, 0.5, TOL(4));
        ENSURE_NEAR(out.point.y, 0.5, TOL(4));
        ENSURE(out.point.x >= -TOL(4) && out.point.x <= 1 + TOL(4));
        ENSURE_V2_NEAR(out.normal, dv(0, 1), TOL(4));
        // Turned by 45°, a corner hits first: at t = (2.5 − √2/2)/4, at the
        // corner (0.3 + 0.4t, 0.5).
        double t = (2.5 - 0.5 * sqrt(2.0)) / 4;
        expect_hit(shapecast(&floor, ta, &crate, pose(0.3, 3, PI / 4), dv(0.4, -4), 0), t, dv(0.3 + 0.4 * t, 0.5),
                   dv(0, 1), TOL(4), TOL(4), TOL(4));
        // The whole scene turned and moved: the same time.
        gjk_transform2 w = pose(-7, 3, 2.2);
        gjk_transform2 ta2 = w;
        gjk_transform2 tb2 = {V2d(d_to_world(w, dv(0.3, 3))), gjk_rot2_make((gjk_real)(2.2 + PI / 4))};
        expect_hit(shapecast(&floor, ta2, &crate, tb2, d_rot(w, dv(0.4, -4)), 0), t,
                   d_to_world(w, dv(0.3 + 0.4 * t, 0.5)), d_rot(w, dv(0, 1)), TOL(12), TOL(12), TOL(12));
        CASE_END("box onto box");
    }
    {
        CASE_BEGIN;
        // A target separation of 0.1 stops the dropped box 0.1 short: its
        // bottom at y = 0.6, t = (2 − 0.1)/4.
        gjk2_cast_output out = shapecast(&floor, ta, &crate, pose(0.3, 3, 0), dv(0.4, -4), 0.1);
        ENSURE(out.status == GJK_HIT);
        ENSURE_NEAR(out.t, 1.9 / 4, TOL(4));
        ENSURE_NEAR(out.point.y, 0.5, TOL(4));
        ENSURE_V2_NEAR(out.normal, dv(0, 1), TOL(4));
        gjk2_penetration_output p = pen(&floor, ta, &crate, moved(pose(0.3, 3, 0), dv(0.4, -4), (double)out.t));
        ENSURE_NEAR(p.signed_distance, 0.1, TOL(4));
        // Circles: stops when the centres are 1.5 + 0.25 apart.
        gjk2_shape ca = gjk2_make_circle(1), cb = gjk2_make_circle((gjk_real)0.5);
        double t = (5 - sqrt(1.75 * 1.75 - 0.36)) / 8;
        out = shapecast(&ca, ta, &cb, pose(-5, 0.6, 0), dv(8, 0), 0.25);
        ENSURE(out.status == GJK_HIT);
        ENSURE_NEAR(out.t, t, TOL(6));
        ENSURE_V2_NEAR(out.point, d_scale(1 / 1.75, dv(-5 + 8 * t, 0.6)), TOL(6));
        // Within the target at the start, not overlapping: a hit at t = 0
        // with the separation normal.
        out = shapecast(&floor, ta, &crate, pose(0, 1.05, 0), dv(0, -1), 0.1);
        ENSURE(out.status == GJK_HIT);
        ENSURE(out.t == 0);
        ENSURE_V2_NEAR(out.normal, dv(0, 1), TOL(4));
        ENSURE_NEAR(out.point.y, 0.5, TOL(4));
        CASE_END("target separation");
    }
}

static void test_shapecast_sliding(void) {
    // A box slides along the floor's top at a small gap, from beside the
    // floor to beyond it: it never comes within the touching band, so a
    // miss (not a hit with a zero normal). In float the touching band at
    // this size (2e-6 × about 5) holds a gap of 1e-6: there the first
    // contact is where the crate's corner meets the floor's corner, at
    // t = 1.5/8 (within the band), with a unit normal; a gap of 1e-4 misses
    // in both precisions.
    gjk2_shape floor = gjk2_make_box(V2(2, 0.5));
    gjk2_shape crate = gjk2_make_box(V2(0.5, 0.5));
    const double gaps[] = {1e-6, 1e-4};
    const double angles[] = {0, 0.7};
    for (int g = 0; g < 2; ++g) {
        for (int k = 0; k < 2; ++k) {
            CASE_BEGIN;
            gjk_transform2 w = pose(k * 3.0, k * -2.0, angles[k]);
            double gap = gaps[g];
            gjk_transform2 ta = w;
            gjk_transform2 tb = {V2d(d_to_world(w, dv(-4, 1 + gap))), w.rotation};
            d2 across = d_rot(w, dv(8, 0));
            gjk2_cast_output out = shapecast(&floor, ta, &crate, tb, across, 0);
            ENSURE(all_finite(&out));
            if (GJK_USE_FLOAT && gap < 1e-5) {
                ENSURE(out.status == GJK_HIT);
                ENSURE_NEAR(out.t * 8, 1.5, TOL(5));
                ENSURE(fabs(sd_static(&floor, ta, &crate, moved(tb, across, (double)out.t))) <= TOL(5));
                ENSURE_NEAR(len2(out.normal), 1, 1e-5);
            } else {
                expect_miss(out);
                ENSURE(out.normal.x == 0 && out.normal.y == 0);
            }
            CASE_END("sliding at gap %g, scene angle %g", gap, angles[k]);
        }
    }
    // A slight downward component: falling by 2·gap over the motion, the
    // crate meets the floor at t = 0.5, over its top (the crate is over the
    // floor for t ∈ [0.1875, 0.8125]). The contact is on a face of the
    // Minkowski difference, which the cast reaches by an exact advance to
    // the face's line: t is exact up to the rounding of the coordinates,
    // about ε·size/fall. The expected time is computed from the stored
    // numbers (gap and fall in the floor's frame). The gap is 1e-6 in double
    // and 1e-2 in float (where 1e-6 is within the touching band).
    double gap = GJK_USE_FLOAT ? 1e-2 : 1e-6;
    for (int k = 0; k < 2; ++k) {
        CASE_BEGIN;
        gjk_transform2 w = pose(k * 3.0, k * -2.0, angles[k]);
        gjk_transform2 ta = w;
        gjk_transform2 tb = {V2d(d_to_world(w, dv(-4, 1 + gap))), w.rotation};
        gjk_vec2 tr = V2d(d_rot(w, dv(8, -2 * gap)));
        double c = (double)w.rotation.c, sn = (double)w.rotation.s, norm = hypot(c, sn);
        d2 up = dv(-sn / norm, c / norm);
        double gap_stored = d_dot(d_sub(d_of(tb.position), d_of(ta.position)), up) - 1;
        double fall_stored = -d_dot(d_of(tr), up);
        double t_exact = gap_stored / fall_stored;
        gjk2_cast_output o = shapecast(&floor, ta, &crate, tb, d_of(tr), 0);
        ENSURE(o.status == GJK_HIT);
        ENSURE_NEAR(t_exact, 0.5, 1e-3);
        ENSURE_NEAR(o.t, t_exact, 4 * GJK_REAL_EPSILON * 10 / (2 * gap));
        ENSURE_V2_NEAR(o.normal, d_rot(w, dv(0, 1)), TOL(10));
        d2 pl = d_to_local(ta, d_of(o.point));
        ENSURE_NEAR(pl.y, 0.5, TOL(10));
        ENSURE(pl.x >= -0.5 - TOL(10) && pl.x <= 0.5 + TOL(10)); // under the crate at t = 0.5
        CASE_END("sliding and falling, scene angle %g", angles[k]);
    }
}

static void test_cast_from_far(void) {
    // Casts that start far away (1e4 in double, 1e2 in float) converge to
    // the accuracy of the contact, not of their starting distance: the gap
    // at the reported time is within the tolerance of the shapes' size.
    double far = GJK_USE_FLOAT ? 1e2 : 1e4;
    gjk2_shape ca = gjk2_make_circle(1), cb = gjk2_make_circle((gjk_real)0.5);
    gjk2_shape box = gjk2_make_box(V2(1, 0.5));
    gjk_transform2 ta = pose(0, 0, 0.3);
    CASE_BEGIN;
    // Circles: (−far + 2·far·t)² + 0.6² = 1.5².
    gjk_transform2 tb = pose(-far, 0.6, 0);
    d2 tr = dv(2 * far, 0);
    gjk2_cast_output o = shapecast(&ca, ta, &cb, tb, tr, 0);
    double t = (far - sqrt(1.89)) / (2 * far);
    ENSURE(o.status == GJK_HIT);
    ENSURE_NEAR((double)o.t * 2 * far, t * 2 * far, TOL(3));
    ENSURE_V2_NEAR(o.normal, d_scale(1 / 1.5, dv(-sqrt(1.89), 0.6)), TOL(3));
    // A box onto a box, a vertex first (B turned by 45°).
    gjk_transform2 tb2 = pose(0.2, far, PI / 4);
    o = shapecast(&box, pose(0, 0, 0), &box, tb2, dv(0, -2 * far), 0);
    ENSURE(o.status == GJK_HIT);
    gjk2_penetration_output p = pen(&box, pose(0, 0, 0), &box, moved(tb2, dv(0, -2 * far), (double)o.t));
    ENSURE(fabs((double)p.signed_distance) <= TOL(3));
    ENSURE_V2_NEAR(o.normal, dv(0, 1), TOL(3));
    // A ray from far away onto the box's face x = −1 at y = 0.2.
    o = ray(&box, pose(0, 0, 0), dv(-far, 0.2), dv(1, 0), 2 * far);
    ENSURE(o.status == GJK_HIT);
    ENSURE_NEAR((double)o.t, far - 1, TOL(3));
    ENSURE_V2_NEAR(o.point, dv(-1, 0.2), TOL(3));
    ENSURE_V2_NEAR(o.normal, dv(-1, 0), TOL(3));
    CASE_END("casts from far away");
}

static void test_shapecast_initially_overlapping(void) {
    gjk2_shape floor = gjk2_make_box(V2(2, 0.5));
    gjk2_shape crate = gjk2_make_box(V2(0.5, 0.5));
    gjk_transform2 ta = pose(1, 1, 0.2);
    gjk_transform2 tb = {V2d(d_to_world(ta, dv(0.5, 0.8))), ta.rotation};
    CASE_BEGIN;
    gjk2_cast_output out = shapecast(&floor, ta, &crate, tb, dv(0, -3), 0);
    gjk2_penetration_output p = pen(&floor, ta, &crate, tb);
    ENSURE(out.status == GJK_INITIALLY_OVERLAPPING);
    ENSURE(out.hit);
    ENSURE(out.t == 0);
    ENSURE_V2_NEAR(out.normal, p.normal, 0);
    ENSURE_V2_NEAR(out.point, p.point_a, 0);
    ENSURE_V2_NEAR(out.normal, d_rot(ta, dv(0, 1)), TOL(4));
    // Overlapping and moving apart: still initially overlapping.
    out = shapecast(&floor, ta, &crate, tb, dv(0, 3), 0);
    ENSURE(out.status == GJK_INITIALLY_OVERLAPPING);
    // Just touching at the start (within the band): a hit at t = 0.
    gjk_transform2 touch = pose(0, 1, 0);
    out = shapecast(&floor, pose(0, 0, 0), &crate, touch, dv(0, -1), 0);
    ENSURE(out.status == GJK_HIT);
    ENSURE(out.t == 0);
    ENSURE_V2_NEAR(out.normal, dv(0, 1), TOL(4));
    CASE_END("initially overlapping");
}

static void test_cast_iteration_cap(void) {
    // A turned box dropped onto a box needs several ray-cast steps: with a
    // cap of one the answer is not converged, safe (before the contact),
    // finite, and not a hit.
    gjk2_shape floor = gjk2_make_box(V2(2, 0.5));
    gjk2_shape crate = gjk2_make_box(V2(0.5, 0.5));
    gjk2_shapecast_input in;
    memset(&in, 0, sizeof in);
    in.shape_a = &floor;
    in.transform_a = pose(0, 0, 0);
    in.shape_b = &crate;
    in.transform_b = pose(-1.3, 3, PI / 4 + 0.1);
    in.translation_b = V2(1.6, -4);
    CASE_BEGIN;
    gjk2_cast_output full = gjk2_shapecast(&in);
    ENSURE(full.status == GJK_HIT);
    ENSURE(full.iterations > 1);
    in.options.max_iterations = 1;
    gjk2_cast_output o = gjk2_shapecast(&in);
    ENSURE(o.status == GJK_NOT_CONVERGED);
    ENSURE(!o.hit);
    ENSURE(o.iterations == 1);
    ENSURE(all_finite(&o));
    ENSURE(o.t >= 0 && o.t <= full.t);
    // A ray needs more than one step too (its first point is a corner).
    gjk2_raycast_input ri;
    memset(&ri, 0, sizeof ri);
    ri.shape = &floor;
    ri.transform = pose(0, 0, 0.3);
    ri.origin = V2(0.2, 5);
    ri.direction = V2(0, -1);
    ri.max_t = 10;
    ri.options.max_iterations = 1;
    o = gjk2_raycast(&ri);
    ENSURE(o.status == GJK_NOT_CONVERGED);
    ENSURE(!o.hit && all_finite(&o));
    ri.options.max_iterations = 0;
    ENSURE(gjk2_raycast(&ri).status == GJK_HIT);
    CASE_END("iteration cap of the cast");
}

// Random shapes for the differential tests.
typedef struct rshape {
    gjk2_shape shape;
    gjk_vec2 verts[8];
    double bound; // |p| ≤ bound over the shape
    int curved;   // an ellipse core
    double curvature_radius;
} rshape;

static void random_shape(rng *r, rshape *s) {
    double k = rng_range(r, 0.3, 2);
    int type = rng_int(r, 8);
    s->curved = 0;
    s->curvature_radius = 0;
    switch (type) {
    case 0: {
        double hx = rng_range(r, 0.2, 1) * k;
        double hy = rng_range(r, 0.2, 1) * k;
        s->shape = gjk2_make_box(V2(hx, hy));
        s->bound = hypot(hx, hy);
        break;
    }
    case 1:
        s->shape = gjk2_make_circle((gjk_real)k);
        s->bound = k;
        break;
    case 2: {
        double hl = rng_range(r, 0.1, 1) * k;
        double rad = rng_range(r, 0.1, 0.6) * k;
        s->shape = gjk2_make_capsule(V2(-hl, 0), V2(hl, 0), (gjk_real)rad);
        s->bound = hl + rad;
        break;
    }
    case 3: {
        double ax = rng_range(r, 0.3, 1) * k;
        double ay = rng_range(r, 0.3, 1) * k;
        s->shape = gjk2_make_ellipse(V2(ax, ay));
        s->bound = fmax(ax, ay);
        s->curved = 1;
        s->curvature_radius = fmax(ax * ax / ay, ay * ay / ax);
        break;
    }
    case 4: {
        int n = 3 + rng_int(r, 6);
        s->bound = 0;
        for (int i = 0; i < n; ++i) {
            double a = rng_range(r, 0, 2 * PI);
            double rad = rng_range(r, 0.3, 1) * k;
            s->verts[i] = V2(rad * cos(a), rad * sin(a));
            s->bound = fmax(s->bound, rad);
        }
        s->shape = gjk2_make_polygon(s->verts, n);
        break;
    }
    case 5: {
        double ax = rng_range(r, -1, 1) * k;
        double ay = rng_range(r, -1, 1) * k;
        double bx = rng_range(r, -1, 1) * k;
        double by = rng_range(r, -1, 1) * k;
        double cx = rng_range(r, -1, 1) * k;
        double cy = rng_range(r, -1, 1) * k;
        s->shape = gjk2_make_triangle(V2(ax, ay), V2(bx, by), V2(cx, cy));
        s->bound = fmax(hypot(ax, ay), fmax(hypot(bx, by), hypot(cx, cy)));
        break;
    }
    case 6: {
        double hl = rng_range(r, 0.2, 1) * k;
        s->shape = gjk2_make_segment(V2(-hl, 0), V2(hl, 0));
        s->bound = hl;
        break;
    }
    default: {
        double hx = rng_range(r, 0.1, 1) * k;
        double hy = rng_range(r, 0.1, 1) * k;
        s->shape = gjk2_make_box(V2(hx, hy));
        s->bound = hypot(hx, hy);
        break;
    }
    }
    if (rng_int(r, 3) == 0) {
        double m = rng_range(r, 0.02, 0.3) * k;
        s->shape = gjk2_with_margin(s->shape, (gjk_real)m);
        s->bound += m;
    }
    if (s->shape.type == GJK2_SHAPE_POLYGON) {
        s->shape.polygon.vertices = s->verts; // the struct was copied: point at this copy's vertices
    }
}

/// max over the shape of n·x (world), from its support function.
static double height(const gjk2_shape *s, gjk_transform2 t, d2 n) {
    d2 local = d_of(gjk2_shape_support(s, V2d(d_inv_rot(t, n))));
    return d_dot(d_to_world(t, local), n);
}

/// The gap between A and B along n (from A to B): min over B of n·x minus
/// max over A of n·x. At most the signed distance for every unit n, equal
/// to it along a contact normal; a wrong normal shows as an overlap.
static double gap_along(const gjk2_shape *a, gjk_transform2 ta, const gjk2_shape *b, gjk_transform2 tb, d2 n) {
    return -height(b, tb, d_scale(-1, n)) - height(a, ta, n);
}

/// Bisection of the first contact time on sd ≤ 0 between lo (apart) and hi
/// (overlapping).
static double bisect_contact(const gjk2_shape *a, gjk_transform2 ta, const gjk2_shape *b, gjk_transform2 tb, d2 tr,
                             double lo, double hi) {
    for (int i = 0; i < 80 && hi - lo > 0; ++i) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) {
            break;
        }
        if ((double)pen(a, ta, b, moved(tb, tr, mid)).signed_distance <= 0) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    return 0.5 * (lo + hi);
}

static void test_shapecast_random(void) {
    rng r = {2024};
    int hits = 0, misses = 0, starts = 0;
    double worst = 0, worst_gap = 0;
    for (int k = 0; k < 300; ++k) {
        CASE_BEGIN;
        rshape sa, sb;
        random_shape(&r, &sa);
        random_shape(&r, &sb);
        double pax = rng_range(&r, -5, 5);
        double pay = rng_range(&r, -5, 5);
        double aa = rng_range(&r, -PI, PI);
        double ab = rng_range(&r, -PI, PI);
        double u = rng_range(&r, 0, 2 * PI);
        double dist = sa.bound + sb.bound + rng_range(&r, -0.3, 3);
        gjk_transform2 ta = pose(pax, pay, aa);
        gjk_transform2 tb = pose(pax + dist * cos(u), pay + dist * sin(u), ab);
        // Aim at a point near A (sometimes beside it, for misses and grazes).
        double spread = rng_int(&r, 4) == 0 ? 1.5 * (sa.bound + sb.bound) : 0.6 * sa.bound;
        double ox = rng_range(&r, -spread, spread);
        double oy = rng_range(&r, -spread, spread);
        double scale = rng_range(&r, 0.5, 1.6);
        d2 tr = d_scale(scale, d_sub(dv(pax + ox, pay + oy), d_of(tb.position)));
        gjk2_cast_output out = shapecast(&sa.shape, ta, &sb.shape, tb, tr, 0);
        double size = sa.bound + sb.bound + fabs(pax) + fabs(pay) + d_len(tr);
        ENSURE(all_finite(&out));
        ENSURE(out.status == GJK_HIT || out.status == GJK_MISS || out.status == GJK_INITIALLY_OVERLAPPING);
        // The reference: the first of 201 samples with sd ≤ 0, then bisection.
        int first = -1;
        for (int i = 0; i <= 200 && first < 0; ++i) {
            if ((double)pen(&sa.shape, ta, &sb.shape, moved(tb, tr, i / 200.0)).signed_distance <= 0) {
                first = i;
            }
        }
        if (first == 0) {
            ++starts;
            ENSURE(out.t == 0 && out.hit);
        } else if (first > 0) {
            ++hits;
            double tref = bisect_contact(&sa.shape, ta, &sb.shape, tb, tr, (first - 1) / 200.0, first / 200.0);
            ENSURE(out.status == GJK_HIT);
            // The time error as a gap along the contact normal.
            gjk2_penetration_output p = pen(&sa.shape, ta, &sb.shape, moved(tb, tr, tref));
            double closing = fabs(d_dot(tr, d_of(p.normal)));
            double err = fabs((double)out.t - tref) * closing;
            worst = fmax(worst, err / TOL(size));
            ENSURE(err <= 4 * TOL(size));
            if (!(err <= 4 * TOL(size))) {
                fprintf(stderr, "  t %.17g, bisection %.17g, closing speed %g\n", (double)out.t, tref, closing);
            }
        } else {
            // No sample overlaps: a miss, or a graze between two samples.
            if (out.status == GJK_MISS) {
                ++misses;
            } else {
                ENSURE(out.status == GJK_HIT);
            }
        }
        if (out.status == GJK_HIT) {
            // At the reported time the shapes touch, and the point lies on A.
            gjk2_penetration_output p = pen(&sa.shape, ta, &sb.shape, moved(tb, tr, (double)out.t));
            double sd_tol = 4 * TOL(size);
            ENSURE(fabs((double)p.signed_distance) <= sd_tol);
            double ptol = sa.curved ? CURVED_TOL(sa.curvature_radius, size) : sd_tol;
            ENSURE(fabs(sd_point(&sa.shape, ta, d_of(out.point))) <= ptol);
            ENSURE_NEAR(len2(out.normal), 1, 1e-5);
            // B moves toward A along the normal, which is a contact normal:
            // the shapes touch along it.
            ENSURE(d_dot(tr, d_of(out.normal)) <= TOL(size));
            gjk_transform2 tb_t = moved(tb, tr, (double)out.t);
            double gap = gap_along(&sa.shape, ta, &sb.shape, tb_t, d_of(out.normal));
            worst_gap = fmax(worst_gap, fabs(gap) / TOL(size));
            ENSURE(fabs(gap) <= sd_tol);
        }
        CASE_END("random shape cast %d (types %d, %d)", k, (int)sa.shape.type, (int)sb.shape.type);
    }
    printf("  random shape casts: %d hits, %d misses, %d starting in contact; worst time error %.2f tolerances (as a "
           "gap), worst gap along the normal %.2f\n",
           hits, misses, starts, worst, worst_gap);
    ENSURE(hits > 150 && misses > 10);
}

// ---------------------------------------------------------------------------
// Time of impact.

static void test_sweep_at(void) {
    CASE_BEGIN;
    // Position linear; angle along the shorter arc: from 3 to −3 turns by
    // 2π − 6 (counter-clockwise, through π).
    gjk2_sweep s = sweep(pose(1, 2, 3), pose(3, -2, -3));
    gjk_transform2 m = gjk2_sweep_at(&s, (gjk_real)0.5);
    ENSURE_V2_NEAR(m.position, dv(2, 0), 1e-6);
    double half = 3 + 0.5 * (2 * PI - 6);
    ENSURE_NEAR(m.rotation.c, cos(half), TOL(4));
    ENSURE_NEAR(m.rotation.s, sin(half), TOL(4));
    gjk_transform2 e = gjk2_sweep_at(&s, 1);
    ENSURE_NEAR(e.rotation.c, cos(-3.0), TOL(4));
    ENSURE_NEAR(e.rotation.s, sin(-3.0), TOL(4));
    gjk_transform2 b = gjk2_sweep_at(&s, 0);
    ENSURE_V2_NEAR(b.position, dv(1, 2), 0);
    // A NULL sweep (contract audit: it crashed): the identity.
    gjk_transform2 none = gjk2_sweep_at(NULL, (gjk_real)0.5);
    ENSURE(none.position.x == 0 && none.position.y == 0 && none.rotation.c == 1 && none.rotation.s == 0);
    ENSURE_NEAR(b.rotation.c, cos(3.0), TOL(4));
    // A half turn goes counter-clockwise (+π).
    gjk2_sweep h = {{V2(0, 0), gjk_rot2_identity()}, {V2(0, 0), {-1, 0}}};
    m = gjk2_sweep_at(&h, (gjk_real)0.5);
    ENSURE_NEAR(m.rotation.c, 0, TOL(4));
    ENSURE_NEAR(m.rotation.s, 1, TOL(4));
    // From π to 0 the half turn is +π as well (the relative rotation's sine
    // is −0 there): at t = 0.5 the angle is 3π/2.
    gjk2_sweep h2 = {{V2(0, 0), {-1, 0}}, {V2(0, 0), {1, 0}}};
    m = gjk2_sweep_at(&h2, (gjk_real)0.5);
    ENSURE_NEAR(m.rotation.c, 0, TOL(4));
    ENSURE_NEAR(m.rotation.s, -1, TOL(4));
    // From 3 to 3 + 2.5 (= 5.5 − 2π): +2.5, not wrapped the long way.
    gjk2_sweep l = sweep(pose(0, 0, 3), pose(0, 0, 5.5));
    m = gjk2_sweep_at(&l, (gjk_real)0.5);
    ENSURE_NEAR(m.rotation.c, cos(4.25), TOL(4));
    ENSURE_NEAR(m.rotation.s, sin(4.25), TOL(4));
    // Rotations need not be unit.
    gjk2_sweep u = {{V2(0, 0), {2, 0}}, {V2(0, 0), {0, 3}}};
    m = gjk2_sweep_at(&u, (gjk_real)0.5);
    ENSURE_NEAR(m.rotation.c, sqrt(0.5), TOL(4));
    ENSURE_NEAR(m.rotation.s, sqrt(0.5), TOL(4));
    CASE_END("sweep_at");
}

static void test_toi_translation_matches_shapecast(void) {
    rng r = {77};
    int hits = 0;
    for (int k = 0; k < 100; ++k) {
        CASE_BEGIN;
        rshape sa, sb;
        random_shape(&r, &sa);
        random_shape(&r, &sb);
        double aa = rng_range(&r, -PI, PI);
        double ab = rng_range(&r, -PI, PI);
        double u = rng_range(&r, 0, 2 * PI);
        double dist = sa.bound + sb.bound + rng_range(&r, 0.2, 2);
        double vax = rng_range(&r, -1, 1);
        double vay = rng_range(&r, -1, 1);
        double ox = rng_range(&r, -0.5, 0.5) * sa.bound;
        double oy = rng_range(&r, -0.5, 0.5) * sa.bound;
        double scale = rng_range(&r, 0.5, 1.6);
        gjk_transform2 ta = pose(1, -1, aa);
        gjk_transform2 tb = pose(1 + dist * cos(u), -1 + dist * sin(u), ab);
        d2 rel = d_scale(scale, d_sub(dv(1 + ox, -1 + oy), d_of(tb.position))); // B relative to A
        d2 va = dv(vax, vay);
        d2 vb = d_add(rel, va);
        gjk2_sweep swa = sweep(ta, moved(ta, va, 1)), swb = sweep(tb, moved(tb, vb, 1));
        gjk2_cast_output c = shapecast(&sa.shape, ta, &sb.shape, tb, rel, 0);
        gjk2_cast_output o = toi(&sa.shape, swa, &sb.shape, swb, 0, 0);
        double size = sa.bound + sb.bound + 4 + d_len(vb);
        ENSURE(all_finite(&o));
        ENSURE(o.status == c.status);
        if (o.status == GJK_HIT && c.status == GJK_HIT) {
            ++hits;
            gjk2_penetration_output p = pen(&sa.shape, ta, &sb.shape, moved(tb, rel, (double)c.t));
            double closing = fabs(d_dot(rel, d_of(p.normal)));
            ENSURE(fabs((double)o.t - (double)c.t) * closing <= 4 * TOL(size));
            // The shapes touch at the time of impact.
            gjk2_penetration_output q = pen(&sa.shape, gjk2_sweep_at(&swa, o.t), &sb.shape, gjk2_sweep_at(&swb, o.t));
            ENSURE(fabs((double)q.signed_distance) <= 4 * TOL(size));
            ENSURE(d_dot(rel, d_of(o.normal)) <= TOL(size));
        }
        CASE_END("translation-only time of impact %d (types %d, %d)", k, (int)sa.shape.type, (int)sb.shape.type);
    }
    ENSURE(hits > 50);
    {
        // Exact: a box dropping onto a box that rises, 2 apart closing at
        // 4 per step: t = 0.5, normal up, contact on A's top at y = 0.5 + 0.5.
        CASE_BEGIN;
        gjk2_shape floor = gjk2_make_box(V2(2, 0.5));
        gjk2_shape crate = gjk2_make_box(V2(0.5, 0.5));
        gjk2_sweep swa = sweep(pose(0, 0, 0), pose(0, 1, 0));
        gjk2_sweep swb = sweep(pose(0.3, 3, PI / 4), pose(0.3, 0, PI / 4));
        double t = (2.5 - 0.5 * sqrt(2.0)) / 4;
        expect_hit(toi(&floor, swa, &crate, swb, 0, 0), t, dv(0.3, 0.5 + t), dv(0, 1), TOL(4), TOL(4), TOL(4));
        CASE_END("two moving boxes");
    }
}

static void test_toi_bullet(void) {
    // A circle of radius 0.05 at 100 units/s over a 1/60 s step against a
    // wall of half extents (0.01, 1): it would pass the wall between two
    // frames. Contact when the centre reaches x = −0.06: t = 0.94 / (100/60).
    CASE_BEGIN;
    gjk2_shape wall = gjk2_make_box(V2(0.01, 1));
    gjk2_shape bullet = gjk2_make_circle((gjk_real)0.05);
    double step = 100.0 / 60.0;
    gjk2_sweep sw = sweep(pose(0, 0, 0), pose(0, 0, 0));
    gjk2_sweep sb = sweep(pose(-1, 0.2, 0), pose(-1 + step, 0.2, 0));
    double t = 0.94 / step;
    gjk2_cast_output o = toi(&wall, sw, &bullet, sb, 0, 0);
    expect_hit(o, t, dv(-0.01, 0.2), dv(-1, 0), TOL(2), TOL(2), TOL(2));
    // The discrete poses at both ends do not overlap (it tunnels there).
    ENSURE(pen(&wall, sw.start, &bullet, sb.start).status == GJK_SEPARATED);
    ENSURE(pen(&wall, sw.end, &bullet, sb.end).status == GJK_SEPARATED);
    // The same with the roles swapped: normal from the bullet to the wall.
    o = toi(&bullet, sb, &wall, sw, 0, 0);
    expect_hit(o, t, dv(-0.06 + 0.05, 0.2), dv(1, 0), TOL(2), TOL(2), TOL(2));
    // A slower bullet stops short: a miss.
    gjk2_sweep slow = sweep(pose(-1, 0.2, 0), pose(-0.5, 0.2, 0));
    expect_miss(toi(&wall, sw, &bullet, slow, 0, 0));
    CASE_END("bullet through a thin wall");
}

/// Signed distance of two sweeps at t.
static double sd_sweeps(const gjk2_shape *a, const gjk2_sweep *sa, const gjk2_shape *b, const gjk2_sweep *sb,
                        double t) {
    return (double)pen(a, gjk2_sweep_at(sa, (gjk_real)t), b, gjk2_sweep_at(sb, (gjk_real)t)).signed_distance;
}

/// Do the sweeps overlap for certain at t: penetrating by more than the
/// touching band of the penetration query?
static int overlap_at(const gjk2_shape *a, const gjk2_sweep *sa, const gjk2_shape *b, const gjk2_sweep *sb,
                      double t) {
    return pen(a, gjk2_sweep_at(sa, (gjk_real)t), b, gjk2_sweep_at(sb, (gjk_real)t)).status == GJK_PENETRATING;
}

/// The true first contact by dense sampling (n + 1 samples) and bisection
/// on a certain overlap: returns 0 when no sample overlaps, else 1 with
/// *hi the first time found to overlap (within 1e-15) and *lo a time before
/// it, not overlapping. A time of impact later than *hi would have passed
/// into the other shape.
static int sampled_first_contact(const gjk2_shape *a, const gjk2_sweep *sa, const gjk2_shape *b,
                                 const gjk2_sweep *sb, int n, double *lo, double *hi) {
    int first = -1;
    for (int i = 0; i <= n && first < 0; ++i) {
        if (overlap_at(a, sa, b, sb, (double)i / n)) {
            first = i;
        }
    }
    if (first < 0) {
        return 0;
    }
    double l = first > 0 ? (double)(first - 1) / n : 0, h = (double)first / n;
    for (int i = 0; i < 60 && first > 0; ++i) {
        double mid = 0.5 * (l + h);
        if (mid <= l || mid >= h) {
            break;
        }
        if (overlap_at(a, sa, b, sb, mid)) {
            h = mid;
        } else {
            l = mid;
        }
    }
    *lo = l;
    *hi = h;
    return 1;
}

static void test_toi_spinning_bar(void) {
    // A bar of half extents (1, 0.02) spinning about its centre from 0 to
    // 1.2 rad sweeps its tip through a wall of half extents (0.01, 0.5) at
    // (0.7, 0.8): neither end pose touches the wall.
    gjk2_shape bar = gjk2_make_box(V2(1, 0.02));
    gjk2_shape wall = gjk2_make_box(V2(0.01, 0.5));
    gjk2_sweep sbar = sweep(pose(0, 0, 0), pose(0, 0, 1.2));
    gjk2_sweep swall = sweep(pose(0.7, 0.8, 0), pose(0.7, 0.8, 0));
    CASE_BEGIN;
    ENSURE(pen(&bar, sbar.start, &wall, swall.start).status == GJK_SEPARATED);
    ENSURE(pen(&bar, sbar.end, &wall, swall.end).status == GJK_SEPARATED);
    double lo = 0, hi = 0;
    ENSURE(sampled_first_contact(&bar, &sbar, &wall, &swall, 4000, &lo, &hi));
    gjk2_cast_output o = toi(&bar, sbar, &wall, swall, 0, 0);
    ENSURE(o.status == GJK_HIT);
    ENSURE(o.hit);
    ENSURE(all_finite(&o));
    ENSURE((double)o.t <= hi);                 // never later than the first contact
    ENSURE((double)o.t >= lo - 10 * TOL(2));   // and close to it (within the touching band)
    ENSURE(fabs(sd_sweeps(&bar, &sbar, &wall, &swall, (double)o.t)) <= 4 * TOL(2));
    ENSURE_NEAR(len2(o.normal), 1, 1e-5);
    ENSURE(o.iterations > 1 && o.iterations < GJK_DEFAULT_MAX_TOI_ITERATIONS);
    printf("  spinning bar: t %.9f (first contact in [%.9f, %.9f]), %d steps\n", (double)o.t, lo, hi, o.iterations);
    // Spinning the other way round (−1.2 rad from 1.2) through the same wall
    // from the other side.
    gjk2_sweep back = sweep(pose(0, 0, 1.2), pose(0, 0, 0));
    ENSURE(sampled_first_contact(&bar, &back, &wall, &swall, 4000, &lo, &hi));
    o = toi(&bar, back, &wall, swall, 0, 0);
    ENSURE(o.status == GJK_HIT);
    ENSURE((double)o.t <= hi);
    ENSURE((double)o.t >= lo - 10 * TOL(2));
    // A target separation stops earlier, at that distance.
    o = toi(&bar, sbar, &wall, swall, 0.05, 0);
    ENSURE(o.status == GJK_HIT);
    ENSURE_NEAR(sd_sweeps(&bar, &sbar, &wall, &swall, (double)o.t), 0.05, 4 * TOL(2));
    // The cap of one step: not converged, safe (before the contact), finite.
    o = toi(&bar, sbar, &wall, swall, 0, 1);
    ENSURE(o.status == GJK_NOT_CONVERGED);
    ENSURE(!o.hit);
    ENSURE(o.iterations == 1);
    ENSURE(all_finite(&o));
    ENSURE((double)o.t > 0 && (double)o.t <= lo);
    // Apart: turning away from the wall misses.
    gjk2_sweep away = sweep(pose(0, 0, 0), pose(0, 0, -1.2));
    expect_miss(toi(&bar, away, &wall, swall, 0, 0));
    CASE_END("spinning bar");
}

static gjk_vec2 needle_support(const void *data, gjk_vec2 d) {
    (void)data;
    return gjk_v2(d.x < 0 ? -1 : 1, (gjk_real)(d.y < 0 ? -0.005 : 0.005));
}

static void test_toi_spinning_needle(void) {
    // A needle of half extents (1, 0.005) turning about its centre from
    // −0.5 to 0.5 rad sweeps its side into the inner end of a plate lying
    // along the x axis from x = 0.98 to 1.48: the contact point, 0.98 from
    // the centre, closes at ω·0.98, nearly the bound ω·ρ (ρ = |(1, 0.005)|).
    // An advancement that underestimated ρ by 2% would step into the plate.
    gjk2_shape needle = gjk2_make_box(V2(1, 0.005));
    gjk2_shape plate = gjk2_make_box(V2(0.25, 0.01));
    gjk2_sweep sn = sweep(pose(0, 0, -0.5), pose(0, 0, 0.5));
    gjk2_sweep sp = sweep(pose(1.23, 0, 0), pose(1.23, 0, 0));
    CASE_BEGIN;
    double lo = 0, hi = 0;
    ENSURE(sampled_first_contact(&plate, &sp, &needle, &sn, 4000, &lo, &hi));
    // By hand: the needle's leading side (y' = 0.005 in its frame) reaches
    // the plate's corner (0.98, −0.01) when −0.98·sin θ − 0.01·cos θ =
    // 0.005, θ = −asin(0.005/R) − atan2(0.01, 0.98), R = |(0.98, 0.01)|;
    // its tip corner would need θ = −asin(0.01/|(1, 0.005)|) − atan(0.005),
    // later. The needle's angle is −0.5 + t.
    double R = hypot(0.98, 0.01);
    double th = -asin(0.005 / R) - atan2(0.01, 0.98);
    ENSURE(th < -asin(0.01 / hypot(1, 0.005)) - atan(0.005));
    // The sampled bracket agrees (its lower end is where the penetration
    // query stops calling it touching: up to its band past the contact).
    ENSURE(th + 0.5 <= hi && th + 0.5 >= lo - 4 * TOL(3) / 0.98);
    gjk2_cast_output o = toi(&plate, sp, &needle, sn, 0, 0);
    ENSURE(o.status == GJK_HIT);
    ENSURE_NEAR(o.t, th + 0.5, 4 * TOL(3) / 0.98);
    ENSURE((double)o.t <= hi);
    ENSURE((double)o.t >= lo - 10 * TOL(3));
    double tc = -0.5 + (double)o.t; // the needle's angle at the contact
    ENSURE_V2_NEAR(o.normal, dv(sin(tc), -cos(tc)), 1e-4);
    // The same needle as a custom shape whose radius hint (0.01) is far too
    // small: the hint only sets the tolerance scale; the bound comes from the
    // support function, and the time is the same.
    gjk2_shape custom = gjk2_make_custom(needle_support, NULL, (gjk_real)0.01);
    gjk2_cast_output oc = toi(&plate, sp, &custom, sn, 0, 0);
    ENSURE(oc.status == GJK_HIT);
    ENSURE((double)oc.t <= hi);
    ENSURE_NEAR(oc.t, th + 0.5, 4 * TOL(3) / 0.98);
    CASE_END("spinning needle");
}

static void test_toi_small_rotation(void) {
    // A plate of half extents (1, 0.01) turning by a tiny angle Δ about its
    // centre lifts its tip corner (1, 0.01) by about Δ: a block whose bottom
    // is Δ/2 above the corner is reached at t ≈ 0.5. The turn must be seen:
    // cos Δ rounds to 1 (an angle from acos would be 0, and the advancement
    // would see no motion and miss). Δ = 1e-8 in double, 2e-4 in float
    // (whose touching band at this size is 5e-6).
    double delta = GJK_USE_FLOAT ? 2e-4 : 1e-8;
    gjk2_shape plate = gjk2_make_box(V2(1, 0.01));
    gjk2_shape block = gjk2_make_box(V2(0.1, 0.1));
    gjk2_sweep splate = sweep(pose(0, 0, 0), pose(0, 0, delta));
    double y_corner = (double)(gjk_real)0.01;
    gjk2_sweep sblock = sweep(pose(0.95, y_corner + 0.5 * delta + 0.1, 0), pose(0.95, y_corner + 0.5 * delta + 0.1, 0));
    CASE_BEGIN;
    gjk2_cast_output o = toi(&plate, splate, &block, sblock, 0, 0);
    ENSURE(o.status == GJK_HIT);
    ENSURE(o.hit);
    double lo = 0, hi = 0;
    ENSURE(sampled_first_contact(&plate, &splate, &block, &sblock, 1000, &lo, &hi));
    ENSURE((double)o.t <= hi);
    ENSURE(fabs(sd_sweeps(&plate, &splate, &block, &sblock, (double)o.t)) <= 4 * TOL(2));
    // The corner rises by sin(tΔ) + 0.01(cos(tΔ) − 1) ≈ tΔ: t ≈ 0.5, to
    // within the touching band over the rate Δ.
    ENSURE_NEAR(o.t, 0.5, 0.01 + 4 * TOL(2) / delta);
    CASE_END("small rotation, delta %g", delta);
}

static void test_toi_spinning_circle(void) {
    // Two unit circles, B passing A 1e-4 clear while turning 3 rad: a turn
    // of a circle about its centre moves none of its support points along
    // a normal, so it adds nothing to the advancement's bound (review
    // finding: the bound counted the radius, and the pass ended not
    // converged at the cap; without the turn a miss in 8 steps).
    gjk2_shape c = gjk2_make_circle(1);
    CASE_BEGIN;
    gjk2_cast_output o = toi(&c, sweep(pose(0, 0, 0), pose(0, 0, 0)), &c, sweep(pose(-3, 2.0001, 0), pose(3, 2.0001, 3)),
                             0, 0);
    ENSURE(o.status == GJK_MISS);
    ENSURE(o.iterations <= 16);
    // 1e-4 short of touching: the contact where the centres are 2 apart,
    // within the touching band (size about 4) over the closing rate along
    // the normal, 6 · 0.01.
    o = toi(&c, sweep(pose(0, 0, 0), pose(0, 0, 0)), &c, sweep(pose(-3, 1.9999, 0), pose(3, 1.9999, 3)), 0, 0);
    ENSURE(o.status == GJK_HIT);
    ENSURE_NEAR(o.t, (3 - sqrt(4 - 1.9999 * 1.9999)) / 6, 2 * TOL(4) / 0.06);
    CASE_END("spinning circles");
}

static void test_toi_spinning_disc(void) {
    // Review finding: an ellipse of equal radii (a disc) spinning 1 rad in
    // place 1e-3 above the ground never changes, yet the bound charged its
    // rim's speed and the steps crawled to the cap (not converged where it
    // misses). A disc's turn now costs nothing; an ellipse that is no disc
    // still pays for its own: lying on its long side (radii 0.5 and 0.2)
    // 1e-3 above the ground, a turn of 1 rad in place stands it up far
    // enough to touch.
    gjk2_shape ground = gjk2_make_box(gjk_v2(5, 0.5)), round = gjk2_make_ellipse(gjk_v2(0.5, 0.5));
    CASE_BEGIN;
    gjk2_cast_output o = toi(&ground, sweep(pose(0, -0.5, 0), pose(0, -0.5, 0)), &round,
                             sweep(pose(0, 0.501, 0), pose(0, 0.501, 1)), 0, 0);
    ENSURE(o.status == GJK_MISS);
    gjk2_shape oval = gjk2_make_ellipse(gjk_v2(0.5, 0.2));
    o = toi(&ground, sweep(pose(0, -0.5, 0), pose(0, -0.5, 0)), &oval, sweep(pose(0, 0.201, 0), pose(0, 0.201, 1)), 0,
            0);
    ENSURE(o.status == GJK_HIT);
    // Its lowest point at the turn θ = t: √(0.5² sin²θ + 0.2² cos²θ) below its
    // centre, which reaches 0.201 at sin²θ = (0.201² − 0.04) / 0.21.
    ENSURE_NEAR(o.t, asin(sqrt((0.201 * 0.201 - 0.04) / 0.21)), 2 * TOL(8) / 0.04); // closing at about 0.045
    CASE_END("spinning disc");
}

static void test_toi_slow_corner(void) {
    // The plane's twin of test_cast.c's: a unit square turning in place,
    // its centre h above the ground, its lowest corner at
    // h − (cos θ + sin θ)/2. At h = 0.707 it touches where the corner's
    // descent is slow against the rate |ω|ρ every point may have, and the
    // first-order steps ended not converged at the cap; at h = 0.7072 it
    // passes 9e-5 clear and they crawled through the closest approach. The
    // second-order bound (toi2.c) follows the corner's own rate.
    gjk2_shape ground = gjk2_make_box(gjk_v2(5, 0.5)), square = gjk2_make_box(gjk_v2(0.5, 0.5));
    const double turn = 1.2, r2 = sqrt(0.5);
    CASE_BEGIN;
    double h = 0.707;
    gjk2_cast_output o =
        toi(&ground, sweep(pose(0, -0.5, 0), pose(0, -0.5, 0)), &square, sweep(pose(0, h, 0), pose(0, h, turn)), 0, 0);
    double theta = asin(h / r2) - 3.14159265358979324 / 4; // (cos θ + sin θ)/2 = h
    double rate = 0.5 * (cos(theta) - sin(theta)) * turn;  // the corner's descent, per unit t
    ENSURE(o.status == GJK_HIT);
    ENSURE_NEAR(o.t, theta / turn, 4 * TOL(8) / rate);
    ENSURE(o.iterations < 32);
    h = 0.7072;
    o = toi(&ground, sweep(pose(0, -0.5, 0), pose(0, -0.5, 0)), &square, sweep(pose(0, h, 0), pose(0, h, turn)), 0, 0);
    ENSURE(o.status == GJK_MISS);
    ENSURE(o.iterations < 32);
    CASE_END("slow corner");
}

static void test_toi_random_spins(void) {
    // Random shapes turning (up to ±3 rad) and moving past a thin wall:
    // the time of impact is never after the sampled first contact, and a
    // miss overlaps at no sample.
    rng r = {99};
    int hits = 0, misses = 0;
    for (int k = 0; k < 60; ++k) {
        CASE_BEGIN;
        rshape s;
        random_shape(&r, &s);
        gjk2_shape wall = gjk2_make_box(V2(0.02, 1.5));
        double x0 = rng_range(&r, -3, -1.5) - s.bound;
        double y0 = rng_range(&r, -1, 1);
        double x1 = rng_range(&r, -1, 3);
        double y1 = rng_range(&r, -1.5, 1.5);
        double a0 = rng_range(&r, -PI, PI);
        double turn = rng_range(&r, -3, 3);
        gjk2_sweep sw = sweep(pose(0, 0, 0.1), pose(0, 0, 0.1));
        gjk2_sweep ss = sweep(pose(x0, y0, a0), pose(x1, y1, a0 + turn));
        double lo = 0, hi = 0;
        int contact = sampled_first_contact(&wall, &sw, &s.shape, &ss, 3000, &lo, &hi);
        gjk2_cast_output o = toi(&wall, sw, &s.shape, ss, 0, 0);
        double size = s.bound + 6;
        ENSURE(all_finite(&o));
        if (contact) {
            ++hits;
            ENSURE(o.status == GJK_HIT || o.status == GJK_INITIALLY_OVERLAPPING);
            ENSURE((double)o.t <= hi);
        } else if (o.status == GJK_MISS) {
            ++misses;
        } else {
            ENSURE(o.status == GJK_HIT); // a graze between samples
        }
        if (o.status == GJK_HIT) {
            ENSURE(fabs(sd_sweeps(&wall, &sw, &s.shape, &ss, (double)o.t)) <= 4 * TOL(size));
            ENSURE_NEAR(len2(o.normal), 1, 1e-5);
        }
        CASE_END("random spin %d (type %d)", k, (int)s.shape.type);
    }
    printf("  random spins: %d hits, %d misses\n", hits, misses);
    ENSURE(hits > 20);
}

static void test_toi_misc(void) {
    gjk2_shape a = gjk2_make_box(V2(1, 1));
    gjk2_shape b = gjk2_make_circle((gjk_real)0.5);
    CASE_BEGIN;
    // Apart and moving apart, or parallel: a miss.
    expect_miss(toi(&a, sweep(pose(0, 0, 0), pose(-1, 0, 0.5)), &b, sweep(pose(3, 0, 0), pose(4, 0, 0)), 0, 0));
    expect_miss(toi(&a, sweep(pose(0, 0, 0), pose(0, 5, 0)), &b, sweep(pose(3, 0, 0), pose(3, 5, 0)), 0, 0));
    // Overlapping at the start.
    gjk2_cast_output o = toi(&a, sweep(pose(0, 0, 0), pose(0, 0, 0)), &b, sweep(pose(1.2, 0, 0), pose(3, 0, 0)), 0, 0);
    ENSURE(o.status == GJK_INITIALLY_OVERLAPPING);
    ENSURE(o.hit && o.t == 0);
    ENSURE_V2_NEAR(o.normal, dv(1, 0), TOL(4));
    // Both moving toward each other, spinning: the box's corner reaches
    // the circle. A hit, touching at its time.
    gjk2_sweep sa = sweep(pose(-2, 0, 0), pose(0, 0, 2));
    gjk2_sweep sb = sweep(pose(2, 0.3, 0), pose(0, 0.3, 0));
    o = toi(&a, sa, &b, sb, 0, 0);
    ENSURE(o.status == GJK_HIT);
    ENSURE(fabs(sd_sweeps(&a, &sa, &b, &sb, (double)o.t)) <= 4 * TOL(6));
    double lo = 0, hi = 0;
    ENSURE(sampled_first_contact(&a, &sa, &b, &sb, 3000, &lo, &hi));
    ENSURE((double)o.t <= hi);
    CASE_END("time of impact, misc");
}

// ---------------------------------------------------------------------------
// Invalid input.

static gjk_vec2 nan_support(const void *data, gjk_vec2 d) {
    (void)data;
    (void)d;
    return gjk_v2((gjk_real)NAN, 0);
}

static void expect_invalid(gjk2_cast_output o, const char *what) {
    int before = test_failures;
    ENSURE(o.status == GJK_INVALID_INPUT);
    ENSURE(!o.hit);
    ENSURE(o.t == 0);
    ENSURE(o.point.x == 0 && o.point.y == 0);
    ENSURE(o.normal.x == 0 && o.normal.y == 0);
    ENSURE(o.iterations == 0);
    if (test_failures != before) {
        fprintf(stderr, "  in invalid case: %s\n", what);
    }
}

static void test_invalid_input(void) {
    gjk2_shape box = gjk2_make_box(V2(1, 1));
    gjk2_shape bad_circle = gjk2_make_circle(-1);
    gjk2_shape nan_custom = gjk2_make_custom(nan_support, NULL, 0);
    gjk_transform2 id = gjk_transform2_identity();
    const double nan = NAN;
    gjk2_raycast_input base;
    memset(&base, 0, sizeof base);
    base.shape = &box;
    base.transform = pose(3, 0, 0);
    base.direction = V2(1, 0);
    base.max_t = 10;

    gjk2_raycast_input ri = base;
    expect_invalid(gjk2_raycast(NULL), "NULL ray input");
    ri.shape = NULL;
    expect_invalid(gjk2_raycast(&ri), "NULL ray shape");
    ri = base;
    ri.shape = &bad_circle;
    expect_invalid(gjk2_raycast(&ri), "negative radius");
    ri = base;
    ri.origin = V2(nan, 0);
    expect_invalid(gjk2_raycast(&ri), "NaN origin");
    ri = base;
    ri.direction = V2(0, nan);
    expect_invalid(gjk2_raycast(&ri), "NaN direction");
    ri = base;
    ri.direction = V2(INFINITY, 0);
    expect_invalid(gjk2_raycast(&ri), "infinite direction");
    ri = base;
    ri.max_t = -1;
    expect_invalid(gjk2_raycast(&ri), "negative max_t");
    ri = base;
    ri.max_t = (gjk_real)nan;
    expect_invalid(gjk2_raycast(&ri), "NaN max_t");
    ri = base;
    ri.transform.rotation.c = 0;
    ri.transform.rotation.s = 0;
    expect_invalid(gjk2_raycast(&ri), "zero rotation");
    ri = base;
    ri.transform = gjk_transform2_make(V2(3, 0), (gjk_real)nan);
    expect_invalid(gjk2_raycast(&ri), "NaN angle");
    ri = base;
    ri.options.tolerance = -1;
    expect_invalid(gjk2_raycast(&ri), "negative tolerance");
    ri = base;
    ri.shape = &nan_custom;
    expect_invalid(gjk2_raycast(&ri), "NaN support");

    gjk2_shapecast_input sc;
    memset(&sc, 0, sizeof sc);
    sc.shape_a = &box;
    sc.transform_a = id;
    sc.shape_b = &box;
    sc.transform_b = pose(5, 0, 0);
    sc.translation_b = V2(-5, 0);
    gjk2_shapecast_input s2 = sc;
    expect_invalid(gjk2_shapecast(NULL), "NULL shapecast input");
    s2.shape_a = NULL;
    expect_invalid(gjk2_shapecast(&s2), "NULL shape A");
    s2 = sc;
    s2.shape_b = NULL;
    expect_invalid(gjk2_shapecast(&s2), "NULL shape B");
    s2 = sc;
    s2.translation_b = V2(nan, 0);
    expect_invalid(gjk2_shapecast(&s2), "NaN translation");
    s2 = sc;
    s2.target_separation = -0.1f;
    expect_invalid(gjk2_shapecast(&s2), "negative target");
    s2 = sc;
    s2.target_separation = (gjk_real)nan;
    expect_invalid(gjk2_shapecast(&s2), "NaN target");
    s2 = sc;
    s2.transform_b = gjk_transform2_make(V2(5, 0), (gjk_real)nan);
    expect_invalid(gjk2_shapecast(&s2), "NaN angle of B");
    s2 = sc;
    s2.transform_a.position = V2(nan, 0);
    expect_invalid(gjk2_shapecast(&s2), "NaN position of A");
    s2 = sc;
    s2.shape_b = &nan_custom;
    expect_invalid(gjk2_shapecast(&s2), "NaN support in a shape cast");
    s2 = sc;
    s2.transform_b = id; // overlapping: the penetration query also sees the bad support
    s2.shape_a = &nan_custom;
    expect_invalid(gjk2_shapecast(&s2), "NaN support, overlapping");

    gjk2_toi_input ti;
    memset(&ti, 0, sizeof ti);
    ti.shape_a = &box;
    ti.sweep_a = sweep(id, id);
    ti.shape_b = &box;
    ti.sweep_b = sweep(pose(5, 0, 0), pose(-5, 0, 1));
    gjk2_toi_input t2 = ti;
    expect_invalid(gjk2_time_of_impact(NULL), "NULL toi input");
    t2.shape_a = NULL;
    expect_invalid(gjk2_time_of_impact(&t2), "toi NULL shape A");
    t2 = ti;
    t2.shape_b = NULL;
    expect_invalid(gjk2_time_of_impact(&t2), "toi NULL shape B");
    t2 = ti;
    t2.sweep_b.end = gjk_transform2_make(V2(-5, 0), (gjk_real)nan);
    expect_invalid(gjk2_time_of_impact(&t2), "toi NaN end angle");
    t2 = ti;
    t2.sweep_a.start.rotation.s = (gjk_real)nan;
    expect_invalid(gjk2_time_of_impact(&t2), "toi NaN start rotation");
    t2 = ti;
    t2.sweep_b.start.position = V2(0, nan);
    expect_invalid(gjk2_time_of_impact(&t2), "toi NaN position");
    t2 = ti;
    t2.sweep_a.end.rotation.c = 0;
    t2.sweep_a.end.rotation.s = 0;
    expect_invalid(gjk2_time_of_impact(&t2), "toi zero rotation");
    t2 = ti;
    t2.target_separation = -1;
    expect_invalid(gjk2_time_of_impact(&t2), "toi negative target");
    t2 = ti;
    t2.target_separation = (gjk_real)nan;
    expect_invalid(gjk2_time_of_impact(&t2), "toi NaN target");
    t2 = ti;
    t2.options.max_iterations = -1;
    expect_invalid(gjk2_time_of_impact(&t2), "toi negative cap");
    t2 = ti;
    t2.shape_b = &nan_custom;
    expect_invalid(gjk2_time_of_impact(&t2), "toi NaN support");
    // Huge but finite motions are valid input, and the answer is finite (as
    // long as squares of the coordinates do not overflow: in float 1e30² does,
    // and the contract then answers GJK_INVALID_INPUT, so float uses 1e15).
    t2 = ti;
    t2.sweep_b.start.position = V2(GJK_USE_FLOAT ? -1e15 : -1e30, 0);
    t2.sweep_b.end.position = V2(GJK_USE_FLOAT ? 1e15 : 1e30, 0);
    gjk2_cast_output big = gjk2_time_of_impact(&t2);
    ENSURE(big.status != GJK_INVALID_INPUT);
    ENSURE(all_finite(&big));
}

/// The 3D contract audit's finding, in 2D: ellipses overlapping at the
/// start whose penetration query stops at max_epa_iterations of 1 to 3
/// gave the shape cast and the time of impact "hit", not
/// GJK_INITIALLY_OVERLAPPING; gjk2_intersect proves the overlap, and the
/// penetration's normal serves.
static void test_initial_overlap_epa_capped2(void) {
    gjk2_shape e = gjk2_make_ellipse(V2(1, 0.6)), c = gjk2_make_ellipse(V2(0.5, 0.9));
    gjk_transform2 I = gjk_transform2_identity(), tb = pose(0.4, 0.2, 0.6435011087932844);
    for (int cap = 1; cap <= 3; ++cap) {
        CASE_BEGIN;
        gjk2_query_input q = {&e, I, &c, tb, {0}};
        q.options.max_epa_iterations = cap;
        gjk2_penetration_output pen = gjk2_penetration(&q, NULL);
        ENSURE(pen.status == GJK_NOT_CONVERGED || pen.status == GJK_PENETRATING);
        gjk2_shapecast_input sc = {&e, I, &c, tb, V2(1, 0), 0, q.options};
        gjk2_toi_input ti = {&e, {I, I}, &c, {tb, tb}, 0, q.options};
        gjk2_cast_output o[2] = {gjk2_shapecast(&sc), gjk2_time_of_impact(&ti)};
        for (int k = 0; k < 2; ++k) {
            ENSURE(o[k].status == GJK_INITIALLY_OVERLAPPING);
            ENSURE(o[k].hit);
            ENSURE(o[k].t == 0);
            ENSURE_NEAR(o[k].normal.x, pen.normal.x, 1e-6);
            ENSURE_NEAR(o[k].normal.y, pen.normal.y, 1e-6);
        }
        CASE_END("ellipses overlapping at the start, max_epa_iterations %d", cap);
    }
}

/// As in 3D (test_cast_ignores_max_distance): a cast that starts within
/// its target separation answers from a penetration query there, whatever
/// options.max_distance (which lets gjk2_penetration stop at a bound).
static void test_cast_ignores_max_distance2(void) {
    gjk_vec2 hexagon[6], spike[3] = {{-1, -0.2f}, {1, 0}, {-1, 0.2f}};
    for (int i = 0; i < 6; ++i) {
        hexagon[i] = V2(cos(1.0472 * i), 0.7 * sin(1.0472 * i));
    }
    gjk2_shape shapes[3] = {gjk2_make_convex_polygon(hexagon, 6), gjk2_make_ellipse(V2(1, 0.5)),
                            gjk2_make_convex_polygon(spike, 3)};
    rng r = {0x3d1};
    for (int k = 0; k < 60; ++k) {
        const gjk2_shape *a = &shapes[k % 3], *b = &shapes[(k / 3) % 3];
        gjk_transform2 ta = pose(0, 0, rng_range(&r, 0, 2 * PI));
        double ang = rng_range(&r, 0, 2 * PI), turn = rng_range(&r, 0, 2 * PI), lo = 0, hi = 6;
        d2 u = dv(cos(ang), sin(ang));
        for (int it = 0; it < 60; ++it) { // B 0.05 from A along u
            double mid = 0.5 * (lo + hi);
            if (sd_static(a, ta, b, pose(mid * u.x, mid * u.y, turn)) < 0.05) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        gjk2_shapecast_input in;
        memset(&in, 0, sizeof in);
        in.shape_a = a, in.transform_a = ta, in.shape_b = b, in.transform_b = pose(hi * u.x, hi * u.y, turn);
        in.translation_b = V2d(u);
        in.target_separation = (gjk_real)0.1;
        gjk2_cast_output exact = gjk2_shapecast(&in);
        in.options.max_distance = (gjk_real)0.01;
        gjk2_cast_output bounded = gjk2_shapecast(&in);
        ENSURE(exact.status == GJK_HIT && exact.t == 0);
        ENSURE(bounded.status == exact.status && bounded.t == exact.t);
        ENSURE(bounded.normal.x == exact.normal.x && bounded.normal.y == exact.normal.y);
        ENSURE(bounded.point.x == exact.point.x && bounded.point.y == exact.point.y);
    }
}

int main(void) {
    RUN_TEST(test_ray_circle);
    RUN_TEST(test_ray_box);
    RUN_TEST(test_ray_capsule);
    RUN_TEST(test_ray_rounded_box_corner);
    RUN_TEST(test_ray_polygon);
    RUN_TEST(test_ray_ellipse);
    RUN_TEST(test_ray_custom);
    RUN_TEST(test_ray_inside_and_misses);
    RUN_TEST(test_cast_coordinates_overflow);
    RUN_TEST(test_box_past_segment);
    RUN_TEST(test_shapecast_circles);
    RUN_TEST(test_shapecast_boxes);
    RUN_TEST(test_shapecast_sliding);
    RUN_TEST(test_cast_from_far);
    RUN_TEST(test_shapecast_initially_overlapping);
    RUN_TEST(test_cast_iteration_cap);
    RUN_TEST(test_shapecast_random);
    RUN_TEST(test_sweep_at);
    RUN_TEST(test_toi_translation_matches_shapecast);
    RUN_TEST(test_toi_bullet);
    RUN_TEST(test_toi_spinning_bar);
    RUN_TEST(test_toi_spinning_needle);
    RUN_TEST(test_toi_small_rotation);
    RUN_TEST(test_toi_spinning_circle);
    RUN_TEST(test_toi_random_spins);
    RUN_TEST(test_toi_spinning_disc);
    RUN_TEST(test_toi_slow_corner);
    RUN_TEST(test_toi_misc);
    RUN_TEST(test_initial_overlap_epa_capped2);
    RUN_TEST(test_invalid_input);
    RUN_TEST(test_cast_ignores_max_distance2);
    return TEST_SUMMARY();
}
