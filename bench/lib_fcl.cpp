// FCL 0.7 (Debian libfcl-dev): fcl::distance and fcl::collide with the
// default solver (GST_LIBCCD). A hull is given as an fcl::Convex with the
// qhull triangles. Distance queries ask for the unsigned distance;
// penetration queries set enable_signed_distance.
#include <cmath>
#include <cstdio>
#include <memory>
#include <new>
#include <vector>

#include "bench.h"

#ifdef BENCH_HAVE_FCL
#include <fcl/fcl.h>

namespace {

struct Ctx {
    std::shared_ptr<fcl::CollisionGeometryd> a, b;
    fcl::DistanceRequestd req_dist, req_pen;
    fcl::CollisionRequestd req_coll;
};

std::shared_ptr<fcl::CollisionGeometryd> make(const bench_shape *s) {
    switch (s->kind) {
    case BENCH_POLY: {
        auto v = std::make_shared<std::vector<fcl::Vector3d>>();
        for (int i = 0; i < s->n; i++) v->emplace_back(s->verts[3 * i], s->verts[3 * i + 1], s->verts[3 * i + 2]);
        auto f = std::make_shared<std::vector<int>>();
        for (int i = 0; i < s->nfaces; i++) {
            f->push_back(3);
            for (int k = 0; k < 3; k++) f->push_back(s->faces[3 * i + k]);
        }
        auto c = std::make_shared<fcl::Convexd>(v, s->nfaces, f);
        c->computeLocalAABB();
        return c;
    }
    case BENCH_BOX: return std::make_shared<fcl::Boxd>(2 * s->ext[0], 2 * s->ext[1], 2 * s->ext[2]);
    case BENCH_SPHERE: return std::make_shared<fcl::Sphered>(s->radius);
    case BENCH_CAPSULE: return std::make_shared<fcl::Capsuled>(s->radius, 2 * s->half_len);
    case BENCH_ELLIPSOID: return std::make_shared<fcl::Ellipsoidd>(s->ext[0], s->ext[1], s->ext[2]);
    }
    return nullptr;
}

void *setup(const bench_shape *a, const bench_shape *b, char *why, size_t n) {
    try {
        auto *c = new Ctx;
        c->a = make(a);
        c->b = make(b);
        c->req_dist.enable_signed_distance = false;
        c->req_pen.enable_signed_distance = true;
        return c;
    } catch (const std::exception &e) {
        std::snprintf(why, n, "fcl: %s", e.what());
        return nullptr;
    }
}

void teardown(void *p) { delete static_cast<Ctx *>(p); }

int has_query(void *, int, char *, size_t) { return 1; }

static_assert(sizeof(fcl::Transform3d) <= BENCH_POSE_BYTES, "pose blob too small");

void make_pose(void *, int, const bench_pose *p, void *out) {
    auto *t = new (out) fcl::Transform3d(fcl::Transform3d::Identity());
    fcl::Matrix3d R;
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) R(r, k) = p->R[3 * r + k];
    t->linear() = R;
    t->translation() = fcl::Vector3d(p->p[0], p->p[1], p->p[2]);
}

double query(void *p, int q, const void *pa, const void *pb, int *iterations) {
    Ctx *c = static_cast<Ctx *>(p);
    const auto &ta = *static_cast<const fcl::Transform3d *>(pa);
    const auto &tb = *static_cast<const fcl::Transform3d *>(pb);
    *iterations = -1;
    if (q == BENCH_Q_INTERSECT) {
        fcl::CollisionResultd res;
        return fcl::collide(c->a.get(), ta, c->b.get(), tb, c->req_coll, res) > 0 ? 1.0 : 0.0;
    }
    fcl::DistanceResultd res;
    return fcl::distance(c->a.get(), ta, c->b.get(), tb, q == BENCH_Q_DISTANCE ? c->req_dist : c->req_pen, res);
}

} // namespace

extern "C" const bench_lib bench_lib_fcl = {"fcl", nullptr, setup, teardown, has_query, make_pose, query,
                                            FCL_VERSION " (Debian)"};
#else
extern "C" const bench_lib bench_lib_fcl = {"fcl", BENCH_FCL_MISSING, nullptr, nullptr, nullptr, nullptr, nullptr,
                                            nullptr};
#endif
