// gjk — collision queries between convex shapes in 3D.
//
// Shapes are small values described by support functions; queries take two
// shapes with their transforms and return a result struct whose `status`
// always says what happened. No query allocates, prints, asserts or loops
// without bound, and every number a query returns is finite.
//
// Conventions: right-handed frames, any consistent length unit. The normal of
// every result points from A to B. Witness points and normals are in the
// world frame.
#ifndef GJK_H
#define GJK_H

#include <stdbool.h>

#include "gjk/gjk_config.h"
#include "gjk/gjk_math.h"
#include "gjk/hull.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The outcome of a query. Values below GJK_INVALID_INPUT are answers; the
/// others are errors.
typedef enum gjk_status {
    /// The shapes are apart by more than the touching tolerance.
    GJK_SEPARATED = 0,
    /// The shapes' signed distance lies within ± the touching tolerance.
    GJK_TOUCHING = 1,
    /// The shapes overlap by more than the touching tolerance.
    GJK_PENETRATING = 2,
    /// Casts: the ray or moving shape reaches the target within the motion.
    GJK_HIT = 3,
    /// Casts: it does not.
    GJK_MISS = 4,
    /// Casts: the shapes already overlap at the start (a hit at t = 0; a ray
    /// that starts inside its shape).
    GJK_INITIALLY_OVERLAPPING = 5,
    /// An input was NaN or infinite, a radius or margin negative, a vertex
    /// list empty or NULL, a rotation zero, a shape type unknown, or an
    /// option out of range (gjk_options); or finite inputs so large that the
    /// query's own numbers would overflow (a point of the Minkowski
    /// difference beyond 2^510, about 3e153, in double; 2^62 in float:
    /// README, "Tolerances"). Every output number is zero.
    GJK_INVALID_INPUT = 6,
    /// The iteration cap was reached before the tolerance. The outputs hold
    /// the best answer found so far; they are finite. (For a penetration
    /// that EPA could not finish, the depth is its upper bound and the normal
    /// its direction: moving B by depth·normal does separate the shapes.
    /// Where GJK itself stopped at its cap, before EPA ran (epa_iterations
    /// 0), the signed distance is GJK's upper bound on it: a depth there is
    /// a lower bound, and moving B by it need not separate them.)
    GJK_NOT_CONVERGED = 7,
} gjk_status;

/// A short English name of a status ("separated", "touching", ...).
GJK_API const char *gjk_status_name(gjk_status status);

/// The kinds of shape. Every shape is convex; the margin of gjk_shape rounds
/// any of them.
typedef enum gjk_shape_type {
    GJK_SHAPE_POINT = 0,   ///< The origin of its frame.
    GJK_SHAPE_SEGMENT,     ///< Segment a–b.
    GJK_SHAPE_TRIANGLE,    ///< Triangle a, b, c.
    GJK_SHAPE_BOX,         ///< Box centred at the origin with half extents.
    GJK_SHAPE_SPHERE,      ///< Sphere at the origin.
    GJK_SHAPE_CAPSULE,     ///< Segment a–b swept by a sphere of the radius.
    GJK_SHAPE_CYLINDER,    ///< Cylinder along local z, centred at the origin.
    GJK_SHAPE_CONE,        ///< Cone along local z: base at −half height, apex at +half height.
    GJK_SHAPE_ELLIPSOID,   ///< Ellipsoid with semi-axes (radii) along x, y, z.
    GJK_SHAPE_POLYTOPE,    ///< Convex hull of a vertex cloud.
    GJK_SHAPE_CUSTOM,      ///< A user shape given by its support function.
    GJK_SHAPE_TYPE_COUNT
} gjk_shape_type;

