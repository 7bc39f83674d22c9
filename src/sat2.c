// Box against box in the plane by separating axes: gjk2_intersect's status,
// and gjk2_penetration's and gjk2_distance's signed distance, normal and
// witness points, without GJK or EPA when the answer is clear (the 2D
// counterpart of sat.c).
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
//
// When the cores are apart the largest separation is a lower bound on their
// distance, reached when the pair above is its length apart: D's nearest
// point lies on an edge of D. On a vertex of D (two corners nearest) the
// pair fails, and the corners are found by alternating projections (each
// box's nearest point to a point of the other, a clamp in its frame) and
// proved by the gap of the boxes along their direction, as in 3D.
#include "internal2.h"

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
    gjk_real lo = -1, hi = 1;
    if (!gjk_clip_interval(coord2(f, q), coord2(half, q), h[q] + tol, &lo, &hi) || !(lo <= hi)) {
        return false;
    }
    *on_inc = gjk_mul_add2(f, GJK_R(0.5) * (lo + hi), half);
    gjk_real r[2];
    r[k] = s * h[k];
    r[q] = gjk_min(gjk_max(coord2(*on_inc, q), -h[q]), h[q]);
    *on_ref = gjk_v2(r[0], r[1]);
    return true;
}

/// The four axes: their largest separation, and its axis (0, 1: A's; 2, 3:
/// B's). False when a separation is not finite (an overflow).
static GJK_INLINE bool box2_axes(const gjk2_pair *p, gjk_real *best_out, int *axis_out) {
    const gjk_real a[2] = {p->a->box.half_extents.x, p->a->box.half_extents.y};
    const gjk_real b[2] = {p->b->box.half_extents.x, p->b->box.half_extents.y};
    const gjk_vec2 eb[2] = {gjk_v2(p->rot_b.c, p->rot_b.s), gjk_v2(-p->rot_b.s, p->rot_b.c)};
    const gjk_vec2 t = p->pos_b;
    // |R_ij| = |e_i^A · e_j^B|: |c| on the diagonal, |s| off it.
    const gjk_real ac = gjk_abs(p->rot_b.c), as = gjk_abs(p->rot_b.s);
    gjk_real sep[4] = {gjk_abs(t.x) - a[0] - (b[0] * ac + b[1] * as), gjk_abs(t.y) - a[1] - (b[0] * as + b[1] * ac),
                       gjk_abs(gjk_dot2(t, eb[0])) - (a[0] * ac + a[1] * as) - b[0],
                       gjk_abs(gjk_dot2(t, eb[1])) - (a[0] * as + a[1] * ac) - b[1]};
    gjk_real best = sep[0];
    int axis = 0;
    for (int k = 1; k < 4; ++k) {
        axis = sep[k] > best ? k : axis;
        best = gjk_max(sep[k], best);
    }
    *best_out = best, *axis_out = axis;
    return gjk_is_valid_real(sep[0] + sep[1] + sep[2] + sep[3]);
}

bool gjk2_box_box_decide(const gjk2_pair *p, gjk_real band, gjk_status *status) {
    gjk_real best;
    int axis;
    if (!box2_axes(p, &best, &axis)) {
        return false;
    }
    gjk_real sd = best - p->radius;
    if (sd > band) {
        *status = GJK_SEPARATED; // (a lower bound when apart)
        return true;
    }
    if (best < 0 && sd < -band) {
        *status = GJK_PENETRATING; // best is −(the depth of the cores)
        return true;
    }
    return false;
}

/// The point of the box with half extents h (its own frame) nearest to v.
static gjk_vec2 clamp_box2(const gjk_real h[2], gjk_vec2 v) {
    return gjk_v2(gjk_min(gjk_max(v.x, -h[0]), h[0]), gjk_min(gjk_max(v.y, -h[1]), h[1]));
}

/// The point of B (half extents b) nearest to v, both in A's frame.
static gjk_vec2 nearest_of_b2(const gjk2_pair *p, const gjk_real b[2], gjk_vec2 v) {
    gjk_vec2 u = clamp_box2(b, gjk_rot2_inv_apply(p->rot_b, gjk_sub2(v, p->pos_b)));
    return gjk_add2(gjk_rot2_apply(p->rot_b, u), p->pos_b);
}

/// The lower bound of the cores' distance along the unit direction n (A's
/// frame): the gap between A's support value along n and B's along −n.
static gjk_real gap_along2(const gjk2_pair *p, const gjk_real a[2], const gjk_real b[2], gjk_vec2 n) {
    gjk_vec2 m = gjk_rot2_inv_apply(p->rot_b, n); // n in B's frame
    return gjk_dot2(n, p->pos_b) - (a[0] * gjk_abs(n.x) + a[1] * gjk_abs(n.y)) -
           (b[0] * gjk_abs(m.x) + b[1] * gjk_abs(m.y));
}

