// libccd (Debian libccd-dev): GJK intersect, GJK+EPA penetration, and MPR
// (a second "library" row, libccd-mpr). libccd works through support
// callbacks, written here for each shape; a hull is its point list, scanned
// linearly (libccd has no hull structure of its own). libccd 2.1 has no
// distance query.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#ifdef BENCH_HAVE_CCD
#include <ccd/ccd.h>

typedef struct pose {
    double R[9]; // row-major
    double p[3];
} pose;

typedef struct obj {
    const bench_shape *s;
    const pose *t;
} obj;

static void local_support(const bench_shape *s, const double l[3], double out[3]) {
    switch (s->kind) {
    case BENCH_POLY: {
        const double *v = s->verts;
        int best = 0;
        double bd = v[0] * l[0] + v[1] * l[1] + v[2] * l[2];
        for (int i = 1; i < s->n; i++) {
            double d = v[3 * i] * l[0] + v[3 * i + 1] * l[1] + v[3 * i + 2] * l[2];
            if (d > bd) { bd = d; best = i; }
        }
        memcpy(out, v + 3 * best, sizeof(double) * 3);
        return;
    }
    case BENCH_BOX:
        for (int k = 0; k < 3; k++) out[k] = l[k] < 0 ? -s->ext[k] : s->ext[k];
        return;
    case BENCH_SPHERE:
    case BENCH_CAPSULE: {
        double len = sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
        double f = len > 0 ? s->radius / len : 0;
        for (int k = 0; k < 3; k++) out[k] = f * l[k];
        if (s->kind == BENCH_CAPSULE) out[2] += l[2] < 0 ? -s->half_len : s->half_len;
        return;
    }
    case BENCH_ELLIPSOID: {
        double a2[3], den = 0;
        for (int k = 0; k < 3; k++) { a2[k] = s->ext[k] * s->ext[k] * l[k]; den += a2[k] * l[k]; }
        den = den > 0 ? 1.0 / sqrt(den) : 0;
        for (int k = 0; k < 3; k++) out[k] = a2[k] * den;
        return;
    }
    default: // 2D kinds: libccd is a 3D library, never given them
        out[0] = out[1] = out[2] = 0;
        return;
    }
}

static void support(const void *o, const ccd_vec3_t *dir, ccd_vec3_t *vec) {
    const obj *ob = o;
    const double *R = ob->t->R;
    const double *d = dir->v;
    double l[3] = {R[0] * d[0] + R[3] * d[1] + R[6] * d[2], R[1] * d[0] + R[4] * d[1] + R[7] * d[2],
                   R[2] * d[0] + R[5] * d[1] + R[8] * d[2]};
    double s[3] = {0, 0, 0};
    local_support(ob->s, l, s);
    for (int k = 0; k < 3; k++) vec->v[k] = R[3 * k] * s[0] + R[3 * k + 1] * s[1] + R[3 * k + 2] * s[2] + ob->t->p[k];
}

static void center(const void *o, ccd_vec3_t *c) {
    const obj *ob = o;
    for (int k = 0; k < 3; k++) c->v[k] = ob->t->p[k];
}

typedef struct ctx {
    bench_shape a, b;
    ccd_t ccd;
    int mpr;
} ctx;

static void *setup_common(const bench_shape *a, const bench_shape *b, int mpr) {
    ctx *c = calloc(1, sizeof *c);
    c->a = *a;
    c->b = *b;
    CCD_INIT(&c->ccd);
    c->ccd.support1 = support;
    c->ccd.support2 = support;
    c->ccd.center1 = center;
    c->ccd.center2 = center;
    // CCD_INIT leaves the iterations unbounded; a cap far above any
    // converging run keeps a cycling pair from hanging the benchmark.
    c->ccd.max_iterations = 1000;
    // BENCH_CCD_EPA_TOLERANCE: a tighter EPA tolerance than libccd's default
    // (1e-4), to see how much of the disagreement is the tolerance.
    const char *tol = getenv("BENCH_CCD_EPA_TOLERANCE");
    if (tol && *tol) c->ccd.epa_tolerance = atof(tol);
    c->mpr = mpr;
    return c;
}

static void *setup_gjk(const bench_shape *a, const bench_shape *b, char *why, size_t n) {
    (void)why; (void)n;
    return setup_common(a, b, 0);
}
static void *setup_mpr(const bench_shape *a, const bench_shape *b, char *why, size_t n) {
    (void)why; (void)n;
    return setup_common(a, b, 1);
}

static void teardown(void *c) { free(c); }

static int has_query(void *ctx, int q, char *why, size_t n) {
    (void)ctx;
    if (q == BENCH_Q_DISTANCE) {
        snprintf(why, n, "libccd 2.1 has no distance query");
        return 0;
    }
    return 1;
}

static void make_pose(void *c, int which, const bench_pose *p, void *out) {
    (void)c; (void)which;
    pose t;
    memcpy(t.R, p->R, sizeof t.R);
    memcpy(t.p, p->p, sizeof t.p);
    memcpy(out, &t, sizeof t);
}

static double query(void *p, int q, const void *pa, const void *pb, int *iterations) {
    ctx *c = p;
    obj oa = {&c->a, pa}, ob = {&c->b, pb};
    *iterations = -1;
    if (q == BENCH_Q_INTERSECT)
        return (c->mpr ? ccdMPRIntersect(&oa, &ob, &c->ccd) : ccdGJKIntersect(&oa, &ob, &c->ccd)) ? 1.0 : 0.0;
    ccd_real_t depth = 0;
    ccd_vec3_t dir, pos;
    int r = c->mpr ? ccdMPRPenetration(&oa, &ob, &c->ccd, &depth, &dir, &pos)
                   : ccdGJKPenetration(&oa, &ob, &c->ccd, &depth, &dir, &pos);
    if (r != 0) return INFINITY; // "not intersecting", no distance given
    return -(double)depth;
}

const bench_lib bench_lib_ccd = {"libccd", NULL, setup_gjk, teardown, has_query, make_pose, query, "2.1 (Debian)",
                                 BENCH_DIM3};
const bench_lib bench_lib_ccd_mpr = {"libccd-mpr", NULL, setup_mpr, teardown, has_query, make_pose, query,
                                     "2.1 (Debian)", BENCH_DIM3};
#else
const bench_lib bench_lib_ccd = {"libccd", "libccd-dev not found at configure time", 0, 0, 0, 0, 0, 0, BENCH_DIM3};
const bench_lib bench_lib_ccd_mpr = {"libccd-mpr", "libccd-dev not found at configure time", 0, 0, 0, 0, 0, 0,
                                     BENCH_DIM3};
#endif
