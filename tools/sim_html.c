// The simulation's animation page (see sim_html.h and docs/simulation-html.md).
//
// The C side turns every shape into a triangle mesh in its local frame once,
// packs the per-frame poses and contacts compactly (16-bit integers in
// base64), and writes them with the player (sim_html_player.js: a canvas 2D
// renderer with a perspective projection, the painter's algorithm and Lambert
// shading) into one page.
#include "sim_html.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------
// Meshes

#define SIM_PI 3.14159265358979323846

static int mesh_reserve(sim_html_mesh *m, int vertices, int triangles) {
    if (m->vertex_count + vertices > m->vertex_capacity) {
        int cap = m->vertex_capacity ? m->vertex_capacity : 64;
        while (cap < m->vertex_count + vertices) cap *= 2;
        double *v = realloc(m->vertices, (size_t)cap * 3 * sizeof *v);
        if (!v) return -1;
        m->vertices = v;
        m->vertex_capacity = cap;
    }
    if (m->triangle_count + triangles > m->triangle_capacity) {
        int cap = m->triangle_capacity ? m->triangle_capacity : 64;
        while (cap < m->triangle_count + triangles) cap *= 2;
        int *t = realloc(m->triangles, (size_t)cap * 3 * sizeof *t);
        if (!t) return -1;
        m->triangles = t;
        m->triangle_capacity = cap;
    }
    return 0;
}

/// Appends a vertex; returns its index or -1.
static int mesh_vertex(sim_html_mesh *m, double x, double y, double z) {
    if (mesh_reserve(m, 1, 0)) return -1;
    double *v = m->vertices + 3 * m->vertex_count;
    v[0] = x, v[1] = y, v[2] = z;
    return m->vertex_count++;
}

static int mesh_triangle(sim_html_mesh *m, int a, int b, int c) {
    if (mesh_reserve(m, 0, 1)) return -1;
    int *t = m->triangles + 3 * m->triangle_count++;
    t[0] = a, t[1] = b, t[2] = c;
    return 0;
}

void sim_html_mesh_free(sim_html_mesh *mesh) {
    free(mesh->vertices);
    free(mesh->triangles);
    memset(mesh, 0, sizeof *mesh);
}

static void sub3(const double *a, const double *b, double *r) { r[0] = a[0] - b[0], r[1] = a[1] - b[1], r[2] = a[2] - b[2]; }
static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void cross3(const double *a, const double *b, double *r) {
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}
static double norm3(const double *a) { return sqrt(dot3(a, a)); }

/// Normal (b − a) × (c − a) of triangle t of the mesh (not unit).
static void triangle_normal(const sim_html_mesh *m, const int *t, double *n) {
    double e1[3], e2[3];
    sub3(m->vertices + 3 * t[1], m->vertices + 3 * t[0], e1);
    sub3(m->vertices + 3 * t[2], m->vertices + 3 * t[0], e2);
    cross3(e1, e2, n);
}

/// Largest |coordinate| of the mesh's vertices.
static double mesh_extent(const sim_html_mesh *m) {
    double r = 0;
    for (int i = 0; i < 3 * m->vertex_count; ++i) r = fmax(r, fabs(m->vertices[i]));
    return r;
}

/// For a closed convex mesh: turns every triangle to face away from the mean
/// of the vertices (an interior point of a convex body) and drops triangles
/// of no area.
static void mesh_orient_outward(sim_html_mesh *m) {
    double c[3] = {0, 0, 0};
    for (int i = 0; i < m->vertex_count; ++i)
        for (int k = 0; k < 3; ++k) c[k] += m->vertices[3 * i + k] / m->vertex_count;
    double scale = mesh_extent(m);
    double tiny = 1e-14 * scale * scale;
    int kept = 0;
    for (int i = 0; i < m->triangle_count; ++i) {
        int *t = m->triangles + 3 * i;
        double n[3], d[3];
        triangle_normal(m, t, n);
        if (norm3(n) <= tiny) continue;
        sub3(m->vertices + 3 * t[0], c, d);
        int *o = m->triangles + 3 * kept++;
        int a = t[0], b = t[1], cc = t[2];
        o[0] = a;
        if (dot3(n, d) < 0) o[1] = cc, o[2] = b;
        else o[1] = b, o[2] = cc;
    }
    m->triangle_count = kept;
}

/// One ring of a surface of revolution: centre and radius (0: one vertex).
typedef struct ring {
    double c[3];
    double r;
} ring;

/// A surface of revolution about the axis with unit vectors u, v across it:
/// consecutive rings joined by quads, or by a fan where a ring is one vertex.
static int mesh_revolution(sim_html_mesh *m, const ring *rings, int ring_count, const double *u, const double *v,
                           int slices) {
    int prev = -1, prev_single = 0;
    for (int k = 0; k < ring_count; ++k) {
        const ring *g = rings + k;
        int first = m->vertex_count;
        int single = g->r <= 0;
        if (single) {
            if (mesh_vertex(m, g->c[0], g->c[1], g->c[2]) < 0) return -1;
        } else {
            for (int j = 0; j < slices; ++j) {
                double phi = 2 * SIM_PI * j / slices, cs = cos(phi) * g->r, sn = sin(phi) * g->r;
                if (mesh_vertex(m, g->c[0] + cs * u[0] + sn * v[0], g->c[1] + cs * u[1] + sn * v[1],
                                g->c[2] + cs * u[2] + sn * v[2]) < 0)
                    return -1;
            }
        }
        if (prev >= 0 && !(single && prev_single)) {
            for (int j = 0; j < slices; ++j) {
                int j1 = (j + 1) % slices;
                int rc;
                if (prev_single) rc = mesh_triangle(m, prev, first + j, first + j1);
                else if (single) rc = mesh_triangle(m, prev + j, prev + j1, first);
                else
                    rc = mesh_triangle(m, prev + j, prev + j1, first + j1) ||
                         mesh_triangle(m, prev + j, first + j1, first + j);
                if (rc) return -1;
            }
        }
        prev = first;
        prev_single = single;
    }
    return 0;
}

