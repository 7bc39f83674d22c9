// The 2D GJK walk: a simplex inside the Minkowski difference D = A − B of
// the two cores moves toward the origin. The twin of gjk.c, with the same
// bounds and stopping rules: with v the point of the simplex closest to the
// origin and w = s_D(−v) the support point against it,
//   upper bound on the distance: |v|;
//   lower bound:                 v·w / |v|;
// the walk stops when the two bounds are within the absolute tolerance, when
// w adds nothing new, when |v| stops decreasing (rounding), when the origin
// lies in the simplex (a triangle encloses it), or when a caller's
// early-exit bound is proved. One difference from gjk.c: when it stops on
// the bounds or on rounding, the last support point is still added if it
// turns the simplex into an edge of D with the closest point inside, since
// the answer's normal is then the edge's exact perpendicular rather than
// the direction of a vertex that is only within tolerance of the edge (in
// float that was a normal off by 3e-4 rad next to a long edge).
//
// Secant steps: as in gjk.c, for pairs with an ellipse or a custom core on
// either side, with the same rules. In the plane the directions form a
// circle and the model is one-dimensional: the last two support calls'
// unit directions u0, u1 and points w0, w1 give
//     s_D(u0 + a e1) ≈ w0 + a m1,  e1 = u1 − u0, m1 = w1 − w0,
// and the step asks along the direction whose modelled point lies along
// it, w0 + a m1 = −λ (u0 + a e1): two equations in a and λ, linear once λ
// is fixed in the e term (at |v|, then at the λ solved).
#include "internal2.h"
#include "secant.h"

static void trace_iteration(const gjk2_pair *pair, const gjk2_walk *walk, gjk_vec2 d, gjk_vec2 w) {
    gjk_trace_event ev = {0};
    ev.phase = GJK_TRACE_GJK;
    ev.iteration = walk->iterations;
    ev.simplex_count = walk->simplex.count;
    for (int m = 0; m < walk->simplex.count; ++m) {
        ev.simplex[m] = gjk2_trace_point(pair, walk->simplex.v[m].w);
    }
    ev.closest = gjk2_trace_point(pair, walk->v);
    ev.direction = gjk2_trace_point(pair, gjk_neg2(d));
    ev.support = gjk2_trace_point(pair, w);
    ev.lower = walk->lower;
    ev.upper = gjk_length2(walk->v);
    pair->trace(pair->trace_data, &ev);
}

/// True when `lower`, the starting points' bound, proves the cores farther
/// apart than walk->stop_beyond, beyond the tolerance at the scale seen so
/// far (the bound's rounding grows with the points' coordinates: f41 in 3D,
/// gjk.c). With stop_widen the margin is the tolerance at the shapes' whole
/// extent, not at the scale of the few points seen so far: pairs that touch
/// within the tolerance the full walk would reach must not be called apart
/// here (the queries must agree on the status).
static bool start_apart(const gjk2_pair *pair, const gjk2_walk *walk, gjk_real lower) {
    if (!(lower > walk->stop_beyond)) {
        return false; // the cheap test first: widening only raises the bar
    }
    if (!walk->stop_widen) {
        return walk->stop_beyond > 0 && lower > walk->stop_beyond + gjk2_pair_apart_margin(pair, 0);
    }
    gjk_real extent = gjk2_shape_bound(pair->a) + gjk2_shape_bound(pair->b);
    gjk_real beyond = walk->stop_beyond + gjk2_pair_apart_margin(pair, extent);
    return beyond > 0 && lower > beyond;
}

/// True when the shape's core is curved as far as its type tells: an
/// ellipse, or a user shape (taken as curved). These walks take secant
/// steps.
static bool core_curved(const gjk2_shape *shape) {
    return shape->type == GJK2_SHAPE_ELLIPSE || shape->type == GJK2_SHAPE_CUSTOM;
}

/// The secant step's history: the unit directions u of the last two
/// support calls and their points w = s_D(u) (oldest first).
typedef struct secant_ring2 {
    gjk_vec2 u[2], w[2];
    int count;
} secant_ring2;

static GJK_INLINE void secant_push2(secant_ring2 *h, gjk_vec2 u, gjk_vec2 w) {
    if (h->count == 2) {
        h->u[0] = h->u[1], h->w[0] = h->w[1];
        h->count = 1;
    }
    h->u[h->count] = u, h->w[h->count] = w;
    ++h->count;
}

