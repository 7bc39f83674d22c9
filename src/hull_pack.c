// The packed hull (one block: vertices, faces, adjacency, the scan layout
// and the start sample) from the construction's faces, and the hulls of
// coplanar clouds (Andrew's monotone chain in their plane). The
// construction itself is in hull.c.
#include <stdlib.h>
#include <string.h>

#include "hull_build.h"

static size_t align16(size_t x) { return (x + 15) & ~(size_t)15; }

/// The size of a hull's start sample: about √n / 2 directions, a multiple
/// of 8 from 8 to GJK_HULL_START_MAX. The sample's scan costs about K/8
/// steps and the climb from its best point about √(n/K) moves; measured
/// with callgrind on distance queries between hulls of n points on an
/// ellipsoid, the best K grew from 8 (n = 128) to 64 (n = 16384).
static int start_sample_size(int n) {
    int k = (int)ceil(sqrt((double)n) / 2 / 8) * 8;
    return k < 8 ? 8 : (k > GJK_HULL_START_MAX ? GJK_HULL_START_MAX : k);
}

/// Fills the hull's start sample: for each of `count` directions spread over
/// the sphere (a Fibonacci lattice: heights evenly spaced in (−1, 1),
/// longitudes turning by the golden angle), the vertex farthest along it,
/// and the sample's coordinates in blocks of `stride` (the tail padded with
/// the first sample point, which never wins over it).
static void start_sample(gjk_hull *h, int *vertex, int count, gjk_real *scan, int stride) {
    const double golden = 2.39996322972865332; // π (3 − √5)
    for (int k = 0; k < count; ++k) {
        double z = 1 - (2 * k + 1) / (double)count, r = sqrt(1 - z * z);
        gjk_vec3 d = gjk_v3((gjk_real)(r * cos(golden * k)), (gjk_real)(r * sin(golden * k)), (gjk_real)z);
        vertex[k] = gjk_scan_portable(h->scan, h->scan_stride, h->vertex_count, d);
    }
    for (int k = 0; k < stride; ++k) {
        gjk_vec3 p = h->vertices[vertex[k < count ? k : 0]];
        scan[k] = p.x;
        scan[stride + k] = p.y;
        scan[2 * stride + k] = p.z;
    }
    h->start_count = count;
    h->start_vertex = vertex;
    h->start_scan = scan;
    h->start_stride = stride;
}

