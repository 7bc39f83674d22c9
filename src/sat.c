// Box against box by separating axes: gjk_intersect's status, and
// gjk_penetration's and gjk_distance's signed distance, normal and witness
// points, without GJK or EPA when the answer is clear.
//
// Two convex polyhedra are disjoint exactly when some face normal of either,
// or some cross product of an edge of one with an edge of the other,
// separates them; for two boxes that is 3 + 3 + 9 axes (Gottschalk, Lin and
// Manocha, "OBBTree", SIGGRAPH 1996; Ericson §4.4.1). Along a unit axis L the
// boxes' projections are apart by
//     s(L) = |t·L| − r_A(L) − r_B(L),   r(L) = Σ h_k |e_k·L|,
// t the offset of the centres and e_k, h_k each box's axes and half extents.
// The 15 axes are the face normals of the Minkowski difference D = A − B, so
//     max over the axes of s = the signed distance of the cores when they
//     overlap (−depth), and a lower bound on their distance when apart
// (the distance of separated boxes may be reached along no axis: corner to
// corner). In A's frame, with R = B's rotation (R_ij = e_i^A · e_j^B):
//     face of A, axis i:  s = |t_i| − a_i − Σ_j b_j |R_ij|
//     face of B, axis j:  s = |t·R_j| − Σ_i a_i |R_ij| − b_j
//     edges i × j, (i, k, l) and (j, m, n) cyclic: L = R_kj e_l − R_lj e_k,
//         |L|² = R_kj² + R_lj², t·L = R_kj t_l − R_lj t_k,
//         r_A = a_k |R_lj| + a_l |R_kj|,  r_B = b_m |R_in| + b_n |R_im|
// (the last from L·e_m^B = e_i·(e_j^B × e_m^B) = R_in, B's axes being a
// right-handed orthonormal frame).
//
// Rounding: a face axis is exact to about ε times the scale; an edge axis
// with |L| small is ε/|L| off in direction, so an axis with |L| below
// min_len (chosen so that ε/|L| × scale stays under half the tolerance the
// caller allows) is left out. Leaving axes out can only lower the maximum:
// "apart" stays proved; "overlapping" is then not claimed unless every axis
// left out is degenerate (|L| = 0: parallel edges, which make no face of D;
// or |L| at the rounding of the rotation matrix, which is the same pose
// within the rounding of its input).
#include "internal.h"

/// The separations of the 15 axes, in A's frame.
typedef struct box_axes {
    gjk_real a[3], b[3], t[3]; ///< Half extents of A and B; B's centre.
    gjk_real R[3][3];          ///< R[i][j] = e_i^A · e_j^B.
    gjk_real AR[3][3];         ///< |R[i][j]|.
    /// Separations: 0-2 A's faces, 3-5 B's, 6 + 3i + j the edges
    /// e_i^A × e_j^B (−MAX for one left out).
    gjk_real sep[15];
    bool flat; ///< A half extent is zero: some axes make no facet of D.
    /// Each box has a zero half extent: D may be flat (two plates in one
    /// plane, a segment in a plate's plane), and then the normals in its
    /// plane, which the facet axes leave out, are what separate it.
    bool both_flat;
} box_axes;

