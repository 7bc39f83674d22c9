// Our library, through its public API only: gjk.h for the 3D workloads,
// gjk2d.h (gjk2_intersect, gjk2_distance, gjk2_penetration) for the 2D ones.
// Three entries: "gjk" with the default options; "gjk-3e-7" (ellipsoids
// only) at the accuracy of coal and MuJoCo, so that the curved rows can also
// be compared at equal accuracy; and "gjk-margin" (penetration of the 3D
// polytopes and of every 2D workload) with a contact margin, which answers
// shapes apart as libccd's penetration queries and Box2D's and Chipmunk's
// colliders do: "separated", without the distance.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_gjk.h"

typedef struct ctx {
    int dim;
    double tolerance; // options.tolerance of the 3D queries (0: the default)
    double margin;    // options.max_distance of the penetration queries (0: off), and then "separated" is +INFINITY
    gjk_shape a, b;
    gjk_hull *ha, *hb;
    gjk2_shape a2, b2;
    gjk_vec2 *va2, *vb2;
} ctx;

gjk2_shape bench_gjk2_shape(const bench_shape *s, gjk_vec2 **store) {
    *store = NULL;
    switch (s->kind) {
    case BENCH_POLY2: {
        // The 2d-box workload's rectangle (±hx, ±hy) is a box, as a user
        // with a box would make it (the 3D box workload is gjk_make_box too).
        const double *p = s->verts;
        if (s->n == 4 && p[0] > 0 && p[1] > 0 && p[2] == -p[0] && p[3] == p[1] && p[4] == -p[0] && p[5] == -p[1] &&
            p[6] == p[0] && p[7] == -p[1]) {
            return gjk2_make_box(gjk_v2(p[0], p[1]));
        }
        gjk_vec2 *v = malloc(sizeof *v * (size_t)s->n);
        for (int i = 0; i < s->n; i++) v[i] = gjk_v2(s->verts[2 * i], s->verts[2 * i + 1]);
        *store = v;
        return gjk2_make_convex_polygon(v, s->n);
    }
    case BENCH_CIRCLE: return gjk2_make_circle(s->radius);
    case BENCH_CAPSULE2: return gjk2_make_capsule(gjk_v2(-s->half_len, 0), gjk_v2(s->half_len, 0), s->radius);
    default: break;
    }
    return gjk2_make_point();
}

/// Polytopes are built once as hulls (faces and vertex adjacency), as a user
/// with a fixed mesh would: support points then climb the vertex graph.
gjk_shape bench_gjk_shape(const bench_shape *s, gjk_hull **store) {
    *store = NULL;
    switch (s->kind) {
    case BENCH_POLY: {
        gjk_vec3 *v = malloc(sizeof *v * (size_t)s->n);
        for (int i = 0; i < s->n; i++) v[i] = gjk_v3(s->verts[3 * i], s->verts[3 * i + 1], s->verts[3 * i + 2]);
        *store = gjk_hull_create(v, s->n, NULL);
        free(v);
        return gjk_make_hull(*store);
    }
    case BENCH_BOX: return gjk_make_box(gjk_v3(s->ext[0], s->ext[1], s->ext[2]));
    case BENCH_SPHERE: return gjk_make_sphere(s->radius);
    case BENCH_CAPSULE: return gjk_make_capsule(gjk_v3(0, 0, -s->half_len), gjk_v3(0, 0, s->half_len), s->radius);
    case BENCH_ELLIPSOID: return gjk_make_ellipsoid(gjk_v3(s->ext[0], s->ext[1], s->ext[2]));
    default: break;
    }
    return gjk_make_point();
}

static void *setup(const bench_shape *a, const bench_shape *b, char *why, size_t n) {
    (void)why; (void)n;
    ctx *c = calloc(1, sizeof *c);
    c->dim = bench_kind_dim(a->kind);
    if (c->dim == 2) {
        c->a2 = bench_gjk2_shape(a, &c->va2);
        c->b2 = bench_gjk2_shape(b, &c->vb2);
    } else {
        c->a = bench_gjk_shape(a, &c->ha);
        c->b = bench_gjk_shape(b, &c->hb);
    }
    return c;
}

/// A relative tolerance at which gjk's answers on the ellipsoid pairs are
/// as accurate as coal's and MuJoCo's (both stop at 1e-6; their answers
/// agree with gjk's default ones to 1e-6), as measured: at 3e-7 gjk's are
/// off by up to 1e-6, at 1e-6 by up to 3e-6 (gjk's absolute tolerance is
/// the relative one times the pair's length scale).
#define PEER_TOLERANCE 3e-7

static void *setup_tol(const bench_shape *a, const bench_shape *b, char *why, size_t n) {
    if (a->kind != BENCH_ELLIPSOID || b->kind != BENCH_ELLIPSOID) {
        snprintf(why, n, "measured on ellipsoids only, where iterations depend on the tolerance");
        return NULL;
    }
    ctx *c = setup(a, b, why, n);
    c->tolerance = PEER_TOLERANCE;
    return c;
}

/// The variant's section compares distance and penetration only.
static int has_query_tol(void *p, int q, char *why, size_t n) {
    (void)p;
    if (q == BENCH_Q_INTERSECT) {
        snprintf(why, n, "the matched-tolerance section compares distance and penetration");
        return 0;
    }
    return 1;
}

/// The contact margin of gjk-margin: options.max_distance of its
/// penetration queries, far below the bands' least separation (1e-5), so
/// that every separated pair is answered "separated" once the walk proves
/// it apart, as libccd's MPR and GJK penetration queries answer "not
/// intersecting" and Box2D's and Chipmunk's colliders give no contact;
/// overlapping and touching pairs get the full answer.
#define CONTACT_MARGIN 1e-9

