// The GJK walk: a simplex inside the Minkowski difference D = A − B of the
// two cores moves toward the origin.
//
// Gilbert, Johnson and Keerthi (1988); stopping rules after van den Bergen
// (1999) and Montanari et al. (2017). With v the point of the simplex closest
// to the origin and w = s_D(−d) the support point against a direction d:
//   upper bound on the distance: |v| (v is a point of D);
//   lower bound:                 d·w / |d| (w minimises d̂·x over D, so the
//                                plane through w normal to d separates D
//                                from the origin when d·w > 0), for ANY d;
// the walk stops when |v| and the lower bound of a step along v are within
// the absolute tolerance, when w adds nothing new, when |v| stops decreasing
// (rounding; a fourth point's tetrahedron is always solved back to a face,
// and only four faces in a row no nearer end the walk), when the origin lies
// in the simplex, or when a caller's early-exit bound is proved.
//
// Secant steps. Plain GJK asks for the support point against d = v. On a
// curved surface it converges only linearly: near contact the triangle
// lies on a secant plane of D, the next support point falls in the thin
// cap the plane cuts off, and the triangle shrinks by a roughly constant
// factor per step (about 40 steps between two ellipsoids 1e-3 apart, at
// the default tolerance). Yet every support call also tells how D's
// support point moves with the direction: w = s_D(u) is the gradient of
// D's support function h_D at u. The closest point x* of D is its own
// support point against its direction: s_D(u*) = −λ u* with λ = |x*| and
// u* = −x̂*. The secant step models s_D as affine on the directions u_i of
// the last three support calls (unit, with points w_i):
//     s_D(u0 + a e1 + b e2) ≈ w0 + a m1 + b m2,  e_i = u_i − u0, m_i = w_i − w0,
// and asks for the point against the direction whose modelled point lies
// along it: w0 + a m1 + b m2 = −λ (u0 + a e1 + b e2), three equations in
// a, b and λ, linear once λ is fixed in the e terms (at |v| first, then at
// the λ solved). This is a multipoint secant method on the optimality
// condition, with exact gradients at no extra cost: near the answer the
// directions' error shrinks faster than linearly, and both bounds with
// it (the lower bound's gap is quadratic in the direction's error). No
// Hessian, no shape-specific formula: any support function serves.
//
// Only the direction changes: the simplex still holds support points of D,
// |v| is still an upper bound and −u·w a lower bound, so the answer is
// certified by the same test at the same tolerance whatever the
// directions, and only a plain step ends the walk (its bound along v̂
// certifies the normal v̂ as well as |v|). The rules, each from
// measurements (design.md, "Secant steps"):
// - only for pairs with a curved core on either side as far as the types
//   tell (an ellipsoid, a cylinder, a cone, or a custom shape taken as
//   curved); between polytopes the support point jumps between vertices,
//   the model is meaningless and its steps cost (hulls against hulls,
//   boxes or capsules: 4–35% more iterations);
// - only once a step's bound has proved the cores apart: while they may
//   overlap, a flat face's support points jump and the model misleads (a
//   box against an ellipsoid, touching or overlapping: up to 18% more
//   iterations), and between ellipsoids the steps' points gather at the
//   contact and leave EPA a thin tetrahedron (48% more instructions a
//   penetration query, and touching pairs at 2^-510 not converged); every
//   query's walk takes the same steps, so that they agree on the status;
// - a user shape may be a polytope in disguise: with one on either side,
//   a secant step also waits for a plain step that did not halve the
//   duality gap (the walk creeps); a few plain steps end most walks
//   between polytopes, and a secant step there was one step more;
// - a step that brings the simplex no nearer (its tetrahedron solved back
//   to a farther face: the simplex is restored), or does not halve the
//   least duality gap |v| − (best lower bound) seen, is a miss: the next
//   step is plain, and after three misses the walk goes on plain. (Against
//   the gap before the step instead, plain steps whose |v| drifted up let
//   a float walk between a cylinder and a cone cycle to the iteration
//   cap);
// - a step whose own bound comes within the tolerance is followed by a
//   plain step, which certifies and ends;
// - a support point repeated for another direction (a vertex) makes no
//   model; below a duality gap of 4096 ε of the points' scale (8 ε in
//   float) the model's differences are mostly rounding: plain steps only.
// Between two ellipsoids at random poses the walk takes 6 steps at 1
// apart (plain: 15), 15 at 1e-3 (40), 24 at 1e-5 (40); an ellipsoid
// against a box, cylinder or cone 1e-3 apart 19–23 (32–36); overlapping,
// the plain walk's.
// (GJK++ (Montaut et al., IEEE T-RO 2024), which coal runs, takes
// Nesterov's momentum instead: about a third fewer steps, and only at
// middle distances; design.md records the comparison.)

