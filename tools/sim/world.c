#define _POSIX_C_SOURCE 199309L
// The world: bodies, contacts and the step (see sim.h and docs/simulation.md).
//
// One step of length dt, split into n = `iterations` substeps of h = dt/n:
//   1. Once a step: each contact point's anchor (where its impulses act)
//      and its closing speed for restitution.
//   2. Per substep: v += g·h; lever arms from the anchors moved with the
//      bodies' translation, and the effective masses with them (again
//      after the motion, and before restitution); warm start with the accumulated impulses; one
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

#include "world_internal.h"

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
    sim_update_inertia(&b);
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
    if (!w->collided && !sim_collide(w)) {
        return false;
    }
    double t0 = sim_now(w);
    sim_solve_step(w);
    w->timing.solve += sim_now(w) - t0;
    ++w->steps;
    int bad = diverged_body(w);
    if (bad >= 0) {
        snprintf(w->error, sizeof w->error,
                 "body %d's state is no longer finite (a step of %g s, or a mass, beyond what the numbers hold)", bad,
                 w->s.dt);
        return false;
    }
    return sim_collide(w);
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

gjk_transform sim_world_body_transform(const sim_world *w, int index) { return sim_shape_transform(&w->bodies[index]); }

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
