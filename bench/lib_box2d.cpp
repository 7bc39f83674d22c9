// Box2D 2.4 (Debian libbox2d-dev), on the 2D workloads. Box2D computes in
// float (its b2Vec2 is float): its answers agree with gjk's to about 1e-7
// relative at best.
//   distance:    b2Distance (GJK) on two b2DistanceProxy, useRadii = true, a
//                fresh b2SimplexCache (count 0) each query, as gjk runs
//                without a cache. A polygon's proxy is its point list with
//                radius 0 (b2DistanceProxy::Set takes any count; the
//                polygon radius b2_polygonRadius, Box2D's skin, is left
//                out so that the shapes are ours); a circle is one point with
//                its radius, a capsule its segment with its radius.
//   intersect:   what b2TestOverlap does: b2Distance with the radii and
//                "distance < 10 b2_epsilon" (Box2D has no separate yes/no
//                query); called on the proxies above for the same reason.
//   penetration: Box2D has no EPA; its contact manifolds give a depth:
//                b2CollidePolygons (SAT, for polygons of up to
//                b2_maxPolygonVertices = 8, radius set to 0) and
//                b2CollideCircles, read through b2WorldManifold's
//                separations (the least of them). No manifold means
//                "separated", without a distance. Capsules: n/a (no capsule
//                shape, and no collider for rounded segments).
#include <cmath>
#include <cstdio>
#include <new>
#include <vector>

#include "bench.h"

#ifdef BENCH_HAVE_BOX2D
#include <box2d/b2_collision.h>
#include <box2d/b2_distance.h>
#include <box2d/box2d.h>

namespace {

struct Ctx {
    bench_kind kind;
    std::vector<b2Vec2> va, vb;
    b2DistanceProxy pa, pb;
    b2PolygonShape polya, polyb; // for b2CollidePolygons (n <= 8)
    b2CircleShape circa, circb;
    bool manifold_ok;
};

void proxy_of(const bench_shape *s, std::vector<b2Vec2> &v, b2DistanceProxy &p) {
    switch (s->kind) {
    case BENCH_POLY2:
        for (int i = 0; i < s->n; i++) v.emplace_back((float)s->verts[2 * i], (float)s->verts[2 * i + 1]);
        p.Set(v.data(), (int32)v.size(), 0.0f);
        break;
    case BENCH_CIRCLE:
        v.emplace_back(0.0f, 0.0f);
        p.Set(v.data(), 1, (float)s->radius);
        break;
    default: // BENCH_CAPSULE2
        v.emplace_back((float)-s->half_len, 0.0f);
        v.emplace_back((float)s->half_len, 0.0f);
        p.Set(v.data(), 2, (float)s->radius);
        break;
    }
}

void *setup(const bench_shape *a, const bench_shape *b, char *why, size_t n) {
    if (bench_kind_dim(a->kind) != 2) {
        std::snprintf(why, n, "a 2D library");
        return nullptr;
    }
    auto *c = new Ctx;
    c->kind = a->kind;
    // The proxies point into the vectors: fill them first, then Set.
    c->va.reserve(a->kind == BENCH_POLY2 ? (size_t)a->n : 2);
    c->vb.reserve(b->kind == BENCH_POLY2 ? (size_t)b->n : 2);
    proxy_of(a, c->va, c->pa);
    proxy_of(b, c->vb, c->pb);
    c->manifold_ok = false;
    if (a->kind == BENCH_POLY2 && a->n <= b2_maxPolygonVertices && b->n <= b2_maxPolygonVertices) {
        c->polya.Set(c->va.data(), (int32)c->va.size());
        c->polyb.Set(c->vb.data(), (int32)c->vb.size());
        // b2PolygonShape::Set keeps the hull; every point here is a hull vertex.
        c->manifold_ok = c->polya.m_count == a->n && c->polyb.m_count == b->n;
        c->polya.m_radius = 0.0f;
        c->polyb.m_radius = 0.0f;
    } else if (a->kind == BENCH_CIRCLE) {
        c->circa.m_radius = (float)a->radius;
        c->circb.m_radius = (float)b->radius;
        c->circa.m_p.SetZero();
        c->circb.m_p.SetZero();
        c->manifold_ok = true;
    }
    return c;
}

void teardown(void *p) { delete static_cast<Ctx *>(p); }

int has_query(void *p, int q, char *why, size_t n) {
    Ctx *c = static_cast<Ctx *>(p);
    if (q == BENCH_Q_PENETRATION && !c->manifold_ok) {
        if (c->kind == BENCH_POLY2)
            std::snprintf(why, n, "b2CollidePolygons takes b2PolygonShape: at most %d vertices", b2_maxPolygonVertices);
        else
            std::snprintf(why, n, "no capsule shape and no collider for rounded segments in Box2D 2.4");
        return 0;
    }
    return 1;
}

static_assert(sizeof(b2Transform) <= BENCH_POSE_BYTES, "pose blob too small");

void make_pose(void *, int, const bench_pose *p, void *out) {
    auto *t = new (out) b2Transform;
    t->p.Set((float)p->p[0], (float)p->p[1]);
    t->q.c = (float)p->R[0];
    t->q.s = (float)p->R[3];
}

double distance(Ctx *c, const b2Transform &ta, const b2Transform &tb, int *iterations) {
    b2DistanceInput in;
    in.proxyA = c->pa;
    in.proxyB = c->pb;
    in.transformA = ta;
    in.transformB = tb;
    in.useRadii = true;
    b2SimplexCache cache;
    cache.count = 0;
    b2DistanceOutput out;
    b2Distance(&out, &cache, &in);
    *iterations = out.iterations;
    return out.distance;
}

double query(void *p, int q, const void *pa, const void *pb, int *iterations) {
    Ctx *c = static_cast<Ctx *>(p);
    const auto &ta = *static_cast<const b2Transform *>(pa);
    const auto &tb = *static_cast<const b2Transform *>(pb);
    *iterations = -1;
    if (q == BENCH_Q_DISTANCE) return distance(c, ta, tb, iterations);
    if (q == BENCH_Q_INTERSECT) return distance(c, ta, tb, iterations) < 10.0f * b2_epsilon ? 1.0 : 0.0;
    b2Manifold m;
    float ra, rb;
    if (c->kind == BENCH_CIRCLE) {
        b2CollideCircles(&m, &c->circa, ta, &c->circb, tb);
        ra = c->circa.m_radius;
        rb = c->circb.m_radius;
    } else {
        b2CollidePolygons(&m, &c->polya, ta, &c->polyb, tb);
        ra = rb = 0.0f;
    }
    if (m.pointCount == 0) return INFINITY;
    b2WorldManifold wm;
    wm.Initialize(&m, ta, ra, tb, rb);
    float s = wm.separations[0];
    for (int i = 1; i < m.pointCount; i++) s = std::fmin(s, wm.separations[i]);
    return s;
}

} // namespace

extern "C" const bench_lib bench_lib_box2d = {"box2d", nullptr, setup, teardown, has_query, make_pose, query,
                                              BENCH_BOX2D_VERSION, BENCH_DIM2};
#else
extern "C" const bench_lib bench_lib_box2d = {"box2d", BENCH_BOX2D_MISSING, nullptr, nullptr, nullptr, nullptr, nullptr,
                                              nullptr, BENCH_DIM2};
#endif
