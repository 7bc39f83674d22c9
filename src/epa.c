// The Expanding Polytope Algorithm: the penetration depth of two overlapping
// cores.
//
// The depth is the distance from the origin to the boundary of D = A − B
// (the origin lies inside D). EPA keeps a convex polytope inside D that
// contains the origin, takes its face nearest to the origin, and asks D for
// its support point w along that face's normal n. The face's distance is a
// lower bound of the depth and w·n an upper bound; when they meet within
// the tolerance the face is the answer. Otherwise w is added: the faces that
// see w are removed, and the hole's rim (the horizon) is joined to w.
// (van den Bergen, "Proximity queries and penetration depth computation on 3D
// game objects", GDC 2001, and his book "Collision Detection in
// Interactive 3D Environments", 2003.)
//
// Everything lives in fixed-size arrays on the stack. Faces know their three
// neighbours, so the visible region is found by a flood fill from the
// nearest face with an explicit stack: the region stays connected and the
// horizon comes out as one closed loop, even when rounding makes visibility
// tests disagree. Before a step is committed its new faces are checked
// (non-degenerate, origin inside); a step that fails is undone and the
// current nearest face is returned (or, where that leaves EPA short of its
// tolerance, not converged with the best upper bound on the depth).
#include "internal.h"

enum {
    EPA_MAX_VERTICES = 256,
    EPA_MAX_FACES = 2 * EPA_MAX_VERTICES,
    EPA_MAX_HORIZON = EPA_MAX_VERTICES,
};

typedef struct epa_face {
    int v[3];     ///< Vertex indices, counter-clockwise seen from outside.
    int adj[3];   ///< adj[i]: the face across edge v[i] → v[(i + 1) % 3].
    int adj_edge[3]; ///< adj_edge[i]: that edge's index in face adj[i].
    gjk_vec3 n;   ///< Outward unit normal.
    gjk_real dist;///< Signed distance of the plane from the origin (n·c, c the mean of the vertices).
} epa_face;

typedef struct epa_polytope {
    gjk_support_point vert[EPA_MAX_VERTICES];
    epa_face face[EPA_MAX_FACES];
    /// Each face slot's distance, GJK_REAL_MAX when it is not alive (which
    /// is how a slot is known alive: face_alive). The nearest face is found
    /// over this one array (nearest_face).
    gjk_real key[EPA_MAX_FACES];
    int vertex_count;
    int face_count; ///< Slots used (alive or not).
    int free_list[EPA_MAX_FACES];
    int free_count;
    /// The points' w are stored as w·2^−shift (0 for ordinary sizes), see
    /// choose_shift; their a and b, and so the witnesses, are not scaled.
    int shift;
    gjk_real down; ///< 2^−shift.
} epa_polytope;

/// Whether face slot f holds a face of the polytope (a face's distance is
/// finite: face_plane).
static inline bool face_alive(const epa_polytope *P, int f) { return P->key[f] < GJK_REAL_MAX; }

/// The exponent by which EPA scales D's points (w·2^−shift): that of the
/// largest of the pair's size and the simplex's coordinates, when it is
/// huge or tiny (gjk_range_shift), else 0. A face's normal and area are
/// quadratic in the coordinates: face_plane's slow path normalises a cross
/// product that is still finite, but across the largest numbers the edges
/// themselves overflow (an ellipsoid of radius 1.8e308 left EPA with no
/// direction at all, boxes of size 2^510 with no face of any area, which
/// read as touching). Scaled near 1 they do not, and scaling by a power of
/// two is exact, so ordinary sizes are solved as before and the others as
/// their scaled copies.
static int choose_shift(const gjk_pair *pair, const gjk_simplex *s) {
    gjk_real m = pair->scale;
    for (int i = 0; i < s->count; ++i) {
        m = gjk_max(m, gjk_max_abs(s->v[i].w));
    }
    int shift = gjk_range_shift(m);
    if (shift < 0) {
        // Scaling up: the points seen so far may be far smaller than those
        // EPA is yet to meet (a flat polytope of thickness 2^−520 and width
        // 1, whose first vertex, all a polytope's size counts, is on the
        // thin side: its unit points, scaled by 2^520, overflowed, and a
        // point inside got the normal along its width). Bounded by the
        // pair's whole extent (rare: only tiny pairs come here).
        m = gjk_max(m, gjk_max_abs(pair->pos_b) + gjk_shape_bound(pair->a) + gjk_shape_bound(pair->b));
        shift = gjk_range_shift(m);
    }
    return shift;
}

/// w·2^−shift, exactly (but for underflow).
static gjk_vec3 shifted(gjk_vec3 w, int shift) {
    return gjk_v3(gjk_ldexp(w.x, -shift), gjk_ldexp(w.y, -shift), gjk_ldexp(w.z, -shift));
}

/// D's support point along d, its w in the polytope's units.
static gjk_support_point epa_support(gjk_pair *pair, const epa_polytope *P, gjk_vec3 d) {
    gjk_support_point p = gjk_pair_support(pair, d);
    p.w = gjk_scale(P->down, p.w);
    return p;
}

/// The pair's tolerance (read again after each support call: it grows with
/// the points seen) in the polytope's units.
static gjk_real epa_tolerance(const gjk_pair *pair, const epa_polytope *P) {
    return P->down * gjk_pair_tolerance(pair);
}

static int next3(int i) { return i == 2 ? 0 : i + 1; }

