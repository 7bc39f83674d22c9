#define _POSIX_C_SOURCE 199309L
// The world's contacts: bounds and broad phase, a manifold (gjk_contact) for
// every candidate pair, and the impulses carried over from the step before
// by feature id (see world.c for the step, docs/simulation.md).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "world_internal.h"

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
    in.transform_a = sim_shape_transform(A);
    in.shape_b = &B->shape;
    in.transform_b = sim_shape_transform(B);
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
bool sim_collide(sim_world *w) {
    double t0 = sim_now(w);
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
        double pad = sim_pad(w, b->radius);
        double reach = pad;
        if (!b->is_static) {
            reach += (sv_length(b->v) + g * h) * h + sv_length(b->w) * b->radius * h;
        }
        b->reach = reach;
        gjk_transform t = sim_shape_transform(b);
        sim_aabb box = sim_shape_bounds(&b->shape, sv_from_gjk(t.position), b->q);
        w->boxes[i].lo = sv_sub(box.lo, sv3(reach, reach, reach));
        w->boxes[i].hi = sv_add(box.hi, sv3(reach, reach, reach));
        w->statics[i] = b->is_static;
    }
    if (!sim_broadphase_update(&w->bp, w->boxes, w->statics, w->count)) {
        return false;
    }
    double t1 = sim_now(w);
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
    double t2 = sim_now(w);
    w->timing.broad += t1 - t0;
    w->timing.narrow += t2 - t1;
    return true;
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
void sim_refresh_turning(sim_world *w, double h) {
    for (int k = 0; k < w->contact_count; ++k) {
        contact *c = &w->contacts[k];
        body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        c->swept += (sv_length(A->w) * A->radius + sv_length(B->w) * B->radius) * h;
        double small = sim_contact_size(A, B);
        if (c->restitution > 0 || c->swept <= sim_pad(w, small)) {
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
    }
}
