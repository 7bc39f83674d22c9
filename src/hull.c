// Convex hulls of point clouds by quickhull (Barber, Dobkin & Huhdanpaa,
// "The Quickhull Algorithm for Convex Hulls", ACM TOMS 1996).
//
// Start from a tetrahedron of four extreme points; every other point is
// filed in the "outside set" of one face it lies above. Repeatedly take the
// farthest point of some outside set, find the faces it sees (a flood fill
// from that face over the face adjacency), remove them, and close the hole
// with a cone of new triangles from the point to the horizon (the boundary of
// the seen region); the points of the removed faces are filed again among
// the new faces or dropped as interior. Every step adds one point to the
// hull, so there are at most `count` steps.
//
// The construction runs in double whatever gjk_real is, on the points
// snapped to a grid of 2^-50 of the cloud's size, and decides which faces
// a point sees exactly (exact.c): a rounded height tells the side when it
// exceeds its own rounding bound, the grid's integers tell it otherwise.
// An incremental hull whose visibility tests are exact stays convex, its
// horizons simple loops and its new triangles non-degenerate. With rounded
// heights and a tolerance it did not: on clouds with many coplanar points
// (a sphere cut by planes, a box sampled on grids in float) the flood fill
// found a visible region with holes or pinches, or a triangle nearly flat
// whose normal was rounded far off, and 12 in 100 cut spheres in double
// and 15 in 100 float box grids failed (GJK_HULL_FAILED). Snapping moves a
// point by at most 2^-51 of the size per coordinate, far below the input's
// resolution (1e-12 of the size); the hull's vertices are the points as
// given, and its planes pass through them. A point within 1e-12 of the
// cloud's size of every new face's plane is dropped where it lies over one
// of them (file_point). At the end
// triangles that are coplanar within the input's resolution (1e-12 of the
// size in double, 4e-6 in float, where the points themselves are rounded)
// are merged into polygon faces, the vertex adjacency is read off the
// triangles' edges (a merged face's diagonals included), and everything is
// packed into one block (hull_pack.c).
// The result is checked: a closed surface where every edge is shared by two
// faces the right way round (V − E + F = 2) and every edge is locally convex
// (exactly, on the grid), which together make it a convex polytope.
//
// Coplanar clouds get a flat hull: the 2D hull of the points in their plane
// (Andrew's monotone chain), as two faces of opposite orientation
// (hull_pack.c).
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exact.h"
#include "hull_build.h"

/// The resolution of the input relative to its size (the sum of its largest
/// coordinates): 1e-12 in double; in float, where the points themselves are
/// rounded to ~6e-8, 4e-6.
#if GJK_USE_FLOAT
#define GJK_HULL_INPUT_EPS 4e-6
#else
#define GJK_HULL_INPUT_EPS 1e-12
#endif

typedef struct hull_face {
    int v[3];           ///< Counter-clockwise seen from outside.
    int adj[3];         ///< adj[k]: the face across the edge v[k] → v[k + 1].
    hv3 n;         ///< Unit outward normal.
    double d;         ///< Plane offset: dot(n, p) = d on the plane.
    int outside;        ///< First point of the outside set, or −1.
    int far_point;      ///< The farthest point of the outside set.
    double far_dist;  ///< Its height above the plane.
    int mark;           ///< Visit stamp of the flood fill.
    int child;          ///< Once removed: a new face made on one of its horizon edges, or −1.
    bool visible;       ///< Seen from the current point (valid when mark is current).
    bool alive;
} hull_face;

typedef struct hull_builder {
    const hv3 *p;     ///< The points, scaled (the planes are fitted to them).
    const hv3 *g;     ///< The points snapped to the grid: integers, |c| ≤ 2^50.
    int n;
    double eps;       ///< Construction tolerance, in grid units: heights below it are "not above".
    double merge_eps; ///< Input resolution, in grid units: faces this close to coplanar merge.
    bool coplanar;    ///< Three or more neighbouring faces are coplanar within merge_eps.
    bool oom;         ///< An allocation failed (the construction then stops).
    hull_face *f;
    int fcount, fcap;
    int *next;       ///< Outside-set links, one per point.
    int *start_map;  ///< Horizon vertex → new face starting there, one per point (−1 otherwise).
    int *pending;    ///< Faces that may have outside points (a stack).
    int pending_count, pending_cap;
    int *list;       ///< Scratch list of faces (flood fill, horizon).
    int list_cap;
} hull_builder;

static void *grow(void *array, int *cap, int need, size_t elem) {
    if (need <= *cap) {
        return array;
    }
    int c = *cap > 0 ? *cap : 64;
    while (c < need) {
        c *= 2;
    }
    void *r = realloc(array, (size_t)c * elem);
    if (r != NULL) {
        *cap = c;
    }
    return r;
}

