// The rigid-body simulation of `gjk simulate`: a program on top of the
// library (the library answers the geometric questions; this code owns the
// bodies, their motion and the contact solver).
//
// A world of rigid bodies stepped at a fixed time step: gravity; a sweep and
// prune broad phase over the bodies' bounds (taken from the shapes' support
// functions); contact manifolds from gjk_contact, persisted across steps by
// their feature ids; sequential impulses with warm starting in substeps
// (normal impulses with restitution, Coulomb friction on two tangent
// directions, twist and rolling resistance), soft position correction with
// a relax sweep, and speculative contacts so that fast bodies cannot pass
// through thin ones. One thread, a fixed order of
// operations: the same input gives bit-identical output on one build.
#ifndef GJK_SIM_H
#define GJK_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gjk/gjk.h"
#include "sim_math.h"

/// Mass properties of a shape at a density.
typedef struct sim_mass {
    double volume;
    double mass;
    /// Centre of mass in the shape's local frame.
    sim_vec3 com;
    /// Inertia tensor about the centre of mass, in the shape's local axes.
    sim_mat3 inertia;
} sim_mass;

/// Mass, centre of mass and inertia of a shape of uniform density:
/// analytic for sphere, box, capsule, cylinder, cone and ellipsoid (a margin
/// on a sphere or capsule adds to its radius), exact polyhedral integrals
/// over the faces for a polytope made with gjk_make_hull. Returns NULL, or a
/// message saying why the shape has no volume to weigh (point, segment,
/// triangle, a flat hull, a polytope without a hull, a custom shape, a
/// margin on another shape type): such shapes may only be static.
const char *sim_mass_properties(const gjk_shape *shape, double density, sim_mass *out);

/// An axis-aligned box.
typedef struct sim_aabb {
    sim_vec3 lo, hi;
} sim_aabb;

/// The world bounds of a shape at a pose (gjk_shape_aabb).
sim_aabb sim_shape_bounds(const gjk_shape *shape, sim_vec3 position, sim_quat rotation);

/// A candidate pair of the broad phase, a < b.
typedef struct sim_pair {
    int a, b;
} sim_pair;

/// Sweep and prune: bodies kept sorted by the lower bound of their box on
/// one axis (the axis along which the box centres spread most), re-sorted
/// each step by insertion sort, which costs little when bodies moved little.
/// Finding the pairs sweeps that order: O(n + k) after the sort for k
/// overlaps along the axis, never O(n²) unless every box overlaps.
typedef struct sim_broadphase {
    int count, capacity;
    int *order;
    int axis;
    sim_pair *pairs;
    int pair_count, pair_capacity;
} sim_broadphase;

/// Finds every pair of overlapping boxes (closed boxes: touching counts) whose
/// bodies are not both static (`is_static` may be NULL: none is). The pairs
/// come out sorted by (a, b). Returns false when out of memory.
bool sim_broadphase_update(sim_broadphase *bp, const sim_aabb *boxes, const bool *is_static, int n);
void sim_broadphase_free(sim_broadphase *bp);

/// World settings (sim_settings_default gives the scene format's defaults).
typedef struct sim_settings {
    sim_vec3 gravity;  ///< m/s², default (0, 0, −9.81).
    double dt;         ///< Seconds per step, default 1/60.
    /// Solver iterations per step, default 10: the step is split into this
    /// many substeps, each with one sweep of sequential impulses (soft
    /// position correction) and one relax sweep (rigid).
    int iterations;
    /// Penetration tolerated without correction (m), default 0.0002.
    double linear_slop;
    /// Contact softness for pushing penetration out: spring frequency
    /// (default 120 Hz, at most a fifth of the substep rate; twice that
    /// against static bodies, within the same cap) and damping ratio
    /// (default 10).
    double contact_hertz, contact_damping_ratio;
    /// The fastest penetration is pushed out (m/s), default 3.
    double max_push_velocity;
    /// Rolling resistance, default 0.05: a contact resists the relative
    /// turning of its bodies about the tangent axes with an angular impulse
    /// of at most rolling_resistance·μ·ρ·(normal impulse), ρ the smaller
    /// body's size and μ the pair's friction (no friction, no resistance).
    /// A ball rolling on the flat slows by about rolling_resistance·μ·g.
    double rolling_resistance;
    /// Closing speeds below this (m/s) do not bounce, default 0.2.
    double restitution_threshold;
} sim_settings;

