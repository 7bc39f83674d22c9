// Scene files read with cJSON. See scene.h and the README for the format.
#include "scene.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *copy_string(const char *s) {
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c != NULL) {
        memcpy(c, s, n);
    }
    return c;
}

static char *format(const char *fmt, ...) {
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

// ---- field readers: each returns NULL or a message "field \"x\": ..." ----

static char *read_number(const cJSON *obj, const char *field, bool required, double fallback, double *out) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, field);
    if (item == NULL) {
        if (required) {
            return format("field \"%s\": missing", field);
        }
        *out = fallback;
        return NULL;
    }
    if (!cJSON_IsNumber(item)) {
        return format("field \"%s\": expected a number", field);
    }
    if (!isfinite(item->valuedouble)) {
        return format("field \"%s\": not a finite number", field);
    }
    *out = item->valuedouble;
    return NULL;
}

static char *read_nonneg(const cJSON *obj, const char *field, bool required, double *out) {
    char *e = read_number(obj, field, required, 0, out);
    if (e == NULL && *out < 0) {
        e = format("field \"%s\": must not be negative (%.17g)", field, *out);
    }
    return e;
}

/// A vector of `dim` finite numbers; `nonneg` also rejects negative ones.
static char *read_vector(const cJSON *obj, const char *field, int dim, bool required, bool nonneg, double *out) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, field);
    if (item == NULL) {
        if (required) {
            return format("field \"%s\": missing", field);
        }
        for (int i = 0; i < dim; ++i) {
            out[i] = 0;
        }
        return NULL;
    }
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != dim) {
        return format("field \"%s\": expected an array of %d numbers", field, dim);
    }
    int i = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, item) {
        if (!cJSON_IsNumber(x)) {
            return format("field \"%s\": expected an array of %d numbers", field, dim);
        }
        if (!isfinite(x->valuedouble)) {
            return format("field \"%s\": not a finite number", field);
        }
        if (nonneg && x->valuedouble < 0) {
            return format("field \"%s\": must not be negative (%.17g)", field, x->valuedouble);
        }
        out[i++] = x->valuedouble;
    }
    return NULL;
}

static gjk_vec3 v3(const double *d) { return gjk_v3((gjk_real)d[0], (gjk_real)d[1], (gjk_real)d[2]); }
static gjk_vec2 v2(const double *d) { return gjk_v2((gjk_real)d[0], (gjk_real)d[1]); }

/// Reads a point list into freshly allocated arrays.
static char *read_points(const cJSON *obj, const char *field, int dim, scene_shape *sh) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, field);
    if (item == NULL) {
        return format("field \"%s\": missing", field);
    }
    if (!cJSON_IsArray(item)) {
        return format("field \"%s\": expected an array of points", field);
    }
    int n = cJSON_GetArraySize(item);
    if (n == 0) {
        return format("field \"%s\": empty vertex list", field);
    }
    if (dim == 3) {
        sh->vertices = calloc((size_t)n, sizeof *sh->vertices);
    } else {
        sh->vertices2 = calloc((size_t)n, sizeof *sh->vertices2);
    }
    if (sh->vertices == NULL && sh->vertices2 == NULL) {
        return format("field \"%s\": out of memory", field);
    }
    int i = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, item) {
        double d[3];
        if (!cJSON_IsArray(p) || cJSON_GetArraySize(p) != dim) {
            return format("field \"%s\": vertex %d: expected an array of %d numbers", field, i, dim);
        }
        int k = 0;
        const cJSON *x;
        cJSON_ArrayForEach(x, p) {
            if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble)) {
                return format("field \"%s\": vertex %d: not a finite number", field, i);
            }
            d[k++] = x->valuedouble;
        }
        if (dim == 3) {
            sh->vertices[i] = v3(d);
        } else {
            sh->vertices2[i] = v2(d);
        }
        ++i;
    }
    sh->vertex_count = n;
    return NULL;
}

char *scene_unknown_field(const cJSON *obj, const char *const *known) {
    const cJSON *item;
    cJSON_ArrayForEach(item, obj) {
        bool found = false;
        for (const char *const *k = known; *k != NULL && !found; ++k) {
            found = item->string != NULL && strcmp(item->string, *k) == 0;
        }
        if (!found) {
            return format("field \"%s\": not a field here", item->string ? item->string : "");
        }
    }
    return NULL;
}

