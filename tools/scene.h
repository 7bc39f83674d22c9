// Scene files: the JSON contract of the gjk program, read with cJSON into
// library shapes and queries. A bad shape or query does not stop the scene:
// it carries its own error message, and the queries that use it report it.
#ifndef GJK_TOOL_SCENE_H
#define GJK_TOOL_SCENE_H

#include <stdbool.h>
#include <stddef.h>

#include "gjk/gjk.h"
#include "gjk/gjk2d.h"

/// A named shape of the scene, in 2D or 3D.
typedef struct scene_shape {
    char *name;
    char *type;          ///< The "type" string as written.
    gjk_shape shape;     ///< The 3D shape (dim 3).
    gjk2_shape shape2;   ///< The 2D shape (dim 2).
    gjk_vec3 *vertices;  ///< Polytope vertices, owned (dim 3).
    gjk_vec2 *vertices2; ///< Polygon vertices, owned (dim 2).
    int vertex_count;
    char *error;         ///< NULL when the shape is valid.
} scene_shape;

typedef enum scene_op {
    SCENE_OP_INTERSECT,
    SCENE_OP_DISTANCE,
    SCENE_OP_PENETRATION,
    SCENE_OP_RAYCAST,
    SCENE_OP_SHAPECAST,
    SCENE_OP_TIME_OF_IMPACT,
    SCENE_OP_CONTACT,
    SCENE_OP_AABB,
    SCENE_OP_UNKNOWN,
} scene_op;

/// A pose: `transform` in 3D, `transform2` in 2D.
typedef struct scene_pose {
    gjk_transform transform;
    gjk_transform2 transform2;
} scene_pose;

typedef struct scene_query {
    char *id;
    char *op_name;
    scene_op op;
    const scene_shape *a, *b;
    scene_pose pose_a, pose_b;
    scene_pose pose_a_end, pose_b_end;         ///< Time of impact: the sweeps' ends.
    gjk_vec3 origin, direction, translation_b; ///< Casts (2D: z = 0).
    double max_t;
    double target_separation;    ///< Shape casts and time of impact (default 0).
    double speculative_distance; ///< Contact manifolds (default 0).
    char *error; ///< NULL when the query and its shapes are valid.
} scene_query;

/// A shape's name and its index (scene.by_name).
typedef struct scene_name {
    const char *name;
    int index;
} scene_name;

/// qsort's order of scene_names: by name, then by index.
int scene_name_compare(const void *a, const void *b);

typedef struct scene {
    int dim;
    scene_shape *shapes;
    int shape_count;
    scene_name *by_name; ///< The shapes sorted by name (then index): references found in log n.
    scene_query *queries;
    int query_count;
} scene;

/// Parses a scene. Returns false for a fatal problem (malformed JSON, an
/// empty text, a top level that is not a scene) with a message in `error`;
/// bad shapes and queries are recorded in the scene instead.
bool scene_parse(const char *text, scene *out, char *error, size_t error_size);

/// Reads a whole file ("-" for standard input) into a NUL-terminated buffer
/// the caller frees; NULL with a message in `error` on failure.
char *scene_read_file(const char *path, char *error, size_t error_size);

/// Whether the op takes a second shape (all but raycast and aabb).
bool scene_op_has_b(scene_op op);

/// The first shape named `name` (NULL when none): a binary search of
/// by_name, so that a scene's references cost n log n, not n².
const scene_shape *scene_find_shape(const scene *s, const char *name);

/// The query with this id, or NULL.
const scene_query *scene_find_query(const scene *s, const char *id);

/// Frees everything the scene owns.
void scene_free(scene *s);

struct cJSON;

/// NULL when every field of the JSON object obj is one of `known` (a
/// NULL-terminated list); else a message (the caller frees) naming the
/// first that is not: a misspelt field is an error, not its default.
char *scene_unknown_field(const struct cJSON *obj, const char *const *known);

/// Field readers shared with the simulation scene. Each returns NULL, or a
/// message `field "x": ...` the caller frees. A pose: missing is the identity.
char *scene_read_pose(const struct cJSON *obj, const char *field, int dim, scene_pose *pose);
/// A finite number; `fallback` when missing and not required.
char *scene_read_number(const struct cJSON *obj, const char *field, bool required, double fallback, double *out);
/// An array of `dim` finite numbers; zeros when missing and not required.
char *scene_read_vector(const struct cJSON *obj, const char *field, int dim, bool required, double *out);
/// A formatted message in a fresh buffer the caller frees (NULL when out of memory).
char *scene_format(const char *fmt, ...);

#endif // GJK_TOOL_SCENE_H
