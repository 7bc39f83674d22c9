#define _POSIX_C_SOURCE 199309L
// The world: bodies, contacts and the step (see sim.h and docs/simulation.md).
//
// One step of length dt, split into n = `iterations` substeps of h = dt/n:
//   1. Once a step: each contact point's anchor (where its impulses act),
//      its closing speed for restitution, the effective masses.
//   2. Per substep: v += g·h; lever arms from the anchors moved with the
//      bodies' translation; warm start with the accumulated impulses; one
//      sweep of sequential impulses (Catto 2005) with soft position
//      correction (a spring of contact_hertz with damping, Catto's Solver2D
//      as in Box2D v3); separations advanced by the normal speeds; positions
//      and rotations (implicit midpoint rule at fixed angular momentum);
//      one rigid relax sweep. Per contact: each point's normal impulse
//      (accumulated, ≥ 0; a point still apart may close its gap within the
//      substep, no more: speculative contacts), then friction at the centre
//      of the points (the two tangent rows as one 2×2 block, clamped to the
//      disc μ·Σλn), twist about the normal and rolling resistance.
//   3. Restitution sweeps: points that closed fast and were pushed leave
//      with −e times their closing speed.
//   4. New bounds, sweep and prune, and a manifold for every candidate pair
//      (gjk_contact with a speculative distance covering how far the two
//      bodies can approach during the next step); impulses carried over by
//      feature id.
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    // manifold was found, and whether it was found anew within this step.
    double swept;
    bool fresh;
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

sim_settings sim_settings_default(void) {
    sim_settings s;
    s.gravity = sv3(0, 0, -9.81);
    s.dt = 1.0 / 60.0;
    s.iterations = 10;
    s.linear_slop = 0.0002;
    s.contact_hertz = 120;
    s.contact_damping_ratio = 10;
    s.max_push_velocity = 3;
    s.rolling_resistance = 0.05;
    s.restitution_threshold = 0.2;
    return s;
}

sim_world *sim_world_create(const sim_settings *settings) {
    sim_world *w = calloc(1, sizeof *w);
    if (w != NULL) {
        w->s = settings ? *settings : sim_settings_default();
    }
    return w;
}

void sim_world_destroy(sim_world *w) {
    if (w == NULL) {
        return;
    }
    free(w->bodies);
    free(w->contacts);
    free(w->next);
    free(w->boxes);
    free(w->statics);
    sim_broadphase_free(&w->bp);
    free(w);
}

static void update_inertia(body *b) {
    b->rot = sm_from_quat(b->q);
    if (b->is_static) {
        b->inv_inertia_world = sm_zero();
        return;
    }
    b->inv_inertia_world = sm_rotate_tensor(&b->rot, &b->inv_inertia_local);
}

int sim_world_add_body(sim_world *w, const sim_body_def *def, char *error, size_t error_size) {
    body b;
    memset(&b, 0, sizeof b);
    b.shape = def->shape;
    b.is_static = def->is_static;
    b.q = sq_normalize(def->rotation);
    b.friction = def->friction;
    b.restitution = def->restitution;
    if (!def->is_static) {
        if (!(def->density > 0)) {
            snprintf(error, error_size, "density must be positive on a dynamic body");
            return -1;
        }
        const char *why = sim_mass_properties(&def->shape, def->density, &b.mass);
        if (why != NULL) {
            snprintf(error, error_size, "%s: such a body must be static", why);
            return -1;
        }
        b.inv_mass = 1 / b.mass.mass;
        b.com_local = b.mass.com;
        b.inertia_local = b.mass.inertia;
        b.inv_inertia_local = sm_inverse(&b.mass.inertia);
        // Density times volume (and its moments) must be normal numbers, and
        // so must their inverses: a density of 1e-320 gave a mass that
        // underflowed, an infinite inverse and states of NaN (program audit).
        // The inertia's determinant must be a normal number too: where it
        // overflowed or underflowed, sm_inverse gave the zero matrix and the
        // body would never turn (review: a ball of radius 10 at a density of
        // 1e100, or of radius 1e-30).
        double m = b.mass.mass, inv = 0, det = sm_det(&b.mass.inertia);
        for (int r = 0; r < 3; ++r) {
            inv += b.inv_inertia_local.m[r][0] + b.inv_inertia_local.m[r][1] + b.inv_inertia_local.m[r][2];
        }
        if (!(m >= DBL_MIN && m <= DBL_MAX && det >= DBL_MIN && det <= DBL_MAX && isfinite(inv))) {
            snprintf(error, error_size, "its mass (%.17g kg: density times volume) or its inertia is beyond the "
                     "numbers' range", m);
            return -1;
        }
        b.v = def->velocity;
        b.w = def->angular_velocity;
    }
    b.x = sv_add(def->position, sq_rotate(b.q, b.com_local));
    // A bound on the shape's distance from its centre of mass: the farthest
    // corner of its local bounding box.
    sim_aabb local = sim_shape_bounds(&def->shape, sv3(0, 0, 0), sq_make(1, 0, 0, 0));
    double r2 = 0;
    for (int k = 0; k < 8; ++k) {
        sim_vec3 c = sv3(k & 1 ? local.hi.x : local.lo.x, k & 2 ? local.hi.y : local.lo.y, k & 4 ? local.hi.z : local.lo.z);
        sim_vec3 d = sv_sub(c, b.com_local);
        double dd = sv_dot(d, d);
        r2 = dd > r2 ? dd : r2;
    }
    b.radius = sqrt(r2);
    update_inertia(&b);
    if (w->count == w->capacity) {
        int cap = w->capacity ? 2 * w->capacity : 64;
        body *nb = realloc(w->bodies, (size_t)cap * sizeof *nb);
        if (nb == NULL) {
            snprintf(error, error_size, "out of memory");
            return -1;
        }
        w->bodies = nb;
        w->capacity = cap;
    }
    w->bodies[w->count] = b;
    w->collided = false;
    return w->count++;
}