/// The face axes of both boxes; returns the largest separation.
static GJK_INLINE gjk_real box_faces(const gjk_pair *p, box_axes *x) {
    const gjk_vec3 ha = p->a->box.half_extents, hb = p->b->box.half_extents;
    // The columns are read where the pair holds them: copied to a local
    // array first, they went out through integer registers in 8-byte
    // stores that 16-byte loads then read back, a store-forwarding stall
    // (6.6% of two boxes' distance query in a cpu-clock profile).
    const gjk_vec3 *col[3] = {&p->rot_b.cx, &p->rot_b.cy, &p->rot_b.cz};
    x->a[0] = ha.x, x->a[1] = ha.y, x->a[2] = ha.z;
    x->b[0] = hb.x, x->b[1] = hb.y, x->b[2] = hb.z;
    x->t[0] = p->pos_b.x, x->t[1] = p->pos_b.y, x->t[2] = p->pos_b.z;
    for (int j = 0; j < 3; ++j) {
        const gjk_real c[3] = {col[j]->x, col[j]->y, col[j]->z};
        for (int i = 0; i < 3; ++i) {
            x->R[i][j] = c[i];
            x->AR[i][j] = gjk_abs(c[i]);
        }
    }
    const gjk_real *a = x->a, *b = x->b, *t = x->t;
    gjk_real face = -GJK_REAL_MAX;
    for (int i = 0; i < 3; ++i) {
        gjk_real s = gjk_abs(t[i]) - a[i] - (b[0] * x->AR[i][0] + b[1] * x->AR[i][1] + b[2] * x->AR[i][2]);
        x->sep[i] = s;
        face = gjk_max(s, face);
    }
    for (int j = 0; j < 3; ++j) {
        gjk_real tl = t[0] * x->R[0][j] + t[1] * x->R[1][j] + t[2] * x->R[2][j];
        gjk_real s = gjk_abs(tl) - (a[0] * x->AR[0][j] + a[1] * x->AR[1][j] + a[2] * x->AR[2][j]) - b[j];
        x->sep[3 + j] = s;
        face = gjk_max(s, face);
    }
    bool a_full = (a[0] > 0) & (a[1] > 0) & (a[2] > 0), b_full = (b[0] > 0) & (b[1] > 0) & (b[2] > 0);
    x->flat = !(a_full & b_full);
    x->both_flat = !(a_full | b_full);
    if (x->flat) {
        // A face with no area (a half extent across it zero: a plate's rim,
        // a segment's sides) makes no facet of D: its axis is left out.
        face = -GJK_REAL_MAX;
        for (int i = 0; i < 3; ++i) {
            x->sep[i] = a[(i + 1) % 3] > 0 && a[(i + 2) % 3] > 0 ? x->sep[i] : -GJK_REAL_MAX;
            x->sep[3 + i] = b[(i + 1) % 3] > 0 && b[(i + 2) % 3] > 0 ? x->sep[3 + i] : -GJK_REAL_MAX;
            face = gjk_max(face, gjk_max(x->sep[i], x->sep[3 + i]));
        }
    }
    return face;
}

/// The edge axis e_i^A × e_j^B into x->sep (−MAX when left out, or when it
/// cannot beat `face`, the face axes' best); returns its separation.
/// Called with constant i and j, so that the indices fold.
static GJK_INLINE gjk_real edge_axis(box_axes *x, const int i, const int j, gjk_real min_len2, gjk_real face,
                                      const bool flat, bool *left_out) {
    const int k = (i + 1) % 3, l = (i + 2) % 3, m = (j + 1) % 3, n = (j + 2) % 3;
    const gjk_real *a = x->a, *b = x->b, *t = x->t;
    gjk_real len2 = x->R[k][j] * x->R[k][j] + x->R[l][j] * x->R[l][j];
    gjk_real s = -GJK_REAL_MAX;
    if (flat && !(a[i] > 0 && b[j] > 0)) {
        // No edge along e_i^A or e_j^B (a zero half extent): no facet of D.
    } else if (len2 >= min_len2) {
        gjk_real tl = x->R[k][j] * t[l] - x->R[l][j] * t[k];
        gjk_real ra = a[k] * x->AR[l][j] + a[l] * x->AR[k][j];
        gjk_real rb = b[m] * x->AR[i][n] + b[n] * x->AR[i][m];
        // s = raw / |L| matters only above the face axes' best: with
        // |L| ≤ 1, raw ≤ face·|L|² (face ≥ 0) or raw ≤ face (face < 0)
        // puts s at or below face, and the square root and the division
        // (the axes' slowest steps) are skipped.
        gjk_real raw = gjk_abs(tl) - ra - rb;
        if (raw > gjk_min(face, face * len2)) {
            s = raw / gjk_sqrt(len2);
        }
    } else {
        *left_out = *left_out || gjk_sat_left_out(len2);
    }
    x->sep[6 + 3 * i + j] = s;
    return s;
}

