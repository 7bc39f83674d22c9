// gjk — contact manifolds in 2D (the twin of contact.h). Box, triangle and
// polygon edges and segment or capsule cores are clipped against each other
// (at most two points); circles, ellipses, points, custom shapes and
// contacts where neither shape has an edge within about 3.6° of the normal
// give one point. Included by gjk2d.h.
#ifndef GJK_CONTACT2D_H
#define GJK_CONTACT2D_H

#include <stdint.h>

#include "gjk/gjk2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most points in one 2D manifold.
#define GJK2_MAX_CONTACT_POINTS 2

/// One contact point of a 2D manifold. As in 3D (gjk_contact_point), a
/// rounded shape's point is where the line along the normal through its
/// core point meets the rounded surface, and the separation is the gap
/// along the normal there.
typedef struct gjk2_contact_point {
    gjk_vec2 point_a;    ///< On A's surface (world).
    gjk_vec2 point_b;    ///< On B's surface (world).
    gjk_real separation; ///< dot(point_b − point_a, normal): negative when penetrating.
    /// Feature id: the same while the same features touch; 0 for the
    /// query's own witness pair when that alone is the manifold (see
    /// gjk_contact_point).
    uint32_t id;
} gjk2_contact_point;

/// The input of gjk2_contact.
typedef struct gjk2_contact_input {
    const gjk2_shape *shape_a;
    gjk_transform2 transform_a;
    const gjk2_shape *shape_b;
    gjk_transform2 transform_b;
    gjk_real speculative_distance; ///< ≥ 0: while the shapes are apart by less than this, their points are reported (separation > 0).
    gjk_options options;
} gjk2_contact_input;

/// A 2D contact manifold.
typedef struct gjk2_manifold {
    /// SEPARATED (no points when farther than speculative_distance),
    /// TOUCHING, PENETRATING; GJK_NOT_CONVERGED with the manifold of the
    /// best answer found; GJK_INVALID_INPUT with no points, numbers zero.
    gjk_status status;
    gjk_vec2 normal;     ///< Unit, from A to B (zero on error or when SEPARATED with no points).
    int point_count;     ///< 0 to GJK2_MAX_CONTACT_POINTS.
    gjk2_contact_point points[GJK2_MAX_CONTACT_POINTS];
} gjk2_manifold;

/// Contact manifold of A and B in 2D. `cache` may be NULL; when given it warm-starts the underlying query (see gjk2_distance).
GJK_API gjk2_manifold gjk2_contact(const gjk2_contact_input *input, gjk2_simplex_cache *cache);

#ifdef __cplusplus
}
#endif

#endif // GJK_CONTACT2D_H
