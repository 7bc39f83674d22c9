#define _POSIX_C_SOURCE 199309L
// The world: bodies, contacts and the step (see sim.h).
//
// One step, of length h:
//   1. Contact constraints are prepared from the manifolds found at the end
//      of the previous step (the current poses), warm-started with the
//      impulses their points carried then (matched by feature id); closing
//      speeds for restitution are measured here.
//   2. v += g·h for every dynamic body.
//   3. Sequential impulses (Catto 2005), `iterations` sweeps over the
//      contacts: for each point two friction impulses bounded jointly by
//      μ·(normal impulse) (a circular Coulomb cone), then the normal impulse,
//      accumulated and clamped ≥ 0. The normal target speed is 0 for touching
//      points; −e·(closing speed) for points that close faster than the
//      restitution threshold; and −separation/h for points still apart
//      (speculative contacts: the gap may close this step, never more).
//   4. Split impulses: the same sweeps on separate "pseudo" velocities push
//      penetrating points apart at position_correction·(depth − slop)/h.
//      They move the bodies this step only and never enter the velocities,
//      so position correction adds no energy and leaves momentum alone.
//   5. Positions advance by h·(v + pseudo v); rotations by the exact
//      rotation of angle |ω|·h about ω, then renormalised. The angular
//      momentum L = I·ω is what is kept across the rotation (ω is recomputed
//      from L and the rotated inertia), so a free body keeps its L exactly.
//   6. New bounds, broad phase, and a manifold for every candidate pair
//      (gjk_contact with a speculative distance that covers how far the two
//      bodies can approach during the next step).
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
    sim_vec3 com_local;
    sim_vec3 x; // centre of mass, world
    sim_quat q;
    sim_vec3 v, w;
    sim_vec3 vp, wp; // pseudo velocities of the split impulses
    double friction, restitution;
    double radius; // bound on |p − centre of mass| over the shape
    double reach;  // how far the body may move during the next step
    sim_mass mass;
} body;

typedef struct cpoint {
    sim_vec3 point, ra, rb;
    sim_vec3 ra_n, rb_n;   // r × n
    double separation;
    double mass_n, mass_t1, mass_t2;
    double lambda_n, lambda_t1, lambda_t2, lambda_p;
    double target_n, target_p;
    uint32_t id;
} cpoint;

typedef struct contact {
    int a, b;
    sim_vec3 n, t1, t2;
    int count;
    cpoint p[GJK_MAX_CONTACT_POINTS];
    double friction, restitution;
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
};

