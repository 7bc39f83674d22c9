// Closed forms for 2D pairs whose cores are points or segments: circles,
// capsules, segments and points. The twin of closed_form.c: their core
// distance is the distance between two segments (a point is a segment of
// length zero), found directly instead of by GJK iterations, in a frame with
// A's origin at zero and the world's orientation (so that shapes far from
// the world origin lose nothing, as in the general path), without setting up
// a pair.
//
// Closest points of two segments in the plane (the 2D case of Ericson,
// Real-Time Collision Detection, §5.1.9, with the crossing test of
// §5.1.9.1): two segments either cross, and then their distance is zero
// (the general path answers: EPA tells touching from penetrating), or they
// do not, and then a closest pair has an endpoint of one segment and its
// projection on the other. (In the plane, the stationary point of
// |P(s) − Q(t)|² inside (0, 1)² is a common point of the two lines, so it
// is a closest pair only when the segments cross.) The crossing test is the
// sign of the signed areas cross(d1, q0 − p0), cross(d1, q1 − p0) (the
// sides of P's line that Q's ends are on) and their twins for P's ends;
// otherwise the nearest of the four endpoint projections is the answer.
// No formula divides by the sine of the angle between the segments, so
// parallel segments are no special case, and a zero-length segment is a
// point whose projection parameter is 0.
#include "internal2.h"

/// x clamped to [0, 1] by max and min (no branches; a NaN gives 0).
static gjk_real clamp01(gjk_real x) { return gjk_min(gjk_max(x, 0), 1); }

/// v / |v| given vv = |v|² and len = √vv: with vv in the normal range the
/// quotient is as exact as gjk_normalize2, which otherwise scales first.
static gjk_vec2 unit_of(gjk_vec2 v, gjk_real vv, gjk_real len) {
    return vv > GJK_SQUARE_MIN && vv < GJK_SQUARE_MAX ? gjk_scale2(1 / len, v) : gjk_normalize2(v);
}

/// The closest pair of the point x and the segment s + t·e, t ∈ [0, 1]
/// (e may be zero), as core points of A and B (x is A's when x_is_a), with
/// their distance and the unit normal from A to B in *out.
///
/// When x projects inside the segment the normal is the segment's
/// perpendicular and the distance |cross(e, x − s)| / |e|, both exact to
/// rounding of the data, not the direction of the difference of the two
/// points: that carries the points' rounding, ε·|coordinates|, divided by
/// the distance, and next to a long segment such a tilt changes the
/// shapes' overlap along the normal by far more than the tolerance (the
/// general path takes the perpendicular of the simplex edge, gjk2.c).
///
/// inv_ee is 1 / |e|² (1 for a zero e), which the callers have formed
/// beside other work: here it would stand first in the chain of dependent
/// operations, and 1/|e| is formed from it and |e| by a product.
static void point_segment(gjk_vec2 x, gjk_vec2 s, gjk_vec2 e, gjk_real inv_ee, bool x_is_a, gjk2_segment_answer *out) {
    gjk_real ee = gjk_dot2(e, e);
    gjk_vec2 xs = gjk_sub2(x, s);
    gjk_real t = gjk_dot2(xs, e) * inv_ee;
    gjk_vec2 c = gjk_mul_add2(s, clamp01(t), e);
    out->ca = x_is_a ? x : c;
    out->cb = x_is_a ? c : x;
    if ((t > 0) & (t < 1) & (ee > GJK_SQUARE_MIN) & (ee < GJK_SQUARE_MAX)) {
        // perp(e)·(x − s) = cross(e, x − s): x lies on perp(e)'s side when
        // the area is positive, and the normal from x to the segment is
        // then −perp(e)/|e|; from A to B it is that with x in A.
        gjk_real area = gjk_cross2(e, xs), len = gjk_sqrt(ee), inv_len = len * inv_ee;
        gjk_real k = (area > 0) == x_is_a ? -inv_len : inv_len;
        out->core = gjk_abs(area) * inv_len;
        out->n = gjk_scale2(k, gjk_perp2(e));
        return;
    }
    gjk_vec2 diff = gjk_sub2(out->cb, out->ca);
    gjk_real dd = gjk_length_sq2(diff);
    out->core = gjk_sqrt(dd);
    out->n = unit_of(diff, dd, out->core);
}

/// 1 / |e|², or 1 for a zero e.
static gjk_real inv_sq(gjk_vec2 e) {
    gjk_real ee = gjk_dot2(e, e);
    return 1 / (ee > 0 ? ee : 1);
}

