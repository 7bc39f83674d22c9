// The simulation's animation page: one self-contained HTML file (no network
// access, no external script or font) that plays a recorded run in 3D on a
// canvas (perspective view, shaded faces, orbit and zoom with the mouse,
// play/pause, a frame slider, contact points and normals on request).
// docs/simulation-html.md describes the page and its data.
#ifndef GJK_TOOL_SIM_HTML_H
#define GJK_TOOL_SIM_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "gjk/gjk.h"

/// One body of the run: its name, its shape (in the body's frame) and
/// whether it never moves.
typedef struct sim_html_body {
    const char *id;
    gjk_shape shape;
    bool is_static;
} sim_html_body;

/// One contact: a world point and the unit normal there (from A to B).
typedef struct sim_html_contact {
    gjk_vec3 point;
    gjk_vec3 normal;
} sim_html_contact;

/// A recorded run.
typedef struct sim_html_run {
    int body_count;
    const sim_html_body *bodies;
    int frame_count;
    /// Seconds between frames.
    double dt;
    /// frame_count * body_count poses, frame-major: body b at frame f is
    /// poses[f * body_count + b].
    const gjk_transform *poses;
    /// frame_count + 1 offsets into contacts: frame f has the contacts
    /// contact_first[f] to contact_first[f + 1] − 1. NULL when there are none.
    const int *contact_first;
    const sim_html_contact *contacts;
} sim_html_run;

/// Writes one self-contained HTML page that plays the run. Returns 0, or -1
/// on a write error, an inconsistent run (negative counts, NULL arrays where
/// data is due, decreasing contact offsets) or a failed allocation.
int sim_html_write(FILE *out, const sim_html_run *run);

/// How a shape is drawn.
typedef enum sim_html_mesh_kind {
    SIM_HTML_SOLID = 0, ///< Closed convex mesh, triangles counter-clockwise seen from outside.
    SIM_HTML_FLAT = 1,  ///< Flat polygon (no volume), drawn from both sides.
    SIM_HTML_LINE = 2,  ///< A segment: two vertices, no triangles.
    SIM_HTML_POINT = 3, ///< A marker at one vertex, no triangles.
} sim_html_mesh_kind;

/// The drawing of a shape in its local frame: vertices (x, y, z each) and
/// triangles (three vertex indices each).
typedef struct sim_html_mesh {
    sim_html_mesh_kind kind;
    int vertex_count, vertex_capacity;
    double *vertices;
    int triangle_count, triangle_capacity;
    int *triangles;
} sim_html_mesh;

/// Builds the drawing of `shape` (margin included) into a zero-initialised
/// mesh: tessellated surfaces for spheres, ellipsoids, capsules, cylinders
/// and cones; the faces of a box, a triangle or a polytope's hull; for a
/// custom shape and for any shape with a margin, the convex hull of support
/// points sampled over a sphere of directions. An invalid shape is drawn as a
/// point marker. Returns 0, or -1 when memory ran out (the mesh is then
/// empty). Free it with sim_html_mesh_free.
int sim_html_mesh_build(const gjk_shape *shape, sim_html_mesh *mesh);

/// Frees the arrays of a mesh and zeroes it.
void sim_html_mesh_free(sim_html_mesh *mesh);

/// The largest |coordinate| of the mesh's vertices (0 for an empty mesh).
double sim_html_mesh_extent(const sim_html_mesh *mesh);

/// Grows the box [lo, hi] (three numbers each) to hold the mesh's vertices
/// moved by the pose; a pose with a zero or non-finite rotation or a
/// non-finite position leaves it as it was.
void sim_html_mesh_extend_box(const sim_html_mesh *mesh, const gjk_transform *pose, double *lo, double *hi);

#endif // GJK_TOOL_SIM_HTML_H
