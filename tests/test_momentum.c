// The GJK walk's secant steps (src/gjk.c, "Secant steps") on curved shapes, against
// an independent reference.
//
// Reference. For two ellipsoids E = {c + R diag(r) u : |u| ≤ 1} (a sphere's
// core is its centre: r = 0) the distance of the cores is, by convex
// duality, the largest separation over unit directions n of the support
// functions (h_E(n) = n·c + |diag(r) Rᵀ n|):
//   dist = max over |n| = 1 of  n·(c_A − c_B) − |diag(r_A) R_Aᵀ n| − |diag(r_B) R_Bᵀ n|.
// The function is positively homogeneous and concave in n, so its values on
// the unit sphere, seen through the gnomonic map n = (n0 + u e1 + v e2)/|·|
// (great circles are straight lines), are quasi-concave in (u, v): a nested
// golden-section search finds the maximum, here in long double after a
// coarse search over the whole sphere. No support point, simplex or GJK
// iteration is involved. Spheres written as ellipsoids with equal radii
// also have the closed form |c_A − c_B| − r_A − r_B.
//
// Checks: answers with secant steps against the reference and against the
// plain walk (never less accurate, same status, at most half the
// iterations) on deterministic poses from far apart to nearly touching; the
// walk's bounds at every traced iteration (lower ≤ distance ≤ upper);
// secant steps forced on flat shapes (boxes, cylinders, cones, hulls)
// agreeing with the plain walk; warm-started queries along a path and with
// a foreign cache; early exits (max_distance, intersect). The choice of the
// pairs that take secant steps is checked too. (The file keeps the name of
// the method the walks used before, Nesterov's momentum.)
#include <math.h>
#include <string.h>

#include "gjk/hull.h"
#include "internal.h"
#include "internal2.h"
#include "test_util.h"

typedef long double ld;

typedef struct ellipsoid_ref {
    ld c[3];    ///< centre (world)
    ld m[3][3]; ///< R diag(r): the columns are the scaled axes
} ellipsoid_ref;

/// The rotation of a unit quaternion as a matrix, in long double.
static void quat_matrix(gjk_quat q, ld out[3][3]) {
    ld w = q.w, x = q.x, y = q.y, z = q.z;
    ld n = sqrtl(w * w + x * x + y * y + z * z);
    w /= n, x /= n, y /= n, z /= n;
    out[0][0] = 1 - 2 * (y * y + z * z), out[0][1] = 2 * (x * y - w * z), out[0][2] = 2 * (x * z + w * y);
    out[1][0] = 2 * (x * y + w * z), out[1][1] = 1 - 2 * (x * x + z * z), out[1][2] = 2 * (y * z - w * x);
    out[2][0] = 2 * (x * z - w * y), out[2][1] = 2 * (y * z + w * x), out[2][2] = 1 - 2 * (x * x + y * y);
}

static ellipsoid_ref make_ref(gjk_vec3 radii, gjk_transform t) {
    ellipsoid_ref e;
    ld r[3][3];
    quat_matrix(t.rotation, r);
    ld rad[3] = {radii.x, radii.y, radii.z};
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            e.m[i][j] = r[i][j] * rad[j];
        }
    }
    e.c[0] = t.position.x, e.c[1] = t.position.y, e.c[2] = t.position.z;
    return e;
}

/// |Mᵀ n|: the support of the centred ellipsoid along n.
static ld support_len(const ellipsoid_ref *e, const ld n[3]) {
    ld s = 0;
    for (int j = 0; j < 3; ++j) {
        ld t = e->m[0][j] * n[0] + e->m[1][j] * n[1] + e->m[2][j] * n[2];
        s += t * t;
    }
    return sqrtl(s);
}

/// The separation of A and B along the unit n (from B toward A).
static ld separation(const ellipsoid_ref *a, const ellipsoid_ref *b, const ld n[3]) {
    ld dc = 0;
    for (int i = 0; i < 3; ++i) {
        dc += n[i] * (a->c[i] - b->c[i]);
    }
    return dc - support_len(a, n) - support_len(b, n);
}

typedef struct gnomonic {
    const ellipsoid_ref *a, *b;
    ld n0[3], e1[3], e2[3];
} gnomonic;

static ld gnomonic_value(const gnomonic *g, ld u, ld v) {
    ld n[3], len = 0;
    for (int i = 0; i < 3; ++i) {
        n[i] = g->n0[i] + u * g->e1[i] + v * g->e2[i];
        len += n[i] * n[i];
    }
    len = sqrtl(len);
    for (int i = 0; i < 3; ++i) {
        n[i] /= len;
    }
    return separation(g->a, g->b, n);
}

static const ld GOLDEN = 0.61803398874989484820458683436563811772L;

/// max over v in [−h, h] of the value at (u, v), by golden sections.
static ld inner_max(const gnomonic *g, ld u, ld h) {
    ld lo = -h, hi = h;
    ld x1 = hi - GOLDEN * (hi - lo), x2 = lo + GOLDEN * (hi - lo);
    ld f1 = gnomonic_value(g, u, x1), f2 = gnomonic_value(g, u, x2);
    for (int it = 0; it < 70; ++it) {
        if (f1 < f2) {
            lo = x1, x1 = x2, f1 = f2;
            x2 = lo + GOLDEN * (hi - lo);
            f2 = gnomonic_value(g, u, x2);
        } else {
            hi = x2, x2 = x1, f2 = f1;
            x1 = hi - GOLDEN * (hi - lo);
            f1 = gnomonic_value(g, u, x1);
        }
    }
    return f1 > f2 ? f1 : f2;
}

