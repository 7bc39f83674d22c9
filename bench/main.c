// gjk_bench: the same shapes, poses and queries for gjk and its peers, in one
// process; times per query, mean iterations, the largest disagreement with
// gjk, instruction counts under callgrind; results.csv, RESULTS.md, plot.svg.
//
//   gjk_bench [--out DIR] [--work DIR] [--no-instr]
//   BENCH_QUICK=1   a quick pass (fewer pairs, sizes and repetitions)
//   BENCH_PAIRS=N   pose pairs per workload (default 1000; 100 quick)
//   BENCH_REPS=N    timed repetitions of every row (default 3; 1 quick)
//   BENCH_SKIP=a,b  leave these peers out (reported as skipped)
//   BENCH_WORKLOADS=a,b  run only these workloads (names as in the tables)
//
// Method (after Montaut et al., GJK++): random pose pairs, B slid along the
// contact normal so that the signed distance is exactly each band; every
// library answers every pair; the time of a pair is the minimum over the
// repetitions of (time of k back-to-back queries on that pair) / k, and a
// row reports the median and 95th percentile of that over the pairs.
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <valgrind/callgrind.h>

#include "bench.h"
#include "bench_config.h"
#include "bench_gjk.h"
#include "gjk/batch.h"
#include "gjk/gjk.h"
#include "gjk/gjk2d.h"

// ---------------------------------------------------------------- settings

static const double BANDS[] = {1, 1e-1, 1e-3, 1e-5, -1e-5, -1e-3, -1e-1};
#define NBANDS ((int)(sizeof BANDS / sizeof BANDS[0]))
static const char *QUERY_NAMES[BENCH_Q_COUNT] = {"intersect", "distance", "penetration"};

static const bench_lib *LIBS[] = {&bench_lib_gjk,  &bench_lib_ccd,    &bench_lib_ccd_mpr,
                                  &bench_lib_coal, &bench_lib_fcl,    &bench_lib_mujoco,
                                  &bench_lib_bullet, &bench_lib_bullet_pd, &bench_lib_box2d,
                                  &bench_lib_chipmunk, &bench_lib_gjk_tol, &bench_lib_gjk_margin};
#define NLIBS ((int)(sizeof LIBS / sizeof LIBS[0]))

static void write_warm_csv(FILE *f);
static void write_warm_md(FILE *f);
static int g_pairs = 1000, g_reps = 3, g_quick = 0, g_debug = 0;

// Does library l take workloads of dimension dim (2 or 3)?
static int lib_takes(int l, int dim) {
    int dims = LIBS[l]->dims ? LIBS[l]->dims : BENCH_DIM3;
    return (dims & (dim == 2 ? BENCH_DIM2 : BENCH_DIM3)) != 0;
}

// Is library l a variant of gjk (other options), reported in its own section?
static int lib_variant(int l) { return (LIBS[l]->dims & BENCH_VARIANT) != 0; }

// Does library l answer the penetration of shapes apart with a bare
// "separated" (+INFINITY, no distance)? Then gjk-margin, which answers the
// same, stands in for gjk against it on those bands (write_targets).
static int lib_bare_separated(int l) { return LIBS[l] == &bench_lib_ccd || LIBS[l] == &bench_lib_ccd_mpr; }

// Does library l have a column in the tables of dimension dim (the peers and
// gjk itself, not its variants)?
static int lib_shown(int l, int dim) { return lib_takes(l, dim) && !lib_variant(l); }

// ---------------------------------------------------------------- random

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng_next(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double rng_uniform(void) { return (double)(rng_next() >> 11) * (1.0 / 9007199254740992.0); }
static double rng_gauss(void) {
    double u = rng_uniform(), v = rng_uniform();
    if (u < 1e-300) u = 1e-300;
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}
static void rng_unit(double out[3]) {
    double n;
    do {
        for (int k = 0; k < 3; k++) out[k] = rng_gauss();
        n = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
    } while (n < 1e-9);
    for (int k = 0; k < 3; k++) out[k] /= n;
}

// ---------------------------------------------------------------- poses

static void pose_set_quat(bench_pose *p, double w, double x, double y, double z) {
    double n = sqrt(w * w + x * x + y * y + z * z);
    w /= n; x /= n; y /= n; z /= n;
    p->q[0] = w; p->q[1] = x; p->q[2] = y; p->q[3] = z;
    double *R = p->R;
    R[0] = 1 - 2 * (y * y + z * z); R[1] = 2 * (x * y - w * z);     R[2] = 2 * (x * z + w * y);
    R[3] = 2 * (x * y + w * z);     R[4] = 1 - 2 * (x * x + z * z); R[5] = 2 * (y * z - w * x);
    R[6] = 2 * (x * z - w * y);     R[7] = 2 * (y * z + w * x);     R[8] = 1 - 2 * (x * x + y * y);
}
static void pose_apply(const bench_pose *p, const double v[3], double out[3]) {
    for (int r = 0; r < 3; r++) out[r] = p->R[3 * r] * v[0] + p->R[3 * r + 1] * v[1] + p->R[3 * r + 2] * v[2] + p->p[r];
}
// ---------------------------------------------------------------- workloads

typedef struct workload {
    char name[32];
    bench_kind kind;
    int dim;   // 2 or 3
    int n;     // hull vertices (0 for primitives)
    int pairs;
    bench_shape a, b;
    double *va, *vb;
    int *fa, *fb;
    gjk_shape ga, gb; // ours, for placing the poses (3D)
    gjk_vec3 *gva, *gvb;
    gjk2_shape ga2, gb2; // the same in 2D
    gjk_vec2 *gva2, *gvb2;
    bench_pose *pose_a;          // [pairs]
    bench_pose *base_b;          // [pairs]
    bench_pose *pose_b[NBANDS];  // [pairs] each; NULL until placed
    double *sd[NBANDS];          // gjk's signed distance at the placed pose
    double *exact[NBANDS];       // exact signed distance, NAN where no reference
    double place_err[NBANDS];    // max |sd - band| after placement
    double exact_err[NBANDS];    // max |exact - band|, NAN without reference
    int has_exact;
} workload;

static const double ELL_RADII[3] = {1.0, 0.8, 0.6};

static double *ellipsoid_cloud(int n) {
    double *v = malloc(sizeof(double) * 3 * (size_t)n);
    if (n == 8) { // a box: the 8 corners of the ellipsoid's bounding box scaled to lie on it
        double s = 1.0 / sqrt(3.0);
        for (int i = 0; i < 8; i++)
            for (int k = 0; k < 3; k++) v[3 * i + k] = ((i >> k) & 1 ? s : -s) * ELL_RADII[k];
        return v;
    }
    for (int i = 0; i < n; i++) {
        double u[3];
        rng_unit(u);
        for (int k = 0; k < 3; k++) v[3 * i + k] = u[k] * ELL_RADII[k];
    }
    return v;
}

// A 2D polygon of n points on the ellipse with radii (1, 0.8): the angles are
// stratified (one in each n-th of the turn, away from its ends) so that no two
// points are closer than about a tenth of the spacing, which Box2D would weld.
// n = 4 is the box of those radii / sqrt 2.
static double *ellipse_cloud(int n) {
    double *v = malloc(sizeof(double) * 2 * (size_t)n);
    if (n == 4) {
        double s = 1.0 / sqrt(2.0);
        for (int i = 0; i < 4; i++) {
            v[2 * i] = (i == 0 || i == 3 ? s : -s) * ELL_RADII[0];
            v[2 * i + 1] = (i < 2 ? s : -s) * ELL_RADII[1];
        }
        return v;
    }
    for (int i = 0; i < n; i++) {
        double t = 6.283185307179586 * (i + 0.1 + 0.8 * rng_uniform()) / n;
        v[2 * i] = cos(t) * ELL_RADII[0];
        v[2 * i + 1] = sin(t) * ELL_RADII[1];
    }
    return v;
}

static gjk_shape gjk_of(const bench_shape *s, gjk_vec3 **store) {
    *store = NULL;
    switch (s->kind) {
    case BENCH_POLY: {
        gjk_vec3 *v = malloc(sizeof *v * (size_t)s->n);
        for (int i = 0; i < s->n; i++) v[i] = gjk_v3(s->verts[3 * i], s->verts[3 * i + 1], s->verts[3 * i + 2]);
        *store = v;
        return gjk_make_polytope(v, s->n);
    }
    case BENCH_BOX: return gjk_make_box(gjk_v3(s->ext[0], s->ext[1], s->ext[2]));
    case BENCH_SPHERE: return gjk_make_sphere(s->radius);
    case BENCH_CAPSULE: return gjk_make_capsule(gjk_v3(0, 0, -s->half_len), gjk_v3(0, 0, s->half_len), s->radius);
    case BENCH_ELLIPSOID: return gjk_make_ellipsoid(gjk_v3(s->ext[0], s->ext[1], s->ext[2]));
    default: break;
    }
    return gjk_make_point();
}

static void make_shape(workload *w, bench_shape *s, double **verts, int **faces) {
    memset(s, 0, sizeof *s);
    s->kind = w->kind;
    *verts = NULL;
    *faces = NULL;
    switch (w->kind) {
    case BENCH_POLY: {
        s->n = w->n;
        *verts = ellipsoid_cloud(w->n);
        s->verts = *verts;
        int max_faces = 2 * w->n + 16;
        *faces = malloc(sizeof(int) * 3 * (size_t)max_faces);
        s->nfaces = bench_hull(*verts, w->n, *faces, max_faces);
        s->faces = *faces;
        if (s->nfaces <= 0) {
            fprintf(stderr, "qhull failed on workload %s\n", w->name);
            exit(2);
        }
        break;
    }
    case BENCH_BOX: memcpy(s->ext, (double[3]){0.9, 0.7, 0.5}, sizeof s->ext); break;
    case BENCH_SPHERE: s->radius = 0.8; break;
    case BENCH_CAPSULE: s->radius = 0.4; s->half_len = 0.6; break;
    case BENCH_ELLIPSOID: memcpy(s->ext, ELL_RADII, sizeof s->ext); break;
    case BENCH_POLY2:
        s->n = w->n;
        *verts = ellipse_cloud(w->n);
        s->verts = *verts;
        break;
    case BENCH_CIRCLE: s->radius = 0.8; break;
    case BENCH_CAPSULE2: s->radius = 0.4; s->half_len = 0.6; break;
    }
}

static void workload_init(workload *w, const char *name, bench_kind kind, int n, int pairs, uint64_t seed) {
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "%s", name);
    w->kind = kind;
    w->dim = bench_kind_dim(kind);
    w->n = n;
    w->pairs = pairs;
    rng_state = seed;
    make_shape(w, &w->a, &w->va, &w->fa);
    make_shape(w, &w->b, &w->vb, &w->fb);
    if (w->dim == 2) {
        w->ga2 = bench_gjk2_shape(&w->a, &w->gva2);
        w->gb2 = bench_gjk2_shape(&w->b, &w->gvb2);
    } else {
        w->ga = gjk_of(&w->a, &w->gva);
        w->gb = gjk_of(&w->b, &w->gvb);
    }
    w->pose_a = calloc((size_t)pairs, sizeof *w->pose_a);
    w->base_b = calloc((size_t)pairs, sizeof *w->base_b);
    for (int i = 0; i < pairs && w->dim == 2; i++) {
        // 2D: rotations about z, A within the unit square, B three units away.
        bench_pose *pa = &w->pose_a[i], *pb = &w->base_b[i];
        double ta = 3.141592653589793 * rng_uniform(), tb = 3.141592653589793 * rng_uniform();
        double u = 6.283185307179586 * rng_uniform();
        pose_set_quat(pa, cos(ta), 0, 0, sin(ta)); // half angles in [0, pi): angles in [0, 2 pi)
        pose_set_quat(pb, cos(tb), 0, 0, sin(tb));
        pa->p[0] = 2 * rng_uniform() - 1;
        pa->p[1] = 2 * rng_uniform() - 1;
        pb->p[0] = pa->p[0] + 3 * cos(u);
        pb->p[1] = pa->p[1] + 3 * sin(u);
    }
    for (int i = 0; i < pairs && w->dim == 3; i++) {
        bench_pose *pa = &w->pose_a[i], *pb = &w->base_b[i];
        pose_set_quat(pa, rng_gauss(), rng_gauss(), rng_gauss(), rng_gauss());
        pose_set_quat(pb, rng_gauss(), rng_gauss(), rng_gauss(), rng_gauss());
        double u[3];
        rng_unit(u);
        for (int k = 0; k < 3; k++) {
            pa->p[k] = 2 * rng_uniform() - 1;
            pb->p[k] = pa->p[k] + 3 * u[k];
        }
    }
    w->has_exact = kind == BENCH_SPHERE || kind == BENCH_CAPSULE || kind == BENCH_BOX || (kind == BENCH_POLY && n <= 32) ||
                   w->dim == 2;
    for (int b = 0; b < NBANDS; b++) w->exact_err[b] = NAN;
}

static void workload_free(workload *w) {
    free(w->va); free(w->vb); free(w->fa); free(w->fb); free(w->gva); free(w->gvb); free(w->gva2); free(w->gvb2);
    free(w->pose_a); free(w->base_b);
    for (int b = 0; b < NBANDS; b++) { free(w->pose_b[b]); free(w->sd[b]); free(w->exact[b]); }
}

static gjk_penetration_output gjk_pen(const workload *w, const bench_pose *pa, const bench_pose *pb) {
    gjk_query_input in;
    memset(&in, 0, sizeof in);
    in.shape_a = &w->ga;
    in.shape_b = &w->gb;
    in.transform_a = bench_gjk_transform(pa);
    in.transform_b = bench_gjk_transform(pb);
    return gjk_penetration(&in, NULL);
}

// gjk2_penetration at a 2D pose pair (R[0], R[3]: cosine and sine).
static gjk2_penetration_output gjk_pen2(const workload *w, const bench_pose *pa, const bench_pose *pb) {
    gjk2_query_input in;
    memset(&in, 0, sizeof in);
    in.shape_a = &w->ga2;
    in.shape_b = &w->gb2;
    in.transform_a.position = gjk_v2(pa->p[0], pa->p[1]);
    in.transform_a.rotation.c = pa->R[0];
    in.transform_a.rotation.s = pa->R[3];
    in.transform_b.position = gjk_v2(pb->p[0], pb->p[1]);
    in.transform_b.rotation.c = pb->R[0];
    in.transform_b.rotation.s = pb->R[3];
    return gjk2_penetration(&in, NULL);
}