static double now(const sim_world *w) {
    if (!w->timing_on) {
        return 0;
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static gjk_transform shape_transform(const body *b) {
    sim_vec3 origin = sv_sub(b->x, sq_rotate(b->q, b->com_local));
    return gjk_transform_make(sv_to_gjk(origin), sq_to_gjk(b->q));
}

/// An orthonormal pair of tangents of the unit normal n (Box2D's choice: it
/// depends continuously on n away from the switch at |n.x| = 1/√3).
static void tangents(sim_vec3 n, sim_vec3 *t1, sim_vec3 *t2) {
    if (fabs(n.x) >= 0.57735026918962576) {
        *t1 = sv_normalize(sv3(n.y, -n.x, 0));
    } else {
        *t1 = sv_normalize(sv3(0, n.z, -n.y));
    }
    *t2 = sv_cross(n, *t1);
}

static bool reserve_aux(sim_world *w) {
    if (w->aux_capacity >= w->count) {
        return true;
    }
    sim_aabb *boxes = realloc(w->boxes, (size_t)w->count * sizeof *boxes);
    if (boxes == NULL) {
        return false;
    }
    w->boxes = boxes;
    bool *statics = realloc(w->statics, (size_t)w->count * sizeof *statics);
    if (statics == NULL) {
        return false;
    }
    w->statics = statics;
    w->aux_capacity = w->count;
    return true;
}

static bool reserve_contacts(sim_world *w, int n) {
    if (n <= w->contact_capacity) {
        return true;
    }
    int cap = w->contact_capacity ? w->contact_capacity : 256;
    while (cap < n) {
        cap *= 2;
    }
    contact *a = realloc(w->contacts, (size_t)cap * sizeof *a);
    if (a == NULL) {
        return false;
    }
    w->contacts = a;
    contact *b = realloc(w->next, (size_t)cap * sizeof *b);
    if (b == NULL) {
        return false;
    }
    w->next = b;
    w->contact_capacity = cap;
    return true;
}

/// Copies the impulses of the previous step onto the new contact: each
/// point's normal impulse from the point with the same feature id, or else
/// from the nearest unused old point within a tenth of the smaller body's
/// size (feature ids change when a clipped point moves from one edge to
/// another while the contact stays); the friction impulses of the pair.
static void warm_start_from(sim_world *w, contact *c, const contact *prev, double size) {
    bool used[GJK_MAX_CONTACT_POINTS] = {false};
    int match[GJK_MAX_CONTACT_POINTS];
    for (int j = 0; j < c->count; ++j) {
        match[j] = -1;
        for (int q = 0; q < prev->count; ++q) {
            if (!used[q] && prev->p[q].id == c->p[j].id) {
                match[j] = q;
                used[q] = true;
                break;
            }
        }
    }
    double tol = 0.1 * size;
    for (int j = 0; j < c->count; ++j) {
        double best = tol * tol;
        for (int q = 0; match[j] < 0 && q < prev->count; ++q) {
            sim_vec3 d = sv_sub(prev->p[q].point, c->p[j].point);
            if (!used[q] && sv_dot(d, d) <= best) {
                best = sv_dot(d, d);
                match[j] = q;
            }
        }
        if (match[j] >= 0) {
            used[match[j]] = true;
        }
    }
    // Within a step (a manifold found again) a point also keeps the closing
    // speed for restitution, and a new point takes the pair's fastest.
    double closing = 0;
    for (int q = 0; q < prev->count; ++q) {
        closing = prev->p[q].vn0 < closing ? prev->p[q].vn0 : closing;
    }
    for (int j = 0; j < c->count; ++j) {
        c->p[j].vn0 = closing;
        if (match[j] >= 0) {
            c->p[j].lambda_n = prev->p[match[j]].lambda_n;
            c->p[j].vn0 = prev->p[match[j]].vn0;
            c->p[j].max_lambda_n = prev->p[match[j]].max_lambda_n;
            ++w->timing.warm_points;
        }
    }
    // The friction impulse as a vector, re-projected onto the new tangents.
    sim_vec3 f = sv_add(sv_scale(prev->lambda_t1, prev->t1), sv_scale(prev->lambda_t2, prev->t2));
    c->lambda_t1 = sv_dot(f, c->t1);
    c->lambda_t2 = sv_dot(f, c->t2);
    c->lambda_twist = sv_dot(c->n, prev->n) > 0 ? prev->lambda_twist : 0;
    sim_vec3 r = sv_add(sv_scale(prev->lambda_r1, prev->t1), sv_scale(prev->lambda_r2, prev->t2));
    c->lambda_r1 = sv_dot(r, c->t1);
    c->lambda_r2 = sv_dot(r, c->t2);
}

/// The normal, tangents and points of a manifold (impulses zero).
static void fill_points(sim_world *w, contact *c, const gjk_manifold *m) {
    c->n = sv_normalize(sv_from_gjk(m->normal));
    tangents(c->n, &c->t1, &c->t2);
    c->count = m->point_count > GJK_MAX_CONTACT_POINTS ? GJK_MAX_CONTACT_POINTS : m->point_count;
    for (int j = 0; j < c->count; ++j) {
        cpoint *p = &c->p[j];
        memset(p, 0, sizeof *p);
        p->point_a = sv_from_gjk(m->points[j].point_a);
        p->point_b = sv_from_gjk(m->points[j].point_b);
        p->point = sv_scale(0.5, sv_add(p->point_a, p->point_b));
        p->separation = (double)m->points[j].separation;
        p->id = m->points[j].id;
        ++w->timing.points;
    }
}

/// The manifold of a pair at the bodies' current poses.
static gjk_manifold find_manifold(sim_world *w, const body *A, const body *B, gjk_simplex_cache *cache) {
    gjk_contact_input in;
    memset(&in, 0, sizeof in);
    in.shape_a = &A->shape;
    in.transform_a = shape_transform(A);
    in.shape_b = &B->shape;
    in.transform_b = shape_transform(B);
    in.speculative_distance = (gjk_real)(A->reach + B->reach);
    ++w->timing.manifolds;
    return gjk_contact(&in, cache);
}

/// Whether a manifold has points to solve: a NOT_CONVERGED one (EPA at its
/// cap between deep curved shapes) holds the best answer found, a depth
/// that does separate them, and is kept; invalid input has none (and fails
/// the step: manifold_rejected).
static bool manifold_usable(const gjk_manifold *m) { return m->status != GJK_INVALID_INPUT && m->point_count > 0; }

/// A manifold the library rejected (numbers beyond its range): the step
/// fails with the pair named, rather than let the bodies pass through each
/// other unseen (program audit: a ball fell through a ground box 1e300
/// wide). True when it was rejected.
static bool manifold_rejected(sim_world *w, const gjk_manifold *m, int ia, int ib) {
    if (m->status != GJK_INVALID_INPUT) {
        return false;
    }
    snprintf(w->error, sizeof w->error,
             "the library rejected the contact of bodies %d and %d (numbers beyond its range: README, "
             "\"Tolerances\")",
             ia, ib);
    return true;
}

/// Bounds, broad phase and manifolds for the current poses.
static bool collide(sim_world *w) {
    double t0 = now(w);
    if (!reserve_aux(w)) {
        return false;
    }
    double h = w->s.dt;
    double g = sv_length(w->s.gravity);
    // A pad so that resting contacts stay in the broad phase and keep their
    // points, and so that a body at rest that is struck during the step
    // already knows its near neighbours (a fiftieth of its size).
    for (int i = 0; i < w->count; ++i) {
        body *b = &w->bodies[i];
        double pad = 4 * w->s.linear_slop + 0.02 * b->radius;
        double reach = pad;
        if (!b->is_static) {
            reach += (sv_length(b->v) + g * h) * h + sv_length(b->w) * b->radius * h;
        }
        b->reach = reach;
        gjk_transform t = shape_transform(b);
        sim_aabb box = sim_shape_bounds(&b->shape, sv_from_gjk(t.position), b->q);
        w->boxes[i].lo = sv_sub(box.lo, sv3(reach, reach, reach));
        w->boxes[i].hi = sv_add(box.hi, sv3(reach, reach, reach));
        w->statics[i] = b->is_static;
    }
    if (!sim_broadphase_update(&w->bp, w->boxes, w->statics, w->count)) {
        return false;
    }
    double t1 = now(w);
    int np = w->bp.pair_count;
    if (!reserve_contacts(w, np)) {
        return false;
    }
    // Old contacts and new pairs are both sorted by (a, b): match them by a
    // merge walk.
    int old = 0, made = 0;
    for (int k = 0; k < np; ++k) {
        int ia = w->bp.pairs[k].a, ib = w->bp.pairs[k].b;
        while (old < w->contact_count &&
               (w->contacts[old].a < ia || (w->contacts[old].a == ia && w->contacts[old].b < ib))) {
            ++old;
        }
        const contact *prev = NULL;
        if (old < w->contact_count && w->contacts[old].a == ia && w->contacts[old].b == ib) {
            prev = &w->contacts[old];
        }
        const body *A = &w->bodies[ia], *B = &w->bodies[ib];
        contact *c = &w->next[made];
        memset(c, 0, sizeof *c);
        if (prev != NULL) {
            c->cache = prev->cache;
        }
        gjk_manifold m = find_manifold(w, A, B, &c->cache);
        if (manifold_rejected(w, &m, ia, ib)) {
            return false;
        }
        if (!manifold_usable(&m)) {
            continue;
        }
        c->a = ia;
        c->b = ib;
        c->friction = sqrt(A->friction * B->friction);
        c->restitution = A->restitution > B->restitution ? A->restitution : B->restitution;
        fill_points(w, c, &m);
        if (prev != NULL) {
            warm_start_from(w, c, prev, A->radius < B->radius ? A->radius : B->radius);
        }
        ++made;
    }
    w->timing.pairs += np;
    contact *swap = w->contacts;
    w->contacts = w->next;
    w->next = swap;
    w->contact_count = made;
    w->collided = true;
    double t2 = now(w);
    w->timing.broad += t1 - t0;
    w->timing.narrow += t2 - t1;
    return true;
}

static inline sim_vec3 point_velocity(const body *b, sim_vec3 r) { return sv_add(b->v, sv_cross(b->w, r)); }

static inline double effective_mass(const body *A, const body *B, sim_vec3 ra, sim_vec3 rb, sim_vec3 d) {
    sim_vec3 rad = sv_cross(ra, d), rbd = sv_cross(rb, d);
    double k = A->inv_mass + B->inv_mass + sv_dot(rad, sm_mul_vec(&A->inv_inertia_world, rad)) +
               sv_dot(rbd, sm_mul_vec(&B->inv_inertia_world, rbd));
    return k > 0 ? 1 / k : 0;
}

/// The impulse P at the point ra from A's centre and rb from B's: −P on A, +P on B.
static inline void apply(body *A, body *B, sim_vec3 ra, sim_vec3 rb, sim_vec3 P) {
    if (!A->is_static) {
        A->v = sv_mul_add(A->v, -A->inv_mass, P);
        A->w = sv_sub(A->w, sm_mul_vec(&A->inv_inertia_world, sv_cross(ra, P)));
    }
    if (!B->is_static) {
        B->v = sv_mul_add(B->v, B->inv_mass, P);
        B->w = sv_add(B->w, sm_mul_vec(&B->inv_inertia_world, sv_cross(rb, P)));
    }
}

/// The relative normal speed at point p (B's point minus A's, along n).
static inline double normal_speed(const body *A, const body *B, const contact *c, const cpoint *p) {
    return sv_dot(sv_sub(B->v, A->v), c->n) + sv_dot(B->w, p->rbn) - sv_dot(A->w, p->ran);
}

/// A normal impulse of size l at point p (from the precomputed turns).
static inline void apply_normal(body *A, body *B, const contact *c, const cpoint *p, double l) {
    A->v = sv_mul_add(A->v, -A->inv_mass * l, c->n);
    A->w = sv_mul_add(A->w, -l, p->wa);
    B->v = sv_mul_add(B->v, B->inv_mass * l, c->n);
    B->w = sv_mul_add(B->w, l, p->wb);
}

/// An angular impulse L: −L on A, +L on B.
static inline void apply_twist(body *A, body *B, sim_vec3 L) {
    if (!A->is_static) {
        A->w = sv_sub(A->w, sm_mul_vec(&A->inv_inertia_world, L));
    }
    if (!B->is_static) {
        B->w = sv_add(B->w, sm_mul_vec(&B->inv_inertia_world, L));
    }
}

/// A soft contact: a spring of `hertz` with damping ratio `zeta`, integrated
/// implicitly over the substep h (Catto, "Solver2D", 2024, as in Box2D v3):
/// with ω = 2π·hertz, a1 = 2ζ + hω, a2 = hω·a1, a3 = 1/(1 + a2), the
/// impulse is −m·mass_scale·(vn + bias_rate·C) − impulse_scale·λ.
typedef struct softness {
    double bias_rate, mass_scale, impulse_scale;
} softness;

static softness make_softness(double hertz, double zeta, double h) {
    softness s = {0, 1, 0};
    if (hertz > 0) {
        double omega = 2 * 3.14159265358979323846 * hertz;
        double a1 = 2 * zeta + h * omega;
        double a2 = h * omega * a1;
        double a3 = 1 / (1 + a2);
        s.bias_rate = omega / a1;
        s.mass_scale = a2 * a3;
        s.impulse_scale = a3;
    }
    return s;
}

/// How far a contact's point of action has moved since the step's start:
/// with the moving body against a static one, by the mean translation of
/// the two otherwise.
static inline sim_vec3 contact_move(const body *A, const body *B) {
    return A->is_static   ? sv_sub(B->x, B->x0)
           : B->is_static ? sv_sub(A->x, A->x0)
                          : sv_scale(0.5, sv_add(sv_sub(A->x, A->x0), sv_sub(B->x, B->x0)));
}

/// Anchors of each point in both bodies and the closing speed, once a step.
static void prepare_step(sim_world *w) {
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        sim_vec3 center = sv3(0, 0, 0);
        c->swept = 0;
        c->fresh = false;
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            center = sv_add(center, p->point);
            // Against a static body the impulses act at the moving body's
            // surface point, else midway between the two surface points.
            p->anchor = A->is_static ? p->point_b : B->is_static ? p->point_a : p->point;
            p->separation_now = p->separation;
            sim_vec3 ra = sv_sub(p->anchor, A->x), rb = sv_sub(p->anchor, B->x);
            p->vn0 = sv_dot(sv_sub(point_velocity(B, rb), point_velocity(A, ra)), c->n);
            p->max_lambda_n = 0;
        }
        center = sv_scale(1.0 / c->count, center);
        c->twist_radius = 0;
        for (int j = 0; j < c->count; ++j) {
            c->twist_radius += sv_length(sv_sub(c->p[j].point, center)) / c->count;
        }
        double size = A->is_static ? B->radius : B->is_static ? A->radius : A->radius < B->radius ? A->radius : B->radius;
        c->rolling_limit = w->s.rolling_resistance * c->friction * size;
    }
}

