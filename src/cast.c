// Ray casts and linear shape casts by the GJK ray cast.
//
// van den Bergen, "Ray casting against general convex objects with
// application to continuous collision detection" (2004). B translates by λ·r
// (A's frame) against a fixed A, so the Minkowski difference of the cores at
// λ is D(λ) = D(0) − λr, and B first comes within the target distance of A
// when the ray λ·r from the origin comes within target + radii of D(0). The
// walk keeps a simplex of points of D(0) and the current λ:
//   v, the point of the simplex at λ closest to the origin;
//   w, the support point of D(λ) against v: D(λ) lies beyond the plane
//      through w normal to v, at distance v̂·w from the origin;
//   while that plane is farther than the target, no contact can happen
//   before the plane has moved that far: λ advances by (v̂·w − target)/(v̂·r)
//   exactly to it (never past a contact), and if the motion does not
//   approach the plane (v̂·r ≤ 0), it never will: a miss.
// A ray is the cast of a point shape. Every advance is conservative, so thin
// shapes are never tunnelled through, whatever the direction of the plane
// (between smooth cores the walk also takes secant steps, gjk.c). The
// pair's B moves with λ, so every support point is computed at the current
// pose (see advance()).
#include <string.h>

#include "secant.h"

/// The walk's answer in A's frame.
typedef struct cast_walk {
    gjk_status status;  ///< GJK_HIT, GJK_MISS, GJK_NOT_CONVERGED or GJK_INVALID_INPUT.
    gjk_real lambda;
    gjk_vec3 point_a;   ///< On A's rounded surface at the hit.
    gjk_vec3 normal;    ///< Unit, from A to B (zero when the hit is at λ = 0).
    int iterations;
    /// A hit proved at λ (|v| within the target), not one that rests on a
    /// stall (cast_answer_run checks those).
    bool proved;
    gjk_real tol; ///< The walk's absolute tolerance at its end.
} cast_walk;

/// Moves B (and the simplex's points of B) on by delta·r: B's position in
/// the pair always is its position at the current λ, so support points are
/// computed at the current pose, as in a plain query. The tolerance scale is
/// then reset to the points at hand: a cast that starts far away converges
/// to the accuracy of the contact, not of its starting distance.
static void advance(gjk_pair *p, gjk_simplex *s, gjk_support_point *q, gjk_secant_ring *ring, gjk_vec3 r,
                    gjk_real delta) {
    gjk_vec3 step = gjk_scale(delta, r);
    p->pos_b = gjk_add(p->pos_b, step);
    p->scale = gjk_max(gjk_shape_size(p->a), gjk_shape_size(p->b));
    for (int m = 0; m <= s->count; ++m) {
        gjk_support_point *sp = m < s->count ? &s->v[m] : q;
        sp->b = gjk_add(sp->b, step);
        sp->w = gjk_sub(sp->a, sp->b);
        p->scale = gjk_max(p->scale, gjk_max_abs(sp->w));
    }
    // The secant steps' points are D's support points at the old pose: D
    // has moved by −step, and its support map with it.
    for (int m = 0; m < ring->count; ++m) {
        ring->w[m] = gjk_sub(ring->w[m], step);
    }
}

