// f54 (see README.md): a warm query on a float cone hull answered separated where cold says
// penetrating. Float build: cc -Iinclude -Ibuild-float/include FILE.c build-float/libgjk.a -lm;
// run with f54-warm-float-cone-hull.txt as its argument.
#include <gjk/gjk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef gjk_real R;
static gjk_vec3 verts[2][20000];
static void tr(void *u, const gjk_trace_event *e) {
    (void)u;
    printf("  %s it %d n %d lower %.9g upper %.9g dir %.9g %.9g %.9g sup %.9g %.9g %.9g\n", e->phase ? "EPA" : "GJK", e->iteration,
           e->simplex_count, (double)e->lower, (double)e->upper, (double)e->direction.x, (double)e->direction.y,
           (double)e->direction.z, (double)e->support.x, (double)e->support.y, (double)e->support.z);
    if (e->phase == 0)
        for (int m = 0; m < e->simplex_count; ++m)
            printf("     s%d %.9g %.9g %.9g\n", m, (double)e->simplex[m].x, (double)e->simplex[m].y, (double)e->simplex[m].z);
}
int main(int argc, char **argv) {
    FILE *f = fopen(argc > 1 ? argv[1] : "dump.txt", "r");
    gjk_shape S[2];
    gjk_hull *H[2] = {0, 0};
    char w[64];
    for (int k = 0; k < 2; ++k) {
        int t; double mg;
        fscanf(f, " shape %*d type %d margin %la", &t, &mg);
        memset(&S[k], 0, sizeof S[k]);
        S[k].type = t;
        if (t == GJK_SHAPE_POLYTOPE) {
            int n; fscanf(f, " nv %d", &n);
            for (int v = 0; v < n; ++v) { double x, y, z; fscanf(f, "%la %la %la", &x, &y, &z); verts[k][v] = gjk_v3((R)x, (R)y, (R)z); }
            H[k] = gjk_hull_create(verts[k], n, NULL);
            S[k] = gjk_make_hull(H[k]);
            if (H[k]->vertex_count != n) printf("hull rebuilt with %d of %d\n", H[k]->vertex_count, n);
        } else {
            fscanf(f, " %s", w);
            R *p = (R *)&S[k].segment;
            for (int v = 0; v < 10; ++v) { double x; fscanf(f, "%la", &x); p[v] = (R)x; }
            S[k].type = t;
        }
        S[k].margin = (R)mg;
    }
    gjk_query_input in; memset(&in, 0, sizeof in);
    gjk_transform *T[2] = {&in.transform_a, &in.transform_b};
    for (int k = 0; k < 2; ++k) {
        double a[7]; fscanf(f, " xf %la %la %la %la %la %la %la", a, a+1, a+2, a+3, a+4, a+5, a+6);
        *T[k] = gjk_transform_make(gjk_v3((R)a[0], (R)a[1], (R)a[2]), gjk_quat_make((R)a[3], (R)a[4], (R)a[5], (R)a[6]));
    }
    double tol, md; fscanf(f, " opt tol %la maxd %la", &tol, &md);
    in.options.tolerance = (R)tol; in.options.max_distance = (R)md;
    gjk_simplex_cache c; memset(&c, 0, sizeof c);
    fscanf(f, " cache %d", &c.count);
    for (int m = 0; m < c.count; ++m) { double x, y, z; fscanf(f, "%la %la %la %d %d", &x, &y, &z, &c.vertex_a[m], &c.vertex_b[m]); c.direction[m] = gjk_v3((R)x, (R)y, (R)z); }
    in.shape_a = &S[0]; in.shape_b = &S[1];
    int trace = argc > 2;
    gjk_penetration_output pc = gjk_penetration(&in, NULL);
    printf("cold pen: st %d sd %.9g n %.6g %.6g %.6g it %d epa %d\n", pc.status, (double)pc.signed_distance, (double)pc.normal.x, (double)pc.normal.y, (double)pc.normal.z, pc.iterations, pc.epa_iterations);
    gjk_simplex_cache c2 = c;
    if (trace) { in.options.trace = tr; }
    gjk_penetration_output pw = gjk_penetration(&in, &c2);
    printf("warm pen: st %d sd %.9g n %.6g %.6g %.6g it %d epa %d\n", pw.status, (double)pw.signed_distance, (double)pw.normal.x, (double)pw.normal.y, (double)pw.normal.z, pw.iterations, pw.epa_iterations);
    in.options.trace = NULL;
    c2 = c;
    gjk_distance_output dw = gjk_distance(&in, &c2), dc = gjk_distance(&in, NULL);
    printf("cold dist: st %d d %.9g it %d; warm dist: st %d d %.9g it %d\n", dc.status, (double)dc.distance, dc.iterations, dw.status, (double)dw.distance, dw.iterations);
    c2 = c;
    gjk_intersect_output iw = gjk_intersect_cached(&in, &c2), ic = gjk_intersect(&in);
    printf("intersect cold %d warm %d\n", ic.status, iw.status);
    return 0;
}