/// Lever arms at the start of a substep and after its motion, and (with
/// `masses`, once a step: the bodies turn little within a step, and any
/// effective mass gives equal and opposite impulses) the effective masses.
/// The point
/// where a contact's impulses act moves with the bodies' translation since
/// the step's start (with the moving body against a static one, by the mean
/// of the two otherwise) but does not turn with them: a spinning ball still
/// touches the wall at the same side. Both bodies take every impulse at one
/// and the same world point, so the impulses change neither the linear nor
/// the angular momentum of the pair.
static void update_geometry(sim_world *w, bool all_masses) {
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        if (c->count == 0) {
            continue;
        }
        body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        bool masses = all_masses || c->fresh;
        c->fresh = false;
        sim_vec3 move = contact_move(A, B);
        sim_vec3 center = sv3(0, 0, 0);
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            sim_vec3 pt = sv_add(p->anchor, move);
            center = sv_add(center, pt);
            p->ra = sv_sub(pt, A->x);
            p->rb = sv_sub(pt, B->x);
            p->ran = sv_cross(p->ra, c->n);
            p->rbn = sv_cross(p->rb, c->n);
            p->wa = A->is_static ? sv3(0, 0, 0) : sm_mul_vec(&A->inv_inertia_world, p->ran);
            p->wb = B->is_static ? sv3(0, 0, 0) : sm_mul_vec(&B->inv_inertia_world, p->rbn);
            if (masses) {
                p->mass_n = effective_mass(A, B, p->ra, p->rb, c->n);
            }
        }
        center = sv_scale(1.0 / c->count, center);
        c->ra = sv_sub(center, A->x);
        c->rb = sv_sub(center, B->x);
        if (!masses) {
            continue;
        }
        // K = J·M⁻¹·Jᵀ for the two tangent rows: the diagonal and the
        // coupling through the bodies' rotation.
        sim_vec3 a1 = sv_cross(c->ra, c->t1), a2 = sv_cross(c->ra, c->t2);
        sim_vec3 b1 = sv_cross(c->rb, c->t1), b2 = sv_cross(c->rb, c->t2);
        sim_vec3 ia1 = sm_mul_vec(&A->inv_inertia_world, a1), ib1 = sm_mul_vec(&B->inv_inertia_world, b1);
        sim_vec3 ia2 = sm_mul_vec(&A->inv_inertia_world, a2), ib2 = sm_mul_vec(&B->inv_inertia_world, b2);
        double im = A->inv_mass + B->inv_mass;
        c->k11 = im + sv_dot(a1, ia1) + sv_dot(b1, ib1);
        c->k22 = im + sv_dot(a2, ia2) + sv_dot(b2, ib2);
        c->k12 = sv_dot(a1, ia2) + sv_dot(b1, ib2);
        double kt = sv_dot(c->n, sm_mul_vec(&A->inv_inertia_world, c->n)) +
                    sv_dot(c->n, sm_mul_vec(&B->inv_inertia_world, c->n));
        c->mass_twist = kt > 0 ? 1 / kt : 0;
        // The angular block for rolling resistance: tᵢ·(I_A⁻¹ + I_B⁻¹)·tⱼ.
        sim_vec3 ja1 = sm_mul_vec(&A->inv_inertia_world, c->t1), jb1 = sm_mul_vec(&B->inv_inertia_world, c->t1);
        sim_vec3 ja2 = sm_mul_vec(&A->inv_inertia_world, c->t2), jb2 = sm_mul_vec(&B->inv_inertia_world, c->t2);
        c->r11 = sv_dot(c->t1, sv_add(ja1, jb1));
        c->r22 = sv_dot(c->t2, sv_add(ja2, jb2));
        c->r12 = sv_dot(c->t1, sv_add(ja2, jb2));
    }
}