/// A user support function: the point of the shape, in its local frame, that
/// lies farthest along `direction` (which need not be unit length and is never
/// zero; its length can be as small or as large as the square of the shapes'
/// size, so squaring it may underflow or overflow: gjk_normalize scales it
/// safely). It must be pure (the same answer for the same direction), must not
/// call back into a query, and must return finite numbers; a non-finite answer
/// ends the query with GJK_INVALID_INPUT.
typedef gjk_vec3 (*gjk_support_fn)(const void *user_data, gjk_vec3 direction);

/// A convex shape in its local frame, plus a margin: the shape actually
/// queried is the Minkowski sum of the core shape and a sphere of radius
/// `margin` (a rounded shape). Build one with the gjk_make_* functions or a
/// designated initialiser; a shape is a plain value that may be copied.
///
/// Memory: a polytope points at the caller's vertex array and a custom shape
/// at the caller's user data. The library never copies, frees or keeps them
/// beyond a query; they must stay valid and unchanged while the shape is used.
typedef struct gjk_shape {
    gjk_shape_type type;
    /// Rounding radius ≥ 0 added to every shape.
    gjk_real margin;
    union {
        struct { gjk_vec3 a, b; } segment;
        struct { gjk_vec3 a, b, c; } triangle;
        struct { gjk_vec3 half_extents; } box;
        struct { gjk_real radius; } sphere;
        struct { gjk_vec3 a, b; gjk_real radius; } capsule;
        struct { gjk_real radius, half_height; } cylinder;
        struct { gjk_real radius, half_height; } cone;
        struct { gjk_vec3 radii; } ellipsoid;
        /// Any points: the shape is their convex hull. Duplicate and interior
        /// points are allowed. Not owned (see above). `hull` is NULL, or the
        /// hull these vertices are the vertices of (gjk_make_hull): support
        /// points then climb its vertex graph instead of scanning.
        struct { const gjk_vec3 *vertices; int count; const gjk_hull *hull; } polytope;
        /// `support` is called with `user_data`. `radius` is an optional
        /// bound on |support(d)| (0 if unknown): it only sets the tolerance
        /// scale.
        struct { gjk_support_fn support; const void *user_data; gjk_real radius; } custom;
    };
} gjk_shape;

/// A point.
GJK_API gjk_shape gjk_make_point(void);
/// A segment from a to b.
GJK_API gjk_shape gjk_make_segment(gjk_vec3 a, gjk_vec3 b);
/// A triangle a, b, c.
GJK_API gjk_shape gjk_make_triangle(gjk_vec3 a, gjk_vec3 b, gjk_vec3 c);
/// A box centred at the origin.
GJK_API gjk_shape gjk_make_box(gjk_vec3 half_extents);
/// A sphere centred at the origin.
GJK_API gjk_shape gjk_make_sphere(gjk_real radius);
/// A capsule: the segment a–b swept by a sphere of the radius.
GJK_API gjk_shape gjk_make_capsule(gjk_vec3 a, gjk_vec3 b, gjk_real radius);
/// A cylinder along local z from −half_height to +half_height.
GJK_API gjk_shape gjk_make_cylinder(gjk_real radius, gjk_real half_height);
/// A cone along local z: base disc of the radius at −half_height, apex at +half_height.
GJK_API gjk_shape gjk_make_cone(gjk_real radius, gjk_real half_height);
/// An ellipsoid with semi-axes radii.x, radii.y, radii.z.
GJK_API gjk_shape gjk_make_ellipsoid(gjk_vec3 radii);
/// The convex hull of `count` points. The shape points at `vertices` and
/// does not copy them: the caller keeps them alive and unchanged.
GJK_API gjk_shape gjk_make_polytope(const gjk_vec3 *vertices, int count);
/// A polytope on a hull made by gjk_hull_create: the same shape as
/// gjk_make_polytope on the hull's vertices, with support points found by
/// hill climbing and the vertices validated once when the hull was built.
/// The caller keeps the hull alive while the shape is used.
GJK_API gjk_shape gjk_make_hull(const gjk_hull *hull);
/// A user shape given by `support(user_data, d)`; `radius` bounds its size
/// (0 if unknown). The caller keeps `user_data` alive. GJK takes it as
/// curved and may try secant steps on it (docs/design.md); a polytope
/// given this way pays a few percent more iterations than gjk_make_hull.
GJK_API gjk_shape gjk_make_custom(gjk_support_fn support, const void *user_data, gjk_real radius);
/// The same shape with the margin set (a rounded shape).
GJK_API gjk_shape gjk_with_margin(gjk_shape shape, gjk_real margin);