/// box_edges with `flat` a constant.
static GJK_INLINE gjk_real box_edges_of(box_axes *x, gjk_real m2, gjk_real f, const bool flat, bool *left_out) {
    bool out = false;
    gjk_real e0 = gjk_max(edge_axis(x, 0, 0, m2, f, flat, &out),
                          gjk_max(edge_axis(x, 0, 1, m2, f, flat, &out), edge_axis(x, 0, 2, m2, f, flat, &out)));
    gjk_real e1 = gjk_max(edge_axis(x, 1, 0, m2, f, flat, &out),
                          gjk_max(edge_axis(x, 1, 1, m2, f, flat, &out), edge_axis(x, 1, 2, m2, f, flat, &out)));
    gjk_real e2 = gjk_max(edge_axis(x, 2, 0, m2, f, flat, &out),
                          gjk_max(edge_axis(x, 2, 1, m2, f, flat, &out), edge_axis(x, 2, 2, m2, f, flat, &out)));
    *left_out = out;
    return gjk_max(e0, gjk_max(e1, e2));
}

/// The edge axes whose |L| is at least min_len; returns the largest
/// separation (−MAX when none is kept). *left_out: a nearly (not exactly)
/// degenerate axis was left out. Boxes without a zero half extent (the
/// common case) take a copy with no test for one.
static GJK_INLINE gjk_real box_edges(box_axes *x, gjk_real min_len, gjk_real face, bool *left_out) {
    gjk_real m2 = min_len * min_len;
    return x->flat ? box_edges_of(x, m2, face, true, left_out) : box_edges_of(x, m2, face, false, left_out);
}

/// True when no separation can overflow: the centre offset and the half
/// extents (p->scale bounds them) at most GJK_REAL_MAX/8 × min(min_len, 1),
/// which leaves room for the sums of five of them and the division by
/// |L| ≥ min_len. Beyond, GJK answers (with its own overflow checks).
static GJK_INLINE bool in_range(const gjk_pair *p, gjk_real min_len) {
    return gjk_max(gjk_max_abs(p->pos_b), p->scale) <= GJK_REAL_MAX / 8 * gjk_min(min_len, 1);
}

bool gjk_box_box_decide(const gjk_pair *p, gjk_real band, gjk_status *status) {
    gjk_real min_len = gjk_sat_min_edge_len(p);
    if (!in_range(p, min_len)) {
        return false;
    }
    box_axes x;
    gjk_real radius = p->radius, best = box_faces(p, &x);
    if (best - radius > band) {
        *status = GJK_SEPARATED; // a face axis separates: no need for the edges
        return true;
    }
    // band is 8 tolerances: the edges' rounding stays well under band / 2.
    bool left_out;
    best = gjk_max(best, box_edges(&x, min_len, best, &left_out));
    if (best - radius > band) {
        *status = GJK_SEPARATED;
        return true;
    }
    if (!(best > -GJK_REAL_MAX)) {
        return false; // no axis at all (two points, a point and a segment): GJK's
    }
    // Overlap is claimed only when D is solid (a box with no zero half
    // extent on either side): two coplanar plates far apart have only
    // their shared normal left, with a separation of 0 ± rounding (review
    // finding: a rounded plate and a capsule 3.8 apart in its plane were
    // called penetrating).
    if (!left_out && !x.both_flat && best < 0 && best - radius < -band) {
        *status = GJK_PENETRATING; // best is −(the depth of the cores)
        return true;
    }
    return false; // too close to call here: GJK decides
}

// ---- Signed distance ---------------------------------------------------
//
// When no axis separates the cores and none was left out, the largest
// separation is exactly −(the depth of the cores), reached along its axis n
// (from A to B): the facet of D nearest to the origin (D contains the
// origin; every other facet's plane is at least as far, so the foot of the
// perpendicular, depth·n, lies on that facet). The witness points are a
// pair p_A − p_B = depth·n with p_A in A's supporting feature along n and
// p_B in B's along −n, both planar and normal to n:
//  - face axis: the reference box's face against the other box's
//    supporting vertex, edge or face (the incident feature). Any point of
//    the incident feature whose projection falls inside the reference face
//    gives a pair; the one taken is the mean of the incident feature
//    clipped by the face's four side planes (Sutherland–Hodgman), so that
//    a stacked box reports the middle of its contact patch, not a corner.
//  - edge axis: the closest points of the two supporting edges' lines
//    (Ericson §5.1.8), inside both edges when the axis is the nearest.
// Ties make a feature larger than the exact one: an incident axis whose
// half extent times |e·n| is at most an eighth of the tolerance is taken as
// flat (never the axis nearest n), and a face axis is kept unless an edge
// axis is better by a quarter of the tolerance (an edge nearly along a face
// normal has ill-defined supporting edges); the tolerance here is at least
// 64ε of the pair's size. Both move the answer by less than the tolerance.
// When rounding empties the clipped feature, the general path answers.
//
// When the cores are apart the largest separation s is only a lower bound
// on their distance: the nearest points of two boxes may be two corners, or
// a corner and an edge, and the direction between them is then none of the
// 15 axes. The same witness construction proves the rest: when it finds a
// point of A and a point of B s·n apart (within the tolerance), the
// distance is at most |p_B − p_A|, so it is s. That holds when D's point
// nearest the origin lies on a facet (a face against a vertex, edge or
// face; two crossing edges), which is the common case; on D's edges and
// vertices the clip comes out empty or the edges' closest points leave
// the edges, and GJK answers.

