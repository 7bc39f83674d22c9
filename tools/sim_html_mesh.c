// The simulation's animation page: every shape as a triangle mesh in its
// local frame, built once (see sim_html.h; the page itself is sim_html.c).
// Solids are closed and oriented outward, for the player's shading; flat
// polygons, segments and points are kept as such (sim_html_mesh_kind).
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

double sim_html_mesh_extent(const sim_html_mesh *m) {
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
    double scale = sim_html_mesh_extent(m);
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

void sim_html_mesh_extend_box(const sim_html_mesh *m, const gjk_transform *pose, double *lo, double *hi) {
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