/// Unit vectors u, v with (u, v, w) orthonormal, for unit w.
static void basis_across(const double *w, double *u, double *v) {
    double a[3] = {0, 0, 0};
    a[fabs(w[0]) < 0.6 ? 0 : fabs(w[1]) < 0.6 ? 1 : 2] = 1;
    cross3(w, a, u);
    double n = norm3(u);
    u[0] /= n, u[1] /= n, u[2] /= n;
    cross3(w, u, v);
}

enum { STACKS = 8, SLICES = 16, SAMPLE_DIRECTIONS = 240 };

/// A capsule: segment a–b swept by radius r (a sphere when a = b).
static int mesh_capsule(sim_html_mesh *m, const double *a, const double *b, double r) {
    double w[3], u[3], v[3];
    sub3(b, a, w);
    double len = norm3(w);
    if (len <= 1e-12 * r) w[0] = 0, w[1] = 0, w[2] = 1, len = 0;
    else w[0] /= len, w[1] /= len, w[2] /= len;
    basis_across(w, u, v);
    ring rings[STACKS + 2];
    int n = 0;
    // Latitudes from −90° to 90°: the lower half around a, the upper around
    // b, the equator twice (once for each end) when the ends differ.
    for (int i = 0; i <= STACKS; ++i) {
        double lat = -SIM_PI / 2 + SIM_PI * i / STACKS;
        double h = sin(lat) * r, rr = i == 0 || i == STACKS ? 0 : cos(lat) * r;
        const double *end = i * 2 < STACKS ? a : b;
        if (i * 2 == STACKS && len > 0) {
            for (int k = 0; k < 3; ++k) rings[n].c[k] = a[k];
            rings[n++].r = rr;
        }
        for (int k = 0; k < 3; ++k) rings[n].c[k] = end[k] + h * w[k];
        rings[n++].r = rr;
    }
    return mesh_revolution(m, rings, n, u, v, SLICES);
}

/// A cylinder (top radius 0: a cone) along z from −h to +h.
static int mesh_frustum(sim_html_mesh *m, double r_bottom, double r_top, double h) {
    static const double u[3] = {1, 0, 0}, v[3] = {0, 1, 0};
    ring rings[4] = {{{0, 0, -h}, 0}, {{0, 0, -h}, r_bottom}, {{0, 0, h}, r_top}, {{0, 0, h}, 0}};
    return mesh_revolution(m, rings, r_top > 0 ? 4 : 3, u, v, 2 * SLICES);
}

static int mesh_box(sim_html_mesh *m, const double *h) {
    for (int i = 0; i < 8; ++i)
        if (mesh_vertex(m, i & 1 ? h[0] : -h[0], i & 2 ? h[1] : -h[1], i & 4 ? h[2] : -h[2]) < 0) return -1;
    // Two triangles per face; mesh_orient_outward fixes their winding.
    static const int quads[6][4] = {{0, 2, 6, 4}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 5, 7, 6}};
    for (int f = 0; f < 6; ++f)
        if (mesh_triangle(m, quads[f][0], quads[f][1], quads[f][2]) ||
            mesh_triangle(m, quads[f][0], quads[f][2], quads[f][3]))
            return -1;
    return 0;
}

// ---------------------------------------------------------------------------
// Convex hull for drawing: incremental (each point added in turn, the faces
// it sees replaced by a fan from their horizon to it), O(n · faces), with a
// tolerance so that coplanar and duplicate points are dropped. Degenerate
// clouds become a flat polygon, a segment or a point.

typedef struct hull_face {
    int v[3];
    double n[3], d; // unit outward normal and offset: n·x = d on the plane
} hull_face;

static int face_make(const double *p, int a, int b, int c, hull_face *f) {
    double e1[3], e2[3];
    sub3(p + 3 * b, p + 3 * a, e1);
    sub3(p + 3 * c, p + 3 * a, e2);
    cross3(e1, e2, f->n);
    double len = norm3(f->n);
    if (!(len > 0)) return -1;
    for (int k = 0; k < 3; ++k) f->n[k] /= len;
    f->v[0] = a, f->v[1] = b, f->v[2] = c;
    f->d = dot3(f->n, p + 3 * a);
    return 0;
}

/// Index of the point farthest from `from` along or across: mode 0 distance
/// to point a, mode 1 distance to line a–b, mode 2 |signed distance| to the
/// plane (a, normal). Writes that distance.
static int farthest(const double *p, int n, int mode, const double *a, const double *dir, double *best_out) {
    int best = 0;
    double bd = -1;
    for (int i = 0; i < n; ++i) {
        double d[3], x[3], s;
        sub3(p + 3 * i, a, d);
        if (mode == 0) s = norm3(d);
        else if (mode == 1) cross3(d, dir, x), s = norm3(x);
        else s = fabs(dot3(d, dir));
        if (s > bd) bd = s, best = i;
    }
    *best_out = bd;
    return best;
}