static void warm_start(sim_world *w) {
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            apply_normal(A, B, c, p, p->lambda_n);
        }
        apply(A, B, c->ra, c->rb, sv_add(sv_scale(c->lambda_t1, c->t1), sv_scale(c->lambda_t2, c->t2)));
        apply_twist(A, B, sv_scale(c->lambda_twist, c->n));
        apply_twist(A, B, sv_add(sv_scale(c->lambda_r1, c->t1), sv_scale(c->lambda_r2, c->t2)));
    }
}

/// One sweep over the contacts. With `use_bias`, penetration beyond the
/// slop is pushed out softly (at most max_push_velocity); without it (the
/// relax sweep), touching points are rigid and the push velocity is taken
/// out of the bodies again. Points still apart may close their gap within
/// the substep, no more (speculative contacts).
static void solve(sim_world *w, double h, bool use_bias, softness soft, softness soft_static) {
    double slop = w->s.linear_slop, max_push = w->s.max_push_velocity;
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        softness sf = A->is_static || B->is_static ? soft_static : soft;
        double total = 0;
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            double s = p->separation_now;
            double bias = 0, mass_scale = 1, impulse_scale = 0;
            if (s > 0) {
                bias = s / h;
            } else if (use_bias) {
                double cpos = s + slop < 0 ? s + slop : 0;
                bias = sf.bias_rate * cpos > -max_push ? sf.bias_rate * cpos : -max_push;
                mass_scale = sf.mass_scale;
                impulse_scale = sf.impulse_scale;
            }
            double vn = normal_speed(A, B, c, p);
            double impulse = -p->mass_n * mass_scale * (vn + bias) - impulse_scale * p->lambda_n;
            double ln = p->lambda_n + impulse;
            ln = ln > 0 ? ln : 0;
            apply_normal(A, B, c, p, ln - p->lambda_n);
            p->lambda_n = ln;
            p->max_lambda_n = ln > p->max_lambda_n ? ln : p->max_lambda_n;
            total += ln;
        }
        if (total == 0 && c->lambda_t1 == 0 && c->lambda_t2 == 0 && c->lambda_twist == 0 && c->lambda_r1 == 0 &&
            c->lambda_r2 == 0) {
            continue; // not pressed (a speculative contact still apart): no friction to apply or take back
        }
        // Friction at the centre: the two tangent rows solved together (the
        // 2×2 block of the effective-mass matrix; solving them apart
        // overshoots when rotation couples them), the pair clamped to the
        // disc of radius μ·Σλn (Coulomb's cone); then the twist.
        sim_vec3 dv = sv_sub(point_velocity(B, c->rb), point_velocity(A, c->ra));
        double v1 = sv_dot(dv, c->t1), v2 = sv_dot(dv, c->t2);
        double det = c->k11 * c->k22 - c->k12 * c->k12;
        double l1 = c->lambda_t1, l2 = c->lambda_t2;
        if (det > 0) {
            l1 -= (c->k22 * v1 - c->k12 * v2) / det;
            l2 -= (c->k11 * v2 - c->k12 * v1) / det;
        }
        double limit = c->friction * total;
        double l = sqrt(l1 * l1 + l2 * l2);
        if (l > limit) {
            double f = l > 0 ? limit / l : 0;
            l1 *= f;
            l2 *= f;
        }
        apply(A, B, c->ra, c->rb, sv_add(sv_scale(l1 - c->lambda_t1, c->t1), sv_scale(l2 - c->lambda_t2, c->t2)));
        c->lambda_t1 = l1;
        c->lambda_t2 = l2;
        // Twist: the points' spread (μ·r̄·Σλn), and at least the rolling
        // resistance, so that a ball touching at one point stops spinning.
        double twist_arm = c->twist_radius > c->rolling_limit / (c->friction > 0 ? c->friction : 1)
                               ? c->twist_radius
                               : c->rolling_limit / (c->friction > 0 ? c->friction : 1);
        if (twist_arm > 0) {
            double wn = sv_dot(sv_sub(B->w, A->w), c->n);
            double lt = c->lambda_twist - c->mass_twist * wn;
            double tl = c->friction * twist_arm * total;
            lt = lt > tl ? tl : lt < -tl ? -tl : lt;
            apply_twist(A, B, sv_scale(lt - c->lambda_twist, c->n));
            c->lambda_twist = lt;
        }
        if (c->rolling_limit > 0) {
            sim_vec3 dw = sv_sub(B->w, A->w);
            double w1 = sv_dot(dw, c->t1), w2 = sv_dot(dw, c->t2);
            double rdet = c->r11 * c->r22 - c->r12 * c->r12;
            double m1 = c->lambda_r1, m2 = c->lambda_r2;
            if (rdet > 0) {
                m1 -= (c->r22 * w1 - c->r12 * w2) / rdet;
                m2 -= (c->r11 * w2 - c->r12 * w1) / rdet;
            }
            double rl = c->rolling_limit * total, rm = sqrt(m1 * m1 + m2 * m2);
            if (rm > rl) {
                double f = rm > 0 ? rl / rm : 0;
                m1 *= f;
                m2 *= f;
            }
            apply_twist(A, B, sv_add(sv_scale(m1 - c->lambda_r1, c->t1), sv_scale(m2 - c->lambda_r2, c->t2)));
            c->lambda_r1 = m1;
            c->lambda_r2 = m2;
        }
    }
}