static void *setup_margin(const bench_shape *a, const bench_shape *b, char *why, size_t n) {
    bool polytopes = (a->kind == BENCH_POLY || a->kind == BENCH_BOX) && (b->kind == BENCH_POLY || b->kind == BENCH_BOX);
    if (!polytopes && bench_kind_dim(a->kind) != 2) {
        snprintf(why, n, "measured on the polytope and 2D workloads, beside libccd's, Box2D's and Chipmunk's "
                         "penetration");
        return NULL;
    }
    ctx *c = setup(a, b, why, n);
    c->margin = CONTACT_MARGIN;
    return c;
}

static int has_query_margin(void *p, int q, char *why, size_t n) {
    (void)p;
    if (q != BENCH_Q_PENETRATION) {
        snprintf(why, n, "a contact margin changes the penetration query alone");
        return 0;
    }
    return 1;
}

static void teardown(void *p) {
    ctx *c = p;
    gjk_hull_destroy(c->ha);
    gjk_hull_destroy(c->hb);
    free(c->va2);
    free(c->vb2);
    free(c);
}

static int has_query(void *p, int q, char *why, size_t n) { (void)p; (void)q; (void)why; (void)n; return 1; }

gjk_transform bench_gjk_transform(const bench_pose *p) {
    return gjk_transform_make(gjk_v3(p->p[0], p->p[1], p->p[2]), gjk_quat_make(p->q[0], p->q[1], p->q[2], p->q[3]));
}

gjk_transform2 bench_gjk2_transform(const bench_pose *p) {
    gjk_transform2 t;
    t.position = gjk_v2(p->p[0], p->p[1]);
    t.rotation.c = p->R[0];
    t.rotation.s = p->R[3];
    return t;
}

static void make_pose(void *p, int which, const bench_pose *pose, void *out) {
    (void)which;
    if (((ctx *)p)->dim == 2) {
        gjk_transform2 t = bench_gjk2_transform(pose);
        memcpy(out, &t, sizeof t);
        return;
    }
    gjk_transform t = bench_gjk_transform(pose);
    memcpy(out, &t, sizeof t);
}

static double query2(ctx *c, int q, const void *pa, const void *pb, int *iterations) {
    gjk2_query_input in;
    memset(&in, 0, sizeof in);
    in.shape_a = &c->a2;
    in.shape_b = &c->b2;
    memcpy(&in.transform_a, pa, sizeof in.transform_a);
    memcpy(&in.transform_b, pb, sizeof in.transform_b);
    in.options.max_distance = c->margin;
    switch (q) {
    case BENCH_Q_INTERSECT: {
        gjk2_intersect_output o = gjk2_intersect(&in);
        *iterations = o.iterations;
        return o.intersect ? 1.0 : 0.0;
    }
    case BENCH_Q_DISTANCE: {
        gjk2_distance_output o = gjk2_distance(&in, NULL);
        *iterations = o.iterations;
        return (double)o.distance;
    }
    default: {
        gjk2_penetration_output o = gjk2_penetration(&in, NULL);
        *iterations = o.iterations + o.epa_iterations;
        return c->margin > 0 && o.status == GJK_SEPARATED ? INFINITY : (double)o.signed_distance;
    }
    }
}

static double query(void *p, int q, const void *pa, const void *pb, int *iterations) {
    ctx *c = p;
    if (c->dim == 2) return query2(c, q, pa, pb, iterations);
    gjk_query_input in;
    memset(&in, 0, sizeof in);
    in.shape_a = &c->a;
    in.shape_b = &c->b;
    memcpy(&in.transform_a, pa, sizeof in.transform_a);
    memcpy(&in.transform_b, pb, sizeof in.transform_b);
    in.options.tolerance = c->tolerance;
    in.options.max_distance = c->margin;
    switch (q) {
    case BENCH_Q_INTERSECT: {
        gjk_intersect_output o = gjk_intersect(&in);
        *iterations = o.iterations;
        return o.intersect ? 1.0 : 0.0;
    }
    case BENCH_Q_DISTANCE: {
        gjk_distance_output o = gjk_distance(&in, NULL);
        *iterations = o.iterations;
        return (double)o.distance;
    }
    default: {
        gjk_penetration_output o = gjk_penetration(&in, NULL);
        *iterations = o.iterations + o.epa_iterations;
        return c->margin > 0 && o.status == GJK_SEPARATED ? INFINITY : (double)o.signed_distance;
    }
    }
}

const bench_lib bench_lib_gjk = {"gjk", NULL, setup, teardown, has_query, make_pose, query, "this tree",
                                 BENCH_DIM3 | BENCH_DIM2};
const bench_lib bench_lib_gjk_tol = {"gjk-3e-7", NULL, setup_tol, teardown, has_query_tol, make_pose, query,
                                     "this tree, options.tolerance = 3e-7 (the accuracy of coal and MuJoCo)",
                                     BENCH_DIM3 | BENCH_VARIANT};
const bench_lib bench_lib_gjk_margin = {"gjk-margin", NULL, setup_margin, teardown, has_query_margin, make_pose, query,
                                        "this tree, options.max_distance = 1e-9 (a contact margin: \"separated\" without "
                                        "the distance, as libccd's penetration queries and Box2D's and Chipmunk's "
                                        "colliders answer)",
                                        BENCH_DIM3 | BENCH_DIM2 | BENCH_VARIANT};
