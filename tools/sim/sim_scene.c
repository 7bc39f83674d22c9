// Simulation scenes read with cJSON (see sim_scene.h and docs/scene-format.md).
#include "sim_scene.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Copies a message into the caller's buffer and frees it.
static bool fail(char *error, size_t error_size, char *message) {
    snprintf(error, error_size, "%s", message ? message : "out of memory");
    free(message);
    return false;
}

static char *read_int(const cJSON *obj, const char *field, int lo, int hi, int *out) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, field);
    if (item == NULL) {
        return NULL;
    }
    double x;
    char *e = scene_read_number(obj, field, true, 0, &x);
    if (e != NULL) {
        return e;
    }
    if (x != floor(x) || x < lo || x > hi) {
        return scene_format("field \"%s\": expected a whole number from %d to %d (%.17g)", field, lo, hi, x);
    }
    *out = (int)x;
    return NULL;
}

static char *parse_world(const cJSON *world, sim_settings *settings, int *steps) {
    if (world == NULL) {
        return NULL;
    }
    if (!cJSON_IsObject(world)) {
        return scene_format("expected an object");
    }
    static const char *const fields[] = {"gravity", "dt", "steps", "iterations", "rolling_resistance", NULL};
    double g[3] = {settings->gravity.x, settings->gravity.y, settings->gravity.z};
    char *e = scene_unknown_field(world, fields);
    if (e == NULL && cJSON_GetObjectItemCaseSensitive(world, "gravity") != NULL) {
        e = scene_read_vector(world, "gravity", 3, true, g);
    }
    if (e == NULL) {
        settings->gravity = sv3(g[0], g[1], g[2]);
        e = scene_read_number(world, "dt", false, settings->dt, &settings->dt);
    }
    if (e == NULL && !(settings->dt > 0)) {
        e = scene_format("field \"dt\": must be positive (%.17g)", settings->dt);
    }
    if (e == NULL) {
        e = read_int(world, "steps", 0, 100000000, steps);
    }
    if (e == NULL) {
        e = read_int(world, "iterations", 1, 1000, &settings->iterations);
    }
    if (e == NULL) {
        e = scene_read_number(world, "rolling_resistance", false, settings->rolling_resistance,
                              &settings->rolling_resistance);
    }
    if (e == NULL && !(settings->rolling_resistance >= 0)) {
        e = scene_format("field \"rolling_resistance\": must not be negative (%.17g)", settings->rolling_resistance);
    }
    return e;
}

static const scene_shape *find_shape(const scene *s, const char *name, int *index) {
    const scene_shape *shape = scene_find_shape(s, name);
    if (shape != NULL) {
        *index = (int)(shape - s->shapes);
    }
    return shape;
}

static char *read_bool(const cJSON *obj, const char *field, bool *out) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, field);
    if (item == NULL) {
        return NULL;
    }
    if (!cJSON_IsBool(item)) {
        return scene_format("field \"%s\": expected true or false", field);
    }
    *out = cJSON_IsTrue(item);
    return NULL;
}

