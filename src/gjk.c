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

#include "internal.h"

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

/// The end of a walk that stalls on a segment a–b (its new point w brought
/// no progress, or was a or b again) with its duality gap still above the
/// tolerance. Near contact v̂ is turned by about ε·|p| / |v| (v = a + t·(b − a)
/// cancels): a point 1e-10 below the base of a cone of radius 5.5 got a
/// normal 1.8e-6 off and a gap along it of −1.3e-5 (fuzz findings f29 and,
/// with w = b, f33). D's feature there is often a face through a–b: the
/// normal n̂ of a triangle a, b, c is made of vertex differences and does
/// not depend on |v|. A candidate c is taken when v lies along n̂ within
/// the tolerance, and checked by one support call q along −n̂, which bounds
/// D's distance along n̂ by n̂·q; the best bound wins if it beats v̂'s own,
/// `lower` (it is also the gap along the normal that a user measures), and
/// the first within the tolerance of |v| ends the search. The candidates:
/// w; after a checked plane, its q; after a degenerate or leaning
/// triangle, a probe, the support point along −v̂ tipped by 2^-8 toward
/// ±û (û ⊥ a–b and v), which on a face through a–b is that face's vertex
/// farthest to that side. Six support calls at most. c joins the simplex
/// with weight 0 (the closest point and the witnesses do not change) and
/// the triangle gives the normal (gjk_simplex_direction). Rare: on that
/// stall only. True when a plane proved the distance within the tolerance.
static GJK_NOINLINE bool stalled_segment_face(gjk_pair *pair, gjk_simplex *s, const gjk_support_point *w, gjk_vec3 v,
                                              gjk_real vlen, gjk_real lower, gjk_real tol) {
    gjk_vec3 a = s->v[0].w, e = gjk_sub(s->v[1].w, a);
    gjk_vec3 vhat = gjk_scale(1 / vlen, v);
    gjk_vec3 tip = gjk_scale(GJK_R(1.0) / 256, gjk_normalize(gjk_cross(e, v)));
    gjk_support_point c = *w, best = *w;
    gjk_real best_lower = lower;
    bool found = false;
    int probes = 0;
    for (int calls = 0; calls < 6;) {
        gjk_vec3 n = gjk_normalize(gjk_cross(e, gjk_sub(c.w, a)));
        gjk_real nv = gjk_dot(n, v);
        if (nv < 0) {
            n = gjk_neg(n), nv = -nv;
        }
        // v must lie along n within the tolerance, as the witnesses (which
        // v gives) must: a plane through the segment that merely passes
        // within the tolerance of v may lean by √(2·tol/|v|), and near a
        // cylinder's rim, with tolerance 1e-14, its normal was 4.5e-4 off
        // and point_b − point_a missed distance·normal by 500 tolerances.
        gjk_support_point q;
        if (nv > 0 && gjk_length(gjk_sub(v, gjk_scale(nv, n))) <= tol) {
            q = gjk_pair_support(pair, gjk_neg(n));
            ++calls;
            if (pair->bad_support) {
                break;
            }
            gjk_real bound = gjk_dot(n, q.w);
            if (bound > best_lower) {
                best_lower = bound, best = c, found = true;
            }
            if (vlen - bound <= tol) {
                break;
            }
            if (!gjk_simplex_has(s, q.w)) {
                c = q;
                continue;
            }
        }
        // A degenerate triangle (n = 0: c on the line a–b), one that leans,
        // or a plane whose check came back to a or b: the next probe.
        if (probes == 2) {
            break;
        }
        gjk_vec3 side = probes++ == 0 ? tip : gjk_neg(tip);
        c = gjk_pair_support(pair, gjk_sub(side, vhat));
        ++calls;
        if (pair->bad_support) {
            break;
        }
    }
    pair->bad_support = false; // a refused point: the answer stands without this check
    if (found) {
        s->v[2] = best;
        s->lambda[2] = 0;
        s->count = 3;
    }
    return found && vlen - best_lower <= tol;
}

gjk_real gjk_pair_bound_along(gjk_pair *pair, gjk_vec3 d) {
    gjk_real dl = gjk_length(d);
    if (!(dl > 0)) {
        return -GJK_REAL_MAX;
    }
    gjk_support_point q = gjk_pair_support(pair, gjk_neg(d));
    gjk_real b = pair->bad_support ? -GJK_REAL_MAX : gjk_dot(d, q.w) / dl;
    pair->bad_support = false;
    return b;
}