static int cmp_xy(const void *a, const void *b) {
    const double *p = a, *q = b;
    if (p[0] != q[0]) return p[0] < q[0] ? -1 : 1;
    return (p[1] > q[1]) - (p[1] < q[1]);
}

// The signed distance of each of the nx points x (xy) to the convex hull of
// the n points pts (xy; sorted in place), negative inside. The hull is
// Andrew's monotone chain (counter-clockwise, collinear points dropped);
// outside, the distance is the least distance to an edge; inside, minus the
// least distance to an edge's line.
static void hull2_signed_distance(double *pts, int n, const double *x, int nx, double *out) {
    qsort(pts, (size_t)n, 2 * sizeof(double), cmp_xy);
    double *h = malloc(sizeof(double) * 2 * (size_t)(2 * n + 1));
    int k = 0;
#define CROSS(o, a, b) (((a)[0] - (o)[0]) * ((b)[1] - (o)[1]) - ((a)[1] - (o)[1]) * ((b)[0] - (o)[0]))
    for (int i = 0; i < n; i++) {
        while (k >= 2 && CROSS(h + 2 * (k - 2), h + 2 * (k - 1), pts + 2 * i) <= 0) k--;
        h[2 * k] = pts[2 * i]; h[2 * k + 1] = pts[2 * i + 1]; k++;
    }
    for (int i = n - 2, lo = k + 1; i >= 0; i--) {
        while (k >= lo && CROSS(h + 2 * (k - 2), h + 2 * (k - 1), pts + 2 * i) <= 0) k--;
        h[2 * k] = pts[2 * i]; h[2 * k + 1] = pts[2 * i + 1]; k++;
    }
#undef CROSS
    k--; // the last point repeats the first
    for (int j = 0; j < nx; j++) {
        const double *p = x + 2 * j;
        int inside = 1;
        double dmin = INFINITY, depth = INFINITY;
        for (int e = 0; e < k; e++) {
            const double *a = h + 2 * e, *b = h + 2 * ((e + 1) % k);
            double ex = b[0] - a[0], ey = b[1] - a[1], len = sqrt(ex * ex + ey * ey);
            double px = p[0] - a[0], py = p[1] - a[1];
            double side = (ex * py - ey * px) / len; // > 0: left of the edge, inside a CCW hull
            if (side < 0) inside = 0;
            depth = fmin(depth, side);
            double t = fmin(fmax((px * ex + py * ey) / (len * len), 0), 1);
            dmin = fmin(dmin, hypot(px - t * ex, py - t * ey));
        }
        out[j] = inside ? -depth : dmin;
    }
    free(h);
}

// Closest points of segments p1q1 and p2q2 (Ericson 5.1.9); returns the distance.
static double segment_distance(const double p1[3], const double q1[3], const double p2[3], const double q2[3]) {
    double d1[3], d2[3], r[3];
    for (int k = 0; k < 3; k++) { d1[k] = q1[k] - p1[k]; d2[k] = q2[k] - p2[k]; r[k] = p1[k] - p2[k]; }
#define DOT3(x, y) (x[0] * y[0] + x[1] * y[1] + x[2] * y[2])
    double a = DOT3(d1, d1), e = DOT3(d2, d2), f = DOT3(d2, r), s, t;
    double c = DOT3(d1, r), b = DOT3(d1, d2), den = a * e - b * b;
#undef DOT3
    s = den > 1e-300 ? fmin(fmax((b * f - c * e) / den, 0), 1) : 0;
    t = (b * s + f) / e;
    if (t < 0) { t = 0; s = fmin(fmax(-c / a, 0), 1); }
    else if (t > 1) { t = 1; s = fmin(fmax((b - c) / a, 0), 1); }
    double d = 0;
    for (int k = 0; k < 3; k++) {
        double x = p1[k] + d1[k] * s - (p2[k] + d2[k] * t);
        d += x * x;
    }
    return sqrt(d);
}

// The exact signed distances of pair i at the placed poses of the bands given.
static void exact_pair(workload *w, int i, const int *bands, int nb) {
    const bench_pose *pa = &w->pose_a[i];
    if (w->kind == BENCH_SPHERE || w->kind == BENCH_CIRCLE) {
        for (int j = 0; j < nb; j++) {
            const bench_pose *pb = &w->pose_b[bands[j]][i];
            double d = sqrt(pow(pb->p[0] - pa->p[0], 2) + pow(pb->p[1] - pa->p[1], 2) + pow(pb->p[2] - pa->p[2], 2));
            w->exact[bands[j]][i] = d - w->a.radius - w->b.radius;
        }
        return;
    }
    if (w->kind == BENCH_CAPSULE || w->kind == BENCH_CAPSULE2) {
        int ax = w->kind == BENCH_CAPSULE ? 2 : 0; // the capsule's axis: z in 3D, x in 2D
        double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
        lo[ax] = -w->a.half_len;
        hi[ax] = w->a.half_len;
        double a0[3], a1[3], b0[3], b1[3];
        pose_apply(pa, lo, a0);
        pose_apply(pa, hi, a1);
        for (int j = 0; j < nb; j++) {
            const bench_pose *pb = &w->pose_b[bands[j]][i];
            double lb[3] = {0, 0, 0}, hb[3] = {0, 0, 0};
            lb[ax] = -w->b.half_len;
            hb[ax] = w->b.half_len;
            pose_apply(pb, lb, b0);
            pose_apply(pb, hb, b1);
            w->exact[bands[j]][i] = segment_distance(a0, a1, b0, b1) - w->a.radius - w->b.radius;
        }
        return;
    }
    if (w->kind == BENCH_POLY2) {
        // The 2D hull of the Minkowski difference at B's base pose, as below.
        const bench_pose *pb0 = &w->base_b[i];
        int na = w->a.n, nbv = w->b.n;
        double *pts = malloc(sizeof(double) * 2 * (size_t)(na * nbv));
        for (int p = 0; p < na; p++)
            for (int q = 0; q < nbv; q++) {
                double la[3] = {w->a.verts[2 * p], w->a.verts[2 * p + 1], 0}, lb[3] = {w->b.verts[2 * q], w->b.verts[2 * q + 1], 0};
                double xa[3], xb[3];
                pose_apply(pa, la, xa);
                pose_apply(pb0, lb, xb);
                pts[2 * (p * nbv + q)] = xa[0] - xb[0];
                pts[2 * (p * nbv + q) + 1] = xa[1] - xb[1];
            }
        double x[2 * NBANDS], out[NBANDS];
        for (int j = 0; j < nb; j++)
            for (int k = 0; k < 2; k++) x[2 * j + k] = w->pose_b[bands[j]][i].p[k] - pb0->p[k];
        hull2_signed_distance(pts, na * nbv, x, nb, out);
        for (int j = 0; j < nb; j++) w->exact[bands[j]][i] = out[j];
        free(pts);
        return;
    }
    // Box or small hull: the hull of the Minkowski difference at B's base
    // pose; B's pose of a band differs by a translation t, and the signed
    // distance is that of t to the difference (see README of bench/).
    double box_a[24], box_b[24];
    const double *va = w->a.verts, *vb = w->b.verts;
    int na = w->a.n, nbv = w->b.n;
    if (w->kind == BENCH_BOX) {
        for (int c = 0; c < 8; c++)
            for (int k = 0; k < 3; k++) {
                box_a[3 * c + k] = ((c >> k) & 1 ? 1 : -1) * w->a.ext[k];
                box_b[3 * c + k] = ((c >> k) & 1 ? 1 : -1) * w->b.ext[k];
            }
        va = box_a; vb = box_b; na = nbv = 8;
    }
    const bench_pose *pb0 = &w->base_b[i];
    double *pts = malloc(sizeof(double) * 3 * (size_t)(na * nbv));
    double *wa = malloc(sizeof(double) * 3 * (size_t)na), *wb = malloc(sizeof(double) * 3 * (size_t)nbv);
    for (int p = 0; p < na; p++) pose_apply(pa, va + 3 * p, wa + 3 * p);
    for (int q = 0; q < nbv; q++) pose_apply(pb0, vb + 3 * q, wb + 3 * q);
    for (int p = 0; p < na; p++)
        for (int q = 0; q < nbv; q++)
            for (int k = 0; k < 3; k++) pts[3 * (p * nbv + q) + k] = wa[3 * p + k] - wb[3 * q + k];
    double x[3 * NBANDS], out[NBANDS];
    for (int j = 0; j < nb; j++)
        for (int k = 0; k < 3; k++) x[3 * j + k] = w->pose_b[bands[j]][i].p[k] - pb0->p[k];
    if (bench_hull_signed_distance(pts, na * nbv, x, nb, out) == 0)
        for (int j = 0; j < nb; j++) w->exact[bands[j]][i] = out[j];
    free(pts); free(wa); free(wb);
}

// B slid along the contact normal until gjk's signed distance is the band.
static void place_bands(workload *w, const int *bands, int nb) {
    for (int j = 0; j < nb; j++) {
        int b = bands[j];
        if (w->pose_b[b]) continue;
        w->pose_b[b] = calloc((size_t)w->pairs, sizeof(bench_pose));
        w->sd[b] = calloc((size_t)w->pairs, sizeof(double));
        w->exact[b] = calloc((size_t)w->pairs, sizeof(double));
        w->place_err[b] = 0;
        for (int i = 0; i < w->pairs; i++) {
            bench_pose pb = w->base_b[i];
            double target = BANDS[b], sd = 0;
            for (int it = 0; it < 60; it++) {
                double normal[3] = {0, 0, 0};
                if (w->dim == 2) {
                    gjk2_penetration_output o = gjk_pen2(w, &w->pose_a[i], &pb);
                    sd = (double)o.signed_distance;
                    normal[0] = (double)o.normal.x;
                    normal[1] = (double)o.normal.y;
                } else {
                    gjk_penetration_output o = gjk_pen(w, &w->pose_a[i], &pb);
                    sd = (double)o.signed_distance;
                    for (int k = 0; k < 3; k++) normal[k] = (double)(&o.normal.x)[k];
                }
                double step = target - sd;
                if (fabs(step) <= 1e-14 * (1 + fabs(target))) break;
                for (int k = 0; k < 3; k++) pb.p[k] += step * normal[k];
            }
            w->pose_b[b][i] = pb;
            w->sd[b][i] = sd;
            w->exact[b][i] = NAN;
            if (fabs(sd - target) > w->place_err[b]) w->place_err[b] = fabs(sd - target);
        }
    }
    if (!w->has_exact) return;
    for (int i = 0; i < w->pairs; i++) exact_pair(w, i, bands, nb);
    for (int j = 0; j < nb; j++) {
        int b = bands[j];
        double e = 0;
        for (int i = 0; i < w->pairs; i++) e = fmax(e, fabs(w->exact[b][i] - BANDS[b]));
        w->exact_err[b] = e;
    }
}

// ---------------------------------------------------------------- timing

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double percentile(double *v, int n, double p) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double idx = p * (n - 1);
    int lo = (int)floor(idx), hi = lo + 1 < n ? lo + 1 : lo;
    return v[lo] + (v[hi] - v[lo]) * (idx - lo);
}

typedef struct row {
    char workload[32];
    const char *library;
    int query;
    int n;
    int dim; // 2 or 3
    double band;
    int state; // 0 measured, 1 not applicable (reason), 2 library missing, 3 crashed (reason)
    int whole; // state 1 for the whole workload (the library's setup declined its shapes)
    char reason[256];
    double ns_median, ns_p95, iter_mean, max_error;
    double instr; // instructions per query, NAN if not counted
} row;

static row *g_rows;
static int g_nrows, g_caprows;

static row *add_row(void) {
    if (g_nrows == g_caprows) {
        g_caprows = g_caprows ? 2 * g_caprows : 256;
        g_rows = realloc(g_rows, sizeof(row) * (size_t)g_caprows);
    }
    row *r = &g_rows[g_nrows++];
    memset(r, 0, sizeof *r);
    r->ns_median = r->ns_p95 = r->iter_mean = r->max_error = r->instr = NAN;
    return r;
}

static volatile double g_sink;

// Disagreement of one answer with a reference signed distance `ref`.
static double disagreement(int q, double answer, double ref) {
    switch (q) {
    case BENCH_Q_INTERSECT: return ((answer > 0.5) != (ref <= 0)) ? fabs(ref) : 0;
    case BENCH_Q_DISTANCE: return fabs(fmax(answer, 0) - fmax(ref, 0));
    default: return isinf(answer) ? fmax(0, -ref) : fabs(answer - ref);
    }
}

typedef struct lib_state {
    const bench_lib *lib;
    void *ctx;
    char why[200];
    unsigned char *pa, *pb; // pose blobs, pairs × BENCH_POSE_BYTES each
} lib_state;

static void make_blobs(lib_state *L, const workload *w, int band) {
    for (int i = 0; i < w->pairs; i++) {
        L->lib->make_pose(L->ctx, 0, &w->pose_a[i], L->pa + (size_t)i * BENCH_POSE_BYTES);
        L->lib->make_pose(L->ctx, 1, &w->pose_b[band][i], L->pb + (size_t)i * BENCH_POSE_BYTES);
    }
}

static void *aligned_blob(size_t bytes) {
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes) != 0) exit(3);
    memset(p, 0, bytes);
    return p;
}

// ---------------------------------------------------------------- child processes

// Every library's queries run in a child process (fork), so that a library
// that aborts or crashes on some pose (FCL 0.7 asserts inside its EPA on some
// contacts) loses that row, reported as "crashed (signal N)", instead of
// ending the run. The child inherits everything prepared in the parent (the
// shapes, the library's context, the poses in its own form), computes, writes
// its answer into a pipe and ends with _exit (no atexit handlers, no static
// destructors, no stdio flush). A child that runs longer than this is ended
// by SIGALRM.
#define CHILD_SECONDS 600

