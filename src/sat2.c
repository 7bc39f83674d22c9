// Box against box in the plane by separating axes: gjk2_penetration's
// depth, normal and witness points without GJK or EPA when the boxes
// clearly overlap (the 2D counterpart of sat.c).
//
// The edge normals of two convex polygons are the edge normals of their
// Minkowski difference D = A − B, so when the cores overlap the largest
// separation over them is exactly −(the depth), reached along its axis (the
// edge of D nearest the origin; Ericson §4.4.1, and the reference/incident
// edges of Box2D's b2CollidePolygons). Two boxes have four: in A's frame,
// with R_ij = e_i^A · e_j^B (B's axes u = (c, s), v = (−s, c)),
//     A's axis i:  s = |t_i| − a_i − Σ_j b_j |R_ij|
//     B's axis j:  s = |t·R_j| − Σ_i a_i |R_ij| − b_j
// Every axis is a unit vector of the input rotation, so each separation is
// exact to the rounding at the pair's scale: no axis is ill conditioned.
//
// The witness pair: the reference box's edge along n against the other
// box's supporting vertex or edge (an axis whose half extent times |e·n| is
// under tol / 8 counts as flat), clipped to the reference edge's extent
// widened by tol; the middle of what remains is the incident point and its
// projection on the reference edge the reference point.
#include "internal2.h"

/// ±1: the sign of x, + for zero.
static GJK_INLINE gjk_real sign_of(gjk_real x) { return x < 0 ? GJK_R(-1) : GJK_R(1); }

/// Coordinate k of v.
static GJK_INLINE gjk_real coord2(gjk_vec2 v, int k) { return k == 0 ? v.x : v.y; }

/// The witness pair of a face axis, in the reference box's frame: its edge
/// on side s (±1) of axis k, against the incident box (centre c, unit axes
/// e, half extents g). False when the clipped feature is empty.
static bool edge_witness(const gjk_real h[2], int k, gjk_real s, gjk_vec2 c, const gjk_vec2 e[2], const gjk_real g[2],
                         gjk_real tol, gjk_vec2 *on_ref, gjk_vec2 *on_inc) {
    // The incident feature along −n, n = s·e_k: its centre and at most one
    // free axis, the one farther from n (not the one of a zero half extent,
    // which rises by nothing whatever its direction), if the box rises along
    // it by at most tol / 8.
    gjk_real dm[2] = {s * coord2(e[0], k), s * coord2(e[1], k)}; // e_m · n
    int flat = gjk_abs(dm[0]) <= gjk_abs(dm[1]) ? 0 : 1;
    if (!(g[flat] * gjk_abs(dm[flat]) <= tol / 8)) {
        flat = -1;
    }
    gjk_vec2 f = c, half = gjk_v2(0, 0);
    for (int m = 0; m < 2; ++m) {
        if (m == flat) {
            half = gjk_scale2(g[m], e[m]);
        } else {
            f = gjk_mul_add2(f, dm[m] > 0 ? -g[m] : g[m], e[m]);
        }
    }
    // The feature f ± half, clipped to |x_q| ≤ h_q + tol along the other
    // axis q: x_q(τ) = f_q + τ half_q for τ ∈ [−1, 1].
    int q = 1 - k;
    gjk_real fq = coord2(f, q), dq = coord2(half, q), w = h[q] + tol;
    gjk_real lo = -1, hi = 1;
    if (dq != 0) {
        gjk_real t1 = (-w - fq) / dq, t2 = (w - fq) / dq;
        lo = gjk_max(lo, gjk_min(t1, t2));
        hi = gjk_min(hi, gjk_max(t1, t2));
    } else if (!(gjk_abs(fq) <= w)) {
        return false;
    }
    if (!(lo <= hi)) {
        return false;
    }
    *on_inc = gjk_mul_add2(f, GJK_R(0.5) * (lo + hi), half);
    gjk_real r[2];
    r[k] = s * h[k];
    r[q] = gjk_min(gjk_max(coord2(*on_inc, q), -h[q]), h[q]);
    *on_ref = gjk_v2(r[0], r[1]);
    return true;
}

bool gjk2_box_box_penetration(const gjk2_pair *p, gjk_real tol, gjk_real band, gjk2_box_answer *out) {
    const gjk_real a[2] = {p->a->box.half_extents.x, p->a->box.half_extents.y};
    const gjk_real b[2] = {p->b->box.half_extents.x, p->b->box.half_extents.y};
    const gjk_vec2 eb[2] = {gjk_v2(p->rot_b.c, p->rot_b.s), gjk_v2(-p->rot_b.s, p->rot_b.c)};
    const gjk_vec2 t = p->pos_b;
    // R[i][j] = e_i^A · e_j^B: row i of R holds A's axis i in B's frame.
    const gjk_real R[2][2] = {{eb[0].x, eb[1].x}, {eb[0].y, eb[1].y}};
    gjk_real best = -GJK_REAL_MAX;
    int axis = 0;
    bool bad = false;
    for (int i = 0; i < 2; ++i) {
        gjk_real s = gjk_abs(coord2(t, i)) - a[i] - (b[0] * gjk_abs(R[i][0]) + b[1] * gjk_abs(R[i][1]));
        bad = bad || !gjk_is_valid_real(s);
        if (s > best) {
            best = s, axis = i;
        }
    }
    for (int j = 0; j < 2; ++j) {
        gjk_real s = gjk_abs(gjk_dot2(t, eb[j])) - (a[0] * gjk_abs(R[0][j]) + a[1] * gjk_abs(R[1][j])) - b[j];
        bad = bad || !gjk_is_valid_real(s);
        if (s > best) {
            best = s, axis = 2 + j;
        }
    }
    // The cores must overlap (the rounded shapes of apart cores are GJK's),
    // and the rounded shapes by more than band.
    if (bad || !(best < 0 && best - p->radius < -band)) {
        return false;
    }
    // The flatness test and the clip need a tolerance above the rounding (a
    // small options.tolerance, 1e-15, would leave them at it).
    tol = gjk_max(tol, 64 * GJK_REAL_EPSILON * (gjk_max(gjk_abs(t.x), gjk_abs(t.y)) + 2 * p->scale));
    if (axis < 2) {
        // A's edge: B's centre and axes are already in A's frame.
        gjk_real s = sign_of(coord2(t, axis));
        if (!edge_witness(a, axis, s, t, eb, b, tol, &out->a, &out->b)) {
            return false;
        }
        out->normal = axis == 0 ? gjk_v2(s, 0) : gjk_v2(0, s);
    } else {
        // B's edge: A's centre and axes in B's frame (R's rows), the pair
        // mapped back by x_A = R x_B + t.
        int k = axis - 2;
        const gjk_vec2 ea[2] = {gjk_v2(R[0][0], R[0][1]), gjk_v2(R[1][0], R[1][1])};
        gjk_vec2 ca = gjk_neg2(gjk_rot2_inv_apply(p->rot_b, t));
        gjk_real s = sign_of(coord2(ca, k)); // B's edge toward A
        gjk_vec2 on_b, on_a;
        if (!edge_witness(b, k, s, ca, ea, a, tol, &on_b, &on_a)) {
            return false;
        }
        out->a = gjk_add2(gjk_rot2_apply(p->rot_b, on_a), t);
        out->b = gjk_add2(gjk_rot2_apply(p->rot_b, on_b), t);
        out->normal = gjk_scale2(-s, eb[k]);
    }
    out->depth = -best;
    return true;
}
