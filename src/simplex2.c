// The closest point of a 2D simplex to the origin by signed volumes: the 2D
// twin of simplex.c.
//
// Montanari, Petrinic and Barbieri (2017), in the plane. For a triangle the
// barycentric coordinates of the origin are ratios of signed areas (each
// sub-area has the origin in place of one vertex); for a segment they are
// ratios of signed lengths of the origin's projection, measured along the
// coordinate axis where the segment is longest. When every sub-area has the
// sign of the whole, the origin lies inside; otherwise only the edges
// opposite the vertices whose sub-area has the wrong sign can hold the
// closest point, and each is solved as a segment. No recursion: each
// dimension has its own function.
#include "internal2.h"

typedef gjk2_simplex_answer sv2_result;

/// 1 when both are strictly positive or both strictly negative, else 0; &
/// and | rather than && and ||, so that the compiler emits flags, not
/// branches the processor would mispredict (as in simplex.c). An int, not
/// a bool: callers combine the answers with & as well, which clang flags
/// on bool operands (-Wbitwise-instead-of-logical).
static int same_sign(gjk_real a, gjk_real b) { return ((a > 0) & (b > 0)) | ((a < 0) & (b < 0)); }

static void sv_vertex(const gjk_vec2 *p, int i, sv2_result *r) {
    r->count = 1;
    r->index[0] = i;
    r->lambda[0] = 1;
    r->point = p[i];
    r->dist2 = gjk_length_sq2(p[i]);
}

/// Segment p[i]–p[j]. Clears *range when |b − a|² leaves the normal range
/// (see sv_solve).
static void sv_1d(const gjk_vec2 *p, int i, int j, sv2_result *r, bool *range) {
    gjk_vec2 a = p[i], b = p[j];
    gjk_vec2 t = gjk_sub2(b, a);
    // Signed lengths along the axis where the segment is longest: the
    // origin's projection po = a + s t, with s = −a·t / t·t.
    gjk_real tt = gjk_length_sq2(t);
    if (!(tt >= GJK_SQUARE_MIN && tt <= GJK_SQUARE_MAX)) {
        *range = false;
    }
    if (!(tt > 0)) {
        sv_vertex(p, i, r);
        return;
    }
    gjk_vec2 po = gjk_mul_add2(a, -gjk_dot2(a, t) / tt, t);
    // ca = po_k − b_k (weight of a); cb = a_k − po_k, k the longer axis
    // (picked by selects, not by a branch).
    bool k = gjk_abs(t.y) > gjk_abs(t.x);
    gjk_real ak = k ? a.y : a.x, bk = k ? b.y : b.x, pk = k ? po.y : po.x;
    gjk_real ca = pk - bk, cb = ak - pk;
    // The whole length a_k − b_k, as the sum of the parts: the weights then
    // add up to 1 even when rounding makes the parts disagree with it.
    gjk_real mu = ca + cb;
    if (same_sign(mu, ca) & same_sign(mu, cb)) {
        r->count = 2;
        r->index[0] = i;
        r->index[1] = j;
        r->lambda[0] = ca / mu;
        r->lambda[1] = cb / mu;
        r->point = gjk_add2(gjk_scale2(r->lambda[0], a), gjk_scale2(r->lambda[1], b));
        r->dist2 = gjk_length_sq2(r->point);
    } else if (!same_sign(mu, cb)) {
        // b's weight is not positive: the projection lies beyond a.
        sv_vertex(p, i, r);
    } else {
        sv_vertex(p, j, r);
    }
}

static void keep_best(sv2_result *best, const sv2_result *r) {
    if (r->dist2 < best->dist2) {
        *best = *r;
    }
}

/// p × q, twice the signed area of the triangle (origin, p, q), with a
/// relative error of a few ε even when the two products nearly cancel. A
/// thin triangle far from the origin (two vertices close together, in
/// contact) has sub-areas far smaller than |p|·|q|: evaluated directly they
/// lose most of their digits, and the barycentric coordinates with them, so
/// that Σ λ w is no longer the origin and the witness points drift off the
/// shapes. In float the products are exact in double; in double Kahan's
/// determinant algorithm recovers the rounding error of one product with
/// fma (Jeannerod, Louvet and Muller, Math. Comp. 82, 2013).
///
/// Most sub-areas do not cancel: when the difference keeps at least half of
/// |p.x q.y| + |p.y q.x|, its two roundings and that of the products leave
/// it within 1.5 ε, as good as the fma form, which is only needed (and only
/// taken) otherwise. fma is a library call unless the build targets FMA
/// hardware, and the calls make the compiler spill every register around
/// them, so the common case goes without.
static gjk_real sub_area(gjk_vec2 p, gjk_vec2 q) {
#if GJK_USE_FLOAT
    return (gjk_real)((double)p.x * (double)q.y - (double)p.y * (double)q.x);
#else
    gjk_real w = p.y * q.x, f0 = p.x * q.y, d = f0 - w;
    if (gjk_abs(d) >= GJK_R(0.5) * (gjk_abs(f0) + gjk_abs(w))) {
        return d;
    }
    gjk_real e = fma(p.y, q.x, -w); // the rounding error of w, exactly
    gjk_real f = fma(p.x, q.y, -w);
    return f - e;
#endif
}