/// The fields of each shape type (beside "type" and "margin").
static const char *const *shape_fields(const char *type) {
    static const char *const none[] = {"type", "margin", NULL};
    static const char *const ab[] = {"type", "margin", "a", "b", NULL};
    static const char *const abc[] = {"type", "margin", "a", "b", "c", NULL};
    static const char *const box[] = {"type", "margin", "half_extents", NULL};
    static const char *const round[] = {"type", "margin", "radius", NULL};
    static const char *const capsule[] = {"type", "margin", "a", "b", "radius", NULL};
    static const char *const solid[] = {"type", "margin", "radius", "half_height", NULL};
    static const char *const radii[] = {"type", "margin", "radii", NULL};
    static const char *const vertices[] = {"type", "margin", "vertices", NULL};
    static const struct {
        const char *type;
        const char *const *fields;
    } table[] = {{"point", none},     {"segment", ab},      {"triangle", abc},    {"box", box},
                 {"sphere", round},   {"circle", round},    {"capsule", capsule}, {"cylinder", solid},
                 {"cone", solid},     {"ellipsoid", radii}, {"ellipse", radii},   {"polytope", vertices},
                 {"polygon", vertices}};
    for (size_t k = 0; k < sizeof table / sizeof table[0]; ++k) {
        if (strcmp(type, table[k].type) == 0) {
            return table[k].fields;
        }
    }
    return none;
}

static char *parse_shape3(const cJSON *obj, const char *type, scene_shape *sh) {
    double a[3], b[3], c[3], r = 0, h = 0;
    char *e = NULL;
    gjk_shape *s = &sh->shape;
    if (strcmp(type, "point") == 0) {
        *s = gjk_make_point();
    } else if (strcmp(type, "segment") == 0) {
        if (!(e = read_vector(obj, "a", 3, true, false, a)) && !(e = read_vector(obj, "b", 3, true, false, b))) {
            *s = gjk_make_segment(v3(a), v3(b));
        }
    } else if (strcmp(type, "triangle") == 0) {
        if (!(e = read_vector(obj, "a", 3, true, false, a)) && !(e = read_vector(obj, "b", 3, true, false, b)) &&
            !(e = read_vector(obj, "c", 3, true, false, c))) {
            *s = gjk_make_triangle(v3(a), v3(b), v3(c));
        }
    } else if (strcmp(type, "box") == 0) {
        if (!(e = read_vector(obj, "half_extents", 3, true, true, a))) {
            *s = gjk_make_box(v3(a));
        }
    } else if (strcmp(type, "sphere") == 0) {
        if (!(e = read_nonneg(obj, "radius", true, &r))) {
            *s = gjk_make_sphere((gjk_real)r);
        }
    } else if (strcmp(type, "capsule") == 0) {
        if (!(e = read_vector(obj, "a", 3, true, false, a)) && !(e = read_vector(obj, "b", 3, true, false, b)) &&
            !(e = read_nonneg(obj, "radius", true, &r))) {
            *s = gjk_make_capsule(v3(a), v3(b), (gjk_real)r);
        }
    } else if (strcmp(type, "cylinder") == 0 || strcmp(type, "cone") == 0) {
        if (!(e = read_nonneg(obj, "radius", true, &r)) && !(e = read_nonneg(obj, "half_height", true, &h))) {
            *s = type[1] == 'y' ? gjk_make_cylinder((gjk_real)r, (gjk_real)h) : gjk_make_cone((gjk_real)r, (gjk_real)h);
        }
    } else if (strcmp(type, "ellipsoid") == 0) {
        if (!(e = read_vector(obj, "radii", 3, true, true, a))) {
            *s = gjk_make_ellipsoid(v3(a));
        }
    } else if (strcmp(type, "polytope") == 0) {
        if (!(e = read_points(obj, "vertices", 3, sh))) {
            *s = gjk_make_polytope(sh->vertices, sh->vertex_count);
        }
    } else {
        e = format("field \"type\": unknown 3D shape type \"%s\"", type);
    }
    return e;
}