#include "secant.h"
#include "walk_end.h"

static void trace_iteration(const gjk_pair *pair, const gjk_walk *walk, gjk_vec3 d, gjk_vec3 w) {
    gjk_trace_event ev = {0};
    ev.phase = GJK_TRACE_GJK;
    ev.iteration = walk->iterations;
    ev.simplex_count = walk->simplex.count;
    for (int m = 0; m < walk->simplex.count; ++m) {
        ev.simplex[m] = gjk_mat3_mul(pair->rot_a, walk->simplex.v[m].w);
    }
    ev.closest = gjk_mat3_mul(pair->rot_a, walk->v);
    ev.direction = gjk_mat3_mul(pair->rot_a, gjk_neg(d));
    ev.support = gjk_mat3_mul(pair->rot_a, w);
    ev.lower = walk->lower;
    ev.upper = gjk_length(walk->v);
    pair->trace(pair->trace_data, &ev);
}

/// The hull of a hull polytope's core, else NULL.
static const gjk_hull *core_hull(const gjk_shape *s) {
    return s->type == GJK_SHAPE_POLYTOPE ? s->polytope.hull : NULL;
}

/// The best pair seen by nearest_neighbour: base point m with its vertex on
/// `side` (0: A, 1: B) replaced by `vertex`, whose point (A's frame) is
/// `point`, least along v (`least`).
typedef struct neighbour_pick {
    gjk_real least;
    int m, side, vertex;
    gjk_vec3 point;
} neighbour_pick;

/// nearest_neighbour's scan of the neighbours of one side's vertex `id` of
/// base point q (m), the other side's point kept. Inline with `side` a
/// constant: each side's loop is its own.
static GJK_INLINE void scan_neighbours(const gjk_pair *pair, const gjk_hull *h, const gjk_support_point *q, int m,
                                       const int side, gjk_vec3 v, neighbour_pick *pick) {
    int id = side == 0 ? q->ia : q->ib;
    if (h == NULL || id < 0 || id >= h->vertex_count) {
        return;
    }
    for (int k = h->neighbor_first[id]; k < h->neighbor_first[id + 1]; ++k) {
        gjk_vec3 p = h->vertices[h->neighbors[k]];
        p = side == 0 ? p : gjk_add(gjk_mat3_mul(pair->rot_b, p), pair->pos_b);
        gjk_real t = gjk_dot(v, side == 0 ? gjk_sub(p, q->b) : gjk_sub(q->a, p));
        if (t < pick->least) {
            *pick = (neighbour_pick){t, m, side, h->neighbors[k], p};
        }
    }
}

