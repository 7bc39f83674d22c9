// The closest point of a simplex to the origin by signed volumes.
//
// Montanari, Petrinic and Barbieri, "Improving the GJK algorithm for faster
// and more reliable distance queries between convex objects", ACM TOG 36(4),
// 2017. For a tetrahedron, triangle or segment the barycentric coordinates of
// the origin (or of its projection onto the simplex's affine hull) are ratios
// of signed volumes, areas or lengths. When every sub-volume has the sign of
// the whole, the origin's projection lies inside and those ratios are the
// answer; otherwise only the faces (edges, vertices) opposite the vertices
// whose sub-volume has the wrong sign can hold the closest point, and each is
// solved in one dimension less. Areas are measured in the coordinate plane
// onto which the triangle projects largest, which avoids the cancellation of
// the classic dot-product (Johnson) formulas on thin simplices. There is no
// recursion: each dimension has its own function.
#include "internal.h"

/// A sub-simplex answer: which input vertices remain, their weights, the
/// closest point and its squared distance to the origin.
typedef struct sv_result {
    int count;
    int index[4];
    gjk_real lambda[4];
    gjk_vec3 point;
    gjk_real dist2;
} sv_result;

static bool same_sign(gjk_real a, gjk_real b) { return (a > 0 && b > 0) || (a < 0 && b < 0); }

static void sv_vertex(const gjk_vec3 *p, int i, sv_result *r) {
    r->count = 1;
    r->index[0] = i;
    r->lambda[0] = 1;
    r->point = p[i];
    r->dist2 = gjk_length_sq(p[i]);
}

/// Segment p[i]–p[j].
static void sv_1d(const gjk_vec3 *p, int i, int j, sv_result *r) {
    gjk_vec3 a = p[i], b = p[j];
    gjk_vec3 t = gjk_sub(b, a);
    // Signed lengths along the axis where the segment is longest: the
    // origin's projection po = a + s t, with s = −a·t / t·t.
    gjk_real tt = gjk_length_sq(t);
    if (!(tt > 0)) {
        sv_vertex(p, i, r);
        return;
    }
    gjk_vec3 po = gjk_mul_add(a, -gjk_dot(a, t) / tt, t);
    gjk_real ax = gjk_abs(t.x), ay = gjk_abs(t.y), az = gjk_abs(t.z);
    gjk_real mu, ca, cb; // mu = a_k − b_k; ca = po_k − b_k (weight of a); cb = a_k − po_k
    if (ax >= ay && ax >= az) {
        mu = a.x - b.x, ca = po.x - b.x, cb = a.x - po.x;
    } else if (ay >= az) {
        mu = a.y - b.y, ca = po.y - b.y, cb = a.y - po.y;
    } else {
        mu = a.z - b.z, ca = po.z - b.z, cb = a.z - po.z;
    }
    if (same_sign(mu, ca) && same_sign(mu, cb)) {
        r->count = 2;
        r->index[0] = i;
        r->index[1] = j;
        r->lambda[0] = ca / mu;
        r->lambda[1] = cb / mu;
        r->point = gjk_add(gjk_scale(r->lambda[0], a), gjk_scale(r->lambda[1], b));
        r->dist2 = gjk_length_sq(r->point);
    } else if (!same_sign(mu, cb)) {
        // b's weight is not positive: the projection lies beyond a.
        sv_vertex(p, i, r);
    } else {
        sv_vertex(p, j, r);
    }
}

/// 2D cross product of (b − a) and (c − a) in the coordinate plane (u, v).
static gjk_real area2(gjk_real au, gjk_real av, gjk_real bu, gjk_real bv, gjk_real cu, gjk_real cv) {
    return (bu - au) * (cv - av) - (bv - av) * (cu - au);
}

static void keep_best(sv_result *best, const sv_result *r) {
    if (r->dist2 < best->dist2) {
        *best = *r;
    }
}