/// GJK_SEPARATED when the shape is valid, else GJK_INVALID_INPUT: a NaN or
/// infinite number, a negative radius, margin or extent, a NULL or empty
/// vertex list, a NULL support function or an unknown type. A custom shape's
/// support function is not called here.
GJK_API gjk_status gjk_shape_validate(const gjk_shape *shape);

/// The point of the shape (margin included) farthest along `direction`, in
/// the shape's local frame. A zero direction gives a point of the shape.
/// Exact within rounding for coordinates in the queries' range (up to
/// 2^510, about 3e153, in double): beyond, a polytope's dot products may
/// overflow, and of the vertices tied at infinity the first is returned.
GJK_API gjk_vec3 gjk_shape_support(const gjk_shape *shape, gjk_vec3 direction);

/// The output of gjk_shape_aabb: an axis-aligned box in world coordinates.
typedef struct gjk_aabb_output {
    /// GJK_SEPARATED (as gjk_shape_validate reports a valid shape), or
    /// GJK_INVALID_INPUT for an invalid shape or transform, a custom support
    /// point that is not finite, or bounds that overflow (lower and upper
    /// are then zero).
    gjk_status status;
    gjk_vec3 lower; ///< The least x, y and z of the shape's points.
    gjk_vec3 upper; ///< The greatest.
} gjk_aabb_output;

/// The smallest axis-aligned box that holds the shape, margin included, at
/// the pose (the rotation is normalised, as in every query): each bound is
/// the shape's support value along a world axis, to within the rounding of
/// the pose (a few ε times |position| plus the shape's size). Closed forms
/// for every primitive; a polytope's vertices are each transformed once,
/// a hull (gjk_make_hull) climbs to its six supports, and a custom shape's
/// support function is called six times (lower ≤ upper even where it is
/// not a true support function). No allocation. What a broad phase keeps
/// per body; add a margin for motion as needed.
GJK_API gjk_aabb_output gjk_shape_aabb(const gjk_shape *shape, gjk_transform transform);

/// Which algorithm a trace event comes from.
typedef enum gjk_trace_phase {
    GJK_TRACE_GJK = 0, ///< One GJK iteration.
    GJK_TRACE_EPA = 1, ///< One EPA iteration.
} gjk_trace_phase;

/// One iteration of a query, for pictures and teaching. Points are points of
/// the Minkowski difference of the two cores (A − B without the rounding
/// radii, see README), in world orientation: a_world − b_world. They are
/// valid only during the callback.
typedef struct gjk_trace_event {
    gjk_trace_phase phase;
    /// 1 for the first iteration of the phase.
    int iteration;
    /// GJK: the simplex at the start of the iteration (1 to 3 points).
    int simplex_count;
    gjk_vec3 simplex[4];
    /// GJK: the simplex's point closest to the origin. EPA: the origin's foot
    /// on the nearest face.
    gjk_vec3 closest;
    /// The direction searched (GJK: toward the origin; EPA: the nearest
    /// face's outward normal); not unit.
    gjk_vec3 direction;
    /// The support point found along `direction`.
    gjk_vec3 support;
    /// Lower and upper bound on the core distance (GJK) or core depth (EPA).
    gjk_real lower, upper;
    /// EPA: the polytope's vertices and its faces (three vertex indices each,
    /// counter-clockwise seen from outside).
    int vertex_count;
    const gjk_vec3 *vertices;
    int face_count;
    const int (*faces)[3];
} gjk_trace_event;