/// The first of x[from..to) that is largest.
static int largest(const gjk_real *x, int from, int to) {
    int best = from;
    for (int e = from + 1; e < to; ++e) {
        best = x[e] > x[best] ? e : best;
    }
    return best;
}

/// Most points of the clipped incident feature: four to start, one more per
/// side plane at most.
#define BOX_CLIP_MAX 12

/// Clips the convex polygon v[0..n) (n ≤ 8) to x·u ≤ w,
/// x·u being coordinate k, times s: returns the new count.
static int clip_side(gjk_vec3 *v, int n, int k, gjk_real s, gjk_real w) {
    gjk_vec3 out[BOX_CLIP_MAX];
    int m = 0;
    for (int c = 0; c < n; ++c) {
        gjk_vec3 p = v[c == 0 ? n - 1 : c - 1], q = v[c];
        gjk_real dp = s * gjk_vec3_at(p, k) - w, dq = s * gjk_vec3_at(q, k) - w;
        if ((dp <= 0) != (dq <= 0) && m < BOX_CLIP_MAX) {
            // The crossing, dp and dq of opposite signs: |dp − dq| > 0.
            out[m++] = gjk_add(p, gjk_scale(dp / (dp - dq), gjk_sub(q, p)));
        }
        if (dq <= 0 && m < BOX_CLIP_MAX) {
            out[m++] = q;
        }
    }
    for (int c = 0; c < m; ++c) {
        v[c] = out[c];
    }
    return m;
}