/// 2D convex hull (monotone chain) of points projected on (e1, e2), fanned
/// into triangles of a flat mesh.
static int flat_polygon(sim_html_mesh *m, const double *p, int n, const double *e1, const double *e2) {
    double *uv = malloc((size_t)n * 2 * sizeof *uv);
    int *idx = malloc((size_t)n * sizeof *idx), *chain = malloc((size_t)(2 * n + 1) * sizeof *chain);
    int rc = -1;
    if (!uv || !idx || !chain) goto done;
    for (int i = 0; i < n; ++i) uv[2 * i] = dot3(p + 3 * i, e1), uv[2 * i + 1] = dot3(p + 3 * i, e2), idx[i] = i;
    // Insertion sort by (u, v): n is a few hundred at most here.
    for (int i = 1; i < n; ++i) {
        int x = idx[i], j = i;
        while (j > 0 && (uv[2 * idx[j - 1]] > uv[2 * x] ||
                         (uv[2 * idx[j - 1]] == uv[2 * x] && uv[2 * idx[j - 1] + 1] > uv[2 * x + 1])))
            idx[j] = idx[j - 1], --j;
        idx[j] = x;
    }
    int k = 0;
    for (int pass = 0; pass < 2; ++pass) {
        int start = k;
        for (int s = 0; s < n; ++s) {
            int i = idx[pass ? n - 1 - s : s];
            while (k >= start + 2) {
                const double *o = uv + 2 * chain[k - 2], *a = uv + 2 * chain[k - 1], *b = uv + 2 * i;
                if ((a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]) > 0) break;
                --k;
            }
            chain[k++] = i;
        }
        --k; // the last point of a chain starts the next
    }
    m->kind = SIM_HTML_FLAT;
    int base = m->vertex_count;
    for (int i = 0; i < k; ++i)
        if (mesh_vertex(m, p[3 * chain[i]], p[3 * chain[i] + 1], p[3 * chain[i] + 2]) < 0) goto done;
    for (int i = 1; i + 1 < k; ++i)
        if (mesh_triangle(m, base, base + i, base + i + 1)) goto done;
    rc = 0;
done:
    free(uv), free(idx), free(chain);
    return rc;
}

/// The convex hull of n points (x, y, z each, finite) into an empty mesh.
static int mesh_hull(sim_html_mesh *m, const double *p, int n) {
    if (n <= 0) {
        m->kind = SIM_HTML_POINT;
        return mesh_vertex(m, 0, 0, 0) < 0 ? -1 : 0;
    }
    double scale = 0;
    for (int i = 0; i < 3 * n; ++i) scale = fmax(scale, fabs(p[i]));
    double eps = 1e-7 * (scale > 0 ? scale : 1);
    double d01, d2, d3, dir[3], e1[3], e2[3], nrm[3];
    int i0 = farthest(p, n, 0, p, NULL, &d01);
    int i1 = farthest(p, n, 0, p + 3 * i0, NULL, &d01);
    if (d01 <= eps) {
        m->kind = SIM_HTML_POINT;
        return mesh_vertex(m, p[3 * i0], p[3 * i0 + 1], p[3 * i0 + 2]) < 0 ? -1 : 0;
    }
    sub3(p + 3 * i1, p + 3 * i0, dir);
    for (int k = 0; k < 3; ++k) dir[k] /= d01;
    int i2 = farthest(p, n, 1, p + 3 * i0, dir, &d2);
    if (d2 <= eps) {
        m->kind = SIM_HTML_LINE;
        return mesh_vertex(m, p[3 * i0], p[3 * i0 + 1], p[3 * i0 + 2]) < 0 ||
                       mesh_vertex(m, p[3 * i1], p[3 * i1 + 1], p[3 * i1 + 2]) < 0
                   ? -1
                   : 0;
    }
    sub3(p + 3 * i2, p + 3 * i0, e2);
    cross3(dir, e2, nrm);
    double nn = norm3(nrm);
    for (int k = 0; k < 3; ++k) nrm[k] /= nn;
    int i3 = farthest(p, n, 2, p + 3 * i0, nrm, &d3);
    if (d3 <= eps) {
        for (int k = 0; k < 3; ++k) e1[k] = dir[k];
        cross3(nrm, e1, e2);
        return flat_polygon(m, p, n, e1, e2);
    }

    int cap = 64, count = 0;
    hull_face *faces = malloc((size_t)cap * sizeof *faces);
    int *horizon = NULL, horizon_cap = 0;
    int rc = -1;
    if (!faces) return -1;
    {
        int tet[4] = {i0, i1, i2, i3};
        double c[3];
        for (int k = 0; k < 3; ++k) c[k] = (p[3 * i0 + k] + p[3 * i1 + k] + p[3 * i2 + k] + p[3 * i3 + k]) / 4;
        static const int tf[4][3] = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {0, 2, 3}};
        for (int f = 0; f < 4; ++f) {
            if (face_make(p, tet[tf[f][0]], tet[tf[f][1]], tet[tf[f][2]], &faces[count])) goto done;
            if (dot3(faces[count].n, c) > faces[count].d) // faces the centre: turn it
                if (face_make(p, tet[tf[f][0]], tet[tf[f][2]], tet[tf[f][1]], &faces[count])) goto done;
            ++count;
        }
    }
    for (int i = 0; i < n; ++i) {
        if (i == i0 || i == i1 || i == i2 || i == i3) continue;
        const double *x = p + 3 * i;
        // The faces that see x move to the end of the list.
        int keep = 0;
        for (int f = 0; f < count; ++f) {
            if (dot3(faces[f].n, x) - faces[f].d > eps) continue;
            hull_face t = faces[keep];
            faces[keep++] = faces[f];
            faces[f] = t;
        }
        if (keep == count) continue;
        // Horizon: the edges of seeing faces whose reverse no seeing face has.
        int hn = 0, seen = count - keep;
        if (3 * seen > horizon_cap) {
            horizon_cap = 6 * seen;
            int *h = realloc(horizon, (size_t)horizon_cap * 2 * sizeof *h);
            if (!h) goto done;
            horizon = h;
        }
        for (int f = keep; f < count; ++f)
            for (int e = 0; e < 3; ++e) {
                int a = faces[f].v[e], b = faces[f].v[(e + 1) % 3], inner = 0;
                for (int g = keep; g < count && !inner; ++g)
                    for (int e2i = 0; e2i < 3; ++e2i)
                        if (faces[g].v[e2i] == b && faces[g].v[(e2i + 1) % 3] == a) inner = 1;
                if (!inner) horizon[2 * hn] = a, horizon[2 * hn + 1] = b, ++hn;
            }
        count = keep;
        if (count + hn > cap) {
            while (cap < count + hn) cap *= 2;
            hull_face *nf = realloc(faces, (size_t)cap * sizeof *nf);
            if (!nf) goto done;
            faces = nf;
        }
        for (int h = 0; h < hn; ++h)
            if (face_make(p, horizon[2 * h], horizon[2 * h + 1], i, &faces[count]) == 0) ++count;
    }
    // Copy out the vertices used, renumbered.
    {
        int *map = malloc((size_t)n * sizeof *map);
        if (!map) goto done;
        for (int i = 0; i < n; ++i) map[i] = -1;
        m->kind = SIM_HTML_SOLID;
        for (int f = 0; f < count; ++f) {
            int t[3];
            for (int e = 0; e < 3; ++e) {
                int v = faces[f].v[e];
                if (map[v] < 0) map[v] = mesh_vertex(m, p[3 * v], p[3 * v + 1], p[3 * v + 2]);
                if (map[v] < 0) {
                    free(map);
                    goto done;
                }
                t[e] = map[v];
            }
            if (mesh_triangle(m, t[0], t[1], t[2])) {
                free(map);
                goto done;
            }
        }
        free(map);
    }
    rc = 0;
