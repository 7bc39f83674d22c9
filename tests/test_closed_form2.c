// 2D closed forms for points, circles, segments and capsules
// (src/closed_form2.c) against an independent long double reference (the
// closest pair of two segments from every candidate pair, without the
// library's case analysis), against the general GJK/EPA path on the same
// shapes given as user support functions (which never take the closed
// form), and against exact answers for simple configurations.
#include <math.h>
#include <string.h>

#include "test_macros.h"
#include "test_util.h"

/// A point-or-segment core with its rounding radius; kind 0 point,
/// 1 circle, 2 segment, 3 capsule.
typedef struct core2 {
    int kind;
    gjk_vec2 a, b;
    gjk_real r;
} core2;

static gjk_vec2 core_support(const void *user, gjk_vec2 d) {
    const core2 *c = user;
    return gjk_dot2(c->b, d) > gjk_dot2(c->a, d) ? c->b : c->a;
}

static gjk2_shape lib_shape(const core2 *c) {
    switch (c->kind) {
    case 0: return gjk2_make_point();
    case 1: return gjk2_make_circle(c->r);
    case 2: return gjk2_make_segment(c->a, c->b);
    default: return gjk2_make_capsule(c->a, c->b, c->r);
    }
}

/// The same shape as a user support function with the radius as margin:
/// the general path.
static gjk2_shape custom_shape(const core2 *c) {
    gjk_real bound = gjk_max(gjk_length2(c->a), gjk_length2(c->b));
    return gjk2_with_margin(gjk2_make_custom(core_support, c, bound), c->r);
}

// ---- long double reference ----

typedef struct l2 {
    long double x, y;
} l2;
static l2 l2_make(long double x, long double y) { l2 r = {x, y}; return r; }
static l2 l2_of(gjk_vec2 v) { return l2_make(v.x, v.y); }
static l2 l2_add(l2 a, l2 b) { return l2_make(a.x + b.x, a.y + b.y); }
static l2 l2_sub(l2 a, l2 b) { return l2_make(a.x - b.x, a.y - b.y); }
static l2 l2_mad(l2 a, long double s, l2 b) { return l2_make(a.x + s * b.x, a.y + s * b.y); }
static long double l2_dot(l2 a, l2 b) { return a.x * b.x + a.y * b.y; }
static long double l2_len(l2 a) { return sqrtl(l2_dot(a, a)); }

/// A world point of a local one, less `origin` (A's position: the
/// reference works next to A, where long double loses nothing to a large
/// offset from the world origin), the rotation normalised in long double.
static l2 world(gjk_transform2 t, gjk_vec2 p, gjk_vec2 origin) {
    long double c = t.rotation.c, s = t.rotation.s, n = sqrtl(c * c + s * s);
    c /= n;
    s /= n;
    l2 q = l2_of(p);
    l2 shift = l2_sub(l2_of(t.position), l2_of(origin)); // exact: nearby numbers
    return l2_add(l2_make(c * q.x - s * q.y, s * q.x + c * q.y), shift);
}

/// Closest point of segment q0 + t e, t ∈ [0, 1], to p.
static l2 point_segment_closest(l2 p, l2 q0, l2 e) {
    long double ee = l2_dot(e, e);
    long double t = ee > 0 ? l2_dot(l2_sub(p, q0), e) / ee : 0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    return l2_mad(q0, t, e);
}

