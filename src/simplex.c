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

// Which sub-simplex holds the answer, and along which axis a length or area
// is measured, change unpredictably from one call to the next: the tests
// below combine comparisons with & and | rather than && and ||, so that
// the compiler emits flags instead of branches the processor would
// mispredict (the axis picks are the exception, see gjk_vec3_at below).

/// Both strictly positive or both strictly negative.
static int same_sign(gjk_real a, gjk_real b) { return ((a > 0) & (b > 0)) | ((a < 0) & (b < 0)); }

/// The index (0, 1, 2 for x, y, z) of the largest of three magnitudes, the
/// first of equals (2 when ay or az is NaN; with only ax NaN, the larger of
/// y and z).
static int largest_axis(gjk_real ax, gjk_real ay, gjk_real az) {
    int x_wins = (ax >= ay) & (ax >= az);
    int y_wins = ay >= az;
    return (1 - x_wins) * (2 - y_wins);
}

// The axis picks read one component with gjk_vec3_at (internal.h), whose
// selects the compiler makes branches; reading the components from an
// array by index instead avoids them (callgrind's simulated predictor: 15.8
// against 19.0 thousand mispredictions per thousand box distance queries)
// but costs more instructions, and measured 1-6% slower on ellipsoid, box
// and small hull rows (the same on 512 vertices).

static void sv_vertex(const gjk_vec3 *p, int i, sv_result *r) {
    r->count = 1;
    r->index[0] = i;
    r->lambda[0] = 1;
    r->point = p[i];
    r->dist2 = gjk_length_sq(p[i]);
}