/// The height of point i above face f's plane, in grid units, rounded:
/// n·(g_i − g_v0), within 32 units in the last place of ‖g_i − g_v0‖₁ of
/// the exact value (the differences are exact; n, rounded from the exact
/// cross product and normalised, is within about 8 units of the unit
/// normal, and the dot adds 3).
static double height(const hull_builder *b, const hull_face *f, int i) {
    return hdot(f->n, hsub(b->g[i], b->g[f->v[0]]));
}

/// Grid point i as the array the exact functions take.
static void grid_point(const hull_builder *b, int i, double out[3]) {
    out[0] = b->g[i].x, out[1] = b->g[i].y, out[2] = b->g[i].z;
}

/// The side of face f's plane point i lies on (1 above, −1 below, 0 on),
/// exactly: the rounded height where it exceeds its rounding bound, the
/// grid's integers otherwise.
static int side(const hull_builder *b, const hull_face *f, int i) {
    hv3 e = hsub(b->g[i], b->g[f->v[0]]);
    double h = hdot(f->n, e), bound = 32 * 0x1p-53 * (fabs(e.x) + fabs(e.y) + fabs(e.z));
    if (h > bound) {
        return 1;
    }
    if (h < -bound) {
        return -1;
    }
    double pa[3], pb[3], pc[3], pq[3];
    grid_point(b, f->v[0], pa), grid_point(b, f->v[1], pb), grid_point(b, f->v[2], pc), grid_point(b, i, pq);
    return gjk_exact_orient(pa, pb, pc, pq);
}

/// The unit normal of the grid triangle (a, b, c), from its cross product
/// rounded (accurate however thin the triangle: gjk_grid_cross), or zero
/// when they are collinear.
static hv3 grid_normal(const hull_builder *b, int a, int c1, int c2) {
    double pa[3], pb[3], pc[3], n[3];
    grid_point(b, a, pa), grid_point(b, c1, pb), grid_point(b, c2, pc);
    gjk_grid_cross(pa, pb, pc, n);
    return hnormalize(hv(n[0], n[1], n[2]));
}

/// Sets the face's plane from its vertices: the normal of their grid
/// points, the offset the greatest of the scaled points'. False when the
/// triangle is degenerate (never, when the visibility tests are exact).
static bool set_plane(hull_builder *b, hull_face *f) {
    hv3 n = grid_normal(b, f->v[0], f->v[1], f->v[2]);
    if (!(hlength_sq(n) > 0)) {
        return false;
    }
    f->n = n;
    f->d = fmax(hdot(n, b->p[f->v[0]]), fmax(hdot(n, b->p[f->v[1]]), hdot(n, b->p[f->v[2]])));
    return true;
}

static int new_face(hull_builder *b, int v0, int v1, int v2) {
    hull_face *nf = grow(b->f, &b->fcap, b->fcount + 1, sizeof *b->f);
    if (nf == NULL) {
        b->oom = true;
        return -1;
    }
    b->f = nf;
    hull_face *f = &b->f[b->fcount];
    memset(f, 0, sizeof *f);
    f->v[0] = v0;
    f->v[1] = v1;
    f->v[2] = v2;
    f->adj[0] = f->adj[1] = f->adj[2] = -1;
    f->outside = -1;
    f->far_point = -1;
    f->child = -1;
    f->alive = true;
    return b->fcount++;
}

static bool push_pending(hull_builder *b, int face) {
    int *np = grow(b->pending, &b->pending_cap, b->pending_count + 1, sizeof *b->pending);
    if (np == NULL) {
        b->oom = true;
        return false;
    }
    b->pending = np;
    b->pending[b->pending_count++] = face;
    return true;
}

/// Whether point i lies over face f's triangle: its foot on the plane
/// within eps of every edge's inner side (grid units, rounded).
static bool over_face(const hull_builder *b, const hull_face *f, int i) {
    for (int k = 0; k < 3; ++k) {
        hv3 a = b->g[f->v[k]], c = b->g[f->v[(k + 1) % 3]];
        hv3 e = hsub(c, a);
        double len = hlength(e);
        // The edge's inner side: n × e points into the triangle (its
        // vertices counter-clockwise seen from outside).
        if (len > 0 && hdot(hcross(f->n, e), hsub(b->g[i], a)) < -b->eps * len) {
            return false;
        }
    }
    return true;
}

/// Adds point i, h above face f's plane, to f's outside set.
static void file_in(hull_builder *b, int i, int f_index, double h) {
    hull_face *f = &b->f[f_index];
    b->next[i] = f->outside;
    f->outside = i;
    if (f->far_point < 0 || h > f->far_dist) {
        f->far_point = i;
        f->far_dist = h;
    }
}