/// Normal and distance of face (a, b, c); false when it has no area.
static GJK_INLINE bool face_plane(const epa_polytope *P, int a, int b, int c, gjk_vec3 *n, gjk_real *dist) {
#if GJK_USE_FLOAT
    // In float, in double: a float cross product carries ε|e1||e2| in each
    // component, which tips a sliver's normal by ε/sin θ, and its plane
    // then misses the origin's distance by |p| times that, far beyond the
    // tolerance of 16 ε (cones against cylinders 0.1 deep, poses within
    // 4 units in the last place of the regression cases in
    // test_float_epa_broken_polytope: 61 of 2000 answers beyond 2e-5 of
    // the double build's, up to 3.6e-5; 10 now, up to 2.06e-5:
    // test_float_epa_sliver_planes). In
    // double the differences and products round at 2^-53 (a difference of
    // two floats is exact in double only when their exponents are close,
    // and the products are of those differences), so the normal's error,
    // about 2^-53 |e1||e2| / |n|, is far below float's ε, and the plane's
    // distance a lower bound again. Float coordinates' squares and
    // fourth powers stay in double's range, so no rescaled path is needed.
    // (A GPU build of float would pay double arithmetic here; see
    // docs/design.md.)
    const gjk_vec3 fa = P->vert[a].w, fb = P->vert[b].w, fc = P->vert[c].w;
    double ax = fa.x, ay = fa.y, az = fa.z, bx = fb.x, by = fb.y, bz = fb.z, cx = fc.x, cy = fc.y, cz = fc.z;
    double e1x = bx - ax, e1y = by - ay, e1z = bz - az, e2x = cx - ax, e2y = cy - ay, e2z = cz - az;
    double nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
    double l2 = nx * nx + ny * ny + nz * nz;
    double r2 = (e1x * e1x + e1y * e1y + e1z * e1z) * (e2x * e2x + e2y * e2y + e2z * e2z);
    if (!(l2 > (double)GJK_REAL_EPSILON * (double)GJK_REAL_EPSILON * r2) || !(l2 > 0)) {
        return false;
    }
    double inv = 1 / sqrt(l2);
    double sum = nx * (ax + bx + cx) + ny * (ay + by + cy) + nz * (az + bz + cz);
    *n = gjk_v3((gjk_real)(nx * inv), (gjk_real)(ny * inv), (gjk_real)(nz * inv));
    *dist = (gjk_real)(sum * inv / 3);
    return true;
#else
    gjk_vec3 pa = P->vert[a].w, pb = P->vert[b].w, pc = P->vert[c].w;
    gjk_vec3 e1 = gjk_sub(pb, pa), e2 = gjk_sub(pc, pa);
    gjk_vec3 cr = gjk_cross(e1, e2);
    // cr is quadratic in the coordinates, so cr·cr overflows above
    // GJK_REAL_MAX^(1/4) (and loses its digits below GJK_REAL_MIN^(1/4)):
    // then |cr| = u·cr with u = cr normalised by its largest component first.
    gjk_real len2 = gjk_dot(cr, cr);
    // Relative area test: |cross| against the edge lengths' product, in
    // squares where they are in range (no square roots), else as lengths.
    gjk_real ref2 = gjk_dot(e1, e1) * gjk_dot(e2, e2);
    // The plane's distance at the vertices' centroid: the mean of the
    // three, each off by the normal's rounding times its lever. In range,
    // taken from cr and scaled once by 1/(3|cr|), so that the dot products
    // need not wait for the square root and the division (whose latency
    // was a quarter of an EPA step between ellipsoids); the mean as a
    // product by 1/3 for the same reason.
    const gjk_real third = GJK_R(1.0) / 3;
    if (len2 >= GJK_SQUARE_MIN && len2 <= GJK_SQUARE_MAX && ref2 <= GJK_REAL_MAX) {
        if (!(len2 > GJK_REAL_EPSILON * GJK_REAL_EPSILON * ref2)) {
            return false;
        }
        gjk_real sum = gjk_dot(cr, pa) + gjk_dot(cr, pb) + gjk_dot(cr, pc);
        gjk_real inv = 1 / gjk_sqrt(len2);
        *n = gjk_scale(inv, cr);
        *dist = sum * (inv * third);
        return true;
    }
    gjk_vec3 u = gjk_normalize(cr);
    gjk_real len = gjk_dot(u, cr);
    gjk_real ref = gjk_length(e1) * gjk_length(e2);
    if (!(len > GJK_REAL_EPSILON * ref) || !(len > 0)) {
        return false;
    }
    *n = u;
    *dist = (gjk_dot(u, pa) + gjk_dot(u, pb) + gjk_dot(u, pc)) * third;
    return true;
#endif
}

static int alloc_face(epa_polytope *P) {
    if (P->free_count > 0) {
        return P->free_list[--P->free_count];
    }
    if (P->face_count >= EPA_MAX_FACES) {
        return -1;
    }
    return P->face_count++;
}

/// A closed triangle list (3 indices each, outward winding) with its
/// neighbour table: across edge i of face f (v[i] → v[i + 1]) lies face
/// adj[3f + i], in which that edge is edge edge[3f + i]. The two starting
/// shapes are fixed, so their tables are constants (each edge a → b is
/// matched by the opposite edge b → a of exactly one other face).
typedef struct epa_shape {
    int count;
    int tri[18], adj[18], edge[18];
} epa_shape;

static const epa_shape EPA_TETRAHEDRON = {
    4,
    {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3},
    {2, 3, 1, 0, 3, 2, 1, 3, 0, 0, 2, 1},
    {2, 0, 0, 2, 2, 0, 2, 1, 0, 1, 1, 1},
};

// (0, 1, 2) is counter-clockwise seen from the apex 3; 4 is the other apex.
static const epa_shape EPA_BIPYRAMID = {
    6,
    {0, 1, 3, 1, 2, 3, 2, 0, 3, 1, 0, 4, 2, 1, 4, 0, 2, 4},
    {3, 1, 2, 4, 2, 0, 5, 0, 1, 0, 5, 4, 1, 3, 5, 2, 4, 3},
    {0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1},
};

// The tetrahedron of the triangle (0, 1, 2), counter-clockwise seen from
// the apex 3, and that apex: the upper half of EPA_BIPYRAMID, closed by the
// triangle itself (face 3, seen from below).
static const epa_shape EPA_TETRAHEDRON_ON_BASE = {
    4,
    {0, 1, 3, 1, 2, 3, 2, 0, 3, 1, 0, 2},
    {3, 1, 2, 3, 2, 0, 3, 0, 1, 0, 2, 1},
    {0, 2, 1, 2, 2, 1, 1, 2, 1, 0, 0, 0},
};

/// Builds the faces of a starting shape; false when one has no area.
static bool build_faces(epa_polytope *P, const epa_shape *shape) {
    for (int f = 0; f < shape->count; ++f) {
        epa_face *F = &P->face[f];
        for (int i = 0; i < 3; ++i) {
            F->v[i] = shape->tri[3 * f + i];
            F->adj[i] = shape->adj[3 * f + i];
            F->adj_edge[i] = shape->edge[3 * f + i];
        }
        if (!face_plane(P, F->v[0], F->v[1], F->v[2], &F->n, &F->dist)) {
            return false;
        }
        P->key[f] = F->dist;
    }
    P->face_count = shape->count;
    P->free_count = 0;
    return true;
}

/// Whether the double pyramid built from EPA_BIPYRAMID is convex: across
/// each edge of the triangle (0, 1, 2), each apex lies below (within tol)
/// the plane of the other apex's face on that edge. (The edges to an apex
/// join two faces of one tetrahedron, convex by itself.)
static bool bipyramid_convex(const epa_polytope *P, gjk_real tol) {
    for (int f = 0; f < 6; ++f) {
        const epa_face *F = &P->face[f];
        gjk_vec3 apex = P->vert[f < 3 ? 4 : 3].w;
        if (!(gjk_dot(F->n, apex) - F->dist <= tol)) {
            return false;
        }
    }
    return true;
}

