// Closed forms for pairs whose cores are points or segments: spheres,
// capsules, segments and points. Their core distance is the distance between
// two segments (a point is a segment of length zero), found directly instead
// of by GJK iterations, in a frame with A's origin at zero and the world's
// orientation (so that shapes far from the world origin lose nothing, as in
// the general path), without setting up a pair. (Two point cores whose
// offset is in the normal range are answered before this, from the offset
// alone: query.c, ball_pair_of.)
//
// Closest points of segments P(s) = p0 + s·d1 and Q(t) = q0 + t·d2,
// s, t ∈ [0, 1] (Ericson, Real-Time Collision Detection, §5.1.9): with
// r = p0 − q0, a = d1·d1, e = d2·d2, b = d1·d2, c = d1·r, f = d2·r, the
// unclamped minimiser of |P(s) − Q(t)|² solves
//     a s − b t = −c,   b s − e t = −f,
// so s = (b f − c e) / (a e − b²). Clamp s to [0, 1], take the t closest to
// P(s), t = (b s + f) / e; if t leaves [0, 1], clamp it and recompute s for
// that t, s = (b t − c) / a, clamped. For parallel segments (a e − b² = 0)
// any s gives a closest pair of the lines; s = 0 is taken, and the clamps
// that follow find the segments' pair. A zero-length segment reduces
// each formula to the projection of a point on the other segment.
#include "internal.h"

/// x clamped to [0, 1] by max and min (no branches; a NaN gives 0).
static gjk_real clamp01(gjk_real x) { return gjk_min(gjk_max(x, 0), 1); }

/// Closest points of the segments p0–p1 and q0–q1 (either may have zero
/// length), at the parameters *ps and *pt. Inline: its outputs then stay in
/// registers.
static GJK_INLINE void segments_closest(gjk_vec3 p0, gjk_vec3 p1, gjk_vec3 q0, gjk_vec3 q1, gjk_vec3 *cp, gjk_vec3 *cq,
                                        gjk_real *ps, gjk_real *pt) {
    gjk_vec3 d1 = gjk_sub(p1, p0), d2 = gjk_sub(q1, q0), r = gjk_sub(p0, q0);
    gjk_real a = gjk_dot(d1, d1), e = gjk_dot(d2, d2), f = gjk_dot(d2, r);
    gjk_real s, t;
    if (!(a > 0) && !(e > 0)) {
        s = t = 0;
    } else if (!(a > 0)) {
        s = 0;
        t = clamp01(f / e);
    } else {
        gjk_real c = gjk_dot(d1, r);
        if (!(e > 0)) {
            t = 0;
            s = clamp01(-c / a);
        } else {
            gjk_real b = gjk_dot(d1, d2);
            gjk_real denom = a * e - b * b, numer = b * f - c * e;
            // The reciprocals are formed beside the first division, not
            // after it: two long operations fewer in the chain (83 -> 81 ns
            // for two capsules, at 19 more instructions).
            gjk_real inv_a = 1 / a, inv_e = 1 / e;
            if (denom < GJK_R(0x1p-10) * (a * e)) {
                // Nearly parallel (θ below about 0.03): a·e − b² = |d1|²|d2|² sin²θ
                // cancels, its rounding ε·a·e against a·e·θ², and s's error
                // ε/θ² of itself moved the closest pair along the segments,
                // which costs the distance ε·L/θ (segments 1e-8 rad apart and
                // crossing came out 1e-8 apart, 40 tolerances; special-path
                // review). The same quantities as cross products, by
                // (u × v)·(w × x) = (u·w)(v·x) − (u·x)(v·w): a·e − b² =
                // |d1 × d2|², b·f − c·e = (d1 × d2)·(d2 × r), whose rounding
                // is ε/θ of themselves, and the distance's ε·L.
                gjk_vec3 n = gjk_cross(d1, d2);
                denom = gjk_dot(n, n);
                numer = gjk_dot(n, gjk_cross(d2, r));
            }
            s = denom > 0 ? clamp01(numer / denom) : 0;
            t = (b * s + f) * inv_e;
            if (t < 0) {
                t = 0;
                s = clamp01(-c * inv_a);
            } else if (t > 1) {
                t = 1;
                s = clamp01((b - c) * inv_a);
            }
        }
    }
    *cp = gjk_mul_add(p0, s, d1);
    *cq = gjk_mul_add(q0, t, d2);
    *ps = s;
    *pt = t;
}

