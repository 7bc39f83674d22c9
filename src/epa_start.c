// EPA's starting polytope: GJK's final simplex (a point, segment, triangle
// or tetrahedron within tolerance of the origin) grown into a polytope with
// volume around the origin, or the finding that D is flat there and the
// cores only touch.
#include "epa_hull.h"

/// D's support point along d, its w in the polytope's units.
static gjk_support_point epa_support(gjk_pair *pair, const gjk_epa_polytope *P, gjk_vec3 d) {
    gjk_support_point p = gjk_pair_support(pair, d);
    p.w = gjk_scale(P->down, p.w);
    return p;
}

/// A degenerate outcome: D has no volume around the origin (or the initial
/// polytope could not be built), so the cores only touch. Depth 0 along `n`.
static void touching_result(const gjk_simplex *s, gjk_vec3 n, gjk_epa_result *out) {
    gjk_vec3 pa, pb;
    gjk_simplex_witness(s, &pa, &pb);
    out->converged = true;
    out->depth = 0;
    out->normal = n;
    out->point_a = pa;
    out->point_b = pb;
}

/// Whether the double pyramid (GJK_EPA_BIPYRAMID) is convex: across
/// each edge of the triangle (0, 1, 2), each apex lies below (within tol)
/// the plane of the other apex's face on that edge. (The edges to an apex
/// join two faces of one tetrahedron, convex by itself.)
static bool bipyramid_convex(const gjk_epa_polytope *P, gjk_real tol) {
    for (int f = 0; f < 6; ++f) {
        const gjk_epa_face *F = &P->face[f];
        gjk_vec3 apex = P->vert[f < 3 ? 4 : 3].w;
        if (!(gjk_dot(F->n, apex) - F->dist <= tol)) {
            return false;
        }
    }
    return true;
}

/// The four points of g divided by their largest coordinate, into q: the
/// volume of their tetrahedron is cubic in the coordinates and its areas'
/// squares quartic, so at huge and tiny sizes they overflow or underflow
/// (a volume that overflowed to a NaN, or underflowed to 0, left the
/// tetrahedron inside out); on q they do not.
static void scaled_points(const gjk_simplex *g, gjk_vec3 q[4]) {
    gjk_real big = 0;
    for (int i = 0; i < 4; ++i) {
        big = gjk_max(big, gjk_max_abs(g->v[i].w));
    }
    big = big > 0 ? big : 1;
    for (int i = 0; i < 4; ++i) {
        q[i] = gjk_v3(g->v[i].w.x / big, g->v[i].w.y / big, g->v[i].w.z / big);
    }
}

/// Six times the signed volume of the tetrahedron q[0..3].
static gjk_real tetra_volume(const gjk_vec3 q[4]) {
    return gjk_dot(gjk_sub(q[1], q[0]), gjk_cross(gjk_sub(q[2], q[0]), gjk_sub(q[3], q[0])));
}