/// Closest pair of two world segments: the stationary point of
/// |P(s) − Q(t)|² if it lies in [0, 1]², and each endpoint with its
/// projection on the other segment; the nearest candidate wins. *cross is
/// set when the stationary point wins clearly: in the plane it is the
/// lines' common point, so the segments cross.
static long double segments_reference(l2 p0, l2 p1, l2 q0, l2 q1, l2 *cp, l2 *cq, bool *cross) {
    l2 d1 = l2_sub(p1, p0), d2 = l2_sub(q1, q0), r = l2_sub(p0, q0);
    l2 cand_p[5], cand_q[5];
    int n = 0;
    long double a = l2_dot(d1, d1), e = l2_dot(d2, d2), b = l2_dot(d1, d2);
    long double c = l2_dot(d1, r), f = l2_dot(d2, r), den = a * e - b * b;
    if (den > 1e-30L * a * e) {
        long double s = (b * f - c * e) / den, t = (a * f - b * c) / den;
        if (s >= 0 && s <= 1 && t >= 0 && t <= 1) {
            cand_p[n] = l2_mad(p0, s, d1);
            cand_q[n++] = l2_mad(q0, t, d2);
        }
    }
    const l2 pe[2] = {p0, p1}, qe[2] = {q0, q1};
    for (int k = 0; k < 2; ++k) {
        cand_p[n] = pe[k];
        cand_q[n++] = point_segment_closest(pe[k], q0, d2);
        cand_q[n] = qe[k];
        cand_p[n++] = point_segment_closest(qe[k], p0, d1);
    }
    int best = 0;
    for (int k = 1; k < n; ++k) {
        if (l2_len(l2_sub(cand_q[k], cand_p[k])) < l2_len(l2_sub(cand_q[best], cand_p[best]))) {
            best = k;
        }
    }
    // (Nearly parallel segments can have a stationary point inside by
    // rounding, no nearer than the endpoint pairs: not a crossing.)
    long double nearest_end = l2_len(l2_sub(cand_q[n - 1], cand_p[n - 1]));
    for (int k = n - 4; k < n - 1; ++k) {
        nearest_end = fminl(nearest_end, l2_len(l2_sub(cand_q[k], cand_p[k])));
    }
    *cross = n == 5 && best == 0 && l2_len(l2_sub(cand_q[0], cand_p[0])) < 0.5L * nearest_end;
    *cp = cand_p[best];
    *cq = cand_q[best];
    return l2_len(l2_sub(*cq, *cp));
}

/// The exact configuration of a case: core endpoints (world frame less A's
/// position), core distance, closest pair and signed distance of the
/// rounded shapes.
typedef struct reference {
    l2 wa0, wa1, wb0, wb1, cp, cq;
    long double core, sd;
    bool cross; ///< The cores cross: sd is then not known here (the depth exceeds the radii).
} reference;

static reference make_reference(const core2 *a, gjk_transform2 ta, const core2 *b, gjk_transform2 tb) {
    reference f;
    f.wa0 = world(ta, a->a, ta.position);
    f.wa1 = world(ta, a->b, ta.position);
    f.wb0 = world(tb, b->a, ta.position);
    f.wb1 = world(tb, b->b, ta.position);
    f.core = segments_reference(f.wa0, f.wa1, f.wb0, f.wb1, &f.cp, &f.cq, &f.cross);
    f.sd = f.core - (long double)a->r - (long double)b->r;
    return f;
}

/// The shapes' separation along the unit n (from A to B): the least
/// n·(b − a) over their points. For the normal of the answer it equals the
/// signed distance while the cores are apart.
static long double separation_along(const reference *f, const core2 *a, const core2 *b, l2 n) {
    long double max_a = fmaxl(l2_dot(n, f->wa0), l2_dot(n, f->wa1)) + a->r;
    long double min_b = fminl(l2_dot(n, f->wb0), l2_dot(n, f->wb1)) - b->r;
    return min_b - max_a;
}

/// Distance from the point p (world frame less A's position) to the core segment w0–w1.
static long double core_distance(l2 p, l2 w0, l2 w1) {
    return l2_len(l2_sub(p, point_segment_closest(p, w0, l2_sub(w1, w0))));
}

// ---- random cases ----

enum { NEAR_CONTACT, FAR, OVERLAP, PARALLEL, ZERO_LENGTH, CONFIGS };

static gjk_vec2 rand_vec(rng *r, double s) {
    return gjk_v2((gjk_real)rng_range(r, -s, s), (gjk_real)rng_range(r, -s, s));
}

static core2 rand_core(rng *r, int kind, double s) {
    core2 c;
    c.kind = kind;
    c.a = c.b = gjk_v2(0, 0);
    c.r = 0;
    if (kind >= 2) {
        c.a = rand_vec(r, s);
        c.b = rand_vec(r, s);
    }
    if (kind == 1 || kind == 3) {
        c.r = (gjk_real)(s * rng_range(r, 0.05, 0.8));
    }
    return c;
}

static gjk_rot2 rand_rot(rng *r) {
    double t = rng_range(r, 0, 2 * 3.141592653589793);
    gjk_rot2 q = {(gjk_real)cos(t), (gjk_real)sin(t)};
    return q;
}

static int g_closed = 0, g_compared_general = 0, g_tiny_core = 0, g_cross = 0;