/// The secant direction (see the top of the file): a (m1 + λe1) + λ u0 =
/// −w0 solved for (a, λ) by Cramer's rule, twice, the points divided by
/// lam (|v|) first. False when the system is singular or λ comes out
/// non-positive.
static bool secant_direction2(const secant_ring2 *h, gjk_real lam, gjk_vec2 *u) {
    // The same point for two directions: the support map is flat there.
    if ((h->w[0].x == h->w[1].x) & (h->w[0].y == h->w[1].y)) {
        return false;
    }
    gjk_real inv = 1 / lam;
    gjk_vec2 u0 = h->u[0], e1 = gjk_sub2(h->u[1], u0);
    gjk_vec2 r = gjk_scale2(-inv, h->w[0]), m1 = gjk_scale2(inv, gjk_sub2(h->w[1], h->w[0]));
    gjk_real l = 1, a = 0;
    for (int rep = 0; rep < 2; ++rep) {
        gjk_vec2 c1 = gjk_mul_add2(m1, l, e1);
        gjk_real det = gjk_cross2(c1, u0);
        if (!(gjk_abs(det) > 64 * GJK_REAL_EPSILON * gjk_length2(c1))) {
            return false;
        }
        gjk_real id = 1 / det;
        a = gjk_cross2(r, u0) * id;
        l = gjk_cross2(c1, r) * id;
        if (!(l > 0)) {
            return false;
        }
    }
    gjk_vec2 n = gjk_mul_add2(u0, a, e1);
    if (!gjk_is_valid_vec2(n) || !(gjk_length_sq2(n) > 0)) {
        return false;
    }
    *u = n;
    return true;
}

/// A walk that ends at a single vertex w of D (end-to-end contacts) answers
/// with the normal −ŵ, whose direction carries w's rounding, about ε·L
/// absolute, turned by ε·L/|w|: where that can exceed the tolerance over a
/// lever of L (|w|·tol below 16 ε L², as walk_end.c's gjk_walk_no_progress measures),
/// one support call checks the gap along −ŵ; where it falls short of |v| by
/// more than the tolerance, and the last step's own bound, along its
/// direction d, came within it (so that the gap along d̂ is the distance
/// within it), d̂ is the normal instead. In float a capsule's end against a
/// needle's, 1.5e-6 rad from parallel and 4.6e-6 apart (size 1.8), got a
/// normal 0.026 rad off, along which the shapes overlapped by 0.048 (2D
/// needle review): a vertex's normal cone there is as narrow as the angle
/// between the edges. (Where −ŵ holds it stays: the witness points' offset
/// is along it, and d̂ may lean from it by up to √(2 tol/|w|).)
/// vertex_normal's test, inline: |v|·tol below 16 ε L² (v·v = vv), by
/// squares of lengths relative to L (absolute ones underflowed for shapes
/// of 3e-9 in float, and the test turned off; review).
static GJK_INLINE bool vertex_rounding(const gjk2_pair *pair, gjk_real vv, gjk_real tol) {
    gjk_real L = pair->scale, q = vv / L / L, r = tol / L;
    return L > 0 && q * r * r < 256 * GJK_REAL_EPSILON * GJK_REAL_EPSILON;
}

static GJK_NOINLINE void vertex_normal(gjk2_pair *pair, gjk2_walk *walk, gjk_vec2 d, gjk_real tol) {
    gjk_real vv = gjk_length_sq2(walk->v), vlen = gjk_sqrt(vv);
    if (!(vv > GJK_SQUARE_MIN)) {
        return;
    }
    gjk2_support_point q = gjk2_pair_support(pair, gjk_neg2(walk->v));
    bool refused = pair->bad_support;
    pair->bad_support = false; // a refused point: the answer stands without this check
    if (!refused && vlen - gjk_dot2(walk->v, q.w) / vlen > tol) {
        walk->normal = gjk_normalize2(gjk_neg2(d));
    }
}

/// The closest point of the simplex with p added, into *r: s itself is
/// left as it was (p only fills the slot past its vertices), for the walk
/// to keep the answer (gjk2_simplex_keep) or not.
static GJK_INLINE void solve_with(gjk2_simplex *s, gjk2_support_point p, gjk2_simplex_answer *r) {
    s->v[s->count++] = p;
    gjk2_simplex_closest(s, r);
    --s->count;
}

#if defined(__GNUC__) || defined(__clang__)
#define WALK_INLINE static inline __attribute__((always_inline))
#else
#define WALK_INLINE static inline
#endif

