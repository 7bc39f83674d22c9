// EPA's polytope (the hull builder): a closed triangle mesh in D = A − B
// around the origin, its faces linked to their neighbours, and the step
// that adds a vertex: plan it (the faces that see the vertex, the horizon,
// the new faces checked), then commit or undo it. The step is defined here
// (see "The expansion step" below); the starting shapes and the rest off
// the loop's path are in epa_hull.c. Shared by the run (epa.c), its
// starting polytope (epa_start.c) and its halo steps (epa_halo.c).
#ifndef GJK_EPA_HULL_H
#define GJK_EPA_HULL_H

#include "internal.h"

/// The polytope's capacity (fixed: it lives on the stack; in double the
/// polytope takes 70 KiB and a step's scratch 21 KiB).
enum {
    GJK_EPA_MAX_VERTICES = 256,
    GJK_EPA_MAX_FACES = 2 * GJK_EPA_MAX_VERTICES,
    GJK_EPA_MAX_HORIZON = GJK_EPA_MAX_VERTICES,
};

/// One triangle of the polytope, with its neighbours across its edges.
typedef struct gjk_epa_face {
    int v[3];     ///< Vertex indices, counter-clockwise seen from outside.
    int adj[3];   ///< adj[i]: the face across edge v[i] → v[(i + 1) % 3].
    int adj_edge[3]; ///< adj_edge[i]: that edge's index in face adj[i].
    gjk_vec3 n;   ///< Outward unit normal.
    gjk_real dist;///< Signed distance of the plane from the origin (n·c, c the mean of the vertices).
} gjk_epa_face;

/// The polytope: its vertices (D's support points), its face slots and the
/// slots free for reuse. Fixed-size: it lives on the stack.
typedef struct gjk_epa_polytope {
    gjk_support_point vert[GJK_EPA_MAX_VERTICES];
    gjk_epa_face face[GJK_EPA_MAX_FACES];
    /// Each face slot's distance, GJK_REAL_MAX when it is not alive (which
    /// is how a slot is known alive: gjk_epa_face_alive). The nearest face
    /// is found over this one array (gjk_epa_nearest_face).
    gjk_real key[GJK_EPA_MAX_FACES];
    int vertex_count;
    int face_count; ///< Slots used (alive or not).
    int free_list[GJK_EPA_MAX_FACES];
    int free_count;
    /// The points' w are stored as w·2^−shift (0 for ordinary sizes), see
    /// choose_shift (epa.c); their a and b, and so the witnesses, are not scaled.
    int shift;
    gjk_real down; ///< 2^−shift.
} gjk_epa_polytope;

/// Scratch space of one expansion step.
typedef struct gjk_epa_step {
    int horizon_face[GJK_EPA_MAX_HORIZON], horizon_edge[GJK_EPA_MAX_HORIZON];
    int horizon_count;
    int removed[GJK_EPA_MAX_FACES];
    int removed_count;
    int stack_face[2 * GJK_EPA_MAX_FACES + 3], stack_edge[2 * GJK_EPA_MAX_FACES + 3];
    gjk_vec3 new_n[GJK_EPA_MAX_HORIZON];
    gjk_real new_dist[GJK_EPA_MAX_HORIZON];
    int face_of_start[GJK_EPA_MAX_VERTICES]; ///< Kept -1 between steps (for the vertices so far).
} gjk_epa_step;

/// The running upper bound on the depth (gjk_epa_run's): the least overlap
/// w·n seen along a unit direction n, with its support point.
typedef struct gjk_epa_upper {
    gjk_real overlap;
    gjk_support_point w;
    gjk_vec3 n;
} gjk_epa_upper;

/// Whether face slot f holds a face of the polytope (a face's distance is
/// finite: gjk_epa_face_plane).
static inline bool gjk_epa_face_alive(const gjk_epa_polytope *P, int f) { return P->key[f] < GJK_REAL_MAX; }

/// The pair's tolerance (read again after each support call: it grows with
/// the points seen) in the polytope's units.
static inline gjk_real gjk_epa_tolerance(const gjk_pair *pair, const gjk_epa_polytope *P) {
    return P->down * gjk_pair_tolerance(pair);
}

/// A unit vector perpendicular to e (e ≠ 0).
static inline gjk_vec3 gjk_epa_perpendicular(gjk_vec3 e) {
    gjk_real ax = gjk_abs(e.x), ay = gjk_abs(e.y), az = gjk_abs(e.z);
    gjk_vec3 axis = ax <= ay && ax <= az ? gjk_v3(1, 0, 0) : (ay <= az ? gjk_v3(0, 1, 0) : gjk_v3(0, 0, 1));
    return gjk_normalize(gjk_cross(e, axis));
}

