// EPA's polytope, the parts off the loop's path: the starting shapes, and a
// point added from the face that sees it most (the halo steps'). The
// expansion step itself is in epa_hull.h.
#include "epa_hull.h"

/// A closed triangle list (3 indices each, outward winding) with its
/// neighbour table: across edge i of face f (v[i] → v[i + 1]) lies face
/// adj[3f + i], in which that edge is edge edge[3f + i]. The starting
/// shapes are fixed, so their tables are constants (each edge a → b is
/// matched by the opposite edge b → a of exactly one other face).
typedef struct epa_shape {
    int count;
    int tri[18], adj[18], edge[18];
} epa_shape;

static const epa_shape EPA_SHAPES[] = {
    [GJK_EPA_TETRAHEDRON] = {
        4,
        {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3},
        {2, 3, 1, 0, 3, 2, 1, 3, 0, 0, 2, 1},
        {2, 0, 0, 2, 2, 0, 2, 1, 0, 1, 1, 1},
    },
    // (0, 1, 2) is counter-clockwise seen from the apex 3; 4 is the other apex.
    [GJK_EPA_BIPYRAMID] = {
        6,
        {0, 1, 3, 1, 2, 3, 2, 0, 3, 1, 0, 4, 2, 1, 4, 0, 2, 4},
        {3, 1, 2, 4, 2, 0, 5, 0, 1, 0, 5, 4, 1, 3, 5, 2, 4, 3},
        {0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1},
    },
    // The tetrahedron of the triangle (0, 1, 2), counter-clockwise seen from
    // the apex 3, and that apex: the upper half of the double pyramid,
    // closed by the triangle itself (face 3, seen from below).
    [GJK_EPA_TETRAHEDRON_ON_BASE] = {
        4,
        {0, 1, 3, 1, 2, 3, 2, 0, 3, 1, 0, 2},
        {3, 1, 2, 3, 2, 0, 3, 0, 1, 0, 2, 1},
        {0, 2, 1, 2, 2, 1, 1, 2, 1, 0, 0, 0},
    },
};

bool gjk_epa_build_faces(gjk_epa_polytope *P, gjk_epa_start_shape which) {
    const epa_shape *shape = &EPA_SHAPES[which];
    for (int f = 0; f < shape->count; ++f) {
        gjk_epa_face *F = &P->face[f];
        for (int i = 0; i < 3; ++i) {
            F->v[i] = shape->tri[3 * f + i];
            F->adj[i] = shape->adj[3 * f + i];
            F->adj_edge[i] = shape->edge[3 * f + i];
        }
        if (!gjk_epa_face_plane(P, F->v[0], F->v[1], F->v[2], &F->n, &F->dist)) {
            return false;
        }
        P->key[f] = F->dist;
    }
    P->face_count = shape->count;
    P->free_count = 0;
    return true;
}

/// Adds support point w (in the polytope's units) as the next vertex,
/// planned from the face that sees it most (gjk_epa_plan_step, with the
/// same fallbacks as EPA's own steps); false, and the point dropped, when no
/// face sees it beyond tol or no consistent step exists.
bool gjk_epa_add_point(gjk_epa_polytope *P, gjk_support_point w, gjk_real tol, gjk_epa_step *S) {
    int top = -1;
    gjk_real height = tol;
    for (int f = 0; f < P->face_count; ++f) {
        if (gjk_epa_face_alive(P, f)) {
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
    if (!gjk_epa_plan_step(P, top, wi, 0, tol, S) && !gjk_epa_plan_step(P, top, wi, -tol, tol, S) &&
        !gjk_epa_plan_step(P, top, wi, tol, tol, S)) {
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
        if (gjk_epa_face_alive(P, f) && gjk_dot(P->face[f].n, w.w) - P->face[f].dist > tol) {
            gjk_epa_plan_undo(P, S);
            return false;
        }
    }
    gjk_epa_commit_step(P, wi, S);
    return true;
}