static char *parse_shape2(const cJSON *obj, const char *type, scene_shape *sh) {
    double a[2], b[2], c[2], r = 0;
    char *e = NULL;
    gjk2_shape *s = &sh->shape2;
    if (strcmp(type, "point") == 0) {
        *s = gjk2_make_point();
    } else if (strcmp(type, "segment") == 0) {
        if (!(e = read_vector(obj, "a", 2, true, false, a)) && !(e = read_vector(obj, "b", 2, true, false, b))) {
            *s = gjk2_make_segment(v2(a), v2(b));
        }
    } else if (strcmp(type, "triangle") == 0) {
        if (!(e = read_vector(obj, "a", 2, true, false, a)) && !(e = read_vector(obj, "b", 2, true, false, b)) &&
            !(e = read_vector(obj, "c", 2, true, false, c))) {
            *s = gjk2_make_triangle(v2(a), v2(b), v2(c));
        }
    } else if (strcmp(type, "box") == 0) {
        if (!(e = read_vector(obj, "half_extents", 2, true, true, a))) {
            *s = gjk2_make_box(v2(a));
        }
    } else if (strcmp(type, "circle") == 0) {
        if (!(e = read_nonneg(obj, "radius", true, &r))) {
            *s = gjk2_make_circle((gjk_real)r);
        }
    } else if (strcmp(type, "ellipse") == 0) {
        if (!(e = read_vector(obj, "radii", 2, true, true, a))) {
            *s = gjk2_make_ellipse(v2(a));
        }
    } else if (strcmp(type, "capsule") == 0) {
        if (!(e = read_vector(obj, "a", 2, true, false, a)) && !(e = read_vector(obj, "b", 2, true, false, b)) &&
            !(e = read_nonneg(obj, "radius", true, &r))) {
            *s = gjk2_make_capsule(v2(a), v2(b), (gjk_real)r);
        }
    } else if (strcmp(type, "polygon") == 0) {
        if (!(e = read_points(obj, "vertices", 2, sh))) {
            // Ordered convex vertices are recognised (the same answers, from
            // the edges where clear); any other cloud is its hull.
            *s = gjk2_make_convex_polygon(sh->vertices2, sh->vertex_count);
        }
    } else {
        e = format("field \"type\": unknown 2D shape type \"%s\"", type);
    }
    return e;
}

static void parse_shape(const cJSON *item, int dim, scene_shape *sh) {
    sh->name = copy_string(item->string ? item->string : "");
    char *e = NULL;
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(item, "type");
    double margin = 0;
    if (!cJSON_IsObject(item)) {
        e = format("expected an object");
    } else if (type == NULL) {
        e = format("field \"type\": missing");
    } else if (!cJSON_IsString(type)) {
        e = format("field \"type\": expected a string");
    } else {
        sh->type = copy_string(type->valuestring);
        e = dim == 3 ? parse_shape3(item, type->valuestring, sh) : parse_shape2(item, type->valuestring, sh);
        if (e == NULL) {
            e = read_nonneg(item, "margin", false, &margin);
        }
        if (e == NULL) {
            e = scene_unknown_field(item, shape_fields(type->valuestring));
        }
        if (e == NULL) {
            sh->shape.margin = (gjk_real)margin;
            sh->shape2.margin = (gjk_real)margin;
        }
    }
    if (e != NULL) {
        sh->error = format("shape \"%s\": %s", sh->name, e);
        free(e);
    }
}

/// A pose object; a missing pose is the identity.
static char *read_pose(const cJSON *q, const char *field, int dim, scene_pose *pose) {
    pose->transform = gjk_transform_identity();
    pose->transform2 = gjk_transform2_identity();
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(q, field);
    if (p == NULL) {
        return NULL;
    }
    if (!cJSON_IsObject(p)) {
        return format("field \"%s\": expected an object", field);
    }
    static const char *const fields3[] = {"position", "rotation", NULL}, *const fields2[] = {"position", "angle", NULL};
    double pos[3], rot[4] = {1, 0, 0, 0}, angle = 0;
    char *e = scene_unknown_field(p, dim == 3 ? fields3 : fields2);
    if (e == NULL) {
        e = read_vector(p, "position", dim, false, false, pos);
    }
    if (e == NULL && dim == 3) {
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(p, "rotation");
        if (r != NULL && !(e = read_vector(p, "rotation", 4, true, false, rot))) {
            // Divided by its largest component first, so that a tiny or
            // huge quaternion's squares neither underflow nor overflow
            // (review: [1e-200, 0, 0, 0] read as a zero quaternion).
            double m = fmax(fmax(fabs(rot[0]), fabs(rot[1])), fmax(fabs(rot[2]), fabs(rot[3])));
            if (!(m > 0)) {
                e = format("field \"rotation\": zero quaternion");
            } else {
                for (int i = 0; i < 4; ++i) {
                    rot[i] /= m;
                }
                double inv = 1 / sqrt(rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2] + rot[3] * rot[3]);
                for (int i = 0; i < 4; ++i) {
                    rot[i] *= inv;
                }
            }
        }
        if (e == NULL) {
            pose->transform = gjk_transform_make(
                v3(pos), gjk_quat_make((gjk_real)rot[0], (gjk_real)rot[1], (gjk_real)rot[2], (gjk_real)rot[3]));
        }
    } else if (e == NULL) {
        e = read_number(p, "angle", false, 0, &angle);
        if (e == NULL) {
            pose->transform2.position = v2(pos);
            pose->transform2.rotation = gjk_rot2_make((gjk_real)angle);
        }
    }
    if (e != NULL) {
        char *full = format("field \"%s\": %s", field, e);
        free(e);
        return full;
    }
    return NULL;
}

