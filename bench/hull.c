// Convex hull triangles of a point cloud with libqhull (reentrant API), for
// the peers that need a polyhedron's faces (FCL) and for the exact reference.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <libqhull_r/qhull_ra.h>

#include "bench.h"

int bench_hull(const double *points, int n, int *faces, int max_faces) {
    qhT qh_qh;
    qhT *qh = &qh_qh;
    QHULL_LIB_CHECK
    qh_zero(qh, stderr);
    coordT *pts = malloc(sizeof(coordT) * 3 * (size_t)n);
    for (int i = 0; i < 3 * n; i++) pts[i] = points[i];
    char cmd[] = "qhull Qt";
    int count = -1;
    if (qh_new_qhull(qh, 3, n, pts, False, cmd, NULL, stderr) == 0) {
        count = 0;
        facetT *facet;
        FORALLfacets {
            if (count >= max_faces) { count = -1; break; }
            int idx[3], k = 0;
            vertexT *vertex, **vertexp;
            FOREACHvertex_(facet->vertices) {
                if (k < 3) idx[k] = qh_pointid(qh, vertex->point);
                k++;
            }
            if (k != 3) continue;
            const double *a = points + 3 * idx[0], *b = points + 3 * idx[1], *c = points + 3 * idx[2];
            double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
            double nrm[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
            double dot = nrm[0] * facet->normal[0] + nrm[1] * facet->normal[1] + nrm[2] * facet->normal[2];
            if (dot < 0) { int t = idx[1]; idx[1] = idx[2]; idx[2] = t; }
            faces[3 * count] = idx[0];
            faces[3 * count + 1] = idx[1];
            faces[3 * count + 2] = idx[2];
            count++;
        }
    }
    int curlong, totlong;
    qh_freeqhull(qh, !qh_ALL);
    qh_memfreeshort(qh, &curlong, &totlong);
    free(pts);
    return count;
}

// Closest point of triangle abc to p (Ericson, Real-Time Collision Detection 5.1.5).
static void closest_on_triangle(const double *p, const double *a, const double *b, const double *c, double *out) {
#define SUB(r, x, y) double r[3] = {x[0] - y[0], x[1] - y[1], x[2] - y[2]}
#define DOT(x, y) (x[0] * y[0] + x[1] * y[1] + x[2] * y[2])
    SUB(ab, b, a); SUB(ac, c, a); SUB(ap, p, a);
    double d1 = DOT(ab, ap), d2 = DOT(ac, ap);
    if (d1 <= 0 && d2 <= 0) { for (int k = 0; k < 3; k++) out[k] = a[k]; return; }
    SUB(bp, p, b);
    double d3 = DOT(ab, bp), d4 = DOT(ac, bp);
    if (d3 >= 0 && d4 <= d3) { for (int k = 0; k < 3; k++) out[k] = b[k]; return; }
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        double v = d1 / (d1 - d3);
        for (int k = 0; k < 3; k++) out[k] = a[k] + v * ab[k];
        return;
    }
    SUB(cp, p, c);
    double d5 = DOT(ab, cp), d6 = DOT(ac, cp);
    if (d6 >= 0 && d5 <= d6) { for (int k = 0; k < 3; k++) out[k] = c[k]; return; }
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        double w = d2 / (d2 - d6);
        for (int k = 0; k < 3; k++) out[k] = a[k] + w * ac[k];
        return;
    }
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        for (int k = 0; k < 3; k++) out[k] = b[k] + w * (c[k] - b[k]);
        return;
    }
    double den = 1.0 / (va + vb + vc), v = vb * den, w = vc * den;
    for (int k = 0; k < 3; k++) out[k] = a[k] + ab[k] * v + ac[k] * w;
#undef SUB
#undef DOT
}

int bench_hull_signed_distance(const double *points, int n, const double *x, int nx, double *out) {
    qhT qh_qh;
    qhT *qh = &qh_qh;
    qh_zero(qh, stderr);
    coordT *pts = malloc(sizeof(coordT) * 3 * (size_t)n);
    for (int i = 0; i < 3 * n; i++) pts[i] = points[i];
    char cmd[] = "qhull Qt";
    int ok = qh_new_qhull(qh, 3, n, pts, False, cmd, NULL, stderr) == 0;
    if (ok) {
        for (int j = 0; j < nx; j++) {
            const double *p = x + 3 * j;
            double inside = -1e300, outside = 1e300;
            facetT *facet;
            FORALLfacets {
                double s = facet->normal[0] * p[0] + facet->normal[1] * p[1] + facet->normal[2] * p[2] + facet->offset;
                if (s > inside) inside = s;
            }
            if (inside <= 0) {
                out[j] = inside;
                continue;
            }
            FORALLfacets {
                double s = facet->normal[0] * p[0] + facet->normal[1] * p[1] + facet->normal[2] * p[2] + facet->offset;
                if (s <= 0 || s >= outside) continue; // the origin is behind this facet, or it is farther than the best
                const double *v[3];
                int k = 0;
                vertexT *vertex, **vertexp;
                FOREACHvertex_(facet->vertices) {
                    if (k < 3) v[k] = vertex->point;
                    k++;
                }
                if (k != 3) continue;
                double c[3];
                closest_on_triangle(p, v[0], v[1], v[2], c);
                double d = sqrt((c[0] - p[0]) * (c[0] - p[0]) + (c[1] - p[1]) * (c[1] - p[1]) + (c[2] - p[2]) * (c[2] - p[2]));
                if (d < outside) outside = d;
            }
            out[j] = outside;
        }
    }
    int curlong, totlong;
    qh_freeqhull(qh, !qh_ALL);
    qh_memfreeshort(qh, &curlong, &totlong);
    free(pts);
    return ok ? 0 : -1;
}
