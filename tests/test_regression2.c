// Regression corpus in 2D (gjk2d.h): the failure modes of test_regression.c
// that apply in the plane, one test function per failure mode. Each case
// asserts the status, the values against an exact answer, and that every
// output number is finite.
//
// Answers. Hand-derived where the geometry allows (stated next to each
// case), and always also computed from the inputs exactly as stored
// (gjk_real), in double, with coordinates relative to A's position: for
// vertex-based shapes (points, segments, triangles, boxes, polygons; circles
// and capsules as rounded points and segments) the signed distance is
// sdist(r, D0) − (rA + rB), D0 the convex hull of {R_A a_i − R_B b_j} (a
// monotone-chain hull written here), r = p_B − p_A.
//
// Checks on every answer (check_pair): all outputs finite; the three queries
// give answers and one status; the status the documented touching band
// implies (see expected_statuses); |signed_distance − reference| ≤ tol;
// depth = max(0, −sd); unit normal; point_b − point_a = sd·normal; witnesses
// on the boundaries and support points along ±normal; the normal realises the
// signed distance (h_A(n) + h_B(−n) − n·r = −sd); the distance query agrees.
// Tolerances: values TEST_REL_TOL × size, world points plus 4·eps·|world
// coordinate|.
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gjk/gjk2d.h"
#include "test_util.h"

#define TOL(size) ((double)TEST_REL_TOL * (double)(size))
#define EPS ((double)GJK_REAL_EPSILON)

static const double PI = 3.14159265358979323846;

/// Multiplies the number of random cases (compile with -DREG_RANDOM_SCALE=50
/// for a stress run).
#ifndef REG_RANDOM_SCALE
#define REG_RANDOM_SCALE 1
#endif

// ---------------------------------------------------------------------------
// Random numbers (splitmix64, fixed seeds; one draw per statement), double
// 2D vectors and rotations, rounding to gjk_real: test_util.h.

static double d2_len(d2 a) { return hypot(a.x, a.y); }
static d2 d2_unit(d2 a) { return d2_scale(1 / d2_len(a), a); }
static gjk_vec2 V2(double x, double y) { return gjk_v2(to_real(x), to_real(y)); }
static double vlen2(gjk_vec2 v) { return d2_len(d2_of(v)); }
static drot drot_angle(double a) {
    drot d = {cos(a), sin(a)};
    return d;
}

static gjk_transform2 pose2(d2 p, double angle) { return gjk_transform2_make(to_real2(p), to_real(angle)); }

static d2 random_dir(rng *r) {
    double a = rng_range(r, 0, 2 * PI);
    return d2_make(cos(a), sin(a));
}

// ---------------------------------------------------------------------------
// Convex hull (Andrew's monotone chain, counter-clockwise, collinear points
// dropped) and the signed distance of a point to it.

static int cmp_d2(const void *pa, const void *pb) {
    const d2 *a = pa, *b = pb;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    if (a->y != b->y) return a->y < b->y ? -1 : 1;
    return 0;
}

/// Hull of p[0..n) into out (at least n + 1 points); returns its count (1 for
/// a point, 2 for a segment).
static int hull2(const d2 *p, int n, d2 *out) {
    d2 *s = malloc((size_t)n * sizeof *s);
    memcpy(s, p, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_d2);
    int m = 0;
    for (int i = 0; i < n; ++i) {
        if (m > 0 && s[i].x == s[m - 1].x && s[i].y == s[m - 1].y) continue;
        s[m++] = s[i];
    }
    if (m <= 2) {
        memcpy(out, s, (size_t)m * sizeof *s);
        free(s);
        return m;
    }
    int k = 0;
    for (int i = 0; i < m; ++i) {
        while (k >= 2 && d2_cross(d2_sub(out[k - 1], out[k - 2]), d2_sub(s[i], out[k - 2])) <= 0) --k;
        out[k++] = s[i];
    }
    for (int i = m - 2, t = k + 1; i >= 0; --i) {
        while (k >= t && d2_cross(d2_sub(out[k - 1], out[k - 2]), d2_sub(s[i], out[k - 2])) <= 0) --k;
        out[k++] = s[i];
    }
    free(s);
    return k - 1;
}

static double seg_dist2(d2 p, d2 a, d2 b) {
    d2 ab = d2_sub(b, a);
    double l2 = d2_dot(ab, ab);
    double t = l2 > 0 ? d2_dot(d2_sub(p, a), ab) / l2 : 0;
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    return d2_len(d2_sub(p, d2_add(a, d2_scale(t, ab))));
}

/// Signed distance of x to the hull h[0..n): distance outside, minus the
/// distance to the nearest edge line inside.
static double hull2_sdist(const d2 *h, int n, d2 x) {
    if (n == 1) return d2_len(d2_sub(x, h[0]));
    if (n == 2) return seg_dist2(x, h[0], h[1]);
    double maxplane = -INFINITY;
    for (int i = 0; i < n; ++i) {
        d2 a = h[i], b = h[(i + 1) % n], e = d2_sub(b, a);
        maxplane = fmax(maxplane, d2_cross(d2_sub(x, a), e) / d2_len(e));
    }
    if (maxplane <= 0) return maxplane;
    double best = INFINITY;
    for (int i = 0; i < n; ++i) best = fmin(best, seg_dist2(x, h[i], h[(i + 1) % n]));
    return best;
}

// ---------------------------------------------------------------------------
// A placed 2D shape as the references see it (coordinates relative to A's
// stored position).

#define MAX_VERTS 48

typedef struct body2 {
    const gjk2_shape *s;
    d2 pos;
    drot R;
    double rad, rho;
    int vertex_based, nv, nh;
    d2 v[MAX_VERTS];
    d2 h[MAX_VERTS + 1];
} body2;

static void body_init(body2 *b, const gjk2_shape *s, gjk_transform2 t, d2 origin) {
    memset(b, 0, sizeof *b);
    b->s = s;
    b->pos = d2_sub(d2_of(t.position), origin);
    b->R = drot_of(t.rotation);
    b->rad = (double)s->margin;
    b->vertex_based = 1;
    switch (s->type) {
    case GJK2_SHAPE_POINT: b->v[b->nv++] = d2_make(0, 0); break;
    case GJK2_SHAPE_SEGMENT:
        b->v[b->nv++] = d2_of(s->segment.a);
        b->v[b->nv++] = d2_of(s->segment.b);
        break;
    case GJK2_SHAPE_TRIANGLE:
        b->v[b->nv++] = d2_of(s->triangle.a);
        b->v[b->nv++] = d2_of(s->triangle.b);
        b->v[b->nv++] = d2_of(s->triangle.c);
        break;
    case GJK2_SHAPE_BOX: {
        d2 h = d2_of(s->box.half_extents);
        for (int i = 0; i < 4; ++i) b->v[b->nv++] = d2_make(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y);
        break;
    }
    case GJK2_SHAPE_CIRCLE:
        b->v[b->nv++] = d2_make(0, 0);
        b->rad += (double)s->circle.radius;
        break;
    case GJK2_SHAPE_CAPSULE:
        b->v[b->nv++] = d2_of(s->capsule.a);
        b->v[b->nv++] = d2_of(s->capsule.b);
        b->rad += (double)s->capsule.radius;
        break;
    case GJK2_SHAPE_POLYGON:
        for (int i = 0; i < s->polygon.count && i < MAX_VERTS; ++i) b->v[b->nv++] = d2_of(s->polygon.vertices[i]);
        break;
    case GJK2_SHAPE_ELLIPSE:
        b->vertex_based = 0;
        b->rho = d2_max_abs(d2_of(s->ellipse.radii));
        break;
    default: b->vertex_based = 0; break;
    }
    if (b->vertex_based) {
        for (int i = 0; i < b->nv; ++i) b->rho = fmax(b->rho, d2_len(b->v[i]));
        b->nh = hull2(b->v, b->nv, b->h);
    }
}

static double core_h(const body2 *b, d2 d) {
    if (b->s->type == GJK2_SHAPE_ELLIPSE) {
        d2 r = d2_of(b->s->ellipse.radii);
        return hypot(r.x * d.x, r.y * d.y);
    }
    double best = -INFINITY;
    for (int i = 0; i < b->nv; ++i) best = fmax(best, d2_dot(d, b->v[i]));
    return best;
}

static double body_h(const body2 *b, d2 n) { return d2_dot(n, b->pos) + core_h(b, drot_inv(b->R, n)) + b->rad * d2_len(n); }

static double body_sdist(const body2 *b, d2 x) {
    if (!b->vertex_based) return NAN;
    return hull2_sdist(b->h, b->nh, drot_inv(b->R, d2_sub(x, b->pos))) - b->rad;
}

static d2 in_frame(gjk_vec2 p, d2 origin) { return d2_sub(d2_of(p), origin); }

/// The exact signed distance of vertex-based bodies: sdist(r, D0) − radii.
static double ref_sd_bodies(const body2 *a, const body2 *b) {
    static d2 pts[MAX_VERTS * MAX_VERTS], h[MAX_VERTS * MAX_VERTS + 1];
    int n = 0;
    for (int i = 0; i < a->nv; ++i) {
        d2 wa = drot_apply(a->R, a->v[i]);
        for (int j = 0; j < b->nv; ++j) pts[n++] = d2_sub(wa, drot_apply(b->R, b->v[j]));
    }
    int nh = hull2(pts, n, h);
    return hull2_sdist(h, nh, d2_sub(b->pos, a->pos)) - (a->rad + b->rad);
}

static double exact_sd(const gjk2_query_input *q) {
    d2 origin = d2_of(q->transform_a.position);
    body2 A, B;
    body_init(&A, q->shape_a, q->transform_a, origin);
    body_init(&B, q->shape_b, q->transform_b, origin);
    return ref_sd_bodies(&A, &B);
}

static double shape_sdist_world(const gjk2_query_input *q, int which, gjk_vec2 x) {
    d2 origin = d2_of(q->transform_a.position);
    body2 b;
    body_init(&b, which ? q->shape_b : q->shape_a, which ? q->transform_b : q->transform_a, origin);
    return body_sdist(&b, in_frame(x, origin));
}

// ---------------------------------------------------------------------------
// The touching band (see test_regression.c): tolerance × (L + R), with
// L ≤ ρ_A + ρ_B + |r| and, for vertex-based cores, L ≥ min over vertex
// differences of their max-abs coordinate (A's frame).

typedef struct band {
    double lo, hi, lsum;
} band;

static band band_of(const body2 *a, const body2 *b, double rel_tol) {
    band bd;
    double R = a->rad + b->rad;
    double lmax = a->rho + b->rho + d2_len(d2_sub(b->pos, a->pos));
    double lmin = 0;
    if (a->vertex_based && b->vertex_based) {
        lmin = INFINITY;
        for (int j = 0; j < b->nv; ++j) {
            d2 bj = drot_inv(a->R, d2_sub(d2_add(b->pos, drot_apply(b->R, b->v[j])), a->pos));
            for (int i = 0; i < a->nv; ++i) lmin = fmin(lmin, d2_max_abs(d2_sub(a->v[i], bj)));
        }
    }
    bd.lo = rel_tol * (lmin + R);
    bd.hi = rel_tol * (lmax + R);
    bd.lsum = lmax + R;
    return bd;
}

#define ST(s) (1u << (s))

static unsigned expected_statuses(double sd, band bd) {
    double cls = 8 * EPS * bd.lsum;
    if (fabs(sd) <= EPS * bd.lsum || fabs(sd) + cls < bd.lo) return ST(GJK_TOUCHING);
    if (sd > bd.hi + cls) return ST(GJK_SEPARATED);
    if (sd < -(bd.hi + cls)) return ST(GJK_PENETRATING);
    return ST(GJK_TOUCHING) | (sd > 0 ? ST(GJK_SEPARATED) : ST(GJK_PENETRATING));
}

static const char *statuses_name(unsigned m) {
    static char buf[96];
    buf[0] = 0;
    for (int s = 0; s <= GJK_NOT_CONVERGED; ++s) {
        if (m & ST(s)) {
            if (buf[0]) strcat(buf, "|");
            strcat(buf, gjk_status_name((gjk_status)s));
        }
    }
    return buf;
}

// ---------------------------------------------------------------------------
// Running and checking a pair.


static gjk2_query_input query(const gjk2_shape *a, gjk_transform2 ta, const gjk2_shape *b, gjk_transform2 tb) {
    gjk2_query_input q;
    memset(&q, 0, sizeof q);
    q.shape_a = a;
    q.transform_a = ta;
    q.shape_b = b;
    q.transform_b = tb;
    return q;
}

typedef struct results {
    gjk2_intersect_output in;
    gjk2_distance_output di;
    gjk2_penetration_output pe;
    unsigned allowed;
    double world; ///< Largest world coordinate magnitude involved.
    double pt_tol;
} results;

static int pen_finite(const gjk2_penetration_output *p) {
    return isfinite((double)p->signed_distance) && isfinite((double)p->depth) && vec2_finite(p->point_a) &&
           vec2_finite(p->point_b) && vec2_finite(p->normal);
}
static int dist_finite(const gjk2_distance_output *d) {
    return isfinite((double)d->distance) && vec2_finite(d->point_a) && vec2_finite(d->point_b) && vec2_finite(d->normal);
}

