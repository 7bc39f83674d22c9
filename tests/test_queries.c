// Tests of the queries gjk_intersect, gjk_distance and gjk_penetration
// against analytic answers, plus their result contract (statuses, witness
// points, normals, finiteness, invalid input), warm starting and options.
//
// Conventions checked (gjk.h): the normal is a unit vector from A to B. Apart:
// point_b - point_a = distance * normal. Overlapping: point_a is the deepest
// point of A (inside B), point_b that of B, point_a - point_b = depth *
// normal, and translating B by depth * normal makes the shapes touch.
#include <math.h>
#include <string.h>

#define TEST_XORSHIFT64_SEED 0x853C49E6748FEA9Bull
#include "test_util.h"
#include "gjk/hull.h"

/// Absolute tolerance for shapes and distances of size `size`.
#define TOL(size) ((double)TEST_REL_TOL * (double)(size))

/// Witness points at a contact on a curved surface. GJK and EPA stop when
/// the distance is known within the tolerance; sliding a contact point by d
/// along a surface of curvature radius R changes the distance only by about
/// d^2 / (2 R), so a distance accurate to e pins the point only to
/// sqrt(2 R e) and the normal to sqrt(2 e / R). (Vertices, flat faces and
/// the point cores of spheres and capsules have no such slack and are
/// checked with TOL.)
#define CURVED_TOL(radius, size) sqrt(2.0 * (double)(radius) * TOL(size))
#define CURVED_NORMAL_TOL(radius, size) sqrt(2.0 * TOL(size) / (double)(radius))

static const double PI = 3.14159265358979323846;
static const double SQRT2 = 1.41421356237309504880;
static const double SQRT3 = 1.73205080756887729353;

// ---- deterministic random numbers (xorshift64, seeded above): test_util.h ----

// ---- small helpers ----

static gjk_vec3 V(double x, double y, double z) { return gjk_v3((gjk_real)x, (gjk_real)y, (gjk_real)z); }

static gjk_transform pose(gjk_vec3 p, gjk_quat q) { return gjk_transform_make(p, q); }

static gjk_transform at(double x, double y, double z) { return gjk_transform_make(V(x, y, z), gjk_quat_identity()); }

static gjk_quat axis_angle(double ax, double ay, double az, double angle) {
    return gjk_quat_from_axis_angle(gjk_normalize(V(ax, ay, az)), (gjk_real)angle);
}

static const gjk_vec3 EX = {1, 0, 0}, EY = {0, 1, 0}, EZ = {0, 0, 1};

static double comp(gjk_vec3 v, int k) { return k == 0 ? (double)v.x : k == 1 ? (double)v.y : (double)v.z; }

static gjk_vec3 axis(int k, double s) { return k == 0 ? V(s, 0, 0) : k == 1 ? V(0, s, 0) : V(0, 0, s); }

static bool is_zero_vec(gjk_vec3 v) { return v.x == 0 && v.y == 0 && v.z == 0; }

/// lo - tol <= x <= hi + tol.
#define ENSURE_IN_RANGE(x, lo, hi, tol) \
    do {                                \
        ENSURE((double)(x) >= (double)(lo) - (double)(tol)); \
        ENSURE((double)(x) <= (double)(hi) + (double)(tol)); \
    } while (0)

// Failure context (case_begin/case_end): test_util.h.

// ---- running queries ----

static gjk_query_input query(const gjk_shape *a, gjk_transform ta, const gjk_shape *b, gjk_transform tb) {
    gjk_query_input q;
    memset(&q, 0, sizeof q);
    q.shape_a = a;
    q.transform_a = ta;
    q.shape_b = b;
    q.transform_b = tb;
    return q;
}

typedef struct results {
    gjk_intersect_output in;
    gjk_distance_output di;
    gjk_penetration_output pe;
} results;

static results run_all(const gjk_query_input *q) {
    results r;
    r.in = gjk_intersect(q);
    r.di = gjk_distance(q, NULL);
    r.pe = gjk_penetration(q, NULL);
    return r;
}

/// Every output number finite, iteration counts within the caps.
static void check_finite(const results *r, const gjk_options *o) {
    int max_it = o->max_iterations > 0 ? o->max_iterations : GJK_DEFAULT_MAX_ITERATIONS;
    int max_epa = o->max_epa_iterations > 0 ? o->max_epa_iterations : GJK_DEFAULT_MAX_EPA_ITERATIONS;
    ENSURE(r->in.iterations >= 0 && r->in.iterations <= max_it);
    ENSURE(gjk_is_valid_real(r->di.distance));
    ENSURE(gjk_is_valid_vec3(r->di.point_a));
    ENSURE(gjk_is_valid_vec3(r->di.point_b));
    ENSURE(gjk_is_valid_vec3(r->di.normal));
    ENSURE(r->di.iterations >= 0 && r->di.iterations <= max_it);
    ENSURE(gjk_is_valid_real(r->pe.signed_distance));
    ENSURE(gjk_is_valid_real(r->pe.depth));
    ENSURE(gjk_is_valid_vec3(r->pe.point_a));
    ENSURE(gjk_is_valid_vec3(r->pe.point_b));
    ENSURE(gjk_is_valid_vec3(r->pe.normal));
    ENSURE(r->pe.iterations >= 0 && r->pe.iterations <= max_it);
    ENSURE(r->pe.epa_iterations >= 0 && r->pe.epa_iterations <= max_epa);
}

/// The contract of the outputs, independent of the expected answer.
/// `tol`: tolerance on lengths; `pt_tol`: on world points.
static void check_contract(const results *r, const gjk_options *o, double tol, double pt_tol) {
    check_finite(r, o);
    // Penetration output.
    const gjk_penetration_output *pe = &r->pe;
    ENSURE(status_is_answer(pe->status) || pe->status == GJK_NOT_CONVERGED);
    ENSURE_NEAR(gjk_length(pe->normal), 1, TEST_REL_TOL);
    ENSURE(pe->depth >= 0);
    if (pe->signed_distance > 0) {
        ENSURE(pe->depth == 0);
        ENSURE_VEC_NEAR(gjk_sub(pe->point_b, pe->point_a), gjk_scale(pe->signed_distance, pe->normal), pt_tol);
    } else {
        ENSURE_NEAR(pe->depth, -pe->signed_distance, tol);
        ENSURE_VEC_NEAR(gjk_sub(pe->point_a, pe->point_b), gjk_scale(pe->depth, pe->normal), pt_tol);
    }
    if (pe->status == GJK_SEPARATED) {
        ENSURE(pe->signed_distance > 0);
    } else if (pe->status == GJK_PENETRATING) {
        ENSURE(pe->signed_distance < 0);
    } else if (pe->status == GJK_TOUCHING) {
        ENSURE(gjk_abs(pe->signed_distance) <= tol);
    }
    // Distance output.
    const gjk_distance_output *di = &r->di;
    ENSURE(status_is_answer(di->status) || di->status == GJK_NOT_CONVERGED);
    ENSURE(di->distance >= 0);
    if (di->status == GJK_SEPARATED) {
        ENSURE(di->distance > 0);
        ENSURE_NEAR(gjk_length(di->normal), 1, TEST_REL_TOL);
        ENSURE_VEC_NEAR(gjk_sub(di->point_b, di->point_a), gjk_scale(di->distance, di->normal), pt_tol);
    } else if (di->status == GJK_PENETRATING) {
        // Distance 0, both points one point of the overlap, no direction.
        ENSURE(di->distance == 0);
        ENSURE_VEC_NEAR(di->point_a, di->point_b, pt_tol);
        // "zero when the shapes overlap or touch at a point where no direction
        // is known": rounded shapes whose cores are apart do know a direction.
        gjk_real nl = gjk_length(di->normal);
        ENSURE(nl <= TEST_REL_TOL || gjk_abs(nl - 1) <= TEST_REL_TOL);
    } else if (di->status == GJK_TOUCHING) {
        ENSURE(di->distance <= tol);
        ENSURE(gjk_distance_between(di->point_a, di->point_b) <= pt_tol);
        gjk_real nl = gjk_length(di->normal);
        ENSURE(nl <= TEST_REL_TOL || gjk_abs(nl - 1) <= TEST_REL_TOL);
    }
    // Intersect output.
    ENSURE(status_is_answer(r->in.status) || r->in.status == GJK_NOT_CONVERGED);
    if (status_is_answer(r->in.status)) {
        ENSURE(r->in.intersect == (r->in.status != GJK_SEPARATED));
    }
    // The three queries agree.
    if (status_is_answer(pe->status) && status_is_answer(di->status)) {
        ENSURE(pe->status == di->status);
        if (di->status == GJK_SEPARATED) {
            ENSURE_NEAR(di->distance, pe->signed_distance, tol);
            ENSURE_VEC_NEAR(di->normal, pe->normal, TEST_REL_TOL);
        }
    }
    if (status_is_answer(pe->status) && status_is_answer(r->in.status)) {
        ENSURE(pe->status == r->in.status);
    }
}

/// Runs the three queries on `q` and checks the contract and the expected
/// signed distance. `sd_tol`: tolerance on the signed distance; `pt_tol`:
/// on world points. An expected distance of exactly 0 means touching.
static results check_pair(const char *label, const gjk_query_input *q, double expected_sd, double sd_tol,
                          double pt_tol) {
    case_begin(label);
    results r = run_all(q);
    check_contract(&r, &q->options, sd_tol, pt_tol);
    if (expected_sd == 0) {
        ENSURE(r.in.status == GJK_TOUCHING);
        ENSURE(r.in.intersect);
        ENSURE(r.di.status == GJK_TOUCHING);
        ENSURE(r.pe.status == GJK_TOUCHING);
        ENSURE_NEAR(r.di.distance, 0, sd_tol);
        ENSURE_NEAR(r.pe.signed_distance, 0, sd_tol);
    } else if (expected_sd > 0) {
        ENSURE(r.in.status == GJK_SEPARATED);
        ENSURE(!r.in.intersect);
        ENSURE(r.di.status == GJK_SEPARATED);
        ENSURE(r.pe.status == GJK_SEPARATED);
        ENSURE_NEAR(r.di.distance, expected_sd, sd_tol);
        ENSURE_NEAR(r.pe.signed_distance, expected_sd, sd_tol);
        ENSURE(r.pe.depth == 0);
    } else {
        ENSURE(r.in.status == GJK_PENETRATING);
        ENSURE(r.in.intersect);
        ENSURE(r.di.status == GJK_PENETRATING);
        ENSURE(r.di.distance == 0);
        ENSURE(r.pe.status == GJK_PENETRATING);
        ENSURE_NEAR(r.pe.signed_distance, expected_sd, sd_tol);
        ENSURE_NEAR(r.pe.depth, -expected_sd, sd_tol);
    }
    // Moving B by -distance * normal (apart) or depth * normal (overlapping)
    // makes the shapes touch.
    if (expected_sd != 0 && (r.pe.status == GJK_SEPARATED || r.pe.status == GJK_PENETRATING)) {
        gjk_query_input moved = *q;
        gjk_real s = r.pe.status == GJK_SEPARATED ? -r.pe.signed_distance : r.pe.depth;
        moved.transform_b.position = gjk_mul_add(q->transform_b.position, s, r.pe.normal);
        gjk_penetration_output m = gjk_penetration(&moved, NULL);
        ENSURE(status_is_answer(m.status));
        ENSURE_NEAR(m.signed_distance, 0, pt_tol);
    }
    case_end();
    return r;
}

/// check_pair with the tolerances of shapes of size `size` near the origin.
static results check_near(const char *label, const gjk_query_input *q, double expected_sd, double size) {
    return check_pair(label, q, expected_sd, TOL(size), TOL(size));
}

// ---- reference geometry (written for these tests) ----

/// Closest point to p on segment a-b.
static gjk_vec3 closest_on_segment(gjk_vec3 p, gjk_vec3 a, gjk_vec3 b) {
    gjk_vec3 ab = gjk_sub(b, a);
    double l2 = (double)gjk_length_sq(ab);
    double t = l2 > 0 ? (double)gjk_dot(gjk_sub(p, a), ab) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return gjk_mul_add(a, (gjk_real)t, ab);
}

/// Distance between segments p0-p1 and q0-q1 with the closest points: the
/// minimum of |p(s) - q(t)| over the unit square is either at the interior
/// critical point (when it lies in the square) or on the square's boundary,
/// where one parameter is 0 or 1 and the problem is point-to-segment.
static double segment_segment(gjk_vec3 p0, gjk_vec3 p1, gjk_vec3 q0, gjk_vec3 q1, gjk_vec3 *cp, gjk_vec3 *cq) {
    double best = INFINITY;
    gjk_vec3 d1 = gjk_sub(p1, p0), d2 = gjk_sub(q1, q0), r = gjk_sub(p0, q0);
    double a = gjk_dot(d1, d1), e = gjk_dot(d2, d2), b = gjk_dot(d1, d2);
    double c = gjk_dot(d1, r), f = gjk_dot(d2, r);
    double den = a * e - b * b;
    // |r + s d1 - t d2|^2 is stationary where c + s a - t b = 0 and
    // f + s b - t e = 0: s = (b f - c e) / den, t = (a f - b c) / den.
    if (den > 1e-12 * a * e) {
        double s = (b * f - c * e) / den, t = (a * f - b * c) / den;
        if (s >= 0 && s <= 1 && t >= 0 && t <= 1) {
            gjk_vec3 x = gjk_mul_add(p0, (gjk_real)s, d1), y = gjk_mul_add(q0, (gjk_real)t, d2);
            best = gjk_distance_between(x, y);
            *cp = x;
            *cq = y;
        }
    }
    const gjk_vec3 ends[4] = {p0, p1, q0, q1};
    for (int i = 0; i < 4; ++i) {
        gjk_vec3 x, y;
        if (i < 2) {
            x = ends[i];
            y = closest_on_segment(x, q0, q1);
        } else {
            y = ends[i];
            x = closest_on_segment(y, p0, p1);
        }
        double dist = gjk_distance_between(x, y);
        if (dist < best) {
            best = dist;
            *cp = x;
            *cq = y;
        }
    }
    return best;
}

/// Signed distance from world point p to a box (negative inside), with the
/// closest boundary point and the outward unit direction from the box to p.
static double box_point(gjk_vec3 half, gjk_transform tb, gjk_vec3 p, gjk_vec3 *closest, gjk_vec3 *dir) {
    gjk_vec3 l = gjk_inv_transform_point(tb, p);
    gjk_vec3 c = gjk_v3(gjk_max(-half.x, gjk_min(half.x, l.x)), gjk_max(-half.y, gjk_min(half.y, l.y)),
                        gjk_max(-half.z, gjk_min(half.z, l.z)));
    bool outside = c.x != l.x || c.y != l.y || c.z != l.z;
    double sd;
    gjk_vec3 n;
    if (outside) {
        sd = gjk_distance_between(l, c);
        n = gjk_normalize(gjk_sub(l, c));
    } else {
        // Inside: the nearest face.
        double gaps[3] = {half.x - gjk_abs(l.x), half.y - gjk_abs(l.y), half.z - gjk_abs(l.z)};
        int k = gaps[0] <= gaps[1] && gaps[0] <= gaps[2] ? 0 : gaps[1] <= gaps[2] ? 1 : 2;
        double s = comp(l, k) < 0 ? -1 : 1;
        sd = -gaps[k];
        n = axis(k, s);
        if (k == 0) {
            c.x = (gjk_real)(s * half.x);
        } else if (k == 1) {
            c.y = (gjk_real)(s * half.y);
        } else {
            c.z = (gjk_real)(s * half.z);
        }
    }
    if (closest) {
        *closest = gjk_transform_point(tb, c);
    }
    if (dir) {
        *dir = gjk_quat_rotate(tb.rotation, n);
    }
    return sd;
}

/// An oriented box for the separating-axis reference.
typedef struct obb {
    gjk_vec3 c, ax[3];
    gjk_real h[3];
} obb;

static obb make_obb(gjk_vec3 half, gjk_transform t) {
    obb b;
    b.c = t.position;
    b.ax[0] = gjk_quat_rotate(t.rotation, EX);
    b.ax[1] = gjk_quat_rotate(t.rotation, EY);
    b.ax[2] = gjk_quat_rotate(t.rotation, EZ);
    b.h[0] = half.x;
    b.h[1] = half.y;
    b.h[2] = half.z;
    return b;
}

static double obb_extent(const obb *b, gjk_vec3 n) {
    return b->h[0] * gjk_abs(gjk_dot(n, b->ax[0])) + b->h[1] * gjk_abs(gjk_dot(n, b->ax[1])) +
           b->h[2] * gjk_abs(gjk_dot(n, b->ax[2]));
}