done:
    free(faces);
    free(horizon);
    return rc;
}

/// The hull of the shape's support points (margin included) along
/// SAMPLE_DIRECTIONS directions spread evenly over the sphere (a Fibonacci
/// lattice: z uniform in [−1, 1], longitude advancing by the golden angle)
/// plus the six axes.
static int mesh_sampled(sim_html_mesh *m, const gjk_shape *shape) {
    enum { N = SAMPLE_DIRECTIONS + 6 };
    double *p = malloc((size_t)N * 3 * sizeof *p);
    if (!p) return -1;
    int n = 0;
    double golden = SIM_PI * (3 - sqrt(5.0));
    for (int i = 0; i < N; ++i) {
        double d[3];
        if (i < 6) {
            d[0] = d[1] = d[2] = 0;
            d[i / 2] = i % 2 ? -1 : 1;
        } else {
            int j = i - 6;
            double z = 1 - (2 * j + 1.0) / SAMPLE_DIRECTIONS, r = sqrt(fmax(0, 1 - z * z));
            d[0] = r * cos(golden * j), d[1] = r * sin(golden * j), d[2] = z;
        }
        gjk_vec3 s = gjk_shape_support(shape, gjk_v3((gjk_real)d[0], (gjk_real)d[1], (gjk_real)d[2]));
        double x[3] = {(double)s.x, (double)s.y, (double)s.z};
        if (!isfinite(x[0]) || !isfinite(x[1]) || !isfinite(x[2])) continue;
        memcpy(p + 3 * n++, x, sizeof x);
    }
    int rc = mesh_hull(m, p, n);
    free(p);
    return rc;
}

static void vec_to(gjk_vec3 v, double *out) { out[0] = (double)v.x, out[1] = (double)v.y, out[2] = (double)v.z; }

int sim_html_mesh_build(const gjk_shape *shape, sim_html_mesh *m) {
    memset(m, 0, sizeof *m);
    int rc;
    double margin = (double)shape->margin, a[3], b[3], c[3];
    if (gjk_shape_validate(shape) != GJK_SEPARATED) {
        m->kind = SIM_HTML_POINT;
        rc = mesh_vertex(m, 0, 0, 0) < 0 ? -1 : 0;
    } else {
        m->kind = SIM_HTML_SOLID;
        switch (shape->type) {
        case GJK_SHAPE_POINT:
            if (margin > 0) {
                a[0] = a[1] = a[2] = 0;
                rc = mesh_capsule(m, a, a, margin);
            } else {
                m->kind = SIM_HTML_POINT;
                rc = mesh_vertex(m, 0, 0, 0) < 0 ? -1 : 0;
            }
            break;
        case GJK_SHAPE_SEGMENT:
            vec_to(shape->segment.a, a), vec_to(shape->segment.b, b);
            if (margin > 0) rc = mesh_capsule(m, a, b, margin);
            else {
                m->kind = SIM_HTML_LINE;
                rc = mesh_vertex(m, a[0], a[1], a[2]) < 0 || mesh_vertex(m, b[0], b[1], b[2]) < 0 ? -1 : 0;
            }
            break;
        case GJK_SHAPE_TRIANGLE:
            vec_to(shape->triangle.a, a), vec_to(shape->triangle.b, b), vec_to(shape->triangle.c, c);
            if (margin > 0) rc = mesh_sampled(m, shape);
            else {
                double p[9] = {a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]};
                rc = mesh_hull(m, p, 3); // a flat triangle, or a segment or point when degenerate
            }
            break;
        case GJK_SHAPE_BOX:
            vec_to(shape->box.half_extents, a);
            if (margin > 0 || !(fmin(a[0], fmin(a[1], a[2])) > 1e-9 * fmax(a[0], fmax(a[1], a[2]))))
                rc = mesh_sampled(m, shape);
            else rc = mesh_box(m, a);
            break;
        case GJK_SHAPE_SPHERE:
            a[0] = a[1] = a[2] = 0;
            if ((double)shape->sphere.radius + margin > 0) rc = mesh_capsule(m, a, a, (double)shape->sphere.radius + margin);
            else {
                m->kind = SIM_HTML_POINT;
                rc = mesh_vertex(m, 0, 0, 0) < 0 ? -1 : 0;
            }
            break;
        case GJK_SHAPE_CAPSULE:
            vec_to(shape->capsule.a, a), vec_to(shape->capsule.b, b);
            if ((double)shape->capsule.radius + margin > 0)
                rc = mesh_capsule(m, a, b, (double)shape->capsule.radius + margin);
            else rc = mesh_sampled(m, shape);
            break;
        case GJK_SHAPE_CYLINDER:
        case GJK_SHAPE_CONE: {
            double r = (double)(shape->type == GJK_SHAPE_CONE ? shape->cone.radius : shape->cylinder.radius);
            double h = (double)(shape->type == GJK_SHAPE_CONE ? shape->cone.half_height : shape->cylinder.half_height);
            if (margin > 0 || !(r > 0) || !(h > 0)) rc = mesh_sampled(m, shape);
            else rc = mesh_frustum(m, r, shape->type == GJK_SHAPE_CONE ? 0 : r, h);
            break;
        }
        case GJK_SHAPE_ELLIPSOID:
            vec_to(shape->ellipsoid.radii, a);
            if (margin > 0 || !(fmin(a[0], fmin(a[1], a[2])) > 0)) rc = mesh_sampled(m, shape);
            else {
                b[0] = b[1] = b[2] = 0;
                rc = mesh_capsule(m, b, b, 1);
                for (int i = 0; i < 3 * m->vertex_count; ++i) m->vertices[i] *= a[i % 3];
            }
            break;
        case GJK_SHAPE_POLYTOPE: {
            const gjk_hull *h = shape->polytope.hull;
            if (margin > 0 || shape->polytope.count > 4096) rc = mesh_sampled(m, shape);
            else if (h && h->vertex_count > 0 && h->face_count > 0) {
                m->kind = h->flat ? SIM_HTML_FLAT : SIM_HTML_SOLID;
                rc = 0;
                for (int i = 0; i < h->vertex_count && !rc; ++i)
                    rc = mesh_vertex(m, (double)h->vertices[i].x, (double)h->vertices[i].y,
                                     (double)h->vertices[i].z) < 0;
                for (int f = 0; f < h->face_count && !rc; ++f)
                    for (int k = h->face_first[f] + 1; k + 1 < h->face_first[f + 1] && !rc; ++k)
                        rc = mesh_triangle(m, h->face_indices[h->face_first[f]], h->face_indices[k],
                                           h->face_indices[k + 1]);
                rc = rc ? -1 : 0;
            } else {
                int n = shape->polytope.count;
                double *p = malloc((size_t)n * 3 * sizeof *p);
                if (!p) rc = -1;
                else {
                    for (int i = 0; i < n; ++i) vec_to(shape->polytope.vertices[i], p + 3 * i);
                    rc = mesh_hull(m, p, n);
                    free(p);
                }
            }
            break;
        }
        case GJK_SHAPE_CUSTOM:
        default:
            rc = mesh_sampled(m, shape);
            break;
        }
    }
    if (rc) {
        sim_html_mesh_free(m);
        return -1;
    }
    if (m->kind == SIM_HTML_SOLID) mesh_orient_outward(m);
    return 0;
}