// Runs fn(arg, buf) in a child and copies the child's buf (bytes) back.
// Returns 0 on success; otherwise describes the failure in why and returns
// the signal that ended the child, or -1.
static int in_child(void (*fn)(void *arg, void *buf), void *arg, void *buf, size_t bytes, char *why, size_t whyn) {
    int fd[2];
    if (pipe(fd) != 0) {
        snprintf(why, whyn, "pipe failed: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, whyn, "fork failed: %s", strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        alarm(CHILD_SECONDS);
        fn(arg, buf);
        const char *p = buf;
        size_t left = bytes;
        while (left > 0) {
            ssize_t n = write(fd[1], p, left);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) _exit(3);
            p += n;
            left -= (size_t)n;
        }
        _exit(0);
    }
    close(fd[1]);
    size_t got = 0;
    while (got < bytes) {
        ssize_t n = read(fd[0], (char *)buf + got, bytes - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(fd[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) { st = -1; break; }
    if (st != -1 && WIFSIGNALED(st)) {
        int sig = WTERMSIG(st);
        if (sig == SIGALRM) snprintf(why, whyn, "timed out (over %d s)", CHILD_SECONDS);
        else snprintf(why, whyn, "crashed (signal %d, %s)", sig, strsignal(sig));
        return sig;
    }
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || got < bytes) {
        snprintf(why, whyn, "crashed (exit status %d)", st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        return -1;
    }
    return 0;
}

// What a child does: one library, one (workload, band, query).
typedef struct job {
    const workload *w;
    const lib_state *L;
    int query, k;
} job;

#define CAL_PAIRS 16

// Answers: one query per pair into buf[0 .. pairs), then the iterations'
// sum and count, then the time of one query from a calibration pass.
static void job_answers(void *arg, void *out) {
    const job *j = arg;
    double *o = out;
    const lib_state *L = j->L;
    int pairs = j->w->pairs, counted = 0;
    double iters = 0;
    for (int i = 0; i < pairs; i++) {
        int it = -1;
        o[i] = L->lib->query(L->ctx, j->query, L->pa + (size_t)i * BENCH_POSE_BYTES, L->pb + (size_t)i * BENCH_POSE_BYTES,
                             &it);
        if (it >= 0) { iters += it; counted++; }
    }
    o[pairs] = iters;
    o[pairs + 1] = counted;
    int it, cal = pairs < CAL_PAIRS ? pairs : CAL_PAIRS;
    double s = now_ns();
    for (int i = 0; i < cal; i++)
        g_sink = L->lib->query(L->ctx, j->query, L->pa + (size_t)i * BENCH_POSE_BYTES, L->pb + (size_t)i * BENCH_POSE_BYTES,
                               &it);
    o[pairs + 2] = (now_ns() - s) / cal;
}

// Times: for every pair, k back-to-back queries between two reads of the
// clock, after an unmeasured pass over the first pairs (it takes the page
// faults of the child's first writes, the copies of the parent's pages).
static void job_times(void *arg, void *out) {
    const job *j = arg;
    double *o = out;
    const lib_state *L = j->L;
    const bench_lib *lib = L->lib;
    void *ctx = L->ctx;
    int pairs = j->w->pairs, k = j->k, it, cal = pairs < CAL_PAIRS ? pairs : CAL_PAIRS;
    for (int i = 0; i < cal; i++)
        g_sink = lib->query(ctx, j->query, L->pa + (size_t)i * BENCH_POSE_BYTES, L->pb + (size_t)i * BENCH_POSE_BYTES, &it);
    for (int i = 0; i < pairs; i++) {
        const void *pa = L->pa + (size_t)i * BENCH_POSE_BYTES, *pb = L->pb + (size_t)i * BENCH_POSE_BYTES;
        double s = now_ns(), acc = 0;
        for (int r = 0; r < k; r++) acc += lib->query(ctx, j->query, pa, pb, &it);
        o[i] = (now_ns() - s) / k;
        g_sink = acc;
    }
}

// One workload: every band, query and library.
static void run_workload(workload *w) {
    int all[NBANDS];
    for (int b = 0; b < NBANDS; b++) all[b] = b;
    double t0 = now_ns();
    place_bands(w, all, NBANDS);
    fprintf(stderr, "  %-10s poses placed in %.1f s\n", w->name, (now_ns() - t0) * 1e-9);

    lib_state L[NLIBS];
    memset(L, 0, sizeof L);
    for (int l = 0; l < NLIBS; l++) {
        L[l].lib = LIBS[l];
        if (LIBS[l]->missing) continue;
        if (!lib_takes(l, w->dim)) {
            snprintf(L[l].why, sizeof L[l].why, "a %s library", w->dim == 2 ? "3D" : "2D");
            continue;
        }
        L[l].ctx = LIBS[l]->setup(&w->a, &w->b, L[l].why, sizeof L[l].why);
        L[l].pa = aligned_blob((size_t)w->pairs * BENCH_POSE_BYTES);
        L[l].pb = aligned_blob((size_t)w->pairs * BENCH_POSE_BYTES);
    }
    double *answer = malloc(sizeof(double) * (size_t)(w->pairs + 3));
    double *gjk_answer = malloc(sizeof(double) * (size_t)w->pairs);
    double *times = malloc(sizeof(double) * (size_t)w->pairs);
    double *best = malloc(sizeof(double) * (size_t)w->pairs * NLIBS);
    int kfac[NLIBS];

    for (int b = 0; b < NBANDS; b++) {
        for (int l = 0; l < NLIBS; l++)
            if (L[l].ctx) make_blobs(&L[l], w, b);
        for (int q = 0; q < BENCH_Q_COUNT; q++) {
            // Rows by index: add_row may move the array.
            int first = g_nrows;
            for (int l = 0; l < NLIBS; l++) add_row();
#define ROW(l) (&g_rows[first + (l)])
            int active[NLIBS];
            for (int l = 0; l < NLIBS; l++) {
                row *r = ROW(l);
                snprintf(r->workload, sizeof r->workload, "%s", w->name);
                r->library = LIBS[l]->name;
                r->query = q;
                r->n = w->n;
                r->dim = w->dim;
                r->band = BANDS[b];
                active[l] = 0;
                char why[200] = "";
                if (LIBS[l]->missing) {
                    r->state = 2;
                    snprintf(r->reason, sizeof r->reason, "%s", LIBS[l]->missing);
                } else if (!L[l].ctx) {
                    r->state = 1;
                    r->whole = 1;
                    snprintf(r->reason, sizeof r->reason, "%s", L[l].why);
                } else if (!LIBS[l]->has_query(L[l].ctx, q, why, sizeof why)) {
                    r->state = 1;
                    snprintf(r->reason, sizeof r->reason, "%s", why);
                } else {
                    active[l] = 1;
                }
            }
            // Answers: one query per pair (in a child), compared with gjk's
            // (and gjk's own with the exact reference where there is one).
            for (int i = 0; i < w->pairs; i++) // gjk's placed answer, should gjk's child fail
                gjk_answer[i] = q == BENCH_Q_DISTANCE ? fmax(w->sd[b][i], 0) : w->sd[b][i];
            for (int l = 0; l < NLIBS; l++) {
                if (!active[l]) continue;
                job J = {w, &L[l], q, 1};
                char why[200];
                if (in_child(job_answers, &J, answer, sizeof(double) * (size_t)(w->pairs + 3), why, sizeof why) != 0) {
                    ROW(l)->state = 3;
                    snprintf(ROW(l)->reason, sizeof ROW(l)->reason, "%s", why);
                    active[l] = 0;
                    fprintf(stderr, "  %-10s %s %s %+g: %s\n", w->name, LIBS[l]->name, QUERY_NAMES[q], BANDS[b], why);
                    continue;
                }
                double iters = answer[w->pairs];
                int counted = (int)answer[w->pairs + 1];
                double per = answer[w->pairs + 2];
                int k = (int)ceil(2000.0 / fmax(per, 1));
                kfac[l] = k < 1 ? 1 : k > 64 ? 64 : k;
                for (int i = 0; i < w->pairs; i++) best[(size_t)l * w->pairs + i] = INFINITY;
                if (l == 0) memcpy(gjk_answer, answer, sizeof(double) * (size_t)w->pairs);
                double err = 0;
                int have = 1;
                for (int i = 0; i < w->pairs; i++) {
                    double ref;
                    if (l == 0) {
                        ref = w->exact[b][i];
                        if (isnan(ref)) { have = 0; break; }
                    } else {
                        // gjk's answer as a signed distance: the distance
                        // query has no sign inside, so take the placed one.
                        ref = q == BENCH_Q_PENETRATION ? gjk_answer[i] : w->sd[b][i];
                        if (q == BENCH_Q_DISTANCE) ref = ref > 0 ? gjk_answer[i] : ref;
                    }
                    double e = disagreement(q, answer[i], ref);
                    if (g_debug && e > 1e-4)
                        fprintf(stderr, "disagree %s %s %s band %g pair %d: answer %.17g, reference %.17g\n", w->name,
                                LIBS[l]->name, QUERY_NAMES[q], BANDS[b], i, answer[i], ref);
                    err = fmax(err, e);
                }
                ROW(l)->max_error = have ? err : NAN;
                ROW(l)->iter_mean = counted == w->pairs ? iters / counted : NAN;
            }
            // Times: k back-to-back queries per pair, so the clock is read
            // every few microseconds at most; repetitions interleave the
            // libraries (a child per library and repetition) so that a
            // noisy moment hits all of them.
            for (int rep = 0; rep < g_reps; rep++) {
                for (int l = 0; l < NLIBS; l++) {
                    if (!active[l]) continue;
                    job J = {w, &L[l], q, kfac[l]};
                    char why[200];
                    if (in_child(job_times, &J, times, sizeof(double) * (size_t)w->pairs, why, sizeof why) != 0) {
                        ROW(l)->state = 3;
                        snprintf(ROW(l)->reason, sizeof ROW(l)->reason, "%s", why);
                        active[l] = 0;
                        fprintf(stderr, "  %-10s %s %s %+g (timing): %s\n", w->name, LIBS[l]->name, QUERY_NAMES[q],
                                BANDS[b], why);
                        continue;
                    }
                    for (int i = 0; i < w->pairs; i++) {
                        double *bp = &best[(size_t)l * w->pairs + i];
                        if (times[i] < *bp) *bp = times[i];
                    }
                }
            }
            for (int l = 0; l < NLIBS; l++) {
                if (!active[l]) continue;
                double *v = &best[(size_t)l * w->pairs];
                ROW(l)->ns_median = percentile(v, w->pairs, 0.5);
                ROW(l)->ns_p95 = percentile(v, w->pairs, 0.95);
            }
#undef ROW
        }
    }
    for (int l = 0; l < NLIBS; l++) {
        if (L[l].ctx) LIBS[l]->teardown(L[l].ctx);
        free(L[l].pa);
        free(L[l].pb);
    }
    free(answer); free(gjk_answer); free(times); free(best);
}

// ---------------------------------------------------------------- workload list

typedef struct wdef {
    const char *name;
    bench_kind kind;
    int n;
} wdef;

static const wdef WORKLOADS[] = {
    {"hull8", BENCH_POLY, 8},       {"hull32", BENCH_POLY, 32},     {"hull128", BENCH_POLY, 128},
    {"hull512", BENCH_POLY, 512},   {"hull2048", BENCH_POLY, 2048}, {"hull16384", BENCH_POLY, 16384},
    {"box", BENCH_BOX, 0},          {"sphere", BENCH_SPHERE, 0},    {"capsule", BENCH_CAPSULE, 0},
    {"ellipsoid", BENCH_ELLIPSOID, 0},
    // 2D: polygons of n points on the ellipse (1, 0.8) (n = 4: a box), a
    // circle (r 0.8) and a capsule (r 0.4, half length 0.6).
    {"2d-box", BENCH_POLY2, 4},     {"2d-poly8", BENCH_POLY2, 8},   {"2d-poly16", BENCH_POLY2, 16},
    {"2d-poly64", BENCH_POLY2, 64}, {"2d-circle", BENCH_CIRCLE, 0}, {"2d-capsule", BENCH_CAPSULE2, 0},
};
#define NWORKLOADS ((int)(sizeof WORKLOADS / sizeof WORKLOADS[0]))

#define LARGE_PAIRS 300
static int workload_pairs(const wdef *d) {
    if (d->n >= 16384) return g_pairs < LARGE_PAIRS ? g_pairs : LARGE_PAIRS; // linear scans: ~1 ms a query
    return g_pairs;
}
// Is name one of the comma-separated names of list?
static int list_has(const char *list, const char *name) {
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == len && strncmp(p, name, n) == 0) return 1;
        p += n + (e ? 1 : 0);
    }
    return 0;
}

static int workload_enabled(const wdef *d) {
    // BENCH_WORKLOADS="box,2d-box" runs only these (exact names).
    const char *only = getenv("BENCH_WORKLOADS");
    if (only && *only) return list_has(only, d->name);
    if (g_quick && d->n > 512) return 0;
    return 1;
}

// ---------------------------------------------------------------- instructions

// Rows counted under callgrind: (workload, query, band).
typedef struct instr_def {
    const char *workload;
    int query;
    int band;
} instr_def;
static const instr_def INSTR_ROWS[] = {
    {"hull8", BENCH_Q_DISTANCE, 2},   {"hull8", BENCH_Q_PENETRATION, 5},    {"box", BENCH_Q_DISTANCE, 2},
    {"box", BENCH_Q_PENETRATION, 5},  {"hull2048", BENCH_Q_DISTANCE, 2},    {"hull16384", BENCH_Q_DISTANCE, 2},
    {"sphere", BENCH_Q_DISTANCE, 2},  {"sphere", BENCH_Q_PENETRATION, 5},
    {"hull32", BENCH_Q_DISTANCE, 2},  {"hull32", BENCH_Q_PENETRATION, 5},  {"hull512", BENCH_Q_DISTANCE, 2},
    {"hull512", BENCH_Q_PENETRATION, 5}, {"capsule", BENCH_Q_DISTANCE, 2}, {"capsule", BENCH_Q_PENETRATION, 5},
    {"ellipsoid", BENCH_Q_DISTANCE, 2}, {"ellipsoid", BENCH_Q_PENETRATION, 5},
    {"2d-poly16", BENCH_Q_DISTANCE, 2}, {"2d-poly16", BENCH_Q_PENETRATION, 5},
};
#define NINSTR ((int)(sizeof INSTR_ROWS / sizeof INSTR_ROWS[0]))
#define INSTR_PAIRS 100

static int wdef_index(const char *name) {
    for (int i = 0; i < NWORKLOADS; i++)
        if (strcmp(WORKLOADS[i].name, name) == 0) return i;
    return -1;
}

// One library's instrumented queries of one row (in a child process, so
// that a library that aborts loses only its own count).
typedef struct instr_job {
    lib_state *S;
    const workload *w;
    int query, band;
} instr_job;

static void job_instr(void *arg, void *out) {
    const instr_job *j = arg;
    const lib_state *S = j->S;
    const bench_lib *lib = S->lib;
    int it;
    // Once unmeasured (first-call effects: lazy binding, caches), then measured.
    g_sink = lib->query(S->ctx, j->query, S->pa, S->pb, &it);
    char label[1024];
    snprintf(label, sizeof label, "bench|%s|%s|%d|%d|%d", j->w->name, lib->name, j->query, j->band, j->w->pairs);
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_ZERO_STATS;
    for (int i = 0; i < j->w->pairs; i++)
        g_sink = lib->query(S->ctx, j->query, S->pa + (size_t)i * BENCH_POSE_BYTES, S->pb + (size_t)i * BENCH_POSE_BYTES,
                            &it);
    CALLGRIND_DUMP_STATS_AT(label);
    CALLGRIND_STOP_INSTRUMENTATION;
    *(double *)out = 0;
}

// Under callgrind (started by the parent with --instr-atstart=no): each row
// runs its queries once per pair with instrumentation on, then dumps.
static int instr_child(void) {
    for (int r = 0; r < NINSTR; r++) {
        const instr_def *d = &INSTR_ROWS[r];
        const wdef *wd = &WORKLOADS[wdef_index(d->workload)];
        workload w;
        workload_init(&w, wd->name, wd->kind, wd->n, INSTR_PAIRS, 0x1234 + (uint64_t)wdef_index(d->workload));
        int band = d->band;
        place_bands(&w, &band, 1);
        for (int l = 0; l < NLIBS; l++) {
            const bench_lib *lib = LIBS[l];
            char why[200];
            if (lib->missing || !lib_takes(l, w.dim)) continue;
            lib_state S = {lib, lib->setup(&w.a, &w.b, why, sizeof why), "", NULL, NULL};
            if (!S.ctx) continue;
            if (!lib->has_query(S.ctx, d->query, why, sizeof why)) {
                lib->teardown(S.ctx);
                continue;
            }
            S.pa = aligned_blob((size_t)w.pairs * BENCH_POSE_BYTES);
            S.pb = aligned_blob((size_t)w.pairs * BENCH_POSE_BYTES);
            make_blobs(&S, &w, band);
            instr_job J = {&S, &w, d->query, band};
            double dummy;
            if (in_child(job_instr, &J, &dummy, sizeof dummy, why, sizeof why) != 0)
                fprintf(stderr, "%s %s: %s\n", w.name, lib->name, why);
            lib->teardown(S.ctx);
            free(S.pa);
            free(S.pb);
        }
        workload_free(&w);
    }
    return 0;
}

// ---------------------------------------------------------------- profile

#define WARM_FRAMES 9

/// One gjk query q on `in` with the cache c (NULL: cold), as the warm rows
/// run it; returns its iterations (GJK, and EPA for penetration).
static int warm_query(int q, const gjk_query_input *in, gjk_simplex_cache *c) {
    if (q == BENCH_Q_DISTANCE) {
        gjk_distance_output o = gjk_distance(in, c);
        g_sink = o.distance;
        return o.iterations;
    }
    if (q == BENCH_Q_INTERSECT) {
        gjk_intersect_output o = gjk_intersect_cached(in, c);
        g_sink = o.intersect;
        return o.iterations;
    }
    gjk_penetration_output o = gjk_penetration(in, c);
    g_sink = o.signed_distance;
    return o.iterations + o.epa_iterations;
}

static bench_pose warm_frame(const bench_pose *p0, int frame, int i) {
    bench_pose p = *p0;
    double dir[3] = {cos(1.7 * i), sin(1.7 * i) * cos(0.3 * i), sin(1.7 * i) * sin(0.3 * i)};
    for (int k = 0; k < 3; k++) p.p[k] += 1e-3 * frame * dir[k];
    double h = 0.5e-3 * frame; // a turn of 1e-3 rad per frame about z
    double q0[4] = {p.q[0], p.q[1], p.q[2], p.q[3]}, r[4] = {cos(h), 0, 0, sin(h)};
    pose_set_quat(&p, r[0] * q0[0] - r[3] * q0[3], r[0] * q0[1] - r[3] * q0[2], r[0] * q0[2] + r[3] * q0[1],
                  r[0] * q0[3] + r[3] * q0[0]);
    return p;
}

/// The 2D frames: B moves in the plane by 1e-3 of the shapes' size per
/// frame along a fixed direction and turns 1e-3 rad.
static gjk_transform2 warm_frame2(const bench_pose *p0, int frame, int i) {
    double ang = atan2(p0->R[3], p0->R[0]) + 1e-3 * frame;
    return gjk_transform2_make(gjk_v2(p0->p[0] + 1e-3 * frame * cos(1.7 * i), p0->p[1] + 1e-3 * frame * sin(1.7 * i)),
                               ang);
}

/// warm_query in 2D (distance or penetration: gjk2_intersect takes no cache).
static int warm_query2(int q, const gjk2_query_input *in, gjk2_simplex_cache *c) {
    if (q == BENCH_Q_DISTANCE) {
        gjk2_distance_output o = gjk2_distance(in, c);
        g_sink = o.distance;
        return o.iterations;
    }
    gjk2_penetration_output o = gjk2_penetration(in, c);
    g_sink = o.signed_distance;
    return o.iterations + o.epa_iterations;
}

/// One warm row's frames: `start` readies pair i at band b (its frames'
/// poses); `query` runs frame f with the pair's cache (warm) or without,
/// frame 0 emptying the cache and filling it, and returns its iterations.
typedef struct warm_ops {
    void (*start)(void *ctx, int i, int b);
    int (*query)(void *ctx, int f, int warm);
    void *ctx;
} warm_ops;

/// A 3D pair's frames.
typedef struct warm3 {
    workload *w;
    int q;
    gjk_query_input in;
    gjk_transform tf[WARM_FRAMES];
    gjk_simplex_cache cache;
} warm3;

static void warm3_start(void *ctx, int i, int b) {
    warm3 *c = ctx;
    c->in.transform_a = bench_gjk_transform(&c->w->pose_a[i]);
    for (int f = 0; f < WARM_FRAMES; f++) {
        bench_pose p = warm_frame(&c->w->pose_b[b][i], f, i);
        c->tf[f] = bench_gjk_transform(&p);
    }
}

static int warm3_query(void *ctx, int f, int warm) {
    warm3 *c = ctx;
    if (f == 0) memset(&c->cache, 0, sizeof c->cache);
    c->in.transform_b = c->tf[f];
    return warm_query(c->q, &c->in, warm ? &c->cache : NULL);
}

/// A 2D pair's frames.
typedef struct warm2 {
    workload *w;
    int q;
    gjk2_query_input in;
    gjk_transform2 tf[WARM_FRAMES];
    gjk2_simplex_cache cache;
} warm2;

static void warm2_start(void *ctx, int i, int b) {
    warm2 *c = ctx;
    c->in.transform_a = bench_gjk2_transform(&c->w->pose_a[i]);
    for (int f = 0; f < WARM_FRAMES; f++) c->tf[f] = warm_frame2(&c->w->pose_b[b][i], f, i);
}

static int warm2_query(void *ctx, int f, int warm) {
    warm2 *c = ctx;
    if (f == 0) memset(&c->cache, 0, sizeof c->cache);
    c->in.transform_b = c->tf[f];
    return warm_query2(c->q, &c->in, warm ? &c->cache : NULL);
}

/// Either dimension's frames of a workload's pairs, with the shapes they
/// need (it points into itself: opened in place, never copied).
typedef struct warm_pair {
    warm_ops ops;
    warm3 c3;
    warm2 c2;
    gjk_shape sa, sb;
    gjk_hull *ha, *hb;
    gjk2_shape sa2, sb2;
    gjk_vec2 *va, *vb;
} warm_pair;

static void warm_open(workload *w, warm_pair *p) {
    memset(p, 0, sizeof *p);
    if (w->dim == 2) {
        p->sa2 = bench_gjk2_shape(&w->a, &p->va);
        p->sb2 = bench_gjk2_shape(&w->b, &p->vb);
        p->c2.w = w;
        p->c2.in.shape_a = &p->sa2;
        p->c2.in.shape_b = &p->sb2;
        p->ops = (warm_ops){warm2_start, warm2_query, &p->c2};
    } else {
        p->sa = bench_gjk_shape(&w->a, &p->ha);
        p->sb = bench_gjk_shape(&w->b, &p->hb);
        p->c3.w = w;
        p->c3.in.shape_a = &p->sa;
        p->c3.in.shape_b = &p->sb;
        p->ops = (warm_ops){warm3_start, warm3_query, &p->c3};
    }
}

static void warm_close(warm_pair *p) {
    free(p->va);
    free(p->vb);
    gjk_hull_destroy(p->ha);
    gjk_hull_destroy(p->hb);
}

// --profile gjk WORKLOAD QUERY-warm BAND: gjk's warm-started frames as the
// "Warm starts" table runs them (frame 0 fills the cache, unmeasured and
// not instrumented; frames 1 to WARM_FRAMES - 1 reuse it).
static int profile_warm(workload *w, int q, int band, int rounds) {
    warm_pair p;
    warm_open(w, &p);
    p.c3.q = p.c2.q = q;
    double best = INFINITY, its = 0;
    for (int r = 0; r < rounds; r++) {
        double total = 0;
        its = 0;
        for (int i = 0; i < w->pairs; i++) {
            p.ops.start(p.ops.ctx, i, band);
            (void)p.ops.query(p.ops.ctx, 0, 1);
            // The clock is read outside the instrumented frames, so that
            // callgrind counts the queries alone.
            double t0 = now_ns();
            CALLGRIND_START_INSTRUMENTATION;
            for (int f = 1; f < WARM_FRAMES; f++) its += p.ops.query(p.ops.ctx, f, 1);
            CALLGRIND_STOP_INSTRUMENTATION;
            total += now_ns() - t0;
        }
        best = fmin(best, total / ((double)w->pairs * (WARM_FRAMES - 1)));
    }
    printf("gjk %s %s-warm %g: %d pairs x %d frames x %d rounds, %.1f ns per query (min over rounds of the mean), "
           "%.2f iterations\n",
           w->name, QUERY_NAMES[q], BANDS[band], w->pairs, WARM_FRAMES - 1, rounds, best,
           its / ((double)w->pairs * (WARM_FRAMES - 1)));
    warm_close(&p);
    return 0;
}

// `gjk_bench --profile LIB WORKLOAD QUERY BAND [ROUNDS]`: one library's
// queries on one row, in this process (no child, no timing table), for a
// profiler (QUERY-warm: gjk's warm-started frames, as in "Warm starts").
// Every pair is queried once per round; instrumentation is on only around
// the queries, so `valgrind --tool=callgrind --instr-atstart=no gjk_bench
// --profile ...` counts the queries alone (divide by pairs × rounds, and
// warm by pairs × rounds × (WARM_FRAMES − 1) = 8 frames). Prints the min over
// the rounds of the mean ns per query (the tables give medians).
static int profile_main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: gjk_bench --profile LIB WORKLOAD QUERY[-warm] BAND [ROUNDS]\n");
        return 2;
    }
    const char *libname = argv[0], *wname = argv[1], *qname = argv[2];
    double bandv = atof(argv[3]);
    int rounds = argc > 4 ? atoi(argv[4]) : 1;
    int l = -1, wi = wdef_index(wname), q = -1, band = -1;
    for (int i = 0; i < NLIBS; i++)
        if (strcmp(LIBS[i]->name, libname) == 0) l = i;
    int warm = 0;
    for (int i = 0; i < BENCH_Q_COUNT; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s-warm", QUERY_NAMES[i]);
        if (strcmp(QUERY_NAMES[i], qname) == 0) q = i;
        if (strcmp(name, qname) == 0) q = i, warm = 1;
    }
    for (int b = 0; b < NBANDS; b++)
        if (BANDS[b] == bandv) band = b;
    if (l < 0 || wi < 0 || q < 0 || band < 0 || rounds < 1 || LIBS[l]->missing) {
        fprintf(stderr, "--profile: unknown or missing library, workload, query or band\n");
        return 2;
    }
    const wdef *wd = &WORKLOADS[wi];
    workload w;
    workload_init(&w, wd->name, wd->kind, wd->n, workload_pairs(wd), 0x1234 + (uint64_t)wi);
    place_bands(&w, &band, 1);
    if (warm) {
        int rc = l == 0 && (w.dim == 3 || q != BENCH_Q_INTERSECT) ? profile_warm(&w, q, band, rounds) : 2;
        if (rc) fprintf(stderr, "--profile: warm starts are measured for gjk (in 2D, distance and penetration)\n");
        workload_free(&w);
        return rc;
    }
    const bench_lib *lib = LIBS[l];
    char why[200];
    lib_state S = {lib, lib_takes(l, w.dim) ? lib->setup(&w.a, &w.b, why, sizeof why) : NULL, "", NULL, NULL};
    if (!S.ctx || !lib->has_query(S.ctx, q, why, sizeof why)) {
        fprintf(stderr, "--profile: %s does not answer this row\n", lib->name);
        return 2;
    }
    S.pa = aligned_blob((size_t)w.pairs * BENCH_POSE_BYTES);
    S.pb = aligned_blob((size_t)w.pairs * BENCH_POSE_BYTES);
    make_blobs(&S, &w, band);
    int it = 0;
    double iters = 0, best = INFINITY;
    for (int i = 0; i < w.pairs; i++) { // unmeasured: first-call effects
        g_sink = lib->query(S.ctx, q, S.pa + (size_t)i * BENCH_POSE_BYTES, S.pb + (size_t)i * BENCH_POSE_BYTES, &it);
        iters += it;
    }
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_ZERO_STATS;
    for (int r = 0; r < rounds; r++) {
        double s = now_ns();
        for (int i = 0; i < w.pairs; i++)
            g_sink = lib->query(S.ctx, q, S.pa + (size_t)i * BENCH_POSE_BYTES, S.pb + (size_t)i * BENCH_POSE_BYTES, &it);
        best = fmin(best, (now_ns() - s) / w.pairs);
    }
    CALLGRIND_STOP_INSTRUMENTATION;
    printf("%s %s %s %g: %d pairs x %d rounds, %.1f ns per query (min over rounds of the mean), %.2f iterations\n",
           lib->name, w.name, QUERY_NAMES[q], BANDS[band], w.pairs, rounds, best, iters / w.pairs);
    lib->teardown(S.ctx);
    free(S.pa);
    free(S.pb);
    workload_free(&w);
    return 0;
}