int scene_name_compare(const void *pa, const void *pb) {
    const scene_name *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    return c != 0 ? c : (a->index > b->index) - (a->index < b->index);
}

const scene_shape *scene_find_shape(const scene *s, const char *name) {
    if (s->by_name == NULL) {
        return NULL;
    }
    int lo = 0, hi = s->shape_count; // the first entry not below name
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(s->by_name[mid].name, name) < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < s->shape_count && strcmp(s->by_name[lo].name, name) == 0 ? &s->shapes[s->by_name[lo].index] : NULL;
}

static char *read_shape_ref(const scene *s, const cJSON *q, const char *field, const scene_shape **out) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(q, field);
    if (item == NULL) {
        return format("field \"%s\": missing", field);
    }
    if (!cJSON_IsString(item)) {
        return format("field \"%s\": expected a shape name", field);
    }
    *out = scene_find_shape(s, item->valuestring);
    if (*out == NULL) {
        return format("field \"%s\": unknown shape \"%s\"", field, item->valuestring);
    }
    return NULL;
}

static const struct {
    const char *name;
    scene_op op;
} ops[] = {{"intersect", SCENE_OP_INTERSECT}, {"distance", SCENE_OP_DISTANCE}, {"penetration", SCENE_OP_PENETRATION},
           {"raycast", SCENE_OP_RAYCAST},     {"shapecast", SCENE_OP_SHAPECAST}, {"time_of_impact", SCENE_OP_TIME_OF_IMPACT},
           {"contact", SCENE_OP_CONTACT},     {"aabb", SCENE_OP_AABB}};

bool scene_op_has_b(scene_op op) { return op != SCENE_OP_RAYCAST && op != SCENE_OP_AABB; }

/// A sweep's end pose: as read, or the start pose when the field is missing
/// (a shape that does not move).
static char *read_end_pose(const cJSON *item, const char *field, int dim, const scene_pose *start, scene_pose *end) {
    if (cJSON_GetObjectItemCaseSensitive(item, field) == NULL) {
        *end = *start;
        return NULL;
    }
    return read_pose(item, field, dim, end);
}

