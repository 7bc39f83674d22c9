// gjk — convex hulls built once from a point cloud.
//
// A polytope shape made with gjk_make_polytope scans every vertex for each
// support point. A hull built here knows its faces (planar polygons, coplanar
// triangles merged) and which vertices are joined by an edge; a polytope made
// from it with gjk_make_hull finds support points by climbing that vertex
// graph (a vertex no neighbour of which lies farther along d is the support
// point of a convex polytope), in a number of steps that grows like the
// square root of the vertex count instead of linearly, and its vertices are
// validated once here rather than in every query. The faces serve contact
// manifolds, mass properties and drawing.
#ifndef GJK_HULL_H
#define GJK_HULL_H

#include "gjk/gjk_config.h"
#include "gjk/gjk_math.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A convex hull in the local frame of its points. Every array lives in one
/// block owned by the hull; read it, do not change it.
typedef struct gjk_hull {
    /// The hull's vertices (extreme points of the input, each once).
    int vertex_count;
    const gjk_vec3 *vertices;
    /// Faces: face f has the vertex indices face_indices[face_first[f]] to
    /// face_indices[face_first[f + 1] − 1], counter-clockwise seen from
    /// outside; face_first has face_count + 1 entries.
    int face_count;
    const int *face_first;
    const int *face_indices;
    /// Outward unit normal of each face and its plane offset: a point p lies
    /// on face f's plane when dot(face_normals[f], p) = face_offsets[f].
    const gjk_vec3 *face_normals;
    const gjk_real *face_offsets;
    /// Vertex adjacency: the neighbours of vertex v are
    /// neighbors[neighbor_first[v]] to neighbors[neighbor_first[v + 1] − 1]:
    /// the vertices joined to v by an edge of the hull's triangulation, so
    /// every edge of the polytope and the diagonals that split its merged
    /// faces into triangles (a flat hull: its polygon's edges).
    const int *neighbor_first;
    const int *neighbors;
    /// Six vertices extreme along −x, +x, −y, +y, −z, +z (the hull's
    /// axis-aligned bounds; the queries start climbing from start_vertex).
    int extreme[6];
    /// The vertices again, laid out for vectorised scans: all x, then all y,
    /// then all z, each block scan_stride long (vertex_count rounded up to a
    /// multiple of 8, the tail padded with copies of vertex 0).
    const gjk_real *scan;
    int scan_stride;
    /// The scan routine chosen for this machine when the hull was built:
    /// 0 portable, 1 AVX2 (x86-64, double precision).
    int scan_kind;
    /// Where hill climbing starts: the support vertices of start_count
    /// directions spread evenly over the sphere (start_vertex, repeats
    /// allowed), their coordinates laid out as `scan` with blocks
    /// start_stride long (start_count is a multiple of 8, from 8 to 64, so
    /// the blocks need no padding and start_stride equals it).
    int start_count;
    const int *start_vertex;
    const gjk_real *start_scan;
    int start_stride;
    /// max |v| over the vertices.
    gjk_real radius;
    /// True when the points are coplanar: the hull is a flat convex polygon
    /// with two faces (one per side) and no volume.
    bool flat;
    /// True when three or more neighbouring triangles of the construction
    /// are coplanar within the input's resolution (a merged polygon face of
    /// five vertices or more, or a vertex inside a face; every flat hull):
    /// there hill climbing also checks its end by the edges (support.h).
    bool coplanar;
    /// The directions of the polytope's edges (the faces' polygons'), unit,
    /// one for each set of parallel edges: the separating axes of two small
    /// hulls are their face normals and the cross products of these. Set
    /// (1 to GJK_HULL_MAX_EDGE_DIRECTIONS of them) only for a solid hull of
    /// at most GJK_HULL_SAT_MAX_VERTICES vertices whose faces are planar to
    /// the rounding of their coordinates (64 units) and whose edges are not short
    /// (see hull_pack.c); else 0 and NULL, and the queries take GJK and EPA.
    int edge_direction_count;
    const gjk_vec3 *edge_directions;
} gjk_hull;

/// The most edge directions a hull keeps (gjk_hull.edge_directions).
#define GJK_HULL_MAX_EDGE_DIRECTIONS 8
/// The most vertices of a hull that keeps its edge directions.
#define GJK_HULL_SAT_MAX_VERTICES 16

/// Why gjk_hull_create could not build a hull.
typedef enum gjk_hull_error {
    GJK_HULL_OK = 0,
    GJK_HULL_INVALID_INPUT,  ///< NULL points, count < 1, or a NaN or infinite coordinate.
    GJK_HULL_DEGENERATE,     ///< Fewer than three non-collinear points (use a point or segment shape).
    GJK_HULL_OUT_OF_MEMORY,  ///< malloc failed.
    GJK_HULL_FAILED,         ///< The construction did not give a valid hull (rounding); never expected.
} gjk_hull_error;

/// Builds the convex hull of `count` points (quickhull). Points within a
/// small tolerance of the hull are dropped as interior, and faces that are
/// coplanar within it are merged: 1e-12 of the cloud's own size (the sum of
/// its bounding box's half extents) in double, 4e-6 in float, and at least
/// four units in the last place of its coordinates (their own rounding:
/// a cloud far from its frame's origin keeps the detail they resolve).
/// Allocates one block with malloc; free it with gjk_hull_destroy. Returns
/// NULL on failure, with the reason in *error when error is not NULL.
GJK_API gjk_hull *gjk_hull_create(const gjk_vec3 *points, int count, gjk_hull_error *error);

/// Frees a hull made by gjk_hull_create. NULL is allowed.
GJK_API void gjk_hull_destroy(gjk_hull *hull);

#ifdef __cplusplus
}
#endif

#endif // GJK_HULL_H