/// Apart cores whose nearest points are two corners: from A's corner
/// farthest along n and B's nearest point to it, or B's corner farthest
/// along −n and A's nearest point to it (the nearer pair), alternating
/// projections for up to two more steps; the first pair whose length comes
/// within a quarter of tol of the gap along its direction is the answer
/// (see sat.c).
static bool corner_pair2(const gjk2_pair *p, const gjk_real a[2], const gjk_real b[2], gjk_vec2 n, gjk_real tol,
                         gjk2_box_answer *out) {
    gjk_vec2 ca = gjk_v2(gjk_sign_of(n.x) * a[0], gjk_sign_of(n.y) * a[1]);
    gjk_vec2 m = gjk_rot2_inv_apply(p->rot_b, n);
    gjk_vec2 cb = gjk_add2(gjk_rot2_apply(p->rot_b, gjk_v2(-gjk_sign_of(m.x) * b[0], -gjk_sign_of(m.y) * b[1])), p->pos_b);
    gjk_vec2 qa = clamp_box2(a, cb), qb = nearest_of_b2(p, b, ca);
    gjk_vec2 d1 = gjk_sub2(cb, qa), d2 = gjk_sub2(qb, ca);
    bool first = gjk2_max_abs(d1) <= gjk2_max_abs(d2);
    gjk_vec2 pa = first ? qa : ca, pb = first ? cb : qb;
    for (int step = 0;; ++step) {
        gjk_vec2 d = gjk_sub2(pb, pa);
        gjk_vec2 u = gjk_normalize2(d);
        gjk_real len = gjk_dot2(u, d);
        if (!(len > tol)) {
            return false; // touching cores (or rounding): GJK's
        }
        if (len - gap_along2(p, a, b, u) <= tol / 4) {
            out->a = pa, out->b = pb, out->normal = u, out->distance = len;
            return true;
        }
        if (step == 2) {
            return false;
        }
        pa = clamp_box2(a, pb);
        pb = nearest_of_b2(p, b, pa);
    }
}

bool gjk2_box_box_signed(const gjk2_pair *p, gjk_real tol, gjk_real band, gjk2_box_answer *out) {
    const gjk_real a[2] = {p->a->box.half_extents.x, p->a->box.half_extents.y};
    const gjk_real b[2] = {p->b->box.half_extents.x, p->b->box.half_extents.y};
    const gjk_vec2 eb[2] = {gjk_v2(p->rot_b.c, p->rot_b.s), gjk_v2(-p->rot_b.s, p->rot_b.c)};
    const gjk_vec2 t = p->pos_b;
    gjk_real best;
    int axis;
    // Overlapping cores: best is −(their depth); the rounded shapes must
    // overlap by more than band. (Apart cores: the distance is proved
    // below, and the band checked on it.)
    if (!box2_axes(p, &best, &axis) || (best < 0 && !(best - p->radius < -band))) {
        return false;
    }
    // The flatness test and the clip need a tolerance above the rounding (a
    // small options.tolerance, 1e-15, would leave them at it).
    tol = gjk_max(tol, 64 * GJK_REAL_EPSILON * (gjk2_max_abs(t) + 2 * p->scale));
    bool found;
    if (axis < 2) {
        // A's edge: B's centre and axes are already in A's frame.
        gjk_real s = gjk_sign_of(coord2(t, axis));
        out->normal = axis == 0 ? gjk_v2(s, 0) : gjk_v2(0, s);
        found = edge_witness(a, axis, s, t, eb, b, tol, &out->a, &out->b);
    } else {
        // B's edge: A's centre and axes in B's frame (R's rows), the pair
        // mapped back by x_A = R x_B + t.
        int k = axis - 2;
        const gjk_vec2 ea[2] = {gjk_v2(eb[0].x, eb[1].x), gjk_v2(eb[0].y, eb[1].y)};
        gjk_vec2 ca = gjk_neg2(gjk_rot2_inv_apply(p->rot_b, t));
        gjk_real s = gjk_sign_of(coord2(ca, k)); // B's edge toward A
        out->normal = gjk_scale2(-s, eb[k]);
        gjk_vec2 on_b, on_a;
        found = edge_witness(b, k, s, ca, ea, a, tol, &on_b, &on_a);
        if (found) {
            out->a = gjk_add2(gjk_rot2_apply(p->rot_b, on_a), t);
            out->b = gjk_add2(gjk_rot2_apply(p->rot_b, on_b), t);
        }
    }
    if (found) {
        // The certificate, as in 3D: a point of each box best·n apart, each
        // coordinate within twice the tolerance.
        gjk_vec2 off = gjk_sub2(gjk_sub2(out->b, out->a), gjk_scale2(best, out->normal));
        found = gjk2_max_abs(off) <= 2 * tol;
        out->distance = best;
    }
    if (!found && !(best > 0 && corner_pair2(p, a, b, out->normal, tol, out))) {
        return false;
    }
    gjk_real sd = out->distance - p->radius;
    return sd > band || sd < -band;
}

bool gjk2_box_box_common(const gjk2_pair *p, const gjk2_box_answer *box, gjk_real tol, gjk_vec2 *point) {
    // Alternating projections from the witness on A, as in 3D (sat.c).
    const gjk_real a[2] = {p->a->box.half_extents.x, p->a->box.half_extents.y};
    const gjk_real b[2] = {p->b->box.half_extents.x, p->b->box.half_extents.y};
    gjk_vec2 v = box->a;
    for (int step = 0; step < 4; ++step) {
        gjk_vec2 w = nearest_of_b2(p, b, v);
        if (gjk_max(gjk_abs(w.x - v.x), gjk_abs(w.y - v.y)) <= tol) {
            *point = v;
            return true;
        }
        v = clamp_box2(a, w);
        if (gjk_max(gjk_abs(v.x - w.x), gjk_abs(v.y - w.y)) <= tol) {
            *point = w;
            return true;
        }
    }
    return false;
}