/// The penetration part of check_pair: sd against the reference, depth,
/// unit normal, witnesses apart by sd·normal, and the normal realises the
/// signed distance (the overlap of the shapes' supports along it is −sd)
/// with the witnesses on the supporting lines and the boundaries.
static void check_penetration_answer(const body2 *A, const body2 *B, d2 origin, const gjk2_penetration_output *pe,
                                     double sd_ref, double tol, double pt_tol, double world) {
    double n_tol = fmax(TEST_REL_TOL, 4 * EPS);
    double sd = (double)pe->signed_distance;
    ENSURE_NEAR(sd, sd_ref, tol);
    ENSURE_NEAR((double)pe->depth, fmax(0, -sd), 4 * EPS * fabs(sd));
    d2 n = d2_of(pe->normal);
    ENSURE_NEAR(d2_len(n), 1, n_tol);
    d2 pa = in_frame(pe->point_a, origin), pb = in_frame(pe->point_b, origin);
    ENSURE(d2_len(d2_sub(d2_sub(pb, pa), d2_scale(sd, n))) <= pt_tol);
    if (d2_len(n) > 0.5) {
        n = d2_unit(n);
        double overlap = body_h(A, n) + body_h(B, d2_scale(-1, n));
        ENSURE_NEAR(overlap, -sd, tol + 4 * EPS * world);
        ENSURE_NEAR(d2_dot(n, pa), body_h(A, n), pt_tol);
        ENSURE_NEAR(-d2_dot(n, pb), body_h(B, d2_scale(-1, n)), pt_tol);
        double ea = body_sdist(A, pa), eb = body_sdist(B, pb);
        if (!isnan(ea)) ENSURE_NEAR(ea, 0, pt_tol);
        if (!isnan(eb)) ENSURE_NEAR(eb, 0, pt_tol);
    }
}

static results check_pair(const char *label, const gjk2_query_input *q, double sd_ref, double tol, double pt_tol) {
    case_begin(label);
    results r;
    memset(&r, 0, sizeof r);
    r.in = gjk2_intersect(q);
    r.di = gjk2_distance(q, NULL);
    r.pe = gjk2_penetration(q, NULL);
    d2 origin = d2_of(q->transform_a.position);
    body2 A, B;
    body_init(&A, q->shape_a, q->transform_a, origin);
    body_init(&B, q->shape_b, q->transform_b, origin);
    double rel_tol = q->options.tolerance > 0 ? (double)q->options.tolerance : (double)GJK_DEFAULT_TOLERANCE;
    band bd = band_of(&A, &B, rel_tol);
    r.allowed = expected_statuses(sd_ref, bd);
    double world = fmax(d2_max_abs(origin), d2_max_abs(d2_of(q->transform_b.position))) + A.rho + B.rho + A.rad + B.rad;
    pt_tol += 4 * EPS * world;
    r.world = world;
    r.pt_tol = pt_tol;
    double n_tol = fmax(TEST_REL_TOL, 4 * EPS);

    ENSURE(pen_finite(&r.pe));
    ENSURE(dist_finite(&r.di));
    ENSURE(status_is_answer(r.in.status) && status_is_answer(r.di.status) && status_is_answer(r.pe.status));
    ENSURE(r.in.status == r.pe.status && r.di.status == r.pe.status);
    ENSURE(r.in.intersect == (r.in.status != GJK_SEPARATED));
    if (!(r.allowed & ST(r.pe.status))) {
        fprintf(stderr, "%s:%d: penetration status %s, expected %s (sd_ref %.17g, band [%.3g, %.3g])\n", __FILE__,
                __LINE__, gjk_status_name(r.pe.status), statuses_name(r.allowed), sd_ref, bd.lo, bd.hi);
        ++test_failures;
    }

    check_penetration_answer(&A, &B, origin, &r.pe, sd_ref, tol, pt_tol, world);

    const gjk2_distance_output *di = &r.di;
    double dist = (double)di->distance;
    ENSURE(dist >= 0);
    ENSURE_NEAR(dist, fmax(0, sd_ref), tol);
    d2 da = in_frame(di->point_a, origin), db = in_frame(di->point_b, origin), dn = d2_of(di->normal);
    ENSURE_NEAR(d2_len(d2_sub(db, da)), dist, pt_tol);
    if (di->status == GJK_SEPARATED) {
        ENSURE_NEAR(d2_len(dn), 1, n_tol);
        ENSURE(d2_len(d2_sub(d2_sub(db, da), d2_scale(dist, dn))) <= pt_tol);
        if (d2_len(dn) > 0.5) {
            dn = d2_unit(dn);
            ENSURE_NEAR(body_h(&A, dn) + body_h(&B, d2_scale(-1, dn)), -dist, tol + 4 * EPS * world);
        }
        double ea = body_sdist(&A, da), eb = body_sdist(&B, db);
        if (!isnan(ea)) ENSURE_NEAR(ea, 0, pt_tol);
        if (!isnan(eb)) ENSURE_NEAR(eb, 0, pt_tol);
    } else {
        double nl = d2_len(dn);
        ENSURE(nl <= n_tol || fabs(nl - 1) <= n_tol);
        double ea = body_sdist(&A, da), eb = body_sdist(&B, da);
        if (!isnan(ea)) ENSURE(ea <= pt_tol);
        if (!isnan(eb)) ENSURE(eb <= pt_tol);
    }
    case_end();
    return r;
}

