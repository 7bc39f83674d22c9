// Chipmunk 7 (Debian libchipmunk-dev), on the 2D workloads, in double
// (cpFloat). Chipmunk's one query for two shapes is cpShapesCollide: the
// contact points of shapes that overlap (its GJK, then EPA for polygons),
// nothing for shapes apart. Shapes are cpPolyShape (radius 0; Chipmunk hulls
// the points itself), cpCircleShape and cpSegmentShape with a radius (the
// capsule), each on a static body. A shape's world-space data is set by
// cpShapeUpdate (it transforms every vertex), which is part of each query
// here: in a cpSpace it runs once per shape and step, not per pair.
//   intersect:   cpShapesCollide's count > 0.
//   penetration: the least of its contact points' distances (negative: the
//                depth), "separated" without a distance when there is no
//                contact.
//   distance:    n/a (Chipmunk computes it inside cpShapesCollide for
//                polygons but does not return it for shapes apart).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#ifdef BENCH_HAVE_CHIPMUNK
#include <chipmunk/chipmunk.h>

typedef struct ctx {
    cpBody *body;
    cpShape *a, *b;
} ctx;

static cpShape *make(cpBody *body, const bench_shape *s) {
    switch (s->kind) {
    case BENCH_POLY2: {
        cpVect *v = malloc(sizeof *v * (size_t)s->n);
        for (int i = 0; i < s->n; i++) v[i] = cpv(s->verts[2 * i], s->verts[2 * i + 1]);
        cpShape *p = cpPolyShapeNew(body, s->n, v, cpTransformIdentity, 0.0);
        free(v);
        return p;
    }
    case BENCH_CIRCLE: return cpCircleShapeNew(body, s->radius, cpvzero);
    case BENCH_CAPSULE2: return cpSegmentShapeNew(body, cpv(-s->half_len, 0), cpv(s->half_len, 0), s->radius);
    default: return NULL;
    }
}

static void *setup(const bench_shape *a, const bench_shape *b, char *why, size_t n) {
    if (bench_kind_dim(a->kind) != 2) {
        snprintf(why, n, "a 2D library");
        return NULL;
    }
    ctx *c = calloc(1, sizeof *c);
    c->body = cpBodyNewStatic();
    c->a = make(c->body, a);
    c->b = make(c->body, b);
    return c;
}

static void teardown(void *p) {
    ctx *c = p;
    cpShapeFree(c->a);
    cpShapeFree(c->b);
    cpBodyFree(c->body);
    free(c);
}

static int has_query(void *ctx_, int q, char *why, size_t n) {
    (void)ctx_;
    if (q == BENCH_Q_DISTANCE) {
        snprintf(why, n, "no distance between two shapes in the API (cpShapesCollide answers overlapping shapes only)");
        return 0;
    }
    return 1;
}

static void make_pose(void *p, int which, const bench_pose *pose, void *out) {
    (void)p; (void)which;
    // x' = a x + c y + tx, y' = b x + d y + ty.
    cpTransform t = {pose->R[0], pose->R[3], -pose->R[3], pose->R[0], pose->p[0], pose->p[1]};
    memcpy(out, &t, sizeof t);
}

static double query(void *p, int q, const void *pa, const void *pb, int *iterations) {
    ctx *c = p;
    cpTransform ta, tb;
    memcpy(&ta, pa, sizeof ta);
    memcpy(&tb, pb, sizeof tb);
    *iterations = -1;
    cpShapeUpdate(c->a, ta);
    cpShapeUpdate(c->b, tb);
    cpContactPointSet set = cpShapesCollide(c->a, c->b);
    if (q == BENCH_Q_INTERSECT) return set.count > 0 ? 1.0 : 0.0;
    if (set.count == 0) return INFINITY;
    double d = set.points[0].distance;
    for (int i = 1; i < set.count; i++) d = fmin(d, set.points[i].distance);
    return d;
}

#define STR2(x) #x
#define STR(x) STR2(x)
const bench_lib bench_lib_chipmunk = {
    "chipmunk", NULL, setup, teardown, has_query, make_pose, query,
    STR(CP_VERSION_MAJOR) "." STR(CP_VERSION_MINOR) "." STR(CP_VERSION_RELEASE) " (Debian)", BENCH_DIM2};
#else
const bench_lib bench_lib_chipmunk = {"chipmunk", BENCH_CHIPMUNK_MISSING, NULL, NULL, NULL, NULL, NULL, NULL, BENCH_DIM2};
#endif