static row *find_row(const char *wl, const char *lib, int q, double band) {
    for (int i = 0; i < g_nrows; i++) {
        row *r = &g_rows[i];
        if (strcmp(r->workload, wl) == 0 && strcmp(r->library, lib) == 0 && r->query == q && r->band == band) return r;
    }
    return NULL;
}

// Runs this program under callgrind and reads back the dumps.
static int count_instructions(const char *self, const char *work) {
    if (system("valgrind --version >/dev/null 2>&1") != 0) return -1;
    char dir[1024], cmd[16384];
    snprintf(dir, sizeof dir, "%s/callgrind", work);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s' && valgrind --tool=callgrind --instr-atstart=no "
             "--callgrind-out-file='%s/cg.out.%%p' '%s' --instr-child > '%s/log.txt' 2>&1",
             dir, dir, dir, self, dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "callgrind run failed: see %s/log.txt\n", dir);
        return -1;
    }
    snprintf(cmd, sizeof cmd, "grep -H -E '^(desc: Trigger|totals:|summary:)' '%s'/cg.out* 2>/dev/null", dir);
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    char line[2048], label[512] = "";
    int found = 0;
    while (fgets(line, sizeof line, p)) {
        char *t = strstr(line, "bench|");
        if (strstr(line, "desc: Trigger") && t) {
            snprintf(label, sizeof label, "%s", t);
            label[strcspn(label, "\r\n")] = 0;
            continue;
        }
        char *s = strstr(line, "totals:");
        if (!s) s = strstr(line, "summary:");
        if (!s || !label[0]) continue;
        double ir = strtod(strchr(s, ':') + 1, NULL);
        char wl[64], lib[64];
        int q, band, pairs;
        if (sscanf(label, "bench|%63[^|]|%63[^|]|%d|%d|%d", wl, lib, &q, &band, &pairs) == 5 && pairs > 0) {
            row *r = find_row(wl, lib, q, BANDS[band]);
            if (r) { r->instr = ir / pairs; found++; }
        }
        label[0] = 0;
    }
    pclose(p);
    return found;
}

