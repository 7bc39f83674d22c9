// gjk — collision queries between convex shapes in 2D.
//
// The 2D twin of gjk.h: its own code path on 2D types (not 3D with z = 0),
// the same result contract (gjk_status), the same options (gjk_options) and
// the same conventions: normals are unit vectors from A to B, every point is
// in the world frame, no query allocates, prints or loops without bound.
#ifndef GJK2D_H
#define GJK2D_H

#include <stdbool.h>

#include "gjk/gjk.h"
#include "gjk/gjk_math.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The kinds of 2D shape. The margin of gjk2_shape rounds any of them.
typedef enum gjk2_shape_type {
    GJK2_SHAPE_POINT = 0, ///< The origin of its frame.
    GJK2_SHAPE_SEGMENT,   ///< Segment a–b.
    GJK2_SHAPE_TRIANGLE,  ///< Triangle a, b, c.
    GJK2_SHAPE_BOX,       ///< Box centred at the origin with half extents.
    GJK2_SHAPE_CIRCLE,    ///< Circle at the origin.
    GJK2_SHAPE_ELLIPSE,   ///< Ellipse with semi-axes (radii) along x and y.
    GJK2_SHAPE_CAPSULE,   ///< Segment a–b swept by a circle of the radius.
    GJK2_SHAPE_POLYGON,   ///< Convex hull of a point cloud.
    GJK2_SHAPE_CUSTOM,    ///< A user shape given by its support function.
    GJK2_SHAPE_TYPE_COUNT
} gjk2_shape_type;

/// A user support function in 2D: the point of the shape (local frame)
/// farthest along `direction` (never zero, not necessarily unit; as small or
/// as large as the shapes' size: gjk_normalize2 scales it safely). Pure,
/// finite, no calls back into a query.
typedef gjk_vec2 (*gjk2_support_fn)(const void *user_data, gjk_vec2 direction);

/// A convex 2D shape in its local frame plus a margin ≥ 0 (a rounded shape).
/// A polygon points at the caller's vertex array and a custom shape at the
/// caller's data: the library never copies, keeps or frees them.
typedef struct gjk2_shape {
    gjk2_shape_type type;
    gjk_real margin;
    union {
        struct { gjk_vec2 a, b; } segment;
        struct { gjk_vec2 a, b, c; } triangle;
        struct { gjk_vec2 half_extents; } box;
        struct { gjk_real radius; } circle;
        struct { gjk_vec2 radii; } ellipse;
        struct { gjk_vec2 a, b; gjk_real radius; } capsule;
        /// Any points, the shape is their convex hull: duplicate, collinear
        /// and interior points are allowed. Not owned. `convex` is 1 when
        /// gjk2_make_convex_polygon found the points to be a convex polygon
        /// in counter-clockwise order, else 0: set it only so, as the
        /// queries trust it.
        struct { const gjk_vec2 *vertices; int count; int convex; } polygon;
        struct { gjk2_support_fn support; const void *user_data; gjk_real radius; } custom;
    };
} gjk2_shape;