/// The unit normal of closest points cp, cq of the segments p0–p1 and
/// q0–q1 at the parameters s, t, for cores closer than the rounding of
/// their points lets their difference's direction be trusted. The
/// difference cq − cp holds the rounding of the points, ε times their size,
/// in every direction, and for nearly parallel segments the error of their
/// ill-conditioned parameters along them; a tip δ of the normal toward a
/// segment costs the gap of the shapes along it the segment's length times
/// δ (two capsules 7e-9 off coaxial: 5e-8 at a size of 2; two segments
/// 1e-6 off parallel and crossing: 7e-7). Where the point is inside its
/// segment the difference is square to that segment, and its part along it
/// is removed: with both inside, its parts along an orthonormal basis e1,
/// e2 of the two directions (e1 along d2, e2 along d1's part across it;
/// e2's direction is off by ε/θ for segments θ apart, but d1 leans toward
/// it by only θ, so the normal stays square to d1 within ε), the
/// remainder's sign taken onto e1 × e2 when it is no more than rounding
/// (the segments cross). Below θ = ε^(2/3) the segments count as parallel
/// (e1 only): the normal then leans toward d1 by θ·|n·e2|, and n·e2 is
/// itself small, as the closest points' difference is square to both
/// segments and n lies near e1 × e2 but for rounding (a review's 200,000
/// float pairs θ = 2.5e-5 to 1e-4 apart: the gap along n at most 0.15
/// tolerances from the distance); e2's error would turn n about the
/// segments by ε/θ, which costs a gap of h (ε/θ)² / 2, h the cores'
/// distance. Out of line: rare in
/// double (cores nearer than 1.8e-5 of their size at the default
/// tolerance), but in float, whose default tolerance is only about 17ε, it
/// takes most near pairs.
static GJK_NOINLINE gjk_vec3 square_normal(gjk_vec3 p0, gjk_vec3 p1, gjk_vec3 q0, gjk_vec3 q1, gjk_vec3 cp, gjk_vec3 cq,
                                           gjk_real s, gjk_real t) {
#if GJK_USE_FLOAT
    const gjk_real parallel = 2.5e-5f; // ε^(2/3)
#else
    const gjk_real parallel = 3.7e-11;
#endif
    gjk_vec3 d1 = gjk_sub(p1, p0), d2 = gjk_sub(q1, q0), n = gjk_sub(cq, cp);
    bool inside_p = s > 0 && s < 1, inside_q = t > 0 && t < 1;
    if (inside_p && inside_q) {
        // w = d1's part across e1, taken off twice: once, it keeps a part
        // along e1 of ε/θ of itself (the cancellation), and removing n's
        // part along e2 then put one back along e1 (review: two segments
        // 1.9e-10 rad apart, a normal 6e-4 off, its gap 1.45e-3 short).
        gjk_vec3 e1 = gjk_normalize(d2), w = gjk_mul_add(d1, -gjk_dot(d1, e1), e1);
        w = gjk_mul_add(w, -gjk_dot(w, e1), e1);
        n = gjk_mul_add(n, -gjk_dot(n, e1), e1);
        gjk_real lw = gjk_length(w);
        if (lw > parallel * gjk_length(d1)) {
            gjk_vec3 e2 = gjk_scale(1 / lw, w), m = gjk_cross(e1, e2);
            n = gjk_mul_add(n, -gjk_dot(n, e2), e2);
            if (!(gjk_max_abs(n) > 64 * GJK_REAL_EPSILON * gjk_max(gjk_max_abs(cp), gjk_max_abs(cq)))) {
                n = gjk_dot(m, n) < 0 ? gjk_neg(m) : m;
            }
        }
    } else if (inside_q) {
        n = gjk_mul_add(n, -gjk_dot(n, d2) / gjk_length_sq(d2), d2);
    } else if (inside_p) {
        n = gjk_mul_add(n, -gjk_dot(n, d1) / gjk_length_sq(d1), d1);
    }
    return gjk_normalize(n);
}