/// The witness pair of a face axis, in the reference box's frame: its face
/// on side s (±1) of axis k, against the incident box (centre c, unit axes
/// e, half extents g). *on_ref lies on the face, *on_inc on the incident
/// box's feature; false when the clipped feature is empty.
static bool face_witness(const gjk_real h[3], int k, gjk_real s, gjk_vec3 c, const gjk_vec3 e[3], const gjk_real g[3],
                         gjk_real tol, gjk_vec3 *on_ref, gjk_vec3 *on_inc) {
    // The incident feature along −n, n = s·e_k: its centre and up to two
    // free axes, those along which the box rises by at most tol / 8, but
    // never the axis nearest n (all three rise that little on a tiny box).
    gjk_real dm[3], slope[3];
    for (int m = 0; m < 3; ++m) {
        dm[m] = s * gjk_vec3_at(e[m], k); // e_m · n
        slope[m] = gjk_abs(dm[m]);
    }
    int steepest = largest(slope, 0, 3);
    gjk_vec3 f = c, free_axis[2];
    int nfree = 0;
    for (int m = 0; m < 3; ++m) {
        if (g[m] * slope[m] <= tol / 8 && m != steepest) {
            free_axis[nfree++] = gjk_scale(g[m], e[m]);
        } else {
            f = gjk_mul_add(f, gjk_copysign(g[m], 0 - dm[m]), e[m]); // −g where e_m·n > 0, else +g
        }
    }
    gjk_vec3 v[BOX_CLIP_MAX];
    int n;
    if (nfree == 0) {
        // A corner (the common case): inside the widened face or not.
        for (int q = 0; q < 3; ++q) {
            if (q != k && !(gjk_abs(gjk_vec3_at(f, q)) <= h[q] + tol)) {
                return false;
            }
        }
        v[0] = f;
        n = 1;
    } else if (nfree == 1) {
        // An edge f + τu, τ ∈ [−1, 1]: the interval of τ inside each pair
        // of side planes |f_q + τ u_q| ≤ h_q + tol; its middle.
        gjk_vec3 u = free_axis[0];
        gjk_real lo = -1, hi = 1;
        for (int q = 0; q < 3; ++q) {
            if (q == k) {
                continue;
            }
            if (!gjk_clip_interval(gjk_vec3_at(f, q), gjk_vec3_at(u, q), h[q] + tol, &lo, &hi)) {
                return false;
            }
        }
        if (!(lo <= hi)) {
            return false;
        }
        v[0] = gjk_mul_add(f, (lo + hi) / 2, u);
        n = 1;
    } else {
        // A face: its four corners, clipped by the side planes widened by
        // the tolerance (rounding).
        gjk_vec3 u = free_axis[0], w = free_axis[1];
        v[0] = gjk_sub(gjk_sub(f, u), w);
        v[1] = gjk_sub(gjk_add(f, u), w);
        v[2] = gjk_add(gjk_add(f, u), w);
        v[3] = gjk_add(gjk_sub(f, u), w);
        n = 4;
        for (int q = 0; q < 3 && n > 0; ++q) {
            if (q != k) {
                n = clip_side(v, n, q, 1, h[q] + tol);
                n = clip_side(v, n, q, -1, h[q] + tol);
            }
        }
        if (n == 0) {
            return false;
        }
    }
    // The mean, each point scaled first (no overflow near the largest
    // coordinates).
    gjk_real inv = 1 / (gjk_real)n;
    gjk_vec3 mean = gjk_scale(inv, v[0]);
    for (int m = 1; m < n; ++m) {
        mean = gjk_mul_add(mean, inv, v[m]);
    }
    *on_inc = mean;
    gjk_real r[3] = {mean.x, mean.y, mean.z};
    for (int q = 0; q < 3; ++q) {
        r[q] = q == k ? s * h[q] : gjk_min(gjk_max(r[q], -h[q]), h[q]);
    }
    *on_ref = gjk_v3(r[0], r[1], r[2]);
    return true;
}

/// The witness pair of the edge axis e_i^A × e_j^B (index 6 + 3i + j), n
/// its unit normal from A to B: the closest points of A's supporting edge
/// along n (direction e_i) and B's along −n (direction e_j^B).
static void edge_witness(const gjk_pair *p, const box_axes *x, int i, int j, gjk_vec3 n, gjk_vec3 *pa,
                         gjk_vec3 *pb, gjk_vec3 *corner_a, gjk_vec3 *corner_b) {
    int k = i == 2 ? 0 : i + 1, l = k == 2 ? 0 : k + 1;
    const gjk_real *a = x->a, *b = x->b;
    const gjk_vec3 eb[3] = {p->rot_b.cx, p->rot_b.cy, p->rot_b.cz};
    gjk_real nv[3] = {n.x, n.y, n.z}, p0[3] = {0, 0, 0};
    p0[k] = gjk_sign_of(nv[k]) * a[k];
    p0[l] = gjk_sign_of(nv[l]) * a[l];
    gjk_vec3 q0 = p->pos_b;
    for (int m = 0; m < 3; ++m) {
        if (m != j) {
            q0 = gjk_mul_add(q0, -gjk_sign_of(gjk_dot(n, eb[m])) * b[m], eb[m]);
        }
    }
    // Closest points of the lines p0 + σ e_i and q0 + υ e_j^B:
    // σ = (c (e_j^B·r) − e_i·r) / (1 − c²), υ = e_j^B·r + σ c, with
    // r = p0 − q0, c = R_ij and 1 − c² = |L|² (R_j is unit).
    gjk_vec3 r = gjk_sub(gjk_v3(p0[0], p0[1], p0[2]), q0);
    gjk_real c = x->R[i][j], len2 = x->R[k][j] * x->R[k][j] + x->R[l][j] * x->R[l][j];
    gjk_real br = gjk_dot(eb[j], r), ar = gjk_vec3_at(r, i);
    gjk_real sigma = gjk_min(gjk_max((c * br - ar) / len2, -a[i]), a[i]);
    gjk_real upsilon = gjk_min(gjk_max(br + sigma * c, -b[j]), b[j]);
    // σ again for the clamped υ (Ericson §5.1.9): within A's edge whatever
    // σ's first value lost to the division by |L|².
    sigma = gjk_min(gjk_max(upsilon * c - ar, -a[i]), a[i]);
    // The edges' ends nearer the closest points: the corners to try when
    // those points left the edges.
    *corner_b = gjk_mul_add(q0, gjk_sign_of(upsilon) * b[j], eb[j]);
    p0[i] = gjk_sign_of(sigma) * a[i];
    *corner_a = gjk_v3(p0[0], p0[1], p0[2]);
    p0[i] = sigma;
    *pa = gjk_v3(p0[0], p0[1], p0[2]);
    *pb = gjk_mul_add(q0, upsilon, eb[j]);
}