/// A point.
GJK_API gjk2_shape gjk2_make_point(void);
/// A segment from a to b.
GJK_API gjk2_shape gjk2_make_segment(gjk_vec2 a, gjk_vec2 b);
/// A triangle.
GJK_API gjk2_shape gjk2_make_triangle(gjk_vec2 a, gjk_vec2 b, gjk_vec2 c);
/// A box centred at the origin.
GJK_API gjk2_shape gjk2_make_box(gjk_vec2 half_extents);
/// A circle centred at the origin.
GJK_API gjk2_shape gjk2_make_circle(gjk_real radius);
/// An ellipse with semi-axes radii.x and radii.y.
GJK_API gjk2_shape gjk2_make_ellipse(gjk_vec2 radii);
/// A capsule: segment a–b swept by a circle of the radius.
GJK_API gjk2_shape gjk2_make_capsule(gjk_vec2 a, gjk_vec2 b, gjk_real radius);
/// The convex hull of `count` points; the caller keeps them alive.
GJK_API gjk2_shape gjk2_make_polygon(const gjk_vec2 *vertices, int count);
/// A polygon whose `count` vertices (3 or more) are its corners in
/// counter-clockwise order, as gjk2_convex_hull returns them (collinear and
/// repeated points are allowed). The order is checked here, once
/// (gjk2_polygon_convexity): gjk2_penetration and gjk2_intersect then take
/// the answer from the edges' separating axes where it is clear, as two
/// boxes do, instead of GJK and EPA (gjk2_distance takes GJK, which costs
/// less there). Points that are not so ordered give the plain polygon of
/// gjk2_make_polygon (the hull of the points: the same answers, by GJK).
/// The caller keeps the points alive and unchanged: the queries trust the
/// order checked here, and the points' finiteness (checked here too, which
/// the queries then skip, as for a hull in 3D), so points moved afterwards
/// need a new shape.
GJK_API gjk2_shape gjk2_make_convex_polygon(const gjk_vec2 *vertices, int count);
/// A user shape; `radius` bounds |support| (0 if unknown). GJK takes it as
/// curved and may try secant steps on it (see gjk_make_custom).
GJK_API gjk2_shape gjk2_make_custom(gjk2_support_fn support, const void *user_data, gjk_real radius);
/// The same shape with the margin set.
GJK_API gjk2_shape gjk2_with_margin(gjk2_shape shape, gjk_real margin);

/// GJK_SEPARATED when valid, else GJK_INVALID_INPUT (reads every vertex of
/// a polygon, but a convex polygon's, which gjk2_make_convex_polygon
/// checked when it made the shape: they must stay unchanged).
GJK_API gjk_status gjk2_shape_validate(const gjk2_shape *shape);

/// The point of the shape (margin included) farthest along `direction`, in
/// its local frame.
GJK_API gjk_vec2 gjk2_shape_support(const gjk2_shape *shape, gjk_vec2 direction);

/// The output of gjk2_shape_aabb: an axis-aligned box in world coordinates.
typedef struct gjk2_aabb_output {
    /// GJK_SEPARATED (as gjk2_shape_validate reports a valid shape), or
    /// GJK_INVALID_INPUT for an invalid shape or transform, a custom support
    /// point that is not finite, or bounds that overflow (lower and upper
    /// are then zero).
    gjk_status status;
    gjk_vec2 lower; ///< The least x and y of the shape's points.
    gjk_vec2 upper; ///< The greatest.
} gjk2_aabb_output;

/// The smallest axis-aligned box that holds the shape, margin included, at
/// the pose (the rotation is normalised, as in every query): each bound is
/// the shape's support value along a world axis, to within the rounding of
/// the pose. Closed forms for the primitives; a polygon's vertices are each
/// transformed once, a convex polygon (gjk2_make_convex_polygon) finds its
/// four supports (climbing from 12 vertices, else scanning), and a custom
/// shape's support function is called four times. No allocation.
GJK_API gjk2_aabb_output gjk2_shape_aabb(const gjk2_shape *shape, gjk_transform2 transform);

/// Warm-start cache of a 2D pair (zero-initialise before the first query).
typedef struct gjk2_simplex_cache {
    int count; ///< 0 to 3; 0 means "no cache".
    gjk_vec2 direction[3]; ///< Support directions in A's local frame (see gjk_simplex_cache).
    /// Convex polygons (gjk2_make_convex_polygon) of 12 vertices or more:
    /// the vertices of A and of B that each direction gave. The next query's
    /// support along the direction starts its search there, so a pair that
    /// moved a little finds its previous vertices in a step or two. Other
    /// shapes do not use them. Any value is safe.
    int vertex_a[3], vertex_b[3];
} gjk2_simplex_cache;