/// The core of a point-like or segment-like shape as the segment *a–*b and
/// its rounding radius *r (margin and radius): true when the shape is one
/// of these four types and valid as gjk_shape_check sees it (margin and
/// radius ≥ 0, every number finite), with the sum *r finite too, as the
/// general path requires. False for every other type and for an invalid
/// shape, which the general path then reports. One pass over the shape,
/// where the type, the check and the radius were three.
static GJK_INLINE bool segment_core(const gjk_shape *s, gjk_vec3 *a, gjk_vec3 *b, gjk_real *r) {
    gjk_real radius = 0;
    bool ends = true; // the endpoints are finite
    switch (s->type) {
    case GJK_SHAPE_POINT: *a = *b = gjk_v3_zero(); break;
    case GJK_SHAPE_SPHERE: *a = *b = gjk_v3_zero(); radius = s->sphere.radius; break;
    case GJK_SHAPE_SEGMENT:
        *a = s->segment.a;
        *b = s->segment.b;
        ends = gjk_is_valid_vec3(*a) && gjk_is_valid_vec3(*b);
        break;
    case GJK_SHAPE_CAPSULE:
        *a = s->capsule.a;
        *b = s->capsule.b;
        radius = s->capsule.radius;
        ends = gjk_is_valid_vec3(*a) && gjk_is_valid_vec3(*b);
        break;
    default: return false;
    }
    // Both terms ≥ 0 (NaN fails), so the sum is at most the largest finite
    // number exactly when both are finite and it did not overflow.
    *r = s->margin + radius;
    return (s->margin >= 0) & (radius >= 0) & (*r <= GJK_REAL_MAX) & ends;
}

/// The shape's core endpoints rotated by r (world orientation, not
/// translated).
static GJK_INLINE void rotate_core(gjk_scaled_rotation r, gjk_vec3 *a, gjk_vec3 *b) {
    // A capsule about its centre (b = −a, as gjk_make_capsule's callers
    // mostly build them) needs one rotation.
    bool symmetric = (b->x == -a->x) & (b->y == -a->y) & (b->z == -a->z);
    *a = gjk_rotate_scaled(r, *a);
    *b = symmetric ? gjk_neg(*a) : gjk_rotate_scaled(r, *b);
}

/// v / |v| given vv = |v|² and len = √vv: with vv in the normal range the
/// quotient is as exact as gjk_normalize, which otherwise scales first.
static gjk_vec3 unit_of(gjk_vec3 v, gjk_real vv, gjk_real len) {
    return vv > GJK_SQUARE_MIN && vv < GJK_SQUARE_MAX ? gjk_scale(1 / len, v) : gjk_normalize(v);
}

