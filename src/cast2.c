// 2D ray casts and linear shape casts by the GJK ray cast: the twin of
// cast.c, on the 2D pair, simplex and support functions.
//
// van den Bergen, "Ray casting against general convex objects with
// application to continuous collision detection" (2004). B translates by λ·r
// (A's frame) against a fixed A, so the Minkowski difference of the cores at
// λ is D(λ) = D(0) − λr, and B first comes within the target distance of A
// when the ray λ·r from the origin comes within target + radii of D(0). The
// walk keeps the current λ and a simplex of points of D(λ):
//   v, the point of the simplex closest to the origin;
//   w, the support point of D(λ) against v: D(λ) lies beyond the line
//      through w normal to v, at distance v̂·w from the origin;
//   while that line is farther than the target, no contact can happen
//   before the line has moved that far: λ advances by (v̂·w − target)/(v̂·r)
//   exactly to it (never past a contact), and if the motion does not
//   approach the line (v̂·r ≤ 0), it never will: a miss.
// A ray is the cast of a point shape. Every advance is conservative, so thin
// shapes are never tunnelled through. The pair's B moves with λ, so every
// support point is computed at the current pose (see advance()). When v lies
// inside a simplex segment, the search direction is the segment's
// perpendicular (gjk2_simplex_direction), which stays accurate when the
// cores nearly touch.
#include <string.h>

#include "internal2.h"

/// The walk's answer in A's frame.
typedef struct cast2_walk {
    gjk_status status; ///< GJK_HIT, GJK_MISS, GJK_NOT_CONVERGED or GJK_INVALID_INPUT.
    gjk_real lambda;
    gjk_vec2 point_a;  ///< On A's rounded surface at the hit.
    gjk_vec2 normal;   ///< Unit, from A to B (zero when the hit is at λ = 0).
    int iterations;
} cast2_walk;

/// Moves B (and the points of B of the simplex and of q) on by delta·r: B's
/// position in the pair always is its position at the current λ, so support
/// points are computed at the current pose, as in a plain query. The
/// tolerance scale is then reset to the points at hand: a cast that starts
/// far away converges to the accuracy of the contact, not of its starting
/// distance.
static void advance(gjk2_pair *p, gjk2_simplex *s, gjk2_support_point *q, gjk_vec2 r, gjk_real delta) {
    gjk_vec2 step = gjk_scale2(delta, r);
    p->pos_b = gjk_add2(p->pos_b, step);
    p->scale = gjk_max(gjk2_shape_size(p->a), gjk2_shape_size(p->b));
    for (int m = 0; m <= s->count; ++m) {
        gjk2_support_point *sp = m < s->count ? &s->v[m] : q;
        sp->b = gjk_add2(sp->b, step);
        sp->w = gjk_sub2(sp->a, sp->b);
        p->scale = gjk_max(p->scale, gjk2_max_abs(sp->w));
    }
}