static cast_walk cast_run(gjk_pair *p, gjk_vec3 r, gjk_real max_lambda, gjk_real target, int max_iterations) {
    cast_walk out;
    memset(&out, 0, sizeof out);
    gjk_real stop = p->radius + target; // core distance at which the rounded shapes are `target` apart
    gjk_real lambda = 0;
    gjk_vec3 n = gjk_v3_zero();
    gjk_simplex s;
    s.v[0] = gjk_pair_support(p, gjk_pair_start_direction(p));
    s.count = 1;
    gjk_vec3 v = s.v[0].w;
    s.lambda[0] = 1;
    int stalls = 0; // steps in a row whose tetrahedron came back no nearer (see gjk.c)
    // Secant steps (gjk.c, "Secant steps") when both cores are smooth
    // (ellipsoids and points: a ray or a ball against an ellipsoid, two
    // ellipsoids). Against cylinders, cones and boxes they were measured to
    // gain little or to cost (a ray against a cone: 20% more iterations).
    // Only after a first advance: at λ = 0 plain steps decide whether the
    // shapes start within the target (a secant plane separating them by
    // rounding turned a third of casts that start touching and move apart
    // from a hit at 0 into misses). A secant step that neither advances λ
    // nor halves the least gap to the target seen at this λ is a miss: a
    // plain step follows, and after GJK_SECANT_MISSES the cast goes on
    // plain. Only plain steps may end it on a stall.
    bool smooth = gjk_core_smooth(p->a) && gjk_core_smooth(p->b);
    gjk_secant_ring ring;
    ring.count = 0;
    if (smooth) {
        gjk_secant_push(&ring, gjk_normalize(s.v[0].d), s.v[0].w);
    }
    int misses = 0;
    bool plain_next = false;
    gjk_real best_gap = GJK_REAL_MAX; // the least |v| − stop at this λ
    bool proved = true;
    for (;;) {
        gjk_real vv = gjk_length_sq(v);
        if (!(vv <= GJK_REAL_MAX)) {
            // |v|² overflowed (finite coordinates above √GJK_REAL_MAX): the
            // search direction and the bounds would not be finite. Reported
            // as the walk reports it (gjk.c), as invalid input.
            p->bad_support = true;
        }
        if (p->bad_support) {
            out.status = GJK_INVALID_INPUT;
            return out;
        }
        gjk_real vlen = gjk_sqrt(vv);
        gjk_real tol = gjk_pair_tolerance(p);
        if (s.count == 4 || vlen <= stop + tol) {
            break; // within the target: a hit at λ
        }
        if (out.iterations >= max_iterations) {
            out.status = GJK_NOT_CONVERGED; // (cast_answer_run checks it as a stalled hit)
            out.lambda = lambda;
            out.tol = tol;
            return out;
        }
        ++out.iterations;
        best_gap = gjk_min(best_gap, vlen - stop);
        gjk_vec3 u;
        bool secant = smooth && lambda > 0 && !plain_next && ring.count == 3 && misses < GJK_SECANT_MISSES &&
                      vlen - stop > GJK_SECANT_ROUNDING * p->scale && gjk_secant_direction(&ring, vlen, &u);
        plain_next = false;
        gjk_vec3 d = secant ? gjk_neg(u) : gjk_simplex_direction(&s, v);
        gjk_vec3 dn = gjk_normalize(d);
        gjk_support_point q = gjk_pair_support(p, gjk_neg(d));
        if (p->bad_support) {
            out.status = GJK_INVALID_INPUT;
            return out;
        }
        gjk_real lower = gjk_dot(dn, q.w);
        if (smooth) {
            gjk_secant_push(&ring, gjk_neg(dn), q.w);
        }
        bool advanced = false;
        if (lower > stop) {
            // The plane normal to v through q separates by more than the
            // target: advance to it, or miss if the motion never closes it.
            gjk_real rd = gjk_dot(r, dn);
            if (!(rd > 0)) {
                out.status = GJK_MISS;
                return out;
            }
            gjk_real delta = (lower - stop) / rd;
            gjk_real next = lambda + delta;
            if (!(next <= max_lambda)) {
                out.status = GJK_MISS;
                return out;
            }
            // An advance too small to change λ (rounding) changes nothing:
            // the walk must still make progress at this λ.
            advanced = next > lambda;
            lambda = next;
            n = gjk_neg(dn);
            advance(p, &s, &q, &ring, r, delta);
            best_gap = GJK_REAL_MAX;
            // The simplex moved with B: its closest point at the new λ is
            // the bound a new point must beat.
            v = gjk_simplex_solve(&s);
            vv = gjk_length_sq(v);
            if (advanced) {
                stalls = 0;
            }
        }
        // The new point is taken when it brings the simplex no farther
        // (gjk_simplex_try_add, as in the walk, with ties to a few ulps
        // taken: in float, refusing them stalled rays that pass clear of a
        // cylinder). Rounding can make a nearly degenerate triangle or
        // tetrahedron come back farther than the simplex it extends (three
        // points of D on one generator of a cone gave a triangle 1.2e-4 away
        // where its edge was 2e-9 away): such a simplex is not taken.
        gjk_vec3 v_new;
        gjk_real vv_tie = vv * (1 + 4 * GJK_REAL_EPSILON);
        gjk_simplex saved;
        if (secant) {
            saved = s; // restored if the step leaves the simplex no nearer
        }
        bool added = !gjk_simplex_has(&s, q.w) && gjk_simplex_try_add(&s, &q, vv_tie, &v_new, NULL);
        if (secant) {
            // Progress: an advance, or the least gap to the target at this
            // λ at least halved; it resets the plain steps' stall count.
            // Otherwise a miss (not a stall: the direction was the
            // model's), and the next step is plain. A simplex no nearer (a
            // tetrahedron solved back to a farther face) is not kept.
            bool nearer = added && gjk_length_sq(v_new) < vv;
            if (added && !nearer) {
                s = saved;
            }
            if (advanced || (nearer && gjk_length(v_new) - stop <= GJK_R(0.5) * best_gap)) {
                stalls = 0;
            } else {
                ++misses;
                plain_next = true;
            }
            if (nearer) {
                v = v_new;
            }
            continue;
        }
        if (added) {
            stalls = gjk_length_sq(v_new) < vv ? 0 : stalls + 1;
            v = v_new;
        }
        if (!advanced && (!added || stalls >= 4)) {
            // No progress at this λ while the plane through q is within the
            // target: rounding has taken over, as at the end of a walk, a hit.
            // (After an advance the simplex has moved, so the walk goes on.)
            // The distance at λ lies between the plane's and |v|, which can
            // still differ by ~1e-8 of the size (near a cylinder's rim, along
            // a box's face or a thin triangle: the direction of a segment's
            // closest point carries ε·|segment|/|v|): not proved, and
            // cast_answer_run asks the distance query at λ.
            proved = false;
            break;
        }
    }
    // A hit at λ. The last advance's plane touches D(λ) at exactly the
    // target distance, so its normal is a contact normal within the
    // tolerance. The simplex's direction, when the cores are apart, is
    // usually the sharper one on curved shapes and is taken instead when
    // D lies beyond the plane along it within the tolerance of the target
    // (one support call checks): rounding can turn it when v is small
    // (the foot of the origin on a long thin triangle: in float, a wrong
    // side). A walk that made no advance (one restarted by cast_answer_run)
    // has no plane and takes its direction unchecked: with |v| a few
    // tolerances the direction of a segment's closest point can be off by
    // ε·|segment|/|v| (fuzz finding f67: 0.06 rad in float, on a cone's
    // side line), so cast_answer_run weighs it against the distance
    // query's when the hit rests on a stall. The contact point lies on A's
    // rounded surface.
    gjk_real tol = gjk_pair_tolerance(p);
    if (s.count < 4 && gjk_length(v) > tol) {
        gjk_vec3 dn = gjk_normalize(gjk_simplex_direction(&s, v));
        bool take = gjk_length_sq(n) == 0; // no advance: the only direction
        if (!take) {
            gjk_support_point q = gjk_pair_support(p, gjk_neg(dn));
            // A refused point (not finite, or beyond GJK_POINT_MAX) comes
            // back as 0, which proves nothing.
            take = !p->bad_support && gjk_dot(dn, q.w) >= stop - tol;
            p->bad_support = false; // the answer stands without this check
        }
        if (take) {
            n = gjk_neg(dn);
        }
    }
    gjk_vec3 ca, cb;
    gjk_simplex_witness(&s, &ca, &cb);
    out.status = GJK_HIT;
    out.lambda = lambda;
    out.normal = n;
    out.point_a = gjk_mul_add(ca, gjk_core_radius(p->a), n);
    out.proved = proved;
    out.tol = tol;
    return out;
}