/// The largest separation near the direction bn: nested golden sections
/// in gnomonic coordinates about it.
static ld fine_max(const ellipsoid_ref *a, const ellipsoid_ref *b, const ld bn[3]) {
    gnomonic g;
    g.a = a, g.b = b;
    memcpy(g.n0, bn, sizeof g.n0);
    ld t[3] = {1, 0, 0};
    if (fabsl(bn[0]) > 0.6L) {
        t[0] = 0, t[1] = 1;
    }
    ld e1[3] = {bn[1] * t[2] - bn[2] * t[1], bn[2] * t[0] - bn[0] * t[2], bn[0] * t[1] - bn[1] * t[0]};
    ld l1 = sqrtl(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    for (int i = 0; i < 3; ++i) {
        e1[i] /= l1;
    }
    ld e2[3] = {bn[1] * e1[2] - bn[2] * e1[1], bn[2] * e1[0] - bn[0] * e1[2], bn[0] * e1[1] - bn[1] * e1[0]};
    memcpy(g.e1, e1, sizeof e1);
    memcpy(g.e2, e2, sizeof e2);
    const ld h = 0.25L; // well beyond the lattice's spacing (about 0.056 rad)
    ld lo = -h, hi = h;
    ld x1 = hi - GOLDEN * (hi - lo), x2 = lo + GOLDEN * (hi - lo);
    ld f1 = inner_max(&g, x1, h), f2 = inner_max(&g, x2, h);
    for (int it = 0; it < 70; ++it) {
        if (f1 < f2) {
            lo = x1, x1 = x2, f1 = f2;
            x2 = lo + GOLDEN * (hi - lo);
            f2 = inner_max(&g, x2, h);
        } else {
            hi = x2, x2 = x1, f2 = f1;
            x1 = hi - GOLDEN * (hi - lo);
            f1 = inner_max(&g, x1, h);
        }
    }
    return f1 > f2 ? f1 : f2;
}

/// The distance of the two ellipsoid cores (positive: apart), see the top,
/// searched finely about the `starts` best directions of the coarse lattice
/// that lie at least 0.3 rad apart (deep poses of two ellipsoids have
/// several local maxima, and one search from the best lattice point can
/// end on another than the largest).
static ld reference_distance_starts(const ellipsoid_ref *a, const ellipsoid_ref *b, int starts) {
    // Coarse search: a Fibonacci lattice of directions over the sphere.
    enum { N = 4000, MAX_STARTS = 8 };
    ld best[MAX_STARTS], bn[MAX_STARTS][3];
    int kept = 0;
    starts = starts < MAX_STARTS ? starts : MAX_STARTS;
    for (int k = 0; k < N; ++k) {
        ld z = 1 - (2 * (ld)k + 1) / N, rho = sqrtl(1 - z * z);
        ld phi = (ld)k * 2.39996322972865332223L;
        ld n[3] = {rho * cosl(phi), rho * sinl(phi), z};
        ld s = separation(a, b, n);
        // Replace the kept direction within 0.3 rad (cos 0.955) if this one is
        // better; else take a free slot or the worst kept one.
        int slot = -1;
        for (int j = 0; j < kept; ++j) {
            if (n[0] * bn[j][0] + n[1] * bn[j][1] + n[2] * bn[j][2] > 0.955L) {
                slot = j;
                break;
            }
        }
        if (slot < 0) {
            if (kept < starts) {
                slot = kept++;
                best[slot] = -1e30L;
            } else {
                slot = 0;
                for (int j = 1; j < kept; ++j) {
                    slot = best[j] < best[slot] ? j : slot;
                }
            }
        }
        if (s > best[slot]) {
            best[slot] = s;
            memcpy(bn[slot], n, sizeof bn[slot]);
        }
    }
    ld out = -1e30L;
    for (int j = 0; j < kept; ++j) {
        ld fine = fine_max(a, b, bn[j]);
        out = fmaxl(out, fmaxl(fine, best[j]));
    }
    return out;
}

/// The distance of the two ellipsoid cores (positive: apart), see the top:
/// one fine search, about the best lattice direction.
static ld reference_distance(const ellipsoid_ref *a, const ellipsoid_ref *b) {
    return reference_distance_starts(a, b, 1);
}

// ---------------------------------------------------------------------------
// Shapes and poses.

/// A user shape: the ellipsoid of the given radii (user_data), written here.
static gjk_vec3 custom_ellipsoid(const void *user_data, gjk_vec3 d) {
    const gjk_vec3 *r = user_data;
    double rx = (double)r->x * (double)d.x, ry = (double)r->y * (double)d.y, rz = (double)r->z * (double)d.z;
    double len = sqrt(rx * rx + ry * ry + rz * rz);
    if (!(len > 0)) {
        return gjk_v3_zero();
    }
    return gjk_v3((gjk_real)((double)r->x * rx / len), (gjk_real)((double)r->y * ry / len),
                  (gjk_real)((double)r->z * rz / len));
}

static const gjk_vec3 CUSTOM_RADII = {(gjk_real)1.0, (gjk_real)0.8, (gjk_real)0.6};

/// A pair kind: two shapes, the radii of their ellipsoid cores for the
/// reference (zero for a sphere's point core) and the rounding radius.
typedef struct pair_kind {
    const char *name;
    gjk_shape a, b;
    gjk_vec3 ra, rb;   ///< core radii for the reference
    gjk_real rounding; ///< sum of the rounding radii (spheres)
    bool equal_radii;  ///< both are balls: the closed form applies
} pair_kind;

#define NKINDS 5

static void make_kinds(pair_kind k[NKINDS]) {
    gjk_vec3 e1 = gjk_v3((gjk_real)1.0, (gjk_real)0.8, (gjk_real)0.6);
    gjk_vec3 e2 = gjk_v3((gjk_real)0.9, (gjk_real)0.7, (gjk_real)0.5);
    gjk_vec3 zero = gjk_v3_zero();
    k[0] = (pair_kind){"ellipsoid-ellipsoid", gjk_make_ellipsoid(e1), gjk_make_ellipsoid(e2), e1, e2, 0, false};
    // (The spheres as points with a margin that the walk answers: a sphere
    // against an ellipsoid is otherwise a closed form.)
    k[1] = (pair_kind){"ellipsoid-sphere", gjk_make_ellipsoid(e1), gjk_with_margin(walk_point(), (gjk_real)0.7), e1, zero,
                       (gjk_real)0.7, false};
    k[2] = (pair_kind){"sphere-ellipsoid", gjk_with_margin(walk_point(), (gjk_real)0.5), gjk_make_ellipsoid(e2), zero, e2,
                       (gjk_real)0.5, false};
    k[3] = (pair_kind){"custom-ellipsoid", gjk_make_custom(custom_ellipsoid, &CUSTOM_RADII, 1),
                       gjk_make_ellipsoid(e2), CUSTOM_RADII, e2, 0, false};
    gjk_vec3 b1 = gjk_v3((gjk_real)0.75, (gjk_real)0.75, (gjk_real)0.75);
    gjk_vec3 b2 = gjk_v3((gjk_real)0.5, (gjk_real)0.5, (gjk_real)0.5);
    k[4] = (pair_kind){"balls as ellipsoids", gjk_make_ellipsoid(b1), gjk_make_ellipsoid(b2), b1, b2, 0, true};
}

static gjk_quat random_quat(rng *r) {
    for (;;) {
        double q[4], n = 0;
        for (int i = 0; i < 4; ++i) {
            q[i] = rng_range(r, -1, 1);
            n += q[i] * q[i];
        }
        if (n > 0.01 && n <= 1) {
            n = sqrt(n);
            return gjk_quat_make((gjk_real)(q[0] / n), (gjk_real)(q[1] / n), (gjk_real)(q[2] / n),
                                 (gjk_real)(q[3] / n));
        }
    }
}

static gjk_vec3 random_dir(rng *r) {
    for (;;) {
        double x = rng_range(r, -1, 1), y = rng_range(r, -1, 1), z = rng_range(r, -1, 1);
        double n = x * x + y * y + z * z;
        if (n > 0.01 && n <= 1) {
            n = sqrt(n);
            return gjk_v3((gjk_real)(x / n), (gjk_real)(y / n), (gjk_real)(z / n));
        }
    }
}

/// Distances (of the rounded shapes) the poses are placed at: far apart,
/// where the plain walk creeps, to nearly touching.
static const double BANDS[] = {1.5, 0.5, 0.3, 0.1, 1e-2, 1e-4};
#define NBANDS ((int)(sizeof BANDS / sizeof BANDS[0]))
#define NPOSES 12

typedef struct pose {
    gjk_transform ta, tb;
    ld core;  ///< reference core distance
    ld bound; ///< bound on |coordinate| of D in A's frame plus the rounding: the tolerance's scale
} pose;

/// A query on shapes a and b at the pose p (default options).
static gjk_query_input query_shapes(const gjk_shape *a, const gjk_shape *b, const pose *p) {
    gjk_query_input in;
    memset(&in, 0, sizeof in);
    in.shape_a = a;
    in.shape_b = b;
    in.transform_a = p->ta;
    in.transform_b = p->tb;
    return in;
}

static gjk_query_input query_of(const pair_kind *k, const pose *p) { return query_shapes(&k->a, &k->b, p); }

/// A transform written as {position x, y, z, quaternion w, x, y, z} (the
/// exact poses of regression cases, in hexadecimal floats).
static gjk_transform transform_of(const double h[7]) {
    return gjk_transform_make(gjk_v3((gjk_real)h[0], (gjk_real)h[1], (gjk_real)h[2]),
                              gjk_quat_make((gjk_real)h[3], (gjk_real)h[4], (gjk_real)h[5], (gjk_real)h[6]));
}

static ld max_radius(gjk_vec3 r) { return fmaxl(fmaxl((ld)r.x, (ld)r.y), (ld)r.z); }

/// A pose of the pair at about `target` apart: random orientations and
/// direction, B slid along the normal with the library's own answer (the
/// placement need not be exact), then the reference at the rounded pose.
static pose make_pose(const pair_kind *k, rng *r, double target) {
    pose p;
    p.ta = gjk_transform_make(gjk_v3((gjk_real)rng_range(r, -2, 2), (gjk_real)rng_range(r, -2, 2),
                                     (gjk_real)rng_range(r, -2, 2)),
                              random_quat(r));
    gjk_vec3 dir = random_dir(r);
    p.tb = gjk_transform_make(gjk_add(p.ta.position, gjk_scale(4, dir)), random_quat(r));
    for (int it = 0; it < 4; ++it) {
        gjk_query_input in = query_of(k, &p);
        gjk_penetration_output o = gjk_penetration(&in, NULL);
        p.tb.position = gjk_add(p.tb.position, gjk_scale((gjk_real)target - o.signed_distance, o.normal));
    }
    ellipsoid_ref ea = make_ref(k->ra, p.ta), eb = make_ref(k->rb, p.tb);
    ld dc[3] = {eb.c[0] - ea.c[0], eb.c[1] - ea.c[1], eb.c[2] - ea.c[2]};
    ld cdist = sqrtl(dc[0] * dc[0] + dc[1] * dc[1] + dc[2] * dc[2]);
    if (k->equal_radii) {
        p.core = cdist - (ld)k->ra.x - (ld)k->rb.x;
    } else {
        p.core = reference_distance(&ea, &eb);
    }
    p.bound = cdist + max_radius(k->ra) + max_radius(k->rb) + (ld)k->rounding;
    return p;
}

/// The error allowed on a distance: the walk's certificate (relative
/// tolerance at the pair's scale) plus a few roundings of that scale.
static double allowed(const pose *p) {
    double eps = GJK_USE_FLOAT ? 1.2e-7 : 2.3e-16;
    return (double)p->bound * ((double)GJK_DEFAULT_TOLERANCE + 16 * eps);
}

static pose poses[NKINDS][NBANDS][NPOSES];
static pair_kind kinds[NKINDS];

static void setup(void) {
    make_kinds(kinds);
    rng r = {0x5EED0F0D1CEULL};
    for (int k = 0; k < NKINDS; ++k) {
        for (int b = 0; b < NBANDS; ++b) {
            for (int i = 0; i < NPOSES; ++i) {
                poses[k][b][i] = make_pose(&kinds[k], &r, BANDS[b]);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Tests.

/// The reference itself: balls written as ellipsoids by the search against
/// their closed form, so that the search is known to reach its precision.
static void test_reference_search(void) {
    rng r = {77};
    for (int i = 0; i < 20; ++i) {
        gjk_transform ta = gjk_transform_make(gjk_v3(0, 0, 0), random_quat(&r));
        gjk_transform tb = gjk_transform_make(gjk_scale((gjk_real)rng_range(&r, 1.3, 4), random_dir(&r)), random_quat(&r));
        gjk_vec3 r1 = gjk_v3((gjk_real)0.75, (gjk_real)0.75, (gjk_real)0.75);
        gjk_vec3 r2 = gjk_v3((gjk_real)0.5, (gjk_real)0.5, (gjk_real)0.5);
        ellipsoid_ref a = make_ref(r1, ta), b = make_ref(r2, tb);
        ld dc[3] = {b.c[0] - a.c[0], b.c[1] - a.c[1], b.c[2] - a.c[2]};
        ld exact = sqrtl(dc[0] * dc[0] + dc[1] * dc[1] + dc[2] * dc[2]) - 1.25L;
        ENSURE_NEAR((double)reference_distance(&a, &b), (double)exact, 1e-14);
    }
}

/// Distance and penetration queries (secant steps chosen by the library)
/// against the reference, separated poses of every band.
static void test_queries_against_reference(void) {
    for (int k = 0; k < NKINDS; ++k) {
        for (int b = 0; b < NBANDS; ++b) {
            for (int i = 0; i < NPOSES; ++i) {
                const pose *p = &poses[k][b][i];
                gjk_query_input in = query_of(&kinds[k], p);
                double want = (double)(p->core - (ld)kinds[k].rounding);
                gjk_distance_output d = gjk_distance(&in, NULL);
                ENSURE(d.status == GJK_SEPARATED);
                ENSURE_NEAR(d.distance, want, allowed(p));
                gjk_penetration_output q = gjk_penetration(&in, NULL);
                ENSURE(q.status == GJK_SEPARATED);
                ENSURE_NEAR(q.signed_distance, want, allowed(p));
                // The witness points are that far apart, along the normal.
                ENSURE_NEAR(gjk_length(gjk_sub(d.point_b, d.point_a)), want, 4 * allowed(p));
                ENSURE_NEAR(gjk_dot(gjk_sub(d.point_b, d.point_a), d.normal), want, 4 * allowed(p));
            }
        }
    }
}

/// One walk on the cores through the private API.
static gjk_walk_end walk_once(const pair_kind *k, const pose *p, gjk_walk_momentum m, gjk_walk *w) {
    gjk_query_input in = query_of(k, p);
    gjk_pair pair;
    gjk_transform xa;
    ENSURE(gjk_pair_init(&pair, in.shape_a, &in.transform_a, in.shape_b, &in.transform_b, &in.options, &xa));
    memset(w, 0, sizeof *w);
    w->max_iterations = GJK_DEFAULT_MAX_ITERATIONS;
    return gjk_walk_run_momentum(&pair, w, m);
}

/// The walk with secant steps against the plain walk on the same poses:
/// the same end, an answer within the certificate of the reference and
/// never less accurate than the plain walk's (beyond that certificate).
/// Secant steps run on nearly every walk, and take at most half the plain
/// walk's iterations, far apart and near contact alike (iteration counts
/// are deterministic: this checks the method, not a timing).
static void test_momentum_vs_plain(void) {
    long far_on = 0, far_off = 0, near_on = 0, near_off = 0;
    int walks = 0, accelerated = 0;
    for (int k = 0; k < NKINDS; ++k) {
        for (int b = 0; b < NBANDS; ++b) {
            for (int i = 0; i < NPOSES; ++i) {
                const pose *p = &poses[k][b][i];
                gjk_walk on, off, autow;
                gjk_walk_end e_on = walk_once(&kinds[k], p, GJK_MOMENTUM_ON, &on);
                gjk_walk_end e_off = walk_once(&kinds[k], p, GJK_MOMENTUM_OFF, &off);
                gjk_walk_end e_auto = walk_once(&kinds[k], p, GJK_MOMENTUM_AUTO, &autow);
                ENSURE(e_on == GJK_WALK_CONVERGED && e_off == GJK_WALK_CONVERGED);
                // Every pair here has an ellipsoid (or a custom) core: AUTO is ON.
                ENSURE(e_auto == e_on && autow.iterations == on.iterations && autow.accelerated == on.accelerated);
                ENSURE(off.accelerated == 0);
                double err_on = fabs((double)((ld)gjk_length(on.v) - p->core));
                double err_off = fabs((double)((ld)gjk_length(off.v) - p->core));
                ENSURE(err_on <= allowed(p));
                ENSURE(err_off <= allowed(p));
                ENSURE(err_on <= fmax(err_off, (double)GJK_DEFAULT_TOLERANCE * (double)p->bound));
                // The certificate itself: |v| − lower within the tolerance,
                // and lower a true lower bound.
                ENSURE((double)on.lower <= (double)p->core + allowed(p));
                ENSURE((double)(gjk_length(on.v) - on.lower) <= allowed(p));
                bool near = BANDS[b] <= 0.01; // of cores of reach 1.2 to 1.9
                *(near ? &near_on : &far_on) += on.iterations;
                *(near ? &near_off : &far_off) += off.iterations;
                if (!kinds[k].equal_radii) { // (balls as ellipsoids converge in two steps)
                    ++walks;
                    accelerated += on.accelerated > 0;
                }
            }
        }
    }
    printf("  iterations with secant steps / plain: %ld / %ld far apart, %ld / %ld near contact; %d of %d walks "
           "accelerated\n",
           far_on, far_off, near_on, near_off, accelerated, walks);
    ENSURE(10 * accelerated >= 9 * walks);
#if GJK_USE_FLOAT
    // (At float's tolerance, 2e-6, the plain walk needs fewer steps and
    // rounding blurs the secant model sooner: 0.59 of them far apart, 0.75
    // near contact, where the steps wait for a bound that proves the cores
    // apart.)
    ENSURE(4 * far_on <= 3 * far_off);
    ENSURE(5 * near_on <= 4 * near_off);
#else
    ENSURE(2 * far_on <= far_off);
    ENSURE(2 * near_on <= near_off);
#endif
}

/// The pairs that take secant steps by default: those with an ellipsoid, a
/// cylinder, a cone or a custom core on either side (AUTO walks as ON), and
/// no other (AUTO walks as OFF): boxes, capsules, spheres and hulls.
static void test_auto_choice(void) {
    gjk_vec3 pts[12];
    rng r = {4242};
    for (int i = 0; i < 12; ++i) {
        pts[i] = random_dir(&r);
    }
    gjk_hull_error err;
    gjk_hull *hull = gjk_hull_create(pts, 12, &err);
    ENSURE(hull != NULL);
    if (hull == NULL) {
        return;
    }
    enum { NSHAPES = 8 };
    gjk_shape shapes[NSHAPES] = {gjk_make_box(gjk_v3(1, (gjk_real)0.8, (gjk_real)0.6)),
                                 gjk_make_cylinder((gjk_real)0.5, 1),
                                 gjk_make_cone((gjk_real)0.5, 1),
                                 gjk_make_capsule(gjk_v3(0, 0, -1), gjk_v3(0, 0, 1), (gjk_real)0.3),
                                 gjk_make_sphere((gjk_real)0.4),
                                 gjk_make_hull(hull),
                                 gjk_make_ellipsoid(gjk_v3(1, (gjk_real)0.8, (gjk_real)0.6)),
                                 gjk_make_custom(custom_ellipsoid, &CUSTOM_RADII, 1)};
    int with = 0, accelerated = 0;
    for (int sa = 0; sa < NSHAPES; ++sa) {
        for (int sb = 0; sb < NSHAPES; ++sb) {
            // Curved somewhere: a cylinder, a cone, an ellipsoid or a user shape.
            bool curved_a = sa == 1 || sa == 2 || sa >= 6, curved_b = sb == 1 || sb == 2 || sb >= 6;
            bool round = curved_a || curved_b;
            for (int i = 0; i < 6; ++i) {
                gjk_transform ta = gjk_transform_make(gjk_v3(0, 0, 0), random_quat(&r));
                gjk_transform tb =
                    gjk_transform_make(gjk_scale((gjk_real)rng_range(&r, 2.2, 3), random_dir(&r)), random_quat(&r));
                gjk_pair p1, p2;
                gjk_transform xa;
                gjk_options o;
                memset(&o, 0, sizeof o);
                ENSURE(gjk_pair_init(&p1, &shapes[sa], &ta, &shapes[sb], &tb, &o, &xa));
                ENSURE(gjk_pair_init(&p2, &shapes[sa], &ta, &shapes[sb], &tb, &o, &xa));
                gjk_walk wa, wb;
                memset(&wa, 0, sizeof wa);
                wa.max_iterations = GJK_DEFAULT_MAX_ITERATIONS;
                wb = wa;
                gjk_walk_end ea = gjk_walk_run(&p1, &wa);
                gjk_walk_end eb = gjk_walk_run_momentum(&p2, &wb, round ? GJK_MOMENTUM_ON : GJK_MOMENTUM_OFF);
                ENSURE(ea == eb && wa.iterations == wb.iterations && wa.accelerated == wb.accelerated);
                ENSURE(gjk_length(wa.v) == gjk_length(wb.v));
                ENSURE(round || wa.accelerated == 0);
                with += round;
                accelerated += wa.accelerated > 0;
            }
        }
    }
    ENSURE(accelerated > 0 && accelerated <= with);
    gjk_hull_destroy(hull);
}

/// Momentum forced on pairs with flat faces and edges, where it is not used
/// by default: both walks end the same way, each one's lower bound is below
/// the other's upper bound, and the answer with secant steps is no worse.
static void test_forced_on_flat_shapes(void) {
    gjk_vec3 pts[32];
    rng r = {991};
    for (int i = 0; i < 32; ++i) {
        gjk_vec3 u = random_dir(&r);
        pts[i] = gjk_v3(u.x, (gjk_real)0.8 * u.y, (gjk_real)0.6 * u.z);
    }
    gjk_hull_error err;
    gjk_hull *hull = gjk_hull_create(pts, 32, &err);
    ENSURE(hull != NULL);
    if (hull == NULL) {
        return;
    }
    gjk_shape shapes[6] = {gjk_make_box(gjk_v3((gjk_real)0.9, (gjk_real)0.7, (gjk_real)0.5)),
                           gjk_make_cylinder((gjk_real)0.5, (gjk_real)0.7),
                           gjk_make_cone((gjk_real)0.4, (gjk_real)0.6),
                           gjk_make_hull(hull),
                           gjk_make_polytope(pts, 32),
                           gjk_make_ellipsoid(gjk_v3(1, (gjk_real)0.8, (gjk_real)0.6))};
    int accelerated = 0;
    for (int sa = 0; sa < 6; ++sa) {
        for (int sb = 0; sb < 6; ++sb) {
            for (int i = 0; i < 8; ++i) {
                gjk_transform ta = gjk_transform_make(gjk_v3(0, 0, 0), random_quat(&r));
                double dist = i < 4 ? rng_range(&r, 2.2, 4) : rng_range(&r, 0.5, 2.2); // some overlap
                gjk_transform tb = gjk_transform_make(gjk_scale((gjk_real)dist, random_dir(&r)), random_quat(&r));
                gjk_pair p1, p2;
                gjk_transform xa;
                gjk_options o;
                memset(&o, 0, sizeof o);
                ENSURE(gjk_pair_init(&p1, &shapes[sa], &ta, &shapes[sb], &tb, &o, &xa));
                ENSURE(gjk_pair_init(&p2, &shapes[sa], &ta, &shapes[sb], &tb, &o, &xa));
                gjk_walk on, off;
                memset(&on, 0, sizeof on);
                on.max_iterations = GJK_DEFAULT_MAX_ITERATIONS;
                off = on;
                gjk_walk_end e_on = gjk_walk_run_momentum(&p1, &on, GJK_MOMENTUM_ON);
                gjk_walk_end e_off = gjk_walk_run_momentum(&p2, &off, GJK_MOMENTUM_OFF);
                accelerated += on.accelerated > 0;
                if (e_on == GJK_WALK_CONVERGED && e_off == GJK_WALK_CONVERGED) {
                    double tol = (double)(gjk_pair_tolerance(&p1) > gjk_pair_tolerance(&p2) ? gjk_pair_tolerance(&p1)
                                                                                             : gjk_pair_tolerance(&p2));
                    double von = (double)gjk_length(on.v), voff = (double)gjk_length(off.v);
                    // Each walk's lower bound is below the other's upper
                    // bound (up to rounding); with secant steps the answer is
                    // never worse than the plain one beyond the tolerance.
                    ENSURE((double)on.lower <= voff + 0.5 * tol);
                    ENSURE((double)off.lower <= von + 0.5 * tol);
                    ENSURE(von <= voff + tol);
                } else {
                    // Overlap is decided the same way (a tetrahedron or a
                    // point within the tolerance of the origin).
                    ENSURE(e_on == GJK_WALK_OVERLAP && e_off == GJK_WALK_OVERLAP);
                }
            }
        }
    }
    ENSURE(accelerated > 0);
    gjk_hull_destroy(hull);
}

/// Trace events of the walk with secant steps: every iteration's bounds hold
/// (lower ≤ distance ≤ upper), the lower bound of secant directions too.
typedef struct trace_check {
    double core, allow;
    int events, bad;
} trace_check;

static void on_trace(void *data, const gjk_trace_event *ev) {
    trace_check *t = data;
    if (ev->phase != GJK_TRACE_GJK) {
        return;
    }
    ++t->events;
    if (!((double)ev->lower <= t->core + t->allow) || !((double)ev->upper >= t->core - t->allow)) {
        ++t->bad;
    }
}

static void test_trace_bounds(void) {
    for (int k = 0; k < NKINDS; ++k) {
        for (int b = 0; b < NBANDS; ++b) {
            for (int i = 0; i < NPOSES; i += 3) {
                const pose *p = &poses[k][b][i];
                gjk_query_input in = query_of(&kinds[k], p);
                trace_check t = {(double)p->core, allowed(p), 0, 0};
                in.options.trace = on_trace;
                in.options.trace_data = &t;
                gjk_distance_output d = gjk_distance(&in, NULL);
                ENSURE(d.status == GJK_SEPARATED);
                ENSURE(t.events == d.iterations);
                ENSURE(t.bad == 0);
            }
        }
    }
}

/// Warm starts: a pair moving along a path with one cache, and queries
/// started from a foreign cache (another pair's simplex), all against the
/// reference.
static void test_warm_start(void) {
    const pair_kind *k = &kinds[0];
    rng r = {31337};
    for (int path = 0; path < 4; ++path) {
        pose p = make_pose(k, &r, path < 2 ? 1.0 : 0.05);
        gjk_vec3 drift = gjk_scale((gjk_real)0.004, random_dir(&r));
        gjk_quat spin = gjk_quat_from_axis_angle(random_dir(&r), (gjk_real)0.01);
        gjk_simplex_cache cache;
        memset(&cache, 0, sizeof cache);
        for (int frame = 0; frame < 30; ++frame) {
            pose q = p;
            q.tb.position = gjk_add(p.tb.position, gjk_scale((gjk_real)frame, drift));
            for (int s = 0; s < frame; ++s) {
                q.tb.rotation = gjk_quat_normalize(gjk_quat_mul(spin, q.tb.rotation));
            }
            ellipsoid_ref ea = make_ref(k->ra, q.ta), eb = make_ref(k->rb, q.tb);
            q.core = reference_distance(&ea, &eb);
            gjk_query_input in = query_of(k, &q);
            gjk_distance_output w = gjk_distance(&in, &cache);
            gjk_distance_output c = gjk_distance(&in, NULL);
            ENSURE(w.status == GJK_SEPARATED);
            ENSURE_NEAR(w.distance, (double)q.core, allowed(&q));
            ENSURE(cache.count >= 1 && cache.count <= 3);
            ENSURE(c.status == GJK_SEPARATED);
            ENSURE_NEAR(c.distance, (double)q.core, allowed(&q));
        }
    }
    // A foreign cache: the simplex of a far pose used for a near one and
    // the other way round, and one of another pair of shapes.
    for (int i = 0; i < NPOSES; ++i) {
        const pose *far = &poses[0][0][i], *near = &poses[0][NBANDS - 1][i];
        gjk_simplex_cache cache;
        memset(&cache, 0, sizeof cache);
        gjk_query_input in = query_of(&kinds[0], far);
        (void)gjk_distance(&in, &cache);
        in = query_of(&kinds[0], near);
        gjk_distance_output d = gjk_distance(&in, &cache);
        ENSURE_NEAR(d.distance, (double)near->core, allowed(near));
        in = query_of(&kinds[0], far);
        d = gjk_distance(&in, &cache);
        ENSURE_NEAR(d.distance, (double)far->core, allowed(far));
        in = query_of(&kinds[1], &poses[1][1][i]);
        (void)gjk_distance(&in, &cache);
        in = query_of(&kinds[3], &poses[3][2][i]);
        d = gjk_distance(&in, &cache);
        ENSURE_NEAR(d.distance, (double)poses[3][2][i].core, allowed(&poses[3][2][i]));
    }
}

/// Early exits with secant steps: a max_distance below the distance is proved
/// with a true lower bound; above it the full answer comes back; intersect
/// says apart, and overlapping when B is pushed into A.
static void test_early_exits(void) {
    for (int k = 0; k < NKINDS; ++k) {
        for (int b = 0; b < 3; ++b) {
            for (int i = 0; i < NPOSES; ++i) {
                const pose *p = &poses[k][b][i];
                double want = (double)(p->core - (ld)kinds[k].rounding);
                gjk_query_input in = query_of(&kinds[k], p);
                in.options.max_distance = (gjk_real)(0.5 * want);
                gjk_distance_output d = gjk_distance(&in, NULL);
                ENSURE(d.status == GJK_SEPARATED);
                ENSURE(d.distance > in.options.max_distance);
                ENSURE((double)d.distance <= want + allowed(p));
                in.options.max_distance = (gjk_real)(2 * want);
                d = gjk_distance(&in, NULL);
                ENSURE_NEAR(d.distance, want, allowed(p));
                in.options.max_distance = 0;
                gjk_intersect_output x = gjk_intersect(&in);
                ENSURE(x.status == GJK_SEPARATED && !x.intersect);
                // Pushed in along the normal to overlap by 0.05: penetrating.
                gjk_penetration_output q = gjk_penetration(&in, NULL);
                pose deep = *p;
                deep.tb.position = gjk_sub(p->tb.position, gjk_scale((gjk_real)(want + 0.05), q.normal));
                in = query_of(&kinds[k], &deep);
                x = gjk_intersect(&in);
                ENSURE(x.status == GJK_PENETRATING && x.intersect);
            }
        }
    }
}

/// Every converged walk proves its answer: the gap between |v| and the
/// lower bound is within the pair's tolerance (up to a few roundings of its
/// scale), with and without secant steps, on many ellipsoid poses at distances
/// from far to near contact. On curved shapes the support point near the end
/// lies within about the gap of the simplex's plane, the tetrahedron it
/// makes is nearly flat, and its signed volumes could pick a face no nearer
/// than the triangle; four such steps in a row ended the walk with the gap
/// above the tolerance (18 of 20000 walks with momentum, before secant
/// steps; answers up to 11 times the tolerance from the plain walk's). The faces with the new point
/// are now solved one by one when that happens.
static void test_converged_walks_certified(void) {
    const pair_kind *k = &kinds[0];
    rng r = {0xce47ULL};
    int walks = 0;
    for (int i = 0; i < 4000; ++i) {
        gjk_transform ta = gjk_transform_make(gjk_v3(0, 0, 0), random_quat(&r));
        gjk_transform tb =
            gjk_transform_make(gjk_scale((gjk_real)rng_range(&r, 1.6, 4), random_dir(&r)), random_quat(&r));
        for (int m = 0; m < 2; ++m) {
            gjk_pair pair;
            gjk_transform xa;
            gjk_options o;
            memset(&o, 0, sizeof o);
            ENSURE(gjk_pair_init(&pair, &k->a, &ta, &k->b, &tb, &o, &xa));
            gjk_walk w;
            memset(&w, 0, sizeof w);
            w.max_iterations = GJK_DEFAULT_MAX_ITERATIONS;
            gjk_walk_end e = gjk_walk_run_momentum(&pair, &w, m ? GJK_MOMENTUM_ON : GJK_MOMENTUM_OFF);
            ENSURE(e != GJK_WALK_MAX_ITER);
            if (e != GJK_WALK_CONVERGED) {
                continue; // overlapping: no gap to check
            }
            ++walks;
            double eps = GJK_USE_FLOAT ? 1.2e-7 : 2.3e-16;
            double gap = (double)gjk_length(w.v) - (double)w.lower;
            double tol = (double)gjk_pair_tolerance(&pair) + 8 * eps * (double)pair.scale;
            if (!(gap <= tol)) {
                fprintf(stderr, "pose %d, momentum %d: gap %.3g, tolerance %.3g\n", i, m, gap, tol);
            }
            ENSURE(gap <= tol);
        }
    }
    ENSURE(walks > 4000);
}

/// `s` with its size multiplied by sc (ellipsoids, spheres and walk points
/// with a margin only).
static gjk_shape scaled_shape(const gjk_shape *s, double sc) {
    if (s->type == GJK_SHAPE_SPHERE) {
        return gjk_make_sphere((gjk_real)((double)s->sphere.radius * sc));
    }
    if (s->type == GJK_SHAPE_POLYTOPE) {
        return gjk_with_margin(walk_point(), (gjk_real)((double)s->margin * sc));
    }
    gjk_vec3 r = s->ellipsoid.radii;
    return gjk_make_ellipsoid(gjk_v3((gjk_real)((double)r.x * sc), (gjk_real)((double)r.y * sc), (gjk_real)((double)r.z * sc)));
}

/// The reference poses scaled by powers of two (exactly, so the reference
/// distance scales exactly) from near the smallest sizes whose squares are
/// normal numbers to near the largest: the same status, and the distance
/// within the scaled tolerance; pushed into each other, the depth of the
/// same pose at size 1, scaled. Support directions are products of the
/// coordinates (a triangle's normal is quadratic in them), and an
/// ellipsoid's support multiplies them by its radii once more, so its
/// squared length left the range of normal numbers at sizes of 1e-55 in
/// double, where every near-contact query was wrong by up to half the size.
/// EPA's starting tetrahedron was oriented by its volume, cubic in the
/// size, which overflowed above 1e+105 (below 1e-111 underflowed): 2 to 3%
/// of the deep poses came out GJK_NOT_CONVERGED, some 5% too deep (in float
/// from 1e-15 and 1e+16). The user shape is left out: its support is this file's, not the
/// library's.
static void test_huge_and_tiny_sizes(void) {
#if GJK_USE_FLOAT
    const int exps[] = {-60, -50, -40, -30, -20, 20, 30, 40, 55, 60};
#else
    const int exps[] = {-480, -300, -240, -183, -120, 120, 183, 240, 300, 480, 508};
#endif
    const int nexp = (int)(sizeof exps / sizeof exps[0]);
    const int bands[] = {1, NBANDS - 2, NBANDS - 1};
    const double pushes[] = {0.05, 0.3, 0.55, 0.8, 1.0};
    enum { NPUSH = (int)(sizeof pushes / sizeof pushes[0]) };
    static char label[120];
    for (int k = 0; k < NKINDS; ++k) {
        if (kinds[k].a.type == GJK_SHAPE_CUSTOM) {
            continue;
        }
        for (int bi = 0; bi < 3; ++bi) {
            for (int i = 0; i < NPOSES; ++i) {
                const pose *p = &poses[k][bands[bi]][i];
                double want = (double)(p->core - (ld)kinds[k].rounding);
                // B pushed into A along the normal: the depth at size 1 is
                // the reference (checked against the closed form for balls).
                pose deep[NPUSH];
                gjk_penetration_output unit[NPUSH];
                gjk_query_input in = query_of(&kinds[k], p);
                gjk_vec3 normal = gjk_penetration(&in, NULL).normal;
                for (int j = 0; j < NPUSH; ++j) {
                    deep[j] = *p;
                    deep[j].tb.position = gjk_sub(p->tb.position, gjk_scale((gjk_real)(want + pushes[j]), normal));
                    in = query_of(&kinds[k], &deep[j]);
                    unit[j] = gjk_penetration(&in, NULL);
                    if (kinds[k].equal_radii) {
                        gjk_vec3 c = gjk_sub(deep[j].tb.position, deep[j].ta.position);
                        double closed = (double)gjk_length(c) - (double)kinds[k].ra.x - (double)kinds[k].rb.x;
                        ENSURE(unit[j].status == GJK_PENETRATING);
                        ENSURE_NEAR((double)unit[j].signed_distance, closed, allowed(p));
                    }
                    // (EPA may run out of iterations on a deep pose of two
                    // ellipsoids: GJK_NOT_CONVERGED, within its bounds.)
                    ENSURE(unit[j].status == GJK_PENETRATING || unit[j].status == GJK_NOT_CONVERGED);
                }
                for (int e = 0; e < nexp; ++e) {
                    double sc = ldexp(1, exps[e]);
                    gjk_shape a = scaled_shape(&kinds[k].a, sc), b = scaled_shape(&kinds[k].b, sc);
                    in = query_shapes(&a, &b, p);
                    in.transform_a.position = gjk_scale((gjk_real)sc, p->ta.position);
                    in.transform_b.position = gjk_scale((gjk_real)sc, p->tb.position);
                    snprintf(label, sizeof label, "%s, band %g, pose %d, size 2^%d", kinds[k].name, BANDS[bands[bi]], i,
                             exps[e]);
                    case_begin(label);
                    if (i < 4) { // the separated poses: against the reference
                        gjk_distance_output d = gjk_distance(&in, NULL);
                        gjk_penetration_output q = gjk_penetration(&in, NULL);
                        gjk_intersect_output x = gjk_intersect(&in);
                        ENSURE(d.status == GJK_SEPARATED && q.status == GJK_SEPARATED && x.status == GJK_SEPARATED);
                        ENSURE_NEAR((double)d.distance / sc, want, allowed(p));
                        ENSURE_NEAR((double)q.signed_distance / sc, want, allowed(p));
                        ENSURE_NEAR((double)gjk_length(q.normal), 1, 16 * (double)GJK_REAL_EPSILON);
                    }
                    for (int j = 0; j < NPUSH; ++j) {
                        in.transform_b.position = gjk_scale((gjk_real)sc, deep[j].tb.position);
                        gjk_penetration_output q = gjk_penetration(&in, NULL);
                        ENSURE(q.status == unit[j].status);
                        if (q.status == GJK_PENETRATING) {
                            // The witness contract (gjk.h), to the precision
                            // of witnesses on curved surfaces (README,
                            // "Tolerances"): √(2·R·allowed), R ≤ 3.3 the
                            // largest radius of curvature of A − B here.
                            gjk_vec3 off = gjk_sub(gjk_sub(q.point_a, q.point_b), gjk_scale(q.depth, q.normal));
                            ENSURE((double)gjk_length(off) / sc <= sqrt(6.6 * allowed(p)));
                        }
                        ENSURE_NEAR((double)q.signed_distance / sc, (double)unit[j].signed_distance, allowed(p));
                        // A depth within `allowed` of the truth fixes the
                        // normal to within about √(2·allowed/ρ), ρ the least
                        // radius of curvature (0.36 here, 0.25 taken);
                        // twice, for two answers.
                        ENSURE((double)gjk_length(gjk_sub(q.normal, unit[j].normal)) <= 2 * sqrt(8 * allowed(p)));
                    }
                    case_end();
                }
            }
        }
    }
}

/// Two ellipsoids half a unit apart on which the plain walk went round in
/// circles until the iteration cap (GJK_NOT_CONVERGED; about one pose in ten
/// at 0.3–0.5 apart did): each fourth point's tetrahedron was solved back to
/// a face no nearer. Both walks now end, within the certificate.
static void test_tetrahedron_stall(void) {
    static const double poses_hex[2][2][7] = {
        {{0, 0, 0, -0x1.0cdb9eb76bc15p-1, -0x1.099e1ca49a655p-1, -0x1.55792c315dbc1p-1, -0x1.9fe5f0263f849p-4},
         {0x1.81b91f9ebb7f2p-6, -0x1.77acb203d3ab8p+0, -0x1.11834c03b1a4p+0, -0x1.61150f522fe66p-2,
          -0x1.a1958d9442085p-2, -0x1.501c774e5dde5p-1, 0x1.10c9498667c9ep-1}},
        {{0, 0, 0, -0x1.9bc7adc1b3eb2p-1, -0x1.c29f268d79fe5p-2, -0x1.299c88f7f9175p-2, -0x1.1885921d1fac7p-2},
         {0x1.7cc0749f3bd21p+0, -0x1.d36ea2d7c6e4bp-1, 0x1.fab7b428376b5p-5, 0x1.1fc667ed41a04p-1,
          0x1.89df32bf4dc8bp-2, -0x1.1ac57d7ecc809p-1, -0x1.ec48e93008e46p-2}},
    };
    const pair_kind *k = &kinds[0];
    for (int c = 0; c < 2; ++c) {
        pose p;
        p.ta = transform_of(poses_hex[c][0]);
        p.tb = transform_of(poses_hex[c][1]);
        ellipsoid_ref ea = make_ref(k->ra, p.ta), eb = make_ref(k->rb, p.tb);
        p.core = reference_distance(&ea, &eb);
        ld dc[3] = {eb.c[0] - ea.c[0], eb.c[1] - ea.c[1], eb.c[2] - ea.c[2]};
        p.bound = sqrtl(dc[0] * dc[0] + dc[1] * dc[1] + dc[2] * dc[2]) + max_radius(k->ra) + max_radius(k->rb);
        for (int m = 0; m < 2; ++m) {
            gjk_walk w;
            gjk_walk_end e = walk_once(k, &p, m ? GJK_MOMENTUM_ON : GJK_MOMENTUM_OFF, &w);
            ENSURE(e == GJK_WALK_CONVERGED);
            ENSURE(w.iterations < 64);
            ENSURE_NEAR(gjk_length(w.v), (double)p.core, allowed(&p));
        }
        gjk_query_input in = query_of(k, &p);
        gjk_distance_output d = gjk_distance(&in, NULL);
        ENSURE(d.status == GJK_SEPARATED);
        ENSURE_NEAR(d.distance, (double)p.core, allowed(&p));
    }
}

/// A deep pose of two equal ellipsoids (centres 0.11 apart) on which EPA
/// ran out of iterations (250) with its bounds on the depth, the nearest
/// face's distance and the least support overlap seen, already within the
/// tolerance: no single face's support point had closed its own gap, and
/// the answer came back GJK_NOT_CONVERGED. Such bounds are the answer. The
/// depth is checked against the reference (the same duality: the largest
/// separation, negative here) and as a motion: B moved by it along the
/// normal touches A.
static void test_epa_bounds_meet(void) {
    static const double h[2][7] = {
        {0, 0, 0, 0x1.005581a604513p-4, 0x1.2fe5d31b67c5ep-1, -0x1.189464b92022dp-2, -0x1.821c986d82a5dp-1},
        {-0x1.6edddf8383b93p-5, -0x1.41dbd7fdaa42bp-11, -0x1.32005d5609356p-4, -0x1.22e9e8311706ep-2,
         0x1.7e6cefd65e5cp-1, 0x1.25cdc3e6cdb51p-1, 0x1.6ef67f78d291p-3},
    };
    gjk_vec3 radii = gjk_v3(1, (gjk_real)0.8, (gjk_real)0.6);
    gjk_shape e = gjk_make_ellipsoid(radii);
    pose p;
    p.ta = transform_of(h[0]);
    p.tb = transform_of(h[1]);
    ellipsoid_ref ea = make_ref(radii, p.ta), eb = make_ref(radii, p.tb);
    p.core = reference_distance(&ea, &eb);
    p.bound = 2 + (ld)gjk_length(gjk_sub(p.tb.position, p.ta.position));
    gjk_query_input in = query_shapes(&e, &e, &p);
    gjk_penetration_output o = gjk_penetration(&in, NULL);
    printf("  EPA: %d iterations, depth %.17g, reference %.17Lg\n", o.epa_iterations, (double)-o.signed_distance, -p.core);
    ENSURE(o.status == GJK_PENETRATING);
    ENSURE_NEAR(o.signed_distance, (double)p.core, allowed(&p));
    // The witness contract of a converged answer (gjk.h).
    ENSURE(gjk_length(gjk_sub(gjk_sub(o.point_a, o.point_b), gjk_scale(o.depth, o.normal))) <= allowed(&p));
    in.transform_b.position = gjk_sub(p.tb.position, gjk_scale(o.signed_distance, o.normal));
    gjk_penetration_output moved = gjk_penetration(&in, NULL);
    ENSURE_NEAR(moved.signed_distance, 0, allowed(&p));
}

/// Halo steps (epa_halo.c): overlapping ellipsoid pairs (and a user ellipsoid
/// against one) 1e-5 to 1e-2 deep, against the reference (the largest
/// separation, negative here), with the witness contract and the depth as a
/// motion. In double at the default tolerance their EPA took a mean of
/// 26.7 iterations before the halo and 14.0 with it (float: 7.1); the mean
/// is checked below 20 in double (iteration counts are deterministic: this
/// checks the method, not a timing).
static void test_epa_halo(void) {
    rng r = {0x4A10ULL};
    static const double depths[] = {1e-5, 1e-3, 1e-2};
    static const int kinds_used[] = {0, 3};
    long iterations = 0;
    int queries = 0;
    for (int kk = 0; kk < 2; ++kk) {
        const pair_kind *k = &kinds[kinds_used[kk]];
        for (int d = 0; d < 3; ++d) {
            for (int i = 0; i < 8; ++i) {
                pose p = make_pose(k, &r, -depths[d]);
                gjk_query_input in = query_of(k, &p);
                gjk_penetration_output o = gjk_penetration(&in, NULL);
                ENSURE(o.status == GJK_PENETRATING);
                ENSURE_NEAR(o.signed_distance, (double)p.core, allowed(&p));
                ENSURE(gjk_length(gjk_sub(gjk_sub(o.point_a, o.point_b), gjk_scale(o.depth, o.normal))) <=
                       allowed(&p));
                in.transform_b.position = gjk_sub(p.tb.position, gjk_scale(o.signed_distance, o.normal));
                ENSURE_NEAR(gjk_penetration(&in, NULL).signed_distance, 0, 2 * allowed(&p));
                iterations += o.epa_iterations;
                ++queries;
            }
        }
    }
    double mean = (double)iterations / queries;
    printf("  EPA: %.1f iterations a query\n", mean);
    if (!GJK_USE_FLOAT) {
        ENSURE(mean < 20);
    }
}

/// The ball certificate (epa_ball.c): deep poses of two ellipsoids, B's
/// centre within 0.5 of A's, radii 0.6 to 1 (nearly round: the depth varies
/// little with the direction, and EPA refined a whole region of faces) and
/// 0.2 to 1. Every converged answer is checked against the reference (the
/// largest separation, negative here), with the witness contract and the
/// depth as a motion. Before the certificate, in double, EPA took a mean of
/// 130.8 iterations on these poses and 10 of the 96 ended not converged
/// (with the balls alone: 80.8 and 7, the poses deeper than any two balls
/// prove; with the inner ellipsoid too: 19.9 and 1); the mean is checked
/// below 40 and the count below 3 (iteration counts are deterministic: this
/// checks the method, not a timing). The reference
/// searches about 8 starting directions: from the best lattice direction
/// alone it ended 8.7e-5 too deep on one of these poses.
static void test_epa_ball_certificate(void) {
    rng r = {0xBA11ULL};
    long iterations = 0;
    int queries = 0, not_converged = 0;
    for (int family = 0; family < 2; ++family) {
        double lo = family == 0 ? 0.6 : 0.2;
        for (int i = 0; i < 48; ++i) {
            gjk_vec3 ra = gjk_v3((gjk_real)rng_range(&r, lo, 1), (gjk_real)rng_range(&r, lo, 1),
                                 (gjk_real)rng_range(&r, lo, 1));
            gjk_vec3 rb = gjk_v3((gjk_real)rng_range(&r, lo, 1), (gjk_real)rng_range(&r, lo, 1),
                                 (gjk_real)rng_range(&r, lo, 1));
            gjk_shape a = gjk_make_ellipsoid(ra), b = gjk_make_ellipsoid(rb);
            pose p;
            p.ta = gjk_transform_make(gjk_v3((gjk_real)rng_range(&r, -2, 2), (gjk_real)rng_range(&r, -2, 2),
                                             (gjk_real)rng_range(&r, -2, 2)),
                                      random_quat(&r));
            gjk_vec3 offset = gjk_scale((gjk_real)rng_range(&r, 0, 0.5), random_dir(&r));
            p.tb = gjk_transform_make(gjk_add(p.ta.position, offset), random_quat(&r));
            ellipsoid_ref ea = make_ref(ra, p.ta), eb = make_ref(rb, p.tb);
            p.core = reference_distance_starts(&ea, &eb, 8);
            p.bound = (ld)gjk_length(offset) + max_radius(ra) + max_radius(rb);
            gjk_query_input in = query_shapes(&a, &b, &p);
            gjk_penetration_output o = gjk_penetration(&in, NULL);
            iterations += o.epa_iterations;
            ++queries;
            if (o.status == GJK_NOT_CONVERGED) {
                ++not_converged;
                continue;
            }
            ENSURE(o.status == GJK_PENETRATING);
            ENSURE_NEAR(o.signed_distance, (double)p.core, allowed(&p));
            ENSURE(gjk_length(gjk_sub(gjk_sub(o.point_a, o.point_b), gjk_scale(o.depth, o.normal))) <= allowed(&p));
            in.transform_b.position = gjk_sub(p.tb.position, gjk_scale(o.signed_distance, o.normal));
            ENSURE_NEAR(gjk_penetration(&in, NULL).signed_distance, 0, 2 * allowed(&p));
            // EPA stopped after 1 to 3 iterations, its polytope coarse: the
            // certificate at the end proves or leaves the answer not
            // converged, never a wrong one (a review's harness found a
            // bound of an earlier form certifying depths up to 0.22 too
            // deep at such caps).
            in.transform_b = p.tb;
            for (int cap = 1; cap <= 3; ++cap) {
                in.options.max_epa_iterations = cap;
                gjk_penetration_output c = gjk_penetration(&in, NULL);
                ENSURE(c.status == GJK_PENETRATING || c.status == GJK_NOT_CONVERGED);
                if (c.status == GJK_PENETRATING) {
                    ENSURE_NEAR(c.signed_distance, (double)p.core, allowed(&p));
                }
            }
        }
    }
    double mean = (double)iterations / queries;
    printf("  EPA: %.1f iterations a query, %d of %d not converged\n", mean, not_converged, queries);
    if (!GJK_USE_FLOAT) {
        ENSURE(mean < 40);
        ENSURE(not_converged < 3);
    }
}

/// Fuzz finding f20: a point (margin 1/64) 0.0625 from the centre of a
/// cylinder of radius and half height 5.5. The depth is nearly the same
/// along every horizontal direction, so EPA reaches its cap; its bounds meet,
/// and the answer is converged along the least support overlap's direction.
/// Its witness points were first the support points along it (their
/// difference has a part across the normal), then point_a − depth·normal for
/// B, which put B's point on the cylinder's rim, 5.5 above B. They now come
/// from the point where the ray along the normal leaves EPA's polytope.
static void test_epa_bounds_meet_flat(void) {
    gjk_shape a = gjk_make_cylinder((gjk_real)5.5, (gjk_real)5.5);
    gjk_shape b = gjk_with_margin(walk_point(), (gjk_real)0.015625); // (a point, not a closed form)
    gjk_vec3 ca = gjk_v3((gjk_real)-5.4375, (gjk_real)-5.5, (gjk_real)-5.5), cb = gjk_v3((gjk_real)-5.5, (gjk_real)-5.5, (gjk_real)-5.5);
    pose p;
    p.ta = gjk_transform_make(ca, gjk_quat_identity());
    p.tb = gjk_transform_make(cb, gjk_quat_identity());
    gjk_query_input in = query_shapes(&a, &b, &p);
    gjk_penetration_output o = gjk_penetration(&in, NULL);
    double tol = 64 * (double)GJK_DEFAULT_TOLERANCE * 11 + 64 * (GJK_USE_FLOAT ? 1.2e-7 : 2.3e-16) * 11;
    // Depth: 5.5 − 0.0625 to the side, plus the margin.
    ENSURE(o.status == GJK_PENETRATING || o.status == GJK_NOT_CONVERGED);
    ENSURE_NEAR(o.depth, 5.4375 + 0.015625, tol);
    gjk_vec3 e = gjk_sub(gjk_sub(o.point_a, o.point_b), gjk_scale(o.depth, o.normal));
    if (o.status == GJK_PENETRATING) {
        ENSURE((double)gjk_length(e) <= tol);
    }
    // Each witness in its shape.
    gjk_vec3 ra = gjk_sub(o.point_a, ca);
    ENSURE(sqrt((double)ra.x * ra.x + (double)ra.y * ra.y) <= 5.5 + tol && fabs((double)ra.z) <= 5.5 + tol);
    ENSURE((double)gjk_length(gjk_sub(o.point_b, cb)) <= 0.015625 + tol);
}

/// EPA from a flat starting tetrahedron (four coplanar points around the
/// origin, as a walk on a face of D can leave): it keeps the face of the
/// largest area and goes on as a triangle. Here a point inside a box of
/// half extents (2, 2, 1)·s, and the points (0, 2, 0), (−1.5, −2, 0),
/// (0, −2, 0), (1.5, −2, 0) on its sides (times s): the largest face drops the third;
/// dropping the first leaves three collinear points, and a "touching"
/// answer. The areas' squares are quartic in s: at s = 2^-300 and below
/// (2^-50 in float) they all underflowed to zero and tied, and the first
/// point was dropped. The depth is s along ±z at every size.
static void test_epa_flat_start(void) {
#if GJK_USE_FLOAT
    const int exps[] = {-50, 0, 55};
#else
    const int exps[] = {-480, -300, 0, 300, 480};
#endif
    for (int e = 0; e < (int)(sizeof exps / sizeof exps[0]); ++e) {
        gjk_real sc = (gjk_real)ldexp(1, exps[e]);
        gjk_shape box = gjk_make_box(gjk_v3(2 * sc, 2 * sc, sc)), point = gjk_make_point();
        gjk_transform id = gjk_transform_identity();
        gjk_options o;
        memset(&o, 0, sizeof o);
        gjk_pair pair;
        gjk_transform xa;
        ENSURE(gjk_pair_init(&pair, &box, &id, &point, &id, &o, &xa));
        const gjk_real pts[4][2] = {{0, 2}, {GJK_R(-1.5), -2}, {0, -2}, {GJK_R(1.5), -2}};
        gjk_simplex s;
        memset(&s, 0, sizeof s);
        s.count = 4;
        for (int m = 0; m < 4; ++m) {
            s.v[m].a = s.v[m].w = gjk_v3(pts[m][0] * sc, pts[m][1] * sc, 0);
            s.v[m].ia = s.v[m].ib = -1;
            s.lambda[m] = GJK_R(0.25);
        }
        gjk_epa_result r;
        ENSURE(gjk_epa_run(&pair, &s, GJK_DEFAULT_MAX_EPA_ITERATIONS, 0, &r));
        static char label[60];
        snprintf(label, sizeof label, "flat start, size 2^%d", exps[e]);
        case_begin(label);
        ENSURE(r.converged);
        ENSURE_NEAR((double)r.depth / (double)sc, 1, 1e-6);
        ENSURE_NEAR(fabs((double)r.normal.z), 1, 1e-6);
        case_end();
    }
}

// ---------------------------------------------------------------------------
// 2D: the same on ellipses (src/gjk2.c). The reference is the same duality
// with one parameter: the largest separation over unit n = (cos θ, sin θ),
// by a fine scan and golden sections in long double.

typedef struct ellipse_ref {
    ld c[2];
    ld m[2][2]; ///< R diag(r)
} ellipse_ref;

static ellipse_ref make_ref2(gjk_vec2 radii, gjk_transform2 t) {
    ellipse_ref e;
    ld len = sqrtl((ld)t.rotation.c * t.rotation.c + (ld)t.rotation.s * t.rotation.s);
    ld c = t.rotation.c / len, sn = t.rotation.s / len;
    e.m[0][0] = c * radii.x, e.m[0][1] = -sn * radii.y;
    e.m[1][0] = sn * radii.x, e.m[1][1] = c * radii.y;
    e.c[0] = t.position.x, e.c[1] = t.position.y;
    return e;
}

static ld separation2(const ellipse_ref *a, const ellipse_ref *b, ld theta) {
    ld n[2] = {cosl(theta), sinl(theta)};
    ld sa = 0, sb = 0;
    for (int j = 0; j < 2; ++j) {
        ld ta = a->m[0][j] * n[0] + a->m[1][j] * n[1], tb = b->m[0][j] * n[0] + b->m[1][j] * n[1];
        sa += ta * ta, sb += tb * tb;
    }
    return n[0] * (a->c[0] - b->c[0]) + n[1] * (a->c[1] - b->c[1]) - sqrtl(sa) - sqrtl(sb);
}

static ld reference_distance2(const ellipse_ref *a, const ellipse_ref *b) {
    enum { N = 20000 };
    const ld two_pi = 6.28318530717958647692528676655900577L;
    ld best = -1e30L, bt = 0;
    for (int k = 0; k < N; ++k) {
        ld t = two_pi * k / N, f = separation2(a, b, t);
        if (f > best) {
            best = f, bt = t;
        }
    }
    ld lo = bt - two_pi / N * 2, hi = bt + two_pi / N * 2;
    ld x1 = hi - GOLDEN * (hi - lo), x2 = lo + GOLDEN * (hi - lo);
    ld f1 = separation2(a, b, x1), f2 = separation2(a, b, x2);
    for (int it = 0; it < 90; ++it) {
        if (f1 < f2) {
            lo = x1, x1 = x2, f1 = f2;
            x2 = lo + GOLDEN * (hi - lo);
            f2 = separation2(a, b, x2);
        } else {
            hi = x2, x2 = x1, f2 = f1;
            x1 = hi - GOLDEN * (hi - lo);
            f1 = separation2(a, b, x1);
        }
    }
    ld fine = f1 > f2 ? f1 : f2;
    return fine > best ? fine : best;
}

/// 2D halo steps (epa2.c): two ellipses 1e-5 to 1e-2 deep against the
/// reference (the largest separation over the angles, negative here), with
/// the depth as a motion. In double at the default tolerance their EPA
/// took a mean of 12.2 iterations before the halo and 8.1 with it; the
/// mean is checked below 10 in double (iteration counts: the method, not a
/// timing).
static void test_2d_epa_halo(void) {
    gjk_vec2 ra = gjk_v2(1, (gjk_real)0.6), rb = gjk_v2((gjk_real)0.8, (gjk_real)0.3);
    gjk2_shape a = gjk2_make_ellipse(ra), b = gjk2_make_ellipse(rb);
    static const double depths[] = {1e-5, 1e-3, 1e-2};
    rng r = {0x4A12ULL};
    long iterations = 0;
    int queries = 0;
    for (int d = 0; d < 3; ++d) {
        for (int i = 0; i < 16; ++i) {
            gjk2_query_input in;
            memset(&in, 0, sizeof in);
            in.shape_a = &a;
            in.shape_b = &b;
            in.transform_a = gjk_transform2_make(gjk_v2((gjk_real)rng_range(&r, -2, 2), (gjk_real)rng_range(&r, -2, 2)),
                                                 (gjk_real)rng_range(&r, 0, 6.283));
            double ang = rng_range(&r, 0, 6.283);
            in.transform_b = gjk_transform2_make(
                gjk_add2(in.transform_a.position, gjk_v2((gjk_real)(3 * cos(ang)), (gjk_real)(3 * sin(ang)))),
                (gjk_real)rng_range(&r, 0, 6.283));
            for (int it = 0; it < 4; ++it) {
                gjk2_penetration_output o = gjk2_penetration(&in, NULL);
                in.transform_b.position =
                    gjk_add2(in.transform_b.position, gjk_scale2((gjk_real)-depths[d] - o.signed_distance, o.normal));
            }
            ellipse_ref ea = make_ref2(ra, in.transform_a), eb = make_ref2(rb, in.transform_b);
            ld core = reference_distance2(&ea, &eb);
            ld dx = eb.c[0] - ea.c[0], dy = eb.c[1] - ea.c[1];
            pose bound_pose; // only its bound is read by allowed()
            bound_pose.bound = sqrtl(dx * dx + dy * dy) + 1 + (ld)rb.x;
            double allow = allowed(&bound_pose);
            gjk2_penetration_output o = gjk2_penetration(&in, NULL);
            ENSURE(o.status == GJK_PENETRATING);
            ENSURE_NEAR(o.signed_distance, (double)core, allow);
            in.transform_b.position = gjk_sub2(in.transform_b.position, gjk_scale2(o.signed_distance, o.normal));
            ENSURE_NEAR(gjk2_penetration(&in, NULL).signed_distance, 0, 2 * allow);
            iterations += o.epa_iterations;
            ++queries;
        }
    }
    double mean = (double)iterations / queries;
    printf("  2D EPA: %.1f iterations a query\n", mean);
    if (!GJK_USE_FLOAT) {
        ENSURE(mean < 10);
    }
}

/// 2D walks with secant steps (AUTO) against the plain walk and the reference:
/// ellipse pairs and an ellipse with a small circle, from 1 apart to nearly
/// touching. Same checks as test_momentum_vs_plain, plus the public query.
#if GJK_USE_FLOAT
static const int EXPS2[] = {-50, -30, -20, 20, 30, 50, 60};
#else
static const int EXPS2[] = {-480, -300, -200, 200, 300, 480, 508};
#endif
#define NEXP2 ((int)(sizeof EXPS2 / sizeof EXPS2[0]))

static void test_2d_ellipses(void) {
    gjk_vec2 ra = gjk_v2(1, (gjk_real)0.8), rb = gjk_v2((gjk_real)0.9, (gjk_real)0.7);
    gjk2_shape a = gjk2_make_ellipse(ra);
    gjk2_shape shapes_b[2] = {gjk2_make_ellipse(rb), gjk2_make_circle((gjk_real)0.05)};
    gjk_vec2 core_b[2] = {rb, gjk_v2(0, 0)};
    gjk_real rounding[2] = {0, (gjk_real)0.05};
    const double bands[] = {1.0, 0.3, 0.1, 1e-3, 1e-5};
    rng r = {2024};
    long sum_on = 0, sum_off = 0;
    int accelerated = 0, walks = 0;
    for (int kb = 0; kb < 2; ++kb) {
        for (int b = 0; b < 5; ++b) {
            for (int i = 0; i < 16; ++i) {
                gjk2_query_input in;
                memset(&in, 0, sizeof in);
                in.shape_a = &a;
                in.shape_b = &shapes_b[kb];
                in.transform_a = gjk_transform2_make(gjk_v2((gjk_real)rng_range(&r, -2, 2), (gjk_real)rng_range(&r, -2, 2)),
                                                     (gjk_real)rng_range(&r, 0, 6.283));
                double ang = rng_range(&r, 0, 6.283);
                in.transform_b = gjk_transform2_make(gjk_add2(in.transform_a.position, gjk_v2((gjk_real)(3 * cos(ang)),
                                                                                              (gjk_real)(3 * sin(ang)))),
                                                     (gjk_real)rng_range(&r, 0, 6.283));
                for (int it = 0; it < 4; ++it) {
                    gjk2_penetration_output o = gjk2_penetration(&in, NULL);
                    in.transform_b.position = gjk_add2(in.transform_b.position,
                                                       gjk_scale2((gjk_real)bands[b] - o.signed_distance, o.normal));
                }
                ellipse_ref ea = make_ref2(ra, in.transform_a), eb = make_ref2(core_b[kb], in.transform_b);
                ld core = reference_distance2(&ea, &eb);
                ld dx = eb.c[0] - ea.c[0], dy = eb.c[1] - ea.c[1];
                pose bound_pose; // only its bound is read by allowed()
                bound_pose.bound = sqrtl(dx * dx + dy * dy) + 1 + (ld)core_b[kb].x + (ld)rounding[kb];
                double allow = allowed(&bound_pose);

                gjk2_walk w[2];
                for (int m = 0; m < 2; ++m) {
                    gjk2_pair p;
                    gjk_transform2 xa;
                    ENSURE(gjk2_pair_init(&p, in.shape_a, &in.transform_a, in.shape_b, &in.transform_b, &in.options, &xa));
                    memset(&w[m], 0, sizeof w[m]);
                    w[m].max_iterations = GJK_DEFAULT_MAX_ITERATIONS;
                    gjk_walk_end e = gjk2_walk_run_momentum(&p, &w[m], m ? GJK_MOMENTUM_AUTO : GJK_MOMENTUM_OFF);
                    ENSURE(e == GJK_WALK_CONVERGED);
                }
                double err_on = fabs((double)((ld)gjk_length2(w[1].v) - core));
                double err_off = fabs((double)((ld)gjk_length2(w[0].v) - core));
                ENSURE(err_on <= allow && err_off <= allow);
                ENSURE(err_on <= fmax(err_off, (double)GJK_DEFAULT_TOLERANCE * (double)bound_pose.bound));
                ENSURE((double)w[1].lower <= (double)core + allow);
                ENSURE(w[0].accelerated == 0);
                gjk2_distance_output d = gjk2_distance(&in, NULL);
                ENSURE(d.status == GJK_SEPARATED);
                ENSURE_NEAR(d.distance, (double)(core - (ld)rounding[kb]), allow);
                // Scaled by powers of two, as test_huge_and_tiny_sizes in
                // 3D: the ellipse's support squares its radii times an
                // edge's normal, cubic in the size.
                for (int e = 0; e < NEXP2 && i < 4; ++e) {
                    double sc = ldexp(1, EXPS2[e]);
                    gjk2_shape as = gjk2_make_ellipse(gjk_scale2((gjk_real)sc, ra));
                    gjk2_shape bs = kb == 0 ? gjk2_make_ellipse(gjk_scale2((gjk_real)sc, rb))
                                            : gjk2_make_circle((gjk_real)(sc * (double)rounding[kb]));
                    gjk2_query_input q = in;
                    q.shape_a = &as;
                    q.shape_b = &bs;
                    q.transform_a.position = gjk_scale2((gjk_real)sc, in.transform_a.position);
                    q.transform_b.position = gjk_scale2((gjk_real)sc, in.transform_b.position);
                    gjk2_distance_output ds = gjk2_distance(&q, NULL);
                    ENSURE(ds.status == GJK_SEPARATED);
                    ENSURE_NEAR((double)ds.distance / sc, (double)(core - (ld)rounding[kb]), allow);
                }
                sum_on += w[1].iterations;
                sum_off += w[0].iterations;
                ++walks;
                accelerated += w[1].accelerated > 0;
            }
        }
    }
    printf("  2D: %ld iterations with secant steps, %ld plain; %d of %d walks accelerated\n", sum_on, sum_off,
           accelerated, walks);
    ENSURE(10 * accelerated >= 9 * walks);
#if GJK_USE_FLOAT
    ENSURE(4 * sum_on <= 3 * sum_off);
#else
    ENSURE(2 * sum_on <= sum_off);
#endif
}

/// The three queries on one pose (the shapes scaled by k): their statuses.
static void three_statuses(gjk_shape a, gjk_shape b, const double p[14], double k, gjk_status st[3], int *iterations) {
    gjk_query_input in;
    memset(&in, 0, sizeof in);
    in.shape_a = &a, in.shape_b = &b;
    in.transform_a = gjk_transform_make(gjk_v3((gjk_real)(p[0] * k), (gjk_real)(p[1] * k), (gjk_real)(p[2] * k)),
                                        gjk_quat_make((gjk_real)p[3], (gjk_real)p[4], (gjk_real)p[5], (gjk_real)p[6]));
    in.transform_b = gjk_transform_make(gjk_v3((gjk_real)(p[7] * k), (gjk_real)(p[8] * k), (gjk_real)(p[9] * k)),
                                        gjk_quat_make((gjk_real)p[10], (gjk_real)p[11], (gjk_real)p[12], (gjk_real)p[13]));
    gjk_distance_output d = gjk_distance(&in, NULL);
    st[0] = d.status;
    st[1] = gjk_penetration(&in, NULL).status;
    st[2] = gjk_intersect(&in).status;
    *iterations = d.iterations;
}

/// A review's cases against the first version of the secant steps (poses:
/// positions, then quaternions w, x, y, z, of A and B):
/// - two ellipsoids in the touching band, 2e-10 and 3.5e-10 apart: the
///   penetration query's walk (which then waited for a proof of "apart")
///   and the distance and intersect walks (which did not) came out on
///   opposite sides of the tolerance;
/// - two touching ellipsoids at 2^-510: distance and intersect not
///   converged (EPA after a secant walk's thin tetrahedron), penetration
///   touching;
/// - a cylinder and a cone 1e-5 apart in float: an endless cycle of seven
///   plain steps (|v| drifting up) and one secant step that halved the
///   drifted gap, to the iteration cap.
/// Every walk now waits for that proof, and a secant step must halve the
/// least gap seen.
static void test_review_cases(void) {
    const double band_a[14] = {0x1.4501cc127b4f8p-1, -0x1.1d0bf444549acp+0, 0x1.5a95fdbe60c74p-1, 0x1.74eb8c418b69cp-5,
                               0x1.7b64a60515821p-6,  0x1.f99b3acae6848p-1,  -0x1.3137f244be2e7p-3, 0x1.c851731e93f4dp-2,
                               -0x1.10a677f491c8p+1,  -0x1.47f9469dd9b9ap-2, 0x1.f991e94723c38p-3,  -0x1.2ffbd0c1cbf67p-1,
                               -0x1.836848b7fdd38p-1, -0x1.e5330dd6c5ab7p-4};
    const double band_b[14] = {-0x1.32c5383843bc2p+0, 0x1.d960a19ea8074p-1, 0x1.6e66447b41674p-1,  0x1.60bf68ddd52d6p-2,
                               0x1.8cc5b3d761b43p-11, 0x1.a03cdc0a18132p-1, 0x1.e0c24374d9ed5p-2,  -0x1.51497fe1428e5p+1,
                               0x1.57e17340c6bafp+0,  0x1.c0142cb2b7bd1p-2, 0x1.1995c9bf16442p-3,  0x1.45caaf3c9b8fdp-1,
                               -0x1.84a5c9ecc842dp-1, -0x1.1192fb5b3881ep-9};
    const double cyl_cone[14] = {-0x1.998076p+0, 0x1.af633cp+0, -0x1.c8f138p+0, 0x1.e97be6p-3, 0x1.467502p-1,
                                 -0x1.58b888p-1, 0x1.270b2ep-2, -0x1.56ef74p+0, 0x1.75fbaap+0, -0x1.a7067cp-1,
                                 -0x1.52a62cp-1, 0x1.3cea04p-1, -0x1.5801d8p-2, -0x1.0820eep-2};
    gjk_shape e1 = gjk_make_ellipsoid(gjk_v3(1, (gjk_real)0.7, (gjk_real)0.5));
    gjk_shape e2 = gjk_make_ellipsoid(gjk_v3((gjk_real)0.9, (gjk_real)0.6, (gjk_real)0.8));
    gjk_status st[3];
    int it;
    three_statuses(e1, e2, band_a, 1, st, &it);
    ENSURE(st[0] == st[1] && st[1] == st[2]);
    three_statuses(e1, e2, band_b, 1, st, &it);
    ENSURE(st[0] == st[1] && st[1] == st[2]);
#if !GJK_USE_FLOAT
    const double touching[14] = {0x1.2ee87386be11cp-1, 0x1.bcdc32d41858p-3,   0x1.c9d0509f23e2p-2,  0x1.c8f70d5f37331p-1,
                                 0x1.7e774f8b958e6p-2, -0x1.dfb22d1818c5bp-3, 0x1.85e17180a2b9fp-4, 0x1.425bca44d3378p-1,
                                 0x1.89c7f9ba8ac06p+0, -0x1.855277647e17p-4,  0x1.6c57a1b62e741p-1, -0x1.6a9e60e3d8ae4p-2,
                                 -0x1.d6a540614ee17p-4, 0x1.3110994a316adp-1};
    for (int e = 500; e <= 512; e += 2) {
        double k = ldexp(1, -e);
        gjk_shape a = gjk_make_ellipsoid(gjk_v3((gjk_real)k, (gjk_real)(0.7 * k), (gjk_real)(0.5 * k)));
        gjk_shape b = gjk_make_ellipsoid(gjk_v3((gjk_real)(0.9 * k), (gjk_real)(0.6 * k), (gjk_real)(0.8 * k)));
        three_statuses(a, b, touching, k, st, &it);
        ENSURE(st[0] == GJK_TOUCHING && st[1] == GJK_TOUCHING && st[2] == GJK_TOUCHING);
    }
#endif
    three_statuses(gjk_make_cylinder((gjk_real)0.5, (gjk_real)0.8), gjk_make_cone((gjk_real)0.6, (gjk_real)0.8), cyl_cone,
                   1, st, &it);
    ENSURE(st[0] == GJK_SEPARATED && st[1] == GJK_SEPARATED && st[2] == GJK_SEPARATED);
    ENSURE(it < 64);
}

int main(void) {
    setup();
    RUN_TEST(test_reference_search);
    RUN_TEST(test_queries_against_reference);
    RUN_TEST(test_momentum_vs_plain);
    RUN_TEST(test_auto_choice);
    RUN_TEST(test_forced_on_flat_shapes);
    RUN_TEST(test_trace_bounds);
    RUN_TEST(test_warm_start);
    RUN_TEST(test_early_exits);
    RUN_TEST(test_tetrahedron_stall);
    RUN_TEST(test_converged_walks_certified);
    RUN_TEST(test_huge_and_tiny_sizes);
    RUN_TEST(test_epa_bounds_meet);
    RUN_TEST(test_epa_halo);
    RUN_TEST(test_epa_ball_certificate);
    RUN_TEST(test_epa_flat_start);
    RUN_TEST(test_epa_bounds_meet_flat);
    RUN_TEST(test_2d_ellipses);
    RUN_TEST(test_2d_epa_halo);
    RUN_TEST(test_review_cases);
    return TEST_SUMMARY();
}