/// The bound on the cores' distance along the normal the queries report at
/// v (the simplex's direction: a triangle's own normal, not v̂, where v is
/// tiny), from one support call (gjk_pair_bound_along).
static gjk_real normal_bound(gjk_pair *pair, const gjk_walk *walk, gjk_vec3 v) {
    return gjk_pair_bound_along(pair, gjk_simplex_direction(&walk->simplex, v));
}

/// The lower bound on the cores' distance that a support point w gives
/// along its own direction d: D lies behind the plane through w normal to
/// d, so the origin is at least −d̂·w from it. −MAX when the point bounds
/// nothing (one rebuilt from a cache's hull vertex) or |d|² is out of
/// range. (The walk's start computes the same bound in line: through this
/// function there, 18 more instructions a query between ellipsoids, from
/// the code's layout.)
static GJK_INLINE gjk_real support_bound(const gjk_support_point *p) {
    gjk_real dd = gjk_length_sq(p->d);
    if (!(p->bounds && dd > GJK_SQUARE_MIN && dd < GJK_SQUARE_MAX)) {
        return -GJK_REAL_MAX;
    }
    return -gjk_dot(p->d, p->w) / gjk_sqrt(dd);
}

/// Whether a walk whose bound proved the cores apart (walk->lower > 0) may
/// end at v along the normal the queries will report (the simplex's
/// direction): one support call against it must bound the distance along
/// it within the tolerance of |v|, so that it is a normal of the answer.
/// Else the walk ends as an overlap and EPA decides. Asked where a simplex
/// came within the tolerance of the origin, which would end as touching
/// without a certificate of its normal: a point 1.7e-304 from a triangle's
/// vertex had v along the offset, which no face of the triangle faces (its
/// gap along v̂ −1.25; fuzz seed 938). Rare: only at such ends.
static GJK_NOINLINE bool normal_holds(gjk_pair *pair, const gjk_walk *walk, gjk_vec3 v, gjk_real tol) {
    return walk->lower > 0 && normal_bound(pair, walk, v) >= gjk_length(v) - tol;
}

/// The best bound's direction as the normal of a stalled end at p, whose
/// simplex direction bounds the distance only by `along`, short of |p|:
/// the gap along that direction is the bound walk->lower, and the witness
/// points stay the simplex's, |p| apart along −p̂ (from A to B, as l̂), so
/// the direction costs their offset, |p|·|l̂ + p̂|, as well. It is taken
/// (into walk->normal, and true) where its two errors together are less
/// than the gap the simplex's direction falls short by. (Taken whenever
/// that gap fell short, a custom shape 4.15 from a point stalled with the
/// two 1.5e-5 rad apart, and the witness points missed distance × normal
/// by 6.3e-5: fuzz seed 1059.)
static bool bound_normal(gjk_walk *walk, gjk_vec3 p, gjk_real along) {
    gjk_real plen = gjk_length(p);
    if (!(along < walk->lower) || !(gjk_length_sq(walk->lower_dir) > 0)) {
        return false;
    }
    gjk_vec3 l = gjk_normalize(walk->lower_dir), ph = gjk_normalize(p);
    if (!((plen - walk->lower) + plen * gjk_length(gjk_add(l, ph)) < plen - along)) {
        return false;
    }
    walk->normal = l;
    return true;
}