/// Triangle p[i], p[j], p[k].
static void sv_2d(const gjk_vec3 *p, int i, int j, int k, sv_result *r) {
    gjk_vec3 a = p[i], b = p[j], c = p[k];
    gjk_vec3 n = gjk_cross(gjk_sub(b, a), gjk_sub(c, a));
    gjk_real nn = gjk_length_sq(n);
    gjk_real ca = 0, cb = 0, cc = 0, mu = 0;
    if (nn > 0) {
        // Project the origin onto the plane, then measure signed areas in the
        // coordinate plane where the triangle's projection is largest. The
        // plane (u, v) is taken in cyclic order so that its 2D cross product
        // is the matching component of n, which keeps the signs consistent.
        gjk_vec3 po = gjk_scale(gjk_dot(a, n) / nn, n);
        gjk_real nx = gjk_abs(n.x), ny = gjk_abs(n.y), nz = gjk_abs(n.z);
        if (nx >= ny && nx >= nz) { // drop x: plane (y, z)
            ca = area2(po.y, po.z, b.y, b.z, c.y, c.z);
            cb = area2(a.y, a.z, po.y, po.z, c.y, c.z);
            cc = area2(a.y, a.z, b.y, b.z, po.y, po.z);
        } else if (ny >= nz) { // drop y: plane (z, x)
            ca = area2(po.z, po.x, b.z, b.x, c.z, c.x);
            cb = area2(a.z, a.x, po.z, po.x, c.z, c.x);
            cc = area2(a.z, a.x, b.z, b.x, po.z, po.x);
        } else { // drop z: plane (x, y)
            ca = area2(po.x, po.y, b.x, b.y, c.x, c.y);
            cb = area2(a.x, a.y, po.x, po.y, c.x, c.y);
            cc = area2(a.x, a.y, b.x, b.y, po.x, po.y);
        }
        mu = ca + cb + cc;
        if (same_sign(mu, ca) && same_sign(mu, cb) && same_sign(mu, cc)) {
            gjk_real inv = 1 / mu;
            r->count = 3;
            r->index[0] = i, r->index[1] = j, r->index[2] = k;
            r->lambda[0] = ca * inv, r->lambda[1] = cb * inv, r->lambda[2] = cc * inv;
            r->point = gjk_add(gjk_add(gjk_scale(r->lambda[0], a), gjk_scale(r->lambda[1], b)),
                               gjk_scale(r->lambda[2], c));
            r->dist2 = gjk_length_sq(r->point);
            return;
        }
    }
    // The closest point is on an edge opposite a vertex whose sub-area has the
    // wrong sign (all three edges for a degenerate triangle).
    sv_result e;
    r->dist2 = GJK_REAL_MAX;
    r->count = 0;
    if (!same_sign(mu, ca)) {
        sv_1d(p, j, k, &e);
        keep_best(r, &e);
    }
    if (!same_sign(mu, cb)) {
        sv_1d(p, i, k, &e);
        keep_best(r, &e);
    }
    if (!same_sign(mu, cc)) {
        sv_1d(p, i, j, &e);
        keep_best(r, &e);
    }
    if (r->count == 0) { // only reachable with non-finite input
        sv_vertex(p, i, r);
    }
}

static gjk_real det3(gjk_vec3 a, gjk_vec3 b, gjk_vec3 c) { return gjk_dot(a, gjk_cross(b, c)); }

/// Tetrahedron p[0..3].
static void sv_3d(const gjk_vec3 *p, sv_result *r) {
    // Cofactors of the 4×4 matrix [p0 p1 p2 p3; 1 1 1 1]: the signed volume
    // with vertex j replaced by the origin. They sum to the whole volume.
    gjk_real c0 = det3(p[1], p[2], p[3]);
    gjk_real c1 = -det3(p[0], p[2], p[3]);
    gjk_real c2 = det3(p[0], p[1], p[3]);
    gjk_real c3 = -det3(p[0], p[1], p[2]);
    gjk_real mu = c0 + c1 + c2 + c3;
    if (same_sign(mu, c0) && same_sign(mu, c1) && same_sign(mu, c2) && same_sign(mu, c3)) {
        gjk_real inv = 1 / mu;
        r->count = 4;
        for (int m = 0; m < 4; ++m) {
            r->index[m] = m;
        }
        r->lambda[0] = c0 * inv, r->lambda[1] = c1 * inv, r->lambda[2] = c2 * inv, r->lambda[3] = c3 * inv;
        r->point = gjk_v3_zero();
        r->dist2 = 0;
        return;
    }
    sv_result f;
    r->dist2 = GJK_REAL_MAX;
    r->count = 0;
    if (!same_sign(mu, c0)) {
        sv_2d(p, 1, 2, 3, &f);
        keep_best(r, &f);
    }
    if (!same_sign(mu, c1)) {
        sv_2d(p, 0, 2, 3, &f);
        keep_best(r, &f);
    }
    if (!same_sign(mu, c2)) {
        sv_2d(p, 0, 1, 3, &f);
        keep_best(r, &f);
    }
    if (!same_sign(mu, c3)) {
        sv_2d(p, 0, 1, 2, &f);
        keep_best(r, &f);
    }
    if (r->count == 0) {
        sv_vertex(p, 0, r);
    }
}

