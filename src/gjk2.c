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
#include "internal2.h"

static bool simplex_has(const gjk2_simplex *s, gjk_vec2 w) {
    for (int m = 0; m < s->count; ++m) {
        if (s->v[m].w.x == w.x && s->v[m].w.y == w.y) {
            return true;
        }
    }
    return false;
}

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

/// True when the starting points prove the cores farther apart than
/// walk->stop_beyond. With stop_widen the margin is the tolerance at the
/// shapes' whole extent, not at the scale of the few points seen so far:
/// pairs that touch within the tolerance the full walk would reach must
/// not be called apart here (the queries must agree on the status).
static bool start_apart(const gjk2_pair *pair, const gjk2_walk *walk) {
    if (!(walk->lower > walk->stop_beyond)) {
        return false; // the cheap test first: widening only raises the bar
    }
    if (!walk->stop_widen) {
        return walk->stop_beyond > 0;
    }
    gjk_real extent = gjk2_shape_bound(pair->a) + gjk2_shape_bound(pair->b);
    gjk_real beyond = walk->stop_beyond + pair->rel_tol * (pair->scale + extent + pair->radius);
    return beyond > 0 && walk->lower > beyond;
}

gjk_walk_end gjk2_walk_run(gjk2_pair *pair, gjk2_walk *walk) {
    gjk2_simplex *s = &walk->simplex;
    walk->iterations = 0;
    walk->lower = 0;

    if (s->count == 0) {
        // Start from a point of D: the support against the direction from
        // A's origin to B's origin, a cheap guess at the separating axis.
        gjk_vec2 d = pair->pos_b;
        if (!(gjk_length_sq2(d) > 0)) {
            d = gjk_v2(1, 0);
        }
        s->v[0] = gjk2_pair_support(pair, d);
        s->count = 1;
    }
    // The starting points' support planes bound the distance from below,
    // as in 3D (gjk.c): far apart shapes are proved apart at once.
    for (int m = 0; m < s->count; ++m) {
        gjk_real dd = gjk_length_sq2(s->v[m].d);
        if (dd > GJK_SQUARE_MIN && dd < GJK_SQUARE_MAX) {
            walk->lower = gjk_max(-gjk_dot2(s->v[m].d, s->v[m].w) / gjk_sqrt(dd), walk->lower);
        }
    }
    gjk_vec2 v = gjk2_simplex_solve(s);
    if (pair->bad_support) {
        return GJK_WALK_BAD_SUPPORT;
    }
    if (start_apart(pair, walk)) {
        walk->v = v;
        return GJK_WALK_APART;
    }

    gjk_real vv = gjk_length_sq2(v);
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

        gjk_vec2 d = gjk2_simplex_direction(s, v);
        gjk2_support_point p = gjk2_pair_support(pair, gjk_neg2(d));
        if (pair->bad_support) {
            return GJK_WALK_BAD_SUPPORT;
        }
        gjk_real lower = gjk_dot2(d, p.w) / gjk_length2(d);
        if (lower > walk->lower) {
            walk->lower = lower;
        }
        if (pair->trace != NULL) {
            trace_iteration(pair, walk, d, p.w);
        }
        gjk_real beyond = walk->stop_widen ? walk->stop_beyond + gjk2_pair_tolerance(pair) : walk->stop_beyond;
        if (beyond > 0 && walk->lower > beyond) {
            return GJK_WALK_APART;
        }
        // Duality gap |v| − v̂·w, measured against the tolerance at the
        // scale that includes the new point.
        tol = gjk2_pair_tolerance(pair);
        if (simplex_has(s, p.w)) {
            return GJK_WALK_CONVERGED;
        }
        bool done = vlen - lower <= tol;

        // The new point goes in as the last vertex and the simplex is solved
        // without being changed: dropping the answer (count back to `old`)
        // then restores the simplex as it was, with no copy of it.
        int old = s->count;
        s->v[s->count++] = p;
        gjk2_simplex_answer r;
        gjk2_simplex_closest(s, &r);
        gjk_real vv_new = gjk_length_sq2(r.point);
        if (r.count < 3 && vv_new >= vv) {
            // No progress: rounding has taken over. An edge with the closest
            // point inside is as close as the old simplex (it contains or
            // extends it) and gives the exact direction, its perpendicular:
            // keep it. Otherwise keep the old simplex.
            if (r.count == 2) {
                gjk2_simplex_keep(s, &r);
                walk->v = r.point;
            } else {
                s->count = old;
            }
            return GJK_WALK_CONVERGED;
        }
        if (done) {
            // The distance is known within the tolerance, but the last point
            // still sharpens the simplex: a vertex that stopped within the
            // tolerance of an edge of D gives the edge's direction only to
            // about √(2·tol/|v|), the edge itself exactly. Keep it unless
            // the simplex would enclose the origin (only by rounding).
            if (r.count == 3) {
                s->count = old;
            } else {
                gjk2_simplex_keep(s, &r);
                walk->v = r.point;
            }
            return GJK_WALK_CONVERGED;
        }
        gjk2_simplex_keep(s, &r);
        v = r.point;
        vv = vv_new;
    }
}