/// The end of a walk that stalled with its gap above the tolerance, at the
/// simplex's closest point v: v made accurate (gjk_simplex_polish: on a
/// sliver triangle Σ λ p can be off by far more than the tolerance), and
/// the cores taken to touch when that comes within the tolerance. A point
/// 1e-11 from a sliver whose plane passed 4.6e-15 from the origin had a
/// warm walk stall as "apart" by 1.3e-11 with the tolerance at 5e-14, its
/// normal the wrong way round (a time of impact missed its contact, f34).
static GJK_NOINLINE gjk_walk_end stalled_end(gjk_pair *pair, gjk_walk *walk, gjk_vec3 v, gjk_vec3 w) {
    // A polished point nearer than the walk's lower bound contradicts the
    // proof: v stays as the walk found it (f37, tolerance 5.6e-92: the
    // polish gave 0 where the cores were proved apart).
    gjk_vec3 p = gjk_simplex_polish(&walk->simplex, v);
    if (!(gjk_length(p) >= walk->lower)) {
        p = v;
    }
    walk->polished = (p.x != v.x) | (p.y != v.y) | (p.z != v.z);
    walk->v = p;
    gjk_real tol = gjk_pair_tolerance(pair);
    if (walk->lower > tol) {
        // Proved apart: no overlap, whatever rounding suggests. The normal
        // the queries report, the simplex's direction, stands where one
        // support call bounds the distance along it within the tolerance
        // of |p|; else the best bound's direction may serve, along which
        // the gap is that bound. (A warm float walk between a cone and a
        // user polytope 7.8e-6 apart stalled after 29 steps, and the
        // simplex's direction was 60° off: the shapes overlapped by 1.65
        // along it; review of 13c34cd.) The witness points stay the
        // simplex's, |p| apart along −p̂ (from A to B, as l̂), so that
        // direction costs their offset, |p|·|l̂ + p̂|, as well: it is taken where
        // its two errors together are less than the gap the simplex's
        // direction falls short by. (Taken whenever that gap fell short,
        // a custom shape 4.15 from a point stalled with the two 1.5e-5 rad
        // apart, and the witness points missed distance × normal by
        // 6.3e-5: fuzz seed 1059.)
        gjk_real along = normal_bound(pair, walk, p);
        if (along < gjk_length(p) - tol) {
            (void)bound_normal(walk, p, along);
        }
        return GJK_WALK_CONVERGED;
    }
    // The last support point w and a triangle may also enclose the origin,
    // which the tetrahedron's solve can miss on a sliver: a warm walk 1e-13
    // inside an ellipsoid met by a cone (tolerance 5e-14) stalled so and
    // answered "apart by 1e-13" with the normal reversed (f35).
    if (gjk_length(p) <= tol || gjk_simplex_encloses(&walk->simplex, w)) {
        // Within the tolerance of the origin after a bound proved the
        // cores apart (by less than the tolerance): they touch, as at the
        // top of the walk's loop, where the normal holds (normal_holds);
        // EPA would start from a polytope that may not enclose the origin.
        return gjk_length(p) <= tol && normal_holds(pair, walk, p, tol) ? GJK_WALK_CONVERGED : GJK_WALK_OVERLAP;
    }
    // Not proved apart, |p| beyond the tolerance: the stall is taken as
    // rounding (within eight margins of the bound, or on a support point
    // the simplex has already: no_progress), but the normal the queries
    // will report must not be plainly wrong: one support call along it
    // must bound the distance within those margins of |p|, plus the
    // accuracy of normals on curved surfaces, √(2·tolerance) of the size
    // (README, "Tolerances"), so that only gross failures go: there the
    // best bound's direction serves where that bound is within the slack,
    // and EPA decides where it is not. (With the margins alone, at a
    // tolerance of 1e-14 ten of 60,000 random pairs about 1e-12 apart
    // whose normals fell 1e-12 to 1e-11 short came out touching, and five
    // about 1e-12 deep called apart came out penetrating.) (On a segment
    // the queries report the direction square to it instead where that
    // bounds better: query.c, apart_normal.) A needle ellipsoid 1.1e-13
    // thick against an ellipsoid (tolerance 1e-14) stalled on a triangle
    // of two points near the origin and one 12 away, its bound at 0, and
    // the answer was "apart by 2.6e-13" along a normal reversed (B's point
    // 2.6e-13 inside A): the shapes overlapped by 5.74 along it (fuzz seed
    // 1079).
    if (walk->simplex.count != 2) {
        gjk_real along = normal_bound(pair, walk, p);
        gjk_real slack = 8 * gjk_pair_apart_margin(pair, 0) + gjk_sqrt(2 * pair->rel_tol) * (pair->scale + pair->radius);
        if (!(along >= gjk_length(p) - slack) && !bound_normal(walk, p, along)) {
            return GJK_WALK_OVERLAP;
        }
    }
    return GJK_WALK_CONVERGED;
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

/// The end of a stalled walk: the simplex s with closest point v, or the
/// one kept at the walk's least |v| (`start`, when a stall began there) if
/// that is nearer by more than `margin` (the bounds' rounding), copied
/// into s. Returns the closest point of the simplex chosen. (Keeping the
/// current one where stalled_end would polish it to within the tolerance
/// made 88 of 873,600 float poses touching that the kept simplex answers
/// separated by up to 8e-6, 2.3 tolerances; but some of those walks, their
/// cores apart, then ended as overlaps, and EPA answered not converged,
/// 1.9 deep: not taken.)
static GJK_NOINLINE gjk_vec3 nearer_of(gjk_simplex *s, const gjk_simplex *start, gjk_vec3 v, gjk_real margin) {
    if (start->count == 0) {
        return v;
    }
    gjk_vec3 u = gjk_v3(0, 0, 0);
    for (int m = 0; m < start->count; ++m) {
        u = gjk_mul_add(u, start->lambda[m], start->v[m].w);
    }
    if (!(gjk_length(u) + margin < gjk_length(v))) {
        return v;
    }
    *s = *start;
    return u;
}

/// True when the walk's lower bound proves the origin outside D by more
/// than the bounds' rounding: a tetrahedron of D's points around the origin
/// is then rounding, not an overlap. In float, a cylinder and a box 1e-5
/// apart (2.3 tolerances) were proved apart by 7e-6, and then a plain
/// step's tetrahedron, solved from points of size 1 with |v| near 1e-5,
/// enclosed the origin: the distance query answered "penetrating" (15 of
/// 700,000 float poses near contact, apart by 4e-6 to 1e-5; two of them
/// gjk_penetration answered not converged, 0.5 and 0.8 deep, as EPA
/// started from that tetrahedron).
static GJK_INLINE bool bound_excludes_origin(const gjk_pair *pair, const gjk_walk *walk) {
    return walk->lower > gjk_pair_apart_margin(pair, 0);
}

/// The end of a walk whose plain step made a tetrahedron around the origin
/// that the walk's bound contradicts (bound_excludes_origin; a secant
/// step's is a miss): its new point, last (the solve keeps the order; a
/// walk's first tetrahedron, from a cache, comes before any bound), is
/// dropped, and the walk ends as stalled, from the triangle before it or
/// the simplex kept at the least |v| (nearer_of). The bound proves the
/// cores apart beyond the tolerance (the margin is at least the
/// tolerance), so the answer is "separated" at that |v|, its normal the
/// best-bounded of the simplex's direction and the tetrahedron's points'
/// directions (walk->normal when it is one of these). (Solving each
/// face with the new point on its own instead, and walking on from the
/// nearest that the bound allows, was tried: on 78,800 poses of 14 shapes,
/// in float and in double at a tolerance of 1e-12, its walks wandered near
/// contact and more normals came out worse than before the change than
/// better; ending here, more came out better. Ending a secant step's so
/// too, rather than missing it, turned one warm float normal 1.2e-3 off.)
static GJK_NOINLINE gjk_walk_end excluded_enclosure_end(gjk_pair *pair, gjk_walk *walk, const gjk_simplex *start) {
    gjk_simplex *s = &walk->simplex, tetra = *s;
    s->count = 3;
    gjk_vec3 v = gjk_simplex_solve(s);
    // Converged: stalled_end's bound above the tolerance (the margin is at
    // least the tolerance).
    gjk_walk_end end = stalled_end(pair, walk, nearer_of(s, start, v, gjk_pair_apart_margin(pair, 0)), tetra.v[3].w);
    // The normal: the simplex's direction where it holds within the
    // tolerance of |v| (normal_bound), else the direction, of those that
    // found the tetrahedron's points, whose bound is the best, where that
    // beats it (review finding: a box and a cylinder 1.95e-6 apart, float,
    // warm, were answered apart along the simplex's direction with the gap
    // −4.6e-5 along it, 25 tolerances). The status stays "apart": the
    // bound proves it, and gjk_intersect says so too.
    gjk_real dir_bound = normal_bound(pair, walk, walk->v);
    if (dir_bound >= gjk_length(walk->v) - gjk_pair_tolerance(pair)) {
        return end;
    }
    for (int m = 0; m < 4; ++m) {
        gjk_real b = support_bound(&tetra.v[m]);
        if (b > dir_bound) {
            dir_bound = b;
            walk->normal = gjk_normalize(tetra.v[m].d);
        }
    }
    return end;
}

/// The end of a walk whose simplex reached the origin: a tetrahedron around
/// it, or a closest point v within the tolerance. A tetrahedron that the
/// bound excludes is rounding: the walk ends as stalled
/// (excluded_enclosure_end). Within the tolerance of the origin after a
/// bound proved the cores apart, they touch, where the normal the queries
/// report holds (normal_holds); else EPA decides. (Where it does not
/// hold, EPA may meet a polytope that does not enclose the origin.) Out of
/// the loop: rare, and its code there slowed the common steps.
static GJK_NOINLINE gjk_walk_end origin_reached(gjk_pair *pair, gjk_walk *walk, gjk_vec3 v, gjk_real tol,
                                                const gjk_simplex *start) {
    if (walk->simplex.count == 4) {
        return bound_excludes_origin(pair, walk) ? excluded_enclosure_end(pair, walk, start) : GJK_WALK_OVERLAP;
    }
    return normal_holds(pair, walk, v, tol) ? GJK_WALK_CONVERGED : GJK_WALK_OVERLAP;
}

/// The triangle s->v[0..2] solved in its own frame (gjk_simplex_needle_solve)
/// and taken, its closest point into *v_new, where that is nearer than
/// `below`; else s is left as it was. (The walk's stalls on needles, f68.)
static bool needle_nearer(gjk_simplex *s, gjk_real below, gjk_vec3 *v_new) {
    gjk_simplex before = *s;
    gjk_vec3 foot;
    if (gjk_simplex_needle_solve(s, &foot) && gjk_length(foot) < below) {
        *v_new = foot;
        return true;
    }
    *s = before;
    return false;
}

/// A segment's stall taken again along v's part square to the segment. On a
/// segment much longer than |v|, v = a + t·e carries ε·|e| of rounding along
/// e, which turns its direction by ε·|e|/|v|; where D's face beyond the
/// segment leans by less than that, the support point along the turned
/// direction is the segment's own end again and the walk stopped, apart by
/// |v| with nothing to prove it: two unit cylinders whose caps overlapped
/// by 2.2e-8, their axes 3.2e-8 rad apart, came out apart by 4.7e-9 (55
/// tolerances; curved-shapes review). Square to e the direction keeps only
/// the rounding of v across e. True when its support point is new and the
/// simplex with it came nearer (*v_new; the walk goes on), else false, the
/// simplex perhaps changed (no_progress puts back its own). Asked by
/// no_progress when no face proved the distance (stalled_segment_face
/// first: below a cone's base, taken first, the walk went on and its normal
/// came out up to 1.3e-5 off where the face gives it exactly), with need 0
/// where w was the segment's own end and the tolerance where it was new (a
/// needle's far end, past the segment's end on its line, found by v̂
/// turned along the needle: f68). Where the signed-area solve of the
/// triangle with the new point comes no nearer by the tolerance, its own
/// frame's solve is asked too (gjk_simplex_needle_solve).
///
/// `need`: how much nearer than |v| the new simplex must come (0: at all).
///
/// With tip ≠ 0, u leans by tip times its length along ê (and the search
/// direction −u the other way): along v (or square to e), the support
/// point is a tie along an edge of D parallel to the segment, and rounding
/// picks its end; the lean picks the other. A float quad and triangle
/// 1.8e-6 apart, edge over face, stalled on a segment 1.25e-4 away along
/// such an edge, whose far end came back every time and whose near end
/// (past the origin's foot) never did: apart by 1.25e-4, 68 times the
/// distance (hull review, test_float_stall_along_parallel_edge).
static GJK_NOINLINE bool square_step(gjk_pair *pair, gjk_walk *walk, gjk_vec3 v, gjk_real vlen, gjk_real tip,
                                     gjk_real need, gjk_vec3 *v_new) {
    gjk_simplex *s = &walk->simplex;
    gjk_vec3 e = gjk_sub(s->v[1].w, s->v[0].w);
    gjk_real ee = gjk_length_sq(e);
    if (!(ee > GJK_SQUARE_MIN && ee < GJK_SQUARE_MAX)) {
        return false;
    }
    gjk_vec3 u = gjk_mul_add(v, -gjk_dot(v, e) / ee, e);
    gjk_real uu = gjk_length_sq(u);
    if (!(uu > GJK_SQUARE_MIN && uu < GJK_SQUARE_MAX)) {
        return false;
    }
    if (tip != 0) {
        // û + tip·ê, scaled by |u|.
        u = gjk_mul_add(u, tip * gjk_sqrt(uu / ee), e);
        uu = gjk_length_sq(u);
    }
    gjk_support_point q = gjk_pair_support(pair, gjk_neg(u));
    if (pair->bad_support) {
        pair->bad_support = false; // a refused point: the stall's answer stands
        return false;
    }
    gjk_real bound = gjk_dot(u, q.w) / gjk_sqrt(uu);
    walk->lower_dir = bound > walk->lower ? q.d : walk->lower_dir;
    walk->lower = gjk_max(bound, walk->lower);
    if (gjk_simplex_has(s, q.w)) {
        return false;
    }
    gjk_real below = gjk_max(vlen - need, 0), tol = gjk_pair_tolerance(pair);
    gjk_simplex segment = *s;
    bool added = gjk_simplex_try_add(s, &q, vlen * vlen, v_new, NULL);
    if (added && gjk_length(*v_new) < vlen - tol) {
        return true;
    }
    // The triangle with q may be a needle, whose signed-area solve slid its
    // foot along it and came back no nearer than the segment (or nearer by
    // rounding): its own frame's solve, taken where it comes nearer by more
    // than the tolerance (fuzz/findings f68: a needle 2.1e-9 thick lying on
    // a hull's vertex, 2e-10 deep, stalled on its edge "apart by 2.95e-9").
    gjk_simplex tried = *s;
    *s = segment;
    s->v[2] = q;
    if (needle_nearer(s, vlen - tol, v_new)) {
        return true;
    }
    *s = tried;
    return added && gjk_length_sq(*v_new) < below * below;
}

/// A plain step that brought no progress: converged (the gap within the
/// tolerance), or w is a point of the simplex again, or its simplex came
/// out no nearer, and rounding has taken over. Returns true with the
/// walk's end in *end, or false, the step taken as a stall, with the new
/// closest point in *v_new (and the simplex before it in *start when
/// `keep`: the walk is at its least |v|). Kept out of the walk's loop.
///
/// When the gap is still above the tolerance, a segment's normal may come
/// from a face (stalled_segment_face, which keeps v along it within the
/// tolerance), and only where v̂'s rounding, ε·L/|v| over a lever L, can
/// exceed the tolerance: elsewhere v̂ is exact enough and the search would
/// only cost support calls (on a curved user shape 4.2 away it once parted
/// the normal from the witnesses by 7e-5, f31). The end is a stall
/// (stalled_end, from the kept simplex when that is nearer),
/// unless the walk is far from its answer (eight tolerances, and never
/// less than eight times the bounds' rounding: a stall within a few is
/// rounding) and no face proved it: then the new point is taken all the
/// same, as a stall. A point far to the side of a segment that lies
/// nearly along D's face tilts the triangle's plane by little and brings
/// it nearer by less than the rounding, yet that plane's normal is the
/// next direction: in float a cylinder and a box 2.4e-6 apart stalled so
/// on a segment 8.3e-4 away (its new point 1.4 to the side and 9e-4 past
/// the origin), and the answer was 8.3e-4. Where the gap is over half of
/// |v| the triangle is kept with w at weight 0 (the closest point and the
/// witnesses stay), as the solve itself may drop w: from a segment 7.4e-5
/// from the origin, a cone's point 1 to the side improved |v|² by 1e-17 of
/// itself. Nearer the answer the solve decides: near a box's edge at a
/// tolerance of 1e-14 the kept triangle's later steps turned the normal by
/// 80 tolerances. (After a face search the simplex is the triangle of its
/// best plane, with v unchanged: its normal serves.)
///
/// Needles (f68): the triangle of a segment and w, or the stalled
/// triangle itself, may be a needle's, whose signed areas slid its point
/// along it; before the stall is taken, that triangle is solved in its own
/// frame (gjk_simplex_needle_solve), and the walk goes on from its answer
/// where that is nearer by more than the tolerance (any such point is a
/// point of D, so |v| stays an upper bound).
static GJK_NOINLINE bool no_progress(gjk_pair *pair, gjk_walk *walk, const gjk_support_point *p, gjk_vec3 v,
                                     gjk_real vlen, gjk_real lower, gjk_real tol, gjk_simplex *start, bool keep,
                                     gjk_vec3 *v_new, gjk_walk_end *end) {
    gjk_simplex *s = &walk->simplex;
    gjk_real gap = vlen - lower;
    bool repeated = gjk_simplex_has(s, p->w); // (before a face search changes s)
    bool stalled = gap > tol, proved = false;
    gjk_real margin = gjk_pair_apart_margin(pair, 0);
    gjk_real L = pair->scale;
    if (stalled && s->count == 2 && vlen * tol < 16 * GJK_REAL_EPSILON * L * L) {
        gjk_simplex segment = *s;
        if (!repeated) {
            // The triangle with w in its own frame (gjk_simplex_needle_solve):
            // a needle's signed areas may have sent the walk back here.
            s->v[2] = *p;
            if (needle_nearer(s, vlen - tol, v_new)) {
                if (keep) {
                    *start = segment;
                }
                return false;
            }
        }
        proved = stalled_segment_face(pair, s, p, v, vlen, lower, tol);
        if (!proved) {
            // The direction square to the segment (where w was new, taken
            // only if it brings |v| down by more than the tolerance); then,
            // far from the answer (eight tolerances), that direction leaning
            // away from w's side along the segment, taken if it brings |v|
            // down by more than the tolerance (by less, rounding: a float
            // quad and box 1.53 apart went on so, |v| the same to 9 digits,
            // and the normal came out turned by 26 tolerances of gap, review).
            gjk_simplex searched = *s;
            gjk_vec3 e = gjk_sub(segment.v[1].w, segment.v[0].w);
            gjk_real side = gjk_dot(gjk_sub(p->w, v), e) > 0 ? 1 : -1; // w's, along e
            *s = segment;
            if (square_step(pair, walk, v, vlen, 0, repeated ? 0 : tol, v_new)) {
                return false;
            }
            *s = segment;
            if (gap > 8 * margin && square_step(pair, walk, v, vlen, side / 256, tol, v_new)) {
                return false;
            }
            *s = searched;
        }
    }
    if (stalled && s->count == 3 && vlen * tol < 16 * GJK_REAL_EPSILON * L * L) {
        // The triangle's own point may be a needle's signed areas' (see
        // gjk_simplex_needle_solve): its own frame's, where nearer. (Where
        // the segment's search runs too: near enough that rounding of the
        // order of ε·L²/|v| can exceed the tolerance.)
        gjk_simplex triangle = *s;
        if (needle_nearer(s, vlen - tol, v_new)) {
            if (keep) {
                *start = triangle;
            }
            return false;
        }
    }
    if (!stalled || proved || gap <= 8 * margin || repeated) {
        *end = stalled ? stalled_end(pair, walk, proved ? v : nearer_of(s, start, v, margin), p->w) : GJK_WALK_CONVERGED;
        return true;
    }
    if (keep) {
        *start = *s;
    }
    if (s->count == 2 && gap > GJK_R(0.5) * vlen) {
        s->v[2] = *p;
        s->lambda[2] = 0;
        s->count = 3;
        *v_new = v;
    } else if (s->count == 3) {
        *v_new = v;
    } else {
        gjk_simplex_try_add(s, p, GJK_REAL_MAX, v_new, NULL);
    }
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
    gjk_simplex start; // where the last run of stalls began (nearer_of)
    start.count = 0;
    cycle.count = 0;
    cycle.repeats = 0;
    // Secant state: the last three support calls (the simplex's starting
    // points that bound D first) and the rules' bookkeeping (internal.h,
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
            return origin_reached(pair, walk, v, tol, &start);
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
            // the bound excludes it (bound_excludes_origin: rounding), or
            // does not halve the least duality gap seen is a miss, and the
            // next step is plain. One whose own bound comes within the
            // tolerance is followed by a plain step, which certifies v̂.
            gjk_simplex saved = *s;
            bool nearer = !gjk_simplex_has(s, p.w) && gjk_simplex_try_add(s, &p, vv, &v_new, NULL) &&
                          gjk_length_sq(v_new) < vv && (s->count < 4 || !bound_excludes_origin(pair, walk));
            if (!nearer) {
                *s = saved;
                gjk_secant_missed(&rules);
                continue;
            }
            gjk_secant_kept(&rules, gjk_sqrt(gjk_length_sq(v_new)), walk->lower, vlen - lower <= tol);
        } else {
            // The simplex at the least |v| seen is kept when a stall
            // begins there (a tetrahedron solved back to a farther face,
            // or a point taken in no_progress), to be the answer if the
            // walk ends farther than it (nearer_of): a float walk between
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
                if (no_progress(pair, walk, &p, v, vlen, lower, tol, &start, keep, &v_new, &end)) {
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
                return stalled_end(pair, walk, nearer_of(s, &start, v_new, gjk_pair_apart_margin(pair, 0)), p.w);
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