/// Whether w is one of the polytope's vertices (exactly).
static bool has_vertex(const epa_polytope *P, gjk_vec3 w) {
    for (int m = 0; m < P->vertex_count; ++m) {
        gjk_vec3 v = P->vert[m].w;
        if (v.x == w.x && v.y == w.y && v.z == w.z) {
            return true;
        }
    }
    return false;
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

/// A unit vector perpendicular to e (e ≠ 0).
static gjk_vec3 any_perpendicular(gjk_vec3 e) {
    gjk_real ax = gjk_abs(e.x), ay = gjk_abs(e.y), az = gjk_abs(e.z);
    gjk_vec3 axis = ax <= ay && ax <= az ? gjk_v3(1, 0, 0) : (ay <= az ? gjk_v3(0, 1, 0) : gjk_v3(0, 0, 1));
    return gjk_normalize(gjk_cross(e, axis));
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
static GJK_NOINLINE bool initial_polytope(gjk_pair *pair, const gjk_simplex *s, epa_polytope *P,
                                          gjk_epa_result *out, int *pending) {
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
            if (gjk_length(gjk_sub(p.w, g.v[0].w)) > epa_tolerance(pair, P)) {
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
        gjk_vec3 u = any_perpendicular(e);
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
        if (!(best > epa_tolerance(pair, P))) { // D is a segment through the origin
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
        if (build_faces(P, &EPA_TETRAHEDRON)) {
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
        touching_result(s, gjk_length_sq(e) > 0 ? any_perpendicular(e) : gjk_v3(1, 0, 0), out);
        return false;
    }
    gjk_support_point up = epa_support(pair, P, n);
    gjk_support_point down = epa_support(pair, P, gjk_neg(n));
    gjk_real h_up = gjk_dot(gjk_sub(up.w, g.v[0].w), n);
    gjk_real h_down = gjk_dot(gjk_sub(down.w, g.v[0].w), n);
    gjk_real tol = epa_tolerance(pair, P);
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
    if (build_faces(P, &EPA_BIPYRAMID)) {
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
        if (build_faces(P, &EPA_TETRAHEDRON_ON_BASE)) {
            *pending = 4;
            return true;
        }
        // (A base with no area, which the double pyramid's faces had:
        // only rounding can tell them apart.) The double pyramid as it is.
        P->vertex_count = 5;
        if (build_faces(P, &EPA_BIPYRAMID)) {
            return true;
        }
    }
    // A degenerate double pyramid: take the side along which D reaches less
    // far beyond the plane through the origin.
    touching_result(s, h_up <= -h_down ? n : gjk_neg(n), out);
    return false;
}

/// The witness points of a point x of the polytope's boundary on (or, by
/// rounding, beside) face `first`: the barycentric coordinates of x on the
/// face whose plane holds x (within tol) and whose triangle comes nearest
/// to it give points of A and B with point_a − point_b = x. On a flat facet
/// of D split into coplanar triangles (or a polytope dented by rounding) x
/// may lie in a neighbour of `first`.
static void witness_at(const epa_polytope *P, int first, gjk_vec3 x, gjk_real tol, gjk_vec3 *pa, gjk_vec3 *pb) {
    gjk_real best_miss = GJK_REAL_MAX;
    gjk_real lam[3], pick_lam[3] = {1, 0, 0};
    int pick = first;
    // The faces whose planes pass within tol of x; when none of their
    // triangles comes within tol of it, every face: the nearest "face" may
    // be a sliver of three nearly collinear points on a curved rim (a
    // cylinder with a margin and a point inside, as deep below its top as
    // inside its side), whose plane, fixed by their sagitta, lies 2.3e-8 to
    // 1e-5 nearer than the flat top, and whose triangle is far from the
    // foot x of the origin on that plane: the witnesses came out up to 3.9
    // across the normal (1111 of 6000 such answers). The triangle of the
    // polytope nearest x then gives them, off x by that plane's offset.
    for (int pass = 0; pass < 2 && best_miss > tol; ++pass) {
        gjk_real band = pass == 0 ? tol : GJK_REAL_MAX;
        for (int f = 0; f < P->face_count; ++f) {
            const epa_face *F = &P->face[f];
            if (!face_alive(P, f) || (f != first && gjk_abs(gjk_dot(F->n, x) - F->dist) > band)) {
                continue;
            }
            // The triangle's point nearest x: its point nearest the origin
            // once moved by −x.
            gjk_vec3 c = gjk_triangle_closest(gjk_sub(P->vert[F->v[0]].w, x), gjk_sub(P->vert[F->v[1]].w, x),
                                              gjk_sub(P->vert[F->v[2]].w, x), lam);
            gjk_real miss = gjk_length(c);
            if (miss < best_miss) {
                best_miss = miss;
                pick = f;
                pick_lam[0] = lam[0], pick_lam[1] = lam[1], pick_lam[2] = lam[2];
            }
        }
    }
    const epa_face *F = &P->face[pick];
    const gjk_support_point *a = &P->vert[F->v[0]], *b = &P->vert[F->v[1]], *c = &P->vert[F->v[2]];
    *pa = gjk_add(gjk_add(gjk_scale(pick_lam[0], a->a), gjk_scale(pick_lam[1], b->a)), gjk_scale(pick_lam[2], c->a));
    *pb = gjk_add(gjk_add(gjk_scale(pick_lam[0], a->b), gjk_scale(pick_lam[1], b->b)), gjk_scale(pick_lam[2], c->b));
}

/// Fills *out from the nearest face `best`: its normal and distance, and the
/// witness points of the origin's foot on its plane (witness_at).
static void face_result(const epa_polytope *P, int best, gjk_real tol, gjk_epa_result *out) {
    const epa_face *B = &P->face[best];
    witness_at(P, best, gjk_scale(B->dist, B->n), tol, &out->point_a, &out->point_b);
    out->normal = B->n;
    out->depth = B->dist > 0 ? B->dist : 0;
}

/// The witness points of an answer converged by its bounds (gjk_epa_run):
/// those of the point t·n where the ray from the origin along the normal n
/// leaves the polytope (t = dist_f / n_f·n, least over the faces f facing
/// n). The polytope lies in D and encloses the origin, so t lies between the
/// nearest face's distance and D's support along n: within the bounds' gap
/// of the depth (the tolerance; 1e3 of it after a stall, see gjk_epa_run),
/// and point_a − point_b = t·n as gjk.h promises. The support
/// points along n would not do: they differ by depth·n plus a part across
/// n, which is large where D is flat across n (a cylinder's side: any point
/// of a vertical line of its rim).
static void ray_witness(const epa_polytope *P, gjk_vec3 n, gjk_real tol, gjk_epa_result *out) {
    int hit = -1;
    gjk_real best = GJK_REAL_MAX;
    for (int f = 0; f < P->face_count; ++f) {
        const epa_face *F = &P->face[f];
        gjk_real c = gjk_dot(F->n, n);
        if (face_alive(P, f) && c > 0 && F->dist / c < best) {
            best = F->dist / c;
            hit = f;
        }
    }
    if (hit >= 0) {
        witness_at(P, hit, gjk_scale(best, n), tol, &out->point_a, &out->point_b);
    }
}

/// Scratch space of one expansion step.
typedef struct epa_step {
    int horizon_face[EPA_MAX_HORIZON], horizon_edge[EPA_MAX_HORIZON];
    int horizon_count;
    int removed[EPA_MAX_FACES];
    int removed_count;
    int stack_face[2 * EPA_MAX_FACES + 3], stack_edge[2 * EPA_MAX_FACES + 3];
    gjk_vec3 new_n[EPA_MAX_HORIZON];
    gjk_real new_dist[EPA_MAX_HORIZON];
    int face_of_start[EPA_MAX_VERTICES]; ///< Kept -1 between steps (for the vertices so far).
} epa_step;

/// Whether the step planned in S (plan_step, once it has found one loop)
/// keeps the polytope convex, where that is in doubt. Where w lies on a
/// face's plane within rounding, which faces see it is a coin toss, and a
/// toss can leave a horizon edge on a straight line through w (D's support
/// points tie over its flat facets: they need not be D's vertices), so that
/// w lies on the planes of both faces at that edge. The new face on it is
/// then a sliver whose normal is noise, and the polytope came out dented (a
/// vertex 0.40 above a new face; EPA then stopped "not converged", 0.43 too
/// deep). So where a horizon edge has w on both its faces' planes, each
/// new edge must be convex: across the horizon edge a → b, the kept face's
/// third vertex lies below the new face (b, a, w); across a → w, the next
/// new face (a, a', w) and this one each have the other's third vertex
/// below them. (A closed surface convex at every edge is convex.) Out of
/// line: plan_step calls it only when w lies on a kept face's plane.
static GJK_NOINLINE bool horizon_convex(const epa_polytope *P, int wi, gjk_real tol, const epa_step *S) {
    gjk_vec3 w = P->vert[wi].w;
    int hc = S->horizon_count;
    bool near = false;
    for (int h = 0; !near && h < hc; ++h) {
        const epa_face *G = &P->face[S->horizon_face[h]], *R = &P->face[G->adj[S->horizon_edge[h]]];
        near = gjk_abs(gjk_dot(G->n, gjk_sub(w, P->vert[G->v[0]].w))) <= tol &&
               gjk_abs(gjk_dot(R->n, gjk_sub(w, P->vert[R->v[0]].w))) <= tol;
    }
    bool ok = true;
    for (int h = 0; ok && near && h < hc; ++h) {
        const epa_face *G = &P->face[S->horizon_face[h]];
        int e = S->horizon_edge[h], a = G->v[e], b = G->v[next3(e)], c = G->v[next3(next3(e))];
        int k = S->face_of_start[a];
        int a2 = P->face[S->horizon_face[k]].v[S->horizon_edge[k]];
        ok = gjk_dot(S->new_n[h], P->vert[c].w) - S->new_dist[h] <= tol &&
             gjk_dot(S->new_n[h], P->vert[a2].w) - S->new_dist[h] <= tol &&
             gjk_dot(S->new_n[k], P->vert[b].w) - S->new_dist[k] <= tol;
    }
    return ok;
}

/// Undoes a plan: the start marks of the first `set` horizon edges, and
/// the removed faces brought back.
static void plan_undo_first(epa_polytope *P, epa_step *S, int set) {
    for (int h = 0; h < set; ++h) {
        const epa_face *G = &P->face[S->horizon_face[h]];
        S->face_of_start[G->v[next3(S->horizon_edge[h])]] = -1;
    }
    for (int r = 0; r < S->removed_count; ++r) {
        P->key[S->removed[r]] = P->face[S->removed[r]].dist;
    }
}

/// Plans adding vertex wi: removes the faces that see it (a face counts as
/// seeing it when wi lies more than `vis` above its plane), finds the
/// horizon and checks the new faces (wi, b, a) on each horizon edge a → b:
/// each must have area, keep the origin inside (within tol), and the horizon
/// must be one loop. On failure every face is restored and false returned.
static bool plan_step(epa_polytope *P, int best, int wi, gjk_real vis, gjk_real tol, epa_step *S) {
    gjk_vec3 w = P->vert[wi].w;
    int top = 0;
    bool ok = true;
    // w's greatest height over the faces kept at the horizon (at most vis,
    // and vis is at most tol): at least −tol when w lies on one's plane.
    gjk_real kept_top = -GJK_REAL_MAX;
    S->horizon_count = 0;
    S->removed_count = 0;
    epa_face *F = &P->face[best];
    P->key[best] = GJK_REAL_MAX;
    S->removed[S->removed_count++] = best;
    for (int i = 2; i >= 0; --i) {
        S->stack_face[top] = F->adj[i];
        S->stack_edge[top] = F->adj_edge[i];
        ++top;
    }
    // Depth-first over the neighbours: the horizon comes out in loop order.
    while (top > 0) {
        --top;
        int g = S->stack_face[top], e = S->stack_edge[top];
        epa_face *G = &P->face[g];
        if (!face_alive(P, g)) {
            continue;
        }
        gjk_real height = gjk_dot(G->n, gjk_sub(w, P->vert[G->v[0]].w));
        if (height > vis) {
            P->key[g] = GJK_REAL_MAX;
            S->removed[S->removed_count++] = g;
            // The two other edges, the next one (e + 1) popped first.
            int i1 = next3(e), i2 = next3(i1);
            S->stack_face[top] = G->adj[i2];
            S->stack_edge[top] = G->adj_edge[i2];
            S->stack_face[top + 1] = G->adj[i1];
            S->stack_edge[top + 1] = G->adj_edge[i1];
            top += 2;
        } else if (S->horizon_count < EPA_MAX_HORIZON) {
            kept_top = gjk_max(kept_top, height);
            S->horizon_face[S->horizon_count] = g;
            S->horizon_edge[S->horizon_count] = e;
            ++S->horizon_count;
        } else {
            ok = false;
        }
    }
    int hc = S->horizon_count;
    int free_slots = P->free_count + (EPA_MAX_FACES - P->face_count) + S->removed_count;
    ok = ok && hc >= 3 && free_slots >= hc;
    int set = 0;
    for (int h = 0; ok && h < hc; ++h, ++set) {
        const epa_face *G = &P->face[S->horizon_face[h]];
        int a = G->v[S->horizon_edge[h]], b = G->v[next3(S->horizon_edge[h])];
        if (!face_plane(P, b, a, wi, &S->new_n[h], &S->new_dist[h]) || S->new_dist[h] < -tol ||
            S->face_of_start[b] >= 0) {
            ok = false;
        }
        S->face_of_start[b] = h; // each horizon vertex starts one edge
    }
    for (int h = 0; ok && h < hc; ++h) { // and ends one: a single loop
        const epa_face *G = &P->face[S->horizon_face[h]];
        ok = S->face_of_start[G->v[S->horizon_edge[h]]] >= 0;
    }
    // A horizon where w lies on a kept face's plane within tol
    // (horizon_convex) is checked for convexity.
    ok = ok && (kept_top < -tol || horizon_convex(P, wi, tol, S));
    if (!ok) {
        plan_undo_first(P, S, set);
    }
    return ok;
}

/// Undoes a step that plan_step planned (it changed nothing but these).
static void plan_undo(epa_polytope *P, epa_step *S) { plan_undo_first(P, S, S->horizon_count); }

/// Applies a planned step: recycles the removed faces, joins each horizon
/// edge a → b to wi with a new face (b, a, wi) and links the new faces.
static void commit_step(epa_polytope *P, int wi, epa_step *S) {
    int new_face[EPA_MAX_HORIZON];
    for (int r = 0; r < S->removed_count; ++r) {
        P->free_list[P->free_count++] = S->removed[r];
    }
    ++P->vertex_count;
    for (int h = 0; h < S->horizon_count; ++h) {
        new_face[h] = alloc_face(P);
    }
    for (int h = 0; h < S->horizon_count; ++h) {
        epa_face *G = &P->face[S->horizon_face[h]];
        int e = S->horizon_edge[h];
        epa_face *N = &P->face[new_face[h]];
        N->v[0] = G->v[next3(e)], N->v[1] = G->v[e], N->v[2] = wi;
        N->n = S->new_n[h];
        N->dist = S->new_dist[h];
        P->key[new_face[h]] = N->dist;
        N->adj[0] = S->horizon_face[h];
        N->adj_edge[0] = e;
        G->adj[e] = new_face[h];
        G->adj_edge[e] = 0;
    }
    for (int h = 0; h < S->horizon_count; ++h) {
        epa_face *N = &P->face[new_face[h]];
        // Edge a → wi is shared with the new face whose edge wi → a closes
        // it, which is the new face that starts at a.
        int next = new_face[S->face_of_start[N->v[1]]];
        N->adj[1] = next;
        N->adj_edge[1] = 2;
        P->face[next].adj[2] = new_face[h];
        P->face[next].adj_edge[2] = 1;
    }
    for (int h = 0; h < S->horizon_count; ++h) {
        S->face_of_start[P->face[new_face[h]].v[0]] = -1;
    }
}

/// The nearest live face: the first slot with the least key. The least
/// value first, with the least of each block of four slots kept, then the
/// first block that holds it and its slot there: about 4 instructions a
/// slot, where a running (value, index) pair took 11 (no index to carry,
/// no unpredictable branch but the two short searches at the end).
static int nearest_face(const epa_polytope *P) {
    const gjk_real *key = P->key;
    gjk_real block[EPA_MAX_FACES / 4];
    int n = P->face_count, blocks = n / 4;
    gjk_real m = GJK_REAL_MAX;
    for (int j = 0; j < blocks; ++j) {
        const gjk_real *k = key + 4 * j;
        block[j] = gjk_min(gjk_min(k[0], k[1]), gjk_min(k[2], k[3]));
        m = gjk_min(block[j], m);
    }
    for (int f = 4 * blocks; f < n; ++f) {
        m = gjk_min(key[f], m);
    }
    int j = 0;
    while (j < blocks && block[j] != m) {
        ++j;
    }
    int best = 4 * j;
    while (best < n - 1 && key[best] != m) {
        ++best;
    }
    return best;
}

/// Reports one EPA iteration to the trace callback, with the polytope in
/// world orientation: the nearest face's plane (unit normal fn, distance
/// fd), the direction n searched (fn, or a halo step's) and its support
/// point w. Kept out of line so its arrays live on the stack only while
/// tracing.
static GJK_NOINLINE void trace_iteration(const gjk_pair *pair, const epa_polytope *P, gjk_vec3 fn, gjk_real fd,
                                         gjk_vec3 n, int iteration, gjk_vec3 w) {
    gjk_vec3 verts[EPA_MAX_VERTICES];
    int faces[EPA_MAX_FACES][3];
    int nf = 0;
    for (int m = 0; m < P->vertex_count; ++m) {
        verts[m] = gjk_mat3_mul(pair->rot_a, shifted(P->vert[m].w, -P->shift));
    }
    for (int f = 0; f < P->face_count; ++f) {
        if (face_alive(P, f)) {
            faces[nf][0] = P->face[f].v[0], faces[nf][1] = P->face[f].v[1], faces[nf][2] = P->face[f].v[2];
            ++nf;
        }
    }
    gjk_trace_event ev = {0};
    ev.phase = GJK_TRACE_EPA;
    ev.iteration = iteration;
    gjk_real lower = gjk_ldexp(fd, P->shift), upper = gjk_ldexp(gjk_dot(w, n), P->shift);
    ev.closest = gjk_mat3_mul(pair->rot_a, gjk_scale(lower, fn));
    ev.direction = gjk_mat3_mul(pair->rot_a, n);
    ev.support = gjk_mat3_mul(pair->rot_a, shifted(w, -P->shift));
    ev.lower = lower;
    ev.upper = upper;
    ev.vertex_count = P->vertex_count;
    ev.vertices = verts;
    ev.face_count = nf;
    ev.faces = (const int(*)[3])faces;
    pair->trace(pair->trace_data, &ev);
}

// ---- Halo steps (curved D) ---------------------------------------------
//
// On a curved D, EPA converges only linearly: each support point along the
// nearest face's normal lands beside the closest point x* of D's boundary,
// not on it, and the faces around x* shrink by a fixed factor an
// iteration, and so does their sag below the surface (the gap between the
// face's distance and the support bound; 0.58 an iteration on a traced
// pose): two ellipsoids 1e-3 deep took 28 iterations on average to the
// default tolerance. A halo step puts three support points around x*
// instead, close enough that the triangle they make sags below the surface
// by less than the tolerance: the next nearest face is then that triangle,
// and the next support point closes the gap. Two ellipsoids (radii 1, 0.6,
// 0.4 and 0.8, 0.5, 0.3) in 60 random poses: 20.5 → 7.9 iterations 1e-5
// deep, 28.2 → 15.5 at 1e-3, 32.7 → 21.9 at 1e-2, 34.7 → 31.0 at 3e-2, the
// answers as close to a reference at 1e-13 as before (within 1.5
// tolerances); an ellipsoid against a cylinder 21.4 → 15.4 at 1e-3
// (docs/design.md, "Halo steps").
//
// Where x* lies: each vertex w_i of the nearest face is D's support point
// along its unit direction u_i, and to first order the support point moves
// linearly with the direction (x(u) ≈ x(u_0) + R (u − u_0), R the radii of
// curvature of D). On the face's affine patch, W(λ) = Σ λ_i w_i and
// U(λ) = Σ λ_i u_i (Σ λ_i = 1), the closest point satisfies W ∥ U (the
// support point lies along its own direction from the origin, at the
// depth): W × U = 0, solved by Gauss–Newton from the barycentric
// coordinates of the origin's foot on the face. (The foot itself puts W
// along the face's normal, not along U: off by about depth/R times the
// face's tilt; 1e-2-deep ellipsoids took 27.1 iterations from the foot,
// 21.9 from the solve. A sphere's patch gives x* exactly.) n = U(λ)/|U(λ)|.
// How close: a triangle of size s sags by about κ s²/8. The face's own sag
// is its gap g, at a size α (the spread of its directions u_i, in
// radians, times R), so a halo of angular radius
//     δ = α √(tol / (4 g))
// sags by about tol/4. Its three directions are n tilted by δ toward three
// directions 120° apart; their support points are added to the polytope
// like any other (the face that sees each most is removed first), each
// counting as an iteration; one that no face sees beyond the tolerance is
// dropped. A halo whose triangle misses the foot (n farther off than δ)
// only adds three true points of D near x*: the iterations go on.
//
// When: once per run, when the gap has fallen below 0.3 √(tol · size)
// (about 3e-6 of the size at the default tolerance, where the faces are
// small enough for the patch's model) but not below 64 tol (within a few
// tolerances of touching EPA ends in 3 to 5 iterations, and the halo's
// three calls cost more: a review, 4.6 → 5.5 iterations 1e-9 deep), while
// the nearest face lies within 1/64 of the size (the pair's scale: the
// largest coordinate of D's points seen): at depths of 0.1 to 0.5 of the
// size many faces far from x* lie nearly as near (the depth varies little
// with the direction there), all of which EPA must refine, and the halo
// cost 2 to 11 iterations more (the ellipsoid pairs above, 60 poses each).
// Only where a core is an ellipsoid, and every ellipsoid core is round
// within a factor 32 of its radii: between cones, cylinders, boxes and
// hulls, whose D is flat or ruled in places, it saved little or cost (a
// cone and a box 1e-3 deep: 7.5 iterations before, 9.2 with it), and on an
// ellipsoid of radii 1, 1, 1e-3, or 1, 1e-3, 1e-3, one angular radius does
// not fit both curvatures (the review: 13.5 → 16.1 iterations against a
// box 1e-7 deep; a cigar of 1, 0.05, 0.05 gains, 27.1 → 16.9 at 1e-3).

/// Adds support point w (in the polytope's units) as the next vertex,
/// planned from the face that sees it most (plan_step, with the same
/// fallbacks as EPA's own steps); false, and the point dropped, when no
/// face sees it beyond tol or no consistent step exists.
static bool add_point(epa_polytope *P, gjk_support_point w, gjk_real tol, epa_step *S) {
    int top = -1;
    gjk_real height = tol;
    for (int f = 0; f < P->face_count; ++f) {
        if (face_alive(P, f)) {
            gjk_real h = gjk_dot(P->face[f].n, w.w) - P->face[f].dist;
            if (h > height) {
                height = h;
                top = f;
            }
        }
    }
    if (top < 0) {
        return false;
    }
    int wi = P->vertex_count;
    P->vert[wi] = w;
    S->face_of_start[wi] = -1;
    if (!plan_step(P, top, wi, 0, tol, S) && !plan_step(P, top, wi, -tol, tol, S) &&
        !plan_step(P, top, wi, tol, tol, S)) {
        return false;
    }
    // A face left that sees w beyond tol (rounding made the visible faces
    // two regions, and the flood fill from `top` found one): the step would
    // dent the polytope (a review: a flat ellipsoid of radii 1000, 1000, 1
    // against a box at a tolerance of 1e-12 left a vertex 158 above a face
    // after a halo point, and EPA ended not converged 2e4 tolerances off).
    // Such a point is dropped. (EPA's own steps can dent it too: the review
    // counted 335 runs of 40,000 with a vertex over 1e6 tolerances above a
    // face, flat ellipsoids against boxes and hulls, before the halo; this
    // scan of every face is not made on them.)
    for (int f = 0; f < P->face_count; ++f) {
        if (face_alive(P, f) && gjk_dot(P->face[f].n, w.w) - P->face[f].dist > tol) {
            plan_undo(P, S);
            return false;
        }
    }
    commit_step(P, wi, S);
    return true;
}

/// The direction n of the closest point on the affine patch of face F
/// (see "Halo steps") and the angular spread *alpha of F's directions;
/// false where the patch gives none (a vertex that is no bound, a singular
/// step, or a solution far outside the face).
static bool halo_centre(const epa_polytope *P, const epa_face *F, gjk_vec3 *n, gjk_real *alpha) {
    const gjk_support_point *p[3] = {&P->vert[F->v[0]], &P->vert[F->v[1]], &P->vert[F->v[2]]};
    if (!p[0]->bounds || !p[1]->bounds || !p[2]->bounds || !(gjk_length_sq(p[0]->d) > 0) ||
        !(gjk_length_sq(p[1]->d) > 0) || !(gjk_length_sq(p[2]->d) > 0)) {
        return false;
    }
    gjk_vec3 x = gjk_scale(F->dist, F->n);
    gjk_real lam[3];
    (void)gjk_triangle_closest(gjk_sub(p[0]->w, x), gjk_sub(p[1]->w, x), gjk_sub(p[2]->w, x), lam);
    gjk_vec3 u0 = gjk_normalize(p[0]->d), u1 = gjk_normalize(p[1]->d), u2 = gjk_normalize(p[2]->d);
    gjk_vec3 dw1 = gjk_sub(p[1]->w, p[0]->w), dw2 = gjk_sub(p[2]->w, p[0]->w);
    gjk_vec3 du1 = gjk_sub(u1, u0), du2 = gjk_sub(u2, u0);
    gjk_real l1 = lam[1], l2 = lam[2];
    for (int it = 0; it < 3; ++it) {
        // r = W × U and its derivatives along λ1 and λ2; the step solves
        // the normal equations of J δ = −r (r has rank 2: r ⊥ U).
        gjk_vec3 W = gjk_add(p[0]->w, gjk_add(gjk_scale(l1, dw1), gjk_scale(l2, dw2)));
        gjk_vec3 U = gjk_add(u0, gjk_add(gjk_scale(l1, du1), gjk_scale(l2, du2)));
        gjk_vec3 r = gjk_cross(W, U);
        gjk_vec3 j1 = gjk_add(gjk_cross(dw1, U), gjk_cross(W, du1));
        gjk_vec3 j2 = gjk_add(gjk_cross(dw2, U), gjk_cross(W, du2));
        gjk_real a11 = gjk_dot(j1, j1), a12 = gjk_dot(j1, j2), a22 = gjk_dot(j2, j2);
        gjk_real b1 = -gjk_dot(j1, r), b2 = -gjk_dot(j2, r);
        gjk_real det = a11 * a22 - a12 * a12;
        if (!(det > 0)) {
            return false;
        }
        l1 += (b1 * a22 - b2 * a12) / det;
        l2 += (a11 * b2 - a12 * b1) / det;
    }
    gjk_real l0 = 1 - l1 - l2;
    gjk_vec3 U = gjk_add(gjk_scale(l0, u0), gjk_add(gjk_scale(l1, u1), gjk_scale(l2, u2)));
    // U = 0 solves W × U = 0 too (opposite directions: a review's direct
    // calls on such faces got n = 0): a mean of unit directions that spread
    // little has a length near 1.
    if (!(l0 > -1 && l1 > -1 && l2 > -1) || !(gjk_length_sq(U) > GJK_R(0.25))) {
        return false; // (NaN included)
    }
    *n = gjk_normalize(U);
    *alpha = gjk_max(gjk_max(gjk_length(gjk_sub(u0, *n)), gjk_length(gjk_sub(u1, *n))), gjk_length(gjk_sub(u2, *n)));
    return gjk_is_valid_vec3(*n) && *alpha > 0;
}

/// The running upper bound on the depth (gjk_epa_run's): the least overlap
/// w·n seen along a unit direction n, with its support point.
typedef struct epa_upper {
    gjk_real overlap;
    gjk_support_point w;
    gjk_vec3 n;
} epa_upper;

/// Takes w (D's support point along the unit n, overlap = w·n) where it
/// bounds the depth better.
static void upper_take(epa_upper *u, gjk_real overlap, gjk_vec3 n, const gjk_support_point *w) {
    if (overlap < u->overlap) {
        u->overlap = overlap;
        u->w = *w;
        u->n = n;
    }
}

/// A halo step around the nearest face F (a copy: EPA's step may have
/// recycled its slot) whose support bound was `gap` above it: at most
/// `budget` support calls; returns how many it made.
static int halo_step(gjk_pair *pair, epa_polytope *P, const epa_face *F, gjk_real gap, gjk_real tol, int budget,
                     epa_step *S, epa_upper *upper, int iteration) {
    gjk_vec3 n;
    gjk_real alpha;
    if (!halo_centre(P, F, &n, &alpha)) {
        return 0;
    }
    gjk_real delta = gjk_min(alpha * gjk_sqrt(tol / (4 * gap)), alpha / 2);
    gjk_vec3 e1 = any_perpendicular(n), e2 = gjk_cross(n, e1);
    static const gjk_real c3[3] = {1, -0.5, -0.5};
    static const gjk_real s3[3] = {0, GJK_R(0.86602540378443865), GJK_R(-0.86602540378443865)}; // √3/2
    int used = 0;
    for (int k = 0; k < 3 && used < budget && P->vertex_count < EPA_MAX_VERTICES; ++k) {
        gjk_vec3 d = gjk_normalize(gjk_add(n, gjk_scale(delta, gjk_add(gjk_scale(c3[k], e1), gjk_scale(s3[k], e2)))));
        gjk_support_point w = gjk_pair_support(pair, d);
        w.w = gjk_scale(P->down, w.w);
        ++used;
        if (pair->bad_support) {
            return used;
        }
        upper_take(upper, gjk_dot(w.w, d), d, &w);
        if (pair->trace != NULL) {
            trace_iteration(pair, P, F->n, F->dist, d, iteration + used, w.w);
        }
        (void)add_point(P, w, epa_tolerance(pair, P), S);
    }
    return used;
}

/// Commits EPA's step adding vertex wi (planned from the nearest face
/// `best`), then takes the halo step around that face; returns the halo's
/// support calls. Out of line: the loop of every other pair stays as it was
/// (inline, it cost 44 instructions a query on hull penetration).
static GJK_NOINLINE int halo_commit(gjk_pair *pair, epa_polytope *P, int best, int wi, gjk_real gap, gjk_real tol,
                                    int budget, epa_step *S, epa_upper *upper, int iteration) {
    epa_face near = P->face[best]; // (the step recycles its slot)
    commit_step(P, wi, S);
    return halo_step(pair, P, &near, gap, tol, budget, S, upper, iteration);
}

/// An ellipsoid core whose radii are within a factor 32 of each other:
/// round enough for the halo's one angular radius (see "Halo steps").
static bool round_ellipsoid(const gjk_shape *s) {
    gjk_vec3 r = s->ellipsoid.radii;
    return gjk_max(gjk_max(r.x, r.y), r.z) <= 32 * gjk_min(gjk_min(r.x, r.y), r.z);
}

/// Whether EPA takes halo steps on this pair: a core is an ellipsoid, and
/// every ellipsoid core is round enough.
static bool halo_pair(const gjk_pair *pair) {
    bool ea = pair->a->type == GJK_SHAPE_ELLIPSOID, eb = pair->b->type == GJK_SHAPE_ELLIPSOID;
    return (ea || eb) && (!ea || round_ellipsoid(pair->a)) && (!eb || round_ellipsoid(pair->b));
}

/// Whether the halo step is due after nearest face F's support point came
/// `gap` above it (see "Halo steps": when): the gap between 64 tol and
/// 0.3 √(tol · size), and F within size / 64, the size being the pair's
/// scale (the largest coordinate of the points seen) in the polytope's
/// units.
static bool halo_due(const gjk_pair *pair, const epa_polytope *P, const epa_face *F, gjk_real gap, gjk_real tol) {
    gjk_real size = P->down * pair->scale;
    return F->dist < size / 64 && gap > 64 * tol && gap < GJK_R(0.3) * gjk_sqrt(tol * size);
}

bool gjk_epa_run(gjk_pair *pair, const gjk_simplex *simplex, int max_iterations, gjk_real stop_depth,
                 gjk_epa_result *out) {
    epa_polytope P;
    epa_step S;
    out->iterations = 0;
    out->converged = false;
    out->deeper = false;
    // The best upper bound seen: the support point with the least overlap
    // w·n along a face normal n. Moving B by that overlap along n always
    // separates the shapes, so it is the answer to keep if EPA must stop early.
    epa_upper upper = {GJK_REAL_MAX, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, -1, -1, true}, {1, 0, 0}};
    P.shift = choose_shift(pair, simplex);
    P.down = P.shift != 0 ? gjk_ldexp(1, -P.shift) : 1;
    stop_depth *= P.down;
    int pending;
    if (!initial_polytope(pair, simplex, &P, out, &pending)) {
        return !pair->bad_support;
    }
    if (pair->bad_support) {
        return false;
    }
    for (int m = 0; m <= P.vertex_count; ++m) { // and each vertex as it comes
        S.face_of_start[m] = -1;
    }
    if (pending >= 0) {
        // The lower apex of a double pyramid that was not convex, added to
        // the tetrahedron above the triangle (face 3, its base, sees it).
        // Should rounding leave no consistent step, the loop's first step
        // along the base's normal adds the lower side instead.
        gjk_real tol = epa_tolerance(pair, &P);
        if (plan_step(&P, 3, pending, 0, tol, &S) || plan_step(&P, 3, pending, tol, tol, &S)) {
            commit_step(&P, pending, &S);
        }
    }

    int best = -1;
    bool halo = halo_pair(pair); // a halo step is still to come (see "Halo steps")
    bool stalled = false; // ended with no consistent step
    gjk_real lower_max = -GJK_REAL_MAX; // the nearest face's greatest distance so far
    gjk_real last_dist = -GJK_REAL_MAX; // the nearest face's distance at the iteration before
    for (;;) {
        best = nearest_face(&P);
        epa_face *F = &P.face[best];
        lower_max = gjk_max(lower_max, F->dist);
        if (stop_depth > 0 && F->dist > stop_depth) {
            out->deeper = true; // the caller only asked whether the depth exceeds stop_depth
            break;
        }
        if (out->iterations >= max_iterations || P.vertex_count >= EPA_MAX_VERTICES) {
            break; // not converged
        }
        ++out->iterations;
        gjk_support_point w = gjk_pair_support(pair, F->n); // (epa_support, inline: a call here cost 4%)
        w.w = gjk_scale(P.down, w.w);
        if (pair->bad_support) {
            return false;
        }
        gjk_real tol = epa_tolerance(pair, &P);
        gjk_real overlap = gjk_dot(w.w, F->n);
        gjk_real gap = overlap - F->dist;
        upper_take(&upper, overlap, F->n, &w);
        if (pair->trace != NULL) {
            trace_iteration(pair, &P, F->n, F->dist, F->n, out->iterations, w.w);
        }
        if (gap <= tol) {
            out->converged = true;
            break;
        }
        // A support point that is a vertex already, outside the nearest
        // face by more than the tolerance, means rounding has broken the
        // polytope (a vertex lies outside a face's plane), and adding it
        // again changes nothing real: in float a segment about 1e-4 deep in
        // a hull's flat face drew the same face and support point at every
        // iteration, another alternated between two faces and their two
        // support points, each until its 250 iterations ran out. Looked for
        // only when the nearest face is no farther than the one before (in
        // a step that progresses it usually is farther). The faces are then
        // not to be trusted: the bounds decide, as for a stall on a face
        // nearer than an earlier one (below). (Taking the face instead, one
        // such end reported a depth of 2.6e-5 along a normal the shapes
        // overlap 4.1e-5 along; the least overlap is a separating motion.)
        if (F->dist <= last_dist && has_vertex(&P, w.w)) {
            stalled = true;
            break;
        }
        last_dist = F->dist;
        int wi = P.vertex_count;
        P.vert[wi] = w;
        S.face_of_start[wi] = -1;
        // Faces that w lies on (within rounding) may go either way; when the
        // plain test breaks the polytope, the faces w is within tolerance of
        // go too, or else stay.
        if (!plan_step(&P, best, wi, 0, tol, &S) && !plan_step(&P, best, wi, -tol, tol, &S) &&
            !plan_step(&P, best, wi, tol, tol, &S)) {
            // No consistent step: w lies, within rounding, on the polytope.
            // Unless the nearest face came out nearer than an earlier one
            // (the faces' distances only grow, but for rounding): then the
            // faces are not to be trusted, and the best upper bound is the
            // answer (below). In float, two cones 0.1 deep got a face
            // 1.4e-4 nearer than the one before, whose support point
            // stalled, and that face was the answer.
            out->converged = gap <= GJK_R(1e3) * tol && F->dist >= lower_max - tol;
            stalled = true;
            break;
        }
        if (halo && halo_due(pair, &P, F, gap, tol)) {
            halo = false; // once a run
            out->iterations += halo_commit(pair, &P, best, wi, gap, tol, max_iterations - out->iterations, &S, &upper,
                                           out->iterations);
            if (pair->bad_support) {
                return false;
            }
        } else {
            commit_step(&P, wi, &S);
        }
    }
    gjk_real tol = epa_tolerance(pair, &P);
    if (out->deeper) {
        // Only whether the depth exceeds stop_depth was asked: the nearest
        // face's distance, a lower bound, without the witness points, whose
        // search (witness_at) was a quarter of such a call's instructions.
        out->normal = P.face[best].n;
        out->depth = P.face[best].dist;
        out->point_a = out->point_b = gjk_v3_zero();
    } else {
        face_result(&P, best, tol, out);
    }
    if (!out->converged && !out->deeper && upper.overlap < GJK_REAL_MAX) {
        // Stopped between the bounds: report the upper bound, whose normal
        // and support points are a valid separating motion. The depth lies
        // between the nearest face's distance and it: when they are within
        // the tolerance, that is the answer, though no single face's
        // support point closed its own gap (deep poses of two ellipsoids,
        // whose depth varies little over a wide range of directions, could
        // run out of iterations that way).
        // A stall (no consistent step) is allowed the 1e3 tolerances its
        // own gap is: at a tie of a flat top and a curved side, slivers of
        // nearly collinear rim points (whose planes their sagitta fixes)
        // left EPA between bounds 2.5e-7 apart, 360 tolerances, and 16 of
        // 6000 points in rounded cylinders came out not converged.
        // The lower bound is the nearest face's greatest distance seen:
        // the same but where rounding broke the polytope and a face came
        // out nearer than an earlier one (in float, two cones 0.1 deep
        // fell from 0.09797 to 0.0731 after their upper bound had come
        // within 4e-6, and were reported not converged).
        // (Unless that distance is beyond the upper bound: then rounding
        // has made no face a bound, and the nearest one stands, as before;
        // at a tolerance of 1e-14 thousands of poses would have been
        // called converged with the gap negative.)
        gjk_real lower = lower_max <= upper.overlap + tol ? lower_max : P.face[best].dist;
        out->converged = upper.overlap - lower <= (stalled ? GJK_R(1e3) : 1) * tol;
        out->depth = upper.overlap > 0 ? upper.overlap : 0;
        out->normal = upper.n;
        out->point_a = upper.w.a;
        out->point_b = upper.w.b;
        if (out->converged) {
            ray_witness(&P, upper.n, tol, out);
        }
    }
    if (P.shift != 0) {
        out->depth = gjk_ldexp(out->depth, P.shift);
    }
    if (!out->converged && !out->deeper) {
        // A point core inside a hull: where many faces lie nearly as near
        // (a point near a cylinder's axis, whose side strips are all about
        // as far), EPA refines them all before it can decide, and ran out
        // of iterations (cylinder hulls of 252 to 1500 rim points, centres
        // near the axis: 41 of 2500 queries not converged, off by up to
        // 3e-5 of the size). The hull's face planes give the answer
        // exactly.
        (void)gjk_point_hull_depth(pair, out);
    }
    return true;
}
