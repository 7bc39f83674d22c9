// `gjk demo`: every shape and every query of the library on two built-in
// scenes (tools/scenes/demo3d.json and demo2d.json, embedded at build time),
// printed as a table, plus a trace page of one 3D and one 2D query.
#include "demo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

/// Rounds what is zero up to rounding, so the table reads (0 0 1).
static double tidy(double x) { return x < 1e-12 && x > -1e-12 ? 0.0 : x; }

/// "(x y)" or "(x y z)".
static void vector_text(char *out, size_t n, const double *v, int dim) {
    if (dim == 3) {
        snprintf(out, n, "(%.4g %.4g %.4g)", tidy(v[0]), tidy(v[1]), tidy(v[2]));
    } else {
        snprintf(out, n, "(%.4g %.4g)", tidy(v[0]), tidy(v[1]));
    }
}

static void print_row(const scene *s, const scene_query *q, const query_result *r) {
    char value[96] = "";
    if (r->error != NULL) {
        snprintf(value, sizeof value, "%s", r->error);
    } else if (r->has_depth) {
        snprintf(value, sizeof value, "depth %.6g  n (%.3g %.3g %.3g)", r->depth, tidy(r->normal[0]), tidy(r->normal[1]),
                 tidy(r->normal[2]));
    } else if (r->has_distance) {
        snprintf(value, sizeof value, "distance %.6g", r->distance);
    } else if (r->has_intersect) {
        snprintf(value, sizeof value, "intersect %s", r->intersect ? "yes" : "no");
    } else if (r->has_t) {
        snprintf(value, sizeof value, "hit at t %.6g  n (%.3g %.3g %.3g)", r->t, tidy(r->normal[0]), tidy(r->normal[1]),
                 tidy(r->normal[2]));
    } else if (r->has_hit) {
        snprintf(value, sizeof value, "no hit");
    } else if (r->has_manifold) {
        snprintf(value, sizeof value, "%d point%s  n (%.3g %.3g %.3g)", r->point_count, r->point_count == 1 ? "" : "s",
                 tidy(r->normal[0]), tidy(r->normal[1]), tidy(r->normal[2]));
    } else if (r->has_bounds) {
        char lo[40], hi[40];
        vector_text(lo, sizeof lo, r->lower, s->dim);
        vector_text(hi, sizeof hi, r->upper, s->dim);
        snprintf(value, sizeof value, "lower %s  upper %s", lo, hi);
    }
    printf("%-3s %-24s %-14s %-12s %5d %4d  %s\n", s->dim == 3 ? "3D" : "2D", q->id, q->op_name, r->status,
           r->iterations, r->epa_iterations, value);
}

static int run_scene(const char *text, const char *label, scene *s) {
    char error[512];
    if (!scene_parse(text, s, error, sizeof error)) {
        fprintf(stderr, "gjk: built-in %s scene: %s\n", label, error);
        return 2;
    }
    int status = 0;
    gjk_options options;
    memset(&options, 0, sizeof options);
    for (int i = 0; i < s->query_count; ++i) {
        query_result r;
        run_query(s, &s->queries[i], &options, &r);
        print_row(s, &s->queries[i], &r);
        if (r.error != NULL) {
            status = 1;
        }
        query_result_free(&r);
    }
    return status;
}

static int trace_one(const scene *s, const char *id, const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    const scene_query *q = scene_find_query(s, id);
    if (q == NULL) {
        fprintf(stderr, "gjk: built-in scene lacks query %s\n", id);
        return 2;
    }
    int st = trace_query_to_file(s, q, path, NULL);
    if (st == 0) {
        printf("wrote %s: the %s run of query \"%s\", step by step (open it in a browser)\n", path,
               s->dim == 3 ? "3D" : "2D", id);
    }
    return st;
}

int run_demo(const char *dir) {
    printf("gjk %s demo: every shape and query on two built-in scenes (tools/scenes/)\n\n", GJK_VERSION_STRING);
    printf("%-3s %-24s %-14s %-12s %5s %4s  %s\n", "dim", "query", "op", "status", "iters", "epa", "answer");
    scene s3, s2;
    int status = run_scene(gjk_demo_scene_3d, "3D", &s3);
    int st2 = run_scene(gjk_demo_scene_2d, "2D", &s2);
    status = st2 > status ? st2 : status;
    printf("\n");
    if (status < 2) {
        int t3 = trace_one(&s3, "crate-on-ground", dir, "gjk-trace-3d.html");
        int t2 = trace_one(&s2, "wedge-box", dir, "gjk-trace-2d.html");
        status = t3 > status ? t3 : status;
        status = t2 > status ? t2 : status;
    }
    scene_free(&s3);
    scene_free(&s2);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "gjk: cannot write the demo's table\n");
        return 2;
    }
    return status;
}