/// Solves the simplex of the n points p without changing anything.
static void sv_solve(const gjk_vec3 *p, int n, sv_result *r) {
    switch (n) {
    case 1: sv_vertex(p, 0, r); break;
    case 2: sv_1d(p, 0, 1, r); break;
    case 3: sv_2d(p, 0, 1, 2, r); break;
    default: sv_3d(p, r); break;
    }
}

/// Keeps the vertices of s that remain, in order. The indices increase, so
/// index[m] ≥ m and the moves can be done in place.
static void sv_apply(gjk_simplex *s, const sv_result *r) {
    for (int m = 0; m < r->count; ++m) {
        if (r->index[m] != m) {
            s->v[m] = s->v[r->index[m]];
        }
        s->lambda[m] = r->lambda[m];
    }
    s->count = r->count;
}

gjk_vec3 gjk_simplex_solve(gjk_simplex *s) {
    gjk_vec3 p[4];
    for (int m = 0; m < s->count; ++m) {
        p[m] = s->v[m].w;
    }
    sv_result r;
    sv_solve(p, s->count, &r);
    sv_apply(s, &r);
    return r.point;
}

bool gjk_simplex_try_add(gjk_simplex *s, const gjk_support_point *q, gjk_real vv, gjk_vec3 *v) {
    gjk_vec3 p[4];
    for (int m = 0; m < s->count; ++m) {
        p[m] = s->v[m].w;
    }
    p[s->count] = q->w;
    sv_result r;
    sv_solve(p, s->count + 1, &r);
    if (s->count + 1 < 4 && r.dist2 >= vv) {
        return false;
    }
    s->v[s->count++] = *q;
    sv_apply(s, &r);
    *v = r.point;
    return true;
}

gjk_vec3 gjk_triangle_closest(gjk_vec3 p0, gjk_vec3 p1, gjk_vec3 p2, gjk_real lambda[3]) {
    gjk_vec3 p[3] = {p0, p1, p2};
    sv_result r;
    sv_2d(p, 0, 1, 2, &r);
    lambda[0] = lambda[1] = lambda[2] = 0;
    for (int m = 0; m < r.count; ++m) {
        lambda[r.index[m]] = r.lambda[m];
    }
    return r.point;
}

void gjk_simplex_witness(const gjk_simplex *s, gjk_vec3 *pa, gjk_vec3 *pb) {
    gjk_vec3 a = gjk_v3_zero(), b = gjk_v3_zero();
    for (int m = 0; m < s->count; ++m) {
        a = gjk_mul_add(a, s->lambda[m], s->v[m].a);
        b = gjk_mul_add(b, s->lambda[m], s->v[m].b);
    }
    *pa = a;
    *pb = b;
}

gjk_vec3 gjk_simplex_direction(const gjk_simplex *s, gjk_vec3 v) {
    if (s->count == 3) {
        // The closest point is inside the triangle: v is the foot of the
        // origin on its plane. v = Σ λ p carries an absolute error of about
        // ε·|p|, which turns its direction by ε·|p| / |v| when |v| is small;
        // the plane's normal, made of vertex differences, does not depend on
        // |v|, so it is the better search direction near contact.
        gjk_vec3 n = gjk_cross(gjk_sub(s->v[1].w, s->v[0].w), gjk_sub(s->v[2].w, s->v[0].w));
        gjk_real nv = gjk_dot(n, v);
        if (nv != 0) {
            return nv > 0 ? n : gjk_neg(n);
        }
    }
    return v;
}
