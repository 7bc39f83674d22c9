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
// of them (file_point). At the end triangles that are coplanar within the
// input's resolution (1e-12 of the size in double, 4e-6 in float, where the
// points themselves are rounded) are merged into polygon faces
// (hull_merge.c), the vertex adjacency is read off the triangles' edges (a
// merged face's diagonals included), and everything is packed into one
// block (hull_pack.c).
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

static void free_builder(hull_builder *b) {
    free(b->f);
    free(b->next);
    free(b->start_map);
    free(b->pending);
    free(b->list);
}

/// The hull of points[0..count) (dp: the construction's points in double,
/// g: the same on the grid). eps: the resolution of the input (flatness,
/// collinearity, merging); the construction itself, in double, uses a
/// tolerance of 1e-12 of the size. With keep given, a hull with points on
/// its edges (gjk_hull_edge_points) is not built: NULL with *rebuild set,
/// and keep[i] marks the points to build it from again (without keep).
static gjk_hull *hull_build(const gjk_vec3 *points, const hv3 *dp, const hv3 *g, int count, double eps, hull_frame frame,
                            bool *keep, bool *rebuild, gjk_hull_error *error) {
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
    } else if (gjk_hull_polygons(&b, &ps, error)) {
        poly_set tri;
        int edge_points = keep != NULL ? gjk_hull_edge_points(&b, keep) : 0;
        if (edge_points != 0) {
            *rebuild = edge_points > 0;
            *error = edge_points > 0 ? GJK_HULL_OK : GJK_HULL_OUT_OF_MEMORY;
        } else if (gjk_hull_live_triangles(&b, &tri)) {
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
    // Built once more, from the faces' corners alone, when points on the
    // edges of the first hull's faces would be vertices (hull.h: extreme
    // points only).
    bool *keep = malloc((size_t)count * sizeof *keep), rebuild = false;
    gjk_hull *h = keep == NULL ? NULL : hull_build(points, dp, g, count, eps, frame, keep, &rebuild, error);
    gjk_vec3 *corners = rebuild ? malloc((size_t)count * sizeof *corners) : NULL;
    if (keep == NULL || (rebuild && corners == NULL)) {
        *error = GJK_HULL_OUT_OF_MEMORY;
    } else if (rebuild) {
        int m = 0;
        for (int i = 0; i < count; ++i) {
            if (keep[i]) {
                corners[m] = points[i], dp[m] = dp[i], g[m] = g[i];
                ++m;
            }
        }
        h = hull_build(corners, dp, g, m, eps, frame, NULL, NULL, error);
    }
    free(corners);
    free(keep);
    free(dp);
    free(g);
    return h;
}


void gjk_hull_destroy(gjk_hull *hull) { free(hull); }
