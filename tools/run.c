// Runs scene queries through the library and writes JSON lines.
#include "run.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static char *message(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = malloc((size_t)n + 1);
    if (s != NULL) {
        va_start(ap, fmt);
        vsnprintf(s, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    return s;
}

static void set3(double *out, gjk_vec3 v) {
    out[0] = (double)v.x, out[1] = (double)v.y, out[2] = (double)v.z;
}

/// Status of an answer; errors get a message naming the query (and, for a
/// cap reached, the cap: `cap_name` and its value). Returns false when the
/// library rejected the input: the line then carries no answer (every
/// number the library returned is zero, no answer at all).
static bool set_status_capped(const scene_query *q, gjk_status st, const char *cap_name, int max_iterations,
                              query_result *r) {
    switch (st) {
    case GJK_SEPARATED: r->status = "separated"; break;
    case GJK_TOUCHING: r->status = "touching"; break;
    case GJK_PENETRATING: r->status = "penetrating"; break;
    case GJK_NOT_CONVERGED:
        r->status = "error";
        r->error = message("query \"%s\": did not converge within the iteration cap (%s %d); the best answer "
                           "found is given",
                           q->id, cap_name, max_iterations);
        break;
    default:
        r->status = "error";
        r->error = message("query \"%s\": the library rejected the input (invalid input: a number out of its "
                           "range, see README, \"Tolerances\")",
                           q->id);
        r->rejected = true;
        return false;
    }
    return true;
}

static bool set_status(const scene_query *q, gjk_status st, int max_iterations, query_result *r) {
    return set_status_capped(q, st, "GJK", max_iterations, r);
}

/// The caps in effect: GJK's iterations and EPA's.
typedef struct query_caps {
    int gjk, epa;
} query_caps;

/// Status of a query that may run EPA: a cap reached names GJK's when the
/// walk used it all (`iterations`; −1: not known), else EPA's.
static bool set_status_epa(const scene_query *q, gjk_status st, query_caps caps, int iterations, query_result *r) {
    if (st == GJK_NOT_CONVERGED && iterations < 0) {
        r->status = "error";
        r->error = message("query \"%s\": did not converge within the iteration caps (GJK %d, EPA %d); the best "
                           "answer found is given",
                           q->id, caps.gjk, caps.epa);
        return true;
    }
    bool walk_capped = iterations >= caps.gjk;
    return set_status_capped(q, st, walk_capped ? "GJK" : "EPA", walk_capped ? caps.gjk : caps.epa, r);
}

static void fill_intersect(const scene_query *q, gjk_intersect_output out, int cap, query_result *r) {
    if (!set_status(q, out.status, cap, r)) {
        return;
    }
    r->has_intersect = r->has_iterations = true;
    r->intersect = out.intersect;
    r->iterations = out.iterations;
}

static void fill_distance(const scene_query *q, const gjk_distance_output *out, int cap, query_result *r) {
    if (!set_status(q, out->status, cap, r)) {
        return;
    }
    r->has_distance = r->has_points = r->has_iterations = true;
    r->distance = (double)out->distance;
    set3(r->point_a, out->point_a);
    set3(r->point_b, out->point_b);
    r->has_normal = gjk_length_sq(out->normal) > 0;
    set3(r->normal, out->normal);
    r->iterations = out->iterations;
}

static void fill_penetration(const scene_query *q, const gjk_penetration_output *out, query_caps caps,
                             query_result *r) {
    if (!set_status_epa(q, out->status, caps, out->iterations, r)) {
        return;
    }
    // Touching or overlapping by the status, as the intersect query says
    // (touching shapes may lie a rounding apart: their distance is given;
    // penetrating ones overlap).
    bool overlap = out->status != GJK_SEPARATED && out->signed_distance <= 0;
    r->has_intersect = true;
    r->intersect = overlap || out->status == GJK_TOUCHING;
    r->has_signed_distance = true;
    r->signed_distance = (double)out->signed_distance;
    r->has_depth = overlap;
    r->depth = (double)out->depth;
    r->has_distance = !overlap;
    r->distance = (double)(out->signed_distance > 0 ? out->signed_distance : 0);
    r->has_points = r->has_normal = r->has_iterations = r->has_epa_iterations = true;
    set3(r->point_a, out->point_a);
    set3(r->point_b, out->point_b);
    set3(r->normal, out->normal);
    r->iterations = out->iterations;
    r->epa_iterations = out->epa_iterations;
}

/// A cast's answer; `cap_name` names the iteration cap a GJK_NOT_CONVERGED
/// reached.
static void fill_cast(const scene_query *q, const gjk_cast_output *out, const char *cap_name, int cap,
                      query_result *r) {
    if (out->status == GJK_HIT || out->status == GJK_INITIALLY_OVERLAPPING) {
        r->status = "hit";
        r->initially_overlapping = out->status == GJK_INITIALLY_OVERLAPPING;
    } else if (out->status == GJK_MISS) {
        r->status = "miss";
    } else if (!set_status_capped(q, out->status, cap_name, cap, r)) {
        return;
    }
    r->has_hit = r->has_iterations = true;
    r->hit = out->hit;
    r->iterations = out->iterations;
    // t on a hit, and on a cap reached: how far the motion is safe, the
    // best answer found.
    r->has_t = out->hit || out->status == GJK_NOT_CONVERGED;
    r->t = (double)out->t;
    if (out->hit) {
        r->has_normal = true;
        set3(r->point, out->point);
        set3(r->normal, out->normal);
    }
}

/// A shape's box: status "ok", or the library's rejection.
static void fill_bounds(const scene_query *q, gjk_status st, gjk_vec3 lower, gjk_vec3 upper, query_result *r) {
    if (st != GJK_SEPARATED) {
        set_status(q, GJK_INVALID_INPUT, 0, r);
        return;
    }
    r->status = "ok";
    r->has_bounds = true;
    set3(r->lower, lower);
    set3(r->upper, upper);
}

/// The cap of time-of-impact steps in effect.
static int toi_cap(const gjk_options *o) {
    return o->max_iterations > 0 ? o->max_iterations : GJK_DEFAULT_MAX_TOI_ITERATIONS;
}

/// A manifold (3D; 2D lifted with z = 0).
static void fill_manifold(const scene_query *q, const gjk_manifold *m, query_caps caps, query_result *r) {
    if (!set_status_epa(q, m->status, caps, -1, r)) {
        return;
    }
    r->has_manifold = true;
    r->has_normal = gjk_length_sq(m->normal) > 0;
    set3(r->normal, m->normal);
    r->point_count = m->point_count;
    for (int i = 0; i < m->point_count; ++i) {
        set3(r->points[i].point_a, m->points[i].point_a);
        set3(r->points[i].point_b, m->points[i].point_b);
        r->points[i].separation = (double)m->points[i].separation;
        r->points[i].id = m->points[i].id;
    }
}

/// The caps the options put in effect.
static query_caps caps_of(const gjk_options *o) {
    query_caps c = {o->max_iterations > 0 ? o->max_iterations : GJK_DEFAULT_MAX_ITERATIONS,
                    o->max_epa_iterations > 0 ? o->max_epa_iterations : GJK_DEFAULT_MAX_EPA_ITERATIONS};
    return c;
}

static void run3(const scene_query *q, const gjk_options *o, query_result *r) {
    query_caps caps = caps_of(o);
    int cap = caps.gjk;
    if (q->op == SCENE_OP_RAYCAST) {
        gjk_raycast_input in = {.shape = &q->a->shape,
                                .transform = q->pose_a.transform,
                                .origin = q->origin,
                                .direction = q->direction,
                                .max_t = (gjk_real)q->max_t,
                                .options = *o};
        gjk_cast_output out = gjk_raycast(&in);
        fill_cast(q, &out, "GJK", cap, r);
        return;
    }
    if (q->op == SCENE_OP_SHAPECAST) {
        gjk_shapecast_input in = {.shape_a = &q->a->shape,
                                  .transform_a = q->pose_a.transform,
                                  .shape_b = &q->b->shape,
                                  .transform_b = q->pose_b.transform,
                                  .translation_b = q->translation_b,
                                  .target_separation = (gjk_real)q->target_separation,
                                  .options = *o};
        gjk_cast_output out = gjk_shapecast(&in);
        fill_cast(q, &out, "GJK", cap, r);
        return;
    }
    if (q->op == SCENE_OP_TIME_OF_IMPACT) {
        gjk_toi_input in = {.shape_a = &q->a->shape,
                            .sweep_a = {q->pose_a.transform, q->pose_a_end.transform},
                            .shape_b = &q->b->shape,
                            .sweep_b = {q->pose_b.transform, q->pose_b_end.transform},
                            .target_separation = (gjk_real)q->target_separation,
                            .options = *o};
        gjk_cast_output out = gjk_time_of_impact(&in);
        fill_cast(q, &out, "time of impact steps", toi_cap(o), r);
        return;
    }
    if (q->op == SCENE_OP_CONTACT) {
        gjk_contact_input in = {.shape_a = &q->a->shape,
                                .transform_a = q->pose_a.transform,
                                .shape_b = &q->b->shape,
                                .transform_b = q->pose_b.transform,
                                .speculative_distance = (gjk_real)q->speculative_distance,
                                .options = *o};
        gjk_manifold m = gjk_contact(&in, NULL);
        fill_manifold(q, &m, caps, r);
        return;
    }
    if (q->op == SCENE_OP_AABB) {
        gjk_aabb_output b = gjk_shape_aabb(&q->a->shape, q->pose_a.transform);
        fill_bounds(q, b.status, b.lower, b.upper, r);
        return;
    }
    gjk_query_input in = {.shape_a = &q->a->shape,
                          .transform_a = q->pose_a.transform,
                          .shape_b = &q->b->shape,
                          .transform_b = q->pose_b.transform,
                          .options = *o};
    if (q->op == SCENE_OP_INTERSECT) {
        fill_intersect(q, gjk_intersect(&in), cap, r);
    } else if (q->op == SCENE_OP_DISTANCE) {
        gjk_distance_output out = gjk_distance(&in, NULL);
        fill_distance(q, &out, cap, r);
    } else {
        gjk_penetration_output out = gjk_penetration(&in, NULL);
        fill_penetration(q, &out, caps, r);
    }
}

static gjk_vec3 lift(gjk_vec2 v) { return gjk_v3(v.x, v.y, 0); }

/// 2D answers are lifted into the 3D output structs (z = 0) and reported
/// by the same code; r->dim = 2 prints two components.
static gjk_vec2 flat(gjk_vec3 v) { return gjk_v2(v.x, v.y); }

static void run2(const scene_query *q, const gjk_options *o, query_result *r) {
    query_caps caps = caps_of(o);
    int cap = caps.gjk;
    if (q->op == SCENE_OP_RAYCAST || q->op == SCENE_OP_SHAPECAST) {
        gjk2_cast_output o2;
        if (q->op == SCENE_OP_RAYCAST) {
            gjk2_raycast_input in = {.shape = &q->a->shape2,
                                     .transform = q->pose_a.transform2,
                                     .origin = flat(q->origin),
                                     .direction = flat(q->direction),
                                     .max_t = (gjk_real)q->max_t,
                                     .options = *o};
            o2 = gjk2_raycast(&in);
        } else {
            gjk2_shapecast_input in = {.shape_a = &q->a->shape2,
                                       .transform_a = q->pose_a.transform2,
                                       .shape_b = &q->b->shape2,
                                       .transform_b = q->pose_b.transform2,
                                       .translation_b = flat(q->translation_b),
                                       .target_separation = (gjk_real)q->target_separation,
                                       .options = *o};
            o2 = gjk2_shapecast(&in);
        }
        gjk_cast_output out = {o2.status, o2.hit, o2.t, lift(o2.point), lift(o2.normal), o2.iterations};
        fill_cast(q, &out, "GJK", cap, r);
        return;
    }
    if (q->op == SCENE_OP_TIME_OF_IMPACT) {
        gjk2_toi_input in = {.shape_a = &q->a->shape2,
                             .sweep_a = {q->pose_a.transform2, q->pose_a_end.transform2},
                             .shape_b = &q->b->shape2,
                             .sweep_b = {q->pose_b.transform2, q->pose_b_end.transform2},
                             .target_separation = (gjk_real)q->target_separation,
                             .options = *o};
        gjk2_cast_output o2 = gjk2_time_of_impact(&in);
        gjk_cast_output out = {o2.status, o2.hit, o2.t, lift(o2.point), lift(o2.normal), o2.iterations};
        fill_cast(q, &out, "time of impact steps", toi_cap(o), r);
        return;
    }
    if (q->op == SCENE_OP_CONTACT) {
        gjk2_contact_input in = {.shape_a = &q->a->shape2,
                                 .transform_a = q->pose_a.transform2,
                                 .shape_b = &q->b->shape2,
                                 .transform_b = q->pose_b.transform2,
                                 .speculative_distance = (gjk_real)q->speculative_distance,
                                 .options = *o};
        gjk2_manifold m2 = gjk2_contact(&in, NULL);
        gjk_manifold m;
        memset(&m, 0, sizeof m);
        m.status = m2.status;
        m.normal = lift(m2.normal);
        m.point_count = m2.point_count;
        for (int i = 0; i < m2.point_count; ++i) {
            m.points[i].point_a = lift(m2.points[i].point_a);
            m.points[i].point_b = lift(m2.points[i].point_b);
            m.points[i].separation = m2.points[i].separation;
            m.points[i].id = m2.points[i].id;
        }
        fill_manifold(q, &m, caps, r);
        return;
    }
    if (q->op == SCENE_OP_AABB) {
        gjk2_aabb_output b = gjk2_shape_aabb(&q->a->shape2, q->pose_a.transform2);
        fill_bounds(q, b.status, lift(b.lower), lift(b.upper), r);
        return;
    }
    gjk2_query_input in = {.shape_a = &q->a->shape2,
                           .transform_a = q->pose_a.transform2,
                           .shape_b = &q->b->shape2,
                           .transform_b = q->pose_b.transform2,
                           .options = *o};
    if (q->op == SCENE_OP_INTERSECT) {
        gjk2_intersect_output o2 = gjk2_intersect(&in);
        gjk_intersect_output out = {o2.status, o2.intersect, o2.iterations};
        fill_intersect(q, out, cap, r);
    } else if (q->op == SCENE_OP_DISTANCE) {
        gjk2_distance_output o2 = gjk2_distance(&in, NULL);
        gjk_distance_output out = {o2.status, o2.distance, lift(o2.point_a), lift(o2.point_b), lift(o2.normal),
                                   o2.iterations};
        fill_distance(q, &out, cap, r);
    } else {
        gjk2_penetration_output o2 = gjk2_penetration(&in, NULL);
        gjk_penetration_output out = {o2.status,        o2.signed_distance, o2.depth,          lift(o2.point_a),
                                      lift(o2.point_b), lift(o2.normal),    o2.iterations,     o2.epa_iterations};
        fill_penetration(q, &out, caps, r);
    }
}

void run_query(const scene *s, const scene_query *q, const gjk_options *options, query_result *r) {
    memset(r, 0, sizeof *r);
    r->dim = s->dim;
    if (q->error != NULL) {
        r->status = "error";
        r->error = message("%s", q->error);
        return;
    }
    if (s->dim == 3) {
        run3(q, options, r);
    } else {
        run2(q, options, r);
    }
}

void query_result_free(query_result *r) {
    free(r->error);
    r->error = NULL;
}

// ---- JSON writing: fixed field order, numbers as %.17g ----

static void json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20) {
                fprintf(f, "\\u%04x", *p);
            } else {
                fputc(*p, f);
            }
        }
    }
    fputc('"', f);
}