static void parse_query(const scene *s, const cJSON *item, int index, scene_query *q) {
    char *e = NULL;
    q->op = SCENE_OP_UNKNOWN;
    q->max_t = 1;
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(item, "id");
    if (cJSON_IsString(id)) {
        q->id = copy_string(id->valuestring);
    } else if (cJSON_IsNumber(id)) {
        q->id = format("%.17g", id->valuedouble);
    } else {
        q->id = format("#%d", index); // no usable id: name it by position
        if (cJSON_IsObject(item)) {
            e = format(id == NULL ? "field \"id\": missing" : "field \"id\": expected a string");
        }
    }
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(item, "op");
    if (e != NULL) {
        // reported below
    } else if (!cJSON_IsObject(item)) {
        e = format("expected an object");
    } else if (op == NULL) {
        e = format("field \"op\": missing");
    } else if (!cJSON_IsString(op)) {
        e = format("field \"op\": expected a string");
    } else {
        q->op_name = copy_string(op->valuestring);
        for (size_t k = 0; k < sizeof ops / sizeof ops[0]; ++k) {
            if (strcmp(op->valuestring, ops[k].name) == 0) {
                q->op = ops[k].op;
            }
        }
        if (q->op == SCENE_OP_UNKNOWN) {
            e = format("field \"op\": unknown op \"%s\"", op->valuestring);
        }
    }
    double d[3];
    int dim = s->dim;
    if (e == NULL) {
        e = read_shape_ref(s, item, "a", &q->a);
    }
    bool has_b = scene_op_has_b(q->op);
    if (e == NULL && has_b) {
        e = read_shape_ref(s, item, "b", &q->b);
    }
    if (e == NULL) {
        e = read_pose(item, "pose_a", dim, &q->pose_a);
    }
    if (e == NULL && has_b) {
        e = read_pose(item, "pose_b", dim, &q->pose_b);
    }
    if (e == NULL && q->op == SCENE_OP_TIME_OF_IMPACT) {
        if (!(e = read_end_pose(item, "pose_a_end", dim, &q->pose_a, &q->pose_a_end))) {
            e = read_end_pose(item, "pose_b_end", dim, &q->pose_b, &q->pose_b_end);
        }
    }
    if (e == NULL && (q->op == SCENE_OP_SHAPECAST || q->op == SCENE_OP_TIME_OF_IMPACT)) {
        e = read_nonneg(item, "target_separation", false, &q->target_separation);
    }
    if (e == NULL && q->op == SCENE_OP_CONTACT) {
        e = read_nonneg(item, "speculative_distance", false, &q->speculative_distance);
    }
    if (e == NULL && q->op == SCENE_OP_RAYCAST) {
        d[2] = 0;
        if (!(e = read_vector(item, "origin", dim, true, false, d))) {
            q->origin = v3(d);
            d[2] = 0;
            if (!(e = read_vector(item, "direction", dim, true, false, d))) {
                q->direction = v3(d);
                e = read_nonneg(item, "max_t", false, &q->max_t);
                if (e == NULL && cJSON_GetObjectItemCaseSensitive(item, "max_t") == NULL) {
                    q->max_t = 1;
                }
            }
        }
    }
    if (e == NULL && q->op == SCENE_OP_SHAPECAST) {
        d[2] = 0;
        if (!(e = read_vector(item, "translation_b", dim, true, false, d))) {
            q->translation_b = v3(d);
        }
    }
    if (e == NULL) {
        // Each op's own fields: one that does not apply (a misspelt one,
        // or pose_b on an aabb) is an error, not a silent default.
        const char *fields[16] = {"id", "op", "a", "pose_a"};
        int n = 4;
        if (has_b) {
            fields[n++] = "b", fields[n++] = "pose_b";
        }
        if (q->op == SCENE_OP_TIME_OF_IMPACT) {
            fields[n++] = "pose_a_end", fields[n++] = "pose_b_end", fields[n++] = "target_separation";
        }
        if (q->op == SCENE_OP_SHAPECAST) {
            fields[n++] = "translation_b", fields[n++] = "target_separation";
        }
        if (q->op == SCENE_OP_CONTACT) {
            fields[n++] = "speculative_distance";
        }
        if (q->op == SCENE_OP_RAYCAST) {
            fields[n++] = "origin", fields[n++] = "direction", fields[n++] = "max_t";
        }
        fields[n] = NULL;
        e = scene_unknown_field(item, fields);
    }
    if (e == NULL && q->a != NULL && q->a->error != NULL) {
        e = copy_string(q->a->error);
    } else if (e == NULL && q->b != NULL && q->b->error != NULL) {
        e = copy_string(q->b->error);
    }
    if (e != NULL) {
        q->error = format("query \"%s\": %s", q->id, e);
        free(e);
    }
}

static void position_of(const char *text, const char *at, int *line, int *column) {
    *line = 1;
    *column = 1;
    for (const char *p = text; p < at && *p; ++p) {
        if (*p == '\n') {
            ++*line;
            *column = 1;
        } else {
            ++*column;
        }
    }
}