/// The walk from the simplex's closest point v; returns how it ended.
/// Written once and compiled plain (secant_steps false) and with secant
/// steps, as in gjk.c.
WALK_INLINE gjk_walk_end walk_loop(gjk2_pair *pair, gjk2_walk *walk, gjk_vec2 v, const bool secant_steps) {
    gjk2_simplex *s = &walk->simplex;
    gjk_real vv = gjk_length_sq2(v);
    // Secant state (see gjk.c): the last two support calls and the rules'
    // bookkeeping, shared with the 3D walk.
    secant_ring2 ring;
    ring.count = 0;
    gjk_secant_rules rules =
        gjk_secant_rules_start(pair->a->type != GJK2_SHAPE_CUSTOM && pair->b->type != GJK2_SHAPE_CUSTOM);
    if (secant_steps) {
        for (int m = 0; m < s->count; ++m) {
            secant_push2(&ring, gjk_normalize2(s->v[m].d), s->v[m].w);
        }
    }
    for (;;) {
        walk->v = v;
        if (!(vv <= GJK_REAL_MAX)) {
            // |v|² overflowed (finite coordinates above √GJK_REAL_MAX): the
            // walk's lengths and bounds would be infinite, its search
            // direction too. Reported as an overflow, as a non-finite
            // support point is (the queries answer GJK_INVALID_INPUT).
            pair->bad_support = true;
            return GJK_WALK_BAD_SUPPORT;
        }
        gjk_real tol = gjk2_pair_tolerance(pair);
        gjk_real vlen = gjk_sqrt(vv);
        if (s->count == 3 || vlen <= tol) {
            return GJK_WALK_OVERLAP;
        }
        gjk_real within = walk->stop_widen ? walk->stop_within - tol : walk->stop_within;
        if (within > 0 && vlen < within) {
            return GJK_WALK_WITHIN;
        }
        if (walk->iterations >= walk->max_iterations) {
            return GJK_WALK_MAX_ITER;
        }
        ++walk->iterations;

        // A secant step while they pay, else the plain one.
        gjk_vec2 u;
        bool secant = false;
        if (secant_steps) {
            secant = gjk_secant_may(&rules, vlen, walk->lower, pair->scale, ring.count == 2) &&
                     secant_direction2(&ring, vlen, &u);
            rules.plain_before = !secant;
        }
        gjk_vec2 d = secant ? gjk_neg2(u) : gjk2_simplex_direction(s, v);
        gjk2_support_point p = gjk2_pair_support(pair, gjk_neg2(d));
        if (pair->bad_support) {
            return GJK_WALK_BAD_SUPPORT;
        }
        gjk_real lower = gjk_dot2(d, p.w) / gjk_length2(d);
        if (lower > walk->lower) {
            walk->lower = lower;
        }
        if (secant_steps) {
            secant_push2(&ring, gjk_normalize2(gjk_neg2(d)), p.w);
        }
        if (pair->trace != NULL) {
            trace_iteration(pair, walk, d, p.w);
        }
        // Apart beyond stop_beyond by more than the tolerance at the scale
        // that includes the new point (see start_apart).
        gjk_real beyond = walk->stop_beyond + gjk2_pair_apart_margin(pair, 0);
        if ((walk->stop_widen || walk->stop_beyond > 0) && lower > beyond) {
            // This step's bound, with its own direction as the normal (as at
            // the start): the gap along the normal is the bound. (Along the
            // simplex's v̂ it need not be, after secant steps: an ellipse's
            // normal gave a gap millions of tolerances below the bound.) An
            // older bound cannot stop the walk here: it was tested against
            // a margin no larger (the scale only grows).
            walk->lower = lower;
            walk->normal = gjk_normalize2(p.d);
            return GJK_WALK_APART;
        }
        // Duality gap |v| − v̂·w, measured against the tolerance at the
        // scale that includes the new point.
        tol = gjk2_pair_tolerance(pair);
        gjk_vec2 v_new;
        gjk_real vv_new;
        if (secant) {
            ++walk->accelerated;
            // Already in the simplex or no progress: a miss, and the next
            // step plain from the same simplex. (A triangle encloses the
            // origin: the walk ends at the loop's top.)
            if (gjk2_simplex_has(s, p.w)) {
                gjk_secant_missed(&rules);
                continue;
            }
            gjk2_simplex_answer r;
            solve_with(s, p, &r);
            v_new = r.point;
            vv_new = gjk_length_sq2(v_new);
            if (r.count < 3 && vv_new >= vv) {
                gjk_secant_missed(&rules); // the simplex as it was
                continue;
            }
            gjk2_simplex_keep(s, &r);
            // Within the tolerance by its own bound: a plain step certifies
            // v̂ and ends the walk. A step that does not halve the least
            // duality gap seen is a miss, kept (the simplex is nearer) and
            // followed by a plain step. (A triangle that encloses the
            // origin ends the walk at the loop's top.)
            gjk_secant_kept(&rules, gjk_sqrt(vv_new), walk->lower, vlen - lower <= tol);
        } else {
            bool done = vlen - lower <= tol;
            if (gjk2_simplex_has(s, p.w)) {
                if (done && s->count == 1 && vertex_rounding(pair, vv, tol)) {
                    vertex_normal(pair, walk, d, tol);
                }
                return GJK_WALK_CONVERGED;
            }

            gjk2_simplex_answer r;
            solve_with(s, p, &r);
            v_new = r.point;
            vv_new = gjk_length_sq2(v_new);
            if (r.count < 3 && vv_new >= vv) {
                // No progress: rounding has taken over. An edge with the closest
                // point inside is as close as the old simplex (it contains or
                // extends it) and gives the exact direction, its perpendicular:
                // keep it. Otherwise keep the old simplex.
                // (Not an edge farther than the old simplex by more than
                // the tolerance: rounding picked it, as a sliver triangle's
                // short edge once did, fuzz seed 949.)
                if (r.count == 2 && gjk_sqrt(vv_new) - vlen <= tol) {
                    gjk2_simplex_keep(s, &r);
                    walk->v = v_new;
                }
                return GJK_WALK_CONVERGED;
            }
            if (done) {
                // The distance is known within the tolerance, but the last point
                // still sharpens the simplex: a vertex that stopped within the
                // tolerance of an edge of D gives the edge's direction only to
                // about √(2·tol/|v|), the edge itself exactly. Keep it unless
                // the simplex would enclose the origin (only by rounding).
                if (r.count < 3) {
                    gjk2_simplex_keep(s, &r);
                    walk->v = v_new;
                    if (r.count == 1 && vertex_rounding(pair, vv_new, tol)) {
                        vertex_normal(pair, walk, d, tol);
                    }
                }
                return GJK_WALK_CONVERGED;
            }
            gjk2_simplex_keep(s, &r);
        }
        v = v_new;
        vv = vv_new;
    }
}