/// The lower bound of the cores' distance along the unit direction n (A's
/// frame): the gap between A's support value along n and B's along −n.
static gjk_real gap_along(const gjk_pair *p, const box_axes *x, gjk_vec3 n) {
    gjk_real ha = x->a[0] * gjk_abs(n.x) + x->a[1] * gjk_abs(n.y) + x->a[2] * gjk_abs(n.z);
    gjk_real hb = x->b[0] * gjk_abs(gjk_dot(n, p->rot_b.cx)) + x->b[1] * gjk_abs(gjk_dot(n, p->rot_b.cy)) +
                  x->b[2] * gjk_abs(gjk_dot(n, p->rot_b.cz));
    return gjk_dot(n, p->pos_b) - ha - hb;
}

/// The corner of A farthest along n and the corner of B farthest along −n
/// (n from A to B, A's frame): corners[0] and corners[1].
static void supporting_corners(const gjk_pair *p, const box_axes *x, gjk_vec3 n, gjk_vec3 corners[2]) {
    const gjk_vec3 eb[3] = {p->rot_b.cx, p->rot_b.cy, p->rot_b.cz};
    corners[0] = gjk_v3(gjk_sign_of(n.x) * x->a[0], gjk_sign_of(n.y) * x->a[1], gjk_sign_of(n.z) * x->a[2]);
    corners[1] = p->pos_b;
    for (int j = 0; j < 3; ++j) {
        corners[1] = gjk_mul_add(corners[1], -gjk_sign_of(gjk_dot(n, eb[j])) * x->b[j], eb[j]);
    }
}

/// The witness pair of the best axis (the face axis unless an edge axis is
/// better by a quarter of the tolerance) and its separation *sep: false
/// when the face's clip comes out empty. out->normal is set either way.
/// For an edge axis (*edge_axis_taken), corners[0..1] receive a corner of
/// A and one of B to try when the pair does not reach the distance (see
/// corner_pair): the ends of the edges nearer their closest points.
static bool axis_pair(const gjk_pair *p, const box_axes *x, gjk_real face, gjk_real edge, gjk_real tol,
                      gjk_box_answer *out, gjk_real *sep, gjk_vec3 corners[2], bool *edge_axis_taken) {
    if (edge > face + tol / 4) {
        // L = e_i^A × e_j^B, (i, k, l) cyclic.
        int edge_axis = largest(x->sep, 6, 15) - 6;
        int i = edge_axis / 3, j = edge_axis % 3;
        int k = i == 2 ? 0 : i + 1, l = k == 2 ? 0 : k + 1;
        gjk_real L[3];
        L[i] = 0, L[k] = -x->R[l][j], L[l] = x->R[k][j];
        gjk_vec3 n = gjk_normalize(gjk_v3(L[0], L[1], L[2]));
        out->normal = gjk_scale(gjk_sign_of(gjk_dot(n, p->pos_b)), n);
        edge_witness(p, x, i, j, out->normal, &out->a, &out->b, &corners[0], &corners[1]);
        *sep = edge;
        *edge_axis_taken = true;
        return true;
    }
    *sep = face;
    *edge_axis_taken = false;
    int face_axis = largest(x->sep, 0, 6);
    if (face_axis < 3) {
        // A's face: B's centre and axes are already in A's frame.
        const gjk_vec3 eb[3] = {p->rot_b.cx, p->rot_b.cy, p->rot_b.cz};
        int k = face_axis;
        gjk_real s = gjk_sign_of(x->t[k]);
        gjk_real nv[3] = {0, 0, 0};
        nv[k] = s;
        out->normal = gjk_v3(nv[0], nv[1], nv[2]);
        return face_witness(x->a, k, s, p->pos_b, eb, x->b, tol, &out->a, &out->b);
    }
    // B's face: A's centre and axes in B's frame (R's rows), the pair mapped
    // back by x_A = R x_B + t.
    int k = face_axis - 3;
    const gjk_vec3 ea[3] = {gjk_v3(x->R[0][0], x->R[0][1], x->R[0][2]), gjk_v3(x->R[1][0], x->R[1][1], x->R[1][2]),
                            gjk_v3(x->R[2][0], x->R[2][1], x->R[2][2])};
    gjk_vec3 ca = gjk_neg(gjk_mat3_tmul(p->rot_b, p->pos_b));
    gjk_real s = gjk_sign_of(gjk_vec3_at(ca, k)); // B's face toward A
    gjk_vec3 eb_k = k == 0 ? p->rot_b.cx : k == 1 ? p->rot_b.cy : p->rot_b.cz;
    out->normal = gjk_scale(-s, eb_k);
    gjk_vec3 on_b, on_a;
    if (!face_witness(x->b, k, s, ca, ea, x->a, tol, &on_b, &on_a)) {
        return false;
    }
    out->a = gjk_add(gjk_mat3_mul(p->rot_b, on_a), p->pos_b);
    out->b = gjk_add(gjk_mat3_mul(p->rot_b, on_b), p->pos_b);
    return true;
}

