// MuJoCo (PyPI wheel "mujoco": libmujoco and its C headers inside the
// package). Both shapes are geoms of one model built in memory from an XML
// string (a hull is a mesh asset: MuJoCo builds its own hull and support
// graph). Each query writes the two geoms' world poses into mjData and calls
// mj_geomDistance, which answers the signed distance. MuJoCo recentres a mesh
// at its centroid and principal axes and keeps that offset as the geom's
// local pose, which is composed with ours here, before timing.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#ifdef BENCH_HAVE_MUJOCO
#include <mujoco/mujoco.h>

typedef struct ctx {
    mjModel *m;
    mjData *d;
} ctx;

typedef struct pose {
    mjtNum xpos[3];
    mjtNum xmat[9];
} pose;

typedef struct buf {
    char *s;
    size_t len, cap;
} buf;

static void put(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void put(buf *b, const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        b->cap = b->cap * 2 + (size_t)n + 64;
        b->s = realloc(b->s, b->cap);
    }
}

static void asset(buf *b, const bench_shape *s, const char *name) {
    if (s->kind != BENCH_POLY) return;
    put(b, "<mesh name=\"%s\" vertex=\"", name);
    for (int i = 0; i < 3 * s->n; i++) put(b, "%.17g ", s->verts[i]);
    put(b, "\"/>\n");
}

static void geom(buf *b, const bench_shape *s, const char *name, const char *mesh) {
    switch (s->kind) {
    case BENCH_POLY: put(b, "<geom name=\"%s\" type=\"mesh\" mesh=\"%s\"/>\n", name, mesh); break;
    case BENCH_BOX:
        put(b, "<geom name=\"%s\" type=\"box\" size=\"%.17g %.17g %.17g\"/>\n", name, s->ext[0], s->ext[1], s->ext[2]);
        break;
    case BENCH_SPHERE: put(b, "<geom name=\"%s\" type=\"sphere\" size=\"%.17g\"/>\n", name, s->radius); break;
    case BENCH_CAPSULE:
        put(b, "<geom name=\"%s\" type=\"capsule\" size=\"%.17g %.17g\"/>\n", name, s->radius, s->half_len);
        break;
    case BENCH_ELLIPSOID:
        put(b, "<geom name=\"%s\" type=\"ellipsoid\" size=\"%.17g %.17g %.17g\"/>\n", name, s->ext[0], s->ext[1],
            s->ext[2]);
        break;
    default: break; // 2D kinds: never given to this 3D library
    }
}

static void *setup(const bench_shape *a, const bench_shape *b, char *why, size_t n) {
    buf x = {malloc(4096), 0, 4096};
    x.s[0] = 0;
    put(&x, "<mujoco>\n<asset>\n");
    asset(&x, a, "mesh_a");
    asset(&x, b, "mesh_b");
    put(&x, "</asset>\n<worldbody>\n");
    geom(&x, a, "a", "mesh_a");
    geom(&x, b, "b", "mesh_b");
    put(&x, "</worldbody>\n</mujoco>\n");
    char err[1000] = "";
    mjSpec *spec = mj_parseXMLString(x.s, NULL, err, sizeof err);
    free(x.s);
    if (!spec) {
        snprintf(why, n, "mujoco: %s", err);
        return NULL;
    }
    mjModel *m = mj_compile(spec, NULL);
    if (!m) {
        snprintf(why, n, "mujoco: %s", mjs_getError(spec));
        mj_deleteSpec(spec);
        return NULL;
    }
    mj_deleteSpec(spec);
    ctx *c = calloc(1, sizeof *c);
    c->m = m;
    c->d = mj_makeData(m);
    return c;
}

static void teardown(void *p) {
    ctx *c = p;
    mj_deleteData(c->d);
    mj_deleteModel(c->m);
    free(c);
}

static int has_query(void *ctx, int q, char *why, size_t n) {
    (void)ctx;
    if (q == BENCH_Q_INTERSECT) {
        snprintf(why, n, "no yes/no query for two geoms in the C API (mj_geomDistance only)");
        return 0;
    }
    return 1;
}

// The geom's world pose: ours composed with the geom's offset in the model.
static void make_pose(void *p, int which, const bench_pose *ps, void *out) {
    ctx *c = p;
    const mjtNum *gp = c->m->geom_pos + 3 * which, *gq = c->m->geom_quat + 4 * which;
    mjtNum off[9];
    mju_quat2Mat(off, gq);
    pose t;
    for (int r = 0; r < 3; r++) {
        for (int k = 0; k < 3; k++)
            t.xmat[3 * r + k] = ps->R[3 * r] * off[k] + ps->R[3 * r + 1] * off[3 + k] + ps->R[3 * r + 2] * off[6 + k];
        t.xpos[r] = ps->R[3 * r] * gp[0] + ps->R[3 * r + 1] * gp[1] + ps->R[3 * r + 2] * gp[2] + ps->p[r];
    }
    memcpy(out, &t, sizeof t);
}

static double query(void *p, int q, const void *pa, const void *pb, int *iterations) {
    (void)q;
    ctx *c = p;
    const pose *a = pa, *b = pb;
    memcpy(c->d->geom_xpos, a->xpos, sizeof a->xpos);
    memcpy(c->d->geom_xmat, a->xmat, sizeof a->xmat);
    memcpy(c->d->geom_xpos + 3, b->xpos, sizeof b->xpos);
    memcpy(c->d->geom_xmat + 9, b->xmat, sizeof b->xmat);
    *iterations = -1;
    return mj_geomDistance(c->m, c->d, 0, 1, 10.0, NULL);
}

static char version[64];
static const char *mujoco_version(void) {
    snprintf(version, sizeof version, "%s (PyPI wheel)", mj_versionString());
    return version;
}

const bench_lib bench_lib_mujoco = {"mujoco", NULL, setup, teardown, has_query, make_pose, query, NULL, BENCH_DIM3};
const char *bench_mujoco_version(void) { return mujoco_version(); }
#else
const bench_lib bench_lib_mujoco = {"mujoco", BENCH_MUJOCO_MISSING, 0, 0, 0, 0, 0, 0, BENCH_DIM3};
const char *bench_mujoco_version(void) { return ""; }
#endif