/// The hull's edge directions for the separating axes of small hulls
/// (sat_hull.c) into dir; returns their count, or 0 where the hull does
/// not qualify. Those axes model the hull by its faces: a face's normal and
/// plane, and its polygon's edges. That is the hull of its vertices, which
/// GJK and EPA see, only when each face's vertices lie on its plane: a
/// face merged from triangles bent by δ (the construction merges up to
/// 1e-12 of the cloud's size) hides their crease, an edge of the vertices'
/// hull whose axes are left out. Every axis kept is measured on the
/// vertices themselves, and the face offsets are within δ of the vertices'
/// support; what the axes left out can add is about δ too (a review found
/// a rhombus prism whose faces were bent by 20 to 40 units of rounding,
/// 1e-6 wide, within δ of a brute-force reference). So a hull qualifies
/// when its faces' vertices lie within 64 units of rounding of its largest
/// coordinate from their planes (the planes themselves are rounded to
/// about 10: a tetrahedron's triangles came out 8 units off) and, for
/// margin, no edge is shorter than 2^-10 of it; the queries allow the
/// model only at a relative tolerance of 2^17 ε (2.9e-11) or more, 2^11
/// times the bend. Parallel edges (within 64 ε) share a direction: an axis
/// turned by that angle moves a separation by at most 64 ε of the size.
static int edge_directions(const gjk_hull *h, gjk_vec3 *dir) {
    if (h->flat || h->vertex_count > GJK_HULL_SAT_MAX_VERTICES || h->face_count < 4) {
        return 0;
    }
    gjk_real size = 0;
    for (int v = 0; v < h->vertex_count; ++v) {
        size = gjk_max(size, gjk_max_abs(h->vertices[v]));
    }
    const gjk_real flat_tol = 64 * GJK_REAL_EPSILON * size, short_edge = size / 1024;
    const gjk_real parallel = 64 * GJK_REAL_EPSILON;
    int count = 0;
    for (int f = 0; f < h->face_count; ++f) {
        int s = h->face_first[f], e = h->face_first[f + 1];
        gjk_vec3 n = h->face_normals[f];
        for (int k = s; k < e; ++k) {
            gjk_vec3 u = h->vertices[h->face_indices[k]], w = h->vertices[h->face_indices[k + 1 < e ? k + 1 : s]];
            if (!(gjk_abs(gjk_dot(n, u) - h->face_offsets[f]) <= flat_tol)) {
                return 0;
            }
            // The length scaled by the largest coordinate first: an edge
            // beyond 1.3e154 had its square overflow, a zero direction
            // (parallel to every other) stored, and two huge hulls apart
            // answered "penetrating" (review finding); below 1e-154 the
            // square's subnormal digits left the direction off unit, and
            // the edges' witness points off by tolerances.
            gjk_vec3 d = gjk_sub(w, u);
            gjk_real m = gjk_max_abs(d);
            d = gjk_scale(1 / m, d);
            gjk_real unit = gjk_length(d), len = m * unit;
            if (!(len >= short_edge && len <= GJK_REAL_MAX)) {
                return 0;
            }
            d = gjk_scale(1 / unit, d);
            bool known = false;
            for (int j = 0; j < count && !known; ++j) {
                known = gjk_length(gjk_cross(d, dir[j])) <= parallel;
            }
            if (!known) {
                if (count == GJK_HULL_MAX_EDGE_DIRECTIONS) {
                    return 0;
                }
                dir[count++] = d;
            }
        }
    }
    return count;
}