/// Files point i in the outside set of the face among faces[0..count) it
/// lies highest above, if it lies more than eps above one. A point no
/// more than eps above any is dropped where it lies over the face it is
/// above (within eps of the hull), and filed otherwise: the faces of a
/// thin slab's first tetrahedron lie nearly in the slab's plane, and a
/// point of the slab far beyond their edges came out only a few grid units
/// above any of them (slabs 1e-12 to 3e-11 of their size thick lost
/// vertices up to 0.13 of the size beyond the hull: a review's finding).
static void file_point(hull_builder *b, int i, const int *faces, int count) {
    int best = -1;
    double best_h = b->eps;
    bool near = false; // within eps of some face's plane
    for (int k = 0; k < count; ++k) {
        double h = height(b, &b->f[faces[k]], i);
        near |= h > -b->eps;
        if (h > best_h) {
            best_h = h;
            best = faces[k];
        }
    }
    if (best < 0) {
        // No more than eps above any face's plane: dropped if below them
        // all by more, or over one it is that near, else filed above one
        // it lies above.
        for (int k = 0; k < count && near; ++k) {
            const hull_face *f = &b->f[faces[k]];
            double h = height(b, f, i);
            if (h > -b->eps && over_face(b, f, i)) {
                return;
            }
            if (best < 0 && h > -b->eps && side(b, f, i) > 0) {
                best = faces[k];
                best_h = h;
            }
        }
        if (best < 0) {
            return;
        }
    }
    file_in(b, i, best, best_h);
}

/// Files point i as file_point does among the new faces of a cone
/// (add_point), climbing first: from `start` around the cone to the
/// neighbour the point is higher above (adj[1], the next face around the
/// eye, or adj[2], the previous), on in that direction while it rises.
/// The cone's normals go round the eye in order (a convex spherical
/// polygon), and a point's heights above their planes mostly rise to one
/// highest run and fall again (not always: over an elongated base, a point
/// near the apex's axis sees two peaks), so the climb from a face near the
/// point's old one ends in a few steps at a face it lies above; scanning
/// every new face cost a point as many heights as the cone has faces,
/// hundreds on the rims of a finely cut cylinder, where it was 68% of the
/// construction of 20,000 points, quadratic in the points. A climb that ends no more
/// than eps above its face leaves the point to file_point's scan, which
/// alone drops points (inside the new hull, or within eps of it). Returns
/// the face the climb filed the point in, or `start`.
static int file_from(hull_builder *b, int i, int start, const int *faces, int count) {
    int cur = start;
    double h = height(b, &b->f[cur], i);
    int next = b->f[cur].adj[1], prev = b->f[cur].adj[2];
    double hn = height(b, &b->f[next], i), hp = height(b, &b->f[prev], i);
    int dir = hn > h && hn >= hp ? 1 : hp > h ? 2 : 0;
    if (dir != 0) {
        cur = dir == 1 ? next : prev;
        h = dir == 1 ? hn : hp;
        for (int steps = 1; steps < count; ++steps) {
            int g = b->f[cur].adj[dir];
            double hg = height(b, &b->f[g], i);
            if (!(hg > h)) {
                break;
            }
            cur = g;
            h = hg;
        }
    }
    if (h > b->eps) {
        file_in(b, i, cur, h);
        return cur;
    }
    file_point(b, i, faces, count);
    return start;
}

/// Links the faces' adjacency by matching edges (small face sets only).
static void link_faces(hull_builder *b, const int *faces, int count) {
    for (int i = 0; i < count; ++i) {
        hull_face *f = &b->f[faces[i]];
        for (int k = 0; k < 3; ++k) {
            int u = f->v[k], w = f->v[(k + 1) % 3];
            for (int j = 0; j < count; ++j) {
                const hull_face *g = &b->f[faces[j]];
                for (int m = 0; m < 3; ++m) {
                    if (g->v[m] == w && g->v[(m + 1) % 3] == u) {
                        f->adj[k] = faces[j];
                    }
                }
            }
        }
    }
}