/// A trace callback: called once per GJK and EPA iteration when set.
typedef void (*gjk_trace_fn)(void *user_data, const gjk_trace_event *event);

/// Options shared by the queries. Zero-initialise it for the defaults.
typedef struct gjk_options {
    /// Maximum GJK iterations; 0 means GJK_DEFAULT_MAX_ITERATIONS. Every
    /// option below 0, a tolerance of 1 or more, and a NaN or infinite one
    /// are invalid input (GJK_INVALID_INPUT), not clamped.
    int max_iterations;
    /// Maximum EPA iterations (penetration; distance and intersect too,
    /// where EPA must tell touching from penetrating); 0 means
    /// GJK_DEFAULT_MAX_EPA_ITERATIONS. EPA keeps its polytope in fixed
    /// stack storage of 256 vertices, which also bounds its iterations.
    int max_epa_iterations;
    /// Relative tolerance; 0 means GJK_DEFAULT_TOLERANCE, and a value
    /// below GJK_MIN_TOLERANCE counts as that. The absolute tolerance of a
    /// query is this times its length scale (see README, "Tolerances"). It
    /// is also the touching band.
    gjk_real tolerance;
    /// Distance and penetration queries (3D and 2D): when > 0 (0 is off),
    /// the query may stop as soon as it proves the shapes farther apart
    /// than this value; it then returns GJK_SEPARATED with a lower bound on
    /// the distance (> max_distance) as its distance (signed distance), a
    /// unit normal from A to B that certifies it (the shapes' gap along the
    /// normal is at least the bound) and points of A and of B at least
    /// that far apart, not the closest. In
    /// 3D, shapes whose bounding balls about their origins are apart beyond
    /// it (not user shapes, nor polytopes made without a hull) are answered
    /// from the balls alone, without pose setup or walk: their gap, the
    /// direction between the origins, the shapes' support points along it,
    /// no iterations and the cache left empty. A contact margin: a penetration query with a small max_distance skips
    /// the distance of pairs apart beyond it, as an MPR test that answers
    /// only "not intersecting" would. The closed forms and the separating
    /// axes (balls, capsules, boxes, solids of revolution with parallel
    /// axes, 2D polygons) answer exactly all the same. The casts and the
    /// contact manifold do not take it (the manifold has its speculative
    /// distance).
    gjk_real max_distance;
    /// Optional: called once per iteration with the simplex (GJK) or the
    /// polytope (EPA). NULL costs one predictable branch per iteration.
    gjk_trace_fn trace;
    /// Passed to `trace`.
    void *trace_data;
} gjk_options;

/// Default iteration cap of GJK.
#define GJK_DEFAULT_MAX_ITERATIONS 128
/// Default iteration cap of EPA (one support point per iteration).
#define GJK_DEFAULT_MAX_EPA_ITERATIONS 250
#if GJK_USE_FLOAT
#define GJK_DEFAULT_TOLERANCE 2e-6f
#else
/// Default relative tolerance: 1e-10 in double, 2e-6 in float.
#define GJK_DEFAULT_TOLERANCE 1e-10
#endif
/// The least relative tolerance a query works to, 16 units of rounding
/// (3.6e-15 in double, 1.9e-6 in float): a smaller options.tolerance counts
/// as this. Beneath it the closest point of a simplex through the origin is
/// rounding noise, which such a tolerance would report as a distance.
#define GJK_MIN_TOLERANCE (16 * GJK_REAL_EPSILON)