/// Packs faces (indices into pts) into one hull block: renumbers the used
/// points, builds the vertex adjacency from the edges of `edges`' faces (the
/// construction's triangles; NULL: the polygon faces' own edges). The
/// faces' offsets are those of the construction's points, taken back to
/// the points' own by `frame`.
gjk_hull *gjk_hull_pack(const gjk_vec3 *pts, int n, const poly_set *ps, const poly_set *edges, bool flat,
                        bool coplanar, hull_frame frame, gjk_hull_error *error) {
    const poly_set *es = edges != NULL ? edges : ps;
    int *remap = malloc((size_t)n * sizeof *remap);
    if (remap == NULL) {
        *error = GJK_HULL_OUT_OF_MEMORY;
        return NULL;
    }
    for (int i = 0; i < n; ++i) {
        remap[i] = -1;
    }
    int vcount = 0;
    for (int k = 0; k < ps->index_count; ++k) {
        int v = ps->indices[k];
        if (remap[v] < 0) {
            remap[v] = vcount++;
        }
    }
    int F = ps->face_count, I = ps->index_count;
    size_t off_vertices = align16(sizeof(gjk_hull));
    size_t off_normals = off_vertices + align16((size_t)vcount * sizeof(gjk_vec3));
    size_t off_offsets = off_normals + align16((size_t)F * sizeof(gjk_vec3));
    size_t off_face_first = off_offsets + align16((size_t)F * sizeof(gjk_real));
    size_t off_face_indices = off_face_first + align16((size_t)(F + 1) * sizeof(int));
    size_t off_nfirst = off_face_indices + align16((size_t)I * sizeof(int));
    size_t off_neighbors = off_nfirst + align16((size_t)(vcount + 1) * sizeof(int));
    int stride = (vcount + 7) / 8 * 8;
    size_t off_scan = off_neighbors + align16((size_t)es->index_count * sizeof(int));
    const int start_count = start_sample_size(vcount), start_stride = (start_count + 7) / 8 * 8;
    size_t off_start_vertex = off_scan + align16((size_t)(3 * stride) * sizeof(gjk_real));
    size_t off_start_scan = off_start_vertex + align16((size_t)start_count * sizeof(int));
    size_t off_directions = off_start_scan + align16((size_t)(3 * start_stride) * sizeof(gjk_real));
    size_t total = off_directions + align16(GJK_HULL_MAX_EDGE_DIRECTIONS * sizeof(gjk_vec3));
    unsigned char *block = malloc(total);
    if (block == NULL) {
        free(remap);
        *error = GJK_HULL_OUT_OF_MEMORY;
        return NULL;
    }
    gjk_hull *h = (gjk_hull *)block;
    gjk_vec3 *vertices = (gjk_vec3 *)(block + off_vertices);
    gjk_vec3 *normals = (gjk_vec3 *)(block + off_normals);
    gjk_real *offsets = (gjk_real *)(block + off_offsets);
    int *face_first = (int *)(block + off_face_first);
    int *face_indices = (int *)(block + off_face_indices);
    int *nfirst = (int *)(block + off_nfirst);
    int *neighbors = (int *)(block + off_neighbors);
    gjk_real *scan = (gjk_real *)(block + off_scan);
    int *start_vertex = (int *)(block + off_start_vertex);
    gjk_real *start_scan = (gjk_real *)(block + off_start_scan);
    gjk_vec3 *directions = (gjk_vec3 *)(block + off_directions);
    for (int i = 0; i < n; ++i) {
        if (remap[i] >= 0) {
            vertices[remap[i]] = pts[i];
        }
    }
    for (int f = 0; f < F; ++f) {
        normals[f] = gjk_v3((gjk_real)ps->normals[f].x, (gjk_real)ps->normals[f].y, (gjk_real)ps->normals[f].z);
        offsets[f] = (gjk_real)(ldexp(ps->offsets[f], frame.shift) + hdot(ps->normals[f], frame.centre));
    }
    for (int f = 0; f <= F; ++f) {
        face_first[f] = ps->first[f];
    }
    for (int k = 0; k < I; ++k) {
        face_indices[k] = remap[ps->indices[k]];
    }
    // Each edge u → w gives u the neighbour w; the twin edge w → u of the
    // face on the other side gives w the neighbour u. The edges are the
    // construction's triangles', not the merged polygons': a point that lies
    // on a polygon's edge within the merging tolerance (in float, points on
    // a cylinder's rim rounded nearly onto the chord of their neighbours) is
    // a corner of the polygons with only those two neighbours, and a climb
    // along a d square to that chord stopped there, up to the cylinder's
    // height short of the support point (fuzz/findings f54: 70 of 200,000
    // climbs from random hints on a float cylinder of 799 vertices, 253 on a
    // cone of 3132; none in double). The triangles keep its edges across
    // the faces beside it, and a merged face's diagonals (a cylinder of 800
    // rim points: a mean of 6 neighbours where its polygons gave 4).
    int *cursor = malloc((size_t)(vcount > 0 ? vcount : 1) * sizeof *cursor);
    if (cursor == NULL) {
        free(remap);
        free(block);
        *error = GJK_HULL_OUT_OF_MEMORY;
        return NULL;
    }
    for (int v = 0; v <= vcount; ++v) {
        nfirst[v] = 0;
    }
    for (int k = 0; k < es->index_count; ++k) {
        nfirst[remap[es->indices[k]] + 1]++;
    }
    for (int v = 0; v < vcount; ++v) {
        nfirst[v + 1] += nfirst[v];
        cursor[v] = nfirst[v];
    }
    for (int f = 0; f < es->face_count; ++f) {
        int s = es->first[f], e = es->first[f + 1];
        for (int k = s; k < e; ++k) {
            int u = remap[es->indices[k]], w = remap[es->indices[k + 1 < e ? k + 1 : s]];
            neighbors[cursor[u]++] = w;
        }
    }
    free(cursor);
    free(remap);
    for (int v = 0; v < stride; ++v) {
        gjk_vec3 p = vertices[v < vcount ? v : 0];
        scan[v] = p.x;
        scan[stride + v] = p.y;
        scan[2 * stride + v] = p.z;
    }
    h->scan = scan;
    h->scan_stride = stride;
    h->scan_kind = gjk_hull_scan_kind();
    h->vertex_count = vcount;
    h->vertices = vertices;
    h->face_count = F;
    h->face_first = face_first;
    h->face_indices = face_indices;
    h->face_normals = normals;
    h->face_offsets = offsets;
    h->neighbor_first = nfirst;
    h->neighbors = neighbors;
    h->flat = flat;
    h->coplanar = coplanar;
    h->radius = 0;
    for (int a = 0; a < 6; ++a) {
        h->extreme[a] = 0;
    }
    for (int v = 0; v < vcount; ++v) {
        gjk_vec3 p = vertices[v];
        h->radius = gjk_max(h->radius, gjk_length(p));
        const gjk_real c[3] = {p.x, p.y, p.z};
        for (int a = 0; a < 3; ++a) {
            gjk_vec3 lo = vertices[h->extreme[2 * a]], hi = vertices[h->extreme[2 * a + 1]];
            const gjk_real clo[3] = {lo.x, lo.y, lo.z}, chi[3] = {hi.x, hi.y, hi.z};
            if (c[a] < clo[a]) {
                h->extreme[2 * a] = v;
            }
            if (c[a] > chi[a]) {
                h->extreme[2 * a + 1] = v;
            }
        }
    }
    start_sample(h, start_vertex, start_count, start_scan, start_stride);
    h->edge_direction_count = edge_directions(h, directions);
    h->edge_directions = h->edge_direction_count > 0 ? directions : NULL;
    *error = GJK_HULL_OK;
    return h;
}