static void json_number(FILE *f, double x) {
    if (isfinite(x)) {
        fprintf(f, "%.17g", x == 0 ? 0.0 : x); // no "-0"
    } else {
        fputs("null", f);
    }
}

static void json_key(FILE *f, const char *key) {
    fputc(',', f);
    json_string(f, key);
    fputc(':', f);
}

static void json_vector(FILE *f, const char *key, const double *v, int dim) {
    json_key(f, key);
    fputc('[', f);
    for (int i = 0; i < dim; ++i) {
        if (i) {
            fputc(',', f);
        }
        json_number(f, v[i]);
    }
    fputc(']', f);
}

void write_json_line(FILE *f, const scene_query *q, const query_result *r) {
    fputs("{\"id\":", f);
    json_string(f, q->id);
    json_key(f, "op");
    json_string(f, q->op_name ? q->op_name : "");
    json_key(f, "status");
    json_string(f, r->status);
    if (r->error != NULL) {
        json_key(f, "error");
        json_string(f, r->error);
    }
    if (r->has_intersect) {
        json_key(f, "intersect");
        fputs(r->intersect ? "true" : "false", f);
    }
    if (r->has_hit) {
        json_key(f, "hit");
        fputs(r->hit ? "true" : "false", f);
    }
    if (r->has_t) {
        json_key(f, "t");
        json_number(f, r->t);
        json_vector(f, "point", r->point, r->dim);
    }
    if (r->initially_overlapping) {
        json_key(f, "initially_overlapping");
        fputs("true", f);
    }
    if (r->has_distance) {
        json_key(f, "distance");
        json_number(f, r->distance);
    }
    if (r->has_depth) {
        json_key(f, "depth");
        json_number(f, r->depth);
    }
    if (r->has_signed_distance) {
        json_key(f, "signed_distance");
        json_number(f, r->signed_distance);
    }
    if (r->has_points) {
        json_vector(f, "point_a", r->point_a, r->dim);
        json_vector(f, "point_b", r->point_b, r->dim);
    }
    if (r->has_normal) {
        json_vector(f, "normal", r->normal, r->dim);
    }
    if (r->has_bounds) {
        json_vector(f, "lower", r->lower, r->dim);
        json_vector(f, "upper", r->upper, r->dim);
    }
    if (r->has_manifold) {
        json_key(f, "points");
        fputc('[', f);
        for (int i = 0; i < r->point_count; ++i) {
            fputs(i ? ",{" : "{", f);
            json_string(f, "id");
            fprintf(f, ":%lu", r->points[i].id);
            json_vector(f, "point_a", r->points[i].point_a, r->dim);
            json_vector(f, "point_b", r->points[i].point_b, r->dim);
            json_key(f, "separation");
            json_number(f, r->points[i].separation);
            fputc('}', f);
        }
        fputc(']', f);
    }
    if (r->has_iterations) {
        json_key(f, "iterations");
        fprintf(f, "%d", r->iterations);
    }
    if (r->has_epa_iterations) {
        json_key(f, "epa_iterations");
        fprintf(f, "%d", r->epa_iterations);
    }
    fputs("}\n", f);
}