/// Adds point `eye` (the farthest point of face `start`'s outside set).
/// Returns false on allocation failure or a broken horizon.
static bool add_point(hull_builder *b, int start, int eye, int stamp) {
    // Flood fill of the faces the point sees.
    int visible_count = 0;
    b->f[start].mark = stamp;
    b->f[start].visible = true;
    b->list[visible_count++] = start;
    int horizon_count = 0;
    for (int i = 0; i < visible_count; ++i) {
        hull_face *f = &b->f[b->list[i]];
        for (int k = 0; k < 3; ++k) {
            int g = f->adj[k];
            hull_face *fg = &b->f[g];
            if (fg->mark != stamp) {
                fg->mark = stamp;
                fg->visible = side(b, fg, eye) > 0;
                if (fg->visible) {
                    int *nl = grow(b->list, &b->list_cap, visible_count + 1, sizeof *b->list);
                    if (nl == NULL) {
                        b->oom = true;
                        return false;
                    }
                    b->list = nl;
                    b->list[visible_count++] = g;
                    f = &b->f[b->list[i]];
                }
            }
            if (!fg->visible) {
                ++horizon_count;
            }
        }
    }
    // One new triangle (u, w, eye) per horizon edge u → w of a visible face.
    int first_new = b->fcount;
    for (int i = 0; i < visible_count; ++i) {
        int fi = b->list[i];
        for (int k = 0; k < 3; ++k) {
            int g = b->f[fi].adj[k];
            if (b->f[g].visible && b->f[g].mark == stamp) {
                continue;
            }
            int u = b->f[fi].v[k], w = b->f[fi].v[(k + 1) % 3];
            if (b->start_map[u] >= 0) {
                return false; // the horizon is not a simple loop
            }
            int nf = new_face(b, u, w, eye);
            if (nf < 0) {
                return false;
            }
            hull_face *f = &b->f[nf];
            if (!set_plane(b, f)) {
                return false;
            }
            f->adj[0] = g;
            if (b->f[fi].child < 0) {
                b->f[fi].child = nf;
            }
            hull_face *fg = &b->f[g];
            for (int m = 0; m < 3; ++m) {
                if (fg->v[m] == w && fg->v[(m + 1) % 3] == u) {
                    fg->adj[m] = nf;
                }
            }
            b->start_map[u] = nf;
        }
    }
    bool ok = b->fcount - first_new == horizon_count;
    for (int nf = first_new; nf < b->fcount && ok; ++nf) {
        hull_face *f = &b->f[nf];
        // The edge w → eye is shared with the new face that starts at w
        // (its edge eye → w).
        int across = b->start_map[f->v[1]];
        if (across < 0) {
            ok = false;
            break;
        }
        f->adj[1] = across;
        b->f[across].adj[2] = nf;
    }
    for (int nf = first_new; nf < b->fcount; ++nf) {
        b->start_map[b->f[nf].v[0]] = -1;
    }
    if (!ok) {
        return false;
    }
    // Re-file the points of the removed faces among the new ones.
    int new_count = b->fcount - first_new;
    int *nl = grow(b->list, &b->list_cap, visible_count + new_count, sizeof *b->list);
    if (nl == NULL) {
        b->oom = true;
        return false;
    }
    b->list = nl;
    int *new_faces = b->list + visible_count;
    for (int k = 0; k < new_count; ++k) {
        new_faces[k] = first_new + k;
    }
    // Each point climbs from a new face on its old face's horizon edges,
    // else from where the point before it was filed (an outside set's
    // points lie near each other).
    int hint = first_new;
    for (int i = 0; i < visible_count; ++i) {
        hull_face *f = &b->f[b->list[i]];
        f->alive = false;
        int q = f->outside;
        f->outside = -1;
        int from = f->child >= 0 ? f->child : hint;
        while (q >= 0) {
            int nq = b->next[q];
            if (q != eye) {
                hint = file_from(b, q, from, new_faces, new_count);
            }
            q = nq;
        }
    }
    for (int k = 0; k < new_count; ++k) {
        if (b->f[new_faces[k]].outside >= 0 && !push_pending(b, new_faces[k])) {
            return false;
        }
    }
    return true;
}

// ---- merging coplanar triangles into polygons ------------------------------