void gjk_polys_free(poly_set *ps) {
    free(ps->first);
    free(ps->indices);
    free(ps->normals);
    free(ps->offsets);
}

bool gjk_polys_alloc(poly_set *ps, int faces, int indices) {
    ps->face_count = 0;
    ps->index_count = 0;
    ps->first = malloc((size_t)(faces + 1) * sizeof *ps->first);
    ps->indices = malloc((size_t)(indices > 0 ? indices : 1) * sizeof *ps->indices);
    ps->normals = malloc((size_t)(faces > 0 ? faces : 1) * sizeof *ps->normals);
    ps->offsets = malloc((size_t)(faces > 0 ? faces : 1) * sizeof *ps->offsets);
    if (ps->first == NULL || ps->indices == NULL || ps->normals == NULL || ps->offsets == NULL) {
        gjk_polys_free(ps);
        return false;
    }
    ps->first[0] = 0;
    return true;
}

// ---- flat clouds ---------------------------------------------------------

typedef struct flat_point {
    double x, y;
    int index;
} flat_point;

static int compare_flat(const void *pa, const void *pb) {
    const flat_point *a = pa, *b = pb;
    if (a->x != b->x) {
        return a->x < b->x ? -1 : 1;
    }
    if (a->y != b->y) {
        return a->y < b->y ? -1 : 1;
    }
    return a->index - b->index;
}

/// The distance of p from the line through a and c (a ≠ c).
static double flat_line_distance(const flat_point *a, const flat_point *c, const flat_point *p) {
    double ex = c->x - a->x, ey = c->y - a->y;
    return fabs(ex * (p->y - a->y) - ey * (p->x - a->x)) / sqrt(ex * ex + ey * ey);
}

/// The distance of p from the segment a–c (a ≠ c).
static double flat_segment_distance(const flat_point *a, const flat_point *c, const flat_point *p) {
    double ex = c->x - a->x, ey = c->y - a->y, px = p->x - a->x, py = p->y - a->y;
    double t = (ex * px + ey * py) / (ex * ex + ey * ey);
    if (t <= 0) {
        return hypot(px, py);
    }
    if (t >= 1) {
        return hypot(p->x - c->x, p->y - c->y);
    }
    return flat_line_distance(a, c, p);
}

