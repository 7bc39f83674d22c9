// Bullet 3 (Debian libbullet-dev), double-precision build (the
// libBulletCollision-float64 / libLinearMath-float64 that Debian ships, with
// BT_USE_DOUBLE_PRECISION for this file only): btGjkEpaSolver2, the GJK/EPA
// of Bullet's convex-convex collisions.
//
// Margins: Bullet's GJK runs on a shape's core and adds a margin around it.
// Hulls (btConvexHullShape) and boxes (btBoxShape) get margin 0, so their
// cores are our shapes; a sphere's core is its centre and a capsule's its
// segment, with the radius as margin (Bullet fixes that margin). Each query
// therefore does what Bullet's own pair detector does: GJK on the cores
// (btGjkEpaSolver2::Distance, no margins) less the two margins; where the
// cores overlap, EPA on the shapes with their margins
// (btGjkEpaSolver2::Penetration, usemargins = true). The first direction is
// the centre difference, as in btGjkEpaPenetrationDepthSolver.
//   distance:    the above, without the EPA (0 where the cores overlap).
//   penetration: the above.
//   intersect:   n/a (btGjkEpaSolver2 has no yes/no query).
// Ellipsoid: n/a (Bullet has no ellipsoid shape; btMultiSphereShape is the
// hull of spheres, and a scaled sphere stays a sphere).
//
// A second row, bullet-pd, is the path Bullet's collision dispatcher takes for
// two convex shapes: btGjkPairDetector::getClosestPoints with a
// btVoronoiSimplexSolver and a btGjkEpaPenetrationDepthSolver (its own GJK on
// the cores, margins added, EPA by btGjkEpaSolver2 where the cores overlap).
// The detector is made for each query (its cached separating axis would
// otherwise warm-start the next one); one call answers both distance (its
// signed answer clamped at 0 by the caller) and penetration.
#include <cmath>
#include <cstdio>
#include <new>

#include "bench.h"

#ifdef BENCH_HAVE_BULLET
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>

#ifndef BT_USE_DOUBLE_PRECISION
#error "the bench links Bullet's double-precision libraries: BT_USE_DOUBLE_PRECISION must be set"
#endif

namespace {

struct Ctx {
    btConvexShape *a, *b;
    btScalar margins;
};

btConvexShape *make(const bench_shape *s) {
    switch (s->kind) {
    case BENCH_POLY: {
        auto *h = new btConvexHullShape(s->verts, s->n, (int)(3 * sizeof(double)));
        h->setMargin(0);
        return h;
    }
    case BENCH_BOX: {
        auto *b = new btBoxShape(btVector3(s->ext[0], s->ext[1], s->ext[2]));
        b->setMargin(0); // keeps the half extents (the core grows by the margin removed)
        return b;
    }
    case BENCH_SPHERE: return new btSphereShape(s->radius);
    case BENCH_CAPSULE: return new btCapsuleShapeZ(s->radius, 2 * s->half_len);
    default: return nullptr;
    }
}

void *setup(const bench_shape *a, const bench_shape *b, char *why, size_t n) {
    if (a->kind == BENCH_ELLIPSOID) {
        std::snprintf(why, n, "no ellipsoid shape (btMultiSphereShape is a hull of spheres)");
        return nullptr;
    }
    auto *c = new Ctx;
    c->a = make(a);
    c->b = make(b);
    c->margins = c->a->getMargin() + c->b->getMargin();
    return c;
}

void teardown(void *p) {
    Ctx *c = static_cast<Ctx *>(p);
    delete c->a;
    delete c->b;
    delete c;
}

int has_query(void *, int q, char *why, size_t n) {
    if (q == BENCH_Q_INTERSECT) {
        std::snprintf(why, n, "btGjkEpaSolver2 has no yes/no query");
        return 0;
    }
    return 1;
}

static_assert(sizeof(btTransform) <= BENCH_POSE_BYTES, "pose blob too small");

void make_pose(void *, int, const bench_pose *p, void *out) {
    const double *R = p->R;
    new (out) btTransform(btMatrix3x3(R[0], R[1], R[2], R[3], R[4], R[5], R[6], R[7], R[8]),
                          btVector3(p->p[0], p->p[1], p->p[2]));
}

double query(void *p, int q, const void *pa, const void *pb, int *iterations) {
    Ctx *c = static_cast<Ctx *>(p);
    const auto &ta = *static_cast<const btTransform *>(pa);
    const auto &tb = *static_cast<const btTransform *>(pb);
    *iterations = -1;
    btVector3 guess = tb.getOrigin() - ta.getOrigin();
    btGjkEpaSolver2::sResults res;
    if (btGjkEpaSolver2::Distance(c->a, ta, c->b, tb, guess, res)) return res.distance - c->margins;
    if (q == BENCH_Q_DISTANCE) return 0.0;
    if (btGjkEpaSolver2::Penetration(c->a, ta, c->b, tb, guess, res, true)) return res.distance;
    return INFINITY; // EPA failed: counted as "separated" (an error of the full depth)
}

int has_query_pd(void *, int q, char *why, size_t n) {
    if (q == BENCH_Q_INTERSECT) {
        std::snprintf(why, n, "btGjkPairDetector has no yes/no query");
        return 0;
    }
    return 1;
}

double query_pd(void *p, int, const void *pa, const void *pb, int *iterations) {
    Ctx *c = static_cast<Ctx *>(p);
    *iterations = -1;
    btVoronoiSimplexSolver simplex;
    btGjkEpaPenetrationDepthSolver epa;
    btGjkPairDetector detector(c->a, c->b, &simplex, &epa);
    btDiscreteCollisionDetectorInterface::ClosestPointInput in;
    in.m_transformA = *static_cast<const btTransform *>(pa);
    in.m_transformB = *static_cast<const btTransform *>(pb);
    btPointCollector out;
    detector.getClosestPoints(in, out, nullptr);
    return out.m_hasResult ? out.m_distance : INFINITY; // no result: counted as "separated"
}

} // namespace

extern "C" const bench_lib bench_lib_bullet = {"bullet", nullptr, setup, teardown, has_query, make_pose, query,
                                               BENCH_BULLET_VERSION,
                                               BENCH_DIM3};
extern "C" const bench_lib bench_lib_bullet_pd = {"bullet-pd", nullptr, setup, teardown, has_query_pd, make_pose, query_pd,
                                                  BENCH_BULLET_VERSION, BENCH_DIM3};
#else
extern "C" const bench_lib bench_lib_bullet_pd = {"bullet-pd", BENCH_BULLET_MISSING, nullptr, nullptr, nullptr, nullptr,
                                                  nullptr, nullptr, BENCH_DIM3};
extern "C" const bench_lib bench_lib_bullet = {"bullet", BENCH_BULLET_MISSING, nullptr, nullptr, nullptr, nullptr, nullptr,
                                               nullptr, BENCH_DIM3};
#endif
