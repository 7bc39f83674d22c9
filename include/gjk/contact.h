// gjk — contact manifolds in 3D.
//
// For two shapes and their poses, up to GJK_MAX_CONTACT_POINTS contact
// points with one shared normal, as a rigid-body solver consumes them. The
// normal and depth come from gjk_penetration; flat features (box and hull
// faces, triangles, segments, cylinder and cone caps) are clipped against
// each other, curved shapes give one point. Included by gjk.h.
#ifndef GJK_CONTACT_H
#define GJK_CONTACT_H

#include <stdint.h>

#include "gjk/gjk.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most points in one manifold.
#define GJK_MAX_CONTACT_POINTS 4

/// One contact point of a manifold.
typedef struct gjk_contact_point {
    gjk_vec3 point_a;    ///< On A's surface (world).
    gjk_vec3 point_b;    ///< On B's surface (world).
    gjk_real separation; ///< dot(point_b − point_a, normal): negative when penetrating.
    uint32_t id;         ///< Feature id: the same while the same features touch.
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
    gjk_status status;   ///< SEPARATED (no points when farther than speculative_distance), TOUCHING, PENETRATING, or an error (then point_count = 0).
    gjk_vec3 normal;     ///< Unit, from A to B (zero on error or when SEPARATED with no points).
    int point_count;     ///< 0 to GJK_MAX_CONTACT_POINTS.
    gjk_contact_point points[GJK_MAX_CONTACT_POINTS];
} gjk_manifold;

/// Contact manifold of A and B. `cache` may be NULL; when given it warm-starts the underlying distance/penetration query (see gjk_distance).
GJK_API gjk_manifold gjk_contact(const gjk_contact_input *input, gjk_simplex_cache *cache);

#ifdef __cplusplus
}
#endif

#endif // GJK_CONTACT_H