// ---------------------------------------------------------------------------
// The page

/// The player script (tools/sim_html_player.js), one string per line;
/// generated by tools/embed_lines.cmake, ends with NULL.
extern const char *const sim_html_player_js[];

static bool real_eq(gjk_real a, gjk_real b) { return a == b; }
static bool vec_eq(gjk_vec3 a, gjk_vec3 b) { return real_eq(a.x, b.x) && real_eq(a.y, b.y) && real_eq(a.z, b.z); }

/// True when two shapes are drawn the same (so their mesh is written once).
static bool shape_eq(const gjk_shape *a, const gjk_shape *b) {
    if (a->type != b->type || !real_eq(a->margin, b->margin)) return false;
    switch (a->type) {
    case GJK_SHAPE_POINT: return true;
    case GJK_SHAPE_SEGMENT: return vec_eq(a->segment.a, b->segment.a) && vec_eq(a->segment.b, b->segment.b);
    case GJK_SHAPE_TRIANGLE:
        return vec_eq(a->triangle.a, b->triangle.a) && vec_eq(a->triangle.b, b->triangle.b) &&
               vec_eq(a->triangle.c, b->triangle.c);
    case GJK_SHAPE_BOX: return vec_eq(a->box.half_extents, b->box.half_extents);
    case GJK_SHAPE_SPHERE: return real_eq(a->sphere.radius, b->sphere.radius);
    case GJK_SHAPE_CAPSULE:
        return vec_eq(a->capsule.a, b->capsule.a) && vec_eq(a->capsule.b, b->capsule.b) &&
               real_eq(a->capsule.radius, b->capsule.radius);
    case GJK_SHAPE_CYLINDER:
        return real_eq(a->cylinder.radius, b->cylinder.radius) &&
               real_eq(a->cylinder.half_height, b->cylinder.half_height);
    case GJK_SHAPE_CONE:
        return real_eq(a->cone.radius, b->cone.radius) && real_eq(a->cone.half_height, b->cone.half_height);
    case GJK_SHAPE_ELLIPSOID: return vec_eq(a->ellipsoid.radii, b->ellipsoid.radii);
    case GJK_SHAPE_POLYTOPE:
        return a->polytope.vertices == b->polytope.vertices && a->polytope.count == b->polytope.count &&
               a->polytope.hull == b->polytope.hull;
    case GJK_SHAPE_CUSTOM:
        return a->custom.support == b->custom.support && a->custom.user_data == b->custom.user_data;
    default: return false;
    }
}

static bool pose_eq(const gjk_transform *a, const gjk_transform *b) {
    return vec_eq(a->position, b->position) && real_eq(a->rotation.w, b->rotation.w) &&
           real_eq(a->rotation.x, b->rotation.x) && real_eq(a->rotation.y, b->rotation.y) &&
           real_eq(a->rotation.z, b->rotation.z);
}

static bool vec_finite(gjk_vec3 v) { return isfinite((double)v.x) && isfinite((double)v.y) && isfinite((double)v.z); }

/// Streaming base64 (RFC 4648, no line breaks).
typedef struct b64_writer {
    FILE *out;
    unsigned char pending[3];
    int count;
} b64_writer;

static void b64_flush(b64_writer *w) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (!w->count) return;
    unsigned v = (unsigned)w->pending[0] << 16 | (unsigned)(w->count > 1 ? w->pending[1] : 0) << 8 |
                 (unsigned)(w->count > 2 ? w->pending[2] : 0);
    char s[4] = {alphabet[v >> 18 & 63], alphabet[v >> 12 & 63], w->count > 1 ? alphabet[v >> 6 & 63] : '=',
                 w->count > 2 ? alphabet[v & 63] : '='};
    fwrite(s, 1, 4, w->out);
    w->count = 0;
}