/// Points that closed faster than the threshold and were pushed apart bounce:
/// their normal speed becomes −e times the closing speed at the step's start.
static void apply_restitution(sim_world *w) {
    double threshold = w->s.restitution_threshold;
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        if (c->restitution == 0) {
            continue;
        }
        body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            if (p->vn0 > -threshold || p->max_lambda_n == 0) {
                continue;
            }
            double vn = normal_speed(A, B, c, p);
            double ln = p->lambda_n - p->mass_n * (vn + c->restitution * p->vn0);
            ln = ln > 0 ? ln : 0;
            apply_normal(A, B, c, p, ln - p->lambda_n);
            p->lambda_n = ln;
        }
    }
}

/// The rotation by angle |ω|·h about ω, applied to q: exp(ω h / 2) ⊗ q,
/// then renormalised.
static sim_quat rotate_by(sim_quat q, sim_vec3 omega, double h) {
    double len = sv_length(omega);
    double a = len * h;
    if (!(a > 0)) {
        return sq_normalize(q);
    }
    double s = sin(0.5 * a) / len;
    sim_quat r = sq_make(cos(0.5 * a), s * omega.x, s * omega.y, s * omega.z);
    return sq_normalize(sq_mul(r, q));
}

/// Advances each point's separation by its normal speed over the substep
/// (to first order in the motion: the bodies' translation and the turning of
/// the lever arms).
static void advance_separations(sim_world *w, double h) {
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        const body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            p->separation_now += h * normal_speed(A, B, c, p);
        }
    }
}