/// Among the points of D that pair the vertices next to one of `base`'s
/// (hull polytopes: A's neighbours of its vertex against its point of B, and
/// its point of A against B's neighbours of its vertex), the one least along
/// v if it is strictly less than |v|² along it (nearer the origin than v
/// along v̂): true, with *best filled. Vertex ids that are not a hull's are
/// skipped.
static bool nearest_neighbour(const gjk_pair *pair, const gjk_support_point *base, int count, gjk_vec3 v,
                              gjk_real vv, gjk_support_point *best) {
    const gjk_hull *ha = core_hull(pair->a), *hb = core_hull(pair->b);
    neighbour_pick pick = {vv, -1, 0, 0, {0, 0, 0}};
    for (int m = 0; m < count; ++m) {
        scan_neighbours(pair, ha, &base[m], m, 0, v, &pick);
        scan_neighbours(pair, hb, &base[m], m, 1, v, &pick);
    }
    if (pick.m < 0) {
        return false;
    }
    // A point of D, no support point along base's direction: bounding
    // nothing (base may have been one, from a cached id that is no hull
    // vertex or from a cold start; kept, its flag let EPA answer "touching"
    // along that direction for shapes 0.025 deep: review).
    *best = base[pick.m];
    best->bounds = false;
    if (pick.side == 0) {
        best->a = pick.point, best->ia = pick.vertex;
    } else {
        best->b = pick.point, best->ib = pick.vertex;
    }
    best->w = gjk_sub(best->a, best->b);
    return gjk_max_abs(best->w) <= GJK_POINT_MAX;
}

/// A warm start from a vertex or an edge of D: the cache held one or two
/// points, made of hull vertices. A cold walk ends so where the closest
/// point of D is one of its vertices, which is where shapes met from afar
/// touch (the region of D's space nearest a vertex is a cone that widens
/// with the distance, a face's a slab). Moved by about the distance, the
/// pair then touches on a face beside that vertex, and the walk's first
/// direction, from the origin to the vertex, is off that face's normal by
/// up to the angle of the motion: its support point lands far across a
/// finely divided hull, and the walk came back in several steps (the
/// bench's first warm frame on 16384 vertices: 6.7 iterations, the later
/// frames about 1). Here the simplex first steps over the vertices next
/// to the cached ones, each step to the pair of them least along v while
/// that brings the simplex nearer (a few dot products each, no support
/// search), so that the walk starts from the faces around the contact.
/// The points are points of D, flagged as bounding nothing along their
/// direction (as cached hull points are); the walk's stopping rules are
/// unchanged.
/// Only where a core is a hull that climbs (the caller checks): below that a
/// support point is a scan of a few vertices, which such a step costs nearly
/// as much as (with 8 and 32 vertices: fewer iterations, but 2–8% more
/// instructions). Out of line: warm walks from a face or a tetrahedron, the
/// common case, pay for the test alone.
static GJK_NOINLINE gjk_vec3 warm_neighbours(gjk_pair *pair, gjk_simplex *s, gjk_vec3 v) {
    gjk_support_point base[2] = {s->v[0], s->v[s->count - 1]};
    int count = s->count;
    gjk_real vv = gjk_length_sq(v);
    for (int step = 0; step < 8 && s->count < 4 && vv > 0; ++step) {
        gjk_support_point q;
        if (!nearest_neighbour(pair, base, count, v, vv, &q) || gjk_simplex_has(s, q.w)) {
            break;
        }
        // try_add leaves s as it was when the new simplex is no nearer, and
        // hands back the old one (`before`) when a tetrahedron is solved
        // back to a face no nearer: either ends the steps.
        gjk_simplex before;
        before.count = -1;
        gjk_vec3 v_new;
        if (!gjk_simplex_try_add(s, &q, vv, &v_new, &before)) {
            break;
        }
        if (before.count >= 0) {
            *s = before;
            break;
        }
        pair->scale = gjk_max(pair->scale, gjk_max_abs(q.w));
        v = v_new;
        vv = gjk_length_sq(v);
    }
    return v;
}

/// True when `lower`, the starting points' bound, proves the cores farther
/// apart than walk->stop_beyond, beyond the tolerance at the scale seen so
/// far: the bound is a dot product of D's points, whose rounding grows with
/// their coordinates (a box 4.8e26 long, from a warm cache, bounded the
/// distance of a ball inside it by 3.4e10, within the rounding of 1e11, and
/// the distance query answered "apart" with a zero normal: f41). With
/// stop_widen the margin is the tolerance at the shapes' whole extent, not
/// at the scale of the few points seen so far: pairs that touch within the
/// tolerance the full walk would reach must not be called apart here (the
/// queries must agree on the status).
static bool start_apart(const gjk_pair *pair, const gjk_walk *walk, gjk_real lower) {
    if (!(lower > walk->stop_beyond)) {
        return false; // the cheap test first: widening only raises the bar
    }
    if (!walk->stop_widen) {
        return walk->stop_beyond > 0 && lower > walk->stop_beyond + gjk_pair_apart_margin(pair, 0);
    }
    gjk_real extent = gjk_shape_bound(pair->a) + gjk_shape_bound(pair->b);
    gjk_real beyond = walk->stop_beyond + gjk_pair_apart_margin(pair, extent);
    return beyond > 0 && lower > beyond;
}