/// Bisects t in [0, hi] so that B at p_A + t·u has signed distance target
/// (for pairs whose difference is symmetric about 0, e.g. two boxes).
static double place_pair(const gjk2_query_input *q, d2 u, double target, double hi) {
    d2 origin = d2_of(q->transform_a.position);
    body2 A, B;
    body_init(&A, q->shape_a, q->transform_a, origin);
    body_init(&B, q->shape_b, q->transform_b, origin);
    double lo = 0;
    for (int it = 0; it < 200; ++it) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        B.pos = d2_scale(mid, u);
        if (ref_sd_bodies(&A, &B) < target) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

// ---------------------------------------------------------------------------

static void test_reference_selfcheck(void) {
    gjk2_shape sq = gjk2_make_box(V2(1, 1));
    static const struct {
        double r[2], expect;
    } cases[] = {
        {{2.5, 0.3}, 0.5}, {{2.5, 2.5}, 0.70710678118654752440}, {{1.7, 0.3}, -0.3}, {{0.1, -0.2}, -1.8}, {{2, 0}, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        gjk2_query_input q = query(&sq, gjk_transform2_identity(), &sq, pose2(d2_make(cases[i].r[0], cases[i].r[1]), 0));
        ENSURE_NEAR(exact_sd(&q), cases[i].expect, 1e-6);
    }
    // Rotated: a square turned 45° reaches x = √2; B's left face is at 2 + √2.
    gjk2_query_input q = query(&sq, pose2(d2_make(0, 0), PI / 4), &sq, pose2(d2_make(3 + sqrt(2.0), 0.2), 0));
    ENSURE_NEAR(exact_sd(&q), 2, 1e-6);
    gjk2_shape c = gjk2_make_circle(to_real(0.5));
    q = query(&sq, gjk_transform2_identity(), &c, pose2(d2_make(3, 3), 0.3));
    ENSURE_NEAR(exact_sd(&q), 2 * sqrt(2.0) - 0.5, 1e-6);
    band bd = {1000 * EPS, 5000 * EPS, 5};
    ENSURE(expected_statuses(0, bd) == ST(GJK_TOUCHING));
    ENSURE(expected_statuses(1e4 * EPS, bd) == ST(GJK_SEPARATED));
    ENSURE(expected_statuses(-1e4 * EPS, bd) == ST(GJK_PENETRATING));
    ENSURE(expected_statuses(3000 * EPS, bd) == (ST(GJK_TOUCHING) | ST(GJK_SEPARATED)));
}

// ---------------------------------------------------------------------------
// Stacked boxes overlapping by 0.1 (another library: depth 0, NaN normal):
// identical unit squares edge on edge, shifted, different sizes, and the
// stack turned and moved.

static void test_stacked_boxes_overlap_0_1_nan_normal(void) {
    static char label[160];
    rng r = {0x57acULL};
    for (int k = 0; k < 2; ++k) {
        for (int si = 0; si < 2; ++si) {
            double s = si ? -1 : 1;
            for (int variant = 0; variant < 4; ++variant) {
                d2 ha = d2_make(0.5, 0.5), hb = ha;
                double lateral = variant == 1 || variant == 3 ? 0.2 : 0;
                if (variant == 2) hb = d2_make(0.3, 0.2), lateral = -0.12;
                double gap = (k == 0 ? ha.x + hb.x : ha.y + hb.y) - 0.1;
                d2 c = k == 0 ? d2_make(s * gap, lateral) : d2_make(lateral, s * gap);
                double th = variant == 3 ? rng_range(&r, 0, 2 * PI) : 0;
                d2 off = variant == 3 ? d2_make(3, -2) : d2_make(0, 0);
                drot R = drot_angle(th);
                gjk2_shape A = gjk2_make_box(to_real2(ha)), B = gjk2_make_box(to_real2(hb));
                gjk2_query_input in = query(&A, pose2(off, th), &B, pose2(d2_add(off, drot_apply(R, c)), th));
                double ref = exact_sd(&in);
                snprintf(label, sizeof label, "2D stacked boxes overlapping 0.1, axis %d sign %+g, variant %d", k, s, variant);
                case_begin(label);
                ENSURE_NEAR(ref, -0.1, TOL(2) + 64 * EPS);
                case_end();
                results res = check_pair(label, &in, ref, TOL(2), TOL(2));
                case_begin(label);
                ENSURE(res.pe.status == GJK_PENETRATING);
                ENSURE_NEAR(res.pe.depth, 0.1, TOL(2));
                d2 nexp = drot_apply(R, k == 0 ? d2_make(s, 0) : d2_make(0, s));
                ENSURE_NEAR(res.pe.normal.x, nexp.x, TOL(1) + 16 * EPS);
                ENSURE_NEAR(res.pe.normal.y, nexp.y, TOL(1) + 16 * EPS);
                ENSURE(shape_sdist_world(&in, 1, res.pe.point_a) <= res.pt_tol);
                ENSURE(shape_sdist_world(&in, 0, res.pe.point_b) <= res.pt_tol);
                case_end();
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Squares exactly touching edge to edge (full and partial contact), corner
// to corner and corner to edge (B turned 45°), and at ±1e-9. Exactly
// touching: TOUCHING. ±1e-9: in double the band is at most 1e-10·(L + R) ≈
// 6e-10 < 1e-9 here, so the sign's status; in float the positions round to
// the touching ones: TOUCHING.

static void test_boxes_touching_edge_vertex_1e9(void) {
    static char label[160];
    const double s2 = sqrt(2.0);
    rng r = {0x70cULL};
    gjk2_shape A = gjk2_make_box(V2(1, 1)), B = gjk2_make_box(V2(1, 1));
    for (int kind = 0; kind < 4; ++kind) {
        for (int rot = 0; rot < 2; ++rot) {
            double th0 = rot ? rng_range(&r, 0, 2 * PI) : 0;
            d2 off = rot ? d2_make(-4, 7) : d2_make(0, 0);
            drot R0 = drot_angle(th0);
            for (int si = -1; si <= 1; ++si) {
                double shift = si * 1e-9, hand, thb = 0;
                d2 c, dir;
                const char *name;
                if (kind == 0) {
                    c = d2_make(2, 0), dir = d2_make(1, 0), hand = shift, name = "edge-edge full";
                } else if (kind == 1) {
                    c = d2_make(2, 1.3), dir = d2_make(1, 0), hand = shift, name = "edge-edge partial";
                } else if (kind == 2) {
                    c = d2_make(2, 2), dir = d2_make(1, 1), hand = shift > 0 ? shift * s2 : shift, name = "corner-corner";
                } else {
                    c = d2_make(1 + s2, 0.3), dir = d2_make(1, 0), hand = shift, thb = PI / 4, name = "corner-edge";
                }
                c = d2_add(c, d2_scale(shift, dir));
                gjk2_query_input in = query(&A, pose2(off, th0), &B, pose2(d2_add(off, drot_apply(R0, c)), th0 + thb));
                double ref = exact_sd(&in);
                snprintf(label, sizeof label, "2D squares %s, shift %+g%s", name, shift, rot ? ", turned and moved" : "");
                case_begin(label);
                ENSURE_NEAR(ref, hand, 16 * EPS * 8);
                case_end();
                results res = check_pair(label, &in, ref, TOL(4), TOL(4));
                case_begin(label);
                if (si == 0 || GJK_USE_FLOAT) {
                    ENSURE(res.allowed == ST(GJK_TOUCHING));
                    ENSURE(res.pe.status == GJK_TOUCHING);
                } else {
                    ENSURE(res.allowed == ST(si > 0 ? GJK_SEPARATED : GJK_PENETRATING));
                }
                case_end();
            }
        }
    }
}

// ---------------------------------------------------------------------------
// A 5 m box against a 0.2 m box: witnesses on their own surfaces and, for
// these shallow contacts, inside the other shape.

static void test_big_box_small_box_contact_off_surface(void) {
    static char label[160];
    gjk2_shape big = gjk2_make_box(V2(2.5, 2.5)), small = gjk2_make_box(V2(0.1, 0.1));
    for (int c = 0; c < 5; ++c) {
        gjk_transform2 tb;
        double hand;
        d2 nexp = d2_make(0, 1);
        if (c == 0) tb = pose2(d2_make(0.7, 2.5 + 0.1 - 0.01), 0), hand = -0.01;
        else if (c == 1) tb = pose2(d2_make(2.5 + 0.1 - 0.002, 0.4), 0), hand = -0.002, nexp = d2_make(1, 0);
        else if (c == 2) tb = pose2(d2_make(2.5 - 0.03, 2.5 + 0.1 - 0.01), 0), hand = -0.01;
        else if (c == 3) tb = pose2(d2_make(-1.3, 2.5 + 0.1 + 0.01), 0), hand = 0.01;
        else tb = pose2(d2_make(-0.4, 2.5 + 0.1 * sqrt(2.0) - 0.005), PI / 4), hand = -0.005; // corner 5 mm deep
        gjk2_query_input in = query(&big, gjk_transform2_identity(), &small, tb);
        double ref = exact_sd(&in);
        snprintf(label, sizeof label, "2D 5 m box vs 0.2 m box, case %d", c);
        case_begin(label);
        ENSURE_NEAR(ref, hand, TOL(5) + 64 * EPS);
        case_end();
        results res = check_pair(label, &in, ref, TOL(5), TOL(5));
        case_begin(label);
        if (res.pe.status == GJK_PENETRATING) {
            ENSURE(shape_sdist_world(&in, 1, res.pe.point_a) <= res.pt_tol);
            ENSURE(shape_sdist_world(&in, 0, res.pe.point_b) <= res.pt_tol);
        }
        ENSURE_NEAR(res.pe.normal.x, nexp.x, TOL(1) + 16 * EPS);
        ENSURE_NEAR(res.pe.normal.y, nexp.y, TOL(1) + 16 * EPS);
        case_end();
    }
}

// ---------------------------------------------------------------------------
// A long thin triangle (84 m edge) with a unit box 5 cm into its long edge:
// the contact must be under the box, not tens of metres away. The triangle
// (−42, 0), (42, 0), (0, −3) has its long edge on y = 0; the box (half 0.5) at
// (10, 0.45) sinks 5 cm below it: depth 0.05 along +y.

static void test_long_triangle_box_contact_far_away(void) {
    static char label[160];
    gjk2_shape tri = gjk2_make_triangle(V2(-42, 0), V2(42, 0), V2(0, -3));
    gjk2_shape box = gjk2_make_box(V2(0.5, 0.5));
    rng r = {0x84ULL};
    for (int c = 0; c < 4; ++c) {
        double th0 = c >= 2 ? rng_range(&r, 0, 2 * PI) : 0;
        d2 off = c == 3 ? d2_make(300, -200) : d2_make(0, 0);
        double depth = c == 1 ? 0.2 : 0.05;
        drot R0 = drot_angle(th0);
        gjk2_query_input in = query(&tri, pose2(off, th0), &box, pose2(d2_add(off, drot_apply(R0, d2_make(10, 0.5 - depth))), th0));
        double ref = exact_sd(&in);
        snprintf(label, sizeof label, "2D 84 m triangle vs box %g m deep, pose %d", depth, c);
        case_begin(label);
        ENSURE_NEAR(ref, -depth, 1e-12 + 1e3 * EPS);
        case_end();
        results res = check_pair(label, &in, ref, TOL(42), TOL(42));
        case_begin(label);
        ENSURE(res.pe.status == GJK_PENETRATING);
        d2 la = drot_inv(R0, in_frame(res.pe.point_a, d2_of(in.transform_a.position)));
        d2 lb = drot_inv(R0, in_frame(res.pe.point_b, d2_of(in.transform_a.position)));
        ENSURE_NEAR(la.y, 0, res.pt_tol);
        ENSURE_NEAR(lb.y, -depth, res.pt_tol);
        ENSURE(fabs(la.x - 10) <= 0.5 + res.pt_tol);
        ENSURE(fabs(lb.x - 10) <= 0.5 + res.pt_tol);
        case_end();
    }
}

// ---------------------------------------------------------------------------
// Pairs 1e5 and 1e6 from the origin: boxes, circles, polygons (a diamond
// against a triangle, vertex to vertex), apart, touching and overlapping;
// accurate to TEST_REL_TOL·size + 4·eps·|p|.

static void test_far_from_origin_1e5_1e6(void) {
    static char label[200];
    rng r = {0xfa4ULL};
    gjk2_shape boxA = gjk2_make_box(V2(1, 0.8)), boxB = gjk2_make_box(V2(0.5, 0.5));
    gjk2_shape cA = gjk2_make_circle(1), cB = gjk2_make_circle(to_real(0.5));
    gjk_vec2 dia[4] = {V2(1, 0), V2(0, 1), V2(-1, 0), V2(0, -1)};
    gjk_vec2 tri[3] = {V2(-0.5, 0), V2(0.5, 0.6), V2(0.4, -0.7)};
    gjk2_shape pA = gjk2_make_polygon(dia, 4), pB = gjk2_make_polygon(tri, 3);
    double worst_sd = 0;
    for (int mag = 0; mag < 2; ++mag) {
        double o = mag ? 1e6 : 1e5;
        for (int dirk = 0; dirk < 3; ++dirk) {
            d2 dir = dirk == 0 ? d2_make(1, 0) : dirk == 1 ? d2_unit(d2_make(-1, 1)) : random_dir(&r);
            d2 pa = d2_make(round(o * dir.x), round(o * dir.y));
            for (int kind = 0; kind < 3; ++kind) {
                const double gaps[] = {0.3, 0, -0.1};
                for (int gi = 0; gi < 3; ++gi) {
                    double g = gaps[gi];
                    double th0 = dirk == 2 ? rng_range(&r, 0, 2 * PI) : 0;
                    drot R0 = drot_angle(th0);
                    gjk2_query_input in;
                    if (kind == 0) {
                        in = query(&boxA, pose2(pa, th0), &boxB, pose2(d2_add(pa, drot_apply(R0, d2_make(1.5 + g, 0.25))), th0));
                    } else if (kind == 1) {
                        in = query(&cA, pose2(pa, th0), &cB, pose2(d2_add(pa, d2_scale((1.5 + g) / 5, d2_make(3, 4))), th0));
                    } else {
                        in = query(&pA, pose2(pa, 0), &pB, pose2(d2_add(pa, d2_make(1.5 + g, 0)), 0));
                    }
                    double ref = exact_sd(&in);
                    snprintf(label, sizeof label, "2D %s at %g from the origin, direction %d, gap %g",
                             kind == 0 ? "boxes" : kind == 1 ? "circles" : "diamond-triangle", o, dirk, g);
                    case_begin(label);
                    if (!GJK_USE_FLOAT && (kind != 2 || g >= 0)) ENSURE_NEAR(ref, g, 1e-9);
                    case_end();
                    results res = check_pair(label, &in, ref, TOL(2) + 4 * EPS * o, TOL(2));
                    worst_sd = fmax(worst_sd, fabs((double)res.pe.signed_distance - ref));
                }
            }
        }
    }
    printf("  2D far from the origin (1e5, 1e6): worst |sd error| %.3g\n", worst_sd);
}

// ---------------------------------------------------------------------------
// Coincident identical shapes: concentric circles (depth 2r, some unit
// normal, witnesses c ± r·n), coincident boxes (depth 2·least half extent
// along ±that axis; a square: along some axis), capsules (depth 2r across
// the axis), polygons (a regular hexagon of circumradius 1: depth = twice
// the apothem, √3), a circle given as an ellipse (depth 1, see below).

static void test_coincident_identical_shapes(void) {
    static char label[160];
    rng r = {0xc0cULL};
    gjk_vec2 hex[6];
    for (int k = 0; k < 6; ++k) hex[k] = V2(cos(k * PI / 3), sin(k * PI / 3));
    gjk2_shape hexagon = gjk2_make_polygon(hex, 6);
    for (int rot = 0; rot < 3; ++rot) {
        double th = rot ? rng_range(&r, 0, 2 * PI) : 0;
        d2 p = rot == 2 ? d2_make(123.5, -77.25) : d2_make(0.5, -0.25);
        gjk_transform2 t = pose2(p, th);
        drot R = drot_of(t.rotation);
        {
            gjk2_shape c = gjk2_make_circle(to_real(0.7));
            gjk2_query_input in = query(&c, t, &c, t);
            snprintf(label, sizeof label, "2D concentric circles, pose %d", rot);
            results res = check_pair(label, &in, -1.4, TOL(1), TOL(1));
            case_begin(label);
            d2 n = d2_of(res.pe.normal);
            ENSURE(d2_len(d2_sub(d2_of(res.pe.point_a), d2_add(d2_of(t.position), d2_scale(0.7, n)))) <= res.pt_tol);
            ENSURE(d2_len(d2_sub(d2_of(res.pe.point_b), d2_sub(d2_of(t.position), d2_scale(0.7, n)))) <= res.pt_tol);
            case_end();
        }
        for (int sq = 0; sq < 2; ++sq) {
            gjk2_shape b = gjk2_make_box(sq ? V2(0.6, 0.6) : V2(1, 0.4));
            gjk2_query_input in = query(&b, t, &b, t);
            snprintf(label, sizeof label, "2D coincident %s, pose %d", sq ? "squares" : "boxes", rot);
            double depth = sq ? 1.2 : 0.8;
            results res = check_pair(label, &in, -depth, TOL(2), TOL(2));
            case_begin(label);
            d2 nl = drot_inv(R, d2_of(res.pe.normal));
            if (sq) ENSURE_NEAR(d2_max_abs(nl), 1, TOL(1) + 16 * EPS);
            else ENSURE_NEAR(fabs(nl.y), 1, TOL(1) + 16 * EPS);
            case_end();
        }
        {
            gjk2_shape c = gjk2_make_capsule(V2(-0.5, 0.1), V2(0.5, -0.1), to_real(0.25));
            gjk2_query_input in = query(&c, t, &c, t);
            snprintf(label, sizeof label, "2D coincident capsules, pose %d", rot);
            results res = check_pair(label, &in, -0.5, TOL(1), TOL(1));
            case_begin(label);
            d2 axis = drot_apply(R, d2_unit(d2_make(1, -0.2)));
            ENSURE_NEAR(d2_dot(d2_of(res.pe.normal), axis), 0, TOL(1) + 16 * EPS);
            case_end();
        }
        {
            gjk2_query_input in = query(&hexagon, t, &hexagon, t);
            snprintf(label, sizeof label, "2D coincident hexagons, pose %d", rot);
            check_pair(label, &in, -sqrt(3.0), TOL(2), TOL(2));
        }
        // A circle given as an ellipse of equal radii 0.5: depth 1 along
        // every direction, a continuum that EPA can only approximate by
        // chords (README: EPA on curved shapes may end NOT_CONVERGED in
        // near-degenerate cases). Either converged (checked in full) or
        // NOT_CONVERGED with finite outputs, a unit normal and a lower-bound
        // depth; and the intersection and distance queries know the status,
        // since EPA's polygon encloses the origin with inner distance ≈ 1.
        {
            gjk2_shape e = gjk2_make_ellipse(V2(0.5, 0.5));
            gjk2_query_input in = query(&e, t, &e, t);
            snprintf(label, sizeof label, "2D concentric circular ellipses, pose %d", rot);
            gjk2_penetration_output pe = gjk2_penetration(&in, NULL);
            if (pe.status == GJK_PENETRATING) {
                check_pair(label, &in, -1, TOL(2), TOL(2));
            } else {
                case_begin(label);
                ENSURE(pe.status == GJK_NOT_CONVERGED);
                ENSURE(pen_finite(&pe));
                ENSURE_NEAR(vlen2(pe.normal), 1, TOL(1));
                ENSURE(pe.depth <= 1 + TOL(2) && pe.depth > 0);
                gjk2_distance_output di = gjk2_distance(&in, NULL);
                gjk2_intersect_output xi = gjk2_intersect(&in);
                ENSURE(dist_finite(&di) && di.distance == 0);
                ENSURE(xi.intersect);
                ENSURE(di.status == GJK_PENETRATING);
                ENSURE(xi.status == GJK_PENETRATING);
                printf("  %s: %s, depth %.12g (exact 1)\n", label, gjk_status_name(pe.status), (double)pe.depth);
                case_end();
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Duplicate and collinear polygon points: a square given with repeated
// corners, edge midpoints and its centre answers exactly as the box; a
// polygon whose points lie on one line is a segment; all points equal, a
// point.

static void test_duplicate_collinear_points(void) {
    static char label[160];
    gjk_vec2 sq[4 * 3 + 4 + 1];
    int n = 0;
    for (int rep = 0; rep < 3; ++rep)
        for (int i = 0; i < 4; ++i) sq[n++] = V2(i & 1 ? 0.5 : -0.5, i & 2 ? 0.5 : -0.5);
    sq[n++] = V2(0, -0.5), sq[n++] = V2(0.5, 0), sq[n++] = V2(0, 0.5), sq[n++] = V2(-0.5, 0), sq[n++] = V2(0, 0);
    gjk2_shape poly = gjk2_make_polygon(sq, n), box = gjk2_make_box(V2(0.5, 0.5)), other = gjk2_make_box(V2(0.4, 0.3));
    rng r = {0xd0bULL};
    const double gaps[] = {0.2, 0, -0.05, -0.3};
    for (int rot = 0; rot < 2; ++rot) {
        for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; ++g) {
            double tha = rot ? rng_range(&r, 0, 2 * PI) : 0, thb = rot ? rng_range(&r, 0, 2 * PI) : 0;
            d2 u = d2_unit(d2_make(0.1, 0.8));
            gjk2_query_input qbox = query(&box, pose2(d2_make(0, 0), tha), &other, pose2(d2_make(0.1, 0.8 + gaps[g]), thb));
            if (rot) qbox.transform_b.position = to_real2(d2_scale(place_pair(&qbox, u, gaps[g], 4), u));
            gjk2_query_input qpoly = qbox;
            qpoly.shape_a = &poly;
            double ref = exact_sd(&qbox);
            snprintf(label, sizeof label, "2D square with duplicate/collinear points, gap %g, pose %d", gaps[g], rot);
            case_begin(label);
            ENSURE_NEAR(ref, gaps[g], 1e-12 + 16 * EPS);
            ENSURE_NEAR(exact_sd(&qpoly), ref, 1e-12 + 16 * EPS);
            case_end();
            results rp = check_pair(label, &qpoly, ref, TOL(1), TOL(1));
            results rb = check_pair(label, &qbox, ref, TOL(1), TOL(1));
            case_begin(label);
            ENSURE_NEAR(rp.pe.signed_distance, rb.pe.signed_distance, TOL(1));
            case_end();
        }
    }
    // Collinear: the segment (−1, 0)–(1, 0) with repeats and interior points.
    gjk_vec2 line[8] = {V2(-1, 0), V2(0.5, 0), V2(1, 0), V2(-1, 0), V2(0, 0), V2(0.25, 0), V2(1, 0), V2(-0.75, 0)};
    gjk2_shape seg = gjk2_make_polygon(line, 8);
    for (int rot = 0; rot < 2; ++rot) {
        double th = rot ? rng_range(&r, 0, 2 * PI) : 0;
        drot R = drot_angle(th);
        const double ys[] = {0.8, 0.5, 0.45, 0.0};
        for (size_t k = 0; k < 4; ++k) {
            // Box (half 0.5) at (0.1, −ys): gap ys − 0.5. Overlapping, the
            // segment (longer than the box is wide) leaves it up by 0.5 − ys
            // or down by 0.5 + ys, sideways only by 1.4 or more: sd = ys − 0.5.
            gjk2_query_input in = query(&seg, pose2(d2_make(0, 0), th), &box, pose2(drot_apply(R, d2_make(0.1, -ys[k])), th));
            double ref = exact_sd(&in);
            snprintf(label, sizeof label, "2D collinear polygon over a box, height %g, pose %d", ys[k], rot);
            case_begin(label);
            ENSURE_NEAR(ref, ys[k] - 0.5, 1e-12 + 16 * EPS);
            case_end();
            check_pair(label, &in, ref, TOL(1), TOL(1));
        }
        gjk2_shape disc = gjk2_make_circle(to_real(0.3));
        gjk2_query_input in = query(&seg, pose2(d2_make(0, 0), th), &disc, pose2(drot_apply(R, d2_make(1.2, 0.4)), th));
        snprintf(label, sizeof label, "2D collinear polygon vs circle, pose %d", rot);
        double ref = exact_sd(&in);
        case_begin(label);
        ENSURE_NEAR(ref, hypot(0.2, 0.4) - 0.3, 1e-12 + 16 * EPS);
        case_end();
        check_pair(label, &in, ref, TOL(1), TOL(1));
    }
    gjk_vec2 same[4] = {V2(0.2, 0.1), V2(0.2, 0.1), V2(0.2, 0.1), V2(0.2, 0.1)};
    gjk2_shape pt = gjk2_make_polygon(same, 4);
    const double hs[] = {0.9, 0.5, 0.3};
    for (int k = 0; k < 3; ++k) {
        gjk2_query_input in = query(&box, gjk_transform2_identity(), &pt, pose2(d2_make(0, hs[k] - 0.1), 0));
        double ref = exact_sd(&in);
        snprintf(label, sizeof label, "2D polygon of one repeated point at height %g", hs[k]);
        case_begin(label);
        ENSURE_NEAR(ref, hs[k] - 0.5, 1e-12 + 4 * EPS);
        case_end();
        check_pair(label, &in, ref, TOL(1), TOL(1));
    }
}

// ---------------------------------------------------------------------------
// Shapes of size 1e-6 and 1e6: the same configurations scaled by s answer
// with TEST_REL_TOL·s·size accuracy.

static void test_tiny_and_huge_sizes(void) {
    static char label[160];
    const double scales[] = {1e-6, 1, 1e6};
    rng r = {0x5c4ULL};
    gjk_vec2 dia[4];
    for (int si = 0; si < 3; ++si) {
        double s = scales[si], th0 = rng_range(&r, 0, 2 * PI);
        drot R0 = drot_angle(th0);
        d2 off = d2_scale(s, d2_make(3, -1));
        gjk2_shape A = gjk2_make_box(V2(s, 0.8 * s)), B = gjk2_make_box(V2(0.5 * s, 0.5 * s));
        gjk2_shape C = gjk2_make_circle(to_real(0.4 * s));
        gjk2_shape P = gjk2_make_capsule(V2(-0.5 * s, 0), V2(0.5 * s, 0), to_real(0.2 * s));
        dia[0] = V2(0.7 * s, 0), dia[1] = V2(0, 0.7 * s), dia[2] = V2(-0.7 * s, 0), dia[3] = V2(0, -0.7 * s);
        gjk2_shape D = gjk2_make_polygon(dia, 4);
        const double gaps[] = {0.2, 0, -0.1};
        for (int gi = 0; gi < 3; ++gi) {
            double g = gaps[gi] * s;
            struct {
                const gjk2_shape *b;
                d2 c;
                const char *name;
            } cs[4] = {
                {&B, d2_make(1.5 * s + g, 0.2 * s), "box-box edge"},
                {&C, d2_make(0.2 * s, 1.2 * s + g), "box-circle"},
                {&P, d2_make(-0.1 * s, 1.0 * s + g), "box-capsule"},
                {&D, d2_make(1.7 * s + g, 0.3 * s), "box-diamond corner"},
            };
            for (int k = 0; k < 4; ++k) {
                gjk2_query_input in = query(&A, pose2(off, th0), cs[k].b, pose2(d2_add(off, drot_apply(R0, cs[k].c)), th0));
                double ref = exact_sd(&in);
                snprintf(label, sizeof label, "2D %s at scale %g, gap %g·s", cs[k].name, s, gaps[gi]);
                case_begin(label);
                ENSURE_NEAR(ref / s, gaps[gi], 1e-9 + 64 * EPS);
                case_end();
                check_pair(label, &in, ref, TOL(2 * s), TOL(2 * s));
            }
        }
    }
    gjk2_shape box = gjk2_make_box(V2(0.5, 0.5)), dust = gjk2_make_circle(to_real(1e-6));
    const double hs[] = {1e-3, 0, -0.5e-6};
    for (int k = 0; k < 3; ++k) {
        gjk2_query_input in = query(&box, gjk_transform2_identity(), &dust, pose2(d2_make(0.1, 0.5 + 1e-6 + hs[k]), 0));
        snprintf(label, sizeof label, "2D 1 um circle on a unit box, gap %g", hs[k]);
        check_pair(label, &in, exact_sd(&in), TOL(1), TOL(1));
    }
    gjk2_shape huge = gjk2_make_box(V2(1e6, 1e6)), unit = gjk2_make_box(V2(0.5, 0.5));
    for (int k = 0; k < 3; ++k) {
        double g = k == 0 ? 1 : k == 1 ? 0 : -0.25;
        gjk2_query_input in = query(&huge, gjk_transform2_identity(), &unit, pose2(d2_make(10, 1e6 + 0.5 + g), 0));
        snprintf(label, sizeof label, "2D unit box on a 1e6 box, gap %g", g);
        check_pair(label, &in, exact_sd(&in), TOL(1e6), TOL(1e6));
    }
}

// ---------------------------------------------------------------------------
// Iteration caps on curved shapes (ellipses, circles with margins,
// capsules): max_iterations = 1, 2, 3 (and max_epa_iterations = 1, 2, 3
// when overlapping) give finite outputs and NOT_CONVERGED or a correct answer.

static void test_iteration_cap_no_nan(void) {
    static char label[160];
    rng r = {0xca9ULL};
    gjk2_shape shapes[4] = {gjk2_make_ellipse(V2(1, 0.5)), gjk2_with_margin(gjk2_make_ellipse(V2(0.4, 0.9)), to_real(0.1)),
                            gjk2_make_capsule(V2(0, -0.5), V2(0, 0.5), to_real(0.3)), gjk2_make_circle(to_real(0.6))};
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) {
            double tha = rng_range(&r, 0, 2 * PI), thb = rng_range(&r, 0, 2 * PI);
            d2 dir = random_dir(&r);
            for (int sep = 0; sep < 3; ++sep) {
                double dist = sep == 0 ? 2.5 : sep == 1 ? 1.5 : 0.3;
                gjk2_query_input in = query(&shapes[i], pose2(d2_make(0, 0), tha), &shapes[j], pose2(d2_scale(dist, dir), thb));
                gjk2_penetration_output exact = gjk2_penetration(&in, NULL);
                ENSURE(status_is_answer(exact.status));
                for (int cap = 1; cap <= 3; ++cap) {
                    snprintf(label, sizeof label, "2D iteration cap %d, shapes %d and %d, centre distance %g", cap, i, j, dist);
                    case_begin(label);
                    gjk2_query_input qc = in;
                    qc.options.max_iterations = cap;
                    gjk2_intersect_output x = gjk2_intersect(&qc);
                    gjk2_distance_output d = gjk2_distance(&qc, NULL);
                    gjk2_penetration_output p = gjk2_penetration(&qc, NULL);
                    ENSURE(dist_finite(&d) && pen_finite(&p));
                    ENSURE(x.iterations <= cap && d.iterations <= cap && p.iterations <= cap);
                    ENSURE(status_is_answer(x.status) || x.status == GJK_NOT_CONVERGED);
                    ENSURE(status_is_answer(d.status) || d.status == GJK_NOT_CONVERGED);
                    ENSURE(status_is_answer(p.status) || p.status == GJK_NOT_CONVERGED);
                    if (status_is_answer(x.status)) ENSURE(x.status == exact.status);
                    if (status_is_answer(d.status)) ENSURE_NEAR(d.distance, fmax(0, (double)exact.signed_distance), TOL(3));
                    if (status_is_answer(p.status)) ENSURE_NEAR(p.signed_distance, exact.signed_distance, TOL(3));
                    if (exact.status == GJK_SEPARATED) {
                        ENSURE(d2_len(d2_sub(d2_of(d.point_b), d2_of(d.point_a))) >= (double)exact.signed_distance - TOL(3));
                    }
                    ENSURE_NEAR(vlen2(p.normal), 1, TOL(1));
                    if (exact.status == GJK_PENETRATING) {
                        gjk2_query_input qe = in;
                        qe.options.max_epa_iterations = cap;
                        gjk2_penetration_output e = gjk2_penetration(&qe, NULL);
                        ENSURE(pen_finite(&e));
                        ENSURE(e.status == GJK_PENETRATING || e.status == GJK_NOT_CONVERGED);
                        ENSURE(e.epa_iterations <= cap);
                        ENSURE_NEAR(vlen2(e.normal), 1, TOL(1));
                        // A capped EPA reports its upper bound: a depth and
                        // normal whose motion does separate the shapes.
                        ENSURE(e.depth >= exact.depth - TOL(3));
                    }
                    case_end();
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Near-touching rotated boxes (GJK says overlapping, EPA finds the origin
// outside): random rotated pairs at sd ∈ [−1e-9, 1e-9]: one status, the
// band's, and the depth at most |sd| + tol.

static void test_near_touching_boxes_status_agree(void) {
    static char label[160];
    rng r = {0x9eaULL};
    int counts[3] = {0, 0, 0};
    for (int i = 0; i < 300 * REG_RANDOM_SCALE; ++i) {
        gjk2_shape A = gjk2_make_box(V2(rng_range(&r, 0.2, 1), rng_range(&r, 0.2, 1)));
        gjk2_shape B = gjk2_make_box(V2(rng_range(&r, 0.2, 1), rng_range(&r, 0.2, 1)));
        double tha = rng_range(&r, 0, 2 * PI), thb = rng_range(&r, 0, 2 * PI);
        d2 u = random_dir(&r);
        double target = rng_range(&r, -1e-9, 1e-9);
        gjk2_query_input q = query(&A, pose2(d2_make(0, 0), tha), &B, pose2(d2_make(0, 0), thb));
        q.transform_b.position = to_real2(d2_scale(place_pair(&q, u, target, 4), u));
        double ref = exact_sd(&q);
        snprintf(label, sizeof label, "2D near-touching rotated boxes, pair %d (target %.3g)", i, target);
        results res = check_pair(label, &q, ref, TOL(2), TOL(2));
        case_begin(label);
        ENSURE(res.pe.depth <= fmax(0, -ref) + TOL(2));
        case_end();
        if (res.pe.status <= GJK_PENETRATING) ++counts[res.pe.status];
    }
    printf("  2D near-touching boxes: %d separated, %d touching, %d penetrating\n", counts[0], counts[1], counts[2]);
}

// ---------------------------------------------------------------------------
// Two boxes by their separating axes (sat2.c): random sizes, margins and
// angles (random, exact quarter turns, and a tiny turn off them), placed at
// signed distances from 0.5 down to −0.5 of their size. Every answer is
// checked against the exact reference; the penetration of boxes whose cores
// overlap beyond the band is the axes' (no iterations), so the test fails
// if the shortcut stops being taken; and stacked boxes report the middle
// of their contact edge.

static void test_boxes_by_separating_axes(void) {
    static char label[160];
    rng r = {0x5a72ULL};
    static const double targets[] = {0.5, 1e-3, 1e-6, -1e-6, -1e-3, -0.1, -0.5};
    int overlapping = 0, by_axes = 0, clear = 0, all_by_axes = 0, capsules = 0;
    for (int i = 0; i < 200 * REG_RANDOM_SCALE; ++i) {
        double ma = rng_chance(&r, 0.5) ? 0 : rng_range(&r, 0, 0.2);
        double mb = rng_chance(&r, 0.5) ? 0 : rng_range(&r, 0, 0.2);
        d2 ha = d2_make(rng_range(&r, 0.05, 2), rng_range(&r, 0.05, 2));
        d2 hb = d2_make(rng_range(&r, 0.05, 2), rng_range(&r, 0.05, 2));
        gjk2_shape A = gjk2_with_margin(gjk2_make_box(to_real2(ha)), to_real(ma));
        gjk2_shape B = gjk2_with_margin(gjk2_make_box(to_real2(hb)), to_real(mb));
        // One pair in four has a capsule for A, one in four for B (along its
        // x, radius 0.02 to 0.5): a box of zero height, rounded.
        int capsule = rng_int(&r, 4);
        if (capsule < 2) {
            double rad = rng_range(&r, 0.02, 0.5);
            d2 *h = capsule == 0 ? &ha : &hb;
            h->y = 0;
            gjk2_shape c = gjk2_make_capsule(V2(-h->x, 0), V2(h->x, 0), to_real(rad));
            if (capsule == 0) {
                A = c, ma = rad;
            } else {
                B = c, mb = rad;
            }
            ++capsules;
        }
        double th[2];
        for (int k = 0; k < 2; ++k) {
            int kind = rng_int(&r, 3);
            th[k] = kind == 0 ? rng_range(&r, 0, 2 * PI) : rng_int(&r, 4) * (PI / 2);
            if (kind == 2) th[k] += pow(10, rng_range(&r, -9, -4));
        }
        d2 u = random_dir(&r), origin = rng_chance(&r, 0.3) ? d2_make(rng_range(&r, -1e3, 1e3), 7) : d2_make(0, 0);
        double size = fmax(d2_len(ha) + ma, d2_len(hb) + mb);
        for (size_t t = 0; t < sizeof targets / sizeof targets[0]; ++t) {
            gjk2_query_input q = query(&A, pose2(origin, th[0]), &B, pose2(origin, th[1]));
            d2 off = d2_scale(place_pair(&q, u, targets[t] * size, 8 * size), u);
            q.transform_b.position = to_real2(d2_add(origin, off));
            double ref = exact_sd(&q);
            snprintf(label, sizeof label, "2D boxes by separating axes, pair %d, target %g", i, targets[t]);
            results res = check_pair(label, &q, ref, TOL(2 * size), TOL(2 * size));
            if (ref + ma + mb < -TOL(16 * size) && ref < -TOL(16 * size)) {
                ++overlapping;
                by_axes += res.pe.iterations == 0 && res.pe.epa_iterations == 0;
            }
            // Clear of touching, all three queries answer from the axes
            // (apart: a face or two corners reaching the distance).
            if (fabs(ref) > TOL(16 * size)) {
                ++clear;
                all_by_axes += res.in.iterations == 0 && res.di.iterations == 0 && res.pe.iterations == 0 &&
                               res.pe.epa_iterations == 0;
            }
        }
    }
    printf("  2D boxes (%d with a capsule): %d with the cores overlapping, %d answered by the axes; %d clear of "
           "touching, %d of those answered by the axes in all three queries\n",
           capsules, overlapping, by_axes, clear, all_by_axes);
    ENSURE(capsules > 50 * REG_RANDOM_SCALE);
    ENSURE(overlapping > 200 * REG_RANDOM_SCALE);
    ENSURE(by_axes >= overlapping * 99 / 100);
    ENSURE(all_by_axes >= clear * 98 / 100);

    // A segment given as a box of zero half width, turned a quarter so that
    // its zero extent points down onto A's top edge: the contact is the
    // whole segment (the flat axis is the one across n, not the zero one),
    // whose middle is the witness (review finding: its end was).
    gjk2_shape wide = gjk2_make_box(V2(2, 1)), seg = gjk2_make_box(V2(0, 1));
    gjk2_query_input qs = query(&wide, pose2(d2_make(0, 0), 0), &seg, pose2(d2_make(0.3, 0.9), PI / 2));
    gjk2_penetration_output os = gjk2_penetration(&qs, NULL);
    case_begin("2D segment box lying on a box");
    ENSURE(os.status == GJK_PENETRATING && os.iterations == 0 && os.epa_iterations == 0);
    ENSURE_NEAR(os.point_a.x, 0.3, 1e-6);
    ENSURE_NEAR(os.point_a.y, 1, 1e-6);
    ENSURE_NEAR(os.depth, 0.1, 1e-6);
    case_end();

    // A tolerance below the rounding (review finding, float): the axes must
    // not call penetrating a pair 6.4e-9 deep that GJK's intersect and
    // distance, at the arithmetic's own accuracy, call apart.
    gjk2_shape ta = gjk2_make_box(V2(1.3813632726669312, 0.29654654860496521));
    gjk2_shape tb = gjk2_make_box(V2(1.0963340997695923, 0));
    gjk2_query_input qt = query(&ta, gjk_transform2_identity(), &tb, gjk_transform2_identity());
    qt.transform_b.position = V2(0.31878191232681274, 0.29654663801193237);
    qt.transform_b.rotation.c = to_real(-1);
    qt.transform_b.rotation.s = to_real(-8.7422776573475858e-08);
    qt.options.tolerance = to_real(1e-15);
    case_begin("2D boxes 6.4e-9 deep at tolerance 1e-15");
    gjk_status st = gjk2_penetration(&qt, NULL).status;
    ENSURE(st == gjk2_intersect(&qt).status && st == gjk2_distance(&qt, NULL).status);
    case_end();

    // Stacked: the middle of the contact edge, whichever box is the larger.
    gjk2_shape big = gjk2_make_box(V2(1, 0.5)), small = gjk2_make_box(V2(0.5, 0.5));
    for (int c = 0; c < 2; ++c) {
        gjk2_query_input q = query(c == 0 ? &big : &small, pose2(d2_make(2, 3), 0), c == 0 ? &small : &big,
                                   pose2(d2_make(2.25, 3.9375), 0));
        gjk2_penetration_output o = gjk2_penetration(&q, NULL);
        case_begin(c == 0 ? "2D small box on a big one" : "2D big box on a small one");
        ENSURE(o.status == GJK_PENETRATING && o.iterations == 0 && o.epa_iterations == 0);
        ENSURE(o.depth == to_real(0.0625) && o.normal.x == 0 && o.normal.y == 1);
        ENSURE(o.point_a.x == to_real(c == 0 ? 2.25 : 2) && o.point_b.x == o.point_a.x);
        ENSURE(o.point_a.y == to_real(3.5) && o.point_b.y == to_real(3.4375));
        case_end();
    }
}

// ---------------------------------------------------------------------------
// A box sliding along another at a 1e-6 gap (another library's cast hit with
// a zero normal): gjk2_shapecast misses in double (the band, ≤ 1e-10·(L + R),
// is far below 1e-6); in float the gap lies inside the band (2e-6·L), so a
// touching hit with a unit normal when B first comes over A is also allowed.
// A 1e-3 gap misses in both builds.

static void test_box_sliding_1e6_gap_shapecast_zero_normal(void) {
    static char label[160];
    gjk2_shape A = gjk2_make_box(V2(1, 1));
    gjk2_shape movers[3] = {gjk2_make_box(V2(1, 1)), gjk2_make_box(V2(0.3, 0.2)), gjk2_make_circle(to_real(0.5))};
    const double half_h[3] = {1, 0.2, 0.5};
    rng r = {0x511dULL};
    for (int which = 0; which < 3; ++which) {
        for (int rot = 0; rot < 2; ++rot) {
            for (int gi = 0; gi < 2; ++gi) {
                double gap = gi ? 1e-3 : 1e-6;
                double th0 = rot ? rng_range(&r, 0, 2 * PI) : 0;
                drot R0 = drot_angle(th0);
                d2 off = rot ? d2_make(-3, 8) : d2_make(0, 0);
                d2 start = d2_make(-3, 1 + half_h[which] + gap), motion = d2_make(6, 0);
                gjk2_shapecast_input in;
                memset(&in, 0, sizeof in);
                in.shape_a = &A;
                in.transform_a = pose2(off, th0);
                in.shape_b = &movers[which];
                in.transform_b = pose2(d2_add(off, drot_apply(R0, start)), th0);
                in.translation_b = to_real2(drot_apply(R0, motion));
                gjk2_cast_output o = gjk2_shapecast(&in);
                snprintf(label, sizeof label, "2D %s sliding over a box at gap %g%s", which == 2 ? "circle" : "box", gap,
                         rot ? ", turned" : "");
                case_begin(label);
                ENSURE(isfinite((double)o.t) && vec2_finite(o.point) && vec2_finite(o.normal));
                d2 rel = drot_inv(R0, d2_sub(d2_of(in.transform_b.position), d2_of(in.transform_a.position)));
                double g = rel.y - half_h[which] - 1;
                double lmax = 2 * sqrt(2.0) + d2_len(start) + d2_len(motion);
                double band_hi = (double)GJK_DEFAULT_TOLERANCE * (lmax + (which == 2 ? 0.5 : 0));
                if (g > band_hi + 8 * EPS * lmax) {
                    ENSURE(o.status == GJK_MISS);
                    ENSURE(!o.hit);
                } else {
                    ENSURE(GJK_USE_FLOAT && gi == 0);
                    ENSURE(o.status == GJK_HIT || o.status == GJK_MISS);
                }
                if (o.hit) {
                    ENSURE(o.status == GJK_HIT);
                    ENSURE_NEAR(vlen2(o.normal), 1, TOL(1));
                    ENSURE(o.t > 0.1 && o.t < 0.45);
                }
                case_end();
            }
        }
    }
}

// ---------------------------------------------------------------------------
// A touching answer whose normal points into A (fuzz finding f14, the 2D
// form of test_regression.c's f15): a polygon vertex with subnormal
// coordinates, (−4.8e-310, 0), touching a point at the origin. GJK ended
// on a one-point simplex before it had seen the pair's length scale (a warm
// start, or the first support point), EPA's starting polygon was built with
// a tolerance of 0, and a rounding-level height counted as D reaching across
// the origin: "touching" along (−1, 4.8e-310), along which A reaches 5.5
// beyond B. Checks: cold and warm answers (the cache from gjk2_distance,
// then the cache the penetration query leaves) against the exact reference
// and the full penetration contract, and one status for the three queries.

/// Checks the answers of the queries on q started from a cache filled by
/// gjk2_distance on the same pair against the reference and against the
/// cold answers `cold` (the same statuses).
static void check_warm(const char *label, const gjk2_query_input *q, double sd_ref, double tol, double pt_tol,
                       const results *cold) {
    case_begin(label);
    d2 origin = d2_of(q->transform_a.position);
    body2 A, B;
    body_init(&A, q->shape_a, q->transform_a, origin);
    body_init(&B, q->shape_b, q->transform_b, origin);
    pt_tol += 4 * EPS * cold->world;
    gjk2_simplex_cache cache;
    memset(&cache, 0, sizeof cache);
    gjk2_distance_output d = gjk2_distance(q, &cache);
    ENSURE(d.status == cold->di.status);
    ENSURE(cache.count >= 1 && cache.count <= 3);
    for (int pass = 0; pass < 2; ++pass) { // the distance query's cache, then the penetration query's own
        gjk2_penetration_output pe = gjk2_penetration(q, &cache);
        ENSURE(pen_finite(&pe));
        ENSURE(pe.status == cold->pe.status);
        check_penetration_answer(&A, &B, origin, &pe, sd_ref, tol, pt_tol, cold->world);
    }
    case_end();
}

static void test_warm_touching_subnormal_normal_into_a(void) {
    static char label[160];
    // A subnormal number of gjk_real (float: below 1.2e-38).
    const double sub = GJK_USE_FLOAT ? 4.8e-40 : 4.7991056840719252e-310;
    gjk2_shape point = gjk2_make_point();
    // The fuzzer's polygon.
    gjk_vec2 f14[5] = {V2(-sub, 0), V2(-5.5, -5.5), V2(-5.5, -5), V2(0, 1), V2(0, GJK_USE_FLOAT ? 1e-30 : 1.0206407629923908e-202)};
    gjk2_shape a = gjk2_make_polygon(f14, 5);
    gjk2_query_input in = query(&a, gjk_transform2_identity(), &point, gjk_transform2_identity());
    double ref = exact_sd(&in);
    results cold = check_pair("f14 polygon, cold", &in, ref, TOL(8), TOL(8));
    check_warm("f14 polygon, warm", &in, ref, TOL(8), TOL(8), &cold);
    // Random polygons on a grid of 0.5 with one vertex at subnormal
    // coordinates (or at 0), touching a point at the origin.
    rng r = {0xf14ULL};
    for (int c = 0; c < 200 * REG_RANDOM_SCALE; ++c) {
        gjk_vec2 v[8];
        int nv = 3 + rng_int(&r, 6);
        double tx = rng_chance(&r, 0.2) ? 0 : sub * (rng_int(&r, 23) - 11);
        double ty = rng_chance(&r, 0.2) ? 0 : sub * (rng_int(&r, 23) - 11);
        v[0] = V2(tx, ty);
        for (int i = 1; i < nv; ++i) {
            double x = rng_chance(&r, 0.2) ? 0 : 0.5 * (rng_int(&r, 23) - 11);
            double y = rng_chance(&r, 0.2) ? 0 : 0.5 * (rng_int(&r, 23) - 11);
            v[i] = V2(x, y);
        }
        gjk2_shape p = gjk2_make_polygon(v, nv);
        gjk2_query_input q = query(&p, gjk_transform2_identity(), &point, gjk_transform2_identity());
        double sd = exact_sd(&q);
        snprintf(label, sizeof label, "polygon with a subnormal vertex at a point, case %d, cold", c);
        results res = check_pair(label, &q, sd, TOL(16), TOL(16));
        snprintf(label, sizeof label, "polygon with a subnormal vertex at a point, case %d, warm", c);
        check_warm(label, &q, sd, TOL(16), TOL(16), &res);
    }
}

// ---------------------------------------------------------------------------
// Zero normals from 2D EPA at huge and tiny sizes (fuzz findings f10,
// f10b): the edge normal was e⊥/|e| with |e| from the plain squared length,
// which overflows for edges above √GJK_REAL_MAX (the normal became zero,
// EPA answered "touching" along it and called support functions with the
// zero direction) and loses its digits for edges below √GJK_REAL_MIN (a ray
// cast from inside a 1e-160 box gave the normal (0, 1.0000056)). Checks:
// polygons with one vertex at huge coordinates (f10's among them) against a
// point inside, as a polygon and as a custom shape that records every
// direction it is asked for: each query answers with a status the band
// allows, the penetration answer has a unit normal that realises its signed
// distance within the tolerance, and no direction is zero or not finite;
// tiny boxes: ray casts from inside and penetration of a point inside give
// unit normals along which the depth is exact. A query that visits a point
// of D beyond 2^510 (2^62 in float), the largest coordinate a query
// accepts, answers GJK_INVALID_INPUT; one that does not, answers right
// (before, gjk2_intersect answered "separated" for a point inside when the
// walk's squared lengths overflowed).

typedef struct direction_log {
    const gjk2_shape *shape; ///< The shape whose support it forwards.
    int calls, bad;          ///< Calls, and calls with a zero or non-finite direction.
} direction_log;

static gjk_vec2 logged_support(const void *data, gjk_vec2 d) {
    direction_log *log = (direction_log *)(uintptr_t)data;
    ++log->calls;
    if (!vec2_finite(d) || (d.x == 0 && d.y == 0)) {
        ++log->bad;
        return gjk_v2(0, 0);
    }
    return gjk2_shape_support(log->shape, d);
}

/// The penetration answer's contract at a huge size: every query answers
/// with a status the band allows, a unit normal, the overlap along it −sd.
static void check_huge_answer(const char *label, const gjk2_query_input *q, double size) {
    case_begin(label);
    d2 origin = d2_of(q->transform_a.position);
    body2 A, B;
    body_init(&A, q->shape_a, q->transform_a, origin);
    body_init(&B, q->shape_b, q->transform_b, origin);
    double ref = exact_sd(q);
    // The documented band: touching within tolerance × L, L between the
    // band's bounds (the largest coordinate the query evaluated, which a
    // walk that never visits the far vertex keeps small), so either status
    // below the upper bound.
    band bd = band_of(&A, &B, (double)GJK_DEFAULT_TOLERANCE);
    unsigned allowed = fabs(ref) <= bd.hi + 8 * EPS * bd.lsum ? ST(GJK_TOUCHING) : 0;
    allowed |= ref > 0 ? ST(GJK_SEPARATED) : ref < 0 ? ST(GJK_PENETRATING) : 0;
    gjk2_intersect_output in = gjk2_intersect(q);
    gjk2_distance_output di = gjk2_distance(q, NULL);
    gjk2_penetration_output pe = gjk2_penetration(q, NULL);
    // A query whose walk visits the far vertex, beyond the largest
    // coordinate a query accepts, refuses; any other answers right.
    const double point_max = ldexp(1, GJK_USE_FLOAT ? 62 : 510);
    const gjk_status st[3] = {in.status, di.status, pe.status};
    for (int k = 0; k < 3; ++k) {
        if (st[k] == GJK_INVALID_INPUT) {
            ENSURE(size > point_max);
        } else {
            ENSURE(status_is_answer(st[k]) && (allowed & ST(st[k])));
        }
    }
    ENSURE(pen_finite(&pe) && dist_finite(&di));
    if (pe.status != GJK_INVALID_INPUT) {
        check_penetration_answer(&A, &B, origin, &pe, ref, TOL(size), TOL(size), size);
    }
    case_end();
}

/// The 2D form of fuzz finding f23: B at the largest finite coordinates. The
/// first direction of the walk and of the cast was B's position, which
/// overflowed when turned into B's frame; every direction a support function
/// is handed must be finite and nonzero, and each query answer with a status.
static void test_far_pose_support_directions(void) {
    gjk2_shape box = gjk2_make_box(V2(1, 1));
    direction_log log = {&box, 0, 0};
    gjk2_shape custom = gjk2_with_margin(gjk2_make_custom(logged_support, &log, (gjk_real)1.5), (gjk_real)0.5);
    gjk2_shape circle = gjk2_make_circle(1);
    const gjk_real big = GJK_REAL_MAX;
    const gjk_vec2 far[3] = {gjk_v2(big, big), gjk_v2(-big, (gjk_real)0.5), gjk_v2((gjk_real)1e30, -big)};
    for (int k = 0; k < 3; ++k) {
        char label[80];
        snprintf(label, sizeof label, "2D custom shape at the largest coordinates, pose %d", k);
        case_begin(label);
        gjk2_query_input in = query(&circle, gjk_transform2_make(V2(-2.5, -2.2), 0), &custom,
                                    gjk_transform2_make(far[k], (gjk_real)2.2));
        log.calls = log.bad = 0;
        gjk2_simplex_cache cache = {0};
        gjk_status st[5];
        st[0] = gjk2_intersect(&in).status;
        st[1] = gjk2_distance(&in, &cache).status;
        st[2] = gjk2_distance(&in, NULL).status;
        st[3] = gjk2_penetration(&in, NULL).status;
        gjk2_shapecast_input sc;
        memset(&sc, 0, sizeof sc);
        sc.shape_a = &circle, sc.transform_a = in.transform_a, sc.shape_b = &custom, sc.transform_b = in.transform_b;
        sc.translation_b = V2(0.25, -5.5);
        st[4] = gjk2_shapecast(&sc).status;
        ENSURE(log.calls > 0);
        ENSURE(log.bad == 0);
        for (int i = 0; i < 5; ++i) {
            ENSURE(st[i] == GJK_SEPARATED || st[i] == GJK_MISS || st[i] == GJK_INVALID_INPUT);
        }
        case_end();
    }
}

static void test_epa_edge_length_huge_and_tiny(void) {
    static char label[200];
    gjk2_shape point = gjk2_make_point();
    // f10: one vertex at (−5.5, 4.4e194) (double only: beyond float's range).
    if (!GJK_USE_FLOAT) {
        gjk_vec2 v[21] = {V2(-5.5, -5.5), V2(-5.5, -5.5), V2(-5.5, -5.5), V2(-5.5, -5.5), V2(-5.5, -5.5), V2(-5.5, -5.5),
                          V2(-5.5, -4.125), V2(1e-15, -5.5), V2(-5.5, -5.5), V2(-5.5, -5.5), V2(-5.5, 4.3856460474588789e+194),
                          V2(0, 10), V2(-3, 0), V2(0, 0), V2(-0.375, -5.5), V2(-1, 0), V2(-5.5, 0), V2(1, 2), V2(-1, 0.5),
                          V2(0, 0), V2(0, 0)};
        gjk2_shape a = gjk2_make_polygon(v, 21);
        gjk2_query_input in = query(&a, gjk_transform2_identity(), &point, gjk_transform2_identity());
        check_huge_answer("f10 polygon (vertex at 4.4e194) around a point", &in, 4.4e194);
    }
    // A quadrilateral with one far vertex at y = GJK_REAL_MAX^f around a
    // point; as a polygon and as a custom shape.
    const double fs[] = {0.45, 0.55, 0.632, 0.8, 0.95};
    for (int fi = 0; fi < 5; ++fi) {
        double far = pow((double)GJK_REAL_MAX, fs[fi]);
        gjk_vec2 v[4] = {V2(-5.5, -5.5), V2(1e-15, -5.5), V2(1, 2), V2(-0.625, far)};
        gjk2_shape poly = gjk2_make_polygon(v, 4);
        for (int custom = 0; custom < 2; ++custom) {
            direction_log log = {&poly, 0, 0};
            gjk2_shape shape = custom ? gjk2_make_custom(logged_support, &log, 0) : poly;
            gjk2_query_input in = query(&shape, gjk_transform2_identity(), &point, pose2(d2_make(-1, 0.5), 0));
            snprintf(label, sizeof label, "%s with a vertex at %.3g around a point", custom ? "custom quadrilateral" : "quadrilateral", far);
            if (custom) {
                // The reference reads the vertices: check the polygon's answer
                // against the custom shape's.
                gjk2_penetration_output pc = gjk2_penetration(&in, NULL);
                gjk2_query_input ip = query(&poly, gjk_transform2_identity(), &point, pose2(d2_make(-1, 0.5), 0));
                gjk2_penetration_output pp = gjk2_penetration(&ip, NULL);
                gjk2_intersect(&in);
                gjk2_distance(&in, NULL);
                case_begin(label);
                ENSURE(log.calls > 0);
                ENSURE(log.bad == 0);
                ENSURE(pc.status == pp.status);
                if (pc.status != GJK_INVALID_INPUT) {
                    ENSURE_NEAR(d2_len(d2_of(pc.normal)), 1, fmax(TEST_REL_TOL, 4 * EPS));
                    ENSURE_NEAR((double)pc.signed_distance, (double)pp.signed_distance, TOL(far));
                }
                case_end();
            } else {
                check_huge_answer(label, &in, far);
            }
        }
    }
    // Tiny boxes (half extent (smallest normal number)^f, edges whose squares are
    // subnormal or zero): a ray from inside and a point inside, 0.2·s from
    // the right side.
    const double ts[] = {0.5};
    for (int ti = 0; ti < 1; ++ti) {
        double sz = pow(GJK_USE_FLOAT ? (double)FLT_MIN : DBL_MIN, ts[ti]);
        gjk2_shape box = gjk2_make_box(V2(sz, sz));
        gjk2_raycast_input ray;
        memset(&ray, 0, sizeof ray);
        ray.shape = &box;
        ray.transform = gjk_transform2_identity();
        ray.origin = V2(0.8 * sz, 0.1 * sz);
        ray.direction = V2(1, 0.2);
        ray.max_t = 1;
        gjk2_cast_output o = gjk2_raycast(&ray);
        gjk2_query_input in = query(&box, gjk_transform2_identity(), &point, pose2(d2_make(0.8 * sz, 0.1 * sz), 0));
        gjk2_penetration_output pe = gjk2_penetration(&in, NULL);
        snprintf(label, sizeof label, "box of half extent %.3g, ray and point from inside", sz);
        case_begin(label);
        ENSURE(o.status == GJK_INITIALLY_OVERLAPPING);
        ENSURE_NEAR(d2_len(d2_of(o.normal)), 1, fmax(TEST_REL_TOL, 4 * EPS));
        ENSURE(pe.status == GJK_PENETRATING);
        ENSURE_NEAR(d2_len(d2_of(pe.normal)), 1, fmax(TEST_REL_TOL, 4 * EPS));
        ENSURE_NEAR((double)pe.normal.x, 1, fmax(TEST_REL_TOL, 4 * EPS));
        ENSURE_NEAR((double)pe.depth / sz, 0.2, TEST_REL_TOL);
        case_end();
    }
}

// ---------------------------------------------------------------------------
// gjk2_minkowski_sum rejecting a hull that gjk2_convex_hull returns (fuzz
// finding f13): the sum documents its inputs as convex polygons "as
// gjk2_convex_hull returns them", but validated them with
// gjk2_polygon_convexity, which calls an area below 4ε·n·scale² a
// rounding-level zero, while the hull keeps every computed left turn: the
// hull of (0, 0), (1, 0), (0.5, 1e-17) was rejected. Checks: f13's hulls
// and hulls of random thin point clouds (offsets 1e-18 to 1e-10 of their
// length off a random line), each summed with a thin and an ordinary hull:
// the sum answers, each of its vertices is a sum of input vertices, and it
// contains every such sum within rounding.

/// Checks the sum `s` (count k) of hulls p (n) and q (m).
static void check_sum(const char *label, const gjk_vec2 *p, int n, const gjk_vec2 *q, int m, const gjk_vec2 *s, int k) {
    case_begin(label);
    if (!(k >= 1 && k <= n + m)) { fprintf(stderr, "DBG k %d n %d m %d\n", k, n, m); for (int i = 0; i < n; ++i) fprintf(stderr, "  p %a %a\n", (double)p[i].x, (double)p[i].y); for (int i = 0; i < m; ++i) fprintf(stderr, "  q %a %a\n", (double)q[i].x, (double)q[i].y); }
    ENSURE(k >= 1 && k <= n + m);
    double scale = 0, edge = 0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j) scale = fmax(scale, d2_max_abs(d2_add(d2_of(p[i]), d2_of(q[j]))));
    for (int i = 0; i < n; ++i) edge = fmax(edge, d2_len(d2_sub(d2_of(p[(i + 1) % n]), d2_of(p[i]))));
    for (int j = 0; j < m; ++j) edge = fmax(edge, d2_len(d2_sub(d2_of(q[(j + 1) % m]), d2_of(q[j]))));
    for (int v = 0; v < k; ++v) {
        int found = 0;
        for (int i = 0; i < n && !found; ++i)
            for (int j = 0; j < m && !found; ++j) found = s[v].x == p[i].x + q[j].x && s[v].y == p[i].y + q[j].y;
        ENSURE(found);
    }
    // Containment: every p_i + q_j lies left of (or within rounding of) each
    // edge. Rounding: the test's cross products (ε·|e|·scale), and the
    // merge's order of two edges whose cross product is a rounding-level
    // zero (ε·|e_p|·|e_q|), which moves a vertex off the true hull by that
    // area over the edge length.
    for (int v = 0; k >= 3 && v < k; ++v) {
        d2 a = d2_of(s[v]), e = d2_sub(d2_of(s[(v + 1) % k]), a);
        double worst = INFINITY;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < m; ++j) worst = fmin(worst, d2_cross(e, d2_sub(d2_add(d2_of(p[i]), d2_of(q[j])), a)));
        ENSURE(worst >= -16 * EPS * (d2_len(e) * scale + edge * edge));
    }
    case_end();
}

static void test_minkowski_sum_accepts_thin_hulls(void) {
    static char label[160];
    gjk_vec2 out[64], ha[32], hb[32], hc[32], pts[32];
    // f13's triangles.
    const double t = GJK_USE_FLOAT ? 1e-8 : 1e-24;
    gjk_vec2 a[3] = {V2(-2.7609863281249997 * t, -2.7609863281249997 * t), V2(-2.7609863281249997 * t, 0.11401367187499998 * t),
                     V2(-3.5625, -2.7609863281249997 * t)};
    gjk_vec2 b[3] = {V2(-2.7609863281249997 * t, -5.5), V2(-5.5, -5.5), V2(-5.5, -5.4375)};
    gjk_vec2 thin[3] = {V2(0, 0), V2(1, 0), V2(0.5, GJK_USE_FLOAT ? 1e-9 : 1e-17)};
    int na = gjk2_convex_hull(a, 3, ha), nb = gjk2_convex_hull(b, 3, hb), nt = gjk2_convex_hull(thin, 3, hc);
    case_begin("f13 hulls");
    ENSURE(na == 3 && nb == 3 && nt == 3);
    case_end();
    check_sum("f13: hull a + hull b", ha, na, hb, nb, out, gjk2_minkowski_sum(ha, na, hb, nb, out));
    check_sum("f13: thin triangle + hull b", hc, nt, hb, nb, out, gjk2_minkowski_sum(hc, nt, hb, nb, out));
    check_sum("f13: hull b + thin triangle", hb, nb, hc, nt, out, gjk2_minkowski_sum(hb, nb, hc, nt, out));
    rng r = {0xf13ULL};
    for (int c = 0; c < 300 * REG_RANDOM_SCALE; ++c) {
        // A thin cloud along a random line through a random point.
        d2 u = random_dir(&r), o = d2_make(rng_range(&r, -5, 5), rng_range(&r, -5, 5));
        double len = rng_range(&r, 0.1, 10), thick = len * pow(10, -rng_range(&r, GJK_USE_FLOAT ? 6 : 10, GJK_USE_FLOAT ? 9 : 18));
        int n = 3 + rng_int(&r, 10);
        for (int i = 0; i < n; ++i) {
            d2 x = d2_add(o, d2_add(d2_scale(rng_range(&r, 0, len), u), d2_scale(rng_range(&r, -thick, thick), d2_make(-u.y, u.x))));
            pts[i] = to_real2(x);
        }
        int h1 = gjk2_convex_hull(pts, n, ha);
        // Another: thin as well, or an ordinary random polygon's hull.
        int m = 3 + rng_int(&r, 10);
        bool thin2 = rng_chance(&r, 0.5);
        d2 u2 = random_dir(&r);
        for (int i = 0; i < m; ++i) {
            d2 x = thin2 ? d2_add(d2_scale(rng_range(&r, -1, 1), u2), d2_scale(rng_range(&r, -thick, thick), d2_make(-u2.y, u2.x)))
                         : d2_make(rng_range(&r, -1, 1), rng_range(&r, -1, 1));
            pts[i] = to_real2(x);
        }
        int h2 = gjk2_convex_hull(pts, m, hb);
        snprintf(label, sizeof label, "thin hull (%d vertices, thickness %.2g) + %s hull (%d vertices), case %d", h1, thick,
                 thin2 ? "thin" : "ordinary", h2, c);
        check_sum(label, ha, h1, hb, h2, out, gjk2_minkowski_sum(ha, h1, hb, h2, out));
    }
}

// Two segments (capsules of radius 0) 1e-8 apart, one twice as long as the
// other, at 16 from the origin (test_2d differential pair 21536): the
// closed form's normal was the direction of the difference of the closest
// points, whose rounding (ε·|coordinates|) over the 1e-8 gap tilted it by
// 1e-8 rad, so the shapes' separation along it missed the distance by
// 1.5e-8. The normal is now the long segment's perpendicular.
static void test_segments_1e8_apart_normal_is_perpendicular(void) {
#if GJK_USE_FLOAT
    // The inputs rounded to float are another configuration; the float
    // gap would be below the tolerance.
    return;
#else
    gjk2_shape a = gjk2_make_capsule(gjk_v2((gjk_real)-0.21618092594311356, (gjk_real)0.053961668953050199),
                                     gjk_v2((gjk_real)0.084614581898588948, (gjk_real)-0.074030567963229196), 0);
    gjk2_shape b = gjk2_make_capsule(gjk_v2((gjk_real)-1.2624139881145946, (gjk_real)1.9904126049775628),
                                     gjk_v2((gjk_real)-0.52123866861579427, (gjk_real)0.13278893488466714), 0);
    gjk2_query_input q;
    memset(&q, 0, sizeof q);
    q.shape_a = &a;
    q.shape_b = &b;
    q.transform_a.position = gjk_v2((gjk_real)-11.623165254781483, (gjk_real)-11.208841858656905);
    q.transform_a.rotation.c = (gjk_real)0.35919291195325692;
    q.transform_a.rotation.s = (gjk_real)-0.93326333475741985;
    q.transform_b.position = gjk_v2((gjk_real)-12.388710092587658, (gjk_real)-12.264158417843586);
    q.transform_b.rotation = q.transform_a.rotation;
    gjk2_penetration_output o = gjk2_penetration(&q, NULL);
    ENSURE(o.status == GJK_SEPARATED || o.status == GJK_TOUCHING);
    // The separation along the normal, from the world vertices in double:
    // min over B of n·b − max over A of n·a.
    drot ra = drot_of(q.transform_a.rotation), rb = drot_of(q.transform_b.rotation);
    d2 n = d2_of(o.normal);
    double max_a = -INFINITY, min_b = INFINITY;
    const gjk_vec2 va[2] = {a.capsule.a, a.capsule.b}, vb[2] = {b.capsule.a, b.capsule.b};
    for (int i = 0; i < 2; ++i) {
        max_a = fmax(max_a, d2_dot(n, d2_add(drot_apply(ra, d2_of(va[i])), d2_of(q.transform_a.position))));
        min_b = fmin(min_b, d2_dot(n, d2_add(drot_apply(rb, d2_of(vb[i])), d2_of(q.transform_b.position))));
    }
    double sd = exact_sd(&q);
    ENSURE_NEAR(sd, 1.00001334344e-08, 1e-15);
    // The separation along the normal is the distance (the shapes' size is 1).
    ENSURE_NEAR(min_b - max_a, (double)o.signed_distance, 1e-10);
    ENSURE_NEAR(o.signed_distance, sd, 1e-10);
#endif
}

/// Review finding: the 2D closed form (capsules, segments, circles) at the
/// ends of the range. Its squared lengths and their reciprocals left the
/// normal range: two capsules overlapping by 0.05 sizes came out separated
/// by 0.52 at 2^-513 and 2^-520, and at 2^511; a pair 0.3 apart came out
/// 0.66 apart with a tilted normal. It now solves on the points scaled near
/// 1. Checks, for capsule pairs overlapping and apart and a circle against
/// a capsule, at a rotation and away from the origin: the status, the
/// signed distance, the normal and (apart) the witness points, at every size
/// whose points the queries accept.
static void test_closed_form_at_the_ends(void) {
    static char label[120];
#if GJK_USE_FLOAT
    const int exps[] = {-60, -40, -33, -20, 0, 20, 40, 59};
#else
    const int exps[] = {-520, -513, -480, -300, -255, 0, 255, 300, 480, 507};
#endif
    const int nexp = (int)(sizeof exps / sizeof exps[0]);
    const double angle = 0.7;
    const drot rot = drot_of(gjk_rot2_make(to_real(angle)));
    for (int k = 0; k < nexp; ++k) {
        double sc = ldexp(1, exps[k]);
        for (int c = 0; c < 3; ++c) {
            // A: a capsule along x; B: a capsule along y from 0.15 (c = 0,
            // overlapping by 0.05) or 0.5 above it (c = 1, 0.3 apart), or a
            // circle 0.5 above it (c = 2, 0.3 apart); radii 0.1.
            gjk2_shape a = gjk2_make_capsule(V2(-sc, 0), V2(sc, 0), to_real(0.1 * sc));
            double y0 = c == 0 ? 0.15 : 0.5;
            gjk2_shape b = c == 2 ? gjk2_make_circle(to_real(0.1 * sc))
                                  : gjk2_make_capsule(V2(0, 0), V2(0, 1.85 * sc), to_real(0.1 * sc));
            d2 pa = d2_make(0.25 * sc, -0.5 * sc);
            d2 pb = d2_add(pa, drot_apply(rot, d2_make(0.3 * sc, y0 * sc)));
            gjk2_query_input in = query(&a, pose2(pa, angle), &b, pose2(pb, angle));
            gjk2_penetration_output pe = gjk2_penetration(&in, NULL);
            gjk2_distance_output di = gjk2_distance(&in, NULL);
            gjk2_intersect_output ii = gjk2_intersect(&in);
            snprintf(label, sizeof label, "%s at size 2^%d", c == 0 ? "capsules overlapping" : c == 1 ? "capsules apart" : "circle and capsule apart", exps[k]);
            case_begin(label);
            gjk_status want = c == 0 ? GJK_PENETRATING : GJK_SEPARATED;
            ENSURE(pe.status == want && di.status == want && ii.status == want);
            double sd = c == 0 ? -0.05 : 0.3;
            ENSURE_NEAR((double)pe.signed_distance / sc, sd, TOL(4));
            ENSURE_NEAR((double)di.distance / sc, fmax(sd, 0), TOL(4));
            d2 n = drot_apply(rot, d2_make(0, 1));
            ENSURE(d2_len(d2_sub(d2_of(pe.normal), n)) <= 1e3 * TOL(1));
            if (c != 0) {
                d2 foot = d2_add(pa, drot_apply(rot, d2_make(0.3 * sc, 0)));
                ENSURE(d2_len(d2_sub(d2_of(di.point_a), d2_add(foot, d2_scale(0.1 * sc, n)))) <= TOL(8) * sc);
                ENSURE(d2_len(d2_sub(d2_of(di.point_b), d2_add(foot, d2_scale(0.4 * sc, n)))) <= TOL(8) * sc);
            }
            case_end();
        }
    }
}

/// The 2D form of a review finding in 3D (test_regression.c's
/// test_flat_tiny_polytope_normal): a flat rhombus of thickness 2·2^-520
/// (2^-60 in float) and width 2, and a point inside. In 3D, EPA scaled D's
/// points by the exponent of the tiny points seen so far and overflowed on
/// the unit points met later; 2D's walk meets a unit point before EPA
/// starts, and this never failed. Checks: the answer's signed distance is
/// realised along its unit normal within the tolerance.
static void test_flat_tiny_polygon_normal(void) {
#if GJK_USE_FLOAT
    const double t = 0x1p-60;
#else
    const double t = 0x1p-520;
#endif
    const gjk_vec2 v[4] = {V2(t, 0), V2(0, 1), V2(-t, 0), V2(0, -1)};
    const d2 points[3] = {d2_make(0, 0), d2_make(0.5 * t, 0), d2_make(-0.25 * t, 0.1 * t)};
    gjk2_shape a = gjk2_make_polygon(v, 4);
    for (int m = 0; m < 2; ++m) {
        gjk2_shape b = m ? gjk2_with_margin(gjk2_make_point(), to_real(t)) : gjk2_make_point();
        for (int k = 0; k < 3; ++k) {
            char label[80];
            snprintf(label, sizeof label, "flat rhombus and point %d%s", k, m ? " with a margin" : "");
            gjk2_query_input in = query(&a, pose2(d2_make(0, 0), 0), &b, pose2(points[k], 0));
            gjk2_penetration_output pe = gjk2_penetration(&in, NULL);
            case_begin(label);
            ENSURE(pe.status == GJK_TOUCHING || pe.status == GJK_PENETRATING);
            ENSURE_NEAR(vlen2(pe.normal), 1, 4 * EPS);
            d2 n = d2_of(pe.normal);
            double h = -INFINITY;
            for (int i = 0; i < 4; ++i) {
                h = fmax(h, d2_dot(d2_of(v[i]), n));
            }
            double overlap = h - d2_dot(points[k], n) + (m ? t : 0);
            ENSURE_NEAR(-overlap, (double)pe.signed_distance, TOL(2));
            case_end();
        }
    }
}

/// The ends of the number range: configurations checked at size 1 against
/// the exact reference, scaled by powers of two up to where D's points stay
/// within 2^510 (2^62 in float), the largest coordinate a query accepts (they
/// reach 4.1 sizes here), and down to where the walk's squared lengths are
/// still normal: the same statuses and the signed distances and normals of
/// size 1, scaled. The solvers' lengths and areas are squares of the
/// coordinates; above √GJK_REAL_MAX they overflowed and two overlapping
/// boxes of size 2^510 came out separated by 1.08 sizes. Beyond the top each
/// query says GJK_INVALID_INPUT or still answers right (a penetration at
/// 2^512 came out touching).
static void test_scale_ends(void) {
    static char label[160];
#if GJK_USE_FLOAT
    const int exps[] = {-50, 50, 58, 59, 61, 62, 63, 64, 70, 100, 126};
    const int nin = 4; // exps[nin..] are beyond the top
#else
    const int exps[] = {-480, 480, 500, 507, 509, 510, 511, 512, 520, 700, 1020};
    const int nin = 4;
#endif
    const int nexp = (int)(sizeof exps / sizeof exps[0]);
    const gjk_vec2 ra = V2(1, 0.8), rb = V2(0.5, 0.4);
    const d2 centres[4] = {d2_make(1.2, 0.3), d2_make(0.5, -0.2), d2_make(2.1, 0.4), d2_make(-0.9, 1.1)};
    for (int kind = 0; kind < 2; ++kind) {
        for (int c = 0; c < 4; ++c) {
            gjk2_shape a = kind ? gjk2_make_ellipse(ra) : gjk2_make_box(ra);
            gjk2_shape b = kind ? gjk2_make_ellipse(rb) : gjk2_make_box(rb);
            gjk2_query_input in = query(&a, pose2(d2_make(0, 0), 0.3), &b, pose2(centres[c], 1.1));
            snprintf(label, sizeof label, "2D %s pair %d at size 1", kind ? "ellipse" : "box", c);
            results ref;
            if (kind == 0) {
                ref = check_pair(label, &in, exact_sd(&in), TOL(2), TOL(2));
            } else { // no vertex reference for ellipses: the three queries at size 1
                ref.in = gjk2_intersect(&in);
                ref.di = gjk2_distance(&in, NULL);
                ref.pe = gjk2_penetration(&in, NULL);
                case_begin(label);
                ENSURE(ref.pe.status == (c < 2 ? GJK_PENETRATING : GJK_SEPARATED));
                case_end();
            }
            for (int k = 0; k < nexp; ++k) {
                int e = exps[k];
                double sc = ldexp(1, e);
                gjk_vec2 sa = V2(sc * (double)ra.x, sc * (double)ra.y), sb = V2(sc * (double)rb.x, sc * (double)rb.y);
                gjk2_shape as = kind ? gjk2_make_ellipse(sa) : gjk2_make_box(sa);
                gjk2_shape bs = kind ? gjk2_make_ellipse(sb) : gjk2_make_box(sb);
                gjk2_query_input q = query(&as, pose2(d2_make(0, 0), 0.3), &bs, pose2(d2_scale(sc, centres[c]), 1.1));
                gjk2_intersect_output ii = gjk2_intersect(&q);
                gjk2_distance_output di = gjk2_distance(&q, NULL);
                gjk2_penetration_output pe = gjk2_penetration(&q, NULL);
                snprintf(label, sizeof label, "2D %s pair %d at size 2^%d", kind ? "ellipse" : "box", c, e);
                case_begin(label);
                bool beyond = k >= nin;
                ENSURE(ii.status == ref.in.status || (beyond && ii.status == GJK_INVALID_INPUT));
                ENSURE(di.status == ref.di.status || (beyond && di.status == GJK_INVALID_INPUT));
                ENSURE(pe.status == ref.pe.status || (beyond && pe.status == GJK_INVALID_INPUT));
                if (pe.status != GJK_INVALID_INPUT) {
                    ENSURE_NEAR((double)pe.signed_distance / sc, (double)ref.pe.signed_distance, TOL(2));
                    // (On ellipses the normal is good to √(2·R·tolerance), README "Tolerances".)
                    double n_tol = kind ? sqrt(16 * TOL(2)) : 1e3 * TOL(1);
                    ENSURE(d2_len(d2_sub(d2_of(pe.normal), d2_of(ref.pe.normal))) <= n_tol);
                }
                if (di.status != GJK_INVALID_INPUT) {
                    ENSURE_NEAR((double)di.distance / sc, (double)ref.di.distance, TOL(2));
                }
                case_end();
            }
        }
    }
}

/// Fuzz seed 949: a polygon whose points all lie on the line y = x, two of
/// them 4.7e-20 from the origin on either side, and a point 6 to the side
/// of one end: the walk's last triangle was a sliver whose sub-areas
/// cancelled in their sum, its short edge was taken as the answer, and
/// gjk2_distance said 6 with the normal (−1, 0) where the distance is 3√2.
static void test_collinear_polygon_sliver_simplex(void) {
    const gjk_vec2 v[8] = {gjk_v2((gjk_real)-2.6354980468749999e-20, (gjk_real)-2.6354980468749999e-20),
                           gjk_v2((gjk_real)2.0520019531249998e-20, (gjk_real)2.0520019531249998e-20),
                           gjk_v2((gjk_real)-5.5, (gjk_real)-5.5),
                           gjk_v2((gjk_real)-3.625, (gjk_real)-3.625),
                           gjk_v2(0, 0),
                           gjk_v2(0, 0),
                           gjk_v2(0, 0),
                           gjk_v2((gjk_real)-5.4375, (gjk_real)-5.4375)};
    gjk2_shape a = gjk2_make_polygon(v, 8), b = gjk2_make_point();
    gjk2_query_input in;
    memset(&in, 0, sizeof in);
    in.shape_a = &a;
    in.shape_b = &b;
    in.transform_a = gjk_transform2_make(gjk_v2((gjk_real)0.5, (gjk_real)-5.5), 0);
    in.transform_b = gjk_transform2_make(gjk_v2((gjk_real)-5.5, (gjk_real)-5.5), 0);
    const double exact = 3 * sqrt(2.0);
    gjk2_distance_output d = gjk2_distance(&in, NULL);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE_NEAR(d.distance, exact, 1e-6);
    ENSURE_NEAR(d.normal.x, -sqrt(0.5), 1e-6);
    ENSURE_NEAR(d.normal.y, sqrt(0.5), 1e-6);
    gjk2_penetration_output p = gjk2_penetration(&in, NULL);
    ENSURE_NEAR(p.signed_distance, exact, 1e-6);
    // The same in 3D (its walk kept the nearer simplex; its solver had the
    // same fault).
    gjk_vec3 v3[8];
    for (int k = 0; k < 8; ++k) {
        v3[k] = gjk_v3(v[k].x, v[k].y, 0);
    }
    gjk_shape a3 = gjk_make_polytope(v3, 8), b3 = gjk_make_point();
    gjk_query_input in3 = {&a3, gjk_transform_make(gjk_v3((gjk_real)0.5, (gjk_real)-5.5, 0), gjk_quat_identity()), &b3,
                           gjk_transform_make(gjk_v3((gjk_real)-5.5, (gjk_real)-5.5, 0), gjk_quat_identity()), {0}};
    ENSURE_NEAR(gjk_distance(&in3, NULL).distance, exact, 1e-6);
}

/// 2D review finding: a custom shape of radius 0 (its size unknown) has
/// its tolerance from the points of A − B seen alone, which near a vertex
/// are tiny while the rounding of B's pose in A's frame is not: a rounded
/// point 3.6e-9 from a custom 22-gon's vertex (float, band 4e-6) came out
/// PENETRATING from gjk2_distance and gjk2_intersect, and a point 5.7e-20
/// from a custom quadrilateral of size 1e-3 (double) SEPARATED, where the
/// same polygon as gjk2_make_polygon is touching. The frames' offset now
/// joins the scale of a pair with such a shape.
static const gjk_vec2 *review_poly;
static int review_count;
static gjk_vec2 review_support(const void *user, gjk_vec2 d) {
    (void)user;
    int best = 0;
    for (int i = 1; i < review_count; ++i) {
        if (gjk_dot2(review_poly[i], d) > gjk_dot2(review_poly[best], d)) {
            best = i;
        }
    }
    return review_poly[best];
}

static void test_custom_unknown_size_tolerance(void) {
    static const double v22[22][2] = {{-0.13690035045146942, -0.9905848503112793}, {0.5642516016960144, -0.82560288906097412}, {0.80896222591400146, -0.58786064386367798}, {0.81764501333236694, -0.57572269439697266}, {0.83465224504470825, -0.55077725648880005}, {0.9994664192199707, 0.032663572579622269}, {0.77752870321273804, 0.62884747982025146}, {0.6864505410194397, 0.7271764874458313}, {0.51478725671768188, 0.85731792449951172}, {0.32011762261390686, 0.94737780094146729}, {0.26082444190979004, 0.96538627147674561}, {0.031005056574940681, 0.9995192289352417}, {-0.32714399695396423, 0.94497448205947876}, {-0.40989816188812256, 0.91213130950927734}, {-0.51215147972106934, 0.85889512300491333}, {-0.51596963405609131, 0.85660690069198608}, {-0.58861249685287476, 0.80841529369354248}, {-0.69548380374908447, 0.71854174137115479}, {-0.732993483543396, 0.68023562431335449}, {-0.9859306812286377, -0.16715484857559204}, {-0.89232158660888672, -0.4514002799987793}, {-0.24961462616920471, -0.9683452844619751}};
    static const double v4[4][2] = {{-0.00031195257712670385, -0.00095009767372834244}, {0.00093535940665595086, -0.00035369871413425797}, {-0.00041307216423264301, 0.00091069829643859583}, {-0.00057199881713572854, -0.00082025444417895563}};
    gjk_vec2 p22[22], p4[4];
    for (int i = 0; i < 22; ++i) {
        p22[i] = V2(v22[i][0], v22[i][1]);
    }
    for (int i = 0; i < 4; ++i) {
        p4[i] = V2(v4[i][0], v4[i][1]);
    }
    for (int c = 0; c < 2; ++c) {
        review_poly = c == 0 ? p22 : p4;
        review_count = c == 0 ? 22 : 4;
        gjk2_shape custom = gjk2_make_custom(review_support, NULL, 0), poly = gjk2_make_polygon(review_poly, review_count);
        gjk2_shape point = c == 0 ? gjk2_with_margin(gjk2_make_point(), to_real(0.0013888359535485506)) : gjk2_make_point();
        gjk2_query_input in;
        memset(&in, 0, sizeof in);
        in.shape_b = &point;
        in.transform_a = c == 0 ? (gjk_transform2){V2(-0.11141949146986008, -0.1379510760307312), {to_real(0.91842275857925415), to_real(-0.39560034871101379)}}
                                : (gjk_transform2){V2(-0.00068921786103623558, 7.080602139089299e-05), {to_real(1.5711180714179596), to_real(-2.5556971662667527)}};
        in.transform_b = c == 0 ? (gjk_transform2){V2(0.80801272392272949, 0.25880798697471619), {to_real(0.99275094270706177), to_real(0.12018979340791702)}}
                                : (gjk_transform2){V2(-0.00050068010582195979, -0.00091125992082417124), {to_real(0.1560738949035762), to_real(0.98774538183158689)}};
        gjk_status st[2][3];
        for (int k = 0; k < 2; ++k) {
            in.shape_a = k == 0 ? &custom : &poly;
            st[k][0] = gjk2_penetration(&in, NULL).status;
            st[k][1] = gjk2_distance(&in, NULL).status;
            st[k][2] = gjk2_intersect(&in).status;
        }
        case_begin(c == 0 ? "a rounded point at a custom 22-gon's vertex: the polygon's statuses"
                          : "a point at a custom quadrilateral's vertex: the polygon's statuses");
        for (int q = 0; q < 3; ++q) {
            // (Each case is touching in the precision it was found in: the
            // 22-gon's gap of 3.6e-9 lies beyond double's band.)
            ENSURE(c != (GJK_USE_FLOAT ? 0 : 1) || st[1][q] == GJK_TOUCHING);
            ENSURE(st[0][q] == st[1][q]);
        }
        case_end();
    }
}

int main(void) {
    RUN_TEST(test_collinear_polygon_sliver_simplex);
    RUN_TEST(test_reference_selfcheck);
    RUN_TEST(test_stacked_boxes_overlap_0_1_nan_normal);
    RUN_TEST(test_boxes_touching_edge_vertex_1e9);
    RUN_TEST(test_big_box_small_box_contact_off_surface);
    RUN_TEST(test_long_triangle_box_contact_far_away);
    RUN_TEST(test_far_from_origin_1e5_1e6);
    RUN_TEST(test_coincident_identical_shapes);
    RUN_TEST(test_duplicate_collinear_points);
    RUN_TEST(test_tiny_and_huge_sizes);
    RUN_TEST(test_iteration_cap_no_nan);
    RUN_TEST(test_near_touching_boxes_status_agree);
    RUN_TEST(test_box_sliding_1e6_gap_shapecast_zero_normal);
    RUN_TEST(test_warm_touching_subnormal_normal_into_a);
    RUN_TEST(test_epa_edge_length_huge_and_tiny);
    RUN_TEST(test_minkowski_sum_accepts_thin_hulls);
    RUN_TEST(test_segments_1e8_apart_normal_is_perpendicular);
    RUN_TEST(test_far_pose_support_directions);
    RUN_TEST(test_scale_ends);
    RUN_TEST(test_flat_tiny_polygon_normal);
    RUN_TEST(test_closed_form_at_the_ends);
    RUN_TEST(test_boxes_by_separating_axes);
    RUN_TEST(test_custom_unknown_size_tolerance);
    return TEST_SUMMARY();
}