/// The most distance checks of stalled hits in one cast (cast_answer_run);
/// beyond, the cast is not converged, safe up to its λ.
#define GJK_CAST_CHECKS 16

/// What the distance query at a walk's λ found (stalled_check).
typedef enum cast_check {
    CHECK_HIT,     ///< The shapes are within the target there (within the tolerance).
    CHECK_APART,   ///< Proved apart beyond the target up to *next.
    CHECK_UNKNOWN, ///< The query did not converge (a small options.max_iterations): nothing proved.
    CHECK_INVALID, ///< The query found the input invalid (an overflow).
} cast_check;

/// The gap between the origin and D's plane normal to n (unit, from A to
/// B, in A's frame), less the radii: −∞ when the support is refused.
static gjk_real normal_gap(gjk_pair *p, gjk_vec3 n) {
    gjk_real gap = -gjk_dot(gjk_pair_support(p, n).w, n) - p->radius;
    if (p->bad_support) {
        p->bad_support = false;
        return -GJK_REAL_MAX;
    }
    return gap;
}

/// A hit that rests on a stall (cast_walk.proved false), or a walk out of
/// iterations, checked by the distance query at its λ (world poses ta and
/// tb moved by λ·translation; p the pair at that λ, r the motion in A's
/// frame). CHECK_APART: *next receives the λ up to which the shapes are
/// proved apart by more than the target: the gap along the query's normal,
/// measured by the pair's own supports, closes no faster than the motion
/// along it (a miss when it does not close, *next then beyond max_lambda).
/// *d receives the query's answer.
static cast_check stalled_check(const gjk_shape *a, gjk_transform ta, const gjk_shape *b, gjk_transform tb,
                                gjk_vec3 translation, gjk_real lambda, const gjk_options *options, gjk_pair *p,
                                gjk_vec3 r, gjk_quat qa, gjk_real target, gjk_real tol, gjk_real *next,
                                gjk_distance_output *d) {
    gjk_query_input q = {a, ta, b, tb, *options};
    q.options.trace = NULL;
    q.options.max_distance = 0; // the distance itself, not a lower bound
    q.transform_b.position = gjk_mul_add(tb.position, lambda, translation);
    *d = gjk_distance(&q, NULL);
    if (d->status == GJK_INVALID_INPUT) {
        return CHECK_INVALID;
    }
    if (d->status == GJK_NOT_CONVERGED) {
        return CHECK_UNKNOWN; // (a review found such ends taken as hits 0.59 apart)
    }
    if (d->status != GJK_SEPARATED) {
        return CHECK_HIT; // touching or overlapping
    }
    gjk_vec3 n = gjk_quat_inv_rotate(qa, d->normal);
    gjk_real gap = normal_gap(p, n);
    if (gap == -GJK_REAL_MAX) {
        return CHECK_UNKNOWN;
    }
    if (!(gap > target + tol)) {
        return CHECK_HIT;
    }
    gjk_real closing = -gjk_dot(r, n);
    *next = closing > 0 ? lambda + (gap - target) / closing : GJK_REAL_MAX;
    return *next > lambda ? CHECK_APART : CHECK_HIT; // a step below the resolution of λ: the contact is at λ
}