/// A walk's record of the support points of its plain steps since it last
/// came nearer than the least |v| seen: the ends of cycles. Each step may
/// come nearer than the last and yet the walk go round: in float a segment
/// and a triangle took turns (the triangle's fourth point solved back to
/// the segment, whose support point gave the triangle again), and two cones
/// 1e-5 apart ran to the iteration cap so, 1.4 tolerances from the answer
/// (0.01% of float poses of cones, cylinders, boxes and ellipsoids near
/// contact). A walk that goes GJK_CYCLE_REPEATS plain steps in a row no
/// nearer than its least, each with a point it met since then, ends as
/// stalled (when back at its least |v|, or at twice as many). Counting steps alone would not
/// do: float walks also wander ten and more steps above their least with
/// new points, and escape (ended after eight such steps, a box and a
/// cylinder 7e-6 apart were answered 6.4e-5).
enum { GJK_CYCLE_POINTS = 16, GJK_CYCLE_REPEATS = 6 };

typedef struct cycle_watch {
    gjk_vec3 w[GJK_CYCLE_POINTS];
    int count;   ///< Points recorded since the least |v| (up to GJK_CYCLE_POINTS, then overwritten in turn).
    int repeats; ///< Steps in a row with a recorded point.
} cycle_watch;

/// Records a plain step that came no nearer than the least |v| (least_vv),
/// whose support point is w and new |v|² vv_new; true when the walk is
/// going round and should end.
static bool cycle_step(cycle_watch *c, gjk_vec3 w, gjk_real vv_new, gjk_real least_vv) {
    int n = c->count < GJK_CYCLE_POINTS ? c->count : GJK_CYCLE_POINTS;
    for (int i = 0; i < n; ++i) {
        if (c->w[i].x == w.x && c->w[i].y == w.y && c->w[i].z == w.z) {
            ++c->repeats;
            return (c->repeats >= GJK_CYCLE_REPEATS && vv_new <= least_vv) || c->repeats >= 2 * GJK_CYCLE_REPEATS;
        }
    }
    c->w[c->count % GJK_CYCLE_POINTS] = w;
    ++c->count;
    c->repeats = 0;
    return false;
}

#if defined(__GNUC__) || defined(__clang__)
#define WALK_INLINE static inline __attribute__((always_inline))
#else
#define WALK_INLINE static inline
#endif