/// The closest pair of the segments p0–p1 (A's) and q0–q1 (B's) into
/// *out (see point_segment); false when they cross.
static GJK_INLINE bool segments_closest(gjk_vec2 p0, gjk_vec2 p1, gjk_vec2 q0, gjk_vec2 q1, gjk2_segment_answer *out) {
    gjk_vec2 d1 = gjk_sub2(p1, p0), d2 = gjk_sub2(q1, q0);
    // Twice the signed areas: Q's ends against P's line, P's ends against Q's.
    gjk_real a1 = gjk_cross2(d1, gjk_sub2(q0, p0)), a2 = gjk_cross2(d1, gjk_sub2(q1, p0));
    gjk_real a3 = gjk_cross2(d2, gjk_sub2(p0, q0)), a4 = gjk_cross2(d2, gjk_sub2(p1, q0));
    bool q_straddles = ((a1 < 0) & (a2 > 0)) | ((a1 > 0) & (a2 < 0));
    bool p_straddles = ((a3 < 0) & (a4 > 0)) | ((a3 > 0) & (a4 < 0));
    if (q_straddles & p_straddles) {
        return false; // distance zero: the general path's EPA answers
    }
    // Each endpoint against the other segment: the nearest pair (by squared
    // distances, by selects rather than unpredictable branches) is then
    // computed once more with its normal.
    gjk_real i1 = inv_sq(d1), i2 = inv_sq(d2);
    gjk_vec2 r0 = gjk_sub2(p0, q0), r1 = gjk_sub2(p1, q0), r2 = gjk_sub2(q0, p0), r3 = gjk_sub2(q1, p0);
    gjk_real e0 = gjk_length_sq2(gjk_mul_add2(r0, -clamp01(gjk_dot2(r0, d2) * i2), d2));
    gjk_real e1 = gjk_length_sq2(gjk_mul_add2(r1, -clamp01(gjk_dot2(r1, d2) * i2), d2));
    gjk_real e2 = gjk_length_sq2(gjk_mul_add2(r2, -clamp01(gjk_dot2(r2, d1) * i1), d1));
    gjk_real e3 = gjk_length_sq2(gjk_mul_add2(r3, -clamp01(gjk_dot2(r3, d1) * i1), d1));
    bool b1 = e1 < e0;
    gjk_real be = b1 ? e1 : e0;
    gjk_vec2 x = b1 ? p1 : p0;
    bool b2 = e2 < be;
    be = b2 ? e2 : be;
    x = b2 ? q0 : x;
    bool b3 = e3 < be;
    x = b3 ? q1 : x;
    bool x_is_a = !(b2 | b3);
    point_segment(x, x_is_a ? q0 : p0, x_is_a ? d2 : d1, x_is_a ? i2 : i1, x_is_a, out);
    return true;
}

/// The core of a shape as a segment a–b (a point core: both zero) and its
/// rounding radius: 1 for a point core (point, circle), 2 for a segment
/// core (segment, capsule), 0 for every other type and for invalid
/// parameters (margin and radius ≥ 0 with a finite sum, endpoints finite:
/// one combined test; NaN fails every comparison).
static int core_of(const gjk2_shape *s, gjk_vec2 *a, gjk_vec2 *b, gjk_real *r) {
    gjk_real radius = 0;
    int kind;
    switch (s->type) {
    case GJK2_SHAPE_POINT: *a = *b = gjk_v2(0, 0); kind = 1; break;
    case GJK2_SHAPE_CIRCLE: *a = *b = gjk_v2(0, 0); radius = s->circle.radius; kind = 1; break;
    case GJK2_SHAPE_SEGMENT: *a = s->segment.a; *b = s->segment.b; kind = 2; break;
    case GJK2_SHAPE_CAPSULE: *a = s->capsule.a; *b = s->capsule.b; radius = s->capsule.radius; kind = 2; break;
    default: return 0;
    }
    *r = s->margin + radius;
    gjk_real z = (a->x - a->x) + (a->y - a->y) + (b->x - b->x) + (b->y - b->y);
    bool valid = (s->margin >= 0) & (radius >= 0) & (*r <= GJK_REAL_MAX) & (z == z);
    return valid ? kind : 0;
}