sim_settings sim_settings_default(void) {
    sim_settings s;
    s.gravity = sv3(0, 0, -9.81);
    s.dt = 1.0 / 60.0;
    s.iterations = 10;
    s.linear_slop = 0.0005;
    s.position_correction = 0.2;
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
    if (b->is_static) {
        b->inv_inertia_world = sm_zero();
        return;
    }
    sim_mat3 r = sm_from_quat(b->q);
    b->inv_inertia_world = sm_rotate_tensor(&r, &b->inv_inertia_local);
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

/// Bounds, broad phase and manifolds for the current poses.
static bool collide(sim_world *w) {
    double t0 = now(w);
    if (!reserve_aux(w)) {
        return false;
    }
    double h = w->s.dt;
    double g = sv_length(w->s.gravity);
    // A small pad (relative to the body) so that resting contacts stay in
    // the broad phase and their manifolds keep their points.
    for (int i = 0; i < w->count; ++i) {
        body *b = &w->bodies[i];
        double pad = 4 * w->s.linear_slop;
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
        gjk_contact_input in;
        memset(&in, 0, sizeof in);
        in.shape_a = &A->shape;
        in.transform_a = shape_transform(A);
        in.shape_b = &B->shape;
        in.transform_b = shape_transform(B);
        in.speculative_distance = (gjk_real)(A->reach + B->reach);
        gjk_manifold m = gjk_contact(&in, &c->cache);
        ++w->timing.manifolds;
        if (m.status >= GJK_INVALID_INPUT || m.point_count <= 0) {
            continue;
        }
        c->a = ia;
        c->b = ib;
        c->n = sv_normalize(sv_from_gjk(m.normal));
        tangents(c->n, &c->t1, &c->t2);
        c->friction = sqrt(A->friction * B->friction);
        c->restitution = A->restitution > B->restitution ? A->restitution : B->restitution;
        c->count = m.point_count > GJK_MAX_CONTACT_POINTS ? GJK_MAX_CONTACT_POINTS : m.point_count;
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            p->point = sv_scale(0.5, sv_add(sv_from_gjk(m.points[j].point_a), sv_from_gjk(m.points[j].point_b)));
            p->separation = (double)m.points[j].separation;
            p->id = m.points[j].id;
            if (prev == NULL) {
                continue;
            }
            // Warm start from the point with the same feature id (or the
            // only point of a one-point manifold that stays one point).
            for (int q = 0; q < prev->count; ++q) {
                if (prev->p[q].id == p->id || (prev->count == 1 && c->count == 1)) {
                    const cpoint *o = &prev->p[q];
                    p->lambda_n = o->lambda_n;
                    // The friction impulse as a vector, re-projected onto the new tangents.
                    sim_vec3 f = sv_add(sv_scale(o->lambda_t1, prev->t1), sv_scale(o->lambda_t2, prev->t2));
                    p->lambda_t1 = sv_dot(f, c->t1);
                    p->lambda_t2 = sv_dot(f, c->t2);
                    break;
                }
            }
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
static inline sim_vec3 point_pseudo_velocity(const body *b, sim_vec3 r) { return sv_add(b->vp, sv_cross(b->wp, r)); }

static inline double effective_mass(const body *A, const body *B, sim_vec3 ra, sim_vec3 rb, sim_vec3 d) {
    sim_vec3 rad = sv_cross(ra, d), rbd = sv_cross(rb, d);
    double k = A->inv_mass + B->inv_mass + sv_dot(rad, sm_mul_vec(&A->inv_inertia_world, rad)) +
               sv_dot(rbd, sm_mul_vec(&B->inv_inertia_world, rbd));
    return k > 0 ? 1 / k : 0;
}

static inline void apply(body *A, body *B, sim_vec3 ra, sim_vec3 rb, sim_vec3 P) {
    A->v = sv_mul_add(A->v, -A->inv_mass, P);
    A->w = sv_sub(A->w, sm_mul_vec(&A->inv_inertia_world, sv_cross(ra, P)));
    B->v = sv_mul_add(B->v, B->inv_mass, P);
    B->w = sv_add(B->w, sm_mul_vec(&B->inv_inertia_world, sv_cross(rb, P)));
}

static inline void apply_pseudo(body *A, body *B, sim_vec3 ra, sim_vec3 rb, sim_vec3 P) {
    A->vp = sv_mul_add(A->vp, -A->inv_mass, P);
    A->wp = sv_sub(A->wp, sm_mul_vec(&A->inv_inertia_world, sv_cross(ra, P)));
    B->vp = sv_mul_add(B->vp, B->inv_mass, P);
    B->wp = sv_add(B->wp, sm_mul_vec(&B->inv_inertia_world, sv_cross(rb, P)));
}

static void prepare(sim_world *w) {
    double h = w->s.dt;
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            p->ra = sv_sub(p->point, A->x);
            p->rb = sv_sub(p->point, B->x);
            p->mass_n = effective_mass(A, B, p->ra, p->rb, c->n);
            p->mass_t1 = effective_mass(A, B, p->ra, p->rb, c->t1);
            p->mass_t2 = effective_mass(A, B, p->ra, p->rb, c->t2);
            double vn = sv_dot(sv_sub(point_velocity(B, p->rb), point_velocity(A, p->ra)), c->n);
            double s = p->separation;
            bool bounce = c->restitution > 0 && vn < -w->s.restitution_threshold;
            if (s > 0) {
                // Speculative: the gap may close during the step, no more;
                // a point that will hit within the step bounces now.
                p->target_n = -s / h;
                if (bounce && vn * h < -s) {
                    p->target_n = -c->restitution * vn;
                }
            } else {
                p->target_n = bounce ? -c->restitution * vn : 0;
            }
            double depth = -s - w->s.linear_slop;
            p->target_p = depth > 0 ? w->s.position_correction * depth / h : 0;
            p->lambda_p = 0;
        }
    }
}

static void warm_start(sim_world *w) {
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            sim_vec3 P = sv_add(sv_scale(p->lambda_n, c->n),
                                sv_add(sv_scale(p->lambda_t1, c->t1), sv_scale(p->lambda_t2, c->t2)));
            apply(A, B, p->ra, p->rb, P);
        }
    }
}