/// Grows the final GJK simplex (the origin lies in it or within tolerance
/// of it) into a polytope with volume that encloses the origin. Returns
/// false with *out filled when D turns out to be flat around the origin:
/// then the cores only touch, and the GJK simplex gives the witnesses.
/// *pending: a point stored at P->vert[P->vertex_count] that belongs to
/// the starting polytope but is yet to be added by an expansion step, or
/// −1.
///
/// The tolerance is read again after each support call: the pair's length
/// scale grows with the points seen, and a walk that ended on its first
/// point (a warm start whose support point is the origin) has seen nothing
/// else, so the tolerance on entry may be 0.
bool gjk_epa_initial_polytope(gjk_pair *pair, const gjk_simplex *s, gjk_epa_polytope *P, gjk_epa_result *out,
                              int *pending) {
    *pending = -1;
    gjk_simplex g = *s;
    for (int m = 0; P->shift != 0 && m < g.count; ++m) {
        g.v[m].w = gjk_scale(P->down, g.v[m].w);
    }

    if (g.count == 1) {
        // One point w within tolerance of the origin. When it is D's support
        // point along its direction d (not one rebuilt from a cache), D lies
        // behind the plane through w normal to d: D reaches w·d/|d| ≤ |w| ≤
        // tolerance beyond the origin along d.
        // The cores touch, and d is an outward normal of D there (from A to
        // B). This is exact; a polytope grown around w would have the origin
        // on its boundary and only rounding to tell the sides apart.
        gjk_vec3 n = gjk_normalize(g.v[0].d);
        if (g.v[0].bounds && gjk_length_sq(n) > 0) {
            touching_result(s, n, out);
            return false;
        }
        // No direction that bounds D: find a second point of D away from the first.
        static const gjk_real dirs[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        for (int k = 0; k < 6 && g.count == 1; ++k) {
            gjk_support_point p = epa_support(pair, P, gjk_v3(dirs[k][0], dirs[k][1], dirs[k][2]));
            if (gjk_length(gjk_sub(p.w, g.v[0].w)) > gjk_epa_tolerance(pair, P)) {
                g.v[1] = p;
                g.count = 2;
            }
        }
        if (g.count == 1) { // D is a single point: no direction is better than another
            touching_result(s, gjk_v3(1, 0, 0), out);
            return false;
        }
    }
    if (g.count == 2) {
        // Search around the segment, six directions 60° apart, for the point
        // of D farthest off its line.
        gjk_vec3 e = gjk_normalize(gjk_sub(g.v[1].w, g.v[0].w));
        gjk_vec3 u = gjk_epa_perpendicular(e);
        gjk_vec3 t = gjk_cross(e, u);
        const gjk_real c = GJK_R(0.5), sn = GJK_R(0.86602540378443864676);
        gjk_vec3 dirs[6];
        dirs[0] = u;
        dirs[1] = gjk_add(gjk_scale(c, u), gjk_scale(sn, t));
        dirs[2] = gjk_add(gjk_scale(-c, u), gjk_scale(sn, t));
        dirs[3] = gjk_neg(dirs[0]), dirs[4] = gjk_neg(dirs[1]), dirs[5] = gjk_neg(dirs[2]);
        gjk_real best = 0;
        for (int k = 0; k < 6; ++k) {
            gjk_support_point p = epa_support(pair, P, dirs[k]);
            gjk_real off = gjk_length(gjk_cross(gjk_sub(p.w, g.v[0].w), e));
            if (off > best) {
                best = off;
                g.v[2] = p;
                g.count = 3;
            }
        }
        if (!(best > gjk_epa_tolerance(pair, P))) { // D is a segment through the origin
            touching_result(s, u, out);
            return false;
        }
    }
    if (g.count == 4) {
        // A tetrahedron enclosing the origin: orient it outward (by the
        // sign of a volume well inside the normal range, else measured on
        // the scaled points).
        gjk_vec3 q[4] = {g.v[0].w, g.v[1].w, g.v[2].w, g.v[3].w};
        gjk_real vol = tetra_volume(q);
        if (!(gjk_abs(vol) > GJK_SQUARE_MIN && gjk_abs(vol) < GJK_SQUARE_MAX)) {
            scaled_points(&g, q);
            vol = tetra_volume(q);
        }
        if (vol < 0) {
            gjk_support_point tmp = g.v[1];
            g.v[1] = g.v[2];
            g.v[2] = tmp;
        }
        for (int m = 0; m < 4; ++m) {
            P->vert[m] = g.v[m];
        }
        P->vertex_count = 4;
        if (gjk_epa_build_faces(P, GJK_EPA_TETRAHEDRON)) {
            return true;
        }
        // Flat tetrahedron: keep its largest face and go on as a triangle.
        scaled_points(&g, q);
        int drop = 0;
        gjk_real best_area = -1;
        for (int m = 0; m < 4; ++m) {
            int i = (m + 1) & 3, j = (m + 2) & 3, k = (m + 3) & 3;
            gjk_real area = gjk_length(gjk_cross(gjk_sub(q[j], q[i]), gjk_sub(q[k], q[i])));
            if (area > best_area) {
                best_area = area;
                drop = m;
            }
        }
        g.v[drop] = g.v[3];
        g.count = 3;
    }
    // A triangle through (or within tolerance of) the origin: add the support
    // points on both sides of its plane to make a double pyramid.
    gjk_vec3 n = gjk_normalize(gjk_cross(gjk_sub(g.v[1].w, g.v[0].w), gjk_sub(g.v[2].w, g.v[0].w)));
    if (!(gjk_length_sq(n) > 0)) {
        // Collinear points: D is flat along their line, depth 0 across it.
        gjk_vec3 e = gjk_sub(g.v[1].w, g.v[0].w);
        if (gjk_length_sq(e) < gjk_length_sq(gjk_sub(g.v[2].w, g.v[0].w))) {
            e = gjk_sub(g.v[2].w, g.v[0].w);
        }
        touching_result(s, gjk_length_sq(e) > 0 ? gjk_epa_perpendicular(e) : gjk_v3(1, 0, 0), out);
        return false;
    }
    gjk_support_point up = epa_support(pair, P, n);
    gjk_support_point down = epa_support(pair, P, gjk_neg(n));
    gjk_real h_up = gjk_dot(gjk_sub(up.w, g.v[0].w), n);
    gjk_real h_down = gjk_dot(gjk_sub(down.w, g.v[0].w), n);
    gjk_real tol = gjk_epa_tolerance(pair, P);
    if (!(h_up > tol) || !(h_down < -tol)) {
        // D lies on one side of the triangle's plane, which passes through
        // the origin: the cores touch, and the empty side is the normal
        // (the outward normal of D points from A to B).
        touching_result(s, !(h_up > tol) ? n : gjk_neg(n), out);
        return false;
    }
    for (int m = 0; m < 3; ++m) {
        P->vert[m] = g.v[m];
    }
    P->vert[3] = up;
    P->vert[4] = down;
    P->vertex_count = 5;
    // (0, 1, 2) is counter-clockwise seen from +n, where `up` (3) lies.
    if (gjk_epa_build_faces(P, GJK_EPA_BIPYRAMID)) {
        if (bipyramid_convex(P, tol)) {
            return true;
        }
        // The apexes' segment misses the triangle (a tie along ±n, as on
        // the flat top and bottom of two boxes, can pick apexes far to one
        // side): some triangle edge is a reflex fold, and the expansion,
        // whose visible faces are then not one region, left the polytope
        // dented. Two boxes 0.83 deep in float came out "not converged" at
        // 1.48 after two steps. The tetrahedron on the upper side is
        // convex, with the origin on its base (within the tolerance); the
        // lower apex is then added by an expansion step (gjk_epa_run), which
        // builds the hull of the five points.
        P->vertex_count = 4;
        if (gjk_epa_build_faces(P, GJK_EPA_TETRAHEDRON_ON_BASE)) {
            *pending = 4;
            return true;
        }
        // (A base with no area, which the double pyramid's faces had:
        // only rounding can tell them apart.) The double pyramid as it is.
        P->vertex_count = 5;
        if (gjk_epa_build_faces(P, GJK_EPA_BIPYRAMID)) {
            return true;
        }
    }
    // A degenerate double pyramid: take the side along which D reaches less
    // far beyond the plane through the origin.
    touching_result(s, h_up <= -h_down ? n : gjk_neg(n), out);
    return false;
}