/// The input of every two-shape 2D query. Trace events report 2D points as
/// gjk_vec3 with z = 0; an EPA event lists the polygon's vertices in
/// counter-clockwise order and no faces (face_count 0).
typedef struct gjk2_query_input {
    const gjk2_shape *shape_a;
    gjk_transform2 transform_a;
    const gjk2_shape *shape_b;
    gjk_transform2 transform_b;
    gjk_options options;
} gjk2_query_input;

/// The answer of gjk2_intersect.
typedef struct gjk2_intersect_output {
    gjk_status status;
    bool intersect;
    int iterations;
} gjk2_intersect_output;

/// The answer of gjk2_distance (see gjk_distance_output).
typedef struct gjk2_distance_output {
    gjk_status status;
    gjk_real distance;
    gjk_vec2 point_a, point_b;
    gjk_vec2 normal;
    int iterations;
} gjk2_distance_output;

/// The answer of gjk2_penetration (see gjk_penetration_output).
typedef struct gjk2_penetration_output {
    gjk_status status;
    gjk_real signed_distance;
    gjk_real depth;
    gjk_vec2 point_a, point_b;
    gjk_vec2 normal;
    int iterations, epa_iterations;
} gjk2_penetration_output;

/// Do A and B overlap? Stops at the first separating direction or enclosing
/// triangle. Two boxes, or a box and a segment or capsule, clear of
/// touching are decided by their separating axes without iterations.
GJK_API gjk2_intersect_output gjk2_intersect(const gjk2_query_input *input);
/// Distance, closest points and normal; `cache` may be NULL. Two boxes, or
/// a box and a segment or capsule, clear of touching are answered by their
/// separating axes without iterations, as in 3D (see gjk_distance).
GJK_API gjk2_distance_output gjk2_distance(const gjk2_query_input *input, gjk2_simplex_cache *cache);
/// Signed distance with witness points and normal: GJK, then 2D EPA on
/// overlap (exact for polygons). Two boxes, or a box and a segment or
/// capsule, clear of touching are answered by their separating axes without
/// iterations (witness points in the middle of the contact edge; the cache
/// is left empty). `cache` may be NULL. With options.max_distance > 0 it
/// may stop once the shapes are proved apart beyond it (see gjk_options).
GJK_API gjk2_penetration_output gjk2_penetration(const gjk2_query_input *input, gjk2_simplex_cache *cache);

// ---- Casts (the 2D twins of gjk_raycast, gjk_shapecast, gjk_time_of_impact) ----

/// The answer of every 2D cast (see gjk_cast_output).
typedef struct gjk2_cast_output {
    gjk_status status; ///< GJK_HIT, GJK_MISS, GJK_INITIALLY_OVERLAPPING or an error.
    bool hit;
    gjk_real t;
    gjk_vec2 point;
    gjk_vec2 normal;
    int iterations;
} gjk2_cast_output;

/// A ray origin + t·direction, t ∈ [0, max_t], against one 2D shape.
typedef struct gjk2_raycast_input {
    const gjk2_shape *shape;
    gjk_transform2 transform;
    gjk_vec2 origin;
    gjk_vec2 direction;
    gjk_real max_t;
    gjk_options options;
} gjk2_raycast_input;

/// Ray cast against any 2D shape (GJK ray cast), see gjk_raycast.
GJK_API gjk2_cast_output gjk2_raycast(const gjk2_raycast_input *input);

/// A linear 2D shape cast: A stays, B moves by t·translation_b, t ∈ [0, 1].
typedef struct gjk2_shapecast_input {
    const gjk2_shape *shape_a;
    gjk_transform2 transform_a;
    const gjk2_shape *shape_b;
    gjk_transform2 transform_b;
    gjk_vec2 translation_b;
    gjk_real target_separation; ///< See gjk_shapecast_input.
    gjk_options options;
} gjk2_shapecast_input;