/// The closest pair of the cores a0–a1 (A's) and b0–b1 (B's) into *s;
/// false when they cross. A point core is given as a0 = a1 (b0 = b1).
static GJK_INLINE bool cores_closest(gjk_vec2 a0, gjk_vec2 a1, gjk_vec2 b0, gjk_vec2 b1, bool points_a, bool points_b,
                          gjk2_segment_answer *s) {
    if (points_a) {
        point_segment(a0, b0, gjk_sub2(b1, b0), inv_sq(gjk_sub2(b1, b0)), true, s);
    } else if (points_b) {
        point_segment(b0, a0, gjk_sub2(a1, a0), inv_sq(gjk_sub2(a1, a0)), false, s);
    } else if (!segments_closest(a0, a1, b0, b1, s)) {
        return false;
    }
    return true;
}

/// cores_closest on the points multiplied by 2^−k, the answer scaled back
/// (exactly: a power of two; the normal does not change). The squared
/// lengths and their reciprocals (1/|e|²) leave the normal range for
/// coordinates outside about [1e-150, 1e150] (for segments shorter than
/// the coordinates, sooner): two overlapping capsules of size 2^-513 came
/// out separated by half their size, the projections clamped to the wrong
/// ends, and at 2^511 likewise.
static GJK_NOINLINE bool cores_closest_scaled(gjk_vec2 a0, gjk_vec2 a1, gjk_vec2 b0, gjk_vec2 b1, bool points_a,
                                              bool points_b, int k, gjk2_segment_answer *s) {
    gjk_real down = gjk_ldexp(1, -k), up = gjk_ldexp(1, k);
    if (!cores_closest(gjk_scale2(down, a0), gjk_scale2(down, a1), gjk_scale2(down, b0), gjk_scale2(down, b1), points_a,
                       points_b, s)) {
        return false;
    }
    s->ca = gjk_scale2(up, s->ca);
    s->cb = gjk_scale2(up, s->cb);
    s->core *= up;
    return true;
}

bool gjk2_segment_closed_form(const gjk2_query_input *in, gjk2_segment_answer *s) {
    gjk_vec2 a0, a1, b0, b1;
    int kind_a = core_of(in->shape_a, &a0, &a1, &s->ra);
    int kind_b = core_of(in->shape_b, &b0, &b1, &s->rb);
    // Other shapes and anything invalid go the general way, which reports
    // it.
    if ((kind_a == 0) | (kind_b == 0) || !gjk_options_valid(&in->options)) {
        return false;
    }
    gjk_vec2 off = gjk_sub2(in->transform_b.position, in->transform_a.position);
    gjk_real rel = gjk_options_tolerance(&in->options);
    bool points_a = kind_a == 1, points_b = kind_b == 1;
    // (Two point cores whose offset is in the normal range are answered
    // before this, query2.c's ball_pair_of; here they are huge or tiny
    // apart, and are solved scaled, as the segments are.)
    // A frame with A's origin at 0 and the world's orientation: B's
    // offset is one difference of world positions, as in the general path.
    gjk_transform2 ta, tb; // validated, rotations normalised
    if (!gjk2_transform_unit(&in->transform_a, &ta) || !gjk2_transform_unit(&in->transform_b, &tb)) {
        return false;
    }
    a0 = gjk_rot2_apply(ta.rotation, a0);
    a1 = gjk_rot2_apply(ta.rotation, a1);
    b0 = gjk_rot2_apply(tb.rotation, b0);
    b1 = gjk_rot2_apply(tb.rotation, b1);
    // The tolerance scale: a bound on the coordinates of the points of
    // the difference of the cores, which GJK would see.
    gjk_real m =
        gjk2_max_abs(off) + gjk_max(gjk2_max_abs(a0), gjk2_max_abs(a1)) + gjk_max(gjk2_max_abs(b0), gjk2_max_abs(b1));
    b0 = gjk_add2(b0, off);
    b1 = gjk_add2(b1, off);
#if GJK_USE_FLOAT
    const gjk_real lo = 1e-10f, hi = 1e17f; // see cores_closest_scaled
#else
    const gjk_real lo = 1e-130, hi = 1e150;
#endif
    bool apart = m >= lo && m <= hi ? cores_closest(a0, a1, b0, b1, points_a, points_b, s)
                                    : cores_closest_scaled(a0, a1, b0, b1, points_a, points_b, gjk_shift_outside(m, lo, hi), s);
    if (!apart) {
        return false; // they cross
    }
    s->tol = rel * (m + s->ra + s->rb);
    // The cores touch or cross (EPA decides), or a sum overflowed: the
    // general path answers (and reports an overflow).
    gjk_real z = (s->tol - s->tol) + (s->n.x - s->n.x) + (s->n.y - s->n.y);
    if (!(s->core > s->tol) || !(s->core <= GJK_REAL_MAX) || !(z == z)) {
        return false;
    }
    s->origin = in->transform_a.position;
    return true;
}