/// Core distances below this × size count as tiny (the float tolerance
/// band is wider).
#if GJK_USE_FLOAT
#define TINY_CORE 1e-3
#else
#define TINY_CORE 1e-6
#endif

/// A library world point less A's position, in long double (exact).
static l2 rel(gjk_vec2 p, gjk_vec2 origin) { return l2_sub(l2_of(p), l2_of(origin)); }

static void run_case(rng *r, int index) {
    int config = index % CONFIGS;
    const double scales[3] = {1e-6, 1, 1e6};
    double s = scales[rng_int(r, 3)];
    // A third of the cases sit far from the origin: 1e6 times their size.
    double origin = rng_chance(r, 0.33) ? 1e6 * s : 0;
    core2 a = rand_core(r, rng_int(r, 4), s), b = rand_core(r, rng_int(r, 4), s);
    gjk_transform2 ta, tb;
    ta.position = gjk_v2((gjk_real)(origin + rng_range(r, -s, s)), (gjk_real)(-origin + rng_range(r, -s, s)));
    ta.rotation = rand_rot(r);
    tb.rotation = rand_rot(r);
    if (config == PARALLEL) {
        // Both segment-like, along the same local direction, same rotation.
        a.kind = 2 + rng_int(r, 2);
        b.kind = 2 + rng_int(r, 2);
        a = rand_core(r, a.kind, s);
        core2 nb = rand_core(r, b.kind, s);
        gjk_vec2 w = rand_vec(r, s), e = gjk_sub2(a.b, a.a);
        gjk_real u = (gjk_real)rng_range(r, -1, 1.5), v = (gjk_real)rng_range(r, -1, 1.5);
        nb.a = gjk_add2(w, gjk_scale2(u, e));
        nb.b = gjk_add2(w, gjk_scale2(v, e));
        b = nb;
        tb.rotation = ta.rotation;
    } else if (config == ZERO_LENGTH) {
        // At least one segment-like core of zero length (away from its origin).
        a.kind = 2 + rng_int(r, 2);
        a = rand_core(r, a.kind, s);
        a.b = a.a;
        if (rng_chance(r, 0.5) && b.kind >= 2) {
            b.b = b.a;
        }
    }
    // Start far apart along a random direction, then slide B along the
    // reference normal to the wanted core distance (for convex shapes the
    // distance falls by exactly the slide).
    double ang = rng_range(r, 0, 2 * 3.141592653589793);
    tb.position = gjk_v2((gjk_real)((double)ta.position.x + 5 * s * cos(ang)),
                         (gjk_real)((double)ta.position.y + 5 * s * sin(ang)));
    reference f = make_reference(&a, ta, &b, tb);
    long double want = f.core;
    switch (config) {
    case FAR: break;
    case OVERLAP:
        if (a.r + b.r > 0) {
            want = (long double)(a.r + b.r) * rng_range(r, 0.05, 0.95); // rounded parts overlap
        }
        break;
    default: want = s * pow(10, rng_range(r, -12, 0)); break; // near contact, down to 1e-12·size
    }
    if (f.core > 0 && want < f.core) {
        l2 n = l2_sub(f.cq, f.cp);
        long double k = (f.core - want) / f.core;
        tb.position = gjk_v2((gjk_real)((long double)tb.position.x - k * n.x), (gjk_real)((long double)tb.position.y - k * n.y));
    }
    f = make_reference(&a, ta, &b, tb);

    gjk2_shape sa = lib_shape(&a), sb = lib_shape(&b);
    gjk2_query_input in;
    memset(&in, 0, sizeof in);
    in.shape_a = &sa;
    in.shape_b = &sb;
    in.transform_a = ta;
    in.transform_b = tb;
    // The scale of the case: coordinates of the difference of the cores in
    // A's frame, and of the world points.
    long double scale = fmaxl(fabsl((long double)tb.position.x - ta.position.x),
                              fabsl((long double)tb.position.y - ta.position.y)) + 6 * s + a.r + b.r;
    long double wmag = fmaxl(fabsl((long double)ta.position.x), fabsl((long double)ta.position.y)) + scale;
    double eps = (double)GJK_REAL_EPSILON;
    double tol_sd = (double)(64 * eps * scale);                      // closed form: rounding only
    double band = (double)(GJK_DEFAULT_TOLERANCE * scale);           // the library's touching band
    double tol_gen = 4 * band + tol_sd;                              // the general path's accuracy
    double tol_pt = (double)(64 * eps * wmag);                       // world points

    gjk2_distance_output d = gjk2_distance(&in, NULL);
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    gjk2_intersect_output it = gjk2_intersect(&in);
    // A closed form resets the cache (it leaves no simplex); the general
    // path stores its simplex. The queries with a cache give the same answer.
    gjk2_simplex_cache cache = {2, {{1, 0}, {0, 1}, {0, 0}}, {0, 0, 0}, {0, 0, 0}};
    gjk2_distance_output dc = gjk2_distance(&in, &cache);
    bool closed = cache.count == 0;
    gjk2_simplex_cache pcache = {1, {{0, 1}, {0, 0}, {0, 0}}, {0, 0, 0}, {0, 0, 0}};
    gjk2_penetration_output pc = gjk2_penetration(&in, &pcache);
    ENSURE(closed == (pcache.count == 0));
    if (closed) {
        ENSURE(dc.status == d.status && dc.distance == d.distance);
        ENSURE(pc.status == p.status && pc.signed_distance == p.signed_distance);
    }
    // Cores clearly apart: the closed form answers (and resets the cache).
    if (f.core > 4 * band) {
        ENSURE(closed);
        ENSURE(d.iterations == 0 && p.iterations == 0 && p.epa_iterations == 0 && it.iterations == 0);
    }
    g_closed += closed;
    g_tiny_core += closed && f.core < TINY_CORE * s;
    double tol = closed ? tol_sd : tol_gen;
    if (f.cross) {
        // Crossing cores (rounding of a near-contact pose can make them
        // cross): EPA answers, and the depth is more than the radii.
        ENSURE(!closed);
        ENSURE(p.status != GJK_SEPARATED && it.intersect && d.status == p.status);
        ENSURE(p.signed_distance <= -(a.r + b.r) + tol_gen);
        ++g_cross;
        return;
    }

    ENSURE(p.status != GJK_INVALID_INPUT && p.status != GJK_NOT_CONVERGED);
    ENSURE_NEAR(p.signed_distance, (double)f.sd, tol);
    ENSURE_NEAR(p.depth, p.signed_distance < 0 ? -p.signed_distance : 0, 4 * eps * fabs((double)p.signed_distance));
    ENSURE_NEAR(d.distance, fmax((double)f.sd, 0), tol);
    // The three queries agree on the status.
    ENSURE(d.status == p.status);
    ENSURE(it.status == p.status);
    ENSURE(it.intersect == (p.status != GJK_SEPARATED));
    if (fabs((double)f.sd) > 2 * band + tol) {
        ENSURE(p.status == (f.sd > 0 ? GJK_SEPARATED : GJK_PENETRATING));
    }
    ENSURE_NEAR(gjk_length2(p.normal), 1, 16 * eps);
    if (closed) {
        // The normal is the cores' separating direction: the separation of
        // the shapes along it is the signed distance. (A normal tilted by
        // the rounding of the points over a tiny core distance fails this
        // next to a long segment.)
        l2 n = l2_of(p.normal);
        ENSURE_NEAR((double)separation_along(&f, &a, &b, n), (double)f.sd, tol_sd);
        ENSURE_VEC_NEAR(gjk_v3(d.normal.x, d.normal.y, 0), gjk_v3(p.normal.x, p.normal.y, 0), 0);
        // Witness points on the rounded boundaries, apart by sd·normal.
        ENSURE_NEAR((double)core_distance(rel(p.point_a, ta.position), f.wa0, f.wa1), a.r, tol_pt);
        ENSURE_NEAR((double)core_distance(rel(p.point_b, ta.position), f.wb0, f.wb1), b.r, tol_pt);
        gjk_vec2 gap = gjk_sub2(p.point_b, p.point_a);
        ENSURE_NEAR(gap.x, p.signed_distance * p.normal.x, tol_pt);
        ENSURE_NEAR(gap.y, p.signed_distance * p.normal.y, tol_pt);
        if (f.sd > 0) {
            ENSURE_NEAR(d.point_a.x, p.point_a.x, tol_pt);
            ENSURE_NEAR(d.point_a.y, p.point_a.y, tol_pt);
            ENSURE_NEAR(d.point_b.x, p.point_b.x, tol_pt);
            ENSURE_NEAR(d.point_b.y, p.point_b.y, tol_pt);
        } else {
            // One common point, within each radius of its core.
            ENSURE(d.point_a.x == d.point_b.x && d.point_a.y == d.point_b.y);
            ENSURE((double)core_distance(rel(d.point_a, ta.position), f.wa0, f.wa1) <= a.r + tol_pt);
            ENSURE((double)core_distance(rel(d.point_a, ta.position), f.wb0, f.wb1) <= b.r + tol_pt);
        }
    }

    // The general path on the same shapes as user support functions.
    gjk2_shape ga = custom_shape(&a), gb = custom_shape(&b);
    gjk2_query_input gin = in;
    gin.shape_a = &ga;
    gin.shape_b = &gb;
    gjk2_penetration_output g = gjk2_penetration(&gin, NULL);
    if (g.status != GJK_NOT_CONVERGED) {
        ENSURE_NEAR(p.signed_distance, g.signed_distance, tol_gen);
        if (fabs((double)f.sd) > 2 * band + tol_gen) {
            ENSURE(p.status == g.status);
        }
        ++g_compared_general;
    }
}