/// Triangle p[0], p[1], p[2]. Clears *range when its doubled area leaves
/// the normal range (see sv_solve).
static GJK_INLINE void sv_2d(const gjk_vec2 *p, sv2_result *r, bool *range) {
    gjk_vec2 a = p[0], b = p[1], c = p[2];
    // Signed areas (doubled) with the origin in place of each vertex.
    gjk_real ca = sub_area(b, c);
    gjk_real cb = sub_area(c, a);
    gjk_real cc = sub_area(a, b);
    // The whole area as the sum of the parts (not (b − a) × (c − a)): on a
    // thin triangle rounding makes the two differ, and the weights must add
    // up to 1 for the witness points to lie on the shapes.
    gjk_real mu = ca + cb + cc;
    if (!(gjk_abs(mu) >= GJK_SQUARE_MIN && gjk_abs(mu) <= GJK_SQUARE_MAX)) {
        *range = false;
    }
    // A sum below the normal range even at the points' scale (the rescaled
    // solve brings the largest coordinate near 1) is a flat triangle: every
    // edge is a candidate. All three sub-areas of a triangle 1e-310 thin
    // came out positive and 1/μ overflowed, giving infinite weights
    // (test_subnormal_triangle; the twin of sv_3d's flat tetrahedron, f58).
    const int flat = !(gjk_abs(mu) >= GJK_SQUARE_MIN);
    if ((flat == 0) & same_sign(mu, ca) & same_sign(mu, cb) & same_sign(mu, cc)) {
        gjk_real inv = 1 / mu;
        r->count = 3;
        r->index[0] = 0, r->index[1] = 1, r->index[2] = 2;
        r->lambda[0] = ca * inv, r->lambda[1] = cb * inv, r->lambda[2] = cc * inv;
        r->point = gjk_v2(0, 0);
        r->dist2 = 0;
        return;
    }
    // The closest point is on an edge opposite a vertex whose sub-area has the
    // wrong sign. An edge whose own answer lies inside it is the answer (as
    // a face in simplex.c's sv_3d): the triangle lies behind the edge's
    // line, and the origin's foot on that line, the nearest point of that
    // half-plane, is in it. That needs sure signs: when the sub-areas cancel
    // in their sum to within its rounding (no area, or a sliver), every
    // edge is a candidate and the nearest is the answer (fuzz seed 949: a
    // sliver with two vertices 4.7e-20 apart, 4.2 from the origin, whose
    // sum came out 0; its own short edge, first, gave a point 6 away, and
    // gjk2_distance answered 6).
    sv2_result e;
    r->dist2 = GJK_REAL_MAX;
    r->count = 0;
    static const int edge[3][2] = {{1, 2}, {0, 2}, {0, 1}};
    const int unsure = flat | !(gjk_abs(mu) > 8 * GJK_REAL_EPSILON * (gjk_abs(ca) + gjk_abs(cb) + gjk_abs(cc)));
    const int wrong[3] = {unsure | !same_sign(mu, ca), unsure | !same_sign(mu, cb), unsure | !same_sign(mu, cc)};
    for (int m = 0; m < 3; ++m) {
        if (wrong[m]) {
            sv_1d(p, edge[m][0], edge[m][1], &e, range);
            if (e.count == 2 && !unsure) {
                *r = e;
                return;
            }
            keep_best(r, &e);
        }
    }
    if (r->count == 0) { // only reachable with non-finite input
        sv_vertex(p, 0, r);
    }
}

static GJK_INLINE void sv_solve_unscaled(const gjk_vec2 *p, int n, sv2_result *r, bool *range) {
    switch (n) {
    case 1: sv_vertex(p, 0, r); break;
    case 2: sv_1d(p, 0, 1, r, range); break;
    default: sv_2d(p, r, range); break;
    }
}