static int find_root(int *parent, int i) {
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

/// The vertex of face g not on its edge shared with f.
static int opposite_vertex(const hull_face *g, int f) {
    for (int m = 0; m < 3; ++m) {
        if (g->adj[m] == f) {
            return g->v[(m + 2) % 3];
        }
    }
    return g->v[0];
}

/// Does the plane (nrm, off) fit the group of coplanar triangles `members`
/// (root parent[members[0]])? Every vertex of theirs within the input's
/// resolution below it, and the far vertex of every triangle across the
/// group's boundary too (so that the polygon's edges stay convex). Pairs of
/// triangles merge when each one's far vertex lies within that resolution
/// of the other's plane, and two thin triangles along one line pass that
/// whatever their normals (a cut sphere in double gave a group of two
/// with its four vertices within a grid unit of one line, normals 37°
/// apart): Newell's normal of such a group is noise, and its plane cut
/// the hull by 0.19 of its size. Such a group stays as triangles, whose
/// normals come from exact cross products.
static bool polygon_fits(const hull_builder *b, const int *parent, const int *members, int mcount, hv3 nrm,
                         double off) {
    const double tol = b->merge_eps / GJK_GRID_MAX; // in the scaled points' units
    int root = parent[members[0]];
    for (int j = 0; j < mcount; ++j) {
        const hull_face *f = &b->f[members[j]];
        for (int k = 0; k < 3; ++k) {
            if (!(off - hdot(nrm, b->p[f->v[k]]) <= tol)) {
                return false;
            }
            int g = f->adj[k];
            if (parent[g] != root && !(hdot(nrm, b->p[opposite_vertex(&b->f[g], members[j])]) - off <= tol)) {
                return false;
            }
        }
    }
    return true;
}

/// Builds the polygon faces from the live triangles: triangles that are
/// coplanar within eps (each one's far vertex within eps of the other's
/// plane, normals on the same side) are merged; a group whose boundary is
/// not one simple loop is left as triangles. Also checks local convexity.
static bool build_polygons(hull_builder *b, poly_set *ps, gjk_hull_error *error) {
    int F = b->fcount;
    int *parent = malloc((size_t)F * sizeof *parent);
    int *first = malloc((size_t)(F + 1) * sizeof *first);
    int *succ = malloc((size_t)b->n * sizeof *succ);
    int live = 0;
    if (parent == NULL || first == NULL || succ == NULL) {
        free(parent);
        free(first);
        free(succ);
        *error = GJK_HULL_OUT_OF_MEMORY;
        return false;
    }
    for (int i = 0; i < F; ++i) {
        parent[i] = i;
        live += b->f[i].alive;
    }
    bool convex = true;
    // Every edge convex, exactly (side): the construction makes it so, and
    // this checks it.
    for (int i = 0; i < F; ++i) {
        const hull_face *f = &b->f[i];
        if (!f->alive) {
            continue;
        }
        for (int k = 0; k < 3; ++k) {
            int g = f->adj[k];
            if (g < 0 || !b->f[g].alive || (b->f[g].adj[0] != i && b->f[g].adj[1] != i && b->f[g].adj[2] != i)) {
                convex = false; // open or inconsistent surface
                continue;
            }
            const hull_face *fg = &b->f[g];
            int og = opposite_vertex(fg, i);
            if (side(b, f, og) > 0) {
                convex = false;
            }
            if (g > i) {
                double hg = height(b, f, og), hf = height(b, fg, opposite_vertex(f, g));
                if (fabs(hg) <= b->merge_eps && fabs(hf) <= b->merge_eps && hdot(f->n, fg->n) > 0) {
                    int ri = find_root(parent, i), rg = find_root(parent, g);
                    // The smaller index becomes the root, so that each
                    // group's root is its first member (read below).
                    if (ri < rg) {
                        parent[rg] = ri;
                    } else if (rg < ri) {
                        parent[ri] = rg;
                    }
                }
            }
        }
    }
    if (!convex || !gjk_polys_alloc(ps, live, 3 * live)) {
        free(parent);
        free(first);
        free(succ);
        *error = convex ? GJK_HULL_OUT_OF_MEMORY : GJK_HULL_FAILED;
        return false;
    }
    for (int i = 0; i < b->n; ++i) {
        succ[i] = -1;
    }
    // The groups' members, listed by root in one pass (a counting sort:
    // group r's members, in increasing order, are order[first[r]] up to
    // order[first[r + 1]]). Each root was its group's smallest member.
    int *order = b->list; // reuse: room for F entries was ensured by the caller
    for (int i = 0; i <= F; ++i) {
        first[i] = 0;
    }
    for (int i = 0; i < F; ++i) {
        parent[i] = find_root(parent, i);
        first[parent[i] + 1] += b->f[i].alive;
    }
    for (int i = 0; i < F; ++i) {
        first[i + 1] += first[i];
    }
    for (int i = 0; i < F; ++i) {
        if (b->f[i].alive) {
            order[first[parent[i]]++] = i;
        }
    }
    for (int i = F; i > 0; --i) {
        first[i] = first[i - 1];
    }
    first[0] = 0;
    // For each group, walk its members' boundary edges into a loop.
    for (int r = 0; r < F; ++r) {
        if (!b->f[r].alive || parent[r] != r) {
            continue;
        }
        const int *members = order + first[r];
        int mcount = first[r + 1] - first[r];
        // Three or more coplanar triangles make the hull's climbs check their
        // ends (gjk_hull.coplanar, support.h). Two (a quadrilateral whose
        // four points happen to lie in a plane, as a float cloud on an
        // ellipsoid has a few) leave no room for a climb to stall by more
        // than the rounding of v·d, and do not.
        b->coplanar |= mcount >= 3;
        bool loop_ok = true;
        int edges = 0, start = -1;
        if (mcount > 1) {
            for (int j = 0; j < mcount && loop_ok; ++j) {
                const hull_face *f = &b->f[members[j]];
                for (int k = 0; k < 3; ++k) {
                    if (find_root(parent, f->adj[k]) == r) {
                        continue;
                    }
                    int u = f->v[k];
                    if (succ[u] >= 0) {
                        loop_ok = false;
                        break;
                    }
                    succ[u] = f->v[(k + 1) % 3];
                    start = u;
                    ++edges;
                }
            }
            int steps = 0, u = start;
            if (loop_ok && start >= 0) {
                do {
                    u = succ[u];
                    ++steps;
                } while (u >= 0 && u != start && steps <= edges);
                // One loop around a disk of triangles with no vertex inside:
                // t triangles have t + 2 boundary edges. Anything else (a
                // vertex inside, a pinch) stays as triangles.
                loop_ok = u == start && steps == edges && edges == mcount + 2;
            }
        }
        bool merged = false;
        if (mcount > 1 && loop_ok && start >= 0) {
            int base = ps->index_count, u = start;
            do {
                ps->indices[ps->index_count++] = u;
                u = succ[u];
            } while (u != start);
            // The polygon's plane is that of its largest triangle: exact on
            // the grid points, so a supporting plane of them all, where a
            // normal fitted to the polygon's own vertices (Newell's) is not
            // when the polygon is thin (a cut sphere's points lay up to
            // 1e-7 of its size above such planes).
            hv3 nrm = b->f[members[0]].n;
            double area = 0;
            for (int j = 0; j < mcount; ++j) {
                const hull_face *f = &b->f[members[j]];
                double a2 = hlength_sq(hcross(hsub(b->g[f->v[1]], b->g[f->v[0]]), hsub(b->g[f->v[2]], b->g[f->v[0]])));
                if (a2 > area) {
                    area = a2;
                    nrm = f->n;
                }
            }
            double off = hdot(nrm, b->p[ps->indices[base]]);
            for (int k = base + 1; k < ps->index_count; ++k) {
                off = fmax(off, hdot(nrm, b->p[ps->indices[k]]));
            }
            if (polygon_fits(b, parent, members, mcount, nrm, off)) {
                ps->normals[ps->face_count] = nrm;
                ps->offsets[ps->face_count] = off;
                ps->first[++ps->face_count] = ps->index_count;
                merged = true;
            } else {
                ps->index_count = base;
            }
        }
        if (!merged) {
            for (int j = 0; j < mcount; ++j) {
                const hull_face *f = &b->f[members[j]];
                for (int k = 0; k < 3; ++k) {
                    ps->indices[ps->index_count++] = f->v[k];
                }
                ps->normals[ps->face_count] = f->n;
                ps->offsets[ps->face_count] = f->d;
                ps->first[++ps->face_count] = ps->index_count;
            }
        }
        // Reset the successor links this group set.
        for (int j = 0; j < mcount; ++j) {
            const hull_face *f = &b->f[members[j]];
            for (int k = 0; k < 3; ++k) {
                succ[f->v[k]] = -1;
            }
        }
    }
    free(parent);
    free(first);
    free(succ);
    return true;
}

/// The construction's live triangles as a face set (the source of the
/// vertex adjacency: pack); false when out of memory.
static bool live_triangles(const hull_builder *b, poly_set *tri) {
    int live = 0;
    for (int i = 0; i < b->fcount; ++i) {
        live += b->f[i].alive;
    }
    if (!gjk_polys_alloc(tri, live, 3 * live)) {
        return false;
    }
    for (int i = 0; i < b->fcount; ++i) {
        if (b->f[i].alive) {
            for (int k = 0; k < 3; ++k) {
                tri->indices[tri->index_count++] = b->f[i].v[k];
            }
            tri->first[++tri->face_count] = tri->index_count;
        }
    }
    return true;
}

static void free_builder(hull_builder *b) {
    free(b->f);
    free(b->next);
    free(b->start_map);
    free(b->pending);
    free(b->list);
}

/// The hull of the points (dp: the same points in double). eps: the
/// resolution of the input (flatness, collinearity, merging); the
/// construction itself, in double, uses a tolerance of 1e-12 of the size.
static gjk_hull *hull_build(const gjk_vec3 *points, const hv3 *dp, const hv3 *g, int count, double eps, hull_frame frame,
                            gjk_hull_error *error) {
    gjk_hull *h;
    hull_builder b;
    memset(&b, 0, sizeof b);
    b.p = dp;
    b.g = g;
    b.n = count;
    // The tolerances in grid units.
    b.merge_eps = eps * GJK_GRID_MAX;
    b.eps = 1e-12 * (eps / GJK_HULL_INPUT_EPS) * GJK_GRID_MAX;
    // Initial tetrahedron: the farthest pair among the axis extremes, the
    // point farthest from their line, the point farthest from that plane
    // (each farther than the input's resolution, so that the four grid
    // points are not coplanar).
    int ext[6] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < count; ++i) {
        const double c[3] = {g[i].x, g[i].y, g[i].z};
        for (int a = 0; a < 3; ++a) {
            const hv3 lo = g[ext[2 * a]], hi = g[ext[2 * a + 1]];
            const double clo[3] = {lo.x, lo.y, lo.z}, chi[3] = {hi.x, hi.y, hi.z};
            if (c[a] < clo[a]) {
                ext[2 * a] = i;
            }
            if (c[a] > chi[a]) {
                ext[2 * a + 1] = i;
            }
        }
    }
    int i0 = 0, i1 = 0;
    double best = -1;
    for (int s = 0; s < 6; ++s) {
        for (int t = s + 1; t < 6; ++t) {
            double d2 = hlength_sq(hsub(g[ext[s]], g[ext[t]]));
            if (d2 > best) {
                best = d2;
                i0 = ext[s];
                i1 = ext[t];
            }
        }
    }
    hv3 e01 = hsub(g[i1], g[i0]);
    double len01 = hlength(e01);
    if (!(len01 > b.merge_eps)) {
        *error = GJK_HULL_DEGENERATE;
        return NULL;
    }
    hv3 u01 = hscale(1 / len01, e01);
    int i2 = -1;
    best = b.merge_eps;
    for (int i = 0; i < count; ++i) {
        double d = hlength(hcross(hsub(g[i], g[i0]), u01));
        if (d > best) {
            best = d;
            i2 = i;
        }
    }
    if (i2 < 0) {
        *error = GJK_HULL_DEGENERATE;
        return NULL;
    }
    hv3 nrm = grid_normal(&b, i0, i1, i2);
    int i3 = -1;
    best = b.merge_eps;
    for (int i = 0; i < count; ++i) {
        double d = fabs(hdot(hsub(g[i], g[i0]), nrm));
        if (d > best) {
            best = d;
            i3 = i;
        }
    }
    if (i3 < 0) {
        return gjk_hull_flat(points, dp, count, dp[i0], u01, nrm, eps, frame, error);
    }

    b.next = malloc((size_t)count * sizeof *b.next);
    b.start_map = malloc((size_t)count * sizeof *b.start_map);
    b.list = grow(NULL, &b.list_cap, 64, sizeof *b.list);
    if (b.next == NULL || b.start_map == NULL || b.list == NULL) {
        free_builder(&b);
        *error = GJK_HULL_OUT_OF_MEMORY;
        return NULL;
    }
    for (int i = 0; i < count; ++i) {
        b.next[i] = -1;
        b.start_map[i] = -1;
    }
    // Orient the base triangle so that the fourth point lies below it.
    if (hdot(hsub(g[i3], g[i0]), nrm) > 0) {
        int t = i1;
        i1 = i2;
        i2 = t;
    }
    const int tet[4][3] = {{i0, i1, i2}, {i0, i3, i1}, {i1, i3, i2}, {i2, i3, i0}};
    int faces[4];
    bool ok = true;
    for (int k = 0; k < 4 && ok; ++k) {
        faces[k] = new_face(&b, tet[k][0], tet[k][1], tet[k][2]);
        ok = faces[k] >= 0 && set_plane(&b, &b.f[faces[k]]);
    }
    if (!ok) {
        free_builder(&b);
        *error = GJK_HULL_OUT_OF_MEMORY;
        return NULL;
    }
    link_faces(&b, faces, 4);
    for (int i = 0; i < count; ++i) {
        if (i != i0 && i != i1 && i != i2 && i != i3) {
            file_point(&b, i, faces, 4);
        }
    }
    for (int k = 0; k < 4 && ok; ++k) {
        if (b.f[faces[k]].outside >= 0) {
            ok = push_pending(&b, faces[k]);
        }
    }
    int stamp = 0;
    // Each step removes one point from the outside sets for good.
    for (int steps = 0; ok && b.pending_count > 0 && steps <= count; ++steps) {
        int fi = b.pending[--b.pending_count];
        if (!b.f[fi].alive || b.f[fi].outside < 0) {
            --steps;
            continue;
        }
        ok = add_point(&b, fi, b.f[fi].far_point, ++stamp);
    }
    if (ok && b.pending_count > 0) {
        ok = false;
    }
    int *nl = ok ? grow(b.list, &b.list_cap, b.fcount + 1, sizeof *b.list) : b.list;
    if (nl == NULL) {
        free_builder(&b);
        *error = GJK_HULL_OUT_OF_MEMORY;
        return NULL;
    }
    b.list = nl;
    poly_set ps;
    h = NULL;
    if (!ok) {
        *error = b.oom ? GJK_HULL_OUT_OF_MEMORY : GJK_HULL_FAILED;
    } else if (build_polygons(&b, &ps, error)) {
        poly_set tri;
        if (live_triangles(&b, &tri)) {
            h = gjk_hull_pack(points, count, &ps, &tri, false, b.coplanar, frame, error);
            gjk_polys_free(&tri);
        } else {
            *error = GJK_HULL_OUT_OF_MEMORY;
        }
        gjk_polys_free(&ps);
    }
    free_builder(&b);
    if (h != NULL) {
        // Euler's formula for a closed surface of genus 0: V − E + F = 2,
        // with E = (Σ face sizes) / 2.
        int edges2 = h->face_first[h->face_count];
        if (edges2 % 2 != 0 || h->vertex_count - edges2 / 2 + h->face_count != 2) {
            gjk_hull_destroy(h);
            h = NULL;
            *error = GJK_HULL_FAILED;
        }
    }
    return h;
}