/// A warm-start cache for repeated queries on one pair of shapes (as the
/// simplex cache of Box2D). Zero-initialise it before the first query and
/// pass the same cache on later frames: the final simplex is stored as the
/// directions (in A's local frame) whose support points formed it, and the
/// next query starts from the support points of the current shapes along
/// them, which for a pair that moved little are the previous vertices. Those
/// points always belong to the shapes, so a stale cache, or one from other
/// shapes, costs iterations, never correctness; a cache with a bad count or
/// a non-finite or zero direction is ignored. A warm query that ends not
/// converged runs again from cold, within what max_iterations and
/// max_epa_iterations have left, and reports both runs' iterations.
typedef struct gjk_simplex_cache {
    /// Number of stored directions, 0 to 4; 0 means "no cache".
    int count;
    /// Support directions in A's local frame.
    gjk_vec3 direction[4];
    /// Hull polytopes (gjk_make_hull): the vertices of A and of B that each
    /// direction gave. The next query starts from those vertices as they are
    /// (and climbs from them), so a pair that moved a little starts from its
    /// previous closest features. Any value is safe.
    int vertex_a[4], vertex_b[4];
} gjk_simplex_cache;

/// The input of every two-shape query.
typedef struct gjk_query_input {
    const gjk_shape *shape_a;
    gjk_transform transform_a;
    const gjk_shape *shape_b;
    gjk_transform transform_b;
    gjk_options options;
} gjk_query_input;

/// The answer of gjk_intersect.
typedef struct gjk_intersect_output {
    /// Separated, touching or penetrating; or an error.
    gjk_status status;
    /// True when the shapes touch or overlap (closed sets).
    bool intersect;
    /// GJK iterations used.
    int iterations;
} gjk_intersect_output;

/// The answer of gjk_distance.
typedef struct gjk_distance_output {
    /// Separated, touching or penetrating; or an error.
    gjk_status status;
    /// Distance between the shapes (≥ 0); 0 when they overlap. When they
    /// touch (GJK_TOUCHING: within the tolerance of each other) it is
    /// within the tolerance of the true distance, and may be 0.
    gjk_real distance;
    /// Closest point on A and on B (world frame). When the shapes overlap
    /// both are one point of the overlap. (After an early stop at
    /// options.max_distance: points of A and of B at least `distance`
    /// apart, not the closest.)
    gjk_vec3 point_a, point_b;
    /// Unit vector from A to B along which they are closest. When the shapes
    /// overlap it is unit if the direction is known (the cores are apart and
    /// only the rounding overlaps, or the shapes only touch and EPA found the
    /// contact direction) and zero otherwise.
    gjk_vec3 normal;
    /// GJK iterations used.
    int iterations;
} gjk_distance_output;

/// The answer of gjk_penetration: the signed distance with its witnesses.
typedef struct gjk_penetration_output {
    /// Separated, touching or penetrating; or an error.
    gjk_status status;
    /// Signed distance: the distance when apart (> 0), minus the depth when
    /// overlapping (< 0).
    gjk_real signed_distance;
    /// Penetration depth, max(0, −signed_distance): translating B by
    /// depth·normal makes the shapes touch.
    gjk_real depth;
    /// Witness points (world): when apart, the closest points; when
    /// overlapping, the deepest point of A inside B (point_a) and of B inside
    /// A (point_b), so that point_a − point_b = depth·normal. (After an
    /// early stop at options.max_distance: points of A and of B at least
    /// signed_distance apart, not the closest.)
    gjk_vec3 point_a, point_b;
    /// Unit vector from A to B (always unit unless status is an error).
    gjk_vec3 normal;
    /// GJK iterations and EPA iterations used.
    int iterations, epa_iterations;
} gjk_penetration_output;

/// Do A and B overlap? Stops as soon as GJK finds a separating direction or a
/// simplex that encloses the origin. Two boxes, or a box and a segment or
/// capsule, clear of touching are decided by their separating axes.
GJK_API gjk_intersect_output gjk_intersect(const gjk_query_input *input);

/// gjk_intersect warm-started from `cache` (see gjk_distance; may be NULL),
/// which receives the final simplex: for a pair that moved a little since
/// the last query, the cached points usually prove the answer at once (a
/// separating direction, or a tetrahedron around the origin). Shapes whose
/// bounding balls about their origins are apart (any but user shapes and
/// polytopes without hull) are answered from the balls alone, before any
/// other work, leaving the cache empty.
GJK_API gjk_intersect_output gjk_intersect_cached(const gjk_query_input *input, gjk_simplex_cache *cache);