// ---------------------------------------------------------------- output

static const char *lib_version(const bench_lib *lib) {
    if (lib == &bench_lib_mujoco) return bench_mujoco_version();
    return lib->version ? lib->version : "";
}

static void fmt_num(char *buf, size_t n, double v) {
    if (isnan(v)) snprintf(buf, n, "%s", "");
    else snprintf(buf, n, "%.6g", v);
}

static void write_csv(const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); return; }
    fprintf(f, "workload,library,query,n,band,ns_median,ns_p95,iterations_mean,max_error\n");
    for (int l = 1; l < NLIBS; l++)
        if (LIBS[l]->missing) fprintf(f, "all,%s,all,,,missing,,,\n", LIBS[l]->name);
    for (int i = 0; i < g_nrows; i++) {
        row *r = &g_rows[i];
        if (r->state == 2 || !lib_takes(i % NLIBS, r->dim)) continue;
        if (lib_variant(i % NLIBS) && r->state == 1) continue; // a variant's workloads are its choice
        char n[16] = "";
        if (r->n) snprintf(n, sizeof n, "%d", r->n);
        if (r->state == 1 || r->state == 3) {
            // The reason without commas (it is one CSV field).
            char why[sizeof r->reason];
            snprintf(why, sizeof why, "%s", r->state == 3 ? r->reason : "n/a");
            for (char *c = why; *c; c++)
                if (*c == ',') *c = ';';
            fprintf(f, "%s,%s,%s,%s,%g,%s,,,\n", r->workload, r->library, QUERY_NAMES[r->query], n, r->band, why);
            continue;
        }
        char a[32], b[32], c[32], d[32];
        fmt_num(a, sizeof a, r->ns_median);
        fmt_num(b, sizeof b, r->ns_p95);
        fmt_num(c, sizeof c, r->iter_mean);
        fmt_num(d, sizeof d, r->max_error);
        fprintf(f, "%s,%s,%s,%s,%g,%s,%s,%s,%s\n", r->workload, r->library, QUERY_NAMES[r->query], n, r->band, a, b, c,
                d);
    }
    write_warm_csv(f);
    fclose(f);
}

static void read_first_line(const char *cmd, char *out, size_t n) {
    out[0] = 0;
    FILE *p = popen(cmd, "r");
    if (!p) return;
    if (fgets(out, (int)n, p)) out[strcspn(out, "\r\n")] = 0;
    pclose(p);
}

static void machine_description(FILE *f) {
    char cpu[256] = "unknown", line[512];
    FILE *c = fopen("/proc/cpuinfo", "r");
    if (c) {
        while (fgets(line, sizeof line, c))
            if (strncmp(line, "model name", 10) == 0) {
                char *s = strchr(line, ':');
                if (s) { snprintf(cpu, sizeof cpu, "%s", s + 2); cpu[strcspn(cpu, "\n")] = 0; }
                break;
            }
        fclose(c);
    }
    struct utsname u;
    uname(&u);
    char date[64];
    time_t t = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&t));
    char mem[128];
    read_first_line("awk '/MemTotal/ {printf \"%.1f GiB\", $2/1048576}' /proc/meminfo", mem, sizeof mem);
    fprintf(f, "| | |\n|---|---|\n");
    fprintf(f, "| date | %s |\n", date);
    fprintf(f, "| CPU | %s, %ld cores online |\n", cpu, sysconf(_SC_NPROCESSORS_ONLN));
    fprintf(f, "| memory | %s |\n", mem);
    fprintf(f, "| system | %s %s %s |\n", u.sysname, u.release, u.machine);
#if defined(__clang__)
    fprintf(f, "| C compiler | clang %s |\n", __clang_version__);
#else
    fprintf(f, "| C compiler | gcc %s |\n", __VERSION__);
#endif
    fprintf(f, "| C++ compiler | %s |\n", bench_cxx_version());
    fprintf(f, "| build | %s |\n", BENCH_BUILD_FLAGS);
    fprintf(f, "| pairs per workload | %d (hull16384: %d), %d timed repetitions%s |\n", g_pairs,
            g_pairs < LARGE_PAIRS ? g_pairs : LARGE_PAIRS, g_reps, g_quick ? ", BENCH_QUICK" : "");
    for (int l = 0; l < NLIBS; l++)
        fprintf(f, "| %s | %s |\n", LIBS[l]->name, LIBS[l]->missing ? "**missing**" : lib_version(LIBS[l]));
}

static const char *band_label(double b, char *buf, size_t n) {
    snprintf(buf, n, "%+g", b);
    return buf;
}

// The rows of workloads of dimension dim, with a column for each library
// that takes them.
static void write_table(FILE *f, int only_summary, int dim) {
    int any = 0;
    for (int i = 0; i < g_nrows; i += NLIBS) any |= g_rows[i].dim == dim;
    if (!any) {
        fprintf(f, "No %dD workload in this run.\n", dim);
        return;
    }
    fprintf(f, "| workload | query | band |");
    for (int l = 0; l < NLIBS; l++)
        if (lib_shown(l, dim)) fprintf(f, " %s |", LIBS[l]->name);
    fprintf(f, "\n|---|---|---:|");
    for (int l = 0; l < NLIBS; l++)
        if (lib_shown(l, dim)) fprintf(f, "---|");
    fprintf(f, "\n");
    for (int i = 0; i < g_nrows; i += NLIBS) {
        row *g = &g_rows[i];
        if (g->dim != dim) continue;
        if (only_summary && !(g->band == 1e-3 || g->band == -1e-3)) continue;
        if (only_summary && g->query == BENCH_Q_INTERSECT) continue;
        char bl[32];
        fprintf(f, "| %s | %s | %s |", g->workload, QUERY_NAMES[g->query], band_label(g->band, bl, sizeof bl));
        for (int l = 0; l < NLIBS; l++) {
            if (!lib_shown(l, dim)) continue;
            row *r = &g_rows[i + l];
            if (r->state == 2) { fprintf(f, " missing |"); continue; }
            if (r->state == 1) { fprintf(f, " n/a |"); continue; }
            if (r->state == 3) {
                // "crashed (signal 6, Aborted)" -> "crashed (signal 6)"
                char c[sizeof r->reason];
                snprintf(c, sizeof c, "%s", r->reason);
                char *comma = strchr(c, ',');
                if (comma) { comma[0] = ')'; comma[1] = 0; }
                fprintf(f, " **%s** |", c);
                continue;
            }
            fprintf(f, " %.0f", r->ns_median);
            if (l > 0 && g->state == 0 && g->ns_median > 0) fprintf(f, " (%.2f×)", r->ns_median / g->ns_median);
            if (!isnan(r->max_error) && !only_summary) fprintf(f, " e=%.1e", r->max_error);
            fprintf(f, " |");
        }
        fprintf(f, "\n");
    }
}

static void write_summary(FILE *f) {
    // Summary: per workload and peer, the geometric mean over the bands of
    // peer / gjk, per query; and how many rows each peer wins.
    fprintf(f, "\n## Summary: peer / gjk\n\nGeometric mean over the seven bands of (peer median / gjk median), "
               "for intersect / distance / penetration; below 1 the peer is faster.\n");
    int wins[NLIBS] = {0}, total[NLIBS] = {0};
    for (int dim = 3; dim >= 2; dim--) {
        fprintf(f, "\n| %s workload |", dim == 3 ? "3D" : "2D");
        for (int l = 1; l < NLIBS; l++)
            if (lib_shown(l, dim)) fprintf(f, " %s |", LIBS[l]->name);
        fprintf(f, "\n|---|");
        for (int l = 1; l < NLIBS; l++)
            if (lib_shown(l, dim)) fprintf(f, "---|");
        fprintf(f, "\n");
        for (int i = 0; i < g_nrows; i += NLIBS * BENCH_Q_COUNT * NBANDS) {
            if (g_rows[i].dim != dim) continue;
            fprintf(f, "| %s |", g_rows[i].workload);
            for (int l = 1; l < NLIBS; l++) {
                if (!lib_shown(l, dim)) continue;
                if (LIBS[l]->missing) { fprintf(f, " missing |"); continue; }
                for (int q = 0; q < BENCH_Q_COUNT; q++) {
                    double sum = 0;
                    int cnt = 0, crashed = 0;
                    for (int b = 0; b < NBANDS; b++) {
                        int base = i + (b * BENCH_Q_COUNT + q) * NLIBS;
                        if (base + l >= g_nrows) continue;
                        row *g = &g_rows[base], *r = &g_rows[base + l];
                        crashed += r->state == 3;
                        if (g->state || r->state || !(g->ns_median > 0) || !(r->ns_median > 0)) continue;
                        sum += log(r->ns_median / g->ns_median);
                        cnt++;
                        total[l]++;
                        wins[l] += r->ns_median < g->ns_median;
                    }
                    if (cnt) fprintf(f, "%s%.2f", q ? " / " : " ", exp(sum / cnt));
                    else fprintf(f, "%s%s", q ? " / " : " ", crashed ? "crashed" : "n/a");
                    if (cnt && crashed) fprintf(f, " (%d crashed)", crashed);
                }
                fprintf(f, " |");
            }
            fprintf(f, "\n");
        }
    }
    fprintf(f, "\nRows where the peer's median is below gjk's:");
    for (int l = 1; l < NLIBS; l++)
        if (!LIBS[l]->missing && !lib_variant(l)) fprintf(f, " %s %d of %d;", LIBS[l]->name, wins[l], total[l]);
    fprintf(f, " (every row, with its ratio, is in the tables of times below).\n");
}

/// gjk-margin's row beside gjk's at g_rows[base] (query q, band), where it
/// stands in for gjk against a bare "separated": penetration on a separated
/// band, measured. NULL otherwise.
static const row *margin_row(int base, int q, double band) {
    if (q != BENCH_Q_PENETRATION || !(band > 0)) return NULL;
    for (int l = 1; l < NLIBS; l++) {
        const row *r = &g_rows[base + l];
        if (LIBS[l] == &bench_lib_gjk_margin) return r->state == 0 && r->ns_median > 0 ? r : NULL;
    }
    return NULL;
}

