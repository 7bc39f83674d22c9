// Running the queries of a scene through the library, and writing answers
// as JSON lines or as table rows.
#ifndef GJK_TOOL_RUN_H
#define GJK_TOOL_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "gjk/contact2d.h"
#include "scene.h"

/// The answer of one query, as the program reports it. Fields are written
/// when their `has_` flag is set.
typedef struct query_result {
    const char *status; ///< "separated", "touching", "penetrating", "hit", "miss" or "error".
    char *error;        ///< Owned message when status is "error".
    /// The library rejected the input (GJK_INVALID_INPUT): the line carries
    /// no answer, only the message.
    bool rejected;
    int dim;
    bool has_intersect, intersect;
    bool has_distance;
    double distance;
    bool has_depth;
    double depth;
    bool has_signed_distance;
    double signed_distance;
    bool has_points;
    double point_a[3], point_b[3];
    bool has_normal;
    double normal[3];
    bool has_hit, hit;
    bool initially_overlapping;
    bool has_t;
    double t, point[3];
    bool has_iterations;
    int iterations;
    bool has_epa_iterations;
    int epa_iterations;
    bool has_bounds; ///< aabb: the box.
    double lower[3], upper[3];
    bool has_manifold; ///< contact: the points (and normal, when known).
    int point_count;
    struct {
        double point_a[3], point_b[3], separation;
        unsigned long id;
    } points[GJK_MAX_CONTACT_POINTS > GJK2_MAX_CONTACT_POINTS ? GJK_MAX_CONTACT_POINTS : GJK2_MAX_CONTACT_POINTS];
} query_result;

/// Runs one query with the given options (trace hook included).
void run_query(const scene *s, const scene_query *q, const gjk_options *options, query_result *r);

/// Writes the query's JSON line: id, op, status, then the answer's fields.
void write_json_line(FILE *out, const scene_query *q, const query_result *r);

/// Frees what the result owns.
void query_result_free(query_result *r);

#endif // GJK_TOOL_RUN_H