static void test_random_against_reference(void) {
    rng r = {20240611};
    const int cases = 20000;
    for (int k = 0; k < cases; ++k) {
        int before = test_failures;
        run_case(&r, k);
        if (test_failures > before) {
            fprintf(stderr, "  in case %d (config %d)\n", k, k % CONFIGS);
            if (test_failures > 20) {
                return;
            }
        }
    }
    printf("  %d cases: %d answered in closed form (%d with cores within %g·size), %d with crossing cores, %d compared "
           "with the general path\n",
           cases, g_closed, g_tiny_core, TINY_CORE, g_cross, g_compared_general);
    ENSURE(g_closed > cases / 2);
    ENSURE(g_tiny_core > 100);
    ENSURE(g_compared_general + g_cross > cases * 9 / 10);
}

static gjk2_query_input query(const gjk2_shape *a, gjk_transform2 ta, const gjk2_shape *b, gjk_transform2 tb) {
    gjk2_query_input in;
    memset(&in, 0, sizeof in);
    in.shape_a = a;
    in.transform_a = ta;
    in.shape_b = b;
    in.transform_b = tb;
    return in;
}

static gjk_transform2 at(double x, double y, double angle) {
    return gjk_transform2_make(gjk_v2((gjk_real)x, (gjk_real)y), (gjk_real)angle);
}