static cast2_walk cast_run(gjk2_pair *p, gjk_vec2 r, gjk_real max_lambda, gjk_real target, int max_iterations) {
    cast2_walk out;
    memset(&out, 0, sizeof out);
    gjk_real stop = p->radius + target; // core distance at which the rounded shapes are `target` apart
    gjk_real lambda = 0;
    gjk_vec2 n = gjk_v2(0, 0);
    gjk2_simplex s;
    s.v[0] = gjk2_pair_support(p, gjk2_pair_start_direction(p));
    s.count = 1;
    s.lambda[0] = 1;
    gjk_vec2 v = s.v[0].w;
    for (;;) {
        gjk_real vv = gjk_length_sq2(v);
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
        gjk_real tol = gjk2_pair_tolerance(p);
        if (s.count == 3 || vlen <= stop + tol) {
            break; // within the target: a hit at λ
        }
        if (out.iterations >= max_iterations) {
            out.status = GJK_NOT_CONVERGED;
            out.lambda = lambda;
            return out;
        }
        ++out.iterations;
        gjk_vec2 d = gjk2_simplex_direction(&s, v);
        gjk_vec2 dn = gjk_normalize2(d);
        gjk2_support_point q = gjk2_pair_support(p, gjk_neg2(d));
        if (p->bad_support) {
            out.status = GJK_INVALID_INPUT;
            return out;
        }
        gjk_real lower = gjk_dot2(dn, q.w);
        bool advanced = false;
        if (lower > stop) {
            // The line normal to v through q separates by more than the
            // target: advance to it, or miss if the motion never closes it.
            gjk_real rd = gjk_dot2(r, dn);
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
            n = gjk_neg2(dn);
            advance(p, &s, &q, r, delta);
            // The simplex moved with B: its closest point at the new λ is
            // the bound a new point must beat.
            v = gjk2_simplex_solve(&s);
            vv = gjk_length_sq2(v);
        }
        // The new point is taken when it brings the simplex no farther
        // (a tie is taken: in float, refusing ties stalled casts that pass
        // 1e-4 apart) and always when the triangle encloses the origin;
        // rounding can make a nearly degenerate simplex come back farther
        // than the one it extends, which is then not taken.
        bool added = false;
        if (!gjk2_simplex_has(&s, q.w)) {
            gjk2_simplex saved = s;
            s.v[s.count++] = q;
            gjk_vec2 v_new = gjk2_simplex_solve(&s);
            added = s.count == 3 || gjk_length_sq2(v_new) <= vv;
            if (added) {
                v = v_new;
            } else {
                s = saved;
            }
        }
        if (!advanced && !added) {
            // No progress at this λ while the line through q is within the
            // target: rounding has taken over, as at the end of a walk, a hit.
            // (After an advance the simplex has moved, so the walk goes on.)
            break;
        }
    }
    // A hit at λ: the normal as in cast.c, the last advance's unless the
    // simplex's direction proves the target within the tolerance too; the
    // contact point on A's rounded surface.
    gjk_real tol = gjk2_pair_tolerance(p);
    if (s.count < 3 && gjk_length2(v) > tol) {
        gjk_vec2 dn = gjk_normalize2(gjk2_simplex_direction(&s, v));
        bool take = gjk_length_sq2(n) == 0; // no advance: the only direction
        if (!take) {
            gjk2_support_point q = gjk2_pair_support(p, gjk_neg2(dn));
            take = !p->bad_support && gjk_dot2(dn, q.w) >= stop - tol; // a refused point proves nothing (cast.c)
            p->bad_support = false; // the answer stands without this check
        }
        if (take) {
            n = gjk_neg2(dn);
        }
    }
    gjk_vec2 ca, cb;
    gjk2_simplex_witness(&s, &ca, &cb);
    out.status = GJK_HIT;
    out.lambda = lambda;
    out.normal = n;
    out.point_a = gjk_mul_add2(ca, gjk2_core_radius(p->a), n);
    return out;
}

static gjk2_cast_output invalid_output(void) {
    gjk2_cast_output out;
    memset(&out, 0, sizeof out);
    out.status = GJK_INVALID_INPUT;
    return out;
}