/// First time of contact of a translating B against a fixed A, see gjk_shapecast.
GJK_API gjk2_cast_output gjk2_shapecast(const gjk2_shapecast_input *input);

/// A 2D rigid motion over t ∈ [0, 1]: position linear, angle turning at a
/// constant rate along the shorter arc from start to end.
typedef struct gjk2_sweep {
    gjk_transform2 start, end;
} gjk2_sweep;

/// Time of impact of two moving 2D shapes (see gjk_toi_input).
typedef struct gjk2_toi_input {
    const gjk2_shape *shape_a;
    gjk2_sweep sweep_a;
    const gjk2_shape *shape_b;
    gjk2_sweep sweep_b;
    gjk_real target_separation;
    gjk_options options;
} gjk2_toi_input;

/// First time of contact by conservative advancement, see gjk_time_of_impact
/// (a disc, an ellipse of equal radii, spinning about its centre counts 0).
GJK_API gjk2_cast_output gjk2_time_of_impact(const gjk2_toi_input *input);

/// The pose of a 2D sweep at t ∈ [0, 1] (the identity for a NULL sweep).
GJK_API gjk_transform2 gjk2_sweep_at(const gjk2_sweep *sweep, gjk_real t);

// ---- Geometry utilities -------------------------------------------------

/// The shape of an ordered polygon (its vertices in order, either way round).
typedef enum gjk2_convexity {
    GJK2_CONVEX = 0,     ///< Strictly convex turns all one way (collinear vertices allowed).
    GJK2_CONCAVE = 1,    ///< Turns both ways, or winds around more than once.
    GJK2_DEGENERATE = 2, ///< Fewer than 3 distinct points, or zero area.
} gjk2_convexity;

/// The answer of gjk2_polygon_convexity.
typedef struct gjk2_convexity_output {
    gjk2_convexity convexity;
    /// +1 counter-clockwise, −1 clockwise, 0 when degenerate.
    int orientation;
} gjk2_convexity_output;

/// Classifies an ordered polygon. A NULL array or count < 1 is degenerate.
GJK_API gjk2_convexity_output gjk2_polygon_convexity(const gjk_vec2 *points, int count);

/// The convex hull of `count` points in O(n log n) (Andrew's monotone
/// chain): counter-clockwise, starting at the lowest-leftmost point, without
/// duplicate points or collinear ones as far as the turns' rounding tells (a
/// point within about ε of its neighbours' line, relative to their
/// coordinates, can stay either way: a review found one 1.4e-23 to the
/// wrong side at a size of 1e-6; gjk2_polygon_convexity accepts the result). `out` holds at least `count` points.
/// Returns the hull's vertex count (1 or 2 for degenerate input), or −1 for a
/// NULL array, count < 1 or a non-finite point.
GJK_API int gjk2_convex_hull(const gjk_vec2 *points, int count, gjk_vec2 *out);

/// The Minkowski sum of two convex polygons given counter-clockwise (as
/// gjk2_convex_hull returns them) in O(n + m), by merging their edges sorted
/// by angle. `out` holds at least n + m points. Returns the count, or −1 on
/// bad input.
GJK_API int gjk2_minkowski_sum(const gjk_vec2 *p, int n, const gjk_vec2 *q, int m, gjk_vec2 *out);

/// The brute-force Minkowski difference hull of two point clouds: the convex
/// hull of every p_i − q_j, O(nm log nm). `scratch` holds at least n·m points
/// and `out` at least n·m points. Returns the count, or −1 on bad input. The
/// reference of the tests and pictures.
GJK_API int gjk2_minkowski_difference_hull(const gjk_vec2 *p, int n, const gjk_vec2 *q, int m, gjk_vec2 *scratch,
                                   gjk_vec2 *out);

#ifdef __cplusplus
}
#endif

// 2D contact manifolds (gjk2_contact); contact2d.h includes this header in turn.
#include "gjk/contact2d.h"

#endif // GJK2D_H