/// Reads one body; returns NULL or a message without the body's name.
static char *parse_body(sim_scene *s, const cJSON *item, sim_scene_body *b) {
    if (!cJSON_IsObject(item)) {
        return scene_format("expected an object");
    }
    static const char *const fields[] = {"id",      "shape",  "pose",        "velocity", "angular_velocity",
                                         "density", "static", "restitution", "friction", NULL};
    char *unknown = scene_unknown_field(item, fields);
    if (unknown != NULL) {
        return unknown;
    }
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(item, "shape");
    if (shape == NULL) {
        return scene_format("field \"shape\": missing");
    }
    if (!cJSON_IsString(shape)) {
        return scene_format("field \"shape\": expected a shape name");
    }
    int index = -1;
    b->shape = find_shape(&s->base, shape->valuestring, &index);
    if (b->shape == NULL) {
        return scene_format("field \"shape\": unknown shape \"%s\"", shape->valuestring);
    }
    if (b->shape->error != NULL) {
        return scene_format("field \"shape\": %s", b->shape->error);
    }
    scene_pose pose;
    char *e = scene_read_pose(item, "pose", 3, &pose);
    double v[3], w[3];
    sim_body_def *d = &b->def;
    d->density = 1000;
    d->friction = 0.5;
    d->restitution = 0;
    d->is_static = false;
    if (e == NULL) {
        d->position = sv_from_gjk(pose.transform.position);
        d->rotation = sq_from_gjk(pose.transform.rotation);
        e = scene_read_vector(item, "velocity", 3, false, v);
    }
    if (e == NULL) {
        d->velocity = sv3(v[0], v[1], v[2]);
        e = scene_read_vector(item, "angular_velocity", 3, false, w);
    }
    if (e == NULL) {
        d->angular_velocity = sv3(w[0], w[1], w[2]);
        e = read_bool(item, "static", &d->is_static);
    }
    if (e == NULL) {
        e = scene_read_number(item, "density", false, 1000, &d->density);
    }
    if (e == NULL && !d->is_static && !(d->density > 0)) {
        e = scene_format("field \"density\": must be positive on a dynamic body (%.17g)", d->density);
    }
    if (e == NULL) {
        e = scene_read_number(item, "restitution", false, 0, &d->restitution);
    }
    if (e == NULL && !(d->restitution >= 0 && d->restitution <= 1)) {
        e = scene_format("field \"restitution\": must lie in [0, 1] (%.17g)", d->restitution);
    }
    if (e == NULL) {
        e = scene_read_number(item, "friction", false, 0.5, &d->friction);
    }
    if (e == NULL && !(d->friction >= 0)) {
        e = scene_format("field \"friction\": must not be negative (%.17g)", d->friction);
    }
    if (e != NULL) {
        return e;
    }
    d->shape = b->shape->shape;
    if (d->shape.type == GJK_SHAPE_POLYTOPE) {
        // Polytope bodies use the shape's hull: its faces serve the contact
        // manifolds and the mass properties.
        if (s->hulls[index] == NULL) {
            gjk_hull_error why = GJK_HULL_OK;
            s->hulls[index] = gjk_hull_create(b->shape->vertices, b->shape->vertex_count, &why);
            if (s->hulls[index] == NULL) {
                return scene_format("field \"shape\": shape \"%s\": no convex hull of its vertices (%s)",
                                    b->shape->name,
                                    why == GJK_HULL_DEGENERATE ? "fewer than three non-collinear points"
                                                               : why == GJK_HULL_OUT_OF_MEMORY ? "out of memory"
                                                                                               : "invalid input");
            }
        }
        gjk_real margin = d->shape.margin;
        d->shape = gjk_with_margin(gjk_make_hull(s->hulls[index]), margin);
    }
    if (!d->is_static) {
        sim_mass m;
        const char *why = sim_mass_properties(&d->shape, d->density, &m);
        if (why != NULL) {
            return scene_format("field \"static\": shape \"%s\" (%s): %s, so the body must be static",
                                b->shape->name, b->shape->type, why);
        }
    }
    return NULL;
}

/// The index of the first body whose string id an earlier body has too, or
/// −1 (by sorting: a scene of n bodies costs n log n, not n²); −2 when out
/// of memory.
static int first_repeated_id(const cJSON *bodies) {
    int n = cJSON_GetArraySize(bodies), m = 0, first = -1;
    scene_name *ids = malloc(((size_t)n + 1) * sizeof *ids);
    if (ids == NULL) {
        return -2;
    }
    const cJSON *item;
    int i = 0;
    cJSON_ArrayForEach(item, bodies) {
        const cJSON *id = cJSON_IsObject(item) ? cJSON_GetObjectItemCaseSensitive(item, "id") : NULL;
        if (cJSON_IsString(id)) {
            ids[m].name = id->valuestring;
            ids[m++].index = i;
        }
        ++i;
    }
    qsort(ids, (size_t)m, sizeof *ids, scene_name_compare);
    for (int k = 1; k < m; ++k) {
        if (strcmp(ids[k - 1].name, ids[k].name) == 0 && (first < 0 || ids[k].index < first)) {
            first = ids[k].index;
        }
    }
    free(ids);
    return first;
}