/// Drops from the convex polygon chain[0..m) (counter-clockwise, indices
/// into fp) the vertices that lie within eps of the line joining the
/// vertices kept on either side, keeping chain[0] and every vertex marked
/// in `forced` (by fp index); returns the new count.
/// Each run of dropped vertices is checked as a whole against the line
/// that replaces it, so the drops do not add up past eps: its farthest
/// vertex from the line, which moves only forward as the line's far end
/// does (the polygon is convex, the line turns one way).
static int drop_flat_vertices(const flat_point *fp, int *chain, int m, double eps, const bool *forced) {
    int kept = 1, run = 1, far = 1; // chain[run..c) would be dropped; far: the farthest of them
    for (int c = 2; c <= m; ++c) {
        const flat_point *a = &fp[chain[kept - 1]], *end = &fp[chain[c % m]];
        if (far < run) {
            far = run;
        }
        while (far + 1 < c &&
               flat_line_distance(a, end, &fp[chain[far + 1]]) >= flat_line_distance(a, end, &fp[chain[far]])) {
            ++far;
        }
        if (forced[chain[c - 1]] || !(flat_line_distance(a, end, &fp[chain[far]]) <= eps)) {
            chain[kept++] = chain[c - 1]; // the run cannot go: its last vertex stays
            run = c;
        }
    }
    return kept;
}

/// The farthest of the vertices all[i0+1 .. i1-1] (cyclic, m of them in
/// all) from the segment fp[all[i0]]–fp[all[i1]]: its distance (infinite
/// where one is NaN, 0 for none), and its index in all in *far (−1 for none).
static double run_reach(const flat_point *fp, const int *all, int m, int i0, int i1, int *far) {
    const flat_point *a = &fp[all[i0]], *c = &fp[all[i1]];
    double reach = 0;
    *far = -1;
    for (int j = i0 + 1 == m ? 0 : i0 + 1; j != i1; j = j + 1 == m ? 0 : j + 1) {
        double d = flat_segment_distance(a, c, &fp[all[j]]);
        d = d == d ? d : INFINITY;
        if (*far < 0 || d > reach) {
            reach = d, *far = j;
        }
    }
    return reach;
}

/// How many candidates a vertex within eps of its neighbours' segment tries
/// in its place (drop_edge_vertices).
enum { SWAP_TRIES = 4 };

/// The vertex of all strictly between i0 and i1 (cyclic, m in all) to take
/// the place of all[ik] there: of the SWAP_TRIES farthest from the segment
/// fp[all[i0]]–fp[all[i1]] and farther than all[ik], the farthest whose
/// segments from i0 and to i1 hold their runs within eps; −1 for none.
static int swap_candidate(const flat_point *fp, const int *all, int m, int i0, int i1, int ik, double eps) {
    const flat_point *a = &fp[all[i0]], *c = &fp[all[i1]];
    int cand[SWAP_TRIES];
    double dist[SWAP_TRIES];
    int n = 0;
    double floor = flat_segment_distance(a, c, &fp[all[ik]]);
    for (int j = i0 + 1 == m ? 0 : i0 + 1; j != i1; j = j + 1 == m ? 0 : j + 1) {
        double d = flat_segment_distance(a, c, &fp[all[j]]);
        if (!(d > floor) || (n == SWAP_TRIES && !(d > dist[n - 1]))) {
            continue;
        }
        int at = n < SWAP_TRIES ? n++ : n - 1; // insertion into the sorted list, the last one out
        while (at > 0 && dist[at - 1] < d) {
            cand[at] = cand[at - 1], dist[at] = dist[at - 1];
            --at;
        }
        cand[at] = j, dist[at] = d;
    }
    for (int t = 0; t < n; ++t) {
        int far;
        if (run_reach(fp, all, m, i0, cand[t], &far) <= eps && run_reach(fp, all, m, cand[t], i1, &far) <= eps) {
            return cand[t];
        }
    }
    return -1;
}

