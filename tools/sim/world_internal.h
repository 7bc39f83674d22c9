// The world's private parts, shared by world.c (bodies and the step),
// contacts.c (broad phase, manifolds, warm starts) and solver.c (the
// substeps: impulses, positions, restitution). Not installed; sim.h is the
// simulator's interface. Its includers define _POSIX_C_SOURCE (clock_gettime).
#ifndef GJK_SIM_WORLD_INTERNAL_H
#define GJK_SIM_WORLD_INTERNAL_H

#include <time.h>

#include "sim.h"

typedef struct body {
    gjk_shape shape;
    bool is_static;
    double inv_mass;
    sim_mat3 inertia_local, inv_inertia_local; // about the centre of mass, shape axes
    sim_mat3 inv_inertia_world;
    sim_mat3 rot; // rotation matrix of q
    sim_vec3 com_local;
    sim_vec3 x; // centre of mass, world
    sim_quat q;
    sim_vec3 v, w;
    sim_vec3 x0; // centre of mass at the step's start
    double friction, restitution;
    double radius; // bound on |p − centre of mass| over the shape
    double reach;  // how far the body may move during the next step
    // Restitution's energy cap, within a step (apply_restitution in solver.c):
    double energy_start;            // kinetic energy at the step's start
    int group;                      // union-find parent among the bodies that bounce together
    sim_vec3 bounce_p, bounce_iw;   // restitution's impulse on the body, and its turn I⁻¹·(r × impulse)
    sim_vec3 bounce_l;              // restitution's angular impulse, Σ r × impulse
    double group_cap, group_now, group_work, group_curv; // a group's sums, at its root
    double bounce_scale;            // at a group's root: how much of its bounce impulses stays
    sim_mass mass;
} body;

typedef struct cpoint {
    sim_vec3 point;          // midway between the two surface points (world), at the step's start
    sim_vec3 point_a, point_b; // the surface points on A and on B (world), at the step's start
    sim_vec3 anchor;         // where the impulses act at the step's start (see update_geometry)
    sim_vec3 ra, rb;         // the current point relative to the centres of mass (world)
    sim_vec3 ran, rbn;       // ra × n, rb × n
    sim_vec3 wa, wb;         // I_A⁻¹·(ra × n), I_B⁻¹·(rb × n): the turn per unit normal impulse
    double separation;       // at the step's start
    double separation_now;   // at the current substep
    double mass_n;
    double lambda_n, max_lambda_n;
    double vn0;              // normal velocity at the step's start (restitution)
    double bounce;           // the normal impulse restitution added this step
    double vn_pre;           // the normal speed before restitution
    uint32_t id;
} cpoint;

typedef struct contact {
    int a, b;
    sim_vec3 n, t1, t2;
    int count;
    cpoint p[GJK_MAX_CONTACT_POINTS];
    double friction, restitution;
    // Friction acts at the centre of the points: two tangent impulses
    // bounded jointly by μ·Σλn, and a twist impulse about the normal bounded
    // by μ·(mean distance of the points from the centre)·Σλn.
    sim_vec3 ra, rb;
    double k11, k12, k22; // the tangent block of the effective-mass matrix at the centre
    double mass_twist, twist_radius;
    double lambda_t1, lambda_t2, lambda_twist;
    // Rolling resistance: an angular impulse against the relative turning
    // about the two tangents, at most rolling_resistance·μ·ρ·Σλn (ρ the
    // smaller body's size).
    double r11, r12, r22, rolling_limit;
    double lambda_r1, lambda_r2;
    // How far the bodies' turning may have carried their surfaces since the
    // manifold was found.
    double swept;
    gjk_simplex_cache cache;
} contact;

struct sim_world {
    sim_settings s;
    body *bodies;
    int count, capacity;
    contact *contacts, *next;
    int contact_count, contact_capacity;
    sim_broadphase bp;
    sim_aabb *boxes;
    bool *statics;
    int aux_capacity;
    int steps;
    bool collided;
    bool timing_on;
    sim_timing timing;
    char error[200]; ///< Why the last step failed (sim_world_error).
};

/// The wall-clock time in seconds when timing is on (sim_world_set_timing), else 0.
static inline double sim_now(const sim_world *w) {
    if (!w->timing_on) {
        return 0;
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/// The shape's pose (its frame's origin, not the centre of mass).
static inline gjk_transform sim_shape_transform(const body *b) {
    sim_vec3 origin = sv_sub(b->x, sq_rotate(b->q, b->com_local));
    return gjk_transform_make(sv_to_gjk(origin), sq_to_gjk(b->q));
}

/// The rotation matrix and the world inverse inertia from b->q.
static inline void sim_update_inertia(body *b) {
    b->rot = sm_from_quat(b->q);
    if (b->is_static) {
        b->inv_inertia_world = sm_zero();
        return;
    }
    b->inv_inertia_world = sm_rotate_tensor(&b->rot, &b->inv_inertia_local);
}

/// How far a contact's point of action has moved since the step's start:
/// with the moving body against a static one, by the mean translation of
/// the two otherwise.
static inline sim_vec3 contact_move(const body *A, const body *B) {
    return A->is_static   ? sv_sub(B->x, B->x0)
           : B->is_static ? sv_sub(A->x, A->x0)
                          : sv_scale(0.5, sv_add(sv_sub(A->x, A->x0), sv_sub(B->x, B->x0)));
}

/// The size that scales a contact's tolerances: the moving body's radius
/// against a static one, the smaller of the two otherwise.
static inline double sim_contact_size(const body *A, const body *B) {
    return A->is_static ? B->radius : B->is_static ? A->radius : A->radius < B->radius ? A->radius : B->radius;
}

/// The broad phase's pad about a body of radius r: four slops and a
/// fiftieth of its size. A pair's surfaces that turned farther than the
/// pad of their contact's size (sim_contact_size) have left the manifold's
/// features (sim_refresh_turning); a bouncing pair's point that moves
/// farther along the normal within a substep, its impulse (the solver's
/// warm start).
static inline double sim_pad(const sim_world *w, double radius) { return 4 * w->s.linear_slop + 0.02 * radius; }

/// Bounds, broad phase and manifolds for the current poses (contacts.c);
/// false when memory ran out or the library rejected a contact (w->error).
bool sim_collide(sim_world *w);

/// Finds again, at the current poses, the manifolds of pairs that turned
/// far within the step (contacts.c).
void sim_refresh_turning(sim_world *w, double h);

/// The step's substeps on the current contacts: impulses, positions and
/// rotations, restitution (solver.c).
void sim_solve_step(sim_world *w);

#endif
