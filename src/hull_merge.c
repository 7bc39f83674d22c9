// Merging the construction's coplanar triangles into polygon faces (the
// second half of gjk_hull_create, after quickhull in hull.c): triangles
// coplanar within the input's resolution are grouped (union-find over
// their shared edges), each group's plane is checked against its members'
// vertices and its neighbours' far vertices, and a group whose boundary is
// one simple loop becomes one polygon face; the local convexity of every
// edge is checked exactly on the grid.
#include <math.h>
#include <stdlib.h>

#include "hull_build.h"

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
/// normals come from their grid points' cross products (gjk_grid_cross).
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
bool gjk_hull_polygons(hull_builder *b, poly_set *ps, gjk_hull_error *error) {
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
bool gjk_hull_live_triangles(const hull_builder *b, poly_set *tri) {
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

/// Whether grid point v lies strictly between grid points u and w, within
/// a quarter of the input's resolution (merge_eps) of the line through them:
/// points meant to lie on a line stray from it by their own rounding.
static bool between(const hull_builder *b, int u, int v, int w) {
    hv3 uw = hsub(b->g[w], b->g[u]), uv = hsub(b->g[v], b->g[u]);
    double len2 = hlength_sq(uw), along = hdot(uv, uw), tol = b->merge_eps / 4;
    return len2 > 0 && along > 0 && along < len2 && hlength_sq(hcross(uw, uv)) <= tol * tol * len2;
}

/// n flags, all false (NULL when out of memory).
static bool *fill_flags(int n) { return calloc((size_t)(n > 0 ? n : 1), sizeof(bool)); }

/// Vertex neighbours (each vertex's from first[v] to first[v + 1] − 1).
typedef struct vertex_graph {
    const int *first, *nb;
} vertex_graph;

/// Most neighbours of a vertex whose pairs are read for a straight run
/// through it.
#define GJK_HULL_PAIRS_MAX 32

/// A neighbour x of cur that continues the straight run prev → cur (cur
/// between prev and x), or −1; −1 for a vertex of more than
/// GJK_HULL_PAIRS_MAX neighbours, a corner (gjk_hull_edge_points).
static int run_next(const hull_builder *b, vertex_graph gr, int prev, int cur) {
    if (gr.first[cur + 1] - gr.first[cur] > 2 * GJK_HULL_PAIRS_MAX) {
        return -1;
    }
    for (int j = gr.first[cur]; j < gr.first[cur + 1]; ++j) {
        if (between(b, prev, cur, gr.nb[j])) {
            return gr.nb[j];
        }
    }
    return -1;
}

/// Most steps followed along a straight run of points (longer runs keep
/// their points: a finely sampled curve, each point nearly on the chord of
/// its neighbours, is no run, and must not be walked round).
#define GJK_HULL_RUN_MAX 64

/// The straight run from v through u: its points from u on into run[0..),
/// up to the first that is not between the point before it and a
/// neighbour (a corner: the run's end, returned, not stored), or −1 when
/// the run goes on past GJK_HULL_RUN_MAX steps. *count receives how many
/// were stored.
static int run_end(const hull_builder *b, vertex_graph gr, int v, int u, int *run, int *count) {
    int prev = v, cur = u;
    *count = 0;
    for (int steps = 0; steps < GJK_HULL_RUN_MAX; ++steps) {
        int x = run_next(b, gr, prev, cur);
        if (x < 0) {
            return cur;
        }
        run[(*count)++] = cur;
        prev = cur, cur = x;
    }
    return -1;
}

int gjk_hull_edge_points(const hull_builder *b, bool *keep) {
    // Each vertex's neighbours in the live triangles (each twice, from the
    // triangles on either side of the edge), in one array.
    int n = b->n, *first = calloc((size_t)n + 1, sizeof *first);
    if (first == NULL) {
        return -1;
    }
    for (int i = 0; i < b->fcount; ++i) {
        for (int k = 0; k < 3 && b->f[i].alive; ++k) {
            first[b->f[i].v[k] + 1] += 2;
        }
    }
    for (int i = 0; i < n; ++i) {
        first[i + 1] += first[i];
    }
    int *nb = malloc((size_t)(first[n] > 0 ? first[n] : 1) * sizeof *nb), *fill = malloc((size_t)n * sizeof *fill);
    if (nb == NULL || fill == NULL) {
        free(first), free(nb), free(fill);
        return -1;
    }
    for (int i = 0; i < n; ++i) {
        fill[i] = first[i];
    }
    for (int i = 0; i < b->fcount; ++i) {
        for (int k = 0; k < 3 && b->f[i].alive; ++k) {
            int v = b->f[i].v[k];
            nb[fill[v]++] = b->f[i].v[(k + 1) % 3];
            nb[fill[v]++] = b->f[i].v[(k + 2) % 3];
        }
    }
    vertex_graph gr = {first, nb};
    // A vertex on an edge of the hull has, among its neighbours, one on
    // either side of it along that edge (its triangles fan over the two
    // faces beside the edge, each a half turn about it): a candidate. The
    // run of such points ends at the edge's corners both ways, and the
    // vertex goes when those ends are no candidates themselves (so they
    // stay) and it lies between them. (Without that, near a curve, whose
    // points lie within the resolution of their neighbours' chords, they
    // went in chains, each run's ends in turn for runs of their own: a
    // float sphere 3e3 from its origin kept 888 of 1000 points and fell
    // short of them by 2.8 resolutions, review.) A vertex of many
    // neighbours (a cone's apex, joined to every point of its base) is taken
    // as a corner unread: its pairs cost their square (a cone of 40,000
    // base points built in 22 s, review).
    bool *cand = fill_flags(n);
    if (cand == NULL) {
        free(first), free(nb), free(fill);
        return -1;
    }
    for (int v = 0; v < n; ++v) {
        int deg = first[v + 1] - first[v];
        for (int j = first[v]; j < first[v + 1] && deg <= 2 * GJK_HULL_PAIRS_MAX && !cand[v]; ++j) {
            for (int k = j + 1; k < first[v + 1] && !cand[v]; ++k) {
                cand[v] = between(b, nb[j], v, nb[k]);
            }
        }
    }
    // Each run once: its points (v and both ways from it) are settled
    // together, dropped where they lie between its ends, else kept.
    int dropped = 0, run[2 * GJK_HULL_RUN_MAX + 1];
    bool *settled = fill_flags(n);
    if (settled == NULL) {
        free(cand), free(first), free(nb), free(fill);
        return -1;
    }
    for (int v = 0; v < n; ++v) {
        keep[v] = first[v + 1] > first[v];
    }
    for (int v = 0; v < n; ++v) {
        int pair_u = -1, pair_w = -1;
        for (int j = first[v]; j < first[v + 1] && cand[v] && !settled[v] && pair_u < 0; ++j) {
            for (int k = j + 1; k < first[v + 1] && pair_u < 0; ++k) {
                if (between(b, nb[j], v, nb[k])) {
                    pair_u = nb[j], pair_w = nb[k];
                }
            }
        }
        if (pair_u < 0) {
            continue;
        }
        int cu, cw;
        int e1 = run_end(b, gr, v, pair_u, run, &cu);
        int e2 = e1 < 0 ? -1 : run_end(b, gr, v, pair_w, run + cu, &cw);
        int m = e2 < 0 ? cu : cu + cw;
        run[m++] = v;
        bool ends = e2 >= 0 && !cand[e1] && !cand[e2];
        for (int k = 0; k < m; ++k) {
            int p = run[k];
            if (ends && !settled[p] && keep[p] && between(b, e1, p, e2)) {
                keep[p] = false;
                ++dropped;
            }
            settled[p] = true;
        }
    }
    free(settled);
    free(cand);
    free(first), free(nb), free(fill);
    return dropped;
}