static void test_exact_answers(void) {
    const double tol = TEST_REL_TOL;
    // Two parallel capsules side by side: distance 3 − 2·0.5 along y.
    gjk2_shape c = gjk2_make_capsule(gjk_v2(-1, 0), gjk_v2(1, 0), (gjk_real)0.5);
    gjk2_query_input in = query(&c, at(0, 0, 0), &c, at(0.5, 3, 0));
    gjk2_distance_output d = gjk2_distance(&in, NULL);
    ENSURE(d.status == GJK_SEPARATED && d.iterations == 0);
    ENSURE_NEAR(d.distance, 2, tol);
    ENSURE_NEAR(d.normal.x, 0, tol);
    ENSURE_NEAR(d.normal.y, 1, tol);
    ENSURE_NEAR(d.point_a.y, 0.5, tol);
    ENSURE_NEAR(d.point_b.y, 2.5, tol);
    // Their witness points lie on the overlap of the two cores in x.
    ENSURE(d.point_a.x >= -0.5 - tol && d.point_a.x <= 1 + tol);
    // Collinear capsules end to end, 0.25 apart between the rounded ends.
    in.transform_b = at(3.25, 0, 3.141592653589793);
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_SEPARATED);
    ENSURE_NEAR(p.signed_distance, 0.25, tol);
    ENSURE_NEAR(p.normal.x, 1, tol);
    ENSURE_NEAR(p.point_a.x, 1.5, tol);
    ENSURE_NEAR(p.point_b.x, 1.75, tol);
    // A circle of radius 1 at (0, 1.5) above the capsule: overlap 0.
    gjk2_shape w = gjk2_make_circle(1);
    in = query(&c, at(0, 0, 0), &w, at(0.25, 1.2, 0));
    p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_PENETRATING);
    ENSURE_NEAR(p.signed_distance, -0.3, tol);
    ENSURE_NEAR(p.normal.y, 1, tol);
    ENSURE_NEAR(p.point_a.x, 0.25, tol);
    ENSURE_NEAR(p.point_a.y, 0.5, tol);
    ENSURE_NEAR(p.point_b.y, 0.2, tol);
    gjk2_intersect_output it = gjk2_intersect(&in);
    ENSURE(it.status == GJK_PENETRATING && it.intersect && it.iterations == 0);
    // Two circles touching: 3-4-5 offset, radii 2 and 3.
    gjk2_shape c2 = gjk2_make_circle(2), c3 = gjk2_make_circle(3);
    in = query(&c2, at(10, 10, 0.3), &c3, at(13, 14, -1));
    p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_TOUCHING);
    ENSURE_NEAR(p.signed_distance, 0, 10 * tol);
    ENSURE_NEAR(p.normal.x, 0.6, tol);
    ENSURE_NEAR(p.normal.y, 0.8, tol);
    ENSURE(gjk2_intersect(&in).intersect);
    // A point on a segment's perpendicular, the segment turned a quarter.
    gjk2_shape pt = gjk2_make_point(), sg = gjk2_make_segment(gjk_v2(-2, 0), gjk_v2(2, 0));
    in = query(&sg, at(1, 1, 3.141592653589793 / 2), &pt, at(4, 2, 0));
    d = gjk2_distance(&in, NULL);
    ENSURE_NEAR(d.distance, 3, tol);
    ENSURE_NEAR(d.normal.x, 1, tol);
    ENSURE_NEAR(d.point_a.x, 1, tol);
    ENSURE_NEAR(d.point_a.y, 2, tol);
    // Zero-length segments are points: two of them 5 apart.
    gjk2_shape z1 = gjk2_make_segment(gjk_v2(1, 1), gjk_v2(1, 1)), z2 = gjk2_make_capsule(gjk_v2(-1, 2), gjk_v2(-1, 2), 1);
    in = query(&z1, at(0, 0, 0), &z2, at(5, 3, 0));
    d = gjk2_distance(&in, NULL);
    ENSURE_NEAR(d.distance, 4, tol);
    ENSURE_NEAR(d.normal.x, 0.6, tol);
    ENSURE_NEAR(d.normal.y, 0.8, tol);
    // A (c, s) that is not unit is normalised: (3, 4) is (0.6, 0.8).
    gjk_transform2 t34 = {{0, 0}, {3, 4}};
    in = query(&sg, t34, &pt, at(0, 5, 0));
    d = gjk2_distance(&in, NULL);
    ENSURE_NEAR(d.distance, sqrt(13.0), tol); // the end (1.2, 1.6) is nearest: |(−1.2, 3.4)|
    // Crossing segments: the general path answers (zero core distance).
    gjk2_shape cap = gjk2_make_capsule(gjk_v2(-1, 0), gjk_v2(1, 0), (gjk_real)0.1);
    in = query(&cap, at(0, 0, 0), &cap, at(0.2, 0.1, 1.2));
    gjk2_simplex_cache cache = {0, {{0, 0}, {0, 0}, {0, 0}}, {0, 0, 0}, {0, 0, 0}};
    p = gjk2_penetration(&in, &cache);
    ENSURE(p.status == GJK_PENETRATING && cache.count > 0);
    ENSURE(gjk2_intersect(&in).intersect);
}