static void integrate_positions(sim_world *w, double h) {
    for (int i = 0; i < w->count; ++i) {
        body *b = &w->bodies[i];
        if (b->is_static) {
            continue;
        }
        b->x = sv_mul_add(b->x, h, b->v);
        // Angular momentum about the centre of mass is what a free body
        // keeps, so it is held fixed over the substep and the rotation is
        // found by the implicit midpoint rule: turn by h·ω(q½), where ω(q) is
        // I(q)⁻¹·L and q½ the midpoint of the old and new rotations (a few
        // fixed-point sweeps). The explicit rule, turning by the old ω, gains
        // energy: a capsule would spin up about its long axis. ω is then
        // recomputed from L and the new inertia.
        sim_mat3 inertia_world = sm_rotate_tensor(&b->rot, &b->inertia_local);
        sim_vec3 L = sm_mul_vec(&inertia_world, b->w);
        sim_quat q0 = b->q, q1 = rotate_by(q0, b->w, h);
        for (int it = 0; it < 3; ++it) {
            sim_quat mid = sq_normalize(sq_make(q0.w + q1.w, q0.x + q1.x, q0.y + q1.y, q0.z + q1.z));
            sim_mat3 r = sm_from_quat(mid), rt = sm_transpose(&r);
            sim_vec3 local = sm_mul_vec(&b->inv_inertia_local, sm_mul_vec(&rt, L)); // I⁻¹(q½)·L = R·I⁻¹·Rᵀ·L
            sim_quat next = rotate_by(q0, sm_mul_vec(&r, local), h);
            double change = fabs(next.w - q1.w) + fabs(next.x - q1.x) + fabs(next.y - q1.y) + fabs(next.z - q1.z);
            q1 = next;
            if (change < 1e-15) {
                break; // converged (at once for a body that barely turns)
            }
        }
        b->q = q1;
        update_inertia(b);
        b->w = sm_mul_vec(&b->inv_inertia_world, L);
    }
}