/// Segment p[i]–p[j].
static void sv_1d(const gjk_vec3 *p, int i, int j, sv_result *r, bool *range) {
    gjk_vec3 a = p[i], b = p[j];
    gjk_vec3 t = gjk_sub(b, a);
    // Signed lengths along the axis where the segment is longest: the
    // origin's projection po = a + s t, with s = −a·t / t·t.
    gjk_real tt = gjk_length_sq(t);
    // Quadratic, but in the length of b − a, which can exceed the walk's
    // |v| several times over: a new point across the origin from a huge
    // simplex overflowed tt (the walk stopped "converged" on its first
    // point, two overlapping boxes of size 2^510 came out separated), and
    // a tiny segment's tt underflows.
    if (!(tt >= GJK_SQUARE_MIN && tt <= GJK_SQUARE_MAX)) {
        *range = false;
    }
    if (!(tt > 0)) {
        sv_vertex(p, i, r);
        return;
    }
    gjk_vec3 po = gjk_mul_add(a, -gjk_dot(a, t) / tt, t);
    int k = largest_axis(gjk_abs(t.x), gjk_abs(t.y), gjk_abs(t.z));
    // mu = a_k − b_k; ca = po_k − b_k (weight of a); cb = a_k − po_k, the
    // components picked by selects (see gjk_vec3_at above).
    gjk_real ak = gjk_vec3_at(a, k), bk = gjk_vec3_at(b, k), pk = gjk_vec3_at(po, k);
    gjk_real mu = ak - bk, ca = pk - bk, cb = ak - pk;
    if (same_sign(mu, ca) & same_sign(mu, cb)) {
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

static void keep_best(sv_result *best, const sv_result *r) {
    if (r->dist2 < best->dist2) {
        *best = *r;
    }
}

/// Triangle p[i], p[j], p[k].
static void sv_2d(const gjk_vec3 *p, int i, int j, int k, sv_result *r, bool *range) {
    gjk_vec3 a = p[i], b = p[j], c = p[k];
    gjk_vec3 n = gjk_cross(gjk_sub(b, a), gjk_sub(c, a));
    gjk_real nn = gjk_length_sq(n);
    if (!(nn >= GJK_SQUARE_MIN && nn <= GJK_SQUARE_MAX)) {
        *range = false;
    }
    gjk_real ca = 0, cb = 0, cc = 0, mu = 0;
    if (nn > 0) {
        // Project the origin onto the plane, then measure signed areas in the
        // coordinate plane where the triangle's projection is largest. The
        // plane (u, v) is taken in cyclic order so that its 2D cross product
        // is the matching component of n, which keeps the signs consistent.
        gjk_vec3 po = gjk_scale(gjk_dot(a, n) / nn, n);
        // Drop the axis `drop`: the plane (u, v) = (drop + 1, drop + 2) mod 3, i.e. (y, z),
        // (z, x) or (x, y).
        int drop = largest_axis(gjk_abs(n.x), gjk_abs(n.y), gjk_abs(n.z));
        // The 2D cross product in the plane (u, v) is component `drop` of
        // the 3D one: all three are computed and the one wanted is read.
        gjk_vec3 xa = gjk_cross(gjk_sub(b, po), gjk_sub(c, po));
        gjk_vec3 xb = gjk_cross(gjk_sub(po, a), gjk_sub(c, a));
        gjk_vec3 xc = gjk_cross(gjk_sub(b, a), gjk_sub(po, a));
        ca = gjk_vec3_at(xa, drop);
        cb = gjk_vec3_at(xb, drop);
        cc = gjk_vec3_at(xc, drop);
        mu = ca + cb + cc;
        // A sum below the normal range even at the points' scale is flat:
        // every edge is a candidate (as in sv_3d; 1/μ could overflow).
        if ((gjk_abs(mu) >= GJK_SQUARE_MIN) & same_sign(mu, ca) & same_sign(mu, cb) & same_sign(mu, cc)) {
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
    // wrong sign. An edge whose own answer lies inside it ends the search
    // (see sv_3d), but only where the signs are sure: when the sub-areas
    // cancel in their sum to within its rounding (no area, or a sliver),
    // every edge is a candidate and the nearest is the answer. (A sliver
    // with two vertices 4.7e-20 apart, 4.2 from the origin: the sum came out
    // 0, every edge counted as wrong, and the first, the sliver's own short
    // edge, gave a point 6 away; 2D's twin made gjk2_distance answer 6 for
    // 4.24, fuzz seed 949.)
    sv_result e;
    r->dist2 = GJK_REAL_MAX;
    r->count = 0;
    const int edge[3][2] = {{j, k}, {i, k}, {i, j}};
    const int flat = !(gjk_abs(mu) >= GJK_SQUARE_MIN);
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
        sv_vertex(p, i, r);
    }
}

static gjk_real det3(gjk_vec3 a, gjk_vec3 b, gjk_vec3 c) { return gjk_dot(a, gjk_cross(b, c)); }

/// A number as the unevaluated sum hi + lo, |lo| at most half an ulp of hi:
/// twice the working precision, for the signs that plain arithmetic cannot
/// tell (Ogita, Rump and Oishi, "Accurate sum and dot product", SIAM J. Sci.
/// Comput. 26(6), 2005: TwoSum, and TwoProduct by fused multiply-add).
typedef struct sv_twofold {
    gjk_real hi, lo;
} sv_twofold;

/// a·b exactly (but for underflow): the product and its rounding error.
static sv_twofold two_product(gjk_real a, gjk_real b) {
    gjk_real p = a * b;
    return (sv_twofold){p, gjk_fma(a, b, -p)};
}

/// a + b, each twofold, to about ε² of |a| + |b|.
static sv_twofold twofold_add(sv_twofold a, sv_twofold b) {
    gjk_real s = a.hi + b.hi, t = s - a.hi;
    gjk_real e = (a.hi - (s - t)) + (b.hi - t) + (a.lo + b.lo);
    gjk_real hi = s + e;
    return (sv_twofold){hi, e - (hi - s)};
}

/// a·b for a twofold a, to about ε² of |a·b|.
static sv_twofold twofold_scale(sv_twofold a, gjk_real b) {
    sv_twofold p = two_product(a.hi, b);
    p.lo += a.lo * b;
    gjk_real hi = p.hi + p.lo;
    return (sv_twofold){hi, p.lo - (hi - p.hi)};
}

/// det[a b c] twofold: each 2×2 minor from exact products, then its
/// multiples summed. Its error is a few ε² times the permanent of the
/// magnitudes (Σ over the six terms of |a_i b_j c_k|), *perm.
static sv_twofold det3_twofold(gjk_vec3 a, gjk_vec3 b, gjk_vec3 c, gjk_real *perm) {
    sv_twofold mx = twofold_add(two_product(b.y, c.z), two_product(-b.z, c.y));
    sv_twofold my = twofold_add(two_product(b.z, c.x), two_product(-b.x, c.z));
    sv_twofold mz = twofold_add(two_product(b.x, c.y), two_product(-b.y, c.x));
    gjk_vec3 A = gjk_v3(gjk_abs(a.x), gjk_abs(a.y), gjk_abs(a.z));
    gjk_vec3 B = gjk_v3(gjk_abs(b.x), gjk_abs(b.y), gjk_abs(b.z)), C = gjk_v3(gjk_abs(c.x), gjk_abs(c.y), gjk_abs(c.z));
    *perm = A.x * (B.y * C.z + B.z * C.y) + A.y * (B.z * C.x + B.x * C.z) + A.z * (B.x * C.y + B.y * C.x);
    return twofold_add(twofold_add(twofold_scale(mx, a.x), twofold_scale(my, a.y)), twofold_scale(mz, a.z));
}

/// The tetrahedron p[0..3] holds the origin, as twice the working precision
/// tells: true with *r filled (every weight positive) when each cofactor's
/// sign is sure and that of their sum, false when any is unsure or outside.
/// Asked where plain arithmetic is unsure (sv_3d): a sliver's volume is a
/// difference of products far larger than itself, and the bound on their
/// rounding takes it for flat. A point 3.5e-10 inside a polytope 1.2 long
/// and 3e-9 thick (tolerance 7e-11) was answered "apart by 3.5e-10": the
/// tetrahedron around it came out flat, the walk went round between two of
/// its faces and stopped there (EPA review). Out of the normal range of the
/// products' errors (tiny points) nothing is sure.
static GJK_NOINLINE bool sv_3d_encloses(const gjk_vec3 *p, sv_result *r) {
    gjk_real perm[4];
    sv_twofold c[4];
    c[0] = det3_twofold(p[1], p[2], p[3], &perm[0]);
    c[1] = det3_twofold(p[0], p[2], p[3], &perm[1]);
    c[2] = det3_twofold(p[0], p[1], p[3], &perm[2]);
    c[3] = det3_twofold(p[0], p[1], p[2], &perm[3]);
    c[1].hi = -c[1].hi, c[1].lo = -c[1].lo, c[3].hi = -c[3].hi, c[3].lo = -c[3].lo;
    sv_twofold mu = twofold_add(twofold_add(c[0], c[1]), twofold_add(c[2], c[3]));
    const gjk_real e2 = 32 * GJK_REAL_EPSILON * GJK_REAL_EPSILON;
    gjk_real total = perm[0] + perm[1] + perm[2] + perm[3];
    if (!(total <= GJK_SQUARE_MAX) || !(gjk_abs(mu.hi) > e2 * total)) {
        return false;
    }
    for (int m = 0; m < 4; ++m) {
        // Each cofactor's own products in the normal range: one of tiny
        // points beside large ones (the sum of the bounds normal, its own
        // subnormal) took its sign from subnormal rounding, and a
        // tetrahedron 1e-113 from holding the origin was taken to hold it
        // (review of this function).
        if (!(e2 * perm[m] >= GJK_REAL_MIN_NORMAL / GJK_REAL_EPSILON) || !(gjk_abs(c[m].hi) > e2 * perm[m]) ||
            !same_sign(c[m].hi, mu.hi)) {
            return false;
        }
    }
    gjk_real inv = 1 / mu.hi;
    r->count = 4;
    for (int m = 0; m < 4; ++m) {
        r->index[m] = m;
        r->lambda[m] = c[m].hi * inv;
    }
    r->point = gjk_v3_zero();
    r->dist2 = 0;
    return true;
}

/// The face of a tetrahedron without vertex m, its vertices increasing.
static const int SV_FACE[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};

/// Solves the face of the tetrahedron p[0..3] without vertex m into *r:
/// true when its answer lies inside it (then it is the tetrahedron's, see
/// sv_3d), else false with *r the nearer of its answer and *r.
static bool sv_face(const gjk_vec3 *p, int m, sv_result *r, bool *range) {
    sv_result f;
    sv_2d(p, SV_FACE[m][0], SV_FACE[m][1], SV_FACE[m][2], &f, range);
    if (f.count == 3) {
        *r = f;
        return true;
    }
    keep_best(r, &f);
    return false;
}

/// Tetrahedron p[0..3].
static void sv_3d(const gjk_vec3 *p, sv_result *r, bool *range) {
    // Cofactors of the 4×4 matrix [p0 p1 p2 p3; 1 1 1 1]: the signed volume
    // with vertex j replaced by the origin. They sum to the whole volume.
    gjk_real c0 = det3(p[1], p[2], p[3]);
    gjk_real c1 = -det3(p[0], p[2], p[3]);
    gjk_real c2 = det3(p[0], p[1], p[3]);
    gjk_real c3 = -det3(p[0], p[1], p[2]);
    gjk_real mu = c0 + c1 + c2 + c3;
    if (!(gjk_abs(mu) >= GJK_SQUARE_MIN && gjk_abs(mu) <= GJK_SQUARE_MAX)) {
        *range = false;
    }
    // A volume below the normal range even at the scale of the points (the
    // scaled solve brings the largest coordinate near 1), or 0, is a flat
    // tetrahedron: its signs decide nothing, and every face is a candidate
    // (four points 1e-314 off a plane through the origin gave the weights
    // c/μ = ∞ and the witness points NaN; fuzz finding f58). So is one
    // whose volume lies within the rounding of the cofactors: two antipodal
    // pairs of a cylinder hull's rim vertices, a quadrilateral through the
    // origin, came out "inside" with weights whose points summed 0.22 from
    // the origin, and a warm distance query reported that as the shapes'
    // common point (fuzz seed 993). Each cofactor is a sum of six products
    // of one coordinate of each of its three points, M the points' largest
    // coordinates: five roundings deep, it is within γ₅·6·MᵢMⱼMₖ ≈ 15ε·MᵢMⱼMₖ
    // of its value (u = ε/2, γₙ ≈ n·u), and summing the four adds γ₃ of
    // their magnitudes, 9ε more: μ is within 24ε times the sum of those
    // four products at worst (measured on near-flat tetrahedra: 2.3ε), and
    // 32ε is the bound used (16ε before, below the worst case). (The bound 64ε·L³, L the
    // largest of all, is the same for points of one size, but a needle's
    // one far point made it 1.8e5 times too large: in float a tetrahedron
    // 2560 long and 6 wide that holds the origin came out "flat", and a
    // point 1.6 inside a needle hull "separated by 0.145": fuzz finding
    // f65.) Asked only where the signs say "inside" (+1–2% instructions on
    // the bench's distance rows where asked of every tetrahedron).
    int flat = !(gjk_abs(mu) >= GJK_SQUARE_MIN);
    if ((flat == 0) & same_sign(mu, c0) & same_sign(mu, c1) & same_sign(mu, c2) & same_sign(mu, c3)) {
        gjk_real m0 = gjk_max_abs(p[0]), m1 = gjk_max_abs(p[1]), m2 = gjk_max_abs(p[2]), m3 = gjk_max_abs(p[3]);
        gjk_real e3 = m1 * m2 * m3 + m0 * m2 * m3 + m0 * m1 * m3 + m0 * m1 * m2;
        if (gjk_abs(mu) > 32 * GJK_REAL_EPSILON * e3) {
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
        flat = 1;
    }
    // The closest point is on a face opposite a vertex whose sub-volume has
    // the wrong sign: a face that the origin sees (or whose plane holds
    // it). When such a face's own answer lies inside the face, it is the
    // answer and the other faces need no solving: the tetrahedron lies
    // behind the face's plane, the origin's foot on that plane is the point
    // of that half-space nearest to the origin, and it is a point of the
    // tetrahedron. (The same holds for an edge of a triangle, in its plane.)
    //
    // Which face first: the one whose sub-volume is the most wrong-signed
    // (c·mu the least: the origin's height outside the face's plane times
    // the face's area). It nearly always holds the answer, which the early
    // exit then takes. Only the faces with the newest point (vertex 3, as
    // gjk_simplex_try_add appends it) are ranked: the face without it is
    // the old triangle, and the new point lies on the origin's side of it
    // (after a plain step; see sv_faces_with_newest).
    // The ranking runs only when two of them are wrong-signed (common on
    // polytopes too, where it changes less). Measured with callgrind on the
    // bench's distance rows at +1e-3: ellipsoids solve 26% fewer triangles,
    // 10.6% fewer instructions a query (4-7% less time); boxes and hulls of
    // 8-32 vertices run 0.2-0.6% more instructions (time within the noise,
    // 0-3%).
    const int wrong[4] = {flat | !same_sign(mu, c0), flat | !same_sign(mu, c1), flat | !same_sign(mu, c2),
                          flat | !same_sign(mu, c3)};
    int first = -1;
    if (wrong[0] + wrong[1] + wrong[2] > 1) {
        gjk_real k0 = c0 * mu, k1 = c1 * mu, k2 = c2 * mu;
        first = k1 < k0;
        first = k2 < gjk_min(k0, k1) ? 2 : first;
        // (A product that underflows to 0 could tie a right-signed face
        // with a wrong one: only a wrong-signed face may end the search.)
        first = wrong[first] ? first : -1;
    }
    // (Asked here, where no number of the solve above is live across the
    // call: before, their spills cost 0.2-0.4% of a query's instructions.)
    if (flat && sv_3d_encloses(p, r)) {
        return;
    }
    r->dist2 = GJK_REAL_MAX;
    r->count = 0;
    if (first >= 0 && sv_face(p, first, r, range)) {
        return;
    }
    int skip = first;
    for (int m = 0; m < 4; ++m) {
        if (wrong[m] & (m != skip) && sv_face(p, m, r, range)) {
            return;
        }
    }
    if (r->count == 0) {
        sv_vertex(p, 0, r);
    }
}

/// The intermediate quantities of the solvers are powers of the
/// coordinates up to the fourth (a triangle's |n|²; the tetrahedron's
/// sub-volumes are cubic). Above GJK_REAL_MAX^(1/4) (1.2e77 in double) they
/// overflow and the answer is garbage that stays finite (a point deep inside
/// a huge box came out as "touching"); below the smallest normal number's
/// fourth root (about 1.2e-77) they lose their digits in the subnormal
/// range. Each solver clears *range when one
/// of its squared lengths, |n|² or volume leaves [GJK_SQUARE_MIN,
/// GJK_SQUARE_MAX]; the simplex is then solved again with its points scaled
/// by a power of two that brings the largest coordinate near 1. The scaling
/// is exact (but for components more than about 2^1022 below the largest,
/// which underflow, harmlessly) and the barycentric coordinates are ratios
/// of volumes (areas, lengths) of the same degree, so they do not change; ordinary coordinates pay
/// only the range tests.
static void sv_solve_unscaled(const gjk_vec3 *p, int n, sv_result *r, bool *range) {
    switch (n) {
    case 1: sv_vertex(p, 0, r); break;
    case 2: sv_1d(p, 0, 1, r, range); break;
    case 3: sv_2d(p, 0, 1, 2, r, range); break;
    default: sv_3d(p, r, range); break;
    }
}

/// Solves the n points scaled by 2^−e, 2^e the largest coordinate magnitude
/// rounded up to a power of two (m·2^−e in [1/2, 1)); the closest point and its squared distance
/// are computed again at the caller's scale. With the largest
/// magnitude 0 or not finite the answer of the unscaled solve is kept.
static GJK_NOINLINE void sv_solve_scaled(const gjk_vec3 *p, int n, sv_result *r) {
    gjk_real m = 0;
    for (int i = 0; i < n; ++i) {
        m = gjk_max(m, gjk_max_abs(p[i]));
    }
    if (!(m > 0) || !(m <= GJK_REAL_MAX)) {
        return;
    }
    int e;
    (void)gjk_frexp(m, &e);
    // Each component by ldexp, not times the factor 2^−e, which is no
    // normal number at the ends of the range: 2^−1024 for points in the top
    // binade (subnormal, read as 0 where subnormals are flushed), up to
    // 2^1073 for subnormal points (where a scale factor overflowed to
    // infinity).
    gjk_vec3 q[4];
    for (int i = 0; i < n; ++i) {
        q[i] = gjk_v3(gjk_ldexp(p[i].x, -e), gjk_ldexp(p[i].y, -e), gjk_ldexp(p[i].z, -e));
    }
    bool range = true;
    sv_solve_unscaled(q, n, r, &range);
    // The closest point from the weights on the points as given (the weights
    // do not depend on the scale): exact for a vertex, and no factor to
    // scale back by.
    if (r->count == 4) {
        return; // the origin inside: the point 0, as solved
    }
    gjk_vec3 point = gjk_v3_zero();
    for (int k = 0; k < r->count; ++k) {
        point = gjk_mul_add(point, r->lambda[k], p[r->index[k]]);
    }
    r->point = point;
    r->dist2 = gjk_length_sq(point);
}

/// Solves the simplex of the n points p without changing anything.
static void sv_solve(const gjk_vec3 *p, int n, sv_result *r) {
    bool range = true;
    sv_solve_unscaled(p, n, r, &range);
    if (!range) {
        sv_solve_scaled(p, n, r);
    }
}

/// Keeps the vertices of s that remain, in order, where vertex s->count
/// (one past the simplex) is *q when q is not NULL: a point being added is
/// copied once, straight to its place (q must not point into s->v). The
/// indices increase, so index[m] ≥ m and the moves can be done in place.
static void sv_apply(gjk_simplex *s, const sv_result *r, const gjk_support_point *q) {
    for (int m = 0; m < r->count; ++m) {
        int i = r->index[m];
        if (q != NULL && i == s->count) {
            s->v[m] = *q;
        } else if (i != m) {
            s->v[m] = s->v[i];
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
    sv_apply(s, &r, NULL);
    return r.point;
}

/// The tetrahedron p[0..3] again, when its solve *r came out no nearer than
/// the triangle p[0..2]: each face with the new point p[3] is solved as a
/// triangle, and *r becomes the nearest answer if it is nearer.
///
/// A plain step of the walk adds p[3] only when it lies beyond the
/// triangle's closest point v by more than the tolerance along the search
/// direction, so the segment from v towards p[3] enters the tetrahedron
/// nearer the origin: its closest point is nearer than v, and lies on a face
/// with p[3] (the other face is the triangle, whose answer is v). (A secant
/// step or a warm start's neighbour need not: there the answer may be no
/// nearer, and the walk checks and restores the simplex.) Near the end of a walk on a curved
/// shape, p[3] lies within about the gap of the triangle's plane and the
/// tetrahedron is nearly flat: its volume is a difference of products of
/// the coordinates far larger than itself, the signs of its sub-volumes
/// can come out wrong, and the face they pick no nearer. Four such steps in
/// a row ended the walk (gjk.c) with a gap up to 13 times the tolerance, in
/// 91 of 5020 walks between two ellipsoids at random poses. The triangles
/// are well conditioned (areas of vertex differences). Rare, so three
/// triangle solves cost little.
static void sv_faces_with_newest(const gjk_vec3 *p, sv_result *r) {
    // The faces without vertex 2, 1 and 0 (the ones with p[3]), in that
    // order. Each is solved as its own triangle (sv_solve: rescaled when out
    // of range).
    for (int m = 2; m >= 0; --m) {
        const int *face = SV_FACE[m];
        gjk_vec3 t[3] = {p[face[0]], p[face[1]], p[face[2]]};
        sv_result ft;
        sv_solve(t, 3, &ft);
        if (ft.dist2 < r->dist2) {
            // Back to the tetrahedron's indices (still increasing).
            for (int k = 0; k < ft.count; ++k) {
                ft.index[k] = face[ft.index[k]];
            }
            *r = ft;
        }
    }
}

bool gjk_simplex_try_add(gjk_simplex *s, const gjk_support_point *q, gjk_real vv, gjk_vec3 *v, gjk_simplex *farther) {
    gjk_vec3 p[4];
    for (int m = 0; m < s->count; ++m) {
        p[m] = s->v[m].w;
    }
    p[s->count] = q->w;
    sv_result r;
    sv_solve(p, s->count + 1, &r);
    if (r.dist2 >= vv) {
        if (s->count + 1 < 4) {
            return false;
        }
        sv_faces_with_newest(p, &r);
        if (farther != NULL && r.dist2 >= vv) {
            *farther = *s;
        }
    }
    sv_apply(s, &r, q);
    *v = r.point;
    return true;
}

gjk_vec3 gjk_triangle_closest(gjk_vec3 p0, gjk_vec3 p1, gjk_vec3 p2, gjk_real lambda[3]) {
    gjk_vec3 p[3] = {p0, p1, p2};
    sv_result r;
    sv_solve(p, 3, &r);
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

/// The normal (b − a) × (c − a) of a triangle, computed at its largest
/// angle (opposite its longest edge). The three cyclic forms
/// (b − a) × (c − a) = (c − b) × (a − b) = (a − c) × (b − c) are the same
/// vector; each has an error of about ε·|e1|·|e2| from its edges e1, e2,
/// against a length of |e1|·|e2|·sin θ. On a sliver 2.2 long and 5.8e-6
/// wide the form at the far vertex, two long edges, turned the normal by
/// 1e-10, which moved its plane 1e-10 at a lever of 1 (fuzz finding f34);
/// a short edge and a long one, at nearly 90°, lose nothing.
/// A needle, whose three edges are all long (its third vertex near the
/// middle of the longest edge), has no such vertex: n leans along the
/// edges by ε·|e1|·|e2|/|n|, and its plane tips by that much about an axis
/// square to them, which moves it by that angle times the edges' length
/// (2e-7 at a triangle 1.76 long and 3.2e-9 wide: fuzz/findings f68). So
/// n's part along the longest edge is taken out: n is then square to it to
/// within the rounding, and what error is left turns n about that edge,
/// which moves the plane by the angle times the distance from the edge (no
/// more than the triangle's width where the origin's foot lies inside).
/// On other triangles that changes n by its rounding only.
/// *edges2 receives |e1|²·|e2|² of the two edges used, which bounds the
/// normal's error before that: about ε·|e1|·|e2| against its length. *apex
/// (when not NULL) receives the index, 0 to 2 for a, b, c, of the vertex
/// opposite the longest edge.
static gjk_vec3 largest_angle_normal(gjk_vec3 a, gjk_vec3 b, gjk_vec3 c, gjk_real *edges2, int *apex) {
    gjk_vec3 ab = gjk_sub(b, a), bc = gjk_sub(c, b), ca = gjk_sub(a, c);
    gjk_real lab = gjk_length_sq(ab), lbc = gjk_length_sq(bc), lca = gjk_length_sq(ca);
    gjk_vec3 n, e;
    int at;
    if (lab >= lbc && lab >= lca) {
        *edges2 = lca * lbc;
        n = gjk_cross(ca, gjk_neg(bc)); // at c: (a − c) × (b − c)
        e = ab, at = 2;
    } else if (lca >= lbc) {
        *edges2 = lbc * lab;
        n = gjk_cross(bc, gjk_neg(ab)); // at b: (c − b) × (a − b)
        e = ca, at = 1;
    } else {
        *edges2 = lab * lca;
        n = gjk_cross(ab, gjk_neg(ca)); // at a: (b − a) × (c − a)
        e = bc, at = 0;
    }
    if (apex != NULL) {
        *apex = at;
    }
    // ê unit (gjk_normalize scales first: n·ê stays of n's own size at any
    // scale); no edge at all leaves n as it is.
    gjk_vec3 eh = gjk_normalize(e);
    return gjk_mul_add(n, -gjk_dot(n, eh), eh);
}

bool gjk_simplex_needle_solve(gjk_simplex *s, gjk_vec3 *v) {
    // ê along the longest edge x–y, n̂ square to it (largest_angle_normal),
    // m̂ = n̂ × ê across it in the plane. The apex z's weight is the
    // origin's offset across x–y over z's, both along m̂: lengths of the
    // size of the width, each within ε of the points' size (n̂'s own turn
    // about ê moves them by that angle times the origin's height over the
    // plane). y's weight then puts the foot where the origin's lies along
    // ê. Σ λ p is so the foot to within ε of the points' size in every
    // direction, where the signed areas, each within ε·L² against a whole
    // of L times the width w, slid it along the needle by ε·L²/w. A foot
    // outside: each edge is solved (sv_1d, whose projection along the edge
    // is as good as its points), and the nearest is the answer.
    const gjk_vec3 p[3] = {s->v[0].w, s->v[1].w, s->v[2].w};
    gjk_real edges2;
    int z;
    gjk_vec3 n = largest_angle_normal(p[0], p[1], p[2], &edges2, &z);
    int x = z == 0 ? 1 : 0, y = z == 2 ? 1 : 2;
    gjk_vec3 e = gjk_sub(p[y], p[x]), f = gjk_sub(p[z], p[x]);
    gjk_vec3 eh = gjk_normalize(e), nh = gjk_normalize(n);
    gjk_vec3 mh = gjk_cross(nh, eh);
    gjk_real elen = gjk_dot(e, eh), across = gjk_dot(f, mh), along = gjk_dot(f, eh);
    gjk_real lz = -gjk_dot(p[x], mh) / across;
    gjk_real ly = (-gjk_dot(p[x], eh) - lz * along) / elen;
    gjk_real lx = 1 - ly - lz;
    sv_result r;
    bool range = true;
    if ((lx > 0) & (ly > 0) & (lz > 0) & (lx < 1) & (ly < 1) & (lz < 1)) {
        r.count = 3;
        r.index[0] = 0, r.index[1] = 1, r.index[2] = 2;
        r.lambda[x] = lx, r.lambda[y] = ly, r.lambda[z] = lz;
        r.point = gjk_add(gjk_add(gjk_scale(r.lambda[0], p[0]), gjk_scale(r.lambda[1], p[1])),
                          gjk_scale(r.lambda[2], p[2]));
        r.dist2 = gjk_length_sq(r.point);
    } else {
        sv_result ed;
        r.dist2 = GJK_REAL_MAX;
        r.count = 0;
        const int edge[3][2] = {{1, 2}, {0, 2}, {0, 1}};
        for (int m = 0; m < 3; ++m) {
            sv_1d(p, edge[m][0], edge[m][1], &ed, &range);
            keep_best(&r, &ed);
        }
    }
    if (r.count == 0 || !range || !gjk_is_valid_vec3(r.point)) {
        return false; // (no area, out of range: the caller's answer stands)
    }
    s->count = 3;
    sv_apply(s, &r, NULL);
    *v = r.point;
    return true;
}

gjk_vec3 gjk_simplex_direction(const gjk_simplex *s, gjk_vec3 v) {
    if (s->count == 3) {
        // The closest point is inside the triangle: v is the foot of the
        // origin on its plane. v = Σ λ p carries an absolute error of about
        // ε·|p|, which turns its direction by ε·|p| / |v| when |v| is small;
        // the plane's normal, made of vertex differences, does not depend on
        // |v|, so it is the better search direction near contact.
        gjk_vec3 n = gjk_cross(gjk_sub(s->v[1].w, s->v[0].w), gjk_sub(s->v[2].w, s->v[0].w));
        gjk_real nn = gjk_length_sq(n);
        if (!(nn >= GJK_SQUARE_MIN && nn <= GJK_SQUARE_MAX)) {
            // n is quadratic in the coordinates: n·n (the walk divides by
            // |n|) and n·v overflow (n·v possibly to NaN, a wrong sign) or
            // lose their digits in the subnormal range. A unit n, normalised
            // by its largest component first, keeps both in range.
            n = gjk_normalize(n);
        }
        gjk_real nv = gjk_dot(n, v);
        if (nv != 0) {
            return nv > 0 ? n : gjk_neg(n);
        }
    }
    return v;
}

gjk_vec3 gjk_simplex_polish(const gjk_simplex *s, gjk_vec3 v) {
    if (s->count != 3) {
        return v;
    }
    gjk_vec3 a = s->v[0].w, b = s->v[1].w, c = s->v[2].w;
    gjk_real edges2;
    gjk_vec3 n = largest_angle_normal(a, b, c, &edges2, NULL);
    // The foot lies inside only when each weight is positive beyond its own
    // error, about ε·L²/|n| (L the vertices' size, |n| twice the area):
    // a foot just outside a sliver's long edge would undercut the distance.
    gjk_real L = gjk_max(gjk_max_abs(a), gjk_max(gjk_max_abs(b), gjk_max_abs(c)));
    gjk_real nlen = gjk_length(n);
    gjk_real margin = 64 * GJK_REAL_EPSILON * (L / nlen) * L;
    if (!(nlen > 0 && nlen <= GJK_REAL_MAX) || !(s->lambda[0] > margin) || !(s->lambda[1] > margin) ||
        !(s->lambda[2] > margin)) {
        return v; // (also a triangle with no area, or out of range: margin inf or NaN)
    }
    n = gjk_scale(1 / nlen, n);
    gjk_vec3 foot = gjk_scale(gjk_dot(a, n), n);
    return gjk_length_sq(foot) < gjk_length_sq(v) ? foot : v;
}

/// True when the origin and w lie on the same side of the plane of x, y, z
/// (its normal taken at its largest angle), each farther from it than the
/// error of its side: n's direction is good to about ε·(1 + |e1|·|e2|/|n|)
/// (a needle, three points nearly on a line, has no good normal at any
/// vertex: a flat tetrahedron of such points, 1e-13 thick, 0.38 from the
/// origin, was taken to enclose it), and a height h = n̂·q to that times |q|.
/// False when either side is unsure, or out of range.
static bool same_side(gjk_vec3 x, gjk_vec3 y, gjk_vec3 z, gjk_vec3 w) {
    gjk_real edges2;
    gjk_vec3 n = largest_angle_normal(x, y, z, &edges2, NULL);
    gjk_real nn = gjk_length_sq(n);
    gjk_real rel = 16 * GJK_REAL_EPSILON * (1 + gjk_sqrt(edges2 / nn)); // (NaN or inf: unsure)
    gjk_real nlen = gjk_sqrt(nn);
    gjk_vec3 wx = gjk_sub(w, x);
    gjk_real sw = gjk_dot(n, wx), so = -gjk_dot(n, x); // the plane: n·q = n·x
    if (!(gjk_abs(sw) > rel * nlen * gjk_length(wx)) || !(gjk_abs(so) > rel * nlen * gjk_length(x))) {
        return false;
    }
    return (sw > 0) == (so > 0);
}

bool gjk_simplex_encloses(const gjk_simplex *s, gjk_vec3 p) {
    if (s->count != 3) {
        return false;
    }
    gjk_vec3 a = s->v[0].w, b = s->v[1].w, c = s->v[2].w;
    return same_side(a, b, c, p) && same_side(p, a, b, c) && same_side(p, b, c, a) && same_side(p, c, a, b);
}