bool scene_parse(const char *text, scene *out, char *error, size_t error_size) {
    memset(out, 0, sizeof *out);
    const char *p = text;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
        ++p;
    }
    if (*p == '\0') {
        snprintf(error, error_size, "empty scene: expected a JSON object");
        return false;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, true);
    if (root == NULL) {
        const char *at = cJSON_GetErrorPtr();
        int line, column;
        position_of(text, at ? at : text, &line, &column);
        snprintf(error, error_size, "malformed JSON at line %d, column %d", line, column);
        return false;
    }
    bool ok = false;
    const cJSON *dim = cJSON_GetObjectItemCaseSensitive(root, "dim");
    const cJSON *shapes = cJSON_GetObjectItemCaseSensitive(root, "shapes");
    const cJSON *queries = cJSON_GetObjectItemCaseSensitive(root, "queries");
    if (!cJSON_IsObject(root)) {
        snprintf(error, error_size, "the scene must be a JSON object");
    } else if (dim != NULL && (!cJSON_IsNumber(dim) || (dim->valuedouble != 2 && dim->valuedouble != 3))) {
        snprintf(error, error_size, "field \"dim\": must be 2 or 3");
    } else if (shapes != NULL && !cJSON_IsObject(shapes)) {
        snprintf(error, error_size, "field \"shapes\": expected an object of named shapes");
    } else if (queries != NULL && !cJSON_IsArray(queries)) {
        snprintf(error, error_size, "field \"queries\": expected an array");
    } else {
        ok = true;
        out->dim = dim ? (int)dim->valuedouble : 3;
        out->shape_count = shapes ? cJSON_GetArraySize(shapes) : 0;
        out->query_count = queries ? cJSON_GetArraySize(queries) : 0;
        out->shapes = calloc((size_t)out->shape_count + 1, sizeof *out->shapes);
        out->queries = calloc((size_t)out->query_count + 1, sizeof *out->queries);
        if (out->shapes == NULL || out->queries == NULL) {
            snprintf(error, error_size, "out of memory");
            ok = false;
        } else {
            int i = 0;
            const cJSON *item;
            if (shapes) {
                cJSON_ArrayForEach(item, shapes) { parse_shape(item, out->dim, &out->shapes[i++]); }
            }
            out->by_name = malloc(((size_t)out->shape_count + 1) * sizeof *out->by_name);
            if (out->by_name != NULL) {
                for (int k = 0; k < out->shape_count; ++k) {
                    out->by_name[k].name = out->shapes[k].name != NULL ? out->shapes[k].name : "";
                    out->by_name[k].index = k;
                }
                qsort(out->by_name, (size_t)out->shape_count, sizeof *out->by_name, scene_name_compare);
            } else {
                snprintf(error, error_size, "out of memory");
                ok = false;
            }
            i = 0;
            if (queries) {
                cJSON_ArrayForEach(item, queries) {
                    parse_query(out, item, i, &out->queries[i]);
                    ++i;
                }
            }
        }
    }
    cJSON_Delete(root);
    if (!ok) {
        scene_free(out);
    }
    return ok;
}

char *scene_read_file(const char *path, char *error, size_t error_size) {
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (f == NULL) {
        snprintf(error, error_size, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
        if (len + 1 < cap) {
            if (ferror(f)) {
                snprintf(error, error_size, "cannot read %s: %s", path, strerror(errno));
                free(buf);
                buf = NULL;
            }
            break;
        }
        cap *= 2;
        char *grown = realloc(buf, cap);
        if (grown == NULL) {
            free(buf);
        }
        buf = grown;
    }
    if (f != stdin) {
        fclose(f);
    }
    if (buf == NULL) {
        if (error[0] == '\0') {
            snprintf(error, error_size, "cannot read %s: out of memory", path);
        }
        return NULL;
    }
    buf[len] = '\0';
    if (strlen(buf) != len) {
        snprintf(error, error_size, "cannot read %s: the file contains a NUL byte", path);
        free(buf);
        return NULL;
    }
    return buf;
}

const scene_query *scene_find_query(const scene *s, const char *id) {
    for (int i = 0; i < s->query_count; ++i) {
        if (s->queries[i].id != NULL && strcmp(s->queries[i].id, id) == 0) {
            return &s->queries[i];
        }
    }
    return NULL;
}

void scene_free(scene *s) {
    for (int i = 0; i < s->shape_count && s->shapes; ++i) {
        free(s->shapes[i].name);
        free(s->shapes[i].type);
        free(s->shapes[i].vertices);
        free(s->shapes[i].vertices2);
        free(s->shapes[i].error);
    }
    for (int i = 0; i < s->query_count && s->queries; ++i) {
        free(s->queries[i].id);
        free(s->queries[i].op_name);
        free(s->queries[i].error);
    }
    free(s->shapes);
    free(s->by_name);
    free(s->queries);
    memset(s, 0, sizeof *s);
}

// ---- readers shared with the simulation scene (tools/sim/sim_scene.c) ----

char *scene_read_pose(const struct cJSON *obj, const char *field, int dim, scene_pose *pose) {
    return read_pose(obj, field, dim, pose);
}

char *scene_read_number(const struct cJSON *obj, const char *field, bool required, double fallback, double *out) {
    return read_number(obj, field, required, fallback, out);
}

char *scene_read_vector(const struct cJSON *obj, const char *field, int dim, bool required, double *out) {
    return read_vector(obj, field, dim, required, false, out);
}

char *scene_format(const char *fmt, ...) {
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