static void write_targets(FILE *f) {
    fprintf(f, "\n## Targets (issue: gjk at least 3x faster than the fastest peer on every polytope row)\n\n"
               "Per polytope workload and query: the smallest, over the seven bands, of (fastest peer's median / gjk's "
               "median), and that peer, among the peers whose answers agree with gjk's within 1e-6 on that row (the shapes "
               "are about unit size); rows at 3x or more out of the rows measured. On the separated bands of the penetration "
               "rows a peer that only answers \"not intersecting\" (libccd, libccd-mpr: no distance for shapes apart) "
               "is compared with gjk-margin, gjk_penetration with a contact margin (`options.max_distance` = 1e-9), "
               "which answers such pairs the same way: \"separated\" once the walk proves them apart, without the "
               "distance (see \"Contact margin\" below; gjk's own rows compute the signed distance there).\n\n"
               "| workload | intersect | distance | penetration |\n|---|---|---|---|\n");
    int met = 0, all = 0;
    for (int i = 0; i < g_nrows; i += NLIBS * BENCH_Q_COUNT * NBANDS) {
        if (g_rows[i].dim != 3 || (strncmp(g_rows[i].workload, "hull", 4) != 0 && strcmp(g_rows[i].workload, "box") != 0))
            continue;
        fprintf(f, "| %s |", g_rows[i].workload);
        for (int q = 0; q < BENCH_Q_COUNT; q++) {
            double worst = INFINITY;
            const char *who = "";
            for (int b = 0; b < NBANDS; b++) {
                int base = i + (b * BENCH_Q_COUNT + q) * NLIBS;
                if (base + NLIBS > g_nrows || g_rows[base].state || !(g_rows[base].ns_median > 0)) continue;
                // A bare "separated" is compared with gjk's own (gjk-margin).
                const row *bare = margin_row(base, q, BANDS[b]);
                double ratio = INFINITY;
                const char *name = "";
                for (int l = 1; l < NLIBS; l++) {
                    row *r = &g_rows[base + l];
                    // A fast answer that disagrees with the exact one (beyond
                    // 1e-6 of the shapes' unit size) does not count.
                    if (lib_variant(l) || r->state || !(r->ns_median > 0) || !(r->max_error <= 1e-6)) continue;
                    double ours = lib_bare_separated(l) && bare ? bare->ns_median : g_rows[base].ns_median;
                    if (r->ns_median / ours < ratio) {
                        ratio = r->ns_median / ours;
                        name = r->library;
                    }
                }
                if (ratio == INFINITY) continue;
                all++;
                met += ratio >= 3;
                if (ratio < worst) { worst = ratio; who = name; }
            }
            if (worst == INFINITY) fprintf(f, " n/a |");
            else fprintf(f, " %.2fx (%s) |", worst, who);
        }
        fprintf(f, "\n");
    }
    fprintf(f, "\nRows at 3x or more: %d of %d. %s", met, all, all > 0 && met == all ? "Met." : "**Not met.**");
    for (int i = 0; i < g_nrows; i += NLIBS * BENCH_Q_COUNT * NBANDS) {
        if (strcmp(g_rows[i].workload, "box") != 0) continue;
        double v[NBANDS];
        int n = 0;
        for (int b = 0; b < NBANDS; b++) {
            row *g = &g_rows[i + (b * BENCH_Q_COUNT + BENCH_Q_DISTANCE) * NLIBS];
            if (!g->state && g->ns_median > 0) v[n++] = g->ns_median;
        }
        if (n) {
            qsort(v, (size_t)n, sizeof v[0], cmp_double);
            fprintf(f, " Cold box-box distance: median %.0f ns over the bands (%.0f to %.0f ns); target 150 ns: %s.", v[n / 2],
                    v[0], v[n - 1], v[n / 2] <= 150 ? "met" : "**not met**");
        }
    }
    // The issue's model T = iterations x (n/2 + 110) cycles, with cycles
    // taken as ns x the clock /proc/cpuinfo reports (no cycle counter here).
    double mhz = 0;
    FILE *ci = fopen("/proc/cpuinfo", "r");
    if (ci) {
        char line[256];
        while (fgets(line, sizeof line, ci))
            if (sscanf(line, "cpu MHz : %lf", &mhz) == 1) break;
        fclose(ci);
    }
    if (mhz > 0) {
        fprintf(f, "\n\nModel T = iterations x (n/2 + 110) cycles at the reported %.0f MHz, distance rows: measured / model "
                   "(smallest to largest over the bands; within 2x is the target):", mhz);
        for (int i = 0; i < g_nrows; i += NLIBS * BENCH_Q_COUNT * NBANDS) {
            if (g_rows[i].dim != 3 || g_rows[i].n == 0) continue;
            double lo = INFINITY, hi = 0;
            for (int b = 0; b < NBANDS; b++) {
                row *g = &g_rows[i + (b * BENCH_Q_COUNT + BENCH_Q_DISTANCE) * NLIBS];
                if (g->state || !(g->ns_median > 0) || !(g->iter_mean > 0)) continue;
                double model_ns = g->iter_mean * (g->n / 2.0 + 110) / (mhz * 1e-3);
                lo = fmin(lo, g->ns_median / model_ns);
                hi = fmax(hi, g->ns_median / model_ns);
            }
            if (hi > 0) fprintf(f, " %s %.1f-%.1f;", g_rows[i].workload, lo, hi);
        }
        fprintf(f, " (below 1: faster than the model, as climbing makes large hulls cost less than n/2 per iteration).");
    }
    fprintf(f, "\n\nWhy, as measured with callgrind (instructions per query above): every gjk query validates its input "
               "(finite numbers, shapes, options), normalises both quaternions and sets up B's pose in A's frame before "
               "the first support point, and checks its answer for overflow: a few hundred instructions that coal and "
               "MuJoCo do not spend, which dominate on boxes, small hulls, spheres and capsules (two spheres are answered "
               "from their centres' offset before any other work, ~350 instructions a query, capsules' closed form "
               "~890, against coal's ~200 and ~400 and MuJoCo's ~240 and ~460). Penetration rows pay for EPA's polytope, where MuJoCo's is "
               "leaner (two boxes excepted: their separating axes answer every pair clear of touching, apart or "
               "overlapping, in every query without GJK or EPA; on the separated bands their penetration still trails "
               "MPR's bare \"not intersecting\", and the cold box distance pays the input checks and the pose setup "
               "above, about 800 of its ~2070 instructions; hull8, two boxes as hulls, takes its overlapping depth from "
               "its separating axes after the walk, and its intersect from them outright, at about 3600 instructions for "
               "the 21 axes). Curved shapes (ellipsoids) take secant steps, which model how the "
               "support point moves with the direction from the last three support calls (docs/design.md, \"Secant "
               "steps\"): about 12 GJK iterations near contact at 1e-10 where plain GJK takes ~40 (coal, with "
               "Nesterov momentum at 1e-6, about 26: see \"Matched tolerance\"); overlapping ellipsoids pay for "
               "EPA's polytope, whose refinement near contact halo steps shorten (docs/design.md, \"Halo steps\": "
               "about 15 EPA iterations at 1e-3 deep where plain EPA took 28). Warm starts: see the warm section below. This virtual machine exposes no cycle counter (perf reports cycles as "
               "not supported), so the model's cycles are estimated from the reported clock.\n");
}

// One cell of the matched-tolerance table: median ns, mean iterations and
// the largest disagreement with gjk's default answer, and the ratio to the
// row `ref` (NULL: none).
static void matched_cell(FILE *f, const row *r, const row *ref) {
    if (!r || r->state) {
        fprintf(f, " %s |", !r ? "n/a" : r->state == 2 ? "missing" : r->state == 3 ? "crashed" : "n/a");
        return;
    }
    fprintf(f, " %.0f", r->ns_median);
    if (!isnan(r->iter_mean)) fprintf(f, " (%.1f)", r->iter_mean);
    if (ref && !ref->state && ref->ns_median > 0) fprintf(f, " %.2f×", r->ns_median / ref->ns_median);
    if (!isnan(r->max_error)) fprintf(f, " e=%.0e", r->max_error);
    fprintf(f, " |");
}

// Curved shapes at equal accuracy: gjk stops at a relative 1e-10 by default,
// coal and MuJoCo at 1e-6; the variant gjk-3e-7 runs gjk as accurate as them.
static void write_matched(FILE *f) {
    static const char *WL = "ellipsoid", *PEERS[] = {"coal", "mujoco"};
    const char *VAR = bench_lib_gjk_tol.name; // the variant (lib_gjk.c)
    if (!find_row(WL, VAR, BENCH_Q_DISTANCE, BANDS[0])) return;
    fprintf(f, "\n## Matched tolerance (ellipsoids)\n\n"
               "gjk stops at a relative tolerance of 1e-10 by default, coal and MuJoCo at 1e-6, and near contact the "
               "iterations on curved shapes grow as the tolerance shrinks. %s is gjk with `options.tolerance = 3e-7` "
               "(relative: gjk's absolute tolerance is that times the pair's length scale), at which its answers were "
               "measured as close to gjk's default ones as coal's are (at 1e-6 they were off by up to 3e-6, three "
               "times coal's error). It is measured in the same run beside the others. Each cell: median ns (mean iterations; MuJoCo does not "
               "report them), the ratio to %s's median, e = the largest disagreement with gjk's default answer.\n\n"
               "| query | band | gjk | %s | coal | mujoco |\n|---|---:|---|---|---|---|\n", VAR, VAR, VAR);
    double logsum[2][2] = {{0, 0}, {0, 0}};
    int cnt[2][2] = {{0, 0}, {0, 0}};
    for (int q = BENCH_Q_DISTANCE; q <= BENCH_Q_PENETRATION; q++) {
        for (int b = 0; b < NBANDS; b++) {
            const row *v = find_row(WL, VAR, q, BANDS[b]);
            char bl[32];
            fprintf(f, "| %s | %s |", QUERY_NAMES[q], band_label(BANDS[b], bl, sizeof bl));
            matched_cell(f, find_row(WL, "gjk", q, BANDS[b]), v);
            matched_cell(f, v, NULL);
            for (int p = 0; p < 2; p++) {
                const row *r = find_row(WL, PEERS[p], q, BANDS[b]);
                matched_cell(f, r, v);
                if (r && v && !r->state && !v->state && r->ns_median > 0 && v->ns_median > 0) {
                    logsum[q - 1][p] += log(r->ns_median / v->ns_median);
                    cnt[q - 1][p]++;
                }
            }
            fprintf(f, "\n");
        }
    }
    fprintf(f, "\nGeometric mean over the bands of (peer / %s):", VAR);
    for (int q = 0; q < 2; q++)
        for (int p = 0; p < 2; p++)
            if (cnt[q][p])
                fprintf(f, " %s %s %.2f;", PEERS[p], QUERY_NAMES[q + 1], exp(logsum[q][p] / cnt[q][p]));
    const row *gi = find_row(WL, "gjk", BENCH_Q_DISTANCE, 1e-3), *vi = find_row(WL, VAR, BENCH_Q_DISTANCE, 1e-3);
    const row *ci = find_row(WL, "coal", BENCH_Q_DISTANCE, 1e-3), *mi = find_row(WL, "mujoco", BENCH_Q_DISTANCE, 1e-3);
    if (gi && vi && !isnan(gi->instr) && !isnan(vi->instr)) {
        fprintf(f, " instructions per distance query at +1e-3: gjk %.0f, %s %.0f", gi->instr, VAR, vi->instr);
        if (ci && !isnan(ci->instr)) fprintf(f, ", coal %.0f", ci->instr);
        if (mi && !isnan(mi->instr)) fprintf(f, ", mujoco %.0f", mi->instr);
        fprintf(f, ".");
    }
    fprintf(f, "\n");
}

// The rows of the contact-margin tables: gjk, gjk-margin and two peers on
// the penetration of pairs apart, for the workloads of dimension dim (in 3D
// the polytopes), then the geometric mean of each peer over gjk-margin.
static void margin_rows(FILE *f, int dim, const char *const peers[2]) {
    const char *VAR = bench_lib_gjk_margin.name;
    double logsum[2] = {0, 0};
    int cnt[2] = {0, 0};
    for (int i = 0; i < g_nrows; i += NLIBS * BENCH_Q_COUNT * NBANDS) {
        const char *wl = g_rows[i].workload;
        if (g_rows[i].dim != dim || (dim == 3 && strncmp(wl, "hull", 4) != 0 && strcmp(wl, "box") != 0)) continue;
        for (int b = 0; b < NBANDS && BANDS[b] > 0; b++) {
            const row *v = find_row(wl, VAR, BENCH_Q_PENETRATION, BANDS[b]);
            if (!v) continue;
            char bl[32];
            fprintf(f, "| %s | %s |", wl, band_label(BANDS[b], bl, sizeof bl));
            matched_cell(f, find_row(wl, "gjk", BENCH_Q_PENETRATION, BANDS[b]), v);
            matched_cell(f, v, NULL);
            for (int p = 0; p < 2; p++) {
                const row *r = find_row(wl, peers[p], BENCH_Q_PENETRATION, BANDS[b]);
                matched_cell(f, r, v);
                if (r && !r->state && !v->state && r->ns_median > 0 && v->ns_median > 0) {
                    logsum[p] += log(r->ns_median / v->ns_median);
                    cnt[p]++;
                }
            }
            fprintf(f, "\n");
        }
    }
    fprintf(f, "\nGeometric mean over these rows of (peer / %s):", VAR);
    for (int p = 0; p < 2; p++)
        if (cnt[p]) fprintf(f, " %s %.2f;", peers[p], exp(logsum[p] / cnt[p]));
    fprintf(f, "\n");
}

// Penetration of shapes apart, with a contact margin: libccd's queries
// answer such pairs "not intersecting" without a distance, Box2D's and
// Chipmunk's colliders with no contact; gjk-margin answers them
// "separated" once proved apart (options.max_distance).
static void write_margin(FILE *f) {
    const char *VAR = bench_lib_gjk_margin.name;
    static const char *const PEERS3[] = {"libccd", "libccd-mpr"}, *const PEERS2[] = {"box2d", "chipmunk"};
    if (!find_row("hull8", VAR, BENCH_Q_PENETRATION, BANDS[0])) return;
    fprintf(f, "\n## Contact margin (penetration of shapes apart)\n\n"
               "On pairs apart, libccd's penetration queries (GJK and MPR) answer only \"not intersecting\", where "
               "gjk_penetration computes the signed distance. %s is gjk_penetration with `options.max_distance = 1e-9`, "
               "a contact margin: it answers \"separated\" as soon as the walk proves the pair apart beyond it, the "
               "same answer as libccd's, and is measured beside them in the same run. Each cell: median ns (mean "
               "iterations), the ratio to %s's median. The targets above compare libccd's separated bands with %s.\n\n"
               "| workload | band | gjk | %s | libccd | libccd-mpr |\n|---|---:|---|---|---|---|\n",
            VAR, VAR, VAR, VAR);
    margin_rows(f, 3, PEERS3);
    fprintf(f, "\nIn 2D, Box2D's and Chipmunk's colliders (the penetration rows) likewise give no contact for a pair "
               "apart, without a distance; %s is gjk2_penetration with the same margin:\n\n"
               "| workload | band | gjk | %s | box2d | chipmunk |\n|---|---:|---|---|---|---|\n",
            VAR, VAR);
    margin_rows(f, 2, PEERS2);
}