/// Runs a cast and fills the public answer. A hit before any advance means
/// the shapes start within the target: the penetration query at the start
/// then tells overlapping from touching and gives the normal.
static gjk_cast_output cast_answer_run(const gjk_shape *a, gjk_transform ta, const gjk_shape *b, gjk_transform tb,
                                   gjk_vec3 translation, gjk_real max_lambda, gjk_real target,
                                   const gjk_options *options) {
    gjk_cast_output out;
    memset(&out, 0, sizeof out);
    out.status = GJK_INVALID_INPUT;
    gjk_pair p;
    gjk_transform xa;
    if (!gjk_options_valid(options) || !gjk_is_valid_vec3(translation) || !gjk_is_valid_real(max_lambda) ||
        max_lambda < 0 || !gjk_is_valid_real(target) || target < 0 ||
        !gjk_pair_init(&p, a, &ta, b, &tb, options, &xa)) {
        return out;
    }
    gjk_vec3 r = gjk_quat_inv_rotate(xa.rotation, translation);
    int cap = options->max_iterations > 0 ? options->max_iterations : GJK_DEFAULT_MAX_ITERATIONS;
    cast_walk c = cast_run(&p, r, max_lambda, target, cap);
    // A hit on a stall is checked at its λ; where the shapes prove apart
    // there, the cast goes on from the λ they are proved apart up to, with
    // a fresh walk (review finding: rays along a box's face 1e-8 above it,
    // past a triangle 3.7e-9 clear, came back hits). A walk that ran out of
    // iterations is checked alike: a ray grazing a cone's side, where the
    // walk converges slowly, is a hit when the distance query finds it
    // touching (review: not converged). `start` is where the current walk
    // began, `used` the iterations of the walks before.
    gjk_real start = 0;
    int used = 0;
    for (int checks = 0; (c.status == GJK_HIT && !c.proved) || c.status == GJK_NOT_CONVERGED; ++checks) {
        gjk_real lambda = start + c.lambda, next = lambda;
        gjk_distance_output d;
        used += c.iterations;
        c.iterations = 0;
        cast_check check =
            stalled_check(a, ta, b, tb, translation, lambda, options, &p, r, xa.rotation, target, c.tol, &next, &d);
        if (check == CHECK_INVALID) {
            return out;
        }
        if (check == CHECK_UNKNOWN) {
            c.status = GJK_NOT_CONVERGED; // safe up to λ
            break;
        }
        if (check == CHECK_HIT) {
            // The contact at λ. Of the walk's normal and the distance
            // query's (which it has when the cores are apart), the one
            // whose plane D lies farther beyond is the sharper: the
            // distance is the largest such gap over all normals. The
            // query's normal, and its point with it, replaces the walk's
            // only when its gap is larger by more than the tolerance: in
            // float the query's own normal can be as far off as the
            // walk's (a small shape against a long segment: review, 66 of
            // 4.9 million casts worse when it was taken on any gain).
            // Neither: the penetration query's below.
            gjk_vec3 qn = gjk_quat_inv_rotate(xa.rotation, d.normal);
            bool walk = c.status == GJK_HIT && gjk_length_sq(c.normal) > 0;
            bool query = gjk_length_sq(d.normal) > 0;
            if (query && (!walk || normal_gap(&p, qn) > normal_gap(&p, c.normal) + c.tol)) {
                c.normal = qn;
                c.point_a = gjk_inv_transform_point(xa, d.point_a);
            } else if (!walk) {
                c.normal = gjk_v3_zero();
            }
            c.status = GJK_HIT;
            break;
        }
        if (!(next <= max_lambda)) {
            c.status = GJK_MISS;
            break;
        }
        if (checks + 1 >= GJK_CAST_CHECKS) {
            // Safe up to λ, the contact not found.
            c.status = GJK_NOT_CONVERGED;
            c.lambda = next - start;
            break;
        }
        gjk_transform tb_next = tb;
        tb_next.position = gjk_mul_add(tb.position, next, translation);
        if (!gjk_pair_init(&p, a, &ta, b, &tb_next, options, &xa)) {
            return out;
        }
        start = next;
        if (used < cap) {
            c = cast_run(&p, r, max_lambda - next, target, cap - used);
        } else {
            // The walks' iterations are spent: the next check is at `next`
            // (a step of conservative advancement by the distance query).
            c.status = GJK_NOT_CONVERGED;
            c.lambda = 0;
            c.iterations = 0;
            c.tol = gjk_pair_tolerance(&p);
        }
    }
    if (c.status == GJK_INVALID_INPUT) {
        return out;
    }
    c.lambda = start + c.lambda;
    c.iterations += used;
    out.iterations = c.iterations;
    out.status = c.status;
    if (c.status != GJK_HIT) {
        out.t = c.status == GJK_NOT_CONVERGED ? c.lambda : 0;
        return out;
    }
    out.hit = true;
    if (c.lambda > 0 && gjk_length_sq(c.normal) > 0) {
        out.t = c.lambda;
        out.point = gjk_transform_point(xa, c.point_a);
        out.normal = gjk_quat_rotate(xa.rotation, c.normal);
        return out;
    }
    gjk_query_input q = {a, ta, b, tb, *options};
    q.options.trace = NULL;
    q.options.max_distance = 0; // the contact's normal and point, not a bound (the target separation may exceed it)
    gjk_transform tb_at = tb;
    tb_at.position = gjk_mul_add(tb.position, c.lambda, translation);
    q.transform_b = tb_at;
    gjk_penetration_output pen = gjk_penetration(&q, NULL);
    gjk_status st = pen.status == GJK_INVALID_INPUT ? GJK_INVALID_INPUT
                    : c.lambda == 0                 ? gjk_cast_start_status(&q, pen.status)
                    : pen.status == GJK_NOT_CONVERGED ? GJK_NOT_CONVERGED
                                                      : GJK_HIT;
    if (st == GJK_INVALID_INPUT) {
        // (A user's support may refuse a direction only some queries ask.)
        memset(&out, 0, sizeof out);
        out.status = GJK_INVALID_INPUT;
        return out;
    }
    if (st == GJK_NOT_CONVERGED) {
        // No normal known (a small options.max_iterations): safe up to λ.
        out.hit = false;
        out.status = GJK_NOT_CONVERGED;
        out.t = c.lambda;
        return out;
    }
    out.status = st;
    out.t = c.lambda;
    out.point = pen.point_a;
    out.normal = pen.normal;
    return out;
}