gjk_hull *gjk_hull_create(const gjk_vec3 *points, int count, gjk_hull_error *error) {
    gjk_hull_error dummy;
    if (error == NULL) {
        error = &dummy;
    }
    if (points == NULL || count < 1) {
        *error = GJK_HULL_INVALID_INPUT;
        return NULL;
    }
    // The bounding box, and the largest coordinates as given.
    hv3 lo = hv(points[0].x, points[0].y, points[0].z), hi = lo, amax = hv(0, 0, 0);
    for (int i = 0; i < count; ++i) {
        if (!gjk_is_valid_vec3(points[i])) {
            *error = GJK_HULL_INVALID_INPUT;
            return NULL;
        }
        hv3 q = hv(points[i].x, points[i].y, points[i].z);
        lo = hv(fmin(lo.x, q.x), fmin(lo.y, q.y), fmin(lo.z, q.z));
        hi = hv(fmax(hi.x, q.x), fmax(hi.y, q.y), fmax(hi.z, q.z));
        amax = hv(fmax(amax.x, fabs(q.x)), fmax(amax.y, fabs(q.y)), fmax(amax.z, fabs(q.z)));
    }
    // The construction runs in double whatever gjk_real is, on the points
    // centred on their bounding box and scaled by 2^−shift, a power of two
    // that brings the sum of their largest centred coordinates into
    // [1/2, 1). Centred, its tolerances and grid follow the cloud's own
    // extent, not its distance from its origin: taken from the coordinates
    // as given, a sphere of radius 1e-3 at x = 1e8 kept 47 of 200 points
    // and its hull fell short of them by 9.5% of the radius (review
    // finding). Scaled, its heights (products of coordinates) neither
    // underflow (below about 1e-160 every cloud was degenerate) nor overflow
    // (above 1e150, test_hull_scale_free). Scaling by a power of two is
    // exact (but for coordinates below 2^-1022 of the size, far below its
    // resolution), so every size builds the same hull.
    // eps is the resolution of the input: points this close to a plane count
    // as on it. It is GJK_HULL_INPUT_EPS of the centred size, and at least
    // four units in the last place of the coordinates as given, which is
    // how far points meant to lie on one plane stray from it by their own
    // rounding.
    // (Sums that overflow are taken of the coordinates divided by 4, and
    // the shift made 2 larger, so that the scaled sum is as for any other.)
    hv3 centre = hv(ldexp(lo.x, -1) + ldexp(hi.x, -1), ldexp(lo.y, -1) + ldexp(hi.y, -1),
                    ldexp(lo.z, -1) + ldexp(hi.z, -1));
    // The construction's points: the centred ones first (their extent sets
    // the scale), then scaled in place, and the same snapped to the grid
    // (every scaled coordinate lies in (−1, 1), so every grid coordinate in
    // [−2^50, 2^50]).
    hv3 *dp = malloc((size_t)count * sizeof *dp);
    hv3 *g = malloc((size_t)count * sizeof *g);
    if (dp == NULL || g == NULL) {
        free(dp);
        free(g);
        *error = GJK_HULL_OUT_OF_MEMORY;
        return NULL;
    }
    hv3 cmax = hv(0, 0, 0);
    for (int i = 0; i < count; ++i) {
        dp[i] = hsub(hv(points[i].x, points[i].y, points[i].z), centre);
        cmax = hv(fmax(cmax.x, fabs(dp[i].x)), fmax(cmax.y, fabs(dp[i].y)), fmax(cmax.z, fabs(dp[i].z)));
    }
    double size = cmax.x + cmax.y + cmax.z, given = amax.x + amax.y + amax.z;
    int quarter = 0;
    if (!isfinite(size) || !isfinite(given)) {
        size = ldexp(cmax.x, -2) + ldexp(cmax.y, -2) + ldexp(cmax.z, -2);
        given = ldexp(amax.x, -2) + ldexp(amax.y, -2) + ldexp(amax.z, -2);
        quarter = 2;
    }
    if (!(size > 0)) {
        free(dp);
        free(g);
        *error = GJK_HULL_DEGENERATE;
        return NULL;
    }
    int shift;
    (void)frexp(size, &shift);
    double eps = fmax(GJK_HULL_INPUT_EPS * ldexp(size, -shift), 4 * GJK_REAL_EPSILON * ldexp(given, -shift));
    shift += quarter;
    hull_frame frame = {shift, centre};
    for (int i = 0; i < count; ++i) {
        dp[i] = hv(ldexp(dp[i].x, -shift), ldexp(dp[i].y, -shift), ldexp(dp[i].z, -shift));
        g[i] = hv(rint(dp[i].x * GJK_GRID_MAX), rint(dp[i].y * GJK_GRID_MAX), rint(dp[i].z * GJK_GRID_MAX));
    }
    gjk_hull *h = hull_build(points, dp, g, count, eps, frame, error);
    free(dp);
    free(g);
    return h;
}


void gjk_hull_destroy(gjk_hull *hull) { free(hull); }