/// The separating-axis test of two boxes over their 15 candidate axes.
/// Returns the smallest overlap along those axes: > 0 means the boxes
/// overlap and it is then exactly the penetration depth (the minimum of the
/// Minkowski difference's support over directions is attained at one of its
/// face normals, and each is a box face normal or an edge-edge cross
/// product); < 0 means they are apart and minus it is a lower bound on the
/// distance (exact when the closest features are face-face or crossing
/// edges). `normal` gets the axis, oriented from a to b.
static double sat_boxes(const obb *a, const obb *b, gjk_vec3 *normal) {
    gjk_vec3 axes[15];
    int n = 0;
    for (int i = 0; i < 3; ++i) {
        axes[n++] = a->ax[i];
        axes[n++] = b->ax[i];
    }
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            axes[n++] = gjk_cross(a->ax[i], b->ax[j]);
        }
    }
    gjk_vec3 d = gjk_sub(b->c, a->c);
    double best = INFINITY;
    for (int i = 0; i < n; ++i) {
        gjk_real l = gjk_length(axes[i]);
        if (l < (gjk_real)1e-4) {
            continue; // parallel edges: no axis
        }
        gjk_vec3 u = gjk_scale(1 / l, axes[i]);
        double proj = gjk_dot(u, d);
        double overlap = obb_extent(a, u) + obb_extent(b, u) - fabs(proj);
        if (overlap < best) {
            best = overlap;
            if (normal) {
                *normal = proj >= 0 ? u : gjk_neg(u);
            }
        }
    }
    return best;
}