static void solve_velocities(sim_world *w) {
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            // Friction: both tangents, then the pair clamped to the disc of
            // radius μ·λn (Coulomb's cone).
            sim_vec3 dv = sv_sub(point_velocity(B, p->rb), point_velocity(A, p->ra));
            double l1 = p->lambda_t1 - p->mass_t1 * sv_dot(dv, c->t1);
            double l2 = p->lambda_t2 - p->mass_t2 * sv_dot(dv, c->t2);
            double limit = c->friction * p->lambda_n;
            double l = sqrt(l1 * l1 + l2 * l2);
            if (l > limit) {
                double s = l > 0 ? limit / l : 0;
                l1 *= s;
                l2 *= s;
            }
            sim_vec3 P = sv_add(sv_scale(l1 - p->lambda_t1, c->t1), sv_scale(l2 - p->lambda_t2, c->t2));
            p->lambda_t1 = l1;
            p->lambda_t2 = l2;
            apply(A, B, p->ra, p->rb, P);
        }
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            sim_vec3 dv = sv_sub(point_velocity(B, p->rb), point_velocity(A, p->ra));
            double vn = sv_dot(dv, c->n);
            double ln = p->lambda_n + p->mass_n * (p->target_n - vn);
            ln = ln > 0 ? ln : 0;
            apply(A, B, p->ra, p->rb, sv_scale(ln - p->lambda_n, c->n));
            p->lambda_n = ln;
        }
    }
}

static void solve_positions(sim_world *w) {
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        for (int j = 0; j < c->count; ++j) {
            cpoint *p = &c->p[j];
            if (p->target_p <= 0 && p->lambda_p <= 0) {
                continue;
            }
            sim_vec3 dv = sv_sub(point_pseudo_velocity(B, p->rb), point_pseudo_velocity(A, p->ra));
            double vn = sv_dot(dv, c->n);
            double lp = p->lambda_p + p->mass_n * (p->target_p - vn);
            lp = lp > 0 ? lp : 0;
            apply_pseudo(A, B, p->ra, p->rb, sv_scale(lp - p->lambda_p, c->n));
            p->lambda_p = lp;
        }
    }
}

/// The rotation by angle |ω|·h about ω, applied to q: exp(ω h / 2) ⊗ q.
static sim_quat rotate_by(sim_quat q, sim_vec3 omega, double h) {
    double a = sv_length(omega) * h;
    if (!(a > 0)) {
        return q;
    }
    double half = 0.5 * a;
    double s = sin(half) / sv_length(omega);
    sim_quat r = sq_make(cos(half), s * omega.x, s * omega.y, s * omega.z);
    return sq_normalize(sq_mul(r, q));
}

static void integrate_positions(sim_world *w) {
    double h = w->s.dt;
    for (int i = 0; i < w->count; ++i) {
        body *b = &w->bodies[i];
        if (b->is_static) {
            continue;
        }
        // Angular momentum about the centre of mass, with the inertia the
        // solver used; ω is recomputed from it after the rotation.
        sim_mat3 r = sm_from_quat(b->q);
        sim_mat3 inertia_world = sm_rotate_tensor(&r, &b->inertia_local);
        sim_vec3 L = sm_mul_vec(&inertia_world, b->w);
        b->x = sv_mul_add(b->x, h, sv_add(b->v, b->vp));
        b->q = rotate_by(b->q, sv_add(b->w, b->wp), h);
        update_inertia(b);
        b->w = sm_mul_vec(&b->inv_inertia_world, L);
        b->vp = sv3(0, 0, 0);
        b->wp = sv3(0, 0, 0);
    }
}

bool sim_world_step(sim_world *w) {
    if (!w->collided && !collide(w)) {
        return false;
    }
    double t0 = now(w);
    double h = w->s.dt;
    // Closing speeds for restitution are taken before gravity acts in this
    // step, so that a bounce returns the speed the body arrived with.
    prepare(w);
    for (int i = 0; i < w->count; ++i) {
        body *b = &w->bodies[i];
        if (!b->is_static) {
            b->v = sv_mul_add(b->v, h, w->s.gravity);
        }
    }
    warm_start(w);
    for (int it = 0; it < w->s.iterations; ++it) {
        solve_velocities(w);
    }
    for (int it = 0; it < w->s.iterations; ++it) {
        solve_positions(w);
    }
    integrate_positions(w);
    w->timing.solve += now(w) - t0;
    ++w->steps;
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
                out[n].normal_impulse = c->p[j].lambda_n;
            }
            ++n;
        }
    }
    return n;
}

sim_timing sim_world_timing(const sim_world *w) { return w->timing; }
void sim_world_set_timing(sim_world *w, bool on) { w->timing_on = on; }