/// Runs a cast and fills the public answer. A hit before any advance means
/// the shapes start within the target: the penetration query at the start
/// then tells overlapping from touching and gives the normal.
static gjk2_cast_output cast_answer_run(const gjk2_shape *a, gjk_transform2 ta, const gjk2_shape *b, gjk_transform2 tb,
                                    gjk_vec2 translation, gjk_real max_lambda, gjk_real target,
                                    const gjk_options *options) {
    gjk2_cast_output out = invalid_output();
    gjk2_pair p;
    gjk_transform2 xa;
    if (!gjk_options_valid(options) || !gjk_is_valid_vec2(translation) || !gjk_is_valid_real(max_lambda) ||
        max_lambda < 0 || !gjk_is_valid_real(target) || target < 0 ||
        !gjk2_pair_init(&p, a, &ta, b, &tb, options, &xa)) {
        return out;
    }
    gjk_vec2 r = gjk_rot2_inv_apply(xa.rotation, translation);
    int cap = options->max_iterations > 0 ? options->max_iterations : GJK_DEFAULT_MAX_ITERATIONS;
    cast2_walk c = cast_run(&p, r, max_lambda, target, cap);
    if (c.status == GJK_INVALID_INPUT) {
        return out;
    }
    out.iterations = c.iterations;
    out.status = c.status;
    if (c.status != GJK_HIT) {
        out.t = c.status == GJK_NOT_CONVERGED ? c.lambda : 0;
        return out;
    }
    out.hit = true;
    if (c.lambda > 0 && gjk_length_sq2(c.normal) > 0) {
        out.t = c.lambda;
        out.point = gjk_transform2_point(xa, c.point_a);
        out.normal = gjk_rot2_apply(xa.rotation, c.normal);
        return out;
    }
    gjk2_query_input q = {a, ta, b, tb, *options};
    q.options.trace = NULL;
    q.options.max_distance = 0; // the contact's normal and point, not a bound (the target separation may exceed it)
    q.transform_b.position = gjk_mul_add2(tb.position, c.lambda, translation);
    gjk2_penetration_output pen = gjk2_penetration(&q, NULL);
    gjk_status st = pen.status == GJK_INVALID_INPUT ? GJK_INVALID_INPUT
                    : c.lambda == 0                 ? gjk2_cast_start_status(&q, pen.status)
                    : pen.status == GJK_NOT_CONVERGED ? GJK_NOT_CONVERGED
                                                      : GJK_HIT;
    if (st == GJK_INVALID_INPUT) {
        return invalid_output();
    }
    if (st == GJK_NOT_CONVERGED) {
        // No normal known (a small options.max_iterations): safe up to λ,
        // as in 3D.
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

gjk_status gjk2_cast_start_status(const gjk2_query_input *q, gjk_status pen) {
    gjk_status st = pen == GJK_NOT_CONVERGED ? gjk2_intersect(q).status : pen;
    return st == GJK_PENETRATING                                   ? GJK_INITIALLY_OVERLAPPING
           : st == GJK_NOT_CONVERGED || st == GJK_INVALID_INPUT ? st
                                                                : GJK_HIT;
}

static gjk2_cast_output cast_answer(const gjk2_shape *a, gjk_transform2 ta, const gjk2_shape *b, gjk_transform2 tb,
                                    gjk_vec2 translation, gjk_real max_lambda, gjk_real target,
                                    const gjk_options *options) {
    return gjk2_cast_finite(cast_answer_run(a, ta, b, tb, translation, max_lambda, target, options));
}

gjk2_cast_output gjk2_shapecast(const gjk2_shapecast_input *in) {
    if (in == NULL) {
        return invalid_output();
    }
    return cast_answer(in->shape_a, in->transform_a, in->shape_b, in->transform_b, in->translation_b, 1,
                       in->target_separation, &in->options);
}

gjk2_cast_output gjk2_raycast(const gjk2_raycast_input *in) {
    if (in == NULL || !gjk_is_valid_vec2(in->origin)) {
        return invalid_output();
    }
    // The ray is a point shape at the origin moving along the direction.
    gjk2_shape point = gjk2_make_point();
    gjk_transform2 at = {in->origin, gjk_rot2_identity()};
    gjk2_cast_output out = cast_answer(in->shape, in->transform, &point, at, in->direction, in->max_t, 0, &in->options);
    if (out.hit && out.status == GJK_HIT && out.t == 0) {
        // Starting on the surface counts as starting inside: no entry point.
        out.status = GJK_INITIALLY_OVERLAPPING;
    }
    if (out.status == GJK_INITIALLY_OVERLAPPING) {
        out.point = in->origin;
    } else if (out.status == GJK_HIT) {
        // The ray's own point at t (see gjk_raycast).
        out.point = gjk_mul_add2(in->origin, out.t, in->direction);
        out = gjk2_cast_finite(out);
    }
    return out;
}