/// The closest points of the core segments a0–a1, b0–b1 (s->ca, s->cb),
/// their distance s->core and the unit s->n along it, solved on the points
/// multiplied by 2^−k. a·e − b² is quartic in the coordinates: a·e
/// overflows near 1e76 (1e9 in float), and two crossing capsules of size
/// 2^255 came out separated; the scaled solve takes over above 1e68 (1e7),
/// with room below that. Below, it underflows sooner for segments
/// shorter than the coordinates: with lengths down to 1e-15 of them (1e-6
/// in float), whose errors the tolerance would see, it stays normal above
/// 1e-60 (1e-3 in float; a float pair near 3e-7 in size with segments 1e-4
/// of it came out separated instead of touching). Scaled near 1 the
/// parameters s, t do not change, and the answer scales back exactly (a
/// power of two).
static GJK_NOINLINE void closest_scaled(gjk_vec3 a0, gjk_vec3 a1, gjk_vec3 b0, gjk_vec3 b1, int k, gjk_real rel, gjk_real m,
                                        gjk_closed_answer *s) {
    gjk_real down = gjk_ldexp(1, -k), up = gjk_ldexp(1, k);
    gjk_real ps, pt;
    a0 = gjk_scale(down, a0), a1 = gjk_scale(down, a1), b0 = gjk_scale(down, b0), b1 = gjk_scale(down, b1);
    segments_closest(a0, a1, b0, b1, &s->ca, &s->cb, &ps, &pt);
    gjk_vec3 diff = gjk_sub(s->cb, s->ca);
    gjk_real dd = gjk_length_sq(diff), len = gjk_sqrt(dd);
    s->n = unit_of(diff, dd, len);
    if (len * rel <= 8 * GJK_REAL_EPSILON * m * down) {
        s->n = square_normal(a0, a1, b0, b1, s->ca, s->cb, ps, pt);
    }
    s->core = len * up;
    s->ca = gjk_scale(up, s->ca);
    s->cb = gjk_scale(up, s->cb);
}

bool gjk_segment_closed_form(const gjk_query_input *in, gjk_closed_answer *s) {
    // Anything invalid goes the general way, which reports it.
    gjk_vec3 a0, a1, b0, b1;
    if (!segment_core(in->shape_a, &a0, &a1, &s->ra) || !segment_core(in->shape_b, &b0, &b1, &s->rb) ||
        !gjk_options_valid(&in->options)) {
        return false;
    }
    gjk_vec3 off = gjk_sub(in->transform_b.position, in->transform_a.position);
    gjk_real rel = gjk_options_tolerance(&in->options);
    // A frame with A's origin at 0 and the world's orientation: B's offset
    // is one difference of world positions, as in the general path.
    gjk_scaled_rotation ra, rb; // validated
    if (!gjk_scaled_rotation_of(&in->transform_a, &ra) || !gjk_scaled_rotation_of(&in->transform_b, &rb)) {
        return false;
    }
    rotate_core(ra, &a0, &a1);
    rotate_core(rb, &b0, &b1);
    // The tolerance scale: a bound on the coordinates of the points of the
    // difference of the cores, which GJK would see.
    gjk_real m = gjk_max_abs(off) + gjk_max(gjk_max_abs(a0), gjk_max_abs(a1)) +
                 gjk_max(gjk_max_abs(b0), gjk_max_abs(b1));
    b0 = gjk_add(b0, off);
    b1 = gjk_add(b1, off);
    s->tol = rel * (m + s->ra + s->rb);
    if (!gjk_is_valid_real(s->tol)) {
        return false; // overflow: the general path reports it
    }
#if GJK_USE_FLOAT
    const gjk_real lo = 1e-3f, hi = 1e7f; // see closest_scaled
#else
    const gjk_real lo = 1e-60, hi = 1e68;
#endif
    s->origin = in->transform_a.position;
    if (!(m >= lo && m <= hi)) {
        closest_scaled(a0, a1, b0, b1, gjk_shift_outside(m, lo, hi), rel, m, s);
        return s->core > s->tol && gjk_is_valid_real(s->core); // else EPA (or the general path's report)
    }
    gjk_real ps, pt;
    segments_closest(a0, a1, b0, b1, &s->ca, &s->cb, &ps, &pt);
    gjk_vec3 diff = gjk_sub(s->cb, s->ca);
    gjk_real dd = gjk_length_sq(diff);
    s->core = gjk_sqrt(dd);
    if (!(s->core > s->tol) || !gjk_is_valid_real(s->core)) {
        return false; // the cores touch or cross: EPA
    }
    // The tip ε·m/core of the normal, times a length up to 2m, is within
    // the tolerance rel·m unless core·rel is below 2ε·m (8ε·m: a margin).
    s->n = s->core * rel <= 8 * GJK_REAL_EPSILON * m ? square_normal(a0, a1, b0, b1, s->ca, s->cb, ps, pt)
                                                     : unit_of(diff, dd, s->core);
    return true;
}