sim_settings sim_settings_default(void);

/// A body to add.
typedef struct sim_body_def {
    gjk_shape shape;        ///< Copied; a polytope's vertices or hull must outlive the world.
    sim_vec3 position;      ///< Pose of the shape's frame.
    sim_quat rotation;      ///< Normalised on add.
    sim_vec3 velocity;      ///< Of the centre of mass.
    sim_vec3 angular_velocity;
    double density;         ///< kg/m³ (> 0 for a dynamic body).
    bool is_static;         ///< Infinite mass; never moves.
    double restitution;     ///< [0, 1]; a pair uses the larger of its two.
    double friction;        ///< ≥ 0; a pair uses the geometric mean √(μa μb).
} sim_body_def;

/// A body's state as reported.
typedef struct sim_body_state {
    sim_vec3 position;          ///< Origin of the shape's frame (the pose position).
    sim_quat rotation;          ///< Unit quaternion (w, x, y, z).
    sim_vec3 velocity;          ///< Of the centre of mass.
    sim_vec3 angular_velocity;  ///< World frame, rad/s.
} sim_body_state;

/// One contact point after a step (for drawing and tests).
typedef struct sim_contact_info {
    int a, b;
    sim_vec3 point;  ///< Midway between the two surface points.
    sim_vec3 normal; ///< Unit, from a to b.
    double separation;
    double normal_impulse; ///< Over the last step (N·s).
} sim_contact_info;

typedef struct sim_world sim_world;

/// A new empty world; NULL when out of memory.
sim_world *sim_world_create(const sim_settings *settings);
void sim_world_destroy(sim_world *w);

/// Adds a body; returns its index (bodies are numbered in the order added),
/// or −1 with a message in `error` (a dynamic body whose shape has no
/// volume, a non-positive density, out of memory).
int sim_world_add_body(sim_world *w, const sim_body_def *def, char *error, size_t error_size);

/// Advances the world by one time step. Returns false, with the reason in
/// sim_world_error, when out of memory, when the library rejects a contact
/// (numbers beyond its range), or when a body's state is no longer finite
/// (the world should not be stepped again).
bool sim_world_step(sim_world *w);

/// Why the last sim_world_step failed ("" when it did not).
const char *sim_world_error(const sim_world *w);

int sim_world_body_count(const sim_world *w);
sim_body_state sim_world_body_state(const sim_world *w, int index);
/// The shape's pose as a library transform.
gjk_transform sim_world_body_transform(const sim_world *w, int index);
/// Mass properties of a body (zero mass for a static body).
sim_mass sim_world_body_mass(const sim_world *w, int index);
/// Steps taken so far.
int sim_world_step_count(const sim_world *w);

/// Contact points in touch (separation ≤ linear slop) after the last step.
int sim_world_contact_count(const sim_world *w);
/// The deepest penetration (≥ 0, metres) among the current contacts.
double sim_world_max_penetration(const sim_world *w);
/// Copies up to `max` current touching contact points into `out`; returns
/// how many there are in all.
int sim_world_contacts(const sim_world *w, sim_contact_info *out, int max);

/// Seconds spent in each phase since the world was created (for the
/// benchmark): broad phase, narrow phase, solver and integration.
typedef struct sim_timing {
    double broad, narrow, solve;
    /// Candidate pairs, manifolds computed, contact points, and points
    /// warm-started from the previous step.
    long pairs, manifolds, points, warm_points;
    /// Manifolds found again within a step for pairs that turn fast.
    long refreshed;
} sim_timing;
sim_timing sim_world_timing(const sim_world *w);
/// Turns timing on or off (off by default: it reads the clock).
void sim_world_set_timing(sim_world *w, bool on);

#endif // GJK_SIM_H