/// Manifolds found anew within the step for pairs that turn fast: the
/// points of a manifold belong to the features closest at its start, and a
/// tumbling body may bring others into contact before the step ends. When
/// the surfaces may have swept more than the broad phase's pad since the
/// manifold was found, the pair's manifold is found again at the current
/// poses; impulses carry over by feature id (closing speeds too). Pairs
/// that bounce (restitution > 0) keep the step's manifold: their bounce is
/// worked out from its points (measured: refreshing them lost a few percent
/// of the energy of elastic collisions).
static void refresh_turning(sim_world *w, double h) {
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        c->swept += (sv_length(A->w) * A->radius + sv_length(B->w) * B->radius) * h;
        double small = A->is_static ? B->radius : B->is_static ? A->radius : A->radius < B->radius ? A->radius : B->radius;
        if (c->restitution > 0 || c->swept <= 4 * w->s.linear_slop + 0.02 * small) {
            continue;
        }
        c->swept = 0;
        contact prev = *c;
        gjk_manifold m = find_manifold(w, A, B, &c->cache);
        ++w->timing.refreshed;
        c->lambda_t1 = c->lambda_t2 = c->lambda_twist = c->lambda_r1 = c->lambda_r2 = 0;
        if (!manifold_usable(&m)) {
            c->count = 0; // apart beyond the reach: nothing more to do this step
            continue;
        }
        fill_points(w, c, &m);
        warm_start_from(w, c, &prev, small);
        sim_vec3 move = contact_move(A, B), center = sv3(0, 0, 0);
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            sim_vec3 at = A->is_static ? p->point_b : B->is_static ? p->point_a : p->point;
            p->anchor = sv_sub(at, move);
            p->separation_now = p->separation;
            center = sv_add(center, p->point);
        }
        center = sv_scale(1.0 / c->count, center);
        c->twist_radius = 0;
        for (int j = 0; j < c->count; ++j) {
            c->twist_radius += sv_length(sv_sub(c->p[j].point, center)) / c->count;
        }
        c->fresh = true;
    }
}

