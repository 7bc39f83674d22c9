// coal (PyPI wheel "coal": the C++ library, headers and CMake config under
// the cmeel prefix of site-packages). Shapes are coal's own primitives; a
// hull is built by coal's ConvexBase::convexHull (qhull) from the points, so
// coal gets its vertex-neighbour graph for hill-climbing support. Queries go
// through coal::ComputeDistance / coal::ComputeCollision, the functors coal
// recommends for repeated queries on one pair.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "bench.h"

#ifdef BENCH_HAVE_COAL
#include <coal/collision.h>
#include <coal/distance.h>
#include <coal/shape/convex.h>
#include <coal/shape/geometric_shapes.h>

namespace {

// Exposes the iteration counters of the solver the functor owns.
struct Distance : coal::ComputeDistance {
    using coal::ComputeDistance::ComputeDistance;
    int iterations(bool penetrating) const {
        int it = (int)solver.gjk.getNumIterations();
        if (penetrating) it += (int)solver.epa.getNumIterations();
        return it;
    }
};

struct Ctx {
    std::shared_ptr<coal::CollisionGeometry> a, b;
    std::unique_ptr<Distance> dist;
    std::unique_ptr<coal::ComputeCollision> coll;
    bool gjk_path; // false where coal answers in closed form (sphere, capsule pairs)
    coal::DistanceRequest req_dist, req_pen;
    coal::CollisionRequest req_coll;
};

std::shared_ptr<coal::CollisionGeometry> make(const bench_shape *s) {
    switch (s->kind) {
    case BENCH_POLY: {
        auto pts = std::make_shared<std::vector<coal::Vec3s>>();
        for (int i = 0; i < s->n; i++) pts->emplace_back(s->verts[3 * i], s->verts[3 * i + 1], s->verts[3 * i + 2]);
        return std::shared_ptr<coal::CollisionGeometry>(
            coal::ConvexBase::convexHull(pts, (unsigned)s->n, true, nullptr));
    }
    case BENCH_BOX: return std::make_shared<coal::Box>(2 * s->ext[0], 2 * s->ext[1], 2 * s->ext[2]);
    case BENCH_SPHERE: return std::make_shared<coal::Sphere>(s->radius);
    case BENCH_CAPSULE: return std::make_shared<coal::Capsule>(s->radius, 2 * s->half_len);
    case BENCH_ELLIPSOID: return std::make_shared<coal::Ellipsoid>(s->ext[0], s->ext[1], s->ext[2]);
    }
    return nullptr;
}

void *setup(const bench_shape *a, const bench_shape *b, char *why, size_t n) {
    try {
        auto *c = new Ctx;
        c->a = make(a);
        c->b = make(b);
        c->dist.reset(new Distance(c->a.get(), c->b.get()));
        c->coll.reset(new coal::ComputeCollision(c->a.get(), c->b.get()));
        c->gjk_path = !((a->kind == BENCH_SPHERE || a->kind == BENCH_CAPSULE) &&
                        (b->kind == BENCH_SPHERE || b->kind == BENCH_CAPSULE));
        c->req_dist = coal::DistanceRequest(true, false); // distance only: no EPA when overlapping
        c->req_pen = coal::DistanceRequest(true, true);   // signed distance: EPA when overlapping
        c->req_coll = coal::CollisionRequest(coal::NO_REQUEST, 1); // yes/no only
        return c;
    } catch (const std::exception &e) {
        std::snprintf(why, n, "coal: %s", e.what());
        return nullptr;
    }
}

void teardown(void *p) { delete static_cast<Ctx *>(p); }

int has_query(void *, int, char *, size_t) { return 1; }

static_assert(sizeof(coal::Transform3s) <= BENCH_POSE_BYTES, "pose blob too small");

void make_pose(void *, int, const bench_pose *p, void *out) {
    coal::Matrix3s R;
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) R(r, k) = p->R[3 * r + k];
    new (out) coal::Transform3s(R, coal::Vec3s(p->p[0], p->p[1], p->p[2]));
}

double query(void *p, int q, const void *pa, const void *pb, int *iterations) {
    Ctx *c = static_cast<Ctx *>(p);
    const auto &ta = *static_cast<const coal::Transform3s *>(pa);
    const auto &tb = *static_cast<const coal::Transform3s *>(pb);
    if (q == BENCH_Q_INTERSECT) {
        coal::CollisionResult res;
        std::size_t k = (*c->coll)(ta, tb, c->req_coll, res);
        *iterations = -1;
        return k > 0 ? 1.0 : 0.0;
    }
    coal::DistanceResult res;
    double d = (*c->dist)(ta, tb, q == BENCH_Q_DISTANCE ? c->req_dist : c->req_pen, res);
    *iterations = c->gjk_path ? c->dist->iterations(q == BENCH_Q_PENETRATION && d < 0) : -1;
    return d;
}

} // namespace

extern "C" const bench_lib bench_lib_coal = {"coal", nullptr, setup, teardown, has_query, make_pose, query,
                                             BENCH_COAL_VERSION " (PyPI wheel)"};
#else
extern "C" const bench_lib bench_lib_coal = {"coal", BENCH_COAL_MISSING, nullptr, nullptr, nullptr,
                                             nullptr, nullptr, nullptr};
#endif