static void test_invalid_input(void) {
    gjk2_shape c = gjk2_make_capsule(gjk_v2(-1, 0), gjk_v2(1, 0), (gjk_real)0.5), w = gjk2_make_circle(1);
    gjk2_query_input in = query(&c, at(0, 0, 0), &w, at(3, 0, 0));
    gjk2_query_input bad = in;
    gjk2_shape nan_cap = c;
    nan_cap.capsule.radius = (gjk_real)NAN;
    bad.shape_a = &nan_cap;
    ENSURE(gjk2_distance(&bad, NULL).status == GJK_INVALID_INPUT);
    ENSURE(gjk2_penetration(&bad, NULL).status == GJK_INVALID_INPUT);
    ENSURE(gjk2_intersect(&bad).status == GJK_INVALID_INPUT);
    gjk2_shape neg = gjk2_with_margin(w, -1);
    bad = in;
    bad.shape_b = &neg;
    ENSURE(gjk2_distance(&bad, NULL).status == GJK_INVALID_INPUT);
    gjk2_shape inf_end = gjk2_make_segment(gjk_v2((gjk_real)INFINITY, 0), gjk_v2(0, 0));
    bad = in;
    bad.shape_a = &inf_end;
    ENSURE(gjk2_penetration(&bad, NULL).status == GJK_INVALID_INPUT);
    bad = in;
    bad.transform_b.rotation.c = 0;
    bad.transform_b.rotation.s = 0;
    ENSURE(gjk2_distance(&bad, NULL).status == GJK_INVALID_INPUT);
    bad = in;
    bad.transform_a.rotation.s = (gjk_real)NAN;
    ENSURE(gjk2_intersect(&bad).status == GJK_INVALID_INPUT);
    // Two circles (point cores): the rotations are still checked.
    gjk2_query_input cc = query(&w, at(0, 0, 0), &w, at(3, 0, 0));
    cc.transform_a.rotation.c = (gjk_real)INFINITY;
    ENSURE(gjk2_distance(&cc, NULL).status == GJK_INVALID_INPUT);
    bad = in;
    bad.options.tolerance = -1;
    ENSURE(gjk2_penetration(&bad, NULL).status == GJK_INVALID_INPUT);
    // A tiny but valid (c, s) is a rotation.
    gjk2_query_input tiny = in;
    tiny.transform_a.rotation.c = (gjk_real)1e-30;
    tiny.transform_a.rotation.s = 0;
    ENSURE_NEAR(gjk2_distance(&tiny, NULL).distance, 0.5, TEST_REL_TOL);
    // Finite positions whose difference overflows: no infinity comes out.
    gjk2_query_input huge = in;
    huge.transform_a.position = gjk_v2(-GJK_REAL_MAX, 0);
    huge.transform_b.position = gjk_v2(GJK_REAL_MAX, 0);
    gjk2_distance_output d = gjk2_distance(&huge, NULL);
    ENSURE(d.status == GJK_INVALID_INPUT && d.distance == 0);
}