/// The walk from the simplex's closest point v; returns how it ended.
/// Written once and compiled twice: with secant_steps false it is the
/// plain walk, with no secant code in its loop; with it true the walk takes
/// secant steps while they pay.
WALK_INLINE gjk_walk_end walk_loop(gjk_pair *pair, gjk_walk *walk, gjk_vec3 v, const bool secant_steps) {
    gjk_simplex *s = &walk->simplex;
    gjk_real vv = gjk_length_sq(v);
    int stalls = 0; // plain steps in a row whose tetrahedron came back no nearer
    gjk_real least_vv = vv; // the least |v|² seen, and the steps since (cycle_watch)
    cycle_watch cycle;
    gjk_simplex start; // where the last run of stalls began (gjk_walk_nearer_of)
    start.count = 0;
    cycle.count = 0;
    cycle.repeats = 0;
    // Secant state: the last three support calls (the simplex's starting
    // points that bound D first) and the rules' bookkeeping (secant.h,
    // gjk_secant_rules): the least duality gap seen, which a secant step
    // must halve (the plain steps' |v| can drift up: a tetrahedron solved
    // back to a farther face), the misses and a plain step owed.
    gjk_secant_ring ring;
    ring.count = 0;
    gjk_secant_rules rules =
        gjk_secant_rules_start(pair->a->type != GJK_SHAPE_CUSTOM && pair->b->type != GJK_SHAPE_CUSTOM);
    if (secant_steps) {
        for (int m = 0; m < s->count; ++m) {
            if (s->v[m].bounds) {
                gjk_secant_push(&ring, gjk_normalize(s->v[m].d), s->v[m].w);
            }
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
        gjk_real tol = gjk_pair_tolerance(pair);
        gjk_real vlen = gjk_sqrt(vv);
        if (s->count == 4 || vlen <= tol) {
            return gjk_walk_origin_reached(pair, walk, v, tol, &start);
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
        gjk_vec3 u;
        bool secant = false;
        if (secant_steps) {
            secant = gjk_secant_may(&rules, vlen, walk->lower, pair->scale, ring.count == 3) &&
                     gjk_secant_direction(&ring, vlen, &u);
            rules.plain_before = !secant;
        }
        gjk_vec3 d = secant ? gjk_neg(u) : gjk_simplex_direction(s, v);
        gjk_support_point p = gjk_pair_support(pair, gjk_neg(d));
        if (pair->bad_support) {
            return GJK_WALK_BAD_SUPPORT;
        }
        gjk_real lower = gjk_dot(d, p.w) / gjk_length(d);
        walk->lower_dir = lower > walk->lower ? p.d : walk->lower_dir;
        walk->lower = gjk_max(lower, walk->lower); // a select, not a branch (a NaN lower is ignored)
        if (secant_steps) {
            gjk_secant_push(&ring, gjk_normalize(gjk_neg(d)), p.w);
        }
        if (pair->trace != NULL) {
            trace_iteration(pair, walk, d, p.w);
        }
        // Apart beyond stop_beyond by more than the tolerance at the scale
        // that includes the new point (see start_apart).
        tol = gjk_pair_tolerance(pair);
        if ((walk->stop_widen || walk->stop_beyond > 0) &&
            lower > walk->stop_beyond + gjk_pair_apart_margin(pair, 0)) {
            // This step's bound, with its own direction as the normal (as at
            // the start): the gap along the normal is the bound. (Along the
            // simplex's v̂ it need not be, after secant steps.) An older
            // bound of the loop was tested against a margin no larger (the
            // scale only grows); one that square_step raised, untested,
            // does not stop the walk, which runs on to the exact answer.
            walk->lower = lower;
            walk->normal = gjk_normalize(p.d);
            return GJK_WALK_APART;
        }
        // Duality gap |v| − v̂·w, measured against that tolerance. Only a
        // plain step ends the walk on it: the bound along v̂ certifies the
        // normal v̂ as well as |v|.
        gjk_vec3 v_new;
        if (secant) {
            ++walk->accelerated;
            // A step that brings the simplex no nearer (a fourth point is
            // always taken, and its tetrahedron may solve back to a farther
            // face: the simplex is restored), encloses the origin where
            // the bound excludes it (gjk_walk_bound_excludes_origin: rounding), or
            // does not halve the least duality gap seen is a miss, and the
            // next step is plain. One whose own bound comes within the
            // tolerance is followed by a plain step, which certifies v̂.
            gjk_simplex saved = *s;
            bool nearer = !gjk_simplex_has(s, p.w) && gjk_simplex_try_add(s, &p, vv, &v_new, NULL) &&
                          gjk_length_sq(v_new) < vv && (s->count < 4 || !gjk_walk_bound_excludes_origin(pair, walk));
            if (!nearer) {
                *s = saved;
                gjk_secant_missed(&rules);
                continue;
            }
            gjk_secant_kept(&rules, gjk_sqrt(gjk_length_sq(v_new)), walk->lower, vlen - lower <= tol);
        } else {
            // The simplex at the least |v| seen is kept when a stall
            // begins there (a tetrahedron solved back to a farther face,
            // or a point taken in gjk_walk_no_progress), to be the answer if the
            // walk ends farther than it (gjk_walk_nearer_of): a float walk between
            // a cylinder and a box 2.7e-6 apart had |v| at 9.3e-6, stalled
            // four times to 9.4e-5 and answered that. (A copy only when a
            // stall begins.)
            bool keep = stalls == 0 && vv <= least_vv;
            gjk_real gap = vlen - lower;
            bool added = gap > tol && !gjk_simplex_has(s, p.w) &&
                         gjk_simplex_try_add(s, &p, vv, &v_new, keep ? &start : NULL);
            if (!added) {
                if (gap <= tol) {
                    return GJK_WALK_CONVERGED;
                }
                gjk_walk_end end;
                if (gjk_walk_no_progress(pair, walk, &p, v, vlen, lower, tol, &start, keep, &v_new, &end)) {
                    return end;
                }
            }
            // A fourth point is always taken and its tetrahedron solved
            // back to a face, which rounding can leave no nearer even after
            // each face with the new point has been solved on its own
            // (simplex.c): a stall too, though the next face may escape it.
            // Several in a row (a support point within about the tolerance
            // of the face, the walk going round in circles) end the walk;
            // the simplex has changed, so its own closest point is reported.
            gjk_real vv_new = gjk_length_sq(v_new);
            stalls = vv_new < vv ? 0 : stalls + 1;
            if (stalls >= 4 || (vv_new >= least_vv && cycle_step(&cycle, p.w, vv_new, least_vv))) {
                return gjk_walk_stalled_end(pair, walk, gjk_walk_nearer_of(s, &start, v_new, gjk_pair_apart_margin(pair, 0)), p.w);
            }
        }
        v = v_new;
        vv = gjk_length_sq(v_new);
        if (vv < least_vv) {
            least_vv = vv;
            cycle.count = 0;
            cycle.repeats = 0;
        }
    }
}

gjk_walk_end gjk_walk_run(gjk_pair *pair, gjk_walk *walk) {
    return gjk_walk_run_momentum(pair, walk, GJK_MOMENTUM_AUTO);
}

gjk_walk_end gjk_walk_run_momentum(gjk_pair *pair, gjk_walk *walk, gjk_walk_momentum momentum) {
    gjk_simplex *s = &walk->simplex;
    walk->iterations = 0;
    walk->accelerated = 0;
    walk->polished = false;
    walk->lower = 0;
    walk->normal = gjk_v3_zero();
    walk->lower_dir = gjk_v3_zero();

    if (s->count == 0) {
        // Start from a point of D: the support against the direction from
        // A's origin to B's origin, a cheap guess at the separating axis.
        s->v[0] = gjk_pair_support(pair, gjk_pair_start_direction(pair));
        s->count = 1;
    }
    // A starting point w that is D's support point along its direction d
    // shows that D lies behind the plane d̂·x = d̂·w: the origin is at least
    // −d̂·w from D. Far apart shapes are often proved apart here, by the
    // first support call, one iteration early (the test MPR starts with).
    gjk_real start_lower = 0;
    gjk_vec3 start_dir = gjk_v3_zero(); // the direction that gave start_lower (the solve below may
                                        // drop or reorder the points: fuzz seed 1046)
    for (int m = 0; m < s->count; ++m) {
        gjk_real dd = gjk_length_sq(s->v[m].d);
        if (s->v[m].bounds && dd > GJK_SQUARE_MIN && dd < GJK_SQUARE_MAX) {
            gjk_real lower = -gjk_dot(s->v[m].d, s->v[m].w) / gjk_sqrt(dd);
            start_dir = lower > start_lower ? s->v[m].d : start_dir;
            start_lower = gjk_max(lower, start_lower);
        }
    }
    gjk_vec3 v = gjk_simplex_solve(s);
    if (pair->bad_support) {
        return GJK_WALK_BAD_SUPPORT;
    }
    if (pair->warm && s->count <= 2 && (gjk_hull_climbs(pair->a) || gjk_hull_climbs(pair->b))) {
        v = warm_neighbours(pair, s, v);
    }
    // The walk itself starts its bound from 0: a secant step on shapes
    // with flat parts waits for a bound of its own steps.
    if (start_apart(pair, walk, start_lower)) {
        walk->v = v;
        walk->lower = start_lower;
        // The bound's own direction: D lies behind the plane through w
        // normal to d, so B lies along d from A. (Not v's: with a user
        // support that is not exact, v came out 0 while a point bounded
        // D 4.6e25 away, and the normal was 0; fuzz finding f56.)
        walk->normal = gjk_normalize(start_dir);
        return GJK_WALK_APART;
    }
    bool curved = gjk_core_curved(pair->a) || gjk_core_curved(pair->b);
    if (momentum == GJK_MOMENTUM_ON || (momentum == GJK_MOMENTUM_AUTO && curved)) {
        return walk_loop(pair, walk, v, true);
    }
    return walk_loop(pair, walk, v, false);
}

/// The witness points of a tetrahedron that encloses the origin, its
/// barycentric coordinates refined by one step where their residual
/// r = Σ λ w (0 in exact arithmetic) exceeds the rounding of a sum of its
/// points: r is taken back through the edges from w0, D μ = −r (D's columns
/// w_i − w0; Cramer's rule). The signed volumes that gave λ are products of
/// the points' coordinates, whose rounding (ε|w|³) can be large against a
/// needle's volume; D's products are of the edges, and the correction
/// carries only its own small error. A needle 1.8e6 long and 2 wide about
/// the origin (a hull 1e6 across, a ball of radius 0.25 inside it) had
/// r = (4.1, −1.1, 1.5), and the overlap's common point, Σ λ a, lay 3.9
/// outside the ball (fuzz/findings f73). Unrefined where D has no volume or
/// the step is not small (|μ| ≤ 1/4 each).
static void enclosure_witness(const gjk_simplex *s, gjk_vec3 *pa, gjk_vec3 *pb) {
    gjk_simplex_witness(s, pa, pb);
    gjk_vec3 r = gjk_sub(*pa, *pb); // Σ λ w, as w = a − b
    gjk_real big = gjk_max(gjk_max(gjk_max_abs(s->v[0].w), gjk_max_abs(s->v[1].w)),
                           gjk_max(gjk_max_abs(s->v[2].w), gjk_max_abs(s->v[3].w)));
    if (!(gjk_max_abs(r) > 64 * GJK_REAL_EPSILON * big)) {
        return;
    }
    gjk_vec3 w0 = s->v[0].w, d1 = gjk_sub(s->v[1].w, w0), d2 = gjk_sub(s->v[2].w, w0);
    gjk_vec3 d3 = gjk_sub(s->v[3].w, w0), c23 = gjk_cross(d2, d3);
    gjk_real det = gjk_dot(d1, c23);
    gjk_real mu[3] = {-gjk_dot(r, c23) / det, -gjk_dot(d1, gjk_cross(r, d3)) / det,
                      -gjk_dot(d1, gjk_cross(d2, r)) / det};
    const gjk_real q = GJK_R(0.25);
    if (!(gjk_abs(mu[0]) <= q && gjk_abs(mu[1]) <= q && gjk_abs(mu[2]) <= q)) { // (also a NaN)
        return;
    }
    // The correction moves a and b alike by Σ μ_i (p_i − p_0).
    for (int m = 1; m < 4; ++m) {
        *pa = gjk_mul_add(*pa, mu[m - 1], gjk_sub(s->v[m].a, s->v[0].a));
        *pb = gjk_mul_add(*pb, mu[m - 1], gjk_sub(s->v[m].b, s->v[0].b));
    }
}

void gjk_walk_witness(const gjk_walk *walk, gjk_vec3 *pa, gjk_vec3 *pb) {
    if (walk->simplex.count == 4) {
        enclosure_witness(&walk->simplex, pa, pb);
        return;
    }
    gjk_simplex_witness(&walk->simplex, pa, pb);
    if (walk->polished) {
        gjk_vec3 half = gjk_scale(GJK_R(0.5), gjk_sub(gjk_sub(*pa, *pb), walk->v));
        *pa = gjk_sub(*pa, half);
        *pb = gjk_add(*pb, half);
    }
}