gjk_walk_end gjk2_walk_run(gjk2_pair *pair, gjk2_walk *walk) {
    return gjk2_walk_run_momentum(pair, walk, GJK_MOMENTUM_AUTO);
}

gjk_walk_end gjk2_walk_run_momentum(gjk2_pair *pair, gjk2_walk *walk, gjk_walk_momentum momentum) {
    gjk2_simplex *s = &walk->simplex;
    walk->iterations = 0;
    walk->accelerated = 0;
    walk->lower = 0;
    walk->normal = gjk_v2(0, 0);

    if (s->count == 0) {
        // Start from a point of D: the support against the direction from
        // A's origin to B's origin, a cheap guess at the separating axis.
        s->v[0] = gjk2_pair_support(pair, gjk2_pair_start_direction(pair));
        s->count = 1;
    }
    // The starting points' support planes bound the distance from below,
    // as in 3D (gjk.c): far apart shapes are proved apart at once.
    gjk_real start_lower = 0;
    gjk_vec2 start_dir = gjk_v2(0, 0); // the direction that gave start_lower (the solve below
                                       // may drop or reorder the points, as in 3D)
    for (int m = 0; m < s->count; ++m) {
        gjk_real dd = gjk_length_sq2(s->v[m].d);
        if (dd > GJK_SQUARE_MIN && dd < GJK_SQUARE_MAX) {
            gjk_real lower = -gjk_dot2(s->v[m].d, s->v[m].w) / gjk_sqrt(dd);
            start_dir = lower > start_lower ? s->v[m].d : start_dir;
            start_lower = gjk_max(lower, start_lower);
        }
    }
    gjk_vec2 v = gjk2_simplex_solve(s);
    if (pair->bad_support) {
        return GJK_WALK_BAD_SUPPORT;
    }
    // The walk itself starts its bound from 0: a secant step on shapes
    // with flat parts waits for a bound of its own steps.
    if (start_apart(pair, walk, start_lower)) {
        walk->v = v;
        walk->lower = start_lower;
        walk->normal = gjk_normalize2(start_dir); // the bound's own (see gjk.c, f56)
        return GJK_WALK_APART;
    }
    bool curved = core_curved(pair->a) || core_curved(pair->b);
    if (momentum == GJK_MOMENTUM_ON || (momentum == GJK_MOMENTUM_AUTO && curved)) {
        return walk_loop(pair, walk, v, true);
    }
    return walk_loop(pair, walk, v, false);
}