/// The polygon chain[0..kept), a subsequence of the convex polygon
/// all[0..m) that starts at all[0], with no vertex on an edge where another
/// choice can do without one. drop_flat_vertices leaves such vertices (it
/// never checks a kept vertex against its final neighbours, and it always
/// keeps chain[0]), and a tip kept by keep_flat_corners can put the vertex
/// beside it on the new edge (fuzz/findings f69: 0.07 eps from it). Each
/// vertex, between its neighbours p and q:
/// - goes, where every vertex of all from p to q (itself and the ones
///   dropped beside it) lies within eps of the segment p–q, so that the
///   polygon still holds every point within eps;
/// - else, where it lies within eps of that segment itself, is replaced by
///   one of the vertices of all between p and q farther from it (the
///   farthest of the SWAP_TRIES farthest whose two segments hold their
///   runs within eps; once per vertex): f69's vertex could not go, as a
///   dropped neighbour would then lie 1.05 eps out, and that neighbour
///   takes its place. (The farthest alone left some: a review's vertex
///   0.68 eps from its neighbours' segment, whose farthest candidate's
///   segment reached 1.004 eps and whose second would do.)
/// A worklist: a change moves the neighbours of two vertices, which are
/// checked again. Returns the new count, at least 3; the input count where
/// out of memory (the polygon is still a valid hull).
static int drop_edge_vertices(const flat_point *fp, const int *all, int m, int *chain, int kept, double eps) {
    int *pos = malloc((size_t)kept * 4 * sizeof *pos);
    bool *flags = malloc((size_t)kept * 2 * sizeof *flags);
    if (pos == NULL || flags == NULL) {
        free(pos);
        free(flags);
        return kept;
    }
    int *prev = pos + kept, *next = prev + kept, *stack = next + kept;
    bool *queued = flags, *moved = flags + kept;
    for (int j = 0, k = 0; j < m && k < kept; ++j) {
        if (all[j] == chain[k]) {
            pos[k++] = j;
        }
    }
    int top = 0;
    for (int k = 0; k < kept; ++k) {
        prev[k] = k == 0 ? kept - 1 : k - 1;
        next[k] = k + 1 == kept ? 0 : k + 1;
        stack[top++] = kept - 1 - k; // popped from chain[0] on
        queued[k] = true;
        moved[k] = false;
    }
    int count = kept;
    while (top > 0 && count > 3) {
        int k = stack[--top];
        queued[k] = false;
        int p = prev[k], q = next[k], far, swap;
        if (p < 0) {
            continue; // dropped already
        }
        if (run_reach(fp, all, m, pos[p], pos[q], &far) <= eps) {
            next[p] = q;
            prev[q] = p;
            prev[k] = -1;
            --count;
        } else if (!moved[k] && far != pos[k] &&
                   flat_segment_distance(&fp[all[pos[p]]], &fp[all[pos[q]]], &fp[all[pos[k]]]) <= eps &&
                   (swap = swap_candidate(fp, all, m, pos[p], pos[q], pos[k], eps)) >= 0) {
            pos[k] = swap;
            moved[k] = true;
        } else {
            continue; // a corner
        }
        int both[2] = {p, q};
        for (int i = 0; i < 2; ++i) {
            if (!queued[both[i]]) {
                queued[both[i]] = true;
                stack[top++] = both[i];
            }
        }
    }
    int n = 0;
    for (int k = 0; k < kept; ++k) {
        if (prev[k] >= 0) {
            chain[n++] = all[pos[k]];
        }
    }
    free(pos);
    free(flags);
    return n;
}

/// drop_flat_vertices on chain[0..m) of the n points fp, checked: a vertex
/// within eps of the line through its kept neighbours may still lie beyond
/// the segment between them, at the tip of a sliver (a polygon thinner
/// than eps), where the line runs along the sliver's sides: seven points
/// along a line, 1.2e-12 wide, lost the one at its +x end, 1.6e-3 beyond
/// the vertex kept before it (needle review). So every dropped vertex is
/// measured from the segment that replaced it, the farthest of each run
/// that lies beyond eps is kept, and the drop is made again, until none
/// is (each pass keeps one more vertex at least: at most m passes, and a
/// convex polygon has few such tips). Returns the count, or −1 when out of
/// memory.
static int keep_flat_corners(const flat_point *fp, int n, int *chain, int m, double eps) {
    int *all = malloc((size_t)m * sizeof *all);
    bool *forced = calloc((size_t)n, sizeof *forced);
    if (all == NULL || forced == NULL) {
        free(all);
        free(forced);
        return -1;
    }
    memcpy(all, chain, (size_t)m * sizeof *all);
    int kept = m;
    for (int pass = 0; pass < m; ++pass) {
        memcpy(chain, all, (size_t)m * sizeof *chain);
        kept = drop_flat_vertices(fp, chain, m, eps, forced);
        bool more = false;
        int far = -1, next = 0; // the run before chain[next]: its farthest vertex beyond eps
        double far_d = eps;
        for (int j = 0; j <= m; ++j) {
            if (j == m || (next < kept && all[j] == chain[next])) {
                if (far >= 0) {
                    forced[far] = more = true;
                }
                far = -1, far_d = eps, ++next;
                continue;
            }
            double d = flat_segment_distance(&fp[chain[next - 1]], &fp[chain[next % kept]], &fp[all[j]]);
            if (d > far_d) {
                far = all[j], far_d = d;
            }
        }
        if (!more) {
            break;
        }
    }
    if (kept > 3) {
        kept = drop_edge_vertices(fp, all, m, chain, kept, eps);
    }
    free(all);
    free(forced);
    return kept;
}