/// The point of the box with half extents h (its own frame) nearest to v.
static gjk_vec3 clamp_box(const gjk_real h[3], gjk_vec3 v) {
    return gjk_v3(gjk_min(gjk_max(v.x, -h[0]), h[0]), gjk_min(gjk_max(v.y, -h[1]), h[1]),
                  gjk_min(gjk_max(v.z, -h[2]), h[2]));
}

/// The point of B (half extents b) nearest to v, both in A's frame.
static gjk_vec3 nearest_of_b(const gjk_pair *p, const gjk_real b[3], gjk_vec3 v) {
    gjk_vec3 u = clamp_box(b, gjk_mat3_tmul(p->rot_b, gjk_sub(v, p->pos_b)));
    return gjk_add(gjk_mat3_mul(p->rot_b, u), p->pos_b);
}

/// Apart cores whose nearest points include a corner of either box (D's
/// nearest point on one of its edges or vertices), found by alternating
/// projections: from the corner ca of A and its nearest point of B, and
/// the corner cb of B and its nearest point of A, the nearer pair (a, b);
/// then up to two steps of a ← A's point nearest to b, b ← B's point
/// nearest to a, each bringing the pair nearer. The answer is the first
/// pair whose length comes within a quarter of tol of the gap of the boxes
/// along its own direction (the pair bounds the distance from above, the
/// gap from below; tol here is the pair's whole extent's, about twice the
/// one the queries promise, and a review found 1.76 of the promised
/// tolerance off at options.tolerance = 1e-3 when a whole tol was
/// allowed). Two corners, a corner and an edge, or parallel edges (a corner
/// of one within the other's extent along them) take at most the steps.
static bool corner_pair(const gjk_pair *p, const box_axes *x, gjk_vec3 ca, gjk_vec3 cb, gjk_real tol,
                        gjk_box_answer *out) {
    gjk_vec3 qa = clamp_box(x->a, cb), qb = nearest_of_b(p, x->b, ca);
    gjk_vec3 d1 = gjk_sub(cb, qa), d2 = gjk_sub(qb, ca);
    bool first = gjk_max_abs(d1) <= gjk_max_abs(d2);
    gjk_vec3 a = first ? qa : ca, b = first ? cb : qb;
    for (int step = 0;; ++step) {
        gjk_vec3 d = gjk_sub(b, a);
        gjk_vec3 m = gjk_normalize(d);
        gjk_real len = gjk_dot(m, d);
        if (!(len > tol)) {
            return false; // touching cores (or rounding): GJK's
        }
        if (len - gap_along(p, x, m) <= tol / 4) {
            out->a = a, out->b = b, out->normal = m, out->distance = len;
            return true;
        }
        if (step == 2) {
            return false;
        }
        a = clamp_box(x->a, b);
        b = nearest_of_b(p, x->b, a);
    }
}