/// The three queries' statuses on `in`, and whether they all agree.
static bool statuses2(const gjk2_query_input *in, gjk_status *st) {
    gjk_status i = gjk2_intersect(in).status, d = gjk2_distance(in, NULL).status, p = gjk2_penetration(in, NULL).status;
    *st = p;
    return i == d && d == p;
}

static void count_events(void *user, const gjk_trace_event *ev) {
    (void)ev;
    ++*(int *)user;
}

/// Two balls (points and circles) take their own short path in each query
/// (query2.c, ball_pair_of): exact answers; the cases left to the closed
/// form, GJK and EPA (concentric, offsets whose square leaves the normal
/// range, traced queries); and every kind of invalid input reported by all
/// three queries.
static void test_ball_pairs(void) {
    const double tol = TEST_REL_TOL;
    gjk2_shape c1 = gjk2_make_circle((gjk_real)0.5), c2 = gjk2_with_margin(gjk2_make_circle((gjk_real)0.25), (gjk_real)0.25);
    gjk2_query_input in = query(&c1, at(10, -20, 0.3), &c2, at(13, -16, -1)); // |off| = 5
    gjk2_distance_output d = gjk2_distance(&in, NULL);
    ENSURE(d.status == GJK_SEPARATED && d.iterations == 0);
    ENSURE_NEAR(d.distance, 4, tol);
    ENSURE_NEAR(d.normal.x, 0.6, tol);
    ENSURE_NEAR(d.normal.y, 0.8, tol);
    ENSURE_NEAR(d.point_a.x, 10.3, 100 * tol);
    ENSURE_NEAR(d.point_b.y, -16.4, 100 * tol);
    // Overlapping by 0.3: the common point halfway, 0.35 from each centre.
    in.transform_b = at(10, -19.3, 2);
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    ENSURE(p.status == GJK_PENETRATING && p.iterations == 0 && p.epa_iterations == 0);
    ENSURE_NEAR(p.depth, 0.3, 100 * tol);
    ENSURE_NEAR(p.point_a.y - p.point_b.y, 0.3, 100 * tol);
    d = gjk2_distance(&in, NULL);
    ENSURE(d.status == GJK_PENETRATING && d.distance == 0);
    ENSURE_NEAR(d.point_a.y, -19.65, 100 * tol);
    ENSURE(gjk2_intersect(&in).intersect);
    gjk_status st;
    in.transform_b = at(10, -19, 0);
    ENSURE(statuses2(&in, &st) && st == GJK_TOUCHING);
    // Concentric: EPA's depth. Offsets whose square leaves the normal
    // range: the closed form, scaled.
    in.transform_b = at(10, -20, 1);
    ENSURE(statuses2(&in, &st) && st == GJK_PENETRATING);
    ENSURE_NEAR(gjk2_penetration(&in, NULL).depth, 1, 100 * tol);
    gjk2_shape pt = gjk2_make_point();
    double far = GJK_USE_FLOAT ? 1e16 : 1e150, near = GJK_USE_FLOAT ? 1e-16 : 1e-150;
    gjk2_query_input pts = query(&pt, at(0, 0, 0), &pt, at(far, far, 0));
    d = gjk2_distance(&pts, NULL);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE_NEAR(d.distance / far, sqrt(2.0), tol);
    pts.transform_b = at(near, near, 0);
    d = gjk2_distance(&pts, NULL);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE_NEAR(d.distance / near, sqrt(2.0), tol);
    // Beyond the square root of the largest number, as capsules and 3D's
    // balls: every query agrees.
    double huge = GJK_USE_FLOAT ? 1e25 : 1e200;
    gjk2_query_input far_balls = query(&c1, at(10, -20, 0.3), &c2, at(huge, -huge, 0));
    ENSURE(statuses2(&far_balls, &st) && st == GJK_SEPARATED);
    ENSURE_NEAR(gjk2_distance(&far_balls, NULL).distance / huge, sqrt(2.0), tol);
    // A traced query shows the walk, with the same answer.
    int events = 0;
    in.transform_b = at(13, -16, -1);
    in.options.trace = count_events;
    in.options.trace_data = &events;
    gjk2_distance_output traced = gjk2_distance(&in, NULL);
    ENSURE(events > 0 && traced.status == GJK_SEPARATED);
    ENSURE_NEAR(traced.distance, 4, tol);
    // Each invalid number in each place: all three queries report it.
    const gjk_real inf = (gjk_real)INFINITY, nan = (gjk_real)NAN;
    const gjk_real bad_reals[] = {-1, nan, inf, -inf};
    for (int k = 0; k < 4 * 6; ++k) {
        gjk2_shape a = gjk2_make_circle(1), b = gjk2_make_point();
        gjk2_query_input q = query(&a, at(0, 0, 0), &b, at(3, 0, 0));
        gjk_real x = bad_reals[k % 4];
        switch (k / 4) {
        case 0: a.circle.radius = x; break;
        case 1: a.margin = x; break;
        case 2: b.margin = x; break;
        case 3: q.transform_b.position.y = x == -1 ? nan : x; break; // −1 is a position
        case 4: q.transform_a.rotation.c = x == -1 ? 0 : x, q.transform_a.rotation.s = 0; break; // (0, 0): none
        default:
            if (k % 4 == 0) {
                q.options.tolerance = nan;
            } else if (k % 4 == 1) {
                q.options.max_iterations = -1;
            } else if (k % 4 == 2) {
                a.circle.radius = GJK_REAL_MAX; // the radii's sum overflows
                b.margin = GJK_REAL_MAX;
            } else {
                a.type = (gjk2_shape_type)99; // not a shape type
            }
            break;
        }
        ENSURE(statuses2(&q, &st) && st == GJK_INVALID_INPUT);
    }
    // Types out of range, also a ball's type modulo 32: not shapes.
    const int bad_types[] = {32, 32 + GJK2_SHAPE_CIRCLE, 64, -32, -1, GJK2_SHAPE_TYPE_COUNT};
    for (int k = 0; k < (int)(sizeof bad_types / sizeof bad_types[0]); ++k) {
        gjk2_shape a = gjk2_make_circle(1), b = gjk2_make_point();
        gjk2_query_input q = query(&a, at(0, 0, 0), &b, at(3, 0, 0));
        b.type = (gjk2_shape_type)bad_types[k];
        ENSURE(statuses2(&q, &st) && st == GJK_INVALID_INPUT);
        b.type = GJK2_SHAPE_POINT;
        a.type = (gjk2_shape_type)bad_types[k];
        ENSURE(statuses2(&q, &st) && st == GJK_INVALID_INPUT);
    }
}

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    RUN_TEST(test_exact_answers);
    RUN_TEST(test_invalid_input);
    RUN_TEST(test_ball_pairs);
    RUN_TEST(test_random_against_reference);
    return TEST_SUMMARY();
}
