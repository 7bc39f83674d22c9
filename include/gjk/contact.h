// gjk — contact manifolds in 3D.
//
// For two shapes and their poses, up to GJK_MAX_CONTACT_POINTS contact
// points with one shared normal, as a rigid-body solver consumes them. The
// normal and depth come from gjk_penetration (stopping early beyond the
// speculative distance); flat features
// (box faces, faces of a polytope made with gjk_make_hull, triangles,
// segment and capsule cores, cylinder caps and cone bases as regular
// octagons, cylinder and cone side lines) are clipped against each other
// (reference and incident feature, Sutherland–Hodgman) and reduced to at
// most four points keeping the deepest and the widest spread; two parallel
// edges perpendicular to the normal (segments, capsule cores, cylinder and
// cone sides, the edge a box or hull lies on) give two points. Everything
// else gives one point: spheres, ellipsoids, points, custom shapes, a
// polytope without a hull, and contacts where no feature of either shape is
// flat along the normal (within about 3.6°), such as crossing edges.
// Included by gjk.h.
#ifndef GJK_CONTACT_H
#define GJK_CONTACT_H

#include <stdint.h>

#include "gjk/gjk.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most points in one manifold.
#define GJK_MAX_CONTACT_POINTS 4

/// One contact point of a manifold. Points come from the incident feature
/// (on its shape's surface) projected along the normal onto the reference
/// feature (on the other's), so point_b − point_a lies along the normal
/// (exactly for a reference face; for parallel segments, the pair is the
/// incident point and its closest point on the reference segment). On a
/// rounded shape (margin, capsule) each point is where the line along the
/// normal through its core point meets the rounded feature's surface, so
/// the separation is the gap along the normal there; where the feature is
/// a stand-in for a curved or large face (a cylinder cap's or cone base's
/// octagon, 32 of a hull face's vertices) that surface is the stand-in's,
/// up to the radius times (1 − cos) of the tilt inside the shape's. The
/// reference face's side planes are widened by the clip's tolerance (16
/// times options' relative tolerance times the features' extent, plus 16
/// units of rounding of their world coordinates), so that an incident
/// vertex on a side plane stays one point with one id: a point may lie
/// that far outside the face's edges, and at a corner of angle θ up to
/// that over sin(θ/2) (a 3.3° corner of a hull face: 35 times).
typedef struct gjk_contact_point {
    gjk_vec3 point_a;    ///< On A's surface (world).
    gjk_vec3 point_b;    ///< On B's surface (world).
    gjk_real separation; ///< dot(point_b − point_a, normal): negative when penetrating.
    /// Feature id: the same while the same features touch (which shape
    /// holds the reference feature, which feature of each, which incident
    /// vertex or which crossing of an incident edge with a side plane of the
    /// reference face), so a solver can carry impulses across frames.
    /// Distinct within one manifold; 0 for the query's own witness pair
    /// when that alone is the manifold (no reference feature: curved
    /// shapes, a point or corner contact). A one-point manifold that comes
    /// from clipping (a ball on a face) has the clipped point's id.
    uint32_t id;
} gjk_contact_point;

/// The input of gjk_contact.
typedef struct gjk_contact_input {
    const gjk_shape *shape_a;
    gjk_transform transform_a;
    const gjk_shape *shape_b;
    gjk_transform transform_b;
    gjk_real speculative_distance; ///< ≥ 0: while the shapes are apart by less than this, their points are reported (separation > 0).
    gjk_options options;
} gjk_contact_input;

/// A contact manifold.
typedef struct gjk_manifold {
    /// SEPARATED (no points when farther than speculative_distance),
    /// TOUCHING, PENETRATING; GJK_NOT_CONVERGED with the manifold of the
    /// best answer the query found (finite); GJK_INVALID_INPUT with no
    /// points and every number zero.
    gjk_status status;
    gjk_vec3 normal;     ///< Unit, from A to B (zero on error or when SEPARATED with no points).
    int point_count;     ///< 0 to GJK_MAX_CONTACT_POINTS.
    gjk_contact_point points[GJK_MAX_CONTACT_POINTS];
} gjk_manifold;

/// Contact manifold of A and B. `cache` may be NULL; when given it warm-starts the underlying distance/penetration query (see gjk_distance).
/// Cost: one penetration query (its GJK walk stops once the shapes are
/// proved apart beyond the speculative distance) plus the clipping; shapes
/// whose bounding balls are apart by more than the speculative distance are
/// answered from the balls alone (no points, the cache left empty), as in
/// gjk_intersect.
/// input->options.max_distance is checked as in every query but not used
/// (the speculative distance takes its place). A negative, NaN or infinite speculative distance is invalid
/// input. No allocation; fixed stack scratch (a hull face with more than 32
/// vertices is represented by 32 of them spread evenly).
GJK_API gjk_manifold gjk_contact(const gjk_contact_input *input, gjk_simplex_cache *cache);

#ifdef __cplusplus
}
#endif

#endif // GJK_CONTACT_H