/// The hull of points lying (within eps) in the plane through `origin` with
/// unit normal n, as two opposite faces.
gjk_hull *gjk_hull_flat(const gjk_vec3 *points, const hv3 *pts, int n, hv3 origin, hv3 u, hv3 nrm, double eps,
                        hull_frame frame, gjk_hull_error *error) {
    hv3 v = hcross(nrm, u);
    flat_point *fp = malloc((size_t)n * sizeof *fp);
    int *chain = malloc((size_t)(2 * n + 1) * sizeof *chain);
    if (fp == NULL || chain == NULL) {
        free(fp);
        free(chain);
        *error = GJK_HULL_OUT_OF_MEMORY;
        return NULL;
    }
    for (int i = 0; i < n; ++i) {
        hv3 r = hsub(pts[i], origin);
        fp[i].x = hdot(r, u);
        fp[i].y = hdot(r, v);
        fp[i].index = i;
    }
    qsort(fp, (size_t)n, sizeof *fp, compare_flat);
    // Andrew's monotone chain, every left turn kept; then the vertices
    // within eps of the hull's line past them dropped (drop_flat_vertices).
    // (Dropping them in the chain, when the third point lay within eps of
    // the line through the first two, let the drops add up: a flat disc of
    // 5000 points kept 15 vertices and its hull fell 2% of its extent
    // short of the points, in float; 7.6e-12 of the size in double.)
    int k = 0;
    for (int pass = 0; pass < 2; ++pass) {
        int base = k;
        for (int j = 0; j < n; ++j) {
            int i = pass == 0 ? j : n - 1 - j;
            while (k >= base + 2) {
                const flat_point *a = &fp[chain[k - 2]], *b = &fp[chain[k - 1]];
                double cr = (b->x - a->x) * (fp[i].y - a->y) - (b->y - a->y) * (fp[i].x - a->x);
                if (cr > 0) {
                    break;
                }
                --k;
            }
            chain[k++] = i;
        }
        --k; // the last point of each chain starts the next
    }
    int m = k < 3 ? k : keep_flat_corners(fp, n, chain, k, eps);
    poly_set ps;
    if (m < 3 || !gjk_polys_alloc(&ps, 2, 2 * m)) {
        free(fp);
        free(chain);
        *error = m >= 0 && m < 3 ? GJK_HULL_DEGENERATE : GJK_HULL_OUT_OF_MEMORY;
        return NULL;
    }
    for (int j = 0; j < m; ++j) {
        ps.indices[j] = fp[chain[j]].index;
        ps.indices[m + j] = fp[chain[m - 1 - j]].index;
    }
    ps.first[1] = m;
    ps.first[2] = 2 * m;
    ps.face_count = 2;
    ps.index_count = 2 * m;
    ps.normals[0] = nrm;
    ps.normals[1] = hneg(nrm);
    double off = 0;
    for (int j = 0; j < m; ++j) {
        off += hdot(nrm, pts[ps.indices[j]]);
    }
    off /= (double)m;
    ps.offsets[0] = off;
    ps.offsets[1] = -off;
    free(fp);
    free(chain);
    gjk_hull *h = gjk_hull_pack(points, n, &ps, NULL, true, true, frame, error);
    gjk_polys_free(&ps);
    return h;
}