bool sim_scene_parse(const char *text, sim_scene *out, char *error, size_t error_size) {
    memset(out, 0, sizeof *out);
    out->settings = sim_settings_default();
    out->steps = 600;
    if (!scene_parse(text, &out->base, error, error_size)) {
        return false;
    }
    cJSON *root = cJSON_Parse(text);
    if (root == NULL) {
        sim_scene_free(out);
        return fail(error, error_size, scene_format("malformed JSON"));
    }
    bool ok = true;
    char *e = NULL;
    if (out->base.dim != 3) {
        e = scene_format("field \"dim\": a simulation is 3D");
    } else if ((e = parse_world(cJSON_GetObjectItemCaseSensitive(root, "world"), &out->settings, &out->steps))) {
        char *full = scene_format("field \"world\": %s", e);
        free(e);
        e = full;
    }
    const cJSON *bodies = cJSON_GetObjectItemCaseSensitive(root, "bodies");
    if (e == NULL && bodies != NULL && !cJSON_IsArray(bodies)) {
        e = scene_format("field \"bodies\": expected an array");
    }
    if (e == NULL) {
        out->body_count = bodies ? cJSON_GetArraySize(bodies) : 0;
        out->bodies = calloc((size_t)out->body_count + 1, sizeof *out->bodies);
        out->hulls = calloc((size_t)out->base.shape_count + 1, sizeof *out->hulls);
        if (out->bodies == NULL || out->hulls == NULL) {
            e = scene_format("out of memory");
        }
    }
    int i = 0;
    const cJSON *item;
    int repeat = e == NULL && bodies != NULL ? first_repeated_id(bodies) : -1;
    if (repeat == -2) {
        e = scene_format("out of memory");
    }
    if (e == NULL && bodies != NULL) {
        cJSON_ArrayForEach(item, bodies) {
            sim_scene_body *b = &out->bodies[i];
            const cJSON *id = cJSON_IsObject(item) ? cJSON_GetObjectItemCaseSensitive(item, "id") : NULL;
            char *be = NULL;
            if (cJSON_IsString(id)) {
                b->id = scene_format("%s", id->valuestring);
            } else {
                b->id = scene_format("#%d", i);
                be = scene_format(id == NULL ? "field \"id\": missing" : "field \"id\": expected a string");
            }
            if (be == NULL && i == repeat) {
                be = scene_format("field \"id\": another body has this id");
            }
            if (be == NULL) {
                be = parse_body(out, item, b);
            }
            ++i;
            if (be != NULL) {
                e = scene_format("body \"%s\": %s", b->id ? b->id : "?", be);
                free(be);
                break;
            }
        }
    }
    cJSON_Delete(root);
    if (e != NULL) {
        ok = fail(error, error_size, e);
        sim_scene_free(out);
    }
    return ok;
}

sim_world *sim_scene_world(const sim_scene *s, char *error, size_t error_size) {
    sim_world *w = sim_world_create(&s->settings);
    if (w == NULL) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    for (int i = 0; i < s->body_count; ++i) {
        char why[256];
        if (sim_world_add_body(w, &s->bodies[i].def, why, sizeof why) < 0) {
            snprintf(error, error_size, "body \"%s\": %s", s->bodies[i].id, why);
            sim_world_destroy(w);
            return NULL;
        }
    }
    return w;
}

void sim_scene_free(sim_scene *s) {
    for (int i = 0; i < s->body_count && s->bodies; ++i) {
        free(s->bodies[i].id);
    }
    for (int i = 0; i < s->base.shape_count && s->hulls; ++i) {
        gjk_hull_destroy(s->hulls[i]);
    }
    free(s->bodies);
    free(s->hulls);
    scene_free(&s->base);
    memset(s, 0, sizeof *s);
}