/// The solvers' lengths and areas are squares and products of the
/// coordinates: above about √GJK_REAL_MAX they overflow (two overlapping
/// boxes of size 2^510 came out separated), below √GJK_REAL_MIN they lose
/// their digits. When one leaves [GJK_SQUARE_MIN, GJK_SQUARE_MAX] the
/// points are solved again scaled by the power of two that brings the
/// largest coordinate near 1, as in simplex.c: the weights are ratios of
/// one degree and do not change, and the point is rebuilt from them on the
/// points as given.
static GJK_NOINLINE void sv_solve_scaled(const gjk_vec2 *p, int n, sv2_result *r) {
    gjk_real m = 0;
    for (int i = 0; i < n; ++i) {
        m = gjk_max(m, gjk2_max_abs(p[i]));
    }
    if (!(m > 0) || !(m <= GJK_REAL_MAX)) {
        return;
    }
    int e;
    (void)gjk_frexp(m, &e);
    gjk_vec2 q[3];
    for (int i = 0; i < n; ++i) {
        q[i] = gjk_v2(gjk_ldexp(p[i].x, -e), gjk_ldexp(p[i].y, -e));
    }
    bool range = true;
    sv_solve_unscaled(q, n, r, &range);
    if (r->count == 3) {
        return; // the origin inside: the point 0, as solved
    }
    gjk_vec2 point = gjk_v2(0, 0);
    for (int k = 0; k < r->count; ++k) {
        point = gjk_mul_add2(point, r->lambda[k], p[r->index[k]]);
    }
    r->point = point;
    r->dist2 = gjk_length_sq2(point);
}

static void sv_solve(const gjk_vec2 *p, int n, sv2_result *r) {
    bool range = true;
    sv_solve_unscaled(p, n, r, &range);
    if (!range) {
        sv_solve_scaled(p, n, r);
    }
}

void gjk2_simplex_closest(const gjk2_simplex *s, gjk2_simplex_answer *r) {
    gjk_vec2 p[3] = {s->v[0].w, s->v[1].w, s->v[2].w}; // unused slots are only copied
    sv_solve(p, s->count, r);
}

void gjk2_simplex_keep(gjk2_simplex *s, const gjk2_simplex_answer *r) {
    // The vertices that remain, moved down in place: the indices increase,
    // so index[m] ≥ m and no vertex is overwritten before it is read.
    for (int m = 0; m < r->count; ++m) {
        if (r->index[m] != m) {
            s->v[m] = s->v[r->index[m]];
        }
        s->lambda[m] = r->lambda[m];
    }
    s->count = r->count;
}

gjk_vec2 gjk2_simplex_solve(gjk2_simplex *s) {
    sv2_result r;
    gjk2_simplex_closest(s, &r);
    gjk2_simplex_keep(s, &r);
    return r.point;
}

gjk_vec2 gjk2_segment_closest(gjk_vec2 p0, gjk_vec2 p1, gjk_real lambda[2]) {
    gjk_vec2 p[2] = {p0, p1};
    sv2_result r;
    bool range = true; // EPA's points, its only caller's, are scaled into range (epa2.c)
    sv_1d(p, 0, 1, &r, &range);
    lambda[0] = lambda[1] = 0;
    for (int m = 0; m < r.count; ++m) {
        lambda[r.index[m]] = r.lambda[m];
    }
    return r.point;
}

void gjk2_simplex_witness(const gjk2_simplex *s, gjk_vec2 *pa, gjk_vec2 *pb) {
    gjk_vec2 a = gjk_v2(0, 0), b = gjk_v2(0, 0);
    for (int m = 0; m < s->count; ++m) {
        a = gjk_mul_add2(a, s->lambda[m], s->v[m].a);
        b = gjk_mul_add2(b, s->lambda[m], s->v[m].b);
    }
    *pa = a;
    *pb = b;
}

gjk_vec2 gjk2_simplex_direction(const gjk2_simplex *s, gjk_vec2 v) {
    if (s->count == 2) {
        // The closest point is inside the segment: v is the foot of the
        // origin on its line. v = Σ λ p carries an absolute error of about
        // ε·|p|, which turns its direction by ε·|p| / |v| when |v| is small;
        // the segment's perpendicular, made of vertex differences, does not
        // depend on |v|, so it is the better search direction near contact.
        // Its side of the line is read at a vertex: n·w0 is n·v in exact
        // arithmetic (v − w0 runs along the segment), with the same
        // rounding, ε·|n|·|w|, and it does not wait for v, whose weights
        // take two divisions: the next support call starts that much
        // sooner (two 8-gons' distance 8-11% faster, the same iterations).
        gjk_vec2 n = gjk_perp2(gjk_sub2(s->v[1].w, s->v[0].w));
        gjk_real nv = gjk_dot2(n, s->v[0].w);
        if (nv != 0) {
            return nv > 0 ? n : gjk_neg2(n);
        }
    }
    return v;
}