/// Distance and closest points of A and B. `cache` may be NULL; when given it
/// warm-starts the query and receives the final simplex. Two points,
/// spheres, segments or capsules whose cores are apart, and a point or
/// sphere against a box, cylinder, cone, ellipsoid or triangle (any of them
/// rounded), are answered in closed form, without iterations and leaving
/// the cache empty (unless options.trace is set). So are two boxes, or a
/// box and a segment or capsule (a box of zero width), clear of touching,
/// by their 15 separating axes: apart, a face against a corner, edge or
/// face, two crossing edges, or a corner nearest to the other box (its
/// nearest point found by clamping, and proved by the gap along it), which
/// is nearly every pair, with the witness points in the middle of the
/// facing patch; overlapping, one common point.
GJK_API gjk_distance_output gjk_distance(const gjk_query_input *input, gjk_simplex_cache *cache);

/// Signed distance with witness points and normal: GJK, then EPA when the
/// shapes overlap (or a closed form, see gjk_distance). Two boxes, or a box
/// and a segment or capsule, clear of touching are answered by their 15
/// separating axes without iterations, apart as in gjk_distance and with
/// their cores overlapping (witness points in the middle of the contact
/// patch; the cache is left empty). `cache` may be NULL (see gjk_distance).
/// With options.max_distance > 0 the query may stop once the shapes are
/// proved apart beyond it (see gjk_options).
GJK_API gjk_penetration_output gjk_penetration(const gjk_query_input *input, gjk_simplex_cache *cache);

// ---- Casts ---------------------------------------------------------------

/// The answer of every cast: status GJK_HIT, GJK_MISS or
/// GJK_INITIALLY_OVERLAPPING, or an error.
typedef struct gjk_cast_output {
    gjk_status status;
    /// True for GJK_HIT and GJK_INITIALLY_OVERLAPPING.
    bool hit;
    /// The fraction of the motion at the first contact (0 when initially
    /// overlapping; 0 on a miss).
    gjk_real t;
    /// World point of first contact: on the shape's surface for a ray; on A's
    /// surface for shape casts and time of impact (at time t).
    gjk_vec3 point;
    /// Unit normal at the contact: the surface normal for a ray; from A to B
    /// for shape casts and time of impact (at time t). For a ray that starts
    /// inside, the normal of the nearest surface.
    gjk_vec3 normal;
    /// Iterations used (GJK ray-cast steps or conservative-advancement steps).
    int iterations;
} gjk_cast_output;

/// A ray origin + t·direction, t ∈ [0, max_t], against one shape.
typedef struct gjk_raycast_input {
    const gjk_shape *shape;
    gjk_transform transform;
    gjk_vec3 origin;
    gjk_vec3 direction; ///< Need not be unit: t is measured in its lengths.
    gjk_real max_t;     ///< ≥ 0.
    gjk_options options;
} gjk_raycast_input;

/// Ray cast against any shape, margin included, by the GJK ray cast (van den
/// Bergen 2004): works for every support-mapped shape, user shapes included.
/// A ray that starts inside the shape (or on its surface) hits at t = 0 with
/// status GJK_INITIALLY_OVERLAPPING, point = origin and the normal of the
/// nearest surface.
GJK_API gjk_cast_output gjk_raycast(const gjk_raycast_input *input);

/// A linear shape cast: A stays, B moves by t·translation_b, t ∈ [0, 1].
typedef struct gjk_shapecast_input {
    const gjk_shape *shape_a;
    gjk_transform transform_a;
    const gjk_shape *shape_b;
    gjk_transform transform_b; ///< B's pose at t = 0.
    gjk_vec3 translation_b;
    /// The distance at which B stops (≥ 0). 0, the default, means touching
    /// (within the tolerance); a small positive value (a "linear slop")
    /// leaves that gap, as physics engines do. Pairs that stay farther apart
    /// than this, such as a box sliding past another at a clear gap, miss.
    gjk_real target_separation;
    gjk_options options;
} gjk_shapecast_input;

