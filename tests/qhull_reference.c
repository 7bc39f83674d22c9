// The qhull-based exact reference; see qhull_reference.h.
#include "qhull_reference.h"

#include <libqhull_r/qhull_ra.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

FILE *g_qhull_err;

void hull_free(hull *h) {
    free(h->t);
    free(h->vid);
    memset(h, 0, sizeof *h);
}

int hull_build(hull *h, double *pts, int n) {
    qhT qh_qh;
    qhT *qh = &qh_qh;
    char flags[] = "qhull Qt";
    int curlong, totlong;
    FILE *err = g_qhull_err ? g_qhull_err : stderr;
    memset(h, 0, sizeof *h);
    qh_zero(qh, err);
    int rc = qh_new_qhull(qh, 3, n, pts, False, flags, NULL, err);
    if (rc == 0) {
        facetT *facet;
        vertexT *vertex, **vertexp;
        int nf = 0, nv = 0;
        FORALLfacets { ++nf; }
        FORALLvertices { ++nv; }
        h->t = malloc((size_t)nf * sizeof *h->t);
        h->vid = malloc((size_t)nv * sizeof *h->vid);
        if (!h->t || !h->vid) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
        FORALLfacets {
            tri *t = &h->t[h->nt];
            int k = 0;
            if (qh_setsize(qh, facet->vertices) != 3) {
                rc = -1;
                break;
            }
            FOREACHvertex_(facet->vertices) {
                t->v[k++] = d3_make(vertex->point[0], vertex->point[1], vertex->point[2]);
            }
            t->n = d3_make(facet->normal[0], facet->normal[1], facet->normal[2]);
            t->off = facet->offset;
            ++h->nt;
        }
        FORALLvertices { h->vid[h->nv++] = qh_pointid(qh, vertex->point); }
        if (h->nv < 4 || h->nt < 4) {
            rc = -1;
        }
    }
    qh_freeqhull(qh, !qh_ALL);
    qh_memfreeshort(qh, &curlong, &totlong);
    if (rc != 0) {
        hull_free(h);
    }
    return rc;
}

double hull_sdist(const hull *h, d3 p) {
    double maxplane = -INFINITY;
    for (int i = 0; i < h->nt; ++i) maxplane = fmax(maxplane, d3_dot(h->t[i].n, p) + h->t[i].off);
    if (maxplane <= 0) return maxplane;
    double best = INFINITY;
    for (int i = 0; i < h->nt; ++i) best = fmin(best, tri_dist(p, h->t[i].v[0], h->t[i].v[1], h->t[i].v[2]));
    return best;
}

double hull_sdist_outer_facets(const hull *h, d3 p) {
    double maxplane = -INFINITY;
    for (int i = 0; i < h->nt; ++i) {
        double s = d3_dot(h->t[i].n, p) + h->t[i].off;
        if (s > maxplane) maxplane = s;
    }
    if (maxplane <= 0) {
        return maxplane;
    }
    // Outside: the closest point lies on a facet whose plane has p on its
    // outer side.
    double best = INFINITY;
    for (int i = 0; i < h->nt; ++i) {
        const tri *t = &h->t[i];
        if (d3_dot(t->n, p) + t->off > 0) {
            double d = tri_dist(p, t->v[0], t->v[1], t->v[2]);
            if (d < best) best = d;
        }
    }
    return best;
}
