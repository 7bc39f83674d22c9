// Closed forms for pairs whose cores are points or segments: spheres,
// capsules, segments and points. Their core distance is the distance between
// two segments (a point is a segment of length zero), found directly instead
// of by GJK iterations.
//
// Closest points of segments P(s) = p0 + s·d1 and Q(t) = q0 + t·d2,
// s, t ∈ [0, 1] (Ericson, Real-Time Collision Detection, §5.1.9): with
// r = p0 − q0, a = d1·d1, e = d2·d2, b = d1·d2, c = d1·r, f = d2·r, the
// unclamped minimiser of |P(s) − Q(t)|² solves
//     a s − b t = −c,   b s − e t = −f,
// so s = (b f − c e) / (a e − b²). Clamp s to [0, 1], take the t closest to
// P(s), t = (b s + f) / e; if t leaves [0, 1], clamp it and recompute s for
// that t, s = (b t − c) / a, clamped. For parallel segments (a e − b² = 0)
// any s gives a closest pair; s = 0 is taken. A zero-length segment reduces
// each formula to the projection of a point on the other segment.
#include "internal.h"

static gjk_real clamp01(gjk_real x) { return x < 0 ? 0 : (x > 1 ? 1 : x); }

void gjk_segments_closest(gjk_vec3 p0, gjk_vec3 p1, gjk_vec3 q0, gjk_vec3 q1, gjk_vec3 *cp, gjk_vec3 *cq) {
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
            gjk_real denom = a * e - b * b;
            s = denom > 0 ? clamp01((b * f - c * e) / denom) : 0;
            t = (b * s + f) / e;
            if (t < 0) {
                t = 0;
                s = clamp01(-c / a);
            } else if (t > 1) {
                t = 1;
                s = clamp01((b - c) / a);
            }
        }
    }
    *cp = gjk_mul_add(p0, s, d1);
    *cq = gjk_mul_add(q0, t, d2);
}

/// The core of a point-like or segment-like shape as a segment; false for
/// every other type.
static bool core_segment(const gjk_shape *s, gjk_vec3 *a, gjk_vec3 *b) {
    switch (s->type) {
    case GJK_SHAPE_POINT:
    case GJK_SHAPE_SPHERE: *a = *b = gjk_v3_zero(); return true;
    case GJK_SHAPE_SEGMENT: *a = s->segment.a; *b = s->segment.b; return true;
    case GJK_SHAPE_CAPSULE: *a = s->capsule.a; *b = s->capsule.b; return true;
    default: return false;
    }
}

bool gjk_pair_segment_cores(gjk_pair *p, gjk_vec3 *ca, gjk_vec3 *cb) {
    gjk_vec3 a0, a1, b0, b1;
    if (!core_segment(p->a, &a0, &a1) || !core_segment(p->b, &b0, &b1)) {
        return false;
    }
    b0 = gjk_add(gjk_mat3_mul(p->rot_b, b0), p->pos_b);
    b1 = gjk_add(gjk_mat3_mul(p->rot_b, b1), p->pos_b);
    // The scale GJK would see: the points of the difference of the cores.
    gjk_real m = gjk_max(gjk_max(gjk_max_abs(gjk_sub(a0, b0)), gjk_max_abs(gjk_sub(a0, b1))),
                         gjk_max(gjk_max_abs(gjk_sub(a1, b0)), gjk_max_abs(gjk_sub(a1, b1))));
    if (!gjk_is_valid_real(m)) {
        return false; // overflow: the general path reports it
    }
    p->scale = gjk_max(p->scale, m);
    gjk_segments_closest(a0, a1, b0, b1, ca, cb);
    return true;
}