/// First time of contact of B moving by a translation against a fixed A.
/// Shapes that overlap at t = 0 give GJK_INITIALLY_OVERLAPPING, t = 0 and
/// the penetration normal and point (gjk_penetration has the rest; where
/// its EPA reached max_epa_iterations, the overlap is gjk_intersect's and
/// the normal EPA's best, a direction that separates the shapes); shapes
/// within target_separation at t = 0 but not overlapping give GJK_HIT at 0.
GJK_API gjk_cast_output gjk_shapecast(const gjk_shapecast_input *input);

/// A rigid motion over the step t ∈ [0, 1]: the position moves linearly from
/// start to end, the rotation turns at constant angular velocity along the
/// shorter arc from start to end.
typedef struct gjk_sweep {
    gjk_transform start, end;
} gjk_sweep;

/// Time of impact of two shapes that both move (linear and angular motion).
typedef struct gjk_toi_input {
    const gjk_shape *shape_a;
    gjk_sweep sweep_a;
    const gjk_shape *shape_b;
    gjk_sweep sweep_b;
    /// Stop at this distance (≥ 0); see gjk_shapecast_input.
    gjk_real target_separation;
    /// options.max_iterations caps the advancement steps (0: the default,
    /// GJK_DEFAULT_MAX_TOI_ITERATIONS); each step is one distance query.
    gjk_options options;
} gjk_toi_input;

/// Default cap of conservative-advancement steps. A head-on translation
/// needs one or two, and turning shapes a few (3 on average over random
/// turning sweeps, at most 38 of 50,000, in double). The cap is reached
/// where the gap stays within a hair of the target while every bound lets
/// the turn close it: a rod pivoting about its end 1e-9 above the floor.
#define GJK_DEFAULT_MAX_TOI_ITERATIONS 256

/// First time of contact by conservative advancement: from the current
/// distance d along normal n, no point can close the gap faster than
/// μ = (v_A − v_B)·n + ω_A ρ_A + ω_B ρ_B (ρ: a bound on the extent of the
/// shape's core about its origin; a turn moves no rounding along n, so a
/// ball spinning about its centre counts 0; ω: the part of the turn across
/// n, and for a solid of revolution (a capsule or segment about its line, a
/// cylinder, a cone, an ellipsoid with two equal radii) at most the rate at
/// which the turn tips that axis, plus the orbit of a line that misses the
/// origin, so a log rolling on its axis or a wheel counts 0), so the shapes
/// are safe for (d − target) / μ. A second bound, exact to first order
/// (the support points' own rates, the turn's second order bounded by
/// ρ|ω|²), gives the longer step near a closest approach or a contact,
/// where μ would crawl. The step never passes a contact, so thin or fast
/// shapes do not tunnel. GJK_MISS
/// when they stay apart through the step (or μ ≤ 0); GJK_NOT_CONVERGED when
/// the cap is reached first, or when the contact's normal is not found (the
/// penetration query there did not converge, as a small
/// options.max_epa_iterations allows, and the distance query there knows no
/// direction): t then holds how far it is safe. Shapes that
/// overlap at the start give GJK_INITIALLY_OVERLAPPING at t = 0, as in
/// gjk_shapecast.
GJK_API gjk_cast_output gjk_time_of_impact(const gjk_toi_input *input);

/// The pose of a sweep at t ∈ [0, 1] (the identity for a NULL sweep).
GJK_API gjk_transform gjk_sweep_at(const gjk_sweep *sweep, gjk_real t);

#ifdef __cplusplus
}
#endif

// Contact manifolds (gjk_contact); contact.h includes this header in turn.
#include "gjk/contact.h"

#endif // GJK_H
