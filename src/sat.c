// Box against box by separating axes, for gjk_intersect: a status without
// GJK iterations when the answer is clear.
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
// The status is claimed only where no tolerance could change it: the
// signed distance (less the rounding radii) beyond `band`, which the caller
// sets well above the tolerance of the GJK walk at the shapes' whole scale.
// Rounding: a face axis is exact to about ε times the scale; an edge axis
// with |L| small is ε/|L| off in direction, so an axis with |L| below
// min_len (chosen so that ε/|L| × scale stays under half the band) is left
// out. Leaving axes out can only lower the maximum: "apart" stays proved;
// "overlapping" is then not claimed unless every axis left out is exactly
// degenerate (|L| = 0: parallel edges, which make no face of D).
#include "internal.h"

bool gjk_box_box_decide(const gjk_pair *p, gjk_real band, gjk_status *status) {
    const gjk_vec3 ha = p->a->box.half_extents, hb = p->b->box.half_extents;
    const gjk_real a[3] = {ha.x, ha.y, ha.z}, b[3] = {hb.x, hb.y, hb.z};
    const gjk_vec3 col[3] = {p->rot_b.cx, p->rot_b.cy, p->rot_b.cz};
    gjk_real R[3][3], AR[3][3];
    for (int j = 0; j < 3; ++j) {
        const gjk_real c[3] = {col[j].x, col[j].y, col[j].z};
        for (int i = 0; i < 3; ++i) {
            R[i][j] = c[i];
            AR[i][j] = gjk_abs(c[i]);
        }
    }
    const gjk_real t[3] = {p->pos_b.x, p->pos_b.y, p->pos_b.z};
    gjk_real best = -GJK_REAL_MAX;
    for (int i = 0; i < 3; ++i) {
        gjk_real s = gjk_abs(t[i]) - a[i] - (b[0] * AR[i][0] + b[1] * AR[i][1] + b[2] * AR[i][2]);
        best = gjk_max(s, best);
    }
    for (int j = 0; j < 3; ++j) {
        gjk_real tl = t[0] * R[0][j] + t[1] * R[1][j] + t[2] * R[2][j];
        gjk_real s = gjk_abs(tl) - (a[0] * AR[0][j] + a[1] * AR[1][j] + a[2] * AR[2][j]) - b[j];
        best = gjk_max(s, best);
    }
    gjk_real radius = p->radius;
    if (best - radius > band) {
        *status = GJK_SEPARATED; // a face axis separates: no need for the edges
        return true;
    }
    // ε/|L| × scale ≤ band / 2, the scale taken as band's own (band / 8 tol).
    gjk_real min_len = 16 * GJK_REAL_EPSILON / (p->rel_tol * 8);
    bool left_out = false;
    for (int i = 0; i < 3; ++i) {
        int k = i == 2 ? 0 : i + 1, l = k == 2 ? 0 : k + 1;
        for (int j = 0; j < 3; ++j) {
            int m = j == 2 ? 0 : j + 1, n = m == 2 ? 0 : m + 1;
            gjk_real len2 = R[k][j] * R[k][j] + R[l][j] * R[l][j];
            if (!(len2 >= min_len * min_len)) {
                left_out = left_out || len2 > 0;
                continue;
            }
            gjk_real tl = R[k][j] * t[l] - R[l][j] * t[k];
            gjk_real ra = a[k] * AR[l][j] + a[l] * AR[k][j];
            gjk_real rb = b[m] * AR[i][n] + b[n] * AR[i][m];
            best = gjk_max((gjk_abs(tl) - ra - rb) / gjk_sqrt(len2), best);
        }
    }
    if (best - radius > band) {
        *status = GJK_SEPARATED;
        return true;
    }
    if (!left_out && best < 0 && best - radius < -band) {
        *status = GJK_PENETRATING; // best is −(the depth of the cores)
        return true;
    }
    return false; // too close to call here: GJK decides
}