static void b64_i16(b64_writer *w, int value) {
    unsigned u = (unsigned)value & 0xffffu;
    unsigned char bytes[2] = {(unsigned char)(u & 0xff), (unsigned char)(u >> 8)}; // little-endian
    for (int i = 0; i < 2; ++i) {
        w->pending[w->count++] = bytes[i];
        if (w->count == 3) b64_flush(w);
    }
}

/// x in [lo, lo + span] as a 16-bit integer: −32768 at lo, 32767 at lo + span.
static int quantize(double x, double lo, double span) {
    double t = floor((x - lo) / span * 65535.0 + 0.5) - 32768.0;
    if (!(t > -32768.0)) return -32768; // also NaN
    if (t > 32767.0) return 32767;
    return (int)t;
}

/// A unit-range number (quaternion or normal component) as a 16-bit integer.
static int quantize_unit(double x) {
    double t = floor(x * 32767.0 + 0.5);
    if (!(t > -32767.0)) return -32767;
    if (t > 32767.0) return 32767;
    return (int)t;
}

/// A JSON string, with '<' escaped so that no "</script>" can close the page's script.
static void json_string(FILE *out, const char *s) {
    fputc('"', out);
    for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; ++c) {
        if (*c == '"' || *c == '\\') fprintf(out, "\\%c", *c);
        else if (*c < 0x20 || *c == '<' || *c == '>' || *c == '&') fprintf(out, "\\u%04x", *c);
        else fputc(*c, out);
    }
    fputc('"', out);
}

/// A number with 5 significant digits; coordinates below `zero` print as 0.
static void json_number(FILE *out, double x, double zero) {
    if (!isfinite(x) || fabs(x) < zero) fputs("0", out);
    else fprintf(out, "%.5g", x);
}

static const char page_head[] =
    "<!DOCTYPE html>\n"
    "<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<title>gjk simulation</title>\n"
    "<style>\n"
    "html,body{margin:0;height:100%;background:#f4f5f7;color:#222;font:13px sans-serif;overflow:hidden}\n"
    "#bar{display:flex;align-items:center;gap:10px;padding:6px 10px;background:#e4e7ec;height:26px}\n"
    "#slider{flex:1;min-width:80px}\n"
    "#label{font-family:monospace;white-space:pre;min-width:22em}\n"
    "#view{display:block;width:100%;height:calc(100% - 38px);cursor:grab;touch-action:none}\n"
    "#gjk-status{position:absolute;left:8px;right:8px;bottom:6px;font:11px monospace;color:#667;white-space:nowrap;overflow:hidden}\n"
    "#gjk-errors{color:#b00}\n"
    "</style>\n"
    // The error hook comes first, so that an error anywhere later is shown
    // on the page (and seen by the browser test).
    "<script>window.gjkErrors=[];function gjkReport(m){window.gjkErrors.push(String(m));"
    "var e=document.getElementById('gjk-errors');if(e)e.textContent='script error: '+window.gjkErrors.join(' | ');}"
    "window.addEventListener('error',function(e){gjkReport(e.message+' (line '+e.lineno+')');});"
    "window.addEventListener('unhandledrejection',function(e){gjkReport('unhandled rejection: '+e.reason);});"
    "</script>\n"
    "</head><body>\n"
    "<div id=\"bar\"><button id=\"play\" type=\"button\">Pause</button>"
    "<input id=\"slider\" type=\"range\" min=\"0\" max=\"0\" value=\"0\" aria-label=\"frame\">"
    "<span id=\"label\"></span>"
    "<label><input id=\"contacts\" type=\"checkbox\"> contacts</label>"
    "<label>up <select id=\"up\"><option value=\"0\">+x</option><option value=\"1\">\xe2\x88\x92x</option>"
    "<option value=\"2\">+y</option><option value=\"3\">\xe2\x88\x92y</option><option value=\"4\">+z</option>"
    "<option value=\"5\">\xe2\x88\x92z</option></select></label></div>\n"
    "<canvas id=\"view\" width=\"800\" height=\"560\"></canvas>\n"
    "<div id=\"gjk-status\"><span id=\"gjk-selftest\"></span> <span id=\"gjk-controls\"></span> <span id=\"gjk-errors\"></span></div>\n";

/// Grows the box [lo, hi] to hold the mesh moved by the pose.
static void box_extend(const sim_html_mesh *m, const gjk_transform *pose, double *lo, double *hi) {
    double q[4] = {(double)pose->rotation.w, (double)pose->rotation.x, (double)pose->rotation.y,
                   (double)pose->rotation.z};
    double p[3] = {(double)pose->position.x, (double)pose->position.y, (double)pose->position.z};
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 0) || !isfinite(n) || !isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) return;
    for (int k = 0; k < 4; ++k) q[k] /= n;
    for (int i = 0; i < m->vertex_count; ++i) {
        // v' = v + 2w (u × v) + 2 u × (u × v), u the quaternion's vector part.
        const double *v = m->vertices + 3 * i;
        double t[3], c[3];
        cross3(q + 1, v, t);
        for (int k = 0; k < 3; ++k) t[k] *= 2;
        cross3(q + 1, t, c);
        for (int k = 0; k < 3; ++k) {
            double x = v[k] + q[0] * t[k] + c[k] + p[k];
            lo[k] = fmin(lo[k], x), hi[k] = fmax(hi[k], x);
        }
    }
}