static bool sim_world_step_run(sim_world *w);

/// The first dynamic body whose state is not finite, or −1.
static int diverged_body(const sim_world *w) {
    for (int i = 0; i < w->count; ++i) {
        const body *b = &w->bodies[i];
        double sum = b->x.x + b->x.y + b->x.z + b->q.w + b->q.x + b->q.y + b->q.z + b->v.x + b->v.y + b->v.z +
                     b->w.x + b->w.y + b->w.z;
        if (!b->is_static && !isfinite(sum)) {
            return i;
        }
    }
    return -1;
}

const char *sim_world_error(const sim_world *w) { return w->error; }

bool sim_world_step(sim_world *w) {
    w->error[0] = '\0';
    bool ok = sim_world_step_run(w);
    if (!ok && w->error[0] == '\0') {
        snprintf(w->error, sizeof w->error, "out of memory");
    }
    return ok;
}

static bool sim_world_step_run(sim_world *w) {
    if (!w->collided && !collide(w)) {
        return false;
    }
    double t0 = now(w);
    int n = w->s.iterations > 0 ? w->s.iterations : 1;
    double h = w->s.dt / n;
    // Contact stiffness: at most a fifth of the substep rate (Box2D v3 caps
    // it at a quarter); contacts with static bodies twice as stiff.
    double hertz = w->s.contact_hertz < 0.2 / h ? w->s.contact_hertz : 0.2 / h;
    softness soft = make_softness(hertz, w->s.contact_damping_ratio, h);
    softness soft_static = make_softness(2 * hertz, w->s.contact_damping_ratio, h);
    // Closing speeds for restitution are taken before gravity acts in this
    // step, so that a bounce returns the speed the body arrived with.
    for (int i = 0; i < w->count; ++i) {
        w->bodies[i].x0 = w->bodies[i].x;
    }
    prepare_step(w);
    for (int sub = 0; sub < n; ++sub) {
        for (int i = 0; i < w->count; ++i) {
            body *b = &w->bodies[i];
            if (!b->is_static) {
                b->v = sv_mul_add(b->v, h, w->s.gravity);
            }
        }
        if (sub > 0) {
            refresh_turning(w, h);
        }
        update_geometry(w, sub == 0);
        warm_start(w);
        solve(w, h, true, soft, soft_static);
        advance_separations(w, h);
        integrate_positions(w, h);
        update_geometry(w, false);
        solve(w, h, false, soft, soft_static);
    }
    for (int it = 0; it < n; ++it) {
        apply_restitution(w);
    }
    w->timing.solve += now(w) - t0;
    ++w->steps;
    int bad = diverged_body(w);
    if (bad >= 0) {
        snprintf(w->error, sizeof w->error,
                 "body %d's state is no longer finite (a step of %g s, or a mass, beyond what the numbers hold)", bad,
                 w->s.dt);
        return false;
    }
    return collide(w);
}

int sim_world_body_count(const sim_world *w) { return w->count; }
int sim_world_step_count(const sim_world *w) { return w->steps; }

sim_body_state sim_world_body_state(const sim_world *w, int index) {
    const body *b = &w->bodies[index];
    sim_body_state s;
    s.position = sv_sub(b->x, sq_rotate(b->q, b->com_local));
    s.rotation = b->q;
    s.velocity = b->v;
    s.angular_velocity = b->w;
    return s;
}

gjk_transform sim_world_body_transform(const sim_world *w, int index) { return shape_transform(&w->bodies[index]); }

sim_mass sim_world_body_mass(const sim_world *w, int index) { return w->bodies[index].mass; }

int sim_world_contact_count(const sim_world *w) {
    int n = 0;
    for (int k = 0; k < w->contact_count; ++k) {
        for (int j = 0; j < w->contacts[k].count; ++j) {
            n += w->contacts[k].p[j].separation <= w->s.linear_slop;
        }
    }
    return n;
}

double sim_world_max_penetration(const sim_world *w) {
    double d = 0;
    for (int k = 0; k < w->contact_count; ++k) {
        for (int j = 0; j < w->contacts[k].count; ++j) {
            double pen = -w->contacts[k].p[j].separation;
            d = pen > d ? pen : d;
        }
    }
    return d;
}

int sim_world_contacts(const sim_world *w, sim_contact_info *out, int max) {
    int n = 0;
    for (int k = 0; k < w->contact_count; ++k) {
        const contact *c = &w->contacts[k];
        for (int j = 0; j < c->count; ++j) {
            if (c->p[j].separation > w->s.linear_slop) {
                continue;
            }
            if (n < max) {
                out[n].a = c->a;
                out[n].b = c->b;
                out[n].point = c->p[j].point;
                out[n].normal = c->n;
                out[n].separation = c->p[j].separation;
                out[n].normal_impulse = c->p[j].lambda_n * (w->s.iterations > 0 ? w->s.iterations : 1);
            }
            ++n;
        }
    }
    return n;
}

sim_timing sim_world_timing(const sim_world *w) { return w->timing; }
void sim_world_set_timing(sim_world *w, bool on) { w->timing_on = on; }