/// The nearest live face: the first slot with the least key. The least
/// value first, with the least of each block of four slots kept, then the
/// first block that holds it and its slot there: about 4 instructions a
/// slot, where a running (value, index) pair took 11 (no index to carry,
/// no unpredictable branch but the two short searches at the end).
static inline int gjk_epa_nearest_face(const gjk_epa_polytope *P) {
    const gjk_real *key = P->key;
    gjk_real block[GJK_EPA_MAX_FACES / 4];
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

/// Takes w (D's support point along the unit n, overlap = w·n) where it
/// bounds the depth better.
static inline void gjk_epa_upper_take(gjk_epa_upper *u, gjk_real overlap, gjk_vec3 n, const gjk_support_point *w) {
    if (overlap < u->overlap) {
        u->overlap = overlap;
        u->w = *w;
        u->n = n;
    }
}

/// Whether w is one of the polytope's vertices (exactly).
static inline bool gjk_epa_has_vertex(const gjk_epa_polytope *P, gjk_vec3 w) {
    for (int m = 0; m < P->vertex_count; ++m) {
        gjk_vec3 v = P->vert[m].w;
        if (v.x == w.x && v.y == w.y && v.z == w.z) {
            return true;
        }
    }
    return false;
}

// ---- The expansion step -----------------------------------------------
//
// Faces know their three neighbours, so the visible region is found by a
// flood fill from the nearest face with an explicit stack: the region stays
// connected and the horizon comes out as one closed loop, even when
// rounding makes visibility tests disagree. Before a step is committed its
// new faces are checked (non-degenerate, origin inside); a step that fails
// is undone.
//
// Defined here, static (GJK_OUTLINE), so that each file that takes steps
// (epa.c's loop, epa_hull.c's gjk_epa_add_point, epa_halo.c's commit) has
// its own copy, which the compiler calls knowing the registers it leaves
// alone: called in another file, they cost the loop about 3 instructions a
// step (hull8 penetration: 26 a query, callgrind).

/// The edge after edge i of a face.
static inline int gjk_epa_next3(int i) { return i == 2 ? 0 : i + 1; }

/// Normal and distance of face (a, b, c); false when it has no area.
static GJK_INLINE bool gjk_epa_face_plane(const gjk_epa_polytope *P, int a, int b, int c, gjk_vec3 *n,
                                          gjk_real *dist) {
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

/// A free face slot (a recycled one first), or −1 when none is left.
static inline int gjk_epa_alloc_face(gjk_epa_polytope *P) {
    if (P->free_count > 0) {
        return P->free_list[--P->free_count];
    }
    if (P->face_count >= GJK_EPA_MAX_FACES) {
        return -1;
    }
    return P->face_count++;
}

/// Whether the step planned in S (gjk_epa_plan_step, once it has found one
/// loop) keeps the polytope convex, where that is in doubt. Where w lies on a
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
/// line: gjk_epa_plan_step calls it only when w lies on a kept face's plane.
GJK_OUTLINE bool gjk_epa_horizon_convex(const gjk_epa_polytope *P, int wi, gjk_real tol, const gjk_epa_step *S) {
    gjk_vec3 w = P->vert[wi].w;
    int hc = S->horizon_count;
    bool near = false;
    for (int h = 0; !near && h < hc; ++h) {
        const gjk_epa_face *G = &P->face[S->horizon_face[h]], *R = &P->face[G->adj[S->horizon_edge[h]]];
        near = gjk_abs(gjk_dot(G->n, gjk_sub(w, P->vert[G->v[0]].w))) <= tol &&
               gjk_abs(gjk_dot(R->n, gjk_sub(w, P->vert[R->v[0]].w))) <= tol;
    }
    bool ok = true;
    for (int h = 0; ok && near && h < hc; ++h) {
        const gjk_epa_face *G = &P->face[S->horizon_face[h]];
        int e = S->horizon_edge[h], a = G->v[e], b = G->v[gjk_epa_next3(e)], c = G->v[gjk_epa_next3(gjk_epa_next3(e))];
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
static inline void gjk_epa_plan_undo_first(gjk_epa_polytope *P, gjk_epa_step *S, int set) {
    for (int h = 0; h < set; ++h) {
        const gjk_epa_face *G = &P->face[S->horizon_face[h]];
        S->face_of_start[G->v[gjk_epa_next3(S->horizon_edge[h])]] = -1;
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
GJK_OUTLINE bool gjk_epa_plan_step(gjk_epa_polytope *P, int best, int wi, gjk_real vis, gjk_real tol,
                                  gjk_epa_step *S) {
    gjk_vec3 w = P->vert[wi].w;
    int top = 0;
    bool ok = true;
    // w's greatest height over the faces kept at the horizon (at most vis,
    // and vis is at most tol): at least −tol when w lies on one's plane.
    gjk_real kept_top = -GJK_REAL_MAX;
    S->horizon_count = 0;
    S->removed_count = 0;
    gjk_epa_face *F = &P->face[best];
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
        gjk_epa_face *G = &P->face[g];
        if (!gjk_epa_face_alive(P, g)) {
            continue;
        }
        gjk_real height = gjk_dot(G->n, gjk_sub(w, P->vert[G->v[0]].w));
        if (height > vis) {
            P->key[g] = GJK_REAL_MAX;
            S->removed[S->removed_count++] = g;
            // The two other edges, the next one (e + 1) popped first.
            int i1 = gjk_epa_next3(e), i2 = gjk_epa_next3(i1);
            S->stack_face[top] = G->adj[i2];
            S->stack_edge[top] = G->adj_edge[i2];
            S->stack_face[top + 1] = G->adj[i1];
            S->stack_edge[top + 1] = G->adj_edge[i1];
            top += 2;
        } else if (S->horizon_count < GJK_EPA_MAX_HORIZON) {
            kept_top = gjk_max(kept_top, height);
            S->horizon_face[S->horizon_count] = g;
            S->horizon_edge[S->horizon_count] = e;
            ++S->horizon_count;
        } else {
            ok = false;
        }
    }
    int hc = S->horizon_count;
    int free_slots = P->free_count + (GJK_EPA_MAX_FACES - P->face_count) + S->removed_count;
    ok = ok && hc >= 3 && free_slots >= hc;
    int set = 0;
    for (int h = 0; ok && h < hc; ++h, ++set) {
        const gjk_epa_face *G = &P->face[S->horizon_face[h]];
        int a = G->v[S->horizon_edge[h]], b = G->v[gjk_epa_next3(S->horizon_edge[h])];
        if (!gjk_epa_face_plane(P, b, a, wi, &S->new_n[h], &S->new_dist[h]) || S->new_dist[h] < -tol ||
            S->face_of_start[b] >= 0) {
            ok = false;
        }
        S->face_of_start[b] = h; // each horizon vertex starts one edge
    }
    for (int h = 0; ok && h < hc; ++h) { // and ends one: a single loop
        const gjk_epa_face *G = &P->face[S->horizon_face[h]];
        ok = S->face_of_start[G->v[S->horizon_edge[h]]] >= 0;
    }
    // A horizon where w lies on a kept face's plane within tol
    // (gjk_epa_horizon_convex) is checked for convexity.
    ok = ok && (kept_top < -tol || gjk_epa_horizon_convex(P, wi, tol, S));
    if (!ok) {
        gjk_epa_plan_undo_first(P, S, set);
    }
    return ok;
}

/// Undoes a step that gjk_epa_plan_step planned (it changed nothing but
/// these).
static inline void gjk_epa_plan_undo(gjk_epa_polytope *P, gjk_epa_step *S) {
    gjk_epa_plan_undo_first(P, S, S->horizon_count);
}

/// Applies a planned step: recycles the removed faces, joins each horizon
/// edge a → b to wi with a new face (b, a, wi) and links the new faces.
GJK_OUTLINE void gjk_epa_commit_step(gjk_epa_polytope *P, int wi, gjk_epa_step *S) {
    int new_face[GJK_EPA_MAX_HORIZON];
    for (int r = 0; r < S->removed_count; ++r) {
        P->free_list[P->free_count++] = S->removed[r];
    }
    ++P->vertex_count;
    for (int h = 0; h < S->horizon_count; ++h) {
        new_face[h] = gjk_epa_alloc_face(P);
    }
    for (int h = 0; h < S->horizon_count; ++h) {
        gjk_epa_face *G = &P->face[S->horizon_face[h]];
        int e = S->horizon_edge[h];
        gjk_epa_face *N = &P->face[new_face[h]];
        N->v[0] = G->v[gjk_epa_next3(e)], N->v[1] = G->v[e], N->v[2] = wi;
        N->n = S->new_n[h];
        N->dist = S->new_dist[h];
        P->key[new_face[h]] = N->dist;
        N->adj[0] = S->horizon_face[h];
        N->adj_edge[0] = e;
        G->adj[e] = new_face[h];
        G->adj_edge[e] = 0;
    }
    for (int h = 0; h < S->horizon_count; ++h) {
        gjk_epa_face *N = &P->face[new_face[h]];
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

/// The starting shapes gjk_epa_build_faces knows (see epa_hull.c).
typedef enum gjk_epa_start_shape {
    GJK_EPA_TETRAHEDRON,         ///< Vertices 0 to 3, outward as given.
    GJK_EPA_BIPYRAMID,           ///< Triangle (0, 1, 2), apexes 3 (above) and 4 (below).
    GJK_EPA_TETRAHEDRON_ON_BASE, ///< Triangle (0, 1, 2) and the apex 3 above it.
} gjk_epa_start_shape;

/// Builds the faces of a starting shape on the polytope's first vertices;
/// false when one has no area.
bool gjk_epa_build_faces(gjk_epa_polytope *P, gjk_epa_start_shape shape);

/// Adds support point w as the next vertex from the face that sees it most;
/// false, and the point dropped, when none sees it beyond tol, no
/// consistent step exists, or the step would dent the polytope.
bool gjk_epa_add_point(gjk_epa_polytope *P, gjk_support_point w, gjk_real tol, gjk_epa_step *S);

/// Grows GJK's final simplex into the starting polytope (epa_start.c).
bool gjk_epa_initial_polytope(gjk_pair *pair, const gjk_simplex *s, gjk_epa_polytope *P, gjk_epa_result *out,
                              int *pending);

/// Reports one EPA iteration to the trace callback (epa.c).
void gjk_epa_trace(const gjk_pair *pair, const gjk_epa_polytope *P, gjk_vec3 fn, gjk_real fd, gjk_vec3 n,
                   int iteration, gjk_vec3 w);

// ---- The halo steps' gate (the steps: epa_halo.c) ----------------------

/// An ellipsoid core whose radii are within a factor 32 of each other:
/// round enough for the halo's one angular radius (epa_halo.c).
static inline bool gjk_epa_round_ellipsoid(const gjk_shape *s) {
    gjk_vec3 r = s->ellipsoid.radii;
    return gjk_max(gjk_max(r.x, r.y), r.z) <= 32 * gjk_min(gjk_min(r.x, r.y), r.z);
}

/// Whether EPA takes halo steps on this pair: a core is an ellipsoid, and
/// every ellipsoid core is round enough.
static inline bool gjk_epa_halo_pair(const gjk_pair *pair) {
    bool ea = pair->a->type == GJK_SHAPE_ELLIPSOID, eb = pair->b->type == GJK_SHAPE_ELLIPSOID;
    return (ea || eb) && (!ea || gjk_epa_round_ellipsoid(pair->a)) && (!eb || gjk_epa_round_ellipsoid(pair->b));
}

/// Whether the halo step is due after nearest face F's support point came
/// `gap` above it (epa_halo.c: "When"): the gap between 64 tol and
/// 0.3 √(tol · size), and F within size / 64, the size being the pair's
/// scale (the largest coordinate of the points seen) in the polytope's
/// units.
static inline bool gjk_epa_halo_due(const gjk_pair *pair, const gjk_epa_polytope *P, const gjk_epa_face *F,
                                    gjk_real gap, gjk_real tol) {
    gjk_real size = P->down * pair->scale;
    return F->dist < size / 64 && gap > 64 * tol && gap < GJK_R(0.3) * gjk_sqrt(tol * size);
}

/// Commits EPA's step adding vertex wi, then takes the halo step around
/// face `best`; returns the halo's support calls (epa_halo.c).
int gjk_epa_halo_commit(gjk_pair *pair, gjk_epa_polytope *P, int best, int wi, gjk_real gap, gjk_real tol,
                        int budget, gjk_epa_step *S, gjk_epa_upper *upper, int iteration);

/// EPA's ball certificate (epa_ball.c), for two ellipsoid cores: from
/// EPA's best upper bound, secant steps refine the direction of the least
/// overlap, and a lower bound proves the overlap there within tol (the
/// polytope's units, as *out's depth): a ball inside each core touching it
/// at its support point, or else the largest ellipsoid inside D touching it
/// along that direction. True with *out's depth, normal and witness points
/// set and converged; false with *out untouched (on a support point that
/// is not finite, with pair->bad_support set).
bool gjk_epa_ball_certificate(gjk_pair *pair, const gjk_epa_polytope *P, const gjk_epa_upper *upper, gjk_real tol,
                              gjk_epa_result *out);

#endif