static void write_instr(FILE *f, int instr_found) {
    fprintf(f, "\n## Instructions per query (callgrind, %d pairs, gjk and every peer on the same pairs)\n\n",
            INSTR_PAIRS);
    if (instr_found <= 0) {
        fprintf(f, "Not counted in this run (%s).\n",
                instr_found < 0 ? "valgrind missing or its run failed" : "--no-instr or BENCH_NO_INSTR");
    } else {
      for (int dim = 3; dim >= 2; dim--) {
        fprintf(f, "%s| workload | query | band |", dim == 2 ? "\n" : "");
        for (int l = 0; l < NLIBS; l++)
            if (lib_shown(l, dim)) fprintf(f, " %s |", LIBS[l]->name);
        fprintf(f, "\n|---|---|---:|");
        for (int l = 0; l < NLIBS; l++)
            if (lib_shown(l, dim)) fprintf(f, "---|");
        fprintf(f, "\n");
        for (int i = 0; i < g_nrows; i += NLIBS) {
            int any = 0;
            for (int l = 0; l < NLIBS; l++) any |= !isnan(g_rows[i + l].instr);
            if (!any || g_rows[i].dim != dim) continue;
            char bl[32];
            row *g = &g_rows[i];
            fprintf(f, "| %s | %s | %s |", g->workload, QUERY_NAMES[g->query], band_label(g->band, bl, sizeof bl));
            for (int l = 0; l < NLIBS; l++) {
                if (!lib_shown(l, dim)) continue;
                row *r = &g_rows[i + l];
                if (isnan(r->instr)) fprintf(f, " %s |", r->state == 2 ? "missing" : r->state == 3 ? "crashed" : "n/a");
                else if (l > 0 && !isnan(g->instr)) fprintf(f, " %.0f (%.2f×) |", r->instr, r->instr / g->instr);
                else fprintf(f, " %.0f |", r->instr);
            }
            fprintf(f, "\n");
        }
      }
    }
}

/// The section "## Simulation (make bench-sim)" of an existing RESULTS.md,
/// kept across runs of this program (bench/sim_bench.c writes it); NULL when
/// there is none. The caller frees it.
static char *kept_simulation_section(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = n > 0 ? malloc((size_t)n + 1) : NULL;
    size_t got = text ? fread(text, 1, (size_t)n, f) : 0;
    fclose(f);
    if (!text) return NULL;
    text[got] = 0;
    char *start = strstr(text, "\n## Simulation (make bench-sim)");
    if (!start) {
        free(text);
        return NULL;
    }
    char *end = strstr(start + 1, "\n## ");
    if (end) *end = 0;
    char *out = strdup(start);
    free(text);
    return out;
}

static void write_md(const char *path, double elapsed_s, int instr_found) {
    char *simulation = kept_simulation_section(path);
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); return; }
    fprintf(f, "# Benchmark results\n\n");
    fprintf(f, "Written by `make bench` (bench/main.c); the method and the caveats are in bench/README.md. "
               "Raw rows: bench/results.csv. Plot: bench/plot.svg.\n\n");
    fprintf(f, "## Machine\n\n");
    machine_description(f);
    fprintf(f, "\nThe run took %.0f s. This machine is shared and noisy: times move by 10-30%% between runs; "
               "the instruction counts below do not.\n\n", elapsed_s);
    write_summary(f);
    write_targets(f);
    write_instr(f, instr_found);
    fprintf(f, "\n## Times\n\nEach cell: median ns per query over the pairs, (peer / gjk median: above 1 means gjk is "
               "faster), e = the largest disagreement with gjk's answer over the pairs (for gjk itself: with the exact "
               "reference, where there is one). Bands are the signed distance of the pair (negative: overlapping). "
               "p95 and mean iterations are in results.csv.\n\n");
    fprintf(f, "### 3D\n\n");
    write_table(f, 0, 3);
    fprintf(f, "\n### 2D\n\n");
    write_table(f, 0, 2);
    write_matched(f);
    write_margin(f);
    fprintf(f, "\n## Not measured\n\n");
    for (int l = 1; l < NLIBS; l++)
        if (LIBS[l]->missing) fprintf(f, "- %s: missing (%s)\n", LIBS[l]->name, LIBS[l]->missing);
    // One line per distinct (library, reason).
    for (int l = 1; l < NLIBS; l++) {
        const char *seen[8];
        int nseen = 0;
        for (int i = 0; i < g_nrows; i++) {
            row *r = &g_rows[i];
            if (r->state != 1 || strcmp(r->library, LIBS[l]->name) != 0 || !lib_shown(l, r->dim)) continue;
            int dup = 0;
            for (int s = 0; s < nseen; s++) dup |= strcmp(seen[s], r->reason) == 0;
            if (dup || nseen == 8) continue;
            seen[nseen++] = r->reason;
            if (r->whole) fprintf(f, "- %s, %s: n/a (%s)\n", r->library, r->workload, r->reason);
            else fprintf(f, "- %s, %s: n/a (%s)\n", r->library, QUERY_NAMES[r->query], r->reason);
        }
    }
    // Crashes: one line per library, with its rows (its child process died:
    // the signal is in each row's cell and in results.csv).
    for (int l = 0; l < NLIBS; l++) {
        int count = 0;
        for (int i = l; i < g_nrows; i += NLIBS) count += g_rows[i].state == 3;
        if (!count) continue;
        fprintf(f, "- %s crashed on %d row%s:", LIBS[l]->name, count, count == 1 ? "" : "s");
        int shown = 0;
        for (int i = l; i < g_nrows; i += NLIBS) {
            row *r = &g_rows[i];
            if (r->state != 3) continue;
            char bl[32];
            fprintf(f, "%s %s %s %s (%s)", shown ? ";" : "", r->workload, QUERY_NAMES[r->query],
                    band_label(r->band, bl, sizeof bl), r->reason);
            shown++;
        }
        fprintf(f, "\n");
    }
    write_warm_md(f);
    if (simulation) {
        fprintf(f, "%s", simulation);
        free(simulation);
    }
    fclose(f);
}

static void write_band_check(const char *path, workload *ws, int nw) {
    FILE *f = fopen(path, "a");
    if (!f) return;
    fprintf(f, "\n## Placement of the poses\n\nLargest |signed distance - band| over the pairs: by gjk's own answer "
               "after placement, and by the exact reference (sphere: centre distance; capsule: segment distance; box and "
               "hulls up to 32 points: qhull of the Minkowski difference) where there is one.\n\n");
    fprintf(f, "| workload | pairs |");
    for (int b = 0; b < NBANDS; b++) fprintf(f, " %+g |", BANDS[b]);
    fprintf(f, "\n|---|---:|");
    for (int b = 0; b < NBANDS; b++) fprintf(f, "---|");
    fprintf(f, "\n");
    for (int i = 0; i < nw; i++) {
        fprintf(f, "| %s | %d |", ws[i].name, ws[i].pairs);
        for (int b = 0; b < NBANDS; b++) {
            if (isnan(ws[i].exact_err[b])) fprintf(f, " gjk %.0e |", ws[i].place_err[b]);
            else fprintf(f, " gjk %.0e, exact %.0e |", ws[i].place_err[b], ws[i].exact_err[b]);
        }
        fprintf(f, "\n");
    }
    fclose(f);
}

// ---------------------------------------------------------------- plot

static const char *COLORS[] = {"#000000", "#1f77b4", "#17becf", "#d62728", "#2ca02c",
                               "#9467bd", "#ff7f0e", "#bcbd22", "#8c564b", "#e377c2", "#7f7f7f", "#aec7e8"};
_Static_assert(sizeof COLORS / sizeof COLORS[0] >= sizeof LIBS / sizeof LIBS[0], "a colour per library");

static void write_svg(const char *path) {
    // Panels: (query, band).
    struct { int q; double band; const char *title; } P[] = {
        {BENCH_Q_DISTANCE, 1, "distance, far (+1)"},
        {BENCH_Q_DISTANCE, 1e-3, "distance, near (+1e-3)"},
        {BENCH_Q_PENETRATION, -1e-3, "penetration, near (-1e-3)"},
    };
    const int np = 3, W = 420, H = 340, ml = 60, mr = 10, mt = 30, mb = 45;
    double tmin = INFINITY, tmax = 0, nmin = INFINITY, nmax = 0;
    for (int i = 0; i < g_nrows; i++) {
        row *r = &g_rows[i];
        int shown = 0;
        for (int p = 0; p < np; p++) shown |= r->query == P[p].q && r->band == P[p].band;
        if (r->n == 0 || r->dim != 3 || r->state != 0 || !shown) continue;
        tmin = fmin(tmin, r->ns_median); tmax = fmax(tmax, r->ns_median);
        nmin = fmin(nmin, r->n); nmax = fmax(nmax, r->n);
    }
    if (!(tmax > 0)) return;
    double ly0 = floor(log10(tmin)), ly1 = ceil(log10(tmax)), lx0 = log10(nmin) - 0.15, lx1 = log10(nmax) + 0.15;
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); return; }
    int totw = W * np, toth = H + 40;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n", totw, toth, totw, toth);
    fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", totw, toth);
    for (int p = 0; p < np; p++) {
        int x0 = p * W + ml, x1 = (p + 1) * W - mr, y0 = mt, y1 = H - mb;
#define PX(n) (x0 + (log10(n) - lx0) / (lx1 - lx0) * (x1 - x0))
#define PY(t) (y1 - (log10(t) - ly0) / (ly1 - ly0) * (y1 - y0))
        fprintf(f, "<text x=\"%d\" y=\"18\" text-anchor=\"middle\" font-size=\"13\">%s</text>\n", (x0 + x1) / 2,
                P[p].title);
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n", x0, y0,
                x1 - x0, y1 - y0);
        for (double e = ly0; e <= ly1 + 1e-9; e += 1) {
            double y = PY(pow(10, e));
            fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x0, x1, y, y);
            fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">1e%g ns</text>\n", x0 - 4, y + 4, e);
        }
        for (int i = 0; i < NWORKLOADS; i++) {
            if (WORKLOADS[i].n == 0 || bench_kind_dim(WORKLOADS[i].kind) != 3) continue;
            double x = PX(WORKLOADS[i].n);
            if (WORKLOADS[i].n < nmin || WORKLOADS[i].n > nmax) continue;
            fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#eee\"/>\n", x, x, y0, y1);
            fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x, y1 + 14, WORKLOADS[i].n);
        }
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">hull vertices n (log)</text>\n", (x0 + x1) / 2,
                y1 + 30);
        for (int l = 0; l < NLIBS; l++) {
            if (!lib_shown(l, 3)) continue;
            char pts[4096] = "";
            size_t len = 0;
            int count = 0;
            for (int i = 0; i < g_nrows; i++) {
                row *r = &g_rows[i];
                if (r->n == 0 || r->dim != 3 || r->state != 0 || r->query != P[p].q || r->band != P[p].band ||
                    strcmp(r->library, LIBS[l]->name) != 0)
                    continue;
                len += (size_t)snprintf(pts + len, sizeof pts - len, "%.1f,%.1f ", PX(r->n), PY(r->ns_median));
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n", PX(r->n), PY(r->ns_median),
                        COLORS[l]);
                count++;
            }
            if (count > 1)
                fprintf(f, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"/>\n", pts, COLORS[l],
                        l == 0 ? "2.5" : "1.5");
        }
#undef PX
#undef PY
    }
    // Legend.
    int lx = ml;
    for (int l = 0; l < NLIBS; l++) {
        if (!lib_shown(l, 3)) continue;
        const char *state = LIBS[l]->missing ? " (missing)" : "";
        fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>\n", lx, lx + 18,
                toth - 14, toth - 14, COLORS[l]);
        fprintf(f, "<text x=\"%d\" y=\"%d\">%s%s</text>\n", lx + 22, toth - 10, LIBS[l]->name, state);
        lx += 140;
    }
    fprintf(f, "</svg>\n");
    fclose(f);
}

// ------------------------------------------------ gjk's own: warm starts, batches

// Warm starts (gjk only; the peers are measured cold): for each pair, B
// moves along a fixed direction by 1e-3 of the shapes' size per frame with a
// small turn, for WARM_FRAMES frames from its placed pose; frame 0 fills the
// simplex cache, the other frames are timed with the cache of the frame
// before (warm) and without one (cold), on the same poses. Polytopes are
// hulls (gjk_make_hull), as in the gjk adapter.
typedef struct warm_row {
    char workload[32];
    int n, query, band;
    double cold_ns, warm_ns, cold_iter, warm_iter;
    double warm_first_iter; ///< Mean iterations of the first warm frame alone.
} warm_row;
static warm_row g_warm[64];
static int g_nwarm;

/// Times query q at band b on every pair, cold and warm (the frames after
/// the first), into the next warm row.
static void warm_row_run(workload *w, int q, int b, const warm_ops *ops) {
    place_bands(w, &b, 1);
    double *cold = malloc(sizeof(double) * (size_t)w->pairs), *warm = malloc(sizeof(double) * (size_t)w->pairs);
    double it_cold = 0, it_warm = 0, it_first = 0;
    for (int i = 0; i < w->pairs; i++) {
        ops->start(ops->ctx, i, b);
        for (int pass = 0; pass < 2; pass++) { // 0 cold, 1 warm
            (void)ops->query(ops->ctx, 0, 1);
            double t0 = now_ns();
            int its = 0, first = 0;
            for (int f = 1; f < WARM_FRAMES; f++) {
                int k = ops->query(ops->ctx, f, pass);
                its += k;
                first += f == 1 ? k : 0;
            }
            double per = (now_ns() - t0) / (WARM_FRAMES - 1);
            if (pass) { warm[i] = per; it_warm += its; it_first += first; }
            else { cold[i] = per; it_cold += its; }
        }
    }
    warm_row *r = &g_warm[g_nwarm++];
    snprintf(r->workload, sizeof r->workload, "%s", w->name);
    r->n = w->n;
    r->query = q;
    r->band = b;
    r->cold_ns = percentile(cold, w->pairs, 0.5);
    r->warm_ns = percentile(warm, w->pairs, 0.5);
    r->cold_iter = it_cold / ((double)w->pairs * (WARM_FRAMES - 1));
    r->warm_iter = it_warm / ((double)w->pairs * (WARM_FRAMES - 1));
    r->warm_first_iter = it_first / (double)w->pairs;
    free(cold);
    free(warm);
}