/// Signed distance of a segment (world end points) to a box, minimised over
/// the segment by golden-section search: the signed distance to a convex set
/// is a convex function, so its restriction to a segment is unimodal. Exact
/// when the segment does not enter the box; otherwise only its sign is
/// meaningful.
static double box_segment(gjk_vec3 half, gjk_transform tb, gjk_vec3 p0, gjk_vec3 p1) {
    double lo = 0, hi = 1;
    const double g = 0.61803398874989484820;
    gjk_vec3 d = gjk_sub(p1, p0);
    for (int i = 0; i < 200; ++i) {
        double m1 = hi - g * (hi - lo), m2 = lo + g * (hi - lo);
        double f1 = box_point(half, tb, gjk_mul_add(p0, (gjk_real)m1, d), NULL, NULL);
        double f2 = box_point(half, tb, gjk_mul_add(p0, (gjk_real)m2, d), NULL, NULL);
        if (f1 < f2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    double best = box_point(half, tb, gjk_mul_add(p0, (gjk_real)(0.5 * (lo + hi)), d), NULL, NULL);
    double e0 = box_point(half, tb, p0, NULL, NULL), e1 = box_point(half, tb, p1, NULL, NULL);
    return fmin(best, fmin(e0, e1));
}

// ---- tests of the references themselves ----

static void test_reference_helpers(void) {
    // Closed-form segment distance against fine brute-force sampling.
    for (int i = 0; i < 20; ++i) {
        gjk_vec3 p0 = rnd_vec(-1, 1), p1 = rnd_vec(-1, 1), q0 = rnd_vec(-1, 1), q1 = rnd_vec(-1, 1);
        if (i == 0) {
            q0 = gjk_add(p0, V(0, 0.5, 0)); // parallel
            q1 = gjk_add(p1, V(0, 0.5, 0));
        }
        gjk_vec3 cp, cq;
        double d = segment_segment(p0, p1, q0, q1, &cp, &cq);
        double brute = INFINITY;
        const int n = 400;
        for (int s = 0; s <= n; ++s) {
            gjk_vec3 x = gjk_mul_add(p0, (gjk_real)s / n, gjk_sub(p1, p0));
            for (int t = 0; t <= n; ++t) {
                gjk_vec3 y = gjk_mul_add(q0, (gjk_real)t / n, gjk_sub(q1, q0));
                brute = fmin(brute, gjk_distance_between(x, y));
            }
        }
        // Sampling at step 1/400 over segments shorter than 3.5 is off by at
        // most half a step along each segment: 2 * 3.5 / 800.
        ENSURE(d <= brute + TOL(4));
        ENSURE(brute - d <= 2 * 3.5 / 800 + TOL(4));
        ENSURE_NEAR(gjk_distance_between(cp, cq), d, TOL(4));
    }
    // Box point distance: outside a face, an edge, a corner; inside.
    gjk_vec3 half = V(1, 2, 3);
    gjk_transform t = at(0, 0, 0);
    ENSURE_NEAR(box_point(half, t, V(3, 0, 0), NULL, NULL), 2, TOL(4));
    ENSURE_NEAR(box_point(half, t, V(4, 6, 0), NULL, NULL), 5, TOL(4));
    ENSURE_NEAR(box_point(half, t, V(2, 4, 5), NULL, NULL), 3, TOL(4));
    ENSURE_NEAR(box_point(half, t, V(0.5, 0, 0), NULL, NULL), -0.5, TOL(4));
    ENSURE_NEAR(box_point(half, t, V(0, -1.5, 0.2), NULL, NULL), -0.5, TOL(4));
    // SAT: boxes overlapping by 0.25 along y.
    obb a = make_obb(V(1, 1, 1), at(0, 0, 0)), b = make_obb(V(1, 1, 1), at(0.1, 1.75, 0));
    gjk_vec3 n;
    ENSURE_NEAR(sat_boxes(&a, &b, &n), 0.25, TOL(4));
    ENSURE_VEC_NEAR(n, EY, TOL(1));
    // Segment-box: a segment over the box's top at height 1.
    ENSURE_NEAR(box_segment(half, t, V(-5, 0, 4), V(5, 1, 4)), 1, TOL(10));
}

// ---- sphere-sphere ----

/// Two spheres: expected signed distance |cb - ca| - ra - rb (computed in
/// double from the stored coordinates), witness points c + r n.
static void sphere_pair(const char *label, gjk_real ra, gjk_vec3 ca, gjk_quat qa, gjk_real rb, gjk_vec3 cb,
                        gjk_quat qb, double sd_tol, double pt_tol) {
    gjk_shape A = gjk_make_sphere(ra), B = gjk_make_sphere(rb);
    gjk_query_input q = query(&A, pose(ca, qa), &B, pose(cb, qb));
    double dx = (double)cb.x - ca.x, dy = (double)cb.y - ca.y, dz = (double)cb.z - ca.z;
    double dist = sqrt(dx * dx + dy * dy + dz * dz);
    double sd = dist - ra - rb;
    results r = check_pair(label, &q, sd, sd_tol, pt_tol);
    case_begin(label);
    gjk_vec3 n = dist > 0 ? V(dx / dist, dy / dist, dz / dist) : r.pe.normal;
    if (dist > 0) {
        ENSURE_VEC_NEAR(r.pe.normal, n, TEST_REL_TOL);
    }
    gjk_vec3 pa = gjk_mul_add(ca, ra, n), pb = gjk_mul_add(cb, -rb, n);
    ENSURE_VEC_NEAR(r.pe.point_a, pa, pt_tol);
    ENSURE_VEC_NEAR(r.pe.point_b, pb, pt_tol);
    if (r.di.status == GJK_SEPARATED) {
        ENSURE_VEC_NEAR(r.di.normal, n, TEST_REL_TOL);
        ENSURE_VEC_NEAR(r.di.point_a, pa, pt_tol);
        ENSURE_VEC_NEAR(r.di.point_b, pb, pt_tol);
    } else {
        // One point of the overlap: inside both spheres.
        ENSURE(gjk_distance_between(r.di.point_a, ca) <= ra + pt_tol);
        ENSURE(gjk_distance_between(r.di.point_a, cb) <= rb + pt_tol);
    }
    case_end();
}

static void test_sphere_sphere(void) {
    const gjk_quat id = gjk_quat_identity();
    // Apart: |(2, 4, 4)| = 6, distance 6 - 1.5 - 2 = 2.5 along (1, 2, 2)/3.
    sphere_pair("spheres apart", 1.5, V(0, 0, 0), id, 2, V(2, 4, 4), id, TOL(6), TOL(6));
    // Apart, rotated (rotations of spheres change nothing), off the origin.
    // |(-3, 0, 4)| = 5: distance 5 - 1 - 0.5 = 3.5.
    sphere_pair("spheres apart, rotated", 1, V(1, -2, 3), rnd_quat(), 0.5, V(-2, -2, 7), rnd_quat(), TOL(8), TOL(8));
    // Touching exactly: |(1, 2, 2)| = 3 = 1 + 2; and along an axis.
    sphere_pair("spheres touching", 1, V(0, 0, 0), id, 2, V(1, 2, 2), id, TOL(4), TOL(4));
    sphere_pair("spheres touching along z", 1, V(0, 0, 0), rnd_quat(), 2, V(0, 0, 3), rnd_quat(), TOL(4), TOL(4));
    // Overlapping: centres 3 apart along y, radii 2 and 1.5: depth 0.5.
    sphere_pair("spheres overlapping", 2, V(0, 0, 0), id, 1.5, V(0, 3, 0), id, TOL(4), TOL(4));
    sphere_pair("spheres overlapping, rotated", 2, V(0.5, 0.5, 0.5), rnd_quat(), 1.5, V(2.5, 4.5, 4.5), rnd_quat(),
                TOL(8), TOL(8));
    // One inside the other, off-centre: depth = ra + rb - dist = 3.5.
    sphere_pair("sphere inside sphere", 3, V(0, 0, 0), id, 1, V(0.3, -0.2, 0.1), id, TOL(4), TOL(4));
    for (int i = 0; i < 20; ++i) {
        gjk_vec3 ca = rnd_vec(-2, 2), cb = rnd_vec(-2, 2);
        sphere_pair("random spheres", rnd(0.1, 2), ca, rnd_quat(), rnd(0.1, 2), cb, rnd_quat(), TOL(8), TOL(8));
    }

    // Concentric: depth = ra + rb along any unit normal.
    {
        gjk_shape A = gjk_make_sphere(1), B = gjk_make_sphere(0.5);
        gjk_query_input q = query(&A, pose(V(1, 2, 3), rnd_quat()), &B, pose(V(1, 2, 3), rnd_quat()));
        results r = check_near("concentric spheres", &q, -1.5, 4);
        case_begin("concentric spheres");
        ENSURE_VEC_NEAR(r.pe.point_a, gjk_mul_add(V(1, 2, 3), 1, r.pe.normal), TOL(4));
        ENSURE_VEC_NEAR(r.pe.point_b, gjk_mul_add(V(1, 2, 3), -0.5, r.pe.normal), TOL(4));
        ENSURE_VEC_NEAR(r.di.point_a, V(1, 2, 3), 1 + TOL(4));
        case_end();
        // Same with identity rotations at the origin.
        q = query(&A, at(0, 0, 0), &B, at(0, 0, 0));
        check_near("concentric spheres at the origin", &q, -1.5, 4);
    }

    // Far from the origin. At 1e4 the shapes are still measured within
    // TEST_REL_TOL * size: the offsets used here are exact differences of the
    // stored coordinates, and the queries work in A's frame. Witness points
    // are world coordinates: they carry the rounding of the position, up to
    // a few ulps of |position|.
    {
        const double big = 1e4;
        gjk_vec3 ca = V(big, -big, big);
        gjk_vec3 cb = V(big + 2.25, -big + 1.5, big - 0.75); // |(2.25, 1.5, -0.75)| = 2.806...
        double pt = TOL(6) + 8 * GJK_REAL_EPSILON * big;
        sphere_pair("spheres apart at 1e4", 1, ca, rnd_quat(), 0.75, cb, rnd_quat(), TOL(6), pt);
        sphere_pair("spheres overlapping at 1e4", 1.5, ca, rnd_quat(), 2, cb, rnd_quat(), TOL(6), pt);
        sphere_pair("spheres apart at 1e4, no rotation", 1, ca, gjk_quat_identity(), 0.75, cb, gjk_quat_identity(),
                    TOL(6), pt);
        // Not exactly representable offsets: the expectation is computed from
        // the stored values.
        gjk_vec3 cc = V(-big + 0.3, big * 0.7 - 2.1, big + 1.7);
        gjk_vec3 cd = V(-big - 1.9, big * 0.7 + 0.4, big + 0.1);
        sphere_pair("spheres apart at 1e4, inexact offsets", 0.5, cc, rnd_quat(), 0.8, cd, rnd_quat(), TOL(6), pt);
    }
    {
        // At 1e6 a documented looser bound: TEST_REL_TOL * size plus 10 ulps
        // of |position| (the resolution of the inputs themselves; in double
        // about 2e-9, in float about 1.2 -- there the sizes below are below
        // the resolution of the coordinates and only finiteness and the
        // contract are meaningful).
        const double big = 1e6;
        double tol = TOL(6) + 10 * GJK_REAL_EPSILON * big;
        gjk_vec3 ca = V(big, big, -big);
        gjk_vec3 cb = V(big + 3, big - 1.5, -big + 2); // |(3, -1.5, 2)| = 3.905...
        sphere_pair("spheres apart at 1e6", 1, ca, rnd_quat(), 1.25, cb, rnd_quat(), tol, tol);
        sphere_pair("spheres overlapping at 1e6", 2, ca, rnd_quat(), 2.5, cb, rnd_quat(), tol, tol);
    }
}

// ---- box-box ----

/// Checks that world point p lies in the box (half, t), within tol.
static void ensure_in_box(gjk_vec3 p, gjk_vec3 half, gjk_transform t, double tol) {
    gjk_vec3 l = gjk_inv_transform_point(t, p);
    ENSURE(gjk_abs(l.x) <= half.x + tol);
    ENSURE(gjk_abs(l.y) <= half.y + tol);
    ENSURE(gjk_abs(l.z) <= half.z + tol);
}

/// Checks that world point p lies on the boundary of the box (half, t).
static void ensure_on_box(gjk_vec3 p, gjk_vec3 half, gjk_transform t, double tol) {
    ensure_in_box(p, half, t, tol);
    gjk_vec3 l = gjk_inv_transform_point(t, p);
    double m = fmin(fmin(half.x - gjk_abs(l.x), half.y - gjk_abs(l.y)), half.z - gjk_abs(l.z));
    ENSURE(m <= tol);
}

/// Axis-aligned boxes, B beside A along axis k with sign s and gap g
/// (g < 0: overlap; g = 0: touching). Checks value, normal and witness
/// points on the faces.
static void box_face_case(const char *label, gjk_vec3 ha, gjk_vec3 hb, gjk_vec3 ca, int k, double s, double g,
                          gjk_vec3 lateral) {
    gjk_shape A = gjk_make_box(ha), B = gjk_make_box(hb);
    // B's centre: lateral offset in the other two coordinates.
    gjk_vec3 cb = gjk_add(ca, lateral);
    double along = comp(ca, k) + s * (comp(ha, k) + comp(hb, k) + g);
    if (k == 0) {
        cb.x = (gjk_real)along;
    } else if (k == 1) {
        cb.y = (gjk_real)along;
    } else {
        cb.z = (gjk_real)along;
    }
    gjk_transform ta = pose(ca, gjk_quat_identity()), tb = pose(cb, gjk_quat_identity());
    gjk_query_input q = query(&A, ta, &B, tb);
    const double size = 8;
    results r = check_near(label, &q, g, size);
    case_begin(label);
    gjk_vec3 n = axis(k, s);
    // The normal is the face normal exactly (also when touching).
    ENSURE_VEC_NEAR(r.pe.normal, n, TOL(1));
    double face_a = comp(ca, k) + s * comp(ha, k);
    // point_a on A's face, point_b on B's face (g apart along n).
    ENSURE_NEAR(comp(r.pe.point_a, k), face_a, TOL(size));
    ENSURE_NEAR(comp(r.pe.point_b, k), face_a + s * g, TOL(size));
    // Lateral coordinates: in both boxes' ranges.
    for (int j = 0; j < 3; ++j) {
        if (j == k) {
            continue;
        }
        double lo = fmax(comp(ca, j) - comp(ha, j), comp(cb, j) - comp(hb, j));
        double hi = fmin(comp(ca, j) + comp(ha, j), comp(cb, j) + comp(hb, j));
        ENSURE_IN_RANGE(comp(r.pe.point_a, j), lo, hi, TOL(size));
        ENSURE_NEAR(comp(r.pe.point_a, j), comp(r.pe.point_b, j), TOL(size));
    }
    if (g > 0) {
        ENSURE_VEC_NEAR(r.di.normal, n, TOL(1));
        ENSURE_VEC_NEAR(r.di.point_a, r.pe.point_a, TOL(size));
        ENSURE_VEC_NEAR(r.di.point_b, r.pe.point_b, TOL(size));
    }
    if (g < 0) {
        // The SAT reference agrees with the hand value.
        obb oa = make_obb(ha, ta), ob = make_obb(hb, tb);
        ENSURE_NEAR(sat_boxes(&oa, &ob, NULL), -g, TOL(size));
    }
    case_end();
}

static void test_box_box_faces(void) {
    const gjk_vec3 ha = V(1, 1.5, 2), hb = V(0.5, 0.75, 1);
    const gjk_vec3 ca = V(0.5, -0.25, 1);
    const gjk_vec3 lateral = V(0.2, -0.3, 0.4);
    static char label[128];
    for (int k = 0; k < 3; ++k) {
        for (int si = 0; si < 2; ++si) {
            double s = si ? -1 : 1;
            snprintf(label, sizeof label, "boxes apart along axis %d sign %+g", k, s);
            box_face_case(label, ha, hb, ca, k, s, 0.3, lateral);
            snprintf(label, sizeof label, "boxes overlapping 0.1 along axis %d sign %+g", k, s);
            box_face_case(label, ha, hb, ca, k, s, -0.1, lateral);
            snprintf(label, sizeof label, "boxes touching along axis %d sign %+g", k, s);
            box_face_case(label, ha, hb, ca, k, s, 0, lateral);
            // Identical boxes, perfectly aligned faces (coincident edges):
            // the degenerate configuration.
            snprintf(label, sizeof label, "equal aligned boxes overlapping 0.1, axis %d sign %+g", k, s);
            box_face_case(label, V(1, 1, 1), V(1, 1, 1), V(0, 0, 0), k, s, -0.1, V(0, 0, 0));
            snprintf(label, sizeof label, "equal aligned boxes touching, axis %d sign %+g", k, s);
            box_face_case(label, V(1, 1, 1), V(1, 1, 1), V(0, 0, 0), k, s, 0, V(0, 0, 0));
            snprintf(label, sizeof label, "equal aligned boxes apart, axis %d sign %+g", k, s);
            box_face_case(label, V(1, 1, 1), V(1, 1, 1), V(0, 0, 0), k, s, 0.1, V(0, 0, 0));
        }
    }
    // The reported failure of another library: unit boxes, B at (0, 0, 1.9):
    // depth 0.1, normal +z, no NaN.
    {
        gjk_shape A = gjk_make_box(V(0.5, 0.5, 0.5)), B = gjk_make_box(V(0.5, 0.5, 0.5));
        gjk_query_input q = query(&A, at(0, 0, 0), &B, at(0, 0, 0.9));
        results r = check_near("unit boxes overlapping 0.1", &q, -0.1, 2);
        ENSURE_VEC_NEAR(r.pe.normal, EZ, TOL(1));
        ENSURE_NEAR(r.pe.point_a.z, 0.5, TOL(2));
        ENSURE_NEAR(r.pe.point_b.z, 0.4, TOL(2));
    }
    // Deep overlap: B centred in A, 0.1 off in x: depth = 1 + 0.5 - 0.1 along +x
    // ... along the axis of smallest overlap: x overlap = 1 + 0.5 - 0.1 = 1.4,
    // y: 1.5 + 0.75 = 2.25, z: 2 + 1 = 3 -> 1.4 along +x.
    {
        gjk_shape A = gjk_make_box(ha), B = gjk_make_box(hb);
        gjk_query_input q = query(&A, at(0, 0, 0), &B, at(0.1, 0, 0));
        results r = check_near("box deep inside box", &q, -1.4, 8);
        ENSURE_VEC_NEAR(r.pe.normal, EX, TOL(1));
        ENSURE_NEAR(r.pe.point_a.x, 1, TOL(8));
        ENSURE_NEAR(r.pe.point_b.x, -0.4, TOL(8));
    }
}

static void test_box_box_edges_vertices(void) {
    const gjk_vec3 h = V(1, 1, 1);
    gjk_shape A = gjk_make_box(h), B = gjk_make_box(h);
    // Parallel edges: B at (2 + g, 2 + g, 0.5); A's edge x = y = 1 and B's
    // edge x = y = 1 + g, both along z: distance g sqrt(2) along (1,1,0)/sqrt2.
    {
        const double g = 0.3;
        gjk_query_input q = query(&A, at(0, 0, 0), &B, at(2 + g, 2 + g, 0.5));
        results r = check_near("boxes edge-edge parallel", &q, g * SQRT2, 8);
        ENSURE_VEC_NEAR(r.pe.normal, V(1 / SQRT2, 1 / SQRT2, 0), TOL(1));
        ENSURE_NEAR(r.pe.point_a.x, 1, TOL(8));
        ENSURE_NEAR(r.pe.point_a.y, 1, TOL(8));
        ENSURE_IN_RANGE(r.pe.point_a.z, -0.5, 1, TOL(8));
    }
    // Crossing edges: A turned 45 deg about y has its top edge along y at
    // x = 0, z = sqrt2; B turned 45 deg about x has its bottom edge along x at
    // y = 0, z = zb - sqrt2. They cross above the origin: distance zb - 2 sqrt2.
    {
        gjk_transform ta = pose(V(0, 0, 0), axis_angle(0, 1, 0, PI / 4));
        const double g = 0.25;
        gjk_transform tb = pose(V(0, 0, 2 * SQRT2 + g), axis_angle(1, 0, 0, PI / 4));
        gjk_query_input q = query(&A, ta, &B, tb);
        results r = check_near("boxes edge-edge crossing", &q, g, 8);
        ENSURE_VEC_NEAR(r.pe.normal, EZ, TOL(1));
        ENSURE_VEC_NEAR(r.pe.point_a, V(0, 0, SQRT2), TOL(8));
        ENSURE_VEC_NEAR(r.pe.point_b, V(0, 0, SQRT2 + g), TOL(8));
        // Overlapping by 0.1: depth 0.1 along z (confirmed by the SAT reference).
        tb.position = V(0, 0, 2 * SQRT2 - 0.1);
        q = query(&A, ta, &B, tb);
        obb oa = make_obb(h, ta), ob = make_obb(h, tb);
        gjk_vec3 sat_n;
        ENSURE_NEAR(sat_boxes(&oa, &ob, &sat_n), 0.1, TOL(8));
        r = check_near("boxes edge-edge crossing, overlapping", &q, -0.1, 8);
        ENSURE_VEC_NEAR(r.pe.normal, EZ, TOL(1));
        ENSURE_VEC_NEAR(r.pe.point_a, V(0, 0, SQRT2), TOL(8));
        ENSURE_VEC_NEAR(r.pe.point_b, V(0, 0, SQRT2 - 0.1), TOL(8));
        // Touching.
        tb.position = V(0, 0, 2 * SQRT2);
        q = query(&A, ta, &B, tb);
        r = check_pair("boxes edge-edge crossing, touching", &q, 0, TOL(8), TOL(8));
    }
    // Vertex-vertex: B at (2 + g)(1,1,1): distance g sqrt3 along (1,1,1)/sqrt3.
    {
        const double g = 0.2;
        gjk_query_input q = query(&A, at(0, 0, 0), &B, at(2 + g, 2 + g, 2 + g));
        results r = check_near("boxes vertex-vertex", &q, g * SQRT3, 8);
        ENSURE_VEC_NEAR(r.pe.normal, V(1 / SQRT3, 1 / SQRT3, 1 / SQRT3), TOL(1));
        ENSURE_VEC_NEAR(r.pe.point_a, V(1, 1, 1), TOL(8));
        ENSURE_VEC_NEAR(r.pe.point_b, V(1 + g, 1 + g, 1 + g), TOL(8));
        // Touching at a single point.
        q = query(&A, at(0, 0, 0), &B, at(2, 2, 2));
        r = check_pair("boxes vertex-vertex touching", &q, 0, TOL(8), TOL(8));
        ENSURE_VEC_NEAR(r.pe.point_a, V(1, 1, 1), TOL(8));
        // Overlapping corners: the overlap is the cube [0.9, 1]^3; depth 0.1
        // along +x, +y or +z (a tie).
        q = query(&A, at(0, 0, 0), &B, at(1.9, 1.9, 1.9));
        r = check_near("boxes vertex-vertex overlapping", &q, -0.1, 8);
        case_begin("boxes vertex-vertex overlapping");
        double best = fmax(fmax(r.pe.normal.x, r.pe.normal.y), r.pe.normal.z);
        ENSURE_NEAR(best, 1, TOL(1));
        ensure_in_box(r.pe.point_a, V(0.05, 0.05, 0.05), at(0.95, 0.95, 0.95), TOL(8));
        ensure_in_box(r.pe.point_b, V(0.05, 0.05, 0.05), at(0.95, 0.95, 0.95), TOL(8));
        ensure_on_box(r.pe.point_a, h, at(0, 0, 0), TOL(8));
        ensure_on_box(r.pe.point_b, h, at(1.9, 1.9, 1.9), TOL(8));
        case_end();
    }
}

static void test_box_box_rotated(void) {
    const gjk_vec3 h = V(1, 1, 1);
    gjk_shape A = gjk_make_box(h), B = gjk_make_box(h);
    // B turned 45 deg about z beside A: B's vertical edge at x = xb - sqrt2,
    // y = yb faces A's face x = 1. Distance xb - sqrt2 - 1.
    {
        const double g = 0.15;
        gjk_transform tb = pose(V(1 + SQRT2 + g, 0.2, 0.3), axis_angle(0, 0, 1, PI / 4));
        gjk_query_input q = query(&A, at(0, 0, 0), &B, tb);
        results r = check_near("box turned 45 about z, edge-face", &q, g, 8);
        ENSURE_VEC_NEAR(r.pe.normal, EX, TOL(1));
        ENSURE_NEAR(r.pe.point_a.x, 1, TOL(8));
        ENSURE_NEAR(r.pe.point_a.y, 0.2, TOL(8));
        ENSURE_IN_RANGE(r.pe.point_a.z, -0.7, 1, TOL(8));
        // Overlapping by 0.1 (SAT: the other axes overlap by 0.77 or more).
        tb.position = V(1 + SQRT2 - 0.1, 0.2, 0.3);
        q = query(&A, at(0, 0, 0), &B, tb);
        obb oa = make_obb(h, at(0, 0, 0)), ob = make_obb(h, tb);
        ENSURE_NEAR(sat_boxes(&oa, &ob, NULL), 0.1, TOL(8));
        r = check_near("box turned 45 about z, edge-face overlapping", &q, -0.1, 8);
        ENSURE_VEC_NEAR(r.pe.normal, EX, TOL(1));
        ENSURE_NEAR(r.pe.point_a.x, 1, TOL(8));
        ENSURE_NEAR(r.pe.point_b.x, 0.9, TOL(8));
        ENSURE_NEAR(r.pe.point_b.y, 0.2, TOL(8));
    }
    // B turned so that its body diagonal (-1,-1,-1) points along -x: the
    // rotation about (1,1,1) x (1,0,0) = (0, 1, -1) by acos(1/sqrt3) maps
    // (1,1,1)/sqrt3 to (1,0,0), so B's vertex (-1,-1,-1) goes to (-sqrt3, 0, 0).
    // Vertex-face distance to A's face x = 1: xb - sqrt3 - 1.
    {
        gjk_quat qb = axis_angle(0, 1, -1, acos(1 / SQRT3));
        ENSURE_VEC_NEAR(gjk_quat_rotate(qb, V(-1, -1, -1)), V(-SQRT3, 0, 0), TOL(2));
        const double g = 0.3;
        gjk_transform tb = pose(V(1 + SQRT3 + g, 0.1, -0.2), qb);
        gjk_query_input q = query(&A, at(0, 0, 0), &B, tb);
        results r = check_near("box vertex-face", &q, g, 8);
        ENSURE_VEC_NEAR(r.pe.normal, EX, TOL(1));
        ENSURE_VEC_NEAR(r.pe.point_a, V(1, 0.1, -0.2), TOL(8));
        ENSURE_VEC_NEAR(r.pe.point_b, V(1 + g, 0.1, -0.2), TOL(8));
        // Vertex 0.1 deep in the face: depth 0.1 along x (SAT confirms that
        // no other axis overlaps less).
        tb.position = V(1 + SQRT3 - 0.1, 0.1, -0.2);
        q = query(&A, at(0, 0, 0), &B, tb);
        obb oa = make_obb(h, at(0, 0, 0)), ob = make_obb(h, tb);
        ENSURE_NEAR(sat_boxes(&oa, &ob, NULL), 0.1, TOL(8));
        r = check_near("box vertex-face overlapping", &q, -0.1, 8);
        ENSURE_VEC_NEAR(r.pe.normal, EX, TOL(1));
        ENSURE_VEC_NEAR(r.pe.point_a, V(1, 0.1, -0.2), TOL(8));
        ENSURE_VEC_NEAR(r.pe.point_b, V(0.9, 0.1, -0.2), TOL(8));
    }
    // Random orientations of both boxes, overlapping: depth from the SAT
    // reference (exact for overlapping boxes).
    for (int i = 0; i < 40; ++i) {
        gjk_vec3 ha = rnd_vec(0.3, 1.2), hb = rnd_vec(0.3, 1.2);
        gjk_transform ta = pose(rnd_vec(-0.5, 0.5), rnd_quat()), tb = pose(rnd_vec(-1.2, 1.2), rnd_quat());
        obb oa = make_obb(ha, ta), ob = make_obb(hb, tb);
        double sat = sat_boxes(&oa, &ob, NULL);
        if (sat < 0.01) {
            continue;
        }
        gjk_shape a = gjk_make_box(ha), b = gjk_make_box(hb);
        gjk_query_input q = query(&a, ta, &b, tb);
        results r = check_near("random overlapping boxes", &q, -sat, 8);
        // The witnesses are support points: on the boundaries. (Inside the
        // other box only for shallow contacts: with B deep inside A the
        // deepest point of A along the normal can lie beyond B.)
        case_begin("random overlapping boxes: witnesses on the boundaries");
        ensure_on_box(r.pe.point_a, ha, ta, TOL(8));
        ensure_on_box(r.pe.point_b, hb, tb, TOL(8));
        case_end();
    }
}

static void test_box_sphere(void) {
    // A box turned about a random axis against spheres: the closest point of
    // the box to the centre is the clamp of the centre in the box's frame.
    const gjk_vec3 half = V(1, 0.7, 0.4);
    gjk_shape box = gjk_make_box(half);
    for (int i = 0; i < 60; ++i) {
        gjk_transform tb = pose(rnd_vec(-1, 1), axis_angle(rnd(-1, 1), rnd(-1, 1), rnd(-1, 1) + 0.01, rnd(0, 2 * PI)));
        gjk_real radius = rnd(0.1, 0.8);
        gjk_shape sphere = gjk_make_sphere(radius);
        // Centres outside (apart or overlapping) and inside the box.
        gjk_vec3 local = i % 3 == 2 ? gjk_v3(rnd(-0.8, 0.8), rnd(-0.5, 0.5), rnd(-0.25, 0.25)) : rnd_vec(-2, 2);
        gjk_vec3 c = gjk_transform_point(tb, local);
        gjk_vec3 closest, dir;
        double sd_point = box_point(half, tb, c, &closest, &dir);
        double sd = sd_point - radius;
        if (fabs(sd) < 0.01) {
            continue;
        }
        gjk_query_input q = query(&box, tb, &sphere, pose(c, rnd_quat()));
        results r = check_near("box (random rotation) vs sphere", &q, sd, 6);
        case_begin("box (random rotation) vs sphere: witnesses");
        ENSURE_VEC_NEAR(r.pe.normal, dir, TOL(1));
        ENSURE_VEC_NEAR(r.pe.point_a, closest, TOL(6));
        ENSURE_VEC_NEAR(r.pe.point_b, gjk_mul_add(c, -radius, dir), TOL(6));
        case_end();
        // Swapped: the same signed distance, the normal reversed.
        gjk_query_input qs = query(&sphere, pose(c, rnd_quat()), &box, tb);
        results rs = check_near("sphere vs box (random rotation)", &qs, sd, 6);
        case_begin("sphere vs box: witnesses");
        ENSURE_VEC_NEAR(rs.pe.normal, gjk_neg(dir), TOL(1));
        ENSURE_VEC_NEAR(rs.pe.point_b, closest, TOL(6));
        ENSURE_VEC_NEAR(rs.pe.point_a, gjk_mul_add(c, -radius, dir), TOL(6));
        case_end();
    }
}

// ---- capsules ----

static void capsule_pair(const char *label, gjk_vec3 a0, gjk_vec3 a1, gjk_real ra, gjk_transform ta, gjk_vec3 b0,
                         gjk_vec3 b1, gjk_real rb, gjk_transform tb, bool check_witnesses) {
    gjk_shape A = gjk_make_capsule(a0, a1, ra), B = gjk_make_capsule(b0, b1, rb);
    gjk_vec3 wa0 = gjk_transform_point(ta, a0), wa1 = gjk_transform_point(ta, a1);
    gjk_vec3 wb0 = gjk_transform_point(tb, b0), wb1 = gjk_transform_point(tb, b1);
    gjk_vec3 cp, cq;
    double seg = segment_segment(wa0, wa1, wb0, wb1, &cp, &cq);
    double sd = seg - ra - rb;
    gjk_query_input q = query(&A, ta, &B, tb);
    results r = check_near(label, &q, sd, 8);
    if (check_witnesses && seg > 0.01) {
        // Unique closest points: pa = cp + ra n, pb = cq - rb n.
        case_begin(label);
        gjk_vec3 n = gjk_normalize(gjk_sub(cq, cp));
        ENSURE_VEC_NEAR(r.pe.normal, n, TOL(1));
        ENSURE_VEC_NEAR(r.pe.point_a, gjk_mul_add(cp, ra, n), TOL(8));
        ENSURE_VEC_NEAR(r.pe.point_b, gjk_mul_add(cq, -rb, n), TOL(8));
        case_end();
    }
}

static void test_capsule_capsule(void) {
    const gjk_transform id = at(0, 0, 0);
    // Parallel, offset along the axis: segment distance 2 (closest points not
    // unique): distance 2 - 0.5 - 0.3 = 1.2 along +y.
    {
        gjk_shape A = gjk_make_capsule(V(-1, 0, 0), V(1, 0, 0), 0.5);
        gjk_shape B = gjk_make_capsule(V(-0.5, 2, 0), V(2.5, 2, 0), 0.3);
        gjk_query_input q = query(&A, id, &B, id);
        results r = check_near("capsules parallel", &q, 1.2, 4);
        ENSURE_VEC_NEAR(r.pe.normal, EY, TOL(1));
        ENSURE_NEAR(r.pe.point_a.y, 0.5, TOL(4));
        ENSURE_NEAR(r.pe.point_b.y, 1.7, TOL(4));
        ENSURE_IN_RANGE(r.pe.point_a.x, -0.5, 1, TOL(4));
        // Overlapping parallel capsules: radii 1.1 each, depth 0.2.
        A.capsule.radius = B.capsule.radius = 1.1;
        r = check_near("capsules parallel overlapping", &q, -0.2, 4);
        ENSURE_VEC_NEAR(r.pe.normal, EY, TOL(1));
        ENSURE_NEAR(r.pe.point_a.y, 1.1, TOL(4));
        ENSURE_NEAR(r.pe.point_b.y, 0.9, TOL(4));
    }
    // Crossing: A along x at the origin, B along y at height 1.5, both made
    // from a z-axis capsule by rotation: segment distance 1.5.
    {
        gjk_vec3 z0 = V(0, 0, -1), z1 = V(0, 0, 1);
        gjk_transform ta = pose(V(0, 0, 0), axis_angle(0, 1, 0, PI / 2));
        gjk_transform tb = pose(V(0, 0, 1.5), axis_angle(1, 0, 0, PI / 2));
        capsule_pair("capsules crossing", z0, z1, 0.5, ta, z0, z1, 0.25, tb, true);
        capsule_pair("capsules crossing, overlapping", z0, z1, 0.9, ta, z0, z1, 0.8, tb, true);
        gjk_shape A = gjk_make_capsule(z0, z1, 0.5), B = gjk_make_capsule(z0, z1, 0.25);
        gjk_query_input q = query(&A, ta, &B, tb);
        results r = check_near("capsules crossing (hand values)", &q, 0.75, 4);
        ENSURE_VEC_NEAR(r.pe.normal, EZ, TOL(1));
        ENSURE_VEC_NEAR(r.pe.point_a, V(0, 0, 0.5), TOL(4));
        ENSURE_VEC_NEAR(r.pe.point_b, V(0, 0, 1.25), TOL(4));
        // Touching: radii sum 1.5.
        B.capsule.radius = 1;
        check_pair("capsules crossing, touching", &q, 0, TOL(4), TOL(4));
    }
    // Collinear, end to end: segment distance 1.
    {
        gjk_shape A = gjk_make_capsule(V(-1, 0, 0), V(1, 0, 0), 0.25);
        gjk_shape B = gjk_make_capsule(V(2, 0, 0), V(3, 0, 0), 0.25);
        gjk_query_input q = query(&A, id, &B, id);
        results r = check_near("capsules collinear", &q, 0.5, 4);
        ENSURE_VEC_NEAR(r.pe.normal, EX, TOL(1));
        ENSURE_VEC_NEAR(r.pe.point_a, V(1.25, 0, 0), TOL(4));
        ENSURE_VEC_NEAR(r.pe.point_b, V(1.75, 0, 0), TOL(4));
        B.capsule.a = V(1.2, 0, 0);
        r = check_near("capsules collinear overlapping", &q, -0.3, 4);
        ENSURE_VEC_NEAR(r.pe.normal, EX, TOL(1));
        ENSURE_VEC_NEAR(r.pe.point_a, V(1.25, 0, 0), TOL(4));
        ENSURE_VEC_NEAR(r.pe.point_b, V(0.95, 0, 0), TOL(4));
    }
    // Skew random segments, apart and overlapping (segments not intersecting:
    // depth = ra + rb - segment distance).
    for (int i = 0; i < 60; ++i) {
        gjk_vec3 a0 = rnd_vec(-1, 1), a1 = rnd_vec(-1, 1), b0 = rnd_vec(-1, 1), b1 = rnd_vec(-1, 1);
        gjk_transform ta = pose(rnd_vec(-1, 1), rnd_quat()), tb = pose(rnd_vec(-1, 1), rnd_quat());
        gjk_vec3 cp, cq;
        double seg = segment_segment(gjk_transform_point(ta, a0), gjk_transform_point(ta, a1),
                                     gjk_transform_point(tb, b0), gjk_transform_point(tb, b1), &cp, &cq);
        if (seg < 0.05) {
            continue;
        }
        // Radii giving a signed distance of +0.4 seg or -0.3 seg.
        double target = i % 2 ? 0.4 * seg : -0.3 * seg;
        double rsum = seg - target;
        gjk_real ra = (gjk_real)(rsum * rnd(0.2, 0.8));
        gjk_real rb = (gjk_real)(rsum - ra);
        capsule_pair(i % 2 ? "random capsules apart" : "random capsules overlapping", a0, a1, ra, ta, b0, b1, rb, tb,
                     true);
    }
}

// ---- points, segments, triangles ----

static void test_point_triangle(void) {
    const gjk_vec3 a = V(0, 0, 0), b = V(2, 0, 0), c = V(0, 2, 0);
    gjk_shape tri = gjk_make_triangle(a, b, c), point = gjk_make_point();
    // The same configurations under a random common motion of the triangle
    // frame (the triangle's pose T, the point placed at T(p)).
    for (int m = 0; m < 2; ++m) {
        gjk_transform tt = m ? pose(rnd_vec(-3, 3), rnd_quat()) : at(0, 0, 0);
        const struct {
            const char *label;
            gjk_vec3 p, closest;
        } cases[] = {
            // Over the inside: straight down.
            {"point over triangle inside", {0.5, 0.5, 1.5}, {0.5, 0.5, 0}},
            {"point under triangle inside", {0.25, 1, -0.75}, {0.25, 1, 0}},
            // Near the edge x + y = 2: closest (1, 1, 0).
            {"point near triangle edge", {1.5, 1.5, 1}, {1, 1, 0}},
            // Near the edge y = 0: closest (1, 0, 0).
            {"point near triangle edge y=0", {1, -0.5, -0.5}, {1, 0, 0}},
            // Vertex region of a: (p - a).(b - a) <= 0 and (p - a).(c - a) <= 0.
            {"point near triangle vertex", {-1, -2, 2}, {0, 0, 0}},
            // Vertex region of b.
            {"point near triangle vertex b", {3, -0.5, 0.5}, {2, 0, 0}},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
            gjk_vec3 pw = gjk_transform_point(tt, cases[i].p);
            gjk_vec3 cw = gjk_transform_point(tt, cases[i].closest);
            double d = gjk_distance_between(cases[i].p, cases[i].closest);
            gjk_query_input q = query(&point, pose(pw, rnd_quat()), &tri, tt);
            results r = check_near(cases[i].label, &q, d, 8);
            case_begin(cases[i].label);
            ENSURE_VEC_NEAR(r.pe.point_a, pw, TOL(8));
            ENSURE_VEC_NEAR(r.pe.point_b, cw, TOL(8));
            ENSURE_VEC_NEAR(r.pe.normal, gjk_normalize(gjk_sub(cw, pw)), TOL(1));
            case_end();
        }
    }
    // A point exactly on the triangle: touching.
    gjk_query_input q = query(&point, at(0.5, 0.5, 0), &tri, at(0, 0, 0));
    results r = check_pair("point on triangle", &q, 0, TOL(4), TOL(4));
    ENSURE_VEC_NEAR(r.pe.point_a, V(0.5, 0.5, 0), TOL(4));
    // A rounded point (a sphere of radius 0.5) over the triangle.
    gjk_shape ball = gjk_with_margin(point, 0.5);
    q = query(&ball, at(0.5, 0.5, 1.5), &tri, at(0, 0, 0));
    r = check_near("rounded point over triangle", &q, 1, 4);
    ENSURE_VEC_NEAR(r.pe.point_a, V(0.5, 0.5, 1), TOL(4));
    q = query(&ball, at(0.5, 0.5, 0.25), &tri, at(0, 0, 0));
    r = check_near("rounded point into triangle", &q, -0.25, 4);
    ENSURE_VEC_NEAR(r.pe.normal, V(0, 0, -1), TOL(1));
    ENSURE_VEC_NEAR(r.pe.point_a, V(0.5, 0.5, -0.25), TOL(4));
    ENSURE_VEC_NEAR(r.pe.point_b, V(0.5, 0.5, 0), TOL(4));
}

static void test_segment_triangle(void) {
    gjk_shape tri = gjk_make_triangle(V(0, 0, 0), V(2, 0, 0), V(0, 2, 0));
    // Segment rising away from the triangle: the low end (0.5, 0.5, 1) is
    // closest (for t <= 0.2 the point is over the triangle at height 1 + t).
    {
        gjk_shape seg = gjk_make_segment(V(0.5, 0.5, 1), V(3, 3, 2));
        gjk_query_input q = query(&tri, at(0, 0, 0), &seg, at(0, 0, 0));
        results r = check_near("segment over triangle", &q, 1, 4);
        ENSURE_VEC_NEAR(r.pe.normal, EZ, TOL(1));
        ENSURE_VEC_NEAR(r.pe.point_a, V(0.5, 0.5, 0), TOL(4));
        ENSURE_VEC_NEAR(r.pe.point_b, V(0.5, 0.5, 1), TOL(4));
    }
    // Segment x = 3, z = 0.5, y in [-1, 3] past the vertex (2, 0, 0):
    // |(1 + t)^2 + (y - t)^2 + 0.25| is least at t = 0, y = 0: sqrt(1.25).
    {
        gjk_shape seg = gjk_make_segment(V(3, -1, 0.5), V(3, 3, 0.5));
        gjk_transform tt = pose(V(0.3, -2, 1), rnd_quat());
        gjk_query_input q = query(&tri, tt, &seg, tt);
        results r = check_near("segment past triangle vertex", &q, sqrt(1.25), 8);
        ENSURE_VEC_NEAR(r.pe.point_a, gjk_transform_point(tt, V(2, 0, 0)), TOL(8));
        ENSURE_VEC_NEAR(r.pe.point_b, gjk_transform_point(tt, V(3, 0, 0.5)), TOL(8));
    }
    // Segment piercing a large triangle at (1, 1): it reaches 0.2 below and
    // 0.5 above; the difference of the shapes is a prism whose nearest face
    // to the origin is the end face 0.2 away (the side faces are 1 away).
    // Moving the triangle down by 0.2 makes them touch: depth 0.2, normal
    // (A = segment, B = triangle) -z.
    {
        gjk_shape big = gjk_make_triangle(V(0, 0, 0), V(10, 0, 0), V(0, 10, 0));
        gjk_shape seg = gjk_make_segment(V(1, 1, -0.2), V(1, 1, 0.5));
        gjk_query_input q = query(&seg, at(0, 0, 0), &big, at(0, 0, 0));
        results r = check_near("segment piercing triangle", &q, -0.2, 10);
        ENSURE_VEC_NEAR(r.pe.normal, V(0, 0, -1), TOL(1));
        ENSURE_VEC_NEAR(r.pe.point_a, V(1, 1, -0.2), TOL(10));
        ENSURE_VEC_NEAR(r.pe.point_b, V(1, 1, 0), TOL(10));
    }
    // Segment lying in the triangle's plane, beside the hypotenuse.
    {
        gjk_shape seg = gjk_make_segment(V(2, 1, 0), V(1, 2, 0)); // parallel to x + y = 2, offset 1/sqrt2
        gjk_query_input q = query(&tri, at(0, 0, 0), &seg, at(0, 0, 0));
        results r = check_near("segment beside triangle edge, in plane", &q, 1 / SQRT2, 4);
        ENSURE_VEC_NEAR(r.pe.normal, V(1 / SQRT2, 1 / SQRT2, 0), TOL(1));
    }
}

// ---- curved shapes on boxes ----

static void test_curved_on_box(void) {
    const gjk_vec3 slab_half = V(2, 2, 0.5);
    gjk_shape slab = gjk_make_box(slab_half);
    const gjk_transform id = at(0, 0, 0);
    // Cylinder standing on the box: bottom face at 0.5 + g.
    {
        gjk_shape cyl = gjk_make_cylinder(0.5, 1);
        const double gaps[] = {0.25, -0.1};
        for (int i = 0; i < 2; ++i) {
            double g = gaps[i];
            gjk_transform tc = pose(V(0.3, -0.2, 0.5 + 1 + g), axis_angle(0, 0, 1, 0.5));
            gjk_query_input q = query(&slab, id, &cyl, tc);
            results r = check_near(g > 0 ? "cylinder standing on box" : "cylinder sunk into box", &q, g, 6);
            case_begin("cylinder standing on box");
            ENSURE_VEC_NEAR(r.pe.normal, EZ, TOL(1));
            ENSURE_NEAR(r.pe.point_a.z, 0.5, TOL(6));
            ENSURE_NEAR(r.pe.point_b.z, 0.5 + g, TOL(6));
            double dx = r.pe.point_a.x - 0.3, dy = r.pe.point_a.y + 0.2;
            ENSURE(dx * dx + dy * dy <= 0.25 + TOL(6));
            case_end();
        }
        // Lying on its side (axis along y): the lowest line is at z = zc - 0.5.
        gjk_transform tc = pose(V(0.3, -0.2, 0.5 + 0.5 + 0.25), axis_angle(1, 0, 0, PI / 2));
        gjk_query_input q = query(&slab, id, &cyl, tc);
        results r = check_near("cylinder lying on box", &q, 0.25, 6);
        // The lowest line of the curved side (radius 0.5): curved tolerances
        // across it, exact heights.
        ENSURE_VEC_NEAR(r.pe.normal, EZ, CURVED_NORMAL_TOL(0.5, 6));
        ENSURE_NEAR(r.pe.point_b.z, 0.75, TOL(6));
        ENSURE_NEAR(r.pe.point_b.x, 0.3, CURVED_TOL(0.5, 6));
        ENSURE_IN_RANGE(r.pe.point_b.y, -1.2, 0.8, TOL(6));
    }
    // Cone, apex down (turned 180 deg about x) above the box: apex at 0.5 + g.
    {
        gjk_shape cone = gjk_make_cone(1, 1);
        const double gaps[] = {0.3, -0.1};
        for (int i = 0; i < 2; ++i) {
            double g = gaps[i];
            gjk_transform tc = pose(V(0.1, 0.2, 0.5 + 1 + g), axis_angle(1, 0, 0, PI));
            gjk_query_input q = query(&slab, id, &cone, tc);
            results r = check_near(g > 0 ? "cone apex down above box" : "cone apex into box", &q, g, 6);
            case_begin("cone apex down");
            ENSURE_VEC_NEAR(r.pe.normal, EZ, TOL(1));
            // The apex is the unique deepest / closest point of the cone.
            ENSURE_VEC_NEAR(r.pe.point_b, V(0.1, 0.2, 0.5 + g), TOL(6));
            ENSURE_VEC_NEAR(r.pe.point_a, V(0.1, 0.2, 0.5), TOL(6));
            case_end();
        }
        // Apex up, standing on its base: base at zc - 1.
        gjk_transform tc = pose(V(-0.3, 0.4, 0.5 + 1 + 0.2), axis_angle(0, 0, 1, 1));
        gjk_query_input q = query(&slab, id, &cone, tc);
        results r = check_near("cone standing on box", &q, 0.2, 6);
        ENSURE_VEC_NEAR(r.pe.normal, EZ, TOL(1));
        ENSURE_NEAR(r.pe.point_b.z, 0.7, TOL(6));
        // Cone lying on its side: turned 90 deg about y, apex along +x. The
        // lowest point is the base rim at z = zc - r, x = xc - h.
        tc = pose(V(0, 0, 0.5 + 1 + 0.2), axis_angle(0, 1, 0, PI / 2));
        q = query(&slab, id, &cone, tc);
        r = check_near("cone on its side above box", &q, 0.2, 6);
        // A point of the base rim (a circle of radius 1).
        ENSURE_NEAR(r.pe.point_b.z, 0.7, TOL(6));
        ENSURE_VEC_NEAR(r.pe.point_b, V(-1, 0, 0.7), CURVED_TOL(1, 6));
    }
    // Ellipsoid over a thin plate (half height 0.05): distance = centre
    // height - 0.05 - r_z, turned about z (which changes nothing).
    {
        gjk_shape plate = gjk_make_box(V(5, 5, 0.05));
        gjk_shape ell = gjk_make_ellipsoid(V(1, 2, 0.5));
        const double gaps[] = {0.2, -0.1};
        for (int i = 0; i < 2; ++i) {
            double g = gaps[i];
            gjk_transform te = pose(V(0.3, -0.4, 0.05 + 0.5 + g), axis_angle(0, 0, 1, 0.7));
            gjk_query_input q = query(&plate, id, &ell, te);
            results r = check_near(g > 0 ? "ellipsoid above plate" : "ellipsoid into plate", &q, g, 10);
            // The lowest point of the ellipsoid: curvature radii a^2/c = 2
            // and b^2/c = 8 there. Heights exact, horizontal position to
            // the curved tolerance.
            case_begin("ellipsoid and plate");
            ENSURE_VEC_NEAR(r.pe.normal, EZ, CURVED_NORMAL_TOL(2, 10));
            ENSURE_NEAR(r.pe.point_b.z, 0.05 + g, TOL(10));
            ENSURE_NEAR(r.pe.point_a.z, 0.05, TOL(10));
            ENSURE_VEC_NEAR(r.pe.point_b, V(0.3, -0.4, 0.05 + g), CURVED_TOL(8, 10));
            ENSURE_VEC_NEAR(r.pe.point_a, V(0.3, -0.4, 0.05), CURVED_TOL(8, 10));
            case_end();
        }
        // Ellipsoid turned 90 deg about x: its y semi-axis (2) now vertical.
        gjk_transform te = pose(V(0, 0, 0.05 + 2 + 0.3), axis_angle(1, 0, 0, PI / 2));
        gjk_query_input q = query(&plate, id, &ell, te);
        check_near("ellipsoid standing on plate", &q, 0.3, 10);
    }
    // Sphere against the side of a cylinder (r 1, half height 2), in the
    // cylinder's frame, under a random pose of the pair.
    {
        gjk_shape cyl = gjk_make_cylinder(1, 2);
        gjk_shape ball = gjk_make_sphere(0.5);
        gjk_transform tc = pose(rnd_vec(-2, 2), rnd_quat());
        // rho = 3: distance 3 - 1 - 0.5 = 1.5, closest (0.6, 0.8, 0.7).
        gjk_vec3 c = V(1.8, 2.4, 0.7);
        gjk_query_input q = query(&cyl, tc, &ball, pose(gjk_transform_point(tc, c), rnd_quat()));
        results r = check_near("sphere beside cylinder", &q, 1.5, 8);
        // Contact on the curved side (radius 1).
        ENSURE_VEC_NEAR(r.pe.normal, gjk_quat_rotate(tc.rotation, V(0.6, 0.8, 0)), CURVED_NORMAL_TOL(1, 8));
        ENSURE_VEC_NEAR(r.pe.point_a, gjk_transform_point(tc, V(0.6, 0.8, 0.7)), CURVED_TOL(1, 8));
        ENSURE_VEC_NEAR(r.pe.point_b, gjk_transform_point(tc, V(1.5, 2.0, 0.7)), CURVED_TOL(1, 8));
        // rho = 1.2: overlapping by 0.3, the centre outside the cylinder.
        c = V(0.96, 0.72, -0.5);
        q = query(&cyl, tc, &ball, pose(gjk_transform_point(tc, c), rnd_quat()));
        r = check_near("sphere into cylinder side", &q, -0.3, 8);
        ENSURE_VEC_NEAR(r.pe.normal, gjk_quat_rotate(tc.rotation, V(0.8, 0.6, 0)), CURVED_NORMAL_TOL(1, 8));
        ENSURE_VEC_NEAR(r.pe.point_a, gjk_transform_point(tc, V(0.8, 0.6, -0.5)), CURVED_TOL(1, 8));
        ENSURE_VEC_NEAR(r.pe.point_b, gjk_transform_point(tc, V(0.56, 0.42, -0.5)), CURVED_TOL(1, 8));
        // Beyond the rim: closest rim point (0.8, 0.6, 2) to (1.6, 1.2, 2.9).
        c = V(1.6, 1.2, 2.9);
        q = query(&cyl, tc, &ball, pose(gjk_transform_point(tc, c), rnd_quat()));
        r = check_near("sphere beyond cylinder rim", &q, sqrt(1.81) - 0.5, 8);
        ENSURE_VEC_NEAR(r.pe.point_a, gjk_transform_point(tc, V(0.8, 0.6, 2)), CURVED_TOL(1, 8));
    }
}

// ---- margins ----

static void test_margins(void) {
    const double m = 0.1;
    gjk_shape A = gjk_with_margin(gjk_make_box(V(1, 1, 1)), m), B = gjk_make_box(V(0.5, 0.5, 0.5));
    gjk_shape A0 = gjk_make_box(V(1, 1, 1));
    // Face to face: the core gap 0.4 shrinks by m.
    {
        gjk_query_input q = query(&A, at(0, 0, 0), &B, at(1.5 + 0.4, 0.1, -0.2));
        results r = check_near("rounded box apart", &q, 0.4 - m, 4);
        ENSURE_VEC_NEAR(r.pe.normal, EX, TOL(1));
        ENSURE_NEAR(r.pe.point_a.x, 1 + m, TOL(4));
        ENSURE_NEAR(r.pe.point_b.x, 1.4, TOL(4));
        gjk_query_input q0 = query(&A0, at(0, 0, 0), &B, at(1.5 + 0.4, 0.1, -0.2));
        check_near("unrounded box apart", &q0, 0.4, 4);
    }
    // Cores overlapping by 0.05: depth 0.05 + m.
    {
        gjk_query_input q = query(&A, at(0, 0, 0), &B, at(1.5 - 0.05, 0.1, -0.2));
        results r = check_near("rounded box overlapping", &q, -0.05 - m, 4);
        ENSURE_VEC_NEAR(r.pe.normal, EX, TOL(1));
        ENSURE_NEAR(r.pe.point_a.x, 1 + m, TOL(4));
        ENSURE_NEAR(r.pe.point_b.x, 0.95, TOL(4));
    }
    // Cores apart by 0.05 < m: the rounded shapes overlap by m - 0.05.
    {
        gjk_query_input q = query(&A, at(0, 0, 0), &B, at(1.5 + 0.05, 0.1, -0.2));
        results r = check_near("rounded box overlapping, cores apart", &q, 0.05 - m, 4);
        ENSURE_VEC_NEAR(r.pe.normal, EX, TOL(1));
        ENSURE_NEAR(r.pe.point_a.x, 1 + m, TOL(4));
        ENSURE_NEAR(r.pe.point_b.x, 1.05, TOL(4));
    }
    // Cores apart by exactly m: touching.
    {
        gjk_shape Ah = gjk_with_margin(gjk_make_box(V(1, 1, 1)), 0.125);
        gjk_query_input q = query(&Ah, at(0, 0, 0), &B, at(1.5 + 0.125, 0.1, -0.2));
        check_pair("rounded box touching", &q, 0, TOL(4), TOL(4));
    }
    // Vertex to vertex: the margin is a ball, so the distance g sqrt3 shrinks
    // by exactly m (not m sqrt3), and the closest point of A is the rounded
    // corner (1,1,1) + m (1,1,1)/sqrt3.
    {
        const double g = 0.2;
        gjk_query_input q = query(&A, at(0, 0, 0), &B, at(1.5 + g, 1.5 + g, 1.5 + g));
        results r = check_near("rounded box vertex-vertex", &q, g * SQRT3 - m, 4);
        ENSURE_VEC_NEAR(r.pe.point_a, V(1 + m / SQRT3, 1 + m / SQRT3, 1 + m / SQRT3), TOL(4));
        ENSURE_VEC_NEAR(r.pe.point_b, V(1 + g, 1 + g, 1 + g), TOL(4));
        // Both rounded.
        gjk_shape Bm = gjk_with_margin(B, 0.05);
        q = query(&A, at(0, 0, 0), &Bm, at(1.5 + g, 1.5 + g, 1.5 + g));
        check_near("rounded boxes vertex-vertex", &q, g * SQRT3 - m - 0.05, 4);
    }
    // A sphere with a margin is the larger sphere; a capsule likewise.
    {
        gjk_shape s = gjk_with_margin(gjk_make_sphere(1), 0.5), t = gjk_make_sphere(0.5);
        gjk_query_input q = query(&s, at(0, 0, 0), &t, at(0, 3, 0));
        check_near("rounded sphere", &q, 1, 4);
        gjk_shape c = gjk_with_margin(gjk_make_capsule(V(-1, 0, 0), V(1, 0, 0), 0.25), 0.25);
        q = query(&c, at(0, 0, 0), &t, at(0, 0, 1.5));
        check_near("rounded capsule", &q, 0.5, 4);
        q = query(&c, at(0, 0, 0), &t, at(0.5, 0, 0.8));
        check_near("rounded capsule overlapping", &q, -0.2, 4);
    }
    // A rounded polytope equals the rounded box.
    {
        static const gjk_vec3 cube[8] = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                         {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {1, 1, 1}};
        gjk_shape P = gjk_with_margin(gjk_make_polytope(cube, 8), m);
        gjk_query_input q = query(&P, at(0, 0, 0), &B, at(1.5 + 0.2, 1.5 + 0.2, 1.5 + 0.2));
        check_near("rounded polytope vertex-vertex", &q, 0.2 * SQRT3 - m, 4);
        q = query(&P, at(0, 0, 0), &B, at(1.5 - 0.05, 0.1, -0.2));
        check_near("rounded polytope overlapping", &q, -0.05 - m, 4);
    }
}

// ---- custom shapes ----

typedef struct custom_ball {
    gjk_real radius;
    int tag;
} custom_ball;

static int custom_calls = 0;
static int custom_bad = 0;
static const void *custom_expected = NULL;

static gjk_vec3 custom_ball_support(const void *user_data, gjk_vec3 d) {
    const custom_ball *b = (const custom_ball *)user_data;
    ++custom_calls;
    if (user_data != custom_expected || b->tag != 77) {
        ++custom_bad;
    }
    gjk_real l = gjk_length(d);
    if (!(l > 0)) {
        ++custom_bad; // never zero, says the API
        return gjk_v3_zero();
    }
    return gjk_scale(b->radius / l, d);
}

static void test_custom_shape(void) {
    custom_ball ball = {(gjk_real)0.75, 77};
    custom_expected = &ball;
    custom_calls = custom_bad = 0;
    gjk_shape user = gjk_make_custom(custom_ball_support, &ball, ball.radius);
    gjk_shape user_no_radius = gjk_make_custom(custom_ball_support, &ball, 0);
    gjk_shape builtin = gjk_make_sphere(ball.radius);
    const gjk_vec3 half = V(1, 0.5, 0.7);
    gjk_shape box = gjk_make_box(half);
    gjk_transform tb = pose(V(0.2, -0.1, 0.3), axis_angle(1, 2, 3, 0.8));
    // Centres: apart from a face, an edge and a corner; overlapping a face
    // with the centre outside; centre inside the box.
    const gjk_vec3 local[] = {{2.2, 0.1, 0.2}, {1.6, 1.0, 0.1}, {1.5, 1.1, 1.2},
                              {1.5, 0.1, -0.2}, {0.3, 0.1, 0.2}, {-0.5, 0.2, -0.45}};
    for (size_t i = 0; i < sizeof local / sizeof local[0]; ++i) {
        gjk_vec3 c = gjk_transform_point(tb, local[i]);
        gjk_vec3 closest, dir;
        double sd = box_point(half, tb, c, &closest, &dir) - ball.radius;
        gjk_transform ts = pose(c, rnd_quat());
        gjk_query_input qb = query(&box, tb, &builtin, ts);
        gjk_query_input qu = query(&box, tb, &user, ts);
        gjk_query_input qn = query(&box, tb, &user_no_radius, ts);
        results rb = check_near("box vs built-in sphere", &qb, sd, 4);
        results ru = check_near("box vs custom sphere", &qu, sd, 4);
        results rn = check_near("box vs custom sphere without radius", &qn, sd, 4);
        // The built-in sphere is a point core plus a radius: exact. The
        // custom sphere is a curved core (radius 0.75): its witnesses and
        // normal carry the curved tolerance.
        case_begin("custom sphere matches built-in sphere");
        ENSURE_NEAR(ru.pe.signed_distance, rb.pe.signed_distance, TOL(4));
        ENSURE_NEAR(rn.pe.signed_distance, rb.pe.signed_distance, TOL(4));
        ENSURE_VEC_NEAR(rb.pe.normal, dir, TOL(1));
        ENSURE_VEC_NEAR(rb.pe.point_a, closest, TOL(4));
        ENSURE_VEC_NEAR(rb.pe.point_b, gjk_mul_add(c, -ball.radius, dir), TOL(4));
        ENSURE_VEC_NEAR(ru.pe.normal, dir, CURVED_NORMAL_TOL(0.75, 4));
        ENSURE_VEC_NEAR(ru.pe.point_a, closest, CURVED_TOL(0.75, 4));
        ENSURE_VEC_NEAR(ru.pe.point_b, gjk_mul_add(c, -ball.radius, dir), CURVED_TOL(0.75, 4));
        case_end();
        // Custom as shape A.
        gjk_query_input qs = query(&user, ts, &box, tb);
        check_near("custom sphere vs box", &qs, sd, 4);
    }
    ENSURE(custom_calls > 0);
    ENSURE(custom_bad == 0);
    // Two custom shapes.
    custom_ball other = {(gjk_real)0.5, 77};
    custom_expected = NULL; // two user data pointers: skip the identity check
    gjk_shape user2 = gjk_make_custom(custom_ball_support, &other, 0.5);
    int bad_before = custom_bad;
    gjk_query_input q = query(&user, at(0, 0, 0), &user2, at(0, 0, 2));
    results r = run_all(&q);
    custom_bad = bad_before; // the identity check does not apply here
    ENSURE_NEAR(r.pe.signed_distance, 0.75, TOL(4));
    ENSURE_NEAR(r.di.distance, 0.75, TOL(4));
}

// ---- random pairs: the three queries agree with each other and references ----

typedef enum { K_SPHERE, K_BOX, K_CAPSULE } kind;

typedef struct rshape {
    kind k;
    gjk_shape s;
    gjk_transform t;
} rshape;

static rshape random_shape(void) {
    rshape r;
    r.k = (kind)(int)(rnd_unit() * 3);
    r.t = pose(rnd_vec(-1, 1), rnd_quat());
    if (r.k == K_SPHERE) {
        r.s = gjk_make_sphere(rnd(0.2, 1));
    } else if (r.k == K_BOX) {
        r.s = gjk_make_box(rnd_vec(0.2, 1));
    } else {
        r.s = gjk_make_capsule(rnd_vec(-0.7, 0.7), rnd_vec(-0.7, 0.7), rnd(0.1, 0.6));
    }
    return r;
}

/// Reference signed distance of two random shapes. *exact: the value is
/// exact (else only its sign is).
static double reference_sd(const rshape *a, const rshape *b, bool *exact) {
    *exact = true;
    if (a->k == K_BOX && b->k == K_BOX) {
        obb oa = make_obb(a->s.box.half_extents, a->t), ob = make_obb(b->s.box.half_extents, b->t);
        double sat = sat_boxes(&oa, &ob, NULL);
        *exact = sat > 0;
        return -sat;
    }
    if (b->k == K_BOX) {
        const rshape *t = a;
        a = b;
        b = t;
    }
    // Now a box is A if there is one.
    if (a->k == K_BOX) {
        if (b->k == K_SPHERE) {
            return box_point(a->s.box.half_extents, a->t, b->t.position, NULL, NULL) - b->s.sphere.radius;
        }
        gjk_vec3 p0 = gjk_transform_point(b->t, b->s.capsule.a), p1 = gjk_transform_point(b->t, b->s.capsule.b);
        double core = box_segment(a->s.box.half_extents, a->t, p0, p1);
        *exact = core > 0;
        return core - b->s.capsule.radius;
    }
    // Spheres and capsules: segment (or point) distances minus the radii.
    gjk_vec3 a0, a1, b0, b1;
    gjk_real ra, rb;
    if (a->k == K_SPHERE) {
        a0 = a1 = a->t.position;
        ra = a->s.sphere.radius;
    } else {
        a0 = gjk_transform_point(a->t, a->s.capsule.a);
        a1 = gjk_transform_point(a->t, a->s.capsule.b);
        ra = a->s.capsule.radius;
    }
    if (b->k == K_SPHERE) {
        b0 = b1 = b->t.position;
        rb = b->s.sphere.radius;
    } else {
        b0 = gjk_transform_point(b->t, b->s.capsule.a);
        b1 = gjk_transform_point(b->t, b->s.capsule.b);
        rb = b->s.capsule.radius;
    }
    gjk_vec3 cp, cq;
    double seg = segment_segment(a0, a1, b0, b1, &cp, &cq);
    *exact = seg > 0.01;
    return seg - ra - rb;
}

static void test_random_pairs_agree(void) {
    int n_apart = 0, n_overlap = 0;
    const double size = 8;
    for (int i = 0; i < 500; ++i) {
        rshape a = random_shape(), b = random_shape();
        bool exact;
        double ref = reference_sd(&a, &b, &exact);
        if (fabs(ref) < 1e-3) {
            continue; // too close to call for the sign test
        }
        gjk_query_input q = query(&a.s, a.t, &b.s, b.t);
        case_begin("random pair");
        results r = run_all(&q);
        check_contract(&r, &q.options, TOL(size), TOL(size));
        // Sign agreement: intersect iff signed distance <= 0.
        ENSURE(r.in.intersect == (ref < 0));
        ENSURE(r.pe.status == (ref < 0 ? GJK_PENETRATING : GJK_SEPARATED));
        ENSURE(r.di.status == r.pe.status);
        ENSURE(r.in.status == r.pe.status);
        ENSURE(r.in.intersect == (r.pe.signed_distance <= 0));
        ENSURE((r.di.distance > 0) == (r.pe.signed_distance > 0));
        if (exact) {
            ENSURE_NEAR(r.pe.signed_distance, ref, TOL(size));
        } else if (ref > 0) {
            // Box-box apart: the SAT separation is a lower bound.
            ENSURE(r.pe.signed_distance >= ref - TOL(size));
        }
        // Swapping A and B: the same signed distance.
        gjk_query_input qs = query(&b.s, b.t, &a.s, a.t);
        gjk_penetration_output ps = gjk_penetration(&qs, NULL);
        ENSURE_NEAR(ps.signed_distance, r.pe.signed_distance, TOL(size));
        if (r.pe.signed_distance > 0) {
            // GJK stops when the distance is within the tolerance ε; the
            // direction is then pinned to about sqrt(2ε/d) (the distance is
            // flat to first order in the direction). In double that is far
            // below TOL(1); in float (ε ~ 2e-6·size) it is not.
            double dir_tol = fmax((double)TOL(1), sqrt(2 * (double)TOL(size) / (double)r.pe.signed_distance) *
                                                      (GJK_USE_FLOAT ? 1.0 : 0.0));
            ENSURE_VEC_NEAR(ps.normal, gjk_neg(r.pe.normal), dir_tol);
        }
        // A common rigid motion of both shapes changes nothing.
        gjk_transform m = pose(rnd_vec(-5, 5), rnd_quat());
        gjk_query_input qm = query(&a.s, gjk_transform_mul(m, a.t), &b.s, gjk_transform_mul(m, b.t));
        gjk_penetration_output pm = gjk_penetration(&qm, NULL);
        ENSURE_NEAR(pm.signed_distance, r.pe.signed_distance, TOL(size * 2));
        if (ref < 0) {
            ++n_overlap;
        } else {
            ++n_apart;
        }
        if (test_failures > case_failures) {
            fprintf(stderr, "    pair %d: kinds %d %d, reference %.17g (exact %d), got sd %.17g\n", i, (int)a.k,
                    (int)b.k, ref, (int)exact, (double)r.pe.signed_distance);
        }
        case_end();
    }
    // Both outcomes well represented.
    printf("    random pairs: %d apart, %d overlapping\n", n_apart, n_overlap);
    ENSURE(n_apart > 100);
    ENSURE(n_overlap > 100);
}

// ---- touching band and options ----

static void test_touching_band(void) {
    gjk_shape A = gjk_make_sphere(1), B = gjk_make_sphere(1);
    // One ulp apart and one ulp overlapping: within the default tolerance.
    gjk_real two = 2;
    gjk_real up = next_real(two, 3), down = next_real(two, 1);
    gjk_query_input q = query(&A, at(0, 0, 0), &B, pose(V(up, 0, 0), gjk_quat_identity()));
    results r = check_pair("spheres one ulp apart", &q, 0, TOL(4), TOL(4));
    ENSURE_VEC_NEAR(r.pe.normal, EX, TOL(1));
    q = query(&A, at(0, 0, 0), &B, pose(V(down, 0, 0), gjk_quat_identity()));
    r = check_pair("spheres one ulp overlapping", &q, 0, TOL(4), TOL(4));
    ENSURE_VEC_NEAR(r.pe.normal, EX, TOL(1));
    // A larger tolerance widens the band: 1e-3 relative to a scale of at
    // least the radii sum (2) covers a gap of 1e-3, and not a gap of 0.1
    // (the scale being well below 100).
    q = query(&A, at(0, 0, 0), &B, at(2.001, 0, 0));
    q.options.tolerance = 1e-3;
    check_pair("spheres within a wide band", &q, 0, 0.01, 0.01);
    q = query(&A, at(0, 0, 0), &B, at(1.999, 0, 0));
    q.options.tolerance = 1e-3;
    check_pair("spheres within a wide band, overlapping", &q, 0, 0.01, 0.01);
    q = query(&A, at(0, 0, 0), &B, at(2.1, 0, 0));
    q.options.tolerance = 1e-3;
    check_pair("spheres outside a wide band", &q, 0.1, 4e-3, 4e-3);
    // Boxes exactly touching, and a box touching with a gap of 1e-3 with the
    // wide band.
    gjk_shape C = gjk_make_box(V(1, 1, 1));
    q = query(&C, at(0, 0, 0), &C, at(2.001, 0.3, 0));
    q.options.tolerance = 1e-3;
    check_pair("boxes within a wide band", &q, 0, 0.01, 0.01);
}

static void test_default_options(void) {
    // Zero options are the defaults.
    gjk_shape A = gjk_make_ellipsoid(V(1, 0.5, 0.7)), B = gjk_make_cone(0.6, 0.8);
    gjk_query_input q0 = query(&A, pose(V(0, 0, 0), rnd_quat()), &B, pose(V(1.2, 0.9, 0.4), rnd_quat()));
    gjk_query_input q1 = q0;
    q1.options.max_iterations = GJK_DEFAULT_MAX_ITERATIONS;
    q1.options.max_epa_iterations = GJK_DEFAULT_MAX_EPA_ITERATIONS;
    q1.options.tolerance = GJK_DEFAULT_TOLERANCE;
    for (int shift = 0; shift < 2; ++shift) {
        if (shift) {
            q0.transform_b.position = q1.transform_b.position = V(0.4, 0.3, 0.1); // overlapping
        }
        results r0 = run_all(&q0), r1 = run_all(&q1);
        check_contract(&r0, &q0.options, TOL(4), TOL(4));
        ENSURE(r0.pe.status == r1.pe.status);
        ENSURE(r0.pe.signed_distance == r1.pe.signed_distance);
        ENSURE(r0.pe.iterations == r1.pe.iterations);
        ENSURE(r0.pe.epa_iterations == r1.pe.epa_iterations);
        ENSURE(r0.di.distance == r1.di.distance);
        ENSURE(r0.in.intersect == r1.in.intersect);
    }
}

static void test_iteration_caps(void) {
    // Curved shapes with a cap of one GJK iteration: a finite answer, and
    // NOT_CONVERGED unless it happened to converge.
    gjk_shape A = gjk_make_ellipsoid(V(1, 0.5, 0.7)), B = gjk_make_ellipsoid(V(0.4, 0.9, 0.6));
    gjk_query_input q = query(&A, pose(V(0, 0, 0), rnd_quat()), &B, pose(V(2.5, 1, 0.5), rnd_quat()));
    gjk_penetration_output exact = gjk_penetration(&q, NULL);
    ENSURE(exact.status == GJK_SEPARATED);
    q.options.max_iterations = 1;
    results r = run_all(&q);
    check_finite(&r, &q.options);
    ENSURE(r.di.status == GJK_SEPARATED || r.di.status == GJK_NOT_CONVERGED);
    ENSURE(r.pe.status == GJK_SEPARATED || r.pe.status == GJK_NOT_CONVERGED);
    ENSURE(r.in.status == GJK_SEPARATED || r.in.status == GJK_NOT_CONVERGED);
    ENSURE(r.di.iterations <= 1 && r.pe.iterations <= 1 && r.in.iterations <= 1);
    ENSURE(r.di.status == GJK_NOT_CONVERGED); // one iteration cannot pin down a curved pair
    // The witness points of the best answer so far are points of the
    // shapes: at least the true distance apart.
    ENSURE(gjk_distance_between(r.di.point_a, r.di.point_b) >= exact.signed_distance - TOL(4));
    // Overlapping with a cap of one EPA iteration: finite, unit normal.
    q.transform_b.position = V(0.5, 0.2, 0.1);
    q.options.max_iterations = 0;
    q.options.max_epa_iterations = 1;
    gjk_penetration_output p = gjk_penetration(&q, NULL);
    ENSURE(p.status == GJK_PENETRATING || p.status == GJK_NOT_CONVERGED);
    ENSURE(p.epa_iterations <= 1);
    ENSURE(gjk_is_valid_real(p.signed_distance) && gjk_is_valid_real(p.depth));
    ENSURE(gjk_is_valid_vec3(p.point_a) && gjk_is_valid_vec3(p.point_b) && gjk_is_valid_vec3(p.normal));
    ENSURE_NEAR(gjk_length(p.normal), 1, TEST_REL_TOL);
    ENSURE(p.signed_distance < 0);
}

// ---- warm start ----

static void box_vertices(gjk_vec3 half, gjk_vec3 *out) {
    for (int i = 0; i < 8; ++i) {
        out[i] = gjk_v3(i & 1 ? half.x : -half.x, i & 2 ? half.y : -half.y, i & 4 ? half.z : -half.z);
    }
}

static void test_warm_start(void) {
    gjk_vec3 va[8], vb[20];
    box_vertices(V(1, 0.6, 0.4), va);
    for (int i = 0; i < 20; ++i) {
        vb[i] = gjk_scale(rnd(0.5, 0.8), rnd_unit_vec()); // a random hull
    }
    gjk_shape A = gjk_make_polytope(va, 8), B = gjk_make_polytope(vb, 20);
    gjk_simplex_cache cache;
    memset(&cache, 0, sizeof cache);
    int cold_total = 0, warm_total = 0;
    case_begin("warm start over 100 frames");
    for (int i = 0; i < 100; ++i) {
        double t = 0.01 * i;
        gjk_transform ta = pose(V(0.1 * sin(t), 0, 0), axis_angle(0.2, 1, 0.3, 0.3 + 0.2 * t));
        gjk_transform tb = pose(V(3 + 0.3 * cos(3 * t), 0.4 * sin(2 * t), 0.2), axis_angle(1, -0.5, 0.2, 1 + 0.5 * t));
        gjk_query_input q = query(&A, ta, &B, tb);
        gjk_distance_output cold = gjk_distance(&q, NULL);
        gjk_distance_output warm = gjk_distance(&q, &cache);
        ENSURE(cold.status == GJK_SEPARATED);
        ENSURE(warm.status == cold.status);
        ENSURE_NEAR(warm.distance, cold.distance, TOL(4));
        ENSURE_VEC_NEAR(warm.normal, cold.normal, TOL(1));
        ENSURE_NEAR(gjk_distance_between(warm.point_a, warm.point_b), cold.distance, TOL(4));
        ENSURE(cache.count >= 1 && cache.count <= 4);
        cold_total += cold.iterations;
        warm_total += warm.iterations;
    }
    printf("    warm start: %d GJK iterations cold, %d warm\n", cold_total, warm_total);
    ENSURE(warm_total < cold_total);
    case_end();

    // Penetration with a cache on an overlapping moving pair: same answers.
    memset(&cache, 0, sizeof cache);
    case_begin("warm start, penetration");
    for (int i = 0; i < 30; ++i) {
        double t = 0.02 * i;
        gjk_transform ta = pose(V(0, 0, 0), axis_angle(0.2, 1, 0.3, 0.3 + t));
        gjk_transform tb = pose(V(0.3 + 0.1 * t, 0.1, 0.2 * t), axis_angle(1, -0.5, 0.2, 1 + t));
        gjk_query_input q = query(&A, ta, &B, tb);
        gjk_penetration_output cold = gjk_penetration(&q, NULL);
        gjk_penetration_output warm = gjk_penetration(&q, &cache);
        ENSURE(cold.status == GJK_PENETRATING);
        ENSURE(warm.status == cold.status);
        ENSURE_NEAR(warm.signed_distance, cold.signed_distance, TOL(4));
        ENSURE_VEC_NEAR(warm.normal, cold.normal, TOL(1));
    }
    case_end();

    // Intersect with a cache over frames that go from apart to overlapping
    // and back: the status of every frame is the cold one, in fewer
    // iterations overall; a cache left by distance queries serves too.
    memset(&cache, 0, sizeof cache);
    case_begin("warm start, intersect");
    {
        int cold_it = 0, warm_it = 0, apart = 0, overlap = 0;
        for (int i = 0; i < 200; ++i) {
            double t = 0.01 * i;
            gjk_transform ta = pose(V(0, 0, 0), axis_angle(0.2, 1, 0.3, 0.3 + 0.5 * t));
            gjk_transform tb = pose(V(1.2 + 1.5 * cos(3 * t), 0.2, 0.1), axis_angle(1, -0.5, 0.2, 1 + t));
            gjk_query_input q = query(&A, ta, &B, tb);
            gjk_intersect_output cold = gjk_intersect(&q);
            gjk_intersect_output warm = gjk_intersect_cached(&q, &cache);
            ENSURE(warm.status == cold.status);
            ENSURE(warm.intersect == cold.intersect);
            ENSURE(warm.status == gjk_penetration(&q, NULL).status);
            ENSURE(cache.count >= 1 && cache.count <= 4);
            cold_it += cold.iterations;
            warm_it += warm.iterations;
            apart += cold.status == GJK_SEPARATED;
            overlap += cold.status == GJK_PENETRATING;
            if (i % 50 == 25) {
                gjk_distance(&q, &cache); // a cache from another query
            }
        }
        printf("    warm intersect: %d GJK iterations cold, %d warm (%d frames apart, %d overlapping)\n", cold_it,
               warm_it, apart, overlap);
        ENSURE(apart > 20 && overlap > 20);
        ENSURE(warm_it < cold_it);
        // NULL cache: the plain query.
        gjk_query_input q = query(&A, at(0, 0, 0), &B, at(2.5, 0.5, 0));
        ENSURE(gjk_intersect_cached(&q, NULL).status == gjk_intersect(&q).status);
        // Garbage caches are harmless.
        for (int k = 0; k < 20; ++k) {
            gjk_simplex_cache g;
            g.count = k % 6;
            for (int m = 0; m < 4; ++m) {
                g.direction[m] = rnd_vec(-100, 100);
                g.vertex_a[m] = (int)rnd(-100, 100);
                g.vertex_b[m] = (int)rnd(-100, 100);
            }
            gjk_query_input qq = query(&A, at(0, 0, 0), &B, at(k < 10 ? 2.5 : 1.0, 0.5, 0));
            ENSURE(gjk_intersect_cached(&qq, &g).status == gjk_intersect(&qq).status);
        }
        // Spheres (closed form): the cache is reset.
        gjk_shape s1 = gjk_make_sphere(1);
        gjk_query_input qs = query(&s1, at(0, 0, 0), &s1, at(3, 0, 0));
        ENSURE(gjk_intersect_cached(&qs, &cache).status == GJK_SEPARATED);
        ENSURE(cache.count == 0);
    }
    case_end();

    // A cache filled by a different pair of shapes is harmless.
    case_begin("cache from another pair");
    {
        // (An ellipsoid: a sphere against a box is answered in closed form,
        // which leaves no simplex.)
        gjk_shape s = gjk_make_ellipsoid(V(3, 2, 2.5)), b = gjk_make_box(V(5, 4, 3));
        gjk_query_input other = query(&s, at(10, 0, 0), &b, at(-10, 2, 0));
        memset(&cache, 0, sizeof cache);
        gjk_distance(&other, &cache);
        ENSURE(cache.count >= 1);
        gjk_query_input q = query(&A, at(0, 0, 0), &B, at(2.5, 0.5, 0));
        gjk_distance_output cold = gjk_distance(&q, NULL);
        gjk_simplex_cache c2 = cache;
        gjk_distance_output warm = gjk_distance(&q, &c2);
        ENSURE(warm.status == cold.status);
        ENSURE_NEAR(warm.distance, cold.distance, TOL(4));
        c2 = cache;
        gjk_penetration_output pc = gjk_penetration(&q, NULL), pw = gjk_penetration(&q, &c2);
        ENSURE(pw.status == pc.status);
        ENSURE_NEAR(pw.signed_distance, pc.signed_distance, TOL(4));
        // ... also when the new pair overlaps.
        q = query(&A, at(0, 0, 0), &B, at(1.1, 0.2, 0));
        c2 = cache;
        pc = gjk_penetration(&q, NULL);
        pw = gjk_penetration(&q, &c2);
        ENSURE(pc.status == GJK_PENETRATING);
        ENSURE(pw.status == pc.status);
        ENSURE_NEAR(pw.signed_distance, pc.signed_distance, TOL(4));
        c2 = cache;
        gjk_intersect_output ic = gjk_intersect(&q);
        gjk_distance_output dw = gjk_distance(&q, &c2);
        ENSURE(ic.intersect);
        ENSURE(dw.status == GJK_PENETRATING);
        // The same shapes swapped (the cache's points now on the wrong shapes).
        memset(&cache, 0, sizeof cache);
        q = query(&A, at(0, 0, 0), &B, at(2.5, 0.5, 0));
        gjk_distance(&q, &cache);
        gjk_query_input qs = query(&B, at(2.5, 0.5, 0), &A, at(0, 0, 0));
        gjk_distance_output sw = gjk_distance(&qs, &cache);
        ENSURE_NEAR(sw.distance, cold.distance, TOL(4));
    }
    case_end();
    // Caches with content that cannot fit: out-of-range counts, non-finite
    // or zero directions, directions from nowhere.
    case_begin("garbage caches");
    {
        gjk_query_input q = query(&A, at(0, 0, 0), &B, at(2.5, 0.5, 0));
        gjk_distance_output cold = gjk_distance(&q, NULL);
        const int counts[] = {5, 99, -1, -1000, 4, 3};
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
            gjk_simplex_cache g;
            for (int k = 0; k < 4; ++k) {
                g.direction[k] = rnd_vec(-100, 100);
            }
            g.count = counts[i];
            if (i == 4) {
                g.direction[1].y = (gjk_real)NAN;
            }
            if (i == 5) {
                g.direction[2].z = (gjk_real)INFINITY;
            }
            gjk_distance_output w = gjk_distance(&q, &g);
            ENSURE(w.status == GJK_SEPARATED);
            ENSURE_NEAR(w.distance, cold.distance, TOL(4));
            ENSURE(gjk_is_valid_vec3(w.point_a) && gjk_is_valid_vec3(w.point_b));
            ENSURE(g.count >= 0 && g.count <= 4);
            // Degenerate cache: zero directions.
            for (int k = 0; k < 4; ++k) {
                g.direction[k] = gjk_v3_zero();
            }
            g.count = 4;
            w = gjk_distance(&q, &g);
            ENSURE_NEAR(w.distance, cold.distance, TOL(4));
            // Degenerate cache: all directions equal (one point, four times).
            for (int k = 0; k < 4; ++k) {
                g.direction[k] = gjk_v3(1, 2, 3);
            }
            g.count = 4;
            w = gjk_distance(&q, &g);
            ENSURE_NEAR(w.distance, cold.distance, TOL(4));
        }
    }
    case_end();
}

// ---- max_distance ----

/// The support point of a shape placed at t, along the world direction d.
static gjk_vec3 gjk_shape_support_world(const gjk_shape *s, gjk_transform t, gjk_vec3 d) {
    gjk_quat r = gjk_quat_normalize(t.rotation);
    return gjk_add(t.position, gjk_quat_rotate(r, gjk_shape_support(s, gjk_quat_inv_rotate(r, d))));
}

static void test_max_distance(void) {
    // Spheres 10 apart (centres 12 apart, radii 1).
    gjk_shape S = gjk_make_sphere(1);
    gjk_query_input q = query(&S, at(0, 0, 0), &S, at(12, 0, 0));
    const double true_d = 10;
    const double limits[] = {1, 5, 9.99};
    for (int i = 0; i < 3; ++i) {
        q.options.max_distance = (gjk_real)limits[i];
        gjk_distance_output d = gjk_distance(&q, NULL);
        ENSURE(d.status == GJK_SEPARATED);
        // A lower bound above the limit.
        ENSURE(d.distance > q.options.max_distance);
        ENSURE(d.distance <= true_d + TOL(12));
        ENSURE(gjk_is_valid_vec3(d.point_a) && gjk_is_valid_vec3(d.point_b) && gjk_is_valid_vec3(d.normal));
        // The witnesses are points of the shapes: at least the distance apart.
        ENSURE(gjk_distance_between(d.point_a, d.point_b) >= true_d - TOL(12));
    }
    // A limit above the distance: the exact answer.
    q.options.max_distance = 20;
    gjk_distance_output d = gjk_distance(&q, NULL);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE_NEAR(d.distance, true_d, TOL(12));
    ENSURE_VEC_NEAR(d.point_a, V(1, 0, 0), TOL(12));
    ENSURE_VEC_NEAR(d.point_b, V(11, 0, 0), TOL(12));
    // Polytope pair, far apart (boxes as 8-vertex polytopes, face gap 20).
    gjk_vec3 va[8], vb[8];
    box_vertices(V(1, 1, 1), va);
    box_vertices(V(0.5, 0.5, 0.5), vb);
    gjk_shape A = gjk_make_polytope(va, 8), B = gjk_make_polytope(vb, 8);
    q = query(&A, pose(V(0, 0, 0), axis_angle(0, 0, 1, 0.3)), &B, pose(V(21.5, 3, -2), axis_angle(1, 1, 0, 0.7)));
    gjk_distance_output exact = gjk_distance(&q, NULL);
    ENSURE(exact.status == GJK_SEPARATED);
    q.options.max_distance = 2;
    d = gjk_distance(&q, NULL);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE(d.distance > 2);
    ENSURE(d.distance <= exact.distance + TOL(30));
    ENSURE(d.iterations <= exact.iterations);
    ENSURE(gjk_distance_between(d.point_a, d.point_b) >= exact.distance - TOL(30));
    // gjk_penetration stops the same way: a lower bound above the limit,
    // in no more iterations than the full answer.
    q.options.max_distance = 0;
    gjk_penetration_output full = gjk_penetration(&q, NULL);
    ENSURE(full.status == GJK_SEPARATED);
    ENSURE_NEAR(full.signed_distance, exact.distance, TOL(30));
    q.options.max_distance = 2;
    gjk_penetration_output p = gjk_penetration(&q, NULL);
    ENSURE(p.status == GJK_SEPARATED);
    ENSURE(p.signed_distance > 2 && p.signed_distance <= exact.distance + TOL(30));
    ENSURE(p.depth == 0 && p.epa_iterations == 0);
    ENSURE(p.iterations <= full.iterations);
    ENSURE_NEAR(gjk_length(p.normal), 1, 1e-6);
    ENSURE(gjk_distance_between(p.point_a, p.point_b) >= exact.distance - TOL(30));
    // A contact margin far below the distance: proved apart by the first
    // support call (the start direction joins the origins).
    q.options.max_distance = (gjk_real)1e-3;
    p = gjk_penetration(&q, NULL);
    ENSURE(p.status == GJK_SEPARATED && p.signed_distance > (gjk_real)1e-3 && p.iterations == 0);
    // Overlapping shapes: unaffected.
    q = query(&S, at(0, 0, 0), &S, at(1.5, 0, 0));
    q.options.max_distance = 1;
    d = gjk_distance(&q, NULL);
    ENSURE(d.status == GJK_PENETRATING);
    ENSURE(d.distance == 0);
    q = query(&A, at(0, 0, 0), &B, pose(V(1.2, 0.3, -0.2), axis_angle(1, 1, 0, 0.7)));
    q.options.max_distance = 0;
    full = gjk_penetration(&q, NULL);
    q.options.max_distance = 1;
    p = gjk_penetration(&q, NULL);
    ENSURE(full.status == GJK_PENETRATING && p.status == GJK_PENETRATING);
    ENSURE(p.signed_distance == full.signed_distance && p.iterations == full.iterations &&
           p.epa_iterations == full.epa_iterations);
    // Apart by less than the limit: exact.
    q = query(&S, at(0, 0, 0), &S, at(2.5, 0, 0));
    q.options.max_distance = 1;
    d = gjk_distance(&q, NULL);
    ENSURE(d.status == GJK_SEPARATED);
    ENSURE_NEAR(d.distance, 0.5, TOL(4));
    q = query(&A, at(0, 0, 0), &B, pose(V(2.3, 0.3, -0.2), axis_angle(1, 1, 0, 0.7)));
    q.options.max_distance = 0;
    full = gjk_penetration(&q, NULL);
    q.options.max_distance = 1;
    p = gjk_penetration(&q, NULL);
    ENSURE(full.status == GJK_SEPARATED && full.signed_distance < 1);
    ENSURE(p.status == full.status && p.signed_distance == full.signed_distance);
    // Bounding balls apart beyond the limit answer alone: the balls' gap,
    // the direction between the origins, and the shapes' support points
    // along it (a box, a hull that climbs, a rounded cylinder).
    gjk_vec3 ring[16];
    for (int i = 0; i < 16; ++i) {
        ring[i] = V(cos(0.3927 * i), sin(0.3927 * i), i % 2 ? 0.5 : -0.5);
    }
    gjk_hull *ring_hull = gjk_hull_create(ring, 16, NULL);
    ENSURE(ring_hull != NULL);
    if (ring_hull != NULL) {
        gjk_shape X = gjk_make_box(V(1, 0.5, 0.25)), Y = gjk_make_hull(ring_hull);
        gjk_shape Z = gjk_with_margin(gjk_make_cylinder((gjk_real)0.5, 1), (gjk_real)0.1);
        const gjk_shape *far_shapes[3] = {&X, &Y, &Z};
        for (int k = 0; k < 9; ++k) {
            const gjk_shape *fa = far_shapes[k % 3], *fb = far_shapes[k / 3];
            q = query(fa, pose(V(0.1, -0.2, 0.3), axis_angle(1, 2, 3, 0.4 + k)), fb,
                      pose(V(6, 2.5 - k, 1), axis_angle(3, -1, 2, 1.1 * k)));
            q.options.max_distance = 0;
            gjk_distance_output dx = gjk_distance(&q, NULL);
            q.options.max_distance = (gjk_real)0.5;
            gjk_simplex_cache cache = {0};
            cache.count = 4; // left empty by an answer without a walk
            gjk_distance_output db = gjk_distance(&q, &cache);
            gjk_penetration_output pb = gjk_penetration(&q, NULL);
            ENSURE(dx.status == GJK_SEPARATED && db.status == GJK_SEPARATED && pb.status == GJK_SEPARATED);
            ENSURE(db.iterations == 0 && pb.iterations == 0 && cache.count == 0);
            ENSURE(db.distance > 0.5 && db.distance <= dx.distance + TOL(10));
            ENSURE(pb.signed_distance == db.distance && pb.depth == 0);
            ENSURE_VEC_NEAR(db.normal, gjk_normalize(gjk_sub(q.transform_b.position, q.transform_a.position)), 1e-12);
            // The points are the shapes' support points along ±normal.
            ENSURE_NEAR(gjk_dot(db.normal, db.point_a), gjk_dot(db.normal, gjk_shape_support_world(fa, q.transform_a, db.normal)), TOL(10));
            ENSURE_NEAR(gjk_dot(db.normal, db.point_b),
                        gjk_dot(db.normal, gjk_shape_support_world(fb, q.transform_b, gjk_neg(db.normal))), TOL(10));
            ENSURE(gjk_dot(gjk_sub(db.point_b, db.point_a), db.normal) >= db.distance - TOL(10));
        }
        gjk_hull_destroy(ring_hull);
    }
    // Solids of revolution with parallel axes are answered in the plane of
    // their axes, whose query must not stop at a bound: a capsule beside
    // an ellipsoid's end, 0.058 apart, came out penetrating (review).
    gjk_shape E = gjk_make_ellipsoid(V(1, 1, 2)), C = gjk_make_capsule(V(0, 0, -1), V(0, 0, 1), (gjk_real)0.5);
    const double where[2][3] = {{1, 0, 3}, {1.5, 0, 1}};
    for (int k = 0; k < 2; ++k) {
        q = query(&E, at(0, 0, 0), &C, at(where[k][0], where[k][1], where[k][2]));
        q.options.max_distance = 0;
        full = gjk_penetration(&q, NULL);
        gjk_distance_output dfull = gjk_distance(&q, NULL);
        q.options.max_distance = (gjk_real)0.01;
        p = gjk_penetration(&q, NULL);
        d = gjk_distance(&q, NULL);
        ENSURE(p.status == full.status && d.status == dfull.status);
        ENSURE(p.signed_distance <= full.signed_distance + TOL(4) && d.distance <= dfull.distance + TOL(4));
        ENSURE(p.status != GJK_SEPARATED || p.signed_distance > (gjk_real)0.01);
    }
}

/// An early stop at max_distance certifies its bound with its normal: the
/// shapes' gap along the normal is at least the bound (the plane through
/// A's support point square to it separates them by that much). Curved
/// pairs take secant steps, whose direction is not the simplex's v̂: the
/// normal was v̂, and 23 of these pairs' answers had a gap below the bound
/// (7% of such stops on random curved pairs, by up to the shapes' size).
static void test_max_distance_normal_certifies(void) {
    rng r = {0x5eed0a11u};
    int stops = 0;
    for (int i = 0; i < 120; ++i) {
        gjk_shape s[2];
        for (int k = 0; k < 2; ++k) {
            d3 e = rng_box(&r, 0.3, 1.3);
            int kind = rng_int(&r, 3);
            s[k] = kind == 0   ? gjk_make_ellipsoid(to_real3(e))
                   : kind == 1 ? gjk_make_cone(to_real(e.x), to_real(e.y))
                               : gjk_make_cylinder(to_real(e.x), to_real(e.y));
        }
        gjk_quat qa = rng_quat(&r), qb = rng_quat(&r);
        double dist = rng_range(&r, 0.5, 3.5);
        gjk_vec3 offset = gjk_scale((gjk_real)dist, to_real3(rng_dir3(&r, 0.1)));
        gjk_query_input q = query(&s[0], pose(V(0, 0, 0), qa), &s[1], pose(offset, qb));
        gjk_distance_output full = gjk_distance(&q, NULL);
        if (full.status != GJK_SEPARATED) {
            continue;
        }
        const double fraction[3] = {0.5, 0.9, 0.99};
        for (int f = 0; f < 3; ++f) {
            q.options.max_distance = (gjk_real)(fraction[f] * (double)full.distance);
            gjk_distance_output d = gjk_distance(&q, NULL);
            gjk_penetration_output p = gjk_penetration(&q, NULL);
            ENSURE(d.status == GJK_SEPARATED && p.status == GJK_SEPARATED);
            ENSURE(d.distance > q.options.max_distance && d.distance <= full.distance + TOL(8));
            stops += d.iterations < full.iterations;
            gjk_vec3 na = gjk_shape_support_world(&s[0], q.transform_a, d.normal);
            gjk_vec3 nb = gjk_shape_support_world(&s[1], q.transform_b, gjk_neg(d.normal));
            ENSURE((double)gjk_dot(d.normal, gjk_sub(nb, na)) >= (double)d.distance - TOL(8));
            na = gjk_shape_support_world(&s[0], q.transform_a, p.normal);
            nb = gjk_shape_support_world(&s[1], q.transform_b, gjk_neg(p.normal));
            ENSURE((double)gjk_dot(p.normal, gjk_sub(nb, na)) >= (double)p.signed_distance - TOL(8));
        }
    }
    ENSURE(stops > 100); // the early stop is what is tested
}

// ---- invalid input ----

static int nan_support_calls = 0;

static gjk_vec3 nan_support(const void *user_data, gjk_vec3 d) {
    (void)user_data;
    (void)d;
    ++nan_support_calls;
    return gjk_v3((gjk_real)NAN, 0, 0);
}

/// NaN in the component given by *user_data (0, 1 or 2) of a unit sphere's support.
static gjk_vec3 nan_component_support(const void *user_data, gjk_vec3 d) {
    int k = *(const int *)user_data;
    gjk_vec3 p = gjk_normalize(d);
    if (k == 0) {
        p.x = (gjk_real)NAN;
    } else if (k == 1) {
        p.y = (gjk_real)NAN;
    } else {
        p.z = (gjk_real)NAN;
    }
    return p;
}

static gjk_vec3 inf_support(const void *user_data, gjk_vec3 d) {
    (void)user_data;
    (void)d;
    return gjk_v3(0, (gjk_real)INFINITY, 0);
}

/// A unit sphere whose support is NaN for directions with negative x only.
static gjk_vec3 half_nan_support(const void *user_data, gjk_vec3 d) {
    (void)user_data;
    if (d.x < 0) {
        return gjk_v3(0, 0, (gjk_real)NAN);
    }
    return gjk_normalize(d);
}

static void ensure_zero_vec(gjk_vec3 v) { ENSURE(is_zero_vec(v)); }

static void expect_invalid(const char *label, const gjk_query_input *q) {
    case_begin(label);
    gjk_intersect_output in = gjk_intersect(q);
    ENSURE(in.status == GJK_INVALID_INPUT);
    ENSURE(!in.intersect);
    ENSURE(in.iterations == 0);
    for (int c = 0; c < 2; ++c) {
        gjk_simplex_cache cache;
        memset(&cache, 0, sizeof cache);
        gjk_simplex_cache *cp = c ? &cache : NULL;
        gjk_distance_output di = gjk_distance(q, cp);
        ENSURE(di.status == GJK_INVALID_INPUT);
        ENSURE(di.distance == 0);
        ensure_zero_vec(di.point_a);
        ensure_zero_vec(di.point_b);
        ensure_zero_vec(di.normal);
        ENSURE(di.iterations == 0);
        gjk_penetration_output pe = gjk_penetration(q, cp);
        ENSURE(pe.status == GJK_INVALID_INPUT);
        ENSURE(pe.signed_distance == 0);
        ENSURE(pe.depth == 0);
        ensure_zero_vec(pe.point_a);
        ensure_zero_vec(pe.point_b);
        ensure_zero_vec(pe.normal);
        ENSURE(pe.iterations == 0);
        ENSURE(pe.epa_iterations == 0);
    }
    case_end();
}

static void test_invalid_input(void) {
    const gjk_real nan = (gjk_real)NAN, inf = (gjk_real)INFINITY;
    gjk_shape S = gjk_make_sphere(1), Bx = gjk_make_box(V(1, 1, 1));
    const gjk_transform ta = at(0, 0, 0), tb = at(3, 0, 0);
    gjk_query_input q;

    q = query(NULL, ta, &S, tb);
    expect_invalid("NULL shape_a", &q);
    q = query(&S, ta, NULL, tb);
    expect_invalid("NULL shape_b", &q);
    q = query(NULL, ta, NULL, tb);
    expect_invalid("NULL shapes", &q);

    q = query(&S, pose(V(nan, 0, 0), gjk_quat_identity()), &Bx, tb);
    expect_invalid("NaN position of A", &q);
    q = query(&S, ta, &Bx, pose(V(3, 0, nan), gjk_quat_identity()));
    expect_invalid("NaN position of B", &q);
    q = query(&S, ta, &Bx, pose(V(3, inf, 0), gjk_quat_identity()));
    expect_invalid("infinite position of B", &q);
    q = query(&S, pose(V(0, 0, 0), gjk_quat_make(inf, 0, 0, 0)), &Bx, tb);
    expect_invalid("infinite rotation w of A", &q);
    q = query(&S, ta, &Bx, pose(V(3, 0, 0), gjk_quat_make(1, 0, -inf, 0)));
    expect_invalid("infinite rotation y of B", &q);
    q = query(&S, ta, &Bx, pose(V(3, 0, 0), gjk_quat_make(nan, 0, 0, 0)));
    expect_invalid("NaN rotation of B", &q);
    q = query(&S, pose(V(0, 0, 0), gjk_quat_make(0, 0, 0, 0)), &Bx, tb);
    expect_invalid("zero quaternion of A", &q);
    q = query(&S, ta, &Bx, pose(V(3, 0, 0), gjk_quat_make(0, 0, 0, 0)));
    expect_invalid("zero quaternion of B", &q);

    gjk_shape neg_sphere = gjk_make_sphere(-1);
    q = query(&neg_sphere, ta, &Bx, tb);
    expect_invalid("negative sphere radius", &q);
    gjk_shape neg_capsule = gjk_make_capsule(V(0, 0, 0), V(1, 0, 0), -0.5);
    q = query(&S, ta, &neg_capsule, tb);
    expect_invalid("negative capsule radius", &q);
    gjk_shape neg_margin = gjk_with_margin(Bx, -0.1);
    q = query(&S, ta, &neg_margin, tb);
    expect_invalid("negative margin", &q);
    gjk_shape nan_box = gjk_make_box(V(1, nan, 1));
    q = query(&nan_box, ta, &S, tb);
    expect_invalid("NaN box extent", &q);
    gjk_shape neg_box = gjk_make_box(V(1, -1, 1));
    q = query(&neg_box, ta, &S, tb);
    expect_invalid("negative box extent", &q);
    gjk_vec3 verts[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    gjk_shape empty = gjk_make_polytope(verts, 0);
    q = query(&S, ta, &empty, tb);
    expect_invalid("empty polytope", &q);
    gjk_shape negative_count = gjk_make_polytope(verts, -3);
    q = query(&negative_count, ta, &S, tb);
    expect_invalid("polytope count -3", &q);
    gjk_shape null_verts = gjk_make_polytope(NULL, 4);
    q = query(&S, ta, &null_verts, tb);
    expect_invalid("polytope NULL vertices", &q);
    verts[2].x = nan;
    gjk_shape nan_poly = gjk_make_polytope(verts, 4);
    q = query(&S, ta, &nan_poly, tb);
    expect_invalid("polytope NaN vertex (third of four)", &q);
    q = query(&nan_poly, ta, &S, tb);
    expect_invalid("polytope NaN vertex (third of four), as A", &q);
    verts[2].x = 0;
    verts[0].y = nan;
    q = query(&S, ta, &nan_poly, tb);
    expect_invalid("polytope NaN vertex (first)", &q);
    verts[0].y = 0;
    verts[3].z = inf;
    q = query(&S, ta, &nan_poly, tb);
    expect_invalid("polytope infinite vertex (last)", &q);
    gjk_shape null_fn = gjk_make_custom(NULL, NULL, 1);
    q = query(&null_fn, ta, &S, tb);
    expect_invalid("custom NULL support", &q);
    gjk_shape unknown = gjk_make_sphere(1);
    unknown.type = (gjk_shape_type)99;
    q = query(&S, ta, &unknown, tb);
    expect_invalid("unknown shape type", &q);

    // Custom support returning NaN / infinity: found while querying.
    nan_support_calls = 0;
    gjk_shape nan_custom = gjk_make_custom(nan_support, NULL, 1);
    q = query(&nan_custom, ta, &S, tb);
    expect_invalid("custom support returns NaN (A)", &q);
    ENSURE(nan_support_calls > 0);
    q = query(&S, ta, &nan_custom, tb);
    expect_invalid("custom support returns NaN (B)", &q);
    static const int components[3] = {0, 1, 2};
    static const char *const nan_labels[2][3] = {
        {"custom A support NaN in x", "custom A support NaN in y", "custom A support NaN in z"},
        {"custom B support NaN in x", "custom B support NaN in y", "custom B support NaN in z"}};
    for (int k = 0; k < 3; ++k) {
        gjk_shape c = gjk_make_custom(nan_component_support, &components[k], 1);
        q = query(&c, ta, &S, tb);
        expect_invalid(nan_labels[0][k], &q);
        q = query(&S, ta, &c, tb);
        expect_invalid(nan_labels[1][k], &q);
    }
    gjk_shape inf_custom = gjk_make_custom(inf_support, NULL, 1);
    q = query(&Bx, ta, &inf_custom, tb);
    expect_invalid("custom support returns inf", &q);
    // NaN only for directions with d.x < 0: A at the origin, B at -x, so the
    // query must look that way (overlapping and apart).
    gjk_shape half_nan = gjk_make_custom(half_nan_support, NULL, 1);
    q = query(&half_nan, ta, &S, at(-3, 0, 0));
    expect_invalid("custom support NaN on one side, apart", &q);
    q = query(&half_nan, ta, &S, at(-0.5, 0, 0));
    expect_invalid("custom support NaN on one side, overlapping", &q);
    // ... and that shape is fine where the NaN side is never needed? Not
    // promised either way; just never crash and stay finite.
    q = query(&half_nan, ta, &S, at(3, 0, 0));
    results r = run_all(&q);
    ENSURE(r.pe.status == GJK_INVALID_INPUT || r.pe.status == GJK_SEPARATED);
    check_finite(&r, &q.options);
}

// ---- far apart: the balls about the shapes' origins ----

/// gjk_intersect proves pairs apart from balls about the shapes' origins
/// before setting up their relative pose. The statuses of the three queries
/// agree at every distance from the balls' threshold (just beyond it, where
/// the tolerance decides, and inside it, where the full path does); pairs
/// far beyond it are answered by the balls (the cache is cleared, where the
/// walk would leave its simplex); invalid input far apart is still reported.
static void test_far_apart_balls(void) {
    enum { NP = 40, NS = 8 };
    gjk_vec3 pts[NP];
    double hull_r = 0;
    for (int i = 0; i < NP; ++i) {
        pts[i] = gjk_scale(rnd(0.3, 0.7), rnd_unit_vec());
        hull_r = fmax(hull_r, (double)gjk_length(pts[i])); // the farthest point is a vertex
    }
    gjk_hull *h = gjk_hull_create(pts, NP, NULL);
    ENSURE(h != NULL);
    if (h == NULL) {
        return;
    }
    gjk_vec3 t0 = V(0.5, 0, 0), t1 = V(-0.2, 0.4, 0.1), t2 = V(0, -0.3, 0.6);
    const gjk_shape shapes[NS] = {
        gjk_make_box(V(0.5, 0.3, 0.2)),      gjk_with_margin(gjk_make_box(V(0.5, 0.3, 0.2)), 0.1),
        gjk_make_cylinder(0.4, 0.6),         gjk_make_cone(0.5, 0.4),
        gjk_make_ellipsoid(V(0.5, 0.3, 0.4)), gjk_make_triangle(t0, t1, t2),
        gjk_make_hull(h),                    gjk_with_margin(gjk_make_hull(h), 0.05)};
    // Each ball's radius, worked out here: the farthest point of the core
    // from its origin, plus the margin.
    const double ball[NS] = {sqrt(0.25 + 0.09 + 0.04), sqrt(0.25 + 0.09 + 0.04) + 0.1, sqrt(0.16 + 0.36),
                             sqrt(0.25 + 0.16), 0.5, fmax(0.5, sqrt(0.36 + 0.09)), hull_r, hull_r + 0.05};
    const double beyond[] = {2, 0.5, 1e-3, 1e-7, 1e-11, 0, -0.05};
    int by_balls = 0;
    for (int i = 0; i < NS; ++i) {
        for (int j = 0; j < NS; ++j) {
            for (int k = 0; k < (int)(sizeof beyond / sizeof beyond[0]); ++k) {
                double reach = ball[i] + ball[j];
                gjk_vec3 u = rnd_unit_vec();
                gjk_transform ta = pose(rnd_vec(-3, 3), rnd_quat());
                gjk_vec3 cb = gjk_add(ta.position, gjk_scale((gjk_real)(reach * (1 + beyond[k])), u));
                gjk_transform tb = pose(cb, rnd_quat());
                gjk_query_input q = query(&shapes[i], ta, &shapes[j], tb);
                case_begin("balls: statuses agree");
                gjk_intersect_output in = gjk_intersect(&q);
                gjk_distance_output di = gjk_distance(&q, NULL);
                gjk_penetration_output pe = gjk_penetration(&q, NULL);
                ENSURE(in.status == di.status && di.status == pe.status);
                ENSURE(in.intersect == (in.status != GJK_SEPARATED));
                if (beyond[k] >= 1e-3) {
                    // Apart by at least the balls' gap.
                    ENSURE(in.status == GJK_SEPARATED);
                    ENSURE(di.distance >= reach * beyond[k] * (1 - 1e-6));
                }
                if (beyond[k] >= 0.5) {
                    // A cache the walk filled near contact is cleared by
                    // the balls' answer (the walk would store its simplex).
                    gjk_simplex_cache cache;
                    memset(&cache, 0, sizeof cache);
                    gjk_vec3 cn = gjk_add(ta.position, gjk_scale((gjk_real)(0.3 * reach), u));
                    gjk_query_input near = query(&shapes[i], ta, &shapes[j], pose(cn, rnd_quat()));
                    (void)gjk_intersect_cached(&near, &cache);
                    bool filled = cache.count > 0;
                    gjk_intersect_output ic = gjk_intersect_cached(&q, &cache);
                    ENSURE(ic.status == GJK_SEPARATED && ic.iterations == 0);
                    ENSURE(cache.count == 0);
                    by_balls += filled && cache.count == 0;
                }
                if (test_failures > case_failures) {
                    fprintf(stderr, "    shapes %d %d, beyond %g: intersect %d, distance %d (%.17g), penetration %d\n",
                            i, j, beyond[k], (int)in.status, (int)di.status, (double)di.distance, (int)pe.status);
                }
                case_end();
            }
        }
    }
    // The boxes' pairs fill no cache (their axes answer), the others do.
    ENSURE(by_balls == 2 * (NS * NS - 4));
    // Two ellipsoids whose long axes meet on the line of their centres fill
    // their balls there: apart by a tenth of the tolerance, they touch, as
    // the balls must not hide (nor a box's corner pointing at a hull's
    // farthest vertex).
    gjk_real gap = (gjk_real)(0.1 * GJK_DEFAULT_TOLERANCE);
    gjk_query_input q =
        query(&shapes[4], at(0, 0, 0), &shapes[4], pose(V(1 + (double)gap, 0, 0), gjk_quat_identity()));
    case_begin("balls: ellipsoids touching at their balls");
    ENSURE(gjk_intersect(&q).status == GJK_TOUCHING);
    ENSURE(gjk_distance(&q, NULL).status == GJK_TOUCHING);
    case_end();
#if !GJK_USE_FLOAT
    // The same at 2e-157, overlapping by 1e-12 of the size, at tolerance
    // 1e-15: the lengths' squares are subnormal there and 1e-12 off, so the
    // balls must leave the pair to the full path (a review's probe).
    const double tiny = 2.0393900436875564e-157;
    gjk_shape E = gjk_make_ellipsoid(V(tiny, 0.5 * tiny, 0.4 * tiny));
    q = query(&E, at(0, 0, 0), &E, at(4.0787800873666344e-157, 0, 0));
    q.options.tolerance = 1e-15;
    case_begin("balls: ellipsoids of size 2e-157 overlapping by 1e-12 of it");
    ENSURE(gjk_intersect(&q).status == gjk_distance(&q, NULL).status);
    ENSURE(gjk_intersect(&q).status != GJK_SEPARATED);
    case_end();
#endif
    // Invalid input far apart: reported, not taken for apart.
    const gjk_real nan = (gjk_real)NAN;
    const gjk_shape *H = &shapes[6], *B = &shapes[0];
    gjk_transform far = at(100, 0, 0);
    q = query(B, at(0, 0, 0), B, pose(V(100, 0, 0), gjk_quat_make(nan, 0, 0, 0)));
    expect_invalid("far apart: NaN rotation of B", &q);
    q = query(H, pose(V(0, 0, 0), gjk_quat_make(0, 0, 0, 0)), B, far);
    expect_invalid("far apart: zero quaternion of A", &q);
    gjk_shape bad = gjk_with_margin(*B, -0.1);
    q = query(H, at(0, 0, 0), &bad, far);
    expect_invalid("far apart: negative margin", &q);
    bad = gjk_make_box(V(0.5, nan, 0.2));
    q = query(&bad, at(0, 0, 0), H, far);
    expect_invalid("far apart: NaN half extent", &q);
    bad = *H;
    bad.polytope.count = 5;
    q = query(B, at(0, 0, 0), &bad, far);
    expect_invalid("far apart: a hull shape that is not its hull's", &q);
    q = query(H, at(0, 0, 0), B, far);
    q.options.tolerance = -1;
    expect_invalid("far apart: negative tolerance", &q);
    q.options.tolerance = 0;
    q.options.max_iterations = -1;
    expect_invalid("far apart: negative iteration cap", &q);
    gjk_hull_destroy(h);
}

/// options.tolerance below the arithmetic's resolution counts as
/// GJK_MIN_TOLERANCE. Two boxes with one centre, B within 200 units in the
/// last place of a quarter turn about z, overlap by about 0.5 along x. The walk's
/// triangle then passes through the origin, and rounding leaves its closest
/// point a few ε of the size away from it. Asked for 1e-30 or 1e-20,
/// beneath that noise, the three queries took the noise for a distance and
/// answered "separated" (101 of 200 poses in double, 105 in float; no
/// failures at ε/2 and above).
static void test_tolerance_below_rounding(void) {
    const gjk_real tolerances[] = {(gjk_real)1e-30, (gjk_real)1e-20, GJK_MIN_TOLERANCE / 2, 0};
    const gjk_real h = (gjk_real)0.70710678118654757;
    gjk_shape A = gjk_make_box(gjk_v3((gjk_real)0.25, (gjk_real)0.75, (gjk_real)1.25));
    gjk_shape B = gjk_make_box(gjk_v3((gjk_real)0.75, (gjk_real)0.25, (gjk_real)1.5));
    for (int c = 0; c < 4; ++c) {
        int wrong = 0;
        gjk_real z = h;
        for (int k = 0; k < 200; ++k) {
            z = next_real(z, 0);
            gjk_query_input q;
            memset(&q, 0, sizeof q);
            q.shape_a = &A, q.shape_b = &B;
            q.transform_a = gjk_transform_identity();
            q.transform_b = gjk_transform_make(gjk_v3(0, 0, 0), gjk_quat_make(h, 0, 0, z));
            q.options.tolerance = tolerances[c];
            gjk_penetration_output o = gjk_penetration(&q, NULL);
            gjk_distance_output d = gjk_distance(&q, NULL);
            gjk_intersect_output in = gjk_intersect(&q);
            // Along x: A's 0.25 and B's 0.75 |cos θ| + 0.25 |sin θ|.
            double theta = 2 * atan2((double)z, (double)h);
            double depth = 0.25 + 0.75 * fabs(cos(theta)) + 0.25 * fabs(sin(theta));
            bool right = o.status == GJK_PENETRATING && fabs((double)o.depth - depth) < 1e-5 &&
                         gjk_abs(o.normal.x) > (gjk_real)0.999 && d.status == GJK_PENETRATING &&
                         in.status == GJK_PENETRATING;
            wrong += !right;
        }
        if (wrong != 0) {
            fprintf(stderr, "tolerance %g: %d of 200 poses wrong\n", (double)tolerances[c], wrong);
        }
        ENSURE(wrong == 0);
    }
    // The floor itself: below it every tolerance gives the same answer.
    gjk_query_input q;
    memset(&q, 0, sizeof q);
    q.shape_a = &A, q.shape_b = &B;
    q.transform_a = gjk_transform_identity();
    q.transform_b = gjk_transform_make(gjk_v3((gjk_real)0.1, 0, 0), gjk_quat_make(h, 0, 0, h));
    q.options.tolerance = GJK_MIN_TOLERANCE;
    gjk_penetration_output at = gjk_penetration(&q, NULL);
    q.options.tolerance = (gjk_real)1e-30;
    gjk_penetration_output below = gjk_penetration(&q, NULL);
    ENSURE(at.status == below.status && at.depth == below.depth && at.iterations == below.iterations);
}

int main(void) {
    RUN_TEST(test_reference_helpers);
    RUN_TEST(test_sphere_sphere);
    RUN_TEST(test_box_box_faces);
    RUN_TEST(test_box_box_edges_vertices);
    RUN_TEST(test_box_box_rotated);
    RUN_TEST(test_box_sphere);
    RUN_TEST(test_capsule_capsule);
    RUN_TEST(test_point_triangle);
    RUN_TEST(test_segment_triangle);
    RUN_TEST(test_curved_on_box);
    RUN_TEST(test_margins);
    RUN_TEST(test_custom_shape);
    RUN_TEST(test_random_pairs_agree);
    RUN_TEST(test_touching_band);
    RUN_TEST(test_default_options);
    RUN_TEST(test_iteration_caps);
    RUN_TEST(test_warm_start);
    RUN_TEST(test_max_distance);
    RUN_TEST(test_max_distance_normal_certifies);
    RUN_TEST(test_invalid_input);
    RUN_TEST(test_far_apart_balls);
    RUN_TEST(test_tolerance_below_rounding);
    return TEST_SUMMARY();
}