int sim_html_write(FILE *out, const sim_html_run *run) {
    if (!out || !run || run->body_count < 0 || run->frame_count < 0) return -1;
    const int nb = run->body_count, nf = run->frame_count;
    if ((nb > 0 && !run->bodies) || (nb > 0 && nf > 0 && !run->poses)) return -1;
    int total_contacts = 0;
    if (run->contact_first && nf > 0) {
        if (run->contact_first[0] < 0) return -1;
        for (int f = 0; f < nf; ++f)
            if (run->contact_first[f + 1] < run->contact_first[f]) return -1;
        total_contacts = run->contact_first[nf] - run->contact_first[0];
        if (total_contacts > 0 && !run->contacts) return -1;
    }

    int rc = -1;
    sim_html_mesh *meshes = calloc((size_t)(nb > 0 ? nb : 1), sizeof *meshes);
    int *mesh_of = calloc((size_t)(nb > 0 ? nb : 1), sizeof *mesh_of);
    bool *fixed = calloc((size_t)(nb > 0 ? nb : 1), sizeof *fixed);
    int mesh_count = 0;
    if (!meshes || !mesh_of || !fixed) goto done;

    // One mesh per distinct shape.
    for (int b = 0; b < nb; ++b) {
        int same = -1;
        for (int c = 0; c < b && same < 0; ++c)
            if (shape_eq(&run->bodies[b].shape, &run->bodies[c].shape)) same = mesh_of[c];
        if (same >= 0) {
            mesh_of[b] = same;
            continue;
        }
        if (sim_html_mesh_build(&run->bodies[b].shape, &meshes[mesh_count])) goto done;
        mesh_of[b] = mesh_count++;
    }

    // Bodies that never move store one pose; the quantisation box holds
    // every finite position and contact point.
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double vlo[3] = {INFINITY, INFINITY, INFINITY}, vhi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double fall[3] = {0, 0, 0};
    int dynamic = 0;
    for (int b = 0; b < nb; ++b) {
        fixed[b] = true;
        for (int f = 1; f < nf && fixed[b]; ++f)
            if (!pose_eq(&run->poses[(size_t)f * nb + b], &run->poses[b])) fixed[b] = false;
        if (!run->bodies[b].is_static) ++dynamic;
    }
    for (int b = 0; b < nb; ++b) {
        for (int f = 0; f < nf; ++f) {
            gjk_vec3 p = run->poses[(size_t)f * nb + b].position;
            if (!vec_finite(p)) continue;
            double x[3] = {(double)p.x, (double)p.y, (double)p.z};
            for (int k = 0; k < 3; ++k) lo[k] = fmin(lo[k], x[k]), hi[k] = fmax(hi[k], x[k]);
        }
        if (nf > 1 && !run->bodies[b].is_static) {
            gjk_vec3 p0 = run->poses[b].position, p1 = run->poses[(size_t)(nf - 1) * nb + b].position;
            if (vec_finite(p0) && vec_finite(p1)) {
                fall[0] += (double)(p1.x - p0.x), fall[1] += (double)(p1.y - p0.y), fall[2] += (double)(p1.z - p0.z);
            }
        }
    }
    // The camera frames the first frame: the moving bodies (all bodies when
    // none moves), then the static ones no larger than four times their box, so
    // that a ground of the scene's size is in view and a huge one does not
    // shrink the bodies to dots. (The whole run would not do: a body that
    // falls off the ground for a minute takes the view with it.)
    for (int pass = 0; pass < 2 && nf > 0; ++pass) {
        double reach = 0;
        for (int k = 0; k < 3; ++k) reach = fmax(reach, vhi[k] - vlo[k]);
        for (int b = 0; b < nb; ++b) {
            bool moving = dynamic == 0 || !run->bodies[b].is_static;
            double r = mesh_extent(&meshes[mesh_of[b]]);
            if (pass == 0 ? !moving : moving || (reach > 0 && r > 4 * reach)) continue;
            box_extend(&meshes[mesh_of[b]], &run->poses[b], vlo, vhi);
        }
    }
    for (int i = 0; i < total_contacts; ++i) {
        gjk_vec3 p = run->contacts[run->contact_first[0] + i].point;
        if (!vec_finite(p)) continue;
        double x[3] = {(double)p.x, (double)p.y, (double)p.z};
        for (int k = 0; k < 3; ++k) lo[k] = fmin(lo[k], x[k]), hi[k] = fmax(hi[k], x[k]);
    }
    double span[3], center[3], radius = 0;
    for (int k = 0; k < 3; ++k) {
        if (!(lo[k] <= hi[k])) lo[k] = 0, hi[k] = 0;
        span[k] = hi[k] - lo[k];
        if (!(span[k] > 1e-12 * fmax(fabs(lo[k]), fabs(hi[k])))) span[k] = fmax(1e-12 * fabs(lo[k]), 1e-9);
        if (!(vlo[k] <= vhi[k])) vlo[k] = -1, vhi[k] = 1;
        center[k] = (vlo[k] + vhi[k]) / 2;
        radius += (vhi[k] - vlo[k]) * (vhi[k] - vlo[k]) / 4;
    }
    radius = sqrt(radius);
    if (!(radius > 0) || !isfinite(radius)) radius = 1;
    // Up. A ground: the largest static body, when it is a slab (its box at
    // the first frame at most half as thick along one axis as along the
    // others), gives the axis, pointing from it toward the moving bodies.
    // Else the axis along which the moving bodies travelled much more than
    // along the others (they fell), against their travel. Else +z.
    int up = 4, ground = -1;
    double biggest = 0;
    for (int b = 0; b < nb && nf > 0; ++b)
        if (run->bodies[b].is_static && mesh_extent(&meshes[mesh_of[b]]) > biggest)
            biggest = mesh_extent(&meshes[mesh_of[b]]), ground = b;
    bool found = false;
    if (ground >= 0) {
        double glo[3] = {INFINITY, INFINITY, INFINITY}, ghi[3] = {-INFINITY, -INFINITY, -INFINITY}, side[3];
        box_extend(&meshes[mesh_of[ground]], &run->poses[ground], glo, ghi);
        for (int k = 0; k < 3; ++k) side[k] = ghi[k] - glo[k];
        int k = side[0] <= side[1] && side[0] <= side[2] ? 0 : side[1] <= side[2] ? 1 : 2;
        if (side[k] <= 0.5 * side[(k + 1) % 3] && side[k] <= 0.5 * side[(k + 2) % 3]) {
            double above = 0, mid = (glo[k] + ghi[k]) / 2;
            for (int b = 0; b < nb; ++b) {
                if (run->bodies[b].is_static) continue;
                gjk_vec3 p = run->poses[b].position;
                double x[3] = {(double)p.x, (double)p.y, (double)p.z};
                if (isfinite(x[k])) above += x[k] - mid;
            }
            up = 2 * k + (above < 0 ? 1 : 0);
            found = true;
        }
    }
    if (!found) {
        double a[3] = {fabs(fall[0]), fabs(fall[1]), fabs(fall[2])};
        int k = a[0] >= a[1] && a[0] >= a[2] ? 0 : a[1] >= a[2] ? 1 : 2;
        if (isfinite(a[k]) && a[k] > 0 && a[k] >= 2 * a[(k + 1) % 3] && a[k] >= 2 * a[(k + 2) % 3])
            up = 2 * k + (fall[k] > 0 ? 1 : 0);
    }

    // Data.
    fputs(page_head, out);
    fputs("<script type=\"application/json\" id=\"gjk-data\">{\"version\":1", out);
    fprintf(out, ",\"frames\":%d,\"dt\":%.9g,\"up\":%d", nf, isfinite(run->dt) && run->dt > 0 ? run->dt : 0.0, up);
    fprintf(out, ",\"view\":[%.9g,%.9g,%.9g,%.9g]", center[0], center[1], center[2], radius);
    fprintf(out, ",\"box\":[%.17g,%.17g,%.17g,%.17g,%.17g,%.17g]", lo[0], lo[1], lo[2], span[0], span[1], span[2]);
    fputs(",\n\"meshes\":[", out);
    for (int i = 0; i < mesh_count; ++i) {
        const sim_html_mesh *m = &meshes[i];
        double zero = 1e-6 * mesh_extent(m);
        fprintf(out, "%s\n{\"kind\":%d,\"v\":[", i ? "," : "", (int)m->kind);
        for (int j = 0; j < 3 * m->vertex_count; ++j) {
            if (j) fputc(',', out);
            json_number(out, m->vertices[j], zero);
        }
        fputs("],\"t\":[", out);
        for (int j = 0; j < 3 * m->triangle_count; ++j) fprintf(out, j ? ",%d" : "%d", m->triangles[j]);
        fputs("]}", out);
    }
    fputs("],\n\"bodies\":[", out);
    int pose_index = 0;
    for (int b = 0; b < nb; ++b) {
        fputs(b ? ",\n{\"id\":" : "\n{\"id\":", out);
        json_string(out, run->bodies[b].id);
        fprintf(out, ",\"mesh\":%d,\"static\":%d,\"fixed\":%d,\"pose\":%d}", mesh_of[b], run->bodies[b].is_static ? 1 : 0,
                fixed[b] || nf <= 1 ? 1 : 0, pose_index);
        pose_index += fixed[b] ? (nf > 0 ? 1 : 0) : nf;
    }
    // Poses, body by body: position quantised in the box, quaternion × 32767.
    fputs("],\n\"poses\":\"", out);
    b64_writer w = {out, {0, 0, 0}, 0};
    for (int b = 0; b < nb; ++b) {
        int count = fixed[b] ? (nf > 0 ? 1 : 0) : nf;
        for (int f = 0; f < count; ++f) {
            const gjk_transform *t = &run->poses[(size_t)f * nb + b];
            double x[3] = {(double)t->position.x, (double)t->position.y, (double)t->position.z};
            double q[4] = {(double)t->rotation.w, (double)t->rotation.x, (double)t->rotation.y, (double)t->rotation.z};
            double qn = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            if (!(qn > 0) || !isfinite(qn)) q[0] = 1, q[1] = q[2] = q[3] = 0, qn = 1;
            for (int k = 0; k < 3; ++k) b64_i16(&w, isfinite(x[k]) ? quantize(x[k], lo[k], span[k]) : 0);
            for (int k = 0; k < 4; ++k) b64_i16(&w, quantize_unit(q[k] / qn));
        }
    }
    b64_flush(&w);
    // Contacts: a count per frame, then point (in the box) and unit normal.
    fputs("\",\n\"contact_counts\":[", out);
    for (int f = 0; f < nf; ++f)
        fprintf(out, f ? ",%d" : "%d", run->contact_first ? run->contact_first[f + 1] - run->contact_first[f] : 0);
    fputs("],\n\"contacts\":\"", out);
    for (int i = 0; i < total_contacts; ++i) {
        const sim_html_contact *c = &run->contacts[run->contact_first[0] + i];
        double x[3] = {(double)c->point.x, (double)c->point.y, (double)c->point.z};
        double n[3] = {(double)c->normal.x, (double)c->normal.y, (double)c->normal.z};
        double nn = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (!(nn > 0) || !isfinite(nn)) n[0] = n[1] = n[2] = 0, nn = 1;
        for (int k = 0; k < 3; ++k) b64_i16(&w, isfinite(x[k]) ? quantize(x[k], lo[k], span[k]) : 0);
        for (int k = 0; k < 3; ++k) b64_i16(&w, quantize_unit(n[k] / nn));
    }
    b64_flush(&w);
    fputs("\"}</script>\n<script>\n", out);
    for (const char *const *line = sim_html_player_js; *line; ++line) fputs(*line, out);
    fputs("</script>\n</body></html>\n", out);
    rc = fflush(out) == 0 && !ferror(out) ? 0 : -1;
done:
    if (meshes)
        for (int i = 0; i < mesh_count; ++i) sim_html_mesh_free(&meshes[i]);
    free(meshes);
    free(mesh_of);
    free(fixed);
    return rc;
}