/// The warm rows: in 3D distance at +1e-3, penetration at −1e-3 and
/// intersect at both; in 2D distance and penetration.
static void run_warm(workload *w) {
    int rows = w->dim == 2 ? 2 : 4;
    if ((w->dim != 2 && w->dim != 3) || g_nwarm + rows > (int)(sizeof g_warm / sizeof g_warm[0])) return;
    warm_pair p;
    warm_open(w, &p);
    const int bands[4] = {2, 5, 2, 5};
    const int queries[4] = {BENCH_Q_DISTANCE, BENCH_Q_PENETRATION, BENCH_Q_INTERSECT, BENCH_Q_INTERSECT};
    for (int j = 0; j < rows; j++) {
        p.c3.q = p.c2.q = queries[j];
        warm_row_run(w, queries[j], bands[j], &p.ops);
    }
    warm_close(&p);
}

// Batch throughput (gjk only): gjk_batch_distance (2D: gjk2_batch_distance)
// over BATCH_PAIRS pairs (the workload's pairs at +1e-3, repeated), on 1 and
// 2 threads; best of 3.
#define BATCH_PAIRS 200000
typedef struct batch_row {
    char workload[32];
    double mpairs[2];
} batch_row;
static batch_row g_batch[16];
static int g_nbatch;

/// A batch call on arrays of either dimension's inputs and outputs.
typedef gjk_status (*batch_call)(const void *in, void *out, int count, int threads);

static gjk_status batch_distance3(const void *in, void *out, int count, int threads) {
    return gjk_batch_distance(in, out, count, threads);
}

static gjk_status batch_distance2(const void *in, void *out, int count, int threads) {
    return gjk2_batch_distance(in, out, count, threads);
}

/// The next batch row: pairs per second of `call` on 1 and 2 threads.
static void batch_time(const workload *w, batch_call call, const void *in, void *out) {
    batch_row *r = &g_batch[g_nbatch++];
    snprintf(r->workload, sizeof r->workload, "%s", w->name);
    for (int t = 1; t <= 2; t++) {
        double best = INFINITY;
        for (int rep = 0; rep < 3; rep++) {
            double t0 = now_ns();
            call(in, out, BATCH_PAIRS, t);
            best = fmin(best, now_ns() - t0);
        }
        r->mpairs[t - 1] = BATCH_PAIRS / best * 1e3; // pairs per µs = millions per second
    }
}

static void run_batch(workload *w) {
    if (g_nbatch == (int)(sizeof g_batch / sizeof g_batch[0])) return;
    if (strcmp(w->name, "box") != 0 && strcmp(w->name, "hull32") != 0 && strcmp(w->name, "capsule") != 0 &&
        strcmp(w->name, "hull512") != 0 && strcmp(w->name, "2d-poly16") != 0)
        return;
    int b = 2;
    place_bands(w, &b, 1);
    if (w->dim == 2) {
        gjk_vec2 *va, *vb;
        gjk2_shape sa = bench_gjk2_shape(&w->a, &va), sb = bench_gjk2_shape(&w->b, &vb);
        gjk2_query_input *in = calloc(BATCH_PAIRS, sizeof *in);
        gjk2_distance_output *out = calloc(BATCH_PAIRS, sizeof *out);
        for (int i = 0; i < BATCH_PAIRS; i++) {
            in[i].shape_a = &sa;
            in[i].shape_b = &sb;
            in[i].transform_a = bench_gjk2_transform(&w->pose_a[i % w->pairs]);
            in[i].transform_b = bench_gjk2_transform(&w->pose_b[b][i % w->pairs]);
        }
        batch_time(w, batch_distance2, in, out);
        free(in);
        free(out);
        free(va);
        free(vb);
        return;
    }
    gjk_hull *ha, *hb;
    gjk_shape sa = bench_gjk_shape(&w->a, &ha), sb = bench_gjk_shape(&w->b, &hb);
    gjk_query_input *in = calloc(BATCH_PAIRS, sizeof *in);
    gjk_distance_output *out = calloc(BATCH_PAIRS, sizeof *out);
    for (int i = 0; i < BATCH_PAIRS; i++) {
        in[i].shape_a = &sa;
        in[i].shape_b = &sb;
        in[i].transform_a = bench_gjk_transform(&w->pose_a[i % w->pairs]);
        in[i].transform_b = bench_gjk_transform(&w->pose_b[b][i % w->pairs]);
    }
    batch_time(w, batch_distance3, in, out);
    free(in);
    free(out);
    gjk_hull_destroy(ha);
    gjk_hull_destroy(hb);
}

static void write_warm_csv(FILE *f) {
    for (int i = 0; i < g_nwarm; i++) {
        warm_row *r = &g_warm[i];
        for (int pass = 0; pass < 2; pass++)
            fprintf(f, "%s,gjk,%s-%s,%d,%g,%.1f,,%.2f,\n", r->workload, QUERY_NAMES[r->query], pass ? "warm" : "cold-frames",
                    r->n, BANDS[r->band], pass ? r->warm_ns : r->cold_ns, pass ? r->warm_iter : r->cold_iter);
    }
}

static void write_warm_md(FILE *f) {
    if (g_nwarm) {
        fprintf(f, "\n## Warm starts (gjk)\n\nB moves by 1e-3 of the shapes' size and turns 1e-3 rad per frame; each "
                   "query gets the simplex cache of the frame before (warm) or none (cold), on the same poses (intersect: "
                   "gjk_intersect_cached against gjk_intersect; in 2D distance and penetration only, as gjk2_intersect "
                   "takes no cache). Median "
                   "ns per query over the pairs (each pair: the mean of %d frames), mean iterations in brackets. The "
                   "peers are measured cold only.\n\n", WARM_FRAMES - 1);
        fprintf(f, "| workload | query | band | cold | warm | warm / cold |\n|---|---|---:|---|---|---|\n");
        for (int i = 0; i < g_nwarm; i++) {
            warm_row *r = &g_warm[i];
            char bl[32];
            fprintf(f, "| %s | %s | %s | %.0f (%.1f) | %.0f (%.1f) | %.2f |\n", r->workload, QUERY_NAMES[r->query],
                    band_label(BANDS[r->band], bl, sizeof bl), r->cold_ns, r->cold_iter, r->warm_ns, r->warm_iter,
                    r->warm_ns / r->cold_ns);
        }
        const warm_row *r32 = NULL, *r16k = NULL;
        for (int i = 0; i < g_nwarm; i++) {
            if (g_warm[i].query != BENCH_Q_DISTANCE) continue;
            if (strcmp(g_warm[i].workload, "hull32") == 0) r32 = &g_warm[i];
            if (strcmp(g_warm[i].workload, "hull16384") == 0) r16k = &g_warm[i];
        }
        if (r32 != NULL && r16k != NULL) {
            // The frames after the first, from the mean over all of them.
            const double later = WARM_FRAMES - 2;
            double l16k = (r16k->warm_iter * (WARM_FRAMES - 1) - r16k->warm_first_iter) / later;
            double l32 = (r32->warm_iter * (WARM_FRAMES - 1) - r32->warm_first_iter) / later;
            double ratio = r16k->warm_ns / r32->warm_ns;
            fprintf(f,
                    "\nWarm distance, 16384 vertices against 32: %.2f× the time (target: within 2×: %s), with %.2f "
                    "iterations a frame against %.2f (the first warm frame %.2f against %.2f, the later ones %.2f "
                    "against %.2f). Each support point of the large hull is a climb over the vertex graph (a chain "
                    "of dependent loads) where 32 vertices are scanned. The first warm frame follows a cold one "
                    "that ended at a vertex or an edge of the Minkowski difference (a pose slid along the separating "
                    "direction from afar keeps the closest point there), and the motion, as large as the distance, "
                    "moves the contact onto a face beside it; the warm walk steps over the hull vertices beside the "
                    "cached ones before its first support point, without which that frame took 6.7 iterations on "
                    "16384 vertices. The instructions per frame are in docs/design.md (warm start).\n",
                    ratio, ratio <= 2 ? "met" : "not met", r16k->warm_iter, r32->warm_iter, r16k->warm_first_iter,
                    r32->warm_first_iter, l16k, l32);
        }
    }
    if (g_nbatch) {
        fprintf(f, "\n## Batch throughput (gjk)\n\n`gjk_batch_distance` (2D: `gjk2_batch_distance`) over %d pairs (the workload's pairs at +1e-3, "
                   "repeated), best of 3; millions of pairs per second. The machine has 2 cores, shared.\n\n"
                   "| workload | 1 thread | 2 threads |\n|---|---|---|\n", BATCH_PAIRS);
        for (int i = 0; i < g_nbatch; i++)
            fprintf(f, "| %s | %.2f | %.2f |\n", g_batch[i].workload, g_batch[i].mpairs[0], g_batch[i].mpairs[1]);
    }
}

// ---------------------------------------------------------------- main

// FCL (Debian) and coal (wheel) each bring their own liboctomap (1.9 and
// 1.10); their static destructors interpose and free one string twice at
// exit. Nothing here uses octomap, so the process ends without running them.
static int quit(int rc) {
    fflush(NULL);
    _exit(rc);
}

static int env_int(const char *name, int def) {
    const char *s = getenv(name);
    return s && *s ? atoi(s) : def;
}

int main(int argc, char **argv) {
    const char *out = "bench", *work = "build-bench";
    int no_instr = env_int("BENCH_NO_INSTR", 0);
    // BENCH_SKIP="fcl,..." leaves peers out (reported as skipped). A peer
    // that crashes on some pose loses only those rows (each runs in a child
    // process), so this is for a quicker run, not for crashes.
    static bench_lib skipped[NLIBS];
    const char *skip = getenv("BENCH_SKIP");
    for (int l = 1; l < NLIBS && skip && *skip; l++) {
        if (list_has(skip, LIBS[l]->name)) {
            skipped[l] = *LIBS[l];
            skipped[l].missing = "skipped (BENCH_SKIP)";
            LIBS[l] = &skipped[l];
        }
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--instr-child") == 0) return quit(instr_child());
        if (strcmp(argv[i], "--profile") == 0) return quit(profile_main(argc - i - 1, argv + i + 1));
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) out = argv[++i];
        else if (strcmp(argv[i], "--work") == 0 && i + 1 < argc) work = argv[++i];
        else if (strcmp(argv[i], "--no-instr") == 0) no_instr = 1;
        else {
            fprintf(stderr, "usage: %s [--out DIR] [--work DIR] [--no-instr] | --profile LIB WORKLOAD QUERY BAND [ROUNDS]\n",
                    argv[0]);
            return quit(2);
        }
    }
    g_quick = env_int("BENCH_QUICK", 0);
    g_debug = env_int("BENCH_DEBUG", 0);
    g_pairs = env_int("BENCH_PAIRS", g_quick ? 100 : 1000);
    g_reps = env_int("BENCH_REPS", g_quick ? 1 : 3);
    if (g_pairs < 1) g_pairs = 1;
    if (g_reps < 1) g_reps = 1;
    double start = now_ns();

    fprintf(stderr, "gjk_bench: %d pairs, %d repetitions%s\n", g_pairs, g_reps, g_quick ? " (quick)" : "");
    for (int l = 0; l < NLIBS; l++)
        fprintf(stderr, "  %-10s %s\n", LIBS[l]->name, LIBS[l]->missing ? LIBS[l]->missing : lib_version(LIBS[l]));
    workload ws[NWORKLOADS];
    int nw = 0;
    for (int i = 0; i < NWORKLOADS; i++) {
        if (!workload_enabled(&WORKLOADS[i])) continue;
        workload *w = &ws[nw++];
        workload_init(w, WORKLOADS[i].name, WORKLOADS[i].kind, WORKLOADS[i].n, workload_pairs(&WORKLOADS[i]),
                      0x1234 + (uint64_t)i);
        double t0 = now_ns();
        run_workload(w);
        run_warm(w);
        run_batch(w);
        fprintf(stderr, "  %-10s done in %.1f s\n", w->name, (now_ns() - t0) * 1e-9);
        // Keep the placement summary, drop the big arrays.
        for (int b = 0; b < NBANDS; b++) {
            free(w->pose_b[b]); w->pose_b[b] = NULL;
            free(w->sd[b]); w->sd[b] = NULL;
            free(w->exact[b]); w->exact[b] = NULL;
        }
    }
    int instr_found = 0;
    if (!no_instr) {
        double t0 = now_ns();
        char self[4096];
        ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
        if (len > 0) {
            self[len] = 0;
            instr_found = count_instructions(self, work);
        } else {
            instr_found = -1;
        }
        fprintf(stderr, "  callgrind: %d rows counted in %.1f s\n", instr_found, (now_ns() - t0) * 1e-9);
    }
    mkdir(out, 0755);
    char path[4096];
    snprintf(path, sizeof path, "%s/results.csv", out);
    write_csv(path);
    double elapsed = (now_ns() - start) * 1e-9;
    snprintf(path, sizeof path, "%s/RESULTS.md", out);
    write_md(path, elapsed, no_instr ? 0 : instr_found);
    write_band_check(path, ws, nw);
    snprintf(path, sizeof path, "%s/plot.svg", out);
    write_svg(path);
    printf("\nMedian ns per query (peer/gjk), bands ±1e-3; the full table is in %s/RESULTS.md\n\n", out);
    write_table(stdout, 1, 3);
    printf("\n");
    write_table(stdout, 1, 2);
    printf("\nwrote %s/results.csv, %s/RESULTS.md, %s/plot.svg in %.0f s\n", out, out, out, elapsed);
    for (int i = 0; i < nw; i++) workload_free(&ws[i]);
    return quit(0);
}