gjk_status gjk_cast_start_status(const gjk_query_input *q, gjk_status pen) {
    gjk_status st = pen == GJK_NOT_CONVERGED ? gjk_intersect(q).status : pen;
    return st == GJK_PENETRATING                                   ? GJK_INITIALLY_OVERLAPPING
           : st == GJK_NOT_CONVERGED || st == GJK_INVALID_INPUT ? st
                                                                : GJK_HIT;
}

static gjk_cast_output cast_answer(const gjk_shape *a, gjk_transform ta, const gjk_shape *b, gjk_transform tb,
                                   gjk_vec3 translation, gjk_real max_lambda, gjk_real target,
                                   const gjk_options *options) {
    return gjk_cast_finite(cast_answer_run(a, ta, b, tb, translation, max_lambda, target, options));
}

gjk_cast_output gjk_shapecast(const gjk_shapecast_input *in) {
    if (in == NULL) {
        gjk_cast_output none;
        memset(&none, 0, sizeof none);
        none.status = GJK_INVALID_INPUT;
        return none;
    }
    return cast_answer(in->shape_a, in->transform_a, in->shape_b, in->transform_b, in->translation_b, 1,
                       in->target_separation, &in->options);
}

gjk_cast_output gjk_raycast(const gjk_raycast_input *in) {
    gjk_cast_output out;
    memset(&out, 0, sizeof out);
    out.status = GJK_INVALID_INPUT;
    if (in == NULL || !gjk_is_valid_vec3(in->origin)) {
        return out;
    }
    // The ray is a point shape at the origin moving along the direction.
    gjk_shape point = gjk_make_point();
    gjk_transform at = gjk_transform_make(in->origin, gjk_quat_identity());
    out = cast_answer(in->shape, in->transform, &point, at, in->direction, in->max_t, 0, &in->options);
    if (out.hit && out.status == GJK_HIT && out.t == 0) {
        // Starting on the surface counts as starting inside: no entry point.
        out.status = GJK_INITIALLY_OVERLAPPING;
    }
    if (out.status == GJK_INITIALLY_OVERLAPPING) {
        out.point = in->origin;
    } else if (out.status == GJK_HIT) {
        // The ray's own point at t, within the tolerance of the surface. The
        // simplex's witness on A is exact only to about √(2·R·tolerance) on
        // a curved surface (README, "Tolerances"): 2.9e-5 off the ray, on an
        // ellipsoid of radii (3, 1, 4.75) (fuzz finding f28).
        out.point = gjk_mul_add(in->origin, out.t, in->direction);
        out = gjk_cast_finite(out);
    }
    return out;
}