bool gjk_box_box_signed(const gjk_pair *p, gjk_real tol, gjk_real band, gjk_box_answer *out) {
    gjk_real min_len = gjk_sat_min_edge_len(p);
    if (!in_range(p, min_len)) {
        return false;
    }
    box_axes x;
    gjk_real face = box_faces(p, &x);
    bool left_out;
    gjk_real edge = box_edges(&x, min_len, face, &left_out);
    gjk_real best = gjk_max(face, edge);
    if (!(best > -GJK_REAL_MAX) || (best < 0 && (left_out || x.both_flat || !(best - p->radius < -band)))) {
        // No axis at all (two points, a point and a segment): GJK's.
        // Overlapping cores: best is −(their depth) unless an axis left out
        // separates more or D may be flat (see gjk_box_box_decide), and the
        // rounded shapes must overlap by more than band. (Apart or touching cores: best is a lower bound on their
        // distance, which an axis left out can only lower; the distance is
        // proved below, and the band checked on it.)
        return false;
    }
    // The ties below need a tolerance above the rounding of the axes: a
    // small options.tolerance (1e-15) would let rounding choose between an
    // edge axis and the face normal it lies along.
    tol = gjk_max(tol, 64 * GJK_REAL_EPSILON * (gjk_max_abs(p->pos_b) + 2 * p->scale));
    gjk_real sep;
    gjk_vec3 corners[2];
    bool edge_axis_taken;
    bool found = axis_pair(p, &x, face, edge, tol, out, &sep, corners, &edge_axis_taken);
    if (found) {
        // The certificate: a point of A and a point of B sep·n apart, each
        // coordinate within twice the tolerance (the face's side planes are
        // widened by one, and B's face turns that into A's frame). With the
        // cores apart, sep bounds their distance from below and |b − a|
        // from above, so both are the distance within about that; D's
        // nearest point on one of its edges or vertices (no axis reaches
        // it) fails here. With the cores overlapping, sep is exact and the
        // pair holds by construction. (A largest coordinate, not a squared
        // length, which would underflow or overflow at the ends of the
        // range.)
        gjk_vec3 off = gjk_sub(gjk_sub(out->b, out->a), gjk_scale(sep, out->normal));
        found = gjk_max_abs(off) <= 2 * tol;
        out->distance = sep;
    }
    if (!found) {
        if (!(best > 0)) {
            return false;
        }
        if (!edge_axis_taken) {
            supporting_corners(p, &x, out->normal, corners); // along the face's normal
        }
        if (!corner_pair(p, &x, corners[0], corners[1], tol, out)) {
            return false;
        }
    }
    // The band, on the distance proved (a corner's can exceed best).
    gjk_real sd = out->distance - p->radius;
    return sd > band || sd < -band;
}

bool gjk_box_box_common(const gjk_pair *p, const gjk_box_answer *box, gjk_real tol, gjk_vec3 *point) {
    // Alternating projections onto two closed convex sets that meet
    // converge to a point of both (Cheney and Goldstein 1959; Bregman 1965;
    // von Neumann's theorem is the case of two subspaces). From the witness on A, which lies in B
    // unless the depth reaches past B's far side along n (a deep edge
    // crossing): each step moves to B's nearest point, then to A's, until
    // a move is within the tolerance.
    const gjk_vec3 ha = p->a->box.half_extents, hb = p->b->box.half_extents;
    const gjk_real a[3] = {ha.x, ha.y, ha.z}, b[3] = {hb.x, hb.y, hb.z};
    gjk_vec3 v = box->a;
    for (int step = 0; step < 4; ++step) {
        gjk_vec3 w = nearest_of_b(p, b, v);
        if (gjk_max_abs(gjk_sub(w, v)) <= tol) {
            *point = v;
            return true;
        }
        v = clamp_box(a, w);
        if (gjk_max_abs(gjk_sub(v, w)) <= tol) {
            *point = w;
            return true;
        }
    }
    return false;
}
